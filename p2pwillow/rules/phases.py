"""The phases of a hand, the actions each phase admits, and the phase transition table (SPEC 3.2).

Pure; no I/O. Theory of operation below; `state.goto` is the only code that changes phase.
"""

# Theory of operation
# -------------------
# A hand is a state machine driven by two kinds of input: player actions (announce, offer,
# accept, ..., check, bet, raise, fold) and protocol inputs (deal, lay_out, reveal, timeout,
# stall, abort) that the session layer feeds in once the cryptography behind them has been
# checked.
# The engine never sees a face-down card: it counts each player's cards as positions 0..n-1
# and learns a card only when `reveal` hands it one.
#
#   ANNOUNCE --announce--> DEAL --deal--> TRADING --(closed)--> LAYOUT --(all laid out)-->
#   REVEAL(r) --(all revealed)--> BETTING(r) --(round over)--> REVEAL(r+1) ... BETTING(5)
#   --> SHOWDOWN --> COMPLETE
#
# BETTING is skipped when fewer than two players can still bet; a fold that leaves one player
# goes straight to COMPLETE (after the deal a stall folds the staller out of turn, so TRADING,
# LAYOUT and REVEAL can end that way too); `abort` takes ANNOUNCE or DEAL to ABORTED and
# nothing later: once the cards are dealt a hand is never voided (SPEC 3.9, 3.10). SHOWDOWN is
# transient:
# pots are settled on entry and the hand moves on to COMPLETE in the same step. Every phase
# change goes through `TRANSITIONS` and every action is first checked against
# `ACTIONS_BY_PHASE`, so a rule about "when" lives in these two tables and nowhere else.
# Who may act within a phase (turn order, trade sides, the betting order) is decided by the
# trading and betting rules (SPEC 3.5, 3.7).

from __future__ import annotations

import enum


class Phase(enum.Enum):
    ANNOUNCE = "announce"
    DEAL = "deal"
    TRADING = "trading"
    LAYOUT = "layout"
    REVEAL = "reveal"
    BETTING = "betting"
    SHOWDOWN = "showdown"
    COMPLETE = "complete"
    ABORTED = "aborted"


class ActionKind(enum.Enum):
    """Every action and input the engine accepts, by its SPEC name."""

    ANNOUNCE = "announce"
    DEAL = "deal"
    OFFER = "offer"
    ACCEPT = "accept"
    DECLINE = "decline"
    WITHDRAW = "withdraw"
    PASS = "pass"
    CHOOSE_TRADE_CARDS = "choose-trade-cards"
    CLOSE_TRADING = "close-trading"
    LAY_OUT = "lay-out"
    REVEAL = "reveal"
    CHECK = "check"
    BET = "bet"
    CALL = "call"
    RAISE = "raise"
    FOLD = "fold"
    ALL_IN = "all-in"
    TIMEOUT = "timeout"
    STALL = "stall"
    ABORT = "abort"


TERMINAL: frozenset[Phase] = frozenset({Phase.COMPLETE, Phase.ABORTED})

_TRADING_ACTIONS = frozenset(
    {
        ActionKind.OFFER,
        ActionKind.ACCEPT,
        ActionKind.DECLINE,
        ActionKind.WITHDRAW,
        ActionKind.PASS,
        ActionKind.CHOOSE_TRADE_CARDS,
        ActionKind.CLOSE_TRADING,
        ActionKind.TIMEOUT,
    }
)
_BETTING_ACTIONS = frozenset(
    {
        ActionKind.CHECK,
        ActionKind.BET,
        ActionKind.CALL,
        ActionKind.RAISE,
        ActionKind.FOLD,
        ActionKind.ALL_IN,
        ActionKind.TIMEOUT,
    }
)

# SPEC 3.2: the actions a phase admits. Abort only before the deal is complete, stall only
# after it (SPEC 3.9, 3.10).
ACTIONS_BY_PHASE: dict[Phase, frozenset[ActionKind]] = {
    Phase.ANNOUNCE: frozenset({ActionKind.ANNOUNCE, ActionKind.ABORT}),
    Phase.DEAL: frozenset({ActionKind.DEAL, ActionKind.ABORT}),
    Phase.TRADING: _TRADING_ACTIONS | {ActionKind.STALL},
    Phase.LAYOUT: frozenset({ActionKind.LAY_OUT, ActionKind.STALL}),
    Phase.REVEAL: frozenset({ActionKind.REVEAL, ActionKind.STALL}),
    Phase.BETTING: _BETTING_ACTIONS | {ActionKind.STALL},
    Phase.SHOWDOWN: frozenset(),
    Phase.COMPLETE: frozenset(),
    Phase.ABORTED: frozenset(),
}

# SPEC 3.2: the only phase changes there are.
TRANSITIONS: dict[Phase, frozenset[Phase]] = {
    Phase.ANNOUNCE: frozenset({Phase.DEAL, Phase.ABORTED}),
    Phase.DEAL: frozenset({Phase.TRADING, Phase.LAYOUT, Phase.ABORTED}),
    Phase.TRADING: frozenset({Phase.LAYOUT, Phase.COMPLETE}),
    Phase.LAYOUT: frozenset({Phase.REVEAL, Phase.COMPLETE}),
    Phase.REVEAL: frozenset({Phase.BETTING, Phase.REVEAL, Phase.SHOWDOWN, Phase.COMPLETE}),
    Phase.BETTING: frozenset(
        {Phase.REVEAL, Phase.SHOWDOWN, Phase.COMPLETE},
    ),
    Phase.SHOWDOWN: frozenset({Phase.COMPLETE}),
    Phase.COMPLETE: frozenset(),
    Phase.ABORTED: frozenset(),
}
