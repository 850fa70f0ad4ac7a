"""Trading as at a real table (SPEC 3.5, `partner` `offerer-chooses`): everyone with a token
answers an offer in any order, the offerer picks its partner among those who accepted or
withdraws, and the dealer calls trading closed only once every player with a token has had the
chance to offer. The older rules (`first-accept`) are test_trading.py's and
test_free_trading.py's."""

from __future__ import annotations

import pytest
from rules_driver import dealt, phase_of, refused

from p2pwillow.games import weeping_willow as ww
from p2pwillow.games.weeping_willow import (
    OfferLapsed,
    OfferWithdrawn,
    PartnerChosen,
    Passed,
    TradeMade,
    TradingClose,
    TradingClosed,
    TradingMode,
)
from p2pwillow.rules import ActionKind, FoldedForStalling, Phase, TimedOut

IN_TURN = ww.announcement(5, TradingMode.IN_TURN, TradingClose.ORBIT_WITHOUT_TRADE)
DEALER_CALLS = ww.announcement(5, TradingMode.IN_TURN, TradingClose.DEALER_CALLS)
FREE = ww.announcement(5, TradingMode.FREE, TradingClose.DEALER_CALLS)
# Seats 0..3, seat 0 deals: table order 1, 2, 3, 0.


def test_the_default_is_the_offerer_chooses() -> None:
    assert ww.Setup.of(IN_TURN).partner is ww.Partner.OFFERER_CHOOSES
    assert ww.WEEPING_WILLOW.option("partner").default == "offerer-chooses"
    assert "the offerer picks among those who accept" in IN_TURN.words()
    assert "once everyone has offered or passed" in FREE.words()


def test_everyone_answers_in_any_order_and_the_offerer_chooses() -> None:
    hand = dealt(IN_TURN)
    offer = ww.offer(hand, 1, 2).offer
    assert hand.to_act() == (2, 3, 0)  # no first claim for the seat on the offerer's left
    refused(hand, "choose_partner", 1, 3)  # nobody has accepted yet
    ww.accept(hand, 3, offer)  # seat 3 before seat 2
    assert ww.accepted(hand) == (3,) and ww.trade_sides(hand) is None
    refused(hand, "accept", 3)  # once
    refused(hand, "decline", 3)
    ww.accept(hand, 0)
    assert hand.to_act() == (2,)  # the answer still out; the offerer is not waited for
    assert ActionKind.CHOOSE_PARTNER in hand.legal_actions(1)  # but it may choose now
    refused(hand, "choose_partner", 1, 2)  # seat 2 has not accepted
    refused(hand, "choose_partner", 3, 0)  # only the offerer chooses
    ww.decline(hand, 2)
    assert hand.to_act() == (1,)  # every answer in: the offerer's choice
    assert hand.legal_actions(1) == {ActionKind.CHOOSE_PARTNER, ActionKind.WITHDRAW}
    chosen = ww.choose_partner(hand, 1, 0)
    assert chosen == PartnerChosen(offer, 0, (3,))
    assert ww.trade_sides(hand) == (1, 0, 2) and hand.to_act() == (1, 0)
    ww.choose_trade_cards(hand, 1, [0, 1])
    ww.choose_trade_cards(hand, 0, [2, 3])
    made = hand.events[-1]
    assert isinstance(made, TradeMade) and (made.trade.offerer, made.trade.acceptor) == (1, 0)
    assert hand.tokens(1) == hand.tokens(0) == 5 and hand.tokens(3) == 6
    assert hand.to_act() == (2,)  # the turn moves on


def test_the_offerer_may_choose_before_every_answer_is_in() -> None:
    hand = dealt(IN_TURN)
    ww.offer(hand, 1, 1)
    ww.accept(hand, 2)
    ww.choose_partner(hand, 1, 2)  # seats 3 and 0 never answered
    refused(hand, "accept", 3)
    assert hand.to_act() == (1, 2)


def test_all_decline_and_the_offer_lapses() -> None:
    hand = dealt(IN_TURN)
    ww.offer(hand, 1, 3)
    for seat in (0, 3, 2):
        ww.decline(hand, seat)
    assert isinstance(hand.events[-1], OfferLapsed)
    assert hand.to_act() == (2,)


def test_withdrawing_in_turn_ends_the_turn_without_a_trade() -> None:
    hand = dealt(IN_TURN)
    ww.offer(hand, 1, 1)
    ww.accept(hand, 2)
    ww.withdraw(hand, 1)
    assert isinstance(hand.events[-1], OfferWithdrawn) and hand.to_act() == (2,)
    refused(hand, "choose_partner", 1, 2)
    for seat in (2, 3, 0):  # three passes after the withdrawal: a full orbit without a trade
        ww.pass_turn(hand, seat)
    closed = hand.events[-1]
    assert isinstance(closed, TradingClosed) and "orbit" in closed.reason
    assert phase_of(hand) is Phase.LAYOUT


def test_the_clock_declines_for_a_silent_answer_and_withdraws_for_a_silent_offerer() -> None:
    hand = dealt(IN_TURN)
    ww.offer(hand, 1, 2)
    ww.accept(hand, 2)
    ww.decline(hand, 3)
    refused(hand, "timeout", 1)  # the offerer is not waited for while an answer is out
    out = hand.timeout(0)
    assert isinstance(out, TimedOut) and type(out.outcome).__name__ == "TradeDeclined"
    assert hand.to_act() == (1,)
    out = hand.timeout(1)  # the offerer away: no trade is made for it
    assert isinstance(out.outcome, OfferWithdrawn)
    assert ww.trades(hand) == () and hand.to_act() == (2,)


def test_a_partner_must_be_an_accepter_of_this_offer() -> None:
    hand = dealt(IN_TURN)
    ww.offer(hand, 1, 1)
    ww.accept(hand, 2)
    for bad in (1, 4, -1, 99, "2", None):
        if bad is None:
            continue
        refused(hand, "choose_partner", 1, bad)
    old = dealt(ww.announcement(5, partner=ww.Partner.FIRST_ACCEPT))
    ww.offer(old, 1, 1)
    assert old.to_act() == (2,)
    refused(old, "accept", 3)  # first-accept: clockwise from the offerer
    ww.accept(old, 2)
    assert ww.trade_sides(old) == (1, 2, 1)  # the first accept trades
    refused(old, "choose_partner", 1, 2)


def test_a_dealer_calls_in_turn_trading_only_after_everyone_had_the_chance() -> None:
    hand = dealt(DEALER_CALLS)
    refused(hand, "close_trading", 0)
    ww.pass_turn(hand, 1)
    ww.offer(hand, 2, 1)
    for seat in (3, 0, 1):
        ww.decline(hand, seat)
    refused(hand, "close_trading", 0)  # seat 3 has not had its turn
    ww.pass_turn(hand, 3)
    ww.close_trading(hand, 0)  # the dealer's close is its own pass
    assert phase_of(hand) is Phase.LAYOUT


def test_free_trading_waits_for_every_chance_before_the_dealer() -> None:
    hand = dealt(FREE)
    assert hand.to_act() == (1, 2, 3, 0)  # everyone may offer or pass
    refused(hand, "close_trading", 0)
    assert hand.legal_actions(2) == {ActionKind.OFFER, ActionKind.PASS}
    assert isinstance(ww.pass_turn(hand, 2), Passed)
    refused(hand, "pass_turn", 2)  # once a hand
    assert ww.had_chance(hand) == (2,) and hand.to_act() == (1, 3, 0)
    ww.offer(hand, 3, 1)
    ww.accept(hand, 2)  # a seat that passed may still take an offer
    ww.decline(hand, 1)
    ww.decline(hand, 0)
    ww.choose_partner(hand, 3, 2)
    ww.choose_trade_cards(hand, 3, [0])
    ww.choose_trade_cards(hand, 2, [0])
    assert hand.to_act() == (1, 0)
    ww.offer(hand, 2, 2)  # having passed, it may still offer
    ww.withdraw(hand, 2)
    out = hand.timeout(1)  # a silent seat passes when its clock runs out
    assert isinstance(out.outcome, Passed)
    assert hand.to_act() == (0,) and ww.had_chance(hand) == (2, 3, 1)
    ww.close_trading(hand, 0)
    assert phase_of(hand) is Phase.LAYOUT


def test_the_free_dealers_clock_closes_once_everyone_had_the_chance() -> None:
    hand = dealt(FREE)
    for seat in (1, 2, 3):
        ww.pass_turn(hand, seat)
    assert hand.to_act() == (0,)
    ww.pass_turn(hand, 0)
    assert hand.to_act() == (0,)  # now as the closer
    out = hand.timeout(0)
    assert isinstance(out.outcome, TradingClosed) and "clock" in out.outcome.reason


@pytest.mark.parametrize("mode", [TradingMode.IN_TURN, TradingMode.FREE])
def test_stalls_leave_the_answers_and_the_accepters(mode: TradingMode) -> None:
    closing = TradingClose.DEALER_CALLS
    hand = dealt(ww.announcement(5, mode, closing))
    ww.offer(hand, 1, 1)
    ww.accept(hand, 2)
    ww.decline(hand, 3)
    event = hand.stall(2)  # the only accepter folds for stalling
    assert isinstance(event, FoldedForStalling)
    assert ww.accepted(hand) == () and ww.answering(hand) == (0,)
    ww.accept(hand, 0)
    hand.stall(0)  # the last answer out, and the last accepter: the offer lapses
    assert any(isinstance(e, OfferLapsed) for e in hand.events[-3:])
    assert ww.open_offer(hand) is None
    hand2 = dealt(ww.announcement(5, mode, closing))
    ww.offer(hand2, 1, 1)
    ww.accept(hand2, 3)
    ww.decline(hand2, 0)
    hand2.stall(2)  # the last answer out folds: the offerer's choice is due
    assert hand2.to_act() == (1,) and ww.accepted(hand2) == (3,)
    hand2.stall(1)  # the offerer folds: its offer lapses
    assert ww.open_offer(hand2) is None and ww.trade_sides(hand2) is None
