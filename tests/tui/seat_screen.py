"""Reading a seat's box off the real screen (a pyte capture): its lines, and what the box must
say of the seat's trades. The seats' key facts (issue 24, item 9) are checked on these."""

from __future__ import annotations

import re

from p2pwillow.view import SeatView, TableView

BOX_ROWS = 4
"""The most rows a seat's box takes: its name, then three lines of facts."""


def box_of(text: str, view: TableView, seat: int) -> str:
    """The lines of `seat`'s box on the screen `text`: from the line of its name (`labelled`),
    in the columns up to the next seat's box on that line or the felt's border,
    down to the next seat's name or the first line that is not the box's."""
    lines = text.split("\n")
    me = labelled(view.seats[seat])
    at, x = next((i, m.start() - 2) for i, ln in enumerate(lines) for m in me.finditer(ln))
    labels = [labelled(s) for s in view.seats if s.seat != seat]
    ends = [m.start() - 2 for other in labels for m in other.finditer(lines[at], x + 1)]
    end = min(ends, default=len(lines[at]))

    def part(ln: str) -> str:
        # a side seat's box is beside the felt: read it up to the felt's border
        return re.split(r"\s{2,}[│╭╰]|[│╭╰]", ln[x:end])[0]

    box = [part(lines[at])]
    for ln in lines[at + 1 : at + BOX_ROWS]:
        said = part(ln)
        if not said.startswith("  ") or not said.strip() or "───" in said:
            break
        if any(other.search(said) for other in labels):
            break
        box.append(said)
    return "\n".join(box)


def labelled(s: SeatView) -> re.Pattern[str]:
    """A seat's name as its box heads it: with its fingerprint, the name perhaps shortened
    (never to less than three letters before an ellipsis) to leave room for its
    connection."""
    if not s.fingerprint:
        return re.compile(re.escape(s.name))
    return re.compile(rf"{re.escape(s.name[:3])}[^ ]*…? #{re.escape(s.fingerprint)}")


def said_trades(view: TableView, seat: int) -> list[str]:
    """How the box of `seat` may name each partner of its trades, with the count:
    "Christabel 2+1" (a name may be shortened, never to less than three letters before an
    ellipsis)."""
    s = view.seats[seat]
    by: dict[int, list[int]] = {}
    for other, k in s.trades:
        by.setdefault(other, []).append(k)
    out = []
    for other, ks in by.items():
        name = "you" if other == view.you else view.name(other)
        count = "+".join(map(str, ks))
        out.append(rf"{re.escape(name[:3])}\w*…? {re.escape(count)}\b")
    return out


def facts_whole(text: str, view: TableView, seat: int, facts: list[str]) -> None:
    """In `seat`'s box on the screen, every fact in `facts` (patterns), and each partner of
    its trades with its count, are shown uncut."""
    said = box_of(text, view, seat)
    for fact in facts:
        assert re.search(rf"(?<![\w…]){fact}(?![\w…])", said), (
            f"{fact!r} not whole in:\n{said}\n{text}"
        )
    for partner in said_trades(view, seat):
        assert re.search(rf"⇄ (.*, )?{partner}", said), f"{partner} not in:\n{said}\n{text}"
