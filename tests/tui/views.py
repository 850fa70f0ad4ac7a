"""Real views for the screen's unit tests, made once: a hand at an in-process table takes
seconds, and a view is frozen, so tests change copies of it (`dataclasses.replace`). Each
table's keys, and so its deck, are seeded as its bots' choices are: every view, its cards and
stacks included, is the same on every run."""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import replace

from p2pwillow.bots import Decision
from p2pwillow.games import weeping_willow as ww
from p2pwillow.rules import ActionKind as K
from p2pwillow.session import Session
from p2pwillow.table import Table
from p2pwillow.view import SeatView, TableView, table_view


@functools.cache
def after_one_hand(players: int) -> TableView:
    """The view of seat 0 after one hand of `players` bots (seed 5, the cards too)."""
    table = Table(players, seed=5, rng=random.Random(5).randbytes)
    table.play(1)
    return table_view(table.sessions[0])


def traded(view: TableView, names: Sequence[str]) -> TableView:
    """`view` with seat `i` named `names[i]`, nothing won or bet yet, and every seat having
    traded with two others this hand (three trades: 2 and 1 cards with the first, 1 with
    the second)."""
    seats = len(view.seats)

    def changed(s: SeatView) -> SeatView:
        others = [o for o in range(seats) if o != s.seat]
        trades = ((others[0], 2), (others[1], 1), (others[0], 1))
        return replace(s, name=names[s.seat], won=0, bet=0, trades=trades)

    return replace(view, seats=tuple(changed(s) for s in view.seats))


OFFERED = 3
"""How many cards the last seat offers in `at_an_offer`."""


@functools.cache
def at_an_offer(players: int) -> TableView:
    """The view of seat 0 at a table of `players` (seed 5, the cards too) while the last
    seat's offer of `OFFERED` cards is open and nobody has answered it yet: the dealer
    announces the table's defaults and every seat before the last passes its turn."""
    offerer = players - 1

    def decide(session: Session) -> Decision | None:
        hand = session.hand
        seat = session.seat
        assert hand is not None and seat is not None
        legal = hand.legal_actions(seat)
        if K.ANNOUNCE in legal:
            return Decision(K.ANNOUNCE, announcement=ww.announcement())
        if ww.open_offer(hand) is not None:
            return Decision(K.DECLINE) if seat != 0 and K.DECLINE in legal else None
        if seat == offerer and K.OFFER in legal:
            return Decision(K.OFFER, k=OFFERED)
        return Decision(K.PASS) if K.PASS in legal else None

    deciders = dict.fromkeys(range(players), decide)
    table = Table(players, seed=5, rng=random.Random(5).randbytes, deciders=deciders)
    table.start_hand()
    for _ in range(10 * players):
        view = table_view(table.sessions[0])
        if view.offer is not None and view.offer.accepted_by is None:
            return view
        if not table.decide_round():
            break
    raise AssertionError(f"no open offer of the last seat came at a table of {players}")
