"""Whole hands driven at random, stalls at random points among them: chips and cards conserved,
someone can always act, and every illegal action raises IllegalAction and changes nothing."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rules_driver import RandomTable, random_hand

from p2pwillow.rules import (
    BettingStructure,
    FoldedForStalling,
    Phase,
    TableConfig,
)


def _config(structure: BettingStructure, tokens: int, value: int) -> TableConfig:
    return TableConfig(seats=10, structure=structure, trade_tokens=tokens, token_value=value)


@pytest.mark.parametrize("structure", list(BettingStructure), ids=lambda s: s.value)
def test_seeded_random_hands_finish_with_invariants(structure: BettingStructure) -> None:
    phases: set[Phase] = set()
    stalled_in: set[Phase] = set()
    for seed in range(150):
        rng = random.Random(f"{structure.value}/{seed}")
        hand = random_hand(rng, _config(structure, rng.choice([0, 1, 6]), rng.choice([1, 5])))
        RandomTable(hand, rng, stall=rng.choice([0.0, 0.005, 0.02])).run()
        phases.add(hand.phase)
        stalled_in |= {e.phase for e in hand.events if isinstance(e, FoldedForStalling)}
    assert phases == {Phase.COMPLETE, Phase.ABORTED}
    assert stalled_in == {Phase.TRADING, Phase.LAYOUT, Phase.REVEAL, Phase.BETTING}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rng=st.randoms(use_true_random=False),
    structure=st.sampled_from(list(BettingStructure)),
    tokens=st.integers(0, 6),
    value=st.integers(1, 10),
    junk=st.floats(0.0, 0.6),
    stall=st.sampled_from([0.0, 0.002, 0.01, 0.05]),
)
def test_property_whole_hands(
    rng: random.Random,
    structure: BettingStructure,
    tokens: int,
    value: int,
    junk: float,
    stall: float,
) -> None:
    hand = random_hand(rng, _config(structure, tokens, value))
    RandomTable(hand, rng, junk=junk, stall=stall).run()
    assert hand.is_over
