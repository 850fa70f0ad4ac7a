"""The group layer (SPEC 4.1): encodings, validation, scalars, hash to point, card points.

An independent pure-Python edwards25519 (RFC 8032, section 5.1) recomputes what libsodium does.
"""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nacl import bindings

from p2pwillow.crypto import DecodeError
from p2pwillow.crypto.group import (
    CARD_POINTS,
    IDENTITY,
    OPS,
    G,
    L,
    Point,
    card_index,
    card_point,
    check_secret,
    generators,
    hash_to_point,
    hash_to_point_with_counter,
    random_scalar,
    scalar_from_bytes,
    scalar_from_hex,
    scalar_to_bytes,
    sum_points,
)

# --- an independent edwards25519, extended coordinates (RFC 8032, 5.1) ----------------------

P = 2**255 - 19
D = -121665 * pow(121666, -1, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)
Ext = tuple[int, int, int, int]
ZERO: Ext = (0, 1, 1, 0)


def _add(a: Ext, b: Ext) -> Ext:
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    aa = (y1 - x1) * (y2 - x2) % P
    bb = (y1 + x1) * (y2 + x2) % P
    cc = 2 * t1 * t2 * D % P
    dd = 2 * z1 * z2 % P
    e, f, g, h = bb - aa, dd - cc, dd + cc, bb + aa
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def _mul(k: int, a: Ext) -> Ext:
    acc = ZERO
    while k:
        if k & 1:
            acc = _add(acc, a)
        a = _add(a, a)
        k >>= 1
    return acc


def _is_zero(a: Ext) -> bool:
    x, y, z, _ = a
    return x % P == 0 and (y - z) % P == 0


def _decompress(enc: bytes) -> Ext | None:
    """RFC 8032 5.1.3, strict: None for y >= p, no square root, or x = 0 with sign 1."""
    if len(enc) != 32:
        return None
    n = int.from_bytes(enc, "little")
    y, sign = n & ((1 << 255) - 1), n >> 255
    if y >= P:
        return None
    u, v = (y * y - 1) % P, (D * y * y + 1) % P
    x = u * pow(v, 3, P) * pow(u * pow(v, 7, P), (P - 5) // 8, P) % P
    if (v * x * x - u) % P != 0:
        x = x * SQRT_M1 % P
        if (v * x * x - u) % P != 0:
            return None
    if x == 0 and sign:
        return None
    if x & 1 != sign:
        x = P - x
    return (x, y, 1, x * y % P)


def _compress(a: Ext) -> bytes:
    x, y, z, _ = a
    zi = pow(z, P - 2, P)
    x, y = x * zi % P, y * zi % P
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def _is_subgroup_point(enc: bytes) -> bool:
    """The SPEC 4.1.1 acceptance rule, recomputed: canonical, on the curve, order exactly L."""
    a = _decompress(enc)
    return a is not None and not _is_zero(a) and _is_zero(_mul(L, a))


BASE_Y = 4 * pow(5, -1, P) % P
RFC8032_B = "5866666666666666666666666666666666666666666666666666666666666666"


def _torsion() -> list[bytes]:
    """The 8 points of E[8], found independently: 8*P = 0 for P decompressed from candidates."""
    found = {_compress(ZERO)}
    # An order-8 point: y = sqrt((1 + sqrt(d+1)) / d)-style closed forms are fiddly; instead
    # multiply curve points by L (killing the L-part) until the result has order 8.
    y = 2
    while len(found) < 8:
        a = _decompress(y.to_bytes(32, "little"))
        y += 1
        if a is None:
            continue
        t = _mul(L, a)
        for i in range(8):
            found.add(_compress(_mul(i, t)))
    return sorted(found)


TORSION = _torsion()


# --- base point and encodings ----------------------------------------------------------------


def test_base_point_is_rfc8032_b() -> None:
    assert G.hex() == RFC8032_B
    b = _decompress(bytes.fromhex(RFC8032_B))
    assert b is not None and b[1] == BASE_Y and b[0] % 2 == 0
    one = bindings.crypto_scalarmult_ed25519_base_noclamp(scalar_to_bytes(1))
    assert one.hex() == RFC8032_B
    assert Point.decode_hex(RFC8032_B) == G


@given(st.integers(min_value=1, max_value=L - 1))
@settings(max_examples=20, deadline=None)
def test_multiplication_matches_independent_arithmetic(k: int) -> None:
    b = _decompress(G.encoding)
    assert b is not None
    assert (G * k).encoding == _compress(_mul(k, b))
    h = generators(1)[0]
    hh = _decompress(h.encoding)
    assert hh is not None
    assert (h * k).encoding == _compress(_mul(k, hh))
    assert (G * k + h).encoding == _compress(_add(_mul(k, b), hh))


@pytest.mark.parametrize("data", [b"", bytes(31), bytes(33), RFC8032_B, bytearray(64)])
def test_decode_rejects_wrong_length_or_type(data: object) -> None:
    with pytest.raises(DecodeError):
        Point.decode(data)  # type: ignore[arg-type]


def test_torsion_points_are_the_eight_rejected() -> None:
    assert len(TORSION) == 8
    assert IDENTITY.encoding in TORSION
    for enc in TORSION:
        with pytest.raises(DecodeError):
            Point.decode(enc)
        assert not _is_subgroup_point(enc)


@pytest.mark.parametrize("index", range(8))
def test_mixed_order_points_rejected(index: int) -> None:
    t = _decompress(TORSION[index])
    g = _decompress(G.encoding)
    assert t is not None and g is not None
    mixed = _compress(_add(g, t))
    if _is_zero(t):
        assert Point.decode(mixed) == G
        return
    assert _decompress(mixed) is not None  # on the curve, canonical ...
    with pytest.raises(DecodeError):  # ... but not in the prime-order subgroup
        Point.decode(mixed)


@pytest.mark.parametrize("y", range(19))
@pytest.mark.parametrize("sign", [0, 1])
def test_non_canonical_y_rejected(y: int, sign: int) -> None:
    enc = ((P + y) | (sign << 255)).to_bytes(32, "little")
    with pytest.raises(DecodeError):
        Point.decode(enc)


def test_negative_zero_x_rejected() -> None:
    for y in (1, P - 1):  # x = 0 points, sign bit set
        with pytest.raises(DecodeError):
            Point.decode((y | (1 << 255)).to_bytes(32, "little"))


def test_off_curve_rejected() -> None:
    off = [y for y in range(2, 60) if _decompress(y.to_bytes(32, "little")) is None]
    assert len(off) > 5
    for y in off:
        with pytest.raises(DecodeError):
            Point.decode(y.to_bytes(32, "little"))


@given(st.integers(min_value=1, max_value=L - 1))
@settings(max_examples=25, deadline=None)
def test_valid_points_round_trip(k: int) -> None:
    p = G * k
    assert Point.decode(p.encoding) == p
    assert Point.decode_hex(p.hex()) == p
    neg = bytearray(p.encoding)
    neg[31] ^= 0x80
    assert Point.decode(bytes(neg)) == -p


@pytest.mark.parametrize(
    "text", ["58" * 32 + "0", (G * 2).hex().upper(), "zz" * 32, " " + RFC8032_B, "0x" + RFC8032_B]
)
def test_decode_hex_is_strict(text: str) -> None:
    with pytest.raises(DecodeError):
        Point.decode_hex(text)


def test_points_are_not_constructible_from_untrusted_bytes() -> None:
    with pytest.raises(TypeError):
        Point(G.encoding)


# --- arithmetic ------------------------------------------------------------------------------


def test_identity_arithmetic() -> None:
    h = generators(1)[0]
    assert (h - h).is_identity
    assert (G * L).is_identity and (G * 0).is_identity
    assert (IDENTITY * 5).is_identity
    assert h + IDENTITY == h
    assert sum_points([]) == IDENTITY
    assert G * (L + 3) == G * 3
    neg = -h
    assert -neg == h and neg + h == IDENTITY


def test_ops_counter_counts_multiplications() -> None:
    before = OPS.snapshot()
    G * 5
    generators(1)[0] * 5
    Point.decode(G.encoding) * 7  # equal to G: the fixed-base path
    after = OPS.snapshot()
    assert after[0] - before[0] == 1
    assert after[1] - before[1] == 2
    assert after[3] - before[3] == 1


# --- scalars ---------------------------------------------------------------------------------


@pytest.mark.parametrize("k", [0, L, L + 1, 2 * L, 2**256 - 1])
def test_scalar_decode_rejects_zero_and_unreduced(k: int) -> None:
    with pytest.raises(DecodeError):
        scalar_from_bytes(k.to_bytes(32, "little"))


@pytest.mark.parametrize("data", [b"", bytes(31), b"\x01" + bytes(32), "01" * 32])
def test_scalar_decode_rejects_wrong_length(data: object) -> None:
    with pytest.raises(DecodeError):
        scalar_from_bytes(data)  # type: ignore[arg-type]


@given(st.integers(min_value=1, max_value=L - 1))
def test_scalars_round_trip(k: int) -> None:
    assert scalar_from_bytes(scalar_to_bytes(k)) == k
    assert scalar_from_hex(scalar_to_bytes(k).hex()) == k
    with pytest.raises(DecodeError):
        scalar_from_hex(scalar_to_bytes(k).hex().upper() + "0")


def test_random_scalar_is_nonzero_and_reduced() -> None:
    queue = [bytes(64), (L).to_bytes(64, "little"), (L + 9).to_bytes(64, "little")]
    assert random_scalar(lambda n: queue.pop(0)) == 9  # zero draws are redrawn


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
        candidate = hashlib.sha512(data).digest()[:32]
        if _is_subgroup_point(candidate):
            return candidate, counter
    raise AssertionError("no point")


@pytest.mark.parametrize(("domain", "count"), [(b"card", 52), (b"generator", 8)])
def test_hash_to_point_matches_the_spec_procedure(domain: bytes, count: int) -> None:
    for i in range(count):
        enc, counter = _spec_hash_to_point(domain, i)
        point, hit = hash_to_point_with_counter(domain, i)
        assert (point.encoding, hit) == (enc, counter)
        assert hash_to_point(domain, i) == point  # deterministic


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
