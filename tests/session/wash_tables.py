"""One hand of a washing game through real sessions, as the wash tests play it: three players
that check or call every round (the hand reaches its washes and the show), each washing by a
rule of the test's; a god that checks every card is in one place after every entry; and the
refusal of a forged entry with nothing changed."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from session_helpers import SAMPLES, fork, make_rng, snapshot, states_before
from test_live_deck_games import God

from p2pwillow.ledger import Reason, RemoteProtocolError
from p2pwillow.ledger.entry import Entry
from p2pwillow.rules import ActionKind, Announcement, Decision, Hand, Phase, TableConfig
from p2pwillow.rules.wash import Wash
from p2pwillow.session import Session
from p2pwillow.table import Table, bot_decider

START, ANTE = 1000, 5

Washer = Callable[[Hand, int], Decision]
"""A seat's decision at a wash where the hand waits for it."""


def _player(seat: int, announcement: Announcement, wash: Washer) -> object:
    bot = bot_decider(seat, random.Random(seat), samples=SAMPLES)

    def decide(session: Session) -> Decision | None:
        hand: Hand | None = session.hand
        if hand is None:
            return None
        if hand.phase is Phase.ANNOUNCE:
            return Decision(ActionKind.ANNOUNCE, announcement=announcement)
        if hand.phase is Phase.DRAW and isinstance(hand.step, Wash) and seat in hand.to_act():
            return wash(hand, seat)
        if hand.phase is Phase.BETTING and seat in hand.to_act():
            legal = hand.legal_actions(seat)
            return Decision(ActionKind.CHECK if ActionKind.CHECK in legal else ActionKind.CALL)
        return bot(session)

    return decide


def one_hand(announcement: Announcement, wash: Washer, seed: int) -> tuple[Table, God]:
    """Three players play one hand of the announced game, washing by `wash`, and end the
    game; the god watched every entry."""
    god = God()
    name = announcement.game.name
    config = TableConfig(seats=3, games=(name,), ante=ANTE, starting_stack=START)
    table = Table(
        3,
        config=config,
        seed=seed,
        rng=make_rng(f"wash/{name}/{seed}"),
        deciders={s: _player(s, announcement, wash) for s in range(3)},  # type: ignore[misc]
        on_entry=god,
    )
    god.table = table
    assert table.play(1) == 1
    table.end_game()
    return table, god


def refused(table: Table, i: int, bad: Entry, reason: Reason) -> str:
    """`bad` in place of entry `i` is refused for `reason`, the observer unchanged, and the
    honest entry still fits; the refusal's words."""
    session = fork(states_before(table.lines)[i])
    before = snapshot(session)
    with pytest.raises(RemoteProtocolError) as caught:
        session.replay(bad)
    assert caught.value.reason is reason, caught.value
    assert snapshot(session) == before
    session.replay(table.transcript[i])
    return str(caught.value)
