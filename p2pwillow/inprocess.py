"""An in-process `Client`: one person's seat at a `Table` of bots, all in this process.

A test and development driver for the terminal client, not the product's `willow play`:
every seat is a full session (real keys, shuffles, proofs, signatures) but the peers are
wired by the table's in-memory queue, not by the network, and the person's seat has no
action clock. Does I/O: it writes the transcript, and runs the table in a worker thread
(bots' decisions, every session's proofs) so that the asyncio loop never waits for them.
"""

# How the driver runs
# -------------------
# One worker thread owns the `Table` and every session in it; nothing else touches them.
# The loop thread talks to it through a command queue (decide, confirm the seat, next
# hand, close) and reads only what the worker publishes: a frozen `TableView`, `busy` and
# a `Notice`, each publication bumping the version that `changed()` waits on.
#
# The worker plays the table one step at a time: what the person's seat does of its own
# accord, as a live node's seat does (`p2pwillow.seat`: leave, end the game, sit in, start
# the next hand when the person asks for it, whoever deals it); else one round of
# decisions (the person's seat decides with the decision the person sent, if any); else,
# when the hand waits for nobody but the clock, a tick of the table's virtual clock. When
# the hand waits for the person, the worker waits for a command.
#
# Seating (SPEC 6.7): the sessions are made together, so the person's session signs its
# seat acceptance at once; the table holds everything that seat sends until the person has
# compared the safety code and confirmed it, and drops it all if they did not.

from __future__ import annotations

import asyncio
import enum
import os
import queue
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from p2pwillow.bots import DEFAULT_LEVEL, Level
from p2pwillow.client import Notice, Shown
from p2pwillow.crypto.group import Rng
from p2pwillow.ledger.entry import Entry
from p2pwillow.rules import Decision, IllegalAction, RulesError, TableConfig
from p2pwillow.seat import ClockMove, Do, SeatPolicy, Wishes, clock_call
from p2pwillow.session import Output, Session
from p2pwillow.table import Decider, Table, TableError
from p2pwillow.view import Link, TableView, table_view

__all__ = ["InProcessClient"]


class _Step(enum.Enum):
    """What the worker waits for after a step."""

    DONE = "done"
    """The table moved on: go on at once (after `pace`)."""
    WAIT = "wait"
    """The hand waits for the person (or for nothing): wait for a command."""
    IDLE = "idle"
    """Only the person may still act, and need not: wait `idle` seconds, then the clock."""


class _HeldSeatTable(Table):
    """A `Table` at which one seat sends nothing until `release()` (its person has not yet
    confirmed the safety code)."""

    def __init__(
        self,
        players: int,
        *,
        held: int,
        config: TableConfig,
        seed: int,
        rng: Rng,
        deciders: Mapping[int, Decider],
        samples: int,
        level: Level,
        name: str,
        on_entry: object,
    ) -> None:
        self._held_seat = held
        self._held: list[Output] | None = []
        assert callable(on_entry)
        super().__init__(
            players,
            config=config,
            seed=seed,
            rng=rng,
            deciders=deciders,
            samples=samples,
            level=level,
            name=name,
            on_entry=on_entry,
        )

    def _route(self, source: int, out: Output) -> None:
        if self._held is not None and source == self._held_seat:
            self._held.append(out)
            return
        super()._route(source, out)

    def release(self) -> None:
        """Send what the held seat made, in order, and let it send from now on."""
        held, self._held = self._held or [], None
        for out in held:
            super()._route(self._held_seat, out)
        self.run()


@dataclass(frozen=True, slots=True)
class _Decide:
    decision: Decision


@dataclass(frozen=True, slots=True)
class _Seat:
    same: bool


@dataclass(frozen=True, slots=True)
class _NextHand:
    pass


@dataclass(frozen=True, slots=True)
class _EndGame:
    pass


@dataclass(frozen=True, slots=True)
class _LeaveTable:
    pass


@dataclass(frozen=True, slots=True)
class _SitIn:
    pass


@dataclass(frozen=True, slots=True)
class _Close:
    pass


@dataclass(frozen=True, slots=True)
class _Clock:
    move: ClockMove


_Command = _Decide | _Seat | _NextHand | _EndGame | _LeaveTable | _SitIn | _Clock | _Close


class InProcessClient:
    """The person at `seat` of an in-process table of `bots + 1` seats; the other seats are
    bots. The transcript is written to `transcript` (which must not exist yet).

    `seed` fixes the bots' choices, `rng` is every session's randomness (pass a seeded one
    for a reproducible game), `samples` the bots' Monte Carlo deals per betting decision,
    `level` how well the bots play (SPEC 9, Levels), `pace` how many seconds the worker lets
    pass after each round of bot decisions so that a person can follow them (0 in tests),
    `idle` how long the others wait when only the person may still act and need not (an
    offer in free trading) before their clock runs. `hands` ends the game after that many
    hands (0: no limit), as `willow host --hands` does.

    Raises FileExistsError if `transcript` exists, ValueError for an impossible table.
    """

    def __init__(
        self,
        transcript: Path,
        *,
        bots: int = 3,
        seat: int = 0,
        config: TableConfig | None = None,
        seed: int = 0,
        rng: Rng = os.urandom,
        samples: int = 300,
        level: Level = DEFAULT_LEVEL,
        name: str = "in-process table",
        pace: float = 0.0,
        idle: float = 15.0,
        hands: int = 0,
    ) -> None:
        players = bots + 1
        if not 1 <= bots <= 9 or not 0 <= seat < players:
            raise ValueError(f"a table has 1 to 9 bots and the person in seat 0..{bots}")
        if hands < 0:
            raise ValueError(f"a hand limit is 0 (none) or more, not {hands}")
        self._config = config if config is not None else TableConfig(seats=players)
        self._players = players
        self._seat = seat
        self._seed = seed
        self._rng = rng
        self._samples = samples
        self._level = level
        self._name = name
        self._pace = pace
        self._idle = idle
        self._path = transcript
        # "x": never truncate an existing file, a finished game may be in it.
        self._file: BinaryIO = open(transcript, "xb")  # noqa: SIM115 - closed by the worker
        self._links = {s: Link.LOCAL for s in range(players) if s != seat}
        self._commands: queue.Queue[_Command] = queue.Queue()
        self._lock = threading.Lock()
        self._shown = Shown(busy=True)
        self._confirmed = False
        self._ended: str | None = None
        # Worker state (touched by the worker thread only):
        self._table: _HeldSeatTable | None = None
        self._decision: Decision | None = None
        self._want_hand = False
        self._end_wanted = False
        self._leave_wanted = False
        self._sit_in_wanted = False
        self._left = False
        # The person's seat's own policy, the live node's (`p2pwillow.seat`): one process
        # drives every seat, so nothing another seat writes can cross this one's and no grace
        # is waited; the person paces the table, starting every hand whoever deals it.
        self._policy = SeatPolicy(hands=hands, deal_grace=0.0, end_grace=0.0, paces=True)
        self._refusals_seen = 0
        self._stale_seen = 0
        self._stopped = False
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._work, name="willow table", daemon=True)
        self.failure: Exception | None = None
        """What stopped the worker, if anything did (the notice says it in words)."""
        self._thread.start()
        self._ready.wait()
        if self._table is None:
            transcript.unlink()
            raise ValueError(f"the table could not be set up: {self.failure}")

    # --- the Client protocol (called from the loop thread) -----------------------------------

    def view(self) -> TableView:
        view = self._shown.view
        assert view is not None
        return view

    async def changed(self, seen: int) -> int:
        return await self._shown.changed(seen)

    def decide(self, decision: Decision) -> None:
        self._commands.put(_Decide(decision))

    @property
    def seat_confirmed(self) -> bool:
        with self._lock:
            return self._confirmed

    def confirm_seat(self, same: bool) -> None:
        self._commands.put(_Seat(same))

    def next_hand(self) -> None:
        self._commands.put(_NextHand())

    def end_game(self) -> None:
        self._commands.put(_EndGame())

    def leave_table(self) -> None:
        self._commands.put(_LeaveTable())

    def sit_in(self) -> None:
        self._commands.put(_SitIn())

    def clock_move(self, move: ClockMove) -> None:
        self._commands.put(_Clock(move))

    @property
    def ended(self) -> str | None:
        with self._lock:
            return self._ended

    @property
    def links(self) -> Mapping[int, Link]:
        return dict(self._links)

    @property
    def busy(self) -> bool:
        return self._shown.busy

    @property
    def notice(self) -> Notice | None:
        return self._shown.notice

    @property
    def transcript(self) -> Path | None:
        return self._path

    async def close(self) -> None:
        self._commands.put(_Close())
        await asyncio.to_thread(self._thread.join)

    # --- publishing (worker thread) ----------------------------------------------------------

    def _publish(
        self, *, busy: bool | None = None, notice: str | None = None, view: bool = True
    ) -> None:
        table = self._table
        made = None
        if view and table is not None:
            made = table_view(table.sessions[self._seat], self._links)
        self._shown.publish(view=made, busy=busy, notice=notice)

    def _on_entry(self, entry: Entry) -> None:
        self._file.write(entry.encode() + b"\n")
        self._file.flush()
        if self._table is not None:
            self._publish()

    # --- the worker ----------------------------------------------------------------------------

    @property
    def _session(self) -> Session:
        assert self._table is not None
        return self._table.sessions[self._seat]

    def _person(self, session: Session) -> Decision | None:
        """The person's seat's decider: the decision they sent, if the rules still take it."""
        d, self._decision = self._decision, None
        if d is None:
            return None
        error = session.decision_error(d)
        if error is not None:
            self._publish(notice=error)
            return None
        return d

    def _work(self) -> None:
        try:
            self._table = _HeldSeatTable(
                self._players,
                held=self._seat,
                config=self._config,
                seed=self._seed,
                rng=self._rng,
                deciders={self._seat: self._person},
                samples=self._samples,
                level=self._level,
                name=self._name,
                on_entry=self._on_entry,
            )
        except (RulesError, ValueError) as exc:
            self.failure = exc
            self._file.close()
            self._ready.set()
            return
        self._publish(busy=False)
        self._ready.set()
        try:
            self._loop()
        except Exception as exc:
            # The thread's edge: the person reads one line, a test reads `failure`.
            self.failure = exc
            self._stop(f"the table stopped: {exc}")
        finally:
            self._file.close()

    def _stop(self, why: str) -> None:
        self._stopped = True
        self._publish(busy=False, notice=why)

    def _loop(self) -> None:
        state = _Step.WAIT
        while True:
            timeout = {_Step.DONE: self._pace, _Step.WAIT: None, _Step.IDLE: self._idle}[state]
            try:
                if timeout == 0:
                    command: _Command | None = self._commands.get_nowait()
                else:
                    command = self._commands.get(timeout=timeout)
            except queue.Empty:
                command = None
            if isinstance(command, _Close):
                self._end_game()
                return
            if command is not None:
                self._take(command)
            if self._stopped:
                return
            self._publish(busy=True, view=False)
            try:
                state = self._step(tick=command is None and state is _Step.IDLE)
            finally:
                self._decision = None
                self._report_refusals()
                self._publish(busy=False)

    def _end_game(self) -> None:
        """The game is over, or the person leaves, between hands: the person's seat writes the
        game's end and every seat signs it, so that the transcript is a complete game (SPEC
        7.3). Mid-hand the transcript stays as it is: `willow verify` reports it not closed and
        says why."""
        table = self._table
        if table is None or self._stopped or not self._confirmed or self._left:
            return  # a seat that left ends nothing: it holds no seat (SPEC 7.3)
        session = self._session
        if session.ended or not session.between_hands:
            return
        try:
            table.end_game(self._seat)
        except (IllegalAction, TableError) as exc:
            self.failure = exc

    def _take(self, command: _Command) -> None:
        if isinstance(command, _Seat):
            table = self._table
            assert table is not None
            if command.same:
                with self._lock:
                    self._confirmed = True
                table.release()
            else:
                self._stop("you left the table: the safety codes did not match")
        elif isinstance(command, _NextHand):
            self._want_hand = True
        elif isinstance(command, _EndGame):
            self._end_wanted = True
        elif isinstance(command, _LeaveTable):
            self._leave_wanted = True
        elif isinstance(command, _Clock):
            # the table's clock is virtual here: a move about it is written as on a live
            # table, and the bots do not wait for it
            table = self._table
            assert table is not None
            try:
                table.move(self._seat, lambda s: clock_call(s, command.move))
            except (IllegalAction, TableError) as exc:
                self._publish(notice=str(exc))
        elif isinstance(command, _SitIn):
            self._sit_in_wanted = True
            self._publish(notice="you play again from the next hand the rules allow")
        elif isinstance(command, _Decide):
            if not self._confirmed:
                self._publish(notice="confirm the safety code first")
                return
            error = self._session.decision_error(command.decision)
            if error is not None:
                self._publish(notice=error)
            else:
                self._decision = command.decision

    def _own_move(self) -> _Step | None:
        """What the person's seat does of its own accord (`SeatPolicy`, as a live node's seat:
        leave, end the game, sit in, start the next hand), made until nothing is left; the
        step to wait for after it, or None when it is the hand's turn."""
        table = self._table
        assert table is not None
        session = self._session
        wishes = Wishes(
            deal=self._want_hand,
            end=self._end_wanted,
            leave=self._leave_wanted,
            sit_in=self._sit_in_wanted,
        )
        while (move := self._policy.next(session, wishes, table.now)) is not None:
            if move.do is Do.STOP:
                self._left = move.left
                with self._lock:
                    first = self._ended is None
                    self._ended = move.reason
                if first:
                    self._publish(notice=move.reason)
                return _Step.WAIT
            if move.do is Do.WAIT:
                return _Step.WAIT
            if move.do is Do.END_GAME:
                self._end_game()  # the game_end, signed by every seat (SPEC 7.3)
            elif move.do is Do.LEAVE:
                # (one process drives every seat: no race with a next hand, SPEC 3.11)
                try:
                    table.leave(self._seat)
                except (IllegalAction, TableError) as exc:
                    self._leave_wanted = False
                    self._publish(notice=f"you cannot leave now: {exc}")
                    return _Step.WAIT
            elif move.do is Do.SIT_IN:
                # the wish lasts until the seat's sit_in is written (after the next hand if
                # the rules refuse it now)
                try:
                    table.sit_in(self._seat)
                except (IllegalAction, TableError) as exc:
                    self._publish(notice=f"you cannot sit in now: {exc}")
                else:
                    self._sit_in_wanted = False
            else:
                self._want_hand = False
                table.start_hand()
                return _Step.DONE
        return _Step.WAIT if session.between_hands else None

    def _step(self, *, tick: bool) -> _Step:
        """One step of the table, and what to wait for before the next one."""
        table = self._table
        assert table is not None
        session = self._session
        if not self._confirmed or self._left:
            return _Step.WAIT
        own = self._own_move()
        if own is not None:
            return own
        if not tick:
            try:
                if table.decide_round():
                    return _Step.DONE
            except IllegalAction as exc:
                # The rules refused the person's decision after all (the state moved on).
                self._publish(notice=str(exc))
                return _Step.DONE
            if session.decision_due():
                return _Step.WAIT
            if session.may_decide():
                # The person may act (an offer in free trading) but need not: give them
                # `idle` seconds before the clock runs for the others.
                return _Step.IDLE
        head = session.ledger.head_seq
        table.tick(table.config.action_clock + 1)
        if session.ledger.head_seq != head:
            return _Step.DONE
        self._publish(notice="the table is stuck: nobody can act and no clock runs out")
        return _Step.WAIT

    def _report_refusals(self) -> None:
        table = self._table
        if table is None:
            return
        for refusal in table.refusals[self._refusals_seen :]:
            if refusal.author == self._seat:
                self._publish(notice=f"the dealer refused your {refusal.kind}: {refusal.detail}")
        self._refusals_seen = len(table.refusals)
        for stale in table.stale[self._stale_seen :]:
            if stale.seat == self._seat:
                self._publish(notice=f"your decision came too late: {stale.error}")
        self._stale_seen = len(table.stale)
