"""Reading a transcript file line by line, never more than one bounded line at a time.

Does I/O: reads from a binary stream it is given, or opens the named file (SPEC 6.9, 7.6).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from p2pwillow.ledger.canonical import MAX_LINE_BYTES
from p2pwillow.verify.outcome import TranscriptUnreadable

STDIN = "-"
"""The file name that means standard input."""

_LIMIT = MAX_LINE_BYTES + 2
"""One read takes at most this: the longest line an entry may have (1 MiB), one byte more
(so that a longer line shows), and its line feed."""


@dataclass(frozen=True, slots=True)
class Line:
    number: int
    """1-based."""
    data: bytes
    """The line without its line feed (for a line too long, only its first bytes)."""
    ended: bool
    """It ends with a line feed. Only the last line of a file can lack one: it was cut off."""
    too_long: bool = False
    """Longer than any entry may be (SPEC 6.11 `malformed`); nothing after it is read."""


def read_lines(stream: BinaryIO) -> Iterator[Line]:
    """The stream's lines, read one at a time with the line bound applied while reading.

    TranscriptUnreadable if reading fails. Stops after a line that is too long.
    """
    number = 0
    while True:
        try:
            raw = stream.readline(_LIMIT)
        except OSError as exc:
            raise TranscriptUnreadable(
                f"reading line {number + 1} failed: {exc.strerror or exc}"
            ) from None
        if not raw:
            return
        number += 1
        if raw.endswith(b"\n"):
            yield Line(number, raw[:-1], True)
        elif len(raw) == _LIMIT:
            yield Line(number, raw, False, too_long=True)
            return
        else:
            yield Line(number, raw, False)


@contextmanager
def open_transcript(source: str | Path) -> Iterator[BinaryIO]:
    """The named file opened for reading, or standard input for "-".

    TranscriptUnreadable if it cannot be opened.
    """
    if str(source) == STDIN:
        yield sys.stdin.buffer
        return
    try:
        stream = open(source, "rb")  # noqa: SIM115 - closed below
    except IsADirectoryError:
        raise TranscriptUnreadable("a directory, not a transcript") from None
    except OSError as exc:
        raise TranscriptUnreadable(f"cannot open the file: {exc.strerror or exc}") from None
    with stream:
        yield stream


__all__ = ["STDIN", "Line", "open_transcript", "read_lines"]
