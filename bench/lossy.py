"""Benchmark of dialling a peer over a lossy link: how long a CurveZMQ handshake takes from the
dial when the dialler's laptop loses LOSS% of its packets each way, with the DEALER's options
of the transport (its handshake given up after DIAL_HANDSHAKE_IVL_MS, then dialled afresh)
against the same DEALER with ZeroMQ's default handshake limit (30 s), dials of the two kinds in
turns so that both meet the same link.

Does I/O: makes two network namespaces on a bridge (the LAN tests' harness, tests/lan/lan.py;
Linux, root, `ip` and `nft`), starts a ROUTER with the transport's options in one and the
dialler in the other, and reads the clock. `python3 -m bench.lossy` prints the JSON.

The figure is the tail a person on poor wifi meets, in the part of a dial the limit bounds: the
mean of the slowest 2% of the times from the first TCP connection's opening to a completed
handshake (`after_open`); `from_dial` has the same figures from the dial (TCP's own SYN
retries come first). On a lossy link TCP's retransmissions back off, and a connection whose
segments are lost again and again can wait many seconds, where a new one starts from fresh
timers.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIALS = 600
"""Dials in all, half of each kind."""
LOSS = 20
"""Percent of the dialler's packets dropped, in and out (the LAN tests' lossy laptop)."""
GIVE_UP = 60.0
"""A dial not through by then is counted at this many seconds (none was, in our runs)."""
TAIL = 0.02
ZMQ_HANDSHAKE_IVL_MS = 30_000
"""ZeroMQ's default handshake limit: the baseline's."""
PORT = 40111


def _serve(key_file: str) -> None:
    """A ROUTER as the transport's, without its door: it lets every CURVE key in."""
    import zmq

    from p2pwillow.net.transport import HANDSHAKE_IVL_MS

    public, secret = zmq.curve_keypair()
    Path(key_file).write_bytes(public)
    router = zmq.Context().socket(zmq.ROUTER)
    router.curve_server = True
    router.curve_secretkey, router.curve_publickey = secret, public
    router.handshake_ivl = HANDSHAKE_IVL_MS
    router.bind(f"tcp://0.0.0.0:{PORT}")
    while True:
        router.recv_multipart()


def _dial(key_file: str, address: str, dials: int, out: str) -> None:
    """Dial `dials` times, alternating the transport's handshake limit and ZeroMQ's default;
    one JSON line per dial to `out`: {"limited": bool, "seconds": float}."""
    import zmq
    from zmq.utils.monitor import recv_monitor_message

    from p2pwillow.net.transport import time_dealer

    server = Path(key_file).read_bytes()
    context = zmq.Context()
    for n in range(dials):
        limited = n % 2 == 0
        public, secret = zmq.curve_keypair()
        dealer = context.socket(zmq.DEALER)
        dealer.linger = 0
        dealer.curve_secretkey, dealer.curve_publickey = secret, public
        dealer.curve_serverkey = server
        time_dealer(dealer)
        if not limited:
            dealer.handshake_ivl = ZMQ_HANDSHAKE_IVL_MS
        monitor = dealer.get_monitor_socket(
            events=zmq.EVENT_CONNECTED | zmq.EVENT_HANDSHAKE_SUCCEEDED
        )
        began = time.monotonic()
        opened = seconds = GIVE_UP
        dealer.connect(f"tcp://{address}:{PORT}")
        while (left := began + GIVE_UP - time.monotonic()) > 0 and monitor.poll(int(left * 1000)):
            event = recv_monitor_message(monitor)["event"]
            if event == zmq.EVENT_CONNECTED:
                opened = min(opened, time.monotonic() - began)
            else:
                seconds = time.monotonic() - began
                break
        with open(out, "a") as lines:
            dial = {"limited": limited, "seconds": round(seconds, 3), "opened": round(opened, 3)}
            lines.write(json.dumps(dial) + "\n")
        dealer.disable_monitor()
        monitor.close(0)
        dealer.close(0)


def _tail(seconds: list[float]) -> float:
    slowest = sorted(seconds)[-max(1, math.ceil(len(seconds) * TAIL)) :]
    return statistics.fmean(slowest)


def _figures(seconds: list[float]) -> dict[str, float | int]:
    return {
        "median": round(statistics.median(seconds), 3),
        "tail": round(_tail(seconds), 3),
        "max": max(seconds),
        "over_10s": sum(s >= 10 for s in seconds),
        "dials": len(seconds),
    }


def lossy_dial() -> dict[str, object]:
    sys.path.insert(0, str(ROOT / "tests" / "lan"))  # the LAN tests' harness
    from lan import Lan, unavailable

    why = unavailable()
    if why is not None:
        raise RuntimeError(f"lan.lossy_dial needs network namespaces: {why}")
    from p2pwillow.net.transport import DIAL_HANDSHAKE_IVL_MS

    with tempfile.TemporaryDirectory() as tmp, Lan() as lan:
        key = str(Path(tmp) / "key")
        host, lossy = lan.add_laptop(), lan.add_laptop()
        lossy.loss(LOSS)
        me = [sys.executable, "-m", "bench.lossy"]
        host.run([*me, "serve", key], name="router", cwd=ROOT)
        deadline = time.monotonic() + 20
        while not Path(key).exists():
            if time.monotonic() > deadline:
                raise RuntimeError("the ROUTER did not start")
            time.sleep(0.05)
        out = Path(tmp) / "dials.jsonl"
        dialler = lossy.run(
            [*me, "dial", key, host.address, str(DIALS), str(out)], name="dial", cwd=ROOT
        )
        dialler.popen.wait(timeout=DIALS * GIVE_UP)
        lines = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
        if len(lines) != DIALS:
            raise RuntimeError(f"{len(lines)} of {DIALS} dials reported: {dialler.output()}")
    # from the first TCP connection's opening to the handshake: the part the limit bounds (a
    # dial's start also waits for TCP's SYN, retransmitted after 1 s, 3 s, 7 s ... when lost)
    limited = [d for d in lines if d["limited"]]
    default = [d for d in lines if not d["limited"]]
    after = {
        kind: _figures([d["seconds"] - d["opened"] for d in dials])
        for kind, dials in (("limited", limited), ("default", default))
    }
    return {
        "value": after["limited"]["tail"],
        "unit": f"s from TCP open to handshake, mean of the slowest {TAIL:.0%} at {LOSS}% loss",
        "baseline": after["default"]["tail"],
        "after_open": after,
        "from_dial": {
            "limited": _figures([d["seconds"] for d in limited]),
            "default": _figures([d["seconds"] for d in default]),
        },
        "handshake_limit_ms": DIAL_HANDSHAKE_IVL_MS,
    }


BENCHMARKS = {"lan.lossy_dial": lossy_dial}


if __name__ == "__main__":
    if sys.argv[1:2] == ["serve"]:
        _serve(sys.argv[2])
    elif sys.argv[1:2] == ["dial"]:
        _dial(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5])
    else:
        for bench in BENCHMARKS.values():
            print(json.dumps(bench()))
