"""Weeping Willow, the catalogue's first game (SPEC 3.13.1): deal five to seven cards, trade
blind, lay five out face down, then play as in Roll Your Own: turn one and bet, five times.

Pure; no I/O. Its own step is trading (`trade_flow`, with the values and events of `trading`);
the rest of its script is the engine's steps. `announcement(...)` builds the dealer's
announcement from Weeping Willow's own words.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from p2pwillow.games.roll_your_own import DEAL_SIZE, LAYOUT, five_rounds
from p2pwillow.games.weeping_willow.trade_flow import (
    ROWS,
    Trading,
    closer,
    eligible,
    trading,
    waiting_for_chance,
)
from p2pwillow.games.weeping_willow.trading import (
    OfferLapsed,
    OfferWithdrawn,
    Partner,
    PartnerChosen,
    Passed,
    Setup,
    Trade,
    TradeAccepted,
    TradeCardsChosen,
    TradeDeclined,
    TradeMade,
    TradeOffer,
    TradeOffered,
    TradingClose,
    TradingClosed,
    TradingMode,
    TradingState,
    hand_after_trade,
)
from p2pwillow.rules import (
    ActionKind,
    Announcement,
    Event,
    Forced,
    GameSpec,
    Hand,
    Option,
    OptionValue,
)
from p2pwillow.rules.streets import DealDown, LayOut, Showdown

WEEPING_WILLOW = GameSpec(
    name="weeping-willow",
    title="Weeping Willow",
    options=(
        DEAL_SIZE,
        Option(
            "trading_mode",
            TradingMode.IN_TURN.value,
            choices=tuple(m.value for m in TradingMode),
            title="trading",
        ),
        Option(
            "closing",
            TradingClose.ORBIT_WITHOUT_TRADE.value,
            choices=tuple(c.value for c in TradingClose),
            title="trading closes",
        ),
        Option("orbits", 0, low=0, high=100, title="orbits"),
        Option(
            "partner",
            Partner.OFFERER_CHOOSES.value,
            choices=tuple(p.value for p in Partner),
            title="partner",
        ),
    ),
    forced=Forced.TRADE_TOKENS,
    script=(DealDown("deal_size"), Trading(), LayOut(LAYOUT), *five_rounds(), Showdown(LAYOUT)),
)

BEFORE_PARTNER: dict[str, OptionValue] = {"partner": Partner.FIRST_ACCEPT.value}
"""The options Weeping Willow gained since its first description, each at the value that
plays as before (SPEC 3.13.1): an announcement of the former description, or the older
`announce` entry, is read with them."""


def former_description() -> dict[str, object]:
    """Weeping Willow's description before it gained the options of `BEFORE_PARTNER` (SPEC
    3.13.1): what announcements made with it pin."""
    described = WEEPING_WILLOW.describe()
    options = described["options"]
    assert isinstance(options, list)
    described["options"] = [o for o in options if o["name"] not in BEFORE_PARTNER]
    return described


def announcement(
    deal_size: int = 5,
    trading_mode: TradingMode = TradingMode.IN_TURN,
    closing: TradingClose = TradingClose.ORBIT_WITHOUT_TRADE,
    orbits: int | None = None,
    partner: Partner = Partner.OFFERER_CHOOSES,
) -> Announcement:
    """A Weeping Willow announcement (SPEC 3.3): deal size, trading mode, how trading closes
    and, when it closes after a set number of orbits, how many; who an offer trades with."""
    return Announcement.of(
        WEEPING_WILLOW,
        deal_size=deal_size,
        trading_mode=TradingMode(trading_mode).value,
        closing=TradingClose(closing).value,
        orbits=orbits or 0,
        partner=Partner(partner).value,
    )


# --- reading a Weeping Willow hand ---------------------------------------------------------------


def _trading(hand: Hand) -> TradingState | None:
    own = hand.own
    return own if isinstance(own, TradingState) else None


def open_offer(hand: Hand) -> TradeOffer | None:
    """The offer awaiting answers (None once accepted: see `trade_sides`)."""
    t = _trading(hand)
    if t is None or not t.open or t.acceptor is not None:
        return None
    return t.offer


def accepted(hand: Hand) -> tuple[int, ...]:
    """`offerer-chooses`: the seats that accepted the open offer so far, in the order they
    did; the offerer chooses among them (SPEC 3.5)."""
    t = _trading(hand)
    if t is None or t.offer is None or t.acceptor is not None:
        return ()
    return tuple(t.accepted)


def answering(hand: Hand) -> tuple[int, ...]:
    """The seats that may still answer the open offer, in table order."""
    t = _trading(hand)
    if t is None or t.offer is None or t.acceptor is not None:
        return ()
    return tuple(x for x in hand.seats if x in t.responders)


def had_chance(hand: Hand) -> tuple[int, ...]:
    """`offerer-chooses`: the seats that have offered or passed this hand (SPEC 3.5)."""
    t = _trading(hand)
    return () if t is None else tuple(t.had_chance)


def trade_sides(hand: Hand) -> tuple[int, int, int] | None:
    """(offerer, acceptor, k) of an agreed trade whose cards are being chosen."""
    t = _trading(hand)
    if t is None or t.offer is None or t.acceptor is None:
        return None
    return t.offer.offerer, t.acceptor, t.offer.k


def trades(hand: Hand) -> tuple[Trade, ...]:
    """The trades made in the hand, in order."""
    t = _trading(hand)
    return () if t is None else tuple(t.trades)


def setup(hand: Hand) -> Setup | None:
    """The trading the dealer announced (None before the announcement or in another game)."""
    a = hand.announcement
    return None if a is None or a.game is not WEEPING_WILLOW else Setup.of(a)


# --- the trading actions, by name (tests and bots read better so) ---------------------------------

E = TypeVar("E", bound=Event)


def _act(hand: Hand, kind: ActionKind, seat: int, argument: object, event: type[E]) -> E:
    done = hand.act(kind, seat, argument)
    assert isinstance(done, event), (kind, done)
    return done


def offer(hand: Hand, seat: int, k: int) -> TradeOffered:
    return _act(hand, ActionKind.OFFER, seat, k, TradeOffered)


def accept(hand: Hand, seat: int, offer: TradeOffer | None = None) -> TradeAccepted:
    return _act(hand, ActionKind.ACCEPT, seat, offer, TradeAccepted)


def decline(hand: Hand, seat: int, offer: TradeOffer | None = None) -> TradeDeclined:
    return _act(hand, ActionKind.DECLINE, seat, offer, TradeDeclined)


def withdraw(hand: Hand, seat: int) -> OfferWithdrawn:
    return _act(hand, ActionKind.WITHDRAW, seat, None, OfferWithdrawn)


def pass_turn(hand: Hand, seat: int) -> Passed:
    return _act(hand, ActionKind.PASS, seat, None, Passed)


def choose_trade_cards(hand: Hand, seat: int, positions: Sequence[int]) -> TradeCardsChosen:
    return _act(hand, ActionKind.CHOOSE_TRADE_CARDS, seat, tuple(positions), TradeCardsChosen)


def choose_partner(hand: Hand, seat: int, partner: int) -> PartnerChosen:
    return _act(hand, ActionKind.CHOOSE_PARTNER, seat, partner, PartnerChosen)


def close_trading(hand: Hand, seat: int) -> TradingClosed:
    return _act(hand, ActionKind.CLOSE_TRADING, seat, None, TradingClosed)


__all__ = [
    "BEFORE_PARTNER",
    "ROWS",
    "WEEPING_WILLOW",
    "OfferLapsed",
    "OfferWithdrawn",
    "Partner",
    "PartnerChosen",
    "Passed",
    "Setup",
    "Trade",
    "TradeAccepted",
    "TradeCardsChosen",
    "TradeDeclined",
    "TradeMade",
    "TradeOffer",
    "TradeOffered",
    "Trading",
    "TradingClose",
    "TradingClosed",
    "TradingMode",
    "TradingState",
    "accept",
    "accepted",
    "announcement",
    "answering",
    "choose_partner",
    "choose_trade_cards",
    "close_trading",
    "closer",
    "decline",
    "eligible",
    "former_description",
    "had_chance",
    "hand_after_trade",
    "offer",
    "open_offer",
    "pass_turn",
    "setup",
    "trade_sides",
    "trades",
    "trading",
    "waiting_for_chance",
    "withdraw",
]
