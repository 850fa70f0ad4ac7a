"""What a test saw, shown in its report if it fails: the last lines each of its processes
printed, the last events of its nodes, a terminal's last screen.

A test asks for the `witness` fixture (tests/conftest.py) and tells it where to look, or
hands it to a helper that does; nothing is read while the test runs. Once the test has
failed, the hook in tests/conftest.py reads every source and adds one section to the report
for each, so a failure says what the test met and not only the assertion that caught it."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

LAST_LINES = 40
"""Lines kept of each source: the end of a process's output is where it says what went wrong."""

Read = Callable[[], str]


def last_lines(text: str, n: int = LAST_LINES) -> str:
    """The last `n` lines of `text`, with how many were left out before them."""
    lines = text.splitlines()
    if len(lines) <= n:
        return "\n".join(lines)
    return "\n".join([f"({len(lines) - n} lines before these)", *lines[-n:]])


def file_tail(path: Path) -> str:
    """The last lines of the file at `path`, or that there is none."""
    try:
        return last_lines(path.read_text(encoding="utf-8", errors="replace"))
    except FileNotFoundError:
        return f"(no file {path})"


def events_tail(events: Sequence[Mapping[str, object]]) -> str:
    """The last events of a node, one JSON line each."""
    return last_lines("\n".join(json.dumps(e, default=str) for e in events))


class Witness:
    """The sources a failed test's report shows, each under its title."""

    def __init__(self) -> None:
        self._sources: list[Callable[[], Iterable[tuple[str, str]]]] = []

    def watch(self, title: str, read: Read) -> None:
        """Show what `read()` returns (called only once the test has failed)."""
        self._sources.append(lambda: [(title, read())])

    def watch_each(self, read: Callable[[], Iterable[tuple[str, str]]]) -> None:
        """Show every (title, text) `read()` gives: sources the test adds as it goes, such as
        the processes a LAN has started by the time the test fails."""
        self._sources.append(read)

    def file(self, title: str, path: Path) -> None:
        """Show the last lines of the file at `path` (a process's log, an events file)."""
        self.watch(title, lambda: file_tail(path))

    def events(self, title: str, events: Sequence[Mapping[str, object]]) -> None:
        """Show the last of `events`, a list a node appends its events to."""
        self.watch(title, lambda: events_tail(events))

    def sections(self) -> list[tuple[str, str]]:
        """Every source read now, as (title, text); a source that cannot be read says why
        instead of hiding the others."""
        out: list[tuple[str, str]] = []
        for source in self._sources:
            try:
                out += [(title, text.rstrip() or "(nothing)") for title, text in source()]
            except Exception as exc:  # a report is made whatever a source does
                out.append(("a source that could not be read", f"{type(exc).__name__}: {exc}"))
        return out
