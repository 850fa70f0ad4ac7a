"""Hands of the live deck as the rules tests play them, the deck held by a trusted dealer
(`LiveDealer`): three seats, the dealer 2, dealt and checked to a draw or a wash, and a wash
whose cards the dealer mucks."""

from __future__ import annotations

from collections.abc import Sequence

from p2pwillow.bots.live_arena import LiveDealer
from p2pwillow.cards import DECK, Card
from p2pwillow.rules import ActionKind, Announcement, GameSpec, Hand, Phase, TableConfig

ANTE = 5


def to_wash(
    game: GameSpec, stacks: Sequence[int] = (200, 200, 200), deck: Sequence[Card] = DECK
) -> tuple[Hand, LiveDealer]:
    """Three players of `game` (antes of `ANTE`), dealt from `deck` and checked until the
    hand's first draw or wash."""
    config = TableConfig(seats=3, games=(game.name,), ante=ANTE, starting_stack=200)
    hand = Hand(config, [0, 1, 2], list(stacks), dealer=2)
    hand.announce(2, Announcement.of(game))
    dealer = LiveDealer(list(deck))
    while hand.phase is not Phase.DRAW:
        if hand.phase in (Phase.DEAL, Phase.STREET):
            hand.act(ActionKind.STREET, 2, dealer.street(hand))
        else:
            hand.check(hand.to_act()[0])
    return hand, dealer


def wash(hand: Hand, dealer: LiveDealer, seat: int, positions: tuple[int, ...]) -> None:
    """`seat` washes `positions` (its face-down cards first, then its face-up ones); the
    dealer mucks the cards."""
    down, up = list(dealer.down[seat]), list(hand.showing(seat))
    hand.act(ActionKind.DRAW, seat, positions)
    for p in positions:
        card = down[p] if p < len(down) else up[p - len(down)]
        if p < len(down):
            dealer.down[seat].remove(card)
        dealer.held[seat].remove(card)
        dealer.muck.append(card)
