"""The node's loop helpers: the driver's sleep moved by a pass run in the receiver's turn, and
a headless pass run through without the loop."""

from __future__ import annotations

import asyncio

import pytest

from p2pwillow.net.node import _run_through, _Wake


def test_a_pass_that_never_waits_runs_through() -> None:
    done: list[int] = []

    async def quick() -> None:
        done.append(1)

    _run_through(quick())
    assert done == [1]


def test_a_pass_that_waits_is_refused_and_closed() -> None:
    closed: list[bool] = []

    async def waits() -> None:
        try:
            await asyncio.sleep(0)  # yields to the loop
        finally:
            closed.append(True)

    with pytest.raises(RuntimeError, match="waited"):
        _run_through(waits())
    assert closed == [True]  # not left suspended


def test_the_sleep_ends_when_it_is_moved_to() -> None:
    async def main() -> tuple[float, float]:
        loop = asyncio.get_running_loop()
        wake = _Wake()
        began = loop.time()
        sleeper = loop.create_task(wake.sleep(5.0))
        await asyncio.sleep(0)
        assert wake.sleeping
        wake.until(began + 0.05)  # sooner
        await asyncio.wait_for(sleeper, 1.0)
        early = loop.time() - began
        assert not wake.sleeping
        sleeper = loop.create_task(wake.sleep(0.01))
        await asyncio.sleep(0)
        wake.until(loop.time() + 0.2)  # later
        began = loop.time()
        await sleeper
        return early, loop.time() - began

    early, later = asyncio.run(main())
    assert early < 1.0
    assert later >= 0.15


def test_moving_a_sleep_that_is_not_going_on_does_nothing() -> None:
    async def main() -> None:
        wake = _Wake()
        wake.until(asyncio.get_running_loop().time())  # nobody sleeps
        wake.set()
        await asyncio.wait_for(wake.sleep(5.0), 1.0)  # the wake that came before counts

    asyncio.run(main())
