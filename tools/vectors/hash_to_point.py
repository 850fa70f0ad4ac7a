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

RFC8032_BASE_POINT = "5866666666666666666666666666666666666666666666666666666666666666"

GENERATOR_VECTORS = 64
"""How many generators H_i the file lists (a 52-card shuffle needs fewer)."""

NOTES = {
    "Rfc8032": "The base point B of RFC 8032, section 5.1: y = 4/5, x even.",
    "Multiple": "k*G for a listed scalar k; checks scalar multiplication and encoding.",
    "ValidPoint": "A canonical encoding of a point of the prime-order subgroup.",
    "NegatedPoint": "The sign bit of a valid point flipped: the encoding of its negative.",
    "SmallOrderPoint": "One of the 8 points of order dividing 8, identity included: rejected.",
    "NonCanonicalPoint": "An encoding with y >= p, or x = 0 with the sign bit set: rejected.",
    "OffCurvePoint": "No x exists for this y: rejected.",
    "MixedOrderPoint": "A subgroup point plus a small-order point: on the curve, rejected.",
    "WrongLength": "Not exactly 32 bytes: rejected.",
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
            "RFC 8032 base point = 1*G",
            "valid",
            ["Rfc8032"],
            scalar=scalar_hex(1),
            point=RFC8032_BASE_POINT,
        )
    ]
    for k in (2, 3, 8, L - 1, seeded_scalar("group/multiple")):
        tests.append(
            case(
                f"{k}*G" if k < 10 else "k*G",
                "valid",
                ["Multiple"],
                scalar=scalar_hex(k),
                point=(G * k).hex(),
            )
        )
    return {"type": "BasePoint", "tests": tests}


def _point_decoding_group() -> Json:
    tests = [case("the base point", "valid", ["ValidPoint"], encoding=RFC8032_BASE_POINT)]
    p = G * seeded_scalar("group/valid-point")
    tests.append(case("a random subgroup point", "valid", ["ValidPoint"], encoding=p.hex()))
    neg = bytearray(p.encoding)
    neg[31] ^= 0x80
    tests.append(
        case("the same point, sign bit flipped", "valid", ["NegatedPoint"], encoding=neg.hex())
    )
    for comment, flags, enc in invalid_point_encodings():
        tests.append(case(comment, "invalid", flags, encoding=enc, error="DecodeError"))
    tests += [
        case(
            "31 bytes",
            "invalid",
            ["WrongLength"],
            encoding=RFC8032_BASE_POINT[:62],
            error="DecodeError",
        ),
        case(
            "33 bytes",
            "invalid",
            ["WrongLength"],
            encoding=RFC8032_BASE_POINT + "00",
            error="DecodeError",
        ),
        case("empty", "invalid", ["WrongLength"], encoding="", error="DecodeError"),
    ]
    return {"type": "PointDecoding", "tests": tests}


def _scalar_decoding_group() -> Json:
    valid = [(1, "one"), (L - 1, "L - 1"), (2**252, "2^252"), (seeded_scalar("group/s"), "random")]
    tests = [case(name, "valid", ["ValidScalar"], encoding=scalar_hex(k)) for k, name in valid]
    invalid = [
        (0, "zero", "ZeroScalar"),
        (L, "L", "NonCanonicalScalar"),
        (L + 1, "L + 1", "NonCanonicalScalar"),
        (2 * L, "2L", "NonCanonicalScalar"),
        (2**255, "2^255", "NonCanonicalScalar"),
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


def _hash_group(domain: bytes, count: int, flag: str, rejected_for: tuple[int, ...]) -> Json:
    tests: list[Json] = []
    for i in range(count):
        point, hit = hash_to_point_with_counter(domain, i)
        if i in rejected_for:
            for j in range(hit):
                enc = hash_to_point_candidate(domain, i, j).hex()
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
        _hash_group(CARD_DOMAIN, 52, "CardPoint", (0, 3)),
        _hash_group(GENERATOR_DOMAIN, GENERATOR_VECTORS, "Generator", (1,)),
    ]
    return document(
        "hash_to_point",
        "edwards25519 prime-order subgroup: encodings and try-and-increment hash to point",
        NOTES,
        groups,
        header="SPEC 4.1. Points and scalars are lowercase hex of their 32-byte encodings.",
    )


def check(group: Json, test: Json) -> None:
    kind = group["type"]
    if kind == "BasePoint":
        assert (G * scalar_from_hex(test["scalar"])).hex() == test["point"]
        assert Point.decode_hex(test["point"]).hex() == test["point"]
    elif kind == "PointDecoding":
        assert Point.decode_hex(test["encoding"]).hex() == test["encoding"]
    elif kind == "ScalarDecoding":
        assert scalar_hex(scalar_from_hex(test["encoding"])) == test["encoding"]
    elif kind == "HashToPoint":
        domain, index, counter = bytes.fromhex(group["domain"]), test["index"], test["counter"]
        assert group["tag"] == H2P_TAG.hex()
        # The listed bytes are the candidate of this counter; whether it decodes decides.
        assert hash_to_point_candidate(domain, index, counter).hex() == test["point"]
        point = Point.decode_hex(test["point"])
        assert hash_to_point_with_counter(domain, index) == (point, counter)
    else:
        raise AssertionError(f"unknown group type {kind}")
