"""The bot's decisions on hands set up through the rules engine: legal, and sensible."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from p2pwillow.bots import LEVELS, Bot, BotError, Decision, Knowledge, apply_decision, is_legal
from p2pwillow.cards import Card, parse_cards
from p2pwillow.games import weeping_willow as ww
from p2pwillow.games.weeping_willow import TradingClose, TradingMode
from p2pwillow.rules import (
    ActionKind,
    BettingStructure,
    Hand,
    IllegalAction,
    Phase,
    TableConfig,
)


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def _bot(seat: int, seed: int = 0, samples: int = 200) -> Bot:
    return Bot(seat, random.Random(seed), samples=samples)


# --- values --------------------------------------------------------------------------------


def test_knowledge_refuses_inconsistent_cards() -> None:
    hand = _cards("As Kd 7c 4h 2s")
    Knowledge(0, hand, {1: _cards("Qc Qc")}, {}, hand)  # a card may travel back and forth
    with pytest.raises(BotError):
        Knowledge(0, _cards("As As 7c 4h 2s"))
    with pytest.raises(BotError):
        Knowledge(0, hand, layout=_cards("As Kd 7c 4h 3s"))
    with pytest.raises(BotError):
        Knowledge(0, hand, given={0: _cards("Qc")})
    with pytest.raises(BotError):
        Knowledge(0, hand, received={1: ["Qc"]})  # type: ignore[dict-item]
    with pytest.raises(BotError):
        Knowledge(0, list(hand))  # type: ignore[arg-type]
    with pytest.raises(BotError):
        Knowledge("0", hand)  # type: ignore[arg-type]


def test_bot_settings_are_checked() -> None:
    with pytest.raises(BotError):
        Bot(-1, random.Random(0))
    with pytest.raises(BotError):
        Bot(0, random.Random(0), samples=0)
    with pytest.raises(BotError):
        Bot(0, random)  # type: ignore[arg-type]


# --- announce ------------------------------------------------------------------------------


def test_announcements_fit_the_table_and_vary() -> None:
    seen: Counter[tuple[int, TradingMode, TradingClose]] = Counter()
    for players in range(2, 11):
        for seed in range(25):
            hand = Hand(TableConfig(), list(range(players)), [1000] * players, dealer=0)
            decision = _bot(0, seed).decide(hand, Knowledge(0, ()))
            assert decision.kind is ActionKind.ANNOUNCE and decision.announcement is not None
            assert is_legal(hand, 0, decision)
            a = decision.announcement
            setup = ww.Setup.of(a)
            seen[(a.number("deal_size"), setup.mode, setup.closing)] += 1
    assert {size for size, _, _ in seen} == {5, 6, 7}
    # every mode and closing the rules allow (SPEC 3.5) comes up
    assert {(mode, closing) for _, mode, closing in seen} == {
        (TradingMode.IN_TURN, TradingClose.ORBIT_WITHOUT_TRADE),
        (TradingMode.IN_TURN, TradingClose.ORBITS),
        (TradingMode.IN_TURN, TradingClose.DEALER_CALLS),
        (TradingMode.FREE, TradingClose.DEALER_CALLS),
    }


# --- trading -------------------------------------------------------------------------------


def _trading_hand(
    players: int = 3, tokens: int = 6, mode: TradingMode = TradingMode.IN_TURN
) -> Hand:
    closing = (
        TradingClose.DEALER_CALLS if mode is TradingMode.FREE else TradingClose.ORBIT_WITHOUT_TRADE
    )
    hand = Hand(TableConfig(trade_tokens=tokens), list(range(players)), [1000] * players, 0)
    hand.announce(0, ww.announcement(5, mode, closing))
    hand.deal()
    return hand


def test_junk_offers_and_a_flush_passes() -> None:
    offers = passes = 0
    for seed in range(10):
        hand = _trading_hand()
        assert hand.to_act() == (1,)
        junk = _bot(1, seed).decide(hand, Knowledge(1, _cards("2c 5d 9h Js 7c")))
        offers += junk.kind is ActionKind.OFFER
        assert junk.kind is not ActionKind.OFFER or junk.k in (1, 2, 3)
        flush = _bot(1, seed).decide(hand, Knowledge(1, _cards("2h 5h 9h Jh Kh")))
        passes += flush.kind is ActionKind.PASS
    assert offers >= 8 and passes == 10


def test_answers_and_trade_cards_follow_the_hand() -> None:
    accepted = declined = 0
    for seed in range(10):
        hand = _trading_hand()
        ww.offer(hand, 1, 2)
        assert 2 in hand.to_act()  # (everyone with a token answers, in any order)
        knows_flush = Knowledge(2, _cards("2h 5h 9h Jh Kh"))
        d = _bot(2, seed).decide(hand, knows_flush)
        declined += d.kind is ActionKind.DECLINE
        d = _bot(2, seed).decide(hand, Knowledge(2, _cards("2c 5d 9h Js 7c")))
        accepted += d.kind is ActionKind.ACCEPT
    assert declined == 10 and accepted >= 8
    hand = _trading_hand()
    ww.offer(hand, 1, 2)
    ww.accept(hand, 2)
    ww.decline(hand, 0)
    # every answer is in: the offerer chooses among those who accepted
    d = _bot(1).decide(hand, Knowledge(1, _cards("8s Kc 4h 8d 2s")))
    assert d == Decision(ActionKind.CHOOSE_PARTNER, partner=2)
    apply_decision(hand, 1, d)
    pair = Knowledge(1, _cards("8s Kc 4h 8d 2s"))
    d = _bot(1).decide(hand, pair)
    assert d.kind is ActionKind.CHOOSE_TRADE_CARDS and d.positions is not None
    assert len(d.positions) == 2 and not {0, 3} & set(d.positions)
    apply_decision(hand, 1, d)
    d = _bot(2).decide(hand, Knowledge(2, _cards("2c 5d 9h Js 7c")))
    apply_decision(hand, 2, d)
    assert len(ww.trades(hand)) == 1


def test_no_offer_past_the_trade_limit_or_without_tokens() -> None:
    hand = _trading_hand()
    junk = Knowledge(1, _cards("2c 5d 9h Js 7c"))
    assert Bot(1, random.Random(0), max_trades=0).decide(hand, junk).kind is ActionKind.PASS
    # One token each: after seats 1 and 2 trade, seat 1 has none and may not offer.
    hand = _trading_hand(players=4, tokens=1, mode=TradingMode.FREE)
    ww.offer(hand, 1, 1)
    ww.accept(hand, 2)
    ww.decline(hand, 3)
    ww.decline(hand, 0)
    ww.choose_partner(hand, 1, 2)
    ww.choose_trade_cards(hand, 1, [0])
    ww.choose_trade_cards(hand, 2, [0])
    assert hand.tokens(1) == 0
    assert _bot(1).initiative(hand, junk) is None
    assert _bot(3).initiative(hand, Knowledge(3, _cards("2d 5c 9s Jh 7d"))) is not None


def test_a_lapsed_offer_is_not_repeated_until_the_hand_changes() -> None:
    hand = _trading_hand(mode=TradingMode.FREE)
    junk = Knowledge(1, _cards("2c 5d 9h Js 7c"))
    offer = _bot(1).initiative(hand, junk)
    assert offer is not None
    apply_decision(hand, 1, offer)
    ww.decline(hand, 2)
    ww.decline(hand, 0)
    assert ww.open_offer(hand) is None
    assert _bot(1).initiative(hand, junk) is None
    # Free trading: the dealer takes its own chance (a pass, with a flush), and closes once
    # every seat has had one.
    flush = Knowledge(0, _cards("2h 5h 9h Jh Kh"))
    dealer = _bot(0).decide(hand, flush)
    assert dealer.kind is ActionKind.PASS
    apply_decision(hand, 0, dealer)
    assert not hand.can(ActionKind.CLOSE_TRADING, 0)  # seat 2 has not had its chance
    ww.pass_turn(hand, 2)
    dealer = _bot(0).decide(hand, flush)
    assert dealer.kind is ActionKind.CLOSE_TRADING


def test_dealer_called_in_turn_trading_is_closed_after_a_quiet_orbit() -> None:
    hand = Hand(TableConfig(), [0, 1, 2], [1000] * 3, 0)
    hand.announce(0, ww.announcement(5, TradingMode.IN_TURN, TradingClose.DEALER_CALLS))
    hand.deal()
    ww.pass_turn(hand, 1)
    ww.pass_turn(hand, 2)
    d = _bot(0).decide(hand, Knowledge(0, _cards("2h 5h 9h Jh Kh")))
    assert d.kind is ActionKind.CLOSE_TRADING
    apply_decision(hand, 0, d)
    assert hand.phase is Phase.LAYOUT


def test_a_dealer_without_tokens_still_closes_dealer_called_trading() -> None:
    # The dealer's stack is below one token: it never has a turn, yet it closes trading.
    hand = Hand(TableConfig(), [0, 1, 2], [3, 1000, 1000], 0)
    hand.announce(0, ww.announcement(5, TradingMode.IN_TURN, TradingClose.DEALER_CALLS))
    hand.deal()
    dealer = Knowledge(0, _cards("2h 5h 9h Jh Kh"))
    assert _bot(0).initiative(hand, dealer) is None
    ww.pass_turn(hand, 1)
    assert _bot(0).initiative(hand, dealer) is None
    ww.pass_turn(hand, 2)
    close = _bot(0).initiative(hand, dealer)
    assert close == Decision(ActionKind.CLOSE_TRADING)
    apply_decision(hand, 0, close)
    assert hand.phase is Phase.LAYOUT


# --- layout --------------------------------------------------------------------------------


def _layout_hand(size: int = 5) -> Hand:
    hand = Hand(TableConfig(trade_tokens=0), [0, 1], [1000, 1000], 0)
    hand.announce(0, ww.announcement(size))
    hand.deal()
    assert hand.phase is Phase.LAYOUT
    return hand


def _laid_out(
    seat_cards: str, seed: int, size: int = 5, **books: dict[int, tuple[Card, ...]]
) -> list[Card]:
    hand = _layout_hand(size)
    cards = _cards(seat_cards)
    knowledge = Knowledge(1, cards, books.get("given", {}), books.get("received", {}))
    d = _bot(1, seed).decide(hand, knowledge)
    assert d.kind is ActionKind.LAY_OUT and d.positions is not None and is_legal(hand, 1, d)
    return [cards[p] for p in d.positions]


@pytest.mark.parametrize("seed", range(8))
def test_layout_puts_the_strongest_cards_last(seed: int) -> None:
    order = _laid_out("Ah 7c As 2d 9s", seed)
    assert {c.rank for c in order[3:]} == {14}
    order = _laid_out("Kc 8h 3d 8s 8c", seed)
    assert {c.rank for c in order[2:]} == {8}
    order = _laid_out("Qc Qd 4h 4s Jc", seed)  # two pair: the kicker first, the pairs after
    assert order[0].rank == 11
    order = _laid_out("Tc Td 6h 6s 6c", seed)  # full house: the trips last
    assert {c.rank for c in order[2:]} == {6}


@pytest.mark.parametrize("seed", range(8))
def test_layout_plays_the_best_five_of_seven(seed: int) -> None:
    order = _laid_out("2c 9h 3d Jh Ah Kh 5h", seed, size=7)
    assert {str(c) for c in order} == {"9h", "Jh", "Ah", "Kh", "5h"}


@pytest.mark.parametrize("seed", range(8))
def test_cards_the_giver_knows_are_revealed_first(seed: int) -> None:
    received = {0: _cards("3d")}
    order = _laid_out("Kc 8h 3d 8s 8c", seed, received=received)
    assert str(order[0]) == "3d"
    order = _laid_out("Kc 8h 3d 8s 8c", seed, received={0: _cards("8h")})
    assert str(order[2]) == "8h"  # first of the trips, still after the kickers


# --- betting -------------------------------------------------------------------------------


def _betting_hand(
    layouts: dict[int, str],
    rounds: int,
    structure: BettingStructure = BettingStructure.SPREAD_LIMIT,
) -> tuple[Hand, dict[int, tuple[Card, ...]]]:
    """A hand with no trading, every card of `rounds` rounds turned, betting open."""
    seats = sorted(layouts)
    hand = Hand(
        TableConfig(trade_tokens=0, structure=structure), seats, [1000] * len(seats), seats[-1]
    )
    hand.announce(seats[-1], ww.announcement(5))
    hand.deal()
    cards = {seat: _cards(text) for seat, text in layouts.items()}
    for seat in hand.seats:
        hand.lay_out(seat)
    for r in range(rounds):
        for seat in hand.to_act():
            hand.reveal(seat, cards[seat][r])
        if r < rounds - 1:
            while hand.phase is Phase.BETTING:
                hand.check(hand.to_act()[0])
    assert hand.phase is Phase.BETTING
    return hand, cards


def _knowledge(seat: int, cards: dict[int, tuple[Card, ...]]) -> Knowledge:
    return Knowledge(seat, cards[seat], layout=cards[seat])


MADE = "Ah 9c 9d 9s Kd"
NOTHING = "Ah 7c 4d 3s 2h"
OTHER = "Qc Jd 8h 6s 5c"


def test_a_made_hand_bets_more_than_nothing() -> None:
    kinds: dict[str, Counter[ActionKind]] = {"made": Counter(), "nothing": Counter()}
    for name, layout in (("made", MADE), ("nothing", NOTHING)):
        for seed in range(30):
            hand, cards = _betting_hand({0: layout, 1: OTHER}, rounds=1)
            assert hand.to_act() == (0,)  # the ace showing opens
            d = _bot(0, seed).decide(hand, _knowledge(0, cards))
            assert is_legal(hand, 0, d)
            kinds[name][d.kind] += 1
    assert kinds["made"][ActionKind.BET] >= 27
    assert kinds["nothing"][ActionKind.BET] <= 3
    assert kinds["nothing"][ActionKind.CHECK] >= 27


@pytest.mark.parametrize("level", LEVELS)
def test_facing_a_bet_the_made_hand_stays_quads_raise_and_nothing_folds(level: str) -> None:
    answers: dict[str, Counter[ActionKind]] = {
        "quads": Counter(),
        "made": Counter(),
        "nothing": Counter(),
    }
    for name, layout in (("quads", "Ah 9c 9d 9s 9h"), ("made", MADE), ("nothing", NOTHING)):
        for seed in range(20):
            hand, cards = _betting_hand({0: "Kc Kh 8h 6s 5c", 1: layout}, rounds=3)
            assert hand.to_act() == (0,)  # kings showing open
            hand.bet(0, 100)
            seat = 1
            d = Bot(seat, random.Random(seed), samples=200, level=level).decide(
                hand, _knowledge(seat, cards)
            )
            assert is_legal(hand, seat, d)
            answers[name][d.kind] += 1
    assert answers["quads"][ActionKind.FOLD] == 0
    # A strong made hand raises more often than a merely good one.
    assert answers["quads"][ActionKind.RAISE] >= 10
    assert answers["quads"][ActionKind.RAISE] > answers["made"][ActionKind.RAISE]
    assert answers["nothing"][ActionKind.FOLD] == 20
    if level == "easy":
        assert answers["made"][ActionKind.FOLD] == 0
    # Normal and hard read a bet from a player they know nothing of as one from its best
    # third of hands: trips against a pair of kings showing may fold (see test_bots_levels).


@pytest.mark.parametrize("structure", list(BettingStructure))
def test_the_showdown_winner_never_folds_and_the_loser_never_calls(
    structure: BettingStructure,
) -> None:
    for seed in range(5):
        hand, cards = _betting_hand({0: MADE, 1: OTHER}, rounds=5, structure=structure)
        opener = hand.to_act()[0]
        assert opener == 0
        d = _bot(0, seed).decide(hand, _knowledge(0, cards))
        assert d.kind in (ActionKind.BET, ActionKind.ALL_IN) and is_legal(hand, 0, d)
        apply_decision(hand, 0, d)
        d = _bot(1, seed).decide(hand, _knowledge(1, cards))
        assert d.kind is ActionKind.FOLD


def test_bet_sizes_stay_within_the_options() -> None:
    for structure in BettingStructure:
        for seed in range(10):
            hand, cards = _betting_hand(
                {0: MADE, 1: OTHER, 2: "Tc Td 4c 4h 2c"}, rounds=2, structure=structure
            )
            seat = hand.to_act()[0]
            d = _bot(seat, seed).decide(hand, _knowledge(seat, cards))
            assert is_legal(hand, seat, d), d


def test_betting_without_a_layout_uses_the_cards_showing() -> None:
    hand, cards = _betting_hand({0: MADE, 1: "Qc Jd 8h 6s 5c 4c 3c"[:14]}, rounds=2)
    bare = Knowledge(0, cards[0])
    layout = _bot(0).layout_cards(hand, bare)
    assert layout[:2] == hand.showing(0) and set(layout) == set(cards[0])
    assert is_legal(hand, 0, _bot(0).decide(hand, bare))


# --- refusing what does not fit ------------------------------------------------------------


def test_bad_knowledge_is_refused() -> None:
    hand, cards = _betting_hand({0: MADE, 1: OTHER}, rounds=2)
    bot = _bot(0)
    with pytest.raises(BotError):
        bot.decide(hand, Knowledge(1, cards[1], layout=cards[1]))  # another seat's knowledge
    with pytest.raises(BotError):
        bot.decide(hand, Knowledge(0, cards[0][:4]))  # too few cards
    with pytest.raises(BotError):
        bot.decide(hand, Knowledge(0, cards[0], layout=cards[0][::-1]))  # order contradicts
    with pytest.raises(BotError):
        bot.decide(hand, Knowledge(0, cards[1]))  # its showing cards are not in its hand
    with pytest.raises(BotError):
        _bot(5).decide(hand, Knowledge(5, cards[0]))  # not in the hand
    with pytest.raises(BotError):
        _bot(1).decide(hand, _knowledge(1, cards))  # the hand waits for seat 0


def test_nothing_to_decide_in_reveal_or_after_the_hand() -> None:
    hand = _layout_hand()
    for seat in hand.seats:
        hand.lay_out(seat)
    assert hand.phase is Phase.REVEAL
    with pytest.raises(BotError):
        _bot(1).decide(hand, Knowledge(1, _cards("Ah 7c 4d 3s 2h")))


def test_illegal_decisions_are_refused_by_the_engine() -> None:
    hand, _ = _betting_hand({0: MADE, 1: OTHER}, rounds=1)
    tampered = [
        Decision(ActionKind.BET, amount=10_000),
        Decision(ActionKind.BET, amount=1),
        Decision(ActionKind.RAISE, amount=50),
        Decision(ActionKind.CALL),
        Decision(ActionKind.OFFER, k=2),
        Decision(ActionKind.CHOOSE_TRADE_CARDS, positions=(0, 1)),
        Decision(ActionKind.LAY_OUT, positions=(0, 1, 2, 3, 4)),
    ]
    for decision in tampered:
        assert not is_legal(hand, 0, decision)
        with pytest.raises(IllegalAction):
            apply_decision(hand, 0, decision)
    assert not is_legal(hand, 1, Decision(ActionKind.CHECK))
    assert is_legal(hand, 0, Decision(ActionKind.CHECK))


def test_the_same_seed_makes_the_same_decisions() -> None:
    def run(seed: int) -> list[Decision]:
        out = []
        for rounds in (1, 3, 5):
            hand, cards = _betting_hand(
                {0: MADE, 1: OTHER, 2: NOTHING.replace("Ah", "Ac").replace("2h", "2c")}, rounds
            )
            seat = hand.to_act()[0]
            out.append(_bot(seat, seed).decide(hand, _knowledge(seat, cards)))
        return out

    assert run(3) == run(3)
