"""How well a bot plays: the levels a table or a command line picks for a bot seat.

Pure; no I/O. A level is a plain string enum, so a command-line flag or a table setting can
carry it as its name: `easy`, `normal` or `hard` (SPEC 9, Levels).
"""

from __future__ import annotations

import enum

from p2pwillow.bots.decision import BotError

__all__ = ["DEFAULT_LEVEL", "LEVELS", "Level", "parse_level"]


class Level(enum.StrEnum):
    """A bot's level of play (SPEC 9, Levels)."""

    EASY = "easy"
    """Plays its own cards, bluffs little, never adapts to its opponents."""
    NORMAL = "normal"
    """Learns each opponent's betting within the game and calls down by pot odds against it."""
    HARD = "hard"
    """As normal, and also bluffs in position against players who fold, value-bets thinly
    against players who call, and reads the cards it traded."""


LEVELS: tuple[str, ...] = tuple(level.value for level in Level)
"""The level names, easiest first."""

DEFAULT_LEVEL = Level.NORMAL


def parse_level(value: object) -> Level:
    """The level named by `value` (a `Level` or its name); BotError names a bad one."""
    if isinstance(value, Level):
        return value
    if isinstance(value, str):
        try:
            return Level(value.strip().lower())
        except ValueError:
            pass
    raise BotError(f"a bot level is one of {', '.join(LEVELS)}, not {value!r}")
