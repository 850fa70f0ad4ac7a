"""Hand strength for the bots: percentile strength, trade estimates and Monte Carlo equity.

Pure computation, no I/O; randomness comes only from the `random.Random` passed in. Cards are
handled as canonical indices (SPEC 2.1) and ranked with the fast `hands.rank5/6/7`.
"""

from __future__ import annotations

import functools
import math
import random
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from p2pwillow.bots.decision import BotError
from p2pwillow.cards import Card
from p2pwillow.hands import rank5, rank6, rank7

__all__ = [
    "GIVEN_WEIGHT",
    "MAX_AGGRESSION",
    "MAX_DRAWS",
    "MAX_TRADE_DRAWS",
    "PRIOR_DRAWS",
    "OpponentView",
    "TradeEstimate",
    "best_layout_key",
    "equity",
    "estimate_trade",
    "layout_draws",
    "prior_draws",
    "rank_any",
    "strength",
]

RANKERS: dict[int, Callable[[Sequence[int]], int]] = {5: rank5, 6: rank6, 7: rank7}

GIVEN_WEIGHT = 0.6
"""Chance that a card this bot passed to an opponent is among that opponent's hidden cards."""

PRIOR_DRAWS = 4
"""Extra draws every opponent gets: players lay out the best five of what they hold, after
trading, and reveal the cards that tell least first, so the hidden part of a layout is much
stronger than random cards (measured among the bots: the median layout beats about 90% of
random five-card deals; the best of 1 + PRIOR_DRAWS + its other draws matches that)."""

MAX_TRADE_DRAWS = 3
"""The most extra draws an opponent's trades earn it (each trade was a try to improve)."""

MAX_AGGRESSION = 3
"""The most extra draws an opponent's bets and raises earn it (see OpponentView)."""

MAX_DRAWS = 40
"""The most draws an opponent model's factor may give one opponent (the fixed-rule sampler
of `equity` without `ranked`)."""

MAX_BEST_OF = 5_000.0
"""The most deals an opponent model's view may say a layout is the best of (`ranked`)."""

RANKED_DEALS = 256
"""With `ranked=True`: random deals of the hidden layout cards ranked per opponent and call
(at least; see TAIL_DEALS); a layout that is the best of d deals is drawn as the best of d of
these (see `equity`)."""

TAIL_DEALS = 8
MAX_RANKED_DEALS = 4_096
"""A layout read as the best of d deals is drawn from at least TAIL_DEALS * d ranked deals
(up to MAX_RANKED_DEALS), so the top 1/d of them, where it lies, holds several: a very
strong layout is not cut down to the best of a few hundred random ones."""

LAYOUT_DRAWS: dict[int, tuple[float, ...]] = {
    5: (7.2, 4.4, 4.0, 3.2),
    6: (7.8, 7.4, 8.1, 7.6),
    7: (12.3, 19.0, 24.0, 24.0),
}
"""By deal size, the draws (best of d random deals) of an opponent's 1, 2, 3 and 4 face-down
layout cards that make the equity right against the bots' own layouts: fitted to the
outcomes of 36,000 spots from easy bots' games (heads-up and four-handed) for the least
squared error. The last face-down cards are the core of a layout, and a bigger deal picks
its layout from more cards, so both need many draws."""

TRADE_FACTORS = (0.9, 1.8, 1.05, 0.7)
"""The same, by trades the player made (0, 1, 2, 3 or more): a hand traded often was a poor
one to begin with."""

DRAW_BUDGET = 6_000
"""At most about this many opponent deals per equity call: `samples` is cut to fit."""

MIN_SAMPLES = 80
"""The fewest samples the budget may leave."""

RANKED_BUDGET = 1_200
"""With `ranked=True`: at most about this many opponent layouts drawn per equity call,
`samples` cut to fit (at least MIN_SAMPLES); heads-up and four-handed it never cuts."""

_TABLE_SAMPLES = 12_000
_TABLE_SEED = 0x57111  # fixed: the strength scale is a constant, not a random draw


def rank_any(indices: Sequence[int]) -> int:
    """The hand key of the best five of 5 to 7 distinct card indices (bigger is better)."""
    ranker = RANKERS.get(len(indices))
    if ranker is None:
        raise BotError(f"a hand to rank has 5 to 7 cards, not {len(indices)}")
    return ranker(indices)


@functools.cache
def _table(n: int) -> tuple[tuple[int, ...], dict[int, float]]:
    """Sorted keys of random best-of-n hands, and the percentile of every key seen."""
    rng = random.Random(_TABLE_SEED + n)
    ranker = RANKERS[n]
    deck = list(range(52))
    found: list[int] = []
    while len(found) < _TABLE_SAMPLES:
        # One shuffle deals several disjoint hands, as a real deal would.
        rng.shuffle(deck)
        found.extend(ranker(deck[at : at + n]) for at in range(0, 52 - n + 1, n))
    keys = tuple(sorted(found[:_TABLE_SAMPLES]))
    size = 2 * len(keys)
    percentile = {key: (bisect_left(keys, key) + bisect_right(keys, key)) / size for key in keys}
    return keys, percentile


def strength(key: int, n: int = 5) -> float:
    """The share (0..1) of random n-card deals whose best hand is below `key`, ties half.

    A smooth scale for "how good is this hand" that adds and averages sensibly, unlike keys.
    """
    if n not in RANKERS:
        raise BotError(f"strength is measured against 5- to 7-card deals, not {n}")
    keys, percentile = _table(n)
    value = percentile.get(key)
    if value is None:
        value = (bisect_left(keys, key) + bisect_right(keys, key)) / (2 * len(keys))
    return value


@dataclass(frozen=True, slots=True)
class TradeEstimate:
    """The best k cards to give from a hand, and the expected strength before and after."""

    k: int
    give: tuple[int, ...]
    """Hand positions to give, ascending: the k cards whose loss costs least."""
    before: float
    after: float
    """Mean strength with `give` swapped for k cards drawn from the unseen ones."""

    @property
    def gain(self) -> float:
        return self.after - self.before


def estimate_trade(
    cards: Sequence[Card],
    k: int,
    unseen: Iterable[Card],
    rng: random.Random,
    draws: int = 24,
) -> TradeEstimate:
    """Which k cards of `cards` to trade away, by a small Monte Carlo.

    Every k-subset is scored by the mean strength of the hand after replacing it with k cards
    from `unseen`, using the same `draws` replacement draws for every subset (common random
    numbers), so pairs, trips and four-card flush or straight draws are kept whenever keeping
    them is better on the same cards.
    """
    idx = [card.index for card in cards]
    n = len(idx)
    if n not in RANKERS:
        raise BotError(f"a hand to trade from has 5 to 7 cards, not {n}")
    if not 1 <= k <= n:
        raise BotError(f"a trade is 1 to {n} cards, not {k}")
    held = set(idx)
    pool = sorted({card.index for card in unseen} - held)
    if len(pool) < k or draws < 1:
        raise BotError(f"cannot draw {k} replacement cards from {len(pool)} unseen ones")
    ranker = RANKERS[n]
    keys, percentile = _table(n)
    size = 2 * len(keys)
    get = percentile.get

    def pct(key: int) -> float:
        value = get(key)
        if value is None:
            value = (bisect_left(keys, key) + bisect_right(keys, key)) / size
        return value

    samples = [tuple(rng.sample(pool, k)) for _ in range(draws)]
    before = pct(ranker(idx))
    best_give: tuple[int, ...] = ()
    best_after = -1.0
    for give in combinations(range(n), k):
        kept = tuple(c for i, c in enumerate(idx) if i not in give)
        total = 0.0
        for drawn in samples:
            total += pct(ranker(kept + drawn))
        after = total / draws
        if after > best_after:
            best_give, best_after = give, after
    return TradeEstimate(k, best_give, before, best_after)


@dataclass(frozen=True, slots=True)
class OpponentView:
    """One opponent still in the hand, as this bot sees it."""

    showing: tuple[Card, ...]
    hand_size: int
    """Cards dealt to it (5..7): a bigger deal lets it pick its layout from more cards."""
    given: tuple[Card, ...] = ()
    """Cards this bot passed to it that are still face down somewhere."""
    aggression: int = 0
    """Its bets and raises this hand: a player who puts chips in holds more than a random
    deal, so each one (up to MAX_AGGRESSION) earns it one more draw (see `equity`)."""
    trades: int = 0
    """Trades it made this hand; each (up to MAX_TRADE_DRAWS) earns it one more draw."""
    factor: float | None = None
    """How much stronger than `LAYOUT_DRAWS` say its layout is, as an opponent model reads
    the way it has bet (1.0: as strong as the table says); its draws are then the table's
    times this factor, and `aggression` is not counted again. None: the fixed rule of
    `prior_draws` and one more draw per bet or raise."""
    given_weight: float | None = None
    """Chance that each card in `given` is among its face-down layout cards; None: the
    weight the equity call is given."""
    shown: tuple[float, ...] = ()
    """Scores of layouts it showed before in the same spot (an opponent model's `Read.shown`):
    with `ranked`, `shown_weight` of the time its layout is drawn at one of them, as the
    share of random deals of its hidden cards that it beats."""
    shown_weight: float = 0.0

    @property
    def best_of(self) -> float:
        """How many random deals of its hidden layout cards its layout is the best of, unrounded
        (an opponent model's view; 1.0 for the fixed rule's view, which uses `draws`)."""
        if len(self.showing) >= 5 or self.factor is None:
            return 1.0
        chosen = layout_draws(len(self.showing), self.hand_size, self.trades)
        return min(MAX_BEST_OF, max(1.0, self.factor * chosen))

    @property
    def draws(self) -> int:
        """Draws of its hidden layout cards per sample; it keeps the best."""
        if len(self.showing) >= 5:
            return 1
        if self.factor is not None:
            chosen = layout_draws(len(self.showing), self.hand_size, self.trades)
            return min(MAX_DRAWS, max(1, round(self.factor * chosen)))
        aggression = min(MAX_AGGRESSION, max(0, self.aggression))
        return prior_draws(len(self.showing), self.hand_size, self.trades) + aggression


def prior_draws(showing: int, hand_size: int, trades: int) -> int:
    """The fixed rule's draws of a player's hidden layout cards before its bets count.

    The prior and its trades say the whole layout is better than random; the fewer cards are
    still face down, the less room that leaves, so they scale with them.
    """
    if showing >= 5:
        return 1
    hidden = 5 - showing
    chosen = PRIOR_DRAWS + (hand_size - 5) + min(MAX_TRADE_DRAWS, max(0, trades))
    return 1 + (chosen * hidden + 3) // 4


def layout_draws(showing: int, hand_size: int, trades: int) -> float:
    """Draws of a player's hidden layout cards that match how the bots lay out (LAYOUT_DRAWS).

    Not rounded: an opponent model's factor multiplies it first.
    """
    if showing >= 5:
        return 1.0
    by_hidden = LAYOUT_DRAWS.get(hand_size, LAYOUT_DRAWS[7])
    return by_hidden[4 - showing] * TRADE_FACTORS[min(len(TRADE_FACTORS) - 1, max(0, trades))]


def best_layout_key(cards: Sequence[Card]) -> int:
    """The key of exactly five layout cards."""
    if len(cards) != 5:
        raise BotError(f"a layout is 5 cards, not {len(cards)}")
    return rank5([card.index for card in cards])


def equity(
    layout: Sequence[Card],
    opponents: Sequence[OpponentView],
    dead: Iterable[Card],
    rng: random.Random,
    samples: int = 300,
    given_weight: float = GIVEN_WEIGHT,
    *,
    ranked: bool = False,
) -> float:
    """This bot's share of the pot at showdown, estimated against every opponent at once.

    `layout` is the bot's five layout cards; `dead` every other card it knows is not in an
    opponent's hidden cards (its own discards, every card showing, folded or not). Each
    sample deals every opponent its 5 - showing hidden layout cards from the unseen cards
    (each card this bot passed to it is among them with chance `given_weight`); an opponent
    with `draws` > 1 is dealt that many times and keeps its best five, as a player picks
    its layout from a bigger deal and a player who bets holds more than a random hand.
    A win counts 1, a tie among w players 1/w.

    With `ranked` (an opponent model's views, normal and hard) an opponent's layout is drawn
    as the best of `best_of` deals from ranked deals of its hidden cards, or from the layouts
    it showed before (`_ranked_share`), and `draws` is not used.
    """
    mine = [card.index for card in layout]
    if len(mine) != 5 or len(set(mine)) != 5:
        raise BotError("equity needs the five distinct layout cards")
    if samples < 1:
        raise BotError(f"equity needs at least one sample, not {samples}")
    if not opponents:
        return 1.0
    my_key = rank5(mine)
    known = set(mine) | {card.index for card in dead}
    for opp in opponents:
        if opp.hand_size not in RANKERS or not 1 <= len(opp.showing) <= 5:
            raise BotError("an opponent holds 5 to 7 cards and shows 1 to 5 of them")
        faces = {card.index for card in opp.showing}
        if len(faces) != len(opp.showing) or faces & set(mine):
            raise BotError("a card showing at an opponent is twice, or in this bot's layout")
        known.update(faces)
    # (cards showing, hidden layout cards, cards it may hold from this bot, draws)
    views = [
        (
            [card.index for card in opp.showing],
            5 - len(opp.showing),
            # A card may have travelled back and forth: each card once.
            list(dict.fromkeys(card.index for card in opp.given if card.index not in known)),
            opp.draws,
        )
        for opp in opponents
    ]
    weights = [given_weight if opp.given_weight is None else opp.given_weight for opp in opponents]
    pool = [i for i in range(52) if i not in known]
    if sum(view[1] for view in views) > len(pool):
        raise BotError("the opponents hold more hidden cards than there are unseen cards")
    if all(view[1] == 0 for view in views):
        samples = 1  # everything is face up: one exact evaluation
    elif ranked:
        return _ranked_share(my_key, opponents, views, weights, pool, rng, samples)
    else:
        # Keep one decision fast at big tables: cap the opponent deals per call.
        samples = min(samples, max(MIN_SAMPLES, DRAW_BUDGET // sum(view[3] for view in views)))
    any_given = any(view[2] for view in views)
    share = 0.0
    for _ in range(samples):
        rng.shuffle(pool)
        claimed: set[int] = set()
        forced: list[list[int]] = []
        for (_, need, live, _), weight in zip(views, weights, strict=True):
            picks: list[int] = []
            if any_given and need:
                picks = [c for c in live if c not in claimed and rng.random() < weight]
                picks = picks[:need]
                claimed.update(picks)
            forced.append(picks)
        # First draws are disjoint: they come off the shuffled pool in turn.
        free = [c for c in pool if c not in claimed] if claimed else pool
        at = 0
        keys: list[int] = []
        for j, (shown, need, _, _) in enumerate(views):
            want = need - len(forced[j])
            keys.append(rank5(shown + forced[j] + free[at : at + want]))
            at += want
        # Further draws come from the cards no first draw used, in windows over them (cheaper
        # than a fresh sample each; the pool was shuffled for this sample already).
        rest = free[at:]
        at = 0
        for j, (shown, need, _, draws) in enumerate(views):
            want = need - len(forced[j])
            if draws > 1 and want <= len(rest):
                for _ in range(draws - 1):
                    if at + want > len(rest):
                        rng.shuffle(rest)
                        at = 0
                    key = rank5(shown + forced[j] + rest[at : at + want])
                    at += want
                    if key > keys[j]:
                        keys[j] = key
        share += _share_of(my_key, keys)
    return share / samples


def _share_of(my_key: int, keys: Sequence[int]) -> float:
    """The bot's share of a pot its layout `my_key` contests against the opponents' `keys`:
    1 for a win, 1/w for a tie among w players, 0 for a loss."""
    best = max(keys)
    if my_key > best:
        return 1.0
    if my_key == best:
        return 1.0 / (keys.count(best) + 1)
    return 0.0


def _ranked_share(
    my_key: int,
    opponents: Sequence[OpponentView],
    views: list[tuple[list[int], int, list[int], int]],
    weights: list[float],
    pool: list[int],
    rng: random.Random,
    samples: int,
) -> float:
    """`equity` for an opponent model's views: each opponent's layout is the best of
    `best_of` deals of its hidden cards, drawn from RANKED_DEALS ranked deals (the best of d
    uniform picks among them), so a layout the model reads as very strong costs no more
    than a weak one. Cards a bot passed to an opponent are dealt to it first, each with its
    chance, as in `equity`; the deals of the other hidden cards are shared by every opponent
    that hides as many."""
    shared: dict[int, list[tuple[int, ...]]] = {}
    wanted = max(opp.best_of for opp in opponents) * TAIL_DEALS
    ranked = int(min(MAX_RANKED_DEALS, max(RANKED_DEALS, wanted)))

    def deals(need: int, avoid: frozenset[int]) -> list[tuple[int, ...]]:
        # Windows over reshuffled copies of the pool: `ranked` deals of `need` cards.
        cards = [c for c in pool if c not in avoid] if avoid else list(pool)
        found: list[tuple[int, ...]] = []
        while len(found) < ranked:
            rng.shuffle(cards)
            found.extend(
                tuple(cards[at : at + need]) for at in range(0, len(cards) - need + 1, need)
            )
        return found[:ranked]

    def ladder(shown: list[int], need: int, forced: tuple[int, ...]) -> list[int]:
        """The sorted keys of the ranked deals of a layout showing `shown`."""
        if need <= len(forced):
            return [rank5(shown + list(forced[:need]))]
        want = need - len(forced)
        if forced:
            drawn = deals(want, frozenset(forced))
        else:
            drawn = shared.get(want) or shared.setdefault(want, deals(want, frozenset()))
        base = shown + list(forced)
        return sorted(rank5(base + list(extra)) for extra in drawn)

    samples = min(samples, max(MIN_SAMPLES, RANKED_BUDGET // len(opponents)))
    # One column of drawn keys per opponent, sample by sample (heads-up, the random draws
    # come in the same order as drawing sample after sample).
    columns: list[list[int]] = []
    for opp, (shown, need, live, _), weight in zip(opponents, views, weights, strict=True):
        best_of = opp.best_of
        if need and live and weight > 0.0:
            # Its ladder depends on which of the passed cards it still holds.
            ladders: dict[tuple[int, ...], list[int]] = {}
            column = []
            for _ in range(samples):
                held = tuple(c for c in live if rng.random() < weight)[:need]
                keys = ladders.get(held)
                if keys is None:
                    keys = ladders[held] = ladder(shown, need, held)
                column.append(_pick(keys, opp.shown, opp.shown_weight, best_of, rng))
        else:
            keys = ladder(shown, need, ())
            column = [
                _pick(keys, opp.shown, opp.shown_weight, best_of, rng) for _ in range(samples)
            ]
        columns.append(column)
    share = 0.0
    for drawn in zip(*columns, strict=True):
        share += _share_of(my_key, drawn)
    return share / samples


def _pick(
    keys: list[int],
    shown: tuple[float, ...],
    shown_weight: float,
    best_of: float,
    rng: random.Random,
) -> int:
    """One opponent layout's key from the sorted keys of ranked deals: `shown_weight` of the
    time at one of the scores `shown` of layouts it showed before (a score is the share of
    deals below it), else the best of `best_of` uniform picks among the deals."""
    size = len(keys)
    if size == 1:
        return keys[0]
    if shown and rng.random() < shown_weight:
        return keys[min(size - 1, int(shown[int(rng.random() * len(shown))] * size))]
    if best_of <= 1.0:
        return keys[int(rng.random() * size)]
    level = math.pow(1.0 - rng.random(), 1.0 / best_of)
    return keys[max(0, min(size - 1, math.ceil(size * level) - 1))]
