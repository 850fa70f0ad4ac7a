"""`willow play --game roll-your-own --bots 3` as a person runs it, in a real terminal (a tmux
pane of 100x30): the dealer's announcement names the game, nobody trades, everyone antes, and
the person plays a whole hand with the keys the screen offers; the transcript verifies and
every one of its hands announced Roll Your Own (SPEC 3.13)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from tmux_pane import (
    Pane,
    leave_screen,
    pane_env,
    tmux_or_skip,
    verified_transcript,
    willow_command,
)
from tui_screen import SEATING, answer_keys
from witness import Witness

SIGNED = re.compile(r"Hand \d+ signed by everyone")


def _hand_over(text: str) -> bool:
    return "[Enter] next hand" in text or SIGNED.search(text) is not None or "· hand 2 ·" in text


def test_a_person_plays_roll_your_own_against_three_bots(tmp_path: Path, witness: Witness) -> None:
    tmux = tmux_or_skip()
    home = tmp_path / "home"
    pane = Pane(tmux, tmp_path / "tmux.sock", "ryo", witness)
    env = pane_env(home)
    willow = shlex.join(willow_command("play", "--game", "roll-your-own", "--bots", "3"))
    command = f"{willow} --name Ann --samples 40 --level easy; echo willow-exited $?; sleep 600"
    seen: list[str] = []
    try:
        pane.start(command, env)
        pane.wait_for(lambda s: SEATING in s, "the safety code")
        pane.press("y")
        pane.wait_for(lambda s: "hand 1" in s, "the first hand")
        while True:
            text = pane.settled(
                lambda s: _hand_over(s) or answer_keys(s, "Enter") is not None, "a question"
            )
            seen.append(text)
            if _hand_over(text):
                break
            keys = answer_keys(text, "Enter")
            assert keys is not None
            assert keys != ["p"] and keys != ["n"], text  # nothing to trade in Roll Your Own
            pane.press(*keys)
            pane.wait_for(lambda s, before=text: s != before, "an answer")  # type: ignore[misc]
        screens = "\n".join(seen)
        assert "announces Roll Your Own: 5 cards" in screens or "You deal" in screens, screens
        assert "trading" not in screens.lower().replace("trading mode", ""), screens
        printed = leave_screen(pane)
    finally:
        pane.kill()
    verified = verified_transcript(printed)
    assert verified["hands"] and all(h["game"] == "roll-your-own" for h in verified["hands"])
    assert verified["config"]["games"] == ["roll-your-own"]
    first = verified["hands"][0]
    assert first["trading"] is None and not first["trades"]
    # four antes of 25 went into the pot before any bet
    assert sum(pot["amount"] for pot in first["pots"]) >= 4 * 25, first["pots"]
