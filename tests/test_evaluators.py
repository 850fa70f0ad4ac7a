"""Hand values of the dealer's-choice games (SPEC 2.7), checked against PokerKit and by hand.

PokerKit is a test-only oracle. Where the local rules differ from it (the hi-lo wheel on top,
paired eight-or-better lows) the tests pin the local answer and that PokerKit's differs.
PokerKit is slow (about 0.6 ms a seven-card hand, 2 ms an Omaha hand), so samples are sized to
keep this file to a few seconds; half of each sample is drawn from a few ranks only, where
pairs, full houses, wheels and straight flushes are common. The house's own values (the low
sum, the two hole cards, the spade in the hole) have no PokerKit counterpart: they are checked
against the rule text's counts written out here, SPEC 2.5's showing key, and the SPEC tables.
"""

from __future__ import annotations

import random
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

from p2pwillow.cards import DECK, Card, Suit, parse_cards
from p2pwillow.evaluators import (
    HiLo,
    best_high,
    describe_high,
    describe_low,
    describe_showing_low,
    describe_spade,
    describe_sum,
    describe_two_card,
    hi_lo_sets,
    high_spade,
    holdem_hi_lo_sets,
    holdem_high,
    holdem_low,
    low_a5,
    low_a5_indices,
    low_eight_or_better,
    low_sum,
    omaha_hi_lo_sets,
    omaha_high,
    omaha_low,
    showing_low,
    two_card_high,
    wheel_on_top,
)
from p2pwillow.hands import Category, best_hand, category_of, describe, rank5, showing_value
from p2pwillow.rules.declare import Declaration, split
from p2pwillow.rules.pots import Pot


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


@pytest.mark.parametrize("size", range(5, 10))
def test_a_bots_low_of_card_indices_is_low_a5(size: int) -> None:
    """`low_a5_indices`, the bots' unchecked form (one look-up for five cards), is `low_a5`."""
    for hand in deals(60 + size, 300, size, (14, 2, 3, 4, 5)):
        indices = [card.index for card in hand]
        assert low_a5_indices(indices) == low_a5_indices(tuple(indices)) == low_a5(hand)
        assert low_a5_indices(iter(indices)) == low_a5(hand)


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


def test_holdem_low_agrees_with_pokerkit_where_the_low_has_no_pair() -> None:
    drawn = deals(10, 600, 7, (*LOW_RANKS, 7, 8, 9))
    hands = [(hand[:2], hand[2 : 2 + 3 + i % 3]) for i, hand in enumerate(drawn)]
    ours, theirs = lows_that_play(hands, holdem_low, EightOrBetterLowHand.from_game_or_none)
    assert_same_order(ours, theirs)
    for hole, board in hands:  # any five of the 5 to 7: the low of the best five of n
        assert holdem_low(hole, board) == low_eight_or_better([*hole, *board])


@pytest.mark.parametrize("size", [1, 2, 3, 4])
def test_showing_low_agrees_with_pokerkit_on_hands_padded_to_five(size: int) -> None:
    """PokerKit ranks five-card lows only. Give every hand the same 5 - size cards of ranks
    above all of its own (ten to king, which no hand here holds): those pad cards neither
    pair nor come before the hand's own groups, so PokerKit's order of the padded fives is
    the order of the partial hands."""
    pad = cards("Kc Qc Jc Tc")[: 5 - size]
    hands = deals(60 + size, 300, size, (14, 2, 3, 4))
    for i in range(1, len(hands), 2):  # the whole-deck half: ace to nine only
        hands[i] = random.Random(i).sample([c for c in DECK if c.rank <= 9 or c.rank == 14], size)
    ours = [showing_low(hand) for hand in hands]
    theirs = [RegularLowHand.from_game(text_of([*hand, *pad])) for hand in hands]
    assert_same_order(ours, theirs)
    assert 9 <= len(set(ours)) < len(ours)  # ties and distinct values both occur


# --- the house's other values: no PokerKit counterpart ---------------------------------------

POINTS = dict(zip("A23456789TJQK", [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0], strict=True))
"""Go for Broke's count, as the rule text says it: "tens and face cards are worth zero; aces
are worth one"."""


@pytest.mark.parametrize("size", [1, 3, 5, 7, 9])
def test_low_sum_is_the_rule_texts_sum_and_the_lower_sum_wins(size: int) -> None:
    hands = deals(70 + size, 300, size, (14, 2, 10, 11, 12, 13))
    sums = [sum(POINTS[card.ascii[0]] for card in hand) for hand in hands]
    values = [low_sum(hand) for hand in hands]
    for total, value in zip(sums, values, strict=True):
        assert value == 255 - total and describe_sum(value) == f"sum {total}"
    # the order: a lower sum is a bigger value, equal sums tie
    for a, b in combinations(range(40), 2):
        assert (values[a] > values[b]) == (sums[a] < sums[b])
        assert (values[a] == values[b]) == (sums[a] == sums[b])
    assert min(sums) == 0 or size > 4  # with few cards the sample holds a zero sum


def test_low_sum_by_hand() -> None:
    assert low_sum(cards("Th Jd Qc Ks Kd")) == 0xFF  # the best: sum 0
    assert low_sum(cards("Kh Qd Jc Ts Ah")) > low_sum(cards("Kh Qd Jc Ts 2h"))  # ace is 1
    assert low_sum(cards("Ah 2c 3d 4s 5h")) < low_sum(cards("Kh Qd Jc Ts 9h"))  # 15 vs 9
    assert low_sum(cards("Ah Ad 2c 2d 3h")) == low_sum(cards("As 2s 3s 2h Ac"))  # a tie
    assert low_sum(cards("9h 9d 9c 9s 8h")) == 0xFF - 44  # the worst five
    assert low_sum(cards("9h 9d 9c 9s 8h 8d 8c 8s 7h")) == 0xFF - 75  # the worst nine


def test_two_card_high_is_spec_2_5s_showing_key_of_the_best_two() -> None:
    for two in combinations(DECK, 2):  # every two hole cards
        assert two_card_high(two) == showing_value(two).key
    rng = random.Random(80)
    for size in (3, 4, 3, 5, 9) * 40:
        hole = rng.sample([c for c in DECK if c.rank in (14, 2, 9, 13)], size)
        best = max(showing_value(two).key for two in combinations(hole, 2))
        assert two_card_high(hole) == best


def test_two_card_high_by_hand() -> None:
    order = ["Ah As", "Kc Kd", "2c 2d", "Ah Kd", "Ah Qd", "Kh Qh", "3c 2d"]  # best first
    values = [two_card_high(cards(hole)) for hole in order]
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)
    assert two_card_high(cards("Kh Qh")) == two_card_high(cards("Ks Qd"))  # suits never count
    assert two_card_high(cards("Ac Kd 9h 9s")) == two_card_high(cards("9c 9d"))  # pair first
    assert [describe_two_card(v) for v in values[::3]] == [
        "pair of aces in the hole",
        "ace-king in the hole",
        "three-two in the hole",
    ]


def test_high_spade_is_the_highest_spade_of_the_hole_cards() -> None:
    rng = random.Random(90)
    for size in (1, 2, 3, 4, 9) * 60:
        hole = rng.sample(DECK, size)
        spades = [card.rank for card in hole if card.suit is Suit.SPADES]
        assert high_spade(hole) == (max(spades) if spades else None)
    assert high_spade(cards("Ks 2h")) == 13 and high_spade(cards("2s As")) == 14
    assert high_spade(cards("Ah Kh Qh")) is None  # an ace of hearts is no spade
    assert describe_spade(13) == "K♠ in the hole" and describe_spade(10) == "10♠ in the hole"


def test_showing_low_by_hand() -> None:
    # best first: each beats the next, as a lowball game orders up cards
    order = ["2c 3d 4h", "Ah 3c 5d", "Ah 4c 5d", "8h 7c 6d", "Ah Ad 6c", "2h 2d 3c", "Kh Kd Qc"]
    values = [showing_low(cards(up)) for up in order]
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)
    assert showing_low(cards("5h 4h 3h 2h")) == showing_low(cards("5c 4d 3h 2s"))  # no flush
    assert showing_low(cards("Ah Ad 2c 2d")) < showing_low(cards("Kh Kd Qc Js"))  # two pair
    assert showing_low(cards("7h 7d 7s Ac")) < showing_low(cards("Ah Ad 2c 2d"))  # trips
    assert showing_low(cards("Ah")) > showing_low(cards("2h")) > showing_low(cards("Kh"))
    assert describe_showing_low(values[4]) == "A-A-6 showing (pair of aces)"
    assert describe_showing_low(values[1]) == "5-3-A showing"


# --- high-low sets: the fives of the same-five rule ------------------------------------------


def dominated(a: HiLo, b: HiLo) -> bool:
    """Whether b equals or beats a on both sides (a missing low is below every low)."""
    return b[0] >= a[0] and (a[1] is None or (b[1] is not None and b[1] >= a[1]))


def assert_frontier(kept: Sequence[HiLo], every: Sequence[HiLo]) -> None:
    """`kept` is exactly the sets of `every` that no other set of it equals or beats on both
    sides, once each, best high first."""
    assert set(kept) <= set(every) and len(set(kept)) == len(kept)
    for one in every:
        assert any(dominated(one, k) for k in kept), one
    for a, b in combinations(kept, 2):
        assert not dominated(a, b) and not dominated(b, a)
    assert [high for high, _ in kept] == sorted((high for high, _ in kept), reverse=True)


def every_set(fives: Sequence[Sequence[Card]], eight: bool) -> list[HiLo]:
    low = low_eight_or_better if eight else low_a5
    return [(best_high(five, wheel_high=True), low(five)) for five in fives]


@pytest.mark.parametrize(("size", "eight"), [(5, True), (6, False), (7, True), (7, False)])
def test_hi_lo_sets_keep_the_fives_no_other_five_beats_on_both_sides(
    size: int, eight: bool
) -> None:
    for hand in deals(100 + size, 200, size, (14, 2, 3, 4, 5, 6, 7, 8, 13)):
        kept = hi_lo_sets(hand, eight_or_better=eight)
        assert_frontier(kept, every_set(list(combinations(hand, 5)), eight))
        assert kept[0][0] == best_high(hand, wheel_high=True)
        assert kept[-1][1] == (low_eight_or_better(hand) if eight else low_a5(hand))


def test_holdem_and_omaha_hi_lo_sets_keep_their_formations_fives() -> None:
    for i, hand in enumerate(deals(110, 200, 9, (14, 2, 3, 4, 5, 6, 7, 8, 13))):
        board = hand[4 : 4 + 3 + i % 3]
        kept = holdem_hi_lo_sets(hand[:2], board)
        assert_frontier(kept, every_set(list(combinations([*hand[:2], *board], 5)), True))
        assert kept[0][0] == holdem_high(hand[:2], board, wheel_high=True)
        assert kept[-1][1] == holdem_low(hand[:2], board)
        kept = omaha_hi_lo_sets(hand[:4], board)
        fives = [
            two + three for two in combinations(hand[:4], 2) for three in combinations(board, 3)
        ]
        assert_frontier(kept, every_set(fives, True))
        assert kept[0][0] == omaha_high(hand[:4], board, wheel_high=True)
        assert kept[-1][1] == omaha_low(hand[:4], board)


def test_the_kept_sets_split_every_pot_as_all_the_sets_do() -> None:
    """SPEC 3.16 on the sets of 2.7: for random seven-card hands of three players and every
    declaration, the split with the kept sets is the split with every five."""
    rng = random.Random(120)
    dense = [card for card in DECK if card.rank in (14, 2, 3, 4, 5, 6, 7, 8, 12, 13)]
    choices = list(Declaration)
    for _ in range(150):
        dealt = rng.sample(dense, 21)
        hands = [dealt[7 * x : 7 * x + 7] for x in range(3)]
        every = {x: every_set(list(combinations(hand, 5)), True) for x, hand in enumerate(hands)}
        kept = {x: hi_lo_sets(hand, eight_or_better=True) for x, hand in enumerate(hands)}
        declared = {x: rng.choice(choices) for x in range(3)}
        assert split(Pot(301, (0, 1, 2)), declared, kept) == split(
            Pot(301, (0, 1, 2)), declared, every
        )


def test_hi_lo_sets_by_hand() -> None:
    # the wheel is the best high (on top) and the best low: one set
    wheel = hi_lo_sets(cards("Ah 2c 3d 4s 5h Kh Kd"), eight_or_better=True)
    assert wheel == [(0x4F5432, 0x7ABCDE)]
    # kings for high, 8-7-3-2-A for low: two different fives
    two = hi_lo_sets(cards("Ah 2c 3d 8s 7h Kh Kd"), eight_or_better=True)
    assert [describe_high(h) for h, _ in two] == ["pair of kings, ace kicker", "ace-eight high"]
    assert [lo and describe_low(lo) for _, lo in two] == [None, "8-7-3-2-A low"]
    # without the qualifier the kings' own five has a low too, and plays it
    assert hi_lo_sets(cards("Ah 2c 3d 8s 7h Kh Kd"), eight_or_better=False)[0][1] is not None


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


def spec_table(header: str) -> list[list[str]]:
    """The rows of the SPEC 2.7 table under this header row, each cell without its backticks."""
    spec = (Path(__file__).resolve().parent.parent / "SPEC.md").read_text(encoding="utf-8")
    section = spec.split("\n## 2.7 ", 1)[1].split("\n# ", 1)[0]
    assert section.count(f"\n{header}\n") == 1, header
    table = section.split(f"\n{header}\n", 1)[1].split("\n\n", 1)[0].splitlines()[1:]
    return [[cell.strip().strip("`") for cell in row.strip("|").split("|")] for row in table]


def test_the_tables_spec_lists() -> None:
    rows = spec_table("| cards | low key | text |")
    assert len(rows) == 8
    for hand, key, text in rows:
        assert low_a5(cards(hand)) == int(key, 16)
        assert describe_low(int(key, 16)).startswith(text.split(" (the")[0])
    rows = spec_table("| cards | sum | value |")
    assert len(rows) == 5
    for hand, total, value in rows:
        assert low_sum(cards(hand)) == int(value.split()[0].strip("`"), 16) == 255 - int(total)
    rows = spec_table("| hole | value | text |")
    assert len(rows) == 4
    for hole, key, text in rows:
        assert two_card_high(cards(hole)) == int(key, 16)
        assert describe_two_card(int(key, 16)) == text.split(" (the")[0]
    rows = spec_table("| up cards | key | text |")
    assert len(rows) == 4
    for up, key, text in rows:
        assert showing_low(cards(up)) == int(key, 16)
        assert describe_showing_low(int(key, 16)) == text
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
        (lambda: holdem_low(cards("Ah Kh 2c"), cards("Qh Jh Th")), "give 2 hole cards, not 3"),
        (lambda: holdem_low(cards("Ah 2h"), cards("Ah 3c 4c")), "appears twice: Ah"),
        (lambda: low_sum([]), "give 1 to 9 cards, not 0"),
        (lambda: low_sum(DECK[:10]), "give 1 to 9 cards, not 10"),
        (lambda: showing_low(cards("Ah 2h 3h 4h 5h")), "give 1 to 4 cards, not 5"),
        (lambda: showing_low([]), "give 1 to 4 cards, not 0"),
        (lambda: two_card_high(cards("Ah")), "give 2 to 9 cards, not 1"),
        (lambda: two_card_high(cards("As As")), "appears twice: As"),
        (lambda: high_spade([]), "give 1 to 9 cards, not 0"),
        (lambda: high_spade("As Ks"), "not a string"),  # type: ignore[arg-type]
        (lambda: hi_lo_sets(cards("Ah 2h 3h 4h"), eight_or_better=True), "5 to 9 cards, not 4"),
        (lambda: holdem_hi_lo_sets(cards("Ah"), cards("Qh Jh Th")), "2 hole cards, not 1"),
        (lambda: omaha_hi_lo_sets(cards("Ah Kh 2c"), cards("Qh Jh Th")), "4 hole cards, not 3"),
        (lambda: describe_sum(0xFF - 76), "not a sum value"),
        (lambda: describe_sum(0x100), "not a sum value"),
        (lambda: describe_two_card(0x0EE000), "not a two-card value"),  # a pair without category
        (lambda: describe_two_card(0x1ED000), "not a two-card value"),
        (lambda: describe_two_card(0x0DE000), "not a two-card value"),  # low over high
        (lambda: describe_two_card(0x0ED001), "not a two-card value"),
        (lambda: describe_spade(1), "not a spade's rank"),
        (lambda: describe_spade(15), "not a spade's rank"),
        (lambda: describe_showing_low(0x7ABCDE), "not a lowest-showing key"),  # five cards
        (lambda: describe_showing_low(0x7AFCFF), "not a lowest-showing key"),  # a gap
        (lambda: describe_low(0x7ACEFF), "not a low key"),  # three cards
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
