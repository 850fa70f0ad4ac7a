"""The seat's own policy: when it deals the next hand, ends the game, leaves, sits in.

Pure: no I/O, no clock (time comes in as `now`), no randomness. The live node (`net/node.py`)
and the in-process table (`inprocess.py`) both ask it what their seat does next.
"""

# Theory of operation
# -------------------
# Like the session itself (and aioquic's connection), the policy is sans-I/O: a driver feeds
# it the seat's `Session`, what the player wants (`Wishes`) and the time, and it answers with
# the next thing the seat does (`Move`); the driver makes the Session call, keeps and sends
# what it made, and asks again, until the policy has nothing more (None) or says to wait or
# stop. The questions are asked in one order, the node's:
#
#   1. this seat's `leave` is in the chain: the seat stops (LEFT_TABLE);
#   2. the game is over (`game_over`, the one rule): the seat writes the `game_end` (the
#      person asked: at once; the hands played: the sequencer at once, every other seat
#      `end_grace` later, so that a sequencer gone silent does not keep the game open, SPEC
#      7.5), then waits until every seat signed it, then stops;
#   3. a newcomer's admission is open (SPEC 6.6, 8.9): the seat answers it as its player did
#      (a bot admits at once; a person once they compared the code), and refuses it once it
#      has been open ADMIT_WITHIN; a newcomer refused stops;
#   4. the player wants to leave: the seat writes its `leave` between hands;
#   5. the seat sits out and its player wants to play: it writes its `sit_in` (a hand running
#      or not: it plays from the next one);
#   6. this seat deals the next hand and may: it starts it, `deal_grace` after the last one
#      ended (a courtesy, SPEC 8.9: another seat's game end or leave written at that moment
#      reaches the sequencer first and is placed before the hand, rather than refused).
#
# Each write is made once per head (a game end binds the head) or once per hand (a leave, a
# sit in): one the sequencer refused because the state moved is written again once the state
# has moved on, never in a loop. The policy keeps that bookkeeping; nothing else does.

from __future__ import annotations

import enum
from dataclasses import dataclass

from p2pwillow.rules import IllegalAction, RulesError
from p2pwillow.session import Output, Session

__all__ = [
    "ADMIT_WITHIN",
    "CODES_DIFFER",
    "DEAL_GRACE",
    "ENDED_AWAY",
    "ENDED_BY",
    "ENDED_BY_ARBITER",
    "ENDED_BY_YOU",
    "END_GRACE",
    "HAS_ALL",
    "JOIN_GRACE",
    "JOIN_WAIT",
    "LEFT_TABLE",
    "NOBODY_LEFT",
    "OTHERS_LEFT",
    "TABLE_STOPPED",
    "ClockMove",
    "ClockOp",
    "Do",
    "Ending",
    "Move",
    "SeatPolicy",
    "Why",
    "Wishes",
    "away_at_end",
    "clock_call",
    "end_reason",
    "ending",
    "game_over",
    "hands_played",
    "not_admitted",
    "not_in_time",
    "table_stopped",
]

DEAL_GRACE = 0.3
"""A next dealer waits this long once no hand is running before it deals: a game end or a leave
another seat wrote at the same moment then reaches the sequencer first and is placed first,
rather than refused because the next hand started (the sequencer orders both, SPEC 6.6)."""
JOIN_GRACE = 3.0
"""A next dealer that knows of a newcomer not joined yet waits this long once no hand is
running before it deals: the newcomer, catching up while hands follow one another at a
table of bots, writes its join once the table is still (SPEC 8.9). Bounded, so that a
newcomer that never joins slows each hand by this at most, until its peers drop it."""
JOIN_WAIT = 30.0
"""While the newcomer reports a head behind this seat's (it checks every proof of the hands it
missed, and a loaded laptop checks slowly), the next dealer waits for it, JOIN_GRACE more once
it has caught up, but no longer than this once no hand is running: else a newcomer slower than
the bots would catch up only to find the next hand started, hand after hand (SPEC 8.9). A
newcomer that says it is behind and never joins costs each hand this at most, until its peers
drop it (JOIN_WITHIN)."""
ADMIT_WITHIN = 120.0
"""A newcomer's admission stays open this long at most, as each seat saw it open: then the
seat refuses it (SPEC 8.9), so that nobody, absent or silent, holds the table up for longer."""
CODES_DIFFER = "the safety codes did not match"
"""Why a person's seat refuses a newcomer they compared the code with."""
END_GRACE = 1.0
"""Once the hands are played, a seat that does not sequence waits this long before it writes
the game end too: the sequencer's own normally comes first and the rest are refused; if the
sequencer is gone, the witnessed clock replaces it on the game ends it sits on (SPEC 7.5)."""

# Why a game is over, or over for this seat: one set of texts for every driver, each the true
# reason (SPEC 3.11: the hands are played, fewer than two players have chips, or a player ended
# it).
ENDED_BY_YOU = "the game is over: you ended it"
ENDED_BY = "the game is over: {name} ended it"
HAS_ALL = "the game is over: {name} {has} all the chips"
OTHERS_LEFT = "the game is over: {name} {is_} the only player left at the table"
NOBODY_LEFT = "the game is over: no player at the table has chips"
TABLE_STOPPED = (
    "the game is over for you: you refused a false claim{signed} that no quorum can "
    "overrule; your transcript ends with the last hand void and every stack as at its start"
)
ENDED_BY_ARBITER = "the game is over: the arbiter ended it"
ENDED_AWAY = (
    "the game ended while this seat was away: it caught up the end the others signed "
    "(its own signature excused by their clocks)"
)
"""Said before the reason by a node that was stopped (a laptop asleep) past the end of the
game and caught it up from its peers (SPEC 8.9)."""
LEFT_TABLE = "you left the table after hand {hand}; the game goes on without you"
"""What `Client.ended` says once the person's seat has left (`Client.leave_table`)."""


def not_in_time(seconds: float) -> str:
    """Why a seat refuses a newcomer whose admission stayed open too long."""
    return f"not everyone confirmed the new safety code within {seconds:g} s"


def not_admitted(author: str, reason: str, *, you: bool) -> str:
    """What a newcomer is told when the table did not take it (SPEC 6.6)."""
    if you:
        return f"you left the table: {reason}"
    return f"the table did not take you: {author} refused ({reason})"


class ClockOp(enum.Enum):
    """A move about the clock (SPEC 3.14): the player's own, or the arbiter's ruling."""

    MORE_TIME = "more time"
    """Draw on the player's time bank: its clock runs longer."""
    PAUSE = "pause"
    """Pause the table (every clock stops) for at most the table's pause limit."""
    RESUME = "resume"
    """Resume the paused table (the player who paused it, or the arbiter)."""
    EXTEND = "extend"
    """The arbiter: `seat`'s clock runs longer."""
    SIT_IN = "sit in"
    """The arbiter, between hands: `seat` plays again from the next hand."""
    END = "end"
    """The arbiter: the game ends once no hand is running."""


@dataclass(frozen=True, slots=True)
class ClockMove:
    op: ClockOp
    seat: int | None = None
    """The seat an arbiter's ruling is about (EXTEND, SIT_IN)."""


def clock_call(s: Session, move: ClockMove) -> Output:
    """The Session call that makes `move` for its seat (IllegalAction, nothing sent, if the
    table would refuse it: the reason in a person's words)."""
    if move.op is ClockOp.MORE_TIME:
        return s.more_time()
    if move.op is ClockOp.PAUSE:
        return s.pause()
    if move.op is ClockOp.RESUME:
        return s.resume()
    if move.op is ClockOp.END:
        return s.rule_end()
    if move.seat is None:
        raise IllegalAction(f"{move.op.value}: which seat?")
    if move.op is ClockOp.EXTEND:
        return s.rule_extend(move.seat)
    return s.rule_sit_in(move.seat)


def hands_played(limit: int) -> str:
    """Why the game is over once its hand limit is reached."""
    return f"the game is over: {limit} hand{'s' * (limit > 1)} played"


class Why(enum.StrEnum):
    """Why a game is over (SPEC 3.11), as `willow verify --json` names it (`end_reason`)."""

    HANDS_PLAYED = "hands-played"
    ONE_HAS_CHIPS = "one-has-chips"
    NOBODY_HAS_CHIPS = "nobody-has-chips"
    ENDED_BY_PLAYER = "ended-by-player"
    ENDED_BY_ARBITER = "ended-by-arbiter"


@dataclass(frozen=True, slots=True)
class Ending:
    """Why a game is over: `why`, the seat it names (who has the chips, who ended it; None
    for the hands played) and the words a person reads."""

    why: Why
    seat: int | None
    text: str


def ending(s: Session, *, hands: int = 0) -> Ending | None:
    """Why the game is over as the chain alone shows it, or None while it goes on: its hands
    are played (the table's `hands`, else `hands`, the roster's, SPEC 8.9); fewer than two
    players have chips (a seat sitting out counts: it may sit in again, SPEC 3.11); or a
    `game_end` is in the chain, written by a player who ended it. Only between hands (or once
    the game has ended). The one place that says why a game is over, in the words a person
    reads; `willow verify` gives the same reasons (`end_reason` of its report)."""
    ended = s.state.ended
    if not s.between_hands and ended is None:
        return None
    if s.end_ruled:
        return Ending(Why.ENDED_BY_ARBITER, None, ENDED_BY_ARBITER)
    limit = s.config.hands or hands
    if limit and s.hand_number >= limit:
        return Ending(Why.HANDS_PLAYED, None, hands_played(limit))
    players = s.game.players
    with_chips = [p for p in players if p.stack > 0]
    if s.seated and len(with_chips) < 2:
        if not with_chips:
            return Ending(Why.NOBODY_HAS_CHIPS, None, NOBODY_LEFT)
        seat = with_chips[0].seat
        name = _named(s, seat)
        you = name == "you"
        if len(players) > 1:
            text = HAS_ALL.format(name=name, has="have" if you else "has")
        else:
            text = OTHERS_LEFT.format(name=name, is_="are" if you else "is")
        return Ending(Why.ONE_HAS_CHIPS, seat, text)
    if ended is not None:
        if ended.author is not None and ended.author == s.seat:
            return Ending(Why.ENDED_BY_PLAYER, ended.author, ENDED_BY_YOU)
        author = "a player" if ended.author is None else _named(s, ended.author)
        return Ending(Why.ENDED_BY_PLAYER, ended.author, ENDED_BY.format(name=author))
    return None


def end_reason(s: Session, *, hands: int = 0) -> str | None:
    """Why the game is over, in the words a person reads (`ending`), or None."""
    end = ending(s, hands=hands)
    return None if end is None else end.text


def away_at_end(s: Session) -> bool:
    """The game has ended and this seat's signature of its end was excused by the others'
    clocks: the seat was away (stopped, asleep) when it ended, and caught the end up."""
    ended = s.state.ended
    return ended is not None and s.seat is not None and s.seat in ended.excused


def _named(s: Session, seat: int) -> str:
    """A seat's player as a message names it: "you" for the session's own seat."""
    return "you" if seat == s.seat else s.names().get(seat, f"seat {seat}")


def game_over(s: Session, *, hands: int, end_wanted: bool) -> str | None:
    """Why the game ends now, or None while it goes on: the one rule that says when a game is
    over (change it here, and only here).

    Only between hands (or once a `game_end` is in the chain, whoever wrote it): the player
    asked to end it (`end_wanted`); or `end_reason`: the arbiter ruled it ended (SPEC 3.14),
    the hands are played (the table's `hands`, else `hands`; 0: no limit), fewer than two
    players have chips, a seat sitting out counting (it can sit in again: while two have
    chips, the game waits for it rather than end), or another seat ended it."""
    if not s.between_hands and not s.ended:
        return None
    if end_wanted and not s.ended:
        return ENDED_BY_YOU
    return end_reason(s, hands=hands)


@dataclass(frozen=True, slots=True)
class Wishes:
    """What the seat's player wants now. A bot wants to deal and to sit in, always."""

    deal: bool = False
    """Deal the next hand when this seat deals it (the first hand is dealt unasked)."""
    end: bool = False
    """End the game (between hands: at once; else once the hand is over)."""
    leave: bool = False
    """Leave the table between hands, the game going on (SPEC 3.11)."""
    sit_in: bool = False
    """Play again after sitting out, once the rules allow (SPEC 3.11)."""
    newcomer_coming: bool = False
    """Not a wish: the host has announced a newcomer whose `join` is not in the chain yet
    (SPEC 8.9); a next dealer gives it JOIN_GRACE to write it between hands."""
    newcomer_behind: bool = False
    """Not a wish: such a newcomer reports a head behind this seat's: the next dealer waits
    for it to catch up (JOIN_WAIT at most)."""
    admit: bool | None = None
    """The player's answer to the newcomer's admission open now (SPEC 6.6): True, everyone
    saw the same safety code; False, they did not; None, not answered yet. A bot's is True."""


class Do(enum.Enum):
    """What the seat does next."""

    END_GAME = "end_game"
    """Write the `game_end` (`Session.end_game`); IllegalAction from it means the state moved."""
    LEAVE = "leave"
    """Write this seat's `leave` (`Session.leave`); IllegalAction: the rules refuse it, the
    wish is dropped. Nothing more this step either way."""
    SIT_IN = "sit_in"
    """Write this seat's `sit_in` (`Session.sit_in`); IllegalAction means the state moved."""
    DEAL = "deal"
    """Start the next hand (`Session.start_hand`)."""
    ADMIT = "admit"
    """Admit the newcomer (`Session.admit`); IllegalAction means the state moved."""
    REFUSE = "refuse"
    """Refuse the newcomer for `Move.reason` (`Session.refuse`); IllegalAction means the
    state moved."""
    WAIT = "wait"
    """The game is over and its end not yet signed by every seat: nothing more this step
    (no hand, no decision)."""
    STOP = "stop"
    """The game is over and complete, or this seat left: the driver stops (`Move.reason`)."""


@dataclass(frozen=True, slots=True)
class Move:
    do: Do
    reason: str = ""
    """Why the game is over (END_GAME, WAIT, STOP) or why this seat stops (STOP)."""
    left: bool = False
    """STOP: this seat's `leave` is in the chain (the game goes on without it)."""
    refused: bool = False
    """STOP: this seat joined and was refused (`left`: it refused the table itself, SPEC
    6.6)."""


_LEAVE = Move(Do.LEAVE)
_SIT_IN = Move(Do.SIT_IN)
_DEAL = Move(Do.DEAL)


class SeatPolicy:
    """One seat's own policy (see the top of this module), for one seat's session.

    `hands` ends the game after that many hands (0: no limit). `deal_grace` and `end_grace`
    are the courtesy waits of a live table, in the driver's seconds; a table whose seats are
    all driven by one process (nothing another seat writes can cross this one's) passes 0.
    `paces` makes this seat start every hand whoever deals it: the in-process table, at which
    one person paces a table of bots; a live seat starts only the hands it deals."""

    def __init__(
        self,
        *,
        hands: int = 0,
        deal_grace: float | None = None,
        end_grace: float | None = None,
        paces: bool = False,
        admit_within: float = ADMIT_WITHIN,
        join_grace: float | None = None,
        join_wait: float | None = None,
    ) -> None:
        self.hands = hands
        self.admit_within = admit_within
        # the module's values read now, not at import: a test may make the dealers patient
        self.deal_grace = DEAL_GRACE if deal_grace is None else deal_grace
        self.end_grace = END_GRACE if end_grace is None else end_grace
        self.join_grace = JOIN_GRACE if join_grace is None else join_grace
        self.join_wait = JOIN_WAIT if join_wait is None else join_wait
        self.paces = paces
        self._end_asked: bytes | None = None
        """The head at which this seat last wrote the game end (a game end binds the head)."""
        self._leave_asked: int | None = None
        """The hand after which this seat wrote its `leave` (once per hand, as `game_end`): a
        leave the sequencer refused (the next hand's start came first) is written again after
        that hand, until one is placed. The session keeps no leave pending, so its refusal
        needs no answer here."""
        self._sit_in_asked: int | None = None
        """The hand after which this seat wrote its `sit_in` (once per hand)."""
        self._between_key: tuple[int, bool] | None = None
        self._between_at = 0.0
        self._behind_at: float | None = None
        """When a newcomer last said it was behind, no hand running (since `_between_at`)."""
        self._admission_key: bytes | None = None
        self._admission_at = 0.0

    def next(self, s: Session, wishes: Wishes, now: float) -> Move | None:
        """What this seat does now, or None: nothing of its own (the hand's decisions follow).
        Ask again after each move made, until None, WAIT or STOP (or LEAVE)."""
        if self._leave_asked is not None and s.seat not in s.ledger.identities:
            return Move(Do.STOP, LEFT_TABLE.format(hand=s.hand_number), left=True)
        if s.ledger.stopped:
            # nothing follows a table_stop, not even a game end (SPEC 7.9)
            return Move(Do.STOP, table_stopped(s))
        refused = self._refused(s)
        if refused is not None:
            return Move(Do.STOP, refused, left=self.refused_itself(s), refused=True)
        over = game_over(s, hands=self.hands, end_wanted=wishes.end)
        if over is not None:
            if self._writes_end(s, over, now):
                return Move(Do.END_GAME, over)
            return Move(Do.STOP if s.complete else Do.WAIT, over)
        answer = self._answer(s, wishes, now)
        if answer is not None:
            return answer
        if self._leaves(s, wishes):
            self._leave_asked = s.hand_number
            return _LEAVE
        if self._sits_in(s, wishes):
            self._sit_in_asked = s.hand_number
            return _SIT_IN
        if self._deals(s, wishes, now):
            return _DEAL
        return None

    def _refused(self, s: Session) -> str | None:
        """Why this seat stops: it joined and a seated player refused it, or it refused the
        table itself (SPEC 6.6); None while it holds its seat or never joined."""
        me, key = s.seat, s.identity_key
        if me is None or key is None or me in s.ledger.identities:
            return None
        refused = s.ledger.refused(key)
        if refused is None:
            return None
        author, reason = refused
        names = s.names()
        return not_admitted(names.get(author, f"seat {author}"), reason, you=author == me)

    def refused_itself(self, s: Session) -> bool:
        """This seat's own player refused the table it joined (SPEC 6.6)."""
        key = s.identity_key
        refused = None if key is None else s.ledger.refused(key)
        return refused is not None and refused[0] == s.seat

    def _answer(self, s: Session, wishes: Wishes, now: float) -> Move | None:
        """This seat's answer to the newcomer's admission open now (SPEC 6.6, 8.9): as its
        player answered; a refusal once the admission has been open `admit_within` (even
        from a seat that admitted: the table is not held up for longer). Nothing while an
        answer of this seat's is on its way: one that can no longer be placed is written
        again."""
        admission = s.admission
        me = s.seat
        if admission is None or me is None or me not in s.ledger.identities or s.ended:
            return None
        if not s.between_hands or s.answer_pending:
            return None
        if self._admission_key != admission.join:
            self._admission_key, self._admission_at = admission.join, now
        if now - self._admission_at >= self.admit_within:
            return Move(Do.REFUSE, not_in_time(self.admit_within))
        if me in admission.admitted or wishes.admit is None:
            return None
        return Move(Do.ADMIT) if wishes.admit else Move(Do.REFUSE, CODES_DIFFER)

    def _writes_end(self, s: Session, over: str, now: float) -> bool:
        """This seat writes the game's end now: the person asked, or the hands are played (the
        sequencer at once, the others `end_grace` later); every seat signs it (SPEC 7.3). Once
        per head: a game end binds the head, so one refused because the state moved (a next
        hand started, the sequencer was replaced) is made again."""
        waited = now - self._between_since(s, now) >= self.end_grace
        wants = over == ENDED_BY_YOU or s.sequencer == s.seat or waited
        head = s.ledger.head_hash
        if s.ended or not wants or self._end_asked == head:
            return False
        self._end_asked = head
        return True

    def _leaves(self, s: Session, wishes: Wishes) -> bool:
        """This seat writes its `leave` now: the player asked and no hand is running (SPEC
        8.9). The sequencer places it, or refuses it if the next hand started first (it
        countersigns that hand's start too, SPEC 6.6); a sequencer's own leave hands sequencing
        to the seat that takes over from it. Once per hand."""
        if not wishes.leave or not s.between_hands or s.ended:
            return False
        return self._leave_asked != s.hand_number

    def _sits_in(self, s: Session, wishes: Wishes) -> bool:
        """This seat writes its `sit_in` now: it sits out, the rules let it play the next
        hand, and its player wants to (a bot always); a hand running or not (SPEC 3.11: the
        seat is not in it), so that it is in the chain before the next hand starts. Once per
        hand: a sit_in refused because the state moved is written again in the next."""
        me = s.seat
        if me is None or s.ended or me not in s.ledger.identities:
            return False
        if not wishes.sit_in or self._sit_in_asked == s.hand_number:
            return False
        return s.game.can_sit_in(me)

    def _between_since(self, s: Session, now: float) -> float:
        """Since when no hand is running (as this seat saw it)."""
        key = (s.hand_number, s.between_hands)
        if self._between_key != key:
            self._between_key, self._between_at, self._behind_at = key, now, None
        return self._between_at

    def _waits_for_newcomer(self, s: Session, wishes: Wishes, now: float) -> bool:
        """A newcomer not joined yet gets JOIN_GRACE once no hand is running, and once it has
        caught up if it was behind; never more than JOIN_WAIT in all (SPEC 8.9)."""
        if not wishes.newcomer_coming:
            return False
        since = self._between_since(s, now)
        if wishes.newcomer_behind:
            self._behind_at = now
        last = since if self._behind_at is None else self._behind_at
        return now - last < self.join_grace and now - since < self.join_wait

    def _deals(self, s: Session, wishes: Wishes, now: float) -> bool:
        """This seat opens the next hand now: it deals it (or paces the table), and its player
        wants it, or it is the first hand."""
        if not s.between_hands or self._leave_asked == s.hand_number:
            return False  # not while this seat's leave is on its way
        if s.hand_start_pending:
            return False  # its hand start is on its way to the sequencer
        if s.admission is not None:
            return False  # no hand while a newcomer's admission is open (SPEC 6.6)
        if s.clock_stopped:
            return False  # the table is paused (SPEC 3.14): the next hand waits for it
        if s.holds_seat_change or now - self._between_since(s, now) < self.deal_grace:
            # a courtesy: another seat's game end or leave may be on its way; the sequencer
            # places it first, rather than refusing it once the hand has started
            return False
        if self._waits_for_newcomer(s, wishes, now):
            return False  # the same courtesy to a newcomer that is catching up

        try:
            dealer = s.game.next_button()
        except RulesError:
            return False
        return (self.paces or dealer == s.seat) and (wishes.deal or s.hand_number == 0)


def table_stopped(s: Session) -> str:
    """Why the game is over for a seat whose table stopped on a false claim (SPEC 7.9),
    naming who signed it: the end has a panel of its own on the screen, which stays."""
    signers = next((h.stopped for h in reversed(s.summaries) if h.stopped), ())
    names = s.names()
    who = ", ".join(names.get(seat, f"seat {seat}") for seat in signers)
    return TABLE_STOPPED.format(signed=f" signed by {who}" if who else "")
