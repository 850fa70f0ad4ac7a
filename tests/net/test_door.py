"""A newcomer joins the live table after its genesis (SPEC 8.9): real nodes over real zmq on
loopback, real sessions, proofs and files. The host's door seats it in a free seat and tells
every seated node of it; it watches the game, catches up, and plays from the hand after its
`join`. A forged or foreign announcement pins nothing; a second newcomer for the one free seat
is turned away."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path

import pytest
from live_helpers import (
    DEADLINE,
    DEEP,
    LOOPBACK,
    HeldLink,
    Table,
    bot,
    caught_up,
    close_all,
    deep,
    entries,
    open_store,
    patient_dealers,
    play_all,
    play_game,
    transcript,
    until,
)
from witness import Witness

from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.canonical import dump_checked
from p2pwillow.ledger.entry import Entry
from p2pwillow.net.discovery import TableAd, browse
from p2pwillow.net.doorbell import answer
from p2pwillow.net.errors import WireError, WireReason
from p2pwillow.net.lobby import (
    GuestLobby,
    HostLobby,
    LobbyError,
    LobbyFailure,
    keys_pair,
    statement_of,
)
from p2pwillow.net.node import Node
from p2pwillow.net.roster import Newcomer, RosterPlayer, Seating, decode_lobby
from p2pwillow.net.transport import ConnectionState, Transport
from p2pwillow.net.wire import LobbyFrame, encode_frame
from p2pwillow.session import Session
from p2pwillow.verify import verify_transcript


async def turned_away(lobby: GuestLobby) -> LobbyError:
    """The LobbyError a guest gets from the host's door (its transport closed after)."""
    with pytest.raises(LobbyError) as caught:
        await asyncio.wait_for(lobby.seat(), DEADLINE)
    assert lobby.transport is not None
    await lobby.transport.close()
    return caught.value


async def short_table(
    table: Table,
    guests: int,
    events: list[dict[str, object]] | None = None,
    go: threading.Event | None = None,
) -> list[Node]:
    """The host and `guests` guests at a table of more seats, started with those seated (the
    host's node reporting to `events`); with `go`, their bots make no decision until it is
    set."""
    await table.open()
    host = table.host
    assert host is not None
    forming = asyncio.ensure_future(host.seat())
    lobbies = [table.guest(n) for n in range(1, guests + 1)]
    seated = asyncio.gather(*(g.seat() for g in lobbies))
    await until(lambda: host.players == guests + 1, f"{guests} guests at the door")
    host.start_now()
    seating = await asyncio.wait_for(forming, DEADLINE)
    nodes = [table.node(0, seating, host, seat=bot(0, go), events=events)]
    await nodes[0].start()
    for n, (lobby, s) in enumerate(zip(lobbies, await seated, strict=True), start=1):
        nodes.append(table.node(n, s, lobby, seat=bot(n, go)))
        await nodes[-1].start()
    return nodes


async def newcomer(table: Table, n: int, events: list[dict[str, object]]) -> Node:
    lobby = table.guest(n)
    seating = await asyncio.wait_for(lobby.seat(), DEADLINE)
    assert seating.late
    node = table.node(n, seating, lobby, events=events)
    await node.start()
    return node


@pytest.fixture(autouse=True)
def _patient_dealers(monkeypatch: pytest.MonkeyPatch) -> None:
    """A newcomer's join, written once it sees a hand end, comes before the next deal."""
    patient_dealers(monkeypatch)


def between_hands_before(chain: list[Entry], seq: int) -> bool:
    """No hand is running when entry `seq` comes (an observer replays the chain to it)."""
    watcher = Session(None, None, chain[0])
    for entry in chain[1:seq]:
        watcher.receive(entry)
    return watcher.between_hands


def test_a_newcomer_takes_a_free_seat_and_plays_from_the_next_hand(
    tmp_path: Path, witness: Witness
) -> None:
    """Three of four seats play; a newcomer comes once the first hand runs, is seated in the
    free seat, watches, writes its join between hands and plays the hands after it with the
    starting stack; every transcript is the same game, the newcomer's too."""
    events: list[dict[str, object]] = []
    at_host: list[dict[str, object]] = []

    async def main() -> list[Node]:
        table = Table(tmp_path, players=3, hands=3, config=deep(seats=4), witness=witness)
        go = threading.Event()
        nodes = await short_table(table, 2, at_host, go)
        await until(lambda: any(e["event"] == "dealt" for e in at_host), "hand 1 dealt")
        nodes.append(await newcomer(table, 3, events))
        await caught_up(table, 3, nodes[0])
        go.set()  # hand 1 goes on once the newcomer is seated and has caught up
        await play_all(nodes)
        return nodes

    nodes = asyncio.run(main())
    assert all(n.failure is None for n in nodes)
    copies = {transcript(n) for n in nodes}
    assert len(copies) == 1, "every seat holds the same transcript, the newcomer's too"
    data = copies.pop()
    chain = entries(data)
    [join] = [e for e in chain if isinstance(e.body, k.Join)]
    assert isinstance(join.body, k.Join) and join.author == 3
    assert join.body.buy_in == DEEP, "a new identity buys in with the starting stack"
    assert join.body.identity_key == nodes[3].seating.me.identity_key
    assert between_hands_before(chain, join.seq)
    # it came while hand 1 ran (dealt, not ended) and its join waited for the hand's end
    [admitted] = [e["t"] for e in at_host if e["event"] == "newcomer"]
    assert isinstance(admitted, float)
    ends = [e["t"] for e in at_host if e["event"] == "hand_end" and e["hand"] == 1]
    assert ends and isinstance(ends[0], float) and ends[0] > admitted
    later = [e.body for e in chain[join.seq :] if isinstance(e.body, k.HandStart)]
    assert later and all(3 in {p.seat for p in body.players} for body in later)
    report = verify_transcript(data)
    assert report.valid and not report.missing, report.error
    assert report.ended_by is not None and isinstance(chain[-1].body, k.HeadSignature)
    chips = report.chips
    assert chips is not None and chips.bought_in == 4 * DEEP
    assert not [e for e in events if e["event"] in ("rejected", "bad_frame", "failed")]
    codes = {n.safety_code for n in nodes}
    assert len(codes) == 1, "the safety code over the roster with the newcomer, everywhere"
    for node in nodes[:3]:
        assert nodes[3].transport.keys.public in node.transport.pinned


def test_announcements_that_are_not_the_hosts_or_do_not_verify_pin_nothing(
    tmp_path: Path, witness: Witness
) -> None:
    """A `newcomer` message is taken only from the host, of this game, with a statement that
    verifies; a tampered statement is refused as the decoder reads it. (Hand 1 waits
    meanwhile: a node whose game is over takes no newcomer.)"""

    async def main() -> None:
        table = Table(tmp_path, players=3, hands=2, config=deep(seats=4), witness=witness)
        go = threading.Event()
        nodes = await short_table(table, 2, None, go)
        host, guest, other = nodes
        _, keys = open_store(tmp_path, 9)
        player = RosterPlayer.of(3, "Mallory", statement_of(keys), "127.0.0.1", 4999)
        good = Newcomer(game=host.game.hex(), player=player)
        forged = dict(good.to_json())
        forged["player"] = {**player.to_json(), "key_sig": "00" * 64}
        with pytest.raises(WireError) as caught:
            decode_lobby(LobbyFrame("newcomer", dump_checked(forged)))
        assert caught.value.reason is WireReason.BAD_KEY_STATEMENT
        foreign = Newcomer(game="11" * 16, player=player)
        sends = [
            (host, LobbyFrame("newcomer", dump_checked(forged))),  # tampered
            (host, foreign.frame()),  # another game's
            (other, good.frame()),  # a seated peer that is not the host
        ]
        # each followed by garbage from its sender, a bad frame the guest counts once it has
        # handled what came before it on that link: four bad frames, the tampered one too
        to = guest.transport.keys.public
        for sender, frame in sends:
            # (a link still being made drops what is sent on it: each sender's is made first)
            assert await sender.transport.wait_state(to, ConnectionState.CONNECTED, DEADLINE)
            assert sender.transport.send(to, encode_frame(frame))
            assert sender.transport.send(to, b"not a frame")
        await until(lambda: guest.traffic.bad_frames >= 4, "every announcement handled")
        assert keys.curve_public not in guest.transport.pinned
        host.transport.send(guest.transport.keys.public, encode_frame(good.frame()))
        await until(lambda: keys.curve_public in guest.transport.pinned, "the good one pinned")
        # (the host's own, verified: pinned)
        # kept in its table.json before it is dialled, for a restart (SPEC 8.10); what it
        # refused is not
        data = guest.store.load_table(guest.game)
        assert data is not None and Seating.decode(data).newcomers == (player,)
        kept = json.loads(data)
        for bad in (
            [{**player.to_json(), "key_sig": "00" * 64}],  # a statement that does not verify
            [player.to_json(), player.to_json()],  # a seat twice
            [],  # said without any
        ):
            with pytest.raises(ValueError):
                Seating.decode(dump_checked({**kept, "newcomers": bad}))
        go.set()
        await play_all(nodes)

    asyncio.run(main())


def test_a_second_newcomer_for_the_one_free_seat_is_turned_away(
    tmp_path: Path, witness: Witness
) -> None:
    """Two of three seats play; the first newcomer gets the free seat, the second is told the
    table is full (the seat is promised until the first one's join comes or it is dropped);
    one with a seated player's name is told that first."""

    async def main() -> None:
        table = Table(tmp_path, players=2, hands=3, config=deep(seats=3), witness=witness)
        go = threading.Event()
        nodes = await short_table(table, 1, None, go)
        events: list[dict[str, object]] = []
        nodes.append(await newcomer(table, 2, events))
        await caught_up(table, 2, nodes[0])
        clash = table.guest(4, ["  ANN "])
        with pytest.raises(LobbyError) as caught:
            await asyncio.wait_for(clash.seat(), DEADLINE)
        assert caught.value.reason is LobbyFailure.NAME_TAKEN
        assert (
            str(caught.value)
            == "the host did not seat   ANN : someone at the table is called   ANN "
        )
        assert clash.transport is not None
        await clash.transport.close()
        late: GuestLobby = table.guest(3)
        with pytest.raises(LobbyError) as caught:
            await asyncio.wait_for(late.seat(), DEADLINE)
        assert caught.value.reason is LobbyFailure.TABLE_FULL
        assert late.transport is not None
        await late.transport.close()
        go.set()  # the game goes on only now: it cannot end before the door was tried
        await play_all(nodes)
        assert len({transcript(n) for n in nodes}) == 1
        chain = entries(transcript(nodes[0]))
        assert [e.author for e in chain if isinstance(e.body, k.Join)] == [2]

    asyncio.run(main())


def test_a_newcomer_that_never_joins_is_dropped_and_its_seat_is_free_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, witness: Witness
) -> None:
    """A newcomer seated by the door whose node never starts (so no `join` ever comes) is
    dropped by every node after JOIN_WITHIN: unpinned, hung up; the seat promised to it is
    given to the next newcomer, who joins and plays."""
    monkeypatch.setattr("p2pwillow.net.node.JOIN_WITHIN", 1.0)
    at_host: list[dict[str, object]] = []

    async def main() -> None:
        table = Table(tmp_path, players=2, hands=3, config=deep(seats=3), witness=witness)
        go = threading.Event()
        nodes = await short_table(table, 1, at_host, go)
        silent = table.guest(2)
        seating = await asyncio.wait_for(silent.seat(), DEADLINE)
        assert seating.late and seating.seat == 2
        assert silent.transport is not None
        await silent.transport.close()  # it never plays
        key = seating.me.curve
        await until(lambda: all(key not in n.transport.pinned for n in nodes), "dropped everywhere")
        assert any(e["event"] == "dropped" and e["peer"] == 2 for e in at_host)
        monkeypatch.setattr("p2pwillow.net.node.JOIN_WITHIN", 120.0)
        nodes.append(await newcomer(table, 3, []))
        assert nodes[-1].seat == 2, "the seat promised to the dropped newcomer is free again"
        await caught_up(table, 3, nodes[0])
        go.set()  # hand 1 goes on once the second newcomer is seated and has caught up
        await play_all(nodes)
        assert len({transcript(n) for n in nodes}) == 1
        chain = entries(transcript(nodes[0]))
        joins = [e.body for e in chain if isinstance(e.body, k.Join)]
        assert [j.identity_key for j in joins] == [nodes[-1].seating.me.identity_key]

    asyncio.run(main())


def test_a_newcomer_at_a_game_that_is_over_is_told_so(tmp_path: Path, witness: Witness) -> None:
    """Once the game's end is in the host's chain its door turns newcomers away: game-over."""

    async def main() -> None:
        table = Table(tmp_path, players=2, hands=1, config=deep(seats=3), witness=witness)
        nodes = await short_table(table, 1)
        assert all(await asyncio.gather(*(n.wait_over(DEADLINE) for n in nodes)))
        over = await turned_away(table.guest(3))
        assert over.reason is LobbyFailure.GAME_OVER
        assert str(over) == "the host did not seat bot 3: the game is over"
        await play_all(nodes)

    asyncio.run(main())


def test_a_newcomer_that_refuses_the_new_code_hears_no_more_of_the_table(
    tmp_path: Path, witness: Witness
) -> None:
    """A person joining a game under way answers no to the new safety code (SPEC 6.6): its
    node stops, saying why, and tells nothing more of the table it did not take: not the
    code the table goes back to without it, which its screen would show as the table's."""
    events: list[dict[str, object]] = []

    async def main() -> list[Node]:
        table = Table(tmp_path, players=2, hands=3, config=deep(seats=3), witness=witness)
        nodes = await short_table(table, 1)
        lobby = table.guest(2, ["Bob"])
        seating = await asyncio.wait_for(lobby.seat(), DEADLINE)
        late = table.node(2, seating, lobby, person=True, events=events)
        await late.start()

        def asked() -> bool:
            admission = late.view().admission
            return admission is not None and admission.you_join

        await until(asked, "the newcomer asked to compare the new code")
        late.answer_admission(False)
        assert await late.wait_over(DEADLINE)
        # its own no, in words on its screen's log (not "Bob refused Bob")
        said_no = "Bob did not take the seat: the safety codes did not match"
        await until(lambda: said_no in [line.text() for line in late.view().log], said_no)
        await play_all(nodes)  # the game goes on without it, to its end
        await late.close()
        return nodes

    nodes = asyncio.run(main())
    said = [e["event"] for e in events]
    assert "not_admitted" in said, said
    after = said[said.index("not_admitted") :]
    assert "safety_code" not in after, f"a code told after the seat was refused: {said}"
    data = transcript(nodes[0])
    assert not any(
        isinstance(e.body, k.HandStart) and 2 in {p.seat for p in e.body.players}
        for e in entries(data)
    ), "no hand dealt the newcomer in"


def test_a_player_who_left_comes_back_with_the_stack_it_left_with(
    tmp_path: Path, witness: Witness
) -> None:
    """A seat leaves between hands; the same store (its identity, its transcript up to its
    leave, its log of signed counters) joins again as a newcomer: its join brings nothing (its
    stack comes back), its counters go on from the ones it signed, and its transcript goes on
    from what it held: one game, byte for byte, with every other seat's."""
    events: list[dict[str, object]] = []

    async def main() -> tuple[list[Node], Node]:
        table = Table(tmp_path, players=3, hands=0, witness=witness)  # the host ends it, below
        nodes = await play_game(table, events)
        leaver = next(n for n in nodes if n.seat == 2)
        leaver.leave_table()
        await asyncio.wait_for(leaver.play_out(), DEADLINE)
        assert leaver.ended is not None and leaver.ended.startswith("you left the table")
        assert leaver.settled, "told by every peer that it holds the leave before it let go"
        left_with = transcript(leaver)
        again = await newcomer(table, nodes.index(leaver), events)
        assert again.seat == 2
        stayers = [n for n in nodes if n is not leaver]

        def played_after_join() -> bool:
            at_host = [e for e in events if e["seat"] == 0]
            joined = [i for i, e in enumerate(at_host) if e["event"] == "joined"]
            return bool(joined) and any(e["event"] == "hand_end" for e in at_host[joined[0] :])

        await until(played_after_join, "a hand played after the join")
        nodes[0].end_game()
        await play_all([*stayers, again])
        assert transcript(again).startswith(left_with)
        return stayers, again

    stayers, again = asyncio.run(main())
    copies = {transcript(n) for n in [*stayers, again]}
    assert len(copies) == 1
    data = copies.pop()
    chain = entries(data)
    [leave] = [e for e in chain if isinstance(e.body, k.Leave)]
    [join] = [e for e in chain if isinstance(e.body, k.Join)]
    assert isinstance(join.body, k.Join) and join.author == 2 and join.body.buy_in == 0
    assert join.seq > leave.seq and join.counter > leave.counter
    report = verify_transcript(data)
    assert report.valid and not report.missing, report.error
    chips = report.chips
    assert chips is not None and chips.bought_in == 3 * DEEP and chips.at_table == 3 * DEEP
    assert not [e for e in events if e["event"] in ("rejected", "bad_frame", "failed")]


def joins_sent(events: list[dict[str, object]]) -> list[int]:
    """The hands after which a newcomer wrote its join, as its events say."""
    return [int(str(e["hand"])) for e in events if e["event"] == "join_sent"]


def test_a_join_the_sequencer_refused_is_written_again_after_the_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, witness: Witness
) -> None:
    """The newcomer's join is held on its way (a slow link) until the next hand has started:
    the sequencer refuses it (a hand is running); the newcomer is told so, writes its join
    again once that hand has ended, and plays the hands after it."""
    events: list[dict[str, object]] = []
    at_host: list[dict[str, object]] = []
    notices: list[str] = []

    async def main() -> list[Node]:
        table = Table(tmp_path, players=3, hands=5, config=deep(seats=4), witness=witness)
        go = threading.Event()
        nodes = await short_table(table, 2, at_host, go)
        await until(lambda: any(e["event"] == "dealt" for e in at_host), "hand 1 dealt")
        lobby = table.guest(3)
        seating = await asyncio.wait_for(lobby.seat(), DEADLINE)
        slow = lobby.transport
        assert slow is not None
        link = HeldLink(monkeypatch, slow, k.Join.KIND)
        store, keys = table.stores[3]
        late = Node(seating, slow, store, keys, bot=bot(3), watch=False,
                    on_event=events.append, say=notices.append)  # fmt: skip
        await late.start()
        nodes.append(late)
        go.set()  # hand 1 goes on once the newcomer is seated
        await until(lambda: bool(link.held and joins_sent(events)), "the join written and held")
        [written_after] = joins_sent(events)
        # every seat in the next hand: its start is countersigned by the sequencer of the hand
        # before (SPEC 6.6), so the seat sequencing it may get the start after others do, and
        # a join reaching that seat first is kept as a witness copy and dropped with the hand
        # before, neither placed nor refused (the newcomer writes it again after the hand)
        await until(
            lambda: all(n.hands_played > written_after or n.over for n in nodes[:-1]),
            "every seat in the next hand",
        )
        link.release()
        await play_all(nodes)
        return nodes

    nodes = asyncio.run(main())
    assert all(n.failure is None for n in nodes)
    # (on a loaded machine the join written again may lose its race with the next hand's
    # start too, and be refused and written again once more)
    refused = [e for e in events if e["event"] == "join_refused"]
    sent = joins_sent(events)
    assert refused and len(sent) == len(refused) + 1 and sent == sorted(sent), sent
    text = [n for n in notices if n.startswith("the table refused this seat's join (")]
    assert len(text) == len(refused), notices
    assert all(n.endswith("; it is written again once no hand runs") for n in text)
    assert all(isinstance(e["detail"], str) and e["detail"] for e in refused)
    copies = {transcript(n) for n in nodes}
    assert len(copies) == 1
    chain = entries(copies.pop())
    [join] = [e for e in chain if isinstance(e.body, k.Join)]
    assert join.author == 3 and between_hands_before(chain, join.seq)
    starts = [e for e in chain if isinstance(e.body, k.HandStart)]
    before = sum(e.seq < join.seq for e in starts)
    assert before == sent[-1] and before > sent[0], "it joined after the hand that refused it"
    assert any(
        isinstance(e.body, k.HandStart) and 3 in {p.seat for p in e.body.players} for e in starts
    )
    report = verify_transcript(transcript(nodes[0]))
    assert report.valid and not report.missing, report.error


async def host_again(
    tmp: Path, crashed: Node, *, advertise: bool = False, go: threading.Event | None = None
) -> Node:
    """The host's node stopped (`crashed`, closed with nothing said) and taking its seat
    again from its store as `willow host --resume` does: the door open on its port, opened
    again from its table.json (SPEC 8.10). With `go`, its bot is held until it is set."""
    await crashed.close()
    store, keys = open_store(tmp, 0)
    kept = store.load_table(crashed.game)
    assert kept is not None
    seating = Seating.decode(kept)
    transport = Transport(
        keys_pair(keys),
        host=LOOPBACK,
        port=seating.me.port,
        accept_unpinned=True,
        doorbell=answer(statement_of(keys)),  # (the same join code, SPEC 8.6)
    )
    await transport.start()
    transport.set_pins(p.statement for p in seating.others)
    for p in seating.others:
        transport.connect(p.curve, p.host, p.port)
    door = HostLobby.reopen(keys, seating, transport, advertise=advertise)
    again = Node(seating, transport, store, keys, bot=bot(0, go), door=door, resume=True)
    await again.start()
    return again


def test_a_host_resumed_advertises_its_table_while_seats_are_free(
    tmp_path: Path, witness: Witness
) -> None:
    """Two of three seats play; the host's node stops and takes its seat again: its door,
    opened again, advertises the table with the one seat free in its chain (SPEC 8.7),
    under the host's keys, at its port. (Hand 1 waits meanwhile: a door stops advertising once
    its game is over.)"""

    async def main() -> None:
        table = Table(tmp_path, players=2, hands=3, config=deep(seats=3), witness=witness)
        go = threading.Event()
        nodes = await short_table(table, 1, None, go)
        port = nodes[0].seating.me.port
        nodes[0] = await host_again(tmp_path, nodes[0], advertise=True, go=go)
        try:
            key = nodes[0].seating.me.curve
            mine: list[TableAd] = []
            end = time.monotonic() + DEADLINE
            while not mine and time.monotonic() < end:  # listened for again until it is heard
                found = await browse(2.5, [LOOPBACK])
                mine = [t for t in found.tables if t.statement and t.statement.curve_key == key]
            assert [(t.name, t.seats_free, t.port) for t in mine] == [("test table", 1, port)]
            assert mine[0].joinable
        finally:
            await close_all(nodes)

    asyncio.run(main())


def test_a_host_resumed_keeps_the_seat_it_promised_a_newcomer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, witness: Witness
) -> None:
    """Two of three seats play; the door seats a newcomer, whose `join` is held on its way;
    the host's node stops (as in a crash) and takes its seat again from its store, its door
    opened again from table.json (SPEC 8.10): the seat stays promised to the newcomer (another
    one is told the table is full), the held join comes in once released, and the newcomer
    plays the game to its end with the others: one game everywhere. The bots wait from the
    moment the join is written until it is released, so hands are left to play after it."""

    async def main() -> list[Node]:
        table = Table(tmp_path, players=2, hands=6, config=deep(seats=3), witness=witness)
        go = threading.Event()
        go.set()
        nodes = await short_table(table, 1, None, go)
        lobby = table.guest(2)
        seating = await asyncio.wait_for(lobby.seat(), DEADLINE)
        assert lobby.transport is not None
        link = HeldLink(monkeypatch, lobby.transport, k.Join.KIND)
        late = table.node(2, seating, lobby)
        await late.start()
        await until(lambda: bool(link.held), "the newcomer's join written")
        go.clear()
        again = await host_again(tmp_path, nodes[0], go=go)
        assert [p.seat for p in again.seating.newcomers] == [2], "kept before it was dialled"
        others = [again, nodes[1], late]
        try:
            full = await turned_away(table.guest(3))
            assert full.reason is LobbyFailure.TABLE_FULL, full
        finally:
            link.release()
            go.set()
        await play_all(others)
        return others

    nodes = asyncio.run(main())
    assert all(n.failure is None for n in nodes)
    copies = {transcript(n) for n in nodes}
    assert len(copies) == 1, "the resumed host, the player and the newcomer hold one game"
    chain = entries(copies.pop())
    [join] = [e for e in chain if isinstance(e.body, k.Join)]
    assert join.author == 2
    later = [e.body for e in chain[join.seq :] if isinstance(e.body, k.HandStart)]
    assert later and all(2 in {p.seat for p in body.players} for body in later)
    report = verify_transcript(transcript(nodes[2]))
    assert report.valid and not report.missing, report.error
