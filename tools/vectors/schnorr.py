"""Vectors for the Schnorr proof of knowledge of a secret key (SPEC 4.4).

Generates and checks protocol/vectors/schnorr.json; no I/O.
"""

from __future__ import annotations

from p2pwillow.crypto.group import G, Point, scalar_from_hex, scalar_hex
from p2pwillow.crypto.proofs import DOMAIN_KEY, KeyProof, prove_key, verify_key
from tools.vectors.common import (
    Json,
    bad_points_for,
    case,
    document,
    fixed_rng,
    scalar_tamperings,
    seeded_rng,
    seeded_scalar,
)

FILE_NAME = "schnorr.json"

NOTES = {
    "Valid": "An honest proof; secret and nonce are listed so the prover can be replayed.",
    "EmptyContext": "An honest proof with an empty context.",
    "ModifiedProof": "A proof scalar changed to another canonical value: verification fails.",
    "NonCanonicalScalar": "A proof scalar >= L: decoding fails.",
    "ZeroScalar": "A zero proof scalar: decoding fails.",
    "WrongLength": "The proof is not 64 bytes: decoding fails.",
    "WrongContext": "The proof is checked against another context: verification fails.",
    "WrongKey": "The proof is checked against another public key: verification fails.",
    "InvalidPoint": "The public key is not a compressed curve point: decoding fails.",
    "SwappedScalars": "Challenge and response swapped: verification fails.",
}


def _honest(seed: str, context: bytes) -> Json:
    x = seeded_scalar(f"{seed}/secret")
    nonce = seeded_scalar(f"{seed}/nonce")
    proof = prove_key(x, context, fixed_rng(nonce))
    assert proof == prove_key(x, context, seeded_rng(f"{seed}/nonce"))
    return {
        "context": context.hex(),
        "public": G.mul_public(x).hex(),
        "proof": proof.hex(),
        "secret": scalar_hex(x),
        "nonce": scalar_hex(nonce),
    }


def generate() -> Json:
    tests: list[Json] = []
    base = _honest("schnorr/0", b"game 7f3a/hand 1/seat 2")
    tests.append(case("honest proof", "valid", ["Valid"], **base))
    tests.append(
        case("honest proof, empty context", "valid", ["EmptyContext"], **_honest("schnorr/1", b""))
    )
    tests.append(
        case(
            "honest proof, 300-byte context",
            "valid",
            ["Valid"],
            **_honest("schnorr/2", bytes(range(256)) + bytes(44)),
        )
    )
    statement = {"context": base["context"], "public": base["public"]}
    for comment, flags, proof_hex, error in scalar_tamperings(base["proof"], ["c", "s"]):
        tests.append(case(comment, "invalid", flags, proof=proof_hex, error=error, **statement))
    c, s = base["proof"][:64], base["proof"][64:]
    tests.append(
        case(
            "c and s swapped",
            "invalid",
            ["SwappedScalars"],
            proof=s + c,
            error="InvalidProof",
            **statement,
        )
    )
    other = _honest("schnorr/3", b"game 7f3a/hand 1/seat 3")
    for comment, ctx in (
        ("another context", other["context"]),
        ("empty context", ""),
        ("context with one more byte", base["context"] + "00"),
    ):
        tests.append(
            case(
                comment,
                "invalid",
                ["WrongContext"],
                context=ctx,
                public=base["public"],
                proof=base["proof"],
                error="InvalidProof",
            )
        )
    neg = bytearray.fromhex(base["public"])
    neg[31] ^= 0x80
    for comment, key in (
        ("another key", other["public"]),
        ("the negated key", neg.hex()),
        ("the base point as key", G.hex()),
    ):
        tests.append(
            case(
                comment,
                "invalid",
                ["WrongKey"],
                context=base["context"],
                public=key,
                proof=base["proof"],
                error="InvalidProof",
            )
        )
    tests.append(
        case(
            "another valid proof, other context",
            "invalid",
            ["WrongContext"],
            context=base["context"],
            public=other["public"],
            proof=other["proof"],
            error="InvalidProof",
        )
    )
    for comment, _, enc in bad_points_for("public"):
        tests.append(
            case(
                comment,
                "invalid",
                ["InvalidPoint"],
                context=base["context"],
                public=enc,
                proof=base["proof"],
                error="DecodeError",
            )
        )
    group = {"type": "SchnorrKeyProof", "domain": DOMAIN_KEY.hex(), "tests": tests}
    return document(
        "schnorr",
        "Schnorr proof of knowledge of x for Y = x*G, Fiat-Shamir over SHA-512",
        NOTES,
        [group],
        header="SPEC 4.4. proof = c || s (32-byte big-endian scalars); context, public key "
        "and proof in lowercase hex. Valid cases list the secret and the nonce k.",
    )


def check(group: Json, test: Json) -> None:
    assert group["domain"] == DOMAIN_KEY.hex()
    context = bytes.fromhex(test["context"])
    public = Point.decode_hex(test["public"])
    proof = KeyProof.from_hex(test["proof"])
    verify_key(public, proof, context)
    if "secret" in test:
        x, nonce = scalar_from_hex(test["secret"]), scalar_from_hex(test["nonce"])
        assert G.mul_public(x) == public
        assert prove_key(x, context, fixed_rng(nonce)) == proof
