"""Who opens each betting round: highest showing, ties to the first seat from the dealer."""

from __future__ import annotations

from rules_driver import reveal_round, to_betting

from p2pwillow.cards import parse_cards
from p2pwillow.rules import BettingStructure, TableConfig, opener_seat


def c(text: str) -> list:  # type: ignore[type-arg]
    return parse_cards(text)


def test_round_one_highest_card_suits_do_not_break_ties() -> None:
    assert opener_seat([3, 4, 0], [c("Kc"), c("As"), c("Qd")]) == 4
    assert opener_seat([3, 4, 0], [c("Ac"), c("As"), c("Qd")]) == 3
    assert opener_seat([4, 0, 3], [c("Ac"), c("As"), c("Ad")]) == 4


def test_partial_hands_rank_pairs_over_high_cards_and_ignore_straights() -> None:
    assert opener_seat([1, 2], [c("As Kd"), c("3c 3d")]) == 2
    assert opener_seat([1, 2], [c("9c Tc Jc Qc"), c("2d 2s 5h 6h")]) == 2
    assert opener_seat([1, 2, 3], [c("Kc Kd 4s"), c("Kh Ks 4d"), c("Qc Qd As")]) == 1
    assert opener_seat([1, 2], [c("Kc Kd 4s 4h"), c("Ac Ad As 2d")]) == 2


def test_round_five_counts_straights_and_flushes() -> None:
    assert opener_seat([1, 2], [c("Ac Ad As 2d 3h"), c("9c Tc Jd Qh Kd")]) == 2
    assert opener_seat([1, 2], [c("2c 5c 7c 9c Jc"), c("9d Td Jh Qs Ks")]) == 1


def test_engine_opener_per_round_and_skips_all_in_players() -> None:
    cfg = TableConfig(seats=4, structure=BettingStructure.NO_LIMIT, min_bet=10, trade_tokens=0)
    layouts = {
        0: parse_cards("Kc 2d 3h 4s 6c"),
        1: parse_cards("Ac 7d 8h Jd Qd"),
        2: parse_cards("As 5d 5h 9s Ts"),
        3: parse_cards("2c Kd Js 8s 7c"),
    }
    hand = to_betting(cfg, layouts, {0: 100, 1: 100, 2: 30, 3: 100}, dealer=3)
    assert hand.seats == (0, 1, 2, 3)
    assert hand.to_act() == (1,)  # aces at seats 1 and 2 tie: seat 1 is first after the dealer
    hand.check(1)
    hand.all_in(2)
    hand.call(3)
    hand.call(0)
    hand.call(1)
    reveal_round(hand, layouts)
    # Seat 2 shows A-5 but is all in; among the rest K-2, A-7, 2-K: seat 1 (ace high) opens.
    assert hand.is_all_in(2)
    assert hand.to_act() == (1,)
