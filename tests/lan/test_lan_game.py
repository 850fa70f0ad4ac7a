"""Four laptops play a game on a LAN of namespaces with real `willow` processes: `willow host
--auto --hands 5` on one, a bot on each of the others. Then the same with a wifi's faults: 20%
of one laptop's packets lost (nftables), another's link pulled for 3 s in the middle of a hand,
and a third laptop's peer sending garbage frames all game long. Each time every transcript is
the same, byte for byte, `willow verify` accepts it, and no chip is lost."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

from lan import Lan, Laptop, Proc

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
ENV = {"PYTHONPATH": str(ROOT)}
HANDS = 5
PLAYERS = 4
STACK = 1000
DEADLINE = 150.0
"""Seconds for a whole game (five hands of four processes on a loaded machine)."""
SAMPLES = "60"
WILLOW = [sys.executable, "-m", "p2pwillow"]


def _host(laptop: Laptop, tmp: Path) -> tuple[Proc, str]:
    proc = laptop.run(
        [*WILLOW, "host", "--auto", "--hands", str(HANDS), "--seats", str(PLAYERS),
         "--name", "Ann", "--samples", SAMPLES, "--address", laptop.address,
         "--home", str(tmp / "host"), "--events", str(tmp / "host-events.jsonl")],
        name="host", env=ENV,
    )  # fmt: skip
    line = proc.expect(r"^willow join [a-z2-7]+$", 30)
    return proc, line.split()[-1]


def _bot(laptop: Laptop, tmp: Path, n: int, code: str | None) -> Proc:
    join = [] if code is None else ["--join", code]
    return laptop.run(
        [*WILLOW, "bot", *join, "--samples", SAMPLES, "--home", str(tmp / f"bot{n}")],
        name=f"bot{n}", env=ENV,
    )  # fmt: skip


def _finished(procs: list[Proc]) -> list[Path]:
    """Wait for every process to end well; the transcript each one names."""
    paths = []
    deadline = time.monotonic() + DEADLINE
    for proc in procs:
        line = proc.expect(r"^transcript: ", max(1.0, deadline - time.monotonic()))
        paths.append(Path(line.split(": ", 1)[1]))
        assert proc.popen.wait(timeout=30) == 0, proc.output()
    return paths


def _same_valid_game(paths: list[Path]) -> None:
    copies = {p.read_bytes() for p in paths}
    assert len(copies) == 1, "every laptop holds the same transcript, byte for byte"
    result = subprocess.run(
        [*WILLOW, "verify", "--json", str(paths[0])],
        env={**ENV}, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["verdict"] == "valid"
    assert len(report["hands"]) == HANDS
    assert sum(s["final"] for s in report["stacks"]) == PLAYERS * STACK


def test_four_laptops_play_five_hands(lan: Lan, tmp_path: Path) -> None:
    laptops = [lan.add_laptop() for _ in range(PLAYERS)]
    host, code = _host(laptops[0], tmp_path)
    # one bot finds the table by itself (DNS-SD on the LAN), the others paste the code
    bots = [_bot(laptops[1], tmp_path, 1, None)]
    bots += [_bot(laptops[n], tmp_path, n, code) for n in (2, 3)]
    procs = [host, *bots]
    paths = _finished(procs)
    _same_valid_game(paths)
    assert "the game is over: 5 hands played" in host.output()
    codes = {re.search(r"safety code ([A-Z2-7-]+)", p.output()) for p in procs}
    assert len({m.group(1) for m in codes if m}) == 1


def test_the_game_goes_on_through_loss_a_pulled_cable_and_garbage(lan: Lan, tmp_path: Path) -> None:
    laptops = [lan.add_laptop() for _ in range(PLAYERS)]
    _, lossy, unplugged, noisy = laptops
    lossy.loss(20)
    host, code = _host(laptops[0], tmp_path)
    bots = [_bot(lossy, tmp_path, 1, code), _bot(unplugged, tmp_path, 2, code)]
    garbage = noisy.run(
        [sys.executable, str(HERE / "garbage_peer.py"), code, str(tmp_path / "noisy")],
        name="noisy", env=ENV,
    )  # fmt: skip
    # the cable is pulled once the second hand's cards are being dealt, for 3 s
    bots[1].expect(r"^hand 2: .* deals$", DEADLINE)
    unplugged.link_down()
    time.sleep(3.0)
    unplugged.link_up()
    procs = [host, *bots, garbage]
    paths = _finished(procs)
    _same_valid_game(paths)
    sent = re.search(r"^garbage: (\d+)$", garbage.output(), re.M)
    assert sent is not None and int(sent.group(1)) > 0
    events = [
        json.loads(line) for line in (tmp_path / "host-events.jsonl").read_text().splitlines()
    ]
    assert sum(e["event"] == "bad_frame" for e in events) > 0
    assert sum(e["event"] == "rejected" for e in events) > 0
