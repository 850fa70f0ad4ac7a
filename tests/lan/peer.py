"""A small transport node for the LAN tests: it replicates a game's transcript over real sockets.

Run as `python peer.py CONFIG.json` inside a laptop's namespace. The origin publishes a
transcript made beforehand, entry by entry, as a sequencer would; every other peer applies
what it receives with an observer Session (all signatures and proofs checked) and appends it
to its store, so that a peer killed with -9 and started again goes on from its file. Each peer
prints one JSON object per line: ready, head (as its chain grows), done, liveness, bad frames.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from pathlib import Path

from p2pwillow.ledger.entry import Entry, decode_entry
from p2pwillow.ledger.errors import RemoteProtocolError
from p2pwillow.net.keys import CurveKeyPair, KeyStatement
from p2pwillow.net.replication import (
    BadFrame,
    EntryReceived,
    LivenessChanged,
    Replication,
)
from p2pwillow.net.transport import Transport
from p2pwillow.session import Session
from p2pwillow.store import Store


def say(**fields: object) -> None:
    print(json.dumps(fields), flush=True)


async def main(config_path: str) -> None:
    config = json.loads(Path(config_path).read_text())
    lines = Path(config["transcript"]).read_bytes().splitlines()
    source = [decode_entry(line) for line in lines]
    genesis = source[0]
    keys = CurveKeyPair.from_secret(bytes.fromhex(config["curve_secret"]))
    store = Store.open(config["store"])
    transcript = store.transcript(genesis.game)
    if transcript.recovery is not None:
        say(event="recovered", message=transcript.recovery.message)
    session = Session(None, None, genesis)
    chain: list[Entry] = [genesis]
    origin = config["role"] == "origin"
    if origin:
        held = source[:1]
    else:
        held = transcript.entries or [genesis]
        for entry in held[1:]:
            session.replay(entry)
        chain = list(held)
    if not transcript.entries:
        transcript.append(genesis)

    loop = asyncio.get_running_loop()
    transport = Transport(keys, host=config["host"], port=config["port"])
    await transport.start()
    peers = []
    for peer in config["peers"]:
        statement = KeyStatement(
            bytes.fromhex(peer["identity_key"]),
            bytes.fromhex(peer["curve_key"]),
            bytes.fromhex(peer["key_sig"]),
        )
        transport.pin(statement)
        transport.connect(statement.curve_key, peer["host"], peer["port"])
        peers.append(statement.curve_key)
    rep = Replication(chain, peers, now=loop.time())
    wake = asyncio.Event()
    say(event="ready", head=rep.head_seq)

    async def receive() -> None:
        while True:
            r = await transport.recv()
            rep.receive(r.data, r.peer, loop.time())
            wake.set()

    receiver = asyncio.create_task(receive())
    target = len(source) - 1
    if rep.head_seq == target:
        say(event="done", hash=rep.head_hash.hex())
    next_publish = loop.time() + config.get("start_after", 0.5)
    published = 0
    reported = rep.head_seq
    status_at = loop.time() + 2.0
    try:
        while True:
            now = loop.time()
            if origin and published < target and now >= next_publish:
                published += 1
                rep.publish(source[published], now)
                transcript.append(source[published])
                next_publish = now + config["pace"]
            rep.handle_timer(now)
            for event in rep.events():
                if isinstance(event, EntryReceived):
                    try:
                        session.receive(event.entry)
                    except RemoteProtocolError as exc:
                        rep.rejected(event.peer, exc)
                        say(event="rejected", error=str(exc))
                        continue
                    rep.applied(event.entry, now)
                    transcript.append(event.entry)
                elif isinstance(event, LivenessChanged):
                    say(event="liveness", peer=event.peer.hex()[:8], state=event.liveness.value)
                elif isinstance(event, BadFrame):
                    say(event="bad_frame", peer=event.peer.hex()[:8], count=event.count)
            if rep.head_seq != reported:
                reported = rep.head_seq
                say(event="head", seq=reported)
                if reported == target:
                    say(event="done", hash=rep.head_hash.hex())
            if now >= status_at and reported < target:
                status_at = now + 2.0
                say(
                    event="status",
                    head=rep.head_seq,
                    peers={
                        p.hex()[:8]: [
                            rep.status(p).head_seq,
                            rep.status(p).liveness.value,
                            str(transport.state(p)),
                        ]
                        for p in peers
                    },
                    counters=str(transport.counters),
                )
            for peer, data in rep.frames_to_send(now):
                transport.send(peer, data)
            timer = rep.get_timer()
            wait = 0.2 if timer is None else max(0.0, min(0.2, timer - loop.time()))
            if origin and published < target:
                wait = min(wait, max(0.0, next_publish - loop.time()))
            wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), wait)
    finally:
        receiver.cancel()
        transcript.close()
        await transport.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
