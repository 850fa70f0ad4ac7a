"""Computer players for Weeping Willow, driving the rules engine through its public API only.

Pure; no I/O. `Bot.decide` answers whenever its seat must act; `arena.play_hands` plays whole
hands among bots with a trusted dealer (tests and the no-cryptography benchmark baseline).
"""

from p2pwillow.bots.arena import ArenaResult, HandRecord, play_hands
from p2pwillow.bots.decision import BotError, Decision, Knowledge, apply_decision, is_legal
from p2pwillow.bots.equity import OpponentView, TradeEstimate, equity, estimate_trade, strength
from p2pwillow.bots.strategy import Bot

__all__ = [
    "ArenaResult",
    "Bot",
    "BotError",
    "Decision",
    "HandRecord",
    "Knowledge",
    "OpponentView",
    "TradeEstimate",
    "apply_decision",
    "equity",
    "estimate_trade",
    "is_legal",
    "play_hands",
    "strength",
]
