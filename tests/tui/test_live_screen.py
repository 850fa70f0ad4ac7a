"""The table screen of the games dealt from the live deck (SPEC 3.15), read back from a pyte
terminal at 80x24 and 100x32 while a person plays along at an in-process table of three bots:
the game's name and street in the title, the board in the middle of the table with a slot for
each card still to come, the person's hole cards (hold'em) or down and up cards (stud), every
seat's up cards beside its face-down ones, and at the showdown each player's shown cards and
what its hand makes by the game's formation. A dealer at a table of several games calls one on
the announce panel, and nothing of Weeping Willow's trading or layout shows in these games."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from tui_screen import (
    ANNOUNCE,
    NEXT_HAND,
    SIZES,
    bots_client,
    play_until,
    seated_until,
    take_seat,
    terminal,
)

from p2pwillow.cards import Card
from p2pwillow.games import CATALOGUE
from p2pwillow.rules import Phase
from p2pwillow.view import TableView, made_by


def _cards(cs: tuple[Card, ...]) -> str:
    return " ".join(c.unicode for c in cs)


def _deciding(view: TableView) -> bool:
    return view.phase is Phase.BETTING and view.hand_running and view.decision_due


def _title(text: str) -> str:
    return text.splitlines()[0]


@pytest.mark.parametrize(("rows", "columns"), SIZES)
def test_holdem_shows_the_street_the_board_and_the_hole_cards(
    tmp_path: Path, rows: int, columns: int
) -> None:
    c = bots_client(tmp_path, "holdem")

    async def main() -> None:
        async with terminal(c, rows, columns) as t:
            text, view = await seated_until(t, c, lambda s, v: _deciding(v))
            assert "Texas Hold'em — before the flop: betting" in _title(text), text
            hole = _cards(tuple(own.card for own in view.cards))
            assert len(view.cards) == 2
            assert f"Your hole cards  {hole}" in text, text
            assert "board ·· ·· ·· ·· ··" in text, text  # five cards to come
            assert not re.search(r"\d:", text.split("Your hole cards")[1].splitlines()[0])

            text, view = await play_until(t, c, lambda s, v: _deciding(v) and len(v.board) == 3)
            assert "Texas Hold'em — the flop: betting" in _title(text), text
            assert f"board {_cards(view.board)} ·· ··" in text, text
            assert f"Your hole cards  {_cards(tuple(o.card for o in view.cards))}" in text
            assert view.made and f"· you have {view.made}" in text, text

            text, view = await play_until(t, c, lambda s, v: _deciding(v) and len(v.board) == 5)
            assert "Texas Hold'em — the river: betting" in _title(text), text
            assert f"board {_cards(view.board)}" in text and "··" not in text, text
            assert "trading" not in text.lower() and "Lay out" not in text, text

    asyncio.run(main())


@pytest.mark.parametrize(("rows", "columns"), SIZES)
def test_seven_card_stud_shows_each_seats_up_cards(tmp_path: Path, rows: int, columns: int) -> None:
    c = bots_client(tmp_path, "seven-card-stud")

    async def main() -> None:
        async with terminal(c, rows, columns) as t:
            text, view = await seated_until(t, c, lambda s, v: _deciding(v))
            assert "Seven-Card Stud — third street: betting" in _title(text), text
            for s in view.seats:
                assert len(s.showing) == 1 and _cards(s.showing) in text, (s, text)

            def sixth(text: str, v: TableView) -> bool:
                return _deciding(v) and v.betting_round == 4

            text, view = await play_until(t, c, sixth)
            assert "Seven-Card Stud — sixth street: betting" in _title(text), text
            still_in = [s for s in view.seats if s.in_hand and not s.folded]
            assert len(still_in) >= 2
            for s in still_in:
                # four up, two down: the backs drawn, or counted where the box is narrow
                assert len(s.showing) == 4, s
                backs = re.escape(_cards(s.showing)) + r" (▮▮|▮2)(?![▮0-9])"
                assert re.search(backs, text), (s, text)
            assert "discarded" not in text, text
            mine = view.mine
            assert mine is not None
            down = _cards(tuple(own.card for own in view.cards))
            assert f"Your cards  down {down}  up {_cards(mine.showing)}" in text, text

    asyncio.run(main())


@pytest.mark.parametrize(("rows", "columns"), SIZES)
def test_the_showdown_shows_the_shown_cards_and_what_they_make(
    tmp_path: Path, rows: int, columns: int
) -> None:
    c = bots_client(tmp_path, "holdem")

    def showdown(text: str, v: TableView) -> bool:
        shown = [s for s in v.seats if s.in_hand and not s.folded and len(s.showing) == 2]
        return NEXT_HAND in text and not v.hand_running and len(shown) >= 2

    async def main() -> None:
        async with terminal(c, rows, columns) as t:
            text, view = await seated_until(t, c, showdown)
            assert "Texas Hold'em — hand over" in _title(text), text
            assert len(view.board) == 5 and f"board {_cards(view.board)}" in text, text
            game = CATALOGUE["holdem"]
            shown = [s for s in view.seats if s.in_hand and not s.folded]
            for s in shown:
                # the cards it showed, and (in its box, where there is room) what they make
                # with the board by the game's formation, without the kicker
                made = made_by(game, s.showing, view.board)
                assert s.showing_text == re.sub(r", \w+ kicker$", "", made), (s, made)
                assert _cards(s.showing) in text, (s, text)
            assert any(f"· {s.showing_text}" in text for s in shown), text
            # who won, with what, at the full width under the table
            winner = view.seat(view.pots[0].winners[0])
            assert winner is not None
            assert f"with {made_by(game, winner.showing, view.board)}" in text, text

    asyncio.run(main())


@pytest.mark.parametrize(("rows", "columns"), SIZES)
def test_the_dealer_calls_a_live_deck_game_on_the_announce_panel(
    tmp_path: Path, rows: int, columns: int
) -> None:
    c = bots_client(tmp_path, "weeping-willow", "holdem", "seven-card-stud")

    async def main() -> None:
        async with terminal(c, rows, columns) as t:
            await take_seat(t)
            text = await t.settled(ANNOUNCE)
            assert "[g] game Weeping Willow" in text and "[t] trading" in text, text
            t.press("g")
            text = await t.wait_for("[g] game Texas Hold'em")
            # no deal size, no trading to set: the game's own options only
            assert "trading" not in text and "Deal size" not in text, text
            t.press("\r")
            text, view = await play_until(t, c, lambda s, v: _deciding(v))
            assert view.game_title == "Texas Hold'em"
            assert "Texas Hold'em — before the flop: betting" in _title(text), text
            assert "Your hole cards" in text and "board" in text, text
            assert "trading" not in text.lower() and "Lay out" not in text, text

    asyncio.run(main())
