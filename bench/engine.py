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

from bench.crypto import OP_KINDS, price_us, unit_costs_us
from p2pwillow.bots import play_hands
from p2pwillow.crypto.group import OPS, Rng
from p2pwillow.ledger.identity import SIGNATURES, Identity, verify_signature
from p2pwillow.table import Table
from p2pwillow.verify import Verdict, verify_transcript

PLAYERS = 10
SAMPLES = 100
"""Monte Carlo deals per bot decision, the same in the engine and in the baseline."""
SEED = 1

COUNTED = (*OP_KINDS, "signature")
_transcripts: list[bytes] = []
_signature_us: list[float] = []


def _counts() -> tuple[int, ...]:
    return (*OPS.snapshot(), SIGNATURES.verified)


def _signature_cost_us() -> float:
    """This machine's CPU cost of one Ed25519 signature check, in us (measured once per run)."""
    if not _signature_us:
        signer = Identity.from_private_bytes(bytes(32))
        message = b"m" * 600  # about one entry's signed bytes
        signature = signer.sign(message)
        rounds = 200
        start = time.process_time()
        for _ in range(rounds):
            verify_signature(signer.public_key, message, signature)
        _signature_us.append((time.process_time() - start) / rounds * 1e6)
    return _signature_us[0]


def _crypto_share(counts: tuple[int, ...], per: int) -> dict[str, object]:
    """The counted operations (divided by `per`), priced as bare library calls: crypto_s and
    the counts behind it."""
    group_us = price_us(counts[: len(OP_KINDS)])
    crypto = (group_us + counts[-1] * _signature_cost_us()) / per / 1e6
    return {
        "crypto_s": round(crypto, 4),
        "ops": {name: n // per for name, n in zip(COUNTED, counts, strict=True)},
        "op_us": {
            **{name: round(us, 2) for name, us in unit_costs_us().items()},
            "signature": round(_signature_cost_us(), 1),
        },
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
    # one hand, its head signed, no game_end: valid through hand 1, not closed (SPEC 7.6)
    closed_but_for_its_end = (
        report.verdict is Verdict.NOT_CLOSED
        and report.through_hand == 1
        and {w.step for w in report.missing} == {"game_end"}
    )
    if not closed_but_for_its_end:
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
