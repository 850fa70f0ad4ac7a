"""`willow verify`: replay a transcript through an observer session and report (SPEC 7.6).

Reads the transcript file (the only I/O here); everything it checks is the pure core's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from p2pwillow.ledger.entry import decode_entry
from p2pwillow.ledger.errors import RemoteProtocolError
from p2pwillow.session import HandSummary, Session

EXIT_VALID = 0
EXIT_INVALID = 1
EXIT_UNREADABLE = 2


class TranscriptUnreadable(Exception):
    """The file cannot be read, is not UTF-8, or a line is not JSON: nothing to verify."""


@dataclass(frozen=True, slots=True)
class VerifyError:
    """Why a transcript is not a valid game: the first bad line (1-based), its author and why."""

    line: int
    author: int | None
    reason: str


@dataclass(frozen=True, slots=True)
class VerifyReport:
    valid: bool
    entries: int
    hands: tuple[HandSummary, ...]
    error: VerifyError | None = None
    table: str = ""
    players: tuple[tuple[int, str], ...] = ()

    @property
    def exit_code(self) -> int:
        return EXIT_VALID if self.valid else EXIT_INVALID


def read_transcript(path: str | Path) -> bytes:
    """The file's bytes; TranscriptUnreadable if it cannot be read."""
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise TranscriptUnreadable(f"cannot read {path}: {exc.strerror or exc}") from None


def split_lines(data: bytes) -> list[bytes]:
    """The transcript's lines; TranscriptUnreadable unless it is UTF-8 JSON Lines."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TranscriptUnreadable(f"not UTF-8 (byte {exc.start})") from None
    if not data:
        raise TranscriptUnreadable("the file is empty")
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    for number, line in enumerate(lines, start=1):
        try:
            json.loads(line)
        except ValueError:
            raise TranscriptUnreadable(f"line {number} is not JSON") from None
    return lines


def verify_transcript(data: bytes) -> VerifyReport:
    """Check every signature, link, rule and proof of a transcript (SPEC 7.6).

    TranscriptUnreadable if it is not UTF-8 JSON Lines; otherwise a report that is valid only
    if every entry checks and the game is complete (every hand ended and head-signed).
    """
    lines = split_lines(data)
    session: Session | None = None
    for number, line in enumerate(lines, start=1):
        try:
            entry = decode_entry(line)
            if session is None:
                session = Session(None, None, entry)
            else:
                session.replay(entry)
        except RemoteProtocolError as exc:
            return _report(session, number - 1, VerifyError(number, exc.author, str(exc)))
        except Exception as exc:  # a check that broke is still a rejected entry, never a crash
            error = VerifyError(number, None, f"internal error: {type(exc).__name__}: {exc}")
            return _report(session, number - 1, error)
    assert session is not None
    if not data.endswith(b"\n"):
        error = VerifyError(len(lines), None, "malformed: the last line lacks its line feed")
        return _report(session, len(lines) - 1, error)
    if not session.complete:
        hand = session.hand_number
        what = "seating is not finished" if hand == 0 else f"hand {hand} is not finished"
        error = VerifyError(len(lines), None, f"incomplete: {what} and head-signed by all")
        return _report(session, len(lines), error)
    return _report(session, len(lines), None)


def _report(session: Session | None, entries: int, error: VerifyError | None) -> VerifyReport:
    if session is None:
        return VerifyReport(False, 0, (), error)
    genesis = session.ledger.genesis
    assert genesis is not None
    players = tuple((p.seat, p.name) for p in genesis.players)
    return VerifyReport(error is None, entries, session.summaries, error, genesis.name, players)


# --- output ----------------------------------------------------------------------------------


def _hand_json(h: HandSummary) -> dict[str, object]:
    out: dict[str, object] = {
        "number": h.number,
        "dealer": h.dealer,
        "deal_size": h.deal_size,
        "trades": [{"seats": list(t.seats), "cards": t.cards} for t in h.trades],
        "shown": {str(seat): [c.ascii for c in cards] for seat, cards in h.shown},
        "folded": list(h.folded),
        "pots": [
            {"amount": p.amount, "eligible": list(p.eligible), "winners": list(p.winners)}
            for p in h.pots
        ],
        "chips": {str(seat): net for seat, net in h.chips},
        "proofs": dict(h.proofs),
        "hidden_cards": h.hidden,
        "aborted": h.aborted,
    }
    if h.aborted:
        out["blamed"] = list(h.blamed)
        out["reason"] = h.reason
    return out


def report_json(report: VerifyReport) -> str:
    """One JSON object: valid, entries, hands (and error on failure)."""
    out: dict[str, object] = {
        "valid": report.valid,
        "entries": report.entries,
        "hands": [_hand_json(h) for h in report.hands],
    }
    if report.error is not None:
        e = report.error
        out["error"] = {"line": e.line, "author": e.author, "reason": e.reason}
    return json.dumps(out, sort_keys=True)


def _seat(seat: int, names: dict[int, str]) -> str:
    return f"seat {seat} ({names[seat]})" if seat in names else f"seat {seat}"


def report_text(report: VerifyReport) -> str:
    """The human report: per hand what happened, what was proved and what stays secret."""
    names = dict(report.players)
    out = [f"table {report.table!r}: {len(report.players)} players, {report.entries} entries"]
    for h in report.hands:
        who = ", ".join(_seat(s, names) for s in h.seats)
        size = "no deal" if h.deal_size is None else f"{h.deal_size} cards each"
        out.append(f"hand {h.number}: dealer seat {h.dealer}; {size}; players {who}")
        if h.aborted:
            blamed = ", ".join(map(str, h.blamed)) or "nobody"
            out.append(f"  ABORTED (blamed: seat {blamed}): {h.reason}; stacks restored")
        for t in h.trades:
            out.append(f"  trade: seats {t.seats[0]} and {t.seats[1]}, {t.cards} card(s) each")
        for seat, cards in h.shown:
            out.append(f"  shown by seat {seat}: {' '.join(c.ascii for c in cards)}")
        if h.folded:
            out.append(f"  folded: {', '.join(map(str, h.folded))}")
        for p in h.pots:
            winners = ", ".join(map(str, p.winners))
            out.append(f"  pot {p.amount}: won by seat {winners} (eligible {list(p.eligible)})")
        chips = ", ".join(f"seat {s} {n:+d}" for s, n in h.chips)
        out.append(f"  chips: {chips}")
        proofs = ", ".join(f"{n} {kind}" for kind, n in h.proofs) or "none"
        out.append(f"  proofs checked: {proofs}")
        out.append(
            f"  stays secret: {h.hidden} of 52 cards never opened "
            "(unturned layout cards, discards, the undealt stub, who holds which traded card)"
        )
    if report.error is None:
        out.append("valid: every signature, hash link, rule and proof checks")
    else:
        e = report.error
        author = "unknown author" if e.author is None else f"author seat {e.author}"
        out.append(f"INVALID at line {e.line} ({author}): {e.reason}")
    return "\n".join(out)


__all__ = [
    "EXIT_INVALID",
    "EXIT_UNREADABLE",
    "EXIT_VALID",
    "TranscriptUnreadable",
    "VerifyError",
    "VerifyReport",
    "read_transcript",
    "report_json",
    "report_text",
    "split_lines",
    "verify_transcript",
]
