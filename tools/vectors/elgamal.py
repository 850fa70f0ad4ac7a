"""Vectors for ElGamal over the card points: encryption, decryption, key switch, re-encryption.

Generates and checks protocol/vectors/elgamal.json (SPEC 4.2); no I/O.
"""

from __future__ import annotations

from p2pwillow.crypto.elgamal import (
    Ciphertext,
    decrypt,
    decryption_share,
    encrypt_with,
    joint_key,
    reencrypt,
    reencrypt_to,
    remove_shares,
    trivial_encryption,
)
from p2pwillow.crypto.group import G, L, Point, card_point, scalar_from_hex, scalar_hex
from tools.vectors.common import (
    IDENTITY_ENCODINGS,
    Json,
    case,
    document,
    invalid_point_encodings,
    scalar_hex_raw,
    seeded_scalar,
    twist_points,
)

FILE_NAME = "elgamal.json"

NOTES = {
    "Encrypt": "(r*G, M_card + r*Y) for the listed card, key and randomness r.",
    "Trivial": "The public starting ciphertext (G, M_card + Y): randomness 1.",
    "Decrypt": "c2 - x*c1 is the point of the listed card.",
    "KeySwitch": "Decryption shares D_j = x_j*c1 of the other holders subtracted from c2 leave "
    "a ciphertext under the owner's key alone.",
    "Reencrypt": "(c1 + r*G, c2 + r*Y): same key, same plaintext, new randomness.",
    "ReencryptTo": "(r*G, c2 - x_A*c1 + r*Y_B): moved from key Y_A to key Y_B.",
    "NotACard": "The decrypted point is not one of M_0..M_51 (wrong key): rejected.",
    "InvalidCiphertext": "A ciphertext field that is not 66 bytes of two compressed curve points.",
    "InvalidKey": "A public key that is not the compressed encoding of a curve point.",
    "ZeroScalar": "A zero secret or randomness: rejected.",
    "NonCanonicalScalar": "A secret or randomness >= L: rejected.",
}


def _ct(c1: Point, c2: Point) -> str:
    return Ciphertext(c1, c2).hex()


def _bad_ciphertexts(good: Ciphertext) -> list[tuple[str, str]]:
    c1, c2 = good.c1.hex(), good.c2.hex()
    points = [p for p in invalid_point_encodings() if len(p[2]) == 66]
    bad = [(f"c1 {comment}", enc + c2) for comment, _, enc in points[:8]]
    above_p = next(p for p in points if p[1] == ["NonCanonicalPoint"] and "curve" in p[0])
    bad += [
        ("c2 is the identity", c1 + IDENTITY_ENCODINGS[0][1]),
        (f"c2 {above_p[0]}", c1 + above_p[2]),
        (f"c2 {twist_points()[1][0]}", c1 + twist_points()[1][1]),
        ("c2 uncompressed (65 bytes)", c1 + "04" + good.c2.encoding[1:].hex() + "00" * 32),
        ("65 bytes", (c1 + c2)[:-2]),
        ("67 bytes", c1 + c2 + "00"),
        ("uppercase hex", (c1 + c2).upper()),
    ]
    return bad


def _encrypt_group() -> Json:
    tests: list[Json] = []
    for i, card in enumerate((0, 1, 25, 51)):
        x, r = seeded_scalar(f"elgamal/encrypt/key/{i}"), seeded_scalar(f"elgamal/encrypt/r/{i}")
        key = G.mul_public(x)
        ct = encrypt_with(card_point(card), key, r)
        tests.append(
            case(
                f"card {card}",
                "valid",
                ["Encrypt"],
                card=card,
                key=key.hex(),
                r=scalar_hex(r),
                ciphertext=ct.hex(),
            )
        )
    key = G.mul_public(seeded_scalar("elgamal/encrypt/key/0"))
    ct = encrypt_with(card_point(7), key, 5)
    for comment, _, enc in invalid_point_encodings()[:12:3]:
        tests.append(
            case(
                f"key: {comment}",
                "invalid",
                ["InvalidKey"],
                card=7,
                key=enc,
                r=scalar_hex(5),
                ciphertext=ct.hex(),
                error="DecodeError",
            )
        )
    for comment, flag, r_hex in (
        ("r = 0", "ZeroScalar", scalar_hex_raw(0)),
        ("r = 5 + L", "NonCanonicalScalar", scalar_hex_raw(5 + L)),
    ):
        tests.append(
            case(
                comment,
                "invalid",
                [flag],
                card=7,
                key=key.hex(),
                r=r_hex,
                ciphertext=ct.hex(),
                error="DecodeError",
            )
        )
    return {"type": "Encrypt", "tests": tests}


def _trivial_group() -> Json:
    tests = []
    for card in (0, 51):
        key = G.mul_public(seeded_scalar(f"elgamal/trivial/{card}"))
        tests.append(
            case(
                f"card {card}",
                "valid",
                ["Trivial"],
                card=card,
                key=key.hex(),
                ciphertext=trivial_encryption(card, key).hex(),
            )
        )
    return {"type": "TrivialEncryption", "tests": tests}


def _decrypt_group() -> Json:
    tests: list[Json] = []
    x = seeded_scalar("elgamal/decrypt/key")
    key = G.mul_public(x)
    good = encrypt_with(card_point(12), key, seeded_scalar("elgamal/decrypt/r"))
    for card in (0, 12, 51):
        r = seeded_scalar(f"elgamal/decrypt/r/{card}")
        ct = encrypt_with(card_point(card), key, r)
        tests.append(
            case(
                f"card {card}",
                "valid",
                ["Decrypt"],
                secret=scalar_hex(x),
                ciphertext=ct.hex(),
                card=card,
            )
        )
    tests.append(
        case(
            "the wrong key",
            "invalid",
            ["NotACard"],
            secret=scalar_hex(x + 1),
            ciphertext=good.hex(),
            card=12,
            error="DecodeError",
        )
    )
    tests.append(
        case(
            "c2 shifted by G: the plaintext is no card",
            "invalid",
            ["NotACard"],
            secret=scalar_hex(x),
            ciphertext=_ct(good.c1, good.c2 + G),
            card=12,
            error="DecodeError",
        )
    )
    for comment, ct_hex in _bad_ciphertexts(good):
        tests.append(
            case(
                comment,
                "invalid",
                ["InvalidCiphertext"],
                secret=scalar_hex(x),
                ciphertext=ct_hex,
                card=12,
                error="DecodeError",
            )
        )
    tests.append(
        case(
            "secret = 0",
            "invalid",
            ["ZeroScalar"],
            secret=scalar_hex_raw(0),
            ciphertext=good.hex(),
            card=12,
            error="DecodeError",
        )
    )
    return {"type": "Decrypt", "tests": tests}


def _key_switch_group() -> Json:
    tests: list[Json] = []
    for n in (2, 3, 5):
        secrets = [seeded_scalar(f"elgamal/switch/{n}/{j}") for j in range(n)]
        keys = [G.mul_public(x) for x in secrets]
        card = 3 * n
        ct = encrypt_with(card_point(card), joint_key(keys), seeded_scalar(f"elgamal/switch/{n}/r"))
        shares = [decryption_share(ct, x) for x in secrets[1:]]
        switched = remove_shares(ct, shares)
        tests.append(
            case(
                f"{n} players, card to player 0",
                "valid",
                ["KeySwitch"],
                keys=[k.hex() for k in keys],
                ciphertext=ct.hex(),
                otherSecrets=[scalar_hex(x) for x in secrets[1:]],
                shares=[s.hex() for s in shares],
                switched=switched.hex(),
                ownerSecret=scalar_hex(secrets[0]),
                card=card,
            )
        )
    return {"type": "KeySwitch", "tests": tests}


def _reencrypt_group() -> Json:
    tests: list[Json] = []
    key = G.mul_public(seeded_scalar("elgamal/reencrypt/key"))
    before = encrypt_with(card_point(9), key, seeded_scalar("elgamal/reencrypt/r0"))
    r = seeded_scalar("elgamal/reencrypt/r")
    tests.append(
        case(
            "card 9",
            "valid",
            ["Reencrypt"],
            key=key.hex(),
            r=scalar_hex(r),
            before=before.hex(),
            after=reencrypt(before, key, r).hex(),
        )
    )
    tests.append(
        case(
            "r = 0",
            "invalid",
            ["ZeroScalar"],
            key=key.hex(),
            r=scalar_hex_raw(0),
            before=before.hex(),
            after=before.hex(),
            error="DecodeError",
        )
    )
    return {"type": "Reencrypt", "tests": tests}


def _reencrypt_to_group() -> Json:
    tests: list[Json] = []
    for card in (4, 50):
        xa, xb = seeded_scalar(f"reencrypt-to/a/{card}"), seeded_scalar(f"reencrypt-to/b/{card}")
        before = encrypt_with(
            card_point(card), G.mul_public(xa), seeded_scalar(f"reencrypt-to/r0/{card}")
        )
        r = seeded_scalar(f"reencrypt-to/r/{card}")
        after = reencrypt_to(before, xa, G.mul_public(xb), r)
        tests.append(
            case(
                f"card {card}",
                "valid",
                ["ReencryptTo"],
                secretA=scalar_hex(xa),
                keyB=G.mul_public(xb).hex(),
                secretB=scalar_hex(xb),
                r=scalar_hex(r),
                before=before.hex(),
                after=after.hex(),
                card=card,
            )
        )
    return {"type": "ReencryptTo", "tests": tests}


def generate() -> Json:
    groups = [
        _encrypt_group(),
        _trivial_group(),
        _decrypt_group(),
        _key_switch_group(),
        _reencrypt_group(),
        _reencrypt_to_group(),
    ]
    return document(
        "elgamal",
        "ElGamal over secp256k1 with card points M_i",
        NOTES,
        groups,
        header="SPEC 4.2. A ciphertext is c1 || c2 (66 bytes, compressed points); scalars are "
        "32 bytes big-endian; all lowercase hex.",
    )


def check(group: Json, test: Json) -> None:
    kind = group["type"]
    if kind == "Encrypt":
        key, r = Point.decode_hex(test["key"]), scalar_from_hex(test["r"])
        ct = Ciphertext.from_hex(test["ciphertext"])
        assert encrypt_with(card_point(test["card"]), key, r) == ct
    elif kind == "TrivialEncryption":
        key = Point.decode_hex(test["key"])
        assert trivial_encryption(test["card"], key) == Ciphertext.from_hex(test["ciphertext"])
    elif kind == "Decrypt":
        x = scalar_from_hex(test["secret"])
        assert decrypt(Ciphertext.from_hex(test["ciphertext"]), x) == test["card"]
    elif kind == "KeySwitch":
        keys = [Point.decode_hex(k) for k in test["keys"]]
        ct = Ciphertext.from_hex(test["ciphertext"])
        others = [scalar_from_hex(x) for x in test["otherSecrets"]]
        owner = scalar_from_hex(test["ownerSecret"])
        assert [G.mul_public(x) for x in [owner, *others]] == keys
        shares = [Point.decode_hex(s) for s in test["shares"]]
        assert [decryption_share(ct, x) for x in others] == shares
        switched = Ciphertext.from_hex(test["switched"])
        assert remove_shares(ct, shares) == switched
        assert decrypt(switched, owner) == test["card"]
        assert decrypt(ct, (sum(others) + owner) % L) == test["card"]
    elif kind == "Reencrypt":
        key, r = Point.decode_hex(test["key"]), scalar_from_hex(test["r"])
        before, after = Ciphertext.from_hex(test["before"]), Ciphertext.from_hex(test["after"])
        assert reencrypt(before, key, r) == after
    elif kind == "ReencryptTo":
        xa, xb, r = (scalar_from_hex(test[f]) for f in ("secretA", "secretB", "r"))
        key_b = Point.decode_hex(test["keyB"])
        assert G.mul_public(xb) == key_b
        before, after = Ciphertext.from_hex(test["before"]), Ciphertext.from_hex(test["after"])
        assert reencrypt_to(before, xa, key_b, r) == after
        assert decrypt(before, xa) == decrypt(after, xb) == test["card"]
    else:
        raise AssertionError(f"unknown group type {kind}")
