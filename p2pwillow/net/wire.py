"""Frames on the wire and the one decoder for untrusted bytes (SPEC 8.1-8.3, 8.8).

Pure; no I/O. A frame is a canonical JSON header line, then its payload lines (entries,
refusals, opaque items), each ending in a line feed. `decode_frame` turns any malformed,
oversized, unknown-version or unknown-type input into one `WireError` naming what was wrong.
"""

# Theory of operation
# -------------------
# Every frame type is one row of FRAME_TYPES: its `type` name, its header fields and how many
# payload lines follow. Decoding reads the header first (size, canonical JSON, `v`, `type`,
# exact fields), then splits the payload lines and hands each to the ledger's own decoder, so
# an entry on the wire is checked by exactly the code that checks a transcript line (SPEC 6).
# Nothing here verifies entry signatures or the chain: that is the session's job. The one
# signature checked here is the hello's CURVE key statement (SPEC 8.5), because the transport
# pins the key it names.

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Self, TypeAlias, TypeVar

from p2pwillow.ledger.canonical import (
    MAX_LINE_BYTES,
    MAX_SAFE_INTEGER,
    JsonObject,
    dump_checked,
    is_hex,
    parse_canonical,
)
from p2pwillow.ledger.entry import (
    GENESIS_PREV,
    HASH_BYTES,
    PROTOCOL_VERSION,
    AuthoredEntry,
    Entry,
    decode_authored,
    decode_entry,
)
from p2pwillow.ledger.errors import RemoteProtocolError
from p2pwillow.ledger.fields import FieldError, Text
from p2pwillow.ledger.identity import PUBLIC_KEY_BYTES, SIGNATURE_BYTES
from p2pwillow.net.errors import WireError, WireReason
from p2pwillow.net.keys import CURVE_KEY_BYTES, KeyStatement
from p2pwillow.session.refusal import Refusal, decode_refusal

WIRE_VERSION = PROTOCOL_VERSION
MAX_FRAME_BYTES = 4 << 20
"""A frame is at most 4 MiB: a batch of entries, each at most 1 MiB (SPEC 6.1)."""
MAX_HEADER_BYTES = 4096
MAX_BATCH = 64
"""At most this many entries in one `entries` frame."""
MAX_ITEM_BYTES = MAX_LINE_BYTES
NO_HEAD_SEQ = -1
"""The `seq` a peer reports before it holds a genesis (its hash is 64 zeros)."""
KIND_PATTERN = r"^[a-z][a-z0-9_]{0,31}$"
_KIND = re.compile(KIND_PATTERN[1:-1])
NAME = Text(1, 32)
"""A player's name, as in the genesis (SPEC 6.10)."""

T = TypeVar("T")
MALFORMED = WireReason.MALFORMED
BAD_FIELD = WireReason.BAD_FIELD


# --- header fields -------------------------------------------------------------------------------


def _int(header: JsonObject, key: str, lo: int, hi: int) -> int:
    value = header[key]
    if type(value) is not int or not lo <= value <= hi:
        raise WireError(BAD_FIELD, f"{key}: must be an integer {lo}..{hi}")
    return value


def _hex(header: JsonObject, key: str, size: int) -> bytes:
    value = header[key]
    if not is_hex(value, 2 * size):
        raise WireError(BAD_FIELD, f"{key}: must be {2 * size} lowercase hex digits")
    assert isinstance(value, str)
    return bytes.fromhex(value)


def _kind(header: JsonObject) -> str:
    value = header["kind"]
    if not isinstance(value, str) or _KIND.fullmatch(value) is None:
        raise WireError(BAD_FIELD, "kind: 1..32 of a-z 0-9 _, starting with a letter")
    return value


def _head(header: JsonObject) -> tuple[int, bytes]:
    seq = _int(header, "seq", NO_HEAD_SEQ, MAX_SAFE_INTEGER)
    digest = _hex(header, "hash", HASH_BYTES)
    if seq == NO_HEAD_SEQ and digest != GENESIS_PREV:
        raise WireError(BAD_FIELD, "hash: a peer with no chain (seq -1) reports 64 zeros")
    return seq, digest


def _object_item(raw: bytes, index: int) -> bytes:
    """An opaque payload line: any canonical JSON object (its meaning is its kind's)."""
    try:
        value = parse_canonical(raw)
    except RemoteProtocolError as exc:
        raise WireError(WireReason.BAD_ITEM, f"item {index}: {exc}") from None
    if not isinstance(value, dict):
        raise WireError(WireReason.BAD_ITEM, f"item {index}: must be a JSON object")
    return raw


# --- the frames ----------------------------------------------------------------------------------
# Each frame class declares its TYPE, its header FIELDS, `header()`, `items()` (payload lines),
# `item_count(header)` (how many lines follow) and `decode(header, items)`; the mixins give the
# common answers.


class _NoHeader:
    __slots__ = ()
    FIELDS: ClassVar[tuple[str, ...]] = ()

    def header(self) -> JsonObject:
        return {}


class _NoPayload:
    __slots__ = ()

    def items(self) -> list[bytes]:
        return []

    @staticmethod
    def item_count(header: JsonObject) -> int:
        return 0


class _OneItem:
    __slots__ = ()

    @staticmethod
    def item_count(header: JsonObject) -> int:
        return 1


@dataclass(frozen=True, slots=True)
class EntriesFrame:
    """Sequenced entries with consecutive seqs: a push, a resend or a catch-up reply (8.4)."""

    TYPE: ClassVar[str] = "entries"
    FIELDS: ClassVar[tuple[str, ...]] = ("count",)
    entries: tuple[Entry, ...]

    def __post_init__(self) -> None:
        if not 1 <= len(self.entries) <= MAX_BATCH:
            raise ValueError(f"an entries frame holds 1..{MAX_BATCH} entries")
        first = self.entries[0].seq
        if [e.seq for e in self.entries] != list(range(first, first + len(self.entries))):
            raise ValueError("an entries frame holds entries with consecutive seqs")

    def header(self) -> JsonObject:
        return {"count": len(self.entries)}

    def items(self) -> list[bytes]:
        return [e.encode() for e in self.entries]

    @staticmethod
    def item_count(header: JsonObject) -> int:
        return _int(header, "count", 1, MAX_BATCH)

    @classmethod
    def decode(cls, header: JsonObject, items: list[bytes]) -> EntriesFrame:
        entries = tuple(_ledger_item(decode_entry, raw, i) for i, raw in enumerate(items))
        first = entries[0].seq
        for i, entry in enumerate(entries):
            if entry.seq != first + i:
                raise WireError(BAD_FIELD, f"item {i}: seq {entry.seq}, expected {first + i}")
        return cls(entries)


@dataclass(frozen=True, slots=True)
class AuthoredFrame(_NoHeader, _OneItem):
    """A player's signed entry on its way to be sequenced (SPEC 7.1, 8.4)."""

    TYPE: ClassVar[str] = "authored"
    entry: AuthoredEntry

    def items(self) -> list[bytes]:
        return [self.entry.encode()]

    @classmethod
    def decode(cls, header: JsonObject, items: list[bytes]) -> AuthoredFrame:
        return cls(_ledger_item(decode_authored, items[0], 0))


@dataclass(frozen=True, slots=True)
class RefusalFrame(_NoHeader, _OneItem):
    """The sequencer's signed refusal of an authored entry (SPEC 7.1)."""

    TYPE: ClassVar[str] = "refusal"
    refusal: Refusal

    def items(self) -> list[bytes]:
        return [self.refusal.encode()]

    @classmethod
    def decode(cls, header: JsonObject, items: list[bytes]) -> RefusalFrame:
        return cls(_ledger_item(decode_refusal, items[0], 0))


@dataclass(frozen=True, slots=True)
class _HeadReport(_NoPayload):
    """A peer's head: its last applied entry is `seq`, whose hash is `hash` (SPEC 8.4)."""

    FIELDS: ClassVar[tuple[str, ...]] = ("seq", "hash")
    seq: int
    hash: bytes

    def __post_init__(self) -> None:
        if type(self.seq) is not int or not NO_HEAD_SEQ <= self.seq <= MAX_SAFE_INTEGER:
            raise ValueError("a head's seq is -1..2^53-1")
        if not isinstance(self.hash, bytes) or len(self.hash) != HASH_BYTES:
            raise ValueError("a head's hash is 32 bytes")

    def header(self) -> JsonObject:
        return {"seq": self.seq, "hash": self.hash.hex()}

    @classmethod
    def decode(cls, header: JsonObject, items: list[bytes]) -> Self:
        return cls(*_head(header))


@dataclass(frozen=True, slots=True)
class HeadFrame(_HeadReport):
    """An acknowledgement: the sender's head, after it applied entries we sent (8.4)."""

    TYPE: ClassVar[str] = "head"


@dataclass(frozen=True, slots=True)
class HeartbeatFrame(_HeadReport):
    """About once a second to every peer: "I am here, and this is my head" (8.4)."""

    TYPE: ClassVar[str] = "heartbeat"


@dataclass(frozen=True, slots=True)
class CatchUpFrame(_NoPayload):
    """ "Send me the entries after seq `after`", to any peer (8.4)."""

    TYPE: ClassVar[str] = "catch_up"
    FIELDS: ClassVar[tuple[str, ...]] = ("after",)
    after: int

    def __post_init__(self) -> None:
        if type(self.after) is not int or not NO_HEAD_SEQ <= self.after <= MAX_SAFE_INTEGER:
            raise ValueError("after is -1..2^53-1")

    def header(self) -> JsonObject:
        return {"after": self.after}

    @classmethod
    def decode(cls, header: JsonObject, items: list[bytes]) -> CatchUpFrame:
        return cls(_int(header, "after", NO_HEAD_SEQ, MAX_SAFE_INTEGER))


@dataclass(frozen=True, slots=True)
class HelloFrame(_NoPayload):
    """A node introduces itself: its player's name and its signed CURVE key (SPEC 8.5)."""

    TYPE: ClassVar[str] = "hello"
    FIELDS: ClassVar[tuple[str, ...]] = ("name", "identity_key", "curve_key", "key_sig")
    name: str
    statement: KeyStatement

    def __post_init__(self) -> None:
        NAME.normalize(self.name, "name")

    def header(self) -> JsonObject:
        return {
            "name": self.name,
            "identity_key": self.statement.identity_key.hex(),
            "curve_key": self.statement.curve_key.hex(),
            "key_sig": self.statement.sig.hex(),
        }

    @classmethod
    def decode(cls, header: JsonObject, items: list[bytes]) -> HelloFrame:
        try:
            name = NAME.normalize(header["name"], "name")
        except FieldError as exc:
            raise WireError(BAD_FIELD, str(exc)) from None
        assert isinstance(name, str)
        statement = KeyStatement(
            _hex(header, "identity_key", PUBLIC_KEY_BYTES),
            _hex(header, "curve_key", CURVE_KEY_BYTES),
            _hex(header, "key_sig", SIGNATURE_BYTES),
        )
        return cls(name, statement)


def _check_kind(kind: str) -> None:
    if not isinstance(kind, str) or _KIND.fullmatch(kind) is None:
        raise ValueError(f"{kind!r} is not a kind name")


@dataclass(frozen=True, slots=True)
class BroadcastFrame(_OneItem):
    """An item for every peer of the hand, resent until the hand moves on (SPEC 8.4): the seam
    for item kinds the replication does not read (witness votes). `payload` is one canonical
    JSON object whose meaning is its `kind`'s."""

    TYPE: ClassVar[str] = "broadcast"
    FIELDS: ClassVar[tuple[str, ...]] = ("kind", "hand")
    kind: str
    hand: int
    payload: bytes

    def __post_init__(self) -> None:
        _check_kind(self.kind)
        if type(self.hand) is not int or not 0 <= self.hand <= MAX_SAFE_INTEGER:
            raise ValueError("a hand number is an integer >= 0")
        _object_item(self.payload, 0)

    def header(self) -> JsonObject:
        return {"kind": self.kind, "hand": self.hand}

    def items(self) -> list[bytes]:
        return [self.payload]

    @classmethod
    def decode(cls, header: JsonObject, items: list[bytes]) -> BroadcastFrame:
        hand = _int(header, "hand", 0, MAX_SAFE_INTEGER)
        return cls(_kind(header), hand, _object_item(items[0], 0))


@dataclass(frozen=True, slots=True)
class LobbyFrame(_OneItem):
    """A message of the lobby (forming a table, SPEC 8.2): `payload` is one canonical JSON
    object whose meaning is its `kind`'s."""

    TYPE: ClassVar[str] = "lobby"
    FIELDS: ClassVar[tuple[str, ...]] = ("kind",)
    kind: str
    payload: bytes

    def __post_init__(self) -> None:
        _check_kind(self.kind)
        _object_item(self.payload, 0)

    def header(self) -> JsonObject:
        return {"kind": self.kind}

    def items(self) -> list[bytes]:
        return [self.payload]

    @classmethod
    def decode(cls, header: JsonObject, items: list[bytes]) -> LobbyFrame:
        return cls(_kind(header), _object_item(items[0], 0))


Frame: TypeAlias = (
    EntriesFrame
    | AuthoredFrame
    | RefusalFrame
    | HeadFrame
    | HeartbeatFrame
    | CatchUpFrame
    | HelloFrame
    | BroadcastFrame
    | LobbyFrame
)
FRAME_TYPES: dict[str, type[Frame]] = {
    cls.TYPE: cls
    for cls in (
        EntriesFrame,
        AuthoredFrame,
        RefusalFrame,
        HeadFrame,
        HeartbeatFrame,
        CatchUpFrame,
        HelloFrame,
        BroadcastFrame,
        LobbyFrame,
    )
}


def _ledger_item(decode: Callable[[bytes], T], raw: bytes, index: int) -> T:
    try:
        return decode(raw)
    except RemoteProtocolError as exc:
        raise WireError(WireReason.BAD_ITEM, f"item {index}: {exc}") from None


# --- encoding and decoding -----------------------------------------------------------------------


def encode_frame(frame: Frame) -> bytes:
    """The frame's bytes: header line, then its payload lines, each ending in LF (SPEC 8.1)."""
    header: JsonObject = {"v": WIRE_VERSION, "type": frame.TYPE}
    header.update(frame.header())
    lines = [dump_checked(header), *frame.items()]
    data = b"\n".join(lines) + b"\n"
    if len(data) > MAX_FRAME_BYTES:
        raise ValueError(f"a frame is at most {MAX_FRAME_BYTES} bytes")
    return data


def decode_frame(data: bytes) -> Frame:
    """Decode one frame from a peer. Any malformed, oversized, unknown-version or unknown-type
    input raises WireError naming what was wrong (SPEC 8.8)."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise WireError(MALFORMED, f"a frame is bytes, not {type(data).__name__}")
    raw = bytes(data)
    if len(raw) > MAX_FRAME_BYTES:
        raise WireError(WireReason.OVERSIZED, f"{len(raw)} bytes, over {MAX_FRAME_BYTES}")
    end = raw.find(b"\n")
    if end < 0:
        raise WireError(MALFORMED, "no header line (a frame's lines each end in LF)")
    if end > MAX_HEADER_BYTES:
        raise WireError(WireReason.OVERSIZED, f"header over {MAX_HEADER_BYTES} bytes")
    try:
        header = parse_canonical(raw[:end])
    except RemoteProtocolError as exc:
        raise WireError(MALFORMED, f"header: {exc}") from None
    if not isinstance(header, dict):
        raise WireError(MALFORMED, "the header is a JSON object")
    version = header.get("v")
    if type(version) is not int or version != WIRE_VERSION:
        raise WireError(
            WireReason.BAD_VERSION, f"wire version {str(version)[:20]!r}, expected {WIRE_VERSION}"
        )
    name = header.get("type")
    cls = FRAME_TYPES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise WireError(WireReason.UNKNOWN_TYPE, f"unknown frame type {str(name)[:40]!r}")
    _exact_fields(header, cls.FIELDS)
    count = cls.item_count(header)
    items = _payload_lines(raw, end + 1, count)
    return cls.decode(header, items)


def _exact_fields(header: JsonObject, fields: Sequence[str]) -> None:
    expected = {"v", "type", *fields}
    missing = sorted(expected - set(header))
    extra = sorted(set(header) - expected)
    if missing:
        raise WireError(BAD_FIELD, f"missing header field(s) {', '.join(missing)}")
    if extra:
        raise WireError(BAD_FIELD, f"unknown header field(s) {', '.join(extra)[:80]}")


def _payload_lines(raw: bytes, start: int, count: int) -> list[bytes]:
    """The payload lines of `raw` from `start` (after the header's LF), without copying the
    payload before it is split: a frame may hold a megabyte of entries."""
    if count == 0:
        if len(raw) > start:
            raise WireError(MALFORMED, "bytes after a frame that has no payload")
        return []
    if len(raw) <= start or not raw.endswith(b"\n"):
        raise WireError(MALFORMED, "the last payload line does not end in LF")
    lines = raw.split(b"\n")[1:-1]  # the header, the lines, then what follows the last LF
    if len(lines) != count:
        raise WireError(MALFORMED, f"{len(lines)} payload line(s), expected {count}")
    for i, line in enumerate(lines):
        if len(line) > MAX_ITEM_BYTES:
            raise WireError(WireReason.OVERSIZED, f"item {i} over {MAX_ITEM_BYTES} bytes")
    return lines


def batch_entries(entries: Sequence[Entry], max_bytes: int = MAX_FRAME_BYTES) -> EntriesFrame:
    """The longest run from the start of `entries` (consecutive seqs) that fits one frame:
    at most MAX_BATCH entries and `max_bytes` bytes, never fewer than one entry."""
    total = 64  # the header line
    taken: list[Entry] = []
    for entry in entries[:MAX_BATCH]:
        size = len(entry.encode()) + 1
        if taken and total + size > max_bytes:
            break
        taken.append(entry)
        total += size
    return EntriesFrame(tuple(taken))


def head_of(entries: Sequence[Entry]) -> tuple[int, bytes]:
    """(seq, hash) of the last entry, or (-1, zeros) for no chain (SPEC 8.4)."""
    if not entries:
        return NO_HEAD_SEQ, GENESIS_PREV
    return entries[-1].seq, entries[-1].hash


def frame_summary(frame: Frame) -> str:
    """A short description of a frame for logs."""
    if isinstance(frame, EntriesFrame):
        return f"entries {frame.entries[0].seq}..{frame.entries[-1].seq}"
    return frame.TYPE


__all__ = [
    "FRAME_TYPES",
    "KIND_PATTERN",
    "MAX_BATCH",
    "MAX_FRAME_BYTES",
    "MAX_HEADER_BYTES",
    "NO_HEAD_SEQ",
    "WIRE_VERSION",
    "AuthoredFrame",
    "BroadcastFrame",
    "CatchUpFrame",
    "EntriesFrame",
    "Frame",
    "HeadFrame",
    "HeartbeatFrame",
    "HelloFrame",
    "LobbyFrame",
    "RefusalFrame",
    "WireError",
    "WireReason",
    "batch_entries",
    "decode_frame",
    "encode_frame",
    "frame_summary",
    "head_of",
]
