"""The number of cards offered, and who offers them, on the real screen of a table of six, of
eight and of ten, at 80x24 and at 100x32 (issue 24, item 9): the last seat's offer is open and
the player has still to answer it, every player has a long name, every seat has traded
already this hand and the peers are in every state of connection. The count is whole; the
offerer's name may be shortened (never to less than three letters before an ellipsis); the
player's own question ("answer …'s offer of 3") is whole, and the keys that answer it are
shown.

The application draws a real view of the trading of a hand (`at_an_offer`), read back from a
pyte terminal: one screen for each table and size, shared by the tests."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from test_many_seats import LINKS, NAMES, SCREENS, links, screen_id
from tui_screen import still_screen
from views import OFFERED, at_an_offer, traded

from p2pwillow.view import TableView


def offered(players: int) -> TableView:
    """The view of seat 0 at the last seat's open offer, with long names, trades made and
    the peers in every state of connection."""
    view = traded(at_an_offer(players), NAMES)
    seats = tuple(
        replace(s, link=None if s.you else LINKS[(s.seat - 1) % len(LINKS)]) for s in view.seats
    )
    return replace(view, seats=seats)


@pytest.fixture(scope="module", params=SCREENS, ids=screen_id)
def table(request: pytest.FixtureRequest) -> tuple[TableView, str]:
    """An open offer at a table of six, eight or ten, and the screen at one size."""
    players, rows, columns = request.param
    view = offered(players)
    return view, still_screen(view, rows, columns, links(view))


def test_the_view_is_of_an_open_offer_of_the_last_seat(table: tuple[TableView, str]) -> None:
    view, _ = table
    assert view.offer is not None
    assert (view.offer.offerer, view.offer.k) == (len(view.seats) - 1, OFFERED)
    assert view.offer.accepted_by is None and view.you in view.offer.answering


def test_the_count_offered_and_the_offerer_are_shown(table: tuple[TableView, str]) -> None:
    view, text = table
    assert view.offer is not None
    name = view.name(view.offer.offerer)
    said = rf"(?<![\w…]){OFFERED}\s+cards\s+offered\s+by\s+{re.escape(name[:3])}\w*…?(?![\w…])"
    assert re.search(said, text), f"{OFFERED} cards offered by {name} not in:\n{text}"


def test_the_player_is_asked_for_the_answer_with_the_count_whole(
    table: tuple[TableView, str],
) -> None:
    """The line of whom the table waits for says it whole: where the seats' names are too
    long for it, they are counted, the player's own question first."""
    _, text = table
    asked = rf"Waiting for ([^:\n]*, )?you\b[^:\n]*: answer [^\n]+'s offer of {OFFERED}(?![\w…])"
    assert re.search(asked, text), f"the player's question not whole in:\n{text}"


def test_the_keys_that_answer_it_are_shown(table: tuple[TableView, str]) -> None:
    _, text = table
    for keys in ("[y] accept", "[n] decline", "[?] help", "[q] quit"):
        assert re.search(rf"{re.escape(keys)}(?![\w…])", text), f"{keys!r} not in:\n{text}"
