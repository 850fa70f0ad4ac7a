"""Verifying several transcripts: one after another, or in worker processes (`-j N`).

Does I/O: reads the files and starts processes. Workers are started with the "spawn" method on
every platform, as macOS and Windows start them, so that nothing relies on fork: a worker
imports this module afresh, receives a file name and sends back a picklable outcome. Workers
ignore Ctrl-C; the parent stops them and reports the interruption once.
"""

from __future__ import annotations

import multiprocessing
import signal
import traceback
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from multiprocessing.pool import Pool

from p2pwillow.verify.audit import verify_file
from p2pwillow.verify.outcome import VerifyReport


@dataclass(frozen=True, slots=True)
class Outcome:
    """What came of one file: a report, or the traceback of a bug in willow."""

    source: str
    report: VerifyReport | None
    bug: str | None = None


def check_one(source: str) -> Outcome:
    """Verify one file. A verdict is a report; any exception but Ctrl-C is a bug in willow
    (SPEC 7.6: only the protocol's errors and unreadable files decide a verdict)."""
    try:
        return Outcome(source, verify_file(source))
    except Exception:
        return Outcome(source, None, traceback.format_exc())


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _start_pool(jobs: int) -> Pool:
    """`jobs` spawned workers that never see Ctrl-C, not even while they start up.

    Ctrl-C is ignored while they are started: a process started meanwhile inherits that (on
    POSIX) and Python leaves an ignored signal ignored. Once started, each worker ignores it
    itself, which covers the systems where nothing is inherited. A Ctrl-C in those few
    milliseconds is lost; the next one stops the command.
    """
    context = multiprocessing.get_context("spawn")
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return context.Pool(jobs, initializer=_ignore_interrupts)
    finally:
        signal.signal(signal.SIGINT, before)


def check_all(sources: Sequence[str], jobs: int = 1) -> Generator[Outcome, None, None]:
    """Each file's outcome, in the order given, as soon as it and those before it are done.

    With `jobs` > 1, up to that many worker processes verify files at the same time.
    """
    if jobs <= 1 or len(sources) <= 1:
        for source in sources:
            yield check_one(source)
        return
    pool = _start_pool(min(jobs, len(sources)))
    try:
        yield from pool.imap(check_one, sources)
        pool.close()
    finally:
        # Done, interrupted, or the reader went away: no worker outlives the command.
        pool.terminate()
        pool.join()


__all__ = ["Outcome", "check_all", "check_one"]
