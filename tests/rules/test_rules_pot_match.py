"""Match the pot or fold, and the show after the declaration that puts a player to it (SPEC
3.18), at the rules level: a match puts in exactly the pot (all in when short), a fold forfeits,
the hand waits for the answer alone, a show outside the window or a second show is refused, the
clock folds, and a bot put to it answers."""

from __future__ import annotations

import random

import pytest

from p2pwillow.bots.live import LiveBot
from p2pwillow.bots.live_arena import LiveDealer
from p2pwillow.cards import DECK, Card
from p2pwillow.games.split_pot import HOLDEM_HIGH_LOW
from p2pwillow.rules import ActionKind, Announcement, Hand, IllegalAction, Phase, TableConfig
from p2pwillow.rules.events import CardsShown, Event, TimedOut
from p2pwillow.rules.pot_match import MatchOwed, PotMatched

SHOW, MATCH = ActionKind.EARLY_SHOW, ActionKind.POT_MATCH
SEAL, OPEN = ActionKind.DECLARE, ActionKind.OPEN_DECLARATION


def dealt(
    stacks: tuple[int, int, int] = (100, 100, 100), deck: list[Card] | None = None
) -> tuple[Hand, LiveDealer]:
    """Hold'em high-low for seats 0, 1, 2 (the dealer 2, the ante 5), dealt and checked
    through to the declaration."""
    config = TableConfig(seats=3, games=(HOLDEM_HIGH_LOW.name,), ante=5, starting_stack=100)
    hand = Hand(config, [0, 1, 2], list(stacks), dealer=2)
    hand.announce(2, Announcement.of(HOLDEM_HIGH_LOW))
    dealer = LiveDealer(list(DECK) if deck is None else deck)
    while hand.phase is not Phase.DECLARE:
        if hand.phase in (Phase.DEAL, Phase.STREET):
            hand.act(ActionKind.STREET, hand.dealer, dealer.street(hand))
        else:
            hand.check(hand.to_act()[0])
    return hand, dealer


def declared(hand: Hand) -> None:
    """Every player still in declares high: the bet after the declaration opens."""
    players = [x for x in hand.seats if not hand.is_folded(x)]
    for x in players:
        hand.act(SEAL, x, "high")
    for x in players:
        hand.act(OPEN, x, "high")
    assert hand.phase is Phase.BETTING


def last(hand: Hand) -> Event:
    return hand.events[-1]


def chips(hand: Hand) -> int:
    return sum(hand.stack(x) for x in hand.seats) + hand.pot


def finish(hand: Hand, dealer: LiveDealer) -> None:
    while not hand.is_over:
        if hand.phase is Phase.BETTING:
            hand.check(hand.to_act()[0])
        else:
            assert hand.phase is Phase.SHOW
            for x in hand.to_act():
                hand.act(ActionKind.SHOW, x, dealer.face_down(hand, x))


def test_a_show_after_the_declaration_puts_the_player_to_match_exactly_the_pot() -> None:
    hand, dealer = dealt()
    declared(hand)
    assert hand.to_act() == (0,) and hand.pot == 15
    assert hand.can(SHOW, 1)  # in turn or not
    cards = dealer.face_down(hand, 1)
    hand.act(SHOW, 1, cards)
    assert hand.events[-2] == CardsShown(1, cards) and hand.showing(1) == cards
    assert last(hand) == MatchOwed(1, 15)
    assert hand.owes_match == 1 and hand.to_act() == (1,)
    # the hand takes nothing else meanwhile: not the bet, not another show
    with pytest.raises(IllegalAction, match="seat 1 must match the pot or fold first"):
        hand.check(0)
    with pytest.raises(IllegalAction, match="must match the pot or fold first"):
        hand.act(SHOW, 2, dealer.face_down(hand, 2))
    with pytest.raises(IllegalAction, match="seat 1 is to match the pot or fold, not seat 0"):
        hand.act(MATCH, 0, True)
    before = chips(hand)
    hand.act(MATCH, 1, True)
    assert last(hand) == PotMatched(1, True, 15, False)
    assert hand.stack(1) == 80 and hand.matched(1) == 15 and hand.pot == 30
    assert chips(hand) == before and hand.owes_match is None
    assert hand.to_act() == (0,)  # the betting goes on as it stood: the match calls nothing
    assert hand.current_bet == 0 and hand.can_check(0)
    with pytest.raises(IllegalAction, match="nobody is put to match the pot or fold"):
        hand.act(MATCH, 1, True)
    with pytest.raises(IllegalAction, match="has shown its cards"):
        hand.act(SHOW, 1, ())  # a second show
    finish(hand, dealer)
    # at the show step it had nothing left to show, and the pot it matched was played for
    shows = [e.seat for e in hand.events if isinstance(e, CardsShown)]
    assert shows == [1, 0, 2]
    assert hand.result is not None and sum(hand.result.final_stacks) == 300


def test_a_match_short_of_the_pot_is_all_in_and_the_round_goes_on_without_it() -> None:
    hand, dealer = dealt((12, 100, 100))  # seat 0 has 7 behind after the ante
    declared(hand)
    assert hand.to_act() == (0,)
    hand.act(SHOW, 0, dealer.face_down(hand, 0))
    assert last(hand) == MatchOwed(0, 7)
    hand.act(MATCH, 0, True)
    assert last(hand) == PotMatched(0, True, 7, True)
    assert hand.stack(0) == 0 and hand.pot == 22
    assert hand.to_act() == (1,)  # it was the one to act: the next player acts
    hand.bet(1, 25)
    hand.call(2)
    assert hand.phase is Phase.SHOW  # the all-in player is not asked to call
    finish(hand, dealer)
    assert hand.result is not None and sum(hand.result.final_stacks) == 212


def test_a_fold_forfeits_what_the_player_put_in() -> None:
    hand, dealer = dealt()
    declared(hand)
    hand.bet(0, 25)
    hand.act(SHOW, 2, dealer.face_down(hand, 2))
    hand.act(MATCH, 2, False)
    assert last(hand) == PotMatched(2, False, 0, False)
    assert hand.is_folded(2) and hand.stack(2) == 95 and hand.pot == 40
    assert hand.to_act() == (1,)
    hand.fold(1)  # one player left: it takes the pot, the folder's ante included
    assert hand.is_over and hand.result is not None
    assert hand.result.final_stacks == (110, 95, 95)


def test_a_fold_by_the_one_to_act_moves_the_betting_on() -> None:
    hand, dealer = dealt()
    declared(hand)
    hand.act(SHOW, 0, dealer.face_down(hand, 0))
    hand.act(MATCH, 0, False)
    assert hand.to_act() == (1,)
    hand.check(1)
    hand.check(2)
    assert hand.phase is Phase.SHOW and hand.to_act() == (1, 2)


def test_cards_show_early_only_in_the_bet_after_the_declaration() -> None:
    config = TableConfig(seats=3, games=(HOLDEM_HIGH_LOW.name,), ante=5, starting_stack=100)
    hand = Hand(config, [0, 1, 2], [100, 100, 100], dealer=2)
    hand.announce(2, Announcement.of(HOLDEM_HIGH_LOW))
    dealer = LiveDealer(list(DECK))
    hand.act(ActionKind.STREET, 2, dealer.street(hand))
    assert hand.phase is Phase.BETTING  # the bet before the flop: no declaration yet
    with pytest.raises(IllegalAction, match="only in the bet after the declaration"):
        hand.act(SHOW, 0, dealer.face_down(hand, 0))
    hand, dealer = dealt()
    with pytest.raises(IllegalAction, match="not allowed in the declare phase"):
        hand.act(SHOW, 0, dealer.face_down(hand, 0))
    declared(hand)
    for x in (0, 1, 2):
        hand.check(x)
    assert hand.phase is Phase.SHOW  # the bet after the declaration is over
    assert not hand.can(SHOW, 0)
    with pytest.raises(IllegalAction, match="match the pot or fold"):
        hand.act(MATCH, 0, True)


def test_a_show_names_the_cards_held_face_down_and_a_folded_player_shows_nothing() -> None:
    hand, dealer = dealt()
    declared(hand)
    hand.fold(0)
    with pytest.raises(IllegalAction, match="has folded"):
        hand.act(SHOW, 0, dealer.face_down(hand, 0))
    with pytest.raises(IllegalAction, match="expected 2 cards"):
        hand.act(SHOW, 1, dealer.face_down(hand, 1)[:1])


def test_a_clock_that_runs_out_on_the_answer_folds() -> None:
    hand, dealer = dealt()
    declared(hand)
    hand.act(SHOW, 1, dealer.face_down(hand, 1))
    with pytest.raises(IllegalAction, match="seat 1 is to match the pot or fold"):
        hand.timeout(0)  # the one to bet is not on the clock meanwhile
    hand.timeout(1)
    assert hand.events[-2] == TimedOut(1, PotMatched(1, False, 0, False))
    assert hand.is_folded(1) and hand.to_act() == (0,)


def test_a_stall_while_the_answer_is_owed_folds_the_player_and_the_hand_goes_on() -> None:
    hand, dealer = dealt()
    declared(hand)
    hand.act(SHOW, 1, dealer.face_down(hand, 1))
    hand.stall(1)
    assert hand.is_folded(1) and hand.owes_match is None and hand.to_act() == (0,)


def test_a_bot_put_to_match_the_pot_answers_and_matches_with_the_nuts() -> None:
    # seat 1 holds A-2 with 3-4-5 on the board: the wheel, the best high and the best low
    deck = [Card.parse(c) for c in ("Kc", "As", "Qd", "7h", "2d", "9s", "Jc")]
    deck += [Card.parse(c) for c in ("3h", "4c", "5s", "Th", "8d", "6c", "7s")]
    deck += [c for c in DECK if c not in deck]
    hand, dealer = dealt(deck=deck)
    declared(hand)
    bot = LiveBot(1, random.Random(3), samples=60)
    hand.act(SHOW, 1, dealer.face_down(hand, 1))
    decision = bot.decide(hand, dealer.knowledge(1))
    assert decision.kind is MATCH and decision.match is True
    hand.act(MATCH, 1, decision.match)
    assert hand.matched(1) == 15
