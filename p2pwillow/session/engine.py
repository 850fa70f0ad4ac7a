"""One peer's engine: the ledger, the rules and the mental-poker steps tied together (SPEC 7).

Pure, sans I/O: entries and decisions come in, entries to send and events come out; time
enters only as `handle_timer(now)` and randomness only as the `rng` given at construction.
"""

# Theory of operation
# -------------------
# A `Session` owns one `SessionState` (`state`): the game's `Ledger`, the rules `Game` and, while
# a hand runs, a `HandRecord` with the hand's public crypto state (keys, deck, public hands,
# layouts) and, for a seated player, its secrets. Every entry goes through one path, `_apply`:
#
#   ledger.check_next (signature, countersignature, chain)  ->  checks.check (order by the
#   schedule, rules by the action table, proofs by mental poker; returns a commit closure,
#   mutates nothing)  ->  ledger.append  ->  commit()
#
# so a bad entry raises one RemoteProtocolError and leaves the session as it was. After each
# applied entry the session emits the automatic steps the schedule now names for its own seat
# (made in `steps`: hand key, deck shuffle, deal shares, hand shuffle, reveal, hand end, head
# signature). The hand's dealer sequences (between hands, until the next hand's start is
# placed, the last hand's sequencer: it countersigns the next dealer's hand_start as it does a
# game_end or a leave, SPEC 6.6, so one seat orders every place): a player's entry goes to it
# as an AuthoredEntry;
# the dealer's session checks it, gives it seq and prev, countersigns, applies it and sends
# the Entry to everyone; its clock times out, folds or aborts what the schedule says is stalled
# (`handle_timer`). An authored
# entry it refuses (a race lost in free trading, say) goes back to its author as a signed
# `Refusal`; the author's session then drops its pending decision and may decide again.
# A session with no identity and no seat is an observer: it checks everything and sends
# nothing.

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from p2pwillow.cards import Card
from p2pwillow.crypto.group import G, Rng
from p2pwillow.games import BY_ENTRY
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.chain import Admission, Ledger
from p2pwillow.ledger.entry import GENESIS_PREV, AuthoredEntry, Entry
from p2pwillow.ledger.errors import LocalProtocolError, Reason, RemoteProtocolError
from p2pwillow.ledger.fields import Body
from p2pwillow.ledger.identity import Identity
from p2pwillow.ledger.vote import Vote
from p2pwillow.rules import (
    NO_ARBITER,
    ConfigError,
    Decision,
    Game,
    Hand,
    IllegalAction,
    Phase,
    RulesError,
    TableConfig,
)
from p2pwillow.session import checks, claims, schedule, steps, timekeeping, witness
from p2pwillow.session.checks import Rejected
from p2pwillow.session.events import (
    ChainCut,
    ClaimRefused,
    EntryRefused,
    HandSummary,
    Outgoing,
    Output,
    SessionEvent,
)
from p2pwillow.session.pool import author_key, hand_of
from p2pwillow.session.record import HandRecord
from p2pwillow.session.refusal import Refusal
from p2pwillow.session.schedule import Due, Stall, Step
from p2pwillow.session.state import PauseState, Sent, SessionState, grace


@dataclass(frozen=True, slots=True)
class Wait:
    """A seat the hand waits for, and for what: the schedule's name of the step (`Step`), an
    entry kind, `layout`, or `decision` for a trading or betting decision (SPEC 7.4)."""

    seat: int
    step: str


def _supersedes(entry: Entry, held: Entry, ledger: Ledger, seq: int) -> bool:
    """SPEC 7.5: a sequencer change (or an equivocation proof) at a head beats whatever the
    seat it replaces sequenced after that head; of two changes at one head, the one replacing
    fewer seats (a seat that did take over is not silent)."""
    body = entry.body
    if isinstance(body, k.SequencerChange):
        first = body.replaced[0]
    elif isinstance(body, k.Equivocation):
        first = body.sequencer
    else:
        return False
    if ledger.sequencer_of(seq) == first:
        return True
    theirs = held.body
    return (
        isinstance(body, k.SequencerChange)
        and isinstance(theirs, k.SequencerChange)
        and tuple(theirs.replaced[: len(body.replaced)]) == tuple(body.replaced)
        and len(theirs.replaced) > len(body.replaced)
    )


_SEAT_RE = re.compile(r"\bseat (\d+)('s)?")

SEAT_CHANGES = frozenset(
    {
        k.GameEnd.KIND,
        k.Leave.KIND,
        k.SitIn.KIND,
        k.Join.KIND,
        k.Admit.KIND,
        k.Refuse.KIND,
        k.RulingSitIn.KIND,
        k.RulingEnd.KIND,
    }
)
"""The kinds that change who sits at the table: a next dealer holding another seat's waits
for it before it deals (`Session.holds_seat_change`), and a live peer sends its own to every
peer at once (SPEC 8.4, 8.9)."""


def _resent(authored: AuthoredEntry, ledger: Ledger) -> bool:
    """SPEC 7.1: `authored` is a resend of what is sequenced, or made stale by it: its counter
    is not above the last in the chain of its author's identity or, for an empty seat, of the
    player that last left it (its `leave`, resent on its way out)."""
    key = author_key(authored, ledger) or ledger.departed(authored.author)
    return key is not None and authored.counter <= ledger.last_counter(key)


def _acts_unowed(r: HandRecord, seat: int) -> bool:
    """Trading is open with no trade being completed, and the rules allow `seat` an action the
    hand does not wait for (SPEC 3.5: an offer or a withdraw in free trading, the dealer's
    close where the dealer calls it)."""
    hand = r.rules
    if hand.phase is not Phase.TRADING or schedule.blocked(r, give=False) is not None:
        return False
    return bool(hand.legal_actions(seat))


def _fail(exc: Rejected, entry: Entry | AuthoredEntry) -> RemoteProtocolError:
    seq = entry.seq if isinstance(entry, Entry) else None
    return RemoteProtocolError(
        exc.reason, exc.detail, seq=seq, kind=entry.kind, author=entry.author
    )


def make_genesis(
    identity: Identity,
    seat: int,
    game: bytes,
    name: str,
    config: TableConfig,
    players: Sequence[tuple[int, str, bytes]],
) -> Entry:
    """Entry 0 of a game, authored and sequenced by `seat` (SPEC 6.6).

    `players` lists (seat, name, raw identity key) for every seat at the table.
    """
    body = k.Genesis(
        name=name,
        config=config.to_dict(),
        players=[
            k.SeatedPlayer(seat=s, name=n, identity_key=key.hex()) for s, n, key in sorted(players)
        ],
    )
    authored = AuthoredEntry.create(
        identity, game=game, hand=0, author=seat, body=body, counter=0, seen=GENESIS_PREV
    )
    return authored.sequence(0, GENESIS_PREV, identity)


class Session:
    """One peer's view of a game (SPEC 7). `identity` and `seat` are both given for a
    player, both None for an observer (the verifier). `genesis` is entry 0 of the game.

    Raises RemoteProtocolError if `genesis` is not a valid genesis entry, and
    LocalProtocolError if `identity` does not hold `seat` in it.
    """

    def __init__(
        self,
        identity: Identity | None,
        seat: int | None,
        genesis: Entry,
        rng: Rng | None = None,
    ) -> None:
        self._start(identity, seat, genesis, rng, seated=True)

    def _start(
        self,
        identity: Identity | None,
        seat: int | None,
        genesis: Entry,
        rng: Rng | None,
        *,
        seated: bool,
    ) -> None:
        """The session after the genesis; `seated`: the identity must hold `seat` in it."""
        if (identity is None) != (seat is None):
            raise LocalProtocolError("a player has both an identity and a seat; an observer none")
        if identity is not None and rng is None:
            raise LocalProtocolError("a player's session needs an rng")
        ledger = Ledger()
        if not isinstance(genesis, Entry) or not isinstance(genesis.body, k.Genesis):
            raise RemoteProtocolError(Reason.BAD_SEATING, "the first entry must be the genesis")
        ledger.append(genesis)
        body = genesis.body
        try:
            config = TableConfig.from_dict(body.config)
        except ConfigError as exc:
            raise RemoteProtocolError(
                Reason.BAD_FIELD, f"genesis config: {exc}", seq=0, kind="genesis", author=0
            ) from None
        if config.arbiter != NO_ARBITER and config.arbiter not in body.identity_keys():
            raise RemoteProtocolError(
                Reason.BAD_FIELD,
                f"genesis config: the arbiter is seat {config.arbiter}, where nobody sits",
                seq=0,
                kind="genesis",
                author=genesis.author,
            )
        game = Game(config)
        for p in body.players:
            try:
                game.join(p.seat, p.name, p.identity_key)
            except RulesError as exc:
                raise RemoteProtocolError(
                    Reason.BAD_SEATING, str(exc), seq=0, kind="genesis", author=genesis.author
                ) from None
        holder = body.identity_keys().get(seat or 0)
        if identity is not None and seated and holder != identity.public_key:
            raise LocalProtocolError(f"this identity does not hold seat {seat} in the genesis")
        self._identity = identity
        self._rng = rng
        self._state = SessionState(seat, ledger, config, game)
        self._state.timekeeping.arbiter = timekeeping.arbiter_of(self._state)
        if identity is not None and genesis.author == seat:
            self._state.signed[genesis.counter] = genesis.sig

    @classmethod
    def restore(
        cls,
        identity: Identity,
        seat: int,
        entries: Sequence[Entry],
        rng: Rng,
        *,
        secrets: Mapping[int, int] | None = None,
        signed: Mapping[int, bytes] | None = None,
    ) -> Session:
        """A player's session rebuilt from its transcript (`entries`, the genesis first), the
        per-hand secrets it kept (`secrets`: hand number -> x) and the counters it signed
        (`signed`: counter -> author signature), as a node resuming after a crash does (SPEC
        7.7). Every entry is checked in full, the player's own included; nothing is sent. The
        player's cards follow from x: its public hand is under its key alone. Afterwards
        `poll()` sends what is due.

        The identity must hold `seat` when the transcript ends, or the seat must be free (a
        player about to `join`). Raises RemoteProtocolError for a bad entry (naming it), and
        LocalProtocolError if the seat is another's or a secret does not open its hand key.
        """
        session = cls._replayed(
            identity, seat, entries, rng, secrets or {}, signed or {}, checked=False
        )
        holder = session._state.ledger.identities.get(seat)
        if holder is not None and holder != identity.public_key:
            raise LocalProtocolError(f"seat {seat} is held by another identity")
        session._state.clock.unvouched = session._state.ledger.head_hash
        return session

    @classmethod
    def _replayed(
        cls,
        identity: Identity | None,
        seat: int | None,
        entries: Sequence[Entry],
        rng: Rng | None,
        secrets: Mapping[int, int],
        signed: Mapping[int, bytes],
        *,
        checked: bool,
    ) -> Session:
        """A session that has applied `entries`, sending nothing: with every check, the
        player's own entries included; or, `checked`, entries this peer checked before (a
        rewind), without their signatures and proofs again."""
        if not entries:
            raise LocalProtocolError("a transcript starts with its genesis")
        session = cls.__new__(cls)
        session._start(identity, seat, entries[0], rng, seated=False)
        st = session._state
        st.signed.update(signed)
        st.check_own, st.checked = not checked, checked
        try:
            for entry in entries[1:]:
                session._apply(entry, signed_here=checked, countersigned_here=checked)
                r = st.hand
                if isinstance(entry.body, k.HandStart) and r is not None and seat in r.order:
                    r.secret = secrets.get(r.number)
                elif isinstance(entry.body, k.HandKey) and entry.author == seat and r is not None:
                    session._check_secret(r)
        finally:
            st.check_own = st.checked = False
        return session

    def _check_secret(self, r: HandRecord) -> None:
        """The secret kept for hand `r` is the one behind the hand key the chain holds."""
        me = self._state.seat
        assert me is not None
        if r.secret is not None and G.mul_secret(r.secret) != r.keys[me]:
            raise LocalProtocolError(f"the secret kept for hand {r.number} is not its hand key's")

    @property
    def secrets(self) -> dict[int, int]:
        """The local player's secret of the current hand, by hand number: what a node keeps on
        disk before it sends anything that depends on it (SPEC 7.7)."""
        r = self._state.hand
        return {} if r is None or r.secret is None else {r.number: r.secret}

    @property
    def signed(self) -> dict[int, bytes]:
        """Every counter this identity signed in this game, with the signature: what a node
        keeps on disk before it sends the entry (SPEC 7.1, 7.7)."""
        return dict(self._state.signed)

    # --- what the session knows ----------------------------------------------------------------

    @property
    def state(self) -> SessionState:
        """Everything this session knows (read it; the session alone changes it)."""
        return self._state

    @property
    def seat(self) -> int | None:
        return self._state.seat

    @property
    def config(self) -> TableConfig:
        return self._state.config

    @property
    def ledger(self) -> Ledger:
        """The chain as applied so far (read it; do not append to it)."""
        return self._state.ledger

    @property
    def game(self) -> Game:
        return self._state.game

    @property
    def game_id(self) -> bytes:
        return self._state.game_id

    @property
    def seated(self) -> bool:
        """Every genesis player has accepted the table."""
        return self._state.seated

    @property
    def between_hands(self) -> bool:
        """No hand is running: the last one ended and all its players signed its head."""
        return self._state.between_hands

    @property
    def hand(self) -> Hand | None:
        """The rules state of the current (or last) hand."""
        r = self._state.hand
        return None if r is None else r.rules

    @property
    def hand_number(self) -> int:
        return self._state.ledger.hand

    @property
    def sequencer(self) -> int:
        """The seat that sequences entries now (the dealer of the hand; SPEC 6.6)."""
        return self._state.ledger.sequencer

    @property
    def summaries(self) -> tuple[HandSummary, ...]:
        """One summary per hand that has ended, in order."""
        return tuple(self._state.summaries)

    @property
    def complete(self) -> bool:
        """The transcript so far is a finished game: nothing is `missing` (SPEC 7.6)."""
        return not self.missing

    @property
    def ended(self) -> bool:
        """A `game_end` is in the chain: no hand starts again (SPEC 7.3)."""
        return self._state.ended is not None

    @property
    def missing(self) -> tuple[Wait, ...]:
        """What the transcript so far lacks to be a finished game (SPEC 7.6), seat by seat:
        the `seat` of a genesis player who has not accepted; while a hand runs, what it waits
        for (7.4), or the sequencer's `hand_end` once the rules have settled it; after it
        ended, the `head_signature` of each of its players who has not signed; between hands,
        the `game_end` that any seated player may write (one item per seated player); after
        it, the `game_signature` of each seated player who has not signed it. Empty exactly
        when the game is complete; the one place that says what "complete" means."""
        st = self._state
        now = schedule.when(st.ledger, st.hand)
        if now is schedule.When.BETWEEN:
            return tuple(Wait(s, k.GameEnd.KIND) for s in sorted(st.ledger.identities))
        owed = tuple(dict.fromkeys(Wait(d.seat, d.step.value) for d in self.due()))
        if owed or now is not schedule.When.HAND:
            return owed
        # A running hand always waits for someone; the sequencer's next entry if not (7.4).
        return (Wait(self.sequencer, "entry"),)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The local player's hand by position (empty before the deal or for an observer)."""
        r = self._state.hand
        return () if r is None or r.held is None else r.held.cards

    @property
    def hand_secret(self) -> int | None:
        """The local player's secret x of the current hand (SPEC 5.2) once drawn, so that a
        live node keeps it on disk before it sends the hand key; None before that and for an
        observer. Read only."""
        r = self._state.hand
        return None if r is None else r.secret

    @property
    def given(self) -> dict[int, tuple[Card, ...]]:
        r = self._state.hand
        return {} if r is None else dict(r.given)

    @property
    def received(self) -> dict[int, tuple[Card, ...]]:
        r = self._state.hand
        return {} if r is None else dict(r.received)

    @property
    def layout(self) -> tuple[Card, ...] | None:
        r = self._state.hand
        return None if r is None else r.layout

    def due(self) -> tuple[Due, ...]:
        """Every step the schedule says is owed now, from whom (SPEC 7.4), the automatic ones
        and those outside the running hand (seating, the hand's end, head signatures) included."""
        st = self._state
        return st.dues()

    def seats_owing(self) -> frozenset[int] | None:
        """The seats a new entry must reach at once, or None (every seat): those that owe a
        step now (`due`) and, while trading is open with no trade being completed, those the
        rules let act without owing one (an offer in free trading, the dealer's close where the
        dealer calls it, SPEC 3.5); every seat once the hand has ended (head signatures, the
        next hand's start, seat changes). A live sequencer sends a new entry at once to these,
        to the others a moment later with what follows (SPEC 8.4)."""
        st = self._state
        r = st.hand
        if r is None or r.ended or st.ended is not None:
            return None
        owing = frozenset(d.seat for d in st.dues())
        return owing | {s for s in r.order if s not in owing and _acts_unowed(r, s)}

    def waiting_for(self) -> tuple[Wait, ...]:
        """What the hand waits for now, seat by seat (SPEC 7.4)."""
        st = self._state
        return tuple(Wait(d.seat, d.step.value) for d in schedule.waits(st.ledger, st.hand))

    def decision_due(self) -> bool:
        """The local player must decide now: announce, trade, lay out or bet."""
        st = self._state
        r, me = st.hand, st.seat
        if r is None or me is None or r.ended or st.decision_pending:
            return False
        return any(
            d.seat == me and d.ready and (d.step is not Step.LAYOUT or r.held is not None)
            for d in st.dues(schedule.Maker.PLAYER)
        )

    @property
    def holds_seat_change(self) -> bool:
        """Another seat's `game_end`, `leave`, `sit_in` or `join` for now is held, not yet
        sequenced (SPEC 7.1): a next dealer waits for it to be sequenced before it deals, as a
        courtesy (SPEC 8.9), so that the sequencer places it before the hand starts rather than
        refusing it once a hand is running."""
        st = self._state
        return any(
            e.author != st.seat and e.kind in SEAT_CHANGES and e.hand == st.ledger.hand
            for e in st.pool.entries()
        )

    def may_decide(self) -> bool:
        """The local player may decide now: a decision is due (`decision_due`), or trading is
        open with no trade being completed and the rules allow this seat an action the hand
        does not wait for (SPEC 3.5: an offer or a withdraw in free trading, the dealer's
        close where the dealer calls it). False while its last decision is on its way."""
        if self.decision_due():
            return True
        st = self._state
        r, me = st.hand, st.seat
        if r is None or me is None or r.ended or st.decision_pending or me not in r.order:
            return False
        return _acts_unowed(r, me)

    @property
    def decision_pending(self) -> bool:
        """The local player's last decision went to the sequencer and is neither applied nor
        refused yet."""
        return self._state.decision_pending

    # --- driving the session -------------------------------------------------------------------

    def poll(self) -> Output:
        """Emit any automatic step now due from the local seat (after construction, say)."""
        return self._auto()

    def receive(self, item: Outgoing) -> Output:
        """Take what a peer sent. A sequenced `Entry` is checked and applied (one already
        held is ignored). An `AuthoredEntry` is sequenced if this session is the sequencer;
        if the checks of SPEC 7.1 refuse it, nothing changes and the output holds a signed
        `Refusal` for its author (and an `EntryRefused` event). Any other session keeps it,
        not yet sequenced, in its pool (SPEC 7.1). A `Refusal` of the local seat's pending
        decision drops that decision unless the decision still passes every check at the
        refusing head (SPEC 7.1); other refusals are ignored.

        A `Vote` about the local head is kept (SPEC 7.5), and the hand's sequencer, or the
        seat that takes over from it, may act on the votes at once.

        A bad entry raises RemoteProtocolError naming it, its author and why, and changes
        nothing; so does an authored entry of another game or by a seat that holds no seat,
        a refusal not signed by the hand's sequencer, and a vote that does not verify.

        A player that stopped the table (SPEC 7.9) takes nothing more: its transcript ends.
        """
        if self._state.ledger.stopped:
            return Output()
        if isinstance(item, AuthoredEntry):
            st = self._state
            if st.seat is not None and st.seat == st.ledger.sequencer:
                return self._sequence_authored(item)
            return self._pool_authored(item)
        if isinstance(item, Vote):
            return self._take_vote(item)
        if isinstance(item, Refusal):
            return self._take_refusal(item)
        if not isinstance(item, Entry):
            raise RemoteProtocolError(Reason.MALFORMED, f"not an entry: {type(item).__name__}")
        ledger = self._state.ledger
        if 0 <= item.seq <= ledger.head_seq:
            if ledger.hash_of(item.seq) == item.hash:
                return Output()  # DESIGN 6: applying an entry twice is harmless
            return self._conflict(item)
        if self._judges(item):
            return self._judge(item)
        if isinstance(item.body, k.TableStop) and self._identity is not None:
            return Output()  # another player's stop ends its own transcript, not this one's
        events = self._apply(item)
        return Output((), tuple(events)) + self._auto()

    # --- a remedy this player applies only where it would have signed it (SPEC 7.9) ------------

    def _judges(self, entry: Entry) -> bool:
        """`entry` is a remedy for the place after the head, made by another seat, and this
        player has a say in it (it votes now)."""
        st = self._state
        me = st.seat
        return (
            me is not None
            and self._identity is not None
            and entry.kind in claims.REMEDIES
            and entry.author != me
            and entry.seq == st.ledger.head_seq + 1
            and entry.prev == st.ledger.head_hash
            and me in witness.voters(st)
        )

    def _judge(self, entry: Entry, *, passing: bool = False) -> Output:
        """Apply the remedy `entry` if this player agrees with it, hold it until its own clock
        can say, or refuse it (SPEC 7.9). An entry that fails its checks is rejected as any
        other. `passing`: it was held, and is applied now: it goes on to every peer."""
        st = self._state
        self._checked(entry)
        verdict = self._agreement(entry)
        if verdict.agreement is claims.Agreement.WAIT:
            st.held_claim = entry
            return Output()
        st.held_claim = None
        if verdict.agreement is claims.Agreement.REFUSE:
            return self._refuse(entry, verdict.why)
        events = self._apply(entry)
        return Output((entry,) if passing else (), tuple(events)) + self._auto()

    def _checked(self, entry: Entry) -> None:
        """Every check `_apply` makes, nothing applied (RemoteProtocolError)."""
        self._state.ledger.check_next(entry)
        self._check_own(entry)
        try:
            checks.check(self._state, entry)
        except checks.Rejected as exc:
            raise _fail(exc, entry) from None

    def _agreement(self, entry: Entry) -> claims.Verdict:
        """Whether this player would have signed `entry`'s claim at the head it follows: the
        seats it claimed stalled are the ones this player's own votes there accused, and
        none of them (this player included) made an entry in time that this player holds."""
        st = self._state
        me = st.seat
        assert me is not None
        r = st.hand
        seats = claims.claimed(entry, () if r is None else r.replaced)
        clock = st.clock
        head = entry.prev
        accused = clock.voted.get(head) if clock.voted_hand == st.ledger.hand else None
        if head != st.ledger.head_hash:
            # a sequencer change for a place the chain has gone past: only what this player
            # saw while it was at that head counts, and it saw it all; the seat it replaces,
            # if it was away since (asleep, back from a crash), cannot say the others had what
            # it sequenced, and takes the change
            if me in seats and self._away():
                return claims.Verdict(claims.Agreement.AGREE, "it was away")
            after_end = {"head_signature", "game_end", "hand_start", "sit_in", "leave", "join"}
            if me in seats and r is not None and r.ended and st.ledger[entry.seq].kind in after_end:
                # the hand is over: no chip can move, and the seat it replaces only sits out
                # (it sits in again); going along keeps the table one (SPEC 7.9)
                return claims.Verdict(claims.Agreement.AGREE, "the hand is over")
            return claims.agreement(
                me=me, seats=seats, in_time=frozenset(), accused=accused, periods=1, needed=0
            )
        if tuple(seats) == (me,) and self._away():
            # away (asleep, back from a crash), it cannot say it acted in time: it takes
            # what the others did about it meanwhile, without waiting out a clock of its own
            return claims.Verdict(claims.Agreement.AGREE, "it was away")
        periods = clock.periods if clock.head == head else 0
        needed = len(seats) if isinstance(entry.body, k.SequencerChange) else 1
        return claims.agreement(
            me=me,
            seats=seats,
            in_time=self._in_time(),
            accused=accused,
            periods=periods,
            needed=needed,
        )

    def _away(self) -> bool:
        """This player cannot say that what it made at the head reached the others in time:
        it came back to this head after a crash, or its clock here ran out (and the grace after
        it) with no vote of its own, as when a laptop sleeps (SPEC 7.9). Once seen, asleep
        holds at this head, whatever it votes on waking."""
        st = self._state
        clock = st.clock
        self._woke(clock.now)
        return (
            clock.unvouched == st.ledger.head_hash or clock.slept == st.ledger.hand or clock.behind
        )

    def _woke(self, now: float) -> None:
        """Whether this player slept: its clock ran out at its head (and the grace after it)
        with no vote of its own there, measured from when the head moved (the timer may not
        have run at this head before the laptop slept). Then it was away for the rest of
        this hand: catching up, it cannot say that what it makes reached the others in time.
        Asked before the timer votes and before what arrived is taken."""
        st = self._state
        clock = st.clock
        head = st.ledger.head_hash
        length = float(st.config.action_clock)
        if now >= clock.moved + length + grace(length) and head not in clock.voted:
            clock.slept = st.ledger.hand

    def _in_time(self) -> frozenset[int]:
        """The seats this player holds an entry from (its own included) that passes at the
        head and arrived before the last part of the first clock there (SPEC 7.9)."""
        st = self._state
        clock = st.clock
        length = float(st.config.action_clock)
        running = clock.head == st.ledger.head_hash
        # the timer has not run at this head yet: the first clock runs from when it moved
        cut = clock.cut(1, length) if running else clock.moved + length - grace(length)
        # its own steps are evidence only if it was at this head as the others were: not back
        # from a crash or catching up here, and awake when its clock here ran out (it voted)
        unvouched = self._away()
        return frozenset(
            e.author
            for e in st.pool.entries()
            if st.pool.arrived(e) <= cut
            and not (unvouched and e.author == st.seat)
            and self._counts(e)
            and self._passes_here(e)
        )

    def _refuse(self, entry: Entry, why: str) -> Output:
        """Refuse `entry`'s claim: keep it and who signed it; the table goes on without its
        signers, or, where no quorum is left without them, this player stops it (SPEC 7.9)."""
        st = self._state
        r = st.hand
        seats = claims.claimed(entry, () if r is None else r.replaced)
        votes = [witness.vote_of(v, entry) for v in claims.votes_in(entry)]
        signers = claims.signers(entry, votes, seats)
        ledger = st.ledger
        st.refused = {h: c for h, c in st.refused.items() if c.claim.hand == ledger.hand}
        if entry.hash in st.refused:
            return Output()
        st.refused[entry.hash] = claims.RefusedClaim(entry, seats, signers, why)
        # at the head, or replacing this player where it went on sequencing in the running
        # hand (never a hand its chain has closed), where no quorum is left without them
        at_head = entry.prev == ledger.head_hash
        running = r is not None and not r.ended and entry.hand == ledger.hand
        stops = (at_head or (running and st.seat in seats)) and self._no_quorum_without(signers)
        told = ClaimRefused(entry.kind, seats, signers, why, stops)
        out = Output((), (told,))
        if not stops:
            return out
        if entry.seq <= ledger.head_seq:
            # a claim for a place this chain went past (a change replacing a sequencer that
            # went on): the stop takes the claim's place, and the hand it voids loses the rest
            rewound = self._rewound(entry.seq)
            made = rewound._emit(k.TableStop(claim=entry))
            return self._adopt(rewound, entry.seq) + out + made
        return out + self._emit(k.TableStop(claim=entry))

    def _no_quorum_without(self, signers: Sequence[int]) -> bool:
        """Whether the players who did not sign a claim are too few to go on without its
        signers: to replace a signer that sequences, or to time out those that went their own
        way (SPEC 7.9), they need a quorum against a signer among themselves."""
        st = self._state
        eligible = witness.voters(st)
        honest = [s for s in eligible if s not in signers]
        return len(honest) < witness.quorum(eligible, signers[0])

    # --- another entry where the chain holds one (SPEC 6.8, 7.5) -------------------------------

    def _conflict(self, entry: Entry) -> Output:
        """`entry` takes the place of an entry the chain holds. A sequencer change (or the
        proof of an equivocation) at a head where the seat it replaces went on sequencing
        takes that place: the chain is cut back and it is applied. Two entries countersigned by
        one sequencer for one place are an equivocation: the seat that takes over proves it,
        every other player passes the second entry on. Anything else is late and ignored."""
        st = self._state
        ledger = st.ledger
        seq = entry.seq
        if seq == 0:
            return Output()
        held = ledger[seq]
        if entry.prev == ledger.hash_of(seq - 1) and _supersedes(entry, held, ledger, seq):
            if self._identity is not None and st.seat is not None and entry.author != st.seat:
                verdict = self._agreement(entry)
                if verdict.agreement is not claims.Agreement.AGREE:
                    return self._refuse(entry, verdict.why)
            return self._cut_and_apply(seq, entry)
        proof = ledger.conflict(entry)
        if proof is None or self._identity is None or st.seat is None:
            return Output()
        if ledger.successor(proof.sequencer) == st.seat and seq > ledger.hand_start_seq:
            rewound = self._rewound(seq)
            made = rewound._made(proof)
            return self._adopt(rewound, seq) + made
        if entry.hash in st.forwarded:
            return Output()
        st.forwarded.add(entry.hash)
        return Output((entry,), ())  # the seat that takes over must see both

    def _cut_and_apply(self, seq: int, entry: Entry) -> Output:
        rewound = self._rewound(seq)
        events = rewound._apply(entry)
        return self._adopt(rewound, seq) + Output((), tuple(events)) + self._auto()

    def _rewound(self, seq: int) -> Session:
        """This session as it was before entry `seq`, rebuilt from its own chain."""
        st = self._state
        r = st.hand
        secrets = {} if r is None or r.secret is None else {r.number: r.secret}
        return Session._replayed(
            self._identity,
            st.seat,
            st.ledger.entries[:seq],
            self._rng,
            secrets,
            st.signed,
            checked=True,
        )

    def _adopt(self, rewound: Session, seq: int) -> Output:
        """Take the rewound state; what the cut entries carried is held again (SPEC 6.8)."""
        old = self._state
        cut = [old.ledger[i] for i in range(seq, len(old.ledger))]
        new = rewound._state
        new.forwarded = old.forwarded
        for e in [*old.pool.entries(), *(c.authored() for c in cut)]:
            new.pool.take(e, new.ledger, old.pool.arrived(e))
        new.clock.keep_local(old.clock)
        new.start_sent = old.start_sent  # still on its way, unless the new head makes it stale
        new.refused = old.refused
        new.answer_sent = old.answer_sent
        new.holds_results, new.results_seen = old.holds_results, old.results_seen
        self._state = new
        self._settle_decision()
        return Output((), (ChainCut(seq),))

    def _made(self, proof: k.Equivocation) -> Output:
        """As the seat that takes over, write the proof of the equivocation (SPEC 6.8)."""
        return self._emit(proof) + self._auto()

    def replay(self, entry: Entry) -> tuple[SessionEvent, ...]:
        """Apply the next transcript entry strictly, as `willow verify` does (no duplicates,
        nothing sent)."""
        return tuple(self._apply(entry))

    # --- a person's screen holds the hand's result (SPEC 8.9) ---------------------------------

    def hold_results(self, hold: bool = True) -> None:
        """A person's seat: from now on its head signature of each hand it played waits until
        `result_seen` says its player has seen how the hand ended, so that no next hand starts
        (the next dealer waits for every signature, 7.3) while the person reads the last one.
        A bot's seat sends it at once (the default)."""
        self._state.holds_results = hold

    @property
    def reading(self) -> bool:
        """The hand has ended and the local seat holds its head signature: its player has not
        seen the result yet (`hold_results`)."""
        return steps.reading(self._state)

    def result_seen(self) -> Output:
        """The player has seen how the current (or last) hand ended: its head signature goes
        (if it is due) and the table may start the next hand."""
        st = self._state
        r = st.hand
        if r is not None:
            st.results_seen = max(st.results_seen, r.number)
        return self._auto()

    @property
    def hand_start_pending(self) -> bool:
        """The local seat's `hand_start` went to the sequencer and is neither applied nor
        refused yet (nor made stale by what the sequencer placed first)."""
        return self._state.start_sent is not None

    def start_hand(self) -> Output:
        """As the next dealer, open the next hand (SPEC 7.3): the `hand_start` is authored by
        this seat and countersigned by the sequencer (this seat only if it sequences now, SPEC
        6.6); until it is applied or refused none is made again (IllegalAction)."""
        me = self._me()
        st = self._state
        if st.ended is not None:
            raise IllegalAction("the game has ended")
        if not st.between_hands:
            raise IllegalAction("a hand is running, or the last one is not signed by everyone")
        if st.game.next_button() != me:
            raise IllegalAction(f"seat {st.game.next_button()} deals the next hand")
        if st.start_sent is not None:
            raise IllegalAction("this seat's start of the next hand is on its way")
        if st.ledger.admission is not None:
            raise IllegalAction("the table is comparing the new safety code with a newcomer")
        players = [k.SeatStack(seat=p.seat, stack=p.stack) for p in st.game.players if p.plays]
        return self._emit(k.HandStart(dealer=me, players=players)) + self._auto()

    # --- between hands: leaving, coming back, sitting in (SPEC 3.11) --------------------------

    def leave(self) -> Output:
        """Between hands, stand up; the game keeps this identity's stack for when it comes
        back (SPEC 3.11). IllegalAction (nothing sent) if the rules refuse it now."""
        me = self._me()
        st = self._state
        self._between_hands("leave")
        st.game.verify_leave(me)
        return self._emit(k.Leave()) + self._auto()

    def sit_in(self) -> Output:
        """Play again from the next hand after sitting out (SPEC 3.11): at any time, a hand
        running or not (this seat sits it out). IllegalAction if the rules do not allow it
        yet."""
        me = self._me()
        st = self._state
        if st.ended is not None:
            raise IllegalAction("the game has ended")
        st.game.verify_sit_in(me)
        return self._emit(k.SitIn()) + self._auto()

    def join(self, name: str) -> Output:
        """Take this session's seat, which must be free (a session restored from the game's
        transcript for the seat it takes, `Session.restore`): with the stack this identity
        left with, or buying in with the starting stack (SPEC 3.11, 7.3)."""
        me = self._me()
        st = self._state
        identity = self._identity
        assert identity is not None
        self._between_hands("join")
        key = identity.public_key.hex()
        st.game.verify_join(me, name, key)
        body = k.Join(
            name=name,
            identity_key=key,
            genesis=st.ledger.hash_of(0).hex(),
            buy_in=st.game.buy_in_due(key),
        )
        return self._emit(body) + self._auto()

    @property
    def admission(self) -> Admission | None:
        """The newcomer whose admission is open (SPEC 6.6): no hand starts until every seated
        player has admitted it, or one refused it."""
        return self._state.ledger.admission

    def admit(self) -> Output:
        """This seat's player compared the new safety code aloud with everyone at the table
        and everyone saw the same: admit the newcomer (SPEC 6.6, 6.7). IllegalAction if no
        admission is open or this seat has answered it."""
        body = self._answer(admitting=True)
        return self._emit(k.Admit(seat=body.seat, join=body.join.hex())) + self._auto()

    def refuse(self, reason: str) -> Output:
        """Keep the newcomer out (the codes differ, or not everyone confirmed in time): its
        seat is free again once the refusal is placed (SPEC 6.6); a seat that admitted it may
        still refuse it (its admission took too long, say). IllegalAction if no admission is
        open or an answer of this seat's is on its way."""
        body = self._answer(admitting=False)
        text = reason.strip()[:200] or "refused"
        return (
            self._emit(k.Refuse(seat=body.seat, join=body.join.hex(), reason=text)) + self._auto()
        )

    def _answer(self, *, admitting: bool) -> Admission:
        me = self._me()
        st = self._state
        self._between_hands("answer a newcomer's admission")
        admission = st.ledger.admission
        if admission is None:
            raise IllegalAction("no newcomer's admission is open")
        if me not in st.ledger.identities:
            raise IllegalAction(f"seat {me} is not seated")
        if admitting and me in admission.admitted:
            raise IllegalAction("this seat has admitted the newcomer already")
        if st.answer_sent is not None:
            raise IllegalAction("this seat's answer to the admission is on its way")
        return admission

    @property
    def answer_pending(self) -> bool:
        """An `admit` or `refuse` of the local seat is on its way to the sequencer."""
        return self._state.answer_sent is not None

    @property
    def identity_key(self) -> bytes | None:
        """The local player's identity key (None for an observer)."""
        return None if self._identity is None else self._identity.public_key

    @property
    def answer_due(self) -> bool:
        """The local seat owes its answer to the open admission (SPEC 6.6): it is seated, has
        not admitted the newcomer, and no answer of its is on its way."""
        st = self._state
        admission = st.ledger.admission
        me = st.seat
        if admission is None or me is None or me not in st.ledger.identities:
            return False
        return me not in admission.admitted and st.answer_sent is None

    def end_game(self) -> Output:
        """Between hands, end the game (SPEC 7.3): every seated player's stack, signed by this
        player; then every seated player signs it. IllegalAction if no game can end now."""
        me = self._me()
        st = self._state
        self._between_hands("end the game")
        if me not in st.ledger.identities:
            raise IllegalAction(f"seat {me} is not seated")
        players = [k.SeatStack(seat=s, stack=chips) for s, chips in st.game.final_stacks()]
        return self._emit(k.GameEnd(players=players)) + self._auto()

    # --- the clock: the time bank, the pause, the arbiter's rulings (SPEC 3.14) ----------------

    def _clock_entry(self, body: Body) -> Output:
        """Sign and send an entry about the clock, once its checks pass here (IllegalAction,
        nothing sent, if they do not: the reason in a person's words)."""
        st = self._state
        me = self._me()
        if st.ledger.hand == 0:
            raise IllegalAction("the clock runs from the first hand on")
        try:
            timekeeping.verify(st, me, body)
        except Rejected as exc:
            raise IllegalAction(self.named(exc.detail)) from None
        return self._emit(body) + self._auto()

    def more_time(self, seconds: int | None = None) -> Output:
        """Draw on this player's time bank: its clock at this head runs `seconds` longer
        (by default `BANK_STEP`, or what the bank still holds). IllegalAction if the bank
        holds too little or this seat owes no step."""
        me = self._me()
        left = timekeeping.bank_left(self._state, me)
        if seconds is None:
            seconds = min(timekeeping.BANK_STEP, left)
        if seconds <= 0:
            raise IllegalAction("your time bank is empty")
        return self._clock_entry(k.TimeBank(seconds=seconds))

    def pause(self, seconds: int | None = None) -> Output:
        """Pause the table for at most `seconds` (by default the table's `pause_limit`)."""
        limit = self._state.config.pause_limit
        if not limit:
            raise IllegalAction("this table does not pause")
        return self._clock_entry(k.Pause(seconds=limit if seconds is None else seconds))

    def resume(self) -> Output:
        """Resume the paused table (the player who paused it, or the arbiter)."""
        return self._clock_entry(k.Resume())

    def rule_extend(self, seat: int, seconds: int | None = None) -> Output:
        """The arbiter's ruling: `seat`'s clock runs `seconds` longer (by default
        `BANK_STEP`, or what the arbiter may still add to that seat's clock)."""
        if seconds is None:
            seconds = min(timekeeping.BANK_STEP, timekeeping.grant_left(self._state, seat))
        if seconds <= 0:
            raise IllegalAction(f"the arbiter may add no more time to seat {seat}'s clock")
        return self._clock_entry(k.RulingExtend(seat=seat, seconds=seconds))

    def rule_sit_in(self, seat: int) -> Output:
        """The arbiter's ruling, between hands: `seat` plays again from the next hand."""
        return self._clock_entry(k.RulingSitIn(seat=seat))

    def rule_end(self) -> Output:
        """The arbiter's ruling: the game ends once no hand is running."""
        return self._clock_entry(k.RulingEnd())

    @property
    def arbiter(self) -> int | None:
        """The seat of the table's arbiter (SPEC 3.14); None if it has none or it left."""
        return timekeeping.arbiter_seat(self._state)

    @property
    def paused(self) -> PauseState | None:
        """The pause the chain holds (until a `resume`; it may have run out on the clock)."""
        return self._state.timekeeping.paused

    @property
    def clock_stopped(self) -> bool:
        """The table is paused on this player's clock: nobody's clock runs."""
        st = self._state
        return st.clock.paused(st.timekeeping.paused)

    @property
    def end_ruled(self) -> bool:
        """The arbiter has ended the game: no hand starts any more (SPEC 3.14)."""
        return self._state.timekeeping.end_ruled is not None

    def bank_left(self, seat: int) -> int:
        """Seconds left in `seat`'s time bank."""
        return timekeeping.bank_left(self._state, seat)

    def pauses_left(self, seat: int) -> int:
        """Pauses `seat`'s player may still make."""
        return timekeeping.pauses_left(self._state, seat)

    def seconds_left(self, now: float | None) -> dict[int, float]:
        """Each seat on the clock, with the seconds left on its clock at `now` (the time of
        `handle_timer`); empty before the first hand and for an observer."""
        return dict(timekeeping.seconds_left(self._state, now))

    def paused_for(self, now: float | None) -> float | None:
        """How long the pause has lasted at `now`, on this player's clock; None if the table
        is not paused here."""
        return timekeeping.paused_for(self._state, now)

    def _between_hands(self, what: str) -> None:
        if self._state.ended is not None:
            raise IllegalAction("the game has ended")
        if not self._state.between_hands:
            raise IllegalAction(f"a player may {what} only between hands")

    def decision_error(self, decision: Decision) -> str | None:
        """Why the local player may not take `decision` now, in the words a person reads (the
        rules' reason, seats named), or None if `act` will take it (SPEC 3.3, 7.3)."""
        st = self._state
        r = st.hand
        me = st.seat
        if me is None:
            return "an observer takes no part"
        if not st.seated:
            return "the table is still being seated"
        if r is None or r.rules.is_over or self.between_hands:
            return "no hand is running"
        hand = r.rules
        if me not in hand.seats:
            return "you sit out this hand"
        try:
            row = hand.row(decision.kind)
            if not row.decided:
                return f"{decision.kind.value} is not a player's decision"
            hand.verify(decision.kind, me, decision.argument())
        except IllegalAction as exc:
            return self.named(str(exc))
        return self.held_back()

    def held_back(self) -> str | None:
        """Why the session takes no decision from its player now although the rules would."""
        st = self._state
        if self.may_decide():
            return None
        if st.decision_pending:
            return "your last decision is on its way to the dealer"
        if any(w.step == Step.HAND_SHUFFLE for w in self.waiting_for()):
            return "waiting for the hand shuffles after the last trade"
        return "the hand is waiting for a protocol step first"

    def names(self) -> dict[int, str]:
        """Each seat's player's name: those seated, then those of the table as formed."""
        st = self._state
        names = {p.seat: p.name for p in st.game.players}
        genesis = st.ledger.genesis
        if genesis is not None:
            for p in genesis.players:
                names.setdefault(p.seat, p.name)
        return names

    def named(self, text: str) -> str:
        """`text` with every "seat N" the rules speak of given its player's name."""
        names = self.names()

        def repl(m: re.Match[str]) -> str:
            seat = int(m.group(1))
            if seat not in names:
                return m.group(0)
            return names[seat] + (m.group(2) or "")

        return _SEAT_RE.sub(repl, text)

    def act(self, decision: Decision) -> Output:
        """The local player's decision, checked against the rules, as a signed entry.

        Raises IllegalAction (nothing sent, nothing changed) if the rules refuse it now.
        """
        r = self._live_local()
        me = self._me()
        st = self._state
        if st.decision_pending:
            raise IllegalAction(f"seat {me}'s last decision is still on its way")
        if r.owed_shuffles and r.rules.phase is not Phase.LAYOUT:
            raise IllegalAction("waiting for the hand shuffles after the last trade")
        body = steps.decision_body(st, r, decision, self._random())
        head = st.ledger.head_seq
        st.decision_pending = True
        try:
            out = self._emit(body)
        except Exception:
            st.decision_pending = False
            raise
        sent = out.send[0] if out.send else None
        st.decision_sent = Sent(sent, head) if isinstance(sent, AuthoredEntry) else None
        return out + self._auto()

    def note_time(self, now: float) -> None:
        """What the clock reads now, before what arrives is taken (a node woken from sleep
        tells the time before it reads what came meanwhile, SPEC 7.9)."""
        st = self._state
        clock = st.clock
        if st.seat is not None and self._identity is not None and not st.timekeeping.paused:
            self._woke(now)
        clock.now = max(clock.now, now)
        if st.seat is not None and self._identity is not None:
            clock.run(now, st.timekeeping.paused)

    def asleep(self) -> None:
        """The player's process did not run for a while (a laptop asleep, SIGSTOP): it was
        away in this hand, and cannot say what reached the others in time (SPEC 7.9)."""
        self._state.clock.slept = self._state.ledger.hand

    def behind(self, behind: bool) -> None:
        """Whether the player's node knows the table is past this head (a peer holds more):
        what it makes meanwhile is no evidence that it was in time (SPEC 7.9)."""
        self._state.clock.behind = behind

    def handle_timer(self, now: float) -> Output:
        """The player's action clock (SPEC 7.5): it measures a stretch, which restarts whenever
        the head changes but for an entry about the clock (a draw on a time bank, a pause, a
        resume, a ruling: SPEC 3.14), and stands still while the table is paused. Each time
        another `action_clock` of the stretch passes (and when a seat's longer clock runs
        out), the player votes once at the head, accusing the seats whose clocks have run out
        that owe a step and that it holds nothing from, or the sequencer when it holds an
        entry that passes (which it sends to every peer again). Then the hand's sequencer acts
        on the votes it holds (a `timeout` or an `abort`), or the seat that takes over from a
        silent sequencer replaces it (`sequencer_change`). Nothing is voted or acted on while
        the table is paused. Time enters only here, as `now` (seconds, any origin); an
        observer does nothing."""
        st = self._state
        if self._identity is None or st.seat is None:
            return Output()
        clock, tk = st.clock, st.timekeeping
        if tk.paused is None:
            self._woke(now)
        clock.now = max(clock.now, now)
        clock.run(now, tk.paused)
        if not clock.at(st.ledger.head_hash, carry=tk.carries) and not tk.carries:
            return Output()
        if clock.paused(tk.paused):
            return self._auto()
        periods = int(clock.elapsed // st.config.action_clock)
        out = Output()
        if periods > clock.periods or timekeeping.deadline_passed(st):
            clock.periods = max(periods, clock.periods)
            out += self._vote(clock.periods)
            clock.voted_at = clock.elapsed
        held = st.held_claim
        if held is not None:
            st.held_claim = None
            if held.prev == st.ledger.head_hash:
                out += self._judge(held, passing=True)
        return out + self._act_on_votes() + self._auto()

    def _vote(self, periods: int) -> Output:
        """This player's vote after `periods` whole action clocks at the head (SPEC 7.5)."""
        st = self._state
        identity, me = self._identity, st.seat
        assert identity is not None and me is not None
        if st.ledger.hand == 0:
            return Output()  # seating has no remedy: a table that does not fill is left
        passing = [e for e in st.pool.entries() if self._counts(e) and self._passes_here(e)]
        # SPEC 7.9: what arrived in the last part of this clock was late for it
        cut = st.clock.cut(periods, float(st.config.action_clock))
        holding = {e.author: True for e in passing if st.pool.arrived(e) <= cut}
        seats = timekeeping.overdue(st, witness.accused(st, holding, periods))
        clock = st.clock
        if clock.voted_hand != st.ledger.hand:
            clock.voted, clock.voted_hand = {}, st.ledger.hand
        head = st.ledger.head_hash
        clock.voted[head] = clock.voted.get(head, frozenset()) | frozenset(seats)
        resend = tuple(dict.fromkeys(passing))
        if not seats:
            return Output(resend, ())
        vote = Vote.create(
            identity,
            game=st.game_id,
            hand=st.ledger.hand,
            head=st.ledger.head_hash,
            voter=me,
            seats=tuple(sorted(seats)),
        )
        st.clock.hold(vote)
        return Output((vote, *resend), ())

    def _counts(self, authored: AuthoredEntry) -> bool:
        """A pooled entry counts once its signature verifies (checked once, SPEC 7.1)."""
        key = author_key(authored, self._state.ledger)
        return key is not None and self._state.pool.verified(authored, key)

    def _take_vote(self, vote: Vote) -> Output:
        """SPEC 7.5: a vote about the local head, from a player who votes now, is kept; one
        about another head (or hand) changes nothing; a bad one is rejected."""
        st = self._state
        if vote.game != st.ledger.game:
            raise RemoteProtocolError(Reason.WRONG_GAME, "a vote from another game", kind="vote")
        if vote.hand != st.ledger.hand or vote.head != st.ledger.head_hash:
            return Output()
        try:
            witness.check_vote(st, vote)
        except witness.BadVote as exc:
            raise RemoteProtocolError(
                exc.reason, exc.detail, kind="vote", author=vote.voter
            ) from None
        if self._identity is None or not st.clock.hold(vote):
            return Output()
        return self._act_on_votes() + self._auto()

    def _act_on_votes(self) -> Output:
        """The hand's sequencer times out or aborts on the seats a quorum accuses at the head;
        the seat that takes over from a silent sequencer (and from each silent seat after it)
        replaces it (SPEC 7.5)."""
        st = self._state
        me, r = st.seat, st.hand
        votes = list(st.clock.votes.values())
        if me is None or r is None or not votes or st.clock.head != st.ledger.head_hash:
            return Output()
        if st.clock.paused(st.timekeeping.paused):
            return Output()  # SPEC 3.14: nothing is timed out while the table is paused
        records = [witness.record_of(v) for v in sorted(votes, key=lambda v: v.voter)]
        own = st.clock.votes.get(me)
        mine = frozenset(() if own is None else own.seats)
        if me != st.ledger.sequencer:
            replaced = witness.replacing(st)
            if not replaced or not set(replaced) <= mine:
                return Output()  # SPEC 7.9: it replaces only seats its own vote accuses
            return self._emit(k.SequencerChange(replaced=replaced, votes=records))
        owed = witness.owed(st)
        # SPEC 7.9: only seats its own vote accuses, and itself (others' votes) for its default
        accused = [s for s in sorted(owed) if witness.has_quorum(st, votes, s)]
        accused = [s for s in accused if s in mine or s == me]
        if me in accused and owed[me] & {Stall.TIMEOUT} != owed[me]:
            accused.remove(me)  # only its own default it takes itself; else it is replaced
        pre_deal = [s for s in accused if Stall.ABORT in owed[s]]
        if pre_deal:
            named = sorted({d.step.value for d in st.dues() if d.seat in pre_deal})
            reason = f"seat(s) {', '.join(map(str, pre_deal))} stalled: {', '.join(named)}"
            return self._emit(
                k.Abort(
                    blamed=sorted(set(pre_deal) | set(r.replaced)),
                    reason=reason[:200],
                    votes=records,
                )
            )
        timed = [s for s in accused if owed[s] & {Stall.TIMEOUT, Stall.FOLD, Stall.SIT_OUT}]
        if not timed:
            return Output()
        return self._emit(k.Timeout(seats=timed, votes=records))

    # --- the one path for entries ------------------------------------------------------------

    def _apply(
        self, entry: Entry, *, signed_here: bool = False, countersigned_here: bool = False
    ) -> list[SessionEvent]:
        """Check and apply `entry`; `signed_here`/`countersigned_here`: this session has just
        made that signature itself, so verifying it again would prove nothing (SPEC 7.1)."""
        ledger = self._state.ledger
        ledger.check_next(
            entry, author_signed_here=signed_here, countersigned_here=countersigned_here
        )
        if not signed_here:
            self._check_own(entry)
        try:
            commit = checks.check(self._state, entry)
        except Rejected as exc:
            raise _fail(exc, entry) from None
        ledger.append(entry, checked=True)
        self._state.pool.applied(entry, ledger)
        events = commit()
        timekeeping.applied(self._state, entry)
        self._state.clock.moved = self._state.clock.now
        self._settle_decision()
        return events

    def _settle_decision(self) -> None:
        """SPEC 7.1: a pending decision that can no longer be sequenced is dropped, and the
        player decides again: an entry of its identity with a higher counter is in the chain,
        or the decision binds the head and the head has moved on. A pending `hand_start` is
        dropped once it no longer passes at the head (what came first changed the hand's
        players or stacks, or ended the game), so that the dealer makes it again (7.3)."""
        st = self._state
        start = st.start_sent
        if start is not None and self._identity is not None:
            stale = start.entry.counter <= st.ledger.last_counter(self._identity.public_key)
            if stale or not self._passes_here(start.entry):
                st.start_sent = None
                st.pool.discard(start.sig)
        answer = st.answer_sent
        if answer is not None and self._identity is not None:
            stale = answer.entry.counter <= st.ledger.last_counter(self._identity.public_key)
            if stale or not self._passes_here(answer.entry):
                st.answer_sent = None
                st.pool.discard(answer.sig)
        sent = st.decision_sent
        if not st.decision_pending or sent is None or self._identity is None:
            return
        entry = sent.entry
        action = BY_ENTRY.get(entry.kind)
        stale = entry.counter <= st.ledger.last_counter(self._identity.public_key)
        moved = action is not None and action.binds and entry.seen != st.ledger.head_hash
        if stale or moved:
            st.decision_pending = False
            st.decision_sent = None
            st.pool.discard(entry.sig)

    def _pool_authored(self, authored: AuthoredEntry) -> Output:
        """SPEC 7.1: a peer that does not sequence keeps an authored entry that may still be
        sequenced in this hand; a resend, or one already made stale, changes nothing."""
        ledger = self._state.ledger
        if authored.game != ledger.game:
            raise RemoteProtocolError(
                Reason.WRONG_GAME,
                "an authored entry of another game",
                kind=authored.kind,
                author=authored.author,
            )
        if author_key(authored, ledger) is None:
            if _resent(authored, ledger) or ledger.seq_of_seen(authored.seen) is None:
                # a resend from a player that has left; or made at a head this peer does not
                # hold (yet): a newcomer's, whose `join` it has not applied, is sent again
                # (SPEC 8.4) while it is not sequenced, and then this peer knows the seat
                return Output()
            raise RemoteProtocolError(
                Reason.UNKNOWN_AUTHOR,
                "the author holds no seat",
                kind=authored.kind,
                author=authored.author,
            )
        self._state.pool.take(authored, ledger, self._state.clock.now)
        return Output()

    def _passes_here(self, authored: AuthoredEntry) -> bool:
        """Whether `authored` would be accepted as the next entry, right after the head (every
        check of SPEC 7.1 made, nothing applied): what "holding" an entry means (7.5)."""
        st = self._state
        ledger = st.ledger
        draft = authored.placed(ledger.head_seq + 1, ledger.head_hash)
        mine = authored.author == st.seat and st.signed.get(authored.counter) == authored.sig
        try:
            ledger.check_next(
                draft,
                sequencer_seat=ledger.sequencer,
                author_signed_here=mine,
                countersigned_here=True,
            )
            checks.check(st, draft)
        except (RemoteProtocolError, Rejected):
            return False
        return True

    def _check_own(self, entry: Entry) -> None:
        """SPEC 7.1: an entry in this identity's name must be one it signed, for that counter;
        a replayed or forged one is refused, so the player never takes it for its own."""
        identity, st = self._identity, self._state
        if identity is None or entry.author != st.seat:
            return
        body = entry.body
        key = (
            bytes.fromhex(body.identity_key)
            if isinstance(body, k.Join)
            else st.ledger.identities.get(entry.author)
        )
        if key == identity.public_key and st.signed.get(entry.counter) != entry.sig:
            raise RemoteProtocolError(
                Reason.BAD_SIGNATURE,
                f"an entry in our name we did not sign here (counter {entry.counter})",
                seq=entry.seq,
                kind=entry.kind,
                author=entry.author,
            )

    def _sequence_authored(self, authored: AuthoredEntry) -> Output:
        """As the sequencer, place `authored` next (SPEC 7.1): applied and sent to everyone,
        or refused with a signed `Refusal` to its author. The local seat's own entry (one it
        sent to the seat it has since taken over from) is refused locally: it is dropped and
        made again."""
        seat, identity = self._state.seat, self._identity
        if seat is None or identity is None:
            raise RemoteProtocolError(
                Reason.BAD_COUNTERSIGNATURE,
                "an observer sequences nothing",
                kind=authored.kind,
                author=authored.author,
            )
        ledger = self._state.ledger
        if _resent(authored, ledger):
            return Output()  # a resend of what is sequenced, or made stale by it: nothing to say
        draft = authored.sequence(ledger.head_seq + 1, ledger.head_hash, identity)
        if ledger.expected_sequencer(draft) != seat:
            raise RemoteProtocolError(
                Reason.BAD_COUNTERSIGNATURE,
                f"seat {ledger.expected_sequencer(draft)} sequences this entry, not {seat}",
                kind=authored.kind,
                author=authored.author,
            )
        try:
            events = self._apply(draft, countersigned_here=True)
        except RemoteProtocolError as exc:
            # SPEC 7.1: nothing is sequenced; the author hears why, so that its session can
            # drop the decision and decide again (a lost race in free trading, say).
            refusal = Refusal.create(
                identity, seat, ledger.head_seq, authored, exc.reason, exc.detail
            )
            refused = EntryRefused(authored.author, authored.kind, exc.reason, refusal.detail)
            if authored.author == seat:
                self._drop_pending(authored.sig)
                return Output((), (refused,))
            return Output((refusal,), (refused,))
        return Output((draft,), tuple(events)) + self._auto()

    def _take_refusal(self, refusal: Refusal) -> Output:
        """SPEC 7.1: the sequencer refused an entry. If it is the local seat's decision still
        on its way, drop it; any other refusal (stale, another seat's) changes nothing."""
        st = self._state
        ledger = st.ledger
        if refusal.game != ledger.game:
            raise RemoteProtocolError(
                Reason.WRONG_GAME, "a refusal from another game", kind=refusal.kind
            )
        sequencer = ledger.sequencer
        if refusal.hand != hand_of(refusal.kind, ledger) or refusal.sequencer != sequencer:
            return Output()  # about an earlier hand or sequencer: nothing pending can match
        key = ledger.identities.get(sequencer)
        if key is None or not refusal.verify(key):
            raise RemoteProtocolError(
                Reason.BAD_COUNTERSIGNATURE,
                f"a refusal not signed by the sequencer, seat {sequencer}",
                kind=refusal.kind,
                author=refusal.author,
            )
        sent = self._pending_sent(refusal.sig)
        if refusal.author != st.seat or sent is None or refusal.head < sent.head:
            return Output()
        if refusal.head == ledger.head_seq and self._passes_here(sent.entry):
            # SPEC 7.1: refused at the head it passes at: the refusal is false. The decision
            # stays pending and goes to every peer again, which now holds it (7.5).
            return Output((sent.entry,), ())
        self._drop_pending(refusal.sig)
        refused = EntryRefused(refusal.author, refusal.kind, refusal.reason, refusal.detail)
        return Output((), (refused,))

    def _pending_sent(self, sig: bytes) -> Sent | None:
        """The local seat's pending decision or `hand_start` with this signature, if any."""
        st = self._state
        for sent in (
            st.decision_sent if st.decision_pending else None,
            st.start_sent,
            st.answer_sent,
        ):
            if sent is not None and sent.sig == sig:
                return sent
        return None

    def _drop_pending(self, sig: bytes) -> None:
        """Drop the pending decision or `hand_start` with this signature: it is made again
        from the state now held (SPEC 7.1)."""
        st = self._state
        if st.decision_sent is not None and st.decision_sent.sig == sig:
            st.decision_pending = False
            st.decision_sent = None
        if st.start_sent is not None and st.start_sent.sig == sig:
            st.start_sent = None
        if st.answer_sent is not None and st.answer_sent.sig == sig:
            st.answer_sent = None
        st.pool.discard(sig)

    def _emit(self, body: Body, due: Due | None = None) -> Output:
        """Sign `body` as the local seat; sequence and apply it if this session sequences it,
        else send it to the sequencer (remembering the automatic step `due` as on its way)."""
        identity, me = self._identity, self._state.seat
        assert identity is not None and me is not None
        st = self._state
        ledger = st.ledger
        hand = hand_of(body.KIND, ledger)
        # SPEC 6.4: above every counter this identity used, in the chain or signed here
        counter = max(ledger.last_counter(identity.public_key), st.signed.last) + 1
        authored = AuthoredEntry.create(
            identity,
            game=st.game_id,
            hand=hand,
            author=me,
            body=body,
            counter=counter,
            seen=ledger.head_hash,
        )
        st.signed[counter] = authored.sig
        entry = authored.sequence(ledger.head_seq + 1, ledger.head_hash, identity)
        if ledger.expected_sequencer(entry) != me:
            if due is not None:
                st.pending.add(due)
            if isinstance(body, k.HandStart):
                st.start_sent = Sent(authored, ledger.head_seq)
            elif isinstance(body, k.Admit | k.Refuse):
                st.answer_sent = Sent(authored, ledger.head_seq)
            # its own on its way is held (7.5); made while behind, it was not made in time
            made = math.inf if st.clock.behind else st.clock.now
            st.pool.take(authored, ledger, made)
            return Output((authored,), ())
        try:
            events = self._apply(entry, signed_here=True, countersigned_here=True)
        except RemoteProtocolError as exc:
            raise LocalProtocolError(f"our own entry is refused: {exc}") from None
        return Output((entry,), tuple(events))

    def _auto(self) -> Output:
        """Emit every automatic step due from the local seat, until none is (SPEC 7.3); a seat
        that has just taken over sequencing first sequences what it held (SPEC 7.5)."""
        out = Output()
        if self._identity is None:
            return out
        st = self._state
        if st.seat == st.ledger.sequencer and len(st.pool):
            for held in st.pool.entries():
                st.pool.discard(held.sig)
                if self._counts(held):
                    out += self._sequence_authored(held)
        if st.seat == st.ledger.sequencer:
            out += self._record_false_claims()
        for _ in range(10_000):
            due = steps.due_step(self._state)
            if due is None:
                return out
            out += self._emit(steps.make_step(self._state, due, self._random()), due)
        raise LocalProtocolError("automatic steps do not settle")  # pragma: no cover

    def _record_false_claims(self) -> Output:
        """The sequencer writes each claim it refused in the running hand into the chain once
        another entry holds the claim's place (SPEC 7.9): the transcript then says who signed
        it. Not once the hand has ended: its head signatures sign a head that stays put."""
        st = self._state
        r = st.hand
        out = Output()
        if r is None or r.ended:
            return out
        ledger = st.ledger
        for refused in list(st.refused.values()):
            claim = refused.claim
            if (
                claim.hand == ledger.hand
                and claim.seq <= ledger.head_seq
                and ledger.hash_of(claim.seq) != claim.hash
                and claim.hash not in r.false_claims
            ):
                out += self._emit(k.FalseClaim(claim=claim))
        return out

    def _random(self) -> Rng:
        assert self._rng is not None
        return self._rng

    def _me(self) -> int:
        if self._state.seat is None:
            raise IllegalAction("an observer takes no part")
        return self._state.seat

    def _live_local(self) -> HandRecord:
        r = self._state.hand
        if r is None or r.ended:
            raise IllegalAction("no hand is running")
        return r
