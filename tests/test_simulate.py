"""`willow simulate`: bots play through the whole protocol; the file verifies; bad arguments."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def willow(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "p2pwillow", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_simulate_then_verify(tmp_path: Path) -> None:
    out = tmp_path / "game.jsonl"
    result = willow("simulate", "--players", "2", "--hands", "2", "--seed", "7", "--out", str(out))
    assert result.returncode == 0, result.stderr
    lines = out.read_bytes().split(b"\n")
    assert lines[-1] == b"" and json.loads(lines[0])["kind"] == "genesis"
    report = willow("verify", str(out), "--json")
    assert report.returncode == 0, report.stdout + report.stderr
    data = json.loads(report.stdout)
    # The cards come from the OS, so a player may go broke in hand 1 and end the game early;
    # simulate says so, and the transcript holds exactly the hands it reports.
    played = int(result.stdout.split()[0])
    assert played == 2 or (played == 1 and "ended early" in result.stdout), result.stdout
    assert data["valid"] is True and [h["number"] for h in data["hands"]] == [*range(1, played + 1)]
    assert all(sum(h["chips"].values()) == 0 for h in data["hands"])


@pytest.mark.parametrize(
    "args",
    [
        ["--players", "1", "--hands", "1"],
        ["--players", "11", "--hands", "1"],
        ["--players", "3", "--hands", "0"],
        ["--players", "x", "--hands", "1"],
        ["--hands", "1"],
    ],
)
def test_simulate_bad_arguments(args: list[str], tmp_path: Path) -> None:
    result = willow("simulate", *args, "--out", str(tmp_path / "x.jsonl"))
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


def test_simulate_unwritable_file(tmp_path: Path) -> None:
    target = tmp_path / "no-such-dir" / "game.jsonl"
    result = willow("simulate", "--players", "2", "--hands", "1", "--out", str(target))
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
