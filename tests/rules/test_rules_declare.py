"""The split of a high-low pot after the declaration (SPEC 3.16), on hand-made cases from the
house's rule text: pig wins both, pig ties a side, pig loses a side, no qualifying low,
everybody pig and nobody wins, odd chips and side pots."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import pytest

from p2pwillow.cards import Card
from p2pwillow.evaluators import best_high, low_eight_or_better
from p2pwillow.rules import IllegalAction
from p2pwillow.rules.declare import Declaration, FiveSet, settle_declared, split
from p2pwillow.rules.pots import Pot

H, L, PIG = Declaration.HIGH, Declaration.LOW, Declaration.PIG


def sets(text: str) -> list[FiveSet]:
    """Every five-card set of these cards, valued high (the wheel on top, as in high-low
    games) and eight-or-better low."""
    cards = [Card.parse(t) for t in text.split()]
    return [
        (best_high(five, wheel_high=True), low_eight_or_better(five))
        for five in combinations(cards, 5)
    ]


def test_a_pig_that_wins_both_sides_takes_the_whole_pot() -> None:
    hands = {0: sets("As 2d 3h 4c 5s"), 1: sets("Kc Kd 9h 7s 2c"), 2: sets("8c 7d 5h 3s 2h")}
    award = split(Pot(300, (0, 1, 2)), {0: PIG, 1: H, 2: L}, hands)
    assert award.high == (0,) and award.low == (0,) and award.shares == ((0, 300),)
    assert not award.pigs_failed and not award.carried


def test_a_pig_that_ties_one_side_and_wins_the_other_shares_that_side() -> None:
    hands = {0: sets("As 2d 3h 4c 5s"), 1: sets("Ac 2s 3d 4h 5d")}
    # seat 1 declared low only: it ties the wheel low; seat 0's wheel wins the high outright
    award = split(Pot(200, (0, 1)), {0: PIG, 1: L}, hands)
    assert award.high == (0,) and award.low == (0, 1)
    assert dict(award.shares) == {0: 150, 1: 50}


def test_a_pig_that_loses_one_side_wins_nothing() -> None:
    hands = {0: sets("8c 6d 4h 3s 2c"), 1: sets("2d 2h 9s Jc Qd"), 2: sets("Kh Kd 7c 6s 3d")}
    award = split(Pot(300, (0, 1, 2)), {0: PIG, 1: H, 2: H}, hands)
    assert award.pigs_failed == (0,)
    # the pig is out; nobody else declared low, so the high side takes the whole pot
    assert award.high == (2,) and award.low == () and award.shares == ((2, 300),)


def test_without_a_qualifying_low_the_high_side_takes_the_pot() -> None:
    hands = {0: sets("Ac Ad 9h 7s 2c"), 1: sets("Kc Qd 9s 6h 4d")}
    award = split(Pot(150, (0, 1)), {0: H, 1: L}, hands)
    assert award.low == () and award.shares == ((0, 150),)


def test_when_everybody_goes_pig_and_nobody_wins_the_pot_carries_over() -> None:
    # seat 0 has the better high (a flush), seat 1 the better low: each fails its pig
    hands = {0: sets("2h 5h 7h 9h Jh"), 1: sets("As 2c 3d 4s 6c")}
    awards, carried = settle_declared([Pot(120, (0, 1))], {0: PIG, 1: PIG}, hands)
    assert carried == 120 and awards[0].shares == () and awards[0].pigs_failed == (0, 1)


def test_an_odd_pot_gives_the_odd_chip_to_the_high_half_and_ties_split_clockwise() -> None:
    hands = {0: sets("Kc Kd 9h 7s 3c"), 1: sets("Ks Kh 9d 7c 3s"), 2: sets("8c 7d 5h 3s 2h")}
    award = split(Pot(101, (0, 1, 2)), {0: H, 1: H, 2: L}, hands)
    assert award.high == (0, 1) and award.low == (2,)
    assert dict(award.shares) == {0: 26, 1: 25, 2: 50}


def test_a_pig_must_win_both_sides_with_one_five_card_set() -> None:
    # seven cards: its best high (a pair of kings) and its best low (7-6-4-3-2) are two
    # different fives; the low five is only seven high
    pig = sets("Kh Kd 2s 3s 4d 6c 7h")
    queens = sets("Qc Qs 9d 8c 5h 2h 3c")
    award = split(Pot(100, (0, 1)), {0: PIG, 1: H}, {0: pig, 1: queens})
    # the kings beat the queens and nobody contests the low, but no one five does both
    assert award.pigs_failed == (0,) and award.shares == ((1, 100),)
    award = split(Pot(100, (0, 1)), {0: L, 1: H}, {0: pig, 1: queens})
    assert dict(award.shares) == {0: 50, 1: 50}  # declared low, it takes the low half


def test_side_pots_are_split_among_their_own_eligible_seats() -> None:
    hands = {0: sets("As 2d 3h 4c 5s"), 1: sets("Kc Kd 9h 7s 2c"), 2: sets("8c 7d 5h 3s 2h")}
    main, side = Pot(90, (0, 1, 2)), Pot(40, (1, 2))
    awards, carried = settle_declared([main, side], {0: H, 1: H, 2: L}, hands)
    assert carried == 0
    assert dict(awards[0].shares) == {0: 45, 2: 45}  # the wheel is the best high here
    assert dict(awards[1].shares) == {1: 20, 2: 20}


def test_a_seat_in_the_pot_without_a_declaration_is_refused() -> None:
    hands: dict[int, Sequence[FiveSet]] = {0: sets("As 2d 3h 4c 5s")}
    with pytest.raises(IllegalAction):
        split(Pot(10, (0, 1)), {0: H}, hands)


def test_a_pot_with_one_contender_is_its_own_whatever_it_declared() -> None:
    # a low declarer with no qualifying low, alone in a side pot: no carry, the chips are its
    award = split(Pot(40, (2,)), {2: L}, {2: sets("Kc Kd 9h 9s 2c")})
    assert award.shares == ((2, 40),) and not award.carried and award.low == (2,)
