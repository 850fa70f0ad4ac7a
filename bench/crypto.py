"""Benchmarks of the sigma proofs (SPEC 4.4-4.6), each against the same libsecp256k1 calls made
bare, and the backend's cost per operation.

Reads the process clock; `python3 bench/run.py proof.dleq.verify` runs one. No other I/O.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from coincurve._libsecp256k1 import ffi, lib
from coincurve.context import GLOBAL_CONTEXT

from p2pwillow.crypto import proofs
from p2pwillow.crypto.elgamal import encrypt_with, reencrypt_to
from p2pwillow.crypto.group import OPS, G, Point, card_point, generators, sum_points
from tools.vectors.common import seeded_rng, seeded_scalar

ROUNDS = 5
"""Each measurement is the best of this many rounds (the least disturbed by other processes)."""

BATCH = 9
"""Shares in the batched DLEQ benchmark: one player's key-switch shares at a 10-player table."""

OP_KINDS = ("mul", "mul_ct", "base_mul", "add", "combine", "validate")
"""The fields of `OPS.snapshot()`, in order."""

Benchmark = Callable[[], dict[str, object]]


# --- bare libsecp256k1 (the baseline) --------------------------------------------------------


class Bare:
    """The library calls that `p2pwillow.crypto.group` makes, made directly through coincurve's
    cffi module with no Python layer around them, on full-size scalars (a small scalar would
    make secp256k1_ecmult look faster than it is)."""

    def __init__(self) -> None:
        self.ctx = GLOBAL_CONTEXT.ctx
        self.scalar = seeded_scalar("bench/bare").to_bytes(32, "big")
        self.encoding = generators(1)[0].encoding
        self.point = ffi.new("secp256k1_pubkey *")
        assert lib.secp256k1_ec_pubkey_parse(self.ctx, self.point, self.encoding, 33)
        self.buf = ffi.new("unsigned char[65]", b"\x04")

        def point_itself(output: Any, x32: Any, y32: Any, data: Any) -> int:
            ffi.memmove(output + 1, x32, 32)
            ffi.memmove(output + 33, y32, 32)
            return 1

        self.callback = ffi.callback("secp256k1_ecdh_hash_function", point_itself)

    def mul(self) -> None:
        """secp256k1_ec_pubkey_tweak_mul: k*P, variable time."""
        out = ffi.new("secp256k1_pubkey *", self.point[0])
        lib.secp256k1_ec_pubkey_tweak_mul(self.ctx, out, self.scalar)

    def mul_ct(self) -> None:
        """secp256k1_ecdh with the point-returning callback, then the point parsed: k*P in
        constant time."""
        lib.secp256k1_ecdh(self.ctx, self.buf, self.point, self.scalar, self.callback, ffi.NULL)
        out = ffi.new("secp256k1_pubkey *")
        lib.secp256k1_ec_pubkey_parse(self.ctx, out, self.buf, 65)

    def base_mul(self) -> None:
        """secp256k1_ec_pubkey_create: k*G, constant time."""
        out = ffi.new("secp256k1_pubkey *")
        lib.secp256k1_ec_pubkey_create(self.ctx, out, self.scalar)

    def combine(self, terms: int) -> None:
        """secp256k1_ec_pubkey_combine of `terms` points: terms - 1 additions."""
        out = ffi.new("secp256k1_pubkey *")
        lib.secp256k1_ec_pubkey_combine(self.ctx, out, [self.point] * terms, terms)

    def validate(self) -> None:
        """secp256k1_ec_pubkey_parse of a compressed point."""
        out = ffi.new("secp256k1_pubkey *")
        lib.secp256k1_ec_pubkey_parse(self.ctx, out, self.encoding, 33)

    def negate_encode(self) -> bytes:
        """secp256k1_ec_pubkey_negate on a copy, then secp256k1_ec_pubkey_serialize."""
        out = ffi.new("secp256k1_pubkey *", self.point[0])
        lib.secp256k1_ec_pubkey_negate(self.ctx, out)
        enc = ffi.new("unsigned char[33]")
        size = ffi.new("size_t *", 33)
        lib.secp256k1_ec_pubkey_serialize(self.ctx, enc, size, out, lib.SECP256K1_EC_COMPRESSED)
        return bytes(enc)

    def replay(self, counts: tuple[int, ...]) -> None:
        """Every library call that `counts` (a difference of OPS snapshots) stands for."""
        mul, mul_ct, base_mul, add, combine, validate = counts
        for _ in range(mul):
            self.mul()
        for _ in range(mul_ct):
            self.mul_ct()
        for _ in range(base_mul):
            self.base_mul()
        # `combine` calls made `add` additions: replayed as calls of as even a size as can be
        for i in range(combine):
            self.combine(2 + (add - combine) // combine + (i < (add - combine) % combine))
        for _ in range(validate):
            self.validate()


_BARE: list[Bare] = []


def bare() -> Bare:
    if not _BARE:
        _BARE.append(Bare())
    return _BARE[0]


_UNIT_COSTS: dict[str, float] = {}


def unit_costs_us() -> dict[str, float]:
    """CPU us of each bare library call, measured once per run: `mul`, `mul_ct`, `base_mul`,
    `validate`, and for sums `combine` (a call adding 2 points) and `term` (each further point
    in the same call). Prices operation counts too large to replay (whole hands)."""
    if _UNIT_COSTS:
        return _UNIT_COSTS
    b, rounds = bare(), 300

    def cpu_us(action: Callable[[], object]) -> float:
        best = float("inf")
        for _ in range(ROUNDS):
            start = time.process_time()
            for _ in range(rounds):
                action()
            best = min(best, (time.process_time() - start) / rounds * 1e6)
        return best

    two, many = cpu_us(lambda: b.combine(2)), cpu_us(lambda: b.combine(34))
    _UNIT_COSTS.update(
        mul=cpu_us(b.mul),
        mul_ct=cpu_us(b.mul_ct),
        base_mul=cpu_us(b.base_mul),
        validate=cpu_us(b.validate),
        term=max(many - two, 0.0) / 32,
    )
    _UNIT_COSTS["combine"] = two - 2 * _UNIT_COSTS["term"]
    return _UNIT_COSTS


def price_us(counts: tuple[int, ...]) -> float:
    """What the library calls counted in `counts` cost made bare, in CPU us (unit_costs_us)."""
    cost = unit_costs_us()
    mul, mul_ct, base_mul, add, combine, validate = counts
    return (
        mul * cost["mul"]
        + mul_ct * cost["mul_ct"]
        + base_mul * cost["base_mul"]
        + validate * cost["validate"]
        + combine * cost["combine"]
        + (add + combine) * cost["term"]
    )


def count_ops(action: Callable[[], object]) -> tuple[int, ...]:
    """The library calls one run of `action` makes (a difference of OPS snapshots)."""
    before = OPS.snapshot()
    action()
    return tuple(a - b for a, b in zip(OPS.snapshot(), before, strict=True))


def _interleaved(
    action: Callable[[], object], baseline: Callable[[], object], repeat: int, rounds: int
) -> tuple[float, float]:
    """Seconds per call of `action` and of `baseline`, each the best of `rounds` rounds of
    `repeat` calls, the two alternating round by round so that both see the same load."""
    best_value = best_base = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(repeat):
            action()
        best_value = min(best_value, (time.perf_counter() - start) / repeat)
        start = time.perf_counter()
        for _ in range(repeat):
            baseline()
        best_base = min(best_base, (time.perf_counter() - start) / repeat)
    return best_value, best_base


def measure(
    name: str, action: Callable[[], object], repeat: int, rounds: int = ROUNDS
) -> dict[str, object]:
    """One benchmark line: seconds per call, the same library calls made bare (measured in
    alternation with it), their ratio."""
    counts = count_ops(action)
    b = bare()
    value, baseline = _interleaved(action, lambda: b.replay(counts), repeat, rounds)
    return {
        "name": name,
        "value": value,
        "unit": "s/op",
        "baseline": baseline,
        "ratio": value / baseline,
        **dict(zip(OP_KINDS, counts, strict=True)),
    }


def group_ops() -> dict[str, object]:
    """The backend's cost per operation, in us: through `p2pwillow.crypto.group` and bare.

    value: a variable-time multiplication through `Point.mul_public`; baseline: the bare call.
    """
    b = bare()
    k = seeded_scalar("bench/bare")
    h = generators(1)[0]
    enc = h.encoding
    through: dict[str, Callable[[], object]] = {
        "mul": lambda: h.mul_public(k),
        "mul_ct": lambda: h.mul_secret(k),
        "base_mul": lambda: G.mul_secret(k),
        "add": lambda: h + h,
        "add32": lambda: sum_points([h] * 33),
        "validate": lambda: Point.decode(enc),
        "negate_encode": lambda: (-h).encoding,
    }
    made_bare: dict[str, Callable[[], object]] = {
        "mul": b.mul,
        "mul_ct": b.mul_ct,
        "base_mul": b.base_mul,
        "add": lambda: b.combine(2),
        "add32": lambda: b.combine(33),
        "validate": b.validate,
        "negate_encode": b.negate_encode,
    }
    api, raw = {}, {}
    for op, f in through.items():
        seconds = _interleaved(f, made_bare[op], 20, 40)
        api[op], raw[op] = seconds[0] * 1e6, seconds[1] * 1e6
    return {
        "value": api["mul"],
        "unit": "us",
        "baseline": raw["mul"],
        "ratio": api["mul"] / raw["mul"],
        "api_us": {op: round(us, 2) for op, us in api.items()},
        "bare_us": {op: round(us, 2) for op, us in raw.items()},
        "note": "mul: k*P variable time (public k); mul_ct: k*P constant time (secp256k1_ecdh); "
        "base_mul: k*G (secp256k1_ecmult_gen); add: P + Q; add32: a sum of 33 points in one "
        "call; validate: decoding a compressed point; negate_encode: -P and its 33-byte "
        "encoding",
    }


def _key() -> tuple[Callable[[], object], Callable[[], object]]:
    x = seeded_scalar("bench/key")
    rng = seeded_rng("bench/key/nonce")
    proof, public = proofs.prove_key(x, b"bench", rng), G.mul_public(x)
    return (
        lambda: proofs.prove_key(x, b"bench", rng),
        lambda: proofs.verify_key(public, proof, b"bench"),
    )


def _dleq() -> tuple[Callable[[], object], Callable[[], object]]:
    x, base = seeded_scalar("bench/dleq"), card_point(3) + G
    rng = seeded_rng("bench/dleq/nonce")
    proof, public, share = (
        proofs.prove_dleq(x, base, b"bench", rng),
        G.mul_public(x),
        base.mul_public(x),
    )
    return (
        lambda: proofs.prove_dleq(x, base, b"bench", rng),
        lambda: proofs.verify_dleq(public, base, share, proof, b"bench"),
    )


def _dleq_batch() -> tuple[Callable[[], object], Callable[[], object]]:
    x = seeded_scalar("bench/batch")
    bases = [G.mul_public(seeded_scalar(f"bench/batch/{i}")) for i in range(BATCH)]
    shares: list[Point] = [b.mul_public(x) for b in bases]
    rng = seeded_rng("bench/batch/nonce")
    proof, public = proofs.prove_dleq_batch(x, bases, b"bench", rng), G.mul_public(x)
    return (
        lambda: proofs.prove_dleq_batch(x, bases, b"bench", rng),
        lambda: proofs.verify_dleq_batch(public, bases, shares, proof, b"bench"),
    )


def _reencrypt() -> tuple[Callable[[], object], Callable[[], object]]:
    xa, xb, r = (seeded_scalar(f"bench/re/{w}") for w in ("a", "b", "r"))
    key_a, key_b = G.mul_public(xa), G.mul_public(xb)
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
    "group.ops": group_ops,
    **_pair("proof.key", _key, 40),
    **_pair("proof.dleq", _dleq, 30),
    **_pair(f"proof.dleq_batch{BATCH}", _dleq_batch, 8),
    **_pair("proof.reencrypt", _reencrypt, 20),
}


if __name__ == "__main__":
    import json

    for bench in BENCHMARKS.values():
        print(json.dumps(bench()))
