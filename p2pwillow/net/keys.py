"""A node's CURVE key pair and the statement, signed by its identity, that binds them (SPEC 8.5).

Pure; no I/O: randomness is a parameter. CURVE keys are raw 32-byte X25519 keys, the form
libzmq's CURVE mechanism takes; the statement travels in the hello and the discovery record.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

from p2pwillow.crypto.group import Rng
from p2pwillow.ledger.canonical import dump_checked
from p2pwillow.ledger.entry import PROTOCOL_VERSION
from p2pwillow.ledger.identity import (
    PUBLIC_KEY_BYTES,
    SIGNATURE_BYTES,
    Identity,
    verify_signature,
)
from p2pwillow.net.errors import WireError, WireReason

CURVE_KEY_BYTES = 32
KEY_STATEMENT_TAG = b"p2pwillow/v1/curve-key\x00"
"""Domain tag of an identity's signature over its node's CURVE key (SPEC 8.5)."""


@dataclass(frozen=True, slots=True)
class CurveKeyPair:
    """A node's CURVE (X25519) key pair: `public` names the node to the transport."""

    public: bytes
    secret: bytes = field(repr=False)

    @classmethod
    def from_secret(cls, secret: bytes) -> CurveKeyPair:
        if not isinstance(secret, bytes) or len(secret) != CURVE_KEY_BYTES:
            raise ValueError(f"a CURVE secret key is {CURVE_KEY_BYTES} bytes")
        public = X25519PrivateKey.from_private_bytes(secret).public_key().public_bytes_raw()
        return cls(public, secret)

    @classmethod
    def generate(cls, rng: Rng) -> CurveKeyPair:
        """A fresh key pair from 32 bytes of `rng` (os.urandom in a live node)."""
        return cls.from_secret(rng(CURVE_KEY_BYTES))


def statement_message(identity_key: bytes, curve_key: bytes) -> bytes:
    """The bytes an identity signs to vouch for a CURVE key: the tag, then the canonical
    encoding of {curve_key, identity_key, v} (SPEC 8.5)."""
    return KEY_STATEMENT_TAG + dump_checked(
        {"curve_key": curve_key.hex(), "identity_key": identity_key.hex(), "v": PROTOCOL_VERSION}
    )


@dataclass(frozen=True, slots=True)
class KeyStatement:
    """ "The node whose CURVE key is `curve_key` speaks for identity `identity_key`", signed by
    that identity (SPEC 8.5). Construction checks the signature: WireError(BAD_KEY_STATEMENT)
    if it does not verify."""

    identity_key: bytes
    curve_key: bytes
    sig: bytes

    def __post_init__(self) -> None:
        # every statement in memory has been checked: a peer's key is never pinned unchecked
        sizes = (
            (self.identity_key, PUBLIC_KEY_BYTES, "identity key"),
            (self.curve_key, CURVE_KEY_BYTES, "CURVE key"),
            (self.sig, SIGNATURE_BYTES, "signature"),
        )
        for value, size, what in sizes:
            if not isinstance(value, bytes) or len(value) != size:
                raise WireError(WireReason.BAD_KEY_STATEMENT, f"a {what} is {size} bytes")
        message = statement_message(self.identity_key, self.curve_key)
        if not verify_signature(self.identity_key, message, self.sig):
            raise WireError(
                WireReason.BAD_KEY_STATEMENT,
                f"CURVE key {self.curve_key.hex()[:16]}… is not signed by identity "
                f"{self.identity_key.hex()[:16]}…",
            )

    @classmethod
    def create(cls, identity: Identity, curve_key: bytes) -> KeyStatement:
        """The statement `identity` signs for the CURVE key `curve_key`."""
        message = statement_message(identity.public_key, curve_key)
        return cls(identity.public_key, curve_key, identity.sign(message))


__all__ = [
    "CURVE_KEY_BYTES",
    "KEY_STATEMENT_TAG",
    "CurveKeyPair",
    "KeyStatement",
    "statement_message",
]
