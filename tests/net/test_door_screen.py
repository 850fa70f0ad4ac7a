"""A person joins a live table after its genesis through the table screen (SPEC 8.9): the real
prompt_toolkit application (pipe input, the screen read from a pyte terminal) on a newcomer's
node, over real zmq on loopback. The screen says it watches for a seat; once its join is in,
a screen of its own asks it to compare the new safety code with everyone at the table before
any card (SPEC 6.6); then it shows its seat and plays the hands after it. A person seated at
the table is asked the same when a newcomer comes, and a "no" keeps the newcomer out."""

from __future__ import annotations

import asyncio
import re
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from live_helpers import DEADLINE, Table, entries, play_all, transcript
from test_door import short_table

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tui"))
from tui_screen import LAYOUT, SEATING, answer_keys, terminal

from p2pwillow.ledger import kinds as k
from p2pwillow.net.node import NotAdmitted
from p2pwillow.rules import TableConfig
from p2pwillow.verify import verify_transcript

WATCHING = "watching: you take seat 3 from the next hand"
YOU = re.compile(r"Dee #[A-Z2-7]{4} \(you\)")


ASKED = "You join 'test table' in seat 3"


def other_than(text: str) -> Callable[[str], bool]:
    return lambda shown: shown != text


def spaced(code: str) -> str:
    return "   ".join(" ".join(group) for group in code.split("-"))


async def until(test: Callable[[], bool]) -> None:
    deadline = asyncio.get_running_loop().time() + DEADLINE
    while not test():
        assert asyncio.get_running_loop().time() < deadline, "never came"
        await asyncio.sleep(0.02)


def test_a_person_joining_sees_it_watches_then_its_seat_and_plays(tmp_path: Path) -> None:
    async def main() -> list[str]:
        at_host: list[dict[str, object]] = []
        table = Table(tmp_path, players=3, hands=3, config=TableConfig(seats=4))
        go = threading.Event()
        nodes = await short_table(table, 2, at_host, go)
        while not any(e["event"] == "dealt" for e in at_host):
            await asyncio.sleep(0.02)
        lobby = table.guest(3, ["Dee"])
        seating = await asyncio.wait_for(lobby.seat(), DEADLINE)
        late = table.node(3, seating, lobby, person=True)
        await late.start()
        nodes.append(late)
        seen: list[str] = []
        async with terminal(late, 30, 100) as t:
            text = await t.wait_for(WATCHING)
            seen.append(text)
            assert SEATING not in text, "a newcomer is not asked about the genesis's code"
            assert not YOU.search(text)
            # hand 1 goes on once the newcomer has caught up with it (however slow the machine)
            await until(lambda: late.head >= nodes[0].head > 0)
            go.set()
            text = await t.wait_for(ASKED)
            seen.append(text)
            # its own screen: the new code, whom to compare it with, before any card
            assert late.safety_code in text and spaced(late.safety_code) in text
            assert {n.safety_code for n in nodes} == {late.safety_code}
            assert "Compare it aloud with everyone at the table" in text
            assert "[y] yes, the same: take my seat" in text
            assert not late.view().cards, "no card before the code is compared"
            t.press("y")
            text = await t.wait_for(lambda s: ASKED not in s and YOU.search(s) is not None)
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

    watching, asked, seated, over = asyncio.run(main())
    assert "At the table: Ann #" in asked and "Dee #" in asked
    assert WATCHING in watching.splitlines()[0], "the title row says it watches"
    assert "watching" not in seated.splitlines()[0]
    under = YOU.split(seated, 1)[1].splitlines()[1]
    assert re.fullmatch(r"\s*\d+( · .*)?\s*", under), "its stack under its name"
    assert "Final stacks: " in over and "Dee" in over.split("Final stacks: ", 1)[1]


def test_a_person_seated_keeps_a_newcomer_out_and_the_newcomer_is_told(tmp_path: Path) -> None:
    """The person hosting is asked on a screen of its own when a bot joins; its "no" refuses
    the newcomer (SPEC 6.6): no hand deals it a card, its node stops as refused, and the
    screen names who refused it and why."""

    async def main() -> tuple[str, str]:
        table = Table(tmp_path, players=3, hands=2, config=TableConfig(seats=4))
        await table.open()
        host = table.host
        assert host is not None
        forming = asyncio.ensure_future(host.seat())
        lobbies = [table.guest(n) for n in (1, 2)]
        seated = asyncio.gather(*(g.seat() for g in lobbies))
        while host.players < 3:
            await asyncio.sleep(0.05)
        host.start_now()
        seating = await asyncio.wait_for(forming, DEADLINE)
        person = table.node(0, seating, host, person=True)
        await person.start()
        nodes = [person]
        for n, (lobby, s) in enumerate(zip(lobbies, await seated, strict=True), start=1):
            nodes.append(table.node(n, s, lobby))
            await nodes[-1].start()
        async with terminal(person, 30, 100) as t:
            await t.wait_for(SEATING)
            t.press("y")
            await t.wait_for("hand 1")
            lobby = table.guest(3, ["Mallory"])
            late_seating = await asyncio.wait_for(lobby.seat(), DEADLINE)
            late = table.node(3, late_seating, lobby)
            await late.start()
            asked = await t.wait_for(lambda s: "A newcomer: Mallory #" in s)
            assert person.safety_code in asked
            assert "[n] no: keep them out" in asked
            assert late.hands_played == person.hands_played, "no hand while it is asked"
            t.press("n")
            refused = await t.wait_for(lambda s: "was refused by you" in s)
            assert await late.wait_over(DEADLINE)
            assert isinstance(late.failure, NotAdmitted), late.failure
            assert "the table did not take you: Ann refused" in str(late.failure)
            assert "the safety codes did not match" in str(late.failure)
            await late.close()
            while not person.over:
                text = await t.settled(lambda s: person.over or answer_keys(s) is not None)
                keys = None if person.over else answer_keys(text)
                if keys is not None and LAYOUT in text:
                    t.press(*keys[:-1])
                    await t.wait_for("Enter lays them out face down")
                    t.press(keys[-1])
                elif keys is not None:
                    t.press(*keys)
                if keys is not None:
                    await t.wait_for(other_than(text))
        await play_all(nodes)
        data = transcript(person)
        chain = entries(data)
        [refuse] = [e for e in chain if isinstance(e.body, k.Refuse)]
        assert refuse.author == 0 and isinstance(refuse.body, k.Refuse)
        assert refuse.body.reason == "the safety codes did not match"
        assert not any(
            isinstance(e.body, k.HandStart) and 3 in {p.seat for p in e.body.players} for e in chain
        ), "the refused newcomer is dealt no card"
        assert verify_transcript(data).valid
        return asked, refused

    asked, refused = asyncio.run(main())
    assert "At the table: Ann #" in asked and "Mallory #" in asked
    assert "Mallory #" in refused
