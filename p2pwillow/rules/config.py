"""Table settings: seats, stacks, the games the dealers may call, trade tokens, betting
structure and action clock (SPEC 3.1).

Pure; no I/O. `TableConfig.to_dict()` / `from_dict()` is the form the ledger's genesis entry
carries.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from p2pwillow.limits import MAX_SEATS, is_int
from p2pwillow.rules.errors import ConfigError

MIN_SEATS = 2
MAX_HANDS = 10_000
"""The most hands a table may be set to last (SPEC 3.1)."""
LEGACY_GAME = "weeping-willow"
"""The one game a table set up before tables named their games plays (SPEC 3.1)."""
NO_ARBITER = -1
"""The `arbiter` of a table that has none (SPEC 3.14)."""
ADDED = {
    "games": (LEGACY_GAME,),
    "ante": 0,
    "hands": 0,
    "time_bank": 0,
    "pause_limit": 0,
    "pauses": 0,
    "arbiter": NO_ARBITER,
}
"""Settings added since the first release, with the value a table without them has: a table
config read from an older transcript plays as it did then (no time bank, no pause, no
arbiter)."""


class BettingStructure(enum.Enum):
    """How much a bet or raise may be (SPEC 3.7)."""

    SPREAD_LIMIT = "spread-limit"
    FIXED_LIMIT = "fixed-limit"
    POT_LIMIT = "pot-limit"
    NO_LIMIT = "no-limit"


@dataclass(frozen=True, slots=True)
class TableConfig:
    """The settings of a table; checked on construction (ConfigError names the bad field).

    `games` names the games a dealer may call, by their names in the catalogue (SPEC 3.13).
    `min_bet`/`max_bet` bound spread-limit bets and raises; `min_bet` is also the smallest bet
    and raise increment in pot limit and no limit. `small_bet` and `big_bet` are the
    fixed-limit sizes (each betting round of a game's script says which it uses).
    `max_raises` caps full raises per round in spread and fixed limit only. `action_clock` is
    in whole seconds. `ante` is what each player posts before the deal in a game that takes an
    ante (Roll Your Own; Weeping Willow takes trade tokens instead). `hands` is how many hands
    the game lasts (0: until fewer than two players have chips): no hand starts after that many.

    The clock's humane side (SPEC 3.14): `time_bank` is the seconds each player may add to its
    own clock over the whole game; `pause_limit` the longest a pause lasts, in seconds, and
    `pauses` how many times each player may pause the table in a game (either 0: no pause);
    `arbiter` the seat, at the genesis, of the player whose rulings the table accepts
    (NO_ARBITER: none).
    """

    seats: int = 10
    starting_stack: int = 1000
    trade_tokens: int = 6
    token_value: int = 5
    structure: BettingStructure = BettingStructure.SPREAD_LIMIT
    min_bet: int = 25
    max_bet: int = 100
    small_bet: int = 25
    big_bet: int = 50
    max_raises: int = 3
    action_clock: int = 30
    games: tuple[str, ...] = (LEGACY_GAME,)
    ante: int = 25
    hands: int = 0
    time_bank: int = 120
    pause_limit: int = 300
    pauses: int = 3
    arbiter: int = NO_ARBITER

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        """Raise ConfigError naming the first setting that is out of range (SPEC 3.1)."""
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "structure":
                if not isinstance(value, BettingStructure):
                    raise ConfigError(f"structure must be a BettingStructure, not {value!r}")
            elif f.name == "games":
                if (
                    not isinstance(value, tuple)
                    or not 1 <= len(value) <= 64
                    or not all(isinstance(g, str) and 1 <= len(g) <= 32 for g in value)
                    or len(set(value)) != len(value)
                ):
                    raise ConfigError(f"games must name 1 to 64 games, each once, not {value!r}")
            elif not is_int(value):
                what = f.name.replace("_", " ")
                raise ConfigError(f"{what} must be an integer, not {value!r}")
        ranges = {
            "seats": (MIN_SEATS, MAX_SEATS),
            "starting_stack": (1, 10**12),
            "trade_tokens": (0, 52),
            "token_value": (1, 10**9),
            "min_bet": (1, 10**12),
            "max_bet": (1, 10**12),
            "small_bet": (1, 10**12),
            "big_bet": (1, 10**12),
            "max_raises": (0, 100),
            "action_clock": (1, 3600),
            "ante": (0, 10**12),
            "hands": (0, MAX_HANDS),
            "time_bank": (0, 3600),
            "pause_limit": (0, 3600),
            "pauses": (0, 100),
            "arbiter": (NO_ARBITER, MAX_SEATS - 1),
        }
        for name, (low, high) in ranges.items():
            value = getattr(self, name)
            if not low <= value <= high:
                what = name.replace("_", " ")
                raise ConfigError(f"{what} must be between {low} and {high}, not {value}")
        if self.max_bet < self.min_bet:
            raise ConfigError(f"max bet ({self.max_bet}) is below min bet ({self.min_bet})")
        if self.big_bet < self.small_bet:
            raise ConfigError(f"big bet ({self.big_bet}) is below small bet ({self.small_bet})")

    def to_dict(self) -> dict[str, Any]:
        """Plain form for the ledger (integers, the structure's name, the games' names)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, BettingStructure):
                out[f.name] = value.value
            elif isinstance(value, tuple):
                out[f.name] = list(value)
            else:
                out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> TableConfig:
        """Inverse of `to_dict`; every field must be present and no other (ConfigError), but
        for the settings added since the first release (`ADDED`), which take their old value."""
        if not isinstance(data, Mapping):
            raise ConfigError(f"table config must be a mapping, not {type(data).__name__}")
        names = [f.name for f in fields(cls)]
        data = {**{k: v for k, v in ADDED.items() if k not in data}, **data}
        missing = [n for n in names if n not in data]
        extra = sorted(str(k) for k in data if k not in names)
        if missing:
            raise ConfigError(f"table config lacks {', '.join(missing)}")
        if extra:
            raise ConfigError(f"table config has unknown settings {', '.join(extra)}")
        structure = data["structure"]
        try:
            parsed = BettingStructure(structure)
        except ValueError:
            known = ", ".join(s.value for s in BettingStructure)
            raise ConfigError(f"structure must be one of {known}, not {structure!r}") from None
        kwargs: dict[str, object] = {n: data[n] for n in names if n != "structure"}
        games = kwargs["games"]
        kwargs["games"] = tuple(games) if isinstance(games, list | tuple) else games
        return cls(structure=parsed, **kwargs)  # type: ignore[arg-type]
