"""The clock's humane side (SPEC 3.14, 7.5): the time bank, the pause and the arbiter's rulings,
as entries a session checks and applies, and what they do to each player's clock. Pure; no
I/O; time enters only as `now` parameters.

Time is not in the transcript. What the chain holds is each player's signed word: "add these
seconds from my time bank to my clock", "pause the table for at most this long", "resume",
and the arbiter's rulings. What a session checks, the verifier included, is that each is
within its bounds: a bank not overdrawn, a pause no longer than the table's limit and no more
pauses than each player has, a resume by the player who paused or the arbiter, a ruling signed
by the arbiter and within its own bounds. Each honest player's clock then runs by them: from
the head of a draw or an extension that seat's clock is longer by it; from the head of a pause
no clock runs and nobody votes until a resume, or until the pause has lasted its seconds.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.entry import Entry
from p2pwillow.ledger.errors import Reason
from p2pwillow.ledger.fields import Body
from p2pwillow.rules import NO_ARBITER, RulesError
from p2pwillow.session.checks import ADDED_CHECKS, Commit, Rejected
from p2pwillow.session.events import ClockNoted, SessionEvent
from p2pwillow.session.state import PauseState, SessionState, Timekeeping

ILLEGAL = Reason.ILLEGAL_ACTION

WARN_AT = 10
"""Seconds left on a clock from which a screen warns its player (SPEC 3.14)."""
BANK_STEP = 30
"""Seconds the client draws on its player's time bank (or the arbiter adds) with one key."""


# --- what the chain says --------------------------------------------------------------------------


def arbiter_of(st: SessionState) -> bytes | None:
    """The arbiter's identity key, from the genesis (SPEC 3.14): the key of the genesis seat
    the config names; None at a table without an arbiter."""
    seat = st.config.arbiter
    genesis = st.ledger.genesis
    if seat == NO_ARBITER or genesis is None:
        return None
    return genesis.identity_keys().get(seat)


def arbiter_seat(st: SessionState) -> int | None:
    """The seat the arbiter holds now (None if none, or if it has left)."""
    key = st.timekeeping.arbiter
    if key is None:
        return None
    return next((s for s, held in st.ledger.identities.items() if held == key), None)


def _key(st: SessionState, seat: int) -> bytes:
    key = st.ledger.identities.get(seat)
    if key is None:
        raise Rejected(ILLEGAL, f"seat {seat} is empty")
    return key


def bank_left(st: SessionState, seat: int) -> int:
    """Seconds left in `seat`'s time bank for this game."""
    key = st.ledger.identities.get(seat)
    if key is None:
        return 0
    return max(0, st.config.time_bank - st.timekeeping.bank_used.get(key, 0))


def grant_left(st: SessionState, seat: int) -> int:
    """Seconds the arbiter may still add to `seat`'s clock in this game (as much again as a
    time bank, SPEC 3.14)."""
    key = st.ledger.identities.get(seat)
    if key is None:
        return 0
    return max(0, st.config.time_bank - st.timekeeping.granted.get(key, 0))


def pauses_left(st: SessionState, seat: int) -> int:
    """Pauses `seat`'s player may still make in this game."""
    key = st.ledger.identities.get(seat)
    if key is None or not st.config.pause_limit:
        return 0
    return max(0, st.config.pauses - st.timekeeping.pauses_used.get(key, 0))


def on_clock(st: SessionState) -> tuple[int, ...]:
    """The seats the game waits for now, whose clocks run (SPEC 7.4, 7.5): every seat that
    owes a step, in the order the schedule names them."""
    return tuple(dict.fromkeys(d.seat for d in st.dues()))


# --- the checks (SPEC 3.14) ----------------------------------------------------------------------


def _open(st: SessionState) -> None:
    """Entries about the clock are taken from the first hand on (the ledger keeps them out of
    hand 0) until the game's end."""
    if st.ended is not None:
        raise Rejected(ILLEGAL, "the game has ended")


def _owes(st: SessionState, seat: int) -> None:
    if seat not in on_clock(st):
        raise Rejected(ILLEGAL, f"seat {seat} owes no step: its clock is not running")


def _arbiter(st: SessionState, author: int, what: str) -> None:
    key = st.timekeeping.arbiter
    if key is None:
        raise Rejected(ILLEGAL, f"this table has no arbiter to {what}")
    if st.ledger.identities.get(author) != key:
        raise Rejected(ILLEGAL, f"only the arbiter may {what}; seat {author} is not the arbiter")


def verify(st: SessionState, author: int, body: Body) -> Callable[[], object]:
    """Check `body` by `author` now (Rejected if it may not be placed) and return what applying
    it does to the chain's timekeeping. The entry checks and the local player's own moves both
    ask this, so that a player never sends what its peers will refuse."""
    _open(st)
    tk = st.timekeeping
    config = st.config
    if isinstance(body, k.TimeBank):
        _owes(st, author)
        key, left = _key(st, author), bank_left(st, author)
        if body.seconds > left:
            raise Rejected(
                ILLEGAL,
                f"seat {author}'s time bank holds {left} s of {config.time_bank}, "
                f"not {body.seconds}",
            )
        return lambda: _draw(tk, tk.bank_used, key, author, body.seconds)
    if isinstance(body, k.RulingExtend):
        _arbiter(st, author, "extend a seat's clock")
        _owes(st, body.seat)
        key, left = _key(st, body.seat), grant_left(st, body.seat)
        if body.seconds > left:
            raise Rejected(
                ILLEGAL,
                f"the arbiter may add {left} s more to seat {body.seat}'s clock in this game "
                f"(at most {config.time_bank}), not {body.seconds}",
            )
        return lambda: _draw(tk, tk.granted, key, body.seat, body.seconds)
    if isinstance(body, k.Pause):
        key = _key(st, author)
        if not config.pause_limit or not config.pauses:
            raise Rejected(ILLEGAL, "this table does not pause")
        if body.seconds > config.pause_limit:
            raise Rejected(
                ILLEGAL,
                f"a pause lasts at most {config.pause_limit} s, not {body.seconds}",
            )
        if not pauses_left(st, author):
            raise Rejected(ILLEGAL, f"seat {author} has made its {config.pauses} pauses")
        seq = st.ledger.head_seq + 1
        return lambda: _pause(tk, key, PauseState(author, seq, body.seconds))
    if isinstance(body, k.Resume):
        paused = tk.paused
        if paused is None:
            raise Rejected(ILLEGAL, "the table is not paused")
        if author != paused.seat and st.ledger.identities.get(author) != tk.arbiter:
            raise Rejected(
                ILLEGAL,
                f"seat {paused.seat} paused the table: it or the arbiter resumes it",
            )
        return lambda: _resume(tk)
    if isinstance(body, k.RulingSitIn):
        _arbiter(st, author, "sit a seat back in")
        if not st.between_hands:
            raise Rejected(ILLEGAL, "a seat sits back in only between hands")
        try:
            st.game.verify_sit_in(body.seat, ruling=True)
        except RulesError as exc:
            raise Rejected(ILLEGAL, str(exc)) from None
        return lambda: st.game.sit_in(body.seat, ruling=True)
    if isinstance(body, k.RulingEnd):
        _arbiter(st, author, "end the game")
        if tk.end_ruled is not None:
            raise Rejected(ILLEGAL, "the arbiter has ended the game already")
        return lambda: _end(tk, st.ledger.head_seq + 1)
    raise AssertionError(f"not an entry about the clock: {body.KIND}")  # pragma: no cover


def _draw(tk: Timekeeping, book: dict[bytes, int], key: bytes, seat: int, seconds: int) -> None:
    book[key] = book.get(key, 0) + seconds
    tk.extra[seat] = tk.extra.get(seat, 0) + seconds


def _pause(tk: Timekeeping, key: bytes, pause: PauseState) -> None:
    tk.pauses_used[key] = tk.pauses_used.get(key, 0) + 1
    tk.paused = pause


def _resume(tk: Timekeeping) -> None:
    tk.paused = None


def _end(tk: Timekeeping, seq: int) -> None:
    tk.end_ruled = seq


def check(st: SessionState, e: Entry) -> Commit:
    """The entry check of a clock kind (SPEC 3.14): Rejected, or the commit that applies it."""
    effect = verify(st, e.author, e.body)
    body = e.body
    seat = body.seat if isinstance(body, k.RulingExtend | k.RulingSitIn) else None
    seconds = body.seconds if isinstance(body, k.TimeBank | k.Pause | k.RulingExtend) else None
    noted = ClockNoted(e.seq, e.hand, e.kind, e.author, seat, seconds)

    def commit() -> list[SessionEvent]:
        effect()
        return [noted]

    return commit


ADDED_CHECKS.update(dict.fromkeys(k.CLOCK_KINDS, check))


def applied(st: SessionState, e: Entry) -> None:
    """After every entry: the stretch of the clock runs on across an entry about the clock and
    restarts at any other, with no extension yet (SPEC 7.5)."""
    tk = st.timekeeping
    tk.carries = e.kind in k.CLOCK_KINDS
    if not tk.carries:
        tk.extra.clear()


# --- each player's clock (SPEC 7.5) --------------------------------------------------------------


def allowed(st: SessionState, seat: int) -> float:
    """Seconds `seat`'s clock allows in this stretch: the action clock and its extensions."""
    return float(st.config.action_clock + st.timekeeping.extra.get(seat, 0))


def overdue(st: SessionState, seats: set[int]) -> set[int]:
    """Of `seats` (those a player would accuse), the ones whose clock has run out in this
    stretch: an extended seat is not accused before its longer clock is over."""
    elapsed = st.clock.elapsed
    return {s for s in seats if elapsed >= allowed(st, s)}


def deadline_passed(st: SessionState) -> bool:
    """An extended seat's clock ran out since this player last looked whom to accuse."""
    clock = st.clock
    for seat, extra in st.timekeeping.extra.items():
        end = allowed(st, seat)
        if extra and clock.voted_at < end <= clock.elapsed:
            return True
    return False


def seconds_left(st: SessionState, now: float | None) -> Mapping[int, float]:
    """Each seat on the clock with the seconds left on it at `now` (the clock as it ran at
    the last timer, and since then unless paused); empty for an observer or before the first
    hand. Seconds below zero mean the clock has run out and the witnesses vote."""
    clock, tk = st.clock, st.timekeeping
    if st.seat is None or st.ledger.hand == 0:
        return {}
    if clock.head != st.ledger.head_hash and not tk.carries:
        elapsed = 0.0  # a new stretch, its timer not run yet
    else:
        elapsed = clock.elapsed
        if now is not None and clock.last is not None and not clock.paused(tk.paused):
            elapsed += max(0.0, now - clock.last)
    return {s: allowed(st, s) - elapsed for s in on_clock(st)}


def paused_for(st: SessionState, now: float | None) -> float | None:
    """How long the pause in force has lasted at `now` on this player's clock (None if the
    table is not paused, or the pause has run out here)."""
    clock, paused = st.clock, st.timekeeping.paused
    if paused is None or not clock.paused(paused):
        return None
    if clock.pause_seq != paused.seq or now is None:
        return 0.0
    return max(0.0, now - clock.pause_since)


def ticks_for(st: SessionState) -> int:
    """How many more whole action clocks the longest extension and pause may take: the
    in-process table lets its virtual clock run this much longer before it calls a hand
    stalled."""
    config = st.config
    longest = 2 * config.time_bank + config.pause_limit
    return math.ceil(longest / config.action_clock)


__all__ = [
    "BANK_STEP",
    "WARN_AT",
    "allowed",
    "applied",
    "arbiter_of",
    "arbiter_seat",
    "bank_left",
    "check",
    "deadline_passed",
    "grant_left",
    "on_clock",
    "overdue",
    "paused_for",
    "pauses_left",
    "seconds_left",
    "ticks_for",
    "verify",
]
