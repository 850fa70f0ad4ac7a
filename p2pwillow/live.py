"""The live table's commands: what `willow host`, `willow join` and `willow bot` do once their
arguments are read (cli.py parses them and turns the outcome into an exit code).

Does I/O: the network (through `p2pwillow.net`), the store, the terminal (the table screen, or
one line per event for a headless seat) and, with `events`, a file of JSON lines.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import secrets
import select
import shlex
import signal
import socket
import sys
import threading
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, TypeVar

import platformdirs

from p2pwillow.ledger.identity import Identity, named
from p2pwillow.ledger.kinds import GameEnd
from p2pwillow.net.discovery import JoinCode, TableAd, browse, lan_addresses
from p2pwillow.net.doorbell import answer
from p2pwillow.net.errors import WireError
from p2pwillow.net.keys import CurveKeyPair
from p2pwillow.net.lobby import (
    GuestLobby,
    HostLobby,
    LobbyError,
    LobbyFailure,
    TablePlan,
    keys_pair,
    not_here,
    statement_of,
)
from p2pwillow.net.node import (
    RESULT_GRACE,
    SEAT_WITHIN,
    BotSeat,
    Door,
    Node,
    NodeError,
    NotAdmitted,
    NotSeated,
    StoreUnwritable,
    bot_name,
)
from p2pwillow.net.roster import Seating
from p2pwillow.net.transport import Transport, TransportError
from p2pwillow.store import (
    APP_NAME,
    ENV_VAR,
    TABLE_FILE,
    TRANSCRIPT_FILE,
    NodeKeys,
    Store,
    StoreError,
    StoreWriteError,
    Transcript,
)

if TYPE_CHECKING:
    from p2pwillow.tui import Terminal

T = TypeVar("T")

BOT_NAMES = ("Ann", "Bea", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou")
BROWSE_SECONDS = 3.0


class LiveError(Exception):
    """A live command cannot go on: one line, and the failure that names its exit code."""

    def __init__(self, failure: LobbyFailure | str, message: str) -> None:
        self.failure = failure
        super().__init__(message)


@dataclass(frozen=True, slots=True)
class SeatOptions:
    """How this seat plays, where its files are and what it reports."""

    home: str | None
    name: str | None
    bot: BotSeat | None
    address: str | None
    port: int
    events: str | None
    screen: bool
    """Open the table screen for a person (else one line per event)."""
    timeout: float = 8.0
    """Seconds a guest waits for the host to answer."""
    leave_after: int = 0
    """Leave the table between hands once this many hands have been played (0: stay)."""
    seat_within: float = SEAT_WITHIN
    """As a newcomer at a game under way, seconds to wait for the seat before giving up."""
    result_grace: float = RESULT_GRACE
    """On the table screen: seconds a hand's result stays before the table goes on without a
    key (SPEC 8.9; at most half the action clock)."""


LIFELINE_CLOSED = "its standard input closing (the willow play that started it is gone)"
STOP_SIGNALS = ("SIGTERM", "SIGHUP")
"""Signals that make a live command leave its table as Ctrl-C does: a process stopping it,
the terminal closing."""


async def until_signalled(run: Coroutine[object, object, T], *, lifeline: bool = False) -> T:
    """Run `run`; SIGTERM or SIGHUP cancels it (so that it leaves its table and closes its
    files on the way out) and is raised as LiveError("terminated"). Where the event loop takes
    no signal handlers, `run` simply runs. With `lifeline`, standard input closing cancels it
    too: `willow play` holds its bots' standard input open, so that they leave when it is gone,
    however it ended (a pipe closes on every system; no signal is needed)."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    caught: list[str] = []

    def stop(name: str) -> None:
        if not caught:
            caught.append(name)
            task.cancel()

    if lifeline:
        threading.Thread(
            target=_watch_lifeline,
            args=(lambda: loop.call_soon_threadsafe(stop, LIFELINE_CLOSED),),
            name="willow lifeline",
            daemon=True,
        ).start()

    installed = []
    for name in STOP_SIGNALS:
        sig = getattr(signal, name, None)
        if sig is None:
            continue
        try:
            loop.add_signal_handler(sig, stop, name)
        except (NotImplementedError, RuntimeError):
            continue
        installed.append(sig)
    try:
        return await run
    except asyncio.CancelledError:
        if not caught:
            raise
        task.uncancel()
        raise LiveError("terminated", f"stopped by {caught[0]}; you left the table") from None
    finally:
        for sig in installed:
            loop.remove_signal_handler(sig)


def _watch_lifeline(closed: Callable[[], object]) -> None:
    """Read standard input until it closes, then call `closed` (from this thread). It reads
    the file descriptor itself: a daemon thread blocked in the buffered reader would hold its
    lock at interpreter shutdown, which aborts the process."""
    try:
        fd = sys.stdin.fileno()
        while os.read(fd, 4096):
            pass
    except (OSError, ValueError, AttributeError):
        pass
    with contextlib.suppress(RuntimeError):  # the loop closed first: nothing to stop
        closed()


HOST_CTRL_C = "Ctrl-C closes the table before anyone plays: those seated are told it closed"
"""What Ctrl-C does while the host's lobby waits (said before it can be pressed)."""


def _say(text: str) -> None:
    print(text, flush=True)


def quiet_logs() -> None:
    """The live table's warnings (a peer's bad frame, an entry refused) are counted and go to
    the events file; on a terminal they would only scramble the table screen."""
    logger = logging.getLogger("p2pwillow")
    logger.addHandler(logging.NullHandler())
    logger.propagate = False


def _make_keys() -> NodeKeys:
    curve = CurveKeyPair.generate(os.urandom)
    return NodeKeys(Identity.generate(os.urandom), curve.public, curve.secret)


STORE_WRITE = "store-write"
"""The failure of a store that cannot be written (a full disk, a read-only or removed home)."""
RESUME_HINT = (
    "nothing is lost: once it is fixed, the same command with --resume takes the seat again"
)


def open_store(home: str | None) -> tuple[Store, NodeKeys]:
    try:
        store = Store.open(home)
        return store, store.keys(_make_keys)
    except StoreWriteError as exc:
        raise LiveError(STORE_WRITE, str(exc)) from None
    except StoreError as exc:
        raise LiveError("store", str(exc)) from None


def bot_home(home: str | None) -> str:
    """A bot's own store: `home` if given, else a new directory of its own under
    $WILLOW_HOME (or the user's data directory), so that every bot has its own identity."""
    if home is not None:
        return home
    base = os.environ.get(ENV_VAR) or platformdirs.user_data_dir(APP_NAME, appauthor=False)
    return str(Path(base) / "bots" / secrets.token_hex(6))


def default_address() -> str:
    """The address a host puts in its join code: the one its default route goes out of (a
    UDP socket "connected" to a private address sends nothing, but says which address it
    would use), else its first LAN address, else loopback."""
    found = lan_addresses()
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.255.255.255", 1))
        address = str(probe.getsockname()[0])
        if address in found:
            return address
    return found[0] if found else "127.0.0.1"


def bot_names(level: str, keys: NodeKeys, name: str | None) -> list[str]:
    """The names a bot tries, in order: its own if given, else the default names starting
    at one drawn from its identity (so bots started together rarely try the same first)."""
    if name is not None:
        return [bot_name(name, level)]
    start = hashlib.sha256(keys.identity.public_key).digest()[0] % len(BOT_NAMES)
    order = BOT_NAMES[start:] + BOT_NAMES[:start]
    return [bot_name(f"Bot {n}", level) for n in order]


class EventLog:
    """JSON lines to a file (for scripts and benchmarks), flushed per line."""

    def __init__(self, path: str | None) -> None:
        self._file: TextIO | None = None
        if path is not None:
            try:
                self._file = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed below
            except OSError as exc:
                raise LiveError("usage", f"cannot write {path}: {exc.strerror}") from None

    def __call__(self, event: dict[str, object]) -> None:
        if self._file is not None:
            self._file.write(json.dumps(event, sort_keys=True) + "\n")
            self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()


# --- finding the table ---------------------------------------------------------------------


def looks_like_code(text: str) -> bool:
    """A join code, not a table name: base32 letters, at least 24 of them (spaces and `-`
    aside; a code is 32, so that a code missing a group is read as a code, and said so)."""
    cleaned = "".join(text.split()).replace("-", "").upper()
    return len(cleaned) >= 24 and all(c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567" for c in cleaned)


def read_code(text: str) -> JoinCode:
    try:
        return JoinCode.decode(text)
    except WireError as exc:
        raise LiveError(
            LobbyFailure.BAD_CODE, f"that join code does not work: {exc.detail}"
        ) from None


SAFE_WAY = (
    "the join code the host prints (willow join CODE) is the safe way to join: it names the "
    "host's keys; a table found by its name is only what someone on this network says it is"
)


def describe(table: TableAd) -> str:
    """One table as the list shows it: its name, its host with the host's fingerprint
    (SPEC 6.2), where it is, and its seats."""
    where = f"{table.addresses[0]}:{table.port}" if table.addresses else "no address"
    if not table.joinable:
        return f"{table.name!r} at {where}: another version of willow, which cannot be joined"
    seats = "full" if table.seats_free == 0 else f"{table.seats_free} seat(s) free"
    return f"{table.name!r} hosted by {table.host} at {where}: {seats}"


def same_names(tables: Sequence[TableAd]) -> list[str]:
    """One warning, in words, for each name that several tables found share."""
    by_name: dict[str, list[TableAd]] = {}
    for t in tables:
        by_name.setdefault(t.name.strip().casefold(), []).append(t)
    out = []
    for group in by_name.values():
        if len(group) < 2:
            continue
        hosts = ", ".join(t.host for t in group)
        out.append(
            f"warning: {len(group)} tables are called {group[0].name!r} (hosts {hosts}): a name "
            "proves nothing, and someone on this network may have opened one to seat you at a "
            "table of their own; ask your host which fingerprint is theirs, or for the join code"
        )
    return out


async def find_table(
    wanted: str | None, *, pick: Callable[[Sequence[TableAd]], TableAd] | None
) -> tuple[JoinCode, TableAd | None]:
    """The join code of the table to join, and the table found on the network if it was
    found by browsing (None for a code). `wanted` is a join code, or the name of a table on
    the LAN, or None. Every table found is listed (name, host and fingerprint, address, seats
    free or full), tables sharing a name are warned of, and `pick` (a person) chooses one,
    even when only one is found (SPEC 8.7); with no `pick` (a bot) the one joinable table
    found is taken, and several are an error."""
    if wanted is not None and looks_like_code(wanted):
        return read_code(wanted), None
    _say(f"looking for tables on this network ({BROWSE_SECONDS:.0f} s)…")
    found = await browse(BROWSE_SECONDS)
    listed = list(found.tables)
    if wanted is not None:
        listed = [t for t in listed if t.name.strip().casefold() == wanted.strip().casefold()]
    tables = [t for t in listed if t.joinable]
    if not tables:
        for t in listed:
            _say(f"  - {describe(t)}")
        what = f"no table called {wanted!r}" if wanted else "no table"
        raise LiveError(
            LobbyFailure.NO_TABLE,
            f"{what} found on this network; ask the host for the join code (willow join CODE)",
        )
    count = f"{len(tables)} table{'s' * (len(tables) > 1)}"
    _say(f"found {count}" + (f" called {wanted!r}:" if wanted else ":"))
    for n, t in enumerate(tables, start=1):
        _say(f"  {n}. {describe(t)}")
    for t in listed:
        if not t.joinable:
            _say(f"  -  {describe(t)}")
    for warning in same_names(tables):
        _say(warning)
    if pick is None:
        if len(tables) == 1:
            return tables[0].join_code(), tables[0]
        names = ", ".join(f"{t.name!r} ({t.host})" for t in tables)
        raise LiveError(
            LobbyFailure.NO_TABLE, f"several tables found ({names}); give the join code"
        )
    _say(SAFE_WAY)
    chosen = pick(tables)
    return chosen.join_code(), chosen


def pick_on_terminal(tables: Sequence[TableAd]) -> TableAd:
    """Ask the person which of the tables listed to join (a number typed), even if there is
    one; an empty answer or the end of input joins none."""
    while True:
        try:
            answer = input(f"join which table (1-{len(tables)}, Enter for none)? ").strip()
        except EOFError:
            answer = ""
        if not answer:
            raise LiveError(LobbyFailure.NO_TABLE, "no table chosen; nothing joined")
        if answer.isdigit() and 1 <= int(answer) <= len(tables):
            return tables[int(answer) - 1]
        print(f"type a number from 1 to {len(tables)}, or Enter for none")


def wrong_key_found(table: TableAd) -> str:
    """Exit 11's line for a table found by its name: what answered is not what was advertised."""
    where = f"{table.addresses[0]}:{table.port}" if table.addresses else "its address"
    return (
        f"the table {table.name!r} found on this network (hosted by {table.host}) does not "
        f"answer at {where} with the key it advertises: someone may be copying that table to "
        "seat you elsewhere; ask its host for the join code (willow join CODE)"
    )


# --- playing the seat ----------------------------------------------------------------------


async def play_seat(
    seating: Seating,
    transport: Transport,
    store: Store,
    keys: NodeKeys,
    options: SeatOptions,
    events: EventLog,
    door: Door | None = None,
    *,
    started: Callable[[Node], None] | None = None,
    leaving: Callable[[], None] | None = None,
    terminal: Terminal | None = None,
    resume: bool = False,
) -> int:
    """Play the formed table to its end: headless (a bot or --auto) or on the table screen
    (in this process's terminal, or in `terminal`'s input and output). `started(node)` is
    called once the node plays, `leaving()` once it has left, before the transcript's path
    is printed."""
    quiet = options.screen
    node = Node(
        seating,
        transport,
        store,
        keys,
        bot=options.bot,
        on_event=events,
        say=(lambda text: None) if quiet else _say,
        watch=options.screen,
        door=door,
        resume=resume,
        seat_within=options.seat_within,
        result_grace=options.result_grace if options.screen else 0.0,
    )
    try:
        await node.start()
    except StoreUnwritable as exc:
        await transport.close()
        raise LiveError(STORE_WRITE, f"{exc}; {RESUME_HINT}") from None
    except NodeError as exc:
        await transport.close()
        raise LiveError("store", str(exc)) from None
    if not quiet and node.watching:
        # its code is over the players seated once its join is in (said then, SPEC 6.7, 8.9)
        _say(f"seat {seating.seat} at {seating.roster.table!r} from the next hand")
    elif not quiet:
        _say(f"seat {seating.seat} at {seating.roster.table!r}; safety code {node.safety_code}")
    if started is not None:
        started(node)
    leaving_after = (
        asyncio.ensure_future(_leave_after(node, options.leave_after))
        if options.leave_after
        else None
    )
    try:
        if options.screen:
            from p2pwillow.tui import run_client_async

            io = (None, None) if terminal is None else (terminal.input, terminal.output)
            why = await run_client_async(node, input=io[0], output=io[1])
            if node.ended is not None:
                print(node.ended)
            print(why)
        else:
            # what stopped the node (node.failure) is said below, after the transcript's path
            with contextlib.suppress(NodeError):
                await node.play_out()
    except BaseException:
        with contextlib.suppress(Exception):
            await node.close()
        raise
    finally:
        if leaving_after is not None:
            leaving_after.cancel()
    if leaving is not None:
        leaving()
    path = Path(str(node.transcript)).resolve()
    print(f"transcript: {path}")
    if options.screen:
        print(f"check it:   willow verify {shlex.quote(str(path))}")
    if isinstance(node.failure, NotSeated):
        raise LiveError("not-seated", str(node.failure))
    if isinstance(node.failure, NotAdmitted):
        raise LiveError("not-admitted", str(node.failure))
    if isinstance(node.failure, StoreUnwritable | StoreWriteError):
        raise LiveError(STORE_WRITE, f"{node.failure}; {RESUME_HINT}")
    if node.failure is not None:
        raise LiveError("stopped", f"the table stopped: {node.failure}")
    return 0


async def _leave_after(node: Node, hands: int) -> None:
    """Ask the node to leave once hand `hands` has started: it leaves between hands after it
    (SPEC 8.9)."""
    while node.hands_played < hands and not node.over:
        await asyncio.sleep(0.25)
    if not node.over:
        _say(f"leaving the table after hand {node.hands_played}, once no hand is running")
        node.leave_table()


class EnterKey:
    """Calls `pressed()` (from its own thread) each time Enter is pressed in the terminal,
    until `stop()`. It looks for a typed line a fifth of a second at a time (select on a POSIX
    terminal, the console's key queue on Windows), so that once stopped it reads nothing more:
    the table screen reads the terminal after it. A thread, because asyncio reads no console
    input on Windows."""

    def __init__(self, pressed: Callable[[], object]) -> None:
        self._pressed = pressed
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="willow enter", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopped.set()
        self._thread.join(1.0)

    def _run(self) -> None:
        try:
            if sys.platform == "win32":
                self._read_console()
            else:
                self._read_terminal()
        except (OSError, ValueError):
            pass  # no terminal to read (closed): nothing to start with

    def _read_terminal(self) -> None:
        fd = sys.stdin.fileno()
        while not self._stopped.is_set():
            ready, _, _ = select.select([fd], [], [], 0.2)
            if not ready or self._stopped.is_set():
                continue
            typed = os.read(fd, 4096)
            if not typed:
                return  # standard input closed
            for _ in range(typed.count(b"\n")):
                self._pressed()

    if sys.platform == "win32":

        def _read_console(self) -> None:
            import msvcrt

            while not self._stopped.is_set():
                if not msvcrt.kbhit():
                    self._stopped.wait(0.05)
                elif msvcrt.getwch() in ("\r", "\n"):
                    self._pressed()


async def _offer_start(lobby: HostLobby) -> None:
    """While a person's lobby waits: each time the players seated change (two or more), say
    that Enter starts the game with them (the other seats stay free for newcomers, SPEC 8.9)."""
    offered = 0
    while True:
        players = lobby.players
        if players != offered and players >= 2 and players < lobby.plan.starts_with:
            _say(
                f"press Enter to start with the {players} players seated "
                "(the other seats stay free for players who come later)"
            )
        offered = players
        await asyncio.sleep(0.2)


async def _seat_guests(lobby: HostLobby, *, start_key: bool) -> Seating:
    """The lobby's seating; with `start_key`, Enter in the terminal starts the game with the
    players seated so far."""
    if not start_key:
        return await lobby.seat()
    loop = asyncio.get_running_loop()
    enter = EnterKey(lambda: loop.call_soon_threadsafe(lobby.start_now))
    offer = asyncio.ensure_future(_offer_start(lobby))
    enter.start()
    try:
        seating = await lobby.seat()
    finally:
        offer.cancel()
        await asyncio.to_thread(enter.stop)
    seated, seats = len(seating.roster.players), lobby.plan.config.seats
    if seated < lobby.plan.starts_with:
        _say(f"starting with {seated} of {seats} seats taken; the others join between hands")
    return seating


def games_said(names: Sequence[str]) -> str:
    """The games a table's dealers call, by their titles ("Texas Hold'em, Omaha")."""
    from p2pwillow.games import CATALOGUE

    return ", ".join(CATALOGUE[n].title if n in CATALOGUE else n for n in names)


async def host_table(options: SeatOptions, plan: TablePlan, *, advertise: bool) -> int:
    """`willow host`: open the table, print the join code, seat the guests (a person may
    start with those seated so far: Enter), play."""
    quiet_logs()
    store, keys = open_store(options.home)
    events = EventLog(options.events)
    address = options.address or default_address()
    name = options.name or "host"
    if options.bot is not None:
        name = bot_name(name, options.bot.level)
    lobby = HostLobby(
        keys, name, plan, address=address, port=options.port, advertise=advertise, say=_say
    )
    try:
        code = await lobby.open()
    except LobbyError as exc:
        raise LiveError(exc.reason, str(exc)) from None
    print(f"willow join {code.encode()}", flush=True)
    _say(
        f"you host as {named(name, keys.identity.public_key)}: players who find the table on "
        "the network see that fingerprint beside it"
    )
    seats = plan.config.seats
    if plan.starts_with < seats:
        _say(
            f"table {plan.name!r}: starting once {plan.starts_with} of {seats} seats are taken "
            f"(waiting for {plan.starts_with - 1} more player(s)); the others join between hands"
        )
    else:
        _say(f"table {plan.name!r}: waiting for {seats - 1} more player(s) to join")
    if len(plan.config.games) > 1:
        _say(f"dealer's choice: {games_said(plan.config.games)}")
    _say(HOST_CTRL_C)
    try:
        seating = await _seat_guests(lobby, start_key=options.screen)
        if not lobby.seats_free:
            await lobby.stop_advertising()
        # (a table started with seats free stays advertised, with the seats free in its chain,
        # until its game is over: newcomers find it as before its start, SPEC 8.7, 8.9)
        assert lobby.transport is not None
        played = await play_seat(seating, lobby.transport, store, keys, options, events, lobby)
        await lobby.stop_advertising()
        return played
    except BaseException:
        await lobby.close()
        if lobby.transport is not None:
            await lobby.transport.close()
        raise
    finally:
        events.close()


async def join_table(
    options: SeatOptions,
    wanted: str | None,
    *,
    pick: Callable[[Sequence[TableAd]], TableAd] | None = None,
    code_only: bool = False,
) -> int:
    """`willow join` / `willow bot`: find the table (`wanted`: a join code or a table's
    name, or with `code_only` a join code; None: the one on this network, or the one `pick`
    chooses), take a seat, play."""
    quiet_logs()
    store, keys = open_store(options.home)
    found: TableAd | None = None
    if code_only and wanted is not None:
        code = read_code(wanted)
    else:
        code, found = await find_table(wanted, pick=pick)
        if found is not None:
            _say(f"joining {found.name!r} hosted by {found.host}")
    if options.bot is not None:
        names = bot_names(options.bot.level, keys, options.name)
    else:
        names = [options.name or "player"]
    events = EventLog(options.events)
    lobby = GuestLobby(
        keys,
        names,
        code,
        address=options.address or "0.0.0.0",
        port=options.port,
        say=_say,
        connect_within=options.timeout,
        host_key=found.statement if found is not None else None,
    )
    try:
        try:
            seating = await lobby.seat()
        except LobbyError as exc:
            if exc.reason is LobbyFailure.WRONG_KEY and found is not None:
                raise LiveError(exc.reason, wrong_key_found(found)) from None
            raise LiveError(exc.reason, str(exc)) from None
        assert lobby.transport is not None
        if seating.late:
            _say(
                f"{seating.me.name} takes seat {seating.seat} of a game under way: watching it "
                "until the hand ends, then playing from the next one"
            )
        return await play_seat(seating, lobby.transport, store, keys, options, events)
    except BaseException:
        if lobby.transport is not None:
            await lobby.leave()
        raise
    finally:
        events.close()


# --- taking a seat again after a crash (SPEC 8.10) -------------------------------------------


def _age(store: Store, game: bytes) -> float:
    """When the game's files last changed (its transcript, else its directory)."""
    directory = store.game_dir(game)
    for path in (directory / TRANSCRIPT_FILE, directory):
        with contextlib.suppress(OSError):
            return path.stat().st_mtime
    return 0.0


def _ended(store: Store, game: bytes) -> bool:
    """The game's transcript holds its `game_end` (SPEC 7.3): it is over, not to be resumed.
    StoreError if the transcript is corrupt; a missing one holds nothing."""
    path = store.game_dir(game) / TRANSCRIPT_FILE
    if not path.is_file():
        return False
    with Transcript.open(path) as transcript:
        return any(isinstance(e.body, GameEnd) for e in transcript.entries)


def unfinished_game(stores: Sequence[Store]) -> tuple[Store, bytes]:
    """The newest game in `stores` whose end is not in its transcript; LiveError(store) if
    there is none, or if a newer game's transcript cannot be read."""
    games = [(_age(store, game), store, game) for store in stores for game in store.games()]
    if not games:
        where = ", ".join(str(s.data) for s in stores) or "this store"
        raise LiveError("store", f"no game to resume in {where}")
    over = 0
    for _, store, game in sorted(games, key=lambda g: g[0], reverse=True):
        try:
            if not _ended(store, game):
                return store, game
            store.erase_secrets(game)  # a finished game keeps none (one left by an older willow)
        except StoreWriteError as exc:
            raise LiveError(STORE_WRITE, str(exc)) from None
        except StoreError as exc:
            raise LiveError("store", str(exc)) from None
        over += 1
    games_over = "game" if over == 1 else f"{over} games"
    raise LiveError(
        "store", f"nothing to resume: the {games_over} in this store ended (its end is signed)"
    )


def resumed_seating(store: Store, game: bytes, keys: NodeKeys) -> Seating:
    """The table as the store kept it, and this store's identity holds its seat there;
    LiveError(store) naming the file and what is wrong."""
    path = store.game_dir(game) / TABLE_FILE
    try:
        data = store.load_table(game)
    except StoreError as exc:
        raise LiveError("store", str(exc)) from None
    if data is None:
        raise LiveError("store", f"{path} is missing: this store does not say where the table is")
    try:
        seating = Seating.decode(data)
    except ValueError as exc:
        raise LiveError("store", f"{path} is corrupt ({exc}); it is kept as it is") from None
    me = seating.me
    if seating.roster.game_id != game:
        raise LiveError("store", f"{path} is of another game than its directory")
    if me.identity_key != keys.identity.public_key.hex() or me.curve != keys.curve_public:
        raise LiveError(
            "store",
            f"this store's identity does not hold seat {seating.seat} of that game ({path} "
            "names another key): it cannot take that seat",
        )
    return seating


def resume_stores(home: str | None, *, bot: bool) -> list[tuple[Store, NodeKeys]]:
    """Where to look for the game to resume: the store at `home`; for a bot without one,
    every bot's own store (see `bot_home`)."""
    if home is not None or not bot:
        return [open_store(home)]
    base = os.environ.get(ENV_VAR) or platformdirs.user_data_dir(APP_NAME, appauthor=False)
    bots = Path(base) / "bots"
    homes = sorted(p for p in bots.iterdir() if p.is_dir()) if bots.is_dir() else []
    return [open_store(str(h)) for h in homes]


async def resume_table(options: SeatOptions, *, advertise: bool = False) -> int:
    """`willow join|bot|host --resume`: take this store's seat again in its newest
    unfinished game (SPEC 8.10) — the same address and port, the seated keys let in — and
    play on from what the store holds, catching up from the peers. The host's seat opens its
    door again (the same join code seats newcomers in the seats free in its chain) and, with
    `advertise`, advertises the table again while seats are free (SPEC 8.7, 8.9)."""
    quiet_logs()
    found = resume_stores(options.home, bot=options.bot is not None)
    store, game = unfinished_game([s for s, _ in found])
    keys = next(k for s, k in found if s is store)
    seating = resumed_seating(store, game, keys)
    me = seating.me
    hosting = seating.seat == seating.roster.players[0].seat
    transport = Transport(
        keys_pair(keys),
        host=options.address or "0.0.0.0",
        port=me.port,
        accept_unpinned=hosting,  # (the door: frames of unseated keys come up unpinned)
        doorbell=answer(statement_of(keys)) if hosting else None,  # (the same join code)
    )
    try:
        await transport.start()
    except TransportError as exc:
        if exc.no_address:
            raise LiveError(LobbyFailure.NO_ADDRESS, not_here(transport.host)) from None
        raise LiveError(LobbyFailure.PORT_IN_USE, str(exc)) from None
    transport.set_pins(p.statement for p in seating.others)
    for p in seating.others:
        transport.connect(p.curve, p.host, p.port)
    _say(f"resuming {seating.roster.table!r} at seat {seating.seat} (game {game.hex()[:12]})")
    door = None
    if hosting:
        door = HostLobby.reopen(keys, seating, transport, advertise=advertise, say=_say)
        assert door.join_code is not None
        _say("newcomers take the seats free in its chain with the join code said at the start")
        _say(f"willow join {door.join_code.encode()}")
    events = EventLog(options.events)
    try:
        return await play_seat(seating, transport, store, keys, options, events, door, resume=True)
    except BaseException:
        await transport.close()
        raise
    finally:
        if door is not None:
            await door.stop_advertising()
        events.close()


def stdout_is_terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


__all__ = [
    "BOT_NAMES",
    "EventLog",
    "LiveError",
    "SeatOptions",
    "bot_home",
    "bot_names",
    "default_address",
    "describe",
    "find_table",
    "host_table",
    "join_table",
    "looks_like_code",
    "open_store",
    "pick_on_terminal",
    "play_seat",
    "read_code",
    "resume_table",
    "same_names",
    "stdout_is_terminal",
    "until_signalled",
]
