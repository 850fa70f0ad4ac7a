"""The chain (SPEC 6.5-6.9): order, links, seating, sequencers, equivocation, transcripts."""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import re

import pytest
from ledger_helpers import (
    GAME,
    IDS,
    OTHER_GAME,
    SEATS,
    VOTES,
    Table,
    genesis_body,
    play_hand,
    valid_game,
)

from p2pwillow.games import plain
from p2pwillow.ledger import (
    GENESIS_PREV,
    Entry,
    Equivocation,
    Ledger,
    Reason,
    RemoteProtocolError,
    decode_transcript,
    encode_transcript,
    find_equivocation,
    next_seat_clockwise,
    replay,
    safety_code,
)
from p2pwillow.ledger import kinds as k

GAME_ENTRIES = valid_game().ledger.entries


def _replay_fails(entries: list[Entry], reason: Reason, game: bytes | None = None) -> None:
    with pytest.raises(RemoteProtocolError) as info:
        replay(entries, game)
    assert info.value.reason is reason, info.value


def test_valid_game_replays() -> None:
    ledger = replay(GAME_ENTRIES, GAME)
    assert len(ledger) == len(GAME_ENTRIES)
    assert ledger.head_hash == GAME_ENTRIES[-1].hash
    assert [e.prev for e in GAME_ENTRIES[1:]] == [e.hash for e in GAME_ENTRIES[:-1]]
    assert GAME_ENTRIES[0].prev == GENESIS_PREV == bytes(32)
    assert ledger.hand == 2 and ledger.sequencer == 2
    assert dict(ledger.identities) == {s: IDS[s].public_key for s in range(SEATS)}
    assert ledger.seated == frozenset(range(SEATS))
    assert ledger.hand_ended_by == GAME_ENTRIES[-SEATS - 1].hash


def test_empty_ledger() -> None:
    ledger = Ledger()
    assert ledger.head_seq == -1 and ledger.head_hash == GENESIS_PREV and ledger.genesis is None


@pytest.mark.parametrize("index", [0, 1, 5, 20, len(GAME_ENTRIES) - 2])
def test_deleted_entry_rejected(index: int) -> None:
    entries = list(GAME_ENTRIES)
    del entries[index]
    _replay_fails(entries, Reason.WRONG_SEQ)


@pytest.mark.parametrize("index", [0, 3, 20, len(GAME_ENTRIES) - 1])
def test_duplicated_entry_rejected(index: int) -> None:
    entries = list(GAME_ENTRIES)
    entries.insert(index + 1, entries[index])
    _replay_fails(entries, Reason.WRONG_SEQ)


@pytest.mark.parametrize("index", [1, 10, 30])
def test_swapped_entries_rejected(index: int) -> None:
    entries = list(GAME_ENTRIES)
    entries[index], entries[index + 1] = entries[index + 1], entries[index]
    _replay_fails(entries, Reason.WRONG_SEQ)


def test_foreign_game_rejected() -> None:
    other = Table(OTHER_GAME)
    other.seat_everyone()
    play_hand(other)
    assert other.ledger[10].seq == GAME_ENTRIES[10].seq
    entries = [*GAME_ENTRIES[:10], other.ledger[10], *GAME_ENTRIES[11:]]
    _replay_fails(entries, Reason.WRONG_GAME)
    _replay_fails(list(GAME_ENTRIES), Reason.WRONG_GAME, game=OTHER_GAME)


def test_relinked_entry_rejected() -> None:
    """An entry given another seq and prev (but the old countersignature) is refused."""
    table = valid_game()
    last = table.add(3, plain("check"))
    fake = dataclasses.replace(last, seq=last.seq + 1, prev=last.hash)
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(fake)
    assert info.value.reason is Reason.BAD_COUNTERSIGNATURE


def test_wrong_prev_rejected() -> None:
    table = valid_game()
    entry = table.make(2, plain("check"), prev=hashlib.sha256(b"elsewhere").digest())
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(entry)
    assert info.value.reason is Reason.WRONG_PREV


def test_wrong_author_key_rejected() -> None:
    table = valid_game()
    entry = table.make(3, plain("bet", amount=25), key=IDS[1])  # seat 3's entry signed by seat 1
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(entry)
    assert info.value.reason is Reason.BAD_SIGNATURE
    assert info.value.author == 3 and info.value.kind == "bet"


def test_stranger_rejected() -> None:
    table = valid_game()
    authored = table.authored(5, plain("check"), key=IDS[5])
    entry = authored.sequence(table.ledger.head_seq + 1, table.ledger.head_hash, IDS[2])
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(entry)
    assert info.value.reason is Reason.UNKNOWN_AUTHOR


@pytest.mark.parametrize("sequencer", [0, 1, 3])
def test_only_the_dealer_sequences(sequencer: int) -> None:
    table = valid_game()  # hand 2 is dealt by seat 2
    entry = table.make(3, plain("check"), sequencer=sequencer)
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(entry)
    assert info.value.reason is Reason.BAD_COUNTERSIGNATURE
    table.ledger.check_next(entry, sequencer_seat=sequencer)  # an explicit sequencer is obeyed


def test_zero_countersignature_rejected() -> None:
    table = valid_game()
    good = table.make(3, plain("check"))
    bad = good.countersigned(bytes(64))
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(bad)
    assert info.value.reason is Reason.BAD_COUNTERSIGNATURE


def test_explicit_identities_are_used() -> None:
    table = valid_game()
    entry = table.make(3, plain("check"))
    swapped = {**table.ledger.identities, 3: IDS[0].public_key}
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(entry, identities=swapped)
    assert info.value.reason is Reason.BAD_SIGNATURE


# --- seating -----------------------------------------------------------------------------------


def test_genesis_must_come_first_and_be_signed_by_a_seated_player() -> None:
    table = Table()
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(table.make(0, plain("check"), hand=0, sequencer=0))
    assert info.value.reason is Reason.BAD_SEATING
    outsider = table.make(5, genesis_body(), hand=0, key=IDS[5], sequencer=0)
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(outsider)
    assert info.value.reason is Reason.BAD_SEATING
    late = table.make(0, genesis_body(), hand=1)
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(late)
    assert info.value.reason is Reason.BAD_SEATING


def test_second_genesis_rejected() -> None:
    table = Table()
    table.seat_everyone()
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(table.make(0, genesis_body()))
    assert info.value.reason is Reason.BAD_SEATING


def test_seat_acceptance_rules() -> None:
    table = Table()
    table.add(0, genesis_body(), hand=0)
    wrong = table.make(1, k.SeatAcceptance(genesis="00" * 32))
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(wrong)
    assert info.value.reason is Reason.BAD_SEATING
    table.add(1, k.SeatAcceptance(genesis=table.ledger.hash_of(0).hex()))
    again = table.make(1, k.SeatAcceptance(genesis=table.ledger.hash_of(0).hex()))
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(again)
    assert info.value.reason is Reason.BAD_SEATING
    # hand 1 cannot start until every seat has accepted
    start = table.make(0, k.HandStart(dealer=0, players=[k.SeatStack(seat=0, stack=1)]), hand=1)
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(start)
    assert info.value.reason is Reason.BAD_SEATING
    # nothing but seating happens in hand 0
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(table.make(0, plain("bet", amount=5)))
    assert info.value.reason is Reason.WRONG_HAND


def test_hand_numbers() -> None:
    table = valid_game()
    stacks = [k.SeatStack(seat=s, stack=1000) for s in range(SEATS)]
    for hand in (2, 4):
        entry = table.make(3, k.HandStart(dealer=3, players=stacks), hand=hand)
        with pytest.raises(RemoteProtocolError) as info:
            table.ledger.check_next(entry)
        assert info.value.reason is Reason.WRONG_HAND
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(table.make(0, plain("check"), hand=3))
    assert info.value.reason is Reason.WRONG_HAND
    not_dealer = table.make(3, k.HandStart(dealer=2, players=stacks), hand=3, sequencer=2)
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(not_dealer)
    assert info.value.reason is Reason.BAD_SEATING
    strangers = [*stacks, k.SeatStack(seat=7, stack=1)]
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(table.make(3, k.HandStart(dealer=3, players=strangers), hand=3))
    assert info.value.reason is Reason.BAD_SEATING


def test_head_signatures() -> None:
    table = Table()
    table.seat_everyone()
    play_hand(table)
    ending = table.ledger.hand_ended_by
    assert ending is not None
    again = table.make(0, k.HeadSignature(head=ending.hex()))
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(again)
    assert info.value.reason is Reason.WRONG_HAND
    table2 = Table()
    table2.seat_everyone()
    table2.add(
        1, k.HandStart(dealer=1, players=[k.SeatStack(seat=s, stack=9) for s in (0, 1)]), hand=1
    )
    early = table2.make(0, k.HeadSignature(head=table2.ledger.head_hash.hex()))
    with pytest.raises(RemoteProtocolError) as info:
        table2.ledger.check_next(early)
    assert info.value.reason is Reason.WRONG_HAND
    end = table2.add(1, k.HandEnd(players=[k.SeatStack(seat=s, stack=9) for s in (0, 1)]))
    wrong = table2.make(0, k.HeadSignature(head=table2.ledger.head_hash.hex()))
    table2.ledger.check_next(wrong)  # the head is the hand_end here, so this one is right
    outsider = table2.make(2, k.HeadSignature(head=end.hash.hex()))
    with pytest.raises(RemoteProtocolError) as info:
        table2.ledger.check_next(outsider)
    assert info.value.reason is Reason.WRONG_HAND
    table2.add(0, k.HeadSignature(head=end.hash.hex()))
    stale = table2.make(1, k.HeadSignature(head=table2.ledger.head_hash.hex()))
    with pytest.raises(RemoteProtocolError) as info:
        table2.ledger.check_next(stale)
    assert info.value.reason is Reason.WRONG_HAND


def test_join_and_leave() -> None:
    table = valid_game()
    genesis = table.ledger.hash_of(0).hex()
    joiner = k.Join(
        name="Late Larry", identity_key=IDS[4].public_key.hex(), genesis=genesis, buy_in=1000
    )
    taken = table.make(2, joiner, key=IDS[4])
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(taken)
    assert info.value.reason is Reason.BAD_SEATING
    forged = table.make(5, joiner, key=IDS[5])  # signed with a key other than the one it names
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(forged)
    assert info.value.reason is Reason.BAD_SIGNATURE
    table.add(5, joiner, key=IDS[4])
    assert table.ledger.identities[5] == IDS[4].public_key
    table.add(1, k.Leave())
    assert 1 not in table.ledger.identities
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(table.make(1, plain("check")))
    assert info.value.reason is Reason.UNKNOWN_AUTHOR
    stacks = [k.SeatStack(seat=s, stack=1000) for s in (0, 2, 3, 5)]
    start = k.HandStart(dealer=3, players=stacks)
    # SPEC 6.6: no hand starts before every seated player has admitted the newcomer
    admission = table.ledger.admission
    assert admission is not None and admission.seat == 5
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(table.make(3, start, hand=3))
    assert info.value.reason is Reason.BAD_SEATING
    join = admission.join.hex()
    for seat in (0, 2, 5, 3):
        assert table.ledger.admission is not None
        key = IDS[4] if seat == 5 else None
        table.add(seat, k.Admit(seat=5, join=join), **({"key": key} if key else {}))
    assert table.ledger.admission is None
    table.add(3, start, hand=3)
    table.add(5, plain("check"), key=IDS[4])
    assert replay(table.ledger.entries).head_hash == table.ledger.head_hash


def test_a_refused_newcomer_loses_its_seat() -> None:
    """SPEC 6.6: one `refuse` frees the newcomer's seat, even from a seat that admitted it;
    answers to another join, a second admit and an answer with no admission open are
    bad-seating."""
    table = valid_game()
    genesis = table.ledger.hash_of(0).hex()
    joiner = k.Join(name="Mal", identity_key=IDS[4].public_key.hex(), genesis=genesis, buy_in=1)
    table.add(5, joiner, key=IDS[4])
    admission = table.ledger.admission
    assert admission is not None
    join = admission.join.hex()
    table.add(2, k.Admit(seat=5, join=join))
    for seat, body in (
        (2, k.Admit(seat=5, join=join)),
        (0, k.Admit(seat=5, join="00" * 32)),
        (0, k.Admit(seat=4, join=join)),
    ):
        with pytest.raises(RemoteProtocolError) as info:
            table.ledger.check_next(table.make(seat, body))
        assert info.value.reason is Reason.BAD_SEATING, body
    other = k.Join(name="Eve", identity_key=IDS[5].public_key.hex(), genesis=genesis, buy_in=1)
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(table.make(4, other, key=IDS[5]))
    assert info.value.reason is Reason.BAD_SEATING, "one newcomer at a time"
    # a seat that admitted may still refuse (the admission took too long)
    table.add(2, k.Refuse(seat=5, join=join, reason="the safety codes did not match"))
    assert 5 not in table.ledger.identities and table.ledger.admission is None
    assert table.ledger.refused(IDS[4].public_key) == (2, "the safety codes did not match")
    assert table.ledger.departed(5) == IDS[4].public_key
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(table.make(0, k.Admit(seat=5, join=join)))
    assert info.value.reason is Reason.BAD_SEATING
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(table.make(5, plain("check"), key=IDS[4]))
    assert info.value.reason is Reason.UNKNOWN_AUTHOR
    stacks = [k.SeatStack(seat=s, stack=1000) for s in range(4)]
    table.add(3, k.HandStart(dealer=3, players=stacks), hand=3)
    assert replay(table.ledger.entries).head_hash == table.ledger.head_hash


# --- counters and seen heads (SPEC 6.4, 6.5) ----------------------------------------------------


def test_a_signed_entry_placed_again_is_replayed() -> None:
    """The author's counter rises over the game: its own signed call placed a second time, or
    an older one placed after a newer, is refused, though both signatures verify."""
    table = valid_game()
    table.add(
        2, k.HandStart(dealer=2, players=[k.SeatStack(seat=s, stack=900) for s in range(4)]), hand=3
    )
    call = table.add(3, plain("call"))
    again = call.authored().sequence(table.ledger.head_seq + 1, table.ledger.head_hash, IDS[2])
    assert again.verify_author(IDS[3].public_key) and again.verify_countersig(IDS[2].public_key)
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(again)
    assert info.value.reason is Reason.REPLAYED and info.value.author == 3
    older = table.make(0, plain("check"), counter=table.ledger.last_counter(IDS[0].public_key))
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(older)
    assert info.value.reason is Reason.REPLAYED
    gap = table.make(0, plain("check"), counter=table.ledger.last_counter(IDS[0].public_key) + 50)
    table.ledger.append(gap)  # counters need not be consecutive, only rising


def test_a_counter_belongs_to_the_identity_not_the_seat() -> None:
    table = valid_game()
    table.add(1, k.Leave())
    last = table.ledger.last_counter(IDS[1].public_key)
    assert last > 0
    genesis = table.ledger.hash_of(0).hex()
    back = k.Join(name="Player 1", identity_key=IDS[1].public_key.hex(), genesis=genesis, buy_in=0)
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(table.make(5, back, key=IDS[1], counter=last))
    assert info.value.reason is Reason.REPLAYED
    table.add(5, back, key=IDS[1], counter=last + 1)
    assert table.ledger.last_counter(IDS[1].public_key) == last + 1


def test_seen_names_an_entry_of_the_current_hand() -> None:
    table = valid_game()
    old = table.ledger.hash_of(5)  # an entry of an earlier hand
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(table.make(0, k.Leave(), seen=old))
    assert info.value.reason is Reason.WRONG_SEEN
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(table.make(0, k.Leave(), seen=bytes(32)))
    assert info.value.reason is Reason.WRONG_SEEN
    start = k.HandStart(dealer=2, players=[k.SeatStack(seat=s, stack=900) for s in range(4)])
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(table.make(2, start, hand=3, seen=old))
    assert info.value.reason is Reason.WRONG_SEEN  # a hand start follows from the last hand
    # made at an earlier head of the hand it follows, sequenced later: the ledger lets it pass
    table.ledger.check_next(table.make(2, start, hand=3, seen=table.ledger.hash_of(40)))
    opened = table.add(2, start, hand=3)
    bet = table.add(0, plain("bet", amount=25))
    table.ledger.append(table.make(1, plain("call"), seen=opened.hash))  # the ledger lets it pass
    assert table.ledger.seq_of_seen(bet.hash) == bet.seq


def test_a_head_signature_has_seen_the_head_it_signs() -> None:
    table = Table()
    table.seat_everyone()
    stacks = [k.SeatStack(seat=s, stack=9) for s in (0, 1)]
    start = table.add(1, k.HandStart(dealer=1, players=stacks), hand=1)
    end = table.add(1, k.HandEnd(players=stacks))
    signature = k.HeadSignature(head=end.hash.hex())
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(table.make(0, signature, seen=start.hash))
    assert info.value.reason is Reason.WRONG_SEEN
    table.add(0, signature)


# --- equivocation ------------------------------------------------------------------------------


def _forked() -> tuple[Table, Entry, Entry]:
    """Hand 2 (dealer 2); the dealer sequences two different entries at the same seq."""
    table = valid_game()
    table.add(
        2,
        k.HandStart(dealer=2, players=[k.SeatStack(seat=s, stack=1000) for s in range(4)]),
        hand=3,
    )
    table.add(0, plain("bet", amount=25))
    shown_to_a = table.make(1, plain("call"))
    shown_to_b = table.make(1, plain("fold"))
    table.ledger.append(shown_to_a)
    return table, shown_to_a, shown_to_b


def test_equivocation_detected_and_proved() -> None:
    table, first, second = _forked()
    proof = table.ledger.conflict(second)
    assert isinstance(proof, Equivocation)
    assert (proof.sequencer, proof.first, proof.second) == (2, first, second)
    assert table.ledger.conflict(first) is None  # the same entry again is no conflict
    # the fork is cut, and the next seat clockwise from the dealer sequences the proof
    cut = table.ledger.prefix(first.seq)
    assert cut.head_hash == first.prev and cut.expected_sequencer(first) == 2
    table.ledger = cut
    entry = table.make(0, proof)
    assert table.ledger.expected_sequencer(entry) == 3
    table.ledger.append(entry)
    abort = table.add(3, k.Abort(blamed=[2], reason="the dealer equivocated", votes=[]))
    assert table.ledger.sequencer == 3 and table.ledger.hand_ended_by == abort.hash
    assert replay(table.ledger.entries).head_hash == table.ledger.head_hash


def test_conflicts_that_prove_nothing() -> None:
    table, first, second = _forked()
    key = IDS[2].public_key
    assert find_equivocation(first, first, 2, key) is None
    assert find_equivocation(first, second, 2, IDS[0].public_key) is None
    other_seq = dataclasses.replace(second, seq=second.seq + 1)
    assert find_equivocation(first, other_seq, 2, key) is None
    # an entry countersigned by someone else is a forgery, not the dealer's equivocation
    forged = table.make(1, plain("fold"), seq=first.seq, prev=first.prev, sequencer=0)
    assert table.ledger.conflict(forged) is None
    assert table.ledger.conflict(table.make(1, plain("fold"))) is None  # a later seq: no conflict


@pytest.mark.parametrize("flaw", ["same", "forged", "wrong-seat", "wrong-seq"])
def test_bogus_equivocation_proofs_rejected(flaw: str) -> None:
    table, first, second = _forked()
    table.ledger = table.ledger.prefix(first.seq)
    forged = table.make(1, plain("fold"), seq=first.seq, prev=first.prev, sequencer=0)
    body = {
        "same": k.Equivocation(sequencer=2, first=first, second=first),
        "forged": k.Equivocation(sequencer=2, first=first, second=forged),
        "wrong-seat": k.Equivocation(sequencer=0, first=first, second=second),
        "wrong-seq": k.Equivocation(sequencer=2, first=first, second=second),
    }[flaw]
    if flaw == "wrong-seq":
        table.ledger.append(table.make(0, plain("check")))
    entry = table.make(0, body)
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(entry)
    assert info.value.reason is Reason.NOT_EQUIVOCATION


def test_next_seat_clockwise() -> None:
    assert next_seat_clockwise([0, 2, 5], 2) == 5
    assert next_seat_clockwise([0, 2, 5], 5) == 0
    assert next_seat_clockwise([0, 2, 5], 3) == 5
    assert next_seat_clockwise([4], 4) == 4


# --- transcript and safety code -----------------------------------------------------------------


def test_transcript_round_trip() -> None:
    data = encode_transcript(GAME_ENTRIES)
    assert data.count(b"\n") == len(GAME_ENTRIES) and data.endswith(b"\n")
    assert data.split(b"\n")[0] == GAME_ENTRIES[0].encode()
    assert decode_transcript(data) == list(GAME_ENTRIES)


@pytest.mark.parametrize(
    ("mutate", "line"),
    [
        (lambda d: d[:-1], None),
        (lambda d: b"", None),
        (lambda d: d.replace(b"\n", b"\r\n", 1), 1),
        (lambda d: d + b"\n", len(GAME_ENTRIES) + 1),
        (lambda d: d.replace(b'"seq":3,', b'"seq": 3,'), 4),
    ],
)
def test_transcript_rejections(mutate: object, line: int | None) -> None:
    data = encode_transcript(GAME_ENTRIES)
    with pytest.raises(RemoteProtocolError) as info:
        decode_transcript(mutate(data))  # type: ignore[operator]
    if line is not None:
        assert f"line {line}:" in info.value.detail


def test_safety_code_matches_spec() -> None:
    keys = {s: IDS[s].public_key for s in range(SEATS)}
    code = safety_code(GAME, keys)
    assert re.fullmatch(r"[A-Z2-7]{5}(-[A-Z2-7]{5}){3}", code)
    # SPEC 6.7, independently
    data = b"p2pwillow/v1/safety-code\x00" + bytes([16]) + GAME
    data += b"".join(bytes([s]) + keys[s] for s in sorted(keys))
    text = base64.b32encode(hashlib.sha256(data).digest()).decode()[:20]
    assert code == "-".join(text[i : i + 5] for i in range(0, 20, 5))
    assert safety_code(GAME, dict(reversed(keys.items()))) == code
    assert safety_code(OTHER_GAME, keys) != code
    assert safety_code(GAME, {**keys, 3: IDS[4].public_key}) != code
    assert safety_code(GAME, {**keys, 0: keys[1], 1: keys[0]}) != code
    assert valid_game().ledger.safety_code() == code


def test_signatures_made_here_skip_only_their_own_check() -> None:
    # The caller vouches only for a signature it has just made itself (SPEC 6.5): the other
    # signature of the entry is still verified.
    table = valid_game()
    good = table.make(3, plain("check"))
    no_countersig = good.countersigned(bytes(64))
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(no_countersig, author_signed_here=True)
    assert info.value.reason is Reason.BAD_COUNTERSIGNATURE
    no_sig = dataclasses.replace(good, sig=bytes(64), countersig=good.sig)
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(no_sig, countersigned_here=True)
    assert info.value.reason is Reason.BAD_SIGNATURE
    table.ledger.check_next(good, author_signed_here=True, countersigned_here=True)
    table.ledger.check_next(good)


# --- who countersigns a hand start (SPEC 6.6) -------------------------------------------------


def _next_hand() -> tuple[Table, k.HandStart]:
    table = valid_game()  # hand 2 was dealt by seat 2, which sequences between hands
    return table, k.HandStart(dealer=3, players=[k.SeatStack(seat=s, stack=1000) for s in range(4)])


def test_the_sequencer_countersigns_the_next_dealers_hand_start() -> None:
    table, start = _next_hand()
    assert table.ledger.sequencer == 2
    entry = table.make(3, start, hand=3)
    assert table.ledger.expected_sequencer(entry) == 2
    assert entry.verify_countersig(IDS[2].public_key)
    table.ledger.append(entry)
    assert table.ledger.sequencer_of(entry.seq) == 2  # it countersigned the hand start
    assert table.ledger.sequencer == 3  # and the new hand's dealer sequences the hand
    check = table.add(0, plain("check"))
    assert check.verify_countersig(IDS[3].public_key)
    assert replay(table.ledger.entries).sequencer == 3


def test_a_hand_start_countersigned_by_its_own_dealer_is_rejected() -> None:
    """A next dealer that is not the sequencer cannot place its own hand start: its
    countersignature does not verify as the sequencer's, in a live check and in a replay."""
    table, start = _next_hand()
    tampered = table.make(3, start, hand=3, sequencer=3)
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(tampered)
    assert info.value.reason is Reason.BAD_COUNTERSIGNATURE
    assert "sequencer 2" in info.value.detail
    _replay_fails([*table.ledger.entries, tampered], Reason.BAD_COUNTERSIGNATURE)
    # the same hand start, countersigned by the sequencer, is the one that comes next
    table.ledger.append(table.make(3, start, hand=3))


def test_a_hand_start_in_a_game_end_s_place_is_no_equivocation() -> None:
    """The sequencer put a game end at a place; the next dealer's self-countersigned hand start
    for the same place proves nothing against anyone and cannot follow the chain."""
    table, start = _next_hand()
    rival = table.make(3, start, hand=3, sequencer=3)
    stacks = [k.SeatStack(seat=s, stack=1000) for s in range(4)]
    end = table.add(0, k.GameEnd(players=stacks))
    assert rival.seq == end.seq
    assert table.ledger.conflict(rival) is None
    assert find_equivocation(end, rival, 2, IDS[2].public_key) is None


def test_the_dealer_countersigns_its_hand_start_when_it_sequences() -> None:
    """After a sequencer change made the next dealer the sequencer, it countersigns its own."""
    table, start = _next_hand()
    table.add(3, k.SequencerChange(replaced=[2], votes=VOTES))
    assert table.ledger.sequencer == 3
    entry = table.make(3, start, hand=3)
    assert table.ledger.expected_sequencer(entry) == 3
    table.ledger.append(entry)
    assert table.ledger.sequencer == 3


def test_a_sequencer_that_leaves_hands_sequencing_on() -> None:
    """SPEC 6.6: the leave of the sequencer is its own to countersign; the seat that takes over
    from it (the next clockwise in the ring) sequences what follows."""
    table, _ = _next_hand()
    leave = table.add(2, k.Leave())
    assert table.ledger.sequencer_of(leave.seq) == 2
    assert table.ledger.sequencer == 3
    start = k.HandStart(dealer=3, players=[k.SeatStack(seat=s, stack=1000) for s in (0, 1, 3)])
    forged = table.make(3, start, hand=3, sequencer=0)
    with pytest.raises(RemoteProtocolError) as info:
        table.ledger.check_next(forged)
    assert info.value.reason is Reason.BAD_COUNTERSIGNATURE
    table.add(3, start, hand=3)
    assert replay(table.ledger.entries).sequencer == 3
    # the last seat of the ring leaves: the seated players' next clockwise takes over
    other, _ = _next_hand()
    genesis = other.ledger.hash_of(0).hex()
    joiner = k.Join(
        name="Late Larry", identity_key=IDS[4].public_key.hex(), genesis=genesis, buy_in=1000
    )
    other.add(5, joiner, key=IDS[4])
    for seat in (0, 1, 3, 2):
        other.add(seat, k.Leave())
    assert other.ledger.ring == () and other.ledger.sequencer == 5


def test_fingerprint_matches_spec() -> None:
    """SPEC 6.2: 4 base32 characters of SHA-256 over the tag and the identity key; the same
    key always gives the same fingerprint, and a name is shown with it."""
    from p2pwillow.ledger.identity import fingerprint, named

    key = IDS[0].public_key
    digest = hashlib.sha256(b"p2pwillow/v1/fingerprint\x00" + key).digest()
    expected = base64.b32encode(digest).decode("ascii")[:4]
    assert fingerprint(key) == expected
    assert len({fingerprint(i.public_key) for i in IDS}) == len(IDS)
    assert named("Bob", key) == f"Bob #{expected}"
    assert named("Bob", key.hex()) == f"Bob #{expected}"
    assert named("Bob", "not a key") == "Bob"
