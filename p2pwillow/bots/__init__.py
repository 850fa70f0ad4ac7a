"""Computer players for Weeping Willow, driving the rules engine through its public API only.

Pure; no I/O. `Bot.decide` answers whenever its seat must act, at the level it is given
(`easy`, `normal`, `hard`); `arena.play_hands` plays whole hands among bots with a trusted
dealer (tests and the no-cryptography benchmark baseline) and `arena.play_matchup` long seeded
matches against the simple opponents of `baselines`.
"""

from p2pwillow.bots.arena import (
    ArenaResult,
    HandRecord,
    Interval,
    MatchupResult,
    SeatRecord,
    play_hands,
    play_matchup,
)
from p2pwillow.bots.baselines import BASELINES, Baseline
from p2pwillow.bots.decision import BotError, Decision, Knowledge, apply_decision, is_legal
from p2pwillow.bots.equity import OpponentView, TradeEstimate, equity, estimate_trade, strength
from p2pwillow.bots.level import DEFAULT_LEVEL, LEVELS, Level, parse_level
from p2pwillow.bots.opponents import OpponentModel, Read
from p2pwillow.bots.strategy import Bot

__all__ = [
    "BASELINES",
    "DEFAULT_LEVEL",
    "LEVELS",
    "ArenaResult",
    "Baseline",
    "Bot",
    "BotError",
    "Decision",
    "HandRecord",
    "Interval",
    "Knowledge",
    "Level",
    "MatchupResult",
    "OpponentModel",
    "OpponentView",
    "Read",
    "SeatRecord",
    "TradeEstimate",
    "apply_decision",
    "equity",
    "estimate_trade",
    "is_legal",
    "parse_level",
    "play_hands",
    "play_matchup",
    "strength",
]
