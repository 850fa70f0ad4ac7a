"""Cards, the 52-card deck and its canonical index (SPEC 2.1). Pure; no I/O.

The mental-poker layer encodes a card as the point M_i of its canonical index i, so the index
defined here is part of the protocol: index = 4 * (rank - 2) + suit, suits ordered
clubs, diamonds, hearts, spades. 2♣ is 0, A♠ is 51.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass

from p2pwillow.limits import DECK_SIZE


class Suit(enum.IntEnum):
    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "cdhs"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]


RANK_LETTERS = "23456789TJQKA"
RANK_NAMES = {
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "jack",
    12: "queen",
    13: "king",
    14: "ace",
}
RANK_PLURALS = {r: ("sixes" if r == 6 else n + "s") for r, n in RANK_NAMES.items()}

_SUIT_BY_CHAR = {
    "c": Suit.CLUBS,
    "d": Suit.DIAMONDS,
    "h": Suit.HEARTS,
    "s": Suit.SPADES,
    "♣": Suit.CLUBS,
    "♦": Suit.DIAMONDS,
    "♥": Suit.HEARTS,
    "♠": Suit.SPADES,
    "♧": Suit.CLUBS,
    "♢": Suit.DIAMONDS,
    "♡": Suit.HEARTS,
    "♤": Suit.SPADES,
}
# Exact tables, not a case-insensitive regex: Unicode case folding would let look-alikes such
# as the Kelvin sign (U+212A) match "k".
_RANK_BY_TEXT = (
    {c: i + 2 for i, c in enumerate(RANK_LETTERS)}
    | {c.lower(): i + 2 for i, c in enumerate(RANK_LETTERS)}
    | {"10": 10}
)
_SUIT_BY_CHAR |= {c.upper(): suit for c, suit in _SUIT_BY_CHAR.items() if c.isascii()}


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """A card; `rank` runs 2..14 (ace high), `suit` is a `Suit`. Ordered by canonical index."""

    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        if type(self.rank) is not int or not 2 <= self.rank <= 14:
            raise ValueError(f"card rank must be 2..14, not {self.rank!r}")
        if not isinstance(self.suit, Suit):
            object.__setattr__(self, "suit", Suit(self.suit))

    @property
    def index(self) -> int:
        """The canonical index 0..51 (SPEC 2.1)."""
        return 4 * (self.rank - 2) + int(self.suit)

    @classmethod
    def from_index(cls, index: int) -> Card:
        if type(index) is not int or not 0 <= index < DECK_SIZE:
            raise ValueError(f"card index must be 0..51, not {index!r}")
        return cls(index // 4 + 2, Suit(index % 4))

    @classmethod
    def parse(cls, token: str) -> Card:
        """One card: a rank 2-10/T/J/Q/K/A, then a suit c/d/h/s or ♣♦♥♠ (any case; SPEC 2.2)."""
        if not isinstance(token, str):
            raise ValueError(f"not a card: {token!r} (expected text such as 'As' or '10♥')")
        text = token.strip()
        rank = _RANK_BY_TEXT.get(text[:-1])
        suit = _SUIT_BY_CHAR.get(text[-1:])
        if rank is None or suit is None:
            raise ValueError(f"not a card: {token!r} (expected a rank 2-10/T/J/Q/K/A and a suit)")
        return cls(rank, suit)

    @property
    def ascii(self) -> str:
        """ASCII form, as the transcript writes it: `As`, `Td`, `2c`."""
        return RANK_LETTERS[self.rank - 2] + self.suit.letter

    @property
    def unicode(self) -> str:
        """Display form: `A♠`, `10♦`, `2♣`."""
        rank = "10" if self.rank == 10 else RANK_LETTERS[self.rank - 2]
        return rank + self.suit.symbol

    def __str__(self) -> str:
        return self.ascii

    def __repr__(self) -> str:
        return f"Card({self.ascii})"


def parse_cards(text: str) -> list[Card]:
    """Parse whitespace- or comma-separated cards: `"As Kd 10h T♥ 2♣"`.

    Raises ValueError naming the first bad token.
    """
    if not isinstance(text, str):
        raise ValueError(f"not card text: {text!r}")
    return [Card.parse(token) for token in re.split(r"[\s,]+", text.strip()) if token]


def format_cards(cards: Iterable[Card], *, unicode: bool = False) -> str:
    return " ".join(card.unicode if unicode else card.ascii for card in cards)


DECK: tuple[Card, ...] = tuple(Card.from_index(i) for i in range(DECK_SIZE))
