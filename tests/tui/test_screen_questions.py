"""Questions the screen asks before a likely slip, read back from the real application: a
fold where checking is free is asked once, and the second fold key folds; what was said in
an earlier step of the hand is gone."""

from __future__ import annotations

from pathlib import Path

from test_screen import run, seated
from tui_screen import Terminal, answer_keys

from p2pwillow.inprocess import InProcessClient

CHECK_OR_BET = "Waiting for you: check or bet"
ASKED = "checking is free: [f] again folds anyway, [k] checks"


def _folded_below_you(screen: str) -> bool:
    """Whether the person's box on the table (its name with "(you)", its stack, its cards)
    says folded."""
    rows = screen.split("\n")
    for i, row in enumerate(rows):
        if "(you)" in row:
            left = row.index("bot 0")
            return any("folded" in r[left : left + 30] for r in rows[i + 1 : i + 3])
    return False


def test_a_fold_where_checking_is_free_is_asked_once(tmp_path: Path) -> None:
    async def script(t: Terminal, c: InProcessClient) -> None:
        await seated(t)
        t.press("\r")
        # play along until the person may check
        while True:
            text = await t.settled(lambda s: answer_keys(s) is not None or "[Enter] next hand" in s)
            if CHECK_OR_BET in text:
                break
            keys = answer_keys(text) or ["\r"]
            t.press(*keys)
            await t.wait_for(lambda s, before=text: s != before)  # type: ignore[misc]
        # what was said while laying out went once the betting began (no stale line)
        assert "→ you lay out" not in text
        me = c.view().you
        assert me is not None
        t.press("f")
        asked = await t.wait_for(ASKED)
        assert CHECK_OR_BET in asked  # nothing was sent: the person still decides
        mine = c.view().seat(me)
        assert mine is not None and not mine.folded
        t.press("f")  # asked once: the second press folds
        # the fold on the screen: its line in the log, or the person's own box once the bots'
        # folds after it have pushed that line out of the log's rows
        await t.wait_for(lambda s: "bot 0 folds" in s or _folded_below_you(s))
        mine = c.view().seat(me)
        assert mine is not None and mine.folded

    run(tmp_path, script)
