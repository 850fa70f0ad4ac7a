"""The table screen, read back from a pyte terminal: resizing, Unicode and ASCII suits and
their colours, help, seating refused, the announcement panel, free trading, leaving, a key
that does nothing."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

from tui_screen import DEADLINE, Terminal, answer_keys, terminal

from p2pwillow.bots import Level
from p2pwillow.inprocess import InProcessClient

ANSWER = re.compile(r"Waiting for you: answer bot \d(?: \(\w+\))?'s offer")
GIVE = re.compile(r"Give (\d) cards? to bot \d(?: \(\w+\))?:")


def client(tmp_path: Path, seed: int = 11) -> InProcessClient:
    return InProcessClient(
        tmp_path / "game.jsonl",
        seed=seed,
        rng=random.Random(seed).randbytes,
        samples=40,
        level=Level.EASY,  # the level these scenarios were written against
    )


def run(
    tmp_path: Path,
    script: Callable[[Terminal, InProcessClient], Awaitable[None]],
    *,
    rows: int = 24,
    columns: int = 80,
    encoding: str = "utf-8",
) -> InProcessClient:
    c = client(tmp_path)

    async def main() -> None:
        async with terminal(c, rows, columns, encoding=encoding) as t:
            await script(t, c)

    asyncio.run(main())
    return c


async def seated(t: Terminal) -> str:
    await t.wait_for("Does everyone see the same code?")
    t.press("y")
    return await t.settled("You deal: announce.")


async def dealt(t: Terminal) -> str:
    await seated(t)
    t.press("\r")
    return await t.settled("Your cards ")


def test_resizing_redraws_the_table(tmp_path: Path) -> None:
    async def script(t: Terminal, c: InProcessClient) -> None:
        await dealt(t)
        wide = t.text()
        # 120 columns: the log stands beside the table.
        assert any(" │ " in row and "announces" in row for row in wide.split("\n"))
        assert t.row(39).startswith(" code ")
        t.resize(24, 80)
        narrow = await t.wait_for(lambda s: "─" * 80 in s and s.count("\n") == 23)
        # 80 columns: the log goes under the table, the status bar to the new last row.
        assert t.row(23).startswith(" code ")
        assert "Your cards " in narrow
        assert not any(" │ " in row and "announces" in row for row in narrow.split("\n"))
        t.resize(30, 100)
        taller = await t.wait_for(lambda s: s.count("\n") == 29 and t.row(29).startswith(" code "))
        assert "─" * 100 in taller and "Your cards " in taller

    run(tmp_path, script, rows=40, columns=120)


def test_unicode_suits_in_colour(tmp_path: Path) -> None:
    async def script(t: Terminal, c: InProcessClient) -> None:
        text = await dealt(t)
        mine = next(row for row in text.split("\n") if row.startswith("Your cards"))
        assert re.search(r"\d:(10|[2-9JQKA])[♠♥♦♣]", mine), mine
        view = c.view()
        red = next((o.card for o in view.cards if o.card.suit.letter in "hd"), None)
        black = next((o.card for o in view.cards if o.card.suit.letter in "cs"), None)
        assert red is not None and black is not None  # this deal holds both colours
        cell = t.style_at(red.unicode)
        assert cell is not None and cell.fg == "red" and cell.bold
        cell = t.style_at(black.unicode)
        assert cell is not None and cell.fg == "default" and cell.bold
        assert "╭" in text and "▮" in text

    run(tmp_path, script)


def test_ascii_suits_on_a_terminal_without_unicode(tmp_path: Path) -> None:
    async def script(t: Terminal, c: InProcessClient) -> None:
        await t.wait_for("Does everyone see the same code?")
        assert t.text().isascii()
        t.press("y")
        await t.settled("You deal: announce.")
        t.press("\r")
        text = await t.settled("Your cards ")
        assert text.isascii(), [ch for ch in text if not ch.isascii()]
        mine = next(row for row in text.split("\n") if row.startswith("Your cards"))
        assert re.search(r"\d:[2-9TJQKA][cdhs]\b", mine), mine
        assert "#####" in text  # the other players' cards, face down
        for own in c.view().cards:
            assert own.card.ascii in mine

    run(tmp_path, script, encoding="ascii")


def test_help_opens_and_closes(tmp_path: Path) -> None:
    async def script(t: Terminal, c: InProcessClient) -> None:
        await seated(t)
        t.press("?")
        text = await t.wait_for("[?] or [Esc] closes this help")
        assert "Betting     [f] fold  [k] check  [c] call  [b] bet  [r] raise  [a] all in" in text
        assert "Trading     [o] offer  [y] accept  [n] decline  [w] withdraw  [p] pass" in text
        assert "[t] trade with" in text
        t.press("?")
        await t.wait_for(lambda s: "closes this help" not in s and "You deal: announce." in s)

    run(tmp_path, script)


def test_a_key_that_does_nothing_says_which_keys_work(tmp_path: Path) -> None:
    async def script(t: Terminal, c: InProcessClient) -> None:
        await seated(t)
        t.press("z")
        await t.wait_for("z does nothing now; keys: 5-7 t c p + - Enter Esc")
        t.press("q")
        await t.wait_for("Leave the table?")
        t.press("\r")
        await t.wait_for("Enter does nothing now; keys: y n Esc")
        t.press("n")
        text = await t.wait_for(lambda s: "Leave the table?" not in s)
        assert "does nothing now" not in text and "You deal: announce." in text

    run(tmp_path, script)


def test_a_different_safety_code_leaves_before_sending_anything(tmp_path: Path) -> None:
    async def script(t: Terminal, c: InProcessClient) -> None:
        await t.wait_for("Does everyone see the same code?")
        t.press("n")
        await asyncio.wait_for(t.done(), DEADLINE)

    c = run(tmp_path, script)
    assert c.notice is not None
    assert c.notice.text == "you left the table: the safety codes did not match"
    assert not c.seat_confirmed
    # Only the genesis: the seat acceptance made in this process never left it.
    assert len((tmp_path / "game.jsonl").read_bytes().splitlines()) == 1


def test_announcing_free_trading_and_closing_it(tmp_path: Path) -> None:
    async def script(t: Terminal, c: InProcessClient) -> None:
        await seated(t)
        t.press("6")
        await t.wait_for("Deal size  5 [6]")
        t.press("t")
        text = await t.wait_for("[t] trading free")
        assert "[c] closes when you call it" in text
        t.press("c")
        await t.wait_for("✗ free trading closes only when the dealer calls it")
        t.press("t")
        await t.wait_for("[c] closes after an orbit without a trade")
        t.press("c")
        await t.wait_for("[c] closes after 2 orbits")
        t.press("+")
        await t.wait_for("[c] closes after 3 orbits")
        t.press("c", "t")
        await t.wait_for(lambda s: "[t] trading free" in s and "when you call it" in s)
        t.press("\r")
        await t.wait_for("bot 0 announces Weeping Willow: 6 cards, free trading until the dealer")
        # the rule as the log tells it: the dealer may close once everyone offered or passed
        await t.wait_for("once everyone has offered or passed")
        closed = passed = False
        for _ in range(100):
            text = await t.settled(
                lambda s: (
                    "Waiting for you: close trading" in s
                    or "Waiting for you: offer a trade or pass" in s
                    or bool(ANSWER.search(s) or GIVE.search(s))
                    or "Lay out five" in s
                )
            )
            if "Lay out five" in text:
                break
            if m := GIVE.search(text):
                t.press(*[str(n) for n in range(1, int(m.group(1)) + 1)], "\r")
            elif ANSWER.search(text):
                t.press("n")
            elif "offer a trade or pass" in text and not passed:
                # the dealer closes only once every seat had its chance: while some have not,
                # the screen says so (else the dealer's close is its own chance, and closes)
                t.press("w")
                await t.wait_for("✗ there is no open offer to withdraw")
                t.press("x")
                said = await t.wait_for(
                    # (a close that went through moves the hand on, and its line with it)
                    lambda s: (
                        "✗ cannot close trading yet: " in s
                        or "you close trading" in s
                        or "Trading closed by bot 0" in s
                    )
                )
                if "cannot close trading yet" in said:
                    assert "may still offer or pass" in said
                    t.press("p")
                else:
                    closed = True
                passed = True
            elif "Waiting for you: close trading" in text and not closed:
                t.press("x")
                closed = True
        assert passed and closed
        text = await t.wait_for("Trading closed by bot 0")
        assert "Lay out five" in text

    run(tmp_path, script)


def test_leaving_asks_first(tmp_path: Path) -> None:
    async def script(t: Terminal, c: InProcessClient) -> None:
        await seated(t)
        t.press("q")
        text = await t.wait_for("Leave the table?")
        assert "[y] leave" in text and "[n] stay" in text
        t.press("n")
        await t.wait_for(lambda s: "Leave the table?" not in s)
        t.press("q")
        await t.wait_for("Leave the table?")
        t.press("y")
        assert await asyncio.wait_for(t.done(), DEADLINE) == "you left the table"

    c = run(tmp_path, script)
    assert c.transcript == tmp_path / "game.jsonl"
    assert c.transcript.read_bytes().count(b"\n") > 1


def test_leaving_the_table_between_hands_asks_first(tmp_path: Path) -> None:
    """`l`, confirmed, during the first hand: the person plays it out, then its seat leaves
    between hands and the screen says so; the transcript holds its `leave`."""

    async def script(t: Terminal, c: InProcessClient) -> None:
        await seated(t)
        t.press("l")
        text = await t.wait_for("Leave the table?")
        assert "once no hand is running" in text and "[n] stay" in text
        t.press("n")
        await t.wait_for(lambda s: "Leave the table?" not in s)
        t.press("l")
        await t.wait_for("Leave the table?")
        t.press("y")
        await t.wait_for("you leave the table between hands, once no hand is running")
        while c.ended is None:
            text = await t.settled(lambda s: c.ended is not None or answer_keys(s) is not None)
            keys = None if c.ended is not None else answer_keys(text)
            if keys is not None:
                t.press(*keys)
                await t.wait_for(lambda s, before=text: s != before)  # type: ignore[misc]
        await t.wait_for("You left the table after hand 1")

    c = run(tmp_path, script, rows=30, columns=100)
    assert c.ended == "you left the table after hand 1; the game goes on without you"
    chain = (tmp_path / "game.jsonl").read_bytes().splitlines()
    assert sum(b'"kind":"leave"' in line for line in chain) == 1


def test_every_name_is_shown_with_its_fingerprint(tmp_path: Path) -> None:
    """SPEC 6.2: the seating screen lists everyone at the table with their fingerprints, says
    to compare the whole code aloud with all of them, and each seat on the table shows its
    player's fingerprint beside the name, as on every other screen."""

    async def script(t: Terminal, c: InProcessClient) -> None:
        text = await t.wait_for("Does everyone see the same code?")
        labels = [s.label for s in c.view().seats]
        assert all(re.fullmatch(r".+ #[A-Z2-7]{4}", label) for label in labels), labels
        line = next(row for row in text.split("\n") if "At the table: " in row)
        for label in labels:
            assert label in line, (label, line)
        assert "Compare it aloud with everyone at the table" in text
        assert "all four groups" in text
        t.press("y")
        table = await t.settled("You deal: announce.")
        for s in c.view().seats:
            assert re.search(rf"{re.escape(s.name)} #{s.fingerprint}\b", table), (s, table)

    run(tmp_path, script, rows=32, columns=100)
