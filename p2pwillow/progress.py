"""A one-line progress bar for long commands on a terminal: done of total, entries, time left.

Does terminal I/O: writes to the text stream it is given, redrawing one line with a carriage
return at most ten times a second. The clock is a parameter, so tests need no real time.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from typing import TextIO

_REDRAW = 0.1
"""Seconds between redraws at most."""
_BAR = 24


def _duration(seconds: float) -> str:
    s = int(seconds + 0.5)
    hours, rest = divmod(s, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


class ProgressBar:
    """`[#######.........] 12/50 hands, 1234 entries, 0:42 left` on one line of `stream`."""

    def __init__(
        self,
        stream: TextIO,
        total: int,
        unit: str = "hands",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._stream = stream
        self._total = max(1, total)
        self._unit = unit
        self._clock = clock
        self._start = clock()
        self._drawn = -_REDRAW
        self._width = 0
        self._done = 0
        self._entries = 0

    def line(self) -> str:
        """The bar as it would be drawn now."""
        done, total = self._done, self._total
        filled = _BAR * done // total
        bar = "#" * filled + "." * (_BAR - filled)
        elapsed = self._clock() - self._start
        if done:
            left = f"{_duration(elapsed / done * (total - done))} left"
        else:
            left = "estimating the time left"
        return f"[{bar}] {done}/{total} {self._unit}, {self._entries} entries, {left}"

    def update(self, done: int | None = None, entries: int | None = None) -> None:
        """New counts; redrawn when the last redraw is old enough or a unit was completed."""
        finished = done is not None and done != self._done
        if done is not None:
            self._done = done
        if entries is not None:
            self._entries = entries
        now = self._clock()
        if finished or now - self._drawn >= _REDRAW:
            self._drawn = now
            self._draw(self.line())

    def _draw(self, text: str) -> None:
        columns = shutil.get_terminal_size((80, 24)).columns
        text = text[: max(10, columns - 1)]
        pad = max(0, self._width - len(text))
        self._stream.write("\r" + text + " " * pad)
        self._stream.flush()
        self._width = len(text)

    def clear(self) -> None:
        """Wipe the bar, leaving the cursor at the start of an empty line."""
        if self._width:
            self._stream.write("\r" + " " * self._width + "\r")
            self._stream.flush()
            self._width = 0


__all__ = ["ProgressBar"]
