"""Pots: the main pot and side pots from what each player put in, and how they are split.

Pure; no I/O. SPEC 3.8: token money sits in the main pot; odd chips go clockwise from the
dealer's left.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from p2pwillow.rules.errors import ConfigError


class _Comparable(Protocol):
    def __lt__(self, other: Any, /) -> bool: ...


V = TypeVar("V", bound=_Comparable)


@dataclass(frozen=True, slots=True)
class Pot:
    """A pot and the seats that can win it, clockwise from the dealer's left."""

    amount: int
    eligible: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PotAward:
    """Who won a pot and how many chips each winner got (aligned with `winners`)."""

    pot: Pot
    winners: tuple[int, ...]
    shares: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended: every seat's stack before and after, and the awards; the chips that
    came into it carried over from the last hand and those it carries over to the next (SPEC
    3.16). Chips are conserved: start stacks + carried_in = final stacks + carried."""

    seats: tuple[int, ...]
    start_stacks: tuple[int, ...]
    final_stacks: tuple[int, ...]
    awards: tuple[PotAward, ...]
    carried_in: int = 0
    carried: int = 0

    @property
    def conserved(self) -> bool:
        return sum(self.start_stacks) + self.carried_in == sum(self.final_stacks) + self.carried

    def stack(self, seat: int) -> int:
        return self.final_stacks[self.seats.index(seat)]

    def net(self, seat: int) -> int:
        i = self.seats.index(seat)
        return self.final_stacks[i] - self.start_stacks[i]


def build_pots(
    order: Sequence[int], bets: Sequence[int], folded: Sequence[bool], dead_money: int
) -> tuple[Pot, ...]:
    """Split the chips into a main pot and side pots (SPEC 3.8).

    `order` lists the seats clockwise from the dealer's left, `bets` what each put in by
    betting over the whole hand, `folded` whether each folded; `dead_money` (the trade tokens)
    goes into the main pot. Levels are the distinct totals of players still in; pot i holds,
    from every player folded or not, what they put in between level i-1 and level i, and the
    players still in who reached level i may win it. Empty pots are dropped.
    """
    if not (len(order) == len(bets) == len(folded)) or not order:
        raise ConfigError("pots need one bet and one fold flag per seat")
    if any(b < 0 for b in bets) or dead_money < 0:
        raise ConfigError("bets and dead money cannot be negative")
    live = [b for b, f in zip(bets, folded, strict=True) if not f]
    if not live:
        raise ConfigError("at least one player must still be in the hand")
    levels = sorted(set(live))
    pots: list[Pot] = []
    previous = 0
    for i, level in enumerate(levels):
        amount = sum(min(b, level) - min(b, previous) for b in bets)
        if i == 0:
            amount += dead_money
        if i == len(levels) - 1:
            # Chips above the highest live total (cannot arise from legal betting) stay here.
            amount += sum(b - level for b in bets if b > level)
        eligible = tuple(
            s for s, b, f in zip(order, bets, folded, strict=True) if not f and b >= level
        )
        if amount:
            pots.append(Pot(amount, eligible))
        previous = level
    return tuple(pots)


def split_pot(amount: int, winners: Sequence[int]) -> tuple[int, ...]:
    """Equal shares; the odd chips go one each to the first winners in the given order."""
    if not winners:
        raise ConfigError("a pot needs at least one winner")
    base, odd = divmod(amount, len(winners))
    return tuple(base + (1 if i < odd else 0) for i in range(len(winners)))


def award_pots(pots: Sequence[Pot], value: Callable[[int], V]) -> tuple[PotAward, ...]:
    """Give each pot to its best hands (`value(seat)`, higher wins); ties split (SPEC 3.8).

    Eligible seats are already in clockwise order from the dealer's left, so that order
    decides who gets an odd chip.
    """
    awards: list[PotAward] = []
    for pot in pots:
        values = [(seat, value(seat)) for seat in pot.eligible]
        best = values[0][1]
        for _, v in values[1:]:
            if best < v:
                best = v
        winners = tuple(seat for seat, v in values if not (v < best or best < v))
        awards.append(PotAward(pot, winners, split_pot(pot.amount, winners)))
    return tuple(awards)
