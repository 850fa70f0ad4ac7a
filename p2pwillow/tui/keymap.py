"""Which key stands for which player action: one table read by the key bindings and by the
screen that shows the keys. Pure data; no I/O.
"""

from __future__ import annotations

from p2pwillow.rules import ActionKind

ACTION_KEYS: dict[ActionKind, str] = {
    ActionKind.FOLD: "f",
    ActionKind.CHECK: "k",
    ActionKind.CALL: "c",
    ActionKind.BET: "b",
    ActionKind.RAISE: "r",
    ActionKind.ALL_IN: "a",
    ActionKind.OFFER: "o",
    ActionKind.ACCEPT: "y",
    ActionKind.DECLINE: "n",
    ActionKind.WITHDRAW: "w",
    ActionKind.PASS: "p",
    ActionKind.CLOSE_TRADING: "x",
}
"""The key of every action a person takes with one key (the others have their own panels:
announcing, choosing the cards to give, laying out)."""

BETTING = (
    ActionKind.FOLD,
    ActionKind.CHECK,
    ActionKind.CALL,
    ActionKind.BET,
    ActionKind.RAISE,
    ActionKind.ALL_IN,
)
TRADING = (
    ActionKind.OFFER,
    ActionKind.ACCEPT,
    ActionKind.DECLINE,
    ActionKind.WITHDRAW,
    ActionKind.PASS,
    ActionKind.CLOSE_TRADING,
)
AMOUNT_ACTIONS = (ActionKind.BET, ActionKind.RAISE, ActionKind.OFFER)
"""Actions that open the amount field (the bet, the raise-to total, the offer size)."""

HELP_KEY = "?"
QUIT_KEY = "q"
END_KEY = "e"
"""End the game (at once between hands, else after the current hand)."""
LEAVE_KEY = "l"
"""Leave the table between hands (the game goes on without you)."""
SIT_IN_KEY = "i"
"""Play again from the next hand, after sitting out (timed out, say)."""
MIN_KEY = "<"
MAX_KEY = ">"
MODE_KEY = "t"
"""Announcing: in turn or free trading."""
CLOSING_KEY = "c"
"""Announcing: how trading closes."""
