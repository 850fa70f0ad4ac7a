"""`willow play --game weeping-willow --bots 3` at 80x24, in a real terminal (a tmux pane of 80
columns and 24 rows), as a person plays it (issue 24, item 9 and its evidence): the person
takes the seat, accepts the bots' offers and offers one card until it has traded, lays out,
checks or calls to the showdown, and reads the result. Every screen read on the way keeps the
key facts whole (never cut at the pane's edge, never ending in an ellipsis): the keys that work
now at each decision and the clock's keys beside them, the number of cards of an offer on
screen, what the person gave away and received, the winner and the name of the winning hand
(as the transcript's report has them), and each peer's connection on the status line; the
seating screen names everyone at the table whole. The transcript verifies."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from tmux_pane import (
    Pane,
    hand_over,
    leave_screen,
    pane_env,
    tmux_or_skip,
    verified_transcript,
    willow_command,
)
from tui_screen import ANNOUNCE, LAYOUT, SEATING, answer_keys
from witness import Witness

SIZE = (80, 24)
"""The pane: columns, rows."""
HANDS = 4
"""Hands the person plays at most to make a trade and see a showdown (nobody may take the
person's offer in one hand)."""
TABLE = ("--hands", "20", "--stack", "20000")
"""Deep stacks and more hands than the test plays: the game cannot end under it."""

CONNECTED = "●"
PEERS = re.compile(r"│ ((?:Bot \w+ ● ?){3})\s*$")
"""The status line's peers when there is room for their whole names (the seating screen)."""
TURN = "Waiting for you: offer a trade or pass"
ANSWER = re.compile(r"Waiting for you: answer (.+)'s offer of (\d)")
PARTNER = "Waiting for you: choose whom to trade with"
PARTNER_PANEL = re.compile(r"^Trade 1 card with: \[1\] ", re.MULTILINE)
GIVE = re.compile(r"Give (\d) cards? to (.+?):")
CARD = re.compile(r"(\d):(\S+)")
RESULT = re.compile(r"^(.+?) (wins|split) (\d+)(?: \([\d/]+\))? with (.+)$")
"""A pot's result: "Bob wins 396 with pair of kings, jack kicker", "Bob and Cy split 400
(200/200) with a flush"."""
KEY = re.compile(r"\[[^\]\s]+\] \S")


def cards(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''}"


def lower(text: str) -> list[str]:
    """The lines under the table: the log, the person's cards, the questions, the clock and
    the status line (the seating screen's every line)."""
    lines = text.split("\n")
    rule = next((i for i, ln in enumerate(lines) if ln.startswith("────")), -1)
    return [ln.rstrip() for ln in lines[rule + 1 :]]


def fits(text: str) -> None:
    """The screen is the pane's: no line is wider than its columns."""
    assert all(len(ln) <= SIZE[0] for ln in text.split("\n")), text


def keys_whole(text: str, *wanted: str) -> None:
    """Every line of keys under the table is whole (no ellipsis), and it offers `wanted`
    (patterns): the key bar of the decision and the clock's keys."""
    rows = [ln for ln in lower(text) if KEY.search(ln)]
    for ln in rows:
        assert "…" not in ln, f"a line of keys is cut: {ln!r}\n{text}"
    for want in wanted:
        assert any(re.search(want, ln) for ln in rows), f"{want!r} not offered:\n{text}"


def clock_whole(text: str) -> None:
    """The person's own clock with its keys, whole."""
    keys_whole(text, r"your clock \d:\d\d  \[m\] .+  \[Space\] pause")


@dataclass
class Seen:
    """What the person saw and did, to check against the transcript at the end."""

    peers: list[str] = field(default_factory=list)
    offers: int = 0
    """Offers on screen whose number of cards was checked."""
    trades: list[tuple[int, str]] = field(default_factory=list)
    """The person's trades: cards, partner."""
    results: dict[int, tuple[list[str], int, str]] = field(default_factory=dict)
    """By hand: the winners of its first pot, its chips, the winning hand's name, as the
    screen says them."""
    decisions: int = 0


def status_whole(text: str, seen: Seen) -> None:
    """Every peer on the status line, in seat order, its name whole or shortened (never to
    less than three letters before an ellipsis), with its connection."""
    status = text.rstrip("\n").split("\n")[-1]
    assert "│" in status, text
    names = [p.strip() for p in status.split("│")[-1].split(CONNECTED)]
    assert names[-1] == "" and len(names) == len(seen.peers) + 1, f"{status!r}\n{text}"
    for shown, name in zip(names, seen.peers, strict=False):
        whole = shown.removesuffix("…")
        assert len(whole) >= 3 and name.startswith(whole), f"{name}: {status!r}\n{text}"
        assert shown == name or shown.endswith("…"), f"{name}: {status!r}\n{text}"


def result_whole(text: str, hand: int, seen: Seen) -> None:
    """The hand's result: who won how much with which hand, named whole (a result too long
    for a row goes on in the next, indented)."""
    rows = lower(text)
    said: list[str] = []
    for i, ln in enumerate(rows):
        if RESULT.match(ln) and not ln.startswith("Round"):
            more = [
                r.strip() for r in rows[i + 1 : i + 3] if r.startswith("  ") and not KEY.search(r)
            ]
            said.append(" ".join([ln, *more]))
    assert said, f"no result:\n{text}"
    for line in said:
        assert "…" not in line, f"the result is cut:\n{text}"
    found = RESULT.match(said[0])
    assert found is not None
    who, how, chips, name = found.groups()
    seen.results[hand] = (who.split(" and ") if how == "split" else [who], int(chips), name)


def test_a_person_plays_weeping_willow_at_80x24(tmp_path: Path, witness: Witness) -> None:
    tmux = tmux_or_skip()
    home = tmp_path / "home"
    for n in (1, 2, 3):
        witness.file(f"bot {n}'s log", home / "data" / "bots" / f"play-{n}" / "bot.log")
    pane = Pane(tmux, tmp_path / "tmux.sock", "small", witness)
    willow = willow_command("play", "--game", "weeping-willow", "--bots", "3", *TABLE)
    tail = "--name Ann --samples 40 --level easy; echo willow-exited $?; sleep 600"
    seen = Seen()
    try:
        pane.start(f"{shlex.join(willow)} {tail}", pane_env(home), SIZE)
        text = pane.settled(lambda s: SEATING in s and PEERS.search(s) is not None, "the code")
        fits(text)
        found = PEERS.search(text)
        assert found is not None
        seen.peers = [p.strip() for p in found.group(1).split(CONNECTED) if p.strip()]
        keys_whole(text, r"\[y\] yes, the same: take my seat", r"\[n\] no, leave the table")
        # whom to compare the code with: everyone at the table, each name whole
        at = " ".join(ln.strip() for ln in text.split("At the table: ", 1)[1].split("\n")[:2])
        assert "…" not in at and re.match(r"Ann #[A-Z2-7]{4} \(you\) · ", at), text
        for peer in seen.peers:
            assert re.search(rf"{peer} \(easy\) #[A-Z2-7]{{4}}", at), f"{peer} not whole:\n{text}"
        pane.press("y")
        pane.wait_for(lambda s: "hand 1 ·" in s, "the first hand")
        play(pane, seen)
        printed = leave_screen(pane)
    finally:
        pane.kill()
    assert seen.trades, "the person made no trade"
    assert seen.offers >= 1 and seen.results and seen.decisions >= 8, seen
    verified = verified_transcript(printed)
    names = {p["seat"]: p["name"] for p in verified["players"]}
    for number, (winners, chips, hand_name) in seen.results.items():
        hand = verified["hands"][number - 1]
        assert hand["number"] == number
        pot = hand["pots"][0]
        assert [names[w] for w in pot["winners"]] == winners, (winners, hand)
        assert pot["amount"] == chips, (chips, hand)
        shown = {names[sh["seat"]]: sh["hand"] for sh in hand["showdown"]}
        assert all(shown.get(w) == hand_name for w in winners), (winners, hand_name, hand)
    # the person's trade is in the transcript: with its partner, of its number of cards
    made = [(t["cards"], set(t["seats"])) for h in verified["hands"] for t in h["trades"]]
    for count, partner in seen.trades:
        seat = next(s for s, n in names.items() if n == partner)
        assert (count, {0, seat}) in made, (count, partner, made)


def play(pane: Pane, seen: Seen) -> None:
    """Play hands through the screen, checking each screen read, until the person has traded
    and a hand it played to the end has been shown down (its result read), or `HANDS`."""
    hand, offered, giving = 1, False, None
    while True:
        text = pane.settled(lambda s: hand_over(s) or answer_keys(s, "Enter") is not None, "a q")
        fits(text)
        status_whole(text, seen)
        if hand_over(text):
            keys_whole(text, r"\[Enter\] next hand  \[e\] end the game  \[l\] leave the table")
            result_whole(text, hand, seen)
            if seen.trades or hand >= HANDS:
                return
            pane.press("Enter")
            hand, offered = hand + 1, False
            pane.wait_for(lambda s, h=hand: f"hand {h} ·" in s, "the next hand")  # type: ignore[misc]
            continue
        seen.decisions += 1
        clock_whole(text)
        asked = [ln for ln in lower(text) if ln.startswith("Waiting for you")]
        assert not any("…" in ln for ln in asked), f"what the hand waits for is cut:\n{text}"
        keys: list[str] | None = None
        answer = ANSWER.search(text)
        give = GIVE.search(text)
        if ANNOUNCE in text:
            keys_whole(text, r"\[Enter\] announce")
        elif TURN in text:
            keys_whole(text, r"\[o\] offer 1-\d cards  \[p\] pass")
            if not offered and not seen.trades:
                keys, offered = ["o", "<", "Enter"], True  # offer one card
        elif answer is not None:
            keys_whole(text, r"\[y\] accept  \[n\] decline")
            count = int(answer.group(2))
            assert f"{cards(count)} offered by" in text, f"the offer's cards:\n{text}"
            seen.offers += 1
            if not seen.trades:
                keys = ["y"]  # a trade, if the offerer chooses the person
        elif PARTNER_PANEL.search(text):
            # more than one took the offer: whom to trade with, each named whole
            keys_whole(text, r"\[1-\d\] choose  \[w\] withdraw the offer")
            took = re.findall(r"\[(\d)\] (Bot \w+ \(easy\))", text)
            assert len(took) >= 2 and [n for n, _ in took] == [str(i + 1) for i in range(len(took))]
            assert "You offer 1 card" in text, f"the offer's cards:\n{text}"
            seen.offers += 1
        elif PARTNER in text:
            keys_whole(text, r"\[w\] withdraw  \[t\] trade with")
            assert "You offer 1 card" in text, f"the offer's cards:\n{text}"
            seen.offers += 1
        elif give is not None:
            keys_whole(text, r"\[Enter\] give them")
            mine = dict(CARD.findall(next(ln for ln in lower(text) if ln.startswith("Your"))))
            count, partner = int(give.group(1)), give.group(2)
            giving = (count, partner, [mine[str(n)] for n in range(1, count + 1)])
        elif LAYOUT in text:
            keys_whole(text, r"\[Enter\] lay out")
        elif "Waiting for you: check or bet" in text:
            keys_whole(text, r"\[k\] check", r"\[b\] bet \d+-\d+")
        elif "Waiting for you: call" in text:
            keys_whole(text, r"\[c\] call \d+", r"\[f\] fold")
        keys = keys or answer_keys(text, "Enter")
        assert keys is not None
        pane.press(*keys)
        after = pane.wait_for(lambda s, before=text: s != before, "an answer")  # type: ignore[misc]
        if giving is not None:
            count, partner, gone = giving
            after = pane.wait_for(lambda s: "received " in s, "what the person received")
            traded(after, count, partner, gone)
            seen.trades.append((count, partner))
            giving = None


def traded(text: str, count: int, partner: str, gone: list[str]) -> None:
    """What the person gave away and received, by whom, whole under its cards."""
    rows = " ".join(ln for ln in lower(text) if "received " in ln or "gave " in ln)
    assert f"gave {partner} {' '.join(gone)}" in rows, f"what was given:\n{text}"
    got = re.search(rf"received ((?:\S+ ){{{count}}})from {re.escape(partner)}(?: ·|$)", rows)
    assert got is not None, f"what was received:\n{text}"
    assert "…" not in rows, text
