"""The bot: one seat's decisions in any game of the catalogue, made through the rules engine's
public API.

Pure; no I/O. Deterministic given the `random.Random` it is built with (it never touches the
global random module). It announces, lays out and bets as SPEC 9 describes, at the level it is
given; a game's own step it plays as that game's play says (Weeping Willow's trading:
`games.weeping_willow.bot`).
"""

from __future__ import annotations

import random
from itertools import combinations, product

from p2pwillow.bots.betting import HARD, NORMAL, answer_bet, choose_bet, raises_this_round
from p2pwillow.bots.decision import BotError, Decision, Knowledge, check_seat, is_legal
from p2pwillow.bots.equity import OpponentView, equity
from p2pwillow.bots.level import DEFAULT_LEVEL, Level, parse_level
from p2pwillow.bots.live import LiveBot, choose_draw, is_live
from p2pwillow.bots.opponents import OpponentModel, Read
from p2pwillow.cards import Card
from p2pwillow.games import CATALOGUE
from p2pwillow.games.weeping_willow import WEEPING_WILLOW
from p2pwillow.games.weeping_willow import trades as trades_of
from p2pwillow.games.weeping_willow.bot import WillowPlay
from p2pwillow.hands import Category, best_hand, category_of, rank5
from p2pwillow.limits import is_int
from p2pwillow.rules import (
    ActionKind,
    Announcement,
    BetPlaced,
    BettingStructure,
    ConfigError,
    GameSpec,
    Hand,
    Phase,
    Raised,
    Wager,
    WentAllIn,
)
from p2pwillow.rules.live import Draw
from p2pwillow.rules.wash import Wash

BET_EDGE = 0.3
"""Checked to, it bets when its equity e reaches fair + BET_EDGE * (1 - fair), fair being
1 / players in the hand: heads up 0.65, four players 0.475 (a careful player bets for value
only when it is likely to be best, and more opponents means more ways to be beaten)."""

RAISE_EDGE = 0.55
"""Facing a bet, it raises when e reaches fair + RAISE_EDGE * (1 - fair) (heads up 0.75, four
players 0.625) and also clears the price of the call by RAISE_OVER_PRICE."""

RAISE_OVER_PRICE = 0.3
"""How far above the break-even of the pot odds its equity must be to raise."""

RERAISE_EQUITY = 0.88
"""Facing a raise (a re-raise war), it raises again only with at least this equity; it never
raises a third time in one round itself."""

CALL_MARGIN_PER_ROUND = 0.03
"""Added to the pot-odds price per betting round still to come: a weak hand pays again."""

CALL_MARGIN_PER_RAISE = 0.04
"""Added to the price per raise already made this round: raisers hold strong hands."""

STACK_RISK = 0.5
"""Added to the price times the share of its remaining stack a call takes: a careful player
does not put a whole stack in with a middling hand."""

CALIBRATION = 0.4
"""The Monte Carlo share is raised to the power 1 + CALIBRATION * opponents while any card is
face down: measured over whole bot games the raw share is too hopeful (about 0.37 on average
for four players where 0.25 is right), and more so with more opponents; the power maps it
back (e.g. 0.55 becomes about 0.27 against three opponents, as measured)."""

TRADED_DRAWS = {5: 0.6, 6: 0.8, 7: 1.0}
"""Normal and hard: the factor on the draws of a hand that traded with it, by deal size: it
took this bot's cast-offs (fitted like `equity.LAYOUT_DRAWS`)."""

GIVEN_DRAWS = 0.55
"""Hard: the same for a five-card hand that holds cards it passed, which are then dealt to
it for certain."""

BLUFF_RATE = 0.03
"""Chance of a bluff when checked to, from round 3 on, against at most two opponents; a bluff
is always the smallest bet allowed and is given up against any raise."""


class Bot:
    """A computer player for one seat.

    `samples` is the number of Monte Carlo deals per betting decision, `draws` the replacement
    draws per trade estimate, `max_trades` the most trades it makes in one hand.
    """

    def __init__(
        self,
        seat: int,
        rng: random.Random,
        *,
        samples: int = 300,
        draws: int = 24,
        max_trades: int = 3,
        level: Level | str = DEFAULT_LEVEL,
    ) -> None:
        if not is_int(seat) or seat < 0:
            raise BotError(f"a bot's seat is a seat number, not {seat!r}")
        if not isinstance(rng, random.Random):
            raise BotError("a bot needs a random.Random (seed it for reproducible play)")
        for name, value in (("samples", samples), ("draws", draws)):
            if not is_int(value) or value < 1:
                raise BotError(f"{name} must be a positive integer, not {value!r}")
        if not is_int(max_trades) or max_trades < 0:
            raise BotError(f"max_trades must be a whole number, not {max_trades!r}")
        self.level = parse_level(level)
        self.seat = seat
        self.rng = rng
        self.samples = samples
        self.draws = draws
        self.max_trades = max_trades
        self.model: OpponentModel | None = (
            None if self.level is Level.EASY else OpponentModel(seat, rng)
        )
        """What it has learned of its opponents this game; an easy bot never adapts."""
        self.live = LiveBot(seat, rng, samples=samples, level=self.level)
        """How it bets in the games of the live deck (SPEC 3.15)."""
        self.willow = WillowPlay(
            seat, rng, self.level, self.model, draws=draws, max_trades=max_trades
        )
        """How it trades and announces in Weeping Willow."""

    # --- the interface -----------------------------------------------------------------------

    def decide(self, hand: Hand, knowledge: Knowledge) -> Decision:
        """The action this seat takes now; the engine must be waiting for this seat.

        Covers announcing (as dealer), offering or passing, accepting or declining, choosing
        trade cards, closing trading (as dealer where the dealer closes), laying out, and
        betting. Raises BotError if the engine is not waiting for this seat (in free trading
        with no offer open it waits only for the dealer: ask the others with `initiative`).
        """
        if is_live(hand.game) and hand.phase is Phase.BETTING:
            return self.live.decide(hand, _with_up_cards(hand, knowledge))
        if hand.phase is Phase.DECLARE:
            return self.live.declare(hand, _with_up_cards(hand, knowledge))
        if hand.phase is Phase.DRAW and isinstance(hand.step, Wash):
            return self.live.wash(hand, _with_up_cards(hand, knowledge))
        if is_live(hand.game) and hand.phase is Phase.STREET:
            return self.live.keep_or_pass(hand, _with_up_cards(hand, knowledge))
        if hand.phase is Phase.DRAW:
            step = hand.step
            assert isinstance(step, Draw)
            # the session's cards are the seat's public hand, in its order
            return Decision(ActionKind.DRAW, positions=choose_draw(knowledge.cards, step.most))
        self._check(hand, knowledge)
        if self.model is not None:
            self.model.observe(hand, knowledge.cards)
        seat = self.seat
        if seat not in hand.to_act():
            raise BotError(f"the hand is not waiting for seat {seat} ({hand.phase.value})")
        legal = hand.legal_actions(seat)
        own = self._own(hand)
        if hand.phase is Phase.ANNOUNCE:
            decision = Decision(ActionKind.ANNOUNCE, announcement=self.announce(hand))
        elif hand.phase is Phase.TRADING and own is not None:
            decision = own.decide(hand, knowledge, legal)
        elif hand.phase is Phase.LAYOUT:
            decision = Decision(ActionKind.LAY_OUT, positions=self.choose_layout(hand, knowledge))
        elif hand.phase is Phase.BETTING:
            decision = self._betting(hand, knowledge)
        else:
            raise BotError(f"nothing for a bot to decide in the {hand.phase.value} phase")
        if not is_legal(hand, seat, decision):
            # Never hand the engine an illegal action: this would be a bug in the bot.
            raise BotError(f"seat {seat}'s bot chose an illegal action: {decision}")
        return decision

    def initiative(self, hand: Hand, knowledge: Knowledge) -> Decision | None:
        """An action this seat takes now although the engine is not waiting for it, or None:
        in a game's own step that lets a seat act out of turn (Weeping Willow's free
        trading: an offer, the dealer's close), what the game's play says."""
        if is_live(hand.game):
            return None  # no live-deck game lets a seat act out of turn
        self._check(hand, knowledge)
        if self.model is not None:
            self.model.observe(hand, knowledge.cards)
        own = self._own(hand)
        if own is None or hand.phase is not Phase.TRADING:
            return None
        return own.initiative(hand, knowledge)

    free_offer = initiative
    """The same as `initiative`, under the name earlier callers use."""

    def _own(self, hand: Hand) -> WillowPlay | None:
        """The play of the hand's game's own step, if its game has one."""
        return self.willow if hand.game is WEEPING_WILLOW else None

    def announce(self, hand: Hand) -> Announcement:
        """The dealer's announcement: the table's game (a game it plays its own way announces
        as its play says), each option at random among the values that fit the table."""
        players = len(hand.seats)
        games = [CATALOGUE[name] for name in hand.config.games if name in CATALOGUE]
        fitting = {g: _announcements(g, players) for g in games}
        playable = [g for g in games if fitting[g]]
        if not playable:
            raise BotError(f"no game of this table deals to {players} players")
        # one game draws nothing from the bot's random source: its play stays as it was
        chosen = playable[0] if len(playable) == 1 else self.rng.choice(playable)
        if chosen is WEEPING_WILLOW:
            return self.willow.announce(hand)
        return self.rng.choice(fitting[chosen])

    def choose_layout(self, hand: Hand, knowledge: Knowledge) -> tuple[int, ...]:
        """Five hand positions in reveal order (first revealed first), SPEC 3.6.

        The best five cards; the ones that tell least come first and the core of the hand
        (pairs, trips, the higher pair) last, with a little randomness; among equals, cards
        another seat knows (it gave them to this bot) are revealed first, as hiding them
        gains nothing.
        """
        self._check(hand, knowledge)
        cards = knowledge.cards
        size = hand.showdown_cards
        if len(cards) < size:
            raise BotError(f"a layout needs {size} cards, the hand holds {len(cards)}")
        five = best_hand(cards).cards
        counts: dict[int, int] = {}
        for card in five:
            counts[card.rank] = counts.get(card.rank, 0) + 1
        category = category_of(rank5([c.index for c in five]))
        # Straights and flushes use all five cards: any order hides them as well as another.
        whole = category in (Category.STRAIGHT, Category.FLUSH, Category.STRAIGHT_FLUSH)
        jitter = 14.0 if whole else 2.5
        known = knowledge.known_to_others

        def order(card: Card) -> tuple[int, int, float]:
            weight = 0 if whole else counts[card.rank]  # kickers 1, pairs 2, trips 3, quads 4
            return (weight, 0 if card in known else 1, card.rank + self.rng.random() * jitter)

        ranked = sorted(five, key=order)
        return tuple(cards.index(card) for card in ranked)

    # --- checks --------------------------------------------------------------------------------

    def _check(self, hand: Hand, knowledge: Knowledge) -> None:
        check_seat(self.seat, hand, knowledge)
        size = hand.hand_size(self.seat)
        if size and len(knowledge.cards) != size:
            raise BotError(f"knowledge holds {len(knowledge.cards)} cards, the hand {size}")
        shown = hand.showing(self.seat)
        if shown:
            if knowledge.layout is not None and knowledge.layout[: len(shown)] != shown:
                raise BotError("knowledge layout does not match the cards showing")
            if not set(shown) <= set(knowledge.cards):
                raise BotError("a card showing at this seat is not in its knowledge")

    # --- announce ------------------------------------------------------------------------------

    # --- trading -------------------------------------------------------------------------------

    # --- betting -------------------------------------------------------------------------------

    def layout_cards(self, hand: Hand, knowledge: Knowledge) -> tuple[Card, ...]:
        """Its five layout cards: `knowledge.layout`, or else the cards showing completed with
        the best of its other cards."""
        if knowledge.layout is not None:
            return knowledge.layout
        shown = hand.showing(self.seat)
        rest = [c for c in knowledge.cards if c not in shown]
        need = hand.showdown_cards - len(shown)
        best = max(
            combinations(rest, need), key=lambda extra: rank5([c.index for c in shown + extra])
        )
        return shown + best

    def equity(self, hand: Hand, knowledge: Knowledge) -> float:
        """Its estimated share of the pot against every opponent still in (Monte Carlo)."""
        self._check(hand, knowledge)
        layout = self.layout_cards(hand, knowledge)
        showing = {seat: hand.showing(seat) for seat in hand.seats}
        dead = set(knowledge.cards) | {c for cards in showing.values() for c in cards}
        aggression = _aggression(hand)
        trades: dict[int, int] = {}
        for t in trades_of(hand):
            for side in (t.offerer, t.acceptor):
                trades[side] = trades.get(side, 0) + 1
        model = self.model
        opponents = []
        for seat in hand.seats:
            if seat == self.seat or hand.is_folded(seat):
                continue
            given = tuple(c for c in knowledge.given.get(seat, ()) if c not in dead)
            if model is None:
                view = OpponentView(
                    showing[seat],
                    hand.hand_size(seat),
                    given,
                    aggression.get(seat, 0),
                    trades.get(seat, 0),
                )
            else:
                view = self._view(hand, seat, showing[seat], given, trades, model)
            opponents.append(view)
        return equity(
            layout, opponents, dead, self.rng, self.samples, ranked=self.model is not None
        )

    def _view(
        self,
        hand: Hand,
        seat: int,
        showing: tuple[Card, ...],
        given: tuple[Card, ...],
        trades: dict[int, int],
        model: OpponentModel,
    ) -> OpponentView:
        """An opponent as normal and hard see it: its draws from the layout table times the
        model's factor for its line, its trades with other seats (SPEC 9, Equity).

        A hand that traded with this bot took its cast-offs: fewer draws (TRADED_DRAWS).
        Hard also counts the cards it passed to a five-card hand: that hand lays out every
        card it holds, so each one it still holds is face down in its layout (GIVEN_DRAWS).
        """
        size = hand.hand_size(seat)
        with_me = sum(1 for t in trades_of(hand) if {t.offerer, t.acceptor} == {seat, self.seat})
        read = model.read(seat)
        factor = read.factor
        weight = 0.0
        if self.level is Level.HARD and size == hand.showdown_cards and with_me and given:
            weight = _held(hand, seat, self.seat)
            factor *= GIVEN_DRAWS
        elif with_me:
            factor *= TRADED_DRAWS.get(size, 1.0)
        return OpponentView(
            showing,
            size,
            given if weight else (),
            0,
            trades.get(seat, 0) - with_me,
            factor=factor,
            given_weight=weight,
            shown=read.shown,
            shown_weight=read.shown_weight,
        )

    def reads(self, hand: Hand) -> dict[int, Read]:
        """What its opponent model says of every other seat in the hand (easy: the priors)."""
        model = self.model if self.model is not None else OpponentModel(self.seat, self.rng)
        return {seat: model.read(seat) for seat in hand.seats if seat != self.seat}

    def _betting(self, hand: Hand, knowledge: Knowledge) -> Decision:
        """Bet, check, call, raise or fold by equity against thresholds (SPEC 9, Betting)."""
        if self.level is not Level.EASY:
            style = HARD if self.level is Level.HARD else NORMAL
            e = self.equity(hand, knowledge)
            return choose_bet(hand, self.seat, e, self.reads(hand), style, self.rng)
        o = hand.bet_options(self.seat)
        assert o is not None
        live = sum(1 for seat in hand.seats if not hand.is_folded(seat))
        e = self.equity(hand, knowledge)
        if hand.betting_round < hand.rounds:
            e = e ** (1.0 + CALIBRATION * (live - 1))
        fair = 1.0 / live
        pot = hand.pot
        rng = self.rng
        jitter = rng.uniform(-0.03, 0.03)  # a little unpredictability around every threshold
        if o.can_check:
            bet_at = fair + BET_EDGE * (1.0 - fair) + jitter
            if e >= bet_at:
                if o.bet_min is not None and o.bet_max is not None:
                    amount = self._size(hand, o.bet_min, o.bet_max, 0, pot, e, bet_at)
                    return Decision(ActionKind.BET, amount=amount)
                # Its stack is below the smallest bet: all in only with a clearly best hand.
                if o.all_in_allowed and e >= fair + RAISE_EDGE * (1.0 - fair):
                    return Decision(ActionKind.ALL_IN)
                return Decision(ActionKind.CHECK)
            bluff = (
                hand.betting_round >= 3
                and live <= 3
                and o.bet_min is not None
                and rng.random() < BLUFF_RATE
            )
            if bluff and o.bet_min is not None:
                return Decision(ActionKind.BET, amount=o.bet_min)  # bluff cheaply
            return Decision(ActionKind.CHECK)
        raises = raises_this_round(hand)
        # SPEC 3.7.1: pot odds against the chips this call actually puts in, plus margins for
        # the rounds still to come, for the raises already made, and for the stack at risk.
        behind = hand.stack(self.seat)
        price = (
            o.call_amount / (pot + o.call_amount)
            + CALL_MARGIN_PER_ROUND * (hand.rounds - hand.betting_round)
            + CALL_MARGIN_PER_RAISE * raises
            + STACK_RISK * o.call_amount / max(1, behind)
        )
        raise_at = max(
            fair + RAISE_EDGE * (1.0 - fair) + jitter,
            min(0.97, price + RAISE_OVER_PRICE),
        )
        if raises >= 1:
            raise_at = max(raise_at, RERAISE_EQUITY + 0.05 * (raises - 1))
        if raises_this_round(hand, self.seat) >= 2:
            raise_at = 2.0  # two raises of its own this round are its limit
        return answer_bet(
            hand,
            o,
            e,
            raise_at,
            price,
            lambda low, high: self._size(hand, low, high, hand.current_bet, pot, e, raise_at),
        )

    def _size(
        self, hand: Hand, low: int, high: int, base: int, pot: int, e: float, floor: float
    ) -> int:
        """An amount in low..high that grows with the equity above `floor`.

        Pot and no limit cap the top at about half the pot (a pot-sized raise at most) so one
        hand does not stake the whole stack on a modest edge.
        """
        if hand.config.structure in (BettingStructure.POT_LIMIT, BettingStructure.NO_LIMIT):
            high = max(low, min(high, base + max(pot // 2, low)))
        edge = (e - floor) / max(1e-9, 1.0 - floor)
        frac = min(1.0, max(0.0, 0.15 + 0.85 * edge + self.rng.uniform(-0.1, 0.1)))
        return low + round((high - low) * frac)


def _announcements(game: GameSpec, players: int) -> list[Announcement]:
    """Every announcement of `game` that deals to `players`: each option with choices at
    each of them, the others at their defaults."""
    out = []
    values = [o.choices or (o.default,) for o in game.options]
    for combo in product(*values):
        try:
            a = Announcement(game, tuple(zip((o.name for o in game.options), combo, strict=True)))
            a.check_fits(players)
        except ConfigError:
            continue
        out.append(a)
    return out


def _aggression(hand: Hand) -> dict[int, int]:
    """Bets and raises (all-ins that bet or raise included) per seat, this hand so far."""
    count: dict[int, int] = {}
    for event in hand.events:
        if isinstance(event, BetPlaced | Raised) or (
            isinstance(event, WentAllIn) and event.as_action is not Wager.CALL
        ):
            count[event.seat] = count.get(event.seat, 0) + 1
    return count


def _held(hand: Hand, seat: int, me: int) -> float:
    """The chance that `seat` still holds a card bot `me` passed to it: each later trade of
    its own with another seat, of k cards from a hand of n, passed the card on with chance
    k / n."""
    size = hand.hand_size(seat)
    held = 1.0
    received = False
    for trade in trades_of(hand):
        sides = (trade.offerer, trade.acceptor)
        if seat not in sides:
            continue
        if me in sides:
            received = True
        elif received:
            held *= 1.0 - trade.k / size
    return held


def _with_up_cards(hand: Hand, knowledge: Knowledge) -> Knowledge:
    """A live-deck seat's knowledge as the live bot takes it: its down cards (what its session
    holds) and its up cards, each once."""
    cards = tuple(dict.fromkeys((*knowledge.cards, *hand.showing(knowledge.seat))))
    return Knowledge(knowledge.seat, cards)
