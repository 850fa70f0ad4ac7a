"""`willow play --game five-card-draw --bots 3` as a person runs it, in a real terminal (a tmux
pane of 100x30): the title names Five-Card Draw, the person's five cards show under the table,
and at the draw the panel asks for the cards to discard; the person discards its first two
(keys 1 and 2, then Enter), the log and its seat say it draws 2 and its new cards show. The
transcript verifies, every hand in it is five-card draw, and the person's draw is in it."""

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
from tui_screen import DISCARD, SEATING, answer_keys
from witness import Witness

HANDS = 5
"""Hands the person plays at most to reach a draw (bots may end a hand before it)."""
CARD = r"(?:10|[2-9JQKA])[♠♥♦♣]"
TITLE = re.compile(r"hand (\d+) · Five-Card Draw")


def _hand_over(text: str) -> bool:
    return "[Enter] next hand" in text


def test_a_person_draws_two_cards_in_five_card_draw(tmp_path: Path, witness: Witness) -> None:
    tmux = tmux_or_skip()
    home = tmp_path / "home"
    pane = Pane(tmux, tmp_path / "tmux.sock", "draw", witness)
    env = pane_env(home)
    willow = shlex.join(willow_command("play", "--game", "five-card-draw", "--bots", "3"))
    command = f"{willow} --name Ann --samples 40 --level easy; echo willow-exited $?; sleep 600"
    drew = False
    try:
        pane.start(command, env)
        pane.wait_for(lambda s: "safety code" in s.lower() or SEATING in s, "the safety code")
        pane.press("y")
        pane.wait_for(lambda s: "hand 1" in s, "the first hand")
        hands = 0
        while True:
            text = pane.settled(
                lambda s: _hand_over(s) or answer_keys(s, "Enter") is not None, "a question"
            )
            assert "trading" not in text.lower() and "Lay out" not in text, text
            if _hand_over(text):
                hands += 1
                if drew or hands >= HANDS:
                    break
                pane.press("Enter")
                nxt = f"hand {hands + 1} ·"
                pane.wait_for(lambda s, nxt=nxt: nxt in s, "the next hand")  # type: ignore[misc]
                continue
            if DISCARD in text:
                assert TITLE.search(text.splitlines()[0]), text
                before = re.search(rf"Your cards\s+1:({CARD}) 2:({CARD})", text)
                assert before is not None, text
                pane.press("1", "2")
                pane.wait_for(lambda s: "discard 2" in s, "two cards picked")
                pane.press("Enter")
                after = pane.wait_for(lambda s: " new " in s, "the new cards")
                assert "Ann draws 2" in after or "draws 2" in after, after
                assert before.group(1) not in after.split("Your cards", 1)[1].splitlines()[0]
                drew = True
                continue
            keys = answer_keys(text, "Enter")
            assert keys is not None
            pane.press(*keys)
            pane.wait_for(lambda s, before=text: s != before, "an answer")  # type: ignore[misc]
        assert drew, "the person never reached a draw"
        printed = leave_screen(pane)
    finally:
        pane.kill()
    verified = verified_transcript(printed)
    assert verified["hands"] and all(h["game"] == "five-card-draw" for h in verified["hands"])
    draws = [d for h in verified["hands"] for st in h["streets"] for d in st["drawn"]]
    assert any(d["count"] == 2 for d in draws), draws
