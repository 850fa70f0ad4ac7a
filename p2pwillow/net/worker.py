"""The one thread where a live node's session work runs, in order (DESIGN 6).

Every Session call, every proof it makes or checks and every bot decision runs here, one job at
a time, so the asyncio loop keeps answering heartbeats and the screen never freezes. Threads
only; no I/O of its own.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
log = logging.getLogger(__name__)

_Job = tuple[Callable[[], Any], concurrent.futures.Future[Any]]


class WorkerClosed(Exception):
    """A job was given to a worker that has stopped."""


class Worker:
    """A thread that runs jobs in the order they were given.

    `on_busy(True)` is called (from the thread that gave the job) when a job arrives at an idle
    worker, `on_busy(False)` (from the worker thread) when the last queued job is done: a
    front end shows "busy" once per batch of work, not once per job.
    """

    def __init__(self, name: str, on_busy: Callable[[bool], None] | None = None) -> None:
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._pending = 0
        self._closed = False
        self._on_busy = on_busy
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    @property
    def busy(self) -> bool:
        """A job is running or waiting."""
        with self._lock:
            return self._pending > 0

    def submit(self, job: Callable[[], T]) -> concurrent.futures.Future[T]:
        """Queue `job`; its future holds what it returns or raises."""
        future: concurrent.futures.Future[T] = concurrent.futures.Future()
        with self._lock:
            if self._closed:
                raise WorkerClosed("the node's worker has stopped")
            self._pending += 1
            started = self._pending == 1
        self._jobs.put((job, future))
        if started and self._on_busy is not None:
            self._on_busy(True)
        return future

    async def run(self, job: Callable[[], T]) -> T:
        """Run `job` in the worker and wait for it without blocking the loop."""
        return await asyncio.wrap_future(self.submit(job))

    def _serve(self) -> None:
        while True:
            item = self._jobs.get()
            if item is None:
                return
            job, future = item
            if future.set_running_or_notify_cancel():
                try:
                    result = job()
                except BaseException as exc:
                    future.set_exception(exc)
                else:
                    future.set_result(result)
            with self._lock:
                self._pending -= 1
                idle = self._pending == 0
            if idle and self._on_busy is not None:
                try:
                    self._on_busy(False)
                except Exception:  # the thread goes on: its jobs matter more than a view
                    log.exception("the worker's idle hook failed")

    def close(self, timeout: float = 10.0) -> None:
        """Take no more jobs, let the queued ones finish, and end the thread."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._jobs.put(None)
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout)


__all__ = ["Worker", "WorkerClosed"]
