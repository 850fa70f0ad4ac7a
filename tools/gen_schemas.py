"""Write (or with --check, compare) protocol/schemas/*.json from the ledger's declarations.

A developer tool: reads and writes files under protocol/schemas/. Every schema is built by
`p2pwillow.ledger.schema.all_schemas()` from the field declarations of the envelope, the
refusal and each entry kind (SPEC 6.10). Usage: `python3 -m tools.gen_schemas [--check]`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from p2pwillow.ledger.schema import all_schemas, schema_text  # noqa: E402

SCHEMA_DIR = ROOT / "protocol" / "schemas"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    schemas = {f"{stem}.json": schema_text(schema) for stem, schema in all_schemas().items()}
    status = 0
    stale = sorted(p.name for p in SCHEMA_DIR.glob("*.json") if p.name not in schemas)
    for name in stale:
        print(f"protocol/schemas/{name} has no kind or message that declares it")
        status = 1
    for name, text in schemas.items():
        path = SCHEMA_DIR / name
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                print(f"protocol/schemas/{name} differs from what the code declares")
                status = 1
        else:
            SCHEMA_DIR.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    if not args.check and not stale:
        print(f"wrote {len(schemas)} schemas to protocol/schemas/")
    return status


if __name__ == "__main__":
    sys.exit(main())
