"""The title row says less rather than run into its keys: a live game drops the table's name
first, a pause drops who paused, then the stage is cut; the pause and a blank before the keys
always stay (at 80 and 100 columns, the longest stage of the house's games)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from views import after_one_hand

from p2pwillow.tui.draw import UNICODE, title_row
from p2pwillow.tui.state import Mode, ScreenState
from p2pwillow.view import TableView

LONG_STAGE = "Texas Hold'em High-Low — before the flop: declaring"
KEYS = "[?] help  [q] quit "


def title(view: TableView, width: int) -> str:
    state = ScreenState()
    state.view = view
    state.mode = Mode.PLAY
    text = "".join(part for _, part in title_row(state, width, UNICODE))
    assert len(text) == width, text
    return text


def table(*, live: bool, stage: str = LONG_STAGE, paused: bool = False) -> TableView:
    view = after_one_hand(4)
    seats = tuple(replace(s, name="Bartholomew") if s.seat == 2 else s for s in view.seats)
    assert view.clock is not None
    clock = replace(
        view.clock, paused_by=2 if paused else None, paused_for=60.0 if paused else None
    )
    return replace(view, stage=stage, hand=12, live=live, seats=seats, clock=clock)


@pytest.mark.parametrize("width", [80, 100])
@pytest.mark.parametrize("live", [True, False], ids=["live", "willow"])
@pytest.mark.parametrize("paused", [True, False], ids=["paused", "running"])
def test_the_keys_stay_whole_after_a_blank(width: int, live: bool, paused: bool) -> None:
    text = title(table(live=live, paused=paused), width)
    assert text.endswith(" " + KEYS), text
    assert text.startswith(" Willow "), text
    assert ("PAUSED" in text) is paused, text
    if paused:
        assert text.removesuffix(KEYS).rstrip().endswith("PAUSED") or "PAUSED by" in text, text


def test_a_live_game_drops_the_tables_name_before_its_stage() -> None:
    view = table(live=True)
    assert "simulated table" not in title(view, 80)
    assert LONG_STAGE in title(view, 100), title(view, 100)
    # Weeping Willow keeps the table's name, and cuts the stage instead
    assert "simulated table · hand 12 · Texas" in title(table(live=False), 80)


def test_a_pause_says_who_paused_while_there_is_room() -> None:
    assert "hand 12 · trading PAUSED by Bartholomew " in title(
        table(live=True, stage="trading", paused=True), 80
    )
    cut = title(table(live=True, paused=True), 80)
    assert "PAUSED by" not in cut and " PAUSED " in cut and "…" in cut, cut
