"""Sealed choices by commit-reveal: a hash commitment to a short label (SPEC 6.13).

A player seals a choice (a declaration of low, high or both, an option, a pass) by publishing

    C = SHA-256( lp("p2pwillow/v1/commit") || lp(game_id) || u32be(hand) || u32be(seat)
                 || lp(purpose) || lp(choice) || nonce )

with `lp(x) = u32be(len(x)) || x` and `nonce` 32 random bytes, and later opens it by publishing
`choice` and `nonce`; anyone recomputes C. Pure: no I/O and no hidden randomness (the nonce
comes from an rng passed in, as everywhere in the core).

Why a hash suffices. Binding: to open C as two different choices a player would need two
different hash inputs with the same SHA-256 digest, a collision. Hiding: before the opening,
C depends on 256 bits the others have never seen, so (SHA-256 taken as a random oracle) it
says nothing about the choice, even though there are only a few choices to try. A perfectly
hiding (Pedersen) commitment brings nothing for a choice among a handful of labels.

Why the seat, the purpose, the hand and the game are in the hash. Without them a player could
copy a rival's commitment as its own, wait for the rival to open, and open the copy with the
rival's choice and nonce: a choice it never made, chosen after seeing the rival's. With the
seat in the hash, the rival's opening opens only the rival's commitment; with the purpose, the
hand and the game, a commitment (or an opening) made for one decision opens no other one.
Every field is length-prefixed or of fixed length, so no two distinct field lists give the same
hash input.
"""

from __future__ import annotations

import hashlib
import hmac
import re

from p2pwillow.crypto.group import Rng
from p2pwillow.limits import is_int

COMMIT_TAG = b"p2pwillow/v1/commit"
NONCE_TAG = b"p2pwillow/v1/commit-nonce"
DECLARE = "declare"
"""The purpose of a split-pot game's declaration (SPEC 3.16)."""
NONCE_BYTES = 32
DIGEST_BYTES = 32
MAX_GAME_ID = 255

LABEL = re.compile(r"[a-z0-9][a-z0-9/-]{0,62}\Z")
"""The grammar of purposes and choices: the step labels' grammar of SPEC 5.1 (1..63 ASCII)."""

_U32 = 2**32


class CommitmentError(ValueError):
    """A sealed choice is wrong: a field that cannot exist, or an opening that does not match.

    `seat` and `purpose` say whose and which commitment (None when unknown); `reason` why.
    """

    def __init__(self, reason: str, *, seat: int | None = None, purpose: str | None = None):
        self.reason = reason
        self.seat = seat
        self.purpose = purpose
        where = []
        if seat is not None:
            where.append(f"seat {seat}")
        if purpose is not None:
            where.append(f"purpose {purpose}")
        super().__init__(f"{', '.join(where)}: {reason}" if where else reason)


class MalformedCommitment(CommitmentError):
    """A field that no commitment or opening can have: a nonce that is not 32 bytes, a label
    outside the grammar, a game id, hand or seat out of range, a digest that is not 32 bytes."""


class OpeningMismatch(CommitmentError):
    """Every field is well formed, but the opening does not match the commitment."""


def _lp(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


def _u32(value: object, what: str) -> int:
    if not is_int(value) or not 0 <= value < _U32:
        raise MalformedCommitment(f"{what} must be an integer 0..2^32-1, not {value!r}")
    return value


def _label(value: object, what: str) -> bytes:
    if not isinstance(value, str) or not LABEL.match(value):
        raise MalformedCommitment(f"{what} must match [a-z0-9][a-z0-9/-]{{0,62}}, not {value!r}")
    return value.encode("ascii")


def _bytes(value: object, what: str, sizes: range) -> bytes:
    if not isinstance(value, bytes):
        raise MalformedCommitment(f"{what} must be bytes, not {type(value).__name__}")
    if len(value) not in sizes:
        want = str(sizes.start) if len(sizes) == 1 else f"{sizes.start}..{sizes.stop - 1}"
        raise MalformedCommitment(f"{what} must be {want} bytes, not {len(value)}")
    return value


def commitment_input(
    game_id: bytes, hand: int, seat: int, purpose: str, choice: str, nonce: bytes
) -> bytes:
    """The exact bytes hashed into the commitment (SPEC 6.13), after checking every field."""
    return (
        _lp(COMMIT_TAG)
        + _lp(_bytes(game_id, "game id", range(1, MAX_GAME_ID + 1)))
        + _u32(hand, "hand number").to_bytes(4, "big")
        + _u32(seat, "seat").to_bytes(4, "big")
        + _lp(_label(purpose, "purpose"))
        + _lp(_label(choice, "choice"))
        + _bytes(nonce, "nonce", range(NONCE_BYTES, NONCE_BYTES + 1))
    )


def commitment(
    game_id: bytes, hand: int, seat: int, purpose: str, choice: str, nonce: bytes
) -> bytes:
    """The 32-byte commitment of `seat` to `choice` for `purpose` in this game and hand."""
    return hashlib.sha256(commitment_input(game_id, hand, seat, purpose, choice, nonce)).digest()


def make_commitment(
    game_id: bytes, hand: int, seat: int, purpose: str, choice: str, rng: Rng
) -> tuple[bytes, bytes]:
    """(digest, nonce): a new commitment, its nonce the next 32 bytes of `rng`.

    The nonce must stay secret until the opening; publishing the digest alone reveals nothing.
    """
    nonce = rng(NONCE_BYTES)
    if not isinstance(nonce, bytes) or len(nonce) != NONCE_BYTES:
        raise MalformedCommitment(f"the rng must return {NONCE_BYTES} bytes")
    return commitment(game_id, hand, seat, purpose, choice, nonce), nonce


def nonce_from(secret: bytes, game_id: bytes, hand: int, seat: int, purpose: str) -> bytes:
    """A nonce derived from a secret only its player holds (its hand secret): as unpredictable
    to the others as a random one, and found again after a restart without being stored
    (SPEC 6.13 leaves a nonce's making to its player; this is how p2pwillow makes it)."""
    return hashlib.sha256(
        _lp(NONCE_TAG)
        + _lp(_bytes(secret, "secret", range(1, 65)))
        + _lp(_bytes(game_id, "game id", range(1, MAX_GAME_ID + 1)))
        + _u32(hand, "hand number").to_bytes(4, "big")
        + _u32(seat, "seat").to_bytes(4, "big")
        + _lp(_label(purpose, "purpose"))
    ).digest()


def check_opening(
    digest: bytes,
    game_id: bytes,
    hand: int,
    seat: int,
    purpose: str,
    choice: str,
    nonce: bytes,
) -> None:
    """Return if (choice, nonce) opens `digest` for this game, hand, seat and purpose.

    Raises MalformedCommitment for a field that cannot exist and OpeningMismatch otherwise.
    """
    who = seat if is_int(seat) else None
    what = purpose if isinstance(purpose, str) and LABEL.match(purpose) else None
    try:
        _bytes(digest, "commitment", range(DIGEST_BYTES, DIGEST_BYTES + 1))
        expected = commitment(game_id, hand, seat, purpose, choice, nonce)
    except MalformedCommitment as exc:
        raise MalformedCommitment(exc.reason, seat=who, purpose=what) from None
    if not hmac.compare_digest(expected, digest):
        raise OpeningMismatch("the opening does not match the commitment", seat=who, purpose=what)
