"""Bots held by a test (test support): `held` for nodes in the test's own process (HeldBot in
live_helpers), and real `willow` processes whose bot holds its decisions while a file exists,
and whose node deals the next hand only after DEAL_GRACE:

    python tests/net/held_willow.py GATE ARGS...

A test whose game must wait for something slower than a hand (a newcomer's process starting,
being seated and catching up; a process told the table is full) creates GATE: from their next
decision on, the processes started through this script decide nothing but the announcement
of a hand they deal, and the hand waits for them as for a player who is away. Removing GATE
lets them play on. Everything else is `python -m p2pwillow ARGS`, unchanged. This module
imports nothing of the tests, so it runs as a script with only the checkout on the path."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from p2pwillow import seat
from p2pwillow.cli import main
from p2pwillow.net.node import BotSeat
from p2pwillow.rules import ActionKind, Decision
from p2pwillow.session import Session
from p2pwillow.table import Decider

DEAL_GRACE = 1.5
"""How long a next dealer waits once no hand runs, in the tests whose seat change (a
newcomer's join, a seat's sit_in) must come before the next hand: the node's own grace
(0.3 s) is a courtesy that a seat a moment behind the others can miss (a watcher or a seat
sitting out gets entries a moment after the seats that owe a step; in one process with other
nodes, or on a loaded machine, it is further behind), and it then waits a hand more."""


def patient_dealer() -> None:
    """This process's node waits DEAL_GRACE before it deals."""
    seat.DEAL_GRACE = DEAL_GRACE


def held(decide: Decider, go: Callable[[], bool]) -> Decider:
    """`decide`, holding every decision but the announcement of a hand it deals while `go()`
    is false: the hand runs (its cards dealt) and waits, as a table waits for a player who is
    away, until what the test waits for has come. Each hold must end well within the action
    clock, or the others' votes time the held seats out."""

    def decider(s: Session) -> Decision | None:
        decision = decide(s)
        if go() or getattr(decision, "kind", None) is ActionKind.ANNOUNCE:
            return decision
        return None

    return decider


def hold_while(gate: Path) -> None:
    """Every bot seat of this process decides as `held` while `gate` exists."""
    decider = BotSeat.decider

    def held_decider(self: BotSeat, seat: int) -> Decider:
        return held(decider(self, seat), lambda: not gate.exists())

    BotSeat.decider = held_decider  # type: ignore[method-assign]


if __name__ == "__main__":
    hold_while(Path(sys.argv[1]))
    patient_dealer()
    sys.exit(main(sys.argv[2:]))
