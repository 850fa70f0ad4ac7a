"""Benchmarks of the whole engine: one 10-player hand through every session, and its verification.

Runs in memory, no network; reads the process clock. `python3 -m bench.engine` prints the JSON.
Each figure comes with `crypto_s`: the group operations and signature checks it counted, priced
at this run's measured unit costs, so `engine_s` (value - crypto_s) is the engine's own share.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import statistics
import time
from collections.abc import Callable

from bench.crypto import OP_KINDS, price_us, unit_costs_us
from p2pwillow.bots import play_hands
from p2pwillow.crypto.group import OPS, Rng
from p2pwillow.ledger.entry import Entry
from p2pwillow.ledger.identity import SIGNATURES, Identity, verify_signature
from p2pwillow.rules import TableConfig
from p2pwillow.table import Table
from p2pwillow.verify import Verdict, verify_transcript

PLAYERS = 10
SAMPLES = 100
"""Monte Carlo deals per bot decision, the same in the engine and in the baseline."""
SEED = 1

COUNTED = (*OP_KINDS, "signature")
_transcripts: list[bytes] = []
_signature_us: list[float] = []


def _counts() -> tuple[int, ...]:
    return (*OPS.snapshot(), SIGNATURES.verified)


def _signature_cost_us() -> float:
    """This machine's CPU cost of one Ed25519 signature check, in us (measured once per run)."""
    if not _signature_us:
        signer = Identity.from_private_bytes(bytes(32))
        message = b"m" * 600  # about one entry's signed bytes
        signature = signer.sign(message)
        rounds = 200
        start = time.process_time()
        for _ in range(rounds):
            verify_signature(signer.public_key, message, signature)
        _signature_us.append((time.process_time() - start) / rounds * 1e6)
    return _signature_us[0]


def _crypto_share(counts: tuple[int, ...], per: int) -> dict[str, object]:
    """The counted operations (divided by `per`), priced as bare library calls: crypto_s and
    the counts behind it."""
    group_us = price_us(counts[: len(OP_KINDS)])
    crypto = (group_us + counts[-1] * _signature_cost_us()) / per / 1e6
    return {
        "crypto_s": round(crypto, 4),
        "ops": {name: n // per for name, n in zip(COUNTED, counts, strict=True)},
        "op_us": {
            **{name: round(us, 2) for name, us in unit_costs_us().items()},
            "signature": round(_signature_cost_us(), 1),
        },
    }


def _rng(seed: str) -> Rng:
    counter = itertools.count()

    def rng(n: int) -> bytes:
        return hashlib.shake_256(f"{seed}/{next(counter)}".encode()).digest(n)

    return rng


def _play() -> tuple[float, int, bytes, tuple[int, ...]]:
    before = _counts()
    start = time.process_time()
    table = Table(PLAYERS, seed=SEED, rng=_rng("bench/engine"), samples=SAMPLES)
    table.play(1)
    cpu = time.process_time() - start
    counts = tuple(a - b for a, b in zip(_counts(), before, strict=True))
    data = b"".join(table.lines)
    _transcripts[:] = [data]
    return cpu, len(table.transcript), data, counts


def simulate_hand10() -> dict[str, object]:
    """CPU seconds per player for one 10-player hand through every session in one process
    (keys, shuffles, deal, trades, layouts, reveals, betting, all checks by all 10 peers);
    baseline: the same flow with a trusted dealer and no cryptography (bots.arena).
    crypto_s: the group operations and signature checks counted, per player, priced."""
    cpu, entries, data, counts = _play()
    start = time.process_time()
    play_hands(PLAYERS, 1, SEED, samples=SAMPLES)
    baseline = time.process_time() - start
    value = cpu / PLAYERS
    base = baseline / PLAYERS
    share = _crypto_share(counts, PLAYERS)
    crypto = share["crypto_s"]
    assert isinstance(crypto, float)
    return {
        "value": round(value, 4),
        "unit": "s/player",
        "baseline": round(base, 4),
        "ratio": round(value / base, 2) if base else None,
        "crypto_s": crypto,
        "engine_s": round(value - crypto, 4),
        **share,
        "entries": entries,
        "transcript_bytes": len(data),
        "goal": 1.2,
    }


def verify_hand10() -> dict[str, object]:
    """Seconds of CPU to verify one 10-player hand's transcript (willow verify's core);
    crypto_s: the group operations and signature checks counted, priced."""
    if not _transcripts:
        _play()
    data = _transcripts[0]
    before = _counts()
    start = time.process_time()
    report = verify_transcript(data)
    cpu = time.process_time() - start
    counts = tuple(a - b for a, b in zip(_counts(), before, strict=True))
    # one hand, its head signed, no game_end: valid through hand 1, not closed (SPEC 7.6)
    closed_but_for_its_end = (
        report.verdict is Verdict.NOT_CLOSED
        and report.through_hand == 1
        and {w.step for w in report.missing} == {"game_end"}
    )
    if not closed_but_for_its_end:
        raise RuntimeError(f"the benchmark's own transcript does not verify: {report.error}")
    share = _crypto_share(counts, 1)
    crypto = share["crypto_s"]
    assert isinstance(crypto, float)
    return {
        "value": round(cpu, 4),
        "unit": "s",
        "crypto_s": crypto,
        "engine_s": round(cpu - crypto, 4),
        **share,
        "entries": report.entries,
        "goal": 1.0,
    }


STUD_PLAYERS = 7
STUD_HANDS = 3
"""Hands of each game in `simulate.stud7`: a hand's CPU varies with how far its betting goes
(a hand where all but one fold on third street deals no more cards), so a few of each."""
STUD_STACK = 100_000
"""Deep enough that every seat plays every hand of both games."""


def _cpu_per_hand(game: str, seed: int) -> tuple[list[float], list[int], tuple[int, ...]]:
    """STUD_HANDS hands of `game` at a table of STUD_PLAYERS bots in one process: each hand's
    CPU seconds, from the dealer's hand_start to the last head signature (the table's own
    setup left out), each hand's entries, and the group operations and signature checks
    counted over the hands."""
    entries: dict[int, int] = {}

    def on_entry(entry: Entry) -> None:
        entries[entry.hand] = entries.get(entry.hand, 0) + 1

    config = TableConfig(seats=STUD_PLAYERS, starting_stack=STUD_STACK, games=(game,))
    table = Table(
        STUD_PLAYERS,
        config=config,
        seed=seed,
        rng=_rng(f"bench/stud7/{game}"),
        samples=SAMPLES,
        on_entry=on_entry,
    )
    before = _counts()
    cpu = []
    for hand in range(1, STUD_HANDS + 1):
        start = time.process_time()
        if not table.play_hand():
            raise RuntimeError(f"the {game} table dealt no hand {hand}")
        cpu.append(time.process_time() - start)
    counts = tuple(a - b for a, b in zip(_counts(), before, strict=True))
    return cpu, [entries[h] for h in range(1, STUD_HANDS + 1)], counts


def simulate_stud7() -> dict[str, object]:
    """CPU seconds per player of a 7-player seven-card stud hand through every session in one
    process (keys, the deck's shuffles, every street's shares with their proofs, the bets, the
    show and the settlement, all checked by all seven peers), mean over STUD_HANDS hands;
    baseline: a 7-player Weeping Willow hand the same way (its private deal, trades, layouts
    and reveals), over as many hands. The goal is a ratio of at most 1.5. crypto_s: the group
    operations and signature checks of a stud hand, per player, priced; engine_s the rest."""
    stud, stud_entries, counts = _cpu_per_hand("seven-card-stud", SEED)
    willow, willow_entries, _ = _cpu_per_hand("weeping-willow", SEED)
    value = statistics.mean(stud) / STUD_PLAYERS
    base = statistics.mean(willow) / STUD_PLAYERS
    share = _crypto_share(counts, STUD_PLAYERS * STUD_HANDS)
    crypto = share["crypto_s"]
    assert isinstance(crypto, float)
    return {
        "value": round(value, 4),
        "unit": "s/player",
        "baseline": round(base, 4),
        "ratio": round(value / base, 2),
        "crypto_s": crypto,
        "engine_s": round(value - crypto, 4),
        **share,
        "hands_s": [round(c, 3) for c in stud],
        "baseline_hands_s": [round(c, 3) for c in willow],
        "entries": stud_entries,
        "baseline_entries": willow_entries,
        "players": STUD_PLAYERS,
        "goal": "ratio <= 1.5",
    }


BENCHMARKS: dict[str, Callable[[], dict[str, object]]] = {
    "simulate.hand10": simulate_hand10,
    "simulate.stud7": simulate_stud7,
    "verify.hand10": verify_hand10,
}


if __name__ == "__main__":
    for bench in BENCHMARKS.values():
        print(json.dumps(bench()))
