"""The in-process table (p2pwillow.table): whole games through every session, chips conserved."""

from __future__ import annotations

import itertools

import pytest
from session_helpers import honest_game, make_rng, new_table, observer

from p2pwillow.ledger import decode_entry
from p2pwillow.table import Table


def _conserved(table: Table, players: int) -> None:
    first = table.sessions[0]
    assert sum(p.stack for p in first.game.players) == players * table.config.starting_stack
    for summary in first.summaries:
        assert sum(net for _, net in summary.chips) == 0
        assert summary.signed
    assert table.rejections == []


def test_two_players_three_hands() -> None:
    table = new_table(2, seed=11)
    assert table.play(3) == 3
    _conserved(table, 2)
    # the button moves clockwise every hand
    assert [h.dealer for h in table.sessions[0].summaries] == [0, 1, 0]


def test_three_players_two_hands() -> None:
    table = honest_game()
    _conserved(table, 3)
    assert observer(table.lines).complete


def test_transcript_lines_are_the_chain() -> None:
    table = honest_game()
    entries = [decode_entry(line) for line in table.lines]
    assert [e.seq for e in entries] == list(range(len(entries)))
    assert all(b.prev == a.hash for a, b in itertools.pairwise(entries))
    assert table.lines == [e.encode() + b"\n" for e in table.transcript]


def test_same_randomness_same_game() -> None:
    a, b = new_table(2, seed=12), new_table(2, seed=12)
    a.play(1)
    b.play(1)
    assert a.lines == b.lines


def test_ten_player_hand() -> None:
    table = new_table(10, seed=13, samples=10)
    assert table.play(1) == 1
    _conserved(table, 10)


def test_on_entry_sees_every_entry_in_order() -> None:
    seen: list[bytes] = []
    table = new_table(2, seed=14, on_entry=lambda e: seen.append(e.encode() + b"\n"))
    table.play(1)
    assert seen == table.lines


@pytest.mark.parametrize("players", [1, 11])
def test_player_count_bounds(players: int) -> None:
    with pytest.raises(Exception, match="seat"):
        new_table(players)


def test_the_seats_owing_a_step_are_those_a_new_entry_must_reach_at_once() -> None:
    # Session.seats_owing tells a live sequencer whom to send a new entry at once (SPEC 8.4):
    # everyone outside a running hand (its head signatures included); else the seats owing a
    # step, one of them in a betting round, and while trading is open also every seat the
    # rules let act without owing one.
    from p2pwillow.rules import Phase
    from p2pwillow.session import schedule

    seen: list[tuple[str, Phase | None, frozenset[int] | None]] = []
    unowed: list[frozenset[int]] = []  # seats that may act in trading without owing a step
    holder: list[Table] = []

    def look(entry: object) -> None:
        if not holder:
            return
        table = holder[0]
        s = table.sessions[table.sessions[0].sequencer]
        owing = s.seats_owing()
        hand = s.hand
        phase = None if s.between_hands or hand is None else hand.phase
        seen.append((getattr(entry, "kind", ""), phase, owing))
        if phase in (None, Phase.COMPLETE, Phase.ABORTED) or s.ended:
            assert owing is None  # no hand runs, or its end waits for every head signature
            return
        assert owing is not None and hand is not None
        due = frozenset(d.seat for d in s.due())
        record = s.state.hand
        assert record is not None
        if phase is Phase.TRADING and schedule.blocked(record, give=False) is None:
            # each seat that may act now, owing a step or not, is reached at once
            free = frozenset(p for p in record.order if hand.legal_actions(p))
            assert owing == due | free
            if free - due:
                unowed.append(free - due)
        else:
            assert owing == due
        assert owing <= {p.seat for p in s.game.players}
        if phase is Phase.BETTING and owing:
            assert len(owing) == 1

    table = Table(4, seed=5, rng=make_rng("seats-owing"), samples=20, on_entry=look)
    holder.append(table)
    table.play(2)
    phases = {phase for _, phase, _ in seen}
    assert {None, Phase.TRADING, Phase.BETTING} <= phases
    assert any(owing is not None and len(owing) < 4 for _, _, owing in seen)
    # a trade being completed, or an in-turn trading step, reaches fewer than every seat at once
    assert any(p is Phase.TRADING and o is not None and len(o) < 4 for _, p, o in seen)
    assert unowed  # free trading's offers, or the dealer's close, reach such seats at once
