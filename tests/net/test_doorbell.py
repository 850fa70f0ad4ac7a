"""The doorbell (SPEC 8.6), over real UDP on loopback: a guest with a short join code learns
the host's CURVE key from the host's transport, and takes only keys the code names."""

from __future__ import annotations

import asyncio
import socket

from net_helpers import curve, statement

from p2pwillow.net.discovery import JoinCode
from p2pwillow.net.doorbell import ANSWER_BYTES, ASK, answer, open_doorbell, read_answer, ring
from p2pwillow.net.transport import Transport

LOOPBACK = "127.0.0.1"


def _free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind((LOOPBACK, 0))
        port: int = s.getsockname()[1]
        return port


def test_a_question_is_as_long_as_its_answer_and_anything_else_is_no_answer() -> None:
    said = statement(1)
    assert len(ASK) == len(answer(said)) == ANSWER_BYTES
    assert read_answer(answer(said)) == said
    assert read_answer(ASK) is None
    assert read_answer(answer(said)[:-1]) is None
    forged = answer(said)[:-1] + bytes([answer(said)[-1] ^ 1])  # a signature that fails
    assert read_answer(forged) is None


def test_a_statement_not_signed_by_its_identity_is_no_answer() -> None:
    said = statement(1)
    mixed = answer(said)[: -len(said.sig)] + statement(2).sig
    assert read_answer(mixed) is None


def test_the_hosts_transport_answers_on_its_port_and_the_guest_takes_its_key() -> None:
    async def main() -> None:
        said = statement(1)
        host = Transport(curve(1), host=LOOPBACK, doorbell=answer(said))
        await host.start()
        try:
            code = JoinCode.of(LOOPBACK, host.port, said)
            rang = await ring(code, 5.0)
            assert rang.statement == said and rang.statement.curve_key == curve(1).public
            assert rang.others == 0
            # a code naming other keys at that address: the host answers, with keys it does
            # not name, twice, and ringing stops there without waiting for the deadline
            other = JoinCode.of(LOOPBACK, host.port, statement(2))
            rang = await asyncio.wait_for(ring(other, 3600.0), 30)
            assert rang.statement is None and rang.others == 2
        finally:
            await host.close()

    asyncio.run(main())


def test_nothing_at_the_port_is_no_answer_within_the_time_given() -> None:
    async def main() -> None:
        code = JoinCode.of(LOOPBACK, _free_udp_port(), statement(1))
        rang = await ring(code, 0.6)
        assert rang.statement is None and rang.others == 0

    asyncio.run(main())


def test_a_doorbell_answers_only_the_question() -> None:
    async def main() -> None:
        said = statement(3)
        door = await open_doorbell(LOOPBACK, 0, answer(said))
        port = door.get_extra_info("sockname")[1]
        loop = asyncio.get_running_loop()
        heard: asyncio.Queue[bytes] = asyncio.Queue()

        class Listen(asyncio.DatagramProtocol):
            def datagram_received(self, data: bytes, addr: tuple[str | int, ...]) -> None:
                heard.put_nowait(data)

        me, _ = await loop.create_datagram_endpoint(Listen, remote_addr=(LOOPBACK, port))
        try:
            for junk in (b"", b"hello", ASK[:-1], ASK + b"\x00"):
                me.sendto(junk)
            me.sendto(ASK)  # after the junk: the first datagram heard is the answer to this
            assert await asyncio.wait_for(heard.get(), 30) == answer(said)
            assert heard.empty()
        finally:
            me.close()
            door.close()

    asyncio.run(main())
