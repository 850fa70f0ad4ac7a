"""The game's end through real sessions (SPEC 6.6, 7.3, 7.6): a seated player ends the game
between hands with every stack, every seated player signs it, nothing follows it, a silent
player's signature is excused by the witnessed clock, and a transcript cut anywhere before the
last signature is not a closed game."""

from __future__ import annotations

import pytest
from session_helpers import new_table, observer

from p2pwillow.ledger import AuthoredEntry, Body, Reason, RemoteProtocolError
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.entry import Entry
from p2pwillow.rules import IllegalAction
from p2pwillow.table import Table
from p2pwillow.verify import Verdict, verify_transcript


def _played(hands: int = 1, players: int = 3, seed: int = 21) -> Table:
    table = new_table(players, seed=seed)
    assert table.play(hands) == hands
    return table


def _forged(table: Table, author: int, body: Body) -> Entry:
    """`body` by `author`, signed by its own key and sequenced by the current sequencer right
    after the head: an entry only the session's checks can refuse."""
    first = table.sessions[0]
    ledger = first.ledger
    authored = AuthoredEntry.create(
        table.identities[author],
        game=ledger.game or b"",
        hand=ledger.hand,
        author=author,
        body=body,
        counter=10**6,
        seen=ledger.head_hash,
    )
    sequencer = table.identities[first.sequencer]
    return authored.sequence(ledger.head_seq + 1, ledger.head_hash, sequencer)


def _refused(table: Table, entry: Entry, reason: Reason, says: str) -> None:
    """Every peer refuses `entry` for `reason`; its author's own session refuses it first as
    an entry in its name it did not sign there (SPEC 7.1)."""
    for seat, session in enumerate(table.sessions):
        with pytest.raises(RemoteProtocolError) as caught:
            session.receive(entry)
        if seat == entry.author:
            assert caught.value.reason is Reason.BAD_SIGNATURE, caught.value
            continue
        assert caught.value.reason is reason, caught.value
        assert says in caught.value.detail


def test_a_game_ended_and_signed_by_all_is_complete() -> None:
    table = _played()
    first = table.sessions[0]
    assert not first.complete and first.between_hands
    assert {w.step for w in first.missing} == {"game_end"}
    table.end_game(1)
    ends = [e for e in first.ledger.entries if e.kind == "game_end"]
    assert len(ends) == 1 and ends[0].author == 1
    stacks = [(p.seat, p.stack) for p in ends[0].body.players]  # type: ignore[attr-defined]
    assert stacks == [(p.seat, p.stack) for p in first.game.players]
    signed = [e for e in first.ledger.entries[ends[0].seq + 1 :] if e.kind == "head_signature"]
    assert sorted(e.author for e in signed) == [0, 1, 2]
    assert all(s.ended and s.complete and not s.missing for s in table.sessions)
    assert observer(table.lines).complete
    assert verify_transcript(b"".join(table.lines)).verdict is Verdict.VALID


def test_nothing_starts_after_the_game_end() -> None:
    table = _played()
    table.end_game()
    dealer = table.sessions[0].game.next_button()
    with pytest.raises(IllegalAction, match="the game has ended"):
        table.sessions[dealer].start_hand()
    with pytest.raises(IllegalAction, match="the game has ended"):
        table.sessions[2].end_game()
    players = [k.SeatStack(seat=p.seat, stack=p.stack) for p in table.sessions[0].game.players]
    start = _forged(table, dealer, k.HandStart(dealer=dealer, players=players))
    for seat, session in enumerate(table.sessions):
        with pytest.raises(RemoteProtocolError) as caught:
            session.receive(start)
        assert seat == dealer or "the game has ended" in caught.value.detail


def test_a_game_end_with_other_stacks_is_refused_by_every_peer() -> None:
    """The author of the game's end cannot move chips with it."""
    table = _played()
    players = [k.SeatStack(seat=p.seat, stack=p.stack) for p in table.sessions[0].game.players]
    robbed = [*players]
    robbed[0] = k.SeatStack(seat=robbed[0].seat, stack=robbed[0].stack - 10)
    robbed[1] = k.SeatStack(seat=robbed[1].seat, stack=robbed[1].stack + 10)
    _refused(table, _forged(table, 1, k.GameEnd(players=robbed)), Reason.ILLEGAL_ACTION, "stacks")
    _refused(
        table, _forged(table, 1, k.GameEnd(players=players[:2])), Reason.ILLEGAL_ACTION, "stacks"
    )


def test_a_game_cannot_end_in_the_middle_of_a_hand() -> None:
    table = _played()
    table.start_hand()
    first = table.sessions[0]
    assert not first.between_hands
    with pytest.raises(IllegalAction):
        table.sessions[1].end_game()
    players = [k.SeatStack(seat=p.seat, stack=p.stack) for p in first.game.players]
    _refused(table, _forged(table, 1, k.GameEnd(players=players)), Reason.ILLEGAL_ACTION, "")


def test_a_silent_player_is_excused_from_signing_the_end_by_the_clock() -> None:
    table = _played()
    table.muted.add(2)
    table.end_game(0)
    first = table.sessions[0]
    assert first.complete
    timeouts = [e for e in first.ledger.entries if e.kind == "timeout"]
    assert timeouts and tuple(timeouts[-1].body.seats) == (2,)  # type: ignore[attr-defined]
    signers = {e.author for e in first.ledger.entries[-4:] if e.kind == "head_signature"}
    assert 2 not in signers
    assert verify_transcript(b"".join(table.lines)).verdict is Verdict.VALID


def test_a_game_cut_before_its_end_or_its_last_signature_is_not_closed() -> None:
    table = _played(hands=2)
    table.end_game()
    lines = table.lines
    end = next(i for i, line in enumerate(lines) if b'"kind":"game_end"' in line)
    for cut, says in (
        (end, "the game has not ended"),
        (len(lines) - 1, "has not signed the end of the game"),
    ):
        report = verify_transcript(b"".join(lines[:cut]))
        assert report.verdict is Verdict.NOT_CLOSED, report.error
        assert report.error is not None and says in report.error.reason
