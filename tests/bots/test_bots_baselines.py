"""The baseline opponents and the matchup runner: legal play, each its own style, seeded."""

from __future__ import annotations

import random
from collections import Counter
from functools import partial

import pytest
from bots_helpers import betting_hand, cards

from p2pwillow.bots import (
    BASELINES,
    Baseline,
    Bot,
    BotError,
    Decision,
    Knowledge,
    is_legal,
    play_matchup,
)
from p2pwillow.bots.arena import PlayerMaker
from p2pwillow.bots.baselines import CallingStation, Maniac, RandomBettor, Rock
from p2pwillow.rules import (
    ActionKind,
    BettingStructure,
    Hand,
    TableConfig,
)

JUNK = "Ah 9d 6c 4h 2s"
TRIPS = "Qh Jd 7c 7d 7s"
OTHER = "As Ac 8h 5s 3c"  # opens round 2 with the aces showing


def test_the_baselines_are_named_for_the_bench_lines() -> None:
    assert set(BASELINES) == {"random", "station", "maniac", "rock"}


@pytest.mark.parametrize("structure", list(BettingStructure))
def test_a_table_of_every_baseline_plays_legal_hands(structure: BettingStructure) -> None:
    seats: list[tuple[str, PlayerMaker]] = [(name, make) for name, make in BASELINES.items()]
    seats.append(("bot", Bot))
    config = TableConfig(seats=5, structure=structure)
    result = play_matchup(seats, 6, seed=len(structure.value), config=config)
    # Every decision passed the engine's can_* check inside the arena, or it raised.
    assert [seat.name for seat in result.seats] == [*BASELINES, "bot"]
    for hand in range(6):
        assert sum(seat.deltas[hand] for seat in result.seats) == 0, "chips not conserved"
    assert all(seat.hands == 6 for seat in result.seats)


def _spot(layout: str, facing: bool) -> tuple[Hand, Knowledge]:
    hand = betting_hand({0: OTHER, 1: layout}, 2, number=3)
    assert hand.to_act() == (0,)
    if facing:
        hand.bet(0, 50)
    else:
        hand.check(0)
    return hand, Knowledge(1, cards(layout), layout=cards(layout))


def _answer(player: type[Baseline], layout: str, facing: bool) -> Decision:
    hand, knowledge = _spot(layout, facing)
    decision = player(1, random.Random(1)).decide(hand, knowledge)
    assert is_legal(hand, 1, decision)
    return decision


def test_the_maniac_bets_and_raises_the_most() -> None:
    bet = _answer(Maniac, JUNK, facing=False)
    assert bet.kind is ActionKind.BET and bet.amount == 100
    raised = _answer(Maniac, JUNK, facing=True)
    assert raised.kind is ActionKind.RAISE and raised.amount == 150


def test_the_station_checks_and_calls_whatever_it_holds() -> None:
    for layout in (JUNK, TRIPS):
        assert _answer(CallingStation, layout, facing=False).kind is ActionKind.CHECK
        assert _answer(CallingStation, layout, facing=True).kind is ActionKind.CALL


def test_the_rock_plays_only_strong_layouts() -> None:
    assert _answer(Rock, JUNK, facing=False).kind is ActionKind.CHECK
    assert _answer(Rock, JUNK, facing=True).kind is ActionKind.FOLD
    assert _answer(Rock, TRIPS, facing=False).kind is ActionKind.BET
    assert _answer(Rock, TRIPS, facing=True).kind is ActionKind.RAISE


def test_the_random_bettor_uses_every_answer_and_never_folds_for_free() -> None:
    free: Counter[ActionKind] = Counter()
    facing: Counter[ActionKind] = Counter()
    for seed in range(60):
        for is_facing, seen in ((False, free), (True, facing)):
            hand, knowledge = _spot(JUNK, is_facing)
            decision = RandomBettor(1, random.Random(seed)).decide(hand, knowledge)
            seen[decision.kind] += 1
    assert set(free) == {ActionKind.CHECK, ActionKind.BET}
    assert set(facing) == {ActionKind.CALL, ActionKind.RAISE, ActionKind.FOLD}


def test_a_matchup_is_seeded_and_reports_an_interval() -> None:
    seats: list[tuple[str, PlayerMaker]] = [
        ("easy", partial(Bot, samples=40, level="easy")),
        ("station", BASELINES["station"]),
    ]
    first = play_matchup(seats, 12, seed=4)
    assert play_matchup(seats, 12, seed=4) == first
    assert play_matchup(seats, 12, seed=5) != first
    me, station = first.seats
    assert [a + b for a, b in zip(me.deltas, station.deltas, strict=True)] == [0] * 12
    chips = me.chips_per_hand
    assert chips.low <= chips.mean == sum(me.deltas) / 12 <= chips.high
    assert station.folds == station.winning_folds == 0  # a station never folds
    assert 0 <= me.winning_folds <= me.folds == round(me.fold_rate * 12)
    # The button moves: both seats deal.
    assert {record.dealer for record in first.hands} == {0, 1}


def test_bad_matchups_are_refused() -> None:
    with pytest.raises(BotError):
        play_matchup([("station", BASELINES["station"])], 1, 0)
    with pytest.raises(BotError):
        play_matchup([("station", BASELINES["station"])] * 2, -1, 0)
    with pytest.raises(BotError):
        play_matchup([("station", BASELINES["station"])] * 3, 1, 0, config=TableConfig(seats=2))
