"""One hand as a state machine: the announcement, then the steps of the announced game's
script (SPEC 3, 3.13). Pure; no I/O, no clock, no randomness.

Every player action has three faces (SPEC 3.3): `verify(kind, seat, argument)` raises
IllegalAction with the reason, `can(...)` answers, `act(...)` acts and returns a frozen event;
the betting actions and the engine's inputs also have their named triplets (`verify_fold`,
`can_fold`, `fold`, …). An action that raises changes nothing: each one is checked in full,
then applied to a copy of the state that replaces the old state only when the whole step has
succeeded. Which check and step stand behind each action is the action table's (`actions`:
the engine's rows and those the game's own steps bring); which step of the script the hand is
at says whom it waits for (`script`). This class holds the state and is the single path that
commits a step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from p2pwillow.cards import Card
from p2pwillow.hands import HandValue, best_hand
from p2pwillow.limits import is_int
from p2pwillow.rules import betting_round, pot_match
from p2pwillow.rules.actions import Action, ActionKind, By, rows_of
from p2pwillow.rules.betting import BetOptions
from p2pwillow.rules.config import TableConfig
from p2pwillow.rules.errors import ConfigError, IllegalAction, passes
from p2pwillow.rules.events import (
    Announced,
    BetPlaced,
    Called,
    CardRevealed,
    Checked,
    Dealt,
    Event,
    Folded,
    FoldedForStalling,
    HandAborted,
    LaidOut,
    Raised,
    TimedOut,
    WentAllIn,
)
from p2pwillow.rules.phases import TERMINAL, Phase
from p2pwillow.rules.pots import HandResult
from p2pwillow.rules.script import Announcement, BetSize, GameSpec, OpDue, Step, current
from p2pwillow.rules.state import HandState, Own, PlayerState, player, pot_chips
from p2pwillow.rules.streets import Bet, Showdown

__all__ = ["Hand", "HandState"]

E = TypeVar("E")


class Hand:
    """One hand at a table (SPEC 3). Seats are table seat numbers; the dealer holds the button.

    `seats` and `stacks` list the players in the hand and their stacks at its start; each
    stack must be at least one chip. A game that takes trade tokens sets them aside from the
    stacks when it is announced.
    """

    def __init__(
        self,
        config: TableConfig,
        seats: Sequence[int],
        stacks: Sequence[int],
        dealer: int,
        hand_number: int = 1,
        carried: int = 0,
    ) -> None:
        if not isinstance(config, TableConfig):
            raise ConfigError("a hand needs a TableConfig")
        seats = tuple(seats)
        stacks = tuple(stacks)
        if len(seats) != len(stacks):
            raise ConfigError(f"{len(seats)} seats but {len(stacks)} stacks")
        if not 2 <= len(seats) <= config.seats:
            raise ConfigError(f"a hand needs 2 to {config.seats} players, not {len(seats)}")
        for seat in seats:
            if not is_int(seat) or not 0 <= seat < config.seats:
                raise ConfigError(f"seat {seat!r} is not a seat 0..{config.seats - 1}")
        if len(set(seats)) != len(seats):
            raise ConfigError("a seat appears twice in the hand")
        for seat, stack in zip(seats, stacks, strict=True):
            if not is_int(stack) or stack < 1:
                raise ConfigError(f"seat {seat} needs at least one chip, not {stack!r}")
        if dealer not in seats:
            raise ConfigError(f"the dealer {dealer!r} is not in the hand")
        if not is_int(hand_number) or hand_number < 1:
            raise ConfigError(f"hand number must be a positive integer, not {hand_number!r}")
        if not is_int(carried) or carried < 0:
            raise ConfigError(f"a carried pot is a number of chips, not {carried!r}")
        self.config = config
        self.hand_number = hand_number
        # SPEC 3.2: clockwise = increasing seat number, wrapping; the dealer acts last.
        ranked = sorted(seats)
        after = [s for s in ranked if s > dealer] + [s for s in ranked if s <= dealer]
        players = {
            seat: PlayerState(
                seat=seat, start_stack=stack, stack=stack, tokens=0, tokens_set_aside=0
            )
            for seat, stack in zip(seats, stacks, strict=True)
        }
        self._s = HandState(Phase.ANNOUNCE, dealer, tuple(after), players, carried_in=carried)
        self._events: list[Event] = []

    # --- reading the state -------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self._s.phase

    @property
    def dealer(self) -> int:
        return self._s.dealer

    @property
    def carried_in(self) -> int:
        """Chips carried into the main pot from a pot nobody won (SPEC 3.16)."""
        return self._s.carried_in

    @property
    def seats(self) -> tuple[int, ...]:
        """Seats in the hand, clockwise from the dealer's left (the dealer last)."""
        return self._s.order

    @property
    def announcement(self) -> Announcement | None:
        return self._s.announcement

    @property
    def game(self) -> GameSpec | None:
        """The game announced (None before the announcement)."""
        return self._s.game

    @property
    def step(self) -> Step | None:
        """The step of the game's script the hand is at (None before it starts and after)."""
        s = self._s
        if s.game is None or s.phase in TERMINAL:
            return None
        return current(s)

    @property
    def own(self) -> Own | None:
        """What the game's own step keeps (Weeping Willow's trading); read only."""
        return self._s.own

    @property
    def betting_round(self) -> int:
        """The betting round the hand is in or leads to (1 for the first), 0 before the first
        card turns or the first bet (SPEC 3.13)."""
        return self._s.betting_round

    @property
    def rounds(self) -> int:
        """The betting rounds of the game announced, played to the showdown (0 before)."""
        game = self._s.game
        return 0 if game is None else game.rounds

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    @property
    def result(self) -> HandResult | None:
        return self._s.result

    @property
    def is_over(self) -> bool:
        return self._s.phase in TERMINAL

    @property
    def pot(self) -> int:
        """All chips in the middle: token money plus every bet."""
        return pot_chips(self.config, self._s)

    @property
    def current_bet(self) -> int:
        rs = self._s.round_state
        return 0 if rs is None or self._s.phase is not Phase.BETTING else rs.current_bet

    def _p(self, seat: int) -> PlayerState:
        return player(self._s, seat)

    def stack(self, seat: int) -> int:
        """Chips behind (tokens set aside and chips bet excluded)."""
        return self._p(seat).stack

    def tokens(self, seat: int) -> int:
        return self._p(seat).tokens

    def hand_size(self, seat: int) -> int:
        return self._p(seat).hand_size

    def showing(self, seat: int) -> tuple[Card, ...]:
        return tuple(self._p(seat).shown)

    @property
    def board(self) -> tuple[Card, ...]:
        """A live-deck game's board cards, in the order dealt (SPEC 3.15)."""
        return tuple(self._s.board)

    def is_folded(self, seat: int) -> bool:
        return self._p(seat).folded

    def is_all_in(self, seat: int) -> bool:
        p = self._p(seat)
        return self._s.betting_round > 0 and not p.folded and p.stack == 0

    def round_bet(self, seat: int) -> int:
        return self._p(seat).round_bet

    def committed(self, seat: int) -> int:
        return self._p(seat).committed

    def fixed_bet(self, betting_round: int) -> int:
        """The fixed-limit bet and raise size of betting round `betting_round` (1 for the
        first) of the game announced: the table's small or big bet, as its script says."""
        game = self._s.game
        bets = () if game is None else game.steps_of(Bet)
        if not 1 <= betting_round <= len(bets):
            raise IllegalAction(f"there is no betting round {betting_round} in this hand")
        size = bets[betting_round - 1].size
        return self.config.small_bet if size is BetSize.SMALL else self.config.big_bet

    @property
    def showdown_cards(self) -> int:
        """How many cards of a hand show at the showdown (5 before a game is announced)."""
        game = self._s.game
        steps = () if game is None else game.steps_of(Showdown)
        return steps[0].cards if steps else 5

    def hand_value(self, seat: int) -> HandValue | None:
        """The seat's hand once all the cards it shows down are showing."""
        shown = self._p(seat).shown
        return best_hand(shown) if len(shown) == self.showdown_cards else None

    @property
    def owes_match(self) -> int | None:
        """The seat put to match the pot or fold, whose answer the hand waits for (SPEC 3.18)."""
        return pot_match.owing(self._s)

    def match_amount(self, seat: int) -> int:
        """What a match of the pot by `seat` puts in now: the pot, at most its stack (3.18)."""
        self._p(seat)
        return pot_match.match_amount(self.config, self._s, seat)

    def matched(self, seat: int) -> int:
        """Chips `seat` put in by matching the pot this hand (SPEC 3.18)."""
        return self._p(seat).matched

    def snapshot(self) -> HandState:
        """A copy of the whole state; equal snapshots mean nothing changed."""
        return self._s.clone()

    @property
    def state(self) -> HandState:
        """The state itself, not a copy: for a reader that changes nothing and keeps nothing
        past the hand's next action (a bot weighing a decision reads it thousands of times a
        hand, where a copy each time cost it a fifth of its time); `snapshot()` to keep."""
        return self._s

    def to_act(self) -> tuple[int, ...]:
        """The seats the hand is waiting for, in table order (SPEC 3.3).

        DEAL waits for the protocol's `deal()` and names nobody; a terminal hand names nobody.
        """
        s = self._s
        if s.phase is Phase.ANNOUNCE:
            return (s.dealer,)
        if s.phase in TERMINAL:
            return ()
        owed = pot_match.owing(s)
        if owed is not None:
            return (owed,)  # SPEC 3.18: the hand waits for its answer alone
        return current(s).to_act(s)

    def ops(self) -> tuple[OpDue, ...]:
        """The card operations the hand's step owes now (SPEC 3.13)."""
        s = self._s
        if s.game is None or s.phase in TERMINAL:
            return ()
        return current(s).ops(s)

    @property
    def rows(self) -> tuple[Action, ...]:
        """Every row of the action table this hand plays by (the game's own included)."""
        return tuple(rows_of(self._s.game).values())

    def legal_actions(self, seat: int) -> frozenset[ActionKind]:
        """The player actions `seat` may take now, its reveal included (inputs like deal,
        timeout, abort excluded): every row of the action table it passes with some argument."""
        self._p(seat)
        phase = self._s.phase
        return frozenset(
            a.kind
            for a in rows_of(self._s.game).values()
            if a.by in (By.PLAYER, By.SESSION) and phase in a.phases and self.can(a.kind, seat)
        )

    def bet_options(self, seat: int) -> BetOptions | None:
        """Call, bet and raise amounts open to `seat` if it is the one to act in a betting round."""
        s = self._s
        if s.phase is not Phase.BETTING or s.actor != seat:
            return None
        return betting_round.options(self.config, s, seat)

    # --- every action, through its row of the action table (rules/actions.py) -------------------

    def row(self, kind: ActionKind) -> Action:
        """The action table's row for `kind` in this hand; IllegalAction if its game has none."""
        row = rows_of(self._s.game).get(kind)
        if row is None:
            game = self._s.game
            where = "before the announcement" if game is None else f"in {game.title}"
            raise IllegalAction(f"there is no {kind.value.replace('-', ' ')} {where}")
        return row

    def verify(self, kind: ActionKind, seat: int, argument: object = None) -> None:
        """Raise IllegalAction with the reason unless `seat` may take `kind` now with
        `argument` (None: with some argument). Hand-wide inputs (deal, abort) are the dealer's."""
        row = self.row(kind)
        if self._s.phase not in row.phases:
            what = kind.value.replace("-", " ")
            raise IllegalAction(f"{what} is not allowed in the {self._s.phase.value} phase")
        owed = pot_match.blocks(self._s, kind)
        if owed is not None:
            raise IllegalAction(owed)
        row.check(self.config, self._s, seat, argument)

    def can(self, kind: ActionKind, seat: int, argument: object = None) -> bool:
        return passes(lambda: self.verify(kind, seat, argument))

    def act(self, kind: ActionKind, seat: int, argument: object = None) -> Event:
        """Take `kind` for `seat` with `argument`; returns its event, or raises IllegalAction
        and changes nothing."""
        event = self._take(kind, seat, argument, object)
        assert isinstance(event, Event)
        return event

    def _take(self, kind: ActionKind, seat: int, argument: Any, event: type[E]) -> E:
        self.verify(kind, seat, argument)
        action = self.row(kind)
        new = self._s.clone()
        events = action.step(self.config, new, seat, argument)
        first = events[0]
        assert isinstance(first, event), (first, event)
        self._s = new
        self._events.extend(events)
        return first

    # --- the action triplets (SPEC 3.3): verify_x raises, can_x answers, x acts ----------------

    def verify_announce(self, seat: int, announcement: Announcement | None) -> None:
        self.verify(ActionKind.ANNOUNCE, seat, announcement)

    def can_announce(self, seat: int, announcement: Announcement) -> bool:
        return self.can(ActionKind.ANNOUNCE, seat, announcement)

    def announce(self, seat: int, announcement: Announcement) -> Announced:
        return self._take(ActionKind.ANNOUNCE, seat, announcement, Announced)

    # deal (protocol input)
    def verify_deal(self) -> None:
        self.verify(ActionKind.DEAL, self._s.dealer)

    def can_deal(self) -> bool:
        return self.can(ActionKind.DEAL, self._s.dealer)

    def deal(self) -> Dealt:
        return self._take(ActionKind.DEAL, self._s.dealer, None, Dealt)

    # lay out: `positions`, where known, are checked against the hand (the protocol keeps them)
    def verify_lay_out(self, seat: int, positions: Sequence[int] | None = None) -> None:
        self.verify(ActionKind.LAY_OUT, seat, positions)

    def can_lay_out(self, seat: int, positions: Sequence[int] | None = None) -> bool:
        return self.can(ActionKind.LAY_OUT, seat, positions)

    def lay_out(self, seat: int, positions: Sequence[int] | None = None) -> LaidOut:
        return self._take(ActionKind.LAY_OUT, seat, positions, LaidOut)

    # reveal (the protocol input that turns a layout card)
    def verify_reveal(self, seat: int, card: Card | None) -> None:
        self.verify(ActionKind.REVEAL, seat, card)

    def can_reveal(self, seat: int, card: Card) -> bool:
        return self.can(ActionKind.REVEAL, seat, card)

    def reveal(self, seat: int, card: Card) -> CardRevealed:
        return self._take(ActionKind.REVEAL, seat, card, CardRevealed)

    def verify_check(self, seat: int) -> None:
        self.verify(ActionKind.CHECK, seat)

    def can_check(self, seat: int) -> bool:
        return self.can(ActionKind.CHECK, seat)

    def check(self, seat: int) -> Checked:
        return self._take(ActionKind.CHECK, seat, None, Checked)

    def verify_bet(self, seat: int, amount: int | None) -> None:
        self.verify(ActionKind.BET, seat, amount)

    def can_bet(self, seat: int, amount: int) -> bool:
        return self.can(ActionKind.BET, seat, amount)

    def bet(self, seat: int, amount: int) -> BetPlaced:
        return self._take(ActionKind.BET, seat, amount, BetPlaced)

    def verify_call(self, seat: int) -> None:
        self.verify(ActionKind.CALL, seat)

    def can_call(self, seat: int) -> bool:
        return self.can(ActionKind.CALL, seat)

    def call(self, seat: int) -> Called:
        return self._take(ActionKind.CALL, seat, None, Called)

    def verify_raise_to(self, seat: int, to: int | None) -> None:
        self.verify(ActionKind.RAISE, seat, to)

    def can_raise_to(self, seat: int, to: int) -> bool:
        return self.can(ActionKind.RAISE, seat, to)

    def raise_to(self, seat: int, to: int) -> Raised:
        """Raise so that the seat's total bet this round is `to`."""
        return self._take(ActionKind.RAISE, seat, to, Raised)

    def verify_fold(self, seat: int) -> None:
        self.verify(ActionKind.FOLD, seat)

    def can_fold(self, seat: int) -> bool:
        return self.can(ActionKind.FOLD, seat)

    def fold(self, seat: int) -> Folded:
        return self._take(ActionKind.FOLD, seat, None, Folded)

    def verify_all_in(self, seat: int) -> None:
        self.verify(ActionKind.ALL_IN, seat)

    def can_all_in(self, seat: int) -> bool:
        return self.can(ActionKind.ALL_IN, seat)

    def all_in(self, seat: int) -> WentAllIn:
        return self._take(ActionKind.ALL_IN, seat, None, WentAllIn)

    # timeout (input: the seat's action clock ran out)
    def verify_timeout(self, seat: int) -> None:
        self.verify(ActionKind.TIMEOUT, seat)

    def can_timeout(self, seat: int) -> bool:
        return self.can(ActionKind.TIMEOUT, seat)

    def timeout(self, seat: int) -> TimedOut:
        """Take the default action for `seat` (SPEC 3.9): the default of the hand's step (in a
        betting round check if free, else fold)."""
        return self._take(ActionKind.TIMEOUT, seat, None, TimedOut)

    # stall (input: after the deal, a player still in did not give a protocol step in time)
    def verify_stall(self, seat: int) -> None:
        self.verify(ActionKind.STALL, seat)

    def can_stall(self, seat: int) -> bool:
        return self.can(ActionKind.STALL, seat)

    def stall(self, seat: int) -> FoldedForStalling:
        """Fold `seat` out of turn; its bets stay in the pot and the hand goes on (SPEC 3.9)."""
        return self._take(ActionKind.STALL, seat, None, FoldedForStalling)

    @property
    def stalled(self) -> tuple[int, ...]:
        """Seats folded for stalling in this hand, in the order it happened."""
        return tuple(e.seat for e in self._events if isinstance(e, FoldedForStalling))

    # abort (input: before the deal is complete, the protocol stalled or a peer cheated)
    def verify_abort(self, blamed_seats: Sequence[int], reason: str) -> None:
        self.verify(ActionKind.ABORT, self._s.dealer, (tuple(blamed_seats), reason))

    def can_abort(self, blamed_seats: Sequence[int], reason: str) -> bool:
        return self.can(ActionKind.ABORT, self._s.dealer, (tuple(blamed_seats), reason))

    def abort(self, blamed_seats: Sequence[int], reason: str) -> HandAborted:
        """End the hand before the deal is complete, every stack back at its start (SPEC 3.10)."""
        blame = (tuple(blamed_seats), reason)
        return self._take(ActionKind.ABORT, self._s.dealer, blame, HandAborted)
