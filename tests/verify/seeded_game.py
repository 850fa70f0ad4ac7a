"""A game the bots play in this process with every choice seeded, cards included.

`willow simulate --seed` fixes the bots' choices only: its players' keys, and so the deck's
order, come from `os.urandom`, so whether someone washes, folds or reaches a showdown changes from
run to run. A test that needs such a moment plays here instead, where one seed fixes the whole
transcript, byte for byte, on every machine."""

from __future__ import annotations

import random

from p2pwillow.rules import TableConfig
from p2pwillow.table import Table


def played(game: str, seed: int, *, players: int = 4, hands: int = 3) -> bytes:
    """The transcript, as `willow simulate --level easy` writes it, of `hands` hands of `game`
    by `players` bots, the keys drawn from `seed` too."""
    lines: list[bytes] = []
    table = Table(
        players,
        config=TableConfig(seats=players, games=(game,)),
        seed=seed,
        rng=random.Random(seed).randbytes,
        level="easy",
        on_entry=lambda e: lines.append(e.encode() + b"\n"),
    )
    for _ in range(hands):
        if not table.play_hand():
            break
    table.end_game()
    return b"".join(lines)
