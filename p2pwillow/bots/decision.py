"""What a bot decides and what it knows: `Decision`, `Knowledge`, and applying a decision.

Pure; no I/O. A `Decision` is exactly one action for the rules engine (SPEC 3.3); the session
layer turns it into a signed protocol entry, the arena applies it with `apply_decision`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from p2pwillow.cards import Card
from p2pwillow.limits import LAYOUT_SIZE, is_int
from p2pwillow.rules import ActionKind, Announcement, Event, Hand
from p2pwillow.rules.actions import ACTION, DECISIONS


class BotError(ValueError):
    """A bot was asked something it cannot answer: bad knowledge, or nothing to decide now."""


def _cards(value: object, what: str, *, distinct: bool = True) -> tuple[Card, ...]:
    if not isinstance(value, tuple) or any(type(card) is not Card for card in value):
        raise BotError(f"{what} must be a tuple of Card, not {value!r}")
    if distinct and len(set(value)) != len(value):
        raise BotError(f"{what} names a card twice")
    return value


# Which optional field each action a player decides needs (None: none of them): the action
# table's word (SPEC 3.3).
_NEEDS: dict[ActionKind, str | None] = {a.kind: a.needs.decision_field for a in DECISIONS}


@dataclass(frozen=True, slots=True)
class Decision:
    """Exactly one player action for the rules engine.

    `amount` is the bet, or the raise-to round total; `k` the offer size; `positions` the hand
    positions given in a trade, or for LAY_OUT the five hand positions in reveal order (first
    revealed first); `announcement` the dealer's announcement. Only the field the action needs
    is set.
    """

    kind: ActionKind
    amount: int | None = None
    k: int | None = None
    positions: tuple[int, ...] | None = None
    announcement: Announcement | None = None

    def __post_init__(self) -> None:
        if self.kind not in _NEEDS:
            raise BotError(f"{self.kind!r} is not a player action a bot decides")
        needed = _NEEDS[self.kind]
        for name in ("amount", "k", "positions", "announcement"):
            value = getattr(self, name)
            if (value is None) == (name == needed):
                state = "needs" if name == needed else "takes no"
                raise BotError(f"a {self.kind.value} decision {state} {name}")
        if self.amount is not None and not is_int(self.amount):
            raise BotError(f"amount must be an integer, not {self.amount!r}")
        if self.k is not None and not is_int(self.k):
            raise BotError(f"k must be an integer, not {self.k!r}")
        if self.positions is not None and (
            not isinstance(self.positions, tuple) or not all(map(is_int, self.positions))
        ):
            raise BotError(f"positions must be a tuple of integers, not {self.positions!r}")
        if self.announcement is not None and not isinstance(self.announcement, Announcement):
            raise BotError(f"not an announcement: {self.announcement!r}")
        if self.kind is ActionKind.LAY_OUT:
            assert self.positions is not None
            if len(self.positions) != LAYOUT_SIZE or len(set(self.positions)) != LAYOUT_SIZE:
                raise BotError(f"a layout is {LAYOUT_SIZE} distinct positions")


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What one seat privately knows about the hand.

    `cards` is its current hand by hand position (as the last hand shuffle numbered it);
    `given[s]` the cards it passed to seat s in trades, `received[s]` those it got from s (the
    giver knows them). `layout`, once laid out, is its five layout cards in reveal order.
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
            if len(self.layout) != LAYOUT_SIZE:
                raise BotError(f"a layout is {LAYOUT_SIZE} cards, not {len(self.layout)}")
            if not set(self.layout) <= set(self.cards):
                raise BotError("knowledge layout holds a card that is not in the hand")

    @property
    def known_to_others(self) -> frozenset[Card]:
        """Cards of its hand that another seat knows it holds (it received them from them)."""
        held = set(self.cards)
        return frozenset(c for cards in self.received.values() for c in cards if c in held)


def is_legal(hand: Hand, seat: int, decision: Decision) -> bool:
    """Whether the engine would accept `decision` from `seat` now (its `can_*` answer)."""
    action = ACTION[decision.kind]
    return hand.can(decision.kind, seat, action.argument(decision))


def apply_decision(hand: Hand, seat: int, decision: Decision) -> Event:
    """Take `decision` for `seat` on the engine; returns the engine's event.

    Raises the engine's IllegalAction if the action is not legal now. For LAY_OUT the engine
    checks the positions against the hand and records that the seat laid out; which cards they
    are is for the protocol (SPEC 5).
    """
    action = ACTION[decision.kind]
    return hand.act(decision.kind, seat, action.argument(decision))
