"""The live benchmark's comparison of hands (bench/live.py): the fit it matches hands with."""

from __future__ import annotations

import random

import pytest

from bench.live import HandFigures, _matched, fit


def test_fit_recovers_the_coefficients_of_an_exact_model() -> None:
    r = random.Random(7)
    rows = [(1.0, float(r.randint(0, 20)), float(r.randint(0, 8))) for _ in range(30)]
    values = [0.3 + 0.005 * a + 0.002 * b for _, a, b in rows]
    assert fit(rows, values) == pytest.approx((0.3, 0.005, 0.002), abs=1e-9)


def test_fit_gives_a_column_that_is_always_zero_no_weight() -> None:
    rows = [(1.0, float(n), 0.0) for n in range(10)]
    values = [1.0 + 2.0 * n for n in range(10)]
    assert fit(rows, values) == pytest.approx((1.0, 2.0, 0.0), abs=1e-9)


def _hand(cpu: float, proofs: int, reveals: int, others: int) -> HandFigures:
    kinds = (("hand_shuffle", proofs), ("reveal", reveals), ("bet", others))
    return HandFigures(0.0, 0.0, cpu, proofs + reveals + others, 4, kinds=kinds)


def test_live_hands_are_matched_with_in_process_hands_of_their_make_up() -> None:
    # in process a proof costs 10 ms over a 300 ms hand; live hands with twice the proofs of
    # the in-process mean are matched against what such hands cost there, not the mean
    local = [_hand(0.3 + 0.01 * p, p, 2, 20) for p in (2, 4, 6, 8)]
    live = [_hand(0.5, 16, 2, 20)]
    assert _matched(live, local) == pytest.approx(0.3 + 0.01 * 16)
