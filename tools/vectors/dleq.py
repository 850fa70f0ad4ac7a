"""Vectors for the DLEQ (Chaum-Pedersen) proof and its batched form (SPEC 4.5).

Generates and checks protocol/vectors/dleq.json; no I/O.
"""

from __future__ import annotations

from typing import Any

from p2pwillow.crypto.group import G, Point, card_point, scalar_from_hex, scalar_hex
from p2pwillow.crypto.proofs import (
    DOMAIN_DLEQ,
    DOMAIN_DLEQ_BATCH,
    DleqBatchProof,
    DleqProof,
    prove_dleq,
    prove_dleq_batch,
    verify_dleq,
    verify_dleq_batch,
)
from tools.vectors.common import (
    Json,
    bad_points_for,
    case,
    document,
    fixed_rng,
    scalar_tamperings,
    seeded_scalar,
)

FILE_NAME = "dleq.json"

NOTES = {
    "Valid": "An honest proof; secret and nonce are listed so the prover can be replayed.",
    "ModifiedProof": "A proof scalar changed to another canonical value: verification fails.",
    "NonCanonicalScalar": "A proof scalar >= L: decoding fails.",
    "ZeroScalar": "A zero proof scalar: decoding fails.",
    "WrongLength": "The proof is not 64 bytes: decoding fails.",
    "WrongContext": "The proof is checked against another context: verification fails.",
    "WrongKey": "The public key is another one: verification fails.",
    "WrongBase": "A base is another point: verification fails.",
    "WrongShare": "A share is not secret*base: verification fails.",
    "SwappedElements": "Two statement elements exchanged: verification fails.",
    "InvalidPoint": "A statement point is not a compressed curve point: decoding fails.",
    "TruncatedStatement": "A base and its share dropped: another statement, verification fails.",
    "LengthMismatch": "Bases and shares differ in number, or are empty: verification fails.",
    "DomainSeparation": "A proof of one kind offered as the other kind: verification fails.",
}


def _bases(seed: str, n: int) -> list[Point]:
    # Bases as in a key switch: first components of ciphertexts, r*G.
    return [G.mul_public(seeded_scalar(f"{seed}/base/{i}")) for i in range(n)]


def _honest(seed: str, context: bytes, base: Point) -> Json:
    x, nonce = seeded_scalar(f"{seed}/secret"), seeded_scalar(f"{seed}/nonce")
    proof = prove_dleq(x, base, context, fixed_rng(nonce))
    return {
        "context": context.hex(),
        "public": G.mul_public(x).hex(),
        "base": base.hex(),
        "share": base.mul_public(x).hex(),
        "proof": proof.hex(),
        "secret": scalar_hex(x),
        "nonce": scalar_hex(nonce),
    }


def _honest_batch(seed: str, context: bytes, bases: list[Point]) -> Json:
    x, nonce = seeded_scalar(f"{seed}/secret"), seeded_scalar(f"{seed}/nonce")
    proof = prove_dleq_batch(x, bases, context, fixed_rng(nonce))
    return {
        "context": context.hex(),
        "public": G.mul_public(x).hex(),
        "bases": [b.hex() for b in bases],
        "shares": [b.mul_public(x).hex() for b in bases],
        "proof": proof.hex(),
        "secret": scalar_hex(x),
        "nonce": scalar_hex(nonce),
    }


def _statement(honest: Json, *fields: str) -> dict[str, Any]:
    return {f: honest[f] for f in fields}


def _single_group() -> Json:
    tests: list[Json] = []
    base = _honest("dleq/0", b"game 7f3a/hand 1/reveal/seat 2/round 1", _bases("dleq/0", 1)[0])
    tests.append(case("honest proof", "valid", ["Valid"], **base))
    tests.append(
        case(
            "honest proof, base is a card point",
            "valid",
            ["Valid"],
            **_honest("dleq/1", b"ctx", card_point(2)),
        )
    )
    tests.append(
        case(
            "honest proof, empty context",
            "valid",
            ["Valid"],
            **_honest("dleq/2", b"", _bases("dleq/2", 1)[0]),
        )
    )
    statement = _statement(base, "context", "public", "base", "share")
    for comment, flags, proof_hex, error in scalar_tamperings(base["proof"], ["c", "s"]):
        tests.append(case(comment, "invalid", flags, proof=proof_hex, error=error, **statement))
    other = _honest("dleq/3", b"other", _bases("dleq/3", 1)[0])

    def variant(comment: str, flag: str, **changes: str) -> None:
        fields = {**statement, "proof": base["proof"], **changes}
        tests.append(case(comment, "invalid", [flag], error="InvalidProof", **fields))

    variant("another context", "WrongContext", context=other["context"])
    variant("empty context", "WrongContext", context="")
    variant("another public key", "WrongKey", public=other["public"])
    variant("another base", "WrongBase", base=other["base"])
    variant("another share", "WrongShare", share=other["share"])
    variant(
        "share of another secret on this base",
        "WrongShare",
        share=Point.decode_hex(base["base"]).mul_public(12345).hex(),
    )
    variant(
        "public key and share swapped",
        "SwappedElements",
        public=base["share"],
        share=base["public"],
    )
    variant("base and share swapped", "SwappedElements", base=base["share"], share=base["base"])
    variant(
        "roles of G and base exchanged: public = share, base = G, share = public",
        "SwappedElements",
        public=base["share"],
        base=G.hex(),
        share=base["public"],
    )
    for field in ("public", "base", "share"):
        for comment, _, enc in bad_points_for(field):
            fields = {**statement, "proof": base["proof"], field: enc}
            tests.append(case(comment, "invalid", ["InvalidPoint"], error="DecodeError", **fields))
    batch1 = _honest_batch(
        "dleq/0", bytes.fromhex(base["context"]), [Point.decode_hex(base["base"])]
    )
    variant(
        "a batched proof (n = 1) of the same statement", "DomainSeparation", proof=batch1["proof"]
    )
    return {"type": "Dleq", "domain": DOMAIN_DLEQ.hex(), "tests": tests}


def _batch_group() -> Json:
    tests: list[Json] = []
    cases = {
        n: _honest_batch(
            f"dleq-batch/{n}",
            f"game 7f3a/hand 2/deal/seat {n}".encode(),
            _bases(f"dleq-batch/{n}", n),
        )
        for n in (1, 2, 9, 52)
    }
    for n, honest in cases.items():
        tests.append(case(f"honest proof, {n} shares", "valid", ["Valid"], **honest))
    base = cases[9]
    statement = _statement(base, "context", "public", "bases", "shares")
    for comment, flags, proof_hex, error in scalar_tamperings(base["proof"], ["c", "s"]):
        tests.append(case(comment, "invalid", flags, proof=proof_hex, error=error, **statement))
    other = cases[2]
    bases, shares = base["bases"], base["shares"]

    def variant(comment: str, flag: str, **changes: Any) -> None:
        fields = {**statement, "proof": base["proof"], **changes}
        tests.append(case(comment, "invalid", [flag], error="InvalidProof", **fields))

    variant("another context", "WrongContext", context=other["context"])
    variant("another public key", "WrongKey", public=other["public"])
    for i in (0, 4, 8):
        variant(
            f"share {i} replaced by a share of another secret",
            "WrongShare",
            shares=[*shares[:i], other["shares"][0], *shares[i + 1 :]],
        )
        variant(
            f"base {i} replaced",
            "WrongBase",
            bases=[*bases[:i], other["bases"][0], *bases[i + 1 :]],
        )
    variant("shares 0 and 1 swapped", "SwappedElements", shares=[shares[1], shares[0], *shares[2:]])
    variant(
        "shares 3 and 7 swapped",
        "SwappedElements",
        shares=[*shares[:3], shares[7], *shares[4:7], shares[3], shares[8]],
    )
    variant(
        "bases and shares reversed together",
        "SwappedElements",
        bases=bases[::-1],
        shares=shares[::-1],
    )
    variant("bases and shares exchanged", "SwappedElements", bases=shares, shares=bases)
    variant("last share dropped", "LengthMismatch", shares=shares[:-1])
    variant("a share added", "LengthMismatch", shares=[*shares, other["shares"][0]])
    variant(
        "last base and share dropped", "TruncatedStatement", bases=bases[:-1], shares=shares[:-1]
    )
    variant("no bases, no shares", "LengthMismatch", bases=[], shares=[])
    for comment, _, enc in bad_points_for("share 5"):
        tests.append(
            case(
                comment,
                "invalid",
                ["InvalidPoint"],
                error="DecodeError",
                **{**statement, "proof": base["proof"], "shares": [*shares[:5], enc, *shares[6:]]},
            )
        )
    for comment, _, enc in bad_points_for("base 2")[:2]:
        tests.append(
            case(
                comment,
                "invalid",
                ["InvalidPoint"],
                error="DecodeError",
                **{**statement, "proof": base["proof"], "bases": [*bases[:2], enc, *bases[3:]]},
            )
        )
    one = cases[1]
    single = prove_dleq(
        scalar_from_hex(one["secret"]),
        Point.decode_hex(one["bases"][0]),
        bytes.fromhex(one["context"]),
        fixed_rng(scalar_from_hex(one["nonce"])),
    )
    tests.append(
        case(
            "a single DLEQ proof of the same statement (n = 1)",
            "invalid",
            ["DomainSeparation"],
            error="InvalidProof",
            **{**_statement(one, "context", "public", "bases", "shares"), "proof": single.hex()},
        )
    )
    return {"type": "DleqBatch", "domain": DOMAIN_DLEQ_BATCH.hex(), "tests": tests}


def generate() -> Json:
    return document(
        "dleq",
        "Chaum-Pedersen DLEQ proof and batched DLEQ (random linear combination), Fiat-Shamir "
        "over SHA-512",
        NOTES,
        [_single_group(), _batch_group()],
        header="SPEC 4.5. proof = c || s (32-byte big-endian scalars); points, context and "
        "proof in lowercase hex. Valid cases list the secret and the nonce k.",
    )


def check(group: Json, test: Json) -> None:
    context = bytes.fromhex(test["context"])
    public = Point.decode_hex(test["public"])
    if group["type"] == "Dleq":
        assert group["domain"] == DOMAIN_DLEQ.hex()
        base, share = Point.decode_hex(test["base"]), Point.decode_hex(test["share"])
        proof = DleqProof.from_hex(test["proof"])
        verify_dleq(public, base, share, proof, context)
        if "secret" in test:
            x, nonce = scalar_from_hex(test["secret"]), scalar_from_hex(test["nonce"])
            assert (G.mul_public(x), base.mul_public(x)) == (public, share)
            assert prove_dleq(x, base, context, fixed_rng(nonce)) == proof
    elif group["type"] == "DleqBatch":
        assert group["domain"] == DOMAIN_DLEQ_BATCH.hex()
        bases = [Point.decode_hex(b) for b in test["bases"]]
        shares = [Point.decode_hex(s) for s in test["shares"]]
        batch = DleqBatchProof.from_hex(test["proof"])
        verify_dleq_batch(public, bases, shares, batch, context)
        if "secret" in test:
            x, nonce = scalar_from_hex(test["secret"]), scalar_from_hex(test["nonce"])
            assert G.mul_public(x) == public and [b.mul_public(x) for b in bases] == shares
            assert prove_dleq_batch(x, bases, context, fixed_rng(nonce)) == batch
    else:
        raise AssertionError(f"unknown group type {group['type']}")
