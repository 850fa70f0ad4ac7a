"""Long-term Ed25519 identities, entry signatures, fingerprints and the table's safety code
(SPEC 6.2, 6.7).

Pure; no I/O: randomness is a parameter, and keeping the key in a file is the driver's job.
"""

from __future__ import annotations

import base64
import functools
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from p2pwillow.crypto.checked import CHECKED, digest
from p2pwillow.crypto.group import Rng
from p2pwillow.ledger.errors import LocalProtocolError

PUBLIC_KEY_BYTES = 32
SIGNATURE_BYTES = 64
SEED_BYTES = 32

SAFETY_CODE_TAG = b"p2pwillow/v1/safety-code"
SAFETY_CODE_GROUPS = 4
SAFETY_CODE_GROUP_CHARS = 5
FINGERPRINT_TAG = b"p2pwillow/v1/fingerprint"
FINGERPRINT_CHARS = 4


@dataclass(slots=True)
class SignatureCounter:
    """How many Ed25519 verifications ran (the benchmarks price them; like the group's OPS)."""

    verified: int = 0


SIGNATURES = SignatureCounter()


@dataclass(frozen=True, slots=True)
class Identity:
    """A player's long-term Ed25519 signing key; `public_key` is its raw 32-byte form."""

    _private: Ed25519PrivateKey = field(repr=False, compare=False)
    public_key: bytes

    @classmethod
    def from_private_bytes(cls, seed: bytes) -> Identity:
        """The identity whose RFC 8032 private key (seed) is these 32 bytes."""
        if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
            raise LocalProtocolError("an Ed25519 private key is exactly 32 bytes")
        private = Ed25519PrivateKey.from_private_bytes(seed)
        return cls(private, private.public_key().public_bytes_raw())

    @classmethod
    def generate(cls, rng: Rng) -> Identity:
        """A fresh identity from 32 bytes of `rng` (pass os.urandom in a live peer)."""
        return cls.from_private_bytes(rng(SEED_BYTES))

    def private_bytes(self) -> bytes:
        """The 32-byte private key, for the driver that stores it (mode 0600)."""
        return self._private.private_bytes_raw()

    def sign(self, message: bytes) -> bytes:
        """The 64-byte Ed25519 signature (RFC 8032, deterministic) of message."""
        return self._private.sign(message)


@functools.lru_cache(maxsize=256)
def _public_key(raw: bytes) -> Ed25519PublicKey:
    """The key object for a raw key: a table has a few keys and checks every entry with them."""
    return Ed25519PublicKey.from_public_bytes(raw)


def verify_signature(public_key: bytes, message: bytes, signature: bytes) -> bool:
    """True if signature is a valid Ed25519 signature of message under the raw public key.

    Never raises: a key that is not a valid point, or a signature of the wrong size, is just
    a failed verification.
    """
    if len(public_key) != PUBLIC_KEY_BYTES or len(signature) != SIGNATURE_BYTES:
        return False
    SIGNATURES.verified += 1
    remembered = digest(b"ed25519", public_key, signature, message)
    if remembered in CHECKED:
        return True  # this process checked these very bytes (crypto/checked.py)
    try:
        _public_key(public_key).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    CHECKED.add(remembered)
    return True


def safety_code(game: bytes, identity_keys: Mapping[int, bytes]) -> str:
    """The table's safety code: 4 groups of 5 base32 characters, e.g. `KQ7MA-2XJ4D-…` (SPEC 6.7).

    SHA-256 over the tag, the game id and every (seat, identity key) in seat order; the first
    100 bits in RFC 4648 base32. Everyone at the table sees the same code only if everyone holds
    the same keys for the same seats.
    """
    h = hashlib.sha256()
    h.update(SAFETY_CODE_TAG + b"\x00")
    h.update(len(game).to_bytes(1, "big") + game)
    for seat in sorted(identity_keys):
        key = identity_keys[seat]
        if not 0 <= seat < 256 or len(key) != PUBLIC_KEY_BYTES:
            raise LocalProtocolError("safety code: seats are 0..255, keys 32 bytes")
        h.update(seat.to_bytes(1, "big") + key)
    chars = SAFETY_CODE_GROUPS * SAFETY_CODE_GROUP_CHARS
    text = base64.b32encode(h.digest()).decode("ascii")[:chars]
    n = SAFETY_CODE_GROUP_CHARS
    return "-".join(text[i : i + n] for i in range(0, chars, n))


@functools.lru_cache(maxsize=1024)  # every seat's, on every screen at every change
def fingerprint(identity_key: bytes) -> str:
    """A player's fingerprint: 4 base32 characters of a hash of its identity key, shown beside
    its name on every screen, e.g. `K7QD` (SPEC 6.2).

    It tells two players of the same name apart, the same on every screen and at every table;
    it proves nothing (20 bits are found by trying keys in a second): the safety code does.
    """
    if len(identity_key) != PUBLIC_KEY_BYTES:
        raise LocalProtocolError("a fingerprint is of a 32-byte identity key")
    digest = hashlib.sha256(FINGERPRINT_TAG + b"\x00" + identity_key).digest()
    return base64.b32encode(digest).decode("ascii")[:FINGERPRINT_CHARS]


def named(name: str, identity_key: bytes | str) -> str:
    """A player's name as screens show it: with its fingerprint, `Bob #K7QD` (SPEC 6.2). The
    key is raw or 64 hex digits; a name whose key is not one is shown as it is."""
    try:
        raw = bytes.fromhex(identity_key) if isinstance(identity_key, str) else identity_key
        return f"{name} #{fingerprint(raw)}"
    except (ValueError, LocalProtocolError):
        return name


__all__ = [
    "FINGERPRINT_CHARS",
    "PUBLIC_KEY_BYTES",
    "SIGNATURES",
    "SIGNATURE_BYTES",
    "Identity",
    "SignatureCounter",
    "fingerprint",
    "named",
    "safety_code",
    "verify_signature",
]
