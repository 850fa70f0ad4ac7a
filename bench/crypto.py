"""Benchmarks of the sigma proofs (SPEC 4.4-4.6), each against bare libsodium multiplications.

Reads the process clock; `python3 bench/run.py proof.dleq.verify` runs one. No other I/O.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from nacl import bindings as _na

from p2pwillow.crypto import proofs
from p2pwillow.crypto.elgamal import encrypt_with, reencrypt_to
from p2pwillow.crypto.group import OPS, G, L, Point, card_point, generators
from tools.vectors.common import seeded_rng, seeded_scalar

ROUNDS = 5
"""Each measurement is the best of this many rounds (the least disturbed by other processes)."""

BATCH = 9
"""Shares in the batched DLEQ benchmark: one player's key-switch shares at a 10-player table."""

Benchmark = Callable[[], dict[str, object]]


def _best_of(action: Callable[[], object], repeat: int) -> float:
    """Seconds per call of `action`, best of ROUNDS rounds of `repeat` calls."""
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for _ in range(repeat):
            action()
        best = min(best, (time.perf_counter() - start) / repeat)
    return best


def bare_mul_baseline(counts: tuple[int, ...]) -> float:
    """Seconds that `counts[0]` variable-base and `counts[1]` fixed-base multiplications take as
    bare libsodium calls (crypto_scalarmult_ed25519_noclamp / _base_noclamp), best of ROUNDS.

    `counts` is a difference of two `OPS.snapshot()` tuples (mul, base_mul, add, validate) per
    operation; additions and validations are not in the baseline, so they count as overhead.
    """
    mul, base_mul = counts[0], counts[1]
    scalar = (L - 0x1234567).to_bytes(32, "little")
    point = generators(1)[0].encoding
    var, fixed = _na.crypto_scalarmult_ed25519_noclamp, _na.crypto_scalarmult_ed25519_base_noclamp
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for _ in range(mul):
            var(scalar, point)
        for _ in range(base_mul):
            fixed(scalar)
        best = min(best, time.perf_counter() - start)
    return best


def measure(name: str, action: Callable[[], object], repeat: int) -> dict[str, object]:
    """One benchmark line: seconds per call, the bare-multiplication baseline, their ratio."""
    before = OPS.snapshot()
    action()
    after = OPS.snapshot()
    counts = tuple(a - b for a, b in zip(after, before, strict=True))
    value = _best_of(action, repeat)
    baseline = bare_mul_baseline(counts)
    return {
        "name": name,
        "value": value,
        "unit": "s/op",
        "baseline": baseline,
        "ratio": value / baseline,
        "mul": counts[0],
        "base_mul": counts[1],
        "add": counts[2],
    }


def _key() -> tuple[Callable[[], object], Callable[[], object]]:
    x = seeded_scalar("bench/key")
    rng = seeded_rng("bench/key/nonce")
    proof, public = proofs.prove_key(x, b"bench", rng), G * x
    return (
        lambda: proofs.prove_key(x, b"bench", rng),
        lambda: proofs.verify_key(public, proof, b"bench"),
    )


def _dleq() -> tuple[Callable[[], object], Callable[[], object]]:
    x, base = seeded_scalar("bench/dleq"), card_point(3) + G
    rng = seeded_rng("bench/dleq/nonce")
    proof, public, share = proofs.prove_dleq(x, base, b"bench", rng), G * x, base * x
    return (
        lambda: proofs.prove_dleq(x, base, b"bench", rng),
        lambda: proofs.verify_dleq(public, base, share, proof, b"bench"),
    )


def _dleq_batch() -> tuple[Callable[[], object], Callable[[], object]]:
    x = seeded_scalar("bench/batch")
    bases = [G * seeded_scalar(f"bench/batch/{i}") for i in range(BATCH)]
    shares: list[Point] = [b * x for b in bases]
    rng = seeded_rng("bench/batch/nonce")
    proof, public = proofs.prove_dleq_batch(x, bases, b"bench", rng), G * x
    return (
        lambda: proofs.prove_dleq_batch(x, bases, b"bench", rng),
        lambda: proofs.verify_dleq_batch(public, bases, shares, proof, b"bench"),
    )


def _reencrypt() -> tuple[Callable[[], object], Callable[[], object]]:
    xa, xb, r = (seeded_scalar(f"bench/re/{w}") for w in ("a", "b", "r"))
    key_a, key_b = G * xa, G * xb
    before = encrypt_with(card_point(20), key_a, seeded_scalar("bench/re/r0"))
    after = reencrypt_to(before, xa, key_b, r)
    rng = seeded_rng("bench/re/nonce")
    proof = proofs.prove_reencryption(xa, r, key_b, before, after, b"bench", rng)
    return (
        lambda: proofs.prove_reencryption(xa, r, key_b, before, after, b"bench", rng),
        lambda: proofs.verify_reencryption(key_a, key_b, before, after, proof, b"bench"),
    )


def _pair(
    name: str, setup: Callable[[], tuple[Callable[[], object], Callable[[], object]]], repeat: int
) -> dict[str, Benchmark]:
    def prove() -> dict[str, object]:
        return measure(f"{name}.prove", setup()[0], repeat)

    def verify() -> dict[str, object]:
        return measure(f"{name}.verify", setup()[1], repeat)

    return {f"{name}.prove": prove, f"{name}.verify": verify}


BENCHMARKS: dict[str, Benchmark] = {
    **_pair("proof.key", _key, 40),
    **_pair("proof.dleq", _dleq, 30),
    **_pair(f"proof.dleq_batch{BATCH}", _dleq_batch, 8),
    **_pair("proof.reencrypt", _reencrypt, 20),
}


if __name__ == "__main__":
    import json

    for bench in BENCHMARKS.values():
        print(json.dumps(bench()))
