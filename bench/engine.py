"""Benchmarks of the whole engine: one 10-player hand through every session, and its verification.

Runs in memory, no network; reads the process clock. `python3 -m bench.engine` prints the JSON.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import time
from collections.abc import Callable

from p2pwillow.bots import play_hands
from p2pwillow.crypto.group import Rng
from p2pwillow.table import Table
from p2pwillow.verify import verify_transcript

PLAYERS = 10
SAMPLES = 100
"""Monte Carlo deals per bot decision, the same in the engine and in the baseline."""
SEED = 1

_transcripts: list[bytes] = []


def _rng(seed: str) -> Rng:
    counter = itertools.count()

    def rng(n: int) -> bytes:
        return hashlib.shake_256(f"{seed}/{next(counter)}".encode()).digest(n)

    return rng


def _play() -> tuple[float, int, bytes]:
    start = time.process_time()
    table = Table(PLAYERS, seed=SEED, rng=_rng("bench/engine"), samples=SAMPLES)
    table.play(1)
    cpu = time.process_time() - start
    data = b"".join(table.lines)
    _transcripts[:] = [data]
    return cpu, len(table.transcript), data


def simulate_hand10() -> dict[str, object]:
    """CPU seconds per player for one 10-player hand through every session in one process
    (keys, shuffles, deal, trades, layouts, reveals, betting, all checks by all 10 peers);
    baseline: the same flow with a trusted dealer and no cryptography (bots.arena)."""
    cpu, entries, data = _play()
    start = time.process_time()
    play_hands(PLAYERS, 1, SEED, samples=SAMPLES)
    baseline = time.process_time() - start
    value = cpu / PLAYERS
    base = baseline / PLAYERS
    return {
        "value": round(value, 4),
        "unit": "s/player",
        "baseline": round(base, 4),
        "ratio": round(value / base, 2) if base else None,
        "entries": entries,
        "transcript_bytes": len(data),
        "goal": 1.2,
    }


def verify_hand10() -> dict[str, object]:
    """Seconds of CPU to verify one 10-player hand's transcript (willow verify's core)."""
    if not _transcripts:
        _play()
    data = _transcripts[0]
    start = time.process_time()
    report = verify_transcript(data)
    cpu = time.process_time() - start
    if not report.valid:
        raise RuntimeError(f"the benchmark's own transcript does not verify: {report.error}")
    return {"value": round(cpu, 4), "unit": "s", "entries": report.entries, "goal": 1.0}


BENCHMARKS: dict[str, Callable[[], dict[str, object]]] = {
    "simulate.hand10": simulate_hand10,
    "verify.hand10": verify_hand10,
}


if __name__ == "__main__":
    for bench in BENCHMARKS.values():
        print(json.dumps(bench()))
