"""What a bot knows (`Knowledge`), and applying a decision (the rules' `Decision`, one type
for bots, the session, the view and the client).

Pure; no I/O. A `Decision` is exactly one action for the rules engine (SPEC 3.3); the session
layer turns it into a signed protocol entry, the arena applies it with `apply_decision`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field

from p2pwillow.cards import Card
from p2pwillow.limits import is_int
from p2pwillow.rules import Decision as Decision
from p2pwillow.rules import Event, Hand
from p2pwillow.rules.decision import DecisionError


class BotError(ValueError):
    """A bot was asked something it cannot answer: bad knowledge, or nothing to decide now."""


Random = random.Random
"""The bots' random source: every bot draws from the one it is given, never from the global
random module."""

BotErrors = (BotError, DecisionError)
"""What a bot that cannot decide raises: its own error, or a decision that is none."""


def _cards(value: object, what: str, *, distinct: bool = True) -> tuple[Card, ...]:
    if not isinstance(value, tuple) or any(type(card) is not Card for card in value):
        raise BotError(f"{what} must be a tuple of Card, not {value!r}")
    if distinct and len(set(value)) != len(value):
        raise BotError(f"{what} names a card twice")
    return value


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What one seat privately knows about the hand.

    `cards` is its current hand by hand position (as the last hand shuffle numbered it);
    `given[s]` the cards it passed to seat s in trades, `received[s]` those it got from s (the
    giver knows them). `layout`, once laid out, is its layout cards in reveal order.
    """

    seat: int
    cards: tuple[Card, ...]
    given: Mapping[int, tuple[Card, ...]] = field(default_factory=dict)
    received: Mapping[int, tuple[Card, ...]] = field(default_factory=dict)
    layout: tuple[Card, ...] | None = None

    def __post_init__(self) -> None:
        if not is_int(self.seat):
            raise BotError(f"knowledge seat must be an integer, not {self.seat!r}")
        _cards(self.cards, "knowledge cards")
        for name in ("given", "received"):
            book = getattr(self, name)
            if not isinstance(book, Mapping):
                raise BotError(f"knowledge {name} must map seats to cards, not {book!r}")
            for seat, cards in book.items():
                if not is_int(seat) or seat == self.seat:
                    raise BotError(f"knowledge {name} names a bad seat {seat!r}")
                # A card may travel back and forth, so a seat may be named with it twice.
                _cards(cards, f"knowledge {name}[{seat}]", distinct=False)
        if self.layout is not None:
            _cards(self.layout, "knowledge layout")
            if not set(self.layout) <= set(self.cards):
                raise BotError("knowledge layout holds a card that is not in the hand")

    @property
    def known_to_others(self) -> frozenset[Card]:
        """Cards of its hand that another seat knows it holds (it received them from them)."""
        held = set(self.cards)
        return frozenset(c for cards in self.received.values() for c in cards if c in held)


def is_legal(hand: Hand, seat: int, decision: Decision) -> bool:
    """Whether the engine would accept `decision` from `seat` now (its `can_*` answer)."""
    return hand.can(decision.kind, seat, decision.argument())


def apply_decision(hand: Hand, seat: int, decision: Decision) -> Event:
    """Take `decision` for `seat` on the engine; returns the engine's event.

    Raises the engine's IllegalAction if the action is not legal now. For LAY_OUT the engine
    checks the positions against the hand and records that the seat laid out; which cards they
    are is for the protocol (SPEC 5).
    """
    return hand.act(decision.kind, seat, decision.argument())


def check_seat(seat: int, hand: Hand, knowledge: Knowledge) -> None:
    """BotError unless `hand` is a hand `seat` plays and `knowledge` is that seat's: what every
    bot checks before it decides."""
    if not isinstance(hand, Hand):
        raise BotError(f"not a Hand: {hand!r}")
    if not isinstance(knowledge, Knowledge):
        raise BotError(f"not a Knowledge: {knowledge!r}")
    if knowledge.seat != seat:
        raise BotError(f"knowledge of seat {knowledge.seat} given to seat {seat}'s bot")
    if seat not in hand.seats:
        raise BotError(f"seat {seat} is not in this hand")
