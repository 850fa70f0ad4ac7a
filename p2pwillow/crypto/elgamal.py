"""Exponential-free ElGamal over the card points (SPEC 4.2). Hazmat; pure.

A card i is the point M_i; a ciphertext under public key Y is (c1, c2) = (r*G, M_i + r*Y).
Keys add: under a joint key Y = sum Y_j, each holder j removes its part with the decryption
share D_j = x_j*c1, and what is left is a ciphertext under the remaining keys (key switch).
Every multiplication here is by a secret or by randomness, so every one is `mul_secret`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass

from p2pwillow.crypto.group import (
    POINT_BYTES,
    DecodeError,
    G,
    Point,
    Rng,
    bytes_from_hex,
    card_index,
    card_point,
    random_scalar,
    sum_points,
)

CIPHERTEXT_BYTES = 2 * POINT_BYTES


@dataclass(frozen=True, slots=True)
class Ciphertext:
    c1: Point
    c2: Point

    def encode(self) -> bytes:
        """66 bytes: c1 then c2, each a compressed point encoding (SPEC 4.2.1)."""
        return self.c1.encoding + self.c2.encoding

    @classmethod
    def decode(cls, data: bytes) -> Ciphertext:
        if not isinstance(data, bytes | bytearray) or len(data) != CIPHERTEXT_BYTES:
            raise DecodeError(f"a ciphertext is exactly {CIPHERTEXT_BYTES} bytes")
        half = POINT_BYTES
        return cls(Point.decode(bytes(data[:half])), Point.decode(bytes(data[half:])))

    def hex(self) -> str:
        return self.encode().hex()

    @classmethod
    def from_hex(cls, text: str) -> Ciphertext:
        return cls.decode(bytes_from_hex(text, "ciphertext"))


def public_key(secret: int) -> Point:
    return G.mul_secret(secret)


def joint_key(keys: Iterable[Point]) -> Point:
    """The joint public key: the sum of every player's key."""
    return sum_points(list(keys))


def trivial_encryption(card: int, key: Point) -> Ciphertext:
    """The public starting ciphertext of a card: (G, M + Y), i.e. randomness 1 (SPEC 5.2)."""
    return Ciphertext(G, card_point(card) + key)


def encrypt(card: int, key: Point, rng: Rng = os.urandom) -> Ciphertext:
    return encrypt_with(card_point(card), key, random_scalar(rng))


def encrypt_with(message: Point, key: Point, r: int) -> Ciphertext:
    return Ciphertext(G.mul_secret(r), message + key.mul_secret(r))


def reencrypt(ct: Ciphertext, key: Point, r: int) -> Ciphertext:
    """The same plaintext under the same key with fresh randomness r added."""
    return Ciphertext(ct.c1 + G.mul_secret(r), ct.c2 + key.mul_secret(r))


def decryption_share(ct: Ciphertext, secret: int) -> Point:
    """D = x*c1: what the holder of x contributes to opening or key-switching ct."""
    return ct.c1.mul_secret(secret)


def remove_shares(ct: Ciphertext, shares: Iterable[Point]) -> Ciphertext:
    """Key switch: subtract other holders' decryption shares from c2."""
    return Ciphertext(ct.c1, ct.c2 - sum_points(list(shares)))


def decrypt_point(ct: Ciphertext, secret: int) -> Point:
    return ct.c2 - ct.c1.mul_secret(secret)


def decrypt(ct: Ciphertext, secret: int) -> int:
    """The card index under a key held alone; DecodeError if the plaintext is not a card."""
    return card_index(decrypt_point(ct, secret))


def open_with_share(ct: Ciphertext, share: Point) -> int:
    """The card index from a ciphertext under one key and that key's decryption share."""
    return card_index(ct.c2 - share)


def reencrypt_to(ct: Ciphertext, secret_a: int, key_b: Point, r: int) -> Ciphertext:
    """Move ct from key Y_A = secret_a*G to key_b, same plaintext, fresh randomness r (SPEC 4.2.4).

    (r*G, c2 - x_A*c1 + r*Y_B): the holder of x_A strips its key and adds key_b's.
    """
    return Ciphertext(
        G.mul_secret(r), sum_points([ct.c2, -ct.c1.mul_secret(secret_a), key_b.mul_secret(r)])
    )
