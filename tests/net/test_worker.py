"""The node's worker thread: jobs run in order, outcomes reach the awaiting task, a job given
up on before it began is not run, and busy is told once per batch."""

from __future__ import annotations

import asyncio
import functools
import threading
import time

import pytest

from p2pwillow.net.worker import Worker, WorkerClosed


def test_jobs_run_in_order_in_the_worker_thread_and_their_results_come_back() -> None:
    worker = Worker("test")
    ran: list[tuple[int, str]] = []

    def job(n: int) -> int:
        ran.append((n, threading.current_thread().name))
        return n * n

    async def main() -> list[int]:
        jobs = [worker.run(functools.partial(job, n)) for n in range(20)]
        return list(await asyncio.gather(*jobs))

    try:
        assert asyncio.run(main()) == [n * n for n in range(20)]
        assert ran == [(n, "test") for n in range(20)]
        assert worker.submit(lambda: 7).result(5) == 7
    finally:
        worker.close()


def test_what_a_job_raises_is_raised_in_the_task_that_awaits_it() -> None:
    worker = Worker("test")

    def boom() -> None:
        raise ValueError("bad proof")

    async def main() -> None:
        with pytest.raises(ValueError, match="bad proof"):
            await worker.run(boom)
        assert await worker.run(lambda: "next") == "next"  # the thread goes on

    try:
        asyncio.run(main())
    finally:
        worker.close()


def test_a_job_given_up_on_before_it_began_is_not_run() -> None:
    worker = Worker("test")
    gate = threading.Event()
    ran: list[str] = []

    async def main() -> None:
        first = asyncio.ensure_future(worker.run(gate.wait))
        second = asyncio.ensure_future(worker.run(lambda: ran.append("second")))
        await asyncio.sleep(0.05)
        second.cancel()
        await asyncio.sleep(0.05)
        gate.set()
        assert await first is True
        with pytest.raises(asyncio.CancelledError):
            await second
        assert await worker.run(lambda: "after") == "after"

    try:
        asyncio.run(main())
        assert ran == []
    finally:
        worker.close()


def test_busy_is_told_once_per_batch_and_a_closed_worker_takes_no_job() -> None:
    told: list[bool] = []
    worker = Worker("test", on_busy=told.append)

    async def main() -> None:
        await asyncio.gather(*(worker.run(lambda: None) for _ in range(5)))

    asyncio.run(main())
    worker.close()
    assert told[0] is True and told[-1] is False
    assert told.count(True) == told.count(False) <= 5
    with pytest.raises(WorkerClosed):
        worker.submit(lambda: None)


def test_the_last_word_of_a_batch_is_idle_even_when_its_submitter_is_slow_to_say_busy() -> None:
    """The thread that gives a job to an idle worker says "busy"; if it is held up there (a
    loaded machine) while the worker has already done the job, the worker's "idle" must still
    come last: a front end would otherwise show "checking proofs" with nothing to check."""
    told: list[bool] = []
    done = threading.Event()

    def on_busy(busy: bool) -> None:
        if busy:
            done.wait(0.3)  # held up: the job, if it is queued already, is done meanwhile
        told.append(busy)

    worker = Worker("test", on_busy=on_busy)
    worker.submit(done.set).result(timeout=5)
    deadline = time.monotonic() + 5
    while len(told) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    worker.close()
    assert told == [True, False]


def test_the_worker_counts_the_cpu_its_jobs_spend_not_their_waits() -> None:
    worker = Worker("test")

    def burn() -> None:
        began = time.thread_time()
        while time.thread_time() - began < 0.05:
            pass

    try:
        assert worker.cpu == 0.0
        worker.submit(burn).result(10)
        spent = worker.cpu
        assert spent >= 0.05
        worker.submit(lambda: time.sleep(0.2)).result(10)
        assert worker.cpu - spent < 0.1
    finally:
        worker.close()


def test_an_inline_worker_runs_each_job_at_once_in_the_callers_thread() -> None:
    """A headless node's worker: no thread of its own, jobs in the order given, what a job
    raises raised in the caller, its CPU counted, nothing taken once closed."""
    worker = Worker("inline", inline=True)
    ran: list[tuple[int, str]] = []

    def job(n: int) -> int:
        ran.append((n, threading.current_thread().name))
        busy = time.thread_time() + 0.01
        while time.thread_time() < busy:
            pass
        return n * n

    def boom() -> None:
        raise ValueError("bad proof")

    async def main() -> list[int]:
        results = [await worker.run(functools.partial(job, n)) for n in range(3)]
        with pytest.raises(ValueError, match="bad proof"):
            await worker.run(boom)
        return results

    here = threading.current_thread().name
    assert asyncio.run(main()) == [0, 1, 4]
    assert ran == [(0, here), (1, here), (2, here)]
    assert worker.submit(lambda: 7).result(0) == 7
    assert not worker.busy
    assert worker.cpu >= 0.03
    assert all(t.name != "inline" for t in threading.enumerate())
    worker.close()
    with pytest.raises(WorkerClosed):
        worker.submit(lambda: 1)

    async def after() -> None:
        await worker.run(lambda: 1)

    with pytest.raises(WorkerClosed):
        asyncio.run(after())
