"""How a bot plays a split-pot game (SPEC 3.16): its share of a pot split high and low, and
its declaration. Pure; no I/O; its randomness comes only from the `random.Random` it is given.

The share is a Monte Carlo over the cards the bot cannot see, dealt as `live.deals` deals them.
In each deal every hand is valued twice: high (the game's formation, as the live bot values
it) and low (eight-or-better, ace low, here counted on five different ranks: a paired low,
which the house allows, is rare enough for an estimate to leave out; a lowball side, where
pairs are common, is the exact ace-to-five low, `live.lowball`; in Chicago the second side is
the highest spade in the hole, where the cards still to come count as the script deals them,
face down or face up). A seat that has declared
contends only for its sides; one that has not (every seat before the declaration, the others
while the bot weighs its own) contends for both, as the cards speak. A pig wins both sides or
nothing. A side nobody can win goes to the other side.

The declaration is the choice with the largest expected share, over one set of deals for the
three choices: `high` and `low` win their side's share, `pig` the whole pot only when it wins
or ties both.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Mapping, Sequence
from itertools import combinations, pairwise

from p2pwillow.bots.decision import BotError
from p2pwillow.bots.live import deals, live_equity, lowball, valuer
from p2pwillow.cards import DECK, Card, Suit
from p2pwillow.rules import ActionKind, GameSpec, Hand, IllegalAction
from p2pwillow.rules.declare import SettleSplit, Side
from p2pwillow.rules.events import CardPassed
from p2pwillow.rules.live import Formation
from p2pwillow.rules.passing import pass_price

__all__ = [
    "choose_declaration",
    "choose_pass",
    "choose_wash",
    "is_split",
    "low_valuer",
    "split_equity",
    "split_share",
]

CHOICES = ("high", "low", "pig")

LowValuer = Callable[[list[int], list[int]], int]
"""The eight-or-better low of one player's own cards and the board, as card indices: bigger is
better, 0 when no low qualifies."""


def is_split(game: GameSpec | None) -> bool:
    """Whether `game` ends with a declaration and a split (its showdown is `SettleSplit`)."""
    return game is not None and any(isinstance(step, SettleSplit) for step in game.script)


def _low_rank(index: int) -> int:
    rank = (index >> 2) + 2
    return 1 if rank == 14 else rank


def _key(five: Sequence[int]) -> int:
    """The low of five different ranks, bigger is better: 5-4-3-2-A is the best."""
    packed = 0
    for rank in sorted(five, reverse=True):
        packed = packed * 16 + rank
    return 0x100000 - packed


def _any_five(own: list[int], board: list[int]) -> int:
    ranks = sorted({r for r in map(_low_rank, own + board) if r <= 8})
    return _key(ranks[:5]) if len(ranks) >= 5 else 0


def _omaha(own: list[int], board: list[int]) -> int:
    hole = sorted({r for r in map(_low_rank, own) if r <= 8})
    table = sorted({r for r in map(_low_rank, board) if r <= 8})
    best = 0
    for a, b in combinations(hole, 2):
        three = [r for r in table if r != a and r != b][:3]
        if len(three) == 3:
            best = max(best, _key([a, b, *three]))
    return best


def _both_or_neither(own: list[int], board: list[int]) -> int:
    best = _any_five(own, [])
    if board:
        for three in combinations(own, 5 - len(board)):
            ranks = {r for r in map(_low_rank, [*three, *board]) if r <= 8}
            if len(ranks) == 5:
                best = max(best, _key(sorted(ranks)))
    return best


def low_valuer(formation: Formation) -> LowValuer:
    """The low of a hand by `formation`: exactly two hole cards and three of the board in
    Omaha, any five otherwise."""
    if formation is Formation.BOTH_OR_NEITHER:
        return _both_or_neither
    return _omaha if formation is Formation.OMAHA else _any_five


def split_share(
    mine: tuple[int, int],
    choice: str | None,
    others: Sequence[tuple[int, int, str | None]],
) -> float:
    """The share of the pot a seat with values `mine` (high, low; low 0: none) takes, having
    declared `choice` (None: it contends for both sides, no pig rule), against `others`, each
    (high, low, choice or None)."""
    my_high, my_low = mine
    wants_high = choice != "low"
    wants_low = choice != "high" and my_low > 0
    highs = [h for h, _, c in others if c != "low"]
    lows = [lo for _, lo, c in others if c != "high" and lo > 0]
    top_high = max(highs, default=-1)
    top_low = max(lows, default=0)
    if choice == "pig" and not (my_high >= top_high and my_low > 0 and my_low >= top_low):
        return 0.0
    high_side = wants_high or bool(highs)
    low_side = wants_low or bool(lows)
    halves = 2 if high_side and low_side else 1
    share = 0.0
    if wants_high and my_high >= top_high:
        share += 1.0 / halves / (1 + highs.count(my_high))
    if wants_low and my_low >= top_low:
        share += 1.0 / halves / (1 + lows.count(my_low))
    return share


Values = Callable[[int, list[int], list[int], list[int]], tuple[int, int]]
"""(seat, its cards, the board, its hole) -> its (first, second side) values, bigger better,
0: none."""


def _sum(cards: list[int]) -> int:
    """Go for Broke's value: 255 less the sum, tens and faces 0, aces 1 (bigger is better)."""
    total = 0
    for i in cards:
        rank = (i >> 2) + 2
        total += 1 if rank == 14 else rank if rank < 10 else 0
    return 255 - total


def _two(cards: list[int]) -> int:
    """The best two-card hand of these cards: a pair above any two without one."""
    if len(cards) < 2:
        return 0
    ranks = sorted(((i >> 2) + 2 for i in cards), reverse=True)
    for higher, lower in pairwise(ranks):
        if higher == lower:  # (ranks run high to low: the first pair met is the highest)
            return 1000 + higher
    return ranks[0] * 15 + ranks[1]


def _values(hand: Hand) -> Values:
    """How the game's two sides value a seat's cards (SPEC 3.16): the high by its formation, a
    low (eight-or-better, or any ace-to-five), the highest spade or the two best cards among
    those it holds face down in the end (`live.deals`), or the lowest sum."""
    game = _game(hand)
    settle = next(step for step in game.script if isinstance(step, SettleSplit))
    first, second = (_side(which, settle.formation) for which in (settle.first, settle.second))
    return lambda x, own, board, hole: (first(own, board, hole), second(own, board, hole))


def _side(which: Side, formation: Formation) -> Callable[[list[int], list[int], list[int]], int]:
    """How one side values (a seat's cards, the board, its hole), chosen once per decision:
    a bot values each side of every deal it samples."""
    if which is Side.HIGH:
        high = valuer(formation)
        return lambda own, board, hole: high(own, board)
    if which is Side.EIGHT:
        eight = low_valuer(formation)
        return lambda own, board, hole: eight(own, board)
    if which is Side.LOWBALL:
        return lambda own, board, hole: lowball(own, board)
    if which is Side.SUM:
        return lambda own, board, hole: _sum(own + board)
    if which is Side.TWO_HOLE:
        return lambda own, board, hole: _two(hole)
    return lambda own, board, hole: max(
        ((i >> 2) + 2 for i in hole if i & 3 == Suit.SPADES), default=0
    )


def _game(hand: Hand) -> GameSpec:
    game = hand.game
    if not is_split(game):
        raise BotError("not a split-pot game")
    assert game is not None
    return game


def split_equity(
    hand: Hand,
    seat: int,
    cards: Sequence[Card],
    rng: random.Random,
    samples: int,
    factors: Mapping[int, float] | None = None,
) -> float:
    """The share of the pot `seat` can expect holding `cards`, each seat contending for what it
    has declared (both sides before it has). `factors` weighs opponents by their betting as
    `live.live_equity` does: the share against one opponent alone, e, counts as e ** f."""
    value = _values(hand)
    declared = hand.state.declared
    choice = declared.get(seat)
    total = 0.0
    alone: dict[int, float] = {}
    for mine, theirs, board, holes in deals(hand, seat, cards, rng, samples):
        own = value(seat, mine, board, holes[seat])
        others = {x: (*value(x, cs, board, holes[x]), declared.get(x)) for x, cs in theirs}
        total += split_share(own, choice, list(others.values()))
        if factors is not None:
            for x, theirs_x in others.items():
                # against one opponent alone a half is a sure split, not a coin flip: what
                # its betting weighs is how often it takes this seat's half or more
                held = split_share(own, choice, [theirs_x]) >= 0.5
                alone[x] = alone.get(x, 0.0) + held
    if not samples:
        return 0.0
    share = total / samples
    for x, won in alone.items():
        # an opponent whose betting says strength beats this seat's hand more often
        share *= max(won / samples, 0.5 / samples) ** (factors.get(x, 1.0) - 1.0)  # type: ignore[union-attr]
    return min(1.0, max(0.0, share))


def choose_declaration(
    hand: Hand, seat: int, cards: Sequence[Card], rng: random.Random, samples: int
) -> str:
    """`high`, `low` or `pig`: the largest expected share over the same deals (ties: the
    first of high, low, pig), the others contending for both sides."""
    value = _values(hand)
    expected: Mapping[str, float] = dict.fromkeys(CHOICES, 0.0)
    sums = dict(expected)
    for mine, theirs, board, holes in deals(hand, seat, cards, rng, samples):
        own = value(seat, mine, board, holes[seat])
        others = [(*value(x, cs, board, holes[x]), None) for x, cs in theirs]
        for choice in CHOICES:
            sums[choice] += split_share(own, choice, others)
    return max(CHOICES, key=lambda c: sums[c])


WASH_TRIES = 6
"""Replacement cards tried for each card a bot weighs washing."""


def choose_wash(
    hand: Hand,
    seat: int,
    cards: Sequence[Card],
    rng: random.Random,
    samples: int,
    price: int,
    price_down: int | None = None,
    *,
    must: bool = False,
) -> tuple[int, ...]:
    """The card to wash (its place in `cards`: face-down cards first, then face-up), or none:
    the one whose replacement, over a few cards it could be, raises the expected share of the
    pot by more than its price (SPEC 3.17: `price_down` for a face-down card, when it differs);
    never a card whose price the stack cannot pay. With `must` (it said it washes) the card
    that gains the most or loses the least, whatever its price, where the stack can pay one."""
    down = len(cards) - len(hand.showing(seat))
    up_price = price
    down_price = price if price_down is None else price_down
    prices = [down_price if i < down else up_price for i in range(len(cards))]
    stack = hand.stack(seat)
    if min(prices, default=price) > stack:
        return ()
    # a game without a declaration (Car Wash) plays for the whole pot
    equity = split_equity if is_split(hand.game) else live_equity
    base = equity(hand, seat, cards, rng, samples)
    known = set(cards) | set(hand.state.board)
    for x in hand.seats:
        known.update(hand.showing(x))
    unseen = [c for c in DECK if c not in known]
    best: tuple[int, ...] = ()
    gain = float("-inf") if must else 0.0
    tries = max(1, samples // WASH_TRIES)
    for i in range(len(cards)):
        if prices[i] > stack:
            continue
        total = 0.0
        for new in rng.sample(unseen, WASH_TRIES):
            swapped = [*cards[:i], new, *cards[i + 1 :]]
            total += equity(hand, seat, swapped, rng, tries)
        better = (total / WASH_TRIES - base) * (hand.pot + prices[i]) - prices[i]
        if better > gain:
            best, gain = (i,), better
    return best


def choose_pass(
    hand: Hand, seat: int, cards: Sequence[Card], rng: random.Random, samples: int
) -> bool:
    """Whether `seat`, holding `cards` (its face-down cards and its face-up ones, the card of
    the pass street among them), passes that card (SPEC 3.19): when its expected share of the
    pot after the pass, the card in the next seat's hand and a card to come in its place, is
    worth more than keeping it by more than the price. Never when the stack cannot pay."""
    price = pass_price(hand.config)
    passed = copy.deepcopy(hand)
    try:
        event = passed.act(ActionKind.PASS_CARD, seat)
    except IllegalAction:
        return False
    assert isinstance(event, CardPassed)
    kept = [c for c in cards if c != event.card]
    equity = split_equity if is_split(hand.game) else live_equity
    # the same random deals behind both shares, as far as they go: the two hands differ by
    # one card, and their difference is what decides (common random numbers)
    seed = rng.getrandbits(64)
    keep = equity(hand, seat, cards, random.Random(seed), samples)
    after = equity(passed, seat, kept, random.Random(seed), samples)
    return (after - keep) * (hand.pot + price) > price
