"""A real terminal for tests: a detached tmux session (100x30 unless told) running one command,
keys sent with `tmux send-keys`, the screen read with `tmux capture-pane`. Waits are on what the
screen shows, each with a deadline. A test that fails shows the last screen read and the log of
every bot it started (its `witness`)."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from tui_screen import CLOCKS, NEXT_HAND, SEATING, answer_keys
from witness import Witness

DEADLINE = 120.0
"""Seconds any one wait may take (two cores shared with other work)."""
POLL = float(os.environ.get("WILLOW_TEST_POLL", "0.1"))
"""Seconds between two reads of the pane (WILLOW_TEST_POLL, as for the pyte screens)."""


def tmux_or_skip() -> str:
    found = shutil.which("tmux")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("tmux is not installed (.ci/run installs it)")
        pytest.skip("tmux is not installed")
    return found


class Pane:
    """A detached tmux session running one command; `last` is the screen read last, which a
    test that fails shows (the session itself is gone by then)."""

    def __init__(self, tmux: str, socket: Path, name: str, witness: Witness) -> None:
        self.tmux = tmux
        self.socket = socket
        self.name = name
        self.last = "(never read)"
        witness.watch(f"the {name} terminal's last screen", lambda: self.last)

    def _run(self, *args: str) -> str:
        done = subprocess.run(
            # -u and a UTF-8 locale: the suits and box lines come back as they are drawn
            [self.tmux, "-u", "-S", str(self.socket), *args],
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=30,
            check=True,
            env={**os.environ, "LANG": "C.UTF-8"},
        )
        return done.stdout

    def start(self, command: str, env: dict[str, str], size: tuple[int, int] = (100, 30)) -> None:
        """Run `command` in a new session of `size` (columns, rows)."""
        sets = [a for k, v in env.items() for a in ("-e", f"{k}={v}")]
        x, y = (str(n) for n in size)
        self._run("new-session", "-d", "-s", self.name, "-x", x, "-y", y, *sets, command)

    def text(self) -> str:
        # -J: a line wrapped at the pane's width (a long path) comes back whole
        self.last = self._run("capture-pane", "-p", "-J", "-t", self.name)
        return self.last

    def press(self, *keys: str) -> None:
        self._run("send-keys", "-t", self.name, *keys)

    def wait_for(self, test: Callable[[str], bool], what: str) -> str:
        end = time.monotonic() + DEADLINE
        while True:
            text = self.text()
            if test(text):
                return text
            if time.monotonic() > end:
                raise AssertionError(f"the screen never showed {what}; it shows:\n{text}")
            time.sleep(POLL)

    def settled(self, test: Callable[[str], bool], what: str) -> str:
        """Wait until the screen passes `test`, shows no proofs being checked and has not
        changed but for its clocks for three polls."""
        last, same = "", 0
        end = time.monotonic() + DEADLINE
        while True:
            text = self.text()
            still = CLOCKS.sub("-:--", text)
            same = same + 1 if still == last and "checking proofs" not in text else 0
            if same >= 3 and test(text):
                return text
            if time.monotonic() > end:
                raise AssertionError(f"the screen never settled on {what}; it shows:\n{text}")
            last = still
            time.sleep(POLL)

    def kill(self) -> None:
        subprocess.run(
            [self.tmux, "-S", str(self.socket), "kill-server"],
            capture_output=True,
            timeout=30,
            check=False,
        )


ROOT = Path(__file__).resolve().parents[2]


def willow_command(*args: str) -> list[str]:
    """`willow ARGS` as this checkout runs it."""
    return [sys.executable, "-m", "p2pwillow", *args]


def pane_env(home: Path) -> dict[str, str]:
    """The environment of a willow command in a pane: its store at `home`, this checkout,
    UTF-8, a colour terminal."""
    return {
        "WILLOW_HOME": str(home),
        "PYTHONPATH": str(ROOT),
        "PYTHONIOENCODING": "utf-8",
        "LANG": "C.UTF-8",
        "TERM": "xterm-256color",
    }


def start_bot(
    code: str, name: str, home: Path, log: Path, witness: Witness
) -> subprocess.Popen[str]:
    """`willow bot --join CODE --name NAME` (easy, 40 samples a decision) as its own process,
    its store at `home`, what it prints in `log` (shown for a test that fails)."""
    witness.file(f"{name}'s log", log)
    args = willow_command("bot", "--join", code, "--name", name, "--level", "easy")
    with log.open("w", encoding="utf-8") as out:  # the child keeps its own copy
        return subprocess.Popen(
            [*args, "--samples", "40"],
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT), "WILLOW_HOME": str(home)},
        )


JOIN = re.compile(r"^willow join (\S+)$", re.MULTILINE)
"""The join line `willow host` prints."""


def host_with_bots(
    pane: Pane,
    env: dict[str, str],
    host: list[str],
    bots: Sequence[tuple[str, Path, Path]],
    started: list[subprocess.Popen[str]],
    witness: Witness,
) -> str:
    """Run `host` (a `willow host` command for four seats) in the pane, read the join line
    off it, then start a `willow bot --join CODE` for each (name, home, log) into `started`
    (the caller stops them); the pane's text when the join line showed."""
    pane.start(f"{shlex.join(host)}; echo willow-exited $?; sleep 600", env)
    text = pane.wait_for(lambda s: JOIN.search(s) is not None, "the join line")
    assert "waiting for 3 more player(s) to join" in text
    found = JOIN.search(text)
    assert found is not None
    for name, home, log in bots:
        started.append(start_bot(found.group(1), name, home, log, witness))
    return text


def leave_screen(pane: Pane) -> str:
    """`q`, and `y` to the question it asks: the table screen closes; the pane's text once the
    command has ended."""
    pane.press("q")
    pane.wait_for(lambda s: "Leave the table?" in s, "the quit question")
    pane.press("y")
    return pane.wait_for(lambda s: "willow-exited" in s, "the command's end")


def stop_bots(bots: Sequence[subprocess.Popen[str]]) -> None:
    """Kill the bots still running (a test that failed half-way)."""
    for bot in bots:
        if bot.poll() is None:
            bot.kill()
            bot.wait()


def verified_transcript(printed: str) -> dict[str, Any]:
    """`willow verify --json` of the transcript a `willow play` that exited cleanly names in
    what it printed; the report, valid (or not closed: the person left mid-game)."""
    assert "willow-exited 0" in printed and "Traceback" not in printed
    report = subprocess.run(
        willow_command("verify", "--json", str(transcript_path(printed))),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert report.returncode in (0, 3), report
    verified: dict[str, Any] = json.loads(report.stdout)
    assert verified["verdict"] in ("valid", "not-closed")
    return verified


def start_play(pane: Pane, home: Path, name: str, *args: str) -> None:
    """`willow play ARGS --name NAME` (easy bots, 40 samples a decision) in the pane, its store
    at `home`, the seating's safety code confirmed: returns once the first hand shows. The
    pane keeps the command's exit status (`willow-exited N`) on the screen when it ends. A
    NAME no bot takes (`live.BOT_NAMES`) is the person's alone in the log and the report."""
    willow = shlex.join(willow_command("play", *args, "--name", name))
    command = f"{willow} --samples 40 --level easy; echo willow-exited $?; sleep 600"
    pane.start(command, pane_env(home))
    pane.wait_for(lambda s: SEATING in s, "the safety code")
    pane.press("y")
    pane.wait_for(lambda s: "hand 1" in s, "the first hand")


def hand_over(text: str) -> bool:
    """The screen shows a hand's result, waiting for the key to the next hand."""
    return NEXT_HAND in text


def play_along(pane: Pane, stop: Callable[[str], bool], hands: int) -> str | None:
    """Answer what the screen asks as a person who only plays along (`answer_keys`), hand
    after hand, until the settled screen shows `stop` (its text) or `hands` hands have ended
    without it (None; the last hand's result stays on the screen)."""
    ended = 0
    while True:
        text = pane.settled(
            lambda s: stop(s) or hand_over(s) or answer_keys(s, "Enter") is not None, "a question"
        )
        if stop(text):
            return text
        if hand_over(text):
            ended += 1
            if ended >= hands:
                return None
            pane.press("Enter")
            nxt = f"hand {ended + 1} ·"
            pane.wait_for(lambda s, nxt=nxt: nxt in s, "the next hand")  # type: ignore[misc]
            continue
        keys = answer_keys(text, "Enter")
        assert keys is not None
        pane.press(*keys)
        pane.wait_for(lambda s, before=text: s != before, "an answer")  # type: ignore[misc]


def transcript_path(printed: str) -> Path:
    """The transcript a `willow play` that exited names in what it printed."""
    found = re.search(r"^transcript: (.+)$", printed, re.MULTILINE)
    assert found is not None, printed
    return Path(found.group(1))
