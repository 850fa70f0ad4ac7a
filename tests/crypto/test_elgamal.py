"""ElGamal over the card points (SPEC 4.2): encryption, key switch, re-encryption, encodings."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from p2pwillow.crypto import DecodeError
from p2pwillow.crypto.elgamal import (
    Ciphertext,
    decrypt,
    decrypt_point,
    decryption_share,
    encrypt,
    encrypt_with,
    joint_key,
    open_with_share,
    public_key,
    reencrypt,
    reencrypt_to,
    remove_shares,
    trivial_encryption,
)
from p2pwillow.crypto.group import IDENTITY, G, L, card_point
from tools.vectors.common import invalid_point_encodings, seeded_rng

scalars = st.integers(min_value=1, max_value=L - 1)
cards = st.integers(min_value=0, max_value=51)


@given(cards, scalars, scalars)
@settings(max_examples=15, deadline=None)
def test_encrypt_decrypt(card: int, x: int, r: int) -> None:
    ct = encrypt_with(card_point(card), public_key(x), r)
    assert ct.c1 == G.mul_public(r)
    assert decrypt(ct, x) == card
    assert decrypt_point(ct, x) == card_point(card)
    with pytest.raises(DecodeError):
        decrypt(ct, x % (L - 1) + 1)  # another key


def test_encrypt_uses_the_rng() -> None:
    key = public_key(7)
    a = encrypt(3, key, seeded_rng("a"))
    assert a == encrypt(3, key, seeded_rng("a"))
    assert a != encrypt(3, key, seeded_rng("b"))
    assert decrypt(a, 7) == 3


@given(cards, st.lists(scalars, min_size=2, max_size=5), scalars)
@settings(max_examples=10, deadline=None)
def test_key_switch_leaves_a_ciphertext_under_the_owner_key(
    card: int, secrets: list[int], r: int
) -> None:
    keys = [public_key(x) for x in secrets]
    ct = encrypt_with(card_point(card), joint_key(keys), r)
    owner, others = secrets[0], secrets[1:]
    switched = remove_shares(ct, [decryption_share(ct, x) for x in others])
    assert decrypt(switched, owner) == card
    assert open_with_share(switched, decryption_share(switched, owner)) == card


def test_trivial_encryption_is_randomness_one() -> None:
    key = public_key(11)
    assert trivial_encryption(5, key) == encrypt_with(card_point(5), key, 1)
    assert decrypt(trivial_encryption(5, key), 11) == 5


@given(cards, scalars, scalars, scalars)
@settings(max_examples=10, deadline=None)
def test_reencrypt_keeps_key_and_plaintext(card: int, x: int, r0: int, r: int) -> None:
    assume((r0 + r) % L != 0)
    key = public_key(x)
    ct = encrypt_with(card_point(card), key, r0)
    again = reencrypt(ct, key, r)
    assert again == encrypt_with(card_point(card), key, (r0 + r) % L)
    assert decrypt(again, x) == card


@given(cards, scalars, scalars, scalars, scalars)
@settings(max_examples=10, deadline=None)
def test_reencrypt_to_moves_to_the_other_key(card: int, xa: int, xb: int, r0: int, r: int) -> None:
    before = encrypt_with(card_point(card), public_key(xa), r0)
    after = reencrypt_to(before, xa, public_key(xb), r)
    assert after == encrypt_with(card_point(card), public_key(xb), r)
    assert decrypt(after, xb) == card


def test_ciphertext_encoding_round_trip() -> None:
    ct = encrypt_with(card_point(9), public_key(5), 77)
    assert len(ct.encode()) == 66
    assert Ciphertext.decode(ct.encode()) == ct
    assert Ciphertext.from_hex(ct.hex()) == ct
    assert ct.encode() == ct.c1.encoding + ct.c2.encoding


@pytest.mark.parametrize("bad", [enc for _, _, enc in invalid_point_encodings() if len(enc) == 66])
def test_ciphertext_decode_rejects_invalid_components(bad: str) -> None:
    """The identity, twist points, x >= p and bad prefixes, in either half (SPEC 4.2.1)."""
    ct = encrypt_with(card_point(9), public_key(5), 77)
    with pytest.raises(DecodeError):
        Ciphertext.from_hex(bad + ct.c2.hex())
    with pytest.raises(DecodeError):
        Ciphertext.from_hex(ct.c1.hex() + bad)


@pytest.mark.parametrize("data", [b"", bytes(64), bytes(65), bytes(67), bytes(130), "00" * 66])
def test_ciphertext_decode_rejects_wrong_length_or_type(data: object) -> None:
    with pytest.raises(DecodeError):
        Ciphertext.decode(data)  # type: ignore[arg-type]


def test_ciphertext_from_hex_is_strict() -> None:
    ct = encrypt_with(card_point(9), public_key(5), 77)
    for text in (ct.hex().upper(), ct.hex()[:-1], ct.hex() + "0", "x" + ct.hex()[1:]):
        with pytest.raises(DecodeError):
            Ciphertext.from_hex(text)


def test_identity_is_not_a_key_share() -> None:
    assert joint_key([]) == IDENTITY
    ct = encrypt_with(card_point(0), public_key(3), 4)
    assert remove_shares(ct, []) == ct
