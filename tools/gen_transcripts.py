"""Write protocol/transcripts/: an honest game and tampered copies, listed in manifest.json.

`python tools/gen_transcripts.py` plays a new honest game (3 players, 2 hands, with trades and
a showdown, then its signed game_end; OS randomness, so it differs every run) and derives the
tampered copies from it.
`python tools/gen_transcripts.py --check` only checks that the committed tampered copies and the
manifest are exactly what the committed honest game derives. Does file I/O.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from p2pwillow.table import Table  # noqa: E402

DIR = ROOT / "protocol" / "transcripts"
HONEST = "honest-3p-2h.jsonl"
MANIFEST = "manifest.json"

Lines = list[bytes]


def _flip_hex(line: bytes, key: bytes) -> bytes:
    """Change the first hex digit of the string member `key`."""
    at = line.index(b'"' + key + b'":"') + len(key) + 4
    digit = line[at : at + 1]
    return line[:at] + (b"1" if digit == b"0" else b"0") + line[at + 1 :]


def _first(lines: Lines, kind: str) -> int:
    """Index of the first line of this kind."""
    return next(i for i, line in enumerate(lines) if b'"kind":"' + kind.encode() + b'"' in line)


def _last(lines: Lines, kind: str) -> int:
    """Index of the last line of this kind."""
    return max(i for i, line in enumerate(lines) if b'"kind":"' + kind.encode() + b'"' in line)


def _change_bet(lines: Lines) -> tuple[Lines, int]:
    i = _first(lines, "bet")
    line = lines[i]
    at = line.index(b'"amount":') + len(b'"amount":')
    end = at
    while line[end : end + 1].isdigit():
        end += 1
    amount = int(line[at:end]) + 1
    return [*lines[:i], line[:at] + str(amount).encode() + line[end:], *lines[i + 1 :]], i


def _replace(lines: Lines, i: int, new: bytes) -> Lines:
    return [*lines[:i], new, *lines[i + 1 :]]


# file -> (derive, expected exit, 1-based line or None, reason substring)
Derivation = Callable[[Lines], tuple[Lines, int | None]]


def _cases() -> dict[str, tuple[Derivation, int, str]]:
    return {
        "bad-signature.jsonl": (
            lambda ls: (_replace(ls, 19, _flip_hex(ls[19], b"sig")), 19),
            1,
            "bad-signature",
        ),
        "bad-countersignature.jsonl": (
            lambda ls: (_replace(ls, 20, _flip_hex(ls[20], b"countersig")), 20),
            1,
            "bad-countersignature",
        ),
        "wrong-prev.jsonl": (
            lambda ls: (_replace(ls, 49, _flip_hex(ls[49], b"prev")), 49),
            1,
            "wrong-prev",
        ),
        "foreign-game.jsonl": (
            lambda ls: (_replace(ls, 30, _flip_hex(ls[30], b"game")), 30),
            1,
            "wrong-game",
        ),
        "deleted-entry.jsonl": (lambda ls: ([*ls[:29], *ls[30:]], 29), 1, "wrong-seq"),
        "duplicated-entry.jsonl": (lambda ls: ([*ls[:30], ls[29], *ls[30:]], 30), 1, "wrong-seq"),
        "swapped-entries.jsonl": (
            lambda ls: ([*ls[:39], ls[40], ls[39], *ls[41:]], 39),
            1,
            "wrong-seq",
        ),
        "changed-bet.jsonl": (_change_bet, 1, "bad-signature"),
        "non-canonical.jsonl": (
            lambda ls: (_replace(ls, 4, ls[4].replace(b'":', b'": ', 1)), 4),
            1,
            "non-canonical",
        ),
        # An interrupted game: valid so far, not closed (SPEC 7.6, exit 3).
        "truncated.jsonl": (
            lambda ls: (ls[: _last(ls, "hand_end")], _last(ls, "hand_end") - 1),
            3,
            "has not ended",
        ),
        # Every hand signed, but no game_end: a game cut off between hands (SPEC 7.6, exit 3).
        "no-game-end.jsonl": (
            lambda ls: (ls[: _last(ls, "game_end")], _last(ls, "game_end") - 1),
            3,
            "has not ended",
        ),
        "not-json.jsonl": (
            lambda ls: (_replace(ls, 6, ls[6][: len(ls[6]) // 2]), 6),
            1,
            "not JSON",
        ),
        "not-utf8.jsonl": (
            lambda ls: (_replace(ls, 7, ls[7][:40] + b"\xff" + ls[7][41:]), 7),
            1,
            "not UTF-8",
        ),
    }


def derive(honest: bytes) -> tuple[dict[str, bytes], dict[str, dict[str, object]]]:
    """The tampered files and the manifest, from the honest transcript's bytes."""
    lines = honest.split(b"\n")[:-1]
    files: dict[str, bytes] = {}
    manifest: dict[str, dict[str, object]] = {
        HONEST: {"valid": True, "exit": 0, "line": None, "reason_contains": ""}
    }
    for name, (make, code, reason) in _cases().items():
        changed, index = make(lines)
        files[name] = b"".join(line + b"\n" for line in changed)
        manifest[name] = {
            "valid": False,
            "exit": code,
            "line": None if index is None else index + 1,
            "reason_contains": reason,
        }
    return files, manifest


def _honest_game() -> bytes:
    for seed in range(100):
        table = Table(3, seed=seed, rng=os.urandom, samples=60)
        table.play(2)
        table.end_game()
        summaries = table.sessions[0].summaries
        trades = sum(len(h.trades) for h in summaries)
        showdown = any(len(set(h.seats) - set(h.folded)) >= 2 for h in summaries)
        if (
            len(summaries) == 2
            and trades >= 2
            and showdown
            and not any(h.aborted for h in summaries)
            and all(p.stack > 0 for p in table.sessions[0].game.players)
        ):
            return b"".join(table.lines)
    raise SystemExit(
        "gen_transcripts: no seed gave two hands with trades and a showdown, nobody broke"
    )


def _manifest_text(manifest: dict[str, dict[str, object]]) -> str:
    return json.dumps(manifest, indent=2, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="check the committed files only")
    args = parser.parse_args(argv)
    if args.check:
        honest = (DIR / HONEST).read_bytes()
        files, manifest = derive(honest)
        stale = [n for n, data in files.items() if (DIR / n).read_bytes() != data]
        if (DIR / MANIFEST).read_text(encoding="utf-8") != _manifest_text(manifest):
            stale.append(MANIFEST)
        if stale:
            print(f"gen_transcripts: out of date: {', '.join(stale)}", file=sys.stderr)
            return 1
        return 0
    DIR.mkdir(parents=True, exist_ok=True)
    honest = _honest_game()
    (DIR / HONEST).write_bytes(honest)
    files, manifest = derive(honest)
    for name, data in files.items():
        (DIR / name).write_bytes(data)
    (DIR / MANIFEST).write_text(_manifest_text(manifest), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
