"""Vectors for sealed choices: the commitment's hash input and digest, and openings that fail.

Generates and checks protocol/vectors/commitment.json (SPEC 6.13); no I/O.
"""

from __future__ import annotations

from p2pwillow.ledger.commitment import (
    COMMIT_TAG,
    MalformedCommitment,
    OpeningMismatch,
    check_opening,
    commitment,
    commitment_input,
    make_commitment,
)
from tools.vectors.common import Json, case, document, flip_bit, seeded_rng

FILE_NAME = "commitment.json"
ERRORS: dict[str, type[Exception]] = {
    "MalformedCommitment": MalformedCommitment,
    "OpeningMismatch": OpeningMismatch,
}

NOTES = {
    "Valid": "A commitment with its exact hash input; the opening (choice, nonce) matches it.",
    "EdgeLength": "A field at the edge of its range: a 1- or 255-byte game id, hand or seat 0 "
    "or 2^32-1, a 1- or 63-character label, a nonce of all zeros or all ones.",
    "WrongChoice": "The opening names another choice: it does not match (OpeningMismatch).",
    "WrongSeat": "Opened for another seat, as a player who copied a rival's commitment would: "
    "it does not match (OpeningMismatch).",
    "WrongPurpose": "Opened for another purpose: it does not match (OpeningMismatch).",
    "WrongHand": "Opened in another hand: it does not match (OpeningMismatch).",
    "WrongGame": "Opened in another game: it does not match (OpeningMismatch).",
    "WrongNonce": "A nonce of the right length with one bit changed (OpeningMismatch).",
    "SwappedLabels": "Purpose and choice exchanged: it does not match (OpeningMismatch).",
    "WrongCommitment": "The commitment itself changed in one bit (OpeningMismatch).",
    "NonceLength": "A nonce that is not 32 bytes: no opening can have it (MalformedCommitment).",
    "BadLabel": "A purpose or choice outside [a-z0-9][a-z0-9/-]{0,62} (MalformedCommitment).",
    "BadField": "A game id, hand, seat or commitment out of its range or of the wrong length "
    "(MalformedCommitment).",
}

GAME = bytes.fromhex("7f3a9c0e5b2d4418a6e1f0c3d2b59a77")


def _fields(game_id: bytes, hand: int, seat: int, purpose: str, choice: str) -> Json:
    return {
        "gameId": game_id.hex(),
        "hand": hand,
        "seat": seat,
        "purpose": purpose,
        "choice": choice,
    }


def _valid(
    comment: str,
    flags: list[str],
    game_id: bytes,
    hand: int,
    seat: int,
    purpose: str,
    choice: str,
    nonce: bytes | None = None,
) -> Json:
    if nonce is None:
        digest, nonce = make_commitment(
            game_id, hand, seat, purpose, choice, seeded_rng(f"commitment/{comment}")
        )
    else:
        digest = commitment(game_id, hand, seat, purpose, choice, nonce)
    return case(
        comment,
        "valid",
        flags,
        **_fields(game_id, hand, seat, purpose, choice),
        nonce=nonce.hex(),
        input=commitment_input(game_id, hand, seat, purpose, choice, nonce).hex(),
        commitment=digest.hex(),
    )


def generate() -> Json:
    tests: list[Json] = []
    base = _valid("seat 2 declares low", ["Valid"], GAME, 1, 2, "declare", "low")
    tests.append(base)
    tests.append(_valid("seat 0 declares high", ["Valid"], GAME, 1, 0, "declare", "high"))
    tests.append(_valid("seat 5 declares both (pig)", ["Valid"], GAME, 1, 5, "declare", "both"))
    tests.append(_valid("a sealed pass of positions", ["Valid"], GAME, 9, 3, "pass/0", "0-2-4"))
    tests.append(
        _valid("shortest fields", ["EdgeLength"], b"\x01", 0, 0, "a", "0", nonce=bytes(32))
    )
    tests.append(
        _valid(
            "longest fields",
            ["EdgeLength"],
            bytes(range(255)),
            2**32 - 1,
            2**32 - 1,
            "p" * 62 + "/",
            "9" + "-" * 62,
            nonce=b"\xff" * 32,
        )
    )

    opened = {k: base[k] for k in ("gameId", "hand", "seat", "purpose", "choice", "nonce")}
    digest = base["commitment"]

    def bad(comment: str, flag: str, error: str, **change: object) -> None:
        fields = dict(opened, **change)
        tests.append(case(comment, "invalid", [flag], **fields, commitment=digest, error=error))

    mismatch, malformed = "OpeningMismatch", "MalformedCommitment"
    bad("opened as high", "WrongChoice", mismatch, choice="high")
    bad("opened as both", "WrongChoice", mismatch, choice="both")
    bad("opened by seat 3", "WrongSeat", mismatch, seat=3)
    bad("opened by seat 0", "WrongSeat", mismatch, seat=0)
    bad("opened for another purpose", "WrongPurpose", mismatch, purpose="declare/2")
    bad("opened in hand 2", "WrongHand", mismatch, hand=2)
    bad("opened in hand 0", "WrongHand", mismatch, hand=0)
    other_game = bytearray(GAME)
    other_game[-1] ^= 1
    bad("opened in another game", "WrongGame", mismatch, gameId=other_game.hex())
    bad("opened in a game id one byte longer", "WrongGame", mismatch, gameId=GAME.hex() + "00")
    bad(
        "nonce with its low bit flipped", "WrongNonce", mismatch, nonce=flip_bit(opened["nonce"], 0)
    )
    bad("purpose and choice swapped", "SwappedLabels", mismatch, purpose="low", choice="declare")
    tests.append(
        case(
            "commitment with one bit flipped",
            "invalid",
            ["WrongCommitment"],
            **opened,
            commitment=flip_bit(digest, 255),
            error=mismatch,
        )
    )
    bad("31-byte nonce", "NonceLength", malformed, nonce=opened["nonce"][:62])
    bad("33-byte nonce", "NonceLength", malformed, nonce=opened["nonce"] + "00")
    bad("empty nonce", "NonceLength", malformed, nonce="")
    for comment, label in (
        ("upper case", "LOW"),
        ("empty", ""),
        ("64 characters", "l" * 64),
        ("leading dash", "-low"),
        ("leading slash", "/low"),
        ("a space", "low high"),
        ("an underscore", "low_high"),
        ("non-ASCII", "l\u00f3w"),
    ):
        bad(f"choice: {comment}", "BadLabel", malformed, choice=label)
    bad("purpose: upper case", "BadLabel", malformed, purpose="Declare")
    bad("purpose: empty", "BadLabel", malformed, purpose="")
    bad("empty game id", "BadField", malformed, gameId="")
    bad("256-byte game id", "BadField", malformed, gameId="00" * 256)
    bad("hand 2^32", "BadField", malformed, hand=2**32)
    bad("seat -1", "BadField", malformed, seat=-1)
    tests.append(
        case(
            "31-byte commitment",
            "invalid",
            ["BadField"],
            **opened,
            commitment=digest[:62],
            error=malformed,
        )
    )
    group = {"type": "SealedChoice", "tag": COMMIT_TAG.hex(), "tests": tests}
    return document(
        "commitment",
        "Sealed choice: SHA-256 commitment to a label, opened by the label and a 32-byte nonce",
        NOTES,
        [group],
        header="SPEC 6.13. commitment = SHA-256(lp(tag) || lp(gameId) || u32be(hand) || "
        "u32be(seat) || lp(purpose) || lp(choice) || nonce), lp(x) = u32be(len x) || x. Bytes "
        "in lowercase hex; valid cases list the exact hash input. An invalid case is an opening "
        "offered against the commitment of test 1 with one field changed; its error is "
        "MalformedCommitment (a field no opening can have) or OpeningMismatch.",
        errors=ERRORS,
    )


def check(group: Json, test: Json) -> None:
    assert group["tag"] == COMMIT_TAG.hex()
    game_id, nonce = bytes.fromhex(test["gameId"]), bytes.fromhex(test["nonce"])
    digest = bytes.fromhex(test["commitment"])
    fields = (game_id, test["hand"], test["seat"], test["purpose"], test["choice"])
    if "input" in test:
        assert commitment_input(*fields, nonce).hex() == test["input"]
        assert commitment(*fields, nonce) == digest
    check_opening(digest, *fields, nonce)
