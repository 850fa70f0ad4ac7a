"""The one thread where a live node's session work runs, in order (DESIGN 6).

Every Session call, every proof it makes or checks and every bot decision runs here, one job at
a time, so the asyncio loop keeps answering heartbeats and the screen never freezes. Threads
only; no I/O of its own.

A headless node (a bot, `--auto`) has no screen to keep drawing: its worker is `inline`, each
job runs at once in the thread that gives it (the loop's), one at a time all the same. That
spares every frame two thread hops (the loop wakes the worker, the worker wakes the loop) and
the caches they cool: about a twentieth of such a peer's CPU, and its hands finish sooner. A
job delays the loop by as long as it runs (a proof, a bot's decision: milliseconds to a tenth
of a second), far within what its peers wait before they call it away (SPEC 8.4).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
log = logging.getLogger(__name__)

_Reply = concurrent.futures.Future[Any] | tuple[asyncio.AbstractEventLoop, asyncio.Future[Any]]
"""Where a job's outcome goes: a thread's future (`submit`), or a loop's future (`run`)."""
_Job = tuple[Callable[[], Any], _Reply]


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    """On the loop: hand a job's outcome to the task awaiting it (unless it gave up)."""
    if future.cancelled():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


class WorkerClosed(Exception):
    """A job was given to a worker that has stopped."""


class Worker:
    """A thread that runs jobs in the order they were given.

    `on_busy(True)` is called (from the thread that gave the job) when a job arrives at an idle
    worker, `on_busy(False)` (from the worker thread) when the last queued job is done: a
    front end shows "busy" once per batch of work, not once per job.
    """

    def __init__(
        self, name: str, on_busy: Callable[[bool], None] | None = None, *, inline: bool = False
    ) -> None:
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._pending = 0
        self._closed = False
        self._on_busy = None if inline else on_busy  # inline: never busy between calls
        self._cpu = 0.0
        self.inline = inline
        """Jobs run at once in the caller's thread (a headless node): no thread of its own."""
        self._thread: threading.Thread | None = None
        if not inline:
            self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
            self._thread.start()

    @property
    def busy(self) -> bool:
        """A job is running or waiting."""
        with self._lock:
            return self._pending > 0

    @property
    def cpu(self) -> float:
        """CPU seconds the worker thread has spent running jobs so far (what the node's loop
        thread spends is the process's CPU less this and the sockets' own threads')."""
        return self._cpu

    def submit(self, job: Callable[[], T]) -> concurrent.futures.Future[T]:
        """Queue `job`; its future holds what it returns or raises."""
        future: concurrent.futures.Future[T] = concurrent.futures.Future()
        if self.inline:
            self._check_open()
            result, error = self._run(job)
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(result)
            return future
        self._queue(job, future)
        return future

    async def run(self, job: Callable[[], T]) -> T:
        """Run `job` in the worker and wait for it without blocking the loop. The outcome
        comes back as one callback on the loop (no thread future chained to a loop future):
        a node makes hundreds of these trips a hand."""
        if self.inline:
            self._check_open()
            result, error = self._run(job)
            if error is not None:
                raise error
            return result  # type: ignore[no-any-return]
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._queue(job, (loop, future))
        return await future

    def _check_open(self) -> None:
        with self._lock:
            if self._closed:
                raise WorkerClosed("the node's worker has stopped")

    def _queue(self, job: Callable[[], Any], reply: _Reply) -> None:
        with self._lock:
            if self._closed:
                raise WorkerClosed("the node's worker has stopped")
            self._pending += 1
            started = self._pending == 1
        # said before the job is queued: a job queued first can be done, and its batch's
        # `on_busy(False)` said, before a late `on_busy(True)`, which would then stay (a
        # screen saying "checking proofs" after the game's end)
        if started and self._on_busy is not None:
            self._on_busy(True)
        self._jobs.put((job, reply))

    def _serve(self) -> None:
        while True:
            item = self._jobs.get()
            if item is None:
                return
            job, reply = item
            if isinstance(reply, concurrent.futures.Future):
                if reply.set_running_or_notify_cancel():
                    result, error = self._run(job)
                    if error is not None:
                        reply.set_exception(error)
                    else:
                        reply.set_result(result)
            elif not reply[1].cancelled():  # a job its task gave up on before it began is not run
                loop, future = reply
                result, error = self._run(job)
                with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                    loop.call_soon_threadsafe(_settle, future, result, error)
            with self._lock:
                self._pending -= 1
                idle = self._pending == 0
            if idle and self._on_busy is not None:
                try:
                    self._on_busy(False)
                except Exception:  # the thread goes on: its jobs matter more than a view
                    log.exception("the worker's idle hook failed")

    def _run(self, job: Callable[[], Any]) -> tuple[Any, BaseException | None]:
        """`job()`: what it returned or raised, its CPU counted before anyone hears of it."""
        began = time.thread_time()
        try:
            return job(), None
        except BaseException as exc:
            return None, exc
        finally:
            self._cpu += time.thread_time() - began  # only this thread writes it

    def close(self, timeout: float = 10.0) -> None:
        """Take no more jobs, let the queued ones finish, and end the thread."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        if self._thread is None:
            return
        self._jobs.put(None)
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout)


__all__ = ["Worker", "WorkerClosed"]
