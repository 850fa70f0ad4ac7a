"""The panel under the table once the game is over for this seat while the others play on: a
newcomer who refused the new safety code (SPEC 6.6, 8.9) stops with a hand of the others
already running in its last view. The panel says why it stopped, and the quit key leaves at
once: the hand is not its own, so nothing is abandoned."""

from __future__ import annotations

from dataclasses import replace

from views import after_one_hand

from p2pwillow.tui.draw import UNICODE, action_rows
from p2pwillow.tui.state import ScreenState
from p2pwillow.view import TableView

WHY = "you left the table: the safety codes did not match"


def others_playing() -> TableView:
    """A real view after one hand, a hand of the others running now, this seat not in it."""
    view = after_one_hand(3)
    seats = tuple(replace(s, in_hand=False) if s.you else s for s in view.seats)
    return replace(view, seats=seats, hand_running=True, stage="round 1: betting")


def panel(state: ScreenState) -> str:
    return "\n".join("".join(text for _, text in row) for row in action_rows(state, 100, UNICODE))


def test_a_seat_whose_game_ended_says_why_while_the_others_play_on() -> None:
    state = ScreenState()
    view = others_playing()
    state.update(view, busy=False, links={}, notice=None, seat_confirmed=True, ended=WHY)
    shown = panel(state)
    assert "You left the table: the safety codes did not match." in shown
    assert "Final stacks: " in shown and "Check it: " in shown
    assert state.ask_quit(), "the quit key leaves at once: no hand of this seat runs"
    assert not state.quit_asked


def test_a_seat_still_playing_is_asked_before_it_leaves_a_hand() -> None:
    state = ScreenState()
    state.update(others_playing(), busy=False, links={}, notice=None, seat_confirmed=True)
    assert "You left the table" not in panel(state)
    assert not state.ask_quit() and state.quit_asked
