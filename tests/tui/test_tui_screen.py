"""The test terminal's own waits: a line the screen showed is found although it scrolled away
before the wait looked, and a screen whose only change is its clocks has settled. (A loaded
machine looks at the screen seldom; the bots do not wait for it.)"""

from __future__ import annotations

import asyncio
from typing import Any

import pyte
import pytest
from tui_screen import PyteFile, Terminal

CLEAR = "\x1b[2J\x1b[H"


def _terminal(rows: int = 3, columns: int = 40) -> tuple[Terminal, PyteFile]:
    screen = pyte.Screen(columns, rows)
    file = PyteFile(screen, "utf-8")
    nothing: Any = None  # the waits read only the screen and its frames
    return Terminal(screen, nothing, nothing, nothing, [rows, columns], None, file.frames), file


def _draw(file: PyteFile, *lines: str) -> None:
    """One render: the screen cleared and `lines` drawn, then flushed."""
    file.write(CLEAR + "\r\n".join(lines))
    file.flush()


def test_a_wait_finds_a_line_shown_and_scrolled_away_and_looks_on_from_it() -> None:
    t, file = _terminal()
    _draw(file, "6 cards dealt", "bot 0 announces", "everyone may offer")
    _draw(file, "bot 0 announces", "everyone may offer", "bot 3 offers 3")
    _draw(file, "everyone may offer", "bot 3 offers 3", "bot 2 accepts")
    _draw(file, "bot 3 offers 3", "bot 2 accepts", "bot 1 accepts")

    async def main() -> None:
        seen = await t.wait_for("announces", deadline=0.2)
        assert "announces" not in t.text()
        assert seen.splitlines()[0].strip() == "6 cards dealt"  # the first frame that showed it
        # the next wait looks on from that frame, which the next line was in too
        assert "everyone may offer" in await t.wait_for("everyone may offer", deadline=0.2)
        # the screen as it is now wins, and frames before it are forgotten
        assert (await t.wait_for("bot 1 accepts", deadline=0.2)).rstrip().endswith("bot 1 accepts")
        with pytest.raises(AssertionError, match="never showed 'announces'"):
            await t.wait_for("announces", deadline=0.2)
        with pytest.raises(AssertionError, match="never showed 'bot 0 folds'"):
            await t.wait_for("bot 0 folds", deadline=0.2)

    asyncio.run(main())


def test_a_frame_is_kept_only_when_the_screen_changed() -> None:
    _, file = _terminal()
    _draw(file, "hand 1")
    _draw(file, "hand 1")
    _draw(file, "hand 2")
    assert [f.splitlines()[0].strip() for f in file.frames] == ["hand 1", "hand 2"]


def test_a_screen_whose_clocks_alone_tick_has_settled_and_one_that_moves_has_not() -> None:
    t, file = _terminal()

    async def tick(line: str) -> None:
        for n in range(10_000):
            _draw(
                file,
                f"Waiting for you: {line}",
                f"your clock 0:{59 - n % 60:02d}  bank 1:{n % 60:02d}",
            )
            await asyncio.sleep(0.005)

    async def main() -> None:
        ticking = asyncio.ensure_future(tick("offer a trade or pass"))
        try:
            text = await t.settled("offer a trade or pass", deadline=5.0)
            assert "your clock 0:" in text
        finally:
            ticking.cancel()

        async def moving() -> None:
            for n in range(10_000):
                _draw(file, f"bot {n % 4} offers {n % 3 + 1}", "your clock 0:30")
                await asyncio.sleep(0.005)

        moves = asyncio.ensure_future(moving())
        try:
            with pytest.raises(AssertionError, match="never settled"):
                await t.settled("offers", deadline=0.5)
        finally:
            moves.cancel()

    asyncio.run(main())
