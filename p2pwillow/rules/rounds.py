"""The five rounds: laying out, turning one card per round, opening each betting round and moving
on to the next round or the showdown, and a player folded for stalling in layout or reveal
(SPEC 3.6, 3.9). Pure; no I/O.

Checks and steps have the action table's shape: (config, state, seat, argument).
"""

from __future__ import annotations

from collections.abc import Sequence

from p2pwillow.cards import Card
from p2pwillow.limits import LAYOUT_SIZE, ROUNDS, is_int
from p2pwillow.rules.betting import RoundState, opener_seat
from p2pwillow.rules.config import TableConfig
from p2pwillow.rules.errors import IllegalAction
from p2pwillow.rules.events import (
    BettingOpened,
    BettingSkipped,
    CardRevealed,
    Event,
    FoldedForStalling,
    LaidOut,
)
from p2pwillow.rules.phases import ActionKind, Phase
from p2pwillow.rules.showdown import settle, stalled_to_one
from p2pwillow.rules.state import HandState, goto, phase_allows, player

# --- checks: raise IllegalAction with the reason, change nothing -----------------------------


def verify_lay_out(
    config: TableConfig, s: HandState, seat: int, positions: Sequence[int] | None
) -> None:
    """Laying out; `positions`, if given, are the hand positions of the five layout cards in
    the order they will be turned (the protocol keeps them secret, SPEC 5.8)."""
    phase_allows(s, ActionKind.LAY_OUT)
    p = player(s, seat)
    if p.folded:
        raise IllegalAction(f"seat {seat} has folded; it lays nothing out")
    if not awaits_layout(s, seat):
        raise IllegalAction(f"seat {seat} has already laid out")
    if positions is None:
        return
    size = p.hand_size
    if (
        isinstance(positions, str | bytes)
        or not isinstance(positions, Sequence)
        or len(positions) != LAYOUT_SIZE
        or len(set(positions)) != LAYOUT_SIZE
        or not all(is_int(x) and 0 <= x < size for x in positions)
    ):
        raise IllegalAction(f"a layout is {LAYOUT_SIZE} distinct positions of 0..{size - 1}")


def awaits_layout(s: HandState, seat: int) -> bool:
    p = s.players[seat]
    return not p.folded and not p.laid_out


def awaits_reveal(s: HandState, seat: int) -> bool:
    p = s.players[seat]
    return not p.folded and len(p.shown) < s.betting_round


def verify_reveal(config: TableConfig, s: HandState, seat: int, card: Card | None) -> None:
    phase_allows(s, ActionKind.REVEAL)
    p = player(s, seat)
    if p.folded:
        raise IllegalAction(f"seat {seat} has folded; its cards stay face down")
    if not awaits_reveal(s, seat):
        raise IllegalAction(f"seat {seat} has already revealed in round {s.betting_round}")
    if card is None:
        return
    if not isinstance(card, Card):
        raise IllegalAction(f"not a card: {card!r}")
    for other in s.players.values():
        if card in other.shown:
            raise IllegalAction(f"{card} is already showing at seat {other.seat}")


# --- steps: applied to a clone, return the events they caused (SPEC 3.3) ---------------------


def do_lay_out(config: TableConfig, s: HandState, seat: int, _: object = None) -> list[Event]:
    p = s.players[seat]
    p.laid_out = True
    events: list[Event] = [LaidOut(seat, p.hand_size - LAYOUT_SIZE)]
    if not any(awaits_layout(s, x) for x in s.order):
        s.betting_round = 1
        goto(s, Phase.REVEAL)
    return events


def do_stall_layout(config: TableConfig, s: HandState, seat: int) -> list[Event]:
    """SPEC 3.9: fold `seat` in LAYOUT; round 1 starts once everyone still in has laid out."""
    s.players[seat].folded = True
    event = FoldedForStalling(seat, Phase.LAYOUT, 0, None, None)
    if sum(not q.folded for q in s.players.values()) == 1:
        return [event, *stalled_to_one(config, s)]
    if not any(awaits_layout(s, x) for x in s.order):
        s.betting_round = 1
        goto(s, Phase.REVEAL)
    return [event]


def do_stall_reveal(config: TableConfig, s: HandState, seat: int) -> list[Event]:
    """SPEC 3.9: fold `seat` in REVEAL (its cards not yet shown stay face down); the round's
    betting, or the next round, starts once everyone still in has revealed."""
    s.players[seat].folded = True
    event = FoldedForStalling(seat, Phase.REVEAL, 0, None, None)
    if sum(not q.folded for q in s.players.values()) == 1:
        return [event, *stalled_to_one(config, s)]
    if not any(awaits_reveal(s, x) for x in s.order):
        return [event, *open_betting(config, s)]
    return [event]


def do_reveal(config: TableConfig, s: HandState, seat: int, card: Card) -> list[Event]:
    s.players[seat].shown.append(card)
    events: list[Event] = [CardRevealed(seat, s.betting_round, card)]
    if not any(awaits_reveal(s, x) for x in s.order):
        events += open_betting(config, s)
    return events


def open_betting(config: TableConfig, s: HandState) -> list[Event]:
    able = [x for x in s.order if not s.players[x].folded and s.players[x].stack > 0]
    r = s.betting_round
    if len(able) < 2:
        # SPEC 3.6: with fewer than two players able to bet, the cards still turn.
        return [BettingSkipped(r), *next_round(config, s)]
    opener = opener_seat(able, [s.players[x].shown for x in able])
    s.round_state = RoundState(r, 0, 0, 0, 0, 0)
    for p in s.players.values():
        p.round_bet = 0
        p.acted_level = None
    s.needs = able
    s.actor = opener
    goto(s, Phase.BETTING)
    return [BettingOpened(r, opener)]


def next_round(config: TableConfig, s: HandState) -> list[Event]:
    s.round_state = None
    s.actor = None
    s.needs = []
    for p in s.players.values():
        p.round_bet = 0
        p.acted_level = None
    if s.betting_round < ROUNDS:
        s.betting_round += 1
        goto(s, Phase.REVEAL)
        return []
    goto(s, Phase.SHOWDOWN)
    return settle(config, s)
