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

from live_helpers import (
    DEADLINE,
    Table,
    caught_up,
    close_all,
    deep,
    entries,
    node_keys,
    play_all,
    transcript,
    until,
)
from test_door import short_table

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tui"))
from tui_screen import LAYOUT, SEATING, Terminal, answer_keys, terminal

from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.identity import named
from p2pwillow.net.lobby import GuestLobby, HostLobby
from p2pwillow.net.node import Node, NotAdmitted
from p2pwillow.store import Store
from p2pwillow.verify import verify_transcript

WATCHING = "watching: you take seat 3 from the next hand"
YOU = re.compile(r"Dee #[A-Z2-7]{4} \(you\)")


ASKED = "You join 'test table' in seat 3"
NEWCOMER_DEE = "A newcomer: Dee #"


def other_than(text: str) -> Callable[[str], bool]:
    return lambda shown: shown != text


def spaced(code: str) -> str:
    return "   ".join(" ".join(group) for group in code.split("-"))


def test_a_person_joining_sees_it_watches_then_its_seat_and_plays(tmp_path: Path) -> None:
    async def main() -> list[str]:
        at_host: list[dict[str, object]] = []
        # no hand limit: the newcomer's join may come after any hand (a hand the next dealer
        # started first goes before it), and the person ends the game once it has played
        table = Table(tmp_path, players=3, hands=0, config=deep(seats=4))
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
            seen.append(text)
            assert SEATING not in text, "a newcomer is not asked about the genesis's code"
            assert not YOU.search(text)
            await caught_up(table, 3, nodes[0])
            go.set()  # hand 1 goes on once the newcomer watches it, caught up
            # the newcomer is asked once the hand under way has ended: with every proof
            # checked on two cores shared with other work, a hand can take over a minute
            text = await t.wait_for(ASKED, deadline=2 * DEADLINE)
            seen.append(text)
            # the seated bots admit it by themselves: once only its own answer is missing, no
            # node has started a hand, however long the person takes
            hands = [n.hands_played for n in nodes]

            def only_mine_missing() -> bool:
                admission = late.view().admission
                return admission is not None and len(admission.waiting) == 1

            await until(only_mine_missing, "only the newcomer's own answer missing")
            admission = late.view().admission
            assert admission is not None and admission.you_join
            assert admission.waiting[0].startswith("Dee #") and len(admission.admitted) == 3
            assert [n.hands_played for n in nodes] == hands, "no hand before all confirmed"
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
            await play_along(t, late, lambda s: bool(late.view().cards))
            t.press("e")
            await t.wait_for("End the game?")
            t.press("y")
            await play_along(t, late, lambda s: False)
            seen.append(await t.wait_for("The game is over"))
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


async def play_along(t: Terminal, person: Node, shows: Callable[[str], bool]) -> str:
    """Answer what the person's screen asks, as a person who only plays along, until the
    screen shows what `shows` looks for (or the game is over); that screen."""
    while True:
        text = await t.settled(lambda s: shows(s) or person.over or answer_keys(s) is not None)
        if shows(text) or person.over:
            return text
        keys = answer_keys(text)
        assert keys is not None
        if LAYOUT in text:
            t.press(*keys[:-1])
            await t.wait_for("Enter lays them out face down")
            t.press(keys[-1])
        else:
            t.press(*keys)
        await t.wait_for(other_than(text))


async def late_node(table: Table, n: int, name: str) -> Node:
    """A bot joining the game under way as `name`, its node started once the door seats it."""
    lobby = table.guest(n, [name])
    seating = await asyncio.wait_for(lobby.seat(), DEADLINE)
    assert seating.late
    node = table.node(n, seating, lobby)
    await node.start()
    return node


async def _a_person_and_two_bots(table: Table) -> list[Node]:
    """`table` opened and started with three of its seats: a person hosting (seat 0, first)
    and two bots, every node started; its other seats are for newcomers."""
    await table.open()
    host = table.host
    assert host is not None
    forming = asyncio.ensure_future(host.seat())
    lobbies = [table.guest(n) for n in (1, 2)]
    seated = asyncio.gather(*(g.seat() for g in lobbies))
    while host.players < 3:
        await asyncio.sleep(0.05)
    host.start_now()
    person = table.node(0, await asyncio.wait_for(forming, DEADLINE), host, person=True)
    await person.start()
    nodes = [person]
    for n, (lobby, s) in enumerate(zip(lobbies, await seated, strict=True), start=1):
        nodes.append(table.node(n, s, lobby))
        await nodes[-1].start()
    return nodes


def test_a_person_seated_keeps_a_newcomer_out_and_the_newcomer_is_told(tmp_path: Path) -> None:
    """The person hosting is asked on a screen of its own when a bot joins; its "no" refuses
    the newcomer (SPEC 6.6): no hand deals it a card, its node stops as refused, and the
    screen names who refused it and why. The seat is free again: the next newcomer is given
    it, admitted with a "yes" and dealt in; then the person ends the game (no hand limit, so
    that the game waits for them, however slow the machine)."""

    async def main() -> tuple[str, str]:
        table = Table(tmp_path, players=3, hands=0, config=deep(seats=4))
        nodes = await _a_person_and_two_bots(table)
        person = nodes[0]
        async with terminal(person, 30, 100) as t:
            await t.wait_for(SEATING)
            t.press("y")
            await t.wait_for("hand 1")
            coming = asyncio.ensure_future(late_node(table, 3, "Mallory"))
            asked = await play_along(t, person, lambda s: "A newcomer: Mallory #" in s)
            late = await asyncio.wait_for(coming, DEADLINE)
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
            # the refused newcomer's seat is free again: the door gives it to the next one
            coming = asyncio.ensure_future(late_node(table, 4, "Dee"))
            await play_along(t, person, lambda s: NEWCOMER_DEE in s)
            dee = await asyncio.wait_for(coming, DEADLINE)
            nodes.append(dee)
            assert dee.seating.seat == 3
            before = dee.hands_played
            t.press("y")
            # (the next hand deals the admitted newcomer in: the chain says so, below)
            await play_along(t, person, lambda s: dee.hands_played > before)
            t.press("e")
            await t.wait_for("End the game?")
            t.press("y")
            await play_along(t, person, lambda s: False)
        await play_all(nodes)
        data = transcript(person)
        chain = entries(data)
        [refuse] = [e for e in chain if isinstance(e.body, k.Refuse)]
        assert refuse.author == 0 and isinstance(refuse.body, k.Refuse)
        assert refuse.body.reason == "the safety codes did not match"
        joins = [e for e in chain if isinstance(e.body, k.Join)]
        assert [(e.author, e.body.name) for e in joins if isinstance(e.body, k.Join)] == [
            (3, "Mallory"),
            (3, "Dee"),
        ]
        dealt_in = [
            e.seq
            for e in chain
            if isinstance(e.body, k.HandStart) and 3 in {p.seat for p in e.body.players}
        ]
        assert dealt_in, "Dee, admitted, played in the seat Mallory was refused"
        assert min(dealt_in) > joins[1].seq, "the refused newcomer is dealt no card"
        assert verify_transcript(data).valid
        return asked, refused

    asked, refused = asyncio.run(main())
    assert "At the table: Ann #" in asked and "Mallory #" in asked
    assert "Mallory #" in refused


def _keys_of(tmp: Path, n: int, keys: int) -> None:
    """Store `keys` (node_keys' number) as peer `n`'s under `tmp`, before its table opens."""
    Store.open(tmp / f"peer{n}").keys(lambda: node_keys(keys))


def test_a_relay_at_a_copied_table_is_refused_by_the_person_comparing(tmp_path: Path) -> None:
    """The split world of issue 31: Mallory copies Ann's table (the same table name, a host
    that calls itself Ann) and seats Bob there, while she joins Ann's real table, a game under
    way, under Bob's name. Ann's screen asks her, before any card, to compare the new code
    aloud with everyone at the table: the code Bob reads out (his table's) is not hers, and the
    Bob on her screen has another fingerprint than the Bob at the copy. Her "no" keeps Mallory
    out; the game goes on without her, and no card of it is dealt to her seat."""

    async def main() -> tuple[str, str, str]:
        real_dir, copy_dir = tmp_path / "real", tmp_path / "copy"
        _keys_of(real_dir, 3, 50)  # Mallory, at the real table as "Bob"
        _keys_of(copy_dir, 0, 50)  # Mallory, hosting the copy as "Ann"
        _keys_of(copy_dir, 1, 51)  # Bob, the victim, at the copy
        real = Table(real_dir, players=3, hands=0, config=deep(seats=4))
        nodes = await _a_person_and_two_bots(real)
        person = nodes[0]
        copy = Table(copy_dir, players=2, hands=1, config=deep(seats=2))
        await copy.open()
        assert copy.host is not None
        bob_lobby = copy.guest(1, ["Bob"])

        async def sit(n: int, lobby: HostLobby | GuestLobby) -> Node:
            node = copy.node(n, await lobby.seat(), lobby, person=n == 1)
            await node.start()  # (the copy's host greets Bob from its node)
            return node

        copy_seated = asyncio.gather(sit(0, copy.host), sit(1, bob_lobby))
        async with terminal(person, 30, 100) as t:
            await t.wait_for(SEATING)
            t.press("y")
            await t.wait_for("hand 1")
            # Bob sits at the copy; the copy's genesis gives him its code
            at_copy = list(await asyncio.wait_for(copy_seated, DEADLINE))
            bob = at_copy[1]
            bob_code = bob.safety_code
            bob_label = named("Bob", node_keys(51).identity.public_key)
            # Mallory joins the real table under Bob's name; Ann plays along meanwhile
            coming = asyncio.ensure_future(late_node(real, 3, "Bob"))
            asked = await play_along(t, person, lambda s: "A newcomer: Bob #" in s)
            mallory = await asyncio.wait_for(coming, DEADLINE)
            assert person.safety_code in asked and spaced(person.safety_code) in asked
            assert bob_code != person.safety_code, "a relay cannot give both tables one code"
            assert bob_code not in asked and spaced(bob_code) not in asked
            shown = re.search(r"A newcomer: (Bob #[A-Z2-7]{4})", asked)
            assert shown is not None
            assert shown.group(1) == named("Bob", node_keys(50).identity.public_key)
            assert shown.group(1) != bob_label, "Bob's own fingerprint is not the one shown"
            assert mallory.hands_played == person.hands_played, "no hand while Ann compares"
            t.press("n")
            refused = await t.wait_for(lambda s: "was refused by you" in s)
            assert await mallory.wait_over(DEADLINE)
            assert isinstance(mallory.failure, NotAdmitted), mallory.failure
            await mallory.close()
            hands = person.hands_played
            await play_along(t, person, lambda s: person.hands_played > hands)
            t.press("e")  # the game goes on without Mallory: Ann ends it after one more hand
            await t.wait_for("End the game?")
            t.press("y")
            await play_along(t, person, lambda s: False)
        await play_all(nodes)
        await close_all(at_copy)
        chain = entries(transcript(person))
        [refuse] = [e for e in chain if isinstance(e.body, k.Refuse)]
        assert refuse.author == 0 and isinstance(refuse.body, k.Refuse)
        assert not any(
            isinstance(e.body, k.HandStart) and 3 in {p.seat for p in e.body.players} for e in chain
        ), "Mallory is dealt no card at the real table"
        assert verify_transcript(transcript(person)).valid
        return asked, refused, bob_label

    asked, refused, bob = asyncio.run(main())
    assert "Compare it aloud with everyone at the table: each of you reads" in asked
    assert bob not in asked and "Bob #" in refused
