"""Between ledger bodies (lowercase hex) and the crypto values the mental-poker checks take.

Pure; no I/O. Every decoding failure becomes `Rejected` with the field that was wrong; the
session turns it into a `RemoteProtocolError` naming the entry (SPEC 6.11).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from p2pwillow.crypto.elgamal import Ciphertext
from p2pwillow.crypto.group import Point
from p2pwillow.ledger.errors import Reason

T = TypeVar("T")


class Rejected(Exception):
    """Internal to the session: why an entry cannot be applied, before it is located."""

    def __init__(self, reason: Reason, detail: str) -> None:
        self.reason = reason
        self.detail = detail
        super().__init__(f"{reason.value}: {detail}")


def decode(parse: Callable[[str], T], text: str, what: str) -> T:
    """parse(text), or Rejected(bad-field) naming `what` (a point off the curve, bad length)."""
    try:
        return parse(text)
    except (ValueError, TypeError) as exc:
        raise Rejected(Reason.BAD_FIELD, f"{what}: {exc}") from None


def point(text: str, what: str) -> Point:
    return decode(Point.decode_hex, text, what)


def ciphertexts(texts: Sequence[str], what: str) -> tuple[Ciphertext, ...]:
    return tuple(decode(Ciphertext.from_hex, t, f"{what}[{i}]") for i, t in enumerate(texts))


def hexes(values: Sequence[Ciphertext]) -> list[str]:
    return [value.hex() for value in values]


class HexValue(Protocol):
    def hex(self) -> str: ...


class MadeValues:
    """The crypto values a player's session put into its own entries, by their hex text.

    When the session applies one of its own entries it takes these values as it made them
    instead of decoding and validating again what it computed itself (SPEC 7.1); every other
    text, and every entry of an observer, is decoded and validated in full.
    """

    __slots__ = ("_values",)

    def __init__(self) -> None:
        self._values: dict[str, object] = {}

    def clear(self) -> None:
        """Forget the values of the last hand (a session calls this when a hand starts)."""
        self._values.clear()

    def hex(self, value: HexValue) -> str:
        """value.hex(), remembered as made here."""
        text = value.hex()
        # The identity is never a valid field value (SPEC 4.2): it is not remembered, so a
        # made identity still fails to decode, as it would at every other peer.
        if not _holds_identity(value):
            self._values[text] = value
        return text

    def hexes(self, values: Sequence[Ciphertext]) -> list[str]:
        return [self.hex(value) for value in values]

    def decode(self, cls: type[T], parse: Callable[[str], T], text: str, what: str) -> T:
        """The value made here under this text, else parse(text) as `decode` does."""
        made = self._values.get(text)
        if isinstance(made, cls):
            return made
        return decode(parse, text, what)

    def point(self, text: str, what: str) -> Point:
        return self.decode(Point, Point.decode_hex, text, what)

    def ciphertexts(self, texts: Sequence[str], what: str) -> tuple[Ciphertext, ...]:
        return tuple(
            self.decode(Ciphertext, Ciphertext.from_hex, t, f"{what}[{i}]")
            for i, t in enumerate(texts)
        )


def _holds_identity(value: HexValue) -> bool:
    if isinstance(value, Point):
        return value.is_identity
    if isinstance(value, Ciphertext):
        return value.c1.is_identity or value.c2.is_identity
    return False
