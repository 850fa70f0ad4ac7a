"""Hand values for the dealer's-choice games (SPEC 2.7): the best high hand of any formation,
the ace-to-five low, the local eight-or-better low, the hi-lo wheel, the high-low sets of the
same-five rule, and the house's other halves: Go for Broke's low sum, Hawaii Five-Low's two
hole cards, Chicago's spade in the hole. Pure; no I/O.

Every value is one integer and bigger is better, as in SPEC 2.4. High values are the keys of
hands.py, computed with its tables; `wheel_high=True` moves A-2-3-4-5 above every other
straight (and straight flush), as the local hi-lo games play it. Low values have their own key
(SPEC 2.7), the high-style key of the five lows with the ace as 1, complemented so that the
better low is again the bigger number. `None` means there is no value: no low qualifies
(eight-or-better), no spade is in the hole.

Formations: `best_high`/`low_a5`/`low_eight_or_better` take any five of 5 to 9 cards (draw,
stud, hold'em, and a stud hand plus a community card when the deck runs out); `holdem_high`
checks the hold'em shape (2 hole cards, 3 to 5 on the board); the Omaha values use exactly two
of the 4 hole cards and exactly three of the 3 to 5 board cards. The other halves take the cards
their rule names: all of a player's cards (the sum), its hole cards (two-card hand, spade), or
its face-up cards (the low showing).

Every function checks its cards (a non-card, a card twice, a wrong count: ValueError); past
the check the work is table look-ups (one per five where fives are compared), cheap enough for
the bots' Monte Carlo loops.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement, pairwise

from p2pwillow.cards import RANK_NAMES, RANK_PLURALS, Card, Suit
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
    "HiLo",
    "best_high",
    "describe_high",
    "describe_low",
    "describe_showing_low",
    "describe_spade",
    "describe_sum",
    "describe_two_card",
    "hi_lo_sets",
    "high_spade",
    "holdem_hi_lo_sets",
    "holdem_high",
    "holdem_low",
    "low_a5",
    "low_eight_or_better",
    "low_sum",
    "omaha_hi_lo_sets",
    "omaha_high",
    "omaha_low",
    "showing_low",
    "two_card_high",
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


def _packed_low(five: Sequence[int]) -> int:
    """SPEC 2.7: the low key of five ace-low ranks, as the SPEC says it."""
    counts = Counter(five)
    shape = tuple(sorted(counts.values(), reverse=True))
    ordered = sorted(five, key=lambda rank: (counts[rank], rank), reverse=True)
    return _pack(_LOW_SHAPES[shape], ordered) ^ _LOW_FLIP


# The same, looked up: the signature of five ace-low ranks sums 3-bit counts per rank (at
# most 4 of a rank); the table has one entry per multiset of ranks (6,175), built on first use
# (some tens of milliseconds, which importing the module does not pay).
_LOW_BITS = (0, *(1 << 3 * (rank - 1) for rank in range(1, 14)))  # by ace-low rank 1..13
_EIGHT_LIMIT = _LOW_BITS[_EIGHT + 1]  # a signature below this has no card above the eight
_LOW_BITS_OF = tuple(_LOW_BITS[_low_rank(index)] for index in range(52))  # by card index


@cache
def _low_table() -> dict[int, int]:
    return {
        sum(_LOW_BITS[rank] for rank in five): _packed_low(five)
        for five in combinations_with_replacement(range(1, 14), 5)
        if max(Counter(five).values()) <= 4
    }


def _low_key(five: Sequence[int]) -> int:
    """SPEC 2.7: the low key of five ace-low ranks."""
    return _low_table()[sum(_LOW_BITS[rank] for rank in five)]


def _best_low(ranks: Sequence[int]) -> int:
    """The best low key of 5 or more ace-low ranks.

    Deal the five lows by rounds: one card of each rank from the lowest up, then a second card
    of each rank that has one, and so on. The first round avoids pairs while it can (a
    lower category beats any ranks); later rounds pair the lowest ranks first, which the
    comparison of groups (larger and then higher first) favours.
    """
    counts = [0] * 14  # by ace-low rank 1..13 (a list: a bot values many deals with it)
    for rank in ranks:
        counts[rank] += 1
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


_BEST_LOW: dict[int, int] = {}
"""The best low of six or seven cards by their ranks' signature, each found once, as a bot meets
it: at most the 67,600 multisets of 6 and 7 ranks, so a process's memory stays bounded."""


def low_a5_indices(indices: Iterable[int]) -> int:
    """`low_a5` of 5 or more distinct card indices, unchecked: for a bot's many deals, whose
    cards are distinct by construction (tests/test_evaluators.py holds the two equal)."""
    cards = indices if isinstance(indices, list | tuple) else list(indices)
    signature = sum(_LOW_BITS_OF[index] for index in cards)
    if len(cards) == 5:  # five cards are their own best low: one look-up
        return _low_table()[signature]
    best = _BEST_LOW.get(signature)
    if best is None:
        best = _best_low([_low_rank(index) for index in cards])
        if len(cards) <= 7:  # (signatures of different sizes never meet: each sums its count)
            _BEST_LOW[signature] = best
    return best


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


def holdem_low(hole: Iterable[Card], board: Iterable[Card]) -> int | None:
    """The best eight-or-better low of 2 hole cards and 3 to 5 board cards, in any combination
    (pairs allowed, as in `low_eight_or_better`), or None: hold'em played high-low."""
    in_hole, on_board = _formation(hole, board, 2, "holdem_low")
    lows = [rank for rank in map(_low_rank, in_hole + on_board) if rank <= _EIGHT]
    return _best_low(lows) if len(lows) >= 5 else None


def _showing_category(counts: Counter[int]) -> Category:
    """The category of 1 to 4 cards by their groups alone (SPEC 2.5)."""
    shape = sorted(counts.values(), reverse=True)
    if shape[0] >= 3:
        return Category.FOUR_OF_A_KIND if shape[0] == 4 else Category.THREE_OF_A_KIND
    if shape[:2] == [2, 2]:
        return Category.TWO_PAIR
    return Category.ONE_PAIR if shape[0] == 2 else Category.HIGH_CARD


def showing_low(cards: Iterable[Card]) -> int:
    """The ace-to-five value of 1 to 4 face-up cards (SPEC 2.7, lowest showing): the partial
    hands of SPEC 2.5, ranked as lows. Groups count against the cards (no pair beats a pair,
    a pair beats two pair and three of a kind), the ace is 1, straights and flushes do not
    count; then the lower group, then the lower top card. Bigger is better (the lowest
    showing); compare only values of the same number of cards. Used where a lowball game
    orders players by their up cards (Hawaii Five-Low's washes: "best means lowest visible
    cards")."""
    return _showing_low_key(
        [_low_rank(card.index) for card in _checked(cards, 1, 4, "showing_low")]
    )


def _showing_low_key(ranks: Sequence[int]) -> int:
    """SPEC 2.7: the lowest-showing key of 1 to 4 ace-low ranks."""
    counts = Counter(ranks)
    ordered = sorted(ranks, key=lambda rank: (counts[rank], rank), reverse=True)
    # The nibbles after the last card are 0 before the flip, F after: equal for equal counts.
    return _pack(_showing_category(counts), ordered) ^ _LOW_FLIP


# --- high-low: the sets of the same-five rule ------------------------------------------------

HiLo = tuple[int, int | None]
"""One five-card set of a player's cards in a high-low game: its high value (the wheel on top)
and its low value (None: the five make no low that qualifies). `rules.declare.FiveSet`."""


def _hi_lo(five: Sequence[int], eight_or_better: bool, lows: dict[int, int]) -> HiLo:
    """The (high, low) of five card indices; `lows` is `_low_table()`, fetched once a hand."""
    signature = sum(_LOW_BITS_OF[index] for index in five)
    low = None if eight_or_better and signature >= _EIGHT_LIMIT else lows[signature]
    return wheel_on_top(rank5(five)), low


def _frontier(sets: Iterable[HiLo]) -> list[HiLo]:
    """The sets no other set matches or beats on both sides, best high first (so with the
    lower low, the lows rising). A set another equals or beats on both sides can never make a
    pig win where that one does not, nor change a side's best value (SPEC 3.16)."""
    best_low = -1
    kept: list[HiLo] = []
    for high, low in sorted(
        set(sets), key=lambda hl: (hl[0], -1 if hl[1] is None else hl[1]), reverse=True
    ):
        if low is not None and low > best_low:
            best_low = low
            kept.append((high, low))
        elif not kept:  # the best high, with no low that qualifies
            kept.append((high, low))
    return kept


def hi_lo_sets(cards: Iterable[Card], *, eight_or_better: bool) -> list[HiLo]:
    """The high-low sets (SPEC 2.7, 3.16) of the best five of 5 to 9 cards (stud, draw): each
    five valued high with the wheel on top and low ace-to-five, or eight-or-better when
    `eight_or_better` (the lows of the game). Only the sets that no other set matches or beats
    on both sides, best high first: the greatest high is the first set's, the greatest low
    the last set's."""
    hand = _checked(cards, 5, MAX_CARDS, "hi_lo_sets")
    indices = [card.index for card in hand]
    lows = _low_table()
    return _frontier(_hi_lo(five, eight_or_better, lows) for five in combinations(indices, 5))


def holdem_hi_lo_sets(hole: Iterable[Card], board: Iterable[Card]) -> list[HiLo]:
    """`hi_lo_sets` of hold'em played high-low: any five of 2 hole cards and 3 to 5 board
    cards, the low eight-or-better."""
    in_hole, on_board = _formation(hole, board, 2, "holdem_hi_lo_sets")
    lows = _low_table()
    return _frontier(_hi_lo(five, True, lows) for five in combinations(in_hole + on_board, 5))


def omaha_hi_lo_sets(hole: Iterable[Card], board: Iterable[Card]) -> list[HiLo]:
    """`hi_lo_sets` of Omaha high-low (the local Omaha): exactly two of 4 hole cards and
    exactly three of 3 to 5 board cards, the low eight-or-better."""
    in_hole, on_board = _formation(hole, board, 4, "omaha_hi_lo_sets")
    lows = _low_table()
    return _frontier(
        _hi_lo(two + three, True, lows)
        for two in combinations(in_hole, 2)
        for three in combinations(on_board, 3)
    )


# --- the house's other halves ----------------------------------------------------------------

_SUM_FLIP = 0xFF  # SPEC 2.7: the low-sum value is the sum with its 8 bits flipped
_MAX_SUM = 4 * 9 + 4 * 8 + 7  # the most any 9 cards can count: four nines, four eights, a seven
_POINTS = tuple(
    1 if rank == 14 else rank if rank < 10 else 0 for rank in (i // 4 + 2 for i in range(52))
)
"""Go for Broke's count of each card by index: the ace 1, two to nine their rank, ten to king 0."""
_PAIR_BITS = int(Category.ONE_PAIR) << _CATEGORY_SHIFT


def low_sum(cards: Iterable[Card]) -> int:
    """Go for Broke's low half (SPEC 2.7): "the lowest sum of his cards (tens and face cards
    are worth zero; aces are worth one)". Give all of a player's cards, down and up (its five
    in Go for Broke); given only the face-up cards, the value orders Go for Broke's washes
    ("lowest sum of visible cards to highest"). 1 to 9 cards.

    The value is `255 - sum` (the sum's 8 bits flipped), so that as everywhere here the
    bigger value is the better hand: sum 0 is 255, the best; five cards count at most 44.
    """
    hand = _checked(cards, 1, MAX_CARDS, "low_sum")
    return _SUM_FLIP - sum(_POINTS[card.index] for card in hand)


def two_card_high(hole: Iterable[Card]) -> int:
    """Hawaii Five-Low's other half (SPEC 2.7): "the highest two hole cards", the best
    two-card hand of a player's 2 to 9 hole (face-down) cards. A pair beats any two cards
    without one, a higher pair a lower; without a pair the higher top card wins, then the
    higher second card. The ace is high, suits never count.

    The value is the SPEC 2.5 showing key of those two cards: `1RR000` for a pair of rank R,
    `0HL000` for H over L (`1EE000`, pocket aces, is the best; `032000` the worst)."""
    ranks = sorted(
        (card.rank for card in _checked(hole, 2, MAX_CARDS, "two_card_high")), reverse=True
    )
    paired = [high for high, low in pairwise(ranks) if high == low]
    if paired:
        return _PAIR_BITS | paired[0] << 16 | paired[0] << 12
    return ranks[0] << 16 | ranks[1] << 12


def high_spade(hole: Iterable[Card]) -> int | None:
    """Chicago's other half (SPEC 2.7): "the highest spade in the hole", the rank (2..14, ace
    high) of the highest spade among a player's 1 to 9 hole (face-down) cards, or None when
    none is a spade. A face-up spade does not count. A spade is the card as dealt (with wild
    cards, a wild card that is not a spade is not one)."""
    hand = _checked(hole, 1, MAX_CARDS, "high_spade")
    return max((card.rank for card in hand if card.suit is Suit.SPADES), default=None)


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


def _low_ranks(key: object, counts: range) -> list[int] | None:
    """The ace-low ranks a low key (or a lowest-showing key) lists, if it is one with a number
    of cards in `counts`; None if it is not."""
    if type(key) is not int or not 0 <= key <= _LOW_FLIP:
        return None
    nibbles = [((key ^ _LOW_FLIP) >> (4 * (4 - position))) & 0xF for position in range(5)]
    ranks = nibbles[: nibbles.index(0)] if 0 in nibbles else nibbles
    if len(ranks) not in counts or not all(1 <= rank <= 13 for rank in nibbles[: len(ranks)]):
        return None
    if max(Counter(ranks).values()) > 4:
        return None
    remade = _low_key(ranks) if len(ranks) == 5 else _showing_low_key(ranks)
    return ranks if remade == key else None


def _describe_lows(ranks: list[int], what: str) -> str:
    text = "-".join(map(_low_name, ranks)) + what
    plural = [RANK_PLURALS[14 if rank == 1 else rank] for rank in ranks]
    counts = Counter(ranks)
    shape = sorted(counts.values(), reverse=True)
    if shape[0] == 1:
        return text
    if shape[:2] == [3, 2]:
        return f"{text} (full house, {plural[0]} full of {plural[3]})"
    if shape[:2] == [2, 2]:
        return f"{text} (two pair, {plural[0]} and {plural[2]})"
    name = {2: "pair of", 3: "three of a kind,", 4: "four of a kind,"}[shape[0]]
    return f"{text} ({name} {plural[0]})"


def describe_low(key: int) -> str:
    """Readable text of a low key: "8-5-4-2-A low", "A-A-5-4-3 low (pair of aces)"."""
    ranks = _low_ranks(key, range(5, 6))
    if ranks is None:
        raise ValueError(f"not a low key: {key!r}")
    return _describe_lows(ranks, " low")


def describe_showing_low(key: int) -> str:
    """Readable text of a `showing_low` value: "5-3-A showing", "A-A-6 showing (pair of
    aces)"."""
    ranks = _low_ranks(key, range(1, 5))
    if ranks is None:
        raise ValueError(f"not a lowest-showing key: {key!r}")
    return _describe_lows(ranks, " showing")


def describe_sum(value: int) -> str:
    """Readable text of a `low_sum` value: "sum 9"."""
    if type(value) is not int or not 0 <= _SUM_FLIP - value <= _MAX_SUM:
        raise ValueError(f"not a sum value: {value!r}")
    return f"sum {_SUM_FLIP - value}"


def describe_two_card(key: int) -> str:
    """Readable text of a `two_card_high` value: "pair of kings in the hole", "ace-king in the
    hole"."""
    if type(key) is int and 0 <= key < 1 << 24:
        high, low = (key >> 16) & 0xF, (key >> 12) & 0xF
        if 2 <= high <= 14 and key == _PAIR_BITS | high << 16 | high << 12:
            return f"pair of {RANK_PLURALS[high]} in the hole"
        if 2 <= low < high <= 14 and key == high << 16 | low << 12:
            return f"{RANK_NAMES[high]}-{RANK_NAMES[low]} in the hole"
    raise ValueError(f"not a two-card value: {key!r}")


def describe_spade(rank: int) -> str:
    """Readable text of a `high_spade` value: "K♠ in the hole"."""
    if type(rank) is not int or not 2 <= rank <= 14:
        raise ValueError(f"not a spade's rank: {rank!r}")
    return f"{Card(rank, Suit.SPADES).unicode} in the hole"
