"""The show after the declaration and the match of the pot or the fold it brings (SPEC 3.18),
through real sessions: the player's show is the showdown's `show` entry, its answer a
`pot_match` entry every peer checks; the transcript replays for an observer and verifies; a
wrong amount, an answer by another seat, an answer nobody owes and a show outside the window
are refused with nothing changed."""

from __future__ import annotations

import dataclasses
import functools
import random
from collections import Counter

import pytest
from session_helpers import SAMPLES, fork, make_rng, observer, resign, snapshot, states_before

from p2pwillow.games.split_pot import HOLDEM_HIGH_LOW
from p2pwillow.ledger import Reason, RemoteProtocolError
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.entry import Entry
from p2pwillow.rules import ActionKind, Announcement, Decision, Phase, TableConfig
from p2pwillow.session import Session
from p2pwillow.table import Decider, Table, bot_decider
from p2pwillow.verify import Verdict, verify_transcript

SHOWER = 1
START = 1000


def _decider(seat: int) -> Decider:
    """Deals hold'em high-low, calls every bet (hands reach the declaration) and declares as a
    bot; the SHOWER shows as soon as it is to act in the bet after the declaration and then
    matches the pot in the first hand and folds in the second."""
    bot = bot_decider(seat, random.Random(seat), samples=SAMPLES)

    def decide(session: Session) -> Decision | None:
        hand = session.hand
        if hand is None:
            return None
        if hand.phase is Phase.ANNOUNCE:
            return Decision(ActionKind.ANNOUNCE, announcement=Announcement.of(HOLDEM_HIGH_LOW))
        if hand.phase is Phase.BETTING and seat in hand.to_act():
            if hand.owes_match == seat:
                return Decision(ActionKind.POT_MATCH, match=not session.summaries)
            legal = hand.legal_actions(seat)
            if seat == SHOWER and ActionKind.EARLY_SHOW in legal:
                return Decision(ActionKind.EARLY_SHOW)
            return Decision(ActionKind.CALL if ActionKind.CALL in legal else ActionKind.CHECK)
        return bot(session)

    return decide


@functools.cache
def played() -> Table:
    config = TableConfig(seats=3, games=(HOLDEM_HIGH_LOW.name,), ante=5, starting_stack=START)
    table = Table(
        3,
        config=config,
        seed=11,
        rng=make_rng("pot-match"),
        deciders={s: _decider(s) for s in range(3)},
    )
    assert table.play(2) == 2
    table.end_game()
    return table


def _answers(table: Table) -> list[tuple[int, k.PotMatch]]:
    return [(i, e.body) for i, e in enumerate(table.transcript) if isinstance(e.body, k.PotMatch)]


def test_a_show_after_the_declaration_is_answered_by_a_match_or_a_fold_and_replays() -> None:
    table = played()
    assert not table.rejections and not table.refusals
    (i, matched), (j, folded) = _answers(table)
    assert matched.answer == "match" and folded == k.PotMatch(answer="fold", amount=0)
    # the show before each answer is the shower's, right before it; a match puts in the pot
    for at in (i, j):
        assert table.transcript[at - 1].kind == "show"
        assert table.transcript[at - 1].author == table.transcript[at].author == SHOWER
    first, second = table.sessions[0].summaries
    assert matched.amount == 15  # the antes: everybody checked to the declaration
    assert sum(p.amount for p in first.pots) == 2 * 15
    # the shower showed once: its show at the showdown is not owed again
    shows = Counter((e.hand, e.author) for e in table.transcript if e.kind == "show")
    assert shows[(1, SHOWER)] == 1 and shows[(2, SHOWER)] == 1
    # the fold forfeits: the shower wins nothing of the second hand's pots
    assert SHOWER in second.folded
    assert all(SHOWER not in p.winners for p in second.pots)
    seen = observer(table.lines)
    assert [s.pots for s in seen.summaries] == [first.pots, second.pots]
    game = seen.game
    assert sum(p.stack for p in game.players) + game.carried == 3 * START
    assert verify_transcript(b"".join(table.lines)).verdict is Verdict.VALID


# --- cheats: one RemoteProtocolError, nothing changed --------------------------------------


@functools.cache
def _states() -> list[Session]:
    return states_before(played().lines)


def _refused(i: int, bad: Entry) -> str:
    table = played()
    session = fork(_states()[i])
    before = snapshot(session)
    with pytest.raises(RemoteProtocolError) as caught:
        session.replay(bad)
    assert caught.value.reason is Reason.ILLEGAL_ACTION, caught.value
    assert snapshot(session) == before
    session.replay(table.transcript[i])  # the honest entry still fits
    return str(caught.value)


def test_a_match_of_another_amount_is_refused() -> None:
    table = played()
    (i, body), _ = _answers(table)
    for amount in (body.amount - 1, body.amount + 1, 0):
        bad = resign(table, table.transcript[i], body=dataclasses.replace(body, amount=amount))
        assert f"the match puts in {body.amount} chips, not {amount}" in _refused(i, bad)
    bad = resign(table, table.transcript[i], body=k.PotMatch(answer="fold", amount=15))
    assert "the fold puts in 0 chips, not 15" in _refused(i, bad)


def test_an_answer_by_another_seat_is_refused() -> None:
    table = played()
    (i, _), _ = _answers(table)
    other = (SHOWER + 1) % 3
    bad = resign(table, table.transcript[i], author=other)
    why = _refused(i, bad)
    assert f"seat {SHOWER} is to match the pot or fold, not seat {other}" in why


def test_an_answer_nobody_owes_is_refused() -> None:
    table = played()
    (i, body), _ = _answers(table)
    # in place of the show that put the player to it: a match without a show
    show = i - 1
    bad = resign(table, table.transcript[show], body=body)
    assert "nobody is put to match the pot or fold" in _refused(show, bad)


def test_a_show_before_the_declaration_or_while_an_answer_is_owed_is_refused() -> None:
    table = played()
    t = table.transcript
    (i, _), _ = _answers(table)
    show = t[i - 1]
    # the first betting decision of the hand, in the bet before the flop
    before = next(n for n, e in enumerate(t) if e.hand == show.hand and e.kind in ("call", "check"))
    bad = resign(table, t[before], author=SHOWER, body=show.body)
    assert "only in the bet after the declaration" in _refused(before, bad)
    # in place of the answer: another player's show while the shower owes its answer
    other = (SHOWER + 1) % 3
    later = next(e for e in t if e.kind == "show" and e.hand == show.hand and e.author == other)
    bad = resign(table, t[i], author=other, body=later.body)
    assert f"seat {SHOWER} must match the pot or fold first" in _refused(i, bad)
