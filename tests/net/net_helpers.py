"""Builders for the network tests: one real hand's transcript and one sample of every frame."""

from __future__ import annotations

import functools
import random

from p2pwillow.ledger.entry import Entry
from p2pwillow.ledger.errors import Reason
from p2pwillow.ledger.identity import Identity
from p2pwillow.net.keys import CurveKeyPair, KeyStatement
from p2pwillow.net.transport import Transport
from p2pwillow.net.wire import (
    AuthoredFrame,
    BroadcastFrame,
    CatchUpFrame,
    EntriesFrame,
    Frame,
    HeadFrame,
    HeartbeatFrame,
    HelloFrame,
    LobbyFrame,
    RefusalFrame,
)
from p2pwillow.session import Refusal
from p2pwillow.table import Table


@functools.cache
def hand_transcript(players: int = 3, seed: int = 12) -> tuple[Entry, ...]:
    """The transcript of a game of one whole hand, played by bots in one process."""
    r = random.Random(seed)
    table = Table(players, seed=seed, rng=r.randbytes, samples=20)
    assert table.play(1) == 1
    return tuple(table.transcript)


def identity(n: int) -> Identity:
    return Identity.generate(random.Random(1000 + n).randbytes)


def curve(n: int) -> CurveKeyPair:
    return CurveKeyPair.generate(random.Random(2000 + n).randbytes)


def statement(n: int) -> KeyStatement:
    return KeyStatement.create(identity(n), curve(n).public)


async def pinned_pair() -> tuple[Transport, Transport]:
    """Transports 1 and 2 on 127.0.0.1, started, each pinning the other (neither dialled)."""
    a, b = Transport(curve(1), host="127.0.0.1"), Transport(curve(2), host="127.0.0.1")
    await a.start()
    await b.start()
    a.pin(statement(2))
    b.pin(statement(1))
    return a, b


@functools.cache
def sample_frames() -> dict[str, Frame]:
    """One valid frame of every type, made from real entries."""
    entries = hand_transcript()
    authored = entries[5].authored()
    refusal = Refusal.create(identity(0), 0, 5, authored, Reason.ILLEGAL_ACTION, "too late")
    return {
        "entries": EntriesFrame(entries[3:7]),
        "authored": AuthoredFrame(authored),
        "refusal": RefusalFrame(refusal),
        "head": HeadFrame(entries[9].seq, entries[9].hash),
        "heartbeat": HeartbeatFrame(-1, bytes(32)),
        "catch_up": CatchUpFrame(12),
        "hello": HelloFrame("Ann", statement(1)),
        "broadcast": BroadcastFrame("vote", 1, b'{"head":"00","seat":2}'),
        "lobby": LobbyFrame("roster", b'{"players":[]}'),
    }
