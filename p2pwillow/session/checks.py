"""The checks an entry passes before a session applies it: rules, order and proofs (SPEC 7).

Pure, no I/O. Each `_c_<kind>` raises `Rejected` or returns the commit that applies the entry;
nothing changes until that commit runs, so a refused entry leaves the session as it was.
"""

from __future__ import annotations

from collections.abc import Callable

from p2pwillow import mental
from p2pwillow.cards import Card
from p2pwillow.crypto.elgamal import Ciphertext
from p2pwillow.crypto.proofs import DleqBatchProof, DleqProof, KeyProof, ReencryptionProof
from p2pwillow.crypto.shuffle import ShuffleProof
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.chain import Ledger
from p2pwillow.ledger.entry import Entry
from p2pwillow.ledger.errors import Reason
from p2pwillow.ledger.fields import Body
from p2pwillow.mental import HandContext, MentalPokerError, PlayerHand
from p2pwillow.rules import (
    Announcement,
    ConfigError,
    Game,
    Phase,
    RulesError,
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


class EntryChecks:
    """The entry checks of a `Session`, which holds the state they read (declared here)."""

    _seat: int | None
    _ledger: Ledger
    _game: Game
    _hand: HandRecord | None
    _summaries: list[HandSummary]
    _pending: set[str]
    _after: dict[str, PlayerHand]
    _decision_pending: bool
    _made: codec.MadeValues

    @property
    def game_id(self) -> bytes:
        game = self._ledger.game
        assert game is not None
        return game

    @property
    def between_hands(self) -> bool:
        """No hand is running: the last one ended and all its players signed its head."""
        r = self._hand
        return self.seated and (r is None or (r.ended and r.signed >= set(r.order)))

    @property
    def seated(self) -> bool:
        """Every genesis player has accepted the table."""
        genesis = self._ledger.genesis
        assert genesis is not None
        return self._ledger.seated >= {p.seat for p in genesis.players}

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
            t = r.trade
            raise Rejected(
                ILLEGAL,
                f"the offer was accepted: trade {t.trade} of seats {t.offerer} and "
                f"{t.acceptor} is being completed, only its gives are due",
            )
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
            self._game.join(e.author, body.name, body.identity_key)
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
            self._made.clear()
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
        key = self._made.point(body.key, "key")
        proof = self._made.decode(KeyProof, KeyProof.from_hex, body.proof, "proof")
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
        deck = self._made.ciphertexts(body.deck, "deck")
        proof = self._made.decode(
            ShuffleProof,
            lambda t: ShuffleProof.from_hex(t, mental.DECK_SIZE),
            body.proof,
            "proof",
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
        points = tuple(self._made.point(s.share, f"shares[{i}]") for i, s in enumerate(body.shares))
        proof = self._made.decode(DleqBatchProof, DleqBatchProof.from_hex, body.proof, "proof")
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
        cts = self._made.ciphertexts([c.card for c in body.cards], "cards")
        made = tuple(
            self._made.decode(
                ReencryptionProof, ReencryptionProof.from_hex, c.proof, f"cards[{i}].proof"
            )
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
        cts = self._made.ciphertexts(body.cards, "cards")
        size = len(r.public.get(a, ()))
        if not r.dealt:
            raise Rejected(ILLEGAL, "no cards have been dealt")
        if len(cts) != size:
            raise Rejected(ILLEGAL, f"seat {a}'s hand holds {size} cards, not {len(cts)}")
        proof = self._made.decode(
            ShuffleProof, lambda t: ShuffleProof.from_hex(t, size), body.proof, "proof"
        )
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
        share = self._made.point(body.share, "share")
        proof = self._made.decode(DleqProof, DleqProof.from_hex, body.proof, "proof")
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
        stalled = {s for s, _ in r.protocol_waits()}
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

_CHECKS: dict[type[Body], Callable[[EntryChecks, Entry], Commit]] = {
    k.SeatAcceptance: EntryChecks._c_seat,
    k.Join: EntryChecks._c_join,
    k.Leave: EntryChecks._c_leave,
    k.HandStart: EntryChecks._c_hand_start,
    k.HandKey: EntryChecks._c_hand_key,
    k.DeckShuffle: EntryChecks._c_deck_shuffle,
    k.Announce: EntryChecks._c_announce,
    k.DealShares: EntryChecks._c_deal_shares,
    k.TradeGive: EntryChecks._c_trade_give,
    k.HandShuffle: EntryChecks._c_hand_shuffle,
    k.Reveal: EntryChecks._c_reveal,
    k.Timeout: EntryChecks._c_timeout,
    k.Abort: EntryChecks._c_abort,
    k.HandEnd: EntryChecks._c_hand_end,
    k.HeadSignature: EntryChecks._c_head,
    **{
        cls: EntryChecks._c_rules
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
