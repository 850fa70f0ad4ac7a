"""The live table's sockets: one ROUTER bound, one DEALER to each peer, CURVE everywhere, a ZAP
handler that lets in only pinned keys (SPEC 8.5; Zyre's harmony pattern).

Does network I/O, on asyncio through `zmq.asyncio`. Frames are opaque bytes here: what they mean
is `wire`'s and `replication`'s business. Nothing here is Linux-only.
"""

# Theory of operation
# -------------------
# A node has one CURVE key pair (`CurveKeyPair`). Its ROUTER is the CURVE server with it; each
# DEALER is a CURVE client with the same pair and the peer's key as server key, so each side
# authenticates the other: a DEALER only completes a handshake with the holder of the key it
# was given, and the peer's ZAP handler only admits a client whose key is pinned. A frame's
# sender is the key its connection authenticated (ZAP's User-Id); a DEALER names no routing
# identity, so the ROUTER gives each connection one of its own (see `start`).
# Pins are keys whose `KeyStatement` verified (the identity vouches for the CURVE key); they
# change at run time (`pin`, `unpin`, `set_pins`), and every received frame is checked against
# them again, so a key unpinned mid-game is cut off at once even on a connection that was
# already open. `accept_unpinned` opens the door for the lobby: unknown
# keys may connect, and their frames come up marked `pinned=False` (the lobby takes only a
# hello from them).
#
# The ZAP handler is this transport's own REP socket on the context's ZAP endpoint, bound
# before the ROUTER, so there is never a moment where libzmq would let CURVE clients in with no
# handler (its behaviour when none is bound). What waits to be sent is bounded by the sending
# high-water marks and DEALERs queue nothing for a peer that is not connected (`IMMEDIATE`): a
# frame that cannot go is dropped and counted, and the replication sends it again. What
# arrives has no high-water mark (libzmq 4.3 can abort the process on a connection whose
# receiving stopped at one: see `start`); the loop reads it as it comes, and what a peer sends
# back on a DEALER (never, but from a hostile one) is thrown away. Sockets close with LINGER 0.
#
# Receiving costs no future per frame: the ROUTER is a plain socket whose file descriptor the
# loop watches (`_readable`). ZeroMQ's descriptor is edge-triggered: it signals that the
# socket's state may have changed, not that a message waits, so each signal drains every
# message that is there (non-blocking receives until EAGAIN, then ZMQ_EVENTS once more in case
# one came meanwhile) into an inbox. `listen` names a callback the loop calls once per such
# batch (the node takes the whole batch in one go); `recv` awaits the inbox. Pins are checked
# when a frame is taken from the inbox, as before when it was taken from the socket.

from __future__ import annotations

import asyncio
import contextlib
import enum
import errno
import logging
import socket
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, cast

import zmq
import zmq.asyncio
from zmq.utils.monitor import parse_monitor_message

from p2pwillow import descriptors
from p2pwillow.net.doorbell import open_doorbell
from p2pwillow.net.keys import CURVE_KEY_BYTES, CurveKeyPair, KeyStatement
from p2pwillow.net.wire import MAX_FRAME_BYTES

log = logging.getLogger(__name__)

ZAP_ENDPOINT = "inproc://zeromq.zap.01"
ZAP_DOMAIN = b"p2pwillow"
HWM = 1000
"""At most this many frames wait to go to one peer (SPEC 8.3)."""
RECONNECT_IVL_MS = 100
RECONNECT_IVL_MAX_MS = 2000
HEARTBEAT_IVL_MS = 1000
HEARTBEAT_TIMEOUT_MS = 3000
"""ZMTP heartbeats, on a DEALER: a connection whose peer went silent is dropped and re-dialled.
A ROUTER does not ping (see `start`)."""
KEEPALIVE_IDLE_S = 2
KEEPALIVE_INTVL_S = 1
KEEPALIVE_CNT = 3
UNANSWERED_MS = 3000
"""A connection the ROUTER accepted is closed by the kernel once its peer has answered nothing
for 3 s: TCP keepalive probes after 2 s of quiet, one a second, and a limit on how long what
was sent may go unacknowledged (TCP_USER_TIMEOUT, where the system has it) (SPEC 8.3)."""
REFUSED_RETRY = 0.25
REFUSED_RETRY_MAX = 4.0
"""After a refusal, dial again after 0.25 s, doubling up to 4 s."""
PORT_TRIES = 20
"""Random ports tried for one whose UDP twin is free too (the doorbell's)."""
SHED_POLL_MS = 100
"""The shedder looks whether its transport is closing this often."""
HANDSHAKE_IVL_MS = 3000
"""A connection that has not completed its ZMTP and CURVE handshake this long after it was
accepted is closed (a bare TCP connect holds a descriptor no longer; SPEC 8.3)."""
DIAL_HANDSHAKE_IVL_MS = 5000
"""A connection this node dialled whose handshake has not completed this long after it opened
is closed and dialled afresh. The peer's ROUTER closes it at 3 s already; this is for the
close that does not arrive: on a lossy link TCP's retransmissions back off, and an open
connection whose segments are lost again and again can keep waiting for tens of seconds (ZeroMQ's
default is 30 s), where a new one starts from fresh timers (SPEC 8.3)."""
MAX_PER_ADDRESS = 32
"""At most this many connections from one source address are kept open on the ROUTER: more
are closed as soon as they are accepted (a table on one machine has at most 9 others)."""
MAX_CONNECTIONS_SHARE = 2
"""At most 1/this of the process's descriptors (its soft RLIMIT_NOFILE) go to connections
the ROUTER accepted; more are closed as soon as they are accepted."""
DOOR_OK, DOOR_BUSY, DOOR_NO = 200, 300, 400
"""What a door policy says of an unpinned key (ZAP status codes, RFC 27): let it in; the
door is busy (a temporary failure: try again); not here."""
DRAIN = 256
"""At most this many messages are taken from the socket in one go; the rest on the next turn
of the loop, so that a flood of frames does not hold the loop."""


class TransportError(Exception):
    """The transport cannot do what was asked (a port in use, a bad address); one line.
    `no_address`: the address to listen on is not one of this machine's."""

    def __init__(self, message: str, *, no_address: bool = False) -> None:
        super().__init__(message)
        self.no_address = no_address


NO_ADDRESS_ERRNOS = frozenset({errno.EADDRNOTAVAIL, errno.ENODEV, 10049})
"""Binding failed because no interface has the address (10049: Windows' WSAEADDRNOTAVAIL)."""


class ConnectionState(enum.Enum):
    """A DEALER's connection to a peer, as libzmq's monitor reports it."""

    CONNECTING = "connecting"
    CONNECTED = "connected"
    DISCONNECTED = "disconnected"
    REFUSED = "refused"
    """The peer's ZAP handler refused our key (we are not pinned there)."""
    OPENED = "opened"
    """The TCP connection is open, the handshake is not done yet: something listens there."""
    BUSY = "busy"
    """The peer's door is full (its ZAP handler said 300, a temporary failure): try again."""
    HANDSHAKE_FAILED = "handshake failed"
    """Something answered at the address but the CURVE handshake failed: it does not hold the
    key we dialled (a wrong join code, or another program on that port)."""


@dataclass(frozen=True, slots=True)
class Received:
    """A frame from the peer whose authenticated CURVE key is `peer`."""

    peer: bytes
    data: bytes
    pinned: bool
    address: str = field(default="", compare=False)
    """The sender's IP address as this socket sees it (libzmq's Peer-Address), if known."""


@dataclass(slots=True)
class Counters:
    """What the transport dropped, for logs and tests."""

    unpinned: int = 0
    """Frames from keys not pinned (or no longer)."""
    spoofed: int = 0
    """Messages that do not carry one frame and its sender's authenticated key."""
    send_dropped: int = 0
    """Frames not sent: peer not connected or its queue full."""
    zap_refused: int = 0
    zap_busy: int = 0
    """Handshakes of unpinned keys turned away because the door was full."""
    shed: int = 0
    """Accepted connections closed at once: over the limit per address or in all."""
    unasked: int = 0
    """Frames a peer sent back on our own connection to it (its ROUTER never sends; thrown
    away as they come)."""


_MONITOR_STATES: dict[int, ConnectionState] = {
    zmq.EVENT_CONNECT_DELAYED: ConnectionState.CONNECTING,
    zmq.EVENT_CONNECT_RETRIED: ConnectionState.CONNECTING,
    zmq.EVENT_CONNECTED: ConnectionState.OPENED,
    zmq.EVENT_HANDSHAKE_SUCCEEDED: ConnectionState.CONNECTED,
    zmq.EVENT_HANDSHAKE_FAILED_AUTH: ConnectionState.REFUSED,
    zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL: ConnectionState.HANDSHAKE_FAILED,
    zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL: ConnectionState.HANDSHAKE_FAILED,
    zmq.EVENT_DISCONNECTED: ConnectionState.DISCONNECTED,
}


class _Dealer:
    """The DEALER to one peer, its monitor, and what the monitor last said."""

    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint
        self.socket: zmq.asyncio.Socket | None = None
        self.monitor: zmq.asyncio.Socket | None = None
        self.sender: zmq.Socket[bytes] | None = None
        self.state = ConnectionState.CONNECTING
        self.changed = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.refusals = 0
        self.seen: set[ConnectionState] = {ConnectionState.CONNECTING}
        self.failures = 0
        """Handshakes refused or failed since it was dialled."""
        self.watching: tuple[asyncio.AbstractEventLoop, int] | None = None
        """The loop that reads the DEALER (what a peer sends back is thrown away) and the
        descriptor it watches."""

    def set_state(self, state: ConnectionState) -> None:
        self.seen.add(state)
        if state in (ConnectionState.REFUSED, ConnectionState.HANDSHAKE_FAILED):
            self.failures += 1
        if state is not self.state:
            self.state = state
            self.changed.set()
            self.changed = asyncio.Event()

    def close(self) -> None:
        # libzmq (4.3) closes the PAIR that feeds a socket's monitor only when the monitor is
        # disabled or the context ends, not with the socket: every re-dial would keep one (and
        # its descriptor) until the node stops
        if self.watching is not None:
            loop, fd = self.watching
            with contextlib.suppress(Exception):  # a loop already closed has no reader left
                loop.remove_reader(fd)
            self.watching = None
        if self.socket is not None and self.monitor is not None:
            with contextlib.suppress(zmq.ZMQError):
                self.socket.disable_monitor()
        for sock in (self.monitor, self.socket):
            if sock is not None:
                sock.close(0)
        self.socket = self.monitor = self.sender = None


class _Context(zmq.asyncio.Context):
    """A transport's zmq context. One the garbage collector finds still open (a transport
    left unclosed by a path that failed) is ended from a thread of its own: pyzmq's own
    finalizer ends it where the collector runs, and its `term()` waits for every socket of
    the context, which in the same cycle of garbage may only be closed by finalizers that run
    after it. Waiting there would stop the thread that found the garbage, for good."""

    def __del__(self) -> None:
        if not self.closed and not sys.is_finalizing():
            threading.Thread(target=self.destroy, args=(0,), daemon=True).start()


def time_dealer(dealer: zmq.Socket[Any]) -> None:
    """A dialled connection's timers (SPEC 8.3): re-dial, give up a stalled handshake, tell a
    silent peer by its heartbeats. One place for the transport's dials and the benchmark that
    measures them (bench/lossy.py)."""
    dealer.reconnect_ivl = RECONNECT_IVL_MS
    dealer.reconnect_ivl_max = RECONNECT_IVL_MAX_MS
    dealer.handshake_ivl = DIAL_HANDSHAKE_IVL_MS
    dealer.heartbeat_ivl = HEARTBEAT_IVL_MS
    dealer.heartbeat_timeout = HEARTBEAT_TIMEOUT_MS


def _selector(loop: asyncio.AbstractEventLoop) -> asyncio.AbstractEventLoop:
    """What watches file descriptors for `loop`: the loop itself, or under Windows' proactor
    loop (which has no `add_reader`) the selector thread zmq.asyncio runs for its own sockets."""
    get = getattr(zmq.asyncio, "_get_selector", None)
    return loop if get is None else get(loop)


def _drain(
    sock: zmq.Socket[bytes],
    take: Callable[[list[zmq.Frame]], object],
    again: Callable[[], None],
) -> None:
    """Give `take` each message waiting on `sock`, at most DRAIN of them (then `again` on the
    loop's next turn: what is left is taken then, the descriptor may not signal again).
    ZeroMQ's descriptor is edge-triggered: read while the socket says a message is there (one
    that came meanwhile may not signal); asking costs less than the error a read of an empty
    socket raises."""
    taken = 0
    while cast(int, sock.get(zmq.EVENTS)) & zmq.POLLIN:
        try:
            take(sock.recv_multipart(flags=zmq.NOBLOCK, copy=False))
        except zmq.Again:
            break
        taken += 1
        if taken >= DRAIN:
            asyncio.get_running_loop().call_soon(again)
            break


def _descriptors() -> int:
    """The process's soft limit of open descriptors (1024 where it cannot be read)."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (ImportError, OSError, ValueError):
        return 1024
    return soft if soft > 0 else 1024


def _peer_address(fd: int) -> str | None:
    """The source address of the TCP connection on descriptor `fd` (not duplicated: no new
    descriptor is needed, which matters when they run short), or None if it is none."""
    try:
        sock = socket.socket(fileno=fd)
    except OSError:
        return None
    try:
        peer = sock.getpeername()
    except OSError:
        return None
    finally:
        sock.detach()
    return str(peer[0]) if isinstance(peer, tuple) else None


def _shut(fd: int) -> None:
    """Shut the connection on `fd` down; libzmq sees it end and closes it itself."""
    with contextlib.suppress(OSError):
        sock = socket.socket(fileno=fd)
        try:
            sock.shutdown(socket.SHUT_RDWR)
        finally:
            sock.detach()


def tcp_endpoint(host: str, port: int) -> str:
    """The ZeroMQ endpoint of a ROUTER at host:port (an IPv6 address in brackets)."""
    return f"tcp://[{host}]:{port}" if ":" in host else f"tcp://{host}:{port}"


class Transport:
    """One node's sockets. `await start()` binds the ROUTER on `host:port` (port 0: any free
    port, see `port`); `connect` dials a peer; `send` and `recv` move frames; `close` ends all.
    """

    def __init__(
        self,
        keys: CurveKeyPair,
        *,
        host: str = "0.0.0.0",
        port: int = 0,
        accept_unpinned: bool = False,
        hwm: int = HWM,
        doorbell: bytes | None = None,
    ) -> None:
        self.keys = keys
        self._doorbell = doorbell
        """The answer to a guest's question on UDP at this port (SPEC 8.6), if it answers."""
        self._bell: asyncio.DatagramTransport | None = None
        self.host = host
        self.accept_unpinned = accept_unpinned
        self.counters = Counters()
        self._requested_port = port
        self._hwm = hwm
        self._port: int | None = None
        self._pins: set[bytes] = set()
        self._dealers: dict[bytes, _Dealer] = {}
        self._ctx: zmq.asyncio.Context | None = None
        self._router: zmq.Socket[bytes] | None = None
        self._inbox: deque[list[zmq.Frame]] = deque()
        self._arrived = asyncio.Event()
        self._listener: Callable[[], None] | None = None
        self._watching: asyncio.AbstractEventLoop | None = None
        self._zap: zmq.asyncio.Socket | None = None
        self._zap_task: asyncio.Task[None] | None = None
        self._monitors = 0
        self.door: Callable[[bytes, str], int] | None = None
        """With `accept_unpinned`: what to say of an unpinned key connecting from an address
        (DOOR_OK, DOOR_BUSY or DOOR_NO); None lets every unpinned key in."""
        self._accepted: dict[int, str] = {}
        """Descriptor -> source address of each connection the ROUTER accepted and has not
        closed (from its monitor)."""
        self._router_monitor: zmq.Socket[bytes] | None = None
        self._shedder: threading.Thread | None = None
        self._shedding = threading.Event()
        """Set while the shedder runs; cleared to stop it."""
        self._held = False
        self.max_connections = max(64, _descriptors() // MAX_CONNECTIONS_SHARE)

    # --- life cycle ------------------------------------------------------------------------------

    async def start(self) -> None:
        """Bind the ZAP handler, then the ROUTER. TransportError if the port cannot be bound."""
        if self._ctx is not None:
            raise TransportError("the transport is already started")
        ctx = _Context()
        self._ctx = ctx
        descriptors.hold()
        self._held = True
        zap = ctx.socket(zmq.REP)
        zap.linger = 0
        zap.bind(ZAP_ENDPOINT)
        self._zap = zap
        self._zap_task = asyncio.create_task(self._serve_zap(), name="zap")
        # a plain socket: `_readable` takes its messages (see the module comment)
        router: zmq.Socket[bytes] = zmq.Socket(ctx, zmq.ROUTER)
        router.linger = 0
        router.curve_server = True
        router.curve_secretkey = self.keys.secret
        router.curve_publickey = self.keys.public
        router.zap_domain = ZAP_DOMAIN
        # (a connection that names a routing identity another one has takes it over: see below)
        router.router_handover = 1
        # No bound on what waits to be read (0): libzmq 4.3 aborts the whole process when a
        # connection whose receiving it stopped at the high-water mark fails before it is read
        # again (stream_engine_base.cpp: `!_io_error`, from the next heartbeat or a PING read
        # after). The loop takes every frame as it comes (`_readable`), so a queue forms only
        # while the loop is busy (SPEC 8.3).
        router.rcvhwm = 0
        router.sndhwm = self._hwm
        router.maxmsgsize = MAX_FRAME_BYTES
        # The ROUTER does not ping (its heartbeat interval stays 0). A connection handed over
        # to a peer's newer one with its routing identity lives on with no queue to the
        # socket: a frame that still comes on it stops its reading, a reset then marks it
        # failed, and libzmq 4.3's ping timer writes on a connection whatever its state, which
        # aborts the process there (stream_engine_base.cpp: `!_io_error`). Our DEALERs name no
        # routing identity, so nothing is handed over between them; anybody at the door may
        # name one. A dead peer's connection is closed by the kernel instead (TCP keepalive,
        # TCP_USER_TIMEOUT), and a live peer's DEALER pings (`time_dealer`).
        router.tcp_keepalive = 1
        router.tcp_keepalive_idle = KEEPALIVE_IDLE_S
        router.tcp_keepalive_intvl = KEEPALIVE_INTVL_S
        router.tcp_keepalive_cnt = KEEPALIVE_CNT
        router.setsockopt(zmq.TCP_MAXRT, UNANSWERED_MS)
        router.handshake_ivl = HANDSHAKE_IVL_MS
        with contextlib.suppress(zmq.ZMQError, AttributeError):
            router.setsockopt(zmq.ZAP_ENFORCE_DOMAIN, 1)
        self._monitors += 1
        monitor_addr = f"inproc://p2pwillow-router-monitor-{self._monitors}"
        router.monitor(monitor_addr, zmq.EVENT_ACCEPTED | zmq.EVENT_CLOSED | zmq.EVENT_DISCONNECTED)
        # a plain PAIR socket (not the asyncio context's kind): its thread reads it, blocking
        monitor: zmq.Socket[bytes] = zmq.Socket(ctx, zmq.PAIR)
        monitor.linger = 0
        monitor.connect(monitor_addr)
        self._router_monitor = monitor
        self._shedding.set()
        self._shedder = threading.Thread(
            target=self._shed, args=(monitor,), name="p2pwillow-shedder", daemon=True
        )
        self._shedder.start()
        try:
            await self._bind(router)
        except (zmq.ZMQError, OSError) as exc:
            router.close(0)
            await self.close()
            raise TransportError(
                f"cannot listen on {self.host}:{self._requested_port or 'any port'}: {exc}",
                no_address=exc.errno in NO_ADDRESS_ERRNOS,
            ) from None
        self._router = router
        self._watching = _selector(asyncio.get_running_loop())
        self._watching.add_reader(router.FD, self._readable)

    async def _bind(self, router: zmq.Socket[bytes]) -> None:
        """Bind the ROUTER, and the doorbell (if this node answers) on the same port number in
        UDP: the port asked for, or any free port where both are free."""
        if self._requested_port:
            router.bind(tcp_endpoint(self.host, self._requested_port))
            if self._doorbell is not None:
                self._bell = await open_doorbell(self.host, self._requested_port, self._doorbell)
            self._port = self._requested_port
            return
        for _ in range(PORT_TRIES):
            port = router.bind_to_random_port(tcp_endpoint(self.host, 0).rsplit(":", 1)[0])
            try:
                if self._doorbell is not None:
                    self._bell = await open_doorbell(self.host, port, self._doorbell)
            except OSError:
                router.unbind(cast(bytes, router.last_endpoint))
                continue
            self._port = port
            return
        raise OSError("no port free for both TCP and UDP")

    @property
    def port(self) -> int:
        if self._port is None:
            raise TransportError("the transport is not started")
        return self._port

    async def close(self) -> None:
        """Close every socket at once (LINGER 0) and end the tasks; safe to call twice."""
        tasks = [d.task for d in self._dealers.values() if d.task is not None]
        if self._zap_task is not None:
            tasks.append(self._zap_task)
        self._shedding.clear()
        if self._shedder is not None:
            await asyncio.to_thread(self._shedder.join)
            self._shedder = None
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, zmq.ZMQError):
                await task
        for d in self._dealers.values():
            d.close()
        self._dealers.clear()
        if self._watching is not None and self._router is not None:
            with contextlib.suppress(Exception):  # a loop already closed has no reader left
                self._watching.remove_reader(self._router.FD)
        self._watching = None
        self._listener = None
        self._inbox.clear()
        self._arrived.set()  # a recv waiting now ends: the transport is not started
        if self._bell is not None:
            self._bell.close()
            self._bell = None
        for sock in (self._router_monitor, self._router, self._zap):
            if sock is not None:
                sock.close(0)
        self._router = self._zap = self._router_monitor = None
        self._accepted.clear()
        self._zap_task = None
        if self._ctx is not None:
            self._ctx.term()
            self._ctx = None
        if self._held:
            self._held = False
            descriptors.release()

    async def __aenter__(self) -> Transport:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # --- pins ------------------------------------------------------------------------------------

    def pin(self, statement: KeyStatement) -> None:
        """Let the node whose key `statement` vouches for in (a KeyStatement always verifies)."""
        if not isinstance(statement, KeyStatement):
            raise TypeError("pin takes a KeyStatement (a CURVE key signed by an identity)")
        self._pins.add(statement.curve_key)

    def unpin(self, curve_key: bytes) -> None:
        """Keep this key out from now on, on connections already open too."""
        self._pins.discard(curve_key)

    def set_pins(self, statements: Iterable[KeyStatement]) -> None:
        """Replace the pins (after the genesis: exactly the seated players' keys)."""
        pins = set()
        for statement in statements:
            if not isinstance(statement, KeyStatement):
                raise TypeError("set_pins takes KeyStatements")
            pins.add(statement.curve_key)
        self._pins = pins

    @property
    def pinned(self) -> frozenset[bytes]:
        return frozenset(self._pins)

    def _admits(self, key: bytes, address: str = "") -> int:
        if key in self._pins:
            return DOOR_OK
        if not self.accept_unpinned:
            return DOOR_NO
        return DOOR_OK if self.door is None else self.door(key, address)

    async def _serve_zap(self) -> None:
        """Answer libzmq's ZAP requests (RFC 27): 200 for a pinned CURVE key; for another, 200
        or 300 (the door is full: try again) as the door says, else 400."""
        zap = self._zap
        assert zap is not None
        while True:
            request = await zap.recv_multipart()
            version, request_id = request[0], request[1] if len(request) > 1 else b""
            status = DOOR_NO
            user = b""
            if version == b"1.0" and len(request) >= 7 and request[5] == b"CURVE":
                key = request[6]
                address = request[3].decode("ascii", "replace")
                if len(key) == CURVE_KEY_BYTES:
                    status = self._admits(key, address)
                    if status == DOOR_OK:
                        user = key.hex().encode()
            if status == DOOR_BUSY:
                self.counters.zap_busy += 1
            elif status != DOOR_OK:
                self.counters.zap_refused += 1
            text = {DOOR_OK: b"OK", DOOR_BUSY: b"the table is busy: try again"}
            await zap.send_multipart(
                [
                    b"1.0",
                    request_id,
                    str(status).encode(),
                    text.get(status, b"key not pinned for this table"),
                    user,
                    b"",
                ]
            )

    def _shed(self, monitor: zmq.Socket[bytes]) -> None:
        """The shedder, a thread of its own (not the loop's task: a loop busy with the game
        would let a flood pile up meanwhile): it keeps the connections the ROUTER accepted
        within bounds, at most MAX_PER_ADDRESS from one source address and `max_connections`
        in all; one over is shut down as soon as it is accepted (libzmq then closes it). The
        process's descriptors themselves are bounded by its wall (`descriptors`)."""
        poller = zmq.Poller()
        poller.register(monitor, zmq.POLLIN)
        while self._shedding.is_set():
            try:
                if not poller.poll(SHED_POLL_MS):
                    continue
                while True:
                    try:
                        parts = monitor.recv_multipart(zmq.NOBLOCK)
                    except zmq.Again:
                        break
                    self._accepted_event(parts)
            except zmq.ZMQError:
                return  # the context is ending

    def _accepted_event(self, parts: list[bytes]) -> None:
        message = parse_monitor_message(parts)
        event, fd = int(message["event"]), int(message["value"])
        if event != zmq.EVENT_ACCEPTED:
            self._accepted.pop(fd, None)
            return
        address = _peer_address(fd)
        if address is None:
            return  # closed already (its descriptor may be another's now)
        same = sum(1 for a in self._accepted.values() if a == address)
        if same >= MAX_PER_ADDRESS or len(self._accepted) >= self.max_connections:
            self.counters.shed += 1
            _shut(fd)
            return
        self._accepted[fd] = address

    @property
    def connections(self) -> int:
        """The connections the ROUTER accepted that are open, as its monitor last said."""
        return len(self._accepted)

    # --- peers -----------------------------------------------------------------------------------

    def connect(self, peer_key: bytes, host: str, port: int) -> None:
        """Dial the peer whose CURVE key is `peer_key` at host:port (again if already dialled:
        the old connection is closed). libzmq re-dials by itself after a disconnect; after a
        refusal (the peer has not pinned us yet) this transport re-dials, with a backoff."""
        if self._ctx is None:
            raise TransportError("the transport is not started")
        if not isinstance(peer_key, bytes) or len(peer_key) != CURVE_KEY_BYTES:
            raise TransportError(f"a CURVE key is {CURVE_KEY_BYTES} bytes")
        if not 0 < port < 65536:
            raise TransportError(f"port {port} is not 1..65535")
        self.disconnect(peer_key)
        d = _Dealer(tcp_endpoint(host, port))
        try:
            descriptors.opening(lambda: self._open(d, peer_key))
        except zmq.ZMQError as exc:
            d.close()
            raise TransportError(f"cannot connect to {host}:{port}: {exc}") from None
        self._dealers[peer_key] = d
        d.task = asyncio.create_task(self._watch(d, peer_key), name="dealer-monitor")

    def _open(self, d: _Dealer, peer_key: bytes) -> None:
        """Make the DEALER to `peer_key` and its monitor, and dial; nothing is left open if
        that fails (ZMQError, e.g. descriptors short: `descriptors.opening` tries again)."""
        try:
            self._dial(d, peer_key)
        except zmq.ZMQError:
            d.close()
            raise

    def _dial(self, d: _Dealer, peer_key: bytes) -> None:
        assert self._ctx is not None
        dealer = self._ctx.socket(zmq.DEALER)
        d.socket = dealer
        dealer.linger = 0
        dealer.curve_secretkey = self.keys.secret
        dealer.curve_publickey = self.keys.public
        dealer.curve_serverkey = peer_key
        dealer.sndhwm = self._hwm
        dealer.rcvhwm = 0  # as the ROUTER's (start); what comes is read and thrown away
        dealer.immediate = 1
        time_dealer(dealer)
        dealer.maxmsgsize = MAX_FRAME_BYTES
        # a fresh inproc name each time: a closed socket's monitor endpoint may linger
        self._monitors += 1
        d.monitor = dealer.get_monitor_socket(addr=f"inproc://p2pwillow-monitor-{self._monitors}")
        # sends never wait (NOBLOCK), so they go through a plain view of the same socket
        d.sender = zmq.Socket.shadow(dealer.underlying)
        if self._watching is not None:
            fd = d.sender.FD
            self._watching.add_reader(fd, self._discard, d)
            d.watching = (self._watching, fd)
            self._discard(d)  # the descriptor signals a change only: start from a known state
        dealer.connect(d.endpoint)

    def disconnect(self, peer_key: bytes) -> None:
        d = self._dealers.pop(peer_key, None)
        if d is not None:
            if d.task is not None:
                d.task.cancel()
            d.close()

    def _discard(self, d: _Dealer) -> None:
        """A DEALER's descriptor was signalled: throw away what the peer sent on it. A peer's
        ROUTER never sends (SPEC 8.5), so only a hostile one does; left unread, its frames
        would pile up (the DEALER's queue has no bound: see `start`)."""
        sender = d.sender
        if sender is None:
            return
        try:
            _drain(sender, self._thrown_away, lambda: self._discard(d))
        except zmq.ZMQError as exc:
            log.warning("a connection to a peer could not be read: %s", exc)

    def _thrown_away(self, parts: list[zmq.Frame]) -> None:
        self.counters.unasked += 1

    async def _watch(self, d: _Dealer, peer_key: bytes) -> None:
        while True:
            assert d.monitor is not None
            message = parse_monitor_message(await d.monitor.recv_multipart())
            state = _MONITOR_STATES.get(int(message["event"]))
            if state is ConnectionState.CONNECTED:
                d.refusals = 0
            if state is not ConnectionState.REFUSED:
                if state is not None:
                    d.set_state(state)
                continue
            # libzmq does not re-dial after a ZAP refusal: do it here, with a backoff, since
            # the peer may pin our key in a moment (a lobby whose roster is on its way), or
            # its door may be free again (a 300: busy)
            busy = int(message["value"]) == DOOR_BUSY
            d.set_state(ConnectionState.BUSY if busy else ConnectionState.REFUSED)
            d.refusals += 1
            await asyncio.sleep(min(REFUSED_RETRY_MAX, REFUSED_RETRY * 2 ** (d.refusals - 1)))
            d.close()
            while True:
                try:
                    descriptors.opening(lambda: self._open(d, peer_key))
                    break
                except zmq.ZMQError as exc:
                    if exc.errno not in descriptors.RUN_SHORT:
                        raise
                    await asyncio.sleep(REFUSED_RETRY_MAX)  # short even in the reserve

    def state(self, peer_key: bytes) -> ConnectionState | None:
        d = self._dealers.get(peer_key)
        return None if d is None else d.state

    def states_seen(self, peer_key: bytes) -> frozenset[ConnectionState]:
        """Every state the connection to `peer_key` has been in since it was dialled (to tell
        an address where nothing answers from one that answers with another key)."""
        d = self._dealers.get(peer_key)
        return frozenset() if d is None else frozenset(d.seen)

    def failures(self, peer_key: bytes) -> int:
        """How many handshakes with `peer_key` were refused or failed since it was dialled."""
        d = self._dealers.get(peer_key)
        return 0 if d is None else d.failures

    def endpoint(self, peer_key: bytes) -> str | None:
        """The address dialled for `peer_key` (tcp://host:port), if it is dialled."""
        d = self._dealers.get(peer_key)
        return None if d is None else d.endpoint

    async def wait_state(self, peer_key: bytes, state: ConnectionState, timeout: float) -> bool:
        """Wait until the connection to `peer_key` is in `state`; False at the deadline."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            d = self._dealers.get(peer_key)
            if d is None:
                return False
            if d.state is state:
                return True
            left = deadline - loop.time()
            if left <= 0:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(d.changed.wait(), left)

    @property
    def peers(self) -> tuple[bytes, ...]:
        return tuple(self._dealers)

    # --- frames ----------------------------------------------------------------------------------

    def send(self, peer_key: bytes, data: bytes) -> bool:
        """Queue one frame for the peer; False (and counted) if it cannot go now."""
        d = self._dealers.get(peer_key)
        if d is None or d.sender is None:
            self.counters.send_dropped += 1
            return False
        try:
            d.sender.send(data, flags=zmq.NOBLOCK, copy=len(data) < 65536)
        except zmq.Again:
            self.counters.send_dropped += 1
            return False
        return True

    def listen(self, arrived: Callable[[], None] | None) -> None:
        """Have the loop call `arrived()` after each batch of frames lands in the inbox (take
        them with `recv_nowait`); None: no more calls."""
        self._listener = arrived
        if arrived is not None and self._inbox:
            asyncio.get_running_loop().call_soon(self._tell_arrived)

    def _tell_arrived(self) -> None:
        if self._listener is not None and self._inbox:
            self._listener()

    def _readable(self) -> None:
        """The socket's descriptor was signalled: take every message that is there."""
        router = self._router
        if router is None:
            return
        inbox = self._inbox
        before = len(inbox)
        try:
            _drain(router, inbox.append, self._readable)
        except zmq.ZMQError as exc:
            log.warning("the socket could not be read: %s", exc)
        if len(inbox) > before:
            self._arrived.set()
            if self._listener is not None:
                self._listener()

    async def recv(self) -> Received:
        """The next frame from a peer this transport admits (see the module comment)."""
        while True:
            received = self.recv_nowait()
            if received is not None:
                return received
            self._arrived.clear()
            await self._arrived.wait()

    def recv_nowait(self) -> Received | None:
        """A frame that has arrived already, if there is one (to take a burst at once)."""
        if self._router is None:
            raise TransportError("the transport is not started")
        while self._inbox:
            received = self._accept(self._inbox.popleft())
            if received is not None:
                return received
        return None

    def _accept(self, parts: list[zmq.Frame]) -> Received | None:
        if len(parts) != 2:
            self.counters.spoofed += 1
            return None
        payload = parts[1]  # (parts[0] is the routing identity the ROUTER gave the connection)
        try:
            key = bytes.fromhex(str(payload.get("User-Id")))
        except (zmq.ZMQError, ValueError):
            self.counters.spoofed += 1
            return None
        if len(key) != CURVE_KEY_BYTES:
            self.counters.spoofed += 1
            return None
        pinned = key in self._pins
        if not pinned and not self.accept_unpinned:
            self.counters.unpinned += 1
            return None
        try:
            address = str(payload.get("Peer-Address"))
        except zmq.ZMQError:
            address = ""
        return Received(key, payload.bytes, pinned, address)


__all__ = [
    "DOOR_BUSY",
    "DOOR_NO",
    "DOOR_OK",
    "HWM",
    "ConnectionState",
    "Counters",
    "CurveKeyPair",
    "KeyStatement",
    "Received",
    "Transport",
    "TransportError",
    "tcp_endpoint",
    "time_dealer",
]
