"""Forming a table on loopback (SPEC 8.9): guests seated in turn, the full mesh, and every way
a guest is turned away, each one LobbyError with its own reason; the lobby's messages read as
untrusted input."""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path

import jsonschema
import pytest
from live_helpers import DEADLINE, LOOPBACK, Table, close_all, finish, node_keys, play_game

from p2pwillow.ledger.canonical import dump_checked
from p2pwillow.ledger.kinds import Genesis
from p2pwillow.ledger.schema import schema_text
from p2pwillow.net import lobby as lobby_module
from p2pwillow.net import transport as transport_module
from p2pwillow.net.discovery import JoinCode
from p2pwillow.net.doorbell import answer, open_doorbell
from p2pwillow.net.errors import WireError, WireReason
from p2pwillow.net.lobby import (
    GuestLobby,
    HostLobby,
    LobbyError,
    LobbyFailure,
    TablePlan,
    statement_of,
)
from p2pwillow.net.roster import (
    Closed,
    Joining,
    Newcomer,
    Refused,
    Roster,
    Sit,
    Stand,
    Welcome,
    decode_lobby,
    lobby_schemas,
)
from p2pwillow.net.wire import LobbyFrame
from p2pwillow.rules import TableConfig


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        port: int = s.getsockname()[1]
        return port


def test_the_table_forms_and_every_node_knows_every_other(tmp_path: Path) -> None:
    async def main() -> None:
        nodes = await play_game(Table(tmp_path, players=4, hands=1))
        rosters = {n.seating.roster for n in nodes}
        assert len(rosters) == 1
        [roster] = rosters
        assert [p.seat for p in roster.players] == [0, 1, 2, 3]
        assert roster.players[0].name == "Ann"
        assert sorted(p.name for p in roster.players[1:]) == ["bot 1", "bot 2", "bot 3"]
        for node in nodes:
            others = {p.curve for p in roster.players if p.seat != node.seat}
            assert set(node.transport.peers) == others  # a DEALER to every other node
            assert node.transport.pinned == others  # only seated keys are let in
        await finish(nodes)

    asyncio.run(main())


def test_a_full_table_turns_a_guest_away(tmp_path: Path) -> None:
    async def main() -> None:
        table = Table(tmp_path, players=2, hands=1)
        nodes = await play_game(table)
        late = table.guest(5)
        with pytest.raises(LobbyError) as caught:
            await asyncio.wait_for(late.seat(), DEADLINE)
        assert caught.value.reason is LobbyFailure.TABLE_FULL
        assert str(caught.value) == "the host did not seat bot 5: all 2 seats are taken"
        assert late.transport is not None
        await late.transport.close()
        await finish(nodes)

    asyncio.run(main())


def test_a_name_taken_is_refused_and_a_bot_tries_its_next_name(tmp_path: Path) -> None:
    async def main() -> None:
        table = Table(tmp_path, players=3, hands=1)
        await table.open()
        assert table.host is not None
        host_seat = asyncio.ensure_future(table.host.seat())
        clash = table.guest(1, ["  ann "])
        with pytest.raises(LobbyError) as caught:
            await asyncio.wait_for(clash.seat(), DEADLINE)
        assert caught.value.reason is LobbyFailure.NAME_TAKEN
        assert "someone at the table is called" in str(caught.value)
        assert clash.transport is not None
        await clash.transport.close()
        # a bot with names to spare takes the next one; a second guest fills the table
        spare = table.guest(2, ["Ann", "Bea"])
        other = table.guest(3, ["Cal"])
        guests = asyncio.gather(spare.seat(), other.seat())
        seating = await asyncio.wait_for(host_seat, DEADLINE)
        names = [p.name for p in seating.roster.players]
        assert names[0] == "Ann" and sorted(names[1:]) == ["Bea", "Cal"]
        host = table.node(0, seating, table.host)
        await host.start()
        formed = await asyncio.wait_for(guests, DEADLINE)
        nodes = [host] + [
            table.node(n, s, g) for n, s, g in zip((2, 3), formed, (spare, other), strict=True)
        ]
        for node in nodes[1:]:
            await node.start()
        await finish(nodes)

    asyncio.run(main())


def test_a_wrong_key_is_told_from_an_address_where_nothing_answers(tmp_path: Path) -> None:
    async def main() -> None:
        table = Table(tmp_path, players=3, hands=1)
        code = await table.open()
        table.code = JoinCode.of(code.host, code.port, statement_of(node_keys(99)))
        wrong = table.guest(1)
        with pytest.raises(LobbyError) as caught:
            await wrong.seat()
        assert caught.value.reason is LobbyFailure.WRONG_KEY
        assert "does not hold the keys this join code names" in str(caught.value)
        table.code = JoinCode(LOOPBACK, _free_port(), code.key_print)
        nobody = table.guest(2)
        with pytest.raises(LobbyError) as caught:
            await nobody.seat()
        assert caught.value.reason is LobbyFailure.UNREACHABLE
        assert str(caught.value).startswith(f"nothing answers at {LOOPBACK}:")
        for lobby in (wrong, nobody, table.host):
            assert lobby is not None and lobby.transport is not None
            await lobby.transport.close()

    asyncio.run(main())


@pytest.mark.parametrize("from_record", [False, True], ids=["rung", "from-record"])
def test_handshakes_that_fail_with_the_key_confirmed_are_a_poor_link_not_a_wrong_key(
    monkeypatch: pytest.MonkeyPatch, from_record: bool
) -> None:
    """The doorbell answers with the code's key, but every CURVE handshake at that address
    fails (here a listener that never answers; on a lossy wifi, segments lost again and
    again). The guest dials on until BUSY_WITHIN and says no connection could be made; it does
    not say, after two failures, that the host holds another key. A guest with the key from
    the table's record rings to learn the same."""
    monkeypatch.setattr(transport_module, "DIAL_HANDSHAKE_IVL_MS", 600)
    monkeypatch.setattr(lobby_module, "BUSY_WITHIN", 4.0)
    host = statement_of(node_keys(7))

    async def main() -> None:
        with socket.socket() as silent:
            silent.bind((LOOPBACK, 0))
            silent.listen(8)
            port = silent.getsockname()[1]
            bell = await open_doorbell(LOOPBACK, port, answer(host))
            code = JoinCode.of(LOOPBACK, port, host)
            guest = GuestLobby(
                node_keys(8), ["Bea"], code, address=LOOPBACK, connect_within=2.0,
                host_key=host if from_record else None,
            )  # fmt: skip
            try:
                with pytest.raises(LobbyError) as caught:
                    await guest.seat()
                assert guest.transport is not None
                failed = guest.transport.failures(host.curve_key)
            finally:
                bell.close()
                if guest.transport is not None:
                    await guest.transport.close()
        assert caught.value.reason is LobbyFailure.BUSY, caught.value
        assert str(caught.value) == (
            f"the table at {LOOPBACK}:{port} answers, but no connection to it was made in 4 s "
            "(a poor link, or too many at its door): try again in a moment"
        )
        assert failed > 2  # it dialled on past the second failure

    asyncio.run(main())


def test_a_key_from_the_record_that_the_address_does_not_hold_is_told_after_two_failures(
    tmp_path: Path,
) -> None:
    """The table's record named keys (and the code their print) that the peer at the address
    does not hold: its handshakes fail at once; the guest rings, hears other keys, and says so
    well before BUSY_WITHIN."""

    async def main() -> None:
        table = Table(tmp_path, players=3, hands=1)
        code = await table.open()
        named = statement_of(node_keys(99))
        stale = JoinCode.of(code.host, code.port, named)
        guest = GuestLobby(
            node_keys(8), ["Bea"], stale, address=LOOPBACK, connect_within=3.0, host_key=named
        )
        loop = asyncio.get_running_loop()
        began = loop.time()
        try:
            with pytest.raises(LobbyError) as caught:
                await guest.seat()
        finally:
            for lobby in (guest, table.host):
                if lobby is not None and lobby.transport is not None:
                    await lobby.transport.close()
        assert caught.value.reason is LobbyFailure.WRONG_KEY, caught.value
        assert "does not hold the key in this join code" in str(caught.value)
        assert loop.time() - began < lobby_module.BUSY_WITHIN / 2

    asyncio.run(main())


def test_a_port_in_use_is_one_error(tmp_path: Path) -> None:
    async def main() -> None:
        with socket.socket() as taken:
            taken.bind((LOOPBACK, 0))
            taken.listen()
            port = taken.getsockname()[1]
            plan = TablePlan("t", TableConfig(seats=2))
            host = HostLobby(node_keys(0), "Ann", plan, address=LOOPBACK, port=port)
            with pytest.raises(LobbyError) as caught:
                await host.open()
        assert caught.value.reason is LobbyFailure.PORT_IN_USE
        assert f"cannot listen on {LOOPBACK}:{port}" in str(caught.value)

    asyncio.run(main())


def test_a_guest_that_stands_up_frees_its_seat(tmp_path: Path) -> None:
    async def main() -> None:
        said: list[str] = []
        table = Table(tmp_path, players=3, hands=1)
        await table.open()
        assert table.host is not None
        table.host._say = said.append
        host_seat = asyncio.ensure_future(table.host.seat())
        first = table.guest(1)
        first_seat = asyncio.ensure_future(first.seat())
        for _ in range(200):
            if table.host.players == 2:
                break
            await asyncio.sleep(0.02)
        assert table.host.players == 2
        first_seat.cancel()
        await first.leave()
        for _ in range(200):
            if table.host.players == 1:
                break
            await asyncio.sleep(0.02)
        assert table.host.players == 1
        assert said[-1] == "bot 1 left: 1 of 3 seats taken"
        guests = [table.guest(2), table.guest(3)]
        joined = asyncio.gather(*(g.seat() for g in guests))
        seating = await asyncio.wait_for(host_seat, DEADLINE)
        assert [p.name for p in seating.roster.players[1:]] in (
            ["bot 2", "bot 3"],
            ["bot 3", "bot 2"],
        )
        host = table.node(0, seating, table.host)
        await host.start()
        formed = await asyncio.wait_for(joined, DEADLINE)
        nodes = [
            host,
            *(table.node(n, s, g) for n, s, g in zip((2, 3), formed, guests, strict=True)),
        ]
        for node in nodes[1:]:
            await node.start()
        await close_all(nodes)

    asyncio.run(main())


def _roster_payload(tmp_path: Path) -> dict[str, object]:
    async def made() -> Roster:
        nodes = await play_game(Table(tmp_path, players=2, hands=1))
        await finish(nodes)
        return nodes[0].seating.roster

    roster = asyncio.run(made())
    payload: dict[str, object] = json.loads(dump_checked(roster.to_json()))
    return payload


def test_lobby_messages_are_read_as_untrusted_input(tmp_path: Path) -> None:
    good = _roster_payload(tmp_path)
    decoded = decode_lobby(LobbyFrame("roster", dump_checked(good)))
    assert isinstance(decoded, Roster)

    def bad(change: dict[str, object], kind: str = "roster") -> WireError:
        with pytest.raises(WireError) as caught:
            decode_lobby(LobbyFrame(kind, dump_checked({**good, **change})))
        return caught.value

    players = good["players"]
    assert isinstance(players, list)
    forged = [{**players[0], "key_sig": "00" * 64}, players[1]]
    assert bad({"players": forged}).reason is WireReason.BAD_KEY_STATEMENT
    twice = [players[0], {**players[1], "curve_key": players[0]["curve_key"]}]
    assert "same curve key" in str(bad({"players": twice}))
    named = [{**players[0], "host": "willow.local"}, players[1]]
    assert "IPv4 or IPv6 address" in str(bad({"players": named}))
    assert "seats" in str(bad({"config": {**good["config"], "seats": 1}}))  # type: ignore[dict-item]
    assert bad({"extra": 1}).reason is WireReason.BAD_ITEM
    assert bad({}, kind="teleport").reason is WireReason.UNKNOWN_TYPE
    with pytest.raises(WireError):
        decode_lobby(LobbyFrame("sit", b'{"port":0}'))
    assert decode_lobby(Sit(port=4000).frame()) == Sit(port=4000)


LOBBY_SCHEMAS = Path(__file__).resolve().parents[2] / "protocol" / "schemas" / "wire" / "lobby"


@pytest.mark.parametrize("kind", sorted(lobby_schemas()))
def test_lobby_schema_files_are_what_the_code_declares(kind: str) -> None:
    expected = schema_text(lobby_schemas()[kind])
    assert (LOBBY_SCHEMAS / f"{kind}.json").read_text("utf-8") == expected, (
        "regenerate protocol/schemas/wire/lobby/ from p2pwillow.net.roster.lobby_schemas()"
    )
    jsonschema.Draft202012Validator.check_schema(json.loads(expected))


def test_no_stray_lobby_schema_files() -> None:
    assert {p.stem for p in LOBBY_SCHEMAS.glob("*.json")} == set(lobby_schemas())


def test_lobby_messages_and_their_schemas_agree(tmp_path: Path) -> None:
    samples = {
        "sit": Sit(port=4000).frame(),
        "welcome": Welcome(seat=3).frame(),
        "refused": Refused(reason="table-full", name="Eve", detail="all 4 seats are taken").frame(),
        "stand": Stand().frame(),
        "closed": Closed(detail="the host closed the table").frame(),
        "roster": LobbyFrame("roster", dump_checked(_roster_payload(tmp_path))),
    }
    roster = decode_lobby(samples["roster"])
    assert isinstance(roster, Roster)
    samples["newcomer"] = Newcomer(game=roster.game, player=roster.players[1]).frame()
    samples["joining"] = Joining(seat=2).frame()
    assert set(samples) == set(lobby_schemas())
    for kind, frame in samples.items():
        value = json.loads(frame.payload)
        jsonschema.Draft202012Validator(lobby_schemas()[kind]).validate(value)
        assert kind == decode_lobby(frame).KIND
    bad = json.loads(samples["refused"].payload) | {"reason": "bored"}
    assert not jsonschema.Draft202012Validator(lobby_schemas()["refused"]).is_valid(bad)
    with pytest.raises(WireError):
        decode_lobby(LobbyFrame("refused", dump_checked(bad)))


def test_the_host_names_another_player_the_arbiter(tmp_path: Path) -> None:
    """`willow host --arbiter NAME` (SPEC 3.14): the genesis every node holds names the seat of
    the player so called."""

    async def main() -> None:
        table = Table(tmp_path, players=3, hands=1, config=TableConfig(seats=3), arbiter="bot 2")
        nodes = await play_game(table)
        try:
            for node in nodes:
                genesis = node.seating.genesis.body
                assert isinstance(genesis, Genesis)
                seat = TableConfig.from_dict(genesis.config).arbiter
                assert node.seating.roster.players[seat].name == "bot 2"
        finally:
            await close_all(nodes)

    asyncio.run(main())


def test_a_host_naming_nobody_at_the_table_stays_the_arbiter(tmp_path: Path) -> None:
    plan = TablePlan("t", TableConfig(seats=3, arbiter=0), arbiter="Zed")
    heard: list[str] = []
    host = HostLobby(node_keys(0), "Ann", plan, address=LOOPBACK, say=heard.append)
    host._name_arbiter()
    assert host.plan.config.arbiter == 0
    assert heard == ["nobody called 'Zed' sits at the table: you are its arbiter"]
