"""A player's decision: exactly one action of the action table with the one argument its row
needs (SPEC 3.3). Pure; no I/O.

Bots make them, the terminal client makes them from keys, the session turns them into signed
entries, the in-process table and the arena apply them: one type for all.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pwillow.limits import is_int
from p2pwillow.rules.actions import ActionKind, known
from p2pwillow.rules.errors import IllegalAction
from p2pwillow.rules.script import Announcement

_FIELDS = ("amount", "k", "positions", "announcement", "partner", "choice", "match")


class DecisionError(IllegalAction, ValueError):
    """A decision that is no decision: an action no player decides, or the wrong argument."""


@dataclass(frozen=True, slots=True)
class Decision:
    """Exactly one player action for the rules engine.

    `amount` is the bet, or the raise-to round total; `k` the offer size; `positions` the hand
    positions given in a trade, or for LAY_OUT the hand positions in reveal order (first
    revealed first), or at a wash the cards washed, cloaked or flipped (a flip: its face-down
    card, then its face-up one) as the wash numbers them (SPEC 3.17); `announcement` the
    dealer's announcement; `partner` the seat an offerer chooses to trade with; `choice` a
    sealed choice (a declaration: "low", "high" or "pig"); `match` the answer of a player put
    to match the pot or fold (True: match). Only the field the action's row needs is set
    (`Needs.decision_field`).
    """

    kind: ActionKind
    amount: int | None = None
    k: int | None = None
    positions: tuple[int, ...] | None = None
    announcement: Announcement | None = None
    partner: int | None = None
    choice: str | None = None
    match: bool | None = None

    def __post_init__(self) -> None:
        row = known(self.kind) if isinstance(self.kind, ActionKind) else None
        if row is None or not row.decided:
            raise DecisionError(f"{self.kind!r} is not a player's decision")
        needed = row.needs.decision_field
        for name in _FIELDS:
            value = getattr(self, name)
            if (value is None) == (name == needed):
                state = "needs" if name == needed else "takes no"
                what = self.kind.value.replace("-", " ")
                raise DecisionError(f"a {what} decision {state} {name}")
        if self.amount is not None and not is_int(self.amount):
            raise DecisionError(f"amount must be an integer, not {self.amount!r}")
        if self.k is not None and not is_int(self.k):
            raise DecisionError(f"k must be an integer, not {self.k!r}")
        if self.partner is not None and not is_int(self.partner):
            raise DecisionError(f"partner must be a seat, not {self.partner!r}")
        if self.positions is not None and (
            not isinstance(self.positions, tuple) or not all(map(is_int, self.positions))
        ):
            raise DecisionError(f"positions must be a tuple of integers, not {self.positions!r}")
        if self.positions is not None and len(set(self.positions)) != len(self.positions):
            raise DecisionError("a position is named twice")
        if self.choice is not None and not isinstance(self.choice, str):
            raise DecisionError(f"choice must be a word, not {self.choice!r}")
        if self.match is not None and not isinstance(self.match, bool):
            raise DecisionError(f"match must be True or False, not {self.match!r}")
        if self.announcement is not None and not isinstance(self.announcement, Announcement):
            raise DecisionError(f"not an announcement: {self.announcement!r}")

    def argument(self) -> object:
        """The argument the action's row takes from this decision (None if it needs none)."""
        row = known(self.kind)
        assert row is not None
        return row.argument(self)


__all__ = ["Decision", "DecisionError"]
