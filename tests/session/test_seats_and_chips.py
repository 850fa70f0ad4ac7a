"""Seats and chips across hands through real sessions (SPEC 3.11, 7.3): a seat that sat out
sits back in with its own entry, a player who leaves and comes back gets its own stack back, a
new player's buy-in is recorded and checked, and a genesis player may leave while the game
goes on."""

from __future__ import annotations

from typing import Any

import pytest
from session_helpers import new_table

from p2pwillow.ledger import AuthoredEntry, Reason, RemoteProtocolError
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.identity import Identity
from p2pwillow.rules import FoldedForStalling, IllegalAction, Phase, TableConfig
from p2pwillow.session import Output
from p2pwillow.table import Table
from p2pwillow.verify import Verdict, verify_transcript

FOUR_SEATS = TableConfig(seats=4)


def _verified(table: Table) -> None:
    report = verify_transcript(
        b"".join(e.encode() + b"\n" for e in table.sessions[0].ledger.entries)
    )
    assert report.verdict is not Verdict.INVALID, report.error


class StallsOnce(Table):
    """Seat 2 (`STALLER`) withholds its layout in the first hand (and is folded for it), then
    plays on."""

    STALLER = 2

    def __init__(self, players: int, **kwargs: Any) -> None:
        self.stalled = False
        super().__init__(players, **kwargs)

    def _route(self, source: int, out: Output) -> None:
        hand = self.sessions[source].hand if hasattr(self, "sessions") else None
        me = self.STALLER
        if source == me and hand is not None and not self.stalled:
            if any(isinstance(e, FoldedForStalling) and e.seat == me for e in hand.events):
                self.stalled = True
                self.muted.discard(me)
            elif hand.phase is Phase.LAYOUT and hand.hand_number == 1:
                self.muted.add(me)
        super()._route(source, out)


def test_a_seat_that_sat_out_sits_back_in_with_its_own_entry() -> None:
    """Item 5: a seat folded for stalling sits out; once a hand has started without it, its
    own `sit_in` entry brings it back, and not before."""
    table = new_table(3, seed=8, table=StallsOnce)
    assert table.play(1) == 1
    first = table.sessions[0]
    assert first.game.player(2).sitting_out
    with pytest.raises(IllegalAction):
        table.sessions[2].sit_in()  # it must sit out a hand first
    assert table.play(1) == 1
    assert 2 not in first.summaries[-1].seats  # the hand it sat out
    table.sit_in(2)
    assert not first.game.player(2).sitting_out
    assert any(e.kind == "sit_in" and e.author == 2 for e in first.ledger.entries)
    assert table.play(1) == 1
    assert 2 in first.summaries[-1].seats
    assert table.rejections == []
    _verified(table)


def test_a_player_who_comes_back_gets_its_own_stack_and_a_new_one_buys_in() -> None:
    """Item 6: a player leaves with its stack and rejoins with that same stack (no chips are
    made); a new player buys in with the starting stack, recorded as a buy-in; chips are
    conserved against the buy-ins."""
    for seed in range(9, 40):  # a first hand in which seat 2 won or lost chips
        table = new_table(3, seed=seed, config=FOUR_SEATS)
        assert table.play(1) == 1
        first = table.sessions[0]
        left_with = first.game.player(2).stack
        if left_with != FOUR_SEATS.starting_stack:
            break
    assert left_with != FOUR_SEATS.starting_stack
    identity = table.identities[2]
    table.leave(2)
    assert 2 not in {p.seat for p in first.game.players}
    assert table.play(1) == 1
    table.join(2, "bot 2 again", identity)
    assert first.game.player(2).stack == left_with
    newcomer = Identity.generate(table._rng)
    table.join(3, "newcomer", newcomer)
    assert first.game.player(3).stack == FOUR_SEATS.starting_stack
    joins = [e.body for e in first.ledger.entries if isinstance(e.body, k.Join)]
    assert [j.buy_in for j in joins] == [0, FOUR_SEATS.starting_stack]
    buy_ins = first.game.buy_ins
    assert [b.chips for b in buy_ins] == [1000, 1000, 1000, 1000]
    count = first.game.check_chips()
    assert count.bought_in == 4000 and count.at_table == 4000 and count.left == 0
    assert table.play(1) == 1
    assert sum(p.stack for p in first.game.players) == 4000
    assert table.rejections == []
    _verified(table)


def test_a_join_must_state_the_buy_in_it_is_due() -> None:
    table = new_table(3, seed=9, config=FOUR_SEATS)
    assert table.play(1) == 1
    identity = table.identities[2]
    table.leave(2)
    first = table.sessions[0]
    ledger = first.ledger
    for claimed in (FOUR_SEATS.starting_stack, 1):  # a returning player may not buy in again
        body = k.Join(
            name="back",
            identity_key=identity.public_key.hex(),
            genesis=ledger.hash_of(0).hex(),
            buy_in=claimed,
        )
        authored = AuthoredEntry.create(
            identity,
            game=ledger.game or b"",
            hand=ledger.hand,
            author=2,
            body=body,
            counter=10**6,
            seen=ledger.head_hash,
        )
        dealer = first.sequencer
        placed = authored.sequence(ledger.head_seq + 1, ledger.head_hash, table.identities[dealer])
        with pytest.raises(RemoteProtocolError) as caught:
            table.sessions[1].receive(placed)
        assert caught.value.reason is Reason.ILLEGAL_ACTION
        assert "buy-in" in caught.value.detail


def test_a_genesis_player_may_leave_and_the_game_goes_on() -> None:
    """Item 7: the host (seat 0, the genesis author) leaves after the first hand; the next
    hands start and end without it."""
    table = new_table(3, seed=10)
    assert table.play(1) == 1
    table.leave(0)
    watcher = table.sessions[1]
    assert 0 not in watcher.ledger.identities
    assert table.play(2) == 2
    assert len(watcher.summaries) == 3
    assert all(0 not in s.seats for s in watcher.summaries[1:])
    assert watcher.between_hands
    assert table.rejections == []
    report = verify_transcript(b"".join(e.encode() + b"\n" for e in watcher.ledger.entries))
    assert report.verdict is not Verdict.INVALID, report.error
    assert report.through_hand == 3


def test_a_next_dealer_sees_a_seat_change_on_its_way() -> None:
    """A leave (or game end) written between hands is held by every peer until it is
    sequenced; while it is, `holds_seat_change` tells a next dealer to wait (SPEC 6.6, 7.1)."""
    table = new_table(4, seed=12, config=FOUR_SEATS)
    assert table.play(1) == 1
    sequencer = table.sessions[0].sequencer
    leaver = next(s for s in (1, 2, 3) if s != sequencer)
    watcher = next(s for s in (1, 2, 3) if s not in (sequencer, leaver))
    out = table.sessions[leaver].leave()
    [authored] = [item for item in out.send if isinstance(item, AuthoredEntry)]
    session = table.sessions[watcher]
    assert not session.holds_seat_change
    session.receive(authored)
    assert session.holds_seat_change
    assert not table.sessions[leaver].holds_seat_change  # its own entry is not another's
    table._route(leaver, out)
    table.run()
    assert leaver not in session.ledger.identities
    assert not session.holds_seat_change


def test_the_view_of_a_seat_sitting_out_a_running_hand_offers_nothing_and_says_why() -> None:
    """The screen of a player made to sit out keeps drawing while the others play."""
    from p2pwillow.view import table_view

    table = new_table(3, seed=8, table=StallsOnce)
    assert table.play(1) == 1
    table.start_hand()
    out = table.sessions[2]
    hand = out.hand
    assert hand is not None and 2 not in hand.seats and not hand.is_over
    view = table_view(out)
    assert view.actions and not any(a.legal for a in view.actions)
    assert {a.reason for a in view.actions} == {"you sit out this hand"}


def test_the_view_offers_the_sit_in_only_to_a_seat_sitting_out() -> None:
    """The sit-in key is offered to the seat folded for stalling, from the hand it is folded
    in until its `sit_in` is in the chain, and never to a seat that plays."""
    from p2pwillow.view import table_view

    table = new_table(3, seed=8, table=StallsOnce)
    assert table.play(1) == 1
    assert table_view(table.sessions[2]).may_sit_in
    assert not table_view(table.sessions[0]).may_sit_in
    table.start_hand()  # the hand it sits out: it may ask now, it sits in after it
    assert table_view(table.sessions[2]).may_sit_in
    table.finish_hand()
    table.sit_in(2)
    assert not table_view(table.sessions[2]).may_sit_in
    assert not any(table_view(s).may_sit_in for s in table.sessions)
