"""The terminal client's application: `run_client(client)` opens the full-screen table for
any `Client` and returns when the person leaves. Does terminal I/O (through prompt_toolkit).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from pathlib import Path

from prompt_toolkit.application import Application
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from p2pwillow.client import Client
from p2pwillow.tui.draw import ASCII, UNICODE
from p2pwillow.tui.keys import build_bindings
from p2pwillow.tui.layout import STYLE, build_layout
from p2pwillow.tui.state import ScreenState

__all__ = ["ClientApp", "Terminal", "run_client", "run_client_async", "shows_unicode"]

COUNTDOWN_EVERY = 0.5
"""How often the screen is drawn again while a clock counts down or the table is paused."""


@dataclass(frozen=True, slots=True)
class Terminal:
    """Where the table screen reads keys and draws (None: this process's terminal)."""

    input: Input | None = None
    output: Output | None = None


def shows_unicode(output: Output) -> bool:
    """Whether the terminal's encoding can show suits and box lines."""
    try:
        encoding = output.encoding()
    except (AttributeError, ValueError):
        return False
    return encoding.lower().replace("-", "").replace("_", "") in ("utf8", "utf16", "utf32")


class ClientApp:
    """The full-screen application over `client`: the screen state, the prompt_toolkit
    application that draws it, and the task that follows the client's changes.

    `unicode` chooses suits and box lines (None: ask the terminal's encoding).
    """

    def __init__(
        self,
        client: Client,
        *,
        input: Input | None = None,
        output: Output | None = None,
        unicode: bool | None = None,
    ) -> None:
        self.client = client
        self.state = ScreenState()
        self.state.transcript = client.transcript
        # the clients' views count on time.monotonic (the live node's loop time)
        self.state.clock = time.monotonic
        self.state.wall = time.time
        self.app: Application[str] = Application(
            key_bindings=build_bindings(self.state, client, self.leave),
            style=STYLE,
            full_screen=True,
            input=input,
            output=output,
            mouse_support=False,
        )
        show = shows_unicode(self.app.output) if unicode is None else unicode
        self.glyphs = UNICODE if show else ASCII
        self.app.layout = build_layout(self.state, self.glyphs)
        # A lone Esc is a key here, not the start of an Alt combination.
        self.app.ttimeoutlen = 0.05
        # Any key leaves a hand's result the screen holds (SPEC 8.9): the table goes on.
        self.app.key_processor.before_key_press += self._key_pressed
        self._take()

    def _key_pressed(self, _: object) -> None:
        view = self.state.view
        if view is not None and view.reading:
            self.client.next_hand()

    def leave(self, why: str) -> None:
        if not self.app.is_done:
            self.app.exit(result=why)

    def _take(self) -> None:
        c = self.client
        self.state.update(
            c.view(),
            busy=c.busy,
            links=c.links,
            notice=c.notice,
            seat_confirmed=c.seat_confirmed,
            ended=c.ended,
        )

    async def _follow(self) -> None:
        seen = -1
        while True:
            seen = await self.client.changed(seen)
            self._take()
            self.app.invalidate()

    async def _count_down(self) -> None:
        """Draw the screen again every COUNTDOWN_EVERY seconds while a clock runs on it or the
        table is paused: the countdown moves between the client's views."""
        while True:
            await asyncio.sleep(COUNTDOWN_EVERY)
            view = self.state.view
            c = None if view is None else view.clock
            if c is not None and c.at is not None and (c.left or c.paused):
                self.app.invalidate()

    async def run(self) -> str:
        """Play until the person leaves; returns why they left. Closes the client."""
        tasks = [asyncio.ensure_future(self._follow()), asyncio.ensure_future(self._count_down())]
        try:
            return await self.app.run_async()
        finally:
            for task in tasks:
                task.cancel()
            await self.client.close()


async def run_client_async(
    client: Client,
    *,
    input: Input | None = None,
    output: Output | None = None,
    unicode: bool | None = None,
) -> str:
    """Play at `client`'s table until the person leaves; returns why they left."""
    return await ClientApp(client, input=input, output=output, unicode=unicode).run()


def run_client(client: Client, *, unicode: bool | None = None) -> Path | None:
    """Open the table screen in this terminal for `client`; when the person leaves, say why
    and where the transcript is, and return its path."""
    why = asyncio.run(run_client_async(client, unicode=unicode))
    path = client.transcript
    print(why)
    if path is not None:
        print(f"transcript: {path}")
    return path
