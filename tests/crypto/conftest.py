"""Each test here checks its proofs in full: nothing a test before it checked is remembered
(crypto/checked.py), so that the operation counts and the rejections are the checks' own."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from p2pwillow.crypto.checked import CHECKED


@pytest.fixture(autouse=True)
def _nothing_remembered() -> Iterator[None]:
    CHECKED.clear()
    yield
    CHECKED.clear()
