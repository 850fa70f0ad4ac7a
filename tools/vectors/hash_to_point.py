"""Vectors for the group layer: base point, point and scalar decoding, hash-to-point (SPEC 4.1).

Generates and checks protocol/vectors/hash_to_point.json; no I/O.
"""

from __future__ import annotations

from p2pwillow.crypto.group import (
    CARD_DOMAIN,
    GENERATOR_DOMAIN,
    H2P_TAG,
    G,
    L,
    Point,
    hash_to_point_candidate,
    hash_to_point_with_counter,
    scalar_from_hex,
    scalar_hex,
)
from tools.vectors.common import (
    Json,
    case,
    document,
    invalid_point_encodings,
    scalar_hex_raw,
    seeded_scalar,
)

FILE_NAME = "hash_to_point.json"

SEC2_GENERATOR = "0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"

GENERATOR_VECTORS = 64
"""How many generators H_i the file lists (a 52-card shuffle needs fewer)."""

NOTES = {
    "Sec2": "The generator G of secp256k1 (SEC 2, section 2.4.1), compressed.",
    "Multiple": "k*G for a listed scalar k; checks scalar multiplication and encoding.",
    "ValidPoint": "A compressed encoding (02 or 03, then x) of a point of the curve.",
    "NegatedPoint": "The prefix 02/03 of a valid point swapped: the encoding of its negative.",
    "Identity": "The identity (point at infinity): it has no 33-byte encoding, rejected. The "
    "group has prime order, so it is the only point of small order.",
    "NonCanonicalPoint": "An x >= p (not reduced mod the field prime): rejected.",
    "OffCurvePoint": "x^3 + 7 is not a square mod p: no curve point has this x (it is the x of a "
    "point of the quadratic twist, whose order has small factors): rejected.",
    "BadPrefix": "A first byte other than 02 or 03: rejected.",
    "UncompressedPoint": "The 65-byte uncompressed (04) or hybrid (06, 07) form, even of a valid "
    "point: rejected.",
    "WrongLength": "Not exactly 33 bytes: rejected.",
    "ValidScalar": "A canonical nonzero scalar.",
    "ZeroScalar": "The zero scalar: rejected.",
    "NonCanonicalScalar": "A 32-byte value >= L: rejected.",
    "CardPoint": 'M_i = hash_to_point("card", i), the point of the card with index i.',
    "Generator": 'H_i = hash_to_point("generator", i), a commitment generator.',
    "RejectedCandidate": "A try-and-increment candidate that is not a valid point: the "
    "encoding must fail to decode, so the counter moves on.",
}


def _base_point_group() -> Json:
    tests = [
        case(
            "SEC 2 generator = 1*G",
            "valid",
            ["Sec2"],
            scalar=scalar_hex(1),
            point=SEC2_GENERATOR,
        )
    ]
    for k in (2, 3, 8, L - 1, seeded_scalar("group/multiple")):
        tests.append(
            case(
                f"{k}*G" if k < 10 else "k*G",
                "valid",
                ["Multiple"],
                scalar=scalar_hex(k),
                point=G.mul_public(k).hex(),
            )
        )
    return {"type": "BasePoint", "tests": tests}


def _point_decoding_group() -> Json:
    tests = [case("the generator", "valid", ["ValidPoint"], encoding=SEC2_GENERATOR)]
    p = G.mul_public(seeded_scalar("group/valid-point"))
    tests.append(case("a random point", "valid", ["ValidPoint"], encoding=p.hex()))
    neg = bytearray(p.encoding)
    neg[0] ^= 1
    tests.append(
        case("the same point, prefix swapped", "valid", ["NegatedPoint"], encoding=neg.hex())
    )
    for comment, flags, enc in invalid_point_encodings():
        tests.append(case(comment, "invalid", flags, encoding=enc, error="DecodeError"))
    tests.append(case("empty", "invalid", ["WrongLength"], encoding="", error="DecodeError"))
    return {"type": "PointDecoding", "tests": tests}


def _scalar_decoding_group() -> Json:
    valid = [(1, "one"), (L - 1, "L - 1"), (2**255, "2^255"), (seeded_scalar("group/s"), "random")]
    tests = [case(name, "valid", ["ValidScalar"], encoding=scalar_hex(k)) for k, name in valid]
    invalid = [
        (0, "zero", "ZeroScalar"),
        (L, "L", "NonCanonicalScalar"),
        (L + 1, "L + 1", "NonCanonicalScalar"),
        (2**256 - 2**128, "2^256 - 2^128", "NonCanonicalScalar"),
        (2**256 - 1, "2^256 - 1", "NonCanonicalScalar"),
    ]
    tests += [
        case(name, "invalid", [flag], encoding=scalar_hex_raw(k), error="DecodeError")
        for k, name, flag in invalid
    ]
    tests += [
        case(
            "31 bytes", "invalid", ["WrongLength"], encoding=scalar_hex(1)[:62], error="DecodeError"
        ),
        case(
            "33 bytes",
            "invalid",
            ["WrongLength"],
            encoding=scalar_hex(1) + "00",
            error="DecodeError",
        ),
    ]
    return {"type": "ScalarDecoding", "tests": tests}


def _hash_group(domain: bytes, count: int, flag: str, rejections: int) -> Json:
    """Every point of the domain with its counter; for the first `rejections` indices whose
    counter is not 0, the rejected candidates too (as 02 || x, which fails to decode)."""
    tests: list[Json] = []
    for i in range(count):
        point, hit = hash_to_point_with_counter(domain, i)
        if hit and rejections:
            rejections -= 1
            for j in range(hit):
                enc = "02" + hash_to_point_candidate(domain, i, j).hex()
                tests.append(
                    case(
                        f"index {i}, counter {j}: rejected candidate",
                        "invalid",
                        ["RejectedCandidate"],
                        index=i,
                        counter=j,
                        point=enc,
                        error="DecodeError",
                    )
                )
        tests.append(case(f"index {i}", "valid", [flag], index=i, counter=hit, point=point.hex()))
    return {"type": "HashToPoint", "tag": H2P_TAG.hex(), "domain": domain.hex(), "tests": tests}


def generate() -> Json:
    groups = [
        _base_point_group(),
        _point_decoding_group(),
        _scalar_decoding_group(),
        _hash_group(CARD_DOMAIN, 52, "CardPoint", 2),
        _hash_group(GENERATOR_DOMAIN, GENERATOR_VECTORS, "Generator", 1),
    ]
    return document(
        "hash_to_point",
        "secp256k1: point and scalar encodings and try-and-increment hash to point",
        NOTES,
        groups,
        header="SPEC 4.1. Points are lowercase hex of their 33-byte compressed encodings, "
        "scalars of their 32-byte big-endian encodings. A hash-to-point candidate x is listed "
        "as 02 || x.",
    )


def check(group: Json, test: Json) -> None:
    kind = group["type"]
    if kind == "BasePoint":
        assert G.mul_public(scalar_from_hex(test["scalar"])).hex() == test["point"]
        assert Point.decode_hex(test["point"]).hex() == test["point"]
    elif kind == "PointDecoding":
        assert Point.decode_hex(test["encoding"]).hex() == test["encoding"]
    elif kind == "ScalarDecoding":
        assert scalar_hex(scalar_from_hex(test["encoding"])) == test["encoding"]
    elif kind == "HashToPoint":
        domain, index, counter = bytes.fromhex(group["domain"]), test["index"], test["counter"]
        assert group["tag"] == H2P_TAG.hex()
        # The listed bytes are the candidate of this counter; whether it decodes decides.
        assert "02" + hash_to_point_candidate(domain, index, counter).hex() == test["point"]
        point = Point.decode_hex(test["point"])
        assert hash_to_point_with_counter(domain, index) == (point, counter)
    else:
        raise AssertionError(f"unknown group type {kind}")
