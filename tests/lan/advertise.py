"""Advertise one table on the LAN until killed (for the LAN discovery tests).

`python advertise.py ADDRESS PORT NAME` prints {"event": "advertised", ...} once registered.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys

from p2pwillow.ledger.identity import Identity
from p2pwillow.net.discovery import Advertiser, TableAd
from p2pwillow.net.keys import CurveKeyPair, KeyStatement


async def main(address: str, port: int, name: str) -> None:
    r = random.Random(name)
    identity = Identity.generate(r.randbytes)
    keys = CurveKeyPair.generate(r.randbytes)
    ad = TableAd(name, 3, KeyStatement.create(identity, keys.public))
    advertiser = Advertiser(ad, port, [address])
    await advertiser.start()
    print(json.dumps({"event": "advertised", "key": keys.public.hex()}), flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await advertiser.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3]))
