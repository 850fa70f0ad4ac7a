"""The key bindings without a terminal: their filters are mutually exclusive in every state
of the screen, the precedence between the questions, the help and the panels, and a key that
does nothing says which keys work."""

from __future__ import annotations

import itertools
import weakref
from dataclasses import replace
from typing import cast

import pytest
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.key_binding.key_processor import KeyPress, KeyPressEvent, KeyProcessor
from prompt_toolkit.keys import Keys
from views import after_one_hand

from p2pwillow.client import Client, Decision
from p2pwillow.games import weeping_willow as ww
from p2pwillow.games.car_wash import CAR_WASH, WASH_PRICE
from p2pwillow.rules import ActionKind, Announcement
from p2pwillow.tui.keymap import (
    ACTION_KEYS,
    CLOSING_KEY,
    DECLARE_KEYS,
    END_KEY,
    HELP_KEY,
    LEAVE_KEY,
    MODE_KEY,
    MORE_TIME_KEY,
    PAUSE_KEY,
    QUIT_KEY,
    SIT_IN_KEY,
    WASH_PRICE_KEY,
)
from p2pwillow.tui.keys import build_bindings, key_name
from p2pwillow.tui.state import Mode, ScreenState
from p2pwillow.view import ActionView


class Recorder:
    """A client that writes down what the keys asked of it."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> object:
        return lambda *args: self.calls.append(name)


def bound(
    state: ScreenState | None = None,
) -> tuple[ScreenState, KeyBindings, Recorder, list[str]]:
    state = ScreenState() if state is None else state
    client, left = Recorder(), list[str]()
    return state, build_bindings(state, cast(Client, client), left.append), client, left


def press(kb: KeyBindings, key: str | Keys) -> None:
    """What prompt_toolkit's key processor does with one key: of the bindings for the key
    whose filter holds, the last one runs."""
    event_key = KeyPress(key)
    active = [b for b in kb.get_bindings_for_keys((event_key.key,)) if b.filter()]
    event = KeyPressEvent(weakref.ref(KeyProcessor(kb)), None, [event_key], [], False)
    active[-1].call(event)


def states() -> list[dict[str, object]]:
    """Every combination of the flags and the mode the bindings' filters read."""
    flags = ("quit_asked", "end_asked", "leave_asked", "help_open", "seat_answered")
    out: list[dict[str, object]] = []
    for values in itertools.product((False, True), repeat=len(flags)):
        for mode in Mode:
            out.append({**dict(zip(flags, values, strict=True)), "mode": mode})
    return out


def test_one_handler_per_key_in_every_state() -> None:
    """For every key bound, in every state, exactly one of its bindings has a filter that
    holds: its handler, or the one that says which keys work. The `<any>` binding comes
    first among the candidates, so prompt_toolkit tries it last."""
    state, kb, _, _ = bound()
    keys = {b.keys for b in kb.bindings if Keys.Any not in b.keys}
    assert all(len(k) == 1 for k in keys)
    assert {(ACTION_KEYS[kind],) for kind in ACTION_KEYS} <= keys
    for values in states():
        for name, value in values.items():
            setattr(state, name, value)
        for k in keys:
            candidates = kb.get_bindings_for_keys(k)
            assert candidates[0].keys == (Keys.Any,)
            active = [b for b in candidates[1:] if b.filter()]
            assert len(active) == 1, (k, values, [b.handler.__name__ for b in active])
        assert [b.keys for b in kb.get_bindings_for_keys(("z",))] == [(Keys.Any,)]


def test_a_question_beats_the_help_and_the_panels() -> None:
    state, kb, client, left = bound()
    state.mode = Mode.ANNOUNCE
    state.quit_asked = state.end_asked = state.help_open = True
    press(kb, "n")  # the quit question first
    assert (state.quit_asked, state.end_asked, state.help_open) == (False, True, True)
    press(kb, "n")  # then the end question
    assert (state.end_asked, state.help_open) == (False, True)
    press(kb, "t")  # the help takes no panel key
    assert state.help_open and state.message == "t does nothing now; keys: ? Esc"
    press(kb, Keys.Escape)
    assert not state.help_open and state.message == ""
    assert client.calls == [] and left == []


def test_a_panel_key_beats_the_action_with_the_same_key() -> None:
    """The announcement's closing key (`c`, the call key elsewhere) changes the closing."""
    state, kb, client, _ = bound()
    state.mode = Mode.ANNOUNCE
    before = ww.Setup.of(state.draft).closing
    press(kb, CLOSING_KEY)
    assert ww.Setup.of(state.draft).closing is not before
    assert client.calls == []


ACTIONS = " ".join(dict.fromkeys(ACTION_KEYS.values()))  # a key of two phases once
TABLE = f"{HELP_KEY} {QUIT_KEY} {END_KEY} {LEAVE_KEY} {SIT_IN_KEY} {MORE_TIME_KEY} "
TABLE += key_name(PAUSE_KEY)
ANNOUNCING = f"5-7 {MODE_KEY} {CLOSING_KEY} {WASH_PRICE_KEY} + - Enter Esc"
ANNOUNCING_ACTIONS = " ".join(k for k in ACTIONS.split() if k not in ANNOUNCING.split())
DECLARING = " ".join(DECLARE_KEYS)
DECLARING_ACTIONS = " ".join(k for k in ACTIONS.split() if k not in DECLARE_KEYS)
DECLARING_TABLE = " ".join(k for k in TABLE.split() if k not in DECLARE_KEYS)


@pytest.mark.parametrize(
    ("setup", "key", "keys"),
    [
        ({"quit_asked": True}, "z", "y n Esc"),
        ({"quit_asked": True}, Keys.ControlM, "y n Esc"),
        ({"end_asked": True}, "e", "y n Esc"),
        ({"mode": Mode.SEATING}, "e", f"y n {HELP_KEY} {QUIT_KEY}"),
        ({"mode": Mode.SEATING, "seat_answered": True}, "y", f"{HELP_KEY} {QUIT_KEY}"),
        ({"mode": Mode.PLAY}, Keys.Escape, f"Enter {ACTIONS} {TABLE}"),
        ({"mode": Mode.LAYOUT}, "+", f"0-9 Bksp Enter Esc {ACTIONS} {TABLE}"),
        ({"mode": Mode.ANNOUNCE}, "4", f"{ANNOUNCING} {ANNOUNCING_ACTIONS} {TABLE}"),
        ({"mode": Mode.DECLARE}, "z", f"{DECLARING} {DECLARING_ACTIONS} {DECLARING_TABLE}"),
    ],
)
def test_a_key_that_does_nothing_says_which_keys_work(
    setup: dict[str, object], key: str | Keys, keys: str
) -> None:
    state, kb, client, left = bound()
    for name, value in setup.items():
        setattr(state, name, value)
    press(kb, key)
    name = key_name(key)
    assert (state.message, state.message_is_error) == (
        f"{name} does nothing now; keys: {keys}",
        True,
    )
    assert client.calls == [] and left == []


class Deciding(Recorder):
    """A recorder that keeps the decisions sent."""

    def __init__(self) -> None:
        super().__init__()
        self.decisions: list[Decision] = []

    def decide(self, decision: Decision) -> None:
        self.calls.append("decide")
        self.decisions.append(decision)


def _declaring() -> tuple[ScreenState, KeyBindings, Deciding, list[str]]:
    state = ScreenState()
    view = after_one_hand(3)
    state.view = replace(
        view, hand_running=True, actions=(ActionView(ActionKind.DECLARE, True),), declaring=True
    )
    state.mode = Mode.DECLARE
    client, left = Deciding(), list[str]()
    return state, build_bindings(state, cast(Client, client), left.append), client, left


@pytest.mark.parametrize(("key", "choice"), [("h", "high"), ("l", "low"), ("p", "pig")])
def test_the_declaration_keys_seal_a_choice(key: str, choice: str) -> None:
    """In the declaration panel `h`, `l` and `p` seal high, low and pig: `l` (elsewhere the
    key that leaves the table) asks nothing, `p` (the pass key in trading) passes nothing."""
    state, kb, client, left = _declaring()
    press(kb, key)
    assert client.decisions == [Decision(ActionKind.DECLARE, choice=choice)]
    assert not state.leave_asked and left == []
    assert state.message == f"you declare {choice}: sealed until everyone has declared"
    assert state.mode is Mode.PLAY
    press(kb, key)  # the panel is closed: a second press seals nothing more
    assert len(client.decisions) == 1


def test_the_leave_key_leaves_outside_the_declaration() -> None:
    state, kb, client, _ = _declaring()
    state.mode = Mode.PLAY
    press(kb, LEAVE_KEY)
    assert state.leave_asked and client.decisions == []


def test_the_price_key_sets_the_price_of_a_wash_where_the_game_has_one() -> None:
    """`p` (pass elsewhere) sets Car Wash's price of a wash; another game's announcement says
    it has none, and nothing is sent."""
    state, kb, client, _ = bound()
    state.mode = Mode.ANNOUNCE
    press(kb, WASH_PRICE_KEY)
    assert state.message == f"{ww.WEEPING_WILLOW.title} has no price of a wash to set"
    state.draft = Announcement.of(CAR_WASH)
    press(kb, WASH_PRICE_KEY)
    assert state.draft.number(WASH_PRICE.name) == 1  # up from free, the default
    assert client.calls == []
