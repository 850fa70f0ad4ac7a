"""The house's split-pot games (SPEC 3.16): every one ends with a sealed declaration of low,
high or pig, a round of betting after it, and each pot split by the declarations, a pot nobody
wins carried over to the next hand. Pure; no I/O.

Lows are ace-to-five with the local eight-or-better qualifier (pairs allowed), and in these
games A-2-3-4-5 is the highest straight (SPEC 2.7). The bet after the declaration is at the
big bet, opened from the dealer's left.
"""

from __future__ import annotations

from p2pwillow.games.live_deck import FIVE_STUD_STREETS, SEVEN_STUD_STREETS, board_streets
from p2pwillow.rules import BetSize, Forced, GameSpec, Opening
from p2pwillow.rules.declare import Declare, SettleSplit, Side
from p2pwillow.rules.live import Deal, Draw, Formation, Redeal, ShowCards, Street
from p2pwillow.rules.script import Step
from p2pwillow.rules.streets import Bet
from p2pwillow.rules.wash import Wash, WashOrder

SMALL, BIG = BetSize.SMALL, BetSize.BIG


def _board_game(name: str, title: str, hole: int, formation: Formation) -> GameSpec:
    return GameSpec(
        name=name,
        title=title,
        options=(),
        forced=Forced.ANTE,
        script=(
            *board_streets(hole),
            Declare(),
            Bet(Opening.POSITION, BIG),
            ShowCards(),
            SettleSplit(formation),
        ),
    )


OMAHA_HIGH_LOW = _board_game("omaha-high-low", "Omaha High-Low", 4, Formation.OMAHA)
"""The house's Omaha (local rule: the low's highest card at most 8), declared."""
HOLDEM_HIGH_LOW = _board_game("holdem-high-low", "Hold'em High-Low", 2, Formation.HOLDEM)

CHICAGO = GameSpec(
    name="chicago",
    title="Chicago",
    options=(),
    forced=Forced.ANTE,
    # seven-card stud, with its overflow (the last card to the board when the deck is short)
    players=(2, 8),
    script=(
        *SEVEN_STUD_STREETS,
        Declare(),
        Bet(Opening.HIGH_HAND, BIG),
        ShowCards(),
        SettleSplit(Formation.BEST_FIVE, Side.SPADE),
    ),
)
"""Seven-card stud, the high hand splitting with the highest spade in the hole (the house plays
it as Follow the Queen, which comes with wild cards)."""

SPIT = GameSpec(
    name="spit",
    title="Spit",
    options=(),
    forced=Forced.ANTE,
    # five each, the spit card and up to three more each: 49 cards at six players
    players=(2, 6),
    script=(
        Deal(down=5),
        Bet(Opening.POSITION, SMALL),
        Street(board=1),
        Bet(Opening.POSITION, SMALL),
        Draw(most=3),
        Redeal(),
        Bet(Opening.POSITION, BIG),
        Declare(),
        Bet(Opening.POSITION, BIG),
        ShowCards(),
        SettleSplit(Formation.BEST_FIVE),
    ),
)
"""High-low five-card draw with one community card (the spit card) after the first round: the
sixth card of every hand, each making its best five of six."""

SEATTLE_SIX = GameSpec(
    name="seattle-six",
    title="Seattle Six",
    options=(),
    forced=Forced.ANTE,
    # six cards each and one washed: 49 cards at seven players
    players=(2, 7),
    script=(
        Deal(down=2, up=1),
        Bet(Opening.HIGH_CARD, SMALL),
        Street(up=1),
        Bet(Opening.HIGH_HAND, SMALL),
        Street(up=1),
        Bet(Opening.HIGH_HAND, BIG),
        Street(up=1),
        Bet(Opening.HIGH_HAND, BIG),
        # "$1.00 for face-up or face-down", at the house's 25-cent ante: four antes
        Wash(price=4),
        Redeal(),
        Bet(Opening.HIGH_HAND, BIG),
        Declare(),
        Bet(Opening.HIGH_HAND, BIG),
        ShowCards(),
        SettleSplit(Formation.BEST_FIVE),
    ),
)
"""High-low stud of six cards, two down and four up, with a wash at the end."""


def _five_card_stud_with_a_wash(wash: Wash, low: bool = False) -> tuple[Step, ...]:
    """Five-card stud with the first and the last card face down, a round after each card,
    then the wash, its replacements and a round; in a lowball game (`low`) every round opened
    by the lowest cards showing."""
    first, then = (
        (Opening.LOW_HAND, Opening.LOW_HAND) if low else (Opening.HIGH_CARD, Opening.HIGH_HAND)
    )
    return (
        Deal(down=1, up=1),
        Bet(first, SMALL),
        Street(up=1),
        Bet(then, SMALL),
        Street(up=1),
        Bet(then, BIG),
        Street(down=1),
        Bet(then, BIG),
        wash,
        Redeal(),
        Bet(then, BIG),
    )


GO_FOR_BROKE = GameSpec(
    name="go-for-broke",
    title="Go for Broke",
    options=(),
    forced=Forced.ANTE,
    # five cards each and one washed: 48 cards at eight players
    players=(2, 8),
    script=(
        # "Face-up costs 50 cents. Face-down costs one dollar": two and four antes; "to cloak
        # a face-up (meaning it is dealt face-down) costs two dollars": eight; washing "in
        # order of lowest sum of visible cards to highest sum"
        *_five_card_stud_with_a_wash(
            Wash(price=2, price_down=4, order=WashOrder.LOWEST_SUM_SHOWING, cloak=8)
        ),
        Declare(),
        Bet(Opening.HIGH_HAND, BIG),
        ShowCards(),
        SettleSplit(Formation.BEST_FIVE, Side.SUM),
    ),
)
"""Five-card stud, the high hand splitting with the lowest sum of a player's cards (tens and
faces 0, aces 1), with one wash (or a cloak of a face-up card) before the declaration."""

HAWAII_FIVE_LOW = GameSpec(
    name="hawaii-five-low",
    title="Hawaii Five-Low",
    options=(),
    forced=Forced.ANTE,
    players=(2, 8),
    script=(
        # "Face-up is 75 cents; face-down is $1.50": three and six antes; "best to worst (best
        # means lowest visible cards)"; lowball: the lowest cards showing open every round
        *_five_card_stud_with_a_wash(
            Wash(price=3, price_down=6, order=WashOrder.LOWEST_SHOWING), low=True
        ),
        Declare(),
        Bet(Opening.LOW_HAND, BIG),
        ShowCards(),
        SettleSplit(Formation.BEST_FIVE, Side.LOWBALL, Side.TWO_HOLE),
    ),
)
"""Five-card stud lowball, the low hand (ace-to-five) splitting with the highest two hole
cards, with one wash before the declaration: `high` declares the two hole cards, `low` the
low hand."""

FIVE_BY_TWO = GameSpec(
    name="five-by-two",
    title="Five by Two",
    options=(),
    forced=Forced.ANTE,
    # five cards each and two washed: 49 cards at seven players
    players=(2, 7),
    script=(
        *FIVE_STUD_STREETS,
        # two washing rounds, "best high hand showing to worst", "50 cents in the first
        # round, and $1.00 in the second": two antes, then four
        # "each player must declare in order whether he will wash a card, after which the
        # actual washing happens"; "a player who's declared that he's washing has three
        # options: wash an up, wash a down, or flip a face-down up, discard another up card,
        # and have the new card dealt face-down"
        Wash(price=2, order=WashOrder.HIGHEST_SHOWING, called=True, flip=True),
        Redeal(),
        Bet(Opening.HIGH_HAND, BIG),
        Wash(price=4, order=WashOrder.HIGHEST_SHOWING, called=True, flip=True),
        Redeal(),
        Bet(Opening.HIGH_HAND, BIG),
        Declare(),
        Bet(Opening.HIGH_HAND, BIG),
        ShowCards(),
        SettleSplit(Formation.BEST_FIVE),
    ),
)
"""Five-card stud high-low, the first card face down, with two washing rounds before the
declaration, each player saying in order whether it washes before anyone washes; a washer
may instead flip a face-down card up and wash a face-up one, the new card dealt face down."""

DOUBLE_SPIT = GameSpec(
    name="double-spit",
    title="Double Spit",
    options=(),
    forced=Forced.ANTE,
    # five each, two spit cards and up to three more each: 50 cards at six players
    players=(2, 6),
    script=(
        Deal(down=5),
        Bet(Opening.POSITION, SMALL),
        Street(board=1),
        Bet(Opening.POSITION, SMALL),
        Street(board=1),
        Bet(Opening.POSITION, SMALL),
        Draw(most=3),
        Redeal(),
        Bet(Opening.POSITION, BIG),
        Declare(),
        Bet(Opening.POSITION, BIG),
        ShowCards(),
        SettleSplit(Formation.BOTH_OR_NEITHER),
    ),
)
"""Spit with two community cards, each turned before its own round: a hand uses both of them
or neither (the house plays it best as lowball; here it is high-low, as Spit)."""

SPLIT_POT_GAMES = (
    OMAHA_HIGH_LOW,
    HOLDEM_HIGH_LOW,
    CHICAGO,
    SPIT,
    SEATTLE_SIX,
    GO_FOR_BROKE,
    HAWAII_FIVE_LOW,
    FIVE_BY_TWO,
    DOUBLE_SPIT,
)

__all__ = [
    "CHICAGO",
    "DOUBLE_SPIT",
    "FIVE_BY_TWO",
    "GO_FOR_BROKE",
    "HAWAII_FIVE_LOW",
    "HOLDEM_HIGH_LOW",
    "OMAHA_HIGH_LOW",
    "SEATTLE_SIX",
    "SPIT",
    "SPLIT_POT_GAMES",
]
