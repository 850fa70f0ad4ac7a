"""One peer's engine: ledger + rules + mental poker, sans I/O (SPEC 7).

Pure; no I/O, no clock, no hidden randomness. `Session` takes entries, decisions and timer
ticks and returns entries to send and events; with no seat it is the verifier's observer.
"""

from p2pwillow.session.engine import SEAT_CHANGES, Session, Wait, make_genesis
from p2pwillow.session.events import (
    EVERY_PEER,
    CardsDealt,
    CardsReceived,
    ChainCut,
    ClockNoted,
    EntryRefused,
    HandClosed,
    HandStarted,
    HandSummary,
    Outgoing,
    Output,
    PotSummary,
    SessionEvent,
    TradeSummary,
    destination,
)
from p2pwillow.session.refusal import Refusal, decode_refusal
from p2pwillow.session.schedule import Due, Step
from p2pwillow.session.state import SessionState

__all__ = [
    "EVERY_PEER",
    "SEAT_CHANGES",
    "CardsDealt",
    "CardsReceived",
    "ChainCut",
    "ClockNoted",
    "Due",
    "EntryRefused",
    "HandClosed",
    "HandStarted",
    "HandSummary",
    "Outgoing",
    "Output",
    "PotSummary",
    "Refusal",
    "Session",
    "SessionEvent",
    "SessionState",
    "Step",
    "TradeSummary",
    "Wait",
    "decode_refusal",
    "destination",
    "make_genesis",
]
