"""Table settings: defaults, validation naming the bad setting, the ledger's dict form."""

from __future__ import annotations

import dataclasses

import pytest

from p2pwillow.rules import BettingStructure, ConfigError, TableConfig


def test_defaults_are_the_house_game() -> None:
    cfg = TableConfig()
    assert (cfg.trade_tokens, cfg.token_value) == (6, 5)
    assert cfg.structure is BettingStructure.SPREAD_LIMIT
    assert (cfg.min_bet, cfg.max_bet, cfg.max_raises) == (25, 100, 3)
    assert (cfg.small_bet, cfg.big_bet) == (25, 50)
    assert cfg.games == ("weeping-willow",)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("seats", 1),
        ("seats", 11),
        ("seats", 4.0),
        ("starting_stack", 0),
        ("trade_tokens", -1),
        ("token_value", 0),
        ("min_bet", 0),
        ("max_raises", -1),
        ("action_clock", 0),
        ("action_clock", True),
        ("structure", "no-limit"),
    ],
)
def test_bad_settings_name_the_field(field: str, value: object) -> None:
    # (in words: "max raises", as a person reads it)
    with pytest.raises(ConfigError, match=field.replace("_", " ")):
        TableConfig(**{field: value})  # type: ignore[arg-type]


def test_cross_field_checks() -> None:
    with pytest.raises(ConfigError, match="max bet"):
        TableConfig(min_bet=50, max_bet=40)
    with pytest.raises(ConfigError, match="big bet"):
        TableConfig(small_bet=50, big_bet=40)


def test_dict_round_trip_and_strictness() -> None:
    cfg = TableConfig(seats=6, structure=BettingStructure.POT_LIMIT, action_clock=45)
    data = cfg.to_dict()
    assert data["structure"] == "pot-limit"
    assert TableConfig.from_dict(data) == cfg
    with pytest.raises(ConfigError, match="lacks"):
        TableConfig.from_dict({k: v for k, v in data.items() if k != "seats"})
    with pytest.raises(ConfigError, match="unknown"):
        TableConfig.from_dict({**data, "rake": 5})
    # a table set up before games were descriptions: the settings added since take their old
    # values, and nothing else may be missing
    older = {k: v for k, v in data.items() if k not in ("games", "ante")}
    assert TableConfig.from_dict(older) == dataclasses.replace(
        cfg, games=("weeping-willow",), ante=0
    )
    with pytest.raises(ConfigError, match="structure"):
        TableConfig.from_dict({**data, "structure": "limit"})
    with pytest.raises(ConfigError, match="seats"):
        TableConfig.from_dict({**data, "seats": "6"})
    with pytest.raises(ConfigError):
        TableConfig.from_dict([1, 2])  # type: ignore[arg-type]
