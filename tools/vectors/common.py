"""Shared helpers for the test-vector modules: seeded randomness, document layout, tampering.

Used only to generate and check protocol/vectors/*.json (SPEC 4.8); no I/O.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from nacl import bindings as _na

from p2pwillow.crypto.group import (
    DecodeError,
    G,
    InvalidProof,
    L,
    Point,
    Rng,
    card_point,
    random_scalar,
    scalar_from_hex,
)
from p2pwillow.ledger import RemoteProtocolError

Json = dict[str, Any]

SCHEMA_PREFIX = "p2pwillow-vectors-v1/"

ERRORS: dict[str, type[Exception]] = {"DecodeError": DecodeError, "InvalidProof": InvalidProof}
"""The exceptions an invalid case may raise, by the name written in its "error" field."""

LEDGER_ERRORS: dict[str, type[Exception]] = {"RemoteProtocolError": RemoteProtocolError}
"""ledger.json's invalid cases raise the ledger's error for bad input (SPEC 6.11) instead."""


# --- deterministic randomness (SPEC 4.8) -----------------------------------------------------


def seeded_rng(seed: str) -> Rng:
    """SHA-512 in counter mode: the byte stream block_0 || block_1 || ... with
    block_i = SHA-512(u32be(len s) || s || u64be(i)), s the UTF-8 seed; rng(n) takes the next n.
    """
    s = seed.encode()
    prefix = len(s).to_bytes(4, "big") + s
    state = {"buf": b"", "i": 0}

    def rng(n: int) -> bytes:
        buf, i = state["buf"], state["i"]
        assert isinstance(buf, bytes) and isinstance(i, int)
        while len(buf) < n:
            buf += hashlib.sha512(prefix + i.to_bytes(8, "big")).digest()
            i += 1
        state["buf"], state["i"] = buf[n:], i
        return buf[:n]

    return rng


def seeded_scalar(seed: str) -> int:
    """A nonzero scalar from `seeded_rng(seed)`: its first 64 bytes, little-endian, mod L."""
    return random_scalar(seeded_rng(seed))


def fixed_rng(*scalars: int) -> Rng:
    """An rng that makes `random_scalar` return exactly these scalars, in order: each is served
    as its 64-byte little-endian encoding. Lets a checker re-run a prover with a vector's nonces.
    """
    queue = [k.to_bytes(64, "little") for k in scalars]

    def rng(n: int) -> bytes:
        if n != 64 or not queue:
            raise AssertionError("fixed_rng: the prover asked for more randomness than recorded")
        return queue.pop(0)

    return rng


# --- document layout (SPEC 4.8) --------------------------------------------------------------


def case(comment: str, result: str, flags: Iterable[str] = (), **fields: Any) -> Json:
    """One test case; tcId is assigned by `document`. Invalid cases name their error."""
    assert result in ("valid", "invalid")
    out: Json = {"comment": comment, "flags": list(flags), "result": result}
    out.update(fields)
    return out


def document(
    name: str,
    algorithm: str,
    notes: Mapping[str, str],
    groups: list[Json],
    header: str = "",
    errors: Mapping[str, type[Exception]] = ERRORS,
) -> Json:
    """The whole JSON document: tcIds numbered 1.. across groups, numberOfTests counted, and
    every flag used checked against `notes`; every invalid case names one of `errors`."""
    tc = 0
    for group in groups:
        for test in group["tests"]:
            tc += 1
            test["tcId"] = tc
            for flag in test["flags"]:
                assert flag in notes, f"flag {flag} has no note"
            if test["result"] == "invalid":
                assert test.get("error") in errors, "an invalid case names its error"
    doc: Json = {
        "schema": SCHEMA_PREFIX + name,
        "algorithm": algorithm,
        "header": header,
        "notes": dict(notes),
        "numberOfTests": tc,
        "testGroups": groups,
    }
    return doc


# --- values and tampering --------------------------------------------------------------------


def point_hex(p: Point) -> str:
    return p.hex()


def scalar_hex_raw(k: int) -> str:
    """Any integer below 2^256 as 32 little-endian bytes in hex (no reduction: for bad cases)."""
    return k.to_bytes(32, "little").hex()


def flip_bit(hex_text: str, bit: int) -> str:
    """The hex string with one bit flipped (bit 0 is the low bit of the first byte)."""
    raw = bytearray(bytes.fromhex(hex_text))
    raw[bit // 8] ^= 1 << (bit % 8)
    return raw.hex()


def scalar_field(proof_hex: str, i: int) -> int:
    return scalar_from_hex(proof_hex[64 * i : 64 * (i + 1)])


def with_scalar(proof_hex: str, i: int, k: int) -> str:
    """The proof hex with its i-th 32-byte scalar replaced by k (unreduced, may be invalid)."""
    return proof_hex[: 64 * i] + scalar_hex_raw(k) + proof_hex[64 * (i + 1) :]


def scalar_tamperings(proof_hex: str, names: list[str]) -> list[tuple[str, list[str], str, str]]:
    """Invalid variants of a compact proof: (comment, flags, proof hex, error) for each scalar:
    a bit flipped, the value plus one, +L (non-canonical), zero, L, 2^256-1; then the length."""
    out: list[tuple[str, list[str], str, str]] = []
    for i, name in enumerate(names):
        k = scalar_field(proof_hex, i)
        out += [
            (
                f"{name}: low bit flipped",
                ["ModifiedProof"],
                flip_bit(proof_hex, 256 * i),
                "InvalidProof",
            ),
            (
                f"{name}: plus one",
                ["ModifiedProof"],
                with_scalar(proof_hex, i, (k + 1) % L or 1),
                "InvalidProof",
            ),
            (
                f"{name}: negated",
                ["ModifiedProof"],
                with_scalar(proof_hex, i, L - k),
                "InvalidProof",
            ),
            (
                f"{name}: plus L (non-canonical)",
                ["NonCanonicalScalar"],
                with_scalar(proof_hex, i, k + L),
                "DecodeError",
            ),
            (f"{name}: zero", ["ZeroScalar"], with_scalar(proof_hex, i, 0), "DecodeError"),
            (
                f"{name}: equal to L",
                ["NonCanonicalScalar"],
                with_scalar(proof_hex, i, L),
                "DecodeError",
            ),
            (
                f"{name}: all ones",
                ["NonCanonicalScalar"],
                with_scalar(proof_hex, i, 2**256 - 1),
                "DecodeError",
            ),
        ]
    out += [
        ("proof truncated by one byte", ["WrongLength"], proof_hex[:-2], "DecodeError"),
        ("proof extended by one byte", ["WrongLength"], proof_hex + "00", "DecodeError"),
        ("empty proof", ["WrongLength"], "", "DecodeError"),
    ]
    return out


# --- invalid point encodings (SPEC 4.1.1) ----------------------------------------------------

P = 2**255 - 19
D = (-121665 * pow(121666, -1, P)) % P

SMALL_ORDER_POINTS: tuple[tuple[str, str], ...] = (
    ("identity (order 1)", "0100000000000000000000000000000000000000000000000000000000000000"),
    ("(0, -1), order 2", "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"),
    ("y = 0, x even, order 4", "0000000000000000000000000000000000000000000000000000000000000000"),
    ("y = 0, x odd, order 4", "0000000000000000000000000000000000000000000000000000000000000080"),
    ("order 8, x even", "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"),
    ("order 8, x odd", "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85"),
    ("order 8, x even", "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"),
    ("order 8, x odd", "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa"),
)
"""The canonical encodings of the eight points of the torsion subgroup E[8]."""


def on_curve_y(y: int) -> bool:
    """Whether some x satisfies -x^2 + y^2 = 1 + d x^2 y^2 (mod p) for this y."""
    num, den = (y * y - 1) % P, (D * y * y + 1) % P
    x2 = num * pow(den, P - 2, P) % P
    return x2 == 0 or pow(x2, (P - 1) // 2, P) == 1


def encode_y(y: int, sign: int = 0) -> str:
    """32 bytes: y little-endian (may be >= p) with the sign bit; no validity implied."""
    return (y | (sign << 255)).to_bytes(32, "little").hex()


def mixed_order_points(base: Point) -> list[tuple[str, str]]:
    """base + T for every non-identity T in E[8]: on the curve, but outside the subgroup."""
    out = []
    for name, t in SMALL_ORDER_POINTS[1:]:
        enc = _na.crypto_core_ed25519_add(base.encoding, bytes.fromhex(t))
        out.append((f"point + torsion point ({name})", enc.hex()))
    return out


def invalid_point_encodings() -> list[tuple[str, list[str], str]]:
    """(comment, flags, hex) of 32-byte strings that must fail point decoding."""
    out: list[tuple[str, list[str], str]] = [
        (f"small-order point: {name}", ["SmallOrderPoint"], enc) for name, enc in SMALL_ORDER_POINTS
    ]
    out += [
        ("identity with the sign bit set (x = 0 negative)", ["NonCanonicalPoint"], encode_y(1, 1)),
        (
            "(0, -1) with the sign bit set (x = 0 negative)",
            ["NonCanonicalPoint"],
            encode_y(P - 1, 1),
        ),
    ]
    for y in range(19):  # p + y for y < 19 are the only 255-bit values >= p
        kind = "on-curve y" if on_curve_y(y) else "off-curve y"
        for sign in (0, 1):
            out.append(
                (
                    f"non-canonical: y = p + {y} ({kind}), sign {sign}",
                    ["NonCanonicalPoint"],
                    encode_y(P + y, sign),
                )
            )
    off = [y for y in range(2, 40) if not on_curve_y(y)][:4]
    out += [(f"off the curve: y = {y}", ["OffCurvePoint"], encode_y(y)) for y in off]
    out += [
        (comment, ["MixedOrderPoint"], enc)
        for comment, enc in mixed_order_points(G) + mixed_order_points(card_point(0))[:2]
    ]
    return out


def bad_points_for(field: str) -> list[tuple[str, list[str], str]]:
    """A short list of invalid encodings to put in a statement field of a proof vector."""
    picks = invalid_point_encodings()
    chosen = [picks[0], picks[4], picks[8], picks[-1]]
    return [(f"{field}: {comment}", flags, enc) for comment, flags, enc in chosen]


Check = Callable[[Json, Json], None]
