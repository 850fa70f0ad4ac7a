"""The Enter key of a person's lobby (`live.EnterKey`): each typed line is one press, and once
stopped it reads nothing more, so the table screen gets every key typed after the lobby. A pipe
stands in for the terminal (select reads both the same way)."""

from __future__ import annotations

import os
import sys
import threading

import pytest

from p2pwillow.live import EnterKey


@pytest.mark.skipif(sys.platform == "win32", reason="the console is read with msvcrt there")
def test_each_line_is_a_press_and_nothing_is_read_once_stopped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    read, write = os.pipe()
    with os.fdopen(read, "r") as stdin, os.fdopen(write, "wb", buffering=0) as typed:
        monkeypatch.setattr(sys, "stdin", stdin)
        presses = threading.Semaphore(0)
        enter = EnterKey(presses.release)
        enter.start()
        typed.write(b"\n")
        assert presses.acquire(timeout=5), "one Enter, one press"
        typed.write(b"start\n\n")
        assert presses.acquire(timeout=5) and presses.acquire(timeout=5), "two lines, two"
        enter.stop()
        typed.write(b"y")
        assert not presses.acquire(timeout=0.5)
        os.set_blocking(stdin.fileno(), False)  # (a key read by the stopped thread: an error)
        assert os.read(stdin.fileno(), 16) == b"y", "a key typed after the lobby is left unread"
