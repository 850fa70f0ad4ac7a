"""The wash of the house's stud games (SPEC 3.17): each player still in, in turn, may pay to
discard one of its cards, face down or face up, and be dealt another the same way. Pure; no
I/O.

Theory of operation. A wash is a draw of at most one card with a price (`Wash`, in the DRAW
phase, so the draw's clock, default and stall hold): the player names one of its cards by its
place among all its cards, its face-down cards first (as its public hand holds them) and then
its face-up cards in the order dealt. A face-down card goes to the muck face down, with the
draw's proof that it was the player's own (SPEC 5.14); a face-up card is public already and
goes to the muck as it is. The `Redeal` after it deals each washer one card, face down or face
up as the card it washed, in table order. The price goes to the main pot as dead money, as the
ante does.
"""

# ruff: noqa: E501 - the action table's rows below are one per line, wider than the code around it

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from p2pwillow import evaluators
from p2pwillow.hands import showing_value
from p2pwillow.limits import is_int
from p2pwillow.rules import timeouts
from p2pwillow.rules.actions import CLOCKED, Action, ActionKind, By, Needs
from p2pwillow.rules.config import TableConfig
from p2pwillow.rules.errors import IllegalAction
from p2pwillow.rules.events import Event, TimedOut, Washed
from p2pwillow.rules.live import DRAWING, face_down, fold_for_stalling, in_hand
from p2pwillow.rules.phases import Phase
from p2pwillow.rules.script import Default, Step, advance, current
from p2pwillow.rules.state import HandState, player

if TYPE_CHECKING:
    from p2pwillow.rules.hand import Hand


class WashOrder(enum.StrEnum):
    """Who washes first (SPEC 3.17): ties keep table order from the dealer's left."""

    TABLE = "table"
    """Table order from the dealer's left."""
    HIGHEST_SHOWING = "highest-showing"
    """The best high hand showing first (Five by Two)."""
    LOWEST_SHOWING = "lowest-showing"
    """The best low showing first: the lowest face-up cards, ace low (Hawaii Five-Low)."""
    LOWEST_SUM_SHOWING = "lowest-sum-showing"
    """The lowest sum of the face-up cards first (Go for Broke)."""


def _order(order: WashOrder, s: HandState) -> tuple[int, ...]:
    players = in_hand(s)
    if order is WashOrder.TABLE:
        return players

    def key(x: int) -> tuple[Any, ...]:
        up = s.players[x].shown
        if not up:
            return (0,)  # nothing showing: last
        if order is WashOrder.HIGHEST_SHOWING:
            return (1, showing_value(up))
        if order is WashOrder.LOWEST_SHOWING:
            return (1, evaluators.showing_low(up))
        return (1, evaluators.low_sum(up))

    # bigger is better for each value; sorted() is stable, so ties keep table order
    return tuple(sorted(players, key=key, reverse=True)) if players else ()


def _washer(s: HandState) -> int | None:
    return next((x for x in s.wash_order if x in in_hand(s) and x not in s.drawn), None)


def cost(config: TableConfig, s: HandState, down: bool = False) -> int:
    """What washing a face-up card (or a face-down one, `down`) costs here, in chips."""
    step = current(s)
    assert isinstance(step, Wash)
    return step.chips(config.ante, down)


def wash_cost(hand: Hand, down: bool = False) -> int:
    """What washing a face-up card (or a face-down one, `down`) costs in `hand` now
    (IllegalAction when the hand is at no wash)."""
    step = hand.step
    if not isinstance(step, Wash):
        raise IllegalAction(f"no wash in the {hand.phase.value} phase")
    return step.chips(hand.config.ante, down)


def verify_wash(
    config: TableConfig, s: HandState, seat: int, positions: Sequence[int] | None
) -> None:
    """The player to wash names at most one of its cards (its face-down cards first, then its
    face-up ones) and can pay the price (SPEC 3.17)."""
    p = player(s, seat)
    if seat != _washer(s):
        raise IllegalAction(f"seat {_washer(s)} washes now, not seat {seat}")
    if positions is None:
        return
    named = tuple(positions)
    if len(named) > 1:
        raise IllegalAction(f"a wash is one card, not {len(named)}")
    if named:
        held = p.hand_size
        if not is_int(named[0]) or not 0 <= named[0] < held:
            raise IllegalAction(f"seat {seat} holds cards 0..{held - 1}")
        price = cost(config, s, named[0] < face_down(s, seat))
        if price > p.stack:
            raise IllegalAction(f"a wash costs {price} chips; seat {seat} has {p.stack}")


def do_wash(config: TableConfig, s: HandState, seat: int, positions: Sequence[int]) -> list[Event]:
    p = s.players[seat]
    card = None
    paid = 0
    if positions:
        down = face_down(s, seat)
        paid = cost(config, s, positions[0] < down)
        p.stack -= paid
        p.paid += paid
        if positions[0] >= down:
            card = p.shown.pop(positions[0] - down)
            s.washed_up.add(seat)
        p.hand_size -= 1
    s.drawn[seat] = len(positions)
    event = Washed(seat, len(positions), card, paid)
    if _washer(s) is not None:
        return [event]
    return [event, *advance(config, s)]


@dataclass(frozen=True, slots=True)
class Wash(Step):
    """Each player still in, in the `order` fixed as the wash begins, may wash one card for
    `price` antes, or `price_down` for a face-down card where that differs (SPEC 3.17); a
    `Redeal` deals the replacements."""

    KIND: ClassVar[str] = "wash"
    PHASE: ClassVar[Phase] = Phase.DRAW
    price: int = 4
    price_down: int | None = None
    order: WashOrder = WashOrder.TABLE

    def __post_init__(self) -> None:
        for price in (self.price, self.price_down):
            if price is not None and (not is_int(price) or price < 0):
                raise IllegalAction(f"a wash's price is a number of antes, not {price!r}")

    def chips(self, ante: int, down: bool) -> int:
        antes = self.price if not down or self.price_down is None else self.price_down
        return antes * ante

    def enter(self, config: TableConfig, s: HandState) -> list[Event]:
        s.drawn, s.washed_up = {}, set()
        s.wash_order = _order(self.order, s)
        return []

    def to_act(self, s: HandState) -> tuple[int, ...]:
        washer = _washer(s)
        return () if washer is None else (washer,)

    def default(self, config: TableConfig, s: HandState, seat: int) -> Default:
        # SPEC 3.9: a player whose clock runs out at the wash keeps its cards and pays nothing
        verify_wash(config, s, seat, ())
        return lambda n: do_wash(config, n, seat, ())

    def stall(self, config: TableConfig, s: HandState, seat: int) -> list[Event]:
        return fold_for_stalling(config, s, seat, lambda n: _washer(n) is not None)


A, N, P, D = ActionKind, Needs, By.PLAYER, By.DEALER

# fmt: off
WASH_ACTIONS: tuple[Action, ...] = (
    Action(A.DRAW,    P, DRAWING, "wash",    N.POSITIONS, verify_wash, do_wash, Washed, None, False, "d", "wash"),
    Action(A.TIMEOUT, D, CLOCKED | DRAWING, "timeout", N.NOTHING, timeouts.verify_timeout, timeouts.do_timeout, TimedOut, None, False),
)
"""The rows a wash brings: the wash, a player's draw of at most one card at a price, and a
clock that also runs in it (SPEC 3.9)."""
# fmt: on

Wash.ACTIONS = WASH_ACTIONS

__all__ = [
    "WASH_ACTIONS",
    "Wash",
    "WashOrder",
    "cost",
    "do_wash",
    "verify_wash",
    "wash_cost",
]
