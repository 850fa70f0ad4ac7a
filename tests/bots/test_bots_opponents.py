"""The opponent model: what it counts of each seat's betting and how it reads what was shown."""

from __future__ import annotations

import random

import pytest
from bots_helpers import betting_hand, bettor, folder

from p2pwillow.bots import OpponentModel
from p2pwillow.bots.opponents import MAX_FACTOR, Line
from p2pwillow.rules import Hand

STRONG = ["Ah Kd 9c 9d 9s", "Qh Jd 7c 7d 7s", "2h 3d Kc Kd Ks", "4h 5d Jc Jd Js"]
WEAK = ["Ah 9d 6c 4h 2s", "Kh 8d 5c 3h 2c", "Qh 9d 6c 4s 3d", "Jh 8c 6d 4c 2d"]
OTHER = ["Ts 8s 6h 5s 3c", "Td 8h 6s 5d 3s", "Tc 8c 6h 5h 3h", "Th 8d 6s 5c 3c"]


def _model() -> OpponentModel:
    return OpponentModel(0, random.Random(1))


def _watch(model: OpponentModel, hands: list[Hand]) -> None:
    for hand in hands:
        model.observe(hand)
    model.observe(betting_hand({0: OTHER[0], 1: WEAK[0]}, 1, number=99))  # finishes the last


def test_it_counts_bets_checks_and_folds() -> None:
    model = _model()
    hands = [betting_hand({0: OTHER[i % 4], 1: WEAK[i % 4]}, 6, script=bettor(1)) for i in range(6)]
    _watch(model, hands)
    read = model.read(1)
    assert read.aggression > 0.75  # it bet in every hand (against a prior of 3 hands at 1/3)
    quiet = _model()
    _watch(quiet, [betting_hand({0: OTHER[0], 1: WEAK[0]}, 6) for _ in range(6)])
    assert quiet.read(1).aggression < 0.15
    folding = _model()
    _watch(
        folding,
        [betting_hand({0: OTHER[i % 4], 1: WEAK[i % 4]}, 6, script=folder(0, 1)) for i in range(8)],
    )
    assert folding.read(1).fold_rate > 0.7
    assert folding.read(0).aggression > 0.7  # the model follows every seat but its own


def test_its_own_seat_and_a_hand_seen_twice_count_once() -> None:
    model = _model()
    hand = betting_hand({0: OTHER[0], 1: WEAK[0]}, 6, script=bettor(1))
    model.observe(hand)
    model.observe(hand)
    first = model.read(1)
    model.observe(hand)
    assert model.read(1) == first
    assert model.read(0).showdowns == 0  # a bot does not model itself


def test_the_line_follows_the_hand_being_played() -> None:
    model = _model()
    hand = betting_hand({0: OTHER[0], 1: WEAK[0]}, 1)
    first = hand.to_act()[0]
    second = 1 - first
    model.observe(hand)
    assert model.read(first).line is model.read(second).line is Line.WAITING
    hand.check(first)
    model.observe(hand)
    assert model.read(first).line is Line.CHECKED
    o = hand.bet_options(second)
    assert o is not None and o.bet_min is not None
    hand.bet(second, o.bet_min)
    hand.call(first)
    model.observe(hand)
    assert model.read(second).line is Line.BET
    assert model.read(first).line is Line.CALLED


def _bet_factor(model: OpponentModel, seat: int) -> float:
    # The BET line's factor, as the model would give it when the seat has bet.
    from p2pwillow.bots.opponents import _Tally

    tally = model._tallies.get(seat) or _Tally()
    return tally.factor(Line.BET)


def test_a_bet_from_a_player_who_always_bets_says_little() -> None:
    maniac = _model()
    _watch(
        maniac,
        [
            betting_hand({0: OTHER[i % 4], 1: (WEAK + STRONG)[i % 8]}, 6, script=bettor(1))
            for i in range(12)
        ],
    )
    careful = _model()
    hands = [
        betting_hand({0: OTHER[i % 4], 1: STRONG[i % 4]}, 6, script=bettor(1)) for i in range(3)
    ]
    hands += [betting_hand({0: OTHER[i % 4], 1: WEAK[i % 4]}, 6) for i in range(12)]
    _watch(careful, hands)
    assert _bet_factor(maniac, 1) < 1.4
    assert _bet_factor(careful, 1) > 2.5
    assert _bet_factor(careful, 1) <= MAX_FACTOR


def test_showdowns_tell_whether_bets_follow_the_cards() -> None:
    # Seat 1 bets at random: half its bets are made with junk, half its checks hold trips.
    random_bets = _model()
    hands = []
    for i in range(16):
        layout = (STRONG if i % 4 < 2 else WEAK)[i % 4]
        script = bettor(1) if i % 2 == 0 else None
        hands.append(betting_hand({0: OTHER[i % 4], 1: layout}, 6, script=script))
    _watch(random_bets, hands)
    # Seat 1 bets exactly its trips and checks its junk.
    honest = _model()
    hands = [
        betting_hand({0: OTHER[i % 4], 1: STRONG[i % 4]}, 6, script=bettor(1))
        if i % 2 == 0
        else betting_hand({0: OTHER[i % 4], 1: WEAK[i % 4]}, 6)
        for i in range(16)
    ]
    _watch(honest, hands)
    assert random_bets.read(1).tracking < 0.6
    assert honest.read(1).tracking > 0.9
    assert random_bets.read(1).showdowns == honest.read(1).showdowns == 16
    assert _bet_factor(random_bets, 1) < _bet_factor(honest, 1)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_model_is_deterministic(seed: int) -> None:
    def run() -> object:
        model = OpponentModel(0, random.Random(seed))
        hands = [
            betting_hand({0: OTHER[i % 4], 1: (STRONG + WEAK)[i % 8]}, 6, script=bettor(i % 2))
            for i in range(6)
        ]
        _watch(model, hands)
        return model.read(1)

    assert run() == run()
