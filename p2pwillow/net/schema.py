"""JSON Schemas (draft 2020-12) of every frame's header line, built from the wire's constants.

Pure; no I/O: protocol/schemas/wire/*.json hold these values, and a test keeps them equal and
checks that the schemas and `decode_frame` agree on valid and broken headers (SPEC 8.2).
"""

from __future__ import annotations

from p2pwillow.ledger.canonical import MAX_SAFE_INTEGER, JsonObject, JsonValue
from p2pwillow.ledger.entry import HASH_BYTES
from p2pwillow.ledger.fields import TEXT_FORBIDDEN
from p2pwillow.ledger.identity import PUBLIC_KEY_BYTES, SIGNATURE_BYTES
from p2pwillow.ledger.schema import DIALECT, ID_PREFIX
from p2pwillow.net.keys import CURVE_KEY_BYTES
from p2pwillow.net.wire import (
    FRAME_TYPES,
    KIND_PATTERN,
    MAX_BATCH,
    NO_HEAD_SEQ,
    WIRE_VERSION,
)

WIRE_ID_PREFIX = ID_PREFIX + "wire:"


def _hex(n_bytes: int) -> JsonObject:
    return {"type": "string", "pattern": f"^[0-9a-f]{{{2 * n_bytes}}}$"}


def _int(lo: int, hi: int) -> JsonObject:
    return {"type": "integer", "minimum": lo, "maximum": hi}


_HEAD: JsonObject = {"seq": _int(NO_HEAD_SEQ, MAX_SAFE_INTEGER), "hash": _hex(HASH_BYTES)}
_KIND: JsonObject = {"type": "string", "pattern": KIND_PATTERN}

# type -> (header fields, what the payload lines are)
HEADERS: dict[str, tuple[JsonObject, str]] = {
    "entries": (
        {"count": _int(1, MAX_BATCH)},
        "followed by `count` lines, each a sequenced entry (" + ID_PREFIX + "entry), with "
        "consecutive seqs",
    ),
    "authored": ({}, "followed by one line, an authored entry (" + ID_PREFIX + "authored-entry)"),
    "refusal": ({}, "followed by one line, a refusal (" + ID_PREFIX + "refusal)"),
    "head": (_HEAD, "no payload: the sender's head (an acknowledgement)"),
    "heartbeat": (_HEAD, "no payload: sent about once a second; the sender's head"),
    "catch_up": (
        {"after": _int(NO_HEAD_SEQ, MAX_SAFE_INTEGER)},
        "no payload: asks for the entries after seq `after`",
    ),
    "hello": (
        {
            "name": {
                "type": "string",
                "minLength": 1,
                "maxLength": 32,
                "pattern": f"^[^{TEXT_FORBIDDEN}]*$",
            },
            "identity_key": _hex(PUBLIC_KEY_BYTES),
            "curve_key": _hex(CURVE_KEY_BYTES),
            "key_sig": _hex(SIGNATURE_BYTES),
        },
        "no payload: the sender's name and CURVE key statement (SPEC 8.5)",
    ),
    "broadcast": (
        {"kind": _KIND, "hand": _int(0, MAX_SAFE_INTEGER)},
        "followed by one line, a canonical JSON object: the item, read by its kind's code",
    ),
    "lobby": (
        {"kind": _KIND},
        "followed by one line, a canonical JSON object: the lobby message of that kind",
    ),
}


def frame_schema(frame_type: str) -> JsonObject:
    """The header line of a frame of this type."""
    fields, payload = HEADERS[frame_type]
    properties: JsonObject = {"v": {"const": WIRE_VERSION}, "type": {"const": frame_type}}
    properties.update(fields)
    required: list[JsonValue] = [*sorted(properties)]
    return {
        "$schema": DIALECT,
        "$id": WIRE_ID_PREFIX + frame_type,
        "title": f"{frame_type} frame",
        "description": f"The header line of a {frame_type} frame (SPEC 8.2), {payload}.",
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


def all_frame_schemas() -> dict[str, JsonObject]:
    """File stem -> schema, one per frame type."""
    assert set(HEADERS) == set(FRAME_TYPES), "every frame type has a schema"
    return {name: frame_schema(name) for name in sorted(FRAME_TYPES)}


__all__ = ["HEADERS", "WIRE_ID_PREFIX", "all_frame_schemas", "frame_schema"]
