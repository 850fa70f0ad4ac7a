"""Fiat-Shamir transcript and the sigma proofs: Schnorr, DLEQ, re-encryption (SPEC 4.3-4.6).

Hazmat; pure. Every challenge in the project comes from one `FiatShamir` transcript: a domain
label per proof, every statement element and commitment appended with a label and a length
prefix, and the caller's context (game, hand, seat, previous entry hash) bound in first, so a
proof is valid for exactly one statement in exactly one place (strong Fiat-Shamir).

Provers multiply only with `mul_secret` (constant time), verifiers only with `mul_public`
(SPEC 4.1.4).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from p2pwillow.crypto.checked import CHECKED, digest
from p2pwillow.crypto.elgamal import Ciphertext
from p2pwillow.crypto.group import (
    SCALAR_BYTES,
    DecodeError,
    G,
    InvalidProof,
    L,
    Point,
    Rng,
    bytes_from_hex,
    check_secret,
    multi_mul_public,
    random_scalar,
    scalar_from_bytes,
    scalar_to_bytes,
    sum_points,
)

FS_PROTOCOL = b"p2pwillow/v1/fiat-shamir"


def _frame(label: bytes, data: bytes) -> bytes:
    return len(label).to_bytes(4, "big") + label + len(data).to_bytes(8, "big") + data


class FiatShamir:
    """A running SHA-512 transcript (SPEC 4.3).

    Layout: frame("protocol", FS_PROTOCOL), frame("domain", label), frame("context", context),
    then every append as frame(label, data) with frame(l, d) = u32be(len l) || l || u64be(len d)
    || d. A challenge is SHA-512 of the transcript so far plus frame("challenge", label), read
    big-endian and reduced mod L; its 32-byte encoding is then appended under that label, so
    successive challenges differ and depend on each other.
    """

    __slots__ = ("_h",)

    def __init__(self, domain: bytes, context: bytes) -> None:
        self._h = hashlib.sha512()
        self._h.update(_frame(b"protocol", FS_PROTOCOL))
        self._h.update(_frame(b"domain", domain))
        self._h.update(_frame(b"context", context))

    def copy(self) -> FiatShamir:
        """An independent transcript with the same state (to fork after a common prefix)."""
        other = FiatShamir.__new__(FiatShamir)
        other._h = self._h.copy()
        return other

    def append(self, label: bytes, data: bytes) -> None:
        self._h.update(_frame(label, data))

    def append_point(self, label: bytes, point: Point) -> None:
        self._h.update(_frame(label, point.encoding))

    def append_points(self, label: bytes, points: Iterable[Point]) -> None:
        """A list of points: its length in a frame of its own, then each point."""
        pts = list(points)
        self._h.update(_frame(label, len(pts).to_bytes(8, "big")))
        for p in pts:
            self._h.update(_frame(label, p.encoding))

    def append_scalar(self, label: bytes, k: int) -> None:
        self._h.update(_frame(label, scalar_to_bytes(k)))

    def challenge(self, label: bytes) -> int:
        """A nonzero challenge scalar; feeds itself back into the transcript."""
        counter = 0
        while True:
            h = self._h.copy()
            suffix = b"" if counter == 0 else counter.to_bytes(4, "big")
            h.update(_frame(b"challenge", label + suffix))
            c = int.from_bytes(h.digest(), "big") % L
            if c:
                self.append(label, scalar_to_bytes(c))
                return c
            counter += 1  # pragma: no cover - probability 2^-256

    def challenges(self, label: bytes, n: int) -> list[int]:
        """n challenge scalars in one go, each derived under label || u32be(i)."""
        return [self.challenge(label + i.to_bytes(4, "big")) for i in range(n)]


# --- the sigma proofs (SPEC 4.4-4.6) ---------------------------------------------------------

DOMAIN_KEY = b"schnorr-key"
DOMAIN_DLEQ = b"dleq"
DOMAIN_DLEQ_BATCH = b"dleq-batch"
DOMAIN_REENCRYPTION = b"reencryption"


def _decode_scalars(data: bytes, count: int, what: str) -> list[int]:
    """count canonical nonzero scalars, back to back; DecodeError naming `what` otherwise."""
    if not isinstance(data, bytes | bytearray) or len(data) != count * SCALAR_BYTES:
        raise DecodeError(f"{what}: exactly {count * SCALAR_BYTES} bytes expected")
    try:
        return [
            scalar_from_bytes(bytes(data[i : i + SCALAR_BYTES]))
            for i in range(0, len(data), SCALAR_BYTES)
        ]
    except DecodeError as exc:
        raise DecodeError(f"{what}: {exc}") from None


def _is_scalar(k: object) -> bool:
    return isinstance(k, int) and not isinstance(k, bool) and 0 < k < L


def _require_statement(context: object, *points: object) -> None:
    """A statement is made of group points other than the identity, and a bytes context."""
    if not isinstance(context, bytes):
        raise InvalidProof("the context must be bytes")
    for p in points:
        if not isinstance(p, Point):
            raise InvalidProof("a statement element is not a point")
        if p.is_identity:
            raise InvalidProof("the identity appears in the statement")


@dataclass(frozen=True, slots=True)
class KeyProof:
    """Schnorr proof of knowledge of x with Y = x*G, compact form (c, s). SPEC 4.4."""

    challenge: int
    response: int

    def encode(self) -> bytes:
        """64 bytes: c || s, each a canonical scalar (32 bytes big-endian)."""
        return scalar_to_bytes(self.challenge) + scalar_to_bytes(self.response)

    @classmethod
    def decode(cls, data: bytes) -> KeyProof:
        c, s = _decode_scalars(data, 2, "key proof")
        return cls(c, s)

    def hex(self) -> str:
        return self.encode().hex()

    @classmethod
    def from_hex(cls, text: str) -> KeyProof:
        return cls.decode(bytes_from_hex(text, "key proof"))


@dataclass(frozen=True, slots=True)
class DleqProof:
    """Chaum-Pedersen proof that log_G(Y) = log_B(D), compact form (c, s). SPEC 4.5."""

    challenge: int
    response: int

    def encode(self) -> bytes:
        """64 bytes: c || s, each a canonical scalar (32 bytes big-endian)."""
        return scalar_to_bytes(self.challenge) + scalar_to_bytes(self.response)

    @classmethod
    def decode(cls, data: bytes) -> DleqProof:
        c, s = _decode_scalars(data, 2, "DLEQ proof")
        return cls(c, s)

    def hex(self) -> str:
        return self.encode().hex()

    @classmethod
    def from_hex(cls, text: str) -> DleqProof:
        return cls.decode(bytes_from_hex(text, "DLEQ proof"))


@dataclass(frozen=True, slots=True)
class DleqBatchProof:
    """One proof that log_G(Y) = log_{B_i}(D_i) for every i, compact form (c, s). SPEC 4.5.2."""

    challenge: int
    response: int

    def encode(self) -> bytes:
        """64 bytes: c || s, each a canonical scalar (32 bytes big-endian)."""
        return scalar_to_bytes(self.challenge) + scalar_to_bytes(self.response)

    @classmethod
    def decode(cls, data: bytes) -> DleqBatchProof:
        c, s = _decode_scalars(data, 2, "batched DLEQ proof")
        return cls(c, s)

    def hex(self) -> str:
        return self.encode().hex()

    @classmethod
    def from_hex(cls, text: str) -> DleqBatchProof:
        return cls.decode(bytes_from_hex(text, "batched DLEQ proof"))


@dataclass(frozen=True, slots=True)
class ReencryptionProof:
    """Proof that a ciphertext under Y_B holds the plaintext of one under Y_A. SPEC 4.6.

    Compact form (c, s_x, s_r) over the witnesses x_A (the secret of Y_A) and r (the new
    randomness).
    """

    challenge: int
    response_x: int
    response_r: int

    def encode(self) -> bytes:
        """96 bytes: c || s_x || s_r, each a canonical scalar."""
        return (
            scalar_to_bytes(self.challenge)
            + scalar_to_bytes(self.response_x)
            + scalar_to_bytes(self.response_r)
        )

    @classmethod
    def decode(cls, data: bytes) -> ReencryptionProof:
        c, sx, sr = _decode_scalars(data, 3, "re-encryption proof")
        return cls(c, sx, sr)

    def hex(self) -> str:
        return self.encode().hex()

    @classmethod
    def from_hex(cls, text: str) -> ReencryptionProof:
        return cls.decode(bytes_from_hex(text, "re-encryption proof"))


# --- Schnorr (SPEC 4.4) ----------------------------------------------------------------------


def _key_transcript(public: Point, context: bytes) -> FiatShamir:
    fs = FiatShamir(DOMAIN_KEY, context)
    fs.append_point(b"G", G)
    fs.append_point(b"public", public)
    return fs


def prove_key(secret: int, context: bytes, rng: Rng = os.urandom) -> KeyProof:
    """Prove knowledge of `secret` for the public key secret*G, bound to `context`."""
    check_secret(secret)
    public = G.mul_secret(secret)
    while True:
        k = random_scalar(rng)
        fs = _key_transcript(public, context)
        fs.append_point(b"commitment", G.mul_secret(k))
        c = fs.challenge(b"challenge")
        s = (k + c * secret) % L
        if s:  # a zero response has no canonical encoding (SPEC 4.1.2); probability 2^-256
            return KeyProof(c, s)


def verify_key(public: Point, proof: KeyProof, context: bytes) -> None:
    """Raise InvalidProof unless `proof` shows knowledge of log_G(public) in `context`."""
    _require_statement(context, public)
    if not isinstance(proof, KeyProof) or not (
        _is_scalar(proof.challenge) and _is_scalar(proof.response)
    ):
        raise InvalidProof("not a well-formed key proof")
    remembered = digest(b"key", context, public, proof)
    if remembered in CHECKED:
        return  # this process checked these very bytes (crypto/checked.py)
    c, s = proof.challenge, proof.response
    try:
        commitment = multi_mul_public((s, L - c), (G, public))  # SPEC 4.4: R = s*G - c*Y
        fs = _key_transcript(public, context)
        fs.append_point(b"commitment", commitment)
        ok = fs.challenge(b"challenge") == c
    except (ValueError, TypeError) as exc:
        raise InvalidProof(f"key proof: {exc}") from None
    if not ok:
        raise InvalidProof("key proof: the challenge does not match")
    CHECKED.add(remembered)


# --- DLEQ (SPEC 4.5) -------------------------------------------------------------------------


def _dleq_transcript(public: Point, base: Point, share: Point, context: bytes) -> FiatShamir:
    fs = FiatShamir(DOMAIN_DLEQ, context)
    fs.append_point(b"G", G)
    fs.append_point(b"public", public)
    fs.append_point(b"base", base)
    fs.append_point(b"share", share)
    return fs


def prove_dleq(secret: int, base: Point, context: bytes, rng: Rng = os.urandom) -> DleqProof:
    """Prove that public = secret*G and share = secret*base have the same discrete log."""
    check_secret(secret)
    if not isinstance(base, Point) or base.is_identity:
        raise ValueError("the base must be a point other than the identity")
    public, share = G.mul_secret(secret), base.mul_secret(secret)
    while True:
        k = random_scalar(rng)
        fs = _dleq_transcript(public, base, share, context)
        fs.append_point(b"commitment-G", G.mul_secret(k))
        fs.append_point(b"commitment-base", base.mul_secret(k))
        c = fs.challenge(b"challenge")
        s = (k + c * secret) % L
        if s:
            return DleqProof(c, s)


def verify_dleq(public: Point, base: Point, share: Point, proof: DleqProof, context: bytes) -> None:
    """Raise InvalidProof unless log_G(public) = log_base(share), proven in `context`."""
    _require_statement(context, public, base, share)
    if not isinstance(proof, DleqProof) or not (
        _is_scalar(proof.challenge) and _is_scalar(proof.response)
    ):
        raise InvalidProof("not a well-formed DLEQ proof")
    remembered = digest(b"dleq", context, public, base, share, proof)
    if remembered in CHECKED:
        return
    c, s = proof.challenge, proof.response
    try:
        fs = _dleq_transcript(public, base, share, context)
        fs.append_point(b"commitment-G", multi_mul_public((s, L - c), (G, public)))
        fs.append_point(b"commitment-base", multi_mul_public((s, L - c), (base, share)))
        ok = fs.challenge(b"challenge") == c
    except (ValueError, TypeError) as exc:
        raise InvalidProof(f"DLEQ proof: {exc}") from None
    if not ok:
        raise InvalidProof("DLEQ proof: the challenge does not match")
    CHECKED.add(remembered)


# --- batched DLEQ (SPEC 4.5.2) ---------------------------------------------------------------


def _dleq_batch_transcript(
    public: Point, bases: Sequence[Point], shares: Sequence[Point], context: bytes
) -> tuple[FiatShamir, list[int]]:
    """The transcript after the statement, and the weights (1, z_1, ..., z_{n-1})."""
    fs = FiatShamir(DOMAIN_DLEQ_BATCH, context)
    fs.append_point(b"G", G)
    fs.append_point(b"public", public)
    fs.append_points(b"bases", bases)
    fs.append_points(b"shares", shares)
    # SPEC 4.5.2: the first weight is 1, which saves two multiplications and keeps soundness.
    return fs, [1, *fs.challenges(b"weight", len(bases) - 1)]


def _combine_secret(weights: list[int], points: Sequence[Point]) -> Point:
    """sum z_i*P_i with z_0 = 1, in constant time (the prover's side)."""
    return sum_points(
        [points[0], *(p.mul_secret(z) for z, p in zip(weights[1:], points[1:], strict=True))]
    )


def _combine_public(weights: list[int], points: Sequence[Point]) -> Point:
    """sum z_i*P_i with z_0 = 1, in variable time (the verifier's side; z_i are public)."""
    return sum_points(
        [points[0], *(p.mul_public(z) for z, p in zip(weights[1:], points[1:], strict=True))]
    )


def prove_dleq_batch(
    secret: int,
    bases: Sequence[Point],
    context: bytes,
    rng: Rng = os.urandom,
    *,
    shares: Sequence[Point] | None = None,
) -> DleqBatchProof:
    """Prove that every share_i = secret*bases[i] shares the discrete log of secret*G.

    A prover that has already computed the shares passes them in to save n multiplications;
    wrong shares only make a proof that does not verify.
    """
    check_secret(secret)
    bases = list(bases)
    if not bases:
        raise ValueError("a batched DLEQ proof needs at least one base")
    if any(not isinstance(b, Point) or b.is_identity for b in bases):
        raise ValueError("every base must be a point other than the identity")
    public = G.mul_secret(secret)
    if shares is None:
        shares = [b.mul_secret(secret) for b in bases]
    elif len(shares) != len(bases):
        raise ValueError("as many shares as bases")
    fs0, weights = _dleq_batch_transcript(public, bases, list(shares), context)
    combined_base = _combine_secret(weights, bases)
    while True:
        k = random_scalar(rng)
        fs = fs0.copy()
        fs.append_point(b"commitment-G", G.mul_secret(k))
        fs.append_point(b"commitment-base", combined_base.mul_secret(k))
        c = fs.challenge(b"challenge")
        s = (k + c * secret) % L
        if s:
            return DleqBatchProof(c, s)


def verify_dleq_batch(
    public: Point,
    bases: Sequence[Point],
    shares: Sequence[Point],
    proof: DleqBatchProof,
    context: bytes,
) -> None:
    """Raise InvalidProof unless shares[i] = x*bases[i] for all i, where public = x*G.

    Costs 2n + 1 variable-base and 1 fixed-base multiplications for n shares, against 3n and n
    for n separate DLEQ proofs (SPEC 4.5.2).
    """
    try:
        bases, shares = list(bases), list(shares)
    except TypeError:
        raise InvalidProof("bases and shares must be sequences of points") from None
    if not bases or len(bases) != len(shares):
        raise InvalidProof("a batched DLEQ proof needs as many shares as bases, at least one")
    _require_statement(context, public, *bases, *shares)
    if not isinstance(proof, DleqBatchProof) or not (
        _is_scalar(proof.challenge) and _is_scalar(proof.response)
    ):
        raise InvalidProof("not a well-formed batched DLEQ proof")
    remembered = digest(b"dleq-batch", context, public, bases, shares, proof)
    if remembered in CHECKED:
        return
    c, s = proof.challenge, proof.response
    try:
        fs, weights = _dleq_batch_transcript(public, bases, shares, context)
        combined_base = _combine_public(weights, bases)
        combined_share = _combine_public(weights, shares)
        fs.append_point(b"commitment-G", multi_mul_public((s, L - c), (G, public)))
        fs.append_point(
            b"commitment-base",
            multi_mul_public((s, L - c), (combined_base, combined_share)),
        )
        ok = fs.challenge(b"challenge") == c
    except (ValueError, TypeError) as exc:
        raise InvalidProof(f"batched DLEQ proof: {exc}") from None
    if not ok:
        raise InvalidProof("batched DLEQ proof: the challenge does not match")
    CHECKED.add(remembered)


# --- re-encryption to another key (SPEC 4.6) -------------------------------------------------


def _reencryption_transcript(
    key_a: Point, key_b: Point, before: Ciphertext, after: Ciphertext, context: bytes
) -> FiatShamir:
    fs = FiatShamir(DOMAIN_REENCRYPTION, context)
    fs.append_point(b"G", G)
    fs.append_point(b"key-a", key_a)
    fs.append_point(b"key-b", key_b)
    fs.append(b"before", before.encode())
    fs.append(b"after", after.encode())
    return fs


def prove_reencryption(
    secret_a: int,
    r: int,
    key_b: Point,
    before: Ciphertext,
    after: Ciphertext,
    context: bytes,
    rng: Rng = os.urandom,
) -> ReencryptionProof:
    """Prove that after = reencrypt_to(before, secret_a, key_b, r), i.e. same plaintext.

    `after` is taken as given (the caller made it with `reencrypt_to`); if it is not that
    ciphertext the proof simply does not verify.
    """
    check_secret(secret_a, "secret_a")
    check_secret(r, "r")
    if not isinstance(key_b, Point) or key_b.is_identity:
        raise ValueError("key_b must be a point other than the identity")
    key_a = G.mul_secret(secret_a)
    while True:
        kx, kr = random_scalar(rng), random_scalar(rng)
        fs = _reencryption_transcript(key_a, key_b, before, after, context)
        fs.append_point(b"commitment-key-a", G.mul_secret(kx))
        fs.append_point(b"commitment-c1", G.mul_secret(kr))
        fs.append_point(
            b"commitment-c2", sum_points([key_b.mul_secret(kr), -before.c1.mul_secret(kx)])
        )
        c = fs.challenge(b"challenge")
        sx, sr = (kx + c * secret_a) % L, (kr + c * r) % L
        if sx and sr:
            return ReencryptionProof(c, sx, sr)


def verify_reencryption(
    key_a: Point,
    key_b: Point,
    before: Ciphertext,
    after: Ciphertext,
    proof: ReencryptionProof,
    context: bytes,
) -> None:
    """Raise InvalidProof unless `after` (under key_b) holds the plaintext of `before` (under
    key_a) and the prover knows the secret of key_a."""
    if not isinstance(before, Ciphertext) or not isinstance(after, Ciphertext):
        raise InvalidProof("before and after must be ciphertexts")
    _require_statement(context, key_a, key_b, before.c1, before.c2, after.c1, after.c2)
    if not isinstance(proof, ReencryptionProof) or not all(
        map(_is_scalar, (proof.challenge, proof.response_x, proof.response_r))
    ):
        raise InvalidProof("not a well-formed re-encryption proof")
    remembered = digest(b"reencryption", context, key_a, key_b, before, after, proof)
    if remembered in CHECKED:
        return
    c, sx, sr = proof.challenge, proof.response_x, proof.response_r
    try:
        fs = _reencryption_transcript(key_a, key_b, before, after, context)
        minus_c = L - c
        fs.append_point(b"commitment-key-a", multi_mul_public((sx, minus_c), (G, key_a)))
        fs.append_point(b"commitment-c1", multi_mul_public((sr, minus_c), (G, after.c1)))
        fs.append_point(
            b"commitment-c2",
            multi_mul_public((sr, L - sx, minus_c), (key_b, before.c1, after.c2 - before.c2)),
        )
        ok = fs.challenge(b"challenge") == c
    except (ValueError, TypeError) as exc:
        raise InvalidProof(f"re-encryption proof: {exc}") from None
    if not ok:
        raise InvalidProof("re-encryption proof: the challenge does not match")
    CHECKED.add(remembered)
