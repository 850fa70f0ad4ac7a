"""tools/soak.py: each pass's line says green or failed, a failed pass's output is kept, and
the exit status says whether every pass was green."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def soak(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tools.soak", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_green_passes_are_counted(tmp_path: Path) -> None:
    done = soak("--passes", "2", "--workers", "0", "--log", str(tmp_path), "tests/test_limits.py")
    lines = done.stdout.splitlines()
    assert done.returncode == 0, done.stdout + done.stderr
    assert lines[0].startswith("pass 1: green in ") and "passed" in lines[0], lines
    assert lines[1].startswith("pass 2: green in "), lines
    assert lines[-1] == "2 of 2 passes green (no load beside)"
    assert list(tmp_path.iterdir()) == []


def test_a_failed_pass_is_named_and_its_output_kept(tmp_path: Path) -> None:
    failing = tmp_path / "test_fails.py"
    failing.write_text("def test_it() -> None:\n    assert 1 == 2, 'the soak must see this'\n")
    log = tmp_path / "log"
    done = soak("--passes", "1", "--workers", "0", "--log", str(log), str(failing))
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout.splitlines()[0].startswith("pass 1: FAILED in "), done.stdout
    assert done.stdout.splitlines()[-1] == "0 of 1 passes green (no load beside)"
    assert "the soak must see this" in (log / "pass-1.txt").read_text()
