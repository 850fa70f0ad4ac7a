"""`willow play --game weeping-willow --bots 2` end to end, as a person runs it: the real
command in a real terminal (a detached tmux session of 100x30), keys sent with `tmux
send-keys`, the screen read with `tmux capture-pane`. The person accepts the safety code, plays
a whole hand with the keys the screen offers, quits, and reads the transcript's path, which
`willow verify` accepts."""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

from tmux_pane import DEADLINE, POLL, Pane, leave_screen, tmux_or_skip
from tui_screen import SEATING, answer_keys
from witness import Witness

ROOT = Path(__file__).resolve().parents[2]

NEXT = "[Enter] next hand"


SIGNED = re.compile(r"Hand \d+ signed by everyone")


def _hand_over(text: str) -> bool:
    """A whole hand was played: it ended and everyone signed it (the next may have begun)."""
    return NEXT in text or SIGNED.search(text) is not None or "· hand 2 ·" in text


def test_willow_play_with_two_bots_in_tmux(tmp_path: Path, witness: Witness) -> None:
    tmux = tmux_or_skip()
    home = tmp_path / "home"
    pane = Pane(tmux, tmp_path / "tmux.sock", "play", witness)
    bot_logs(witness, home)
    env = {
        "WILLOW_HOME": str(home),
        "PYTHONPATH": str(ROOT),
        "PYTHONIOENCODING": "utf-8",
        "LANG": "C.UTF-8",
        "TERM": "xterm-256color",
    }
    willow = shlex.join(
        [sys.executable, "-m", "p2pwillow", "play", "--game", "weeping-willow", "--bots", "2"]
    )
    # The pane stays open after the command, to read what it printed on the normal screen.
    command = f"{willow} --name Ann --samples 40 --level easy; echo willow-exited $?; sleep 600"
    try:
        pane.start(command, env)
        text = pane.wait_for(lambda s: SEATING in s, "the safety code")
        code = re.search(r"[A-Z2-7]{5}(?:-[A-Z2-7]{5}){3}", text)
        assert code is not None, text
        assert re.search(r"At the table: Ann #[A-Z2-7]{4} \(you\) · Bot ", text), text
        pane.press("y")
        pane.wait_for(lambda s: "hand 1" in s, "the first hand")
        pressed = 0
        while True:
            text = pane.settled(
                lambda s: _hand_over(s) or answer_keys(s, "Enter") is not None, "a question"
            )
            if _hand_over(text):
                break
            keys = answer_keys(text, "Enter")
            assert keys is not None
            pane.press(*keys)
            pressed += 1
            pane.wait_for(lambda s, before=text: s != before, "an answer")  # type: ignore[misc]
        assert pressed >= 3, text
        assert f"code {code.group(0)}" in text  # the status bar
        printed = leave_screen(pane)
    finally:
        pane.kill()
    assert "willow-exited 0" in printed
    assert "you left the table" in printed
    assert "stopped 2 bot(s)" in printed
    assert "Traceback" not in printed
    found = re.search(r"^transcript: (.+)$", printed, re.MULTILINE)
    assert found is not None, printed
    path = Path(found.group(1))
    assert f"check it:   willow verify {path}" in printed
    verdict = subprocess.run(
        [sys.executable, "-m", "p2pwillow", "verify", "--brief", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert verdict.returncode in (0, 3), verdict
    assert "invalid" not in verdict.stdout
    # every bot process was stopped and waited for
    logs = sorted((home / "data" / "bots").glob("play-*/bot.log"))
    assert len(logs) == 2
    for log in logs:
        assert "Traceback" not in log.read_text(encoding="utf-8")


def bot_logs(witness: Witness, home: Path) -> None:
    """The logs of `willow play --bots 2`'s bots with the store at `home`, shown for a test
    that fails."""
    for n in (1, 2):
        witness.file(f"bot {n}'s log", home / "data" / "bots" / f"play-{n}" / "bot.log")


def _playing(tmp_path: Path, home: Path, pid_file: Path, witness: Witness) -> Pane:
    """`willow play --game weeping-willow --bots 2` in tmux, its process id in `pid_file`,
    seated and in hand 1."""
    tmux = tmux_or_skip()
    pane = Pane(tmux, tmp_path / "tmux.sock", "play", witness)
    bot_logs(witness, home)
    env = {"WILLOW_HOME": str(home), "PYTHONPATH": str(ROOT), "LANG": "C.UTF-8"}
    willow = shlex.join(
        [sys.executable, "-m", "p2pwillow", "play", "--game", "weeping-willow", "--bots", "2"]
    )
    command = f"echo $$ > {shlex.quote(str(pid_file))}; exec {willow} --samples 40"
    try:
        pane.start(command, env)
        pane.wait_for(lambda s: SEATING in s, "the safety code")
        pane.press("y")
        pane.wait_for(lambda s: "hand 1" in s, "the first hand")
    except BaseException:
        pane.kill()
        raise
    return pane


def test_closing_the_terminal_stops_the_bots(tmp_path: Path, witness: Witness) -> None:
    home, pid_file = tmp_path / "home", tmp_path / "pid"
    _playing(tmp_path, home, pid_file, witness).kill()  # the terminal goes away: SIGHUP
    pid = int(pid_file.read_text())
    logs = [home / "data" / "bots" / f"play-{n}" / "bot.log" for n in (1, 2)]
    end = time.monotonic() + DEADLINE
    while True:
        gone = not _alive(pid)
        stopped = all("stopped by SIGTERM" in log.read_text(encoding="utf-8") for log in logs)
        if gone and stopped:
            break
        assert time.monotonic() < end, [log.read_text(encoding="utf-8") for log in logs]
        time.sleep(POLL)
    for log in logs:
        assert "Traceback" not in log.read_text(encoding="utf-8")


def test_the_bots_leave_when_willow_play_is_killed(tmp_path: Path, witness: Witness) -> None:
    """`willow play` killed with SIGKILL cannot stop its bots: they leave by themselves, as
    the pipe of their standard input closes (`willow bot --leave-on-eof`)."""
    home, pid_file = tmp_path / "home", tmp_path / "pid"
    pane = _playing(tmp_path, home, pid_file, witness)
    try:
        os.kill(int(pid_file.read_text()), signal.SIGKILL)
        logs = [home / "data" / "bots" / f"play-{n}" / "bot.log" for n in (1, 2)]
        end = time.monotonic() + DEADLINE
        said = "stopped by its standard input closing"
        while not all(said in log.read_text(encoding="utf-8") for log in logs):
            assert time.monotonic() < end, [log.read_text(encoding="utf-8") for log in logs]
            time.sleep(POLL)
        for log in logs:
            assert "Traceback" not in log.read_text(encoding="utf-8")
    finally:
        pane.kill()


def _alive(pid: int) -> bool:
    """The process runs (a zombie no longer does: its parent, the tmux server, is gone, and
    whatever adopted it may be slow to reap it)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    try:
        return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True
