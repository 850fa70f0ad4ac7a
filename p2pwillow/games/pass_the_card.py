"""Pass the Card (SPEC 3.13.18): high-low seven-card stud in which each face-up card, as it is
dealt, may be passed to the next player for the betting minimum. Pure; no I/O.

"As each face-up card is dealt, a player is given the option to pass that card to the next
player but must pay the betting minimum to do so. Each player has one such choice per dealing
round. The starting position for dealing rotates each round." Every face-up card (third
street's up card, then fourth to sixth street) comes in a pass street (SPEC 3.19): dealt one
seat at a time from a start one seat on each street, each seat keeping its card or paying to
pass it to the next seat and being dealt another. The declaration and its bet are the house's,
as in its other split-pot games (3.16).
"""

from __future__ import annotations

from p2pwillow.rules import BetSize, Forced, GameSpec, Opening
from p2pwillow.rules.declare import Declare, SettleSplit
from p2pwillow.rules.live import Deal, Formation, ShowCards, Street
from p2pwillow.rules.passing import PassStreet
from p2pwillow.rules.streets import Bet

SMALL, BIG = BetSize.SMALL, BetSize.BIG

PASS_THE_CARD = GameSpec(
    name="pass-the-card",
    title="Pass the Card",
    options=(),
    forced=Forced.ANTE,
    # Seven cards each and at most one pass a player but the last on each of the four pass
    # streets: 35 + 16 = 51 cards at five players, so the deck never runs out (six would need
    # 62). No overflow is needed on seventh street.
    players=(2, 5),
    script=(
        Deal(down=2),
        PassStreet(),
        Bet(Opening.HIGH_CARD, SMALL),
        PassStreet(),
        Bet(Opening.HIGH_HAND, SMALL),
        PassStreet(),
        Bet(Opening.HIGH_HAND, BIG),
        PassStreet(),
        Bet(Opening.HIGH_HAND, BIG),
        Street(down=1),
        Bet(Opening.HIGH_HAND, BIG),
        Declare(),
        Bet(Opening.HIGH_HAND, BIG),
        ShowCards(),
        SettleSplit(Formation.BEST_FIVE),
    ),
)
"""High-low seven-card stud in which every face-up card may be passed on, for a price."""

__all__ = ["PASS_THE_CARD"]
