"""The code base stays `ruff` and `mypy --strict` clean (pyproject.toml holds the settings).

Each tool is run by the interpreter running the tests (`python -m ruff`, `python -m mypy`), so
the tools of the test extra installed beside it are the ones found, whatever PATH holds: an
activated environment, a virtual environment used by its path, and CI alike."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _tool(*args: str) -> subprocess.CompletedProcess[str]:
    """`python -m ARGS` in the checkout, by this interpreter."""
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff_check() -> None:
    result = _tool("ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format() -> None:
    result = _tool("ruff", "format", "--check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict() -> None:
    result = _tool("mypy")
    assert result.returncode == 0, result.stdout + result.stderr
