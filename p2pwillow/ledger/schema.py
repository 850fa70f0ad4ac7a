"""JSON Schemas (draft 2020-12) of the envelope and of every entry kind, built from the code.

Pure; no I/O: protocol/schemas/*.json hold these values, and a test keeps them equal.
"""

from __future__ import annotations

import json

from p2pwillow.ledger.canonical import JsonObject, JsonValue
from p2pwillow.ledger.envelope import GAME, HASH, NUMBER, PROTOCOL_VERSION, SEAT, SIGNATURE
from p2pwillow.ledger.kinds import KINDS
from p2pwillow.ledger.refusal import REFUSAL_TYPE, refusal_schema
from p2pwillow.ledger.vote import VOTE_TYPE, vote_schema

DIALECT = "https://json-schema.org/draft/2020-12/schema"
ID_PREFIX = "urn:p2pwillow:v1:schema:"
ENVELOPE_SCHEMA = "entry"
AUTHORED_SCHEMA = "authored-entry"
REFUSAL_SCHEMA = REFUSAL_TYPE
VOTE_SCHEMA = VOTE_TYPE


def envelope_schema(*, sequenced: bool = True) -> JsonObject:
    """The envelope of an entry of any kind (body: any object)."""
    kinds: list[JsonValue] = [*sorted(KINDS)]
    properties: JsonObject = {
        "v": {"const": PROTOCOL_VERSION},
        "game": GAME.schema(),
        "hand": NUMBER.schema(),
        "kind": {"type": "string", "enum": kinds},
        "author": SEAT.schema(),
        "counter": NUMBER.schema(),
        "seen": HASH.schema(),
        "body": {"type": "object"},
        "sig": SIGNATURE.schema(),
    }
    if sequenced:
        properties["seq"] = NUMBER.schema()
        properties["prev"] = HASH.schema()
        properties["countersig"] = SIGNATURE.schema()
    required: list[JsonValue] = [*sorted(properties)]
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


def _document(name: str, title: str, description: str) -> JsonObject:
    return {
        "$schema": DIALECT,
        "$id": ID_PREFIX + name,
        "title": title,
        "description": description,
    }


def kind_schema(kind: str) -> JsonObject:
    """A sequenced entry of this kind: the envelope with `kind` fixed and the body's fields."""
    cls = KINDS[kind]
    doc = (cls.__doc__ or "").strip().split("\n\n")[0]
    description = " ".join(doc.split()) or f"The {kind} entry."
    schema = _document(kind, f"{kind} entry", description)
    schema["$defs"] = {"entry": envelope_schema()}
    schema["allOf"] = [{"$ref": "#/$defs/entry"}]
    schema["properties"] = {"kind": {"const": kind}, "body": cls.object_schema()}
    return schema


def all_schemas() -> dict[str, JsonObject]:
    """File stem -> schema: `entry`, `authored-entry` and one per registered kind."""
    out: dict[str, JsonObject] = {}
    entry = _document(ENVELOPE_SCHEMA, "entry", "A sequenced entry of any kind (SPEC 6.3).")
    out[ENVELOPE_SCHEMA] = entry | envelope_schema()
    authored = _document(
        AUTHORED_SCHEMA, "authored entry", "An entry signed by its author, not yet sequenced."
    )
    out[AUTHORED_SCHEMA] = authored | envelope_schema(sequenced=False)
    refusal = _document(
        REFUSAL_SCHEMA,
        "refusal",
        "The sequencer's signed refusal of an authored entry, sent to its author only; never "
        "part of the transcript (SPEC 7.1).",
    )
    out[REFUSAL_SCHEMA] = refusal | refusal_schema()
    vote = _document(
        VOTE_SCHEMA,
        "vote",
        "A player's signed witness vote: at a head, these seats owe a step and it holds nothing "
        "from them; sent to every peer, never part of the transcript itself (SPEC 7.5).",
    )
    out[VOTE_SCHEMA] = vote | vote_schema()
    for kind in sorted(KINDS):
        out[kind] = kind_schema(kind)
    return out


def schema_text(schema: JsonObject) -> str:
    """How a schema file is written: 2-space indented JSON, UTF-8, a final newline."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


__all__ = [
    "AUTHORED_SCHEMA",
    "ENVELOPE_SCHEMA",
    "REFUSAL_SCHEMA",
    "VOTE_SCHEMA",
    "all_schemas",
    "envelope_schema",
    "kind_schema",
    "refusal_schema",
    "schema_text",
]
