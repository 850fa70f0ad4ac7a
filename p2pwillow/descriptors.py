"""The process's file descriptors, shared between the connections its ROUTERs accept and what
the node opens itself (SPEC 8.3, "Connections are bounded").

libzmq accepts every connection that comes to a bound socket as fast as it comes, with no cap
of its own, and only the process's limit of open descriptors (its soft `RLIMIT_NOFILE`) stops
it. So while a transport runs, that soft limit is the *wall*: `RESERVE` below the hard limit
(or the soft limit as it was, if that is lower). Connections accepted by libzmq never go past
the wall. What the node opens itself (its store's files, a socket to a peer) is opened with
`opening`: if the process is at the wall, the soft limit is raised by one descriptor at a time,
at most RESERVE, for that open alone, and lowered again. In each of those steps libzmq may take
the one descriptor the step makes free (it is shed like any other connection); the next step
makes another. So the connections of a flood hold at most the wall, and the node can still open
what it needs while they are shed.

Where the limit cannot be read or set (no `resource` module), nothing changes.
"""

from __future__ import annotations

import errno
import threading
from collections.abc import Callable
from typing import TypeVar

try:
    import resource
except ImportError:  # (not POSIX)
    resource = None  # type: ignore[assignment]

RESERVE = 48
"""Descriptors kept out of reach of the connections libzmq accepts: the node's own."""
RUN_SHORT = (errno.EMFILE, errno.ENFILE)
"""Errors of a process (or system) out of descriptors."""

T = TypeVar("T")

_lock = threading.Lock()
_users = 0
_saved: tuple[int, int] | None = None
"""The limits as they were before the first user came (soft, hard)."""
_wall: int | None = None


def _limits() -> tuple[int, int] | None:
    if resource is None:
        return None
    try:
        return resource.getrlimit(resource.RLIMIT_NOFILE)
    except (OSError, ValueError):
        return None


def _set_soft(soft: int, hard: int) -> bool:
    if resource is None:
        return False
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    except (OSError, ValueError):
        return False
    return True


def hold() -> None:
    """A transport starts: from now on the soft limit is the wall (the first one sets it)."""
    global _users, _saved, _wall
    with _lock:
        _users += 1
        if _users > 1:
            return
        limits = _limits()
        if limits is None:
            return
        soft, hard = limits
        infinite = getattr(resource, "RLIM_INFINITY", -1)
        if soft == infinite or soft <= 2 * RESERVE:
            return  # nothing to bound, or too few descriptors to set any apart
        wall = soft if hard == infinite else min(soft, hard - RESERVE)
        if _set_soft(wall, hard):
            _saved, _wall = (soft, hard), wall


def release() -> None:
    """A transport closed: the last one puts the soft limit back as it was."""
    global _users, _saved, _wall
    with _lock:
        _users = max(0, _users - 1)
        if _users or _saved is None:
            return
        soft, hard = _saved
        _set_soft(soft, hard)
        _saved = _wall = None


def wall() -> int | None:
    """The soft limit while a transport runs (None: no wall set)."""
    return _wall


def _short(exc: Exception) -> bool:
    """Out of descriptors: an OSError, or a library's error with an errno (zmq's)."""
    return getattr(exc, "errno", None) in RUN_SHORT


def opening(open_: Callable[[], T]) -> T:
    """`open_()`, which opens descriptors for the node itself; if the process is at the wall,
    again in the reserve above it, one descriptor at a time (see the module's comment). The
    error of running short if even the reserve is taken."""
    try:
        return open_()
    except Exception as exc:
        if not _short(exc) or _wall is None:
            raise
        first: Exception = exc
    with _lock:
        if _saved is None or _wall is None:
            raise first
        base, hard = _wall, _saved[1]
        try:
            for step in range(1, RESERVE + 1):
                if not _set_soft(base + step, hard):
                    break
                try:
                    return open_()
                except Exception as exc:
                    if not _short(exc):
                        raise
        finally:
            _set_soft(base, hard)
    raise first


__all__ = ["RESERVE", "RUN_SHORT", "hold", "opening", "release", "wall"]
