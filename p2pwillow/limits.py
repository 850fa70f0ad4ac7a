"""The fixed sizes of the game that every layer checks against, and the one test of a whole
number (SPEC 2.1, 3.1, 3.6, 6.1). Pure; no I/O.

Each number has its home here: the cards, the rules, the mental-poker steps and the ledger's
field ranges all read it from this module.
"""

from __future__ import annotations

from typing import TypeGuard

DECK_SIZE = 52
"""Cards in the deck, canonical indices 0..51 (SPEC 2.1)."""
LAYOUT_SIZE = 5
"""Cards each player lays out face down and turns one per round (SPEC 3.6, 5.8)."""
ROUNDS = LAYOUT_SIZE
"""Betting rounds: one after each layout card is turned (SPEC 3.6)."""
MAX_SEATS = 10
"""Seats at a table, numbered 0..9: a 52-card deck deals five cards to at most ten (SPEC 3.1)."""


def is_int(value: object) -> TypeGuard[int]:
    """A whole number: an int that is not a bool (SPEC 6.1: JSON `true` is not 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


__all__ = ["DECK_SIZE", "LAYOUT_SIZE", "MAX_SEATS", "ROUNDS", "is_int"]
