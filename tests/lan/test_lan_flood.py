"""A stranger floods the host's door, with real `willow` processes on the LAN of namespaces
(SPEC 8.9, "The door's limits"): the host runs under `ulimit -n 256` with a table of four
bots playing and one seat free; from another laptop come 500 fresh identities that each say a
valid hello and sit, and 500 bare TCP connects, all at once, held open a while. The host
stays up, its descriptors bounded; the players at the table do not notice (every hand
plays, nobody is timed out); and a genuine newcomer that comes once the flood is over joins
the game, or is told that the table is busy (exit 22), never that nothing answers."""

from __future__ import annotations

import contextlib
import json
import os
import re
import threading
import time
from collections import Counter
from pathlib import Path

from lan import Lan, LanError
from willow import ENV, GAME, SAMPLES, WILLOW, bot, finished, kinds, same_valid_game, wait_event

PLAYERS = 4
SEATS = 5
HANDS = 16
CLOCK = 10
STACK = 1000  # the host here is started with the default stack
DEADLINE = 240.0
FAKES = 500
CONNECTS = 500
HOLD = 20.0
"""Seconds the flood's connections are held open."""
NOFILE = 256
HEADROOM = 32
"""The host's open descriptors never come within this many of NOFILE, through the flood and
after: the connections libzmq accepts stop at its wall, RESERVE (48) below the limit, and
what the host opens itself above it (its store's files) leaves this much free still."""
BACK = 16
"""... and once the flood is over they come back to within this many of where they were
before it, in at most BACK_WITHIN seconds (the door drops a pending newcomer, its dial-back
closed, 10 s after it was let in)."""
BACK_WITHIN = 20.0
BUSY = 22
HERE = Path(__file__).resolve().parent


def _fds(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


def _held(pid: int) -> str:
    """What the process's descriptors are: files, eventfds, and TCP connections by state and
    remote port (the process's own view of /proc/net/tcp), for a failure to show."""
    sockets: dict[str, str] = {}
    states = {"01": "established", "06": "time-wait", "08": "close-wait", "0A": "listen"}
    try:
        for name in ("tcp", "tcp6"):
            for line in Path(f"/proc/{pid}/net/{name}").read_text().splitlines()[1:]:
                f = line.split()
                remote_port = int(f[2].rsplit(":", 1)[1], 16)
                sockets[f[9]] = f"tcp {states.get(f[3], f[3])} to port {remote_port}"
    except OSError:
        pass
    held: Counter[str] = Counter()
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
                inode = link.removeprefix("socket:[").removesuffix("]")
                kind = sockets.get(inode, "other socket") if link.startswith("socket:") else link
                held[kind] += 1
    except OSError:
        pass
    return ", ".join(f"{n} {kind}" for kind, n in held.most_common(12))


def _door_events(path: Path) -> list[str]:
    """The host's last events about newcomers (seated by the door, dropped, joined)."""
    with contextlib.suppress(OSError, ValueError):
        told = [json.loads(line) for line in path.read_text().splitlines()]
        door = [e for e in told if e.get("event") in ("newcomer", "dropped", "joined")]
        return [f"{e['event']} {e.get('player', '')}" for e in door[-8:]]
    return []


def test_a_flooded_door_keeps_the_table_playing_and_lets_a_newcomer_in(
    lan: Lan, tmp_path: Path
) -> None:
    laptops = [lan.add_laptop() for _ in range(PLAYERS + 2)]
    first, stranger, newcomer_laptop = laptops[0], laptops[PLAYERS], laptops[PLAYERS + 1]
    host = first.run(
        ["prlimit", f"--nofile={NOFILE}:{NOFILE}",
         *WILLOW, "host", "--auto", "--hands", str(HANDS), "--seats", str(SEATS),
         "--game", GAME, "--start-with", str(PLAYERS), "--clock", str(CLOCK), "--name", "Ann",
         "--samples", SAMPLES, "--address", first.address, "--no-advertise",
         "--home", str(tmp_path / "host"), "--events", str(tmp_path / "host-events.jsonl")],
        name="host", env=ENV,
    )  # fmt: skip
    code = host.expect(r"^willow join [a-z2-7-]+$", 30).split()[-1]
    bots = [bot(laptops[n], tmp_path, n, code) for n in range(1, PLAYERS)]
    wait_event(
        tmp_path / "host-events.jsonl",
        lambda e: e["event"] == "dealt" and e.get("hand") == 1,
        DEADLINE,
    )
    baseline = _fds(host.pid)
    most = [baseline]
    watching = threading.Event()

    def watch() -> None:
        while not watching.is_set():
            most.append(_fds(host.pid))
            time.sleep(0.05)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        flood = stranger.run(
            [*WILLOW[:1], str(HERE / "door_flood.py"), code, str(FAKES), str(CONNECTS),
             str(HOLD)],
            name="stranger", env={**ENV, "PYTHONPATH": f"{ENV['PYTHONPATH']}:{HERE}"},
        )  # fmt: skip
        over = flood.expect(r"^flood over: ", HOLD + 180)
        print(over)
        assert host.popen.poll() is None, "the host is up through the flood"
        over_at = time.monotonic()
        back_by = over_at + BACK_WITHIN
        coming_down = []  # (seconds since the flood was over, descriptors), for a failure
        while (after := _fds(host.pid)) >= baseline + BACK and time.monotonic() < back_by:
            coming_down.append((round(time.monotonic() - over_at, 1), after))
            time.sleep(0.2)
        held = _held(host.pid)
        door = _door_events(tmp_path / "host-events.jsonl")
        # a genuine newcomer, once the flood is over
        newcomer = bot(newcomer_laptop, tmp_path, PLAYERS, code)
        try:
            newcomer.expect(r"takes seat \d+ of a game under way", 60)
            joined = True
        except LanError:
            assert newcomer.popen.wait(timeout=60) == BUSY, newcomer.output()
            said = r"the table at .* (is busy|answers, but no connection to it was made)"
            assert re.search(said, newcomer.output()), newcomer.output()
            joined = False
        assert "nothing answers" not in newcomer.output()
        procs = [host, *bots, *([newcomer] if joined else [])]
        paths = finished(procs, DEADLINE)
    finally:
        watching.set()
        watcher.join()
    print(
        f"host descriptors: {baseline} before the flood, at most {max(most)} during it "
        f"(its limit {NOFILE}), {after} after it"
    )
    print("the newcomer " + ("joined" if joined else "was told the table is busy (exit 22)"))
    assert max(most) <= NOFILE - HEADROOM, f"the host's descriptors reached {max(most)}"
    assert after < baseline + BACK, (
        f"the host's descriptors did not come back down: {after} after {BACK_WITHIN:g} s "
        f"({coming_down[::5]}): {held}; its door's last events: {door}"
    )
    assert "Traceback" not in host.output()
    players = PLAYERS + (1 if joined else 0)
    same_valid_game(paths, HANDS, players, STACK)
    entries = kinds(paths[0])
    # the players at the table did not notice: nobody timed out, no hand stopped
    assert not {"timeout", "abort", "sequencer_change"} & {kind for _, kind, _ in entries}
    if joined:
        assert [body for _, kind, body in entries if kind == "join"], "the newcomer joined"
