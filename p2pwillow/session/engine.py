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
# so a bad entry raises one RemoteProtocolError and leaves the session as it was. After each
# applied entry the session emits the automatic steps now due from its own seat (hand key,
# deck shuffle, deal shares, hand shuffle, reveal, hand end, head signature). The hand's dealer
# sequences: a player's entry goes to it as an AuthoredEntry; the dealer's session checks it,
# gives it seq and prev, countersigns, applies it and sends the Entry to everyone. A session
# with no identity and no seat is an observer: it checks everything and sends nothing.

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from p2pwillow import mental
from p2pwillow.cards import Card
from p2pwillow.crypto.elgamal import Ciphertext
from p2pwillow.crypto.group import Rng
from p2pwillow.crypto.proofs import DleqBatchProof, DleqProof, KeyProof, ReencryptionProof
from p2pwillow.crypto.shuffle import ShuffleProof
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.chain import Ledger
from p2pwillow.ledger.entry import AuthoredEntry, Entry
from p2pwillow.ledger.errors import LocalProtocolError, Reason, RemoteProtocolError
from p2pwillow.ledger.fields import Body
from p2pwillow.ledger.identity import Identity
from p2pwillow.mental import HandContext, MentalPokerError, PlayerHand
from p2pwillow.rules import (
    ActionKind,
    Announcement,
    ConfigError,
    Game,
    Hand,
    IllegalAction,
    Phase,
    RulesError,
    TableConfig,
    TradingClose,
    TradingMode,
)
from p2pwillow.session import codec
from p2pwillow.session.codec import Rejected
from p2pwillow.session.events import (
    CardsDealt,
    CardsReceived,
    HandClosed,
    HandStarted,
    HandSummary,
    Output,
    SessionEvent,
)
from p2pwillow.session.record import HandRecord, OpenTrade

ILLEGAL = Reason.ILLEGAL_ACTION
BAD_PROOF = Reason.BAD_PROOF

Commit = Callable[[], list[SessionEvent]]

# SPEC 7: rules actions carried by entries of these kinds, with no crypto behind them.
_DECISION_KINDS = frozenset(
    {
        k.Announce.KIND,
        k.Offer.KIND,
        k.Accept.KIND,
        k.Decline.KIND,
        k.Withdraw.KIND,
        k.Pass.KIND,
        k.CloseTrading.KIND,
        k.TradeGive.KIND,
        k.Check.KIND,
        k.Bet.KIND,
        k.Call.KIND,
        k.Raise.KIND,
        k.Fold.KIND,
        k.AllIn.KIND,
    }
)


class DecisionLike(Protocol):
    """A player's decision (the bots' `Decision` has this shape): exactly one rules action."""

    @property
    def kind(self) -> ActionKind: ...
    @property
    def amount(self) -> int | None: ...
    @property
    def k(self) -> int | None: ...
    @property
    def positions(self) -> tuple[int, ...] | None: ...
    @property
    def announcement(self) -> Announcement | None: ...


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


def _rules(call: Callable[[], object]) -> None:
    """Run a rules check; IllegalAction becomes Rejected(illegal-action)."""
    try:
        call()
    except RulesError as exc:
        raise Rejected(ILLEGAL, str(exc)) from None


def _mental(call: Callable[[], object]) -> None:
    try:
        call()
    except MentalPokerError as exc:
        raise Rejected(BAD_PROOF, str(exc)) from None


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
                self._game.join(p.seat, p.name)
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
        self._after: dict[str, PlayerHand] = {}
        self._clock_key: tuple[int, int] | None = None
        self._clock_since = 0.0

    # --- what the session knows ----------------------------------------------------------------

    @property
    def seat(self) -> int | None:
        return self._seat

    @property
    def game_id(self) -> bytes:
        game = self._ledger.game
        assert game is not None
        return game

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
    def seated(self) -> bool:
        """Every genesis player has accepted the table."""
        genesis = self._ledger.genesis
        assert genesis is not None
        return self._ledger.seated >= {p.seat for p in genesis.players}

    @property
    def between_hands(self) -> bool:
        """No hand is running: the last one ended and all its players signed its head."""
        r = self._hand
        return self.seated and (r is None or (r.ended and r.signed >= set(r.order)))

    @property
    def complete(self) -> bool:
        """The transcript so far is a finished game: seated, no hand open or unsigned."""
        return self.between_hands

    @property
    def cards(self) -> tuple[Card, ...]:
        """The local player's hand by position (empty before the deal or for an observer)."""
        r = self._hand
        return () if r is None or r.held is None else r.held.cards

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
        waits = [Wait(s, step) for s, step in self._protocol_waits(r)]
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

    # --- driving the session -------------------------------------------------------------------

    def poll(self) -> Output:
        """Emit any automatic step now due from the local seat (after construction, say)."""
        return self._auto()

    def receive(self, item: Entry | AuthoredEntry) -> Output:
        """Take an entry from a peer. A sequenced `Entry` is checked and applied (one already
        held is ignored); an `AuthoredEntry` is sequenced if this session is the sequencer.

        A bad entry raises RemoteProtocolError naming it, its author and why, and changes
        nothing.
        """
        if isinstance(item, AuthoredEntry):
            return self._sequence_authored(item)
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
        self._decision_pending = True
        try:
            out = self._emit(body, f"{r.number}/decision/{self._ledger.head_seq}")
        except Exception:
            self._decision_pending = False
            raise
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
        stalled = sorted({s for s, _ in self._protocol_waits(r)})
        if stalled:
            steps = sorted({step for _, step in self._protocol_waits(r)})
            reason = f"seat(s) {', '.join(map(str, stalled))} stalled: {', '.join(steps)}"
            out += self._emit(k.Abort(blamed=stalled, reason=reason[:200]), f"{r.number}/abort")
        return out + self._auto()

    # --- the one path for entries ------------------------------------------------------------

    def _apply(self, entry: Entry) -> list[SessionEvent]:
        self._ledger.check_next(entry)
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
        events = self._apply(draft)
        return Output((draft,), tuple(events)) + self._auto()

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
            events = self._apply(entry)
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

    # --- what is due from the local seat ---------------------------------------------------------

    def _due(self) -> tuple[str, Callable[[], Body]] | None:
        me = self._seat
        assert me is not None
        ledger = self._ledger
        if ledger.hand == 0:
            genesis = ledger.genesis
            assert genesis is not None
            key = "0/seat"
            named = me in {p.seat for p in genesis.players}
            if named and me not in ledger.seated and key not in self._pending:
                return key, lambda: k.SeatAcceptance(genesis=ledger.hash_of(0).hex())
            return None
        r = self._hand
        if r is None or me not in r.order:
            return None
        candidates = self._due_in_hand(r, me)
        for key, make in candidates:
            if key not in self._pending:
                return key, make
        return None

    def _due_in_hand(self, r: HandRecord, me: int) -> list[tuple[str, Callable[[], Body]]]:
        n = r.number
        hand = r.rules
        out: list[tuple[str, Callable[[], Body]]] = []
        if r.ended:
            head = self._ledger.hand_ended_by
            if me not in r.signed and head is not None:
                out.append((f"{n}/head", lambda: k.HeadSignature(head=head.hex())))
            return out
        if me not in r.keys:
            out.append((f"{n}/hand_key", lambda: self._make_hand_key(r, me)))
        if r.joint is not None and r.shuffled < len(r.order) and r.order[r.shuffled] == me:
            out.append((f"{n}/deck_shuffle", lambda: self._make_deck_shuffle(r, me)))
        if r.plan is not None and r.shuffled == len(r.order) and me not in r.shares:
            out.append((f"{n}/deal_shares", lambda: self._make_deal_shares(r, me)))
        if me in r.owed_shuffles:
            t = r.owed_shuffles[me]
            out.append((f"{n}/hand_shuffle/{t}", lambda: self._make_hand_shuffle(r, me, t)))
        if hand.phase is Phase.REVEAL and me in hand.to_act():
            rnd = hand.betting_round
            out.append((f"{n}/reveal/{rnd}", lambda: self._make_reveal(r, me, rnd - 1)))
        if hand.phase is Phase.COMPLETE and r.dealer == me:
            out.append((f"{n}/hand_end", lambda: self._make_hand_end(r)))
        return out

    def _protocol_waits(self, r: HandRecord) -> list[tuple[int, str]]:
        """Seats that owe a protocol step with no default action (SPEC 7.5)."""
        hand = r.rules
        waits: list[tuple[int, str]] = []
        waits += [(s, k.HandKey.KIND) for s in r.order if s not in r.keys]
        if r.joint is not None and r.shuffled < len(r.order):
            waits.append((r.order[r.shuffled], k.DeckShuffle.KIND))
        if r.plan is not None and r.shuffled == len(r.order):
            waits += [(s, k.DealShares.KIND) for s in r.order if s not in r.shares]
        waits += [(s, k.HandShuffle.KIND) for s in sorted(r.owed_shuffles)]
        if r.trade is not None:
            t = r.trade
            waits += [(s, k.TradeGive.KIND) for s in (t.offerer, t.acceptor) if s not in t.gives]
        if hand.phase is Phase.LAYOUT:
            waits += [(s, "layout") for s in hand.to_act()]
        if hand.phase is Phase.REVEAL:
            waits += [(s, k.Reveal.KIND) for s in hand.to_act()]
        if hand.phase is Phase.ANNOUNCE:
            waits.append((r.dealer, k.Announce.KIND))
        return waits

    # --- making the local player's steps ------------------------------------------------------

    def _random(self) -> Rng:
        assert self._rng is not None
        return self._rng

    def _make_hand_key(self, r: HandRecord, me: int) -> Body:
        secret, key = mental.make_hand_key(r.ctx, me, self._random())
        r.secret = secret
        return k.HandKey(key=key.public.hex(), proof=key.proof.hex())

    def _make_deck_shuffle(self, r: HandRecord, me: int) -> Body:
        assert r.joint is not None
        step = mental.make_deck_shuffle(r.ctx, me, r.joint, r.deck, self._random())
        return k.DeckShuffle(deck=codec.hexes(step.ciphertexts), proof=step.proof.hex())

    def _make_deal_shares(self, r: HandRecord, me: int) -> Body:
        assert r.plan is not None and r.secret is not None
        made = mental.make_deal_shares(r.ctx, me, r.secret, r.plan, r.deck, self._random())
        positions = r.plan.shared_positions(me)
        return k.DealShares(
            shares=[
                k.DealShare(position=p, share=s.hex())
                for p, s in zip(positions, made.shares, strict=True)
            ],
            proof=made.proof.hex(),
        )

    def _make_hand_shuffle(self, r: HandRecord, me: int, trade: int) -> Body:
        assert r.secret is not None and r.held is not None
        step, after = mental.make_hand_shuffle(r.ctx, me, trade, r.secret, r.held, self._random())
        self._after[f"{r.number}/hand_shuffle/{trade}"] = after
        return k.HandShuffle(
            purpose="trade",
            trade=trade,
            cards=codec.hexes(step.ciphertexts),
            proof=step.proof.hex(),
        )

    def _make_reveal(self, r: HandRecord, me: int, index: int) -> Body:
        assert r.secret is not None
        made = mental.make_reveal(r.ctx, me, r.secret, r.layouts[me], index, self._random())
        return k.Reveal(card=index, share=made.share.hex(), proof=made.proof.hex())

    def _make_hand_end(self, r: HandRecord) -> Body:
        result = r.rules.result
        assert result is not None
        return k.HandEnd(
            players=[k.SeatStack(seat=s, stack=result.stack(s)) for s in sorted(result.seats)]
        )

    def _decision_body(self, r: HandRecord, me: int, d: DecisionLike) -> Body:
        hand = r.rules
        kind = d.kind
        if kind is ActionKind.ANNOUNCE:
            a = d.announcement
            if a is None:
                raise IllegalAction("an announcement is needed")
            hand.verify_announce(me, a)
            return k.Announce(
                deal_size=a.deal_size,
                trading_mode=a.trading_mode.value,
                closing=a.closing.value,
                orbits=a.orbits or 0,
            )
        if kind is ActionKind.OFFER:
            if d.k is None:
                raise IllegalAction("an offer needs k")
            hand.verify_offer(me, d.k)
            return k.Offer(k=d.k)
        if kind in (ActionKind.ACCEPT, ActionKind.DECLINE, ActionKind.WITHDRAW):
            {
                ActionKind.ACCEPT: hand.verify_accept,
                ActionKind.DECLINE: hand.verify_decline,
                ActionKind.WITHDRAW: hand.verify_withdraw,
            }[kind](me)
            assert r.offer_seq is not None
            cls = {ActionKind.ACCEPT: k.Accept, ActionKind.DECLINE: k.Decline}.get(kind, k.Withdraw)
            return cls(offer=r.offer_seq)
        if kind is ActionKind.PASS:
            hand.verify_pass_turn(me)
            return k.Pass()
        if kind is ActionKind.CLOSE_TRADING:
            hand.verify_close_trading(me)
            return k.CloseTrading()
        if kind is ActionKind.CHOOSE_TRADE_CARDS:
            return self._make_trade_give(r, me, d.positions)
        if kind is ActionKind.LAY_OUT:
            return self._make_layout(r, me, d.positions)
        if kind is ActionKind.CHECK:
            hand.verify_check(me)
            return k.Check()
        if kind is ActionKind.CALL:
            hand.verify_call(me)
            return k.Call()
        if kind is ActionKind.FOLD:
            hand.verify_fold(me)
            return k.Fold()
        if kind is ActionKind.ALL_IN:
            hand.verify_all_in(me)
            return k.AllIn()
        if kind in (ActionKind.BET, ActionKind.RAISE):
            if d.amount is None:
                raise IllegalAction(f"a {kind.value} needs an amount")
            if kind is ActionKind.BET:
                hand.verify_bet(me, d.amount)
                return k.Bet(amount=d.amount)
            hand.verify_raise_to(me, d.amount)
            return k.Raise(to=d.amount)
        raise IllegalAction(f"{kind!r} is not a player's decision")

    def _make_trade_give(self, r: HandRecord, me: int, positions: tuple[int, ...] | None) -> Body:
        t = r.trade
        if positions is None or t is None:
            raise IllegalAction("no trade to give cards in, or no positions")
        ascending = tuple(sorted(positions))
        r.rules.verify_choose_trade_cards(me, ascending)
        assert r.secret is not None and r.held is not None
        other = t.other(me)
        give = mental.make_trade_give(
            r.ctx, me, t.trade, r.secret, r.held, ascending, r.keys[other], self._random()
        )
        return k.TradeGive(
            trade=t.trade,
            to=other,
            cards=[
                k.TradedCard(position=p, card=ct.hex(), proof=pf.hex())
                for p, ct, pf in zip(give.positions, give.ciphertexts, give.proofs, strict=True)
            ],
        )

    def _make_layout(self, r: HandRecord, me: int, positions: tuple[int, ...] | None) -> Body:
        r.rules.verify_lay_out(me)
        held = r.held
        if me in r.owed_shuffles or held is None:
            raise IllegalAction("the hand shuffle after the last trade comes first")
        size = len(held.cards)
        if (
            positions is None
            or len(positions) != mental.LAYOUT_SIZE
            or len(set(positions)) != mental.LAYOUT_SIZE
            or not all(isinstance(p, int) and 0 <= p < size for p in positions)
        ):
            raise IllegalAction(f"a layout is 5 distinct positions of 0..{size - 1}")
        assert r.secret is not None
        cards = [held.cards[p] for p in positions]
        step, after = mental.make_layout(r.ctx, me, r.secret, held, cards, self._random())
        self._after[f"{r.number}/layout"] = after
        return k.HandShuffle(
            purpose="layout", trade=0, cards=codec.hexes(step.ciphertexts), proof=step.proof.hex()
        )

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

    def _check(self, e: Entry) -> Commit:
        body = e.body
        check = _CHECKS.get(type(body))
        if check is None:
            raise Rejected(ILLEGAL, f"a session does not accept {e.kind} entries")
        return check(self, e)

    def _verifies(self, e: Entry) -> bool:
        """Whether to check proofs: always, except in the local seat's own entries."""
        return self._seat is None or e.author != self._seat

    def _live(self, e: Entry) -> HandRecord:
        r = self._hand
        if r is None or r.ended or r.number != e.hand:
            raise Rejected(ILLEGAL, "no hand is running")
        if e.author not in r.order:
            raise Rejected(ILLEGAL, f"seat {e.author} is not in hand {r.number}")
        return r

    def _trading(self, e: Entry) -> HandRecord:
        r = self._live(e)
        if r.owed_shuffles:
            seats = ", ".join(map(str, sorted(r.owed_shuffles)))
            raise Rejected(ILLEGAL, f"waiting for the hand shuffle of seat(s) {seats}")
        if r.trade is not None and e.kind != k.TradeGive.KIND:
            raise Rejected(ILLEGAL, "a trade is being completed: its gives come first")
        return r

    def _done(self, e: Entry) -> None:
        """Bookkeeping shared by every commit: the local seat's step has arrived."""
        if e.author == self._seat and e.kind in _DECISION_KINDS | {k.HandShuffle.KIND}:
            self._decision_pending = False

    # hand 0 and between hands

    def _c_seat(self, e: Entry) -> Commit:
        return lambda: []

    def _between(self, what: str) -> None:
        if not self.between_hands:
            raise Rejected(ILLEGAL, f"{what} only between hands")

    def _c_join(self, e: Entry) -> Commit:
        body = e.body
        assert isinstance(body, k.Join)
        self._between("a player joins")

        def commit() -> list[SessionEvent]:
            self._game.join(e.author, body.name)
            return []

        return commit

    def _c_leave(self, e: Entry) -> Commit:
        self._between("a player leaves")

        def commit() -> list[SessionEvent]:
            self._game.leave(e.author)
            return []

        return commit

    def _c_hand_start(self, e: Entry) -> Commit:
        body = e.body
        assert isinstance(body, k.HandStart)
        self._between("a hand starts")
        game = self._game
        try:
            dealer = game.next_button()
        except RulesError as exc:
            raise Rejected(ILLEGAL, str(exc)) from None
        if body.dealer != dealer:
            raise Rejected(ILLEGAL, f"seat {dealer} deals hand {e.hand}, not seat {body.dealer}")
        expected = [(p.seat, p.stack) for p in game.players if p.plays]
        got = [(p.seat, p.stack) for p in body.players]
        if got != expected:
            raise Rejected(ILLEGAL, f"the hand's seats and stacks must be {expected}")

        def commit() -> list[SessionEvent]:
            hand = game.start_hand()
            assert hand.hand_number == e.hand
            ctx = HandContext(self.game_id, e.hand)
            self._hand = HandRecord(e.hand, dealer, hand, ctx, hand.seats)
            self._pending = set()
            self._after = {}
            self._decision_pending = False
            return [HandStarted(e.hand, dealer, hand.seats)]

        return commit

    # mental-poker steps

    def _c_hand_key(self, e: Entry) -> Commit:
        body = e.body
        assert isinstance(body, k.HandKey)
        r = self._live(e)
        a = e.author
        if a in r.keys:
            raise Rejected(ILLEGAL, f"seat {a} has already published its hand key")
        key = codec.point(body.key, "key")
        proof = codec.decode(KeyProof.from_hex, body.proof, "proof")
        if self._verifies(e):
            _mental(lambda: mental.check_hand_key(r.ctx, a, mental.HandKey(key, proof)))
        keys = {**r.keys, a: key}
        joint = None
        if len(keys) == len(r.order):
            try:
                joint = mental.joint_key(keys[s] for s in r.order)
            except MentalPokerError as exc:
                raise Rejected(BAD_PROOF, str(exc)) from None

        def commit() -> list[SessionEvent]:
            r.keys[a] = key
            r.proofs["schnorr"] += self._verifies(e)
            if joint is not None:
                r.joint = joint
                r.deck = mental.starting_deck(joint)
            return []

        return commit

    def _c_deck_shuffle(self, e: Entry) -> Commit:
        body = e.body
        assert isinstance(body, k.DeckShuffle)
        r = self._live(e)
        a = e.author
        joint = r.joint
        if joint is None:
            raise Rejected(ILLEGAL, "the deck is shuffled once every hand key is in")
        if r.shuffled >= len(r.order):
            raise Rejected(ILLEGAL, "the deck has been shuffled by everyone")
        if r.order[r.shuffled] != a:
            raise Rejected(ILLEGAL, f"seat {r.order[r.shuffled]} shuffles the deck next")
        deck = codec.ciphertexts(body.deck, "deck")
        proof = codec.decode(
            lambda t: ShuffleProof.from_hex(t, mental.DECK_SIZE), body.proof, "proof"
        )
        if self._verifies(e):
            step = mental.DeckShuffle(deck, proof)
            _mental(lambda: mental.check_deck_shuffle(r.ctx, a, joint, r.deck, step))

        def commit() -> list[SessionEvent]:
            r.deck = deck
            r.shuffled += 1
            r.proofs["shuffle"] += self._verifies(e)
            return []

        return commit

    def _c_announce(self, e: Entry) -> Commit:
        body = e.body
        assert isinstance(body, k.Announce)
        r = self._live(e)
        try:
            a = Announcement(
                body.deal_size,
                TradingMode(body.trading_mode),
                TradingClose(body.closing),
                body.orbits or None,
            )
        except (ConfigError, ValueError) as exc:
            raise Rejected(ILLEGAL, str(exc)) from None
        _rules(lambda: r.rules.verify_announce(e.author, a))
        plan = mental.deal_plan(r.order, r.dealer, a.deal_size)

        def commit() -> list[SessionEvent]:
            self._done(e)
            event = r.rules.announce(e.author, a)
            r.plan = plan
            return [event]

        return commit

    def _c_deal_shares(self, e: Entry) -> Commit:
        body = e.body
        assert isinstance(body, k.DealShares)
        r = self._live(e)
        a = e.author
        plan = r.plan
        if plan is None or r.shuffled < len(r.order):
            raise Rejected(ILLEGAL, "deal shares follow the announcement and the whole shuffle")
        if a in r.shares:
            raise Rejected(ILLEGAL, f"seat {a} has already published its deal shares")
        positions = tuple(s.position for s in body.shares)
        if positions != plan.shared_positions(a):
            raise Rejected(
                ILLEGAL, f"shares must be for positions {list(plan.shared_positions(a))}"
            )
        points = tuple(codec.point(s.share, f"shares[{i}]") for i, s in enumerate(body.shares))
        proof = codec.decode(DleqBatchProof.from_hex, body.proof, "proof")
        made = mental.DealShares(points, proof)
        if self._verifies(e):
            key = r.keys[a]
            _mental(lambda: mental.check_deal_shares(r.ctx, a, key, plan, r.deck, made))
        shares = {**r.shares, a: made}
        public: dict[int, tuple[Ciphertext, ...]] = {}
        held = None
        if len(shares) == len(r.order):
            _rules(r.rules.verify_deal)
            for seat in r.order:
                public[seat] = mental.owner_ciphertexts(plan, r.deck, shares, seat)
            if self._seat is not None and r.secret is not None:
                secret = r.secret
                try:
                    held = PlayerHand.open(public[self._seat], secret)
                except MentalPokerError as exc:
                    raise Rejected(BAD_PROOF, f"our dealt cards do not open: {exc}") from None

        def commit() -> list[SessionEvent]:
            r.shares[a] = made
            r.proofs["dleq-batch"] += self._verifies(e)
            if not public:
                return []
            r.public = public
            events = self._rules_events(r.rules.deal)
            if held is not None and self._seat is not None:
                r.held = held
                events.append(CardsDealt(self._seat, held.cards))
            return events

        return commit

    def _c_trade_give(self, e: Entry) -> Commit:
        body = e.body
        assert isinstance(body, k.TradeGive)
        r = self._trading(e)
        a = e.author
        t = r.trade
        if t is None:
            raise Rejected(ILLEGAL, "no trade has been agreed")
        if a not in (t.offerer, t.acceptor):
            raise Rejected(ILLEGAL, f"seat {a} is not a side of trade {t.trade}")
        if a in t.gives:
            raise Rejected(ILLEGAL, f"seat {a} has already given its cards")
        if body.trade != t.trade or body.to != t.other(a):
            raise Rejected(ILLEGAL, f"this is trade {t.trade}, giving to seat {t.other(a)}")
        positions = tuple(c.position for c in body.cards)
        _rules(lambda: r.rules.verify_choose_trade_cards(a, positions))
        cts = codec.ciphertexts([c.card for c in body.cards], "cards")
        made = tuple(
            codec.decode(ReencryptionProof.from_hex, c.proof, f"cards[{i}].proof")
            for i, c in enumerate(body.cards)
        )
        give = mental.TradeGive(positions, cts, made)
        if self._verifies(e):
            keys, held = r.keys, r.public[a]
            _mental(
                lambda: mental.check_trade_give(
                    r.ctx, a, t.trade, keys[a], keys[t.other(a)], held, t.k, give
                )
            )
        gives = {**t.gives, a: (positions, cts)}
        me = self._seat
        mine: PlayerHand | None = None
        got: tuple[Card, ...] = ()
        lost: tuple[Card, ...] = ()
        if len(gives) == 2 and me in gives and r.held is not None and r.secret is not None:
            mine_pos = gives[me][0]
            received = gives[t.other(me)][1]
            try:
                mine = mental.trade_hand(r.held, r.secret, mine_pos, received)
            except MentalPokerError as exc:
                raise Rejected(BAD_PROOF, f"the cards received do not open: {exc}") from None
            got = mine.cards[-len(received) :]
            lost = tuple(r.held.cards[p] for p in mine_pos)

        def commit() -> list[SessionEvent]:
            self._done(e)
            t.gives[a] = (positions, cts)
            r.proofs["reencryption"] += len(made) if self._verifies(e) else 0
            events = self._rules_events(lambda: r.rules.choose_trade_cards(a, positions))
            if len(t.gives) < 2:
                return events
            for seat in (t.offerer, t.acceptor):
                other = t.other(seat)
                r.public[seat] = mental.apply_trade(
                    r.public[seat], t.gives[seat][0], t.gives[other][1]
                )
                r.owed_shuffles[seat] = t.trade
            r.trade = None
            r.offer_seq = None
            if mine is not None and me is not None:
                other = t.other(me)
                r.held = mine
                r.given[other] = r.given.get(other, ()) + lost
                r.received[other] = r.received.get(other, ()) + got
                events.append(CardsReceived(other, got))
            return events

        return commit

    def _c_hand_shuffle(self, e: Entry) -> Commit:
        body = e.body
        assert isinstance(body, k.HandShuffle)
        r = self._live(e)
        a = e.author
        cts = codec.ciphertexts(body.cards, "cards")
        size = len(r.public.get(a, ()))
        if not r.dealt:
            raise Rejected(ILLEGAL, "no cards have been dealt")
        if len(cts) != size:
            raise Rejected(ILLEGAL, f"seat {a}'s hand holds {size} cards, not {len(cts)}")
        proof = codec.decode(lambda t: ShuffleProof.from_hex(t, size), body.proof, "proof")
        step = mental.HandShuffle(cts, proof)
        key, before = r.keys[a], r.public[a]
        layout: mental.Layout | None = None
        if body.purpose == "trade":
            if r.owed_shuffles.get(a) != body.trade:
                raise Rejected(ILLEGAL, f"seat {a} owes no hand shuffle after trade {body.trade}")
            if self._verifies(e):
                t = body.trade
                _mental(lambda: mental.check_hand_shuffle(r.ctx, a, t, key, before, step))
        else:
            if a in r.owed_shuffles:
                raise Rejected(ILLEGAL, f"seat {a} owes its hand shuffle first")
            _rules(lambda: r.rules.verify_lay_out(a))
            if self._verifies(e):
                _mental(lambda: mental.check_layout(r.ctx, a, key, before, step))
            layout = mental.Layout.split(cts)
        private = f"{r.number}/{'layout' if layout is not None else f'hand_shuffle/{body.trade}'}"

        def commit() -> list[SessionEvent]:
            self._done(e)
            r.public[a] = cts
            r.proofs["shuffle"] += self._verifies(e)
            events: list[SessionEvent] = []
            if layout is None:
                del r.owed_shuffles[a]
            else:
                r.layouts[a] = layout
                events.append(r.rules.lay_out(a))
            if a == self._seat and private in self._after:
                r.held = self._after.pop(private)
                if layout is not None:
                    r.layout = r.held.cards[: mental.LAYOUT_SIZE]
            return events

        return commit

    def _c_reveal(self, e: Entry) -> Commit:
        body = e.body
        assert isinstance(body, k.Reveal)
        r = self._live(e)
        a = e.author
        hand = r.rules
        if hand.phase is not Phase.REVEAL:
            raise Rejected(ILLEGAL, f"no card is turned in the {hand.phase.value} phase")
        if body.card != hand.betting_round - 1:
            raise Rejected(
                ILLEGAL, f"round {hand.betting_round} turns layout card {hand.betting_round - 1}"
            )
        layout = r.layouts.get(a)
        if layout is None:
            raise Rejected(ILLEGAL, f"seat {a} has no layout")
        share = codec.point(body.share, "share")
        proof = codec.decode(DleqProof.from_hex, body.proof, "proof")
        found: list[Card] = []

        def check() -> None:
            found.append(
                mental.check_reveal(
                    r.ctx, a, r.keys[a], layout, body.card, mental.Reveal(share, proof)
                )
            )

        _mental(check)
        card = found[0]
        _rules(lambda: hand.verify_reveal(a, card))

        def commit() -> list[SessionEvent]:
            r.proofs["dleq"] += 1
            return self._rules_events(lambda: hand.reveal(a, card))

        return commit

    def _rules_events(self, action: Callable[[], object]) -> list[SessionEvent]:
        """Run a rules action and return every event it produced (with those it triggered)."""
        hand = self._hand
        assert hand is not None
        before = len(hand.rules.events)
        action()
        return list(hand.rules.events[before:])

    # trading and betting actions

    def _c_rules(self, e: Entry) -> Commit:
        """Trading and betting entries that are nothing but a rules action."""
        body = e.body
        a = e.author
        r = self._trading(e) if not isinstance(body, _BETTING_BODIES) else self._live(e)
        hand = r.rules
        verify: Callable[[], object]
        act: Callable[[], object]
        if isinstance(body, k.Offer):
            verify, act = (lambda: hand.verify_offer(a, body.k)), (lambda: hand.offer(a, body.k))
        elif isinstance(body, k.Accept | k.Decline | k.Withdraw):
            if r.offer_seq is None or body.offer != r.offer_seq:
                raise Rejected(ILLEGAL, f"offer {body.offer} is not the open offer")
            if isinstance(body, k.Accept):
                verify, act = (lambda: hand.verify_accept(a)), (lambda: hand.accept(a))
            elif isinstance(body, k.Decline):
                verify, act = (lambda: hand.verify_decline(a)), (lambda: hand.decline(a))
            else:
                verify, act = (lambda: hand.verify_withdraw(a)), (lambda: hand.withdraw(a))
        elif isinstance(body, k.Pass):
            verify, act = (lambda: hand.verify_pass_turn(a)), (lambda: hand.pass_turn(a))
        elif isinstance(body, k.CloseTrading):
            verify, act = (lambda: hand.verify_close_trading(a)), (lambda: hand.close_trading(a))
        elif isinstance(body, k.Check):
            verify, act = (lambda: hand.verify_check(a)), (lambda: hand.check(a))
        elif isinstance(body, k.Call):
            verify, act = (lambda: hand.verify_call(a)), (lambda: hand.call(a))
        elif isinstance(body, k.Fold):
            verify, act = (lambda: hand.verify_fold(a)), (lambda: hand.fold(a))
        elif isinstance(body, k.AllIn):
            verify, act = (lambda: hand.verify_all_in(a)), (lambda: hand.all_in(a))
        elif isinstance(body, k.Bet):
            verify = lambda: hand.verify_bet(a, body.amount)  # noqa: E731
            act = lambda: hand.bet(a, body.amount)  # noqa: E731
        elif isinstance(body, k.Raise):
            verify = lambda: hand.verify_raise_to(a, body.to)  # noqa: E731
            act = lambda: hand.raise_to(a, body.to)  # noqa: E731
        else:  # pragma: no cover - _CHECKS routes only the kinds above here
            raise Rejected(ILLEGAL, f"{e.kind} is not a rules action")
        _rules(verify)

        def commit() -> list[SessionEvent]:
            self._done(e)
            events = self._rules_events(act)
            self._after_rules(r, e)
            return events

        return commit

    def _after_rules(self, r: HandRecord, e: Entry) -> None:
        hand = r.rules
        if isinstance(e.body, k.Offer):
            r.offer_seq = e.seq
        elif isinstance(e.body, k.Accept):
            offer = hand.trade_sides
            assert offer is not None
            r.trade = OpenTrade(e.seq, offer[0], offer[1], offer[2])
            r.offer_seq = None
        if hand.open_offer is None and not isinstance(e.body, k.Accept):
            r.offer_seq = None

    def _c_timeout(self, e: Entry) -> Commit:
        body = e.body
        assert isinstance(body, k.Timeout)
        r = self._live(e)
        if e.author != r.dealer:
            raise Rejected(ILLEGAL, "only the dealer's clock times a player out")
        if r.owed_shuffles or r.trade is not None:
            raise Rejected(ILLEGAL, "a protocol step is due: it is aborted, not timed out")
        hand = r.rules
        _rules(lambda: hand.verify_timeout(body.seat))

        def commit() -> list[SessionEvent]:
            if body.seat == self._seat:
                self._decision_pending = False
            events = self._rules_events(lambda: hand.timeout(body.seat))
            self._after_rules(r, e)
            return events

        return commit

    def _c_abort(self, e: Entry) -> Commit:
        body = e.body
        assert isinstance(body, k.Abort)
        r = self._live(e)
        if e.author != r.dealer:
            raise Rejected(ILLEGAL, "only the dealer aborts the hand")
        stalled = {s for s, _ in self._protocol_waits(r)}
        blamed = tuple(body.blamed)
        if not blamed or not set(blamed) <= stalled:
            raise Rejected(
                ILLEGAL,
                f"an abort blames seats that owe a protocol step now: {sorted(stalled)}",
            )
        _rules(lambda: r.rules.verify_abort(blamed, body.reason))
        return lambda: self._close(r, e, lambda: r.rules.abort(blamed, body.reason), blamed)

    def _c_hand_end(self, e: Entry) -> Commit:
        body = e.body
        assert isinstance(body, k.HandEnd)
        r = self._live(e)
        hand = r.rules
        if e.author != r.dealer:
            raise Rejected(ILLEGAL, "the dealer ends the hand")
        result = hand.result
        if hand.phase is not Phase.COMPLETE or result is None:
            raise Rejected(ILLEGAL, f"the hand is not over ({hand.phase.value})")
        expected = [(s, result.stack(s)) for s in sorted(result.seats)]
        got = [(p.seat, p.stack) for p in body.players]
        if got != expected:
            raise Rejected(ILLEGAL, f"the stacks after the hand are {expected}")
        return lambda: self._close(r, e, lambda: None, ())

    def _close(
        self, r: HandRecord, e: Entry, action: Callable[[], object], blamed: tuple[int, ...]
    ) -> list[SessionEvent]:
        events = self._rules_events(action)
        r.ended = True
        r.blamed = blamed
        if isinstance(e.body, k.Abort):
            r.abort_reason = e.body.reason
        self._game.end_hand()
        summary = r.summary()
        self._summaries.append(summary)
        return [*events, HandClosed(summary)]

    def _c_head(self, e: Entry) -> Commit:
        r = self._hand
        if r is None or not r.ended:
            raise Rejected(ILLEGAL, "no ended hand to sign")

        def commit() -> list[SessionEvent]:
            r.signed.add(e.author)
            if r.signed >= set(r.order):
                self._summaries[-1] = r.summary()
            return []

        return commit


_BETTING_BODIES = (k.Check, k.Bet, k.Call, k.Raise, k.Fold, k.AllIn)

_CHECKS: dict[type[Body], Callable[[Session, Entry], Commit]] = {
    k.SeatAcceptance: Session._c_seat,
    k.Join: Session._c_join,
    k.Leave: Session._c_leave,
    k.HandStart: Session._c_hand_start,
    k.HandKey: Session._c_hand_key,
    k.DeckShuffle: Session._c_deck_shuffle,
    k.Announce: Session._c_announce,
    k.DealShares: Session._c_deal_shares,
    k.TradeGive: Session._c_trade_give,
    k.HandShuffle: Session._c_hand_shuffle,
    k.Reveal: Session._c_reveal,
    k.Timeout: Session._c_timeout,
    k.Abort: Session._c_abort,
    k.HandEnd: Session._c_hand_end,
    k.HeadSignature: Session._c_head,
    **{
        cls: Session._c_rules
        for cls in (
            k.Offer,
            k.Accept,
            k.Decline,
            k.Withdraw,
            k.Pass,
            k.CloseTrading,
            *_BETTING_BODIES,
        )
    },
}
