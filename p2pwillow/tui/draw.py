"""Drawing the screen: rows of (style, text) fragments from a `ScreenState` and its view, for
any width and height. Pure; no I/O (the layout puts these rows on the terminal).

Every function takes `Glyphs`: Unicode suits and box lines, or plain ASCII for terminals that
cannot show them. Styles are class names; the application's style sheet colours them.
"""

from __future__ import annotations

import itertools
import math
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from p2pwillow.cards import Card, Suit
from p2pwillow.games import weeping_willow as ww
from p2pwillow.games.car_wash import WASH_PRICE
from p2pwillow.games.weeping_willow import TradingClose, TradingMode
from p2pwillow.rules import ActionKind, Phase
from p2pwillow.tui.keymap import (
    ACTION_KEYS,
    BETTING,
    CLOAK_KEY,
    CLOSING_KEY,
    DECLARE_KEYS,
    DECLARE_LABELS,
    END_KEY,
    FLIP_KEY,
    GAME_KEY,
    HELP_KEY,
    LABELS,
    LEAVE_KEY,
    MATCH_KEYS,
    MAX_KEY,
    MIN_KEY,
    MODE_KEY,
    MORE_TIME_KEY,
    QUIT_KEY,
    SHOW_KEY,
    SIT_IN_KEY,
    STAND_PAT_KEY,
    TRADING,
    WASH_PRICE_KEY,
)
from p2pwillow.tui.state import PICKING, Mode, ScreenState
from p2pwillow.view import (
    ActionView,
    ClockView,
    Line,
    Link,
    OfferView,
    SeatView,
    TableView,
    WashView,
)

Frag = tuple[str, str]
Row = list[Frag]

LOG_BESIDE_WIDTH = 110
"""From this width on the event log stands beside the table, below it otherwise."""
LOG_WIDTH = 36
"""The narrowest the log is beside the table (it takes a third of wider screens)."""


@dataclass(frozen=True, slots=True)
class Glyphs:
    unicode: bool
    back: str
    marker: str
    ellipsis: str
    h: str
    v: str
    corners: tuple[str, str, str, str]
    """top-left, top-right, bottom-left, bottom-right"""
    busy: str
    arrow: str
    cross: str
    links: dict[Link, str]
    swap: str = "<>"
    """Between the two sides of a trade."""
    times: str = "x"
    """Between a count and what each is worth ("tokens 6 x 5")."""


UNICODE = Glyphs(
    unicode=True,
    back="▮",
    marker="▶",
    ellipsis="…",
    h="─",
    v="│",
    corners=("╭", "╮", "╰", "╯"),
    busy="⟳",
    arrow="→",
    cross="✗",
    swap="⇄",
    times="×",
    links={
        Link.LOCAL: "●",
        Link.CONNECTED: "●",
        Link.CONNECTING: "…",
        Link.AWAY: "○",
        Link.GONE: "✕",
    },
)
ASCII = Glyphs(
    unicode=False,
    back="#",
    marker=">",
    ellipsis="...",
    h="-",
    v="|",
    corners=("+", "+", "+", "+"),
    busy="*",
    arrow="->",
    cross="x",
    links={
        Link.LOCAL: "*",
        Link.CONNECTED: "*",
        Link.CONNECTING: "...",
        Link.AWAY: "o",
        Link.GONE: "x",
    },
)


# --- fragments --------------------------------------------------------------------------------


def width_of(row: Iterable[Frag]) -> int:
    return sum(len(text) for _, text in row)


_TO_ASCII = str.maketrans(
    {
        "·": "-",
        "…": "...",
        "–": "-",
        "—": "-",
        "─": "-",
        "│": "|",
        "→": "->",
        "✗": "x",
        "⇄": "<>",
        "×": "x",
    }
)


def plain(text: str, g: Glyphs) -> str:
    """`text` as the terminal can show it: unchanged, or in ASCII for an ASCII terminal."""
    if g.unicode:
        return text
    return text.translate(_TO_ASCII).encode("ascii", "replace").decode("ascii")


def fit(row: Row, width: int, g: Glyphs) -> Row:
    """`row` cut to `width` columns (an ellipsis marks the cut) or padded with blanks."""
    if not g.unicode:
        row = [(style, plain(text, g)) for style, text in row]
    total = width_of(row)
    if total <= width:
        return [*row, ("", " " * (width - total))] if total < width else list(row)
    room = max(0, width - len(g.ellipsis))
    out: Row = []
    for style, text in row:
        if room <= 0:
            break
        out.append((style, text[:room]))
        room -= len(text[:room])
    out.append(("class:dim", g.ellipsis[: max(0, width - width_of(out))]))
    return out


def center(row: Row, width: int, g: Glyphs) -> Row:
    pad = max(0, (width - width_of(row)) // 2)
    return fit([("", " " * pad), *row], width, g)


def card(c: Card, g: Glyphs, style: str = "") -> Frag:
    red = c.suit in (Suit.HEARTS, Suit.DIAMONDS)
    text = c.unicode if g.unicode else c.ascii
    return (f"class:card.{'red' if red else 'black'} {style}".strip(), text)


def cards(cs: Sequence[Card], g: Glyphs, sep: str = " ") -> Row:
    out: Row = []
    for i, c in enumerate(cs):
        if i:
            out.append(("", sep))
        out.append(card(c, g))
    return out


def line(ln: Line, g: Glyphs, style: str = "") -> Row:
    return [card(p, g) if isinstance(p, Card) else (style, p) for p in ln.parts]


def key(k: str, words: str, legal: bool = True) -> Row:
    if not legal:
        return [("class:key.off", f"[{k}]"), ("class:dim", f" {words}")]
    return [("class:key", f"[{k}]"), ("", f" {words}")]


def join(rows: Iterable[Row], sep: str = "  ") -> Row:
    out: Row = []
    for i, r in enumerate(rows):
        if i:
            out.append(("", sep))
        out.extend(r)
    return out


# --- a canvas for the table -------------------------------------------------------------------


class _Canvas:
    def __init__(self, width: int, height: int, g: Glyphs) -> None:
        self.g = g
        self.width = width
        self.height = height
        self.cells: list[list[Frag]] = [[("", " ")] * width for _ in range(height)]

    def put(self, x: int, y: int, row: Row, limit: int | None = None) -> None:
        if not 0 <= y < self.height:
            return
        end = self.width if limit is None else min(self.width, x + limit)
        for style, text in row:
            for ch in plain(text, self.g):
                if 0 <= x < end:
                    self.cells[y][x] = (style, ch)
                x += 1

    def rows(self) -> list[Row]:
        out: list[Row] = []
        for cells in self.cells:
            row: Row = []
            for style, ch in cells:
                if row and row[-1][0] == style:
                    row[-1] = (style, row[-1][1] + ch)
                else:
                    row.append((style, ch))
            out.append(row)
        return out


def _seat_box(
    s: SeatView, view: TableView, width: int, height: int, g: Glyphs, left: float | None = None
) -> list[Row]:
    return _box(s, view, width, height, g, left)[0]


def _box(
    s: SeatView, view: TableView, width: int, height: int, g: Glyphs, left: float | None = None
) -> tuple[list[Row], bool]:
    """The seat's box in `width` x `height`, and whether every fact in it is whole (its
    connection, what it won, its trades, what its cards make...)."""
    name_style = "class:toact" if s.to_act else ("class:you" if s.you else "class:name")
    if s.folded or not s.in_hand:
        name_style = "class:dim"
    link: Row = []
    if s.link is not None and s.link is not Link.LOCAL and s.link is not Link.CONNECTED:
        link = [("class:warn", f" {s.link.value}")]
    # the name is shortened before the connection is cut from the end of the line
    for room in (None, 12, 8, 6, 4, 3):
        head: Row = [("class:marker", g.marker + " ") if s.to_act else ("", "  ")]
        if s.to_act and left is not None:
            head.append(_countdown(left, view, g))
            head.append(("", " "))
        head.append((name_style, _short(s.name, room, g)))
        if s.fingerprint:
            head.append(("class:dim", f" #{s.fingerprint}"))
        if s.you:
            head.append(("class:you", " (you)"))
        if s.dealer:
            head += [("", " "), ("class:button", " D ")]
        if s.working:
            head.append(("class:dim", f" {g.busy}"))
        head += link
        if not link or _cols(head, g) <= width:
            break
    state = ""
    if not s.in_hand:
        state = "sitting out" if s.sitting_out else "not in this hand"
    elif s.folded:
        state = "folded"
    elif s.all_in:
        state = "all in"
    table: Row = cards(s.showing, g)
    if s.face_down:
        table += [("", " ")] * bool(s.showing) + [("class:back", g.back * s.face_down)]
    lines, whole = _facts(s, view, table, state, width, height, g, _cols(head, g))
    # a box of two rows has its stack beside the name
    two = [[*head, ("", " "), *lines[0][1:]], lines[1]]
    rows = two if height < 3 else [head, *lines][:height]
    whole = whole and len(lines) < height + (height < 3) and all(_cols(r, g) <= width for r in rows)
    return [fit(r, width, g) for r in rows], whole


def _cols(row: Row, g: Glyphs) -> int:
    """The columns `row` takes on the terminal (an ASCII one spells some glyphs longer)."""
    return sum(len(plain(text, g)) for _, text in row)


def _facts(
    s: SeatView,
    view: TableView,
    table: Row,
    state: str,
    width: int,
    height: int,
    g: Glyphs,
    head: int = 0,
) -> tuple[list[Row], bool]:
    """The seat's lines under its name (`head` columns wide): the stack, the cards, and a
    fourth line where the box has one; and whether every fact is whole in them. What the seat
    won or bets, whether it folded, and every trade it made this hand are never cut: each goes
    beside the cards where it fits, else beside the stack (before what the cards make), else
    on the fourth line; the trades' partners are shortened and face-down cards counted rather
    than drawn before anything is cut. What the cards make goes beside the stack or the cards,
    else on the fourth line: in full where it fits, else by the hand's kind ("full house", the
    felt's result line names the winner's hand in full); it is dropped only where a box of
    this size has no room left for either."""
    lines: list[Row] = [[("", "  "), ("class:stack", f"{s.stack}")], [("", "  "), *table]]
    if height >= 4:
        lines.append([("", " ")])
    whole = True
    # where each fact goes, in order of preference: 0 the stack's line, 1 the cards', 2 the
    # fourth
    facts: list[tuple[Row, tuple[int, ...]]] = []
    if s.won:
        facts.append(([("class:win", f"  won {s.won}")], (1, 0, 2)))
    elif s.bet:
        facts.append(([("class:bet", f"  bet {s.bet}")], (1, 0, 2)))
    if state:
        facts.append(([("class:dim", f"  {state}")], (1, 0, 2)))
    if s.discards:
        facts.append(([("class:dim", f"  {s.discards} discarded")], (1, 0, 2)))
    if s.drew is not None:
        drew = f"draws {s.drew}" if s.drew else "stands pat"
        facts.append(([("class:offer", f"  {drew}")], (1, 0, 2)))
    declared = declaration(s, view)
    if declared:
        facts.append(([("class:offer", f"  {declared}")], (1, 0, 2)))

    def room(i: int, row: Row) -> bool:
        # (a box of two rows has its stack beside the name: nothing more goes there)
        fits = i < len(lines) and _cols([*lines[i], *row], g) <= width
        return fits and (i > 0 or height >= 3)

    def count_backs() -> None:
        row = lines[1]
        lines[1] = [
            ("class:back", f"{g.back}{s.face_down}") if style == "class:back" else (style, text)
            for style, text in row
        ]

    for fact, where in facts:
        i = next((i for i in where if room(i, fact)), None)
        if i is None and s.face_down > 1:
            count_backs()
            i = next((i for i in where if room(i, fact)), None)
        whole = whole and i is not None
        lines[where[0] if i is None else i] += fact
    if s.trades:
        tries = [(None, False), *((short, True) for short in (None, 12, 8, 6, 5, 4, 3))]
        for short, counted in tries:
            if counted and s.face_down > 1:
                count_backs()
            said = _trades(s, view, short, g)
            i = next((i for i in (1, 2, 0) if room(i, said)), None)
            if i is not None or short == 3:
                whole = whole and i is not None
                lines[(2 if len(lines) > 2 else 1) if i is None else i] += said
                break
    if s.tokens:
        # a token's worth in chips: "tokens 6 × 5"
        extra: Row = [("class:dim", f" · tokens {s.tokens} {g.times} {view.token_value}")]
        if room(0, extra) or height < 3:
            lines[0] += extra
        elif len(lines) > 2 and room(2, extra):
            lines[2] += extra
        else:
            whole = False
            lines[0] += extra  # cut at the end of the line, after every fact
    elif s.showing_text:
        whole = _made(s.showing_text, lines, room, height, head, width, g) and whole
    if len(lines) > 2 and lines[2] == [("", " ")]:
        lines.pop()
    return lines, whole


def _made(
    made: str,
    lines: list[Row],
    room: Callable[[int, Row], bool],
    height: int,
    head: int,
    width: int,
    g: Glyphs,
) -> bool:
    """Put what a seat's cards make on its `lines`: in full, else the hand's kind (the words
    before the first comma: "full house, twos full of nines" is a full house); beside the
    stack, else beside the cards, else on the fourth line. Whether it was put whole."""
    kind = made.split(", ")[0]
    full: Row = [("class:dim", f" · {made}")]
    short: Row = [("class:dim", f" · {kind}")]
    if height < 3:
        # a box of two rows: beside the stack, itself beside the name (`head` columns)
        said = full if head + _cols([*lines[0], *full], g) <= width else short
        lines[0] += said
        return head + _cols(lines[0], g) <= width
    for said, i in ((full, 0), (full, 1), (short, 0), (short, 1), (full, 2), (short, 2)):
        if room(i, said):
            lines[i] += said
            return True
    return False


def declaration(s: SeatView, view: TableView) -> str:
    """A seat's declaration as its box says it (SPEC 3.16): while the declarations are sealed,
    whether the seat has sealed ("sealed", "to declare"; the person's own choice to them alone,
    "low (sealed)"); once all are open, each one ("declared low")."""
    if s.declared:
        return f"declared {s.declared}"
    if not view.declaring or not s.in_hand or s.folded:
        return ""
    if s.you and view.your_declaration:
        return f"{view.your_declaration} (sealed)"
    return "sealed" if s.sealed else "to declare"


def _trades(s: SeatView, view: TableView, room: int | None, g: Glyphs) -> Row:
    """Every trade the seat made this hand, by partner ("⇄ Bob 3, you 2+1"), the partners'
    names in at most `room` columns."""
    by: dict[int, list[int]] = {}
    for other, k in s.trades:
        by.setdefault(other, []).append(k)
    said = ", ".join(
        f"{'you' if other == view.you else _short(view.name(other), room, g)} "
        + "+".join(map(str, ks))
        for other, ks in by.items()
    )
    return [("class:offer", f" {g.swap} {said}")]


def _short(name: str, room: int | None, g: Glyphs) -> str:
    """`name` in at most `room` columns: a bot's level dropped first ("bot 3 (easy)"), then
    cut with an ellipsis; a name that ends in a number keeps it, told apart from the others
    ("bot3", then "b3", rather than "bot…")."""
    if room is None or len(name) <= room:
        return name
    plain_name = name.split(" (")[0]
    if len(plain_name) <= room:
        return plain_name
    number = re.search(r"\d+$", plain_name)
    if number is not None and plain_name != number.group():
        joined = plain_name.replace(" ", "")
        if len(joined) <= room:
            return joined
        if len(number.group()) < room:
            return plain_name[0] + number.group()
    return plain_name[: room - 1] + g.ellipsis[:1]


def _around(view: TableView) -> tuple[list[SeatView], list[SeatView], list[SeatView], SeatView]:
    """(left bottom-to-top, top left-to-right, right top-to-bottom, bottom): clockwise from
    the player, who sits at the bottom (SPEC 3.2: clockwise is increasing seat number)."""
    seats = list(view.seats)
    me = next((i for i, s in enumerate(seats) if s.you), 0)
    ordered = seats[me:] + seats[:me]
    bottom, others = ordered[0], ordered[1:]
    side = round(len(others) / 3)
    top = len(others) - 2 * side
    return others[:side], others[side : side + top], others[side + top :], bottom


def _felt(view: TableView, width: int, g: Glyphs) -> list[Row]:
    if view.live:
        return _live_felt(view, width, g)
    rows: list[Row] = []
    if view.pots:
        main, *side = view.pots
        rows += _pot_rows([("class:pot", f"pot {main.amount}")], view, width)
        for p in side:
            rows.append([("class:dim", f"side pot {p.amount}")])
    bets = sum(s.bet for s in view.seats)
    if bets:
        rows.append([("class:bet", f"bets {bets}")])
    o = view.offer
    if o is not None:
        for room in (None, 8, 6, 4):
            # names shortened (a bot's level dropped) before the line wraps onto two: the
            # felt of a table of eight or ten at 80 columns is 24 wide
            rows_now = _offer_rows(view, o, width, room, g)
            if len(rows_now) <= 1 + (o.accepted_by is None and bool(o.accepted)):
                break
        rows += rows_now
    for ln in view.result:
        rows += wrap(line(ln, g, "class:win"), width)
    a = view.announcement
    if a is not None and view.phase is Phase.TRADING and a.game is ww.WEEPING_WILLOW:
        mode = "free" if ww.Setup.of(a).mode is TradingMode.FREE else "in turn"
        rows.append([("class:dim", f"{a.cards_each} cards · {mode}")])
    return [center(r, width, g) for r in rows]


BOARD_SLOT = "··"
"""A board card still to come."""


def board_row(view: TableView, g: Glyphs) -> Row:
    """The board of a live-deck game: its cards, then a slot for each card still to come."""
    row: Row = [("class:label", "board")]
    for c in view.board:
        row += [("", " "), card(c, g)]
    to_come = max(0, view.board_size - len(view.board))
    row += [("class:dim", f" {BOARD_SLOT}") for _ in range(to_come)]
    return row


def _pot_rows(pot: Row, view: TableView, width: int) -> list[Row]:
    """The pot's row, and the chips in it carried over from the last hand, whose pot nobody
    won (SPEC 3.16): beside it ("pot 140 (40 carried over)") where that fits, else under it."""
    if not view.carried_in or not view.hand_running or not pot:
        return [pot] if pot else []
    beside: Row = [*pot[:1], ("class:dim", f" ({view.carried_in} carried over)"), *pot[1:]]
    if width_of(beside) <= width:
        return [beside]
    return [pot, [("class:dim", f"({view.carried_in} carried over)")]]


def _without_hands(text: str) -> str:
    """A result line without the hands that won ("Ann wins 40"): the seats' boxes say them,
    and the line under the table in full; in a split pot, each side's ("high: Ann wins 20;
    low: Bob wins 20")."""
    parts = []
    for part in text.split("; "):
        head, with_, tail = part.rpartition(" with ")
        parts.append(head if with_ and " wins " not in tail and " split " not in tail else part)
    return "; ".join(parts)


def _live_felt(view: TableView, width: int, g: Glyphs) -> list[Row]:
    """The middle of a live-deck game's table: the board first, then the pot (the bets of the
    round beside it), side pots, and how the hand ended."""
    rows: list[Row] = []
    if view.board or view.board_size:
        rows.append(board_row(view, g))
    pot: Row = []
    if view.pots:
        pot = [("class:pot", f"pot {view.pots[0].amount}")]
    bets = sum(s.bet for s in view.seats)
    if bets:
        pot += [("", " · ")] * bool(pot) + [("class:bet", f"bets {bets}")]
    rows += _pot_rows(pot, view, width)
    for p in view.pots[1:]:
        rows.append([("class:dim", f"side pot {p.amount}")])
    if view.result:
        # once the hand is over, who won what says it (the felt of a small screen is small):
        # with which hand is said in the seats' boxes and in full under the table
        rows = rows[: 1 if view.board or view.board_size else 0]
    for ln in view.result:
        rows += wrap([("class:win", _without_hands(ln.text(g.unicode)))], width)
    return [center(r, width, g) for r in rows]


def _offer_rows(
    view: TableView, o: OfferView, width: int, room: int | None, g: Glyphs
) -> list[Row]:
    """The open offer or the agreed trade on the felt, names in at most `room` columns."""

    def name(seat: int, first: bool = False) -> str:
        if seat == view.you:
            return "You" if first else "you"
        return _short(view.name(seat), room, g)

    count = f"{o.k}{_TOGETHER}card{'s' * (o.k > 1)}"
    if o.accepted_by is None and o.offerer == view.you:
        text = f"You offer {count}"
    elif o.accepted_by is None:
        # the count first: where the felt is narrow it is the name that wraps
        text = f"{count} offered by {name(o.offerer)}"
    else:
        text = f"Trading {count}: {name(o.offerer)} and {name(o.accepted_by)}"
    rows = [[("class:offer", r)] for r in _wrapped(text, width)]
    if o.accepted_by is None and o.accepted:
        took = ", ".join(name(x) for x in o.accepted)
        rows += [[("class:offer", r)] for r in _wrapped(f"accepted: {took}", width)]
    return rows


_TOGETHER = "\x00"
"""A space `_wrapped` never breaks at: a count stays with what it counts."""


def _wrapped(text: str, width: int) -> list[str]:
    """`text` broken at spaces into lines of at most `width` columns."""
    rows = wrap([("", text)], max(1, width))
    return ["".join(t for _, t in r).replace(_TOGETHER, " ") for r in rows]


def _box_width(width: int) -> int:
    """The columns of a seat's box at a side of a table `width` wide."""
    return min(28, max(14, width // 3))


def _top_slots(count: int, width: int) -> list[tuple[int, int]]:
    """(column, width) of each of the `count` boxes at the top of a table `width` wide."""
    slot = width // max(1, count)
    xs = [i * slot + max(0, (slot - _box_width(width)) // 2) for i in range(count)]
    return [(x, (i + 1) * slot - x) for i, x in enumerate(xs)]


def _rims(view: TableView, width: int, height: int, g: Glyphs) -> tuple[int, int, int]:
    """The rows of the boxes at the top and at the bottom of a table `width` x `height`, and
    the rows the table takes with them: three each, or, where a box needs a fourth row to
    show every fact whole (a side's box, or a top box beside others), as many more rows as
    fit in `height`, the player's box at the bottom in two where every fact fits in two."""
    left, top, right, bottom = _around(view)
    side = max(len(left), len(right))
    plain_rows = 3 * (2 + max(side, 1))
    if height < plain_rows:
        return 2, 2, plain_rows

    def need(s: SeatView, w: int) -> int:
        if _box(s, view, w, 3, g)[1]:
            return 3
        return 4 if _box(s, view, w, 4, g)[1] else 3

    slots = _top_slots(len(top), width)
    top_n = max((need(s, w) for s, (_, w) in zip(top, slots, strict=True)), default=3)
    side_n = max((need(s, _box_width(width)) for s in (*left, *right)), default=3)
    middle = max(side, 1) * side_n
    bx = max(0, (width - _box_width(width)) // 2)
    two = _box(bottom, view, width - bx, 2, g)[1]
    for top_h, bottom_h in ((top_n, 3), (top_n, 2), (3, 3), (3, 2)):
        rows = top_h + middle + bottom_h
        if rows <= height and (bottom_h == 3 or two):
            return top_h, bottom_h, rows
    return 3, 3, plain_rows


GRID_COLUMNS = 3
"""The columns of boxes where a table too short for its ring sets the others out in rows."""


def _grid(view: TableView, width: int, height: int, g: Glyphs) -> tuple[int, int, int] | None:
    """Where the table is too short for a box of three rows at each seat of its sides (a
    table of nine or ten at 80x24), the others' boxes in rows of `GRID_COLUMNS`, in turn
    clockwise from the player's left as one reads, the felt (its pot, an offer, a board)
    under them where rows are left (all of it where it shows an offer or a board) and the
    player's box at the bottom: the rows of the others' boxes and of the player's, and the
    column the player's box begins at, where every box is whole so; else None (the ring's
    boxes get two rows, the facts cut that do not fit)."""
    left, top, right, bottom = _around(view)
    others = [*left, *top, *right]
    if len(others) <= GRID_COLUMNS or _ring_whole(view, width, height, g):
        return None
    slots = _top_slots(GRID_COLUMNS, width)
    lines = -(-len(others) // GRID_COLUMNS)
    # the player's box where the ring has it, else from the left edge (nothing is beside it)
    at = [(h, x) for h in (2, 3) for x in (max(0, (width - _box_width(width)) // 2), 0)]
    bottom_h, bx = next(((h, x) for h, x in at if _box(bottom, view, width - x, h, g)[1]), (0, 0))
    if not bottom_h:
        return None
    # the board of a live-deck game and an open offer are key facts: where the felt shows one,
    # the grid leaves it the rows of the whole felt
    felt = len(_felt(view, width - 2, g)) if view.offer or view.board or view.board_size else 0
    for box_h in (3, 4):
        if lines * box_h + bottom_h + felt > height:
            return None
        cells = zip(others, itertools.cycle(slots))
        if all(_box(s, view, w, box_h, g)[1] for s, (_, w) in cells):
            return box_h, bottom_h, bx
    return None


def _ring_whole(view: TableView, width: int, height: int, g: Glyphs) -> bool:
    """Whether every box is whole where `table_rows` sets the seats around the felt."""
    left, top, right, bottom = _around(view)
    side = max(len(left), len(right))
    box_h = 3 if height >= 3 * (2 + max(side, 1)) else 2
    box_w = _box_width(width)
    top_h, bottom_h, _ = _rims(view, width, height, g)
    slots = _top_slots(len(top), width)
    if not all(_box(s, view, w, top_h, g)[1] for s, (_, w) in zip(top, slots, strict=True)):
        return False
    for seats in (left, right):
        if seats:
            step = max(box_h, (height - bottom_h - top_h) // len(seats))
            if not all(_box(s, view, box_w, max(box_h, min(4, step)), g)[1] for s in seats):
                return False
    bx = max(0, (width - box_w) // 2)
    return _box(bottom, view, width - bx, bottom_h, g)[1]


def _grid_rows(
    view: TableView,
    width: int,
    height: int,
    g: Glyphs,
    seat_box: Callable[[SeatView, int, int], list[Row]],
    box_h: int,
    bottom_h: int,
    bx: int,
) -> list[Row]:
    """The table set out as `_grid` says: the others in rows of boxes `box_h` high, the felt's
    rows under them as many as fit, the player's box `bottom_h` high at the bottom from column
    `bx`."""
    canvas = _Canvas(width, height, g)
    left, top, right, bottom = _around(view)
    others = [*left, *top, *right]
    slots = _top_slots(GRID_COLUMNS, width)
    for i, s in enumerate(others):
        x, w = slots[i % GRID_COLUMNS]
        y = (i // GRID_COLUMNS) * box_h
        for dy, r in enumerate(seat_box(s, w, box_h)):
            canvas.put(x, y + dy, r)
    y0 = -(-len(others) // GRID_COLUMNS) * box_h
    felt = height - bottom_h - y0
    for i, r in enumerate(_felt(view, width - 2, g)[: max(0, felt)]):
        canvas.put(1, y0 + i, r)
    for dy, r in enumerate(seat_box(bottom, width - bx, bottom_h)):
        canvas.put(bx, height - bottom_h + dy, r)
    return canvas.rows()


def table_rows(
    view: TableView, width: int, height: int, g: Glyphs, state: ScreenState | None = None
) -> list[Row]:
    """The table drawn around: the player at the bottom, the others clockwise, the pot in
    the middle; a seat whose decision the table waits for shows its clock (from `state`)."""
    canvas = _Canvas(width, height, g)

    def seat_box(s: SeatView, view: TableView, w: int, h: int, g: Glyphs) -> list[Row]:
        left = None if state is None else state.seconds_left(s.seat)
        return _seat_box(s, view, w, h, g, left)

    grid = _grid(view, width, height, g)
    if grid is not None:
        return _grid_rows(view, width, height, g, lambda s, w, h: seat_box(s, view, w, h, g), *grid)
    left, top, right, bottom = _around(view)
    side = max(len(left), len(right))
    box_h = 3 if height >= 3 * (2 + max(side, 1)) else 2
    box_w = _box_width(width)
    top_h, bottom_h, _ = _rims(view, width, height, g)
    # A seat at the top or the bottom has nothing beside it: its box begins where a box of
    # box_w would, centred, and may take the rest of its slot. A seat at a side may take a
    # fourth row where its column has one.
    for s, (x, w) in zip(top, _top_slots(len(top), width), strict=True):
        for dy, r in enumerate(seat_box(s, view, w, top_h, g)):
            canvas.put(x, dy, r)
    y0, y1 = top_h, height - bottom_h
    for column, seats in ((0, list(reversed(left))), (width - box_w, right)):
        if not seats:
            continue
        step = max(box_h, (y1 - y0) // len(seats))
        for i, s in enumerate(seats):
            rows = seat_box(s, view, box_w, max(box_h, min(4, step)), g)
            y = y0 + i * step + max(0, (step - max(box_h, len(rows))) // 2)
            for dy, r in enumerate(rows):
                if y + dy < y1:
                    canvas.put(column, y + dy, r)
    bx = max(0, (width - box_w) // 2)
    for dy, r in enumerate(seat_box(bottom, view, width - bx, bottom_h, g)):
        canvas.put(bx, height - bottom_h + dy, r)
    # The felt: between the side columns, between the top and bottom rows.
    fx0 = box_w + 1 if side else 1
    fx1 = width - box_w - 1 if side else width - 1
    fw = fx1 - fx0
    fh = y1 - y0
    if fw >= 8 and fh >= 1:
        inside = _felt(view, fw - 2, g)
        if view.live and view.game_title and fh >= len(inside) + 3:
            # the game and its street above the board, where the felt has the room
            words = f"{view.game_title} · {view.street}" if view.street else view.game_title
            inside = [center([("class:dim", words)], fw - 2, g), *inside]
        if fh >= len(inside) + 2:
            tl, tr, bl, br = g.corners
            canvas.put(fx0, y0, [("class:felt", tl + g.h * (fw - 2) + tr)])
            canvas.put(fx0, y1 - 1, [("class:felt", bl + g.h * (fw - 2) + br)])
            for y in range(y0 + 1, y1 - 1):
                canvas.put(fx0, y, [("class:felt", g.v)])
                canvas.put(fx1 - 1, y, [("class:felt", g.v)])
            first = y0 + 1 + max(0, (fh - 2 - len(inside)) // 2)
            for i, r in enumerate(inside[: fh - 2]):
                canvas.put(fx0 + 1, first + i, r)
        else:
            for i, r in enumerate(inside[:fh]):
                canvas.put(fx0 + 1, y0 + i, r)
    return canvas.rows()


def wrap(row: Row, width: int) -> list[Row]:
    """`row` broken at spaces into rows of at most `width` columns (a card is never split);
    continuation rows are indented."""
    out: list[Row] = []
    cur: Row = []
    used = 0
    for style, text in row:
        for piece in re.findall(r"\S+\s*|\s+", text) or [text]:
            if cur and used + len(piece.rstrip()) > width:
                out.append([*cur[:-1], (cur[-1][0], cur[-1][1].rstrip())])
                cur, used = [("", "  ")], 2
                piece = piece.lstrip()
            cur.append((style, piece))
            used += len(piece)
    out.append(cur)
    return out


def log_rows(view: TableView, width: int, height: int, g: Glyphs) -> list[Row]:
    """The last events, newest at the bottom, long ones wrapped."""
    if height <= 0:
        return []
    rows: list[Row] = []
    for ln in reversed(view.log):
        rows = wrap(line(ln, g), width) + rows
        if len(rows) >= height:
            break
    lines = [fit(r, width, g) for r in rows[-height:]]
    blank = [("", " " * width)]
    return [blank] * (height - len(lines)) + lines


def body_rows(state: ScreenState, width: int, height: int, g: Glyphs) -> list[Row]:
    view = state.view
    if view is None:
        return [fit([("", "connecting to the table…")], width, g)] * min(height, 1)
    if state.mode is Mode.SEATING:
        return seating_rows(state, view, width, height, g)
    if state.mode is Mode.ADMISSION and view.admission is not None:
        return admission_rows(state, view, width, height, g)
    if width >= LOG_BESIDE_WIDTH:
        lw = max(LOG_WIDTH, width // 3)
        table = table_rows(view, width - lw - 3, height, g, state)
        log = log_rows(view, lw, height, g)
        return [[*t, ("class:dim", f" {g.v} "), *lg] for t, lg in zip(table, log, strict=True)]
    needed = _rims(view, width, height, g)[2]
    th = min(height, max(needed, height - max(4, height // 3)))
    table = table_rows(view, width, th, g, state)
    rule: Row = [("class:dim", g.h * width)]
    rest = height - th
    if rest <= 1:
        return table[:height]
    return [*table, rule, *log_rows(view, width, rest - 1, g)]


COMPARE_WITH = "Compare it aloud with everyone at the table: each of you reads"
COMPARE_WHOLE = "the whole code from their own screen, all four groups."
SAME_CODE = "Does everyone see the same code?"
OTHER_CODE = "A different code means someone on the network sits in a player's place."


def code_box(code: str, g: Glyphs) -> list[Row]:
    """The safety code large, in its groups, to be read aloud (SPEC 6.7), and as typed."""
    spaced = "   ".join(" ".join(group) for group in code.split("-"))
    inner = len(spaced) + 4
    tl, tr, bl, br = g.corners
    return [
        [("class:felt", tl + g.h * inner + tr)],
        [("class:felt", g.v), ("class:code", f"  {spaced}  "), ("class:felt", g.v)],
        [("class:felt", bl + g.h * inner + br)],
        [("class:dim", code)],
    ]


def at_the_table(view: TableView, width: int) -> list[Row]:
    """Everyone at the table, with their fingerprints (SPEC 6.2): whom to compare with; on
    more rows where one is too narrow (80 columns, four seats), never a name cut."""
    names = [f"{s.label} (you)" if s.you else s.label for s in view.seats]
    lines: list[str] = []
    said = "At the table: "
    for i, name in enumerate(names):
        if i and len(said) + len(" · " + name) > width:
            lines.append(said + " ·")
            said = name
        else:
            said += name if i == 0 else " · " + name
    return [[("class:dim", ln)] for ln in [*lines, said]]


def _centered(rows: list[Row], width: int, height: int, g: Glyphs) -> list[Row]:
    top = max(0, (height - len(rows)) // 2)
    out = [[("", " " * width)] for _ in range(top)] + [center(r, width, g) for r in rows]
    out = out[:height]
    return out + [[("", " " * width)]] * (height - len(out))


def seating_rows(
    state: ScreenState, view: TableView, width: int, height: int, g: Glyphs
) -> list[Row]:
    rows: list[Row] = [
        [("class:title", f"Seating at {view.table!r}")],
        [("", "Safety code")],
        *code_box(view.safety_code, g),
        [],
        [("", COMPARE_WITH)],
        [("", COMPARE_WHOLE)],
        [("class:strong", SAME_CODE)],
        [],
    ]
    if state.seat_answered:
        rows.append([("", "Taking your seat… waiting for everyone to be seated.")])
    else:
        rows.append(
            join([key("y", "yes, the same: take my seat"), key("n", "no, leave the table")], "    ")
        )
        rows.append([("class:dim", OTHER_CODE)])
    names = at_the_table(view, width)
    # set apart by a blank row where the screen has room for it (not at 80x24, four seats)
    rows += [[], *names] if len(rows) + 1 + len(names) <= height else names
    return _centered(rows, width, height, g)


NO_CLOCK = "No hand starts until everyone has answered; nobody's clock runs."


def admission_rows(
    state: ScreenState, view: TableView, width: int, height: int, g: Glyphs
) -> list[Row]:
    """A newcomer's admission (SPEC 6.6, 8.9): the new code large, whom to compare it with,
    the person's answer (once), and who has answered."""
    a = view.admission
    assert a is not None
    if a.you_join:
        title = f"You join {view.table!r} in seat {a.seat}"
        yes, no = "yes, the same: take my seat", "no, leave the table"
    else:
        title = f"A newcomer: {a.newcomer} takes seat {a.seat} at {view.table!r}"
        yes, no = "yes, the same: deal them in", "no: keep them out"
    rows: list[Row] = [
        [("class:title", title)],
        [("", "New safety code")],
        *code_box(view.safety_code, g),
        [],
        [("", COMPARE_WITH)],
        [("", COMPARE_WHOLE)],
        [("class:strong", SAME_CODE)],
    ]
    if state.admission_question:
        rows.append(join([key("y", yes), key("n", no)], "    "))
        rows.append([("class:dim", OTHER_CODE)])
    else:
        done = state.admission_answered == a.join or not a.yours_due
        rows.append([("", ("You answered. " if done else "") + NO_CLOCK)])
        rows.append([])
    rows.append([])
    answered = ", ".join(a.admitted) or "nobody yet"
    waiting = ", ".join(a.waiting) or "nobody"
    rows.append([("class:dim", f"Admitted: {answered}   Waiting for: {waiting}")])
    rows += at_the_table(view, width)
    return _centered(rows, width, height, g)


# --- the panels under the table ---------------------------------------------------------------


def title_row(state: ScreenState, width: int, g: Glyphs) -> Row:
    """Willow, the table, the hand and its stage, a pause; the help and quit keys at the right.
    Short of room it says less, in this order: a live game's title drops the table's name (the
    game and its street matter more, and the seating screen names the table), a pause drops
    who paused (the clock row names them), and then the stage is cut; the pause itself and a
    blank before the keys always stay."""
    view = state.view
    right = f"[{HELP_KEY}] help  [{QUIT_KEY}] quit "
    room = max(0, width - len(right) - 1)
    row: Row = [("class:title", " Willow ")]
    paused: Row = []
    if view is not None:
        stage = "seating" if state.mode is Mode.SEATING else view.stage
        if state.mode is Mode.ADMISSION:
            stage = "a newcomer: compare the new code"
        if state.ended is not None:
            stage = "game over"
        hand = f" · hand {view.hand}" if view.hand else ""
        text = f" {view.table}{hand} · {stage}"
        c = view.clock
        if c is not None and c.paused_by is not None and state.ended is None:
            paused = [("class:title", f" PAUSED by {view.name(c.paused_by)} ")]
        if view.live and _cols([*row, ("", text), *paused], g) > room:
            text = f"{hand} · {stage}".removeprefix(" ·")
        if paused and _cols([*row, ("", text), *paused], g) > room:
            paused = [("class:title", " PAUSED ")]
        row.append(("class:title.text", text))
        limit = max(0, room - _cols(paused, g))
        if _cols(row, g) > limit:
            row = fit(row, limit, g)
    return [*fit([*row, *paused], room + 1, g), ("class:title.text", right[: max(0, width)])]


def hand_rows(state: ScreenState, width: int, g: Glyphs) -> list[Row]:
    """The player's own cards (numbered for picking), its layout once laid, its trades."""
    view = state.view
    blank: Row = []
    if view is None or not view.cards or state.mode in (Mode.SEATING, Mode.ADMISSION):
        return [fit(blank, width, g), fit(blank, width, g)]
    first: Row
    if view.live and state.mode is Mode.DRAW:
        first = _numbered(state, view, g)
    elif view.live:
        first = _live_hand_row(view, g)
    elif view.layout is not None:
        me = view.mine
        turned = len(me.showing) if me is not None else 0
        first = [("class:label", "Your layout ")]
        if turned:
            first += [("class:dim", " up: "), *cards(view.layout[:turned], g)]
        if turned < len(view.layout):
            first += [
                ("class:dim", "  down: " if turned else " down: "),
                *cards(view.layout[turned:], g),
            ]
        first.append(("class:dim", "  (in reveal order)"))
        if view.discards:
            first += [("class:dim", "  discards "), *cards(view.discards, g)]
    else:
        first = _numbered(state, view, g)
    rows = [fit(first, width, g)]
    traded = wrap(_traded_row(view, g), width)
    rows += [fit(r, width, g) for r in traded[: HAND_ROWS_MAX - 1]]
    return rows + [fit(blank, width, g)] * (2 - len(rows))


def _numbered(state: ScreenState, view: TableView, g: Glyphs) -> Row:
    """The player's cards numbered for picking, the picked numbers highlighted."""
    row: Row = [("class:label", "Your cards ")]
    wash = view.wash
    if wash is not None:
        # a wash numbers all the cards: face down first, then face up (SPEC 3.17)
        for i, c in enumerate(wash.cards, start=1):
            if i == 1 and wash.down:
                row.append(("class:dim", " down"))
            if i == len(wash.down) + 1:
                row.append(("class:dim", "  up"))
            style = "class:picked" if i in state.picked else "class:num"
            row += [("", " "), (style, f"{i}"), ("", ":"), card(c, g)]
        return row
    for i, own in enumerate(view.cards, start=1):
        picked = i in state.picked
        style = "class:picked" if picked else "class:num"
        row += [("", " "), (style, f"{i}"), ("", ":"), card(own.card, g)]
    if view.live and view.made:
        row += [("class:dim", "  · you have "), ("class:strong", view.made)]
    return row


def _live_hand_row(view: TableView, g: Glyphs) -> Row:
    """The player's cards in a live-deck game: its hole cards (a board game) or its down and
    up cards (stud), and what they make now."""
    down = [own.card for own in view.cards]
    me = view.mine
    up = [c for c in me.showing if c not in down] if me is not None else []
    if view.board_size:
        row: Row = [("class:label", "Your hole cards "), ("", " "), *cards(down, g)]
    elif view.draw_most:
        # a draw game: the cards kept, then the ones the draw dealt
        new = [c for c in down if c in view.drawn]
        kept = [c for c in down if c not in view.drawn]
        row = [("class:label", "Your cards "), ("", " "), *cards(kept, g)]
        if new:
            row += [("class:dim", "  new "), *cards(new, g)]
    else:
        row = [("class:label", "Your cards "), ("class:dim", " down "), *cards(down, g)]
        if up:
            row += [("class:dim", "  up "), *cards(up, g)]
    if view.made:
        row += [("class:dim", "  · you have "), ("class:strong", view.made)]
    return row


HAND_ROWS_MAX = 3
"""The rows under the table for the player's cards: the cards, then what it traded (wrapped
onto a third row rather than cut)."""


def _traded_row(view: TableView, g: Glyphs) -> Row:
    """What the player received, by giver, and what it gave away, by taker: "received 8♥ 5♣
    from Bob · gave Bob 4♥ 2♠"."""
    got: dict[int, list[Card]] = {}
    for own in view.cards:
        if own.came_from is not None:
            got.setdefault(own.came_from, []).append(own.card)
    parts: list[Row] = []
    for giver, cs in got.items():
        parts.append(
            [("class:dim", "received "), *cards(cs, g), ("class:dim", f" from {view.name(giver)}")]
        )
    for seat, gone in view.given:
        parts.append([("class:dim", f"gave {view.name(seat)} "), *cards(gone, g)])
    return join(parts, " · ")


def hand_height(state: ScreenState, width: int) -> int:
    """The rows `hand_rows` needs at `width`: two, or three when the trades wrap."""
    view = state.view
    if view is None or not view.cards or state.mode is Mode.SEATING:
        return 2
    return max(2, min(HAND_ROWS_MAX, 1 + len(wrap(_traded_row(view, UNICODE), width))))


def _bounds(a: ActionView) -> str:
    if a.low is not None and a.high is not None:
        return f" {a.low}" if a.low == a.high else f" {a.low}-{a.high}"
    if a.amount is not None and a.kind is ActionKind.CALL:
        return f" {a.amount}"
    return ""


def _action_keys(view: TableView, kinds: Sequence[ActionKind], width: int = 10_000) -> Row:
    """The keys of `kinds`, the ones that do nothing now greyed; where they do not all fit in
    `width`, the keys that work now alone (they are never cut)."""
    rows: list[tuple[bool, Row]] = []
    for kind in kinds:
        a = view.action(kind)
        words = LABELS[kind] + (_bounds(a) if a.legal else "")
        if kind is ActionKind.OFFER and a.legal:
            words += " cards"
        rows.append((a.legal, key(ACTION_KEYS[kind], words, a.legal)))
    every = join(r for _, r in rows)
    if width_of(every) <= width:
        return every
    return join(r for legal, r in rows if legal)


def _waiting_row(view: TableView, width: int) -> Row:
    """Whom the table waits for, and for what; where that is longer than `width`, each group
    of several seats counted, the player's own first ("you and 8 others: answer Ann's offer of
    3"), then without its parentheses, rather than what the player is asked cut off."""
    if not view.waiting:
        return []

    def said(counted: bool) -> Row:
        parts: list[Row] = []
        for w in sorted(view.waiting, key=lambda w: not w.you) if counted else view.waiting:
            others = len(w.seats) - w.you
            if counted and others > 1:
                many = f"{others} others" if w.you else f"{others} players"
                who = f"you and {many}" if w.you else many
            else:
                who = ", ".join("you" if s == view.you else view.name(s) for s in w.seats)
            style = "class:you" if w.you else ""
            parts.append([(style, f"{who}: {w.what}" if who else w.what)])
        return [("class:label", "Waiting for "), *join(parts, " · ")]

    row = said(False)
    if width_of(row) > width:
        row = said(True)
    if width_of(row) > width:
        # said without its parentheses (who accepted, the bots' levels) rather than cut:
        # "Waiting for you: choose whom to trade with or withdraw"
        row = [(style, _ASIDE.sub("", text)) for style, text in row]
    return row


_ASIDE = re.compile(r" \((?:[^()]|\([^()]*\))*\)")
"""A parenthesis (one level of parentheses within: "(Bot Eve (easy) accepted)")."""


def _announce_rows(state: ScreenState, view: TableView) -> list[Row]:
    d = state.draft
    first: Row = [("class:strong", "You deal: announce. ")]
    if len(view.games) > 1:
        first += [*key(GAME_KEY, "game "), ("class:chosen", d.game.title), ("", "   ")]
    elif view.games:
        first += [("class:chosen", d.game.title), ("", "   ")]
    if "deal_size" in d.options:
        sizes: Row = []
        for size in (5, 6, 7):
            if size not in view.deal_sizes:
                sizes.append(("class:dim", f" {size} "))
            elif size == d.number("deal_size"):
                sizes.append(("class:chosen", f"[{size}]"))
            else:
                sizes.append(("", f" {size} "))
        first += [("", "Deal size "), *sizes, ("class:dim", "  (keys 5 6 7)")]
    if WASH_PRICE.name in d.options:
        price = d.number(WASH_PRICE.name)
        said = "free" if not price else f"{price} ante{'s' * (price > 1)} a card"
        first += [*key(WASH_PRICE_KEY, "wash price "), ("class:chosen", said)]
    rows = [first]
    if d.game is ww.WEEPING_WILLOW:
        setup = ww.Setup.of(d)
        closing = {
            TradingClose.ORBIT_WITHOUT_TRADE: "after an orbit without a trade",
            TradingClose.ORBITS: f"after {state.orbits} orbit{'s' * (state.orbits > 1)}",
            TradingClose.DEALER_CALLS: "when you call it",
        }[setup.closing]
        second: Row = [
            *key(MODE_KEY, "trading "),
            ("class:chosen", "free" if setup.mode is TradingMode.FREE else "in turn"),
            ("", "   "),
            *key(CLOSING_KEY, "closes "),
            ("class:chosen", closing),
        ]
        if setup.closing is TradingClose.ORBITS:
            second += [("", "  "), *key("+/-", "orbits")]
        rows.append(second)
    rows.append(join([key("Enter", "announce"), key("Esc", "back to the defaults")]))
    return rows


_AMOUNT_LABELS = {ActionKind.RAISE: "Raise to", ActionKind.OFFER: "Offer cards"}
"""What the amount field is called where the action's label alone would not say it."""


def _amount_rows(state: ScreenState, view: TableView, width: int, g: Glyphs) -> list[Row]:
    kind = state.amount_kind
    assert kind is not None
    a = view.action(kind)
    verb = LABELS[kind]
    label = _AMOUNT_LABELS.get(kind, verb.capitalize())
    first: Row = [
        ("class:strong", f"{label}: "),
        ("class:field", f" {state.amount_text or ' '} "),
        ("class:dim", f"   from {a.low} to {a.high}"),
    ]
    second = join(
        [
            key("0-9", "type"),
            key(MIN_KEY, f"min {a.low}"),
            key(MAX_KEY, f"max {a.high}"),
            key("Bksp", "delete"),
            key("Enter", verb),
            key("Esc", "back"),
        ]
    )
    return [first, second, _waiting_row(view, width)]


def _partner_rows(state: ScreenState, view: TableView, width: int) -> list[Row]:
    o = view.offer
    k = 0 if o is None else o.k
    first: Row = [("class:strong", f"Trade {k} card{'s' * (k != 1)} with: ")]
    first += join(key(str(i), view.name(x)) for i, x in enumerate(state.accepters, start=1))
    count = len(state.accepters)
    picks = "1" if count == 1 else f"1-{count}"
    keys = [key(picks, "choose"), key(ACTION_KEYS[ActionKind.WITHDRAW], "withdraw the offer")]
    second = join([*keys, key("Esc", "back")])
    return [first, second, _waiting_row(view, width)]


def _pick_rows(state: ScreenState, view: TableView, width: int, g: Glyphs) -> list[Row]:
    picked = [view.cards[n - 1].card for n in state.picked if n <= len(view.cards)]
    count = len(view.cards)
    if state.mode is Mode.GIVE:
        k = view.action(ActionKind.CHOOSE_TRADE_CARDS).low or 0
        o = view.offer
        other = None
        if o is not None and o.accepted_by is not None and view.you is not None:
            other = o.accepted_by if o.offerer == view.you else o.offerer
        to = f" to {view.name(other)}" if other is not None else ""
        first: Row = [("class:strong", f"Give {k} card{'s' * (k > 1)}{to}: "), *cards(picked, g)]
        first += [("class:dim", " _") for _ in range(k - len(picked))]
        second = join(
            [key(f"1-{count}", "pick or put back"), key("Enter", "give them"), key("Esc", "clear")]
        )
        return [first, second, _waiting_row(view, width)]
    first = [("class:strong", "Lay out five, in the order they are turned: ")]
    first += cards(picked, g) + [("class:dim", " _") for _ in range(5 - len(picked))]
    if len(picked) == 5:
        note: Row = [("class:strong", "Enter lays them out face down; the order is final.")]
    else:
        note = [("class:dim", "the cards you do not pick are discarded face down, never shown")]
    second = join(
        [key(f"1-{count}", "pick next / put back"), key("Bksp", "undo"), key("Enter", "lay out")]
    )
    return [first, second, note]


DISCARD_PROMPT = "Choose the cards to discard"


def _draw_rows(state: ScreenState, view: TableView, g: Glyphs) -> list[Row]:
    """The draw: the cards picked to discard (up to the game's limit), and the keys."""
    if view.wash is not None:
        return _wash_rows(state, view.wash, g)
    picked = [view.cards[n - 1].card for n in state.picked if n <= len(view.cards)]
    most = state.draw_most()
    first: Row = [("class:strong", f"{DISCARD_PROMPT} (up to {most}): ")]
    if picked:
        first += cards(picked, g)
    else:
        first.append(("class:dim", "none yet"))
    n = len(picked)
    confirm = f"discard {n}, draw {n}" if n else "discard them"
    second = join(
        [
            key(f"1-{len(view.cards)}", "pick or put back"),
            key("Enter", confirm),
            key(STAND_PAT_KEY, "stand pat"),
            key("Esc", "clear"),
        ]
    )
    note: Row = [("class:dim", "the cards you discard go to the muck face down, never shown")]
    return [first, second, note]


def wash_prompt(wash: WashView) -> str:
    """The wash's first words: how many cards may be washed now and what each costs (a free
    wash names no price)."""
    words = "Wash one card" if wash.most < 2 else f"Wash up to {wash.most} cards"
    if wash.free:
        return words + ", free: "
    if not wash.price:
        return words + f", free face up (face down: {wash.price_down} chips): "
    words += f" for {wash.price} chips" + (" each" if wash.most > 1 else "")
    if wash.price_down != wash.price:
        words += f" (face down: {wash.price_down})"
    return words + ": "


def _wash_rows(state: ScreenState, wash: WashView, g: Glyphs) -> list[Row]:
    """The wash (SPEC 3.17): the cards picked among all the person's, up to the most it may
    wash now, and the keys."""
    first: Row = [("class:strong", wash_prompt(wash))]
    picked = sorted(n - 1 for n in state.picked if n <= len(wash.cards))
    for i, position in enumerate(picked):
        where = "face down" if wash.is_down(position) else "face up"
        sep: Row = [("", ", ")] if i else []
        first += [*sep, card(wash.cards[position], g), ("class:dim", f" ({where})")]
    if not picked:
        first.append(("class:dim", "none yet"))
    them = "it" if len(picked) == 1 or (not picked and wash.most < 2) else "them"
    paid = sum(wash.chips(x) for x in picked)
    confirm = f"pay {paid}, wash {them}" if paid else f"wash {them}"
    pick = "pick a card" if wash.most < 2 else f"pick up to {wash.most}"
    second = join(
        [
            key(f"1-{len(wash.cards)}", pick),
            key("Enter", confirm),
            key(STAND_PAT_KEY, "keep your cards"),
            key("Esc", "clear"),
        ]
    )
    note: Row = [("class:dim", "a card washed is replaced the same way, face down or face up")]
    if wash.cloak is not None:
        # the cloak: one face-up card washed and replaced face down, at a price of its own
        one_up = len(picked) == 1 and not wash.is_down(picked[0])
        what = f"pay {wash.cloak}, cloak it" if one_up else f"cloak a face-up card ({wash.cloak})"
        note = [*key(CLOAK_KEY, what), ("class:dim", ": washed, another dealt face down")]
    if wash.flip is not None:
        # the flip: a face-down card turned up and a face-up one washed, replaced face down
        kinds = {wash.is_down(x) for x in picked}
        both = len(picked) == 2 and kinds == {True, False}
        if both:
            what, then = (
                f"pay {wash.flip}, flip them",
                ": the face-up one washed, the new face down",
            )
        else:
            what, then = f"flip ({wash.flip})", ": pick a face-down card to turn up, a face-up one"
        note = [*key(FLIP_KEY, what), ("class:dim", then)]
    return [first, second, note]


DECLARE_PROMPT = "Declare, sealed: "


def _declare_rows(view: TableView, width: int) -> list[Row]:
    """The declaration (SPEC 3.16): one key per declaration, sealed (nobody sees one before
    all are), and what each side is won with."""
    keys = [key(k, DECLARE_LABELS[choice]) for k, choice in DECLARE_KEYS.items()]
    first: Row = [("class:strong", DECLARE_PROMPT), *join(keys)]
    high, low = view.high_side or "the best hand", view.low_side or "the best low"
    second: Row = [("class:dim", f"high: {high} · low: {low} · pig must win or tie both")]
    return [first, second, _waiting_row(view, width)]


MATCH_PROMPT = "You showed: match the pot or fold. "


def _match_rows(view: TableView, width: int) -> list[Row]:
    """Put to match the pot or fold after showing early (SPEC 3.18): a key for each answer."""
    chips = view.action(ActionKind.POT_MATCH).amount
    keys = [
        key(k, f"match the pot ({chips})" if match else "fold") for k, match in MATCH_KEYS.items()
    ]
    first: Row = [("class:strong", MATCH_PROMPT), *join(keys)]
    second: Row = [("class:dim", "a match puts the pot's size in, at most your stack (all in)")]
    return [first, second, _waiting_row(view, width)]


def _early_show_key(view: TableView) -> Row:
    """The show key, in the bet after the declaration only (SPEC 3.18)."""
    if not view.action(ActionKind.EARLY_SHOW).legal:
        return []
    return key(SHOW_KEY, "show your cards")


def _declared_row(view: TableView) -> Row:
    """The person's own declaration, sealed, while the others seal theirs."""
    mine = view.your_declaration
    if not mine:
        return []
    return [
        ("class:strong", f"you declared {mine} (sealed)"),
        ("class:dim", " · the declarations open together once everyone has declared"),
    ]


def over_rows(state: ScreenState, view: TableView) -> list[Row]:
    """The game is over: why, the final stacks, and how to check the transcript."""
    why = state.over_reason or "the game is over"
    first: Row = [("class:strong", why[:1].upper() + why[1:] + ".  ")]
    first += [*key(QUIT_KEY, "leave"), ("class:dim", " (the check below is printed in full)")]
    second: Row = [("", "Final stacks: ")]
    second.append(("class:strong", " · ".join(f"{s.name} {s.stack}" for s in view.seats)))
    third: Row = [("", "Check it: ")]
    if state.transcript is not None:
        third.append(("class:strong", f"willow verify {state.transcript}"))
    else:
        third.append(("class:dim", "this table keeps no transcript"))
    return [first, second, third]


def action_rows(state: ScreenState, width: int, g: Glyphs) -> list[Row]:
    view = state.view
    rows: list[Row]
    if view is None or state.mode in (Mode.SEATING, Mode.ADMISSION):
        rows = [[], [], []]
    elif state.done:
        rows = over_rows(state, view)
    elif state.mode is Mode.ANNOUNCE:
        rows = _announce_rows(state, view)
    elif state.mode is Mode.AMOUNT and state.amount_kind is not None:
        rows = _amount_rows(state, view, width, g)
    elif state.mode is Mode.DRAW:
        rows = _draw_rows(state, view, g)
    elif state.mode is Mode.DECLARE:
        rows = _declare_rows(view, width)
    elif state.mode is Mode.MATCH:
        rows = _match_rows(view, width)
    elif state.mode in PICKING:
        rows = _pick_rows(state, view, width, g)
    elif state.mode is Mode.PARTNER:
        rows = _partner_rows(state, view, width)
    elif state.sending or view.decision_pending:
        rows = [[("class:info", "your decision is on its way…")], _waiting_row(view, width), []]
    else:
        first: Row = []
        mine = view.mine
        sit_in = key(SIT_IN_KEY, "sit in again") if view.may_sit_in else []
        if sit_in and view.hand_running and (mine is None or not mine.in_hand):
            first = sit_in  # the hand runs without this seat: nothing else to press
        elif view.phase is Phase.BETTING and view.hand_running:
            show = _early_show_key(view)
            room = width - (width_of(show) + 2 if show else 0)
            first = join([r for r in (_action_keys(view, BETTING, room), show) if r])
        elif view.phase is Phase.TRADING and view.hand_running:
            first = _action_keys(view, TRADING, width)
        elif view.hand_running and view.action(ActionKind.KEEP_CARD).legal:
            # a pass street: keep the card just dealt or pass it on (SPEC 3.19)
            first = _action_keys(view, (ActionKind.PASS_CARD, ActionKind.KEEP_CARD), width)
        elif view.hand_running and view.action(ActionKind.KEEP_CALL).legal:
            # Five by Two: say first whether you wash (SPEC 3.17); the wash panel comes after
            first = _action_keys(view, (ActionKind.WASH_CALL, ActionKind.KEEP_CALL), width)
        elif view.declaring:
            first = _declared_row(view)
        elif view.seated and not view.hand_running:
            table_keys = [
                key("Enter", "next hand"),
                key(END_KEY, "end the game"),
                key(LEAVE_KEY, "leave the table"),
            ]
            first = join([sit_in, *table_keys] if sit_in else table_keys)
            if view.reading:
                # SPEC 8.9: the table waits for this person to have seen the result (said
                # shorter, or not at all, rather than cut a key that works now)
                for going_on in ("Hand over: any key goes on.  ", "Any key goes on.  "):
                    if width_of(first) + len(going_on) <= width:
                        first = [("class:strong", going_on), *first]
                        break
        banner = sit_out_banner(state, view)
        rows = [first, _waiting_row(view, width), banner]
        if view.result and not view.hand_running:
            # the hand is over: who won what, and with which hand, at the full width (a
            # seat sitting out keeps its banner in place of the waiting line)
            said = [r for ln in view.result for r in wrap(line(ln, g, "class:win"), width)]
            rows = [*said[: 1 if banner else 2], first, banner or _waiting_row(view, width)]
    return [fit(r, width, g) for r in rows[:3]]


def sit_out_banner(state: ScreenState, view: TableView) -> Row:
    """The lasting line of a seat that sits out (SPEC 3.11): since which hand, why, and the
    key that sits it back in, or from which hand it plays again once asked."""
    out = view.sitting_out
    if out is None:
        return []
    row: Row = [("class:strong", f"You sit out since hand {out.since}: {out.why}. ")]
    if state.sit_in_asked:
        return [*row, ("", f"You play again from hand {out.back_from}.")]
    return [*row, *key(SIT_IN_KEY, "sits you back in")]


# --- the clock (SPEC 3.14) ----------------------------------------------------------------------


def clock_text(seconds: float) -> str:
    """Seconds left as a person reads a clock: "1:05", "0:08" (never below 0:00)."""
    whole = max(0, math.ceil(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def _countdown(left: float, view: TableView, g: Glyphs) -> Frag:
    warn = view.clock is not None and left <= view.clock.warn_at
    return ("class:error" if warn else "class:toact", clock_text(left))


def _since(state: ScreenState, lasted: float) -> str:
    """Since when something that lasted `lasted` seconds began, as the time of day."""
    if state.wall is None:
        return ""
    return " since " + time.strftime("%H:%M", time.localtime(state.wall() - lasted))


def clock_row(state: ScreenState, width: int, g: Glyphs) -> Row:
    """The clock, always in view once seated: the pause (who paused, since when, for how
    long still, who resumes); else the player's own clock, prominent, with a warning in its
    last seconds and the key for more time; else whose clock runs; and the pause key."""
    view = state.view
    if view is None or state.mode is Mode.SEATING or view.clock is None or state.ended:
        return fit([], width, g)
    c = view.clock
    if c.paused_by is not None:
        paused: Row = []
        for again in _PAUSE_WORDS:
            paused = _paused(state, view, c, again)
            if width_of(paused) <= width:
                break
        return fit(paused, width, g)
    seat = state.on_the_clock()
    left = None if seat is None else state.seconds_left(seat)
    row: Row = []
    for short in range(len(_CLOCK_WORDS)):
        row = _clock_keys(state, view, seat, left, short)
        if width_of(row) <= width:
            break
    return fit(row, width, g)


_PAUSE_WORDS = (
    "  for {lasted}; the clocks run again by themselves in ",
    "  for {lasted}; the clocks run again in ",
    "  for {lasted}; clocks run in ",
    "  clocks run in ",
)
"""How the paused row says how long the pause lasted and when the clocks run again, longest
first (a narrow screen says it shorter rather than cut the resume key)."""


def _paused(state: ScreenState, view: TableView, c: ClockView, again: str) -> Row:
    """The paused row: who paused, since when, for how long still, who resumes."""
    assert c.paused_by is not None
    lasted = state.paused_for() or 0.0
    who = "you" if c.paused_by == view.you else view.name(c.paused_by)
    row: Row = [
        ("class:title", f" PAUSED by {who}{_since(state, lasted)} "),
        ("", again.format(lasted=clock_text(lasted))),
        ("class:strong", clock_text(c.pause_seconds - lasted)),
    ]
    if c.paused_by == view.you or c.you_arbiter:
        row += [("", "  "), *key("Space", "resume")]
    else:
        row.append(("class:dim", f"  ({who} or the arbiter resumes)"))
    return row


_CLOCK_WORDS = (
    ("more time (+{step} s, {bank} s in your bank)", "more time for {name} (arbiter)", True),
    ("more time (+{step} s, {bank} s banked)", "more time for {name}", True),
    ("+{step} s ({bank} s banked)", "more time", True),
    ("+{step} s", "more time", False),
)
"""The words of the more-time key (the player's own clock, the arbiter's for another seat)
and whether the pause key says how many pauses are left, longest first: a narrow screen
says them shorter rather than cut a key that works now (issue 24, item 9)."""


def _clock_keys(
    state: ScreenState, view: TableView, seat: int | None, left: float | None, short: int
) -> Row:
    """The clock row's countdown and keys, their words as short as `short` says."""
    c = view.clock
    assert c is not None
    mine, arbiter, pauses_left = _CLOCK_WORDS[short]
    row: Row = []
    if seat is not None and seat == view.you and left is not None:
        warn = left <= c.warn_at
        style = "class:error" if warn else "class:toact"
        row += [(style, f"{'Hurry: ' if warn else ''}your clock {clock_text(left)}"), ("", "  ")]
        if c.bank:
            more = mine.format(step=c.bank_step, bank=c.bank)
            row += [*key(MORE_TIME_KEY, more), ("", "  ")]
        else:
            row += [("class:dim", "your time bank is empty"), ("", "  ")]
    elif seat is not None and left is not None:
        row += [
            ("class:toact", f"{view.name(seat)}'s clock {clock_text(left)}"),
            ("", "  "),
        ]
        if c.you_arbiter:
            row += [*key(MORE_TIME_KEY, arbiter.format(name=view.name(seat))), ("", "  ")]
    if view.hand_running and c.pause_limit and c.pauses:
        row += key("Space", f"pause ({c.pauses} left)" if pauses_left else "pause")
    return row


def message_row(state: ScreenState, width: int, g: Glyphs) -> Row:
    if not state.message:
        return fit([], width, g)
    if state.message_is_error:
        return fit([("class:error", f"{g.cross} {state.message}")], width, g)
    return fit([("class:info", f"{g.arrow} {state.message}")], width, g)


def status_row(state: ScreenState, width: int, g: Glyphs) -> Row:
    """The safety code, the proofs indicator and every peer's connection (the legend for
    in-process peers only where there is room)."""
    view = state.view
    code: Row = []
    peers: Row = []
    legend: Row = []
    busy: Row = []
    if view is not None:
        code = [("class:status", " code "), ("class:status.code", view.safety_code)]
        peers = _peers(state, view, g)
        if any(state.links.get(s.seat) is Link.LOCAL for s in view.seats if not s.you):
            legend = [("class:status", f"  ({g.links[Link.LOCAL]} in process)")]
    if state.busy:
        busy = [("class:status", f" {g.v} "), ("class:status.busy", f"{g.busy} checking proofs…")]
    row = [*code, *busy, *peers, *legend]
    if width_of(row) > width:
        row = [*code, *busy, *peers]
    if width_of(row) > width and view is not None:
        # every peer's connection is a key fact: shorten the names rather than cut one off,
        # and leave out the safety code (the seating screen's) before that
        rooms: tuple[int | None, ...] = (10, 8, 6, 4)
        for room in rooms:
            row = [*code, *busy, *_peers(state, view, g, room)]
            if width_of(row) <= width:
                break
        else:
            # (at last each name in three columns, without the ellipsis: a table of nine
            # or ten at 80 columns)
            for room in (None, *rooms, BARE):
                row = [*busy, *_peers(state, view, g, room)]
                row[0] = ("class:status", " ")  # nothing before it to set apart
                if width_of(row) <= width:
                    break
    return fit(row, width, g)


BARE = 3
"""The columns of a peer's name on the status line at the last resort (`_bare`)."""


def _bare(name: str) -> str:
    """`name` in at most `BARE` columns and told apart from the others: its first letters, or
    where it ends in a number (a bot's, its level dropped), its first letter and the number:
    "Bartholomew" is "Bar", "bot 3 (easy)" is "b3"."""
    plain_name = name.split(" (")[0]
    number = re.search(r"\d+$", plain_name)
    if number is not None and plain_name != number.group():
        return plain_name[0] + number.group()
    return plain_name[:BARE]


def _peers(state: ScreenState, view: TableView, g: Glyphs, room: int | None = None) -> Row:
    """The peers' connections, each name whole or cut to `room` columns (then closer set);
    at `BARE`, each in three columns with no ellipsis (`_bare`)."""
    parts: list[Row] = []
    for s in view.seats:
        if s.you:
            continue
        link = state.links.get(s.seat)
        glyph = "?" if link is None else g.links[link]
        bad = link in (Link.AWAY, Link.GONE)
        words = f" {link.value}" if bad and link is not None else ""
        style = "class:status.warn" if bad else "class:status.link"
        if room == BARE:
            name = _bare(s.name)
        else:
            name = s.name if room is None else _short(s.name, room, g)
        parts.append([("class:status", name + " "), (style, glyph + words)])
    return [("class:status", f" {g.v} "), *join(parts, "  " if room is None else " ")]


HELP_TEXT = (
    "Weeping Willow: each player is dealt 5 to 7 cards face down.",
    "Trading: offer k cards blind; trade with one who accepts [t] or withdraw [w].",
    "  Each side pays a token (its worth in chips shows at each seat); cards after.",
    "Layout: pick five cards in turning order; each round all turn one, then bet.",
    "Roll Your Own: no trading, antes. Also stud, hold'em, Omaha, draw, high-low.",
    "Betting     [f] fold  [k] check  [c] call  [b] bet  [r] raise  [a] all in",
    "Trading     [o] offer  [y] accept  [n] decline  [w] withdraw  [p] pass",
    "            [t] trade with  [x] close (the dealer, once all offered or passed)",
    "Amounts     digits, [<] min, [>] max, [Bksp], [Enter] send, [Esc] back",
    "Cards       digits pick, [Bksp] undo, [Enter] give / lay out / wash, [s] keep",
    "Wash        2 in Car Wash, [c] cloak; Five by Two [w] wash, [n] keep, [f] flip",
    "Draw        digits pick up to 3 to discard, [Enter] draw them, [s] stand pat",
    "Declare     [h] high, [l] low, [p] pig (both ways): sealed until all declare",
    "Pass card   [p] pass your face-up card on for the minimum bet, [k] keep it",
    "Announcing  [g] game (of several), [5] [6] [7] deal size, [t] trading mode,",
    "            [c] closing, [+] [-] orbits, [p] wash price, [Enter] announce",
    "Table       [Enter] next hand, [e] end game, [l] leave, [q] quit, [i] sit in",
    "Clock       [m] more time, [Space] pause / resume (the arbiter: any seat's)",
)


def help_rows(width: int, g: Glyphs) -> list[Row]:
    rows: list[Row] = [[("class:strong", "Help")], []]
    rows += [[("", text)] for text in HELP_TEXT]
    rows += [[], [("class:dim", f"[{HELP_KEY}] or [Esc] closes this help")]]
    return [fit(r, width, g) for r in rows]


def end_rows(state: ScreenState, width: int, g: Glyphs) -> list[Row]:
    running = state.view is not None and state.view.hand_running
    when = "once this hand is over" if running else "now"
    rows: list[Row] = [
        [("class:strong", "End the game?")],
        [("", f"The game stops {when}; the transcript shows the final stacks.")],
        [],
        join([key("y", "end the game"), key("n", "play on")], "    "),
    ]
    return [fit(r, width, g) for r in rows]


def leave_rows(width: int, g: Glyphs) -> list[Row]:
    rows: list[Row] = [
        [("class:strong", "Leave the table?")],
        [("", "You leave between hands, once no hand is running, with your stack;")],
        [("", "the game goes on without you. Until then you play on.")],
        join([key("y", "leave the table"), key("n", "stay")], "    "),
    ]
    return [fit(r, width, g) for r in rows]


def quit_rows(width: int, g: Glyphs) -> list[Row]:
    rows: list[Row] = [
        [("class:strong", "Leave the table?")],
        [("", "A hand in play is abandoned; the transcript so far stays on disk.")],
        [],
        join([key("y", "leave"), key("n", "stay")], "    "),
    ]
    return [fit(r, width, g) for r in rows]
