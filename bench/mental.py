"""Benchmark of one 10-player hand's mental-poker cryptography, per player (SPEC 5).

Runs in memory, no network; reads the process clock. `python3 -m bench.mental` prints the JSON.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field

from bench.crypto import OP_KINDS, price_us, unit_costs_us
from p2pwillow import mental
from p2pwillow.crypto.elgamal import Ciphertext
from p2pwillow.crypto.group import OPS, Point, Rng
from p2pwillow.games.roll_your_own import LAYOUT
from p2pwillow.mental import DealShares, HandContext, Layout, PlayerHand

PLAYERS = 10
CARDS_EACH = 5
TRADE_SIZE = 2
PHASES = ("keys", "deck", "deal", "trades", "layout", "reveal")


def _rng(seed: str) -> Rng:
    counter = itertools.count()

    def rng(n: int) -> bytes:
        return hashlib.shake_256(f"{seed}/{next(counter)}".encode()).digest(n)

    return rng


@dataclass
class _Account:
    """CPU seconds and group operations charged to each seat, by phase.

    A step's proof is made once by its actor and checked once here; the check's cost is
    charged to every other seat, as each of them runs the same deterministic check.
    """

    seats: tuple[int, ...]
    cpu: dict[tuple[int, str], float] = field(default_factory=dict)
    ops: dict[int, list[int]] = field(default_factory=dict)

    def _charge(self, who: tuple[int, ...], phase: str, seconds: float, ops: list[int]) -> None:
        for seat in who:
            self.cpu[seat, phase] = self.cpu.get((seat, phase), 0.0) + seconds
            totals = self.ops.setdefault(seat, [0] * len(OP_KINDS))
            for i, n in enumerate(ops):
                totals[i] += n

    @contextmanager
    def run(self, who: tuple[int, ...], phase: str) -> Iterator[None]:
        before = OPS.snapshot()
        start = time.process_time()
        yield
        seconds = time.process_time() - start
        after = OPS.snapshot()
        self._charge(who, phase, seconds, [a - b for a, b in zip(after, before, strict=True)])

    def make(self, seat: int, phase: str) -> AbstractContextManager[None]:
        return self.run((seat,), phase)

    def check(self, actor: int, phase: str) -> AbstractContextManager[None]:
        return self.run(tuple(s for s in self.seats if s != actor), phase)

    def everyone(self, phase: str) -> AbstractContextManager[None]:
        return self.run(self.seats, phase)


def hand10() -> dict[str, object]:
    """One hand: 10 players, 5-card deal, a 2-for-2 trade for each adjacent pair (i, i+1)
    going round the table (10 trades, in turn), every layout laid out and fully revealed."""
    seats = tuple(range(PLAYERS))
    dealer = 0
    ctx = HandContext(b"bench-game", 1)
    rng = _rng("bench/hand10")
    acct = _Account(seats)
    plan = mental.deal_plan(seats, dealer, CARDS_EACH)

    secrets: dict[int, int] = {}
    keys: dict[int, Point] = {}
    for seat in seats:
        with acct.make(seat, "keys"):
            secrets[seat], hand_key = mental.make_hand_key(ctx, seat, rng)
        with acct.check(seat, "keys"):
            mental.check_hand_key(ctx, seat, hand_key)
        keys[seat] = hand_key.public
    with acct.everyone("keys"):
        joint = mental.joint_key(keys[s] for s in seats)
        deck = mental.starting_deck(joint)

    for seat in mental.shuffle_order(seats, dealer):
        with acct.make(seat, "deck"):
            step = mental.make_deck_shuffle(ctx, seat, joint, deck, rng)
        with acct.check(seat, "deck"):
            deck = mental.check_deck_shuffle(ctx, seat, joint, deck, step)

    shares: dict[int, DealShares] = {}
    for seat in seats:
        with acct.make(seat, "deal"):
            shares[seat] = mental.make_deal_shares(ctx, seat, secrets[seat], plan, deck, rng)
        with acct.check(seat, "deal"):
            mental.check_deal_shares(ctx, seat, keys[seat], plan, deck, shares[seat])
    public: dict[int, tuple[Ciphertext, ...]] = {}
    with acct.everyone("deal"):
        for seat in seats:
            public[seat] = mental.owner_ciphertexts(plan, deck, shares, seat)
    held: dict[int, PlayerHand] = {}
    for seat in seats:
        with acct.make(seat, "deal"):
            held[seat] = PlayerHand.open(public[seat], secrets[seat])

    for trade, a in enumerate(seats):
        b = seats[(trade + 1) % PLAYERS]
        gives = {}
        for giver, receiver in ((a, b), (b, a)):
            positions = list(range(TRADE_SIZE))
            with acct.make(giver, "trades"):
                gives[giver] = mental.make_trade_give(
                    ctx, giver, trade, secrets[giver], held[giver], positions, keys[receiver], rng
                )
            with acct.check(giver, "trades"):
                mental.check_trade_give(
                    ctx,
                    giver,
                    trade,
                    keys[giver],
                    keys[receiver],
                    public[giver],
                    TRADE_SIZE,
                    gives[giver],
                )
        for owner, other in ((a, b), (b, a)):
            given, received = gives[owner].positions, gives[other].ciphertexts
            with acct.everyone("trades"):
                before = mental.apply_trade(public[owner], given, received)
            with acct.make(owner, "trades"):
                mine = mental.trade_hand(held[owner], secrets[owner], given, received)
                shuffled, held[owner] = mental.make_hand_shuffle(
                    ctx, owner, trade, secrets[owner], mine, rng
                )
            with acct.check(owner, "trades"):
                public[owner] = mental.check_hand_shuffle(
                    ctx, owner, trade, keys[owner], before, shuffled
                )

    layouts: dict[int, Layout] = {}
    for seat in seats:
        chosen = held[seat].cards[:LAYOUT]
        with acct.make(seat, "layout"):
            laid, held[seat] = mental.make_layout(ctx, seat, secrets[seat], held[seat], chosen, rng)
        with acct.check(seat, "layout"):
            layouts[seat] = mental.check_layout(ctx, seat, keys[seat], public[seat], laid, LAYOUT)

    for r in range(LAYOUT):
        for seat in seats:
            with acct.make(seat, "reveal"):
                reveal = mental.make_reveal(ctx, seat, secrets[seat], layouts[seat], r, rng)
            with acct.check(seat, "reveal"):
                card = mental.check_reveal(ctx, seat, keys[seat], layouts[seat], r, reveal)
            if card != held[seat].cards[r]:
                raise AssertionError("benchmark hand revealed the wrong card")

    per_seat = [sum(acct.cpu.get((s, p), 0.0) for p in PHASES) for s in seats]
    by_phase = {
        p: round(sum(acct.cpu.get((s, p), 0.0) for s in seats) / PLAYERS, 4) for p in PHASES
    }
    ops = {k: sum(acct.ops[s][i] for s in seats) // PLAYERS for i, k in enumerate(OP_KINDS)}
    value = sum(per_seat) / PLAYERS
    # The same libsecp256k1 calls made bare, priced in this run: the ratio is the overhead of
    # everything else (hashing, encoding, Python), independent of the machine.
    baseline = price_us(tuple(ops[k] for k in OP_KINDS)) / 1e6
    return {
        "name": "mental.hand10",
        "value": round(value, 4),
        "unit": "s",
        "baseline": round(baseline, 4),
        "ratio": round(value / baseline, 3),
        "max_player_s": round(max(per_seat), 4),
        "phases_s": by_phase,
        "ops_per_player": ops,
        "op_us": {name: round(us, 2) for name, us in unit_costs_us().items()},
        "workload": (
            f"{PLAYERS} players, {CARDS_EACH}-card deal, {PLAYERS} trades of {TRADE_SIZE} "
            "cards (seat i with i+1, round the table), all layouts revealed; each player "
            "proves its steps and checks every other player's"
        ),
    }


BENCHMARKS: dict[str, Callable[[], dict[str, object]]] = {"mental.hand10": hand10}


if __name__ == "__main__":
    for bench in BENCHMARKS.values():
        print(json.dumps(bench()))
