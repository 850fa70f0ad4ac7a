"""Entries: the signed envelope with every registered body kind, hashing, decode_entry
(SPEC 6.3-6.5).

Pure; no I/O. An `AuthoredEntry` is what a player signs before the entry has a place in the
chain; the sequencer (the hand's dealer) turns it into an `Entry` by adding seq and prev and
countersigning (both in `envelope`). This module binds the envelope to the one registry of body
kinds, `kinds.KINDS`: importing it alone decodes every kind. `decode_entry` turns any malformed
input into one `RemoteProtocolError`.
"""

from __future__ import annotations

from p2pwillow.ledger.canonical import JsonValue, parse_canonical
from p2pwillow.ledger.envelope import (
    AUTHOR_TAG,
    GAME_ID_BYTES,
    GENESIS_PREV,
    HASH_BYTES,
    MAX_SEAT,
    PROTOCOL_VERSION,
    SEQUENCER_TAG,
    AuthoredEntry,
    Entry,
    author_message,
    line_bytes,
    read_authored,
    read_entry,
)
from p2pwillow.ledger.kinds import KINDS


def entry_hash(entry: Entry) -> bytes:
    return entry.hash


def entry_from_json(value: JsonValue) -> Entry:
    """Read a decoded JSON value as a sequenced entry; RemoteProtocolError if it is not one."""
    return read_entry(value, KINDS)


def authored_from_json(value: JsonValue) -> AuthoredEntry:
    """Read a decoded JSON value as an authored (not yet sequenced) entry."""
    return read_authored(value, KINDS)


def decode_entry(line: bytes | str) -> Entry:
    """Decode one transcript line (an optional trailing LF allowed) into an Entry.

    Any malformed input — not UTF-8, not JSON, not canonical, wrong version, unknown kind,
    missing, extra or ill-typed fields, bad hex — raises RemoteProtocolError. Signatures and
    the chain are not checked here (see Ledger.check_next).
    """
    raw = line_bytes(line)
    entry = read_entry(parse_canonical(raw), KINDS)
    object.__setattr__(entry, "_line", raw)
    return entry


def decode_authored(line: bytes | str) -> AuthoredEntry:
    """Decode an authored entry (what a player sends its sequencer); see decode_entry."""
    return read_authored(parse_canonical(line_bytes(line)), KINDS)


def encode_entry(entry: Entry) -> bytes:
    """The canonical encoding of an entry, without line terminator."""
    return entry.encode()


__all__ = [
    "AUTHOR_TAG",
    "GAME_ID_BYTES",
    "GENESIS_PREV",
    "HASH_BYTES",
    "KINDS",
    "MAX_SEAT",
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
