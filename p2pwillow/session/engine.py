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
# signature). The hand's dealer sequences: a player's entry goes to it as an AuthoredEntry;
# the dealer's session checks it, gives it seq and prev, countersigns, applies it and sends
# the Entry to everyone; its clock times out or aborts what the schedule says is stalled
# (`handle_timer`). An authored
# entry it refuses (a race lost in free trading, say) goes back to its author as a signed
# `Refusal`; the author's session then drops its pending decision and may decide again.
# A session with no identity and no seat is an observer: it checks everything and sends
# nothing.

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from p2pwillow.cards import Card
from p2pwillow.crypto.group import Rng
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.chain import Ledger
from p2pwillow.ledger.entry import AuthoredEntry, Entry
from p2pwillow.ledger.errors import LocalProtocolError, Reason, RemoteProtocolError
from p2pwillow.ledger.fields import Body
from p2pwillow.ledger.identity import Identity
from p2pwillow.rules import ConfigError, Game, Hand, IllegalAction, Phase, RulesError, TableConfig
from p2pwillow.session import checks, schedule, steps
from p2pwillow.session.checks import Rejected
from p2pwillow.session.events import EntryRefused, HandSummary, Output, SessionEvent
from p2pwillow.session.record import HandRecord
from p2pwillow.session.refusal import Refusal
from p2pwillow.session.schedule import Due, Step
from p2pwillow.session.state import Sent, SessionState
from p2pwillow.session.steps import DecisionLike


@dataclass(frozen=True, slots=True)
class Wait:
    """A seat the hand waits for, and for what: the schedule's name of the step (`Step`), an
    entry kind, `layout`, or `decision` for a trading or betting decision (SPEC 7.4)."""

    seat: int
    step: str


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
    authored = AuthoredEntry.create(identity, game=game, hand=0, author=seat, body=body)
    return authored.sequence(0, bytes(32), identity)


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
        game = Game(config)
        for p in body.players:
            try:
                game.join(p.seat, p.name, p.identity_key)
            except RulesError as exc:
                raise RemoteProtocolError(
                    Reason.BAD_SEATING, str(exc), seq=0, kind="genesis", author=genesis.author
                ) from None
        if identity is not None and body.identity_keys().get(seat or 0) != identity.public_key:
            raise LocalProtocolError(f"this identity does not hold seat {seat} in the genesis")
        self._identity = identity
        self._rng = rng
        self._state = SessionState(seat, ledger, config, game)
        # the dealer's clock (SPEC 7.5): since when the chain has stood at this head
        self._clock_key: tuple[int, int] | None = None
        self._clock_since = 0.0

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
    def missing(self) -> tuple[Wait, ...]:
        """What the transcript so far lacks to be a finished game (SPEC 7.6), seat by seat:
        the `seat` of a genesis player who has not accepted; while a hand runs, what it waits
        for (7.4), or the dealer's `hand_end` once the rules have settled it; after it ended,
        the `head_signature` of each of its players who has not signed. Empty exactly when
        the game is complete; the one place that says what "complete" means."""
        st = self._state
        owed = tuple(dict.fromkeys(Wait(d.seat, d.step.value) for d in self.due()))
        if owed or schedule.when(st.ledger, st.hand) is not schedule.When.HAND:
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
        return schedule.dues(st.ledger, st.hand)

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
            for d in schedule.dues(st.ledger, r, schedule.Maker.PLAYER)
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
        hand = r.rules
        if hand.phase is not Phase.TRADING or schedule.blocked(r, give=False) is not None:
            return False
        return bool(hand.legal_actions(me))

    @property
    def decision_pending(self) -> bool:
        """The local player's last decision went to the sequencer and is neither applied nor
        refused yet."""
        return self._state.decision_pending

    # --- driving the session -------------------------------------------------------------------

    def poll(self) -> Output:
        """Emit any automatic step now due from the local seat (after construction, say)."""
        return self._auto()

    def receive(self, item: Entry | AuthoredEntry | Refusal) -> Output:
        """Take what a peer sent. A sequenced `Entry` is checked and applied (one already
        held is ignored). An `AuthoredEntry` is sequenced if this session is the sequencer;
        if the checks of SPEC 7.1 refuse it, nothing changes and the output holds a signed
        `Refusal` for its author (and an `EntryRefused` event). A `Refusal` of the local
        seat's pending decision drops that decision (SPEC 7.1); other refusals are ignored.

        A bad entry raises RemoteProtocolError naming it, its author and why, and changes
        nothing; so does an authored entry sent to a session that does not sequence it, and
        a refusal not signed by the hand's sequencer.
        """
        if isinstance(item, AuthoredEntry):
            return self._sequence_authored(item)
        if isinstance(item, Refusal):
            return self._take_refusal(item)
        if not isinstance(item, Entry):
            raise RemoteProtocolError(Reason.MALFORMED, f"not an entry: {type(item).__name__}")
        ledger = self._state.ledger
        if 0 <= item.seq <= ledger.head_seq and ledger.hash_of(item.seq) == item.hash:
            return Output()  # DESIGN 6: applying an entry twice is harmless
        events = self._apply(item)
        return Output((), tuple(events)) + self._auto()

    def replay(self, entry: Entry) -> tuple[SessionEvent, ...]:
        """Apply the next transcript entry strictly, as `willow verify` does (no duplicates,
        nothing sent)."""
        return tuple(self._apply(entry))

    def start_hand(self) -> Output:
        """As the next dealer, open the next hand (SPEC 7.3)."""
        me = self._me()
        st = self._state
        if not st.between_hands:
            raise IllegalAction("a hand is running, or the last one is not signed by everyone")
        if st.game.next_button() != me:
            raise IllegalAction(f"seat {st.game.next_button()} deals the next hand")
        players = [k.SeatStack(seat=p.seat, stack=p.stack) for p in st.game.players if p.plays]
        return self._emit(k.HandStart(dealer=me, players=players)) + self._auto()

    def act(self, decision: DecisionLike) -> Output:
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
        st.decision_sent = Sent(sent.sig, head) if isinstance(sent, AuthoredEntry) else None
        return out + self._auto()

    def handle_timer(self, now: float) -> Output:
        """The dealer's clock (SPEC 7.5): time out a player who let the action clock run
        out (check or fold, pass, decline, close trading), or abort a hand whose protocol
        stalled, blaming the stallers. Other sessions do nothing here."""
        st = self._state
        r = st.hand
        if r is None or r.ended or st.seat is None or r.dealer != st.seat:
            self._clock_key = None
            return Output()
        key = (r.number, st.ledger.head_seq)
        if key != self._clock_key:
            self._clock_key, self._clock_since = key, now
            return Output()
        if now - self._clock_since < st.config.action_clock:
            return Output()
        out = Output()
        hand = r.rules
        for due in schedule.dues(st.ledger, r):
            stall = schedule.RULE[due.step].stall
            if stall is schedule.Stall.TIMEOUT and st.hand is r and hand.can_timeout(due.seat):
                out += self._emit(k.Timeout(seat=due.seat))
        if out.send:
            return out + self._auto()
        owing = schedule.stalled(st.ledger, r)
        seats = sorted({d.seat for d in owing})
        named = sorted({d.step.value for d in owing})
        reason = f"seat(s) {', '.join(map(str, seats))} stalled: {', '.join(named)}"[:200]
        # SPEC 3.10, 7.5: the rules accept an abort only before the deal is complete.
        if seats and hand.can_abort(seats, reason):
            out += self._emit(k.Abort(blamed=seats, reason=reason))
        return out + self._auto()

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
        try:
            commit = checks.check(self._state, entry)
        except Rejected as exc:
            raise _fail(exc, entry) from None
        ledger.append(entry, checked=True)
        return commit()

    def _sequence_authored(self, authored: AuthoredEntry) -> Output:
        seat, identity = self._state.seat, self._identity
        if seat is None or identity is None:
            raise RemoteProtocolError(
                Reason.BAD_COUNTERSIGNATURE,
                "an observer sequences nothing",
                kind=authored.kind,
                author=authored.author,
            )
        ledger = self._state.ledger
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
        if refusal.hand != ledger.hand or refusal.sequencer != sequencer:
            return Output()  # about an earlier hand or sequencer: nothing pending can match
        key = ledger.identities.get(sequencer)
        if key is None or not refusal.verify(key):
            raise RemoteProtocolError(
                Reason.BAD_COUNTERSIGNATURE,
                f"a refusal not signed by the sequencer, seat {sequencer}",
                kind=refusal.kind,
                author=refusal.author,
            )
        sent = st.decision_sent
        if (
            refusal.author != st.seat
            or not st.decision_pending
            or sent is None
            or sent.sig != refusal.sig
            or refusal.head < sent.head
        ):
            return Output()
        st.decision_pending = False
        st.decision_sent = None
        refused = EntryRefused(refusal.author, refusal.kind, refusal.reason, refusal.detail)
        return Output((), (refused,))

    def _emit(self, body: Body, due: Due | None = None) -> Output:
        """Sign `body` as the local seat; sequence and apply it if this session sequences it,
        else send it to the sequencer (remembering the automatic step `due` as on its way)."""
        identity, me = self._identity, self._state.seat
        assert identity is not None and me is not None
        ledger = self._state.ledger
        hand = ledger.hand + 1 if isinstance(body, k.HandStart) else ledger.hand
        authored = AuthoredEntry.create(
            identity, game=self._state.game_id, hand=hand, author=me, body=body
        )
        entry = authored.sequence(ledger.head_seq + 1, ledger.head_hash, identity)
        if ledger.expected_sequencer(entry) != me:
            if due is not None:
                self._state.pending.add(due)
            return Output((authored,), ())
        try:
            events = self._apply(entry, signed_here=True, countersigned_here=True)
        except RemoteProtocolError as exc:
            raise LocalProtocolError(f"our own entry is refused: {exc}") from None
        return Output((entry,), tuple(events))

    def _auto(self) -> Output:
        """Emit every automatic step due from the local seat, until none is (SPEC 7.3)."""
        out = Output()
        if self._identity is None:
            return out
        for _ in range(10_000):
            due = steps.due_step(self._state)
            if due is None:
                return out
            out += self._emit(steps.make_step(self._state, due, self._random()), due)
        raise LocalProtocolError("automatic steps do not settle")  # pragma: no cover

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
