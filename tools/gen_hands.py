"""Write (or with --check, compare) p2pwillow/hands.tables, the lookup tables of hand ranking,
from `p2pwillow.hands.build_tables`, and pin its SHA-256 in p2pwillow/hands.py.

A developer tool, run after a change to how the tables are built or encoded. Usage:
`python3 -m tools.gen_hands [--check]`.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
from pathlib import Path

from p2pwillow import hands

ROOT = Path(__file__).resolve().parent.parent
TABLES = ROOT / "p2pwillow" / hands.TABLES_FILE
MODULE = ROOT / "p2pwillow" / "hands.py"
PIN = re.compile(r'^TABLES_SHA256 = "[^"]*"$', re.MULTILINE)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    args = parser.parse_args(argv)
    tables = hands.build_tables()
    if args.check:
        # The tables, not the bytes: another zlib may compress the same tables differently.
        written = TABLES.read_bytes() if TABLES.exists() else b""
        fresh = (
            PIN.search(MODULE.read_text(encoding="utf-8")) is not None
            and hashlib.sha256(written).hexdigest() == hands.TABLES_SHA256
            and hands.decode_tables(written) == tables
        )
        if not fresh:
            print(f"out of date: {TABLES.relative_to(ROOT)} (run python3 -m tools.gen_hands)")
            return 1
        return 0
    blob = hands.encode_tables(tables)
    digest = hashlib.sha256(blob).hexdigest()
    pinned = PIN.sub(f'TABLES_SHA256 = "{digest}"', MODULE.read_text(encoding="utf-8"))
    TABLES.write_bytes(blob)
    MODULE.write_text(pinned, encoding="utf-8")
    print(f"wrote {TABLES.relative_to(ROOT)} ({len(blob)} bytes, sha256 {digest})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
