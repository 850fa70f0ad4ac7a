"""The clock on the screen of a live node (SPEC 3.14, 7.5), through the real prompt_toolkit
application: a person hosting two bot peers sees their own clock count down beside their name
and below the keys, warned in its last ten seconds; one key pauses the table, and every clock
stands still for longer than a whole action clock while the screen says who paused, since when
and for how long, and nobody is timed out; the same key resumes it, and one more key draws on
the time bank. The three entries are signed in the one transcript every node keeps, and
`willow verify` lists them."""

from __future__ import annotations

import asyncio
import dataclasses
import re
import sys
from collections.abc import Callable
from pathlib import Path

from live_helpers import Table, deep, entries, finish, play_game, transcript

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tui"))
from tui_screen import ANNOUNCE, LAYOUT, SEATING, answer_keys, terminal
from witness import Witness

from p2pwillow.ledger import kinds as k
from p2pwillow.verify import Verdict, verify_transcript

CLOCK = 25
"""The action clock: long enough for bots proving on a loaded machine, short enough to wait
out while paused."""
BANK = 60

YOUR_CLOCK = re.compile(r"your clock (\d+):(\d\d)")
MARKED = re.compile(r"▶ (\d+:\d\d) Ann")
"""Ann's seat box while the table waits for her: the countdown beside her name."""
PAUSED_FOR = re.compile(r"PAUSED by you since \d\d:\d\d\s+for (\d+):(\d\d)")


def _seconds(found: re.Match[str] | None) -> int:
    assert found is not None
    return int(found.group(1)) * 60 + int(found.group(2))


def _clock_below(seconds: int) -> Callable[[str], bool]:
    def test(text: str) -> bool:
        found = YOUR_CLOCK.search(text)
        return "PAUSED" not in text and found is not None and _seconds(found) < seconds

    return test


def _timeouts(data: bytes) -> list[k.Timeout]:
    return [e.body for e in entries(data) if isinstance(e.body, k.Timeout)]


def test_a_person_pauses_the_table_and_it_waits_past_the_clock(
    tmp_path: Path, witness: Witness
) -> None:
    async def main() -> None:
        config = dataclasses.replace(
            deep(3, CLOCK), time_bank=BANK, pause_limit=120, pauses=2, arbiter=0
        )
        table = Table(tmp_path, players=3, hands=1, config=config, witness=witness)
        nodes = await play_game(table, person=0)
        host = nodes[0]
        async with terminal(host, 30, 100) as t:
            await t.wait_for(SEATING)
            t.press("y")
            # Ann deals hand 1: the table waits for her announcement, and her clock runs
            text = await t.wait_for(lambda s: ANNOUNCE in s and _clock_below(CLOCK + 1)(s))
            started = _seconds(YOUR_CLOCK.search(text))
            assert MARKED.search(text) is not None, text  # whose turn, with the countdown
            assert f"[m] more time (+30 s, {BANK} s in your bank)" in text, text
            assert "[Space] pause (2 left)" in text, text
            await t.wait_for(_clock_below(started))  # it counts down
            text = await t.wait_for("Hurry: your clock 0:")  # the last ten seconds
            assert _seconds(YOUR_CLOCK.search(text)) <= 10, text
            # the phone rings
            t.press(" ")
            text = await t.wait_for(lambda s: PAUSED_FOR.search(s) is not None)
            assert " PAUSED by Ann " in text, text  # the title row says it too
            assert "[Space] resume" in text, text
            frozen = MARKED.search(text)
            assert frozen is not None, text
            # the pause outlasts a whole action clock: nobody's clock ran, nobody voted
            text = await t.wait_for(lambda s: _seconds(PAUSED_FOR.search(s)) > CLOCK)
            still = MARKED.search(text)
            assert still is not None and still.group(1) == frozen.group(1), text
            assert ANNOUNCE in text, text
            assert _timeouts(transcript(host)) == []
            assert all(n.head == host.head for n in nodes)
            t.press(" ")  # back from the phone
            text = await t.wait_for(_clock_below(CLOCK + BANK))
            left = _seconds(YOUR_CLOCK.search(text))
            t.press("m")
            text = await t.wait_for(
                lambda s: (m := YOUR_CLOCK.search(s)) is not None and _seconds(m) > left + 20
            )
            assert f"{BANK - 30} s in your bank" in text, text
            # the hand plays out
            while not host.over:
                text = await t.settled(lambda s: host.over or answer_keys(s) is not None)
                keys = None if host.over else answer_keys(text)
                if keys is not None and LAYOUT in text:
                    t.press(*keys[:-1])
                    await t.wait_for("Enter lays them out face down")
                    t.press(keys[-1])
                elif keys is not None:
                    t.press(*keys)
                if keys is not None:
                    await t.wait_for(lambda s, before=text: s != before)  # type: ignore[misc]
        await finish(nodes)
        copies = {transcript(n) for n in nodes}
        assert len(copies) == 1
        data = copies.pop()
        assert _timeouts(data) == []
        report = verify_transcript(data)
        assert report.verdict is Verdict.VALID, report.error
        assert report.arbiter == 0
        noted = [(n.kind, n.author, n.seconds) for n in report.clock]
        assert noted == [("pause", 0, 120), ("resume", 0, None), ("time_bank", 0, 30)], noted

    asyncio.run(main())
