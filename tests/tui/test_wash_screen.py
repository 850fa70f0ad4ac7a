"""The wash of the house's stud games (SPEC 3.17) on the table screen, read back from a pyte
terminal while a person plays along at an in-process table of three bots: the panel says the
prices, numbers all the person's cards face down first and then face up (the wash's own
positions), a digit picks one card, Enter washes it; a face-up card washed leaves the seat's
up cards and a new one is dealt face up; the key that keeps the cards; the log tells washes."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from tui_screen import SEATING, WASH, Terminal, play_until, terminal

from p2pwillow.bots import Level
from p2pwillow.inprocess import InProcessClient
from p2pwillow.rules import ActionKind, Phase, TableConfig
from p2pwillow.tui.draw import HELP_TEXT
from p2pwillow.view import TableView

SIZES = [pytest.param(24, 80, id="80x24"), pytest.param(32, 100, id="100x32")]


def _client(tmp_path: Path, game: str = "seattle-six", seed: int = 3) -> InProcessClient:
    return InProcessClient(
        tmp_path / "game.jsonl",
        bots=3,
        seed=seed,
        rng=random.Random(seed).randbytes,
        samples=40,
        level=Level.EASY,
        config=TableConfig(seats=4, games=(game,)),
    )


def _my_wash(text: str, view: TableView) -> bool:
    return WASH in text and view.wash is not None and view.action(ActionKind.DRAW).legal


async def _at_the_wash(t: Terminal, c: InProcessClient) -> tuple[str, TableView]:
    await t.wait_for(SEATING)
    t.press("y")
    return await play_until(t, c, _my_wash)


def _redealt(before: TableView) -> Callable[[str, TableView], bool]:
    """The view once the wash's redeal is dealt (the betting after it, or the hand's end)."""

    def done(text: str, view: TableView) -> bool:
        return view.hand == before.hand and (
            (view.phase is Phase.BETTING and view.betting_round > before.betting_round)
            or not view.hand_running
        )

    return done


@pytest.mark.parametrize(("rows", "columns"), SIZES)
def test_washing_a_face_up_card(tmp_path: Path, rows: int, columns: int) -> None:
    c = _client(tmp_path)

    async def main() -> None:
        async with terminal(c, rows, columns) as t:
            text, view = await _at_the_wash(t, c)
            wash = view.wash
            mine = view.mine
            assert wash is not None and mine is not None
            assert wash.up == mine.showing and wash.up, (wash, mine)
            prompt = f"{WASH}{wash.price} chips"
            if wash.price_down != wash.price:
                prompt += f" (face down: {wash.price_down})"
            assert f"{prompt}: none yet" in text, text
            assert "[s] keep your cards" in text and "[Enter] wash it" in text, text
            numbered = " ".join(f"{i}:{c.unicode}" for i, c in enumerate(wash.cards, start=1))
            assert numbered.split(" ")[-1] in text, text
            first_up = len(wash.down) + 1
            washed = wash.cards[first_up - 1]
            assert f"up {first_up}:{washed.unicode}" in text, text
            stack = mine.stack

            t.press(str(first_up))
            text = await t.settled(f"pay {wash.price}, wash it")
            assert f"{prompt}: {washed.unicode} (face up)" in text, text
            t.press("\r")
            text, after = await play_until(t, c, _redealt(view))
            me = after.mine
            assert me is not None
            assert washed not in me.showing, (washed, me.showing)
            assert me.showing[:-1] == wash.up[1:] and len(me.showing) == len(wash.up), me
            assert me.stack <= stack - wash.price
            assert after.wash is None
            log = "\n".join("".join(str(p) for p in ln.parts) for ln in after.log)
            assert f"{me.name} pays {wash.price} and washes {washed}" in log, log

    asyncio.run(main())


def test_keeping_the_cards_at_a_wash(tmp_path: Path) -> None:
    c = _client(tmp_path)

    async def main() -> None:
        async with terminal(c, 32, 100) as t:
            _, view = await _at_the_wash(t, c)
            mine = view.mine
            assert mine is not None
            t.press("\r")  # nothing picked: Enter says how to keep the cards
            await t.settled("pick a card to wash, or [s] to keep your cards")
            t.press("s")
            _, after = await play_until(t, c, _redealt(view))
            me = after.mine
            assert me is not None and me.showing == mine.showing
            log = "\n".join("".join(str(p) for p in ln.parts) for ln in after.log)
            assert f"{me.name} keeps its cards" in log, log

    asyncio.run(main())


def test_help_lists_the_wash_keys() -> None:
    cards = next(line for line in HELP_TEXT if line.startswith("Cards "))
    assert "[Enter] give / lay out / wash, [s] keep" in cards, cards
    assert all(len(line) <= 78 for line in HELP_TEXT)
