"""Benchmarks of the bots: time per betting and trading decision, and arena hands per second.

Reads the process clock; no other I/O. `python3 -m bench.bots` prints the JSON lines.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

from p2pwillow.bots import Bot, HandRecord, Knowledge, play_hands
from p2pwillow.cards import DECK, Card
from p2pwillow.rules import ActionKind, Announcement, Hand, Phase, TableConfig

SEED = 20_240_601
REPEATS = 15


def _betting_spot(players: int, deal: int, rounds: int) -> tuple[Hand, Bot, Knowledge]:
    """A hand with no trading, `rounds` cards turned, and the bot of the seat to act."""
    rng = random.Random(SEED + players * 10 + deal)
    hand = Hand(TableConfig(trade_tokens=0), list(range(players)), [1000] * players, 0)
    hand.announce(0, Announcement(deal))
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
    return hand, Bot(seat, rng), Knowledge(seat, cards, layout=cards[:5])


def _median_ms(run: Callable[[], object]) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def betting_decision() -> dict[str, object]:
    """One betting decision at the default 300 samples: the slowest common spots."""
    spots = {"7x7_round1": (7, 7, 1), "10x5_round1": (10, 5, 1), "2x5_round3": (2, 5, 3)}
    figures = {}
    for name, spot in spots.items():
        hand, bot, knowledge = _betting_spot(*spot)
        figures[name] = round(_median_ms(partial(bot.decide, hand, knowledge)), 2)
    return {"value": max(figures.values()), "unit": "ms", "samples": 300, **figures}


def trading_decision() -> dict[str, object]:
    """One offer-or-pass decision on a 7-card hand (trade estimates for k = 1, 2, 3)."""
    hand = Hand(TableConfig(), [0, 1, 2], [1000] * 3, 0)
    hand.announce(0, Announcement(7))
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


BENCHMARKS: dict[str, Callable[[], dict[str, object]]] = {
    "bots.play_quality": play_quality,
    "bots.betting_decision": betting_decision,
    "bots.trading_decision": trading_decision,
    "bots.arena": arena_hands,
}


if __name__ == "__main__":
    for bench_name, bench in BENCHMARKS.items():
        print(json.dumps({"name": bench_name, **bench()}))
