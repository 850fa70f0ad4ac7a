"""Match the pot or fold (SPEC 3.18): a forced decision of one player with two answers, to put
the pot's size into the pot (capped by its stack) or to fold. Pure; no I/O.

Theory of operation. A rule of the game puts one player to the decision (`put_to_match`: the
show after the declaration, 3.18; it is written for any other, such as Baseball's strike). From
then on the hand waits for that player alone (`Hand.to_act`) and takes nothing but its answer or
the clock's (`blocks`): a betting round that runs stands still meanwhile. A match puts all the
chips in the middle at that moment into the main pot as dead money, as the ante does, so it
calls no bet and opens none; a player it leaves with no chips is all in, and the round no longer
waits for it. A fold folds the player out of turn, its bets staying in the pot. The clock's
default, the house's, is the fold.
"""

# ruff: noqa: E501 - the action table's row below is one line, wider than the code around it

from __future__ import annotations

from dataclasses import dataclass

from p2pwillow.rules import betting_round
from p2pwillow.rules.actions import Action, ActionKind, By, Needs
from p2pwillow.rules.config import TableConfig
from p2pwillow.rules.errors import IllegalAction
from p2pwillow.rules.events import Event, Namer, Words
from p2pwillow.rules.phases import Phase
from p2pwillow.rules.script import Default
from p2pwillow.rules.showdown import stalled_to_one
from p2pwillow.rules.state import HandState, player, pot_chips


@dataclass(frozen=True, slots=True)
class MatchOwed(Event):
    """A player is put to match the pot (`amount`: the pot's size capped by its stack) or fold."""

    FOLLOWS = True
    seat: int
    amount: int

    def words(self, n: Namer) -> Words:
        return (f"{n(self.seat)} must match the pot ({self.amount}) or fold",)


@dataclass(frozen=True, slots=True)
class PotMatched(Event):
    """A player put to match the pot or fold answered: `matched` with `amount` chips (all it
    had, `all_in`), or it folded (`amount` 0)."""

    seat: int
    matched: bool
    amount: int
    all_in: bool

    def words(self, n: Namer) -> Words:
        if not self.matched:
            return (f"{n(self.seat)} folds rather than match the pot",)
        return (f"{n(self.seat)} matches the pot: {self.amount}" + ", all in" * self.all_in,)


def owing(s: HandState) -> int | None:
    """The seat whose answer the hand waits for: none once it is folded (a stall folds it)."""
    seat = s.owes_match
    return None if seat is None or s.players[seat].folded else seat


def match_amount(config: TableConfig, s: HandState, seat: int) -> int:
    """What a match by `seat` puts in now: every chip in the middle, at most its stack."""
    return min(pot_chips(config, s), s.players[seat].stack)


def put_to_match(config: TableConfig, s: HandState, seat: int) -> list[Event]:
    """A rule of the game puts `seat` to match the pot or fold, at once."""
    s.owes_match = seat
    return [MatchOwed(seat, match_amount(config, s, seat))]


ANSWERS = frozenset({ActionKind.POT_MATCH, ActionKind.TIMEOUT, ActionKind.STALL, ActionKind.VOID})
"""What the hand takes while a player owes its answer: the answer, the clock's (a timeout, a
stall) and the table's stop."""


def blocks(s: HandState, kind: ActionKind) -> str | None:
    """Why the hand takes no `kind` now: a player owes its answer first (or None)."""
    seat = owing(s)
    if seat is None or kind in ANSWERS:
        return None
    return f"seat {seat} must match the pot or fold first"


def verify_pot_match(config: TableConfig, s: HandState, seat: int, match: bool | None) -> None:
    """Only the player put to it answers, once, True (match) or False (fold)."""
    player(s, seat)
    owed = owing(s)
    if owed is None:
        raise IllegalAction("nobody is put to match the pot or fold")
    if seat != owed:
        raise IllegalAction(f"seat {owed} is to match the pot or fold, not seat {seat}")
    if match is not None and not isinstance(match, bool):
        raise IllegalAction(f"the answer is match (True) or fold (False), not {match!r}")


def do_pot_match(config: TableConfig, s: HandState, seat: int, match: bool) -> list[Event]:
    p = s.players[seat]
    s.owes_match = None
    if not match:
        p.folded = True
        return _leave(config, s, seat, PotMatched(seat, False, 0, False))
    chips = match_amount(config, s, seat)
    p.stack -= chips
    p.matched += chips
    event = PotMatched(seat, True, chips, p.stack == 0)
    if p.stack:
        return [event]
    return _leave(config, s, seat, event)


def _leave(config: TableConfig, s: HandState, seat: int, event: Event) -> list[Event]:
    """`seat` folded or is all in: one player left ends the hand (3.8); a betting round goes on
    without it (the next player acts if it was the one to act), as for a fold for stalling."""
    if sum(not q.folded for q in s.players.values()) == 1:
        return [event, *stalled_to_one(config, s)]
    if s.phase is not Phase.BETTING or s.round_state is None:
        return [event]
    if seat == s.actor:
        return [event, *betting_round._after_action(config, s, seat, raised=False)]
    s.needs = [x for x in s.needs if x != seat]
    return [event]


def default(config: TableConfig, s: HandState, seat: int) -> Default:
    """SPEC 3.9, 3.18: a player whose clock runs out while it owes its answer folds."""
    verify_pot_match(config, s, seat, False)
    return lambda n: do_pot_match(config, n, seat, False)


A, N, P = ActionKind, Needs, By.PLAYER
ANYWHERE = frozenset(Phase) - {
    Phase.ANNOUNCE,
    Phase.DEAL,
    Phase.SHOWDOWN,
    Phase.COMPLETE,
    Phase.ABORTED,
}
"""A player is put to the decision after the deal, in whatever step a rule of its game says."""

# fmt: off
POT_MATCH_ROW = Action(A.POT_MATCH, P, ANYWHERE, "pot_match", N.MATCH, verify_pot_match, do_pot_match, PotMatched, None, False)
"""The decision's row of the action table: a game whose rules put a player to it brings it
with the step that does (SPEC 3.18). Its entry names the chips, so it binds no head; the client
answers it in a panel of its own, with a key for each answer."""
# fmt: on

__all__ = [
    "ANSWERS",
    "POT_MATCH_ROW",
    "MatchOwed",
    "PotMatched",
    "blocks",
    "default",
    "do_pot_match",
    "match_amount",
    "owing",
    "put_to_match",
    "verify_pot_match",
]
