"""The protocol schedule of a game: which steps are due now, from whom, and why a step is not
(SPEC 7.3, 7.4, 7.5). Pure; no I/O.

One table, `STEPS`, declares every step a seat can owe: the entry kind that carries it, whether
the seat's session sends it by itself or its player decides it, what the dealer's clock does when
it is owed too long, who owes it in a given state (`owed`) and why a seat may not send it now
(`refusal`). `dues` lists what is owed; the entry checks ask `refusal` before they accept a step,
a player's session sends the automatic steps `dues` names for its seat, the dealer's clock times
out or aborts on what it names, and `Session.waiting_for` shows it.
"""

# ruff: noqa: E501 - the schedule below is one row per line, wider than the code around it

# Adding a protocol step
# ----------------------
# One row in STEPS (its Step member, entry kind, maker, stall, owed and refusal); its entry
# kind in ledger/kinds.py; its check in checks.py; and, if the session makes it, its maker in
# steps.py. A test (tests/test_schedule.py) plays random hands and holds every view to it.

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from p2pwillow.ledger.chain import Ledger
from p2pwillow.rules import Phase
from p2pwillow.session.record import HandRecord


class Step(enum.StrEnum):
    """A step a seat owes, by the word the hand's "waiting for" list names it with (SPEC 7.4)."""

    SEAT = "seat"
    HAND_KEY = "hand_key"
    DECK_SHUFFLE = "deck_shuffle"
    DEAL_SHARES = "deal_shares"
    HAND_SHUFFLE = "hand_shuffle"
    TRADE_GIVE = "trade_give"
    LAYOUT = "layout"
    REVEAL = "reveal"
    ANNOUNCE = "announce"
    DECISION = "decision"
    """A trading or betting decision the rules wait for (SPEC 3.3); it has a default (3.9)."""
    HAND_END = "hand_end"
    HEAD_SIGNATURE = "head_signature"


class Maker(enum.Enum):
    """Who makes a step."""

    SESSION = "session"
    """The seat's session, by itself, as soon as it is due (SPEC 7.3)."""
    PLAYER = "player"
    """The player: a decision (announce, trading, the trade's cards, the layout, betting)."""


class Stall(enum.Enum):
    """What the dealer's clock does when a step is owed for a whole action clock (SPEC 7.5)."""

    TIMEOUT = "timeout"
    """The rules' default action for the seat (SPEC 3.9)."""
    ABORT = "abort"
    """The hand is void, blaming the seats that owe such steps (SPEC 3.10)."""
    NONE = "none"
    """Nothing: the step is outside the running hand (seating, its end and signatures)."""


@dataclass(frozen=True, slots=True)
class Due:
    """Seat `seat` owes `step` now."""

    seat: int
    step: Step
    index: int = 0
    """The trade a hand shuffle follows, or the layout card a reveal turns; 0 otherwise."""
    ready: bool = True
    """False while the seat owes another step first (a layout waits for the hand shuffle that
    follows a trade)."""


@dataclass(frozen=True, slots=True)
class Rule:
    """One row of the schedule."""

    step: Step
    entry: str | None
    """The entry kind that carries the step (SPEC 6.10); None for a decision, which the entry
    kinds of the action table carry (rules/actions.py)."""
    maker: Maker
    stall: Stall
    owed: Callable[[Ledger, HandRecord | None], Iterator[Due]]
    """Who owes the step now, in table order, from the chain and the current hand's record."""
    refusal: Callable[[HandRecord, int, int], str | None]
    """Why `seat` may not send the step (with `index`) now, or None. The rules' own reasons,
    for steps that are rules actions, come on top of this one."""


# --- who owes each step ------------------------------------------------------------------------

Owed = Callable[[Ledger, HandRecord | None], Iterator[Due]]
InHand = Callable[[HandRecord], Iterator[Due]]


def _in_hand(owed: InHand) -> Owed:
    """A step of the running hand: owed by nobody before the first hand or once it has ended."""

    def owed_in_hand(ledger: Ledger, r: HandRecord | None) -> Iterator[Due]:
        if r is not None and not r.ended:
            yield from owed(r)

    return owed_in_hand


def _owe_seat(ledger: Ledger, r: HandRecord | None) -> Iterator[Due]:
    genesis = ledger.genesis
    if ledger.hand == 0 and genesis is not None:
        yield from (Due(p.seat, Step.SEAT) for p in genesis.players if p.seat not in ledger.seated)


@_in_hand
def _owe_hand_key(r: HandRecord) -> Iterator[Due]:
    return (Due(s, Step.HAND_KEY) for s in r.order if s not in r.keys)


@_in_hand
def _owe_deck_shuffle(r: HandRecord) -> Iterator[Due]:
    if r.joint is not None and r.shuffled < len(r.order):
        yield Due(r.order[r.shuffled], Step.DECK_SHUFFLE)


@_in_hand
def _owe_deal_shares(r: HandRecord) -> Iterator[Due]:
    if r.plan is not None and r.shuffled == len(r.order):
        yield from (Due(s, Step.DEAL_SHARES) for s in r.order if s not in r.shares)


@_in_hand
def _owe_hand_shuffle(r: HandRecord) -> Iterator[Due]:
    return (Due(s, Step.HAND_SHUFFLE, r.owed_shuffles[s]) for s in sorted(r.owed_shuffles))


@_in_hand
def _owe_trade_give(r: HandRecord) -> Iterator[Due]:
    t = r.trade
    if t is not None:
        yield from (Due(s, Step.TRADE_GIVE) for s in (t.offerer, t.acceptor) if s not in t.gives)


@_in_hand
def _owe_layout(r: HandRecord) -> Iterator[Due]:
    hand = r.rules
    if hand.phase is Phase.LAYOUT:
        yield from (Due(s, Step.LAYOUT, ready=s not in r.owed_shuffles) for s in hand.to_act())


@_in_hand
def _owe_reveal(r: HandRecord) -> Iterator[Due]:
    hand = r.rules
    if hand.phase is Phase.REVEAL:
        yield from (Due(s, Step.REVEAL, hand.betting_round - 1) for s in hand.to_act())


@_in_hand
def _owe_announce(r: HandRecord) -> Iterator[Due]:
    if r.rules.phase is Phase.ANNOUNCE:
        yield Due(r.dealer, Step.ANNOUNCE)


@_in_hand
def _owe_decision(r: HandRecord) -> Iterator[Due]:
    hand = r.rules
    if hand.phase in (Phase.TRADING, Phase.BETTING) and blocked(r, give=False) is None:
        yield from (Due(s, Step.DECISION) for s in hand.to_act())


@_in_hand
def _owe_hand_end(r: HandRecord) -> Iterator[Due]:
    if r.rules.phase is Phase.COMPLETE:
        yield Due(r.dealer, Step.HAND_END)


def _owe_head_signature(ledger: Ledger, r: HandRecord | None) -> Iterator[Due]:
    if r is not None and r.ended:
        yield from (Due(s, Step.HEAD_SIGNATURE) for s in r.order if s not in r.signed)


# --- why a seat may not send a step now --------------------------------------------------------


def blocked(r: HandRecord, *, give: bool) -> str | None:
    """Why a trading entry must wait for the protocol (SPEC 7.3): a hand shuffle is owed, or an
    accepted trade is being completed (then only its gives, `give`, are due)."""
    if r.owed_shuffles:
        seats = ", ".join(map(str, sorted(r.owed_shuffles)))
        return f"waiting for the hand shuffle of seat(s) {seats}"
    t = r.trade
    if t is not None and not give:
        return (
            f"the offer was accepted: trade {t.trade} of seats {t.offerer} and "
            f"{t.acceptor} is being completed, only its gives are due"
        )
    return None


def _never(r: HandRecord, seat: int, index: int) -> str | None:
    return None


def _hand_key(r: HandRecord, seat: int, index: int) -> str | None:
    if seat in r.keys:
        return f"seat {seat} has already published its hand key"
    return None


def _deck_shuffle(r: HandRecord, seat: int, index: int) -> str | None:
    if r.joint is None:
        return "the deck is shuffled once every hand key is in"
    if r.shuffled >= len(r.order):
        return "the deck has been shuffled by everyone"
    if r.order[r.shuffled] != seat:
        return f"seat {r.order[r.shuffled]} shuffles the deck next"
    return None


def _deal_shares(r: HandRecord, seat: int, index: int) -> str | None:
    if r.plan is None or r.shuffled < len(r.order):
        return "deal shares follow the announcement and the whole shuffle"
    if seat in r.shares:
        return f"seat {seat} has already published its deal shares"
    return None


def _hand_shuffle(r: HandRecord, seat: int, trade: int) -> str | None:
    if r.owed_shuffles.get(seat) != trade:
        return f"seat {seat} owes no hand shuffle after trade {trade}"
    return None


def _trade_give(r: HandRecord, seat: int, index: int) -> str | None:
    why = blocked(r, give=True)
    if why is not None:
        return why
    t = r.trade
    if t is None:
        return "no trade has been agreed"
    if seat not in (t.offerer, t.acceptor):
        return f"seat {seat} is not a side of trade {t.trade}"
    if seat in t.gives:
        return f"seat {seat} has already given its cards"
    return None


def _layout(r: HandRecord, seat: int, index: int) -> str | None:
    if seat in r.owed_shuffles:
        return f"seat {seat} owes its hand shuffle first"
    return None


def _reveal(r: HandRecord, seat: int, card: int) -> str | None:
    hand = r.rules
    if hand.phase is not Phase.REVEAL:
        return f"no card is turned in the {hand.phase.value} phase"
    if card != hand.betting_round - 1:
        return f"round {hand.betting_round} turns layout card {hand.betting_round - 1}"
    if seat not in r.layouts:
        return f"seat {seat} has no layout"
    return None


def _decision(r: HandRecord, seat: int, index: int) -> str | None:
    return blocked(r, give=False)


def _hand_end(r: HandRecord, seat: int, index: int) -> str | None:
    hand = r.rules
    if seat != r.dealer:
        return "the dealer ends the hand"
    if hand.phase is not Phase.COMPLETE or hand.result is None:
        return f"the hand is not over ({hand.phase.value})"
    return None


def _head_signature(r: HandRecord, seat: int, index: int) -> str | None:
    return None if r.ended else "no ended hand to sign"


# --- the schedule ------------------------------------------------------------------------------

SESSION, PLAYER = Maker.SESSION, Maker.PLAYER

# fmt: off
STEPS: tuple[Rule, ...] = (
    #    step                 entry             maker    stall          owed                 refusal
    Rule(Step.SEAT,           "seat",           SESSION, Stall.NONE,    _owe_seat,           _never),
    Rule(Step.HAND_KEY,       "hand_key",       SESSION, Stall.ABORT,   _owe_hand_key,       _hand_key),
    Rule(Step.DECK_SHUFFLE,   "deck_shuffle",   SESSION, Stall.ABORT,   _owe_deck_shuffle,   _deck_shuffle),
    Rule(Step.DEAL_SHARES,    "deal_shares",    SESSION, Stall.ABORT,   _owe_deal_shares,    _deal_shares),
    Rule(Step.HAND_SHUFFLE,   "hand_shuffle",   SESSION, Stall.ABORT,   _owe_hand_shuffle,   _hand_shuffle),
    Rule(Step.TRADE_GIVE,     "trade_give",     PLAYER,  Stall.ABORT,   _owe_trade_give,     _trade_give),
    Rule(Step.LAYOUT,         "hand_shuffle",   PLAYER,  Stall.ABORT,   _owe_layout,         _layout),
    Rule(Step.REVEAL,         "reveal",         SESSION, Stall.ABORT,   _owe_reveal,         _reveal),
    Rule(Step.ANNOUNCE,       "announce",       PLAYER,  Stall.ABORT,   _owe_announce,       _never),
    Rule(Step.DECISION,       None,             PLAYER,  Stall.TIMEOUT, _owe_decision,       _decision),
    Rule(Step.HAND_END,       "hand_end",       SESSION, Stall.NONE,    _owe_hand_end,       _hand_end),
    Rule(Step.HEAD_SIGNATURE, "head_signature", SESSION, Stall.NONE,    _owe_head_signature, _head_signature),
)
# fmt: on

RULE: Mapping[Step, Rule] = MappingProxyType({rule.step: rule for rule in STEPS})
"""The row of each step."""


def dues(ledger: Ledger, r: HandRecord | None) -> tuple[Due, ...]:
    """Every step owed now, in the order of `STEPS`, each in table order (SPEC 7.4): before the
    first hand the seat acceptances, while a hand runs its steps, once it has ended the head
    signatures still missing (SPEC 6.6)."""
    return tuple(due for rule in STEPS for due in rule.owed(ledger, r))


def refusal(r: HandRecord, step: Step, seat: int, index: int = 0) -> str | None:
    """Why `seat` may not send `step` (with `index`) now, or None (SPEC 7.3)."""
    return RULE[step].refusal(r, seat, index)


def stalled(ledger: Ledger, r: HandRecord) -> list[Due]:
    """The steps owed now that abort the hand if nobody sends them (SPEC 7.5)."""
    return [d for d in dues(ledger, r) if RULE[d.step].stall is Stall.ABORT]


def waits(ledger: Ledger, r: HandRecord | None) -> list[Due]:
    """What the running hand waits for (SPEC 7.4): every step owed that keeps it from ending,
    none once it has ended."""
    if r is None or r.ended:
        return []
    return [d for d in dues(ledger, r) if RULE[d.step].stall is not Stall.NONE]


__all__ = [
    "RULE",
    "STEPS",
    "Due",
    "Maker",
    "Rule",
    "Stall",
    "Step",
    "blocked",
    "dues",
    "refusal",
    "stalled",
    "waits",
]
