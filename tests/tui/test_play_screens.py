"""The screens of the end of a game, read back from a pyte terminal: ending the game with its
key (the question, then the final stacks and how to verify), and `willow play`'s own table
(real `willow bot` processes on loopback) when a bot's process dies and when the person
quits (the bots stopped and waited for, the transcript's path printed)."""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pyte
import pytest
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output
from tui_screen import ANNOUNCE, DEADLINE, SEATING, PyteFile, Terminal, answer_keys, terminal

from p2pwillow.bots import Level
from p2pwillow.inprocess import InProcessClient
from p2pwillow.live import SeatOptions
from p2pwillow.net.lobby import TablePlan
from p2pwillow.play import BotPlan, Bots, play_table
from p2pwillow.rules import TableConfig
from p2pwillow.tui import Terminal as Screen
from p2pwillow.verify import Verdict, verify_file

OVER = "The game is over: you ended it."


async def play_until(t: Terminal, done: Callable[[str], bool]) -> str:
    """Answer every question the screen asks until it shows `done`."""
    while True:
        text = await t.settled(lambda s: done(s) or answer_keys(s) is not None)
        if done(text):
            return text
        keys = answer_keys(text)
        assert keys is not None
        t.press(*keys)
        await t.wait_for(lambda s, before=text: s != before)  # type: ignore[misc]


def test_ending_the_game_asks_then_shows_the_final_stacks_and_how_to_verify(
    tmp_path: Path,
) -> None:
    c = InProcessClient(
        tmp_path / "game.jsonl",
        bots=2,
        seed=3,
        rng=random.Random(3).randbytes,
        samples=40,
        level=Level.EASY,
    )

    async def main() -> None:
        async with terminal(c, 30, 100) as t:
            await t.wait_for(SEATING)
            t.press("y")
            await t.settled(ANNOUNCE)
            t.press("e")  # mid-hand: the game ends once this hand is over
            text = await t.wait_for("End the game?")
            assert "The game stops once this hand is over" in text
            t.press("n")
            text = await t.wait_for(lambda s: "End the game?" not in s)
            t.press("e")
            await t.wait_for("End the game?")
            t.press("y")
            text = await t.wait_for("the game ends after this hand")
            text = await play_until(t, lambda s: OVER in s)
            stacks = re.search(r"Final stacks: (.+)", text)
            assert stacks is not None, text
            chips = re.findall(r"(\d+)(?= ·|$)", stacks.group(1).strip())
            assert len(chips) == 3 and sum(map(int, chips)) == 3 * 1000, stacks.group(1)
            assert (
                "The game is over: you ended it.  [q] leave (the check below is printed in full)"
                in text
            )
            assert "✗" not in text  # the panel says it: no notice besides
            assert f"Check it: willow verify {tmp_path}"[:90] in text  # cut where the screen ends
            assert "game over" in t.row(0)
            t.press("\r")  # no next hand
            await t.wait_for("✗ the game is over: you ended it")
            t.press("e")
            await t.wait_for("✗ the game is over: you ended it")
            assert "End the game?" not in t.text()
            t.press("q")  # nothing left to abandon: the screen closes without a question
            assert await asyncio.wait_for(t.done(), DEADLINE) == "you left the table"
            assert "Leave the table?" not in t.text()

    asyncio.run(main())
    assert c.ended == "the game is over: you ended it"
    assert verify_file(tmp_path / "game.jsonl").valid


class PlayScreen:
    """`willow play`'s table in this process, on a pyte screen with a pipe keyboard."""

    def __init__(self) -> None:
        self.screen = pyte.Screen(100, 30)
        self.output = Vt100_Output(
            PyteFile(self.screen, "utf-8"),  # type: ignore[arg-type]
            lambda: Size(rows=30, columns=100),
            term="xterm-256color",
            enable_cpr=False,
        )

    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def wait_for(self, test: Callable[[str], bool], what: str) -> str:
        end = time.monotonic() + DEADLINE
        while True:
            text = self.text()
            if test(text):
                return text
            if time.monotonic() > end:
                raise AssertionError(f"the screen never showed {what}; it shows:\n{text}")
            await asyncio.sleep(0.05)


def test_willow_play_shows_a_dead_bot_in_one_line_and_stops_the_rest_on_quitting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    options = SeatOptions(
        home=str(tmp_path / "home"),
        name="Ann",
        bot=None,
        address=None,
        port=0,
        events=None,
        screen=True,
    )
    plan = TablePlan("Ann's table", TableConfig(seats=3), 0)
    crews: list[Bots] = []
    shown = PlayScreen()

    async def main() -> int:
        with create_pipe_input() as keys:
            task = asyncio.ensure_future(
                play_table(
                    options,
                    plan,
                    BotPlan(2, "easy", 40),
                    terminal=Screen(keys, shown.output),
                    say=False,
                    started=crews.append,
                )
            )
            try:
                await shown.wait_for(lambda s: SEATING in s, "the safety code")
                keys.send_text("y")
                await shown.wait_for(lambda s: "hand 1" in s, "the first hand")
                (crew,) = crews
                victim = crew.bots[0]
                assert victim.proc is not None and victim.seat is not None
                os.kill(victim.proc.pid, signal.SIGKILL)
                line = f"✗ {victim.name} left the table: its process ended (killed by SIGKILL)"
                text = await shown.wait_for(lambda s: line in s, "the bot's end")
                status = text.splitlines()[-1]
                assert f"{victim.name} ○ away" in status, status
                keys.send_text("q")
                await shown.wait_for(lambda s: "Leave the table?" in s, "the quit question")
                keys.send_text("y")
                return await asyncio.wait_for(task, DEADLINE)
            finally:
                if not task.done():
                    task.cancel()

    assert asyncio.run(main()) == 0
    (crew,) = crews
    for bot in crew.bots:
        assert bot.proc is not None and bot.proc.returncode is not None  # waited for
    survivor = crew.bots[1]
    assert survivor.proc is not None and survivor.proc.returncode == 143  # it left on SIGTERM
    assert "stopped by SIGTERM" in survivor.log.read_text(encoding="utf-8")
    printed = capsys.readouterr().out
    assert "you left the table\nstopped 1 bot(s)\ntranscript: " in printed
    path = Path(re.findall(r"transcript: (.+)", printed)[-1])
    assert f"check it:   willow verify {path}" in printed
    assert verify_file(path).verdict in (Verdict.VALID, Verdict.NOT_CLOSED)
