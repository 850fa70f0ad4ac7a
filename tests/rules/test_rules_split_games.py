"""The split-pot games at the rules level (SPEC 3.16): the sealed declaration step (nobody's
choice is seen before every choice is sealed, one seal each, a clock that folds, a player
that never opens folded), the bet after it, the split of stacked hands from the rule text, and
a pot nobody wins carried over to the next hand and shared out at the game's end."""

from __future__ import annotations

import random

import pytest
from live_hands import wash

from p2pwillow import evaluators
from p2pwillow.bots.live_arena import LiveDealer
from p2pwillow.cards import DECK, Card
from p2pwillow.games.pass_the_card import PASS_THE_CARD
from p2pwillow.games.split_pot import (
    CHICAGO,
    GO_FOR_BROKE,
    HAWAII_FIVE_LOW,
    HOLDEM_HIGH_LOW,
    OMAHA_HIGH_LOW,
    SEATTLE_SIX,
    SPLIT_POT_GAMES,
)
from p2pwillow.rules import (
    ActionKind,
    Announcement,
    Game,
    GameSpec,
    Hand,
    IllegalAction,
    Phase,
    TableConfig,
)
from p2pwillow.rules.events import CardPassed, Declared, PotSplit, Sealed, Washed
from p2pwillow.rules.live import Formation, fives, hand_value

DECLARED = (*SPLIT_POT_GAMES, PASS_THE_CARD)
"""Every game with a declaration: the split-pot games and Pass the Card."""
GAMES = tuple(g.name for g in DECLARED)
SEAL, OPEN = ActionKind.DECLARE, ActionKind.OPEN_DECLARATION
PASS, KEEP = ActionKind.PASS_CARD, ActionKind.KEEP_CARD


def config(seats: int = 3) -> TableConfig:
    return TableConfig(seats=seats, games=GAMES, ante=5, starting_stack=100)


def stacked(*cards: str) -> list[Card]:
    """A deck whose first cards are these, in this order; the rest in the deck's order."""
    top = [Card.parse(c) for c in cards]
    return top + [c for c in DECK if c not in top]


def holdem_deck(p0: str, p1: str, p2: str, board: str) -> list[Card]:
    """Hold'em high-low for seats 0, 1, 2 (the dealer 2): the hole cards round by round, then
    a burn before the flop, the turn and the river."""
    a, b, c = (h.split() for h in (p0, p1, p2))
    f = board.split()
    burns = [
        x for x in ("2c", "2d", "2h", "2s", "3c", "3d") if x not in " ".join((p0, p1, p2, board))
    ]
    return stacked(
        a[0], b[0], c[0], a[1], b[1], c[1],
        burns[0], f[0], f[1], f[2], burns[1], f[3], burns[2], f[4],
    )  # fmt: skip


def to_declare(hand: Hand, dealer: LiveDealer) -> None:
    """Deal and check the hand through to the declaration."""
    while hand.phase is not Phase.DECLARE:
        if hand.phase in (Phase.DEAL, Phase.STREET):
            hand.act(ActionKind.STREET, hand.dealer, dealer.street(hand))
        else:
            assert hand.phase is Phase.BETTING
            hand.check(hand.to_act()[0])


def finish(hand: Hand, dealer: LiveDealer) -> None:
    """Check the bet after the declaration and show every hand still in."""
    while not hand.is_over:
        if hand.phase is Phase.BETTING:
            hand.check(hand.to_act()[0])
        else:
            assert hand.phase is Phase.SHOW
            for x in hand.to_act():
                hand.act(ActionKind.SHOW, x, dealer.face_down(hand, x))


def declared_hand(
    deck: list[Card], choices: dict[int, str], game: GameSpec = HOLDEM_HIGH_LOW
) -> Hand:
    hand = Hand(config(), [0, 1, 2], [100, 100, 100], dealer=2)
    hand.announce(2, Announcement.of(game))
    dealer = LiveDealer(deck)
    to_declare(hand, dealer)
    for x, choice in choices.items():
        hand.act(SEAL, x, choice)
    for x, choice in choices.items():
        hand.act(OPEN, x, choice)
    finish(hand, dealer)
    return hand


def splits(hand: Hand) -> list[PotSplit]:
    return [e for e in hand.events if isinstance(e, PotSplit)]


# --- the declaration ---------------------------------------------------------------------------


def test_declarations_are_sealed_by_all_before_any_opens_and_the_bet_follows() -> None:
    hand = Hand(config(), [0, 1, 2], [100, 100, 100], dealer=2)
    hand.announce(2, Announcement.of(HOLDEM_HIGH_LOW))
    dealer = LiveDealer(list(DECK))
    to_declare(hand, dealer)
    assert set(hand.to_act()) == {0, 1, 2}  # all at once, in any order
    hand.act(SEAL, 1)  # a sealed choice: the rules are told nothing but that it is in
    assert hand.events[-1] == Sealed(1)
    with pytest.raises(IllegalAction, match="declared already"):
        hand.act(SEAL, 1)
    with pytest.raises(IllegalAction, match="once every one is sealed"):
        hand.act(OPEN, 1, "high")  # nobody opens while a choice can still follow it
    with pytest.raises(IllegalAction, match="low, high or pig"):
        hand.verify(SEAL, 0, "both")
    hand.act(SEAL, 0)
    hand.act(SEAL, 2)
    assert hand.to_act() == ()  # nothing to decide: the sessions open
    assert [op.seat for op in hand.ops()] == [0, 1, 2]
    hand.act(OPEN, 2, "low")
    with pytest.raises(IllegalAction, match="no sealed declaration to open"):
        hand.act(OPEN, 2, "high")
    hand.act(OPEN, 0, "pig")
    hand.act(OPEN, 1, "high")
    assert hand.phase is Phase.BETTING  # every declaration is followed by a bet
    assert [e.choice for e in hand.events if isinstance(e, Declared)] == ["low", "pig", "high"]


def test_a_clock_that_runs_out_before_the_seal_folds_and_one_that_never_opens_is_folded() -> None:
    hand = Hand(config(), [0, 1, 2], [100, 100, 100], dealer=2)
    hand.announce(2, Announcement.of(OMAHA_HIGH_LOW))
    to_declare(hand, LiveDealer(list(DECK)))
    hand.act(SEAL, 0)
    hand.act(SEAL, 1)
    hand.timeout(2)  # its person was away: folded, its ante and bets stay in the pot
    assert hand.is_folded(2) and hand.phase is Phase.DECLARE
    hand.act(OPEN, 0, "high")
    hand.stall(1)  # sealed and never opened: folded, never a void hand
    assert hand.is_over and hand.result is not None
    assert hand.result.net(0) == 10 and hand.result.net(1) == hand.result.net(2) == -5


# --- the split of stacked hands ------------------------------------------------------------------


def test_a_pig_with_the_wheel_wins_both_sides_of_holdem_high_low() -> None:
    # seat 0's A-2 makes the wheel: the highest straight of a high-low game and the best low
    deck = holdem_deck("As 2d", "Kc Qh", "7d 8h", "3s 4d 5c Kd Ks")
    hand = declared_hand(deck, {0: "pig", 1: "high", 2: "low"})
    (split,) = splits(hand)
    assert split.high == (0,) and split.low == (0,) and not split.carried
    assert hand.result is not None and hand.result.net(0) == 10


def test_a_pig_that_loses_one_side_wins_nothing_and_the_sides_go_to_the_others() -> None:
    # seat 0 has the best low but seat 1's four kings beat its high: the pig is out
    deck = holdem_deck("As 2d", "Kc Kh", "7d 8h", "3s 4d 6c Kd Ks")
    hand = declared_hand(deck, {0: "pig", 1: "high", 2: "low"})
    (split,) = splits(hand)
    assert split.pigs_failed == (0,)
    assert split.high == (1,) and split.low == (2,)
    assert hand.result is not None
    assert (hand.result.net(0), hand.result.net(1), hand.result.net(2)) == (-5, 3, 2)


def test_without_a_qualifying_low_the_low_declarer_wins_nothing() -> None:
    deck = holdem_deck("9s 9d", "Kc Qh", "Jd Th", "3s 4d Tc Kd Qs")
    hand = declared_hand(deck, {0: "low", 1: "high", 2: "high"})
    (split,) = splits(hand)
    assert split.low == () and split.high == (1,)
    assert hand.result is not None and hand.result.net(1) == 10


def test_a_pot_nobody_wins_carries_over_to_the_next_hand_and_out_at_the_games_end() -> None:
    game = Game(config())
    for seat in range(3):
        game.join(seat, f"p{seat}", f"id{seat}")
    hand = game.start_hand()
    assert hand.dealer == 0
    # seats 1, 2, 0 in turn; seat 1 has the best high, seat 2 the best low, and both go pig:
    # each loses a side, so both fail; seat 0 folded: nobody is left to win
    deck = holdem_deck("Kc Kh", "As 2d", "9c 9h", "3s 4d 8c Kd Js")
    hand.announce(0, Announcement.of(HOLDEM_HIGH_LOW))
    dealer = LiveDealer(deck)
    hand.act(ActionKind.STREET, 0, dealer.street(hand))
    first = hand.to_act()[0]
    hand.check(first)
    hand.check(hand.to_act()[0])
    hand.fold(hand.to_act()[0])
    to_declare(hand, dealer)
    live = [x for x in hand.seats if not hand.is_folded(x)]
    for x in live:
        hand.act(SEAL, x, "pig")
    for x in live:
        hand.act(OPEN, x, "pig")
    finish(hand, dealer)
    (split,) = splits(hand)
    assert split.carried == 15 and split.high == split.low == ()
    result = game.end_hand()
    assert result.carried == 15 and result.conserved
    assert game.carried == 15 and game.chip_count().balanced
    assert sum(p.stack for p in game.players) == 285
    nxt = game.start_hand()
    assert nxt.carried_in == 15 and nxt.pot == 15  # the carry is in the next main pot
    nxt.announce(nxt.dealer, Announcement.of(HOLDEM_HIGH_LOW))
    nxt.act(ActionKind.STREET, nxt.dealer, LiveDealer(list(DECK)).street(nxt))
    folder = nxt.to_act()[0]
    nxt.fold(folder)
    nxt.fold(nxt.to_act()[0])  # the last player in takes every chip, the carry with them
    game.end_hand()
    assert game.carried == 0 and game.chip_count().balanced
    assert sum(p.stack for p in game.players) == 300


def test_the_carry_left_at_the_games_end_is_shared_among_the_last_hands_players() -> None:
    game = Game(config())
    for seat in range(3):
        game.join(seat, f"p{seat}", f"id{seat}")
    hand = game.start_hand()
    deck = holdem_deck("Kc Kh", "As 2d", "9c 9h", "3s 4d 8c Kd Js")
    hand.announce(0, Announcement.of(HOLDEM_HIGH_LOW))
    dealer = LiveDealer(deck)
    to_declare(hand, dealer)
    for x in hand.seats:
        hand.act(SEAL, x, "pig")
    for x in hand.seats:
        hand.act(OPEN, x, "pig")
    finish(hand, dealer)
    game.end_hand()
    assert game.carried == 15
    final = dict(game.final_stacks())
    # 15 shared by three: 5 each, the stacks as they were before the hand
    assert final == {0: 100, 1: 100, 2: 100}


@pytest.mark.parametrize("game", DECLARED, ids=lambda g: g.name)
def test_random_declared_hands_conserve_chips_with_the_carry(game: GameSpec) -> None:
    rng = random.Random(7)
    for _ in range(25):
        hand = Hand(config(4), [0, 1, 2, 3], [rng.randrange(30, 200) for _ in range(4)], dealer=3)
        total = sum(hand.stack(x) for x in hand.seats)
        deck = list(DECK)
        rng.shuffle(deck)
        dealer = LiveDealer(deck)
        hand.announce(3, Announcement.of(game))
        while not hand.is_over:
            if hand.phase is Phase.STREET and hand.to_act():
                # a pass street: a pass where the stack pays for it, at random (SPEC 3.19)
                seat = hand.to_act()[0]
                passes = hand.can(PASS, seat) and rng.random() < 0.5
                event = hand.act(PASS if passes else KEEP, seat)
                if isinstance(event, CardPassed):
                    dealer.give(event.seat, event.to, event.card)
            elif hand.phase in (Phase.DEAL, Phase.STREET):
                hand.act(ActionKind.STREET, 3, dealer.street(hand))
            elif hand.phase is Phase.DECLARE:
                if hand.to_act():
                    hand.act(SEAL, hand.to_act()[0])
                else:
                    hand.act(OPEN, hand.ops()[0].seat, rng.choice(["high", "low", "pig"]))
            elif hand.phase is Phase.SHOW:
                x = hand.to_act()[0]
                hand.act(ActionKind.SHOW, x, dealer.face_down(hand, x))
            elif hand.phase is Phase.DRAW:
                x = hand.to_act()[0]
                if ActionKind.KEEP_CALL in hand.legal_actions(x):
                    hand.act(ActionKind.KEEP_CALL, x)  # Five by Two: it says it keeps its cards
                else:
                    hand.act(ActionKind.DRAW, x, ())  # every player stands pat
            else:
                x = hand.to_act()[0]
                legal = hand.legal_actions(x)
                if ActionKind.FOLD in legal and rng.random() < 0.05:
                    hand.fold(x)
                elif ActionKind.CALL in legal:
                    hand.call(x)
                else:
                    hand.check(x)
            carried = hand.result.carried if hand.result is not None else 0
            assert sum(hand.stack(x) for x in hand.seats) + hand.pot + carried == total
        result = hand.result
        assert result is not None and result.conserved
        assert sum(result.final_stacks) + result.carried == total


def test_chicago_splits_the_high_hand_with_the_highest_spade_in_the_hole() -> None:
    # three-handed stud, dealer 2: two down and one up each, then three up, then one down
    p0 = ["Ah", "Kh", "2c", "3c", "Jd", "5d", "9h"]  # no pair, ace high
    p1 = ["Qs", "7d", "2d", "3d", "8h", "Tc", "Jh"]  # the queen of spades in the hole
    p2 = ["Kc", "Kd", "6c", "7c", "8c", "9d", "As"]  # kings, and the ace of spades dealt last, down
    order = [c for rnd in zip(p0, p1, p2, strict=True) for c in rnd]
    hand = Hand(config(), [0, 1, 2], [100, 100, 100], dealer=2)
    hand.announce(2, Announcement.of(CHICAGO))
    dealer = LiveDealer(stacked(*order))
    to_declare(hand, dealer)
    for x, choice in ((0, "high"), (1, "low"), (2, "pig")):
        hand.act(SEAL, x, choice)
    for x, choice in ((0, "high"), (1, "low"), (2, "pig")):
        hand.act(OPEN, x, choice)
    finish(hand, dealer)
    (split,) = splits(hand)
    # seat 2 holds the best high (kings) and the ace of spades in the hole: it wins both ways
    assert split.high == (2,) and split.low == (2,) and not split.pigs_failed
    assert hand.result is not None and hand.result.net(2) == 10


def test_a_chicago_spade_showing_face_up_does_not_count() -> None:
    p0 = ["Kh", "Kd", "2s", "3c", "4c", "5d", "9h"]  # kings; the two of spades face up
    p1 = ["Qh", "7d", "As", "3d", "8h", "Tc", "4s"]  # the ace of spades face up, the four down
    p2 = ["Jc", "9c", "6c", "7c", "8c", "9d", "2h"]
    order = [c for rnd in zip(p0, p1, p2, strict=True) for c in rnd]
    hand = Hand(config(), [0, 1, 2], [100, 100, 100], dealer=2)
    hand.announce(2, Announcement.of(CHICAGO))
    dealer = LiveDealer(stacked(*order))
    to_declare(hand, dealer)
    for x in (0, 1, 2):
        hand.act(SEAL, x)
    for x, choice in ((0, "pig"), (1, "low"), (2, "high")):
        hand.act(OPEN, x, choice)
    finish(hand, dealer)
    (split,) = splits(hand)
    # seat 0 has no spade in the hole: its pig fails; seat 1's four of spades takes the side
    assert split.pigs_failed == (0,)
    assert split.low == (1,) and split.high == (2,)


# --- the wash (SPEC 3.17) ------------------------------------------------------------------


def _to_wash(stacks: list[int]) -> tuple[Hand, LiveDealer]:
    hand = Hand(config(), [0, 1, 2], stacks, dealer=2)
    hand.announce(2, Announcement.of(SEATTLE_SIX))
    dealer = LiveDealer(list(DECK))
    while hand.phase is not Phase.DRAW:
        if hand.phase in (Phase.DEAL, Phase.STREET):
            hand.act(ActionKind.STREET, 2, dealer.street(hand))
        else:
            hand.check(hand.to_act()[0])
    return hand, dealer


def test_a_wash_is_paid_for_and_replaced_face_up_or_down_as_the_card_washed() -> None:
    hand, dealer = _to_wash([100, 100, 100])
    pot = hand.pot
    assert hand.to_act() == (0,)  # in table order from the dealer's left
    with pytest.raises(IllegalAction, match="one card"):
        hand.act(ActionKind.DRAW, 0, (0, 1))
    up = hand.showing(0)
    hand.act(ActionKind.DRAW, 0, (2 + 1,))  # its second face-up card (two face down first)
    washed = hand.events[-1]
    assert isinstance(washed, Washed) and washed.card == up[1] and washed.paid == 20
    assert hand.stack(0) == 75 and hand.pot == pot + 20 and hand.showing(0) == (up[0], *up[2:])
    hand.act(ActionKind.DRAW, 1, (0,))  # a face-down card
    hand.timeout(2)  # a clock that runs out at the wash keeps the cards and pays nothing
    assert hand.stack(2) == 95 and hand.phase is Phase.STREET
    dests = hand.step.destinations(hand.snapshot())  # type: ignore[union-attr]
    assert dests == (("up", 0), ("down", 1))
    hand.act(ActionKind.STREET, 2, dealer.street(hand))
    assert len(hand.showing(0)) == 4 and len(hand.showing(1)) == 4
    assert hand.hand_size(0) == hand.hand_size(1) == hand.hand_size(2) == 6


def test_a_player_who_cannot_pay_for_a_wash_keeps_its_cards() -> None:
    hand, _dealer = _to_wash([100, 20, 100])  # seat 1 has 15 chips behind after the ante
    hand.act(ActionKind.DRAW, 0, ())
    with pytest.raises(IllegalAction, match="a wash costs 20 chips"):
        hand.act(ActionKind.DRAW, 1, (0,))
    hand.act(ActionKind.DRAW, 1, ())


def _five_stud(
    game: GameSpec, hands: tuple[list[str], ...], stacks: list[int] | None = None
) -> tuple[Hand, LiveDealer]:
    """Five-card stud, three-handed, dealer 2, to its wash: each hand in deal order (down, up,
    up, up, down)."""
    order = [c for rnd in zip(*hands, strict=True) for c in rnd]
    hand = Hand(config(), [0, 1, 2], stacks or [200, 200, 200], dealer=2)
    hand.announce(2, Announcement.of(game))
    dealer = LiveDealer(stacked(*order))
    while hand.phase is not Phase.DRAW:
        if hand.phase in (Phase.DEAL, Phase.STREET):
            hand.act(ActionKind.STREET, 2, dealer.street(hand))
        else:
            hand.check(hand.to_act()[0])
    return hand, dealer


def _settle(hand: Hand, dealer: LiveDealer, choices: dict[int, str]) -> PotSplit:
    while hand.phase is Phase.DRAW:
        hand.act(ActionKind.DRAW, hand.to_act()[0], ())
    while hand.phase is not Phase.DECLARE:
        if hand.phase in (Phase.DEAL, Phase.STREET):
            hand.act(ActionKind.STREET, 2, dealer.street(hand))
        else:
            hand.check(hand.to_act()[0])
    for x, choice in choices.items():
        hand.act(SEAL, x, choice)
    for x, choice in choices.items():
        hand.act(OPEN, x, choice)
    finish(hand, dealer)
    (split,) = splits(hand)
    return split


def test_go_for_broke_washes_by_the_lowest_sum_showing_and_splits_high_with_the_lowest_sum() -> (
    None
):
    p0 = ["Kh", "Ks", "Kd", "9c", "2h"]  # three kings: the high; showing K-K-9, sum 9
    p1 = ["Th", "Ac", "Jc", "Qd", "Js"]  # sum 1: the lowest; showing A-J-Q, sum 1
    p2 = ["5d", "6s", "7d", "8s", "4h"]  # showing 6-7-8, sum 21
    hand, dealer = _five_stud(GO_FOR_BROKE, (p0, p1, p2))
    assert hand.snapshot().wash_order == (1, 0, 2)  # sums showing 1, 9, 21
    assert hand.to_act() == (1,)
    wash(hand, dealer, 1, (0,))  # a face-down card: four antes
    assert hand.stack(1) == 200 - 5 - 20
    wash(hand, dealer, 0, (2,))  # a face-up card: two antes
    assert hand.stack(0) == 200 - 5 - 10
    split = _settle(hand, dealer, {0: "high", 1: "low", 2: "pig"})
    # seat 2's straight beats the high, but its sum (30) is no match for seat 1's: the pig
    # fails, and each side goes to its one declarer left
    assert split.pigs_failed == (2,) and split.high == (0,) and split.low == (1,)
    assert hand.snapshot().hole[1][0] != Card.parse("Th")  # the washed card was replaced


def test_hawaii_splits_the_best_two_hole_cards_with_the_ace_to_five_low() -> None:
    p0 = ["Ah", "Ks", "Qd", "Jc", "As"]  # aces in the hole: the best two hole cards
    p1 = ["2h", "3c", "4d", "5s", "7h"]  # 7-5-4-3-2: the low
    p2 = ["9d", "9s", "8d", "Ts", "6h"]
    hand, dealer = _five_stud(HAWAII_FIVE_LOW, (p0, p1, p2))
    # the lowest cards showing first: seat 1's 5-4-3
    assert hand.snapshot().wash_order[0] == 1
    split = _settle(hand, dealer, {0: "high", 1: "low", 2: "pig"})
    assert split.high == (0,) and split.low == (1,) and split.pigs_failed == (2,)


def test_double_spit_plays_both_spit_cards_or_neither() -> None:
    own = [Card.parse(c) for c in ("Ah", "Ad", "Kc", "7s", "3d")]
    board = [Card.parse(c) for c in ("As", "2c")]
    # both spit cards: three aces needs A-A of its own with A-2 of the board: A-A-A-2 and one
    # more, the king; one spit card alone (the ace, for three aces and K-7) is not a hand
    made = fives(Formation.BOTH_OR_NEITHER, own, board)
    assert all(len(five) == 5 for five in made)
    assert all(set(board) <= set(five) or not set(board) & set(five) for five in made)
    best = hand_value(Formation.BOTH_OR_NEITHER, own, board)
    assert best == evaluators.best_high([own[0], own[1], own[2], *board])
    assert hand_value(Formation.BOTH_OR_NEITHER, own, board) < evaluators.best_high(
        [own[0], own[1], board[0], own[2], own[3]]
    )  # three aces with the king and the seven, had one spit card been enough
