"""The key bindings: one handler per key, or per group of keys with one meaning, each with a
filter for where on the screen it works. The filters are the screen's mode machine, built as
pyvim builds its own: prompt_toolkit `Condition`s over `ScreenState` composed with `&`, `|`
and `~`. They are mutually exclusive, so whatever the state, at most one handler takes a key;
a key that no handler takes says which keys work now. Terminal input only through
prompt_toolkit; the meaning of a key lives in `ScreenState`, its name in `keymap`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import reduce, wraps

from prompt_toolkit.filters import Condition, Filter, Never
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys

from p2pwillow.client import Client, Decision
from p2pwillow.rules import ActionKind
from p2pwillow.tui.keymap import (
    ACTION_KEYS,
    CLOAK_KEY,
    CLOSING_KEY,
    DECLARE_KEYS,
    END_KEY,
    FLIP_KEY,
    GAME_KEY,
    HELP_KEY,
    LEAVE_KEY,
    MATCH_KEYS,
    MAX_KEY,
    MIN_KEY,
    MODE_KEY,
    MORE_TIME_KEY,
    PAUSE_KEY,
    QUIT_KEY,
    SHOW_KEY,
    SIT_IN_KEY,
    STAND_PAT_KEY,
    WASH_PRICE_KEY,
)
from p2pwillow.tui.state import PICKING, Mode, ScreenState

__all__ = ["DIGITS", "Modes", "build_bindings", "key_name"]

Handler = Callable[[KeyPressEvent], None]

_BY_KEY: dict[str, tuple[ActionKind, ...]] = {}
"""The actions of each key: one a phase (`w` withdraws an offer in trading and says "I wash" at
Five by Two's wash), the action table's order."""
for _kind, _key in ACTION_KEYS.items():
    _BY_KEY[_key] = (*_BY_KEY.get(_key, ()), _kind)
DIGITS = "0123456789"
_PANEL, _ACTION, _TABLE = 0, 1, 2
"""Where a key is named among the keys that work: the panel's keys, then the actions', then
the table's."""
_NAMES = {
    Keys.Escape.value: "Esc",
    Keys.Enter.value: "Enter",
    Keys.Backspace.value: "Bksp",
    Keys.ControlC.value: "Ctrl-C",
    " ": "Space",
}


def key_name(key: str) -> str:
    """How the screen writes a key: prompt_toolkit's name ("enter", "c-m") or the character."""
    return _NAMES.get(_pressed_key(key), key)


def _pressed_key(key: str | Keys) -> str:
    """prompt_toolkit's name of a key as pressed: "enter" arrives as "c-m"."""
    if isinstance(key, Keys):
        return key.value
    return {"enter": Keys.Enter.value, "backspace": Keys.Backspace.value}.get(key, key)


def _any_of(filters: Iterable[Filter]) -> Filter:
    none: Filter = Never()
    return reduce(lambda a, b: a | b, filters, none)


class Modes:
    """Where the screen is, as filters over `state`, one layer excluding the next: the quit
    question beats the end question, which beats the leave question, which beats the help;
    with none of them open the keys reach the table, where `state.mode` says which panel
    takes them. At the table the keys of the table itself (help, quit, and once seated end,
    leave, sit in) work in every panel; a one-key action works wherever its key is free."""

    def __init__(self, state: ScreenState) -> None:
        def in_mode(*modes: Mode) -> Filter:
            return Condition(lambda: state.mode in modes)

        quit_asked = Condition(lambda: state.quit_asked)
        end_asked = Condition(lambda: state.end_asked)
        leave_asked = Condition(lambda: state.leave_asked)
        help_open = Condition(lambda: state.help_open)
        seat_answered = Condition(lambda: state.seat_answered)
        question = quit_asked | end_asked | leave_asked

        self.quit_asked: Filter = quit_asked
        self.end_asked: Filter = ~quit_asked & end_asked
        self.leave_asked: Filter = ~quit_asked & ~end_asked & leave_asked
        self.help_open: Filter = ~question & help_open
        self.table: Filter = ~question & ~help_open
        """No question open and no help: the keys reach the table."""
        self.seat_question: Filter = self.table & in_mode(Mode.SEATING) & ~seat_answered
        """The safety code is shown and the person has not answered yet."""
        self.admission_question: Filter = (
            self.table & in_mode(Mode.ADMISSION) & Condition(lambda: state.admission_question)
        )
        """A newcomer's admission waits for this person's answer (SPEC 6.6)."""
        self.seated: Filter = self.table & ~in_mode(Mode.SEATING)
        self.amount: Filter = self.table & in_mode(Mode.AMOUNT)
        self.announce: Filter = self.table & in_mode(Mode.ANNOUNCE)
        several = Condition(lambda: state.view is not None and len(state.view.games) > 1)
        self.choosing_game: Filter = self.announce & several
        """Announcing at a table of several games: the game key cycles them."""
        self.picking: Filter = self.table & in_mode(*PICKING)
        self.drawing: Filter = self.table & in_mode(Mode.DRAW)
        """Choosing the cards to discard in a draw game's draw."""
        self.cloaking: Filter = self.drawing & Condition(
            lambda: (
                state.view is not None
                and state.view.wash is not None
                and state.view.wash.cloak is not None
            )
        )
        """At a wash that offers the cloak of a face-up card (Go for Broke)."""
        self.flipping: Filter = self.drawing & Condition(
            lambda: (
                state.view is not None
                and state.view.wash is not None
                and state.view.wash.flip is not None
            )
        )
        """At a wash that offers the flip of a face-down card (Five by Two)."""
        self.declaring: Filter = self.table & in_mode(Mode.DECLARE)
        """Declaring high, low or pig in a split-pot game (SPEC 3.16)."""
        self.play: Filter = self.table & in_mode(Mode.PLAY)
        self.matching: Filter = self.table & in_mode(Mode.MATCH)
        """Put to match the pot or fold after showing early (SPEC 3.18)."""
        self.showing: Filter = self.play & Condition(
            lambda: state.view is not None and state.view.action(ActionKind.EARLY_SHOW).legal
        )
        """The bet after a split-pot game's declaration, where the person may show early."""
        self.partner: Filter = self.table & in_mode(Mode.PARTNER)
        """Choosing whom to trade with among those who accepted the person's offer."""
        self.action_key_open: Filter = (
            self.play | self.announce | self.picking | self.partner | self.declaring
        )
        """Where a one-key action's key presses it (in the amount field it first closes the
        field), unless the panel uses the key itself."""


def build_bindings(state: ScreenState, client: Client, leave: Callable[[str], None]) -> KeyBindings:
    """Key bindings over `state` that send decisions to `client`; `leave(why)` ends the app."""
    kb = KeyBindings()
    m = Modes(state)
    uses: dict[str, list[Filter]] = {}
    """Every key bound, with the filters of its handlers."""
    listed: list[tuple[int, str, Filter]] = []
    """The keys named when a key does nothing (in the order of their `show`), with where
    they work."""

    def on(*keys: str, when: Filter, show: int | None = _PANEL) -> Callable[[Handler], Handler]:
        """Bind the decorated handler to `keys` where `when` holds; `show`: where to name the
        keys among the keys that work (None: not named, for a handler that says why not)."""

        def register(handler: Handler) -> Handler:
            @wraps(handler)
            def handle(event: KeyPressEvent) -> None:
                state.forget_keys()
                handler(event)

            for k in keys:
                kb.add(k, filter=when, eager=k == "escape")(handle)
                uses.setdefault(k, []).append(when)
                if show is not None:
                    listed.append((show, key_name(k), when))
            return handler

        return register

    def at_table(
        *keys: str, when: Filter, show: int | None = _PANEL
    ) -> Callable[[Handler], Handler]:
        """`on`, for keys that reach the table: the message shown so far goes first."""

        def register(handler: Handler) -> Handler:
            @wraps(handler)
            def fresh(event: KeyPressEvent) -> None:
                state.clear_message()
                handler(event)

            on(*keys, when=when, show=show)(fresh)
            return handler

        return register

    def free(key: str, where: Filter) -> Filter:
        """`where`, except where a handler bound so far takes `key`."""
        return where & ~_any_of(uses.get(key, []))

    def send(decision: Decision | None) -> None:
        if decision is not None:
            client.decide(decision)

    def pressed(event: KeyPressEvent) -> str:
        return _pressed_key(event.key_sequence[0].key)

    def yes(event: KeyPressEvent) -> bool:
        return pressed(event) == "y"

    # --- a question open: y, n or Esc answers it ------------------------------------------------

    @on("y", "n", "escape", when=m.quit_asked)
    def answer_quit(event: KeyPressEvent) -> None:
        if state.answer_quit(yes(event)):
            leave("you left the table")

    @on("y", "n", "escape", when=m.end_asked)
    def answer_end(event: KeyPressEvent) -> None:
        if state.answer_end(yes(event)):
            ruling = state.ruling_end()
            if ruling is not None:
                client.clock_move(ruling)  # every seat deals no more hands
            client.end_game()

    @on("y", "n", "escape", when=m.leave_asked)
    def answer_leave(event: KeyPressEvent) -> None:
        if state.answer_leave(yes(event)):
            client.leave_table()

    @on(HELP_KEY, "escape", when=m.help_open)
    def close_help(event: KeyPressEvent) -> None:
        state.close_help()

    # --- the table's own keys, in every panel --------------------------------------------------

    @on(HELP_KEY, when=m.table, show=_TABLE)
    def open_help(event: KeyPressEvent) -> None:
        state.open_help()

    @on(QUIT_KEY, when=m.table, show=_TABLE)
    @on("c-c", when=m.table, show=None)
    def ask_quit(event: KeyPressEvent) -> None:
        if state.ask_quit():
            leave("you left the table")  # nothing is abandoned: no question to ask

    @at_table("y", "n", when=m.seat_question)
    def confirm_seat(event: KeyPressEvent) -> None:
        same = state.answer_seat(yes(event))
        client.confirm_seat(same)
        if not same:
            leave("you left the table: the safety codes did not match")

    @at_table("y", "n", when=m.admission_question)
    def answer_admission(event: KeyPressEvent) -> None:
        client.answer_admission(state.answer_admission(yes(event)))

    @at_table(END_KEY, when=m.seated, show=_TABLE)
    def ask_end(event: KeyPressEvent) -> None:
        state.ask_end()

    @at_table(LEAVE_KEY, when=m.seated & ~m.declaring, show=_TABLE)
    def ask_leave(event: KeyPressEvent) -> None:
        state.ask_leave()

    @at_table(SIT_IN_KEY, when=m.seated, show=_TABLE)
    def sit_in(event: KeyPressEvent) -> None:
        ruling = state.ruling_sit_in()
        if ruling is not None:
            if ruling.seat is not None:
                client.clock_move(ruling)
        elif state.ask_sit_in():
            client.sit_in()

    @at_table(MORE_TIME_KEY, when=m.seated, show=_TABLE)
    def more_time(event: KeyPressEvent) -> None:
        move = state.ask_more_time()
        if move is not None:
            client.clock_move(move)

    @at_table(PAUSE_KEY, when=m.seated, show=_TABLE)
    def pause(event: KeyPressEvent) -> None:
        move = state.ask_pause()
        if move is not None:
            client.clock_move(move)

    # --- the amount field ----------------------------------------------------------------------

    @at_table(*DIGITS, when=m.amount)
    def amount_type(event: KeyPressEvent) -> None:
        state.amount_type(pressed(event))

    @at_table("backspace", when=m.amount)
    def amount_back(event: KeyPressEvent) -> None:
        state.amount_back()

    @at_table(MIN_KEY, "-", when=m.amount)
    def amount_min(event: KeyPressEvent) -> None:
        state.amount_min()

    @at_table(MAX_KEY, "+", when=m.amount)
    def amount_max(event: KeyPressEvent) -> None:
        state.amount_max()

    @at_table("enter", when=m.amount)
    def amount_enter(event: KeyPressEvent) -> None:
        send(state.amount_enter())

    @at_table("escape", when=m.amount)
    def amount_cancel(event: KeyPressEvent) -> None:
        state.cancel()

    # --- the announcement ----------------------------------------------------------------------

    @at_table("5", "6", "7", when=m.announce)
    def announce_size(event: KeyPressEvent) -> None:
        state.announce_size(int(pressed(event)))

    @at_table(GAME_KEY, when=m.choosing_game)
    def announce_game(event: KeyPressEvent) -> None:
        state.announce_game()

    @at_table(MODE_KEY, when=m.announce)
    def announce_mode(event: KeyPressEvent) -> None:
        state.announce_mode()

    @at_table(CLOSING_KEY, when=m.announce)
    def announce_closing(event: KeyPressEvent) -> None:
        state.announce_closing()

    @at_table(WASH_PRICE_KEY, when=m.announce)
    def announce_price(event: KeyPressEvent) -> None:
        state.announce_price()

    @at_table("+", "-", when=m.announce)
    def announce_orbits(event: KeyPressEvent) -> None:
        state.announce_orbits(1 if pressed(event) == "+" else -1)

    @at_table("enter", when=m.announce)
    def announce_enter(event: KeyPressEvent) -> None:
        send(state.announce_enter())

    @at_table("escape", when=m.announce)
    def announce_defaults(event: KeyPressEvent) -> None:
        state.announce_defaults()

    # --- picking the cards to give or lay out ----------------------------------------------------

    @at_table(*DIGITS, when=m.picking)
    def pick(event: KeyPressEvent) -> None:
        state.pick(int(pressed(event)))

    @at_table("backspace", when=m.picking)
    def pick_back(event: KeyPressEvent) -> None:
        state.pick_back()

    @at_table("enter", when=m.picking)
    def pick_enter(event: KeyPressEvent) -> None:
        send(state.pick_enter())

    @at_table("escape", when=m.picking)
    def pick_clear(event: KeyPressEvent) -> None:
        state.cancel()

    @at_table(CLOAK_KEY, when=m.cloaking)
    def cloak(event: KeyPressEvent) -> None:
        send(state.cloak())

    @at_table(FLIP_KEY, when=m.flipping)
    def flip(event: KeyPressEvent) -> None:
        send(state.flip())

    @at_table(STAND_PAT_KEY, when=m.drawing)
    def stand_pat(event: KeyPressEvent) -> None:
        send(state.stand_pat())

    # --- declaring high, low or pig (a split-pot game) -------------------------------------------

    @at_table(*DECLARE_KEYS, when=m.declaring)
    def declare(event: KeyPressEvent) -> None:
        send(state.declare(DECLARE_KEYS[pressed(event)]))

    # --- the show after the declaration and the match of the pot (SPEC 3.18) ---------------------

    @at_table(SHOW_KEY, when=m.showing)
    def show_early(event: KeyPressEvent) -> None:
        send(state.show_early())

    @at_table(*MATCH_KEYS, when=m.matching)
    def match_pot(event: KeyPressEvent) -> None:
        send(state.match_pot(MATCH_KEYS[pressed(event)]))

    # --- choosing a partner among those who accepted ---------------------------------------------

    @at_table(*DIGITS, when=m.partner)
    def partner_pick(event: KeyPressEvent) -> None:
        send(state.choose_partner(int(pressed(event))))

    @at_table("escape", when=m.partner)
    def partner_back(event: KeyPressEvent) -> None:
        state.cancel()

    # --- playing ---------------------------------------------------------------------------------

    @at_table("enter", when=m.play)
    def next_hand(event: KeyPressEvent) -> None:
        if state.next_hand():
            client.next_hand()

    @at_table(*DIGITS, when=m.play, show=None)
    def pick_not_now(event: KeyPressEvent) -> None:
        state.pick(int(pressed(event)))  # says when numbers pick cards

    # --- the one-key actions, wherever their key is free -----------------------------------------

    def press_action(event: KeyPressEvent) -> None:
        kinds = _BY_KEY[pressed(event)]
        view = state.view
        # the key's action that is open now; else its first, whose reason says why not
        now = [kind for kind in kinds if view is not None and view.action(kind).legal]
        send(state.press((now or list(kinds))[0]))

    def close_and_press_action(event: KeyPressEvent) -> None:
        state.cancel()
        press_action(event)

    for k in _BY_KEY:
        in_amount, elsewhere = free(k, m.amount), free(k, m.action_key_open)
        at_table(k, when=in_amount, show=_ACTION)(close_and_press_action)
        at_table(k, when=elsewhere, show=_ACTION)(press_action)

    # --- a key that does nothing here: say which keys work now -----------------------------------

    def no_such_key(event: KeyPressEvent) -> None:
        now = [name for _, name, when in sorted(listed, key=lambda e: e[0]) if when()]
        state.say_keys(key_name(pressed(event)), _runs(dict.fromkeys(now)))

    for k, filters in list(uses.items()):
        # prompt_toolkit's own bindings would take some of these keys (Enter, Bksp, Ctrl-C).
        kb.add(k, filter=~_any_of(filters), eager=k == "escape")(no_such_key)
    # Every other key. prompt_toolkit tries a binding with <any> after every binding of the
    # key itself, whatever the order they were added in.
    kb.add(Keys.Any)(no_such_key)
    return kb


def _runs(names: Iterable[str]) -> list[str]:
    """The names with each run of consecutive digits written as one ("1-9")."""
    out: list[str] = []
    for name in names:
        run = out[-1] if out and out[-1][0].isdigit() else ""
        if name.isdigit() and run and int(name) == int(run[-1]) + 1:
            out[-1] = f"{run[0]}-{name}"
        else:
            out.append(name)
    return out
