"""What the screen is doing, apart from the screen: the panel open, the amount being typed,
the cards being picked, the draft announcement, the message to show. No I/O, no terminal.

The state reads a `TableView` and turns key presses (already named by the key bindings)
into decisions; it never touches the session, and the layout only draws it.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from p2pwillow.client import ClockMove, ClockOp, Decision, Notice
from p2pwillow.games import weeping_willow as ww
from p2pwillow.games.car_wash import WASH_PRICE
from p2pwillow.games.weeping_willow import TradingClose, TradingMode
from p2pwillow.rules import ActionKind, Announcement, ConfigError, GameSpec
from p2pwillow.tui.keymap import ACTION_KEYS, AMOUNT_ACTIONS, FLIP_KEY, SHOW_KEY, STAND_PAT_KEY
from p2pwillow.view import Link, TableView, WashView

MAX_DIGITS = 12


class Mode(enum.Enum):
    SEATING = "seating"
    """The safety code is shown; the person has not confirmed it yet."""
    ADMISSION = "admission"
    """A newcomer's admission is open: the new safety code is shown until everyone answered
    (SPEC 6.6)."""
    PLAY = "play"
    AMOUNT = "amount"
    """Typing the bet, the raise-to total or the offer size."""
    GIVE = "give"
    """Choosing the cards to give in an agreed trade."""
    LAYOUT = "layout"
    """Picking the cards to lay out, in reveal order."""
    DRAW = "draw"
    """Choosing the cards to discard in a draw game's draw (none: standing pat)."""
    ANNOUNCE = "announce"
    """The dealer's announcement form."""
    PARTNER = "partner"
    """Choosing whom to trade with among those who accepted the person's offer."""
    DECLARE = "declare"
    """Declaring high, low or pig in a split-pot game, sealed (SPEC 3.16)."""
    MATCH = "match"
    """Put to match the pot or fold, after showing early (SPEC 3.18)."""


PICKING = (Mode.GIVE, Mode.LAYOUT, Mode.DRAW)
"""The panels where digits pick the person's cards."""

_CLOSING_CYCLE = (
    TradingClose.ORBIT_WITHOUT_TRADE,
    TradingClose.ORBITS,
    TradingClose.DEALER_CALLS,
)
DEFAULT_ORBITS = 2
LEAVING = "you leave the table between hands, once no hand is running"


class ScreenState:
    """The client screen's state between key presses."""

    def __init__(self) -> None:
        self.view: TableView | None = None
        self.mode = Mode.SEATING
        self.help_open = False
        self.quit_asked = False
        self.end_asked = False
        """The "end the game?" question is open."""
        self.end_sent = False
        self.leave_asked = False
        """The "leave the table?" question is open."""
        self.leave_sent = False
        self.sit_in_asked = False
        """The person asked to sit in again: its node writes it as soon as the rules allow."""
        self.ended: str | None = None
        """Why the game is over, once the client says it is."""
        self.transcript: Path | None = None
        """Where the transcript is, for the line that says how to check it."""
        self.busy = False
        self.links: Mapping[int, Link] = {}
        self.seat_confirmed = False
        self.seat_answered = False
        self.admission_answered: str | None = None
        """The join (hash, hex) of the admission the person answered here."""
        self.message = ""
        self.message_is_error = False
        self._keys_said = False
        """The message says which keys work (`say_keys`)."""
        self._said_at: tuple[int, str] | None = None
        """The hand and stage the message was said in; None for a notice, which stays."""
        self._fold_asked: tuple[int, str] | None = None
        """The hand and stage where the person was asked whether to fold when checking is
        free (asked once there: the second fold key folds)."""
        self._show_asked: tuple[int, str] | None = None
        """The hand and stage where the person was told what showing early costs (the second
        show key there shows, SPEC 3.18)."""
        self.amount_kind: ActionKind | None = None
        self.amount_text = ""
        self.picked: list[int] = []
        """Card numbers as shown (1-based), in the order picked."""
        self.draft = Announcement.of(ww.WEEPING_WILLOW)
        self.orbits = DEFAULT_ORBITS
        self._sent_on: TableView | None = None
        self._notice_seen = 0
        self._mode_hand = -1
        self.clock: Callable[[], float] | None = None
        """The clock the client's views count on (the application's `time.monotonic`): the
        screen counts each countdown down from the view's time with it. None: no countdown
        runs between views."""
        self.wall: Callable[[], float] | None = None
        """The time of day, to say since when the table is paused (None: not said)."""

    # --- following the table -----------------------------------------------------------------

    def update(
        self,
        view: TableView,
        *,
        busy: bool,
        links: Mapping[int, Link],
        notice: Notice | None,
        seat_confirmed: bool,
        ended: str | None = None,
    ) -> None:
        """Take what the client shows now; open or close the panels the hand calls for."""
        if view is not self.view:
            self._sent_on = None
        self.view = view
        if view.sitting_out is None:
            self.sit_in_asked = False  # it plays again (or cannot): a later sit-out asks anew
        self.ended = ended
        if ended is not None:
            self.end_asked = self.leave_asked = False
        self.busy = busy
        self.links = links
        self.seat_confirmed = seat_confirmed
        if notice is not None and notice.serial > self._notice_seen:
            self._notice_seen = notice.serial
            if notice.text != ended:  # the end of the game has a panel of its own
                self._say(notice.text, error=True)
                self._said_at = None
        if self.message and self._said_at is not None and self._said_at != _moment(view):
            # what was said belongs to a step of the hand that is over: it goes
            self.clear_message()
        if not seat_confirmed:
            self.mode = Mode.SEATING
            return
        if view.admission is not None and ended is None:
            self.mode = Mode.ADMISSION  # a screen of its own until everyone has answered
            return
        if self.mode in (Mode.SEATING, Mode.ADMISSION):
            self.mode = Mode.PLAY
        if view is self._sent_on:
            return
        wanted = self._automatic(view)
        if wanted is not None:
            if self.mode is not wanted or self._mode_hand != view.hand:
                self._open(wanted, view.hand)
            return
        if self.mode in PICKING or self.mode in (Mode.ANNOUNCE, Mode.DECLARE, Mode.MATCH):
            self.mode = Mode.PLAY
        if self.mode is Mode.AMOUNT:
            kind = self.amount_kind
            if kind is None or not view.action(kind).legal:
                self.mode = Mode.PLAY
        if self.mode is Mode.PARTNER and not view.action(ActionKind.CHOOSE_PARTNER).legal:
            self.mode = Mode.PLAY

    @staticmethod
    def _automatic(view: TableView) -> Mode | None:
        """The panel a legal action opens by itself (these actions are due, not chosen)."""
        if view.action(ActionKind.ANNOUNCE).legal:
            return Mode.ANNOUNCE
        if view.action(ActionKind.CHOOSE_TRADE_CARDS).legal:
            return Mode.GIVE
        if view.action(ActionKind.LAY_OUT).legal:
            return Mode.LAYOUT
        if view.action(ActionKind.DRAW).legal:
            return Mode.DRAW
        if view.action(ActionKind.DECLARE).legal:
            return Mode.DECLARE
        if view.action(ActionKind.POT_MATCH).legal:
            return Mode.MATCH
        return None

    def _open(self, mode: Mode, hand: int) -> None:
        self.mode = mode
        self._mode_hand = hand
        self.picked = []
        if mode is Mode.ANNOUNCE:
            self.reset_draft()

    def _say(self, text: str, *, error: bool = False) -> None:
        self.message = text
        self.message_is_error = error
        self._keys_said = False
        self._said_at = None if self.view is None else _moment(self.view)

    def say_keys(self, key: str, keys: Sequence[str]) -> None:
        """`key` does nothing now: say which `keys` do."""
        self._say(f"{key} does nothing now; keys: {' '.join(keys)}", error=True)
        self._keys_said = True

    def forget_keys(self) -> None:
        """A key that works was pressed: the keys said for an earlier one go."""
        if self._keys_said:
            self.clear_message()

    def clear_message(self) -> None:
        self.message = ""
        self.message_is_error = False
        self._keys_said = False

    def _send(self, decision: Decision, words: str) -> Decision:
        self._sent_on = self.view
        self.mode = Mode.PLAY
        self.picked = []
        self.amount_kind = None
        self._say(words)
        return decision

    @property
    def sending(self) -> bool:
        """A decision was sent and the client has shown nothing newer since."""
        return self.view is not None and self.view is self._sent_on

    def _on_its_way(self) -> bool:
        if self.view is not None and self.view is self._sent_on:
            self._say("your decision is on its way")
            return True
        return False

    # --- help and quitting ---------------------------------------------------------------------

    def open_help(self) -> None:
        self.help_open = True

    def close_help(self) -> None:
        self.help_open = False

    def ask_quit(self) -> bool:
        """The quit key: True to leave at once (nothing is abandoned: `done`), else the
        question "leave the table?" opens."""
        if self.done:
            return True
        self.quit_asked = True
        return False

    def answer_quit(self, leave: bool) -> bool:
        """The answer to "leave the table?" after the quit key; True to leave now."""
        if not leave:
            self.quit_asked = False
        return leave

    # --- seating -------------------------------------------------------------------------------

    def answer_seat(self, same: bool) -> bool:
        """The person's answer to "does everyone see the same code?"; returns it to send."""
        self.seat_answered = True
        if same:
            self._say("taking your seat…")
        else:
            self._say("leaving the table: the safety codes differ", error=True)
        return same

    @property
    def admission_question(self) -> bool:
        """The newcomer's admission waits for this person's answer."""
        view = self.view
        if self.mode is not Mode.ADMISSION or view is None or view.admission is None:
            return False
        return view.admission.yours_due and self.admission_answered != view.admission.join

    def answer_admission(self, same: bool) -> bool:
        """The person's answer to "does everyone see the same new code?"; returns it to send."""
        view = self.view
        if view is not None and view.admission is not None:
            self.admission_answered = view.admission.join
            newcomer = view.admission.newcomer
            if view.admission.you_join:
                words = "taking your seat…" if same else "leaving the table: the codes differ"
            else:
                words = f"you admit {newcomer}" if same else f"you keep {newcomer} out"
            self._say(words, error=not same)
        return same

    # --- one-key actions -----------------------------------------------------------------------

    def press(self, kind: ActionKind) -> Decision | None:
        """The key of `kind` was pressed: a decision to send, or a panel opened, or the rules'
        reason why not shown."""
        view = self.view
        if view is None or self._on_its_way():
            return None
        action = view.action(kind)
        if not action.legal:
            self._say(action.reason, error=True)
            return None
        free = view.action(ActionKind.CHECK).legal
        if kind is ActionKind.FOLD and free and self._fold_asked != _moment(view):
            # folding where checking costs nothing is likely a slip: ask, once
            self._fold_asked = _moment(view)
            fold, check = ACTION_KEYS[ActionKind.FOLD], ACTION_KEYS[ActionKind.CHECK]
            self._say(f"checking is free: [{fold}] again folds anyway, [{check}] checks")
            return None
        if kind in AMOUNT_ACTIONS:
            self.mode = Mode.AMOUNT
            self.amount_kind = kind
            self.amount_text = "" if action.low is None else str(action.low)
            self.clear_message()
            return None
        if kind is ActionKind.DRAW:
            # the draw key draws the cards picked (the panel opens by itself)
            return self.pick_enter() if self.mode is Mode.DRAW else None
        if kind is ActionKind.CHOOSE_PARTNER:
            took = self.accepters
            if len(took) == 1:
                return self._trade_with(took[0])
            self.mode = Mode.PARTNER
            self.clear_message()
            return None
        if kind is ActionKind.CALL and action.amount is not None:
            words = f"you call {action.amount}"
        elif kind is ActionKind.ALL_IN:
            words = "you go all in"
        else:
            words = f"you {kind.value.replace('-', ' ')}"
        return self._send(Decision(kind), words)

    @property
    def accepters(self) -> tuple[int, ...]:
        """Who accepted the person's open offer so far, as the partner panel numbers them."""
        offer = None if self.view is None else self.view.offer
        return () if offer is None else offer.accepted

    def _trade_with(self, seat: int) -> Decision:
        name = "them" if self.view is None else self.view.name(seat)
        return self._send(
            Decision(ActionKind.CHOOSE_PARTNER, partner=seat), f"you trade with {name}"
        )

    def choose_partner(self, number: int) -> Decision | None:
        """Accepter `number` (as shown, from 1) chosen in the partner panel."""
        if self._on_its_way():
            return None
        took = self.accepters
        if not 1 <= number <= len(took):
            self._say(f"those who accepted are numbered 1 to {len(took)}", error=True)
            return None
        return self._trade_with(took[number - 1])

    def next_hand(self) -> bool:
        """The person asks for the next hand; True if there is one to ask for."""
        view = self.view
        if view is None or view.hand_running or not view.seated:
            self._say("a hand is running", error=True)
            return False
        if self.over:
            self._say(self.over_reason, error=True)
            return False
        self._say("dealing the next hand…")
        return True

    @property
    def over(self) -> bool:
        """The game is over: the client says so, or the chain does (`TableView.game_over`)."""
        return self.ended is not None or (self.view is not None and self.view.game_over)

    @property
    def done(self) -> bool:
        """Nothing is left to play on this screen: the client says the game is over for this
        seat (a hand the view shows running is one it is not dealt in: a newcomer refused,
        a seat that left, SPEC 6.6, 8.9), or the chain's game is over and no hand runs."""
        if self.ended is not None:
            return True
        return self.over and not (self.view is not None and self.view.hand_running)

    @property
    def over_reason(self) -> str:
        """Why the game is over, in the client's words or the view's; empty while it goes on."""
        if self.ended is not None:
            return self.ended
        return "" if self.view is None else self.view.over_reason

    def _no_game(self) -> bool:
        """A table key pressed with no game going on: say why and return True."""
        if self.view is None or not self.view.seated:
            self._say("the game has not started", error=True)
        elif self.over:
            self._say(self.over_reason or "the game is over already", error=True)
        else:
            return False
        return True

    def ask_end(self) -> None:
        """The end-the-game key: ask whether to end it (or say why not)."""
        if self._no_game():
            pass
        elif self.end_sent:
            self._say("the game ends after this hand", error=True)
        else:
            self.end_asked = True

    def answer_end(self, end: bool) -> bool:
        """The answer to "end the game?"; True to end it."""
        self.end_asked = False
        if end:
            self.end_sent = True
            running = self.view is not None and self.view.hand_running
            self._say("the game ends after this hand" if running else "ending the game…")
        return end

    def ruling_end(self) -> ClockMove | None:
        """The arbiter who ends the game while a hand runs rules it ended (SPEC 3.14), so that
        no seat deals another hand; None for anyone else, or between hands."""
        view = self.view
        c = None if view is None else view.clock
        if view is None or c is None or not c.you_arbiter or c.end_ruled:
            return None
        return ClockMove(ClockOp.END) if view.hand_running else None

    def ask_leave(self) -> None:
        """The leave key: ask whether to leave the table between hands (or say why not)."""
        if self._no_game():
            pass
        elif self.leave_sent:
            self._say(LEAVING, error=True)
        else:
            self.leave_asked = True

    def ask_sit_in(self) -> bool:
        """The sit-in key: True to send it; else say why not."""
        view = self.view
        if self._no_game() or view is None:
            return False
        if not view.may_sit_in:
            self._say(_no_sit_in(view), error=True)
            return False
        self.sit_in_asked = True
        self._say(sitting_in(view))
        return True

    # --- the clock (SPEC 3.14) -------------------------------------------------------------------

    def seconds_left(self, seat: int) -> float | None:
        """Seconds left on `seat`'s clock now (None if it does not run, or the client keeps no
        real time); it stands still while the table is paused."""
        view = self.view
        c = None if view is None else view.clock
        if c is None or c.at is None:
            return None
        left = c.seconds(seat)
        if left is None or c.paused or self.clock is None:
            return left
        return left - (self.clock() - c.at)

    def paused_for(self) -> float | None:
        """How long the table has been paused, now (None if it is not)."""
        view = self.view
        c = None if view is None else view.clock
        if c is None or c.paused_for is None:
            return None
        if c.at is None or self.clock is None:
            return c.paused_for
        return c.paused_for + max(0.0, self.clock() - c.at)

    def on_the_clock(self) -> int | None:
        """The seat whose decision the table waits for (the player's own first), if any."""
        view = self.view
        if view is None or not view.hand_running:
            return None
        deciding = [s.seat for s in view.seats if s.to_act]
        if view.you in deciding:
            return view.you
        return deciding[0] if deciding else None

    def ask_more_time(self) -> ClockMove | None:
        """The more-time key: more time from the player's own bank while it decides; the
        arbiter's ruling for the seat whose clock runs otherwise; or why not."""
        view = self.view
        if self._no_game() or view is None or view.clock is None:
            return None
        c = view.clock
        seat = self.on_the_clock()
        if seat is not None and seat == view.you:
            if not c.bank:
                self._say("your time bank is empty", error=True)
                return None
            self._say(f"{c.bank_step} s more on your clock ({c.bank - c.bank_step} s left)")
            return ClockMove(ClockOp.MORE_TIME)
        if seat is not None and c.you_arbiter:
            self._say(f"you give {view.name(seat)} more time (the arbiter's ruling)")
            return ClockMove(ClockOp.EXTEND, seat)
        self._say("more time is for your own turn (your time bank)", error=True)
        return None

    def ask_pause(self) -> ClockMove | None:
        """The pause key: pause the table, or resume it; or why not."""
        view = self.view
        if self._no_game() or view is None or view.clock is None:
            return None
        c = view.clock
        if c.paused_by is not None:
            if c.paused_by == view.you or c.you_arbiter:
                self._say("resuming the table…")
                return ClockMove(ClockOp.RESUME)
            who = view.name(c.paused_by)
            self._say(f"{who} paused the table: {who} or the arbiter resumes it", error=True)
            return None
        if not c.pause_limit:
            self._say("this table does not pause", error=True)
            return None
        if not c.pauses:
            self._say("you have made all your pauses in this game", error=True)
            return None
        self._say("pausing the table…")
        return ClockMove(ClockOp.PAUSE)

    def ruling_sit_in(self) -> ClockMove | None:
        """The sit-in key for the arbiter whose own seat may not sit in: the ruling that sits
        the first seat sitting out with chips back in (its `seat` None, and the message saying
        why, while a hand runs); None where the key means the player's own sit-in."""
        view = self.view
        if view is None or view.clock is None or not view.clock.you_arbiter or view.may_sit_in:
            return None
        out = [s for s in view.seats if s.sitting_out and s.stack and not s.you]
        if not out:
            return None
        if view.hand_running:
            self._say(f"{out[0].name} sits back in between hands: ask again then", error=True)
            return ClockMove(ClockOp.SIT_IN)
        self._say(f"you sit {out[0].name} back in (the arbiter's ruling)")
        return ClockMove(ClockOp.SIT_IN, out[0].seat)

    def answer_leave(self, leave: bool) -> bool:
        """The answer to "leave the table?"; True to leave."""
        self.leave_asked = False
        if leave:
            self.leave_sent = True
            self._say(LEAVING)
        return leave

    # --- the amount field ------------------------------------------------------------------------

    def _bounds(self) -> tuple[int | None, int | None]:
        if self.view is None or self.amount_kind is None:
            return None, None
        a = self.view.action(self.amount_kind)
        return a.low, a.high

    def amount_type(self, digit: str) -> None:
        if digit.isdigit() and len(self.amount_text) < MAX_DIGITS:
            self.amount_text = (self.amount_text + digit).lstrip("0") or "0"

    def amount_back(self) -> None:
        self.amount_text = self.amount_text[:-1]

    def amount_min(self) -> None:
        low, _ = self._bounds()
        if low is not None:
            self.amount_text = str(low)

    def amount_max(self) -> None:
        _, high = self._bounds()
        if high is not None:
            self.amount_text = str(high)

    def amount_enter(self) -> Decision | None:
        kind = self.amount_kind
        if kind is None or self._on_its_way():
            return None
        low, high = self._bounds()
        what = {
            ActionKind.BET: "a bet",
            ActionKind.RAISE: "a raise to",
            ActionKind.OFFER: "an offer",
        }
        unit = " cards" if kind is ActionKind.OFFER else ""
        if not self.amount_text.isdigit():
            self._say(f"type {what[kind]} of {low} to {high}{unit}", error=True)
            return None
        n = int(self.amount_text)
        if low is None or high is None or not low <= n <= high:
            self._say(f"{what[kind]} is {low} to {high}{unit}, not {n}", error=True)
            return None
        if kind is ActionKind.OFFER:
            return self._send(Decision(kind, k=n), f"you offer {n} card{'s' * (n > 1)}")
        verb = "bet" if kind is ActionKind.BET else "raise to"
        return self._send(Decision(kind, amount=n), f"you {verb} {n}")

    def cancel(self) -> None:
        """Esc: close the amount field; in the card panels, unpick everything."""
        if self.mode in (Mode.AMOUNT, Mode.PARTNER):
            self.mode = Mode.PLAY
            self.amount_kind = None
        self.picked = []
        self.clear_message()

    # --- picking cards -------------------------------------------------------------------------

    def _give_size(self) -> int:
        view = self.view
        low = None if view is None else view.action(ActionKind.CHOOSE_TRADE_CARDS).low
        return 0 if low is None else low

    def pick(self, number: int) -> None:
        """Card `number` (as shown, from 1) pressed while giving, laying out or drawing."""
        view = self.view
        if view is None or self.mode not in PICKING:
            if view is not None and view.draw_most:
                self._say("numbers pick the cards to discard in the draw", error=True)
            else:
                self._say("numbers pick cards when you give them or lay out", error=True)
            return
        count = len(view.wash.cards) if view.wash is not None else len(view.cards)
        if not 1 <= number <= count:
            self._say(f"your cards are numbered 1 to {count}", error=True)
            return
        self.clear_message()
        if number in self.picked:
            self.picked.remove(number)
            return
        if self.mode is Mode.DRAW and view.wash is not None:
            wash = view.wash
            most = wash.most
            if most == 1 and wash.flip is not None:
                # the flip takes a face-down and a face-up card: one of each kind picked, the
                # last pressed of its kind (Enter washes only one, and says so)
                down = wash.is_down(number - 1)
                self.picked = [n for n in self.picked if wash.is_down(n - 1) != down] + [number]
                return
            if most == 1:
                self.picked = [number]  # one card to wash: the last pressed
                return
            if len(self.picked) >= most:
                # refused, not replaced: the person sees which cards stay picked
                self._say(
                    f"you may wash {most} cards now: press a picked card again to keep it",
                    error=True,
                )
                return
            self.picked.append(number)
            return
        if self.mode is Mode.DRAW:
            most = self.draw_most()
            if len(self.picked) >= most:
                self._say(
                    f"you may discard at most {most} cards: press a picked card again to keep it",
                    error=True,
                )
                return
            self.picked.append(number)
            return
        limit = self._give_size() if self.mode is Mode.GIVE else self._layout_size()
        if len(self.picked) >= limit:
            self._say(f"{limit} are picked: press a picked card again to put it back", error=True)
            return
        self.picked.append(number)

    def _layout_size(self) -> int:
        view = self.view
        low = None if view is None else view.action(ActionKind.LAY_OUT).low
        return 5 if low is None else low

    def draw_most(self) -> int:
        """The most cards the person may discard in the draw now."""
        view = self.view
        high = None if view is None else view.action(ActionKind.DRAW).high
        return 0 if high is None else high

    def stand_pat(self) -> Decision | None:
        """The stand-pat key in the draw: discard nothing."""
        if self.mode is not Mode.DRAW or self._on_its_way():
            return None
        words = "you keep your cards" if self.view and self.view.wash else "you stand pat"
        return self._send(Decision(ActionKind.DRAW, positions=()), words)

    def pick_back(self) -> None:
        if self.picked:
            self.picked.pop()

    def pick_enter(self) -> Decision | None:
        view = self.view
        if view is None or self._on_its_way():
            return None
        if self.mode is Mode.DRAW and view.wash is not None:
            return self._wash_enter(view.wash)
        positions = tuple(view.cards[n - 1].position for n in self.picked)
        if self.mode is Mode.GIVE:
            k = self._give_size()
            if len(positions) != k:
                self._say(f"pick {k} cards to give ({len(positions)} picked)", error=True)
                return None
            words = f"you give {k} card{'s' * (k > 1)}"
            return self._send(Decision(ActionKind.CHOOSE_TRADE_CARDS, positions=positions), words)
        if self.mode is Mode.LAYOUT:
            size = self._layout_size()
            if len(positions) != size:
                picked = len(positions)
                self._say(f"pick {size} cards in reveal order ({picked} picked)", error=True)
                return None
            return self._send(
                Decision(ActionKind.LAY_OUT, positions=positions), f"you lay out {size} cards"
            )
        if self.mode is Mode.DRAW:
            n = len(positions)
            if not n:
                self._say(
                    f"pick the cards to discard, or [{STAND_PAT_KEY}] to stand pat", error=True
                )
                return None
            words = f"you discard {n} card{'s' * (n > 1)} and draw {n}"
            return self._send(Decision(ActionKind.DRAW, positions=tuple(sorted(positions))), words)
        return None

    def _wash_enter(self, wash: WashView) -> Decision | None:
        """Enter at a wash: the cards picked (numbered as the wash names them: face down
        first, then face up), or a word when none is picked."""
        picked = sorted(n for n in self.picked if n <= len(wash.cards))
        if not picked:
            what = "a card" if wash.most < 2 else f"up to {wash.most} cards"
            self._say(f"pick {what} to wash, or [{STAND_PAT_KEY}] to keep your cards", error=True)
            return None
        if len(picked) > wash.most and wash.flip is not None:
            # a face-down and a face-up card picked: what the flip takes, more than a wash
            self._say(
                f"[{FLIP_KEY}] flips these two, or press one again to wash the other", error=True
            )
            return None
        positions = tuple(n - 1 for n in picked)
        return self._send(
            Decision(ActionKind.DRAW, positions=positions), wash_words(wash, positions)
        )

    def _offering(
        self, kind: ActionKind, price: Callable[[WashView], int | None], what: str
    ) -> WashView | None:
        """The wash now, where its panel offers `kind` (the cloak, the flip: `price` of the
        wash, None where it offers none) and the action is legal; else None, said why."""
        view = self.view
        if view is None or view.wash is None or self.mode is not Mode.DRAW:
            return None
        if self._on_its_way():
            return None
        action = view.action(kind)
        if price(view.wash) is None or not action.legal:
            self._say(action.reason or f"this wash offers no {what}", error=True)
            return None
        return view.wash

    def cloak(self) -> Decision | None:
        """The cloak key at a wash: the one face-up card picked washed and replaced face down
        (SPEC 3.17, Go for Broke), at the cloak's price."""
        wash = self._offering(ActionKind.CLOAK, lambda w: w.cloak, "cloak")
        if wash is None:
            return None
        picked = [n - 1 for n in self.picked if n <= len(wash.cards)]
        if len(picked) != 1 or wash.is_down(picked[0]):
            self._say("pick one card showing to cloak: another comes face down", error=True)
            return None
        position = picked[0]
        card = wash.cards[position]
        pays = f"pay {wash.cloak} and " if wash.cloak else ""
        words = f"you {pays}cloak {card}: another comes face down"
        return self._send(Decision(ActionKind.CLOAK, positions=(position,)), words)

    def flip(self) -> Decision | None:
        """The flip key at a wash: the face-down card picked turned face up and the face-up
        card picked washed, another dealt face down (SPEC 3.17, Five by Two), at the price of
        a face-up card."""
        wash = self._offering(ActionKind.FLIP, lambda w: w.flip, "flip")
        if wash is None:
            return None
        picked = sorted(n - 1 for n in self.picked if n <= len(wash.cards))
        if len(picked) != 2 or not wash.is_down(picked[0]) or wash.is_down(picked[1]):
            self._say("pick a face-down card to turn up and a face-up card to wash", error=True)
            return None
        down, up = (wash.cards[x] for x in picked)
        pays = f"pay {wash.flip} and " if wash.flip else ""
        words = f"you {pays}flip {down} face up, wash {up}: another comes face down"
        return self._send(Decision(ActionKind.FLIP, positions=(picked[0], picked[1])), words)

    # --- the declaration -------------------------------------------------------------------------

    def declare(self, choice: str) -> Decision | None:
        """A declaration key in the declaration panel: the choice sealed (SPEC 3.16); nobody
        sees it until every player still in has sealed theirs."""
        if self.mode is not Mode.DECLARE or self._on_its_way():
            return None
        action = None if self.view is None else self.view.action(ActionKind.DECLARE)
        if action is None or not action.legal:
            self._say(action.reason if action is not None else "no declaration now", error=True)
            return None
        return self._send(
            Decision(ActionKind.DECLARE, choice=choice),
            f"you declare {choice}: sealed until everyone has declared",
        )

    # --- the show after the declaration, and the match of the pot (SPEC 3.18) ---------------------

    def show_early(self) -> Decision | None:
        """The show key in the bet after the declaration: the first press names what showing
        costs, a second press (at the same moment of the hand) shows."""
        view = self.view
        if view is None or self._on_its_way():
            return None
        action = view.action(ActionKind.EARLY_SHOW)
        if not action.legal:
            self._say(action.reason, error=True)
            return None
        if self._show_asked != _moment(view):
            self._show_asked = _moment(view)
            self._say(
                f"showing now means match the pot ({action.amount} chips) or fold: "
                f"[{SHOW_KEY}] again shows your cards",
                error=True,
            )
            return None
        return self._send(
            Decision(ActionKind.EARLY_SHOW), "you show your cards: now match the pot or fold"
        )

    def match_pot(self, match: bool) -> Decision | None:
        """An answer key in the match panel: match the pot, or fold."""
        if self.mode is not Mode.MATCH or self._on_its_way():
            return None
        action = None if self.view is None else self.view.action(ActionKind.POT_MATCH)
        if action is None or not action.legal:
            self._say(action.reason if action is not None else "no match owed now", error=True)
            return None
        words = f"you match the pot: {action.amount}" if match else "you fold"
        return self._send(Decision(ActionKind.POT_MATCH, match=match), words)

    # --- the announcement ------------------------------------------------------------------------

    def reset_draft(self) -> None:
        """The announcement form at its defaults: the table's first game, its own defaults,
        the largest deal that fits where the default does not."""
        view = self.view
        games = () if view is None else view.games
        self.orbits = DEFAULT_ORBITS
        self._draft_game(games[0] if games else ww.WEEPING_WILLOW)

    def _draft_game(self, game: GameSpec) -> None:
        draft = Announcement.of(game)
        sizes = () if self.view is None else self.view.deal_sizes
        if "deal_size" in draft.options and sizes and draft.number("deal_size") not in sizes:
            draft = Announcement.of(game, deal_size=sizes[-1])
        self.draft = draft

    def announce_game(self) -> None:
        """The next of the games this table plays."""
        view = self.view
        games = () if view is None else view.games
        if len(games) < 2:
            self._say(f"this table plays {self.draft.game.title} only", error=True)
            return
        i = games.index(self.draft.game) if self.draft.game in games else -1
        self._draft_game(games[(i + 1) % len(games)])
        self.clear_message()

    def announce_size(self, size: int) -> None:
        view = self.view
        if "deal_size" not in self.draft.options:
            self._say(f"{self.draft.game.title} has no deal size to choose", error=True)
            return
        if view is not None and size not in view.deal_sizes:
            self._say(f"a {size}-card deal does not fit this many players", error=True)
            return
        self._redraft(deal_size=size)

    def announce_price(self) -> None:
        """The price of a wash one ante up, and after the most the game takes back to free
        (Car Wash's option `wash_price`, SPEC 3.13.17)."""
        option = next((o for o in self.draft.game.options if o.name == WASH_PRICE.name), None)
        if option is None:
            self._say(f"{self.draft.game.title} has no price of a wash to set", error=True)
            return
        price = self.draft.number(option.name)
        self._redraft(wash_price=option.low if price >= option.high else price + 1)

    def _trading(self) -> ww.Setup | None:
        if self.draft.game is not ww.WEEPING_WILLOW:
            self._say(f"{self.draft.game.title} has no trading", error=True)
            return None
        return ww.Setup.of(self.draft)

    def announce_mode(self) -> None:
        setup = self._trading()
        if setup is None:
            return
        if setup.mode is TradingMode.IN_TURN:
            self._redraft(trading_mode=TradingMode.FREE, closing=TradingClose.DEALER_CALLS)
        else:
            self._redraft(
                trading_mode=TradingMode.IN_TURN, closing=TradingClose.ORBIT_WITHOUT_TRADE
            )

    def announce_closing(self) -> None:
        setup = self._trading()
        if setup is None:
            return
        if setup.mode is TradingMode.FREE:
            self._say("free trading closes only when the dealer calls it", error=True)
            return
        i = _CLOSING_CYCLE.index(setup.closing)
        self._redraft(closing=_CLOSING_CYCLE[(i + 1) % len(_CLOSING_CYCLE)])

    def announce_orbits(self, step: int) -> None:
        setup = self._trading()
        if setup is None:
            return
        if setup.closing is not TradingClose.ORBITS:
            self._say("set orbits only when trading closes after a number of them", error=True)
            return
        self.orbits = max(1, min(100, self.orbits + step))
        self._redraft()

    def _redraft(
        self,
        *,
        deal_size: int | None = None,
        trading_mode: TradingMode | None = None,
        closing: TradingClose | None = None,
        wash_price: int | None = None,
    ) -> None:
        d = self.draft
        options = d.options
        if deal_size is not None:
            options["deal_size"] = deal_size
        if wash_price is not None:
            options[WASH_PRICE.name] = wash_price
        if d.game is ww.WEEPING_WILLOW:
            setup = ww.Setup.of(d)
            closing = setup.closing if closing is None else closing
            mode = setup.mode if trading_mode is None else trading_mode
            options["trading_mode"] = mode.value
            options["closing"] = closing.value
            options["orbits"] = self.orbits if closing is TradingClose.ORBITS else 0
        try:
            self.draft = Announcement.of(d.game, **options)
        except ConfigError as exc:
            self._say(str(exc), error=True)
            return
        self.clear_message()

    def announce_defaults(self) -> None:
        """Esc in the announcement: back to the table's defaults."""
        self.cancel()
        self.reset_draft()

    def announce_enter(self) -> Decision | None:
        if self.mode is not Mode.ANNOUNCE or self._on_its_way():
            return None
        return self._send(
            Decision(ActionKind.ANNOUNCE, announcement=self.draft), "you announce the game"
        )


def wash_words(wash: WashView, positions: Sequence[int]) -> str:
    """What the person is told it does at a wash of the cards at `positions` (the wash's own
    numbering), with the price they cost, none named where the wash is free (Car Wash)."""
    named = [
        f"{wash.cards[x]} ({'face down' if wash.is_down(x) else 'face up'})" for x in positions
    ]
    paid = sum(wash.chips(x) for x in positions)
    pays = f"pay {paid} and " if paid else ""
    return f"you {pays}wash {' and '.join(named)}"


def sitting_in(view: TableView) -> str:
    """What the sit-in key will do (SPEC 3.11): from which hand the seat plays again."""
    out = view.sitting_out
    if out is None:
        return "you play again from the next hand"
    return f"sitting you back in: you play again from hand {out.back_from}"


def _no_sit_in(view: TableView) -> str:
    """Why the person's seat may not sit in between hands (SPEC 3.11)."""
    mine = view.mine
    if mine is None or not mine.sitting_out:
        return "you do not sit out"
    return "you have no chips: leave the table and buy in again"


SITTING_OUT = (-1, "")
"""The moment of a person whose seat is in no hand (sitting out, or watching before its first):
the hands it watches are not its steps."""


def _moment(view: TableView) -> tuple[int, str]:
    """The step of the game a view shows: its hand and stage ("round 2: betting"). For a
    person whose seat is not in the hand (`SITTING_OUT`) it is one moment however many hands
    the others play, so that what they were told ("you play again from hand 3") stays until
    they are dealt in again; the bots' hands in between can be over in a second."""
    mine = view.mine
    if mine is None or not mine.in_hand:
        return SITTING_OUT
    return (view.hand, view.stage)
