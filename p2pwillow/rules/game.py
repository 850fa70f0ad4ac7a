"""A game across hands: seats, stacks that carry over, the button, joining, leaving, sitting out,
buy-ins and the chips they account for (SPEC 3.11).

Pure; no I/O. Each hand is a `Hand`; `Game` only decides who plays it and carries the chips on.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, replace

from p2pwillow.limits import is_int
from p2pwillow.rules.config import TableConfig
from p2pwillow.rules.errors import IllegalAction, RulesError, passes
from p2pwillow.rules.events import FoldedForStalling, HandAborted
from p2pwillow.rules.hand import Hand
from p2pwillow.rules.pots import HandResult, split_pot


class SitOutReason(enum.Enum):
    """Why a seat sits out (SPEC 3.11); kept for the report."""

    BLAMED_FOR_ABORT = "blamed-for-abort"
    """Blamed for a protocol step withheld before the deal (3.10)."""
    FOLDED_FOR_STALLING = "folded-for-stalling"
    """Folded for a protocol step withheld after the deal (3.9)."""
    REPLACED_SEQUENCER = "replaced-sequencer"
    """Stopped sequencing, or equivocated, and was replaced as the hand's sequencer."""
    MISSED_HEAD_SIGNATURE = "missed-head-signature"
    """Did not sign the head at the end of a hand."""
    MISSED_HAND_START = "missed-hand-start"
    """Held the button and did not open the next hand."""


@dataclass(frozen=True, slots=True)
class SeatedPlayer:
    seat: int
    name: str
    player_id: str
    """Opaque and unique at the table: the session passes the identity key's hex."""
    stack: int
    sitting_out: bool = False
    sit_out_reason: SitOutReason | None = None
    """Why it sits out now (None when it does not)."""
    sat_out_after: int | None = None
    """The number of hands started when it last sat out (None when it does not sit out)."""

    @property
    def plays(self) -> bool:
        """Dealt into the next hand: seated, in, and with chips (SPEC 3.11)."""
        return not self.sitting_out and self.stack > 0


@dataclass(frozen=True, slots=True)
class BuyIn:
    """Chips that came to the table: `chips` for `player_id` in `seat`, after hand `after_hand`
    (0: before the first hand)."""

    player_id: str
    seat: int
    chips: int
    after_hand: int


@dataclass(frozen=True, slots=True)
class SitOut:
    """A seat made to sit out after hand `after_hand`, and why."""

    player_id: str
    seat: int
    reason: SitOutReason
    after_hand: int


@dataclass(frozen=True, slots=True)
class ChipCount:
    """The chips of a game against what came in (SPEC 3.11): `at_table` are the stacks of the
    seated players (during a hand, as at its start), `left` those remembered for players who
    left, `carried` a pot nobody won that waits for the next hand (3.16), `bought_in` the sum
    of every buy-in."""

    at_table: int
    left: int
    bought_in: int
    carried: int = 0

    @property
    def balanced(self) -> bool:
        return self.at_table + self.left + self.carried == self.bought_in


@dataclass(frozen=True, slots=True)
class _Departed:
    """What the game remembers of a player who left, for when it comes back."""

    stack: int
    sit_out_reason: SitOutReason | None
    sat_out_after: int | None


class Game:
    """The table between hands. Players join, leave and sit in only when no hand is running.

    Each action has the three faces of a hand's actions (`verify_x` raises IllegalAction with
    the reason, `can_x` answers, `x` acts); nothing changes when a check fails.
    """

    def __init__(self, config: TableConfig) -> None:
        self.config = config
        self._players: dict[int, SeatedPlayer] = {}
        self._departed: dict[str, _Departed] = {}
        self._buy_ins: list[BuyIn] = []
        self._sit_outs: list[SitOut] = []
        self._button: int | None = None
        self._hand_number = 0
        self._hand: Hand | None = None
        self._carried = 0
        self._last_players: tuple[int, ...] = ()

    @property
    def players(self) -> tuple[SeatedPlayer, ...]:
        return tuple(self._players[s] for s in sorted(self._players))

    @property
    def button(self) -> int | None:
        """The dealer of the current or last hand."""
        return self._button

    @property
    def hand_number(self) -> int:
        """Hands started so far."""
        return self._hand_number

    @property
    def hand(self) -> Hand | None:
        """The hand being played, if any."""
        return self._hand

    @property
    def buy_ins(self) -> tuple[BuyIn, ...]:
        """Every buy-in, in the order they happened (a return with chips is none)."""
        return tuple(self._buy_ins)

    @property
    def sit_outs(self) -> tuple[SitOut, ...]:
        """Every time a seat was made to sit out, in order."""
        return tuple(self._sit_outs)

    @property
    def departed(self) -> tuple[tuple[str, int], ...]:
        """(player id, stack) remembered for each player who left and has not come back."""
        return tuple((pid, d.stack) for pid, d in sorted(self._departed.items()))

    def player(self, seat: int) -> SeatedPlayer:
        if not is_int(seat) or seat not in self._players:
            raise IllegalAction(f"nobody sits in seat {seat!r}")
        return self._players[seat]

    def seat_of(self, player_id: str) -> int | None:
        """The seat `player_id` sits in, or None."""
        return next((p.seat for p in self._players.values() if p.player_id == player_id), None)

    def _between_hands(self, what: str) -> None:
        if self._hand is not None:
            raise IllegalAction(f"cannot {what} during a hand")

    @staticmethod
    def _can(check: Callable[[], object]) -> bool:
        return passes(check)

    # --- chips ---------------------------------------------------------------------------------

    def buy_in_due(self, player_id: str) -> int:
        """What `player_id` brings if it joins now (SPEC 3.11): nothing when it comes back to
        the stack it left with; the starting stack when it is new or left with no chips."""
        departed = self._departed.get(player_id)
        return 0 if departed is not None and departed.stack > 0 else self.config.starting_stack

    @property
    def carried(self) -> int:
        """Chips of a pot nobody won, in the next hand's main pot (SPEC 3.16)."""
        return self._carried

    def chip_count(self) -> ChipCount:
        return ChipCount(
            at_table=sum(p.stack for p in self._players.values()),
            left=sum(d.stack for d in self._departed.values()),
            bought_in=sum(b.chips for b in self._buy_ins),
            carried=self._carried,
        )

    def final_stacks(self) -> tuple[tuple[int, int], ...]:
        """(seat, stack) of every seated player at the game's end (SPEC 3.16, 7.3): a carried
        pot is split among the players of the last hand, the odd chips one each clockwise
        from its dealer's left (3.8), as if they had all won it."""
        stacks = {p.seat: p.stack for p in self.players}
        if self._carried:
            last = self._last_players or tuple(s for s in sorted(stacks))
            sharers = tuple(s for s in last if s in stacks) or tuple(sorted(stacks))
            for seat, share in zip(sharers, split_pot(self._carried, sharers), strict=True):
                stacks[seat] += share
        return tuple(sorted(stacks.items()))

    def check_chips(self) -> ChipCount:
        """The chip count; RulesError if chips were made or lost against the buy-ins."""
        count = self.chip_count()
        if not count.balanced:
            raise RulesError(
                f"chips not conserved: {count.at_table} at the table and {count.left} with "
                f"players who left, but {count.bought_in} bought in"
            )
        return count

    # --- join ----------------------------------------------------------------------------------

    def verify_join(self, seat: int, name: str, player_id: str) -> None:
        self._between_hands("join")
        if not is_int(seat) or not 0 <= seat < self.config.seats:
            raise IllegalAction(f"seat must be 0..{self.config.seats - 1}, not {seat!r}")
        if seat in self._players:
            raise IllegalAction(f"seat {seat} is taken")
        if not isinstance(name, str) or not name.strip():
            raise IllegalAction("a player needs a name")
        if not isinstance(player_id, str) or not player_id:
            raise IllegalAction(f"a player needs a player id, not {player_id!r}")
        taken = self.seat_of(player_id)
        if taken is not None:
            raise IllegalAction(f"player {player_id} already sits in seat {taken}")

    def can_join(self, seat: int, name: str, player_id: str) -> bool:
        return self._can(lambda: self.verify_join(seat, name, player_id))

    def join(self, seat: int, name: str, player_id: str) -> SeatedPlayer:
        """Sit `player_id` down in `seat` (SPEC 3.11): with the stack it left with if it comes
        back with chips, else buying in with the starting stack. A player that left while its
        sit-out was not over comes back sitting out."""
        self.verify_join(seat, name, player_id)
        chips = self.buy_in_due(player_id)
        departed = self._departed.pop(player_id, None)
        if chips:
            self._buy_ins.append(BuyIn(player_id, seat, chips, self._hand_number))
        stack = chips if departed is None or chips else departed.stack
        joined = SeatedPlayer(seat, name, player_id, stack)
        if departed is not None and departed.sit_out_reason is not None:
            assert departed.sat_out_after is not None
            if self._hand_number <= departed.sat_out_after:
                joined = replace(
                    joined,
                    sitting_out=True,
                    sit_out_reason=departed.sit_out_reason,
                    sat_out_after=departed.sat_out_after,
                )
        self._players[seat] = joined
        return joined

    # --- leave ---------------------------------------------------------------------------------

    def verify_leave(self, seat: int) -> None:
        self._between_hands("leave")
        self.player(seat)

    def can_leave(self, seat: int) -> bool:
        return self._can(lambda: self.verify_leave(seat))

    def leave(self, seat: int) -> SeatedPlayer:
        """Stand a player up; the game remembers its stack for when it comes back."""
        self.verify_leave(seat)
        gone = self._players.pop(seat)
        self._departed[gone.player_id] = _Departed(
            gone.stack, gone.sit_out_reason, gone.sat_out_after
        )
        return gone

    # --- sitting out and back in ---------------------------------------------------------------

    def verify_sit_out(self, seat: int, reason: SitOutReason) -> None:
        self._between_hands("sit out")
        self.player(seat)
        if not isinstance(reason, SitOutReason):
            raise IllegalAction(f"not a reason to sit out: {reason!r}")

    def sit_out(self, seat: int, reason: SitOutReason) -> SeatedPlayer:
        """Make `seat` sit out from the next hand on; a seat already sitting out keeps sitting
        out, its wait counted from now and `reason` kept as the latest."""
        self.verify_sit_out(seat, reason)
        p = self._players[seat]
        self._players[seat] = replace(
            p, sitting_out=True, sit_out_reason=reason, sat_out_after=self._hand_number
        )
        self._sit_outs.append(SitOut(p.player_id, seat, reason, self._hand_number))
        return self._players[seat]

    def verify_sit_in(self, seat: int, *, ruling: bool = False) -> None:
        """A seat sitting out may sit in at any time, a hand running or not (it is not in that
        hand: it plays from the next one), once a hand has started since it was made to sit
        out, or at once if the game cannot go on without it (SPEC 3.11); `ruling`: the arbiter
        sits it in, between hands, and its wait need not be over (SPEC 3.14)."""
        if ruling:
            self._between_hands("sit in")
        p = self.player(seat)
        if not p.sitting_out:
            raise IllegalAction(f"seat {seat} is not sitting out")
        if p.stack == 0:
            raise IllegalAction(f"seat {seat} has no chips: it may leave and buy in again")
        assert p.sat_out_after is not None
        others = sum(q.plays for q in self._players.values() if q.seat != seat)
        # SPEC 3.11: sit out at least one hand, unless the game cannot go on without the seat.
        if self._hand_number <= p.sat_out_after and others >= 2 and not ruling:
            raise IllegalAction(f"seat {seat} sits out until a hand has started without it")

    def can_sit_in(self, seat: int) -> bool:
        return self._can(lambda: self.verify_sit_in(seat))

    def sit_in(self, seat: int, *, ruling: bool = False) -> SeatedPlayer:
        self.verify_sit_in(seat, ruling=ruling)
        self._players[seat] = replace(
            self._players[seat], sitting_out=False, sit_out_reason=None, sat_out_after=None
        )
        return self._players[seat]

    # --- hands ---------------------------------------------------------------------------------

    def next_button(self) -> int:
        """Where the button goes next: the next player clockwise who plays (SPEC 3.11); the
        previous button's seat may be empty by now. There is none once the game's hands are
        played (SPEC 3.1 `hands`) or when fewer than two players play."""
        limit = self.config.hands
        if limit and self._hand_number >= limit:
            played = f"{limit} hands are" if limit > 1 else "1 hand is"
            raise IllegalAction(f"the game is over: its {played} played")
        playing = [s for s in sorted(self._players) if self._players[s].plays]
        if len(playing) < 2:
            raise IllegalAction("a hand needs at least two players with chips")
        if self._button is None:
            return playing[0]
        after = [s for s in playing if s > self._button]
        return after[0] if after else playing[0]

    def start_hand(self) -> Hand:
        self._between_hands("start a hand")
        button = self.next_button()
        seats = [s for s in sorted(self._players) if self._players[s].plays]
        stacks = [self._players[s].stack for s in seats]
        hand = Hand(self.config, seats, stacks, button, self._hand_number + 1, self._carried)
        self._button = button
        self._hand_number += 1
        self._hand = hand
        return hand

    def end_hand(self) -> HandResult:
        """Carry the finished hand's stacks over. Seats blamed for an abort and seats folded for
        stalling sit out (SPEC 3.9-3.11)."""
        hand = self._hand
        if hand is None or not hand.is_over or hand.result is None:
            raise IllegalAction("no finished hand to end")
        result = hand.result
        for seat, stack in zip(result.seats, result.final_stacks, strict=True):
            self._players[seat] = replace(self._players[seat], stack=stack)
        self._carried = result.carried
        self._last_players = result.seats  # clockwise from the dealer's left
        self._hand = None
        last = hand.events[-1]
        if isinstance(last, HandAborted):
            for seat in last.blamed:
                self.sit_out(seat, SitOutReason.BLAMED_FOR_ABORT)
        for event in hand.events:
            if isinstance(event, FoldedForStalling):
                self.sit_out(event.seat, SitOutReason.FOLDED_FOR_STALLING)
        return result
