"""Poker hand ranking: the best five of 5 to 7 cards, and partial hands showing (SPEC 2.3-2.5).

Pure. The lookup tables are read at import from `hands.tables` beside this module, a file that
`python -m tools.gen_hands` writes from `build_tables` (building them costs ~0.2 s of CPU, which
every `willow` process paid; reading costs ~0.03 s); a file whose SHA-256 is not the pinned one
is ignored and the tables are built. `rank5`/`rank6`/`rank7` are the fast integer entry points
for tight loops, `best_hand` and `showing_value` the checked ones.

Theory of operation. Every hand value is one integer key, bigger is better (SPEC 2.4):

    key = category << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5

where r1..r5 are the ranks (2..14) of the five playing cards in their comparison order:
grouped by multiplicity, larger groups first, higher ranks first within equal groups; a
straight lists its cards from the top down, with the ace of a five-high straight last.

A card index i (SPEC 2.1) contributes `_CARD_CODE[i] = 1 << (16 + 3 * rank0) | 1 << (4 * suit)`
(rank0 = rank - 2). The sum over a hand holds the count of every rank in 3-bit fields (the
"rank signature", at most 4 per rank, so the fields never carry) and the count of every suit in
4-bit fields (at most 7, so adding 3 to each field flags exactly the suits with 5 or more cards
in its top bit). A hand without a flush is looked up by its rank signature alone; a hand with a
flush by the rank mask of its flush suit. With at most 7 cards a flush rules out a full house
and four of a kind, so the flush suit alone gives the best hand.
"""

from __future__ import annotations

import array
import enum
import hashlib
import sys
import zlib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from itertools import accumulate, combinations

from p2pwillow.cards import DECK, RANK_NAMES, RANK_PLURALS, Card

__all__ = [
    "Category",
    "HandValue",
    "ShowingValue",
    "best_hand",
    "category_of",
    "describe",
    "rank5",
    "rank6",
    "rank7",
    "showing_value",
]


class Category(enum.IntEnum):
    """Hand categories, weakest first (SPEC 2.3)."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        return self.name.lower().replace("_", " ")


_CATEGORY_SHIFT = 20
_ACE = 14
_WHEEL = (5, 4, 3, 2, _ACE)


def _pack(category: Category, ranks: Sequence[int]) -> int:
    """SPEC 2.4: the category, then up to five 4-bit ranks from the most significant nibble."""
    key = int(category) << _CATEGORY_SHIFT
    for position, rank in enumerate(ranks):
        key |= rank << (4 * (4 - position))
    return key


def _unpack(key: int) -> tuple[int, ...]:
    """The ranks of a key, in comparison order; zero nibbles (absent cards) dropped."""
    nibbles = ((key >> (4 * (4 - position))) & 0xF for position in range(5))
    return tuple(n for n in nibbles if n)


class _Ranks(dict[int, tuple[int, ...]]):
    """A key's ranks, each unpacked once, on first use (for speed in `best_hand`)."""

    def __missing__(self, key: int) -> tuple[int, ...]:
        ranks = self[key] = _unpack(key)
        return ranks


def category_of(key: int) -> Category:
    """The category of a hand key (from `rank5`/`rank6`/`rank7`)."""
    return Category(key >> _CATEGORY_SHIFT)


# --- tables (read or built once at import) --------------------------------------------------


def _straight_ranks(ranks: frozenset[int]) -> tuple[int, ...] | None:
    """The five ranks of a straight, top down, if these five distinct ranks make one."""
    if ranks == frozenset(_WHEEL):
        return _WHEEL
    top = max(ranks)
    if min(ranks) == top - 4:
        return tuple(range(top, top - 5, -1))
    return None


def _signature(ranks: Iterable[int]) -> int:
    return sum(1 << (3 * (r - 2)) for r in ranks)


def _rank_mask(ranks: Iterable[int]) -> int:
    return sum(1 << (r - 2) for r in ranks)


def _build_five() -> tuple[dict[int, int], dict[int, int], dict[int, int]]:
    """Keys of every five-card rank multiset (no flush), and of every flush, by category."""
    no_flush: dict[int, int] = {}  # rank signature -> key
    flush_by_signature: dict[int, int] = {}  # rank signature of 5 distinct ranks -> flush key
    flush_by_mask: dict[int, int] = {}  # rank bit mask of 5 distinct ranks -> flush key
    ranks_down = range(_ACE, 1, -1)
    for five in combinations(ranks_down, 5):
        straight = _straight_ranks(frozenset(five))
        if straight is None:
            plain, suited = _pack(Category.HIGH_CARD, five), _pack(Category.FLUSH, five)
        else:
            plain = _pack(Category.STRAIGHT, straight)
            suited = _pack(Category.STRAIGHT_FLUSH, straight)
        signature = _signature(five)
        no_flush[signature] = plain
        flush_by_signature[signature] = suited
        flush_by_mask[_rank_mask(five)] = suited
    for group in ranks_down:
        others = [r for r in ranks_down if r != group]
        ranks: tuple[int, ...]
        for kickers in combinations(others, 3):
            ranks = (group, group, *kickers)
            no_flush[_signature(ranks)] = _pack(Category.ONE_PAIR, ranks)
        for two_kickers in combinations(others, 2):
            ranks = (group, group, group, *two_kickers)
            no_flush[_signature(ranks)] = _pack(Category.THREE_OF_A_KIND, ranks)
        for other in others:
            ranks = (group, group, group, other, other)
            no_flush[_signature(ranks)] = _pack(Category.FULL_HOUSE, ranks)
            ranks = (group, group, group, group, other)
            no_flush[_signature(ranks)] = _pack(Category.FOUR_OF_A_KIND, ranks)
    for high, low in combinations(ranks_down, 2):
        for kicker in ranks_down:
            if kicker not in (high, low):
                ranks = (high, high, low, low, kicker)
                no_flush[_signature(ranks)] = _pack(Category.TWO_PAIR, ranks)
    return no_flush, flush_by_signature, flush_by_mask


def _extend(table: dict[int, int], fields: int, width: int, cap: int) -> dict[int, int]:
    """Keys for one more card: the best of the hands each one-card-smaller subset makes.

    `table` maps a packed count vector (`fields` fields of `width` bits) to a key; every
    vector reachable by adding 1 to a field still below `cap` gets the max over its sources.
    """
    grown: dict[int, int] = {}
    get = grown.get
    units = [(1 << (width * f), width * f) for f in range(fields)]
    field_mask = (1 << width) - 1
    for vector, key in table.items():
        for unit, shift in units:
            if (vector >> shift) & field_mask < cap:
                target = vector + unit
                if get(target, -1) < key:
                    grown[target] = key
    return grown


Tables = tuple[dict[int, int], dict[int, int], dict[int, int]]
"""The lookups of `rank5`..`rank7`: rank signature -> key without a flush (5 to 7 cards), rank
signature -> key of a five-card flush, rank mask of the flush suit -> key (5 to 7 cards)."""


def build_tables() -> Tables:
    """The tables, computed (what `hands.tables` holds)."""
    no_flush_5, flush_5, flush_mask_5 = _build_five()
    no_flush_6 = _extend(no_flush_5, 13, 3, 4)
    flush_mask_6 = _extend(flush_mask_5, 13, 1, 1)
    # Signatures of different sizes never collide (the field sum is the card count), nor masks.
    no_flush = {**no_flush_5, **no_flush_6, **_extend(no_flush_6, 13, 3, 4)}
    flush_by_mask = {**flush_mask_5, **flush_mask_6, **_extend(flush_mask_6, 13, 1, 1)}
    return no_flush, flush_5, flush_by_mask


TABLES_FILE = "hands.tables"
TABLES_SHA256 = "d26501658c0f5b01d7cd9634c1aeda5c12b751bde9f13265347dc2a9e777e28b"
"""The digest of the `hands.tables` that `tools.gen_hands` wrote from `build_tables`."""


def encode_tables(tables: Tables) -> bytes:
    """Each table as its size (u32), its keys ascending as differences (u64 each), its values
    (u32 each), little-endian; the whole compressed with zlib."""
    parts: list[bytes] = []
    for table in tables:
        keys = sorted(table)
        deltas = array.array("Q", [b - a for a, b in zip([0, *keys], keys, strict=False)])
        values = array.array("I", [table[key] for key in keys])
        if sys.byteorder == "big":
            deltas.byteswap()
            values.byteswap()
        parts += [len(keys).to_bytes(4, "little"), deltas.tobytes(), values.tobytes()]
    return zlib.compress(b"".join(parts), 9)


def decode_tables(blob: bytes) -> Tables:
    """The inverse of `encode_tables` (for a blob it wrote: check the digest first)."""
    raw = memoryview(zlib.decompress(blob))
    tables: list[dict[int, int]] = []
    at = 0
    for _ in range(3):
        size = int.from_bytes(raw[at : at + 4], "little")
        deltas, values = array.array("Q"), array.array("I")
        deltas.frombytes(raw[at + 4 : at + 4 + 8 * size])
        values.frombytes(raw[at + 4 + 8 * size : at + 4 + 12 * size])
        if sys.byteorder == "big":
            deltas.byteswap()
            values.byteswap()
        tables.append(dict(zip(accumulate(deltas), values, strict=True)))
        at += 4 + 12 * size
    no_flush, flush_5, flush_by_mask = tables
    return no_flush, flush_5, flush_by_mask


def load_tables(blob: bytes | None) -> Tables:
    """The tables of the file's bytes if they are the pinned ones, else built."""
    if blob is None or hashlib.sha256(blob).hexdigest() != TABLES_SHA256:
        return build_tables()
    return decode_tables(blob)


def _read_tables() -> bytes | None:
    try:
        return resources.files("p2pwillow").joinpath(TABLES_FILE).read_bytes()
    except OSError:
        return None


_NO_FLUSH, _FLUSH_5, _FLUSH_BY_MASK = load_tables(_read_tables())
_HAND_KEYS: frozenset[int] = frozenset(_NO_FLUSH.values()) | frozenset(_FLUSH_5.values())
_RANKS_OF = _Ranks()  # key -> its five ranks

_CARD_CODE: tuple[int, ...] = tuple(
    (1 << (16 + 3 * (index >> 2))) | (1 << (4 * (index & 3))) for index in range(52)
)
_SUIT_BIAS = 0x3333  # + 3 in every suit field: a field of 5..7 sets its top bit (0x8)
_FLUSH_FLAGS = 0x8888
# For each single flagged suit: the rank bit of every card of that suit, 0 for the others.
_SUITED_MASK: dict[int, tuple[int, ...]] = {
    0x8 << (4 * suit): tuple((1 << (index >> 2)) if index & 3 == suit else 0 for index in range(52))
    for suit in range(4)
}


# --- fast integer entry points ---------------------------------------------------------------


def rank5(cards: Sequence[int]) -> int:
    """The key of exactly five distinct canonical card indices; bigger is better.

    Unchecked, for tight loops: give five distinct ints in 0..51 (`best_hand` checks).
    """
    a, b, c, d, e = cards
    code = _CARD_CODE
    s = code[a] + code[b] + code[c] + code[d] + code[e]
    if (s + _SUIT_BIAS) & _FLUSH_FLAGS:
        return _FLUSH_5[s >> 16]
    return _NO_FLUSH[s >> 16]


def rank6(cards: Sequence[int]) -> int:
    """The key of the best five of exactly six distinct card indices (unchecked)."""
    a, b, c, d, e, f = cards
    code = _CARD_CODE
    s = code[a] + code[b] + code[c] + code[d] + code[e] + code[f]
    flags = (s + _SUIT_BIAS) & _FLUSH_FLAGS
    if flags:
        m = _SUITED_MASK[flags]
        return _FLUSH_BY_MASK[m[a] | m[b] | m[c] | m[d] | m[e] | m[f]]
    return _NO_FLUSH[s >> 16]


def rank7(cards: Sequence[int]) -> int:
    """The key of the best five of exactly seven distinct card indices (unchecked)."""
    a, b, c, d, e, f, g = cards
    code = _CARD_CODE
    s = code[a] + code[b] + code[c] + code[d] + code[e] + code[f] + code[g]
    flags = (s + _SUIT_BIAS) & _FLUSH_FLAGS
    if flags:
        m = _SUITED_MASK[flags]
        return _FLUSH_BY_MASK[m[a] | m[b] | m[c] | m[d] | m[e] | m[f] | m[g]]
    return _NO_FLUSH[s >> 16]


_RANKERS = {5: rank5, 6: rank6, 7: rank7}


# --- texts -----------------------------------------------------------------------------------


def _n(rank: int) -> str:
    return RANK_NAMES[rank]


def _p(rank: int) -> str:
    return RANK_PLURALS[rank]


def describe(key: int) -> str:
    """Readable text of a hand key: "two pair, eights and fours, king kicker" (SPEC 2.3)."""
    if key not in _HAND_KEYS:
        raise ValueError(f"not a hand key: {key!r}")
    r = _unpack(key)
    match category_of(key):
        case Category.STRAIGHT_FLUSH:
            return "royal flush" if r[0] == _ACE else f"straight flush, {_n(r[0])} high"
        case Category.FOUR_OF_A_KIND:
            return f"four of a kind, {_p(r[0])}"
        case Category.FULL_HOUSE:
            return f"full house, {_p(r[0])} full of {_p(r[3])}"
        case Category.FLUSH:
            return f"flush, {_n(r[0])}-{_n(r[1])} high"
        case Category.STRAIGHT:
            return f"straight, {_n(r[0])} high"
        case Category.THREE_OF_A_KIND:
            return f"three of a kind, {_p(r[0])}"
        case Category.TWO_PAIR:
            return f"two pair, {_p(r[0])} and {_p(r[2])}, {_n(r[4])} kicker"
        case Category.ONE_PAIR:
            return f"pair of {_p(r[0])}, {_n(r[2])} kicker"
        case _:
            return f"{_n(r[0])}-{_n(r[1])} high"


def _describe_showing(key: int) -> str:
    r = _unpack(key)
    match category_of(key):
        case Category.FOUR_OF_A_KIND:
            return f"four of a kind, {_p(r[0])}"
        case Category.THREE_OF_A_KIND:
            return f"three of a kind, {_p(r[0])}"
        case Category.TWO_PAIR:
            return f"two pair, {_p(r[0])} and {_p(r[2])}"
        case Category.ONE_PAIR:
            kicker = f", {_n(r[2])} kicker" if len(r) > 2 else ""
            return f"pair of {_p(r[0])}{kicker}"
        case _:
            return f"{_n(r[0])} high" if len(r) == 1 else f"{_n(r[0])}-{_n(r[1])} high"


# --- values ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, order=True)
class HandValue:
    """The value of a five-card hand: totally ordered by `key` (higher beats lower, equal ties).

    `cards` are the five that play, in comparison order (SPEC 2.4). Suits never break ties, so
    two values with different cards may be equal.
    """

    key: int
    # Equality, order and hash are on `key` alone: suits never break ties.
    cards: tuple[Card, ...] = field(compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.key, int) or self.key not in _HAND_KEYS:
            raise ValueError(f"not a hand key: {self.key!r}")
        cards = self.cards
        if (
            type(cards) is not tuple
            or any(type(card) is not Card for card in cards)
            or tuple(card.rank for card in cards) != _RANKS_OF[self.key]
            # five of one suit are a flush, and a flush is five of one suit
            or (len({card.suit for card in cards}) == 1)
            != (self.key >> _CATEGORY_SHIFT in (Category.FLUSH, Category.STRAIGHT_FLUSH))
        ):
            raise ValueError(f"cards {self.cards!r} do not make the hand {describe(self.key)!r}")

    @property
    def category(self) -> Category:
        return category_of(self.key)

    @property
    def ranks(self) -> tuple[int, ...]:
        """The five ranks in comparison order (the ace of a five-high straight last)."""
        return _unpack(self.key)

    @property
    def text(self) -> str:
        return describe(self.key)

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True, order=True)
class ShowingValue:
    """The value of 1 to 4 face-up cards (SPEC 2.5): groups and kickers only.

    Ordered by `key`; meant to be compared between hands with the same number of cards showing.
    `cards` are the cards showing, in comparison order.
    """

    key: int
    cards: tuple[Card, ...] = field(compare=False)

    def __post_init__(self) -> None:
        hand = _checked(self.cards, 1, 4, "ShowingValue")
        if type(self.cards) is not tuple or (self.key, self.cards) != _showing(hand):
            raise ValueError(f"{self.key!r} is not the showing value of {self.cards!r} in order")

    @property
    def category(self) -> Category:
        return category_of(self.key)

    @property
    def ranks(self) -> tuple[int, ...]:
        return _unpack(self.key)

    @property
    def text(self) -> str:
        return _describe_showing(self.key)

    def __str__(self) -> str:
        return self.text


# --- checked entry points --------------------------------------------------------------------


def _checked(cards: Iterable[Card], low: int, high: int, what: str) -> tuple[Card, ...]:
    if isinstance(cards, str | bytes):
        raise ValueError(f"{what}: give Card values, not a string (parse it with parse_cards)")
    try:
        hand = tuple(cards)
    except TypeError:
        raise ValueError(f"{what}: expected a sequence of cards, not {cards!r}") from None
    for card in hand:
        if type(card) is not Card:
            raise ValueError(f"{what}: not a card: {card!r}")
    # These two reach players (`willow rank`): they name the cards, not this function.
    if not low <= len(hand) <= high:
        raise ValueError(f"give {low} to {high} cards, not {len(hand)}")
    if len(set(hand)) != len(hand):
        twice = sorted(card for card, n in Counter(hand).items() if n > 1)
        raise ValueError(f"a card appears twice: {', '.join(map(str, twice))}")
    return hand


def best_hand(cards: Iterable[Card]) -> HandValue:
    """The value of the best five of 5 to 7 distinct cards (SPEC 2.3, 2.4).

    Raises ValueError for fewer than 5 or more than 7 cards, a repeated card, or a non-card.
    `cards` of the result lists the five that play in comparison order; within a rank the
    higher suit comes first (a display choice: suits never rank, SPEC 2.4).
    """
    hand = _checked(cards, 5, 7, "best_hand")
    # Highest canonical index first: by rank, then by suit.
    pool = sorted((4 * (card.rank - 2) + card.suit for card in hand), reverse=True)
    key = _RANKERS[len(pool)](pool)
    if key >> _CATEGORY_SHIFT in (Category.FLUSH, Category.STRAIGHT_FLUSH):
        suits = [index & 3 for index in pool]
        flush_suit = max(range(4), key=suits.count)
        pool = [index for index in pool if index & 3 == flush_suit]
    playing: list[Card] = []
    for rank in _RANKS_OF[key]:
        for position, index in enumerate(pool):
            if index >> 2 == rank - 2:
                playing.append(DECK[index])
                del pool[position]
                break
    return HandValue(key, tuple(playing))


def _showing(hand: tuple[Card, ...]) -> tuple[int, tuple[Card, ...]]:
    """SPEC 2.5: the key of checked face-up cards, and the cards in comparison order."""
    counts = Counter(card.rank for card in hand)
    groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    shape = tuple(n for _, n in groups)
    if shape[0] == 4:
        category = Category.FOUR_OF_A_KIND
    elif shape[0] == 3:
        category = Category.THREE_OF_A_KIND
    elif shape[:2] == (2, 2):
        category = Category.TWO_PAIR
    elif shape[0] == 2:
        category = Category.ONE_PAIR
    else:
        category = Category.HIGH_CARD
    ranks = [rank for rank, n in groups for _ in range(n)]
    ordered = tuple(sorted(hand, key=lambda c: (counts[c.rank], c.rank, int(c.suit)), reverse=True))
    return _pack(category, ranks), ordered


def showing_value(cards: Iterable[Card]) -> ShowingValue:
    """The value of 1 to 4 face-up cards, as stud ranks partial hands (SPEC 2.5).

    Four, three, two pair, pair, high card, then kickers; straights and flushes do not count.
    """
    return ShowingValue(*_showing(_checked(cards, 1, 4, "showing_value")))
