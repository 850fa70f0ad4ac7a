"""The hazardous layer: the only code that does group arithmetic (DESIGN 4, SPEC 4).

Everything above it (mental poker, the ledger, the verifier) works with the values and proofs
defined here and never touches coincurve (libsecp256k1) directly. Pure: no I/O; randomness is a
parameter.
"""

from p2pwillow.crypto.group import DecodeError, InvalidProof

__all__ = ["DecodeError", "InvalidProof"]
