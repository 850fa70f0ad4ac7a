"""`willow play --game go-for-broke --bots 3` as a person runs it, in a real terminal (a tmux
pane of 100x30): at the wash the panel says both prices and numbers the person's cards face down
first; the person picks its first face-down card (key 1), the panel names it and its price, and
Enter washes it: the log says the person paid and washed a card face down, and once the redeal
is dealt the card is gone from the person's face-down cards and another took its place. The
transcript verifies; its wash entry of the person holds one face-down card (no face-up one), and
the report tells that wash without the card's identity."""

from __future__ import annotations

import re
from collections.abc import Callable
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
from tui_screen import WASH
from witness import Witness

from p2pwillow.cards import Card
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.entry import decode_entry

NAME = "Pat"
"""The person: a name no bot takes, so the log's and the report's "Pat" is the person."""
HANDS = 6
"""Hands the person plays at most to reach a wash (the bots may end a hand before it)."""
CARD = r"(?:10|[2-9JQKA])[♠♥♦♣]"
TITLE = re.compile(r"hand (\d+) · Go for Broke")
PRICES = re.compile(r"Wash one card for (\d+) chips \(face down: (\d+)\): none yet")
NUMBERED = re.compile(rf"Your cards\s+down((?: \d:{CARD})+)\s+up((?: \d:{CARD})+)")
"""The person's cards as the wash numbers them: face down first, then face up."""
DOWN = re.compile(rf"Your cards\s+down((?: {CARD})+)")
"""The person's face-down cards once the wash is over."""
STACK = re.compile(rf"{NAME} #\w+ \(you\)[^\n]*\n\s*(\d+) ·")
"""The person's stack, under its name in its box on the table."""


def _stack(text: str) -> int | None:
    found = STACK.search(text)
    return None if found is None else int(found.group(1))


def _cards(said: str) -> list[str]:
    return re.findall(CARD, said)


def _report_cards(node: object) -> set[str]:
    """Every card the report names, anywhere in it."""
    if isinstance(node, dict):
        return set().union(*(_report_cards(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(_report_cards(v) for v in node))
    if isinstance(node, str) and re.fullmatch(r"[2-9TJQKA][cdhs]", node):
        return {node}
    return set()


def _redealt(washed: str, count: int) -> Callable[[str], bool]:
    """The screen once the wash is over: `count` face-down cards again, `washed` not among
    them."""

    def test(text: str) -> bool:
        found = DOWN.search(text)
        down = [] if found is None else _cards(found.group(1))
        return WASH not in text and len(down) == count and washed not in down

    return test


def test_a_person_washes_a_face_down_card_in_go_for_broke(tmp_path: Path, witness: Witness) -> None:
    pane = Pane(tmux_or_skip(), tmp_path / "tmux.sock", "wash", witness)
    washed_in: int | None = None
    paid = 0
    try:
        start_play(pane, tmp_path / "home", NAME, "--game", "go-for-broke", "--bots", "3")
        text = play_along(pane, lambda s: WASH in s, HANDS)
        assert text is not None, "the person never reached a wash"
        title = TITLE.search(text.splitlines()[0])
        prices = PRICES.search(text)
        numbered = NUMBERED.search(text)
        assert title and prices and numbered, text
        # Go for Broke: a face-up card for two antes, a face-down one for four (SPEC 3.13.13)
        price_up, price_down = int(prices.group(1)), int(prices.group(2))
        assert price_down == 2 * price_up, text
        down = _cards(numbered.group(1))
        assert numbered.group(1).startswith(" 1:") and len(down) >= 2, text
        washed = down[0]

        pane.press("1")
        picked = pane.wait_for(lambda s: "(face down)" in s, "the face-down card picked")
        assert f"{washed} (face down)" in picked, picked
        assert f"pay {price_down}, wash it" in picked, picked
        before = _stack(text)
        assert before is not None, text
        pane.press("Enter")
        # The wash told: its line in the log, or, once the bots' washes, the redeal and their
        # bets have pushed that line out of the log's few rows, the redeal on the screen and the
        # person's stack down by the price.
        told = f"{NAME} pays {price_down} and washes a card face down"
        pane.wait_for(
            lambda s: (
                told in s or (_redealt(washed, len(down))(s) and _stack(s) == before - price_down)
            ),
            "the wash told",
        )
        # the redeal: as many face-down cards as before, the washed one not among them
        after = pane.wait_for(
            _redealt(washed, len(down)),
            "a new face-down card for the washed one",
        )
        assert "Traceback" not in after, after
        washed_in, paid = int(title.group(1)), price_down
        ended = play_along(pane, hand_over, 1)
        assert ended is not None and f"hand {washed_in} ·" in ended, ended
        printed = leave_screen(pane)
    finally:
        pane.kill()

    verified = verified_transcript(printed)
    seat = next(p["seat"] for p in verified["players"] if p["name"] == NAME)
    hand = next(h for h in verified["hands"] if h["number"] == washed_in)
    assert hand["game"] == "go-for-broke"
    entries = [decode_entry(ln) for ln in transcript_path(printed).read_bytes().splitlines()]
    mine = [
        e.body
        for e in entries
        if e.hand == washed_in and e.author == seat and isinstance(e.body, k.Wash)
    ]
    assert len(mine) == 1 and len(mine[0].cards) == 1 and not mine[0].up, mine
    rows = [w for st in hand["streets"] for w in st["washed"] if w["seat"] == seat]
    card = {"face": "down", "card": None, "dealt": None, "cloaked": False, "flipped": None}
    assert rows == [{"seat": seat, "kept": False, "paid": paid, "cards": [card]}], rows
    # the card washed face down went to the muck unseen: the report names it nowhere
    named = _report_cards(verified)
    assert named and Card.parse(washed).ascii not in named, (washed, named)
