"""Verifiable shuffle: the Terelius-Wikström proof that n ElGamal ciphertexts were permuted and
re-encrypted under one key (SPEC 4.7). Hazmat; pure: no I/O, randomness only from `rng`.

Theory of operation (SPEC 4.7 has the normative text). The prover commits to the permutation
with one Pedersen commitment per input, u_j = r_j*G + H_{1+pi^-1(j)}. A batching vector e is
derived from the transcript; the permuted vector e'_i = e_{pi(i)} is committed in a chain
B_i = b_i*G + e'_i*B_{i-1} starting from B_{-1} = H_0, so that B_{n-1} commits to the product
of e'. One sigma protocol then shows, with one challenge v, that (A) sum e_j*u_j opens to e',
(B) the chain is well formed, (C) sum u_j - sum H_{1+i} opens to the zero vector (each
position used once), (D) the product of e' equals the product of e, and (F) sum e_j*inputs_j
equals sum e'_i*outputs_i up to a re-encryption. A matrix with these properties is a
permutation matrix (Terelius and Wikström 2010), so the outputs are a re-encrypted permutation.

The proof is sent in compact form: the commitments A', B'_i, C', D', F' are not sent; the
verifier recomputes them from the responses and checks that they hash back to the challenge.
The shuffler and the prover multiply only with `mul_secret` (constant time: e' reveals the
permutation), the verifier only with `mul_public` (SPEC 4.1.4).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from p2pwillow.crypto.checked import CHECKED, digest
from p2pwillow.crypto.elgamal import Ciphertext, reencrypt
from p2pwillow.crypto.group import (
    POINT_BYTES,
    SCALAR_BYTES,
    DecodeError,
    G,
    InvalidProof,
    L,
    Point,
    Rng,
    bytes_from_hex,
    check_secret,
    generators,
    random_scalar,
    scalar_from_bytes,
    scalar_to_bytes,
    sum_points,
)
from p2pwillow.crypto.proofs import FiatShamir

DOMAIN_SHUFFLE = b"shuffle"


# --- values ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShuffleWitness:
    """What the shuffler knows: outputs[i] = reencrypt(inputs[permutation[i]], key,
    randomness[i])."""

    permutation: tuple[int, ...]
    randomness: tuple[int, ...]

    def __repr__(self) -> str:  # the witness is secret: keep it out of logs and tracebacks
        return f"ShuffleWitness(<{len(self.permutation)} positions hidden>)"


@dataclass(frozen=True, slots=True)
class ShuffleProof:
    """A proof of a shuffle of n ciphertexts, compact form (SPEC 4.7.5).

    `permutation_commitment` is u_0..u_{n-1}, `chain` is B_0..B_{n-1}, `challenge` is v, and
    k_a .. k_f are the responses (k_b and k_e have one entry per position).
    """

    permutation_commitment: tuple[Point, ...]
    chain: tuple[Point, ...]
    challenge: int
    k_a: int
    k_b: tuple[int, ...]
    k_c: int
    k_d: int
    k_e: tuple[int, ...]
    k_f: int

    @property
    def n(self) -> int:
        """The number of ciphertexts shuffled."""
        return len(self.permutation_commitment)

    @staticmethod
    def encoded_size(n: int) -> int:
        """Bytes in the encoding of a proof for n ciphertexts: 130*n + 160."""
        return 2 * n * POINT_BYTES + (2 * n + 5) * SCALAR_BYTES

    def encode(self) -> bytes:
        """u || B || v || k_A || k_B || k_C || k_D || k_E || k_F (SPEC 4.7.5)."""
        parts = [p.encoding for p in self.permutation_commitment]
        parts += [p.encoding for p in self.chain]
        parts += [scalar_to_bytes(self.challenge), scalar_to_bytes(self.k_a)]
        parts += [scalar_to_bytes(k) for k in self.k_b]
        parts += [scalar_to_bytes(self.k_c), scalar_to_bytes(self.k_d)]
        parts += [scalar_to_bytes(k) for k in self.k_e]
        parts.append(scalar_to_bytes(self.k_f))
        return b"".join(parts)

    @classmethod
    def decode(cls, data: bytes | bytearray, n: int | None = None) -> ShuffleProof:
        """Parse and validate an encoded proof; n is inferred from the length when not given.

        DecodeError on a wrong length, any point that is not a compressed encoding of a curve
        point, and any scalar that is zero or >= L.
        """
        if not isinstance(data, bytes | bytearray):
            raise DecodeError("shuffle proof: bytes expected")
        data = bytes(data)
        if n is None:
            n, rest = divmod(len(data) - 5 * SCALAR_BYTES, 2 * (POINT_BYTES + SCALAR_BYTES))
            if rest or n < 1:
                raise DecodeError("shuffle proof: the length is not 130*n + 160 for any n >= 1")
        elif not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise DecodeError("shuffle proof: n must be a positive integer")
        elif len(data) != cls.encoded_size(n):
            raise DecodeError(f"shuffle proof: {cls.encoded_size(n)} bytes expected for n = {n}")
        reader = _Reader(data)
        u = tuple(reader.point(f"u[{j}]") for j in range(n))
        chain = tuple(reader.point(f"B[{i}]") for i in range(n))
        v, k_a = reader.scalar("v"), reader.scalar("k_A")
        k_b = tuple(reader.scalar(f"k_B[{i}]") for i in range(n))
        k_c, k_d = reader.scalar("k_C"), reader.scalar("k_D")
        k_e = tuple(reader.scalar(f"k_E[{i}]") for i in range(n))
        k_f = reader.scalar("k_F")
        return cls(u, chain, v, k_a, k_b, k_c, k_d, k_e, k_f)

    def hex(self) -> str:
        return self.encode().hex()

    @classmethod
    def from_hex(cls, text: str, n: int | None = None) -> ShuffleProof:
        """Decode from lowercase hex (as the ledger writes bytes)."""
        return cls.decode(bytes_from_hex(text, "shuffle proof"), n)


class _Reader:
    """Consumes a proof encoding front to back, naming the field in every DecodeError."""

    __slots__ = ("_data", "_pos")

    def __init__(self, data: bytes) -> None:
        self._data, self._pos = data, 0

    def _take(self, size: int) -> bytes:
        chunk = self._data[self._pos : self._pos + size]
        self._pos += size
        return chunk

    def point(self, name: str) -> Point:
        try:
            return Point.decode(self._take(POINT_BYTES))
        except DecodeError as exc:
            raise DecodeError(f"shuffle proof: {name}: {exc}") from None

    def scalar(self, name: str) -> int:
        try:
            return scalar_from_bytes(self._take(SCALAR_BYTES))
        except DecodeError as exc:
            raise DecodeError(f"shuffle proof: {name}: {exc}") from None


# --- shuffling (SPEC 4.7.2) ------------------------------------------------------------------


def _uniform_below(bound: int, rng: Rng) -> int:
    """A uniform integer in 0..bound-1: u64le draws, rejecting the biased top (SPEC 4.7.2)."""
    limit = 2**64 - 2**64 % bound
    while True:
        x = int.from_bytes(rng(8), "little")
        if x < limit:
            return x % bound


def random_permutation(n: int, rng: Rng = os.urandom) -> tuple[int, ...]:
    """A uniform permutation of 0..n-1 by Fisher-Yates, from n-1 down to 1 (SPEC 4.7.2)."""
    perm = list(range(n))
    for i in range(n - 1, 0, -1):
        j = _uniform_below(i + 1, rng)
        perm[i], perm[j] = perm[j], perm[i]
    return tuple(perm)


def _require_key(key: object) -> Point:
    if not isinstance(key, Point) or key.is_identity:
        raise ValueError("the key must be a point other than the identity")
    return key


def _require_ciphertexts(cts: Sequence[Ciphertext], what: str) -> tuple[Ciphertext, ...]:
    try:
        items = tuple(cts)
    except TypeError:
        raise ValueError(f"{what}: a sequence of ciphertexts expected") from None
    for ct in items:
        if not isinstance(ct, Ciphertext) or not (
            isinstance(ct.c1, Point) and isinstance(ct.c2, Point)
        ):
            raise ValueError(f"{what}: every element must be a Ciphertext")
        if ct.c1.is_identity or ct.c2.is_identity:
            raise ValueError(f"{what}: the identity appears in a ciphertext")
    return items


def shuffle(
    key: Point, inputs: Sequence[Ciphertext], rng: Rng = os.urandom
) -> tuple[tuple[Ciphertext, ...], ShuffleWitness]:
    """Permute and re-encrypt `inputs` under `key`; return the outputs and the witness.

    outputs[i] = reencrypt(inputs[permutation[i]], key, randomness[i]). The rng is read for the
    permutation first, then for the n re-encryption scalars (SPEC 4.7.2).
    """
    key = _require_key(key)
    items = _require_ciphertexts(inputs, "inputs")
    if not items:
        raise ValueError("a shuffle needs at least one ciphertext")
    permutation = random_permutation(len(items), rng)
    randomness = tuple(random_scalar(rng) for _ in items)
    outputs = tuple(
        reencrypt(items[j], key, r) for j, r in zip(permutation, randomness, strict=True)
    )
    return outputs, ShuffleWitness(permutation, randomness)


# --- the proof (SPEC 4.7.3 - 4.7.6) ----------------------------------------------------------


def _append_ciphertexts(fs: FiatShamir, label: bytes, cts: Sequence[Ciphertext]) -> None:
    """A list of ciphertexts, framed like FiatShamir.append_points: the count (u64be) in a frame
    of its own, then one frame per ciphertext holding c1 || c2 (SPEC 4.7.4)."""
    fs.append(label, len(cts).to_bytes(8, "big"))
    for ct in cts:
        fs.append(label, ct.c1.encoding + ct.c2.encoding)


def _statement(
    key: Point,
    gens: Sequence[Point],
    inputs: Sequence[Ciphertext],
    outputs: Sequence[Ciphertext],
    context: bytes,
) -> FiatShamir:
    """The transcript after the statement (SPEC 4.7.4, steps 1-5)."""
    fs = FiatShamir(DOMAIN_SHUFFLE, context)
    fs.append_point(b"G", G)
    fs.append_points(b"generators", gens)
    fs.append_point(b"key", key)
    _append_ciphertexts(fs, b"inputs", inputs)
    _append_ciphertexts(fs, b"outputs", outputs)
    return fs


def _append_commitments(
    fs: FiatShamir,
    chain: Sequence[Point],
    a_t: Point,
    b_t: Sequence[Point],
    c_t: Point,
    d_t: Point,
    f_t: tuple[Point, Point],
) -> int:
    """Append B, A', B', C', D', F' and derive the challenge v (SPEC 4.7.4, steps 8-14)."""
    fs.append_points(b"B", chain)
    fs.append_point(b"A'", a_t)
    fs.append_points(b"B'", b_t)
    fs.append_point(b"C'", c_t)
    fs.append_point(b"D'", d_t)
    fs.append(b"F'", f_t[0].encoding + f_t[1].encoding)
    return fs.challenge(b"v")


_position_sums: dict[int, Point] = {}


def _position_sum(n: int, positions: Sequence[Point]) -> Point:
    """H_1 + ... + H_n, cached per n: fixed by the protocol, so computed once."""
    total = _position_sums.get(n)
    if total is None:
        total = _position_sums[n] = sum_points(list(positions))
    return total


def prove_shuffle(
    key: Point,
    inputs: Sequence[Ciphertext],
    outputs: Sequence[Ciphertext],
    witness: ShuffleWitness,
    context: bytes,
    rng: Rng = os.urandom,
) -> ShuffleProof:
    """Prove that `outputs` is a permutation and re-encryption of `inputs` under `key`.

    `outputs` is taken as given; if the witness does not produce it, the proof does not verify.
    ValueError on a malformed statement or witness.
    """
    if not isinstance(context, bytes):
        raise ValueError("the context must be bytes")
    key = _require_key(key)
    ins = _require_ciphertexts(inputs, "inputs")
    outs = _require_ciphertexts(outputs, "outputs")
    n = len(ins)
    if n < 1 or len(outs) != n:
        raise ValueError("a shuffle has as many outputs as inputs, at least one")
    if not isinstance(witness, ShuffleWitness):
        raise ValueError("the witness must be a ShuffleWitness")
    perm, rand = tuple(witness.permutation), tuple(witness.randomness)
    if sorted(perm) != list(range(n)) or any(
        not isinstance(j, int) or isinstance(j, bool) for j in perm
    ):
        raise ValueError(f"the witness permutation is not a permutation of 0..{n - 1}")
    if len(rand) != n:
        raise ValueError("the witness has one randomness scalar per output")
    for r in rand:
        check_secret(r, "witness randomness")
    return _prove(key, ins, outs, perm, rand, context, rng)


def _prove(
    key: Point,
    inputs: Sequence[Ciphertext],
    outputs: Sequence[Ciphertext],
    mapping: Sequence[int],
    randomness: Sequence[int],
    context: bytes,
    rng: Rng,
) -> ShuffleProof:
    """The prover of SPEC 4.7.3 without the witness checks.

    `mapping` may be any map of output positions to input indices; for one that is not a
    permutation, u_j commits to the column of the 0/1 matrix with M[i][mapping[i]] = 1, which
    is the natural cheating prover (the proof then fails, as the tests show).
    """
    n = len(inputs)
    gens = generators(n + 1)
    h, positions = gens[0], gens[1:]
    while True:
        # SPEC 4.7.3 step 1: every random scalar, in this order.
        r = [random_scalar(rng) for _ in range(n)]
        b = [random_scalar(rng) for _ in range(n)]
        alpha = random_scalar(rng)
        beta = [random_scalar(rng) for _ in range(n)]
        gamma = random_scalar(rng)
        delta = random_scalar(rng)
        eps = [random_scalar(rng) for _ in range(n)]
        phi = random_scalar(rng)

        # Step 2: permutation commitment u_j = r_j*G + H_{1+pi^-1(j)}.
        u = [G.mul_secret(rj) for rj in r]
        for i, j in enumerate(mapping):
            u[j] = u[j] + positions[i]
        fs = _statement(key, gens, inputs, outputs, context)
        fs.append_points(b"u", u)
        e = fs.challenges(b"e", n)
        e_perm = [e[j] for j in mapping]

        # Step 4: the chain B_i = b_i*G + e'_i*B_{i-1}, B_{-1} = H_0, and its opening b_bar.
        chain: list[Point] = []
        chain_t: list[Point] = []
        prev, b_bar = h, 0
        for i in range(n):
            chain_t.append(G.mul_secret(beta[i]) + prev.mul_secret(eps[i]))
            prev = G.mul_secret(b[i]) + prev.mul_secret(e_perm[i])
            chain.append(prev)
            b_bar = (b[i] + e_perm[i] * b_bar) % L

        # Step 5: the other commitments.
        a_t = sum_points(
            [G.mul_secret(alpha), *(p.mul_secret(k) for p, k in zip(positions, eps, strict=True))]
        )
        c_t = G.mul_secret(gamma)
        d_t = G.mul_secret(delta)
        minus_phi = L - phi
        f1 = sum_points(
            [
                G.mul_secret(minus_phi),
                *(ct.c1.mul_secret(k) for ct, k in zip(outputs, eps, strict=True)),
            ]
        )
        f2 = sum_points(
            [
                key.mul_secret(minus_phi),
                *(ct.c2.mul_secret(k) for ct, k in zip(outputs, eps, strict=True)),
            ]
        )
        v = _append_commitments(fs, chain, a_t, chain_t, c_t, d_t, (f1, f2))

        # Step 7: responses.
        r_bar = sum(ej * rj for ej, rj in zip(e, r, strict=True))
        r_sum = sum(r)
        s_bar = sum(ek * s for ek, s in zip(e_perm, randomness, strict=True))
        k_a = (alpha + v * r_bar) % L
        k_b = tuple((bt + v * bi) % L for bt, bi in zip(beta, b, strict=True))
        k_c = (gamma + v * r_sum) % L
        k_d = (delta + v * b_bar) % L
        k_e = tuple((et + v * ek) % L for et, ek in zip(eps, e_perm, strict=True))
        k_f = (phi + v * s_bar) % L
        # A zero response has no canonical encoding (SPEC 4.1.2); probability about n*2^-251.
        if k_a and k_c and k_d and k_f and all(k_b) and all(k_e):
            return ShuffleProof(tuple(u), tuple(chain), v, k_a, k_b, k_c, k_d, k_e, k_f)


def _is_scalar(k: object) -> bool:
    return isinstance(k, int) and not isinstance(k, bool) and 0 < k < L


def _well_formed(
    key: object,
    inputs: Sequence[Ciphertext],
    outputs: Sequence[Ciphertext],
    proof: object,
    context: object,
) -> tuple[Point, tuple[Ciphertext, ...], tuple[Ciphertext, ...], ShuffleProof]:
    """The statement and proof as typed values, or InvalidProof naming what is wrong."""
    if not isinstance(context, bytes):
        raise InvalidProof("the context must be bytes")
    if not isinstance(key, Point) or key.is_identity:
        raise InvalidProof("the key must be a point other than the identity")
    try:
        ins, outs = _require_ciphertexts(inputs, "inputs"), _require_ciphertexts(outputs, "outputs")
    except (ValueError, TypeError) as exc:
        raise InvalidProof(str(exc)) from None
    if not isinstance(proof, ShuffleProof):
        raise InvalidProof("not a ShuffleProof")
    n = len(ins)
    if n < 1 or len(outs) != n:
        raise InvalidProof("a shuffle has as many outputs as inputs, at least one")
    fields = (proof.permutation_commitment, proof.chain, proof.k_b, proof.k_e)
    if any(not isinstance(f, tuple) or len(f) != n for f in fields):
        raise InvalidProof(f"the proof is not for {n} ciphertexts")
    for p in (*proof.permutation_commitment, *proof.chain):
        # Points of a proof made by decode() are group points; the identity is not.
        if not isinstance(p, Point) or p.is_identity:
            raise InvalidProof("a proof point is not a point other than the identity")
    scalars = (proof.challenge, proof.k_a, proof.k_c, proof.k_d, proof.k_f, *proof.k_b)
    if not all(map(_is_scalar, (*scalars, *proof.k_e))):
        raise InvalidProof("a proof scalar is not an integer in 1..L-1")
    return key, ins, outs, proof


def verify_shuffle(
    key: Point,
    inputs: Sequence[Ciphertext],
    outputs: Sequence[Ciphertext],
    proof: ShuffleProof,
    context: bytes,
) -> None:
    """Raise InvalidProof unless `proof` shows that `outputs` is a re-encrypted permutation of
    `inputs` under `key`, proven in `context` (SPEC 4.7.6).

    Costs 8n + 3 variable-base and n + 4 fixed-base multiplications for n ciphertexts, all by
    public scalars (variable time).
    """
    key, ins, outs, proof = _well_formed(key, inputs, outputs, proof, context)
    remembered = digest(b"shuffle", context, key, ins, outs, proof)
    if remembered in CHECKED:
        return  # this process checked these very bytes (crypto/checked.py)
    try:
        ok = _verify(key, ins, outs, proof, context)
    except (ValueError, TypeError) as exc:
        raise InvalidProof(f"shuffle proof: {exc}") from None
    if not ok:
        raise InvalidProof("shuffle proof: the challenge does not match")
    CHECKED.add(remembered)


def _verify(
    key: Point,
    inputs: tuple[Ciphertext, ...],
    outputs: tuple[Ciphertext, ...],
    proof: ShuffleProof,
    context: bytes,
) -> bool:
    # SPEC 4.7.6. Every point here is a Point other than the identity (decode validated it,
    # or arithmetic on valid points made it), so none is re-validated: the group has prime
    # order, so a decoded point is a group element. Every scalar is public (the statement, the
    # proof and the challenges derived from them), so every product is `mul_public`.
    n = len(inputs)
    gens = generators(n + 1)
    h, positions = gens[0], gens[1:]
    u, chain, k_e = proof.permutation_commitment, proof.chain, proof.k_e
    fs = _statement(key, gens, inputs, outputs, context)
    fs.append_points(b"u", u)
    e = fs.challenges(b"e", n)
    v = proof.challenge
    minus_v = L - v
    minus_ve = [(-v * ej) % L for ej in e]

    # A' = k_A*G + sum k_E,i*H_{1+i} - v*sum e_j*u_j
    a_t = sum_points(
        [
            G.mul_public(proof.k_a),
            *(p.mul_public(k) for p, k in zip(positions, k_e, strict=True)),
            *(p.mul_public(k) for p, k in zip(u, minus_ve, strict=True)),
        ]
    )
    # C' = k_C*G - v*(sum u_j - sum H_{1+i})
    c = sum_points([*u, -_position_sum(n, positions)])
    c_t = G.mul_public(proof.k_c) + c.mul_public(minus_v)
    # B'_i = k_B,i*G + k_E,i*B_{i-1} - v*B_i, with B_{-1} = H_0
    chain_t: list[Point] = []
    prev = h
    minus_v_last = h  # -v*B_{n-1}, reused by D'
    for i in range(n):
        minus_v_last = chain[i].mul_public(minus_v)
        chain_t.append(
            sum_points([G.mul_public(proof.k_b[i]), prev.mul_public(k_e[i]), minus_v_last])
        )
        prev = chain[i]
    # D' = k_D*G - v*(B_{n-1} - (prod e)*H_0) = k_D*G - v*B_{n-1} + (v * prod e)*H_0
    prod_e = 1
    for ej in e:
        prod_e = prod_e * ej % L
    d_t = sum_points([G.mul_public(proof.k_d), minus_v_last, h.mul_public(v * prod_e)])
    # F' = sum k_E,i*outputs_i - v*sum e_j*inputs_j - (k_F*G, k_F*Y)
    minus_k_f = L - proof.k_f
    f1 = sum_points(
        [
            G.mul_public(minus_k_f),
            *(ct.c1.mul_public(k) for ct, k in zip(outputs, k_e, strict=True)),
            *(ct.c1.mul_public(k) for ct, k in zip(inputs, minus_ve, strict=True)),
        ]
    )
    f2 = sum_points(
        [
            key.mul_public(minus_k_f),
            *(ct.c2.mul_public(k) for ct, k in zip(outputs, k_e, strict=True)),
            *(ct.c2.mul_public(k) for ct, k in zip(inputs, minus_ve, strict=True)),
        ]
    )
    return _append_commitments(fs, chain, a_t, chain_t, c_t, d_t, (f1, f2)) == v


__all__ = [
    "DOMAIN_SHUFFLE",
    "ShuffleProof",
    "ShuffleWitness",
    "prove_shuffle",
    "random_permutation",
    "shuffle",
    "verify_shuffle",
]
