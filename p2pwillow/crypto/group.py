"""The group: secp256k1 through libsecp256k1, by coincurve's cffi bindings. SPEC 4.1.

Hazmat. Scalars are Python ints mod L (the group order); points are `Point` values. Every point
that comes from outside goes through `Point.decode`, which accepts only the 33-byte compressed
SEC1 encoding of a curve point: the group has prime order, so every curve point is a group
element and nothing else needs checking. Pure: no I/O; randomness comes from an `rng` parameter.

Constant time for secrets (SPEC 4.1.4). A scalar multiplication says at its call site whether
the scalar is secret: `Point.mul_secret` runs libsecp256k1's constant-time code
(`secp256k1_ecmult_gen` for k*G, `secp256k1_ecdh`'s `ecmult_const` for k*P), `Point.mul_public`
its faster variable-time `secp256k1_ecmult` and is for public scalars only (verifiers). Provers
use `mul_secret` throughout, even for public factors, so no prover reaches variable-time code
(tests/test_constant_time.py patches it to raise). Additions (`secp256k1_ec_pubkey_combine`)
and negations are constant time.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from coincurve._libsecp256k1 import ffi as _ffi
from coincurve._libsecp256k1 import lib as _lib
from coincurve.context import GLOBAL_CONTEXT

L = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
"""The order of the group (secp256k1's n), a prime: the scalars are the integers mod L."""

FIELD_PRIME = 2**256 - 2**32 - 977
"""p, the prime of the base field; the curve is y^2 = x^3 + 7 over GF(p)."""

POINT_BYTES = 33
SCALAR_BYTES = 32

Rng = Callable[[int], bytes]
"""A source of randomness: rng(n) returns n uniformly random bytes. Defaults to os.urandom."""


class DecodeError(ValueError):
    """A byte string is not a valid encoding of a point, scalar, ciphertext or proof."""


class InvalidProof(ValueError):
    """A proof does not verify for the stated statement and context."""


@dataclass(slots=True)
class OpCounter:
    """Counts libsecp256k1 calls, so benchmarks can price their Python overhead.

    `mul` counts variable-time multiplications (public scalars), `mul_ct` constant-time
    multiplications of a point other than G, `base_mul` multiplications of G (always the
    constant-time `ecmult_gen`), `add` point additions, `combine` the library calls that made
    them (one call adds any number of points), `validate` point decodings. Not protocol.
    """

    mul: int = 0
    mul_ct: int = 0
    base_mul: int = 0
    add: int = 0
    combine: int = 0
    validate: int = 0

    def reset(self) -> None:
        self.mul = self.mul_ct = self.base_mul = self.add = self.combine = self.validate = 0

    def snapshot(self) -> tuple[int, int, int, int, int, int]:
        """(mul, mul_ct, base_mul, add, combine, validate)."""
        return (self.mul, self.mul_ct, self.base_mul, self.add, self.combine, self.validate)


OPS = OpCounter()

# --- the library -----------------------------------------------------------------------------
#
# Calls go straight to the cffi functions (coincurve's PublicKey wrappers would add a Python
# layer per call). The context is coincurve's global one, randomised at import for the blinding
# of ecmult_gen. Every argument passed is valid (points come from parse, create, ecdh or
# combine), because libsecp256k1 aborts the process on an illegal argument.

_CTX = GLOBAL_CONTEXT.ctx
_COMPRESSED = _lib.SECP256K1_EC_COMPRESSED
_NULL = _ffi.NULL
_new_pubkey = _ffi.new
_PUBKEY = "secp256k1_pubkey *"

_parse = _lib.secp256k1_ec_pubkey_parse
_serialize = _lib.secp256k1_ec_pubkey_serialize
_combine = _lib.secp256k1_ec_pubkey_combine  # secp256k1_gej_add_ge: constant time
_negate = _lib.secp256k1_ec_pubkey_negate
_ecmult_gen = _lib.secp256k1_ec_pubkey_create  # k*G, constant time
_ecdh = _lib.secp256k1_ecdh  # k*P by ecmult_const, constant time

_ecmult_var = _lib.secp256k1_ec_pubkey_tweak_mul
"""k*P by libsecp256k1's variable-time secp256k1_ecmult: public scalars only. The only
variable-time multiplication in the project; `Point.mul_public` alone calls it."""


def _copy_xy(output: Any, x32: Any, y32: Any) -> None:
    _ffi.memmove(output + 1, x32, 32)
    _ffi.memmove(output + 33, y32, 32)


def _point_itself(output: Any, x32: Any, y32: Any, data: Any) -> int:
    """secp256k1_ecdh's "hash": the point itself, as 04 || x || y (output[0] is preset)."""
    _copy_xy(output, x32, y32)
    return 1


def _callback_failed(exc_type: Any, exc_value: BaseException | None, tb: Any) -> int:
    """An exception inside the callback (a Ctrl-C landing there, say) cannot cross the C
    frames: keep it in the call's error box, so that `mul_secret` raises it instead of
    returning a wrong point; the callback then returns 0 and secp256k1_ecdh fails."""
    frame = tb.tb_frame if tb is not None else None
    data = None if frame is None else frame.f_locals.get("data")
    if data is not None and data != _NULL and exc_value is not None:
        _ffi.from_handle(data).append(exc_value)
    return 0


_copy_point: Any = _ffi.callback(
    "secp256k1_ecdh_hash_function", _point_itself, onerror=_callback_failed
)


_IDENTITY_ENCODING = bytes(POINT_BYTES)
"""How the identity enters a transcript (SPEC 4.1.1); no point decodes from it."""


def bytes_from_hex(text: str, what: str) -> bytes:
    """Strict lowercase hex: the only text form of bytes in the protocol (SPEC 4.8)."""
    try:
        raw = bytes.fromhex(text)
    except (ValueError, TypeError):
        raise DecodeError(f"{what}: not lowercase hex") from None
    if raw.hex() != text:
        raise DecodeError(f"{what}: not lowercase hex")
    return raw


def _scalar32(k: int) -> bytes:
    return k.to_bytes(32, "big")


class Point:
    """A point of secp256k1 (or the identity, as an intermediate result).

    Construct from the wire only with `Point.decode`. Equality and hashing are on the
    compressed encoding, which is unique; it is computed when first needed.
    """

    __slots__ = ("_enc", "_pk")

    _pk: Any  # the library's secp256k1_pubkey, None for the identity
    _enc: bytes | None

    def __init__(self, encoding: bytes) -> None:
        raise TypeError("use Point.decode() for untrusted bytes")

    @classmethod
    def decode(cls, data: bytes) -> Point:
        """Validate and wrap a 33-byte compressed encoding (SPEC 4.1.1), else DecodeError.

        Rejected: any other length (so the 65-byte uncompressed and hybrid forms), a first
        byte other than 02 or 03, x >= p, and an x for which x^3 + 7 has no square root. The
        identity has no encoding, so it can never be decoded.
        """
        if not isinstance(data, bytes | bytearray) or len(data) != POINT_BYTES:
            raise DecodeError("a point is exactly 33 bytes (compressed)")
        data = bytes(data)
        if data[0] not in (2, 3):
            raise DecodeError("a point's first byte is 02 or 03 (compressed)")
        OPS.validate += 1
        pk = _new_pubkey(_PUBKEY)
        if not _parse(_CTX, pk, data, POINT_BYTES):
            if int.from_bytes(data[1:], "big") >= FIELD_PRIME:
                raise DecodeError("a point's x is not reduced mod p")
            raise DecodeError("no curve point has this x")
        return _point(pk, data)

    @classmethod
    def decode_hex(cls, text: str) -> Point:
        return cls.decode(bytes_from_hex(text, "point"))

    @property
    def encoding(self) -> bytes:
        """33 bytes: 02 or 03 (y even or odd), then x big-endian; 33 zero bytes for the
        identity, which only a transcript ever holds (SPEC 4.1.1)."""
        enc = self._enc
        if enc is None:
            out = _ffi.new("unsigned char[33]")
            size = _ffi.new("size_t *", POINT_BYTES)
            _serialize(_CTX, out, size, self._pk, _COMPRESSED)
            enc = self._enc = bytes(out)
        return enc

    def hex(self) -> str:
        return self.encoding.hex()

    @property
    def is_identity(self) -> bool:
        return self._pk is None

    def __add__(self, other: Point) -> Point:
        if self._pk is None:
            return other
        if other._pk is None:
            return self
        OPS.add += 1
        OPS.combine += 1
        out = _new_pubkey(_PUBKEY)
        if not _combine(_CTX, out, [self._pk, other._pk], 2):
            return IDENTITY  # P + (-P)
        return _point(out)

    def __sub__(self, other: Point) -> Point:
        return self + -other

    def __neg__(self) -> Point:
        if self._pk is None:
            return self
        out = _new_pubkey(_PUBKEY, self._pk[0])
        _negate(_CTX, out)
        return _point(out)

    def mul_secret(self, k: int) -> Point:
        """k*self in constant time: for any scalar that must stay secret (SPEC 4.1.4).

        k must be in 1..L-1 (ValueError otherwise; a secret is never reduced silently).
        G goes through secp256k1_ecmult_gen, any other point through secp256k1_ecdh.
        """
        check_secret(k, "a secret scalar")
        pk = self._pk
        if pk is None:
            return self
        if self is G:
            OPS.base_mul += 1
            out = _new_pubkey(_PUBKEY)
            if not _ecmult_gen(_CTX, out, _scalar32(k)):  # pragma: no cover - k was checked
                raise ValueError("secp256k1_ec_pubkey_create refused the scalar")
            return _point(out)
        OPS.mul_ct += 1
        buf = _ffi.new("unsigned char[65]", b"\x04")
        errors: list[BaseException] = []
        if not _ecdh(_CTX, buf, pk, _scalar32(k), _copy_point, _ffi.new_handle(errors)):
            if errors:
                raise errors[0]
            raise ValueError("secp256k1_ecdh refused the scalar")  # pragma: no cover
        out = _new_pubkey(_PUBKEY)
        if not _parse(_CTX, out, buf, 65):  # pragma: no cover - ecdh returns a curve point
            raise ValueError("secp256k1_ecdh returned no point")
        return _point(out)

    def mul_public(self, k: int) -> Point:
        """k*self in variable time: ONLY for public scalars (challenges, responses, weights
        known to every verifier). k is reduced mod L; a multiple of L gives the identity."""
        k %= L
        pk = self._pk
        if k == 0 or pk is None:
            return IDENTITY
        if self is G:
            OPS.base_mul += 1
            out = _new_pubkey(_PUBKEY)
            _ecmult_gen(_CTX, out, _scalar32(k))
            return _point(out)
        OPS.mul += 1
        out = _new_pubkey(_PUBKEY, pk[0])
        _ecmult_var(_CTX, out, _scalar32(k))
        return _point(out)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Point) and self.encoding == other.encoding

    def __hash__(self) -> int:
        return hash(self.encoding)

    def __repr__(self) -> str:
        return f"Point({self.encoding.hex()[:18]}…)"

    # A point is an immutable value: a copy is the point itself, and pickling goes through
    # the encoding (the library's struct cannot be pickled).
    def __copy__(self) -> Point:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Point:
        return self

    def __reduce__(self) -> tuple[Callable[[bytes], Point], tuple[bytes]]:
        return (_unpickle, (self.encoding,))


def _point(pk: Any, encoding: bytes | None = None) -> Point:
    p = object.__new__(Point)
    p._pk = pk
    p._enc = encoding
    return p


IDENTITY = _point(None, _IDENTITY_ENCODING)


def _unpickle(encoding: bytes) -> Point:
    return IDENTITY if encoding == _IDENTITY_ENCODING else Point.decode(encoding)


_G_ENCODING = bytes.fromhex("0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798")
G = Point.decode(_G_ENCODING)
"""The standard generator of secp256k1 (SEC 2, section 2.4.1)."""
OPS.reset()


def sum_points(points: Sequence[Point]) -> Point:
    """The sum of points (the identity for none), in one constant-time library call."""
    keys = [p._pk for p in points if p._pk is not None]
    if not keys:
        return IDENTITY
    if len(keys) == 1:
        return next(p for p in points if p._pk is not None)
    OPS.add += len(keys) - 1
    OPS.combine += 1
    out = _new_pubkey(_PUBKEY)
    if not _combine(_CTX, out, keys, len(keys)):
        return IDENTITY
    return _point(out)


def multi_mul_public(scalars: Sequence[int], points: Sequence[Point]) -> Point:
    """sum k_i*P_i for PUBLIC scalars, one variable-time multiplication per term, one sum."""
    if len(scalars) != len(points):
        raise ValueError("multi_mul_public: as many scalars as points")
    return sum_points([p.mul_public(k) for k, p in zip(scalars, points, strict=True)])


def multi_mul_secret(scalars: Sequence[int], points: Sequence[Point]) -> Point:
    """sum k_i*P_i in constant time, one multiplication per term, one sum."""
    if len(scalars) != len(points):
        raise ValueError("multi_mul_secret: as many scalars as points")
    return sum_points([p.mul_secret(k) for k, p in zip(scalars, points, strict=True)])


# --- scalars -------------------------------------------------------------------------------


class SecretScalar(int):
    """A scalar drawn as a secret, randomness or nonce: an int whose repr, str and format
    hide the value, so it stays out of logs, tracebacks and dataclass reprs. Arithmetic on it
    gives plain ints (a response made from it is public)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "SecretScalar(<hidden>)"

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        return repr(self)


def random_scalar(rng: Rng = os.urandom) -> SecretScalar:
    """A uniform nonzero scalar: 64 random bytes read big-endian, reduced mod L (bias below
    2^-256); a zero result is redrawn (SPEC 4.1.2)."""
    while True:
        k = int.from_bytes(rng(64), "big") % L
        if k:
            return SecretScalar(k)


def check_secret(k: int, what: str = "secret") -> int:
    """k itself if it is an int in 1..L-1 (a usable secret or randomness), else ValueError."""
    if not isinstance(k, int) or isinstance(k, bool) or not 0 < k < L:
        raise ValueError(f"{what} must be an integer in 1..L-1")
    return k


def scalar_to_bytes(k: int) -> bytes:
    """32 bytes big-endian of k mod L (SPEC 4.1.2)."""
    return (k % L).to_bytes(SCALAR_BYTES, "big")


def scalar_from_bytes(data: bytes) -> int:
    """Decode a canonical nonzero scalar (32 bytes big-endian, < L)."""
    if not isinstance(data, bytes | bytearray) or len(data) != SCALAR_BYTES:
        raise DecodeError("a scalar is exactly 32 bytes")
    k = int.from_bytes(data, "big")
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
    """The candidate x (32 bytes, big-endian) tried for (domain, index) at this counter:
    SHA-256(u8(len tag) || tag || u8(len domain) || domain || u32be(index) || u32be(counter)).
    """
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
    return hashlib.sha256(data).digest()


def hash_to_point_with_counter(domain: bytes, index: int) -> tuple[Point, int]:
    """hash_to_point and the counter that hit (published in the test vectors)."""
    for counter in range(2**32):
        x = hash_to_point_candidate(domain, index, counter)
        pk = _new_pubkey(_PUBKEY)
        encoding = b"\x02" + x
        if _parse(_CTX, pk, encoding, POINT_BYTES):  # x < p and x^3 + 7 is a square
            return _point(pk, encoding), counter
    raise AssertionError("unreachable: no point found")  # pragma: no cover


def hash_to_point(domain: bytes, index: int) -> Point:
    """Try-and-increment on x: the first candidate x (counter 0, 1, ...) that is the x of a
    curve point, taken with even y. Deterministic; nobody knows its discrete log (SPEC 4.1.3).
    """
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
    "FIELD_PRIME",
    "GENERATOR_DOMAIN",
    "H2P_TAG",
    "IDENTITY",
    "OPS",
    "POINT_BYTES",
    "SCALAR_BYTES",
    "DecodeError",
    "G",
    "InvalidProof",
    "L",
    "Point",
    "Rng",
    "SecretScalar",
    "bytes_from_hex",
    "card_index",
    "card_point",
    "check_secret",
    "generators",
    "hash_to_point",
    "hash_to_point_candidate",
    "hash_to_point_with_counter",
    "multi_mul_public",
    "multi_mul_secret",
    "random_scalar",
    "scalar_from_bytes",
    "scalar_from_hex",
    "scalar_hex",
    "scalar_inverse",
    "scalar_to_bytes",
    "sum_points",
]
