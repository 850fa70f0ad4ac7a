"""How long what the screen told the person stays: a message belongs to the step of the hand
it was said at, and goes once the hand moves on; for a person whose seat is not in the hand
(sitting out), the hands the others play are not theirs, and it stays until the seat is dealt
in again."""

from __future__ import annotations

from dataclasses import replace

from views import after_one_hand

from p2pwillow.tui.state import ScreenState
from p2pwillow.view import TableView


def a_view(*, in_hand: bool) -> TableView:
    """A real view of seat 0 after one hand, with its seat in the hand or not."""
    view = after_one_hand(3)
    seats = tuple(replace(s, in_hand=in_hand) if s.you else s for s in view.seats)
    return replace(view, seats=seats, stage="round 1: betting")


def shown(state: ScreenState, view: TableView) -> str:
    state.update(view, busy=False, links={}, notice=None, seat_confirmed=True)
    return state.message


def test_a_message_to_a_seat_sitting_out_stays_until_it_is_dealt_in() -> None:
    view = a_view(in_hand=False)
    state = ScreenState()
    shown(state, view)
    state.say_keys("z", ["i"])
    told = state.message
    assert told
    # the bots play on: every step of the hand the seat sits out, and the next hand they play
    # without it (over in a second), leave it on the screen
    for stage in ("round 2: betting", "round 3: betting", "showdown"):
        assert shown(state, replace(view, stage=stage)) == told
    assert shown(state, replace(view, hand=view.hand + 1)) == told
    # dealt in again: the hand is the person's own step, and the message has had its time
    dealt_in = a_view(in_hand=True)
    assert shown(state, replace(dealt_in, hand=view.hand + 2)) == ""


def test_a_message_to_a_seat_in_the_hand_goes_with_its_step() -> None:
    view = a_view(in_hand=True)
    state = ScreenState()
    shown(state, view)
    state.say_keys("z", ["c"])
    assert state.message
    assert shown(state, replace(view, stage="round 2: betting")) == ""
