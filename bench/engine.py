"""Benchmarks of the whole engine: one 10-player hand through every session, and its verification.

Runs in memory, no network; reads the process clock. `python3 -m bench.engine` prints the JSON.
Each figure comes with `crypto_s`: the group operations and signature checks it counted, priced
at this run's measured unit costs, so `engine_s` (value - crypto_s) is the engine's own share.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import time
from collections.abc import Callable

from p2pwillow.bots import play_hands
from p2pwillow.crypto.group import OPS, G, L, Point, Rng
from p2pwillow.ledger.identity import SIGNATURES, Identity, verify_signature
from p2pwillow.table import Table
from p2pwillow.verify import verify_transcript

PLAYERS = 10
SAMPLES = 100
"""Monte Carlo deals per bot decision, the same in the engine and in the baseline."""
SEED = 1

OP_KINDS = ("mul", "base_mul", "add", "validate", "signature")
_transcripts: list[bytes] = []
_unit_costs: dict[str, float] = {}


def _counts() -> tuple[int, ...]:
    return (*OPS.snapshot(), SIGNATURES.verified)


def _per_op_us() -> dict[str, float]:
    """This machine's cost of each counted operation, in us (measured once per run)."""
    if _unit_costs:
        return _unit_costs
    point, k, rounds = G * 7, L - 12345, 200
    encoding = point.encoding
    signer = Identity.from_private_bytes(bytes(32))
    message = b"m" * 600  # about one entry's signed bytes
    signature = signer.sign(message)
    timed: dict[str, Callable[[], object]] = {
        "mul": lambda: point * k,
        "base_mul": lambda: G * k,
        "add": lambda: point + point,
        "validate": lambda: Point.decode(encoding),
        "signature": lambda: verify_signature(signer.public_key, message, signature),
    }
    for name, operation in timed.items():
        start = time.process_time()
        for _ in range(rounds):
            operation()
        _unit_costs[name] = (time.process_time() - start) / rounds * 1e6
    return _unit_costs


def _crypto_share(counts: tuple[int, ...], per: int) -> dict[str, object]:
    """The counted operations (divided by `per`), priced: crypto_s and the counts behind it."""
    costs = _per_op_us()
    ops = {name: n // per for name, n in zip(OP_KINDS, counts, strict=True)}
    crypto = sum(n * costs[name] for name, n in zip(OP_KINDS, counts, strict=True)) / per / 1e6
    return {
        "crypto_s": round(crypto, 4),
        "ops": ops,
        "op_us": {name: round(us, 1) for name, us in costs.items()},
    }


def _rng(seed: str) -> Rng:
    counter = itertools.count()

    def rng(n: int) -> bytes:
        return hashlib.shake_256(f"{seed}/{next(counter)}".encode()).digest(n)

    return rng


def _play() -> tuple[float, int, bytes, tuple[int, ...]]:
    before = _counts()
    start = time.process_time()
    table = Table(PLAYERS, seed=SEED, rng=_rng("bench/engine"), samples=SAMPLES)
    table.play(1)
    cpu = time.process_time() - start
    counts = tuple(a - b for a, b in zip(_counts(), before, strict=True))
    data = b"".join(table.lines)
    _transcripts[:] = [data]
    return cpu, len(table.transcript), data, counts


def simulate_hand10() -> dict[str, object]:
    """CPU seconds per player for one 10-player hand through every session in one process
    (keys, shuffles, deal, trades, layouts, reveals, betting, all checks by all 10 peers);
    baseline: the same flow with a trusted dealer and no cryptography (bots.arena).
    crypto_s: the group operations and signature checks counted, per player, priced."""
    cpu, entries, data, counts = _play()
    start = time.process_time()
    play_hands(PLAYERS, 1, SEED, samples=SAMPLES)
    baseline = time.process_time() - start
    value = cpu / PLAYERS
    base = baseline / PLAYERS
    share = _crypto_share(counts, PLAYERS)
    crypto = share["crypto_s"]
    assert isinstance(crypto, float)
    return {
        "value": round(value, 4),
        "unit": "s/player",
        "baseline": round(base, 4),
        "ratio": round(value / base, 2) if base else None,
        "crypto_s": crypto,
        "engine_s": round(value - crypto, 4),
        **share,
        "entries": entries,
        "transcript_bytes": len(data),
        "goal": 1.2,
    }


def verify_hand10() -> dict[str, object]:
    """Seconds of CPU to verify one 10-player hand's transcript (willow verify's core);
    crypto_s: the group operations and signature checks counted, priced."""
    if not _transcripts:
        _play()
    data = _transcripts[0]
    before = _counts()
    start = time.process_time()
    report = verify_transcript(data)
    cpu = time.process_time() - start
    counts = tuple(a - b for a, b in zip(_counts(), before, strict=True))
    if not report.valid:
        raise RuntimeError(f"the benchmark's own transcript does not verify: {report.error}")
    share = _crypto_share(counts, 1)
    crypto = share["crypto_s"]
    assert isinstance(crypto, float)
    return {
        "value": round(cpu, 4),
        "unit": "s",
        "crypto_s": crypto,
        "engine_s": round(cpu - crypto, 4),
        **share,
        "entries": report.entries,
        "goal": 1.0,
    }


BENCHMARKS: dict[str, Callable[[], dict[str, object]]] = {
    "simulate.hand10": simulate_hand10,
    "verify.hand10": verify_hand10,
}


if __name__ == "__main__":
    for bench in BENCHMARKS.values():
        print(json.dumps(bench()))
