"""Between ledger bodies (lowercase hex) and the crypto values the mental-poker checks take.

Pure; no I/O. Every decoding failure becomes `Rejected` with the field that was wrong; the
session turns it into a `RemoteProtocolError` naming the entry (SPEC 6.11).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

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
