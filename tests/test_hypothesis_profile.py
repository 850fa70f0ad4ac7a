"""The suite's Hypothesis settings (tests/conftest.py): the same examples every run, and no
test failed for its time on a loaded machine (issue 30)."""

from __future__ import annotations

from hypothesis import HealthCheck, settings


def test_every_property_runs_derandomized_without_a_deadline() -> None:
    profile = settings.default
    assert profile is not None
    assert profile.derandomize
    assert profile.deadline is None
    assert HealthCheck.too_slow in profile.suppress_health_check


def test_a_test_with_its_own_settings_keeps_the_profile() -> None:
    # (what `@settings(max_examples=...)` on a test makes: the profile's other fields kept)
    own = settings(max_examples=5)
    assert own.derandomize
    assert own.deadline is None
