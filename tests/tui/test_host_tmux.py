"""A person hosts a table of Weeping Willow in one terminal and three bots join it from their
own: `willow host --game weeping-willow` in a real terminal (tmux), `willow bot --join CODE`
three times as separate processes, each with its own store, identity and sockets. The person
reads the join code off the screen, accepts the safety code, plays along with the keys the
screen offers until the game's two hands are over, reads the final stacks and the check line,
and leaves. Every transcript is the same game, and `willow verify` accepts it."""

from __future__ import annotations

import os
import re
import subprocess
import time
from pathlib import Path

from tmux_pane import (
    DEADLINE,
    POLL,
    ROOT,
    Pane,
    host_with_bots,
    pane_env,
    stop_bots,
    tmux_or_skip,
    willow_command,
)
from tui_screen import SEATING, answer_keys
from witness import Witness

NEXT = "[Enter] next hand"
OVER = "Final stacks: "
STACK = 20000
"""Deep stacks: a seat loses at most about 2,000 chips a hand, so each of the four plays both
hands and the game ends when they are played (with a thousand, one hand can empty a seat)."""


def test_a_person_hosts_three_bots_join_and_the_game_finishes(
    tmp_path: Path, witness: Witness
) -> None:
    tmux = tmux_or_skip()
    pane = Pane(tmux, tmp_path / "tmux.sock", "host", witness)
    env = pane_env(tmp_path / "ann")
    host = willow_command("host", "--name", "Ann", "--hands", "2", "--no-advertise")
    host += ["--game", "weeping-willow", "--address", "127.0.0.1", "--stack", str(STACK)]
    bots: list[subprocess.Popen[str]] = []
    logs = [tmp_path / f"bot{n}.log" for n in (1, 2, 3)]
    try:
        joining = [(f"Bot{n}", tmp_path / f"b{n}", log) for n, log in enumerate(logs, start=1)]
        host_with_bots(pane, env, host, joining, bots, witness)
        text = pane.wait_for(lambda s: SEATING in s, "the safety code")
        assert re.search(r"At the table: Ann #[A-Z2-7]{4} \(you\) · ", text), text
        for n in (1, 2, 3):
            assert f"Bot{n} (easy)" in text
        pane.press("y")
        pane.wait_for(lambda s: "hand 1" in s, "the first hand")
        pressed = 0
        while True:
            text = pane.settled(
                lambda s: OVER in s or NEXT in s or answer_keys(s, "Enter") is not None,
                "a question or the game's end",
            )
            if OVER in text:
                break
            keys = ["Enter"] if NEXT in text else answer_keys(text, "Enter")
            assert keys is not None
            pane.press(*keys)
            pressed += 1
            pane.wait_for(lambda s, before=text: s != before, "an answer")  # type: ignore[misc]
        assert pressed >= 2, text
        assert "The game is over: 2 hands played." in text, text
        stacks = re.search(r"Final stacks: (.+)", text)
        assert stacks is not None, text
        chips = re.findall(r"(\d+)(?= ·|$)", stacks.group(1).strip())
        assert len(chips) == 4 and sum(map(int, chips)) == 4 * STACK, stacks.group(1)
        assert "Check it: willow verify " in text
        pane.press("q")  # the game is over: nothing to abandon, no question
        printed = pane.wait_for(lambda s: "willow-exited" in s, "the command's end")
        end = time.monotonic() + DEADLINE
        while any(bot.poll() is None for bot in bots):
            assert time.monotonic() < end, [log.read_text(encoding="utf-8") for log in logs]
            time.sleep(POLL)
    finally:
        pane.kill()
        stop_bots(bots)
    assert "willow-exited 0" in printed, printed
    assert "Traceback" not in printed
    paths = [Path(m) for m in re.findall(r"^transcript: (.+)$", printed, re.MULTILINE)]
    assert len(paths) == 1, printed
    assert f"check it:   willow verify {paths[0]}" in printed
    assert "the game is over: 2 hands played" in printed
    for bot, log in zip(bots, logs, strict=True):
        said = log.read_text(encoding="utf-8")
        assert bot.returncode == 0, said
        assert "Traceback" not in said
        found = re.search(r"^transcript: (.+)$", said, re.MULTILINE)
        assert found is not None, said
        paths.append(Path(found.group(1)))
    # one game: the four transcripts are the same bytes
    assert len({p.read_bytes() for p in paths}) == 1
    verdict = subprocess.run(
        willow_command("verify", "--brief", str(paths[0])),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert verdict.returncode == 0, verdict
    assert "valid" in verdict.stdout and "invalid" not in verdict.stdout
