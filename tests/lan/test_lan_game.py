"""Four laptops play a game on a LAN of namespaces with real `willow` processes: `willow host
--auto --hands 5` on one, a bot on each of the others. Then the same with a wifi's faults: 20%
of one laptop's packets lost (nftables), another's link pulled for 3 s in the middle of a hand,
and a third laptop's peer sending garbage frames all game long. Each time every transcript is
the same, byte for byte, `willow verify` accepts it, and no chip is lost."""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

from lan import Lan
from willow import DEEP, ENV, bot, events, finished, host, same_valid_game

HERE = Path(__file__).resolve().parent
HANDS = 5
PLAYERS = 4
STACK = DEEP
DEADLINE = 150.0
"""Seconds for a whole game (five hands of four processes on a loaded machine)."""


def test_four_laptops_play_five_hands(lan: Lan, tmp_path: Path) -> None:
    laptops = [lan.add_laptop() for _ in range(PLAYERS)]
    host_proc, code = host(laptops[0], tmp_path, hands=HANDS, seats=PLAYERS)
    # one bot finds the table by itself (DNS-SD on the LAN), the others paste the code
    bots = [bot(laptops[1], tmp_path, 1, None)]
    bots += [bot(laptops[n], tmp_path, n, code) for n in (2, 3)]
    procs = [host_proc, *bots]
    paths = finished(procs, DEADLINE)
    same_valid_game(paths, HANDS, PLAYERS, STACK)
    assert "the game is over: 5 hands played" in host_proc.output()
    codes = {re.search(r"safety code ([A-Z2-7-]+)", p.output()) for p in procs}
    assert len({m.group(1) for m in codes if m}) == 1
    # each laptop's event lines count what it received beside what it sent: the first
    # thing to read when a seat falls behind
    for who in ("host", "bot1", "bot2", "bot3"):
        ends = [e for e in events(tmp_path / f"{who}-events.jsonl") if e["event"] == "hand_end"]
        assert len(ends) == HANDS, (who, ends)
        last = ends[-1]
        assert 0 < last["frames_in"] < last["bytes_in"] and last["frames"] > 0, (who, last)
        counts = [(e["frames_in"], e["bytes_in"]) for e in ends]
        assert counts == sorted(counts), (who, counts)  # running totals
        # the loop thread's CPU is a part of the process's, as is the session's work
        assert 0 < last["loop_cpu"] <= last["cpu"] and last["worker_cpu"] <= last["cpu"], last


def test_the_game_goes_on_through_loss_a_pulled_cable_and_garbage(lan: Lan, tmp_path: Path) -> None:
    laptops = [lan.add_laptop() for _ in range(PLAYERS)]
    _, lossy, unplugged, noisy = laptops
    lossy.loss(20)
    host_proc, code = host(laptops[0], tmp_path, hands=HANDS, seats=PLAYERS)
    bots = [bot(lossy, tmp_path, 1, code), bot(unplugged, tmp_path, 2, code)]
    garbage = noisy.run(
        [sys.executable, str(HERE / "garbage_peer.py"), code, str(tmp_path / "noisy")],
        name="noisy", env=ENV,
    )  # fmt: skip
    # the cable is pulled once the second hand's cards are being dealt, for 3 s
    bots[1].expect(r"^hand 2: .* deals$", DEADLINE)
    unplugged.link_down()
    time.sleep(3.0)
    unplugged.link_up()
    procs = [host_proc, *bots, garbage]
    paths = finished(procs, DEADLINE)
    same_valid_game(paths, HANDS, PLAYERS, STACK)
    sent = re.search(r"^garbage: (\d+)$", garbage.output(), re.M)
    assert sent is not None and int(sent.group(1)) > 0
    events = [
        json.loads(line) for line in (tmp_path / "host-events.jsonl").read_text().splitlines()
    ]
    assert sum(e["event"] == "bad_frame" for e in events) > 0
    assert sum(e["event"] == "rejected" for e in events) > 0
