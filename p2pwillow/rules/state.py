"""The mutable records of one hand (its players and the hand itself) and the helpers every rule
module shares to read and move them (SPEC 3). Pure; no I/O, no clock, no randomness.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Protocol, Self

from p2pwillow.cards import Card
from p2pwillow.limits import is_int
from p2pwillow.rules.betting import RoundState
from p2pwillow.rules.config import TableConfig
from p2pwillow.rules.errors import IllegalAction
from p2pwillow.rules.phases import TERMINAL, Phase
from p2pwillow.rules.pots import HandResult
from p2pwillow.rules.script import Announcement, GameSpec

# Mutable records, private to the rules package: every step works on a `clone()` (SPEC 3.3).


@dataclass(slots=True)
class PlayerState:
    seat: int
    start_stack: int
    stack: int
    """Chips behind: the start stack less tokens set aside and chips bet."""
    tokens: int
    """Trade tokens still set aside."""
    tokens_set_aside: int
    tokens_paid: int = 0
    ante: int = 0
    """Chips posted as the ante: dead money in the main pot (SPEC 3.4)."""
    paid: int = 0
    """Chips paid for washes (SPEC 3.17) and passed cards (3.19): dead money in the main pot,
    as the ante."""
    washed: int = 0
    """Cards washed this hand, every wash counted (a game may bound them, SPEC 3.17)."""
    hand_size: int = 0
    laid_out: bool = False
    shown: list[Card] = field(default_factory=list)
    folded: bool = False
    committed: int = 0
    """Chips bet over the whole hand (tokens excluded)."""
    matched: int = 0
    """Chips put in by matching the pot (SPEC 3.18): dead money in the main pot, as the ante."""
    round_bet: int = 0
    acted_level: int | None = None
    """The round's full level when this player last acted; None if not yet this round."""

    def clone(self) -> PlayerState:
        return replace(self, shown=list(self.shown))


class Own(Protocol):
    """The state a game's own step keeps over the hand (Weeping Willow's trading): copied with
    the rest of the hand before every step (SPEC 3.3)."""

    def clone(self) -> Self: ...

    def settle(self) -> None:
        """The hand ends early (a stall left one player, or it was aborted): nothing of the
        step stays open."""


@dataclass(slots=True)
class HandState:
    """Everything a hand knows; `Hand.snapshot()` returns a copy that compares by value."""

    phase: Phase
    dealer: int
    order: tuple[int, ...]
    """Seats in the hand, clockwise from the dealer's left; the dealer is last."""
    players: dict[int, PlayerState]
    announcement: Announcement | None = None
    step: int = -1
    """The step of the game's script the hand is at (-1 before the announcement)."""
    own: Own | None = None
    """What the game's own step keeps (None for a game without one)."""
    betting_round: int = 0
    round_state: RoundState | None = None
    actor: int | None = None
    needs: list[int] = field(default_factory=list)
    """Seats that must still act in this betting round, in table order."""
    result: HandResult | None = None
    # --- a live-deck game's deck as the rules see it (SPEC 3.14) ---------------------------
    board: list[Card] = field(default_factory=list)
    """The cards dealt to the board, in the order dealt."""
    used: int = 0
    """Deck positions dealt so far (burned cards included)."""
    released: set[int] = field(default_factory=set)
    """Seats that folded with a release: the deck no longer needs their keys (SPEC 5.13)."""
    drawn: dict[int, int] = field(default_factory=dict)
    """In a draw, the cards each seat that has drawn discarded (SPEC 3.15)."""
    wash_calls: dict[int, bool] = field(default_factory=dict)
    """At a wash whose washers are named first, what each player said so far: True, it
    washes (3.17)."""
    wash_order: tuple[int, ...] = ()
    """In a wash, the order the players still in wash in, fixed as the wash begins (3.17)."""
    washed_up: dict[int, int] = field(default_factory=dict)
    """In a wash, the face-up cards each seat washed: their replacements come face up (3.17)."""
    # --- a pass street (SPEC 3.19) ------------------------------------------------------------
    pass_order: tuple[int, ...] = ()
    """In a pass street, the order its cards are dealt in: the players still in from this
    street's start."""
    pass_first: int | None = None
    """The seat the last pass street started at (the next starts one seat on)."""
    pass_at: int = 0
    """In a pass street, the place in `pass_order` of the seat being dealt or deciding."""
    pass_card: Card | None = None
    """The card that seat holds for this street, once dealt or passed to it (None: owed)."""
    pass_owed: int | None = None
    """A seat that passed its card and is owed its replacement, dealt before anything else."""
    # --- a split-pot game's declaration (SPEC 3.16) -------------------------------------------
    sealed: set[int] = field(default_factory=set)
    """Seats whose sealed declaration is in (its commitment; the rules never see the choice
    before it opens)."""
    declared: dict[int, str] = field(default_factory=dict)
    """Each opened declaration: "low", "high" or "pig"."""
    hole: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    """The cards each player still in showed at the show: those it held face down."""
    carried_in: int = 0
    """Chips carried over from the last hand that nobody won (SPEC 3.16): in the main pot."""
    owes_match: int | None = None
    """The seat put to match the pot or fold (SPEC 3.18): the hand waits for it alone."""

    def clone(self) -> HandState:
        return replace(
            self,
            players={seat: p.clone() for seat, p in self.players.items()},
            own=None if self.own is None else self.own.clone(),
            needs=list(self.needs),
            board=list(self.board),
            released=set(self.released),
            drawn=dict(self.drawn),
            washed_up=dict(self.washed_up),
            wash_calls=dict(self.wash_calls),
            sealed=set(self.sealed),
            declared=dict(self.declared),
            hole=dict(self.hole),
        )

    @property
    def game(self) -> GameSpec | None:
        """The game announced for the hand (None before the announcement)."""
        a = self.announcement
        return None if a is None else a.game

    def dead_money(self, config: TableConfig) -> int:
        """The chips in the pot that no betting put there: token money, antes (SPEC 3.4),
        washes (3.17), matches of the pot (3.18) and a pot carried over from the last hand
        (3.16)."""
        players = self.players.values()
        tokens = sum(p.tokens_paid for p in players) * config.token_value
        return tokens + sum(p.ante + p.paid + p.matched for p in players) + self.carried_in


def player(s: HandState, seat: int) -> PlayerState:
    p = s.players.get(seat) if is_int(seat) else None
    if p is None:
        raise IllegalAction(f"seat {seat!r} is not in this hand")
    return p


def end(s: HandState, phase: Phase) -> None:
    """The hand is over (COMPLETE) or void (ABORTED): the only phases no step leads to."""
    assert phase in TERMINAL and s.phase not in TERMINAL, (s.phase, phase)
    s.phase = phase


def pot_chips(config: TableConfig, s: HandState) -> int:
    """All chips in the middle: token money, antes and every bet."""
    return s.dead_money(config) + sum(p.committed for p in s.players.values())
