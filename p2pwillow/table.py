"""An in-process table: N sessions wired by a deterministic in-memory queue, bots deciding.

No sockets and no clock (a virtual one drives the dealer's timer); randomness comes in as an
`rng` (default os.urandom). Used by the tests, the benchmarks and `willow simulate`.
"""

# How the table plays
# -------------------
# The table runs in rounds. In a round every seat that may decide (`Session.may_decide`:
# a decision is due, or free trading lets it offer or withdraw, or the dealer may close) is
# asked, all against the state they see at the start of the round, as players at a real
# table think at the same moment. The decisions then reach the sequencer in an arrival order
# drawn from the seed: the first one the rules allow is applied, later ones that the new
# state no longer allows come back as refusals (SPEC 7.1) and their seats decide again in a
# later round. The sequencer's own decision takes its place in that order: what arrived
# before it is sequenced first (so its own decision may have gone stale: it is dropped and
# made again). If nobody decides, every seat has a second look (a dealer may close trading
# once it sees nobody else wants to trade); only then does the virtual clock run.

from __future__ import annotations

import os
import random
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from p2pwillow.bots import DEFAULT_LEVEL, Bot, Decision, Knowledge, Level, parse_level
from p2pwillow.cards import Card
from p2pwillow.crypto.group import Rng
from p2pwillow.games import weeping_willow as ww
from p2pwillow.ledger.entry import GAME_ID_BYTES, Entry
from p2pwillow.ledger.errors import RemoteProtocolError
from p2pwillow.ledger.identity import Identity
from p2pwillow.rules import Hand, IllegalAction, Phase, TableConfig
from p2pwillow.session import (
    EVERY_PEER,
    Outgoing,
    Output,
    Refusal,
    Session,
    make_genesis,
    timekeeping,
)

Decider = Callable[[Session], Decision | None]
"""Asked for a decision whenever its seat's session has one due; None means "do nothing"
(the player is away: the dealer's clock will run out)."""


class TableError(Exception):
    """The table cannot go on: it stalled with no clock left to run, or a session refused
    an entry from an honest peer (a bug)."""


@dataclass(frozen=True, slots=True)
class Rejection:
    """An entry a session refused while the table ran (kept for tests to inspect)."""

    seat: int
    error: RemoteProtocolError


@dataclass(frozen=True, slots=True)
class StaleDecision:
    """The sequencer's own decision, dropped because entries that reached it first made the
    rules refuse it (the sequencer decides again from the new state)."""

    seat: int
    error: IllegalAction


def _free_idle(hand: Hand) -> bool:
    """Free trading with no offer open and no trade being completed (SPEC 3.5)."""
    a = ww.setup(hand)
    return (
        hand.phase is Phase.TRADING
        and a is not None
        and a.mode is ww.TradingMode.FREE
        and ww.open_offer(hand) is None
        and ww.trade_sides(hand) is None
    )


def _unique(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(dict.fromkeys(cards))


def bot_decider(
    seat: int, rng: random.Random, *, samples: int = 300, level: Level | str = DEFAULT_LEVEL
) -> Decider:
    """A decider that asks a `Bot` of `level` for this seat, given the session's view of the
    hand (BotError names a bad level)."""
    bot = Bot(seat, rng, samples=samples, level=level)

    def decide(session: Session) -> Decision | None:
        hand = session.hand
        assert hand is not None
        held = set(session.cards)
        # Cards can travel round the table and come back: the bot wants each card once, and
        # "given" only for cards that left this hand for good.
        given = {
            s: _unique(c for c in cards if c not in held) for s, cards in session.given.items()
        }
        received = {s: _unique(cards) for s, cards in session.received.items()}
        knowledge = Knowledge(
            seat,
            session.cards,
            {s: cards for s, cards in given.items() if cards},
            {s: cards for s, cards in received.items() if cards},
            session.layout,
        )
        # Actions the hand does not wait for (free offers, the dealer's close) and the
        # free-trading dealer, who may wait for offers rather than close at once.
        if hand.phase is Phase.TRADING and (seat not in hand.to_act() or _free_idle(hand)):
            return bot.initiative(hand, knowledge)
        return bot.decide(hand, knowledge)

    return decide


class Table:
    """`players` seats (0..players-1) at one table, every seat a full session.

    `seed` fixes the bots' choices and the order in which decisions made at the same moment
    reach the sequencer; `rng` is the cryptographic randomness of every session (pass a
    seeded one for reproducible transcripts). `deciders` replaces the bot of a seat; the other
    seats are bots of `level`, named with it ("bot 2 (hard)").
    `on_entry` sees every sequenced entry, in chain order, as it is made.
    """

    def __init__(
        self,
        players: int,
        *,
        config: TableConfig | None = None,
        seed: int = 0,
        rng: Rng = os.urandom,
        deciders: Mapping[int, Decider] | None = None,
        samples: int = 300,
        level: Level | str = DEFAULT_LEVEL,
        name: str = "simulated table",
        on_entry: Callable[[Entry], None] | None = None,
    ) -> None:
        self.config = config if config is not None else TableConfig(seats=players)
        self._rng = rng
        self._samples = samples
        identities = [Identity.generate(rng) for _ in range(players)]
        self.identities = identities
        game = rng(GAME_ID_BYTES)
        level = parse_level(level)
        own = deciders or {}
        roster = [
            (s, f"bot {s}" if s in own else f"bot {s} ({level})", identities[s].public_key)
            for s in range(players)
        ]
        genesis = make_genesis(identities[0], 0, game, name, self.config, roster)
        self.sessions = [Session(identities[s], s, genesis, rng) for s in range(players)]
        seeds = random.Random(seed)
        self.deciders: dict[int, Decider] = {
            s: bot_decider(s, random.Random(seeds.getrandbits(64)), samples=samples, level=level)
            for s in range(players)
        }
        self.deciders.update(own)
        self._arrival = random.Random(seeds.getrandbits(64))
        self.transcript: list[Entry] = [genesis]
        self.rejections: list[Rejection] = []
        """Entries a session refused as it received them (an honest table has none)."""
        self.refusals: list[Refusal] = []
        """Authored entries the sequencer refused, each reported back to its author."""
        self.stale: list[StaleDecision] = []
        self.muted: set[int] = set()
        """Seats whose outgoing entries are dropped (a peer gone silent)."""
        self.now = 0.0
        self._on_entry = on_entry
        self._queue: deque[tuple[int, Outgoing]] = deque()
        if on_entry is not None:
            on_entry(genesis)
        for s in range(players):
            self._route(s, self.sessions[s].poll())
        self.run()

    # --- the message queue ---------------------------------------------------------------------

    def _route(self, source: int, out: Output) -> None:
        """Queue what `source` sent for where the session says it goes (SPEC 7.1)."""
        if source in self.muted:
            return
        for item, to in out.addressed:
            if isinstance(item, Entry) and item.seq == len(self.transcript):
                self.transcript.append(item)
                if self._on_entry is not None:
                    self._on_entry(item)
            elif isinstance(item, Refusal):
                self.refusals.append(item)
            if to is EVERY_PEER:
                self._queue.extend((s, item) for s in range(len(self.sessions)) if s != source)
            else:
                self._queue.append((to, item))

    def _deliver(self, seat: int, item: Outgoing) -> None:
        try:
            out = self.sessions[seat].receive(item)
        except RemoteProtocolError as exc:
            self.rejections.append(Rejection(seat, exc))
            return
        self._route(seat, out)

    def run(self) -> None:
        """Deliver queued entries until the queue is empty."""
        while self._queue:
            self._deliver(*self._queue.popleft())

    def _deliver_to(self, seat: int) -> None:
        """Deliver what is queued for `seat` now, in order; the rest waits."""
        mine = [item for s, item in self._queue if s == seat]
        self._queue = deque((s, item) for s, item in self._queue if s != seat)
        for item in mine:
            self._deliver(seat, item)

    def inject(self, seat: int, item: Outgoing) -> Output:
        """Hand `item` to seat's session as if a peer had sent it; route what comes back."""
        out = self.sessions[seat].receive(item)
        self._route(seat, out)
        self.run()
        return out

    def act(self, seat: int, decision: Decision) -> Output:
        """Seat's session makes `decision` now; what it sends is queued, not delivered, so
        that several seats can decide at the same moment: `run()` delivers (the sequencer's
        own decision applies at once, as it sequences it itself)."""
        out = self.sessions[seat].act(decision)
        self._route(seat, out)
        return out

    def move(self, seat: int, make: Callable[[Session], Output]) -> Output:
        """Seat's session makes a move of its own now (a draw on its time bank, a pause, a
        resume, an arbiter's ruling: `make(session)`); what it sends is delivered."""
        out = make(self.sessions[seat])
        self._route(seat, out)
        self.run()
        return out

    # --- between hands: players leave, join, sit in (SPEC 3.11) -------------------------------

    def leave(self, seat: int) -> None:
        """The player in `seat` stands up (its session stays, watching)."""
        self._route(seat, self.sessions[seat].leave())
        self.run()

    def sit_in(self, seat: int) -> None:
        self._route(seat, self.sessions[seat].sit_in())
        self.run()

    def join(
        self,
        seat: int,
        name: str,
        identity: Identity | None = None,
        decider: Decider | None = None,
        *,
        admit: bool = True,
    ) -> Session:
        """A player takes the free `seat`: a new identity (buying in), or `identity` coming
        back (with the stack it left with). Its session is rebuilt from the transcript so
        far (SPEC 7.7); it becomes `sessions[seat]` (the next seat after the last, or the seat
        of a player who left). With `admit`, every seated player, the newcomer included,
        admits it at once, as bots do (SPEC 6.6); else its admission stays open."""
        if not 0 <= seat <= len(self.sessions):
            raise ValueError(f"seat {seat}: sessions are kept by seat, 0..{len(self.sessions)}")
        if identity is None:
            identity = Identity.generate(self._rng)
        # a returning identity goes on from the counters it used (its old session kept them)
        signed: dict[int, bytes] = {}
        for at, known in enumerate(self.identities):
            if known.public_key == identity.public_key:
                signed = self.sessions[at].signed
        session = Session.restore(
            identity, seat, self.sessions[0].ledger.entries, self._rng, signed=signed
        )
        if seat == len(self.sessions):
            self.sessions.append(session)
            self.identities.append(identity)
        else:
            self.sessions[seat] = session
            self.identities[seat] = identity
        if decider is not None:
            self.deciders[seat] = decider
        elif seat not in self.deciders:
            chooser = random.Random(self._arrival.getrandbits(64))
            self.deciders[seat] = bot_decider(seat, chooser, samples=self._samples)
        self._route(seat, session.join(name))
        self.run()
        if admit:
            for other in self.seated():
                self.admit(other)
        return session

    def seated(self) -> list[int]:
        """The seats the chain holds now (as the first seat's session sees it)."""
        return sorted(self.sessions[0].ledger.identities)

    def admit(self, seat: int) -> None:
        """The player in `seat` admits the newcomer whose admission is open (SPEC 6.6)."""
        self._route(seat, self.sessions[seat].admit())
        self.run()

    def refuse(self, seat: int, reason: str) -> None:
        """The player in `seat` refuses the newcomer whose admission is open (SPEC 6.6)."""
        self._route(seat, self.sessions[seat].refuse(reason))
        self.run()

    # --- playing ---------------------------------------------------------------------------------

    @property
    def lines(self) -> list[bytes]:
        """The transcript so far, one canonical line per entry (with its LF)."""
        return [entry.encode() + b"\n" for entry in self.transcript]

    def decide_round(self) -> bool:
        """Play one round of decisions (see the top of this module); False if nobody
        decided, even at a second look."""
        for _ in range(2):
            chosen: list[tuple[int, Decision]] = []
            for session in self.sessions:
                seat = session.seat
                assert seat is not None
                if seat in self.muted or not session.may_decide():
                    continue
                decision = self.deciders[seat](session)
                if decision is not None:
                    chosen.append((seat, decision))
            if chosen:
                self._arrive(chosen)
                return True
        return False

    _decide_once = decide_round

    def _arrive(self, chosen: list[tuple[int, Decision]]) -> None:
        """Send decisions made at the same moment, in a seeded arrival order."""
        self._arrival.shuffle(chosen)
        for seat, decision in chosen:
            session = self.sessions[seat]
            if seat == session.sequencer:
                self._deliver_to(seat)
                try:
                    out = session.act(decision)
                except IllegalAction as exc:
                    self.stale.append(StaleDecision(seat, exc))
                    continue
            else:
                # Nothing reached this session since it decided: the rules still allow it
                # here, whatever the sequencer will say.
                out = session.act(decision)
            self._route(seat, out)
        self.run()

    def tick(self, seconds: float) -> None:
        """Let `seconds` pass on the virtual clock: every session's timer runs, as a live
        node's does, often enough that no session seems to have slept through its clock
        (SPEC 7.9): at each action clock's end and once the grace after it has passed."""
        for session in self.sessions:
            session.handle_timer(self.now)
        length = float(self.config.action_clock)
        end = self.now + seconds
        while self.now < end:
            self.now = min(end, self.now + length / 2)
            for session in self.sessions:
                assert session.seat is not None
                self._route(session.seat, session.handle_timer(self.now))
        self.run()

    @property
    def _first(self) -> Session:
        """The session the table follows: the first seat not gone silent."""
        return next(s for s in self.sessions if s.seat not in self.muted)

    def play_hand(self) -> bool:
        """Play one hand to its end and its head signatures; False if no hand can start."""
        first = self._first
        playing = [p for p in first.game.players if p.plays]
        if len(playing) < 2:
            return False
        self.start_hand()
        self.finish_hand()
        return True

    def start_hand(self) -> None:
        """The next dealer opens the next hand: its `hand_start` goes to the sequencer, which
        places it (SPEC 6.6); the automatic steps run until a decision is due (IllegalAction if
        no hand can start now)."""
        dealer = self._first.game.next_button()
        self._route(dealer, self.sessions[dealer].start_hand())
        self.run()

    def finish_hand(self) -> None:
        """Play the running hand to its end and its head signatures (a silent player's are
        excused by the witnessed clock, SPEC 7.5). TableError if it stalls."""
        # the session followed is looked up again each time: a seat may go silent meanwhile
        while not self._first.between_hands:
            if self.decide_round():
                continue
            self._wait_for_clock(f"the table stalled in hand {self._first.hand_number}")

    def _wait_for_clock(self, why: str) -> None:
        """Let the clock run until the chain moves (the players vote, the sequencer acts, or a
        silent one is replaced: up to one action clock per seat it must pass over)."""
        heads = [s.ledger.head_hash for s in self.sessions]
        # a seat's longer clock (its time bank, the arbiter's ruling) and a pause take more
        longer = timekeeping.ticks_for(self.sessions[0].state)
        for _ in range(len(self.sessions) + 2 + longer):
            self.tick(self.config.action_clock + 1)
            if [s.ledger.head_hash for s in self.sessions] != heads:
                return
        raise TableError(why)

    def end_game(self, seat: int | None = None) -> None:
        """Between hands, `seat` (the hand's sequencer by default) ends the game, and every
        seated player signs its end (SPEC 7.3); silent players are excused by the clock."""
        author = self._first.sequencer if seat is None else seat
        self._route(author, self.sessions[author].end_game())
        self.run()
        while not self._first.complete:
            self._wait_for_clock("the game's end is not signed")

    def play(self, hands: int) -> int:
        """Play up to `hands` hands; returns how many were played."""
        played = 0
        while played < hands and self.play_hand():
            played += 1
        return played


__all__ = [
    "Decider",
    "Decision",
    "Rejection",
    "StaleDecision",
    "Table",
    "TableError",
    "bot_decider",
]
