"""The doorbell (SPEC 8.6): a join code short enough to read aloud holds only a print of its
host's keys, not the CURVE key a guest must know before it can dial. So a guest rings: it asks
for the host's key statement in a UDP datagram to the port of the host's ROUTER, and takes the
answer only if its signature verifies and the code names its keys. An attacker who answers
first gains nothing: its keys do not have the code's print.

`ask`, `answer` and `read_answer` are pure; `open_doorbell` and `ring` do network I/O on asyncio.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from typing import cast

from p2pwillow.ledger.identity import PUBLIC_KEY_BYTES, SIGNATURE_BYTES
from p2pwillow.net.discovery import JoinCode
from p2pwillow.net.errors import WireError
from p2pwillow.net.keys import CURVE_KEY_BYTES, KeyStatement

ANSWER_TAG = b"p2pwillow/v1/doorbell\x00"
ASK_TAG = b"p2pwillow/v1/doorbell?\x00"
ANSWER_BYTES = len(ANSWER_TAG) + PUBLIC_KEY_BYTES + CURVE_KEY_BYTES + SIGNATURE_BYTES
ASK = ASK_TAG + bytes(ANSWER_BYTES - len(ASK_TAG))
"""A question as long as its answer, so that a forged source address gets nobody flooded."""
RING_EVERY = 0.25
"""A datagram may be lost: ask again this often until the deadline."""


def answer(statement: KeyStatement) -> bytes:
    """The host's answer: the tag, its identity key, CURVE key and their statement's signature."""
    return ANSWER_TAG + statement.identity_key + statement.curve_key + statement.sig


def read_answer(data: bytes) -> KeyStatement | None:
    """The statement in an answer, or None for anything else (a statement that does not verify
    included): a datagram is untrusted input from anyone on the network."""
    if len(data) != ANSWER_BYTES or not data.startswith(ANSWER_TAG):
        return None
    body = data[len(ANSWER_TAG) :]
    identity = body[:PUBLIC_KEY_BYTES]
    curve = body[PUBLIC_KEY_BYTES : PUBLIC_KEY_BYTES + CURVE_KEY_BYTES]
    try:
        return KeyStatement(identity, curve, body[PUBLIC_KEY_BYTES + CURVE_KEY_BYTES :])
    except WireError:
        return None


class _Door(asyncio.DatagramProtocol):
    """The host's side: each question gets the answer; nothing else gets anything."""

    def __init__(self, reply: bytes) -> None:
        self.reply = reply
        self.transport: asyncio.DatagramTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.DatagramTransport, transport)  # (uvloop's: no subclass)

    def datagram_received(self, data: bytes, addr: tuple[str | int, ...]) -> None:
        if data == ASK and self.transport is not None:
            self.transport.sendto(self.reply, addr)


async def open_doorbell(host: str, port: int, reply: bytes) -> asyncio.DatagramTransport:
    """Answer questions on UDP host:port with `reply`; OSError if the port cannot be bound."""
    loop = asyncio.get_running_loop()
    transport, _ = await loop.create_datagram_endpoint(
        lambda: _Door(reply), local_addr=(host, port)
    )
    return transport


class _Bell(asyncio.DatagramProtocol):
    """The guest's side: every statement that answers, in order."""

    def __init__(self) -> None:
        self.heard: asyncio.Queue[KeyStatement] = asyncio.Queue()

    def datagram_received(self, data: bytes, addr: tuple[str | int, ...]) -> None:
        statement = read_answer(data)
        if statement is not None:
            self.heard.put_nowait(statement)

    def error_received(self, exc: Exception) -> None:
        """An ICMP "port unreachable" for an earlier question: asking again is the answer."""


@dataclass(frozen=True, slots=True)
class Rang:
    """What ringing found: the statement of the host the code names, or None; and how many
    answers came with other keys (a host that is not the code's, or someone else)."""

    statement: KeyStatement | None
    others: int


async def ring(code: JoinCode, within: float) -> Rang:
    """Ask the host at the code's address for its key statement until one the code names
    answers or `within` seconds have passed; two answers with other keys and none with the
    code's end it sooner (another program holds the port, or the code is old)."""
    loop = asyncio.get_running_loop()
    transport, bell = await loop.create_datagram_endpoint(_Bell, remote_addr=(code.host, code.port))
    others = 0
    deadline = loop.time() + within
    try:
        while loop.time() < deadline and others < 2:
            transport.sendto(ASK)
            with contextlib.suppress(TimeoutError):
                until = min(RING_EVERY, max(0.0, deadline - loop.time()))
                async with asyncio.timeout(until):
                    while True:
                        statement = await bell.heard.get()
                        if code.names(statement):
                            return Rang(statement, others)
                        others += 1
        return Rang(None, others)
    finally:
        transport.close()


__all__ = ["ANSWER_BYTES", "ASK", "Rang", "answer", "open_doorbell", "read_answer", "ring"]
