"""The shared sizes and the integer test: one home, and every layer reads the same numbers."""

from __future__ import annotations

import pytest

from p2pwillow import mental
from p2pwillow.cards import DECK
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.entry import MAX_SEAT
from p2pwillow.limits import DECK_SIZE, MAX_HAND, MAX_SEATS, is_int
from p2pwillow.rules import TableConfig


@pytest.mark.parametrize("value", [0, 1, -7, 2**80])
def test_whole_numbers_are_ints(value: int) -> None:
    assert is_int(value)


@pytest.mark.parametrize("value", [True, False, 1.0, "1", None, [1]])
def test_bools_and_other_values_are_not(value: object) -> None:
    assert not is_int(value)


def test_every_layer_reads_the_same_sizes() -> None:
    assert len(DECK) == DECK_SIZE == mental.DECK_SIZE
    assert k.HAND_POSITION.hi == MAX_HAND - 1 == k.MAX_TRADE - 1
    assert k.SEAT.hi == MAX_SEAT == MAX_SEATS - 1
    TableConfig(seats=MAX_SEATS)
    with pytest.raises(ValueError, match="seats"):
        TableConfig(seats=MAX_SEATS + 1)
