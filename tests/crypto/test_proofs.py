"""The sigma proofs (SPEC 4.3-4.6): honest proofs verify, anything tampered is rejected."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pwillow.crypto import DecodeError, InvalidProof
from p2pwillow.crypto.elgamal import Ciphertext, encrypt_with, reencrypt_to
from p2pwillow.crypto.group import IDENTITY, OPS, G, L, Point, card_point, sum_points
from p2pwillow.crypto.proofs import (
    DleqBatchProof,
    DleqProof,
    FiatShamir,
    KeyProof,
    ReencryptionProof,
    prove_dleq,
    prove_dleq_batch,
    prove_key,
    prove_reencryption,
    verify_dleq,
    verify_dleq_batch,
    verify_key,
    verify_reencryption,
)
from tools.vectors.common import fixed_rng, seeded_rng, seeded_scalar

CTX = b"game 1/hand 2/seat 3"
seeds = st.text(min_size=1, max_size=8)
FEW = settings(max_examples=8, deadline=None)

ProofT = KeyProof | DleqProof | DleqBatchProof | ReencryptionProof


def _tampered(proof: ProofT) -> list[ProofT]:
    """Every scalar of the proof changed by +1, and by negation."""
    values = [getattr(proof, f) for f in proof.__dataclass_fields__]
    out: list[ProofT] = []
    for i in range(len(values)):
        for k in ((values[i] + 1) % L or 1, L - values[i]):
            changed = [*values[:i], k, *values[i + 1 :]]
            out.append(type(proof)(*changed))
    return out


def _rejects(check: Callable[..., None], *args: Any) -> None:
    with pytest.raises(InvalidProof):
        check(*args)


# --- Fiat-Shamir -----------------------------------------------------------------------------


def test_transcript_binds_domain_context_labels_and_data() -> None:
    def challenge(domain: bytes, context: bytes, label: bytes, data: bytes) -> int:
        fs = FiatShamir(domain, context)
        fs.append(label, data)
        return fs.challenge(b"c")

    base = challenge(b"d", b"ctx", b"x", b"data")
    assert base == challenge(b"d", b"ctx", b"x", b"data")
    assert 0 < base < L
    variants = [
        (b"e", b"ctx", b"x", b"data"),
        (b"d", b"ctx2", b"x", b"data"),
        (b"d", b"ctx", b"y", b"data"),
        (b"d", b"ctx", b"x", b"datb"),
        (b"dc", b"tx", b"x", b"data"),
        (b"d", b"ctxx", b"", b"data"),
    ]
    assert len({challenge(*v) for v in variants} | {base}) == len(variants) + 1


def test_transcript_challenges_chain_and_copy_forks() -> None:
    fs = FiatShamir(b"d", b"")
    fork = fs.copy()
    a, b = fs.challenge(b"c"), fs.challenge(b"c")
    assert a != b
    assert fork.challenge(b"c") == a
    many = FiatShamir(b"d", b"").challenges(b"w", 4)
    assert len(set(many)) == 4 and many[0] != a


# --- Schnorr ---------------------------------------------------------------------------------


@given(seeds)
@FEW
def test_key_proof_verifies_and_round_trips(seed: str) -> None:
    x = seeded_scalar(seed)
    proof = prove_key(x, CTX, seeded_rng(seed + "/nonce"))
    verify_key(G.mul_public(x), proof, CTX)
    assert KeyProof.decode(proof.encode()) == proof == KeyProof.from_hex(proof.hex())
    assert len(proof.encode()) == 64


def test_key_proof_rejections() -> None:
    x = seeded_scalar("key")
    y = G.mul_public(x)
    proof = prove_key(x, CTX, seeded_rng("n"))
    # the valid check is remembered (crypto/checked.py): every change below is checked in full
    verify_key(y, proof, CTX)
    for bad in _tampered(proof):
        _rejects(verify_key, y, bad, CTX)
    _rejects(verify_key, y, proof, CTX + b"!")
    _rejects(verify_key, y, proof, b"")
    _rejects(verify_key, G.mul_public(x + 1), proof, CTX)
    _rejects(verify_key, -y, proof, CTX)
    _rejects(verify_key, IDENTITY, proof, CTX)
    _rejects(verify_key, y, KeyProof(proof.response, proof.challenge), CTX)
    _rejects(verify_key, y, KeyProof(0, proof.response), CTX)
    _rejects(verify_key, y, KeyProof(proof.challenge, proof.response + L), CTX)
    _rejects(verify_key, y, DleqProof(proof.challenge, proof.response), CTX)
    _rejects(verify_key, y.encoding, proof, CTX)
    _rejects(verify_key, y, proof, CTX.decode())


def test_key_prover_rejects_bad_secrets() -> None:
    for bad in (0, L, -3):
        with pytest.raises(ValueError):
            prove_key(bad, CTX)


# --- DLEQ ------------------------------------------------------------------------------------


@given(seeds)
@FEW
def test_dleq_proof_verifies_and_round_trips(seed: str) -> None:
    x, base = seeded_scalar(seed), G.mul_public(seeded_scalar(seed + "/base"))
    proof = prove_dleq(x, base, CTX, seeded_rng(seed + "/nonce"))
    verify_dleq(G.mul_public(x), base, base.mul_public(x), proof, CTX)
    assert DleqProof.decode(proof.encode()) == proof == DleqProof.from_hex(proof.hex())


def test_dleq_rejections() -> None:
    x = seeded_scalar("dleq")
    base, other = card_point(7), card_point(8)
    y, share = G.mul_public(x), base.mul_public(x)
    proof = prove_dleq(x, base, CTX, seeded_rng("n"))
    verify_dleq(y, base, share, proof, CTX)
    for bad in _tampered(proof):
        _rejects(verify_dleq, y, base, share, bad, CTX)
    _rejects(verify_dleq, y, base, share, proof, CTX + b"\x00")
    _rejects(verify_dleq, G.mul_public(x + 1), base, share, proof, CTX)  # wrong key
    _rejects(verify_dleq, y, base, share + G, proof, CTX)  # wrong share
    _rejects(verify_dleq, y, base, base.mul_public(x + 1), proof, CTX)
    _rejects(verify_dleq, y, other, share, proof, CTX)  # wrong base
    _rejects(verify_dleq, share, base, y, proof, CTX)  # swapped key and share
    _rejects(verify_dleq, y, share, base, proof, CTX)  # swapped base and share
    _rejects(verify_dleq, share, G, y, proof, CTX)  # G and base exchanged
    _rejects(verify_dleq, y, IDENTITY, IDENTITY, proof, CTX)
    _rejects(verify_dleq, y, base, share, DleqBatchProof(proof.challenge, proof.response), CTX)
    # A true statement with a proof for another statement.
    other_proof = prove_dleq(x, other, CTX, seeded_rng("n"))
    _rejects(verify_dleq, y, base, share, other_proof, CTX)


def test_dleq_prover_rejects_bad_input() -> None:
    with pytest.raises(ValueError):
        prove_dleq(5, IDENTITY, CTX)
    with pytest.raises(ValueError):
        prove_dleq(0, G, CTX)


# --- batched DLEQ ----------------------------------------------------------------------------


def _batch(seed: str, n: int) -> tuple[int, list[Point], list[Point]]:
    x = seeded_scalar(seed)
    bases = [G.mul_public(seeded_scalar(f"{seed}/{i}")) for i in range(n)]
    return x, bases, [b.mul_public(x) for b in bases]


@given(seeds, st.integers(min_value=1, max_value=6))
@FEW
def test_batch_proof_verifies_and_round_trips(seed: str, n: int) -> None:
    x, bases, shares = _batch(seed, n)
    proof = prove_dleq_batch(x, bases, CTX, seeded_rng(seed + "/nonce"))
    verify_dleq_batch(G.mul_public(x), bases, shares, proof, CTX)
    verify_dleq_batch(G.mul_public(x), tuple(bases), tuple(shares), proof, CTX)
    assert DleqBatchProof.decode(proof.encode()) == proof == DleqBatchProof.from_hex(proof.hex())


def test_batch_rejections() -> None:
    x, bases, shares = _batch("batch", 5)
    y = G.mul_public(x)
    proof = prove_dleq_batch(x, bases, CTX, seeded_rng("n"))
    verify_dleq_batch(y, bases, shares, proof, CTX)  # remembered, as above
    for bad in _tampered(proof):
        _rejects(verify_dleq_batch, y, bases, shares, bad, CTX)
    _rejects(verify_dleq_batch, y, bases, shares, proof, CTX + b"x")
    _rejects(verify_dleq_batch, G.mul_public(x + 1), bases, shares, proof, CTX)
    for i in range(5):
        wrong = list(shares)
        wrong[i] = wrong[i] + G
        _rejects(verify_dleq_batch, y, bases, wrong, proof, CTX)
        wrong_base = list(bases)
        wrong_base[i] = wrong_base[i] + G
        _rejects(verify_dleq_batch, y, wrong_base, shares, proof, CTX)
    swapped = [shares[1], shares[0], *shares[2:]]
    _rejects(verify_dleq_batch, y, bases, swapped, proof, CTX)
    _rejects(verify_dleq_batch, y, bases[::-1], shares[::-1], proof, CTX)
    _rejects(verify_dleq_batch, y, shares, bases, proof, CTX)
    _rejects(verify_dleq_batch, y, bases, shares[:-1], proof, CTX)
    _rejects(verify_dleq_batch, y, bases[:-1], shares[:-1], proof, CTX)
    _rejects(verify_dleq_batch, y, [], [], proof, CTX)
    _rejects(verify_dleq_batch, y, bases, [*shares[:-1], IDENTITY], proof, CTX)
    _rejects(verify_dleq_batch, y, 5, shares, proof, CTX)
    _rejects(verify_dleq_batch, y, bases, shares, DleqProof(proof.challenge, proof.response), CTX)


def _spec_batch_proof(
    x: int, bases: list[Point], shares: list[Point], context: bytes, k: int, naive: bool = False
) -> DleqBatchProof:
    """SPEC 4.5.2's prover, written out, over any claimed shares (a cheating prover); `naive`
    replaces the weights by 1, as a verifier without weights would compute them."""
    fs = FiatShamir(b"dleq-batch", context)
    fs.append_point(b"G", G)
    fs.append_point(b"public", G.mul_public(x))
    fs.append_points(b"bases", bases)
    fs.append_points(b"shares", shares)
    weights = [1, *fs.challenges(b"weight", len(bases) - 1)]
    if naive:
        weights = [1] * len(bases)
    combined = sum_points([b.mul_public(z) for b, z in zip(bases, weights, strict=True)])
    fs.append_point(b"commitment-G", G.mul_public(k))
    fs.append_point(b"commitment-base", combined.mul_public(k))
    c = fs.challenge(b"challenge")
    return DleqBatchProof(c, (k + c * x) % L)


def test_batch_prover_follows_the_spec() -> None:
    x, bases, shares = _batch("spec", 4)
    k = seeded_scalar("spec/k")
    expected = _spec_batch_proof(x, bases, shares, CTX, k)
    assert prove_dleq_batch(x, bases, CTX, fixed_rng(k)) == expected


def test_batch_errors_that_cancel_are_caught() -> None:
    # Shares wrong by +E and -E cancel in an unweighted sum; a prover who knows x can then make
    # a proof for the sums. The transcript-derived weights must stop it.
    x, bases, shares = _batch("cancel", 3)
    y = G.mul_public(x)
    e = card_point(1)
    for forged in (
        [shares[0] + e, shares[1] - e, shares[2]],
        [shares[0], shares[1] + e, shares[2] - e],
    ):
        assert sum_points(forged) == sum_points(shares)
        for naive in (False, True):
            proof = _spec_batch_proof(x, bases, forged, CTX, seeded_scalar("k"), naive)
            _rejects(verify_dleq_batch, y, bases, forged, proof, CTX)


def test_batch_and_single_proofs_are_domain_separated() -> None:
    x, bases, shares = _batch("sep", 1)
    single = prove_dleq(x, bases[0], CTX, seeded_rng("n"))
    batch = prove_dleq_batch(x, bases, CTX, seeded_rng("n"))
    _rejects(
        verify_dleq_batch, G.mul_public(x), bases, shares, DleqBatchProof(*_fields(single)), CTX
    )
    _rejects(verify_dleq, G.mul_public(x), bases[0], shares[0], DleqProof(*_fields(batch)), CTX)


def _fields(proof: DleqProof | DleqBatchProof) -> tuple[int, int]:
    return proof.challenge, proof.response


def test_batch_verification_is_cheaper_than_single_proofs() -> None:
    n = 9
    x, bases, shares = _batch("cost", n)
    y = G.mul_public(x)
    batch = prove_dleq_batch(x, bases, CTX, seeded_rng("n"))
    singles = [prove_dleq(x, b, CTX, seeded_rng(f"n{i}")) for i, b in enumerate(bases)]
    before = OPS.snapshot()
    verify_dleq_batch(y, bases, shares, batch, CTX)
    mid = OPS.snapshot()
    for b, s, p in zip(bases, shares, singles, strict=True):
        verify_dleq(y, b, s, p, CTX)
    after = OPS.snapshot()
    batch_cost = (mid[0] - before[0], mid[2] - before[2])  # (variable-time, of G)
    single_cost = (after[0] - mid[0], after[2] - mid[2])
    assert mid[1] == before[1] and after[1] == mid[1]  # verifiers never use mul_secret
    assert batch_cost == (2 * n + 1, 1)  # SPEC 4.5.2
    assert single_cost == (3 * n, n)


def test_batch_prover_rejects_bad_input() -> None:
    with pytest.raises(ValueError):
        prove_dleq_batch(5, [], CTX)
    with pytest.raises(ValueError):
        prove_dleq_batch(5, [G, IDENTITY], CTX)


def test_batch_prover_with_precomputed_shares() -> None:
    x, bases, shares = _batch("precomputed", 4)
    same = prove_dleq_batch(x, bases, CTX, seeded_rng("p"), shares=shares)
    assert same == prove_dleq_batch(x, bases, CTX, seeded_rng("p"))
    verify_dleq_batch(G.mul_public(x), bases, shares, same, CTX)
    wrong = [*shares[:-1], shares[-1] + G]
    bad = prove_dleq_batch(x, bases, CTX, seeded_rng("p"), shares=wrong)
    for claimed in (shares, wrong):
        with pytest.raises(InvalidProof):
            verify_dleq_batch(G.mul_public(x), bases, claimed, bad, CTX)
    with pytest.raises(ValueError):
        prove_dleq_batch(x, bases, CTX, shares=shares[:-1])


# --- re-encryption ---------------------------------------------------------------------------


def _reencryption(seed: str, card: int) -> tuple[int, int, Point, Point, Ciphertext, Ciphertext]:
    xa, xb, r = (seeded_scalar(f"{seed}/{w}") for w in ("a", "b", "r"))
    key_a, key_b = G.mul_public(xa), G.mul_public(xb)
    before = encrypt_with(card_point(card), key_a, seeded_scalar(f"{seed}/r0"))
    return xa, r, key_a, key_b, before, reencrypt_to(before, xa, key_b, r)


@given(seeds, st.integers(min_value=0, max_value=51))
@FEW
def test_reencryption_proof_verifies_and_round_trips(seed: str, card: int) -> None:
    xa, r, key_a, key_b, before, after = _reencryption(seed, card)
    proof = prove_reencryption(xa, r, key_b, before, after, CTX, seeded_rng(seed + "/n"))
    verify_reencryption(key_a, key_b, before, after, proof, CTX)
    assert len(proof.encode()) == 96
    assert ReencryptionProof.decode(proof.encode()) == proof
    assert ReencryptionProof.from_hex(proof.hex()) == proof


def test_reencryption_rejections() -> None:
    xa, r, key_a, key_b, before, after = _reencryption("re", 17)
    proof = prove_reencryption(xa, r, key_b, before, after, CTX, seeded_rng("n"))
    verify_reencryption(key_a, key_b, before, after, proof, CTX)
    for bad in _tampered(proof):
        _rejects(verify_reencryption, key_a, key_b, before, after, bad, CTX)
    _rejects(verify_reencryption, key_a, key_b, before, after, proof, CTX[:-1])
    _rejects(verify_reencryption, key_a + G, key_b, before, after, proof, CTX)
    _rejects(verify_reencryption, key_a, key_b + G, before, after, proof, CTX)
    _rejects(verify_reencryption, key_b, key_a, before, after, proof, CTX)
    _rejects(verify_reencryption, key_a, key_b, after, before, proof, CTX)
    shift = card_point(18) - card_point(17)
    for changed in (
        Ciphertext(after.c1, after.c2 + shift),
        Ciphertext(after.c1 + G, after.c2),
        Ciphertext(after.c2, after.c1),
    ):
        _rejects(verify_reencryption, key_a, key_b, before, changed, proof, CTX)
    for changed in (Ciphertext(before.c1 + G, before.c2), Ciphertext(before.c1, before.c2 + G)):
        _rejects(verify_reencryption, key_a, key_b, changed, after, proof, CTX)
    _rejects(verify_reencryption, key_a, IDENTITY, before, after, proof, CTX)
    _rejects(verify_reencryption, key_a, key_b, before, Ciphertext(IDENTITY, after.c2), proof, CTX)
    _rejects(verify_reencryption, key_a, key_b, before.encode(), after, proof, CTX)
    _rejects(verify_reencryption, key_a, key_b, before, after, KeyProof(1, 2), CTX)


def test_reencryption_of_another_card_cannot_be_proven() -> None:
    xa, r, key_a, key_b, before, after = _reencryption("lie", 17)
    lie = Ciphertext(after.c1, after.c2 + card_point(50) - card_point(17))
    proof = prove_reencryption(xa, r, key_b, before, lie, CTX, seeded_rng("n"))
    _rejects(verify_reencryption, key_a, key_b, before, lie, proof, CTX)


def test_reencryption_prover_rejects_bad_input() -> None:
    xa, r, _, key_b, before, after = _reencryption("bad", 1)
    with pytest.raises(ValueError):
        prove_reencryption(0, r, key_b, before, after, CTX)
    with pytest.raises(ValueError):
        prove_reencryption(xa, L, key_b, before, after, CTX)
    with pytest.raises(ValueError):
        prove_reencryption(xa, r, IDENTITY, before, after, CTX)


# --- decoding --------------------------------------------------------------------------------

PROOF_TYPES: list[tuple[type[ProofT], int]] = [
    (KeyProof, 2),
    (DleqProof, 2),
    (DleqBatchProof, 2),
    (ReencryptionProof, 3),
]


@pytest.mark.parametrize(("cls", "count"), PROOF_TYPES, ids=lambda v: getattr(v, "__name__", ""))
def test_decoders_reject_malformed_input(cls: type[ProofT], count: int) -> None:
    good = [(5 + i).to_bytes(32, "big") for i in range(count)]
    assert cls.decode(b"".join(good)).encode() == b"".join(good)
    bad_inputs: list[object] = [b"", b"".join(good)[:-1], b"".join(good) + b"\x00", "00" * 64]
    for i in range(count):
        for k in (0, L, L + 5, 2**256 - 1):
            bad_inputs.append(b"".join([*good[:i], k.to_bytes(32, "big"), *good[i + 1 :]]))
    for data in bad_inputs:
        with pytest.raises(DecodeError):
            cls.decode(data)  # type: ignore[arg-type]
    hex_text = b"".join(good).hex()
    for text in (hex_text[:-1], "0x" + hex_text[2:], hex_text.replace("5", "g"), " " + hex_text):
        with pytest.raises(DecodeError):
            cls.from_hex(text)
    with pytest.raises(DecodeError):
        cls.from_hex(None)  # type: ignore[arg-type]
