"""A game the bots play in this process with every choice seeded, cards included.

`willow simulate --seed` fixes the bots' choices only: its players' keys, and so the deck's
order, come from `os.urandom`, so whether someone washes, folds or reaches a showdown changes from
run to run. A test that needs such a moment plays here instead, where one seed fixes the whole
transcript, byte for byte, on every machine."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from p2pwillow.bots import Level
from p2pwillow.rules import TableConfig
from p2pwillow.table import Table


def played(
    game: str | Sequence[str],
    seed: int,
    *,
    players: int = 4,
    hands: int = 3,
    stack: int | None = None,
    level: Level | str = "easy",
) -> bytes:
    """The transcript, as `willow simulate --level LEVEL` writes it, of `hands` hands of `game`
    (several names: the dealer's choice of those games) by `players` bots at `level` (easy
    unless given), each starting with `stack` chips (the table's default unless given), the
    keys drawn from `seed` too."""
    lines: list[bytes] = []
    games = (game,) if isinstance(game, str) else tuple(game)
    config = TableConfig(seats=players, games=games)
    if stack is not None:
        config = replace(config, starting_stack=stack)
    table = Table(
        players,
        config=config,
        seed=seed,
        rng=random.Random(seed).randbytes,
        level=level,
        on_entry=lambda e: lines.append(e.encode() + b"\n"),
    )
    for _ in range(hands):
        if not table.play_hand():
            break
    table.end_game()
    return b"".join(lines)
