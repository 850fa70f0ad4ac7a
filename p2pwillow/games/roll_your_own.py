"""Roll Your Own (SPEC 3.13.2): every player is dealt five to seven cards, lays five out face
down in the order it will turn them, and then turns one and bets, five times. No trading:
every player antes instead. Weeping Willow says its play "runs as in Roll Your Own":
its rounds are these (`five_rounds`).

Pure; no I/O. A description and nothing else: every step is the engine's.
"""

from __future__ import annotations

from p2pwillow.rules import BetSize, Forced, GameSpec, Opening, Option
from p2pwillow.rules.streets import Bet, DealDown, LayOut, Showdown, Turn

DEAL_SIZES = (5, 6, 7)
LAYOUT = 5
"""Cards laid out, and turned one a round (SPEC 3.6)."""

DEAL_SIZE = Option("deal_size", 5, choices=DEAL_SIZES, title="cards dealt")


def five_rounds() -> tuple[Turn | Bet, ...]:
    """Turn a laid-out card, then bet, five times (SPEC 3.6, 3.7.4): the first round opened by
    the highest card showing, the others by the highest hand showing; rounds 1-2 at the small
    bet, 3-5 at the big bet."""
    steps: list[Turn | Bet] = []
    for card in range(LAYOUT):
        opening = Opening.HIGH_CARD if card == 0 else Opening.HIGH_HAND
        steps += [Turn(card), Bet(opening, BetSize.SMALL if card < 2 else BetSize.BIG)]
    return tuple(steps)


ROLL_YOUR_OWN = GameSpec(
    name="roll-your-own",
    title="Roll Your Own",
    options=(DEAL_SIZE,),
    forced=Forced.ANTE,
    script=(DealDown("deal_size"), LayOut(LAYOUT), *five_rounds(), Showdown(LAYOUT)),
)

__all__ = ["DEAL_SIZE", "DEAL_SIZES", "LAYOUT", "ROLL_YOUR_OWN", "five_rounds"]
