"""Benchmarks of the proof of a shuffle of a 52-card deck (SPEC 4.7), against the same
libsecp256k1 calls made bare.

Reads the clock (through bench.crypto.measure); `python3 -m bench.shuffle` prints JSON lines.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from bench.crypto import measure
from p2pwillow.crypto.elgamal import Ciphertext, encrypt_with
from p2pwillow.crypto.group import G, Point, card_point
from p2pwillow.crypto.shuffle import (
    ShuffleProof,
    ShuffleWitness,
    prove_shuffle,
    shuffle,
    verify_shuffle,
)
from tools.vectors.common import seeded_rng, seeded_scalar

CARDS = 52
ROUNDS = 15
"""Each figure is the best of this many runs (alternating with its baseline)."""
CONTEXT = b"bench/shuffle52"

Benchmark = Callable[[], dict[str, object]]


def _deck() -> tuple[Point, list[Ciphertext], list[Ciphertext], ShuffleWitness, ShuffleProof]:
    """A shuffled deck and its proof, with every cache warm (generators, the sum of H_1..H_52)."""
    rng = seeded_rng("bench/shuffle52")
    key = G.mul_public(seeded_scalar("bench/shuffle52/key"))
    inputs = [encrypt_with(card_point(i), key, seeded_scalar(f"bench/in/{i}")) for i in range(52)]
    outputs, witness = shuffle(key, inputs, rng)
    proof = prove_shuffle(key, inputs, list(outputs), witness, CONTEXT, rng)
    verify_shuffle(key, inputs, list(outputs), proof, CONTEXT)
    return key, inputs, list(outputs), witness, proof


def _line(name: str, action: Callable[[], object], note: str) -> dict[str, object]:
    """bench.crypto.measure: best of its rounds; baseline = the same library calls (every
    multiplication, addition and point validation) made bare in this run."""
    line = measure(name, action, 1, ROUNDS)
    line.update(n=CARDS, note=note)
    return line


def shuffle52_prove() -> dict[str, object]:
    key, inputs, outputs, witness, _ = _deck()
    rng = seeded_rng("bench/shuffle52/prove")
    return _line(
        "shuffle52.prove",
        lambda: prove_shuffle(key, inputs, outputs, witness, CONTEXT, rng),
        "prove_shuffle, 52 ciphertexts",
    )


def shuffle52_verify() -> dict[str, object]:
    key, inputs, outputs, _, proof = _deck()
    return _line(
        "shuffle52.verify",
        lambda: verify_shuffle(key, inputs, outputs, proof, CONTEXT),
        "verify_shuffle of a decoded proof, 52 ciphertexts",
    )


def shuffle52_decode_verify() -> dict[str, object]:
    key, inputs, outputs, _, proof = _deck()
    data = proof.encode()
    return _line(
        "shuffle52.decode_verify",
        lambda: verify_shuffle(key, inputs, outputs, ShuffleProof.decode(data), CONTEXT),
        "ShuffleProof.decode (2n point validations), then verify_shuffle",
    )


def shuffle52_shuffle() -> dict[str, object]:
    key, inputs, _, _, _ = _deck()
    rng = seeded_rng("bench/shuffle52/shuffle")
    return _line(
        "shuffle52.shuffle",
        lambda: shuffle(key, inputs, rng),
        "shuffle: permute and re-encrypt 52 ciphertexts, no proof",
    )


BENCHMARKS: dict[str, Benchmark] = {
    "shuffle52.prove": shuffle52_prove,
    "shuffle52.verify": shuffle52_verify,
    "shuffle52.decode_verify": shuffle52_decode_verify,
    "shuffle52.shuffle": shuffle52_shuffle,
}


if __name__ == "__main__":
    for benchmark in BENCHMARKS.values():
        print(json.dumps(benchmark()), flush=True)
