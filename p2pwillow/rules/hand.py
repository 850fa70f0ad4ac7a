"""One hand of Weeping Willow as a state machine: announce, deal, trade, lay out, five rounds of
reveal and betting, showdown (SPEC 3). Pure; no I/O, no clock, no randomness.

Every player action has three faces (SPEC 3.3): `verify_x(...)` raises IllegalAction with the
reason, `can_x(...)` answers, `x(...)` acts and returns a frozen event. An action that raises
changes nothing: each one is checked in full, then applied to a copy of the state that replaces
the old state only when the whole step has succeeded.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

from p2pwillow.cards import Card
from p2pwillow.hands import HandValue, best_hand
from p2pwillow.rules.betting import (
    BetOptions,
    RoundState,
    bet_bounds,
    betting_options,
    opener_seat,
    raise_increments,
    raises_capped,
)
from p2pwillow.rules.config import ROUNDS, TableConfig
from p2pwillow.rules.errors import ConfigError, IllegalAction
from p2pwillow.rules.events import (
    Announced,
    BetPlaced,
    BettingClosed,
    BettingOpened,
    BettingSkipped,
    Called,
    CardRevealed,
    Checked,
    Dealt,
    Event,
    Folded,
    HandAborted,
    HandEnded,
    LaidOut,
    OfferLapsed,
    OfferWithdrawn,
    Passed,
    Raised,
    TimedOut,
    TradeAccepted,
    TradeCardsChosen,
    TradeDeclined,
    TradeMade,
    TradeOffered,
    TradingClosed,
    WentAllIn,
)
from p2pwillow.rules.phases import ACTIONS_BY_PHASE, TERMINAL, TRANSITIONS, ActionKind, Phase
from p2pwillow.rules.pots import HandResult, Pot, PotAward, award_pots, build_pots
from p2pwillow.rules.trading import (
    Announcement,
    Trade,
    TradeOffer,
    TradingClose,
    TradingMode,
)

LAYOUT_SIZE = 5

E = TypeVar("E")


# --- state -----------------------------------------------------------------------------------
# Mutable records, private to this module: every step works on a `clone()` (SPEC 3.3).


@dataclass(slots=True)
class PlayerState:
    seat: int
    start_stack: int
    stack: int
    """Chips behind: the start stack less tokens set aside and chips bet."""
    tokens: int
    """Trade tokens still set aside."""
    tokens_set_aside: int
    tokens_paid: int = 0
    hand_size: int = 0
    laid_out: bool = False
    shown: list[Card] = field(default_factory=list)
    folded: bool = False
    committed: int = 0
    """Chips bet over the whole hand (tokens excluded)."""
    round_bet: int = 0
    acted_level: int | None = None
    """The round's full level when this player last acted; None if not yet this round."""

    def clone(self) -> PlayerState:
        return replace(self, shown=list(self.shown))


@dataclass(slots=True)
class TradingState:
    mode: TradingMode
    closing: TradingClose
    orbits: int | None
    turn: int | None = None
    """In-turn mode: the seat whose turn it is to offer or pass."""
    offer: TradeOffer | None = None
    responders: list[int] = field(default_factory=list)
    """Seats that may still answer the open offer, clockwise from the offerer."""
    acceptor: int | None = None
    """Set once the offer is accepted: both sides now choose their cards."""
    chosen: dict[int, tuple[int, ...]] = field(default_factory=dict)
    serial: int = 0
    quiet_turns: int = 0
    """In-turn mode: consecutive turns that ended without a trade."""
    orbit: int = 1
    trades: list[Trade] = field(default_factory=list)

    def clone(self) -> TradingState:
        return replace(
            self,
            responders=list(self.responders),
            chosen=dict(self.chosen),
            trades=list(self.trades),
        )


@dataclass(slots=True)
class HandState:
    """Everything a hand knows; `Hand.snapshot()` returns a copy that compares by value."""

    phase: Phase
    dealer: int
    order: tuple[int, ...]
    """Seats in the hand, clockwise from the dealer's left; the dealer is last."""
    players: dict[int, PlayerState]
    announcement: Announcement | None = None
    trading: TradingState | None = None
    betting_round: int = 0
    round_state: RoundState | None = None
    actor: int | None = None
    needs: list[int] = field(default_factory=list)
    """Seats that must still act in this betting round, in table order."""
    result: HandResult | None = None

    def clone(self) -> HandState:
        return replace(
            self,
            players={seat: p.clone() for seat, p in self.players.items()},
            trading=None if self.trading is None else self.trading.clone(),
            needs=list(self.needs),
        )

    @property
    def dead_money(self) -> int:
        """Token money in the pot (SPEC 3.4)."""
        return sum(p.tokens_paid for p in self.players.values())


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


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
            if not _is_int(seat) or not 0 <= seat < config.seats:
                raise ConfigError(f"seat {seat!r} is not a seat 0..{config.seats - 1}")
        if len(set(seats)) != len(seats):
            raise ConfigError("a seat appears twice in the hand")
        for seat, stack in zip(seats, stacks, strict=True):
            if not _is_int(stack) or stack < 1:
                raise ConfigError(f"seat {seat} needs at least one chip, not {stack!r}")
        if dealer not in seats:
            raise ConfigError(f"the dealer {dealer!r} is not in the hand")
        if not _is_int(hand_number) or hand_number < 1:
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
        s = self._s
        return s.dead_money * self.config.token_value + sum(p.committed for p in s.players.values())

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
        p = self._s.players.get(seat) if _is_int(seat) else None
        if p is None:
            raise IllegalAction(f"seat {seat!r} is not in this hand")
        return p

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
            t = self._trading(s)
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
            return (s.dealer,)
        if s.phase is Phase.LAYOUT:
            return tuple(x for x in s.order if not s.players[x].laid_out)
        if s.phase is Phase.REVEAL:
            return tuple(x for x in s.order if self._awaits_reveal(s, x))
        if s.phase is Phase.BETTING:
            assert s.actor is not None
            return (s.actor,)
        return ()

    def legal_actions(self, seat: int) -> frozenset[ActionKind]:
        """The player actions `seat` may take now (inputs like deal, timeout, abort excluded)."""
        self._p(seat)
        checks: dict[ActionKind, Callable[[], object]] = {
            ActionKind.ANNOUNCE: lambda: self._v_announce(self._s, seat, None),
            ActionKind.OFFER: lambda: self._v_offer(self._s, seat, 1),
            ActionKind.ACCEPT: lambda: self._v_answer(self._s, seat, None, ActionKind.ACCEPT),
            ActionKind.DECLINE: lambda: self._v_answer(self._s, seat, None, ActionKind.DECLINE),
            ActionKind.WITHDRAW: lambda: self._v_withdraw(self._s, seat),
            ActionKind.PASS: lambda: self._v_pass(self._s, seat),
            ActionKind.CHOOSE_TRADE_CARDS: lambda: self._v_choose(self._s, seat, None),
            ActionKind.CLOSE_TRADING: lambda: self._v_close(self._s, seat),
            ActionKind.LAY_OUT: lambda: self._v_lay_out(self._s, seat),
            ActionKind.REVEAL: lambda: self._v_reveal(self._s, seat, None),
            ActionKind.CHECK: lambda: self._v_check(self._s, seat),
            ActionKind.BET: lambda: self._v_bet(self._s, seat, None),
            ActionKind.CALL: lambda: self._v_call(self._s, seat),
            ActionKind.RAISE: lambda: self._v_raise(self._s, seat, None),
            ActionKind.FOLD: lambda: self._v_fold(self._s, seat),
            ActionKind.ALL_IN: lambda: self._v_all_in(self._s, seat),
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
        return self._options(s, seat)

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
        try:
            check()
        except IllegalAction:
            return False
        return True

    # announce
    def verify_announce(self, seat: int, announcement: Announcement) -> None:
        self._v_announce(self._s, seat, announcement)

    def can_announce(self, seat: int, announcement: Announcement) -> bool:
        return self._can(lambda: self.verify_announce(seat, announcement))

    def announce(self, seat: int, announcement: Announcement) -> Announced:
        self.verify_announce(seat, announcement)
        return self._commit(lambda s: self._do_announce(s, seat, announcement), Announced)

    # deal (protocol input)
    def verify_deal(self) -> None:
        self._phase_allows(self._s, ActionKind.DEAL)

    def can_deal(self) -> bool:
        return self._can(self.verify_deal)

    def deal(self) -> Dealt:
        self.verify_deal()
        return self._commit(self._do_deal, Dealt)

    # offer
    def verify_offer(self, seat: int, k: int) -> None:
        self._v_offer(self._s, seat, k)

    def can_offer(self, seat: int, k: int) -> bool:
        return self._can(lambda: self.verify_offer(seat, k))

    def offer(self, seat: int, k: int) -> TradeOffered:
        self.verify_offer(seat, k)
        return self._commit(lambda s: self._do_offer(s, seat, k), TradeOffered)

    # accept
    def verify_accept(self, seat: int, offer: TradeOffer | None = None) -> None:
        self._v_answer(self._s, seat, offer, ActionKind.ACCEPT)

    def can_accept(self, seat: int, offer: TradeOffer | None = None) -> bool:
        return self._can(lambda: self.verify_accept(seat, offer))

    def accept(self, seat: int, offer: TradeOffer | None = None) -> TradeAccepted:
        """Accept the open offer (`offer`, if given, must be the open one)."""
        self.verify_accept(seat, offer)
        return self._commit(lambda s: self._do_accept(s, seat), TradeAccepted)

    # decline
    def verify_decline(self, seat: int, offer: TradeOffer | None = None) -> None:
        self._v_answer(self._s, seat, offer, ActionKind.DECLINE)

    def can_decline(self, seat: int, offer: TradeOffer | None = None) -> bool:
        return self._can(lambda: self.verify_decline(seat, offer))

    def decline(self, seat: int, offer: TradeOffer | None = None) -> TradeDeclined:
        self.verify_decline(seat, offer)
        return self._commit(lambda s: self._do_decline(s, seat), TradeDeclined)

    # withdraw
    def verify_withdraw(self, seat: int) -> None:
        self._v_withdraw(self._s, seat)

    def can_withdraw(self, seat: int) -> bool:
        return self._can(lambda: self.verify_withdraw(seat))

    def withdraw(self, seat: int) -> OfferWithdrawn:
        self.verify_withdraw(seat)
        return self._commit(self._do_withdraw, OfferWithdrawn)

    # pass
    def verify_pass_turn(self, seat: int) -> None:
        self._v_pass(self._s, seat)

    def can_pass_turn(self, seat: int) -> bool:
        return self._can(lambda: self.verify_pass_turn(seat))

    def pass_turn(self, seat: int) -> Passed:
        self.verify_pass_turn(seat)
        return self._commit(lambda s: self._do_pass(s, seat), Passed)

    # choose trade cards
    def verify_choose_trade_cards(self, seat: int, positions: Sequence[int]) -> None:
        self._v_choose(self._s, seat, positions)

    def can_choose_trade_cards(self, seat: int, positions: Sequence[int]) -> bool:
        return self._can(lambda: self.verify_choose_trade_cards(seat, positions))

    def choose_trade_cards(self, seat: int, positions: Sequence[int]) -> TradeCardsChosen:
        """Name the k positions of one's hand to give; the second side's choice makes the trade."""
        self.verify_choose_trade_cards(seat, positions)
        chosen = tuple(positions)
        return self._commit(lambda s: self._do_choose(s, seat, chosen), TradeCardsChosen)

    # close trading
    def verify_close_trading(self, seat: int) -> None:
        self._v_close(self._s, seat)

    def can_close_trading(self, seat: int) -> bool:
        return self._can(lambda: self.verify_close_trading(seat))

    def close_trading(self, seat: int) -> TradingClosed:
        self.verify_close_trading(seat)
        return self._commit(
            lambda s: self._do_close(s, s.dealer, "the dealer closed trading"), TradingClosed
        )

    # lay out (protocol input per player)
    def verify_lay_out(self, seat: int) -> None:
        self._v_lay_out(self._s, seat)

    def can_lay_out(self, seat: int) -> bool:
        return self._can(lambda: self.verify_lay_out(seat))

    def lay_out(self, seat: int) -> LaidOut:
        self.verify_lay_out(seat)
        return self._commit(lambda s: self._do_lay_out(s, seat), LaidOut)

    # reveal (protocol input per player)
    def verify_reveal(self, seat: int, card: Card) -> None:
        self._v_reveal(self._s, seat, card)

    def can_reveal(self, seat: int, card: Card) -> bool:
        return self._can(lambda: self.verify_reveal(seat, card))

    def reveal(self, seat: int, card: Card) -> CardRevealed:
        self.verify_reveal(seat, card)
        return self._commit(lambda s: self._do_reveal(s, seat, card), CardRevealed)

    # check
    def verify_check(self, seat: int) -> None:
        self._v_check(self._s, seat)

    def can_check(self, seat: int) -> bool:
        return self._can(lambda: self.verify_check(seat))

    def check(self, seat: int) -> Checked:
        self.verify_check(seat)
        return self._commit(lambda s: self._do_check(s, seat), Checked)

    # bet
    def verify_bet(self, seat: int, amount: int) -> None:
        self._v_bet(self._s, seat, amount)

    def can_bet(self, seat: int, amount: int) -> bool:
        return self._can(lambda: self.verify_bet(seat, amount))

    def bet(self, seat: int, amount: int) -> BetPlaced:
        self.verify_bet(seat, amount)
        return self._commit(lambda s: self._do_wager(s, seat, amount), BetPlaced)

    # call
    def verify_call(self, seat: int) -> None:
        self._v_call(self._s, seat)

    def can_call(self, seat: int) -> bool:
        return self._can(lambda: self.verify_call(seat))

    def call(self, seat: int) -> Called:
        self.verify_call(seat)
        return self._commit(lambda s: self._do_call(s, seat), Called)

    # raise
    def verify_raise_to(self, seat: int, to: int) -> None:
        self._v_raise(self._s, seat, to)

    def can_raise_to(self, seat: int, to: int) -> bool:
        return self._can(lambda: self.verify_raise_to(seat, to))

    def raise_to(self, seat: int, to: int) -> Raised:
        """Raise so that the seat's total bet this round is `to`."""
        self.verify_raise_to(seat, to)
        return self._commit(lambda s: self._do_wager(s, seat, to), Raised)

    # fold
    def verify_fold(self, seat: int) -> None:
        self._v_fold(self._s, seat)

    def can_fold(self, seat: int) -> bool:
        return self._can(lambda: self.verify_fold(seat))

    def fold(self, seat: int) -> Folded:
        self.verify_fold(seat)
        return self._commit(lambda s: self._do_fold(s, seat), Folded)

    # all in
    def verify_all_in(self, seat: int) -> None:
        self._v_all_in(self._s, seat)

    def can_all_in(self, seat: int) -> bool:
        return self._can(lambda: self.verify_all_in(seat))

    def all_in(self, seat: int) -> WentAllIn:
        self.verify_all_in(seat)
        return self._commit(lambda s: self._do_all_in(s, seat), WentAllIn)

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

    # abort (input: the protocol stalled or a peer cheated)
    def verify_abort(self, blamed_seats: Sequence[int], reason: str) -> None:
        self._phase_allows(self._s, ActionKind.ABORT)
        for seat in blamed_seats:
            self._p(seat)
        if len(set(blamed_seats)) != len(blamed_seats):
            raise IllegalAction("a blamed seat is named twice")
        if not isinstance(reason, str) or not reason.strip():
            raise IllegalAction("an abort needs a reason")

    def can_abort(self, blamed_seats: Sequence[int], reason: str) -> bool:
        return self._can(lambda: self.verify_abort(blamed_seats, reason))

    def abort(self, blamed_seats: Sequence[int], reason: str) -> HandAborted:
        """End the hand with every stack back at its start (SPEC 3.10)."""
        self.verify_abort(blamed_seats, reason)
        blamed = tuple(x for x in self._s.order if x in set(blamed_seats))
        return self._commit(lambda s: self._do_abort(s, blamed, reason), HandAborted)

    # --- checks ---------------------------------------------------------------------------------

    def _phase_allows(self, s: HandState, kind: ActionKind) -> None:
        if kind not in ACTIONS_BY_PHASE[s.phase]:
            raise IllegalAction(f"{kind.value} is not allowed in the {s.phase.value} phase")

    def _player(self, s: HandState, seat: int) -> PlayerState:
        p = s.players.get(seat) if _is_int(seat) else None
        if p is None:
            raise IllegalAction(f"seat {seat!r} is not in this hand")
        return p

    @staticmethod
    def _trading(s: HandState) -> TradingState:
        assert s.trading is not None
        return s.trading

    def _v_announce(self, s: HandState, seat: int, a: Announcement | None) -> None:
        self._phase_allows(s, ActionKind.ANNOUNCE)
        self._player(s, seat)
        if seat != s.dealer:
            raise IllegalAction(f"only the dealer (seat {s.dealer}) announces")
        if a is None:
            return
        if not isinstance(a, Announcement):
            raise IllegalAction(f"not an announcement: {a!r}")
        try:
            a.check_fits(len(s.order))
        except ConfigError as exc:
            raise IllegalAction(str(exc)) from None

    def _eligible(self, s: HandState) -> list[int]:
        """Seats that can still trade: one token left (SPEC 3.4)."""
        return [x for x in s.order if s.players[x].tokens >= 1]

    def _v_trade_idle(self, s: HandState, what: str) -> TradingState:
        t = self._trading(s)
        if t.acceptor is not None:
            raise IllegalAction(f"cannot {what}: a trade is being completed")
        if t.offer is not None:
            raise IllegalAction(f"cannot {what}: an offer is open")
        return t

    def _v_offer(self, s: HandState, seat: int, k: int) -> None:
        self._phase_allows(s, ActionKind.OFFER)
        p = self._player(s, seat)
        t = self._v_trade_idle(s, "offer")
        if t.mode is TradingMode.IN_TURN and seat != t.turn:
            raise IllegalAction(f"it is seat {t.turn}'s turn to offer, not seat {seat}'s")
        if p.tokens < 1:
            raise IllegalAction(f"seat {seat} has no trade token left")
        if not _is_int(k) or not 1 <= k <= p.hand_size:
            raise IllegalAction(f"an offer is 1 to {p.hand_size} cards, not {k!r}")

    def _v_answer(
        self, s: HandState, seat: int, offer: TradeOffer | None, kind: ActionKind
    ) -> None:
        self._phase_allows(s, kind)
        self._player(s, seat)
        t = self._trading(s)
        if t.offer is None or t.acceptor is not None:
            raise IllegalAction(f"there is no open offer to {kind.value}")
        if offer is not None and offer != t.offer:
            raise IllegalAction(f"{offer} is not the open offer {t.offer}")
        if seat == t.offer.offerer:
            raise IllegalAction("a player cannot answer their own offer")
        if seat not in t.responders:
            raise IllegalAction(f"seat {seat} cannot answer this offer (no token, or answered)")
        if t.mode is TradingMode.IN_TURN and seat != t.responders[0]:
            raise IllegalAction(f"seat {t.responders[0]} answers first")

    def _v_withdraw(self, s: HandState, seat: int) -> None:
        self._phase_allows(s, ActionKind.WITHDRAW)
        self._player(s, seat)
        t = self._trading(s)
        if t.mode is not TradingMode.FREE:
            raise IllegalAction("offers are withdrawn only in free trading")
        if t.offer is None or t.acceptor is not None:
            raise IllegalAction("there is no open offer to withdraw")
        if seat != t.offer.offerer:
            raise IllegalAction(f"only seat {t.offer.offerer} can withdraw its offer")

    def _v_pass(self, s: HandState, seat: int) -> None:
        self._phase_allows(s, ActionKind.PASS)
        self._player(s, seat)
        t = self._v_trade_idle(s, "pass")
        if t.mode is not TradingMode.IN_TURN:
            raise IllegalAction("passing is for in-turn trading")
        if seat != t.turn:
            raise IllegalAction(f"it is seat {t.turn}'s turn, not seat {seat}'s")

    def _v_choose(self, s: HandState, seat: int, positions: Sequence[int] | None) -> None:
        self._phase_allows(s, ActionKind.CHOOSE_TRADE_CARDS)
        p = self._player(s, seat)
        t = self._trading(s)
        if t.offer is None or t.acceptor is None:
            raise IllegalAction("no trade has been agreed")
        if seat not in (t.offer.offerer, t.acceptor):
            raise IllegalAction(f"seat {seat} is not a side of this trade")
        if seat in t.chosen:
            raise IllegalAction(f"seat {seat} has already chosen its cards")
        if positions is None:
            return
        if isinstance(positions, str | bytes) or not isinstance(positions, Sequence):
            raise IllegalAction(f"positions must be a sequence of integers, not {positions!r}")
        k = t.offer.k
        if len(positions) != k:
            raise IllegalAction(f"choose exactly {k} positions, not {len(positions)}")
        for pos in positions:
            if not _is_int(pos) or not 0 <= pos < p.hand_size:
                raise IllegalAction(f"position {pos!r} is not in 0..{p.hand_size - 1}")
        if len(set(positions)) != len(positions):
            raise IllegalAction("a position is named twice")

    def _v_close(self, s: HandState, seat: int) -> None:
        self._phase_allows(s, ActionKind.CLOSE_TRADING)
        self._player(s, seat)
        t = self._trading(s)
        if seat != s.dealer:
            raise IllegalAction(f"only the dealer (seat {s.dealer}) closes trading")
        if t.closing is not TradingClose.DEALER_CALLS:
            raise IllegalAction(f"trading closes by rule ({t.closing.value}), not by the dealer")
        self._v_trade_idle(s, "close trading")

    def _v_lay_out(self, s: HandState, seat: int) -> None:
        self._phase_allows(s, ActionKind.LAY_OUT)
        if self._player(s, seat).laid_out:
            raise IllegalAction(f"seat {seat} has already laid out")

    def _awaits_reveal(self, s: HandState, seat: int) -> bool:
        p = s.players[seat]
        return not p.folded and len(p.shown) < s.betting_round

    def _v_reveal(self, s: HandState, seat: int, card: Card | None) -> None:
        self._phase_allows(s, ActionKind.REVEAL)
        p = self._player(s, seat)
        if p.folded:
            raise IllegalAction(f"seat {seat} has folded; its cards stay face down")
        if not self._awaits_reveal(s, seat):
            raise IllegalAction(f"seat {seat} has already revealed in round {s.betting_round}")
        if card is None:
            return
        if not isinstance(card, Card):
            raise IllegalAction(f"not a card: {card!r}")
        for other in s.players.values():
            if card in other.shown:
                raise IllegalAction(f"{card} is already showing at seat {other.seat}")

    def _actor(self, s: HandState, seat: int, kind: ActionKind) -> PlayerState:
        self._phase_allows(s, kind)
        p = self._player(s, seat)
        if seat != s.actor:
            raise IllegalAction(f"it is seat {s.actor}'s turn to bet, not seat {seat}'s")
        return p

    def _pot(self, s: HandState) -> int:
        return s.dead_money * self.config.token_value + sum(p.committed for p in s.players.values())

    def _options(self, s: HandState, seat: int) -> BetOptions:
        assert s.round_state is not None
        p = s.players[seat]
        others = any(q.seat != seat and not q.folded and q.stack > 0 for q in s.players.values())
        rs = replace(s.round_state, pot=self._pot(s))
        return betting_options(
            self.config,
            rs,
            round_bet=p.round_bet,
            stack=p.stack,
            acted_level=p.acted_level,
            others_can_bet=others,
        )

    def _v_check(self, s: HandState, seat: int) -> None:
        self._actor(s, seat, ActionKind.CHECK)
        o = self._options(s, seat)
        if not o.can_check:
            raise IllegalAction(f"seat {seat} cannot check: {o.to_call} to call")

    def _v_bet(self, s: HandState, seat: int, amount: int | None) -> None:
        self._actor(s, seat, ActionKind.BET)
        o = self._options(s, seat)
        if o.to_call or self._current_bet(s):
            raise IllegalAction("there is already a bet: call, raise or fold")
        if o.bet_min is None or o.bet_max is None:
            raise IllegalAction(f"seat {seat} cannot bet now (check, or go all in)")
        if amount is None:
            return
        if not _is_int(amount) or not o.bet_min <= amount <= o.bet_max:
            raise IllegalAction(f"a bet now is {o.bet_min} to {o.bet_max}, not {amount!r}")

    @staticmethod
    def _current_bet(s: HandState) -> int:
        return 0 if s.round_state is None else s.round_state.current_bet

    def _v_call(self, s: HandState, seat: int) -> None:
        self._actor(s, seat, ActionKind.CALL)
        if self._options(s, seat).to_call == 0:
            raise IllegalAction("there is no bet to call: check or bet")

    def _v_raise(self, s: HandState, seat: int, to: int | None) -> None:
        self._actor(s, seat, ActionKind.RAISE)
        o = self._options(s, seat)
        if self._current_bet(s) == 0:
            raise IllegalAction("there is no bet to raise: bet instead")
        if o.raise_min is None or o.raise_max is None:
            raise IllegalAction(self._why_no_raise(s, seat, o))
        if to is None:
            return
        if not _is_int(to) or not o.raise_min <= to <= o.raise_max:
            raise IllegalAction(f"a raise now is to {o.raise_min}..{o.raise_max}, not {to!r}")

    def _why_no_raise(self, s: HandState, seat: int, o: BetOptions) -> str:
        rs = s.round_state
        assert rs is not None
        p = s.players[seat]
        if p.acted_level is not None and p.acted_level >= rs.full_level:
            return "the betting was not reopened by a full raise: call or fold"
        if o.all_in_to <= rs.current_bet:
            return "not enough chips to raise: call or fold"
        if not any(q.seat != seat and not q.folded and q.stack > 0 for q in s.players.values()):
            return "nobody else can call a raise"
        if raises_capped(self.config, rs):
            return f"the betting is capped at {self.config.max_raises} raises"
        return "a full raise needs more chips: go all in instead"

    def _v_fold(self, s: HandState, seat: int) -> None:
        self._actor(s, seat, ActionKind.FOLD)

    def _v_all_in(self, s: HandState, seat: int) -> None:
        p = self._actor(s, seat, ActionKind.ALL_IN)
        if p.stack == 0:
            raise IllegalAction(f"seat {seat} has no chips left")
        o = self._options(s, seat)
        if not o.all_in_allowed:
            raise IllegalAction(
                f"going all in for {o.all_in_to} is more than the limit allows now"
                if o.all_in_to > self._current_bet(s)
                else "nothing to go all in against: check or fold"
            )

    def _timeout_step(self, s: HandState, seat: int) -> Callable[[HandState], list[Event]]:
        """The default action for `seat` as a step, or IllegalAction (SPEC 3.9)."""
        self._phase_allows(s, ActionKind.TIMEOUT)
        self._player(s, seat)
        if s.phase is Phase.BETTING:
            if seat != s.actor:
                raise IllegalAction(f"seat {seat} is not the one to act")
            if self._options(s, seat).can_check:
                return lambda n: self._do_check(n, seat)
            return lambda n: self._do_fold(n, seat)
        t = self._trading(s)
        if t.acceptor is not None:
            raise IllegalAction("choosing trade cards has no default; the protocol aborts")
        if t.offer is not None:
            self._v_answer(s, seat, None, ActionKind.DECLINE)
            return lambda n: self._do_decline(n, seat)
        if t.mode is TradingMode.IN_TURN:
            self._v_pass(s, seat)
            return lambda n: self._do_pass(n, seat)
        if seat != s.dealer:
            raise IllegalAction("no clock runs for this seat now")
        return lambda n: self._do_close(n, None, "the trading clock ran out")

    # --- steps (applied to a clone) ------------------------------------------------------------

    def _goto(self, s: HandState, phase: Phase) -> None:
        # SPEC 3.2: only the changes in TRANSITIONS exist.
        assert phase in TRANSITIONS[s.phase], (s.phase, phase)
        s.phase = phase

    def _do_announce(self, s: HandState, seat: int, a: Announcement) -> list[Event]:
        s.announcement = a
        self._goto(s, Phase.DEAL)
        return [Announced(seat, a)]

    def _do_deal(self, s: HandState) -> list[Event]:
        a = s.announcement
        assert a is not None
        for p in s.players.values():
            p.hand_size = a.deal_size
        events: list[Event] = [
            Dealt(a.deal_size, s.order, tuple(s.players[x].tokens for x in s.order))
        ]
        s.trading = TradingState(a.trading_mode, a.closing, a.orbits)
        eligible = self._eligible(s)
        if len(eligible) < 2:
            events += self._do_close(s, None, "fewer than two players can trade")
            return events
        self._goto(s, Phase.TRADING)
        s.trading.turn = eligible[0]
        return events

    def _do_offer(self, s: HandState, seat: int, k: int) -> list[Event]:
        t = self._trading(s)
        t.serial += 1
        t.offer = TradeOffer(seat, k, t.serial)
        eligible = self._eligible(s)
        i = eligible.index(seat)
        # SPEC 3.5: answers go clockwise from the offerer.
        t.responders = [x for x in eligible[i + 1 :] + eligible[:i] if s.players[x].hand_size >= k]
        return [TradeOffered(t.offer)]

    def _do_accept(self, s: HandState, seat: int) -> list[Event]:
        t = self._trading(s)
        assert t.offer is not None
        t.acceptor = seat
        t.responders = []
        t.chosen = {}
        return [TradeAccepted(seat, t.offer)]

    def _do_decline(self, s: HandState, seat: int) -> list[Event]:
        t = self._trading(s)
        offer = t.offer
        assert offer is not None
        t.responders.remove(seat)
        events: list[Event] = [TradeDeclined(seat, offer)]
        if not t.responders:
            t.offer = None
            events.append(OfferLapsed(offer))
            if t.mode is TradingMode.IN_TURN:
                events += self._end_turn(s, traded=False)
        return events

    def _do_withdraw(self, s: HandState) -> list[Event]:
        t = self._trading(s)
        offer = t.offer
        assert offer is not None
        t.offer = None
        t.responders = []
        return [OfferWithdrawn(offer)]

    def _do_pass(self, s: HandState, seat: int) -> list[Event]:
        return [Passed(seat), *self._end_turn(s, traded=False)]

    def _do_choose(self, s: HandState, seat: int, positions: tuple[int, ...]) -> list[Event]:
        t = self._trading(s)
        offer = t.offer
        assert offer is not None and t.acceptor is not None
        t.chosen[seat] = positions
        events: list[Event] = [TradeCardsChosen(seat, positions)]
        if len(t.chosen) < 2:
            return events
        trade = Trade(
            offer.offerer, t.acceptor, offer.k, t.chosen[offer.offerer], t.chosen[t.acceptor]
        )
        for side in (trade.offerer, trade.acceptor):
            # SPEC 3.4: each side pays one token into the pot; hand sizes do not change.
            s.players[side].tokens -= 1
            s.players[side].tokens_paid += 1
        t.trades.append(trade)
        t.offer, t.acceptor, t.chosen, t.responders = None, None, {}, []
        events.append(TradeMade(trade, self.config.token_value))
        if t.mode is TradingMode.IN_TURN:
            events += self._end_turn(s, traded=True)
        elif len(self._eligible(s)) < 2:
            events += self._do_close(s, None, "fewer than two players can trade")
        return events

    def _end_turn(self, s: HandState, *, traded: bool) -> list[Event]:
        """In-turn mode: the turn holder's turn is over; close or move the turn (SPEC 3.5)."""
        t = self._trading(s)
        assert t.turn is not None
        t.quiet_turns = 0 if traded else t.quiet_turns + 1
        eligible = self._eligible(s)
        if len(eligible) < 2:
            return self._do_close(s, None, "fewer than two players can trade")
        if t.closing is TradingClose.ORBIT_WITHOUT_TRADE and t.quiet_turns >= len(eligible):
            return self._do_close(s, None, "a full orbit passed without a trade")
        here = s.order.index(t.turn)
        n = len(s.order)
        nxt = next(
            s.order[(here + j) % n] for j in range(1, n + 1) if s.order[(here + j) % n] in eligible
        )
        if s.order.index(nxt) <= here:
            t.orbit += 1
        if t.closing is TradingClose.ORBITS and t.orbits is not None and t.orbit > t.orbits:
            return self._do_close(s, None, f"{t.orbits} orbit(s) of trading are over")
        t.turn = nxt
        return []

    def _do_close(self, s: HandState, by: int | None, reason: str) -> list[Event]:
        t = self._trading(s)
        t.offer, t.acceptor, t.chosen, t.responders, t.turn = None, None, {}, [], None
        returned = []
        for x in s.order:
            p = s.players[x]
            chips = p.tokens * self.config.token_value
            # SPEC 3.4: unused tokens go back to the stack.
            p.stack += chips
            p.tokens = 0
            returned.append((x, chips))
        self._goto(s, Phase.LAYOUT)
        return [TradingClosed(by, reason, tuple(returned))]

    def _do_lay_out(self, s: HandState, seat: int) -> list[Event]:
        p = s.players[seat]
        p.laid_out = True
        events: list[Event] = [LaidOut(seat, p.hand_size - LAYOUT_SIZE)]
        if all(q.laid_out for q in s.players.values()):
            s.betting_round = 1
            self._goto(s, Phase.REVEAL)
        return events

    def _do_reveal(self, s: HandState, seat: int, card: Card) -> list[Event]:
        s.players[seat].shown.append(card)
        events: list[Event] = [CardRevealed(seat, s.betting_round, card)]
        if not any(self._awaits_reveal(s, x) for x in s.order):
            events += self._open_betting(s)
        return events

    def _open_betting(self, s: HandState) -> list[Event]:
        able = [x for x in s.order if not s.players[x].folded and s.players[x].stack > 0]
        r = s.betting_round
        if len(able) < 2:
            # SPEC 3.6: with fewer than two players able to bet, the cards still turn.
            return [BettingSkipped(r), *self._next_round(s)]
        opener = opener_seat(able, [s.players[x].shown for x in able])
        s.round_state = RoundState(r, 0, 0, 0, 0, 0)
        for p in s.players.values():
            p.round_bet = 0
            p.acted_level = None
        s.needs = able
        s.actor = opener
        self._goto(s, Phase.BETTING)
        return [BettingOpened(r, opener)]

    def _next_round(self, s: HandState) -> list[Event]:
        s.round_state = None
        s.actor = None
        s.needs = []
        for p in s.players.values():
            p.round_bet = 0
            p.acted_level = None
        if s.betting_round < ROUNDS:
            s.betting_round += 1
            self._goto(s, Phase.REVEAL)
            return []
        self._goto(s, Phase.SHOWDOWN)
        return self._settle(s)

    def _settle(self, s: HandState) -> list[Event]:
        """SPEC 3.8: pots by contribution levels, best hand per pot, odd chips clockwise."""
        order = s.order
        pots = build_pots(
            order,
            [s.players[x].committed for x in order],
            [s.players[x].folded for x in order],
            s.dead_money * self.config.token_value,
        )
        awards = award_pots(pots, lambda seat: best_hand(s.players[seat].shown))
        return self._finish(s, awards)

    def _finish(self, s: HandState, awards: tuple[PotAward, ...]) -> list[Event]:
        for award in awards:
            for seat, share in zip(award.winners, award.shares, strict=True):
                s.players[seat].stack += share
        for p in s.players.values():
            p.committed = 0
            p.tokens_paid = 0
            p.round_bet = 0
        order = s.order
        s.result = HandResult(
            order,
            tuple(s.players[x].start_stack for x in order),
            tuple(s.players[x].stack for x in order),
            awards,
        )
        s.round_state, s.actor, s.needs = None, None, []
        self._goto(s, Phase.COMPLETE)
        return [HandEnded(s.result)]

    def _do_abort(self, s: HandState, blamed: tuple[int, ...], reason: str) -> list[Event]:
        for p in s.players.values():
            p.stack = p.start_stack
            p.tokens = p.tokens_paid = p.committed = p.round_bet = 0
        order = s.order
        s.result = HandResult(
            order,
            tuple(s.players[x].start_stack for x in order),
            tuple(s.players[x].start_stack for x in order),
            (),
        )
        s.round_state, s.actor, s.needs = None, None, []
        if s.trading is not None:
            s.trading.offer, s.trading.acceptor, s.trading.turn = None, None, None
        self._goto(s, Phase.ABORTED)
        return [HandAborted(blamed, reason, s.result)]

    # betting steps

    def _put(self, s: HandState, seat: int, to: int) -> int:
        p = s.players[seat]
        chips = to - p.round_bet
        p.stack -= chips
        p.committed += chips
        p.round_bet = to
        return chips

    def _do_check(self, s: HandState, seat: int) -> list[Event]:
        return [Checked(seat), *self._after_action(s, seat, raised=False)]

    def _do_call(self, s: HandState, seat: int) -> list[Event]:
        o = self._options(s, seat)
        p = s.players[seat]
        chips = self._put(s, seat, p.round_bet + o.call_amount)
        return [Called(seat, chips, p.stack == 0), *self._after_action(s, seat, raised=False)]

    def _do_fold(self, s: HandState, seat: int) -> list[Event]:
        s.players[seat].folded = True
        live = [x for x in s.order if not s.players[x].folded]
        if len(live) == 1:
            # SPEC 3.8: folding to one player ends the hand at once; it takes every chip.
            winner = live[0]
            pot = Pot(self._pot(s), (winner,))
            return [Folded(seat), *self._finish(s, (PotAward(pot, (winner,), (pot.amount,)),))]
        return [Folded(seat), *self._after_action(s, seat, raised=False)]

    def _raise_to(self, s: HandState, seat: int, to: int) -> tuple[bool, bool]:
        """Put the seat's round total up to `to` > current bet; returns (was a bet, full)."""
        rs = s.round_state
        assert rs is not None
        p = s.players[seat]
        rs = replace(rs, pot=self._pot(s))
        if rs.current_bet == 0:
            low, _ = bet_bounds(self.config, rs)
            full = to >= low
            if full:
                rs = replace(rs, full_level=to, last_full_increment=to)
            was_bet = True
        else:
            low_inc, _ = raise_increments(self.config, rs, rs.current_bet - p.round_bet)
            increment = to - rs.current_bet
            full = increment >= low_inc
            if full:
                # SPEC 3.7.2: only a full raise reopens the betting and counts toward the cap.
                rs = replace(rs, full_level=to, last_full_increment=increment, raises=rs.raises + 1)
            was_bet = False
        s.round_state = replace(rs, current_bet=to)
        self._put(s, seat, to)
        return was_bet, full

    def _do_wager(self, s: HandState, seat: int, to: int) -> list[Event]:
        p = s.players[seat]
        before = p.round_bet
        was_bet, _ = self._raise_to(s, seat, to)
        event: Event = BetPlaced(seat, to) if was_bet else Raised(seat, to, to - before)
        return [event, *self._after_action(s, seat, raised=True)]

    def _do_all_in(self, s: HandState, seat: int) -> list[Event]:
        p = s.players[seat]
        rs = s.round_state
        assert rs is not None
        to = p.round_bet + p.stack
        chips = p.stack
        if to <= rs.current_bet:
            self._put(s, seat, to)
            event = WentAllIn(seat, chips, to, ActionKind.CALL, False)
            return [event, *self._after_action(s, seat, raised=False)]
        was_bet, full = self._raise_to(s, seat, to)
        kind = ActionKind.BET if was_bet else ActionKind.RAISE
        return [WentAllIn(seat, chips, to, kind, full), *self._after_action(s, seat, raised=True)]

    def _after_action(self, s: HandState, seat: int, *, raised: bool) -> list[Event]:
        """Who acts next, or the end of the round (SPEC 3.7.3)."""
        rs = s.round_state
        assert rs is not None
        s.players[seat].acted_level = rs.full_level
        able = [x for x in s.order if not s.players[x].folded and s.players[x].stack > 0]
        needs = [x for x in s.needs if x != seat and x in able]
        if raised:
            needs = [
                x
                for x in able
                if x != seat and (x in needs or s.players[x].round_bet < rs.current_bet)
            ]
        s.needs = needs
        if not needs:
            return [BettingClosed(rs.betting_round), *self._next_round(s)]
        here = s.order.index(seat)
        n = len(s.order)
        s.actor = next(
            s.order[(here + j) % n] for j in range(1, n + 1) if s.order[(here + j) % n] in needs
        )
        return []
