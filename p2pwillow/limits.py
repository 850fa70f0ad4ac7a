"""The fixed sizes that every layer checks against, and the one test of a whole number (SPEC
2.1, 3.1, 6.1). Pure; no I/O.

Each number has its home here: the cards, the rules, the mental-poker steps and the ledger's
field ranges all read it from this module. What depends on the game (how many cards are laid
out, how many rounds) is the game's description's (SPEC 3.13).
"""

from __future__ import annotations

from typing import TypeGuard

DECK_SIZE = 52
"""Cards in the deck, canonical indices 0..51 (SPEC 2.1)."""
MAX_HAND = 7
"""The most cards a player's hand holds at once (SPEC 3.13, 6.10): every hand position is
0..6."""
MAX_SEATS = 10
"""Seats at a table, numbered 0..9: a 52-card deck deals five cards to at most ten (SPEC 3.1)."""


def is_int(value: object) -> TypeGuard[int]:
    """A whole number: an int that is not a bool (SPEC 6.1: JSON `true` is not 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


__all__ = ["DECK_SIZE", "MAX_HAND", "MAX_SEATS", "is_int"]
