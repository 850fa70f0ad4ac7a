"""Shared helpers for the test-vector modules: seeded randomness, document layout, tampering.

Used only to generate and check protocol/vectors/*.json (SPEC 4.8); no I/O.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from p2pwillow.crypto.group import (
    FIELD_PRIME,
    DecodeError,
    G,
    InvalidProof,
    L,
    Point,
    Rng,
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
    """A nonzero scalar from `seeded_rng(seed)`: its first 64 bytes, big-endian, mod L."""
    return random_scalar(seeded_rng(seed))


def fixed_rng(*scalars: int) -> Rng:
    """An rng that makes `random_scalar` return exactly these scalars, in order: each is served
    as its 64-byte big-endian encoding. Lets a checker re-run a prover with a vector's nonces.
    """
    queue = [k.to_bytes(64, "big") for k in scalars]

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
    """Any integer below 2^256 as 32 big-endian bytes in hex (no reduction: for bad cases)."""
    return k.to_bytes(32, "big").hex()


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
    a bit flipped, the value plus one, L + 1 (non-canonical), zero, L, 2^256-1; then the length."""
    out: list[tuple[str, list[str], str, str]] = []
    for i, name in enumerate(names):
        k = scalar_field(proof_hex, i)
        out += [
            (
                f"{name}: low bit flipped",
                ["ModifiedProof"],
                flip_bit(proof_hex, 256 * i + 248),  # the last byte: scalars are big-endian
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
                f"{name}: L + 1 (non-canonical 1; k + L would not fit 32 bytes)",
                ["NonCanonicalScalar"],
                with_scalar(proof_hex, i, L + 1),
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

P = FIELD_PRIME
GX = int.from_bytes(G.encoding[1:], "big")
GY = 0x483ADA7726A3C4655DA4FBFC0E1108A8FD17B448A68554199C47D08FFB10D4B8


def on_curve_x(x: int) -> bool:
    """Whether x^3 + 7 is a square mod p (so some point of the curve has this x)."""
    return pow((x**3 + 7) % P, (P - 1) // 2, P) == 1


def encode_x(x: int, prefix: int = 2) -> str:
    """33 bytes: the prefix byte, then x big-endian (may be >= p); no validity implied."""
    return (bytes([prefix]) + x.to_bytes(32, "big")).hex()


IDENTITY_ENCODINGS: tuple[tuple[str, str], ...] = (
    ("the identity as 33 zero bytes", "00" * 33),
    ("the identity as SEC 1's single 00 byte", "00"),
)
"""secp256k1 has prime order: its only point of small order is the identity, which has no
33-byte encoding (SPEC 4.1.1)."""


def twist_points() -> list[tuple[str, str]]:
    """x values for which x^3 + 7 is not a square: no curve point has them. Each is the x of a
    point of the quadratic twist, whose order has small factors: an implementation that computed
    with x alone would work in a small subgroup there (the invalid-curve attack)."""
    off = [x for x in range(0, 40) if not on_curve_x(x)][:4]
    return [(f"x = {x} (on the twist, not the curve)", encode_x(x, 2 + x % 2)) for x in off]


def invalid_point_encodings() -> list[tuple[str, list[str], str]]:
    """(comment, flags, hex) of strings that must fail point decoding (SPEC 4.1.1)."""
    out: list[tuple[str, list[str], str]] = [
        (comment, ["Identity"], enc) for comment, enc in IDENTITY_ENCODINGS
    ]
    out += [(comment, ["OffCurvePoint"], enc) for comment, enc in twist_points()]
    on = next(x for x in range(1, 60) if on_curve_x(x))
    for label, x in (
        ("p", P),
        ("p + 1", P + 1),
        (f"p + {on} (x - p is on the curve)", P + on),
        ("2^256 - 1", 2**256 - 1),
    ):
        for prefix in (2, 3):
            out.append(
                (f"x = {label} >= p, prefix 0{prefix}", ["NonCanonicalPoint"], encode_x(x, prefix))
            )
    for prefix in (0, 1, 4, 5, 6, 7, 0xFF):
        out.append((f"prefix {prefix:02x} on G's x", ["BadPrefix"], encode_x(GX, prefix)))
    xy = GX.to_bytes(32, "big") + GY.to_bytes(32, "big")
    out += [
        ("G uncompressed (04 || x || y)", ["UncompressedPoint"], (b"\x04" + xy).hex()),
        ("G in hybrid form (06 || x || y)", ["UncompressedPoint"], (b"\x06" + xy).hex()),
        ("G's x alone (32 bytes)", ["WrongLength"], G.encoding[1:].hex()),
        ("G with a byte appended (34 bytes)", ["WrongLength"], G.hex() + "00"),
    ]
    return out


def bad_points_for(field: str) -> list[tuple[str, list[str], str]]:
    """A short list of invalid encodings to put in a statement field of a proof vector: the
    identity, a twist point, x >= p, a bad prefix and the uncompressed form."""
    picks = invalid_point_encodings()
    by_flag = {flag: [p for p in picks if p[1] == [flag]] for flag in ("Identity", "OffCurvePoint")}
    chosen = [
        by_flag["Identity"][0],
        by_flag["OffCurvePoint"][0],
        next(p for p in picks if p[1] == ["NonCanonicalPoint"]),
        next(p for p in picks if p[1] == ["BadPrefix"]),
        next(p for p in picks if p[1] == ["UncompressedPoint"]),
    ]
    return [(f"{field}: {comment}", flags, enc) for comment, flags, enc in chosen]


Check = Callable[[Json, Json], None]
