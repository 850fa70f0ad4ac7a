"""Vectors for the proof of re-encryption from one key to another (SPEC 4.6).

Generates and checks protocol/vectors/reencrypt.json; no I/O.
"""

from __future__ import annotations

from typing import Any

from p2pwillow.crypto.elgamal import Ciphertext, decrypt, encrypt_with, reencrypt_to
from p2pwillow.crypto.group import G, Point, card_point, scalar_from_hex, scalar_hex
from p2pwillow.crypto.proofs import (
    DOMAIN_REENCRYPTION,
    ReencryptionProof,
    prove_reencryption,
    verify_reencryption,
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

FILE_NAME = "reencrypt.json"

NOTES = {
    "Valid": "An honest proof; witnesses (secretA, r), nonces and the card are listed so "
    "re-encryption and prover can be replayed.",
    "ModifiedProof": "A proof scalar changed to another canonical value: verification fails.",
    "NonCanonicalScalar": "A proof scalar >= L: decoding fails.",
    "ZeroScalar": "A zero proof scalar: decoding fails.",
    "WrongLength": "The proof is not 96 bytes: decoding fails.",
    "WrongContext": "The proof is checked against another context: verification fails.",
    "WrongKey": "key A or key B is another key: verification fails.",
    "SwappedElements": "Two statement elements exchanged: verification fails.",
    "ModifiedCiphertext": "A ciphertext component replaced: verification fails.",
    "WrongPlaintext": "The new ciphertext holds another card; the proof was made by the honest "
    "algorithm on this false statement: verification fails.",
    "InvalidPoint": "A key or a ciphertext half is not a compressed curve point: decoding fails.",
}


def _honest(seed: str, context: bytes, card: int) -> Json:
    xa, xb = seeded_scalar(f"{seed}/secret-a"), seeded_scalar(f"{seed}/secret-b")
    key_a, key_b = G.mul_public(xa), G.mul_public(xb)
    before = encrypt_with(card_point(card), key_a, seeded_scalar(f"{seed}/r0"))
    r = seeded_scalar(f"{seed}/r")
    after = reencrypt_to(before, xa, key_b, r)
    nx, nr = seeded_scalar(f"{seed}/nonce-x"), seeded_scalar(f"{seed}/nonce-r")
    proof = prove_reencryption(xa, r, key_b, before, after, context, fixed_rng(nx, nr))
    return {
        "context": context.hex(),
        "keyA": key_a.hex(),
        "keyB": key_b.hex(),
        "before": before.hex(),
        "after": after.hex(),
        "proof": proof.hex(),
        "secretA": scalar_hex(xa),
        "r": scalar_hex(r),
        "nonceX": scalar_hex(nx),
        "nonceR": scalar_hex(nr),
        "card": card,
    }


STATEMENT = ("context", "keyA", "keyB", "before", "after")


def generate() -> Json:
    tests: list[Json] = []
    base = _honest("reencrypt/0", b"game 7f3a/hand 3/trade 1/seat 2", 17)
    tests.append(case("honest proof", "valid", ["Valid"], **base))
    tests.append(
        case(
            "honest proof, ace of spades, empty context",
            "valid",
            ["Valid"],
            **_honest("reencrypt/1", b"", 51),
        )
    )
    statement = {f: base[f] for f in STATEMENT}
    for comment, flags, proof_hex, error in scalar_tamperings(base["proof"], ["c", "s_x", "s_r"]):
        tests.append(case(comment, "invalid", flags, proof=proof_hex, error=error, **statement))
    other = _honest("reencrypt/2", b"other", 17)
    before, after = Ciphertext.from_hex(base["before"]), Ciphertext.from_hex(base["after"])

    def variant(comment: str, flags: list[str], **changes: Any) -> None:
        fields = {**statement, "proof": base["proof"], **changes}
        tests.append(case(comment, "invalid", flags, error="InvalidProof", **fields))

    variant("another context", ["WrongContext"], context=other["context"])
    variant("context with one more byte", ["WrongContext"], context=base["context"] + "00")
    variant("another key A", ["WrongKey"], keyA=other["keyA"])
    variant("another key B", ["WrongKey"], keyB=other["keyB"])
    variant("keys A and B swapped", ["SwappedElements"], keyA=base["keyB"], keyB=base["keyA"])
    variant(
        "before and after swapped", ["SwappedElements"], before=base["after"], after=base["before"]
    )
    shifted = Ciphertext(after.c1, after.c2 + card_point(18) - card_point(17)).hex()
    variant("after holds card 18 instead of 17, original proof", ["WrongPlaintext"], after=shifted)
    xa, r = scalar_from_hex(base["secretA"]), scalar_from_hex(base["r"])
    forged = prove_reencryption(
        xa,
        r,
        Point.decode_hex(base["keyB"]),
        before,
        Ciphertext.from_hex(shifted),
        bytes.fromhex(base["context"]),
        fixed_rng(scalar_from_hex(base["nonceX"]), scalar_from_hex(base["nonceR"])),
    )
    variant(
        "after holds card 18 instead of 17, proof made on the false statement",
        ["WrongPlaintext"],
        after=shifted,
        proof=forged.hex(),
    )
    x_other = seeded_scalar("reencrypt/other-card")
    variant(
        "after is a fresh encryption of the same card under key B",
        ["ModifiedCiphertext"],
        after=encrypt_with(card_point(17), Point.decode_hex(base["keyB"]), x_other).hex(),
    )
    variant(
        "after.c1 replaced", ["ModifiedCiphertext"], after=Ciphertext(after.c1 + G, after.c2).hex()
    )
    variant(
        "before.c1 replaced",
        ["ModifiedCiphertext"],
        before=Ciphertext(before.c1 + G, before.c2).hex(),
    )
    variant(
        "before.c2 replaced",
        ["ModifiedCiphertext"],
        before=Ciphertext(before.c1, before.c2 + G).hex(),
    )
    variant(
        "after's components swapped",
        ["ModifiedCiphertext"],
        after=Ciphertext(after.c2, after.c1).hex(),
    )
    for field in ("keyA", "keyB"):
        for comment, _, enc in bad_points_for(field)[:2]:
            tests.append(
                case(
                    comment,
                    "invalid",
                    ["InvalidPoint"],
                    error="DecodeError",
                    **{**statement, "proof": base["proof"], field: enc},
                )
            )
    for field, ct in (("before", before), ("after", after)):
        for comment, _, enc in bad_points_for(f"{field}.c1")[1:3]:
            tests.append(
                case(
                    comment,
                    "invalid",
                    ["InvalidPoint"],
                    error="DecodeError",
                    **{**statement, "proof": base["proof"], field: enc + ct.c2.hex()},
                )
            )
        for comment, _, enc in bad_points_for(f"{field}.c2")[2:4]:
            tests.append(
                case(
                    comment,
                    "invalid",
                    ["InvalidPoint"],
                    error="DecodeError",
                    **{**statement, "proof": base["proof"], field: ct.c1.hex() + enc},
                )
            )
    group = {"type": "Reencryption", "domain": DOMAIN_REENCRYPTION.hex(), "tests": tests}
    return document(
        "reencrypt",
        "Proof that (r*G, c2 - x_A*c1 + r*Y_B) re-encrypts (c1, c2) from Y_A = x_A*G to Y_B",
        NOTES,
        [group],
        header="SPEC 4.6. proof = c || s_x || s_r (32-byte big-endian scalars); "
        "ciphertexts are c1 || c2; all lowercase hex.",
    )


def check(group: Json, test: Json) -> None:
    assert group["domain"] == DOMAIN_REENCRYPTION.hex()
    context = bytes.fromhex(test["context"])
    key_a, key_b = Point.decode_hex(test["keyA"]), Point.decode_hex(test["keyB"])
    before, after = Ciphertext.from_hex(test["before"]), Ciphertext.from_hex(test["after"])
    proof = ReencryptionProof.from_hex(test["proof"])
    verify_reencryption(key_a, key_b, before, after, proof, context)
    if "secretA" in test:
        xa, r = scalar_from_hex(test["secretA"]), scalar_from_hex(test["r"])
        nx, nr = scalar_from_hex(test["nonceX"]), scalar_from_hex(test["nonceR"])
        assert G.mul_public(xa) == key_a
        assert reencrypt_to(before, xa, key_b, r) == after
        assert decrypt(before, xa) == test["card"]
        rng = fixed_rng(nx, nr)
        assert prove_reencryption(xa, r, key_b, before, after, context, rng) == proof
