"""`willow play --game holdem --bots 3` as a person runs it, in a real terminal (a tmux pane of
100x30): the title names Texas Hold'em and its street, the person's hole cards show under the
table and the board in its middle, street by street, and the person plays hands to their end
with the keys the screen offers (check or call), until one reaches the river; nothing of Weeping
Willow's trading or layout shows. The transcript verifies and every hand in it is hold'em."""

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

HANDS = 4
"""Hands the person plays at most to see one reach the river (bots may fold it earlier)."""
CARD = r"(?:10|[2-9JQKA])[♠♥♦♣]"
BOARD = re.compile(rf"board((?: {CARD})*)((?: ··)*)")
TITLE = re.compile(r"hand (\d+) · Texas Hold'em — ([^[]+?)\s+\[")
ANNOUNCE = "You deal: announce."


def _hand_over(text: str) -> bool:
    return "[Enter] next hand" in text


def test_a_person_plays_holdem_against_three_bots(tmp_path: Path, witness: Witness) -> None:
    tmux = tmux_or_skip()
    home = tmp_path / "home"
    pane = Pane(tmux, tmp_path / "tmux.sock", "holdem", witness)
    env = pane_env(home)
    willow = shlex.join(willow_command("play", "--game", "holdem", "--bots", "3"))
    command = f"{willow} --name Ann --samples 40 --level easy; echo willow-exited $?; sleep 600"
    seen: list[str] = []
    streets: set[str] = set()
    try:
        pane.start(command, env)
        pane.wait_for(lambda s: SEATING in s, "the safety code")
        pane.press("y")
        pane.wait_for(lambda s: "hand 1" in s, "the first hand")
        hands = 0
        while True:
            text = pane.settled(
                lambda s: _hand_over(s) or answer_keys(s, "Enter") is not None, "a question"
            )
            seen.append(text)
            if ANNOUNCE in text:
                # the table plays one game: the panel names it, with nothing to choose
                assert "Texas Hold'em" in text and "[g]" not in text, text
                assert "trading" not in text.lower() and "Deal size" not in text, text
                pane.press("Enter")
                pane.wait_for(lambda s: ANNOUNCE not in s, "the announcement")
                continue
            title = TITLE.search(text.splitlines()[0])
            assert title is not None, text
            street = title.group(2)
            streets.add(street)
            board = BOARD.search(text)
            assert board is not None, text
            dealt = len(re.findall(CARD, board.group(1)))
            to_come = board.group(2).count("··")
            assert dealt + to_come == 5, text
            expected = {"before the flop": 0, "the flop": 3, "the turn": 4, "the river": 5}
            for name, count in expected.items():
                if street.startswith(name):
                    assert dealt == count, text
            assert re.search(rf"Your hole cards  {CARD} {CARD}", text), text
            assert "trading" not in text.lower() and "Lay out" not in text, text
            if _hand_over(text):
                hands += 1
                if "the river: betting" in streets or hands >= HANDS:
                    break
                pane.press("Enter")
                nxt = f"hand {hands + 1} ·"
                pane.wait_for(lambda s, nxt=nxt: nxt in s, "the next hand")  # type: ignore[misc]
                continue
            keys = answer_keys(text, "Enter")
            assert keys is not None
            assert keys not in (["p"], ["n"]), text  # nothing to trade in hold'em
            pane.press(*keys)
            pane.wait_for(lambda s, before=text: s != before, "an answer")  # type: ignore[misc]
        assert "the river: betting" in streets, streets
        assert any("Texas Hold'em — hand over" in s for s in seen), seen[-1]
        printed = leave_screen(pane)
    finally:
        pane.kill()
    verified = verified_transcript(printed)
    assert verified["hands"] and all(h["game"] == "holdem" for h in verified["hands"])
