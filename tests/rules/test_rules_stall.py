"""Folded for stalling (SPEC 3.9): each case by phase, with the pots worked out by hand."""

from __future__ import annotations

from rules_driver import dealt, phase_of, refused, reveal_round, to_betting

from p2pwillow.cards import parse_cards
from p2pwillow.games import weeping_willow as ww
from p2pwillow.games.weeping_willow import (
    OfferLapsed,
    TradeMade,
    TradingClose,
    TradingClosed,
    TradingMode,
)
from p2pwillow.rules import (
    ActionKind,
    BettingClosed,
    BettingOpened,
    FoldedForStalling,
    Hand,
    HandEnded,
    Phase,
    TableConfig,
)

FIRST = ww.Partner.FIRST_ACCEPT
"""These tests play the rules before `partner` (SPEC 3.5: the first to accept trades), which
every hand announced without the option still plays; test_partner.py plays the new ones."""
IN_TURN = ww.announcement(5, TradingMode.IN_TURN, TradingClose.ORBIT_WITHOUT_TRADE, partner=FIRST)
DEALER_CALLS = ww.announcement(5, TradingMode.IN_TURN, TradingClose.DEALER_CALLS, partner=FIRST)
FREE = ww.announcement(5, TradingMode.FREE, TradingClose.DEALER_CALLS, partner=FIRST)
LAYOUTS = {
    1: parse_cards("Ac 7d 8h Jd Qd"),  # ace high: opens round 1, beats seat 3
    2: parse_cards("Ks 5d 5h 9s Ts"),  # a pair of fives: the best hand here
    3: parse_cards("2c Kd Js 8s 7c"),
}
NO_TOKENS = TableConfig(seats=4, trade_tokens=0)


def stalled(hand: Hand, seat: int) -> tuple[FoldedForStalling, list[object]]:
    """Stall `seat`; the event and the events the engine made after it."""
    seen = len(hand.events)
    event = hand.stall(seat)
    assert hand.events[seen] == event and hand.is_folded(seat)
    assert seat not in hand.to_act() and not hand.can_stall(seat)
    return event, list(hand.events[seen + 1 :])


def play_out_checking(hand: Hand) -> None:
    """Reveal and check every remaining round."""
    layouts = LAYOUTS
    while not hand.is_over:
        if hand.phase is Phase.REVEAL:
            reveal_round(hand, layouts)
        else:
            hand.check(hand.to_act()[0])


# --- when a stall is allowed ------------------------------------------------------------------


def test_stall_only_after_the_deal_and_for_a_player_still_in() -> None:
    hand = Hand(TableConfig(seats=4), range(3), (500,) * 3, dealer=0)
    refused(hand, "stall", 1)  # ANNOUNCE: a stall before the deal aborts instead
    hand.announce(0, IN_TURN)
    refused(hand, "stall", 1)  # DEAL
    assert not hand.can_stall(1)
    hand.deal()
    refused(hand, "stall", 7)
    refused(hand, "stall", True)
    assert hand.can_stall(2)  # any player still in, not only one the hand waits for
    hand.stall(2)
    refused(hand, "stall", 2)  # folded already
    hand.stall(1)  # two stalls: one player left, the hand is over
    assert hand.phase is Phase.COMPLETE
    refused(hand, "stall", 0)


def test_stall_is_an_input_not_a_player_action() -> None:
    hand = to_betting(NO_TOKENS, LAYOUTS, {1: 300, 2: 300, 3: 300}, dealer=3)
    assert ActionKind.STALL not in hand.legal_actions(1)
    assert hand.legal_actions(1) == {ActionKind.CHECK, ActionKind.BET, ActionKind.FOLD}


# --- trading ----------------------------------------------------------------------------------


def test_offerer_stalls_its_offer_lapses_and_the_turn_moves_on() -> None:
    hand = dealt(IN_TURN)
    offer = ww.offer(hand, 1, 2).offer
    assert hand.stack(1) == 470 and hand.tokens(1) == 6
    event, after = stalled(hand, 1)
    assert event == FoldedForStalling(1, Phase.TRADING, 30, None, None)
    assert after == [OfferLapsed(offer)]
    assert ww.open_offer(hand) is None and hand.to_act() == (2,)
    assert hand.stack(1) == 500 and hand.tokens(1) == 0  # unused tokens back at once
    refused(hand, "offer", 1, 1)
    ww.offer(hand, 2, 1)
    assert hand.to_act() == (3,)  # seat 1 no longer answers offers


def test_responder_stalls_and_the_next_one_answers() -> None:
    hand = dealt(IN_TURN)
    ww.offer(hand, 1, 1)
    assert hand.to_act() == (2,)
    _, after = stalled(hand, 2)
    assert after == [] and hand.to_act() == (3,)
    refused(hand, "decline", 2)
    ww.decline(hand, 3)
    ww.decline(hand, 0)
    assert isinstance(hand.events[-1], OfferLapsed)
    assert hand.to_act() == (3,)  # seat 2 holds no token now: its turn is skipped


def test_last_responder_stalls_and_the_offer_lapses() -> None:
    hand = dealt(FREE)
    offer = ww.offer(hand, 2, 1).offer
    ww.decline(hand, 1)
    ww.decline(hand, 0)
    assert hand.to_act() == (3,)
    _, after = stalled(hand, 3)
    assert after == [OfferLapsed(offer)]
    assert ww.open_offer(hand) is None and hand.to_act() == (0,)
    ww.offer(hand, 1, 3)
    assert hand.to_act() == (2, 0)  # answers clockwise from the offerer; seat 3 is out


def test_accepted_trade_is_undone_when_a_side_stalls() -> None:
    hand = dealt(IN_TURN)
    offer = ww.offer(hand, 1, 2).offer
    ww.decline(hand, 2)
    ww.accept(hand, 3)
    ww.choose_trade_cards(hand, 1, [0, 4])
    assert ww.trade_sides(hand) == (1, 3, 2)
    event, after = stalled(hand, 3)
    assert event == FoldedForStalling(3, Phase.TRADING, 30, offer, 1)
    assert after == []  # the turn moved to seat 2 without closing
    assert ww.trade_sides(hand) is None and ww.trades(hand) == ()
    assert not any(isinstance(e, TradeMade) for e in hand.events)
    # No token paid, no card moved: seat 1 still has six tokens and five cards.
    assert hand.pot == 0 and hand.tokens(1) == 6 and hand.hand_size(1) == 5
    assert hand.to_act() == (2,)
    refused(hand, "choose_trade_cards", 1, [1, 2])


def test_free_trade_undone_when_the_offerer_stalls_after_the_other_side_chose() -> None:
    hand = dealt(FREE)
    offer = ww.offer(hand, 2, 1).offer
    ww.accept(hand, 0)
    ww.choose_trade_cards(hand, 0, [3])
    event, after = stalled(hand, 2)
    assert (event.void_trade, event.partner, after) == (offer, 0, [])
    assert hand.pot == 0 and hand.tokens(0) == 6
    assert hand.phase is Phase.TRADING and hand.to_act() == (0,)


def test_a_trade_between_others_goes_on() -> None:
    hand = dealt(IN_TURN)
    ww.offer(hand, 1, 1)
    ww.accept(hand, 2)
    stalled(hand, 3)
    assert hand.to_act() == (1, 2)
    ww.choose_trade_cards(hand, 1, [0])
    ww.choose_trade_cards(hand, 2, [1])
    assert isinstance(hand.events[-1], TradeMade) and hand.pot == 10
    assert hand.to_act() == (2,)


def test_turn_holder_stalls_and_the_orbit_rule_is_checked() -> None:
    hand = dealt(IN_TURN)
    for seat in (1, 2, 3):
        ww.pass_turn(hand, seat)
    _, after = stalled(hand, 0)
    # Seats 1, 2 and 3 passed and seat 0's turn ended in its stall: an orbit without a trade.
    assert len(after) == 1 and isinstance(after[0], TradingClosed)
    assert after[0].reason == "a full orbit passed without a trade"
    assert dict(after[0].returned) == {1: 30, 2: 30, 3: 30, 0: 0}
    assert phase_of(hand) is Phase.LAYOUT and hand.to_act() == (1, 2, 3)


def test_a_stall_out_of_turn_does_not_end_the_turn() -> None:
    hand = dealt(IN_TURN)
    ww.pass_turn(hand, 1)
    ww.pass_turn(hand, 2)
    stalled(hand, 1)
    # Two quiet turns against three eligible players: trading goes on with seat 3.
    assert hand.phase is Phase.TRADING and hand.to_act() == (3,)
    ww.pass_turn(hand, 3)
    assert phase_of(hand) is Phase.LAYOUT


def test_fewer_than_two_eligible_closes_trading() -> None:
    hand = dealt(IN_TURN, (500, 500, 4, 4))  # seats 2 and 3 hold no token
    assert hand.to_act() == (1,)
    _, after = stalled(hand, 0)  # the dealer
    assert len(after) == 1 and isinstance(after[0], TradingClosed)
    assert after[0].reason == "fewer than two players can trade"
    assert [hand.stack(s) for s in range(4)] == [500, 500, 4, 4]
    assert phase_of(hand) is Phase.LAYOUT and hand.to_act() == (1, 2, 3)


def test_the_first_player_in_after_a_stalled_dealer_calls_the_close() -> None:
    hand = dealt(FREE)
    stalled(hand, 0)
    assert hand.to_act() == (1,)
    refused(hand, "close_trading", 0)
    refused(hand, "timeout", 0)
    assert hand.can_timeout(1)
    closed = ww.close_trading(hand, 1)
    assert closed.by == 1 and hand.phase is Phase.LAYOUT
    hand = dealt(DEALER_CALLS)
    stalled(hand, 0)  # not the turn holder: seat 1 keeps its turn
    assert hand.to_act() == (1,) and hand.can(ActionKind.CLOSE_TRADING, 1)
    stalled(hand, 1)  # the turn holder: the turn moves to seat 2
    assert hand.to_act() == (2,)
    assert hand.can(ActionKind.CLOSE_TRADING, 2) and not hand.can(ActionKind.CLOSE_TRADING, 3)
    ww.pass_turn(hand, 2)
    assert ww.close_trading(hand, 2).by == 2


def test_stall_to_one_in_trading_pays_the_token_money() -> None:
    hand = dealt(IN_TURN, (500, 500))  # order: 1, 0
    ww.offer(hand, 1, 1)
    ww.accept(hand, 0)
    ww.choose_trade_cards(hand, 1, [0])
    ww.choose_trade_cards(hand, 0, [0])
    assert hand.pot == 10 and hand.to_act() == (0,)
    event, after = stalled(hand, 1)
    assert event.returned == 25
    assert len(after) == 1 and isinstance(after[0], HandEnded)
    assert hand.phase is Phase.COMPLETE and hand.to_act() == ()
    result = after[0].result
    # Seat 1: 470 + 25 back; seat 0: 470 + 25 back + the pot of 10.
    assert dict(zip(result.seats, result.final_stacks, strict=True)) == {1: 495, 0: 505}
    assert result.awards[0].winners == (0,) and result.awards[0].pot.amount == 10
    assert ww.trade_sides(hand) is None and ww.open_offer(hand) is None


# --- layout and reveal ------------------------------------------------------------------------


def test_layout_no_longer_waits_for_the_staller() -> None:
    hand = Hand(NO_TOKENS, [1, 2, 3], [100] * 3, 3)
    hand.announce(3, ww.announcement(5, partner=FIRST))
    hand.deal()
    hand.lay_out(1)
    assert hand.to_act() == (2, 3)
    stalled(hand, 2)
    refused(hand, "lay_out", 2)
    assert hand.to_act() == (3,)
    hand.lay_out(3)
    assert phase_of(hand) is Phase.REVEAL and hand.to_act() == (1, 3)
    refused(hand, "reveal", 2, LAYOUTS[2][0])


def test_last_one_to_lay_out_stalls_and_round_one_starts() -> None:
    hand = Hand(NO_TOKENS, [1, 2, 3], [100] * 3, 3)
    hand.announce(3, ww.announcement(5, partner=FIRST))
    hand.deal()
    hand.lay_out(1)
    hand.lay_out(2)
    stalled(hand, 1)  # a player who has laid out may stall too (a replaced sequencer)
    stalled(hand, 3)
    assert hand.phase is Phase.COMPLETE  # seat 2 is the only one in
    assert hand.result is not None and hand.result.final_stacks == (100, 100, 100)


def test_stall_to_one_in_layout_pays_the_token_money() -> None:
    hand = dealt(DEALER_CALLS, (500, 500, 500))  # order: 1, 2, 0
    ww.offer(hand, 1, 2)
    ww.accept(hand, 2)
    ww.choose_trade_cards(hand, 1, [0, 1])
    ww.choose_trade_cards(hand, 2, [2, 3])
    ww.close_trading(hand, 0)
    hand.stall(0)
    assert hand.phase is Phase.LAYOUT and hand.pot == 10
    hand.lay_out(1)
    _, after = stalled(hand, 1)
    assert isinstance(after[-1], HandEnded)
    result = after[-1].result
    # Seats 1 and 2 each paid one token (5) into the pot; seat 2 takes the 10.
    assert dict(zip(result.seats, result.final_stacks, strict=True)) == {1: 495, 2: 505, 0: 500}


def test_reveal_no_longer_waits_for_the_staller() -> None:
    seats = [1, 2, 3]
    hand = Hand(NO_TOKENS, seats, [300] * 3, 3)
    hand.announce(3, ww.announcement(5, partner=FIRST))
    hand.deal()
    for seat in seats:
        hand.lay_out(seat)
    hand.reveal(2, LAYOUTS[2][0])
    assert hand.to_act() == (1, 3)
    hand.reveal(1, LAYOUTS[1][0])
    _, after = stalled(hand, 3)  # the last one to reveal: betting opens without it
    assert after == [BettingOpened(1, 1)] and hand.to_act() == (1,)
    hand.check(1)
    hand.check(2)
    assert hand.phase is Phase.REVEAL and hand.to_act() == (1, 2)


def test_all_in_player_stalls_in_reveal_and_loses_its_claim() -> None:
    hand = to_betting(NO_TOKENS, LAYOUTS, {1: 300, 2: 25, 3: 300}, dealer=3)
    hand.bet(1, 25)
    hand.call(2)  # all in
    hand.call(3)
    assert hand.phase is Phase.REVEAL and hand.pot == 75 and hand.is_all_in(2)
    assert hand.can_stall(2)
    hand.reveal(1, LAYOUTS[1][1])
    hand.reveal(3, LAYOUTS[3][1])
    _, after = stalled(hand, 2)
    assert isinstance(after[0], BettingOpened)
    play_out_checking(hand)
    result = hand.result
    assert result is not None
    # Seat 2's pair of fives would have won the 75; stalled, only seats 1 and 3 can win it.
    assert [a.pot.eligible for a in result.awards] == [(1, 3)]
    assert dict(zip(result.seats, result.final_stacks, strict=True)) == {1: 350, 2: 0, 3: 275}


# --- betting ----------------------------------------------------------------------------------


def test_the_one_to_act_stalls_and_the_next_acts() -> None:
    hand = to_betting(NO_TOKENS, LAYOUTS, {1: 300, 2: 300, 3: 300}, dealer=3)
    hand.bet(1, 50)
    assert hand.to_act() == (2,)
    _, after = stalled(hand, 2)
    assert after == [] and hand.to_act() == (3,)
    hand.call(3)
    assert hand.phase is Phase.REVEAL and hand.pot == 100 and hand.committed(2) == 0


def test_a_player_who_must_still_act_stalls_out_of_turn() -> None:
    hand = to_betting(NO_TOKENS, LAYOUTS, {1: 300, 2: 300, 3: 300}, dealer=3)
    hand.bet(1, 50)
    stalled(hand, 3)
    assert hand.to_act() == (2,)
    seen = len(hand.events)
    hand.call(2)
    assert isinstance(hand.events[seen + 1], BettingClosed)
    assert hand.phase is Phase.REVEAL and hand.betting_round == 2 and hand.pot == 100


def test_bets_of_a_staller_stay_in_the_pot() -> None:
    hand = to_betting(NO_TOKENS, LAYOUTS, {1: 300, 2: 300, 3: 300}, dealer=3)
    hand.bet(1, 50)
    hand.call(2)
    assert hand.to_act() == (3,)
    stalled(hand, 1)  # acted already: not in the set, nothing changes for seat 3
    assert hand.to_act() == (3,) and hand.pot == 100
    hand.call(3)
    assert hand.pot == 150 and hand.committed(1) == 50
    play_out_checking(hand)
    result = hand.result
    assert result is not None
    # The 150 go to seat 2's pair of fives; seat 1's 50 stayed in.
    assert dict(zip(result.seats, result.final_stacks, strict=True)) == {1: 250, 2: 400, 3: 250}


def test_stall_to_one_in_betting_ends_the_hand_at_once() -> None:
    hand = to_betting(NO_TOKENS, LAYOUTS, {1: 300, 2: 300, 3: 300}, dealer=3)
    hand.bet(1, 50)
    hand.raise_to(2, 100)
    hand.fold(3)
    assert hand.to_act() == (1,)
    _, after = stalled(hand, 1)
    assert len(after) == 1 and isinstance(after[0], HandEnded)
    assert hand.phase is Phase.COMPLETE and hand.betting_round == 1
    result = after[0].result
    assert dict(zip(result.seats, result.final_stacks, strict=True)) == {1: 250, 2: 350, 3: 300}


def test_all_in_player_stalls_in_betting_and_its_side_of_the_pots_merges() -> None:
    hand = to_betting(NO_TOKENS, LAYOUTS, {1: 300, 2: 40, 3: 300}, dealer=3)
    hand.bet(1, 100)
    hand.call(2)  # all in for 40
    hand.call(3)
    assert hand.pot == 240  # main pot 3 x 40 = 120, side pot 2 x 60 = 120
    reveal_round(hand, LAYOUTS)
    assert hand.phase is Phase.BETTING and 2 not in hand.to_act()
    stalled(hand, 2)
    play_out_checking(hand)
    result = hand.result
    assert result is not None
    # With seat 2 folded there is one level (100) and one pot of 240 for seats 1 and 3.
    assert [(a.pot.amount, a.pot.eligible) for a in result.awards] == [(240, (1, 3))]
    assert dict(zip(result.seats, result.final_stacks, strict=True)) == {1: 440, 2: 0, 3: 200}


def test_timeouts_after_a_stall_go_to_the_next_player() -> None:
    hand = to_betting(NO_TOKENS, LAYOUTS, {1: 300, 2: 300, 3: 300}, dealer=3)
    hand.stall(1)  # the opener
    refused(hand, "timeout", 1)
    assert hand.to_act() == (2,) and hand.can_timeout(2)
    hand.timeout(2)
    hand.timeout(3)
    assert hand.phase is Phase.REVEAL and hand.to_act() == (2, 3)
