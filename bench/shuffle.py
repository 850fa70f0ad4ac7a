"""Benchmarks of the proof of a shuffle of a 52-card deck (SPEC 4.7), against bare libsodium.

Reads the clock (time.perf_counter); `python3 -m bench.shuffle` prints one JSON object per line.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable

from nacl import bindings as na

from p2pwillow.crypto.elgamal import Ciphertext, encrypt_with
from p2pwillow.crypto.group import OPS, G, L, Point, card_point
from p2pwillow.crypto.shuffle import (
    ShuffleProof,
    ShuffleWitness,
    prove_shuffle,
    shuffle,
    verify_shuffle,
)
from tools.vectors.common import seeded_rng, seeded_scalar

CARDS = 52
REPEATS = 9
"""Runs per measurement; the median is reported (the same for the baseline)."""

CONTEXT = b"bench/shuffle52"


def _seconds(run: Callable[[], object]) -> float:
    # CPU time of this process: other work on the machine inflates it far less than wall time.
    start = time.process_time()
    run()
    return time.process_time() - start


def bare_mul(mul: int, base_mul: int) -> Callable[[], None]:
    """A run of `mul` variable-base and `base_mul` fixed-base multiplications by libsodium alone
    (the bindings called directly: no Point objects, no additions, no hashing).

    Each call gets a distinct scalar and the variable-base ones one of 64 distinct points, as in
    a real run, so no cache makes the baseline cheaper than the work it prices.
    """
    count = max(mul, base_mul, 1)
    scalars = [
        ((i + 1) * 0x9E3779B97F4A7C15 * (L // 7) % L).to_bytes(32, "little") for i in range(count)
    ]
    points = [(G * (i + 2)).encoding for i in range(64)]

    def run() -> None:
        for i in range(mul):
            na.crypto_scalarmult_ed25519_noclamp(scalars[i], points[i % 64])
        for i in range(base_mul):
            na.crypto_scalarmult_ed25519_base_noclamp(scalars[i])

    return run


def bare_mul_seconds(mul: int, base_mul: int) -> float:
    """Median CPU seconds of `bare_mul(mul, base_mul)` over REPEATS runs."""
    run = bare_mul(mul, base_mul)
    return statistics.median(_seconds(run) for _ in range(REPEATS))


def _deck() -> tuple[Point, list[Ciphertext], list[Ciphertext], ShuffleWitness, ShuffleProof]:
    rng = seeded_rng("bench/shuffle52")
    key = G * seeded_scalar("bench/shuffle52/key")
    inputs = [encrypt_with(card_point(i), key, seeded_scalar(f"bench/in/{i}")) for i in range(52)]
    outputs, witness = shuffle(key, inputs, rng)
    proof = prove_shuffle(key, inputs, outputs, witness, CONTEXT, rng)  # warms the generators
    return key, inputs, list(outputs), witness, proof


def _measure(name: str, run: Callable[[], object], note: str) -> dict[str, object]:
    run()  # warm-up: caches filled, code paths hot
    OPS.reset()
    run()
    mul, base_mul, add, validate = OPS.snapshot()
    bare = bare_mul(mul, base_mul)
    # Interleaved, so that a change in machine load hits the value and the baseline alike.
    values, baselines = [], []
    for _ in range(REPEATS):
        values.append(_seconds(run))
        baselines.append(_seconds(bare))
    value, baseline = statistics.median(values), statistics.median(baselines)
    return {
        "name": name,
        "value": round(value, 5),
        "unit": "s",
        "baseline": round(baseline, 5),
        "ratio": round(value / baseline, 3),
        "mul": mul,
        "base_mul": base_mul,
        "add": add,
        "validate": validate,
        "n": CARDS,
        "note": note,
    }


def shuffle52_prove() -> dict[str, object]:
    key, inputs, outputs, witness, _ = _deck()
    rng = seeded_rng("bench/shuffle52/prove")
    return _measure(
        "shuffle52.prove",
        lambda: prove_shuffle(key, inputs, outputs, witness, CONTEXT, rng),
        "prove_shuffle for 52 ciphertexts; baseline: the same multiplications, bare libsodium",
    )


def shuffle52_verify() -> dict[str, object]:
    key, inputs, outputs, _, proof = _deck()
    return _measure(
        "shuffle52.verify",
        lambda: verify_shuffle(key, inputs, outputs, proof, CONTEXT),
        "verify_shuffle of a decoded proof; baseline: the same multiplications, bare libsodium",
    )


def shuffle52_decode_verify() -> dict[str, object]:
    key, inputs, outputs, _, proof = _deck()
    data = proof.encode()
    return _measure(
        "shuffle52.decode_verify",
        lambda: verify_shuffle(key, inputs, outputs, ShuffleProof.decode(data), CONTEXT),
        "decode (2n point validations) then verify; baseline: the multiplications only",
    )


def shuffle52_shuffle() -> dict[str, object]:
    key, inputs, _, _, _ = _deck()
    rng = seeded_rng("bench/shuffle52/shuffle")
    return _measure(
        "shuffle52.shuffle",
        lambda: shuffle(key, inputs, rng),
        "shuffle (permute and re-encrypt) 52 ciphertexts, no proof",
    )


BENCHMARKS: dict[str, Callable[[], dict[str, object]]] = {
    "shuffle52.prove": shuffle52_prove,
    "shuffle52.verify": shuffle52_verify,
    "shuffle52.decode_verify": shuffle52_decode_verify,
    "shuffle52.shuffle": shuffle52_shuffle,
}


if __name__ == "__main__":
    for benchmark in BENCHMARKS.values():
        print(json.dumps(benchmark()), flush=True)
