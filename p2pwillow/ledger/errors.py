"""The ledger's error family: one exception for bad input from a peer, one for our own misuse.

Pure; no I/O. Every malformed or unverifiable entry becomes a `RemoteProtocolError` (SPEC 6).
"""

from __future__ import annotations

import enum


class Reason(enum.StrEnum):
    """Why an entry was rejected: a stable, machine-readable code (SPEC 6.11)."""

    MALFORMED = "malformed"
    """Not UTF-8, not JSON, too large or too deeply nested."""
    NON_CANONICAL = "non-canonical"
    """Valid JSON, but not the canonical encoding of its value (SPEC 6.1)."""
    BAD_VERSION = "bad-version"
    UNKNOWN_KIND = "unknown-kind"
    BAD_FIELD = "bad-field"
    """A missing, extra or ill-typed field, bad hex, a value out of range."""
    BAD_SIGNATURE = "bad-signature"
    """The author's signature does not verify."""
    BAD_COUNTERSIGNATURE = "bad-countersignature"
    """The sequencer's countersignature does not verify."""
    UNKNOWN_AUTHOR = "unknown-author"
    WRONG_GAME = "wrong-game"
    WRONG_SEQ = "wrong-seq"
    WRONG_PREV = "wrong-prev"
    WRONG_HAND = "wrong-hand"
    BAD_SEATING = "bad-seating"
    """Genesis, seat or join entries that break the seating rules (SPEC 6.6)."""
    REPLAYED = "replayed"
    """The author's counter is not above the last one of its identity in the chain: a signed
    entry placed again (SPEC 6.5)."""
    WRONG_SEEN = "wrong-seen"
    """`seen` names no entry the entry may follow from: not one of the current hand, or for a
    head signature not one at or after the head it signs (SPEC 6.5)."""
    BAD_VOTE = "bad-vote"
    """A witness vote (SPEC 7.5) that does not verify, or by a seat that does not vote now."""
    NOT_EQUIVOCATION = "not-equivocation"
    """An equivocation proof that proves nothing (SPEC 6.8)."""
    BAD_CLAIM = "bad-claim"
    """A `false_claim` or `table_stop` whose claim is no remedy signed for a place in this hand,
    or one the chain holds (SPEC 7.9)."""
    ILLEGAL_ACTION = "illegal-action"
    """The rules or the protocol's order do not allow this entry now (SPEC 7.3)."""
    BAD_PROOF = "bad-proof"
    """A mental-poker step whose proof does not verify or whose values are malformed (SPEC 5)."""


class ProtocolError(Exception):
    """Base of the ledger's errors."""


class LocalProtocolError(ProtocolError):
    """We tried to build or encode something the protocol does not allow (a bug on our side)."""


class RemoteProtocolError(ProtocolError):
    """An entry from outside is malformed or does not verify.

    Carries the entry's seq, kind and author when they could be read, and the reason.
    """

    def __init__(
        self,
        reason: Reason,
        detail: str,
        *,
        seq: int | None = None,
        kind: str | None = None,
        author: int | None = None,
    ) -> None:
        self.reason = reason
        self.detail = detail
        self.seq = seq
        self.kind = kind
        self.author = author
        super().__init__(self._message())

    def _message(self) -> str:
        where = []
        if self.seq is not None:
            where.append(f"entry {self.seq}")
        if self.kind is not None:
            where.append(f"kind {self.kind}")
        if self.author is not None:
            where.append(f"by seat {self.author}")
        prefix = f"{', '.join(where)}: " if where else ""
        return f"{prefix}{self.reason.value}: {self.detail}"

    def located(
        self, *, seq: int | None, kind: str | None, author: int | None
    ) -> RemoteProtocolError:
        """The same error with the entry's identifying fields filled in where still unknown."""
        return RemoteProtocolError(
            self.reason,
            self.detail,
            seq=self.seq if self.seq is not None else seq,
            kind=self.kind if self.kind is not None else kind,
            author=self.author if self.author is not None else author,
        )
