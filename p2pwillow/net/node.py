"""The live peer: one player's seat at a table of peers on the network (DESIGN 6).

Does network I/O on asyncio (through `transport`), file I/O through the store, and runs every
Session call in one worker thread. It is a `Client` (p2pwillow/client.py), so the terminal
client plays on it unchanged, and it plays headless for a bot (`play_out`). Nothing here is
Linux-only: asyncio and threads, no signals.
"""

# Theory of operation
# -------------------
# Three things run at once:
#
#   the receiver  (loop, called by the transport once per batch of frames that came in) takes
#                 each frame into the replication and wakes the driver, which sends
#                 whatever the replication says is due: pushes, acks, heartbeats, resends,
#                 catch-up (SPEC 8.4). A headless node's receiver runs the driver's pass
#                 itself, in the same turn of the loop (`_pass_here`);
#   the driver    (loop) takes the replication's events one at a time and hands each to the
#                 session in the worker (an entry is acknowledged only once the session has
#                 applied it), then runs the node's own step: the session's clock, the next
#                 hand when this seat deals it, the bot's or the person's decision;
#   the worker    (one thread, `worker.Worker`) is where the session lives. Around every
#                 Session call it keeps the store in step before anything is sent
#                 (`keeping.GameFiles.keep`): the hand's secret is on disk (fsynced), every
#                 applied entry is in the transcript (one line, flushed), and every entry this
#                 seat signed is in its log of signed entries. Only then does the driver hand
#                 what the call produced to the replication.
#
# The session sees nothing until the player has compared the safety code and confirmed its
# seat: the driver leaves the replication's events where they are (peers resend what is not
# acknowledged), so nothing this seat makes exists before the person agreed to it.
#
# What the front end reads (a frozen `TableView`, `busy`, a `Notice`, `links`) is published
# under a lock, and every change bumps the version `changed()` waits on. A headless node
# publishes no views.
#
# The accountability protocol (DESIGN 5.1, SPEC 7.5) on the wire: every authored entry goes
# to every peer and every session takes it (the sequencer sequences it, the others keep it in
# their pool as witnesses); a witness vote is a broadcast item (SPEC 8.2) resent until the
# head moves; an entry that conflicts with one held goes to the session, which proves an
# equivocation or ignores it, and a chain cut back by the session is cut back in the
# replication and the transcript file too. The game ends with a signed `game_end` (SPEC 7.3):
# `end_game` only asks, and the node's own step writes it once no hand is running. When the
# hands are played the sequencer writes it at once and every other seat END_GRACE later, so
# that a sequencer gone silent after the last hand does not keep the game open: the witnesses
# hold a game end that passes and replace the sequencer (SPEC 7.5, 8.9). A game end binds the
# head, so each seat writes it again whenever its head moves. When to write it, to leave, to
# sit in and to deal is the seat's policy (`p2pwillow.seat`, shared with the in-process
# table); the node's step only asks it. The store's log of signed entries keeps the
# per-author counters a restarted node needs (`p2pwillow.keeping`).
#
# Between hands one seat, the sequencer, countersigns every entry, the next dealer's
# `hand_start` included (SPEC 6.6): a game end, a leave or a sit in and the next hand's start
# reach it and it places them one after the other, refusing what no longer fits. The next
# dealer still waits a moment (DEAL_GRACE, `Session.holds_seat_change`), as a courtesy: what
# another seat wrote at the same moment is then placed before the hand starts instead of being
# refused because a hand is running.
#
# Leaving between hands (SPEC 3.11, 8.9): `leave_table` only asks, like `end_game`; the node's
# own step writes the `leave` once no hand is running, whatever this seat's place (a sequencer
# that leaves hands sequencing to the seat that takes over from it, SPEC 6.6), and the node
# stops once the leave is in its chain. Every other node, once the leave is in its chain and
# the leaver holds it (or is gone), lets the leaver go: no more frames to it, its key
# unpinned, its connection closed.
#
# Joining after the genesis (SPEC 8.9): the host's door seats a newcomer in a seat free in its
# chain and hands it to the host's node, which tells every seated node of it (a `newcomer`
# lobby message, its statement verified) and greets it with the table as it is now. Every
# node pins the newcomer's key, dials it and keeps it in step like a peer, so that it catches
# up; the newcomer's own node watches (an observer's session, every entry checked) until its
# seat is free in its chain, takes the seat's session then (`Session.restore`) and writes its
# `join` between hands once it holds every entry its peers report. A newcomer whose join is
# not in the chain within JOIN_WITHIN is dropped: unpinned, hung up.

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import inspect
import logging
import math
import os
import random
import threading
import time
from collections import deque
from collections.abc import Callable, Coroutine, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from p2pwillow.bots import LEVELS, BotError, strength
from p2pwillow.client import Notice, Shown
from p2pwillow.crypto.group import DecodeError, Rng
from p2pwillow.keeping import HAND_SECRET, GameFiles, KeepError
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.chain import Admission
from p2pwillow.ledger.entry import AuthoredEntry, Entry
from p2pwillow.ledger.errors import LocalProtocolError, Reason, RemoteProtocolError
from p2pwillow.ledger.identity import named
from p2pwillow.ledger.vote import VOTE_TYPE as VOTE
from p2pwillow.ledger.vote import Vote, decode_vote
from p2pwillow.net.errors import WireError
from p2pwillow.net.lobby import host_greeting, statement_of
from p2pwillow.net.newcomers import JOIN_WITHIN, SEAT_WITHIN, SILENT_NEWCOMER_WITHIN
from p2pwillow.net.replication import (
    CATCH_UP_AFTER,
    AuthoredReceived,
    BadFrame,
    BroadcastReceived,
    ConflictReceived,
    EntryReceived,
    Liveness,
    LivenessChanged,
    LobbyReceived,
    Outgoing,
    PeerStatus,
    RefusalReceived,
    Replication,
    ReplicationEvent,
)
from p2pwillow.net.roster import Newcomer, RosterPlayer, Seating, decode_lobby
from p2pwillow.net.traffic import Traffic
from p2pwillow.net.transport import ConnectionState, Received, Transport, tcp_endpoint
from p2pwillow.net.wire import (
    MAX_BATCH,
    BroadcastFrame,
    CatchUpFrame,
    HeartbeatFrame,
    LobbyFrame,
    encode_frame,
)
from p2pwillow.net.worker import Worker, WorkerClosed
from p2pwillow.rules import Dealt, Decision, IllegalAction, RulesError
from p2pwillow.seat import ENDED_AWAY, ClockMove, Do, SeatPolicy, Wishes, away_at_end, clock_call
from p2pwillow.session import (
    SEAT_CHANGES,
    ChainCut,
    ClaimRefused,
    EntryRefused,
    HandClosed,
    HandStarted,
    Output,
    Refusal,
    Session,
)
from p2pwillow.session.claims import claim_text
from p2pwillow.store import TRANSCRIPT_FILE, NodeKeys, Store, StoreError, StoreWriteError
from p2pwillow.table import Decider, bot_decider
from p2pwillow.view import Link, TableView, table_view

log = logging.getLogger(__name__)

DEAL_SIZES = (5, 6, 7)
TICK = 0.5
"""How often the session's clock is read (its action clock counts whole seconds)."""
LOOK_AGAIN = 0.3
"""A bot that chose to wait looks once more after this long if nothing happened (a dealer
that calls the end of free trading closes when it sees nothing has changed, SPEC 9)."""
LINGER = 10.0
"""After the game, a node stays this long at most for its peers to acknowledge its head."""
RESULT_GRACE = 10.0
"""How long a person's screen holds a hand's result, unless the person presses a key first
(SPEC 8.9); at most half the table's action clock."""
ASLEEP_AFTER = 2.0
"""A gap this long between two beats of the node's loop, which beats every `BEAT` whatever
else it does, means the process did not run (stopped, SIGSTOP, a laptop asleep): that time is
not counted on the seat's action clock, so that a node that wakes up votes nobody out (nor
writes a timeout, a sequencer change or an abort) before it has heard its peers (SPEC 7.5)."""
BEAT = 0.2
GONE_AFTER = 2.0
"""A peer whose connection is down and that has been silent this long has left the table."""
FAREWELL = 0.5
"""A seat that left is let go this long after it was told this node's head: long enough for
the heartbeat to leave before the connection closes (sockets close with LINGER 0)."""
GREET_EVERY = 0.5
LINKS_EVERY = 0.25
"""Each peer's link is looked at this often (and whenever its liveness changes)."""
JOIN_TRIES = 3
"""A `join` the sequencer refused while no hand runs is written again at once at most this many
times; after that (or if a hand started first), once the next hand has ended."""
ANNOUNCE_AFTER = 3.0
"""The host tells the seated players of a newcomer this long more once its join is in its
chain, for a peer whose chain lags."""

EventSink = Callable[[dict[str, object]], None]
Say = Callable[[str], None]


class Door(Protocol):
    """What a host does with frames from keys that hold no seat: late hellos, newcomers
    seated after the genesis (SPEC 8.9; `lobby.HostLobby`)."""

    def at_door(self, transport: Transport, r: Received) -> None: ...

    def tick(self, transport: Transport) -> Sequence[RosterPlayer]:
        """Repeat what is on its way; the newcomers seated since the last tick."""
        ...

    def table_now(self, seated: Mapping[int, tuple[str, str]], *, open_: bool) -> None:
        """The seats the chain holds now (seat -> name, identity key hex)."""
        ...

    def greeting(self, key: bytes) -> list[bytes]:
        """What a newcomer is sent until it holds the genesis."""
        ...

    def announcement(self, key: bytes) -> bytes | None:
        """The `newcomer` frame that tells the seated players of the newcomer `key`."""
        ...

    def release(self, key: bytes) -> None:
        """The newcomer `key` was dropped: its seat is free again."""
        ...

    def heard(self, key: bytes) -> None:
        """The newcomer `key` was heard from as a peer: its seat stays promised to it."""
        ...

    def expect(self, player: RosterPlayer) -> None:
        """After a crash: a newcomer seated before it whose `join` is not in the chain yet."""
        ...


@dataclass(slots=True)
class _Arrival:
    """A newcomer this node keeps in step with until its `join` is in the chain."""

    player: RosterPlayer
    since: float
    joined_at: float | None = None


class _Wake:
    """The driver's sleep: until woken (loop thread only) or until a time has passed. One
    future and one timer handle a sleep: an asyncio.Event under asyncio.timeout costs several
    times that, and a node sleeps hundreds of times a hand."""

    __slots__ = ("_set", "_timer", "_waiter")

    def __init__(self) -> None:
        self._set = False
        self._waiter: asyncio.Future[None] | None = None
        self._timer: asyncio.TimerHandle | None = None

    @property
    def sleeping(self) -> bool:
        """The driver waits in `sleep` now (so it is not in the middle of a pass)."""
        return self._waiter is not None and not self._waiter.done()

    def set(self) -> None:
        self._set = True
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def until(self, when: float) -> None:
        """The sleep going on ends at `when` (loop time) instead, unless woken before."""
        waiter, timer = self._waiter, self._timer
        if waiter is None or waiter.done() or timer is None or timer.when() == when:
            return
        timer.cancel()
        self._timer = asyncio.get_running_loop().call_at(when, _wake_up, waiter)

    async def sleep(self, seconds: float) -> None:
        """Return once woken or `seconds` later; a wake that came before returns at once. The
        wake is used up either way."""
        if not self._set and seconds > 0:
            loop = asyncio.get_running_loop()
            waiter = self._waiter = loop.create_future()
            self._timer = loop.call_later(seconds, _wake_up, waiter)
            try:
                await waiter
            finally:
                if self._timer is not None:
                    self._timer.cancel()
                self._waiter = self._timer = None
        self._set = False


def _wake_up(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


def _run_through(coro: Coroutine[Any, Any, None]) -> None:
    """Run to its end a coroutine that never waits: a pass of a node whose worker is inline
    (its only awaits are the worker's, and an inline worker's return at once)."""
    try:
        coro.send(None)
    except StopIteration:
        return
    coro.close()
    raise RuntimeError("a pass of a headless node waited for the loop")


def _quiet(text: str) -> None:
    pass


class NodeError(Exception):
    """The node cannot play this table (its store, a bug in a peer it cannot get past)."""


class StoreUnwritable(NodeError):
    """The store could not be written (a full disk, a read-only or removed home): the node
    stopped before sending anything that depended on the write; nothing is lost, and
    `--resume` takes the seat again once it is fixed (SPEC 8.10)."""


class NotSeated(NodeError):
    """A newcomer gave up: its `join` did not come into the chain in time (SPEC 8.9)."""


class NotAdmitted(NodeError):
    """A newcomer's admission was refused by a seated player (SPEC 6.6): it holds no seat."""


@dataclass(frozen=True, slots=True)
class BotSeat:
    """The local seat plays as a bot of `level` (`samples` Monte Carlo deals per betting
    decision, `seed` for its choices: None draws one)."""

    level: str = "normal"
    samples: int = 300
    seed: int | None = None

    def decider(self, seat: int) -> Decider:
        rng = random.Random(self.seed)
        options: dict[str, Any] = {"samples": self.samples}
        # Bot levels exist where `bot_decider` takes them; elsewhere every bot plays the one way.
        if "level" in inspect.signature(bot_decider).parameters:
            options["level"] = self.level
        # The bots' strength scales are built on first use, a fifth of a second for each deal
        # size: build them before the game, not in the middle of its first hands.
        for size in DEAL_SIZES:
            strength(0, size)
        return bot_decider(seat, rng, **options)


def bot_name(name: str, level: str) -> str:
    """A bot seat's name shows its level: "Bot Ann (hard)", at most 32 characters."""
    suffix = f" ({level})"
    return name[: 32 - len(suffix)].rstrip() + suffix


def _nothing() -> None:
    """A job for the worker that does nothing: its end rebuilds the view."""


class Node:
    """One player's seat at a formed table (`seating`), on the network through `transport`
    (started, pinned by the lobby), with its files in `store` and its keys `keys`.

    `door` takes what keys that hold no seat send (the host's lobby, still answering late
    hellos). `bot` plays the seat (and confirms it) by itself; None leaves the decisions, the seat's
    confirmation and the start of each hand this seat deals after the first to a front end,
    through the Client protocol. `on_event` receives machine-readable progress (one dict per
    event, from the loop), `say` one-line messages for a terminal. `watch` builds a view for a
    front end after each piece of work (a headless bot needs none). `rng` is the session's
    randomness.
    """

    def __init__(
        self,
        seating: Seating,
        transport: Transport,
        store: Store,
        keys: NodeKeys,
        *,
        bot: BotSeat | None = None,
        rng: Rng = os.urandom,
        on_event: EventSink | None = None,
        say: Say = _quiet,
        watch: bool = True,
        door: Door | None = None,
        resume: bool = False,
        seat_within: float = SEAT_WITHIN,
        result_grace: float = 0.0,
    ) -> None:
        if not seating.holds(transport.keys):
            raise NodeError("this node's CURVE key is not the one its seat holds")
        self.seating = seating
        self.transport = transport
        self.store = store
        self.seat = seating.seat
        self.bot = bot
        self.resume = resume
        """Take the seat again from the store's files (SPEC 8.10), not a new game."""
        self.seat_within = seat_within
        """As a newcomer, seconds to wait for the seat before giving up (SPEC 8.9)."""
        self.result_grace = result_grace
        """A person's seat: how long its screen holds a hand's result before the table goes on
        without a key (SPEC 8.9); 0, a bot's: not at all."""
        self.traffic = Traffic()
        self.failure: BaseException | None = None
        """What stopped the node, if something did (the notice says it in words)."""
        self.settled: bool | None = None
        """Whether, once the game was over, every peer said it holds this node's head (False:
        some were gone, or it stopped at the linger's end without knowing); None before."""
        self._on_event = on_event
        self._say = say
        self._watch = watch
        self._door = door
        self._host = seating.roster.players[0].seat
        self._seats = {p.curve: p.seat for p in seating.others}
        self._keys = {seat: key for key, seat in self._seats.items()}
        self._names = {p.seat: p.name for p in seating.roster.players}
        self._rep = Replication(peers=self._seats, now=time.monotonic())
        self._play = _Play(self, keys, rng)
        # a headless node draws no screen: its session runs on the loop (worker.py)
        self._worker = Worker("willow node", on_busy=self._on_busy, inline=not watch)
        self._statement = statement_of(keys)
        # loop state
        self._tasks: list[asyncio.Task[None]] = []
        self._wake = _Wake()
        self._confirmed = False
        self._closing = False
        self._closed = False
        self._decisions: deque[Decision] = deque()
        self._ready = False
        """The person has seen the hand's result (a key): its head signature may go."""
        self._clock_moves: deque[ClockMove] = deque()
        self._step_due = True
        self._tick_at = 0.0
        self._beat = time.monotonic()
        self._slept = 0.0
        """Seconds this process did not run (`ASLEEP_AFTER`): left out of the action clock."""
        self._look_at: float | None = None
        self._greet_at = 0.0
        self._links_at = 0.0
        self._flush_asked = False
        self._next_due = 0.0
        """When the replication has something to send next, as of the last flush."""
        self._stepped: _StepResult | None = None
        self._over = asyncio.Event()
        self._over_reason = ""
        self._ended: str | None = None
        self._end_wanted = False
        self._left: set[int] = set()
        """Seats whose player is known to have left for good (`peer_left`, a `leave`)."""
        self._leave_wanted = False
        self._sit_in_wanted = False
        self._admission_answer: tuple[bytes, bool] | None = None
        """The person's answer to a newcomer's admission: its join's hash, and whether everyone
        saw the same code (SPEC 6.6, 8.9)."""
        self._admission_told: Admission | None = None
        self._leaving: dict[int, int] = {}
        """seat -> seq of its `leave`, for seats let go once they hold it (SPEC 8.9)."""
        self._farewells: dict[int, float] = {}
        """seat -> when a seat that holds its `leave` was told this node's head."""
        self._arrivals: dict[bytes, _Arrival] = {}
        """Newcomers seated after the genesis, by CURVE key, until their join is in the chain."""
        self.newcomer_coming = False
        """A newcomer the host announced has not joined yet (loop thread writes, the worker
        reads: one bool)."""
        self.newcomer_behind = False
        """Such a newcomer reports a head behind this node's (written and read as above)."""
        self._table_told: tuple[dict[int, tuple[str, str]], bool] | None = None
        self._code_shown = ""
        self._started_at = 0.0
        self._join_told: int | None = None
        self._asked_after: int | None = None
        """The head after which a watching newcomer last asked for entries."""
        self._asks = 0
        # published state
        self._lock = threading.Lock()
        self._shown = Shown(busy=False)
        self._links: dict[int, Link] = {s: Link.CONNECTING for s in self._seats.values()}

    # --- life cycle ------------------------------------------------------------------------------

    async def start(self) -> None:
        """Open the game's files and session, push the genesis (as the host) and start
        playing. NodeError if the store cannot hold this game."""
        await self._worker.run(self._play.open)
        if self._watch:
            # a front end reads the view as soon as this returns: build the first one now
            # (the worker's idle hook may publish it only a moment later)
            first = await self._worker.run(lambda: self._play.view(self.links))
            self._publish(view=first)
        now = self._started_at = time.monotonic()
        genesis = self.seating.genesis
        if self._play.restored:
            # what the store held joins the replication; peers catch up from here, and this
            # node from them (SPEC 8.4, 8.10)
            for entry in self._play.restored:
                self._rep.applied(entry, now)
            # the players seated after the roster, as this node kept them (SPEC 8.10): those
            # the restored chain seats are pinned and dialled again
            table = self._play.table
            for player in self.seating.newcomers:
                if table.get(player.seat, ("", ""))[1] == player.identity_key:
                    self._admit(player, now)
                elif self._door is not None and self._awaited(player):
                    # a host's door opened again: a newcomer it seated before the crash may
                    # still be watching for its join (SPEC 8.10); its seat stays promised
                    self._door.expect(player)
                    self._admit(player, now)
            self._event("resumed", head=self._rep.head_seq, hand=self._play.hands)
            self._play.restored = ()  # the store holds them (flat memory, SPEC 8.4)
        elif self.seat == self._host:
            self._rep.publish(genesis, now)
        elif self.seating.late:
            # A newcomer knows it is behind (SPEC 8.9): it asks every peer for the entries after
            # the genesis at once, and asks on as soon as a peer's head shows it is behind,
            # rather than after a second with no progress (8.4).
            self._rep.applied(genesis, now - CATCH_UP_AFTER)
            self._ask_more()
        else:
            self._rep.applied(genesis, now)
        self._code_shown = self.safety_code
        self._event("seated", safety_code=self.safety_code, players=len(self._names))
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._drive(), name="willow-drive"),
            loop.create_task(self._beating(), name="willow-beat"),
        ]
        self.transport.listen(self._received)
        if self.bot is not None or self._play.accepted or self._play.watching:
            # a bot confirms by itself; a seat whose acceptance is in the restored chain has
            # confirmed the code already (its `seat` entry is signed, SPEC 8.10); a newcomer
            # sends no `seat` entry: it watches, and its `join` takes the seat (SPEC 8.9)
            self.confirm_seat(True)
        self._flush()

    @property
    def safety_code(self) -> str:
        """The table's safety code (SPEC 6.7), to compare aloud."""
        return self._play.safety_code

    @property
    def game(self) -> bytes:
        return self.seating.genesis.game

    @property
    def watching(self) -> bool:
        """A newcomer whose `join` is not in its chain yet: it watches the game, holding no
        seat (SPEC 8.9)."""
        return self._play.watching

    @property
    def hands_played(self) -> int:
        """Hands started so far (the number of the current or last hand)."""
        return self._play.hands

    @property
    def head(self) -> int:
        """The seq of the last entry this node holds."""
        return self._rep.head_seq

    @property
    def over(self) -> bool:
        """The game is over (the host's hands are played, or fewer than two players have
        chips), or the node stopped or left."""
        return self._over.is_set()

    @property
    def over_reason(self) -> str:
        return self._over_reason

    async def wait_over(self, timeout: float | None = None) -> bool:
        """Wait until the game is over; False at the deadline."""
        try:
            await asyncio.wait_for(self._over.wait(), timeout)
        except TimeoutError:
            return False
        return True

    async def play_out(self, linger: float = LINGER) -> None:
        """Play until the game is over, stay until every peer holds this node's head (at most
        `linger` seconds), then close. Raises what stopped the node, if anything did."""
        await self._over.wait()
        if self.failure is None:
            await self.settle(linger)
        await self.close()
        if self.failure is not None:
            raise self.failure

    async def settle(self, timeout: float) -> bool:
        """Wait until every peer that is still there (not away, still connected) holds this
        node's head; False at the deadline."""
        deadline = time.monotonic() + timeout
        told = 0.0
        while True:
            now = time.monotonic()
            head = self._rep.head_seq
            statuses = [self._rep.status(p) for p in self._rep.peers]
            if now - told >= 0.5:
                told = now
                self._tell_head()
            if all(st.head_seq >= head or self._gone(st, now) for st in statuses):
                self._tell_head()  # so that each peer's own wait ends at once too
                self.settled = all(st.head_seq >= head for st in statuses)
                return True
            if now >= deadline:
                self.settled = False
                return False
            await asyncio.sleep(0.02)

    def _gone(self, status: PeerStatus, now: float) -> bool:
        """The peer is away, or its connection is down and it has been silent for a while
        (it left the table)."""
        if status.liveness is Liveness.AWAY:
            return True
        silent = status.last_heard is None or now - status.last_heard > GONE_AFTER
        return silent and self.transport.state(status.peer) is not ConnectionState.CONNECTED

    def _tell_head(self, peers: Iterable[bytes] | None = None) -> None:
        """A heartbeat to every peer (or to `peers`) now: "this is my head" (SPEC 8.4)."""
        data = encode_frame(HeartbeatFrame(self._rep.head_seq, self._rep.head_hash))
        for peer in self._rep.peers if peers is None else peers:
            self.transport.send(peer, data)

    async def close(self) -> None:
        """Leave the table: stop the tasks, close the sockets, then the files (safe twice)."""
        if self._closed:
            return
        self._closed = self._closing = True
        self._tell_head()  # the peers' own waits for this node's head end at once
        self._wake.set()
        self.transport.listen(None)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.transport.close()
        await asyncio.to_thread(self._shut)
        self._finish("you left the table")
        self._publish()

    def _shut(self) -> None:
        with contextlib.suppress(WorkerClosed):
            self._worker.submit(self._play.close)
        self._worker.close()

    # --- the Client protocol (loop thread) -------------------------------------------------------

    def view(self) -> TableView:
        view = self._shown.view
        if view is None:
            raise NodeError("the node has no view: it was made with watch=False")
        return view

    async def changed(self, seen: int) -> int:
        return await self._shown.changed(seen)

    def decide(self, decision: Decision) -> None:
        if not self._confirmed:
            self._publish(notice="confirm the safety code first")
            return
        self._decisions.append(decision)
        self._poke()

    @property
    def seat_confirmed(self) -> bool:
        return self._confirmed

    def confirm_seat(self, same: bool) -> None:
        if self._confirmed or self._closing:
            return
        if not same:
            why = "you left the table: the safety codes did not match"
            self._publish(notice=why)
            self._finish(why)
            self._tasks.append(asyncio.ensure_future(self._leave_quietly()))
            return
        self._confirmed = True
        self._publish()
        self._poke()

    async def _leave_quietly(self) -> None:
        await self.close()

    def next_hand(self) -> None:
        """The person has seen how the last hand ended (a key): this seat signs it, so the next
        hand may start (SPEC 8.9). Without a key, the screen holds the result `result_grace`
        seconds."""
        self._ready = True
        self._poke()

    def end_game(self) -> None:
        """The person ends the game: at once between hands, else once the current hand has
        ended and every player signed its head.

        The one place that ends a game on request: it asks, and the node's own step (in the
        worker, `_Play.step`) writes the `game_end` once no hand is running (SPEC 7.3); every
        seated player signs it and the node stops. If a next hand started first (its dealer
        was quicker), the game ends after that one."""
        if self._ended is not None or self._closing:
            return
        self._end_wanted = True
        self._poke()

    @property
    def end_wanted(self) -> bool:
        """The person asked to end the game (`end_game`)."""
        return self._end_wanted

    def leave_table(self) -> None:
        """The player leaves the table between hands, taking its stack with it (SPEC 3.11);
        the game goes on without it.

        It asks, and the node's own step (`_Play.step`) writes the `leave` once no hand is
        running and this seat deals the next hand (before that, the seat plays on); once the
        leave is in the chain the node stops. If the game ends first, the seat signs its end
        and stops with it."""
        if self._ended is not None or self._closing or self._leave_wanted:
            return
        self._leave_wanted = True
        self._poke()

    @property
    def leave_wanted(self) -> bool:
        """The player asked to leave the table (`leave_table`)."""
        return self._leave_wanted

    def sit_in(self) -> None:
        """The player's seat, sitting out, plays again: the node's own step writes its
        `sit_in` once no hand is running and the rules allow it (SPEC 3.11: after sitting
        out a hand). A bot's seat sits in by itself; the wish lasts until the seat plays."""
        if self._ended is not None or self._closing:
            return
        self._sit_in_wanted = True  # the screen says what it will do (SittingOut.back_from)
        self._poke()

    def answer_admission(self, same: bool) -> None:
        """The person compared the new safety code aloud with everyone at the table: `same`
        admits the newcomer whose admission is open, otherwise this seat refuses it (SPEC 6.6).
        A newcomer answering for itself with `same` False leaves the table."""
        admission = self._play.admission
        if admission is None or self._closing or self._ended is not None:
            return
        self._admission_answer = (admission.join, same)
        self._poke()

    def admission_wish(self, admission: Admission | None) -> bool | None:
        """This seat's answer to `admission`: a bot admits; a person as they answered it, or
        None while they have not (read by the seat's policy, SPEC 8.9)."""
        if admission is None:
            return None
        if self.bot is not None:
            return True
        answer = self._admission_answer
        if answer is None or answer[0] != admission.join:
            return None
        return answer[1]

    def clock_move(self, move: ClockMove) -> None:
        """A move about the clock (SPEC 3.14): the node's own step makes it at once; if the
        session refuses it, the notice says why."""
        if self._ended is not None or self._closing:
            return
        if not self._confirmed:
            self._publish(notice="confirm the safety code first")
            return
        self._clock_moves.append(move)
        self._poke()

    @property
    def sit_in_wanted(self) -> bool:
        """The local seat sits in when it may: a bot's always, a person's once asked."""
        return self.bot is not None or self._sit_in_wanted

    @property
    def ended(self) -> str | None:
        """Why the game is over, once it is (its hands played, one player holding all the
        chips, or the person ended it); None while it goes on or if the node stopped."""
        return self._ended

    def peer_left(self, seat: int, why: str) -> None:
        """The player of `seat` has left for good (a bot whose process ended): its seat shows
        away from now on, and the person reads `why` once."""
        if seat not in self._keys or self._closing:
            return
        self._left.add(seat)
        self._event("left", peer=seat, reason=why)
        self._publish(notice=why)
        self._follow_links()
        # the seats drawn on the screen come from the view, built in the worker
        self._play.dirty = True
        self._worker.submit(_nothing)

    @property
    def links(self) -> Mapping[int, Link]:
        with self._lock:
            return dict(self._links)

    @property
    def busy(self) -> bool:
        return self._shown.busy

    @property
    def notice(self) -> Notice | None:
        return self._shown.notice

    @property
    def transcript(self) -> Path | None:
        return self.store.game_dir(self.game) / TRANSCRIPT_FILE

    # --- publishing ------------------------------------------------------------------------------

    def _publish(
        self,
        *,
        view: TableView | None = None,
        busy: bool | None = None,
        notice: str | None = None,
    ) -> None:
        self._shown.publish(view=view, busy=busy, notice=notice)

    def _on_busy(self, busy: bool) -> None:
        """The worker started a batch of work (loop thread) or finished one (worker thread:
        the view is built there, from the session, for a front end)."""
        if not self._watch:
            return
        if busy:
            self._publish(busy=True)
            return
        view = self._play.view(self.links) if self._play.dirty and self._play.ready else None
        self._publish(view=view, busy=False)

    def _event(self, name: str, **fields: object) -> None:
        if self._on_event is not None:
            self._on_event(
                {
                    "event": name,
                    "seat": self.seat,
                    "t": time.monotonic(),
                    "cpu": time.process_time(),
                    "worker_cpu": self._worker.cpu,
                    # every event is told on the loop's thread: its CPU beside the process's
                    # and the session's says whether time went to the loop's own work
                    # (framing, the replication) or to the sockets' threads (CurveZMQ)
                    "loop_cpu": time.thread_time(),
                    **fields,
                }
            )

    def _finish(self, reason: str) -> None:
        if not self._over.is_set():
            self._over_reason = reason
            self._over.set()

    def _fail(self, exc: BaseException) -> None:
        log.error("the node stopped: %s", exc, exc_info=exc)
        self.failure = exc
        self._publish(notice=f"the table stopped: {exc}")
        self._event("failed", error=str(exc))
        self._finish(f"the table stopped: {exc}")

    # --- the receiver ----------------------------------------------------------------------------

    def _poke(self) -> None:
        self._step_due = True
        self._wake.set()

    def _received(self) -> None:
        """Frames landed in the transport's inbox (called by the loop, once per batch): each
        goes to the replication, then the driver is woken once for the whole batch."""
        transport = self.transport
        now = time.monotonic()
        try:
            while (r := transport.recv_nowait()) is not None:
                self.traffic.frames_received += 1
                self.traffic.bytes_received += len(r.data)
                if r.pinned and r.peer in self._seats:
                    self._rep.receive(r.data, r.peer, now)
                elif self._door is not None:
                    # not a seated key: only a host's door reads it (a late hello), SPEC 8.9
                    self._door.at_door(transport, r)
        except Exception as exc:
            transport.listen(None)
            self._fail(exc)
            return
        # What the frames make due (a catch-up reply, an acknowledgement) goes out when the
        # driver's pass ends: one flush for the frames and what the session makes of them.
        self._next_due = 0.0
        if self._worker.inline and self._wake.sleeping:
            self._pass_here()
        else:
            self._wake.set()

    def _pass_here(self) -> None:
        """A headless node's driver passes, run in the receiver's own turn of the loop while
        the driver sleeps: its worker is inline, so a pass never waits, and a batch of frames
        costs one turn of the loop, not two (the receiver's, then the woken driver's). The
        driver's sleep is then set to end when it would have, had it run the pass itself."""
        try:
            while True:
                _run_through(self._pass())
                if self._closing or not self._again():
                    break
        except Exception as exc:
            self.transport.listen(None)
            for task in self._tasks:
                task.cancel()
            self._fail(exc)
            return
        self._wake.until(asyncio.get_running_loop().time() + self._rest())

    def _flush_soon(self) -> None:
        """Flush once the loop is done with what it is doing now: what comes due meanwhile
        (acknowledgements of a burst of entries) goes in one pass. With an inline worker the
        driver's pass, which made what is to be sent, never yields before its own flush at
        its end, so nothing needs to be scheduled."""
        if not self._flush_asked:
            self._flush_asked = True
            if not self._worker.inline:
                asyncio.get_running_loop().call_soon(self._flush_asked_for)

    def _flush_asked_for(self) -> None:
        if self._flush_asked:  # not flushed meanwhile
            self._flush()

    def _flush(self) -> None:
        """Send every frame the replication says is due now, and note when the next is."""
        self._flush_asked = False
        files = self._play.files
        if files is not None:
            # what the transcript holds is read back from it: the replication keeps only the
            # current hand in memory (SPEC 8.4, "Flat memory")
            self._rep.keep_from_store(len(files.transcript), self._play.read_entries)
        for peer, data in self._rep.frames_to_send(time.monotonic()):
            if self.transport.send(peer, data):
                self.traffic.frames_sent += 1
                self.traffic.bytes_sent += len(data)
        timer = self._rep.get_timer()
        self._next_due = timer if timer is not None else math.inf

    def _flush_due(self, now: float) -> None:
        """Flush if anything may be due: a flush was asked for (the session made something),
        or a time the replication named has come (frames that came in make it now).
        Everything else that changes what is due goes through one of those, so the idle loop
        does not ask the replication each time it wakes."""
        if self._flush_asked or now >= self._next_due:
            self._flush()

    # --- the driver ------------------------------------------------------------------------------

    async def _drive(self) -> None:
        try:
            while not self._closing:
                await self._pass()
                await self._sleep()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self._fail(exc)

    async def _pass(self) -> None:
        """One pass of the driver: the replication's timers, the links, the door, the
        session's events and the node's own step, then the flush of what is due."""
        now = time.monotonic()
        self._rep.handle_timer(now)
        if now >= self._links_at:
            self._follow_links()
        self._greet(now)
        if self._door is not None:
            for player in self._door.tick(self.transport):
                self._admit(player, now)
        self._follow_table(now)
        if self._play.watching:
            self._ask_more()
        if self._play.watching and now - self._started_at > self.seat_within:
            raise NotSeated(
                f"no seat after {self.seat_within:g} s: the table never took this "
                f"newcomer's join (its players drop a newcomer after {JOIN_WITHIN:g} s "
                "without one); join again with the table's join code"
            )
        if self._leaving:
            self._let_go(now)
        if self._playing:
            await self._drain()
            now = time.monotonic()
            if self._step_due or now >= self._tick_at or self._looked(now):
                await self._step(now)
        self._flush_due(time.monotonic())

    @property
    def _playing(self) -> bool:
        """The session takes what comes: the seat is confirmed and the game goes on."""
        return self._confirmed and not self._over.is_set()

    def _looked(self, now: float) -> bool:
        return self._look_at is not None and now >= self._look_at

    def _again(self) -> bool:
        """Another pass is due at once: the seat may have a step to take, or a flush was
        asked for."""
        return (self._step_due and self._playing) or self._flush_asked

    def _rest(self) -> float:
        """Seconds until the driver's next pass is due (at most half a second)."""
        now = time.monotonic()
        times = [now + 0.5, self._next_due]
        if self._playing:
            times.append(self._tick_at)
            if self._look_at is not None:
                times.append(self._look_at)
        return min(times) - now

    async def _sleep(self) -> None:
        if not self._again():
            await self._wake.sleep(self._rest())

    async def _drain(self) -> None:
        """Hand every replication event to the session, one at a time, in order."""
        while self._playing and (event := self._rep.next_event()) is not None:
            await self._handle(event)

    async def _handle(self, event: ReplicationEvent) -> None:
        if isinstance(event, EntryReceived):
            last = not self._rep.ready(after=event.entry.seq)
            out = await self._session_call(event.peer, self._play.entry, event.entry, last)
            if out is not None:
                if self._play.holds(event.entry):
                    # not a remedy this player holds back or refuses (SPEC 7.9)
                    self._rep.applied(event.entry, time.monotonic())
                self._send(out)
                self._took(self._stepped)
                if self._end_wanted and self._play.between:
                    # the hand is over and signed: write the game's end before anything else
                    self._step_due = True
        elif isinstance(event, AuthoredReceived):
            last = not self._rep.ready()
            out = await self._session_call(event.peer, self._play.take_authored, event.entry, last)
            if out is not None:
                self._send(out)
                self._took(self._stepped)
        elif isinstance(event, RefusalReceived):
            out = await self._session_call(event.peer, self._play.refusal, event.refusal)
            if out is not None:
                if any(isinstance(e, EntryRefused) and e.author == self.seat for e in out.events):
                    self._rep.withdraw(event.refusal.sig)
                self._join_refused()
                self._send(out)
        elif isinstance(event, BroadcastReceived):
            await self._take_broadcast(event)
        elif isinstance(event, ConflictReceived):
            # Another entry for a place our chain holds: the session proves an equivocation
            # (SPEC 6.8), lets a sequencer change take the place (7.5), or ignores it.
            out = await self._session_call(event.peer, self._play.entry, event.entry)
            if out is not None:
                self._send(out, adopted=event.entry)
        elif isinstance(event, BadFrame):
            self.traffic.bad_frames += 1
            self._event("bad_frame", peer=self._seats.get(event.peer), error=str(event.error))
        elif isinstance(event, LivenessChanged):
            self._follow_links()
        elif isinstance(event, LobbyReceived):
            self._lobby_message(event)

    async def _session_call(
        self, peer: bytes, job: Callable[[Any], Output], item: object, last: bool = False
    ) -> Output | None:
        """`job(item)` in the worker; None (and counted against `peer`) if the session
        refuses what the peer sent. If it is the `last` of what is ready, or it ends the hand
        (its last head signature: no hand is running now, and what is queued behind it may
        be the next hand's start), and the person has no decision waiting, the node's own
        step runs in the same piece of work, and its result is in `_stepped`: one trip to
        the worker, not two, and a seat that sits in, leaves or ends the game between hands
        writes it before the next hand is taken (SPEC 8.9)."""
        self._stepped = None
        waiting = self._decisions or self._clock_moves
        step = self._step_job(time.monotonic()) if not waiting else None
        play = self._play

        def work() -> tuple[Output, _StepResult | None]:
            was_between = play.between
            out = job(item)
            if step is None or not (last or (play.between and not was_between)):
                return out, None
            return out, step()

        try:
            out, self._stepped = await self._worker.run(work)
        except RemoteProtocolError as exc:
            self._count_rejected(peer, exc)
            self._step_due = True
            return None
        # the state moved: unless the step ran, the seat may have something to do
        self._step_due = self._stepped is None
        return out

    def _count_rejected(self, peer: bytes, error: RemoteProtocolError) -> None:
        self.traffic.rejected += 1
        self._rep.rejected(peer, error)
        if error.reason is Reason.WRONG_PREV and error.seq == self._rep.head_seq + 1:
            # the peers' chain parts from ours further back: catch up from before that, the
            # next ask due at once (SPEC 8.4), so the replication is asked again now
            self._rep.forked()
            self._next_due = 0.0
        self._event("rejected", peer=self._seats.get(peer), error=str(error))
        log.warning("seat %s sent what the session refuses: %s", self._seats.get(peer), error)

    async def _take_broadcast(self, event: BroadcastReceived) -> None:
        """A witness vote (SPEC 7.5, the only broadcast item) goes to the session."""
        if event.item.kind != VOTE:
            return  # a kind of a later version: ignored (SPEC 8.2)
        try:
            vote = decode_vote(event.item.payload)
        except RemoteProtocolError as exc:
            self._count_rejected(event.peer, exc)
            return
        out = await self._session_call(event.peer, self._play.vote, vote)
        if out is not None:
            self._send(out)

    async def _beating(self) -> None:
        """The loop's beat (`ASLEEP_AFTER`): notices a time the process did not run."""
        while not self._closing:
            self._awake(time.monotonic())
            await asyncio.sleep(BEAT)

    def _awake(self, now: float) -> float:
        """`now` on the seat's clock: the time this process ran (`ASLEEP_AFTER`)."""
        gap = now - self._beat
        if gap > ASLEEP_AFTER:
            self._slept += gap
            self._event("slept", seconds=round(gap, 3))
            self._play.woke = True  # its session is told before it takes anything (SPEC 7.9)
        self._beat = max(self._beat, now)
        return now - self._slept

    def _step_job(self, now: float) -> Callable[[], _StepResult]:
        """The node's own step, to run in the worker: the clock, the next deal, decisions."""
        self._look_at = None
        if now >= self._tick_at:
            self._tick_at = now + TICK
        decisions = tuple(self._decisions)
        self._decisions.clear()
        moves = tuple(self._clock_moves)
        self._clock_moves.clear()
        self._play.peer_head = self._rep.peers_head
        awake = self._awake(now)
        return functools.partial(self._play.step, awake, decisions, self._ready, moves)

    async def _step(self, now: float) -> None:
        self._step_due = False
        self._took(await self._worker.run(self._step_job(now)))

    def _took(self, result: _StepResult | None) -> None:
        """What the node's own step made: its entries sent, its notices shown, the game's end."""
        if result is None:
            return
        if result.read:
            self._ready = False
        if result.look_again:
            self._look_at = time.monotonic() + LOOK_AGAIN
        for text in result.notices:
            self._publish(notice=text)
        if result.stay:
            self._leave_wanted = False
        if result.plays:
            self._sit_in_wanted = False
        self._send(result.out)
        if result.refused is not None:
            self._not_admitted(result.refused, own=result.own_refusal)
        elif result.left is not None:
            self._end_game(result.left, event="left_table")
        elif result.over is not None:
            if result.away and self._ended is None:
                self._say(ENDED_AWAY)
                self._publish(notice=ENDED_AWAY)
            self._end_game(result.over)

    def _end_game(self, reason: str, event: str = "over") -> None:
        """The game is over: its `game_end` is in the chain, signed by every seated player or
        excused by the clock (SPEC 7.3), so the transcript is a closed game. Or, with `event`
        "left_table", it is over for this seat: its `leave` is in the chain."""
        if self._ended is not None:
            return
        self._ended = reason
        self._say(reason)
        self._event(event, hands=self.hands_played, reason=reason, **self.traffic.counters())
        self._publish(notice=reason)
        self._finish(reason)

    def _not_admitted(self, reason: str, *, own: bool) -> None:
        """This newcomer holds no seat: a seated player refused it, or its own person did
        (SPEC 6.6). The node stops; a refusal by another is a failure with its own exit code."""
        if self._ended is not None:
            return
        self._ended = reason
        self._say(reason)
        self._event("not_admitted", reason=reason, own=own)
        self._publish(notice=reason)
        if not own:
            self.failure = NotAdmitted(reason)
        self._finish(reason)

    def _send(self, out: Output, adopted: Entry | None = None) -> None:
        """Hand what the session made to the replication (the store holds it already) and
        tell its events. `adopted`: a peer's entry for a place our chain held, which the
        session applied there if it cut its chain at that place and made no entry of its own
        for it (SPEC 7.5): the replication's chain takes it too."""
        now = time.monotonic()
        while self._play.departed:
            seat, seq = self._play.departed.popleft()
            if seat != self.seat and self._keys.get(seat) in self._seats:
                self._leaving[seat] = seq
        for ev in out.events:
            if isinstance(ev, ChainCut):
                self._rep.cut_back(ev.seq, now)  # before what follows the cut is published
                if (
                    adopted is not None
                    and adopted.seq == ev.seq
                    and not any(isinstance(e, Entry) and e.seq == ev.seq for e in out.send)
                ):
                    self._rep.applied(adopted, now)
        urgent = self._urgent_peers() if out.send else None
        for item in out.send:
            if isinstance(item, Vote):
                # to every peer, resent until the head moves (SPEC 7.5, 8.4)
                self._rep.publish(BroadcastFrame(VOTE, item.hand, item.encode()), now)
            elif isinstance(item, Entry):
                # to every peer, at once to those that owe a step now (SPEC 8.4)
                self._rep.publish(item, now, urgent=urgent)
            else:
                # an authored entry to every peer too: each keeps it as a witness (SPEC 7.1)
                self._rep.publish(item, now, first=self._sequencer_first(item))
        self._flush_soon()
        for ev in out.events:
            self._tell(ev)

    def _urgent_peers(self) -> frozenset[bytes] | None:
        """The peers an entry this node sequences must reach at once (`Session.seats_owing`)."""
        seats = self._play.urgent
        if seats is None:
            return None
        return frozenset(self._keys[seat] for seat in seats if seat in self._keys)

    def _sequencer_first(self, item: Outgoing) -> bytes | None:
        """The peer an authored entry goes to first, the witnesses only if it is not sequenced
        soon (SPEC 7.1): its sequencer's. None, to every peer at once: a seat change (a next
        dealer holding one waits for it before it deals, SPEC 8.9), and what this seat
        sequences itself."""
        if not isinstance(item, AuthoredEntry) or item.kind in SEAT_CHANGES:
            return None
        seat = self._play.sequencer
        return None if seat == self.seat else self._keys.get(seat)

    def _tell(self, ev: object) -> None:
        if isinstance(ev, HandStarted):
            dealer = self._names.get(ev.dealer, f"seat {ev.dealer}")
            self._say(f"hand {ev.hand}: {dealer} deals")
            self._event("hand_start", hand=ev.hand, dealer=ev.dealer, **self.traffic.counters())
        elif isinstance(ev, Dealt):
            self._event("dealt", hand=self._play.hands, **self.traffic.counters())
        elif isinstance(ev, HandClosed):
            s = ev.summary
            self._say(f"hand {s.number}: {self._result(s.chips, s.aborted, s.reason)}")
            chips = {str(seat): c for seat, c in s.chips}
            ended = {"hand": s.number, "dealer": s.dealer, "aborted": s.aborted, "chips": chips}
            self._event("hand_end", **ended, **self.traffic.counters())
        elif isinstance(ev, ClaimRefused):
            self._say(self._refused(ev))
            self._publish(notice=self._refused(ev))
            self._event(
                "claim_refused",
                kind=ev.kind,
                seats=list(ev.seats),
                signers=list(ev.signers),
                why=ev.why,
                stops=ev.stops,
            )
        elif isinstance(ev, EntryRefused) and ev.author == self.seat:
            # (an answer to an admission another seat closed first changes nothing)
            if self.bot is None and ev.kind not in (k.Admit.KIND, k.Refuse.KIND):
                self._publish(notice=f"the dealer refused your {ev.kind}: {ev.detail}")
            self._poke()

    def _refused(self, ev: ClaimRefused) -> str:
        """A refused claim in words (SPEC 7.9): who claimed what, and what this node does."""
        name = self._names.get
        signers = ", ".join(str(name(s, f"seat {s}")) for s in ev.signers)
        seats = ", ".join(str(name(s, f"seat {s}")) for s in ev.seats)
        what = claim_text(ev.kind, seats)
        then = (
            "the table stops here: this hand is void and every stack is as at its start"
            if ev.stops
            else "the table goes on without them"
        )
        return f"refused a false claim {what}, signed by {signers} ({ev.why}); {then}"

    def _result(self, chips: tuple[tuple[int, int], ...], aborted: bool, reason: str) -> str:
        if aborted:
            return f"aborted ({reason})"
        won = [f"{self._names.get(s, s)} +{c}" for s, c in chips if c > 0]
        return "won by " + ", ".join(won) if won else "no chips moved"

    def _follow_links(self) -> None:
        self._links_at = time.monotonic() + LINKS_EVERY
        links = {seat: self._link(key) for key, seat in self._seats.items()}
        with self._lock:
            changed = links != self._links
            self._links = links
        if changed:
            self._publish()

    def _let_go(self, now: float) -> None:
        """Each seat whose `leave` is in the chain is let go once it holds that entry (so it
        knows it may stop) or is gone: no more frames to it, its key unpinned, its
        connection closed (SPEC 8.9). Its going is not a fault. A seat that holds its leave
        is told this node's head first, a moment before: the leaver waits for its peers to
        hold its head before it stops, and a peer that let it go says nothing more."""
        for seat, seq in list(self._leaving.items()):
            key = self._keys[seat]
            status = self._rep.status(key)
            gone = self._gone(status, now)
            if status.head_seq < seq and not gone:
                continue
            if not gone:
                told = self._farewells.get(seat)
                if told is None:
                    self._tell_head([key])
                    self._farewells[seat] = now
                if told is None or now - told < FAREWELL:
                    continue
            self._farewells.pop(seat, None)
            del self._leaving[seat]
            del self._seats[key]
            self._rep.remove_peer(key)
            self.transport.unpin(key)
            self.transport.disconnect(key)
            self._left.add(seat)
            name = self._names.get(seat, f"seat {seat}")
            self._event("left", peer=seat, reason="left the table")
            self._say(f"{name} left the table")
            self._publish(notice=f"{name} left the table")
            self._follow_links()

    def _link(self, key: bytes) -> Link:
        status = self._rep.status(key)
        if status.liveness is Liveness.AWAY or self._seats[key] in self._left:
            return Link.AWAY
        if status.last_heard is None:
            return Link.CONNECTING
        return Link.CONNECTED

    def _greet(self, now: float) -> None:
        """As the host: repeat the lobby's hello, welcome and roster to every guest that does
        not hold the genesis yet (a guest checks the genesis against the roster)."""
        if self.seat != self._host or now < self._greet_at:
            return
        self._greet_at = now + GREET_EVERY
        door = self._door
        for key, seat in self._seats.items():
            if self._rep.status(key).head_seq >= 0:
                continue
            if key in self._arrivals:
                frames = [] if door is None else door.greeting(key)
            else:
                frames = host_greeting(self.seating, self._statement, seat)
            for data in frames:
                self.transport.send(key, data)
        for key, arrival in self._arrivals.items():
            told = None if door is None else door.announcement(key)
            if told is None:
                arrival_frame = Newcomer(game=self.game.hex(), player=arrival.player).frame()
                told = encode_frame(arrival_frame)
            for peer in self._seats:
                if peer != key:
                    self.transport.send(peer, told)

    # --- newcomers (SPEC 8.9) --------------------------------------------------------------------

    def _lobby_message(self, event: LobbyReceived) -> None:
        """A lobby message from a seated peer: only the host's `newcomer` means anything after
        the genesis, and only if its statement verifies and it is of this game."""
        if not isinstance(event.frame, LobbyFrame) or self._seats.get(event.peer) != self._host:
            return
        try:
            message = decode_lobby(event.frame)
        except WireError as exc:
            self.traffic.bad_frames += 1
            self._event("bad_frame", peer=self._host, error=str(exc))
            return
        if isinstance(message, Newcomer) and message.game_id == self.game:
            self._admit(message.player, time.monotonic())

    def _admit(self, player: RosterPlayer, now: float) -> None:
        """Keep the newcomer `player` in step (its key pinned, dialled, a replication peer)
        until its join is in the chain. Not a seat this node holds or a key it knows; a seat
        its chain still gives another player waits for a later announcement."""
        key = player.curve
        if key in self._arrivals or key == self.transport.keys.public or player.seat == self.seat:
            return
        if self._play.ended:
            if self._door is not None:
                self._door.release(key)
            return
        if key in self._seats or not 0 <= player.seat < self.seating.roster.table_config.seats:
            return
        held = self._play.table.get(player.seat)
        if held is not None and held[1] != player.identity_key:
            return  # this chain has the seat's player still (it lags): the host says it again
        old = self._keys.get(player.seat)
        if old is not None and old in self._seats:
            self._leaving.pop(player.seat, None)
            self._farewells.pop(player.seat, None)
            self._drop_peer(old)
        try:
            self.transport.pin(player.statement)
        except WireError:
            return  # (decode_lobby checked it; a statement never pins unverified)
        if self.transport.endpoint(key) != tcp_endpoint(player.host, player.port):
            # (the host's door dialled it already: one connection to a peer is enough)
            self.transport.connect(key, player.host, player.port)
        self._rep.add_peer(key, now)
        self._seats[key] = player.seat
        self._keys[player.seat] = key
        self._names[player.seat] = player.name
        self._left.discard(player.seat)
        self._arrivals[key] = _Arrival(player, now)
        if player not in self.seating.newcomers:
            # kept before anything depends on it: taking the seat again after a crash, this
            # node must still know the newcomer's key, long after the host stopped saying it
            self.seating = self.seating.with_newcomer(player)
            self.store.save_table(self.game, self.seating.encode())
        self._event("newcomer", peer=player.seat, player=player.name)
        self._follow_links()

    def _tell_admissions(self, admission: Admission | None) -> None:
        """Say each newcomer's admission as it opens (what to compare, with whom) and how
        each one closed (SPEC 6.6, 8.9)."""
        while self._play.admissions_closed:
            closed, refusal = self._play.admissions_closed.popleft()
            who = named(closed.name, closed.identity_key)
            if refusal is None:
                self._say(f"everyone admitted {who}: it plays from the next hand")
                self._event("admitted", peer=closed.seat, player=closed.name)
                continue
            author, reason = refusal
            by = "you" if author == self.seat else self._names.get(author, f"seat {author}")
            text = f"{who} was refused by {by}: {reason}; it plays no hand"
            if author == closed.seat:  # the newcomer's own no
                text = f"{who} did not take the seat: {reason}; it plays no hand"
            self._say(text)
            if closed.seat != self.seat:
                self._publish(notice=text)
            self._event("refused", peer=closed.seat, by=author, reason=reason)
        told = self._admission_told
        if admission is not None and (told is None or told.join != admission.join):
            who = named(admission.name, admission.identity_key)
            what = "you take" if admission.seat == self.seat else f"{who} takes"
            self._say(
                f"{what} seat {admission.seat}: compare the new safety code "
                f"{self._play.safety_code} aloud with everyone at the table; no hand "
                "starts until every player has answered"
            )
            self._event("admission", peer=admission.seat, player=admission.name)
        self._admission_told = admission

    def _awaited(self, player: RosterPlayer) -> bool:
        """The newcomer `player` (of the restored table.json) may still be waiting for its
        seat: no `join` of its key is in the restored chain (one that joined and left since
        waits no more), and its seat is free there."""
        if player.seat in self._play.table:
            return False
        return not any(
            isinstance(e.body, k.Join) and e.body.identity_key == player.identity_key
            for e in self._play.restored
        )

    def _join_refused(self) -> None:
        """The sequencer refused this newcomer's join: it is no longer sent, and is written
        again (SPEC 8.9); the person is told, and the events say why."""
        refused, self._play.join_refused = self._play.join_refused, None
        if refused is None:
            return
        sig, detail = refused
        self._rep.withdraw(sig)
        text = (
            f"the table refused this seat's join ({detail}); it is written again once no hand runs"
        )
        self._say(text)
        self._publish(notice=text)
        self._event("join_refused", detail=detail, hand=self._play.hands)

    def _ask_more(self) -> None:
        """A newcomer that is watching asks a peer (each in turn) for the entries after its
        head each time a full batch came in: it is behind by a game's worth of entries, and a
        peer's heartbeat would tell it so only a second later (SPEC 8.4, 8.9)."""
        head = self._rep.head_seq
        if self._asked_after is not None and head < self._asked_after + MAX_BATCH:
            return
        peers = self._rep.peers
        if not peers:
            return
        self._asked_after = head
        self._asks += 1
        self.transport.send(peers[self._asks % len(peers)], encode_frame(CatchUpFrame(head)))

    def _drop_peer(self, key: bytes) -> None:
        self._seats.pop(key, None)
        self._rep.remove_peer(key)
        self.transport.unpin(key)
        self.transport.disconnect(key)

    def _follow_table(self, now: float) -> None:
        """Follow the chain's seats: tell the door, say a new safety code, let each newcomer
        whose join is in the chain be a player like any other, drop one whose join never
        came."""
        table, ended = self._play.table, self._play.ended
        if (table, ended) != self._table_told and self._door is not None:
            self._door.table_now(table, open_=not ended)
        self._table_told = table, ended
        code = self._play.safety_code
        admission = self._play.admission
        if self._play.watching:
            self._code_shown = code  # (a newcomer shows the table's code once it is seated)
        elif self._ended is not None:
            # the game is over for this seat (a newcomer refused, a seat that left): a code
            # the others reach without it is not a code of its table (SPEC 6.6)
            self._code_shown = code
        elif code and code != self._code_shown:
            self._code_shown = code
            text = f"the table changed: the safety code is now {code}"
            self._say(text)
            if admission is None:  # (a newcomer's admission has a screen of its own)
                self._publish(notice=text)
            self._event("safety_code", safety_code=code)
        self._tell_admissions(admission)
        if self._play.join_sent is not None and self._play.join_sent != self._join_told:
            self._join_told = self._play.join_sent
            self._event("join_sent", hand=self._join_told, head=self._rep.head_seq)
        coming = [
            key
            for key, a in self._arrivals.items()
            if a.joined_at is None
            and table.get(a.player.seat, ("", ""))[1] != a.player.identity_key
        ]
        self.newcomer_coming = bool(coming)
        # its heartbeat's head: a newcomer checks every proof of the hands it missed (one not
        # heard from, or gone quiet, is given the grace alone)
        head = self._rep.head_seq
        heard = [self._rep.status(key) for key in coming if key in self._rep.peers]
        self.newcomer_behind = any(
            p.last_heard is not None and p.liveness is Liveness.PRESENT and p.head_seq < head
            for p in heard
        )
        for key, arrival in list(self._arrivals.items()):
            p = arrival.player
            if table.get(p.seat, ("", ""))[1] == p.identity_key:
                if arrival.joined_at is None:
                    arrival.joined_at = now
                    self._say(f"{p.name} joined the table in seat {p.seat}")
                    self._event("joined", peer=p.seat, player=p.name)
                if now - arrival.joined_at > ANNOUNCE_AFTER or self.seat != self._host:
                    del self._arrivals[key]
            elif arrival.joined_at is not None:
                # it joined, and is gone since (refused, or it left): let go as a leaver is
                del self._arrivals[key]
            elif (
                self._door is not None and self._rep.status(key).last_heard is not None
            ) and now - arrival.since <= JOIN_WITHIN:
                self._door.heard(key)
            elif now - arrival.since > JOIN_WITHIN or (
                self.seat == self._host
                and now - arrival.since > SILENT_NEWCOMER_WITHIN
                and self._rep.status(key).last_heard is None
            ):
                # (at the door: one never heard from was no newcomer, its seat is free again)
                del self._arrivals[key]
                self._drop_peer(key)
                if self._keys.get(p.seat) == key:
                    del self._keys[p.seat]
                if self._door is not None:
                    self._door.release(key)
                self._event("dropped", peer=p.seat, player=p.name)
                self._follow_links()


@dataclass(frozen=True, slots=True)
class _StepResult:
    out: Output
    notices: tuple[str, ...] = ()
    look_again: bool = False
    dealt: bool = False
    read: bool = False
    """The person's wish to go on was used: the hand's result was seen (or there was none)."""
    over: str | None = None
    away: bool = False
    """With `over`: this seat was away when the game ended (its signature of the end excused),
    and caught the end up (SPEC 8.9): the node says so before the reason."""
    left: str | None = None
    """This seat's `leave` is in the chain: why the node stops."""
    stay: bool = False
    """The session refused to let this seat leave: the wish is dropped."""
    plays: bool = False
    """This seat does not sit out, in its chain: the person's wish to sit in is met. (Not
    once its `sit_in` is written: the sequencer refuses one that the next hand's start beat,
    and the seat writes it again after that hand, as long as the wish lasts.)"""
    refused: str | None = None
    """This newcomer holds no seat: its admission was refused (why, in words)."""
    own_refusal: bool = False
    """`refused` by this seat's own player."""


WOKE_FOR = 3.0
"""Seconds after a sleep before a node believes its peers' heads again (several heartbeats):
until then it counts as behind, and what it makes is no evidence that it acted in time."""


class _Play:
    """The node's session and files: everything here runs in the node's worker thread (the
    values `safety_code`, `accepted`, `hands` and `dirty` are read from the loop)."""

    def __init__(self, node: Node, keys: NodeKeys, rng: Rng) -> None:
        self.node = node
        self.keys = keys
        self.rng = rng
        self.safety_code = ""
        self.hands = 0
        self.sequencer = -1
        self.between = False
        """No hand is running (the session's `between_hands` after the last call)."""
        self.policy = SeatPolicy(hands=node.seating.roster.hands)
        """What this seat does of its own accord: deal, end the game, leave, sit in."""
        clock = node.seating.roster.table_config.action_clock
        self.grace = min(node.result_grace, clock / 2)
        """How long the person's screen holds a hand's result without a key (SPEC 8.9: at
        most half the action clock, so that the others' clocks never run out on it)."""
        self._reading_since: dict[int, float] = {}
        """hand -> when this seat began to hold its head signature of it (SPEC 8.9)."""
        self.departed: deque[tuple[int, int]] = deque()
        """(seat, seq) of each `leave` the transcript took, for the loop to let it go."""
        self.dirty = True
        self._session: Session | None = None
        self.files: GameFiles | None = None
        """The game's transcript, log of signed entries and hand secrets (once open)."""
        self._decider: Decider | None = None
        self._looked_head: int | None = None
        self._polled = False
        self.caught_up = True
        """False from a resume or a sleep until the node holds as much of the chain as its
        peers said they held (SPEC 7.9)."""
        self.woke = False
        """The process did not run for a while (`ASLEEP_AFTER`): its session is told so."""
        self.woke_at = -WOKE_FOR
        self.restored: tuple[Entry, ...] = ()
        """The transcript a resumed node started from (empty for a new game)."""
        self.accepted = False
        """The restored chain holds this seat's acceptance: its player confirmed the code."""
        self.table: dict[int, tuple[str, str]] = {}
        """The seats the chain holds now: seat -> (name, identity key hex)."""
        self.ended = False
        """A `game_end` is in the chain."""
        self.watching = node.seating.late
        """A newcomer whose `join` is not in its chain yet (SPEC 8.9)."""
        self.peer_head = -1
        """The highest head a peer reported (set from the loop before each step)."""
        self.urgent: frozenset[int] | None = None
        """The seats the entries this seat sequenced last must reach at once (None: every
        seat), worked out as the chain moves (`Session.seats_owing`)."""
        self._join_asked: int | None = None
        self._join_sig: bytes | None = None
        """The signature of the `join` on its way (until sequenced or refused)."""
        self._join_tries: tuple[int, int] = (-1, 0)
        """(hand, joins written again after a refusal while no hand ran after it)."""
        self.join_refused: tuple[bytes, str] | None = None
        """The last refusal of this seat's join (its signature and why), for the loop to say."""
        self.join_sent: int | None = None
        """The hand after which this newcomer last wrote its `join`."""
        self._code_of: tuple[bytes | None, Mapping[int, bytes], str] | None = None
        """The game and seats `safety_code` was last worked out for here, and the code."""
        self.admission: Admission | None = None
        """The newcomer's admission open in the chain now (SPEC 6.6), read from the loop."""
        self.admissions_closed: deque[tuple[Admission, tuple[int, str] | None]] = deque()
        """Each admission that closed since the loop last looked, with the seat that refused
        it and why (None: admitted, or its newcomer left)."""

    @property
    def ready(self) -> bool:
        """The session is open."""
        return self._session is not None

    @property
    def session(self) -> Session:
        assert self._session is not None, "open() first"
        return self._session

    def open(self) -> None:
        if self.node.resume:
            self._resume()
            return
        node = self.node
        seating, store = node.seating, node.store
        game = seating.genesis.game
        try:
            # a player coming back (SPEC 8.9): its file may hold the game up to its leave
            files = GameFiles.new_seat(
                store, game, returning_to=seating.genesis if seating.late else None
            )
        except KeepError as exc:
            raise NodeError(str(exc)) from None
        except StoreWriteError as exc:
            raise StoreUnwritable(str(exc)) from None
        except (StoreError, OSError) as exc:
            raise NodeError(f"cannot keep this game's files: {exc}") from None
        self.files = files
        try:
            store.save_table(game, seating.encode())
            if seating.late:
                session = self._watch(seating.genesis)
            else:
                session = Session(self.keys.identity, seating.seat, seating.genesis, self.rng)
        except StoreWriteError as exc:
            self.close()
            raise StoreUnwritable(str(exc)) from None
        except (StoreError, OSError) as exc:
            self.close()
            raise NodeError(f"cannot keep this game's files: {exc}") from None
        except (RemoteProtocolError, LocalProtocolError) as exc:
            self.close()
            raise NodeError(f"cannot take this seat: {exc}") from None
        self._session = session
        session.hold_results(self.grace > 0)
        self.safety_code = session.ledger.safety_code()
        if node.bot is not None:
            self._decider = node.bot.decider(seating.seat)
        if seating.genesis.author == seating.seat:
            self._log_signed(seating.genesis.authored())  # the host signed the genesis
        self._keep(Output())

    def _watch(self, genesis: Entry) -> Session:
        """A newcomer's session (SPEC 8.9): its seat's, if the genesis leaves that seat free;
        else an observer's, every entry checked, until the seat is free in the chain."""
        seat = self.node.seat
        body = genesis.body
        if isinstance(body, k.Genesis) and seat in body.identity_keys():
            return Session(None, None, genesis)
        return Session.restore(
            self.keys.identity, seat, [genesis], self.rng, signed=self._files.logged
        )

    def _take_seat(self) -> None:
        """A newcomer's observer session hands over to its seat's once that seat is free in
        the chain: the same entries replayed and checked (`Session.restore`), sending nothing."""
        s = self.session
        seat = self.node.seat
        if s.seat is not None or seat in s.ledger.identities:
            return
        try:
            self._session = Session.restore(
                self.keys.identity, seat, s.ledger.entries, self.rng, signed=self._files.logged
            )
        except (RemoteProtocolError, LocalProtocolError) as exc:
            raise NodeError(f"cannot take seat {seat}: {exc}") from None
        self.session.hold_results(self.grace > 0)
        self._files.reset()  # another session: kept in full at its first call
        self.dirty = True

    def _join_step(self, s: Session) -> _StepResult | None:
        """A newcomer's own step until its `join` is in the chain: between hands, once it
        holds every entry its peers report, it writes the join (SPEC 8.9); None once it is
        seated (the ordinary step follows)."""
        me = self.keys.identity.public_key
        if s.seat is not None and s.ledger.identities.get(s.seat) == me:
            self.watching = False
            return None
        if s.ended:
            over = "the game is over: it ended before this seat joined"
            return _StepResult(Output(), over=over) if s.complete else _StepResult(Output())
        # (no head reported yet: what the newcomer's own asks brought is all it knows of;
        # a join written behind the chain is refused by the sequencer and written again)
        caught_up = s.ledger.head_seq >= self.peer_head
        if s.seat is None or not s.between_hands or not caught_up:
            return _StepResult(Output())
        if s.admission is not None:
            return _StepResult(Output())  # another newcomer's admission first (SPEC 6.6)
        if self._join_asked == s.hand_number:
            return _StepResult(Output())
        self._join_asked = s.hand_number
        try:
            out = self._call(lambda: s.join(self.node.seating.me.name))
        except IllegalAction as exc:
            log.warning("seat %s cannot join yet: %s", s.seat, exc)
            return _StepResult(Output(), (f"cannot join the table yet: {exc}",))
        self.join_sent = s.hand_number
        for item in out.send:
            if isinstance(item, AuthoredEntry) and item.kind == k.Join.KIND:
                self._join_sig = item.sig
        return _StepResult(out)

    def _resume(self) -> None:
        """Take the seat again after a crash (SPEC 8.10): the session rebuilt from the
        transcript, the hand secrets and the counters signed here, every entry checked. Nothing
        on disk changes if it cannot be (a torn last line aside, cut when the file is opened)."""
        node = self.node
        seating, store = node.seating, node.store
        game = seating.genesis.game
        try:
            files = GameFiles.reopen(store, game)
        except KeepError as exc:
            raise NodeError(str(exc)) from None
        except StoreWriteError as exc:
            raise StoreUnwritable(str(exc)) from None
        except (StoreError, OSError, DecodeError) as exc:
            raise NodeError(f"cannot resume from this store: {exc}") from None
        self.files = files
        try:
            self._session = self._restored(files)
            self.session.hold_results(self.grace > 0)
        except NodeError:
            self.close()
            self.files = None
            raise
        transcript = files.transcript
        self.restored = tuple(transcript.entries)
        self.caught_up = False
        self.accepted = self.session.seat in self.session.ledger.seated
        self.safety_code = self.session.ledger.safety_code()
        if node.bot is not None:
            self._decider = node.bot.decider(seating.seat)
        self._keep(Output())

    def _restored(self, files: GameFiles) -> Session:
        seating = self.node.seating
        transcript = files.transcript
        entries = transcript.entries
        me = self.keys.identity.public_key.hex()
        if seating.late and not any(
            isinstance(e.body, k.Join) and e.body.identity_key == me for e in entries
        ):
            # a newcomer stopped before its join came (SPEC 8.9, 8.10): it holds no seat yet
            raise NodeError(
                f"{transcript.path}: this seat's join never came into the chain, so there "
                "is no seat to resume: join the table again with its join code"
            )
        if not entries or entries[0] != seating.genesis:
            raise NodeError(f"{transcript.path} does not start with this table's genesis")
        try:
            session = Session.restore(
                self.keys.identity,
                seating.seat,
                entries,
                self.rng,
                secrets=files.secrets,
                signed=files.logged,
            )
        except RemoteProtocolError as exc:
            raise NodeError(self._not_restored(files, exc)) from None
        except LocalProtocolError as exc:
            raise NodeError(f"cannot take seat {seating.seat} again: {exc}") from None
        if session.complete:
            self._erase_secrets(files, seating.genesis.game)
            raise NodeError(f"{transcript.path} is a finished game: there is nothing to resume")
        if seating.seat not in session.ledger.identities:
            # its `leave` is in the chain (SPEC 8.9): the game goes on, but not for this seat
            raise NodeError(
                f"{transcript.path}: this seat left the game; there is nothing to resume"
            )
        r = session.state.hand
        mid_hand = r is not None and not session.between_hands
        if mid_hand and r is not None and seating.seat in r.keys and r.secret is None:
            # its hand key is in the chain: without x its cards cannot be opened (SPEC 7.7)
            raise NodeError(self._no_secret(files, r.number))
        return session

    def _erase_secrets(self, files: GameFiles, game: bytes) -> None:
        """A finished game keeps no secret (SPEC 8.9): one left by an older willow goes now."""
        try:
            files.store.erase_secrets(game)
        except StoreWriteError as exc:
            raise StoreUnwritable(str(exc)) from None

    def _later_signed(self, files: GameFiles) -> AuthoredEntry | None:
        """An entry in the log of signed entries made at a head the transcript does not hold:
        the transcript lost lines this seat once held (more than a crash's last call)."""
        held = {e.hash for e in files.transcript.entries}
        later = [a for a in files.signed.entries if a.kind != k.Genesis.KIND and a.seen not in held]
        return later[-1] if later else None

    def _no_secret(self, files: GameFiles, hand: int) -> str:
        """Why the secret of `hand` is missing: the transcript cut back (its hand ended and was
        signed, so the secret was erased), or the secret's file removed."""
        transcript = files.transcript
        later = self._later_signed(files)
        last = transcript.last
        if later is not None and last is not None:
            return (
                f"{transcript.path} was cut: it ends at entry {last.seq} in hand {last.hand}, but "
                f"{files.signed.path} holds entries this seat signed after it (up to hand "
                f"{later.hand}); put the whole transcript back (its secret of hand {hand} was "
                "erased once the hand was over)"
            )
        path = files.store.game_dir(transcript.entry(0).game) / "secrets"
        return f"the secret of hand {hand} is not in the store (removed from {path})"

    def _not_restored(self, files: GameFiles, exc: RemoteProtocolError) -> str:
        """Why the transcript did not restore: an entry in this seat's name that the log of
        signed entries does not hold as it is (a damaged log, SPEC 7.7), else the entry that
        does not verify."""
        transcript, seat = files.transcript, self.node.seating.seat
        entries = transcript.entries
        if exc.seq is not None and 0 <= exc.seq < len(entries):
            entry = entries[exc.seq]
            me = self.keys.identity.public_key
            if (
                entry.author == seat
                and files.logged.get(entry.counter) != entry.sig
                and entry.verify_author(me)
            ):
                held = "another entry" if entry.counter in files.logged else "no entry"
                return (
                    f"{files.signed.path} is damaged: it holds {held} for counter "
                    f"{entry.counter}, which this seat signed as entry {entry.seq} of "
                    f"{transcript.path}; it is kept as it is"
                )
        return f"{transcript.path} does not verify: {exc}"

    def read_entries(self, start: int, stop: int) -> list[Entry]:
        """Entries of the transcript, for the replication (a peer's catch-up or resend): none
        if the store cannot read them now (that peer is served later, or by another)."""
        files = self.files
        if files is None:
            return []
        try:
            return files.transcript.read(start, stop)
        except (StoreError, IndexError):  # (cut back by the session's thread meanwhile)
            return []

    @property
    def _files(self) -> GameFiles:
        assert self.files is not None, "open() first"
        return self.files

    def _log_signed(self, authored: AuthoredEntry) -> None:
        """Keep an entry this seat signed in its log, before it is sent (SPEC 7.7)."""
        try:
            self._files.log_signed(authored)
        except KeepError as exc:
            raise NodeError(str(exc)) from None

    def close(self) -> None:
        if self.files is not None:
            self.files.close()

    def view(self, links: Mapping[int, Link]) -> TableView:
        self.dirty = False
        # the session's clock runs on the loop's time.monotonic (`step`): the view counts
        # down from the same clock
        view = table_view(self.session, links, time.monotonic())
        if self.watching:
            # a newcomer holds no seat until its join is in the chain (SPEC 8.9): it says so
            stage = f"watching: you take seat {self.node.seat} from the next hand"
            view = dataclasses.replace(view, stage=stage)
        return view

    # --- one Session call, and the store kept in step ----------------------------------------

    def _call(self, make: Callable[[], Output]) -> Output:
        out = make()
        self._keep(out)
        return out

    def _keep(self, out: Output) -> None:
        """Before anything `out` holds is sent: the store in step with the session
        (`GameFiles.keep`: the hand's secret, the log of signed entries, the transcript), then
        what the node reads of the session, and of the chain if it moved."""
        s = self.session
        try:
            kept = self._files.keep(s, out)
        except KeepError as exc:
            raise NodeError(str(exc)) from None
        except StoreWriteError as exc:
            # nothing that depended on this write goes out: the node stops here (SPEC 8.10)
            raise StoreUnwritable(str(exc)) from None
        if kept.leaves:
            self.departed.extend(kept.leaves)
        self._follow_session(s)
        if kept.moved:
            self._follow_chain(s)
            self.urgent = s.seats_owing() if s.seat == s.sequencer else None
        self.dirty = True

    def _follow_session(self, s: Session) -> None:
        """What the node reads of the session after each call (cheap, so always)."""
        self.hands = s.hand_number
        self.sequencer = s.sequencer
        self.between = s.between_hands
        self.ended = s.ended

    def _follow_chain(self, s: Session) -> None:
        """What the node reads of the chain, after it moved."""
        ledger = s.ledger
        # a new dict each time the chain moves, never one changed in place
        self.table = {p.seat: (p.name, p.player_id) for p in s.game.players}
        if (
            self.watching
            and s.seat is not None
            and ledger.identities.get(s.seat) == self.keys.identity.public_key
        ):
            self.watching = False  # its join is in the chain: a seat like any other
        admission = ledger.admission
        was = self.admission
        if was is not None and (admission is None or admission.join != was.join):
            self.admissions_closed.append((was, ledger.refusal_of(was.join)))
        self.admission = admission
        # the code is the game's and the seats' (SPEC 6.7): worked out again when they change
        seats, known = ledger.identities, self._code_of
        if known is None or known != (ledger.game, seats, self.safety_code):
            self.safety_code = ledger.safety_code()
            self._code_of = (ledger.game, seats, self.safety_code)

    # --- what the driver hands over ----------------------------------------------------------

    def entry(self, entry: Entry) -> Output:
        self._tell_woke()
        out = self._call(lambda: self.session.receive(entry))
        if self.watching:
            self._take_seat()
        return out

    def _tell_woke(self) -> None:
        """A process that slept tells its session so before it takes what came meanwhile:
        it was away for that hand and is behind until it has caught up (SPEC 7.9)."""
        if self.woke:
            self.woke = False
            self.caught_up = False
            self.woke_at = time.monotonic()
            self.session.asleep()

    def holds(self, entry: Entry) -> bool:
        """Whether the session's chain holds `entry` at its place."""
        ledger = self.session.ledger
        return entry.seq <= ledger.head_seq and ledger.hash_of(entry.seq) == entry.hash

    def take_authored(self, entry: AuthoredEntry) -> Output:
        """An authored entry from a peer: the sequencer's session sequences it, every other
        session keeps it as a witness (SPEC 7.1, 7.5); an observer keeps nothing."""
        if self.session.seat is None:
            return Output()
        return self._call(lambda: self.session.receive(entry))

    def vote(self, vote: Vote) -> Output:
        """A peer's witness vote (SPEC 7.5)."""
        if self.session.seat is None:
            return Output()
        return self._call(lambda: self.session.receive(vote))

    def refusal(self, refusal: Refusal) -> Output:
        if self.session.seat is None:
            return Output()
        if self.watching:
            self._join_refusal(refusal)
        return self._call(lambda: self.session.receive(refusal))

    def _join_refusal(self, refusal: Refusal) -> None:
        """The sequencer refused this newcomer's `join` (SPEC 8.9): a hand started first, or
        the state moved. The refusal counts only if it is of the join on its way and signed by
        the sequencer it names, a seated player. The join is written again: at once if no hand
        runs still (JOIN_TRIES times at most), else once the hand has ended; the loop says so."""
        s = self.session
        if (
            refusal.kind != k.Join.KIND
            or refusal.author != s.seat
            or refusal.sig != self._join_sig
            or refusal.game != s.game_id
        ):
            return
        key = s.ledger.identities.get(refusal.sequencer)
        if key is None or not refusal.verify(key):
            return
        self._join_sig = None
        self.join_refused = refusal.sig, refusal.detail
        hand, tries = self._join_tries
        if hand != s.hand_number:
            hand, tries = s.hand_number, 0
        if s.between_hands and self._join_asked == s.hand_number and tries < JOIN_TRIES:
            self._join_asked = None  # still between the same hands: written again at once
            tries += 1
        self._join_tries = hand, tries

    def step(
        self,
        now: float,
        decisions: tuple[Decision, ...],
        go_on: bool,
        moves: tuple[ClockMove, ...] = (),
    ) -> _StepResult:
        """The node's own step: the seat acceptance (once confirmed), the person's moves about
        the clock (SPEC 3.14), the clock, what the seat's policy says it does now
        (`seat.SeatPolicy`: the game's end, leaving, sitting in, the next hand), the person's
        decisions or the bot's (a bot waits while the table is paused). `go_on`: the person
        has seen the last hand's result (a key, SPEC 8.9)."""
        s = self.session
        if self.watching:
            waiting = self._join_step(s)
            if waiting is not None:
                return waiting
        out = Output()
        if not self._polled:
            self._polled = True
            out += self._call(s.poll)
        notices: list[str] = []
        for asked in moves:
            try:
                out += self._call(functools.partial(clock_call, s, asked))
            except IllegalAction as exc:
                notices.append(str(exc))
        self._tell_woke()
        out += self._call(lambda: s.handle_timer(now))
        # (after a sleep, only once the peers have had time to say their heads again: what they
        # said before it is stale)
        if s.ledger.head_seq >= self.peer_head and time.monotonic() >= self.woke_at + WOKE_FOR:
            self.caught_up = True
        # back from a crash or from sleep, what this seat makes before it has caught up with the
        # table is no evidence that it was in time (SPEC 7.9); a peer's word about its head is
        # not trusted for more: a faulty one could say it is ahead to make a victim's steps
        # count for nothing, but it cannot make this process sleep or crash
        s.behind(not self.caught_up)
        node = self.node
        read = go_on
        if s.reading:
            # SPEC 8.9: the screen holds the result until a key, or for the grace
            since = self._reading_since.setdefault(s.hand_number, now)
            read = go_on or now - since >= self.grace
            if read:
                out += self._call(s.result_seen)
        wishes = Wishes(
            deal=True,
            end=node.end_wanted,
            leave=node.leave_wanted,
            sit_in=node.sit_in_wanted,
            admit=node.admission_wish(s.admission),
            newcomer_coming=node.newcomer_coming,
            newcomer_behind=node.newcomer_behind,
        )
        dealt = False
        while (move := self.policy.next(s, wishes, now)) is not None:
            if move.do is Do.STOP:
                if move.refused:
                    return _StepResult(out, refused=move.reason, own_refusal=move.left)
                if move.left:
                    return _StepResult(out, tuple(notices), left=move.reason, read=read)
                away = away_at_end(s)
                return _StepResult(out, tuple(notices), over=move.reason, away=away, read=read)
            if move.do is Do.WAIT:
                return _StepResult(out, tuple(notices), read=read)
            if move.do is Do.END_GAME:
                with contextlib.suppress(IllegalAction):
                    out += self._call(s.end_game)
            elif move.do is Do.LEAVE:
                try:
                    out += self._call(s.leave)
                except IllegalAction as exc:
                    said = (*notices, f"you cannot leave now: {exc}")
                    return _StepResult(out, said, stay=True, read=read)
                return _StepResult(out, tuple(notices), read=read)
            elif move.do is Do.SIT_IN:
                with contextlib.suppress(IllegalAction):
                    out += self._call(s.sit_in)
            elif move.do is Do.ADMIT or move.do is Do.REFUSE:
                answer = (
                    s.admit if move.do is Do.ADMIT else functools.partial(s.refuse, move.reason)
                )
                try:
                    out += self._call(answer)
                except IllegalAction:
                    return _StepResult(out)  # the state moved: the policy looks again next step
            else:
                out += self._call(s.start_hand)
                dealt = True
        for decision in decisions:
            error = s.decision_error(decision)
            if error is not None:
                notices.append(error)
                continue
            try:
                out += self._call(functools.partial(s.act, decision))
            except (IllegalAction, RulesError) as exc:
                notices.append(str(exc))
        look_again = False
        if self._decider is not None and s.may_decide() and not s.clock_stopped:
            made, look_again = self._bot(s)
            out += made
        # the wish to sit in lasts until the seat plays again: a sit_in the sequencer refused (a
        # next hand's start came first) is written again after that hand (SPEC 8.9)
        plays = any(p.seat == s.seat and not p.sitting_out for p in s.game.players)
        return _StepResult(out, tuple(notices), look_again, dealt, read=read, plays=plays)

    def _bot(self, s: Session) -> tuple[Output, bool]:
        """The bot's decision, if it makes one now; True to look again in a moment."""
        assert self._decider is not None
        try:
            decision = self._decider(s)
        except BotError as exc:
            log.warning("the bot in seat %s could not decide: %s", s.seat, exc)
            decision = None
        if decision is None:
            head = s.ledger.head_seq
            again = self._looked_head != head
            self._looked_head = head
            return Output(), again
        try:
            return self._call(functools.partial(s.act, decision)), False
        except (IllegalAction, RulesError) as exc:
            log.warning("the bot in seat %s decided what the rules refuse: %s", s.seat, exc)
            return Output(), True


__all__ = [
    "HAND_SECRET",
    "LEVELS",
    "SEAT_WITHIN",
    "BotSeat",
    "Node",
    "NodeError",
    "NotAdmitted",
    "NotSeated",
    "StoreUnwritable",
    "bot_name",
]
