"""Benchmarks of the bots: time per decision for every level, arena hands per second, and
seeded 1,000-hand matchups of each level against the baseline opponents; and for the games of
the live deck, the live bot's decision time and its chips per hand against each baseline in
each game.

Reads the process clock; no other I/O. `python3 -m bench.bots` prints the JSON lines. The
`easy` level is the strategy the bots had before the levels (its decisions are unchanged, see
tests/bots/test_bots_levels.py), so its figures in a run are that run's baseline.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable
from functools import cache, partial

from p2pwillow.bots import BASELINES, LEVELS, Bot, HandRecord, Knowledge, play_hands
from p2pwillow.bots.arena import MatchupResult, PlayerMaker, SeatRecord, play_matchup
from p2pwillow.bots.live import SAMPLES, LiveBot
from p2pwillow.bots.live_arena import LiveTable, live_config, play_live_matchup
from p2pwillow.cards import DECK, Card
from p2pwillow.games import weeping_willow as ww
from p2pwillow.games.live_deck import LIVE_DECK_GAMES
from p2pwillow.games.pass_the_card import PASS_THE_CARD
from p2pwillow.games.split_pot import SPLIT_POT_GAMES
from p2pwillow.rules import (
    ActionKind,
    Announcement,
    Hand,
    Phase,
    TableConfig,
)

SEED = 20_240_601
REPEATS = 15
MATCH_HANDS = 1000
"""Hands per matchup; every hand starts from full stacks (`play_matchup`)."""
MATCH_SEED = 15
TABLE_SIZES = {"heads_up": 2, "four_handed": 4}
DEFAULT = "normal"
"""The level whose figure is each matchup line's value (the bots' default level)."""


def _betting_spot(
    players: int, deal: int, rounds: int, level: str = "easy"
) -> tuple[Hand, Bot, Knowledge]:
    """A hand with no trading, `rounds` cards turned, and the bot of the seat to act."""
    rng = random.Random(SEED + players * 10 + deal)
    hand = Hand(TableConfig(trade_tokens=0), list(range(players)), [1000] * players, 0)
    hand.announce(0, ww.announcement(deal))
    hand.deal()
    deck = list(DECK)
    rng.shuffle(deck)
    held: dict[int, list[Card]] = {s: deck[s * deal : (s + 1) * deal] for s in range(players)}
    for seat in hand.seats:
        hand.lay_out(seat)
    for r in range(rounds):
        for seat in hand.to_act():
            hand.reveal(seat, held[seat][r])
        while r < rounds - 1 and hand.phase is Phase.BETTING:
            hand.check(hand.to_act()[0])
    seat = hand.to_act()[0]
    cards = tuple(held[seat])
    return hand, Bot(seat, rng, level=level), Knowledge(seat, cards, layout=cards[:5])


def _median_ms(run: Callable[[], object]) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


SPOTS = {"7x7_round1": (7, 7, 1), "10x5_round1": (10, 5, 1), "2x5_round3": (2, 5, 3)}
"""The slowest common betting spots: (players, deal size, betting round)."""


@cache
def _spot_figures(level: str) -> dict[str, float]:
    figures = {}
    for name, spot in SPOTS.items():
        hand, bot, knowledge = _betting_spot(*spot, level=level)
        figures[name] = round(_median_ms(partial(bot.decide, hand, knowledge)), 2)
    return figures


def _betting_line(level: str) -> dict[str, object]:
    figures = _spot_figures(level)
    easy = _spot_figures("easy")
    return {
        "value": max(figures.values()),
        "unit": "ms",
        "baseline": max(easy.values()),
        "level": level,
        "samples": 300,
        **figures,
        "easy": easy,
        "spot_ratios": {name: round(figures[name] / easy[name], 3) for name in SPOTS},
    }


def betting_decision() -> dict[str, object]:
    """One betting decision at the default 300 samples, the default level against easy."""
    return _betting_line(DEFAULT)


def betting_decision_hard() -> dict[str, object]:
    """One betting decision at the default 300 samples, hard against easy."""
    return _betting_line("hard")


@cache
def _in_play_ms(level: str) -> float:
    """Mean time per decision of four bots of `level` over a seeded 40-hand game (every
    decision: announcing, trading, laying out, betting, and the model's reading)."""
    start = time.perf_counter()
    result = play_hands(4, 40, SEED, level=level)
    return (time.perf_counter() - start) * 1000 / max(1, result.decisions)


def decision_in_play() -> dict[str, object]:
    """Time per decision in whole hands, every level, with easy as the baseline."""
    figures = {level: round(_in_play_ms(level), 3) for level in LEVELS}
    return {
        "value": figures[DEFAULT],
        "unit": "ms",
        "baseline": figures["easy"],
        "level": DEFAULT,
        **figures,
        "hard_ratio": round(figures["hard"] / figures["easy"], 3),
    }


def trading_decision() -> dict[str, object]:
    """One offer-or-pass decision on a 7-card hand (trade estimates for k = 1, 2, 3)."""
    hand = Hand(TableConfig(), [0, 1, 2], [1000] * 3, 0)
    hand.announce(0, ww.announcement(7))
    hand.deal()
    cards = tuple(DECK[i] for i in (0, 9, 18, 27, 36, 45, 50))
    bot = Bot(1, random.Random(SEED))
    knowledge = Knowledge(1, cards)
    return {"value": round(_median_ms(lambda: bot.decide(hand, knowledge)), 2), "unit": "ms"}


def arena_hands() -> dict[str, object]:
    """Whole 4-bot hands through the rules engine with a trusted dealer, default bots."""
    best = float("inf")
    played = 0
    for _ in range(3):
        start = time.perf_counter()
        result = play_hands(4, 12, SEED)
        best = min(best, time.perf_counter() - start)
        played = len(result.hands)
    return {"value": round(played / best, 2), "unit": "hands/s", "hands": played, "bots": 4}


def play_quality() -> dict[str, object]:
    """How 4 default bots play over 30 hands (3 seeds): hands ending with a bust, per hand."""
    records: list[HandRecord] = []
    faced = folds = 0
    for seed in range(3):
        result = play_hands(4, 30, SEED + seed)
        records.extend(result.hands)
        faced += sum(n for _, n in result.facing_bet)
        folds += result.facing(ActionKind.FOLD)
    n = len(records)
    return {
        "value": round(sum(1 for r in records if r.busted) / n, 3),
        "unit": "busts/hand",
        "hands": n,
        "fold_rate_facing_bet": round(folds / max(1, faced), 3),
        "players_at_end": round(sum(r.players_at_end for r in records) / n, 2),
        "mean_pot": round(sum(r.pot for r in records) / n, 1),
    }


# --- matchups ------------------------------------------------------------------------------


def _bot(level: str) -> PlayerMaker:
    return lambda seat, rng: Bot(seat, rng, level=level)


@cache
def _matchup(level: str, opponent: str, players: int) -> SeatRecord:
    """The level's seat 0 against players - 1 opponents (a baseline, or a level)."""
    make: PlayerMaker = BASELINES[opponent] if opponent in BASELINES else _bot(opponent)
    seats: list[tuple[str, PlayerMaker]] = [(level, _bot(level))]
    seats += [(opponent, make)] * (players - 1)
    result: MatchupResult = play_matchup(seats, MATCH_HANDS, MATCH_SEED + players)
    return result.seats[0]


def _figures(record: SeatRecord) -> dict[str, object]:
    chips = record.chips_per_hand
    return {
        "chips_per_hand": round(chips.mean, 2),
        "ci95": [round(chips.low, 2), round(chips.high, 2)],
        "fold_rate": round(record.fold_rate, 3),
        "winning_folds": round(record.winning_folds / max(1, record.folds), 3),
    }


def _versus(opponent: str) -> dict[str, object]:
    figures = {
        table: {level: _figures(_matchup(level, opponent, n)) for level in LEVELS}
        for table, n in TABLE_SIZES.items()
    }
    value = _matchup(DEFAULT, opponent, 2).chips_per_hand.mean
    line: dict[str, object] = {"value": round(value, 2), "unit": "chips/hand", "level": DEFAULT}
    easy = _matchup("easy", opponent, 2).chips_per_hand.mean
    if easy:
        line["baseline"] = round(easy, 2)
    return line | {"hands": MATCH_HANDS, "seed": MATCH_SEED, **figures}


def fold_vs_maniac() -> dict[str, object]:
    """Share of heads-up hands against the maniac that the bot folds, every level."""
    rates = {level: round(_matchup(level, "maniac", 2).fold_rate, 3) for level in LEVELS}
    return {
        "value": rates[DEFAULT],
        "unit": "fold rate",
        "baseline": rates["easy"],
        "level": DEFAULT,
        "hands": MATCH_HANDS,
        **rates,
    }


def hard_vs_easy() -> dict[str, object]:
    """Chips per hand of a hard bot heads-up against an easy one."""
    figures = _figures(_matchup("hard", "easy", 2))
    return {"value": figures["chips_per_hand"], "unit": "chips/hand", "hands": MATCH_HANDS} | (
        figures
    )


# --- the games of the live deck ---------------------------------------------------------------

LIVE_GAMES = (*LIVE_DECK_GAMES, *SPLIT_POT_GAMES, PASS_THE_CARD)
"""The games of the live deck the bots are measured in, the split-pot games (Pass the Card one
of them) among them."""
LIVE_HANDS = 400
"""Hands per live-deck matchup (heads-up, every hand from full stacks, the house's table:
ante 25, spread limit 25 to 100)."""
LIVE_SEED = 27


@cache
def _live_matchup(game: str, opponent: str) -> SeatRecord:
    spec = next(g for g in LIVE_GAMES if g.name == game)
    seats: list[tuple[str, PlayerMaker]] = [
        ("live bot", lambda seat, rng: LiveBot(seat, rng)),
        (opponent, BASELINES[opponent]),
    ]
    return play_live_matchup(seats, spec, LIVE_HANDS, LIVE_SEED).seats[0]


def _live_versus(game: str, opponent: str) -> dict[str, object]:
    """Chips per hand of the live bot (default level and samples) heads-up against a
    baseline in one game of the live deck, with its 95% interval."""
    figures = _figures(_live_matchup(game, opponent))
    figures.pop("winning_folds")  # not measured in live-deck games (live_arena)
    line: dict[str, object] = {"value": figures["chips_per_hand"], "unit": "chips/hand"}
    return line | {"game": game, "hands": LIVE_HANDS, "seed": LIVE_SEED, **figures}


def live_decision() -> dict[str, object]:
    """One betting decision of the live bot at its default samples, per game, on the first
    betting round of a four-handed hand (the most cards unseen); the slowest is the value."""
    figures = {}
    for game in LIVE_DECK_GAMES:
        rng = random.Random(SEED)
        hand = Hand(live_config(4), [0, 1, 2, 3], [1000] * 4, dealer=3)
        table = LiveTable(hand, {}, rng, game)
        hand.announce(3, Announcement.of(game))
        hand.act(ActionKind.STREET, 3, table.dealer.street(hand))
        seat = hand.to_act()[0]
        bot = LiveBot(seat, rng)
        knowledge = table.dealer.knowledge(seat)
        figures[game.name] = round(_median_ms(partial(bot.decide, hand, knowledge)), 2)
    return {"value": max(figures.values()), "unit": "ms", "samples": SAMPLES, **figures}


BENCHMARKS: dict[str, Callable[[], dict[str, object]]] = {
    "bots.play_quality": play_quality,
    "bots.betting_decision": betting_decision,
    "bots.betting_decision_hard": betting_decision_hard,
    "bots.decision_in_play": decision_in_play,
    "bots.trading_decision": trading_decision,
    "bots.arena": arena_hands,
    **{f"bots.vs_{name}": partial(_versus, name) for name in BASELINES},
    "bots.fold_vs_maniac": fold_vs_maniac,
    "bots.hard_vs_easy": hard_vs_easy,
    "bots.live_decision": live_decision,
    **{
        f"bots.live.{game.name}.vs_{name}": partial(_live_versus, game.name, name)
        for game in LIVE_GAMES
        for name in BASELINES
    },
}


if __name__ == "__main__":
    for bench_name, bench in BENCHMARKS.items():
        print(json.dumps({"name": bench_name, **bench()}))
