"""Joins and leaves between hands on the live table: real nodes over real zmq on loopback, real
sessions, proofs and files. A seat leaves once no hand is running; the
others go on without it, and every transcript is the same game."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from live_helpers import (
    DEADLINE,
    DEEP,
    HeldLink,
    Table,
    close_all,
    entries,
    play_game,
    transcript,
    until,
)
from witness import Witness

from p2pwillow.ledger import kinds as k
from p2pwillow.net.node import Node, NodeError
from p2pwillow.store import Store
from p2pwillow.verify import verify_transcript

LEAVER = 2


def test_a_seat_leaves_between_hands_and_the_game_goes_on(tmp_path: Path, witness: Witness) -> None:
    """Three bots and a bot that leaves after its second hand: it writes its `leave` once no
    hand is running, stops once the leave is in its chain, and the others play the game to its
    end without it; every transcript is the same game and `willow verify` counts the leaver's
    stack as taken away."""
    events: list[dict[str, object]] = []
    tables: list[Table] = []

    async def main() -> list[Node]:
        table = Table(tmp_path, players=4, hands=5, witness=witness)
        tables.append(table)
        nodes = await play_game(table, events)
        # the lobby seats guests in the order they come: find the seat, not the node's place
        leaver = next(n for n in nodes if n.seat == LEAVER)
        leaver.leave_table()
        assert leaver.leave_wanted
        try:
            await asyncio.wait_for(asyncio.gather(*(n.play_out() for n in nodes)), DEADLINE * 2)
        finally:
            await close_all(nodes)
        return nodes

    nodes = asyncio.run(main())
    stayers = [n for n in nodes if n.seat != LEAVER]
    [leaver] = [n for n in nodes if n.seat == LEAVER]
    assert all(n.failure is None for n in nodes)
    copies = {transcript(n) for n in stayers}
    assert len(copies) == 1, "every seat that stayed holds the same transcript, byte for byte"
    data = copies.pop()
    chain = entries(data)
    [leave] = [e for e in chain if isinstance(e.body, k.Leave)]
    assert leave.author == LEAVER
    # the leaver's copy is the same game up to its leave (it stopped there, or a little after
    # if its peers' next entries reached it before it closed)
    mine = transcript(leaver)
    assert data.startswith(mine)
    assert len(entries(mine)) > leave.seq
    assert leaver.ended is not None and leaver.ended.startswith("you left the table")
    # no hand after the leave lists the leaver; the others played the game to its end
    starts = [e.body for e in chain[leave.seq :] if isinstance(e.body, k.HandStart)]
    assert starts and all(LEAVER not in {p.seat for p in body.players} for body in starts)
    assert isinstance(chain[-1].body, k.HeadSignature)
    assert any(isinstance(e.body, k.GameEnd) for e in chain)
    assert all(n.over_reason == "the game is over: 5 hands played" for n in stayers)
    report = verify_transcript(data)
    assert report.valid, report.error
    assert len(report.hands) == 5
    gone = [st for st in report.stacks if st.seat == LEAVER]
    assert [st.left for st in gone] == [True]
    chips = report.chips
    assert chips is not None
    assert chips.left == gone[0].final
    assert chips.at_table + chips.left == chips.bought_in == 4 * DEEP
    # its going was not a fault: nothing was refused, no frame was bad, nothing failed
    assert not [e for e in events if e["event"] in ("rejected", "bad_frame", "failed")]
    let_go = {e["seat"] for e in events if e["event"] == "left" and e.get("peer") == LEAVER}
    assert let_go == {n.seat for n in stayers}
    for node in stayers:
        assert leaver.transport.keys.public not in node.transport.pinned

    # the leaver's store holds a game that goes on, but not for its seat: nothing to resume,
    # and nothing on disk changes
    store = Store.open(tmp_path / f"peer{nodes.index(leaver)}")
    before = transcript(leaver)

    async def resume() -> None:
        again = Node(
            leaver.seating,
            leaver.transport,
            store,
            tables[0].stores[nodes.index(leaver)][1],
            resume=True,
        )
        with pytest.raises(NodeError, match="this seat left the game; there is nothing to resume"):
            await again.start()

    asyncio.run(resume())
    assert transcript(leaver) == before


def test_a_leave_the_sequencer_refused_is_written_again_after_the_next_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, witness: Witness
) -> None:
    """The leaver's `leave` is held on its way (a slow link) until the next hand has started:
    the sequencer refuses it (a hand is running), the leaver plays that hand, writes its leave
    again once it has ended, and goes; one leave in the chain, the game the same everywhere."""
    events: list[dict[str, object]] = []

    async def main() -> list[Node]:
        table = Table(tmp_path, players=3, hands=5, witness=witness)
        nodes = await play_game(table, events)
        leaver = next(n for n in nodes if n.seat == LEAVER)
        link = HeldLink(monkeypatch, leaver.transport, k.Leave.KIND)
        leaver.leave_table()
        try:
            await until(lambda: bool(link.held), "the leave written")
            first_try = leaver.hands_played
            # every seat in the next hand, its sequencer included (it may get the hand's start,
            # countersigned by the sequencer before it, after the others: SPEC 6.6)
            await until(
                lambda: all(n.hands_played > first_try or n.over for n in nodes),
                "every seat in the next hand",
            )
            link.release()  # late: a hand runs now
            await asyncio.wait_for(asyncio.gather(*(n.play_out() for n in nodes)), DEADLINE * 2)
        finally:
            await close_all(nodes)
        assert first_try >= 1
        return nodes

    nodes = asyncio.run(main())
    assert all(n.failure is None for n in nodes)
    stayers = [n for n in nodes if n.seat != LEAVER]
    copies = {transcript(n) for n in stayers}
    assert len(copies) == 1
    chain = entries(copies.pop())
    [leave] = [e for e in chain if isinstance(e.body, k.Leave)]
    starts = {e.hand: e.body for e in chain if isinstance(e.body, k.HandStart)}
    # its first leave lost its race with a hand's start: it played that hand, and left after
    # one that came later
    assert leave.author == LEAVER and leave.hand >= 2
    played = [h for h, b in starts.items() if isinstance(b, k.HandStart) and LEAVER in
              {p.seat for p in b.players}]  # fmt: skip
    assert played == list(range(1, leave.hand + 1))
    assert verify_transcript(transcript(stayers[0])).valid
