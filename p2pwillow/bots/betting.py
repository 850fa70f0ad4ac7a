"""Betting for the normal and hard levels: pot odds against each opponent's range as the
opponent model reads it, bets sized to who calls, and bluffs where players fold (SPEC 9).

Pure; no I/O; its randomness comes only from the `random.Random` passed in. The equity it is
given is already measured against the ranges the model reads; here it meets the price.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from p2pwillow.bots.decision import Decision
from p2pwillow.bots.opponents import Read
from p2pwillow.rules import (
    ActionKind,
    BetOptions,
    BettingOpened,
    BettingStructure,
    Checked,
    Hand,
    Raised,
    Wager,
    WentAllIn,
)

__all__ = [
    "HARD",
    "NORMAL",
    "Style",
    "answer_bet",
    "choose_bet",
    "in_position",
    "most_allowed",
    "raises_this_round",
]


@dataclass(frozen=True, slots=True)
class Style:
    """The numbers one level bets by (SPEC 9, Betting at normal and hard)."""

    value_edge: float
    """Checked to, it bets for value at fair + edge * (1 - fair), edge being this ..."""
    fold_edge: float
    """... plus this times the opponents' mean fold rate: players who fold their weak hands
    call with good ones, so a bet needs more against them."""
    raise_edge: float
    """Added to the edge for a raise."""
    reraise_step: float
    """Added to the raise threshold per raise already made this round."""
    slowplay: float
    """Added to the bet and raise thresholds times the most aggressive opponent's aggression
    times the share of the rounds still to come: against a player who bets anyway, a strong
    hand waits for the last cards, when it knows most, to raise."""
    implied: float
    """Share of the chips the opponents are expected to bet in the rounds to come that a call
    may count on winning besides the pot (implied odds: it goes on when the cards still to
    show say it is ahead, and folds when they say it is behind)."""
    call_margin: float
    """Added to the price of a call."""
    bluff_rate: float
    """Chance of a bluff where one pays (see `_bluffs`)."""
    position_bluffs: bool
    """Bluff whenever the fold rates pay for it, `bluff_rate` of the time in position and
    `open_bluff_rate` of the time out of it (hard); else `bluff_rate` of the time from round 3
    on against at most two opponents, whatever they fold (normal)."""
    open_bluff_rate: float = 0.0
    value_size: float = 0.0
    """Added to the share of the way from the smallest to the largest amount that a value
    bet or raise goes."""
    paid_off: bool = False
    """Count the implied odds only as far as the opponents call bets (one minus their mean
    fold rate): a player who folds when it is behind pays nothing later (hard)."""


NORMAL = Style(
    value_edge=0.1,
    fold_edge=0.25,
    raise_edge=0.0,
    reraise_step=0.05,
    slowplay=0.2,
    implied=0.5,
    call_margin=0.0,
    bluff_rate=0.03,
    position_bluffs=False,
)
HARD = Style(
    value_edge=0.08,
    fold_edge=0.25,
    raise_edge=0.0,
    reraise_step=0.05,
    slowplay=0.2,
    implied=0.5,
    call_margin=0.0,
    bluff_rate=0.6,
    position_bluffs=True,
    open_bluff_rate=0.3,
    value_size=0.4,
    paid_off=True,
)

JITTER = 0.03
"""A little unpredictability around every threshold."""

RELENTLESS_AGGRESSION = 0.8
RELENTLESS_FOLDS = 0.2
"""An opponent that bets or raises in at least this share of its hands and folds in at most
this share of those in which it faces a bet is relentless: heads-up against it, the bot plans
the whole hand (`_plan`)."""

REVEAL_RESOLVES = {1: 0.064, 2: 0.10, 3: 0.22}
"""The share of what is still uncertain about the showdown that the reveal after betting
round r (1..3) settles, measured heads-up against a player whose bets say nothing (the
variance of the change in equity over p (1 - p)): little, because layouts show their core
last; the last card settles the rest."""

PLAN_GRID = 20
"""Points of the equity's spread at round 4 over which a plan is averaged."""


def raises_this_round(hand: Hand, seat: int | None = None) -> int:
    """Raises since the current betting round opened (by `seat` only, if given)."""
    raises = 0
    for event in reversed(hand.events):
        if isinstance(event, BettingOpened):
            break
        if (
            isinstance(event, Raised)
            or (isinstance(event, WentAllIn) and event.as_action is Wager.RAISE)
        ) and (seat is None or event.seat == seat):
            raises += 1
    return raises


def in_position(hand: Hand, seat: int) -> bool:
    """Checked to by every other player who can still bet this round: it acts last."""
    checked: set[int] = set()
    for event in reversed(hand.events):
        if isinstance(event, BettingOpened):
            break
        if isinstance(event, Checked):
            checked.add(event.seat)
    others = [
        s
        for s in hand.seats
        if s != seat and not hand.is_folded(s) and not hand.is_all_in(s) and hand.stack(s) > 0
    ]
    return all(s in checked for s in others)


def _smallest_bet(hand: Hand) -> int:
    cfg = hand.config
    if cfg.structure is BettingStructure.FIXED_LIMIT:
        return hand.fixed_bet(hand.betting_round)
    return cfg.min_bet


def _future(hand: Hand, opponents: list[int], reads: Mapping[int, Read], room: int) -> float:
    """Chips each player is expected to put in after this call, up to its `room` behind: the
    pace of the most aggressive opponent for every round still to come."""
    rounds = hand.rounds - hand.betting_round
    if rounds <= 0 or room <= 0:
        return 0.0
    smallest = _smallest_bet(hand)
    pace = max(reads[s].aggression * max(reads[s].bet_size, smallest) for s in opponents)
    return min(float(room), rounds * pace)


def choose_bet(
    hand: Hand,
    seat: int,
    e: float,
    reads: Mapping[int, Read],
    style: Style,
    rng: random.Random,
) -> Decision:
    """Bet, check, call, raise or fold with equity `e` against the opponents' read ranges."""
    o = hand.bet_options(seat)
    assert o is not None
    opponents = [s for s in hand.seats if s != seat and not hand.is_folded(s)]
    if len(opponents) == 1 and hand.betting_round < hand.rounds:
        read = reads[opponents[0]]
        if read.aggression >= RELENTLESS_AGGRESSION and read.fold_rate <= RELENTLESS_FOLDS:
            e_seen = min(1.0, max(0.0, e + rng.uniform(-JITTER, JITTER)))
            return _plan(hand, seat, opponents[0], o, e_seen, read)
    players = len(opponents) + 1
    fair = 1.0 / players
    pot = hand.pot
    folds = [reads[s].fold_rate for s in opponents]
    fold_mean = sum(folds) / len(folds)
    everyone_folds = math.prod(folds)
    jitter = rng.uniform(-JITTER, JITTER)
    edge = style.value_edge + style.fold_edge * fold_mean
    to_come = (hand.rounds - hand.betting_round) / (hand.rounds - 1)
    waits = style.slowplay * max(reads[s].aggression for s in opponents) * to_come
    bet_at = fair + edge * (1.0 - fair) + waits + jitter
    raise_at = fair + (edge + style.raise_edge) * (1.0 - fair) + waits + jitter
    if o.can_check:
        if e >= bet_at:
            if o.bet_min is not None and o.bet_max is not None:
                amount = _amount(hand, o.bet_min, o.bet_max, 0, e, bet_at, fold_mean, style, rng)
                return Decision(ActionKind.BET, amount=amount)
            # Its stack is below the smallest bet: all in only with a clearly best hand.
            if o.all_in_allowed and e >= raise_at + style.reraise_step:
                return Decision(ActionKind.ALL_IN)
            return Decision(ActionKind.CHECK)
        if o.bet_min is not None and _bluffs(hand, seat, o, e, everyone_folds, style, rng):
            return Decision(ActionKind.BET, amount=o.bet_min)
        return Decision(ActionKind.CHECK)
    behind = hand.stack(seat)
    call = o.call_amount
    # SPEC 3.7.1: pot odds against the chips this call puts in, the pot counting a share of
    # what the opponents are expected to bet later (implied odds).
    future = style.implied * _future(hand, opponents, reads, behind - call)
    if style.paid_off:
        future *= 1.0 - fold_mean
    price = call / (pot + call + future) + style.call_margin
    raises = raises_this_round(hand)
    raise_at = max(raise_at + style.reraise_step * raises, price + style.reraise_step)
    if raises_this_round(hand, seat) >= 2:
        raise_at = 2.0  # two raises of its own this round are its limit
    return answer_bet(
        hand,
        o,
        e,
        raise_at,
        price,
        lambda low, high: _amount(
            hand, low, high, hand.current_bet, e, raise_at, fold_mean, style, rng
        ),
    )


def answer_bet(
    hand: Hand,
    o: BetOptions,
    e: float,
    raise_at: float,
    price: float,
    size: Callable[[int, int], int],
) -> Decision:
    """Facing a bet: raise to `size(smallest, largest)` (or all in, where only that raises)
    with equity `e` at `raise_at`, call at `price`, fold below it."""
    if e >= raise_at:
        if o.raise_min is not None and o.raise_max is not None:
            return Decision(ActionKind.RAISE, amount=size(o.raise_min, o.raise_max))
        if o.all_in_allowed and o.all_in_to > hand.current_bet:
            return Decision(ActionKind.ALL_IN)
    if e >= price:
        return Decision(ActionKind.CALL)
    return Decision(ActionKind.FOLD)


def _bluffs(
    hand: Hand,
    seat: int,
    o: BetOptions,
    e: float,
    everyone_folds: float,
    style: Style,
    rng: random.Random,
) -> bool:
    """Whether to bet the smallest amount with a hand not worth a value bet.

    Hard: when the chance that everyone folds pays for the bet (it wins the pot that often
    and otherwise loses the bet less its equity in the pot), `bluff_rate` of the time in
    position and `open_bluff_rate` out of it. Normal: `bluff_rate` of the time from round 3
    on against at most two opponents.
    """
    if o.bet_min is None:
        return False
    if not style.position_bluffs:
        live = sum(1 for s in hand.seats if not hand.is_folded(s))
        return hand.betting_round >= 3 and live <= 3 and rng.random() < style.bluff_rate
    bet = o.bet_min
    gain = everyone_folds * hand.pot - (1.0 - everyone_folds) * bet * (1.0 - 2.0 * e)
    rate = style.bluff_rate if in_position(hand, seat) else style.open_bluff_rate
    return gain > 0.0 and rng.random() < rate


def _amount(
    hand: Hand,
    low: int,
    high: int,
    base: int,
    e: float,
    floor: float,
    fold_mean: float,
    style: Style,
    rng: random.Random,
) -> int:
    """An amount in low..high that grows with the equity above `floor` and with how often
    the opponents call (against players who do not fold, a big bet is simply paid).

    Pot and no limit cap the top at about the pot above `base`, so one hand does not stake
    the whole stack on a modest edge.
    """
    if hand.config.structure in (BettingStructure.POT_LIMIT, BettingStructure.NO_LIMIT):
        high = max(low, min(high, base + max(hand.pot, low)))
    edge = (e - floor) / max(1e-9, 1.0 - floor)
    frac = 0.2 + style.value_size + 0.5 * edge + 0.5 * (1.0 - fold_mean) + rng.uniform(-0.1, 0.1)
    return low + round((high - low) * min(1.0, max(0.0, frac)))


# --- heads-up against a relentless opponent ------------------------------------------------


def _round_cap(hand: Hand, room: int, betting_round: int) -> int:
    """The most one player can put in during betting round `betting_round` when every raise
    is answered by a raise (SPEC 3.7.4): the largest bet and the raise cap in spread and fixed
    limit, the whole `room` in pot and no limit."""
    cfg = hand.config
    if cfg.structure is BettingStructure.SPREAD_LIMIT:
        return min(room, cfg.max_bet * (1 + cfg.max_raises))
    if cfg.structure is BettingStructure.FIXED_LIMIT:
        return min(room, hand.fixed_bet(min(betting_round, hand.rounds)) * (1 + cfg.max_raises))
    return room


def _spread(p: float, settled: float) -> list[tuple[float, float]]:
    """The equity after reveals that settle the share `settled` of the uncertainty: a beta
    distribution with mean `p` and variance settled * p * (1 - p), on PLAN_GRID points."""
    p = min(0.99, max(0.01, p))
    n = 1.0 / max(1e-6, settled) - 1.0
    a, b = p * n, (1.0 - p) * n
    points = [(i + 0.5) / PLAN_GRID for i in range(PLAN_GRID)]
    # in logs, from the largest: with little left to settle (a game with more rounds than
    # REVEAL_RESOLVES names) the beta is so narrow that its weights underflow to zero
    logs = [(a - 1.0) * math.log(x) + (b - 1.0) * math.log(1.0 - x) for x in points]
    top = max(logs)
    weights = [math.exp(w - top) for w in logs]
    total = sum(weights)
    return [(x, w / total) for x, w in zip(points, weights, strict=True)]


def _plan(hand: Hand, seat: int, opponent: int, o: BetOptions, p: float, read: Read) -> Decision:
    """Heads-up against a player who bets every round and does not fold: a hand is one
    commitment, and the choice is between folding now, calling down, and building the pot.

    It will face the opponent's bet (its usual size) every round, and every raise is answered
    up to the round's cap. The reveals before the last say little (REVEAL_RESOLVES); the last
    settles the showdown, so in round 5 the winner puts the rest of its stack in and the loser
    folds. Each plan is valued by the chips it wins or loses from now (what is in the pot is
    sunk), at round 4 with the equity spread as those reveals spread it, choosing there again
    between folding, calling and building; the best plan's first action is taken.
    """
    pot = hand.pot
    behind = hand.stack(seat)
    their = hand.stack(opponent)
    call = o.call_amount
    r = hand.betting_round
    pace = min(
        float(behind),
        max(float(_smallest_bet(hand)), read.bet_size),
        float(_largest_bet(hand, pot)),
    )
    mine_in = hand.round_bet(seat)

    def last_rounds(q: float, pot4: float, mine: float, theirs: float) -> float:
        """Round 4's best choice with equity q: fold (0), call its bet, or build to the cap.
        Chips won from round 4 on."""
        options = [0.0]
        for put in (pace, float(_round_cap(hand, int(mine), hand.rounds - 1))):
            put = max(0.0, min(mine, put))
            matched = min(theirs, put)
            room = min(mine - put, theirs - matched)
            final = float(_round_cap(hand, int(max(0.0, room)), hand.rounds))
            options.append(q * (pot4 + matched + final) - (1.0 - q) * put)
        return max(options)

    # This round: calling puts in the call (or the bet it will face); building, the cap.
    facing = not o.can_check
    now_call = float(call) if facing else pace
    now_build = float(_round_cap(hand, behind + mine_in, r) - mine_in)
    settled = 1.0
    for k in range(r, hand.rounds - 1):
        settled *= 1.0 - REVEAL_RESOLVES.get(k, 0.0)
    spread = _spread(p, 1.0 - settled) if r < hand.rounds - 1 else []
    plans = {"fold": 0.0}
    for name, put in (("call", now_call), ("build", now_build)):
        put = max(0.0, min(float(behind), put))
        theirs_now = min(float(their), put - call) if facing else min(float(their), put)
        if r >= hand.rounds - 1:
            # Round 4: the next card settles it.
            room = min(behind - put, their - theirs_now)
            final = float(_round_cap(hand, int(max(0.0, room)), hand.rounds))
            plans[name] = p * (pot + theirs_now + final) - (1.0 - p) * put
            continue
        between = (hand.rounds - 2 - r) * pace  # rounds r + 1 .. 3, one bet each
        mine = max(0.0, behind - put)
        theirs = max(0.0, their - theirs_now)
        more = min(between, mine, theirs)
        spent = put + more
        pot4 = pot + put + theirs_now + 2 * more
        value = sum(w * last_rounds(q, pot4, mine - more, theirs - more) for q, w in spread)
        plans[name] = value - spent
    best = max(plans, key=lambda name: plans[name])
    most = most_allowed(hand, o)
    if best == "build" and most is not None:
        return most
    if best == "fold" and not o.can_check:
        return Decision(ActionKind.FOLD)
    return Decision(ActionKind.CHECK if o.can_check else ActionKind.CALL)


def most_allowed(hand: Hand, o: BetOptions) -> Decision | None:
    """The largest bet or raise open to a seat with options `o` (all in where only that bets
    or raises), or None where it can only check, call or fold."""
    if o.can_check and o.bet_max is not None:
        return Decision(ActionKind.BET, amount=o.bet_max)
    if not o.can_check and o.raise_max is not None:
        return Decision(ActionKind.RAISE, amount=o.raise_max)
    if o.all_in_allowed and o.all_in_to > hand.current_bet:
        return Decision(ActionKind.ALL_IN)
    return None


def _largest_bet(hand: Hand, pot: int) -> int:
    """The largest bet this round's structure allows with `pot` in the middle (SPEC 3.7)."""
    cfg = hand.config
    if cfg.structure is BettingStructure.SPREAD_LIMIT:
        return cfg.max_bet
    if cfg.structure is BettingStructure.FIXED_LIMIT:
        return hand.fixed_bet(hand.betting_round)
    if cfg.structure is BettingStructure.POT_LIMIT:
        return max(cfg.min_bet, pot)
    return 10**12
