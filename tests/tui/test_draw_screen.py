"""The draw of five-card draw on the table screen, read back from a pyte terminal at 80x24 and
100x32 while a person plays along at an in-process table of three bots: the panel that asks
for the cards to discard (how many at most), picking and putting back cards by their numbers,
Enter to discard the picked and draw as many, the stand-pat key, a fourth discard refused with
the reason, the new cards under the table after the draw, and every other player's draw in the
log and beside its seat ("draws 2", "stands pat")."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from tui_screen import DISCARD, SIZES, bots_client, play_until, seated_until, take_seat, terminal

from p2pwillow.cards import Card
from p2pwillow.rules import ActionKind, Phase
from p2pwillow.view import TableView

TITLE = "Five-Card Draw — the draw"


def _cards(cs: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(c.unicode for c in cs)


def _my_draw(text: str, view: TableView) -> bool:
    return DISCARD in text and view.action(ActionKind.DRAW).legal


def _redealt(before: TableView) -> Callable[[str, TableView], bool]:
    """The view once the person's draw is dealt (the betting after it, or the hand's end)."""

    def done(text: str, view: TableView) -> bool:
        return view.hand == before.hand and (
            (view.phase is Phase.BETTING and view.betting_round == 2) or not view.hand_running
        )

    return done


def _table(text: str) -> str:
    """The screen above the person's cards: the seats, the felt and the log."""
    return text.split("Your cards")[0]


def _others_drew(text: str, view: TableView, *, log: bool = True) -> None:
    """Every other player who has drawn says how many beside its seat and (`log`: while the
    draws are the log's last lines) in the log."""
    drew = [s for s in view.seats if not s.you and s.drew is not None]
    for s in drew:
        said = f"draws {s.drew}" if s.drew else "stands pat"
        assert not log or f"{s.name} {said}" in text, (s, text)
    boxes = re.findall(
        r"\s{2}(draws \d|stands pat)\b",
        "\n".join(ln for ln in _table(text).splitlines() if not ln.startswith(("bot", "Ann"))),
    )
    assert len(boxes) >= len(drew), (drew, text)


@pytest.mark.parametrize(("rows", "columns"), SIZES)
def test_the_draw_panel_picks_and_discards_the_cards(
    tmp_path: Path, rows: int, columns: int
) -> None:
    c = bots_client(tmp_path, "five-card-draw")

    async def main() -> None:
        async with terminal(c, rows, columns) as t:
            text, view = await seated_until(t, c, _my_draw)
            assert TITLE in text.splitlines()[0], text
            assert f"{DISCARD}3): none yet" in text, text
            assert "[s] stand pat" in text and "[Enter] discard them" in text, text
            held = [own.card for own in view.cards]
            numbered = " ".join(f"{i}:{c.unicode}" for i, c in enumerate(held, start=1))
            assert f"Your cards  {numbered}" in text, text
            _others_drew(text, view)

            t.press("1", "3", "5")
            text = await t.settled("discard 3, draw 3")
            assert f"{DISCARD}3): {_cards([held[0], held[2], held[4]])}" in text, text
            t.press("5")  # put back
            text = await t.settled("discard 2, draw 2")
            assert f"{DISCARD}3): {_cards([held[0], held[2]])} " in text, text

            t.press("\r")
            text, after = await play_until(t, c, _redealt(view))
            kept = [held[1], held[3], held[4]]
            assert [own.card for own in after.cards][:3] == kept
            assert len(after.drawn) == 2 and not set(after.drawn) & set(held), after.drawn
            assert f"Your cards  {_cards(kept)}  new {_cards(after.drawn)}" in text, text
            mine = after.mine
            assert mine is not None and mine.drew == 2
            assert f"{mine.name} draws 2" in text or rows < 32, text  # the log
            _others_drew(text, after, log=False)

    asyncio.run(main())


@pytest.mark.parametrize(("rows", "columns"), SIZES)
def test_a_fourth_discard_is_refused(tmp_path: Path, rows: int, columns: int) -> None:
    c = bots_client(tmp_path, "five-card-draw")

    async def main() -> None:
        async with terminal(c, rows, columns) as t:
            text, view = await seated_until(t, c, _my_draw)
            held = [own.card for own in view.cards]
            t.press("2", "3", "4", "5")
            text = await t.settled("at most 3")
            assert "you may discard at most 3 cards: press a picked card again to keep it" in text
            assert f"{DISCARD}3): {_cards(held[1:4])} " in text, text
            assert "discard 3, draw 3" in text, text
            t.press("2", "1")  # one put back, another picked instead
            text = await t.settled(f"{DISCARD}3): {_cards([held[2], held[3], held[0]])} ")
            t.press("\r")
            text, after = await play_until(t, c, _redealt(view))
            assert [own.card for own in after.cards][:2] == [held[1], held[4]]
            assert len(after.drawn) == 3, after

    asyncio.run(main())


@pytest.mark.parametrize(("rows", "columns"), SIZES)
def test_standing_pat(tmp_path: Path, rows: int, columns: int) -> None:
    c = bots_client(tmp_path, "five-card-draw")

    async def main() -> None:
        async with terminal(c, rows, columns) as t:
            text, view = await seated_until(t, c, _my_draw)
            held = [own.card for own in view.cards]
            t.press("\r")  # nothing picked: Enter says how to stand pat
            text = await t.settled("pick the cards to discard, or [s] to stand pat")
            t.press("s")
            text, after = await play_until(t, c, _redealt(view))
            assert [own.card for own in after.cards] == held and after.drawn == ()
            assert f"Your cards  {_cards(held)}" in text and "new" not in text, text
            mine = after.mine
            assert mine is not None and mine.drew == 0
            assert f"{mine.name} stands pat" in text or rows < 32, text  # the log
            assert "stands pat" in _table(text).split("─" * 70)[0], text  # beside the seat
            _others_drew(text, after, log=False)

    asyncio.run(main())


@pytest.mark.parametrize(("rows", "columns"), SIZES)
def test_help_names_the_dealers_choice_games_and_the_draw_keys(
    tmp_path: Path, rows: int, columns: int
) -> None:
    c = bots_client(tmp_path, "five-card-draw")

    async def main() -> None:
        async with terminal(c, rows, columns) as t:
            await take_seat(t)
            await t.settled(lambda s: "hand 1" in s)
            t.press("?")
            text = await t.wait_for("[?] or [Esc] closes this help")
            assert "Help" in text and "Weeping Willow: each player is dealt" in text, text
            also = "Roll Your Own: no trading, antes. Also stud, hold'em, Omaha, draw, high-low."
            assert also in text, text
            draw_keys = "digits pick up to 3 to discard, [Enter] draw them, [s] stand pat"
            assert f"Draw        {draw_keys}" in text, text
            assert "[s] stand pat" in text, text
            t.press("?")
            await t.wait_for(lambda s: "closes this help" not in s)

    asyncio.run(main())
