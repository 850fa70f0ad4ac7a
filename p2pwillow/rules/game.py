"""A game across hands: seats, stacks that carry over, the button, joining and leaving (SPEC 3.11).

Pure; no I/O. Each hand is a `Hand`; `Game` only decides who plays it and carries the chips on.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from p2pwillow.limits import is_int
from p2pwillow.rules.config import TableConfig
from p2pwillow.rules.errors import IllegalAction
from p2pwillow.rules.events import HandAborted
from p2pwillow.rules.hand import Hand
from p2pwillow.rules.pots import HandResult


@dataclass(frozen=True, slots=True)
class SeatedPlayer:
    seat: int
    name: str
    stack: int
    sitting_out: bool = False

    @property
    def plays(self) -> bool:
        """Dealt into the next hand: seated, in, and with chips (SPEC 3.11)."""
        return not self.sitting_out and self.stack > 0


class Game:
    """The table between hands. Players join and leave only when no hand is running."""

    def __init__(self, config: TableConfig) -> None:
        self.config = config
        self._players: dict[int, SeatedPlayer] = {}
        self._button: int | None = None
        self._hand_number = 0
        self._hand: Hand | None = None

    @property
    def players(self) -> tuple[SeatedPlayer, ...]:
        return tuple(self._players[s] for s in sorted(self._players))

    @property
    def button(self) -> int | None:
        """The dealer of the current or last hand."""
        return self._button

    @property
    def hand_number(self) -> int:
        return self._hand_number

    @property
    def hand(self) -> Hand | None:
        """The hand being played, if any."""
        return self._hand

    def player(self, seat: int) -> SeatedPlayer:
        if seat not in self._players:
            raise IllegalAction(f"nobody sits in seat {seat!r}")
        return self._players[seat]

    def _between_hands(self, what: str) -> None:
        if self._hand is not None:
            raise IllegalAction(f"cannot {what} during a hand")

    def join(self, seat: int, name: str, stack: int | None = None) -> SeatedPlayer:
        """Sit a player down with `stack` chips (the table's starting stack by default)."""
        self._between_hands("join")
        if not is_int(seat) or not 0 <= seat < self.config.seats:
            raise IllegalAction(f"seat must be 0..{self.config.seats - 1}, not {seat!r}")
        if seat in self._players:
            raise IllegalAction(f"seat {seat} is taken")
        if not isinstance(name, str) or not name.strip():
            raise IllegalAction("a player needs a name")
        chips = self.config.starting_stack if stack is None else stack
        if not is_int(chips) or chips < 1:
            raise IllegalAction(f"a player joins with at least one chip, not {chips!r}")
        self._players[seat] = SeatedPlayer(seat, name, chips)
        return self._players[seat]

    def leave(self, seat: int) -> SeatedPlayer:
        """Stand a player up; returns the player with the stack they leave with."""
        self._between_hands("leave")
        return self._players.pop(self.player(seat).seat)

    def sit_out(self, seat: int) -> None:
        self._between_hands("sit out")
        self._players[seat] = replace(self.player(seat), sitting_out=True)

    def sit_in(self, seat: int) -> None:
        self._between_hands("sit in")
        self._players[seat] = replace(self.player(seat), sitting_out=False)

    def next_button(self) -> int:
        """Where the button goes next: the next player clockwise who plays (SPEC 3.11)."""
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
        hand = Hand(self.config, seats, stacks, button, self._hand_number + 1)
        self._button = button
        self._hand_number += 1
        self._hand = hand
        return hand

    def end_hand(self) -> HandResult:
        """Carry the finished hand's stacks over; seats blamed for an abort sit out."""
        hand = self._hand
        if hand is None or not hand.is_over or hand.result is None:
            raise IllegalAction("no finished hand to end")
        result = hand.result
        for seat, stack in zip(result.seats, result.final_stacks, strict=True):
            self._players[seat] = replace(self._players[seat], stack=stack)
        last = hand.events[-1]
        if isinstance(last, HandAborted):
            # DESIGN 6: the next hand proceeds without whoever stalled.
            for seat in last.blamed:
                self._players[seat] = replace(self._players[seat], sitting_out=True)
        self._hand = None
        return result
