"""Fixtures for the LAN tests: a fresh LAN of namespaces per test, always cleaned up. A test
that fails shows what every process on its LAN printed, not only the one it was watching."""

from __future__ import annotations

from collections.abc import Generator, Iterator

import pytest
from lan import Lan, unavailable

_REASON = unavailable()


@pytest.fixture
def lan() -> Iterator[Lan]:
    if _REASON is not None:
        pytest.skip(f"no LAN of namespaces here: {_REASON}")
    with Lan() as made:
        yield made


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    made = getattr(item, "funcargs", {}).get("lan")
    if report.when == "call" and report.failed and isinstance(made, Lan):
        for proc in made.procs:
            report.sections.append((f"what {proc.name} printed", proc.output()))
    return report
