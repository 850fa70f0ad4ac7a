"""A seat's facts on the real screen at 80x24 and 100x32: what a seat won, that it folded, and
every trade it made this hand (partner and count) are never cut, even beside a full layout of
face-up cards and long names (issue 24, item 9). The application draws a real view of a hand
of four, read back from a pyte terminal."""

from __future__ import annotations

from dataclasses import replace

import pytest
from seat_screen import facts_whole
from tui_screen import still_screen
from views import after_one_hand, traded

from p2pwillow.cards import parse_cards
from p2pwillow.view import TableView

LAYOUT = tuple(parse_cards("As Kh Qd Jc Ts 9h"))
SIZES = [(24, 80), (32, 100)]
NAMES = ("Ann", "Bartholomew", "Christabel", "Dorothea")


def a_table(seat: int, **facts: object) -> TableView:
    """A real view of seat 0 after a hand of four, every seat with a long name, and `seat`
    changed by `facts`; every seat traded with two others (three trades)."""
    view = traded(after_one_hand(4), NAMES)
    changed = replace(view.seats[seat], **facts)  # type: ignore[arg-type]
    return replace(view, seats=tuple(changed if s.seat == seat else s for s in view.seats))


@pytest.mark.parametrize(("rows", "columns"), SIZES)
@pytest.mark.parametrize("seat", [1, 2, 3])
def test_a_seat_that_won_and_traded_shows_both_whole(seat: int, rows: int, columns: int) -> None:
    view = a_table(seat, showing=LAYOUT[:5], face_down=0, folded=False, won=1250)
    facts_whole(still_screen(view, rows, columns), view, seat, ["won 1250"])


@pytest.mark.parametrize(("rows", "columns"), SIZES)
@pytest.mark.parametrize("seat", [1, 2, 3])
def test_a_seat_that_folded_and_traded_shows_both_whole(seat: int, rows: int, columns: int) -> None:
    view = a_table(seat, showing=LAYOUT[:2], face_down=3, folded=True, won=0)
    facts_whole(still_screen(view, rows, columns), view, seat, ["folded"])


@pytest.mark.parametrize(("rows", "columns"), SIZES)
def test_the_players_own_seat_that_won_and_traded_shows_both_whole(rows: int, columns: int) -> None:
    view = a_table(0, showing=LAYOUT, face_down=0, folded=False, won=95)
    facts_whole(still_screen(view, rows, columns), view, 0, ["won 95"])
