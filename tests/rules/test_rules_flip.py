"""Five by Two's flip at the rules level (SPEC 3.17, 3.13.15): a player that said it washes may
instead turn one of its face-down cards face up and wash one of its face-up cards, at the
price of a face-up card, the new card dealt face down; a flip where none is offered, of two
cards of one kind, of a card it does not hold, out of turn, beyond its stack, or without the
card its show opened, is refused with nothing changed."""

from __future__ import annotations

from dataclasses import replace

import live_hands
import pytest
from live_hands import ANTE

from p2pwillow.bots.live_arena import LiveDealer
from p2pwillow.cards import Card
from p2pwillow.games.split_pot import FIVE_BY_TWO, GO_FOR_BROKE
from p2pwillow.rules import ActionKind, Hand, IllegalAction, Phase
from p2pwillow.rules.events import Washed
from p2pwillow.rules.live import Redeal
from p2pwillow.rules.wash import Flip, Wash, flip_cost

FLIP, WASH, KEEP = ActionKind.FLIP, ActionKind.WASH_CALL, ActionKind.KEEP_CALL


def to_flip(stacks: tuple[int, int, int] = (200, 200, 200)) -> tuple[Hand, LiveDealer, int]:
    """Five by Two at its first wash, every player saying it washes: the first to wash."""
    hand, dealer = live_hands.to_wash(FIVE_BY_TWO, stacks)
    for seat in hand.snapshot().wash_order:
        hand.act(WASH, seat)
    return hand, dealer, hand.to_act()[0]


def test_a_flip_turns_a_card_up_washes_another_and_is_dealt_one_face_down() -> None:
    hand, dealer, seat = to_flip()
    assert flip_cost(hand) == 2 * ANTE  # the first wash's price of a face-up card
    hole = dealer.down[seat][0]
    up = hand.showing(seat)
    assert len(up) == 4 and hand.hand_size(seat) == 5
    assert FLIP in hand.legal_actions(seat)
    stack, pot = hand.stack(seat), hand.pot
    hand.verify(FLIP, seat, (0, 2))  # the decision: its face-down card, its second face-up one
    with pytest.raises(IllegalAction, match="taken with the face-down card"):
        hand.act(FLIP, seat, (0, 2))  # the rules cannot turn a card they do not know
    assert hand.stack(seat) == stack and hand.showing(seat) == up
    hand.act(FLIP, seat, Flip(0, 2, hole))
    washed = hand.events[-1]
    assert isinstance(washed, Washed)
    assert (washed.card, washed.flipped, washed.paid, washed.count) == (up[1], hole, 10, 1)
    assert washed.words(str) == (
        f"{seat} pays 10 and flips ",
        hole,
        " face up, washes ",
        up[1],
        ": another comes face down",
    )
    # the card turned up joins the cards showing, after them; the card washed is gone
    assert hand.showing(seat) == (up[0], up[2], up[3], hole)
    assert hand.hand_size(seat) == 4
    assert hand.stack(seat) == stack - 10 and hand.pot == pot + 10
    with pytest.raises(IllegalAction, match="washes now"):
        hand.act(FLIP, seat, (0, 1))  # its one decision at this wash is made
    while hand.phase is Phase.DRAW:
        hand.act(ActionKind.DRAW, hand.to_act()[0], (1,))
    step = hand.step
    assert isinstance(step, Redeal)
    # the replacement comes face down (the others washed face-up cards: face up)
    assert ("down", seat) in step.destinations(hand.snapshot())
    assert ("up", seat) not in step.destinations(hand.snapshot())
    hand.act(ActionKind.STREET, 2, dealer.street(hand))
    assert hand.hand_size(seat) == 5 and len(hand.showing(seat)) == 4


def test_a_flip_of_two_cards_of_one_kind_or_of_cards_it_does_not_hold_is_refused() -> None:
    hand, dealer, seat = to_flip()
    hole = dealer.down[seat][0]
    up = hand.showing(seat)
    before = hand.snapshot()
    with pytest.raises(IllegalAction, match=r"a face-down card .* then a face-up"):
        hand.act(FLIP, seat, Flip(1, 2, hole))  # two face-up cards
    with pytest.raises(IllegalAction, match=r"a face-down card .* then a face-up"):
        hand.verify(FLIP, seat, (2, 0))  # the face-up card first
    with pytest.raises(IllegalAction, match=r"holds cards 0\.\.4"):
        hand.verify(FLIP, seat, (0, 5))  # no sixth card
    with pytest.raises(IllegalAction, match="names two cards"):
        hand.verify(FLIP, seat, (0,))
    with pytest.raises(IllegalAction, match="names two cards"):
        hand.verify(FLIP, seat, (0, 1, 2))
    # a show that opens a card showing already is no card it holds face down
    with pytest.raises(IllegalAction, match="no card it holds face down"):
        hand.act(FLIP, seat, Flip(0, 1, up[2]))
    with pytest.raises(IllegalAction, match="no card it holds face down"):
        hand.act(FLIP, seat, Flip(0, 1, "Ah"))  # type: ignore[arg-type]
    assert hand.snapshot() == before


def test_a_flip_out_of_turn_before_all_said_or_where_none_is_offered_is_refused() -> None:
    hand, dealer = live_hands.to_wash(FIVE_BY_TWO)
    first, second, third = hand.snapshot().wash_order
    with pytest.raises(IllegalAction, match="nobody washes yet"):
        hand.verify(FLIP, first, (0, 1))
    hand.act(WASH, first)
    hand.act(KEEP, second)
    hand.act(WASH, third)
    with pytest.raises(IllegalAction, match=f"seat {first} washes now, not seat {third}"):
        hand.act(FLIP, third, Flip(0, 1, dealer.down[third][0]))
    hand.act(ActionKind.DRAW, first, (1,))
    assert not hand.can(FLIP, second)  # it said it keeps its cards: it is not asked
    gfb, _ = live_hands.to_wash(GO_FOR_BROKE)
    assert flip_cost(gfb) is None
    seat = gfb.to_act()[0]
    assert FLIP not in gfb.legal_actions(seat)
    with pytest.raises(IllegalAction, match="offers no flip"):
        gfb.verify(FLIP, seat, (0, 2))


def test_a_flip_beyond_the_stack_is_refused() -> None:
    """In Five by Two a player that cannot pay a face-up card cannot say it washes, so its flip
    is refused first for that; a wash with the flip and no calls refuses it for the stack."""
    poor, _ = live_hands.to_wash(FIVE_BY_TWO, (200, 14, 200))
    assert poor.stack(1) == 9  # a wash of a face-up card is 10
    while poor.to_act() != (1,):
        poor.act(WASH, poor.to_act()[0])
    assert not poor.can(WASH, 1) and not poor.can(FLIP, 1)
    script = tuple(
        replace(step, called=False) if isinstance(step, Wash) else step
        for step in FIVE_BY_TWO.script
    )
    uncalled = replace(FIVE_BY_TWO, name="five-by-two-uncalled", script=script)
    hand, dealer = live_hands.to_wash(uncalled, (200, 14, 200))
    while hand.to_act() != (1,):
        hand.act(ActionKind.DRAW, hand.to_act()[0], ())
    before = hand.snapshot()
    assert FLIP not in hand.legal_actions(1)  # the key is greyed out: it cannot pay
    with pytest.raises(IllegalAction, match="a flip costs 10 chips; seat 1 has 9"):
        hand.act(FLIP, 1, Flip(0, 1, dealer.down[1][0]))
    assert hand.snapshot() == before


def test_the_card_flipped_shows_at_the_showdown_as_a_face_up_card() -> None:
    """Every player flips its face-down card at the first wash: the show at the showdown opens
    the one face-down card each holds then, the one dealt for the flip."""
    hand, dealer, _ = to_flip()
    flipped: dict[int, Card] = {}
    while hand.phase is Phase.DRAW:
        seat = hand.to_act()[0]
        flipped[seat] = dealer.down[seat][0]
        hand.act(FLIP, seat, Flip(0, 1, flipped[seat]))
        dealer.down[seat].remove(flipped[seat])
    for seat, card in flipped.items():
        assert hand.showing(seat)[-1] == card and hand.hand_size(seat) == 4
    hand.act(ActionKind.STREET, 2, dealer.street(hand))
    for seat in flipped:
        assert hand.hand_size(seat) - len(hand.showing(seat)) == 1
        assert card not in dealer.face_down(hand, seat)
