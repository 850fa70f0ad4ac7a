"""Normal and hard against aggression: calling a relentless bettor down, reading an opponent's
layout from what it showed before, and trading less with a player who never folds."""

from __future__ import annotations

import random

import pytest
from bots_helpers import betting_hand, bettor, cards, folder

from p2pwillow.bots import Bot, OpponentModel, OpponentView, equity
from p2pwillow.bots.betting import HARD, NORMAL, Style, choose_bet
from p2pwillow.bots.equity import layout_draws
from p2pwillow.bots.opponents import PRIOR_SHOWN, Line, Read
from p2pwillow.games.weeping_willow.bot import HEADS_UP_MARGIN, OFFER_MARGIN
from p2pwillow.hands import rank5
from p2pwillow.rules import ActionKind, Hand

RELENTLESS = Read(
    line=Line.BET,
    factor=1.0,
    aggression=0.95,
    fold_rate=0.05,
    tracking=0.0,
    bet_size=100.0,
    showdowns=20,
)
"""A player seen to bet the most in nearly every hand and to fold almost never."""

CAREFUL = Read(
    line=Line.BET,
    factor=3.0,
    aggression=0.3,
    fold_rate=0.5,
    tracking=1.0,
    bet_size=30.0,
    showdowns=20,
)
"""A player seen to bet a third of its hands, with its good ones, and to fold half the time."""

WEAK = ["Ah 9d 6c 4h 2s", "Kh 8d 5c 3h 2c", "Qh 9d 6c 4s 3d", "Jh 8c 6d 4c 2d"]
OTHER = ["Ts 8s 6h 5s 3c", "Td 8h 6s 5d 3s", "Tc 8c 6h 5h 3h", "Th 8d 6s 5c 3c"]


def _facing_the_largest_bet(rounds: int) -> Hand:
    """Heads-up in round `rounds`: seat 1 checked and seat 0 bet the largest amount."""
    hand = betting_hand({0: "Kc 8h 6s 5c 2d", 1: "Ah 9c 9d 4s 2h"}, rounds)
    assert hand.to_act() == (1,)
    hand.check(1)
    hand.bet(0, 100)
    return hand


def _answer(hand: Hand, e: float, read: Read, style: Style, seed: int = 1) -> ActionKind:
    return choose_bet(hand, 1, e, {0: read}, style, random.Random(seed)).kind


@pytest.mark.parametrize("style", [NORMAL, HARD], ids=["normal", "hard"])
@pytest.mark.parametrize(("rounds", "e"), [(1, 0.42), (2, 0.42), (3, 0.3), (4, 0.3)])
def test_a_middling_hand_calls_a_relentless_bettor_and_folds_to_a_careful_one(
    style: Style, rounds: int, e: float
) -> None:
    # Late in the hand a bet from a player who bets everything is called with less: the
    # last card settles the hand, and the one bet left is small beside what is in the pot.
    hand = _facing_the_largest_bet(rounds)
    for seed in range(5):
        assert _answer(hand, e, RELENTLESS, style, seed) is ActionKind.CALL
        assert _answer(hand, e, CAREFUL, style, seed) is ActionKind.FOLD
        # Junk still folds: the plan weighs what calling down costs.
        assert _answer(hand, 0.08, RELENTLESS, style, seed) is ActionKind.FOLD


@pytest.mark.parametrize("style", [NORMAL, HARD], ids=["normal", "hard"])
def test_a_good_hand_builds_the_pot_against_a_relentless_bettor(style: Style) -> None:
    # In round 4 a hand that is more likely ahead than not raises the most: every chip the
    # bettor puts in after it is paid at better than even.
    hand = _facing_the_largest_bet(4)
    o = hand.bet_options(1)
    assert o is not None
    for seed in range(5):
        decision = choose_bet(hand, 1, 0.6, {0: RELENTLESS}, style, random.Random(seed))
        assert decision.kind is ActionKind.RAISE and decision.amount == o.raise_max


# --- the ranked sampler --------------------------------------------------------------------


def _view(
    showing: str, best_of: float, shown: tuple[float, ...] = (), shown_weight: float = 0.0
) -> OpponentView:
    """A five-card hand showing `showing` that the model reads as the best of `best_of`."""
    factor = best_of / layout_draws(len(cards(showing)), 5, 0)
    return OpponentView(cards(showing), 5, factor=factor, shown=shown, shown_weight=shown_weight)


def _best_of_independent_deals(mine: str, showing: str, d: int, samples: int) -> float:
    """The share that `mine` wins against the best of `d` independent random completions of
    `showing`, counted directly."""
    rng = random.Random(9)
    mine_key = rank5([c.index for c in cards(mine)])
    shown = [c.index for c in cards(showing)]
    pool = [i for i in range(52) if i not in shown and i not in {c.index for c in cards(mine)}]
    won = 0.0
    for _ in range(samples):
        best = max(rank5(shown + rng.sample(pool, 5 - len(shown))) for _ in range(d))
        won += 1.0 if mine_key > best else 0.5 if mine_key == best else 0.0
    return won / samples


@pytest.mark.parametrize("best_of", [1, 4, 10])
def test_the_ranked_sampler_draws_the_best_of_independent_deals(best_of: int) -> None:
    mine, showing = "Qs Qd 9h 6c 3s", "Kh 7d"
    view = _view(showing, best_of)
    assert view.best_of == pytest.approx(best_of)
    # Each call ranks its own few hundred deals: average a few calls.
    ranked = sum(
        equity(cards(mine), [view], (), random.Random(seed), 300, ranked=True) for seed in range(12)
    )
    expected = _best_of_independent_deals(mine, showing, best_of, 3000)
    assert abs(ranked / 12 - expected) < 0.03, (ranked / 12, expected)


def test_a_stronger_read_and_stronger_shown_layouts_lower_the_equity() -> None:
    mine = cards("Qs Qd 9h 6c 3s")

    def share(view: OpponentView) -> float:
        return equity(mine, [view], (), random.Random(5), 3000, ranked=True)

    assert share(_view("Kh 7d", 1.0)) > share(_view("Kh 7d", 20.0)) + 0.1
    strong = _view("Kh 7d", 1.0, shown=(0.97,) * 30, shown_weight=1.0)
    weak = _view("Kh 7d", 1.0, shown=(0.05,) * 30, shown_weight=1.0)
    assert share(weak) > 0.85 and share(strong) < 0.3, (share(weak), share(strong))
    # Believed a quarter of the time, the shown layouts move the share a quarter of the way.
    partly = _view("Kh 7d", 1.0, shown=(0.97,) * 30, shown_weight=0.25)
    plain, low = share(_view("Kh 7d", 1.0)), share(strong)
    assert abs(share(partly) - (plain + 0.25 * (low - plain))) < 0.05


# --- what an opponent showed ---------------------------------------------------------------


def test_the_model_keeps_the_layouts_each_opponent_showed_by_round_and_line() -> None:
    model = OpponentModel(0, random.Random(1))
    for i in range(6):
        model.observe(betting_hand({0: OTHER[i % 4], 1: WEAK[i % 4]}, 6, script=bettor(1)))
    # A layout left face up by a fold after the last card counts as shown as well.
    for i in range(3):
        script = folder(0, 1, from_round=5)
        model.observe(betting_hand({0: OTHER[i], 1: WEAK[i]}, 6, script=script))
    now = betting_hand({0: OTHER[0], 1: WEAK[0]}, 2, script=bettor(1), number=50)
    model.observe(now)
    read = model.read(1)
    assert read.showdowns == 9
    assert read.line is Line.BET
    # Round 2 ended with seat 1 in the bet line in the six hands it bet, called in the three.
    assert len(read.shown) == 6
    assert all(0.0 < score < 1.0 for score in read.shown)
    assert sum(read.shown) / 6 < 0.5  # it bet junk
    assert read.shown_weight == pytest.approx(6 / (6 + PRIOR_SHOWN))
    waiting = OpponentModel(0, random.Random(1))
    assert waiting.read(1).shown == () and waiting.read(1).shown_weight == 0.0


# --- trading heads-up ----------------------------------------------------------------------


def test_heads_up_the_trade_margin_rises_with_how_rarely_the_opponent_folds() -> None:
    hand = betting_hand({0: OTHER[0], 1: WEAK[0]}, 1, number=40)
    margins = {}
    for name, script in (("calls", bettor(1)), ("folds", folder(1, 0))):
        bot = Bot(1, random.Random(2), level="normal")  # seat 1 bets, seat 0 calls or folds
        assert bot.model is not None
        for i in range(30):
            bot.model.observe(betting_hand({0: OTHER[i % 4], 1: WEAK[i % 4]}, 6, script=script))
        bot.model.observe(hand)
        margins[name] = bot.willow._margin(hand)
    assert margins["calls"] == pytest.approx(HEADS_UP_MARGIN, abs=0.01)
    assert OFFER_MARGIN < margins["folds"] < OFFER_MARGIN + 0.02
    assert Bot(1, random.Random(2), level="easy").willow._margin(hand) == OFFER_MARGIN
