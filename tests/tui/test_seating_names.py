"""The seating screen names everyone at the table with their fingerprints (SPEC 6.2), each
whole at 80x24 and 100x32 (issue 24, item 9): at 80 columns four seats with the names
`willow play` gives its bots take two rows rather than cut the last name."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from tui_screen import SEATING, SIZES, Still, terminal
from views import after_one_hand

from p2pwillow.view import TableView

NAMES = ("Ann", "Bot Eve (easy)", "Bot Lou (easy)", "Bot Bea (easy)")


class Seating(Still):
    """A table that does not move, the person not yet seated: the seating screen."""

    @property
    def seat_confirmed(self) -> bool:
        return False


def seating_screen(view: TableView, rows: int, columns: int) -> str:
    async def main() -> str:
        async with terminal(Seating(view), rows, columns) as t:
            return await t.settled(lambda s: SEATING in s and "At the table: " in s)

    return asyncio.run(main())


@pytest.mark.parametrize(("rows", "columns"), SIZES)
def test_everyone_at_the_table_is_named_whole(rows: int, columns: int) -> None:
    view = after_one_hand(4)
    view = replace(view, seats=tuple(replace(s, name=NAMES[s.seat]) for s in view.seats))
    text = seating_screen(view, rows, columns)
    drawn = text.split("\n")
    at = next(i for i, line in enumerate(drawn) if "At the table: " in line)
    said = " ".join(line.strip() for line in drawn[at : at + 2])
    assert "…" not in said, text
    for s in view.seats:
        assert f"{s.label} (you)" in said if s.you else s.label in said, (s.label, text)
    if columns == 100:
        assert " · ".join(f"{s.label}{' (you)' if s.you else ''}" for s in view.seats) in said
    assert "[y] yes, the same: take my seat" in text and SEATING in text
