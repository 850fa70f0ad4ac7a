"""The bot's play of the split-pot games (SPEC 3.16): its share of a split pot, its fast lows
against the rules' evaluators, and its declaration on hands whose side is plain."""

from __future__ import annotations

import random

import pytest

from p2pwillow import evaluators
from p2pwillow.bots.live import LiveBot
from p2pwillow.bots.live_arena import LiveDealer, live_config
from p2pwillow.bots.split import _two, low_valuer, split_share
from p2pwillow.cards import DECK, Card
from p2pwillow.games.split_pot import HOLDEM_HIGH_LOW, OMAHA_HIGH_LOW
from p2pwillow.rules import ActionKind, Announcement, Hand, Phase
from p2pwillow.rules.live import Formation


def test_a_split_share_follows_the_sides_and_the_pig_rule() -> None:
    # (high, low): bigger is better, low 0 is no low
    best_both, high_only, low_only = (9, 5), (8, 0), (1, 4)
    assert split_share(best_both, "pig", [(*high_only, "high"), (*low_only, "low")]) == 1.0
    # a pig beaten on one side wins nothing
    assert split_share((7, 5), "pig", [(*high_only, "high"), (*low_only, "low")]) == 0.0
    # high against a low declarer: half the pot
    assert split_share(high_only, "high", [(*low_only, "low")]) == 0.5
    # no qualifying low anywhere: the high side takes the whole pot
    assert split_share(high_only, "high", [(3, 0, "low")]) == 1.0
    # a tie on a side shares that side
    assert split_share((8, 0), "high", [(8, 0, "high"), (1, 4, "low")]) == 0.25
    # before the declaration everyone contends for both sides, as the cards speak
    assert split_share((8, 3), None, [(9, 0, None)]) == 0.5


@pytest.mark.parametrize("formation", [Formation.HOLDEM, Formation.OMAHA])
def test_the_fast_low_orders_hands_as_the_evaluators_do(formation: Formation) -> None:
    rng = random.Random(3)
    low = low_valuer(formation)
    hole = 4 if formation is Formation.OMAHA else 2
    seen = 0
    for _ in range(3000):
        cards = rng.sample(DECK, hole + 5)
        own, board = cards[:hole], cards[hole:]
        if formation is Formation.OMAHA:
            want = evaluators.omaha_low(own, board)
        else:
            want = evaluators.holdem_low(own, board)
        got = low([c.index for c in own], [c.index for c in board])
        # the bot leaves out paired lows (the house allows them; they are rare): where it
        # finds a low, the evaluators find one too, and where they find none, it finds none
        if want is None or got:
            assert bool(got) == (want is not None), (own, board)
        seen += bool(got)
    assert seen > 300


def test_the_best_two_cards_in_the_hole_rank_a_pair_first_then_the_two_highest() -> None:
    def two(text: str) -> int:
        return _two([Card.parse(c).index for c in text.split()])

    assert two("") == two("As") == 0
    assert two("2c 2d") > two("As Ks")  # any pair beats any two without one
    assert two("3c 3d 9h 9s") == two("9h 9c") > two("8c 8d As")  # the highest pair counts
    assert two("As 2d Kh") == two("Ks Ad") > two("As Qd")
    rng = random.Random(7)
    for _ in range(2000):  # against the plain reading: the best pair, else the top two ranks
        hole = rng.sample(DECK, rng.randint(2, 4))
        ranks = sorted((c.rank for c in hole), reverse=True)
        pairs = [r for r in set(ranks) if ranks.count(r) >= 2]
        want = 1000 + max(pairs) if pairs else ranks[0] * 15 + ranks[1]
        assert _two([c.index for c in hole]) == want, hole


def _declaring(hole: list[str], board: list[str]) -> str:
    """The live bot's declaration in hold'em high-low, three-handed, holding `hole` with this
    board (the others' cards unknown to it)."""
    top = [Card.parse(c) for c in (*hole[:1], "Kd", "Qd", *hole[1:], "Jd", "Td")]
    flop = [Card.parse(c) for c in board]
    burns = [c for c in DECK if c not in top and c not in flop][:3]
    deck = [*top, burns[0], *flop[:3], burns[1], flop[3], burns[2], flop[4]]
    deck += [c for c in DECK if c not in deck]
    assert len(set(deck)) == len(DECK)
    hand = Hand(live_config(3), [0, 1, 2], [1000] * 3, dealer=2)
    hand.announce(2, Announcement.of(HOLDEM_HIGH_LOW))
    dealer = LiveDealer(deck)
    while hand.phase is not Phase.DECLARE:
        if hand.phase in (Phase.DEAL, Phase.STREET):
            hand.act(ActionKind.STREET, 2, dealer.street(hand))
        else:
            hand.check(hand.to_act()[0])
    bot = LiveBot(0, random.Random(1), samples=200)
    decision = bot.decide(hand, dealer.knowledge(0))
    assert decision.kind is ActionKind.DECLARE and decision.choice is not None
    return decision.choice


def test_the_bot_declares_the_side_its_hand_wins() -> None:
    assert _declaring(["As", "2d"], ["3c", "4h", "5s", "9c", "Kc"]) == "pig"  # the wheel
    assert _declaring(["Ac", "Ah"], ["As", "Kh", "Kc", "9d", "Jd"]) == "high"  # a full house
    assert _declaring(["2c", "3h"], ["Ac", "4d", "7s", "Qs", "Jh"]) == "low"  # the nut low only


def test_an_omaha_high_low_hand_of_bots_declares_and_settles() -> None:
    hand = Hand(live_config(3), [0, 1, 2], [1000] * 3, dealer=2)
    hand.announce(2, Announcement.of(OMAHA_HIGH_LOW))
    dealer = LiveDealer(list(DECK))
    bots = {x: LiveBot(x, random.Random(x), samples=16) for x in range(3)}
    chosen: dict[int, str] = {}
    while not hand.is_over:
        if hand.phase in (Phase.DEAL, Phase.STREET):
            hand.act(ActionKind.STREET, 2, dealer.street(hand))
        elif hand.phase is Phase.SHOW:
            x = hand.to_act()[0]
            hand.act(ActionKind.SHOW, x, dealer.face_down(hand, x))
        elif hand.phase is Phase.DECLARE and not hand.to_act():
            x = hand.ops()[0].seat
            hand.act(ActionKind.OPEN_DECLARATION, x, chosen[x])
        else:
            x = hand.to_act()[0]
            d = bots[x].decide(hand, dealer.knowledge(x))
            if d.kind is ActionKind.DECLARE:
                assert d.choice is not None
                chosen[x] = d.choice
            hand.act(d.kind, x, d.argument())
    assert hand.result is not None and hand.result.conserved
