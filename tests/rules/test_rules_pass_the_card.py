"""Pass the Card at the rules level (SPEC 3.19, 3.13.18): each face-up card is dealt alone, seat
by seat from a start that moves one seat on each street; the seat keeps it or pays the betting
minimum to pass it to the next seat dealt, which then has its own choice on it, and the passer
is dealt a replacement it keeps; the last seat is not asked; the clock keeps; a pass needs the
chips; a passed card is the receiver's at the showdown."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from p2pwillow.bots.live_arena import LiveDealer
from p2pwillow.cards import DECK, Card, parse_cards
from p2pwillow.games.pass_the_card import PASS_THE_CARD
from p2pwillow.rules import (
    ActionKind,
    Announcement,
    BettingStructure,
    Hand,
    IllegalAction,
    Phase,
    TableConfig,
)
from p2pwillow.rules.events import CardKept, CardPassed, StreetDealt
from p2pwillow.rules.passing import PassStreet, pass_price

PASS, KEEP, STREET = ActionKind.PASS_CARD, ActionKind.KEEP_CARD, ActionKind.STREET
ANTE, MIN_BET = 5, 25
ACE = parse_cards("As")[0]


def _hand(
    stacks: Sequence[int] = (500, 500, 500), deck: Sequence[Card] = DECK, **settings: object
) -> tuple[Hand, LiveDealer]:
    """Three players, the dealer 2 (so seat 0 is dealt first), antes of 5 and the deck in
    `deck`'s order; the first deal (two down each) done."""
    values: dict[str, object] = {
        "seats": 3,
        "games": (PASS_THE_CARD.name,),
        "ante": ANTE,
        "min_bet": MIN_BET,
        "starting_stack": 500,
    }
    values.update(settings)
    config = TableConfig(**values)  # type: ignore[arg-type]
    hand = Hand(config, [0, 1, 2], list(stacks), dealer=2)
    hand.announce(2, Announcement.of(PASS_THE_CARD))
    dealer = LiveDealer(list(deck))
    hand.act(STREET, 2, dealer.street(hand))  # two down each
    return hand, dealer


def _deal(hand: Hand, dealer: LiveDealer) -> Card:
    """Deal the one card the pass street owes; the card."""
    opened = dealer.street(hand)
    ((_, (card,)),) = opened.up
    hand.act(STREET, 2, opened)
    return card


def _pass(hand: Hand, dealer: LiveDealer, seat: int) -> CardPassed:
    event = hand.act(PASS, seat)
    assert isinstance(event, CardPassed)
    dealer.give(event.seat, event.to, event.card)
    return event


def test_one_card_at_a_time_a_pass_moves_it_on_and_the_passer_is_dealt_another() -> None:
    hand, dealer = _hand()
    step = hand.step
    assert isinstance(step, PassStreet) and hand.phase is Phase.STREET
    s = hand.snapshot()
    assert s.pass_order == (0, 1, 2)
    assert step.destinations(s) == (("up", 0),)  # one card, seat 0's
    assert hand.to_act() == ()
    first = _deal(hand, dealer)
    # nothing is dealt while seat 0 chooses
    assert step.destinations(hand.snapshot()) == () and hand.ops() == ()
    assert hand.to_act() == (0,)
    assert hand.legal_actions(0) == {PASS, KEEP}
    with pytest.raises(IllegalAction, match="no card is dealt now"):
        hand.act(STREET, 2, dealer.street(hand))
    with pytest.raises(IllegalAction, match="seat 0 keeps or passes its card now, not seat 1"):
        hand.act(PASS, 1)
    passed = _pass(hand, dealer, 0)
    assert (passed.seat, passed.to, passed.card, passed.paid) == (0, 1, first, MIN_BET)
    assert hand.stack(0) == 500 - ANTE - MIN_BET
    assert hand.pot == 3 * ANTE + MIN_BET  # dead money, as a wash's price
    assert hand.showing(0) == () and hand.showing(1) == (first,)
    # the replacement comes before anything else, and nobody chooses meanwhile
    assert step.destinations(hand.snapshot()) == (("up", 0),)
    assert hand.to_act() == ()
    with pytest.raises(IllegalAction, match="a card is being dealt"):
        hand.act(KEEP, 1)
    replacement = _deal(hand, dealer)
    dealt = hand.events[-1]
    assert isinstance(dealt, StreetDealt) and dealt.replaces == first
    assert hand.showing(0) == (replacement,)
    # seat 1 has its own choice on the card passed to it, and is dealt no other
    assert hand.to_act() == (1,)
    hand.act(KEEP, 1)
    assert hand.showing(1) == (first,)
    # the last seat is dealt, and keeps its card unasked: the round opens
    assert step.destinations(hand.snapshot()) == (("up", 2),)
    _deal(hand, dealer)
    assert hand.betting_round == 1 and hand.to_act()  # the round opens
    kept = [(e.seat, e.card) for e in hand.events if isinstance(e, CardKept)]
    assert kept == [(1, first)]
    assert [hand.hand_size(x) for x in (0, 1, 2)] == [3, 3, 3]


def test_a_card_passed_on_twice_and_the_last_seat_has_nobody_to_pass_to() -> None:
    hand, dealer = _hand()
    card = _deal(hand, dealer)
    _pass(hand, dealer, 0)
    _deal(hand, dealer)  # seat 0's replacement
    with pytest.raises(IllegalAction, match="seat 2 is dealt last this street"):
        hand.act(PASS, 2)
    second = _pass(hand, dealer, 1)  # seat 1 passes the same card on
    assert (second.seat, second.to, second.card) == (1, 2, card)
    _deal(hand, dealer)  # seat 1's replacement; seat 2 keeps the passed card unasked
    assert hand.phase is Phase.BETTING
    assert hand.showing(2) == (card,)
    assert hand.stack(1) == 500 - ANTE - MIN_BET


def test_the_start_moves_one_seat_on_each_street_among_the_players_still_in() -> None:
    hand, dealer = _hand()
    starts = []
    while hand.phase is not Phase.DECLARE and not hand.is_over:
        if hand.phase is Phase.STREET and isinstance(hand.step, PassStreet):
            s = hand.snapshot()
            if s.pass_at == 0 and hand.to_act() == () and s.pass_card is None:
                starts.append(s.pass_order)
        if hand.phase in (Phase.DEAL, Phase.STREET) and not hand.to_act():
            hand.act(STREET, 2, dealer.street(hand))
        elif hand.phase is Phase.STREET:
            hand.act(KEEP, hand.to_act()[0])
        elif hand.phase is Phase.BETTING:
            seat = hand.to_act()[0]
            if hand.betting_round == 1 and seat == 1:
                hand.fold(1)
            else:
                hand.check(seat)
    # third street from the dealer's left; then one seat on each street, among those still in
    assert starts == [(0, 1, 2), (2, 0), (0, 2), (2, 0)]


def test_the_clock_keeps_and_a_pass_needs_the_chips() -> None:
    hand, dealer = _hand(stacks=(20, 500, 500))
    _deal(hand, dealer)
    assert hand.to_act() == (0,)
    assert hand.can(KEEP, 0) and not hand.can(PASS, 0)
    with pytest.raises(IllegalAction, match="a pass costs 25 chips; seat 0 has 15"):
        hand.act(PASS, 0)
    before = hand.snapshot()
    hand.timeout(0)
    assert isinstance(hand.events[-1], CardKept) and hand.events[-1].seat == 0
    assert hand.stack(0) == before.players[0].stack
    assert hand.to_act() == ()


def test_a_seat_all_in_is_not_asked() -> None:
    hand, dealer = _hand(stacks=(5, 500, 500))  # its ante puts seat 0 all in
    _deal(hand, dealer)
    assert hand.to_act() == ()  # seat 0 keeps unasked: seat 1 is dealt
    step = hand.step
    assert isinstance(step, PassStreet)
    assert step.destinations(hand.snapshot()) == (("up", 1),)


def test_the_price_is_the_tables_smallest_bet() -> None:
    spread = TableConfig(seats=3, min_bet=10, max_bet=100)
    fixed = TableConfig(seats=3, structure=BettingStructure.FIXED_LIMIT, small_bet=20, big_bet=40)
    assert pass_price(spread) == 10
    assert pass_price(fixed) == 20
    hand, dealer = _hand(structure=BettingStructure.FIXED_LIMIT, small_bet=30, big_bet=60)
    _deal(hand, dealer)
    assert _pass(hand, dealer, 0).paid == 30


def test_a_passed_card_plays_in_the_receivers_hand_at_the_showdown() -> None:
    # seat 0 passes its first up card (the ace of spades) to seat 1 and keeps every other
    order = parse_cards("2c 3c 4d 5d 7h 8h As")
    deck = order + [c for c in DECK if c not in order]
    hand, dealer = _hand(deck=deck)
    assert _deal(hand, dealer) == ACE
    _pass(hand, dealer, 0)
    while not hand.is_over:
        if hand.phase in (Phase.DEAL, Phase.STREET) and not hand.to_act():
            hand.act(STREET, 2, dealer.street(hand))
        elif hand.phase is Phase.STREET:
            hand.act(KEEP, hand.to_act()[0])
        elif hand.phase is Phase.BETTING:
            hand.check(hand.to_act()[0])
        elif hand.phase is Phase.DECLARE:
            for seat in hand.to_act():
                hand.act(ActionKind.DECLARE, seat, "high")
            for due in hand.ops():
                hand.act(ActionKind.OPEN_DECLARATION, due.seat, "high")
        elif hand.phase is Phase.SHOW:
            seat = hand.to_act()[0]
            hand.act(ActionKind.SHOW, seat, dealer.face_down(hand, seat))
    assert ACE in hand.showing(1)
    assert ACE not in hand.showing(0)
    assert [hand.hand_size(x) for x in (0, 1, 2)] == [7, 7, 7]
    result = hand.result
    assert result is not None
    assert sum(result.stack(x) for x in (0, 1, 2)) == 1500
