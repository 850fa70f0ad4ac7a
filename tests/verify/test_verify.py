"""`willow verify` (SPEC 7.6): the verdicts on committed, damaged and tampered transcripts.

Every single change to any entry is rejected; an interrupted game is never called forged; a
file is read one bounded line at a time; a bug in willow is never a verdict.
"""

from __future__ import annotations

import io
import json
import random
import tracemalloc
from pathlib import Path

import pytest
from session_helpers import fork, honest_game, states_before

from p2pwillow.ledger import LocalProtocolError, RemoteProtocolError, decode_entry
from p2pwillow.session import Session
from p2pwillow.verify import (
    EXIT_INVALID,
    EXIT_NOT_CLOSED,
    EXIT_UNREADABLE,
    EXIT_VALID,
    Verdict,
    VerifyInterrupted,
    check_one,
    split_lines,
    verify_file,
    verify_stream,
    verify_transcript,
)
from p2pwillow.verify.lines import read_lines

ROOT = Path(__file__).resolve().parents[2]
DIR = ROOT / "protocol" / "transcripts"
MANIFEST = json.loads((DIR / "manifest.json").read_text(encoding="utf-8"))
HONEST = (DIR / "honest-3p-2h.jsonl").read_bytes()
LINES = split_lines(HONEST)
GAME_END = next(i for i, line in enumerate(LINES) if b'"kind":"game_end"' in line)
MIB = 1 << 20


@pytest.mark.parametrize("name", sorted(MANIFEST), ids=str)
def test_committed_transcripts(name: str) -> None:
    expected = MANIFEST[name]
    report = verify_file(DIR / name)
    assert report.exit_code == expected["exit"]
    assert report.valid is expected["valid"]
    if expected["valid"]:
        assert report.error is None and len(report.hands) == 2
        return
    assert report.error is not None
    assert report.error.line == expected["line"]
    assert expected["reason_contains"] in report.error.reason


def test_generator_check_mode() -> None:
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gen_transcripts.py"), "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr


# --- an interrupted or damaged file is not a forged game ---------------------------------------


def test_an_interrupted_game_is_not_closed_and_says_what_is_missing() -> None:
    report = verify_file(DIR / "truncated.jsonl")
    assert report.verdict is Verdict.NOT_CLOSED and report.exit_code == EXIT_NOT_CLOSED
    assert report.error is not None
    assert "valid through hand 1" in report.error.reason
    assert "hand 2 has not ended" in report.error.reason
    assert [h.number for h in report.hands] == [1]


@pytest.mark.parametrize(
    ("lines", "says"),
    [
        (1, "seating is not finished"),
        (3, "seating is not finished"),
        (30, "hand 1 has not ended: it waits for"),
        (GAME_END - 1, "has not signed the end of hand 2"),
        (GAME_END, "the game has not ended: no player has written its game_end"),
        (GAME_END + 1, "have not signed the end of the game"),
        (len(LINES) - 1, "has not signed the end of the game"),
    ],
)
def test_a_game_stopped_anywhere_names_what_is_missing(lines: int, says: str) -> None:
    report = verify_transcript(b"".join(line + b"\n" for line in LINES[:lines]))
    assert report.verdict is Verdict.NOT_CLOSED, report.error
    assert report.error is not None and says in report.error.reason
    assert report.error.line == lines and report.entries == lines
    assert report.missing


def test_a_file_cut_mid_line_is_cut_off_with_the_good_entries_reported() -> None:
    cut = HONEST[: len(HONEST) - len(LINES[-1]) // 2]
    report = verify_transcript(cut)
    assert report.verdict is Verdict.NOT_CLOSED
    assert report.cut_off == len(LINES) and report.entries == len(LINES) - 1
    assert report.error is not None and "cut off" in report.error.reason
    assert [h.number for h in report.hands] == [1, 2]


def test_a_file_missing_only_its_last_line_feed_is_cut_off() -> None:
    report = verify_transcript(HONEST[:-1])
    assert report.verdict is Verdict.NOT_CLOSED
    assert report.entries == len(LINES)  # the last entry is whole, and checked
    assert report.error is not None and "no line feed" in report.error.reason


def test_a_cut_off_line_that_is_a_bad_entry_is_invalid() -> None:
    last = LINES[-1]
    tampered = last.replace(b'"author":', b'"author": ', 1)
    report = verify_transcript(b"".join(x + b"\n" for x in LINES[:-1]) + tampered)
    assert report.verdict is Verdict.INVALID and report.error is not None
    assert report.error.line == len(LINES) and "non-canonical" in report.error.reason


def test_blank_lines_at_the_end_are_ignored_with_a_note() -> None:
    report = verify_transcript(HONEST + b"\n\n")
    assert report.verdict is Verdict.VALID
    assert report.notes == ("2 blank lines at the end of the file ignored",)


def test_a_blank_line_between_entries_is_invalid() -> None:
    data = b"".join(x + b"\n" for x in LINES[:10]) + b"\n" + b"".join(x + b"\n" for x in LINES[10:])
    report = verify_transcript(data)
    assert report.verdict is Verdict.INVALID and report.error is not None
    assert report.error.line == 11 and "blank line" in report.error.reason


def test_windows_line_endings_are_named_with_the_fix() -> None:
    report = verify_transcript(HONEST.replace(b"\n", b"\r\n"))
    assert report.verdict is Verdict.UNREADABLE and report.error is not None
    assert "CR LF" in report.error.reason and "dos2unix" in report.error.reason
    later = b"".join(x + b"\n" for x in LINES[:5]) + LINES[5] + b"\r\n"
    report = verify_transcript(later)
    assert report.verdict is Verdict.INVALID and report.error is not None
    assert report.error.line == 6 and "CR LF" in report.error.reason


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"", "the file is empty"),
        (b"\n\n", "only blank lines"),
        (b"hello\n", "line 1 is not an entry"),
        (b'{"v":1,"kind":"genes', "ends inside its first line"),
        (b"\x00" * (2 * MIB), "longer than 1048576 bytes"),
    ],
)
def test_what_is_not_a_transcript_is_unreadable(data: bytes, says: str) -> None:
    report = verify_transcript(data)
    assert report.verdict is Verdict.UNREADABLE and report.exit_code == EXIT_UNREADABLE
    assert report.error is not None and says in report.error.reason
    assert report.entries == 0 and report.table is None


def test_files_that_cannot_be_read_are_unreadable(tmp_path: Path) -> None:
    for path, says in ((tmp_path / "none.jsonl", "No such file"), (tmp_path, "directory")):
        report = verify_file(path)
        assert report.verdict is Verdict.UNREADABLE and report.error is not None
        assert says in report.error.reason and report.error.line is None


def test_an_entry_that_is_not_the_genesis_first_is_invalid() -> None:
    report = verify_transcript(b"".join(x + b"\n" for x in LINES[1:]))
    assert report.verdict is Verdict.INVALID and report.error is not None
    assert report.error.line == 1 and "genesis" in report.error.reason


def test_the_author_is_proven_only_by_its_signature() -> None:
    forged = verify_file(DIR / "bad-signature.jsonl").error
    assert forged is not None and forged.author is not None and not forged.author_signed
    countersigned = verify_file(DIR / "bad-countersignature.jsonl").error
    assert countersigned is not None and countersigned.author_signed


# --- reading is bounded and streaming ----------------------------------------------------------


def test_a_long_line_is_refused_while_reading(tmp_path: Path) -> None:
    big = tmp_path / "big.jsonl"
    with big.open("wb") as f:
        f.write(LINES[0] + b"\n")
        f.write(b"x" * (32 * MIB) + b"\n")
        f.write(LINES[1] + b"\n")
    tracemalloc.start()
    try:
        report = verify_file(big)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert report.verdict is Verdict.INVALID and report.error is not None
    assert report.error.line == 2 and "longer than" in report.error.reason
    assert peak < 4 * MIB, peak  # one bounded read, not the 32 MiB line


def test_lines_come_one_at_a_time() -> None:
    class Counting(io.BytesIO):
        taken = 0

        def readline(self, size: int | None = -1) -> bytes:
            assert size is not None and 0 < size <= MIB + 2
            Counting.taken += 1
            return super().readline(size)

    stream = Counting(HONEST)
    lines = read_lines(stream)
    first = next(lines)
    assert first.number == 1 and first.ended and Counting.taken == 1
    assert sum(1 for _ in lines) == len(LINES) - 1


def test_the_verifiers_ledger_keeps_no_entries() -> None:
    session = Session(None, None, decode_entry(LINES[0]))
    session.ledger.keep_no_entries()
    for line in LINES[1:]:
        session.replay(decode_entry(line))
    ledger = session.ledger
    assert len(ledger) == len(LINES) and ledger.head_seq == len(LINES) - 1
    assert ledger[0].kind == "genesis" and ledger.genesis is not None
    assert ledger.head_hash == decode_entry(LINES[-1]).hash
    with pytest.raises(LocalProtocolError):
        ledger.entries  # noqa: B018 - the property is what is tested
    with pytest.raises(LocalProtocolError):
        ledger[5]
    assert session.complete


def test_ctrl_c_names_where_it_stopped() -> None:
    class Interrupting(io.BytesIO):
        def readline(self, size: int | None = -1) -> bytes:
            if self.tell() > len(HONEST) // 2:
                raise KeyboardInterrupt
            return super().readline(size)

    with pytest.raises(VerifyInterrupted) as caught:
        verify_stream(Interrupting(HONEST), "game.jsonl")
    assert caught.value.source == "game.jsonl" and 1 < caught.value.line < len(LINES)


# --- a bug in willow is a bug, never a verdict -------------------------------------------------


def test_a_bug_is_not_reported_as_an_invalid_transcript(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: Session, entry: object) -> object:
        raise KeyError("a check that broke")

    monkeypatch.setattr(Session, "replay", broken)
    with pytest.raises(KeyError):
        verify_transcript(HONEST)
    outcome = check_one(str(DIR / "honest-3p-2h.jsonl"))
    assert outcome.report is None and outcome.bug is not None
    assert "KeyError" in outcome.bug and "Traceback" in outcome.bug


# --- any single change to any entry is rejected ------------------------------------------------


@pytest.fixture(scope="module")
def states() -> list[Session]:
    return states_before(LINES)


def _rejected_at(states: list[Session], i: int, line: bytes) -> str:
    """'malformed' if the line is no longer UTF-8 JSON, 'refused' if entry i is refused."""
    try:
        text = line.decode("utf-8")
        json.loads(text)
    except ValueError:
        return "malformed"
    session = fork(states[i]) if i else None
    try:
        entry = decode_entry(line)
        if session is None:
            Session(None, None, entry)
            # a genesis that still decodes is another game: its next entry is refused
            follower = Session(None, None, entry)
            follower.replay(decode_entry(LINES[1]))
            return "accepted"
        session.replay(entry)
    except RemoteProtocolError:
        return "refused"
    return "accepted"


def test_a_changed_byte_anywhere_is_rejected(states: list[Session]) -> None:
    rng = random.Random(2024)
    outcomes: dict[str, int] = {}
    for i, line in enumerate(LINES):
        for at in rng.sample(range(len(line)), min(4, len(line))):
            changed = bytearray(line)
            changed[at] = rng.choice([c for c in b'0123456789abcdef",:{}x' if c != line[at]])
            outcome = _rejected_at(states, i, bytes(changed))
            assert outcome != "accepted", (i, at)
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
    assert outcomes.get("refused", 0) > len(LINES)


def test_a_changed_number_is_rejected(states: list[Session]) -> None:
    for i, line in enumerate(LINES):
        obj = json.loads(line)
        for key in ("hand", "seq", "author"):
            obj2 = dict(obj, **{key: obj[key] + 1})
            changed = json.dumps(obj2, sort_keys=True, separators=(",", ":")).encode()
            assert _rejected_at(states, i, changed) == "refused", (i, key)
        for key, value in obj["body"].items():
            if isinstance(value, int) and not isinstance(value, bool):
                obj2 = dict(obj, body=dict(obj["body"], **{key: value + 1}))
                changed = json.dumps(obj2, sort_keys=True, separators=(",", ":")).encode()
                assert _rejected_at(states, i, changed) == "refused", (i, key)


def test_deleted_duplicated_swapped_entries() -> None:
    for i in (1, 5, 40, len(LINES) - 2):
        deleted = LINES[:i] + LINES[i + 1 :]
        duplicated = LINES[: i + 1] + LINES[i:]
        swapped = [*LINES[:i], LINES[i + 1], LINES[i], *LINES[i + 2 :]]
        for changed in (deleted, duplicated, swapped):
            report = verify_transcript(b"".join(line + b"\n" for line in changed))
            assert report.verdict is Verdict.INVALID and report.error is not None
            assert report.error.line in (i + 1, i + 2, len(changed))
            assert report.exit_code == EXIT_INVALID


def test_a_foreign_entry_is_rejected(states: list[Session]) -> None:
    other = honest_game()  # another game, another id and keys
    for i in (3, 20, 60):
        foreign = other.lines[i].rstrip(b"\n")
        assert _rejected_at(states, i, foreign) == "refused"


def test_a_whole_honest_game_is_valid() -> None:
    report = verify_transcript(HONEST)
    assert report.verdict is Verdict.VALID and report.exit_code == EXIT_VALID
    assert report.error is None and report.missing == () and report.through_hand == 2
