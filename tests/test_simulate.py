"""`willow simulate`: bots play through the whole protocol; the file verifies; a progress bar on
a terminal and silence in a pipe; Ctrl-C says where the partial transcript is; bad arguments."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from interrupts import interruptible
from seeded_game import played

from p2pwillow.bots import DEFAULT_LEVEL
from p2pwillow.cli import EXIT_INTERRUPTED, MAX_HANDS, _unfit, main
from p2pwillow.games import CATALOGUE
from p2pwillow.progress import ProgressBar

ROOT = Path(__file__).resolve().parent.parent
COMMAND = [sys.executable, "-m", "p2pwillow"]


def willow(*args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    options: dict[str, object] = {
        "cwd": ROOT,
        "capture_output": True,
        "text": True,
        "timeout": 300,
        "check": False,
        **kwargs,
    }
    return subprocess.run([*COMMAND, *args], **options)  # type: ignore[call-overload, no-any-return]


def test_simulate_then_verify(tmp_path: Path) -> None:
    """With neither --game nor --games, the bots' dealers call from every game two players
    can be dealt (issue 27)."""
    out = tmp_path / "game.jsonl"
    result = willow("simulate", "--players", "2", "--hands", "2", "--seed", "7", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""  # no progress bar in a pipe
    lines = out.read_bytes().split(b"\n")
    assert lines[-1] == b"" and json.loads(lines[0])["kind"] == "genesis"
    games = json.loads(lines[0])["body"]["config"]["games"]
    assert games == [n for n in CATALOGUE if _unfit(n, 2) is None]
    assert {"weeping-willow", "seven-card-stud", "holdem", "five-card-draw"} <= set(games)
    report = willow("verify", str(out), "--json")
    assert report.returncode == 0, report.stdout + report.stderr
    data = json.loads(report.stdout)
    # The cards come from the OS, so a player may go broke in hand 1 and end the game early;
    # simulate says so, the report flags it, and the transcript holds exactly those hands. A
    # player may go broke in the last hand too: the game is over then as well.
    played = int(result.stdout.split()[0])
    assert played == 2 or (played == 1 and "ended early" in result.stdout), result.stdout
    entries = [json.loads(line) for line in lines[:-1]]
    last_end = [e for e in entries if e["kind"] == "hand_end"][-1]
    with_chips = sum(1 for p in last_end["body"]["players"] if p["stack"] > 0)
    assert played == 2 or with_chips < 2
    # over either way: its hands played, or fewer than two players with chips (SPEC 7.6)
    assert data["verdict"] == "valid" and data["game_over"] is True
    assert [h["number"] for h in data["hands"]] == [*range(1, played + 1)]
    assert all(sum(h["chips"].values()) == 0 for h in data["hands"])
    assert f"{len(lines) - 1} entries written to {out}" in result.stdout


def test_dash_writes_the_transcript_to_standard_output(tmp_path: Path) -> None:
    made = willow("simulate", "--players", "2", "--hands", "1", "--out", "-", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert list(tmp_path.iterdir()) == []  # no file named "-"
    assert made.stdout.startswith("{") and "written to standard output" in made.stderr
    checked = willow("verify", "--brief", "-", input=made.stdout)
    assert checked.returncode == 0 and "valid and complete" in checked.stdout


def test_the_starting_stack_is_a_setting(tmp_path: Path) -> None:
    out = tmp_path / "deep.jsonl"
    result = willow(
        "simulate", "--players", "2", "--hands", "1", "--stack", "5000", "--out", str(out)
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(willow("verify", "--json", str(out)).stdout)
    assert {s["bought_in"] for s in data["stacks"]} == {5000}


def test_a_progress_bar_on_a_terminal(tmp_path: Path) -> None:
    import pty

    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [*COMMAND, "simulate", "--players", "2", "--hands", "2", "--out", str(tmp_path / "g")],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=slave,
    )
    os.close(slave)
    shown = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the other side closed
            break
        if not chunk:
            break
        shown += chunk
    os.close(master)
    assert proc.wait(timeout=300) == 0
    text = shown.decode()
    assert "\r[" in text and "/2 hands" in text and " entries, " in text
    assert "left" in text and text.endswith("\r")  # wiped at the end


def test_the_progress_bar_counts_and_estimates() -> None:
    import io

    now = [0.0]
    stream = io.StringIO()
    bar = ProgressBar(stream, 4, clock=lambda: now[0])
    assert "0/4 hands, 0 entries, estimating" in bar.line()
    now[0] = 10.0
    bar.update(done=1, entries=50)
    assert bar.line() == "[######..................] 1/4 hands, 50 entries, 0:30 left"
    assert stream.getvalue().startswith("\r[######")
    bar.update(entries=51)  # within a tenth of a second: not redrawn
    assert stream.getvalue().count("\r") == 1
    bar.clear()
    assert stream.getvalue().endswith("\r")


def test_ctrl_c_says_where_the_partial_transcript_is(tmp_path: Path) -> None:
    out = tmp_path / "game.jsonl"
    with interruptible():
        proc = subprocess.Popen(
            [*COMMAND, "simulate", "--players", "3", "--hands", "200", "--out", str(out)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not out.exists() or out.read_bytes().count(b"\n") < 30):
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    try:
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == EXIT_INTERRUPTED
    lines = stderr.splitlines()
    assert len(lines) == 1 and "interrupted after" in lines[0] and str(out) in lines[0]
    assert stdout == ""
    checked = willow("verify", "--brief", str(out))
    assert checked.returncode in (0, 3), checked.stdout  # valid so far, never invalid


@pytest.mark.parametrize(
    "args",
    [
        ["--players", "1", "--hands", "1"],
        ["--players", "11", "--hands", "1"],
        ["--players", "3", "--hands", "0"],
        ["--players", "3", "--hands", str(MAX_HANDS + 1)],
        ["--players", "3", "--hands", "1000000000000"],
        ["--players", "3", "--hands", "1", "--stack", "0"],
        ["--players", "x", "--hands", "1"],
        ["--hands", "1"],
        ["--players", "9", "--hands", "1", "--games", "holdem,seven-card-stud"],
        ["--players", "3", "--hands", "1", "--game", "stud"],
        ["--players", "3", "--hands", "1", "--games", "holdem,omaha,holdem"],
        ["--players", "3", "--hands", "1", "--game", "holdem", "--games", "omaha"],
    ],
)
def test_simulate_bad_arguments(
    args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `willow`'s own main in this process, as `python -m p2pwillow` calls it: each refusal is
    # the command line's check of its arguments, before anything is played, and a process of
    # its own would spend its time importing the package (test_simulate_unwritable_file
    # checks such a refusal as a process: its exit code and its one line)
    code: int | str | None
    try:
        code = main(["simulate", *args, "--out", str(tmp_path / "x.jsonl")])
    except SystemExit as stopped:
        code = stopped.code
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "x.jsonl").exists()


def test_simulate_unwritable_file(tmp_path: Path) -> None:
    target = tmp_path / "no-such-dir" / "game.jsonl"
    result = willow("simulate", "--players", "2", "--hands", "1", "--out", str(target))
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


LIVE_DECK = ("holdem", "seven-card-stud", "omaha", "five-card-stud")


def _games_called(transcript: Path) -> list[str]:
    """The game of each hand, as `willow verify --json` reports a valid, finished game."""
    report = willow("verify", "--json", str(transcript))
    assert report.returncode == 0, report.stdout + report.stderr
    data = json.loads(report.stdout)
    assert data["verdict"] == "valid" and data["game_over"] is True
    return [hand["game"] for hand in data["hands"]]


def test_a_dealers_choice_game_verifies_with_hands_of_several_games(tmp_path: Path) -> None:
    out = tmp_path / "choice.jsonl"
    made = willow(
        "simulate", "--players", "4", "--hands", "8", "--stack", "20000", "--seed", "3",
        "--games", ",".join(LIVE_DECK), "--out", str(out),
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    assert made.stdout.startswith("8 hand(s)"), made.stdout  # deep stacks: no one goes broke
    called = _games_called(out)
    genesis = json.loads(out.read_bytes().split(b"\n")[0])
    assert genesis["body"]["config"]["games"] == list(LIVE_DECK)
    assert len(called) == 8 and set(called) <= set(LIVE_DECK), called
    # Each dealer calls one of the table's games at random, from its bot's random source,
    # which its play drew on too; `willow simulate` deals from the OS, so which games come
    # after the first hand changes from run to run. The same table, every card seeded
    # (tests/verify/seeded_game.py), calls several, and the game verifies with them.
    seeded = tmp_path / "seeded.jsonl"
    seeded.write_bytes(played(LIVE_DECK, 3, players=4, hands=8, stack=20000, level=DEFAULT_LEVEL))
    called = _games_called(seeded)
    assert len(called) == 8 and set(called) <= set(LIVE_DECK) and len(set(called)) >= 2, called


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--players", "9", "--games", "holdem,seven-card-stud"],
            "willow simulate: --games: seven-card-stud cannot be dealt at a table of 9 "
            "(Seven-Card Stud deals to 2 to 8 players)",
        ),
        (
            ["--players", "3", "--game", "stud"],
            "willow simulate: --game: no game called 'stud' here (the games: weeping-willow, ",
        ),
    ],
)
def test_simulate_names_why_a_game_is_refused(
    args: list[str], message: str, tmp_path: Path
) -> None:
    out = tmp_path / "x.jsonl"
    result = willow("simulate", *args, "--hands", "1", "--out", str(out), timeout=60)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1, result.stderr
    assert not out.exists()


def test_games_all_deals_what_the_table_size_allows(tmp_path: Path) -> None:
    out = tmp_path / "all.jsonl"
    made = willow("simulate", "--players", "9", "--hands", "1", "--games", "all", "--out", str(out))
    assert made.returncode == 0, made.stderr
    games = json.loads(out.read_bytes().split(b"\n")[0])["body"]["config"]["games"]
    assert "seven-card-stud" not in games and {"weeping-willow", "holdem", "omaha"} <= set(games)


def test_one_game_is_named_with_game(tmp_path: Path) -> None:
    out = tmp_path / "one.jsonl"
    made = willow(
        "simulate", "--players", "2", "--hands", "1", "--game", "weeping-willow", "--out", str(out)
    )
    assert made.returncode == 0, made.stderr
    genesis = json.loads(out.read_bytes().split(b"\n")[0])
    assert genesis["body"]["config"]["games"] == ["weeping-willow"]
