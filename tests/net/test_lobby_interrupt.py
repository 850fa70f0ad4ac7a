"""Ctrl-C while the host's lobby waits for players: the lobby says beforehand what Ctrl-C will
do, and Ctrl-C does that (the table closes, the command ends with its documented code).
SIGUSR1 before it prints every thread's stack and the host goes on."""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import time
from pathlib import Path

from interrupts import interruptible

from p2pwillow.cli import EXIT_INTERRUPTED
from p2pwillow.live import HOST_CTRL_C

ROOT = Path(__file__).resolve().parents[2]
DEADLINE = 60.0


def _read_until(proc: subprocess.Popen[str], wanted: str) -> str:
    """Standard output until a line holding `wanted` (with a deadline)."""
    assert proc.stdout is not None
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    said = ""
    end = time.monotonic() + DEADLINE
    while wanted not in said:
        assert time.monotonic() < end, said
        assert proc.poll() is None, said
        if sel.select(timeout=0.2):
            # (the descriptor itself: a buffered reader may hold lines select never reports)
            said += os.read(proc.stdout.fileno(), 4096).decode()
    return said


def test_ctrl_c_in_the_lobby_says_what_it_will_do(tmp_path: Path) -> None:
    env = {**os.environ, "WILLOW_HOME": str(tmp_path / "home"), "PYTHONPATH": str(ROOT)}
    # (--auto: a bot plays the seat, so no terminal is needed; the lobby is the same)
    host = [sys.executable, "-m", "p2pwillow", "host", "--name", "Ann", "--no-advertise", "--auto"]
    host += ["--address", "127.0.0.1"]
    with interruptible():
        proc = subprocess.Popen(
            host,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
    try:
        said = _read_until(proc, "Ctrl-C")
        assert "waiting for" in said and "more player(s)" in said, said
        assert HOST_CTRL_C in said, said
        # SIGUSR1 prints every thread's stack (a stuck peer's report) and the host goes on
        proc.send_signal(signal.SIGUSR1)
        time.sleep(0.5)
        assert proc.poll() is None, "SIGUSR1 does not stop the host"
        proc.send_signal(signal.SIGINT)
        try:
            _, err = proc.communicate(timeout=DEADLINE)
        except subprocess.TimeoutExpired:
            # what the host said after Ctrl-C, and every thread's stack (SIGUSR1), for the
            # report: where it hangs
            proc.send_signal(signal.SIGUSR1)
            time.sleep(1.0)
            proc.kill()
            out, err = proc.communicate()
            raise AssertionError(
                f"Ctrl-C did not end the host in {DEADLINE:g} s; it said:\n{said}{out}\n{err}"
            ) from None
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == EXIT_INTERRUPTED, err
    assert "Traceback" not in err, err
    assert "(most recent call first)" in err, err
    assert err.strip().splitlines()[-1] == "willow host: interrupted; you left the table", err
