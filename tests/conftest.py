"""Fixtures for the whole suite.

`witness`: a test that runs processes or nodes tells it where to look (their output, their
events, a terminal's screen); a test that fails shows what each printed in its report, not
only the assertion that caught it (tests/witness.py).

`lan`: for the LAN tests (tests/lan), a fresh LAN of namespaces per test, always cleaned up;
what every process on it printed is shown for a test that fails, not only the one it was
watching.

Every test runs with the process's table of checks that passed on, as willow runs (a test
importing the bench package turns it off); a test of tests/crypto checks its proofs in full:
nothing a test before it checked is remembered (crypto/checked.py), so that the operation
counts and the rejections are the checks' own.

Hypothesis runs the same examples every run (derandomized) and never fails a test for its
time: a deadline or a slow-generation check fails on a loaded machine and not on an idle one,
and the suite must pass the same way on both (issue 30)."""

from __future__ import annotations

import functools
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings
from witness import Witness, file_tail, last_lines

from p2pwillow.crypto.checked import CHECKED

if TYPE_CHECKING:
    from lan import Lan

settings.register_profile(
    "willow", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("willow")


@pytest.fixture
def witness() -> Witness:
    return Witness()


@pytest.fixture(autouse=True)
def _checks_in_full(request: pytest.FixtureRequest) -> Iterator[None]:
    # a test that imported the bench package turned the table off for its worker: on again
    CHECKED.enabled = True
    if request.node.path.parent.name != "crypto":
        yield
        return
    CHECKED.clear()
    yield
    CHECKED.clear()


@functools.cache
def _no_lan() -> str | None:
    """Why namespaces cannot be made here, or None (asked once a run)."""
    # tests/lan/lan.py: its directory is on the path once one of its tests is collected
    from lan import unavailable

    return unavailable()


@pytest.fixture
def lan(witness: Witness, tmp_path: Path) -> Iterator[Lan]:
    from lan import Lan

    reason = _no_lan()
    if reason is not None:
        pytest.skip(f"no LAN of namespaces here: {reason}")
    with Lan() as made:
        witness.watch_each(lambda: [(p.name, last_lines(p.output())) for p in made.procs])
        # and each node's event lines (tests/lan/willow.py writes them beside its home): the
        # hands' times, the CPU of the process, its loop and its session, frames in and out
        witness.watch_each(
            lambda: [(f.name, file_tail(f)) for f in sorted(tmp_path.glob("*-events.jsonl"))]
        )
        yield made


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    seen = getattr(item, "funcargs", {}).get("witness")
    if report.when == "call" and report.failed and isinstance(seen, Witness):
        for title, text in seen.sections():
            report.sections.append((f"what {title} showed", text))
    return report
