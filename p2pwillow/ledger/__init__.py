"""The ledger: canonical entries, Ed25519 signatures, the hash chain and the transcript (SPEC 6).

Pure; no I/O. It knows no poker rules and checks no proofs: the session does that on top.
"""

from p2pwillow.ledger import kinds
from p2pwillow.ledger.canonical import JsonObject, JsonValue, canonical_bytes, parse_canonical
from p2pwillow.ledger.chain import (
    Ledger,
    decode_transcript,
    encode_transcript,
    find_equivocation,
    next_seat_clockwise,
    replay,
)
from p2pwillow.ledger.entry import (
    GENESIS_PREV,
    PROTOCOL_VERSION,
    AuthoredEntry,
    Entry,
    decode_authored,
    decode_entry,
    encode_entry,
    entry_hash,
)
from p2pwillow.ledger.errors import LocalProtocolError, ProtocolError, Reason, RemoteProtocolError
from p2pwillow.ledger.fields import Body
from p2pwillow.ledger.identity import Identity, safety_code, verify_signature
from p2pwillow.ledger.kinds import KINDS, Equivocation
from p2pwillow.ledger.vote import Vote, decode_vote

__all__ = [
    "GENESIS_PREV",
    "KINDS",
    "PROTOCOL_VERSION",
    "AuthoredEntry",
    "Body",
    "Entry",
    "Equivocation",
    "Identity",
    "JsonObject",
    "JsonValue",
    "Ledger",
    "LocalProtocolError",
    "ProtocolError",
    "Reason",
    "RemoteProtocolError",
    "Vote",
    "canonical_bytes",
    "decode_authored",
    "decode_entry",
    "decode_transcript",
    "decode_vote",
    "encode_entry",
    "encode_transcript",
    "entry_hash",
    "find_equivocation",
    "kinds",
    "next_seat_clockwise",
    "parse_canonical",
    "replay",
    "safety_code",
    "verify_signature",
]
