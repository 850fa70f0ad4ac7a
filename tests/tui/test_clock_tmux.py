"""The clock as people meet it, in real terminals (tmux): `willow play` shows whose turn it is
and the countdown of the person's own clock, warns in its last seconds, gives more time from
the time bank with one key, and pauses the table with one key (every screen says who paused
and since when) until the same key resumes it. At a table of two persons hosted with `willow
host --arbiter NAME`, the arbiter resumes the other's pause and gives them more time. The
transcripts verify, and `willow verify --json` lists every draw, pause, resume and ruling."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from tmux_pane import (
    JOIN,
    ROOT,
    Pane,
    leave_screen,
    pane_env,
    start_bot,
    stop_bots,
    tmux_or_skip,
    willow_command,
)
from tui_screen import ANNOUNCE, SEATING, answer_keys
from witness import Witness

SINCE = re.compile(r"PAUSED by (\w+) since \d\d:\d\d")
PAUSED_FOR = re.compile(r"PAUSED by you since \d\d:\d\d\s+for (\d+):(\d\d)")
YOUR_CLOCK = re.compile(r"your clock (\d+):(\d\d)")
MARKED = re.compile(r"▶ (\d+:\d\d) Ann")
"""Ann's seat box while the table waits for her decision: the countdown beside her name."""


def _seconds(found: re.Match[str]) -> int:
    return int(found.group(1)) * 60 + int(found.group(2))


def _verify_json(path: Path) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-m", "p2pwillow", "verify", "--json", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode in (0, 3), done
    report: dict[str, object] = json.loads(done.stdout)
    assert report["verdict"] in ("valid", "not-closed"), report["error"]
    return report


def _clock_kinds(report: dict[str, object]) -> list[tuple[str, int, int | None]]:
    entries = report["clock"]
    assert isinstance(entries, list)
    return [(c["kind"], c["by"], c["seat"]) for c in entries]


def test_willow_play_counts_down_warns_gives_more_time_and_pauses(
    tmp_path: Path, witness: Witness
) -> None:
    tmux = tmux_or_skip()
    pane = Pane(tmux, tmp_path / "tmux.sock", "play", witness)
    args = ["--game", "weeping-willow", "--bots", "2", "--name", "Ann", "--samples", "40"]
    args += ["--level", "easy", "--clock", "20", "--time-bank", "60", "--hands", "1"]
    willow = shlex.join(willow_command("play", *args))
    try:
        pane.start(f"{willow}; echo willow-exited $?; sleep 600", pane_env(tmp_path / "home"))
        pane.wait_for(lambda s: SEATING in s, "the safety code")
        pane.press("y")
        # Ann deals hand 1: the announcement waits for her, and her clock runs
        text = pane.wait_for(
            lambda s: ANNOUNCE in s and YOUR_CLOCK.search(s) is not None, "Ann's clock"
        )
        assert "[m] more time (+30 s, 60 s in your bank)" in text, text
        assert "[Space] pause (3 left)" in text, text
        assert MARKED.search(text) is not None, text  # whose turn, with its countdown
        # the last ten seconds: a warning
        text = pane.wait_for(lambda s: "Hurry: your clock 0:" in s, "the warning")
        found = YOUR_CLOCK.search(text)
        assert found is not None and _seconds(found) <= 10, text
        pane.press("m")
        text = pane.wait_for(
            lambda s: "30 s in your bank" in s and "Hurry" not in s, "thirty seconds more"
        )
        found = YOUR_CLOCK.search(text)
        assert found is not None and 20 < _seconds(found) <= 40, text
        # the phone rings
        pane.press("Space")
        text = pane.wait_for(lambda s: SINCE.search(s) is not None, "the pause")
        assert "PAUSED by you since" in text, text
        assert "[Space] resume" in text, text
        assert "the clocks run again by themselves in " in text, text
        frozen = MARKED.search(text)
        assert frozen is not None, text
        # the pause goes on, its own clock counting up; the turn's clock stands still
        later = pane.wait_for(
            lambda s: (m := PAUSED_FOR.search(s)) is not None and _seconds(m) >= 5,
            "a pause of five seconds",
        )
        again = MARKED.search(later)
        assert again is not None and again.group(1) == frozen.group(1), (text, later)
        pane.press("Space")
        text = pane.wait_for(
            lambda s: "PAUSED" not in s and YOUR_CLOCK.search(s) is not None, "the resume"
        )
        pane.press("Enter")  # announce: the hand goes on
        while "[Enter] next hand" not in text and "Final stacks" not in text:
            text = pane.settled(
                lambda s: (
                    "Final stacks" in s
                    or "[Enter] next hand" in s
                    or answer_keys(s, "Enter") is not None
                ),
                "a question or the hand's end",
            )
            keys = answer_keys(text, "Enter")
            if keys is not None and "Final stacks" not in text:
                pane.press(*keys)
                pane.wait_for(lambda s, before=text: s != before, "an answer")  # type: ignore[misc]
        printed = leave_screen(pane) if "Final stacks" not in text else _quit(pane)
    finally:
        pane.kill()
    assert "willow-exited 0" in printed, printed
    found_path = re.search(r"^transcript: (.+)$", printed, re.MULTILINE)
    assert found_path is not None, printed
    report = _verify_json(Path(found_path.group(1)))
    assert report["arbiter"] == 0
    kinds = _clock_kinds(report)
    assert ("time_bank", 0, None) in kinds, kinds
    assert kinds.index(("pause", 0, None)) < kinds.index(("resume", 0, None)), kinds
    config = report["config"]
    assert isinstance(config, dict)
    assert (config["action_clock"], config["time_bank"], config["arbiter"]) == (20, 60, 0)


def _quit(pane: Pane) -> str:
    pane.press("q")  # the game is over: nothing to abandon, no question
    return pane.wait_for(lambda s: "willow-exited" in s, "the command's end")


def test_every_screen_says_who_paused_and_the_arbiter_resumes_and_gives_time(
    tmp_path: Path, witness: Witness
) -> None:
    tmux = tmux_or_skip()
    ann = Pane(tmux, tmp_path / "tmux.sock", "ann", witness)
    bob = Pane(tmux, tmp_path / "tmux.sock", "bob", witness)
    host = willow_command("host", "--name", "Ann", "--seats", "3", "--no-advertise")
    host += ["--game", "weeping-willow", "--address", "127.0.0.1", "--arbiter", "Bob"]
    host += ["--clock", "60", "--hands", "1"]
    bots: list[subprocess.Popen[str]] = []
    try:
        ann.start(f"{shlex.join(host)}; echo willow-exited $?; sleep 600", pane_env(tmp_path / "a"))
        text = ann.wait_for(lambda s: JOIN.search(s) is not None, "the join line")
        found = JOIN.search(text)
        assert found is not None
        code = found.group(1)
        join = willow_command("join", code, "--name", "Bob", "--address", "127.0.0.1")
        bob.start(f"{shlex.join(join)}; echo willow-exited $?; sleep 600", pane_env(tmp_path / "b"))
        bots.append(start_bot(code, "Cat", tmp_path / "c", tmp_path / "cat.log", witness))
        for pane in (ann, bob):
            pane.wait_for(lambda s: SEATING in s, "the safety code")
            pane.press("y")
        ann.wait_for(lambda s: ANNOUNCE in s and YOUR_CLOCK.search(s) is not None, "Ann's turn")
        text = bob.wait_for(lambda s: "Ann's clock " in s, "Ann's clock on Bob's screen")
        assert "[m] more time for Ann (arbiter)" in text, text
        # Ann's phone rings: both screens say who paused, and since when
        ann.press("Space")
        text = ann.wait_for(lambda s: SINCE.search(s) is not None, "the pause on Ann's screen")
        assert "PAUSED by you since" in text
        text = bob.wait_for(lambda s: SINCE.search(s) is not None, "the pause on Bob's screen")
        assert "PAUSED by Ann since" in text and "[Space] resume" in text, text
        # the arbiter resumes it, and gives Ann more time
        bob.press("Space")
        for pane in (ann, bob):
            pane.wait_for(lambda s: "PAUSED" not in s, "the resume")
        bob.wait_for(lambda s: "Ann's clock " in s, "Ann's clock again")
        bob.press("m")
        bob.wait_for(lambda s: "you give Ann more time" in s, "the ruling")
        text = ann.wait_for(
            lambda s: (m := YOUR_CLOCK.search(s)) is not None and _seconds(m) > 60,
            "Ann's longer clock",
        )
        ann.press("e")
        ann.wait_for(lambda s: "End the game?" in s, "the end question")
        ann.press("y")
        ann.press("Enter")  # announce; the game ends after this hand
        printed = leave_screen(ann)
        leave_screen(bob)
    finally:
        ann.kill()
        stop_bots(bots)
    found_path = re.search(r"^transcript: (.+)$", printed, re.MULTILINE)
    assert found_path is not None, printed
    report = _verify_json(Path(found_path.group(1)))
    players = report["players"]
    assert isinstance(players, list)
    bob_seat = next(p["seat"] for p in players if p["name"] == "Bob")
    assert report["arbiter"] == bob_seat
    kinds = _clock_kinds(report)
    assert kinds[:3] == [
        ("pause", 0, None),
        ("resume", bob_seat, None),
        ("ruling_extend", bob_seat, 0),
    ], kinds
