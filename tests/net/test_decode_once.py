"""A body read once (SPEC 7.1): the sequenced entry that carries the very bytes of an authored
entry's body takes the body already read, and nothing else does: another byte, another kind,
bytes the memo never read or has dropped are read in full and refused as before."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from net_helpers import hand_transcript

from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.bodies import MEMO_BODY_BYTES, BodyMemo, authored_body_bytes
from p2pwillow.ledger.canonical import dump_checked
from p2pwillow.ledger.entry import Entry, decode_authored, decode_entry
from p2pwillow.ledger.errors import Reason, RemoteProtocolError
from p2pwillow.ledger.identity import Identity
from p2pwillow.net import wire
from p2pwillow.net.errors import WireError
from p2pwillow.net.wire import AuthoredFrame, EntriesFrame, decode_frame, encode_frame
from p2pwillow.session import Session

ENTRIES = hand_transcript()
LINES = [e.encode() for e in ENTRIES]
SHUFFLE = next(i for i, e in enumerate(ENTRIES) if e.kind == "deck_shuffle" and e.author != 0)
CHECK = next(i for i, e in enumerate(ENTRIES) if e.kind == "check")


def _memo_of(*seqs: int) -> BodyMemo:
    memo = BodyMemo()
    for seq in seqs:
        decode_authored(ENTRIES[seq].authored().encode(), memo)
    return memo


def _outcome(line: bytes, memo: BodyMemo | None) -> Entry | str:
    try:
        return decode_entry(line, memo)
    except RemoteProtocolError as exc:
        return f"{exc.reason}: {exc}"


def _observer(upto: int) -> Session:
    """An observer that has applied the transcript before entry `upto`."""
    session = Session(None, None, ENTRIES[0])
    for entry in ENTRIES[1:upto]:
        session.receive(entry)
    return session


def _flip(line: bytes, at: int) -> bytes:
    """`line` with the lowercase hex digit at `at` changed to another one (still canonical)."""
    digit = line[at : at + 1]
    assert digit in b"0123456789abcdef"
    other = b"1" if digit == b"0" else b"0"
    return line[:at] + other + line[at + 1 :]


def test_the_body_bytes_are_what_the_line_holds() -> None:
    for entry in ENTRIES:
        raw = entry.authored().encode()
        authored = decode_authored(raw)
        body = authored_body_bytes(raw, authored)
        assert body == dump_checked(entry.body.to_json())
        assert raw.count(body) >= 1


def test_an_entry_with_the_authored_body_takes_it_and_is_the_same_entry() -> None:
    memo = _memo_of(*range(len(ENTRIES)))
    for seq, line in enumerate(LINES[-len(memo) :], start=len(ENTRIES) - len(memo)):
        hits = memo.hits
        entry = decode_entry(line, memo)
        assert memo.hits == hits + 1
        assert entry == ENTRIES[seq] and entry.encode() == line and entry.hash == ENTRIES[seq].hash
        authored = decode_authored(ENTRIES[seq].authored().encode(), memo)
        assert entry.body is authored.body or entry.body == authored.body


def test_the_memo_never_answers_for_bytes_it_has_not_read() -> None:
    empty = BodyMemo()
    assert empty.read_with(LINES[SHUFFLE], k.KINDS) is None
    others = _memo_of(*(s for s in range(1, len(ENTRIES)) if s != SHUFFLE))
    assert others.read_with(LINES[SHUFFLE], k.KINDS) is None
    assert decode_entry(LINES[SHUFFLE], others) == ENTRIES[SHUFFLE]
    assert others.hits == 0


def test_one_byte_of_body_changed_under_the_authentic_signature_is_read_and_refused() -> None:
    memo = _memo_of(SHUFFLE)
    line = LINES[SHUFFLE]
    proof = line.index(b'"proof":"') + len(b'"proof":"') + 10
    forged = _flip(line, proof)
    entry = decode_entry(forged, memo)
    assert memo.hits == 0  # the signature named the candidate; the bytes did not match
    assert entry == decode_entry(forged)
    assert entry.sig == ENTRIES[SHUFFLE].sig and entry.body != ENTRIES[SHUFFLE].body
    with pytest.raises(RemoteProtocolError) as refused:
        _observer(SHUFFLE).receive(entry)
    assert refused.value.reason is Reason.BAD_SIGNATURE
    # the authentic one, read with the memo, is applied
    assert decode_entry(line, memo) == ENTRIES[SHUFFLE] and memo.hits == 1
    _observer(SHUFFLE).receive(decode_entry(line, memo))


def test_the_envelope_is_read_and_checked_fresh() -> None:
    """Same body bytes, another countersignature or seq: the body is taken, the rest is not."""
    memo = _memo_of(SHUFFLE)
    line = LINES[SHUFFLE]
    countersig = line.index(b'"countersig":"') + len(b'"countersig":"') + 3
    forged = decode_entry(_flip(line, countersig), memo)
    assert memo.hits == 1 and forged.countersig != ENTRIES[SHUFFLE].countersig
    with pytest.raises(RemoteProtocolError) as refused:
        _observer(SHUFFLE).receive(forged)
    assert refused.value.reason is Reason.BAD_COUNTERSIGNATURE
    seq = ENTRIES[SHUFFLE].seq
    moved = line.replace(b'"seq":%d,' % seq, b'"seq":%d,' % (seq + 1))
    entry = decode_entry(moved, memo)
    assert entry.seq == seq + 1 and entry.body == ENTRIES[SHUFFLE].body
    with pytest.raises(RemoteProtocolError) as refused:
        _observer(SHUFFLE).receive(entry)
    assert refused.value.reason is Reason.WRONG_SEQ


def test_the_same_bytes_under_another_kind_are_read_as_that_kind() -> None:
    memo = _memo_of(CHECK)
    line = LINES[CHECK]
    assert ENTRIES[CHECK].body.to_json() == {}
    as_fold = line.replace(b'"kind":"check"', b'"kind":"fold"')
    entry = decode_entry(as_fold, memo)
    assert isinstance(entry.body, k.Fold) and memo.hits == 0
    with pytest.raises(RemoteProtocolError) as refused:
        _observer(CHECK).receive(entry)
    assert refused.value.reason is Reason.BAD_SIGNATURE


def test_what_the_memo_refuses_is_refused_with_the_error_a_full_read_gives() -> None:
    memo = _memo_of(SHUFFLE)
    line = LINES[SHUFFLE]
    cases = [
        line.replace(b',"counter":', b', "counter":'),  # whitespace in the envelope
        line.replace(b'"hand":', b'"hand":0'),  # a number not in canonical form
        line.replace(b'"seen":"', b'"seen":"00'),  # a hash of the wrong length
        line.replace(b'"v":1}', b'"v":2}'),
        line[:-1],
        line + b"x",
        line.replace(b'{"author":', b'{"author":"x","author2":'),
        line.replace(b'"countersig":', b'"countersig2":'),
    ]
    for bad in cases:
        with pytest.raises(RemoteProtocolError) as without:
            decode_entry(bad)
        with pytest.raises(RemoteProtocolError) as with_memo:
            decode_entry(bad, memo)
        assert (with_memo.value.reason, str(with_memo.value)) == (
            without.value.reason,
            str(without.value),
        )
    assert memo.hits == 0


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_lines_read_the_same_with_and_without_the_memo(data: st.DataObject) -> None:
    seq = data.draw(st.sampled_from([SHUFFLE, CHECK, len(ENTRIES) - 1]))
    memo = _memo_of(seq)
    line = bytearray(LINES[seq])
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(line) - 1))
        line[at] = data.draw(st.integers(0, 255))
    assert _outcome(bytes(line), memo) == _outcome(bytes(line), None)


def test_the_bound_holds_under_a_flood() -> None:
    memo = BodyMemo(entries=16)
    rng = random.Random(7)
    mallory = Identity.generate(rng.randbytes)
    template = ENTRIES[SHUFFLE].authored()
    first = None
    for counter in range(300):
        flood = type(template).create(
            mallory,
            game=template.game,
            hand=template.hand,
            author=template.author,
            body=template.body,
            counter=counter,
            seen=template.seen,
        )
        first = first or flood
        decode_authored(flood.encode(), memo)
        assert len(memo) <= 16 and memo.size <= 16 * MEMO_BODY_BYTES
    assert len(memo) == 16
    # the oldest went first: the first one flooded in is no longer answered for
    assert first is not None
    placed = first.sequence(ENTRIES[SHUFFLE].seq, ENTRIES[SHUFFLE].prev, mallory)
    assert memo.read_with(placed.encode(), k.KINDS) is None
    # a body larger than the bound for one body is not kept at all
    tiny = BodyMemo(entries=16, body_bytes=100)
    decode_authored(template.encode(), tiny)
    assert len(tiny) == 0 and tiny.size == 0
    memo.clear()
    assert len(memo) == 0 and memo.size == 0


def test_the_wire_memo_is_bounded_and_reads_entries_frames_once() -> None:
    memo = wire.BODIES
    before = memo.hits
    authored = ENTRIES[SHUFFLE].authored()
    assert decode_frame(encode_frame(AuthoredFrame(authored))) == AuthoredFrame(authored)
    frame = EntriesFrame((ENTRIES[SHUFFLE],))
    assert decode_frame(encode_frame(frame)) == frame
    assert memo.hits == before + 1
    longer = decode_frame(encode_frame(frame).replace(b'"proof":"', b'"proof":"00', 1))
    assert isinstance(longer, EntriesFrame)
    assert longer.entries[0].body != ENTRIES[SHUFFLE].body
    with pytest.raises(WireError):
        decode_frame(encode_frame(frame).replace(b'"proof":"', b'"proof":"0', 1))
    assert memo.hits == before + 1
    for seq in range(len(ENTRIES)):
        decode_frame(encode_frame(AuthoredFrame(ENTRIES[seq].authored())))
    assert len(memo) <= memo.max_entries
    assert memo.size <= memo.max_entries * memo.body_bytes
