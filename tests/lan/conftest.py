"""Fixtures for the LAN tests: a fresh LAN of namespaces per test, always cleaned up."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from lan import Lan, unavailable

_REASON = unavailable()


@pytest.fixture
def lan() -> Iterator[Lan]:
    if _REASON is not None:
        pytest.skip(f"no LAN of namespaces here: {_REASON}")
    with Lan() as made:
        yield made
