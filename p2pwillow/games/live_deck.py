"""The games dealt from the live deck (SPEC 3.15): seven- and five-card stud, five-card draw,
Texas hold'em and Omaha, each a description the engine walks. Pure; no I/O.

Antes are the table's (`Forced.ANTE`); the betting structure is the table's, each round at the
small bet before the middle of the hand and at the big bet after it, as Roll Your Own's. Stud
opens its first round by the highest card showing and the others by the highest hand showing;
hold'em and Omaha open every round from the dealer's left. Hold'em and Omaha burn a card before
each turn of the board, stud burns none.
"""

from __future__ import annotations

from p2pwillow.rules import BetSize, Forced, GameSpec, Opening
from p2pwillow.rules.live import Deal, Draw, Formation, Redeal, Settle, ShowCards, Street
from p2pwillow.rules.script import Step
from p2pwillow.rules.streets import Bet

SMALL, BIG = BetSize.SMALL, BetSize.BIG

SEVEN_STUD_STREETS = (
    Deal(down=2, up=1),
    Bet(Opening.HIGH_CARD, SMALL),
    Street(up=1),
    Bet(Opening.HIGH_HAND, SMALL),
    Street(up=1),
    Bet(Opening.HIGH_HAND, BIG),
    Street(up=1),
    Bet(Opening.HIGH_HAND, BIG),
    Street(down=1, overflow=True),
    Bet(Opening.HIGH_HAND, BIG),
)
"""Seven-card stud's deal and rounds: two down and one up, three up, one down (or, with the
overflow, to the board), a round after each, the first opened by the highest card showing."""

FIVE_STUD_STREETS = (
    Deal(down=1, up=1),
    Bet(Opening.HIGH_CARD, SMALL),
    Street(up=1),
    Bet(Opening.HIGH_HAND, SMALL),
    Street(up=1),
    Bet(Opening.HIGH_HAND, BIG),
    Street(up=1),
    Bet(Opening.HIGH_HAND, BIG),
)
"""Five-card stud's deal and rounds: one down and one up, three up, a round after each."""

SEVEN_CARD_STUD = GameSpec(
    name="seven-card-stud",
    title="Seven-Card Stud",
    options=(),
    forced=Forced.ANTE,
    # Eight players need 56 cards: the house deals the last card to the board, face up, for
    # everyone, when the deck cannot give each player one (`overflow`).
    players=(2, 8),
    script=(*SEVEN_STUD_STREETS, ShowCards(), Settle(Formation.BEST_FIVE)),
)

FIVE_CARD_STUD = GameSpec(
    name="five-card-stud",
    title="Five-Card Stud",
    options=(),
    forced=Forced.ANTE,
    script=(*FIVE_STUD_STREETS, ShowCards(), Settle(Formation.BEST_FIVE)),
)


FIVE_CARD_DRAW = GameSpec(
    name="five-card-draw",
    title="Five-Card Draw",
    options=(),
    forced=Forced.ANTE,
    # five each and up to three more each: 48 cards at six players, so the deck never runs out
    players=(2, 6),
    script=(
        Deal(down=5),
        Bet(Opening.POSITION, SMALL),
        Draw(most=3),
        Redeal(),
        Bet(Opening.POSITION, BIG),
        ShowCards(),
        Settle(Formation.BEST_FIVE),
    ),
)


def board_streets(hole: int) -> tuple[Step, ...]:
    """Hold'em's and Omaha's deal and rounds: `hole` cards down, then a burn and three board
    cards, a burn and one, a burn and one, a round before each opened from the dealer's left."""
    return (
        Deal(down=hole),
        Bet(Opening.POSITION, SMALL),
        Street(board=3, burn=1),
        Bet(Opening.POSITION, SMALL),
        Street(board=1, burn=1),
        Bet(Opening.POSITION, BIG),
        Street(board=1, burn=1),
        Bet(Opening.POSITION, BIG),
    )


def _board_game(name: str, title: str, hole: int, formation: Formation) -> GameSpec:
    return GameSpec(
        name=name,
        title=title,
        options=(),
        forced=Forced.ANTE,
        script=(*board_streets(hole), ShowCards(), Settle(formation)),
    )


HOLDEM = _board_game("holdem", "Texas Hold'em", 2, Formation.HOLDEM)
OMAHA = _board_game("omaha", "Omaha", 4, Formation.OMAHA)

LIVE_DECK_GAMES = (SEVEN_CARD_STUD, FIVE_CARD_STUD, HOLDEM, OMAHA, FIVE_CARD_DRAW)

__all__ = [
    "FIVE_CARD_DRAW",
    "FIVE_CARD_STUD",
    "FIVE_STUD_STREETS",
    "HOLDEM",
    "LIVE_DECK_GAMES",
    "OMAHA",
    "SEVEN_CARD_STUD",
    "SEVEN_STUD_STREETS",
    "board_streets",
]
