"""Whole hands among 2 to 6 bots through the rules engine: legal, chips conserved, reproducible."""

from __future__ import annotations

import random

import pytest

from p2pwillow.bots import ArenaResult, BotError, play_hands
from p2pwillow.games import weeping_willow as ww
from p2pwillow.games.weeping_willow import TradingClose, TradingMode
from p2pwillow.rules import (
    ActionKind,
    Announcement,
    BettingStructure,
    TableConfig,
)

# Fewer samples than a live bot uses: the flow is under test here, not the estimates.
SAMPLES, DRAWS = 40, 10


def _check(result: ArenaResult, hands: int) -> None:
    assert sum(result.final_stacks) == sum(result.start_stacks), "chips not conserved"
    assert all(stack >= 0 for stack in result.final_stacks)
    assert 1 <= len(result.hands) <= hands
    if len(result.hands) < hands:
        assert sum(1 for stack in result.final_stacks if stack > 0) == 1
    for record in result.hands:
        assert record.winners and record.pot > 0
        assert record.decisions >= 2
    assert result.decisions == sum(record.decisions for record in result.hands)


@pytest.mark.parametrize("structure", list(BettingStructure))
@pytest.mark.parametrize("n_bots", [2, 3, 4, 5, 6])
def test_whole_hands_are_legal_and_conserve_chips(n_bots: int, structure: BettingStructure) -> None:
    config = TableConfig(seats=n_bots, structure=structure, starting_stack=600)
    # Every decision passes the engine's can_* check inside the arena, or it raises.
    result = play_hands(
        n_bots,
        4,
        seed=n_bots * 10 + len(structure.value),
        config=config,
        samples=SAMPLES,
        draws=DRAWS,
    )
    _check(result, 4)


def test_many_hands_use_every_kind_of_decision() -> None:
    totals: dict[ActionKind, int] = {}
    for seed in range(6):
        result = play_hands(2 + seed % 5, 5, seed, samples=SAMPLES, draws=DRAWS)
        _check(result, 5)
        for kind, count in result.actions:
            totals[kind] = totals.get(kind, 0) + count
    wanted = {
        ActionKind.ANNOUNCE,
        ActionKind.OFFER,
        ActionKind.ACCEPT,
        ActionKind.DECLINE,
        ActionKind.PASS,
        ActionKind.CHOOSE_PARTNER,
        ActionKind.CHOOSE_TRADE_CARDS,
        ActionKind.LAY_OUT,
        ActionKind.CHECK,
        ActionKind.BET,
        ActionKind.CALL,
        ActionKind.RAISE,
        ActionKind.FOLD,
    }
    assert wanted <= set(totals), wanted - set(totals)
    # Every trade is agreed once (the offerer chooses among those who accepted) and makes two
    # card choices; more may accept than trade.
    chosen = totals[ActionKind.CHOOSE_PARTNER]
    assert totals[ActionKind.CHOOSE_TRADE_CARDS] == 2 * chosen <= 2 * totals[ActionKind.ACCEPT]


@pytest.mark.parametrize(
    "announcement",
    [
        ww.announcement(5, TradingMode.FREE, TradingClose.DEALER_CALLS),
        ww.announcement(6, TradingMode.IN_TURN, TradingClose.DEALER_CALLS),
        ww.announcement(7, TradingMode.IN_TURN, TradingClose.ORBITS, 3),
    ],
    ids=["free", "in-turn-dealer-calls", "three-orbits"],
)
def test_other_announcements_play_through(announcement: Announcement) -> None:
    result = play_hands(5, 3, seed=11, announcement=announcement, samples=SAMPLES, draws=DRAWS)
    _check(result, 3)
    assert all(record.announcement == announcement for record in result.hands)
    if ww.Setup.of(announcement).closing is TradingClose.DEALER_CALLS:
        assert result.count(ActionKind.CLOSE_TRADING) >= 1


def test_random_tables_play_legally() -> None:
    rng = random.Random(2024)
    for seed in range(60):
        n_bots = rng.randint(2, 7)
        config = TableConfig(
            seats=n_bots,
            starting_stack=rng.choice([40, 150, 400, 1000]),
            trade_tokens=rng.choice([0, 1, 2, 6]),
            token_value=rng.choice([1, 5, 20]),
            structure=rng.choice(list(BettingStructure)),
        )
        announcement = rng.choice(
            [
                None,
                ww.announcement(5, TradingMode.FREE, TradingClose.DEALER_CALLS),
                ww.announcement(5, TradingMode.IN_TURN, TradingClose.DEALER_CALLS),
            ]
        )
        result = play_hands(
            n_bots, 3, seed, config=config, samples=20, draws=6, announcement=announcement
        )
        _check(result, 3)


def test_short_stacks_and_few_tokens() -> None:
    config = TableConfig(seats=4, starting_stack=120, trade_tokens=1, token_value=10)
    result = play_hands(4, 8, seed=5, config=config, samples=SAMPLES, draws=DRAWS)
    _check(result, 8)


def test_default_bots_play_a_few_hands() -> None:
    result = play_hands(3, 2, seed=2)
    _check(result, 2)


def test_the_same_seed_plays_the_same_game() -> None:
    first = play_hands(4, 3, seed=21, samples=SAMPLES, draws=DRAWS)
    assert play_hands(4, 3, seed=21, samples=SAMPLES, draws=DRAWS) == first
    assert play_hands(4, 3, seed=22, samples=SAMPLES, draws=DRAWS) != first


def test_bad_arena_settings_are_refused() -> None:
    with pytest.raises(BotError):
        play_hands(1, 1, 0)
    with pytest.raises(BotError):
        play_hands(11, 1, 0)
    with pytest.raises(BotError):
        play_hands(3, -1, 0)
    with pytest.raises(BotError):
        play_hands(4, 1, 0, config=TableConfig(seats=3))
    assert play_hands(3, 0, 0).hands == ()


# --- how the bots play over many hands (seeded, statistical) ------------------------------

PLAY_SEEDS, PLAY_HANDS, PLAY_SAMPLES = (0, 1, 2), 30, 120


@pytest.fixture(scope="module")
def long_games() -> list[ArenaResult]:
    return [play_hands(4, PLAY_HANDS, seed, samples=PLAY_SAMPLES) for seed in PLAY_SEEDS]


def test_stacks_last_many_hands(long_games: list[ArenaResult]) -> None:
    hands = [record for result in long_games for record in result.hands]
    bust_hands = sum(1 for record in hands if record.busted)
    # 1000-chip stacks in a 25-100 spread-limit game: a bust is rare, not the first hand's fate.
    assert bust_hands <= 0.1 * len(hands), (bust_hands, len(hands))


def test_bets_are_often_folded_to(long_games: list[ArenaResult]) -> None:
    fold = sum(result.facing(ActionKind.FOLD) for result in long_games)
    faced = sum(n for result in long_games for _, n in result.facing_bet)
    assert faced >= 100
    assert fold >= 0.35 * faced, (fold, faced)
    all_in = sum(result.facing(ActionKind.ALL_IN) for result in long_games)
    assert all_in <= 0.02 * faced


def test_showdowns_are_not_everyone_every_hand(long_games: list[ArenaResult]) -> None:
    hands = [record for result in long_games for record in result.hands]
    everyone = sum(1 for record in hands if record.players_at_end == 4)
    assert everyone <= 0.1 * len(hands)
    showdowns = [record.players_at_end for record in hands if record.showdown]
    assert all(n >= 2 for n in showdowns)
    assert sum(record.players_at_end for record in hands) / len(hands) < 2.0
