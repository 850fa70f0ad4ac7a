"""A newcomer's admission (SPEC 6.6, 6.7): after a `join`, every seated player, the newcomer
included, compares the new safety code and admits it before it plays; one refusal keeps it out.
Played through real sessions at an in-process table."""

from __future__ import annotations

import pytest
from session_helpers import new_table

from p2pwillow.ledger import AuthoredEntry, Entry, Identity, Reason, RemoteProtocolError
from p2pwillow.ledger import kinds as k
from p2pwillow.rules import IllegalAction, TableConfig
from p2pwillow.table import Table
from p2pwillow.verify import Verdict, verify_transcript

FOUR_SEATS = TableConfig(seats=4)


def _joined(seed: int = 3) -> tuple[Table, Identity]:
    """Three bots play a hand at a table of four; a newcomer joins seat 3, its admission open."""
    table = new_table(3, seed=seed, config=FOUR_SEATS)
    assert table.play(1) == 1
    newcomer = Identity.generate(table._rng)
    table.join(3, "Mallory", newcomer, admit=False)
    return table, newcomer


def _verdict(table: Table) -> Verdict:
    return verify_transcript(b"".join(e.encode() + b"\n" for e in table.transcript)).verdict


def _hand_start(table: Table) -> Entry:
    """The next dealer's hand start, placed by the sequencer as if nothing were open."""
    first = table.sessions[0]
    ledger = first.ledger
    dealer = first.game.next_button()
    session = table.sessions[dealer]
    players = [k.SeatStack(seat=p.seat, stack=p.stack) for p in first.game.players if p.plays]
    authored = AuthoredEntry.create(
        table.identities[dealer],
        game=first.game_id,
        hand=ledger.hand + 1,
        author=dealer,
        body=k.HandStart(dealer=dealer, players=players),
        counter=max(session.signed) + 1,
        seen=ledger.head_hash,
    )
    sequencer = first.sequencer
    return authored.sequence(ledger.head_seq + 1, ledger.head_hash, table.identities[sequencer])


def test_a_newcomer_plays_once_everyone_seated_has_admitted_it() -> None:
    table, newcomer = _joined()
    first = table.sessions[0]
    admission = first.admission
    assert admission is not None and admission.seat == 3 and admission.name == "Mallory"
    assert admission.identity_key == newcomer.public_key
    assert admission.waiting(first.ledger.identities) == (0, 1, 2, 3)
    # the code everyone compares is the one over the seats with the newcomer (SPEC 6.7)
    assert len({s.ledger.safety_code() for s in table.sessions}) == 1
    # no hand starts, for anyone, while it is open
    dealer = first.game.next_button()
    with pytest.raises(IllegalAction, match="comparing the new safety code"):
        table.sessions[dealer].start_hand()
    assert [d.seat for d in first.due()] == [0, 1, 2, 3]
    for seat in (3, 0, 2):  # the newcomer answers too, in any order
        table.admit(seat)
        assert first.admission is not None
    with pytest.raises(IllegalAction, match="admitted the newcomer already"):
        table.sessions[0].admit()
    table.admit(1)
    assert first.admission is None
    admits = [e for e in first.ledger.entries if isinstance(e.body, k.Admit)]
    assert sorted(e.author for e in admits) == [0, 1, 2, 3]
    assert table.play(1) == 1
    assert 3 in first.summaries[-1].seats, "the newcomer is dealt in once admitted"
    assert table.rejections == []
    assert _verdict(table) is not Verdict.INVALID


def test_one_refusal_keeps_the_newcomer_out_and_says_who_and_why() -> None:
    table, newcomer = _joined()
    first = table.sessions[0]
    table.admit(0)
    table.refuse(2, "the safety codes did not match")
    assert first.admission is None
    assert 3 not in first.ledger.identities, "its seat is free again"
    assert first.ledger.refused(newcomer.public_key) == (2, "the safety codes did not match")
    # it leaves with what it brought: chips are conserved against the buy-ins (SPEC 3.11)
    count = first.game.check_chips()
    assert count.left == FOUR_SEATS.starting_stack
    assert table.play(1) == 1
    assert 3 not in first.summaries[-1].seats, "a refused newcomer is dealt no card"
    assert table.rejections == []
    assert _verdict(table) is not Verdict.INVALID
    # the seat can be taken again, by someone admitted this time
    table.join(3, "Bob")
    assert table.play(1) == 1
    assert 3 in first.summaries[-1].seats


def test_the_newcomer_may_refuse_itself() -> None:
    table, newcomer = _joined()
    table.refuse(3, "the safety codes did not match")
    first = table.sessions[0]
    assert 3 not in first.ledger.identities
    assert first.ledger.refused(newcomer.public_key) == (3, "the safety codes did not match")
    assert table.play(1) == 1


def test_no_hand_and_no_other_join_while_an_admission_is_open() -> None:
    table, _ = _joined()
    start = _hand_start(table)
    for session in table.sessions[:3]:
        with pytest.raises(RemoteProtocolError) as info:
            session.receive(start)
        assert info.value.reason is Reason.BAD_SEATING
        assert "have not answered seat 3's admission" in info.value.detail
    # a transcript that deals while the admission is open does not verify
    report = verify_transcript(b"".join(e.encode() + b"\n" for e in [*table.transcript, start]))
    assert report.verdict is Verdict.INVALID and report.error is not None
    assert report.error.line == start.seq + 1


def test_an_answer_to_another_join_or_a_second_one_is_refused() -> None:
    table, _ = _joined()
    first = table.sessions[0]
    ledger = first.ledger
    join = ledger.admission
    assert join is not None
    table.admit(1)
    for author, body in (
        (2, k.Admit(seat=3, join="00" * 32)),
        (2, k.Refuse(seat=2, join=join.join.hex(), reason="no")),
        (1, k.Admit(seat=3, join=join.join.hex())),
    ):
        authored = AuthoredEntry.create(
            table.identities[author],
            game=first.game_id,
            hand=ledger.hand,
            author=author,
            body=body,
            counter=max(table.sessions[author].signed) + 1,
            seen=ledger.head_hash,
        )
        placed = authored.sequence(
            ledger.head_seq + 1, ledger.head_hash, table.identities[first.sequencer]
        )
        with pytest.raises(RemoteProtocolError) as info:
            table.sessions[2].receive(placed)
        assert info.value.reason is Reason.BAD_SEATING, info.value


def test_a_leave_closes_what_it_owed() -> None:
    """A seated player who leaves owes no answer; the newcomer leaving ends its admission."""
    table, _ = _joined()
    first = table.sessions[0]
    for seat in (0, 1, 3):
        table.admit(seat)
    assert first.admission is not None
    table.leave(2)
    assert first.admission is None
    assert table.play(1) == 1 and 3 in first.summaries[-1].seats

    table, _ = _joined(seed=4)
    first = table.sessions[0]
    table.leave(3)
    assert first.admission is None
    assert table.play(1) == 1


def test_nobody_is_timed_out_for_taking_time_to_compare() -> None:
    """The witnessed clock does not act on an admission (SPEC 7.5): a person comparing the
    code for many action clocks is accused of nothing; 8.9 bounds the admission instead."""
    table, _ = _joined()
    first = table.sessions[0]
    head = first.ledger.head_hash
    for _ in range(6):
        table.tick(FOUR_SEATS.action_clock + 1)
    assert first.ledger.head_hash == head, "no timeout, no sequencer change"
    assert first.admission is not None
    table.admit(0)
    table.admit(1)
    table.admit(2)
    table.admit(3)
    assert table.play(1) == 1


def test_a_sequencer_silent_during_an_admission_is_replaced() -> None:
    """The clock still accuses a sequencer that sits on admissions it was sent (SPEC 7.5):
    the seat that takes over places them and the newcomer plays."""
    table, _ = _joined()
    first = table.sessions[0]
    sequencer = first.sequencer
    table.muted.add(sequencer)
    others = [s for s in (0, 1, 2, 3) if s != sequencer]
    for seat in others:
        table.admit(seat)
    assert first.admission is not None
    for _ in range(8):
        table.tick(FOUR_SEATS.action_clock + 1)
        watcher = table.sessions[others[0]]
        if watcher.sequencer != sequencer:
            break
    watcher = table.sessions[others[0]]
    assert watcher.sequencer != sequencer, "replaced"
    assert any(isinstance(e.body, k.SequencerChange) for e in watcher.ledger.entries)
    # what the new sequencer sent the silent one before its change cannot be placed any more
    # (its change holds a higher counter): it is due again, and written again (SPEC 7.1, 7.5)
    new = watcher.sequencer
    assert table.sessions[new].answer_due
    table.admit(new)
    admitted = {e.author for e in watcher.ledger.entries if isinstance(e.body, k.Admit)}
    assert set(others) <= admitted
    assert not any(table.sessions[s].answer_due for s in others)
