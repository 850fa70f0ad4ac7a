"""Every key fact on the real screen of a table of six, of eight and of ten, at 80x24 and at
100x32 (issue 24, item 9): after a showdown where every seat traded, every player has a long
name and the peers are in every state of connection. For each seat, its stack, its trades
(partner and count), that it won or folded and what its face-up cards make (at least the
hand's kind: "full house"); the winner's hand in full; what the player gave away and
received; each peer's connection; the keys that work now. Weeping Willow seats up to
MAX_SEATS, ten (five cards each), as do Roll Your Own, hold'em, Omaha and five-card stud;
the other games five to eight.

The application draws a real view of a hand of six, eight or ten (changed as a showdown), read
back from a pyte terminal: one screen for each table and size, shared by the tests."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

import pytest
from seat_screen import box_of, facts_whole
from tui_screen import NEXT_HAND, still_screen
from views import after_one_hand, traded

from p2pwillow.cards import Card, parse_cards
from p2pwillow.hands import best_hand
from p2pwillow.tui.draw import UNICODE, _short, status_row
from p2pwillow.tui.state import ScreenState
from p2pwillow.view import Line, Link, OwnCard, TableView

NAMES = (
    "Ann",
    "Bartholomew",
    "Christabel",
    "Dorothea",
    "Evangeline",
    "Fitzgerald",
    "Guinevere",
    "Hildegard",
    "Isambard",
    "Jacqueline",
)
LAYOUTS = tuple(
    tuple(parse_cards(cs))
    for cs in (
        "As Kh Qd Jc Ts",
        "2s 2h 9c 9d 2d",
        "3c 3d 7d 8s Kd",
        "4h 5h 6h 7h 9h",
        "Qs Qh 5c 5d 4d",
        "Jd Jh Js 4c 6c",
        "Tc Td 8h 8d Ah",
        "6s 7s 8c 9s Th",
        "3s 4s 5s 6d 7c",
        "Ks Kc Ac Ad Qc",
    )
)
"""Each seat's layout, all face up; seat 1 (Bartholomew) wins with a full house. (At ten, the
last two share cards with what the player discarded and gave: the deck has too few left.)"""
FOLDED = (2, 5)
WINNER, POT = 1, 1805
LINKS = (Link.CONNECTED, Link.AWAY, Link.GONE, Link.CONNECTING)
"""The peers' connections, in turn from seat 1 on."""
DISCARDS = tuple(parse_cards("2c 3h"))
GIVEN = ((1, tuple(parse_cards("7c Kc Ks"))), (2, tuple(parse_cards("Ad"))))
"""What the player (seat 0) gave away: three cards to seat 1, one to seat 2 (its trades)."""
RECEIVED = ((0, 1), (1, 1), (2, 1), (3, 2))
"""(position in the player's layout, the seat it was received from)."""


def showdown(players: int, names: Sequence[str] = NAMES) -> TableView:
    """A real view of seat 0 after a hand of `players`, changed into the end of a showdown:
    every seat traded (`traded`) and shows a layout; two folded, one won with a full house;
    the peers in every state of connection; the player has still to see the result."""
    view = traded(after_one_hand(players), names)
    seats = tuple(
        replace(
            s,
            showing=LAYOUTS[s.seat],
            face_down=0,
            showing_text=best_hand(LAYOUTS[s.seat]).text,
            in_hand=True,
            folded=s.seat in FOLDED,
            all_in=False,
            won=POT if s.seat == WINNER else 0,
            link=None if s.you else LINKS[(s.seat - 1) % len(LINKS)],
        )
        for s in view.seats
    )
    made = best_hand(LAYOUTS[WINNER]).text
    came_from = dict(RECEIVED)
    mine = LAYOUTS[0] + DISCARDS
    cards = tuple(OwnCard(i, c, came_from.get(i)) for i, c in enumerate(mine))
    return replace(
        view,
        seats=seats,
        result=(Line((f"{names[WINNER]} wins {POT} with {made}",)),),
        cards=cards,
        layout=LAYOUTS[0],
        discards=DISCARDS,
        given=GIVEN,
        reading=True,
    )


def links(view: TableView) -> dict[int, Link]:
    return {s.seat: s.link for s in view.seats if s.link is not None}


SCREENS = [(n, rows, columns) for n in (6, 8, 10) for rows, columns in ((24, 80), (32, 100))]
"""(seats, rows, columns) of every table drawn here and in test_offer_seats."""


def screen_id(screen: tuple[int, int, int]) -> str:
    return "{} seats at {}x{}".format(*screen)


@pytest.fixture(scope="module", params=SCREENS, ids=screen_id)
def table(request: pytest.FixtureRequest) -> tuple[TableView, str]:
    """A showdown at a table of six, eight or ten, and the screen at one size."""
    players, rows, columns = request.param
    view = showdown(players)
    return view, still_screen(view, rows, columns, links(view))


def spaced(text: str) -> str:
    """A pattern for `text` that the screen may wrap at any space."""
    return r"\s+".join(map(re.escape, text.split()))


def test_every_seat_shows_its_stack_trades_and_whether_it_won_or_folded(
    table: tuple[TableView, str],
) -> None:
    view, text = table
    for s in view.seats:
        state = [f"won {s.won}"] if s.won else ["folded"] if s.folded else []
        facts_whole(text, view, s.seat, [str(s.stack), *state])


def test_every_seat_names_what_its_cards_make_beside_them(
    table: tuple[TableView, str],
) -> None:
    view, text = table
    for s in view.seats:
        kind = s.showing_text.split(", ")[0]
        said = box_of(text, view, s.seat)
        cards = " ".join(c.unicode for c in s.showing)
        assert cards in said, f"{s.name}'s cards not in:\n{said}\n{text}"
        assert re.search(rf"(?<![\w…]){re.escape(kind)}(?![\w…])", said), (
            f"{s.name}'s {kind!r} not whole in:\n{said}\n{text}"
        )


def test_the_winners_hand_is_named_in_full(table: tuple[TableView, str]) -> None:
    view, text = table
    [result] = view.result
    assert re.search(spaced(result.text()), text), f"{result.text()!r} not in:\n{text}"


def test_what_the_player_gave_away_and_received_is_shown_whole(
    table: tuple[TableView, str],
) -> None:
    view, text = table

    def shown(cs: tuple[Card, ...]) -> str:
        return " ".join(c.unicode for c in cs)

    got: dict[int, list[Card]] = {}
    for own in view.cards:
        if own.came_from is not None:
            got.setdefault(own.came_from, []).append(own.card)
    said = [f"received {shown(tuple(cs))} from {NAMES[g]}" for g, cs in got.items()]
    said += [f"gave {NAMES[seat]} {shown(cs)}" for seat, cs in view.given]
    for part in said:
        assert re.search(rf"{spaced(part)}(?![\w…])", text), f"{part!r} not in:\n{text}"


def test_every_peers_connection_is_shown_whole(table: tuple[TableView, str]) -> None:
    """On the status line, and in the box of a peer that is not connected."""
    view, text = table
    status = text.split("\n")[-1]
    for s in view.seats:
        if s.link is None:
            continue
        if s.link is not Link.CONNECTED:
            head = box_of(text, view, s.seat).split("\n")[0]
            said = rf"(?<![\w…]){re.escape(s.link.value)}(?![\w…])"
            assert re.search(said, head), f"{s.name}: {s.link.value} not in:\n{head}\n{text}"
        glyph = re.escape(UNICODE.links[s.link])
        word = f" {s.link.value}" if s.link in (Link.AWAY, Link.GONE) else ""
        name = re.escape(s.name[:3])
        said = rf"{name}\w*…? {glyph}{word}(?![\w…])"
        assert re.search(said, status), f"{s.name}: {s.link.value} not in:\n{status}\n{text}"


def test_the_keys_that_work_now_are_shown_whole(table: tuple[TableView, str]) -> None:
    _, text = table
    for keys in (NEXT_HAND, "[e] end the game", "[l] leave the table", "[?] help", "[q] quit"):
        assert re.search(rf"{re.escape(keys)}(?![\w…])", text), f"{keys!r} not in:\n{text}"


def test_the_status_line_of_ten_bots_at_80_columns_tells_every_bot_apart() -> None:
    """Where even names of four columns leave a connection cut, a bot is named by its first
    letter and its number: "b3 ○ away", never "bot…"."""
    view = after_one_hand(10)
    peers = [s for s in view.seats if not s.you]
    state = ScreenState()
    said = {s.seat: LINKS[(s.seat - 1) % len(LINKS)] for s in peers}
    state.update(view, busy=False, links=said, notice=None, seat_confirmed=True)
    status = "".join(text for _, text in status_row(state, 80, UNICODE))
    assert len(status) <= 80
    for s in peers:
        link = said[s.seat]
        word = f" {link.value}" if link in (Link.AWAY, Link.GONE) else ""
        shown = rf"(?<!\S)b(ot ?)?{s.seat} {re.escape(UNICODE.links[link])}{word}(?![\w…])"
        assert re.search(shown, status), f"{s.name}: {link.value} not in:\n{status}"


def test_bots_shortened_in_the_boxes_keep_their_numbers() -> None:
    """The showdown of a table of ten bots at 80x24: where a partner's name is shortened, a
    bot keeps its number ("⇄ bot3 2"), never "bot…"."""
    view = showdown(10, [f"bot {n} (normal)" for n in range(10)])
    text = still_screen(view, 24, 80, links(view))
    assert "bot…" not in text, text
    trades = [m for ln in text.split("\n") for m in re.findall(r"⇄ (.+?)(?=\s{2,}|│|$)", ln)]
    assert trades, text
    partner = re.compile(r"(you|bot ?\d|b\d)( \(\w+\))? \d+(\+\d+)*")
    for said in trades:
        for part in said.split(", "):
            assert partner.fullmatch(part), f"{part!r} in {said!r}:\n{text}"


@pytest.mark.parametrize(
    ("room", "said"), [(12, "bot 3"), (5, "bot 3"), (4, "bot3"), (3, "b3"), (2, "b3")]
)
def test_a_bots_name_shortened_keeps_its_number(room: int, said: str) -> None:
    """Where a box or the felt has a few columns for a partner's name, a bot keeps its
    number as long as there is room for it, its level dropped first."""
    assert _short("bot 3 (normal)", room, UNICODE) == said
    assert _short("Bartholomew", 4, UNICODE) == "Bar…"
