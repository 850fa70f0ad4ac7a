"""The settlement of a split-pot game after the declaration (SPEC 3.16): each pot's high and
low halves to the best eligible hands among those who declared each side, the pig rule, halves
nobody can win, and the pot that carries over when nobody wins it. Pure; no I/O.

Theory of operation. Every player still in declares low, high or both ("pig") before the last
bet (the declaration is a sealed choice, opened together). A pot is contested by its eligible
seats (3.8). A pig player must win or tie *both* sides with *one* five-card set of its cards
(the house's same-five rule): `sets` gives, for each seat, the (high, low) value of every
five-card set its formation allows (low None where the five do not qualify). A pig that cannot
do it wins nothing of the pot and is out of it; the sides are then decided among the others.
Each side goes to the best value among its declarers, ties share; a side nobody is left to win
goes whole to the other side; a pot nobody wins carries over to the next hand.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from p2pwillow.rules.errors import IllegalAction
from p2pwillow.rules.pots import Pot, split_pot

FiveSet = tuple[int, int | None]
"""One five-card set of a player's cards: its high value and its low value (None: no low)."""


class Declaration(enum.StrEnum):
    """What a player declares for (SPEC 3.16)."""

    HIGH = "high"
    LOW = "low"
    PIG = "pig"
    """Both sides: it must win or tie both with one five-card set."""

    @property
    def high(self) -> bool:
        return self is not Declaration.LOW

    @property
    def low(self) -> bool:
        return self is not Declaration.HIGH


@dataclass(frozen=True, slots=True)
class SplitAward:
    """How one pot was split: who won each side (none: that side went to the other, or the
    pot carried over), each winner's chips, and what carried over."""

    pot: Pot
    high: tuple[int, ...]
    low: tuple[int, ...]
    shares: tuple[tuple[int, int], ...]
    """(seat, chips), each winning seat once, in the pot's order of seats."""
    carried: int
    pigs_failed: tuple[int, ...] = ()
    """Pig players who could not win or tie both sides with one set: out of this pot."""


def _best_high(sets: Sequence[FiveSet]) -> int:
    return max(high for high, _ in sets)


def _best_low(sets: Sequence[FiveSet]) -> int | None:
    lows = [low for _, low in sets if low is not None]
    return max(lows) if lows else None


def _pig_holds(
    seat: int,
    contenders: Sequence[int],
    declared: Mapping[int, Declaration],
    sets: Mapping[int, Sequence[FiveSet]],
) -> bool:
    """Whether `seat`, declared pig, has one set that wins or ties both sides against every
    other contender for each side (their best, pig or not)."""
    highs = [_best_high(sets[x]) for x in contenders if x != seat and declared[x].high]
    lows = [_best_low(sets[x]) for x in contenders if x != seat and declared[x].low]
    top_high = max(highs, default=None)
    top_low = max((low for low in lows if low is not None), default=None)
    for high, low in sets[seat]:
        if low is None:
            continue
        if (top_high is None or high >= top_high) and (top_low is None or low >= top_low):
            return True
    return False


def split(
    pot: Pot, declared: Mapping[int, Declaration], sets: Mapping[int, Sequence[FiveSet]]
) -> SplitAward:
    """Split one pot among its eligible seats by their declarations (SPEC 3.16): the high half
    is the larger when the pot is odd; each half's odd chips go clockwise (3.8)."""
    for seat in pot.eligible:
        if seat not in declared or not sets.get(seat):
            raise IllegalAction(f"seat {seat} is in the pot but has no declaration or cards")
    contenders = list(pot.eligible)
    failed: list[int] = []
    # A pig that fails is out; that may let another pig hold, so decide them all at once
    # against everyone who contends, then settle among those left.
    for seat in pot.eligible:
        if declared[seat] is Declaration.PIG and not _pig_holds(seat, contenders, declared, sets):
            failed.append(seat)
    left = [x for x in contenders if x not in failed]
    high_side = [x for x in left if declared[x].high]
    low_side = [x for x in left if declared[x].low and _best_low(sets[x]) is not None]
    high_winners = _winners(high_side, lambda x: _best_high(sets[x]))
    low_winners = _winners(low_side, lambda x: _best_low(sets[x]) or 0)
    amount = pot.amount
    if not high_winners and not low_winners:
        return SplitAward(pot, (), (), (), amount, tuple(failed))
    low_half = amount // 2 if high_winners and low_winners else (amount if low_winners else 0)
    high_half = amount - low_half
    chips: dict[int, int] = {}
    for winners, half in ((high_winners, high_half), (low_winners, low_half)):
        if winners and half:
            for seat, share in zip(winners, split_pot(half, winners), strict=True):
                chips[seat] = chips.get(seat, 0) + share
    shares = tuple((x, chips[x]) for x in pot.eligible if x in chips)
    return SplitAward(pot, high_winners, low_winners, shares, 0, tuple(failed))


def _winners(seats: Sequence[int], value: Callable[[int], int]) -> tuple[int, ...]:
    if not seats:
        return ()
    values = {x: value(x) for x in seats}
    best = max(values.values())
    return tuple(x for x in seats if values[x] == best)


def settle_declared(
    pots: Sequence[Pot],
    declared: Mapping[int, Declaration],
    sets: Mapping[int, Sequence[FiveSet]],
) -> tuple[tuple[SplitAward, ...], int]:
    """Every pot split by the declarations, and the chips that carry over to the next hand."""
    awards = tuple(split(pot, declared, sets) for pot in pots)
    return awards, sum(a.carried for a in awards)


__all__ = ["Declaration", "FiveSet", "SplitAward", "settle_declared", "split"]
