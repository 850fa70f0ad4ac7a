"""The line that says what the hand waits for is never cut at 80 columns (issue 24, item 9):
too wide, it is said without its parentheses (who accepted the offer, the bots' levels); on
the main panel and on the panels of a choice under way (whom to trade with, an amount)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from views import after_one_hand

from p2pwillow.rules import ActionKind, Phase
from p2pwillow.tui.draw import UNICODE, action_rows
from p2pwillow.tui.state import Mode, ScreenState
from p2pwillow.view import OfferView, Waiting

CHOOSE = "choose whom to trade with (Bot Ivy (easy) and Bot Dee (easy) accepted) or withdraw"


MODES = [Mode.PLAY, Mode.PARTNER, Mode.AMOUNT]


def waiting_line(width: int, mode: Mode = Mode.PLAY) -> str:
    view = after_one_hand(4)
    assert view.you is not None
    offer = OfferView(view.you, 1, None, (view.you,), accepted=(1, 2))
    view = replace(
        view,
        hand_running=True,
        phase=Phase.TRADING,
        offer=offer,
        waiting=(Waiting((view.you,), CHOOSE, True),),
    )
    state = ScreenState()
    state.update(view, busy=False, links={}, notice=None, seat_confirmed=True)
    state.mode = mode
    if mode is Mode.AMOUNT:
        state.amount_kind = ActionKind.OFFER
    rows = ["".join(t for _, t in row) for row in action_rows(state, width, UNICODE)]
    assert all(len(r) == width for r in rows), rows
    return next(r for r in rows if r.startswith("Waiting for ")).rstrip()


@pytest.mark.parametrize("mode", MODES, ids=[m.value for m in MODES])
def test_a_waiting_line_too_wide_is_said_without_its_parentheses(mode: Mode) -> None:
    assert waiting_line(80, mode) == "Waiting for you: choose whom to trade with or withdraw"


@pytest.mark.parametrize("mode", MODES, ids=[m.value for m in MODES])
def test_a_waiting_line_that_fits_is_said_whole(mode: Mode) -> None:
    assert waiting_line(100, mode) == f"Waiting for you: {CHOOSE}"
