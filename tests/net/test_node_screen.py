"""The terminal client, unchanged, on a live node: a person hosts a table of two bot peers on
loopback, reads the safety code, takes the seat and plays a whole hand through the real
prompt_toolkit application (pipe input, the screen read from a pyte terminal)."""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from live_helpers import Table, deep, finish, patient_dealers, play_game

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tui"))
from tui_screen import ANNOUNCE, LAYOUT, SEATING, answer_keys, terminal
from witness import Witness

from p2pwillow.ledger.entry import decode_entry
from p2pwillow.ledger.kinds import HandStart, Timeout
from p2pwillow.rules import SitOutReason
from p2pwillow.verify import Verdict, verify_file, verify_transcript
from p2pwillow.view import SIT_OUT_WHY

NEXT = "[Enter] next hand"


def _other_than(text: str) -> Callable[[str], bool]:
    return lambda shown: shown != text


def test_a_person_plays_a_hand_on_the_screen_of_a_live_node(
    tmp_path: Path, witness: Witness
) -> None:
    async def main() -> None:
        nodes = await play_game(Table(tmp_path, players=3, hands=1, witness=witness), person=0)
        host = nodes[0]
        async with terminal(host, 30, 100) as t:
            text = await t.wait_for(SEATING)
            assert host.safety_code in text
            assert host.head == 0  # nothing taken before the person confirms
            t.press("y")
            await t.wait_for("hand 1")
            pressed = 0
            while not host.over:
                text = await t.settled(lambda s: host.over or answer_keys(s) is not None)
                keys = None if host.over else answer_keys(text)
                if keys is not None and LAYOUT in text:
                    t.press(*keys[:-1])  # the five cards, then Enter once the screen says so
                    await t.wait_for("Enter lays them out face down")
                    t.press(keys[-1])
                elif keys is not None:
                    t.press(*keys)
                if keys is not None:
                    pressed += 1
                    await t.wait_for(_other_than(text))
            assert pressed >= 3
            text = await t.wait_for("The game is over: 1 hand played.")
            assert "Final stacks: " in text
        await finish(nodes)
        copies = {n.transcript.read_bytes() for n in nodes if n.transcript is not None}
        assert len(copies) == 1
        assert verify_transcript(copies.pop()).valid

    asyncio.run(main())


def test_the_person_ends_the_game_during_a_hand_and_every_node_stops_after_it(
    tmp_path: Path, witness: Witness
) -> None:
    async def main() -> None:
        # no hand limit: the game goes on until the person ends it; a bot deals hand 2
        nodes = await play_game(Table(tmp_path, players=3, hands=0, witness=witness), person=0)
        host = nodes[0]
        async with terminal(host, 30, 100) as t:
            await t.wait_for(SEATING)
            t.press("y")
            await t.settled(ANNOUNCE)
            t.press("e")
            await t.wait_for("End the game?")
            t.press("y")
            await t.wait_for("the game ends after this hand")
            assert host.ended is None
            while host.ended is None:
                text = await t.settled(
                    lambda s: host.ended is not None or answer_keys(s) is not None
                )
                keys = None if host.ended is not None else answer_keys(text)
                if keys is not None:
                    t.press(*keys)
                    await t.wait_for(_other_than(text))
            text = await t.wait_for("The game is over: you ended it.")
            assert "Final stacks: " in text
            # the bots see the signed game_end and stop too
            for bot in nodes[1:]:
                assert await bot.wait_over(60)
        for node in nodes:
            await node.close()
        assert host.transcript is not None
        report = verify_file(host.transcript)
        assert report.verdict is Verdict.VALID, report.error
        assert report.ended_by == host.seat
        # the game ends after hand 1, or after hand 2 if its dealer dealt it before the
        # game_end reached the chain (SPEC 7.3: a game ends only between hands)
        assert 1 <= len(report.hands) <= 2
        assert all(n.transcript is not None for n in nodes)
        assert {n.transcript.read_bytes() for n in nodes if n.transcript} == {
            host.transcript.read_bytes()
        }

    asyncio.run(main())


BACK_FROM = re.compile(r"sitting you back in: you play again from hand (\d+)")


HANDS = 6
"""The sit-in test's game: hands enough that the bots cannot end it before the key."""


def _back_in(text: str) -> bool:
    """The person's screen shows it dealt into a hand after the one it sat out."""
    title = re.search(r"hand (\d+) ·", text)
    return (
        title is not None
        and int(title.group(1)) >= 3
        and "[i] sits you back in" not in text
        and "game over" not in text
    )


def test_a_person_timed_out_sits_in_again_with_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, witness: Witness
) -> None:
    """The person does not answer in hand 1: the other nodes' votes time it out, it folds
    and sits out hand 2; its screen offers the sit-in key, the person presses it, and its
    node writes the seat's `sit_in` (during hand 2: it plays from hand 3; SPEC 3.11, 7.5)."""
    patient_dealers(monkeypatch)

    async def main() -> None:
        # a clock the person overruns, and the bots, proving on a loaded machine, do not
        config = deep(seats=3, action_clock=3)
        # six hands: the two bots play the hands the person sits out in a second or two each,
        # and on a loaded machine they can play several before the key is read; with four the
        # game could be over before the person's sit-in was answered
        table = Table(tmp_path, players=3, hands=HANDS, config=config, witness=witness)
        nodes = await play_game(table, person=1)
        person = nodes[1]
        async with terminal(person, 30, 100) as t:
            await t.wait_for(SEATING)
            t.press("y")
            # it waits for the person, who does not answer: the clock runs out
            await t.wait_for(lambda s: "Waiting for you" in s and "hand 1" in s)
            text = await t.wait_for("[i] sits you back in", deadline=60)
            # a lasting banner: since which hand, why, and the key that sits it back in
            banner = re.search(
                r"You sit out since hand 2: ([a-z ]+)\. \[i\] sits you back in", text
            )
            assert banner, text
            assert banner.group(1) == SIT_OUT_WHY[SitOutReason.FOLDED_FOR_STALLING], text
            t.press("i")
            # the key answers with what it will do, not as an error: from hand 3, or later if
            # the bots played hand 2 out (it can take them a second) before the key. The answer
            # stays until the seat is dealt in again, which the bots can start at once: then
            # the screen shows the person in a later hand instead (the transcript says when)
            said = await t.wait_for(lambda s: BACK_FROM.search(s) is not None or _back_in(s))
            back_from = BACK_FROM.search(said)
            assert back_from is None or 3 <= int(back_from.group(1)) < HANDS, said
            assert "✗ sitting you back in" not in said and "x sitting you back in" not in said
            while not person.over:
                text = await t.settled(
                    lambda s: person.over or NEXT in s or answer_keys(s) is not None,
                    deadline=60,
                )
                # its turn to deal comes round: the person starts the hand (SPEC 7.3)
                keys = None if person.over else ["\r"] if NEXT in text else answer_keys(text)
                if keys is not None:
                    t.press(*keys)
                    await t.wait_for(_other_than(text))
        await finish(nodes)
        assert person.transcript is not None
        report = verify_file(person.transcript)
        assert report.verdict is Verdict.VALID, report.error
        hands = report.hands
        assert len(hands) == HANDS
        assert person.seat in hands[0].summary.folded, "timed out and folded in hand 1"
        assert person.seat not in hands[1].summary.seats, "it sat out hand 2"
        entries = [decode_entry(line) for line in person.transcript.read_bytes().splitlines()]
        # its sit_in in the hand before the one the screen said (or in that one, if its start
        # reached the sequencer first)
        [sat_in] = [e for e in entries if e.kind == "sit_in"]
        assert sat_in.author == person.seat
        if back_from is not None:
            said_from = int(back_from.group(1))
            assert sat_in.hand in (said_from - 1, said_from)
        after = entries[sat_in.seq + 1 :]
        start = next(e for e in after if e.kind == "hand_start")
        assert isinstance(start.body, HandStart)
        # it is dealt in again, unless the clock timed it out again before that hand began: its
        # deal may come at once, and the person has the table's clock, three seconds, to start it
        again = [e.body for e in after[: start.seq - sat_in.seq - 1] if isinstance(e.body, Timeout)]
        timed_out = any(person.seat in t.seats for t in again)
        assert timed_out or person.seat in {p.seat for p in start.body.players}, "it sat in again"

    asyncio.run(main())
