"""A stranger on the LAN who has the join code and floods the host's door:
`python door_flood.py CODE IDENTITIES CONNECTS HOLD`, in a laptop of the LAN tests.

It opens CONNECTS bare TCP connections to the host's port (no ZMTP, nothing sent), and makes
IDENTITIES fresh identities, each a CURVE client that says a valid `hello` and `sit` (a port
where nothing listens), all as fast as it can; keeps everything open HOLD seconds, then closes
it all and prints `flood over: ...` with what it managed. Bounded in count and time."""

from __future__ import annotations

import contextlib
import os
import resource
import socket
import sys
import threading
import time

import zmq

from p2pwillow.ledger.identity import Identity
from p2pwillow.net.discovery import JoinCode
from p2pwillow.net.keys import CurveKeyPair, KeyStatement
from p2pwillow.net.roster import Sit
from p2pwillow.net.transport import tcp_endpoint
from p2pwillow.net.wire import HelloFrame, encode_frame


def connects(host: str, port: int, count: int, hold: float, out: list[int]) -> None:
    sockets = []
    for _ in range(count):
        with contextlib.suppress(OSError):
            sockets.append(socket.create_connection((host, port), timeout=2))
    out.append(len(sockets))
    time.sleep(hold)
    for s in sockets:
        s.close()


def identities(code: JoinCode, count: int, hold: float, out: list[int]) -> None:
    ctx = zmq.Context()
    ctx.setsockopt(zmq.MAX_SOCKETS, count + 64)
    dealers = []
    for n in range(count):
        curve = CurveKeyPair.generate(os.urandom)
        identity = Identity.generate(os.urandom)
        statement = KeyStatement.create(identity, curve.public)
        dealer = ctx.socket(zmq.DEALER)
        dealer.linger = 0
        dealer.curve_secretkey = curve.secret
        dealer.curve_publickey = curve.public
        dealer.curve_serverkey = code.curve_key
        dealer.routing_id = curve.public
        dealer.sndhwm = 4
        dealer.connect(tcp_endpoint(code.host, code.port))
        with contextlib.suppress(zmq.ZMQError):
            dealer.send(encode_frame(HelloFrame(f"Fake {n}", statement)), zmq.NOBLOCK)
            dealer.send(encode_frame(Sit(port=9).frame()), zmq.NOBLOCK)
        dealers.append(dealer)
    out.append(len(dealers))
    time.sleep(hold)
    for d in dealers:
        d.close(0)
    ctx.term()


def main(code_text: str, ids: int, bare: int, hold: float) -> int:
    resource.setrlimit(resource.RLIMIT_NOFILE, (16384, 16384))
    code = JoinCode.decode(code_text)
    made: list[int] = []
    opened: list[int] = []
    threads = [
        threading.Thread(target=connects, args=(code.host, code.port, bare, hold, opened)),
        threading.Thread(target=identities, args=(code, ids, hold, made)),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=hold + 120)
    print(f"flood over: {sum(made)} identities, {sum(opened)} bare connections", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])))
