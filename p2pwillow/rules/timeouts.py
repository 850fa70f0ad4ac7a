"""The default action when a player's clock runs out (SPEC 3.9). Pure; no I/O.

A timeout takes, for a seat the hand waits for, the action a player who answers the phone
would: check if free, else fold; in trading pass, decline, or (free mode, the dealer, no offer
open) close trading. Choosing trade cards has no default: the protocol aborts instead.
"""

from __future__ import annotations

from collections.abc import Callable

from p2pwillow.rules import betting_round, trade_flow
from p2pwillow.rules.config import TableConfig
from p2pwillow.rules.errors import IllegalAction
from p2pwillow.rules.events import Event, TimedOut
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
        raise IllegalAction("choosing trade cards has no default; the protocol aborts")
    if t.offer is not None:
        trade_flow.verify_decline(config, s, seat, None)
        return lambda n: trade_flow.do_decline(config, n, seat)
    if t.mode is TradingMode.IN_TURN:
        trade_flow.verify_pass(config, s, seat)
        return lambda n: trade_flow.do_pass(config, n, seat)
    if seat != s.dealer:
        raise IllegalAction("no clock runs for this seat now")
    return lambda n: trade_flow.do_close(config, n, None, "the trading clock ran out")


def verify_timeout(config: TableConfig, s: HandState, seat: int, _: object = None) -> None:
    default_step(config, s, seat)


def do_timeout(config: TableConfig, s: HandState, seat: int, _: object = None) -> list[Event]:
    events = default_step(config, s, seat)(s)
    return [TimedOut(seat, events[0]), *events]
