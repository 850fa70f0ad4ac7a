"""A terminal for tests: prompt_toolkit's VT100 output written into a `pyte` screen, and the
real application driven through a pipe input. Waits are on what the screen shows, each with
a deadline."""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import time
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

import pyte
import pytest
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from p2pwillow.bots import Level
from p2pwillow.client import Client, ClockMove, Decision, Notice
from p2pwillow.inprocess import InProcessClient
from p2pwillow.rules import TableConfig
from p2pwillow.tui import ClientApp
from p2pwillow.view import Link, TableView

SIZES = [pytest.param(24, 80, id="80x24"), pytest.param(32, 100, id="100x32")]
"""The two sizes every screen is checked at: (rows, columns)."""
DEADLINE = 60.0
"""Seconds any one wait may take (a whole hand of proofs on a loaded machine fits in it)."""

SEATING = "Does everyone see the same code?"
ANNOUNCE = "You deal: announce."
_TURN = "Waiting for you: offer a trade or pass"
_ANSWER = re.compile(r"Waiting for you: answer .+'s offer of \d")
_CHECK_OR_BET = "Waiting for you: check or bet"
_CALL = re.compile(r"Waiting for you: call \d+, raise or fold")
LAYOUT = "Lay out five, in the order they are turned:"
_GIVE = re.compile(r"Give (\d) cards? to ")
_CLOSE = "Waiting for you: close trading"
_PARTNER = "Waiting for you: choose whom to trade with"
_PARTNER_PANEL = re.compile(r"Trade \d cards? with: ")
DISCARD = "Choose the cards to discard (up to "
DECLARE = "Declare, sealed: "
WASH = "Wash one card for "
"""The wash panel of a priced wash of one card (Go for Broke, Seattle Six)."""
WASHING = re.compile(r"Wash (?:one card|up to \d cards)(?: for \d+ chips|, free)")
"""The wash panel, whatever the price and however many cards may be washed (Car Wash: up to
two, free by default)."""
NEXT_HAND = "[Enter] next hand"
POLL = float(os.environ.get("WILLOW_TEST_POLL", "0.02"))
"""Seconds between two looks of a wait at the screen. A loaded machine looks seldom; set
WILLOW_TEST_POLL=0.6 to play the screen tests as it would and find a wait that depends on
looking often."""
CLOCKS = re.compile(r"\b\d+:\d\d\b")
"""A clock's reading (the seat's clock, the time bank, a pause's length)."""
HANDS = 4
"""Hands `play_until` plays at most to see what it looks for (a hand where everyone folds to
one player has no showdown, and no draw)."""


def answer_keys(text: str, enter: str = "\r") -> list[str] | None:
    """The keys a person who only plays along presses for what the screen asks of them, if
    it asks anything: the table's defaults announced, trades passed and declined (its own
    offer, once accepted, made with the first who accepted), the first cards given and laid
    out, check or call, stand pat in a draw, keep the cards at a wash (and say so where the
    washers are named first), keep every card of a pass street and declare high in a
    split-pot game. `enter` is how the Enter key is sent."""
    if DISCARD in text or WASHING.search(text):
        return ["s"]
    if "say whether you wash" in text:
        return ["n"]  # Five by Two: it says it keeps its cards
    if "Waiting for you: keep your card" in text:
        return ["k"]  # Pass the Card: it keeps the card it is dealt
    if DECLARE in text:
        return ["h"]
    if LAYOUT in text:
        return ["1", "2", "3", "4", "5", enter]
    give = _GIVE.search(text)
    if give:
        return [str(n) for n in range(1, int(give.group(1)) + 1)] + [enter]
    if _PARTNER_PANEL.search(text):
        return ["1"]
    prompts = (
        (ANNOUNCE, enter),
        (_TURN, "p"),
        (_CHECK_OR_BET, "k"),
        (_CLOSE, "x"),
        (_PARTNER, "t"),
    )
    for prompt, key in prompts:
        if prompt in text:
            return [key]
    if _ANSWER.search(text):
        return ["n"]
    if _CALL.search(text):
        return ["c"]
    return None


def bots_client(
    tmp_path: Path,
    *games: str,
    bots: int = 3,
    seed: int = 3,
    min_bet: int | None = None,
    client: type[InProcessClient] = InProcessClient,
) -> InProcessClient:
    """The person's `client` at an in-process table of `bots` easy bots playing `games` (the
    betting's `min_bet` where given), the bots' moves and the table's randomness fixed by
    `seed`; its transcript in `tmp_path`."""
    config = TableConfig(seats=bots + 1, games=games)
    if min_bet is not None:
        config = replace(config, min_bet=min_bet)
    return client(
        tmp_path / "game.jsonl",
        bots=bots,
        seed=seed,
        rng=random.Random(seed).randbytes,
        samples=40,
        level=Level.EASY,
        config=config,
    )


async def seated_until(
    t: Terminal, c: InProcessClient, done: Callable[[str, TableView], bool]
) -> tuple[str, TableView]:
    """Take the seat once the safety code shows, then play along until `done` (`play_until`)."""
    await take_seat(t)
    return await play_until(t, c, done)


async def take_seat(t: Terminal) -> None:
    """Say yes to the safety code once it shows."""
    await t.wait_for(SEATING)
    t.press("y")


async def play_until(
    t: Terminal, c: InProcessClient, done: Callable[[str, TableView], bool]
) -> tuple[str, TableView]:
    """Answer what the screen asks (`answer_keys`, and the next hand) until the screen,
    settled, and the view it draws show `done`; returns both."""
    hands = 0

    def ready(text: str) -> bool:
        return done(text, c.view()) or answer_keys(text) is not None or NEXT_HAND in text

    while True:
        text = await t.settled(ready)
        view = c.view()
        if done(text, view):
            return text, view
        keys = answer_keys(text)
        if keys is None:
            hands += 1
            assert hands < HANDS, f"not seen in {HANDS} hands; the screen shows:\n{text}"
            keys = ["\r"]
        t.press(*keys)
        await t.wait_for(lambda s, before=text: s != before)  # type: ignore[misc]


class PyteFile:
    """What Vt100_Output writes to: every write goes into the pyte screen, and every flush
    (one per render) is kept in `frames` when it changed what the screen shows, so a wait can
    tell that a line was shown even if it scrolled away before the wait looked again."""

    def __init__(self, screen: pyte.Screen, encoding: str) -> None:
        self._screen = screen
        self._stream = pyte.Stream(screen)
        self.encoding = encoding
        self.frames: list[str] = []

    def write(self, data: str) -> int:
        self._stream.feed(data)
        return len(data)

    def flush(self) -> None:
        frame = "\n".join(self._screen.display)
        if not self.frames or self.frames[-1] != frame:
            self.frames.append(frame)

    def isatty(self) -> bool:
        return True

    def fileno(self) -> int:
        raise OSError("a pyte screen has no file descriptor")


@dataclass
class Terminal:
    """The screen a person looks at and the keyboard they type on."""

    screen: pyte.Screen
    keys: PipeInput
    output: Vt100_Output
    client_app: ClientApp
    size: list[int] = field(default_factory=list)
    """[rows, columns], read by the output's get_size."""
    task: asyncio.Future[str] | None = None
    shown: list[str] = field(default_factory=list)
    """The frames rendered since what the last wait returned (the output's `PyteFile.frames`)."""

    async def done(self) -> str:
        """Wait for the application to end; returns why the person left."""
        assert self.task is not None
        return await self.task

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def row(self, y: int) -> str:
        return str(self.screen.display[y])

    def press(self, *keys: str) -> None:
        for key in keys:
            self.keys.send_text(key)

    def resize(self, rows: int, columns: int) -> None:
        """The terminal window changes size: the screen and the size the app reads change,
        then SIGWINCH tells the application, as a terminal emulator does."""
        self.screen.resize(rows, columns)
        self.size[:] = [rows, columns]
        os.kill(os.getpid(), signal.SIGWINCH)

    async def settled(
        self, what: str | Callable[[str], bool], *, deadline: float = DEADLINE
    ) -> str:
        """Wait until the screen shows `what`, no proofs are being checked and the screen has
        stopped changing but for its clocks (the table waits for the person, whose clock
        counts down each second: a loaded machine may look less often than that)."""
        test = (lambda s: what in s) if isinstance(what, str) else what
        end = time.monotonic() + deadline
        last, same = "", 0
        while True:
            text = self.text()
            still = CLOCKS.sub("-:--", text)
            quiet = "checking proofs" not in text and still == last
            same = same + 1 if quiet else 0
            if same >= 3 and test(text):
                self.shown.clear()
                return text
            if time.monotonic() > end:
                raise AssertionError(f"the screen never settled on {what!r}; it shows:\n{text}")
            last = still
            await asyncio.sleep(POLL * 1.5)

    async def wait_for(
        self, what: str | Callable[[str], bool], *, deadline: float = DEADLINE
    ) -> str:
        """Wait until the screen shows `what` (text, or a test of the whole screen), or
        find that it showed it since the last wait: a person watching would have seen a log
        line that the bots' next moves scrolled away between two looks of a loaded test.
        The screen as it is now wins; otherwise the first frame that showed `what`."""
        test = (lambda s: what in s) if isinstance(what, str) else what
        end = time.monotonic() + deadline
        while True:
            text = self.text()
            if test(text):
                self.shown.clear()
                return text
            for k, frame in enumerate(self.shown):
                if test(frame):
                    del self.shown[:k]  # the next wait looks on from this frame
                    return frame
            if time.monotonic() > end:
                raise AssertionError(f"the screen never showed {what!r}; it shows:\n{text}")
            await asyncio.sleep(POLL)

    def style_at(self, needle: str) -> pyte.screens.Char | None:
        """The character cell where `needle` first starts on the screen."""
        for y, line in enumerate(self.screen.display):
            x = line.find(needle)
            if x >= 0:
                return self.screen.buffer[y][x]
        return None


@asynccontextmanager
async def terminal(
    client: Client, rows: int = 30, columns: int = 100, *, encoding: str = "utf-8"
) -> AsyncIterator[Terminal]:
    """The real application for `client`, on a pyte screen of `rows` x `columns`."""
    screen = pyte.Screen(columns, rows)
    size = [rows, columns]
    file = PyteFile(screen, encoding)
    out = Vt100_Output(
        file,  # type: ignore[arg-type]
        lambda: Size(rows=size[0], columns=size[1]),
        term="xterm-256color",
        enable_cpr=False,
    )
    with create_pipe_input() as keys:
        client_app = ClientApp(client, input=keys, output=out)
        task = asyncio.ensure_future(client_app.run())
        term = Terminal(screen, keys, out, client_app, size, task, file.frames)
        try:
            yield term
        finally:
            if not task.done():
                keys.send_text("q")
                keys.send_text("y")
            await asyncio.wait_for(task, DEADLINE)


class Still:
    """A client whose table does not move: the screen draws `view`, each peer connected as
    `links` says, and nothing changes."""

    def __init__(self, view: TableView, links: Mapping[int, Link] | None = None) -> None:
        self._view = view
        self._links = dict(links or {})

    def view(self) -> TableView:
        return self._view

    async def changed(self, seen: int) -> int:
        if seen != 0:
            return 0
        await asyncio.Event().wait()
        return 0

    def decide(self, decision: Decision) -> None:
        pass

    @property
    def seat_confirmed(self) -> bool:
        return True

    def confirm_seat(self, same: bool) -> None:
        pass

    def answer_admission(self, same: bool) -> None:
        pass

    def next_hand(self) -> None:
        pass

    def end_game(self) -> None:
        pass

    def leave_table(self) -> None:
        pass

    def sit_in(self) -> None:
        pass

    def clock_move(self, move: ClockMove) -> None:
        pass

    @property
    def ended(self) -> str | None:
        return None

    @property
    def links(self) -> Mapping[int, Link]:
        return self._links

    @property
    def busy(self) -> bool:
        return False

    @property
    def notice(self) -> Notice | None:
        return None

    @property
    def transcript(self) -> Path | None:
        return None

    async def close(self) -> None:
        pass


def still_screen(
    view: TableView, rows: int, columns: int, links: Mapping[int, Link] | None = None
) -> str:
    """The screen of the real application drawing `view` (`Still`) at `rows` x `columns`,
    once it has settled."""
    me = view.mine
    assert me is not None

    async def main() -> str:
        async with terminal(Still(view, links), rows, columns) as t:
            return await t.settled(lambda s: me.name in s and "[q] quit" in s)

    return asyncio.run(main())
