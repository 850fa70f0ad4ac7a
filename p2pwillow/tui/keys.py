"""The key bindings: what each key does in each panel of the screen. Terminal input only
through prompt_toolkit; the meaning of a key lives in `ScreenState`, its name in `keymap`.
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from p2pwillow.client import Client, Decision
from p2pwillow.rules import ActionKind
from p2pwillow.tui.keymap import (
    ACTION_KEYS,
    CLOSING_KEY,
    END_KEY,
    GAME_KEY,
    HELP_KEY,
    LEAVE_KEY,
    MAX_KEY,
    MIN_KEY,
    MODE_KEY,
    QUIT_KEY,
    SIT_IN_KEY,
)
from p2pwillow.tui.state import Mode, ScreenState

_BY_KEY: dict[str, ActionKind] = {k: kind for kind, k in ACTION_KEYS.items()}
DIGITS = "0123456789"
_NAMED = ("enter", "escape", "backspace", "c-c", "+", "-", MIN_KEY, MAX_KEY, HELP_KEY)


def build_bindings(state: ScreenState, client: Client, leave: Callable[[str], None]) -> KeyBindings:
    """Key bindings over `state` that send decisions to `client`; `leave(why)` ends the app."""
    kb = KeyBindings()

    def send(decision: Decision | None) -> None:
        if decision is not None:
            client.decide(decision)

    def dispatch(name: str) -> None:
        if state.quit_asked:
            if name == "y":
                leave("you left the table")
            elif name in ("n", "escape"):
                state.quit_asked = False
            return
        if state.end_asked:
            if name in ("y", "n", "escape") and state.answer_end(name == "y"):
                client.end_game()
            return
        if state.leave_asked:
            if name in ("y", "n", "escape") and state.answer_leave(name == "y"):
                client.leave_table()
            return
        if state.help_open:
            if name in (HELP_KEY, "escape"):
                state.help_open = False
            return
        if name == HELP_KEY:
            state.help_open = True
            return
        if name in (QUIT_KEY, "c-c"):
            if state.over and not (state.view is not None and state.view.hand_running):
                leave("you left the table")  # nothing is abandoned: no question to ask
            else:
                state.quit_asked = True
            return
        state.clear_message()
        mode = state.mode
        if mode is Mode.SEATING:
            if state.seat_answered:
                return
            if name in ("y", "n"):
                same = state.answer_seat(name == "y")
                client.confirm_seat(same)
                if not same:
                    leave("you left the table: the safety codes did not match")
            return
        if name == END_KEY:  # in every panel: no panel uses the key
            state.ask_end()
            return
        if name == LEAVE_KEY:  # in every panel too
            state.ask_leave()
            return
        if name == SIT_IN_KEY:  # in every panel too
            if state.ask_sit_in():
                client.sit_in()
            return
        if mode is Mode.AMOUNT:
            if name in DIGITS:
                state.amount_type(name)
            elif name == "backspace":
                state.amount_back()
            elif name in (MIN_KEY, "-"):
                state.amount_min()
            elif name in (MAX_KEY, "+"):
                state.amount_max()
            elif name == "enter":
                send(state.amount_enter())
            elif name == "escape":
                state.cancel()
            elif name in _BY_KEY:
                state.cancel()
                send(state.press(_BY_KEY[name]))
            return
        if mode is Mode.ANNOUNCE:
            if name in "567" and len(name) == 1:
                state.announce_size(int(name))
            elif name == GAME_KEY:
                state.announce_game()
            elif name == MODE_KEY:
                state.announce_mode()
            elif name == CLOSING_KEY:
                state.announce_closing()
            elif name in ("+", "-"):
                state.announce_orbits(1 if name == "+" else -1)
            elif name == "enter":
                send(state.announce_enter())
            elif name == "escape":
                state.cancel()
                state.reset_draft()
            elif name in _BY_KEY:
                send(state.press(_BY_KEY[name]))
            return
        if mode in (Mode.GIVE, Mode.LAYOUT):
            if name in DIGITS and len(name) == 1:
                state.pick(int(name))
            elif name == "backspace":
                state.pick_back()
            elif name == "enter":
                send(state.pick_enter())
            elif name == "escape":
                state.cancel()
            elif name in _BY_KEY:
                send(state.press(_BY_KEY[name]))
            return
        if name in _BY_KEY:
            send(state.press(_BY_KEY[name]))
        elif name == "enter":
            if state.next_hand():
                client.next_hand()
        elif name in DIGITS:
            state.pick(int(name))

    def bind(name: str, *, eager: bool = False) -> None:
        @kb.add(name, eager=eager)
        def _(event: KeyPressEvent) -> None:
            dispatch(name)

    for name in {
        *_BY_KEY,
        *DIGITS,
        MODE_KEY,
        GAME_KEY,
        QUIT_KEY,
        END_KEY,
        LEAVE_KEY,
        SIT_IN_KEY,
        *_NAMED,
    }:
        bind(name, eager=name == "escape")
    return kb
