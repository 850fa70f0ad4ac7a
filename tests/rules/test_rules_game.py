"""A game across hands: the button, stacks carried over, joining, leaving, sitting out."""

from __future__ import annotations

import random

import pytest
from rules_driver import RandomTable

from p2pwillow.rules import Announcement, Game, IllegalAction, TableConfig


def test_button_moves_clockwise_and_stacks_carry_over() -> None:
    game = Game(TableConfig(seats=6, starting_stack=2000))
    for seat, name in ((1, "ann"), (3, "bob"), (4, "cy")):
        game.join(seat, name)
    buttons = []
    rng = random.Random(7)
    for _ in range(5):
        hand = game.start_hand()
        buttons.append(hand.dealer)
        with pytest.raises(IllegalAction):
            game.join(0, "late")
        RandomTable(hand, rng, junk=0.0).run()
        result = game.end_hand()
        assert [game.player(s).stack for s in result.seats] == list(result.final_stacks)
        if sum(p.plays for p in game.players) < 2:
            break
    assert buttons[:3] == [1, 3, 4]
    assert sum(p.stack for p in game.players) == 6000


def test_join_leave_and_busted_players_sit_out() -> None:
    game = Game(TableConfig(seats=4))
    game.join(0, "ann", 100)
    with pytest.raises(IllegalAction):
        game.start_hand()
    game.join(2, "bob", 100)
    game.join(3, "cy", 100)
    with pytest.raises(IllegalAction):
        game.join(2, "dup")
    with pytest.raises(IllegalAction):
        game.join(4, "far")
    hand = game.start_hand()
    assert hand.dealer == 0 and hand.seats == (2, 3, 0)
    hand.abort([3], "seat 3 stalled the shuffle")
    game.end_hand()
    assert game.player(3).sitting_out
    hand = game.start_hand()
    assert hand.seats == (0, 2) and hand.dealer == 2
    hand.announce(2, Announcement(5))
    hand.abort([], "test")
    game.end_hand()
    game.sit_in(3)
    left = game.leave(2)
    assert left.stack == 100
    game.join(1, "dee", 50)
    hand = game.start_hand()
    assert hand.dealer == 3 and hand.seats == (0, 1, 3)
