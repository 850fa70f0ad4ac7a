"""decode_entry, decode_refusal and decode_vote under fuzzing (SPEC 6.11, 7.1, 7.5): any input
decodes or raises RemoteProtocolError, and what decodes is what the schemas accept."""

from __future__ import annotations

import contextlib
import json

import jsonschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ledger_helpers import GAME, IDS, sample_entries

from p2pwillow.ledger import (
    Entry,
    LocalProtocolError,
    RemoteProtocolError,
    canonical_bytes,
    decode_authored,
    decode_entry,
    decode_transcript,
)
from p2pwillow.ledger.errors import Reason
from p2pwillow.ledger.refusal import Refusal, decode_refusal
from p2pwillow.ledger.schema import all_schemas
from p2pwillow.ledger.vote import Vote, decode_vote

LINES = [entry.encode() for _, entry in sorted(sample_entries().items())]
SMALL_LINES = [line for line in LINES if len(line) < 2000]
SCHEMAS = all_schemas()
ENVELOPE = jsonschema.Draft202012Validator(SCHEMAS["entry"])
BY_KIND = {kind: jsonschema.Draft202012Validator(s) for kind, s in SCHEMAS.items()}
_REFUSED = sorted(sample_entries().values(), key=lambda e: e.kind)[:6]
REFUSALS = [
    Refusal.create(IDS[1], 1, 40 + i, e.authored(), reason, f"refused: {reason.value} ♠").encode()
    for i, (e, reason) in enumerate(zip(_REFUSED, list(Reason)[-6:], strict=True))
]
REFUSAL = jsonschema.Draft202012Validator(SCHEMAS["refusal"])


def _decodes_or_rejects(data: bytes | str) -> Entry | None:
    try:
        entry = decode_entry(data)
    except RemoteProtocolError:
        return None
    # whatever decodes is canonical: encoding it again gives back the input
    raw = data.encode() if isinstance(data, str) else data
    assert canonical_bytes(entry.to_json()) == raw.removesuffix(b"\n")
    return entry


@given(st.binary(max_size=600))
def test_random_bytes(data: bytes) -> None:
    _decodes_or_rejects(data)


@given(st.text(max_size=300))
def test_random_text(text: str) -> None:
    _decodes_or_rejects(text)
    with contextlib.suppress(RemoteProtocolError):
        decode_authored(text)


def _refusal_or_rejects(data: bytes | str) -> Refusal | None:
    try:
        refusal = decode_refusal(data)
    except RemoteProtocolError:
        return None
    raw = data.encode() if isinstance(data, str) else data
    assert refusal.encode() == raw.removesuffix(b"\n")
    return refusal


@st.composite
def mutated_lines(draw: st.DrawFn, lines: list[bytes] = SMALL_LINES) -> bytes:
    line = bytearray(draw(st.sampled_from(lines)))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["flip", "set", "insert", "delete", "splice"]))
        i = draw(st.integers(0, len(line) - 1))
        if op == "flip":
            line[i] ^= 1 << draw(st.integers(0, 7))
        elif op == "set":
            line[i] = draw(st.sampled_from(b'0af{}[]":,\\ -.e9\x00\xff'))
        elif op == "insert":
            line[i:i] = draw(st.binary(min_size=1, max_size=4))
        elif op == "delete":
            del line[i : i + draw(st.integers(1, 8))]
        else:
            j = draw(st.integers(0, len(line) - 1))
            line[i:i] = line[j : j + draw(st.integers(1, 16))]
    return bytes(line)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_lines())
def test_mutated_lines(line: bytes) -> None:
    _decodes_or_rejects(line)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 2**53)
    | st.text(max_size=8)
    | st.sampled_from(["00" * 32, "ab", "AB", "0" * 128, "bet", "genesis"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


@st.composite
def mutated_objects(draw: st.DrawFn, lines: list[bytes] = SMALL_LINES) -> object:
    """A valid message's JSON with one value replaced, one key removed or one key added."""
    obj = json.loads(draw(st.sampled_from(lines)))
    node = obj
    while True:
        children = list(node.items()) if isinstance(node, dict) else list(enumerate(node))
        containers = [(key, v) for key, v in children if isinstance(v, dict | list) and v]
        if not containers or draw(st.booleans()):
            break
        _, node = draw(st.sampled_from(containers))
    keys = list(node) if isinstance(node, dict) else list(range(len(node)))
    op = draw(st.sampled_from(["replace", "remove", "add"]))
    if op == "add" and isinstance(node, dict):
        node[draw(st.text(min_size=1, max_size=8))] = draw(json_values)
    elif op == "remove" and keys:
        del node[draw(st.sampled_from(keys))]
    elif keys:
        node[draw(st.sampled_from(keys))] = draw(json_values)
    return obj


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_objects())
def test_mutated_objects_agree_with_schema(obj: object) -> None:
    """A structurally broken entry is rejected by decode_entry and by the schema alike;
    what decode_entry accepts, the schemas accept too."""
    try:
        data = canonical_bytes(obj)
    except LocalProtocolError:
        return  # only canonical inputs reach the structural checks
    entry = _decodes_or_rejects(data)
    envelope_ok = ENVELOPE.is_valid(obj)
    kind = obj.get("kind") if isinstance(obj, dict) else None
    kind_ok = envelope_ok and kind in BY_KIND and BY_KIND[kind].is_valid(obj)
    if entry is not None:
        assert kind_ok, "decode_entry accepted what the schema rejects"
    if not kind_ok:
        assert entry is None, "the schema rejected what decode_entry accepts"


@given(st.lists(st.sampled_from(SMALL_LINES) | st.binary(max_size=40), max_size=4))
def test_random_transcripts(lines: list[bytes]) -> None:
    data = b"\n".join(lines) + b"\n"
    with contextlib.suppress(RemoteProtocolError):
        decode_transcript(data)


# --- refusals: the same decoder family, fuzzed the same way ---------------------------------


def test_sample_refusals_round_trip() -> None:
    for line in REFUSALS:
        refusal = _refusal_or_rejects(line)
        assert refusal is not None and REFUSAL.is_valid(json.loads(line))
        assert refusal.verify(IDS[1].public_key)


@given(st.binary(max_size=600))
def test_random_bytes_as_refusals(data: bytes) -> None:
    _refusal_or_rejects(data)


@given(st.text(max_size=300))
def test_random_text_as_refusals(text: str) -> None:
    _refusal_or_rejects(text)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_lines(REFUSALS))
def test_mutated_refusal_lines(line: bytes) -> None:
    _refusal_or_rejects(line)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_objects(REFUSALS))
def test_mutated_refusals_agree_with_schema(obj: object) -> None:
    """decode_refusal and the refusal schema accept exactly the same objects."""
    try:
        data = canonical_bytes(obj)
    except LocalProtocolError:
        return
    refusal = _refusal_or_rejects(data)
    assert (refusal is not None) == REFUSAL.is_valid(obj), obj


def test_a_lone_surrogate_is_malformed_in_a_refusal_as_in_an_entry() -> None:
    text = REFUSALS[0].decode().replace("♠", "\ud800")
    for decode in (decode_refusal, decode_entry):
        try:
            decode(text)
        except RemoteProtocolError as exc:
            assert exc.reason is Reason.MALFORMED
        else:
            raise AssertionError("a lone surrogate decoded")


# --- votes: the same decoder family, fuzzed the same way (SPEC 7.5) --------------------------

VOTES = [
    Vote.create(
        IDS[v], game=GAME, hand=3 + v, head=bytes([v]) * 32, voter=v, seats=tuple(seats)
    ).encode()
    for v, seats in ((0, (1,)), (1, (0, 2, 3)), (2, (9,)), (3, (0,)))
]
VOTE = jsonschema.Draft202012Validator(SCHEMAS["vote"])


def _vote_or_rejects(data: bytes | str) -> Vote | None:
    try:
        vote = decode_vote(data)
    except RemoteProtocolError:
        return None
    raw = data.encode() if isinstance(data, str) else data
    assert vote.encode() == raw.removesuffix(b"\n")
    return vote


def test_sample_votes_round_trip() -> None:
    for line, identity in zip(VOTES, IDS, strict=False):
        vote = _vote_or_rejects(line)
        assert vote is not None and VOTE.is_valid(json.loads(line))
        assert vote.verify(identity.public_key)
        assert not vote.verify(IDS[5].public_key)


@given(st.binary(max_size=600))
def test_random_bytes_as_votes(data: bytes) -> None:
    _vote_or_rejects(data)


@given(st.text(max_size=300))
def test_random_text_as_votes(text: str) -> None:
    _vote_or_rejects(text)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_lines(VOTES))
def test_mutated_vote_lines(line: bytes) -> None:
    _vote_or_rejects(line)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_objects(VOTES))
def test_mutated_votes_agree_with_schema(obj: object) -> None:
    """What decode_vote accepts the vote schema accepts; what the schema rejects, decode_vote
    rejects (the decoder checks more: a voter does not accuse itself)."""
    try:
        data = canonical_bytes(obj)
    except LocalProtocolError:
        return
    vote = _vote_or_rejects(data)
    if vote is not None:
        assert VOTE.is_valid(obj), obj
    if not VOTE.is_valid(obj):
        assert vote is None, obj
