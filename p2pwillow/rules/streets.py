"""The steps any game's script can use: deal down, lay out, turn a laid-out card, a betting round
and the showdown (SPEC 3.13). Pure; no I/O.

Each step type is a frozen dataclass whose fields are its description; its methods are the
step's rules, written in the rule module of its phase (`rounds`, `betting_round`, `showdown`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from p2pwillow.limits import is_int
from p2pwillow.rules import betting_round, rounds, showdown
from p2pwillow.rules.config import TableConfig
from p2pwillow.rules.errors import ConfigError, IllegalAction
from p2pwillow.rules.events import Event, plural
from p2pwillow.rules.phases import Phase
from p2pwillow.rules.script import (
    BetSize,
    CardOp,
    Default,
    OpDue,
    Opening,
    OptionValue,
    Step,
)
from p2pwillow.rules.state import HandState, player


@dataclass(frozen=True, slots=True)
class DealDown(Step):
    """Every player in the hand gets `cards` cards face down (SPEC 3.3, 5.5): a number, or the
    name of the option that holds it."""

    KIND: ClassVar[str] = "deal-down"
    PHASE: ClassVar[Phase] = Phase.DEAL
    cards: int | str

    def reads(self) -> tuple[str, ...]:
        return (self.cards,) if isinstance(self.cards, str) else ()

    def cards_each(self, chosen: Mapping[str, OptionValue]) -> int:
        count = chosen[self.cards] if isinstance(self.cards, str) else self.cards
        if not is_int(count) or count < 1:
            raise ConfigError(f"a deal is at least one card each, not {count!r}")
        return count

    def words(self, chosen: Mapping[str, OptionValue]) -> str:
        return plural(self.cards_each(chosen), "card") if isinstance(self.cards, str) else ""

    def ops(self, s: HandState) -> tuple[OpDue, ...]:
        # Every key holder publishes its shares of the cards dealt to the others (SPEC 5.5).
        a = s.announcement
        assert a is not None
        count = self.cards_each(a.options)
        return tuple(OpDue(CardOp.DEAL_DOWN, seat, count) for seat in s.order)


@dataclass(frozen=True, slots=True)
class LayOut(Step):
    """Every player still in picks `cards` cards of its hand and fixes the order they will turn
    in, face down; the rest are discarded face down, never shown (SPEC 3.6, 5.8)."""

    KIND: ClassVar[str] = "lay-out"
    PHASE: ClassVar[Phase] = Phase.LAYOUT
    cards: int = 5

    def to_act(self, s: HandState) -> tuple[int, ...]:
        return tuple(x for x in s.order if rounds.awaits_layout(s, x))

    def ops(self, s: HandState) -> tuple[OpDue, ...]:
        return tuple(OpDue(CardOp.LAYOUT, x) for x in self.to_act(s))

    def stall(self, config: TableConfig, s: HandState, seat: int) -> list[Event]:
        return rounds.do_stall_layout(config, s, seat)


@dataclass(frozen=True, slots=True)
class Turn(Step):
    """Every player still in turns laid-out card `card` (0 for the first) face up (SPEC 3.6,
    5.9)."""

    KIND: ClassVar[str] = "turn"
    PHASE: ClassVar[Phase] = Phase.REVEAL
    card: int

    def to_act(self, s: HandState) -> tuple[int, ...]:
        return tuple(x for x in s.order if rounds.awaits_reveal(s, x))

    def ops(self, s: HandState) -> tuple[OpDue, ...]:
        return tuple(OpDue(CardOp.REVEAL, x, self.card) for x in self.to_act(s))

    def stall(self, config: TableConfig, s: HandState, seat: int) -> list[Event]:
        return rounds.do_stall_reveal(config, s, seat)


@dataclass(frozen=True, slots=True)
class Bet(Step):
    """A betting round (SPEC 3.7), opened as `opening` says, at the table's `size` fixed-limit
    bet where the structure is fixed limit."""

    KIND: ClassVar[str] = "bet"
    PHASE: ClassVar[Phase] = Phase.BETTING
    opening: Opening
    size: BetSize

    def enter(self, config: TableConfig, s: HandState) -> list[Event]:
        return betting_round.open_round(config, s, self.opening, self.size)

    def to_act(self, s: HandState) -> tuple[int, ...]:
        assert s.actor is not None
        return (s.actor,)

    def default(self, config: TableConfig, s: HandState, seat: int) -> Default:
        # SPEC 3.9: check if free, else fold.
        player(s, seat)
        if seat != s.actor:
            raise IllegalAction(f"seat {seat} is not the one to act")
        if betting_round.options(config, s, seat).can_check:
            return lambda n: betting_round.do_check(config, n, seat)
        return lambda n: betting_round.do_fold(config, n, seat)

    def stall(self, config: TableConfig, s: HandState, seat: int) -> list[Event]:
        return betting_round.do_stall(config, s, seat)


@dataclass(frozen=True, slots=True)
class Showdown(Step):
    """The players still in show: the best five-card high hand of the cards showing wins each
    pot (SPEC 3.8)."""

    KIND: ClassVar[str] = "showdown"
    PHASE: ClassVar[Phase] = Phase.SHOWDOWN
    cards: int = 5
    """The cards showing at the showdown: a hand is valued once this many are turned."""

    def enter(self, config: TableConfig, s: HandState) -> list[Event]:
        return showdown.settle(config, s)


__all__ = ["Bet", "DealDown", "LayOut", "Showdown", "Turn"]
