"""The signatures one identity made in a game, by counter, packed (SPEC 6.4, 7.1, 8.4).

A seat signs its entries with counters one after another (each the last plus one), and keeps
every signature it made: the session refuses an entry in its name that is not one of them,
and the store's log of signed entries must hold each before anything is sent. This record grows
with the game, so it is packed: 64 bytes a counter in one bytearray from the first counter on,
where a dict of bytes takes about 160 (SPEC 8.4, "Flat memory"). A counter far from the others
(which a session never makes, but a log read back may hold) is kept in a small dict beside.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, MutableMapping

SIGNATURE_BYTES = 64
_ABSENT = bytes(SIGNATURE_BYTES)
MAX_GAP = 64
"""Counters missing between two held ones that are still packed (as empty slots)."""


class Signatures(MutableMapping[int, bytes]):
    """counter -> the 64-byte author signature of the entry signed with it."""

    __slots__ = ("_count", "_data", "_first", "_other")

    def __init__(self, items: Mapping[int, bytes] | Iterable[tuple[int, bytes]] = ()) -> None:
        self._first = 0
        self._data = bytearray()
        self._count = 0
        """Counters held in `_data`."""
        self._other: dict[int, bytes] = {}
        """Counters outside the packed run."""
        self.update(items)

    def _slots(self) -> int:
        return len(self._data) // SIGNATURE_BYTES

    def _slot(self, counter: int) -> int | None:
        i = counter - self._first
        return i if 0 <= i < self._slots() else None

    def _read(self, i: int) -> bytes:
        at = i * SIGNATURE_BYTES
        return bytes(self._data[at : at + SIGNATURE_BYTES])

    def __getitem__(self, counter: int) -> bytes:
        i = self._slot(counter)
        if i is None:
            return self._other[counter]
        sig = self._read(i)
        if sig == _ABSENT:
            raise KeyError(counter)
        return sig

    def __setitem__(self, counter: int, sig: bytes) -> None:
        if type(counter) is not int or counter < 0:
            raise ValueError(f"a counter is a non-negative int, not {counter!r}")
        if len(sig) != SIGNATURE_BYTES or sig == _ABSENT:
            raise ValueError("an author signature is 64 bytes, not all zero")
        if not self._data:
            self._first = counter
        i = counter - self._first
        slots = self._slots()
        if 0 <= i < slots:
            at = i * SIGNATURE_BYTES
            if self._data[at : at + SIGNATURE_BYTES] == _ABSENT:
                self._count += 1
            self._data[at : at + SIGNATURE_BYTES] = sig
        elif slots <= i <= slots + MAX_GAP:
            self._data += _ABSENT * (i - slots) + bytes(sig)
            self._count += 1
            # counters kept beside that the run now reaches move into it
            for c in [c for c in self._other if slots <= c - self._first < i]:
                self[c] = self._other.pop(c)
        else:
            self._other[counter] = bytes(sig)

    def __delitem__(self, counter: int) -> None:
        i = self._slot(counter)
        if i is None:
            del self._other[counter]
            return
        if self._read(i) == _ABSENT:
            raise KeyError(counter)
        at = i * SIGNATURE_BYTES
        self._data[at : at + SIGNATURE_BYTES] = _ABSENT
        self._count -= 1

    def __iter__(self) -> Iterator[int]:
        for i in range(self._slots()):
            if self._read(i) != _ABSENT:
                yield self._first + i
        yield from sorted(self._other)

    def __len__(self) -> int:
        return self._count + len(self._other)

    def __contains__(self, counter: object) -> bool:
        if type(counter) is not int:
            return False
        i = self._slot(counter)
        return counter in self._other if i is None else self._read(i) != _ABSENT

    @property
    def last(self) -> int:
        """The highest counter held; -1 if none is."""
        top = -1
        if self._count:
            i = self._slots() - 1
            while self._read(i) == _ABSENT:  # (deleted at the top: rare, short)
                i -= 1
            top = self._first + i
        return max(top, *self._other) if self._other else top

    def __repr__(self) -> str:
        return f"Signatures({len(self)} counters, last {self.last})"


__all__ = ["MAX_GAP", "SIGNATURE_BYTES", "Signatures"]
