"""Results stay (issue 24, SPEC 8.9): when a hand ends, a person's screen holds its result
until the person presses a key or the grace passes, and the table starts no next hand before
that, whoever deals it: the person's node holds its head signature of the hand. Bots do not
wait. A live table on loopback, a person's screen on a pyte terminal."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator
from pathlib import Path

from live_helpers import Table, close_all, play_game

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tui"))
from tui_screen import SEATING, Terminal, answer_keys, terminal

from p2pwillow.ledger.entry import decode_entry
from p2pwillow.net.node import Node
from p2pwillow.rules import TableConfig

HELD = "Hand over: any key goes on."


@contextlib.asynccontextmanager
async def _seated(tmp_path: Path, grace: float) -> AsyncIterator[tuple[Terminal, list[Node]]]:
    """A person (seat 0, who deals hand 1) and two bots at a live table of two hands, the
    person's screen seated and in hand 1; the nodes closed after."""
    config = TableConfig(seats=3, action_clock=60)
    table = Table(tmp_path, players=3, hands=2, config=config, grace=grace)
    nodes = await play_game(table, person=0)
    try:
        async with terminal(nodes[0], 30, 100) as t:
            await t.wait_for(SEATING)
            t.press("y")
            await t.wait_for("hand 1")
            yield t, nodes
    finally:
        await close_all(nodes)


async def _play_first_hand(t: object, person: Node) -> str:
    """Answer what the screen asks until hand 1 is over; the screen then."""
    while True:
        text: str = await t.settled(  # type: ignore[attr-defined]
            lambda s: HELD in s or "hand 2" in s or answer_keys(s) is not None
        )
        if HELD in text or "hand 2" in text:
            return text
        keys = answer_keys(text)
        assert keys is not None
        t.press(*keys)  # type: ignore[attr-defined]
        await t.wait_for(lambda s, before=text: s != before)  # type: ignore[attr-defined]


def test_the_result_stays_until_the_person_presses_a_key(tmp_path: Path) -> None:
    async def main() -> None:
        # a bot deals hand 2 (the person, seat 0, dealt hand 1): it waits all the same
        async with _seated(tmp_path, grace=25.0) as (t, nodes):
            person = nodes[0]
            text = await _play_first_hand(t, person)
            assert HELD in text, text
            # every other player has signed hand 1: the table waits for this screen alone
            await t.wait_for("Waiting for you: see the result and sign the hand")
            view = person.view()
            assert view.reading and not view.hand_running
            assert view.result, "the winners and the pots are on the screen"
            assert all(n.hands_played == 1 for n in nodes)
            t.press("\r")  # a key (Space would also pause the table)
            await t.wait_for("hand 2")
        assert person.transcript is not None
        lines = person.transcript.read_bytes().splitlines()
        entries = [decode_entry(line) for line in lines]
        start = next(e for e in entries if e.kind == "hand_start" and e.hand == 2)
        signs = [e for e in entries[: start.seq] if e.kind == "head_signature" and e.hand == 1]
        assert signs and signs[-1].author == person.seat, "the person's signature came last"
        assert start.author != person.seat, "another seat dealt hand 2, once it was signed"

    asyncio.run(main())


def test_without_a_key_the_table_goes_on_after_the_grace(tmp_path: Path) -> None:
    async def main() -> None:
        async with _seated(tmp_path, grace=1.0) as (t, nodes):
            person = nodes[0]
            await _play_first_hand(t, person)
            # nobody presses anything: hand 2 comes by itself
            await t.wait_for("hand 2")
        assert person.hands_played == 2

    asyncio.run(main())
