"""The protocol schedule of a game: which steps are due now, from whom, and why a step is not
(SPEC 7.3, 7.4, 7.5). Pure; no I/O.

One table, `STEPS`, declares every step a seat can owe: the entry kind that carries it, whether
the seat's session sends it by itself or its player decides it, what the dealer's clock does when
it is owed too long, who owes it in a given state (`owed`) and why a seat may not send it now
(`refusal`). `dues` lists what is owed; the entry checks ask `refusal` before they accept a step,
a player's session sends the automatic steps `dues` names for its seat, the dealer's clock times
out, folds for stalling or aborts on what it names, and `Session.waiting_for` shows it.
"""

# ruff: noqa: E501 - the schedule below is one row per line, wider than the code around it

# Adding a protocol step
# ----------------------
# One row in STEPS (its Step member, entry kind, maker, stall, when, owed and refusal); its entry
# kind in ledger/kinds.py; its check in checks.py; and, if the session makes it, its maker in
# steps.py. A test (tests/test_schedule.py) plays random hands and holds every view to it.

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from p2pwillow.ledger.chain import Ledger
from p2pwillow.rules import CardOp, Game, IllegalAction, OpDue, Phase
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
    DEAL_STREET = "deal_street"
    """A live-deck game's first deal step: every key holder's shares (SPEC 5.12)."""
    STREET = "street"
    """A later deal step of the live deck: a card could be seen already (SPEC 3.15)."""
    SHOW = "show"
    """A live-deck game's show at the showdown (SPEC 5.16)."""
    OPEN = "declare_open"
    """A split-pot game's declaration opened, once every player still in has sealed (3.16)."""
    ANNOUNCE = "announce"
    DECISION = "decision"
    """A trading or betting decision the rules wait for (SPEC 3.3); it has a default (3.9)."""
    ABORT = "abort"
    """The abort the hand's new sequencer owes after a sequencer change before the deal."""
    HAND_END = "hand_end"
    HEAD_SIGNATURE = "head_signature"
    ADMIT = "admit"
    """Between hands, while a newcomer's admission is open, each seated player's answer: its
    `admit` once its player has compared the new safety code (or a `refuse`; SPEC 6.6)."""
    HAND_START = "hand_start"
    """Between hands, the next dealer's `hand_start` (SPEC 7.3)."""
    GAME_SIGNATURE = "game_signature"
    """After the `game_end`, each seated player's `head_signature` of it (SPEC 7.3)."""


class Maker(enum.Enum):
    """Who makes a step."""

    SESSION = "session"
    """The seat's session, by itself, as soon as it is due (SPEC 7.3)."""
    PLAYER = "player"
    """The player: a decision (announce, trading, the trade's cards, the layout, betting)."""


class When(enum.Enum):
    """The part of the game a step belongs to."""

    SEATING = "seating"
    """Before the first hand (SPEC 6.6); there is no hand record yet."""
    HAND = "hand"
    """While a hand runs."""
    ENDED = "ended"
    """Once the hand has ended (`hand_end` or `abort`), until its players have signed."""
    BETWEEN = "between"
    """Between hands: the last hand is signed by every player (or they were excused)."""
    GAME_END = "game end"
    """After the `game_end`: its signatures."""


class Stall(enum.Enum):
    """What the hand's sequencer does to a seat that owes a step for a whole action clock, on
    the votes of a quorum (SPEC 7.5). A step the sequencer owes itself has no remedy here: the
    sequencer is replaced (a `sequencer_change`)."""

    TIMEOUT = "timeout"
    """The rules' default action for the seat (SPEC 3.9), by a `timeout` entry."""
    FOLD = "fold"
    """A protocol step owed after the deal: the seat is folded for stalling (SPEC 3.9), by a
    `timeout` entry."""
    ABORT = "abort"
    """A protocol step owed before the deal is complete: the hand is void, blaming the seats
    that owe such steps (SPEC 3.10), by an `abort` entry."""
    SIT_OUT = "sit out"
    """Outside the running hand (a head signature, the next hand's start): the step counts as
    given, or is passed to the next seat, and the seat sits out (SPEC 3.11), by a `timeout`."""
    NONE = "none"
    """Nothing: seating, and the sequencer's own steps (hand end, the abort after a change)."""
    UNTIMED = "untimed"
    """Nothing, and nobody is accused for it: a newcomer's admission, where people compare
    the safety code aloud, takes the time it takes (SPEC 7.5); 8.9 bounds it instead."""


@dataclass(frozen=True, slots=True)
class Due:
    """Seat `seat` owes `step` now."""

    seat: int
    step: Step
    index: int = 0
    """The trade a hand shuffle follows, the layout card a reveal turns, or the live deck's
    deal step that shares are owed for; 0 otherwise."""
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
    when: When
    owed: Callable[[Ledger, Any], Iterable[Due]]
    """Who owes the step now, in table order, from the chain and what its part of the game
    needs: nothing before the first hand (`SEATING`), the hand's record while it runs and until
    it is signed (`HAND`, `ENDED`), the rules' `Game` between hands (`BETWEEN`)."""
    refusal: Callable[[HandRecord, int, int], str | None]
    """Why `seat` may not send the step (with `index`) now, or None. The rules' own reasons,
    for steps that are rules actions, come on top of this one."""


# --- who owes each step ------------------------------------------------------------------------


def _owe_seat(ledger: Ledger, r: None) -> Iterable[Due]:
    genesis = ledger.genesis
    assert genesis is not None
    held = ledger.identities
    return [
        Due(p.seat, Step.SEAT)
        for p in genesis.players
        if p.seat not in ledger.seated and p.seat in held  # a player that left owes nothing
    ]


def _owe_hand_key(ledger: Ledger, r: HandRecord) -> Iterable[Due]:
    return [Due(s, Step.HAND_KEY) for s in r.order if s not in r.keys]


def _owe_deck_shuffle(ledger: Ledger, r: HandRecord) -> Iterable[Due]:
    if r.joint is not None and r.shuffled < len(r.order):
        return [Due(r.order[r.shuffled], Step.DECK_SHUFFLE)]
    return ()


def _ops(r: HandRecord, op: CardOp) -> list[OpDue]:
    """The card operations `op` the hand's step owes now (SPEC 3.13)."""
    return [due for due in r.rules.ops() if due.op is op]


def _owe_deal_shares(ledger: Ledger, r: HandRecord) -> Iterable[Due]:
    if r.plan is None or r.shuffled < len(r.order):
        return ()
    return [
        Due(d.seat, Step.DEAL_SHARES) for d in _ops(r, CardOp.DEAL_DOWN) if d.seat not in r.shares
    ]


def _owe_hand_shuffle(ledger: Ledger, r: HandRecord) -> Iterable[Due]:
    return [Due(s, Step.HAND_SHUFFLE, r.owed_shuffles[s]) for s in sorted(r.owed_shuffles)]


def _owe_trade_give(ledger: Ledger, r: HandRecord) -> Iterable[Due]:
    t = r.trade
    if t is None:
        return ()
    return [Due(d.seat, Step.TRADE_GIVE) for d in _ops(r, CardOp.GIVE) if d.seat not in t.gives]


def _owe_layout(ledger: Ledger, r: HandRecord) -> Iterable[Due]:
    return [
        Due(d.seat, Step.LAYOUT, ready=d.seat not in r.owed_shuffles)
        for d in _ops(r, CardOp.LAYOUT)
    ]


def _owe_reveal(ledger: Ledger, r: HandRecord) -> Iterable[Due]:
    return [Due(d.seat, Step.REVEAL, d.index) for d in _ops(r, CardOp.REVEAL)]


def _owe_street(step: Step, phase: Phase) -> Callable[[Ledger, HandRecord], Iterable[Due]]:
    def owed(ledger: Ledger, r: HandRecord) -> Iterable[Due]:
        deck = r.live
        if deck is None or deck.dealing is None or r.rules.phase is not phase:
            return ()
        dealing = deck.dealing
        # the step's number is the due's index: a seat owes shares once per deal step
        return [
            Due(x, step, dealing.number)
            for x in deck.holders
            if x not in r.street and dealing.shared_positions(x)
        ]

    return owed


def _owe_show(ledger: Ledger, r: HandRecord) -> Iterable[Due]:
    return [Due(d.seat, Step.SHOW) for d in _ops(r, CardOp.SHOW)]


def _owe_open(ledger: Ledger, r: HandRecord) -> Iterable[Due]:
    return [Due(d.seat, Step.OPEN) for d in _ops(r, CardOp.OPEN)]


def _owe_announce(ledger: Ledger, r: HandRecord) -> Iterable[Due]:
    return [Due(r.dealer, Step.ANNOUNCE)] if r.rules.phase is Phase.ANNOUNCE else ()


def _owe_decision(ledger: Ledger, r: HandRecord) -> Iterable[Due]:
    hand = r.rules
    # a pass street's choices come between its cards, in the STREET phase (SPEC 3.19)
    decides = (Phase.TRADING, Phase.BETTING, Phase.STREET, Phase.DRAW, Phase.DECLARE)
    if hand.phase not in decides or blocked(r, give=False) is not None:
        return ()
    return [Due(s, Step.DECISION) for s in hand.to_act()]


def _owe_abort(ledger: Ledger, r: HandRecord) -> Iterable[Due]:
    # SPEC 7.5: after a sequencer change before the deal, the hand is void
    pre_deal = r.rules.phase in (Phase.ANNOUNCE, Phase.DEAL)
    return [Due(r.sequencer, Step.ABORT)] if r.replaced and pre_deal else ()


def _owe_hand_end(ledger: Ledger, r: HandRecord) -> Iterable[Due]:
    return [Due(r.sequencer, Step.HAND_END)] if r.rules.phase is Phase.COMPLETE else ()


def _owe_head_signature(ledger: Ledger, r: HandRecord) -> Iterable[Due]:
    return [Due(s, Step.HEAD_SIGNATURE) for s in r.order if s not in r.signed | r.excused]


@dataclass(slots=True)
class GameEnded:
    """The game's end (SPEC 7.3): who wrote it, who signs it, who has, who was excused (SPEC
    7.5)."""

    signers: tuple[int, ...]
    author: int | None = None
    """The seat that wrote the `game_end`."""
    signed: set[int] = field(default_factory=set)
    excused: set[int] = field(default_factory=set)

    @property
    def closed(self) -> bool:
        return self.signed | self.excused >= set(self.signers)


def _owe_game_signature(ledger: Ledger, ended: GameEnded) -> Iterable[Due]:
    done = ended.signed | ended.excused
    return [Due(s, Step.GAME_SIGNATURE) for s in ended.signers if s not in done]


def _owe_admit(ledger: Ledger, game: Game) -> Iterable[Due]:
    admission = ledger.admission
    if admission is None:
        return ()
    return [Due(s, Step.ADMIT) for s in admission.waiting(ledger.identities)]


def _owe_hand_start(ledger: Ledger, game: Game) -> Iterable[Due]:
    if ledger.admission is not None:
        return ()  # no hand starts while a newcomer's admission is open (SPEC 6.6)
    try:
        dealer = game.next_button()
    except IllegalAction:
        return ()  # fewer than two can play: no hand is owed
    return [Due(dealer, Step.HAND_START)]


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
            f"the trade is agreed: trade {t.trade} of seats {t.offerer} and "
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
    due = _ops(r, CardOp.REVEAL)
    if not due:
        return f"no card is turned in the {hand.phase.value} phase"
    if card != due[0].index:
        return f"round {hand.betting_round} turns layout card {due[0].index}"
    if seat not in r.layouts:
        return f"seat {seat} has no layout"
    return None


def _street(r: HandRecord, seat: int, index: int) -> str | None:
    deck = r.live
    if deck is None or deck.dealing is None:
        return "no deal step of the live deck is open"
    if seat not in deck.holders:
        return f"seat {seat} holds no key of the deck"
    if index != deck.dealing.number:
        return f"deal step {deck.dealing.number} is open, not {index}"
    if seat in r.street:
        return f"seat {seat} has already published its shares of deal step {deck.dealing.number}"
    if not deck.dealing.shared_positions(seat):
        return f"seat {seat} owes no shares in deal step {deck.dealing.number}"
    return None


def _show(r: HandRecord, seat: int, index: int) -> str | None:
    if not any(d.seat == seat for d in _ops(r, CardOp.SHOW)):
        return f"seat {seat} owes no show in the {r.rules.phase.value} phase"
    return None


def _open(r: HandRecord, seat: int, index: int) -> str | None:
    hand = r.rules
    if hand.phase is Phase.DECLARE and hand.to_act():
        waiting = ", ".join(map(str, hand.to_act()))
        return f"declarations open once every one is sealed (seat(s) {waiting} still to seal)"
    if not any(d.seat == seat for d in _ops(r, CardOp.OPEN)):
        return f"seat {seat} owes no declaration's opening in the {r.rules.phase.value} phase"
    return None


def _decision(r: HandRecord, seat: int, index: int) -> str | None:
    return blocked(r, give=False)


def _abort(r: HandRecord, seat: int, index: int) -> str | None:
    if seat != r.sequencer:
        return "the hand's sequencer aborts it"
    return None


def _hand_end(r: HandRecord, seat: int, index: int) -> str | None:
    hand = r.rules
    if seat != r.sequencer:
        return "the hand's sequencer (its dealer, unless replaced) ends the hand"
    if hand.phase is not Phase.COMPLETE or hand.result is None:
        return f"the hand is not over ({hand.phase.value})"
    return None


def _game_signature(r: HandRecord, seat: int, index: int) -> str | None:
    return None  # checked against the game's end, which the hand record does not hold


def _head_signature(r: HandRecord, seat: int, index: int) -> str | None:
    if seat in r.excused:
        return f"seat {seat} was timed out for its head signature"
    return None if r.ended else "no ended hand to sign"


# --- the schedule ------------------------------------------------------------------------------

SESSION, PLAYER = Maker.SESSION, Maker.PLAYER
SEATING, HAND, ENDED, BETWEEN, GAME_END = (
    When.SEATING,
    When.HAND,
    When.ENDED,
    When.BETWEEN,
    When.GAME_END,
)

# fmt: off
STEPS: tuple[Rule, ...] = (
    #    step                 entry             maker    stall          when     owed                 refusal
    Rule(Step.SEAT,           "seat",           SESSION, Stall.NONE,    SEATING, _owe_seat,           _never),
    Rule(Step.HAND_KEY,       "hand_key",       SESSION, Stall.ABORT,   HAND,    _owe_hand_key,       _hand_key),
    Rule(Step.DECK_SHUFFLE,   "deck_shuffle",   SESSION, Stall.ABORT,   HAND,    _owe_deck_shuffle,   _deck_shuffle),
    Rule(Step.DEAL_SHARES,    "deal_shares",    SESSION, Stall.ABORT,   HAND,    _owe_deal_shares,    _deal_shares),
    Rule(Step.HAND_SHUFFLE,   "hand_shuffle",   SESSION, Stall.FOLD,    HAND,    _owe_hand_shuffle,   _hand_shuffle),
    Rule(Step.TRADE_GIVE,     "trade_give",     PLAYER,  Stall.FOLD,    HAND,    _owe_trade_give,     _trade_give),
    Rule(Step.LAYOUT,         "hand_shuffle",   PLAYER,  Stall.FOLD,    HAND,    _owe_layout,         _layout),
    Rule(Step.REVEAL,         "reveal",         SESSION, Stall.FOLD,    HAND,    _owe_reveal,         _reveal),
    Rule(Step.DEAL_STREET,    "street_shares",  SESSION, Stall.ABORT,   HAND,    _owe_street(Step.DEAL_STREET, Phase.DEAL), _street),
    Rule(Step.STREET,         "street_shares",  SESSION, Stall.FOLD,    HAND,    _owe_street(Step.STREET, Phase.STREET), _street),
    Rule(Step.SHOW,           "show",           SESSION, Stall.FOLD,    HAND,    _owe_show,           _show),
    Rule(Step.OPEN,           "declare_open",   SESSION, Stall.FOLD,    HAND,    _owe_open,           _open),
    Rule(Step.ANNOUNCE,       "announce_game",  PLAYER,  Stall.ABORT,   HAND,    _owe_announce,       _never),
    Rule(Step.DECISION,       None,             PLAYER,  Stall.TIMEOUT, HAND,    _owe_decision,       _decision),
    Rule(Step.ABORT,          "abort",          SESSION, Stall.NONE,    HAND,    _owe_abort,          _abort),
    Rule(Step.HAND_END,       "hand_end",       SESSION, Stall.NONE,    HAND,    _owe_hand_end,       _hand_end),
    Rule(Step.HEAD_SIGNATURE, "head_signature", SESSION, Stall.SIT_OUT, ENDED,   _owe_head_signature, _head_signature),
    Rule(Step.ADMIT,          "admit",          PLAYER,  Stall.UNTIMED, BETWEEN, _owe_admit,          _never),
    Rule(Step.HAND_START,     "hand_start",     PLAYER,  Stall.SIT_OUT, BETWEEN, _owe_hand_start,     _never),
    Rule(Step.GAME_SIGNATURE, "head_signature", SESSION, Stall.SIT_OUT, GAME_END, _owe_game_signature, _game_signature),
)
# fmt: on

RULE: Mapping[Step, Rule] = MappingProxyType({rule.step: rule for rule in STEPS})
"""The row of each step."""
_ROWS: Mapping[tuple[When, Maker | None], tuple[Rule, ...]] = MappingProxyType(
    {
        (when, maker): tuple(
            r for r in STEPS if r.when is when and (maker is None or r.maker is maker)
        )
        for when in When
        for maker in (*Maker, None)
    }
)
"""The rows of each part of the game, all of them or those one maker makes, in table order."""


def when(ledger: Ledger, r: HandRecord | None) -> When:
    """The part of the game it is now."""
    if ledger.game_ended:
        return When.GAME_END
    if ledger.hand == 0 or r is None:
        seated = ledger.genesis is not None and ledger.seated >= set(ledger.identities)
        return When.BETWEEN if seated else When.SEATING
    if not r.ended:
        return When.HAND
    return When.BETWEEN if r.closed else When.ENDED


def dues(
    ledger: Ledger,
    r: HandRecord | None,
    maker: Maker | None = None,
    game: Game | None = None,
    ended: GameEnded | None = None,
) -> tuple[Due, ...]:
    """Every step owed now (only those `maker` makes, if given), in the order of `STEPS`, each
    in table order (SPEC 7.4): before the first hand the seat acceptances, while a hand runs its
    steps, once it has ended the head signatures still missing (SPEC 6.6), between hands the
    next hand's start (if `game`, the rules' game, is given), after the game's end its missing
    signatures (if `ended` is given)."""
    now = when(ledger, r)
    context: object = r
    if now is When.BETWEEN:
        context = game
    elif now is When.GAME_END:
        context = ended
    if context is None and now in (When.BETWEEN, When.GAME_END):
        return ()
    return tuple(due for rule in _ROWS[now, maker] for due in rule.owed(ledger, context))


def refusal(r: HandRecord, step: Step, seat: int, index: int = 0) -> str | None:
    """Why `seat` may not send `step` (with `index`) now, or None (SPEC 7.3)."""
    return RULE[step].refusal(r, seat, index)


def stalled(ledger: Ledger, r: HandRecord, stall: Stall = Stall.ABORT) -> list[Due]:
    """The steps owed now on which the clock acts by `stall` (SPEC 7.5): those that abort the
    hand if nobody sends them, by default."""
    return [d for d in dues(ledger, r) if RULE[d.step].stall is stall]


def waits(ledger: Ledger, r: HandRecord | None) -> list[Due]:
    """What the running hand waits for (SPEC 7.4): every step owed that keeps it from ending
    but the sequencer's own, none once it has ended."""
    if when(ledger, r) is not When.HAND:
        return []
    return [d for d in dues(ledger, r) if RULE[d.step].stall is not Stall.NONE]


__all__ = [
    "RULE",
    "STEPS",
    "Due",
    "GameEnded",
    "Maker",
    "Rule",
    "Stall",
    "Step",
    "When",
    "blocked",
    "dues",
    "refusal",
    "stalled",
    "waits",
    "when",
]
