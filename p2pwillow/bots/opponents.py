"""What a bot learns about each opponent over a game: how often it bets, raises and folds, and
how strong the layouts it showed down were for the way it had bet (SPEC 9, Opponents).

Pure; no I/O. The model reads only what every player sees: the public events of each hand it
is shown and the layouts turned face up at a showdown. Its one source of randomness is the
`random.Random` it is given, used to score shown-down layouts.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass, field

from p2pwillow.cards import DECK, Card
from p2pwillow.games.roll_your_own import LAYOUT
from p2pwillow.hands import rank5
from p2pwillow.rules import (
    BetPlaced,
    BettingClosed,
    BettingOpened,
    BettingSkipped,
    BettingStructure,
    Called,
    Checked,
    Event,
    Folded,
    Hand,
    HandEnded,
    Raised,
    TimedOut,
    Wager,
    WentAllIn,
)
from p2pwillow.rules.live import Settle
from p2pwillow.rules.streets import Showdown

__all__ = ["Line", "OpponentModel", "Read"]

PRIOR_CHANCES = 3.0
"""Pseudo-hands behind every rate before the opponent has shown anything."""

PRIOR_AGGRESSION = 1 / 3
"""Its assumed share of hands with a bet or raise, before any are seen."""

PRIOR_FOLDS = 0.4
"""Its assumed share of folds among hands in which it faces a bet, before any are seen."""

PRIOR_RAISES = 0.2
"""Its assumed share of raises among hands in which it may raise a bet, before any are seen."""

MIN_FACTOR, MAX_FACTOR = 0.3, 8.0
"""The range of a line's factor."""

PRIOR_TRACKING = 4.0
"""Pseudo-observations behind the belief that a player's bets follow its cards."""

TRACKING_GAP = 0.08
"""How much higher the mean score (`_score`) of a player's layouts is at showdowns after it
bet than after it did not, for a player who bets its strong hands (measured among the bots):
a gap this big or more says its bets follow its cards, none says they do not."""

SCORE_DRAWS = 64
"""Random completions used to score how strong a shown-down layout was (see `_score`)."""

LIVE_SCORE_DRAWS = 24
"""Random hands a live-deck game's shown-down hand is scored against (`_score_live`): only
the gap between the lines' mean scores is read (`tracking`), and an Omaha hand costs sixty
five-card values."""

PRIOR_SHOWN = 16.0
"""Pseudo-layouts behind the layout table and the line's factor: with n of its own layouts
seen for a round and line, the equity draws its layout from them n / (n + PRIOR_SHOWN) of the
time (`Read.shown`)."""

KEPT_SCORES = 400
"""Scores kept per round and line (the last ones): enough to draw from, cheap to keep."""


class Line(enum.IntEnum):
    """The way a player has played the hand so far."""

    WAITING = 0
    """No betting action yet."""
    CHECKED = 1
    """Checked, never bet, raised nor called."""
    CALLED = 2
    """Called at least one bet, never bet or raised."""
    BET = 3
    """Bet at least once, never raised."""
    RAISED = 4
    """Raised at least once."""


@dataclass(frozen=True, slots=True)
class Read:
    """What the model says about one opponent now."""

    line: Line
    factor: float
    """How much stronger than the layout table its layout is, given its line
    (`OpponentView.factor`)."""
    aggression: float
    """Its share of hands with a bet or raise among those where it could make one."""
    fold_rate: float
    """Its share of folds among the hands in which it faced a bet."""
    tracking: float
    """How far its bets follow its cards, 0..1, from what it showed down."""
    bet_size: float
    """Its mean bet or raise increment this game (0 before it has bet)."""
    showdowns: int
    shown: tuple[float, ...] = ()
    """The scores (`OpponentModel._score`) of its layouts that ended face up, as they stood
    at this round after it played the round as it has now (`_Tally.scores_for`)."""
    shown_weight: float = 0.0
    """How far to believe them over the layout table and the factor: n / (n + PRIOR_SHOWN)."""


@dataclass(slots=True)
class _Tally:
    """One opponent's counts over the game."""

    chances: int = 0
    """Hands in which it could bet or raise at least once (SPEC 9: rates count hands, as a
    strong hand makes many decisions and a weak one few)."""
    made: int = 0
    """Hands in which it bet or raised."""
    faced: int = 0
    """Hands in which it faced a bet."""
    folds: int = 0
    """Hands in which it folded to a bet."""
    raisable: int = 0
    """Hands in which it faced a bet it could raise (the raise cap not reached)."""
    raises: int = 0
    """Hands in which it raised."""
    wagered: int = 0
    """Chips of all its bets and raise increments."""
    wagers: int = 0
    """Its bets and raises."""
    showdowns: int = 0
    scored: list[int] = field(default_factory=lambda: [0] * len(Line))
    """Shown-down layouts scored after a round ended with it in each line."""
    scores: list[float] = field(default_factory=lambda: [0.0] * len(Line))
    """Their scores, summed."""
    shown: list[list[list[float]]] = field(
        default_factory=lambda: [[[] for _ in Line] for _ in range(LAYOUT)]
    )
    """Per round (1..4; index 0 unused) and line at the end of that round, the scores of its
    layouts that ended face up, the last KEPT_SCORES of each."""

    def add_score(self, betting_round: int, line: Line, score: float) -> None:
        """File a layout scored at `betting_round`, its line at the end of that round."""
        kept = self.shown[betting_round][line]
        kept.append(score)
        if len(kept) > KEPT_SCORES:
            del kept[0]

    def scores_for(self, betting_round: int, line: Line) -> tuple[float, ...]:
        """Its layouts' scores at `betting_round` after it played that round as `line`; for a
        player that has not acted yet (WAITING) every line's (it has said nothing)."""
        if not 1 <= betting_round < LAYOUT:
            return ()
        cells = self.shown[betting_round]
        if line is Line.WAITING:
            return tuple(score for cell in cells for score in cell)
        return tuple(cells[line])

    @property
    def aggression(self) -> float:
        """Its share of bets or raises among the hands in which it could make one."""
        return (self.made + PRIOR_CHANCES * PRIOR_AGGRESSION) / (self.chances + PRIOR_CHANCES)

    @property
    def fold_rate(self) -> float:
        """Its share of folds among the hands in which it faced a bet."""
        return (self.folds + PRIOR_CHANCES * PRIOR_FOLDS) / (self.faced + PRIOR_CHANCES)

    @property
    def raise_rate(self) -> float:
        """Its share of raises among the hands in which it faced a bet it could raise."""
        return (self.raises + PRIOR_CHANCES * PRIOR_RAISES) / (self.raisable + PRIOR_CHANCES)

    @property
    def tracking(self) -> float:
        """How far its bets follow its cards: the gap between the mean scores of its layouts
        shown down after it bet and after it did not, against TRACKING_GAP, believed at 1
        (they follow its cards) until both kinds of showdown were seen."""
        bet = self.scored[Line.BET] + self.scored[Line.RAISED]
        rest = self.scored[Line.CHECKED] + self.scored[Line.CALLED]
        if not bet or not rest:
            return 1.0
        gap = (self.scores[Line.BET] + self.scores[Line.RAISED]) / bet
        gap -= (self.scores[Line.CHECKED] + self.scores[Line.CALLED]) / rest
        seen = min(bet, rest)
        measured = min(1.0, max(0.0, gap / TRACKING_GAP))
        return (PRIOR_TRACKING + seen * measured) / (PRIOR_TRACKING + seen)

    def factor(self, line: Line) -> float:
        """The line's factor (SPEC 9, Opponents): if a player bets with its best hands, a bet
        says its hand is in the best `aggression` share of them, a raise in the best
        `raise_rate`, a call in the best (1 - fold rate), a check in the rest; a share s at
        the top is about as strong as the best of (2 - s) / s draws. The factor is that, to
        the power of how far its bets follow its cards."""
        q = min(1.0, max(0.05, self.aggression))
        if line is Line.RAISED:
            q = min(1.0, max(0.05, self.raise_rate))
            prior = (2.0 - q) / q
        elif line is Line.BET:
            prior = (2.0 - q) / q
        elif line is Line.CALLED:
            keep = min(1.0, max(0.05, 1.0 - self.fold_rate))
            prior = (2.0 - keep) / keep
        elif line is Line.CHECKED:
            prior = (1.0 - q) / (1.0 + q)
        else:
            prior = 1.0
        prior = min(MAX_FACTOR, max(MIN_FACTOR, prior))
        return float(prior**self.tracking)


@dataclass(slots=True)
class _Watch:
    """The hand being followed: how far its events are read, and the betting so far."""

    hand: Hand
    read: int = 0
    current_bet: int = 0
    round_raises: int = 0
    """Full raises this round, for the cap of spread and fixed limit (SPEC 3.7.4)."""
    round_bets: dict[int, int] = field(default_factory=dict)
    made: set[int] = field(default_factory=set)
    """Seats that bet or raised this hand."""
    raised: set[int] = field(default_factory=set)
    called: set[int] = field(default_factory=set)
    checked: set[int] = field(default_factory=set)
    counted: set[tuple[int, str]] = field(default_factory=set)
    """(seat, what) already counted this hand: each rate counts a hand once."""

    def first(self, seat: int, what: str) -> bool:
        """True the first time `what` happens to `seat` this hand."""
        if (seat, what) in self.counted:
            return False
        self.counted.add((seat, what))
        return True

    lines: dict[int, dict[int, Line]] = field(default_factory=dict)
    """Per betting round that ended, each seat's line at its end."""
    own_cards: tuple[Card, ...] = ()
    """The watching bot's cards, last seen: they are not in anyone else's layout."""
    done: bool = False

    def line(self, seat: int) -> Line:
        if seat in self.raised:
            return Line.RAISED
        if seat in self.made:
            return Line.BET
        if seat in self.called:
            return Line.CALLED
        return Line.CHECKED if seat in self.checked else Line.WAITING


class OpponentModel:
    """Every other seat's betting and shown-down strength over one game, for one bot."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        self._tallies: dict[int, _Tally] = {}
        self._watch: _Watch | None = None

    def observe(self, hand: Hand, own_cards: tuple[Card, ...] = ()) -> None:
        """Read what happened since the last look; a new hand first finishes the last one."""
        watch = self._watch
        if watch is None or watch.hand is not hand:
            if watch is not None:
                self._catch_up(watch)
            watch = self._watch = _Watch(hand)
        if own_cards:
            watch.own_cards = own_cards
        self._catch_up(watch)

    def read(self, seat: int) -> Read:
        """What the model says about `seat` now (its line in the hand being watched)."""
        tally = self._tallies.get(seat) or _Tally()
        watch = self._watch
        line = watch.line(seat) if watch is not None else Line.WAITING
        betting_round = watch.hand.betting_round if watch is not None else 0
        shown = tally.scores_for(betting_round, line)
        return Read(
            line=line,
            factor=tally.factor(line),
            aggression=tally.aggression,
            fold_rate=tally.fold_rate,
            tracking=tally.tracking,
            bet_size=tally.wagered / max(1, tally.wagers),
            showdowns=tally.showdowns,
            shown=shown,
            shown_weight=len(shown) / (len(shown) + PRIOR_SHOWN),
        )

    # --- reading events --------------------------------------------------------------------

    def _tally(self, seat: int) -> _Tally:
        tally = self._tallies.get(seat)
        if tally is None:
            tally = self._tallies[seat] = _Tally()
        return tally

    def _catch_up(self, watch: _Watch) -> None:
        if watch.done:
            return
        events = watch.hand.events
        for event in events[watch.read :]:
            self._event(watch, event)
        watch.read = len(events)

    def _event(self, watch: _Watch, event: Event) -> None:
        if isinstance(event, TimedOut):
            self._event(watch, event.outcome)
        elif isinstance(event, BettingOpened):
            watch.current_bet = 0
            watch.round_raises = 0
            watch.round_bets = {}
        elif isinstance(event, BettingClosed | BettingSkipped):
            watch.lines[event.betting_round] = {s: watch.line(s) for s in watch.hand.seats}
        elif isinstance(event, HandEnded):
            self._showdown(watch)
            watch.done = True
        elif isinstance(event, Checked | BetPlaced | Called | Raised | Folded | WentAllIn):
            self._action(watch, event)

    def _action(
        self, watch: _Watch, event: Checked | BetPlaced | Called | Raised | Folded | WentAllIn
    ) -> None:
        seat = event.seat
        tally = self._tally(seat)
        before = watch.round_bets.get(seat, 0)
        facing = watch.current_bet > before
        cfg = watch.hand.config
        limited = cfg.structure in (BettingStructure.SPREAD_LIMIT, BettingStructure.FIXED_LIMIT)
        capped = facing and limited and watch.round_raises >= cfg.max_raises
        if facing and watch.first(seat, "faced"):
            tally.faced += 1
        if facing and not capped and watch.first(seat, "raisable"):
            tally.raisable += 1
        if not capped and watch.first(seat, "chance"):
            tally.chances += 1
        kind = event.as_action if isinstance(event, WentAllIn) else None
        if isinstance(event, Folded):
            tally.folds += facing
            return
        if isinstance(event, Checked):
            watch.checked.add(seat)
            return
        if isinstance(event, Called) or kind is Wager.CALL:
            watch.called.add(seat)
            watch.round_bets[seat] = before + event.amount
            return
        # a bet or a raise, all in or not
        to = event.amount if isinstance(event, BetPlaced) else event.to
        if facing:
            full = not isinstance(event, WentAllIn) or event.full
            watch.round_raises += full
            if seat not in watch.raised:
                tally.raises += 1
            watch.raised.add(seat)
        if seat not in watch.made:
            tally.made += 1
        watch.made.add(seat)
        tally.wagered += max(0, to - watch.current_bet)
        tally.wagers += 1
        watch.round_bets[seat] = to
        watch.current_bet = max(watch.current_bet, to)

    # --- showdowns -------------------------------------------------------------------------

    def _showdown(self, watch: _Watch) -> None:
        """Score every opponent whose whole layout ended face up (shown down, or folded after
        the last card was turned), for its line after each round."""
        hand = watch.hand
        if hand.game is None or not hand.game.steps_of(Showdown):
            self._showdown_live(watch)
            return
        unseen = set(range(52)) - {card.index for card in watch.own_cards}
        for seat in hand.seats:
            layout = hand.showing(seat)
            if seat == self.seat or len(layout) < LAYOUT:
                continue
            tally = self._tally(seat)
            tally.showdowns += 1
            key = rank5([card.index for card in layout])
            for betting_round in range(1, LAYOUT):
                lines = watch.lines.get(betting_round)
                if lines is None:
                    continue
                shown = [card.index for card in layout[:betting_round]]
                line = lines.get(seat, Line.WAITING)
                score = self._score(shown, key, sorted(unseen - set(shown)))
                tally.scored[line] += 1
                tally.scores[line] += score
                tally.add_score(betting_round, line, score)

    def _showdown_live(self, watch: _Watch) -> None:
        """A game of the live deck (SPEC 3.14) shows each player's own cards at its end, not a
        layout turned card by card: every opponent that showed all its cards is scored by its
        final hand (`_score_live`) and filed for its line after each betting round, which is
        what `tracking` reads (the round-by-round table, `Read.shown`, is Weeping Willow's)."""
        hand = watch.hand
        game = hand.game
        settle = [step for step in game.script if isinstance(step, Settle)] if game else []
        if not settle:
            return
        board = tuple(hand.state.board)
        for seat in hand.seats:
            shown = hand.showing(seat)
            if seat == self.seat or hand.is_folded(seat) or len(shown) != hand.hand_size(seat):
                continue
            # a random hand beside the same board: any card but these (eight players of
            # seven-card stud leave too few unseen cards to deal one from them)
            pool = [card for card in DECK if card not in board and card not in shown]
            score = self._score_live(settle[0], shown, board, pool)
            tally = self._tally(seat)
            tally.showdowns += 1
            for betting_round in sorted(watch.lines):
                line = watch.lines[betting_round].get(seat, Line.WAITING)
                tally.scored[line] += 1
                tally.scores[line] += score

    def _score_live(
        self,
        settle: Settle,
        own: tuple[Card, ...],
        board: tuple[Card, ...],
        pool: list[Card],
    ) -> float:
        """The chance that as many random own cards beside the same board make less than
        `own` by the game's showdown, 0..1 (ties count half)."""
        key = settle.value(own, board)
        below = 0.0
        for _ in range(LIVE_SCORE_DRAWS):
            other = settle.value(self.rng.sample(pool, len(own)), board)
            below += 1.0 if other < key else 0.5 if other == key else 0.0
        return (below + 0.5) / (LIVE_SCORE_DRAWS + 1)

    def _score(self, shown: list[int], key: int, pool: list[int]) -> float:
        """The chance that random face-down cards beside `shown` make less than `key`: how
        strong a layout was for what it showed at that point, 0..1 (ties count half)."""
        need = LAYOUT - len(shown)
        below = 0.0
        for _ in range(SCORE_DRAWS):
            drawn = self.rng.sample(pool, need)
            other = rank5(shown + drawn)
            below += 1.0 if other < key else 0.5 if other == key else 0.0
        return (below + 0.5) / (SCORE_DRAWS + 1)
