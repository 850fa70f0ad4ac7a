"""A seat's facts on the real screen at 80x24 and 100x32: what a seat won, that it folded, and
every trade it made this hand (partner and count) are never cut, even beside a full layout of
face-up cards and long names (issue 24, item 9). The application draws a real view of a hand
of four, read back from a pyte terminal."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

import pytest
from tui_screen import terminal
from views import after_one_hand

from p2pwillow.cards import parse_cards
from p2pwillow.client import ClockMove, Decision, Notice
from p2pwillow.view import Link, SeatView, TableView

LAYOUT = tuple(parse_cards("As Kh Qd Jc Ts 9h"))
SIZES = [(24, 80), (32, 100)]


class Still:
    """A client whose table does not move: the screen draws `view` and nothing changes."""

    def __init__(self, view: TableView) -> None:
        self._view = view

    def view(self) -> TableView:
        return self._view

    async def changed(self, seen: int) -> int:
        if seen != 0:
            return 0
        await asyncio.Event().wait()
        return 0

    def decide(self, decision: Decision) -> None:
        pass

    @property
    def seat_confirmed(self) -> bool:
        return True

    def confirm_seat(self, same: bool) -> None:
        pass

    def answer_admission(self, same: bool) -> None:
        pass

    def next_hand(self) -> None:
        pass

    def end_game(self) -> None:
        pass

    def leave_table(self) -> None:
        pass

    def sit_in(self) -> None:
        pass

    def clock_move(self, move: ClockMove) -> None:
        pass

    @property
    def ended(self) -> str | None:
        return None

    @property
    def links(self) -> Mapping[int, Link]:
        return {}

    @property
    def busy(self) -> bool:
        return False

    @property
    def notice(self) -> Notice | None:
        return None

    @property
    def transcript(self) -> Path | None:
        return None

    async def close(self) -> None:
        pass


NAMES = {0: "Ann", 1: "Bartholomew", 2: "Christabel", 3: "Dorothea"}


def a_table(seat: int, **facts: object) -> TableView:
    """A real view of seat 0 after a hand of four, every seat with a long name, and `seat`
    changed by `facts`; every seat traded with two others (three trades)."""
    view = after_one_hand(4)

    def changed(s: SeatView) -> SeatView:
        others = [o for o in range(4) if o != s.seat]
        s = replace(
            s,
            name=NAMES[s.seat],
            won=0,
            bet=0,
            trades=((others[0], 2), (others[1], 1), (others[0], 1)),
        )
        return replace(s, **facts) if s.seat == seat else s  # type: ignore[arg-type]

    return replace(view, seats=tuple(changed(s) for s in view.seats))


def screen(view: TableView, rows: int, columns: int) -> str:
    async def main() -> str:
        async with terminal(Still(view), rows, columns) as t:
            return await t.settled(lambda s: NAMES[0] in s and "─" * 10 in s)

    return asyncio.run(main())


def said_trades(view: TableView, seat: int) -> list[str]:
    """How the screen may name each partner of `seat`, with the count: "Christabel 2+1"
    (a name may be shortened, never to less than three letters before an ellipsis)."""
    s = view.seats[seat]
    by: dict[int, list[int]] = {}
    for other, k in s.trades:
        by.setdefault(other, []).append(k)
    out = []
    for other, ks in by.items():
        name = "you" if other == view.you else NAMES[other]
        count = "+".join(map(str, ks))
        out.append(rf"{re.escape(name[:3])}\w*…? {re.escape(count)}\b")
    return out


def facts_whole(text: str, view: TableView, seat: int, facts: list[str]) -> None:
    """Below `seat`'s name on the screen (its box), every fact in `facts`, and each partner
    with its count, are shown uncut."""
    lines = text.split("\n")
    at, x = next(
        (i, ln.index(NAMES[seat])) for i, ln in enumerate(lines) if NAMES[seat] + " #" in ln
    )
    box = [ln[x : x + 60] for ln in lines[at + 1 : at + 4]]
    # a side seat's box is beside the felt: read it up to the felt's border
    box = [re.split(r"\s{2,}[│╭╰]|[│╭╰]", b)[0] for b in box]
    said = "\n".join(box)
    for fact in facts:
        assert re.search(rf"\b{fact}\b(?!…)", said), f"{fact!r} not whole in:\n{said}\n{text}"
    for partner in said_trades(view, seat):
        assert re.search(rf"⇄ (.*, )?{partner}", said), f"{partner} not in:\n{said}\n{text}"


@pytest.mark.parametrize(("rows", "columns"), SIZES)
@pytest.mark.parametrize("seat", [1, 2, 3])
def test_a_seat_that_won_and_traded_shows_both_whole(seat: int, rows: int, columns: int) -> None:
    view = a_table(seat, showing=LAYOUT[:5], face_down=0, folded=False, won=1250)
    facts_whole(screen(view, rows, columns), view, seat, ["won 1250"])


@pytest.mark.parametrize(("rows", "columns"), SIZES)
@pytest.mark.parametrize("seat", [1, 2, 3])
def test_a_seat_that_folded_and_traded_shows_both_whole(seat: int, rows: int, columns: int) -> None:
    view = a_table(seat, showing=LAYOUT[:2], face_down=3, folded=True, won=0)
    facts_whole(screen(view, rows, columns), view, seat, ["folded"])


@pytest.mark.parametrize(("rows", "columns"), SIZES)
def test_the_players_own_seat_that_won_and_traded_shows_both_whole(rows: int, columns: int) -> None:
    view = a_table(0, showing=LAYOUT, face_down=0, folded=False, won=95)
    facts_whole(screen(view, rows, columns), view, 0, ["won 95"])
