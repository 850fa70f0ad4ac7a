"""One betting round as the hand plays it: who is to act, the checks on check, bet, call, raise,
fold and all in, the steps that move the chips, and a player folded for stalling in a betting
round (SPEC 3.7, 3.9). Pure; no I/O.

Checks and steps have the action table's shape: (config, state, seat, argument).
"""

from __future__ import annotations

from dataclasses import replace

from p2pwillow.limits import is_int
from p2pwillow.rules.betting import (
    BetOptions,
    RoundState,
    bet_bounds,
    betting_options,
    high_card_seat,
    low_hand_seat,
    opener_seat,
    raise_increments,
    raises_capped,
)
from p2pwillow.rules.config import TableConfig
from p2pwillow.rules.errors import IllegalAction
from p2pwillow.rules.events import (
    BetPlaced,
    BettingClosed,
    BettingOpened,
    BettingSkipped,
    Called,
    Checked,
    Event,
    Folded,
    FoldedForStalling,
    Raised,
    Wager,
    WentAllIn,
)
from p2pwillow.rules.phases import Phase
from p2pwillow.rules.pots import Pot, PotAward
from p2pwillow.rules.script import BetSize, Opening, advance
from p2pwillow.rules.showdown import finish, stalled_to_one
from p2pwillow.rules.state import HandState, PlayerState, player, pot_chips

# --- checks: raise IllegalAction with the reason, change nothing -----------------------------


def actor(s: HandState, seat: int) -> PlayerState:
    p = player(s, seat)
    if seat != s.actor:
        raise IllegalAction(f"it is seat {s.actor}'s turn to bet, not seat {seat}'s")
    return p


def options(config: TableConfig, s: HandState, seat: int) -> BetOptions:
    assert s.round_state is not None
    p = s.players[seat]
    others = any(q.seat != seat and not q.folded and q.stack > 0 for q in s.players.values())
    rs = replace(s.round_state, pot=pot_chips(config, s))
    return betting_options(
        config,
        rs,
        round_bet=p.round_bet,
        stack=p.stack,
        acted_level=p.acted_level,
        others_can_bet=others,
    )


def current_bet(s: HandState) -> int:
    return 0 if s.round_state is None else s.round_state.current_bet


def verify_check(config: TableConfig, s: HandState, seat: int, _: object = None) -> None:
    actor(s, seat)
    o = options(config, s, seat)
    if not o.can_check:
        raise IllegalAction(f"seat {seat} cannot check: {o.to_call} to call")


def verify_bet(config: TableConfig, s: HandState, seat: int, amount: int | None) -> None:
    actor(s, seat)
    o = options(config, s, seat)
    if o.to_call or current_bet(s):
        raise IllegalAction("there is already a bet: call, raise or fold")
    if o.bet_min is None or o.bet_max is None:
        raise IllegalAction(f"seat {seat} cannot bet now (check, or go all in)")
    if amount is None:
        return
    if not is_int(amount) or not o.bet_min <= amount <= o.bet_max:
        raise IllegalAction(f"a bet now is {o.bet_min} to {o.bet_max}, not {amount!r}")


def verify_call(config: TableConfig, s: HandState, seat: int, _: object = None) -> None:
    actor(s, seat)
    if options(config, s, seat).to_call == 0:
        raise IllegalAction("there is no bet to call: check or bet")


def verify_raise(config: TableConfig, s: HandState, seat: int, to: int | None) -> None:
    actor(s, seat)
    o = options(config, s, seat)
    if current_bet(s) == 0:
        raise IllegalAction("there is no bet to raise: bet instead")
    if o.raise_min is None or o.raise_max is None:
        raise IllegalAction(_why_no_raise(config, s, seat, o))
    if to is None:
        return
    if not is_int(to) or not o.raise_min <= to <= o.raise_max:
        raise IllegalAction(f"a raise now is to {o.raise_min}..{o.raise_max}, not {to!r}")


def _why_no_raise(config: TableConfig, s: HandState, seat: int, o: BetOptions) -> str:
    rs = s.round_state
    assert rs is not None
    p = s.players[seat]
    if p.acted_level is not None and p.acted_level >= rs.full_level:
        return "the betting was not reopened by a full raise: call or fold"
    if o.all_in_to <= rs.current_bet:
        return "not enough chips to raise: call or fold"
    if not any(q.seat != seat and not q.folded and q.stack > 0 for q in s.players.values()):
        return "nobody else can call a raise"
    if raises_capped(config, rs):
        return f"the betting is capped at {config.max_raises} raises"
    return "a full raise needs more chips: go all in instead"


def verify_fold(config: TableConfig, s: HandState, seat: int, _: object = None) -> None:
    actor(s, seat)


def verify_all_in(config: TableConfig, s: HandState, seat: int, _: object = None) -> None:
    p = actor(s, seat)
    if p.stack == 0:
        raise IllegalAction(f"seat {seat} has no chips left")
    o = options(config, s, seat)
    if not o.all_in_allowed:
        raise IllegalAction(
            f"going all in for {o.all_in_to} is more than the limit allows now"
            if o.all_in_to > current_bet(s)
            else "nothing to go all in against: check or fold"
        )


# --- opening and closing a round (SPEC 3.6, 3.7.3) -------------------------------------------


def open_round(config: TableConfig, s: HandState, opening: Opening, size: BetSize) -> list[Event]:
    """The hand arrives at a betting round: who opens it, or none when fewer than two players
    can bet (SPEC 3.6: the cards still turn)."""
    able = [x for x in s.order if not s.players[x].folded and s.players[x].stack > 0]
    r = s.betting_round
    if len(able) < 2:
        return [BettingSkipped(r), *end_round(config, s)]
    shown = [s.players[x].shown for x in able]
    if opening is Opening.POSITION:
        opener = able[0]  # `able` is in table order, from the dealer's left
    elif opening is Opening.HIGH_CARD:
        opener = high_card_seat(able, shown)
    elif opening is Opening.LOW_HAND:
        opener = low_hand_seat(able, shown)
    else:
        opener = opener_seat(able, shown)
    fixed = config.small_bet if size is BetSize.SMALL else config.big_bet
    s.round_state = RoundState(r, 0, 0, 0, 0, 0, fixed)
    for p in s.players.values():
        p.round_bet = 0
        p.acted_level = None
    s.needs = able
    s.actor = opener
    return [BettingOpened(r, opener)]


def end_round(config: TableConfig, s: HandState) -> list[Event]:
    s.round_state = None
    s.actor = None
    s.needs = []
    for p in s.players.values():
        p.round_bet = 0
        p.acted_level = None
    return advance(config, s)


# --- steps: applied to a clone, return the events they caused (SPEC 3.3) ---------------------


def _put(s: HandState, seat: int, to: int) -> int:
    p = s.players[seat]
    chips = to - p.round_bet
    p.stack -= chips
    p.committed += chips
    p.round_bet = to
    return chips


def do_check(config: TableConfig, s: HandState, seat: int, _: object = None) -> list[Event]:
    return [Checked(seat), *_after_action(config, s, seat, raised=False)]


def do_call(config: TableConfig, s: HandState, seat: int, _: object = None) -> list[Event]:
    o = options(config, s, seat)
    p = s.players[seat]
    chips = _put(s, seat, p.round_bet + o.call_amount)
    return [Called(seat, chips, p.stack == 0), *_after_action(config, s, seat, raised=False)]


def do_fold(config: TableConfig, s: HandState, seat: int, _: object = None) -> list[Event]:
    s.players[seat].folded = True
    live = [x for x in s.order if not s.players[x].folded]
    if len(live) == 1:
        # SPEC 3.8: folding to one player ends the hand at once; it takes every chip.
        winner = live[0]
        pot = Pot(pot_chips(config, s), (winner,))
        return [Folded(seat), *finish(s, (PotAward(pot, (winner,), (pot.amount,)),))]
    return [Folded(seat), *_after_action(config, s, seat, raised=False)]


def do_stall(config: TableConfig, s: HandState, seat: int) -> list[Event]:
    """SPEC 3.9: fold `seat` out of turn in a betting round. It leaves the players who must
    still act; if it was the one to act, the next of them acts (or the round ends)."""
    s.players[seat].folded = True
    event = FoldedForStalling(seat, Phase.BETTING, 0, None, None)
    if sum(not q.folded for q in s.players.values()) == 1:
        return [event, *stalled_to_one(config, s)]
    if seat == s.actor:
        return [event, *_after_action(config, s, seat, raised=False)]
    # The one to act is still in the set, so the round goes on.
    s.needs = [x for x in s.needs if x != seat]
    return [event]


def _raise_to(config: TableConfig, s: HandState, seat: int, to: int) -> tuple[bool, bool]:
    """Put the seat's round total up to `to` > current bet; returns (was a bet, full)."""
    rs = s.round_state
    assert rs is not None
    p = s.players[seat]
    rs = replace(rs, pot=pot_chips(config, s))
    if rs.current_bet == 0:
        low, _ = bet_bounds(config, rs)
        full = to >= low
        if full:
            rs = replace(rs, full_level=to, last_full_increment=to)
        was_bet = True
    else:
        low_inc, _ = raise_increments(config, rs, rs.current_bet - p.round_bet)
        increment = to - rs.current_bet
        full = increment >= low_inc
        if full:
            # SPEC 3.7.2: only a full raise reopens the betting and counts toward the cap.
            rs = replace(rs, full_level=to, last_full_increment=increment, raises=rs.raises + 1)
        was_bet = False
    s.round_state = replace(rs, current_bet=to)
    _put(s, seat, to)
    return was_bet, full


def do_wager(config: TableConfig, s: HandState, seat: int, to: int) -> list[Event]:
    """A bet or a raise to the round total `to` (the checks said which)."""
    p = s.players[seat]
    before = p.round_bet
    was_bet, _ = _raise_to(config, s, seat, to)
    event: Event = BetPlaced(seat, to) if was_bet else Raised(seat, to, to - before)
    return [event, *_after_action(config, s, seat, raised=True)]


def do_all_in(config: TableConfig, s: HandState, seat: int, _: object = None) -> list[Event]:
    p = s.players[seat]
    rs = s.round_state
    assert rs is not None
    to = p.round_bet + p.stack
    chips = p.stack
    if to <= rs.current_bet:
        _put(s, seat, to)
        event = WentAllIn(seat, chips, to, Wager.CALL, False)
        return [event, *_after_action(config, s, seat, raised=False)]
    was_bet, full = _raise_to(config, s, seat, to)
    kind = Wager.BET if was_bet else Wager.RAISE
    return [
        WentAllIn(seat, chips, to, kind, full),
        *_after_action(config, s, seat, raised=True),
    ]


def _after_action(config: TableConfig, s: HandState, seat: int, *, raised: bool) -> list[Event]:
    """Who acts next, or the end of the round (SPEC 3.7.3)."""
    rs = s.round_state
    assert rs is not None
    s.players[seat].acted_level = rs.full_level
    able = [x for x in s.order if not s.players[x].folded and s.players[x].stack > 0]
    needs = [x for x in s.needs if x != seat and x in able]
    if raised:
        needs = [
            x for x in able if x != seat and (x in needs or s.players[x].round_bet < rs.current_bet)
        ]
    s.needs = needs
    if not needs:
        return [BettingClosed(rs.betting_round), *end_round(config, s)]
    here = s.order.index(seat)
    n = len(s.order)
    s.actor = next(
        s.order[(here + j) % n] for j in range(1, n + 1) if s.order[(here + j) % n] in needs
    )
    return []
