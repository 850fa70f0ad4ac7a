"""Announcing and blind trading: turns, answers, tokens, closing rules (SPEC 3.3-3.5)."""

from __future__ import annotations

import pytest
from rules_driver import dealt, phase_of, refused

from p2pwillow.games import weeping_willow as ww
from p2pwillow.games.weeping_willow import (
    OfferLapsed,
    TradeMade,
    TradingClose,
    TradingClosed,
    TradingMode,
    hand_after_trade,
)
from p2pwillow.rules import (
    ActionKind,
    Announcement,
    ConfigError,
    Hand,
    Phase,
    TableConfig,
)

FIRST = ww.Partner.FIRST_ACCEPT
"""These tests play the rules before `partner` (SPEC 3.5: the first to accept trades), which
every hand announced without the option still plays; test_partner.py plays the new ones."""
IN_TURN = ww.announcement(5, TradingMode.IN_TURN, TradingClose.ORBIT_WITHOUT_TRADE, partner=FIRST)
FREE = ww.announcement(5, TradingMode.FREE, TradingClose.DEALER_CALLS, partner=FIRST)


def trade(hand: Hand, a: int, b: int, k: int) -> None:
    ww.offer(hand, a, k)
    while hand.to_act() != (b,) and ww.open_offer(hand) is not None and hand.to_act()[0] != b:
        ww.decline(hand, hand.to_act()[0])
    ww.accept(hand, b)
    ww.choose_trade_cards(hand, a, list(range(k)))
    ww.choose_trade_cards(hand, b, list(range(k)))


def test_announcement_must_fit_the_deck_and_come_from_the_dealer() -> None:
    hand = Hand(TableConfig(seats=8), range(8), [100] * 8, dealer=2)
    refused(hand, "announce", 3, ww.announcement(5))
    refused(hand, "announce", 2, ww.announcement(7))
    hand.announce(2, ww.announcement(6))
    assert hand.phase is Phase.DEAL and hand.to_act() == ()
    refused(hand, "offer", 3, 1)
    with pytest.raises(ConfigError):
        ww.announcement(8)
    with pytest.raises(ConfigError):
        ww.announcement(5, TradingMode.FREE, TradingClose.ORBITS, 2, partner=FIRST)
    with pytest.raises(ConfigError):
        ww.announcement(5, TradingMode.IN_TURN, TradingClose.ORBITS, partner=FIRST)
    with pytest.raises(ConfigError):
        ww.announcement(5, TradingMode.IN_TURN, TradingClose.DEALER_CALLS, 2, partner=FIRST)


def test_in_turn_offers_go_from_the_dealers_left_and_answers_clockwise() -> None:
    hand = dealt(IN_TURN)
    assert hand.to_act() == (1,)
    refused(hand, "offer", 2, 1)
    refused(hand, "withdraw", 1)
    refused(hand, "offer", 1, 6)  # more cards than a hand holds
    refused(hand, "offer", 1, 0)
    offer = ww.offer(hand, 1, 3).offer
    assert hand.to_act() == (2,)
    refused(hand, "accept", 3)  # seat 2 answers first
    refused(hand, "accept", 1)  # not one's own offer
    refused(hand, "pass_turn", 1)
    refused(hand, "close_trading", 0)
    ww.decline(hand, 2, offer)
    ww.decline(hand, 3)
    ww.decline(hand, 0)
    assert isinstance(hand.events[-1], OfferLapsed)
    assert hand.to_act() == (2,)
    ww.offer(hand, 2, 1)
    assert hand.to_act() == (3,)


def test_trade_positions_are_checked_and_tokens_paid() -> None:
    hand = dealt(IN_TURN)
    ww.offer(hand, 1, 2)
    ww.accept(hand, 2)
    refused(hand, "choose_trade_cards", 3, [0, 1])
    refused(hand, "choose_trade_cards", 1, [0])
    refused(hand, "choose_trade_cards", 1, [0, 0])
    refused(hand, "choose_trade_cards", 1, [0, 5])
    refused(hand, "choose_trade_cards", 1, "01")
    refused(hand, "timeout", 1)  # no default for choosing cards
    refused(hand, "offer", 3, 1)
    ww.choose_trade_cards(hand, 2, [4, 0])
    refused(hand, "choose_trade_cards", 2, [1, 2])
    ww.choose_trade_cards(hand, 1, [1, 3])
    made = hand.events[-1]
    assert isinstance(made, TradeMade)
    assert made.trade.offerer_positions == (1, 3) and made.trade.acceptor_positions == (4, 0)
    assert hand.pot == 10 and hand.tokens(1) == hand.tokens(2) == 5
    assert hand.to_act() == (2,)


def test_orbit_without_trade_closes_and_returns_tokens() -> None:
    hand = dealt(IN_TURN)
    trade(hand, 1, 3, 1)  # seat 1's turn ends in a trade
    for seat in (2, 3, 0):
        ww.pass_turn(hand, seat)
    assert hand.phase is Phase.TRADING  # seat 1 has not passed since the trade
    ww.pass_turn(hand, 1)
    closed = hand.events[-1]
    assert isinstance(closed, TradingClosed) and closed.by is None
    assert dict(closed.returned) == {1: 25, 2: 30, 3: 25, 0: 30}
    assert [hand.stack(s) for s in range(4)] == [500, 495, 500, 495]
    assert phase_of(hand) is Phase.LAYOUT and hand.to_act() == (1, 2, 3, 0)


def test_set_number_of_orbits_closes_even_with_trades() -> None:
    hand = dealt(ww.announcement(5, TradingMode.IN_TURN, TradingClose.ORBITS, 1, partner=FIRST))
    trade(hand, 1, 2, 1)
    trade(hand, 2, 3, 2)
    trade(hand, 3, 0, 3)
    assert hand.to_act() == (0,)
    ww.pass_turn(hand, 0)
    assert hand.phase is Phase.LAYOUT and len(ww.trades(hand)) == 3


def test_dealer_calls_in_turn_and_free() -> None:
    hand = dealt(ww.announcement(5, TradingMode.IN_TURN, TradingClose.DEALER_CALLS, partner=FIRST))
    for seat in (1, 2, 3, 0, 1, 2):
        ww.pass_turn(hand, seat)
    assert hand.phase is Phase.TRADING
    refused(hand, "close_trading", 3)
    ww.close_trading(hand, 0)
    assert phase_of(hand) is Phase.LAYOUT


def test_free_trading_any_order_withdraw_and_dealer_closes() -> None:
    hand = dealt(FREE)
    assert hand.to_act() == (0,)
    refused(hand, "pass_turn", 2)
    offer = ww.offer(hand, 3, 2).offer
    assert hand.to_act() == (0, 1, 2)
    refused(hand, "offer", 2, 1)  # one offer at a time
    refused(hand, "close_trading", 0)
    refused(hand, "withdraw", 2)
    ww.withdraw(hand, 3)
    assert ww.open_offer(hand) is None
    ww.offer(hand, 2, 1)
    ww.accept(hand, 0, None)  # any eligible player, not only the next one
    refused(hand, "accept", 1, offer)
    ww.choose_trade_cards(hand, 0, [0])
    ww.choose_trade_cards(hand, 2, [4])
    assert hand.tokens(0) == hand.tokens(2) == 5
    out = hand.timeout(0)  # the dealer's clock running out closes free trading
    assert isinstance(out.outcome, TradingClosed)
    assert hand.phase is Phase.LAYOUT


def test_stale_offer_is_refused() -> None:
    hand = dealt(FREE)
    old = ww.offer(hand, 1, 2).offer
    ww.withdraw(hand, 1)
    ww.offer(hand, 1, 2)
    refused(hand, "accept", 2, old)


def test_short_stacks_set_aside_fewer_tokens_and_tokenless_cannot_trade() -> None:
    hand = dealt(IN_TURN, (500, 12, 4, 500))
    assert [hand.tokens(s) for s in range(4)] == [6, 2, 0, 6]
    assert [hand.stack(s) for s in range(4)] == [470, 2, 4, 470]
    assert hand.to_act() == (1,)
    ww.offer(hand, 1, 1)
    assert hand.to_act() == (3,)  # seat 2 has no token: not asked
    refused(hand, "accept", 2)
    ww.accept(hand, 3)
    ww.choose_trade_cards(hand, 1, [0])
    ww.choose_trade_cards(hand, 3, [0])
    assert hand.to_act() == (3,)  # seat 2 is skipped for turns too
    trade(hand, 3, 1, 1)
    # Seat 1 has used both tokens; seats 3 and 0 can still trade.
    assert hand.tokens(1) == 0 and hand.phase is Phase.TRADING and hand.to_act() == (0,)
    refused(hand, "offer", 1, 1)


def test_no_trading_when_fewer_than_two_hold_tokens() -> None:
    hand = dealt(IN_TURN, (500, 4, 4))
    assert hand.phase is Phase.LAYOUT
    assert isinstance(hand.events[-1], TradingClosed)


def test_trading_timeouts_pass_and_decline() -> None:
    hand = dealt(IN_TURN)
    assert type(hand.timeout(1).outcome).__name__ == "Passed"
    ww.offer(hand, 2, 1)
    refused(hand, "timeout", 0)  # seat 3 answers first
    assert type(hand.timeout(3).outcome).__name__ == "TradeDeclined"


def test_legal_actions_in_trading() -> None:
    hand = dealt(IN_TURN)
    assert hand.legal_actions(1) == {ActionKind.OFFER, ActionKind.PASS}
    assert hand.legal_actions(2) == frozenset()
    ww.offer(hand, 1, 1)
    assert hand.legal_actions(2) == {ActionKind.ACCEPT, ActionKind.DECLINE}


def test_hand_after_trade_keeps_order_and_appends_received() -> None:
    assert hand_after_trade("abcde", [3, 1], "XY") == ("a", "c", "e", "X", "Y")
    with pytest.raises(ConfigError):
        hand_after_trade("abc", [3], "X")
    with pytest.raises(ConfigError):
        hand_after_trade("abc", [1, 1], "XY")


def test_announcement_options_are_checked_against_the_game() -> None:
    a = ww.announcement(6, TradingMode.IN_TURN, TradingClose.ORBITS, 2, partner=FIRST)
    assert Announcement(ww.WEEPING_WILLOW, a.chosen) == a
    with pytest.raises(ConfigError, match="closing"):
        Announcement.of(ww.WEEPING_WILLOW, closing="never")
    with pytest.raises(ConfigError, match="lacks"):
        Announcement(ww.WEEPING_WILLOW, (("deal_size", 5),))
    with pytest.raises(ConfigError, match="deal_size"):
        Announcement.of(ww.WEEPING_WILLOW, deal_size="5")
    with pytest.raises(ConfigError, match="no option"):
        Announcement.of(ww.WEEPING_WILLOW, ante=5)
