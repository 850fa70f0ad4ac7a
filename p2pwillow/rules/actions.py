"""The action table: every action and input of a hand, declared once (SPEC 3.3, 6.10, 7.2).

Pure; no I/O. One row per `ActionKind` says who brings the action about, which entry kind
carries it (SPEC 6.10, by its name on the wire), the one argument it takes, the rules' check
and step behind it, and whether its entry binds the head it was decided at (SPEC 7.1). `Hand`'s `verify_x` / `can_x` / `x` triplets and its generic
`verify` / `can` / `act`, `Hand.legal_actions`, the session's entry checks and the bodies it
builds, the bots' legality and the client's keys all read this table.
"""

# ruff: noqa: E501 - the table below is one row per line, wider than the code around it

# Adding a player action
# ----------------------
# Write its check and step in the rule module of its phase (shape: `Check`, `Step` below), its
# member of `ActionKind` with the phases that admit it (phases.py), its one-line triplet on
# `Hand`, one row here, and its entry kind in `ledger/kinds.py`. If its entry carries nothing but
# the action (a `body` of field names), the session checks the entry and builds its body from
# this row alone; bots and the client find it here too.

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from p2pwillow.rules import betting_round, rounds, showdown, timeouts, trade_flow
from p2pwillow.rules.config import TableConfig
from p2pwillow.rules.events import Event
from p2pwillow.rules.phases import ActionKind
from p2pwillow.rules.state import HandState

Check = Callable[[TableConfig, HandState, int, Any], None]
"""(config, state, seat, argument): raise IllegalAction with the reason, change nothing. An
argument of None asks whether the seat may take the action with some argument."""
Step = Callable[[TableConfig, HandState, int, Any], list[Event]]
"""(config, state, seat, argument): apply a checked action to a copy of the state; the events
it caused, the action's own first."""


class By(enum.Enum):
    """Who brings an action about (SPEC 3.3, 7.3)."""

    PLAYER = "player"
    """The player decides it: a key in the client, a bot's decision, an entry it signs."""
    SESSION = "session"
    """The player's session makes it by itself when it is due (the reveal)."""
    PROTOCOL = "protocol"
    """The protocol completes it (the deal, once every deal share is in)."""
    DEALER = "dealer"
    """The dealer's clock, for a seat that stalls (a timeout, a fold for stalling, an abort)."""


class Needs(enum.Enum):
    """The one argument an action takes."""

    NOTHING = "nothing"
    ANNOUNCEMENT = "announcement"
    """An `Announcement`: deal size, trading mode and closing."""
    K = "k"
    """The number of cards offered."""
    AMOUNT = "amount"
    """Chips: a bet, or a raise's new round total."""
    POSITIONS = "positions"
    """Hand positions: the cards given in a trade, or the layout in the order it turns."""
    OPEN_OFFER = "open offer"
    """The offer answered: always the open one (a `TradeOffer`, or None for it)."""
    CARD = "card"
    """The card a reveal turns, known once its proof verifies."""
    BLAME = "blame"
    """The seats an abort blames and its reason (`showdown.Blame`)."""

    @property
    def decision_field(self) -> str | None:
        """The field of a player's decision that carries this argument (SPEC 8: `Decision`),
        or None when a decision carries none."""
        return self.value if self in _DECIDED else None


_DECIDED = frozenset({Needs.ANNOUNCEMENT, Needs.K, Needs.AMOUNT, Needs.POSITIONS})


@dataclass(frozen=True, slots=True)
class Action:
    """One row of the action table."""

    kind: ActionKind
    by: By
    entry: str
    """The entry kind that carries the action (SPEC 6.10, 7.2)."""
    needs: Needs
    check: Check
    step: Step
    body: tuple[str, ...] | None
    """The body fields of a plain entry, one that carries nothing but the action (the session
    checks it and builds it from this row); None where the entry also carries a mental-poker
    step or has checks of its own."""
    binds: bool
    """The decision means what it means only at the head it was made at (a call, a pass, an
    offer): its entry must come right after that head, `seen == prev` (SPEC 6.4, 7.1). False
    where the entry names what it answers (the offer, the trade) or is bound by its proofs."""

    def argument(self, decision: object) -> object:
        """The argument a player's decision gives this action (None if it needs none)."""
        name = self.needs.decision_field
        return None if name is None else getattr(decision, name)


A, N = ActionKind, Needs
P, S, Q, D = By.PLAYER, By.SESSION, By.PROTOCOL, By.DEALER
tf, rd, br, to, sd = trade_flow, rounds, betting_round, timeouts, showdown
ANNOUNCED = ("deal_size", "trading_mode", "closing", "orbits")

# fmt: off
ACTIONS: tuple[Action, ...] = (
    #      kind                  by  entry            needs           check               step                 body        binds
    Action(A.ANNOUNCE,           P, "announce",      N.ANNOUNCEMENT, tf.verify_announce, tf.do_announce,      ANNOUNCED,  True),
    Action(A.DEAL,               Q, "deal_shares",   N.NOTHING,      tf.verify_deal,     tf.do_deal,          None,       False),
    Action(A.OFFER,              P, "offer",         N.K,            tf.verify_offer,    tf.do_offer,         ("k",),     True),
    Action(A.ACCEPT,             P, "accept",        N.OPEN_OFFER,   tf.verify_accept,   tf.do_accept,        ("offer",), False),
    Action(A.DECLINE,            P, "decline",       N.OPEN_OFFER,   tf.verify_decline,  tf.do_decline,       ("offer",), False),
    Action(A.WITHDRAW,           P, "withdraw",      N.OPEN_OFFER,   tf.verify_withdraw, tf.do_withdraw,      ("offer",), False),
    Action(A.PASS,               P, "pass",          N.NOTHING,      tf.verify_pass,     tf.do_pass,          (),         True),
    Action(A.CHOOSE_TRADE_CARDS, P, "trade_give",    N.POSITIONS,    tf.verify_choose,   tf.do_choose,        None,       False),
    Action(A.CLOSE_TRADING,      P, "close_trading", N.NOTHING,      tf.verify_close,    tf.do_close_trading, (),         True),
    Action(A.LAY_OUT,            P, "hand_shuffle",  N.POSITIONS,    rd.verify_lay_out,  rd.do_lay_out,       None,       False),
    Action(A.REVEAL,             S, "reveal",        N.CARD,         rd.verify_reveal,   rd.do_reveal,        None,       False),
    Action(A.CHECK,              P, "check",         N.NOTHING,      br.verify_check,    br.do_check,         (),         True),
    Action(A.BET,                P, "bet",           N.AMOUNT,       br.verify_bet,      br.do_wager,         ("amount",), True),
    Action(A.CALL,               P, "call",          N.NOTHING,      br.verify_call,     br.do_call,          (),         True),
    Action(A.RAISE,              P, "raise",         N.AMOUNT,       br.verify_raise,    br.do_wager,         ("to",),    True),
    Action(A.FOLD,               P, "fold",          N.NOTHING,      br.verify_fold,     br.do_fold,          (),         True),
    Action(A.ALL_IN,             P, "all_in",        N.NOTHING,      br.verify_all_in,   br.do_all_in,        (),         True),
    Action(A.TIMEOUT,            D, "timeout",       N.NOTHING,      to.verify_timeout,  to.do_timeout,       None,       False),
    Action(A.STALL,              D, "timeout",       N.NOTHING,      to.verify_stall,    to.do_stall,         None,       False),
    Action(A.ABORT,              D, "abort",         N.BLAME,        sd.verify_abort,    sd.do_abort,         None,       False),
)
# fmt: on

ACTION: Mapping[ActionKind, Action] = MappingProxyType({a.kind: a for a in ACTIONS})
"""The row of each action kind."""
BY_ENTRY: Mapping[str, Action] = MappingProxyType(
    {a.entry: a for a in ACTIONS if a.by is By.PLAYER}
)
"""The player action each decision entry kind carries (SPEC 7.2)."""
DECISIONS: tuple[Action, ...] = tuple(a for a in ACTIONS if a.by is By.PLAYER)
"""The actions a player decides, in table order: the keys of a client, a bot's choices."""

__all__ = ["ACTION", "ACTIONS", "BY_ENTRY", "DECISIONS", "Action", "By", "Check", "Needs", "Step"]
