"""Ctrl-C for the processes a test starts, whatever started the test.

A shell without job control starts its background jobs with SIGINT ignored, and an ignored
signal stays ignored across exec: a `willow` started from such a test run would rightly take
no Ctrl-C (a background job's), and a test of Ctrl-C would wait for nothing. A signal handled
in the parent is reset to its default in the child instead; so a test that sends Ctrl-C
starts its processes inside `interruptible()`."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def interruptible() -> Iterator[None]:
    """Processes started inside take SIGINT as from a terminal (the test's own disposition
    is restored after)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
