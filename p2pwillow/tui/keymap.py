"""Which key stands for which player action: read from the action table's rows (each row
carries its key and its label), for the key bindings and the screen that shows the keys. Pure
data; no I/O.
"""

from __future__ import annotations

from p2pwillow.games import ACTIONS
from p2pwillow.rules import Action, ActionKind, Needs, Phase

KEYED: tuple[Action, ...] = tuple(row for row in ACTIONS if row.key)
"""Every action a person takes with one key, in the table's order (the others have panels of
their own: announcing, choosing the cards to give, laying out)."""

ACTION_KEYS: dict[ActionKind, str] = {row.kind: row.key for row in KEYED}
"""The key of every action a person takes with one key."""

LABELS: dict[ActionKind, str] = {row.kind: row.label for row in KEYED}
"""How the screen names each keyed action beside its key."""


def keyed_in(phase: Phase) -> tuple[ActionKind, ...]:
    """The keyed actions of `phase`, in the table's order: the key bar of that phase."""
    return tuple(row.kind for row in KEYED if phase in row.phases)


BETTING = keyed_in(Phase.BETTING)
TRADING = keyed_in(Phase.TRADING)
AMOUNT_ACTIONS = tuple(row.kind for row in KEYED if row.needs in (Needs.AMOUNT, Needs.K))
"""Actions that open the amount field (the bet, the raise-to total, the offer size)."""

HELP_KEY = "?"
QUIT_KEY = "q"
END_KEY = "e"
"""End the game (at once between hands, else after the current hand)."""
LEAVE_KEY = "l"
"""Leave the table between hands (the game goes on without you)."""
SIT_IN_KEY = "i"
"""Play again from the next hand, after sitting out (timed out, say); the arbiter: sit a seat
that sits out back in."""
MORE_TIME_KEY = "m"
"""More time on your clock from your time bank; the arbiter: more time for the seat whose
clock runs."""
PAUSE_KEY = " "
"""Pause the table ("the phone rings"), or resume it (who paused it, or the arbiter)."""
MIN_KEY = "<"
MAX_KEY = ">"
GAME_KEY = "g"
"""Announcing: the next of the games the table plays."""
MODE_KEY = "t"
"""Announcing Weeping Willow: in turn or free trading."""
CLOSING_KEY = "c"
"""Announcing Weeping Willow: how trading closes."""
WASH_PRICE_KEY = "p"
"""Announcing Car Wash: the price of a wash, one ante up (back to free after the most)."""
CLOAK_KEY = "c"
"""At a wash that offers the cloak (Go for Broke): cloak the face-up card picked, that is wash it
and be dealt another face down (the call key elsewhere; nobody calls at a wash)."""
FLIP_KEY = "f"
"""At a wash that offers the flip (Five by Two): turn the face-down card picked face up and wash
the face-up card picked, another dealt face down (the fold key elsewhere; nobody folds at a
wash)."""
STAND_PAT_KEY = "s"
"""Drawing: discard nothing (stand pat)."""
DECLARE_KEYS: dict[str, str] = {"h": "high", "l": "low", "p": "pig"}
"""Declaring in a split-pot game (SPEC 3.16): the key of each declaration. The panel is open
only while the person's seat must seal, and there its keys come first: `l` declares low (it
leaves the table everywhere else, and leaving waits for the hand's end anyway), `p` pig (it
passes in trading, which a split-pot game has none of)."""
DECLARE_LABELS: dict[str, str] = {"high": "high", "low": "low", "pig": "pig (both ways)"}
"""How the declaration panel names each declaration beside its key."""
SHOW_KEY = "s"
"""In the bet after a split-pot game's declaration: show your cards, and then match the pot or
fold (SPEC 3.18). The key asks first; pressed again, it shows."""
MATCH_KEYS: dict[str, bool] = {"y": True, "f": False}
"""Put to match the pot or fold (SPEC 3.18): the key of each answer (True: match). The panel
is open only while the person owes the answer, and there its keys come first."""
