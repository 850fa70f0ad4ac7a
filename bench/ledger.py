"""Benchmarks of the ledger: decoding, chain checks and signing of realistic entries.

Does no I/O beyond reading the clock to time itself.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from p2pwillow.crypto.elgamal import CIPHERTEXT_BYTES
from p2pwillow.crypto.group import POINT_BYTES
from p2pwillow.crypto.shuffle import ShuffleProof
from p2pwillow.games import plain
from p2pwillow.ledger import AuthoredEntry, Body, Entry, Identity, Ledger, decode_entry
from p2pwillow.ledger import kinds as k

REPEATS = 5
PLAYERS = 10
GAME = bytes(range(16))
IDS = [Identity.from_private_bytes(hashlib.sha256(b"bench %d" % i).digest()) for i in range(10)]


def _filler(label: str, n_bytes: int) -> str:
    out = b""
    while len(out) < n_bytes:
        out += hashlib.sha512(label.encode() + len(out).to_bytes(4, "big")).digest()
    return out[:n_bytes].hex()


def _best_us(run: Callable[[], object], count: int) -> float:
    """Microseconds per call: the best of REPEATS runs of `count` calls."""
    best = float("inf")
    for _ in range(REPEATS):
        start = time.perf_counter()
        for _ in range(count):
            run()
        best = min(best, time.perf_counter() - start)
    return best / count * 1e6


def _table() -> tuple[Ledger, list[Entry]]:
    """A 10-seat table seated, plus hand 1 with every player's key and deck shuffle step."""
    ledger = Ledger()
    entries: list[Entry] = []

    def add(author: int, body: Body, hand: int, sequencer: int) -> None:
        authored = AuthoredEntry.create(
            IDS[author],
            game=GAME,
            hand=hand,
            author=author,
            body=body,
            counter=ledger.last_counter(IDS[author].public_key) + 1,
            seen=ledger.head_hash,
        )
        entry = authored.sequence(ledger.head_seq + 1, ledger.head_hash, IDS[sequencer])
        ledger.append(entry)
        entries.append(entry)

    genesis = k.Genesis(
        name="bench",
        config={"starting_stack": 1000},
        players=[
            k.SeatedPlayer(seat=i, name=f"P{i}", identity_key=IDS[i].public_key.hex())
            for i in range(PLAYERS)
        ],
    )
    add(0, genesis, 0, 0)
    for seat in range(PLAYERS):
        add(seat, k.SeatAcceptance(genesis=ledger.hash_of(0).hex()), 0, 0)
    stacks = [k.SeatStack(seat=s, stack=1000) for s in range(PLAYERS)]
    add(0, k.HandStart(dealer=0, players=stacks), 1, 0)
    for seat in range(PLAYERS):
        add(seat, k.HandKey(key=_filler(f"Y{seat}", POINT_BYTES), proof=_filler("pk", 64)), 1, 0)
    for seat in range(PLAYERS):
        deck = [_filler(f"c{seat}.{i}", CIPHERTEXT_BYTES) for i in range(52)]
        # a Terelius-Wikstrom proof for 52 ciphertexts: 6920 bytes (SPEC 4.7.5)
        proof = _filler("tw", ShuffleProof.encoded_size(52))
        add(seat, k.DeckShuffle(deck=deck, proof=proof), 1, 0)
    return ledger, entries


LEDGER, ENTRIES = _table()
SHUFFLE_LINE = ENTRIES[-1].encode()


def decode_deck_shuffle() -> dict[str, object]:
    """decode_entry of a 52-card deck shuffle step (~27 kB) vs plain json.loads of it."""
    value = _best_us(lambda: decode_entry(SHUFFLE_LINE), 200)
    baseline = _best_us(lambda: json.loads(SHUFFLE_LINE), 200)
    return {
        "value": round(value, 1),
        "unit": "us/entry",
        "baseline": round(baseline, 1),
        "ratio": round(value / baseline, 2),
        "bytes": len(SHUFFLE_LINE),
    }


def check_next() -> dict[str, object]:
    """Ledger.check_next of a small entry vs the two bare Ed25519 verifications it contains."""
    ledger = Ledger()
    for entry in ENTRIES[:-1]:
        ledger.append(entry)
    entry = ENTRIES[-1]
    author, sequencer = entry.author_message(), entry.sequencer_message()
    key_a = Ed25519PublicKey.from_public_bytes(IDS[entry.author].public_key)
    key_s = Ed25519PublicKey.from_public_bytes(IDS[0].public_key)

    def bare() -> None:
        key_a.verify(entry.sig, author)
        key_s.verify(entry.countersig, sequencer)

    value = _best_us(lambda: ledger.check_next(entry), 100)
    baseline = _best_us(bare, 100)
    return {
        "value": round(value, 1),
        "unit": "us/entry",
        "baseline": round(baseline, 1),
        "ratio": round(value / baseline, 2),
        "kind": entry.kind,
    }


def sign_and_sequence() -> dict[str, object]:
    """An author signs a bet and the dealer sequences and countersigns it."""

    def run() -> Entry:
        authored = AuthoredEntry.create(
            IDS[3],
            game=GAME,
            hand=1,
            author=3,
            body=plain("bet", amount=25),
            counter=LEDGER.last_counter(IDS[3].public_key) + 1,
            seen=LEDGER.head_hash,
        )
        return authored.sequence(LEDGER.head_seq + 1, LEDGER.head_hash, IDS[0])

    return {"value": round(_best_us(run, 200), 1), "unit": "us/entry"}


def replay_table() -> dict[str, object]:
    """Replaying (decode + check + append) the seating and a 10-player shuffle from JSON lines."""
    lines = [entry.encode() for entry in ENTRIES]

    def run() -> None:
        ledger = Ledger(GAME)
        for line in lines:
            ledger.append(decode_entry(line))

    per_run = _best_us(run, 3)
    return {
        "value": round(per_run / 1000, 2),
        "unit": "ms",
        "entries": len(lines),
        "bytes": sum(map(len, lines)),
    }


BENCHMARKS: dict[str, Callable[[], dict[str, object]]] = {
    "ledger.decode_deck_shuffle": decode_deck_shuffle,
    "ledger.check_next": check_next,
    "ledger.sign_and_sequence": sign_and_sequence,
    "ledger.replay_table": replay_table,
}
