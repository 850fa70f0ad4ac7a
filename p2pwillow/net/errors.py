"""The wire's error family: one exception for every bad frame from a peer (SPEC 8.8).

Pure; no I/O. Like the ledger's RemoteProtocolError, a `WireError` names what was wrong.
"""

from __future__ import annotations

import enum


class WireReason(enum.StrEnum):
    """Why a frame was rejected: a stable, machine-readable code (SPEC 8.8)."""

    MALFORMED = "malformed"
    """Not bytes, no header line, a header that is not canonical JSON, payload lines missing."""
    OVERSIZED = "oversized"
    """Over the frame, header or batch limits of SPEC 8.3."""
    BAD_VERSION = "bad-version"
    UNKNOWN_TYPE = "unknown-type"
    BAD_FIELD = "bad-field"
    """A missing, extra or ill-typed header field, or a value out of range."""
    BAD_ITEM = "bad-item"
    """A payload line (an entry, an authored entry, a refusal) the ledger's decoders refuse."""
    BAD_KEY_STATEMENT = "bad-key-statement"
    """A CURVE key whose statement does not verify under the identity key it names (8.5)."""
    BAD_JOIN_CODE = "bad-join-code"
    BAD_TXT = "bad-txt"
    """A discovery record whose TXT fields are missing or malformed (8.7)."""


class WireError(Exception):
    """Bad input from the network: a frame, a discovery record or a join code.

    `reason` is the code, `detail` the human-readable part; `str(error)` is one line.
    """

    def __init__(self, reason: WireReason, detail: str) -> None:
        self.reason = reason
        self.detail = detail
        super().__init__(f"{reason.value}: {detail}")


__all__ = ["WireError", "WireReason"]
