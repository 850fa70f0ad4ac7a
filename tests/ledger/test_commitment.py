"""Sealed choices (SPEC 6.13): the commitment's bytes, openings, and that every field binds."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pwillow.ledger.commitment import (
    COMMIT_TAG,
    CommitmentError,
    MalformedCommitment,
    OpeningMismatch,
    check_opening,
    commitment,
    commitment_input,
    make_commitment,
)
from tools.vectors.common import seeded_rng

GAME = bytes.fromhex("7f3a9c0e5b2d4418a6e1f0c3d2b59a77")
NONCE = bytes(range(32))
BASE: dict[str, Any] = {
    "game_id": GAME,
    "hand": 4,
    "seat": 2,
    "purpose": "declare",
    "choice": "low",
    "nonce": NONCE,
}


def _open(digest: bytes, **fields: Any) -> None:
    check_opening(digest, **fields)


def test_hash_input_is_the_spec_encoding() -> None:
    expected = (
        b"\x00\x00\x00\x13p2pwillow/v1/commit"
        + b"\x00\x00\x00\x10"
        + GAME
        + b"\x00\x00\x00\x04"
        + b"\x00\x00\x00\x02"
        + b"\x00\x00\x00\x07declare"
        + b"\x00\x00\x00\x03low"
        + NONCE
    )
    assert COMMIT_TAG == b"p2pwillow/v1/commit"
    assert commitment_input(**BASE) == expected
    assert commitment(**BASE) == hashlib.sha256(expected).digest()


def test_round_trip() -> None:
    digest, nonce = make_commitment(GAME, 4, 2, "declare", "both", seeded_rng("t/round"))
    assert len(digest) == 32 and len(nonce) == 32
    check_opening(digest, GAME, 4, 2, "declare", "both", nonce)


def test_nonce_comes_from_the_rng() -> None:
    drawn: list[int] = []

    def rng(n: int) -> bytes:
        drawn.append(n)
        return NONCE

    digest, nonce = make_commitment(GAME, 4, 2, "declare", "low", rng)
    assert drawn == [32]
    assert nonce == NONCE
    assert digest == commitment(**BASE)
    # the same rng stream gives the same commitment: nothing hidden is drawn
    assert make_commitment(GAME, 1, 0, "a", "b", seeded_rng("s")) == make_commitment(
        GAME, 1, 0, "a", "b", seeded_rng("s")
    )


def test_an_rng_that_returns_the_wrong_length_is_refused() -> None:
    with pytest.raises(MalformedCommitment, match="32 bytes"):
        make_commitment(GAME, 4, 2, "declare", "low", lambda n: bytes(n - 1))


CHANGES: list[tuple[str, Any]] = [
    ("choice", "high"),
    ("seat", 3),
    ("purpose", "declare/2"),
    ("hand", 5),
    ("game_id", GAME[:-1] + b"\x78"),
    ("nonce", NONCE[:-1] + b"\x20"),
]


@pytest.mark.parametrize(("field", "value"), CHANGES, ids=[c[0] for c in CHANGES])
def test_every_field_binds(field: str, value: Any) -> None:
    digest = commitment(**BASE)
    with pytest.raises(OpeningMismatch, match="the opening does not match the commitment"):
        _open(digest, **dict(BASE, **{field: value}))


def test_a_copied_commitment_does_not_open_with_the_rivals_opening() -> None:
    rival, nonce = make_commitment(GAME, 4, 2, "declare", "high", seeded_rng("t/rival"))
    # seat 3 publishes the rival's digest as its own, then opens it with the rival's opening
    with pytest.raises(OpeningMismatch) as info:
        check_opening(rival, GAME, 4, 3, "declare", "high", nonce)
    assert info.value.seat == 3 and info.value.purpose == "declare"
    assert str(info.value) == "seat 3, purpose declare: the opening does not match the commitment"


def test_a_changed_digest_fails() -> None:
    digest = bytearray(commitment(**BASE))
    digest[0] ^= 0x80
    with pytest.raises(OpeningMismatch):
        _open(bytes(digest), **BASE)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("nonce", bytes(31), "nonce must be 32 bytes, not 31"),
        ("nonce", bytes(33), "nonce must be 32 bytes, not 33"),
        ("nonce", "00" * 32, "nonce must be bytes"),
        ("choice", "Low", "choice must match"),
        ("choice", "", "choice must match"),
        ("choice", "x" * 64, "choice must match"),
        ("choice", "-low", "choice must match"),
        ("choice", "l\u00f3w", "choice must match"),
        ("purpose", "de clare", "purpose must match"),
        ("purpose", b"declare", "purpose must match"),
        ("game_id", b"", "game id must be 1..255 bytes"),
        ("game_id", bytes(256), "game id must be 1..255 bytes"),
        ("hand", 2**32, "hand number must be an integer"),
        ("hand", True, "hand number must be an integer"),
        ("seat", -1, "seat must be an integer"),
    ],
)
def test_fields_that_cannot_exist_are_named(field: str, value: Any, message: str) -> None:
    digest = commitment(**BASE)
    with pytest.raises(MalformedCommitment, match=message):
        _open(digest, **dict(BASE, **{field: value}))
    with pytest.raises(MalformedCommitment, match=message):
        commitment(**dict(BASE, **{field: value}))


def test_a_digest_of_the_wrong_length_is_malformed() -> None:
    with pytest.raises(MalformedCommitment, match="commitment must be 32 bytes, not 31"):
        _open(commitment(**BASE)[:31], **BASE)


def test_errors_are_value_errors() -> None:
    assert issubclass(CommitmentError, ValueError)
    assert issubclass(MalformedCommitment, CommitmentError)
    assert issubclass(OpeningMismatch, CommitmentError)


def test_labels_at_the_edges_are_accepted() -> None:
    for label in ("a", "0", "a" * 63, "pass/0", "0-2-4", "z/"):
        check_opening(commitment(**dict(BASE, choice=label)), **dict(BASE, choice=label))


# --- any change of any field fails ----------------------------------------------------------

labels = st.from_regex(r"[a-z0-9][a-z0-9/-]{0,62}", fullmatch=True)
openings = st.fixed_dictionaries(
    {
        "game_id": st.binary(min_size=1, max_size=255),
        "hand": st.integers(0, 2**32 - 1),
        "seat": st.integers(0, 2**32 - 1),
        "purpose": labels,
        "choice": labels,
        "nonce": st.binary(min_size=32, max_size=32),
    }
)


@given(openings, openings, st.sets(st.sampled_from(sorted(BASE)), min_size=1))
def test_any_change_of_any_field_fails(
    made: dict[str, Any], other: dict[str, Any], changed: set[str]
) -> None:
    digest = commitment(**made)
    check_opening(digest, **made)
    offered = dict(made, **{k: other[k] for k in changed})
    if offered == made:
        return
    with pytest.raises(OpeningMismatch):
        check_opening(digest, **offered)
