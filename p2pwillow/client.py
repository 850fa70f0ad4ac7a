"""What a front end needs from a table it plays at: the `Client` protocol (DESIGN 7).

No I/O here. The terminal client (`p2pwillow.tui`) drives any `Client`: the live network
node, or the in-process test and development driver in `p2pwillow.inprocess`. A client
holds the player's session; the front end reads `view()`, waits with `changed()` and sends
the person's decisions with `decide()`; it never touches the session itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from p2pwillow.rules import Decision
from p2pwillow.seat import LEFT_TABLE, ClockMove, ClockOp
from p2pwillow.view import Link, TableView

__all__ = ["LEFT_TABLE", "Client", "ClockMove", "ClockOp", "Decision", "Notice", "Shown"]


@dataclass(frozen=True, slots=True)
class Notice:
    """Something the person must read once: a decision the table did not take and why, or
    why the table stopped. `serial` grows with every new notice."""

    serial: int
    text: str


class Shown:
    """What a client shows its front end — the view, whether work is under way, the last
    notice — published from any thread under one lock; every change bumps the version that
    `changed()` waits on (from the front end's event loop)."""

    def __init__(self, *, busy: bool) -> None:
        self._lock = threading.Lock()
        self._version = 0
        self._waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = []
        self._view: TableView | None = None
        self._busy = busy
        self._notice: Notice | None = None

    @property
    def view(self) -> TableView | None:
        with self._lock:
            return self._view

    @property
    def busy(self) -> bool:
        with self._lock:
            return self._busy

    @property
    def notice(self) -> Notice | None:
        with self._lock:
            return self._notice

    def publish(
        self,
        *,
        view: TableView | None = None,
        busy: bool | None = None,
        notice: str | None = None,
    ) -> None:
        """Take what is given (None: unchanged), bump the version, wake every waiter."""
        with self._lock:
            if view is not None:
                self._view = view
            if busy is not None:
                self._busy = busy
            if notice is not None:
                serial = 1 if self._notice is None else self._notice.serial + 1
                self._notice = Notice(serial, notice)
            self._version += 1
            waiters, self._waiters = self._waiters, []
        for loop, fut in waiters:
            with contextlib.suppress(RuntimeError):  # a loop that closed has nobody waiting
                loop.call_soon_threadsafe(_wake, fut)

    async def changed(self, seen: int) -> int:
        """The version once it is not `seen` any more."""
        loop = asyncio.get_running_loop()
        while True:
            with self._lock:
                if self._version != seen:
                    return self._version
                fut: asyncio.Future[None] = loop.create_future()
                self._waiters.append((loop, fut))
            await fut


def _wake(fut: asyncio.Future[None]) -> None:
    if not fut.done():
        fut.set_result(None)


class Client(Protocol):
    """One player's seat at a table, as a front end drives it.

    Every method returns at once: the work behind them (checking proofs, the other players'
    moves) happens elsewhere, and its outcome shows in the next `view()`.
    """

    def view(self) -> TableView:
        """The table as the player sees it now."""
        ...

    async def changed(self, seen: int) -> int:
        """Wait until anything here changed since version `seen` (the view, `busy`, `links`,
        `notice`, `seat_confirmed`); return the new version. `changed(-1)` returns the
        current version at once."""
        ...

    def decide(self, decision: Decision) -> None:
        """Send the player's decision; if the table refuses it, `notice` says why."""
        ...

    @property
    def seat_confirmed(self) -> bool:
        """The player confirmed the safety code, so its seat acceptance has been sent."""
        ...

    def confirm_seat(self, same: bool) -> None:
        """The person compared the safety code aloud: `same` sends the seat acceptance;
        otherwise the client leaves the table before it sends anything."""
        ...

    def next_hand(self) -> None:
        """The person is ready for the next hand (after reading how the last one ended)."""
        ...

    def end_game(self) -> None:
        """The person ends the game: at once between hands, else after the current hand."""
        ...

    def leave_table(self) -> None:
        """The person leaves the table between hands, taking its stack (SPEC 3.11); the game
        goes on without it. Once the seat has left, `ended` says so."""
        ...

    def sit_in(self) -> None:
        """The person's seat, sitting out (timed out, say), plays again from the next hand
        (SPEC 3.11); if the rules do not allow it yet, `notice` says why."""
        ...

    def clock_move(self, move: ClockMove) -> None:
        """A move about the clock (SPEC 3.14): more time from the person's bank, a pause, a
        resume, or the arbiter's ruling; if the table refuses it, `notice` says why."""
        ...

    @property
    def ended(self) -> str | None:
        """Why the game is over, once it is (in words, for the person); None until then."""
        ...

    @property
    def links(self) -> Mapping[int, Link]:
        """Each other seat's connection state."""
        ...

    @property
    def busy(self) -> bool:
        """Proofs are being made or checked right now."""
        ...

    @property
    def notice(self) -> Notice | None: ...

    @property
    def transcript(self) -> Path | None:
        """Where this player's copy of the transcript is written."""
        ...

    async def close(self) -> None:
        """Leave the table: stop the work behind the client and close the transcript."""
        ...
