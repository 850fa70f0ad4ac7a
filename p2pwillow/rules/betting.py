"""Betting limits per structure and the choice of who opens a betting round (SPEC 3.6, 3.7).

Pure; no I/O. Each structure's bounds are one `match` over `BettingStructure` that covers
every member (mypy checks it), so a structure cannot fall through to another's limits.
`betting_options` answers "what may this player put in now"; `betting_round`
applies the answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import assert_never

from p2pwillow import evaluators
from p2pwillow.cards import Card
from p2pwillow.hands import best_hand, showing_value
from p2pwillow.rules.config import BettingStructure, TableConfig


@dataclass(frozen=True, slots=True)
class BetOptions:
    """What the player to act may do with chips. Amounts are round totals ("to") except
    `call_amount`, which is the chips a call puts in. None means the option is closed."""

    to_call: int
    call_amount: int
    bet_min: int | None
    bet_max: int | None
    raise_min: int | None
    raise_max: int | None
    all_in_to: int
    all_in_allowed: bool

    @property
    def can_check(self) -> bool:
        return self.to_call == 0


@dataclass(frozen=True, slots=True)
class RoundState:
    """The betting round as the limits see it (SPEC 3.7)."""

    betting_round: int
    current_bet: int
    """The highest round total so far."""
    full_level: int
    """The round total set by the last full bet or raise (0 if none): it reopens the betting."""
    last_full_increment: int
    raises: int
    """Full raises so far this round (a bet is not a raise)."""
    pot: int
    """Every chip in the middle: token money plus all bets, this round's included."""
    fixed: int = 0
    """The round's fixed-limit bet and raise size (the game's script says small or big)."""


def bet_bounds(config: TableConfig, rs: RoundState) -> tuple[int, int | None]:
    """Smallest and largest opening bet of the round; None for no upper bound (SPEC 3.7.5)."""
    structure = config.structure
    match structure:
        case BettingStructure.SPREAD_LIMIT:
            return config.min_bet, config.max_bet
        case BettingStructure.FIXED_LIMIT:
            return rs.fixed, rs.fixed
        case BettingStructure.POT_LIMIT:
            return config.min_bet, max(config.min_bet, rs.pot)
        case BettingStructure.NO_LIMIT:
            return config.min_bet, None
        case _:
            assert_never(structure)


def raise_increments(config: TableConfig, rs: RoundState, to_call: int) -> tuple[int, int | None]:
    """Smallest and largest raise increment over the current bet (SPEC 3.7.5)."""
    structure = config.structure
    match structure:
        case BettingStructure.SPREAD_LIMIT | BettingStructure.FIXED_LIMIT:
            # In the limit games a raise is by what a bet may be (SPEC 3.7.4).
            return bet_bounds(config, rs)
        case BettingStructure.POT_LIMIT:
            # Pot-sized raise: call first, then raise by the whole pot including the call.
            low = max(config.min_bet, rs.last_full_increment)
            return low, max(low, rs.pot + to_call)
        case BettingStructure.NO_LIMIT:
            return max(config.min_bet, rs.last_full_increment), None
        case _:
            assert_never(structure)


def raises_capped(config: TableConfig, rs: RoundState) -> bool:
    """Whether the round's full raises have reached the cap (spread and fixed limit only)."""
    structure = config.structure
    match structure:
        case BettingStructure.SPREAD_LIMIT | BettingStructure.FIXED_LIMIT:
            return rs.raises >= config.max_raises
        case BettingStructure.POT_LIMIT | BettingStructure.NO_LIMIT:
            return False
        case _:
            assert_never(structure)


def betting_options(
    config: TableConfig,
    rs: RoundState,
    *,
    round_bet: int,
    stack: int,
    acted_level: int | None,
    others_can_bet: bool,
) -> BetOptions:
    """What a player with `stack` behind and `round_bet` in this round may do (SPEC 3.7).

    `acted_level` is the round's full level when the player last acted (None if not yet);
    a player may raise only if a full bet or raise came after that. `others_can_bet` says
    whether anyone else still in the hand has chips behind: raising against no one is closed.
    """
    to_call = max(0, rs.current_bet - round_bet)
    call_amount = min(to_call, stack)
    all_in_to = round_bet + stack
    bet_min = bet_max = raise_min = raise_max = None
    all_in_allowed = stack > 0 and to_call > 0 and all_in_to <= rs.current_bet
    if rs.current_bet == 0:
        if others_can_bet and stack > 0:
            low, high = bet_bounds(config, rs)
            top = stack if high is None else min(high, stack)
            if low <= top:
                bet_min, bet_max = low, top
            all_in_allowed = high is None or stack <= high
    else:
        reopened = acted_level is None or acted_level < rs.full_level
        if (
            others_can_bet
            and reopened
            and not raises_capped(config, rs)
            and all_in_to > rs.current_bet
        ):
            low_inc, high_inc = raise_increments(config, rs, to_call)
            low, high = (
                rs.current_bet + low_inc,
                None if high_inc is None else rs.current_bet + high_inc,
            )
            top = all_in_to if high is None else min(high, all_in_to)
            if low <= top:
                raise_min, raise_max = low, top
            all_in_allowed = all_in_allowed or high is None or all_in_to <= high
    return BetOptions(
        to_call, call_amount, bet_min, bet_max, raise_min, raise_max, all_in_to, all_in_allowed
    )


def _showing_key(cards: Sequence[Card]) -> tuple[int, int]:
    # SPEC 3.6: partial hands rank without straights and flushes; five cards rank in full.
    if len(cards) == 5:
        return 1, best_hand(list(cards)).key
    return 0, showing_value(list(cards)).key


def high_card_seat(order: Sequence[int], showing: Sequence[Sequence[Card]]) -> int:
    """The seat with the highest card showing (SPEC 3.6): ranks only, suits never break a tie;
    among tied seats the first in `order` opens."""
    if not order or len(order) != len(showing):
        raise ValueError("high_card_seat needs one showing per seat")
    tops = [max((c.rank for c in cards), default=-1) for cards in showing]
    return order[tops.index(max(tops))]


def opener_seat(order: Sequence[int], showing: Sequence[Sequence[Card]]) -> int:
    """The seat that opens a betting round (SPEC 3.6).

    `order` lists the seats that may open, clockwise from the dealer's left, `showing` their
    face-up cards (all the same number). The highest showing opens: in round 1 the highest
    card, in rounds 2-4 the highest partial hand by `hands.showing_value`, in round 5 the best
    five-card hand by `hands.best_hand`. Suits never break ties; among tied seats the first in
    `order` opens.
    """
    if not order or len(order) != len(showing):
        raise ValueError("opener_seat needs one showing per seat")
    best_seat = order[0]
    best = _showing_key(showing[0])
    for seat, cards in zip(order[1:], showing[1:], strict=True):
        key = _showing_key(cards)
        if key > best:
            best_seat, best = seat, key
    return best_seat


def low_hand_seat(order: Sequence[int], showing: Sequence[Sequence[Card]]) -> int:
    """The seat with the best low showing (SPEC 3.6, a lowball game): the lowest face-up
    cards by `evaluators.showing_low`, ace low, pairs against; among tied seats the first in
    `order` opens."""
    if not order or len(order) != len(showing):
        raise ValueError("low_hand_seat needs one showing per seat")

    def key(cards: Sequence[Card]) -> int:
        if not cards:
            return -1
        return evaluators.showing_low(cards) if len(cards) < 5 else evaluators.low_a5(cards)

    keys = [key(cards) for cards in showing]
    return order[keys.index(max(keys))]
