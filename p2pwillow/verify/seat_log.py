"""What happened to the players beside the cards: each clock that ran out and what it did, a
sequencer replaced, who was made to sit out and why, who sat in again, the offers declined and
withdrawn (SPEC 7.6, the report's `events` of each hand).

Pure; no I/O. `SeatLog` is fed by `audit` around each entry the observer session replays: the
steps owed just before it (what a timeout was for) and the events it made.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from p2pwillow.games.weeping_willow import OfferWithdrawn, Passed, TradeDeclined, TradingClosed
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.entry import Entry
from p2pwillow.rules import (
    BetPlaced,
    Called,
    Checked,
    Folded,
    FoldedForStalling,
    HandAborted,
    Phase,
    SitOut,
    TimedOut,
)
from p2pwillow.session import Session, Step

TIMEOUT = "timeout"
REPLACED = "replaced"
SIT_OUT = "sit_out"
SIT_IN = "sit_in"
DECLINED = "declined"
WITHDRAWN = "withdrawn"
KINDS = (TIMEOUT, REPLACED, SIT_OUT, SIT_IN, DECLINED, WITHDRAWN)
"""The kinds of `SeatEvent`, as `--json` names them."""

# What a seat's clock running out did, by the default the rules took (SPEC 3.9).
_OUTCOMES: tuple[tuple[type, str], ...] = (
    (Folded, "folded"),
    (Checked, "checked"),
    (Called, "called"),
    (BetPlaced, "bet"),
    (Passed, "passed"),
    (TradeDeclined, "declined the offer"),
    (OfferWithdrawn, "withdrew its offer"),
    (TradingClosed, "closed trading"),
)


@dataclass(frozen=True, slots=True)
class SeatEvent:
    """One thing that happened to a seat in a hand (or after it, before the next).

    `kind` is one of KINDS. For a timeout, `step` is what the seat owed when its clock ran
    out (a phase of the hand for a decision: "trading", "betting"; else the step:
    "hand_key", "reveal", "head_signature", "hand_start", "game_signature"...) and
    `outcome` what the clock did ("folded", "checked", "excused"...). For a sit-out,
    `reason` is why (SPEC 3.11's reasons). For a declined offer, `other` is the offerer;
    `cards` is the offer's number of cards (declined, withdrawn)."""

    kind: str
    seat: int
    step: str = ""
    outcome: str = ""
    reason: str = ""
    other: int | None = None
    cards: int = 0


def _step(session: Session, step: Step) -> str:
    """A step owed, as the report names it: a decision by the phase the hand is in."""
    r = session.state.hand
    if step is Step.DECISION and r is not None and not r.ended:
        phase = r.rules.phase
        return str(phase.value) if isinstance(phase, Phase) else "decision"
    return str(step.value)


def _outcome(seat: int, step: str, events: Sequence[object]) -> str:
    for event in events:
        if isinstance(event, TimedOut) and event.seat == seat:
            for kind, words in _OUTCOMES:
                if isinstance(event.outcome, kind):
                    return words
            return "its default taken"
        if isinstance(event, FoldedForStalling) and event.seat == seat:
            return "folded"
        if isinstance(event, HandAborted) and seat in event.blamed:
            return "the hand called off"
    if step == Step.HAND_START:
        return "the deal passed on"
    return "excused"


class SeatLog:
    """Collects the seat events of a replayed transcript, by hand number."""

    def __init__(self) -> None:
        self.by_hand: dict[int, list[SeatEvent]] = {}
        self._owed: dict[int, str] = {}

    def before(self, session: Session, entry: Entry) -> None:
        """Before `entry` is replayed: what each seat owes (a timeout names what it was for)."""
        if isinstance(entry.body, k.Timeout | k.SequencerChange):
            self._owed = {d.seat: _step(session, d.step) for d in session.state.dues()}

    def after(self, entry: Entry, events: Iterable[object]) -> None:
        """Once `entry` was replayed with `events`: what it did to the seats."""
        made = list(events)
        body = entry.body
        out = self.by_hand.setdefault(entry.hand, [])
        if isinstance(body, k.Timeout):
            for seat in body.seats:
                step = self._owed.get(seat, "")
                out.append(SeatEvent(TIMEOUT, seat, step, _outcome(seat, step, made)))
        elif isinstance(body, k.SequencerChange):
            out += [SeatEvent(REPLACED, seat) for seat in body.replaced]
        elif isinstance(body, k.SitIn):
            out.append(SeatEvent(SIT_IN, entry.author))
        by_clock = [e.outcome for e in made if isinstance(e, TimedOut)]
        for event in made:
            if event in by_clock:
                continue  # the clock's default: said with its timeout
            if isinstance(event, TradeDeclined):
                o = event.offer
                out.append(SeatEvent(DECLINED, event.seat, other=o.offerer, cards=o.k))
            elif isinstance(event, OfferWithdrawn):
                out.append(SeatEvent(WITHDRAWN, event.offer.offerer, cards=event.offer.k))

    def sat_out(self, sit_outs: Iterable[SitOut]) -> None:
        """Every seat made to sit out, in the hand after which it was (SPEC 3.11)."""
        for s in sit_outs:
            event = SeatEvent(SIT_OUT, s.seat, reason=s.reason.value)
            self.by_hand.setdefault(s.after_hand, []).append(event)

    def of(self, hand: int) -> tuple[SeatEvent, ...]:
        return tuple(self.by_hand.get(hand, ()))


__all__ = ["KINDS", "SeatEvent", "SeatLog"]
