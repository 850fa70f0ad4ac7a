"""Hand flow: phase tables, fold to one, abort, and illegal actions changing nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from rules_driver import phase_of, reveal_round, to_betting

from p2pwillow.cards import parse_cards
from p2pwillow.games import ACTIONS as ALL_ACTIONS
from p2pwillow.games import weeping_willow as ww
from p2pwillow.games.weeping_willow import TradingClose, TradingMode
from p2pwillow.rules import (
    BettingSkipped,
    ConfigError,
    Hand,
    HandAborted,
    IllegalAction,
    Phase,
    TableConfig,
)

LAYOUTS = {
    1: parse_cards("Ac 7d 8h Jd Qd"),
    2: parse_cards("Ks 5d 5h 9s Ts"),
    3: parse_cards("2c Kd Js 8s 7c"),
}
CFG = TableConfig(seats=4, trade_tokens=0)


def test_every_phase_but_the_terminal_ones_admits_an_action() -> None:
    admitted = {phase for row in ALL_ACTIONS for phase in row.phases}
    assert admitted == set(Phase) - {Phase.SHOWDOWN, Phase.COMPLETE, Phase.ABORTED}


def test_hand_setup_is_checked() -> None:
    with pytest.raises(ConfigError, match="2 to"):
        Hand(CFG, [1], [100], 1)
    with pytest.raises(ConfigError, match="dealer"):
        Hand(CFG, [1, 2], [100, 100], 3)
    with pytest.raises(ConfigError, match="chip"):
        Hand(CFG, [1, 2], [100, 0], 1)
    with pytest.raises(ConfigError, match="seat"):
        Hand(CFG, [1, 7], [100, 100], 1)
    with pytest.raises(ConfigError, match="twice"):
        Hand(CFG, [1, 1], [100, 100], 1)


def test_layout_and_reveal_inputs() -> None:
    hand = Hand(CFG, [1, 2, 3], [100, 100, 100], 3)
    hand.announce(3, ww.announcement(7))
    hand.deal()
    assert hand.phase is Phase.LAYOUT and hand.hand_size(2) == 7
    assert hand.lay_out(2).discarded == 2
    with pytest.raises(IllegalAction):
        hand.lay_out(2)
    with pytest.raises(IllegalAction):
        hand.reveal(1, LAYOUTS[1][0])
    hand.lay_out(1)
    hand.lay_out(3)
    assert phase_of(hand) is Phase.REVEAL and hand.betting_round == 1
    hand.reveal(1, LAYOUTS[1][0])
    before = hand.snapshot()
    with pytest.raises(IllegalAction, match="already showing"):
        hand.reveal(2, LAYOUTS[1][0])
    with pytest.raises(IllegalAction, match="already revealed"):
        hand.reveal(1, LAYOUTS[2][0])
    with pytest.raises(IllegalAction, match="not a card"):
        hand.reveal(2, "Ks")  # type: ignore[arg-type]
    assert hand.snapshot() == before


def test_folding_to_one_player_ends_the_hand_at_once() -> None:
    hand = to_betting(CFG, LAYOUTS, {1: 300, 2: 300, 3: 300}, dealer=3)
    hand.bet(1, 50)
    hand.fold(2)
    hand.fold(3)
    assert hand.phase is Phase.COMPLETE and hand.betting_round == 1
    assert hand.showing(1) == tuple(LAYOUTS[1][:1])
    result = hand.result
    assert result is not None and result.stack(1) == 300
    assert result.awards[0].winners == (1,)
    for action in (lambda: hand.check(1), lambda: hand.reveal(1, LAYOUTS[1][1])):
        with pytest.raises(IllegalAction):
            action()


def test_abort_only_before_the_deal_returns_every_stack() -> None:
    hand = Hand(TableConfig(seats=4), [1, 2, 3], [300, 300, 300], 3)
    assert hand.stack(1) == 300  # nothing is set aside before the game is announced
    with pytest.raises(IllegalAction):
        hand.abort([5], "nobody")
    with pytest.raises(IllegalAction):
        hand.abort([1], "  ")
    with pytest.raises(IllegalAction, match="twice"):
        hand.abort([1, 1], "seat 1 stalled")
    hand.announce(3, ww.announcement(5))
    assert hand.stack(1) == 270  # six tokens of 5 set aside
    assert hand.phase is Phase.DEAL and hand.can_abort([2], "seat 2 sent no deal share")
    event = hand.abort([2, 1], "seats 1 and 2 sent no deal share")
    assert isinstance(event, HandAborted) and event.blamed == (1, 2)
    assert phase_of(hand) is Phase.ABORTED and hand.to_act() == ()
    assert event.result.final_stacks == (300, 300, 300)
    with pytest.raises(IllegalAction):
        hand.abort([2], "again")


def test_no_abort_after_the_deal() -> None:
    hand = Hand(TableConfig(seats=4), [1, 2, 3], [300, 300, 300], 3)
    hand.announce(3, ww.announcement(5, TradingMode.IN_TURN, TradingClose.DEALER_CALLS))
    hand.deal()
    ww.offer(hand, 1, 1)
    ww.accept(hand, 2)
    ww.choose_partner(hand, 1, 2)
    ww.choose_trade_cards(hand, 1, [0])
    ww.choose_trade_cards(hand, 2, [0])
    assert hand.pot == 10
    for phase in ("trading", "layout"):
        before, events = hand.snapshot(), hand.events
        assert not hand.can_abort([2], "seat 2 did not shuffle its hand")
        with pytest.raises(IllegalAction, match=f"not allowed in the {phase} phase"):
            hand.abort([2], "seat 2 did not shuffle its hand")
        assert hand.snapshot() == before and hand.events == events
        if hand.phase is Phase.TRADING:
            ww.pass_turn(hand, 2)  # the dealer calls it once everyone has had the chance
            ww.close_trading(hand, 3)
    betting = to_betting(CFG, LAYOUTS, {1: 300, 2: 200, 3: 100}, dealer=3)
    betting.bet(1, 100)
    with pytest.raises(IllegalAction, match="not allowed in the betting phase"):
        betting.abort([], "the dealer equivocated")
    assert betting.pot == 100


def test_no_betting_while_fewer_than_two_can_bet() -> None:
    hand = to_betting(CFG, LAYOUTS, {1: 300, 2: 25, 3: 300}, dealer=3)
    hand.bet(1, 25)
    hand.call(2)  # all in
    hand.call(3)
    reveal_round(hand, LAYOUTS)
    hand.check(hand.to_act()[0])
    hand.bet(hand.to_act()[0], 25)
    hand.fold(hand.to_act()[0])
    # One player with chips and one all in: the cards turn without betting.
    for _ in range(3):
        reveal_round(hand, LAYOUTS)
    assert sum(isinstance(e, BettingSkipped) for e in hand.events) == 3
    assert hand.phase is Phase.COMPLETE
    assert hand.result is not None and sum(hand.result.final_stacks) == 625


def test_every_illegal_action_changes_nothing() -> None:
    hand = to_betting(CFG, LAYOUTS, {1: 300, 2: 300, 3: 300}, dealer=3)
    attempts: list[Callable[[], object]] = [
        lambda: hand.bet(1, 10_000),
        lambda: hand.bet(1, True),  # a bool is an int to the type checker, not to the rules
        lambda: hand.raise_to(1, 50),
        lambda: hand.call(1),
        lambda: hand.check(2),
        lambda: ww.offer(hand, 1, 1),
        lambda: ww.close_trading(hand, 3),
        lambda: hand.deal(),
        lambda: hand.timeout(2),
        lambda: hand.announce(3, ww.announcement(5)),
        lambda: hand.fold(42),
    ]
    for attempt in attempts:
        before, events = hand.snapshot(), hand.events
        with pytest.raises(IllegalAction):
            attempt()
        assert hand.snapshot() == before and hand.events == events
