"""What a clock that runs out does to a seat (SPEC 3.9). Pure; no I/O.

A timeout takes, for a seat the hand waits for, the action a player who answers the phone
would: check if free, else fold; in trading pass, decline, or (free mode, the closer, no offer
open) close trading. A protocol step owed after the deal (choosing trade cards, the layout, a
reveal) has no default: the seat is folded for stalling instead, out of turn, its bets staying
in the pot.
"""

from __future__ import annotations

from collections.abc import Callable

from p2pwillow.rules import betting_round, rounds, trade_flow
from p2pwillow.rules.config import TableConfig
from p2pwillow.rules.errors import IllegalAction
from p2pwillow.rules.events import Event, FoldedForStalling, TimedOut
from p2pwillow.rules.phases import ActionKind, Phase
from p2pwillow.rules.state import HandState, phase_allows, player, trading
from p2pwillow.rules.trading import TradingMode

Default = Callable[[HandState], list[Event]]


def default_step(config: TableConfig, s: HandState, seat: int) -> Default:
    """The default action for `seat` as a step, or IllegalAction (SPEC 3.9)."""
    phase_allows(s, ActionKind.TIMEOUT)
    player(s, seat)
    if s.phase is Phase.BETTING:
        if seat != s.actor:
            raise IllegalAction(f"seat {seat} is not the one to act")
        if betting_round.options(config, s, seat).can_check:
            return lambda n: betting_round.do_check(config, n, seat)
        return lambda n: betting_round.do_fold(config, n, seat)
    t = trading(s)
    if t.acceptor is not None:
        raise IllegalAction("choosing trade cards has no default; the staller is folded")
    if t.offer is not None:
        trade_flow.verify_decline(config, s, seat, None)
        return lambda n: trade_flow.do_decline(config, n, seat)
    if t.mode is TradingMode.IN_TURN:
        trade_flow.verify_pass(config, s, seat)
        return lambda n: trade_flow.do_pass(config, n, seat)
    if seat != trade_flow.closer(s):
        raise IllegalAction("no clock runs for this seat now")
    return lambda n: trade_flow.do_close(config, n, None, "the trading clock ran out")


def verify_timeout(config: TableConfig, s: HandState, seat: int, _: object = None) -> None:
    default_step(config, s, seat)


def do_timeout(config: TableConfig, s: HandState, seat: int, _: object = None) -> list[Event]:
    events = default_step(config, s, seat)(s)
    return [TimedOut(seat, events[0]), *events]


_STALL_STEPS = {
    Phase.TRADING: trade_flow.do_stall,
    Phase.LAYOUT: rounds.do_stall_layout,
    Phase.REVEAL: rounds.do_stall_reveal,
    Phase.BETTING: betting_round.do_stall,
}


def verify_stall(config: TableConfig, s: HandState, seat: int, _: object = None) -> None:
    """After the deal, any player still in may be folded for stalling (SPEC 3.9)."""
    phase_allows(s, ActionKind.STALL)
    if player(s, seat).folded:
        raise IllegalAction(f"seat {seat} has folded already")


def do_stall(config: TableConfig, s: HandState, seat: int, _: object = None) -> list[Event]:
    events = _STALL_STEPS[s.phase](config, s, seat)
    assert isinstance(events[0], FoldedForStalling)
    return events
