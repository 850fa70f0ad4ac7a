"""The show after the declaration on the table screen (SPEC 3.18), read back from a pyte terminal
at 80x24 while a person plays hold'em high-low along at an in-process table of two bots: the
show key only in the bet after the declaration, a first press that names the consequence
("showing now means match the pot (N chips) or fold"), a second that shows, then the panel with
one key for each answer, and the match or the fold it sends."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from tui_screen import bots_client, play_until, seated_until, terminal

from p2pwillow.rules import ActionKind, Phase
from p2pwillow.tui.draw import MATCH_PROMPT
from p2pwillow.view import TableView

GAME = "holdem-high-low"
SHOW_KEY = "[s] show your cards"


def _may_show(text: str, view: TableView) -> bool:
    """The table waits for the person in the bet after the declaration."""
    legal = view.action(ActionKind.EARLY_SHOW).legal
    # the key is there exactly when the rules allow the show
    assert (SHOW_KEY in text) == (legal and view.phase is Phase.BETTING), text
    return legal and "Waiting for you: " in text


@pytest.mark.parametrize(("answer", "said"), [("y", "matches the pot"), ("f", "folds")])
def test_a_person_shows_after_the_declaration_and_answers(
    tmp_path: Path, answer: str, said: str
) -> None:
    c = bots_client(tmp_path, GAME, bots=2)

    async def main() -> None:
        async with terminal(c, 24, 80) as t:
            text, view = await seated_until(t, c, _may_show)
            assert "after the declaration" in text.splitlines()[0], text
            chips = view.action(ActionKind.EARLY_SHOW).amount
            mine = view.mine
            assert chips is not None and mine is not None
            # the pot's size: the pots and this round's bets, at most the person's stack
            middle = sum(p.amount for p in view.pots) + sum(s.bet for s in view.seats)
            assert chips == min(middle, mine.stack)
            t.press("s")  # the first press only says what showing costs
            text = await t.wait_for(f"showing now means match the pot ({chips} chips) or fold")
            assert c.view().mine.showing == mine.showing  # type: ignore[union-attr]
            t.press("s")
            text = await t.wait_for(MATCH_PROMPT)
            assert f"[y] match the pot ({chips})" in text and "[f] fold" in text, text
            assert "Waiting for you: match the pot" in text, text
            t.press(answer)
            await t.wait_for(lambda s: MATCH_PROMPT not in s)
            _, after = await play_until(t, c, lambda s, v: v.phase is not Phase.BETTING)
            log = "\n".join(line.text() for line in after.log)
            assert f"{mine.name} {said}" in log, log
            me = after.mine
            assert me is not None and len(me.showing) == len(mine.showing) + 2

    asyncio.run(main())
