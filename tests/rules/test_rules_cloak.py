"""The cloak of Go for Broke at the rules level (SPEC 3.17, 3.13.13): at its wash a player may
instead pay eight antes to wash one face-up card and be dealt the next card face down; a cloak
of a face-down card, at a wash that offers none, beyond the stack, or after the player's wash
is refused."""

from __future__ import annotations

import pytest
from live_hands import ANTE, to_wash

from p2pwillow.games.split_pot import GO_FOR_BROKE, SEATTLE_SIX
from p2pwillow.rules import (
    ActionKind,
    IllegalAction,
    Phase,
)
from p2pwillow.rules.events import Washed
from p2pwillow.rules.live import Redeal
from p2pwillow.rules.wash import cloak_cost

CLOAK = ActionKind.CLOAK


def test_a_cloak_pays_eight_antes_and_the_card_comes_back_face_down() -> None:
    hand, _ = to_wash(GO_FOR_BROKE)
    assert cloak_cost(hand) == 8 * ANTE
    seat = hand.to_act()[0]
    up = hand.showing(seat)
    pot = hand.pot
    with pytest.raises(IllegalAction, match="one card showing"):
        hand.act(CLOAK, seat, (0,))  # its first face-down card
    with pytest.raises(IllegalAction, match="one card showing"):
        hand.act(CLOAK, seat, (2, 3))
    hand.act(CLOAK, seat, (2 + 1,))  # two face down, then its second face-up card
    washed = hand.events[-1]
    assert isinstance(washed, Washed)
    assert (washed.card, washed.paid, washed.cloaked) == (up[1], 40, True)
    assert hand.stack(seat) == 200 - ANTE - 40 and hand.pot == pot + 40
    assert hand.showing(seat) == (up[0], up[2])
    with pytest.raises(IllegalAction, match="washes now"):
        hand.act(CLOAK, seat, (2,))  # its one decision at this wash is made
    while hand.phase is Phase.DRAW:
        hand.act(ActionKind.DRAW, hand.to_act()[0], ())
    step = hand.step
    assert isinstance(step, Redeal)
    assert step.destinations(hand.snapshot()) == (("down", seat),)


def test_a_cloak_is_refused_where_none_is_offered_or_the_stack_cannot_pay() -> None:
    hand, _ = to_wash(SEATTLE_SIX)
    assert cloak_cost(hand) is None
    seat = hand.to_act()[0]
    assert CLOAK not in hand.legal_actions(seat)
    with pytest.raises(IllegalAction, match="no cloak"):
        hand.act(CLOAK, seat, (2,))
    poor, _ = to_wash(GO_FOR_BROKE, (200, 40, 200))  # seat 1 has 35 behind: a cloak is 40
    while poor.to_act()[0] != 1:
        poor.act(ActionKind.DRAW, poor.to_act()[0], ())
    assert CLOAK in poor.legal_actions(1)
    with pytest.raises(IllegalAction, match="a cloak costs 40 chips; seat 1 has 35"):
        poor.act(CLOAK, 1, (2,))
    poor.act(ActionKind.DRAW, 1, (2,))  # a plain wash of the same card, two antes, it can pay
    assert poor.stack(1) == 35 - 2 * ANTE
