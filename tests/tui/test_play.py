"""A person plays a whole hand against three bots through the real terminal application.

The application runs with prompt_toolkit's pipe input and a VT100 output written into a pyte
screen; the person reads the screen and types, and the test asserts on what the screen
shows at each step: seating, the announcement, trades made and accepted, cards given, the
layout, bets, an illegal key, the showdown.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from tui_screen import Terminal, terminal

from p2pwillow.bots import Level
from p2pwillow.inprocess import InProcessClient
from p2pwillow.verify import verify_transcript

SEED = 11
"""The bots' choices; the cards come from RNG_SEED (a reproducible game)."""
RNG_SEED = 5

GIVE = re.compile(r"Give (\d) cards? to (bot \d(?: \(\w+\))?):")
ANSWER = re.compile(r"Waiting for you: answer (bot \d(?: \(\w+\))?)'s offer of (\d)")
TURN = "Waiting for you: offer a trade or pass"
CHECK_OR_BET = "Waiting for you: check or bet"
CALL = re.compile(r"Waiting for you: call (\d+), raise or fold")
LAYOUT = "Lay out five, in the order they are turned:"
NEXT = "[Enter] next hand"
SHOWDOWN = re.compile(r"bot \d(?: \(\w+\))? wins \d+ with ")
PARTNER = "Waiting for you: choose whom to trade with"
HANDS = 4
PROMPTS = (TURN, CHECK_OR_BET, LAYOUT, NEXT, PARTNER)


def prompt_shown(text: str) -> bool:
    return any(p in text for p in PROMPTS) or bool(
        GIVE.search(text) or ANSWER.search(text) or CALL.search(text)
    )


def spaced(code: str) -> str:
    return "   ".join(" ".join(group) for group in code.split("-"))


def transcript_lines(path: Path) -> int:
    return len(path.read_bytes().splitlines())


@dataclass
class Person:
    """Someone who knows poker, reading the screen and pressing keys."""

    t: Terminal
    seen: dict[str, str] = field(default_factory=dict)
    """The screen at the first time each kind of step came up."""
    offers: int = 0
    accepted: bool = False
    bet: bool = False
    illegal_shown: bool = False
    betting: list[str] = field(default_factory=list)
    """Every screen at which the person was to bet."""

    def remember(self, what: str, text: str) -> None:
        self.seen.setdefault(what, text)

    async def act(self, text: str) -> bool:
        """Take the step the screen asks for; False once the hand is over."""
        t = self.t
        if NEXT in text:
            self.remember("over" if SHOWDOWN.search(text) else "folded to", text)
            return False
        if m := GIVE.search(text):
            self.remember("give", text)
            k = int(m.group(1))
            t.press(*[str(n) for n in range(1, k + 1)])
            await t.wait_for(lambda s: "_" not in s.split("Give ")[1].split("\n")[0])
            t.press("\r")
        elif LAYOUT in text:
            self.remember("layout", text)
            # The fifth card first, the first card last: the reveal order is the person's.
            t.press("5", "4", "3", "2")
            await t.wait_for(lambda s: s.count(" _") <= 1 or "Enter lays them out" in s)
            t.press("1")
            order = await t.wait_for("Enter lays them out face down; the order is final.")
            self.remember("layout picked", order)
            t.press("\r")
        elif PARTNER in text:
            # the person's offer was accepted: it trades with the first who accepted
            self.remember("partner", text)
            t.press("t")
            if "accepted) or withdraw" in text and " and " in text.split("choose whom")[1]:
                await t.wait_for("Trade ")
                t.press("1")
        elif m := ANSWER.search(text):
            self.remember("answer", text)
            if not self.accepted:
                self.accepted = True
                t.press("y")
            else:
                t.press("n")
        elif TURN in text:
            self.remember("turn", text)
            if not self.illegal_shown:
                t.press("f")
                shown = await t.wait_for("✗ fold is not allowed in the trading phase")
                self.remember("illegal fold", shown)
                self.illegal_shown = True
            if self.offers < 2:
                self.offers += 1
                t.press("o")
                await t.wait_for("Offer cards:")
                t.press("2")  # the field starts at the minimum: "12" is out of bounds
                t.press("\r")
                self.remember("offer out of bounds", await t.wait_for("an offer is 1 to 5 cards"))
                t.press("\x7f", "\x7f", "2")
                await t.wait_for(lambda s: "Offer cards:  2 " in s)
                t.press("\r")
            else:
                t.press("p")
        elif CHECK_OR_BET in text:
            self.remember("check or bet", text)
            self.betting.append(text)
            if not self.bet and "round 3: betting" in text:
                self.bet = True
                t.press("c")
                self.remember(
                    "illegal call", await t.wait_for("✗ there is no bet to call: check or bet")
                )
                t.press("b")
                await t.wait_for("Bet:")
                t.press("\x7f", "\x7f", "7", "\r")
                self.remember("bet out of bounds", await t.wait_for("a bet is 25 to 100, not 7"))
                t.press(">")
                await t.wait_for("Bet:  100 ")
                t.press("<")
                self.remember("bet field", await t.wait_for("Bet:  25 "))
                t.press("\r")
            else:
                t.press("k")
        elif CALL.search(text):
            self.remember("call", text)
            self.betting.append(text)
            t.press("c")
        return True


async def play(tmp_path: Path, rows: int, columns: int) -> tuple[Person, Path]:
    path = tmp_path / "game.jsonl"
    client = InProcessClient(
        path, seed=SEED, rng=random.Random(RNG_SEED).randbytes, samples=60, level=Level.EASY
    )
    code = client.view().safety_code
    async with terminal(client, rows, columns) as t:
        person = Person(t)

        async def watch() -> None:
            # The screen keeps being drawn while the worker checks proofs: the indicator
            # shows up on it (a blocked loop would never draw it).
            while True:
                text = t.text()
                if "checking proofs…" in text:
                    person.remember("checking proofs", text)
                await asyncio.sleep(0.01)

        watcher = asyncio.ensure_future(watch())
        text = await t.wait_for("Does everyone see the same code?")
        person.remember("seating", text)
        assert code in text and spaced(code) in text
        assert "[y] yes, the same: take my seat" in text
        assert "Compare it aloud with everyone at the table" in text
        assert "the whole code from their own screen, all four groups" in text
        # Nothing the person's seat made has left it before the code is confirmed.
        assert transcript_lines(path) == 1
        t.press("y")
        text = await t.settled("You deal: announce.")
        person.remember("announce", text)
        assert transcript_lines(path) > 1
        t.press("\r")
        # The announcement on the screen: its line in the log, or, once the bots' first moves
        # have pushed that line out of the log's few rows, the hand's title and the middle of
        # the table that tell the game announced.
        await t.wait_for(
            lambda s: (
                "bot 0 announces Weeping Willow: 5 cards, trading in turn" in s
                or ("trading (in turn)" in s and "5 cards · in turn" in s)
            )
        )
        # Hands until one reaches the showdown (the bots may all fold to a bet).
        for _hand in range(HANDS):
            for _ in range(300):
                text = await t.settled(prompt_shown)
                if not await person.act(text):
                    break
            if SHOWDOWN.search(text):
                break
            t.press("\r")
            await t.wait_for(lambda s: NEXT not in s)
        watcher.cancel()
        t.press("q")
        await t.wait_for("Leave the table?")
        t.press("y")
        assert await t.done() == "you left the table"
    return person, path


def own_box(text: str) -> list[str]:
    """The person's seat at the bottom of the table: its name row and the two under it."""
    rows = text.split("\n")
    # (its name carries its fingerprint, SPEC 6.2)
    at = next(i for i, r in enumerate(rows) if re.search(r"bot 0( #\w+)? \(you\)", r))
    return [r.strip() for r in rows[at : at + 3]]


def key_facts_never_cut(seen: dict[str, str]) -> None:
    """What a person must be able to read at every size (issue 24, item 9)."""
    # Every screen: each peer's connection, and the safety code.
    for text in seen.values():
        status = text.split("\n")[-1]
        for n in (1, 2, 3):
            # (a bot's level goes first where the row is short)
            assert re.search(rf"bot {n}( \(easy\))? ●", status), status
    # An offer says how many cards, and whoever holds tokens shows what one is worth.
    answer = seen["answer"]
    offered = ANSWER.search(answer)
    assert offered is not None
    assert f"{offered.group(2)} cards offered by" in answer
    assert re.search(r"tokens \d+ × 5\b", answer), answer
    # The person's own offer, accepted: the count, who accepted, the key that takes one.
    partner = seen["partner"]
    assert re.search(r"You offer \d cards?", partner), partner
    assert re.search(r"accepted: bot \d \(easy\)", partner), partner
    assert "[t] trade with" in partner and "[w] withdraw" in partner
    give = GIVE.search(seen["give"])
    assert give is not None
    k, who = give.group(1), give.group(2)
    assert re.search(rf"Trading {k} cards?: you and\s", seen["give"]), seen["give"]
    # Once traded, for the rest of the hand: what was received and given, by whom, and on each
    # side's seat the partner and the count.
    for step in ("layout", "check or bet"):
        text = seen[step]
        mine = next(r for r in text.split("\n") if r.startswith("received "))
        said = rf"received (\S+ )+from {re.escape(who)} · gave {re.escape(who)}( \S+)+"
        assert re.search(said, mine), mine
        assert not mine.rstrip().endswith("…"), mine
        box = own_box(text)
        assert re.search(rf"⇄ {re.escape(who.split(' (')[0])}[^,]* {k}\b", box[2]), box
        assert re.search(rf"⇄ .*\byou {k}\b", text), text
    # The keys that work now, each whole.
    betting = seen["check or bet"]
    assert "[k] check" in betting and re.search(r"\[b\] bet \d+-\d+", betting), betting
    # The cards still to come face down: the five laid out less those turned, never the
    # discards.
    box = own_box(betting)
    assert re.search(r"[2-9JQKA10]+[♠♥♦♣] ▮4\b", box[2]) or "▮▮▮▮" in box[2], box
    # The showdown: the winner, what they won and with which hand, on one uncut line.
    over = seen["over"]
    won = next(r for r in over.split("\n") if SHOWDOWN.match(r))
    assert not won.rstrip().endswith("…"), won
    hand = won.split(" with ", 1)[1].strip()
    assert hand and hand in over


@pytest.mark.parametrize(("rows", "columns"), [(24, 80), (32, 100)])
def test_a_person_plays_a_whole_hand_against_three_bots(
    tmp_path: Path, rows: int, columns: int
) -> None:
    person, path = asyncio.run(play(tmp_path, rows, columns))
    seen = person.seen
    key_facts_never_cut(seen)
    # The announcement panel opened with the table's defaults chosen.
    announce = seen["announce"]
    assert "Deal size [5]" in announce
    assert "trading in turn" in announce
    assert "closes after an orbit without a trade" in announce
    assert re.search(r"bot 0 #[A-Z2-7]{4} \(you\)", announce) and " D " in announce
    # Trading: an illegal key, an offer bounded and validated, a bot's offer accepted.
    assert "✗ fold is not allowed in the trading phase" in seen["illegal fold"]
    assert "✗ an offer is 1 to 5 cards, not 12" in seen["offer out of bounds"]
    assert "[y] accept" in seen["answer"]
    # The trade agreed, the person chose the cards to give.
    give = seen["give"]
    assert re.search(r"Give \d cards? to bot \d(?: \(\w+\))?", give)
    assert "[Enter] give them" in give
    # The layout: five cards in the order picked, then the layout shown in that order.
    assert "Lay out five" in seen["layout"]
    picked = seen["layout picked"]
    assert "the order is final" in picked
    order = picked.split("the order they are turned: ")[1].split("\n")[0].split()
    assert len(order) == 5
    laid = next(r for r in seen["check or bet"].split("\n") if r.startswith("Your layout"))
    assert re.findall(r"(?:10|[2-9JQKA])[♠♥♦♣]", laid) == order, laid
    assert laid.startswith(f"Your layout  up: {order[0]}  down: {' '.join(order[1:])}"), laid
    # Betting: the rules' reason for an illegal call, an amount field with its bounds.
    assert "✗ there is no bet to call: check or bet" in seen["illegal call"]
    assert "✗ a bet is 25 to 100, not 7" in seen["bet out of bounds"]
    assert "[<] min 25" in seen["bet field"] and "[>] max 100" in seen["bet field"]
    # The showdown: a winner with the hand that won, and the next hand on offer.
    over = seen["over"]
    assert SHOWDOWN.search(over), over
    assert "[Enter] next hand" in over
    # The screen was drawn while proofs were being checked.
    assert "checking proofs…" in seen["checking proofs"]
    # What the screen showed happened in the transcript too, and the transcript verifies.
    entries = [json.loads(line) for line in path.read_bytes().splitlines()]
    kinds = [(e["kind"], e["author"]) for e in entries]
    assert ("announce_game", 0) in kinds
    assert ("trade_give", 0) in kinds
    assert ("bet", 0) in kinds
    assert any(k == "offer" and a == 0 for k, a in kinds)
    assert any(k == "accept" and a == 0 for k, a in kinds)
    report = verify_transcript(path.read_bytes())
    assert report.valid, report
