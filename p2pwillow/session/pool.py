"""The authored entries a peer holds that are not sequenced yet (SPEC 7.1). Pure; no I/O.

Every player sends its authored entries to every peer, so each peer can tell a seat that did
not act from a sequencer that sits on what the seat sent (SPEC 7.5). A `Pool` keeps them for the
current hand, a few per author: it takes an entry after the cheap checks (its hand, an author
that holds a seat, a counter above the author's last in the chain) and verifies a signature
only when the entry is about to count for something (a vote, a resend), or to make room.
"""

from __future__ import annotations

from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.chain import Ledger
from p2pwillow.ledger.entry import AuthoredEntry, Entry

PER_AUTHOR = 4
"""Authored entries kept per author: its newest, by counter (SPEC 7.1)."""


def author_key(authored: AuthoredEntry | Entry, ledger: Ledger) -> bytes | None:
    """The identity key `authored` must be signed with: the one its `join` names, else the key
    of its author's seat (None if that seat is empty)."""
    body = authored.body
    if isinstance(body, k.Join):
        return bytes.fromhex(body.identity_key)
    return ledger.identities.get(authored.author)


def hand_of(kind: str, ledger: Ledger) -> int:
    """The hand number an authored entry of `kind` made now carries: the next hand for a
    `hand_start`, the current one for every other kind (SPEC 6.6)."""
    return ledger.hand + 1 if kind == k.HandStart.KIND else ledger.hand


class Pool:
    """Authored entries of the current hand (and the next hand's `hand_start`), not yet in
    the chain, at most PER_AUTHOR per author."""

    __slots__ = ("_arrived", "_by_sig", "_hand", "_verified")

    def __init__(self) -> None:
        self._by_sig: dict[bytes, AuthoredEntry] = {}
        self._verified: dict[bytes, bool] = {}
        self._arrived: dict[bytes, float] = {}
        """sig -> when the entry first arrived (the clock's time, SPEC 7.9)"""
        self._hand = -1

    def __len__(self) -> int:
        return len(self._by_sig)

    def take(self, authored: AuthoredEntry, ledger: Ledger, at: float = 0.0) -> bool:
        """Keep `authored` if it may still be sequenced in this hand; True if it is new here.
        `at`: when it arrived (or was made, for the local seat's own), by the clock."""
        self._follow(ledger)
        key = author_key(authored, ledger)
        if (
            authored.hand != hand_of(authored.kind, ledger)
            or key is None
            or authored.counter <= ledger.last_counter(key)
            or authored.sig in self._by_sig
        ):
            return False
        self._by_sig[authored.sig] = authored
        self._arrived[authored.sig] = at
        mine = [e for e in self._by_sig.values() if e.author == authored.author]
        if len(mine) > PER_AUTHOR:
            # make room: entries that do not verify go first (a peer cannot evict another's
            # genuine entries by sending forgeries in its name), then the oldest counters
            for e in mine:
                if not self.verified(e, key):
                    self._drop(e.sig)
            mine = sorted((e for e in mine if e.sig in self._by_sig), key=lambda e: e.counter)
            for e in mine[:-PER_AUTHOR]:
                self._drop(e.sig)
        return authored.sig in self._by_sig

    def applied(self, entry: Entry, ledger: Ledger) -> None:
        """`entry` joined the chain: drop it and every entry of its author it makes stale."""
        if self._by_sig:
            self._drop(entry.sig)
            stale = [e.sig for e in self._by_sig.values() if e.author == entry.author]
            for sig in stale:
                e = self._by_sig[sig]
                key = author_key(e, ledger)
                if key is None or e.counter <= ledger.last_counter(key):
                    self._drop(sig)
        self._follow(ledger)

    def discard(self, sig: bytes) -> None:
        """Forget the entry with this signature (its author's refusal was taken as true)."""
        self._drop(sig)

    def entries(self, author: int | None = None) -> tuple[AuthoredEntry, ...]:
        """The entries held (of `author`, if given), oldest counter first."""
        held = [e for e in self._by_sig.values() if author is None or e.author == author]
        return tuple(sorted(held, key=lambda e: (e.author, e.counter)))

    def arrived(self, authored: AuthoredEntry) -> float:
        """When `authored` first arrived here (the clock's time when it was taken)."""
        return self._arrived.get(authored.sig, 0.0)

    def verified(self, authored: AuthoredEntry, key: bytes) -> bool:
        """Whether `authored` is signed under `key` (checked once, then remembered)."""
        known = self._verified.get(authored.sig)
        if known is None:
            known = self._verified[authored.sig] = authored.verify(key)
        return known

    def _drop(self, sig: bytes) -> None:
        self._by_sig.pop(sig, None)
        self._verified.pop(sig, None)
        self._arrived.pop(sig, None)

    def _follow(self, ledger: Ledger) -> None:
        """A new hand: what was held for the last one can no longer be sequenced."""
        if self._hand != ledger.hand:
            self._by_sig.clear()
            self._verified.clear()
            self._arrived.clear()
            self._hand = ledger.hand


__all__ = ["PER_AUTHOR", "Pool", "author_key", "hand_of"]
