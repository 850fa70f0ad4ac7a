"""The pass street of Pass the Card (SPEC 3.19): a street of face-up cards dealt one seat at a
time, each seat keeping its card or paying the betting minimum to pass it to the next seat
dealt, and then being dealt another. Pure; no I/O.

Theory of operation. A `PassStreet` is a deal step of the live deck (SPEC 3.15) that deals one
card at a time: its destinations are the one card owed next, or none while a player chooses,
so the session opens a deal of one card, waits for the choice, and opens the next (5.12). The
street's order is the players still in from a start one seat on from the last pass street's.
The seat whose card is open either keeps it (`KEEP_CARD`) or pays the price and passes it to
the next seat in that order (`PASS_CARD`): the card becomes that seat's card of the street, on
which it has its own choice, and the passer is dealt the next card face up, which it keeps.
Every seat has one choice a street, and the last seat dealt none (nobody comes after it). The
next card is never opened before the choice it would follow: the seat deciding must not see
its replacement first.
"""

# ruff: noqa: E501 - the action table's rows below are one per line, wider than the code around it

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import ClassVar

from p2pwillow.rules import timeouts
from p2pwillow.rules.actions import CLOCKED, Action, ActionKind, By, Needs
from p2pwillow.rules.config import BettingStructure, TableConfig
from p2pwillow.rules.errors import IllegalAction
from p2pwillow.rules.events import CardKept, CardPassed, Event, StreetDealt, TimedOut
from p2pwillow.rules.live import LIVE_ACTIONS, UP, Destination, Street, in_hand
from p2pwillow.rules.phases import Phase
from p2pwillow.rules.script import Default, Described, OpDue, OptionValue, advance
from p2pwillow.rules.state import HandState, player


def pass_price(config: TableConfig) -> int:
    """What passing a card costs: the betting minimum, the table's smallest bet (its small bet
    in fixed limit, else its minimum bet; SPEC 3.19)."""
    if config.structure is BettingStructure.FIXED_LIMIT:
        return config.small_bet
    return config.min_bet


def _holder(s: HandState) -> int | None:
    """The seat whose card of the street is open and not yet kept or passed, once no card is
    owed; None while a card is owed or once the street is dealt."""
    if s.pass_owed is not None or s.pass_card is None:
        return None
    return s.pass_order[s.pass_at]


def _asked(s: HandState, seat: int) -> bool:
    """Whether `seat`, holding its card of the street, chooses: not the last seat dealt (no
    seat comes after it) nor one all in (it has nothing to pay with)."""
    return s.pass_at < len(s.pass_order) - 1 and s.players[seat].stack > 0


def chooser(s: HandState) -> int | None:
    """The seat that keeps or passes its card now, if any."""
    seat = _holder(s)
    return None if seat is None or not _asked(s, seat) else seat


def _next_seat(config: TableConfig, s: HandState) -> list[Event]:
    """The seat at `pass_at` keeps its card: the next seat is dealt, or the street is over."""
    s.pass_at += 1
    s.pass_card = None
    if s.pass_at < len(s.pass_order):
        return []  # the next card is owed
    s.pass_order, s.pass_at = (), 0  # the street is dealt: nobody is asked until the next
    return advance(config, s)


def _go_on(config: TableConfig, s: HandState) -> list[Event]:
    """After a card arrives: its holder chooses, or keeps it unasked and the street goes on."""
    seat = _holder(s)
    if seat is None or _asked(s, seat):
        return []
    return _next_seat(config, s)


def _check_chooser(s: HandState, seat: int) -> None:
    player(s, seat)
    now = chooser(s)
    if now is None:
        raise IllegalAction("nobody keeps or passes a card now: a card is being dealt")
    if seat != now:
        raise IllegalAction(f"seat {now} keeps or passes its card now, not seat {seat}")


def verify_keep(config: TableConfig, s: HandState, seat: int, _: object = None) -> None:
    """The seat whose card is open keeps it."""
    _check_chooser(s, seat)


def verify_pass(config: TableConfig, s: HandState, seat: int, _: object = None) -> None:
    """The seat whose card is open passes it: not the last seat dealt, and it can pay."""
    player(s, seat)
    if s.pass_order and seat == s.pass_order[-1]:
        raise IllegalAction(f"seat {seat} is dealt last this street: it has nobody to pass to")
    _check_chooser(s, seat)
    price = pass_price(config)
    stack = s.players[seat].stack
    if price > stack:
        raise IllegalAction(f"a pass costs {price} chips; seat {seat} has {stack}")


def do_keep(config: TableConfig, s: HandState, seat: int, _: object = None) -> list[Event]:
    card = s.pass_card
    assert card is not None
    return [CardKept(seat, card), *_next_seat(config, s)]


def do_pass(config: TableConfig, s: HandState, seat: int, _: object = None) -> list[Event]:
    """The price to the pot as dead money; the card, the last the seat was dealt, to the next
    seat of the street, whose card of the street it is; the passer is owed its replacement."""
    card = s.pass_card
    assert card is not None
    p = s.players[seat]
    paid = pass_price(config)
    p.stack -= paid
    p.paid += paid
    assert p.shown and p.shown[-1] == card
    p.shown.pop()
    p.hand_size -= 1
    to = s.pass_order[s.pass_at + 1]
    receiver = s.players[to]
    receiver.shown.append(card)
    receiver.hand_size += 1
    s.pass_at += 1
    s.pass_owed = seat
    return [CardPassed(seat, to, card, paid)]


@dataclass(frozen=True, slots=True)
class PassStreet(Street):
    """A street of one face-up card to each player still in, dealt one seat at a time from a
    start that moves one seat on each pass street, each seat keeping its card or passing it
    to the next seat for the betting minimum and being dealt another (SPEC 3.19)."""

    KIND: ClassVar[str] = "pass-street"
    ACTIONS: ClassVar[tuple[Action, ...]] = ()  # set below, once the rows' functions exist
    up: int = 1
    """One card face up to each player (what a reader of the script counts; the description
    names no field)."""

    def __post_init__(self) -> None:
        pass  # one card face up to each: no fields

    def describe(self) -> Described:
        return {"step": self.KIND}

    def cards_each(self, chosen: Mapping[str, OptionValue]) -> int:
        return 1  # the passes come on top: the game bounds its players for them

    def destinations(self, s: HandState) -> tuple[Destination, ...]:
        # one card at a time: a passer's replacement first, else the next seat's card, and
        # nothing while a player chooses
        if s.pass_owed is not None:
            return ((UP, s.pass_owed),)
        if s.pass_card is None and s.pass_at < len(s.pass_order):
            return ((UP, s.pass_order[s.pass_at]),)
        return ()

    def ahead(self, s: HandState, entered: bool) -> tuple[Destination, ...]:
        if not entered:
            return tuple((UP, x) for x in in_hand(s))
        # the card owed now, then one to each seat after the one holding or owed its card
        later = tuple((UP, x) for x in s.pass_order[s.pass_at + 1 :] if x in in_hand(s))
        return self.destinations(s) + later

    def enter(self, config: TableConfig, s: HandState) -> list[Event]:
        players = in_hand(s)
        start = players[0]
        if s.pass_first is not None:
            # one seat on from the last street's start, among the players still in
            k = s.order.index(s.pass_first)
            later = s.order[k + 1 :] + s.order[: k + 1]
            start = next(x for x in later if x in players)
        at = players.index(start)
        s.pass_order = players[at:] + players[:at]
        s.pass_first = start
        s.pass_at, s.pass_card, s.pass_owed = 0, None, None
        return Street.enter(self, config, s)  # (slotted dataclasses have no zero-argument super)

    def dealt(self, config: TableConfig, s: HandState, event: StreetDealt) -> list[Event]:
        ((_, (card,)),) = event.up
        if s.pass_owed is not None:
            # the passer's replacement, which it keeps; the seat passed to chooses next
            s.pass_owed = None
            return [replace(event, replaces=s.pass_card), *_go_on(config, s)]
        s.pass_card = card
        return [event, *_go_on(config, s)]

    def to_act(self, s: HandState) -> tuple[int, ...]:
        seat = chooser(s)
        return () if seat is None else (seat,)

    def ops(self, s: HandState) -> tuple[OpDue, ...]:
        return Street.ops(self, s) if self.destinations(s) else ()

    def default(self, config: TableConfig, s: HandState, seat: int) -> Default:
        # SPEC 3.9, 3.19: a player whose clock runs out keeps its card
        verify_keep(config, s, seat)
        return lambda n: do_keep(config, n, seat)


A, N, P, D = ActionKind, Needs, By.PLAYER, By.DEALER
STREETS = frozenset({Phase.STREET})

# fmt: off
PASS_ACTIONS: tuple[Action, ...] = (
    *LIVE_ACTIONS,
    Action(A.PASS_CARD, P, STREETS, "pass_card", N.NOTHING, verify_pass, do_pass, CardPassed, (), True, "p", "pass the card"),
    Action(A.KEEP_CARD, P, STREETS, "keep_card", N.NOTHING, verify_keep, do_keep, CardKept,   (), True, "k", "keep the card"),
    Action(A.TIMEOUT,   D, CLOCKED | STREETS, "timeout", N.NOTHING, timeouts.verify_timeout, timeouts.do_timeout, TimedOut, None, False),
)
"""The rows a pass street brings: the live deck's (it deals), the pass and the keep, and a
clock that also runs while a player chooses (SPEC 3.9)."""
# fmt: on

PassStreet.ACTIONS = PASS_ACTIONS

__all__ = [
    "PASS_ACTIONS",
    "PassStreet",
    "chooser",
    "do_keep",
    "do_pass",
    "pass_price",
    "verify_keep",
    "verify_pass",
]
