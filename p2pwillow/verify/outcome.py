"""What `willow verify` decides about one transcript: the verdict, its exit code, the report.

Pure; no I/O. Values only; `audit` builds them, `text` and `json_report` print them (SPEC 7.6).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from p2pwillow.rules import TableConfig
from p2pwillow.seat import Ending
from p2pwillow.session import ClockNoted, Wait
from p2pwillow.verify.history import HandHistory


class Verdict(enum.StrEnum):
    """The four answers of SPEC 7.6, as `--json` writes them."""

    VALID = "valid"
    """Every entry checks and the game is complete."""
    NOT_CLOSED = "not-closed"
    """Every entry read checks, but the game is not complete: interrupted, or cut off."""
    INVALID = "invalid"
    """An entry does not check: the first one is named, with its author and why."""
    UNREADABLE = "unreadable"
    """Not a transcript that can be read: no file, an I/O error, empty, or not JSON Lines."""


EXIT_VALID = 0
EXIT_INVALID = 1
EXIT_NOT_CLOSED = 3
EXIT_UNREADABLE = 4

EXIT_CODES: dict[Verdict, int] = {
    Verdict.VALID: EXIT_VALID,
    Verdict.INVALID: EXIT_INVALID,
    Verdict.NOT_CLOSED: EXIT_NOT_CLOSED,
    Verdict.UNREADABLE: EXIT_UNREADABLE,
}

SEVERITY: tuple[Verdict, ...] = (
    Verdict.VALID,
    Verdict.NOT_CLOSED,
    Verdict.UNREADABLE,
    Verdict.INVALID,
)
"""Worst last: with several files the exit code is the worst verdict's."""


class TranscriptUnreadable(Exception):
    """The file cannot be opened or read: nothing more can be checked."""


@dataclass(frozen=True, slots=True)
class VerifyError:
    """Why a transcript is not a valid, complete game: the line (1-based; None when no line
    could be read), the author the entry names and why."""

    line: int | None
    author: int | None
    reason: str
    """The rejection reason code of SPEC 6.11 and the detail: "bad-signature: ..."."""
    author_signed: bool = False
    """The author's signature on the entry verifies, so the author did make it; False when
    the entry failed a check made before its signature, or has no readable author."""
    kind: str | None = None
    """The entry's kind, when it could be read."""


@dataclass(frozen=True, slots=True)
class Stack:
    """A player's chips over the game: what it bought in with (its buy-ins) and what it has (or
    left with)."""

    seat: int
    name: str
    bought_in: int
    final: int
    left: bool = False
    """The player left the table; `final` is what it took with it."""

    @property
    def net(self) -> int:
        return self.final - self.bought_in


@dataclass(frozen=True, slots=True)
class Chips:
    """Every chip of the game (SPEC 3.11): those that came in as buy-ins, those at the table
    (stacks as at the start of a running hand) and those that left with players."""

    bought_in: int
    at_table: int
    left: int
    carried: int = 0
    """Chips of a pot nobody won, waiting for the next hand to pay them (SPEC 3.16); none once
    the game's end has shared them out."""

    @property
    def balanced(self) -> bool:
        return self.at_table + self.left + self.carried == self.bought_in


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """Everything `willow verify` says about one transcript."""

    verdict: Verdict
    source: str
    """The file as the user named it ("-" for standard input)."""
    entries: int
    """Entries that were checked and found valid."""
    hands: tuple[HandHistory, ...]
    """Every hand that ended, in order."""
    error: VerifyError | None = None
    """None exactly when the verdict is VALID."""
    table: str | None = None
    players: tuple[tuple[int, str], ...] = ()
    """(seat, name) of every player who sat at the table, by seat."""
    stacks: tuple[Stack, ...] = ()
    """Every player who sat down (by identity): its buy-ins, and its stack now or when it
    left."""
    chips: Chips | None = None
    missing: tuple[Wait, ...] = ()
    """For NOT_CLOSED: what the game still lacks to be complete (`Session.missing`)."""
    hand: int = 0
    """The number of the last hand started (0 while seating)."""
    cut_off: int | None = None
    """The last line, when it was cut off while being written (it has no line feed)."""
    notes: tuple[str, ...] = ()
    config: TableConfig | None = None
    game_over: bool = False
    """The game is over (`ending` says why): its hands are played, fewer than two players
    have chips, or a player ended it."""
    ending: Ending | None = None
    """Why the game is over, in the words a player reads (SPEC 3.11; `end_reason` of the
    JSON report); None while it goes on."""
    ended_by: int | None = None
    """The seat that wrote the game's end (`game_end`, SPEC 7.3), if the transcript has one."""
    arbiter: int | None = None
    """The arbiter's seat at the genesis (SPEC 3.14); None at a table without one."""
    clock: tuple[ClockNoted, ...] = ()
    """Every draw on a time bank, pause, resume and ruling of the arbiter, in order."""
    carry_shared: tuple[tuple[int, int], ...] = ()
    """The game ended with a pot nobody won (SPEC 3.16): (seat, chips) of each share of it,
    the players of the last hand, as the `game_end` names them in their stacks."""

    @property
    def valid(self) -> bool:
        return self.verdict is Verdict.VALID

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.verdict]

    @property
    def through_hand(self) -> int:
        """The last hand up to which every hand ended and was signed by all its players."""
        done = 0
        for h in self.hands:
            if h.number != done + 1 or not h.summary.signed:
                break
            done = h.number
        return done

    def name(self, seat: int) -> str:
        """The seat's player as the report names it (by seat when the name is ambiguous)."""
        names = [n for s, n in self.players if s == seat]
        if not names:
            return f"seat {seat}"
        name = names[-1]
        if sum(1 for _, n in self.players if n == name) > 1:
            return f"{name} (seat {seat})"
        return name


def worst(verdicts: list[Verdict]) -> Verdict:
    """The most serious of several verdicts (SEVERITY)."""
    return max(verdicts, key=SEVERITY.index, default=Verdict.VALID)


__all__ = [
    "EXIT_CODES",
    "EXIT_INVALID",
    "EXIT_NOT_CLOSED",
    "EXIT_UNREADABLE",
    "EXIT_VALID",
    "SEVERITY",
    "Chips",
    "Stack",
    "TranscriptUnreadable",
    "Verdict",
    "VerifyError",
    "VerifyReport",
    "worst",
]
