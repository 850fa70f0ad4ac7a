"""Weeping Willow's blind trading: the values it passes around (the announced setup, offers,
trades, renumbering), the state it keeps over the hand, and its events (SPEC 3.4, 3.5).

Pure; no I/O. The trading rules themselves (turns, answers, closing) live in `trade_flow`.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

from p2pwillow.rules import Announcement, ConfigError, Event, Namer, Words, plural

T = TypeVar("T")


class TradingMode(enum.Enum):
    IN_TURN = "in-turn"
    FREE = "free"


class Partner(enum.Enum):
    """Who an offer trades with (SPEC 3.5): the offerer chooses among those who accepted, or
    (the rules before this option, and every hand announced without it) the first to accept."""

    OFFERER_CHOOSES = "offerer-chooses"
    FIRST_ACCEPT = "first-accept"


class TradingClose(enum.Enum):
    """How trading closes (SPEC 3.5)."""

    ORBIT_WITHOUT_TRADE = "orbit-without-trade"
    ORBITS = "orbits"
    DEALER_CALLS = "dealer-calls"


@dataclass(frozen=True, slots=True)
class Setup:
    """The trading the dealer announced: its mode, how it closes and, for `ORBITS`, after how
    many orbits, and who an offer trades with (SPEC 3.3, 3.5). Read from an announcement's
    options with `of`."""

    mode: TradingMode
    closing: TradingClose
    orbits: int | None
    partner: Partner = Partner.OFFERER_CHOOSES

    @classmethod
    def of(cls, a: Announcement) -> Setup:
        orbits = a.number("orbits")
        return cls(
            TradingMode(a.text("trading_mode")),
            TradingClose(a.text("closing")),
            orbits or None,
            Partner(a.text("partner")),
        )

    @property
    def chooses(self) -> bool:
        """The offerer chooses its partner among those who accepted (SPEC 3.5)."""
        return self.partner is Partner.OFFERER_CHOOSES


@dataclass(frozen=True, slots=True)
class TradeOffer:
    """An open offer: who offers, how many cards, and its serial number within the hand."""

    offerer: int
    k: int
    serial: int


@dataclass(frozen=True, slots=True)
class Trade:
    """A completed trade: each side's given positions, in the order each side listed them."""

    offerer: int
    acceptor: int
    k: int
    offerer_positions: tuple[int, ...]
    acceptor_positions: tuple[int, ...]


def hand_after_trade(
    held: Sequence[T], given: Sequence[int], received: Sequence[T]
) -> tuple[T, ...]:
    """The hand after a trade, as the engine numbers it (SPEC 3.4).

    Kept cards keep their relative order and become positions 0..n-k-1; the k received cards
    follow in the order the other side listed its positions. (The protocol then reshuffles the
    hand; positions named later refer to the reshuffled hand.)
    """
    if len(set(given)) != len(given) or any(not 0 <= p < len(held) for p in given):
        raise ConfigError(f"given positions {list(given)} are not distinct positions of the hand")
    if len(received) != len(given):
        raise ConfigError("a trade exchanges the same number of cards each way")
    gone = set(given)
    return tuple(c for i, c in enumerate(held) if i not in gone) + tuple(received)


@dataclass(slots=True)
class TradingState:
    """What trading keeps over the hand (`HandState.own`)."""

    mode: TradingMode
    closing: TradingClose
    orbits: int | None
    partner: Partner = Partner.FIRST_ACCEPT
    turn: int | None = None
    """In-turn mode: the seat whose turn it is to offer or pass."""
    offer: TradeOffer | None = None
    responders: list[int] = field(default_factory=list)
    """Seats that may still answer the open offer, clockwise from the offerer."""
    accepted: list[int] = field(default_factory=list)
    """`offerer-chooses`: the seats that accepted the open offer, in the order they did; the
    offerer chooses its partner among them."""
    acceptor: int | None = None
    """Set once the trade is agreed (the first accept, or the offerer's choice): both sides
    now choose their cards."""
    chosen: dict[int, tuple[int, ...]] = field(default_factory=dict)
    serial: int = 0
    quiet_turns: int = 0
    """In-turn mode: consecutive turns that ended without a trade."""
    orbit: int = 1
    trades: list[Trade] = field(default_factory=list)
    had_chance: list[int] = field(default_factory=list)
    """`offerer-chooses`: the seats that have had their chance to trade, in the order they
    had it: each offered or passed (SPEC 3.5)."""
    open: bool = True
    """Trading has not closed yet."""

    @property
    def chooses(self) -> bool:
        return self.partner is Partner.OFFERER_CHOOSES

    def clone(self) -> TradingState:
        return replace(
            self,
            responders=list(self.responders),
            accepted=list(self.accepted),
            chosen=dict(self.chosen),
            trades=list(self.trades),
            had_chance=list(self.had_chance),
        )

    def clear_offer(self) -> None:
        """No offer is open and no trade is being completed any more."""
        self.offer, self.acceptor, self.chosen, self.responders, self.accepted = (
            None,
            None,
            {},
            [],
            [],
        )

    def settle(self) -> None:
        self.clear_offer()
        self.turn = None
        self.open = False


# --- events -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TradeOffered(Event):
    offer: TradeOffer

    def words(self, n: Namer) -> Words:
        o = self.offer
        return (f"{n(o.offerer)} offers to trade {plural(o.k, 'card')}",)


@dataclass(frozen=True, slots=True)
class TradeAccepted(Event):
    seat: int
    offer: TradeOffer

    def words(self, n: Namer) -> Words:
        return (f"{n(self.seat)} accepts {n(self.offer.offerer)}'s offer of {self.offer.k}",)


@dataclass(frozen=True, slots=True)
class TradeDeclined(Event):
    seat: int
    offer: TradeOffer

    def words(self, n: Namer) -> Words:
        return (f"{n(self.seat)} declines",)


@dataclass(frozen=True, slots=True)
class PartnerChosen(Event):
    """`offerer-chooses`: the offerer chose its partner among those who accepted; the others
    who accepted are released (SPEC 3.5)."""

    offer: TradeOffer
    partner: int
    released: tuple[int, ...]

    def words(self, n: Namer) -> Words:
        o = self.offer
        return (f"{n(o.offerer)} chooses to trade {plural(o.k, 'card')} with {n(self.partner)}",)


@dataclass(frozen=True, slots=True)
class OfferLapsed(Event):
    """Every eligible player declined (or the offerer was folded for stalling)."""

    FOLLOWS = True

    offer: TradeOffer

    def words(self, n: Namer) -> Words:
        return (f"Nobody takes {n(self.offer.offerer)}'s offer",)


@dataclass(frozen=True, slots=True)
class OfferWithdrawn(Event):
    offer: TradeOffer

    def words(self, n: Namer) -> Words:
        return (f"{n(self.offer.offerer)} withdraws the offer",)


@dataclass(frozen=True, slots=True)
class Passed(Event):
    seat: int

    def words(self, n: Namer) -> Words:
        return (f"{n(self.seat)} passes",)


@dataclass(frozen=True, slots=True)
class TradeCardsChosen(Event):
    TOLD = False
    seat: int
    positions: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TradeMade(Event):
    """Both sides chose; each paid one token of `token_value` chips into the pot."""

    FOLLOWS = True

    trade: Trade
    token_value: int

    def words(self, n: Namer) -> Words:
        t = self.trade
        return (f"{n(t.offerer)} traded {plural(t.k, 'card')} with {n(t.acceptor)}",)


@dataclass(frozen=True, slots=True)
class TradingClosed(Event):
    FOLLOWS = True
    by: int | None
    """The seat that called it (the dealer, or the first player in after a dealer folded for
    stalling, SPEC 3.5), None when the announced rule or the clock closed it."""
    reason: str
    returned: tuple[tuple[int, int], ...]
    """(seat, chips) given back to the stack for unused tokens."""

    def words(self, n: Namer) -> Words:
        return (
            f"Trading closed by {n(self.by)}"
            if self.by is not None
            else f"Trading closed: {self.reason}",
        )
