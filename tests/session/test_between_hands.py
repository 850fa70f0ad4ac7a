"""Between hands one seat orders every place of the chain (SPEC 6.6, 7.3, 7.5): the sequencer
countersigns the next dealer's `hand_start` as it does a `game_end` or a `leave`, played
through real sessions. A hostile next dealer cannot take a place of its own; a hand start and a
game end written at one moment get one place for everyone; a silent sequencer between hands is
replaced and the next hand starts, or the game ends, without it."""

from __future__ import annotations

import dataclasses

import pytest
from session_helpers import new_table

from p2pwillow.ledger import AuthoredEntry, Entry, Reason, RemoteProtocolError
from p2pwillow.ledger import kinds as k
from p2pwillow.rules import IllegalAction
from p2pwillow.session import EntryRefused, Output, Session
from p2pwillow.table import Table
from p2pwillow.verify import Verdict, verify_transcript


def _after_one_hand(players: int = 3, seed: int = 1) -> tuple[Table, int, int]:
    """A table whose first hand is played and signed; its sequencer and the next dealer."""
    table = new_table(players, seed=seed)
    assert table.play(1) == 1
    first = table.sessions[0]
    sequencer, dealer = first.sequencer, first.game.next_button()
    assert sequencer != dealer
    return table, sequencer, dealer


def _self_countersigned_start(table: Table, dealer: int) -> Entry:
    """The next dealer's hand start for the next place, countersigned by the dealer itself (as
    the old rule had it), signed with a counter its session has not used."""
    session = table.sessions[dealer]
    ledger = session.ledger
    players = [k.SeatStack(seat=p.seat, stack=p.stack) for p in session.game.players if p.plays]
    counter = max(session.signed) + 1
    authored = AuthoredEntry.create(
        table.identities[dealer],
        game=session.game_id,
        hand=ledger.hand + 1,
        author=dealer,
        body=k.HandStart(dealer=dealer, players=players),
        counter=counter,
        seen=ledger.head_hash,
    )
    return authored.sequence(ledger.head_seq + 1, ledger.head_hash, table.identities[dealer])


def _one_chain(table: Table) -> bytes:
    heads = {s.ledger.head_hash for s in table.sessions if s.seat in s.ledger.identities}
    assert len(heads) == 1, "the players split"
    (head,) = heads
    return head


def _valid(entries: list[Entry]) -> None:
    report = verify_transcript(b"".join(e.encode() + b"\n" for e in entries))
    assert report.verdict is not Verdict.INVALID, report.error


def _rival_refused(table: Table, sequencer: int, rival: Entry, placed: Entry) -> None:
    """`rival` (the dealer's own hand start) and `placed` (the sequencer's entry) take one seq:
    every peer refuses the rival before the placed entry, ignores it after, nobody splits, and
    verify rejects a transcript that holds it."""
    assert rival.seq == placed.seq and placed.verify_countersig(
        table.identities[sequencer].public_key
    )
    for session in table.sessions:
        if session.seat == sequencer:
            continue
        # it came after the placed entry: a place the chain holds, and no equivocation of
        # anyone's (the sequencer did not countersign it): ignored, nothing sent on
        assert session.receive(rival).send == ()
        assert session.ledger[rival.seq].hash == placed.hash
    before = table.transcript[: placed.seq]
    _valid(table.transcript)
    report = verify_transcript(b"".join(e.encode() + b"\n" for e in [*before, rival]))
    assert report.verdict is Verdict.INVALID and report.error is not None
    assert "countersignature" in report.error.reason
    assert report.error.line == placed.seq + 1


def test_a_hostile_dealers_own_hand_start_cannot_take_the_game_ends_place() -> None:
    table, sequencer, dealer = _after_one_hand()
    rival = _self_countersigned_start(table, dealer)
    # before the game end reaches them, every peer refuses the rival: the sequencer signs it
    for session in table.sessions:
        if session.seat != dealer:
            with pytest.raises(RemoteProtocolError) as info:
                session.receive(rival)
            assert info.value.reason is Reason.BAD_COUNTERSIGNATURE
    table.end_game(sequencer)
    end = table.transcript[rival.seq]
    assert isinstance(end.body, k.GameEnd)
    _rival_refused(table, sequencer, rival, end)
    _one_chain(table)
    assert all(s.complete for s in table.sessions)
    assert table.rejections == []


def test_a_hostile_dealers_own_hand_start_cannot_take_a_leaves_place() -> None:
    table, sequencer, dealer = _after_one_hand(players=3)
    (leaver,) = {0, 1, 2} - {sequencer, dealer}
    rival = _self_countersigned_start(table, dealer)
    table.leave(leaver)
    leave = table.transcript[rival.seq]
    assert isinstance(leave.body, k.Leave) and leave.author == leaver
    _rival_refused(table, sequencer, rival, leave)
    # the game goes on without the leaver: the dealer's hand start, countersigned by the
    # sequencer, opens the next hand
    assert table.play(1) == 1
    start = next(e for e in table.transcript if e.hand == 2)
    assert start.author == dealer and start.verify_countersig(
        table.identities[sequencer].public_key
    )
    _one_chain(table)
    _valid(table.transcript)
    assert table.rejections == []


def test_a_hand_start_and_a_game_end_at_one_moment_the_game_end_first() -> None:
    """The sequencer ends the game as the next dealer sends its hand start: the sequencer's
    game end takes the place, the hand start is refused, and the dealer makes none again."""
    table, sequencer, dealer = _after_one_hand()
    ending = table.sessions[sequencer].end_game()  # applied at the sequencer at once
    starting = table.sessions[dealer].start_hand()  # on its way to the sequencer
    assert table.sessions[dealer].hand_start_pending
    with pytest.raises(IllegalAction, match="on its way"):
        table.sessions[dealer].start_hand()
    earlier = len(table.refusals)
    table._route(sequencer, ending)
    table._route(dealer, starting)
    table.run()
    (refusal,) = table.refusals[earlier:]
    assert refusal.kind == "hand_start" and refusal.author == dealer
    assert refusal.reason is Reason.WRONG_HAND and "ended" in refusal.detail  # SPEC 6.6
    assert not table.sessions[dealer].hand_start_pending
    _one_chain(table)
    assert all(s.complete for s in table.sessions)
    assert not any(isinstance(e.body, k.HandStart) and e.hand == 2 for e in table.transcript)
    _valid(table.transcript)
    assert table.rejections == []


def test_a_hand_start_and_a_game_end_at_one_moment_the_hand_start_first() -> None:
    """Another seat's game end reaches the sequencer after the dealer's hand start: the hand
    starts for everyone and the game end, made in the hand before, can no longer be placed: the
    new hand's sequencer refuses it (its author writes it again after this hand)."""
    table, sequencer, dealer = _after_one_hand()
    (ender,) = {0, 1, 2} - {sequencer, dealer}
    starting = table.sessions[dealer].start_hand()
    ending = table.sessions[ender].end_game()
    (authored,) = ending.send
    assert isinstance(authored, AuthoredEntry)
    table._route(dealer, starting)
    table._route(ender, ending)
    table.run()
    head = _one_chain(table)
    assert all(s.hand_number == 2 for s in table.sessions)
    assert not any(isinstance(e.body, k.GameEnd) for e in table.transcript)
    # the new hand's sequencer ignores it (its author has signed newer entries since, SPEC
    # 7.1), and no peer would take it, placed next by the sequencer
    sequencing = table.sessions[dealer]
    assert sequencing.receive(authored).send == ()
    ledger = sequencing.ledger
    placed = authored.sequence(ledger.head_seq + 1, ledger.head_hash, table.identities[dealer])
    for session in table.sessions:
        with pytest.raises(RemoteProtocolError) as info:
            session.receive(placed)
        assert info.value.reason in (Reason.WRONG_HAND, Reason.REPLAYED)
    assert {s.ledger.head_hash for s in table.sessions} == {head}
    table.finish_hand()
    table.end_game(ender)
    _valid(table.transcript)
    assert table.rejections == []


def _tick_until(table: Table, seat: int, kind: str, clocks: int = 8) -> Entry:
    for _ in range(clocks):
        found = [e for e in table.sessions[seat].ledger.entries if e.kind == kind]
        if found:
            return found[-1]
        table.tick(table.config.action_clock + 1)
    raise AssertionError(f"no {kind} after {clocks} action clocks")


def test_a_sequencer_silent_after_its_head_signature_is_replaced_and_the_hand_starts() -> None:
    """SPEC 7.5: the sequencer goes silent once the hand is signed. The witnesses hold the
    next dealer's hand start, which passes, so they accuse the sequencer, not the dealer; the
    seat that takes over replaces it and the next hand starts without it."""
    table, sequencer, dealer = _after_one_hand(players=3)
    witness = ({0, 1, 2} - {sequencer, dealer}).pop()
    table.muted.add(sequencer)
    table.start_hand()
    assert table.sessions[dealer].hand_start_pending
    held = table.sessions[witness].state.pool.entries(dealer)
    assert [e.kind for e in held] == ["hand_start"]
    change = _tick_until(table, dealer, "sequencer_change")
    assert isinstance(change.body, k.SequencerChange)
    assert tuple(change.body.replaced) == (sequencer,)
    assert change.author == table.sessions[dealer].ledger.successor(sequencer)
    accusing = {v.voter for v in change.body.votes if sequencer in v.seats}
    assert accusing == {dealer, witness}
    assert not any(dealer in v.seats for v in change.body.votes)
    # the replaced sequencer sits out, so the held hand start listing it is stale: it is made
    # again by the dealer, which now sequences, and the hand is played without the sequencer
    dealer_session = table.sessions[dealer]
    assert dealer_session.sequencer == change.author
    assert dealer_session.game.player(sequencer).sitting_out
    # the silent sequencer itself placed the hand start nobody else got: from where it sits it
    # was working, so it refuses to be replaced (SPEC 7.9) and its chain parts from the table's
    refused = table.sessions[sequencer].state.refused
    assert [c.claim.hash for c in refused.values()] == [change.hash]
    if dealer_session.between_hands:
        table._route(dealer, dealer_session.start_hand())
        table.run()
    started = dealer_session.ledger.entries[change.seq + 1]
    assert isinstance(started.body, k.HandStart) and started.author == dealer
    assert sequencer not in {p.seat for p in started.body.players}
    assert started.verify_countersig(table.identities[change.author].public_key)
    while not table.sessions[witness].between_hands:
        if not table.decide_round():
            table.tick(table.config.action_clock + 1)
    heads = {table.sessions[s].ledger.head_hash for s in (dealer, witness)}
    assert len(heads) == 1
    _valid(list(table.sessions[witness].ledger.entries))
    assert {r.seat for r in table.rejections} <= {sequencer}  # only the parted chain


def test_a_sequencer_dead_after_the_last_hand_does_not_keep_the_game_open() -> None:
    """The hands are played and the sequencer goes silent before it writes the game end. The
    other seats each write one (as a live node does once the hand limit is reached); the
    witnesses accuse the sequencer that sits on them, the seat that takes over replaces it and
    writes the game end, and the silent seat's signature of it is excused: the game closes,
    signed."""
    table, sequencer, _ = _after_one_hand(players=3)
    table.muted.add(sequencer)
    others = [s for s in range(3) if s != sequencer]

    def end_where_the_head_moved(asked: dict[int, bytes]) -> None:
        # a live node writes the game end again whenever its head moves (it binds the head)
        for seat in others:
            session = table.sessions[seat]
            if session.ended or asked.get(seat) == session.ledger.head_hash:
                continue
            asked[seat] = session.ledger.head_hash
            table._route(seat, session.end_game())
        table.run()

    asked: dict[int, bytes] = {}
    end_where_the_head_moved(asked)
    witness = table.sessions[others[0]]
    for _ in range(10):
        if witness.complete:
            break
        table.tick(table.config.action_clock + 1)
        end_where_the_head_moved(asked)
    assert witness.complete
    kinds = [e.kind for e in witness.ledger.entries[-6:]]
    assert "sequencer_change" in kinds and "game_end" in kinds
    change = next(e for e in witness.ledger.entries if e.kind == "sequencer_change")
    assert isinstance(change.body, k.SequencerChange) and tuple(change.body.replaced) == (
        sequencer,
    )
    end = next(e for e in witness.ledger.entries if e.kind == "game_end")
    assert end.seq > change.seq
    assert witness.state.ended is not None and sequencer in witness.state.ended.excused
    assert {table.sessions[s].ledger.head_hash for s in others} == {witness.ledger.head_hash}
    _valid(list(witness.ledger.entries))
    report = verify_transcript(b"".join(e.encode() + b"\n" for e in witness.ledger.entries))
    assert report.verdict is Verdict.VALID, report
    assert {r.seat for r in table.rejections} <= {sequencer}  # it refused to be replaced


def test_a_sequencer_that_leaves_hands_sequencing_to_the_next_seat() -> None:
    """SPEC 6.6, 8.9: any seat may leave between hands, the sequencer too; the seat that takes
    over from it sequences what follows and the game goes on."""
    table, sequencer, _ = _after_one_hand(players=4)
    table.leave(sequencer)
    first = next(s for s in table.sessions if s.seat != sequencer)
    assert sequencer not in first.ledger.identities
    assert first.sequencer == first.ledger.successor(sequencer) != sequencer
    assert table.play(1) == 1
    for session in table.sessions:
        if session.seat != sequencer:
            assert session.hand_number == 2 and session.between_hands
    _valid(list(first.ledger.entries))
    assert table.rejections == []


def test_a_pending_hand_start_is_sent_once_and_dropped_once_stale() -> None:
    """A session's start of the next hand never goes out twice, and one that went stale while
    on its way (made at a head before the state changed) is dropped, not sent again."""
    table, sequencer, dealer = _after_one_hand(players=3)
    session: Session = table.sessions[dealer]
    out = session.start_hand()
    assert [type(i).__name__ for i in out.send] == ["AuthoredEntry"]
    with pytest.raises(IllegalAction):
        session.start_hand()
    # the sequencer ends the game before the hand start reaches it: the dealer's pending start
    # no longer passes at its new head and is dropped without a refusal
    ending = table.sessions[sequencer].end_game()
    end = ending.send[0]
    assert isinstance(end, Entry)
    result = session.receive(end)
    assert not session.hand_start_pending
    assert not any(isinstance(e, EntryRefused) for e in result.events)
    with pytest.raises(IllegalAction, match="ended"):
        session.start_hand()


def test_the_seat_that_takes_over_as_the_hand_ends_signs_its_head_itself() -> None:
    """The sequencer goes silent right after its hand end and its own head signature: the
    others' signatures were sent to it and never placed. The seat that takes over places the
    signatures it holds and makes its own again (the one it sent is stale after its change):
    it is not replaced or timed out in turn, and the next hand starts."""
    muted: list[int] = []

    def silence(entry: Entry) -> None:
        if isinstance(entry.body, k.HandEnd) and not muted:
            muted.append(entry.author)
            table.muted.add(entry.author)

    table = new_table(3, seed=1, on_entry=silence)
    table.start_hand()
    for _ in range(400):
        if muted:
            break
        if not table.decide_round():
            table.tick(table.config.action_clock + 1)
    (sequencer,) = muted
    witness = table.sessions[next(s for s in range(3) if s != sequencer)]
    change = _tick_until(table, witness.seat or 0, "sequencer_change")
    assert isinstance(change.body, k.SequencerChange)
    assert tuple(change.body.replaced) == (sequencer,)
    for _ in range(4):
        if witness.between_hands:
            break
        table.tick(table.config.action_clock + 1)
    assert witness.between_hands
    after = witness.ledger.entries[change.seq + 1 :]
    assert change.author in {e.author for e in after if e.kind == "head_signature"}
    assert not [e for e in witness.ledger.entries if e.kind == "sequencer_change" and e != change]
    assert not [e for e in after if e.kind == "timeout" and change.author in e.body.seats]  # type: ignore[attr-defined]
    others = [s for s in table.sessions if s.seat != sequencer]
    assert len({s.ledger.head_hash for s in others}) == 1
    _valid(list(witness.ledger.entries))
    # the silent sequencer's own session, which holds what it sent, refuses its replacement
    assert [r for r in table.rejections if r.seat not in table.muted] == []


def test_a_leave_resent_after_it_is_in_the_chain_is_ignored_by_every_peer() -> None:
    """SPEC 7.1: a leaver's node resends its `leave` until it hears it is sequenced, so a copy
    may come once its seat is empty. Every peer, the sequencer too, ignores it as a resend (no
    refusal, no fault counted); an entry in that empty seat's name with a counter past its
    last player's is still refused, the author holds no seat, unless it was made at a head the
    peer does not hold (a newcomer's, ahead of its `join`)."""
    table, sequencer, dealer = _after_one_hand(players=4)
    leaver = min({0, 1, 2, 3} - {sequencer, dealer})
    table.leave(leaver)
    leave = next(e for e in table.transcript if isinstance(e.body, k.Leave))
    assert leave.author == leaver
    resent = leave.authored()
    later = AuthoredEntry.create(
        table.identities[leaver],
        game=leave.game,
        hand=leave.hand,
        author=leaver,
        body=k.Leave(),
        counter=leave.counter + 1,
        seen=table.sessions[sequencer].ledger.head_hash,
    )
    for session in table.sessions:
        if session.seat == leaver:
            continue
        head = session.ledger.head_hash
        out = session.receive(resent)
        assert out.send == () and out.events == ()
        assert session.ledger.head_hash == head
        if session.seat == sequencer:
            refused = session.receive(later)
            assert [type(e) for e in refused.events] == [EntryRefused]
            assert session.ledger.head_hash == head
        else:
            with pytest.raises(RemoteProtocolError) as info:
                session.receive(later)
            assert info.value.reason is Reason.UNKNOWN_AUTHOR
            # made at a head this peer does not hold: a newcomer's entry that came before its
            # `join` did, ignored (it is sent again while it is not sequenced)
            ahead = dataclasses.replace(later, seen=bytes(32))
            assert session.receive(ahead) == Output()
            assert session.ledger.head_hash == head and ahead not in session.state.pool.entries()
    assert table.rejections == []
