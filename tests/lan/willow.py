"""Real `willow` processes on the LAN of namespaces: a host, bots, a restart with --resume,
and the checks every LAN game ends with (the same transcript everywhere, `willow verify`)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from lan import LanError, Laptop, Proc

ROOT = Path(__file__).resolve().parents[2]
ENV = {"PYTHONPATH": str(ROOT)}
SAMPLES = "60"
WILLOW = [sys.executable, "-m", "p2pwillow"]
HELD_WILLOW = ROOT / "tests" / "net" / "held_willow.py"
DEEP = 20000
"""The stack of the LAN games: a seat loses at most about 2,000 chips a hand (no ante; five
betting rounds of a bet and three raises of at most 100, and its trade tokens), so no seat of
these games of at most ten hands is left without chips (it would sit out) and no game ends
with one seat holding them all before its hands are played; with a thousand, one hand can."""
GAME = "weeping-willow"
"""The game the LAN games play (`--game`; with none a host deals every game its size allows):
Weeping Willow, the one DEEP is reckoned for (trade tokens, no ante)."""

Event = dict[str, Any]


def willow(gate: Path | None) -> list[str]:
    """`willow` as this checkout runs it; with `gate`, its bot holds its decisions while that
    file exists and it deals patiently (tests/net/held_willow.py)."""
    return WILLOW if gate is None else [sys.executable, str(HELD_WILLOW), str(gate)]


def host(
    laptop: Laptop,
    tmp: Path,
    *,
    hands: int,
    seats: int,
    clock: int = 30,
    start_with: int = 0,
    gate: Path | None = None,
) -> tuple[Proc, str]:
    """`willow host --auto --game GAME` on `laptop`, its files under tmp/host, DEEP stacks;
    the process and its code. With `start_with`, the game starts once that many are seated
    (`--start-with`)."""
    early = ["--start-with", str(start_with)] if start_with else []
    proc = laptop.run(
        [*willow(gate), "host", "--auto", "--hands", str(hands), "--seats", str(seats), *early,
         "--game", GAME, "--clock", str(clock), "--stack", str(DEEP), "--name", "Ann",
         "--samples", SAMPLES,
         "--address", laptop.address, "--home", str(tmp / "host"),
         "--events", str(tmp / "host-events.jsonl")],
        name="host", env=ENV,
    )  # fmt: skip
    line = proc.expect(r"^willow join [a-z2-7-]+$", 30)
    return proc, line.split()[-1]


def bot(laptop: Laptop, tmp: Path, n: int, code: str | None, *, gate: Path | None = None) -> Proc:
    """`willow bot` on `laptop` (by its join code, or finding the table), files under tmp/botN."""
    join = [] if code is None else ["--join", code]
    return laptop.run(
        [*willow(gate), "bot", *join, "--samples", SAMPLES, "--home", str(tmp / f"bot{n}"),
         "--events", str(tmp / f"bot{n}-events.jsonl")],
        name=f"bot{n}", env=ENV,
    )  # fmt: skip


def resume(laptop: Laptop, tmp: Path, who: str) -> Proc:
    """The same seat again after a crash: `willow host --resume` or `willow bot --resume`,
    from the store under tmp/WHO."""
    command = ["host", "--auto"] if who == "host" else ["bot"]
    return laptop.run(
        [*WILLOW, *command, "--resume", "--samples", SAMPLES, "--home", str(tmp / who),
         "--events", str(tmp / f"{who}-events.jsonl")],
        name=f"{who} again", env=ENV,
    )  # fmt: skip


def events(path: Path) -> list[Event]:
    """The events a node wrote so far (whole lines only)."""
    if not path.exists():
        return []
    text = path.read_text(encoding="utf-8")
    return [json.loads(line) for line in text[: text.rfind("\n") + 1].splitlines()]


def wait_event(path: Path, test: Callable[[Event], bool], timeout: float) -> Event:
    """The first event in `path` that passes `test`, polling until the deadline."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for event in events(path):
            if test(event):
                return event
        time.sleep(0.01)
    raise LanError(f"no such event in {path} within {timeout:.0f} s: {events(path)[-5:]}")


def finished(procs: Sequence[Proc], deadline: float) -> list[Path]:
    """Wait for every process to end well; the transcript each one names."""
    paths = []
    until = time.monotonic() + deadline
    for proc in procs:
        line = proc.expect(r"^transcript: ", max(1.0, until - time.monotonic()))
        paths.append(Path(line.split(": ", 1)[1]))
        assert proc.popen.wait(timeout=30) == 0, proc.output()
    return paths


def same_valid_game(paths: Sequence[Path], hands: int, players: int, stack: int) -> Event:
    """Every transcript is the same byte for byte, `willow verify` says valid (exit 0), the
    game has its hands and no chip is lost. The verifier's report."""
    copies = {p.read_bytes() for p in paths}
    assert len(copies) == 1, "every laptop holds the same transcript, byte for byte"
    result = subprocess.run(
        [*WILLOW, "verify", "--json", str(paths[0])],
        env={**ENV}, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    report: Event = json.loads(result.stdout)
    assert report["verdict"] == "valid"
    assert len(report["hands"]) == hands
    assert sum(s["final"] for s in report["stacks"]) == players * stack
    return report


def kinds(path: Path) -> list[tuple[int, str, dict[str, Any]]]:
    """(hand, kind, body) of every entry of a transcript."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        out.append((entry["hand"], entry["kind"], entry["body"]))
    return out


def signed_once(transcript: Path, seat: int) -> None:
    """The seat's log of signed entries (beside `transcript`) holds one signature for each
    counter, and every entry of the seat in the transcript is in it: kept before it was sent,
    across the crash too."""
    log: dict[int, set[str]] = {}
    for line in (transcript.parent / "signed.jsonl").read_text(encoding="utf-8").splitlines():
        authored = json.loads(line)
        log.setdefault(authored["counter"], set()).add(authored["sig"])
    assert all(len(sigs) == 1 for sigs in log.values()), "two entries signed for one counter"
    for line in transcript.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        if entry["author"] == seat:
            assert entry["sig"] in log.get(entry["counter"], set()), entry["kind"]


def transcript_under(home: Path, timeout: float = 30.0) -> Path:
    """The one game transcript in a node's store under `home` (once the node has made it)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = sorted(home.rglob("transcript.jsonl"))
        if found:
            return found[0]
        time.sleep(0.05)
    raise LanError(f"no transcript under {home} within {timeout:.0f} s")


def _last_line(path: Path) -> bytes:
    data = path.read_bytes()
    whole = data[: data.rfind(b"\n")]
    return whole[whole.rfind(b"\n") + 1 :]


def caught_up(node: Path, others: Sequence[Path], timeout: float) -> float:
    """Seconds until the transcript `node` ends in the entry one of `others` ends in (the
    node's head equal to a peer's; polled every 10 ms)."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        head = _last_line(node)
        if head and any(_last_line(p) == head for p in others):
            return time.monotonic() - start
        time.sleep(0.01)
    raise LanError(f"{node} did not reach a peer's head within {timeout:.0f} s")
