"""Benchmarks of hand ranking against treys, measured on the same random hands in one run.

Does I/O only to time itself and (for the import figure) to start one Python subprocess.
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable
from pathlib import Path

from treys import Card as TreysCard
from treys import Evaluator

from p2pwillow.cards import DECK, Card
from p2pwillow.hands import best_hand, rank5, rank7

ROOT = Path(__file__).resolve().parent.parent
SEED = 20_240_501
REPEATS = 3


def _hands(size: int, count: int) -> list[list[int]]:
    rng = random.Random(SEED + size)
    return [rng.sample(range(52), size) for _ in range(count)]


def _best_rate(run: Callable[[], Iterable[object]], count: int) -> float:
    """Evaluations per second: the best of REPEATS runs (the least disturbed by other load)."""
    best = float("inf")
    for _ in range(REPEATS):
        start = time.perf_counter()
        deque(run(), maxlen=0)
        best = min(best, time.perf_counter() - start)
    return count / best


def _versus_treys(size: int, count: int, ours: Callable[[list[int]], int]) -> dict[str, object]:
    hands = _hands(size, count)
    treys_deck = [TreysCard.new(card.ascii) for card in DECK]
    # treys's public API takes two hole cards and a board, as int lists in its own encoding.
    holes = [[treys_deck[i] for i in hand[:2]] for hand in hands]
    boards = [[treys_deck[i] for i in hand[2:]] for hand in hands]
    evaluator = Evaluator()
    value = _best_rate(lambda: map(ours, hands), count)
    baseline = _best_rate(lambda: map(evaluator.evaluate, holes, boards), count)
    return {
        "value": round(value),
        "unit": "evals/s",
        "baseline": round(baseline),
        "ratio": round(value / baseline, 2),
        "hands": count,
    }


def best5() -> dict[str, object]:
    """`rank5` on five card indices vs treys `Evaluator.evaluate` on five cards."""
    return _versus_treys(5, 50_000, rank5)


def best7() -> dict[str, object]:
    """`rank7` on seven card indices vs treys `Evaluator.evaluate` on seven cards."""
    return _versus_treys(7, 10_000, rank7)


def best_hand7() -> dict[str, object]:
    """The checked object API, `best_hand` on seven `Card`s, vs treys on the same hands."""
    count = 5_000
    hands = _hands(7, count)
    cards = [[Card.from_index(i) for i in hand] for hand in hands]
    value = _best_rate(lambda: map(best_hand, cards), count)
    treys = _versus_treys(7, count, rank7)["baseline"]
    assert isinstance(treys, int)
    return {
        "value": round(value),
        "unit": "evals/s",
        "baseline": treys,
        "ratio": round(value / treys, 2),
        "hands": count,
    }


def import_time() -> dict[str, object]:
    """Seconds to import p2pwillow.hands (building its tables) in a fresh interpreter."""
    code = (
        "import time; t = time.perf_counter(); import p2pwillow.hands; "
        "print(time.perf_counter() - t)"
    )
    runs = [
        float(
            subprocess.run(
                [sys.executable, "-c", code],
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        )
        for _ in range(REPEATS)
    ]
    return {"value": round(min(runs), 4), "unit": "s"}


BENCHMARKS: dict[str, Callable[[], dict[str, object]]] = {
    "hands.best5": best5,
    "hands.best7": best7,
    "hands.best_hand7": best_hand7,
    "hands.import": import_time,
}
