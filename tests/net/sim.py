"""A simulated LAN for the replication tests: real Sessions, each behind a Replication, joined by
a network that loses, duplicates, delays and reorders frames, on a virtual clock.

No sockets and no real time; every random choice comes from one seed. A peer here does what the
live node does with its Session: feed it what the replication hands over, publish what it
sends (votes as broadcast items), decide as a bot when a decision is due, open hands as
dealer, run every player's clock.
"""

from __future__ import annotations

import contextlib
import dataclasses
import heapq
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from p2pwillow.ledger.entry import AuthoredEntry, Entry
from p2pwillow.ledger.errors import RemoteProtocolError
from p2pwillow.ledger.identity import Identity
from p2pwillow.ledger.vote import Vote, decode_vote
from p2pwillow.net.replication import (
    AuthoredReceived,
    BroadcastReceived,
    EntryReceived,
    RefusalReceived,
    Replication,
)
from p2pwillow.net.wire import (
    BroadcastFrame,
    EntriesFrame,
    HeartbeatFrame,
    decode_frame,
    encode_frame,
)
from p2pwillow.rules import IllegalAction, TableConfig
from p2pwillow.session import SEAT_CHANGES, EntryRefused, Output, Session, make_genesis
from p2pwillow.table import Decider, bot_decider

MALLORY = b"mallory"


@dataclass(frozen=True, slots=True)
class Conditions:
    """How bad the network is: each frame is lost with `loss`, sent twice with `dup`, and
    delayed uniformly up to `max_delay` seconds (so frames overtake each other)."""

    loss: float = 0.0
    dup: float = 0.0
    max_delay: float = 0.02
    outage: tuple[float, float] | None = None
    """(start, end) of a time when every frame to and from peer 1 is lost (a link down)."""


@dataclass
class SimPeer:
    seat: int
    id: bytes
    session: Session
    rep: Replication
    decider: Decider
    think: random.Random
    think_until: float | None = None
    refused: int = 0
    rejected: list[RemoteProtocolError] = field(default_factory=list)
    ids: tuple[bytes, ...] = ()
    """Every peer's id by seat: an authored entry goes to its sequencer first, and an entry
    it sequenced at once only to the seats that owe a step, as the live node sends them."""

    def publish(self, out: Output, now: float) -> None:
        owing = self.session.seats_owing()
        urgent = None if owing is None else [self.ids[seat] for seat in owing]
        for item in out.send:
            if isinstance(item, Entry):
                self.rep.publish(item, now, urgent=urgent)
            elif isinstance(item, Vote):
                # a vote goes to every peer as a broadcast item, resent until the head moves
                self.rep.publish(BroadcastFrame("vote", item.hand, item.encode()), now)
            elif isinstance(item, AuthoredEntry) and item.kind not in SEAT_CHANGES:
                sequencer = self.session.sequencer
                first = self.ids[sequencer] if sequencer != self.seat else None
                self.rep.publish(item, now, first=first)
            else:
                self.rep.publish(item, now)

    def pump(self, now: float) -> None:
        """Hand the Session what the replication received, as the live node does."""
        s = self.session
        for event in self.rep.events():
            if isinstance(event, EntryReceived):
                try:
                    out = s.receive(event.entry)
                except RemoteProtocolError as exc:
                    self.rep.rejected(event.peer, exc)
                    self.rejected.append(exc)
                    continue
                self.rep.applied(event.entry, now)
                self.publish(out, now)
            elif isinstance(event, AuthoredReceived):
                # every session takes it: the sequencer sequences it, the others keep it
                try:
                    out = s.receive(event.entry)
                except RemoteProtocolError as exc:
                    self.rep.rejected(event.peer, exc)
                    continue
                self.publish(out, now)
            elif isinstance(event, BroadcastReceived) and event.item.kind == "vote":
                try:
                    out = s.receive(decode_vote(event.item.payload))
                except RemoteProtocolError as exc:
                    self.rep.rejected(event.peer, exc)
                    continue
                self.publish(out, now)
            elif isinstance(event, RefusalReceived):
                try:
                    out = s.receive(event.refusal)
                except RemoteProtocolError as exc:
                    self.rep.rejected(event.peer, exc)
                    continue
                if any(isinstance(e, EntryRefused) for e in out.events):
                    self.refused += 1
                    self.rep.withdraw(event.refusal.sig)
                self.publish(out, now)

    def act(self, now: float, hands: int) -> None:
        s = self.session
        if s.between_hands and s.hand_number < hands and s.game.next_button() == self.seat:
            with contextlib.suppress(IllegalAction):
                self.publish(s.start_hand(), now)
        elif s.between_hands and s.hand_number >= hands and s.sequencer == self.seat:
            # the hands are played: the sequencer ends the game, everyone signs its end
            with contextlib.suppress(IllegalAction):
                self.publish(s.end_game(), now)
        if not s.may_decide():
            self.think_until = None
            return
        if self.think_until is None:
            self.think_until = now + self.think.uniform(0.0, 0.3)
        if now < self.think_until:
            return
        self.think_until = None
        decision = self.decider(s)
        if decision is None:
            return
        with contextlib.suppress(IllegalAction):
            self.publish(s.act(decision), now)


class SimNet:
    """`players` honest peers (and, with `mallory`, a hostile one that sends garbage)."""

    def __init__(
        self,
        players: int,
        conditions: Conditions,
        seed: int,
        *,
        mallory: bool = False,
        config: TableConfig | None = None,
    ) -> None:
        self.conditions = conditions
        self.random = random.Random(seed)
        crypto = random.Random(seed ^ 0x5EED)
        identities = [Identity.generate(crypto.randbytes) for _ in range(players)]
        game = crypto.randbytes(16)
        config = config or TableConfig(seats=players)
        roster = [(s, f"bot {s}", identities[s].public_key) for s in range(players)]
        genesis = make_genesis(identities[0], 0, game, "sim", config, roster)
        ids = [b"peer-%d" % s for s in range(players)]
        self.mallory = mallory
        self.peers: list[SimPeer] = []
        for s in range(players):
            others = [i for i in ids if i != ids[s]] + ([MALLORY] if mallory else [])
            session = Session(identities[s], s, genesis, random.Random(seed * 31 + s).randbytes)
            rep = Replication([genesis], others)
            decider = bot_decider(s, random.Random(seed * 17 + s), samples=20)
            self.peers.append(
                SimPeer(
                    s, ids[s], session, rep, decider, random.Random(seed * 7 + s), ids=tuple(ids)
                )
            )
        self.by_id = {p.id: p for p in self.peers}
        self.now = 0.0
        self.sent = 0
        self.lost = 0
        self._queue: list[tuple[float, int, bytes, bytes, bytes]] = []
        self._counter = 0
        self._mallory_at = 0.0
        for p in self.peers:
            p.publish(p.session.poll(), 0.0)

    # --- the network ---------------------------------------------------------------------------

    def _down(self, *ids: bytes) -> bool:
        outage = self.conditions.outage
        return outage is not None and outage[0] <= self.now < outage[1] and self.peers[1].id in ids

    def _send(self, src: bytes, dst: bytes, data: bytes) -> None:
        c = self.conditions
        self.sent += 1
        if self.random.random() < c.loss or self._down(src, dst):
            self.lost += 1
            return
        copies = 2 if self.random.random() < c.dup else 1
        for _ in range(copies):
            self._counter += 1
            at = self.now + self.random.uniform(0.0005, c.max_delay)
            heapq.heappush(self._queue, (at, self._counter, dst, src, data))

    def _mallory_frames(self) -> list[bytes]:
        """What the hostile peer sends: noise, a tampered entry, a lying heartbeat."""
        r = self.random
        honest = self.peers[0].rep.chain
        entry = honest[r.randrange(len(honest))]
        forged = dataclasses.replace(
            entry, seq=entry.seq + 1, prev=entry.hash, countersig=bytes(64)
        )
        return [
            r.randbytes(r.randrange(1, 200)),
            encode_frame(EntriesFrame((forged,))),
            encode_frame(HeartbeatFrame(len(honest) + 3, r.randbytes(32))),
        ]

    # --- running ---------------------------------------------------------------------------------

    def step(self, hands: int) -> None:
        for p in self.peers:
            p.pump(self.now)
            p.act(self.now, hands)
            p.publish(p.session.handle_timer(self.now), self.now)
            p.pump(self.now)
            for dst, data in p.rep.frames_to_send(self.now):
                if dst != MALLORY:
                    self._send(p.id, dst, data)
        if self.mallory and self.now >= self._mallory_at:
            self._mallory_at = self.now + 0.3
            for p in self.peers:
                for data in self._mallory_frames():
                    self._send(MALLORY, p.id, data)
        times = [self.now + 1.0] + ([self._mallory_at] if self.mallory else [])
        times += [t for p in self.peers if (t := p.rep.get_timer()) is not None]
        times += [p.think_until for p in self.peers if p.think_until is not None]
        if self._queue:
            times.append(self._queue[0][0])
        self.now = max(self.now + 0.001, min(times))
        while self._queue and self._queue[0][0] <= self.now:
            _, _, dst, src, data = heapq.heappop(self._queue)
            self.by_id[dst].rep.receive(data, src, self.now)
        for p in self.peers:
            p.rep.handle_timer(self.now)

    def settled(self, hands: int) -> bool:
        """Every peer finished `hands` hands and the game's end (signed), on the same chain."""
        heads = {p.session.ledger.head_hash for p in self.peers}
        return len(heads) == 1 and all(
            p.session.hand_number >= hands and p.session.complete for p in self.peers
        )

    def run(self, hands: int = 1, deadline: float = 900.0) -> None:
        """Play until `hands` hands are over everywhere; AssertionError at the deadline."""
        while not self.settled(hands):
            assert self.now < deadline, (
                f"not settled by t={self.now:.0f}s: heads "
                f"{[p.session.ledger.head_seq for p in self.peers]}"
            )
            self.step(hands)

    def run_until(self, done: Callable[[], bool], deadline: float) -> None:
        while not done():
            assert self.now < deadline, f"not done by t={self.now:.0f}s"
            self.step(1)

    def chains(self) -> list[list[bytes]]:
        return [[e.encode() for e in p.session.ledger.entries] for p in self.peers]


def count_frames(data: list[tuple[bytes, bytes]]) -> dict[str, int]:
    """How many frames of each type (for assertions on what was sent)."""
    out: dict[str, int] = {}
    for _, raw in data:
        name = decode_frame(raw).TYPE
        out[name] = out.get(name, 0) + 1
    return out
