"""Simple opponents for measuring the bots: a random bettor, a calling station, a maniac, a rock.

Pure; no I/O. Each baseline bets in one fixed, simple way and plays its cards (announcing,
trading, laying out) as the `easy` bot does, so a matchup against it measures betting. They
answer the same `decide` / `initiative` calls as `Bot` and so sit at an arena table.
"""

from __future__ import annotations

import abc
import random
from collections.abc import Sequence

from p2pwillow.bots.betting import most_allowed
from p2pwillow.bots.decision import BotError, Decision, Knowledge, is_legal
from p2pwillow.bots.live import formation_of, is_live, valuer
from p2pwillow.bots.strategy import Bot
from p2pwillow.cards import DECK, Card
from p2pwillow.hands import Category, category_of, rank5, showing_value
from p2pwillow.rules import ActionKind, BetOptions, Hand, Phase
from p2pwillow.rules.live import Formation

__all__ = [
    "BASELINES",
    "Baseline",
    "CallingStation",
    "Maniac",
    "RandomBettor",
    "Rock",
    "live_category",
]

ROCK_CALLS = Category.TWO_PAIR
"""The rock calls a bet with this layout or better and folds anything less."""

ROCK_BETS = Category.THREE_OF_A_KIND
"""The rock bets and raises (the smallest amount) with this layout or better."""

ROCK_CALLS_EARLY = Category.ONE_PAIR
ROCK_BETS_EARLY = Category.TWO_PAIR
"""The same in a live-deck game while its cards and the board make fewer than five."""


BASELINE_SAMPLES = 40
"""Monte Carlo deals per decision of a baseline's cards (a declaration; a wash takes its own
few): a baseline is measured by its betting rule, and its cards need only sane play. The bot
under test takes its own deals (300 by default), which is what a match measures."""


class Baseline(abc.ABC):
    """A seat that bets by one fixed rule (`bet`); its cards are played by an `easy` bot."""

    name = "baseline"

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        self._cards = Bot(seat, rng, level="easy", samples=BASELINE_SAMPLES)

    def decide(self, hand: Hand, knowledge: Knowledge) -> Decision:
        """The action this seat takes now (the engine must be waiting for it)."""
        if hand.phase is not Phase.BETTING:
            return self._cards.decide(hand, knowledge)
        options = hand.bet_options(self.seat)
        if options is None:
            raise BotError(f"the hand is not waiting for seat {self.seat} to bet")
        decision = self.bet(hand, knowledge, options)
        if not is_legal(hand, self.seat, decision):
            raise BotError(f"the {self.name} at seat {self.seat} chose an illegal {decision}")
        return decision

    def initiative(self, hand: Hand, knowledge: Knowledge) -> Decision | None:
        """An action it takes unasked (trading only, as the `easy` bot would)."""
        return self._cards.initiative(hand, knowledge)

    @abc.abstractmethod
    def bet(self, hand: Hand, knowledge: Knowledge, o: BetOptions) -> Decision:
        """Its answer when it must bet, check, call, raise or fold, given its options `o`."""


def _check_or_call(o: BetOptions) -> Decision:
    return Decision(ActionKind.CHECK if o.can_check else ActionKind.CALL)


class RandomBettor(Baseline):
    """Picks uniformly among the betting actions open to it (never folds when it may check),
    with an amount uniform over the allowed range."""

    name = "random"

    def bet(self, hand: Hand, knowledge: Knowledge, o: BetOptions) -> Decision:
        choices: list[Decision] = [_check_or_call(o)]
        if not o.can_check:
            choices.append(Decision(ActionKind.FOLD))
        if o.bet_min is not None and o.bet_max is not None:
            amount = self.rng.randint(o.bet_min, o.bet_max)
            choices.append(Decision(ActionKind.BET, amount=amount))
        if o.raise_min is not None and o.raise_max is not None:
            amount = self.rng.randint(o.raise_min, o.raise_max)
            choices.append(Decision(ActionKind.RAISE, amount=amount))
        return self.rng.choice(choices)


class CallingStation(Baseline):
    """Never bets, never raises, never folds: checks when it may and calls every bet."""

    name = "station"

    def bet(self, hand: Hand, knowledge: Knowledge, o: BetOptions) -> Decision:
        return _check_or_call(o)


class Maniac(Baseline):
    """Bets and raises the most allowed whenever it can (all in where that is the most); calls
    otherwise. Its bets say nothing about its cards."""

    name = "maniac"

    def bet(self, hand: Hand, knowledge: Knowledge, o: BetOptions) -> Decision:
        most = most_allowed(hand, o)
        return _check_or_call(o) if most is None else most


class Rock(Baseline):
    """Plays only its own layout: bets and raises the least with trips or better, calls with
    two pair or better, folds anything else to a bet, and never bluffs. In a game of the live
    deck it plays what its cards and the board make (`live_category`): the same while they
    make a five-card hand, and before that (hold'em and Omaha before the flop, stud's first
    two rounds) it bets two pair or better and calls with a pair."""

    name = "rock"

    def bet(self, hand: Hand, knowledge: Knowledge, o: BetOptions) -> Decision:
        if is_live(hand.game):
            category, whole = live_category(hand, knowledge.cards)
        else:
            layout = self._cards.layout_cards(hand, knowledge)
            category, whole = category_of(rank5([card.index for card in layout])), True
        bets, calls = (ROCK_BETS, ROCK_CALLS) if whole else (ROCK_BETS_EARLY, ROCK_CALLS_EARLY)
        if category >= bets:
            if o.can_check and o.bet_min is not None:
                return Decision(ActionKind.BET, amount=o.bet_min)
            if not o.can_check and o.raise_min is not None:
                return Decision(ActionKind.RAISE, amount=o.raise_min)
        if o.can_check:
            return Decision(ActionKind.CHECK)
        return Decision(ActionKind.CALL if category >= calls else ActionKind.FOLD)


def live_category(hand: Hand, cards: Sequence[Card]) -> tuple[Category, bool]:
    """The category of what a seat holding `cards` makes now in a live-deck game, and whether
    it is a whole five-card hand: the best five of its cards and the board by the game's
    formation once there are five, else its pairs, trips and quads (as stud ranks the cards
    showing, SPEC 2.5)."""
    game = hand.game
    assert game is not None
    formation = formation_of(game)
    board = [card.index for card in hand.state.board]
    own = [card.index for card in cards]
    if formation is Formation.OMAHA:
        if len(board) >= 3 and len(own) >= 2:
            return category_of(valuer(formation)(own, board)), True
        board = []
    pool = own + board
    if len(pool) >= 5:
        return category_of(valuer(Formation.BEST_FIVE)(pool, [])), True
    if not pool:
        return Category.HIGH_CARD, False
    return category_of(showing_value(DECK[i] for i in pool).key), False


BASELINES: dict[str, type[Baseline]] = {
    cls.name: cls for cls in (RandomBettor, CallingStation, Maniac, Rock)
}
"""The baselines by name, as the benchmark lines `bots.vs_<name>` name them."""
