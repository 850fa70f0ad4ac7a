"""Hand values of the dealer's-choice games (SPEC 2.7), checked against PokerKit and by hand.

PokerKit is a test-only oracle. Where the local rules differ from it (the hi-lo wheel on top,
paired eight-or-better lows) the tests pin the local answer and that PokerKit's differs.
PokerKit is slow (about 0.6 ms a seven-card hand, 2 ms an Omaha hand), so samples are sized to
keep this file to a few seconds; half of each sample is drawn from a few ranks only, where
pairs, full houses, wheels and straight flushes are common.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from itertools import combinations, pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import (
    EightOrBetterLowHand,
    OmahaEightOrBetterLowHand,
    OmahaHoldemHand,
    RegularLowHand,
    StandardHighHand,
)
from pokerkit import Hand as PokerKitHand

from p2pwillow.cards import DECK, Card, parse_cards
from p2pwillow.evaluators import (
    best_high,
    describe_high,
    describe_low,
    holdem_high,
    low_a5,
    low_eight_or_better,
    omaha_high,
    omaha_low,
    wheel_on_top,
)
from p2pwillow.hands import Category, best_hand, category_of, describe, rank5


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def text_of(hand: Sequence[Card]) -> str:
    return "".join(card.ascii for card in hand)


def from_pokerkit(hand: PokerKitHand) -> list[Card]:
    """The five cards PokerKit says play (its repr of a card is the ASCII form)."""
    return cards(" ".join(repr(card) for card in hand.cards))


LOW_FLIP = 0x7FFFFF  # SPEC 2.7: a low key is the high-style key of its ace-low ranks, flipped
LOW_RANKS = (14, 2, 3, 4, 5, 6)  # a dense deck for lows: pairs and wheels are common
HIGH_RANKS = (14, 2, 3, 4, 5, 10, 11, 12, 13)  # ... and for highs: wheels and broadways


def deals(seed: int, count: int, size: int, dense: Sequence[int]) -> list[list[Card]]:
    """`count` random hands of `size` cards: half from the whole deck, half from `dense`."""
    rng = random.Random(seed)
    few = [card for card in DECK if card.rank in dense]
    return [rng.sample(DECK if i % 2 else few, size) for i in range(count)]


def assert_same_order(ours: Sequence[int | None], theirs: Sequence[PokerKitHand]) -> None:
    """Our keys order the hands exactly as PokerKit does, ties included: sorted by our key,
    each neighbour relates to the next the same way in both (both orders are total)."""
    order = sorted(range(len(ours)), key=lambda i: ours[i] or 0)
    for a, b in pairwise(order):
        key_a, key_b = ours[a], ours[b]
        assert key_a is not None and key_b is not None
        assert (key_a < key_b, key_a == key_b) == (theirs[a] < theirs[b], theirs[a] == theirs[b])


# --- differential: high ----------------------------------------------------------------------


@pytest.mark.parametrize(("size", "count"), [(5, 400), (6, 300), (7, 1000), (8, 150), (9, 100)])
def test_best_high_agrees_with_pokerkit(size: int, count: int) -> None:
    hands = deals(size, count, size, HIGH_RANKS)
    ours = [best_high(hand) for hand in hands]
    theirs = [StandardHighHand.from_game(text_of(hand)) for hand in hands]
    for key, hand in zip(ours, theirs, strict=True):
        assert rank5([card.index for card in from_pokerkit(hand)]) == key
    assert_same_order(ours, theirs)


def test_holdem_high_is_the_best_five_of_all_seven() -> None:
    for hand in deals(17, 300, 7, HIGH_RANKS):
        assert holdem_high(hand[:2], hand[2:]) == best_high(hand)
        assert holdem_high(hand[:2], hand[2:5]) == best_high(hand[:5])


def test_omaha_high_agrees_with_pokerkit() -> None:
    hands = deals(4, 500, 9, HIGH_RANKS)
    boards = [hand[4 : 4 + 3 + i % 3] for i, hand in enumerate(hands)]  # flop, turn, river
    ours = [omaha_high(hand[:4], board) for hand, board in zip(hands, boards, strict=True)]
    theirs = [
        OmahaHoldemHand.from_game(text_of(hand[:4]), text_of(board))
        for hand, board in zip(hands, boards, strict=True)
    ]
    for hand, board, key, their in zip(hands, boards, ours, theirs, strict=True):
        five = from_pokerkit(their)
        assert rank5([card.index for card in five]) == key
        assert len(set(five) & set(hand[:4])) == 2 and len(set(five) & set(board)) == 3
    assert_same_order(ours, theirs)


# --- differential: lows ----------------------------------------------------------------------


@pytest.mark.parametrize(("size", "count", "shapes"), [(5, 500, 6), (7, 700, 4), (9, 100, 3)])
def test_low_a5_agrees_with_pokerkit(size: int, count: int, shapes: int) -> None:
    hands = deals(50 + size, count, size, (14, 2, 3, 4))  # four ranks: lows with pairs
    ours = [low_a5(hand) for hand in hands]
    theirs = [RegularLowHand.from_game(text_of(hand)) for hand in hands]
    for key, hand in zip(ours, theirs, strict=True):
        assert low_a5(from_pokerkit(hand)) == key
    assert_same_order(ours, theirs)
    # no pair, pair, two pair (and with 5 or 7 cards trips, with 5 a full house and four)
    assert len({category_of(key ^ LOW_FLIP) for key in ours}) == shapes


def is_paired(low: int) -> bool:
    return category_of(low ^ LOW_FLIP) is not Category.HIGH_CARD


def lows_that_play(
    hands: Sequence[tuple[Sequence[Card], ...]],
    ours: Callable[..., int | None],
    theirs: Callable[..., PokerKitHand | None],
) -> tuple[list[int], list[PokerKitHand]]:
    """Where PokerKit has a low, ours is the same low; where it has none, ours is none or
    paired (the local reading). The lows both have, for comparing their order."""
    keys, hands_of_theirs = [], []
    paired = 0
    for hand in hands:
        key, their = ours(*hand), theirs(*map(text_of, hand))
        if their is None:
            assert key is None or is_paired(key), hand
            paired += key is not None
        else:
            assert key is not None and low_a5(from_pokerkit(their)) == key, hand
            keys.append(key)
            hands_of_theirs.append(their)
    assert paired and len(keys) > len(hands) // 10  # both kinds occur in the sample
    return keys, hands_of_theirs


def test_eight_or_better_agrees_with_pokerkit_where_the_low_has_no_pair() -> None:
    hands = [(hand,) for hand in deals(8, 1000, 7, (*LOW_RANKS, 7, 8, 9))]
    ours, theirs = lows_that_play(
        hands, low_eight_or_better, EightOrBetterLowHand.from_game_or_none
    )
    assert_same_order(ours, theirs)


def test_omaha_low_agrees_with_pokerkit_where_the_low_has_no_pair() -> None:
    hands = [(hand[:4], hand[4:]) for hand in deals(9, 300, 9, (*LOW_RANKS, 7, 8, 9))]
    ours, theirs = lows_that_play(hands, omaha_low, OmahaEightOrBetterLowHand.from_game_or_none)
    assert_same_order(ours, theirs)


# --- where the local rules differ from PokerKit ----------------------------------------------


def test_the_wheel_is_the_top_straight_in_hi_lo() -> None:
    wheel, six_high = cards("Ah 2c 3d 4s 5h"), cards("2h 3s 4d 5c 6s")
    broadway, flush = cards("As Kd Qh Jc Th"), cards("2c 4c 6c 8c Tc")
    assert best_high(wheel) < best_high(six_high) < best_high(broadway)  # SPEC 2.4, as PokerKit
    assert StandardHighHand(text_of(wheel)) < StandardHighHand(text_of(six_high))
    top = best_high(wheel, wheel_high=True)
    assert best_high(broadway, wheel_high=True) < top < best_high(flush, wheel_high=True)
    assert describe_high(top) == "straight, five high (the wheel, on top)"
    # with 6 to 9 cards the wheel is chosen over a higher-topped straight
    assert best_high(cards("Ah 2c 3d 4s 5h 6c Kd"), wheel_high=True) == top
    assert best_high(cards("Ah 2c 3d 4s 5h 6c Kd")) == best_hand(six_high + cards("Ah Kd")).key


def test_the_wheel_in_one_suit_beats_a_royal_flush_in_hi_lo() -> None:
    royal = cards("Ah Kh Qh Jh Th")
    steel = cards("Ad 2d 3d 4d 5d")
    assert best_high(steel) < best_high(royal)
    top = best_high(steel, wheel_high=True)
    assert best_high(royal, wheel_high=True) < top
    assert describe_high(top) == "straight flush, five high (the wheel, on top)"
    # a six-high straight flush with the ace of its suit is the wheel on top
    assert best_high(cards("Ad 2d 3d 4d 5d 6d 9c"), wheel_high=True) == top
    # an off-suit ace makes a wheel straight, which the six-high straight flush still beats
    assert category_of(best_high(cards("Ac 2d 3d 4d 5d 6d"), wheel_high=True)) is (
        Category.STRAIGHT_FLUSH
    )
    assert omaha_high(cards("Ad 2d Kc Ks"), cards("3d 4d 5d"), wheel_high=True) == top
    assert omaha_high(cards("Ad 2d Kc Ks"), cards("3d 4d 5d")) == best_high(steel)


def test_a_paired_low_qualifies_for_eight_or_better_locally() -> None:
    for text in ("Ah As 3c 4d 5h", "Ah 2c 3d 2d 3h 9s Ts"):
        assert EightOrBetterLowHand.from_game_or_none(text.replace(" ", "")) is None
    assert describe_low(low_a5(cards("Ah As 3c 4d 5h"))) == "A-A-5-4-3 low (pair of aces)"
    assert low_eight_or_better(cards("Ah As 3c 4d 5h")) == low_a5(cards("Ah As 3c 4d 5h"))
    # the best low of 8 or lower is paired, while the best A-5 low has a nine and a ten
    paired = low_eight_or_better(cards("Ah 2c 3d 2d 3h 9s Ts"))
    assert paired is not None
    assert describe_low(paired) == "3-3-2-2-A low (two pair, threes and twos)"
    assert describe_low(low_a5(cards("Ah 2c 3d 2d 3h 9s Ts"))) == "10-9-3-2-A low"
    assert low_eight_or_better(cards("9h 4s 3c 2d Ah")) is None
    assert low_eight_or_better(cards("Ah As Ad 2c 2d 9s")) is not None  # a full house of lows
    assert low_eight_or_better(cards("Ah As 2c 9d 9s Kc")) is None  # fewer than five lows
    paired = omaha_low(cards("Ah Ad 9c 9d"), cards("3s 4s 5s Kd Qd"))
    assert paired == low_a5(cards("Ah Ad 3s 4s 5s"))
    assert OmahaEightOrBetterLowHand.from_game_or_none("AhAd9c9d", "3s4s5sKdQd") is None


# --- by hand ---------------------------------------------------------------------------------


def test_low_keys_and_texts() -> None:
    assert low_a5(cards("5h 4s 3c 2d Ah")) == 0x7ABCDE  # the best low
    assert low_a5(cards("5h 4h 3h 2h Ah")) == 0x7ABCDE  # flushes and straights do not count
    assert low_a5(cards("Kh Kd Ks Kc Qd")) == 0x022223  # the worst
    assert low_a5(cards("Ah As 3c 4d 5h")) > low_a5(cards("2h 2s 3c 4d 6h"))  # AA beats 22
    assert low_a5(cards("Kh Qh Jh Th 9h")) > low_a5(cards("Ah As 3c 4d 5h"))  # any no-pair low
    texts = {
        "8h 5c 4d 2s Ah": "8-5-4-2-A low",
        "Th 9c 4d 2s Ah": "10-9-4-2-A low",
        "Kh Kd Ks 2c 2d": "K-K-K-2-2 low (full house, kings full of twos)",
        "2h 2d 2s Ac 3d": "2-2-2-3-A low (three of a kind, twos)",
        "Qh Qd Qs Qc Jd": "Q-Q-Q-Q-J low (four of a kind, queens)",
    }
    for hand, text in texts.items():
        assert describe_low(low_a5(cards(hand))) == text
    for bad in (0, 0x7FFFFF, 0x7ABCDF, -1, 1 << 30, 0x7AAAAA, 0x7ABCDE ^ 0x100000):
        with pytest.raises(ValueError, match="not a low key"):
            describe_low(bad)


def test_omaha_uses_exactly_two_hole_cards_and_three_board_cards() -> None:
    assert describe(omaha_high(cards("Ah Kh 2c 3d"), cards("Qh Jh Th 9s 8s"))) == "royal flush"
    # four hearts on the board and one in the hole: no flush; the board's royal does not play
    key = omaha_high(cards("Ah 2c 3d 4s"), cards("Kh Qh Jh Th 5c"))
    assert describe(key) == "ace-king high"
    assert describe(holdem_high(cards("Ah 2c"), cards("Kh Qh Jh Th 5c"))) == "royal flush"
    # a pair in the hand: one pair only, even with trips on the board
    assert describe(omaha_high(cards("9c 9d 2s 3s"), cards("Kh Kd Ks 7c 8d"))) == (
        "full house, kings full of nines"
    )
    assert describe(omaha_high(cards("Ac 2d 3s 4s"), cards("Kh Kd Ks 7c 8d"))) == (
        "three of a kind, kings"
    )
    assert omaha_low(cards("Ah 2h Kc Kd"), cards("3s 4s 9s Td Qd")) is None  # two lows on board
    assert omaha_low(cards("Ah 2h 3c 4d"), cards("5s 9s Td")) is None


def test_the_low_keys_spec_lists() -> None:
    spec = (Path(__file__).resolve().parent.parent / "SPEC.md").read_text(encoding="utf-8")
    section = spec.split("\n## 2.7 ", 1)[1].split("\n# ", 1)[0]
    rows = re.findall(r"^\| `([^`]+)` \| `([0-9A-F]{6})` \| ([^|(]+?) (?:\(|\|)", section, re.M)
    assert len(rows) == 8
    for hand, key, text in rows:
        assert low_a5(cards(hand)) == int(key, 16)
        assert describe_low(int(key, 16)).startswith(text)
    assert best_high(cards("Ah 2c 3d 4s 5h 6c"), wheel_high=True) == 0x4F5432
    assert best_high(cards("Ad 2d 3d 4d 5d"), wheel_high=True) == 0x8F5432


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: best_high(cards("Ah Kh Qh Jh")), "give 5 to 9 cards, not 4"),
        (lambda: best_high(DECK[:10]), "give 5 to 9 cards, not 10"),
        (lambda: low_a5(cards("Ah Kh Qh Jh Ah")), "a card appears twice: Ah"),
        (lambda: low_eight_or_better("Ah Kh Qh Jh Th"), "not a string"),  # type: ignore[arg-type]
        (lambda: best_high([*cards("Ah Kh Qh Jh"), 51]), "not a card: 51"),  # type: ignore[list-item]
        (lambda: omaha_high(cards("Ah Kh 2c"), cards("Qh Jh Th")), "give 4 hole cards, not 3"),
        (lambda: omaha_low(cards("Ah Kh 2c 3c 4c"), cards("Qh Jh Th")), "4 hole cards, not 5"),
        (lambda: omaha_high(cards("Ah Kh 2c 3c"), cards("Qh Jh")), "3 to 5 board cards, not 2"),
        (lambda: omaha_high(cards("Ah Kh 2c 3c"), DECK[:6]), "3 to 5 board cards, not 6"),
        (lambda: omaha_high(cards("Ah Kh 2c 3c"), cards("Ah Jh Th")), "appears twice: Ah"),
        (lambda: holdem_high(cards("Ah Kh 2c"), cards("Qh Jh Th")), "give 2 hole cards, not 3"),
        (lambda: holdem_high(cards("Ah Kh"), cards("Qh Jh Th 9h 8h 7h")), "not 6"),
    ],
)
def test_impossible_hands_are_refused(call: Callable[[], object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()


# --- properties: the values are the best five, by brute force --------------------------------

HANDS = st.lists(st.sampled_from(DECK), min_size=5, max_size=9, unique=True)


@settings(max_examples=150, deadline=None)
@given(HANDS)
def test_best_high_is_the_best_five(hand: list[Card]) -> None:
    fives = [rank5([card.index for card in five]) for five in combinations(hand, 5)]
    assert best_high(hand) == max(fives)
    assert best_high(hand, wheel_high=True) == max(map(wheel_on_top, fives))


@settings(max_examples=150, deadline=None)
@given(HANDS)
def test_lows_are_the_best_five(hand: list[Card]) -> None:
    fives = [(max(card.rank % 14 for card in five), low_a5(five)) for five in combinations(hand, 5)]
    assert low_a5(hand) == max(low for _, low in fives)
    qualified = [low for top, low in fives if top <= 8]  # ace = 14 % 14 = 0 counts as low
    assert low_eight_or_better(hand) == max(qualified, default=None)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=9, max_size=9, unique=True), st.integers(3, 5))
def test_omaha_is_the_best_two_plus_three(hand: list[Card], on_board: int) -> None:
    hole, board = hand[:4], hand[4 : 4 + on_board]
    fives = [list(two + three) for two in combinations(hole, 2) for three in combinations(board, 3)]
    assert omaha_high(hole, board) == max(best_high(five) for five in fives)
    lows = [low_eight_or_better(five) for five in fives]
    assert omaha_low(hole, board) == max((low for low in lows if low is not None), default=None)
