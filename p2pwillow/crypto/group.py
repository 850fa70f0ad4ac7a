"""The prime-order subgroup of edwards25519 over libsodium (PyNaCl bindings). SPEC 4.1.

Hazmat. Scalars are Python ints mod L; points are `Point` values wrapping their canonical
32-byte encoding. Every point that comes from outside goes through `Point.decode`, which rejects
non-canonical encodings, points off the curve, points outside the prime-order subgroup and the
identity. Points made by arithmetic on valid points stay in the subgroup, so they are not
re-validated. Pure: no I/O; randomness comes from an `rng` parameter.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass

from nacl import bindings as _na

L = 2**252 + 27742317777372353535851937790883648493
"""Order of the prime-order subgroup (and of the scalar field)."""

POINT_BYTES = 32
SCALAR_BYTES = 32

Rng = Callable[[int], bytes]
"""A source of randomness: rng(n) returns n uniformly random bytes. Defaults to os.urandom."""


class DecodeError(ValueError):
    """A byte string is not a valid encoding of a point, scalar, ciphertext or proof."""


class InvalidProof(ValueError):
    """A proof does not verify for the stated statement and context."""


@dataclass(slots=True)
class OpCounter:
    """Counts libsodium group operations, so benchmarks can price their Python overhead.

    `mul` and `base_mul` count scalar multiplications (variable and fixed base), `add` additions
    and subtractions, `validate` point validations in `Point.decode`. Not part of the protocol.
    """

    mul: int = 0
    base_mul: int = 0
    add: int = 0
    validate: int = 0

    def reset(self) -> None:
        self.mul = self.base_mul = self.add = self.validate = 0

    def snapshot(self) -> tuple[int, int, int, int]:
        return (self.mul, self.base_mul, self.add, self.validate)


OPS = OpCounter()

_IDENTITY_BYTES = b"\x01" + b"\x00" * 31
_BASE_BYTES = bytes.fromhex("5866666666666666666666666666666666666666666666666666666666666666")


def bytes_from_hex(text: str, what: str) -> bytes:
    """Strict lowercase hex: the only text form of bytes in the protocol (SPEC 4.8)."""
    try:
        raw = bytes.fromhex(text)
    except (ValueError, TypeError):
        raise DecodeError(f"{what}: not lowercase hex") from None
    if raw.hex() != text:
        raise DecodeError(f"{what}: not lowercase hex")
    return raw


class Point:
    """A point of the prime-order subgroup (or the identity, as an intermediate result).

    Construct from the wire only with `Point.decode`. Equality and hashing are on the canonical
    encoding, which libsodium always produces.
    """

    __slots__ = ("_enc",)

    def __init__(self, encoding: bytes, *, _trusted: bool = False) -> None:
        if not _trusted:
            raise TypeError("use Point.decode() for untrusted bytes")
        self._enc = encoding

    @classmethod
    def decode(cls, data: bytes) -> Point:
        """Validate and wrap a 32-byte encoding; raise DecodeError if it is not a subgroup point.

        The identity and every small-order point are rejected.
        """
        if not isinstance(data, bytes | bytearray) or len(data) != POINT_BYTES:
            raise DecodeError("a point is exactly 32 bytes")
        data = bytes(data)
        OPS.validate += 1
        if not _na.crypto_core_ed25519_is_valid_point(data):
            raise DecodeError("not a canonical point of the prime-order subgroup (or the identity)")
        return cls(data, _trusted=True)

    @classmethod
    def decode_hex(cls, text: str) -> Point:
        return cls.decode(bytes_from_hex(text, "point"))

    @property
    def encoding(self) -> bytes:
        return self._enc

    def hex(self) -> str:
        return self._enc.hex()

    @property
    def is_identity(self) -> bool:
        return self._enc == _IDENTITY_BYTES

    def __add__(self, other: Point) -> Point:
        OPS.add += 1
        return Point(_na.crypto_core_ed25519_add(self._enc, other._enc), _trusted=True)

    def __sub__(self, other: Point) -> Point:
        OPS.add += 1
        return Point(_na.crypto_core_ed25519_sub(self._enc, other._enc), _trusted=True)

    def __neg__(self) -> Point:
        return IDENTITY - self

    def __mul__(self, k: int) -> Point:
        k %= L
        if k == 0 or self.is_identity:
            return IDENTITY
        if self._enc == _BASE_BYTES:
            # libsodium's fixed-base multiplication is about 5x faster than the variable one.
            OPS.base_mul += 1
            out = _na.crypto_scalarmult_ed25519_base_noclamp(k.to_bytes(32, "little"))
        else:
            OPS.mul += 1
            out = _na.crypto_scalarmult_ed25519_noclamp(k.to_bytes(32, "little"), self._enc)
        return Point(out, _trusted=True)

    __rmul__ = __mul__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Point) and self._enc == other._enc

    def __hash__(self) -> int:
        return hash(self._enc)

    def __repr__(self) -> str:
        return f"Point({self._enc.hex()[:16]}…)"


IDENTITY = Point(_IDENTITY_BYTES, _trusted=True)

G = Point(_BASE_BYTES, _trusted=True)
"""The standard base point of edwards25519 (RFC 8032), generator of the subgroup."""


def base_mul(k: int) -> Point:
    """k*G by libsodium's fixed-base multiplication."""
    return G * k


def sum_points(points: list[Point] | tuple[Point, ...]) -> Point:
    """The sum of points (the identity for none)."""
    acc = IDENTITY
    for p in points:
        acc = p if acc.is_identity else acc + p
    return acc


def multi_mul(
    scalars: list[int] | tuple[int, ...], points: list[Point] | tuple[Point, ...]
) -> Point:
    """sum k_i * P_i, one multiplication per term (libsodium has no multi-scalar mult)."""
    if len(scalars) != len(points):
        raise ValueError("multi_mul: as many scalars as points")
    return sum_points([p * k for k, p in zip(scalars, points, strict=True)])


# --- scalars -------------------------------------------------------------------------------


def random_scalar(rng: Rng = os.urandom) -> int:
    """A uniform nonzero scalar: 64 random bytes reduced mod L (bias below 2^-250)."""
    while True:
        k = int.from_bytes(rng(64), "little") % L
        if k:
            return k


def check_secret(k: int, what: str = "secret") -> int:
    """k itself if it is an int in 1..L-1 (a usable secret or randomness), else ValueError."""
    if not isinstance(k, int) or isinstance(k, bool) or not 0 < k < L:
        raise ValueError(f"{what} must be an integer in 1..L-1")
    return k


def scalar_to_bytes(k: int) -> bytes:
    return (k % L).to_bytes(SCALAR_BYTES, "little")


def scalar_from_bytes(data: bytes) -> int:
    """Decode a canonical nonzero scalar (32 bytes little-endian, < L)."""
    if not isinstance(data, bytes | bytearray) or len(data) != SCALAR_BYTES:
        raise DecodeError("a scalar is exactly 32 bytes")
    k = int.from_bytes(data, "little")
    if k >= L:
        raise DecodeError("scalar not reduced mod L")
    if k == 0:
        raise DecodeError("zero scalar")
    return k


def scalar_from_hex(text: str) -> int:
    return scalar_from_bytes(bytes_from_hex(text, "scalar"))


def scalar_hex(k: int) -> str:
    return scalar_to_bytes(k).hex()


def scalar_inverse(k: int) -> int:
    if k % L == 0:
        raise ValueError("zero has no inverse")
    return pow(k, -1, L)


# --- hash to point (SPEC 4.1.3) --------------------------------------------------------------

H2P_TAG = b"p2pwillow/v1/hash-to-point"


def hash_to_point_candidate(domain: bytes, index: int, counter: int) -> bytes:
    """The 32-byte candidate encoding tried for (domain, index) at this counter (SPEC 4.1.3):
    SHA-512(u8(len tag) || tag || u8(len domain) || domain || u32be(index) || u32be(counter))
    truncated to its first 32 bytes."""
    if not isinstance(domain, bytes) or len(domain) > 255:
        raise ValueError("hash_to_point: the domain is at most 255 bytes")
    if not 0 <= index < 2**32 or not 0 <= counter < 2**32:
        raise ValueError("hash_to_point: index and counter are u32")
    data = (
        len(H2P_TAG).to_bytes(1, "big")
        + H2P_TAG
        + len(domain).to_bytes(1, "big")
        + domain
        + index.to_bytes(4, "big")
        + counter.to_bytes(4, "big")
    )
    return hashlib.sha512(data).digest()[:32]


def hash_to_point_with_counter(domain: bytes, index: int) -> tuple[Point, int]:
    """hash_to_point and the counter that hit (published in the test vectors)."""
    for counter in range(2**32):
        candidate = hash_to_point_candidate(domain, index, counter)
        if _na.crypto_core_ed25519_is_valid_point(candidate):
            return Point(candidate, _trusted=True), counter
    raise AssertionError("unreachable: no point found")  # pragma: no cover


def hash_to_point(domain: bytes, index: int) -> Point:
    """Try-and-increment: the first candidate (counter 0, 1, ...) that is a valid point of the
    prime-order subgroup. Deterministic; nobody knows its discrete log (SPEC 4.1.3)."""
    return hash_to_point_with_counter(domain, index)[0]


CARD_DOMAIN = b"card"
GENERATOR_DOMAIN = b"generator"

CARD_POINTS: tuple[Point, ...] = tuple(hash_to_point(CARD_DOMAIN, i) for i in range(52))
"""M_0..M_51: the point of each card, by canonical card index (SPEC 2.1)."""

_CARD_BY_POINT = {p: i for i, p in enumerate(CARD_POINTS)}

_generators: list[Point] = []


def generators(n: int) -> tuple[Point, ...]:
    """The first n independent generators H_0..H_{n-1} = hash_to_point("generator", i)."""
    while len(_generators) < n:
        _generators.append(hash_to_point(GENERATOR_DOMAIN, len(_generators)))
    return tuple(_generators[:n])


def card_point(index: int) -> Point:
    return CARD_POINTS[index]


def card_index(point: Point) -> int:
    """The card index whose point this is; DecodeError if it is no card."""
    try:
        return _CARD_BY_POINT[point]
    except KeyError:
        raise DecodeError("the point is not a card") from None


__all__ = [
    "CARD_DOMAIN",
    "CARD_POINTS",
    "GENERATOR_DOMAIN",
    "H2P_TAG",
    "IDENTITY",
    "OPS",
    "DecodeError",
    "G",
    "InvalidProof",
    "L",
    "Point",
    "Rng",
    "base_mul",
    "bytes_from_hex",
    "card_index",
    "card_point",
    "check_secret",
    "generators",
    "hash_to_point",
    "hash_to_point_candidate",
    "hash_to_point_with_counter",
    "multi_mul",
    "random_scalar",
    "scalar_from_bytes",
    "scalar_from_hex",
    "scalar_hex",
    "scalar_inverse",
    "scalar_to_bytes",
    "sum_points",
]
