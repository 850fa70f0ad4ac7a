"""protocol/schemas/*.json (SPEC 6.10): one per kind, equal to the code, agreeing with decoding."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from ledger_helpers import sample_entries

from p2pwillow.ledger import KINDS, RemoteProtocolError, canonical_bytes, decode_entry
from p2pwillow.ledger.schema import (
    AUTHORED_SCHEMA,
    ENVELOPE_SCHEMA,
    REFUSAL_SCHEMA,
    VOTE_SCHEMA,
    all_schemas,
    schema_text,
)

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "protocol" / "schemas"
REGENERATE = "regenerate with: python3 -m tools.gen_schemas"
ENTRIES = sample_entries()


def _load(stem: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((SCHEMA_DIR / f"{stem}.json").read_text("utf-8"))
    return data


def _validator(stem: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(_load(stem))


def test_every_kind_has_a_schema_and_every_schema_a_kind() -> None:
    on_disk = {path.stem for path in SCHEMA_DIR.glob("*.json")}
    messages = {ENVELOPE_SCHEMA, AUTHORED_SCHEMA, REFUSAL_SCHEMA, VOTE_SCHEMA}
    assert on_disk - messages == set(KINDS)
    assert messages <= on_disk


@pytest.mark.parametrize("stem", sorted(all_schemas()))
def test_files_are_what_the_code_declares(stem: str) -> None:
    expected = schema_text(all_schemas()[stem])
    assert (SCHEMA_DIR / f"{stem}.json").read_text("utf-8") == expected, REGENERATE


@pytest.mark.parametrize("stem", sorted(all_schemas()))
def test_schemas_are_valid_2020_12(stem: str) -> None:
    schema = _load(stem)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_sample_entries_validate(kind: str) -> None:
    obj = json.loads(ENTRIES[kind].encode())
    _validator(kind).validate(obj)
    _validator(ENVELOPE_SCHEMA).validate(obj)
    _validator(AUTHORED_SCHEMA).validate(json.loads(ENTRIES[kind].authored().encode()))
    for other in ("bet", "genesis"):
        if other != kind:
            assert not _validator(other).is_valid(obj)


def _tamperings(obj: dict[str, object]) -> list[tuple[str, dict[str, object]]]:
    """Structural breakages both the schema and decode_entry must refuse."""
    out: list[tuple[str, dict[str, object]]] = []
    body = obj["body"]
    assert isinstance(body, dict)
    for key in body:
        broken = json.loads(json.dumps(obj))
        del broken["body"][key]
        out.append((f"no body.{key}", broken))
        for value in ({"x": 1}, "zz", -1):
            wrong = json.loads(json.dumps(obj))
            if type(wrong["body"][key]) is not type(value):
                wrong["body"][key] = value
                out.append((f"body.{key}={value!r}", wrong))
    extra = json.loads(json.dumps(obj))
    extra["body"]["surplus"] = 1
    out.append(("extra body field", extra))
    for key in ("sig", "prev", "game", "countersig"):
        upper = json.loads(json.dumps(obj))
        upper[key] = upper[key].upper()
        out.append((f"uppercase {key}", upper))
    return out


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_schema_and_decoder_reject_the_same_breakage(kind: str) -> None:
    obj = json.loads(ENTRIES[kind].encode())
    validator = _validator(kind)
    for what, broken in _tamperings(obj):
        assert not validator.is_valid(broken), f"schema accepts {what}"
        with pytest.raises(RemoteProtocolError):
            decode_entry(canonical_bytes(broken))
