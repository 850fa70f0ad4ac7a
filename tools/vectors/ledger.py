"""Vectors for the ledger: canonical JSON, identities, the safety code, entries, transcripts,
witness votes and fingerprints.

Generates and checks protocol/vectors/ledger.json (SPEC 6.1-6.9); no I/O.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from p2pwillow.crypto.group import G
from p2pwillow.games import plain
from p2pwillow.ledger import (
    AuthoredEntry,
    Body,
    Identity,
    Ledger,
    Reason,
    RemoteProtocolError,
    Vote,
    canonical_bytes,
    decode_authored,
    decode_entry,
    decode_transcript,
    decode_vote,
    parse_canonical,
    replay,
    safety_code,
    verify_signature,
)
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.canonical import MAX_DEPTH, MAX_SAFE_INTEGER, dump_checked
from p2pwillow.ledger.entry import AUTHOR_TAG, SEQUENCER_TAG
from p2pwillow.ledger.identity import FINGERPRINT_TAG, SAFETY_CODE_TAG, fingerprint
from p2pwillow.ledger.vote import VOTE_TAG
from p2pwillow.rules.config import TableConfig
from tools.vectors.common import (
    LEDGER_ERRORS,
    Json,
    case,
    document,
    flip_bit,
    seeded_rng,
    seeded_scalar,
)

FILE_NAME = "ledger.json"

ERROR = "RemoteProtocolError"
"""Every invalid case here must raise the ledger's one error for bad input (SPEC 6.11)."""
ERRORS = LEDGER_ERRORS

NOTES = {
    "Canonical": "A JSON value and its canonical encoding (SPEC 6.1): encoding gives exactly "
    "these bytes and decoding them gives the value back.",
    "Whitespace": "Whitespace outside strings: non-canonical.",
    "KeyOrder": "Object members not in ascending key order: non-canonical.",
    "DuplicateKey": "An object key twice: non-canonical.",
    "BadKey": "An object key that is empty, longer than 64 or outside A-Z a-z 0-9 _ . -: "
    "non-canonical.",
    "NumberForm": "A number with a fraction, an exponent, -0 or a leading plus: non-canonical "
    "(RFC 8259 JSON outside the domain) or malformed (not JSON at all).",
    "IntegerRange": "An integer outside +-(2^53 - 1): non-canonical.",
    "Escape": "A string escape that is not the canonical one (\\/, \\u0041, uppercase "
    "\\u001F, an escaped non-ASCII character, a surrogate pair): non-canonical.",
    "LoneSurrogate": "A \\u escape of an unpaired surrogate: not a Unicode scalar value, "
    "non-canonical.",
    "Depth": "Nesting deeper than 32: non-canonical.",
    "NotJson": "Not JSON text (RFC 8259): malformed.",
    "NotJsonConstant": "NaN or Infinity: not JSON (RFC 8259), malformed.",
    "InvalidUtf8": "Bytes that are not UTF-8 (stray, overlong, surrogate): malformed.",
    "ByteOrderMark": "A UTF-8 byte-order mark before the text: malformed.",
    "TrailingNewline": "A line feed after the value: non-canonical for a bare value; a single "
    "LF after an entry line is accepted (SPEC 6.9).",
    "Identity": "An Ed25519 private key (32-byte seed) and its public key (RFC 8032).",
    "Rfc8032": "Test vector from RFC 8032 section 7.1.",
    "Signature": "A deterministic Ed25519 signature of the listed message.",
    "ModifiedSignature": "A signature with one bit changed: verification fails.",
    "NonCanonicalS": "A signature whose S is replaced by S + L (>= L): rejected (SPEC 6.2).",
    "WrongMessage": "The signature is checked against another message: verification fails.",
    "WrongKey": "The signature is checked under another public key: verification fails.",
    "SafetyCode": "The safety code of a game id and roster (SPEC 6.7), with its hash input.",
    "Fingerprint": "A player's fingerprint (SPEC 6.2): 4 base32 characters of a hash of its "
    "identity key, with the hash input.",
    "Entry": "A sequenced entry of the chain (SPEC 6.3-6.5): the bytes the author signs, the "
    "signature, the authored entry, the bytes the sequencer signs, the countersignature, the "
    "transcript line and its hash.",
    "LineFeed": "An entry line followed by its single LF: decodes to the same entry.",
    "WrongVersion": "'v' is not the integer 1: bad-version, whatever else the entry holds.",
    "UnknownKind": "'kind' is not one of SPEC 6.10: unknown-kind.",
    "MissingField": "A member of the envelope or a body field is missing: bad-field.",
    "ExtraField": "A member or body field that the kind does not have: bad-field.",
    "BadHex": "Bytes not as lowercase hex of the right length: bad-field.",
    "BadValue": "A field of the wrong type or out of its range: bad-field.",
    "NonCanonicalEntry": "A valid entry's value in a non-canonical encoding: non-canonical.",
    "ModifiedBody": "The body changed after the author signed it: bad-signature (also when the "
    "sequencer countersigns the changed entry: it cannot change an author's content).",
    "WrongAuthorKey": "Signed by a key other than the author seat's: bad-signature.",
    "WrongSequencer": "Countersigned by a seat that is not the entry's sequencer: "
    "bad-countersignature.",
    "ModifiedCountersignature": "A countersignature with one bit changed: bad-countersignature.",
    "UnknownAuthor": "The author seat holds no identity key: unknown-author.",
    "ChainLink": "An entry that does not fit after the head (SPEC 6.5 checks 1-4): wrong-game, "
    "wrong-seq, wrong-prev or wrong-hand, found before any signature is checked.",
    "Replayed": "An entry whose signatures verify but whose counter is not above the last of its "
    "author's identity in the chain (SPEC 6.5 check 7): replayed.",
    "WrongSeen": "An entry whose 'seen' names no head it may follow from: no entry of the "
    "current hand, or for a hand start not its prev (SPEC 6.5 check 8): wrong-seen.",
    "Transcript": "A whole transcript file (SPEC 6.9): every entry decodes and links.",
    "Vote": "A witness vote (SPEC 7.5): its line, the bytes its voter signs, its signature.",
    "TranscriptFraming": "A transcript whose lines are not each one canonical entry followed by "
    "one LF: malformed or non-canonical.",
    "TranscriptOrder": "A transcript whose lines are out of order, missing or repeated: wrong-seq.",
}

# --- the fixed table -------------------------------------------------------------------------

SEATS = 4
DEALER = 1
GAME = seeded_rng("ledger/game")(16)
OTHER_GAME = seeded_rng("ledger/other-game")(16)


def _seed(name: str) -> bytes:
    return seeded_rng(f"ledger/identity/{name}")(32)


SEEDS = [_seed(str(seat)) for seat in range(SEATS)]
STRANGER_SEED = _seed("stranger")
IDS = [Identity.from_private_bytes(seed) for seed in SEEDS]
STRANGER = Identity.from_private_bytes(STRANGER_SEED)
NAMES = ("Ada", "Björn", "Chloé", "Dmitri ♠")


def _hex(label: str, n: int) -> str:
    return seeded_rng(f"ledger/filler/{label}")(n).hex()


# --- building entries by hand: JSON objects, signed and countersigned as SPEC 6.4 says ---------

SIGNED_MEMBERS = ("v", "game", "hand", "kind", "author", "counter", "seen", "body")


def _author_message(obj: Mapping[str, Any]) -> bytes:
    return AUTHOR_TAG + dump_checked({key: obj[key] for key in SIGNED_MEMBERS})


def _sequencer_message(obj: Mapping[str, Any]) -> bytes:
    return SEQUENCER_TAG + dump_checked({key: v for key, v in obj.items() if key != "countersig"})


def _sign(obj: dict[str, Any], author: Identity) -> dict[str, Any]:
    out = dict(obj)
    out["sig"] = author.sign(_author_message(out)).hex()
    return out


def _countersign(obj: dict[str, Any], sequencer: Identity) -> dict[str, Any]:
    out = dict(obj)
    out["countersig"] = sequencer.sign(_sequencer_message(out)).hex()
    return out


def _line(value: Any) -> str:
    """The encoding with the canonical rules but no domain check (for out-of-domain cases)."""
    return dump_checked(value).hex()


def _with(obj: Mapping[str, Any], **changes: Any) -> dict[str, Any]:
    out = dict(obj)
    out.update(changes)
    return out


def _without(obj: Mapping[str, Any], key: str) -> dict[str, Any]:
    return {k_: v for k_, v in obj.items() if k_ != key}


ED25519_L = 2**252 + 27742317777372353535851937790883648493
"""The order of Ed25519's base point (RFC 8032, section 5.1): S must be below it."""


def _s_plus_l(sig_hex: str) -> str:
    sig = bytes.fromhex(sig_hex)
    s = int.from_bytes(sig[32:], "little") + ED25519_L
    return (sig[:32] + s.to_bytes(32, "little")).hex()


# --- group 1: canonical JSON (SPEC 6.1) -------------------------------------------------------


def _canonical_group() -> Json:
    tests: list[Json] = []
    deep_ok: Any = 1
    for _ in range(MAX_DEPTH - 1):
        deep_ok = [deep_ok]
    valid: list[tuple[str, Any]] = [
        ("empty object", {}),
        ("empty array", []),
        ("empty string", ""),
        ("a bare integer", 0),
        ("literals", [True, False, None]),
        ("largest and smallest integers", [MAX_SAFE_INTEGER, -MAX_SAFE_INTEGER, -1, 10]),
        (
            "keys sorted by code point (ASCII byte order): - . 0-9 A-Z _ a-z",
            {"b": 1, "a": 2, "_": 3, "Z": 4, "A": 5, "9": 6, "0": 7, ".": 8, "-": 9, "aa": 10},
        ),
        ("nested objects are sorted too", {"z": {"y": 1, "x": [{"b": 1, "a": 2}]}, "a": None}),
        ("key of 64 characters", {"k" * 64: 1}),
        ('" and \\ are escaped with a backslash', 'say "hi" \\ bye'),
        ("the five short escapes", "\b\t\n\f\r"),
        ("other C0 controls as \\u00xy, lowercase", "\x00\x01\x0b\x1f"),
        ("slash, DEL and U+2028 are written as themselves", "/\x7f\u2028\u2029"),
        ("non-ASCII as UTF-8: Latin-1, BMP, outside the BMP", "é ♠ \U0001f0a1"),
        ("a value 32 deep (31 arrays around an integer)", deep_ok),
        ("objects and arrays inside each other", [{"a": [{"b": []}]}]),
    ]
    for comment, value in valid:
        encoded = canonical_bytes(value)
        tests.append(case(comment, "valid", ["Canonical"], value=value, canonical=encoded.hex()))

    deep_bad = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    nc = Reason.NON_CANONICAL.value
    mal = Reason.MALFORMED.value
    invalid: list[tuple[str, list[str], bytes, str | None]] = [
        ("space after colon", ["Whitespace"], b'{"a": 1}', nc),
        ("space after comma", ["Whitespace"], b"[1, 2]", nc),
        ("leading space", ["Whitespace"], b" {}", nc),
        ("tab inside an array", ["Whitespace"], b"[\t]", nc),
        ("trailing LF after a bare value", ["TrailingNewline"], b'{"a":1}\n', nc),
        ("trailing CR LF", ["TrailingNewline"], b'{"a":1}\r\n', nc),
        ("keys in descending order", ["KeyOrder"], b'{"b":1,"a":2}', nc),
        ("lowercase before uppercase", ["KeyOrder"], b'{"a":1,"B":2}', nc),
        ("nested keys unsorted", ["KeyOrder"], b'{"a":{"y":1,"x":2}}', nc),
        ("duplicate key, same value", ["DuplicateKey"], b'{"a":1,"a":1}', nc),
        ("duplicate key, different values", ["DuplicateKey"], b'{"a":1,"a":2}', nc),
        ("empty key", ["BadKey"], b'{"":1}', nc),
        ("key with a space", ["BadKey"], b'{"a b":1}', nc),
        ("non-ASCII key", ["BadKey"], '{"é":1}'.encode(), nc),
        ("key of 65 characters", ["BadKey"], b'{"' + b"k" * 65 + b'":1}', nc),
        ("fraction", ["NumberForm"], b"1.0", nc),
        ("fraction in an object", ["NumberForm"], b'{"amount":25.5}', nc),
        ("exponent", ["NumberForm"], b"1e3", nc),
        ("exponent, uppercase", ["NumberForm"], b"1E3", nc),
        ("exponent with a fraction", ["NumberForm"], b"2.5E2", nc),
        ("negative zero", ["NumberForm"], b"-0", nc),
        ("leading zero", ["NumberForm", "NotJson"], b"01", mal),
        ("leading plus", ["NumberForm", "NotJson"], b"+1", mal),
        ("2^53", ["IntegerRange"], b"9007199254740992", nc),
        ("-2^53", ["IntegerRange"], b"-9007199254740992", nc),
        ("2^64", ["IntegerRange"], b"18446744073709551616", nc),
        ("NaN", ["NotJsonConstant"], b"NaN", mal),
        ("Infinity", ["NotJsonConstant"], b"[Infinity]", mal),
        ("escaped slash", ["Escape"], b'"\\/"', nc),
        ("escaped ASCII letter", ["Escape"], b'"\\u0041"', nc),
        ("uppercase \\u digits", ["Escape"], b'"\\u001F"', nc),
        ("\\u escape of a short-escape character", ["Escape"], b'"\\u000a"', nc),
        ("escaped DEL", ["Escape"], b'"\\u007f"', nc),
        ("escaped non-ASCII character", ["Escape"], b'"\\u00e9"', nc),
        ("escaped U+2028", ["Escape"], b'"\\u2028"', nc),
        ("surrogate pair escape for U+1F0A1", ["Escape"], b'"\\ud83c\\udca1"', nc),
        ("escaped lone high surrogate", ["LoneSurrogate"], b'"\\ud800"', nc),
        ("escaped lone low surrogate in a key's value", ["LoneSurrogate"], b'{"a":"\\udfff"}', nc),
        ("raw control character in a string", ["NotJson"], b'"\x01"', mal),
        ("raw LF in a string", ["NotJson"], b'"a\nb"', mal),
        ("single quotes", ["NotJson"], b"'a'", mal),
        ("trailing comma", ["NotJson"], b"[1,]", mal),
        ("two values", ["NotJson"], b"{}{}", mal),
        ("empty input", ["NotJson"], b"", mal),
        ("33 nested arrays", ["Depth"], deep_bad.encode(), nc),
        ("stray continuation byte", ["InvalidUtf8"], b'"\x80"', mal),
        ("overlong encoding of /", ["InvalidUtf8"], b'"\xc0\xaf"', mal),
        ("UTF-8 of a surrogate (CESU-8)", ["InvalidUtf8"], b'"\xed\xa0\x80"', mal),
        ("truncated sequence", ["InvalidUtf8"], b'"\xe2\x99"', mal),
        ("byte-order mark", ["ByteOrderMark"], b"\xef\xbb\xbf{}", mal),
    ]
    for comment, flags, raw, reason in invalid:
        fields: Json = {"input": raw.hex(), "error": ERROR}
        if reason is not None:
            fields["reason"] = reason
        tests.append(case(comment, "invalid", flags, **fields))
    return {"type": "CanonicalJson", "tests": tests}


def _check_canonical(test: Json) -> None:
    raw = bytes.fromhex(test["input"] if "input" in test else test["canonical"])
    if test["result"] == "invalid":
        _expect_reason(test, lambda: parse_canonical(raw))
        return
    assert canonical_bytes(test["value"]) == raw
    assert canonical_bytes(parse_canonical(raw)) == raw
    assert parse_canonical(raw) == test["value"]


# --- group 2: identities and signatures (SPEC 6.2) -------------------------------------------

RFC8032 = (
    (
        "RFC 8032 7.1 TEST 1",
        "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
        "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
        "",
        "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
        "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
    ),
    (
        "RFC 8032 7.1 TEST 2",
        "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
        "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
        "72",
        "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
        "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
    ),
)


def _identity_group() -> Json:
    tests: list[Json] = []
    for comment, seed, public, rfc_message, sig in RFC8032:
        tests.append(
            case(
                comment,
                "valid",
                ["Identity", "Rfc8032", "Signature"],
                seed=seed,
                publicKey=public,
                message=rfc_message,
                signature=sig,
            )
        )
    message = b"p2pwillow identity vector"
    for seat, identity in enumerate(IDS):
        tests.append(
            case(
                f"identity of seat {seat} of the entry vectors",
                "valid",
                ["Identity", "Signature"],
                seed=SEEDS[seat].hex(),
                publicKey=identity.public_key.hex(),
                message=message.hex(),
                signature=identity.sign(message).hex(),
            )
        )
    tests.append(
        case(
            "the stranger of the entry vectors (holds no seat)",
            "valid",
            ["Identity"],
            seed=STRANGER_SEED.hex(),
            publicKey=STRANGER.public_key.hex(),
        )
    )
    good = IDS[0].sign(message).hex()
    statement = {"publicKey": IDS[0].public_key.hex(), "message": message.hex()}
    bad: list[tuple[str, list[str], Json]] = [
        ("R: low bit flipped", ["ModifiedSignature"], {"signature": flip_bit(good, 0)}),
        ("S: low bit flipped", ["ModifiedSignature"], {"signature": flip_bit(good, 256)}),
        ("S replaced by S + L", ["NonCanonicalS"], {"signature": _s_plus_l(good)}),
        (
            "RFC 8032 TEST 1 with S + L",
            ["NonCanonicalS", "Rfc8032"],
            {
                "publicKey": RFC8032[0][2],
                "message": "",
                "signature": _s_plus_l(RFC8032[0][4]),
            },
        ),
        ("message with one more byte", ["WrongMessage"], {"message": message.hex() + "00"}),
        ("another seat's key", ["WrongKey"], {"publicKey": IDS[1].public_key.hex()}),
        ("truncated signature", ["ModifiedSignature"], {"signature": good[:-2]}),
    ]
    for comment, flags, change in bad:
        fields = {**statement, "signature": good, **change, "error": ERROR}
        fields["reason"] = Reason.BAD_SIGNATURE.value
        tests.append(case(comment, "invalid", flags, **fields))
    return {"type": "Ed25519Identity", "tests": tests}


def _check_identity(test: Json) -> None:
    public = bytes.fromhex(test["publicKey"])
    if "seed" in test:
        identity = Identity.from_private_bytes(bytes.fromhex(test["seed"]))
        assert identity.public_key == public
        if "signature" in test:
            assert identity.sign(bytes.fromhex(test["message"])).hex() == test["signature"]
    if "signature" not in test:
        return
    message, signature = bytes.fromhex(test["message"]), bytes.fromhex(test["signature"])

    def verify() -> None:
        if not verify_signature(public, message, signature):
            raise RemoteProtocolError(Reason.BAD_SIGNATURE, "the signature does not verify")

    if test["result"] == "invalid":
        _expect_reason(test, verify)
    else:
        verify()


# --- group 3: safety code (SPEC 6.7) ----------------------------------------------------------


def _safety_preimage(game: bytes, roster: Mapping[int, bytes]) -> bytes:
    out = SAFETY_CODE_TAG + b"\x00" + bytes([len(game)]) + game
    for seat in sorted(roster):
        out += bytes([seat]) + roster[seat]
    return out


def _code_of(digest: bytes) -> str:
    text = base64.b32encode(digest).decode("ascii")[:20]
    return "-".join(text[i : i + 5] for i in range(0, 20, 5))


def _safety_group() -> Json:
    rosters: list[tuple[str, bytes, dict[int, bytes]]] = [
        ("the four seats of the entry vectors", GAME, {s: IDS[s].public_key for s in range(4)}),
        ("another game id, same keys", OTHER_GAME, {s: IDS[s].public_key for s in range(4)}),
        (
            "seats 1 and 2 swap keys",
            GAME,
            {
                0: IDS[0].public_key,
                1: IDS[2].public_key,
                2: IDS[1].public_key,
                3: IDS[3].public_key,
            },
        ),
        ("one seat", GAME, {0: IDS[0].public_key}),
        (
            "seats 0, 3 and 9 (the stranger at 9)",
            GAME,
            {9: STRANGER.public_key, 0: IDS[0].public_key, 3: IDS[3].public_key},
        ),
    ]
    tests: list[Json] = []
    for comment, game, roster in rosters:
        preimage = _safety_preimage(game, roster)
        digest = hashlib.sha256(preimage).digest()
        tests.append(
            case(
                comment,
                "valid",
                ["SafetyCode"],
                game=game.hex(),
                roster=[{"seat": s, "identityKey": roster[s].hex()} for s in sorted(roster)],
                preimage=preimage.hex(),
                digest=digest.hex(),
                code=_code_of(digest),
            )
        )
    return {"type": "SafetyCode", "tests": tests}


def _check_safety(test: Json) -> None:
    game = bytes.fromhex(test["game"])
    roster = {r["seat"]: bytes.fromhex(r["identityKey"]) for r in test["roster"]}
    preimage = bytes.fromhex(test["preimage"])
    assert _safety_preimage(game, roster) == preimage
    digest = hashlib.sha256(preimage).digest()
    assert digest.hex() == test["digest"]
    assert _code_of(digest) == test["code"]
    assert safety_code(game, roster) == test["code"]
    assert safety_code(game, dict(reversed(list(roster.items())))) == test["code"]


# --- the last group: fingerprints (SPEC 6.2) --------------------------------------------------


def _fingerprint_group() -> Json:
    tests: list[Json] = []
    for comment, who in [
        *((f"the identity of seat {s} of the entry vectors", IDS[s]) for s in range(len(IDS))),
        ("the stranger", STRANGER),
    ]:
        preimage = FINGERPRINT_TAG + b"\x00" + who.public_key
        digest = hashlib.sha256(preimage).digest()
        tests.append(
            case(
                comment,
                "valid",
                ["Fingerprint"],
                identityKey=who.public_key.hex(),
                preimage=preimage.hex(),
                digest=digest.hex(),
                fingerprint=base64.b32encode(digest).decode("ascii")[:4],
            )
        )
    return {"type": "Fingerprint", "tests": tests}


def _check_fingerprint(test: Json) -> None:
    key = bytes.fromhex(test["identityKey"])
    preimage = bytes.fromhex(test["preimage"])
    assert preimage == FINGERPRINT_TAG + b"\x00" + key
    digest = hashlib.sha256(preimage).digest()
    assert digest.hex() == test["digest"]
    assert fingerprint(key) == test["fingerprint"]


# --- group 4: entries (SPEC 6.3-6.5) ---------------------------------------------------------


def _genesis_body() -> k.Genesis:
    """The table: four seats with non-ASCII names, the default settings for four seats."""
    return k.Genesis(
        name="Café Ünïcode ♠ table",
        config=TableConfig(seats=SEATS).to_dict(),
        players=[
            k.SeatedPlayer(seat=s, name=NAMES[s], identity_key=IDS[s].public_key.hex())
            for s in range(SEATS)
        ],
    )


def _chain() -> list[tuple[AuthoredEntry, int, Json]]:
    """The valid chain: each authored entry, its sequencer seat, and the sequenced entry JSON."""
    ledger = Ledger()
    out: list[tuple[AuthoredEntry, int, Json]] = []

    def add(hand: int, author: int, body: Body) -> None:
        key = IDS[author].public_key
        authored = AuthoredEntry.create(
            IDS[author],
            game=GAME,
            hand=hand,
            author=author,
            body=body,
            counter=ledger.last_counter(key) + 1,
            seen=ledger.head_hash,
        )
        draft = authored.sequence(ledger.head_seq + 1, ledger.head_hash, IDS[author])
        sequencer = ledger.expected_sequencer(draft)
        entry = authored.sequence(ledger.head_seq + 1, ledger.head_hash, IDS[sequencer])
        ledger.append(entry)
        out.append((authored, sequencer, entry.to_json()))

    add(0, 0, _genesis_body())
    genesis_hash = ledger.hash_of(0).hex()
    for seat in range(SEATS):
        add(0, seat, k.SeatAcceptance(genesis=genesis_hash))
    add(
        1,
        DEALER,
        k.HandStart(dealer=DEALER, players=[k.SeatStack(seat=s, stack=1000) for s in range(SEATS)]),
    )
    add(
        1,
        2,
        k.Reveal(
            card=0, share=G.mul_public(seeded_scalar("ledger/share")).hex(), proof=_hex("p", 64)
        ),
    )
    add(1, 2, plain("bet", amount=25))
    return out


@dataclass(frozen=True)
class _Valid:
    """The valid chain the invalid entries are made from, and who signs what in it."""

    chain: list[tuple[AuthoredEntry, int, Json]]

    @property
    def genesis(self) -> Json:
        return self.chain[0][2]

    @property
    def seat_entry(self) -> Json:
        return self.chain[2][2]

    @property
    def hand_start(self) -> Json:
        return self.chain[-3][2]

    @property
    def reveal(self) -> Json:
        return self.chain[-2][2]

    @property
    def bet(self) -> Json:
        """The last entry: most invalid entries are this bet, changed."""
        return self.chain[-1][2]

    @property
    def seq(self) -> int:
        seq: int = self.bet["seq"]
        return seq


DEALER_ID, PLAYER_ID = IDS[DEALER], IDS[2]
"""The hand's dealer (the sequencer of the bet) and the bet's author."""


def _resigned(obj: dict[str, Any], author: Identity = PLAYER_ID) -> dict[str, Any]:
    """`obj` signed anew by `author` and countersigned by the dealer."""
    return _countersign(_sign(obj, author), DEALER_ID)


class _Rejected:
    """Invalid entries, each offered as entry `at` after the valid entries before it."""

    def __init__(self, at: int) -> None:
        self.at = at
        self.tests: list[Json] = []

    def add(
        self, comment: str, flags: list[str], obj: Any, reason: Reason, at: int | None = None
    ) -> None:
        where = self.at if at is None else at
        self.tests.append(
            case(
                comment,
                "invalid",
                flags,
                seq=where,
                line=_line(obj),
                reason=reason.value,
                error=ERROR,
            )
        )


def _chain_cases(chain: list[tuple[AuthoredEntry, int, Json]]) -> tuple[list[Json], list[str]]:
    """SPEC 6.3-6.5: every entry of the valid chain with the bytes each party signs, both
    signatures, its line and its hash; and a line with its LF terminator."""
    tests: list[Json] = []
    lines: list[str] = []
    for authored, sequencer, obj in chain:
        line = dump_checked(obj)
        lines.append(line.hex())
        tests.append(
            case(
                f"entry {obj['seq']}: {obj['kind']} by seat {obj['author']}, "
                f"sequenced by seat {sequencer}",
                "valid",
                ["Entry"],
                seq=obj["seq"],
                sequencer=sequencer,
                entry=obj,
                authorMessage=_author_message(obj).hex(),
                sig=obj["sig"],
                authored=authored.encode().hex(),
                sequencerMessage=_sequencer_message(obj).hex(),
                countersig=obj["countersig"],
                line=line.hex(),
                hash=hashlib.sha256(line).hexdigest(),
            )
        )
    tests.append(
        case(
            "the bet entry's line with its LF terminator",
            "valid",
            ["LineFeed"],
            seq=chain[-1][2]["seq"],
            line=lines[-1] + "0a",
            hash=tests[-1]["hash"],
        )
    )
    return tests, lines


def _decoding_cases(v: _Valid) -> list[Json]:
    """SPEC 6.1, 6.3, 6.10: entries that do not decode (version, kind, members, fields)."""
    bet, genesis, reveal, resigned = v.bet, v.genesis, v.reveal, _resigned
    cases = _Rejected(v.seq)
    add = cases.add
    add("v = 2", ["WrongVersion"], _with(bet, v=2), Reason.BAD_VERSION)
    add("v = 0", ["WrongVersion"], _with(bet, v=0), Reason.BAD_VERSION)
    add('v = "1"', ["WrongVersion"], _with(bet, v="1"), Reason.BAD_VERSION)
    add("v = true", ["WrongVersion"], _with(bet, v=True), Reason.BAD_VERSION)
    add(
        "v = 2 with an unknown kind and no signatures",
        ["WrongVersion"],
        {"v": 2, "kind": "shove", "body": []},
        Reason.BAD_VERSION,
    )
    add("v missing", ["MissingField"], _without(bet, "v"), Reason.BAD_FIELD)
    add('kind "shove"', ["UnknownKind"], _with(bet, kind="shove"), Reason.UNKNOWN_KIND)
    add('kind "Bet" (case matters)', ["UnknownKind"], _with(bet, kind="Bet"), Reason.UNKNOWN_KIND)
    add("kind is an integer", ["UnknownKind"], _with(bet, kind=7), Reason.UNKNOWN_KIND)
    for key in ("countersig", "seq", "prev", "body", "author"):
        add(f"{key} missing", ["MissingField"], _without(bet, key), Reason.BAD_FIELD)
    add("body field amount missing", ["MissingField"], _with(bet, body={}), Reason.BAD_FIELD)
    add("extra member", ["ExtraField"], _with(bet, note="hi"), Reason.BAD_FIELD)
    add(
        "extra body field",
        ["ExtraField"],
        _with(bet, body={"amount": 25, "comment": "x"}),
        Reason.BAD_FIELD,
    )
    add(
        "a bet body under kind check",
        ["ExtraField"],
        resigned(_with(bet, kind="check")),
        Reason.BAD_FIELD,
    )
    add("sig in uppercase hex", ["BadHex"], _with(bet, sig=bet["sig"].upper()), Reason.BAD_FIELD)
    add("game in uppercase hex", ["BadHex"], _with(bet, game=bet["game"].upper()), Reason.BAD_FIELD)
    add("prev in uppercase hex", ["BadHex"], _with(bet, prev=bet["prev"].upper()), Reason.BAD_FIELD)
    add("sig with a 0x prefix", ["BadHex"], _with(bet, sig="0x" + bet["sig"]), Reason.BAD_FIELD)
    add("sig one byte short", ["BadHex"], _with(bet, sig=bet["sig"][:-2]), Reason.BAD_FIELD)
    add(
        "countersig one byte long",
        ["BadHex"],
        _with(bet, countersig=bet["countersig"] + "00"),
        Reason.BAD_FIELD,
    )
    add("game of 17 bytes", ["BadHex"], _with(bet, game=bet["game"] + "00"), Reason.BAD_FIELD)
    add("amount 0", ["BadValue"], resigned(_with(bet, body={"amount": 0})), Reason.BAD_FIELD)
    add("amount -25", ["BadValue"], resigned(_with(bet, body={"amount": -25})), Reason.BAD_FIELD)
    add('amount "25"', ["BadValue"], resigned(_with(bet, body={"amount": "25"})), Reason.BAD_FIELD)
    add(
        "amount 2^53: outside the integers of SPEC 6.1",
        ["IntegerRange"],
        resigned(_with(bet, body={"amount": 2**53})),
        Reason.NON_CANONICAL,
    )
    add("author 10", ["BadValue"], _with(bet, author=10), Reason.BAD_FIELD)
    add("author -1", ["BadValue"], _with(bet, author=-1), Reason.BAD_FIELD)
    add("hand -1", ["BadValue"], _with(bet, hand=-1), Reason.BAD_FIELD)
    add("seq true", ["BadValue"], _with(bet, seq=True), Reason.BAD_FIELD)
    add("entry is an array", ["BadValue"], [bet], Reason.BAD_FIELD)
    players = [dict(p) for p in genesis["body"]["players"]]
    players[1]["identity_key"] = players[1]["identity_key"].upper()
    add(
        "genesis: an identity key in uppercase hex",
        ["BadHex"],
        _with(genesis, body={**genesis["body"], "players": players}),
        Reason.BAD_FIELD,
        0,
    )
    players = [dict(p) for p in genesis["body"]["players"]]
    players[1]["identity_key"] = players[0]["identity_key"]
    add(
        "genesis: two seats with the same identity key",
        ["BadValue"],
        _with(genesis, body={**genesis["body"], "players": players}),
        Reason.BAD_FIELD,
        0,
    )
    add(
        "reveal card 7 (a hand holds at most seven cards: positions 0..6)",
        ["BadValue"],
        resigned(_with(reveal, body={**reveal["body"], "card": 7})),
        Reason.BAD_FIELD,
        reveal["seq"],
    )
    return cases.tests


def _author_signature_cases(v: _Valid) -> list[Json]:
    """SPEC 6.4, 6.5 check 5: the bet with an author signature that does not verify (changed,
    moved to other content, made with another key) or by an author who holds no seat."""
    bet, resigned = v.bet, _resigned
    dealer = DEALER_ID
    cases = _Rejected(v.seq)
    add = cases.add
    add(
        "sig: low bit of R flipped",
        ["ModifiedSignature"],
        _with(bet, sig=flip_bit(bet["sig"], 0)),
        Reason.BAD_SIGNATURE,
    )
    add(
        "sig: low bit of S flipped",
        ["ModifiedSignature"],
        _with(bet, sig=flip_bit(bet["sig"], 256)),
        Reason.BAD_SIGNATURE,
    )
    add(
        "sig: S + L", ["NonCanonicalS"], _with(bet, sig=_s_plus_l(bet["sig"])), Reason.BAD_SIGNATURE
    )
    add(
        "body changed (amount 26), signatures kept",
        ["ModifiedBody"],
        _with(bet, body={"amount": 26}),
        Reason.BAD_SIGNATURE,
    )
    add(
        "body changed (amount 2^53 - 1), signatures kept",
        ["ModifiedBody"],
        _with(bet, body={"amount": MAX_SAFE_INTEGER}),
        Reason.BAD_SIGNATURE,
    )
    add(
        "body changed and countersigned anew by the dealer",
        ["ModifiedBody"],
        _countersign(_with(bet, body={"amount": 100}), dealer),
        Reason.BAD_SIGNATURE,
    )
    add(
        "hand changed and countersigned anew by the dealer",
        ["ChainLink"],
        _countersign(_with(bet, hand=2), dealer),
        Reason.WRONG_HAND,
    )
    add(
        "author changed to seat 3, countersigned anew",
        ["WrongAuthorKey"],
        _countersign(_with(bet, author=3), dealer),
        Reason.BAD_SIGNATURE,
    )
    add(
        "signed by seat 3's key as seat 2",
        ["WrongAuthorKey"],
        resigned(bet, IDS[3]),
        Reason.BAD_SIGNATURE,
    )
    add(
        "signed by the dealer's key as seat 2",
        ["WrongAuthorKey"],
        resigned(bet, dealer),
        Reason.BAD_SIGNATURE,
    )
    add(
        "signed by a stranger's key as seat 2",
        ["WrongAuthorKey"],
        resigned(bet, STRANGER),
        Reason.BAD_SIGNATURE,
    )
    add(
        "sig and countersig swapped",
        ["WrongAuthorKey"],
        _with(bet, sig=bet["countersig"], countersig=bet["sig"]),
        Reason.BAD_SIGNATURE,
    )
    add(
        "a stranger as seat 8, which holds no seat",
        ["UnknownAuthor"],
        resigned(_with(bet, author=8), STRANGER),
        Reason.UNKNOWN_AUTHOR,
    )
    return cases.tests


def _countersignature_cases(v: _Valid) -> list[Json]:
    """SPEC 6.4, 6.5 check 6: the bet with a countersignature that does not verify, or made by
    a seat that is not its sequencer."""
    bet, reveal, player = v.bet, v.reveal, PLAYER_ID
    cases = _Rejected(v.seq)
    add = cases.add
    add(
        "countersig: low bit flipped",
        ["ModifiedCountersignature"],
        _with(bet, countersig=flip_bit(bet["countersig"], 0)),
        Reason.BAD_COUNTERSIGNATURE,
    )
    add(
        "countersig: S + L",
        ["NonCanonicalS"],
        _with(bet, countersig=_s_plus_l(bet["countersig"])),
        Reason.BAD_COUNTERSIGNATURE,
    )
    add(
        "countersigned by the author instead of the dealer",
        ["WrongSequencer"],
        _countersign(bet, player),
        Reason.BAD_COUNTERSIGNATURE,
    )
    add(
        "countersigned by the host (seat 0), not the dealer",
        ["WrongSequencer"],
        _countersign(bet, IDS[0]),
        Reason.BAD_COUNTERSIGNATURE,
    )
    add(
        "countersig of the entry before copied",
        ["WrongSequencer"],
        _with(bet, countersig=reveal["countersig"]),
        Reason.BAD_COUNTERSIGNATURE,
    )
    return cases.tests


def _setup_signature_cases(v: _Valid) -> list[Json]:
    """SPEC 6.4, 6.6: the genesis, a seat acceptance and the hand start with signatures by the
    wrong seats."""
    genesis, hand_start, seat_entry = v.genesis, v.hand_start, v.seat_entry
    cases = _Rejected(v.seq)
    add = cases.add
    add(
        "hand_start countersigned by the new dealer, not the sequencer (the host)",
        ["WrongSequencer"],
        _countersign(hand_start, DEALER_ID),
        Reason.BAD_COUNTERSIGNATURE,
        hand_start["seq"],
    )
    add(
        "genesis: sig low bit flipped",
        ["ModifiedSignature"],
        _with(genesis, sig=flip_bit(genesis["sig"], 0)),
        Reason.BAD_SIGNATURE,
        0,
    )
    add(
        "genesis countersigned by seat 1, not its author",
        ["WrongSequencer"],
        _countersign(genesis, IDS[1]),
        Reason.BAD_COUNTERSIGNATURE,
        0,
    )
    add(
        "seat acceptance of seat 1 signed by seat 0",
        ["WrongAuthorKey"],
        _countersign(_sign(seat_entry, IDS[0]), IDS[0]),
        Reason.BAD_SIGNATURE,
        seat_entry["seq"],
    )
    return cases.tests


def _link_cases(v: _Valid) -> list[Json]:
    """SPEC 6.5 checks 1-4: entries that do not link after the head, found before any
    signature is checked."""
    bet, seq, reveal, resigned = v.bet, v.seq, v.reveal, _resigned
    dealer = DEALER_ID
    cases = _Rejected(seq)
    add = cases.add
    add(
        "another game, signed and countersigned",
        ["ChainLink"],
        resigned(_with(bet, game=OTHER_GAME.hex())),
        Reason.WRONG_GAME,
    )
    add(
        "seq one too high, countersigned",
        ["ChainLink"],
        _countersign(_with(bet, seq=seq + 1), dealer),
        Reason.WRONG_SEQ,
    )
    add(
        "prev is the hash of the entry two back",
        ["ChainLink"],
        _countersign(_with(bet, prev=reveal["prev"]), dealer),
        Reason.WRONG_PREV,
    )

    return cases.tests


def _sequencer_cases(v: _Valid) -> list[Json]:
    """SPEC 6.6: a sequencer change in place of the bet by a seat that does not take over, or
    replacing a seat that is not sequencing; bodies of the new kinds that do not decode."""
    bet = v.bet
    votes = [
        {"voter": s, "seats": [DEALER], "sig": _hex(f"vote{s}", 64)}
        for s in range(SEATS)
        if s != DEALER
    ]

    def change(author: int, replaced: list[int]) -> dict[str, Any]:
        obj = _with(
            bet, kind="sequencer_change", author=author, body={"replaced": replaced, "votes": votes}
        )
        return _countersign(_sign(obj, IDS[author]), IDS[author])

    cases = _Rejected(v.seq)
    add = cases.add
    add(
        "sequencer_change by seat 3, not the seat after the dealer",
        ["WrongSequencer"],
        change(3, [DEALER]),
        Reason.BAD_SEATING,
    )
    add(
        "sequencer_change replacing seat 0, which is not sequencing",
        ["WrongSequencer"],
        change(1, [0]),
        Reason.BAD_SEATING,
    )
    add(
        "sequencer_change replacing seats 1 and 3 (3 does not follow 1)",
        ["WrongSequencer"],
        change(0, [DEALER, 3]),
        Reason.BAD_SEATING,
    )
    add(
        "sequencer_change naming a seat twice",
        ["BadValue"],
        change(2, [DEALER, DEALER]),
        Reason.BAD_FIELD,
    )
    add(
        "sequencer_change with no vote",
        ["BadValue"],
        _countersign(
            _sign(
                _with(bet, kind="sequencer_change", body={"replaced": [DEALER], "votes": []}),
                PLAYER_ID,
            ),
            PLAYER_ID,
        ),
        Reason.BAD_FIELD,
    )
    self_vote = [{"voter": 2, "seats": [2], "sig": _hex("self", 64)}]
    add(
        "timeout whose vote accuses its own voter",
        ["BadValue"],
        _resigned(_with(bet, kind="timeout", body={"seats": [2], "votes": self_vote})),
        Reason.BAD_FIELD,
    )
    unordered = [votes[1], votes[0]]
    add(
        "timeout with votes not ascending by voter",
        ["BadValue"],
        _resigned(_with(bet, kind="timeout", body={"seats": [1], "votes": unordered})),
        Reason.BAD_FIELD,
    )
    add(
        "abort blaming nobody",
        ["BadValue"],
        _resigned(_with(bet, kind="abort", body={"blamed": [], "reason": "x", "votes": []})),
        Reason.BAD_FIELD,
    )
    return cases.tests


def _counter_and_seen_cases(v: _Valid) -> list[Json]:
    """SPEC 6.4, 6.5 checks 7-8: entries whose signatures verify, placed where they cannot be:
    the author's counter does not rise, or `seen` names no head it may follow from."""
    bet, reveal, hand_start, resigned = v.bet, v.reveal, v.hand_start, _resigned
    cases = _Rejected(v.seq)
    add = cases.add
    add(
        "the author's reveal placed again as the next entry (its signature still verifies)",
        ["Replayed"],
        _countersign(_with(reveal, seq=v.seq, prev=bet["prev"]), DEALER_ID),
        Reason.REPLAYED,
    )
    add(
        "the bet re-signed with the reveal's counter",
        ["Replayed"],
        resigned(_with(bet, counter=reveal["counter"])),
        Reason.REPLAYED,
    )
    add(
        "the bet re-signed with counter 0",
        ["Replayed"],
        resigned(_with(bet, counter=0)),
        Reason.REPLAYED,
    )
    add(
        "seen is the hash of a seating entry (another hand)",
        ["WrongSeen"],
        resigned(_with(bet, seen=hand_start["prev"])),
        Reason.WRONG_SEEN,
    )
    add(
        "seen is no entry of the chain",
        ["WrongSeen"],
        resigned(_with(bet, seen=_hex("nowhere", 32))),
        Reason.WRONG_SEEN,
    )
    add(
        "hand_start made at no head of the hand it follows",
        ["WrongSeen"],
        _countersign(_sign(_with(hand_start, seen=_hex("nowhere", 32)), DEALER_ID), IDS[0]),
        Reason.WRONG_SEEN,
        hand_start["seq"],
    )
    add("counter missing", ["MissingField"], _without(bet, "counter"), Reason.BAD_FIELD)
    add("seen missing", ["MissingField"], _without(bet, "seen"), Reason.BAD_FIELD)
    add("counter -1", ["BadValue"], resigned(_with(bet, counter=-1)), Reason.BAD_FIELD)
    add("seen one byte short", ["BadHex"], _with(bet, seen=bet["seen"][:-2]), Reason.BAD_FIELD)
    return cases.tests


def _noncanonical_cases(v: _Valid) -> list[Json]:
    """SPEC 6.1: the valid bet (and the genesis) in encodings other than the canonical one."""
    bet, seq, genesis = v.bet, v.seq, v.genesis
    text = dump_checked(bet).decode()
    noncanonical: list[tuple[str, list[str], bytes, Reason]] = [
        (
            "space after every colon",
            ["NonCanonicalEntry", "Whitespace"],
            text.replace('":', '": ').encode(),
            Reason.NON_CANONICAL,
        ),
        (
            "members in envelope order, not sorted",
            ["NonCanonicalEntry", "KeyOrder"],
            _envelope_order(bet),
            Reason.NON_CANONICAL,
        ),
        (
            "kind written with a \\u escape",
            ["NonCanonicalEntry", "Escape"],
            text.replace('"bet"', '"\\u0062et"').encode(),
            Reason.NON_CANONICAL,
        ),
        (
            "two LFs after the line",
            ["NonCanonicalEntry", "TrailingNewline"],
            text.encode() + b"\n\n",
            Reason.NON_CANONICAL,
        ),
        (
            "CR LF after the line",
            ["NonCanonicalEntry", "TrailingNewline"],
            text.encode() + b"\r\n",
            Reason.NON_CANONICAL,
        ),
        (
            "a space after the line",
            ["NonCanonicalEntry", "Whitespace"],
            text.encode() + b" ",
            Reason.NON_CANONICAL,
        ),
        (
            "byte-order mark before the line",
            ["NonCanonicalEntry", "ByteOrderMark"],
            b"\xef\xbb\xbf" + text.encode(),
            Reason.MALFORMED,
        ),
        (
            "amount written 25.0",
            ["NonCanonicalEntry", "NumberForm"],
            text.replace('"amount":25', '"amount":25.0').encode(),
            Reason.NON_CANONICAL,
        ),
        (
            "amount written 2.5e1",
            ["NonCanonicalEntry", "NumberForm"],
            text.replace('"amount":25', '"amount":2.5e1').encode(),
            Reason.NON_CANONICAL,
        ),
        (
            "duplicate member amount",
            ["NonCanonicalEntry", "DuplicateKey"],
            text.replace('"amount":25', '"amount":25,"amount":25').encode(),
            Reason.NON_CANONICAL,
        ),
    ]
    gtext = dump_checked(genesis).decode()
    noncanonical.append(
        (
            "genesis: é of the table name escaped as \\u00e9",
            ["NonCanonicalEntry", "Escape"],
            gtext.replace("é", "\\u00e9", 1).encode(),
            Reason.NON_CANONICAL,
        )
    )
    tests: list[Json] = []
    for comment, flags, raw, reason in noncanonical:
        at = 0 if comment.startswith("genesis") else seq
        tests.append(
            case(
                comment, "invalid", flags, seq=at, line=raw.hex(), reason=reason.value, error=ERROR
            )
        )
    return tests


def _entry_group() -> tuple[Json, list[str]]:
    """SPEC 6.3-6.5: one valid chain, then invalid entries by the check that rejects them."""
    chain = _chain()
    valid = _Valid(chain)
    tests, lines = _chain_cases(chain)
    tests += _decoding_cases(valid)
    tests += _author_signature_cases(valid)
    tests += _countersignature_cases(valid)
    tests += _setup_signature_cases(valid)
    tests += _link_cases(valid)
    tests += _counter_and_seen_cases(valid)
    tests += _sequencer_cases(valid)
    tests += _noncanonical_cases(valid)
    group = {
        "type": "LedgerEntry",
        "game": GAME.hex(),
        "identities": [
            {"seat": s, "seed": SEEDS[s].hex(), "identityKey": IDS[s].public_key.hex()}
            for s in range(SEATS)
        ],
        "stranger": {"seed": STRANGER_SEED.hex(), "identityKey": STRANGER.public_key.hex()},
        "tests": tests,
    }
    return group, lines


def _envelope_order(obj: Mapping[str, Any]) -> bytes:
    """The entry's members in the order of SPEC 6.3's table, otherwise canonical."""
    order = ("v", "game", "hand", "seq", "prev", "kind", "author", "body", "sig", "countersig")
    inner = ",".join(f'"{key}":{dump_checked(obj[key]).decode()}' for key in order if key in obj)
    return ("{" + inner + "}").encode()


def _chain_tests(group: Json) -> dict[int, Json]:
    """The valid chain entries of the group, by seq."""
    return {t["seq"]: t for t in group["tests"] if t["result"] == "valid" and "entry" in t}


def _prefix(group: Json, seq: int) -> Ledger:
    chain = _chain_tests(group)
    return replay(decode_entry(bytes.fromhex(chain[s]["line"])) for s in range(seq))


def _check_entry(group: Json, test: Json) -> None:
    raw = bytes.fromhex(test["line"])
    if test["result"] == "invalid":

        def apply() -> None:
            ledger = _prefix(group, test["seq"])
            ledger.check_next(decode_entry(raw))

        _expect_reason(test, apply)
        return
    entry = decode_entry(raw)
    assert entry.hash.hex() == test["hash"] == hashlib.sha256(raw.rstrip(b"\n")).hexdigest()
    assert entry.seq == test["seq"]
    if "entry" not in test:
        assert raw.endswith(b"\n") and entry.encode() + b"\n" == raw
        return
    obj = test["entry"]
    assert entry.encode() == raw == canonical_bytes(obj)
    assert entry.to_json() == obj
    # the exact bytes each party signs (SPEC 6.4), built here from the JSON, not by the ledger
    author_message = bytes.fromhex(test["authorMessage"])
    sequencer_message = bytes.fromhex(test["sequencerMessage"])
    assert author_message == b"p2pwillow/v1/author\x00" + canonical_bytes(
        {key: obj[key] for key in SIGNED_MEMBERS}
    )
    assert sequencer_message == b"p2pwillow/v1/sequencer\x00" + canonical_bytes(
        {key: v for key, v in obj.items() if key != "countersig"}
    )
    assert entry.author_message() == author_message
    assert entry.sequencer_message() == sequencer_message
    keys = {i["seat"]: bytes.fromhex(i["identityKey"]) for i in group["identities"]}
    assert verify_signature(keys[entry.author], author_message, bytes.fromhex(test["sig"]))
    assert verify_signature(
        keys[test["sequencer"]], sequencer_message, bytes.fromhex(test["countersig"])
    )
    authored = bytes.fromhex(test["authored"])
    assert authored == canonical_bytes(
        {key: v for key, v in obj.items() if key not in ("seq", "prev", "countersig")}
    )
    assert decode_authored(authored) == entry.authored()
    # Ed25519 is deterministic: the signatures are reproduced from the seeds
    seeds = {i["seat"]: bytes.fromhex(i["seed"]) for i in group["identities"]}
    again = AuthoredEntry.create(
        Identity.from_private_bytes(seeds[entry.author]),
        game=entry.game,
        hand=entry.hand,
        author=entry.author,
        body=entry.body,
        counter=entry.counter,
        seen=entry.seen,
    )
    assert again.sig.hex() == test["sig"]
    placed = again.sequence(
        entry.seq, entry.prev, Identity.from_private_bytes(seeds[test["sequencer"]])
    )
    assert placed.countersig.hex() == test["countersig"]
    ledger = _prefix(group, entry.seq)
    assert ledger.head_hash == entry.prev
    assert ledger.expected_sequencer(entry) == test["sequencer"]
    ledger.check_next(entry)


# --- group 5: transcripts (SPEC 6.9) ----------------------------------------------------------


def _transcript_group(lines: list[str]) -> Json:
    raws = [bytes.fromhex(line) for line in lines]
    whole = b"".join(r + b"\n" for r in raws)
    ledger = replay(decode_transcript(whole))
    tests: list[Json] = [
        case(
            f"the {len(raws)} entries of the entry vectors",
            "valid",
            ["Transcript"],
            transcript=whole.hex(),
            entries=len(raws),
            headHash=ledger.head_hash.hex(),
            safetyCode=ledger.safety_code(),
        )
    ]
    mal, nc, seq = Reason.MALFORMED, Reason.NON_CANONICAL, Reason.WRONG_SEQ
    bad: list[tuple[str, list[str], bytes, Reason]] = [
        ("last line without its LF", ["TranscriptFraming"], whole[:-1], mal),
        ("empty file", ["TranscriptFraming"], b"", mal),
        (
            "a blank line between entries",
            ["TranscriptFraming"],
            raws[0] + b"\n\n" + b"".join(r + b"\n" for r in raws[1:]),
            mal,
        ),
        ("a blank line at the end", ["TranscriptFraming"], whole + b"\n", mal),
        ("CR LF line ends", ["TranscriptFraming"], b"".join(r + b"\r\n" for r in raws), nc),
        ("byte-order mark at the start", ["TranscriptFraming"], b"\xef\xbb\xbf" + whole, mal),
        (
            "entries 1 and 2 swapped",
            ["TranscriptOrder"],
            b"".join(raws[i] + b"\n" for i in [0, 2, 1, *range(3, len(raws))]),
            seq,
        ),
        (
            "entry 3 missing",
            ["TranscriptOrder"],
            b"".join(r + b"\n" for i, r in enumerate(raws) if i != 3),
            seq,
        ),
        ("last entry twice", ["TranscriptOrder"], whole + raws[-1] + b"\n", seq),
    ]
    for comment, flags, data, reason in bad:
        tests.append(
            case(comment, "invalid", flags, transcript=data.hex(), reason=reason.value, error=ERROR)
        )
    return {"type": "Transcript", "tests": tests}


def _check_transcript(test: Json) -> None:
    data = bytes.fromhex(test["transcript"])
    if test["result"] == "invalid":
        _expect_reason(test, lambda: replay(decode_transcript(data)))
        return
    ledger = replay(decode_transcript(data))
    assert len(ledger) == test["entries"]
    assert ledger.head_hash.hex() == test["headHash"]
    assert hashlib.sha256(data.split(b"\n")[-2]).hexdigest() == test["headHash"]
    assert ledger.safety_code() == test["safetyCode"]


# --- group 6: witness votes (SPEC 7.5) ---------------------------------------------------------


def _vote(voter: int, seats: tuple[int, ...], head: bytes, hand: int = 1) -> Vote:
    return Vote.create(IDS[voter], game=GAME, hand=hand, head=head, voter=voter, seats=seats)


def _vote_group() -> Json:
    """SPEC 7.5: votes signed by the table's identities, the bytes each voter signs, and votes
    that must not decode or must not verify."""
    head = hashlib.sha256(b"ledger/vote/head").digest()
    valid = [
        ("seat 0 accuses seat 2", _vote(0, (2,), head)),
        ("seat 3 accuses seats 0 and 1", _vote(3, (0, 1), head)),
        ("between hands, seat 1 accuses seat 3", _vote(1, (3,), head, hand=4)),
    ]
    tests: list[Json] = [
        case(
            comment,
            "valid",
            ["Vote"],
            vote=vote.to_json(),
            line=vote.encode().hex(),
            voterMessage=vote.message().hex(),
            identityKey=IDS[vote.voter].public_key.hex(),
        )
        for comment, vote in valid
    ]
    obj: dict[str, Any] = dict(valid[0][1].to_json())
    undecodable: list[tuple[str, list[str], Any, Reason]] = [
        ("type refusal", ["BadValue"], _with(obj, type="refusal"), Reason.BAD_FIELD),
        ("v = 2", ["WrongVersion"], _with(obj, v=2), Reason.BAD_VERSION),
        ("seats missing", ["MissingField"], _without(obj, "seats"), Reason.BAD_FIELD),
        ("an extra member", ["ExtraField"], _with(obj, note="x"), Reason.BAD_FIELD),
        ("no seat accused", ["BadValue"], _with(obj, seats=[]), Reason.BAD_FIELD),
        ("seats not ascending", ["BadValue"], _with(obj, seats=[3, 2]), Reason.BAD_FIELD),
        ("the voter accuses itself", ["BadValue"], _with(obj, seats=[0, 2]), Reason.BAD_FIELD),
        ("seat 10", ["BadValue"], _with(obj, seats=[10]), Reason.BAD_FIELD),
        ("head of 31 bytes", ["BadHex"], _with(obj, head=obj["head"][:-2]), Reason.BAD_FIELD),
        ("sig in uppercase", ["BadHex"], _with(obj, sig=obj["sig"].upper()), Reason.BAD_FIELD),
    ]
    for comment, flags, value, reason in undecodable:
        tests.append(
            case(comment, "invalid", flags, line=_line(value), reason=reason.value, error=ERROR)
        )
    unsigned: list[tuple[str, list[str], Any]] = [
        ("sig: low bit flipped", ["ModifiedSignature"], _with(obj, sig=flip_bit(obj["sig"], 0))),
        ("seats changed after signing", ["ModifiedBody"], _with(obj, seats=[1])),
        ("head changed after signing", ["ModifiedBody"], _with(obj, head=_hex("other", 32))),
        ("signed by seat 1 as seat 0", ["WrongAuthorKey"], _vote(1, (2,), head).to_json()),
    ]
    for comment, flags, value in unsigned:
        if flags == ["WrongAuthorKey"]:
            value = _with(value, voter=0)
        tests.append(
            case(
                comment,
                "invalid",
                flags,
                line=_line(value),
                identityKey=IDS[0].public_key.hex(),
                reason=Reason.BAD_VOTE.value,
                error=ERROR,
            )
        )
    return {"type": "WitnessVote", "tests": tests}


def _check_vote(test: Json) -> None:
    raw = bytes.fromhex(test["line"])

    def read() -> Vote:
        vote = decode_vote(raw)
        if not vote.verify(bytes.fromhex(test["identityKey"])):
            raise RemoteProtocolError(Reason.BAD_VOTE, "the vote does not verify")
        return vote

    if test["result"] == "invalid":
        _expect_reason(test, read)
        return
    vote = read()
    assert vote.to_json() == test["vote"] and vote.encode() == raw
    assert vote.message() == VOTE_TAG + canonical_bytes(
        {key: v for key, v in test["vote"].items() if key != "sig"}
    )
    assert vote.message().hex() == test["voterMessage"]
    again = _vote(vote.voter, vote.seats, vote.head, vote.hand)
    assert again.sig == vote.sig  # Ed25519 is deterministic


# --- the document ------------------------------------------------------------------------------


def _expect_reason(test: Json, run: Callable[[], object]) -> None:
    """Run `run`, which must raise RemoteProtocolError, with the case's reason if it names one."""
    try:
        run()
    except RemoteProtocolError as exc:
        if "reason" in test:
            assert exc.reason.value == test["reason"], f"{exc.reason.value}: {exc}"
        raise


def _document(groups: list[Json]) -> Json:
    return document(
        "ledger",
        "canonical JSON, Ed25519 entry signatures, SHA-256 entry hashes and chain",
        NOTES,
        groups,
        header="SPEC 6.1-6.9. Bytes in lowercase hex. An invalid case must be rejected with "
        "the ledger's error (RemoteProtocolError) and, where it names one, the SPEC 6.11 reason "
        "in 'reason'. CanonicalJson: 'value' encodes to 'canonical'; 'input' must not decode. "
        "Ed25519Identity: seed -> publicKey; signature of message. SafetyCode: SPEC 6.7 with "
        "the hash input. LedgerEntry: one chain (game and identities in the group; seeds so "
        "that signatures can be reproduced); an invalid case is offered as entry 'seq' after "
        "the group's valid entries 0..seq-1. The reveal's share and proof are placeholders: the "
        "ledger checks no proofs (the session does, SPEC 5.9). Transcript: a whole file. "
        "WitnessVote: a vote (SPEC 7.5), its line and the bytes its voter signs; an invalid vote "
        "does not decode, or (bad-vote) does not verify under 'identityKey'.",
        errors=LEDGER_ERRORS,
    )


def generate() -> Json:
    entries, lines = _entry_group()
    return _document(
        [
            _canonical_group(),
            _identity_group(),
            _safety_group(),
            entries,
            _transcript_group(lines),
            _vote_group(),
            _fingerprint_group(),
        ]
    )


def check(group: Json, test: Json) -> None:
    kind = group["type"]
    if kind == "CanonicalJson":
        _check_canonical(test)
    elif kind == "Ed25519Identity":
        _check_identity(test)
    elif kind == "SafetyCode":
        _check_safety(test)
    elif kind == "LedgerEntry":
        _check_entry(group, test)
    elif kind == "Transcript":
        _check_transcript(test)
    elif kind == "WitnessVote":
        _check_vote(test)
    elif kind == "Fingerprint":
        _check_fingerprint(test)
    else:
        raise AssertionError(f"unknown group type {kind}")
