"""Real views for the screen's unit tests, made once: a hand at an in-process table takes
seconds, and a view is frozen, so tests change copies of it (`dataclasses.replace`)."""

from __future__ import annotations

import functools

from p2pwillow.table import Table
from p2pwillow.view import TableView, table_view


@functools.cache
def after_one_hand(players: int) -> TableView:
    """The view of seat 0 after one hand of `players` bots (seed 5)."""
    table = Table(players, seed=5)
    table.play(1)
    return table_view(table.sessions[0])
