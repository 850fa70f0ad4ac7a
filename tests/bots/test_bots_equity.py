"""Strength, trade estimates and Monte Carlo equity: sane numbers, kept pairs, bad input refused."""

from __future__ import annotations

import random

import pytest

from p2pwillow.bots import BotError, OpponentView, equity, estimate_trade, strength
from p2pwillow.bots.equity import rank_any
from p2pwillow.cards import DECK, Card, parse_cards
from p2pwillow.hands import rank5


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def _key(text: str) -> int:
    return rank5([c.index for c in _cards(text)])


def _eq(layout: str, opponents: list[OpponentView], samples: int = 1500, seed: int = 1) -> float:
    return equity(_cards(layout), opponents, (), random.Random(seed), samples)


def _opp(
    showing: str, size: int = 5, aggression: int = 0, given: str = "", trades: int = 0
) -> OpponentView:
    return OpponentView(_cards(showing), size, _cards(given) if given else (), aggression, trades)


# --- strength ------------------------------------------------------------------------------


def test_strength_orders_the_categories() -> None:
    ladder = [
        "7c 5d 4h 3s 2c",
        "Ac Kd Qh Js 9c",
        "8c 8d Kh 4s 2c",
        "8c 8d 4h 4s Kc",
        "8c 8d 8h 4s Kc",
        "9c Td Jh Qs Kc",
        "2h 5h 9h Jh Kh",
        "8c 8d 8h 4s 4c",
        "8c 8d 8h 8s 4c",
        "9h Th Jh Qh Kh",
    ]
    values = [strength(_key(hand)) for hand in ladder]
    assert values == sorted(values)
    assert 0.0 <= values[0] < 0.05 and values[-1] > 0.99
    assert len(set(values)) == len(values)


def test_strength_is_harder_to_reach_with_bigger_deals() -> None:
    pair = _key("8c 8d Kh 4s 2c")
    assert strength(pair, 5) > strength(pair, 6) > strength(pair, 7)


def test_strength_refuses_a_bad_deal_size() -> None:
    with pytest.raises(BotError):
        strength(_key("8c 8d Kh 4s 2c"), 4)
    with pytest.raises(BotError):
        rank_any([1, 2, 3, 4])


# --- trade estimates -----------------------------------------------------------------------


def _unseen(hand: tuple[Card, ...]) -> list[Card]:
    return [c for c in DECK if c not in hand]


@pytest.mark.parametrize("seed", range(6))
def test_trade_choice_keeps_a_pair(seed: int) -> None:
    hand = _cards("8s Kc 4h 8d 2s")
    rng = random.Random(seed)
    two = estimate_trade(hand, 2, _unseen(hand), rng)
    assert not {0, 3} & set(two.give), two
    three = estimate_trade(hand, 3, _unseen(hand), rng)
    assert three.give == (1, 2, 4)
    assert three.after > three.before


@pytest.mark.parametrize("seed", range(4))
def test_trade_choice_keeps_trips_and_a_flush_draw(seed: int) -> None:
    rng = random.Random(seed)
    trips = _cards("9c 3d 9h Qs 9s 2c")
    assert set(estimate_trade(trips, 3, _unseen(trips), rng).give) == {1, 3, 5}
    flush_draw = _cards("Ah 2c Kh 9h 4h")
    assert estimate_trade(flush_draw, 1, _unseen(flush_draw), rng).give == (1,)


def test_a_made_flush_gains_nothing_by_trading() -> None:
    hand = _cards("2h 5h 9h Jh Kh")
    rng = random.Random(5)
    for k in (1, 2, 3):
        assert estimate_trade(hand, k, _unseen(hand), rng).gain <= 0.0


def test_junk_gains_by_trading() -> None:
    hand = _cards("2c 5d 9h Js 7c 3h 4s")
    assert estimate_trade(hand, 3, _unseen(hand), random.Random(2)).gain > 0.1


def test_trade_estimate_refuses_bad_input() -> None:
    hand = _cards("8s Kc 4h 8d 2s")
    rng = random.Random(0)
    for k in (0, 6):
        with pytest.raises(BotError):
            estimate_trade(hand, k, _unseen(hand), rng)
    with pytest.raises(BotError):
        estimate_trade(hand[:4], 1, _unseen(hand), rng)
    with pytest.raises(BotError):
        estimate_trade(hand, 2, hand, rng)  # nothing unseen to draw
    with pytest.raises(BotError):
        estimate_trade(hand, 1, _unseen(hand), rng, draws=0)


# --- equity --------------------------------------------------------------------------------


def test_aces_beat_a_typical_hand() -> None:
    # Opponents are modelled as holding a chosen, better-than-random layout (PRIOR_DRAWS):
    # a pair of aces is still ahead of one, but far from a lock.
    assert 0.55 < _eq("As Ad 7c 4h 2s", [_opp("9c")]) < 0.8
    # A 7-card deal picks its layout from more cards: still behind the aces, by less.
    assert 0.4 < _eq("As Ad 7c 4h 2s", [_opp("9c", size=7)]) < _eq("As Ad 7c 4h 2s", [_opp("9c")])


def test_junk_is_behind_and_more_opponents_cut_equity() -> None:
    assert _eq("7c 2d 4h 9s Js", [_opp("9c")]) < 0.25
    one = _eq("As Ad 7c 4h 2s", [_opp("9c")])
    three = _eq("As Ad 7c 4h 2s", [_opp("9c"), _opp("3d"), _opp("Jh")])
    assert three < one


def test_face_up_hands_are_exact() -> None:
    assert _eq("As Ks Qs Js Ts", [_opp("9c", 7, 2)]) == 1.0
    assert _eq("7c 2d 4h 9s Js", [_opp("Kc Kd")]) == 0.0
    assert _eq("8c 8d 8h 2s 5d", [_opp("Qc Qd Ah 2d 3c", 6)]) == 1.0
    assert _eq("8c 8d 2h 2s 5d", [_opp("8h 8s 2c 2d 5c", 6)]) == 0.5
    assert _eq("8c 8d 2h 2s 5d", [_opp("8h 8s 2c 2d 5c"), _opp("5h 5s 3c 3d 7c")]) == 0.5
    assert _eq("8c 8d 2h 2s 5d", [_opp("8h 8s 2c 2d 5c"), _opp("Th Ts 3c 3d 7c")]) == 0.0
    assert _eq("As Ad 7c 4h 2s", []) == 1.0


def test_bets_and_raises_make_an_opponent_stronger() -> None:
    calm = _eq("8c 8d 8h 2s 5d", [_opp("Qc", 6, 0)], samples=3000)
    aggressive = _eq("8c 8d 8h 2s 5d", [_opp("Qc", 6, 2)], samples=3000)
    assert aggressive < calm


def test_trades_make_an_opponent_stronger() -> None:
    quiet = _eq("8c 8d 8h 2s 5d", [_opp("Qc", 5)], samples=3000)
    traded = _eq("8c 8d 8h 2s 5d", [_opp("Qc", 5, trades=3)], samples=3000)
    assert traded < quiet - 0.03


def test_what_an_opponent_shows_counts() -> None:
    # The same two pair against a low card showing and against a pair of kings showing.
    low = _eq("Qc Qd 4h 4s 9d", [_opp("2c 7d")], samples=2000)
    kings = _eq("Qc Qd 4h 4s 9d", [_opp("Kc Kh")], samples=2000)
    assert kings < low - 0.25


def test_cards_given_to_an_opponent_count_against_the_bot() -> None:
    layout = "Kc Kd 7c 4h 2s"
    # The bot passed two aces to the opponent showing the third one.
    blind = _eq(layout, [_opp("Ah")], samples=3000)
    aware = _eq(layout, [_opp("Ah", given="As Ad")], samples=3000)
    assert aware < blind * 0.5


def test_equity_is_deterministic_given_the_rng() -> None:
    opponents = [_opp("9c", 6, 1), _opp("3d", 6, 0, given="Ks")]
    assert _eq("As Ad 7c 4h 2s", opponents, 200, seed=9) == _eq(
        "As Ad 7c 4h 2s", opponents, 200, seed=9
    )


def test_equity_refuses_bad_input() -> None:
    rng = random.Random(0)
    with pytest.raises(BotError):
        equity(_cards("As Ad 7c 4h"), [_opp("9c")], (), rng)
    with pytest.raises(BotError):
        equity(_cards("As Ad 7c 4h 4h"), [_opp("9c")], (), rng)
    with pytest.raises(BotError):
        equity(_cards("As Ad 7c 4h 2s"), [OpponentView((), 5)], (), rng)
    with pytest.raises(BotError):
        equity(_cards("As Ad 7c 4h 2s"), [_opp("9c", size=8)], (), rng)
    with pytest.raises(BotError):
        equity(_cards("As Ad 7c 4h 2s"), [_opp("9c")], (), rng, samples=0)
    with pytest.raises(BotError):
        equity(_cards("As Ad 7c 4h 2s"), [_opp("Ad")], (), rng)
    with pytest.raises(BotError):
        equity(_cards("As Ad 7c 4h 2s"), [_opp("9c 9c")], (), rng)
    # Twelve opponents with four hidden cards each cannot come out of one deck.
    crowd = [_opp(str(card)) for card in DECK[12:24]]
    with pytest.raises(BotError):
        equity(_cards("As Ad 7c 4h 2s"), crowd, (), rng)
