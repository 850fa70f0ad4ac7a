"""One hand of Weeping Willow as a state machine: announce, deal, trade, lay out, five rounds of
reveal and betting, showdown (SPEC 3). Pure; no I/O, no clock, no randomness.

Every player action has three faces (SPEC 3.3): `verify_x(...)` raises IllegalAction with the
reason, `can_x(...)` answers, `x(...)` acts and returns a frozen event. An action that raises
changes nothing: each one is checked in full, then applied to a copy of the state that replaces
the old state only when the whole step has succeeded. The checks and steps themselves live in
`trade_flow` (announce, deal, trading), `rounds` (lay out, reveal, the rounds), `betting_round`
and `showdown`; this class holds the state and is the single path that commits a step.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from p2pwillow.cards import Card
from p2pwillow.hands import HandValue, best_hand
from p2pwillow.rules import betting_round, rounds, showdown, trade_flow
from p2pwillow.rules.betting import BetOptions
from p2pwillow.rules.config import TableConfig
from p2pwillow.rules.errors import ConfigError, IllegalAction, passes
from p2pwillow.rules.events import (
    Announced,
    BetPlaced,
    Called,
    CardRevealed,
    Checked,
    Dealt,
    Event,
    Folded,
    FoldedForStalling,
    HandAborted,
    LaidOut,
    OfferWithdrawn,
    Passed,
    Raised,
    TimedOut,
    TradeAccepted,
    TradeCardsChosen,
    TradeDeclined,
    TradeOffered,
    TradingClosed,
    WentAllIn,
)
from p2pwillow.rules.phases import ACTIONS_BY_PHASE, TERMINAL, ActionKind, Phase
from p2pwillow.rules.pots import HandResult
from p2pwillow.rules.state import (
    LAYOUT_SIZE,
    HandState,
    PlayerState,
    is_int,
    phase_allows,
    player,
    pot_chips,
    trading,
)
from p2pwillow.rules.trading import Announcement, Trade, TradeOffer, TradingMode

__all__ = ["LAYOUT_SIZE", "Hand", "HandState"]

E = TypeVar("E")


class Hand:
    """One hand at a table (SPEC 3). Seats are table seat numbers; the dealer holds the button.

    `seats` and `stacks` list the players in the hand and their stacks at its start; each
    stack must be at least one chip. Trade tokens are set aside from the stacks at once.
    """

    def __init__(
        self,
        config: TableConfig,
        seats: Sequence[int],
        stacks: Sequence[int],
        dealer: int,
        hand_number: int = 1,
    ) -> None:
        if not isinstance(config, TableConfig):
            raise ConfigError("a hand needs a TableConfig")
        seats = tuple(seats)
        stacks = tuple(stacks)
        if len(seats) != len(stacks):
            raise ConfigError(f"{len(seats)} seats but {len(stacks)} stacks")
        if not 2 <= len(seats) <= config.seats:
            raise ConfigError(f"a hand needs 2 to {config.seats} players, not {len(seats)}")
        for seat in seats:
            if not is_int(seat) or not 0 <= seat < config.seats:
                raise ConfigError(f"seat {seat!r} is not a seat 0..{config.seats - 1}")
        if len(set(seats)) != len(seats):
            raise ConfigError("a seat appears twice in the hand")
        for seat, stack in zip(seats, stacks, strict=True):
            if not is_int(stack) or stack < 1:
                raise ConfigError(f"seat {seat} needs at least one chip, not {stack!r}")
        if dealer not in seats:
            raise ConfigError(f"the dealer {dealer!r} is not in the hand")
        if not is_int(hand_number) or hand_number < 1:
            raise ConfigError(f"hand number must be a positive integer, not {hand_number!r}")
        self.config = config
        self.hand_number = hand_number
        # SPEC 3.2: clockwise = increasing seat number, wrapping; the dealer acts last.
        ranked = sorted(seats)
        after = [s for s in ranked if s > dealer] + [s for s in ranked if s <= dealer]
        players: dict[int, PlayerState] = {}
        for seat, stack in zip(seats, stacks, strict=True):
            # SPEC 3.4: tokens are set aside at the start; a short stack sets aside fewer.
            tokens = min(config.trade_tokens, stack // config.token_value)
            players[seat] = PlayerState(
                seat=seat,
                start_stack=stack,
                stack=stack - tokens * config.token_value,
                tokens=tokens,
                tokens_set_aside=tokens,
            )
        self._s = HandState(Phase.ANNOUNCE, dealer, tuple(after), players)
        self._events: list[Event] = []

    # --- reading the state -------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self._s.phase

    @property
    def dealer(self) -> int:
        return self._s.dealer

    @property
    def seats(self) -> tuple[int, ...]:
        """Seats in the hand, clockwise from the dealer's left (the dealer last)."""
        return self._s.order

    @property
    def announcement(self) -> Announcement | None:
        return self._s.announcement

    @property
    def betting_round(self) -> int:
        """1..5 once the reveals start, 0 before."""
        return self._s.betting_round

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    @property
    def result(self) -> HandResult | None:
        return self._s.result

    @property
    def is_over(self) -> bool:
        return self._s.phase in TERMINAL

    @property
    def pot(self) -> int:
        """All chips in the middle: token money plus every bet."""
        return pot_chips(self.config, self._s)

    @property
    def current_bet(self) -> int:
        rs = self._s.round_state
        return 0 if rs is None or self._s.phase is not Phase.BETTING else rs.current_bet

    @property
    def open_offer(self) -> TradeOffer | None:
        """The offer awaiting answers (None once accepted: see `trade_sides`)."""
        t = self._s.trading
        if t is None or self._s.phase is not Phase.TRADING or t.acceptor is not None:
            return None
        return t.offer

    @property
    def trade_sides(self) -> tuple[int, int, int] | None:
        """(offerer, acceptor, k) of an accepted trade whose cards are being chosen."""
        t = self._s.trading
        if t is None or t.offer is None or t.acceptor is None:
            return None
        return t.offer.offerer, t.acceptor, t.offer.k

    @property
    def trades(self) -> tuple[Trade, ...]:
        t = self._s.trading
        return () if t is None else tuple(t.trades)

    def _p(self, seat: int) -> PlayerState:
        return player(self._s, seat)

    def stack(self, seat: int) -> int:
        """Chips behind (tokens set aside and chips bet excluded)."""
        return self._p(seat).stack

    def tokens(self, seat: int) -> int:
        return self._p(seat).tokens

    def hand_size(self, seat: int) -> int:
        return self._p(seat).hand_size

    def showing(self, seat: int) -> tuple[Card, ...]:
        return tuple(self._p(seat).shown)

    def is_folded(self, seat: int) -> bool:
        return self._p(seat).folded

    def is_all_in(self, seat: int) -> bool:
        p = self._p(seat)
        return self._s.betting_round > 0 and not p.folded and p.stack == 0

    def round_bet(self, seat: int) -> int:
        return self._p(seat).round_bet

    def committed(self, seat: int) -> int:
        return self._p(seat).committed

    def hand_value(self, seat: int) -> HandValue | None:
        """The seat's hand once all five layout cards are showing."""
        shown = self._p(seat).shown
        return best_hand(shown) if len(shown) == LAYOUT_SIZE else None

    def snapshot(self) -> HandState:
        """A copy of the whole state; equal snapshots mean nothing changed."""
        return self._s.clone()

    def to_act(self) -> tuple[int, ...]:
        """The seats the hand is waiting for, in table order (SPEC 3.3).

        DEAL waits for the protocol's `deal()` and names nobody; a terminal hand names nobody.
        """
        s = self._s
        if s.phase is Phase.ANNOUNCE:
            return (s.dealer,)
        if s.phase is Phase.TRADING:
            t = trading(s)
            if t.acceptor is not None and t.offer is not None:
                sides = (t.offer.offerer, t.acceptor)
                return tuple(x for x in s.order if x in sides and x not in t.chosen)
            if t.offer is not None:
                if t.mode is TradingMode.IN_TURN:
                    return (t.responders[0],)
                return tuple(t.responders)
            if t.mode is TradingMode.IN_TURN:
                assert t.turn is not None
                return (t.turn,)
            return (trade_flow.closer(s),)
        if s.phase is Phase.LAYOUT:
            return tuple(x for x in s.order if rounds.awaits_layout(s, x))
        if s.phase is Phase.REVEAL:
            return tuple(x for x in s.order if rounds.awaits_reveal(s, x))
        if s.phase is Phase.BETTING:
            assert s.actor is not None
            return (s.actor,)
        return ()

    def legal_actions(self, seat: int) -> frozenset[ActionKind]:
        """The player actions `seat` may take now (inputs like deal, timeout, abort excluded)."""
        self._p(seat)
        checks: dict[ActionKind, Callable[[], object]] = {
            ActionKind.ANNOUNCE: lambda: trade_flow.verify_announce(self._s, seat, None),
            ActionKind.OFFER: lambda: trade_flow.verify_offer(self._s, seat, 1),
            ActionKind.ACCEPT: lambda: trade_flow.verify_answer(
                self._s, seat, None, ActionKind.ACCEPT
            ),
            ActionKind.DECLINE: lambda: trade_flow.verify_answer(
                self._s, seat, None, ActionKind.DECLINE
            ),
            ActionKind.WITHDRAW: lambda: trade_flow.verify_withdraw(self._s, seat),
            ActionKind.PASS: lambda: trade_flow.verify_pass(self._s, seat),
            ActionKind.CHOOSE_TRADE_CARDS: lambda: trade_flow.verify_choose(self._s, seat, None),
            ActionKind.CLOSE_TRADING: lambda: trade_flow.verify_close(self._s, seat),
            ActionKind.LAY_OUT: lambda: rounds.verify_lay_out(self._s, seat),
            ActionKind.REVEAL: lambda: rounds.verify_reveal(self._s, seat, None),
            ActionKind.CHECK: lambda: betting_round.verify_check(self.config, self._s, seat),
            ActionKind.BET: lambda: betting_round.verify_bet(self.config, self._s, seat, None),
            ActionKind.CALL: lambda: betting_round.verify_call(self.config, self._s, seat),
            ActionKind.RAISE: lambda: betting_round.verify_raise(self.config, self._s, seat, None),
            ActionKind.FOLD: lambda: betting_round.verify_fold(self._s, seat),
            ActionKind.ALL_IN: lambda: betting_round.verify_all_in(self.config, self._s, seat),
        }
        allowed = ACTIONS_BY_PHASE[self._s.phase]
        out = set()
        for kind, check in checks.items():
            if kind in allowed:
                try:
                    check()
                except IllegalAction:
                    continue
                out.add(kind)
        return frozenset(out)

    def bet_options(self, seat: int) -> BetOptions | None:
        """Call, bet and raise amounts open to `seat` if it is the one to act in a betting round."""
        s = self._s
        if s.phase is not Phase.BETTING or s.actor != seat:
            return None
        return betting_round.options(self.config, s, seat)

    # --- the action triplets -------------------------------------------------------------------

    def _commit(self, step: Callable[[HandState], list[Event]], kind: type[E]) -> E:
        new = self._s.clone()
        events = step(new)
        first = events[0]
        assert isinstance(first, kind), (first, kind)
        self._s = new
        self._events.extend(events)
        return first

    @staticmethod
    def _can(check: Callable[[], object]) -> bool:
        return passes(check)

    # announce
    def verify_announce(self, seat: int, announcement: Announcement) -> None:
        trade_flow.verify_announce(self._s, seat, announcement)

    def can_announce(self, seat: int, announcement: Announcement) -> bool:
        return self._can(lambda: self.verify_announce(seat, announcement))

    def announce(self, seat: int, announcement: Announcement) -> Announced:
        self.verify_announce(seat, announcement)
        return self._commit(lambda s: trade_flow.do_announce(s, seat, announcement), Announced)

    # deal (protocol input)
    def verify_deal(self) -> None:
        phase_allows(self._s, ActionKind.DEAL)

    def can_deal(self) -> bool:
        return self._can(self.verify_deal)

    def deal(self) -> Dealt:
        self.verify_deal()
        return self._commit(lambda s: trade_flow.do_deal(self.config, s), Dealt)

    # offer
    def verify_offer(self, seat: int, k: int) -> None:
        trade_flow.verify_offer(self._s, seat, k)

    def can_offer(self, seat: int, k: int) -> bool:
        return self._can(lambda: self.verify_offer(seat, k))

    def offer(self, seat: int, k: int) -> TradeOffered:
        self.verify_offer(seat, k)
        return self._commit(lambda s: trade_flow.do_offer(s, seat, k), TradeOffered)

    # accept
    def verify_accept(self, seat: int, offer: TradeOffer | None = None) -> None:
        trade_flow.verify_answer(self._s, seat, offer, ActionKind.ACCEPT)

    def can_accept(self, seat: int, offer: TradeOffer | None = None) -> bool:
        return self._can(lambda: self.verify_accept(seat, offer))

    def accept(self, seat: int, offer: TradeOffer | None = None) -> TradeAccepted:
        """Accept the open offer (`offer`, if given, must be the open one)."""
        self.verify_accept(seat, offer)
        return self._commit(lambda s: trade_flow.do_accept(s, seat), TradeAccepted)

    # decline
    def verify_decline(self, seat: int, offer: TradeOffer | None = None) -> None:
        trade_flow.verify_answer(self._s, seat, offer, ActionKind.DECLINE)

    def can_decline(self, seat: int, offer: TradeOffer | None = None) -> bool:
        return self._can(lambda: self.verify_decline(seat, offer))

    def decline(self, seat: int, offer: TradeOffer | None = None) -> TradeDeclined:
        self.verify_decline(seat, offer)
        return self._commit(lambda s: trade_flow.do_decline(self.config, s, seat), TradeDeclined)

    # withdraw
    def verify_withdraw(self, seat: int) -> None:
        trade_flow.verify_withdraw(self._s, seat)

    def can_withdraw(self, seat: int) -> bool:
        return self._can(lambda: self.verify_withdraw(seat))

    def withdraw(self, seat: int) -> OfferWithdrawn:
        self.verify_withdraw(seat)
        return self._commit(trade_flow.do_withdraw, OfferWithdrawn)

    # pass
    def verify_pass_turn(self, seat: int) -> None:
        trade_flow.verify_pass(self._s, seat)

    def can_pass_turn(self, seat: int) -> bool:
        return self._can(lambda: self.verify_pass_turn(seat))

    def pass_turn(self, seat: int) -> Passed:
        self.verify_pass_turn(seat)
        return self._commit(lambda s: trade_flow.do_pass(self.config, s, seat), Passed)

    # choose trade cards
    def verify_choose_trade_cards(self, seat: int, positions: Sequence[int]) -> None:
        trade_flow.verify_choose(self._s, seat, positions)

    def can_choose_trade_cards(self, seat: int, positions: Sequence[int]) -> bool:
        return self._can(lambda: self.verify_choose_trade_cards(seat, positions))

    def choose_trade_cards(self, seat: int, positions: Sequence[int]) -> TradeCardsChosen:
        """Name the k positions of one's hand to give; the second side's choice makes the trade."""
        self.verify_choose_trade_cards(seat, positions)
        chosen = tuple(positions)
        return self._commit(
            lambda s: trade_flow.do_choose(self.config, s, seat, chosen), TradeCardsChosen
        )

    # close trading
    def verify_close_trading(self, seat: int) -> None:
        trade_flow.verify_close(self._s, seat)

    def can_close_trading(self, seat: int) -> bool:
        return self._can(lambda: self.verify_close_trading(seat))

    def close_trading(self, seat: int) -> TradingClosed:
        self.verify_close_trading(seat)
        return self._commit(
            lambda s: trade_flow.do_close(
                self.config,
                s,
                seat,
                "the dealer closed trading"
                if seat == s.dealer
                else "the first player still in closed trading (the dealer was folded)",
            ),
            TradingClosed,
        )

    # lay out (protocol input per player)
    def verify_lay_out(self, seat: int) -> None:
        rounds.verify_lay_out(self._s, seat)

    def can_lay_out(self, seat: int) -> bool:
        return self._can(lambda: self.verify_lay_out(seat))

    def lay_out(self, seat: int) -> LaidOut:
        self.verify_lay_out(seat)
        return self._commit(lambda s: rounds.do_lay_out(s, seat), LaidOut)

    # reveal (protocol input per player)
    def verify_reveal(self, seat: int, card: Card) -> None:
        rounds.verify_reveal(self._s, seat, card)

    def can_reveal(self, seat: int, card: Card) -> bool:
        return self._can(lambda: self.verify_reveal(seat, card))

    def reveal(self, seat: int, card: Card) -> CardRevealed:
        self.verify_reveal(seat, card)
        return self._commit(lambda s: rounds.do_reveal(self.config, s, seat, card), CardRevealed)

    # check
    def verify_check(self, seat: int) -> None:
        betting_round.verify_check(self.config, self._s, seat)

    def can_check(self, seat: int) -> bool:
        return self._can(lambda: self.verify_check(seat))

    def check(self, seat: int) -> Checked:
        self.verify_check(seat)
        return self._commit(lambda s: betting_round.do_check(self.config, s, seat), Checked)

    # bet
    def verify_bet(self, seat: int, amount: int) -> None:
        betting_round.verify_bet(self.config, self._s, seat, amount)

    def can_bet(self, seat: int, amount: int) -> bool:
        return self._can(lambda: self.verify_bet(seat, amount))

    def bet(self, seat: int, amount: int) -> BetPlaced:
        self.verify_bet(seat, amount)
        return self._commit(
            lambda s: betting_round.do_wager(self.config, s, seat, amount), BetPlaced
        )

    # call
    def verify_call(self, seat: int) -> None:
        betting_round.verify_call(self.config, self._s, seat)

    def can_call(self, seat: int) -> bool:
        return self._can(lambda: self.verify_call(seat))

    def call(self, seat: int) -> Called:
        self.verify_call(seat)
        return self._commit(lambda s: betting_round.do_call(self.config, s, seat), Called)

    # raise
    def verify_raise_to(self, seat: int, to: int) -> None:
        betting_round.verify_raise(self.config, self._s, seat, to)

    def can_raise_to(self, seat: int, to: int) -> bool:
        return self._can(lambda: self.verify_raise_to(seat, to))

    def raise_to(self, seat: int, to: int) -> Raised:
        """Raise so that the seat's total bet this round is `to`."""
        self.verify_raise_to(seat, to)
        return self._commit(lambda s: betting_round.do_wager(self.config, s, seat, to), Raised)

    # fold
    def verify_fold(self, seat: int) -> None:
        betting_round.verify_fold(self._s, seat)

    def can_fold(self, seat: int) -> bool:
        return self._can(lambda: self.verify_fold(seat))

    def fold(self, seat: int) -> Folded:
        self.verify_fold(seat)
        return self._commit(lambda s: betting_round.do_fold(self.config, s, seat), Folded)

    # all in
    def verify_all_in(self, seat: int) -> None:
        betting_round.verify_all_in(self.config, self._s, seat)

    def can_all_in(self, seat: int) -> bool:
        return self._can(lambda: self.verify_all_in(seat))

    def all_in(self, seat: int) -> WentAllIn:
        self.verify_all_in(seat)
        return self._commit(lambda s: betting_round.do_all_in(self.config, s, seat), WentAllIn)

    # timeout (input: the seat's action clock ran out)
    def verify_timeout(self, seat: int) -> None:
        self._timeout_step(self._s, seat)

    def can_timeout(self, seat: int) -> bool:
        return self._can(lambda: self.verify_timeout(seat))

    def timeout(self, seat: int) -> TimedOut:
        """Take the default action for `seat` (SPEC 3.9): check if free, else fold; in trading
        pass, decline, or (free mode, dealer, no offer open) close trading."""
        step = self._timeout_step(self._s, seat)

        def run(s: HandState) -> list[Event]:
            events = step(s)
            return [TimedOut(seat, events[0]), *events]

        return self._commit(run, TimedOut)

    # stall (input: after the deal, a player still in did not give a protocol step in time)
    def verify_stall(self, seat: int) -> None:
        phase_allows(self._s, ActionKind.STALL)
        if self._p(seat).folded:
            raise IllegalAction(f"seat {seat} has folded already")

    def can_stall(self, seat: int) -> bool:
        return self._can(lambda: self.verify_stall(seat))

    def stall(self, seat: int) -> FoldedForStalling:
        """Fold `seat` out of turn; its bets stay in the pot and the hand goes on (SPEC 3.9)."""
        self.verify_stall(seat)
        step = {
            Phase.TRADING: trade_flow.do_stall,
            Phase.LAYOUT: rounds.do_stall_layout,
            Phase.REVEAL: rounds.do_stall_reveal,
            Phase.BETTING: betting_round.do_stall,
        }[self._s.phase]
        return self._commit(lambda s: step(self.config, s, seat), FoldedForStalling)

    @property
    def stalled(self) -> tuple[int, ...]:
        """Seats folded for stalling in this hand, in the order it happened."""
        return tuple(e.seat for e in self._events if isinstance(e, FoldedForStalling))

    # abort (input: before the deal is complete, the protocol stalled or a peer cheated)
    def verify_abort(self, blamed_seats: Sequence[int], reason: str) -> None:
        phase_allows(self._s, ActionKind.ABORT)
        for seat in blamed_seats:
            self._p(seat)
        if len(set(blamed_seats)) != len(blamed_seats):
            raise IllegalAction("a blamed seat is named twice")
        if not isinstance(reason, str) or not reason.strip():
            raise IllegalAction("an abort needs a reason")

    def can_abort(self, blamed_seats: Sequence[int], reason: str) -> bool:
        return self._can(lambda: self.verify_abort(blamed_seats, reason))

    def abort(self, blamed_seats: Sequence[int], reason: str) -> HandAborted:
        """End the hand before the deal is complete, every stack back at its start (SPEC 3.10)."""
        self.verify_abort(blamed_seats, reason)
        blamed = tuple(x for x in self._s.order if x in set(blamed_seats))
        return self._commit(lambda s: showdown.do_abort(s, blamed, reason), HandAborted)

    # --- the default action when a clock runs out ----------------------------------------------

    def _timeout_step(self, s: HandState, seat: int) -> Callable[[HandState], list[Event]]:
        """The default action for `seat` as a step, or IllegalAction (SPEC 3.9)."""
        phase_allows(s, ActionKind.TIMEOUT)
        player(s, seat)
        if s.phase is Phase.BETTING:
            if seat != s.actor:
                raise IllegalAction(f"seat {seat} is not the one to act")
            if betting_round.options(self.config, s, seat).can_check:
                return lambda n: betting_round.do_check(self.config, n, seat)
            return lambda n: betting_round.do_fold(self.config, n, seat)
        t = trading(s)
        if t.acceptor is not None:
            raise IllegalAction("choosing trade cards has no default; the protocol aborts")
        if t.offer is not None:
            trade_flow.verify_answer(s, seat, None, ActionKind.DECLINE)
            return lambda n: trade_flow.do_decline(self.config, n, seat)
        if t.mode is TradingMode.IN_TURN:
            trade_flow.verify_pass(s, seat)
            return lambda n: trade_flow.do_pass(self.config, n, seat)
        if seat != trade_flow.closer(s):
            raise IllegalAction("no clock runs for this seat now")
        return lambda n: trade_flow.do_close(self.config, n, None, "the trading clock ran out")
