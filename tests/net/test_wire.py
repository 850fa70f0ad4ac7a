"""Frames (SPEC 8.1-8.3, 8.8): round trips, one WireError per bad input, schemas, fuzzing."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from net_helpers import hand_transcript, identity, sample_frames, statement

from p2pwillow.ledger.canonical import canonical_bytes
from p2pwillow.ledger.errors import LocalProtocolError
from p2pwillow.ledger.schema import schema_text
from p2pwillow.net.errors import WireError, WireReason
from p2pwillow.net.keys import CurveKeyPair, KeyStatement
from p2pwillow.net.schema import all_frame_schemas
from p2pwillow.net.wire import (
    FRAME_TYPES,
    MAX_BATCH,
    MAX_FRAME_BYTES,
    EntriesFrame,
    HelloFrame,
    batch_entries,
    decode_frame,
    encode_frame,
)

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "protocol" / "schemas" / "wire"
FRAMES = sample_frames()
ENCODED = {name: encode_frame(frame) for name, frame in FRAMES.items()}
VALIDATORS = {
    name: jsonschema.Draft202012Validator(json.loads((SCHEMA_DIR / f"{name}.json").read_text()))
    for name in FRAME_TYPES
}


def _decodes_or_rejects(data: bytes) -> None:
    try:
        frame = decode_frame(data)
    except WireError as exc:
        assert str(exc).startswith(exc.reason.value + ": ")
        return
    assert encode_frame(frame) == data  # what decodes is canonical: it encodes back to itself


def _header(data: bytes) -> dict[str, object]:
    value: dict[str, object] = json.loads(data.split(b"\n", 1)[0])
    return value


def _with_header(data: bytes, header: object) -> bytes:
    return canonical_bytes(header) + b"\n" + data.split(b"\n", 1)[1]


@pytest.mark.parametrize("name", sorted(FRAMES))
def test_round_trip(name: str) -> None:
    data = ENCODED[name]
    assert data.endswith(b"\n")
    frame = decode_frame(data)
    assert frame == FRAMES[name]
    assert encode_frame(frame) == data


def test_every_type_has_a_sample() -> None:
    assert set(FRAMES) == set(FRAME_TYPES)


def test_entries_keep_their_canonical_bytes() -> None:
    frame = decode_frame(ENCODED["entries"])
    assert isinstance(frame, EntriesFrame)
    assert [e.hash for e in frame.entries] == [e.hash for e in hand_transcript()[3:7]]


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"", WireReason.MALFORMED),
        (b'{"type":"head","v":1}', WireReason.MALFORMED),  # no LF
        (b"not json\n", WireReason.MALFORMED),
        (b'{ "type":"catch_up","v":1,"after":0}\n', WireReason.MALFORMED),  # not canonical
        (b"[1]\n", WireReason.MALFORMED),
        (b'{"after":0,"type":"catch_up","v":2}\n', WireReason.BAD_VERSION),
        (b'{"after":0,"type":"catch_up"}\n', WireReason.BAD_VERSION),
        (b'{"after":0,"type":"catch_up","v":true}\n', WireReason.BAD_VERSION),
        (b'{"type":"gossip","v":1}\n', WireReason.UNKNOWN_TYPE),
        (b'{"type":7,"v":1}\n', WireReason.UNKNOWN_TYPE),
        (b'{"type":"catch_up","v":1}\n', WireReason.BAD_FIELD),
        (b'{"after":0,"more":1,"type":"catch_up","v":1}\n', WireReason.BAD_FIELD),
        (b'{"after":-2,"type":"catch_up","v":1}\n', WireReason.BAD_FIELD),
        (b'{"after":"1","type":"catch_up","v":1}\n', WireReason.BAD_FIELD),
        (b'{"after":0,"type":"catch_up","v":1}\nextra\n', WireReason.MALFORMED),
        (b'{"hash":"' + b"ab" * 32 + b'","seq":-1,"type":"head","v":1}\n', WireReason.BAD_FIELD),
        (b'{"hash":"' + b"AB" * 32 + b'","seq":3,"type":"head","v":1}\n', WireReason.BAD_FIELD),
        (b'{"count":0,"type":"entries","v":1}\n', WireReason.BAD_FIELD),
        (b'{"count":65,"type":"entries","v":1}\n', WireReason.BAD_FIELD),
        (b'{"count":1,"type":"entries","v":1}\n{}\n', WireReason.BAD_ITEM),
        (b'{"count":2,"type":"entries","v":1}\n{}\n', WireReason.MALFORMED),
        (b'{"hand":1,"kind":"vote","type":"broadcast","v":1}\n[1]\n', WireReason.BAD_ITEM),
        (b'{"hand":1,"kind":"Vote","type":"broadcast","v":1}\n{}\n', WireReason.BAD_FIELD),
        (b'{"kind":"roster","type":"lobby","v":1}\n{}', WireReason.MALFORMED),
        (b'{"kind":"roster","type":"lobby","v":1}\n{"b":1,"a":2}\n', WireReason.BAD_ITEM),
    ],
)
def test_each_bad_frame_is_one_wire_error(data: bytes, reason: WireReason) -> None:
    with pytest.raises(WireError) as info:
        decode_frame(data)
    assert info.value.reason is reason, str(info.value)


def test_not_bytes() -> None:
    with pytest.raises(WireError, match="a frame is bytes"):
        decode_frame("text")  # type: ignore[arg-type]


def test_oversized() -> None:
    with pytest.raises(WireError) as info:
        decode_frame(b"{" + b" " * MAX_FRAME_BYTES + b"\n")
    assert info.value.reason is WireReason.OVERSIZED
    with pytest.raises(WireError) as info:
        decode_frame(b'{"a":"' + b"x" * 5000 + b'"}\n')
    assert info.value.reason is WireReason.OVERSIZED


def test_entries_must_be_consecutive() -> None:
    entries = hand_transcript()
    lines = [entries[3].encode(), entries[5].encode()]
    data = b'{"count":2,"type":"entries","v":1}\n' + b"\n".join(lines) + b"\n"
    with pytest.raises(WireError, match="seq 5, expected 4") as info:
        decode_frame(data)
    assert info.value.reason is WireReason.BAD_FIELD


def test_tampered_entry_is_a_bad_item_naming_the_ledger_reason() -> None:
    header, first, rest = ENCODED["entries"].split(b"\n", 2)
    tampered = header + b"\n" + first.replace(b'"v":1', b'"v":2') + b"\n" + rest
    with pytest.raises(WireError, match=r"item 0: .*bad-version") as info:
        decode_frame(tampered)
    assert info.value.reason is WireReason.BAD_ITEM


def test_hello_with_a_forged_key_statement_is_refused() -> None:
    good = statement(1)
    other = CurveKeyPair.generate(lambda n: b"\x07" * n)
    header = _header(ENCODED["hello"])
    header["curve_key"] = other.public.hex()  # the signature was made for another key
    with pytest.raises(WireError) as info:
        decode_frame(_with_header(ENCODED["hello"], header))
    assert info.value.reason is WireReason.BAD_KEY_STATEMENT
    header["curve_key"] = good.curve_key.hex()
    header["identity_key"] = identity(2).public_key.hex()  # signed by someone else
    with pytest.raises(WireError) as info:
        decode_frame(_with_header(ENCODED["hello"], header))
    assert info.value.reason is WireReason.BAD_KEY_STATEMENT


def test_key_statement_checks() -> None:
    s = statement(3)
    assert KeyStatement(s.identity_key, s.curve_key, s.sig) == s
    flipped = bytes([s.sig[0] ^ 1]) + s.sig[1:]
    for args in (
        (s.identity_key, s.curve_key, flipped),
        (s.identity_key, s.curve_key[:31], s.sig),
        (s.curve_key, s.identity_key, s.sig),
    ):
        with pytest.raises(WireError, match="bad-key-statement"):
            KeyStatement(*args)


def test_hello_name_is_checked() -> None:
    header = _header(ENCODED["hello"])
    for bad in ("", "x" * 33, "evil\u202e", 5):
        header["name"] = bad
        with pytest.raises(WireError) as info:
            decode_frame(_with_header(ENCODED["hello"], header))
        assert info.value.reason is WireReason.BAD_FIELD
    with pytest.raises(LocalProtocolError):
        HelloFrame("bad\nname", statement(1))


def test_batches_are_bounded() -> None:
    entries = hand_transcript(4, 11)
    assert len(entries) > MAX_BATCH
    frame = batch_entries(entries)
    assert len(frame.entries) == MAX_BATCH
    small = batch_entries(entries[10:], max_bytes=3000)
    assert 1 <= len(small.entries) < MAX_BATCH
    assert len(encode_frame(small)) <= 3000 or len(small.entries) == 1
    assert len(batch_entries(entries[10:], max_bytes=1).entries) == 1  # never empty


# --- schemas -------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(FRAME_TYPES))
def test_schema_files_are_what_the_code_declares(name: str) -> None:
    expected = schema_text(all_frame_schemas()[name])
    assert (SCHEMA_DIR / f"{name}.json").read_text("utf-8") == expected, (
        "regenerate protocol/schemas/wire/ from p2pwillow.net.schema.all_frame_schemas()"
    )
    jsonschema.Draft202012Validator.check_schema(json.loads(expected))


def test_no_stray_schema_files() -> None:
    assert {p.stem for p in SCHEMA_DIR.glob("*.json")} == set(FRAME_TYPES)


@pytest.mark.parametrize("name", sorted(FRAMES))
def test_sample_headers_validate(name: str) -> None:
    VALIDATORS[name].validate(_header(ENCODED[name]))
    for other in VALIDATORS:
        if other != name:
            assert not VALIDATORS[other].is_valid(_header(ENCODED[name]))


header_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 70),
    st.sampled_from(["", "ab" * 32, "AB" * 32, "vote", "Ann", "00" * 64, "zz"]),
    st.lists(st.integers(-3, 70), max_size=2),
)


@st.composite
def mutated_headers(draw: st.DrawFn) -> tuple[str, bytes, dict[str, object]]:
    name = draw(st.sampled_from(sorted(FRAMES)))
    header = _header(ENCODED[name])
    op = draw(st.sampled_from(["replace", "remove", "add"]))
    keys = sorted(header)
    if op == "add":
        header[draw(st.sampled_from(["x", "count", "seq", "kind"]))] = draw(header_values)
    elif op == "remove":
        del header[draw(st.sampled_from(keys))]
    else:
        header[draw(st.sampled_from(keys))] = draw(header_values)
    return name, ENCODED[name], header


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_headers())
def test_schema_and_decoder_agree_on_headers(case: tuple[str, bytes, dict[str, object]]) -> None:
    """A header the decoder accepts, the schema of its type accepts; a header no schema
    accepts, the decoder rejects (payload lines kept as they were)."""
    _, original, header = case
    data = _with_header(original, header)
    try:
        frame = decode_frame(data)
    except WireError:
        frame = None
    kind = header.get("type")
    schema_ok = isinstance(kind, str) and kind in VALIDATORS and VALIDATORS[kind].is_valid(header)
    if frame is not None:
        assert schema_ok, f"decoder accepted what the {kind} schema rejects: {header}"
    if not schema_ok:
        assert frame is None, f"decoder accepted what the schema rejects: {header}"


# --- fuzzing -------------------------------------------------------------------------------------


@given(st.binary(max_size=600))
def test_random_bytes(data: bytes) -> None:
    _decodes_or_rejects(data)


SMALL = [data for data in ENCODED.values() if len(data) < 4000]


@st.composite
def mutated_frames(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(SMALL)))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["flip", "set", "insert", "delete", "splice"]))
        i = draw(st.integers(0, len(data) - 1))
        if op == "flip":
            data[i] ^= 1 << draw(st.integers(0, 7))
        elif op == "set":
            data[i] = draw(st.sampled_from(b'0af{}[]":,\\ -.e9\n\x00\xff'))
        elif op == "insert":
            data[i:i] = draw(st.binary(min_size=1, max_size=4))
        elif op == "delete":
            del data[i : i + draw(st.integers(1, 8))]
        else:
            j = draw(st.integers(0, len(data) - 1))
            data[i:i] = data[j : j + draw(st.integers(1, 16))]
    return bytes(data)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_frames())
def test_mutated_frames(data: bytes) -> None:
    _decodes_or_rejects(data)


@given(st.lists(st.sampled_from(SMALL), min_size=1, max_size=3))
def test_concatenated_frames_are_not_one(parts: list[bytes]) -> None:
    data = b"".join(parts)
    with contextlib.suppress(WireError):
        frame = decode_frame(data)
        assert len(parts) == 1 or encode_frame(frame) == data
