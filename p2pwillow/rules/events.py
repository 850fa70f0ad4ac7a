"""The frozen events a hand emits, one per action or input, plus the ones it makes itself.

Pure; no I/O. Names are past tense; the session records them and the client shows them. Each
event says itself in plain words (`words`), with the names a `Namer` gives the seats: the
hand log of every front end and the report read them from here. A game's own step has events
of its own (Weeping Willow's trades), subclasses of `Event` in its module of the catalogue.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from p2pwillow.cards import Card
from p2pwillow.rules.phases import Phase
from p2pwillow.rules.pots import HandResult
from p2pwillow.rules.script import Announcement

Namer = Callable[[int], str]
"""A seat's name as the reader knows it."""
Words = tuple[str | Card, ...]
"""A line of the hand log: text, with cards drawn as cards."""


class Event:
    """Something that happened in a hand (SPEC 3.3)."""

    __slots__ = ()
    TOLD: ClassVar[bool] = True
    """False for the events the hand log tells by their entries instead (a layout, the cards
    chosen for a trade, a round's end) or by the result (the hand's end)."""
    FOLLOWS: ClassVar[bool] = False
    """The rules emit it by themselves after an action (a round opening or closing, the
    hand's end; a game's own, such as a trade made), not as an action's own event."""

    def words(self, n: Namer) -> Words:
        """The event in plain words, for the hand log."""
        return ()


class Wager(enum.Enum):
    """What an all-in amounts to (SPEC 3.7.2)."""

    CALL = "call"
    BET = "bet"
    RAISE = "raise"


def plural(count: int, noun: str) -> str:
    """ "1 card", "3 cards"."""
    return f"{count} {noun}{'s' * (count != 1)}"


@dataclass(frozen=True, slots=True)
class Announced(Event):
    seat: int
    announcement: Announcement

    def words(self, n: Namer) -> Words:
        return (f"{n(self.seat)} announces {self.announcement.words()}",)


@dataclass(frozen=True, slots=True)
class AntesPosted(Event):
    """Every player of the hand posted the ante into the pot (SPEC 3.4): (seat, chips) in table
    order, less than the table's ante for a stack that held less."""

    FOLLOWS = True
    posted: tuple[tuple[int, int], ...]

    def words(self, n: Namer) -> Words:
        amounts = {chips for _, chips in self.posted}
        if len(amounts) == 1:
            return (f"Everyone antes {amounts.pop()}",)
        return ("Antes: " + ", ".join(f"{n(seat)} {chips}" for seat, chips in self.posted),)


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    deal_size: int
    """Cards dealt to each player."""
    seats: tuple[int, ...]
    tokens: tuple[int, ...]
    """Trade tokens each seat set aside, aligned with `seats` (SPEC 3.4; 0 for a game without)."""

    def words(self, n: Namer) -> Words:
        return (f"{plural(self.deal_size, 'card')} dealt to each player",)


@dataclass(frozen=True, slots=True)
class LaidOut(Event):
    TOLD = False
    seat: int
    discarded: int


@dataclass(frozen=True, slots=True)
class CardRevealed(Event):
    seat: int
    betting_round: int
    card: Card

    def words(self, n: Namer) -> Words:
        return (f"{n(self.seat)} turns ", self.card)


@dataclass(frozen=True, slots=True)
class BettingOpened(Event):
    FOLLOWS = True
    betting_round: int
    opener: int

    def words(self, n: Namer) -> Words:
        return (f"Round {self.betting_round}: {n(self.opener)} opens the betting",)


@dataclass(frozen=True, slots=True)
class BettingSkipped(Event):
    """Fewer than two players can bet, so the round has no betting."""

    FOLLOWS = True

    betting_round: int

    def words(self, n: Namer) -> Words:
        return (f"Round {self.betting_round}: no betting, fewer than two can bet",)


@dataclass(frozen=True, slots=True)
class BettingClosed(Event):
    FOLLOWS = True
    TOLD = False
    betting_round: int


@dataclass(frozen=True, slots=True)
class Checked(Event):
    seat: int

    def words(self, n: Namer) -> Words:
        return (f"{n(self.seat)} checks",)


@dataclass(frozen=True, slots=True)
class BetPlaced(Event):
    seat: int
    amount: int

    def words(self, n: Namer) -> Words:
        return (f"{n(self.seat)} bets {self.amount}",)


@dataclass(frozen=True, slots=True)
class Called(Event):
    seat: int
    amount: int
    """Chips put in by this call; less than the bet when the caller is all in for less."""
    all_in: bool

    def words(self, n: Namer) -> Words:
        return (f"{n(self.seat)} calls {self.amount}" + (", all in" if self.all_in else ""),)


@dataclass(frozen=True, slots=True)
class Raised(Event):
    seat: int
    to: int
    """The seat's total bet in this round after the raise."""
    amount: int

    def words(self, n: Namer) -> Words:
        return (f"{n(self.seat)} raises to {self.to}",)


@dataclass(frozen=True, slots=True)
class Folded(Event):
    seat: int

    def words(self, n: Namer) -> Words:
        return (f"{n(self.seat)} folds",)


@dataclass(frozen=True, slots=True)
class WentAllIn(Event):
    seat: int
    amount: int
    """Chips put in by this action (the seat's whole stack)."""
    to: int
    """The seat's total bet in this round afterwards."""
    as_action: Wager
    """What the all-in amounts to: a call, a bet or a raise."""
    full: bool
    """True when a bet or raise is big enough to reopen the betting (SPEC 3.7.2)."""

    def words(self, n: Namer) -> Words:
        return (f"{n(self.seat)} goes all in for {self.amount}",)


@dataclass(frozen=True, slots=True)
class TimedOut(Event):
    seat: int
    outcome: Event
    """The default action taken for the seat (check, fold, pass, decline, withdraw, close)."""

    def words(self, n: Namer) -> Words:
        return (f"{n(self.seat)}'s clock ran out",)


@dataclass(frozen=True, slots=True)
class FoldedForStalling(Event):
    """A player still in owed a protocol step after the deal and did not give it: it is folded
    out of turn and whatever it bet stays in the pot (SPEC 3.9)."""

    seat: int
    phase: Phase
    """The phase the hand was in (TRADING, LAYOUT, REVEAL or BETTING)."""
    returned: int
    """Chips given back to its stack for trade tokens it had not used (trading only)."""
    void_trade: object | None
    """In a game with trades, the accepted offer of a trade it was a side of, now undone: no
    cards change hands, no token is paid, and the other side's chosen cards (if it chose) are
    not given."""
    partner: int | None
    """The other side of `void_trade`."""

    def words(self, n: Namer) -> Words:
        return (f"{n(self.seat)} is folded: it held up the table; its bets stay in",)


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    FOLLOWS = True
    TOLD = False
    result: HandResult


@dataclass(frozen=True, slots=True)
class HandAborted(Event):
    blamed: tuple[int, ...]
    reason: str
    result: HandResult

    def words(self, n: Namer) -> Words:
        if self.result.final_stacks == self.result.start_stacks:
            return (f"Hand aborted: {self.reason}; every stack is back where it started",)
        # a live-deck game's blamed seats pay their antes to the others (SPEC 3.15)
        who = ", ".join(n(s) for s in self.blamed)
        return (f"Hand aborted: {self.reason}; {who} pays the ante to the others",)


@dataclass(frozen=True, slots=True)
class HandVoided(Event):
    """The table stopped in this hand (SPEC 7.9): `signers` signed a claim this player refused,
    and no quorum without them was left to go on."""

    signers: tuple[int, ...]
    result: HandResult

    def words(self, n: Namer) -> Words:
        who = ", ".join(n(s) for s in self.signers)
        return (
            f"The table stopped: {who} signed a false claim; every stack is back where it started",
        )


# --- the live deck (SPEC 3.15) ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StreetDealt(Event):
    """A deal step of a live-deck game: `down` cards face down to each player still in, the
    up cards by seat (in table order) and the board cards it opened."""

    down: int
    up: tuple[tuple[int, tuple[Card, ...]], ...]
    board: tuple[Card, ...]
    replaces: Card | None = None
    """In a pass street (SPEC 3.19), the card its one seat passed: this card is its
    replacement."""

    def words(self, n: Namer) -> Words:
        if self.replaces is not None and len(self.up) == 1:
            seat, cards = self.up[0]
            return (f"{n(seat)} is dealt ", *cards, " in place of ", self.replaces)
        said: list[str | Card] = []
        if self.down:
            said.append(f"{plural(self.down, 'card')} down to each player")
        for seat, cards in self.up:
            said += [("; " if said else "") + f"{n(seat)} gets ", *cards]
        if self.board:
            said += [("; " if said else "") + "the board gets ", *self.board]
        return tuple(said) if said else ("the draws are dealt",)


@dataclass(frozen=True, slots=True)
class Drew(Event):
    """A player of a draw game discarded `count` cards (none: it stands pat)."""

    seat: int
    count: int

    def words(self, n: Namer) -> Words:
        if not self.count:
            return (f"{n(self.seat)} stands pat",)
        return (f"{n(self.seat)} draws {self.count}",)


@dataclass(frozen=True, slots=True)
class CardsShown(Event):
    """A player still in at the showdown shows the cards it held face down."""

    seat: int
    cards: tuple[Card, ...]

    def words(self, n: Namer) -> Words:
        return (f"{n(self.seat)} shows ", *self.cards)


@dataclass(frozen=True, slots=True)
class HandForfeited(Event):
    """A player folded without releasing its key (a clock ran out or it stalled) while the
    deck still had to deal: no card can be dealt, so the hand ends with the forfeit settlement
    (SPEC 3.15): what the silent players put in is shared among the players still in, and
    everyone else takes back what it put in."""

    silent: tuple[int, ...]

    def words(self, n: Namer) -> Words:
        who = ", ".join(n(s) for s in self.silent)
        return (
            f"The deck cannot deal without {who}: {who} forfeits what it put in to the players "
            "still in; everyone else takes back their own",
        )


@dataclass(frozen=True, slots=True)
class Sealed(Event):
    """A player still in sealed its declaration (SPEC 3.16, 6.13): nobody knows it yet."""

    seat: int

    def words(self, n: Namer) -> Words:
        return (f"{n(self.seat)} has declared (sealed)",)


@dataclass(frozen=True, slots=True)
class Declared(Event):
    """A sealed declaration opened: "low", "high" or "pig" (SPEC 3.16)."""

    seat: int
    choice: str

    def words(self, n: Namer) -> Words:
        said = "both ways (pig)" if self.choice == "pig" else self.choice
        return (f"{n(self.seat)} declares {said}",)


@dataclass(frozen=True, slots=True)
class PotSplit(Event):
    """How one pot of a split-pot game was split (SPEC 3.16): each side's winners (none: the
    side went to the other, or nobody won), the pigs that failed, the chips carried over."""

    FOLLOWS = True
    amount: int
    eligible: tuple[int, ...]
    high: tuple[int, ...]
    low: tuple[int, ...]
    pigs_failed: tuple[int, ...]
    carried: int

    def words(self, n: Namer) -> Words:
        def who(seats: tuple[int, ...]) -> str:
            return " and ".join(n(s) for s in seats)

        parts = [f"{who(self.pigs_failed)} went pig and did not win both ways"] * bool(
            self.pigs_failed
        )
        if self.carried:
            parts.append(f"nobody wins the {self.amount}: it carries over to the next hand")
        else:
            if self.high:
                parts.append(f"high: {who(self.high)}")
            if self.low:
                parts.append(f"low: {who(self.low)}")
        return (f"Pot of {self.amount}: " + "; ".join(parts),)


@dataclass(frozen=True, slots=True)
class Washed(Event):
    """A player washed `count` cards (0 or 1) for `paid` chips (SPEC 3.17); `card` is the card
    it washed when it was face up (a face-down card stays unseen). `cloaked`: a face-up card
    washed to be replaced face down (Go for Broke's cloak). `flipped`: the face-down card the
    player turned face up when it washed `card` by a flip, replaced face down (Five by Two)."""

    seat: int
    count: int
    card: Card | None
    paid: int
    cloaked: bool = False
    flipped: Card | None = None

    def words(self, n: Namer) -> Words:
        if not self.count:
            return (f"{n(self.seat)} keeps its cards",)
        pays = f" pays {self.paid} and" if self.paid else ""  # a free wash (Car Wash)
        if self.flipped is not None and self.card is not None:
            return (
                f"{n(self.seat)}{pays} flips ",
                self.flipped,
                " face up, washes ",
                self.card,
                ": another comes face down",
            )
        if self.cloaked and self.card is not None:
            return (f"{n(self.seat)}{pays} cloaks ", self.card, ": another comes face down")
        if self.card is not None:
            return (f"{n(self.seat)}{pays} washes ", self.card)
        return (f"{n(self.seat)}{pays} washes a card face down",)


@dataclass(frozen=True, slots=True)
class WashCalled(Event):
    """At a wash whose washers are named first (Five by Two, SPEC 3.17), a player said in its
    turn whether it washes (`washes`)."""

    seat: int
    washes: bool

    def words(self, n: Namer) -> Words:
        return (f"{n(self.seat)} {'will wash' if self.washes else 'keeps its cards'}",)


@dataclass(frozen=True, slots=True)
class CardPassed(Event):
    """In a pass street (SPEC 3.19), a player paid `paid` to pass `card`, its face-up card of
    the street, to seat `to`, the next dealt; its replacement comes next."""

    seat: int
    to: int
    card: Card
    paid: int

    def words(self, n: Namer) -> Words:
        return (f"{n(self.seat)} pays {self.paid} and passes ", self.card, f" to {n(self.to)}")


@dataclass(frozen=True, slots=True)
class CardKept(Event):
    """In a pass street (SPEC 3.19), a player kept `card`, dealt or passed to it."""

    seat: int
    card: Card

    def words(self, n: Namer) -> Words:
        return (f"{n(self.seat)} keeps ", self.card)
