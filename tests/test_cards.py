"""Cards: the canonical index (SPEC 2.1) and the text forms (SPEC 2.2)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pwillow.cards import DECK, RANK_LETTERS, Card, Suit, format_cards, parse_cards

cards = st.sampled_from(DECK)
hands = st.lists(cards, min_size=1, max_size=10, unique=True)
RANK_FORMS = {r: [RANK_LETTERS[r - 2]] + (["10"] if r == 10 else []) for r in range(2, 15)}
SUIT_FORMS = {
    Suit.CLUBS: "c♣♧",
    Suit.DIAMONDS: "d♦♢",
    Suit.HEARTS: "h♥♡",
    Suit.SPADES: "s♠♤",
}


def _valid_tokens() -> set[str]:
    tokens: set[str] = set()
    for rank_forms in RANK_FORMS.values():
        for suit_forms in SUIT_FORMS.values():
            for r in rank_forms:
                for s in suit_forms:
                    for rr in {r, r.lower()}:
                        tokens |= {rr + s, rr + s.upper()}
    return tokens


VALID_TOKENS = _valid_tokens()


@st.composite
def spelled(draw: st.DrawFn) -> tuple[Card, str]:
    """A card and one of its accepted spellings, in any case."""
    card = draw(cards)
    rank = draw(st.sampled_from(RANK_FORMS[card.rank]))
    suit = draw(st.sampled_from(SUIT_FORMS[card.suit]))
    text = rank + suit
    flips = draw(st.lists(st.booleans(), min_size=len(text), max_size=len(text)))
    return card, "".join(c.upper() if f else c.lower() for c, f in zip(text, flips, strict=True))


def test_canonical_index_corners() -> None:
    assert Card.parse("2c").index == 0
    assert Card.parse("2d").index == 1
    assert Card.parse("3c").index == 4
    assert Card.parse("As").index == 51
    assert Card.from_index(0) == Card(2, Suit.CLUBS)
    assert Card.from_index(51) == Card(14, Suit.SPADES)


def test_index_round_trip_and_formula() -> None:
    assert [card.index for card in DECK] == list(range(52))
    for i in range(52):
        card = Card.from_index(i)
        assert card.index == i
        assert i == 4 * (card.rank - 2) + int(card.suit)
    assert len(set(DECK)) == 52
    assert sorted(DECK) == list(DECK)  # ordering is by canonical index


@given(cards)
def test_ascii_and_unicode_round_trip(card: Card) -> None:
    assert Card.parse(card.ascii) == card
    assert Card.parse(card.unicode) == card
    assert Card.parse(str(card)) == card
    assert len(card.ascii) == 2


@given(spelled())
def test_any_spelling_and_case(case: tuple[Card, str]) -> None:
    card, text = case
    assert Card.parse(text) == card
    assert parse_cards(f"  {text}  ") == [card]


@given(hands, st.booleans(), st.sampled_from([" ", ", ", ",", "\t", "\n  "]))
def test_format_parse_round_trip(hand: list[Card], unicode: bool, sep: str) -> None:
    text = format_cards(hand, unicode=unicode)
    assert parse_cards(text) == hand
    assert parse_cards(sep.join(text.split(" "))) == hand


def test_known_forms() -> None:
    assert format_cards(parse_cards("As Kd 10h T♥ 2♣")) == "As Kd Th Th 2c"
    assert format_cards(parse_cards("as,kD,10H"), unicode=True) == "A♠ K♦ 10♥"
    assert Card.parse("10♧") == Card.parse("tc")
    assert parse_cards("") == []


BAD_TOKENS = [
    "",
    "A",
    "s",
    "1s",
    "11s",
    "0s",
    "100h",
    "1oh",
    "Ax",
    "Ahh",
    "AAs",
    "Zs",
    "\u212as",  # Kelvin sign, which case-folds to "k"
    "A\u017f",  # long s, which case-folds to "s"
    "\u0130s",
    "A♠♠",
    "♠A",
    "sA",
    "1",
    "10",
    "🂡",
]


@pytest.mark.parametrize("token", BAD_TOKENS)
def test_bad_token_raises_naming_it(token: str) -> None:
    with pytest.raises(ValueError) as info:
        Card.parse(token)
    assert repr(token) in str(info.value)


@pytest.mark.parametrize("token", [t for t in BAD_TOKENS if t])
def test_bad_token_in_a_list_is_named(token: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_cards(f"As {token} Kd")
    assert repr(token) in str(info.value)


@given(st.text(min_size=1, max_size=4).filter(lambda t: t.strip() not in VALID_TOKENS))
def test_any_other_text_is_rejected_by_name(token: str) -> None:
    with pytest.raises(ValueError) as info:
        Card.parse(token)
    assert repr(token) in str(info.value)


@given(st.text(max_size=12))
def test_parse_cards_never_fails_otherwise(text: str) -> None:
    try:
        parsed = parse_cards(text)
    except ValueError as exc:
        assert "not a card" in str(exc)
    else:
        assert all(isinstance(card, Card) for card in parsed)


@pytest.mark.parametrize("index", [-1, 52, 100, 1.0, "3", True])
def test_bad_index(index: object) -> None:
    with pytest.raises(ValueError):
        Card.from_index(index)  # type: ignore[arg-type]


@pytest.mark.parametrize(("rank", "suit"), [(1, 0), (15, 0), (0, 3), (2.5, 0), (5, 4), (5, -1)])
def test_bad_card_fields(rank: object, suit: object) -> None:
    with pytest.raises(ValueError):
        Card(rank, suit)  # type: ignore[arg-type]


def test_non_text_is_rejected() -> None:
    with pytest.raises(ValueError):
        Card.parse(5)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        parse_cards(None)  # type: ignore[arg-type]
