"""A trusted-dealer table of bots: whole hands through the rules engine, with no cryptography.

Pure; no I/O. It deals real cards from a seeded shuffled deck and plays the same game flow as a
real table (announce, deal, trading, layout, five reveal and betting rounds, showdown), so it is
both the bots' test driver and the no-cryptography baseline for the engine benchmark.
`play_matchup` seats any players (bots of any level, the baselines) for a long seeded match with
every stack restored before each hand, and reports chips per hand with a 95% interval.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol, TypeVar

from p2pwillow.bots.decision import BotError, Decision, Knowledge, apply_decision, is_legal
from p2pwillow.bots.level import DEFAULT_LEVEL, Level
from p2pwillow.bots.strategy import Bot
from p2pwillow.cards import DECK, Card
from p2pwillow.games.weeping_willow import (
    TradeMade,
    hand_after_trade,
    open_offer,
    trade_sides,
    trades,
)
from p2pwillow.hands import rank5
from p2pwillow.limits import is_int
from p2pwillow.rules import (
    ActionKind,
    Announcement,
    Game,
    Hand,
    HandEnded,
    IllegalAction,
    Phase,
    TableConfig,
)
from p2pwillow.rules.pots import split_pot

MAX_STEPS = 5_000
"""Engine steps one hand may take before the arena calls it stuck (a bug, never a result)."""

Z95 = 1.959964
"""The normal quantile of a two-sided 95% interval."""


class Player(Protocol):
    """What the arena asks of a seat: `Bot` and the baselines answer it."""

    def decide(self, hand: Hand, knowledge: Knowledge) -> Decision: ...

    def initiative(self, hand: Hand, knowledge: Knowledge) -> Decision | None: ...


PlayerMaker = Callable[[int, random.Random], Player]
"""Makes the player of a seat from the seat number and that seat's own seeded random."""


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One finished hand: who dealt, what was announced, and how it ended."""

    number: int
    dealer: int
    announcement: Announcement
    trades: int
    showdown: bool
    """True if two or more players reached the end; False if all others folded."""
    pot: int
    """Chips awarded, token money included."""
    winners: tuple[int, ...]
    decisions: int
    players_at_end: int = 1
    """Players still in when the hand ended (more than one: a showdown)."""
    busted: tuple[int, ...] = ()
    """Seats that had chips before the hand and none after it."""


@dataclass(frozen=True, slots=True)
class ArenaResult:
    """Stacks before and after, per-hand records, and how often each action was chosen."""

    seats: tuple[int, ...]
    start_stacks: tuple[int, ...]
    final_stacks: tuple[int, ...]
    hands: tuple[HandRecord, ...]
    actions: tuple[tuple[ActionKind, int], ...]
    facing_bet: tuple[tuple[ActionKind, int], ...] = ()
    """How often each answer was chosen when facing a bet (calling would cost chips)."""

    def count(self, kind: ActionKind) -> int:
        return dict(self.actions).get(kind, 0)

    def facing(self, kind: ActionKind) -> int:
        return dict(self.facing_bet).get(kind, 0)

    @property
    def decisions(self) -> int:
        return sum(n for _, n in self.actions)


@dataclass
class _Seat:
    """What the trusted dealer tracks for one seat: its cards and its trade memory."""

    cards: list[Card] = field(default_factory=list)
    given: dict[int, list[Card]] = field(default_factory=dict)
    received: dict[int, list[Card]] = field(default_factory=dict)
    layout: tuple[Card, ...] | None = None

    def knowledge(self, seat: int) -> Knowledge:
        return Knowledge(
            seat,
            tuple(self.cards),
            {s: tuple(dict.fromkeys(c)) for s, c in self.given.items()},
            {s: tuple(dict.fromkeys(c)) for s, c in self.received.items()},
            self.layout,
        )


class _Table:
    """One hand played by bots, with a trusted dealer holding every card."""

    def __init__(
        self,
        hand: Hand,
        bots: Mapping[int, Player],
        rng: random.Random,
        announcement: Announcement | None = None,
    ) -> None:
        self.hand = hand
        self.announcement = announcement
        self.bots = bots
        self.rng = rng
        self.seats: dict[int, _Seat] = {seat: _Seat() for seat in hand.seats}
        self.actions: Counter[ActionKind] = Counter()
        self.facing_bet: Counter[ActionKind] = Counter()
        self.steps = 0

    def _know(self, seat: int) -> Knowledge:
        return self.seats[seat].knowledge(seat)

    def _act(self, seat: int, decision: Decision) -> None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise BotError(f"hand {self.hand.hand_number} did not finish in {MAX_STEPS} steps")
        if not is_legal(self.hand, seat, decision):
            raise IllegalAction(f"seat {seat}'s bot chose an illegal {decision}")
        seen = len(self.hand.events)
        apply_decision(self.hand, seat, decision)
        self.actions[decision.kind] += 1
        for event in self.hand.events[seen:]:
            if isinstance(event, TradeMade):
                self._trade(event)

    def _decide(self, seat: int) -> None:
        h = self.hand
        options = h.bet_options(seat) if h.phase is Phase.BETTING else None
        decision = self.bots[seat].decide(h, self._know(seat))
        if options is not None and not options.can_check:
            self.facing_bet[decision.kind] += 1
        self._act(seat, decision)

    def _deal(self) -> None:
        self.hand.deal()
        size = self.hand.hand_size(self.hand.seats[0])
        deck = list(DECK)
        self.rng.shuffle(deck)
        for i, seat in enumerate(self.hand.seats):
            self.seats[seat].cards = deck[i * size : (i + 1) * size]

    def _trade(self, event: TradeMade) -> None:
        t = event.trade
        a, b = self.seats[t.offerer], self.seats[t.acceptor]
        from_a = [a.cards[p] for p in t.offerer_positions]
        from_b = [b.cards[p] for p in t.acceptor_positions]
        a.cards = list(hand_after_trade(a.cards, t.offerer_positions, from_b))
        b.cards = list(hand_after_trade(b.cards, t.acceptor_positions, from_a))
        a.given.setdefault(t.acceptor, []).extend(from_a)
        b.given.setdefault(t.offerer, []).extend(from_b)
        a.received.setdefault(t.acceptor, []).extend(from_b)
        b.received.setdefault(t.offerer, []).extend(from_a)
        # SPEC 3.4: each owner reshuffles its hand after a trade; positions follow the shuffle.
        self.rng.shuffle(a.cards)
        self.rng.shuffle(b.cards)

    def _trading_step(self) -> None:
        h = self.hand
        if open_offer(h) is None and trade_sides(h) is None:
            # Seats the engine is not waiting for may still act: offers in free trading, the
            # dealer closing in-turn trading. Ask them first, in table order.
            waiting = h.to_act()
            for seat in h.seats:
                if seat not in waiting:
                    decision = self.bots[seat].initiative(h, self._know(seat))
                    if decision is not None:
                        self._act(seat, decision)
                        return
        self._decide(h.to_act()[0])

    def _lay_out(self, seat: int) -> None:
        decision = self.bots[seat].decide(self.hand, self._know(seat))
        if decision.kind is not ActionKind.LAY_OUT or decision.positions is None:
            raise IllegalAction(f"seat {seat}'s bot did not lay out: {decision}")
        state = self.seats[seat]
        state.layout = tuple(state.cards[p] for p in decision.positions)
        self._act(seat, decision)

    def play(self) -> HandRecord:
        h = self.hand
        if self.announcement is None:
            self._decide(h.dealer)
        else:
            self._act(h.dealer, Decision(ActionKind.ANNOUNCE, announcement=self.announcement))
        announcement = h.announcement
        assert announcement is not None
        self._deal()
        while not h.is_over:
            if h.phase is Phase.TRADING:
                self._trading_step()
            elif h.phase is Phase.LAYOUT:
                self._lay_out(h.to_act()[0])
            elif h.phase is Phase.REVEAL:
                for due in h.ops():
                    layout = self.seats[due.seat].layout
                    assert layout is not None
                    h.reveal(due.seat, layout[due.index])
            elif h.phase is Phase.BETTING:
                self._decide(h.to_act()[0])
            else:
                raise BotError(f"the arena cannot drive the {h.phase.value} phase")
        last = h.events[-1]
        assert isinstance(last, HandEnded)
        awards = last.result.awards
        winners = tuple(sorted({s for award in awards for s in award.winners}))
        live = [s for s in h.seats if not h.is_folded(s)]
        return HandRecord(
            number=h.hand_number,
            dealer=h.dealer,
            announcement=announcement,
            trades=len(trades(h)),
            showdown=len(live) > 1,
            pot=sum(award.pot.amount for award in awards),
            winners=winners,
            decisions=sum(self.actions.values()),
            players_at_end=len(live),
        )


def _table_config(players: object, hands: object, config: TableConfig | None) -> TableConfig:
    """The table for `players` seats (2..10) and `hands` hands; BotError names a bad one."""
    if not is_int(players) or not 2 <= players <= 10:
        raise BotError(f"an arena seats 2 to 10 players, not {players!r}")
    if not is_int(hands) or hands < 0:
        raise BotError(f"hands must be a whole number, not {hands!r}")
    cfg = config if config is not None else TableConfig(seats=players)
    if cfg.seats < players:
        raise BotError(f"the table has {cfg.seats} seats, too few for {players} players")
    return cfg


def play_hands(
    n_bots: int,
    hands: int,
    seed: int,
    *,
    config: TableConfig | None = None,
    samples: int = 300,
    draws: int = 24,
    announcement: Announcement | None = None,
    level: Level | str = DEFAULT_LEVEL,
) -> ArenaResult:
    """Seat `n_bots` bots (seats 0..n-1) and play up to `hands` hands; deterministic in `seed`.

    `config` defaults to the default table with `n_bots` seats; `samples`, `draws` and
    `level` go to every bot; `announcement`, if given, is announced for every hand instead of
    the dealer bot's own choice. Stops early when fewer than two players have chips. Every
    decision is checked with the engine's `can_*` before it is applied (IllegalAction
    otherwise).
    """
    cfg = _table_config(n_bots, hands, config)
    rng = random.Random(seed)
    game = Game(cfg)
    bots: dict[int, Bot] = {}
    for seat in range(n_bots):
        game.join(seat, f"bot {seat}", f"bot-{seat}")
        bot_rng = random.Random(rng.getrandbits(64))
        bots[seat] = Bot(seat, bot_rng, samples=samples, draws=draws, level=level)
    start = tuple(p.stack for p in game.players)
    records: list[HandRecord] = []
    actions: Counter[ActionKind] = Counter()
    facing: Counter[ActionKind] = Counter()
    for _ in range(hands):
        if sum(1 for p in game.players if p.plays) < 2:
            break
        table = _Table(game.start_hand(), bots, rng, announcement)
        record = table.play()
        before = {p.seat for p in game.players if p.stack > 0}
        game.end_hand()
        busted = tuple(sorted(before - {p.seat for p in game.players if p.stack > 0}))
        records.append(replace(record, busted=busted))
        actions.update(table.actions)
        facing.update(table.facing_bet)
    return ArenaResult(
        seats=tuple(p.seat for p in game.players),
        start_stacks=start,
        final_stacks=tuple(p.stack for p in game.players),
        hands=tuple(records),
        actions=tuple(sorted(actions.items(), key=lambda item: item[0].value)),
        facing_bet=tuple(sorted(facing.items(), key=lambda item: item[0].value)),
    )


# --- matchups ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Interval:
    """A mean with its two-sided 95% interval (normal approximation)."""

    mean: float
    low: float
    high: float

    @property
    def above_zero(self) -> bool:
        return self.low > 0.0


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """One seat over a matchup."""

    name: str
    deltas: tuple[int, ...]
    """Chips won (negative: lost) in each hand."""
    folds: int
    """Hands it folded."""
    winning_folds: int
    """Folds that gave up the best layout at the table (or a share of it)."""

    @property
    def hands(self) -> int:
        return len(self.deltas)

    @property
    def fold_rate(self) -> float:
        return self.folds / max(1, self.hands)

    @property
    def chips_per_hand(self) -> Interval:
        n = self.hands
        if n == 0:
            return Interval(0.0, 0.0, 0.0)
        mean = sum(self.deltas) / n
        var = sum((d - mean) ** 2 for d in self.deltas) / max(1, n - 1)
        half = Z95 * math.sqrt(var / n)
        return Interval(mean, mean - half, mean + half)


@dataclass(frozen=True, slots=True)
class MatchupResult:
    """Every seat's record over a matchup, seats in order."""

    seats: tuple[SeatRecord, ...]
    hands: tuple[HandRecord, ...]
    actions: tuple[tuple[ActionKind, int], ...]


def play_matchup(
    players: Sequence[tuple[str, PlayerMaker]],
    hands: int,
    seed: int,
    *,
    config: TableConfig | None = None,
    announcement: Announcement | None = None,
) -> MatchupResult:
    """Seat `players` (seats 0..n-1, each a name and a maker) and play `hands` hands.

    Deterministic in `seed`. Every hand starts with every stack at the table's starting stack,
    so each hand's chips are one sample of the same game and all `hands` are played; the button
    moves one seat each hand. The players themselves last the whole match, so a player that
    learns about its opponents learns over all of it.
    """
    cfg = _table_config(len(players), hands, config)

    def table(hand: Hand, seated: Mapping[int, Player], rng: random.Random) -> _Table:
        return _Table(hand, seated, rng, announcement)

    def gave_up_best(hand: Hand, played: _Table) -> set[int]:
        # a fold that gave up the best layout of the hand
        keys = {
            seat: rank5([card.index for card in state.layout])
            for seat, state in played.seats.items()
            if state.layout is not None
        }
        best = max(keys.values(), default=0)
        return {seat for seat in hand.seats if keys.get(seat, -1) >= best}

    return run_matchup(players, hands, seed, cfg, table, gave_up_best)


class PlaysHand(Protocol):
    """A table that plays one hand of a matchup and counts its players' actions."""

    actions: Counter[ActionKind]

    def play(self) -> HandRecord: ...


T = TypeVar("T", bound=PlaysHand)


def run_matchup(
    players: Sequence[tuple[str, PlayerMaker]],
    hands: int,
    seed: int,
    cfg: TableConfig,
    table: Callable[[Hand, Mapping[int, Player], random.Random], T],
    gave_up_best: Callable[[Hand, T], set[int]] | None = None,
) -> MatchupResult:
    """Seat `players` and play `hands` hands at tables `table` makes, every hand from the
    table's starting stack and the button one seat on; `gave_up_best` names the seats whose
    fold in a hand gave up its best hand (not measured without it)."""
    n = len(players)
    rng = random.Random(seed)
    seats = tuple(range(n))
    table_players: dict[int, Player] = {
        seat: make(seat, random.Random(rng.getrandbits(64)))
        for seat, (_, make) in zip(seats, players, strict=True)
    }
    deltas: list[list[int]] = [[] for _ in seats]
    folds = [0] * n
    winning_folds = [0] * n
    records: list[HandRecord] = []
    actions: Counter[ActionKind] = Counter()
    stacks = [cfg.starting_stack] * n
    for number in range(1, hands + 1):
        hand = Hand(cfg, seats, stacks, dealer=seats[(number - 1) % n], hand_number=number)
        played = table(hand, table_players, rng)
        records.append(played.play())
        actions.update(played.actions)
        result = hand.result
        assert result is not None
        # every hand starts afresh: a pot nobody won is shared out at once among the hand's
        # players, as at a game's end (SPEC 3.16), so that each hand's chips add up
        back = split_pot(result.carried, result.seats) if result.carried else (0,) * n
        for seat, start, final, share in zip(
            result.seats, result.start_stacks, result.final_stacks, back, strict=True
        ):
            deltas[seat].append(final + share - start)
        best = set() if gave_up_best is None else gave_up_best(hand, played)
        for seat in seats:
            if hand.is_folded(seat):
                folds[seat] += 1
                winning_folds[seat] += seat in best
    return MatchupResult(
        seats=tuple(
            SeatRecord(name, tuple(deltas[seat]), folds[seat], winning_folds[seat])
            for seat, (name, _) in zip(seats, players, strict=True)
        ),
        hands=tuple(records),
        actions=tuple(sorted(actions.items(), key=lambda item: item[0].value)),
    )
