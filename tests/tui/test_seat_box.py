"""A seat's box on the table at 80 columns: what a seat won is never cut, even beside a full
layout of face-up cards (it moves next to the stack when the cards leave no room)."""

from __future__ import annotations

from dataclasses import replace

from views import after_one_hand

from p2pwillow.cards import parse_cards
from p2pwillow.tui.draw import ASCII, UNICODE, Glyphs, plain, table_rows
from p2pwillow.view import TableView

LAYOUT = tuple(parse_cards("As Kh Qd Jc Ts 9h"))


def after_a_hand(won: int, showing: int) -> TableView:
    """A real view of seat 0 after one hand of four, seat 2 showing `showing` cards of a
    layout and having won `won`."""
    view = after_one_hand(4)
    seats = tuple(
        replace(
            s,
            showing=LAYOUT[:showing],
            face_down=0,
            won=won,
            bet=0,
            in_hand=True,
            folded=False,
            trades=(),
        )
        if s.seat == 2
        else replace(s, won=0)
        for s in view.seats
    )
    return replace(view, seats=seats)


def drawn(view: TableView, g: Glyphs) -> str:
    return "\n".join(plain("".join(t for _, t in row), g) for row in table_rows(view, 80, 16, g))


def test_a_win_beside_a_full_layout_is_shown_whole_at_80_columns() -> None:
    for g in (UNICODE, ASCII):
        text = drawn(after_a_hand(1250, len(LAYOUT)), g)
        assert "won 1250" in text, text


def test_a_win_beside_a_short_layout_stays_beside_the_cards() -> None:
    text = drawn(after_a_hand(40, 2), UNICODE)
    [row] = [r for r in text.splitlines() if "won 40" in r]
    assert "A♠ K♥  won 40" in row, text
