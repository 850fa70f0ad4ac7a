"""The wash of the house's stud games (SPEC 3.17): each player still in, in turn, may pay to
discard one of its cards (two in Car Wash), face down or face up, and be dealt another the same
way. Pure; no I/O.

Theory of operation. A wash is a draw of a few cards with a price (`Wash`, in the DRAW phase,
so the draw's clock, default and stall hold): the player names its cards by their place among
all its cards, its face-down cards first (as its public hand holds them) and then its face-up
cards in the order dealt. A face-down card goes to the muck face down, with the draw's proof
that it was the player's own (SPEC 5.14); a face-up card is public already and goes to the
muck as it is. The `Redeal` after it deals each washer its cards, face down or face up as the
cards it washed, in table order. The price goes to the main pot as dead money, as the ante
does. A game may bound the cards a player washes over the whole hand (`limit`: Car Wash's "a
total of two times"); a player with none left is not asked. Where the game offers the cloak (Go
for Broke), a player may instead pay its price to wash one face-up card and be dealt the next
face down (`CLOAK`, a row of its own: its entry names the face-up card). Where it offers the
flip (Five by Two), a player may instead turn one of its face-down cards face up and wash one of
its face-up cards, at the price of a face-up card, and be dealt the next face down (`FLIP`: its
entry opens the face-down card with the show's proof, SPEC 5.16, so the rules learn it).
"""

# ruff: noqa: E501 - the action table's rows below are one per line, wider than the code around it

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from p2pwillow import evaluators
from p2pwillow.cards import Card
from p2pwillow.hands import showing_value
from p2pwillow.limits import is_int
from p2pwillow.rules import timeouts
from p2pwillow.rules.actions import CLOCKED, Action, ActionKind, By, Needs
from p2pwillow.rules.config import TableConfig
from p2pwillow.rules.errors import IllegalAction
from p2pwillow.rules.events import Event, TimedOut, WashCalled, Washed, plural
from p2pwillow.rules.live import DRAWING, face_down, fold_for_stalling, in_hand
from p2pwillow.rules.phases import Phase
from p2pwillow.rules.script import Announcement, Default, OptionValue, Step, advance, current
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


def _step(s: HandState) -> Wash:
    step = current(s)
    assert isinstance(step, Wash)
    return step


def _able(s: HandState) -> list[int]:
    """The players still in with a wash left, in the wash's order."""
    step = _step(s)
    return [x for x in s.wash_order if x in in_hand(s) and step.left(s.players[x].washed)]


def _caller(s: HandState) -> int | None:
    """At a wash whose washers are named first, the player to say whether it washes; None
    once all have said (or at a wash without calls)."""
    if not _step(s).called:
        return None
    return next((x for x in _able(s) if x not in s.wash_calls), None)


def _washer(s: HandState) -> int | None:
    if _caller(s) is not None:
        return None  # nobody washes before every player has said whether it does
    called = _step(s).called
    return next(
        (x for x in _able(s) if x not in s.drawn and (not called or s.wash_calls.get(x))),
        None,
    )


def cost(config: TableConfig, s: HandState, down: bool = False) -> int:
    """What washing a face-up card (or a face-down one, `down`) costs here, in chips."""
    return _step(s).chips(config.ante, down, s.announcement)


def wash_cost(hand: Hand, down: bool = False) -> int:
    """What washing a face-up card (or a face-down one, `down`) costs in `hand` now
    (IllegalAction when the hand is at no wash)."""
    step = hand.step
    if not isinstance(step, Wash):
        raise IllegalAction(f"no wash in the {hand.phase.value} phase")
    return step.chips(hand.config.ante, down, hand.state.announcement)


def cloak_cost(hand: Hand) -> int | None:
    """What cloaking a face-up card costs in `hand` now, in chips; None where the wash offers
    no cloak (IllegalAction when the hand is at no wash)."""
    step = hand.step
    if not isinstance(step, Wash):
        raise IllegalAction(f"no wash in the {hand.phase.value} phase")
    return step.cloak_chips(hand.config.ante)


def flip_cost(hand: Hand) -> int | None:
    """What a flip costs in `hand` now, in chips (the price of washing a face-up card); None
    where the wash offers no flip (IllegalAction when the hand is at no wash)."""
    step = hand.step
    if not isinstance(step, Wash):
        raise IllegalAction(f"no wash in the {hand.phase.value} phase")
    return wash_cost(hand) if step.flip else None


def wash_most(hand: Hand, seat: int) -> int:
    """The most cards `seat` may wash at the wash `hand` is at now (0 at no wash, or when its
    washes are used up)."""
    step = hand.step
    if not isinstance(step, Wash):
        return 0
    return step.left(hand.state.players[seat].washed)


def _go_on(config: TableConfig, s: HandState, events: list[Event]) -> list[Event]:
    """After a player's call or wash: the wash waits for the next player to say or to wash,
    or, with none left, goes on to its redeal."""
    if _caller(s) is not None or _washer(s) is not None:
        return events
    return [*events, *advance(config, s)]


def _check_washer(s: HandState, seat: int) -> None:
    caller = _caller(s)
    if caller is not None:
        raise IllegalAction(f"seat {caller} says now whether it washes: nobody washes yet")
    if seat != _washer(s):
        raise IllegalAction(f"seat {_washer(s)} washes now, not seat {seat}")


def verify_wash(
    config: TableConfig, s: HandState, seat: int, positions: Sequence[int] | None
) -> None:
    """The player to wash names different cards of its own (its face-down cards first, then
    its face-up ones), no more than the wash and its washes left allow, and can pay the price
    (SPEC 3.17)."""
    p = player(s, seat)
    _check_washer(s, seat)
    if positions is None:
        return
    named = tuple(positions)
    step = _step(s)
    most = step.left(p.washed)
    if len(named) > most:
        if step.most == 1:
            raise IllegalAction(f"a wash is one card, not {len(named)}")
        raise IllegalAction(f"seat {seat} may wash {plural(most, 'card')} here, not {len(named)}")
    held = p.hand_size
    if not all(is_int(x) and 0 <= x < held for x in named):
        raise IllegalAction(f"seat {seat} holds cards 0..{held - 1}")
    if len(set(named)) != len(named):
        raise IllegalAction("a wash names each card once")
    if not named and step.called:
        raise IllegalAction(f"seat {seat} said it washes: it names a card (or cloaks one)")
    down = face_down(s, seat)
    price = sum(cost(config, s, x < down) for x in named)
    if price > p.stack:
        raise IllegalAction(f"a wash costs {price} chips; seat {seat} has {p.stack}")


def verify_call(config: TableConfig, s: HandState, seat: int, _: object = None) -> None:
    """At a wash whose washers are named first, the player to say so says whether it washes."""
    player(s, seat)
    if not _step(s).called:
        raise IllegalAction("at this wash nobody says first whether it washes")
    caller = _caller(s)
    if seat != caller:
        if caller is None:
            raise IllegalAction("every player has said whether it washes")
        raise IllegalAction(f"seat {caller} says now whether it washes, not seat {seat}")


def verify_wash_call(config: TableConfig, s: HandState, seat: int, _: object = None) -> None:
    """As `verify_call`, by a player whose stack can pay to wash some card of its own."""
    verify_call(config, s, seat)
    p = s.players[seat]
    down = face_down(s, seat)
    cheapest = min(cost(config, s, x < down) for x in range(p.hand_size))
    if cheapest > p.stack:
        raise IllegalAction(f"a wash costs {cheapest} chips; seat {seat} has {p.stack}")


def _call(config: TableConfig, s: HandState, seat: int, washes: bool) -> list[Event]:
    s.wash_calls[seat] = washes
    return _go_on(config, s, [WashCalled(seat, washes)])


def do_wash_call(config: TableConfig, s: HandState, seat: int, _: object = None) -> list[Event]:
    return _call(config, s, seat, True)


def do_keep_call(config: TableConfig, s: HandState, seat: int, _: object = None) -> list[Event]:
    return _call(config, s, seat, False)


def do_wash(config: TableConfig, s: HandState, seat: int, positions: Sequence[int]) -> list[Event]:
    """Each named card goes to the muck and its price to the pot: one `Washed` a card (one
    that keeps its cards when none)."""
    p = s.players[seat]
    down = face_down(s, seat)
    events: list[Event] = []
    # face-up cards leave `shown` from the last, so the places of the others stay put
    for x in sorted(positions, reverse=True):
        paid = cost(config, s, x < down)
        p.stack -= paid
        p.paid += paid
        card = None
        if x >= down:
            card = p.shown.pop(x - down)
            s.washed_up[seat] = s.washed_up.get(seat, 0) + 1
        p.hand_size -= 1
        events.append(Washed(seat, 1, card, paid))
    events.reverse()  # told in the order the player holds them
    p.washed += len(positions)
    s.drawn[seat] = len(positions)
    if not positions:
        events.append(Washed(seat, 0, None, 0))
    return _go_on(config, s, events)


def verify_cloak(
    config: TableConfig, s: HandState, seat: int, positions: Sequence[int] | None
) -> None:
    """The player to wash cloaks one of its face-up cards, named as the wash names its cards
    (its face-down cards first), where the wash offers the cloak and it can pay (SPEC 3.17)."""
    p = player(s, seat)
    _check_washer(s, seat)
    step = _step(s)
    if step.cloak is None:
        raise IllegalAction("this wash offers no cloak")
    if positions is None:
        return
    named = tuple(positions)
    down = face_down(s, seat)
    if len(named) != 1 or not is_int(named[0]) or not down <= named[0] < p.hand_size:
        raise IllegalAction(
            f"a cloak is one card showing: seat {seat}'s are {down}..{p.hand_size - 1}"
        )
    price = step.cloak_chips(config.ante)
    if price is not None and price > p.stack:
        raise IllegalAction(f"a cloak costs {price} chips; seat {seat} has {p.stack}")


def do_cloak(config: TableConfig, s: HandState, seat: int, positions: Sequence[int]) -> list[Event]:
    """The face-up card goes to the muck as it is and its price to the pot; the redeal deals
    its replacement face down (the seat is not among `washed_up`)."""
    p = s.players[seat]
    paid = _step(s).cloak_chips(config.ante)
    assert paid is not None
    p.stack -= paid
    p.paid += paid
    card = p.shown.pop(positions[0] - face_down(s, seat))
    p.hand_size -= 1
    p.washed += 1
    s.drawn[seat] = 1
    return _go_on(config, s, [Washed(seat, 1, card, paid, cloaked=True)])


@dataclass(frozen=True, slots=True)
class Flip:
    """A flip as the session takes it (SPEC 3.17): the two cards by their places among all the
    player's cards (its face-down cards first), and the face-down card as its show opened it.
    A player's decision names the places alone (`(down, up)`): nobody else knows the card
    before the entry opens it."""

    down: int
    """The face-down card turned face up."""
    up: int
    """The face-up card washed."""
    card: Card
    """The card at `down`, opened by the entry's show (SPEC 5.16)."""


def verify_flip(
    config: TableConfig, s: HandState, seat: int, flip: Sequence[int] | Flip | None
) -> None:
    """The player to wash flips: it names one of its face-down cards, turned face up, and one
    of its face-up cards, washed, where the wash offers the flip and it can pay the price of a
    face-up card (SPEC 3.17). A `Flip` also carries the card its show opened, which must be a
    card nobody has seen in the hand."""
    p = player(s, seat)
    _check_washer(s, seat)
    if not _step(s).flip:
        raise IllegalAction("this wash offers no flip")
    down = face_down(s, seat)
    if not down or down == p.hand_size:
        raise IllegalAction(
            f"a flip turns a face-down card up and washes a face-up one: seat {seat} holds "
            f"{down} face down and {p.hand_size - down} face up"
        )
    price = cost(config, s)
    if price > p.stack:
        raise IllegalAction(f"a flip costs {price} chips; seat {seat} has {p.stack}")
    if flip is None:
        return
    named = (flip.down, flip.up) if isinstance(flip, Flip) else tuple(flip)
    if len(named) != 2:
        raise IllegalAction(
            f"a flip names two cards, one face down and one face up, not {len(named)}"
        )
    held = p.hand_size
    if not all(is_int(x) and 0 <= x < held for x in named):
        raise IllegalAction(f"seat {seat} holds cards 0..{held - 1}")
    if not named[0] < down <= named[1]:
        raise IllegalAction(
            f"a flip names a face-down card (seat {seat}'s are 0..{down - 1}), then a face-up "
            f"one ({down}..{held - 1})"
        )
    if isinstance(flip, Flip):
        seen = set(s.board).union(*(x.shown for x in s.players.values()))
        if not isinstance(flip.card, Card) or flip.card in seen:
            raise IllegalAction(f"seat {seat}'s flip: {flip.card} is no card it holds face down")


def do_flip(config: TableConfig, s: HandState, seat: int, flip: Flip) -> list[Event]:
    """The face-down card joins the player's face-up cards (after them), the face-up card goes
    to the muck as it is and the price to the pot; the redeal deals its replacement face down
    (the seat is not among `washed_up`). Only a `Flip` is taken: the rules must learn the
    card."""
    if not isinstance(flip, Flip):
        raise IllegalAction("a flip is taken with the face-down card its show opened")
    p = s.players[seat]
    paid = cost(config, s)
    p.stack -= paid
    p.paid += paid
    card = p.shown.pop(flip.up - face_down(s, seat))
    p.shown.append(flip.card)
    p.hand_size -= 1
    p.washed += 1
    s.drawn[seat] = 1
    return _go_on(config, s, [Washed(seat, 1, card, paid, flipped=flip.card)])


@dataclass(frozen=True, slots=True)
class Wash(Step):
    """Each player still in, in the `order` fixed as the wash begins, may wash up to `most`
    cards for `price` antes each, or `price_down` for a face-down card where that differs
    (SPEC 3.17); a `Redeal` deals the replacements. `price` may name the game's option that
    says it (Car Wash's "optional rule: washing costs money"). With a `limit`, a player washes
    no more than that many cards over the whole hand."""

    KIND: ClassVar[str] = "wash"
    PHASE: ClassVar[Phase] = Phase.DRAW
    price: int | str = 4
    price_down: int | None = None
    order: WashOrder = WashOrder.TABLE
    most: int = 1
    """The cards one player may wash at this wash."""
    limit: int = 0
    """The cards one player may wash over the whole hand, every wash counted (0: no bound but
    `most`)."""
    cloak: int | None = None
    """Antes to cloak a face-up card: wash it and be dealt the next face down (None: not
    offered)."""
    called: bool = False
    """Every player says in the wash's order whether it washes before anyone washes (Five by
    Two); then those who said so wash, in the same order, and each must."""
    flip: bool = False
    """A player may instead flip: turn a face-down card up and wash a face-up one, at the price
    of a face-up card, its replacement dealt face down (Five by Two)."""

    def __post_init__(self) -> None:
        for price in (self.price, self.price_down, self.cloak):
            if isinstance(price, str):
                continue  # an option's name: the game declares it (SPEC 3.13)
            if price is not None and (not is_int(price) or price < 0):
                raise IllegalAction(f"a wash's price is a number of antes, not {price!r}")
        for count in (self.most, self.limit):
            if not is_int(count) or count < 0:
                raise IllegalAction(f"a wash's count of cards is a whole number, not {count!r}")
        if self.most < 1:
            raise IllegalAction("a wash lets a player wash one card at least")
        if not isinstance(self.flip, bool):
            raise IllegalAction(f"a wash's flip is true or false, not {self.flip!r}")

    def reads(self) -> tuple[str, ...]:
        return (self.price,) if isinstance(self.price, str) else ()

    def words(self, chosen: Mapping[str, OptionValue]) -> str:
        if not isinstance(self.price, str):
            return ""
        antes = chosen[self.price]
        assert is_int(antes), antes  # the option is a whole number (its game declares it)
        return "washes are free" if not antes else f"a wash costs {plural(antes, 'ante')} a card"

    def chips(self, ante: int, down: bool, announced: Announcement | None = None) -> int:
        """The chips one card costs to wash (face down: `down`), the announcement saying the
        price where the game leaves it to an option."""
        antes = self.price if not down or self.price_down is None else self.price_down
        if isinstance(antes, str):
            antes = 0 if announced is None else announced.number(antes)
        return antes * ante

    def cloak_chips(self, ante: int) -> int | None:
        """The chips a cloak costs; None where the wash offers none."""
        return None if self.cloak is None else self.cloak * ante

    def left(self, washed: int) -> int:
        """The cards a player that washed `washed` this hand may wash here."""
        return self.most if not self.limit else max(0, min(self.most, self.limit - washed))

    def enter(self, config: TableConfig, s: HandState) -> list[Event]:
        s.drawn, s.washed_up, s.wash_calls = {}, {}, {}
        s.wash_order = _order(self.order, s)
        return _go_on(config, s, [])  # nobody may have a wash left

    def to_act(self, s: HandState) -> tuple[int, ...]:
        seat = _caller(s)
        if seat is None:
            seat = _washer(s)
        return () if seat is None else (seat,)

    def default(self, config: TableConfig, s: HandState, seat: int) -> Default:
        # SPEC 3.9: a player whose clock runs out at the wash keeps its cards and pays nothing:
        # one to say whether it washes says it does not; one that said it washes keeps its
        # cards all the same (nobody pays by the clock)
        if _caller(s) is not None:
            verify_call(config, s, seat)
            return lambda n: do_keep_call(config, n, seat)
        _check_washer(s, seat)
        return lambda n: do_wash(config, n, seat, ())

    def stall(self, config: TableConfig, s: HandState, seat: int) -> list[Event]:
        return fold_for_stalling(config, s, seat, lambda n: bool(self.to_act(n)))


A, N, P, D = ActionKind, Needs, By.PLAYER, By.DEALER

# fmt: off
WASH_ACTIONS: tuple[Action, ...] = (
    Action(A.DRAW,    P, DRAWING, "wash",    N.POSITIONS, verify_wash, do_wash, Washed, None, False, "d", "wash"),
    Action(A.CLOAK,   P, DRAWING, "cloak",   N.POSITIONS, verify_cloak, do_cloak, Washed, None, False),
    Action(A.WASH_CALL, P, DRAWING, "wash_call", N.NOTHING, verify_wash_call, do_wash_call, WashCalled, (), True, "w", "say you wash"),
    Action(A.KEEP_CALL, P, DRAWING, "keep_call", N.NOTHING, verify_call, do_keep_call, WashCalled, (), True, "n", "say you keep your cards"),
    Action(A.FLIP,    P, DRAWING, "flip",    N.POSITIONS, verify_flip, do_flip, Washed, None, False),
    Action(A.TIMEOUT, D, CLOCKED | DRAWING, "timeout", N.NOTHING, timeouts.verify_timeout, timeouts.do_timeout, TimedOut, None, False),
)
"""The rows a wash brings: the wash, a player's draw of a few cards at a price; the cloak of a
face-up card and the flip of a face-down one (the wash panel offers both); the calls of a wash
whose washers are named first; and a clock that also runs in it (SPEC 3.9)."""
# fmt: on

Wash.ACTIONS = WASH_ACTIONS

__all__ = [
    "WASH_ACTIONS",
    "Flip",
    "Wash",
    "WashOrder",
    "cloak_cost",
    "cost",
    "do_cloak",
    "do_flip",
    "do_keep_call",
    "do_wash",
    "do_wash_call",
    "flip_cost",
    "verify_call",
    "verify_cloak",
    "verify_flip",
    "verify_wash",
    "verify_wash_call",
    "wash_cost",
    "wash_most",
]
