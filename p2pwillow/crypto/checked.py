"""What this process has checked and found valid, so that it checks the same bytes once.

Every session of an in-process table, an observer beside them and `willow verify` run in the
same process check every entry's signature and proofs; the second check of the same bytes
learns nothing the first did not, and the proofs are most of a hand's work. A check is
remembered only when it passed, by the SHA-256 of everything it reads: the check's name and
every part of its statement and proof (the context, each point's, ciphertext's and proof's
encoding), each part length-prefixed, so that a statement or proof that differs in any byte is
checked in full. The well-formedness checks (types, scalars in range) run before the digest is
looked up, every time. A bounded table (least recently used out first) keeps memory flat.

Pure but for this one table of digests, which changes no result: a remembered check is one
that passed. The benchmarks turn it off (`CHECKED.enabled`), as they measure the checks.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Sequence
from typing import Protocol, cast

from p2pwillow.crypto.group import Point

__all__ = ["CHECKED", "LIVE_CAPACITY", "Checked", "Encodable", "digest"]

CAPACITY = 16_384
"""Digests kept: the checks of some 70 hands of four players (about 230 a hand), 2.4 MB; what
an in-process table, its observers and `willow verify` in the same process check again."""
LIVE_CAPACITY = 1_024
"""Digests a live peer keeps (`willow host`, `join`, `bot`, `play`), 0.15 MB: it checks each
entry once, as it comes, so a bigger table would only grow its memory over its first hands
(the live.memory benchmark; SPEC 8.4, flat memory)."""


class Encodable(Protocol):
    def encode(self) -> bytes: ...


Part = bytes | bytearray | memoryview | Point | Encodable | Sequence[Point | Encodable]


def _one(item: Point | Encodable) -> bytes:
    return item.encoding if isinstance(item, Point) else item.encode()


def _bytes(part: Part) -> bytes:
    if isinstance(part, bytes | bytearray | memoryview):
        return bytes(part)
    if isinstance(part, Sequence):
        items = [_one(item) for item in cast("Sequence[Point | Encodable]", part)]
        return len(items).to_bytes(4, "big") + b"".join(
            len(item).to_bytes(4, "big") + item for item in items
        )
    return _one(part)


def digest(name: bytes, *parts: Part) -> bytes:
    """The SHA-256 of the check's name and its parts, each length-prefixed."""
    h = hashlib.sha256()
    for item in (name, *map(_bytes, parts)):
        h.update(len(item).to_bytes(4, "big"))
        h.update(item)
    return h.digest()


class Checked:
    """Digests of checks that passed."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self.capacity = capacity
        self.enabled = True
        self._seen: OrderedDict[bytes, None] = OrderedDict()

    def __contains__(self, key: bytes) -> bool:
        if not self.enabled or key not in self._seen:
            return False
        self._seen.move_to_end(key)
        return True

    def add(self, key: bytes) -> None:
        """Remember a check that passed."""
        if not self.enabled:
            return
        self._seen[key] = None
        self._seen.move_to_end(key)
        while len(self._seen) > self.capacity:
            self._seen.popitem(last=False)

    def clear(self) -> None:
        self._seen.clear()

    def __len__(self) -> int:
        return len(self._seen)


CHECKED = Checked()
"""The process's one table (see the module's docstring)."""
