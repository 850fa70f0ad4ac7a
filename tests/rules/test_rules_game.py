"""A game across hands (SPEC 3.11): the button, stacks carried over, joining and leaving by player
id, buy-ins and the chip count against them, sitting out and back in."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rules_driver import RandomTable

from p2pwillow.cards import parse_cards
from p2pwillow.games import weeping_willow as ww
from p2pwillow.rules import (
    BettingStructure,
    BuyIn,
    ChipCount,
    Game,
    IllegalAction,
    Phase,
    RulesError,
    SitOut,
    SitOutReason,
    TableConfig,
)

NO_LIMIT = TableConfig(
    seats=5, starting_stack=1000, trade_tokens=0, structure=BettingStructure.NO_LIMIT, min_bet=1
)
# Seat `loser` opens round 1 with the ace; `winner` makes a full house by round 5.
LOSER = parse_cards("As 2c 3d 4h 6s")
WINNER = parse_cards("Kc Kd Kh Qs Qd")


def seat_all(game: Game, *ids: str) -> None:
    for seat, pid in enumerate(ids):
        game.join(seat, pid.title(), pid)


def scripted_hand(game: Game, loser: int, winner: int, chips: int | None) -> None:
    """One hand where `loser` loses `chips` to `winner` (raised, then folds), or with `chips`
    None its whole stack (all in, called, beaten at the showdown); the others fold."""
    hand = game.start_hand()
    hand.announce(hand.dealer, ww.announcement(5))
    hand.deal()
    assert hand.phase is Phase.LAYOUT  # no tokens: no trading
    for seat in hand.seats:
        hand.lay_out(seat)
    others = iter(parse_cards("7c 7d 7h 8c 8d 8h 9c 9d"))
    for seat in hand.seats:
        card = LOSER[0] if seat == loser else WINNER[0] if seat == winner else next(others)
        hand.reveal(seat, card)
    assert hand.to_act() == (loser,)
    if chips is None:
        hand.all_in(loser)
    else:
        hand.bet(loser, chips)
    while hand.betting_round == 1 and not hand.is_over:
        actor = hand.to_act()[0]
        if actor != winner:
            hand.fold(actor)
        elif chips is None:
            hand.call(winner)
        else:
            hand.raise_to(winner, 2 * chips)
    for r in range(2, 6):
        if hand.is_over:
            break
        hand.reveal(loser, LOSER[r - 1])
        hand.reveal(winner, WINNER[r - 1])
    assert hand.is_over
    game.end_hand()
    game.check_chips()


def test_button_moves_clockwise_and_stacks_carry_over() -> None:
    game = Game(TableConfig(seats=6, starting_stack=2000))
    for seat, name in ((1, "ann"), (3, "bob"), (4, "cy")):
        game.join(seat, name, f"id-{name}")
    buttons = []
    rng = random.Random(7)
    for _ in range(5):
        hand = game.start_hand()
        buttons.append(hand.dealer)
        with pytest.raises(IllegalAction):
            game.join(0, "late", "id-late")
        RandomTable(hand, rng, junk=0.0).run()
        result = game.end_hand()
        assert [game.player(s).stack for s in result.seats] == list(result.final_stacks)
        assert game.check_chips() == ChipCount(sum(result.final_stacks), 0, 6000)
        if sum(p.plays for p in game.players) < 2:
            break
    assert buttons[:3] == [1, 3, 4]


def test_join_is_checked() -> None:
    game = Game(TableConfig(seats=4, starting_stack=100))
    game.join(0, "ann", "a")
    with pytest.raises(IllegalAction, match="two players"):
        game.start_hand()
    for args in (
        (2, "ann again", "a"),  # one player, one seat
        (0, "bob", "b"),  # taken
        (4, "far", "f"),
        (True, "bool", "t"),
        (1, " ", "b"),
        (1, "bob", ""),
        (1, "bob", 7),
    ):
        assert not game.can_join(*args)
        with pytest.raises(IllegalAction):
            game.join(*args)
    assert [p.seat for p in game.players] == [0] and game.buy_ins == (BuyIn("a", 0, 100, 0),)
    assert game.seat_of("a") == 0 and game.seat_of("b") is None


def test_leave_and_come_back_with_the_same_stack() -> None:
    game = Game(NO_LIMIT)
    seat_all(game, "ann", "bob", "cy")
    scripted_hand(game, loser=1, winner=2, chips=58)  # bob loses 58 to cy
    assert [p.stack for p in game.players] == [1000, 942, 1058]
    left = game.leave(1)
    assert left.stack == 942 and left.player_id == "bob"
    assert game.departed == (("bob", 942),) and game.buy_in_due("bob") == 0
    assert game.check_chips() == ChipCount(2058, 942, 3000)
    scripted_hand(game, loser=0, winner=2, chips=10)  # the game goes on without bob
    back = game.join(4, "Bob", "bob")  # another seat, the same player
    assert back.stack == 942 and back.plays
    assert not game.departed and len(game.buy_ins) == 3  # no chips created: no new buy-in
    assert game.check_chips() == ChipCount(3000, 0, 3000)


def test_new_players_and_busted_returners_buy_in() -> None:
    game = Game(NO_LIMIT)
    seat_all(game, "ann", "bob")
    scripted_hand(game, loser=1, winner=0, chips=None)  # bob all in and beaten
    assert [p.stack for p in game.players] == [2000, 0]
    assert not game.player(1).plays and not game.can_sit_in(1)
    game.leave(1)
    assert game.buy_in_due("bob") == 1000 and game.buy_in_due("dee") == 1000
    game.join(3, "Dee", "dee")
    game.join(1, "Bob", "bob")
    assert game.player(1).stack == 1000 and game.departed == ()
    assert game.buy_ins == (
        BuyIn("ann", 0, 1000, 0),
        BuyIn("bob", 1, 1000, 0),
        BuyIn("dee", 3, 1000, 1),
        BuyIn("bob", 1, 1000, 1),
    )
    assert game.check_chips() == ChipCount(4000, 0, 4000)
    scripted_hand(game, loser=3, winner=1, chips=100)
    assert game.check_chips() == ChipCount(4000, 0, 4000)


def test_chip_count_catches_chips_made_or_lost() -> None:
    game = Game(NO_LIMIT)
    seat_all(game, "ann", "bob")
    game.leave(1)
    game.check_chips()
    game._players[0] = dataclasses.replace(game.player(0), stack=1001)  # a bug, simulated
    assert not game.chip_count().balanced
    with pytest.raises(RulesError, match="1001 at the table and 1000 with players who left"):
        game.check_chips()


def test_a_genesis_player_and_the_button_may_leave() -> None:
    game = Game(NO_LIMIT)
    seat_all(game, "ann", "bob", "cy")
    scripted_hand(game, loser=0, winner=1, chips=20)
    assert game.button == 0
    game.leave(0)  # the button's seat empties
    assert game.next_button() == 1
    scripted_hand(game, loser=2, winner=1, chips=20)
    assert game.button == 1
    game.leave(1)
    with pytest.raises(IllegalAction, match="two players"):
        game.start_hand()
    game.join(1, "Ann", "ann")  # back, in the seat the button left
    scripted_hand(game, loser=1, winner=2, chips=5)
    assert game.button == 2
    # ann 975 and cy 985 at the table, bob's 1040 remembered.
    assert game.check_chips() == ChipCount(1960, 1040, 3000)


def test_sit_out_for_a_reason_and_back_in_after_a_hand() -> None:
    game = Game(NO_LIMIT)
    seat_all(game, "ann", "bob", "cy", "dee")
    out = game.sit_out(2, SitOutReason.MISSED_HEAD_SIGNATURE)
    assert out.sitting_out and out.sit_out_reason is SitOutReason.MISSED_HEAD_SIGNATURE
    assert game.sit_outs == (SitOut("cy", 2, SitOutReason.MISSED_HEAD_SIGNATURE, 0),)
    with pytest.raises(IllegalAction, match="until a hand has started"):
        game.sit_in(2)
    with pytest.raises(IllegalAction, match="not sitting out"):
        game.sit_in(1)
    with pytest.raises(IllegalAction, match="not a reason"):
        game.sit_out(1, "tired")  # type: ignore[arg-type]
    hand = game.start_hand()
    assert 2 not in hand.seats
    # a hand has started without seat 2: it may sit in now, during the hand, for the next one
    assert game.can_sit_in(2)
    with pytest.raises(IllegalAction, match="during a hand"):
        game.sit_out(1, SitOutReason.MISSED_HAND_START)
    hand.announce(hand.dealer, ww.announcement(5))
    hand.abort([3], "seat 3 sent no hand key")
    game.end_hand()
    assert game.player(3).sit_out_reason is SitOutReason.BLAMED_FOR_ABORT
    assert not game.can_sit_in(3)  # blamed in the hand just ended
    sat = game.sit_in(2)  # one hand has started since seat 2 sat out
    assert not sat.sitting_out and sat.sit_out_reason is None and sat.plays
    scripted_hand(game, loser=0, winner=1, chips=1)
    game.sit_in(3)
    assert all(p.plays for p in game.players)


def test_sit_in_at_once_when_the_game_could_not_go_on_without_it() -> None:
    game = Game(NO_LIMIT)
    seat_all(game, "ann", "bob", "cy")
    game.sit_out(0, SitOutReason.MISSED_HAND_START)
    game.sit_out(1, SitOutReason.REPLACED_SEQUENCER)
    assert game.can_sit_in(0)  # only seat 2 could play without it
    game.sit_in(0)
    assert not game.can_sit_in(1)  # seats 0 and 2 can play now


def test_stallers_sit_out_and_leaving_does_not_end_the_wait() -> None:
    game = Game(NO_LIMIT)
    seat_all(game, "ann", "bob", "cy")
    hand = game.start_hand()
    hand.announce(hand.dealer, ww.announcement(5))
    hand.deal()
    hand.stall(1)  # in LAYOUT
    hand.lay_out(2)
    hand.lay_out(0)
    hand.stall(2)  # in REVEAL: seat 0 is the only one left in
    assert hand.is_over
    game.end_hand()
    assert [p.sit_out_reason for p in game.players] == [
        None,
        SitOutReason.FOLDED_FOR_STALLING,
        SitOutReason.FOLDED_FOR_STALLING,
    ]
    assert game.check_chips() == ChipCount(3000, 0, 3000)
    game.leave(1)
    back = game.join(3, "Bob", "bob")
    assert back.sitting_out and back.sit_out_reason is SitOutReason.FOLDED_FOR_STALLING
    assert game.can_sit_in(3)  # seat 2 sits out too: only seat 0 could play without bob
    game.sit_in(2)
    assert not game.can_sit_in(3)
    scripted_hand(game, loser=0, winner=2, chips=3)
    game.leave(3)
    assert game.join(1, "Bob", "bob").plays  # a hand started: the wait is over


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False), steps=st.integers(5, 40))
def test_property_leave_rejoin_rebuy_and_stalls_conserve_chips(
    rng: random.Random, steps: int
) -> None:
    cfg = TableConfig(seats=4, starting_stack=rng.choice([40, 200, 1000]))
    game = Game(cfg)
    ids = [f"p{i}" for i in range(6)]
    for seat, pid in enumerate(ids[:2]):
        game.join(seat, pid, pid)
    for _ in range(steps):
        op = rng.choice(["hand", "hand", "leave", "join", "sit_out", "sit_in"])
        seated = [p.seat for p in game.players]
        if op == "hand" and sum(p.plays for p in game.players) >= 2:
            hand = game.start_hand()
            RandomTable(hand, rng, junk=0.1, stall=0.02).run()
            game.end_hand()
        elif op == "leave" and seated:
            gone = game.leave(rng.choice(seated))
            assert (gone.player_id, gone.stack) in game.departed
        elif op == "join":
            free = [s for s in range(cfg.seats) if s not in seated]
            pid = rng.choice(ids)
            if free and game.seat_of(pid) is None:
                remembered = dict(game.departed).get(pid)
                count = len(game.buy_ins)
                joined = game.join(rng.choice(free), pid, pid)
                if remembered:
                    assert joined.stack == remembered and len(game.buy_ins) == count
                else:
                    assert joined.stack == cfg.starting_stack
                    assert game.buy_ins[-1] == BuyIn(
                        pid, joined.seat, joined.stack, game.hand_number
                    )
        elif op == "sit_out" and seated:
            game.sit_out(rng.choice(seated), rng.choice(list(SitOutReason)))
        elif op == "sit_in" and seated:
            seat = rng.choice(seated)
            if game.can_sit_in(seat):
                game.sit_in(seat)
            else:
                before = game.players
                with pytest.raises(IllegalAction):
                    game.sit_in(seat)
                assert game.players == before
        chips = game.check_chips()
        assert chips.bought_in == sum(b.chips for b in game.buy_ins)
