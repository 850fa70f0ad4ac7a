"""`willow host`, `willow join` and `willow bot` as real processes on loopback: a game of three
processes, and each bad input as one line and its own exit code."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from p2pwillow.cli import _unfit
from p2pwillow.games import CATALOGUE
from p2pwillow.net.discovery import JoinCode
from p2pwillow.verify import verify_file

ROOT = Path(__file__).resolve().parents[2]
LOOPBACK = "127.0.0.1"
DEADLINE = 90.0
DEEP = 20000
"""The stack of a game whose hands must all be played by the seats that should play them: a
seat loses at most about 2,000 chips a hand (no ante; five betting rounds of a bet and three
raises of at most 100, and its trade tokens), so these games of at most eight hands never
leave a seat without chips (it would sit out, SPEC 3.11) or end with one seat holding all of
them; with the default thousand, one hand can."""


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}


def willow(*args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "p2pwillow", *args],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        stdin=subprocess.DEVNULL,
    )


def one_line(result: subprocess.CompletedProcess[str], code: int) -> str:
    assert result.returncode == code, result
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


HELD_WILLOW = Path(__file__).with_name("held_willow.py")


def start(*args: str, gate: Path | None = None) -> subprocess.Popen[str]:
    """`willow ARGS` as a process of its own, its output read through a pipe; with `gate`,
    its bot holds its decisions while that file exists and it deals patiently
    (held_willow.py)."""
    command = [sys.executable, "-m", "p2pwillow"]
    if gate is not None:
        command = [sys.executable, str(HELD_WILLOW), str(gate)]
    return subprocess.Popen(
        [*command, *args],
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        text=True,
    )


def host_and_guests(
    host: Sequence[str], guests: Callable[[str], list[list[str]]]
) -> tuple[list[int | None], list[str]]:
    """`willow host HOST...`, then one process for each command `guests(code)` gives (the
    host's join code in hand); every exit code and output once all have ended."""
    first = start("host", *host)
    procs = [first]
    try:
        assert first.stdout is not None
        line = first.stdout.readline()
        m = re.fullmatch(r"willow join ([a-z2-7-]+)\n", line)
        assert m, line
        procs += [start(*args) for args in guests(m.group(1))]
        outputs = [p.communicate(timeout=DEADLINE)[0] for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    return [p.returncode for p in procs], outputs


def test_three_processes_play_a_hand(tmp_path: Path) -> None:
    """A host of no --game or --games: dealer's choice of every game three players can be
    dealt (issue 27); the dealer calls one, and the hand is played by the three processes."""
    home = str(tmp_path / "host")
    host = ["--auto", "--hands", "1", "--seats", "3", "--name", "Ann", "--samples", "40",
            "--address", LOOPBACK, "--no-advertise", "--home", home]  # fmt: skip

    def bots(code: str) -> list[list[str]]:
        join = ["bot", "--join", code, "--level", "hard", "--samples", "40"]
        return [[*join, "--address", LOOPBACK, "--home", str(tmp_path / f"bot{n}")] for n in (1, 2)]

    codes, outputs = host_and_guests(host, bots)
    assert codes == [0, 0, 0], outputs
    assert "the game is over: 1 hand played" in outputs[0]
    assert re.search(r"Bot \w+ \(hard\) sat down in seat 1", outputs[0]), outputs[0]
    paths = [Path(re.findall(r"transcript: (.+)", out)[-1]) for out in outputs]
    assert len({p.read_bytes() for p in paths}) == 1
    assert verify_file(paths[0]).valid
    genesis = json.loads(paths[0].read_bytes().split(b"\n")[0])
    every = [n for n in CATALOGUE if _unfit(n, 3) is None]
    assert genesis["body"]["config"]["games"] == every
    assert {"weeping-willow", "seven-card-stud", "holdem", "five-card-draw"} <= set(every)
    safety = {re.findall(r"safety code ([A-Z2-7-]+)", out)[0] for out in outputs}
    assert len(safety) == 1


def test_a_bot_leaves_between_hands_and_the_game_goes_on(tmp_path: Path) -> None:
    """`willow bot --leave-after 1`: the bot leaves between hands once no hand is running
    (exit 0); the host and the other bots play the game's four hands without it."""
    home = str(tmp_path / "host")
    host = ["--auto", "--hands", "4", "--seats", "4", "--name", "Ann", "--samples", "40",
            "--address", LOOPBACK, "--no-advertise", "--home", home,
            "--game", "weeping-willow", "--stack", str(DEEP)]  # fmt: skip

    def bots(code: str) -> list[list[str]]:
        join = ["bot", "--join", code, "--samples", "40", "--address", LOOPBACK]
        leaves = ["--leave-after", "1"]
        return [[*join, "--home", str(tmp_path / f"bot{n}"), *leaves * (n == 1)] for n in (1, 2, 3)]

    codes, outputs = host_and_guests(host, bots)
    assert codes == [0, 0, 0, 0], outputs
    leaver = outputs[1]
    assert re.search(r"you left the table after hand [1-3]; the game goes on", leaver), leaver
    for out in (outputs[0], outputs[2], outputs[3]):
        assert "the game is over: 4 hands played" in out, out
        assert re.search(r"Bot \w+ \(normal\) left the table", out), out
    paths = [Path(re.findall(r"transcript: (.+)", out)[-1]) for out in outputs]
    stayed = {paths[n].read_bytes() for n in (0, 2, 3)}
    assert len(stayed) == 1
    game = stayed.pop()
    assert game.startswith(paths[1].read_bytes())
    report = verify_file(paths[0])
    assert report.valid, report.error
    assert [st.left for st in report.stacks].count(True) == 1
    line = one_line(willow("bot", "--join", "x", "--leave-after", "-1"), 2)
    assert line == "willow bot: --leave-after must be 1 to 10000 hands (or 0: stay), not -1"


def test_a_malformed_join_code_is_one_line_and_exit_15() -> None:
    code = JoinCode(LOOPBACK, 4000, bytes(10)).encode()
    typo = code[:10] + ("a" if code[10] != "a" else "b") + code[11:]
    line = one_line(willow("join", typo, "--auto"), 15)
    assert line.startswith("willow join: that join code does not work: ")
    assert "mistyped" in line
    line = one_line(willow("bot", "--join", "not-a-code-at-all"), 15)
    assert line.startswith("willow bot: that join code does not work:")


def test_nothing_at_the_address_is_exit_10() -> None:
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        port = s.getsockname()[1]
    code = JoinCode(LOOPBACK, port, bytes(range(10))).encode()
    started = time.monotonic()
    line = one_line(willow("bot", "--join", code, "--timeout", "1.5"), 10)
    where = f"{LOOPBACK}:{port}"
    assert (
        line
        == f"willow bot: nothing answers at {where} (is the host running, and on this network?)"
    )
    assert time.monotonic() - started < 20


def test_a_port_in_use_is_exit_14(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind((LOOPBACK, 0))
        taken.listen()
        port = taken.getsockname()[1]
        args = ["--port", str(port), "--address", LOOPBACK, "--home", str(tmp_path / "h")]
        result = willow("host", "--auto", "--no-advertise", *args)
    line = one_line(result, 14)
    assert line.startswith(f"willow host: cannot listen on {LOOPBACK}:{port}")


ELSEWHERE = "192.0.2.77"
"""An address no machine here has (TEST-NET-1, RFC 5737)."""


def test_an_address_this_machine_lacks_is_exit_24(tmp_path: Path) -> None:
    """`--address` names where this node listens: an address of another machine (or a typo)
    is its own line and exit code, not a port in use, for a host, a guest and a bot."""
    home = ["--home", str(tmp_path / "h")]
    line = one_line(willow("host", "--auto", "--no-advertise", "--address", ELSEWHERE, *home), 24)
    assert line.startswith(f"willow host: {ELSEWHERE} is not an address of this machine (")
    assert line.endswith("); leave out --address to use the one it goes out of")
    code = JoinCode(LOOPBACK, 4000, bytes(10)).encode()
    line = one_line(willow("join", code, "--auto", "--address", ELSEWHERE, *home), 24)
    assert line.startswith(f"willow join: {ELSEWHERE} is not an address of this machine (")
    line = one_line(willow("bot", "--join", code, "--address", ELSEWHERE, *home), 24)
    assert line.startswith(f"willow bot: {ELSEWHERE} is not an address of this machine (")
    # the port in use stays exit 14 (test_a_port_in_use_is_exit_14)


def test_bad_settings_and_no_terminal_are_usage_errors(tmp_path: Path) -> None:
    line = one_line(willow("host", "--auto", "--seats", "11", "--home", str(tmp_path)), 2)
    assert line == "willow host: seats must be between 2 and 10, not 11"
    line = one_line(willow("join", "--home", str(tmp_path)), 2)
    assert (
        line == "willow join: the table screen needs a terminal; --auto lets a bot play this seat"
    )
    line = one_line(willow("bot", "--name", "a\tb"), 2)
    assert "control" in line


def test_willow_play_bad_arguments_are_one_line_and_exit_2(tmp_path: Path) -> None:
    home = ["--home", str(tmp_path)]
    assert one_line(willow("play", "--bots", "0", *home), 2) == (
        "willow play: --bots must be 1 to 9, not 0"
    )
    assert one_line(willow("play", "--bots", "12", *home), 2) == (
        "willow play: --bots must be 1 to 9, not 12"
    )
    line = one_line(willow("play", "--level", "silly", *home), 2)
    assert line.startswith("willow play: error: argument --level: invalid choice: 'silly'")
    line = one_line(willow("play", "--stack", "0", *home), 2)
    assert line.startswith("willow play: ")
    line = one_line(willow("play", *home), 2)
    assert line == "willow play: the table screen needs a terminal: run willow play in one"
    assert not (tmp_path / "data").exists()  # nothing started, nothing written
