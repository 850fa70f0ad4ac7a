"""Entries: the signed envelope, what is signed by whom, hashing, decode_entry (SPEC 6.3-6.5).

Pure; no I/O. An `AuthoredEntry` is what a player signs before the entry has a place in the
chain; the sequencer (the hand's dealer) turns it into an `Entry` by adding seq and prev and
countersigning. `decode_entry` turns any malformed input into one `RemoteProtocolError`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from p2pwillow.ledger.canonical import (
    MAX_SAFE_INTEGER,
    JsonObject,
    JsonValue,
    dump_checked,
    is_hex,
    parse_canonical,
)
from p2pwillow.ledger.errors import LocalProtocolError, Reason, RemoteProtocolError
from p2pwillow.ledger.fields import KINDS, Body, FieldError
from p2pwillow.ledger.identity import SIGNATURE_BYTES, Identity, verify_signature
from p2pwillow.limits import MAX_SEATS, is_int

PROTOCOL_VERSION = 1
GAME_ID_BYTES = 16
HASH_BYTES = 32
GENESIS_PREV = bytes(HASH_BYTES)
"""The `prev` of entry 0: 32 zero bytes."""
MAX_SEAT = MAX_SEATS - 1

AUTHOR_TAG = b"p2pwillow/v1/author\x00"
SEQUENCER_TAG = b"p2pwillow/v1/sequencer\x00"

AUTHORED_KEYS = frozenset({"v", "game", "hand", "kind", "author", "body", "sig"})
ENTRY_KEYS = AUTHORED_KEYS | {"seq", "prev", "countersig"}


def _check_envelope(game: bytes, hand: int, author: int, body: Body, version: int) -> None:
    if version != PROTOCOL_VERSION:
        raise LocalProtocolError(f"protocol version is {PROTOCOL_VERSION}")
    if not isinstance(game, bytes) or len(game) != GAME_ID_BYTES:
        raise LocalProtocolError(f"a game id is {GAME_ID_BYTES} bytes")
    if not is_int(hand) or not 0 <= hand <= MAX_SAFE_INTEGER:
        raise LocalProtocolError("a hand number is an integer >= 0")
    if not is_int(author) or not 0 <= author <= MAX_SEAT:
        raise LocalProtocolError(f"an author is a seat 0..{MAX_SEAT}")
    if not isinstance(body, Body) or body.KIND not in KINDS:
        raise LocalProtocolError("a body is an instance of a registered kind")


def _signed_part(game: bytes, hand: int, author: int, body: Body, version: int) -> JsonObject:
    return {
        "v": version,
        "game": game.hex(),
        "hand": hand,
        "kind": body.KIND,
        "author": author,
        "body": body.to_json(),
    }


@dataclass(frozen=True, slots=True)
class AuthoredEntry:
    """An entry as its author signs it, before the sequencer places it (SPEC 6.4)."""

    game: bytes
    hand: int
    author: int
    body: Body
    sig: bytes
    version: int = PROTOCOL_VERSION

    def __post_init__(self) -> None:
        _check_envelope(self.game, self.hand, self.author, self.body, self.version)
        if not isinstance(self.sig, bytes) or len(self.sig) != SIGNATURE_BYTES:
            raise LocalProtocolError("a signature is 64 bytes")

    @classmethod
    def create(
        cls, identity: Identity, *, game: bytes, hand: int, author: int, body: Body
    ) -> AuthoredEntry:
        """Sign body as seat `author` of hand `hand` of game `game`."""
        _check_envelope(game, hand, author, body, PROTOCOL_VERSION)
        message = author_message(game, hand, author, body, PROTOCOL_VERSION)
        return cls(game, hand, author, body, identity.sign(message))

    @property
    def kind(self) -> str:
        return self.body.KIND

    def author_message(self) -> bytes:
        return author_message(self.game, self.hand, self.author, self.body, self.version)

    def verify(self, public_key: bytes) -> bool:
        """True if `sig` is the author's signature under this identity key."""
        return verify_signature(public_key, self.author_message(), self.sig)

    def sequence(self, seq: int, prev: bytes, sequencer: Identity) -> Entry:
        """Give the entry its place (seq, prev) and countersign it as the sequencer."""
        unsigned = Entry(
            self.game, self.hand, seq, prev, self.author, self.body, self.sig, bytes(64)
        )
        countersig = sequencer.sign(unsigned.sequencer_message())
        return Entry(self.game, self.hand, seq, prev, self.author, self.body, self.sig, countersig)

    def to_json(self) -> JsonObject:
        obj = _signed_part(self.game, self.hand, self.author, self.body, self.version)
        obj["sig"] = self.sig.hex()
        return obj

    def encode(self) -> bytes:
        """The canonical encoding (no line terminator)."""
        return dump_checked(self.to_json())


def author_message(game: bytes, hand: int, author: int, body: Body, version: int) -> bytes:
    """The bytes the author signs: AUTHOR_TAG, then the canonical encoding of
    {author, body, game, hand, kind, v} (SPEC 6.4)."""
    # every field was validated when the body was built, so no second domain check (SPEC 6.1)
    return AUTHOR_TAG + dump_checked(_signed_part(game, hand, author, body, version))


@dataclass(frozen=True, slots=True)
class Entry:
    """A sequenced, countersigned entry: one line of the transcript (SPEC 6.3)."""

    game: bytes
    hand: int
    seq: int
    prev: bytes
    author: int
    body: Body
    sig: bytes
    countersig: bytes
    version: int = PROTOCOL_VERSION
    _line: bytes | None = field(default=None, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        _check_envelope(self.game, self.hand, self.author, self.body, self.version)
        if not is_int(self.seq):
            raise LocalProtocolError("seq is an integer")
        if not 0 <= self.seq <= MAX_SAFE_INTEGER:
            raise LocalProtocolError("seq is >= 0")
        if not isinstance(self.prev, bytes) or len(self.prev) != HASH_BYTES:
            raise LocalProtocolError("prev is a 32-byte hash")
        for sig in (self.sig, self.countersig):
            if not isinstance(sig, bytes) or len(sig) != SIGNATURE_BYTES:
                raise LocalProtocolError("a signature is 64 bytes")

    @property
    def kind(self) -> str:
        return self.body.KIND

    def authored(self) -> AuthoredEntry:
        """The author's part, as it was before sequencing."""
        return AuthoredEntry(self.game, self.hand, self.author, self.body, self.sig, self.version)

    def author_message(self) -> bytes:
        return author_message(self.game, self.hand, self.author, self.body, self.version)

    def sequencer_message(self) -> bytes:
        """The bytes the sequencer signs: SEQUENCER_TAG, then the canonical encoding of the
        whole entry without `countersig` (SPEC 6.4)."""
        obj = self.to_json()
        del obj["countersig"]
        return SEQUENCER_TAG + dump_checked(obj)

    def verify_author(self, public_key: bytes) -> bool:
        return verify_signature(public_key, self.author_message(), self.sig)

    def verify_countersig(self, public_key: bytes) -> bool:
        return verify_signature(public_key, self.sequencer_message(), self.countersig)

    def to_json(self) -> JsonObject:
        obj = _signed_part(self.game, self.hand, self.author, self.body, self.version)
        obj["seq"] = self.seq
        obj["prev"] = self.prev.hex()
        obj["sig"] = self.sig.hex()
        obj["countersig"] = self.countersig.hex()
        return obj

    def encode(self) -> bytes:
        """The canonical encoding: one transcript line without its terminating LF."""
        if self._line is None:
            object.__setattr__(self, "_line", dump_checked(self.to_json()))
        assert self._line is not None
        return self._line

    @property
    def hash(self) -> bytes:
        """SHA-256 of the canonical encoding of the whole entry (SPEC 6.5)."""
        return hashlib.sha256(self.encode()).digest()


def entry_hash(entry: Entry) -> bytes:
    return entry.hash


# --- decoding ----------------------------------------------------------------------------------


def _hex_bytes(obj: JsonObject, key: str, size: int, what: str) -> bytes:
    value = obj[key]
    if not is_hex(value, 2 * size):
        raise RemoteProtocolError(
            Reason.BAD_FIELD, f"{key}: {what} must be {2 * size} lowercase hex digits"
        )
    assert isinstance(value, str)
    return bytes.fromhex(value)


def _int(obj: JsonObject, key: str, lo: int, hi: int) -> int:
    value = obj[key]
    if not is_int(value) or not lo <= value <= hi:
        raise RemoteProtocolError(Reason.BAD_FIELD, f"{key}: must be an integer {lo}..{hi}")
    return value


def _peek(obj: JsonObject) -> tuple[int | None, str | None, int | None]:
    """seq, kind and author if they look right, to name the entry in an error."""
    seq, kind, author = obj.get("seq"), obj.get("kind"), obj.get("author")
    return (
        seq if isinstance(seq, int) and not isinstance(seq, bool) else None,
        kind if isinstance(kind, str) and kind in KINDS else None,
        author if isinstance(author, int) and not isinstance(author, bool) else None,
    )


def _envelope(value: JsonValue, keys: frozenset[str]) -> tuple[JsonObject, Body]:
    if not isinstance(value, dict):
        raise RemoteProtocolError(Reason.BAD_FIELD, "an entry is a JSON object")
    # the version is read first: another version may have other fields (SPEC 6.3)
    # `type(...) is int`: JSON true must not pass for 1
    if "v" in value and (type(value["v"]) is not int or value["v"] != PROTOCOL_VERSION):
        raise RemoteProtocolError(
            Reason.BAD_VERSION, f"protocol version {str(value['v'])[:20]!r}, expected 1"
        )
    missing = sorted(keys - set(value))
    extra = sorted(set(value) - keys)
    if missing:
        raise RemoteProtocolError(Reason.BAD_FIELD, f"missing field(s) {', '.join(missing)}")
    if extra:
        raise RemoteProtocolError(Reason.BAD_FIELD, f"unknown field(s) {', '.join(extra)}")
    kind = value["kind"]
    if not isinstance(kind, str) or kind not in KINDS:
        raise RemoteProtocolError(Reason.UNKNOWN_KIND, f"unknown kind {str(kind)[:40]!r}")
    try:
        body = KINDS[kind]._decode(value["body"], "body")
    except FieldError as exc:
        raise RemoteProtocolError(Reason.BAD_FIELD, str(exc)) from None
    return value, body


def entry_from_json(value: JsonValue) -> Entry:
    """Read a decoded JSON value as a sequenced entry; RemoteProtocolError if it is not one."""
    seq, kind, author = _peek(value) if isinstance(value, dict) else (None, None, None)
    try:
        obj, body = _envelope(value, ENTRY_KEYS)
        return Entry(
            game=_hex_bytes(obj, "game", GAME_ID_BYTES, "a game id"),
            hand=_int(obj, "hand", 0, MAX_SAFE_INTEGER),
            seq=_int(obj, "seq", 0, MAX_SAFE_INTEGER),
            prev=_hex_bytes(obj, "prev", HASH_BYTES, "a hash"),
            author=_int(obj, "author", 0, MAX_SEAT),
            body=body,
            sig=_hex_bytes(obj, "sig", SIGNATURE_BYTES, "a signature"),
            countersig=_hex_bytes(obj, "countersig", SIGNATURE_BYTES, "a signature"),
        )
    except RemoteProtocolError as exc:
        raise exc.located(seq=seq, kind=kind, author=author) from None


def authored_from_json(value: JsonValue) -> AuthoredEntry:
    """Read a decoded JSON value as an authored (not yet sequenced) entry."""
    _, kind, author = _peek(value) if isinstance(value, dict) else (None, None, None)
    try:
        obj, body = _envelope(value, AUTHORED_KEYS)
        return AuthoredEntry(
            game=_hex_bytes(obj, "game", GAME_ID_BYTES, "a game id"),
            hand=_int(obj, "hand", 0, MAX_SAFE_INTEGER),
            author=_int(obj, "author", 0, MAX_SEAT),
            body=body,
            sig=_hex_bytes(obj, "sig", SIGNATURE_BYTES, "a signature"),
        )
    except RemoteProtocolError as exc:
        raise exc.located(seq=None, kind=kind, author=author) from None


def _line_bytes(line: bytes | str) -> bytes:
    if isinstance(line, str):
        try:
            raw = line.encode("utf-8")
        except UnicodeEncodeError:
            raise RemoteProtocolError(Reason.MALFORMED, "text holds a lone surrogate") from None
    elif isinstance(line, bytes | bytearray | memoryview):
        raw = bytes(line)
    else:
        raise RemoteProtocolError(Reason.MALFORMED, f"expected bytes, not {type(line).__name__}")
    # SPEC 6.9: one optional LF terminator; nothing else around the canonical encoding
    return raw[:-1] if raw.endswith(b"\n") else raw


def decode_entry(line: bytes | str) -> Entry:
    """Decode one transcript line (an optional trailing LF allowed) into an Entry.

    Any malformed input — not UTF-8, not JSON, not canonical, wrong version, unknown kind,
    missing, extra or ill-typed fields, bad hex — raises RemoteProtocolError. Signatures and
    the chain are not checked here (see Ledger.check_next).
    """
    raw = _line_bytes(line)
    entry = entry_from_json(parse_canonical(raw))
    object.__setattr__(entry, "_line", raw)
    return entry


def decode_authored(line: bytes | str) -> AuthoredEntry:
    """Decode an authored entry (what a player sends its sequencer); see decode_entry."""
    return authored_from_json(parse_canonical(_line_bytes(line)))


def encode_entry(entry: Entry) -> bytes:
    """The canonical encoding of an entry, without line terminator."""
    return entry.encode()


__all__ = [
    "AUTHOR_TAG",
    "GAME_ID_BYTES",
    "GENESIS_PREV",
    "HASH_BYTES",
    "PROTOCOL_VERSION",
    "SEQUENCER_TAG",
    "AuthoredEntry",
    "Entry",
    "author_message",
    "authored_from_json",
    "decode_authored",
    "decode_entry",
    "encode_entry",
    "entry_from_json",
    "entry_hash",
    "parse_canonical",
]
