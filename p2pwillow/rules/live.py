"""The steps of a game dealt from the live deck (SPEC 3.15): deals during the hand (face down,
face up, to the board, burned), the show of the cards a player still in holds face down, the
showdown by the game's formation, and the forfeit settlement when a silent player leaves the
deck unable to deal. Pure; no I/O.

Theory of operation. A deal step names, before any share of it exists, where each card it takes
from the deck goes (`Deal.destinations`): burns first, then round by round one card to each
player still in (its down cards, then its up cards), then the board. The session turns that
list into the live deck's deal step (SPEC 5.12), collects every key holder's shares and feeds
back what they opened, the up and board cards (`street`): the rules never see a card dealt
face down until its owner shows it at the showdown (`show`).

Every player still in holds a key of the deck, and a player who folds by itself releases it
(SPEC 5.13): the fold row of these games marks the seat `released`. A player folded by a clock
or for stalling has not released: when the hand then reaches a deal step, no card can be dealt,
and the hand ends at once with the forfeit settlement (`forfeit`), so that stalling never buys
a player (or a friend of its) a free look or a void hand.
"""

# ruff: noqa: E501 - the action table's rows below are one per line, wider than the code around it

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import ClassVar

from p2pwillow import evaluators
from p2pwillow.cards import Card
from p2pwillow.limits import DECK_SIZE, is_int
from p2pwillow.rules import betting_round, showdown, timeouts
from p2pwillow.rules.actions import AFTER_DEAL, BEFORE_DEAL, CLOCKED, Action, ActionKind, By, Needs
from p2pwillow.rules.config import TableConfig
from p2pwillow.rules.errors import IllegalAction
from p2pwillow.rules.events import (
    CardsShown,
    Drew,
    Event,
    Folded,
    FoldedForStalling,
    HandAborted,
    HandForfeited,
    StreetDealt,
    TimedOut,
)
from p2pwillow.rules.phases import Phase
from p2pwillow.rules.pots import HandResult, Pot, PotAward, award_pots, split_pot
from p2pwillow.rules.script import (
    CardOp,
    Default,
    GameSpec,
    OpDue,
    OptionValue,
    Step,
    advance,
    current,
)
from p2pwillow.rules.showdown import finish, hand_pots, stalled_to_one
from p2pwillow.rules.state import HandState, player

DOWN, UP, BOARD, BURN = "down", "up", "board", "burn"
Destination = tuple[str, int | None]
"""Where a dealt card goes: (DOWN or UP, seat), or (BOARD or BURN, None)."""


@dataclass(frozen=True, slots=True)
class Opened:
    """What a deal step opened: the up cards by seat (table order) and the board cards."""

    up: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    board: tuple[Card, ...] = ()


def deals_live(game: GameSpec | None) -> bool:
    """The game takes its cards from the live deck (SPEC 5.12) rather than one deal."""
    return game is not None and any(isinstance(step, Deal) for step in game.script)


def in_hand(s: HandState) -> tuple[int, ...]:
    """The players still in, in table order: the deck's key holders."""
    return tuple(x for x in s.order if not s.players[x].folded)


def silent(s: HandState) -> tuple[int, ...]:
    """Players folded without releasing their key: the deck cannot deal without them."""
    return tuple(x for x in s.order if s.players[x].folded and x not in s.released)


def _seen(s: HandState) -> set[Card]:
    return set(s.board).union(*(p.shown for p in s.players.values()))


def _cards(value: object, count: int, s: HandState, what: str) -> tuple[Card, ...]:
    if not isinstance(value, tuple) or len(value) != count:
        raise IllegalAction(f"{what}: expected {count} cards")
    if not all(isinstance(c, Card) for c in value) or len(set(value)) != count:
        raise IllegalAction(f"{what}: {count} distinct cards")
    again = set(value) & _seen(s)
    if again:
        raise IllegalAction(f"{what}: {min(again)} is already showing")
    return value


# --- a deal step -------------------------------------------------------------------------------


def verify_street(config: TableConfig, s: HandState, seat: int, opened: Opened | None) -> None:
    """What the live deck opened fits the step: each seat's up cards and the board's, cards
    nobody has seen yet (the protocol checked every share behind them)."""
    if opened is None:
        return
    if not isinstance(opened, Opened):
        raise IllegalAction(f"not what a deal opened: {opened!r}")
    step = current(s)
    assert isinstance(step, Deal)
    dests = step.destinations(s)
    if not dests:
        # a pass street between its cards: a player keeps or passes (SPEC 3.19)
        raise IllegalAction("no card is dealt now: the street waits for a player's choice")
    ups = [seat for to, seat in dests if to == UP and seat is not None]
    want = {x: ups.count(x) for x in ups}
    got = dict(opened.up)
    if len(got) != len(opened.up) or set(got) != set(want):
        raise IllegalAction(f"up cards for seats {sorted(got)}, not {sorted(want)}")
    cards: list[Card] = []
    for x, count in want.items():
        cards += _cards(got[x], count, s, f"seat {x}'s up cards")
    cards += _cards(opened.board, sum(to == BOARD for to, _ in dests), s, "the board")
    if len(set(cards)) != len(cards):
        raise IllegalAction("a card opened twice in one deal")


def do_street(config: TableConfig, s: HandState, seat: int, opened: Opened) -> list[Event]:
    step = current(s)
    assert isinstance(step, Deal)
    dests = step.destinations(s)
    for x in in_hand(s):
        s.players[x].hand_size += sum(who == x for _, who in dests)
    ups = dict(opened.up)
    for x in s.order:
        s.players[x].shown += ups.get(x, ())
    s.board += opened.board
    s.used += len(dests)
    # a redeal gives each as many as it drew: the draws said how many (Drew)
    down = 0 if isinstance(step, Redeal) else sum(to == DOWN for to, _ in dests) // len(in_hand(s))
    event = StreetDealt(down, tuple((x, ups[x]) for x in s.order if x in ups), opened.board)
    return step.dealt(config, s, event)


@dataclass(frozen=True, slots=True)
class Deal(Step):
    """A deal from the live deck (SPEC 3.15, 5.12): `burn` cards burned, then `down` cards face
    down and `up` cards face up to each player still in, one at a time round the table, then
    `board` cards to the board. With `overflow`, when the deck cannot give every player its
    cards, one card goes to the board face up instead (the house's seven-card stud rule).

    The hand's first deal has the DEAL phase (before it is complete the hand may still be
    void, SPEC 3.10); a later one is a `Street`."""

    KIND: ClassVar[str] = "deal"
    PHASE: ClassVar[Phase] = Phase.DEAL
    ACTIONS: ClassVar[tuple[Action, ...]] = ()  # set below, once the rows' functions exist
    down: int = 0
    up: int = 0
    board: int = 0
    burn: int = 0
    overflow: bool = False

    def __post_init__(self) -> None:
        counts = (self.down, self.up, self.board, self.burn)
        if not all(is_int(c) and c >= 0 for c in counts) or not any(counts[:3]):
            raise IllegalAction(f"a deal gives at least one card, not {counts!r}")

    def cards_each(self, chosen: Mapping[str, OptionValue]) -> int:
        # An overflow street may go to the board instead: it never decides whether players fit
        return 0 if self.overflow else self.down + self.up

    def destinations(self, s: HandState) -> tuple[Destination, ...]:
        """Where each card of the step goes, in deck order (fixed before any share)."""
        players = in_hand(s)
        each = self.down + self.up
        needed = self.burn + each * len(players) + self.board
        if self.overflow and needed > DECK_SIZE - s.used:
            return (*((BURN, None),) * self.burn, (BOARD, None))
        out: list[Destination] = [(BURN, None)] * self.burn
        for k in range(each):
            out += [(DOWN if k < self.down else UP, x) for x in players]
        out += [(BOARD, None)] * self.board
        if len(out) > DECK_SIZE - s.used:
            raise IllegalAction(
                f"the deck has {DECK_SIZE - s.used} cards, the deal needs {len(out)}"
            )
        return tuple(out)

    def ahead(self, s: HandState, entered: bool) -> tuple[Destination, ...]:
        """Where the cards the step still deals go if no player folds and, in a pass street,
        every seat keeps its card (`entered`: the hand is at this step; else it is to come).
        A bot's outlook reads it (its destinations but for a step that deals one at a time)."""
        return self.destinations(s)

    def enter(self, config: TableConfig, s: HandState) -> list[Event]:
        if silent(s):
            return forfeit(config, s)
        return []

    def dealt(self, config: TableConfig, s: HandState, event: StreetDealt) -> list[Event]:
        """The step's cards are dealt (`event`, already counted in `s`): the hand moves on; a
        step that deals its cards one at a time (a pass street, SPEC 3.19) may wait first."""
        return [event, *advance(config, s)]

    def ops(self, s: HandState) -> tuple[OpDue, ...]:
        # Every key holder owes its shares of the step (SPEC 5.12); the session knows who sent
        return tuple(OpDue(CardOp.STREET, x) for x in in_hand(s))

    def stall(self, config: TableConfig, s: HandState, seat: int) -> list[Event]:
        """A key holder that does not give its shares: the deck cannot deal (SPEC 3.15)."""
        s.players[seat].folded = True
        event = FoldedForStalling(seat, s.phase, 0, None, None)
        if len(in_hand(s)) == 1:
            return [event, *stalled_to_one(config, s)]
        return [event, *forfeit(config, s)]


@dataclass(frozen=True, slots=True)
class Street(Deal):
    """A deal from the live deck after the first (SPEC 3.15): a card could be seen already, so
    a player who holds it up is folded, never the cause of a void hand."""

    KIND: ClassVar[str] = "street"
    PHASE: ClassVar[Phase] = Phase.STREET


@dataclass(frozen=True, slots=True)
class Redeal(Street):
    """Each player still in is dealt face down as many cards as it discarded in the draw
    before, player by player in table order (SPEC 3.15), face up for a card washed face up
    (3.17); nothing when everyone stood pat."""

    KIND: ClassVar[str] = "redeal"

    def __post_init__(self) -> None:
        pass  # its cards are the draw's, not fields

    def cards_each(self, chosen: Mapping[str, OptionValue]) -> int:
        return 0

    def destinations(self, s: HandState) -> tuple[Destination, ...]:
        # a card washed face up is replaced face up (SPEC 3.17): a seat's face-down cards
        # first, then its face-up ones
        out: list[Destination] = []
        for x in in_hand(s):
            up = s.washed_up.get(x, 0)
            out += [(DOWN, x)] * (s.drawn.get(x, 0) - up) + [(UP, x)] * up
        return tuple(out)

    def enter(self, config: TableConfig, s: HandState) -> list[Event]:
        if not self.destinations(s):
            return advance(config, s)
        return Deal.enter(self, config, s)  # (slotted dataclasses have no zero-argument super)


# --- the draw ----------------------------------------------------------------------------------


def face_down(s: HandState, seat: int) -> int:
    """The cards `seat` holds face down: its public hand's size (SPEC 5.5, 5.14), until its
    show at the showdown turns them (5.16)."""
    p = s.players[seat]
    return p.hand_size - len(p.shown)


def fold_for_stalling(
    config: TableConfig, s: HandState, seat: int, waits: Callable[[HandState], bool]
) -> list[Event]:
    """SPEC 3.9: fold `seat`, which held up a step every player still in takes, out of turn;
    its bets stay in the pot. One player left ends the hand; else the step goes on while it
    `waits` for someone, and the hand moves on once it does not."""
    s.players[seat].folded = True
    event = FoldedForStalling(seat, s.phase, 0, None, None)
    if len(in_hand(s)) == 1:
        return [event, *stalled_to_one(config, s)]
    if waits(s):
        return [event]
    return [event, *advance(config, s)]


def _drawer(s: HandState) -> int | None:
    return next((x for x in in_hand(s) if x not in s.drawn), None)


def verify_draw(
    config: TableConfig, s: HandState, seat: int, positions: Sequence[int] | None
) -> None:
    """The player to draw discards at most the step's `most` cards of those it holds face
    down, named by their positions in its public hand (SPEC 3.15, 5.14)."""
    player(s, seat)
    if seat != _drawer(s):
        raise IllegalAction(f"seat {_drawer(s)} draws now, not seat {seat}")
    if positions is None:
        return
    step = current(s)
    assert isinstance(step, Draw)
    named = tuple(positions)
    if len(named) > step.most:
        raise IllegalAction(f"a draw here is at most {step.most} cards, not {len(named)}")
    down = face_down(s, seat)
    if any(not is_int(p) or not 0 <= p < down for p in named):
        raise IllegalAction(f"seat {seat} holds positions 0..{down - 1} face down")
    if list(named) != sorted(set(named)):
        raise IllegalAction("the discarded positions are named once each, ascending")


def do_draw(config: TableConfig, s: HandState, seat: int, positions: Sequence[int]) -> list[Event]:
    count = len(positions)
    s.drawn[seat] = count
    s.players[seat].hand_size -= count
    event = Drew(seat, count)
    if _drawer(s) is not None:
        return [event]
    return [event, *advance(config, s)]


@dataclass(frozen=True, slots=True)
class Draw(Step):
    """Each player still in, in table order from the dealer's left, discards up to `most` of
    its cards to the muck, face down (SPEC 3.15, 5.14); a `Redeal` deals them as many."""

    KIND: ClassVar[str] = "draw"
    PHASE: ClassVar[Phase] = Phase.DRAW
    most: int = 3

    def enter(self, config: TableConfig, s: HandState) -> list[Event]:
        s.drawn, s.washed_up = {}, {}  # a draw's cards come face down, whatever a wash did
        return []

    def to_act(self, s: HandState) -> tuple[int, ...]:
        drawer = _drawer(s)
        return () if drawer is None else (drawer,)

    def default(self, config: TableConfig, s: HandState, seat: int) -> Default:
        # SPEC 3.9: a player whose clock runs out in the draw stands pat
        verify_draw(config, s, seat, ())
        return lambda n: do_draw(config, n, seat, ())

    def stall(self, config: TableConfig, s: HandState, seat: int) -> list[Event]:
        return fold_for_stalling(config, s, seat, lambda n: _drawer(n) is not None)


# --- the show and the showdown -----------------------------------------------------------------


def verify_show(
    config: TableConfig, s: HandState, seat: int, cards: tuple[Card, ...] | None
) -> None:
    p = player(s, seat)
    if p.folded:
        raise IllegalAction(f"seat {seat} has folded: it shows nothing")
    hidden = face_down(s, seat)
    if not hidden:
        raise IllegalAction(f"seat {seat} has shown its cards")
    if cards is not None:
        _cards(cards, hidden, s, f"seat {seat}'s show")


def do_show(config: TableConfig, s: HandState, seat: int, cards: tuple[Card, ...]) -> list[Event]:
    s.players[seat].shown += cards
    s.hole[seat] = cards
    event = CardsShown(seat, cards)
    if any(face_down(s, x) for x in in_hand(s)):
        return [event]
    return [event, *advance(config, s)]


@dataclass(frozen=True, slots=True)
class ShowCards(Step):
    """Every player still in shows the cards it holds face down (SPEC 3.15, 5.16)."""

    KIND: ClassVar[str] = "show-cards"
    PHASE: ClassVar[Phase] = Phase.SHOW

    def enter(self, config: TableConfig, s: HandState) -> list[Event]:
        if any(face_down(s, x) for x in in_hand(s)):
            return []
        return advance(config, s)

    def to_act(self, s: HandState) -> tuple[int, ...]:
        return tuple(x for x in in_hand(s) if face_down(s, x))

    def ops(self, s: HandState) -> tuple[OpDue, ...]:
        return tuple(OpDue(CardOp.SHOW, x) for x in self.to_act(s))

    def stall(self, config: TableConfig, s: HandState, seat: int) -> list[Event]:
        """A player that does not show is folded: its bets stay in the pot (SPEC 3.9)."""
        return fold_for_stalling(config, s, seat, lambda n: bool(self.to_act(n)))


class Formation(enum.StrEnum):
    """Which five cards make a player's hand at the showdown (SPEC 2.6)."""

    BEST_FIVE = "best-five"
    """The best five of the player's own cards, down and up (stud, draw)."""
    HOLDEM = "holdem"
    """The best five of the player's cards and the board, in any combination."""
    OMAHA = "omaha"
    """Exactly two of the player's cards and three of the board."""
    BOTH_OR_NEITHER = "both-or-neither"
    """The best five of the player's own cards, or three of them with every board card: the
    board's cards play all together or not at all (Double Spit)."""


def fives(
    formation: Formation, own: Sequence[Card], board: Sequence[Card]
) -> list[tuple[Card, ...]]:
    """Every five cards `formation` lets a player make of its own cards and the board, where
    the formation is one a player's best five cannot be found by a formula for (both or
    neither)."""
    out: list[tuple[Card, ...]] = list(combinations(own, 5))
    if board:
        out += [three + tuple(board) for three in combinations(own, 5 - len(board))]
    return out


def hand_value(formation: Formation, own: Sequence[Card], board: Sequence[Card]) -> int:
    """The high value of a hand by `formation` (bigger is better, SPEC 2.4)."""
    if formation is Formation.OMAHA:
        return evaluators.omaha_high(own, board)
    if formation is Formation.HOLDEM:
        return evaluators.holdem_high(own, board)
    if formation is Formation.BOTH_OR_NEITHER:
        return max(evaluators.best_high(five) for five in fives(formation, own, board))
    return evaluators.best_high([*own, *board])


@dataclass(frozen=True, slots=True)
class Settle(Step):
    """The showdown of a live-deck game: each pot to the best hand among those eligible, by
    the game's formation (SPEC 3.8, 3.15); in a lowball game (`low`) to the best ace-to-five
    low, whatever its highest card (2.7)."""

    KIND: ClassVar[str] = "settle"
    PHASE: ClassVar[Phase] = Phase.SHOWDOWN
    formation: Formation = Formation.BEST_FIVE
    low: bool = False

    def __post_init__(self) -> None:
        if self.low and self.formation is not Formation.BEST_FIVE:
            raise IllegalAction("a lowball showdown takes the best five of a player's own cards")

    def value(self, own: Sequence[Card], board: Sequence[Card]) -> int:
        """A hand's value at this showdown (bigger is better)."""
        if self.low:
            return evaluators.low_a5([*own, *board])
        return hand_value(self.formation, own, board)

    def enter(self, config: TableConfig, s: HandState) -> list[Event]:
        pots = hand_pots(config, s)
        board = tuple(s.board)
        awards = award_pots(pots, lambda x: self.value(s.players[x].shown, board))
        return finish(s, awards)


# --- the forfeit settlement ------------------------------------------------------------------


def forfeit(config: TableConfig, s: HandState) -> list[Event]:
    """SPEC 3.15: the deck cannot deal without the silent players. What each of them put in
    (its bets and its ante) is shared equally among the players still in, the odd chips
    clockwise from the dealer's left (3.8); every other player takes back what it put in."""
    gone = silent(s)
    players = in_hand(s)
    awards: list[PotAward] = []
    forfeited = 0
    for x in s.order:
        p = s.players[x]
        put = p.committed + p.ante + p.paid
        if x in gone:
            forfeited += put
        elif put:
            awards.append(PotAward(Pot(put, (x,)), (x,), (put,)))
    if forfeited:
        pot = Pot(forfeited, players)
        awards.append(PotAward(pot, players, split_pot(forfeited, players)))
    # a pot carried into the hand is nobody's stake: it carries on (SPEC 3.16)
    return [HandForfeited(gone), *finish(s, tuple(awards), s.carried_in)]


# --- no free roll at the deal ----------------------------------------------------------------


def do_abort_live(
    config: TableConfig, s: HandState, seat: int, blame: showdown.Blame
) -> list[Event]:
    """SPEC 3.10, 3.15: the hand is void before its first deal is complete, but a seat blamed
    for it pays its ante to the others. With the live deck a seat could hold its shares back
    until the others' shares have shown it its own cards, and then let the hand fall: that
    look is not free."""
    blamed = {x for x in blame[0] if x in s.players}
    antes = {x: s.players[x].ante for x in s.order}
    others = tuple(x for x in s.order if x not in blamed)
    paid = sum(antes[x] for x in blamed)
    events = showdown.do_abort(config, s, seat, blame)
    if not paid or not others:
        return events
    aborted = events[0]
    assert isinstance(aborted, HandAborted) and s.result is not None
    for x in blamed:
        s.players[x].stack -= antes[x]
    pot = Pot(paid, others)
    shares = split_pot(paid, others)
    for x, share in zip(others, shares, strict=True):
        s.players[x].stack += share
    order = s.order
    s.result = HandResult(
        order,
        tuple(s.players[x].start_stack for x in order),
        tuple(s.players[x].stack for x in order),
        (PotAward(pot, others, shares),),
        s.carried_in,
        s.carried_in,
    )
    return [HandAborted(aborted.blamed, aborted.reason, s.result)]


# --- the rows these games bring to the action table ---------------------------------------------


def do_fold_released(config: TableConfig, s: HandState, seat: int, _: object = None) -> list[Event]:
    """A fold of a live-deck game carries the folder's release (SPEC 5.13): the deck no longer
    needs its key."""
    s.released.add(seat)
    return betting_round.do_fold(config, s, seat)


def _verify_stall(config: TableConfig, s: HandState, seat: int, _: object = None) -> None:
    if player(s, seat).folded:
        raise IllegalAction(f"seat {seat} has folded already")


def _do_stall(config: TableConfig, s: HandState, seat: int, _: object = None) -> list[Event]:
    return current(s).stall(config, s, seat)


A, N, P, S, Q, D = ActionKind, Needs, By.PLAYER, By.SESSION, By.PROTOCOL, By.DEALER
DEALS = frozenset({Phase.DEAL, Phase.STREET})
SHOWING = frozenset({Phase.SHOW})
DRAWING = frozenset({Phase.DRAW})
BETTING = frozenset({Phase.BETTING})
STALLS = AFTER_DEAL | frozenset({Phase.STREET, Phase.SHOW, Phase.DRAW})
"""After the first deal a stall folds the staller; in a deal step it ends the hand by the
forfeit settlement (SPEC 3.15)."""


def stall_row(phases: frozenset[Phase]) -> Action:
    """The stall of a live-deck game in `phases`: the step the hand is at folds the staller,
    or ends the hand by the forfeit settlement (a step's rows replace the earlier steps' of
    the same kind, so a later step that adds a phase brings the row again)."""
    return Action(
        A.STALL,
        D,
        phases,
        "timeout",
        N.NOTHING,
        _verify_stall,
        _do_stall,
        FoldedForStalling,
        None,
        False,
    )


# fmt: off
LIVE_ACTIONS: tuple[Action, ...] = (
    #      kind      by  phases   entry            needs     check                 step               event                body  binds  key  label
    Action(A.STREET, Q, DEALS,   "street_shares", N.OPENED, verify_street,        do_street,         StreetDealt,         None, False),
    Action(A.SHOW,   S, SHOWING, "show",          N.CARDS,  verify_show,          do_show,           CardsShown,          None, False),
    Action(A.FOLD,   P, BETTING, "fold_release",  N.NOTHING, betting_round.verify_fold, do_fold_released, Folded,        None, True, "f", "fold"),
    stall_row(STALLS),
    Action(A.ABORT,  D, BEFORE_DEAL, "abort",     N.BLAME,   showdown.verify_abort, do_abort_live,  HandAborted,         None, False),
)

DRAW_ACTIONS: tuple[Action, ...] = (
    Action(A.DRAW,    P, DRAWING, "draw",    N.POSITIONS, verify_draw, do_draw, Drew, None, False, "d", "draw"),
    Action(A.TIMEOUT, D, CLOCKED | DRAWING, "timeout", N.NOTHING, timeouts.verify_timeout, timeouts.do_timeout, TimedOut, None, False),
)
"""The rows a draw brings: the draw itself, and a clock that also runs in it (SPEC 3.9)."""
# fmt: on

# The rows are the deal steps' (every live-deck game has one); they need the functions above.
Deal.ACTIONS = LIVE_ACTIONS
Draw.ACTIONS = DRAW_ACTIONS

__all__ = [
    "BOARD",
    "BURN",
    "DOWN",
    "DRAWING",
    "LIVE_ACTIONS",
    "STALLS",
    "UP",
    "Deal",
    "Destination",
    "Draw",
    "Formation",
    "Opened",
    "Redeal",
    "Settle",
    "ShowCards",
    "Street",
    "deals_live",
    "face_down",
    "fives",
    "fold_for_stalling",
    "forfeit",
    "hand_value",
    "in_hand",
    "silent",
    "stall_row",
]
