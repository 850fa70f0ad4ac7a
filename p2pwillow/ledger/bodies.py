"""Bodies already read: the witness copy of an authored entry (SPEC 7.1) and the sequenced
entry that carries the very same body bytes are read once, not twice.

Pure; no I/O, no clock. Every author sends its authored entry to every peer, and the sequencer
then sends the entry that carries it (SPEC 7.1, 8.4): a peer reads the same body bytes twice,
its points and proofs validated as hex twice. A `BodyMemo` keeps, for the last authored
entries read, the exact bytes of each body and the body read from them. `read_with` then
reads a sequenced entry whose `body` member is exactly those bytes by reading only the rest
of it (the envelope) and taking the body already read.

What makes this safe: a body is a pure function of its kind and its bytes (reading one
consults nothing else), and the memo answers only for bytes equal, byte for byte, to bytes it
read itself. The author's signature names the candidate; it proves nothing and is never
trusted: a forged body under an authentic signature differs in its bytes and is read in full,
as is anything the memo does not answer for. Signatures are not verified here at all: the
session verifies the author's signature and the sequencer's countersignature of every entry
it applies (SPEC 6.5). Whatever the fast reading refuses is read again in full, so an entry
is refused with exactly the error it always was.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TypeAlias

from p2pwillow.ledger.canonical import MAX_LINE_BYTES, parse_canonical
from p2pwillow.ledger.envelope import (
    GAME_ID_BYTES,
    HASH_BYTES,
    PROTOCOL_VERSION,
    AuthoredEntry,
    Entry,
    Kinds,
    read_entry,
)
from p2pwillow.ledger.errors import RemoteProtocolError
from p2pwillow.ledger.fields import Body
from p2pwillow.ledger.identity import SIGNATURE_BYTES

MEMO_ENTRIES = 256
"""Bodies a memo keeps at most (a hand's authored entries from every peer, and to spare)."""
MEMO_BODY_BYTES = 64 << 10
"""The largest body a memo keeps (a deck shuffle's is some 20 KiB): a memo holds at most
MEMO_ENTRIES * MEMO_BODY_BYTES bytes of bodies, 16 MiB, whatever a peer floods it with."""

_BODY_AT = b',"body":'
_COUNTER_AFTER = b',"counter":'
_AUTHOR_FIRST = b'{"author":'
_SIG_HEX = 2 * SIGNATURE_BYTES
_ENTRY_END = b'","v":%d}' % PROTOCOL_VERSION
"""How a canonical entry ends: `...,"sig":"<128 hex digits>","v":1}`."""


_Known: TypeAlias = tuple[str, bytes, Body]
"""A body read: its kind, its exact bytes, the body."""


class BodyMemo:
    """The bodies of the last authored entries read, by their exact bytes: the newest
    `entries` of them, each of at most `body_bytes` bytes. Every change is one operation on
    one dictionary, so nodes reading frames on several threads may share a memo."""

    __slots__ = ("_held", "body_bytes", "hits", "max_entries")

    def __init__(self, entries: int = MEMO_ENTRIES, body_bytes: int = MEMO_BODY_BYTES) -> None:
        self.max_entries = entries
        self.body_bytes = body_bytes
        self.hits = 0
        """Entries read with a body from the memo (for benchmarks and tests)."""
        self._held: OrderedDict[bytes, _Known] = OrderedDict()

    def __len__(self) -> int:
        return len(self._held)

    @property
    def size(self) -> int:
        """Body bytes held."""
        return sum(len(known[1]) for known in list(self._held.values()))

    def clear(self) -> None:
        self._held.clear()

    def remember(self, raw: bytes, authored: AuthoredEntry) -> None:
        """Keep the body of `authored`, just read from the canonical line `raw`."""
        data = authored_body_bytes(raw, authored)
        if data is None or len(data) > self.body_bytes:
            return
        held = self._held
        held[_sig_hex(raw)] = (authored.kind, data, authored.body)
        while len(held) > self.max_entries:
            try:
                held.popitem(last=False)
            except KeyError:  # another thread took the last one
                break

    def read_with(self, raw: bytes, kinds: Kinds) -> Entry | None:
        """The entry the canonical line `raw` is, if its body is one this memo read (exactly
        those bytes, of that kind) and the rest of it reads as an entry; else None (the
        caller reads it in full, and refuses it with the error that reading gives)."""
        if len(raw) > MAX_LINE_BYTES or not raw.endswith(_ENTRY_END):
            return None
        known = self._held.get(_sig_hex(raw))
        if known is None or not raw.startswith(_AUTHOR_FIRST):
            return None
        kind, data, body = known
        at = raw.find(_BODY_AT, len(_AUTHOR_FIRST), 40)
        if at < 0:
            return None
        start = at + len(_BODY_AT)
        end = start + len(data)
        if not raw.startswith(data, start) or not raw.startswith(_COUNTER_AFTER, end):
            return None
        # The line with its body bytes replaced by `0`: canonical if and only if the line is
        # (the body bytes are a canonical object), and read as an entry it is the line's entry
        # but for the body, which is the one read from those bytes.
        try:
            rest = parse_canonical(raw[:start] + b"0" + raw[end:])
            if not isinstance(rest, dict) or rest.get("kind") != kind:
                return None
            entry = read_entry(rest, kinds, body=body)
        except RemoteProtocolError:
            return None
        # `,"body":` was where the line's body member is: right after its integer author
        if len(b'{"author":%d,"body":' % entry.author) != start:
            return None
        self.hits += 1
        return entry


def _sig_hex(raw: bytes) -> bytes:
    """Where a canonical entry (authored or sequenced) holds its author's signature in hex."""
    return raw[-len(_ENTRY_END) - _SIG_HEX : -len(_ENTRY_END)]


def _digits(n: int) -> int:
    return len(str(n))


_TAIL_FIXED = len(
    b',"counter":' + b',"game":"' + b'","hand":' + b',"kind":"' + b'","seen":"' + b'","sig":"'
) + len(b'","v":}')
_HEX_MEMBERS = 2 * (GAME_ID_BYTES + HASH_BYTES + SIGNATURE_BYTES)


def authored_body_bytes(raw: bytes, authored: AuthoredEntry) -> bytes | None:
    """The bytes of the `body` member in `raw`, the canonical line `authored` was just read
    from. Canonical, the line is `{"author":A,"body":` + the body + `,"counter":C,...,"v":1}`,
    the members before and after the body written out from the values read: their lengths
    place the body (None if `raw` is not laid out so, which a canonical line always is)."""
    head = len(b'{"author":,"body":') + _digits(authored.author)
    tail = _TAIL_FIXED + _HEX_MEMBERS + len(authored.kind)
    tail += _digits(authored.counter) + _digits(authored.hand) + _digits(authored.version)
    end = len(raw) - tail
    if end <= head or not raw.startswith(_BODY_AT, head - len(_BODY_AT)):
        return None
    if not raw.startswith(_COUNTER_AFTER, end) or not raw.endswith(_ENTRY_END):
        return None
    return raw[head:end]


__all__ = ["MEMO_BODY_BYTES", "MEMO_ENTRIES", "BodyMemo", "authored_body_bytes"]
