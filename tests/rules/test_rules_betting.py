"""Each betting structure's limits, the raise cap, and short all-ins (SPEC 3.7)."""

from __future__ import annotations

import pytest
from rules_driver import reveal_round, to_betting

from p2pwillow.cards import Card, Suit, parse_cards
from p2pwillow.rules import (
    ActionKind,
    BettingStructure,
    ConfigError,
    Hand,
    IllegalAction,
    Phase,
    RoundState,
    TableConfig,
    Wager,
    WentAllIn,
)
from p2pwillow.rules.betting import bet_bounds, raise_increments, raises_capped

LAYOUTS = {
    1: parse_cards("Ac 7d 8h Jd Qd"),  # seat 1 shows the ace and opens round 1
    2: parse_cards("Ks 5d 5h 9s Ts"),
    3: parse_cards("2c Kd Js 8s 7c"),
}


def table(structure: BettingStructure, stacks: dict[int, int] | None = None, **kw: int) -> Hand:
    cfg = TableConfig(seats=4, structure=structure, trade_tokens=0, **kw)  # type: ignore[arg-type]
    return to_betting(cfg, LAYOUTS, stacks or {1: 1000, 2: 1000, 3: 1000}, dealer=3)


def refused(action, *args) -> None:  # type: ignore[no-untyped-def]
    hand = action.__self__
    before, events = hand.snapshot(), hand.events
    with pytest.raises(IllegalAction):
        action(*args)
    assert hand.snapshot() == before and hand.events == events


def test_spread_limit_bets_25_to_100_and_three_raises() -> None:
    hand = table(BettingStructure.SPREAD_LIMIT)
    o = hand.bet_options(1)
    assert o is not None and (o.bet_min, o.bet_max) == (25, 100)
    refused(hand.bet, 1, 24)
    refused(hand.bet, 1, 101)
    refused(hand.call, 1)
    refused(hand.raise_to, 1, 50)
    hand.bet(1, 60)
    o = hand.bet_options(2)
    assert o is not None and (o.raise_min, o.raise_max, o.to_call) == (85, 160, 60)
    refused(hand.check, 2)
    refused(hand.bet, 2, 60)
    refused(hand.raise_to, 2, 84)
    refused(hand.raise_to, 2, 161)
    hand.raise_to(2, 160)
    hand.raise_to(3, 185)
    hand.raise_to(1, 285)  # third raise
    o = hand.bet_options(2)
    assert o is not None and o.raise_min is None
    assert ActionKind.RAISE not in hand.legal_actions(2)
    refused(hand.raise_to, 2, 310)
    refused(hand.all_in, 2)
    hand.call(2)
    hand.call(3)
    assert hand.phase is Phase.REVEAL and hand.pot == 3 * 285


def test_fixed_limit_small_bet_then_big_bet() -> None:
    hand = table(BettingStructure.FIXED_LIMIT, small_bet=20, big_bet=40)
    o = hand.bet_options(1)
    assert o is not None and (o.bet_min, o.bet_max) == (20, 20)
    refused(hand.bet, 1, 40)
    hand.bet(1, 20)
    refused(hand.raise_to, 2, 60)
    hand.raise_to(2, 40)
    hand.raise_to(3, 60)
    hand.raise_to(1, 80)
    assert ActionKind.RAISE not in hand.legal_actions(2)
    hand.call(2)
    hand.call(3)
    for r in (2, 3):
        reveal_round(hand, LAYOUTS)
        opener = hand.to_act()[0]
        o = hand.bet_options(opener)
        assert o is not None and (o.bet_min, o.bet_max) == ((20, 20) if r == 2 else (40, 40))
        for _ in range(3):
            hand.check(hand.to_act()[0])


def test_pot_limit_bet_and_raise_at_most_the_pot() -> None:
    hand = table(BettingStructure.POT_LIMIT, min_bet=10)
    o = hand.bet_options(1)
    # No ante and no trades: the pot is empty, so the largest bet is the minimum bet.
    assert o is not None and (o.bet_min, o.bet_max) == (10, 10)
    hand.bet(1, 10)
    hand.call(2)
    o = hand.bet_options(3)
    # Call 10 (pot 30), then raise by 30: to 40.
    assert o is not None and (o.raise_min, o.raise_max) == (20, 40)
    refused(hand.raise_to, 3, 41)
    hand.raise_to(3, 40)
    o = hand.bet_options(1)
    # Pot 60; seat 1 calls 30 (pot 90) and raises by 90: to 130.
    assert o is not None and (o.raise_min, o.raise_max) == (70, 130)
    hand.raise_to(1, 130)
    hand.call(2)
    hand.call(3)
    reveal_round(hand, LAYOUTS)
    o = hand.bet_options(hand.to_act()[0])
    assert o is not None and (o.bet_min, o.bet_max) == (10, 390)


def test_no_limit_minimum_raise_is_the_last_full_raise() -> None:
    hand = table(BettingStructure.NO_LIMIT, min_bet=10)
    o = hand.bet_options(1)
    assert o is not None and (o.bet_min, o.bet_max) == (10, 1000)
    refused(hand.bet, 1, 9)
    hand.bet(1, 40)
    o = hand.bet_options(2)
    assert o is not None and (o.raise_min, o.raise_max) == (80, 1000)
    hand.raise_to(2, 100)  # a raise of 60
    o = hand.bet_options(3)
    assert o is not None and o.raise_min == 160
    hand.raise_to(3, 160)
    hand.raise_to(1, 500)
    hand.raise_to(2, 900)  # no cap in no limit
    assert hand.can_all_in(3)


def test_short_all_in_does_not_reopen_the_betting() -> None:
    hand = table(BettingStructure.NO_LIMIT, {1: 1000, 2: 150, 3: 1000}, min_bet=10)
    hand.bet(1, 100)
    event = hand.all_in(2)  # to 150: a raise of 50, less than the 100 needed
    assert isinstance(event, WentAllIn) and event.as_action is Wager.RAISE
    assert not event.full
    o = hand.bet_options(3)
    assert o is not None and o.raise_min == 250  # seat 3 has not acted: may raise
    hand.call(3)
    assert hand.to_act() == (1,)
    assert hand.legal_actions(1) == {ActionKind.CALL, ActionKind.FOLD}
    refused(hand.raise_to, 1, 250)
    refused(hand.all_in, 1)
    hand.call(1)
    assert hand.phase is Phase.REVEAL and hand.pot == 450


def test_full_all_in_raise_reopens_the_betting() -> None:
    hand = table(BettingStructure.NO_LIMIT, {1: 1000, 2: 250, 3: 1000}, min_bet=10)
    hand.bet(1, 100)
    event = hand.all_in(2)  # to 250: a full raise of 150
    assert isinstance(event, WentAllIn) and event.full
    hand.call(3)
    o = hand.bet_options(1)
    assert o is not None and o.raise_min == 400


def test_short_all_in_bet_and_call_for_less() -> None:
    hand = table(BettingStructure.SPREAD_LIMIT, {1: 20, 2: 1000, 3: 10})
    assert ActionKind.BET not in hand.legal_actions(1)  # 20 chips cannot make a 25 bet
    event = hand.all_in(1)
    assert isinstance(event, WentAllIn) and event.as_action is Wager.BET and not event.full
    o = hand.bet_options(2)
    assert o is not None and (o.to_call, o.raise_min) == (20, 45)
    hand.call(2)
    event = hand.all_in(3)
    assert event.as_action is Wager.CALL and event.amount == 10
    # Two players all in, one left with chips: the rest of the rounds have no betting.
    assert hand.phase is Phase.REVEAL
    while not hand.is_over:
        reveal_round(hand, LAYOUTS)
    assert hand.result is not None
    assert sum(hand.result.final_stacks) == 1030


def test_all_in_beyond_the_limit_is_refused() -> None:
    hand = table(BettingStructure.SPREAD_LIMIT)
    refused(hand.all_in, 1)
    assert not hand.can_all_in(1)


def test_check_call_fold_and_turn_order() -> None:
    hand = table(BettingStructure.SPREAD_LIMIT)
    refused(hand.check, 2)  # not seat 2's turn
    refused(hand.fold, 3)
    hand.check(1)
    hand.check(2)
    hand.bet(3, 25)
    refused(hand.check, 1)
    hand.fold(1)
    hand.call(2)
    assert hand.is_folded(1) and hand.phase is Phase.REVEAL
    refused(hand.reveal, 1, Card(14, Suit.CLUBS))  # folded: its cards stay face down


def test_timeout_checks_if_free_else_folds() -> None:
    hand = table(BettingStructure.SPREAD_LIMIT)
    first = hand.timeout(1)
    assert type(first.outcome).__name__ == "Checked"
    hand.bet(2, 50)
    second = hand.timeout(3)
    assert type(second.outcome).__name__ == "Folded" and hand.is_folded(3)
    refused(hand.timeout, 2)


# --- every structure, by name ----------------------------------------------------------------

# The limits each structure puts on the opening bet and on a raise (SPEC 3.7.4) with
# min_bet 10, max_bet 100, small_bet 20, big_bet 40, in round 1 with an empty pot: the bet
# bounds, the raise increments over a bet of 30 into a pot of 30 (pot limit: call 30, then
# raise by the pot of 60), and whether three raises cap the round.
EXPECTED = {
    BettingStructure.SPREAD_LIMIT: ((10, 100), (10, 100), True),
    BettingStructure.FIXED_LIMIT: ((20, 20), (20, 20), True),
    BettingStructure.POT_LIMIT: ((10, 10), (30, 60), False),
    BettingStructure.NO_LIMIT: ((10, None), (30, None), False),
}


@pytest.mark.parametrize("structure", list(BettingStructure), ids=lambda s: s.value)
def test_every_structure_has_its_own_limits(structure: BettingStructure) -> None:
    cfg = TableConfig(
        seats=4, structure=structure, min_bet=10, max_bet=100, small_bet=20, big_bet=40
    )
    # the round's fixed-limit size is what its step of the game says: the small bet here
    empty = RoundState(1, 0, 0, 0, 0, 0, fixed=20)
    raised = RoundState(1, 30, 30, 30, 3, 30, fixed=20)
    bets, raises, capped = EXPECTED[structure]
    assert bet_bounds(cfg, empty) == bets
    assert raise_increments(cfg, raised, 30) == raises
    assert raises_capped(cfg, raised) is capped


def test_every_structure_is_listed() -> None:
    assert set(EXPECTED) == set(BettingStructure)


@pytest.mark.parametrize("structure", ["pot", "No-Limit", "", None, 3])
def test_an_unknown_structure_is_refused_when_the_table_is_made(structure: object) -> None:
    with pytest.raises(ConfigError, match="structure"):
        TableConfig(structure=structure)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="structure"):
        TableConfig.from_dict({**TableConfig().to_dict(), "structure": structure})


@pytest.mark.parametrize("structure", list(BettingStructure), ids=lambda s: s.value)
def test_every_structure_plays_a_betting_round(structure: BettingStructure) -> None:
    hand = table(structure)
    opener = hand.to_act()[0]
    options = hand.bet_options(opener)
    assert options is not None and options.bet_min is not None
    hand.bet(opener, options.bet_min)
    for seat in hand.seats:
        if hand.phase is Phase.BETTING and seat in hand.to_act():
            hand.call(seat)
    assert hand.phase is Phase.REVEAL and hand.betting_round == 2
