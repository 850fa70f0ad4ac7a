"""`willow verify` on the command line, in subprocesses: exit codes, one answer per file,
Ctrl-C, bounded reading, several files in worker processes, and a bug shown as a bug."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from interrupts import interruptible

from p2pwillow import cli
from p2pwillow.session import Session
from p2pwillow.verify import (
    EXIT_INVALID,
    EXIT_NOT_CLOSED,
    EXIT_UNREADABLE,
    EXIT_VALID,
)

ROOT = Path(__file__).resolve().parents[2]
DIR = ROOT / "protocol" / "transcripts"
HONEST = DIR / "honest-3p-2h.jsonl"
MANIFEST = json.loads((DIR / "manifest.json").read_text(encoding="utf-8"))
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}


def willow(*args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    options: dict[str, object] = {
        "cwd": ROOT,
        "env": ENV,
        "capture_output": True,
        "text": True,
        "encoding": "utf-8",
        "timeout": 120,
        "check": False,
        **kwargs,
    }
    return subprocess.run([sys.executable, "-m", "p2pwillow", *args], **options)  # type: ignore[call-overload, no-any-return]


def test_help_documents_every_exit_code() -> None:
    result = willow("verify", "--help")
    assert result.returncode == 0
    for code in ("0  valid and complete", "1  invalid", "3  valid so far but not closed"):
        assert code in result.stdout
    assert "4  unreadable" in result.stdout and "70 a bug in willow" in result.stdout


@pytest.mark.parametrize("name", sorted(MANIFEST), ids=str)
def test_exit_code_and_one_json_object(name: str) -> None:
    result = willow("verify", "--json", str(DIR / name))
    assert result.returncode == MANIFEST[name]["exit"], result.stderr
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    obj = json.loads(lines[0])
    assert obj["verdict"] in ("valid", "not-closed", "invalid")
    assert (obj["error"] is None) == MANIFEST[name]["valid"]


def test_text_report_of_a_valid_game() -> None:
    result = willow("verify", str(HONEST))
    assert result.returncode == EXIT_VALID, result.stderr
    assert "Hand 2:" in result.stdout and "VALID AND COMPLETE" in result.stdout
    assert "♠" in result.stdout or "♥" in result.stdout or "♦" in result.stdout


@pytest.mark.parametrize("what", ["missing", "directory", "empty", "dev-zero"])
def test_unreadable_is_one_line_or_one_object(what: str, tmp_path: Path) -> None:
    path = {
        "missing": tmp_path / "none.jsonl",
        "directory": tmp_path,
        "empty": tmp_path / "empty.jsonl",
        "dev-zero": Path(os.devnull).with_name("zero"),
    }[what]
    if what == "empty":
        path.write_bytes(b"")
    if what == "dev-zero" and not path.exists():
        pytest.skip("this system has no /dev/zero")
    text = willow("verify", str(path), timeout=60)
    assert text.returncode == EXIT_UNREADABLE and text.stdout == ""
    assert len(text.stderr.splitlines()) == 1 and "Traceback" not in text.stderr
    as_json = willow("verify", "--json", str(path), timeout=60)
    assert as_json.returncode == EXIT_UNREADABLE and as_json.stderr == ""
    obj = json.loads(as_json.stdout)
    assert obj["verdict"] == "unreadable" and obj["error"]["reason"]


def test_ctrl_c_stops_with_one_line() -> None:
    data = HONEST.read_bytes()
    with interruptible():
        proc = subprocess.Popen(
            [sys.executable, "-m", "p2pwillow", "verify", "-"],
            cwd=ROOT,
            env=ENV,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    assert proc.stdin is not None
    # More than a pipe holds: once this write returns, the verifier is reading entries.
    proc.stdin.write(data[: len(data) - len(data) // 8])
    proc.stdin.flush()
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == cli.EXIT_INTERRUPTED, err
    lines = err.decode().splitlines()
    assert len(lines) == 1 and "interrupted at line" in lines[0] and "of -" in lines[0]
    assert out == b""


def test_standard_input_is_read_with_dash() -> None:
    result = willow("verify", "--brief", "-", input=HONEST.read_text("utf-8"))
    assert result.returncode == EXIT_VALID and result.stdout.startswith("-: valid and complete")
    assert willow("verify", "-", str(HONEST)).returncode == cli.EXIT_USAGE


def test_several_files_brief_with_worker_processes(tmp_path: Path) -> None:
    names = ["honest-3p-2h.jsonl", "truncated.jsonl", "bad-signature.jsonl", "honest-3p-2h.jsonl"]
    files = [str(DIR / n) for n in names]
    result = willow("verify", "--brief", "-j", "2", *files, str(tmp_path / "none.jsonl"))
    assert result.returncode == EXIT_INVALID, result.stderr
    lines = result.stdout.splitlines()
    assert [line.split(": ")[0] for line in lines] == [*files, str(tmp_path / "none.jsonl")]
    assert "valid and complete" in lines[0] and "not closed" in lines[1]
    assert "INVALID at line 20" in lines[2] and "unreadable" in lines[4]
    assert result.stderr == ""


def test_several_files_exit_with_the_worst_verdict() -> None:
    honest, truncated = str(HONEST), str(DIR / "truncated.jsonl")
    assert willow("verify", "--brief", honest, honest).returncode == EXIT_VALID
    assert willow("verify", "--brief", honest, truncated).returncode == EXIT_NOT_CLOSED
    both = willow("verify", "--json", "-j", "2", truncated, honest)
    assert both.returncode == EXIT_NOT_CLOSED
    assert [json.loads(x)["verdict"] for x in both.stdout.splitlines()] == ["not-closed", "valid"]
    full = willow("verify", honest, truncated)
    assert full.stdout.count("How to read the checks") == 1
    assert f"=== {honest}" in full.stdout and f"=== {truncated}" in full.stdout


def test_bad_job_counts_are_usage_errors() -> None:
    for jobs in ("0", "-3", "many"):
        result = willow("verify", "-j", jobs, str(HONEST))
        assert result.returncode == cli.EXIT_USAGE and len(result.stderr.splitlines()) == 1


def test_a_bug_is_a_traceback_and_its_own_exit_code(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(self: Session, entry: object) -> object:
        raise KeyError("a check that broke")

    monkeypatch.setattr(Session, "replay", broken)
    assert cli.main(["verify", str(HONEST)]) == cli.EXIT_BUG
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" in err and "KeyError" in err
    assert "a bug in willow, not in the transcript" in err
    assert "INVALID" not in out + err

    assert cli.main(["verify", "--json", str(HONEST)]) == cli.EXIT_BUG
    out, err = capsys.readouterr()
    obj = json.loads(out)
    assert obj["verdict"] == "bug" and "KeyError" in obj["error"]["reason"]


def test_ctrl_c_stops_the_worker_processes_too() -> None:
    files = [str(HONEST)] * 16
    with interruptible():
        proc = subprocess.Popen(
            [sys.executable, "-m", "p2pwillow", "verify", "--brief", "-j", "2", *files],
            cwd=ROOT,
            env=ENV,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,  # its own process group, as a terminal's foreground job
        )
    assert proc.stdout is not None
    first = proc.stdout.readline()  # the workers run: the first file is done
    assert "valid and complete" in first
    listed = subprocess.run(
        ["ps", "-ww", "-o", "pid=,args=", "--ppid", str(proc.pid)],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    workers = [int(line.split()[0]) for line in listed.splitlines() if "spawn_main" in line]
    assert len(workers) == 2
    os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C reaches every process of the group
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == cli.EXIT_INTERRUPTED
    assert (first + out).count("valid and complete") < len(files)
    assert len(err.splitlines()) == 1 and "interrupted" in err and "Traceback" not in err
    for pid in workers:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
