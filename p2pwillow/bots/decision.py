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


class BotError(ValueError):
    """A bot was asked something it cannot answer: bad knowledge, or nothing to decide now."""


def _cards(value: object, what: str, *, distinct: bool = True) -> tuple[Card, ...]:
    if not isinstance(value, tuple) or any(type(card) is not Card for card in value):
        raise BotError(f"{what} must be a tuple of Card, not {value!r}")
    if distinct and len(set(value)) != len(value):
        raise BotError(f"{what} names a card twice")
    return value


# Which optional field each action needs (None: none of them).
_NEEDS: dict[ActionKind, str | None] = {
    ActionKind.ANNOUNCE: "announcement",
    ActionKind.OFFER: "k",
    ActionKind.BET: "amount",
    ActionKind.RAISE: "amount",
    ActionKind.CHOOSE_TRADE_CARDS: "positions",
    ActionKind.LAY_OUT: "positions",
    ActionKind.ACCEPT: None,
    ActionKind.DECLINE: None,
    ActionKind.WITHDRAW: None,
    ActionKind.PASS: None,
    ActionKind.CLOSE_TRADING: None,
    ActionKind.CHECK: None,
    ActionKind.CALL: None,
    ActionKind.FOLD: None,
    ActionKind.ALL_IN: None,
}


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
    d = decision
    match d.kind:
        case ActionKind.ANNOUNCE:
            assert d.announcement is not None
            return hand.can_announce(seat, d.announcement)
        case ActionKind.OFFER:
            assert d.k is not None
            return hand.can_offer(seat, d.k)
        case ActionKind.ACCEPT:
            return hand.can_accept(seat)
        case ActionKind.DECLINE:
            return hand.can_decline(seat)
        case ActionKind.WITHDRAW:
            return hand.can_withdraw(seat)
        case ActionKind.PASS:
            return hand.can_pass_turn(seat)
        case ActionKind.CHOOSE_TRADE_CARDS:
            assert d.positions is not None
            return hand.can_choose_trade_cards(seat, d.positions)
        case ActionKind.CLOSE_TRADING:
            return hand.can_close_trading(seat)
        case ActionKind.LAY_OUT:
            assert d.positions is not None
            size = hand.hand_size(seat) if hand.can_lay_out(seat) else 0
            return all(0 <= p < size for p in d.positions)
        case ActionKind.CHECK:
            return hand.can_check(seat)
        case ActionKind.BET:
            assert d.amount is not None
            return hand.can_bet(seat, d.amount)
        case ActionKind.CALL:
            return hand.can_call(seat)
        case ActionKind.RAISE:
            assert d.amount is not None
            return hand.can_raise_to(seat, d.amount)
        case ActionKind.FOLD:
            return hand.can_fold(seat)
        case ActionKind.ALL_IN:
            return hand.can_all_in(seat)
    return False  # pragma: no cover - Decision admits only the kinds above


def apply_decision(hand: Hand, seat: int, decision: Decision) -> Event:
    """Take `decision` for `seat` on the engine; returns the engine's event.

    Raises the engine's IllegalAction if the action is not legal now. For LAY_OUT the engine
    only records that the seat laid out; the positions are for the protocol (SPEC 5).
    """
    d = decision
    match d.kind:
        case ActionKind.ANNOUNCE:
            assert d.announcement is not None
            return hand.announce(seat, d.announcement)
        case ActionKind.OFFER:
            assert d.k is not None
            return hand.offer(seat, d.k)
        case ActionKind.ACCEPT:
            return hand.accept(seat)
        case ActionKind.DECLINE:
            return hand.decline(seat)
        case ActionKind.WITHDRAW:
            return hand.withdraw(seat)
        case ActionKind.PASS:
            return hand.pass_turn(seat)
        case ActionKind.CHOOSE_TRADE_CARDS:
            assert d.positions is not None
            return hand.choose_trade_cards(seat, d.positions)
        case ActionKind.CLOSE_TRADING:
            return hand.close_trading(seat)
        case ActionKind.LAY_OUT:
            return hand.lay_out(seat)
        case ActionKind.CHECK:
            return hand.check(seat)
        case ActionKind.BET:
            assert d.amount is not None
            return hand.bet(seat, d.amount)
        case ActionKind.CALL:
            return hand.call(seat)
        case ActionKind.RAISE:
            assert d.amount is not None
            return hand.raise_to(seat, d.amount)
        case ActionKind.FOLD:
            return hand.fold(seat)
        case ActionKind.ALL_IN:
            return hand.all_in(seat)
    raise BotError(f"cannot apply {d.kind!r}")  # pragma: no cover
