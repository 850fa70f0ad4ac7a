"""Browse the LAN for tables with python-zeroconf, from a process of its own (LAN tests).

`python browse.py ADDRESS SECONDS` prints one JSON line: the tables found and the errors.
"""

from __future__ import annotations

import asyncio
import json
import sys

from p2pwillow.net.discovery import browse


async def main(address: str, seconds: float) -> None:
    found = await browse(seconds, [address])
    tables = [
        {
            "name": t.name,
            "free": t.seats_free,
            "addresses": list(t.addresses),
            "port": t.port,
            "key": t.statement.curve_key.hex() if t.statement else None,
            "id": t.statement.identity_key.hex() if t.statement else None,
            "sig": t.statement.sig.hex() if t.statement else None,
            "join_code": t.join_code().encode() if t.joinable else None,
        }
        for t in found.tables
    ]
    print(json.dumps({"event": "browsed", "tables": tables, "errors": list(found.errors)}))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], float(sys.argv[2])))
