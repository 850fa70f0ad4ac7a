"""A hand as a player reads it: the deal, the trades, each betting round, the showdown, the pots.

Pure; no I/O. Built from the events an observer session emits while `willow verify` replays a
transcript (SPEC 7.6), so it holds only what the transcript makes public.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from p2pwillow.cards import Card
from p2pwillow.games.weeping_willow import TradingClosed
from p2pwillow.hands import best_hand, showing_value
from p2pwillow.rules import (
    Announced,
    Announcement,
    BetPlaced,
    BettingOpened,
    BettingSkipped,
    Called,
    CardRevealed,
    Checked,
    Folded,
    HandAborted,
    HandEnded,
    Raised,
    TimedOut,
    WentAllIn,
)
from p2pwillow.rules import Event as RulesEvent
from p2pwillow.rules.pots import HandResult
from p2pwillow.session import HandStarted, HandSummary
from p2pwillow.verify.seat_log import SeatEvent


@dataclass(frozen=True, slots=True)
class BetAction:
    """One betting decision: `action` is check, bet, call, raise, fold or all-in."""

    seat: int
    action: str
    chips: int
    """Chips this action put in."""
    to: int
    """For a bet, a raise or an all-in: the seat's bet in this round afterwards; else 0."""
    timed_out: bool = False
    """The seat's clock ran out and this was its default (SPEC 3.9)."""


@dataclass(frozen=True, slots=True)
class BettingRound:
    """Round `number` (1..5): the card each player turned, then the betting (SPEC 3.6, 3.7)."""

    number: int
    turned: tuple[tuple[int, Card], ...]
    opener: int | None
    """Who opened the betting; None when fewer than two players could bet."""
    actions: tuple[BetAction, ...]


@dataclass(frozen=True, slots=True)
class ShowdownHand:
    seat: int
    cards: tuple[Card, ...]
    """The seat's face-up cards in the order turned."""
    value: str
    """The hand's name, as SPEC 2.6 writes it: "three of a kind, eights"."""


@dataclass(frozen=True, slots=True)
class PotResult:
    """A pot as won: `amount` excludes any uncalled bet, which went back to its bettor."""

    amount: int
    contested: tuple[int, ...]
    """The seats that could win it (still in and all in for its level), clockwise."""
    winners: tuple[int, ...]
    shares: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandHistory:
    """One hand of the game: the session's public summary, and what the events add to it."""

    summary: HandSummary
    announcement: Announcement | None
    trading_closed: str
    """Why trading closed, in the rules' words ("" if it never opened)."""
    rounds: tuple[BettingRound, ...]
    showdown: tuple[ShowdownHand, ...]
    """The hands of every player still in after round 5, when two or more were."""
    pots: tuple[PotResult, ...]
    returned: tuple[tuple[int, int], ...]
    """(seat, chips) of an uncalled bet given back: never part of a pot anyone won."""
    stacks: tuple[tuple[int, int], ...]
    """(seat, stack) after the hand, in table order."""
    bets: tuple[tuple[int, int], ...]
    """(seat, chips bet over the whole hand, trade tokens not included), in table order."""
    events: tuple[SeatEvent, ...] = ()
    """What happened to the seats in the hand and after it, before the next (`seat_log`):
    clocks that ran out, a sequencer replaced, sit-outs, sit-ins, offers declined or
    withdrawn."""

    @property
    def number(self) -> int:
        return self.summary.number


@dataclass(slots=True)
class _RoundLog:
    turned: list[tuple[int, Card]] = field(default_factory=list)
    opener: int | None = None
    actions: list[BetAction] = field(default_factory=list)


class HandLog:
    """Collects the events of the hand being replayed; `close` turns them into its history."""

    def __init__(self, started: HandStarted) -> None:
        self._seats = started.seats
        self._announcement: Announcement | None = None
        self._trading_closed = ""
        self._rounds: dict[int, _RoundLog] = {}
        self._round = 0
        self._bets: Counter[int] = Counter()
        self._result: HandResult | None = None

    def _current(self, number: int) -> _RoundLog:
        self._round = number
        return self._rounds.setdefault(number, _RoundLog())

    def take(self, event: object) -> None:
        """Record one event the session emitted (any kind; those that say nothing are skipped)."""
        if isinstance(event, Announced):
            self._announcement = event.announcement
        elif isinstance(event, TradingClosed):
            self._trading_closed = event.reason
        elif isinstance(event, CardRevealed):
            self._current(event.betting_round).turned.append((event.seat, event.card))
        elif isinstance(event, BettingOpened):
            self._current(event.betting_round).opener = event.opener
        elif isinstance(event, BettingSkipped):
            self._current(event.betting_round)
        elif isinstance(event, TimedOut):
            self._bet(event.outcome, timed_out=True)
        elif isinstance(event, HandEnded | HandAborted):
            self._result = event.result
        else:
            self._bet(event, timed_out=False)

    def _bet(self, event: RulesEvent | object, *, timed_out: bool) -> None:
        action: BetAction | None = None
        if isinstance(event, Checked):
            action = BetAction(event.seat, "check", 0, 0, timed_out)
        elif isinstance(event, Folded):
            action = BetAction(event.seat, "fold", 0, 0, timed_out)
        elif isinstance(event, BetPlaced):
            action = BetAction(event.seat, "bet", event.amount, event.amount, timed_out)
        elif isinstance(event, Called):
            kind = "all-in" if event.all_in else "call"
            action = BetAction(event.seat, kind, event.amount, 0, timed_out)
        elif isinstance(event, Raised):
            action = BetAction(event.seat, "raise", event.amount, event.to, timed_out)
        elif isinstance(event, WentAllIn):
            action = BetAction(event.seat, "all-in", event.amount, event.to, timed_out)
        if action is None or not self._round:
            return
        self._bets[action.seat] += action.chips
        self._rounds[self._round].actions.append(action)

    def close(self, summary: HandSummary) -> HandHistory:
        """The hand's history, once the session has closed it with `summary`."""
        rounds = tuple(
            BettingRound(n, tuple(r.turned), r.opener, tuple(r.actions))
            for n, r in sorted(self._rounds.items())
        )
        bets = tuple((s, self._bets[s]) for s in self._seats)
        pots, returned = _pots(self._result, dict(bets)) if not summary.aborted else ((), ())
        result = self._result
        stacks: tuple[tuple[int, int], ...] = ()
        if result is not None:
            stacks = tuple(zip(result.seats, result.final_stacks, strict=True))
        return HandHistory(
            summary=summary,
            announcement=self._announcement,
            trading_closed=self._trading_closed,
            rounds=rounds,
            showdown=_showdown(summary),
            pots=pots,
            returned=returned,
            stacks=stacks,
            bets=bets,
        )


def with_summary(history: HandHistory, summary: HandSummary) -> HandHistory:
    """The same history with the session's later summary of the hand (its signatures)."""
    return replace(history, summary=summary)


def _showdown(summary: HandSummary) -> tuple[ShowdownHand, ...]:
    if summary.aborted:
        return ()
    live = [s for s in summary.seats if s not in summary.folded]
    if len(live) < 2:
        return ()
    shown = dict(summary.shown)
    hands = []
    for seat in live:
        cards = shown.get(seat, ())
        if 5 <= len(cards) <= 7:
            value = best_hand(cards).text
        elif cards:
            value = f"showing {showing_value(cards).text}"
        else:
            value = "no card turned"
        hands.append(ShowdownHand(seat, cards, value))
    return tuple(hands)


def _pots(
    result: HandResult | None, bets: dict[int, int]
) -> tuple[tuple[PotResult, ...], tuple[tuple[int, int], ...]]:
    """The pots as won, and the uncalled bet returned, if any.

    The rules put every chip in a pot (SPEC 3.8); a bet nobody matched sits alone in the top
    pot, whose only contender is the bettor. That part (the bettor's bet above everyone
    else's) is shown as returned, not as a pot won.
    """
    if result is None:
        return (), ()
    pots = [PotResult(a.pot.amount, a.pot.eligible, a.winners, a.shares) for a in result.awards]
    returned: tuple[tuple[int, int], ...] = ()
    if pots and len(pots[-1].contested) == 1:
        top = pots[-1]
        bettor = top.contested[0]
        others = max((chips for seat, chips in bets.items() if seat != bettor), default=0)
        back = min(top.amount, max(0, bets.get(bettor, 0) - others))
        if back:
            returned = ((bettor, back),)
            rest = top.amount - back
            pots[-1] = replace(top, amount=rest, shares=(rest,))
            if not rest:
                pots.pop()
    return tuple(pots), returned


__all__ = [
    "BetAction",
    "BettingRound",
    "HandHistory",
    "HandLog",
    "PotResult",
    "ShowdownHand",
    "with_summary",
]
