"""Car Wash at the rules level (SPEC 3.13.17, 3.17, 3.6): a wash right after every card, one or
two cards at once, face down and face up, replaced the same way, at most two over the hand (a
player with none left is not asked), the house's optional price, every round opened by the
lowest cards showing, and each pot to the best ace-to-five low, pairs counting."""

from __future__ import annotations

import pytest
from live_hands import wash

from p2pwillow import evaluators
from p2pwillow.bots.live_arena import LiveDealer
from p2pwillow.cards import DECK, Card
from p2pwillow.games.car_wash import CAR_WASH
from p2pwillow.rules import ActionKind, Announcement, Hand, IllegalAction, Phase, TableConfig
from p2pwillow.rules.betting import low_hand_seat
from p2pwillow.rules.events import BettingOpened, Washed
from p2pwillow.rules.live import Redeal

ANTE = 5


def config() -> TableConfig:
    return TableConfig(seats=3, games=(CAR_WASH.name,), ante=ANTE, starting_stack=200)


def cards(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


def dealt(*hands: str) -> LiveDealer:
    """A dealer whose deck deals seats 0, 1, 2 (the dealer 2) these five cards each in the
    order the game deals them (down, up, up, up, down), then the rest of the deck in order
    (the replacements of washed cards)."""
    rows = [cards(h) for h in hands]
    top = [rows[x][0] for x in range(3)] + [rows[x][1] for x in range(3)]
    for k in range(2, 5):
        top += [rows[x][k] for x in range(3)]
    return LiveDealer(top + [c for c in DECK if c not in top])


def start(dealer: LiveDealer, **options: int) -> Hand:
    hand = Hand(config(), [0, 1, 2], [200, 200, 200], dealer=2)
    hand.announce(2, Announcement.of(CAR_WASH, **options))
    hand.act(ActionKind.STREET, 2, dealer.street(hand))
    return hand


def deal_and_check(hand: Hand, dealer: LiveDealer) -> None:
    """Deal what is due and check the round, up to the next wash (or the end)."""
    while not hand.is_over and hand.phase is not Phase.DRAW:
        if hand.phase in (Phase.DEAL, Phase.STREET):
            hand.act(ActionKind.STREET, 2, dealer.street(hand))
        elif hand.phase is Phase.BETTING:
            hand.check(hand.to_act()[0])
        else:
            assert hand.phase is Phase.SHOW
            seat = hand.to_act()[0]
            hand.act(ActionKind.SHOW, seat, tuple(dealer.down[seat]))


HANDS = ("Kd Ks 9h 8c 7d", "Qc 5h 4s 3h 2c", "Jd 6c 6d Tc Th")


def test_a_wash_of_two_cards_is_replaced_face_down_then_face_up_and_uses_up_the_hand() -> None:
    dealer = dealt(*HANDS)
    hand = start(dealer)
    assert hand.phase is Phase.DRAW and hand.to_act() == (0,)  # right after the first cards
    ks = hand.showing(0)[0]
    wash(hand, dealer, 0, (0, 1))  # its face-down king and its face-up one
    up_washed = [e for e in hand.events if isinstance(e, Washed)]
    assert [(e.seat, e.count, e.card, e.paid) for e in up_washed] == [
        (0, 1, None, 0),
        (0, 1, ks, 0),
    ]  # free by default, the face-down card never named
    assert hand.stack(0) == 200 - ANTE and hand.hand_size(0) == 0
    with pytest.raises(IllegalAction, match="may wash 2 cards here, not 3"):
        hand.act(ActionKind.DRAW, 1, (0, 1, 1))
    with pytest.raises(IllegalAction, match="each card once"):
        hand.act(ActionKind.DRAW, 1, (1, 1))
    hand.act(ActionKind.DRAW, 1, ())
    wash(hand, dealer, 2, (1,))  # its face-up six of clubs
    step = hand.step
    assert isinstance(step, Redeal)
    # a seat's face-down replacements first, then its face-up ones, seat by seat
    assert step.destinations(hand.snapshot()) == (("down", 0), ("up", 0), ("up", 2))
    hand.act(ActionKind.STREET, 2, dealer.street(hand))
    assert hand.hand_size(0) == 2 and len(hand.showing(0)) == 1
    assert len(hand.showing(2)) == 1 and hand.showing(2)[0] != Card.parse("6c")
    # every later wash passes seat 0 by: its two washes are used up
    deal_and_check(hand, dealer)
    assert hand.phase is Phase.DRAW and hand.to_act() == (1,)
    hand.act(ActionKind.DRAW, 1, ())
    with pytest.raises(IllegalAction, match="may wash 1 card here, not 2"):
        hand.act(ActionKind.DRAW, 2, (0, 1))
    wash(hand, dealer, 2, (0,))
    hand.act(ActionKind.STREET, 2, dealer.street(hand))
    deal_and_check(hand, dealer)
    assert hand.to_act() == (1,)  # seat 0 and seat 2 have washed two cards each
    hand.act(ActionKind.DRAW, 1, ())
    assert hand.phase is not Phase.DRAW


def test_when_nobody_has_a_wash_left_the_washes_pass_by() -> None:
    dealer = dealt(*HANDS)
    hand = start(dealer)
    for seat in (0, 1, 2):
        wash(hand, dealer, seat, (0, 1))
    phases = []
    while not hand.is_over:
        phases.append(hand.phase)
        deal_and_check(hand, dealer)
    assert Phase.DRAW not in phases
    assert all(hand.hand_size(x) == 5 for x in (0, 1, 2))


def test_the_house_optional_price_is_paid_a_card_into_the_pot() -> None:
    dealer = dealt(*HANDS)
    hand = start(dealer, wash_price=2)
    assert "a wash costs 2 antes a card" in hand.snapshot().announcement.words()  # type: ignore[union-attr]
    pot = hand.pot
    wash(hand, dealer, 0, (0, 1))
    assert hand.stack(0) == 200 - ANTE - 2 * 2 * ANTE and hand.pot == pot + 20
    assert [e.paid for e in hand.events if isinstance(e, Washed)] == [10, 10]
    with pytest.raises(ValueError, match=r"wash_price must be a whole number 0\.\.8"):
        Announcement.of(CAR_WASH, wash_price=9)


def test_every_round_opens_with_the_lowest_cards_showing_ace_low() -> None:
    dealer = dealt("Kd Ks 9h 8c 7d", "Qc Ah 4s 3h 2c", "Jd 2d 6d Tc Th")
    hand = start(dealer)
    for seat in (0, 1, 2):
        hand.act(ActionKind.DRAW, seat, ())
    assert hand.phase is Phase.BETTING  # the redeal deals nothing
    opened = [e for e in hand.events if isinstance(e, BettingOpened)]
    assert opened[-1].opener == 1  # the ace is the lowest card
    # no pair beats a pair; among lows alike the first in table order opens
    seven, eight, pair = cards("7c 5c"), cards("8c 2s"), cards("2h 2c")
    assert low_hand_seat([0, 1, 2], [pair, eight, seven]) == 2
    assert low_hand_seat([0, 1, 2], [seven, pair, cards("7h 5d")]) == 0


def test_the_best_ace_to_five_low_takes_the_pot_pairs_counting_and_the_wheel_best() -> None:
    # seat 0: a pair of aces; seat 1: the wheel (A-2-3-4-5, no straight in lowball);
    # seat 2: a pair of twos; then the same without the wheel
    def play(p1: str) -> tuple[int, ...]:
        dealer = dealt("Ad 8h As 4d 3c", p1, "2d 7c 2h 5s 6h")
        hand = start(dealer)
        while not hand.is_over:
            if hand.phase is Phase.DRAW:
                hand.act(ActionKind.DRAW, hand.to_act()[0], ())
            else:
                deal_and_check(hand, dealer)
        result = hand.result
        assert result is not None
        (award,) = result.awards
        return award.winners

    assert play("Ah 2c 3d 4h 5c") == (1,)
    assert evaluators.low_a5(cards("Ad 8h As 4d 3c")) > evaluators.low_a5(cards("2d 7c 2h 5s 6h"))
    assert play("Kc Kh Qd Qh Jc") == (0,)  # a pair of aces beats a pair of twos
