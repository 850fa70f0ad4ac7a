"""Hand ranking (SPEC 2.3-2.5), checked against treys and by hand.

treys ranks a hand 1 (royal flush) to 7462 (7-5-4-3-2): smaller is better.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from itertools import combinations, pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st
from treys import Card as TreysCard
from treys import Evaluator

from p2pwillow.cards import DECK, Card, Suit, parse_cards
from p2pwillow.hands import (
    Category,
    HandValue,
    ShowingValue,
    best_hand,
    category_of,
    describe,
    rank5,
    rank6,
    rank7,
    showing_value,
)

EVALUATOR = Evaluator()
TREYS = [TreysCard.new(card.ascii) for card in DECK]  # by canonical index
RANKERS = {5: rank5, 6: rank6, 7: rank7}


def treys_rank(indices: tuple[int, ...] | list[int]) -> int:
    treys_cards = [TREYS[i] for i in indices]
    return int(EVALUATOR.evaluate(treys_cards[:2], treys_cards[2:]))


def hand(text: str) -> list[Card]:
    return parse_cards(text)


# --- all 2,598,960 five-card hands -----------------------------------------------------------


class Exhaustive:
    """Every five-card hand's key and treys rank, computed once for the module."""

    def __init__(self) -> None:
        five = EVALUATOR._five  # treys's five-card evaluator, without the list concatenation
        keys = list(map(rank5, combinations(range(52), 5)))
        theirs = list(map(five, combinations(TREYS, 5)))
        self.count = len(keys)
        self.by_key = Counter(keys)
        self.pairs = set(zip(keys, theirs, strict=True))


@pytest.fixture(scope="module")
def exhaustive() -> Exhaustive:
    return Exhaustive()


@pytest.fixture(scope="module")
def key_to_treys(exhaustive: Exhaustive) -> dict[int, int]:
    return dict(exhaustive.pairs)


@pytest.mark.slow
def test_category_counts(exhaustive: Exhaustive) -> None:
    assert exhaustive.count == 2_598_960
    per_category: Counter[Category] = Counter()
    royal = 0
    for key, n in exhaustive.by_key.items():
        per_category[category_of(key)] += n
        if describe(key) == "royal flush":
            royal += n
    assert per_category == {
        Category.STRAIGHT_FLUSH: 40,
        Category.FOUR_OF_A_KIND: 624,
        Category.FULL_HOUSE: 3_744,
        Category.FLUSH: 5_108,
        Category.STRAIGHT: 10_200,
        Category.THREE_OF_A_KIND: 54_912,
        Category.TWO_PAIR: 123_552,
        Category.ONE_PAIR: 1_098_240,
        Category.HIGH_CARD: 1_302_540,
    }
    assert royal == 4


@pytest.mark.slow
def test_distinct_values(exhaustive: Exhaustive) -> None:
    assert len(exhaustive.by_key) == 7_462
    distinct_per_category = Counter(category_of(key) for key in exhaustive.by_key)
    assert distinct_per_category == {
        Category.STRAIGHT_FLUSH: 10,
        Category.FOUR_OF_A_KIND: 156,
        Category.FULL_HOUSE: 156,
        Category.FLUSH: 1_277,
        Category.STRAIGHT: 10,
        Category.THREE_OF_A_KIND: 858,
        Category.TWO_PAIR: 858,
        Category.ONE_PAIR: 2_860,
        Category.HIGH_CARD: 1_277,
    }


@pytest.mark.slow
def test_same_order_as_treys_hand_for_hand(exhaustive: Exhaustive) -> None:
    # One treys rank per key and one key per treys rank: ties agree hand for hand ...
    assert len(exhaustive.pairs) == len(exhaustive.by_key) == 7_462
    assert len({theirs for _, theirs in exhaustive.pairs}) == 7_462
    # ... and a bigger key is always a better (smaller) treys rank: the orders agree.
    by_our_order = [theirs for _, theirs in sorted(exhaustive.pairs)]
    assert by_our_order == list(range(7_462, 0, -1))


def test_treys_card_mapping() -> None:
    # The comparison above is only meaningful if both sides see the same cards.
    for card in DECK:
        assert TreysCard.int_to_str(TREYS[card.index]) == card.ascii


# --- six and seven cards -----------------------------------------------------------------------


def _sample(n: int, size: int, seed: int) -> Iterator[list[int]]:
    rng = random.Random(seed)
    for _ in range(n):
        yield rng.sample(range(52), size)


@pytest.mark.parametrize(("size", "n"), [(7, 60_000), (6, 20_000)])
def test_agrees_with_treys_on_random_hands(size: int, n: int, key_to_treys: dict[int, int]) -> None:
    ranker = RANKERS[size]
    for indices in _sample(n, size, seed=20_240 + size):
        assert key_to_treys[ranker(indices)] == treys_rank(indices), indices


def test_seven_card_flush_and_straight_corners(key_to_treys: dict[int, int]) -> None:
    # Hands a subset evaluator gets right trivially but a direct one can get wrong.
    corners = [
        "Ah Kh Qh Jh Th 9h 8h",  # seven to a royal flush
        "9h 8h 7h 6h 5h 4h 3h",  # seven-card straight flush
        "Ah 2h 3h 4h 5h 6d 7c",  # steel wheel beside a higher plain straight
        "Ah 2h 3h 4h 5h 6h Kc",  # six-high straight flush over the wheel
        "As Ks Qs Js 9s Th Tc",  # flush beside a broadway straight
        "2c 3c 4c 5c 7c Ad 6d",  # flush beats the straight it contains
        "Ac Ad Ah Kc Kd Kh 2s",  # two sets of trips
        "Ac Ad Ah As Kc Kd Kh",  # quads with a full house beside
        "Ac Ad Kc Kd Qc Qd Jh",  # three pairs
        "2c 2d 2h 3c 3d 4h 4s",  # trips and two pairs
        "Tc Jd Qh Ks Ac 9d 8h",  # seven-card straight
        "5c 4d 3h 2s Ac Ad Ah",  # wheel beside trips
    ]
    for text in corners:
        indices = [card.index for card in hand(text)]
        assert key_to_treys[rank7(indices)] == treys_rank(indices), text


@given(st.lists(st.sampled_from(DECK), min_size=5, max_size=7, unique=True))
def test_best_of_subsets(cards: list[Card]) -> None:
    value = best_hand(cards)
    subsets = [rank5([c.index for c in five]) for five in combinations(cards, 5)]
    assert value.key == max(subsets)
    # The five that play are among the cards given and make exactly that value.
    assert set(value.cards) <= set(cards)
    assert rank5([c.index for c in value.cards]) == value.key
    assert best_hand(value.cards) == value


@given(
    st.lists(st.sampled_from(DECK), min_size=5, max_size=7, unique=True),
    st.permutations(list(Suit)),
    st.randoms(use_true_random=False),
)
def test_suits_and_order_never_matter(
    cards: list[Card], suit_map: list[Suit], rnd: random.Random
) -> None:
    relabelled = [Card(c.rank, suit_map[c.suit]) for c in cards]
    rnd.shuffle(relabelled)
    assert best_hand(relabelled).key == best_hand(cards).key


# --- values, texts, ordering -----------------------------------------------------------------

KNOWN = [
    ("Ah Kh Qh Jh Th", Category.STRAIGHT_FLUSH, "royal flush", "Ah Kh Qh Jh Th"),
    ("5s 9s 8s 7s 6s 2d", Category.STRAIGHT_FLUSH, "straight flush, nine high", "9s 8s 7s 6s 5s"),
    ("Ad 2d 3d 4d 5d", Category.STRAIGHT_FLUSH, "straight flush, five high", "5d 4d 3d 2d Ad"),
    ("Kc Kd Ks Kh 3c", Category.FOUR_OF_A_KIND, "four of a kind, kings", "Ks Kh Kd Kc 3c"),
    ("Tc 4d Th 4s Ts", Category.FULL_HOUSE, "full house, tens full of fours", "Ts Th Tc 4s 4d"),
    ("Ac 3c 9c Kc 6c", Category.FLUSH, "flush, ace-king high", "Ac Kc 9c 6c 3c"),
    ("6d 2c 3h 4s 5c", Category.STRAIGHT, "straight, six high", "6d 5c 4s 3h 2c"),
    ("Ah 2c 3h 4s 5c 9d", Category.STRAIGHT, "straight, five high", "5c 4s 3h 2c Ah"),
    ("As Kd Qh Jc Tc", Category.STRAIGHT, "straight, ace high", "As Kd Qh Jc Tc"),
    ("7c 7d 7h As 2d", Category.THREE_OF_A_KIND, "three of a kind, sevens", "7h 7d 7c As 2d"),
    ("8h 4c Kd 8s 4d", Category.TWO_PAIR, "two pair, eights and fours, king kicker",
     "8s 8h 4d 4c Kd"),
    ("6c 6d 2h 2s Qh Qd 3c", Category.TWO_PAIR, "two pair, queens and sixes, three kicker",
     "Qh Qd 6d 6c 3c"),
    ("As Kd 10h Tc 2c", Category.ONE_PAIR, "pair of tens, ace kicker", "Th Tc As Kd 2c"),
    ("Ks 9d 7h 4c 2c", Category.HIGH_CARD, "king-nine high", "Ks 9d 7h 4c 2c"),
    ("7s 5d 4h 3c 2c", Category.HIGH_CARD, "seven-five high", "7s 5d 4h 3c 2c"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "category", "words", "playing"), KNOWN, ids=[k[2] for k in KNOWN])
def test_known_hands(text: str, category: Category, words: str, playing: str) -> None:
    value = best_hand(hand(text))
    assert value.category is category
    assert value.text == words
    assert str(value) == words
    assert value.cards == tuple(hand(playing))
    assert value.ranks == tuple(card.rank for card in hand(playing))


# SPEC 2.4 and 2.5 examples: the value key is the protocol's definition of the order.
SPEC_KEYS = [
    ("Ah Kh Qh Jh Th", 0x8EDCBA),
    ("Ad 2d 3d 4d 5d", 0x85432E),
    ("Kc Kd Ks Kh 3c", 0x7DDDD3),
    ("Tc 4d Th 4s Ts", 0x6AAA44),
    ("Ac 3c 9c Kc 6c", 0x5ED963),
    ("Ah 2c 3h 4s 5c", 0x45432E),
    ("7c 7d 7h As 2d", 0x3777E2),
    ("8h 4c Kd 8s 4d", 0x28844D),
    ("As Kd Th Tc 2c", 0x1AAED2),
    ("7s 5d 4h 3c 2c", 0x075432),
]
SPEC_SHOWING_KEYS = [
    ("Kh Kd", 0x1DD000),
    ("Ac Kd", 0x0ED000),
    ("9h Th Jh Qh", 0x0CBA90),
    ("2c 2d 3h 4s", 0x122430),
    ("7h Ad 7d 7c", 0x3777E0),
    ("Ah", 0x0E0000),
]


@pytest.mark.parametrize(("text", "key"), SPEC_KEYS)
def test_spec_value_keys(text: str, key: int) -> None:
    assert best_hand(hand(text)).key == key
    assert rank5([card.index for card in hand(text)]) == key


@pytest.mark.parametrize(("text", "key"), SPEC_SHOWING_KEYS)
def test_spec_showing_keys(text: str, key: int) -> None:
    assert showing_value(hand(text)).key == key


def test_known_hands_are_in_order() -> None:
    order = [
        "7s 5d 4h 3c 2c",  # the worst hand
        "Ks 9d 7h 4c 2c",
        "Ks 9d 7h 4c 3c",
        "Ks Td 3h 4c 2c",
        "2s 2d 5h 4c 3c",
        "2s 2d Ah Kc Qc",
        "As Ad 5h 4c 3c",
        "3s 3d 2h 2c 4c",
        "3s 3d 2h 2c 5c",
        "As Ad Kh Kc Qc",
        "2s 2d 2h Ac Kc",
        "As Ad Ah 3c 2c",
        "Ah 2c 3h 4s 5c",  # the lowest straight
        "6d 2c 3h 4s 5c",
        "As Kd Qh Jc Tc",
        "2c 3c 4c 5c 7c",
        "Ac Kc Qc Jc 9c",
        "2s 2d 2h 3c 3d",
        "As Ad Ah Kc Kd",
        "2s 2d 2h 2c 3c",
        "As Ad Ah Ac Kc",
        "Ah 2h 3h 4h 5h",
        "9s 8s 7s 6s 5s",
        "Ah Kh Qh Jh Th",  # the best hand
    ]
    values = [best_hand(hand(text)) for text in order]
    for weaker, stronger in pairwise(values):
        assert weaker < stronger and stronger > weaker
        assert weaker <= stronger and stronger >= weaker
        assert weaker != stronger and (weaker == stronger) is False
    assert sorted(reversed(values)) == values
    assert max(values).text == "royal flush"


def test_ties_ignore_suits() -> None:
    a = best_hand(hand("As Kd 9h 7c 4c"))
    b = best_hand(hand("Ac Kh 9s 7d 4h"))
    assert a == b and hash(a) == hash(b) and not a < b and not b < a
    assert a.cards != b.cards
    assert len({a, b}) == 1
    flush_a = best_hand(hand("Ac Kc 9c 7c 4c"))
    flush_b = best_hand(hand("Ah Kh 9h 7h 4h"))
    assert flush_a == flush_b
    assert best_hand(hand("Ac Kc 9c 7c 4c 2d")) > best_hand(hand("Ah Kh 9h 7h 3h Ad"))


def test_kickers_decide() -> None:
    assert best_hand(hand("8s 8h 4d 4c Kd")) > best_hand(hand("8d 8c 4s 4h Qd"))
    assert best_hand(hand("Ts Th As Kd 3c")) > best_hand(hand("Td Tc As Kc 2c"))
    assert best_hand(hand("Ks Qd 9h 5c 3c")) > best_hand(hand("Kd Qh 9s 5d 2c"))


def test_rank6_and_rank7_agree_with_best_hand() -> None:
    rng = random.Random(7)
    for size in (5, 6, 7):
        for _ in range(2_000):
            indices = rng.sample(range(52), size)
            value = best_hand([Card.from_index(i) for i in indices])
            assert RANKERS[size](indices) == value.key


# --- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["As Kd Qh Jc", "As Kd Qh Jc Tc 9c 8c 7c", "As As Kd Qh Jc", "As Kd Qh Jc Tc Kd"],
)
def test_best_hand_rejects_bad_counts_and_duplicates(text: str) -> None:
    with pytest.raises(ValueError):
        best_hand(hand(text))


def test_best_hand_names_the_duplicate() -> None:
    with pytest.raises(ValueError, match="Kd"):
        best_hand(hand("As Kd Qh Jc Tc Kd"))


@pytest.mark.parametrize(
    "bad",
    ["As Kd Qh Jc Tc", [51, 47, 42, 37, 32], [*hand("As Kd Qh Jc"), "Tc"], None, [], 5],
    ids=["string", "indices", "a-string-card", "none", "empty", "int"],
)
def test_best_hand_rejects_non_cards(bad: object) -> None:
    with pytest.raises(ValueError):
        best_hand(bad)  # type: ignore[arg-type]


def test_hand_value_rejects_forged_values() -> None:
    good = best_hand(hand("8s 8h 4d 4c Kd"))
    assert HandValue(good.key, good.cards) == good
    with pytest.raises(ValueError):
        HandValue(good.key + 1, good.cards)  # not a key of any hand
    with pytest.raises(ValueError):
        HandValue(good.key, tuple(hand("8s 8h 4d 4c Qd")))  # cards do not match the key
    with pytest.raises(ValueError):
        HandValue(good.key, good.cards[:4])
    flush = best_hand(hand("Ac Kc 9c 7c 4c"))
    with pytest.raises(ValueError):
        HandValue(flush.key, tuple(hand("Ac Kc 9c 7c 4d")))  # a flush that is not suited
    high = best_hand(hand("Ac Kd 9c 7c 4c"))
    with pytest.raises(ValueError):
        HandValue(high.key, tuple(hand("Ac Kc 9c 7c 4c")))  # suited, but called high card
    with pytest.raises(ValueError):
        describe(0)
    with pytest.raises(ValueError):
        HandValue(-1, good.cards)


def test_values_do_not_compare_with_other_types() -> None:
    value = best_hand(hand("8s 8h 4d 4c Kd"))
    showing = showing_value(hand("8s 8h"))
    # every comparison below crosses types on purpose
    assert value != value.key  # type: ignore[comparison-overlap]
    assert value != showing  # type: ignore[comparison-overlap]
    with pytest.raises(TypeError):
        _ = value < value.key  # type: ignore[operator]
    with pytest.raises(TypeError):
        _ = showing < value  # type: ignore[operator]


# --- showing (partial hands) -------------------------------------------------------------------

SHOWING = [
    ("Ah", Category.HIGH_CARD, "ace high"),
    ("2c", Category.HIGH_CARD, "two high"),
    ("Kh 9d", Category.HIGH_CARD, "king-nine high"),
    ("Kh Kd", Category.ONE_PAIR, "pair of kings"),
    ("Kh 2c Kd", Category.ONE_PAIR, "pair of kings, two kicker"),
    ("4h 4d Kc Kd", Category.TWO_PAIR, "two pair, kings and fours"),
    ("7h 7d 7c", Category.THREE_OF_A_KIND, "three of a kind, sevens"),
    ("7h Ad 7d 7c", Category.THREE_OF_A_KIND, "three of a kind, sevens"),
    ("Qs Qh Qd Qc", Category.FOUR_OF_A_KIND, "four of a kind, queens"),
    ("9h Th Jh Qh", Category.HIGH_CARD, "queen-jack high"),  # no straights, no flushes
]


@pytest.mark.parametrize(("text", "category", "words"), SHOWING, ids=[s[0] for s in SHOWING])
def test_showing_known(text: str, category: Category, words: str) -> None:
    value = showing_value(hand(text))
    assert value.category is category
    assert value.text == words
    assert sorted(value.cards) == sorted(hand(text))


# Each list runs weakest to strongest, for the same number of cards showing.
SHOWING_ORDER = [
    ["2c", "9d", "Ks", "Ah"],
    ["3c 2d", "Kc 2d", "Kc Qd", "Ad 2c", "Ad Kh", "2c 2d", "Tc Td", "Ac Ad"],
    ["9h 8h 7h", "Kc 3d 2h", "Kc 4d 2h", "Ac Kd Qh", "2c 2d 3h", "2c 2d Ah", "3c 3d 2h",
     "Ac Ad Kc", "2c 2d 2h", "Ac Ad Ah"],
    ["5h 4h 3h 2h", "Ah Kh Qh Jh", "2c 2d 4c 3d", "2c 2d Ah Kh", "Ac Ad Kc Qd", "3c 3d 2c 2d",
     "Kc Kd 2c 2d", "Kc Kd Qc Qd", "Ac Ad 2c 2d", "2c 2d 2h Ac", "Ac Ad Ah 2c", "2c 2d 2h 2s",
     "Ac Ad Ah As"],
]  # fmt: skip


@pytest.mark.parametrize("order", SHOWING_ORDER, ids=lambda o: f"{len(o[0].split())}-cards")
def test_showing_order(order: list[str]) -> None:
    values = [showing_value(hand(text)) for text in order]
    for weaker, stronger in pairwise(values):
        assert weaker < stronger and stronger > weaker and weaker <= stronger
        assert stronger >= weaker and weaker != stronger


def test_showing_ties_ignore_suits() -> None:
    assert showing_value(hand("Kh 9d")) == showing_value(hand("Ks 9c"))
    assert hash(showing_value(hand("Kh Kd 2c"))) == hash(showing_value(hand("Ks Kc 2d")))
    assert showing_value(hand("Ah Kh Qh Jh")) == showing_value(hand("As Kd Qh Jc"))


def test_showing_opens_like_the_rules_need() -> None:
    # Round 2: a pair showing beats any two unpaired cards, and ace-king beats ace-queen.
    assert showing_value(hand("2c 2d")) > showing_value(hand("Ac Kd"))
    assert showing_value(hand("Ac Kd")) > showing_value(hand("As Qd"))
    # A four-card straight flush draw is only queen high.
    assert showing_value(hand("9h Th Jh Qh")) < showing_value(hand("2c 2d 3h 4s"))


@pytest.mark.parametrize("text", ["", "As Kd Qh Jc Tc", "As As"])
def test_showing_rejects_bad_input(text: str) -> None:
    with pytest.raises(ValueError):
        showing_value(hand(text))


def test_showing_value_rejects_forged_values() -> None:
    good = showing_value(hand("Kh 2c Kd"))
    assert ShowingValue(good.key, good.cards) == good
    with pytest.raises(ValueError):
        ShowingValue(good.key + 1, good.cards)
    with pytest.raises(ValueError):
        ShowingValue(good.key, tuple(hand("Kh Kd 3c")))
    with pytest.raises(ValueError):
        ShowingValue(good.key, tuple(hand("2c Kh Kd")))  # not in comparison order
    with pytest.raises(ValueError):
        ShowingValue(good.key, ())


def test_showing_rejects_non_cards() -> None:
    with pytest.raises(ValueError):
        showing_value("As")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        showing_value([51])  # type: ignore[list-item]
    assert isinstance(showing_value(hand("As")), ShowingValue)
