"""Vectors for the Terelius-Wikström proof of a shuffle (SPEC 4.7).

Generates and checks protocol/vectors/shuffle.json; no I/O.
"""

from __future__ import annotations

from typing import Any

from p2pwillow.crypto.elgamal import Ciphertext, encrypt_with, reencrypt, trivial_encryption
from p2pwillow.crypto.group import (
    POINT_BYTES,
    SCALAR_BYTES,
    G,
    L,
    Point,
    card_point,
    scalar_from_hex,
    scalar_hex,
)
from p2pwillow.crypto.shuffle import (
    DOMAIN_SHUFFLE,
    ShuffleProof,
    ShuffleWitness,
    _prove,
    prove_shuffle,
    shuffle,
    verify_shuffle,
)
from tools.vectors.common import (
    Json,
    bad_points_for,
    case,
    document,
    fixed_rng,
    scalar_hex_raw,
    seeded_rng,
    seeded_scalar,
)

FILE_NAME = "shuffle.json"

VALID_SIZES = (2, 5, 7, 52)
BASE_SIZE = 5
"""The valid case every invalid case is derived from."""

NOTES = {
    "Valid": "An honest shuffle and proof. The witness (permutation, randomness) and the "
    "prover's 5n+4 random scalars (nonces, in the order of SPEC 4.7.3 step 1) are listed, so "
    "the outputs and the proof can be reproduced byte for byte.",
    "Deck": "The inputs are the public starting deck (G, M_i + Y), i = 0..51 (SPEC 5.2).",
    "ModifiedPoint": "A proof point replaced by another valid point: verification fails.",
    "ModifiedScalar": "A proof scalar changed to another canonical value: verification fails.",
    "ZeroScalar": "A zero proof scalar: decoding fails.",
    "NonCanonicalScalar": "A proof scalar >= L: decoding fails.",
    "InvalidPoint": "A proof point that is not the compressed encoding of a curve point (the "
    "identity, x >= p, off the curve, a bad prefix, the uncompressed form): decoding fails.",
    "WrongLength": "The proof is not 130*n + 160 bytes for any n >= 1: decoding fails.",
    "LengthMismatch": "Statement and proof are for different numbers of ciphertexts: "
    "verification fails.",
    "WrongContext": "The proof is checked against another context: verification fails.",
    "WrongKey": "The public key is another one: verification fails.",
    "WrongInputs": "The inputs are changed: verification fails.",
    "ReplacedOutput": "An output replaced after proving: verification fails.",
    "SwappedOutputs": "Two outputs exchanged after proving: verification fails.",
    "CheatingProver": "The honest prover algorithm run on outputs that are not a re-encrypted "
    "permutation of the inputs: verification fails.",
    "InvalidCiphertext": "A statement ciphertext with an invalid point: decoding fails.",
}


def _inputs(n: int, key: Point) -> list[Ciphertext]:
    if n == 52:
        return [trivial_encryption(i, key) for i in range(52)]
    return [
        encrypt_with(card_point((7 * i + n) % 52), key, seeded_scalar(f"shuffle/{n}/input/{i}"))
        for i in range(n)
    ]


def _honest(n: int) -> Json:
    context = f"game 7f3a/hand 4/shuffle n={n}".encode()
    key = G.mul_public(seeded_scalar(f"shuffle/{n}/key"))
    inputs = _inputs(n, key)
    outputs, witness = shuffle(key, inputs, seeded_rng(f"shuffle/{n}/shuffle"))
    nonces = [seeded_scalar(f"shuffle/{n}/nonce/{k}") for k in range(5 * n + 4)]
    proof = prove_shuffle(key, inputs, outputs, witness, context, fixed_rng(*nonces))
    return {
        "n": n,
        "context": context.hex(),
        "key": key.hex(),
        "inputs": [ct.hex() for ct in inputs],
        "outputs": [ct.hex() for ct in outputs],
        "proof": proof.hex(),
        "permutation": list(witness.permutation),
        "randomness": [scalar_hex(r) for r in witness.randomness],
        "nonces": [scalar_hex(k) for k in nonces],
    }


def _field_names(n: int) -> tuple[list[str], list[str]]:
    """The names of the proof's points and scalars, in encoding order (SPEC 4.7.5)."""
    points = [f"u[{j}]" for j in range(n)] + [f"B[{i}]" for i in range(n)]
    scalars = ["v", "k_A", *(f"k_B[{i}]" for i in range(n)), "k_C", "k_D"]
    scalars += [*(f"k_E[{i}]" for i in range(n)), "k_F"]
    return points, scalars


def _span(proof_hex: str, slot: int) -> tuple[int, int]:
    """Where field number `slot` (points first: 33 bytes each, then 32-byte scalars) lies in
    the proof's hex (SPEC 4.7.5)."""
    n = (len(proof_hex) // 2 - 5 * SCALAR_BYTES) // (2 * (POINT_BYTES + SCALAR_BYTES))
    if slot < 2 * n:
        start, size = 2 * POINT_BYTES * slot, 2 * POINT_BYTES
    else:
        start = 2 * POINT_BYTES * 2 * n + 2 * SCALAR_BYTES * (slot - 2 * n)
        size = 2 * SCALAR_BYTES
    return start, start + size


def _field(proof_hex: str, slot: int) -> str:
    start, end = _span(proof_hex, slot)
    return proof_hex[start:end]


def _replace(proof_hex: str, slot: int, field_hex: str) -> str:
    """The proof with its field number `slot` (points first) replaced."""
    start, end = _span(proof_hex, slot)
    return proof_hex[:start] + field_hex + proof_hex[end:]


def _tampered(base: Json) -> list[Json]:
    n, proof_hex = base["n"], base["proof"]
    points, scalars = _field_names(n)
    statement = {k: base[k] for k in ("n", "context", "key", "inputs", "outputs")}
    tests: list[Json] = []

    def bad(comment: str, flag: str, error: str, proof: str) -> None:
        tests.append(case(comment, "invalid", [flag], error=error, proof=proof, **statement))

    for slot, name in enumerate(points):
        other = Point.decode_hex(_field(proof_hex, slot)) + G
        bad(
            f"{name} replaced by {name} + G",
            "ModifiedPoint",
            "InvalidProof",
            _replace(proof_hex, slot, other.hex()),
        )
    for s, name in enumerate(scalars):
        slot = len(points) + s
        k = scalar_from_hex(_field(proof_hex, slot))
        bad(
            f"{name} plus one",
            "ModifiedScalar",
            "InvalidProof",
            _replace(proof_hex, slot, scalar_hex((k + 1) % L or 1)),
        )
        if name in ("v", "k_A", "k_B[0]", "k_C", "k_D", f"k_E[{n - 1}]", "k_F"):
            bad(f"{name} zero", "ZeroScalar", "DecodeError", _replace(proof_hex, slot, "00" * 32))
        if name in ("v", f"k_B[{n - 1}]", "k_E[0]"):
            bad(
                f"{name} L + 1 (non-canonical 1; k + L would not fit 32 bytes)",
                "NonCanonicalScalar",
                "DecodeError",
                _replace(proof_hex, slot, scalar_hex_raw(L + 1)),
            )
            bad(
                f"{name} equal to L",
                "NonCanonicalScalar",
                "DecodeError",
                _replace(proof_hex, slot, scalar_hex_raw(L)),
            )
    for slot, name in ((0, points[0]), (n + n - 1, points[-1]), (n, points[n])):
        for comment, _, enc in bad_points_for(name):
            bad(comment, "InvalidPoint", "DecodeError", _replace(proof_hex, slot, enc))
    bad("proof truncated by one byte", "WrongLength", "DecodeError", proof_hex[:-2])
    bad("proof extended by one byte", "WrongLength", "DecodeError", proof_hex + "00")
    bad("proof of 160 bytes (n = 0)", "WrongLength", "DecodeError", proof_hex[:320])
    bad("empty proof", "WrongLength", "DecodeError", "")
    return tests


def _statement_changes(base: Json, other: Json) -> list[Json]:
    proof = base["proof"]
    fields = {k: base[k] for k in ("n", "context", "key", "inputs", "outputs")}
    ins, outs = base["inputs"], base["outputs"]
    tests: list[Json] = []

    def variant(comment: str, flag: str, error: str = "InvalidProof", **changes: Any) -> None:
        test = {**fields, "proof": proof, **changes}
        test["n"] = len(test["inputs"])
        tests.append(case(comment, "invalid", [flag], error=error, **test))

    variant("another context", "WrongContext", context=other["context"])
    variant("empty context", "WrongContext", context="")
    variant("context with one more byte", "WrongContext", context=base["context"] + "00")
    variant("another public key", "WrongKey", key=other["key"])
    variant("the key negated", "WrongKey", key=(-Point.decode_hex(base["key"])).hex())
    variant("another input list", "WrongInputs", inputs=other["inputs"][: base["n"]])
    variant("inputs reversed", "WrongInputs", inputs=ins[::-1])
    variant("inputs and outputs exchanged", "WrongInputs", inputs=outs, outputs=ins)
    key = Point.decode_hex(base["key"])
    first = Ciphertext.from_hex(outs[0])
    variant(
        "output 0 re-encrypted once more (same card, other randomness)",
        "ReplacedOutput",
        outputs=[reencrypt(first, key, 5).hex(), *outs[1:]],
    )
    variant(
        "output 2 replaced by the input it came from",
        "ReplacedOutput",
        outputs=[*outs[:2], ins[base["permutation"][2]], *outs[3:]],
    )
    variant(
        "output 4 holds another card",
        "ReplacedOutput",
        outputs=[
            *outs[:4],
            Ciphertext(
                Ciphertext.from_hex(outs[4]).c1,
                Ciphertext.from_hex(outs[4]).c2 + card_point(51) - card_point(50),
            ).hex(),
        ],
    )
    variant("outputs 0 and 1 swapped", "SwappedOutputs", outputs=[outs[1], outs[0], *outs[2:]])
    variant("outputs reversed", "SwappedOutputs", outputs=outs[::-1])
    variant("last output dropped", "LengthMismatch", outputs=outs[:-1])
    variant("last input and output dropped", "LengthMismatch", inputs=ins[:-1], outputs=outs[:-1])
    variant("an output added", "LengthMismatch", outputs=[*outs, outs[0]])
    variant("the proof of the 7-ciphertext case", "LengthMismatch", proof=other["proof"])
    for comment, _, enc in bad_points_for("output 3 c1")[:2]:
        c2 = outs[3][2 * POINT_BYTES :]
        variant(
            comment, "InvalidCiphertext", "DecodeError", outputs=[*outs[:3], enc + c2, *outs[4:]]
        )
    for comment, _, enc in bad_points_for("key")[1:3]:
        variant(comment, "InvalidCiphertext", "DecodeError", key=enc)
    return tests


def _cheating(base: Json) -> list[Json]:
    """Proofs by the honest algorithm for outputs that are no shuffle of the inputs."""
    n = base["n"]
    context, key = bytes.fromhex(base["context"]), Point.decode_hex(base["key"])
    inputs = [Ciphertext.from_hex(x) for x in base["inputs"]]
    randomness = [scalar_from_hex(x) for x in base["randomness"]]
    tests: list[Json] = []
    maps = {
        "output 1 duplicates the card of output 0 (one card dropped)": [
            base["permutation"][0],
            *base["permutation"][:1],
            *base["permutation"][2:],
        ],
        "every output is card 0": [0] * n,
    }
    for comment, mapping in maps.items():
        outputs = [reencrypt(inputs[j], key, r) for j, r in zip(mapping, randomness, strict=True)]
        rng = seeded_rng(f"shuffle/cheat/{comment}")
        proof = _prove(key, inputs, outputs, mapping, randomness, context, rng)
        tests.append(
            case(
                comment,
                "invalid",
                ["CheatingProver"],
                error="InvalidProof",
                **{k: base[k] for k in ("n", "context", "key", "inputs")},
                outputs=[ct.hex() for ct in outputs],
                proof=proof.hex(),
            )
        )
    # Another card in output 3, proved with the true witness of the other outputs.
    perm = list(base["permutation"])
    outputs = [reencrypt(inputs[j], key, r) for j, r in zip(perm, randomness, strict=True)]
    outputs[3] = Ciphertext(outputs[3].c1, outputs[3].c2 + card_point(9) - card_point(8))
    proof = _prove(key, inputs, outputs, perm, randomness, context, seeded_rng("shuffle/cheat/x"))
    tests.append(
        case(
            "output 3 holds another card, proved with the witness of a true shuffle",
            "invalid",
            ["CheatingProver"],
            error="InvalidProof",
            **{k: base[k] for k in ("n", "context", "key", "inputs")},
            outputs=[ct.hex() for ct in outputs],
            proof=proof.hex(),
        )
    )
    return tests


def generate() -> Json:
    honest = {n: _honest(n) for n in VALID_SIZES}
    tests = [
        case(
            f"honest shuffle of {n} ciphertexts",
            "valid",
            ["Valid", "Deck"] if n == 52 else ["Valid"],
            **honest[n],
        )
        for n in VALID_SIZES
    ]
    base = honest[BASE_SIZE]
    tests += _tampered(base)
    tests += _statement_changes(base, honest[7])
    tests += _cheating(base)
    group = {"type": "Shuffle", "domain": DOMAIN_SHUFFLE.hex(), "tests": tests}
    return document(
        "shuffle",
        "Terelius-Wikström proof of a shuffle of ElGamal ciphertexts, compact form, Fiat-Shamir "
        "over SHA-512",
        NOTES,
        [group],
        header="SPEC 4.7. Ciphertexts are c1 || c2 and the proof is u || B || v || k_A || k_B || "
        "k_C || k_D || k_E || k_F (SPEC 4.7.5), all lowercase hex; n is the number of inputs. "
        'The generators are H_i = hash_to_point("generator", i), i = 0..n (hash_to_point.json).',
    )


def check(group: Json, test: Json) -> None:
    assert group["type"] == "Shuffle" and group["domain"] == DOMAIN_SHUFFLE.hex()
    context = bytes.fromhex(test["context"])
    key = Point.decode_hex(test["key"])
    inputs = [Ciphertext.from_hex(x) for x in test["inputs"]]
    outputs = [Ciphertext.from_hex(x) for x in test["outputs"]]
    assert test["n"] == len(test["inputs"])
    proof = ShuffleProof.from_hex(test["proof"])
    verify_shuffle(key, inputs, outputs, proof, context)
    if "nonces" in test:
        perm = tuple(test["permutation"])
        randomness = tuple(scalar_from_hex(x) for x in test["randomness"])
        assert outputs == [
            reencrypt(inputs[j], key, r) for j, r in zip(perm, randomness, strict=True)
        ]
        nonces = [scalar_from_hex(x) for x in test["nonces"]]
        witness = ShuffleWitness(perm, randomness)
        assert prove_shuffle(key, inputs, outputs, witness, context, fixed_rng(*nonces)) == proof
