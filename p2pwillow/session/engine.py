"""One peer's engine: the ledger, the rules and the mental-poker steps tied together (SPEC 7).

Pure, sans I/O: entries and decisions come in, entries to send and events come out; time
enters only as `handle_timer(now)` and randomness only as the `rng` given at construction.
"""

# Theory of operation
# -------------------
# A `Session` holds one game's `Ledger`, the rules `Game` and, while a hand runs, a
# `HandRecord` with the hand's public crypto state (keys, deck, public hands, layouts) and,
# for a seated player, its secrets. Every entry goes through one path, `_apply`:
#
#   ledger.check_next (signature, countersignature, chain)  ->  _check_<kind> (rules, order,
#   proofs; returns a commit closure, mutates nothing)  ->  ledger.append  ->  commit()
#
# so a bad entry raises one RemoteProtocolError and leaves the session as it was (the checks
# live in `checks`). After each applied entry the session emits the automatic steps now due
# from its own seat (made in `steps`: hand key, deck shuffle, deal shares, hand shuffle,
# reveal, hand end, head signature). The hand's dealer
# sequences: a player's entry goes to it as an AuthoredEntry; the dealer's session checks it,
# gives it seq and prev, countersigns, applies it and sends the Entry to everyone. An authored
# entry it refuses (a race lost in free trading, say) goes back to its author as a signed
# `Refusal`; the author's session then drops its pending decision and may decide again.
# A session with no identity and no seat is an observer: it checks everything and sends
# nothing.

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from p2pwillow.cards import Card
from p2pwillow.crypto.group import Rng
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.chain import Ledger
from p2pwillow.ledger.entry import AuthoredEntry, Entry
from p2pwillow.ledger.errors import LocalProtocolError, Reason, RemoteProtocolError
from p2pwillow.ledger.fields import Body
from p2pwillow.ledger.identity import Identity
from p2pwillow.mental import PlayerHand
from p2pwillow.rules import (
    ConfigError,
    Game,
    Hand,
    IllegalAction,
    Phase,
    RulesError,
    TableConfig,
)
from p2pwillow.session import codec
from p2pwillow.session.checks import EntryChecks
from p2pwillow.session.codec import Rejected
from p2pwillow.session.events import (
    EntryRefused,
    HandSummary,
    Output,
    SessionEvent,
)
from p2pwillow.session.record import HandRecord
from p2pwillow.session.refusal import Refusal
from p2pwillow.session.steps import DecisionLike, LocalSteps

ILLEGAL = Reason.ILLEGAL_ACTION
BAD_PROOF = Reason.BAD_PROOF

Commit = Callable[[], list[SessionEvent]]


@dataclass(frozen=True, slots=True)
class Wait:
    """A seat the hand waits for, and for what (an entry kind or a rules action)."""

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


class Session(EntryChecks, LocalSteps):
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
        self._identity = identity
        self._seat = seat
        self._rng = rng
        self._ledger = Ledger()
        if not isinstance(genesis, Entry) or not isinstance(genesis.body, k.Genesis):
            raise RemoteProtocolError(Reason.BAD_SEATING, "the first entry must be the genesis")
        self._ledger.append(genesis)
        body = genesis.body
        try:
            self._config = TableConfig.from_dict(body.config)
        except ConfigError as exc:
            raise RemoteProtocolError(
                Reason.BAD_FIELD, f"genesis config: {exc}", seq=0, kind="genesis", author=0
            ) from None
        self._game = Game(self._config)
        for p in body.players:
            try:
                self._game.join(p.seat, p.name, p.identity_key)
            except RulesError as exc:
                raise RemoteProtocolError(
                    Reason.BAD_SEATING, str(exc), seq=0, kind="genesis", author=genesis.author
                ) from None
        if identity is not None and body.identity_keys().get(seat or 0) != identity.public_key:
            raise LocalProtocolError(f"this identity does not hold seat {seat} in the genesis")
        self._hand: HandRecord | None = None
        self._summaries: list[HandSummary] = []
        self._pending: set[str] = set()
        self._decision_pending = False
        self._decision_sent: tuple[bytes, int] | None = None
        """(sig, head seq) of the local decision on its way to the sequencer, if any."""
        self._after: dict[str, PlayerHand] = {}
        self._made = codec.MadeValues()
        self._clock_key: tuple[int, int] | None = None
        self._clock_since = 0.0

    # --- what the session knows ----------------------------------------------------------------

    @property
    def seat(self) -> int | None:
        return self._seat

    @property
    def config(self) -> TableConfig:
        return self._config

    @property
    def ledger(self) -> Ledger:
        """The chain as applied so far (read it; do not append to it)."""
        return self._ledger

    @property
    def game(self) -> Game:
        return self._game

    @property
    def hand(self) -> Hand | None:
        """The rules state of the current (or last) hand."""
        return None if self._hand is None else self._hand.rules

    @property
    def hand_number(self) -> int:
        return self._ledger.hand

    @property
    def sequencer(self) -> int:
        """The seat that sequences entries now (the dealer of the hand; SPEC 6.6)."""
        return self._ledger.sequencer

    @property
    def summaries(self) -> tuple[HandSummary, ...]:
        """One summary per hand that has ended, in order."""
        return tuple(self._summaries)

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
        genesis = self._ledger.genesis
        assert genesis is not None
        seated = self._ledger.seated
        unseated = [Wait(p.seat, k.SeatAcceptance.KIND) for p in genesis.players]
        if any(w.seat not in seated for w in unseated):
            return tuple(w for w in unseated if w.seat not in seated)
        r = self._hand
        if r is None:
            return ()
        if r.ended:
            return tuple(Wait(s, k.HeadSignature.KIND) for s in r.order if s not in r.signed)
        if r.rules.is_over:
            return (Wait(r.dealer, k.HandEnd.KIND),)
        # A running hand always waits for someone; the sequencer's next entry if not (7.4).
        return tuple(dict.fromkeys(self.waiting_for())) or (Wait(self.sequencer, "entry"),)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The local player's hand by position (empty before the deal or for an observer)."""
        r = self._hand
        return () if r is None or r.held is None else r.held.cards

    @property
    def hand_secret(self) -> int | None:
        """The local player's secret x of the current hand (SPEC 5.2) once drawn, so that a
        live node keeps it on disk before it sends the hand key; None before that and for an
        observer. Read only."""
        r = self._hand
        return None if r is None else r.secret

    @property
    def given(self) -> dict[int, tuple[Card, ...]]:
        r = self._hand
        return {} if r is None else dict(r.given)

    @property
    def received(self) -> dict[int, tuple[Card, ...]]:
        r = self._hand
        return {} if r is None else dict(r.received)

    @property
    def layout(self) -> tuple[Card, ...] | None:
        r = self._hand
        return None if r is None else r.layout

    def waiting_for(self) -> tuple[Wait, ...]:
        """What the hand waits for now, seat by seat (SPEC 7.4)."""
        r = self._hand
        if r is None or r.ended:
            return ()
        waits = [Wait(s, step) for s, step in r.protocol_waits()]
        hand = r.rules
        deciding = hand.phase in (Phase.TRADING, Phase.BETTING)
        if deciding and not r.owed_shuffles and r.trade is None:
            waits += [Wait(s, "decision") for s in hand.to_act()]
        if hand.phase is Phase.ANNOUNCE:
            waits.append(Wait(r.dealer, k.Announce.KIND))
        return tuple(waits)

    def decision_due(self) -> bool:
        """The local player must decide now: announce, trade, lay out or bet."""
        r = self._hand
        me = self._seat
        if r is None or me is None or r.ended or self._decision_pending:
            return False
        hand = r.rules
        if me not in hand.to_act():
            return False
        if hand.phase is Phase.ANNOUNCE:
            return True
        if hand.phase is Phase.LAYOUT:
            return r.held is not None and me not in r.owed_shuffles
        if hand.phase in (Phase.TRADING, Phase.BETTING):
            return not r.owed_shuffles
        return False

    def may_decide(self) -> bool:
        """The local player may decide now: a decision is due (`decision_due`), or trading is
        open with no trade being completed and the rules allow this seat an action the hand
        does not wait for (SPEC 3.5: an offer or a withdraw in free trading, the dealer's
        close where the dealer calls it). False while its last decision is on its way."""
        if self.decision_due():
            return True
        r = self._hand
        me = self._seat
        if r is None or me is None or r.ended or self._decision_pending or me not in r.order:
            return False
        hand = r.rules
        if hand.phase is not Phase.TRADING or r.owed_shuffles or r.trade is not None:
            return False
        return bool(hand.legal_actions(me))

    @property
    def decision_pending(self) -> bool:
        """The local player's last decision went to the sequencer and is neither applied nor
        refused yet."""
        return self._decision_pending

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
        if 0 <= item.seq <= self._ledger.head_seq and self._ledger.hash_of(item.seq) == item.hash:
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
        if not self.between_hands:
            raise IllegalAction("a hand is running, or the last one is not signed by everyone")
        if self._game.next_button() != me:
            raise IllegalAction(f"seat {self._game.next_button()} deals the next hand")
        players = [k.SeatStack(seat=p.seat, stack=p.stack) for p in self._game.players if p.plays]
        body = k.HandStart(dealer=me, players=players)
        return self._emit(body, f"{self._ledger.hand + 1}/hand_start") + self._auto()

    def act(self, decision: DecisionLike) -> Output:
        """The local player's decision, checked against the rules, as a signed entry.

        Raises IllegalAction (nothing sent, nothing changed) if the rules refuse it now.
        """
        r = self._live_local()
        me = self._me()
        if self._decision_pending:
            raise IllegalAction(f"seat {me}'s last decision is still on its way")
        if r.owed_shuffles and r.rules.phase is not Phase.LAYOUT:
            raise IllegalAction("waiting for the hand shuffles after the last trade")
        body = self._decision_body(r, me, decision)
        head = self._ledger.head_seq
        self._decision_pending = True
        try:
            out = self._emit(body, f"{r.number}/decision/{head}")
        except Exception:
            self._decision_pending = False
            raise
        sent = out.send[0] if out.send else None
        self._decision_sent = (sent.sig, head) if isinstance(sent, AuthoredEntry) else None
        return out + self._auto()

    def handle_timer(self, now: float) -> Output:
        """The dealer's clock (SPEC 7.5): time out a player who let the action clock run
        out (check or fold, pass, decline, close trading), or abort a hand whose protocol
        stalled, blaming the stallers. Other sessions do nothing here."""
        r = self._hand
        if r is None or r.ended or self._seat is None or r.dealer != self._seat:
            self._clock_key = None
            return Output()
        key = (r.number, self._ledger.head_seq)
        if key != self._clock_key:
            self._clock_key, self._clock_since = key, now
            return Output()
        if now - self._clock_since < self._config.action_clock:
            return Output()
        out = Output()
        hand = r.rules
        if not r.owed_shuffles and r.trade is None and hand.phase in (Phase.TRADING, Phase.BETTING):
            for seat in hand.to_act():
                if self._hand is r and hand.can_timeout(seat):
                    out += self._emit(k.Timeout(seat=seat), f"{r.number}/timeout/{seat}/{key[1]}")
            if out.send:
                return out + self._auto()
        stalled = sorted({s for s, _ in r.protocol_waits()})
        steps = sorted({step for _, step in r.protocol_waits()})
        reason = f"seat(s) {', '.join(map(str, stalled))} stalled: {', '.join(steps)}"[:200]
        # SPEC 3.10, 7.5: the rules accept an abort only before the deal is complete.
        if stalled and hand.can_abort(stalled, reason):
            out += self._emit(k.Abort(blamed=stalled, reason=reason), f"{r.number}/abort")
        return out + self._auto()

    # --- the one path for entries ------------------------------------------------------------

    def _apply(
        self, entry: Entry, *, signed_here: bool = False, countersigned_here: bool = False
    ) -> list[SessionEvent]:
        """Check and apply `entry`; `signed_here`/`countersigned_here`: this session has just
        made that signature itself, so verifying it again would prove nothing (SPEC 7.1)."""
        self._ledger.check_next(
            entry, author_signed_here=signed_here, countersigned_here=countersigned_here
        )
        try:
            commit = self._check(entry)
        except Rejected as exc:
            raise _fail(exc, entry) from None
        self._ledger.append(entry, checked=True)
        return commit()

    def _sequence_authored(self, authored: AuthoredEntry) -> Output:
        if self._seat is None or self._identity is None:
            raise RemoteProtocolError(
                Reason.BAD_COUNTERSIGNATURE,
                "an observer sequences nothing",
                kind=authored.kind,
                author=authored.author,
            )
        ledger = self._ledger
        draft = authored.sequence(ledger.head_seq + 1, ledger.head_hash, self._identity)
        if ledger.expected_sequencer(draft) != self._seat:
            raise RemoteProtocolError(
                Reason.BAD_COUNTERSIGNATURE,
                f"seat {ledger.expected_sequencer(draft)} sequences this entry, not {self._seat}",
                kind=authored.kind,
                author=authored.author,
            )
        try:
            events = self._apply(draft, countersigned_here=True)
        except RemoteProtocolError as exc:
            # SPEC 7.1: nothing is sequenced; the author hears why, so that its session can
            # drop the decision and decide again (a lost race in free trading, say).
            refusal = Refusal.create(
                self._identity, self._seat, ledger.head_seq, authored, exc.reason, exc.detail
            )
            refused = EntryRefused(authored.author, authored.kind, exc.reason, refusal.detail)
            return Output((refusal,), (refused,))
        return Output((draft,), tuple(events)) + self._auto()

    def _take_refusal(self, refusal: Refusal) -> Output:
        """SPEC 7.1: the sequencer refused an entry. If it is the local seat's decision still
        on its way, drop it; any other refusal (stale, another seat's) changes nothing."""
        ledger = self._ledger
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
        sent = self._decision_sent
        if (
            refusal.author != self._seat
            or not self._decision_pending
            or sent is None
            or sent[0] != refusal.sig
            or refusal.head < sent[1]
        ):
            return Output()
        self._decision_pending = False
        self._decision_sent = None
        refused = EntryRefused(refusal.author, refusal.kind, refusal.reason, refusal.detail)
        return Output((), (refused,))

    def _emit(self, body: Body, key: str) -> Output:
        """Sign `body` as the local seat; sequence and apply it if this session sequences it,
        else send it to the sequencer and remember that it is on its way."""
        identity, me = self._identity, self._seat
        assert identity is not None and me is not None
        ledger = self._ledger
        hand = ledger.hand + 1 if isinstance(body, k.HandStart) else ledger.hand
        authored = AuthoredEntry.create(
            identity, game=self.game_id, hand=hand, author=me, body=body
        )
        entry = authored.sequence(ledger.head_seq + 1, ledger.head_hash, identity)
        if ledger.expected_sequencer(entry) != me:
            self._pending.add(key)
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
            step = self._due()
            if step is None:
                return out
            key, make = step
            out += self._emit(make(), key)
        raise LocalProtocolError("automatic steps do not settle")  # pragma: no cover

    # --- checking entries: each returns the commit that applies it ---------------------------

    def _me(self) -> int:
        if self._seat is None:
            raise IllegalAction("an observer takes no part")
        return self._seat

    def _live_local(self) -> HandRecord:
        r = self._hand
        if r is None or r.ended:
            raise IllegalAction("no hand is running")
        return r
