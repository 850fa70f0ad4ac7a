"""The frozen events a hand emits, one per action or input, plus the ones it makes itself.

Pure; no I/O. Names are past tense; the session records them and the client shows them.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pwillow.cards import Card
from p2pwillow.rules.phases import ActionKind, Phase
from p2pwillow.rules.pots import HandResult
from p2pwillow.rules.trading import Announcement, Trade, TradeOffer


@dataclass(frozen=True, slots=True)
class Announced:
    seat: int
    announcement: Announcement


@dataclass(frozen=True, slots=True)
class Dealt:
    deal_size: int
    seats: tuple[int, ...]
    tokens: tuple[int, ...]
    """Tokens each seat set aside, aligned with `seats` (SPEC 3.4)."""


@dataclass(frozen=True, slots=True)
class TradeOffered:
    offer: TradeOffer


@dataclass(frozen=True, slots=True)
class TradeAccepted:
    seat: int
    offer: TradeOffer


@dataclass(frozen=True, slots=True)
class TradeDeclined:
    seat: int
    offer: TradeOffer


@dataclass(frozen=True, slots=True)
class OfferLapsed:
    """Every eligible player declined."""

    offer: TradeOffer


@dataclass(frozen=True, slots=True)
class OfferWithdrawn:
    offer: TradeOffer


@dataclass(frozen=True, slots=True)
class Passed:
    seat: int


@dataclass(frozen=True, slots=True)
class TradeCardsChosen:
    seat: int
    positions: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TradeMade:
    """Both sides chose; each paid one token of `token_value` chips into the pot."""

    trade: Trade
    token_value: int


@dataclass(frozen=True, slots=True)
class TradingClosed:
    by: int | None
    """The seat that called it (the dealer, or the first player in after a dealer folded for
    stalling, SPEC 3.5), None when the announced rule or the clock closed it."""
    reason: str
    returned: tuple[tuple[int, int], ...]
    """(seat, chips) given back to the stack for unused tokens."""


@dataclass(frozen=True, slots=True)
class LaidOut:
    seat: int
    discarded: int


@dataclass(frozen=True, slots=True)
class CardRevealed:
    seat: int
    betting_round: int
    card: Card


@dataclass(frozen=True, slots=True)
class BettingOpened:
    betting_round: int
    opener: int


@dataclass(frozen=True, slots=True)
class BettingSkipped:
    """Fewer than two players can bet, so the round has no betting."""

    betting_round: int


@dataclass(frozen=True, slots=True)
class BettingClosed:
    betting_round: int


@dataclass(frozen=True, slots=True)
class Checked:
    seat: int


@dataclass(frozen=True, slots=True)
class BetPlaced:
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class Called:
    seat: int
    amount: int
    """Chips put in by this call; less than the bet when the caller is all in for less."""
    all_in: bool


@dataclass(frozen=True, slots=True)
class Raised:
    seat: int
    to: int
    """The seat's total bet in this round after the raise."""
    amount: int


@dataclass(frozen=True, slots=True)
class Folded:
    seat: int


@dataclass(frozen=True, slots=True)
class WentAllIn:
    seat: int
    amount: int
    """Chips put in by this action (the seat's whole stack)."""
    to: int
    """The seat's total bet in this round afterwards."""
    as_action: ActionKind
    """CALL, BET or RAISE: what the all-in amounts to."""
    full: bool
    """True when a bet or raise is big enough to reopen the betting (SPEC 3.7.2)."""


@dataclass(frozen=True, slots=True)
class TimedOut:
    seat: int
    outcome: Event
    """The default action taken for the seat (check, fold, pass, decline, withdraw, close)."""


@dataclass(frozen=True, slots=True)
class FoldedForStalling:
    """A player still in owed a protocol step after the deal and did not give it: it is folded
    out of turn and whatever it bet stays in the pot (SPEC 3.9)."""

    seat: int
    phase: Phase
    """The phase the hand was in (TRADING, LAYOUT, REVEAL or BETTING)."""
    returned: int
    """Chips given back to its stack for trade tokens it had not used (trading only)."""
    void_trade: TradeOffer | None
    """The accepted offer of a trade it was a side of, now undone: no cards change hands, no
    token is paid, and the other side's chosen cards (if it chose) are not given."""
    partner: int | None
    """The other side of `void_trade`."""


@dataclass(frozen=True, slots=True)
class HandEnded:
    result: HandResult


@dataclass(frozen=True, slots=True)
class HandAborted:
    blamed: tuple[int, ...]
    reason: str
    result: HandResult


Event = (
    Announced
    | Dealt
    | TradeOffered
    | TradeAccepted
    | TradeDeclined
    | OfferLapsed
    | OfferWithdrawn
    | Passed
    | TradeCardsChosen
    | TradeMade
    | TradingClosed
    | LaidOut
    | CardRevealed
    | BettingOpened
    | BettingSkipped
    | BettingClosed
    | Checked
    | BetPlaced
    | Called
    | Raised
    | Folded
    | WentAllIn
    | TimedOut
    | FoldedForStalling
    | HandEnded
    | HandAborted
)
