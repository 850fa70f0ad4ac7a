"""Five by Two's washes at the rules level (SPEC 3.17, 3.13.15): every player first says, in the
order of the best high hand showing, whether it washes; nobody washes before all have said;
then only those who said so wash, in the same order, and each must name a card; the clock
says "keep"; a player whose stack cannot pay cannot say it washes."""

from __future__ import annotations

import live_hands
import pytest
from live_hands import ANTE

from p2pwillow.games.split_pot import FIVE_BY_TWO
from p2pwillow.rules import ActionKind, Hand, IllegalAction, Phase
from p2pwillow.rules.events import WashCalled, Washed
from p2pwillow.rules.live import Redeal

WASH, KEEP, DRAW = ActionKind.WASH_CALL, ActionKind.KEEP_CALL, ActionKind.DRAW


def to_wash(stacks: tuple[int, int, int] = (200, 200, 200)) -> Hand:
    return live_hands.to_wash(FIVE_BY_TWO, stacks)[0]


def test_every_player_says_first_and_only_those_who_said_so_wash_in_order() -> None:
    hand = to_wash()
    order = hand.snapshot().wash_order
    first, second, third = order
    assert hand.to_act() == (first,)
    assert set(hand.legal_actions(first)) >= {WASH, KEEP}
    assert DRAW not in hand.legal_actions(first)
    with pytest.raises(IllegalAction, match="nobody washes yet"):
        hand.act(DRAW, first, (1,))
    with pytest.raises(IllegalAction, match=f"seat {first} says now"):
        hand.act(WASH, second)
    hand.act(WASH, first)
    hand.act(KEEP, second)
    with pytest.raises(IllegalAction, match="nobody washes yet"):
        hand.act(DRAW, first, (1,))  # the third has not said yet
    hand.act(WASH, third)
    calls = [(e.seat, e.washes) for e in hand.events if isinstance(e, WashCalled)]
    assert calls == [(first, True), (second, False), (third, True)]
    assert hand.to_act() == (first,)
    with pytest.raises(IllegalAction, match="every player has said"):
        hand.act(KEEP, first)
    with pytest.raises(IllegalAction, match="said it washes"):
        hand.act(DRAW, first, ())
    hand.act(DRAW, first, (1,))  # its first face-up card (one face down first)
    assert hand.to_act() == (third,)  # the one that kept is not asked
    hand.timeout(third)  # the clock keeps its cards all the same, for nothing
    washed = [(e.seat, e.count) for e in hand.events if isinstance(e, Washed)]
    assert washed == [(first, 1), (third, 0)]
    assert hand.stack(third) == 200 - ANTE
    step = hand.step
    assert isinstance(step, Redeal)
    assert step.destinations(hand.snapshot()) == (("up", first),)


def test_when_nobody_says_it_washes_the_wash_ends_and_the_clock_says_keep() -> None:
    hand = to_wash()
    first, second, third = hand.snapshot().wash_order
    hand.act(KEEP, first)
    hand.timeout(second)
    assert [(e.seat, e.washes) for e in hand.events if isinstance(e, WashCalled)][-1] == (
        second,
        False,
    )
    hand.act(KEEP, third)
    assert hand.phase is Phase.BETTING  # its redeal dealt nothing


def test_a_player_that_cannot_pay_cannot_say_it_washes() -> None:
    hand = to_wash((200, 12, 200))  # seat 1 keeps 7 chips after the ante: a wash is 10
    while hand.to_act() != (1,):
        hand.act(KEEP, hand.to_act()[0])
    assert WASH not in hand.legal_actions(1) and KEEP in hand.legal_actions(1)
    with pytest.raises(IllegalAction, match="a wash costs 10 chips; seat 1 has 7"):
        hand.act(WASH, 1)
