"""The rule text's worked example: A trades 4♥2♠ for 8♥5♣ and holds three eights."""

from __future__ import annotations

from rules_driver import phase_of, reveal_round

from p2pwillow.cards import parse_cards
from p2pwillow.games import weeping_willow as ww
from p2pwillow.games.weeping_willow import TradeMade, TradingClose, TradingMode, hand_after_trade
from p2pwillow.hands import Category
from p2pwillow.rules import Hand, Phase, TableConfig

A, B, C = 1, 2, 0  # C deals, so A (on C's left) has the first turn to offer


def test_two_card_trade_from_the_rule_text() -> None:
    held = {
        A: parse_cards("8♠ 8♦ K♣ 4♥ 2♠"),
        B: parse_cards("8♥ 5♣ Q♦ 7♠ 3♣"),
        C: parse_cards("A♣ J♦ 9♥ 6♠ 2♦"),
    }
    hand = Hand(TableConfig(seats=3), [C, A, B], [1000, 1000, 1000], dealer=C)
    hand.announce(C, ww.announcement(5, TradingMode.IN_TURN, TradingClose.ORBIT_WITHOUT_TRADE))
    assert [hand.tokens(s) for s in (A, B, C)] == [6, 6, 6]
    hand.deal()
    assert hand.to_act() == (A,)
    offer = ww.offer(hand, A, 2).offer  # A calls out "two"
    assert hand.to_act() == (B, C)  # anyone with a token may answer, in any order
    ww.accept(hand, B, offer)
    ww.decline(hand, C, offer)
    assert hand.to_act() == (A,)  # every answer is in: A chooses among those who accepted
    ww.choose_partner(hand, A, B)
    assert hand.to_act() == (A, B)
    ww.choose_trade_cards(hand, A, [3, 4])  # 4♥ 2♠
    ww.choose_trade_cards(hand, B, [0, 1])  # 8♥ 5♣
    made = hand.events[-1]
    assert isinstance(made, TradeMade) and made.token_value == 5
    t = made.trade
    held_a = list(hand_after_trade(held[A], t.offerer_positions, [held[B][p] for p in (0, 1)]))
    held_b = list(hand_after_trade(held[B], t.acceptor_positions, [held[A][p] for p in (3, 4)]))
    assert sorted(held_a) == sorted(parse_cards("8♠ 8♦ 8♥ K♣ 5♣"))
    assert sorted(held_b) == sorted(parse_cards("4♥ 2♠ Q♦ 7♠ 3♣"))
    # Each side paid one token into the pot: five tokens left, the pot is the token money.
    assert (hand.tokens(A), hand.tokens(B), hand.tokens(C)) == (5, 5, 6)
    assert hand.pot == 10 and hand.hand_size(A) == hand.hand_size(B) == 5
    assert hand.to_act() == (B,)
    for seat in (B, C, A):
        ww.pass_turn(hand, seat)
    assert hand.phase is Phase.LAYOUT
    # Unused tokens went back: A and B are down one token each.
    assert (hand.stack(A), hand.stack(B), hand.stack(C)) == (995, 995, 1000)
    layouts = {A: held_a, B: held_b, C: held[C]}
    for seat in hand.seats:
        hand.lay_out(seat)
    while not hand.is_over:
        if phase_of(hand) is Phase.REVEAL:
            reveal_round(hand, layouts)
        else:
            hand.check(hand.to_act()[0])
    value = hand.hand_value(A)
    assert value is not None and value.category is Category.THREE_OF_A_KIND
    assert value.ranks[:3] == (8, 8, 8)
    result = hand.result
    assert result is not None and result.awards[0].winners == (A,)
    assert result.stack(A) == 1005 and result.stack(B) == 995 and result.stack(C) == 1000
