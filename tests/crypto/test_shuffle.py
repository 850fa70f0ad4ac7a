"""The Terelius-Wikström proof of a shuffle (SPEC 4.7): completeness, soundness against cheating
shufflers, every proof field tampered, and strict decoding."""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pwillow.crypto.checked import CHECKED
from p2pwillow.crypto.elgamal import Ciphertext, decrypt, encrypt, reencrypt, trivial_encryption
from p2pwillow.crypto.group import (
    IDENTITY,
    OPS,
    POINT_BYTES,
    DecodeError,
    G,
    InvalidProof,
    L,
    Point,
    Rng,
    card_point,
    generators,
    random_scalar,
    scalar_inverse,
    sum_points,
)
from p2pwillow.crypto.shuffle import (
    ShuffleProof,
    ShuffleWitness,
    _append_commitments,
    _prove,
    _statement,
    prove_shuffle,
    random_permutation,
    shuffle,
    verify_shuffle,
)
from tools.vectors.common import invalid_point_encodings

CONTEXT = b"game 7f3a/hand 3/deck-shuffle/seat 4"


def make_rng(seed: str) -> Rng:
    """A deterministic byte stream for reproducible tests (SHAKE-256 of seed and a counter)."""
    counter = itertools.count()

    def rng(n: int) -> bytes:
        return hashlib.shake_256(f"{seed}/{next(counter)}".encode()).digest(n)

    return rng


@dataclasses.dataclass(frozen=True)
class Case:
    secret: int
    key: Point
    inputs: tuple[Ciphertext, ...]
    outputs: tuple[Ciphertext, ...]
    witness: ShuffleWitness
    proof: ShuffleProof


def make_case(n: int, seed: str = "case", context: bytes = CONTEXT) -> Case:
    rng = make_rng(f"{seed}/{n}")
    secret = random_scalar(rng)
    key = G.mul_public(secret)
    inputs = tuple(encrypt(i % 52, key, rng) for i in range(n))
    outputs, witness = shuffle(key, inputs, rng)
    proof = prove_shuffle(key, inputs, outputs, witness, context, rng)
    return Case(secret, key, inputs, outputs, witness, proof)


@pytest.fixture(scope="module")
def case5() -> Case:
    return make_case(5)


def rejects(case: Case, **changes: object) -> None:
    """verify_shuffle with some of (key, inputs, outputs, proof, context) changed must raise
    InvalidProof (and nothing else)."""
    args: dict[str, object] = {
        "key": case.key,
        "inputs": case.inputs,
        "outputs": case.outputs,
        "proof": case.proof,
        "context": CONTEXT,
    }
    args.update(changes)
    # the case's own proof checked first is remembered (crypto/checked.py): the change must
    # still be checked in full
    verify_shuffle(case.key, case.inputs, case.outputs, case.proof, CONTEXT)
    with pytest.raises(InvalidProof):
        verify_shuffle(**args)  # type: ignore[arg-type]


# --- completeness ----------------------------------------------------------------------------


@pytest.mark.parametrize("n", [*range(2, 11), 52])
def test_valid_shuffle_verifies(n: int) -> None:
    case = make_case(n)
    verify_shuffle(case.key, case.inputs, case.outputs, case.proof, CONTEXT)
    assert case.proof.n == n
    assert len(case.proof.encode()) == ShuffleProof.encoded_size(n) == 130 * n + 160
    # The outputs hold the inputs' cards in the witness's order.
    cards_in = [decrypt(ct, case.secret) for ct in case.inputs]
    cards_out = [decrypt(ct, case.secret) for ct in case.outputs]
    assert cards_out == [cards_in[j] for j in case.witness.permutation]
    assert sorted(case.witness.permutation) == list(range(n))


def test_single_ciphertext_and_deck_of_trivial_encryptions() -> None:
    rng = make_rng("deck")
    key = G.mul_public(random_scalar(rng))
    for inputs in ([encrypt(7, key, rng)], [trivial_encryption(i, key) for i in range(12)]):
        outputs, witness = shuffle(key, inputs, rng)
        proof = prove_shuffle(key, inputs, outputs, witness, b"", rng)
        verify_shuffle(key, inputs, outputs, proof, b"")


@settings(max_examples=20, deadline=None)
@given(seed=st.binary(min_size=1, max_size=16), n=st.integers(min_value=2, max_value=6))
def test_valid_shuffles_over_seeds(seed: bytes, n: int) -> None:
    case = make_case(n, seed.hex())
    verify_shuffle(case.key, case.inputs, case.outputs, case.proof, CONTEXT)
    decoded = ShuffleProof.decode(case.proof.encode())
    assert decoded == case.proof
    verify_shuffle(case.key, case.inputs, case.outputs, decoded, CONTEXT)


def test_deterministic_given_rng() -> None:
    a, b = make_case(4, "same"), make_case(4, "same")
    assert a.proof.encode() == b.proof.encode()
    assert a.proof.encode() != make_case(4, "other").proof.encode()


def test_another_randomness_is_still_a_valid_shuffle(case5: Case) -> None:
    # Re-encrypting with other randomness is a different, equally valid shuffle.
    rand = list(case5.witness.randomness)
    rand[2] = (rand[2] * 3 + 1) % L
    outputs = tuple(
        reencrypt(case5.inputs[j], case5.key, r)
        for j, r in zip(case5.witness.permutation, rand, strict=True)
    )
    witness = ShuffleWitness(case5.witness.permutation, tuple(rand))
    proof = prove_shuffle(case5.key, case5.inputs, outputs, witness, CONTEXT, make_rng("r"))
    verify_shuffle(case5.key, case5.inputs, outputs, proof, CONTEXT)
    rejects(case5, outputs=outputs)  # but the old proof does not cover the new outputs


def test_random_permutation_is_a_permutation() -> None:
    perms = {random_permutation(6, make_rng(f"p{i}")) for i in range(40)}
    assert all(sorted(p) == list(range(6)) for p in perms)
    assert len(perms) > 20  # 720 possible; 40 draws repeat rarely
    assert random_permutation(1, make_rng("one")) == (0,)


# --- soundness: cheating shufflers -----------------------------------------------------------


def cheat(case: Case, mapping: list[int], outputs: list[Ciphertext], seed: str) -> ShuffleProof:
    """A proof by the honest prover algorithm for a claimed map that need not be a permutation."""
    n = len(case.inputs)
    rand = list(case.witness.randomness)[:n]
    return _prove(case.key, case.inputs, outputs, mapping, rand, CONTEXT, make_rng(seed))


def test_duplicated_card_is_rejected(case5: Case) -> None:
    # Output 1 becomes a second copy of the card of output 0; output 1's card is dropped.
    mapping = list(case5.witness.permutation)
    mapping[1] = mapping[0]
    outputs = [
        reencrypt(case5.inputs[j], case5.key, r)
        for j, r in zip(mapping, case5.witness.randomness, strict=True)
    ]
    proof = cheat(case5, mapping, outputs, "dup")
    rejects(case5, outputs=tuple(outputs), proof=proof)
    with pytest.raises(ValueError, match="permutation"):
        prove_shuffle(
            case5.key,
            case5.inputs,
            outputs,
            ShuffleWitness(tuple(mapping), case5.witness.randomness),
            CONTEXT,
        )


def test_all_outputs_one_card_is_rejected(case5: Case) -> None:
    mapping = [0] * 5
    outputs = [reencrypt(case5.inputs[0], case5.key, r) for r in case5.witness.randomness]
    rejects(case5, outputs=tuple(outputs), proof=cheat(case5, mapping, outputs, "all0"))


def test_dropped_card_is_rejected(case5: Case) -> None:
    rejects(case5, outputs=case5.outputs[:-1])
    rejects(case5, inputs=case5.inputs[:-1])
    short = prove_shuffle(
        case5.key,
        case5.inputs[:4],
        [reencrypt(case5.inputs[i], case5.key, 5 + i) for i in range(4)],
        ShuffleWitness((0, 1, 2, 3), (5, 6, 7, 8)),
        CONTEXT,
        make_rng("short"),
    )
    rejects(case5, proof=short)


@pytest.mark.parametrize("position", [0, 3])
def test_substituted_card_is_rejected(case5: Case, position: int) -> None:
    # The output holds a card that is not among the inputs (another plaintext).
    outputs = list(case5.outputs)
    ct = outputs[position]
    outputs[position] = Ciphertext(ct.c1, ct.c2 + card_point(51) - card_point(50))
    proof = cheat(case5, list(case5.witness.permutation), outputs, "sub")
    rejects(case5, outputs=tuple(outputs), proof=proof)


def test_reencryption_under_another_key_is_rejected(case5: Case) -> None:
    other_key = G.mul_public(1234567)
    outputs = list(case5.outputs)
    j, r = case5.witness.permutation[2], case5.witness.randomness[2]
    outputs[2] = reencrypt(case5.inputs[j], other_key, r)
    proof = cheat(case5, list(case5.witness.permutation), outputs, "key")
    rejects(case5, outputs=tuple(outputs), proof=proof)


def test_wrong_witness_randomness_is_rejected(case5: Case) -> None:
    rand = list(case5.witness.randomness)
    rand[4] = rand[4] + 1
    proof = prove_shuffle(
        case5.key,
        case5.inputs,
        case5.outputs,
        ShuffleWitness(case5.witness.permutation, tuple(rand)),
        CONTEXT,
        make_rng("wr"),
    )
    rejects(case5, proof=proof)


def test_swapped_outputs_after_proving_are_rejected(case5: Case) -> None:
    for i, j in [(0, 1), (1, 4), (2, 3)]:
        outputs = list(case5.outputs)
        outputs[i], outputs[j] = outputs[j], outputs[i]
        rejects(case5, outputs=tuple(outputs))


def test_proof_does_not_transfer(case5: Case) -> None:
    rejects(case5, context=CONTEXT + b"!")
    rejects(case5, context=b"")
    rejects(case5, key=G.mul_public(99))
    other = make_case(5, "other")
    rejects(case5, inputs=other.inputs)
    rejects(case5, inputs=case5.inputs[::-1])
    rejects(case5, inputs=case5.outputs, outputs=case5.inputs)
    rejects(case5, proof=other.proof)
    # A proof of another shuffle of the same inputs does not cover these outputs.
    outputs, witness = shuffle(case5.key, case5.inputs, make_rng("again"))
    other_proof = prove_shuffle(case5.key, case5.inputs, outputs, witness, CONTEXT, make_rng("x"))
    rejects(case5, proof=other_proof)


def test_output_replaced_by_an_input_is_rejected(case5: Case) -> None:
    outputs = list(case5.outputs)
    outputs[0] = case5.inputs[case5.witness.permutation[0]]
    rejects(case5, outputs=tuple(outputs))


Matrix = list[list[int]]


def matrix_prove(
    case: Case,
    matrix: Matrix,
    outputs: list[Ciphertext],
    seed: str,
    committed: Matrix | None = None,
    chained: Matrix | None = None,
) -> ShuffleProof:
    """The prover of SPEC 4.7.3 for any n x n matrix M (rows: output positions), e' = M e.

    A permutation matrix gives an honest proof; anything else is a cheating prover that passes
    every check except the one it breaks. `committed` (the matrix in u) and `chained` (the
    matrix whose e-values the chain multiplies) default to M; setting them apart lets a test
    break the opening of A or the chain alone.
    """
    committed = committed or matrix
    chained = chained or matrix
    key, inputs, n, rng = case.key, case.inputs, len(case.inputs), make_rng(seed)
    s = case.witness.randomness
    gens = generators(n + 1)
    h, pos = gens[0], gens[1:]
    r = [random_scalar(rng) for _ in range(n)]
    b = [random_scalar(rng) for _ in range(n)]
    alpha, beta = random_scalar(rng), [random_scalar(rng) for _ in range(n)]
    gamma, delta = random_scalar(rng), random_scalar(rng)
    eps, phi = [random_scalar(rng) for _ in range(n)], random_scalar(rng)
    u = [
        sum_points(
            [
                G.mul_public(r[j]),
                *(pos[i].mul_public(committed[i][j]) for i in range(n) if committed[i][j] % L),
            ]
        )
        for j in range(n)
    ]
    fs = _statement(key, gens, inputs, outputs, CONTEXT)
    fs.append_points(b"u", u)
    e = fs.challenges(b"e", n)
    ep = [sum(matrix[i][j] * e[j] for j in range(n)) % L for i in range(n)]
    ec = [sum(chained[i][j] * e[j] for j in range(n)) % L for i in range(n)]
    chain, chain_t, prev, b_bar = [], [], h, 0
    for i in range(n):
        chain_t.append(G.mul_public(beta[i]) + prev.mul_public(eps[i]))
        prev = G.mul_public(b[i]) + prev.mul_public(ec[i])
        chain.append(prev)
        b_bar = (b[i] + ec[i] * b_bar) % L
    a_t = sum_points(
        [G.mul_public(alpha), *(p.mul_public(k) for p, k in zip(pos, eps, strict=True))]
    )
    f1 = sum_points(
        [G.mul_public(-phi), *(ct.c1.mul_public(k) for ct, k in zip(outputs, eps, strict=True))]
    )
    f2 = sum_points(
        [key.mul_public(-phi), *(ct.c2.mul_public(k) for ct, k in zip(outputs, eps, strict=True))]
    )
    v = _append_commitments(
        fs, chain, a_t, chain_t, G.mul_public(gamma), G.mul_public(delta), (f1, f2)
    )
    return ShuffleProof(
        tuple(u),
        tuple(chain),
        v,
        (alpha + v * sum(x * y for x, y in zip(e, r, strict=True))) % L,
        tuple((x + v * y) % L for x, y in zip(beta, b, strict=True)),
        (gamma + v * sum(r)) % L,
        (delta + v * b_bar) % L,
        tuple((x + v * y) % L for x, y in zip(eps, ep, strict=True)),
        (phi + v * sum(x * y for x, y in zip(ep, s, strict=True))) % L,
    )


def scaled(ct: Ciphertext, k: int) -> Ciphertext:
    return Ciphertext(ct.c1.mul_public(k), ct.c2.mul_public(k))


def test_matrix_prover_is_honest_for_a_permutation(case5: Case) -> None:
    perm = case5.witness.permutation
    matrix = [[int(perm[i] == j) for j in range(5)] for i in range(5)]
    proof = matrix_prove(case5, matrix, list(case5.outputs), "perm")
    verify_shuffle(case5.key, case5.inputs, case5.outputs, proof, CONTEXT)


def test_linear_combination_of_inputs_is_rejected(case5: Case) -> None:
    # outputs = N * inputs with the columns of N summing to 1, committed as M = N^-T (rows sum
    # to 1): checks A, B, C and F hold; only the product check (D) catches it.
    ins, s, key = case5.inputs, case5.witness.randomness, case5.key
    plain = [
        scaled(ins[0], 2),
        Ciphertext(ins[1].c1 - ins[0].c1, ins[1].c2 - ins[0].c2),
        ins[2],
        ins[3],
        ins[4],
    ]
    outputs = [reencrypt(ct, key, r) for ct, r in zip(plain, s, strict=True)]
    half = scalar_inverse(2)
    matrix = [[int(i == j) for j in range(5)] for i in range(5)]
    matrix[0][0], matrix[0][1] = half, half
    rejects(case5, outputs=tuple(outputs), proof=matrix_prove(case5, matrix, outputs, "lin"))


def test_commitment_to_another_permutation_is_rejected(case5: Case) -> None:
    # u commits to the identity, the responses follow the real permutation: only the opening
    # of A catches it.
    perm = case5.witness.permutation
    matrix = [[int(perm[i] == j) for j in range(5)] for i in range(5)]
    identity = [[int(i == j) for j in range(5)] for i in range(5)]
    outputs = list(case5.outputs)
    proof = matrix_prove(case5, matrix, outputs, "commit", committed=identity)
    rejects(case5, proof=proof)


def test_chain_over_other_values_is_rejected(case5: Case) -> None:
    # The linear attack again, but the chain multiplies e itself so that the product check
    # passes: only the chain's own equations (B) catch it.
    ins, s, key = case5.inputs, case5.witness.randomness, case5.key
    plain = [scaled(ins[0], 2), Ciphertext(ins[1].c1 - ins[0].c1, ins[1].c2 - ins[0].c2), *ins[2:]]
    outputs = [reencrypt(ct, key, r) for ct, r in zip(plain, s, strict=True)]
    matrix = [[int(i == j) for j in range(5)] for i in range(5)]
    identity = [row[:] for row in matrix]
    matrix[0][0] = matrix[0][1] = scalar_inverse(2)
    proof = matrix_prove(case5, matrix, outputs, "chain", chained=identity)
    rejects(case5, outputs=tuple(outputs), proof=proof)


def test_scaled_ciphertexts_are_rejected(case5: Case) -> None:
    # outputs_i = inputs_pi(i) / c_i with prod c_i = 1, committed as M = diag(c) P: checks A,
    # B, D and F hold; only the sum check (C) catches it.
    perm, s, key = case5.witness.permutation, case5.witness.randomness, case5.key
    c = [3, 5, scalar_inverse(15), 1, 1]
    outputs = [
        reencrypt(scaled(case5.inputs[perm[i]], scalar_inverse(c[i])), key, s[i]) for i in range(5)
    ]
    matrix = [[c[i] if perm[i] == j else 0 for j in range(5)] for i in range(5)]
    rejects(case5, outputs=tuple(outputs), proof=matrix_prove(case5, matrix, outputs, "scale"))


# --- every field of the proof tampered -------------------------------------------------------

POINT_FIELDS = ("permutation_commitment", "chain")
SCALAR_FIELDS = ("challenge", "k_a", "k_c", "k_d", "k_f")
VECTOR_FIELDS = ("k_b", "k_e")


def replaced(proof: ShuffleProof, name: str, value: object) -> ShuffleProof:
    """The proof with one field set to any value (well-formed or not)."""
    changes: dict[str, Any] = {name: value}
    return dataclasses.replace(proof, **changes)


def tamperings(
    proof: ShuffleProof, point: Callable[[Point], object], scalar: Callable[[int], object]
) -> list[tuple[str, ShuffleProof]]:
    """One variant of the proof per point and per scalar, that element replaced."""
    out = []
    for name in POINT_FIELDS + VECTOR_FIELDS:
        values = getattr(proof, name)
        change = point if name in POINT_FIELDS else scalar
        for i in range(len(values)):
            changed = (*values[:i], change(values[i]), *values[i + 1 :])
            out.append((f"{name}[{i}]", replaced(proof, name, changed)))
    for name in SCALAR_FIELDS:
        out.append((name, replaced(proof, name, scalar(getattr(proof, name)))))
    return out


@pytest.mark.parametrize("n", [2, 4])
def test_every_field_changed_is_rejected(n: int) -> None:
    case = make_case(n, "tamper")
    variants = tamperings(case.proof, lambda p: p + G, lambda k: (k + 1) % L or 1)
    assert len(variants) == 4 * n + 5
    for name, proof in variants:
        with pytest.raises(InvalidProof):
            verify_shuffle(case.key, case.inputs, case.outputs, proof, CONTEXT)
        # and the change survives encoding: the decoded proof is rejected as well
        decoded = ShuffleProof.decode(proof.encode(), n)
        with pytest.raises(InvalidProof):
            verify_shuffle(case.key, case.inputs, case.outputs, decoded, CONTEXT)
        assert name


def test_every_field_negated_is_rejected(case5: Case) -> None:
    for _, proof in tamperings(case5.proof, lambda p: -p, lambda k: L - k):
        rejects(case5, proof=proof)


@pytest.mark.parametrize(
    ("bad_point", "bad_scalar"),
    [(IDENTITY, 0), (IDENTITY, L), (None, -1), ("point", True), (IDENTITY, L + 5)],
)
def test_ill_formed_proof_objects_are_rejected(
    case5: Case, bad_point: object, bad_scalar: object
) -> None:
    for _, proof in tamperings(case5.proof, lambda p: bad_point, lambda k: bad_scalar):
        rejects(case5, proof=proof)


def test_wrong_vector_lengths_are_rejected(case5: Case) -> None:
    p = case5.proof
    for name in POINT_FIELDS + VECTOR_FIELDS:
        values = getattr(p, name)
        rejects(case5, proof=replaced(p, name, values[:-1]))
        rejects(case5, proof=replaced(p, name, (*values, values[0])))
        rejects(case5, proof=replaced(p, name, list(values)))


def test_ill_formed_statements_are_rejected(case5: Case) -> None:
    rejects(case5, key=IDENTITY)
    rejects(case5, key=b"key")
    rejects(case5, context="text")
    rejects(case5, proof=case5.proof.encode())
    rejects(case5, inputs=[], outputs=[])
    rejects(case5, inputs=[*case5.inputs[:4], b"x" * 64])
    rejects(case5, outputs=[Ciphertext(IDENTITY, case5.outputs[0].c2), *case5.outputs[1:]])
    rejects(case5, inputs=[Ciphertext(case5.inputs[0].c1, IDENTITY), *case5.inputs[1:]])


def test_prover_rejects_malformed_witness(case5: Case) -> None:
    k, ins, outs = case5.key, case5.inputs, case5.outputs
    perm, rand = case5.witness.permutation, case5.witness.randomness
    bad = [
        ShuffleWitness(perm[:-1], rand),
        ShuffleWitness((*perm[:-1], 5), rand),
        ShuffleWitness(perm, rand[:-1]),
        ShuffleWitness(perm, (*rand[:-1], 0)),
        ShuffleWitness(perm, (*rand[:-1], L)),
    ]
    for witness in bad:
        with pytest.raises(ValueError):
            prove_shuffle(k, ins, outs, witness, CONTEXT)
    with pytest.raises(ValueError):
        prove_shuffle(k, ins, outs[:-1], case5.witness, CONTEXT)
    with pytest.raises(ValueError):
        prove_shuffle(IDENTITY, ins, outs, case5.witness, CONTEXT)
    with pytest.raises(ValueError):
        prove_shuffle(k, ins, outs, case5.witness, "context")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        shuffle(k, [])


# --- decoding --------------------------------------------------------------------------------


def bad_point_encodings() -> list[tuple[str, bytes]]:
    """33-byte strings that are no point: the secp256k1 meaning of the small-order, mixed-order
    and non-canonical cases (the group has prime order, SPEC 4.1.1)."""
    return [
        (comment, bytes.fromhex(enc))
        for comment, _, enc in invalid_point_encodings()
        if len(enc) == 2 * POINT_BYTES
    ]


def test_decode_round_trip(case5: Case) -> None:
    data = case5.proof.encode()
    assert ShuffleProof.decode(data) == case5.proof
    assert ShuffleProof.decode(bytearray(data), 5) == case5.proof
    assert ShuffleProof.from_hex(case5.proof.hex()) == case5.proof
    assert ShuffleProof.from_hex(case5.proof.hex(), 5).hex() == case5.proof.hex()


def test_decode_rejects_every_bad_point_slot(case5: Case) -> None:
    data = case5.proof.encode()
    assert len(bad_point_encodings()) > 15
    for slot in range(2 * 5):
        for name, enc in bad_point_encodings():
            at = POINT_BYTES * slot
            bad = data[:at] + enc + data[at + POINT_BYTES :]
            with pytest.raises(DecodeError):
                ShuffleProof.decode(bad)
            assert name


def test_decode_rejects_every_bad_scalar_slot(case5: Case) -> None:
    data = case5.proof.encode()
    first = 2 * 5 * POINT_BYTES
    for slot in range(2 * 5 + 5):
        at = first + 32 * slot
        k = int.from_bytes(data[at : at + 32], "big")
        for bad_k in (0, L, k + L, 2**256 - 1):
            if bad_k >= 2**256:
                continue
            bad = data[:at] + bad_k.to_bytes(32, "big") + data[at + 32 :]
            with pytest.raises(DecodeError):
                ShuffleProof.decode(bad)


def test_decode_rejects_bad_lengths(case5: Case) -> None:
    data = case5.proof.encode()
    for bad in (b"", data[:-1], data + b"\0", data[:160], data[:-32], data + bytes(130)[:64]):
        with pytest.raises(DecodeError):
            ShuffleProof.decode(bad)
    with pytest.raises(DecodeError):
        ShuffleProof.decode(data, 4)
    with pytest.raises(DecodeError):
        ShuffleProof.decode(data, 0)
    with pytest.raises(DecodeError):
        ShuffleProof.decode(data + bytes(130), 5)
    with pytest.raises(DecodeError):
        ShuffleProof.decode("00" * 800)  # type: ignore[arg-type]
    for text in (case5.proof.hex().upper(), case5.proof.hex() + "0", "zz", " " + case5.proof.hex()):
        with pytest.raises(DecodeError):
            ShuffleProof.from_hex(text)


def test_extra_n_is_a_valid_proof_length_but_not_a_valid_proof(case5: Case) -> None:
    # 130 more bytes parse as a proof for n = 6 when every field is valid; it does not verify.
    bigger = make_case(6, "bigger").proof
    rejects(case5, proof=ShuffleProof.decode(bigger.encode()))


# --- the cost (SPEC 4.7.7): counted operations, not time ---------------------------------------


@pytest.mark.parametrize("n", [3, 8])
def test_operation_counts(n: int) -> None:
    case = make_case(n, "ops")
    # the steady state: H_1 + ... + H_n is computed once per n (whichever test came first),
    # and nothing is remembered of the check before (crypto/checked.py)
    verify_shuffle(case.key, case.inputs, case.outputs, case.proof, CONTEXT)
    CHECKED.clear()
    OPS.reset()
    verify_shuffle(case.key, case.inputs, case.outputs, case.proof, CONTEXT)
    # SPEC 4.7.7: the verifier multiplies by public scalars only (variable time) ...
    assert (OPS.mul, OPS.mul_ct, OPS.base_mul, OPS.add, OPS.validate) == (
        8 * n + 3,
        0,
        n + 4,
        9 * n + 3,
        0,
    )
    OPS.reset()
    prove_shuffle(case.key, case.inputs, case.outputs, case.witness, CONTEXT, make_rng("o"))
    # ... and the prover by secret ones only (constant time).
    assert (OPS.mul, OPS.mul_ct, OPS.base_mul, OPS.add, OPS.validate) == (
        0,
        5 * n + 1,
        3 * n + 4,
        6 * n,
        0,
    )
    OPS.reset()
    shuffle(case.key, case.inputs, make_rng("s"))
    assert (OPS.mul, OPS.mul_ct, OPS.base_mul, OPS.add) == (0, n, n, 2 * n)
    OPS.reset()
    ShuffleProof.decode(case.proof.encode())
    assert OPS.validate == 2 * n
