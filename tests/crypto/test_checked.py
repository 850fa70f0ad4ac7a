"""The checks a process remembers (crypto/checked.py): a check that passed is not done again
for the same bytes, and only for the same bytes: a statement, proof, context or signature
that differs anywhere is checked in full and rejected after its valid twin was remembered. A
check that failed is never remembered; the table is bounded; the benchmarks turn it off."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from test_shuffle import CONTEXT, make_case

from p2pwillow.crypto import InvalidProof
from p2pwillow.crypto.checked import CHECKED, LIVE_CAPACITY, Checked, digest
from p2pwillow.crypto.elgamal import Ciphertext
from p2pwillow.crypto.group import OPS, G
from p2pwillow.crypto.proofs import (
    DleqBatchProof,
    prove_dleq_batch,
    prove_key,
    verify_dleq_batch,
    verify_key,
)
from p2pwillow.crypto.shuffle import ShuffleProof, verify_shuffle
from p2pwillow.ledger.identity import Identity, verify_signature
from tools.vectors.common import seeded_rng, seeded_scalar

CTX = b"game 1/hand 2/seat 3"


def test_a_shuffle_checked_once_is_not_checked_again_and_a_changed_one_is() -> None:
    case = make_case(5, "remembered")
    verify_shuffle(case.key, case.inputs, case.outputs, case.proof, CONTEXT)
    assert len(CHECKED) == 1
    OPS.reset()
    verify_shuffle(case.key, case.inputs, case.outputs, case.proof, CONTEXT)
    assert OPS.mul == OPS.base_mul == 0, "the same bytes: remembered"
    # the same outputs in another order, a re-encrypted output, another key, another context,
    # a proof with one field changed: each checked in full, each rejected
    swapped = (case.outputs[1], case.outputs[0], *case.outputs[2:])
    c = case.outputs[0]
    moved = (Ciphertext(c.c1 + G, c.c2 + G), *case.outputs[1:])
    tampered = ShuffleProof.decode(case.proof.encode()[:-1] + bytes([case.proof.encode()[-1] ^ 1]))
    changes: list[tuple[object, ...]] = [
        (case.key, case.inputs, swapped, case.proof, CONTEXT),
        (case.key, case.inputs, moved, case.proof, CONTEXT),
        (case.key + G, case.inputs, case.outputs, case.proof, CONTEXT),
        (case.key, case.inputs, case.outputs, case.proof, CONTEXT + b"!"),
        (case.key, case.outputs, case.inputs, case.proof, CONTEXT),
        (case.key, case.inputs, case.outputs, tampered, CONTEXT),
    ]
    for args in changes:
        OPS.reset()
        with pytest.raises(InvalidProof):
            verify_shuffle(*args)  # type: ignore[arg-type]
        assert OPS.mul > 0, "checked in full"
    assert len(CHECKED) == 1, "a check that failed is never remembered"


def test_a_batched_proof_and_a_key_proof_are_remembered_by_every_part() -> None:
    x = seeded_scalar("batch")
    y = G.mul_public(x)
    bases = [G.mul_public(seeded_scalar(f"b/{i}")) for i in range(4)]
    shares = [b.mul_public(x) for b in bases]
    proof = prove_dleq_batch(x, bases, CTX, seeded_rng("n"))
    verify_dleq_batch(y, bases, shares, proof, CTX)
    key_proof = prove_key(x, CTX, seeded_rng("k"))
    verify_key(y, key_proof, CTX)
    assert len(CHECKED) == 2
    with pytest.raises(InvalidProof):
        verify_dleq_batch(y, bases, [*shares[:3], shares[3] + G], proof, CTX)
    with pytest.raises(InvalidProof):
        verify_dleq_batch(y, bases[:3], shares[:3], proof, CTX)
    with pytest.raises(InvalidProof):
        changed = DleqBatchProof(proof.challenge, proof.response + 1)
        verify_dleq_batch(y, bases, shares, changed, CTX)
    with pytest.raises(InvalidProof):
        verify_key(y + G, key_proof, CTX)
    # the key proof's bytes under the batch's name are another check: names are bound
    with pytest.raises(InvalidProof):
        verify_key(y, type(key_proof)(proof.challenge, proof.response), CTX)
    assert len(CHECKED) == 2


def test_a_signature_is_remembered_only_for_its_key_message_and_signature() -> None:
    ann, bob = Identity.generate(seeded_rng("ann")), Identity.generate(seeded_rng("bob"))
    message = b"an entry"
    signature = ann.sign(message)
    assert verify_signature(ann.public_key, message, signature)
    assert len(CHECKED) == 1
    assert verify_signature(ann.public_key, message, signature)
    assert not verify_signature(bob.public_key, message, signature)
    assert not verify_signature(ann.public_key, message + b"!", signature)
    assert not verify_signature(ann.public_key, message, signature[:-1] + b"\x00")
    assert len(CHECKED) == 1


def test_the_parts_are_length_prefixed() -> None:
    assert digest(b"x", b"ab", b"c") != digest(b"x", b"a", b"bc")
    assert digest(b"x", b"a") != digest(b"xa")
    assert digest(b"x", [G, G]) != digest(b"x", [G], [G])


def test_the_table_is_bounded_and_can_be_turned_off() -> None:
    table = Checked(capacity=3)
    keys = [digest(b"k", bytes([i])) for i in range(4)]
    for key in keys[:3]:
        table.add(key)
    assert keys[0] in table  # used: kept over keys[1]
    table.add(keys[3])
    assert len(table) == 3
    assert keys[1] not in table and keys[0] in table and keys[3] in table
    table.enabled = False
    assert keys[0] not in table
    table.add(keys[1])
    table.enabled = True
    assert keys[1] not in table


def test_the_benchmarks_check_in_full() -> None:
    """Importing the bench package turns the table off (in a process of its own: the suite's
    workers keep it on)."""
    code = "import bench; from p2pwillow.crypto.checked import CHECKED; print(CHECKED.enabled)"
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False"


def test_a_live_peer_keeps_a_small_table() -> None:
    """A live command (host, join, bot, play) runs with LIVE_CAPACITY digests: it checks each
    entry once, so a bigger table would only grow its memory (SPEC 8.4, flat memory). In a
    process of its own: `_live` sets the process's table."""
    code = (
        "import asyncio\n"
        "from p2pwillow import cli\n"
        "from p2pwillow.crypto.checked import CHECKED\n"
        "async def run() -> int:\n"
        "    print(CHECKED.capacity)\n"
        "    return 0\n"
        "raise SystemExit(cli._live('bot', run))\n"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert int(out.stdout) == LIVE_CAPACITY < CHECKED.capacity
    table = Checked(capacity=LIVE_CAPACITY)
    for i in range(3 * LIVE_CAPACITY):
        table.add(digest(b"k", i.to_bytes(4, "big")))
    assert len(table) == LIVE_CAPACITY
