"""Typed fields: one declaration per field gives validation, JSON and JSON Schema (SPEC 6.10).

Pure; no I/O. A body kind, a nested record or a signed message is a frozen dataclass whose
fields carry a `FieldType` via `spec()`; `@kind("name")` makes a dataclass the body of an entry
kind (the registry of kinds is `kinds.KINDS`). Constructing a value validates it, so an invalid
value cannot exist; `from_json` turns any bad input into `RemoteProtocolError`.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from types import MappingProxyType
from typing import Any, ClassVar, TypeVar

from p2pwillow.ledger.canonical import (
    MAX_SAFE_INTEGER,
    JsonObject,
    JsonValue,
    canonical_bytes,
    is_hex,
)
from p2pwillow.ledger.errors import LocalProtocolError, Reason, RemoteProtocolError
from p2pwillow.limits import is_int


class FieldError(LocalProtocolError):
    """A field value is invalid; `path` names it (e.g. `body.players[2].seat`)."""

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(f"{path}: {problem}")


class FieldType:
    """How one field is checked, read from JSON, written to JSON and described as a schema."""

    __slots__ = ()

    def normalize(self, value: object, path: str) -> object:
        """Validate a Python value; return its canonical form (lists become tuples)."""
        raise NotImplementedError

    def decode(self, value: JsonValue, path: str) -> object:
        """Validate a decoded JSON value and return the Python value."""
        return self.normalize(value, path)

    def encode(self, value: Any) -> JsonValue:
        """The JSON value of a (valid) Python value."""
        result: JsonValue = value
        return result

    def schema(self) -> JsonObject:
        raise NotImplementedError


class Int(FieldType):
    __slots__ = ("hi", "lo")

    def __init__(self, lo: int = 0, hi: int = MAX_SAFE_INTEGER) -> None:
        self.lo, self.hi = lo, hi

    def normalize(self, value: object, path: str) -> object:
        if not is_int(value):
            raise FieldError(path, f"must be an integer, not {_typename(value)}")
        if not self.lo <= value <= self.hi:
            raise FieldError(path, f"must be {self.lo}..{self.hi}, not {value}")
        return value

    def decode(self, value: JsonValue, path: str) -> object:
        # what normalize checks, inline: every entry read from a peer has dozens of integers
        if type(value) is int and self.lo <= value <= self.hi:
            return value
        return self.normalize(value, path)  # raises, naming what is wrong

    def schema(self) -> JsonObject:
        return {"type": "integer", "minimum": self.lo, "maximum": self.hi}


class Hex(FieldType):
    """Bytes as lowercase hex: exactly `digits` digits, or an even number in lo..hi."""

    __slots__ = ("hi", "lo", "what")

    def __init__(self, what: str, lo: int, hi: int | None = None) -> None:
        self.what, self.lo, self.hi = what, lo, lo if hi is None else hi

    def normalize(self, value: object, path: str) -> object:
        if not is_hex(value):
            raise FieldError(path, f"{self.what} must be lowercase hex of even length")
        assert isinstance(value, str)
        if not self.lo <= len(value) <= self.hi:
            size = f"{self.lo}" if self.lo == self.hi else f"{self.lo}..{self.hi}"
            raise FieldError(path, f"{self.what} must be {size} hex digits, not {len(value)}")
        return value

    def decode(self, value: JsonValue, path: str) -> object:
        # normalize's checks inline (is_hex's round trip through bytes, then the length)
        if type(value) is str and self.lo <= len(value) <= self.hi:
            try:
                if bytes.fromhex(value).hex() == value:
                    return value
            except ValueError:
                pass
        return self.normalize(value, path)  # raises, naming what is wrong

    def schema(self) -> JsonObject:
        if self.lo == self.hi:
            return {"type": "string", "pattern": f"^[0-9a-f]{{{self.lo}}}$"}
        return {
            "type": "string",
            "pattern": "^([0-9a-f]{2})*$",
            "minLength": self.lo,
            "maxLength": self.hi,
        }


class Bytes(FieldType):
    """Bytes of one fixed length (a game id, a hash, a signature), lowercase hex on the wire."""

    __slots__ = ("size", "what")

    def __init__(self, what: str, size: int) -> None:
        self.what, self.size = what, size

    def normalize(self, value: object, path: str) -> object:
        if not isinstance(value, bytes) or len(value) != self.size:
            raise FieldError(path, f"{self.what} is {self.size} bytes")
        return value

    def decode(self, value: JsonValue, path: str) -> object:
        # is_hex(value, 2 * size), reading the digits once
        if isinstance(value, str) and len(value) == 2 * self.size:
            try:
                data = bytes.fromhex(value)
            except ValueError:
                pass
            else:
                if data.hex() == value:
                    return data
        raise FieldError(path, f"{self.what} must be {2 * self.size} lowercase hex digits")

    def encode(self, value: Any) -> JsonValue:
        data: bytes = value
        return data.hex()

    def schema(self) -> JsonObject:
        return {"type": "string", "pattern": f"^[0-9a-f]{{{2 * self.size}}}$"}


# Characters a name or reason may not hold: C0 and C1 controls, DEL, line and paragraph
# separators, and bidirectional overrides/isolates, so text shown on a screen cannot hide or
# reorder what is around it (SPEC 6.10).
TEXT_FORBIDDEN = (
    "\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069"  # regex body
)
_TEXT_BAD = re.compile(f"[{TEXT_FORBIDDEN}]")


def _unicode(value: str, path: str) -> str:
    """The text itself if it is Unicode scalar values only (SPEC 6.1: no lone surrogates)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise FieldError(path, "holds a lone surrogate") from None
    return value


class Text(FieldType):
    """Unicode text of lo..hi code points without control or bidi-control characters."""

    __slots__ = ("hi", "lo")

    def __init__(self, lo: int, hi: int) -> None:
        self.lo, self.hi = lo, hi

    def normalize(self, value: object, path: str) -> object:
        if not isinstance(value, str):
            raise FieldError(path, f"must be a string, not {_typename(value)}")
        if not self.lo <= len(value) <= self.hi:
            raise FieldError(path, f"must be {self.lo}..{self.hi} characters long")
        if _TEXT_BAD.search(value):
            raise FieldError(path, "holds a control or bidirectional-control character")
        return _unicode(value, path)

    def schema(self) -> JsonObject:
        return {
            "type": "string",
            "minLength": self.lo,
            "maxLength": self.hi,
            "pattern": f"^[^{TEXT_FORBIDDEN}]*$",
        }


class Words(FieldType):
    """Any Unicode text of at most `hi` code points (no lone surrogates): a message for a
    player, never a name on the table."""

    __slots__ = ("hi",)

    def __init__(self, hi: int) -> None:
        self.hi = hi

    def normalize(self, value: object, path: str) -> object:
        if not isinstance(value, str) or len(value) > self.hi:
            raise FieldError(path, f"must be text of at most {self.hi} characters")
        return _unicode(value, path)

    def schema(self) -> JsonObject:
        return {"type": "string", "maxLength": self.hi}


class OneOf(FieldType):
    __slots__ = ("values",)

    def __init__(self, *values: str) -> None:
        self.values = values

    def normalize(self, value: object, path: str) -> object:
        if not isinstance(value, str) or value not in self.values:
            raise FieldError(path, f"must be one of {', '.join(self.values)}")
        return value

    def schema(self) -> JsonObject:
        values: list[JsonValue] = list(self.values)
        return {"type": "string", "enum": values}


class Choice(FieldType):
    """A member of an enum, by its string value on the wire."""

    __slots__ = ("cls", "what")

    def __init__(self, cls: type[Enum], what: str) -> None:
        self.cls, self.what = cls, what

    def normalize(self, value: object, path: str) -> object:
        if not isinstance(value, self.cls):
            raise FieldError(path, f"{value!r} is not {self.what}")
        return value

    def decode(self, value: JsonValue, path: str) -> object:
        for member in self.cls:
            if member.value == value and isinstance(value, str):
                return member
        raise FieldError(path, f"is not {self.what}")

    def encode(self, value: Any) -> JsonValue:
        member: Enum = value
        text: str = member.value
        return text

    def schema(self) -> JsonObject:
        values: list[JsonValue] = [*sorted(str(member.value) for member in self.cls)]
        return {"type": "string", "enum": values}


class ListOf(FieldType):
    """An array of lo..hi items; `increasing_by` ("" for the item itself, else a record field)
    demands strictly increasing items, which also makes them distinct."""

    __slots__ = ("hi", "increasing_by", "item", "lo")

    def __init__(
        self, item: FieldType, lo: int, hi: int, *, increasing_by: str | None = None
    ) -> None:
        self.item, self.lo, self.hi, self.increasing_by = item, lo, hi, increasing_by

    def _items(self, value: object, path: str, read: Callable[[Any, str], object]) -> object:
        if not isinstance(value, list | tuple):
            raise FieldError(path, f"must be an array, not {_typename(value)}")
        if not self.lo <= len(value) <= self.hi:
            raise FieldError(path, f"must have {self.lo}..{self.hi} items, not {len(value)}")
        items = tuple(read(v, f"{path}[{i}]") for i, v in enumerate(value))
        if self.increasing_by is not None:
            attr = self.increasing_by
            keys: list[Any] = [getattr(v, attr) if attr else v for v in items]
            if any(a >= b for a, b in itertools.pairwise(keys)):
                what = f"by {attr}" if attr else ""
                raise FieldError(path, f"items must be strictly increasing {what}".rstrip())
        return items

    def normalize(self, value: object, path: str) -> object:
        return self._items(value, path, self.item.normalize)

    def decode(self, value: JsonValue, path: str) -> object:
        if type(value) is list and self.lo <= len(value) <= self.hi and self.increasing_by is None:
            read = self.item.decode
            try:
                # one path for every item: a list of a deck's cards has 52, and the exact
                # path of each is needed only to name the one that is wrong
                return tuple([read(v, path) for v in value])
            except FieldError:
                pass  # read again item by item below, which names the wrong one
        return self._items(value, path, self.item.decode)

    def encode(self, value: Any) -> JsonValue:
        return [self.item.encode(v) for v in value]

    def schema(self) -> JsonObject:
        out: JsonObject = {
            "type": "array",
            "items": self.item.schema(),
            "minItems": self.lo,
            "maxItems": self.hi,
        }
        if self.increasing_by == "":
            out["uniqueItems"] = True
        return out


V = TypeVar("V", bound="Value")


class RecordOf(FieldType):
    """A nested record: a JSON object read into a `Value` dataclass."""

    __slots__ = ("cls",)

    def __init__(self, cls: type[Value]) -> None:
        self.cls = cls

    def normalize(self, value: object, path: str) -> object:
        if not isinstance(value, self.cls):
            raise FieldError(path, f"must be a {self.cls.__name__}, not {_typename(value)}")
        return value

    def decode(self, value: JsonValue, path: str) -> object:
        return self.cls._decode(value, path)

    def encode(self, value: Any) -> JsonValue:
        assert isinstance(value, Value)
        return value.to_json()

    def schema(self) -> JsonObject:
        return self.cls.object_schema()


def _freeze(value: JsonValue) -> object:
    if isinstance(value, dict):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


def thaw(value: object) -> JsonValue:
    """A frozen JSON value (read-only mappings, tuples) back to plain dicts and lists."""
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [thaw(v) for v in value]
    assert value is None or isinstance(value, str | int | bool)
    return value


class AnyObject(FieldType):
    """Any canonical JSON object, kept read-only (e.g. the table config the rules define)."""

    __slots__ = ()

    def normalize(self, value: object, path: str) -> object:
        if not isinstance(value, Mapping):
            raise FieldError(path, f"must be an object, not {_typename(value)}")
        plain = thaw(value) if isinstance(value, MappingProxyType) else value
        try:
            canonical_bytes(plain)
        except LocalProtocolError as exc:
            raise FieldError(path, str(exc)) from None
        return _freeze(thaw(plain))

    def encode(self, value: Any) -> JsonValue:
        return thaw(value)

    def schema(self) -> JsonObject:
        return {"type": "object"}


def _typename(value: object) -> str:
    names = {bool: "boolean", int: "integer", str: "string", list: "array", dict: "object"}
    if value is None:
        return "null"
    return names.get(type(value), type(value).__name__)


def spec(field_type: FieldType, *, hash: bool | None = None) -> Any:
    """Declare a dataclass field's type: `amount: int = spec(CHIPS)`.

    hash=False leaves an unhashable field (a read-only mapping) out of the value's hash.
    """
    return dataclasses.field(metadata={"ledger": field_type}, hash=hash)


class Value:
    """Base of bodies and nested records: validated at construction, JSON both ways."""

    __slots__ = ()
    FIELDS: ClassVar[Mapping[str, FieldType]] = MappingProxyType({})

    def __post_init__(self) -> None:
        for name, field_type in self.FIELDS.items():
            normal = field_type.normalize(getattr(self, name), name)
            object.__setattr__(self, name, normal)
        self.check()

    def check(self) -> None:
        """Rules across fields; raise FieldError. Override where needed."""

    _READERS: ClassVar[tuple[tuple[str, Callable[[JsonValue, str], object], str], ...]] = ()
    """(name, its field type's decode, ".name") of each field, made by `record`."""

    def to_json(self) -> JsonObject:
        return {name: ft.encode(getattr(self, name)) for name, ft in self.FIELDS.items()}

    @classmethod
    def _decode(cls: type[V], value: JsonValue, path: str) -> V:
        if not isinstance(value, dict):
            raise FieldError(path, f"must be an object, not {_typename(value)}")
        if value.keys() != cls.FIELDS.keys():
            missing = sorted(set(cls.FIELDS) - set(value))
            extra = sorted(set(value) - set(cls.FIELDS))
            if missing:
                raise FieldError(path, f"missing field(s) {', '.join(missing)}")
            raise FieldError(path, f"unknown field(s) {', '.join(extra)}")
        # Decoding validated every field already: set them without normalizing twice.
        obj = object.__new__(cls)
        put = object.__setattr__
        for name, read, dotted in cls._READERS:
            put(obj, name, read(value[name], path + dotted))
        if cls.check is not Value.check:
            try:
                obj.check()
            except FieldError as exc:
                raise FieldError(f"{path}.{exc.path}", exc.problem) from None
        return obj

    @classmethod
    def from_json(cls: type[V], value: JsonValue) -> V:
        """Read a decoded JSON object; any problem is a RemoteProtocolError (BAD_FIELD)."""
        try:
            return cls._decode(value, "body")
        except FieldError as exc:
            raise RemoteProtocolError(Reason.BAD_FIELD, str(exc)) from None

    @classmethod
    def object_schema(cls) -> JsonObject:
        required: list[JsonValue] = [*sorted(cls.FIELDS)]
        return {
            "type": "object",
            "properties": {name: ft.schema() for name, ft in cls.FIELDS.items()},
            "required": required,
            "additionalProperties": False,
        }


class Body(Value):
    """An entry body; each kind is a subclass named by its `KIND` (see `kind`)."""

    __slots__ = ()
    KIND: ClassVar[str] = ""


T = TypeVar("T", bound=Value)


def record(cls: type[T]) -> type[T]:
    """Collect a dataclass's declared field types (for nested records and bodies)."""
    fields: dict[str, FieldType] = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        field_type = f.metadata.get("ledger")
        if not isinstance(field_type, FieldType):
            raise TypeError(f"{cls.__name__}.{f.name} needs spec(FieldType)")
        fields[f.name] = field_type
    cls.FIELDS = MappingProxyType(fields)
    cls._READERS = tuple((name, ft.decode, f".{name}") for name, ft in fields.items())
    return cls


B = TypeVar("B", bound=Body)


def kind(name: str) -> Callable[[type[B]], type[B]]:
    """Class decorator: make a Body dataclass the body of entry kind `name` (its fields
    declared with `spec`). The registry of every kind is `kinds.KINDS`, listed there."""

    def wrap(cls: type[B]) -> type[B]:
        record(cls)
        cls.KIND = name
        return cls

    return wrap


def plain_kind(name: str, fields: Sequence[tuple[str, FieldType]], doc: str) -> type[Body]:
    """The body of entry kind `name` that carries nothing but these fields: a plain decision
    of the action table, made from its row (the registry of every kind is assembled where the
    rows are known, `p2pwillow.entries`)."""
    cls = dataclasses.make_dataclass(
        "".join(part.title() for part in name.split("_")),
        [(field, int, spec(field_type)) for field, field_type in fields],
        bases=(Body,),
        frozen=True,
        slots=True,
    )
    cls.__doc__ = doc
    cls.__module__ = __name__
    return kind(name)(cls)


def registry(*bodies: type[Body]) -> Mapping[str, type[Body]]:
    """The read-only registry of these body kinds by name; TypeError on a kind without a
    name or a name given twice."""
    out: dict[str, type[Body]] = {}
    for cls in bodies:
        if not cls.KIND or cls.KIND in out:
            raise TypeError(f"{cls.__name__}: entry kind {cls.KIND!r} is unnamed or taken")
        out[cls.KIND] = cls
    return MappingProxyType(out)


__all__ = [
    "AnyObject",
    "Body",
    "Bytes",
    "Choice",
    "FieldError",
    "FieldType",
    "Hex",
    "Int",
    "ListOf",
    "OneOf",
    "RecordOf",
    "Text",
    "Value",
    "Words",
    "kind",
    "plain_kind",
    "record",
    "registry",
    "spec",
    "thaw",
]
