"""Everything one session knows, in one place: the chain, the table, the running hand and the
local seat's own bookkeeping (SPEC 7). Pure; no I/O.

`engine.Session` owns one `SessionState`; the entry checks (`checks`), the local player's steps
(`steps`) and the schedule (`schedule`) are functions of it, so each field is declared here and
nowhere else.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from p2pwillow.ledger.chain import Ledger
from p2pwillow.ledger.entry import AuthoredEntry, Entry
from p2pwillow.ledger.signatures import Signatures
from p2pwillow.ledger.vote import Vote
from p2pwillow.rules import Game, TableConfig
from p2pwillow.session.claims import RefusedClaim
from p2pwillow.session.events import HandSummary
from p2pwillow.session.pool import Pool
from p2pwillow.session.record import HandRecord
from p2pwillow.session.schedule import Due, GameEnded, Maker, dues


@dataclass(frozen=True, slots=True)
class Sent:
    """The local seat's decision on its way to the sequencer, and the local head when it was
    made (a refusal of it names its signature and a head, SPEC 7.1)."""

    entry: AuthoredEntry
    head: int

    @property
    def sig(self) -> bytes:
        return self.entry.sig


def grace(length: float) -> float:
    """The last part of an action clock of `length` seconds in which what arrives counts as
    late (SPEC 7.9): far above the time an entry takes to reach every peer, so that honest
    peers agree on what came in time."""
    return min(1.0, length / 4)


@dataclass(slots=True)
class Clock:
    """A player's action clock and the votes it holds at one head (SPEC 7.5).

    The clock measures a *stretch*: the time since the last entry that restarts it, pauses not
    counted. Every entry restarts it but those about the clock itself (`CLOCK_KINDS`: a draw
    on the time bank, a pause, a resume, a ruling), across which the stretch runs on; votes
    belong to one head and start afresh at each."""

    head: bytes = b""
    """The head the votes are about; they start afresh whenever the head changes."""
    periods: int = 0
    """Whole action clocks of the stretch this player has voted for at this head."""
    votes: dict[int, Vote] = field(default_factory=dict)
    """The votes held at this head, by voter (its widest)."""
    elapsed: float = 0.0
    """Seconds the clock has run in this stretch, pauses not counted."""
    voted_at: float = 0.0
    """`elapsed` when this player last looked for whom to accuse at this head."""
    last: float | None = None
    """The `now` of the last timer."""
    pause_seq: int = -1
    """The pause (the seq of its entry) this clock saw start, at `pause_since`."""
    pause_since: float = 0.0
    pause_over: int = -1
    """The pause (by seq) that ran out here by itself: the clock runs again."""
    now: float = 0.0
    """The last time the clock was read: when what arrives since arrived, near enough."""
    voted: dict[bytes, frozenset[int]] = field(default_factory=dict)
    """Head -> the seats this player's own votes accused there, for every head of the hand
    where its clock ran out: what it would sign, asked again when a remedy at that head
    arrives (SPEC 7.9)."""
    voted_hand: int = -1
    """The hand `voted` is about."""
    moved: float = 0.0
    """`now` when the head last moved (as near as the clock was read then)."""
    slept: int = -1
    """A hand in which this player's clock ran out while it did not vote: it was asleep."""
    behind: bool = False
    """The player's node knows it has not caught up with the table (SPEC 7.9)."""
    unvouched: bytes = b""
    """A head this player came back to after a crash (SPEC 7.7): what it made there before
    the crash may not have been in time, so it is no evidence against a remedy (SPEC 7.9)."""

    def keep_local(self, old: Clock) -> None:
        """Take from `old` what this node saw itself and no transcript says, when its chain is
        cut back (SPEC 6.8): what it voted, when it read the clock and saw the head move, that
        it slept, that it is behind, and the head it came back to after a crash. The rest is
        the rewound head's and stays as replayed."""
        self.now, self.moved = old.now, old.moved
        self.voted, self.voted_hand = old.voted, old.voted_hand
        self.slept, self.behind, self.unvouched = old.slept, old.behind, old.unvouched

    def at(self, head: bytes, *, carry: bool = False) -> bool:
        """Follow the head; True if the clock was already at it. A new head restarts the
        stretch unless `carry` (the head is an entry about the clock)."""
        if head == self.head:
            return True
        self.head, self.periods, self.votes = head, 0, {}
        if not carry:
            self.elapsed = 0.0
        self.voted_at = self.elapsed
        return False

    def cut(self, period: int, length: float) -> float:
        """The time (as `now` reads it) by which an entry must have arrived to count, in the
        vote after `period` clocks of `length` seconds of this stretch, as made in time: the
        end of that clock less its grace (SPEC 7.9); pauses since the last timer not known."""
        if self.last is None:
            return math.inf
        return self.last + (period * length - grace(length) - self.elapsed)

    def ran_out(self, length: float) -> bool:
        """The first clock of this stretch and the grace after it have run out."""
        return self.elapsed >= length + grace(length)

    def run(self, now: float, pause: PauseState | None) -> None:
        """Let the clock run up to `now`, unless the table is paused (`pause`, the pause in
        the chain): a pause this clock has not seen yet starts now, and one that has lasted
        its seconds here is over."""
        last = now if self.last is None else self.last
        if pause is not None and self.pause_seq != pause.seq:
            self.pause_seq, self.pause_since = pause.seq, now
            last = now
        if pause is not None and self.pause_over != pause.seq:
            end = self.pause_since + pause.seconds
            if now < end:
                self.last = now
                self.moved = max(self.moved, now)  # a pause is not sleep (SPEC 7.9)
                return
            self.pause_over = pause.seq
            last = max(last, end)
            self.moved = max(self.moved, end)
        self.elapsed += max(0.0, now - last)
        self.last = now

    def paused(self, pause: PauseState | None) -> bool:
        """The table is paused for this clock: a pause is in the chain and has not run out."""
        return pause is not None and self.pause_over != pause.seq

    def hold(self, vote: Vote) -> bool:
        """Keep `vote` (its voter's widest at this head); True if it adds something."""
        old = self.votes.get(vote.voter)
        if old is not None and set(vote.seats) <= set(old.seats):
            return False
        if old is None or set(old.seats) <= set(vote.seats):
            self.votes[vote.voter] = vote
            return True
        return False


@dataclass(frozen=True, slots=True)
class PauseState:
    """The pause in the chain: who paused, the seq of its entry, its most seconds."""

    seat: int
    seq: int
    seconds: int


@dataclass(slots=True)
class Timekeeping:
    """What the chain says about the clock (SPEC 3.14): the arbiter, what each player drew on
    its time bank, was granted by the arbiter and paused, the pause in force, and the seconds
    each seat's clock runs longer in this stretch. Every value follows from the chain alone."""

    arbiter: bytes | None = None
    """The arbiter's identity key; None at a table without one."""
    bank_used: dict[bytes, int] = field(default_factory=dict)
    """Seconds each identity drew on its time bank in this game."""
    granted: dict[bytes, int] = field(default_factory=dict)
    """Seconds the arbiter added to each identity's clock in this game."""
    pauses_used: dict[bytes, int] = field(default_factory=dict)
    """Pauses each identity made in this game."""
    paused: PauseState | None = None
    """The pause in force: none, or until a `resume` (or, on each clock, its seconds)."""
    extra: dict[int, int] = field(default_factory=dict)
    """Seconds each seat's clock runs longer in this stretch (its draws, the arbiter's)."""
    carries: bool = False
    """The head is an entry about the clock: the stretch runs on across it."""
    end_ruled: int | None = None
    """The seq of the arbiter's `ruling_end`, once it is in the chain."""


@dataclass(slots=True)
class SessionState:
    """One peer's view of a game. `seat` is None for an observer (the verifier)."""

    seat: int | None
    ledger: Ledger
    config: TableConfig
    game: Game
    hand: HandRecord | None = None
    """The current (or last) hand; None before the first."""
    summaries: list[HandSummary] = field(default_factory=list)
    """One summary per hand that has ended, in order."""
    ended: GameEnded | None = None
    """The game's end, once a `game_end` is in the chain (SPEC 7.3)."""
    pending: set[Due] = field(default_factory=set)
    """The automatic steps this seat has sent to the sequencer, so that none is sent twice while
    it is on its way; cleared when a hand starts."""
    decision_pending: bool = False
    """The local seat's last decision went to the sequencer and is neither applied nor refused."""
    decision_sent: Sent | None = None
    start_sent: Sent | None = None
    """The local seat's `hand_start` on its way to the sequencer (SPEC 7.3): none is made again
    until it is applied, refused, or no longer passes at the head."""
    answer_sent: Sent | None = None
    """The local seat's `admit` or `refuse` of a newcomer on its way to the sequencer (SPEC
    6.6): none is made again until it is applied, refused, or can no longer be placed (a
    sequencer change of this seat's holds a higher counter); then the player's answer is
    written again."""
    holds_results: bool = False
    """A person's seat: its head signature of a hand it played waits until its player has seen
    how the hand ended (SPEC 8.9, `Session.result_seen`); a bot's is sent at once."""
    results_seen: int = 0
    """The last hand whose result the player has seen (with `holds_results`)."""
    clock: Clock = field(default_factory=Clock)
    """The local player's action clock and the votes it holds at the head (SPEC 7.5)."""
    timekeeping: Timekeeping = field(default_factory=Timekeeping)
    """What the chain says about the clock: banks, pauses, the arbiter's rulings (SPEC 3.14)."""
    pool: Pool = field(default_factory=Pool)
    """Authored entries of other seats, not sequenced yet (SPEC 7.1)."""
    forwarded: set[bytes] = field(default_factory=set)
    """Hashes of conflicting entries this peer passed on (each once, SPEC 6.8)."""
    held_claim: Entry | None = None
    """A remedy for the place after the head, held until this player's own clock has run
    there long enough to say whether it agrees (SPEC 7.9)."""
    refused: dict[bytes, RefusedClaim] = field(default_factory=dict)
    """The remedies of this hand this player refused, by the claim's hash (SPEC 7.9)."""
    signed: Signatures = field(default_factory=Signatures)
    """counter -> author signature of every entry this identity signed in this game (SPEC 6.4,
    7.1): an entry in its name that is not one of these is refused. The live node keeps it."""

    @property
    def game_id(self) -> bytes:
        game = self.ledger.game
        assert game is not None
        return game

    @property
    def seated(self) -> bool:
        """Seating is over: a hand has started, or every seat at the table has accepted it (a
        genesis player that left needs not)."""
        ledger = self.ledger
        return ledger.hand > 0 or ledger.seated >= set(ledger.identities)

    @property
    def complete(self) -> bool:
        """The game has ended and every seated player signed its end or was excused."""
        return self.ended is not None and self.ended.closed

    def dues(self, maker: Maker | None = None) -> tuple[Due, ...]:
        """Every step owed now (of `maker`, if given), by the schedule (SPEC 7.4). Once the
        arbiter has ended the game no next hand is owed (SPEC 3.14)."""
        game = None if self.timekeeping.end_ruled is not None else self.game
        return dues(self.ledger, self.hand, maker, game, self.ended)

    @property
    def between_hands(self) -> bool:
        """No hand is running: the last one ended and all its players signed its head."""
        r = self.hand
        return self.seated and (r is None or r.closed)

    checked: bool = False
    """The entries being applied were checked in full by this peer before (a rewind): their
    proofs are not checked again."""
    check_own: bool = False
    """Check the proofs of the local seat's own entries too (a session restored from disk)."""

    def verifies(self, author: int) -> bool:
        """Whether to check the proofs of an entry by `author`: always, except in the local
        seat's own entries (SPEC 7.1) and in entries this peer checked before."""
        if self.checked:
            return False
        return self.seat is None or self.check_own or author != self.seat
