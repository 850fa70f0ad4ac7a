"""The clock row at 80x24 and 100x32 keeps the keys that work now whole (issue 24, item 9):
the more-time key and the pause key beside the player's own countdown, the arbiter's
more-time key beside a bot's, and the resume key of a pause, said shorter on a narrow
screen rather than cut. A real view after one hand, a hand running again."""

from __future__ import annotations

from dataclasses import replace

import pytest
from views import after_one_hand

from p2pwillow.tui.draw import UNICODE, clock_row
from p2pwillow.tui.state import ScreenState
from p2pwillow.view import ClockView, TableView

WIDTHS = [80, 100]
NAMES = ("Ann", "Bot Eve (easy)", "Bot Lou (easy)", "Bot Bea (easy)")
CLOCK = ClockView(
    at=0.0, left=(), action_clock=90, warn_at=10, bank=120, bank_step=30, pauses=3,
    pause_limit=300, arbiter=0, you_arbiter=True,
)  # fmt: skip
"""`willow play`'s defaults: the host is the arbiter."""


def running(to_act: int, left: float, **clock: object) -> TableView:
    """Seat 0's view of four seats (the bots named as `willow play` names them) in a hand
    that waits for `to_act`, `left` seconds on its clock."""
    view = after_one_hand(4)
    seats = tuple(
        replace(s, name=NAMES[s.seat], to_act=s.seat == to_act, in_hand=True) for s in view.seats
    )
    c = replace(CLOCK, left=((to_act, left),), **clock)  # type: ignore[arg-type]
    return replace(view, seats=seats, hand_running=True, clock=c)


def row_text(view: TableView, width: int) -> str:
    state = ScreenState()
    state.update(view, busy=False, links={}, notice=None, seat_confirmed=True)
    state.wall = lambda: 86_400.0
    row = clock_row(state, width, UNICODE)
    text = "".join(t for _, t in row)
    assert len(text) == width
    return text.rstrip()


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("left", [88.0, 7.0], ids=["clock", "hurry"])
def test_your_clock_keeps_more_time_and_pause_whole(width: int, left: float) -> None:
    text = row_text(running(0, left), width)
    assert "…" not in text, text
    assert f"your clock {'1:28' if left > 10 else '0:07'}" in text, text
    assert "[m] " in text and "+30 s" in text, text
    assert text.endswith("[Space] pause (3 left)") or text.endswith("[Space] pause"), text
    if width == 100:
        assert "[m] more time (+30 s, 120 s in your bank)  [Space] pause (3 left)" in text


@pytest.mark.parametrize("width", WIDTHS)
def test_a_bots_clock_keeps_the_arbiters_more_time_and_pause_whole(width: int) -> None:
    text = row_text(running(2, 28.0), width)
    assert "…" not in text, text
    assert text.startswith("Bot Lou (easy)'s clock 0:28  [m] more time"), text
    assert text.endswith("[Space] pause (3 left)") or text.endswith("[Space] pause"), text


@pytest.mark.parametrize("width", WIDTHS)
def test_a_pause_keeps_the_resume_key_whole(width: int) -> None:
    view = running(0, 88.0, paused_by=1, paused_for=5.0, pause_seconds=300)
    text = row_text(view, width)
    assert "…" not in text, text
    assert text.startswith(" PAUSED by Bot Eve (easy) since "), text
    assert "4:55" in text and text.endswith("[Space] resume"), text
