"""A bot peer that also sends garbage: `python garbage_peer.py CODE HOME`, in a laptop of the
LAN tests. It takes its seat and plays like `willow bot`, and every 0.2 s sends every other
peer a frame that does not decode, a frame of another wire version, a forged copy of an entry
it holds and a forged next entry. Prints what `willow bot` prints, and `garbage: N` at the end."""

from __future__ import annotations

import asyncio
import os
import random
import sys

from p2pwillow.ledger.entry import decode_entry, entry_from_json
from p2pwillow.live import open_store
from p2pwillow.net.discovery import JoinCode
from p2pwillow.net.lobby import GuestLobby
from p2pwillow.net.node import BotSeat, Node
from p2pwillow.net.wire import EntriesFrame, encode_frame


async def main(code_text: str, home: str) -> int:
    store, keys = open_store(home)
    lobby = GuestLobby(keys, ["Bot Noisy (normal)"], JoinCode.decode(code_text), say=print)
    seating = await lobby.seat()
    assert lobby.transport is not None
    node = Node(seating, lobby.transport, store, keys, bot=BotSeat(samples=60), say=print)
    await node.start()
    print(f"seat {node.seat}; safety code {node.safety_code}", flush=True)
    sent = 0

    async def noise() -> None:
        nonlocal sent
        r = random.Random(1)
        while True:
            await asyncio.sleep(0.2)
            path = node.transcript
            assert path is not None
            lines = path.read_bytes().splitlines()
            frames = [os.urandom(r.randrange(1, 400)), b'{"type":"heartbeat","v":9}\n']
            if len(lines) > 2:
                genuine = decode_entry(lines[r.randrange(1, len(lines))])
                forged = entry_from_json({**genuine.to_json(), "sig": "11" * 64})
                # and a forged next entry: the peer whose head it follows checks and refuses it
                last = decode_entry(lines[-1])
                after = {**last.to_json(), "seq": last.seq + 1, "prev": last.hash.hex()}
                ahead = entry_from_json({**after, "countersig": "22" * 64})
                frames.append(encode_frame(EntriesFrame((forged,))))
                frames.append(encode_frame(EntriesFrame((ahead,))))
            for peer in node.transport.peers:
                for data in frames:
                    sent += node.transport.send(peer, data)

    task = asyncio.ensure_future(noise())
    try:
        await node.play_out()
    finally:
        task.cancel()
    print(f"garbage: {sent}", flush=True)
    print(f"transcript: {node.transcript}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2])))
