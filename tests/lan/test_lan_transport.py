"""Transport, replication and store across a LAN of namespaces, with a wifi's faults.

Four laptops: one publishes a real game's transcript as its sequencer would; one loses 20% of
its packets (nftables), one has its link pulled for 3 s and is then rate limited (tc tbf), one
is killed with -9 and started again (it resumes from its store), and one is stopped
(SIGSTOP) for a while. Every peer must end with the same verified transcript, byte for byte.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
import time
from pathlib import Path

import pytest
from lan import Lan, Laptop, Proc, namespaces

from p2pwillow.ledger.identity import Identity
from p2pwillow.net.keys import CurveKeyPair, KeyStatement
from p2pwillow.table import Table

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PORT = 47001
DEADLINE = 60.0


def _transcript(path: Path) -> list[bytes]:
    r = random.Random(4)
    table = Table(4, seed=11, rng=r.randbytes, samples=20)
    assert table.play(1) == 1
    lines = table.lines
    path.write_bytes(b"".join(lines))
    return lines


def _head(proc: Proc, at_least: int, timeout: float = DEADLINE) -> None:
    def reached(line: str) -> bool:
        event = json.loads(line) if line.startswith("{") else {}
        return event.get("event") == "head" and event["seq"] >= at_least

    proc.expect(reached, timeout)


def _done(proc: Proc, expected: str, timeout: float = DEADLINE) -> None:
    line = proc.expect(lambda line: '"event": "done"' in line, timeout)
    assert json.loads(line)["hash"] == expected, proc.output()


def _configs(laptops: list[Laptop], tmp: Path, transcript: Path) -> list[Path]:
    r = random.Random(9)
    keys = [CurveKeyPair.generate(r.randbytes) for _ in laptops]
    ids = [Identity.generate(r.randbytes) for _ in laptops]
    statements = [KeyStatement.create(i, k.public) for i, k in zip(ids, keys, strict=True)]
    paths = []
    for n, laptop in enumerate(laptops):
        config = {
            "role": "origin" if n == 0 else "follower",
            "curve_secret": keys[n].secret.hex(),
            "host": laptop.address,
            "port": PORT,
            "transcript": str(transcript),
            "store": str(tmp / f"store{n}"),
            "pace": 0.06,
            "start_after": 1.0,
            "peers": [
                {
                    "host": other.address,
                    "port": PORT,
                    "curve_key": statements[m].curve_key.hex(),
                    "identity_key": statements[m].identity_key.hex(),
                    "key_sig": statements[m].sig.hex(),
                }
                for m, other in enumerate(laptops)
                if m != n
            ],
        }
        path = tmp / f"peer{n}.json"
        path.write_text(json.dumps(config))
        paths.append(path)
    return paths


def _start(laptop: Laptop, config: Path, name: str) -> Proc:
    proc = laptop.run(
        [sys.executable, str(HERE / "peer.py"), str(config)],
        name=name,
        env={"PYTHONPATH": str(ROOT)},
    )
    proc.expect('"event": "ready"', 30)
    return proc


def test_a_transcript_replicates_through_loss_link_down_stop_and_kill(
    lan: Lan, tmp_path: Path
) -> None:
    transcript = tmp_path / "game.jsonl"
    lines = _transcript(transcript)
    final = hashlib.sha256(lines[-1].rstrip(b"\n")).hexdigest()
    laptops = [lan.add_laptop() for _ in range(5)]
    _origin_at, lossy_at, unplugged_at, killed_at, _stopped_at = laptops
    lossy_at.loss(20)
    configs = _configs(laptops, tmp_path, transcript)
    names = ["origin", "lossy", "unplugged", "killed", "stopped"]
    procs = [_start(lt, cfg, name) for lt, cfg, name in zip(laptops, configs, names, strict=True)]
    origin, lossy, unplugged, killed, stopped = procs

    _head(killed, 15)
    killed.kill9()
    killed = killed_at.run(
        [sys.executable, str(HERE / "peer.py"), str(configs[3])],
        name="killed again",
        env={"PYTHONPATH": str(ROOT)},
    )

    _head(unplugged, 25)
    unplugged_at.link_down()
    stopped.stop()
    time.sleep(2.0)  # the faults themselves: frozen for two seconds, unplugged for three
    stopped.cont()
    time.sleep(1.0)
    unplugged_at.link_up()
    unplugged_at.rate(2000)
    assert origin.expect(lambda line: '"seq"' in line, 5)  # the stream is still going

    for proc in (origin, lossy, unplugged, killed, stopped):
        _done(proc, final)
    assert "recovered" not in killed.output() or "torn" in killed.output()
    for n in range(1, 5):
        stored = (tmp_path / f"store{n}" / "data" / "games").glob("*/transcript.jsonl")
        assert [p.read_bytes() for p in stored] == [b"".join(lines)], names[n]


def test_everything_is_cleaned_up(tmp_path: Path) -> None:
    from lan import unavailable

    reason = unavailable()
    if reason is not None:
        pytest.skip(f"no LAN of namespaces here: {reason}")
    # only this LAN's namespaces are counted: other tests may make theirs meanwhile
    with pytest.raises(RuntimeError), Lan() as lan:
        laptop = lan.add_laptop()
        proc = laptop.run(["sleep", "600"], name="sleeper")
        assert {n for n in namespaces() if n.startswith(f"{lan.prefix}-")} == {
            lan.switch,
            laptop.ns,
        }
        raise RuntimeError("a test fails half way")
    assert not {n for n in namespaces() if n.startswith(f"{lan.prefix}-")}
    assert proc.popen.poll() is not None


ROUTER_SIDE = """
import asyncio, sys, time
from net_helpers import curve, statement
from p2pwillow.net.transport import Transport

async def main():
    t = Transport(curve(2), host=sys.argv[1], port=int(sys.argv[2]))
    await t.start()
    t.pin(statement(1))
    print("ready", flush=True)
    shown = None
    while True:
        while t.recv_nowait() is not None:
            pass
        if t.connections != shown:
            shown = t.connections
            print("connections", shown, round(time.monotonic(), 2), flush=True)
        await asyncio.sleep(0.05)

asyncio.run(main())
"""

DIALLER_SIDE = """
import asyncio, sys
from net_helpers import curve, statement
from p2pwillow.net.transport import Transport

async def main():
    t = Transport(curve(1), host=sys.argv[1])
    await t.start()
    t.pin(statement(2))
    t.connect(curve(2).public, sys.argv[2], int(sys.argv[3]))
    while True:
        t.send(curve(2).public, b"here")
        await asyncio.sleep(0.1)

asyncio.run(main())
"""


def test_a_pulled_cable_closes_the_connection_on_the_other_side(lan: Lan) -> None:
    """A ROUTER does not ping (SPEC 8.3): the kernel closes a connection whose peer stopped
    answering (a cable pulled, a laptop out of range) about 3 s after it went quiet, and the
    peer's DEALER dials a new one when it is back."""
    router_at, dialler_at = lan.add_laptop(), lan.add_laptop()
    env = {"PYTHONPATH": f"{ROOT / 'tests' / 'net'}:{ROOT}"}
    router = router_at.run(
        [sys.executable, "-c", ROUTER_SIDE, router_at.address, str(PORT)], "router", env
    )
    router.expect("ready", 30)
    dialler_at.run(
        [sys.executable, "-c", DIALLER_SIDE, dialler_at.address, router_at.address, str(PORT)],
        "dialler",
        env,
    )
    router.expect("connections 1", 30)
    time.sleep(1.0)
    dialler_at.link_down()
    pulled = time.monotonic()
    closed = router.expect("connections 0", 20)
    assert float(closed.split()[2]) - pulled >= 2.0, router.output()  # not before the quiet
    dialler_at.link_up()
    router.expect("connections 1", 30)
