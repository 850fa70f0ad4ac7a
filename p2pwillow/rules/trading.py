"""The dealer's announcement and the values of blind trading: offers, trades, renumbering.

Pure; no I/O. The trading rules themselves (turns, answers, closing) live in `trade_flow`
(SPEC 3.4, 3.5); this module holds the values they pass around.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from p2pwillow.limits import is_int
from p2pwillow.rules.errors import ConfigError

# SPEC 3.3: players x cards must fit the 52-card deck.
MAX_PLAYERS_FOR_DEAL: dict[int, int] = {5: 10, 6: 8, 7: 7}

T = TypeVar("T")


class TradingMode(enum.Enum):
    IN_TURN = "in-turn"
    FREE = "free"


class TradingClose(enum.Enum):
    """How trading closes (SPEC 3.5)."""

    ORBIT_WITHOUT_TRADE = "orbit-without-trade"
    ORBITS = "orbits"
    DEALER_CALLS = "dealer-calls"


@dataclass(frozen=True, slots=True)
class Announcement:
    """The dealer's announcement: deal size, trading mode, how trading closes (SPEC 3.3).

    `orbits` is the number of orbits for `TradingClose.ORBITS` and must be None otherwise.
    """

    deal_size: int = 5
    trading_mode: TradingMode = TradingMode.IN_TURN
    closing: TradingClose = TradingClose.ORBIT_WITHOUT_TRADE
    orbits: int | None = None

    def __post_init__(self) -> None:
        if not is_int(self.deal_size) or self.deal_size not in MAX_PLAYERS_FOR_DEAL:
            raise ConfigError(f"deal size must be 5, 6 or 7 cards, not {self.deal_size!r}")
        if not isinstance(self.trading_mode, TradingMode):
            raise ConfigError(f"trading mode must be a TradingMode, not {self.trading_mode!r}")
        if not isinstance(self.closing, TradingClose):
            raise ConfigError(f"closing must be a TradingClose, not {self.closing!r}")
        if self.trading_mode is TradingMode.FREE and self.closing is not TradingClose.DEALER_CALLS:
            raise ConfigError("free trading closes only when the dealer calls it")
        if self.closing is TradingClose.ORBITS:
            if not is_int(self.orbits) or not 1 <= self.orbits <= 100:
                raise ConfigError(f"orbits must be a whole number 1..100, not {self.orbits!r}")
        elif self.orbits is not None:
            raise ConfigError("orbits is only given when trading closes after a set number")

    def check_fits(self, players: int) -> None:
        """ConfigError unless `players` hands of `deal_size` cards fit one deck."""
        limit = MAX_PLAYERS_FOR_DEAL[self.deal_size]
        if players > limit:
            raise ConfigError(
                f"a {self.deal_size}-card deal seats at most {limit} players, not {players}"
            )

    def to_dict(self) -> dict[str, int | str | None]:
        return {
            "deal_size": self.deal_size,
            "trading_mode": self.trading_mode.value,
            "closing": self.closing.value,
            "orbits": self.orbits,
        }

    def to_entry(self) -> dict[str, int | str]:
        """The fields of the `announce` entry's body (SPEC 6.10): `to_dict`, with orbits 0
        when trading does not close after a set number of them."""
        return {
            "deal_size": self.deal_size,
            "trading_mode": self.trading_mode.value,
            "closing": self.closing.value,
            "orbits": self.orbits or 0,
        }

    @classmethod
    def from_entry(cls, data: Mapping[str, object]) -> Announcement:
        """Inverse of `to_entry`; ConfigError if the fields are no announcement (SPEC 3.3)."""
        return cls.from_dict({**data, "orbits": data.get("orbits") or None})

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Announcement:
        """Inverse of `to_dict`; exactly its four keys (ConfigError otherwise)."""
        keys = {"deal_size", "trading_mode", "closing", "orbits"}
        if not isinstance(data, Mapping) or set(data) != keys:
            raise ConfigError(f"an announcement has exactly the keys {sorted(keys)}")
        try:
            mode = TradingMode(data["trading_mode"])
            closing = TradingClose(data["closing"])
        except ValueError as exc:
            raise ConfigError(f"bad announcement: {exc}") from None
        return cls(data["deal_size"], mode, closing, data["orbits"])  # type: ignore[arg-type]


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
