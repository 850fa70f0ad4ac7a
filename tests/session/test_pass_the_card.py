"""Pass the Card through real sessions (SPEC 3.19, 3.13.18, 6.10): the face-up cards of each
street are dealt one at a time, a deal of one card each, and every seat's keep or pass comes
between them; a god sees every card in one place after every entry; the transcript verifies
and replays for an observer; a pass out of turn, by the last seat dealt or without the chips is
refused with nothing changed; a player away at its choice keeps its card by the clock."""

from __future__ import annotations

import functools
import random

from session_helpers import SAMPLES, make_rng, observer, resign
from test_live_deck_games import God
from wash_tables import refused

from p2pwillow.games import plain
from p2pwillow.games.pass_the_card import PASS_THE_CARD
from p2pwillow.ledger import Reason
from p2pwillow.ledger import kinds as k
from p2pwillow.rules import ActionKind, Announcement, Decision, Hand, Phase, TableConfig
from p2pwillow.rules.events import CardKept, CardPassed, TimedOut
from p2pwillow.session import Session
from p2pwillow.table import Decider, Table, bot_decider
from p2pwillow.verify import Verdict, verify_transcript

ANTE = 5
PASSERS = (0, 1)
"""Seats 0 and 1 pass every card they may; seat 2 keeps every card."""


def _player(seat: int) -> Decider:
    bot = bot_decider(seat, random.Random(seat), samples=SAMPLES)

    def decide(session: Session) -> Decision | None:
        hand: Hand | None = session.hand
        if hand is None:
            return None
        if hand.phase is Phase.ANNOUNCE:
            return Decision(ActionKind.ANNOUNCE, announcement=Announcement.of(PASS_THE_CARD))
        if hand.phase is Phase.STREET and seat in hand.to_act():
            passes = seat in PASSERS and ActionKind.PASS_CARD in hand.legal_actions(seat)
            return Decision(ActionKind.PASS_CARD if passes else ActionKind.KEEP_CARD)
        if hand.phase is Phase.BETTING and seat in hand.to_act():
            legal = hand.legal_actions(seat)
            return Decision(ActionKind.CHECK if ActionKind.CHECK in legal else ActionKind.CALL)
        return bot(session)

    return decide


def _away(seat: int) -> Decider:
    """`_player`, away whenever its card of a pass street is open: its clock runs out."""
    play = _player(seat)

    def decide(session: Session) -> Decision | None:
        hand = session.hand
        if hand is not None and hand.phase is Phase.STREET:
            return None
        return play(session)

    return decide


def _table(stack: int, seed: int, away: int | None = None) -> tuple[Table, God]:
    """Three players play one hand of Pass the Card from `stack` chips each (seat `away`
    away at each of its choices), and end the game; the god watched every entry."""
    god = God()
    config = TableConfig(
        seats=3, games=(PASS_THE_CARD.name,), ante=ANTE, starting_stack=stack, min_bet=25
    )
    table = Table(
        3,
        config=config,
        seed=seed,
        rng=make_rng(f"pass-the-card/{stack}/{seed}/{away}"),
        deciders={s: _away(s) if s == away else _player(s) for s in range(3)},
        on_entry=god,
    )
    god.table = table
    assert table.play(1) == 1
    table.end_game()
    return table, god


@functools.cache
def passing() -> tuple[Table, God]:
    return _table(1000, seed=23)


_CHOICES = ("pass_card", "keep_card")


def test_cards_come_one_at_a_time_with_every_choice_between_them() -> None:
    table, god = passing()
    assert not table.rejections and not table.refusals
    assert god.checked > 40
    t = table.transcript
    choices = [(e.kind, e.author) for e in t if e.kind in _CHOICES]
    # four pass streets of three seats: two choices each (the last seat is not asked)
    assert len(choices) == 8
    assert {author for kind, author in choices if kind == "pass_card"} <= set(PASSERS)
    assert any(kind == "pass_card" for kind, _ in choices)
    assert all(kind == "keep_card" for kind, author in choices if author == 2)
    # no deal step opens between a card and the choice on it: each choice follows the shares
    # of the deal that opened its card, and every deal step of a street is one card
    steps = [e.body.step for e in t if isinstance(e.body, k.StreetShares)]
    assert steps == sorted(steps)
    hand = table.sessions[0].hand
    assert hand is not None
    passes = [e for e in hand.events if isinstance(e, CardPassed)]
    assert len(passes) == sum(kind == "pass_card" for kind, _ in choices)
    # every pass is paid for: dead money in the pot
    data = b"".join(table.lines)
    assert verify_transcript(data).verdict is Verdict.VALID
    (summary,) = table.sessions[0].summaries
    assert observer(table.lines).summaries[0].pots == summary.pots
    assert sum(p.amount for p in summary.pots) >= 3 * ANTE + 25 * len(passes)


def test_a_pass_out_of_turn_or_by_the_last_seat_dealt_is_refused() -> None:
    table, _ = passing()
    t = table.transcript
    choices = [i for i, e in enumerate(t) if e.kind in _CHOICES]
    start = next(e for e in t if isinstance(e.body, k.HandStart))
    assert isinstance(start.body, k.HandStart)
    dealer = start.body.dealer
    # third street is dealt from the dealer's left: the dealer is its last seat
    i = choices[0]
    assert t[i].author != dealer
    last = resign(table, t[i], author=dealer, body=plain("pass_card"))
    why = refused(table, i, last, Reason.ILLEGAL_ACTION)
    assert f"seat {dealer} is dealt last this street" in why
    # the seat whose turn it is not, passing in its place
    other = next(x for x in range(3) if x not in (t[i].author, dealer))
    early = resign(table, t[i], author=other, body=plain("pass_card"))
    why = refused(table, i, early, Reason.ILLEGAL_ACTION)
    assert f"seat {t[i].author} keeps or passes its card now, not seat {other}" in why
    # a choice while a card is still being dealt: in place of the shares that open a card
    j = next(x for x in range(i, 0, -1) if t[x].kind == "street_shares")
    dealing = resign(table, t[j], body=plain("keep_card"))
    why = refused(table, j, dealing, Reason.ILLEGAL_ACTION)
    assert "a card is being dealt" in why


@functools.cache
def short() -> tuple[Table, God]:
    """Stacks of 20: after the ante nobody can pay the 25 a pass costs."""
    return _table(20, seed=5)


def test_a_pass_without_the_chips_is_refused() -> None:
    table, _ = short()
    assert not table.rejections and not table.refusals
    t = table.transcript
    choices = [i for i, e in enumerate(t) if e.kind in _CHOICES]
    assert choices and all(t[i].kind == "keep_card" for i in choices)
    i = choices[0]
    bad = resign(table, t[i], body=plain("pass_card"))
    why = refused(table, i, bad, Reason.ILLEGAL_ACTION)
    assert f"a pass costs 25 chips; seat {t[i].author} has 15" in why
    assert verify_transcript(b"".join(table.lines)).verdict is Verdict.VALID


def test_a_player_away_at_its_choice_keeps_its_card_by_the_clock() -> None:
    table, god = _table(1000, seed=23, away=0)
    assert not table.rejections and not table.refusals and god.checked > 40
    hand = table.sessions[0].hand
    assert hand is not None
    timed = [e for e in hand.events if isinstance(e, TimedOut)]
    # the start moves one seat a street: seat 0 is dealt last in one street of four
    assert len(timed) >= 2 and all(e.seat == 0 for e in timed), timed
    assert all(isinstance(e.outcome, CardKept) for e in timed), timed
    assert not any(e.kind == "pass_card" and e.author == 0 for e in table.transcript)
    assert any(e.kind == "timeout" for e in table.transcript)
    assert verify_transcript(b"".join(table.lines)).verdict is Verdict.VALID
