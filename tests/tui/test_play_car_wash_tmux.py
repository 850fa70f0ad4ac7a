"""`willow play --game car-wash --bots 3` as a person runs it, in a real terminal (a tmux pane of
100x30): at the person's first wash the panel says two cards may be washed, free; the person
picks its face-down card (key 1) and its face-up card (key 2) and Enter washes both: the log
tells both, and once the redeal is dealt both are gone and others took their places, face down
and face up. Its two washes used, the later washes of the hand pass the person by (the panel
never shows again in that hand). The transcript verifies; its one wash entry of the person that
hand holds one face-down card and one face-up card, and the report tells that wash."""

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
    transcript_path,
    verified_transcript,
)
from tui_screen import WASHING
from witness import Witness

from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.entry import decode_entry

NAME = "Pat"
"""The person: a name no bot takes, so the log's and the report's "Pat" is the person."""
HANDS = 6
"""Hands the person plays at most to reach a wash of two cards (the bots may end a hand
before the person's turn at a wash)."""
CARD = r"(?:10|[2-9JQKA])[♠♥♦♣]"
TITLE = re.compile(r"hand (\d+) · Car Wash")
FIRST = re.compile(rf"Your cards\s+down 1:({CARD})\s+up 2:({CARD})(?!\s*\d:)")
"""The person's cards as the wash numbers them at the first wash: one down, one up."""
MINE = re.compile(rf"Your cards\s+down((?: {CARD})+)\s+up((?: {CARD})+)")
"""The person's face-down and face-up cards once the wash is over."""


def _first_wash(text: str) -> bool:
    """The person's wash panel at the hand's first wash: two cards may be washed, free."""
    return "Wash up to 2 cards, free: none yet" in text and FIRST.search(text) is not None


def test_a_person_washes_two_cards_at_once_in_car_wash(tmp_path: Path, witness: Witness) -> None:
    pane = Pane(tmux_or_skip(), tmp_path / "tmux.sock", "carwash", witness)
    try:
        start_play(pane, tmp_path / "home", NAME, "--game", "car-wash", "--bots", "3")
        text = play_along(pane, _first_wash, HANDS)
        assert text is not None, "the person never reached the first wash of a hand"
        title = TITLE.search(text.splitlines()[0])
        cards = FIRST.search(text)
        assert title and cards, text
        washed_in = int(title.group(1))
        down, up = cards.group(1), cards.group(2)
        assert "[1-2] pick up to 2" in text and "[Enter] wash them" in text, text

        pane.press("1", "2")
        picked = pane.wait_for(lambda s: f"{up} (face up)" in s, "both cards picked")
        assert f"free: {down} (face down), {up} (face up)" in picked, picked
        pane.press("Enter")

        # the redeal: one face-down card and one face-up card again, neither the one washed
        def redealt(s: str) -> bool:
            found = MINE.search(s)
            if found is None or WASHING.search(s) is not None:
                return False
            now_down, now_up = (re.findall(CARD, found.group(i)) for i in (1, 2))
            return len(now_down) == len(now_up) == 1 and down not in now_down and up not in now_up

        # the log tells the face-up card washed; on a loaded machine its line (and the one for
        # the face-down card, just before it) can scroll out of the log's few rows as the bots
        # wash and bet on before the pane is read: then the redeal tells both washes, and the
        # transcript below holds them
        pane.wait_for(lambda s: f"{NAME} washes {up}" in s or redealt(s), "the wash told")

        after = pane.wait_for(redealt, "new cards for the washed ones")
        assert "Traceback" not in after, after
        # its two washes used: the rest of the hand never shows the person the wash panel
        ended = play_along(pane, lambda s: WASHING.search(s) is not None or hand_over(s), 1)
        assert ended is not None and hand_over(ended), ended
        assert WASHING.search(ended) is None and f"hand {washed_in} ·" in ended, ended
        printed = leave_screen(pane)
    finally:
        pane.kill()

    verified = verified_transcript(printed)
    seat = next(p["seat"] for p in verified["players"] if p["name"] == NAME)
    hand = next(h for h in verified["hands"] if h["number"] == washed_in)
    assert hand["game"] == "car-wash"
    entries = [decode_entry(ln) for ln in transcript_path(printed).read_bytes().splitlines()]
    mine = [
        e.body
        for e in entries
        if e.hand == washed_in and e.author == seat and isinstance(e.body, k.Wash)
    ]
    assert len(mine) == 1, mine
    assert isinstance(mine[0], k.Wash)
    assert len(mine[0].cards) == 1 and list(mine[0].up) == [0], mine
    # a later wash of the hand took place, and passed the person by: no row of its there
    steps = [st["washed"] for st in hand["streets"] if st["washed"]]
    assert len(steps) >= 2, steps
    rows = [w for ws in steps for w in ws if w["seat"] == seat]
    assert len(rows) == 1 and rows[0]["paid"] == 0 and not rows[0]["kept"], rows
    faces = [(c["face"], c["card"]) for c in rows[0]["cards"]]
    assert faces == [("down", None), ("up", _ascii(up))], faces


def _ascii(card: str) -> str:
    """A card as the screen draws it ("10♥") as the report writes it ("Th")."""
    suits = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}
    return card[:-1].replace("10", "T") + suits[card[-1]]
