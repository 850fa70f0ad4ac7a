"""Builders for the live-table tests on loopback: stores with keys, a host and its guests, whole
games of nodes in this process (real sockets, real sessions, real proofs)."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from held_willow import DEAL_GRACE, held
from witness import Witness, events_tail

from p2pwillow.ledger.entry import Entry, decode_entry
from p2pwillow.ledger.identity import Identity
from p2pwillow.net.discovery import JoinCode
from p2pwillow.net.keys import CurveKeyPair
from p2pwillow.net.lobby import GuestLobby, HostLobby, TablePlan
from p2pwillow.net.node import BotSeat, Node
from p2pwillow.net.roster import Seating
from p2pwillow.net.transport import Transport
from p2pwillow.net.wire import AuthoredFrame, decode_frame
from p2pwillow.rules import TableConfig
from p2pwillow.store import NodeKeys, Store
from p2pwillow.table import Decider

LOOPBACK = "127.0.0.1"
DEADLINE = 60.0
SAMPLES = 40
"""Few Monte Carlo deals per bot decision: the tests are about the network, not the play."""

DEEP = 1_000_000
"""The stack every seat of these tables sits down with. A seat loses at most about 2,000 chips
a hand (no ante; five betting rounds of a bet and three raises of at most 100, and its trade
tokens), so no game here leaves a seat without chips, or one seat with all of them, before
its last hand: whatever the deal, every seat plays every hand it should, and a game ends when
its hands are played or a seat ends it, never early."""


def deep(seats: int, action_clock: int = 30) -> TableConfig:
    """A table's settings with the DEEP stack."""
    return TableConfig(seats=seats, starting_stack=DEEP, action_clock=action_clock)


def patient_dealers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every node's next dealer waits DEAL_GRACE (held_willow) before it deals: in the tests of
    a seat change that must come before the next hand from a seat a moment behind the others
    (sitting out, watching), in this process shared with the other nodes and a screen."""
    monkeypatch.setattr("p2pwillow.seat.DEAL_GRACE", DEAL_GRACE)


async def until(test: Callable[[], bool], what: str, timeout: float = DEADLINE) -> None:
    """Wait, polling, until `test()` holds; AssertionError naming `what` at the deadline."""
    end = time.monotonic() + timeout
    while not test():
        if time.monotonic() > end:
            raise AssertionError(f"never {what} within {timeout:.0f} s")
        await asyncio.sleep(0.02)


def node_keys(n: int) -> NodeKeys:
    r = random.Random(7000 + n)
    curve = CurveKeyPair.generate(r.randbytes)
    return NodeKeys(Identity.generate(r.randbytes), curve.public, curve.secret)


def open_store(tmp: Path, n: int) -> tuple[Store, NodeKeys]:
    store = Store.open(tmp / f"peer{n}")
    return store, store.keys(lambda: node_keys(n))


def bot(n: int, go: threading.Event | None = None) -> BotSeat:
    if go is not None:
        return HeldBot(samples=SAMPLES, seed=100 + n, go=go)
    return BotSeat(samples=SAMPLES, seed=100 + n)


@dataclass(frozen=True)
class HeldBot(BotSeat):
    """A bot held (`held`) until `go` is set: a test keeps the first hand running until a
    newcomer is at the door, however slow the machine. The decider runs in the node's worker
    thread, hence a thread's event. (Real `willow` processes are held by held_willow.py.)"""

    go: threading.Event = field(default_factory=threading.Event)

    def decider(self, seat: int) -> Decider:
        return held(BotSeat.decider(self, seat), self.go.is_set)


@dataclass
class Table:
    """A host and its guests on loopback, each with its own store; DEEP stacks unless `config`
    says otherwise. With a `witness`, a test that fails shows each node's state and its last
    events."""

    tmp: Path
    players: int
    hands: int = 1
    config: TableConfig | None = None
    witness: Witness | None = None
    host_name: str = "Ann"
    grace: float = 0.0
    """A person's node holds each hand's result this long without a key (SPEC 8.9)."""
    arbiter: str | None = None
    """The player the host names the table's arbiter (`willow host --arbiter`); None: itself."""
    host: HostLobby | None = None
    code: JoinCode | None = None
    stores: dict[int, tuple[Store, NodeKeys]] = field(default_factory=dict)
    seen: dict[int, list[dict[str, object]]] = field(default_factory=dict)
    """The events each node made here reported, by its number."""

    async def open(self) -> JoinCode:
        _, keys = self.stores[0] = open_store(self.tmp, 0)
        config = self.config or deep(seats=self.players)
        plan = TablePlan("test table", config, self.hands, arbiter=self.arbiter)
        self.host = HostLobby(keys, self.host_name, plan, address=LOOPBACK)
        self.code = await self.host.open()
        return self.code

    def guest(self, n: int, names: Sequence[str] | None = None) -> GuestLobby:
        assert self.code is not None
        _, keys = self.stores[n] = open_store(self.tmp, n)
        return GuestLobby(
            keys, names or [f"bot {n}"], self.code, address=LOOPBACK, connect_within=3.0
        )

    def node(
        self,
        n: int,
        seating: Seating,
        lobby: HostLobby | GuestLobby,
        *,
        seat: BotSeat | None = None,
        person: bool = False,
        events: list[dict[str, object]] | None = None,
    ) -> Node:
        store, keys = self.stores[n]
        assert lobby.transport is not None
        seen = self.seen[n] = []

        def on_event(event: dict[str, object]) -> None:
            seen.append(event)
            if events is not None:
                events.append(event)

        node = Node(
            seating,
            lobby.transport,
            store,
            keys,
            bot=None if person else seat or bot(n),
            watch=person,
            on_event=on_event,
            door=lobby if isinstance(lobby, HostLobby) else None,
            result_grace=self.grace if person else 0.0,
        )
        if self.witness is not None:
            self.witness.watch(f"node {n}", lambda: described(node, seen))
        return node


def described(node: Node, events: Sequence[dict[str, object]]) -> str:
    """A node's state and its last events, for the report of a test that failed."""
    state = (
        f"seat {node.seat}: {node.hands_played} hands played, head {node.head}, "
        f"over: {node.over_reason or '-'}, failure: {node.failure}"
    )
    return f"{state}\n{events_tail(events)}"


async def caught_up(table: Table, n: int, host: Node) -> None:
    """Wait until node `n`, a newcomer watching, has the deal of the hand the host is in (a
    table held in it): caught up, it writes its join as soon as that hand ends."""

    def dealt() -> bool:
        hand = host.hands_played
        return hand > 0 and any(
            e["event"] == "dealt" and e.get("hand") == hand for e in table.seen[n]
        )

    await until(dealt, f"node {n} caught up with the host's hand")


async def play_game(
    table: Table,
    events: list[dict[str, object]] | None = None,
    person: int | None = None,
) -> list[Node]:
    """Open the table, seat `players - 1` guests and start every node (each as soon as its
    seat is formed: the host's node greets the guests until they hold the genesis). Every
    seat is a bot but `person`, whose node is watched and left for the caller to confirm.
    Returns the nodes, the host's first."""
    await table.open()
    assert table.host is not None

    async def sit(n: int, lobby: HostLobby | GuestLobby) -> Node:
        seating = await lobby.seat()
        node = table.node(n, seating, lobby, person=n == person, events=events)
        await node.start()
        return node

    lobbies: list[HostLobby | GuestLobby] = [table.host]
    lobbies += [table.guest(n) for n in range(1, table.players)]
    jobs = [sit(n, lobby) for n, lobby in enumerate(lobbies)]
    return list(await asyncio.wait_for(asyncio.gather(*jobs), DEADLINE))


async def finish(nodes: Sequence[Node]) -> None:
    await asyncio.wait_for(asyncio.gather(*(n.play_out() for n in nodes)), DEADLINE)


async def close_all(nodes: Sequence[Node]) -> None:
    for node in nodes:
        await node.close()


def transcript(node: Node) -> bytes:
    """The bytes of a node's transcript file."""
    path = node.transcript
    assert path is not None
    return path.read_bytes()


def entries(data: bytes) -> list[Entry]:
    return [decode_entry(line) for line in data.splitlines()]


async def play_all(nodes: Sequence[Node], timeout: float = DEADLINE * 2) -> None:
    """Play every node's game out, then close them all (also when it fails)."""
    try:
        await asyncio.wait_for(asyncio.gather(*(n.play_out() for n in nodes)), timeout)
    finally:
        await close_all(nodes)


class HeldLink:
    """A slow link: the authored entries of `kind` that `transport` sends are held, not sent,
    until `release()` sends them all late. Every other frame goes as it would."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, transport: Transport, kind: str) -> None:
        self.held: list[tuple[bytes, bytes]] = []
        self._holding = True
        self._transport = transport
        self._send = send = Transport.send

        def slow_send(sender: Transport, peer: bytes, data: bytes) -> bool:
            if sender is transport and self._holding:
                frame = decode_frame(data)
                if isinstance(frame, AuthoredFrame) and frame.entry.kind == kind:
                    self.held.append((peer, data))
                    return True
            return send(sender, peer, data)

        monkeypatch.setattr(Transport, "send", slow_send)

    def release(self) -> None:
        self._holding = False
        for peer, data in self.held:
            self._send(self._transport, peer, data)
