"""The bot of the games dealt from the live deck (SPEC 3.14): seven- and five-card stud,
hold'em, Omaha, and any other game described with the live deck's steps.

Pure; no I/O; its randomness comes only from the `random.Random` it is given. It plays every
such game from its description alone: the game's script says how many cards each player and
the board still get (the `Deal` and `Street` steps still to come, with the rules' own
`destinations`, the seven-card stud overflow included), and its `Settle` step which
`Formation` makes a hand. The bot's equity is a Monte Carlo share of the pot over the cards it
cannot see: each opponent's face-down cards, everybody's cards still to come and the rest of
the board, drawn from the cards nobody has shown; then it bets, checks, calls, raises or folds
by that equity against the pot odds, as the Weeping Willow bot's `betting.choose_bet` does at
the same level, with what its `OpponentModel` has learned of each opponent's betting.

What it reads: the hand's public state (cards showing, the board, the betting) and its own
`Knowledge` (the cards its seat holds, down and up). It never asks for anything else, so a
table that gives it only its own seat's cards (`live_arena` does) keeps every other card from
it.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from p2pwillow import evaluators
from p2pwillow.bots.betting import HARD, NORMAL, choose_bet
from p2pwillow.bots.decision import BotError, Decision, Knowledge, check_seat, is_legal
from p2pwillow.bots.level import DEFAULT_LEVEL, Level, parse_level
from p2pwillow.bots.opponents import OpponentModel, Read
from p2pwillow.cards import DECK, Card
from p2pwillow.hands import rank5, rank6, rank7
from p2pwillow.limits import is_int
from p2pwillow.rules import ActionKind, GameSpec, Hand, Phase
from p2pwillow.rules.declare import SettleSplit
from p2pwillow.rules.live import BOARD, UP, Deal, Draw, Formation, Redeal, Settle, in_hand
from p2pwillow.rules.wash import Wash, wash_cost

__all__ = [
    "OMAHA_SAMPLES",
    "SAMPLES",
    "Deals",
    "LiveBot",
    "Outlook",
    "choose_draw",
    "deals",
    "formation_of",
    "is_live",
    "live_equity",
    "outlook",
    "valuer",
    "valuer_of",
]

SAMPLES = 200
"""Monte Carlo deals per betting decision: the share's standard error is at most 0.035, and a
decision costs about 10 to 20 ms on the first round of a four-handed hand (bench
`bots.live_decision`)."""

WASH_SAMPLES = 60
"""Deals behind a wash decision: each card's replacements share them (`split.choose_wash`)."""

OMAHA_SAMPLES = 60
"""The most deals per decision in a game of the Omaha formation: each hand is valued over 60
five-card hands (two of four hole cards times three of five on the board), so the same time
buys fewer deals."""

Valuer = Callable[[list[int], list[int]], int]
"""The value of one player's own cards and the board, as canonical card indices."""


def is_live(game: GameSpec | None) -> bool:
    """Whether `game` is dealt from the live deck (its script has a `Deal` step)."""
    return game is not None and any(isinstance(step, Deal) for step in game.script)


def formation_of(game: GameSpec) -> Formation:
    """Which cards make a hand of `game` at its showdown: its `Settle` step's formation."""
    for step in game.script:
        if isinstance(step, Settle | SettleSplit):
            return step.formation
    raise BotError(f"{game.name} has no showdown of the live deck")


def _best(cards: list[int]) -> int:
    n = len(cards)
    if n == 7:
        return rank7(cards)
    if n == 6:
        return rank6(cards)
    if n == 5:
        return rank5(cards)
    if n > 7:
        return max(map(rank7, combinations(cards, 7)))
    raise BotError(f"a hand is five cards or more, not {n}")


def _best_five(own: list[int], board: list[int]) -> int:
    return _best(own + board)


def _omaha(own: list[int], board: list[int]) -> int:
    triples = list(combinations(board, 3))
    return max(rank5([a, b, *three]) for a, b in combinations(own, 2) for three in triples)


def _both_or_neither(own: list[int], board: list[int]) -> int:
    best = max(rank5(list(five)) for five in combinations(own, 5))
    if board:
        best = max(best, *(rank5([*three, *board]) for three in combinations(own, 5 - len(board))))
    return best


def valuer(formation: Formation) -> Valuer:
    """`rules.live.hand_value` for the formation, on card indices and unchecked: the rules
    check every card they are given, which costs several times the ranking itself, and a
    bot's deals are distinct by construction (tests/bots/test_live_bots.py holds the two
    equal on random hands)."""
    if formation is Formation.BOTH_OR_NEITHER:
        return _both_or_neither
    return _omaha if formation is Formation.OMAHA else _best_five


def lowball(own: list[int], board: list[int]) -> int:
    """The ace-to-five low of a player's cards and the board (SPEC 2.7), pairs ranked as the
    rules rank them."""
    return evaluators.low_a5_indices(own + board)


def valuer_of(game: GameSpec) -> Valuer:
    """How `game`'s showdown values a hand: by its formation, or its ace-to-five low in a
    lowball game (`Settle.low`)."""
    if any(isinstance(step, Settle) and step.low for step in game.script):
        return lowball
    return valuer(formation_of(game))


# --- what the script still deals ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Outlook:
    """What is still to come in a hand, as the game's script deals it to the players now in:
    `each` cards to every player (face down or up: the bot cannot see either yet) and `board`
    cards to the board. Burned cards are never seen and change no one's chances."""

    each: int
    board: int
    seats: Mapping[int, int] = field(default_factory=dict, compare=False)
    """The cards still to come to each player now in: as `each`, but for a redeal after a
    wash, which deals only the players that washed."""
    up: Mapping[int, int] = field(default_factory=dict, compare=False)
    """How many of them come face up, to each player now in."""


def outlook(hand: Hand) -> Outlook:
    """The cards the rest of the script deals if nobody else folds: every `Deal` step after
    the current one, each placed by the rules' own `destinations` as the deck then stands
    (so seven-card stud's last card goes to the board when the deck cannot give one each)."""
    game = hand.game
    if game is None:
        raise BotError("no game announced yet")
    s = copy.copy(hand.state)  # its deck count moves on below, step by step: its own copy
    players = in_hand(s)
    first = s.step if hand.phase in (Phase.DEAL, Phase.STREET) else s.step + 1
    each = board = 0
    seats = dict.fromkeys(players, 0)
    up = dict.fromkeys(players, 0)
    washes_ahead = False
    for index, step in enumerate(game.script[max(0, first) :], start=max(0, first)):
        washes_ahead = washes_ahead or isinstance(step, Wash)
        if not isinstance(step, Deal):
            continue
        if isinstance(step, Redeal) and washes_ahead:
            continue  # a wash still to come replaces cards, as if everyone kept them
        # a pass street still dealing gives the rest of its cards as if every seat kept its own
        dests = step.ahead(s, entered=index == s.step)
        if players:
            each += sum(1 for _, who in dests if who == players[0])
        for to, who in dests:
            if who in seats:
                seats[who] += 1
                up[who] += to == UP
        board += sum(1 for to, _ in dests if to == BOARD)
        s.used += len(dests)
    return Outlook(each, board, seats, up)


# --- equity ----------------------------------------------------------------------------------


def live_equity(
    hand: Hand,
    seat: int,
    cards: Sequence[Card],
    rng: random.Random,
    samples: int = SAMPLES,
    factors: Mapping[int, float] | None = None,
) -> float:
    """The share of the pot `seat` can expect at the showdown against every player still in,
    holding `cards` (all its own, down and up), by Monte Carlo over what it cannot see.

    Each deal draws, from the cards neither its own nor showing anywhere (up cards of folded
    players included) nor on the board, every opponent's face-down cards, everybody's cards
    still to come and the rest of the board (`outlook`); the hands are valued by the game's
    formation and a tie shares the deal.

    `factors` weighs opponents by their betting (`OpponentModel`, `Read.factor`): a hand that
    is as strong as the best of f random ones beats this seat's about as often as f random
    ones all do, so the share against that opponent alone, e, counts as e ** f. The share
    against everyone is the deals' share times each opponent's e ** (f - 1).
    """
    game = hand.game
    if game is None:
        raise BotError("no game announced yet")
    value = valuer_of(game)
    s = hand.state
    board = [card.index for card in s.board]
    opponents = [x for x in in_hand(s) if x != seat]
    if not opponents:
        return 1.0
    pool = _unseen(hand, cards)
    ahead = outlook(hand)
    most = _draw_ahead(hand, seat)
    mine = [card.index for card in cards]
    # a draw still to come: this seat draws as it will (`choose_draw`), each opponent as the
    # same rule draws on the cards it is dealt in the sample
    discards = set(choose_draw(cards, most)) if most else set()
    redraw = len(discards)
    mine = [i for p, i in enumerate(mine) if p not in discards]
    their_up = {x: [card.index for card in hand.showing(x)] for x in opponents}
    their_down = {x: hand.hand_size(x) - len(their_up[x]) for x in opponents}
    # the cards still to come to each: the same to all but for the redeal of a wash under way
    coming = {x: ahead.seats.get(x, ahead.each) for x in (seat, *opponents)}
    need = sum(coming.values()) + ahead.board + sum(their_down.values())
    need += redraw + most * len(opponents)
    if need > len(pool):
        raise BotError(f"the hand needs {need} more cards, {len(pool)} are unseen")
    each, more_board = coming[seat], ahead.board
    weighed = factors is not None and any(factors.get(x, 1.0) != 1.0 for x in opponents)
    alone = dict.fromkeys(opponents, 0.0)  # the share against each opponent alone
    won = 0.0
    for _ in range(samples):
        drawn = rng.sample(pool, need)
        full_board = board + drawn[:more_board]
        at = more_board
        mine_full = mine + drawn[at : at + each + redraw]
        at += each + redraw
        best = value(mine_full, full_board)
        ties = 1
        for x in opponents:
            take = their_down[x] + coming[x]
            dealt = their_up[x] + drawn[at : at + take]
            at += take
            if most:
                gone = choose_draw([DECK[i] for i in dealt], most)
                dealt = [i for p, i in enumerate(dealt) if p not in gone]
                dealt += drawn[at : at + len(gone)]
                at += most
            theirs = value(dealt, full_board)
            if theirs > best:
                ties = 0
                if not weighed:
                    break
            else:
                if ties and theirs == best:
                    ties += 1
                alone[x] += 1.0 if theirs < best else 0.5
        if ties:
            won += 1.0 / ties
    share = won / samples
    if weighed:
        assert factors is not None
        for x in opponents:
            e = max(alone[x] / samples, 0.5 / samples)
            share *= e ** (factors.get(x, 1.0) - 1.0)
    return min(1.0, max(0.0, share))


def _unseen(hand: Hand, cards: Sequence[Card]) -> list[int]:
    """The cards a seat holding `cards` cannot see: neither its own nor showing anywhere (up
    cards of folded players included) nor on the board, as indices in deck order."""
    seen = {card.index for card in cards} | {card.index for card in hand.state.board}
    for x in hand.seats:
        seen.update(card.index for card in hand.showing(x))
    return [i for i in range(len(DECK)) if i not in seen]


Deal3 = tuple[list[int], list[tuple[int, list[int]]], list[int], dict[int, list[int]]]
Deals = Iterator[Deal3]
"""Sampled deals: (the seat's cards, every opponent still in with its cards, the board, each
player's cards held face down), each complete as the showdown will see it."""


def deals(hand: Hand, seat: int, cards: Sequence[Card], rng: random.Random, samples: int) -> Deals:
    """`samples` deals of what `seat` cannot see, as `live_equity` draws them: each opponent's
    face-down cards, everybody's cards still to come and the rest of the board, with the cards
    each player holds face down in the end (its hole). A draw still ahead is sampled as if
    everyone stood pat (its replacements are not dealt yet)."""
    s = hand.state
    board = [card.index for card in s.board]
    opponents = [x for x in in_hand(s) if x != seat]
    pool = _unseen(hand, cards)
    ahead = outlook(hand)
    showing = {x: [card.index for card in hand.showing(x)] for x in (seat, *opponents)}
    mine = [card.index for card in cards]
    my_down = [i for i in mine if i not in showing[seat]]
    their_down = {x: hand.hand_size(x) - len(showing[x]) for x in opponents}
    coming = {x: ahead.seats.get(x, ahead.each) for x in (seat, *opponents)}
    up = {x: ahead.up.get(x, 0) for x in (seat, *opponents)}
    need = ahead.board + sum(coming.values()) + sum(their_down.values())
    if need > len(pool):
        raise BotError(f"the hand needs {need} more cards, {len(pool)} are unseen")
    for _ in range(samples):
        drawn = rng.sample(pool, need)
        at = ahead.board + coming[seat]
        new = drawn[ahead.board : at]  # as for the opponents below
        holes = {seat: my_down + new[up[seat] :]}
        theirs = []
        for x in opponents:
            take = their_down[x] + coming[x]
            # drawn at random, so any up[x] of them may stand for those to come face up
            dealt = drawn[at : at + take]
            theirs.append((x, showing[x] + dealt))
            holes[x] = dealt[up[x] :]
            at += take
        yield mine + new, theirs, board + drawn[: ahead.board], holes


def _draw_ahead(hand: Hand, seat: int) -> int:
    """The most cards `seat` may still draw in this hand (0 when no draw is ahead of it)."""
    game = hand.game
    assert game is not None
    s = hand.state
    if seat in s.drawn and hand.phase is Phase.DRAW:
        return 0
    for step in game.script[max(0, s.step) :]:
        if isinstance(step, Draw) and (hand.phase is not Phase.DRAW or seat not in s.drawn):
            return step.most if len(hand.showing(seat)) == 0 else 0
    return 0


# --- the bot ---------------------------------------------------------------------------------


class LiveBot:
    """A computer player for one seat of a live-deck game.

    It decides only in the betting: the deals and the show are the protocol's (SPEC 5.12,
    5.16), made for the seat by its session, never a choice. `samples` is the Monte Carlo
    deals per decision (fewer in an Omaha formation, `OMAHA_SAMPLES`); `level` picks the
    betting style as the Weeping Willow bot's (easy and normal bet by `betting.NORMAL`, hard by
    `betting.HARD`; easy never learns its opponents).
    """

    def __init__(
        self,
        seat: int,
        rng: random.Random,
        *,
        samples: int = SAMPLES,
        level: Level | str = DEFAULT_LEVEL,
    ) -> None:
        if not is_int(seat) or seat < 0:
            raise BotError(f"a bot's seat is a seat number, not {seat!r}")
        if not isinstance(rng, random.Random):
            raise BotError("a bot needs a random.Random (seed it for reproducible play)")
        if not is_int(samples) or samples < 1:
            raise BotError(f"samples must be a positive integer, not {samples!r}")
        self.seat = seat
        self.rng = rng
        self.samples = samples
        self.level = parse_level(level)
        self.model: OpponentModel | None = (
            None if self.level is Level.EASY else OpponentModel(seat, rng)
        )

    def decide(self, hand: Hand, knowledge: Knowledge) -> Decision:
        """Its bet, check, call, raise or fold now, or its declaration (`declare`); the hand
        must be waiting for its seat to bet or declare (BotError otherwise)."""
        if hand.phase is Phase.DECLARE:
            return self.declare(hand, knowledge)
        if hand.phase is Phase.DRAW and isinstance(hand.step, Wash):
            return self.wash(hand, knowledge)
        if hand.phase is Phase.STREET:
            return self.keep_or_pass(hand, knowledge)
        self._check(hand, knowledge)
        if self.model is not None:
            self.model.observe(hand, knowledge.cards)
        if hand.phase is not Phase.BETTING or self.seat not in hand.to_act():
            raise BotError(f"the hand is not waiting for seat {self.seat} to bet")
        if hand.owes_match == self.seat:
            return self.match_or_fold(hand, knowledge)
        e = self.equity(hand, knowledge)
        style = HARD if self.level is Level.HARD else NORMAL
        decision = choose_bet(hand, self.seat, e, self.reads(hand), style, self.rng)
        if not is_legal(hand, self.seat, decision):
            # Never hand the engine an illegal action: this would be a bug in the bot.
            raise BotError(f"seat {self.seat}'s bot chose an illegal action: {decision}")
        return decision

    def match_or_fold(self, hand: Hand, knowledge: Knowledge) -> Decision:
        """Put to match the pot or fold (SPEC 3.18; a bot never shows early, but a rule may put
        it there): it matches when its share of the pot after the match is worth the match."""
        cost = hand.match_amount(self.seat)
        share = self.equity(hand, knowledge) * (hand.pot + cost)
        return Decision(ActionKind.POT_MATCH, match=share >= cost)

    def initiative(self, hand: Hand, knowledge: Knowledge) -> Decision | None:
        """Nothing: no live-deck game lets a seat act out of turn. It still reads the hand,
        so that its model sees every hand to the end."""
        self._check(hand, knowledge)
        if self.model is not None:
            self.model.observe(hand, knowledge.cards)
        return None

    def equity(self, hand: Hand, knowledge: Knowledge) -> float:
        """Its share of the pot against every player still in (`live_equity`)."""
        self._check(hand, knowledge)
        game = hand.game
        assert game is not None
        samples = self.samples
        if formation_of(game) is Formation.OMAHA:
            samples = min(samples, OMAHA_SAMPLES)
        factors = None
        if self.model is not None:
            reads = self.reads(hand)
            factors = {x: reads[x].factor for x in reads}
        if split.is_split(game):
            cards = knowledge.cards
            return split.split_equity(hand, self.seat, cards, self.rng, samples, factors)
        return live_equity(hand, self.seat, knowledge.cards, self.rng, samples, factors)

    def declare(self, hand: Hand, knowledge: Knowledge) -> Decision:
        """Its declaration in a split-pot game: the side, or both, with the largest expected
        share (`split.choose_declaration`)."""
        self._check(hand, knowledge)
        if hand.phase is not Phase.DECLARE or self.seat not in hand.to_act():
            raise BotError(f"the hand is not waiting for seat {self.seat} to declare")
        game = hand.game
        assert game is not None
        samples = self.samples
        if formation_of(game) is Formation.OMAHA:
            samples = min(samples, OMAHA_SAMPLES)
        choice = split.choose_declaration(hand, self.seat, knowledge.cards, self.rng, samples)
        return Decision(ActionKind.DECLARE, choice=choice)

    def wash(self, hand: Hand, knowledge: Knowledge) -> Decision:
        """Its wash (SPEC 3.17): the card, its face-down ones first and then its face-up ones,
        whose replacement is worth more than the price, or none (`split.choose_wash`). Never
        a cloak: what it buys over the same card washed face up, for less, is the card's
        secret, which the bot's equity does not value. Never a flip either: it ends with the
        same cards as a wash of the same face-up card at the same price (the face-down card
        kept, a new card for the face-up one), so its equity gains nothing by it, and it gives
        away the face-down card for a secret new one, which its equity does not value."""
        self._check(hand, knowledge)
        if hand.phase is not Phase.DRAW or self.seat not in hand.to_act():
            raise BotError(f"the hand is not waiting for seat {self.seat} to wash")
        down = hand.hand_size(self.seat) - len(hand.showing(self.seat))
        cards = [c for c in knowledge.cards if c not in hand.showing(self.seat)][:down]
        cards += hand.showing(self.seat)
        price, price_down = wash_cost(hand), wash_cost(hand, down=True)
        step = hand.step
        assert isinstance(step, Wash)
        calling = ActionKind.KEEP_CALL in hand.legal_actions(self.seat)
        # where the washers are named first, one that said it washes washes its best card
        must = step.called and not calling
        positions = split.choose_wash(
            hand, self.seat, cards, self.rng, WASH_SAMPLES, price, price_down, must=must
        )
        if calling:  # it says it washes when a card is worth its price now
            return Decision(ActionKind.WASH_CALL if positions else ActionKind.KEEP_CALL)
        return Decision(ActionKind.DRAW, positions=positions)

    def keep_or_pass(self, hand: Hand, knowledge: Knowledge) -> Decision:
        """Its choice on its card of a pass street (SPEC 3.19): it passes the card when the
        card it would be dealt instead, with the passed card in the next seat's hand, is worth
        more to it than the price (`split.choose_pass`), and keeps it otherwise."""
        self._check(hand, knowledge)
        if hand.phase is not Phase.STREET or self.seat not in hand.to_act():
            raise BotError(f"the hand is not waiting for seat {self.seat} to keep or pass")
        passes = ActionKind.PASS_CARD in hand.legal_actions(self.seat) and split.choose_pass(
            hand, self.seat, knowledge.cards, self.rng, WASH_SAMPLES
        )
        return Decision(ActionKind.PASS_CARD if passes else ActionKind.KEEP_CARD)

    def reads(self, hand: Hand) -> dict[int, Read]:
        """What its opponent model says of every other seat in the hand (easy: the priors)."""
        model = self.model if self.model is not None else OpponentModel(self.seat, self.rng)
        return {seat: model.read(seat) for seat in hand.seats if seat != self.seat}

    def _check(self, hand: Hand, knowledge: Knowledge) -> None:
        check_seat(self.seat, hand, knowledge)
        if not is_live(hand.game):
            raise BotError("the live bot plays the games of the live deck only")
        held = set(knowledge.cards)
        if len(held) != hand.hand_size(self.seat):
            raise BotError(
                f"knowledge holds {len(held)} cards, the hand {hand.hand_size(self.seat)}"
            )
        if not set(hand.showing(self.seat)) <= held:
            raise BotError("a card showing at this seat is not in its knowledge")
        public = set(hand.state.board)
        for x in hand.seats:
            if x != self.seat:
                public.update(hand.showing(x))
        if held & public:
            raise BotError("knowledge holds a card showing elsewhere")


# The split-pot play builds on this module's deals; imported here, once they exist.
from p2pwillow.bots import split  # noqa: E402

# --- the draw ----------------------------------------------------------------------------------


def choose_draw(cards: Sequence[Card], most: int) -> tuple[int, ...]:
    """The positions of `cards` to discard in a draw of at most `most` (SPEC 3.15): stand pat
    on a straight or better; keep trips, two pair or a pair and draw to them; draw one to four
    cards of a flush or of an open straight; else keep the two highest cards."""
    hand = list(cards)
    if len(hand) != 5:
        raise BotError(f"a draw is made from five cards, not {len(hand)}")
    ranks = Counter(c.rank for c in hand)
    if rank5([c.index for c in hand]) >> 20 >= 4:  # straight, flush, full house or better
        return ()
    grouped = [r for r, n in ranks.items() if n >= 2]
    if grouped:
        keep = {i for i, c in enumerate(hand) if c.rank in grouped}
        return _discards(hand, keep, most)
    suits = Counter(c.suit for c in hand)
    suit, count = suits.most_common(1)[0]
    if count == 4:
        return _discards(hand, {i for i, c in enumerate(hand) if c.suit == suit}, most)
    for drop in range(5):
        rest = sorted(c.rank for i, c in enumerate(hand) if i != drop)
        if rest[-1] - rest[0] == 3 and rest[-1] < 14:  # four in a row, open at both ends
            return (drop,)
    high = sorted(range(5), key=lambda i: hand[i].rank, reverse=True)[:2]
    return _discards(hand, set(high), most)


def _discards(hand: Sequence[Card], keep: set[int], most: int) -> tuple[int, ...]:
    """The positions not kept, the lowest first, at most `most` of them."""
    drop = sorted((i for i in range(len(hand)) if i not in keep), key=lambda i: hand[i].rank)
    return tuple(sorted(drop[:most]))
