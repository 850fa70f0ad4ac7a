"""Canonical JSON (SPEC 6.1): exact bytes, round trips, and every non-canonical form rejected."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pwillow.ledger import LocalProtocolError, Reason, RemoteProtocolError
from p2pwillow.ledger.canonical import (
    MAX_DEPTH,
    MAX_LINE_BYTES,
    MAX_SAFE_INTEGER,
    canonical_bytes,
    is_hex,
    parse_canonical,
)

KEY_ALPHABET = "ABCXYZabcxyz0189_.-"
keys = st.text(KEY_ALPHABET, min_size=1, max_size=8)
scalars = (
    st.none()
    | st.booleans()
    | st.integers(-MAX_SAFE_INTEGER, MAX_SAFE_INTEGER)
    | st.text(st.characters(codec="utf-8"), max_size=12)
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=20,
)


def test_exact_bytes() -> None:
    value = {"b": [1, -2, True, None], "a": 'é\n\x01"\\/\u2028\x7f', "B": {}}
    expected = '{"B":{},"a":"é\\n\\u0001\\"\\\\/\u2028\x7f","b":[1,-2,true,null]}'.encode()
    assert canonical_bytes(value) == expected
    assert parse_canonical(expected) == value


def test_tuples_encode_as_arrays() -> None:
    assert canonical_bytes({"x": (1, 2)}) == b'{"x":[1,2]}'


@given(json_values)
def test_round_trip(value: object) -> None:
    data = canonical_bytes(value)
    assert parse_canonical(data) == value
    assert canonical_bytes(parse_canonical(data)) == data


@given(json_values, st.sampled_from([{"indent": 1}, {"separators": (", ", ": ")}, {}]))
def test_other_encodings_rejected_unless_identical(value: object, style: dict[str, object]) -> None:
    # any other serialization of the same value is accepted only if it is byte-identical
    other = json.dumps(value, ensure_ascii=True, **style).encode()  # type: ignore[arg-type]
    if other == canonical_bytes(value):
        assert parse_canonical(other) == value
    else:
        with pytest.raises(RemoteProtocolError) as info:
            parse_canonical(other)
        assert info.value.reason is Reason.NON_CANONICAL


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b'{"a":1,"a":1}', Reason.NON_CANONICAL),  # duplicate key
        (b'{"b":1,"a":2}', Reason.NON_CANONICAL),  # unsorted keys
        (b'{"a": 1}', Reason.NON_CANONICAL),  # whitespace
        (b' {"a":1}', Reason.NON_CANONICAL),
        (b'{"a":1}\n', Reason.NON_CANONICAL),  # a terminator is not part of the encoding
        (b"1.0", Reason.NON_CANONICAL),  # float
        (b"1e2", Reason.NON_CANONICAL),
        (b"-0", Reason.NON_CANONICAL),
        (b"NaN", Reason.MALFORMED),
        (b"Infinity", Reason.MALFORMED),
        (b"-Infinity", Reason.MALFORMED),
        (b"9007199254740992", Reason.NON_CANONICAL),  # beyond 2^53 - 1
        (b"-9007199254740992", Reason.NON_CANONICAL),
        (b'"\\u00e9"', Reason.NON_CANONICAL),  # escaped where a literal is canonical
        (b'"\\/"', Reason.NON_CANONICAL),
        (b'"\\u000a"', Reason.NON_CANONICAL),  # \n is the canonical escape
        (b'"\\u001F"', Reason.NON_CANONICAL),  # uppercase hex escape
        (b'"\\ud800"', Reason.NON_CANONICAL),  # lone surrogate
        (b'{"":1}', Reason.NON_CANONICAL),  # bad keys
        (b'{"a b":1}', Reason.NON_CANONICAL),
        (b'{"\xc3\xa9":1}', Reason.NON_CANONICAL),
        (b"\xef\xbb\xbf{}", Reason.MALFORMED),  # BOM
        (b'"\xff"', Reason.MALFORMED),  # not UTF-8
        (b'"\xed\xa0\x80"', Reason.MALFORMED),  # UTF-8-encoded surrogate
        (b"", Reason.MALFORMED),
        (b"{", Reason.MALFORMED),
        (b"[1,]", Reason.MALFORMED),
        (b"01", Reason.MALFORMED),
        (b"1" * 5000, Reason.MALFORMED),  # too many digits for any integer
        (b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1), Reason.NON_CANONICAL),
        (b"[" * 100_000 + b"]" * 100_000, Reason.MALFORMED),
    ],
)
def test_rejected(data: bytes, reason: Reason) -> None:
    with pytest.raises(RemoteProtocolError) as info:
        parse_canonical(data)
    assert info.value.reason is reason


def test_depth_limit_is_inclusive() -> None:
    deepest = b"[" * MAX_DEPTH + b"]" * MAX_DEPTH
    assert canonical_bytes(parse_canonical(deepest)) == deepest


def test_size_limit() -> None:
    big = b'"' + b"a" * (MAX_LINE_BYTES - 2) + b'"'
    assert parse_canonical(big) == "a" * (MAX_LINE_BYTES - 2)
    with pytest.raises(RemoteProtocolError) as info:
        parse_canonical(b'"' + b"a" * (MAX_LINE_BYTES - 1) + b'"')
    assert info.value.reason is Reason.MALFORMED


def test_str_input_is_utf8_encoded() -> None:
    assert parse_canonical('{"a":"é"}') == {"a": "é"}
    with pytest.raises(RemoteProtocolError):
        parse_canonical('"\ud800"')


@pytest.mark.parametrize(
    "value",
    [1.5, float("nan"), 2**53, -(2**53), {"": 1}, {1: 2}, {"é": 1}, {1, 2}, b"ab", "\ud800"],
    ids=repr,
)
def test_local_values_outside_the_domain(value: object) -> None:
    with pytest.raises(LocalProtocolError):
        canonical_bytes(value)


def test_is_hex() -> None:
    assert is_hex("00ff", 4) and is_hex("") and is_hex("ab")
    assert not is_hex("00FF") and not is_hex("abc") and not is_hex("0x00")
    assert not is_hex("00ff", 6) and not is_hex(b"00") and not is_hex("éé")


# --- the parser against a plain reference: parse in full, check the domain, encode again ----------

_KEY = re.compile(r"[A-Za-z0-9_.\-]{1,64}")


class _Duplicate(Exception):
    pass


def _pairs(pairs: list[tuple[str, object]]) -> dict[str, object]:
    if len({k for k, _ in pairs}) != len(pairs):
        raise _Duplicate
    return dict(pairs)


def _in_domain(value: object, depth: int = 1) -> bool:
    if depth > MAX_DEPTH:
        return False
    if isinstance(value, bool) or value is None:
        return True
    if isinstance(value, int):
        return -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, list):
        return all(_in_domain(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(
            _KEY.fullmatch(k) is not None and _in_domain(v, depth + 1) for k, v in value.items()
        )
    return False


def _reference(data: bytes) -> tuple[bool, object]:
    """(accepted, value) by the rule of SPEC 6.1 read literally."""
    if len(data) > MAX_LINE_BYTES:
        return False, None
    try:
        value = json.loads(data.decode("utf-8"), object_pairs_hook=_pairs)
    except (ValueError, RecursionError, _Duplicate):
        return False, None
    if any(isinstance(v, float) for v in _leaves(value)) or not _in_domain(value):
        return False, None
    encoded = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    if encoded.encode("utf-8") != data:
        return False, None
    return True, value


def _leaves(value: object) -> list[object]:
    if isinstance(value, list):
        return [leaf for v in value for leaf in _leaves(v)]
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _leaves(v)]
    return [value]


def _parsed(data: bytes) -> tuple[bool, object]:
    try:
        return True, parse_canonical(data)
    except RemoteProtocolError:
        return False, None


_TWEAKS = [
    (b'"', b'"a":1,"'),  # a key again, or a new one
    (b":", b": "),
    (b",", b", "),
    (b"1", b"9007199254740992"),
    (b"1", b"-0"),
    (b"1", b"1.0"),
    (b'"a', b'"a b'),
    (b'"', b'"\\u00e9'),
    (b'"', b'"\\ud800'),
    (b"[", b"[" * 40),
    (b"]", b"]" * 40),
    (b"{", b'{"":1,'),
    (b"}", b',"a":2}'),
]


@given(json_values, st.lists(st.tuples(st.sampled_from(_TWEAKS), st.integers(0, 50)), max_size=3))
def test_the_parser_accepts_exactly_what_the_reference_accepts(
    value: object, tweaks: list[tuple[tuple[bytes, bytes], int]]
) -> None:
    data = canonical_bytes(value)
    for (old, new), nth in tweaks:
        at = -1
        for _ in range(nth % max(1, data.count(old)) + 1):
            at = data.find(old, at + 1)
        if at >= 0:
            data = data[:at] + new + data[at + len(old) :]
    assert _parsed(data) == _reference(data)


@given(st.binary(max_size=200))
def test_the_parser_and_the_reference_agree_on_random_bytes(data: bytes) -> None:
    assert _parsed(data) == _reference(data)


@pytest.mark.parametrize(
    "data",
    [
        b"[" * (MAX_DEPTH - 1) + b"1" + b"]" * (MAX_DEPTH - 1),
        b"[" * MAX_DEPTH + b"1" + b"]" * MAX_DEPTH,  # the 1 is one deeper than its array
        b"[" * (MAX_DEPTH + 1) + b"1" + b"]" * (MAX_DEPTH + 1),
        b'["' + b"[" * 40 + b'"]',  # brackets inside a string do not nest
        b'{"a":' * MAX_DEPTH + b"1" + b"}" * MAX_DEPTH,
        b'{"a":' * (MAX_DEPTH + 1) + b"1" + b"}" * (MAX_DEPTH + 1),
        b'[{"a":1,"a":1}]',
        b'[{"a b":1}]',
        b"[9007199254740991,-9007199254740991]",
        b"[9007199254740992]",
        b'[{"a":[9007199254740992]},1,]',  # out of range, then malformed
    ],
)
def test_the_parser_and_the_reference_agree_on_edges(data: bytes) -> None:
    assert _parsed(data) == _reference(data)


def test_a_syntax_error_after_a_value_out_of_the_domain_is_malformed() -> None:
    for data in (b"[9007199254740992,]", b'[{"a b":1},]'):
        with pytest.raises(RemoteProtocolError) as info:
            parse_canonical(data)
        assert info.value.reason is Reason.MALFORMED


@pytest.mark.parametrize(
    "data",
    [
        b'{"a":1,"a":1}',
        b'{"b":1,"a":2}',
        b'{"":1}',
        b'{"a.b-c":{"x":1,"x":2}}',
        b'[{"a":-0}]',
        b'{"a":9007199254740992}',
        b'{"a":1.5}',
        b'{"a":1e5}',
        b'{"a":NaN}',
        b'{"a":"\xc3\xa9","\xc3\xa9":1}',
        b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1),
        b'{"a":1}x',
    ],
)
def test_the_fast_path_leaves_every_non_canonical_input_to_the_exact_one(data: bytes) -> None:
    # input with no backslash and no whitespace is read without a second encoding: each way
    # such input can still be non-canonical must send it to the exact path, which refuses it
    from p2pwillow.ledger import canonical

    with pytest.raises(canonical._NotFast):
        canonical._fast(data.decode("utf-8"))
    assert _reference(data) == (False, None)
    with pytest.raises(RemoteProtocolError):
        parse_canonical(data)


def test_the_fast_path_reads_what_the_exact_one_reads() -> None:
    from p2pwillow.ledger import canonical

    data = b'{"a":[1,-2,true,null,"\xc3\xa9\xe2\x80\xa8"],"b":{},"c":"00ff"}'
    assert canonical._fast(data.decode("utf-8")) == _reference(data)[1] == parse_canonical(data)
