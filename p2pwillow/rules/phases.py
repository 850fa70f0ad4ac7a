"""The phases of a hand (SPEC 3.2). Pure; no I/O.

Which step of its game's script a hand is at gives its phase (`script.advance` is the only code
that moves a hand to the next step); the actions each phase admits are the action table's
(`actions`).
"""

# Theory of operation
# -------------------
# A hand is a state machine driven by two kinds of input: player actions (announce, the
# game's own decisions, check, bet, raise, fold) and protocol inputs (deal, lay_out, reveal,
# timeout, stall, abort) that the session layer feeds in once the cryptography behind them
# has been checked. The engine never sees a face-down card: it counts each player's cards as
# positions 0..n-1 and learns a card only when `reveal` hands it one.
#
# Every hand starts in ANNOUNCE, where the dealer names the game and its options. From then
# on the hand walks its game's script (`script.advance`): each step has a phase (DEAL,
# the game's own phase such as Weeping Willow's TRADING, LAYOUT, REVEAL, BETTING, SHOWDOWN),
# and the next phase is the next step's. A fold that leaves one player goes straight to
# COMPLETE (after the deal a stall folds the staller out of turn, so any phase after DEAL can
# end that way); `abort` takes ANNOUNCE or DEAL to ABORTED and nothing later: once the cards
# are dealt a hand is never voided (SPEC 3.9, 3.10). SHOWDOWN is transient: pots are settled
# on entry and the hand moves on to COMPLETE in the same step.

from __future__ import annotations

import enum


class Phase(enum.Enum):
    ANNOUNCE = "announce"
    DEAL = "deal"
    TRADING = "trading"
    LAYOUT = "layout"
    REVEAL = "reveal"
    BETTING = "betting"
    STREET = "street"
    """A live-deck game deals during the hand (SPEC 3.15): a card could be seen already."""
    DRAW = "draw"
    """A draw game's players still in, in turn, discard and are dealt as many (SPEC 3.15)."""
    SHOW = "show"
    """A live-deck game's players still in show the cards they hold face down (SPEC 3.15)."""
    DECLARE = "declare"
    """A split-pot game's players still in seal low, high or pig, then open together (3.16)."""
    SHOWDOWN = "showdown"
    COMPLETE = "complete"
    ABORTED = "aborted"


TERMINAL: frozenset[Phase] = frozenset({Phase.COMPLETE, Phase.ABORTED})
