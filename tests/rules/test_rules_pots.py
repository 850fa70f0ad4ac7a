"""Side pots, split pots and the odd chip, computed by hand (SPEC 3.8)."""

from __future__ import annotations

import pytest
from rules_driver import reveal_round, to_betting

from p2pwillow.cards import parse_cards
from p2pwillow.rules import (
    BettingStructure,
    ConfigError,
    Pot,
    TableConfig,
    award_pots,
    build_pots,
    split_pot,
)


def test_main_and_side_pot_with_token_money() -> None:
    pots = build_pots([1, 2, 3], [50, 100, 100], [False, False, False], dead_money=10)
    assert pots == (Pot(160, (1, 2, 3)), Pot(100, (2, 3)))


def test_folded_chips_stay_in_the_pots_they_reached() -> None:
    pots = build_pots([1, 2, 3, 4], [100, 30, 100, 60], [True, False, False, False], 0)
    assert pots == (Pot(120, (2, 3, 4)), Pot(90, (3, 4)), Pot(80, (3,)))
    assert sum(p.amount for p in pots) == 290


def test_token_money_alone_is_the_main_pot() -> None:
    assert build_pots([0, 1], [0, 0], [False, False], 20) == (Pot(20, (0, 1)),)


def test_bad_pot_input_is_refused() -> None:
    with pytest.raises(ConfigError):
        build_pots([0, 1], [10, 10], [True, True], 0)
    with pytest.raises(ConfigError):
        build_pots([0, 1], [10, -1], [False, False], 0)
    with pytest.raises(ConfigError):
        split_pot(10, [])


def test_split_and_odd_chips_go_clockwise() -> None:
    assert split_pot(101, [3, 5, 7]) == (34, 34, 33)
    assert split_pot(100, [3, 5, 7]) == (34, 33, 33)
    assert split_pot(53, [1, 2]) == (27, 26)
    assert split_pot(9, [4]) == (9,)


def test_award_pots_ties_split() -> None:
    values = {1: 5, 2: 9, 3: 9}
    awards = award_pots([Pot(101, (2, 3, 1)), Pot(40, (1,))], values.__getitem__)
    assert awards[0].winners == (2, 3) and awards[0].shares == (51, 50)
    assert awards[1].winners == (1,) and awards[1].shares == (40,)


def _finish_checking(hand, layouts) -> None:  # type: ignore[no-untyped-def]
    while not hand.is_over:
        if hand.to_act() and hand.phase.value == "betting":
            hand.check(hand.to_act()[0])
        else:
            reveal_round(hand, layouts)


def test_engine_side_pot_short_all_in_wins_main_only() -> None:
    cfg = TableConfig(seats=3, structure=BettingStructure.NO_LIMIT, min_bet=10, trade_tokens=0)
    layouts = {
        1: parse_cards("As Ad Ah Kd Qd"),  # trips
        2: parse_cards("2c 2d 2h 2s Kc"),  # quads, but only 40 chips
        0: parse_cards("3c 4d 5h 7s 9c"),  # nothing
    }
    hand = to_betting(cfg, layouts, {0: 500, 1: 500, 2: 40}, dealer=0)
    assert hand.to_act() == (1,)  # the ace showing opens
    hand.bet(1, 100)
    hand.all_in(2)  # calls 40 of 100
    hand.call(0)
    assert hand.pot == 240
    _finish_checking(hand, layouts)
    result = hand.result
    assert result is not None
    assert [(a.pot.amount, a.pot.eligible, a.winners) for a in result.awards] == [
        (120, (1, 2, 0), (2,)),
        (120, (1, 0), (1,)),
    ]
    assert (result.stack(0), result.stack(1), result.stack(2)) == (400, 520, 120)


def test_engine_split_pot_odd_chip_to_first_clockwise_from_dealer() -> None:
    cfg = TableConfig(seats=3, structure=BettingStructure.NO_LIMIT, min_bet=10, trade_tokens=0)
    layouts = {
        1: parse_cards("9c Tc Jd Qh Kd"),  # king-high straight
        2: parse_cards("9d Td Jh Qs Ks"),  # the same straight
        0: parse_cards("2c 3d 5h 7s 8c"),
    }
    hand = to_betting(cfg, layouts, {0: 300, 1: 300, 2: 300}, dealer=0)
    assert hand.to_act() == (1,)  # 9 and 9 tie; seat 1 is first clockwise from the dealer
    hand.bet(1, 11)
    hand.call(2)
    hand.call(0)
    reveal_round(hand, layouts)
    assert hand.to_act() == (1,)
    hand.bet(1, 10)
    hand.call(2)
    hand.fold(0)
    assert hand.pot == 53
    _finish_checking(hand, layouts)
    result = hand.result
    assert result is not None
    (award,) = result.awards
    assert award.winners == (1, 2) and award.shares == (27, 26)
    assert (result.stack(1), result.stack(2), result.stack(0)) == (306, 305, 289)
