"""The announcement, the deal, laying out and turning laid-out cards, and a player folded for
stalling in layout or reveal (SPEC 3.3, 3.6, 3.9). Pure; no I/O.

Checks and steps have the action table's shape: (config, state, seat, argument); the phase was
checked before. The step types that use them are in `streets`.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2pwillow.cards import Card
from p2pwillow.limits import is_int
from p2pwillow.rules.config import TableConfig
from p2pwillow.rules.errors import ConfigError, IllegalAction
from p2pwillow.rules.events import (
    Announced,
    AntesPosted,
    CardRevealed,
    Dealt,
    Event,
    FoldedForStalling,
    LaidOut,
)
from p2pwillow.rules.phases import Phase
from p2pwillow.rules.script import Announcement, Forced, advance, current
from p2pwillow.rules.showdown import stalled_to_one
from p2pwillow.rules.state import HandState, player

# --- the announcement and the deal (SPEC 3.3) ------------------------------------------------


def verify_announce(config: TableConfig, s: HandState, seat: int, a: Announcement | None) -> None:
    player(s, seat)
    if seat != s.dealer:
        raise IllegalAction(f"only the dealer (seat {s.dealer}) announces")
    if a is None:
        return
    if not isinstance(a, Announcement):
        raise IllegalAction(f"not an announcement: {a!r}")
    if a.game.name not in config.games:
        raise IllegalAction(f"this table does not play {a.game.title}")
    try:
        a.check_fits(len(s.order))
    except ConfigError as exc:
        raise IllegalAction(str(exc)) from None


def do_announce(config: TableConfig, s: HandState, seat: int, a: Announcement) -> list[Event]:
    s.announcement = a
    events: list[Event] = [Announced(seat, a)]
    if a.game.forced is Forced.TRADE_TOKENS:
        for p in s.players.values():
            # SPEC 3.4: tokens are set aside before the deal; a short stack sets aside fewer.
            tokens = min(config.trade_tokens, p.stack // config.token_value)
            p.stack -= tokens * config.token_value
            p.tokens = p.tokens_set_aside = tokens
    elif a.game.forced is Forced.ANTE and config.ante:
        for p in s.players.values():
            # SPEC 3.4: a stack below the ante posts all it has.
            p.ante = min(config.ante, p.stack)
            p.stack -= p.ante
        events.append(AntesPosted(tuple((x, s.players[x].ante) for x in s.order)))
    return [*events, *advance(config, s)]


def verify_deal(config: TableConfig, s: HandState, seat: int, _: object = None) -> None:
    """The deal is the protocol's input (SPEC 3.3): only the phase can refuse it."""


def do_deal(config: TableConfig, s: HandState, seat: int, _: object = None) -> list[Event]:
    a = s.announcement
    assert a is not None
    count = current(s).cards_each(a.options)
    for p in s.players.values():
        p.hand_size += count
    dealt = Dealt(count, s.order, tuple(s.players[x].tokens for x in s.order))
    return [dealt, *advance(config, s)]


# --- laying out (SPEC 3.6, 5.8) ---------------------------------------------------------------


def layout_size(s: HandState) -> int:
    """Cards laid out at the hand's layout step."""
    size = getattr(current(s), "cards", None)
    assert is_int(size)
    return size


def verify_lay_out(
    config: TableConfig, s: HandState, seat: int, positions: Sequence[int] | None
) -> None:
    """Laying out; `positions`, if given, are the hand positions of the layout cards in the
    order they will be turned (the protocol keeps them secret, SPEC 5.8)."""
    p = player(s, seat)
    if p.folded:
        raise IllegalAction(f"seat {seat} has folded; it lays nothing out")
    if not awaits_layout(s, seat):
        raise IllegalAction(f"seat {seat} has already laid out")
    if positions is None:
        return
    size, want = p.hand_size, layout_size(s)
    if (
        isinstance(positions, str | bytes)
        or not isinstance(positions, Sequence)
        or len(positions) != want
        or len(set(positions)) != want
        or not all(is_int(x) and 0 <= x < size for x in positions)
    ):
        raise IllegalAction(f"a layout is {want} distinct positions of 0..{size - 1}")


def awaits_layout(s: HandState, seat: int) -> bool:
    p = s.players[seat]
    return not p.folded and not p.laid_out


def do_lay_out(config: TableConfig, s: HandState, seat: int, _: object = None) -> list[Event]:
    p = s.players[seat]
    p.laid_out = True
    events: list[Event] = [LaidOut(seat, p.hand_size - layout_size(s))]
    if not any(awaits_layout(s, x) for x in s.order):
        events += advance(config, s)
    return events


def do_stall_layout(config: TableConfig, s: HandState, seat: int) -> list[Event]:
    """SPEC 3.9: fold `seat` in LAYOUT; the next step starts once everyone still in has laid
    out."""
    s.players[seat].folded = True
    event = FoldedForStalling(seat, Phase.LAYOUT, 0, None, None)
    if sum(not q.folded for q in s.players.values()) == 1:
        return [event, *stalled_to_one(config, s)]
    if not any(awaits_layout(s, x) for x in s.order):
        return [event, *advance(config, s)]
    return [event]


# --- turning laid-out cards (SPEC 3.6, 5.9) ---------------------------------------------------


def turning(s: HandState) -> int:
    """The laid-out card the hand's turn step turns (0 for the first)."""
    card = getattr(current(s), "card", None)
    assert is_int(card)
    return card


def awaits_reveal(s: HandState, seat: int) -> bool:
    p = s.players[seat]
    return not p.folded and len(p.shown) <= turning(s)


def verify_reveal(config: TableConfig, s: HandState, seat: int, card: Card | None) -> None:
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


def do_reveal(config: TableConfig, s: HandState, seat: int, card: Card) -> list[Event]:
    s.players[seat].shown.append(card)
    events: list[Event] = [CardRevealed(seat, s.betting_round, card)]
    if not any(awaits_reveal(s, x) for x in s.order):
        events += advance(config, s)
    return events


def do_stall_reveal(config: TableConfig, s: HandState, seat: int) -> list[Event]:
    """SPEC 3.9: fold `seat` in REVEAL (its cards not yet shown stay face down); the next step
    starts once everyone still in has revealed."""
    s.players[seat].folded = True
    event = FoldedForStalling(seat, Phase.REVEAL, 0, None, None)
    if sum(not q.folded for q in s.players.values()) == 1:
        return [event, *stalled_to_one(config, s)]
    if not any(awaits_reveal(s, x) for x in s.order):
        return [event, *advance(config, s)]
    return [event]
