"""Hand values for the dealer's-choice games (SPEC 2.7): the best high hand of any formation,
the ace-to-five low, the local eight-or-better low, and the hi-lo wheel. Pure; no I/O.

Every value is one integer and bigger is better, as in SPEC 2.4. High values are the keys of
hands.py, computed with its tables; `wheel_high=True` moves A-2-3-4-5 above every other
straight (and straight flush), as the local hi-lo games play it. Low values have their own key
(SPEC 2.7), the high-style key of the five lows with the ace as 1, complemented so that the
better low is again the bigger number. `None` means no hand qualifies (eight-or-better).

Formations: `best_high`/`low_a5`/`low_eight_or_better` take any five of 5 to 9 cards (draw,
stud, hold'em, and a stud hand plus a community card when the deck runs out); `holdem_high`
checks the hold'em shape (2 hole cards, 3 to 5 on the board); the Omaha values use exactly two
of the 4 hole cards and exactly three of the 3 to 5 board cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations

from p2pwillow.cards import RANK_PLURALS, Card
from p2pwillow.hands import (
    _CATEGORY_SHIFT,
    _RANKERS,
    _WHEEL,
    Category,
    _checked,
    _pack,
    category_of,
    describe,
    rank5,
    rank7,
)

__all__ = [
    "best_high",
    "describe_high",
    "describe_low",
    "holdem_high",
    "low_a5",
    "low_eight_or_better",
    "omaha_high",
    "omaha_low",
    "wheel_on_top",
]

MAX_CARDS = 9
"""The most cards a value is taken of: seven-card stud plus a community card, and some."""

_RANK_BITS = (1 << _CATEGORY_SHIFT) - 1
_WHEEL_BITS = _pack(Category.HIGH_CARD, _WHEEL)  # 5-4-3-2-A: how SPEC 2.4 orders the wheel
# The local hi-lo wheel: the ace plays as rank 15, above an ace, so the wheel beats the ace-high
# straight within its category and stays below the next category (every rank nibble < 16).
_WHEEL_TOP_BITS = _pack(Category.HIGH_CARD, (15, 5, 4, 3, 2))
_WHEEL_TOP_KEYS = {
    Category.STRAIGHT: _pack(Category.STRAIGHT, (15, 5, 4, 3, 2)),
    Category.STRAIGHT_FLUSH: _pack(Category.STRAIGHT_FLUSH, (15, 5, 4, 3, 2)),
}
_WHEEL_RANKS0 = frozenset(rank - 2 for rank in _WHEEL)  # index >> 2 of the wheel's cards

# Low keys (SPEC 2.7): the category (3 bits) and five rank nibbles (ace = 1) complemented, so
# that the best low, 5-4-3-2-A, is the biggest key.
_LOW_FLIP = (0x7 << _CATEGORY_SHIFT) | _RANK_BITS
_LOW_SHAPES = {
    (1, 1, 1, 1, 1): Category.HIGH_CARD,
    (2, 1, 1, 1): Category.ONE_PAIR,
    (2, 2, 1): Category.TWO_PAIR,
    (3, 1, 1): Category.THREE_OF_A_KIND,
    (3, 2): Category.FULL_HOUSE,
    (4, 1): Category.FOUR_OF_A_KIND,
}
_EIGHT = 8  # eight-or-better: the highest card of the low is at most this (ace = 1)


# --- high ------------------------------------------------------------------------------------


def wheel_on_top(key: int) -> int:
    """The key of a five-card hand under the hi-lo rule: a wheel (straight or straight flush)
    becomes the top of its category; any other key is unchanged."""
    if key & _RANK_BITS == _WHEEL_BITS:  # only a five-high straight lists 5-4-3-2-A
        return (key & ~_RANK_BITS) | _WHEEL_TOP_BITS
    return key


def _high(pool: Sequence[int], wheel_high: bool) -> int:
    """The best high key of 5 to 9 distinct card indices."""
    # hands.py's tables stop at seven cards (beyond, a flush no longer rules out a full
    # house): the best five of more lie within some seven.
    key = _RANKERS[len(pool)](pool) if len(pool) <= 7 else max(map(rank7, combinations(pool, 7)))
    if wheel_high:
        # A wheel in one suit is now the best hand there is (without wild cards); a wheel
        # in mixed suits only changes the value when the best hand is a straight.
        present = set(pool)
        for suit in range(4):
            if all(4 * rank0 + suit in present for rank0 in _WHEEL_RANKS0):
                return _WHEEL_TOP_KEYS[Category.STRAIGHT_FLUSH]
        if category_of(key) is Category.STRAIGHT and {i >> 2 for i in pool} >= _WHEEL_RANKS0:
            return _WHEEL_TOP_KEYS[Category.STRAIGHT]
    return key


def best_high(cards: Iterable[Card], *, wheel_high: bool = False) -> int:
    """The key (SPEC 2.4) of the best five of 5 to 9 distinct cards.

    With `wheel_high`, A-2-3-4-5 is the highest straight and straight flush (SPEC 2.7).
    Raises ValueError as `hands.best_hand` does: a wrong count, a repeated card, a non-card.
    """
    hand = _checked(cards, 5, MAX_CARDS, "best_high")
    return _high([card.index for card in hand], wheel_high)


def _formation(
    hole: Iterable[Card], board: Iterable[Card], holes: int, what: str
) -> tuple[list[int], list[int]]:
    """The card indices of a hole-and-board hand, checked: `holes` hole cards, 3 to 5 on the
    board (fewer make no five-card hand), no card twice in either or across them."""
    in_hole = _checked(hole, 0, 52, what)
    on_board = _checked(board, 0, 52, what)
    if len(in_hole) != holes:
        raise ValueError(f"{what}: give {holes} hole cards, not {len(in_hole)}")
    if not 3 <= len(on_board) <= 5:
        raise ValueError(f"{what}: give 3 to 5 board cards, not {len(on_board)}")
    _checked(in_hole + on_board, 0, 52, what)  # a card in the hole and on the board
    return [card.index for card in in_hole], [card.index for card in on_board]


def holdem_high(hole: Iterable[Card], board: Iterable[Card], *, wheel_high: bool = False) -> int:
    """The best five of 2 hole cards and 3 to 5 board cards, in any combination."""
    in_hole, on_board = _formation(hole, board, 2, "holdem_high")
    return _high(in_hole + on_board, wheel_high)


def omaha_high(hole: Iterable[Card], board: Iterable[Card], *, wheel_high: bool = False) -> int:
    """The best hand of exactly two of 4 hole cards and exactly three of 3 to 5 board cards."""
    in_hole, on_board = _formation(hole, board, 4, "omaha_high")
    keys = (
        rank5(two + three)
        for two in combinations(in_hole, 2)
        for three in combinations(on_board, 3)
    )
    return max(map(wheel_on_top, keys) if wheel_high else keys)


# --- low -------------------------------------------------------------------------------------


def _low_rank(index: int) -> int:
    """The rank of a card in a low: 2..13, and 1 for the ace."""
    rank = (index >> 2) + 2
    return 1 if rank == 14 else rank


def _low_key(five: Sequence[int]) -> int:
    """SPEC 2.7: the low key of five ace-low ranks."""
    counts = Counter(five)
    shape = tuple(sorted(counts.values(), reverse=True))
    ordered = sorted(five, key=lambda rank: (counts[rank], rank), reverse=True)
    return _pack(_LOW_SHAPES[shape], ordered) ^ _LOW_FLIP


def _best_low(ranks: Sequence[int]) -> int:
    """The best low key of 5 or more ace-low ranks.

    Deal the five lows by rounds: one card of each rank from the lowest up, then a second card
    of each rank that has one, and so on. The first round avoids pairs while it can (a
    lower category beats any ranks); later rounds pair the lowest ranks first, which the
    comparison of groups (larger and then higher first) favours.
    """
    counts = Counter(ranks)
    chosen: list[int] = []
    for copy in range(1, 5):
        for rank in range(1, 14):
            if counts[rank] >= copy:
                chosen.append(rank)
                if len(chosen) == 5:
                    return _low_key(chosen)
    raise ValueError(f"a low takes five cards, not {len(ranks)}")


def low_a5(cards: Iterable[Card]) -> int:
    """The ace-to-five low key (SPEC 2.7) of the best five of 5 to 9 distinct cards: aces low,
    straights and flushes ignored, pairs count. Bigger is better: 5-4-3-2-A is the best."""
    hand = _checked(cards, 5, MAX_CARDS, "low_a5")
    return _best_low([_low_rank(card.index) for card in hand])


def low_eight_or_better(cards: Iterable[Card]) -> int | None:
    """The best low of 5 to 9 cards whose highest card is 8 or lower, as a low key, or None.

    The local reading (SPEC 2.7): pairs are allowed, so A-A-3-4-5 qualifies.
    """
    hand = _checked(cards, 5, MAX_CARDS, "low_eight_or_better")
    lows = [rank for rank in (_low_rank(card.index) for card in hand) if rank <= _EIGHT]
    return _best_low(lows) if len(lows) >= 5 else None


def omaha_low(hole: Iterable[Card], board: Iterable[Card]) -> int | None:
    """The best eight-or-better low of exactly two of 4 hole cards and exactly three of 3 to 5
    board cards (pairs allowed, as in `low_eight_or_better`), or None."""
    in_hole, on_board = _formation(hole, board, 4, "omaha_low")
    hole_lows = [rank for rank in map(_low_rank, in_hole) if rank <= _EIGHT]
    board_lows = [rank for rank in map(_low_rank, on_board) if rank <= _EIGHT]
    keys = [
        _low_key(two + three)
        for two in combinations(hole_lows, 2)
        for three in combinations(board_lows, 3)
    ]
    return max(keys, default=None)


# --- texts -----------------------------------------------------------------------------------


def describe_high(key: int) -> str:
    """Readable text of a high key, the hi-lo wheel included: "straight, five high (the wheel,
    on top)"; other keys as `hands.describe` writes them."""
    for category, top in _WHEEL_TOP_KEYS.items():
        if key == top:
            return f"{category.label}, five high (the wheel, on top)"
    return describe(key)


def _low_name(rank: int) -> str:
    return {1: "A", 11: "J", 12: "Q", 13: "K"}.get(rank, str(rank))


def describe_low(key: int) -> str:
    """Readable text of a low key: "8-5-4-2-A low", "A-A-5-4-3 low (pair of aces)"."""
    flipped = key ^ _LOW_FLIP if isinstance(key, int) and 0 <= key <= _LOW_FLIP else -1
    ranks = [(flipped >> (4 * (4 - position))) & 0xF for position in range(5)]
    if (
        flipped < 0
        or not all(1 <= rank <= 13 for rank in ranks)
        or max(Counter(ranks).values()) > 4
        or _low_key(ranks) != key
    ):
        raise ValueError(f"not a low key: {key!r}")
    text = "-".join(map(_low_name, ranks)) + " low"
    plural = [RANK_PLURALS[14 if rank == 1 else rank] for rank in ranks]
    match Category(flipped >> _CATEGORY_SHIFT):
        case Category.HIGH_CARD:
            return text
        case Category.ONE_PAIR:
            return f"{text} (pair of {plural[0]})"
        case Category.TWO_PAIR:
            return f"{text} (two pair, {plural[0]} and {plural[2]})"
        case Category.FULL_HOUSE:
            return f"{text} (full house, {plural[0]} full of {plural[3]})"
        case category:
            return f"{text} ({category.label}, {plural[0]})"
