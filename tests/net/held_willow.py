"""`willow ARGS` whose bot holds its decisions while the file GATE exists (test support):

    python tests/net/held_willow.py GATE ARGS...

A real-process test whose game must wait for something slower than a hand (a newcomer's
process starting, being seated and catching up; a process told the table is full) creates
GATE: from their next decision on, the processes started through this script decide nothing
but the announcement of a hand they deal (live_helpers.held, as HeldBot does for nodes in the
test's own process), and the hand waits for them as for a player who is away. Removing GATE
lets them play on. A hold must end well within the table's action clock, or the others'
votes time the held seats out. Everything else is `python -m p2pwillow ARGS`, unchanged."""

from __future__ import annotations

import sys
from pathlib import Path

from live_helpers import held

from p2pwillow.cli import main
from p2pwillow.net.node import BotSeat
from p2pwillow.table import Decider


def hold_while(gate: Path) -> None:
    """Every bot seat of this process decides as `held` while `gate` exists."""
    decider = BotSeat.decider

    def held_decider(self: BotSeat, seat: int) -> Decider:
        return held(decider(self, seat), lambda: not gate.exists())

    BotSeat.decider = held_decider  # type: ignore[method-assign]


if __name__ == "__main__":
    hold_while(Path(sys.argv[1]))
    sys.exit(main(sys.argv[2:]))
