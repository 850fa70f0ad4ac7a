"""The transport over real sockets on 127.0.0.1 (SPEC 8.5): CURVE, pins, ZAP, reconnects."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest
from net_helpers import curve, identity, statement

from p2pwillow.net.errors import WireError
from p2pwillow.net.keys import KeyStatement
from p2pwillow.net.transport import (
    DIAL_HANDSHAKE_IVL_MS,
    ConnectionState,
    Received,
    Transport,
    TransportError,
)
from p2pwillow.net.wire import MAX_FRAME_BYTES

LOCAL = "127.0.0.1"
DEADLINE = 5.0


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(asyncio.wait_for(test(), 30))


async def _node(n: int, **kwargs: Any) -> Transport:
    t = Transport(curve(n), host=LOCAL, **kwargs)
    await t.start()
    return t


async def _recv(t: Transport, timeout: float = DEADLINE) -> Received:
    return await asyncio.wait_for(t.recv(), timeout)


async def _until(check: Callable[[], Awaitable[bool]], timeout: float = DEADLINE) -> None:
    """Poll an observable condition (a frame that got through) until true, with a deadline."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await check():
        assert loop.time() < deadline, "condition not reached by the deadline"


def _link(a: Transport, b: Transport, na: int, nb: int) -> None:
    a.pin(statement(nb))
    b.pin(statement(na))
    a.connect(curve(nb).public, LOCAL, b.port)
    b.connect(curve(na).public, LOCAL, a.port)


async def _send_until_received(src: Transport, dst: Transport, peer: bytes, data: bytes) -> None:
    """Send (a DEALER drops frames until its handshake completes) until dst gets one."""

    async def got() -> bool:
        src.send(peer, data)
        try:
            r = await _recv(dst, 0.1)
        except TimeoutError:
            return False
        assert r.data == data and r.peer == src.keys.public and r.pinned
        return True

    await _until(got)


def test_a_frame_goes_both_ways() -> None:
    async def body() -> None:
        a, b = await _node(1), await _node(2)
        try:
            _link(a, b, 1, 2)
            assert await a.wait_state(curve(2).public, ConnectionState.CONNECTED, DEADLINE)
            assert await b.wait_state(curve(1).public, ConnectionState.CONNECTED, DEADLINE)
            assert a.send(curve(2).public, b"to b")
            assert b.send(curve(1).public, b"to a")
            assert (await _recv(b)) == Received(curve(1).public, b"to b", True)
            assert (await _recv(a)) == Received(curve(2).public, b"to a", True)
            big = b"x" * 100_000  # opaque bytes of any size up to the limit
            assert a.send(curve(2).public, big)
            assert (await _recv(b)).data == big
        finally:
            await a.close()
            await b.close()

    run(body)


def test_an_unpinned_key_is_refused() -> None:
    async def body() -> None:
        a, b = await _node(1), await _node(2)
        try:
            b.pin(statement(1))  # b trusts a, but a has not pinned b
            b.connect(curve(1).public, LOCAL, a.port)
            assert await b.wait_state(curve(1).public, ConnectionState.REFUSED, DEADLINE)
            b.send(curve(1).public, b"let me in")
            with pytest.raises(TimeoutError):
                await _recv(a, 0.3)
            assert a.counters.zap_refused >= 1
            # pinned at run time: the next attempt (libzmq re-dials) is let in
            a.pin(statement(2))
            assert await b.wait_state(curve(1).public, ConnectionState.CONNECTED, DEADLINE)
            await _send_until_received(b, a, curve(1).public, b"hello")
        finally:
            await a.close()
            await b.close()

    run(body)


def test_a_wrong_signature_on_a_curve_key_is_refused() -> None:
    good = statement(2)
    with pytest.raises(WireError, match="bad-key-statement"):
        KeyStatement(good.identity_key, curve(3).public, good.sig)  # sig is for another key
    with pytest.raises(WireError, match="bad-key-statement"):
        KeyStatement(identity(5).public_key, good.curve_key, good.sig)  # by another identity

    async def body() -> None:
        a, c = await _node(1), await _node(3)
        try:
            # a pinned node 2's statement: node 3, which has no statement of its own, stays out
            a.pin(good)
            c.connect(curve(1).public, LOCAL, a.port)
            assert await c.wait_state(curve(1).public, ConnectionState.REFUSED, DEADLINE)
            with pytest.raises(TypeError):
                a.pin(curve(3).public)  # type: ignore[arg-type]
        finally:
            await a.close()
            await c.close()

    run(body)


def test_a_dealer_only_talks_to_the_key_it_was_given() -> None:
    async def body() -> None:
        a, b = await _node(1), await _node(2)
        try:
            a.pin(statement(2))
            # b dials a's port but expects node 4's key there: the handshake cannot complete
            b.connect(curve(4).public, LOCAL, a.port)
            await asyncio.sleep(0)  # let the monitor start
            assert not await b.wait_state(curve(4).public, ConnectionState.CONNECTED, 1.0)
        finally:
            await a.close()
            await b.close()

    run(body)


def test_unpinned_at_run_time_is_cut_off_on_an_open_connection() -> None:
    async def body() -> None:
        a, b = await _node(1), await _node(2)
        try:
            _link(a, b, 1, 2)
            await _send_until_received(b, a, curve(1).public, b"one")
            a.unpin(curve(2).public)
            for _ in range(5):
                b.send(curve(1).public, b"two")
            with pytest.raises(TimeoutError):
                await _recv(a, 0.5)
            assert a.counters.unpinned >= 1
        finally:
            await a.close()
            await b.close()

    run(body)


def test_the_lobby_door_lets_unpinned_keys_say_hello() -> None:
    async def body() -> None:
        host, guest = await _node(1, accept_unpinned=True), await _node(2)
        try:
            guest.connect(curve(1).public, LOCAL, host.port)
            assert await guest.wait_state(curve(1).public, ConnectionState.CONNECTED, DEADLINE)

            async def got() -> bool:
                guest.send(curve(1).public, b"hello")
                try:
                    r = await _recv(host, 0.1)
                except TimeoutError:
                    return False
                assert r == Received(curve(2).public, b"hello", False)
                return True

            await _until(got)
            host.accept_unpinned = False  # genesis: only pinned keys from now on
            late = await _node(3)
            try:
                late.connect(curve(1).public, LOCAL, host.port)
                assert await late.wait_state(curve(1).public, ConnectionState.REFUSED, DEADLINE)
            finally:
                await late.close()
        finally:
            await host.close()
            await guest.close()

    run(body)


def test_a_peer_that_reconnects_is_served_again() -> None:
    async def body() -> None:
        a, b = await _node(1), await _node(2)
        port = b.port
        try:
            _link(a, b, 1, 2)
            await _send_until_received(a, b, curve(2).public, b"before")
            await b.close()  # b's process ends ...
            b = await _node(2, port=port)  # ... and starts again with the same keys and port
            b.pin(statement(1))
            b.connect(curve(1).public, LOCAL, a.port)
            # a's DEALER re-dials b by itself; a's ROUTER takes b's new DEALER's connection
            await _send_until_received(a, b, curve(2).public, b"after")
            await _send_until_received(b, a, curve(1).public, b"back")
        finally:
            await a.close()
            await b.close()

    run(body)


def test_a_burst_of_frames_is_taken_whole_and_in_order() -> None:
    """More frames at once than one drain takes (the socket's descriptor is edge-triggered):
    every one arrives, in order, and the listener is told once per batch, not per frame."""

    async def body() -> None:
        a, b = await _node(1), await _node(2)
        try:
            _link(a, b, 1, 2)
            await _send_until_received(a, b, curve(2).public, b"first")
            batches: list[int] = []
            got: list[bytes] = []

            def arrived() -> None:
                n = 0
                while (r := b.recv_nowait()) is not None:
                    got.append(r.data)
                    n += 1
                batches.append(n)

            b.listen(arrived)
            frames = [b"frame %d" % i for i in range(600)]
            for data in frames:
                assert a.send(curve(2).public, data)

            async def all_in() -> bool:
                await asyncio.sleep(0.01)
                return len(got) >= len(frames)

            await _until(all_in)
            assert got == frames
            assert sum(batches) == len(frames) and len(batches) < len(frames)
            b.listen(None)
            assert a.send(curve(2).public, b"after")
            assert (await _recv(b)).data == b"after"  # recv still works once nobody listens
        finally:
            await a.close()
            await b.close()

    run(body)


def test_nothing_is_queued_for_a_peer_that_is_not_there() -> None:
    async def body() -> None:
        a = await _node(1)
        try:
            a.connect(curve(2).public, LOCAL, 9)  # nobody listens there
            assert not a.send(curve(2).public, b"lost")
            assert not a.send(b"\x00" * 32, b"never dialled")
            assert a.counters.send_dropped == 2
        finally:
            await a.close()

    run(body)


def test_a_dialled_connection_whose_handshake_stalls_is_dialled_afresh() -> None:
    """The peer's side of a connection says nothing after TCP opened (here: a listener that
    never answers ZeroMQ's greeting; on a lossy link: segments lost again and again while TCP's
    retransmissions back off). The DEALER gives it up after DIAL_HANDSHAKE_IVL_MS, not
    ZeroMQ's default 30 s, and opens a new connection."""

    async def body() -> None:
        loop = asyncio.get_running_loop()
        with socket.socket() as silent:
            silent.bind((LOCAL, 0))
            silent.listen(8)  # the kernel completes TCP's handshake; nobody reads or writes
            a = await _node(1)
            try:
                peer = curve(2).public
                dialled = loop.time()
                a.connect(peer, LOCAL, silent.getsockname()[1])
                assert await a.wait_state(peer, ConnectionState.OPENED, DEADLINE)
                limit = DIAL_HANDSHAKE_IVL_MS / 1000
                while a.failures(peer) == 0:
                    assert loop.time() - dialled < limit + 3, "the stalled handshake was kept"
                    await asyncio.sleep(0.05)
                assert loop.time() - dialled >= limit - 0.5  # given up for its time, not else
                assert ConnectionState.HANDSHAKE_FAILED in a.states_seen(peer)
                # ... and dialled again: a second connection opens (the first one failed)
                assert await a.wait_state(peer, ConnectionState.OPENED, DEADLINE)
                assert a.failures(peer) == 1
            finally:
                await a.close()

    run(body)


def test_an_oversized_message_is_not_delivered() -> None:
    async def body() -> None:
        a, b = await _node(1), await _node(2)
        try:
            _link(a, b, 1, 2)
            await _send_until_received(a, b, curve(2).public, b"small")
            a.send(curve(2).public, b"x" * (MAX_FRAME_BYTES + 1))
            with pytest.raises(TimeoutError):
                await _recv(b, 0.5)
        finally:
            await a.close()
            await b.close()

    run(body)


def test_a_port_in_use_is_one_clear_error() -> None:
    async def body() -> None:
        a = await _node(1)
        try:
            with pytest.raises(TransportError, match="cannot listen"):
                await _node(2, port=a.port)
        finally:
            await a.close()

    run(body)


def _script(source: str) -> list[str]:
    """The words the script printed; AssertionError with its output if it died."""
    here = Path(__file__).resolve().parent
    done = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", source],
        cwd=here,
        env={"PYTHONPATH": f"{here}:{here.parent.parent}", "PATH": ""},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, (done.returncode, done.stdout[-2000:], done.stderr[-2000:])
    return done.stdout.split()


LEFT_OPEN = """
import asyncio, gc
from net_helpers import curve, pinned_pair

async def main():
    a, b = await pinned_pair()
    a.connect(curve(2).public, "127.0.0.1", b.port)
    b.connect(curve(1).public, "127.0.0.1", a.port)
    await asyncio.sleep(0.3)

asyncio.run(main())  # both left open
gc.collect()
print("collected")
"""


def test_a_transport_left_open_does_not_stop_the_collector() -> None:
    """Two linked transports nobody closed (a path that failed half-way) become garbage: the
    collector that finds them goes on (pyzmq's own finalizer would wait for good for sockets
    the same cycle of garbage closes only later), and the process ends."""
    assert _script(LEFT_OPEN) == ["collected"]


def _open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="no /proc/self/fd here")
def test_dialling_again_and_again_leaves_no_descriptor_behind() -> None:
    """A peer dialled, refused, re-dialled and dropped (a newcomer's dial-back, a door's busy
    answer) many times over: each of its sockets is closed with what fed its monitor, and the
    process's descriptors come back to where they were."""

    async def body() -> None:
        a, b = await _node(1), await _node(2)
        try:
            before = _open_descriptors()
            for _ in range(20):
                a.connect(curve(2).public, LOCAL, b.port)  # b has not pinned a: refused
                assert await a.wait_state(curve(2).public, ConnectionState.REFUSED, DEADLINE)
                a.disconnect(curve(2).public)

            async def back() -> bool:
                await asyncio.sleep(0.05)  # libzmq's reaper closes them on its own thread
                return _open_descriptors() <= before

            await _until(back)
        finally:
            await a.close()
            await b.close()

    run(body)


# --- a connection that fails while frames wait on it ----------------------------------------
# libzmq 4.3 aborts the process (`Assertion failed: !_io_error`, stream_engine_base.cpp) when
# a connection whose reading it stopped at a receive high-water mark fails before it is read
# again: the next heartbeat writes on it. Each script below plays that against a transport in a
# process of its own; the process must live on.

WRITES_BACK = """
import asyncio, os, socket, struct
import zmq
from net_helpers import curve, pinned_pair

async def main():
    a, b = await pinned_pair()
    routed = []  # the routing identity b's ROUTER gave a's connection
    accept = b._accept
    b._accept = lambda parts: routed.append(parts[0].bytes) or accept(parts)
    a.connect(curve(2).public, "127.0.0.1", b.port)
    while True:  # until the handshake is done and a frame went through
        a.send(curve(2).public, b"hello")
        try:
            await asyncio.wait_for(b.recv(), 0.1)
            break
        except TimeoutError:
            pass
    # the hostile side: its ROUTER writes back on a's own connection to it, then resets it
    for _ in range(8):
        b._router.send_multipart([routed[-1], b"back"], flags=zmq.NOBLOCK)
    await asyncio.sleep(0.5)
    for fd in list(b._accepted):
        s = socket.socket(fileno=os.dup(fd))
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        s.close()
    await b.close()
    await asyncio.sleep(3.0)  # three heartbeats
    print("alive", a.counters.unasked)
    await a.close()

asyncio.run(main())
"""

FLOODS_A_BUSY_LOOP = """
import asyncio, os, socket, struct, time
import zmq
from zmq.utils.monitor import recv_monitor_message
from net_helpers import curve, statement
from p2pwillow.net.transport import Transport

async def main():
    b = Transport(curve(2), host="127.0.0.1")
    await b.start()
    b.pin(statement(1))
    d = zmq.Context.instance().socket(zmq.DEALER)  # the hostile peer, pinned
    d.linger = 0
    d.curve_secretkey, d.curve_publickey = curve(1).secret, curve(1).public
    d.curve_serverkey = curve(2).public
    d.routing_id = curve(1).public
    d.sndhwm = 0
    monitor = d.get_monitor_socket(zmq.EVENT_CONNECTED)
    d.connect(f"tcp://127.0.0.1:{b.port}")
    fd = int(recv_monitor_message(monitor)["value"])
    while True:
        d.send(b"hello")
        try:
            await asyncio.wait_for(b.recv(), 0.1)
            break
        except TimeoutError:
            pass
    for _ in range(5000):  # far past a high-water mark of 1000
        d.send(b"y" * 100)
    time.sleep(1.0)  # the loop busy (a proof being checked): nothing reads the ROUTER
    s = socket.socket(fileno=os.dup(fd))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()
    d.close()  # reset
    time.sleep(2.5)  # still busy across two heartbeats
    got = 0
    for _ in range(20):  # the loop free again: it reads what waits
        await asyncio.sleep(0.05)
        while b.recv_nowait() is not None:
            got += 1
    print("alive", got)
    await b.close()

asyncio.run(main())
"""


def test_a_peer_that_writes_back_on_our_connection_and_resets_it_does_not_abort_us() -> None:
    """A peer's ROUTER never sends, so a hostile one that writes back on the connection we
    dialled, then resets it, is thrown away and counted; the process lives on."""
    assert _script(WRITES_BACK) == ["alive", "8"]


def test_a_flood_while_the_loop_is_busy_then_a_reset_does_not_abort_us() -> None:
    """A pinned peer sends 5000 frames while the loop is busy, then resets its connection: the
    process lives on, and every frame that arrived before the reset is read."""
    assert _script(FLOODS_A_BUSY_LOOP) == ["alive", "5000"]


# --- a connection that names the routing identity of another --------------------------------
# Anybody at the door may name a routing identity (our DEALERs name none). The ROUTER hands it
# to the newest connection that names it; the older one lives on with no queue to the socket,
# so a frame that still comes on it stops its reading. If that connection is then reset,
# libzmq 4.3 marks it failed, and a ROUTER that pinged would write on it at its next ping and
# abort the process: a stranger could stop the host this way, and a lossy link's re-dials did.

NAMES_ITS_ROUTING_ID_TWICE = """
import asyncio, os, socket, struct
import zmq
from zmq.utils.monitor import recv_monitor_message
from net_helpers import curve, statement
from p2pwillow.net.transport import Transport, time_dealer

def dialler(port):
    d = zmq.Context.instance().socket(zmq.DEALER)
    d.linger = 0
    d.curve_secretkey, d.curve_publickey = curve(1).secret, curve(1).public
    d.curve_serverkey = curve(2).public
    d.routing_id = curve(1).public  # (as DEALERs did before they named none)
    time_dealer(d)
    monitor = d.get_monitor_socket(zmq.EVENT_CONNECTED)
    d.connect(f"tcp://127.0.0.1:{port}")
    return d, int(recv_monitor_message(monitor)["value"])

async def through(b, d, data):
    while True:  # a DEALER drops frames until its handshake is done
        d.send(data)
        try:
            if (await asyncio.wait_for(b.recv(), 0.1)).data == data:
                return
        except TimeoutError:
            pass

async def main():
    b = Transport(curve(2), host="127.0.0.1")
    await b.start()
    b.pin(statement(1))
    old, old_fd = dialler(b.port)
    await through(b, old, b"first")
    new, _ = dialler(b.port)  # the same routing identity: the ROUTER hands it over
    await through(b, new, b"second")
    for _ in range(3):
        old.send(b"late")  # on the old connection, which has no queue to the socket now
    await asyncio.sleep(0.3)
    s = socket.socket(fileno=os.dup(old_fd))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    s.close()
    old.close()  # reset
    await asyncio.sleep(3.0)  # three pings' time
    await through(b, new, b"third")
    print("alive")
    new.close()
    await b.close()

asyncio.run(main())
"""


def test_a_connection_handed_over_then_reset_does_not_abort_us() -> None:
    """Two connections with one routing identity; the old one gets frames after the hand-over,
    then a reset: the process lives on, and the new connection still carries frames."""
    assert _script(NAMES_ITS_ROUTING_ID_TWICE) == ["alive"]
