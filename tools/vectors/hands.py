"""Vectors for hand values (SPEC 2.4, 2.7): cards and the key of their best hand, high (with and
without the hi-lo wheel on top), hold'em, Omaha, the ace-to-five low and the local
eight-or-better low (of five to nine cards, hold'em and Omaha); the house's other values (Go for
Broke's low sum, Hawaii Five-Low's two hole cards, Chicago's spade in the hole, the lowest
showing); and hands no evaluator accepts.

Generates and checks protocol/vectors/hands.json; no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from p2pwillow.cards import DECK, Card, format_cards, parse_cards
from p2pwillow.evaluators import (
    best_high,
    describe_high,
    describe_low,
    describe_showing_low,
    describe_spade,
    describe_sum,
    describe_two_card,
    high_spade,
    holdem_high,
    holdem_low,
    low_a5,
    low_eight_or_better,
    low_sum,
    omaha_high,
    omaha_low,
    showing_low,
    two_card_high,
)
from tools.vectors.common import Json, case, document, seeded_rng

FILE_NAME = "hands.json"

ERRORS: Mapping[str, type[Exception]] = {"ValueError": ValueError}

NOTES = {
    "Handmade": "A hand chosen to show a rule: a category, a tie-break, the ace, a formation.",
    "Random": "Cards drawn from the seeded stream (see the generator); the key is as computed.",
    "WheelHigh": "Hi-lo: A-2-3-4-5 is the highest straight and straight flush (SPEC 2.7); "
    "PokerKit, as SPEC 2.4, ranks it the lowest straight.",
    "PairedLow": "Eight-or-better, local reading: a low with a pair qualifies when its "
    "highest card is 8 or lower (SPEC 2.7); PokerKit's EightOrBetterLowHand has no such low.",
    "NoLow": "No five cards (of the formation) are 8 or lower: no eight-or-better low (null).",
    "Count": "The wrong number of cards: of the hand, of the hole or of the board.",
    "Duplicate": "A card appears twice, in a hand or across hole and board.",
    "Sum": "Go for Broke's low sum (SPEC 2.7): ace 1, two to nine their rank, ten to king 0; "
    "the value is 255 - the sum, so the lower sum is the bigger value. A house rule.",
    "TwoHole": "Hawaii Five-Low's two hole cards (SPEC 2.7): the best two-card hand, a pair "
    "first, the ace high; the value is the SPEC 2.5 showing key of the two. A house rule.",
    "Spade": "Chicago's spade in the hole (SPEC 2.7): the rank of the highest spade among the "
    "hole cards, null when none is a spade. A house rule.",
    "Showing": "The lowest showing (SPEC 2.7): 1 to 4 up cards ranked as ace-to-five lows, "
    "groups counting against them; the SPEC 2.5 key of the ace-low ranks, flipped.",
}

_HIGH: dict[str, Callable[..., int | None]] = {
    "high": best_high,
    "highWheel": partial(best_high, wheel_high=True),
    "lowA5": low_a5,
    "lowEightOrBetter": low_eight_or_better,
    "lowSum": low_sum,
    "showingLow": showing_low,
}
"""The evaluators of one player's cards (5 to 9; the sum 1 to 9; the showing 1 to 4), by the
name a group's "evaluator" gives."""

_HOLES: dict[str, Callable[..., int | None]] = {
    "twoCardHigh": two_card_high,
    "highSpade": high_spade,
}
"""The evaluators of a player's hole cards, by name."""

_TEXTS: dict[str, Callable[[int], str]] = {
    "lowA5": describe_low,
    "lowEightOrBetter": describe_low,
    "omahaLow": describe_low,
    "holdemLow": describe_low,
    "lowSum": describe_sum,
    "showingLow": describe_showing_low,
    "twoCardHigh": describe_two_card,
    "highSpade": describe_spade,
}
"""How each evaluator's values read (SPEC 2.6, 2.7); the others are high keys."""

_FORMATIONS: dict[str, Callable[..., int | None]] = {
    "holdemHigh": holdem_high,
    "omahaHigh": omaha_high,
    "omahaHighWheel": partial(omaha_high, wheel_high=True),
    "omahaLow": omaha_low,
    "holdemLow": holdem_low,
}
"""The hole-and-board evaluators, by name."""


def _draw(seed: str, count: int, size: int) -> list[list[Card]]:
    """`count` hands of `size` distinct cards from `seeded_rng(seed)`: each card is the next
    byte below 208, mod 52 (208 = 4 * 52, so every card is equally likely), skipping repeats."""
    rng = seeded_rng(seed)
    hands = []
    for _ in range(count):
        hand: list[Card] = []
        while len(hand) < size:
            byte = rng(1)[0]
            if byte < 208 and DECK[byte % 52] not in hand:
                hand.append(DECK[byte % 52])
        hands.append(hand)
    return hands


def _text(evaluator: str, key: int | None) -> str:
    """The informative text (SPEC 2.6, 2.7) of a key of this evaluator."""
    if key is None:
        return "no spade in the hole" if evaluator == "highSpade" else "no low"
    return _TEXTS.get(evaluator, describe_high)(key)


def _hand(evaluator: str, comment: str, cards: str, flags: list[str]) -> Json:
    key = _HIGH[evaluator](parse_cards(cards))
    return case(comment, "valid", flags, cards=cards, key=key, text=_text(evaluator, key))


def _holed(evaluator: str, comment: str, hole: str, flags: list[str]) -> Json:
    key = _HOLES[evaluator](parse_cards(hole))
    return case(comment, "valid", flags, hole=hole, key=key, text=_text(evaluator, key))


def _formed(evaluator: str, comment: str, hole: str, board: str, flags: list[str]) -> Json:
    key = _FORMATIONS[evaluator](parse_cards(hole), parse_cards(board))
    return case(
        comment, "valid", flags, hole=hole, board=board, key=key, text=_text(evaluator, key)
    )


def _bad(comment: str, flag: str, **cards: str) -> Json:
    return case(comment, "invalid", [flag], error="ValueError", **cards)


_BAD_HANDS = [
    _bad("four cards", "Count", cards="Ah Kh Qh Jh"),
    _bad("ten cards", "Count", cards="Ah Kh Qh Jh Th 9h 8h 7h 6h 5h"),
    _bad("no cards", "Count", cards=""),
    _bad("the ace of hearts twice", "Duplicate", cards="Ah Kd Qc Js Ah"),
]

_BAD_OTHERS: dict[str, list[Json]] = {
    "lowSum": [
        _bad("no cards", "Count", cards=""),
        _bad("ten cards", "Count", cards="Ah Kh Qh Jh Th 9h 8h 7h 6h 5h"),
        _bad("the ace of hearts twice", "Duplicate", cards="Ah Kd Ah"),
    ],
    "showingLow": [
        _bad("no cards", "Count", cards=""),
        _bad("five cards", "Count", cards="Ah 2h 3h 4h 5h"),
        _bad("the ace of hearts twice", "Duplicate", cards="Ah Ah"),
    ],
    "twoCardHigh": [
        _bad("one hole card", "Count", hole="Ah"),
        _bad("ten hole cards", "Count", hole="Ah Kh Qh Jh Th 9h 8h 7h 6h 5h"),
        _bad("the ace of spades twice", "Duplicate", hole="As As"),
    ],
    "highSpade": [
        _bad("no hole cards", "Count", hole=""),
        _bad("ten hole cards", "Count", hole="As Ks Qs Js Ts 9s 8s 7s 6s 5s"),
        _bad("the ace of spades twice", "Duplicate", hole="As Kd As"),
    ],
}

_HANDS: dict[str, list[tuple[str, str, list[str]]]] = {
    "high": [
        ("royal flush", "Ah Kh Qh Jh Th", []),
        ("the wheel is the lowest straight (SPEC 2.4)", "Ah 2c 3d 4s 5h", []),
        ("a six-high straight beats the wheel", "Ah 2c 3d 4s 5h 6c", []),
        ("the steel wheel is the lowest straight flush", "Ad 2d 3d 4d 5d", []),
        ("seven cards: a flush over a straight", "9h 8c 7h 6h 5s 2h Kh", []),
        ("seven cards: two pair, the best kicker of three", "Kc Kd 4h 4s 2c 2d Qh", []),
        ("eight cards: a full house beside a flush", "Ah Kh Qh Jh 9h As Ad Kd", []),
        ("nine cards: four of a kind beside a flush", "7h 7c 7d 7s 2h 4h 9h Jh 3c", []),
        ("nine cards: two straights, the higher plays", "2c 3d 4h 5s 6c 7d 8h Ts Jc", []),
    ],
    "highWheel": [
        ("the wheel is the top straight in hi-lo", "Ah 2c 3d 4s 5h", ["WheelHigh"]),
        ("the broadway straight is below it", "As Kd Qh Jc Th", ["WheelHigh"]),
        ("the wheel is chosen over a six-high straight", "Ah 2c 3d 4s 5h 6c", ["WheelHigh"]),
        ("the steel wheel is the top hand", "Ad 2d 3d 4d 5d 9c Kc", ["WheelHigh"]),
        ("a six-high straight flush with its ace", "Ad 2d 3d 4d 5d 6d 9c", ["WheelHigh"]),
        ("a straight flush beats a wheel straight", "Ac 2d 3d 4d 5d 6d", ["WheelHigh"]),
        ("a flush beats the wheel straight", "Ah 2c 3d 4s 5h 8h Th Jh", ["WheelHigh"]),
        ("no wheel: keys as SPEC 2.4", "Kc Kd 4h 4s 2c 2d Qh", ["WheelHigh"]),
    ],
    "lowA5": [
        ("the wheel is the best low", "5h 4s 3c 2d Ah", []),
        ("a flush wheel is the same low", "5h 4h 3h 2h Ah", []),
        ("seven cards: the five lowest ranks", "8h 5c 4d 2s Ah 9d Kc", []),
        ("a pair of aces", "Ah As 3c 4d 5h", []),
        ("a pair of twos, below a pair of aces", "2h 2s 3c 4d 6h", []),
        ("two pair: the higher pair decides", "3h 3s Ac Ad 5h", []),
        ("three of a kind", "2h 2d 2s Ac 3d", []),
        ("full house", "Kh Kd Ks 2c 2d", []),
        ("the worst low", "Kh Kd Ks Kc Qd", []),
        ("nine cards from four ranks", "Ah Ad 2c 2d 3h 3s 4c 4d Ac", []),
    ],
    "lowEightOrBetter": [
        ("the wheel", "5h 4s 3c 2d Ah Kh Qh", []),
        ("an eight low", "8h 7s 6c 5d 4h", []),
        ("a nine is too high", "9h 4s 3c 2d Ah", ["NoLow"]),
        ("a pair of aces qualifies", "Ah As 3c 4d 5h", ["PairedLow"]),
        (
            "the best low of 8 or lower, not the best A-5 low",
            "Ah 2c 3d 2d 3h 9s Ts",
            ["PairedLow"],
        ),
        ("a full house of lows qualifies", "Ah As Ad 2c 2d 9s", ["PairedLow"]),
        ("four lows only", "Ah As 2c 3c 9d 9s Kc", ["NoLow"]),
    ],
}

# After the groups above, so that their tcIds stay as they were.
_OTHER_HANDS: dict[str, list[tuple[str, str, list[str]]]] = {
    "lowSum": [
        ("tens and face cards count 0", "Kh Qd Jc Ts 9h", ["Sum"]),
        ("the ace counts 1", "Kh Qd Jc Ts Ah", ["Sum"]),
        ("a pair counts as two cards", "Td Jd 2s 2c 9h", ["Sum"]),
        ("the wheel is no low here: 15", "Ah 2c 3d 4s 5h", ["Sum"]),
        ("the worst five", "9h 9d 9c 9s 8h", ["Sum"]),
        ("the best five: sum 0", "Th Jd Qc Ks Kd", ["Sum"]),
        ("the face-up cards only, for the washing order", "7h Kd 3c", ["Sum"]),
        ("one card", "Ac", ["Sum"]),
    ],
    "showingLow": [
        ("no pair, the lower top card", "2c 3d 4h", ["Showing"]),
        ("the ace is 1", "Ah 3c 5d", ["Showing"]),
        ("a pair of aces", "Ah Ad 6c", ["Showing"]),
        ("a pair of twos, below a pair of aces", "2h 2d 3c", ["Showing"]),
        ("two pair", "3h 3s Ac Ad", ["Showing"]),
        ("three of a kind", "7h 7d 7s Ac", ["Showing"]),
        ("four of a kind", "Kh Kd Ks Kc", ["Showing"]),
        ("one card", "5h", ["Showing"]),
        ("straights and flushes do not count", "5h 4h 3h 2h", ["Showing"]),
    ],
}

_HOLE_CARDS: dict[str, list[tuple[str, str, list[str]]]] = {
    "twoCardHigh": [
        ("pocket aces, the best", "Ah As", ["TwoHole"]),
        ("a pair of twos beats no pair", "2c 2d", ["TwoHole"]),
        ("ace-king, the best without a pair", "Ah Kd", ["TwoHole"]),
        ("three-two, the worst", "3c 2d", ["TwoHole"]),
        ("suits do not count", "Kh Qh", ["TwoHole"]),
        ("three hole cards: the pair plays", "Kc 9h 9s", ["TwoHole"]),
        ("four hole cards: the two highest", "Ac 4d Qs 7h", ["TwoHole"]),
    ],
    "highSpade": [
        ("the king of spades", "Ks 2h", ["Spade"]),
        ("the higher of two spades", "4s As", ["Spade"]),
        ("the two of spades counts", "2s Ad Kh", ["Spade"]),
        ("no spade in the hole", "Ac Kd Qh", ["Spade"]),
        ("ten", "Ts", ["Spade"]),
    ],
}

_FORMS: dict[str, list[tuple[str, str, str, list[str]]]] = {
    "holdemHigh": [
        ("the board plays", "2c 3d", "Ah Kh Qh Jh Th", []),
        ("one hole card plays", "Ah 2c", "Kh Qh Jh Th 5c", []),
        ("the flop", "Ah Ad", "As 7c 2d", []),
        ("the turn", "Kc Qc", "Jc Tc 2d 9h", []),
    ],
    "omahaHigh": [
        ("two hole and three board", "Ah Kh 2c 3d", "Qh Jh Th 9s 8s", []),
        ("one heart in the hole makes no flush", "Ah 2c 3d 4s", "Kh Qh Jh Th 5c", []),
        ("trips on the board and a pair in the hole", "9c 9d 2s 3s", "Kh Kd Ks 7c 8d", []),
        ("trips on the board and no pair", "Ac 2d 3s 4s", "Kh Kd Ks 7c 8d", []),
        ("the flop", "Ad 2d Kc Ks", "3d 4d 5d", []),
        ("the turn", "Ad 2d Kc Ks", "3d 4d 5d Kd", []),
    ],
    "omahaHighWheel": [
        ("the steel wheel on top", "Ad 2d Kc Ks", "3d 4d 5d 6d Qd", ["WheelHigh"]),
        ("the wheel over a broadway", "Ah 2c Kc Qs", "3d 4s 5c Jh Td", ["WheelHigh"]),
    ],
    "omahaLow": [
        ("the wheel", "Ah 2h 9c 9d", "3s 4s 5s Kd Qd", []),
        ("two lows in the hole and only two on the board", "Ah 2h 3c 4d", "5s 9s Td", ["NoLow"]),
        ("one low in the hole", "Ah Kh Kc Kd", "2s 3s 4s 5d 6d", ["NoLow"]),
        ("a pair of aces from the hole", "Ah Ad 9c 9d", "3s 4s 5s Kd Qd", ["PairedLow"]),
        ("a pair, hole and board", "Ah 2d Kc Kd", "2s 3s 4s Jd Qd", ["PairedLow"]),
    ],
    "holdemLow": [
        ("the wheel, the board playing three", "Ah 2h", "3s 4s 5s Kd Qd", []),
        ("no hole card plays", "Kc Kd", "Ah 2c 3d 4s 6h", []),
        ("one hole card plays", "8c Kd", "Ah 2c 3d 4s Qh", []),
        ("the flop", "Ah 2h", "3s 4s 5s", []),
        ("a nine does not qualify", "Ah 2h", "3s 4s 9s Kd Qd", ["NoLow"]),
        ("a pair of aces qualifies", "Ah Ad", "3s 4s 5s Kd Qd", ["PairedLow"]),
        ("two pair of lows", "Ah 2h", "Ad 2d 3s Kd Qd", ["PairedLow"]),
    ],
}

_BAD_FORMS: dict[str, list[Json]] = {
    "holdemHigh": [
        _bad("three hole cards", "Count", hole="Ah Kh 2c", board="Qh Jh Th"),
        _bad("two board cards", "Count", hole="Ah Kh", board="Qh Jh"),
        _bad("six board cards", "Count", hole="Ah Kh", board="Qh Jh Th 9h 8h 7h"),
        _bad("a card in the hole and on the board", "Duplicate", hole="Ah Kh", board="Ah Jh Th"),
    ],
    "omahaHigh": [
        _bad("three hole cards", "Count", hole="Ah Kh 2c", board="Qh Jh Th"),
        _bad("five hole cards", "Count", hole="Ah Kh 2c 3c 4c", board="Qh Jh Th"),
        _bad("two board cards", "Count", hole="Ah Kh 2c 3c", board="Qh Jh"),
        _bad("a card twice in the hole", "Duplicate", hole="Ah Kh 2c Ah", board="Qh Jh Th"),
        _bad(
            "a card in the hole and on the board", "Duplicate", hole="Ah Kh 2c 3c", board="Ah Jh Th"
        ),
    ],
    "omahaLow": [
        _bad("three hole cards", "Count", hole="Ah 2h 3c", board="4s 5s 6s"),
        _bad("six board cards", "Count", hole="Ah 2h 3c 4c", board="5s 6s 7s 8s Ks Qs"),
    ],
    "holdemLow": [
        _bad("four hole cards", "Count", hole="Ah 2h 3c 4c", board="5s 6s 7s"),
        _bad("two board cards", "Count", hole="Ah 2h", board="3s 4s"),
        _bad("a card in the hole and on the board", "Duplicate", hole="Ah 2h", board="Ah 4s 5s"),
    ],
}


def _groups() -> list[Json]:
    groups: list[Json] = []
    for evaluator, made in _HANDS.items():
        tests = [_hand(evaluator, comment, cards, ["Handmade", *f]) for comment, cards, f in made]
        if evaluator in ("high", "lowA5"):
            for size in (5, 7, 9):
                for drawn in _draw(f"hands/{evaluator}/{size}", 3, size):
                    cards = format_cards(drawn)
                    tests.append(_hand(evaluator, f"{size} random cards", cards, ["Random"]))
        tests += [dict(test) for test in _BAD_HANDS]
        groups.append({"type": "HandValue", "evaluator": evaluator, "tests": tests})
    for evaluator, forms in _FORMS.items():
        tests = [
            _formed(evaluator, comment, hole, board, ["Handmade", *flags])
            for comment, hole, board, flags in forms
        ]
        if evaluator in ("omahaHigh", "omahaLow"):
            for drawn in _draw(f"hands/{evaluator}", 4, 9):
                hole, board = format_cards(drawn[:4]), format_cards(drawn[4:])
                tests.append(_formed(evaluator, "9 random cards", hole, board, ["Random"]))
        tests += [dict(test) for test in _BAD_FORMS.get(evaluator, [])]
        groups.append({"type": "FormationValue", "evaluator": evaluator, "tests": tests})
    for evaluator, made in _OTHER_HANDS.items():
        tests = [_hand(evaluator, comment, cards, ["Handmade", *f]) for comment, cards, f in made]
        if evaluator == "lowSum":
            for drawn in _draw(f"hands/{evaluator}", 3, 5):
                cards = format_cards(drawn)
                tests.append(_hand(evaluator, "5 random cards", cards, ["Random", "Sum"]))
        tests += [dict(test) for test in _BAD_OTHERS[evaluator]]
        groups.append({"type": "HandValue", "evaluator": evaluator, "tests": tests})
    for evaluator, holes in _HOLE_CARDS.items():
        flag = "TwoHole" if evaluator == "twoCardHigh" else "Spade"
        tests = [_holed(evaluator, comment, hole, ["Handmade", *f]) for comment, hole, f in holes]
        for drawn in _draw(f"hands/{evaluator}", 3, 3 if flag == "Spade" else 2):
            hole = format_cards(drawn)
            tests.append(_holed(evaluator, f"{len(drawn)} random cards", hole, ["Random", flag]))
        tests += [dict(test) for test in _BAD_OTHERS[evaluator]]
        groups.append({"type": "HoleValue", "evaluator": evaluator, "tests": tests})
    return groups


def generate() -> Json:
    return document(
        "hands",
        "hand values (SPEC 2.4, 2.7)",
        NOTES,
        _groups(),
        header="Cards, as SPEC 2.2 writes them, and the key of the best hand each evaluator "
        "finds (SPEC 2.4 for high, 2.7 for the others; null: no qualifying low, no spade in "
        "the hole). The text is informative (SPEC 2.6, 2.7).",
        errors=ERRORS,
    )


def check(group: Json, test: Json) -> None:
    evaluator = group["evaluator"]
    key: Any
    if group["type"] == "HandValue":
        key = _HIGH[evaluator](parse_cards(test["cards"]))
    elif group["type"] == "HoleValue":
        key = _HOLES[evaluator](parse_cards(test["hole"]))
    else:
        key = _FORMATIONS[evaluator](parse_cards(test["hole"]), parse_cards(test["board"]))
    assert key == test["key"], (key, test["key"])
    assert _text(evaluator, key) == test["text"]
