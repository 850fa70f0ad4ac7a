"""A person joins a live table after its genesis through the table screen (SPEC 8.9): the real
prompt_toolkit application (pipe input, the screen read from a pyte terminal) on a newcomer's
node, over real zmq on loopback. The screen says it watches for a seat, then shows its seat
once its join is in and plays the hands after it."""

from __future__ import annotations

import asyncio
import re
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from live_helpers import (
    DEADLINE,
    Table,
    caught_up,
    deep,
    entries,
    patient_dealers,
    play_all,
    transcript,
    until,
)
from test_door import short_table

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tui"))
from tui_screen import LAYOUT, SEATING, answer_keys, terminal
from witness import Witness

from p2pwillow.ledger import kinds as k
from p2pwillow.verify import verify_transcript

WATCHING = "watching: you take seat 3 from the next hand"


def other_than(text: str) -> Callable[[str], bool]:
    return lambda shown: shown != text


def test_a_person_joining_sees_it_watches_then_its_seat_and_plays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, witness: Witness
) -> None:
    # its join, written once it sees a hand end, reaches the sequencer before the next deal
    patient_dealers(monkeypatch)

    async def main() -> list[str]:
        at_host: list[dict[str, object]] = []
        table = Table(tmp_path, players=3, hands=3, config=deep(seats=4), witness=witness)
        go = threading.Event()
        nodes = await short_table(table, 2, at_host, go)
        await until(lambda: any(e["event"] == "dealt" for e in at_host), "hand 1 dealt")
        lobby = table.guest(3, ["Dee"])
        seating = await asyncio.wait_for(lobby.seat(), DEADLINE)
        late = table.node(3, seating, lobby, person=True)
        await late.start()
        nodes.append(late)
        seen: list[str] = []
        async with terminal(late, 30, 100) as t:
            text = await t.wait_for(WATCHING)
            await caught_up(table, 3, nodes[0])
            go.set()  # hand 1 goes on once the newcomer watches it, caught up
            seen.append(text)
            assert SEATING not in text, "a newcomer is not asked about the genesis's code"
            assert "Dee (you)" not in text
            text = await t.wait_for(lambda s: WATCHING not in s and "Dee (you)" in s)
            seen.append(text)
            assert late.head > 0 and not late.watching
            while not late.over:
                text = await t.settled(lambda s: late.over or answer_keys(s) is not None)
                keys = None if late.over else answer_keys(text)
                if keys is not None and LAYOUT in text:
                    t.press(*keys[:-1])
                    await t.wait_for("Enter lays them out face down")
                    t.press(keys[-1])
                elif keys is not None:
                    t.press(*keys)
                if keys is not None:
                    await t.wait_for(other_than(text))
            seen.append(await t.wait_for("The game is over: 3 hands played."))
        await play_all(nodes)
        copies = {transcript(n) for n in nodes}
        assert len(copies) == 1
        data = copies.pop()
        chain = entries(data)
        [join] = [e for e in chain if isinstance(e.body, k.Join)]
        assert isinstance(join.body, k.Join) and join.author == 3 and join.body.name == "Dee"
        played = [
            e.body
            for e in chain[join.seq :]
            if isinstance(e.body, k.HandStart) and 3 in {p.seat for p in e.body.players}
        ]
        assert played, "the person played a hand after its join"
        assert verify_transcript(data).valid
        return seen

    watching, seated, over = asyncio.run(main())
    assert WATCHING in watching.splitlines()[0], "the title row says it watches"
    assert "watching" not in seated.splitlines()[0]
    under = seated.split("Dee (you)", 1)[1].splitlines()[1]
    assert re.fullmatch(r"\s*\d+( · .*)?\s*", under), "its stack under its name"
    assert "Final stacks: " in over and "Dee" in over.split("Final stacks: ", 1)[1]
