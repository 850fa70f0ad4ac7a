"""Replication (SPEC 8.4): each mechanism on its own, then whole hands of real Sessions over a
simulated network that loses, duplicates and reorders frames (Hypothesis)."""

from __future__ import annotations

import ast
import copy
import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from net_helpers import hand_transcript, identity
from sim import MALLORY, Conditions, SimNet, count_frames

from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.entry import AuthoredEntry, Entry
from p2pwillow.ledger.errors import LocalProtocolError, Reason, RemoteProtocolError
from p2pwillow.net.replication import (
    ACK_DELAY,
    AUTHORED_RESEND,
    AWAY_AFTER,
    CATCH_UP_AFTER,
    EVASIVE_AFTER,
    HEARTBEAT_INTERVAL,
    PARTED_RETRIES,
    PARTED_RETRY,
    PUSH_LATER,
    WITNESS_AFTER,
    AuthoredReceived,
    BadFrame,
    BroadcastReceived,
    ConflictReceived,
    EntryReceived,
    Liveness,
    LivenessChanged,
    LobbyReceived,
    RefusalReceived,
    Replication,
    ReplicationEvent,
)
from p2pwillow.net.wire import (
    MAX_BATCH,
    AuthoredFrame,
    BroadcastFrame,
    CatchUpFrame,
    EntriesFrame,
    HeadFrame,
    HeartbeatFrame,
    LobbyFrame,
    RefusalFrame,
    decode_frame,
    encode_frame,
)
from p2pwillow.rules import Phase
from p2pwillow.session import ChainCut, Refusal, Session
from p2pwillow.table import Table

A, B, C = b"A", b"B", b"C"
CHAIN = hand_transcript(4, 11)  # more entries than one batch
assert len(CHAIN) > MAX_BATCH


def _frames(rep: Replication, now: float, to: bytes | None = None) -> list[object]:
    return [decode_frame(data) for peer, data in rep.frames_to_send(now) if to in (None, peer)]


def _events(rep: Replication) -> list[ReplicationEvent]:
    return list(rep.events())


def _deliver(src: Replication, src_id: bytes, dst: Replication, dst_id: bytes, now: float) -> int:
    """Send every frame due from src to dst; return how many."""
    frames = [data for peer, data in src.frames_to_send(now) if peer == dst_id]
    for data in frames:
        dst.receive(data, src_id, now)
    return len(frames)


def _apply_all(rep: Replication, now: float) -> list[Entry]:
    """Apply every entry handed over, as a Session that accepts everything would."""
    applied = []
    for event in rep.events():
        if isinstance(event, EntryReceived):
            rep.applied(event.entry, now)
            applied.append(event.entry)
    return applied


def _origin(n: int) -> Replication:
    """A peer that made the first n entries itself (as their sequencer)."""
    rep = Replication([CHAIN[0]], [B], now=0.0)
    for entry in CHAIN[1:n]:
        rep.publish(entry, 0.0)
    return rep


# --- heartbeats and liveness ---------------------------------------------------------------------


def test_heartbeat_about_every_second() -> None:
    rep = Replication([CHAIN[0]], [B], now=0.0)
    assert [type(f) for f in _frames(rep, 0.0)] == [HeartbeatFrame]
    assert _frames(rep, 0.5) == []
    assert rep.get_timer() == pytest.approx(1.0)
    beat = _frames(rep, 1.0)
    assert beat == [HeartbeatFrame(0, CHAIN[0].hash)]


def test_liveness_present_evasive_away_and_back() -> None:
    rep = Replication([CHAIN[0]], [B], now=0.0)
    rep.receive(encode_frame(HeartbeatFrame(0, CHAIN[0].hash)), B, 1.0)
    rep.handle_timer(1.0 + EVASIVE_AFTER - 0.01)
    assert _events(rep) == [] and rep.status(B).liveness is Liveness.PRESENT
    rep.handle_timer(1.0 + EVASIVE_AFTER)
    assert _events(rep) == [LivenessChanged(B, Liveness.EVASIVE)]
    assert rep.get_timer() == pytest.approx(1.0 + AWAY_AFTER) or rep.get_timer() is not None
    rep.handle_timer(1.0 + AWAY_AFTER)
    assert _events(rep) == [LivenessChanged(B, Liveness.AWAY)]
    assert rep.status(B).liveness is Liveness.AWAY
    rep.receive(encode_frame(HeartbeatFrame(0, CHAIN[0].hash)), B, 30.0)
    assert _events(rep) == [LivenessChanged(B, Liveness.PRESENT)]


def test_a_bad_frame_is_counted_and_is_not_a_sign_of_life() -> None:
    rep = Replication([CHAIN[0]], [B], now=0.0)
    rep.receive(b"garbage", B, 5.0)
    rep.receive(b'{"type":"nope","v":1}\n', B, 5.0)
    events = _events(rep)
    assert [type(e) for e in events] == [BadFrame, BadFrame]
    assert isinstance(events[1], BadFrame) and events[1].count == 2
    assert rep.status(B).bad_frames == 2 and rep.status(B).last_heard is None
    rep.handle_timer(AWAY_AFTER)
    assert rep.status(B).liveness is Liveness.AWAY


# --- push, ack, resend, catch-up -----------------------------------------------------------------


def test_push_then_ack() -> None:
    a = _origin(1)
    b = Replication([CHAIN[0]], [A], now=0.0)
    a.frames_to_send(0.0)  # heartbeat
    a.publish(CHAIN[1], 0.1)
    pushed = _frames(a, 0.1, B)
    assert pushed == [EntriesFrame((CHAIN[1],))]
    b.receive(encode_frame(EntriesFrame((CHAIN[1],))), A, 0.11)
    assert _apply_all(b, 0.11) == [CHAIN[1]]
    # the ack waits ACK_DELAY for more entries to share it, then goes
    assert not [f for f in _frames(b, 0.11, A) if isinstance(f, HeadFrame)]
    b.receive(encode_frame(EntriesFrame((CHAIN[2],))), A, 0.12)
    assert _apply_all(b, 0.12) == [CHAIN[2]]
    assert b.get_timer() == pytest.approx(0.11 + ACK_DELAY)
    acks = [f for f in _frames(b, 0.11 + ACK_DELAY, A) if isinstance(f, HeadFrame)]
    assert acks == [HeadFrame(2, CHAIN[2].hash)]


def test_an_acknowledgement_stands_for_the_next_heartbeat() -> None:
    b = Replication([CHAIN[0]], [A, C], now=0.0)
    b.frames_to_send(0.0)  # heartbeats to both, the next due at 1.0
    came = 0.3
    assert came + ACK_DELAY < HEARTBEAT_INTERVAL
    b.receive(encode_frame(EntriesFrame((CHAIN[1],))), A, came)
    _apply_all(b, came)
    assert [type(f) for f in _frames(b, came + ACK_DELAY, A)] == [HeadFrame]
    # A heard our head just now; C gets its heartbeat
    assert [(p, type(decode_frame(d))) for p, d in b.frames_to_send(1.0)] == [(C, HeartbeatFrame)]
    next_beat = came + ACK_DELAY + HEARTBEAT_INTERVAL
    assert not _frames(b, next_beat - 0.01, A)
    assert [type(f) for f in _frames(b, next_beat, A)] == [HeartbeatFrame]


def _heads(rep: Replication, now: float, to: bytes) -> list[object]:
    """The `head` and `heartbeat` frames due to `to` now (what else is due goes too)."""
    return [f for f in _frames(rep, now, to) if isinstance(f, HeadFrame | HeartbeatFrame)]


def test_an_authored_entry_made_at_our_head_stands_for_the_acknowledgement() -> None:
    # The sequencer (A) pushes entry 5; its author (B) applies it and sends its own entry,
    # made at that head, to A first: that tells A B's head, so no `head` frame and no
    # heartbeat follow it, and A learns the head from it (SPEC 8.4).
    a = Replication(CHAIN[:6], [B], now=0.0)
    b = Replication(CHAIN[:5], [A], now=0.0)
    a.frames_to_send(0.0), b.frames_to_send(0.0)  # the first heartbeats
    b.receive(encode_frame(EntriesFrame((CHAIN[5],))), A, 0.1)
    assert _apply_all(b, 0.1) == [CHAIN[5]]
    mine = CHAIN[6].authored()
    assert mine.seen == CHAIN[5].hash == b.head_hash
    b.publish(mine, 0.2, first=A)
    sent = [data for peer, data in b.frames_to_send(0.2) if peer == A]
    assert [type(decode_frame(d)) for d in sent] == [AuthoredFrame]
    assert _heads(b, 0.1 + ACK_DELAY, A) == []  # no acknowledgement
    assert _heads(b, 0.2 + HEARTBEAT_INTERVAL - 0.01, A) == []  # nor a heartbeat yet
    assert [type(f) for f in _heads(b, 0.2 + HEARTBEAT_INTERVAL, A)] == [HeartbeatFrame]
    assert a.status(B).head_seq < 5
    a.receive(sent[0], B, 0.2)
    assert (a.status(B).head_seq, a.status(B).head_hash) == (5, CHAIN[5].hash)


def test_an_authored_entry_made_at_an_older_head_leaves_the_acknowledgement_due() -> None:
    b = Replication(CHAIN[:5], [A], now=0.0)
    b.frames_to_send(0.0)
    b.publish(CHAIN[5].authored(), 0.05, first=A)  # made at entry 4
    b.receive(encode_frame(EntriesFrame((CHAIN[5],))), A, 0.1)
    _apply_all(b, 0.1)  # entry 5 came from A in the meantime
    assert [type(f) for f in _frames(b, 0.1, A)] == [AuthoredFrame]
    assert _heads(b, 0.1 + ACK_DELAY, A) == [HeadFrame(5, CHAIN[5].hash)]


def test_entries_up_to_our_head_stand_for_a_heartbeat() -> None:
    a = _origin(1)
    b = Replication([CHAIN[0]], [A], now=0.0)
    assert [type(f) for f in _frames(a, 0.0, B)] == [HeartbeatFrame]
    a.publish(CHAIN[1], 0.5)
    pushed = [data for peer, data in a.frames_to_send(0.5) if peer == B]
    assert [decode_frame(d) for d in pushed] == [EntriesFrame((CHAIN[1],))]
    assert _frames(a, 1.0, B) == []  # the push told B our head: no heartbeat due at 1.0
    assert [type(f) for f in _frames(a, 0.5 + HEARTBEAT_INTERVAL, B)] == [HeartbeatFrame]
    # B learns A's head from the entries, before it applies them
    b.receive(pushed[0], A, 0.5)
    assert (b.status(A).head_seq, b.status(A).head_hash) == (1, CHAIN[1].hash)


def test_a_head_learnt_from_entries_only_rises() -> None:
    b = Replication([CHAIN[0]], [A], now=0.0)
    b.receive(encode_frame(HeartbeatFrame(3, CHAIN[3].hash)), A, 0.1)
    b.receive(encode_frame(EntriesFrame((CHAIN[1],))), A, 0.2)  # late, or a resend
    assert b.status(A).head_seq == 3
    # a heartbeat says the head itself: lower after a chain cut back (SPEC 6.8)
    b.receive(encode_frame(HeartbeatFrame(2, CHAIN[2].hash)), A, 0.3)
    assert b.status(A).head_seq == 2


def _pushed(rep: Replication, now: float) -> dict[bytes, list[int]]:
    """The seqs pushed to each peer now."""
    out: dict[bytes, list[int]] = {}
    for peer, data in rep.frames_to_send(now):
        frame = decode_frame(data)
        if isinstance(frame, EntriesFrame):
            out.setdefault(peer, []).extend(e.seq for e in frame.entries)
    return out


def test_an_entry_goes_at_once_to_the_seats_that_owe_a_step_to_the_others_a_moment_later() -> None:
    a = Replication([CHAIN[0]], [B, C], now=0.0)
    a.frames_to_send(0.0)
    a.publish(CHAIN[1], 0.1, urgent=[C])
    assert _pushed(a, 0.1) == {C: [1]}
    a.publish(CHAIN[2], 0.15, urgent=[C])
    assert _pushed(a, 0.15) == {C: [2]}
    assert a.get_timer() == pytest.approx(0.1 + PUSH_LATER)
    assert _pushed(a, 0.1 + PUSH_LATER) == {B: [1, 2]}  # both at once, in order
    assert _pushed(a, 5.0) == {}  # nothing twice: B's resend waits for its head, as any push


def test_held_entries_go_first_once_an_entry_is_urgent_for_that_peer() -> None:
    a = Replication([CHAIN[0]], [B, C], now=0.0)
    a.frames_to_send(0.0)
    a.publish(CHAIN[1], 0.1, urgent=[C])
    a.frames_to_send(0.1)
    a.publish(CHAIN[2], 0.12, urgent=[B])
    assert _pushed(a, 0.12) == {B: [1, 2]}
    a.publish(CHAIN[3], 0.13)  # urgent for every peer
    assert _pushed(a, 0.13) == {B: [3], C: [2, 3]}


def test_a_cut_drops_what_was_held_back_beyond_it() -> None:
    a = Replication(CHAIN[:3], [B, C], now=0.0)
    a.frames_to_send(0.0)
    a.publish(CHAIN[3], 0.1, urgent=[C])
    a.frames_to_send(0.1)
    a.cut_back(3, 0.2)
    assert _pushed(a, 1.0) == {}


def test_resend_what_a_peer_has_not_acknowledged() -> None:
    a = _origin(1)
    b = Replication([CHAIN[0]], [A], now=0.0)
    _deliver(b, B, a, A, 0.0)  # a hears b: b is live, at head 0
    a.frames_to_send(0.0)
    for entry in CHAIN[1:4]:
        a.publish(entry, 0.2)
    a.frames_to_send(0.2)  # the push is lost
    assert not [f for f in _frames(a, 0.9, B) if isinstance(f, EntriesFrame)]
    assert a.get_timer() is not None and a.get_timer() <= 1.2  # type: ignore[operator]
    resent = [f for f in _frames(a, 1.2, B) if isinstance(f, EntriesFrame)]
    assert resent == [EntriesFrame(CHAIN[1:4])]
    b.receive(encode_frame(resent[0]), A, 1.21)
    assert _apply_all(b, 1.21) == list(CHAIN[1:4])
    _deliver(b, B, a, A, 1.21)  # the ack
    assert not [f for f in _frames(a, 5.0, B) if isinstance(f, EntriesFrame)]


def test_catch_up_in_bounded_batches() -> None:
    a = Replication(CHAIN, [B], now=0.0)
    b = Replication([CHAIN[0]], [A], now=0.0)
    _deliver(a, A, b, B, 0.0)  # b hears a's head: 100
    assert b.status(A).head_seq == len(CHAIN) - 1
    assert not [f for f in _frames(b, 0.5, A) if isinstance(f, CatchUpFrame)]  # not yet
    asks = [f for f in _frames(b, 1.0, A) if isinstance(f, CatchUpFrame)]
    assert asks == [CatchUpFrame(0)]
    now, rounds = 1.0, 0
    while b.head_seq < a.head_seq:
        a.receive(encode_frame(CatchUpFrame(b.head_seq)), B, now)
        replies = [f for f in _frames(a, now, B) if isinstance(f, EntriesFrame)]
        assert len(replies) == 1 and len(replies[0].entries) <= MAX_BATCH
        b.receive(encode_frame(replies[0]), A, now)
        _apply_all(b, now)
        now += 0.2
        rounds += 1
        if b.head_seq < a.head_seq:  # answered and still behind: ask on at once
            assert [f for f in _frames(b, now, A) if isinstance(f, CatchUpFrame)] == [
                CatchUpFrame(b.head_seq)
            ]
    assert b.chain == CHAIN and rounds == 2


def test_a_catch_up_answer_says_the_answerers_head() -> None:
    """The head an asker knows may be a heartbeat old: the answer brings the answerer's head,
    so that an asker the answer took past the head it knew asks on at once, not a heartbeat
    later."""
    a = Replication(CHAIN, [B], now=0.0)
    b = Replication(CHAIN[:10], [A], now=0.0)
    b.receive(encode_frame(HeartbeatFrame(40, CHAIN[40].hash)), A, 0.0)  # a heartbeat old
    [ask] = [f for f in _frames(b, 1.0, A) if isinstance(f, CatchUpFrame)]
    a.receive(encode_frame(ask), B, 1.0)
    answer = _frames(a, 1.0, B)
    assert [type(f) for f in answer if not isinstance(f, HeartbeatFrame)] == [
        EntriesFrame,
        HeadFrame,
    ]
    for frame in answer:
        b.receive(encode_frame(frame), A, 1.0)  # type: ignore[arg-type]
    _apply_all(b, 1.0)
    assert 40 < b.head_seq < a.head_seq
    assert [f for f in _frames(b, 1.0, A) if isinstance(f, CatchUpFrame)] == [
        CatchUpFrame(b.head_seq)
    ]


def test_a_catch_up_answer_stands_for_the_heartbeat() -> None:
    # the answer ends in our head, which is what a heartbeat would say (SPEC 8.4)
    a = Replication(CHAIN, [B], now=0.0)
    assert [type(f) for f in _frames(a, 0.0, B)] == [HeartbeatFrame]  # the next due at 1.0
    a.receive(encode_frame(CatchUpFrame(10)), B, 0.5)
    assert [type(f) for f in _frames(a, 0.5, B)] == [EntriesFrame, HeadFrame]
    assert _frames(a, 1.0, B) == []
    assert [type(f) for f in _frames(a, 0.5 + HEARTBEAT_INTERVAL, B)] == [HeartbeatFrame]


def test_catch_up_from_any_peer_and_next_one_if_unanswered() -> None:
    b = Replication(CHAIN[:10], [A, C], now=0.0)
    for peer in (A, C):
        b.receive(encode_frame(HeartbeatFrame(40, CHAIN[40].hash)), peer, 0.0)
    asked = [p for p, d in b.frames_to_send(1.0) if isinstance(decode_frame(d), CatchUpFrame)]
    assert len(asked) == 1
    for peer in (A, C):
        b.receive(encode_frame(HeartbeatFrame(40, CHAIN[40].hash)), peer, 1.5)
    again = [p for p, d in b.frames_to_send(2.0) if isinstance(decode_frame(d), CatchUpFrame)]
    assert len(again) == 1 and again != asked  # the first did not answer: ask the other


def test_entries_are_handed_over_in_order_whatever_the_arrival() -> None:
    b = Replication([CHAIN[0]], [A], now=0.0)
    for entry in reversed(CHAIN[1:12]):
        b.receive(encode_frame(EntriesFrame((entry,))), A, 0.0)
    b.receive(encode_frame(EntriesFrame(CHAIN[3:6])), A, 0.0)  # and some twice
    assert _apply_all(b, 0.0) == list(CHAIN[1:12])


def test_the_next_entry_waits_until_the_caller_applied_this_one() -> None:
    b = Replication([CHAIN[0]], [A], now=0.0)
    b.receive(encode_frame(EntriesFrame(CHAIN[1:3])), A, 0.0)
    first = b.next_event()
    assert isinstance(first, EntryReceived) and first.entry == CHAIN[1]
    assert b.next_event() is None  # not applied yet
    b.applied(CHAIN[1], 0.0)
    second = b.next_event()
    assert isinstance(second, EntryReceived) and second.entry == CHAIN[2]


def test_a_refused_entry_gives_way_to_the_other_candidate() -> None:
    honest = CHAIN[1]
    forged = honest.countersigned(bytes(64))
    b = Replication([CHAIN[0]], [A, MALLORY], now=0.0)
    b.receive(encode_frame(EntriesFrame((forged,))), MALLORY, 0.0)
    b.receive(encode_frame(EntriesFrame((honest,))), A, 0.0)
    got = []
    for event in b.events():
        assert isinstance(event, EntryReceived)
        got.append(event.peer)
        if event.entry.countersig == bytes(64):  # what a Session would say
            b.rejected(event.peer, RemoteProtocolError(Reason.BAD_COUNTERSIGNATURE, "forged"))
        else:
            b.applied(event.entry, 0.0)
    assert b.chain == CHAIN[:2] and set(got) == {A, MALLORY}
    assert b.status(MALLORY).bad_frames == 1 and b.status(A).bad_frames == 0


def test_a_conflicting_entry_is_reported() -> None:
    b = Replication(CHAIN[:3], [A], now=0.0)
    other = dataclasses.replace(CHAIN[2], seq=1, prev=CHAIN[1].prev)
    b.receive(encode_frame(EntriesFrame((other,))), A, 0.0)
    assert _events(b) == [ConflictReceived(A, other, CHAIN[1])]
    assert b.chain == CHAIN[:3]


def test_cut_back_after_an_equivocation() -> None:
    rep = Replication(CHAIN[:20], [A], now=0.0)
    rep.cut_back(12, 1.0)
    assert rep.chain == CHAIN[:12] and rep.head_hash == CHAIN[11].hash
    rep.receive(encode_frame(EntriesFrame(CHAIN[12:14])), A, 1.0)
    assert _apply_all(rep, 1.0) == list(CHAIN[12:14])  # the next entry 12 is taken again
    with pytest.raises(LocalProtocolError):
        rep.cut_back(0, 2.0)  # the genesis stays


def test_a_peer_on_another_chain_is_not_fed() -> None:
    a = Replication(CHAIN[:20], [B], now=0.0)
    a.receive(encode_frame(HeadFrame(5, CHAIN[6].hash)), B, 0.0)
    assert a.status(B).diverged
    assert not [f for f in _frames(a, 5.0, B) if isinstance(f, EntriesFrame)]


STEP = 0.01
"""The simulated clock's step in the catch-up tests below (a frame arrives within one)."""


def _as_a_session_would(rep: Replication, now: float) -> None:
    """Take what the replication hands over as a Session would, on chains whose entries carry
    no meaning: a conflict whose prev is ours replaces our entry there (a sequencer change,
    SPEC 7.5), any other is ignored; an entry after the head is applied if it follows it, and
    refused as not following otherwise (and the replication told, as the live node does)."""
    for event in rep.events():
        if isinstance(event, ConflictReceived):
            seq = event.entry.seq
            if event.entry.prev == rep.chain[seq - 1].hash:
                rep.cut_back(seq, now)
                rep.applied(event.entry, now)
        elif isinstance(event, EntryReceived):
            if event.entry.prev == rep.head_hash:
                rep.applied(event.entry, now)
            else:
                rep.rejected(event.peer, RemoteProtocolError(Reason.WRONG_PREV, "", seq=0))
                rep.forked()


def _parted(depth: int) -> tuple[Replication, Replication]:
    """A (the peers' chain, CHAIN) and b, whose last `depth` entries are not the peers'
    (countersigned by nobody: a sequencer that stopped made them, SPEC 7.5), b having heard
    a's head at time 0."""
    cut = len(CHAIN) - 1 - depth
    parted = [*CHAIN[:cut], *(e.countersigned(bytes(64)) for e in CHAIN[cut:-1])]
    a = Replication(CHAIN, [B], now=0.0)
    b = Replication(parted, [A], now=0.0)
    b.receive(encode_frame(HeartbeatFrame(a.head_seq, a.head_hash)), A, 0.0)
    return a, b


def _catch_up(
    a: Replication, b: Replication, until: float, lose: frozenset[int] = frozenset()
) -> list[tuple[float, int]]:
    """Run the two on a simulated clock until b holds a's chain (or `until`): (time, after)
    of every catch-up b asked. The asks numbered in `lose` (from 0) are lost on the way."""
    now, asks = 0.0, []
    while b.chain != a.chain and now < until:
        for frame in [d for p, d in b.frames_to_send(now) if p == A]:
            decoded = decode_frame(frame)
            if isinstance(decoded, CatchUpFrame):
                asks.append((now, decoded.after))
                if len(asks) - 1 in lose:
                    continue
            a.receive(frame, B, now)
        _deliver(a, A, b, B, now)
        _as_a_session_would(b, now)
        now = round(now + STEP, 2)
    return asks


@pytest.mark.parametrize("depth", [1, 3, MAX_BATCH + 6, len(CHAIN) - 2])
def test_a_peer_whose_chain_parted_further_back_catches_up_in_a_few_round_trips(
    depth: int,
) -> None:
    """A sequencer stopped after making entries its peers never saw, and was replaced: its
    chain ends in `depth` entries the others' chain holds differently. Asking after its head
    brings an entry that does not follow it; it asks at once for the batch that ends at its
    head, and each answer narrows the place where the chains part, until the peers' entry
    there comes as a conflict its Session acts on (SPEC 8.4): a few tenths of a second of
    the simulated clock after the first ask (one ask a second, 1, 2, 4 ... entries further
    back each time, took seconds)."""
    a, b = _parted(depth)
    asks = _catch_up(a, b, until=30.0)
    assert b.chain == CHAIN
    first = asks[0][0]
    assert first == CATCH_UP_AFTER  # the usual wait before the first ask
    assert asks[-1][0] - first <= 0.5, asks
    assert all(0 <= after <= len(CHAIN) - 1 for _, after in asks)
    assert len(asks) <= 9, asks


def test_a_lost_ask_where_the_chains_part_is_sent_again_within_a_quarter_second() -> None:
    """The first ask from further back is lost (a stopped peer's links come back, and ZeroMQ
    may lose a frame across a reconnect): it goes again PARTED_RETRY later, not a second."""
    a, b = _parted(3)
    asks = _catch_up(a, b, until=30.0, lose=frozenset({1}))
    assert b.chain == CHAIN
    assert asks[2][0] - asks[1][0] == pytest.approx(PARTED_RETRY)
    assert asks[-1][0] - asks[0][0] <= 0.5 + PARTED_RETRY, asks


def test_a_peer_that_sends_entries_that_never_follow_gets_a_bounded_number_of_asks() -> None:
    """A hostile peer says its head is far ahead and sends, every step of the clock, an entry
    after our head that does not follow it: the first refusal makes the next catch-up go
    out at once, and the asks nothing answers go again a little sooner than a second, a few
    times; the same refusal again changes nothing (the asks go out as if nothing had been
    refused, one a second), never from below the genesis, and not all of them to that peer
    while another one is ahead too."""
    b = Replication(CHAIN[:40], [MALLORY, A], now=0.0)
    bad = dataclasses.replace(CHAIN[40], prev=bytes(32))
    now, asks = 0.0, []
    while now < 10.0:
        b.receive(encode_frame(EntriesFrame((bad,))), MALLORY, now)
        for peer in (MALLORY, A):
            b.receive(encode_frame(HeartbeatFrame(len(CHAIN) - 1, CHAIN[-1].hash)), peer, now)
        _as_a_session_would(b, now)
        for peer, data in b.frames_to_send(now):
            frame = decode_frame(data)
            if isinstance(frame, CatchUpFrame):
                asks.append((peer, frame.after))
        now = round(now + STEP, 2)
    assert b.chain == CHAIN[:40]
    assert len(asks) <= 10.0 / CATCH_UP_AFTER + 1 + PARTED_RETRIES
    assert all(0 <= after <= 39 for _, after in asks)
    assert len([p for p, _ in asks if p == A]) >= len(asks) // 2


def test_a_conflict_made_stale_by_a_cut_is_not_handed_over_as_one() -> None:
    """Entries 17-19 came as conflicts in one answer; the first took its place (the Session
    cut the chain there and applied it): the next one is no conflict any more but the entry
    after the head, handed over as such, and the one for a place the chain now holds with
    that very entry is dropped."""
    parted = [*CHAIN[:17], *(e.countersigned(bytes(64)) for e in CHAIN[17:20])]
    b = Replication(parted, [A], now=0.0)
    b.receive(encode_frame(EntriesFrame(CHAIN[17:20])), A, 0.0)
    b.receive(encode_frame(EntriesFrame(CHAIN[17:18])), A, 0.0)
    first = b.next_event()
    assert isinstance(first, ConflictReceived) and first.entry == CHAIN[17]
    b.cut_back(17, 0.1)
    b.applied(CHAIN[17], 0.1)
    assert [(type(e), e.entry) for e in _events(b)] == [(EntryReceived, CHAIN[18])]  # type: ignore[union-attr]
    b.applied(CHAIN[18], 0.1)
    assert [(type(e), e.entry) for e in _events(b)] == [(EntryReceived, CHAIN[19])]  # type: ignore[union-attr]


class _FreezesTheDealer(Table):
    """In the second hand's first betting round the dealer goes quiet (what it sends reaches
    nobody) and goes on sequencing what reaches it; once its chain holds an entry nobody saw
    it is stopped (nothing reaches it either), a copy of its session kept in `frozen`. The
    others replace it by their votes and play on (SPEC 7.5)."""

    def __init__(self, players: int, **kwargs: Any) -> None:
        self.quiet: int | None = None
        self.frozen: Session | None = None
        super().__init__(players, **kwargs)

    def _deliver(self, seat: int, item: Any) -> None:
        if self.frozen is not None and seat == self.quiet:
            return
        super()._deliver(seat, item)
        if self.quiet is None:
            first = self.sessions[0]
            hand = first.hand
            if first.hand_number == 2 and hand is not None and hand.phase is Phase.BETTING:
                self.quiet = hand.dealer
                self.muted.add(hand.dealer)
        elif self.frozen is None:
            mine = self.sessions[self.quiet]
            if mine.ledger.head_seq >= len(self.transcript):
                self.frozen = copy.deepcopy(mine, {id(e): e for e in mine.ledger.entries})


def _frozen_dealer(seed: int) -> tuple[Session, tuple[Entry, ...]]:
    """The stopped dealer's session and the chain the others went on with."""
    r = random.Random(seed)
    table = _FreezesTheDealer(4, seed=seed, rng=r.randbytes, samples=20)
    assert table.play(2) == 2
    assert table.frozen is not None
    return table.frozen, tuple(table.transcript)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_stopped_dealer_let_go_catches_up_through_its_session(seed: int) -> None:
    """The dealer's real Session, stopped with an entry of its own its peers never saw, let go
    once the others have replaced it and played the hand on: driven as the live node drives
    it (an entry after its head that does not follow is refused and `forked` told; a
    conflict the Session adopts, cutting its chain there, goes into the replication's chain
    too), it holds the others' chain a few tenths of a second of the simulated clock after
    its first ask (one ask a second took two seconds more)."""
    session, chain = _frozen_dealer(seed)
    mine = session.ledger.entries
    parts = next(i for i, e in enumerate(mine) if e.hash != chain[i].hash)
    assert parts == len(mine) - 1 and chain[parts].kind == k.SequencerChange.KIND
    a = Replication(chain, [B], now=0.0)
    b = Replication(mine, [A], now=0.0)
    # let go long after it was stopped, its node tells its session the time before anything
    # that came meanwhile: it slept through its clock, so it takes its replacement (SPEC 7.9)
    st = session.state
    session.note_time(st.clock.now + 10 * st.config.action_clock)
    now, asks = 0.0, []
    while now < 10.0 and (b.chain != chain or session.ledger.head_hash != chain[-1].hash):
        _deliver(a, A, b, B, now)
        for _, data in b.frames_to_send(now):
            if isinstance(decode_frame(data), CatchUpFrame):
                asks.append(now)
            a.receive(data, B, now)
        for event in b.events():
            adopted = None
            try:
                if isinstance(event, EntryReceived):
                    out = session.receive(event.entry)
                    b.applied(event.entry, now)
                elif isinstance(event, ConflictReceived):
                    out, adopted = session.receive(event.entry), event.entry
                else:
                    continue
            except RemoteProtocolError as exc:
                b.rejected(event.peer, exc)
                if exc.reason is Reason.WRONG_PREV and exc.seq == b.head_seq + 1:
                    b.forked()
                continue
            for ev in out.events:
                if isinstance(ev, ChainCut):
                    b.cut_back(ev.seq, now)
                    if adopted is not None and adopted.seq == ev.seq:
                        b.applied(adopted, now)
        now = round(now + STEP, 2)
    assert b.chain == chain and session.ledger.entries == chain
    assert asks[0] == CATCH_UP_AFTER and asks[-1] - asks[0] <= 0.5, asks


def test_a_refused_next_entry_does_not_rewind_a_peer_that_is_not_behind() -> None:
    """A bad entry after the head from a hostile peer (its prev wrong) makes a peer that is
    not behind ask nobody for anything."""
    b = Replication(CHAIN[:20], [A], now=0.0)
    b.forked()
    assert not [f for f in _frames(b, 5.0) if isinstance(f, CatchUpFrame)]


# --- authored entries, refusals, broadcast items -------------------------------------------------


def test_authored_entry_resent_until_sequenced() -> None:
    author = Replication(CHAIN[:5], [A, C], now=0.0)
    authored = CHAIN[5].authored()
    author.publish(authored, 0.0)
    first = [p for p, d in author.frames_to_send(0.0) if b'"type":"authored"' in d]
    assert sorted(first) == [A, C]  # to every peer
    assert not [d for _, d in author.frames_to_send(0.5) if b'"type":"authored"' in d]
    assert len([d for _, d in author.frames_to_send(1.0) if b'"type":"authored"' in d]) == 2
    author.applied(CHAIN[5], 1.5)  # sequenced: same author signature
    assert author.pending_authored() == ()
    assert not [d for _, d in author.frames_to_send(9.0) if b'"type":"authored"' in d]


def _authored_to(rep: Replication, now: float) -> list[bytes]:
    return sorted(p for p, d in rep.frames_to_send(now) if b'"type":"authored"' in d)


def test_authored_entry_to_its_sequencer_first_then_to_every_peer() -> None:
    author = Replication(CHAIN[:5], [A, C], now=0.0)
    author.publish(CHAIN[5].authored(), 0.0, first=C)
    assert _authored_to(author, 0.0) == [C]  # the sequencer at once, the witnesses not yet
    assert _authored_to(author, WITNESS_AFTER - 0.01) == []
    assert author.get_timer() == WITNESS_AFTER
    assert _authored_to(author, WITNESS_AFTER) == [A, C]  # not sequenced by then: everyone
    assert _authored_to(author, WITNESS_AFTER + 0.5) == []
    assert _authored_to(author, WITNESS_AFTER + AUTHORED_RESEND) == [A, C]


def test_an_authored_entry_sequenced_at_once_costs_one_frame() -> None:
    author = Replication(CHAIN[:5], [A, C], now=0.0)
    author.publish(CHAIN[5].authored(), 0.0, first=C)
    assert _authored_to(author, 0.0) == [C]
    author.applied(CHAIN[5], 0.1)
    assert _authored_to(author, 9.0) == []


def test_an_authored_entry_published_again_goes_to_every_peer_at_once() -> None:
    # the Session sends an entry again when the witnesses must hold it now (a false refusal,
    # a vote against the sequencer, SPEC 7.1, 7.5)
    author = Replication(CHAIN[:5], [A, C], now=0.0)
    authored = CHAIN[5].authored()
    author.publish(authored, 0.0, first=C)
    assert _authored_to(author, 0.0) == [C]
    author.publish(authored, 0.1, first=C)
    assert _authored_to(author, 0.1) == [A, C]


def test_an_authored_entry_for_an_unknown_first_peer_goes_to_every_peer() -> None:
    author = Replication(CHAIN[:5], [A, C], now=0.0)
    author.publish(CHAIN[5].authored(), 0.0, first=b"gone")
    assert _authored_to(author, 0.0) == [A, C]
    other = Replication(CHAIN[:5], [A, C], now=0.0)
    other.publish(CHAIN[5].authored(), 0.0, to=[A], first=C)  # `to` leaves the sequencer out
    assert _authored_to(other, 0.0) == [A]


def test_authored_entry_withdrawn_when_refused_or_hand_over() -> None:
    first_of_hand1 = next(e for e in CHAIN if e.hand == 1)
    author = Replication(CHAIN[:2], [A], now=0.0)
    one = CHAIN[2].authored()
    never = AuthoredEntry.create(
        identity(9),
        game=CHAIN[0].game,
        hand=0,
        author=1,
        body=k.Leave(),
        counter=1,
        seen=CHAIN[1].hash,
    )
    author.publish(one, 0.0)
    author.publish(never, 0.0)
    author.withdraw(one.sig)
    assert author.pending_authored() == (never.sig,)
    for entry in CHAIN[2 : first_of_hand1.seq]:
        author.applied(entry, 1.0)
    assert author.pending_authored() == (never.sig,)  # hand 0 still
    author.applied(first_of_hand1, 1.0)
    assert author.pending_authored() == ()  # its hand is over


def test_every_authored_copy_and_refusal_is_handed_over() -> None:
    rep = Replication(CHAIN[:10], [A], now=0.0)
    authored = CHAIN[5].authored()
    frame = encode_frame(decode_frame(b'{"type":"authored","v":1}\n' + authored.encode() + b"\n"))
    rep.receive(frame, A, 0.0)
    rep.receive(frame, A, 0.1)
    refusal = Refusal.create(identity(0), 0, 9, authored, Reason.ILLEGAL_ACTION, "no")
    rep.publish(refusal, 0.2)
    sent = [d for _, d in rep.frames_to_send(0.2) if b'"type":"refusal"' in d]
    assert len(sent) == 1 and not [d for _, d in rep.frames_to_send(5.0) if b"refusal" in d]
    rep.receive(sent[0], A, 0.3)
    assert [type(e) for e in _events(rep)] == [
        AuthoredReceived,
        AuthoredReceived,
        RefusalReceived,
    ]


def test_a_refusal_waits_for_the_head_it_was_made_at() -> None:
    rep = Replication(CHAIN[:6], [A], now=0.0)
    authored = CHAIN[7].authored()
    refusal = Refusal.create(identity(0), 0, 8, authored, Reason.ILLEGAL_ACTION, "a resend")
    rep.receive(encode_frame(RefusalFrame(refusal)), A, 0.0)
    assert _events(rep) == []  # entry 7, the sequenced one, comes first
    rep.receive(encode_frame(EntriesFrame(CHAIN[6:9])), A, 0.1)
    kinds = []
    for event in rep.events():
        kinds.append(type(event))
        if isinstance(event, EntryReceived):
            rep.applied(event.entry, 0.1)
    assert kinds == [EntryReceived, EntryReceived, EntryReceived, RefusalReceived]


def test_an_authored_entry_of_the_next_hand_waits_for_its_hand_start() -> None:
    """A peer that applied the next hand_start first authors in that hand at once: its
    entry reaches a chain still in the hand before, which has no place for it yet, and goes
    up once the hand_start is applied (a hand_start itself goes up at once: it opens the
    hand, SPEC 6.6)."""
    start = next(i for i, e in enumerate(CHAIN) if e.hand == 1)
    assert isinstance(CHAIN[start].body, k.HandStart)
    early = CHAIN[start + 1].authored()
    assert early.hand == 1 and early.kind != k.HandStart.KIND
    rep = Replication(CHAIN[:start], [A, B], now=0.0)
    rep.receive(encode_frame(AuthoredFrame(early)), B, 0.0)
    assert not rep.ready() and _events(rep) == []
    rep.receive(encode_frame(AuthoredFrame(CHAIN[start].authored())), A, 0.0)
    [opening] = _events(rep)
    assert isinstance(opening, AuthoredReceived) and opening.entry.kind == k.HandStart.KIND
    rep.receive(encode_frame(EntriesFrame((CHAIN[start],))), A, 0.1)
    entry = rep.next_event()
    assert isinstance(entry, EntryReceived) and rep.next_event() is None
    rep.applied(entry.entry, 0.1)
    assert rep.ready()
    assert _events(rep) == [AuthoredReceived(B, early)]


def test_broadcast_resent_with_backoff_until_the_hand_moves_on() -> None:
    first_of_hand1 = next(e for e in CHAIN if e.hand == 1)
    rep = Replication(CHAIN[:2], [A], now=0.0)
    rep.publish(BroadcastFrame("vote", 0, b'{"seat":2}'), 0.0)
    times = [
        t
        for t in (0.0, 0.5, 1.0, 2.0, 3.0, 5.0, 7.0, 9.0, 15.0, 17.0, 23.0)
        if [d for _, d in rep.frames_to_send(t) if b'"broadcast"' in d]
    ]
    assert times == [0.0, 1.0, 3.0, 7.0, 15.0, 23.0]  # after 1, 2, 4, then every 8 s
    for entry in CHAIN[2 : first_of_hand1.seq + 1]:
        rep.applied(entry, 24.0)
    assert not [d for _, d in rep.frames_to_send(31.0) if b'"broadcast"' in d]
    rep.publish(BroadcastFrame("vote", 0, b'{"seat":1}'), 32.0)  # a stale item is not sent
    assert not [d for _, d in rep.frames_to_send(32.0) if b'"broadcast"' in d]


def test_broadcast_item_handed_over_once() -> None:
    rep = Replication(CHAIN[:10], [A, C], now=0.0)
    vote = encode_frame(BroadcastFrame("vote", 1, b'{"seat":2}'))
    other = encode_frame(BroadcastFrame("vote", 1, b'{"seat":3}'))
    for peer, data in ((A, vote), (C, vote), (A, vote), (A, other)):
        rep.receive(data, peer, 0.0)
    events = _events(rep)
    assert [type(e) for e in events] == [BroadcastReceived, BroadcastReceived]


def test_lobby_frames_are_passed_on() -> None:
    rep = Replication((), [A], now=0.0)
    frame = LobbyFrame("roster", b'{"players":[]}')
    rep.receive(encode_frame(frame), A, 0.0)
    assert _events(rep) == [LobbyReceived(A, frame)]
    assert _frames(rep, 0.0) == [HeartbeatFrame(-1, bytes(32))]


# --- whole hands over a bad network --------------------------------------------------------------


def test_a_clean_network_costs_few_frames() -> None:
    net = SimNet(3, Conditions(), seed=1)
    net.run(1)
    chains = net.chains()
    assert chains[0] == chains[1] == chains[2]
    assert net.lost == 0 and net.sent < 10 * len(chains[0])


def test_a_three_second_link_down_mid_hand() -> None:
    net = SimNet(3, Conditions(outage=(0.4, 3.4)), seed=3)
    net.run(1)
    chains = net.chains()
    assert chains[0] == chains[1] == chains[2] and net.lost > 0


@settings(
    max_examples=5,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    seed=st.integers(0, 2**32 - 1),
    loss=st.floats(0.0, 0.3),
    dup=st.floats(0.0, 0.3),
    max_delay=st.floats(0.001, 0.5),
    mallory=st.booleans(),
)
def test_every_honest_peer_ends_with_the_same_chain(
    seed: int, loss: float, dup: float, max_delay: float, mallory: bool
) -> None:
    net = SimNet(3, Conditions(loss, dup, max_delay), seed, mallory=mallory)
    net.run(1)
    chains = net.chains()
    assert chains[0] == chains[1] == chains[2]
    for p in net.peers:
        assert p.session.complete
        if mallory:
            assert p.rep.status(MALLORY).bad_frames > 0
        for other in net.peers:
            if other is not p:
                assert p.rep.status(other.id).bad_frames == 0


def test_frame_counts_helper() -> None:
    rep = Replication([CHAIN[0]], [A], now=0.0)
    assert count_frames(rep.frames_to_send(0.0)) == {"heartbeat": 1}


# --- the module stays pure -----------------------------------------------------------------------

PURE = ("replication.py", "wire.py", "keys.py", "errors.py", "schema.py")
FORBIDDEN = {"socket", "time", "datetime", "random", "secrets", "asyncio", "threading", "os"}
FORBIDDEN |= {"subprocess", "select", "selectors", "zmq", "zeroconf"}


@pytest.mark.parametrize("name", PURE)
def test_pure_modules_import_no_io(name: str) -> None:
    path = Path(__file__).resolve().parents[2] / "p2pwillow" / "net" / name
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            imported.add(node.module.split(".")[0])
    assert not imported & FORBIDDEN, f"{name} imports {sorted(imported & FORBIDDEN)}"


def test_a_peer_on_another_chain_names_no_resend_time() -> None:
    # B's head was at 15 (pushed up to there), then a head of its own at 5: a chain that parts
    # from ours, which is never fed. The replication's next time must not be a resend it will
    # not make: a time in the past would have the live node's loop pass again at once, again
    # and again, for as long as the peer stays so (a seat burned a core for ten seconds)
    a = Replication(CHAIN[:20], [B], now=0.0)
    a.receive(encode_frame(HeadFrame(15, CHAIN[15].hash)), B, 0.0)
    a.receive(encode_frame(HeadFrame(5, CHAIN[6].hash)), B, 0.0)
    assert a.status(B).diverged
    for now in (0.5, 1.5, 2.5):
        assert not [f for f in _frames(a, now, B) if isinstance(f, EntriesFrame)]
        due = a.get_timer()
        assert due is not None and due > now, (now, due)
