"""Car Wash (SPEC 3.13.17): five-card stud lowball, the first and the last card face down, in
which every player may wash two cards in all over the hand, at once or one at a time, each
wash right after a card is dealt. Pure; no I/O.

"A player may exercise one or both wash options at any time immediately after the player
receives a card": after every card of the deal (the first two dealt as one step, then each
street) the players still in may wash, in table order, a face-down card face down and a
face-up card face up, up to the two of the whole hand. The house's "optional rule: washing
costs money" is the option `wash_price` (antes a card, free by default). There is no
declaration: the best ace-to-five low takes each pot, and every round opens with the lowest
cards showing.
"""

from __future__ import annotations

from p2pwillow.rules import BetSize, Forced, GameSpec, Opening
from p2pwillow.rules.live import Deal, Redeal, Settle, ShowCards, Street
from p2pwillow.rules.script import Option, Step
from p2pwillow.rules.streets import Bet
from p2pwillow.rules.wash import Wash

SMALL, BIG = BetSize.SMALL, BetSize.BIG

WASH_PRICE = Option("wash_price", 0, low=0, high=8, title="antes to wash a card")
"""The house's optional price of a wash, in antes a card (0: free, as the house plays it)."""

WASHES = 2
"""The cards a player may wash over the whole hand: "a total of two times"."""


def _washed(*steps: Step) -> tuple[Step, ...]:
    """Steps that deal cards, then the wash right after them and its replacements."""
    return (*steps, Wash(price=WASH_PRICE.name, most=WASHES, limit=WASHES), Redeal())


CAR_WASH = GameSpec(
    name="car-wash",
    title="Car Wash",
    options=(WASH_PRICE,),
    forced=Forced.ANTE,
    # five cards each and two washed: 49 cards at seven players
    players=(2, 7),
    script=(
        *_washed(Deal(down=1, up=1)),
        Bet(Opening.LOW_HAND, SMALL),
        *_washed(Street(up=1)),
        Bet(Opening.LOW_HAND, SMALL),
        *_washed(Street(up=1)),
        Bet(Opening.LOW_HAND, BIG),
        *_washed(Street(down=1)),
        Bet(Opening.LOW_HAND, BIG),
        ShowCards(),
        Settle(low=True),
    ),
)
"""Five-card stud lowball with two washes at will, each right after a card."""

__all__ = ["CAR_WASH", "WASHES", "WASH_PRICE"]
