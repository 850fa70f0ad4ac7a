"""How a bot plays Weeping Willow's own step, trading, and what it announces as dealer (SPEC 9):
the part of the bot that only this game needs. Pure; no I/O.

`WillowPlay` is made by the bot (`bots.strategy.Bot`) for its seat and shares its random
source, level and opponent model; the bot asks it whenever the hand is in trading or waits for
its announcement of Weeping Willow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from p2pwillow.bots.decision import BotError, Decision, Knowledge, Random
from p2pwillow.bots.equity import TradeEstimate, estimate_trade
from p2pwillow.bots.level import Level
from p2pwillow.cards import DECK, Card
from p2pwillow.games.roll_your_own import DEAL_SIZES
from p2pwillow.games.weeping_willow import (
    WEEPING_WILLOW,
    OfferLapsed,
    OfferWithdrawn,
    Passed,
    TradeMade,
    TradeOffered,
    TradingClose,
    TradingMode,
    accepted,
    announcement,
    open_offer,
    setup,
    trade_sides,
    trades,
)
from p2pwillow.rules import ActionKind, Announcement, Hand, Phase

if TYPE_CHECKING:
    from p2pwillow.bots.opponents import OpponentModel

TRADE_SIZES = (1, 2, 3)
"""The offer sizes the bot considers; it may accept any size."""

OFFER_MARGIN = 0.045
"""Expected strength gain (0..1 scale) a trade must promise: received cards are someone's
cast-offs, not random cards, so a random-replacement estimate is optimistic."""

HEADS_UP_MARGIN = 0.2
"""The margin at normal and hard when only two players are in the hand and the opponent
never folds: a trade then improves the one opponent's hand about as much as its own, and the
layouts decide the pot (measured over long heads-up matches against players who call
everything, trading only for a gain this big wins the most layouts: 57% against 53% at 0.08).
Against an opponent who folds to bets a pot is won by betting more than by the layouts, and
the margin moves toward OFFER_MARGIN with its fold rate (`Bot._margin`)."""

DEALER_ORBITS = 4
"""In-turn trading that the dealer closes: the bot closes after at most this many orbits."""

FREE_TRADES_PER_SEAT = 1
"""Free trading: the dealer closes once the hand has seen this many trades per seat."""

ANNOUNCE_ORBITS = 0.25
ANNOUNCE_FREE = 0.25
ANNOUNCE_DEALER_CALLS = 0.15
"""How often the dealer announces in-turn trading closed after a set number of orbits, free
trading (closed when the dealer calls it) and in-turn trading closed when the dealer calls
it; the rest of the time in-turn trading closed by an orbit without a trade."""


class WillowPlay:
    """One seat's trading and announcements in Weeping Willow."""

    def __init__(
        self,
        seat: int,
        rng: Random,
        level: Level,
        model: OpponentModel | None,
        *,
        draws: int,
        max_trades: int,
    ) -> None:
        self.seat = seat
        self.rng = rng
        self.level = level
        self.model = model
        self.draws = draws
        self.max_trades = max_trades
        self._last_look: tuple[Hand, int] | None = None
        """The hand and its number of events when the free-trading dealer last waited."""

    def initiative(self, hand: Hand, knowledge: Knowledge) -> Decision | None:
        """An action this seat takes now although the engine is not waiting for it, or None.

        In free trading with no offer open, any eligible seat may offer (SPEC 3.5): this is
        its offer, if it wants one. Where the dealer closes trading by calling it and the
        turn is someone else's, this is the dealer closing once a full orbit of turns has
        passed without a trade (or after DEALER_ORBITS orbits in all).

        The free-trading dealer is asked here too while no offer is open (the engine waits
        for it, but need not have its answer at once): it offers if it wants to, closes once
        FREE_TRADES_PER_SEAT trades per seat were made or when it looks a second time at a
        hand where nothing happened since its last look (a full round with no interest),
        and otherwise waits (None).
        """
        seat = self.seat
        if hand.phase is not Phase.TRADING:
            return None
        a = setup(hand)
        free = a is not None and a.mode is TradingMode.FREE
        idle = open_offer(hand) is None and trade_sides(hand) is None
        waited = seat in hand.to_act()
        if free and idle and waited and hand.can(ActionKind.PASS, seat):
            # offerer-chooses: its chance to trade, before the dealer may close (SPEC 3.5)
            return self._offer_or(hand, knowledge, ActionKind.PASS)
        dealer_waits = free and idle and seat == hand.dealer
        if waited and not dealer_waits:
            return None
        enough = len(trades(hand)) >= FREE_TRADES_PER_SEAT * len(hand.seats)
        if dealer_waits and enough and hand.can(ActionKind.CLOSE_TRADING, seat):
            # offerer-chooses: not before every seat had its chance to offer or pass
            return Decision(ActionKind.CLOSE_TRADING)
        if hand.can(ActionKind.OFFER, seat, 1):
            k = self._offer_size(hand, knowledge)
            if k is not None:
                return Decision(ActionKind.OFFER, k=k)
        if (
            a is not None
            and a.mode is TradingMode.IN_TURN
            and hand.can(ActionKind.CLOSE_TRADING, seat)
            and self._dealer_closes(hand, own_turn=False)
        ):
            return Decision(ActionKind.CLOSE_TRADING)
        if dealer_waits and hand.can(ActionKind.CLOSE_TRADING, seat):
            look = len(hand.events)
            last = self._last_look
            self._last_look = (hand, look)
            if last is not None and last[0] is hand and last[1] == look:
                return Decision(ActionKind.CLOSE_TRADING)
        return None

    def announce(self, hand: Hand) -> Announcement:
        """A deal size that fits the table, and one of the trading modes and closings of
        SPEC 3.3, 3.5 at the rates ANNOUNCE_* give."""
        players = len(hand.seats)
        sizes = [d for d in DEAL_SIZES if players <= WEEPING_WILLOW.seats_for({"deal_size": d})]
        size = self.rng.choice(sizes)
        draw = self.rng.random()
        if draw < ANNOUNCE_ORBITS:
            orbits = self.rng.randint(1, 2)
            return announcement(size, TradingMode.IN_TURN, TradingClose.ORBITS, orbits)
        draw -= ANNOUNCE_ORBITS
        if draw < ANNOUNCE_FREE:
            return announcement(size, TradingMode.FREE, TradingClose.DEALER_CALLS)
        if draw - ANNOUNCE_FREE < ANNOUNCE_DEALER_CALLS:
            return announcement(size, TradingMode.IN_TURN, TradingClose.DEALER_CALLS)
        return announcement(size, TradingMode.IN_TURN, TradingClose.ORBIT_WITHOUT_TRADE)

    # --- trading ------------------------------------------------------------------------------

    def _unseen_for_trade(self, knowledge: Knowledge) -> list[Card]:
        # Cards it gave away are someone's cast-offs; they are not what a trade brings.
        gone = set(knowledge.cards) | {c for cards in knowledge.given.values() for c in cards}
        return [card for card in DECK if card not in gone]

    def _estimate(self, knowledge: Knowledge, k: int) -> TradeEstimate:
        return estimate_trade(
            knowledge.cards, k, self._unseen_for_trade(knowledge), self.rng, self.draws
        )

    def _margin(self, hand: Hand) -> float:
        """The expected strength gain an offer or an accept needs: OFFER_MARGIN, and at normal
        and hard heads-up HEADS_UP_MARGIN against a player who never folds, OFFER_MARGIN
        against one who always does, in proportion between."""
        if self.model is None or len(hand.seats) != 2:
            return OFFER_MARGIN
        other = next(seat for seat in hand.seats if seat != self.seat)
        calls = 1.0 - self.model.read(other).fold_rate
        return OFFER_MARGIN + (HEADS_UP_MARGIN - OFFER_MARGIN) * calls

    def _my_trades(self, hand: Hand) -> int:
        return sum(1 for t in trades(hand) if self.seat in (t.offerer, t.acceptor))

    def _offer_size(self, hand: Hand, knowledge: Knowledge) -> int | None:
        """The k to offer, or None: the size whose swap promises the most, if it is enough."""
        seat = self.seat
        if hand.tokens(seat) < 1 or self._my_trades(hand) >= self.max_trades:
            return None
        if self._offer_went_nowhere(hand):
            return None
        best: tuple[float, int] | None = None
        for k in TRADE_SIZES:
            if k > len(knowledge.cards) or not hand.can(ActionKind.OFFER, seat, k):
                continue
            # A slight preference for small trades: fewer cards handed to an opponent.
            score = self._estimate(knowledge, k).gain - 0.005 * k
            if best is None or score > best[0]:
                best = (score, k)
        if best is None or best[0] < self._margin(hand) + self.rng.uniform(-0.015, 0.015):
            return None
        return best[1]

    def _offer_went_nowhere(self, hand: Hand) -> bool:
        """Its last offer lapsed or was withdrawn and its hand has not changed since."""
        seat = self.seat
        last = None
        for i, event in enumerate(hand.events):
            if isinstance(event, TradeOffered) and event.offer.offerer == seat:
                last = i
        if last is None:
            return False
        later = hand.events[last + 1 :]
        ended = any(isinstance(e, OfferLapsed | OfferWithdrawn) for e in later)
        traded = any(
            isinstance(e, TradeMade) and seat in (e.trade.offerer, e.trade.acceptor) for e in later
        )
        return ended and not traded

    def _dealer_closes(self, hand: Hand, *, own_turn: bool) -> bool:
        """In-turn trading the dealer closes: close after a full orbit of turns without a
        trade (its own turn, if it is now, ending the orbit), or after DEALER_ORBITS orbits."""
        quiet = turns = 0
        for event in hand.events:
            # SPEC 3.5: an in-turn turn ends with a pass, a lapsed or withdrawn offer, or a
            # trade.
            if isinstance(event, Passed | OfferLapsed | OfferWithdrawn):
                quiet += 1
                turns += 1
            elif isinstance(event, TradeMade):
                quiet = 0
                turns += 1
        eligible = sum(1 for seat in hand.seats if hand.tokens(seat) >= 1)
        return turns >= DEALER_ORBITS * len(hand.seats) or quiet + own_turn >= eligible

    def _offer_or(self, hand: Hand, knowledge: Knowledge, otherwise: ActionKind) -> Decision:
        k = self._offer_size(hand, knowledge)
        return Decision(ActionKind.OFFER, k=k) if k is not None else Decision(otherwise)

    def decide(self, hand: Hand, knowledge: Knowledge, legal: frozenset[ActionKind]) -> Decision:
        seat = self.seat
        if ActionKind.CHOOSE_TRADE_CARDS in legal:
            sides = trade_sides(hand)
            assert sides is not None
            return Decision(
                ActionKind.CHOOSE_TRADE_CARDS, positions=self._estimate(knowledge, sides[2]).give
            )
        if ActionKind.CHOOSE_PARTNER in legal:
            # every answer is in: any of those who accepted brings someone's cast-offs alike
            return Decision(ActionKind.CHOOSE_PARTNER, partner=self.rng.choice(accepted(hand)))
        offer = open_offer(hand)
        if offer is not None and ActionKind.ACCEPT in legal:
            if self._my_trades(hand) < self.max_trades and offer.k <= len(knowledge.cards):
                gain = self._estimate(knowledge, offer.k).gain - 0.005 * offer.k
                if gain >= self._margin(hand) + self.rng.uniform(-0.015, 0.015):
                    return Decision(ActionKind.ACCEPT)
            return Decision(ActionKind.DECLINE)
        if ActionKind.OFFER in legal:
            k = self._offer_size(hand, knowledge)
            if k is not None:
                return Decision(ActionKind.OFFER, k=k)
        if ActionKind.PASS in legal:
            if ActionKind.CLOSE_TRADING in legal and self._dealer_closes(hand, own_turn=True):
                return Decision(ActionKind.CLOSE_TRADING)
            return Decision(ActionKind.PASS)
        if ActionKind.CLOSE_TRADING in legal:
            # Free trading: the engine waits for the dealer only once nobody else offers.
            return Decision(ActionKind.CLOSE_TRADING)
        if ActionKind.DECLINE in legal:
            return Decision(ActionKind.DECLINE)
        if ActionKind.WITHDRAW in legal:
            return Decision(ActionKind.WITHDRAW)
        raise BotError(f"seat {seat} has nothing it can do in trading now")
