"""The declaration of a split-pot game on the table screen (SPEC 3.16), read back from a pyte
terminal at 80x24 and 100x32 while a person plays hold'em high-low along at an in-process
table of two bots: the declaration panel with one key per choice, the person's choice sealed
and shown to them alone while another player still has to seal ("you declared low (sealed)"),
every declaration shown beside its seat once all are open, the result naming each side's
winners, a pot nobody wins carried over to the next hand ("pot 150 (75 carried over)"), and
the help listing the keys."""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from split_plan import Plan
from tui_screen import (
    DEADLINE,
    DECLARE,
    NEXT_HAND,
    SIZES,
    Terminal,
    answer_keys,
    bots_client,
    play_until,
    seated_until,
    take_seat,
    terminal,
)

from p2pwillow.inprocess import InProcessClient
from p2pwillow.rules import Phase
from p2pwillow.session import Session
from p2pwillow.table import Decider, Table
from p2pwillow.view import TableView

GAME = "holdem-high-low"
KEYS = {"high": "h", "low": "l", "pig": "p"}
SLOW = 2
"""The bot that seals only after the person has (the screen test's stand-in for a player who
takes their time)."""


def _table(c: InProcessClient) -> Table:
    """The client's table (its worker owns it; the test only swaps a seat's decider, and reads
    the cards at a moment the table waits for the person)."""
    table = c._table
    assert table is not None
    return table


def _after_the_person(table: Table, release: threading.Event) -> Decider:
    """Bot `SLOW`'s decider: it seals its declaration only after the person has sealed theirs
    and the test has seen the screen then (`release`)."""
    inner = table.deciders[SLOW]

    def decide(session: Session) -> object:
        hand = session.hand
        if hand is not None and hand.phase is Phase.DECLARE and SLOW in hand.to_act():
            if 0 in hand.to_act():
                return None  # the person first
            release.wait(DEADLINE)
        return inner(session)

    return decide  # type: ignore[return-value]


def _declaring(text: str, view: TableView) -> bool:
    """The declaration panel is open, and the slow bot is still in the hand."""
    slow = view.seat(SLOW)
    return DECLARE in text and slow is not None and not slow.folded


def _flat(text: str) -> str:
    """The screen's words in one line, whatever wrapped where."""
    return re.sub(r"\s+", " ", text)


def _table_part(text: str) -> str:
    """The screen above the person's cards: the seats and the felt (and the log)."""
    return text.split("Your hole cards")[0]


@pytest.mark.parametrize(("rows", "columns"), SIZES)
def test_a_person_declares_low_sealed(tmp_path: Path, rows: int, columns: int) -> None:
    c = bots_client(tmp_path, GAME, bots=2)
    release = threading.Event()
    table = _table(c)
    table.deciders[SLOW] = _after_the_person(table, release)

    async def main() -> None:
        async with terminal(c, rows, columns) as t:
            text, view = await seated_until(t, c, _declaring)
            assert "Hold'em High-Low — the declaration" in text.splitlines()[0], text
            assert f"{DECLARE}[h] high  [l] low  [p] pig (both ways)" in text, text
            assert "low: eight-or-better low" in text, text
            assert "you: declare high, low or pig" in text, text
            assert re.search(r"Waiting for .*bot 2 \(easy\): declare\b", text), text
            assert "to declare" in _table_part(text), text  # the person's box, and the slow bot's
            assert re.search(r"; (no low|\S+ low)", text), text  # what the cards make, both sides
            # `l` declares low here: it does not ask to leave the table
            t.press("l")
            text = await t.wait_for("you declared low (sealed)")
            assert "Leave the table?" not in text, text
            assert re.search(r"▮▮\s+low \(sealed\)", text), text  # the person's own box
            assert "to declare" in _table_part(text), text  # the slow bot has not sealed
            # nobody's choice shows while one is sealed: no seat says what it declared
            assert not re.search(r"declared (high|low|pig)(?! \(sealed\))", text), text
            release.set()
            text, view = await play_until(
                t, c, lambda s, v: v.phase is Phase.BETTING and any(x.declared for x in v.seats)
            )
            declared = {s.seat: s.declared for s in view.seats if s.in_hand and not s.folded}
            assert declared[0] == "low" and SLOW in declared, view.seats
            for seat, choice in declared.items():
                assert f"declared {choice}" in _table_part(text), (seat, text)
            assert "Hold'em High-Low — after the declaration" in text.splitlines()[0], text
            if rows >= 32:
                assert "bot 0 declares low" in text, text  # the log
            text, view = await play_until(t, c, lambda s, v: not v.hand_running)
            assert view.result and all(line.text().startswith("Pot of") for line in view.result)
            said = view.result[0].text()
            assert said.split(" with ")[0] in _flat(text), text
            assert re.search(r"(high|low): bot \d .*(wins|split) \d+|nobody wins", said), said

    asyncio.run(main())


def _carried(plan: Plan) -> Callable[[str, TableView], bool]:
    def done(text: str, view: TableView) -> bool:
        return NEXT_HAND in text and view.carried > 0

    return done


async def _until_carried(t: Terminal, c: InProcessClient, plan: Plan) -> tuple[str, TableView]:
    """Play along, declaring as the plan says (with it nobody wins, where the cards allow),
    until a hand's pot carries over."""
    table = _table(c)
    hands = 0
    while True:
        text = await t.settled(
            lambda s: DECLARE in s or answer_keys(s) is not None or NEXT_HAND in s
        )
        view = c.view()
        if NEXT_HAND in text and view.carried:
            return text, view
        if DECLARE in text:
            hand = table.sessions[0].hand
            assert hand is not None
            keys = [KEYS[plan.choice(hand, 0)]]
        else:
            keys = answer_keys(text) or ["\r"]
        if keys == ["\r"]:
            hands += 1
            assert hands < 8, f"no pot carried over in {hands} hands:\n{text}"
        t.press(*keys)
        await t.wait_for(lambda s, before=text: s != before)  # type: ignore[misc]


@pytest.mark.parametrize(("rows", "columns"), SIZES)
def test_a_pot_nobody_wins_carries_over(tmp_path: Path, rows: int, columns: int) -> None:
    c = bots_client(tmp_path, GAME, bots=2, seed=5)
    table = _table(c)
    plan = Plan(lambda: table.sessions, carry=True)
    for seat in (1, 2):
        table.deciders[seat] = plan.decider(seat, table.deciders[seat])

    async def main() -> None:
        async with terminal(c, rows, columns) as t:
            await take_seat(t)
            text, view = await _until_carried(t, c, plan)
            carry = view.carried
            said = f"nobody wins: {carry} carries over to the next hand"
            assert said in _flat(text), text
            assert all(s.won == 0 for s in view.seats)
            t.press("\r")
            text, view = await play_until(
                t, c, lambda s, v: v.hand_running and v.phase is Phase.BETTING
            )
            assert view.carried_in == carry
            assert f"({carry} carried over)" in text, text
            if columns >= 100:
                assert f"pot {view.pots[0].amount} ({carry} carried over)" in text, text

    asyncio.run(main())


@pytest.mark.parametrize(("rows", "columns"), SIZES)
def test_help_lists_the_declaration_keys(tmp_path: Path, rows: int, columns: int) -> None:
    c = bots_client(tmp_path, GAME, bots=2)

    async def main() -> None:
        async with terminal(c, rows, columns) as t:
            await take_seat(t)
            await t.settled(lambda s: "hand 1" in s)
            t.press("?")
            text = await t.wait_for("[?] or [Esc] closes this help")
            line = "Declare     [h] high, [l] low, [p] pig (both ways): sealed until all declare"
            assert line in text, text
            assert "Also stud, hold'em, Omaha, draw, high-low." in text, text
            t.press("?")
            await t.wait_for(lambda s: "closes this help" not in s)

    asyncio.run(main())
