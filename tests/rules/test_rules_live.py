"""The live-deck games at the rules level (SPEC 3.14): a dealer that knows every card plays
random hands of each game; after every step each card is in exactly one place, the chips are
conserved, and the showdown pays the hand the formation says. Then the forfeit settlement."""

from __future__ import annotations

import random

import pytest

from p2pwillow import evaluators
from p2pwillow.bots.live_arena import LiveDealer
from p2pwillow.cards import DECK, Card
from p2pwillow.games.live_deck import (
    FIVE_CARD_DRAW,
    FIVE_CARD_STUD,
    HOLDEM,
    LIVE_DECK_GAMES,
    SEVEN_CARD_STUD,
)
from p2pwillow.rules import (
    ActionKind,
    Announcement,
    GameSpec,
    Hand,
    HandEnded,
    IllegalAction,
    Phase,
    TableConfig,
)
from p2pwillow.rules.events import BettingOpened, Drew, HandForfeited, StreetDealt
from p2pwillow.rules.live import (
    BOARD,
    DOWN,
    Deal,
    Draw,
    Formation,
    Opened,
    Settle,
    hand_value,
)

GAMES = tuple(g.name for g in LIVE_DECK_GAMES)


def config(**kw: object) -> TableConfig:
    return TableConfig(games=GAMES, ante=5, **kw)  # type: ignore[arg-type]


class Dealer(LiveDealer):
    """The arena's trusted dealer, which knows every card: the deck in its shuffled order and
    where each went; the up cards are the cards dealt that are not down."""

    @property
    def up(self) -> dict[int, list[Card]]:
        return {
            x: [c for c in cards if c not in self.down.get(x, [])] for x, cards in self.held.items()
        }

    def check_places(self, hand: Hand) -> None:
        places = [
            *(c for cards in self.down.values() for c in cards),
            *(c for cards in self.up.values() for c in cards),
            *self.board,
            *self.burned,
            *self.muck,
            *self.deck[self.pointer :],
        ]
        assert sorted(places) == sorted(DECK)
        s = hand.snapshot()
        assert s.board == self.board
        for x in hand.seats:
            # the rules know a seat's up cards (and its down ones once shown), no more
            assert hand.showing(x)[: len(self.up.get(x, []))] == tuple(self.up.get(x, []))


def play(
    game: GameSpec, seats: int, seed: int, cfg: TableConfig | None = None
) -> tuple[Hand, Dealer]:
    rng = random.Random(seed)
    cfg = cfg or config()
    order = list(range(seats))
    hand = Hand(cfg, order, [rng.randrange(40, 400) for _ in order], dealer=seats - 1)
    total = sum(hand.stack(x) for x in order)
    deck = list(DECK)
    rng.shuffle(deck)
    dealer = Dealer(deck)
    hand.announce(hand.dealer, Announcement.of(game))
    while not hand.is_over:
        phase = hand.phase
        if phase in (Phase.DEAL, Phase.STREET):
            hand.act(ActionKind.STREET, hand.dealer, dealer.street(hand))
        elif phase is Phase.DRAW:
            (x,) = hand.to_act()
            step = hand.step
            assert isinstance(step, Draw)
            held = dealer.down[x]
            positions = tuple(sorted(rng.sample(range(len(held)), rng.randint(0, step.most))))
            with pytest.raises(IllegalAction):
                hand.act(ActionKind.DRAW, x, tuple(range(step.most + 1)))
            hand.act(ActionKind.DRAW, x, positions)
            gone = [held[p] for p in positions]
            dealer.muck += gone
            dealer.down[x] = [c for c in held if c not in gone]
            dealer.held[x] = [c for c in dealer.held[x] if c not in gone]
        elif phase is Phase.SHOW:
            for x in hand.to_act():
                hidden = tuple(dealer.down[x])
                # the proof binds which cards (SPEC 5.16); the rules refuse a card already
                # showing and a show of the wrong size
                seen = hand.showing(x)[:1] or tuple(dealer.board[:1])
                for bad in (hidden[:-1], seen + hidden[1:]):
                    with pytest.raises(IllegalAction):
                        hand.act(ActionKind.SHOW, x, bad)
                hand.act(ActionKind.SHOW, x, hidden)
        else:
            assert phase is Phase.BETTING
            (x,) = hand.to_act()
            legal = sorted(hand.legal_actions(x), key=lambda k: k.value)
            # fold one time in ten, so that hands reach the showdown as well as end early
            stay = [k for k in legal if k is not ActionKind.FOLD] or legal
            kind = rng.choice(legal if rng.random() < 0.1 else stay)
            o = hand.bet_options(x)
            if kind is ActionKind.BET:
                assert o is not None
                hand.act(kind, x, o.bet_min)
            elif kind is ActionKind.RAISE:
                assert o is not None
                hand.act(kind, x, o.raise_min)
            else:
                hand.act(kind, x)
        dealer.check_places(hand)
        assert sum(hand.stack(x) for x in order) + hand.pot == total
    return hand, dealer


@pytest.mark.parametrize("game", LIVE_DECK_GAMES, ids=lambda g: g.name)
@pytest.mark.parametrize("seats", [2, 5])
def test_random_hands_keep_every_card_in_one_place_and_pay_the_best_hand(
    game: GameSpec, seats: int
) -> None:
    showdowns = 0
    for seed in range(30):
        hand, dealer = play(game, seats, seed)
        result = hand.result
        assert result is not None
        if hand.snapshot().step == len(game.script) - 1:
            showdowns += 1
            in_hand = [x for x in hand.seats if not hand.is_folded(x)]
            settle = game.script[-1]
            assert isinstance(settle, Settle)
            formation = settle.formation
            values = {
                x: hand_value(formation, dealer.down[x] + dealer.up.get(x, []), dealer.board)
                for x in in_hand
            }
            best = max(values.values())
            main = result.awards[0]
            eligible = [x for x in main.pot.eligible if x in values]
            assert set(main.winners) == {
                x for x in eligible if values[x] == max(values[y] for y in eligible)
            }
            assert best >= 0
    assert showdowns > 3  # random betting reaches the showdown often enough to test it


def test_holdem_deals_two_down_then_burns_and_turns_five_to_the_board() -> None:
    hand, dealer = play(HOLDEM, 3, 7)
    events = [e for e in hand.events if isinstance(e, StreetDealt)]
    assert events[0].down == 2 and events[0].board == ()
    assert [len(e.board) for e in events[1:]] == [3, 1, 1][: len(events) - 1]
    assert len(dealer.burned) == len(events) - 1


def test_omaha_pays_exactly_two_hole_cards_and_three_of_the_board() -> None:
    # Four hearts in the hand and one on the board is no flush in Omaha
    hole = [Card.parse(c) for c in ("Ah", "Kh", "Qh", "Jh")]
    board = [Card.parse(c) for c in ("2h", "7c", "8d", "9s", "3c")]
    assert hand_value(Formation.OMAHA, hole, board) == evaluators.omaha_high(hole, board)
    assert hand_value(Formation.OMAHA, hole, board) < evaluators.best_high(hole + board)


def test_seven_card_stud_seats_eight_with_one_community_card_at_the_end() -> None:
    assert SEVEN_CARD_STUD.seats_for({}) == 8
    cfg = config(seats=8)
    checked = 0
    for seed in range(40):
        hand, _dealer = play(SEVEN_CARD_STUD, 8, seed, cfg)
        streets = [e for e in hand.events if isinstance(e, StreetDealt)]
        if len(streets) == 5 and len([x for x in hand.seats if not hand.is_folded(x)]) == 8:
            # 8 x 6 = 48 cards, then 4 left: not enough for one each, so one goes to the board
            assert streets[-1].down == 0 and len(streets[-1].board) == 1
            checked += 1
    if not checked:
        # nobody folded in none of the hands: play the last street by hand instead
        hand = Hand(cfg, list(range(8)), [1000] * 8, dealer=7)
        hand.announce(7, Announcement.of(SEVEN_CARD_STUD))
        step = SEVEN_CARD_STUD.script[8]
        s = hand.snapshot()
        s.used = 48
        assert isinstance(step, Deal)
        assert step.destinations(s) == ((BOARD, None),)


def test_five_card_stud_opens_on_the_highest_card_showing() -> None:
    hand, dealer = play(FIVE_CARD_STUD, 4, 3)
    first_up = {x: dealer.up[x][0] for x in dealer.up}
    opened = next(e for e in hand.events if isinstance(e, BettingOpened))
    best = max(first_up.values(), key=lambda c: (c.rank, c.suit))
    assert opened.opener in {x for x, c in first_up.items() if c.rank == best.rank}


def test_a_street_that_opens_other_cards_than_the_deal_says_is_refused() -> None:
    hand = Hand(config(), [0, 1, 2], [100] * 3, dealer=2)
    hand.announce(2, Announcement.of(SEVEN_CARD_STUD))
    dealer = Dealer(list(DECK))
    opened = dealer.street(hand)
    for bad in (
        Opened(opened.up[:-1], ()),
        Opened(opened.up, (DECK[40],)),
        Opened(((0, (DECK[1], DECK[2])), *opened.up[1:]), ()),
        Opened(((0, opened.up[1][1]), *opened.up[1:]), ()),
    ):
        with pytest.raises(IllegalAction):
            hand.act(ActionKind.STREET, 2, bad)
    hand.act(ActionKind.STREET, 2, opened)
    assert hand.phase is Phase.BETTING


# --- folds, stalls and the forfeit settlement ----------------------------------------------


def _to_flop(seats: int = 3) -> tuple[Hand, Dealer]:
    hand = Hand(config(), list(range(seats)), [100] * seats, dealer=seats - 1)
    hand.announce(hand.dealer, Announcement.of(HOLDEM))
    dealer = Dealer(list(DECK))
    hand.act(ActionKind.STREET, hand.dealer, dealer.street(hand))
    return hand, dealer


def test_a_player_who_folds_releases_its_key_and_the_deck_deals_on() -> None:
    hand, _dealer = _to_flop()
    first = hand.to_act()[0]
    hand.bet(first, hand.bet_options(first).bet_min)  # type: ignore[union-attr,arg-type]
    folder = hand.to_act()[0]
    hand.fold(folder)
    assert folder in hand.snapshot().released
    while hand.phase is Phase.BETTING:
        hand.call(hand.to_act()[0])
    assert hand.phase is Phase.STREET
    assert all(to != DOWN or seat != folder for to, seat in hand.step.destinations(hand.snapshot()))  # type: ignore[union-attr]


def test_a_player_timed_out_of_the_hand_forfeits_when_the_deck_must_deal() -> None:
    hand, _dealer = _to_flop()
    a = hand.to_act()[0]
    hand.bet(a, 25)
    b = hand.to_act()[0]
    hand.call(b)
    c = hand.to_act()[0]
    hand.timeout(c)  # its clock ran out: folded, but it never released its key
    assert hand.is_folded(c) and c not in hand.snapshot().released
    assert hand.is_over  # the flop cannot be dealt without c's key
    forfeit = [e for e in hand.events if isinstance(e, HandForfeited)]
    assert forfeit and forfeit[0].silent == (c,)
    result = hand.result
    assert result is not None
    # c loses its ante; a and b take back what they put in (ante and bet) and share c's ante
    assert result.net(c) == -5
    assert result.net(a) + result.net(b) == 5 and abs(result.net(a) - result.net(b)) <= 1


def test_a_key_holder_stalling_in_a_deal_step_forfeits_its_stake() -> None:
    hand, _dealer = _to_flop(4)
    while hand.phase is Phase.BETTING:
        x = hand.to_act()[0]
        hand.call(x) if hand.can_call(x) else hand.check(x)
    assert hand.phase is Phase.STREET
    staller = 1
    hand.stall(staller)
    assert hand.is_over
    result = hand.result
    assert result is not None
    assert result.net(staller) == -5
    assert sum(result.net(x) for x in range(4)) == 0
    assert all(result.net(x) >= 1 for x in range(4) if x != staller)


def test_a_player_that_does_not_show_is_folded_and_the_others_settle() -> None:
    hand, dealer = _to_flop(3)
    while hand.phase is not Phase.SHOW:
        if hand.phase is Phase.BETTING:
            x = hand.to_act()[0]
            hand.check(x)
        else:
            hand.act(ActionKind.STREET, hand.dealer, dealer.street(hand))
    hand.act(ActionKind.SHOW, 0, tuple(dealer.down[0]))
    hand.stall(1)
    assert hand.phase is Phase.SHOW
    hand.act(ActionKind.SHOW, 2, tuple(dealer.down[2]))
    assert hand.is_over
    ended = [e for e in hand.events if isinstance(e, HandEnded)]
    assert ended and all(1 not in a.winners for a in ended[0].result.awards)


def test_every_live_deck_game_describes_itself_with_its_steps() -> None:
    for game in LIVE_DECK_GAMES:
        described = game.describe()
        script = described["script"]
        assert isinstance(script, list)
        kinds = [step["step"] for step in script]
        assert kinds[0] == "deal" and kinds[-2:] == ["show-cards", "settle"]


def test_five_card_draw_deals_each_player_as_many_as_it_discarded() -> None:
    drew = 0
    for seed in range(20):
        hand, dealer = play(FIVE_CARD_DRAW, 4, seed)
        draws = {e.seat: e.count for e in hand.events if isinstance(e, Drew)}
        if hand.snapshot().step >= 3:  # past the draw
            drew += sum(draws.values())
            for x in hand.seats:
                if not hand.is_folded(x) or x in draws:
                    assert len(dealer.down[x]) == 5  # dealt back to five
    assert drew > 10


def test_a_draw_clock_that_runs_out_stands_pat() -> None:
    hand = Hand(config(), [0, 1, 2], [200] * 3, dealer=2)
    hand.announce(2, Announcement.of(FIVE_CARD_DRAW))
    dealer = Dealer(list(DECK))
    hand.act(ActionKind.STREET, 2, dealer.street(hand))
    while hand.phase is Phase.BETTING:
        hand.check(hand.to_act()[0])
    assert hand.phase is Phase.DRAW and hand.to_act() == (0,)
    hand.timeout(0)
    assert [e for e in hand.events if isinstance(e, Drew)][-1] == Drew(0, 0)
    assert hand.to_act() == (1,)


def test_a_seat_blamed_for_voiding_the_first_deal_pays_its_ante_to_the_others() -> None:
    """No free roll: a seat that holds its shares back until it has seen its own cards and
    then lets the hand fall loses its ante (SPEC 3.15)."""
    hand = Hand(config(), [0, 1, 2, 3], [100] * 4, dealer=3)
    hand.announce(3, Announcement.of(HOLDEM))
    assert hand.phase is Phase.DEAL
    hand.abort([2], "seat 2 held its deal shares back")
    result = hand.result
    assert result is not None and hand.is_over
    assert [result.net(x) for x in range(4)] == [2, 2, -5, 1]  # odd chip from the dealer's left
    assert "pays the ante" in "".join(map(str, hand.events[-1].words(str)))


def test_a_hand_voided_before_its_antes_costs_nobody_anything() -> None:
    hand = Hand(config(), [0, 1, 2], [100] * 3, dealer=2)
    hand.abort([1], "seat 1 sent no hand key")
    result = hand.result
    assert result is not None and all(result.net(x) == 0 for x in range(3))
