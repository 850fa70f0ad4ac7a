"""Builders for bot tests: hands through the rules engine with chosen layouts and betting."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from p2pwillow.cards import Card, parse_cards
from p2pwillow.games import weeping_willow as ww
from p2pwillow.rules import (
    BettingStructure,
    Hand,
    Phase,
    TableConfig,
)

Script = Callable[[Hand, int], None]
"""Takes the action of the seat to act in a betting round."""


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def betting_hand(
    layouts: Mapping[int, str],
    rounds: int,
    *,
    dealer: int | None = None,
    structure: BettingStructure = BettingStructure.SPREAD_LIMIT,
    script: Script | None = None,
    number: int = 1,
) -> Hand:
    """A hand with no trading whose seats lay out `layouts` (in reveal order), played to the
    betting of round `rounds`: earlier rounds are played by `script` (default: all check).
    With `rounds` = 6 the hand is played to its end."""
    seats = sorted(layouts)
    config = TableConfig(trade_tokens=0, structure=structure, seats=max(seats) + 1)
    button = seats[-1] if dealer is None else dealer
    hand = Hand(config, seats, [1000] * len(seats), button, hand_number=number)
    hand.announce(button, ww.announcement(5))
    hand.deal()
    held = {seat: cards(text) for seat, text in layouts.items()}
    for seat in hand.seats:
        hand.lay_out(seat)
    act = script if script is not None else _check
    for r in range(min(rounds, 5)):
        if hand.is_over:
            break
        for seat in hand.to_act():
            hand.reveal(seat, held[seat][r])
        last = r == rounds - 1
        while not last and hand.phase is Phase.BETTING:
            act(hand, hand.to_act()[0])
    return hand


def _check(hand: Hand, seat: int) -> None:
    hand.check(seat)


def bettor(seat_bets: int) -> Script:
    """`seat_bets` bets the smallest amount when checked to and raises the least when it may;
    every other seat checks or calls."""

    def act(hand: Hand, seat: int) -> None:
        o = hand.bet_options(seat)
        assert o is not None
        if seat == seat_bets and o.can_check and o.bet_min is not None:
            hand.bet(seat, o.bet_min)
        elif o.can_check:
            hand.check(seat)
        else:
            hand.call(seat)

    return act


def folder(seat_bets: int, seat_folds: int, from_round: int = 1) -> Script:
    """`seat_bets` bets the smallest amount when checked to; `seat_folds` folds to any bet
    from betting round `from_round` on and calls before it."""

    def act(hand: Hand, seat: int) -> None:
        o = hand.bet_options(seat)
        assert o is not None
        if seat == seat_bets and o.can_check and o.bet_min is not None:
            hand.bet(seat, o.bet_min)
        elif o.can_check:
            hand.check(seat)
        elif seat == seat_folds and hand.betting_round >= from_round:
            hand.fold(seat)
        else:
            hand.call(seat)

    return act
