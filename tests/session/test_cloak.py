"""Go for Broke's cloak through real sessions (SPEC 3.17, 6.10): a player cloaks a face-up card
with a `cloak` entry, every peer takes its price, the card is replaced face down (every card in
one place after every entry), the transcript verifies and replays for an observer; a cloak out
of turn or of a card the player does not show is refused with nothing changed."""

from __future__ import annotations

import functools
import random

import pytest
from session_helpers import SAMPLES, fork, make_rng, observer, resign, snapshot, states_before
from test_live_deck_games import God

from p2pwillow.games.split_pot import GO_FOR_BROKE
from p2pwillow.ledger import Reason, RemoteProtocolError
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.entry import Entry
from p2pwillow.rules import ActionKind, Announcement, Decision, Hand, Phase, TableConfig
from p2pwillow.rules.wash import Wash
from p2pwillow.session import Session
from p2pwillow.table import Table, bot_decider
from p2pwillow.verify import Verdict, verify_transcript

START, ANTE = 1000, 5


def _player(seat: int) -> object:
    """Checks or calls every round; at the wash seat 0 cloaks its first face-up card and the
    others keep their cards."""
    bot = bot_decider(seat, random.Random(seat), samples=SAMPLES)

    def decide(session: Session) -> Decision | None:
        hand: Hand | None = session.hand
        if hand is None:
            return None
        if hand.phase is Phase.ANNOUNCE:
            return Decision(ActionKind.ANNOUNCE, announcement=Announcement.of(GO_FOR_BROKE))
        if hand.phase is Phase.DRAW and isinstance(hand.step, Wash) and seat in hand.to_act():
            if seat == 0:
                down = hand.hand_size(seat) - len(hand.showing(seat))
                return Decision(ActionKind.CLOAK, positions=(down,))
            return Decision(ActionKind.DRAW, positions=())
        if hand.phase is Phase.BETTING and seat in hand.to_act():
            legal = hand.legal_actions(seat)
            return Decision(ActionKind.CHECK if ActionKind.CHECK in legal else ActionKind.CALL)
        return bot(session)

    return decide


@functools.cache
def cloaked() -> tuple[Table, God]:
    god = God()
    config = TableConfig(seats=3, games=(GO_FOR_BROKE.name,), ante=ANTE, starting_stack=START)
    table = Table(
        3,
        config=config,
        seed=13,
        rng=make_rng("cloak"),
        deciders={s: _player(s) for s in range(3)},  # type: ignore[misc]
        on_entry=god,
    )
    god.table = table
    assert table.play(1) == 1
    table.end_game()
    return table, god


def test_a_cloak_is_paid_for_replaced_face_down_and_verifies() -> None:
    table, god = cloaked()
    assert not table.rejections and not table.refusals
    assert god.checked > 20
    cloaks = [(e.author, list(e.body.up)) for e in table.transcript if isinstance(e.body, k.Cloak)]
    assert cloaks == [(0, [0])]
    (summary,) = table.sessions[0].summaries
    # the antes and the cloak's eight: checks and calls add as much for everyone
    bets = sum(p.amount for p in summary.pots) - 3 * ANTE - 8 * ANTE
    assert bets % 3 == 0
    shown = dict(summary.shown)
    assert all(len(cards) == 5 for cards in shown.values())
    assert verify_transcript(b"".join(table.lines)).verdict is Verdict.VALID
    assert observer(table.lines).summaries[0].pots == summary.pots


def _refused(table: Table, i: int, bad: Entry, reason: Reason) -> str:
    session = fork(states_before(table.lines)[i])
    before = snapshot(session)
    with pytest.raises(RemoteProtocolError) as caught:
        session.replay(bad)
    assert caught.value.reason is reason, caught.value
    assert snapshot(session) == before
    session.replay(table.transcript[i])  # the honest entry still fits
    return str(caught.value)


def test_a_cloak_out_of_turn_or_of_a_card_not_showing_is_refused() -> None:
    table, _ = cloaked()
    i = next(n for n, e in enumerate(table.transcript) if isinstance(e.body, k.Cloak))
    entry = table.transcript[i]
    why = _refused(table, i, resign(table, entry, body=k.Cloak(up=[3])), Reason.ILLEGAL_ACTION)
    assert "one card showing" in why
    other = next(x for x in range(3) if x != entry.author)
    bad = resign(table, entry, author=other)
    why = _refused(table, i, bad, Reason.ILLEGAL_ACTION)
    assert "washes now" in why
