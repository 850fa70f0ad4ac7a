"""`willow play --game holdem-high-low --bots 2` as a person runs it, in a real terminal (a tmux
pane of 100x30): at the declaration the panel offers one key per choice; the person presses `l`
(which leaves the table elsewhere) and declares low, sealed: nobody's choice shows until every
one is open, then each seat shows its declaration and the log says the person's; the hand's
result names each side's winners (or a pot nobody wins, carried over). The transcript verifies,
and its report holds the person's declaration and each pot's sides."""

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
from tui_screen import DECLARE, SEATING, answer_keys
from witness import Witness

HANDS = 6
"""Hands the person plays at most to reach a declaration (bots may fold a hand before it)."""
TITLE = re.compile(r"hand (\d+) · Hold'em High-Low — ([^[]+?)\s+\[")
DECLARED = re.compile(r"declared (high|low|pig)\b(?! \(sealed\))")


def _hand_over(text: str) -> bool:
    return "[Enter] next hand" in text


def _table(text: str) -> str:
    """The seats and the felt: above the rule under the table."""
    return text.split("─" * 100)[0]


def test_a_person_declares_low_in_holdem_high_low(tmp_path: Path, witness: Witness) -> None:
    tmux = tmux_or_skip()
    home = tmp_path / "home"
    pane = Pane(tmux, tmp_path / "tmux.sock", "declare", witness)
    env = pane_env(home)
    willow = shlex.join(willow_command("play", "--game", "holdem-high-low", "--bots", "2"))
    command = f"{willow} --name Ann --samples 40 --level easy; echo willow-exited $?; sleep 600"
    declared_in: int | None = None
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
            if _hand_over(text):
                hands += 1
                if declared_in is not None:
                    # the split, or a pot nobody wins; or one player left after the bet
                    said = re.search(
                        r"Pot of \d+: .*((high|low): \S.* (wins|split) \d+|nobody wins)", text
                    )
                    assert said or "everyone else folded" in text, text
                    break
                if hands >= HANDS:
                    break
                pane.press("Enter")
                nxt = f"hand {hands + 1} ·"
                pane.wait_for(lambda s, nxt=nxt: nxt in s, "the next hand")  # type: ignore[misc]
                continue
            if DECLARE in text:
                title = TITLE.search(text.splitlines()[0])
                assert title is not None and title.group(2) == "the declaration", text
                assert f"{DECLARE}[h] high  [l] low  [p] pig (both ways)" in text, text
                assert "you: declare high, low or pig" in text, text
                assert not DECLARED.search(_table(text)), text  # nobody's choice shows yet
                pane.press("l")
                # sealed: the person's own choice, to them alone, until every one is open.
                # The bots seal at once, so the openings and the bet after them may follow
                # within a moment and scroll the sealed line out of the log before a loaded
                # machine captures the pane: then the declarations are open already
                after = pane.wait_for(
                    lambda s: "you declared low (sealed)" in s or "declared low" in _table(s),
                    "the declaration sealed or open",
                )
                assert "Leave the table?" not in after, after
                if "declared low" not in _table(after):  # still sealed: nobody's choice shows
                    assert re.search(r"low \(sealed\)", _table(after)), after
                    assert not DECLARED.search(_table(after)), after
                # every declaration beside its seat, once all are open (the log tells each)
                opened = pane.wait_for(
                    lambda s: "declared low" in _table(s), "the declarations open"
                )
                boxes = DECLARED.findall(_table(opened))
                assert "low" in boxes and len(boxes) >= 2, opened  # every seat still in
                declared_in = int(title.group(1))
                continue  # the bet after the declaration, then the showdown
            keys = answer_keys(text, "Enter")
            assert keys is not None
            pane.press(*keys)
            pane.wait_for(lambda s, before=text: s != before, "an answer")  # type: ignore[misc]
        assert declared_in is not None, "the person never reached a declaration"
        printed = leave_screen(pane)
    finally:
        pane.kill()
    verified = verified_transcript(printed)
    ann = next(p["seat"] for p in verified["players"] if p["name"] == "Ann")
    hand = next(h for h in verified["hands"] if h["number"] == declared_in)
    assert hand["game"] == "holdem-high-low"
    assert {"seat": ann, "choice": "low"} in hand["declared"], hand["declared"]
    assert ann in hand["sealed"]
    assert hand["pots"] and all("high" in p and "low" in p for p in hand["pots"]), hand["pots"]
