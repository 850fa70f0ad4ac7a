"""Pass the Card's choice on the table screen (SPEC 3.19), read back from a pyte terminal while
a person plays along at an in-process table of three bots: when the person's face-up card of a
pass street is open, the key bar offers [p] pass the card and [k] keep the card and the hand
waits for "keep your card or pass it on for 25"; p passes it (the card goes to the next seat,
the person pays the betting minimum and is dealt another, and the log says so), k keeps it;
the help names both keys."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tui_screen import bots_client, play_until, seated_until, terminal

from p2pwillow.games.pass_the_card import PASS_THE_CARD
from p2pwillow.rules import ActionKind, Phase
from p2pwillow.tui.draw import HELP_TEXT
from p2pwillow.view import TableView

CHOICE = "Waiting for you: keep your card or pass it on for 25"


def _my_choice(text: str, view: TableView) -> bool:
    return CHOICE in text and view.action(ActionKind.PASS_CARD).legal


def _log(view: TableView) -> str:
    return "\n".join("".join(str(p) for p in ln.parts) for ln in view.log)


def test_passing_a_card_with_p_and_keeping_one_with_k(tmp_path: Path) -> None:
    c = bots_client(tmp_path, PASS_THE_CARD.name, min_bet=25)

    async def main() -> None:
        async with terminal(c, 24, 80) as t:
            text, view = await seated_until(t, c, _my_choice)
            assert "[p] pass the card" in text and "[k] keep the card" in text, text
            mine = view.mine
            assert mine is not None and mine.showing
            card = mine.showing[-1]
            stack, hand, street = mine.stack, view.hand, view.betting_round
            held = len(mine.showing)

            t.press("p")

            def dealt_again(text: str, now: TableView) -> bool:
                me = now.mine
                if now.hand != hand or me is None:
                    return True
                return len(me.showing) == held and card not in me.showing

            text, after = await play_until(t, c, dealt_again)
            assert after.hand == hand, "the hand ended before the replacement was dealt"
            me = after.mine
            assert me is not None and card not in me.showing
            assert me.stack == stack - 25
            log = _log(after)
            assert f"{me.name} pays 25 and passes {card} to " in log, log
            assert f"{me.name} is dealt {me.showing[-1]} in place of {card}" in log, log
            receiver = next(s for s in after.seats if card in s.showing)
            assert receiver.name != me.name and f"to {receiver.name}" in log, log

            # the next street's choice, kept with k
            def next_choice(text: str, now: TableView) -> bool:
                return _my_choice(text, now) and (now.hand != hand or now.betting_round > street)

            text, view = await play_until(t, c, next_choice)
            mine = view.mine
            assert mine is not None
            kept = mine.showing[-1]
            t.press("k")

            def said(text: str, now: TableView) -> bool:
                return f"{mine.name} keeps {kept}" in _log(now) or now.phase is Phase.BETTING

            _, after = await play_until(t, c, said)
            assert f"{mine.name} keeps {kept}" in _log(after), _log(after)

    asyncio.run(main())


def test_help_names_the_pass_keys() -> None:
    line = next(line for line in HELP_TEXT if line.startswith("Pass card "))
    assert "[p] pass" in line and "[k] keep" in line, line
    assert len(HELP_TEXT) <= 18 and all(len(line) <= 78 for line in HELP_TEXT)
