"""The mutable records of one hand (players, trading, the hand itself) and the helpers every rule
module shares to read and move them (SPEC 3). Pure; no I/O, no clock, no randomness.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from p2pwillow.cards import Card
from p2pwillow.limits import is_int
from p2pwillow.rules.betting import RoundState
from p2pwillow.rules.config import TableConfig
from p2pwillow.rules.errors import IllegalAction
from p2pwillow.rules.phases import ACTIONS_BY_PHASE, TRANSITIONS, ActionKind, Phase
from p2pwillow.rules.pots import HandResult
from p2pwillow.rules.trading import Announcement, Trade, TradeOffer, TradingClose, TradingMode

# Mutable records, private to the rules package: every step works on a `clone()` (SPEC 3.3).


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


def phase_allows(s: HandState, kind: ActionKind) -> None:
    if kind not in ACTIONS_BY_PHASE[s.phase]:
        raise IllegalAction(f"{kind.value} is not allowed in the {s.phase.value} phase")


def player(s: HandState, seat: int) -> PlayerState:
    p = s.players.get(seat) if is_int(seat) else None
    if p is None:
        raise IllegalAction(f"seat {seat!r} is not in this hand")
    return p


def trading(s: HandState) -> TradingState:
    assert s.trading is not None
    return s.trading


def goto(s: HandState, phase: Phase) -> None:
    # SPEC 3.2: only the changes in TRANSITIONS exist.
    assert phase in TRANSITIONS[s.phase], (s.phase, phase)
    s.phase = phase


def pot_chips(config: TableConfig, s: HandState) -> int:
    """All chips in the middle: token money plus every bet."""
    return s.dead_money * config.token_value + sum(p.committed for p in s.players.values())
