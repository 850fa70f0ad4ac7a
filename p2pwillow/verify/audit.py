"""The verification procedure of SPEC 7.6: a transcript replayed through an observer session.

Reads the transcript one bounded line at a time (`lines`, the only I/O); everything it checks
is the pure core's. Memory stays flat in the game's length: the observer's ledger keeps no
entries and each hand leaves only its small history behind.

Only the protocol's own errors decide a verdict: a `RemoteProtocolError` makes the transcript
invalid, a file that cannot be read makes it unreadable. Any other exception is a bug in willow
and is raised as it is, never reported as a fault of the transcript.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO

from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.canonical import MAX_LINE_BYTES
from p2pwillow.ledger.entry import Entry, decode_entry
from p2pwillow.ledger.errors import Reason, RemoteProtocolError
from p2pwillow.rules import NO_ARBITER
from p2pwillow.seat import ending
from p2pwillow.session import ClockNoted, HandClosed, HandStarted, Session
from p2pwillow.verify.history import HandHistory, HandLog, with_summary
from p2pwillow.verify.lines import Line, open_transcript, read_lines
from p2pwillow.verify.outcome import (
    Chips,
    Stack,
    TranscriptUnreadable,
    Verdict,
    VerifyError,
    VerifyReport,
)
from p2pwillow.verify.seat_log import SeatLog
from p2pwillow.verify.text import not_closed_reason

# Reasons found only after the author's signature has been verified (SPEC 6.5, 7.1): the
# author did sign such an entry. Every other reason is found before, or is about the bytes.
_SIGNED_REASONS = frozenset(
    {
        Reason.BAD_COUNTERSIGNATURE,
        Reason.REPLAYED,
        Reason.WRONG_SEEN,
        Reason.BAD_VOTE,
        Reason.NOT_EQUIVOCATION,
        Reason.BAD_CLAIM,
        Reason.ILLEGAL_ACTION,
        Reason.BAD_PROOF,
    }
)

CRLF = (
    "malformed: the line ends with CR LF, but a transcript's lines end with a line feed "
    "alone (SPEC 6.9); the file was probably converted to Windows line endings by an editor, "
    "a mail program or git's autocrlf: convert it back (dos2unix) and verify again"
)
TOO_LONG = (
    f"malformed: the line is longer than {MAX_LINE_BYTES} bytes (1 MiB), "
    "the most an entry may be (SPEC 6.11)"
)
BLANK = "malformed: a blank line between entries; a transcript has none (SPEC 6.9)"


class VerifyInterrupted(KeyboardInterrupt):
    """Ctrl-C while verifying: where it stopped, so that one line can say so."""

    def __init__(self, source: str, line: int) -> None:
        super().__init__(source, line)
        self.source = source
        self.line = line


@dataclass(slots=True)
class _Player:
    """Who a player id (its identity key) is at the table: its latest seat and name."""

    seat: int
    name: str


class _Audit:
    """One run of the procedure over one transcript's lines."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.session: Session | None = None
        self.log: HandLog | None = None
        self.hands: list[HandHistory] = []
        self.players: dict[str, _Player] = {}
        """Every player id that sat down, in the order it first did."""
        self.entries = 0
        self.last = 0
        self.blanks: list[int] = []
        self.error: VerifyError | None = None
        self.unreadable = False
        self.cut_off: int | None = None
        self.ended_by: int | None = None
        """The seat that wrote the game's end, once it is read."""
        self.seat_log = SeatLog()
        self.clock: list[ClockNoted] = []
        """The entries about the clock, as they were applied (SPEC 3.14)."""

    def run(self, lines: Iterable[Line]) -> VerifyReport:
        try:
            for line in lines:
                self.last = line.number
                if not self._take(line):
                    break
        except TranscriptUnreadable as exc:
            self.unreadable = True
            self.error = VerifyError(self.last + 1, None, str(exc))
        except KeyboardInterrupt:
            raise VerifyInterrupted(self.source, self.last) from None
        return self._report()

    # --- one line ------------------------------------------------------------------------------

    def _take(self, line: Line) -> bool:
        """Check one line; False once the verdict is decided before the end of the file."""
        if line.too_long:
            return self._bad(line.number, TOO_LONG)
        if line.ended and not line.data:
            self.blanks.append(line.number)  # only blank lines at the very end are let pass
            return True
        if self.blanks:
            return self._bad(self.blanks[0], BLANK)
        if line.data.endswith(b"\r"):
            return self._bad(line.number, CRLF)
        try:
            entry = decode_entry(line.data)
        except RemoteProtocolError as exc:
            if not line.ended and exc.reason is Reason.MALFORMED:
                self.cut_off = line.number  # torn while being written: not JSON yet
                return False
            return self._bad(line.number, f"{exc.reason.value}: {exc.detail}", exc)
        ok = self._start(entry, line) if self.session is None else self._apply(entry, line)
        if ok and not line.ended:
            self.cut_off = line.number
        return ok

    def _bad(self, number: int, reason: str, exc: RemoteProtocolError | None = None) -> bool:
        """The bytes of a line are not an entry: invalid, or unreadable if it is the first."""
        if self.session is None:
            self.unreadable = True
            reason = f"not a willow transcript: line {number} is not an entry ({reason})"
        author = None if exc is None else exc.author
        kind = None if exc is None else exc.kind
        self.error = VerifyError(number, author, reason, False, kind)
        return False

    def _rejected(self, number: int, exc: RemoteProtocolError) -> bool:
        signed = exc.reason in _SIGNED_REASONS and exc.author is not None
        reason = f"{exc.reason.value}: {exc.detail}"
        self.error = VerifyError(number, exc.author, reason, signed, exc.kind)
        return False

    def _start(self, genesis: Entry, line: Line) -> bool:
        try:
            session = Session(None, None, genesis)
        except RemoteProtocolError as exc:
            return self._rejected(line.number, exc)
        session.ledger.keep_no_entries()  # SPEC 7.6: flat memory; nothing reads old entries
        self.session = session
        self.entries = 1
        body = genesis.body
        assert isinstance(body, k.Genesis)
        self.players = {p.identity_key: _Player(p.seat, p.name) for p in body.players}
        return True

    def _apply(self, entry: Entry, line: Line) -> bool:
        session = self.session
        assert session is not None
        body = entry.body
        self.seat_log.before(session, entry)
        try:
            events = session.replay(entry)
        except RemoteProtocolError as exc:
            return self._rejected(line.number, exc)
        self.entries += 1
        if self.log is not None:
            self.log.entry(entry.kind)
        self.seat_log.after(entry, events)
        for event in events:
            if isinstance(event, ClockNoted):
                self.clock.append(event)
            elif isinstance(event, HandStarted):
                self.log = HandLog(event)
            elif isinstance(event, HandClosed):
                assert self.log is not None
                self.hands.append(self.log.close(event.summary))
                self.log = None
            elif self.log is not None:
                self.log.take(event)
        if isinstance(body, k.GameEnd):
            self.ended_by = entry.author
        if isinstance(body, k.Join):
            self.players.pop(body.identity_key, None)  # a player back: its latest seat last
            self.players[body.identity_key] = _Player(entry.author, body.name)
        return True

    def _stacks(self, session: Session) -> tuple[Stack, ...]:
        """SPEC 7.6: every player id that sat down, with its buy-ins, and its stack at the
        table now or the one it left with; once the game has ended, as its `game_end` names
        it, with its share of a pot nobody won (SPEC 3.16)."""
        game = session.game
        shares = dict(_carry_shared(session))
        seated = {p.player_id: p.stack + shares.get(p.seat, 0) for p in game.players}
        departed = dict(game.departed)
        out = []
        for player_id, who in self.players.items():
            bought = sum(b.chips for b in game.buy_ins if b.player_id == player_id)
            if player_id in seated:
                out.append(Stack(who.seat, who.name, bought, seated[player_id]))
            else:
                out.append(Stack(who.seat, who.name, bought, departed.get(player_id, 0), True))
        return tuple(out)

    # --- the verdict ---------------------------------------------------------------------------

    def _report(self) -> VerifyReport:
        session = self.session
        if session is None:
            return VerifyReport(
                Verdict.UNREADABLE if self.unreadable or self.error is None else Verdict.INVALID,
                self.source,
                0,
                (),
                error=self.error or VerifyError(self.last or None, None, self._why_nothing()),
                cut_off=self.cut_off,
            )
        summaries = session.summaries
        self.seat_log.sat_out(session.game.sit_outs)
        hands = tuple(
            replace(with_summary(h, s), events=self.seat_log.of(h.number))
            for h, s in zip(self.hands, summaries, strict=True)
        )
        end = ending(session)
        stacks = self._stacks(session)
        count = session.game.chip_count()
        shared = _carry_shared(session)
        at_table = count.at_table + sum(chips for _, chips in shared)
        carried = 0 if shared else count.carried
        notes: tuple[str, ...] = ()
        if self.blanks:
            n = len(self.blanks)
            notes = (f"{n} blank line{'s' if n > 1 else ''} at the end of the file ignored",)
        report = VerifyReport(
            verdict=Verdict.VALID,
            source=self.source,
            entries=self.entries,
            hands=hands,
            table=session.ledger.genesis.name if session.ledger.genesis else None,
            players=tuple(sorted({(a.seat, a.name) for a in self.players.values()})),
            stacks=stacks,
            chips=Chips(count.bought_in, at_table, count.left, carried),
            hand=session.hand_number,
            cut_off=self.cut_off,
            notes=notes,
            config=session.config,
            ended_by=self.ended_by,
            arbiter=None if session.config.arbiter == NO_ARBITER else session.config.arbiter,
            clock=tuple(self.clock),
            game_over=end is not None,
            ending=end,
            carry_shared=shared,
        )
        if self.error is not None:
            verdict = Verdict.UNREADABLE if self.unreadable else Verdict.INVALID
            return replace(report, verdict=verdict, error=self.error)
        if self.cut_off is not None or not session.complete or session.ledger.stopped:
            report = replace(report, verdict=Verdict.NOT_CLOSED, missing=session.missing)
            error = VerifyError(self.last, None, not_closed_reason(report))
            return replace(report, error=error)
        return report

    def _why_nothing(self) -> str:
        if self.last == 0:
            return "the file is empty"
        if self.cut_off is not None:
            return "not a willow transcript: the file ends inside its first line"
        return "not a willow transcript: the file holds only blank lines"


def _carry_shared(session: Session) -> tuple[tuple[int, int], ...]:
    """Once the game has ended with a pot nobody won: each seat's share of it (SPEC 3.16, the
    stacks its `game_end` names less the stacks at the table); none otherwise."""
    game = session.game
    if not session.ended or not game.carried:
        return ()
    stacks = {p.seat: p.stack for p in game.players}
    return tuple(
        (seat, final - stacks[seat])
        for seat, final in game.final_stacks()
        if final != stacks.get(seat, final)
    )


# --- entry points ------------------------------------------------------------------------------


def verify_stream(stream: BinaryIO, source: str) -> VerifyReport:
    """Verify the transcript read from `stream` (named `source` in the report)."""
    return _Audit(source).run(read_lines(stream))


def verify_file(source: str | Path) -> VerifyReport:
    """Verify the named transcript file ("-": standard input). Always a report; a bug raises."""
    name = str(source)
    try:
        with open_transcript(source) as stream:
            return verify_stream(stream, name)
    except TranscriptUnreadable as exc:
        error = VerifyError(None, None, str(exc))
        return VerifyReport(Verdict.UNREADABLE, name, 0, (), error=error)


def verify_transcript(data: bytes, source: str = "transcript") -> VerifyReport:
    """Verify a transcript held in memory."""
    return verify_stream(io.BytesIO(data), source)


def split_lines(data: bytes) -> list[bytes]:
    """The lines of a transcript held in memory, without their line feeds."""
    return [line.data for line in read_lines(io.BytesIO(data))]


__all__ = [
    "VerifyInterrupted",
    "split_lines",
    "verify_file",
    "verify_stream",
    "verify_transcript",
]
