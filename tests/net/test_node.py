"""The live peer on loopback: nodes in this process over real sockets, with real sessions,
proofs and files; a whole game, a person's seat through the Client protocol, a seat declined,
a peer that sends garbage."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import random
import time
from pathlib import Path

import pytest
from live_helpers import (
    DEADLINE,
    DEEP,
    SAMPLES,
    HeldLink,
    Table,
    close_all,
    deep,
    finish,
    patient_dealers,
    play_game,
    until,
)
from witness import Witness

from p2pwillow.client import Client, Decision
from p2pwillow.games import weeping_willow as ww
from p2pwillow.keeping import GameFiles
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.entry import AuthoredEntry, Entry, decode_entry, entry_from_json
from p2pwillow.net.lobby import GuestLobby, HostLobby
from p2pwillow.net.node import BotSeat, Node, NodeError, _Play
from p2pwillow.net.wire import AuthoredFrame, EntriesFrame, encode_frame
from p2pwillow.rules import ActionKind
from p2pwillow.session import Session
from p2pwillow.store import Store
from p2pwillow.table import Decider
from p2pwillow.verify import verify_transcript
from p2pwillow.view import Link, TableView

K = ActionKind


def transcript(node: Node) -> bytes:
    path = node.transcript
    assert path is not None
    return path.read_bytes()


def entries(node: Node) -> list[Entry]:
    return [decode_entry(line) for line in transcript(node).splitlines()]


def assert_same_valid_game(nodes: list[Node], hands: int, chips: int) -> None:
    copies = {transcript(n) for n in nodes}
    assert len(copies) == 1, "every peer holds the same transcript, byte for byte"
    report = verify_transcript(copies.pop())
    assert report.valid, report.error
    assert len(report.hands) == hands
    assert sum(s.final for s in report.stacks) == chips


def test_four_nodes_play_two_hands_and_keep_everything_on_disk(tmp_path: Path) -> None:
    events: list[dict[str, object]] = []

    async def main() -> list[Node]:
        table = Table(tmp_path, players=4, hands=2)
        nodes = await play_game(table, events)
        await finish(nodes)
        return nodes

    nodes = asyncio.run(main())
    assert_same_valid_game(nodes, hands=2, chips=4 * DEEP)
    assert {n.safety_code for n in nodes} == {nodes[0].safety_code}
    assert all(n.over_reason == "the game is over: 2 hands played" for n in nodes)
    chain = entries(nodes[0])
    for node in nodes:
        store = node.store
        mine = [e for e in chain if e.author == node.seat]
        # every entry in this seat's name is in its log of what it signed (which also holds
        # decisions the dealer refused: signed, never sequenced)
        signed = store.signed(node.game)
        assert {e.sig for e in mine} <= {a.sig for a in signed.entries}
        assert all(a.author == node.seat for a in signed.entries)
        signed.close()
        # the game is over: no hand's secret is left in the store (SPEC 8.9)
        assert list(store.secrets(node.game)) == []
        assert store.load_table(node.game) == node.seating.encode()
    for hand in (1, 2):
        for name in ("hand_start", "dealt", "hand_end"):
            seats = {e["seat"] for e in events if e["event"] == name and e.get("hand") == hand}
            assert seats == {0, 1, 2, 3}, (name, hand)
    assert not [e for e in events if e["event"] in ("rejected", "bad_frame", "failed")]


def _decision(view: TableView) -> Decision | None:
    """A plain player: announces the defaults, never trades, lays out its first five cards,
    checks or calls."""
    legal = set(view.legal)
    if K.ANNOUNCE in legal:
        return Decision(K.ANNOUNCE, announcement=ww.announcement())
    if K.LAY_OUT in legal:
        return Decision(K.LAY_OUT, positions=tuple(c.position for c in view.cards[:5]))
    for kind in (K.DECLINE, K.PASS, K.CLOSE_TRADING, K.CHECK, K.CALL, K.FOLD):
        if kind in legal:
            return Decision(kind)
    return None


async def _until(client: Client, test: object, what: str) -> TableView:
    assert callable(test)
    end = time.monotonic() + DEADLINE
    seen = -1
    while True:
        view = client.view()
        if test(view):
            return view
        left = end - time.monotonic()
        if left <= 0:
            raise AssertionError(f"never {what}: {view.stage}, {view.waiting}")
        seen = await asyncio.wait_for(client.changed(seen), left)


def test_a_person_plays_through_the_client_protocol(tmp_path: Path) -> None:
    async def main() -> None:
        table = Table(tmp_path, players=3, hands=1)
        nodes = await play_game(table, person=0)
        person: Client = nodes[0]  # mypy checks that a Node is what a front end drives
        view = person.view()
        assert not person.seat_confirmed and not view.seated
        assert view.safety_code == nodes[1].safety_code == nodes[2].safety_code
        person.decide(Decision(K.CHECK))
        await _until(person, lambda v: person.notice is not None, "a notice")
        assert person.notice is not None
        assert person.notice.text == "confirm the safety code first"
        await asyncio.sleep(0.5)
        # the host's session has taken nothing yet: not even the guests' seats
        assert nodes[0].head == 0
        await _until(person, lambda v: set(person.links.values()) == {Link.CONNECTED}, "linked")
        person.confirm_seat(True)
        await _until(person, lambda v: v.hand == 1, "the first hand")
        assert person.seat_confirmed
        decided = 0
        while not nodes[0].over:
            view = await _until(
                person, lambda v: nodes[0].over or (v.decision_due and not person.busy), "a turn"
            )
            decision = None if nodes[0].over else _decision(view)
            if decision is not None:
                person.decide(decision)
                decided += 1
                await _until(person, lambda v, was=view: v is not was, "the next view")
        assert decided >= 3  # the announcement, the layout, a betting decision at least
        await finish(nodes)
        assert_same_valid_game(nodes, hands=1, chips=3 * DEEP)

    asyncio.run(main())


def test_a_seat_whose_code_is_declined_sends_nothing(tmp_path: Path) -> None:
    async def main() -> None:
        table = Table(tmp_path, players=3, hands=1)
        nodes = await play_game(table, person=2)
        declined = nodes[2]
        declined.confirm_seat(False)
        assert declined.notice is not None
        assert "the safety codes did not match" in declined.notice.text
        await asyncio.wait_for(declined.wait_over(), DEADLINE)
        await asyncio.sleep(1.0)
        assert [e.seq for e in entries(declined)] == [0]
        assert declined.store.signed(declined.game).entries == []
        # the host took the other two seats' acceptances; this one never came, so no hand
        # starts (the guests are seated as they arrive: node 2 need not be seat 2)
        host = entries(nodes[0])
        assert [(e.kind, e.author) for e in host[1:]] == [("seat", 0), ("seat", nodes[1].seat)]
        await close_all(nodes)

    asyncio.run(main())


def test_garbage_from_a_seated_peer_changes_nothing(tmp_path: Path) -> None:
    async def main() -> None:
        table = Table(tmp_path, players=3, hands=2)
        nodes = await play_game(table)
        sender = nodes[2]
        for _ in range(400):  # until every node holds entry 12: a forged copy is a conflict
            if min(n.head for n in nodes) >= 12:
                break
            await asyncio.sleep(0.01)
        genuine = entries(sender)[12]
        forged = entry_from_json({**genuine.to_json(), "sig": "00" * 64})
        # a forged copy of a held entry is ignored (it proves nothing, SPEC 6.8); a forged
        # authored entry is never sequenced (the sequencer checks its signature, SPEC 7.1)
        fresh = dataclasses.replace(forged.authored(), counter=10**9)
        garbage = [
            os.urandom(300),
            b'{"type":"entries","v":2}\n',
            encode_frame(EntriesFrame((forged,))),
            encode_frame(AuthoredFrame(fresh)),
        ]
        for node in nodes[:2]:
            for data in garbage * 5:
                sender.transport.send(node.transport.keys.public, data)
        await finish(nodes)
        assert_same_valid_game(nodes, hands=2, chips=3 * DEEP)
        for node in nodes[:2]:
            assert node.traffic.bad_frames >= 10, node.traffic
        for node in nodes:
            assert forged.hash not in {e.hash for e in entries(node)}
            assert fresh.sig not in {e.sig for e in entries(node)}

    asyncio.run(main())


async def _played_by_two(tmp_path: Path) -> tuple[Table, Node, Store]:
    """A finished one-hand game of two on loopback: its table, the guest's node, its store."""
    table = Table(tmp_path, players=2, hands=1)
    nodes = await play_game(table)
    await finish(nodes)
    return table, nodes[1], Store.open(tmp_path / "peer1")


def test_a_node_refuses_a_store_that_holds_the_game(tmp_path: Path) -> None:
    async def main() -> None:
        # the same seating again, on the same store: a new seat does not overwrite the game,
        # and a resumed one finds it finished
        table, node, store = await _played_by_two(tmp_path)
        transcript = store.game_dir(node.game) / "transcript.jsonl"
        before = transcript.read_bytes()
        again = Node(node.seating, node.transport, store, table.stores[1][1])
        with pytest.raises(NodeError, match="holds this game already: a new seat never"):
            await again.start()
        resumed = Node(node.seating, node.transport, store, table.stores[1][1], resume=True)
        with pytest.raises(NodeError, match="is a finished game: there is nothing to resume"):
            await resumed.start()
        assert transcript.read_bytes() == before

    asyncio.run(main())


def test_a_seat_never_signs_two_entries_for_one_counter(tmp_path: Path) -> None:
    """The log of signed entries keeps a resend once, and refuses another entry for a counter
    it holds, before anything is sent (SPEC 8.10)."""

    async def main() -> None:
        table = Table(tmp_path, players=2, hands=1)
        nodes = await play_game(table)
        await finish(nodes)
        node = nodes[1]
        store, keys = table.stores[1]
        mine = [e for e in entries(node) if e.author == node.seat and e.counter > 0]
        first, other = mine[0].authored(), mine[1].authored()
        twin = AuthoredEntry.create(
            keys.identity,
            game=other.game,
            hand=other.hand,
            author=other.author,
            body=other.body,
            counter=first.counter,
            seen=other.seen,
        )
        play = _Play(node, keys, random.Random(1).randbytes)
        log = store.game_dir(node.game) / "signed.jsonl"
        before = log.read_bytes()
        play.files = GameFiles.reopen(store, node.game)
        play._log_signed(first)  # the same entry again: kept once
        with pytest.raises(NodeError, match=f"two different entries for counter {first.counter}"):
            play._log_signed(twin)
        play.close()
        assert log.read_bytes() == before

    asyncio.run(main())


@pytest.mark.parametrize("accepted", [True, False])
def test_a_resumed_person_is_asked_the_code_only_if_it_never_confirmed(
    tmp_path: Path, accepted: bool
) -> None:
    """A person's seat resumed from its store (SPEC 8.10) whose `seat` entry is in the chain
    has confirmed the safety code already and is not asked again; one that crashed before it
    accepted still is."""

    async def main() -> None:
        table, node, store = await _played_by_two(tmp_path)
        path = store.game_dir(node.game) / "transcript.jsonl"
        lines = path.read_bytes().splitlines(keepends=True)
        kinds = [decode_entry(line).kind for line in lines]
        accepting = next(
            n
            for n, line in enumerate(lines)
            if kinds[n] == "seat" and decode_entry(line).author == 1
        )
        cut = kinds.index("game_end") if accepted else accepting
        path.write_bytes(b"".join(lines[:cut]))
        resumed = Node(
            node.seating, node.transport, store, table.stores[1][1], resume=True, watch=True
        )
        await resumed.start()
        try:
            assert resumed.seat_confirmed is accepted
        finally:
            await resumed.close()

    asyncio.run(main())


@dataclasses.dataclass(frozen=True, slots=True)
class _AwayForHandOne(BotSeat):
    """A bot that does not answer in hand 1 (a player gone for coffee), then plays."""

    def decider(self, seat: int) -> Decider:
        plays = BotSeat.decider(self, seat)

        def decide(session: Session) -> Decision | None:
            return None if session.hand_number == 1 else plays(session)

        return decide


def test_a_bot_timed_out_sits_in_again_by_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, witness: Witness
) -> None:
    """A bot seat folded for stalling sits out a hand, then its node writes its `sit_in`
    and it plays again (SPEC 3.11): a seat is not left out for good while its node runs."""
    patient_dealers(monkeypatch)

    async def main() -> list[Node]:
        # a clock the away seat overruns, and the others, proving on a loaded machine, do not
        config = deep(seats=3, action_clock=3)
        table = Table(tmp_path, players=3, hands=4, config=config, witness=witness)
        await table.open()
        assert table.host is not None
        lobbies: list[HostLobby | GuestLobby] = [table.host, table.guest(1), table.guest(2)]

        async def sit(n: int) -> Node:
            lobby = lobbies[n]
            seating = await lobby.seat()
            seat = _AwayForHandOne(samples=SAMPLES, seed=1) if n == 1 else None
            node = table.node(n, seating, lobby, seat=seat)
            await node.start()
            return node

        nodes = list(await asyncio.wait_for(asyncio.gather(*map(sit, range(3))), DEADLINE))
        await finish(nodes)
        return nodes

    nodes = asyncio.run(main())
    away = nodes[1].seat
    assert_same_valid_game(nodes, hands=4, chips=3 * DEEP)
    chain = entries(nodes[0])
    timed_out = {s for e in chain if isinstance(e.body, k.Timeout) for s in e.body.seats}
    assert away in timed_out, "the others timed it out"
    # its sit_in after hand 2 (or, if the next hand's start reached the sequencer first and
    # it was refused, after hand 3: SPEC 8.9)
    [(author, after)] = [(e.author, e.hand) for e in chain if e.kind == "sit_in"]
    assert author == away and after in (2, 3)
    starts = {e.hand: e.body for e in chain if isinstance(e.body, k.HandStart)}
    assert away not in {p.seat for p in starts[2].players}, "it sat out hand 2"
    assert away in {p.seat for p in starts[after + 1].players}, "and plays again"


def test_a_persons_sit_in_the_sequencer_refused_is_written_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, witness: Witness
) -> None:
    """A person's seat that does not answer in hand 1 is timed out and sits out hand 2; the
    person asks to play again, and its `sit_in`, written after hand 2, is held on its way (a
    slow link) until every seat is in hand 3: the sequencer does not place it. The person's
    wish lasts until the seat plays, so its node writes the sit_in again after hand 3, and
    the seat is dealt hand 4 (SPEC 3.11, 8.9)."""
    patient_dealers(monkeypatch)

    async def main() -> tuple[list[Node], int]:
        config = deep(seats=3, action_clock=3)
        table = Table(tmp_path, players=3, hands=4, config=config, witness=witness)
        nodes = await play_game(table, person=1)
        person = nodes[1]
        link = HeldLink(monkeypatch, person.transport, k.SitIn.KIND)
        person.confirm_seat(True)
        await _until(person, lambda v: v.may_sit_in, "timed out and sitting out")
        person.sit_in()
        await until(lambda: bool(link.held), "the sit_in written")
        written = person.hands_played
        await until(
            lambda: all(n.hands_played > written or n.over for n in nodes), "every seat in hand 3"
        )
        link.release()  # late: a hand runs now
        person.next_hand()  # (its deal, when it comes)
        while not person.over:  # the person plays along once dealt in again
            view = await _until(
                person, lambda v: person.over or (v.decision_due and not person.busy), "a turn"
            )
            decision = None if person.over else _decision(view)
            if decision is not None:
                person.decide(decision)
                await _until(person, lambda v, was=view: v is not was, "the next view")
        await finish(nodes)
        return nodes, written

    nodes, written = asyncio.run(main())
    person = nodes[1]
    assert written == 2, "its sit_in was written after hand 2"
    assert_same_valid_game(nodes, hands=4, chips=3 * DEEP)
    chain = entries(nodes[0])
    [sat_in] = [e for e in chain if e.kind == "sit_in"]
    assert sat_in.author == person.seat and sat_in.hand == 3, "placed after the hand that beat it"
    starts = {e.hand: e.body for e in chain if isinstance(e.body, k.HandStart)}
    assert person.seat not in {p.seat for p in starts[3].players}
    assert person.seat in {p.seat for p in starts[4].players}, "it plays again"
