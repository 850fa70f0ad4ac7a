"""What a clock that runs out does to a seat (SPEC 3.9). Pure; no I/O.

A timeout takes, for a seat the hand waits for, the action a player who answers the phone
would: the default of the step the hand is at (in a betting round check if free, else fold; a
game's own step says its own, Weeping Willow's trading pass, decline or close). A protocol step
owed after the deal (choosing trade cards, the layout, a reveal) has no default: the seat is
folded for stalling instead, out of turn, its bets staying in the pot.
"""

from __future__ import annotations

from p2pwillow.rules.config import TableConfig
from p2pwillow.rules.errors import IllegalAction
from p2pwillow.rules.events import Event, FoldedForStalling, TimedOut
from p2pwillow.rules.script import Default, current
from p2pwillow.rules.state import HandState, player


def default_step(config: TableConfig, s: HandState, seat: int) -> Default:
    """The default action for `seat` as a step, or IllegalAction (SPEC 3.9)."""
    player(s, seat)
    if s.owes_match is not None and not s.players[s.owes_match].folded:
        from p2pwillow.rules import pot_match  # its row needs the action table, which needs us

        return pot_match.default(config, s, seat)  # its answer comes before anything (3.18)
    return current(s).default(config, s, seat)


def verify_timeout(config: TableConfig, s: HandState, seat: int, _: object = None) -> None:
    default_step(config, s, seat)


def do_timeout(config: TableConfig, s: HandState, seat: int, _: object = None) -> list[Event]:
    events = default_step(config, s, seat)(s)
    return [TimedOut(seat, events[0]), *events]


def verify_stall(config: TableConfig, s: HandState, seat: int, _: object = None) -> None:
    """After the deal, any player still in may be folded for stalling (SPEC 3.9)."""
    if player(s, seat).folded:
        raise IllegalAction(f"seat {seat} has folded already")


def do_stall(config: TableConfig, s: HandState, seat: int, _: object = None) -> list[Event]:
    events = current(s).stall(config, s, seat)
    assert isinstance(events[0], FoldedForStalling)
    return events
