"""The canonical JSON encoding every entry is signed, hashed and stored in (SPEC 6.1).

Pure; no I/O. `canonical_bytes` encodes a value; `parse_canonical` accepts exactly the bytes
`canonical_bytes` would produce for the value they decode to, and nothing else.
"""

from __future__ import annotations

import json
import re
from typing import NoReturn, TypeAlias

from p2pwillow.ledger.errors import LocalProtocolError, Reason, RemoteProtocolError

JsonValue: TypeAlias = "dict[str, JsonValue] | list[JsonValue] | str | int | bool | None"
JsonObject: TypeAlias = "dict[str, JsonValue]"

MAX_SAFE_INTEGER = 2**53 - 1
"""Integers are limited to +-(2^53 - 1), so every JSON implementation reads them exactly."""

MAX_DEPTH = 32
"""Objects and arrays nest at most this deep (an entry inside an equivocation proof is 4 deep)."""

MAX_LINE_BYTES = 1 << 20
"""An encoded entry is at most 1 MiB."""

KEY_PATTERN = r"^[A-Za-z0-9_.\-]{1,64}$"
_KEY = re.compile(r"[A-Za-z0-9_.\-]{1,64}")


class _Rejected(Exception):
    """Internal: a value outside the canonical domain; carries the reason text."""


class _Refused:
    """Internal: what the parser's hooks put in place of an integer or an object outside the
    canonical domain; encoding it again raises _Rejected with the reason."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason


def _check(value: object, depth: int) -> None:
    """Raise _Rejected unless value is in the canonical domain (SPEC 6.1)."""
    if depth > MAX_DEPTH:
        raise _Rejected(f"nested deeper than {MAX_DEPTH}")
    # bool before int: bool is a subclass of int in Python
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, int):
        if not -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
            raise _Rejected("integer outside +-(2^53 - 1)")
        return
    if isinstance(value, str):
        _check_text(value)
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str) or _KEY.fullmatch(key) is None:
                raise _Rejected(f"object key {key!r} is not 1-64 of A-Z a-z 0-9 _ . -")
            _check(item, depth + 1)
        return
    if isinstance(value, list | tuple):
        for item in value:
            _check(item, depth + 1)
        return
    if isinstance(value, float):
        raise _Rejected("numbers are integers only")
    if isinstance(value, _Refused):
        raise _Rejected(value.reason)
    raise _Rejected(f"{type(value).__name__} is not a JSON value")


def _check_text(text: str) -> None:
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise _Rejected("string holds a lone surrogate") from None


_ENCODER = json.JSONEncoder(
    ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False
)
"""What `json.dumps` builds for these options on every call, built once."""


def dump_checked(value: object) -> bytes:
    """canonical_bytes without the domain check, for values built from validated fields."""
    return _ENCODER.encode(value).encode("utf-8")


def canonical_bytes(value: object) -> bytes:
    """The canonical encoding of a JSON value (dicts, lists or tuples, str, int, bool, None).

    Raises LocalProtocolError for anything outside the canonical domain (floats, huge integers,
    bad keys, lone surrogates, too deep).
    """
    try:
        _check(value, 1)
    except _Rejected as exc:
        raise LocalProtocolError(f"cannot encode canonically: {exc}") from None
    return dump_checked(value)


# --- parsing -------------------------------------------------------------------------------------
# parse_canonical accepts `data` only if it is the canonical encoding of what it parses to. The
# parser (json's C scanner) checks the syntax; the domain is checked as it parses, cheaply: an
# integer out of range and an object with a bad key become a _Refused mark (so a syntax error
# later in the input is still reported as malformed, as it would be by a parse then a check),
# and encoding the value again, which must give back the input byte for byte, raises on a mark.
# That comparison also refuses duplicate keys (the parsed object holds one of them, so its
# encoding is shorter), lone surrogates (a valid UTF-8 input holds none, so the encoding of a
# parsed one differs from it), other escapes, whitespace and key order. Depth alone is not seen
# by the round trip: a value inside fewer than MAX_DEPTH brackets and braces is at most
# MAX_DEPTH deep (the outermost value is at depth 1), and any other input is walked in full by
# _check.

_GOOD_KEYS: set[str] = set()
"""Object keys found valid so far (keys repeat from entry to entry), kept up to a bound."""
_GOOD_KEYS_BOUND = 4096


def _new_good_key(key: str) -> bool:
    """Whether `key`, not in _GOOD_KEYS, is a valid object key (kept there if so)."""
    if _KEY.fullmatch(key) is None:
        return False
    if len(_GOOD_KEYS) < _GOOD_KEYS_BOUND:
        _GOOD_KEYS.add(key)
    return True


def _object(obj: dict[str, JsonValue]) -> dict[str, JsonValue] | _Refused:
    good = _GOOD_KEYS
    for key in obj:
        if key not in good and not _new_good_key(key):
            return _Refused(f"object key {key!r} is not 1-64 of A-Z a-z 0-9 _ . -")
    return obj


def _integer(text: str) -> int | _Refused:
    value = int(text)  # ValueError for thousands of digits: malformed, as json's own int()
    if not -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
        return _Refused("integer outside +-(2^53 - 1)")
    return value


def _no_float(text: str) -> NoReturn:
    raise _Rejected(f"numbers are integers only, not {text[:20]!r}")


def _no_constant(text: str) -> NoReturn:
    # NaN and Infinity are not JSON at all (SPEC 6.11 "malformed"), not merely non-canonical.
    raise ValueError(f"{text} is not JSON")


def _refuse(value: object) -> NoReturn:
    if isinstance(value, _Refused):
        raise _Rejected(value.reason)
    raise _Rejected(f"{type(value).__name__} is not a JSON value")  # pragma: no cover


_DECODER = json.JSONDecoder(
    object_hook=_object, parse_int=_integer, parse_float=_no_float, parse_constant=_no_constant
)
_CHECKER = json.JSONEncoder(
    ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False, default=_refuse
)

# The fast path. Most input (every entry a peer sends) holds no backslash and no whitespace
# byte. Then its strings are literal, and no string can hold a character the encoder escapes:
# a quote or a backslash would need a backslash, and the scanner refuses a control character.
# Such input is canonical exactly if every object's keys are valid and strictly increasing
# (sorted, no duplicates), every integer is in range and not written "-0", and it holds no
# float and is not nested too deep. The hooks below check those as it parses, so no second
# encoding is needed. Anything they refuse, and any input with a backslash or whitespace,
# goes the exact way above, which names what is wrong.


class _NotFast(Exception):
    """Internal: the fast path cannot accept this input; the exact path decides."""


def _sorted_object(pairs: list[tuple[str, JsonValue]]) -> dict[str, JsonValue]:
    good = _GOOD_KEYS
    previous = ""  # below every valid key: the empty key is not one
    for key, _ in pairs:
        if key <= previous or (key not in good and not _new_good_key(key)):
            raise _NotFast
        previous = key
    return dict(pairs)


def _fast_integer(text: str) -> int:
    value = int(text)
    if not -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER or text == "-0":
        raise _NotFast
    return value


_FAST_DECODER = json.JSONDecoder(
    object_pairs_hook=_sorted_object,
    parse_int=_fast_integer,
    parse_float=_no_float,
    parse_constant=_no_constant,
)


def _fast(text: str) -> JsonValue:
    """The value of `text` if the fast path proves it canonical; _NotFast if it cannot."""
    if "\\" in text or " " in text or "\n" in text or "\t" in text or "\r" in text:
        raise _NotFast
    try:
        value: JsonValue = _FAST_DECODER.decode(text)
        if len(text) >= 2 * MAX_DEPTH and text.count("[") + text.count("{") >= MAX_DEPTH:
            _check(value, 1)
    except (ValueError, RecursionError, _Rejected):
        raise _NotFast from None
    return value


def parse_canonical(data: bytes | str) -> JsonValue:
    """Decode canonical JSON; raise RemoteProtocolError unless `data` is exactly canonical.

    `data` is the encoding itself, without a line terminator.
    """
    if isinstance(data, str):
        try:
            raw = data.encode("utf-8")
        except UnicodeEncodeError:
            raise RemoteProtocolError(Reason.MALFORMED, "text holds a lone surrogate") from None
    elif isinstance(data, bytes | bytearray | memoryview):
        raw = bytes(data)
    else:
        raise RemoteProtocolError(Reason.MALFORMED, f"expected bytes, not {type(data).__name__}")
    if len(raw) > MAX_LINE_BYTES:
        raise RemoteProtocolError(Reason.MALFORMED, f"longer than {MAX_LINE_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RemoteProtocolError(Reason.MALFORMED, "not UTF-8") from None
    try:
        return _fast(text)
    except _NotFast:
        pass
    try:
        value: JsonValue = _DECODER.decode(text)
        if raw.count(b"[") + raw.count(b"{") >= MAX_DEPTH:
            _check(value, 1)
        again = _CHECKER.encode(value)
    except _Rejected as exc:
        raise RemoteProtocolError(Reason.NON_CANONICAL, str(exc)) from None
    except RecursionError:
        raise RemoteProtocolError(Reason.MALFORMED, "nested too deeply") from None
    except ValueError as exc:
        # json.JSONDecodeError, and int() refusing thousands of digits
        raise RemoteProtocolError(Reason.MALFORMED, f"not JSON: {exc}") from None
    # `text` is valid UTF-8, so equal text means equal bytes (and no lone surrogate)
    if again != text:
        raise RemoteProtocolError(
            Reason.NON_CANONICAL,
            "not in canonical form (key order, whitespace, escapes or number form)",
        )
    return value


def is_hex(text: object, length: int | None = None) -> bool:
    """True if text is lowercase hex of an even length (exactly `length` digits if given)."""
    if not isinstance(text, str) or (length is not None and len(text) != length):
        return False
    # bytes.fromhex runs in C (a regular expression is some 50 times slower on long proofs); it
    # also takes uppercase digits and spaces, which the round trip then refuses
    try:
        return bytes.fromhex(text).hex() == text
    except ValueError:
        return False


__all__ = [
    "KEY_PATTERN",
    "MAX_DEPTH",
    "MAX_LINE_BYTES",
    "MAX_SAFE_INTEGER",
    "JsonObject",
    "JsonValue",
    "canonical_bytes",
    "dump_checked",
    "is_hex",
    "parse_canonical",
]
