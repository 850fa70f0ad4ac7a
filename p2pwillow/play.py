"""`willow play`: one person against bots on this machine, through the real live table.

Hosts a table on loopback in this process (the person's seat, on the table screen), starts
each bot as a `willow bot` process of its own (its own store, keys and sockets), and stops
them when the person leaves. Does I/O: child processes, the network (loopback, through
`p2pwillow.live`), the store and the terminal.
"""

# A bot's store is <the person's store>/data/bots/play-N: the same N keeps the same identity
# (and so the same name) from one `willow play` to the next, and no two bots of one table
# share keys. Its standard output and error go to bot.log in that directory. A `willow play`
# holds an OS lock on play-N.lock for each bot it starts, until it stops them (or ends, however
# it ends: the system drops the lock), so a second `willow play` at the same time takes the
# next N free instead of starting a bot on a store that is in use.
#
# The bots run in sessions of their own (setsid): a Ctrl-C or a closed terminal reaches this
# process only, which then stops them itself, SIGTERM first (a bot leaves its table and
# closes its files on it, `live.until_signalled`), SIGKILL for one that is still there after
# STOP_WITHIN seconds; every one is waited for, so none is left a zombie.

from __future__ import annotations

import asyncio
import contextlib
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING

from p2pwillow.live import (
    EventLog,
    LiveError,
    SeatOptions,
    open_store,
    play_seat,
    quiet_logs,
)
from p2pwillow.net.lobby import HostLobby, LobbyError, TablePlan
from p2pwillow.net.node import Node
from p2pwillow.net.roster import Seating
from p2pwillow.store import Store

if TYPE_CHECKING:
    from p2pwillow.tui import Terminal

LOOPBACK = "127.0.0.1"
MAX_BOTS = 9
"""A table seats at most ten: the person and nine bots (SPEC 3.1)."""
SEAT_WITHIN = 120.0
"""Seconds the bots have to start and take their seats."""
STOP_WITHIN = 5.0
"""Seconds a bot has to leave after SIGTERM before it is killed."""
WATCH_EVERY = 0.25
"""How often the bot processes are looked at."""
LOG_FILE = "bot.log"
MAX_HOMES = 100
"""Bot homes looked at for free ones: ten `willow play` of nine bots at once."""


def claim(path: Path) -> IO[bytes] | None:
    """An exclusive lock on the file `path`, held while the file returned is open; None if
    another process holds it. The system drops it when the process ends, however it ends."""
    path.parent.mkdir(parents=True, exist_ok=True)
    held = open(path, "a+b")  # noqa: SIM115 - open for as long as the lock is held
    try:
        if sys.platform == "win32":
            import msvcrt

            held.seek(0)
            msvcrt.locking(held.fileno(), msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        held.close()
        return None
    return held


def _say(text: str) -> None:
    print(text, flush=True)


@dataclass(frozen=True, slots=True)
class BotPlan:
    """How many bots sit at the table and how they play."""

    count: int
    level: str = "normal"
    samples: int = 300
    """Monte Carlo deals per betting decision."""


class _Bot:
    """One bot's process, its store and, once seated, its seat."""

    def __init__(self, number: int, home: Path, identity: bytes) -> None:
        self.number = number
        self.home = home
        self.identity = identity.hex()
        self.log = home / LOG_FILE
        self.proc: subprocess.Popen[bytes] | None = None
        self.seat: int | None = None
        self.name = f"bot {number}"
        self.ended_at: float | None = None
        """When this process was first seen ended."""
        self.reported = False

    def start(self, code: str, plan: BotPlan) -> None:
        command = [
            sys.executable,
            "-m",
            "p2pwillow",
            "bot",
            "--join",
            code,
            "--address",
            LOOPBACK,
            "--level",
            plan.level,
            "--samples",
            str(plan.samples),
            "--home",
            str(self.home),
            "--leave-on-eof",
        ]
        with open(self.log, "wb") as log:  # this game's log only
            # The bot's standard input is a pipe this process holds open and never writes:
            # however this process ends (SIGKILL included), the pipe closes and the bot
            # leaves its table (`willow bot --leave-on-eof`).
            self.proc = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def exit_code(self) -> int | None:
        return None if self.proc is None else self.proc.poll()

    def how(self) -> str:
        """How the process ended, in words (with the last line of its log if it failed)."""
        code = self.exit_code()
        if code is None:
            return "it is still running"
        if code < 0:
            try:
                what = f"killed by {signal.Signals(-code).name}"
            except ValueError:
                what = f"killed by signal {-code}"
        else:
            what = f"exit {code}"
        last = self._last_line() if code > 0 else ""
        return f"{what}: {last}" if last else what

    def _last_line(self) -> str:
        with contextlib.suppress(OSError):
            lines = self.log.read_bytes()[-4096:].decode("utf-8", "replace").splitlines()
            for line in reversed(lines):
                if line.strip():
                    return line.strip()[:120]
        return ""


class Bots:
    """The bot processes of one `willow play`: started against a join code, watched while
    the game runs, stopped (and waited for) when the person leaves."""

    def __init__(self, store: Store, plan: BotPlan) -> None:
        if not 1 <= plan.count <= MAX_BOTS:
            raise LiveError("usage", f"--bots must be 1 to {MAX_BOTS}, not {plan.count}")
        self.plan = plan
        self.dir = store.data / "bots"
        self.bots: list[_Bot] = []
        self._claims: list[IO[bytes]] = []
        for n in range(1, MAX_HOMES + 1):
            if len(self.bots) == plan.count:
                break
            held = claim(self.dir / f"play-{n}.lock")
            if held is None:
                continue  # a bot of another `willow play` running now
            self._claims.append(held)
            home = self.dir / f"play-{n}"
            _, keys = open_store(str(home))  # the bot's keys, made now: its seat is found by them
            self.bots.append(_Bot(len(self.bots) + 1, home, keys.identity.public_key))
        if len(self.bots) < plan.count:
            self.release()
            raise LiveError(
                "store", f"no bot store free in {self.dir}: stop another willow play first"
            )
        self._watching: asyncio.Task[None] | None = None
        self._stopped = False

    def start(self, code: str) -> None:
        for bot in self.bots:
            bot.start(code, self.plan)

    async def seated(self, seat: Coroutine[object, object, Seating]) -> Seating:
        """The table once `seat` (the host's lobby) has seated every bot; LiveError if a bot
        ended before it sat down, or they are not all seated within SEAT_WITHIN seconds."""
        task = asyncio.ensure_future(seat)
        deadline = time.monotonic() + SEAT_WITHIN
        try:
            while not task.done():
                for bot in self.bots:
                    if bot.exit_code() is not None:
                        raise LiveError(
                            "stopped",
                            f"bot {bot.number} could not take its seat ({bot.how()}); its log "
                            f"is {bot.log}",
                        )
                if time.monotonic() > deadline:
                    raise LiveError(
                        "stopped",
                        f"the bots did not all take their seats within {SEAT_WITHIN:.0f} s; "
                        f"their logs are in {self.dir}",
                    )
                await asyncio.wait({task}, timeout=WATCH_EVERY)
            seating = task.result()
        finally:
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, LobbyError):
                    await task
        by_identity = {p.identity_key: p for p in seating.roster.players}
        for bot in self.bots:
            player = by_identity.get(bot.identity)
            if player is not None:
                bot.seat, bot.name = player.seat, player.name
        return seating

    def watch(self, node: Node) -> None:
        """From now on, a bot whose process ends while the game goes on is one line on the
        person's screen, and its seat shows away."""
        self._watching = asyncio.ensure_future(self._watch(node))

    async def _watch(self, node: Node) -> None:
        while True:
            now = time.monotonic()
            for bot in self.bots:
                if bot.reported or bot.exit_code() is None:
                    continue
                if bot.ended_at is None:
                    # a bot that ended well may have seen the game's end a moment before
                    # this node: look again at the next round before saying anything
                    bot.ended_at = now
                    if bot.exit_code() == 0:
                        continue
                bot.reported = True
                if bot.seat is not None and not (bot.exit_code() == 0 and node.over):
                    node.peer_left(
                        bot.seat, f"{bot.name} left the table: its process ended ({bot.how()})"
                    )
            await asyncio.sleep(WATCH_EVERY)

    def stop(self) -> int:
        """Stop every bot still running: SIGTERM, then SIGKILL after STOP_WITHIN seconds;
        wait for each (no zombie). Returns how many were still running. Safe twice.

        Blocking on purpose: it runs while the person leaves, and must finish even if the
        leaving is itself interrupted."""
        if self._watching is not None:
            self._watching.cancel()
        if self._stopped:
            return 0
        self._stopped = True
        running = [b.proc for b in self.bots if b.proc is not None and b.proc.poll() is None]
        for proc in running:
            with contextlib.suppress(OSError):
                proc.terminate()
        deadline = time.monotonic() + STOP_WITHIN
        for proc in running:
            try:
                proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                with contextlib.suppress(OSError):
                    proc.kill()
                proc.wait()
        for bot in self.bots:
            if bot.proc is not None:
                bot.proc.wait()
                if bot.proc.stdin is not None:
                    with contextlib.suppress(OSError):
                        bot.proc.stdin.close()
        self.release()
        return len(running)

    def release(self) -> None:
        """Let another `willow play` use these bots' stores (their processes have ended)."""
        for held in self._claims:
            held.close()
        self._claims.clear()


async def play_table(
    options: SeatOptions,
    plan: TablePlan,
    bots: BotPlan,
    *,
    terminal: Terminal | None = None,
    say: bool = True,
    started: Callable[[Bots], None] | None = None,
) -> int:
    """`willow play`: host `plan` on loopback for the person (`options`), start the bots,
    wait until everyone is seated, play on the table screen; stop the bots when the person
    leaves. `terminal` draws the screen elsewhere than this process's terminal; `say`
    False prints nothing before the screen opens (what is printed after it closes is
    printed); `started(bots)` is told the bots' processes
    once they run."""
    quiet_logs()
    store, keys = open_store(options.home)
    crew = Bots(store, bots)
    tell = _say if say else (lambda text: None)
    events = EventLog(options.events)
    name = options.name or "Player"
    lobby = HostLobby(keys, name, plan, address=LOOPBACK, port=0, advertise=False, say=tell)
    try:
        code = await lobby.open()
    except LobbyError as exc:
        events.close()
        raise LiveError(exc.reason, str(exc)) from None
    tell(f"table {plan.name!r} on {LOOPBACK}: starting {bots.count} bot(s) ({bots.level})")

    def stopped() -> None:
        left = crew.stop()
        if left:
            _say(f"stopped {left} bot(s)")

    try:
        crew.start(code.encode())
        if started is not None:
            started(crew)
        seating = await crew.seated(lobby.seat())
        assert lobby.transport is not None
        return await play_seat(
            seating,
            lobby.transport,
            store,
            keys,
            options,
            events,
            lobby,
            started=crew.watch,
            terminal=terminal,
            leaving=stopped,
        )
    except BaseException:
        with contextlib.suppress(Exception):
            await lobby.close()
            if lobby.transport is not None:
                await lobby.transport.close()
        raise
    finally:
        crew.stop()
        events.close()


__all__ = ["MAX_BOTS", "BotPlan", "Bots", "play_table"]
