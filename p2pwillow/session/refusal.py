"""The sequencer's refusal of an authored entry (SPEC 7.1), as the session sends and takes it.

Pure; no I/O. The message itself, its signature and its decoder are the ledger's
(`p2pwillow.ledger.refusal`), declared with the same fields and errors as entries; the session
re-exports them here, where it uses them.
"""

from p2pwillow.ledger.refusal import (
    MAX_DETAIL,
    REFUSAL_TAG,
    Refusal,
    decode_refusal,
    refusal_from_json,
)

__all__ = [
    "MAX_DETAIL",
    "REFUSAL_TAG",
    "Refusal",
    "decode_refusal",
    "refusal_from_json",
]
