"""The seat's own policy (`p2pwillow.seat`), pure: real sessions at an in-process table, and
the time given as `now`. When a seat deals, ends the game, leaves and sits in, and that each
write is asked once per head or per hand."""

from __future__ import annotations

from session_helpers import new_table
from test_seats_and_chips import StallsOnce

from p2pwillow.rules import IllegalAction, TableConfig
from p2pwillow.seat import (
    ADMIT_WITHIN,
    CODES_DIFFER,
    DEAL_GRACE,
    END_GRACE,
    ENDED_BY,
    ENDED_BY_YOU,
    HAS_ALL,
    JOIN_GRACE,
    JOIN_WAIT,
    LEFT_TABLE,
    OTHERS_LEFT,
    Do,
    Move,
    SeatPolicy,
    Wishes,
    end_reason,
    game_over,
    hands_played,
    not_in_time,
)
from p2pwillow.table import Table

DEAL = Move(Do.DEAL)
WANTS_TO_DEAL = Wishes(deal=True)


def _after_one_hand() -> tuple[Table, int, int]:
    """Three bots after their first hand; its sequencer and the next dealer."""
    table = new_table(3)
    assert table.play(1) == 1
    first = table.sessions[0]
    sequencer, dealer = first.sequencer, first.game.next_button()
    assert sequencer != dealer
    return table, sequencer, dealer


def test_the_first_hand_is_dealt_unasked_by_its_dealer_once_the_grace_has_passed() -> None:
    table = new_table(3)
    dealer = table.sessions[0].game.next_button()
    s = table.sessions[dealer]
    policy = SeatPolicy()
    assert policy.next(s, Wishes(), 0.0) is None  # no hand is running since 0.0
    assert policy.next(s, Wishes(), DEAL_GRACE / 2) is None
    assert policy.next(s, Wishes(), DEAL_GRACE) == DEAL
    for seat in set(range(3)) - {dealer}:
        other = SeatPolicy()
        assert other.next(table.sessions[seat], WANTS_TO_DEAL, 0.0) is None
        assert other.next(table.sessions[seat], WANTS_TO_DEAL, 100.0) is None


def test_a_next_hand_waits_for_its_dealers_wish_and_the_grace() -> None:
    table, sequencer, dealer = _after_one_hand()
    s = table.sessions[dealer]
    policy = SeatPolicy()
    assert policy.next(s, WANTS_TO_DEAL, 0.0) is None  # the grace runs from 0.0
    assert policy.next(s, Wishes(), 100.0) is None  # not wanted: a person's seat waits
    assert policy.next(s, WANTS_TO_DEAL, DEAL_GRACE) == DEAL
    # a seat that paces the table (the in-process one) starts it whoever deals it
    pacer = SeatPolicy(deal_grace=0.0, paces=True)
    assert pacer.next(table.sessions[sequencer], WANTS_TO_DEAL, 0.0) == DEAL
    assert pacer.next(table.sessions[sequencer], Wishes(), 0.0) is None
    # once its start is on its way to the sequencer, it is not dealt again
    table._route(dealer, s.start_hand())
    assert s.hand_start_pending
    assert policy.next(s, WANTS_TO_DEAL, 100.0) is None
    table.run()
    assert not s.between_hands
    assert policy.next(s, WANTS_TO_DEAL, 100.0) is None


def test_a_next_dealer_gives_a_newcomer_coming_the_join_grace() -> None:
    """SPEC 8.9: a newcomer the host announced, catching up at a table of bots, gets
    JOIN_GRACE once no hand is running to write its join; a dealer knowing of none deals after
    DEAL_GRACE as before, and the grace is bounded."""
    table, _, dealer = _after_one_hand()
    s = table.sessions[dealer]
    coming = Wishes(deal=True, newcomer_coming=True)
    policy = SeatPolicy()
    assert policy.next(s, coming, 0.0) is None
    assert policy.next(s, coming, DEAL_GRACE) is None
    assert policy.next(s, coming, JOIN_GRACE - 0.01) is None
    assert policy.next(s, coming, JOIN_GRACE) == DEAL
    other = SeatPolicy()
    assert other.next(s, WANTS_TO_DEAL, 0.0) is None
    assert other.next(s, WANTS_TO_DEAL, DEAL_GRACE) == DEAL


def test_a_next_dealer_waits_for_a_newcomer_behind_then_gives_it_the_grace() -> None:
    """SPEC 8.9: a newcomer still checking the hands it missed (its head behind) is waited
    for, JOIN_GRACE more once it has caught up, and JOIN_WAIT at most in all: a newcomer
    slower than the bots is not starved of a still table, nor can it hold the table up."""
    table, _, dealer = _after_one_hand()
    s = table.sessions[dealer]
    behind = Wishes(deal=True, newcomer_coming=True, newcomer_behind=True)
    caught_up = Wishes(deal=True, newcomer_coming=True)
    policy = SeatPolicy()
    assert policy.next(s, behind, 0.0) is None
    assert policy.next(s, behind, 10.0) is None  # past JOIN_GRACE: still behind
    assert policy.next(s, caught_up, 10.0 + JOIN_GRACE - 0.01) is None  # its grace since
    assert policy.next(s, caught_up, 10.0 + JOIN_GRACE) == DEAL
    # behind for good: JOIN_WAIT at most
    stuck = SeatPolicy()
    assert stuck.next(s, behind, 0.0) is None
    assert stuck.next(s, behind, JOIN_WAIT - 0.01) is None
    assert stuck.next(s, behind, JOIN_WAIT) == DEAL


def test_a_next_dealer_holding_another_seats_leave_waits_for_it() -> None:
    """A courtesy (SPEC 8.9): a seat change another seat wrote at this moment is placed before
    the hand, rather than refused once it has started."""
    table, sequencer, dealer = _after_one_hand()
    leaver = (set(range(3)) - {sequencer, dealer}).pop()
    s = table.sessions[dealer]
    for item, _ in table.sessions[leaver].leave().addressed:
        s.receive(item)  # the dealer holds it as a witness; the sequencer has it not yet
    assert s.holds_seat_change
    policy = SeatPolicy()
    assert policy.next(s, WANTS_TO_DEAL, 0.0) is None
    assert policy.next(s, WANTS_TO_DEAL, 100.0) is None


def test_the_hand_limit_ends_the_game_the_sequencer_first() -> None:
    table, sequencer, dealer = _after_one_hand()
    over = hands_played(1)
    assert over == "the game is over: 1 hand played"
    assert hands_played(3) == "the game is over: 3 hands played"
    first, second = SeatPolicy(hands=1), SeatPolicy(hands=1)
    seq, other = table.sessions[sequencer], table.sessions[dealer]
    assert first.next(seq, WANTS_TO_DEAL, 0.0) == Move(Do.END_GAME, over)
    # once per head: not made again while the head stands still
    assert first.next(seq, WANTS_TO_DEAL, 50.0) == Move(Do.WAIT, over)
    # every other seat writes it too, END_GRACE later (a silent sequencer keeps no game open)
    assert second.next(other, WANTS_TO_DEAL, 0.0) == Move(Do.WAIT, over)
    assert second.next(other, WANTS_TO_DEAL, END_GRACE) == Move(Do.END_GAME, over)
    table.end_game(sequencer)  # written, and signed by every seat
    assert seq.complete and other.complete
    assert first.next(seq, Wishes(), 60.0) == Move(Do.STOP, over)
    assert second.next(other, Wishes(), 60.0) == Move(Do.STOP, over)
    # a seat without the limit learns the game is over from the chain, and who ended it
    ended = ENDED_BY.format(name=other.names()[sequencer])
    assert SeatPolicy().next(other, Wishes(), 0.0) == Move(Do.STOP, ended)
    assert end_reason(seq) == ENDED_BY_YOU


def test_the_game_goes_on_below_the_hand_limit_and_ends_when_the_person_asks() -> None:
    table, _, dealer = _after_one_hand()
    s = table.sessions[dealer]
    assert SeatPolicy(hands=2).next(s, WANTS_TO_DEAL, DEAL_GRACE) is None  # the grace runs
    assert game_over(s, hands=2, end_wanted=False) is None
    assert game_over(s, hands=0, end_wanted=True) == ENDED_BY_YOU
    # the person's wish: at once, whatever this seat's place
    policy = SeatPolicy(hands=2)
    assert policy.next(s, Wishes(end=True), 0.0) == Move(Do.END_GAME, ENDED_BY_YOU)
    table.start_hand()
    assert game_over(s, hands=1, end_wanted=True) is None  # a hand is running
    assert policy.next(s, Wishes(end=True), 10.0) is None


def test_a_game_end_is_asked_once_per_head() -> None:
    """A game end binds the head: one refused because the state moved is written again once the
    head has moved, and only then."""
    table, sequencer, dealer = _after_one_hand()
    leaver = (set(range(3)) - {sequencer, dealer}).pop()
    s = table.sessions[dealer]
    policy = SeatPolicy()
    ending = Move(Do.END_GAME, ENDED_BY_YOU)
    assert policy.next(s, Wishes(end=True), 0.0) == ending
    assert policy.next(s, Wishes(end=True), 1.0) == Move(Do.WAIT, ENDED_BY_YOU)
    table.leave(leaver)  # placed first: the head moved
    assert policy.next(s, Wishes(end=True), 2.0) == ending
    assert policy.next(s, Wishes(end=True), 3.0) == Move(Do.WAIT, ENDED_BY_YOU)


def test_one_player_with_chips_is_the_games_end() -> None:
    table = new_table(2)
    assert table.play(1) == 1
    s = table.sessions[0]
    table.leave(1)
    alone = OTHERS_LEFT.format(name="you", is_="are")
    assert game_over(s, hands=0, end_wanted=False) == alone
    assert alone == "the game is over: you are the only player left at the table"
    assert HAS_ALL.format(name="Ann", has="has") == "the game is over: Ann has all the chips"


class _SecondStallsOnce(StallsOnce):
    """Seat 1 withholds its layout in the first hand (and is folded for it), then plays on."""

    STALLER = 1


def test_two_players_with_chips_one_sitting_out_is_no_end_but_a_wait() -> None:
    """Issue 24: a seat sitting out counts (it may sit in again at once, SPEC 3.11): with two
    players holding chips the game waits for it; it never ends as "one player has all the
    chips"."""
    table = new_table(2, seed=8, table=_SecondStallsOnce)
    assert table.play(1) == 1
    s = table.sessions[0]
    assert s.game.player(1).sitting_out and s.game.player(1).stack > 0
    assert sum(p.plays for p in s.game.players) < 2
    assert end_reason(s) is None
    assert game_over(s, hands=0, end_wanted=False) is None
    assert SeatPolicy(deal_grace=0.0).next(s, WANTS_TO_DEAL, 10.0) is None  # no hand to deal
    # the seat sitting out may sit in at once: the game cannot go on without it
    assert SeatPolicy().next(table.sessions[1], Wishes(sit_in=True), 0.0) == Move(Do.SIT_IN)


def test_the_tables_hand_limit_ends_the_game_and_no_hand_starts_after_it() -> None:
    """SPEC 3.1 `hands`: the limit is a table setting in the genesis, so every seat, a newcomer
    and the verifier know it; no hand starts after that many."""
    table = new_table(3, config=TableConfig(seats=3, hands=1))
    assert table.play(1) == 1
    s = table.sessions[0]
    assert end_reason(s) == hands_played(1)
    assert game_over(s, hands=0, end_wanted=False) == hands_played(1)
    try:
        s.game.next_button()
    except IllegalAction as exc:
        assert "1 hand is played" in str(exc)
    else:
        raise AssertionError("a hand starts after the table's last")


def test_a_leave_wanted_during_a_hand_is_written_between_hands_once() -> None:
    table, sequencer, dealer = _after_one_hand()
    leaver = (set(range(3)) - {sequencer, dealer}).pop()
    s = table.sessions[leaver]
    policy = SeatPolicy()
    table.start_hand()
    assert not s.between_hands
    assert policy.next(s, Wishes(leave=True), 0.0) is None  # not while the hand runs
    table.finish_hand()
    assert policy.next(s, Wishes(leave=True), 1.0) == Move(Do.LEAVE)
    assert policy.next(s, Wishes(leave=True), 2.0) is None  # once per hand
    table.leave(leaver)
    left = Move(Do.STOP, LEFT_TABLE.format(hand=2), left=True)
    assert policy.next(s, Wishes(leave=True), 3.0) == left


def test_a_dealer_whose_leave_is_on_its_way_does_not_deal() -> None:
    table, _, dealer = _after_one_hand()
    s = table.sessions[dealer]
    policy = SeatPolicy()
    assert policy.next(s, Wishes(leave=True, deal=True), 0.0) == Move(Do.LEAVE)
    assert policy.next(s, Wishes(leave=True, deal=True), 100.0) is None


def test_a_seat_sitting_out_sits_in_once_per_hand_when_the_rules_let_it() -> None:
    """Seat 2, folded for stalling in hand 1, sits out hand 2 (SPEC 3.11); its sit in is asked
    after that, once per hand until it is in the chain."""
    table = new_table(3, seed=8, table=StallsOnce)
    assert table.play(1) == 1
    s = table.sessions[2]
    assert s.game.player(2).sitting_out
    policy = SeatPolicy()
    assert policy.next(s, Wishes(sit_in=True), 0.0) is None  # it sits out a hand first
    assert table.play(1) == 1
    assert policy.next(s, Wishes(), 1.0) is None  # not wanted
    assert policy.next(s, Wishes(sit_in=True), 1.0) == Move(Do.SIT_IN)
    assert policy.next(s, Wishes(sit_in=True), 2.0) is None  # once per hand
    assert table.play(1) == 1  # (not written: it sat out this one too)
    assert policy.next(s, Wishes(sit_in=True), 3.0) == Move(Do.SIT_IN)
    table.sit_in(2)
    assert not s.game.player(2).sitting_out
    assert policy.next(s, Wishes(sit_in=True), 4.0) is None


def test_a_newcomers_admission_is_answered_as_the_player_did_and_refused_when_too_long() -> None:
    """SPEC 6.6, 8.9: while a newcomer's admission is open no seat deals; a seat answers as its
    player did (a bot: yes); once it has been open ADMIT_WITHIN, every seat refuses it, even
    one that admitted; the newcomer refused stops, told who refused it and why."""
    table = new_table(3, config=TableConfig(seats=4))
    assert table.play(1) == 1
    table.join(3, "Mallory", admit=False)
    dealer = table.sessions[0].game.next_button()
    s = table.sessions[dealer]
    policy = SeatPolicy(admit_within=ADMIT_WITHIN)
    # no answer yet: nothing to do, and no hand either
    assert policy.next(s, WANTS_TO_DEAL, 0.0) is None
    assert policy.next(s, WANTS_TO_DEAL, 10.0) is None
    assert policy.next(s, Wishes(deal=True, admit=True), 10.0) == Move(Do.ADMIT)
    no = SeatPolicy()
    other = table.sessions[(dealer + 1) % 3]
    assert no.next(other, Wishes(admit=False), 0.0) == Move(Do.REFUSE, CODES_DIFFER)
    table.admit(dealer)
    assert policy.next(s, WANTS_TO_DEAL, 20.0) is None, "admitted: it waits for the others"
    late = policy.next(s, WANTS_TO_DEAL, ADMIT_WITHIN)
    assert late == Move(Do.REFUSE, not_in_time(ADMIT_WITHIN))
    table.refuse(dealer, late.reason)
    newcomer = SeatPolicy()
    stop = newcomer.next(table.sessions[3], Wishes(), 0.0)
    assert stop is not None and stop.do is Do.STOP and stop.refused and not stop.left
    names = table.sessions[0].names()
    assert stop.reason == (
        f"the table did not take you: {names[dealer]} refused "
        f"(not everyone confirmed the new safety code within {ADMIT_WITHIN:g} s)"
    )
    # the next hand, once the admission is over, after the grace
    assert policy.next(s, WANTS_TO_DEAL, ADMIT_WITHIN + 1) is None
    assert policy.next(s, WANTS_TO_DEAL, ADMIT_WITHIN + 1 + 2 * DEAL_GRACE) == DEAL


def test_a_newcomer_that_refuses_the_table_leaves_it() -> None:
    table = new_table(3, config=TableConfig(seats=4))
    assert table.play(1) == 1
    table.join(3, "Dee", admit=False)
    policy = SeatPolicy()
    s = table.sessions[3]
    assert policy.next(s, Wishes(admit=False), 0.0) == Move(Do.REFUSE, CODES_DIFFER)
    table.refuse(3, CODES_DIFFER)
    stop = policy.next(s, Wishes(), 1.0)
    assert stop == Move(Do.STOP, f"you left the table: {CODES_DIFFER}", left=True, refused=True)
