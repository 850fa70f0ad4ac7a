"""`willow verify` (SPEC 7.6): the committed transcripts, and any single change to any entry."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from test_session_helpers import fork, honest_game, states_before

from p2pwillow.ledger import RemoteProtocolError, decode_entry
from p2pwillow.session import Session
from p2pwillow.verify import (
    EXIT_INVALID,
    EXIT_UNREADABLE,
    TranscriptUnreadable,
    report_json,
    report_text,
    split_lines,
    verify_transcript,
)

ROOT = Path(__file__).resolve().parent.parent
DIR = ROOT / "protocol" / "transcripts"
MANIFEST = json.loads((DIR / "manifest.json").read_text(encoding="utf-8"))
HONEST = (DIR / "honest-3p-2h.jsonl").read_bytes()


def willow(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "p2pwillow", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("name", sorted(MANIFEST), ids=str)
def test_committed_transcripts(name: str) -> None:
    expected = MANIFEST[name]
    data = (DIR / name).read_bytes()
    if expected["exit"] == EXIT_UNREADABLE:
        with pytest.raises(TranscriptUnreadable, match=expected["reason_contains"]):
            verify_transcript(data)
        return
    report = verify_transcript(data)
    assert report.valid is expected["valid"]
    if expected["valid"]:
        assert report.error is None and len(report.hands) == 2
        return
    assert report.error is not None
    assert report.error.line == expected["line"]
    assert expected["reason_contains"] in report.error.reason
    assert not report.error.reason.startswith("internal error")


def test_generator_check_mode() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gen_transcripts.py"), "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def test_honest_report_contents() -> None:
    report = verify_transcript(HONEST)
    data = json.loads(report_json(report))
    assert data["valid"] is True and "error" not in data
    for hand in data["hands"]:
        assert set(hand) >= {"number", "dealer", "deal_size", "trades", "shown", "folded"}
        assert set(hand) >= {"pots", "chips"}
        assert sum(hand["chips"].values()) == 0
        assert all(len(t["seats"]) == 2 and t["cards"] >= 1 for t in hand["trades"])
        assert all(all(len(c) == 2 for c in cards) for cards in hand["shown"].values())
        assert sum(p["amount"] for p in hand["pots"]) > 0
    text = report_text(report)
    assert "proofs checked" in text and "stays secret" in text and "valid" in text


def test_cli_valid_and_json() -> None:
    result = willow("verify", str(DIR / "honest-3p-2h.jsonl"), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["valid"] is True
    text = willow("verify", str(DIR / "honest-3p-2h.jsonl"))
    assert text.returncode == 0 and "hand 2" in text.stdout


def test_cli_invalid_names_line_and_author() -> None:
    result = willow("verify", str(DIR / "bad-signature.jsonl"), "--json")
    assert result.returncode == EXIT_INVALID
    error = json.loads(result.stdout)["error"]
    assert error["line"] == MANIFEST["bad-signature.jsonl"]["line"]
    assert isinstance(error["author"], int) and "bad-signature" in error["reason"]
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("args", [["no-such-file.jsonl"], ["protocol/transcripts/not-json.jsonl"]])
def test_cli_unreadable(args: list[str]) -> None:
    result = willow("verify", *args)
    assert result.returncode == EXIT_UNREADABLE
    assert result.stdout == "" and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


# --- any single change to any entry is rejected ------------------------------------------------

LINES = split_lines(HONEST)


@pytest.fixture(scope="module")
def states() -> list[Session]:
    return states_before(LINES)


def _rejected_at(states: list[Session], i: int, line: bytes) -> str:
    """'2' if the line is no longer UTF-8 JSON, '1' if entry i is refused; else fail."""
    try:
        text = line.decode("utf-8")
        json.loads(text)
    except ValueError:
        return "2"
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
        return "1"
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
    assert outcomes.get("1", 0) > len(LINES)


def test_a_changed_number_is_rejected(states: list[Session]) -> None:
    for i, line in enumerate(LINES):
        obj = json.loads(line)
        for key in ("hand", "seq", "author"):
            obj2 = dict(obj, **{key: obj[key] + 1})
            changed = json.dumps(obj2, sort_keys=True, separators=(",", ":")).encode()
            assert _rejected_at(states, i, changed) == "1", (i, key)
        for key, value in obj["body"].items():
            if isinstance(value, int) and not isinstance(value, bool):
                obj2 = dict(obj, body=dict(obj["body"], **{key: value + 1}))
                changed = json.dumps(obj2, sort_keys=True, separators=(",", ":")).encode()
                assert _rejected_at(states, i, changed) == "1", (i, key)


def test_deleted_duplicated_swapped_entries() -> None:
    for i in (1, 5, 40, len(LINES) - 2):
        deleted = LINES[:i] + LINES[i + 1 :]
        duplicated = LINES[: i + 1] + LINES[i:]
        swapped = [*LINES[:i], LINES[i + 1], LINES[i], *LINES[i + 2 :]]
        for changed in (deleted, duplicated, swapped):
            report = verify_transcript(b"".join(line + b"\n" for line in changed))
            assert not report.valid and report.error is not None
            assert report.error.line in (i + 1, i + 2, len(changed))


def test_a_foreign_entry_is_rejected(states: list[Session]) -> None:
    other = honest_game()  # another game, another id and keys
    for i in (3, 20, 60):
        foreign = other.lines[i].rstrip(b"\n")
        assert _rejected_at(states, i, foreign) == "1"


def test_empty_and_unterminated_files() -> None:
    with pytest.raises(TranscriptUnreadable):
        verify_transcript(b"")
    report = verify_transcript(HONEST[:-1])
    assert not report.valid and report.error is not None
    assert "line feed" in report.error.reason
