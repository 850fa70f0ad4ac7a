"""Fiat-Shamir transcript and the sigma proofs: Schnorr, DLEQ, re-encryption (SPEC 4.3-4.6).

Hazmat; pure. Every challenge in the project comes from one `FiatShamir` transcript: a domain
label per proof, every statement element and commitment appended with a label and a length
prefix, and the caller's context (game, hand, seat, previous entry hash) bound in first, so a
proof is valid for exactly one statement in exactly one place (strong Fiat-Shamir).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from p2pwillow.crypto.group import L, Point, scalar_to_bytes

FS_PROTOCOL = b"p2pwillow/v1/fiat-shamir"


def _frame(label: bytes, data: bytes) -> bytes:
    return len(label).to_bytes(4, "big") + label + len(data).to_bytes(8, "big") + data


class FiatShamir:
    """A running SHA-512 transcript (SPEC 4.3).

    Layout: frame("protocol", FS_PROTOCOL), frame("domain", label), frame("context", context),
    then every append as frame(label, data) with frame(l, d) = u32be(len l) || l || u64be(len d)
    || d. A challenge is SHA-512 of the transcript so far plus frame("challenge", label), read
    little-endian and reduced mod L; its 32-byte encoding is then appended under that label, so
    successive challenges differ and depend on each other.
    """

    __slots__ = ("_h",)

    def __init__(self, domain: bytes, context: bytes) -> None:
        self._h = hashlib.sha512()
        self._h.update(_frame(b"protocol", FS_PROTOCOL))
        self._h.update(_frame(b"domain", domain))
        self._h.update(_frame(b"context", context))

    def append(self, label: bytes, data: bytes) -> None:
        self._h.update(_frame(label, data))

    def append_point(self, label: bytes, point: Point) -> None:
        self._h.update(_frame(label, point.encoding))

    def append_points(self, label: bytes, points: Iterable[Point]) -> None:
        """A list of points: its length in a frame of its own, then each point."""
        pts = list(points)
        self._h.update(_frame(label, len(pts).to_bytes(8, "big")))
        for p in pts:
            self._h.update(_frame(label, p.encoding))

    def append_scalar(self, label: bytes, k: int) -> None:
        self._h.update(_frame(label, scalar_to_bytes(k)))

    def challenge(self, label: bytes) -> int:
        """A nonzero challenge scalar; feeds itself back into the transcript."""
        counter = 0
        while True:
            h = self._h.copy()
            suffix = b"" if counter == 0 else counter.to_bytes(4, "big")
            h.update(_frame(b"challenge", label + suffix))
            c = int.from_bytes(h.digest(), "little") % L
            if c:
                self.append(label, scalar_to_bytes(c))
                return c
            counter += 1  # pragma: no cover - probability 2^-252

    def challenges(self, label: bytes, n: int) -> list[int]:
        """n challenge scalars in one go, each derived under label || u32be(i)."""
        return [self.challenge(label + i.to_bytes(4, "big")) for i in range(n)]
