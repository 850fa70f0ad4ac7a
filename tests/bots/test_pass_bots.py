"""The bot's choice in a pass street (SPEC 3.19): it keeps a card that helps it, passes a card
that hurts its hand when the pass is cheap, and keeps it when the pass costs more than a new
card is worth."""

from __future__ import annotations

import random

import pytest

from p2pwillow.bots.decision import Knowledge
from p2pwillow.bots.live import LiveBot
from p2pwillow.bots.live_arena import LiveDealer
from p2pwillow.cards import DECK, Card
from p2pwillow.games.pass_the_card import PASS_THE_CARD
from p2pwillow.rules import ActionKind, Announcement, Hand, TableConfig

SAMPLES = 200


def _third_street(cards: str, min_bet: int) -> tuple[Hand, Knowledge]:
    """Three players (the dealer 2), antes of 25, the deck's first cards `cards`: seat 0's
    two down cards are the first and the fourth, its up card the seventh; seat 0 chooses."""
    top = [Card.parse(c) for c in cards.split()]
    config = TableConfig(
        seats=3,
        games=(PASS_THE_CARD.name,),
        ante=25,
        min_bet=min_bet,
        max_bet=max(100, min_bet),
        starting_stack=1000,
    )
    hand = Hand(config, [0, 1, 2], [1000] * 3, dealer=2)
    hand.announce(2, Announcement.of(PASS_THE_CARD))
    dealer = LiveDealer(top + [c for c in DECK if c not in top])
    hand.act(ActionKind.STREET, 2, dealer.street(hand))  # two down each
    hand.act(ActionKind.STREET, 2, dealer.street(hand))  # seat 0's up card
    assert hand.to_act() == (0,)
    return hand, Knowledge(0, tuple(dealer.held[0]))


def _choices(cards: str, min_bet: int) -> set[ActionKind]:
    hand, knowledge = _third_street(cards, min_bet)
    return {
        LiveBot(0, random.Random(seed), samples=SAMPLES).keep_or_pass(hand, knowledge).kind
        for seed in range(4)
    }


def test_a_card_that_helps_is_kept() -> None:
    # two aces down and the third up
    assert _choices("As 9h Td Ah Jh Qd Ad", min_bet=1) == {ActionKind.KEEP_CARD}


@pytest.mark.parametrize(("min_bet", "choice"), [(1, "pass"), (300, "keep")])
def test_a_card_that_hurts_is_passed_when_cheap(min_bet: int, choice: str) -> None:
    # 2 and 3 down, a king up: a new card is likely a low one, the king helps nobody's low
    want = ActionKind.PASS_CARD if choice == "pass" else ActionKind.KEEP_CARD
    assert _choices("2c 9h Td 3d Jh Qd Ks", min_bet) == {want}


def test_a_seat_that_cannot_pay_keeps() -> None:
    hand, knowledge = _third_street("2c 9h Td 3d Jh Qd Ks", min_bet=1000)
    decision = LiveBot(0, random.Random(0), samples=SAMPLES).keep_or_pass(hand, knowledge)
    assert decision.kind is ActionKind.KEEP_CARD
