"""The signed envelope of every entry: its members, what the author signs, what the sequencer
adds and countersigns, and reading an envelope from JSON (SPEC 6.3-6.5).

Pure; no I/O. The envelope knows the body kinds only as the registry it is handed (`kinds.KINDS`
is the one registry; `entry` binds it), so that a body kind may itself hold whole entries (an
equivocation proof) without the modules importing each other.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from p2pwillow.ledger.canonical import MAX_SAFE_INTEGER, JsonObject, JsonValue, dump_checked
from p2pwillow.ledger.errors import LocalProtocolError, Reason, RemoteProtocolError
from p2pwillow.ledger.fields import Body, Bytes, FieldError, Int
from p2pwillow.ledger.identity import SIGNATURE_BYTES, Identity, verify_signature
from p2pwillow.limits import MAX_SEATS, is_int

Kinds = Mapping[str, type[Body]]
"""Entry kinds by name: the registry the decoders read bodies with."""

PROTOCOL_VERSION = 1
GAME_ID_BYTES = 16
HASH_BYTES = 32
GENESIS_PREV = bytes(HASH_BYTES)
"""The `prev` of entry 0: 32 zero bytes."""
MAX_SEAT = MAX_SEATS - 1

AUTHOR_TAG = b"p2pwillow/v1/author\x00"
SEQUENCER_TAG = b"p2pwillow/v1/sequencer\x00"

AUTHORED_KEYS = frozenset({"v", "game", "hand", "kind", "author", "counter", "seen", "body", "sig"})
ENTRY_KEYS = AUTHORED_KEYS | {"seq", "prev", "countersig"}


def _check_envelope(
    game: bytes, hand: int, author: int, counter: int, seen: bytes, body: Body, version: int
) -> None:
    if version != PROTOCOL_VERSION:
        raise LocalProtocolError(f"protocol version is {PROTOCOL_VERSION}")
    if not isinstance(game, bytes) or len(game) != GAME_ID_BYTES:
        raise LocalProtocolError(f"a game id is {GAME_ID_BYTES} bytes")
    if not is_int(hand) or not 0 <= hand <= MAX_SAFE_INTEGER:
        raise LocalProtocolError("a hand number is an integer >= 0")
    if not is_int(author) or not 0 <= author <= MAX_SEAT:
        raise LocalProtocolError(f"an author is a seat 0..{MAX_SEAT}")
    if not is_int(counter) or not 0 <= counter <= MAX_SAFE_INTEGER:
        raise LocalProtocolError("a counter is an integer >= 0")
    if not isinstance(seen, bytes) or len(seen) != HASH_BYTES:
        raise LocalProtocolError("seen is a 32-byte hash")
    if not isinstance(body, Body) or not body.KIND:
        raise LocalProtocolError("a body is an instance of an entry kind")


def _signed_part(
    game: bytes, hand: int, author: int, counter: int, seen: bytes, body: Body, version: int
) -> JsonObject:
    return {
        "v": version,
        "game": game.hex(),
        "hand": hand,
        "kind": body.KIND,
        "author": author,
        "counter": counter,
        "seen": seen.hex(),
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
    counter: int = field(kw_only=True)
    """The author's counter: strictly increasing over the game per identity key (SPEC 6.4)."""
    seen: bytes = field(kw_only=True)
    """The hash of the head the author held when it made the entry (SPEC 6.4)."""
    version: int = PROTOCOL_VERSION

    def __post_init__(self) -> None:
        _check_envelope(
            self.game, self.hand, self.author, self.counter, self.seen, self.body, self.version
        )
        if not isinstance(self.sig, bytes) or len(self.sig) != SIGNATURE_BYTES:
            raise LocalProtocolError("a signature is 64 bytes")

    @classmethod
    def create(
        cls,
        identity: Identity,
        *,
        game: bytes,
        hand: int,
        author: int,
        body: Body,
        counter: int,
        seen: bytes,
    ) -> AuthoredEntry:
        """Sign body as seat `author` of hand `hand` of game `game`, with the author's
        `counter` and the hash of the head it has `seen`."""
        _check_envelope(game, hand, author, counter, seen, body, PROTOCOL_VERSION)
        message = author_message(game, hand, author, counter, seen, body, PROTOCOL_VERSION)
        return cls(game, hand, author, body, identity.sign(message), counter=counter, seen=seen)

    @property
    def kind(self) -> str:
        return self.body.KIND

    def author_message(self) -> bytes:
        return author_message(
            self.game, self.hand, self.author, self.counter, self.seen, self.body, self.version
        )

    def verify(self, public_key: bytes) -> bool:
        """True if `sig` is the author's signature under this identity key."""
        return verify_signature(public_key, self.author_message(), self.sig)

    def sequence(self, seq: int, prev: bytes, sequencer: Identity) -> Entry:
        """Give the entry its place (seq, prev) and countersign it as the sequencer."""
        unsigned = self.placed(seq, prev)
        return unsigned.countersigned(sequencer.sign(unsigned.sequencer_message()))

    def placed(self, seq: int, prev: bytes) -> Entry:
        """The entry at (seq, prev) with no countersignature yet (64 zero bytes): what a peer
        checks when it asks whether the entry would be accepted there (SPEC 7.1)."""
        return Entry(
            self.game,
            self.hand,
            seq,
            prev,
            self.author,
            self.body,
            self.sig,
            bytes(SIGNATURE_BYTES),
            counter=self.counter,
            seen=self.seen,
        )

    def to_json(self) -> JsonObject:
        obj = _signed_part(
            self.game, self.hand, self.author, self.counter, self.seen, self.body, self.version
        )
        obj["sig"] = self.sig.hex()
        return obj

    def encode(self) -> bytes:
        """The canonical encoding (no line terminator)."""
        return dump_checked(self.to_json())


def author_message(
    game: bytes, hand: int, author: int, counter: int, seen: bytes, body: Body, version: int
) -> bytes:
    """The bytes the author signs: AUTHOR_TAG, then the canonical encoding of
    {author, body, counter, game, hand, kind, seen, v} (SPEC 6.4)."""
    # every field was validated when the body was built, so no second domain check (SPEC 6.1)
    part = _signed_part(game, hand, author, counter, seen, body, version)
    return AUTHOR_TAG + dump_checked(part)


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
    counter: int = field(kw_only=True)
    seen: bytes = field(kw_only=True)
    version: int = PROTOCOL_VERSION
    _line: bytes | None = field(default=None, init=False, repr=False, compare=False, hash=False)
    _digest: bytes | None = field(default=None, init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        _check_envelope(
            self.game, self.hand, self.author, self.counter, self.seen, self.body, self.version
        )
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
        return AuthoredEntry(
            self.game,
            self.hand,
            self.author,
            self.body,
            self.sig,
            counter=self.counter,
            seen=self.seen,
            version=self.version,
        )

    def countersigned(self, countersig: bytes) -> Entry:
        """This entry with `countersig` as the sequencer's signature."""
        return Entry(
            self.game,
            self.hand,
            self.seq,
            self.prev,
            self.author,
            self.body,
            self.sig,
            countersig,
            counter=self.counter,
            seen=self.seen,
            version=self.version,
        )

    def author_message(self) -> bytes:
        return author_message(
            self.game, self.hand, self.author, self.counter, self.seen, self.body, self.version
        )

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
        obj = _signed_part(
            self.game, self.hand, self.author, self.counter, self.seen, self.body, self.version
        )
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
        """SHA-256 of the canonical encoding of the whole entry (SPEC 6.5), worked out once:
        a live peer asks for it of every entry at each step of replication."""
        if self._digest is None:
            object.__setattr__(self, "_digest", hashlib.sha256(self.encode()).digest())
        assert self._digest is not None
        return self._digest


# --- the members on the wire (SPEC 6.3) --------------------------------------------------------

GAME = Bytes("a game id", GAME_ID_BYTES)
HASH = Bytes("a hash", HASH_BYTES)
SIGNATURE = Bytes("a signature", SIGNATURE_BYTES)
NUMBER = Int(0, MAX_SAFE_INTEGER)
"""A hand number or a seq."""
SEAT = Int(0, MAX_SEAT)


def _number(obj: JsonObject, key: str, lo: int, hi: int) -> int:
    value = obj[key]
    if not is_int(value) or not lo <= value <= hi:
        raise RemoteProtocolError(Reason.BAD_FIELD, f"{key}: must be an integer {lo}..{hi}")
    return value


def _bytes(obj: JsonObject, key: str, field_type: Bytes) -> bytes:
    try:
        value = field_type.decode(obj[key], key)
    except FieldError as exc:
        raise RemoteProtocolError(Reason.BAD_FIELD, str(exc)) from None
    assert isinstance(value, bytes)
    return value


def read_members(value: JsonValue, keys: frozenset[str], what: str) -> JsonObject:
    """The JSON object of a signed message with exactly `keys`: its version is read first
    (another version may have other members: bad-version), then the members (bad-field)."""
    if not isinstance(value, dict):
        raise RemoteProtocolError(Reason.BAD_FIELD, f"{what} is a JSON object")
    # `type(...) is int`: JSON true must not pass for 1
    if "v" in value and (type(value["v"]) is not int or value["v"] != PROTOCOL_VERSION):
        raise RemoteProtocolError(
            Reason.BAD_VERSION, f"protocol version {str(value['v'])[:20]!r}, expected 1"
        )
    if value.keys() == keys:
        return value
    missing = sorted(keys - set(value))
    extra = sorted(set(value) - keys)
    if missing:
        raise RemoteProtocolError(Reason.BAD_FIELD, f"missing field(s) {', '.join(missing)}")
    if extra:
        raise RemoteProtocolError(Reason.BAD_FIELD, f"unknown field(s) {', '.join(extra)}")
    return value


def read_kind(obj: JsonObject, kinds: Kinds) -> type[Body]:
    """The body kind named by member `kind`; unknown-kind if there is none of that name."""
    kind = obj["kind"]
    if not isinstance(kind, str) or kind not in kinds:
        raise RemoteProtocolError(Reason.UNKNOWN_KIND, f"unknown kind {str(kind)[:40]!r}")
    return kinds[kind]


def _peek(obj: JsonObject, kinds: Kinds) -> tuple[int | None, str | None, int | None]:
    """seq, kind and author if they look right, to name the entry in an error."""
    seq, kind, author = obj.get("seq"), obj.get("kind"), obj.get("author")
    return (
        seq if is_int(seq) else None,
        kind if isinstance(kind, str) and kind in kinds else None,
        author if is_int(author) else None,
    )


def _envelope(value: JsonValue, keys: frozenset[str], kinds: Kinds) -> tuple[JsonObject, Body]:
    obj = read_members(value, keys, "an entry")
    cls = read_kind(obj, kinds)
    try:
        body = cls._decode(obj["body"], "body")
    except FieldError as exc:
        raise RemoteProtocolError(Reason.BAD_FIELD, str(exc)) from None
    return obj, body


_E = TypeVar("_E", Entry, AuthoredEntry)


def _built(cls: type[_E], members: dict[str, object]) -> _E:
    """An envelope of `members` read from JSON, each checked already as it was read (by the
    same rules as __post_init__), so not checked again: a peer sends hundreds a hand."""
    obj = object.__new__(cls)
    for name in cls.__slots__:
        object.__setattr__(obj, name, members.get(name))
    object.__setattr__(obj, "version", PROTOCOL_VERSION)  # read_members checked it
    return obj


def read_entry(value: JsonValue, kinds: Kinds) -> Entry:
    """Read a decoded JSON value as a sequenced entry with bodies of `kinds`;
    RemoteProtocolError naming it (as far as it could be read) if it is not one."""
    try:
        obj, body = _envelope(value, ENTRY_KEYS, kinds)
        return _built(
            Entry,
            {
                "game": _bytes(obj, "game", GAME),
                "hand": _number(obj, "hand", 0, MAX_SAFE_INTEGER),
                "seq": _number(obj, "seq", 0, MAX_SAFE_INTEGER),
                "prev": _bytes(obj, "prev", HASH),
                "author": _number(obj, "author", 0, MAX_SEAT),
                "body": body,
                "sig": _bytes(obj, "sig", SIGNATURE),
                "countersig": _bytes(obj, "countersig", SIGNATURE),
                "counter": _number(obj, "counter", 0, MAX_SAFE_INTEGER),
                "seen": _bytes(obj, "seen", HASH),
            },
        )
    except RemoteProtocolError as exc:
        # named as far as it could be read (worked out only now: most entries are good)
        seq, kind, author = _peek(value, kinds) if isinstance(value, dict) else (None,) * 3
        raise exc.located(seq=seq, kind=kind, author=author) from None


def read_authored(value: JsonValue, kinds: Kinds) -> AuthoredEntry:
    """Read a decoded JSON value as an authored (not yet sequenced) entry; see read_entry."""
    try:
        obj, body = _envelope(value, AUTHORED_KEYS, kinds)
        return _built(
            AuthoredEntry,
            {
                "game": _bytes(obj, "game", GAME),
                "hand": _number(obj, "hand", 0, MAX_SAFE_INTEGER),
                "author": _number(obj, "author", 0, MAX_SEAT),
                "body": body,
                "sig": _bytes(obj, "sig", SIGNATURE),
                "counter": _number(obj, "counter", 0, MAX_SAFE_INTEGER),
                "seen": _bytes(obj, "seen", HASH),
            },
        )
    except RemoteProtocolError as exc:
        _, kind, author = _peek(value, kinds) if isinstance(value, dict) else (None,) * 3
        raise exc.located(seq=None, kind=kind, author=author) from None


def line_bytes(line: bytes | str) -> bytes:
    """The bytes of one line of a message (an entry, a refusal): UTF-8 for text, strictly
    (a lone surrogate is malformed), one optional LF terminator removed (SPEC 6.9)."""
    if isinstance(line, str):
        try:
            raw = line.encode("utf-8")
        except UnicodeEncodeError:
            raise RemoteProtocolError(Reason.MALFORMED, "text holds a lone surrogate") from None
    elif isinstance(line, bytes | bytearray | memoryview):
        raw = bytes(line)
    else:
        raise RemoteProtocolError(Reason.MALFORMED, f"expected bytes, not {type(line).__name__}")
    return raw[:-1] if raw.endswith(b"\n") else raw


__all__ = [
    "AUTHORED_KEYS",
    "AUTHOR_TAG",
    "ENTRY_KEYS",
    "GAME_ID_BYTES",
    "GENESIS_PREV",
    "HASH_BYTES",
    "MAX_SEAT",
    "PROTOCOL_VERSION",
    "SEQUENCER_TAG",
    "AuthoredEntry",
    "Entry",
    "Kinds",
    "author_message",
    "line_bytes",
    "read_authored",
    "read_entry",
    "read_kind",
    "read_members",
]
