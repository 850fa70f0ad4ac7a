"""The line that says what the hand waits for is never cut at 80 columns (issue 24, item 9):
too wide, it is said without its parentheses (who accepted the offer, the bots' levels)."""

from __future__ import annotations

from dataclasses import replace

from views import after_one_hand

from p2pwillow.rules import Phase
from p2pwillow.tui.draw import UNICODE, action_rows
from p2pwillow.tui.state import ScreenState
from p2pwillow.view import Waiting

CHOOSE = "choose whom to trade with (Bot Ivy (easy) and Bot Dee (easy) accepted) or withdraw"


def waiting_line(width: int) -> str:
    view = after_one_hand(4)
    assert view.you is not None
    view = replace(
        view,
        hand_running=True,
        phase=Phase.TRADING,
        waiting=(Waiting((view.you,), CHOOSE, True),),
    )
    state = ScreenState()
    state.update(view, busy=False, links={}, notice=None, seat_confirmed=True)
    rows = ["".join(t for _, t in row) for row in action_rows(state, width, UNICODE)]
    assert all(len(r) == width for r in rows), rows
    return next(r for r in rows if r.startswith("Waiting for ")).rstrip()


def test_a_waiting_line_too_wide_is_said_without_its_parentheses() -> None:
    assert waiting_line(80) == "Waiting for you: choose whom to trade with or withdraw"


def test_a_waiting_line_that_fits_is_said_whole() -> None:
    assert waiting_line(100) == f"Waiting for you: {CHOOSE}"
