"""The group layer (SPEC 4.1): encodings, validation, scalars, hash to point, card points.

An independent pure-Python secp256k1 (SEC 2, section 2.4.1; affine coordinates) recomputes what
libsecp256k1 does, and coincurve's own high-level API cross-checks the constant-time path.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import pickle
from importlib.metadata import version

import coincurve
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pwillow.crypto import DecodeError
from p2pwillow.crypto.group import (
    CARD_POINTS,
    FIELD_PRIME,
    IDENTITY,
    OPS,
    G,
    L,
    Point,
    SecretScalar,
    card_index,
    card_point,
    check_secret,
    generators,
    hash_to_point,
    hash_to_point_with_counter,
    multi_mul_public,
    multi_mul_secret,
    random_scalar,
    scalar_from_bytes,
    scalar_from_hex,
    scalar_to_bytes,
    sum_points,
)

# --- an independent secp256k1 (SEC 2, 2.4.1), affine coordinates -----------------------------

P = 2**256 - 2**32 - 977
N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
GX = 0x79BE667EF9DCBBAC55A06295CE870B07029BFCDB2DCE28D959F2815B16F81798
GY = 0x483ADA7726A3C4655DA4FBFC0E1108A8FD17B448A68554199C47D08FFB10D4B8
Affine = tuple[int, int] | None  # None is the point at infinity


def _add(a: Affine, b: Affine) -> Affine:
    if a is None:
        return b
    if b is None:
        return a
    (x1, y1), (x2, y2) = a, b
    if x1 == x2 and (y1 + y2) % P == 0:
        return None
    doubling = 3 * x1 * x1 * pow(2 * y1, -1, P) % P if a == b else None
    lam = (y2 - y1) * pow(x2 - x1, -1, P) % P if doubling is None else doubling
    x3 = (lam * lam - x1 - x2) % P
    return (x3, (lam * (x1 - x3) - y1) % P)


def _mul(k: int, a: Affine) -> Affine:
    acc: Affine = None
    while k:
        if k & 1:
            acc = _add(acc, a)
        a = _add(a, a)
        k >>= 1
    return acc


def _compress(a: Affine) -> bytes:
    assert a is not None
    x, y = a
    return bytes([2 + (y & 1)]) + x.to_bytes(32, "big")


def _decompress(enc: bytes) -> Affine:
    """SEC 1, 2.3.4, strict: None unless 33 bytes, prefix 02/03, x < p and x on the curve."""
    if len(enc) != 33 or enc[0] not in (2, 3):
        return None
    x = int.from_bytes(enc[1:], "big")
    if x >= P:
        return None
    rhs = (x**3 + 7) % P
    y = pow(rhs, (P + 1) // 4, P)
    if y * y % P != rhs:
        return None
    if y & 1 != enc[0] & 1:
        y = P - y
    return (x, y)


def _on_curve(x: int) -> bool:
    return pow((x**3 + 7) % P, (P - 1) // 2, P) == 1


BASE: Affine = (GX, GY)
SEC2_G = "0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798"


# --- base point and encodings ----------------------------------------------------------------


def test_generator_and_order_are_sec2() -> None:
    assert G.hex() == SEC2_G == _compress(BASE).hex()
    assert (L, FIELD_PRIME) == (N, P)
    assert _mul(N, BASE) is None  # the order of G is N ...
    assert (GY * GY - GX**3 - 7) % P == 0  # ... and G is on y^2 = x^3 + 7
    assert G.mul_public(N).is_identity and G.mul_public(N - 1) == -G


@given(st.integers(min_value=1, max_value=N - 1))
@settings(max_examples=20, deadline=None)
def test_multiplication_matches_independent_arithmetic(k: int) -> None:
    assert G.mul_secret(k).encoding == G.mul_public(k).encoding == _compress(_mul(k, BASE))
    h = generators(1)[0]
    hh = _decompress(h.encoding)
    assert hh is not None
    expected = _compress(_mul(k, hh))
    assert h.mul_secret(k).encoding == h.mul_public(k).encoding == expected
    assert (G.mul_secret(k) + h).encoding == _compress(_add(_mul(k, BASE), hh))
    assert (G.mul_secret(k) - h).encoding == _compress(_add(_mul(k, BASE), (hh[0], P - hh[1])))


@given(st.integers(min_value=1, max_value=N - 1), st.integers(min_value=1, max_value=N - 1))
@settings(max_examples=10, deadline=None)
def test_constant_time_path_matches_coincurve(k: int, j: int) -> None:
    """secp256k1_ecdh with the point-returning callback is k*P, as coincurve computes it."""
    point = G.mul_secret(j)
    expected = coincurve.PublicKey(point.encoding).multiply(k.to_bytes(32, "big")).format()
    assert point.mul_secret(k).encoding == expected
    from_secret = coincurve.PublicKey.from_secret(k.to_bytes(32, "big"))
    assert G.mul_secret(k).encoding == from_secret.format()


def test_coincurve_is_the_pinned_version_with_the_ecdh_callback_type() -> None:
    major = int(version("coincurve").split(".")[0])
    assert 21 <= major < 22  # pyproject.toml pins coincurve>=21,<22
    from coincurve._libsecp256k1 import ffi, lib

    hashfp = ffi.typeof("secp256k1_ecdh_hash_function")
    assert hashfp.kind == "function" and hashfp.result.cname == "int"  # a function pointer
    assert [a.cname for a in hashfp.args] == [
        "unsigned char *",
        "unsigned char *",
        "unsigned char *",
        "void *",
    ]
    assert ffi.typeof(lib.secp256k1_ecdh).args[4] is hashfp


@pytest.mark.parametrize(
    "data", [b"", bytes(1), bytes(32), bytes(34), SEC2_G, bytearray(66), None, 5]
)
def test_decode_rejects_wrong_length_or_type(data: object) -> None:
    with pytest.raises(DecodeError):
        Point.decode(data)  # type: ignore[arg-type]


def test_uncompressed_and_hybrid_forms_rejected() -> None:
    x, y = GX.to_bytes(32, "big"), GY.to_bytes(32, "big")
    for prefix in (4, 6, 7):  # SEC 1 uncompressed, and the hybrid forms libsecp256k1 parses
        with pytest.raises(DecodeError):
            Point.decode(bytes([prefix]) + x + y)
        with pytest.raises(DecodeError):  # the prefix alone on 33 bytes
            Point.decode(bytes([prefix]) + x)


@pytest.mark.parametrize("prefix", [0, 1, 4, 5, 6, 7, 8, 0x82, 0x83, 0xFF])
def test_prefixes_other_than_02_03_rejected(prefix: int) -> None:
    with pytest.raises(DecodeError):
        Point.decode(bytes([prefix]) + GX.to_bytes(32, "big"))


def test_identity_has_no_encoding() -> None:
    for data in (bytes(33), b"\x00", b"\x02" + bytes(32), b"\x03" + bytes(32)):
        with pytest.raises(DecodeError):
            Point.decode(data)
    assert IDENTITY.encoding == bytes(33)  # only ever hashed into a transcript (SPEC 4.1.1)


@pytest.mark.parametrize("offset", [0, 1, 2, 3, 4, 977, 2**32 + 976])
@pytest.mark.parametrize("prefix", [2, 3])
def test_x_not_reduced_mod_p_rejected(offset: int, prefix: int) -> None:
    x = P + offset
    if x >= 2**256:
        pytest.skip("no 32-byte value")
    enc = bytes([prefix]) + x.to_bytes(32, "big")
    with pytest.raises(DecodeError, match="reduced"):
        Point.decode(enc)


def test_x_not_reduced_is_rejected_even_where_x_minus_p_is_on_the_curve() -> None:
    small = [x for x in range(1, 60) if _on_curve(x) and P + x < 2**256]
    assert small  # e.g. x = 1: 1 + 7 = 8 is a square mod p
    for x in small:
        assert _decompress(b"\x02" + x.to_bytes(32, "big")) is not None
        with pytest.raises(DecodeError):
            Point.decode(b"\x02" + (P + x).to_bytes(32, "big"))
    with pytest.raises(DecodeError):
        Point.decode(b"\x03" + (2**256 - 1).to_bytes(32, "big"))


def test_x_off_the_curve_rejected() -> None:
    off = [x for x in range(0, 60) if not _on_curve(x)]
    assert len(off) > 10 and 0 in off  # x = 0: 7 is not a square mod p
    for x in off:
        for prefix in (2, 3):
            with pytest.raises(DecodeError, match="no curve point"):
                Point.decode(bytes([prefix]) + x.to_bytes(32, "big"))


@given(st.integers(min_value=1, max_value=N - 1))
@settings(max_examples=25, deadline=None)
def test_valid_points_round_trip(k: int) -> None:
    p = G.mul_public(k)
    assert Point.decode(p.encoding) == p
    assert Point.decode_hex(p.hex()) == p
    assert _decompress(p.encoding) == _mul(k, BASE)
    flipped = bytes([p.encoding[0] ^ 1]) + p.encoding[1:]
    assert Point.decode(flipped) == -p


@pytest.mark.parametrize(
    "text", ["02" + "79" * 32 + "0", SEC2_G.upper(), "zz" * 33, " " + SEC2_G, "0x" + SEC2_G]
)
def test_decode_hex_is_strict(text: str) -> None:
    with pytest.raises(DecodeError):
        Point.decode_hex(text)


def test_points_copy_and_pickle_as_values() -> None:
    h = generators(1)[0].mul_public(5)
    assert copy.copy(h) is h and copy.deepcopy([h])[0] is h
    for p in (h, G, IDENTITY, -h):
        again = pickle.loads(pickle.dumps(p))
        assert again == p and again.is_identity == p.is_identity
    assert pickle.loads(pickle.dumps(IDENTITY)) is IDENTITY
    k = random_scalar()
    assert pickle.loads(pickle.dumps(k)) == k and copy.deepcopy(k) == k


def test_points_are_not_constructible_from_untrusted_bytes() -> None:
    with pytest.raises(TypeError):
        Point(G.encoding)


# --- arithmetic ------------------------------------------------------------------------------


def test_identity_arithmetic() -> None:
    h = generators(1)[0]
    assert (h - h).is_identity
    assert G.mul_public(L).is_identity and G.mul_public(0).is_identity
    assert IDENTITY.mul_public(5).is_identity and IDENTITY.mul_secret(5).is_identity
    assert h + IDENTITY == h == IDENTITY + h
    assert sum_points([]) == IDENTITY == sum_points([IDENTITY, IDENTITY])
    assert sum_points([h, IDENTITY]) == h
    assert sum_points([h, G, -h, -G]).is_identity
    assert G.mul_public(L + 3) == G.mul_public(3) == G.mul_public(-(L - 3))
    neg = -h
    assert -neg == h and neg + h == IDENTITY and -IDENTITY == IDENTITY
    assert sum_points([h, h, h]) == h.mul_public(3) == h.mul_secret(3)


def test_multi_multiplication() -> None:
    h = generators(2)
    assert multi_mul_public((2, 3), (G, h[1])) == G.mul_public(2) + h[1].mul_public(3)
    assert multi_mul_secret((2, 3), (G, h[1])) == G.mul_public(2) + h[1].mul_public(3)
    assert multi_mul_public((), ()).is_identity
    with pytest.raises(ValueError):
        multi_mul_public((1,), ())
    with pytest.raises(ValueError):
        multi_mul_secret((1,), ())


@pytest.mark.parametrize("k", [0, L, L + 3, -1, True, 1.5])
def test_secret_multiplication_refuses_scalars_outside_1_to_L_minus_1(k: object) -> None:
    """A secret is never reduced or zero: the constant-time path takes exactly 1..L-1."""
    for point in (G, generators(1)[0]):
        with pytest.raises(ValueError):
            point.mul_secret(k)  # type: ignore[arg-type]


def test_ops_counter_counts_library_calls() -> None:
    h = generators(1)[0]
    before = OPS.snapshot()
    G.mul_public(5)
    G.mul_secret(5)
    h.mul_public(5)
    h.mul_secret(5)
    Point.decode(G.encoding).mul_public(7)  # equal to G but not G: the generic path
    sum_points([h, G, h])
    _ = h + G
    after = OPS.snapshot()
    mul, mul_ct, base_mul, add, combine, validate = (
        a - b for a, b in zip(after, before, strict=True)
    )
    assert (mul, mul_ct, base_mul, add, combine, validate) == (2, 1, 2, 3, 2, 1)


# --- scalars ---------------------------------------------------------------------------------


@pytest.mark.parametrize("k", [0, L, L + 1, 2**256 - 2**128, 2**256 - 1])
def test_scalar_decode_rejects_zero_and_unreduced(k: int) -> None:
    with pytest.raises(DecodeError):
        scalar_from_bytes(k.to_bytes(32, "big"))


@pytest.mark.parametrize("data", [b"", bytes(31), b"\x01" + bytes(32), "01" * 32])
def test_scalar_decode_rejects_wrong_length(data: object) -> None:
    with pytest.raises(DecodeError):
        scalar_from_bytes(data)  # type: ignore[arg-type]


@given(st.integers(min_value=1, max_value=L - 1))
def test_scalars_round_trip_big_endian(k: int) -> None:
    assert scalar_to_bytes(k) == k.to_bytes(32, "big")
    assert scalar_from_bytes(scalar_to_bytes(k)) == k
    assert scalar_from_hex(scalar_to_bytes(k).hex()) == k
    with pytest.raises(DecodeError):
        scalar_from_hex(scalar_to_bytes(k).hex().upper() + "0")


def test_random_scalar_is_nonzero_reduced_and_big_endian() -> None:
    queue = [bytes(64), L.to_bytes(64, "big"), (L + 9).to_bytes(64, "big")]
    assert random_scalar(lambda n: queue.pop(0)) == 9  # zero draws are redrawn


def test_secret_scalars_do_not_show_in_repr() -> None:
    k = random_scalar(lambda n: (L + 123456789).to_bytes(n, "big"))
    assert isinstance(k, SecretScalar) and k == 123456789
    for text in (repr(k), str(k), f"{k}", f"{k!r}", f"{[k]}", f"{(k, 1)}"):
        assert "123456789" not in text

    @dataclasses.dataclass
    class Holder:
        secret: int

    assert "123456789" not in repr(Holder(k))
    assert scalar_to_bytes(k) == (123456789).to_bytes(32, "big")  # still the number
    assert type(k + 1) is int  # arithmetic gives plain (public) ints


@pytest.mark.parametrize("k", [0, L, -1, True, 1.0])
def test_check_secret(k: object) -> None:
    with pytest.raises(ValueError):
        check_secret(k)  # type: ignore[arg-type]
    assert check_secret(L - 1) == L - 1


# --- hash to point, card points, generators (SPEC 4.1.3) -------------------------------------


def _spec_hash_to_point(domain: bytes, index: int) -> tuple[bytes, int]:
    tag = b"p2pwillow/v1/hash-to-point"
    for counter in range(1000):
        data = (
            bytes([len(tag)])
            + tag
            + bytes([len(domain)])
            + domain
            + index.to_bytes(4, "big")
            + counter.to_bytes(4, "big")
        )
        x = int.from_bytes(hashlib.sha256(data).digest(), "big")
        if x < P and _on_curve(x):
            y = pow((x**3 + 7) % P, (P + 1) // 4, P)
            y = y if y % 2 == 0 else P - y
            return _compress((x, y)), counter
    raise AssertionError("no point")


@pytest.mark.parametrize(("domain", "count"), [(b"card", 52), (b"generator", 8)])
def test_hash_to_point_matches_the_spec_procedure(domain: bytes, count: int) -> None:
    counters = set()
    for i in range(count):
        enc, counter = _spec_hash_to_point(domain, i)
        point, hit = hash_to_point_with_counter(domain, i)
        assert (point.encoding, hit) == (enc, counter)
        assert enc[0] == 2  # even y
        assert hash_to_point(domain, i) == point  # deterministic
        counters.add(counter)
    assert counters != {0}  # some candidates were skipped, so the skipping was exercised


def test_card_points_distinct_and_decode_back() -> None:
    assert len(CARD_POINTS) == 52 == len(set(CARD_POINTS))
    gens = generators(60)
    assert len(set(gens)) == 60 and not set(gens) & set(CARD_POINTS)
    assert G not in CARD_POINTS and G not in gens
    for i, m in enumerate(CARD_POINTS):
        assert Point.decode(m.encoding) == m == card_point(i)
        assert card_index(m) == i
    with pytest.raises(DecodeError):
        card_index(G)


def test_hash_to_point_rejects_bad_parameters() -> None:
    with pytest.raises(ValueError):
        hash_to_point(b"x" * 256, 0)
    with pytest.raises(ValueError):
        hash_to_point(b"card", 2**32)
    with pytest.raises(ValueError):
        hash_to_point(b"card", -1)
