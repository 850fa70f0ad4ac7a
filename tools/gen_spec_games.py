"""Rewrite each catalogued game's description and hash in SPEC.md section 3.13 from the code.

    python -m tools.gen_spec_games

Each game's subsection `### 3.13.N Title` keeps its prose; its fenced JSON block and the hash
after "Hash" are replaced by the catalogue's (tests/games/test_catalogue.py holds them equal).
A game whose subsection is missing is named, and nothing is written: its prose is written by
hand first.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from p2pwillow.games import CATALOGUE, spec_hash

SPEC = Path(__file__).resolve().parents[1] / "SPEC.md"


def _line(item: object) -> str:
    return json.dumps(item, ensure_ascii=False)


def block(described: dict[str, object]) -> str:
    """The description as SPEC prints it: a key a line, an option or a step a line."""
    lines = ["{"]
    keys = list(described)
    for i, key in enumerate(keys):
        value = described[key]
        comma = "," if i < len(keys) - 1 else ""
        if isinstance(value, list) and value and isinstance(value[0], dict):
            items = [f"    {_line(item)}" for item in value]
            lines.append(f'  "{key}": [')
            lines.append(",\n".join(items))
            lines.append(f"  ]{comma}")
        else:
            lines.append(f'  "{key}": {_line(value)}{comma}')
    lines.append("}")
    return "\n".join(lines)


def _rewrite(section: str, described: str, digest: str) -> str:
    """The subsection with its JSON block and its hash replaced."""
    section = re.sub(
        r"```json\n.*?\n```", lambda _: f"```json\n{described}\n```", section, count=1, flags=re.S
    )
    return re.sub(
        r"(Hash\s+`)[0-9a-f]{64}(`)",
        lambda m: f"{m.group(1)}{digest}{m.group(2)}",
        section,
        count=1,
    )


def main() -> int:
    text = SPEC.read_text(encoding="utf-8")
    for n, game in enumerate(CATALOGUE.values(), start=1):
        heading = f"### 3.13.{n} {game.title}\n"
        if heading not in text:
            print(f"SPEC.md has no subsection {heading.strip()!r}", file=sys.stderr)
            return 1
        head, rest = text.split(heading, 1)
        cut = min(
            (i for i in (rest.find("\n### "), rest.find("\n## ")) if i >= 0), default=len(rest)
        )
        section, tail = rest[:cut], rest[cut:]
        section = _rewrite(section, block(game.describe()), spec_hash(game))
        text = head + heading + section + tail
    SPEC.write_text(text, encoding="utf-8")
    print(f"rewrote {len(CATALOGUE)} descriptions in {SPEC.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
