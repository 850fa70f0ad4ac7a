"""`willow play --game five-card-draw --bots 3` as a person runs it, in a real terminal (a tmux
pane of 100x30): the title names Five-Card Draw, the person's five cards show under the table,
and at the draw the panel asks for the cards to discard; the person discards its first two
(keys 1 and 2, then Enter), the log and its seat say it draws 2 and its new cards show. The
transcript verifies, every hand in it is five-card draw, and the person's draw is in it."""

from __future__ import annotations

import re
from pathlib import Path

from tmux_pane import (
    Pane,
    hand_over,
    leave_screen,
    play_along,
    start_play,
    tmux_or_skip,
    verified_transcript,
)
from tui_screen import DISCARD
from witness import Witness

HANDS = 5
"""Hands the person plays at most to reach a draw (bots may end a hand before it)."""
CARD = r"(?:10|[2-9JQKA])[♠♥♦♣]"
TITLE = re.compile(r"hand (\d+) · Five-Card Draw")


def test_a_person_draws_two_cards_in_five_card_draw(tmp_path: Path, witness: Witness) -> None:
    pane = Pane(tmux_or_skip(), tmp_path / "tmux.sock", "draw", witness)
    try:
        start_play(pane, tmp_path / "home", "Pat", "--game", "five-card-draw", "--bots", "3")
        text = play_along(pane, lambda s: DISCARD in s, HANDS)
        assert text is not None, "the person never reached a draw"
        assert "trading" not in text.lower() and "Lay out" not in text, text
        assert TITLE.search(text.splitlines()[0]), text
        before = re.search(rf"Your cards\s+1:({CARD}) 2:({CARD})", text)
        assert before is not None, text
        pane.press("1", "2")
        pane.wait_for(lambda s: "discard 2" in s, "two cards picked")
        pane.press("Enter")
        after = pane.wait_for(lambda s: " new " in s, "the new cards")
        # the log's line, or, once the bots' draws and bets have pushed it out of the log's few
        # rows, the two cards the person's row marks new
        drawn = re.search(rf"Your cards .*  new ((?:{CARD} ?)+)", after)
        assert "Pat draws 2" in after or (drawn and len(re.findall(CARD, drawn[1])) == 2), after
        assert before.group(1) not in after.split("Your cards", 1)[1].splitlines()[0]
        assert play_along(pane, hand_over, 1) is not None
        printed = leave_screen(pane)
    finally:
        pane.kill()
    verified = verified_transcript(printed)
    assert verified["hands"] and all(h["game"] == "five-card-draw" for h in verified["hands"])
    draws = [d for h in verified["hands"] for st in h["streets"] for d in st["drawn"]]
    pat = next(p["seat"] for p in verified["players"] if p["name"] == "Pat")
    assert {"seat": pat, "count": 2} in draws, draws
