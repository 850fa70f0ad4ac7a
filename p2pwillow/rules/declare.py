"""The declaration of a split-pot game and the settlement after it (SPEC 3.16): the sealed
declaration (`Declare`), each pot's high and low halves to the best eligible hands among those
who declared each side, the pig rule, halves nobody can win, and the pot that carries over when
nobody wins it (`SettleSplit`). Pure; no I/O.

Theory of operation. Every player still in declares low, high or both ("pig") before the last
bet (the declaration is a sealed choice, opened together). A pot is contested by its eligible
seats (3.8). A pig player must win or tie *both* sides with *one* five-card set of its cards
(the house's same-five rule): `sets` gives, for each seat, the (high, low) value of every
five-card set its formation allows (low None where the five do not qualify). A pig that cannot
do it wins nothing of the pot and is out of it; the sides are then decided among the others.
Each side goes to the best value among its declarers, ties share; a side nobody is left to win
goes whole to the other side; a pot nobody wins carries over to the next hand.

The declaration itself is two steps for each player still in: it seals its choice (a `declare`
entry holds only a commitment, SPEC 6.13), and once every player still in has sealed, its
session opens it (`declare_open`). The rules never see a choice before every choice is sealed,
so nobody's declaration can follow anybody else's. A player whose clock runs out before it
seals folds; one that never opens is folded for stalling: either way it forfeits what it put
in, and the declaration can never be voided by a player who dislikes how it is going.
"""

# ruff: noqa: E501 - the action table's rows below are one per line, wider than the code around it

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from p2pwillow import evaluators
from p2pwillow.cards import Card
from p2pwillow.rules import timeouts
from p2pwillow.rules.actions import CLOCKED, Action, ActionKind, By, Needs
from p2pwillow.rules.config import TableConfig
from p2pwillow.rules.errors import IllegalAction
from p2pwillow.rules.events import (
    CardsShown,
    Declared,
    Event,
    Folded,
    PotSplit,
    Sealed,
    TimedOut,
)
from p2pwillow.rules.live import (
    BETTING,
    DRAWING,
    STALLS,
    Formation,
    fives,
    fold_for_stalling,
    hand_value,
    in_hand,
    stall_row,
    verify_show,
)
from p2pwillow.rules.phases import Phase
from p2pwillow.rules.pot_match import POT_MATCH_ROW, put_to_match
from p2pwillow.rules.pots import Pot, PotAward, split_pot
from p2pwillow.rules.script import CardOp, Default, OpDue, Step, advance
from p2pwillow.rules.showdown import finish, hand_pots, stalled_to_one
from p2pwillow.rules.state import HandState, player

FiveSet = tuple[int, int | None]
"""One five-card set of a player's cards: its high value and its low value (None: no low)."""


class Declaration(enum.StrEnum):
    """What a player declares for (SPEC 3.16)."""

    HIGH = "high"
    LOW = "low"
    PIG = "pig"
    """Both sides: it must win or tie both with one five-card set."""

    @property
    def high(self) -> bool:
        return self is not Declaration.LOW

    @property
    def low(self) -> bool:
        return self is not Declaration.HIGH


@dataclass(frozen=True, slots=True)
class SplitAward:
    """How one pot was split: who won each side (none: that side went to the other, or the
    pot carried over), each winner's chips, and what carried over."""

    pot: Pot
    high: tuple[int, ...]
    low: tuple[int, ...]
    shares: tuple[tuple[int, int], ...]
    """(seat, chips), each winning seat once, in the pot's order of seats."""
    carried: int
    pigs_failed: tuple[int, ...] = ()
    """Pig players who could not win or tie both sides with one set: out of this pot."""


def _best_high(sets: Sequence[FiveSet]) -> int:
    return max(high for high, _ in sets)


def _best_low(sets: Sequence[FiveSet]) -> int | None:
    lows = [low for _, low in sets if low is not None]
    return max(lows) if lows else None


def _pig_holds(
    seat: int,
    contenders: Sequence[int],
    declared: Mapping[int, Declaration],
    sets: Mapping[int, Sequence[FiveSet]],
) -> bool:
    """Whether `seat`, declared pig, has one set that wins or ties both sides against every
    other contender for each side (their best, pig or not)."""
    highs = [_best_high(sets[x]) for x in contenders if x != seat and declared[x].high]
    lows = [_best_low(sets[x]) for x in contenders if x != seat and declared[x].low]
    top_high = max(highs, default=None)
    top_low = max((low for low in lows if low is not None), default=None)
    for high, low in sets[seat]:
        if low is None:
            continue
        if (top_high is None or high >= top_high) and (top_low is None or low >= top_low):
            return True
    return False


def split(
    pot: Pot, declared: Mapping[int, Declaration], sets: Mapping[int, Sequence[FiveSet]]
) -> SplitAward:
    """Split one pot among its eligible seats by their declarations (SPEC 3.16): the high half
    is the larger when the pot is odd; each half's odd chips go clockwise (3.8)."""
    for seat in pot.eligible:
        if seat not in declared or not sets.get(seat):
            raise IllegalAction(f"seat {seat} is in the pot but has no declaration or cards")
    if len(pot.eligible) == 1:
        # a pot only one player can win (what it put in above everyone else, or a pot where the
        # others folded) is that player's, whatever it declared: it contends with nobody
        (seat,) = pot.eligible
        d = declared[seat]
        alone = (seat,)
        return SplitAward(
            pot, alone if d.high else (), alone if d.low else (), ((seat, pot.amount),), 0
        )
    contenders = list(pot.eligible)
    failed: list[int] = []
    # A pig that fails is out; that may let another pig hold, so decide them all at once
    # against everyone who contends, then settle among those left.
    for seat in pot.eligible:
        if declared[seat] is Declaration.PIG and not _pig_holds(seat, contenders, declared, sets):
            failed.append(seat)
    left = [x for x in contenders if x not in failed]
    high_side = [x for x in left if declared[x].high]
    low_side = [x for x in left if declared[x].low and _best_low(sets[x]) is not None]
    high_winners = _winners(high_side, lambda x: _best_high(sets[x]))
    low_winners = _winners(low_side, lambda x: _best_low(sets[x]) or 0)
    amount = pot.amount
    if not high_winners and not low_winners:
        return SplitAward(pot, (), (), (), amount, tuple(failed))
    low_half = amount // 2 if high_winners and low_winners else (amount if low_winners else 0)
    high_half = amount - low_half
    chips: dict[int, int] = {}
    for winners, half in ((high_winners, high_half), (low_winners, low_half)):
        if winners and half:
            for seat, share in zip(winners, split_pot(half, winners), strict=True):
                chips[seat] = chips.get(seat, 0) + share
    shares = tuple((x, chips[x]) for x in pot.eligible if x in chips)
    return SplitAward(pot, high_winners, low_winners, shares, 0, tuple(failed))


def _winners(seats: Sequence[int], value: Callable[[int], int]) -> tuple[int, ...]:
    if not seats:
        return ()
    values = {x: value(x) for x in seats}
    best = max(values.values())
    return tuple(x for x in seats if values[x] == best)


def settle_declared(
    pots: Sequence[Pot],
    declared: Mapping[int, Declaration],
    sets: Mapping[int, Sequence[FiveSet]],
) -> tuple[tuple[SplitAward, ...], int]:
    """Every pot split by the declarations, and the chips that carry over to the next hand."""
    awards = tuple(split(pot, declared, sets) for pot in pots)
    return awards, sum(a.carried for a in awards)


# --- the declaration ---------------------------------------------------------------------------


def _sealing(s: HandState) -> tuple[int, ...]:
    """The players still in whose sealed declaration is not in yet."""
    return tuple(x for x in in_hand(s) if x not in s.sealed)


def _opening(s: HandState) -> tuple[int, ...]:
    """Once every player still in has sealed: those whose declaration has not opened."""
    if _sealing(s):
        return ()
    return tuple(x for x in in_hand(s) if x not in s.declared)


def verify_seal(config: TableConfig, s: HandState, seat: int, choice: str | None) -> None:
    """A player still in seals its declaration once, while the declarations are being sealed;
    its choice (known only to its own decision, None to everyone else) is low, high or pig."""
    p = player(s, seat)
    if p.folded:
        raise IllegalAction(f"seat {seat} has folded: it declares nothing")
    if seat in s.sealed:
        raise IllegalAction(f"seat {seat} has declared already")
    if choice is not None and choice not in Declaration.__members__.values():
        raise IllegalAction(f"a declaration is low, high or pig, not {choice!r}")


def do_seal(config: TableConfig, s: HandState, seat: int, _: object = None) -> list[Event]:
    s.sealed.add(seat)
    return [Sealed(seat)]


def verify_open(config: TableConfig, s: HandState, seat: int, choice: str | None) -> None:
    """A sealed declaration opens once every player still in has sealed (SPEC 3.16); the
    session has checked the opening against the commitment."""
    player(s, seat)
    if seat not in _opening(s):
        if _sealing(s):
            waiting = ", ".join(map(str, _sealing(s)))
            raise IllegalAction(f"declarations open once every one is sealed (seat {waiting})")
        raise IllegalAction(f"seat {seat} has no sealed declaration to open")
    if choice is not None and choice not in Declaration.__members__.values():
        raise IllegalAction(f"a declaration is low, high or pig, not {choice!r}")


def _after(config: TableConfig, s: HandState, events: list[Event]) -> list[Event]:
    """The declaration goes on: the hand ends if one player is left, the next step comes once
    every declaration is open."""
    if len(in_hand(s)) == 1:
        return [*events, *stalled_to_one(config, s)]
    if _sealing(s) or _opening(s):
        return events
    return [*events, *advance(config, s)]


def do_open(config: TableConfig, s: HandState, seat: int, choice: str) -> list[Event]:
    s.declared[seat] = choice
    return _after(config, s, [Declared(seat, choice)])


def _fold(config: TableConfig, s: HandState, seat: int) -> list[Event]:
    """SPEC 3.9: a player whose clock runs out before it has sealed folds."""
    s.players[seat].folded = True
    return _after(config, s, [Folded(seat)])


@dataclass(frozen=True, slots=True)
class Declare(Step):
    """Every player still in declares low, high or pig, sealed and then opened together
    (SPEC 3.16, 6.13); a round of betting follows it in every game that has one."""

    KIND: ClassVar[str] = "declare"
    PHASE: ClassVar[Phase] = Phase.DECLARE

    def enter(self, config: TableConfig, s: HandState) -> list[Event]:
        s.sealed, s.declared = set(), {}
        return []

    def to_act(self, s: HandState) -> tuple[int, ...]:
        return _sealing(s)

    def ops(self, s: HandState) -> tuple[OpDue, ...]:
        return tuple(OpDue(CardOp.OPEN, x) for x in _opening(s))

    def default(self, config: TableConfig, s: HandState, seat: int) -> Default:
        verify_seal(config, s, seat, None)
        return lambda n: _fold(config, n, seat)

    def stall(self, config: TableConfig, s: HandState, seat: int) -> list[Event]:
        """A player that never opens is folded: its bets stay in the pot (SPEC 3.16)."""
        return fold_for_stalling(config, s, seat, lambda n: bool(_sealing(n) or _opening(n)))


# --- the show after the declaration (SPEC 3.18) --------------------------------------------------


def after_declaring(s: HandState) -> bool:
    """The hand is in the bet that follows the declaration: every declaration is open."""
    game = s.game
    return (
        game is not None
        and s.phase is Phase.BETTING
        and s.step > 0
        and isinstance(game.script[s.step - 1], Declare)
    )


def verify_early_show(
    config: TableConfig, s: HandState, seat: int, cards: tuple[Card, ...] | None
) -> None:
    """A player still in may show the cards it holds face down from the moment every
    declaration is open until the bet after it ends, once (SPEC 3.18)."""
    player(s, seat)
    if not after_declaring(s):
        raise IllegalAction("cards show before the showdown only in the bet after the declaration")
    verify_show(config, s, seat, cards)


def do_early_show(
    config: TableConfig, s: HandState, seat: int, cards: tuple[Card, ...]
) -> list[Event]:
    """The cards show as at the showdown, and the player must match the pot or fold at once."""
    s.players[seat].shown += cards
    s.hole[seat] = cards
    return [CardsShown(seat, cards), *put_to_match(config, s, seat)]


# --- the settlement ----------------------------------------------------------------------------


class Side(enum.StrEnum):
    """What a side of a split pot is won with (SPEC 3.16, 2.7): the declaration's `high` is
    the game's first side, `low` its second, `pig` both."""

    HIGH = "high"
    """The best five-card high hand (2.4; in a high-low game the wheel ranks on top)."""
    EIGHT = "eight-or-better"
    """The best ace-to-five low of five cards whose highest card is 8 at most (2.7)."""
    LOWBALL = "ace-to-five"
    """The best ace-to-five low of five cards, whatever its highest card (2.7)."""
    SPADE = "spade-in-the-hole"
    """The highest spade among the cards the player held face down (Chicago, 2.7)."""
    SUM = "lowest-sum"
    """The lowest sum of all the player's cards, tens and faces 0, aces 1 (Go for Broke, 2.7)."""
    TWO_HOLE = "two-hole-cards"
    """The best two-card hand of the cards the player held face down (Hawaii Five-Low, 2.7)."""


FIVE_CARD_LOWS = frozenset({Side.EIGHT, Side.LOWBALL})
"""The second sides that are five-card hands: against the high, the same-five rule binds."""


def five_sets(formation: Formation, own: Sequence[Card], board: Sequence[Card]) -> list[FiveSet]:
    """The five-card sets `formation` allows of a player's cards and the board that can count
    in a split (SPEC 2.7, 3.16): each with its high value (A-2-3-4-5 the highest straight) and
    its eight-or-better low, only those no other set of the player matches or beats both ways
    (a pig holds with some set if it holds with one of these)."""
    if formation is Formation.OMAHA:
        return evaluators.omaha_hi_lo_sets(own, board)
    if formation is Formation.HOLDEM:
        return evaluators.holdem_hi_lo_sets(own, board)
    if formation is Formation.BOTH_OR_NEITHER:
        return [
            (evaluators.best_high(five, wheel_high=True), evaluators.low_eight_or_better(five))
            for five in fives(formation, own, board)
        ]
    return evaluators.hi_lo_sets([*own, *board], eight_or_better=True)


def _value(
    side: Side,
    formation: Formation,
    own: Sequence[Card],
    board: Sequence[Card],
    hole: Sequence[Card],
) -> int | None:
    """A player's value on one side that is no five-card set shared with the other side."""
    if side is Side.HIGH:
        return hand_value(formation, own, board)
    if side is Side.SPADE:
        return evaluators.high_spade(hole) if hole else None
    if side is Side.SUM:
        return evaluators.low_sum([*own, *board])
    if side is Side.TWO_HOLE:
        return evaluators.two_card_high(hole) if len(hole) >= 2 else None
    if side is Side.LOWBALL:
        return evaluators.low_a5([*own, *board])
    return evaluators.low_eight_or_better([*own, *board])


def side_sets(
    formation: Formation,
    second: Side,
    own: Sequence[Card],
    board: Sequence[Card],
    hole: Sequence[Card],
    first: Side = Side.HIGH,
) -> list[FiveSet]:
    """What a player's cards are worth on each side. The same-five rule binds a pig only where
    both sides are five-card hands (high against a low); a spade, two hole cards or a sum are
    no five-card set, so a pig there needs the best of each side. A game whose second side is
    no low is no high-low game: its high ranks the wheel as five high (2.4)."""
    if first is Side.HIGH and second is Side.EIGHT:
        return five_sets(formation, own, board)
    if first is Side.HIGH and second is Side.LOWBALL and formation is Formation.BEST_FIVE:
        return evaluators.hi_lo_sets([*own, *board], eight_or_better=False)
    high = _value(first, formation, own, board, hole)
    assert high is not None, "the first side is one every player has a value on"
    return [(high, _value(second, formation, own, board, hole))]


@dataclass(frozen=True, slots=True)
class SettleSplit(Step):
    """The showdown of a split-pot game: each pot split by the declarations (SPEC 3.16), a pot
    nobody wins carried over to the next hand."""

    KIND: ClassVar[str] = "settle-split"
    PHASE: ClassVar[Phase] = Phase.SHOWDOWN
    formation: Formation = Formation.BEST_FIVE
    second: Side = Side.EIGHT
    first: Side = Side.HIGH

    def enter(self, config: TableConfig, s: HandState) -> list[Event]:
        pots = hand_pots(config, s)
        board = tuple(s.board)
        sets = {
            x: side_sets(
                self.formation,
                self.second,
                s.players[x].shown,
                board,
                s.hole.get(x, ()),
                self.first,
            )
            for x in in_hand(s)
        }
        declared = {x: Declaration(s.declared[x]) for x in in_hand(s)}
        splits, carried = settle_declared(pots, declared, sets)
        events: list[Event] = [
            PotSplit(a.pot.amount, a.pot.eligible, a.high, a.low, a.pigs_failed, a.carried)
            for a in splits
        ]
        awards = tuple(
            PotAward(a.pot, tuple(x for x, _ in a.shares), tuple(c for _, c in a.shares))
            for a in splits
            if a.shares
        )
        return [*events, *finish(s, awards, carried)]


A, N, P, S, D = ActionKind, Needs, By.PLAYER, By.SESSION, By.DEALER
DECLARING = frozenset({Phase.DECLARE})

# fmt: off
DECLARE_ACTIONS: tuple[Action, ...] = (
    #      kind                  by  phases     entry           needs          check           step     event     body  binds  key  label
    Action(A.DECLARE,            P, DECLARING, "declare",      N.CHOICE,      verify_seal,    do_seal, Sealed,   None, False),
    Action(A.OPEN_DECLARATION,   S, DECLARING, "declare_open", N.DECLARATION, verify_open,    do_open, Declared, None, False),
    Action(A.TIMEOUT,            D, CLOCKED | DRAWING | DECLARING, "timeout", N.NOTHING, timeouts.verify_timeout, timeouts.do_timeout, TimedOut, None, False),
    stall_row(STALLS | DECLARING),
    Action(A.EARLY_SHOW,         P, BETTING,   "show",         N.CARDS,       verify_early_show, do_early_show, CardsShown, None, False),
    POT_MATCH_ROW,
)
"""The rows a declaration brings: the seal, its opening, a clock that also runs while it is
sealed (SPEC 3.9), a stall that folds a player who never opens, and the show in the bet after
it with the match of the pot or the fold it brings (3.18)."""
# fmt: on

Declare.ACTIONS = DECLARE_ACTIONS

__all__ = [
    "DECLARE_ACTIONS",
    "Declaration",
    "Declare",
    "FiveSet",
    "SettleSplit",
    "Side",
    "SplitAward",
    "after_declaring",
    "five_sets",
    "settle_declared",
    "side_sets",
    "split",
]
