"""Real views for the screen's unit tests, made once: a hand at an in-process table takes
seconds, and a view is frozen, so tests change copies of it (`dataclasses.replace`)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import replace

from p2pwillow.table import Table
from p2pwillow.view import SeatView, TableView, table_view


@functools.cache
def after_one_hand(players: int) -> TableView:
    """The view of seat 0 after one hand of `players` bots (seed 5)."""
    table = Table(players, seed=5)
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
