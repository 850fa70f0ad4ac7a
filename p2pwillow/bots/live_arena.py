"""A trusted-dealer table for the games of the live deck: whole hands through the rules engine,
with no cryptography, as `arena` plays Weeping Willow.

Pure; no I/O. A `LiveDealer` holds a real deck shuffled by a seeded random and deals it where
each deal step's `destinations` say (as the live deck does, SPEC 5.12): it opens the up cards
and the board to the rules, keeps the face-down cards, and shows each player's face-down cards
for it at the show (SPEC 5.16). A seat is asked to decide only in the betting, and is given
its own cards and nothing else (`LiveDealer.knowledge`); everything else it may read is the
hand's public state. `play_live_matchup` seats any players (the live bot, the baselines) for
a long seeded match of one game, every stack restored before each hand, and reports chips per
hand with a 95% interval (`arena.SeatRecord`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from p2pwillow.bots.arena import (
    MAX_STEPS,
    HandRecord,
    MatchupResult,
    Player,
    PlayerMaker,
    _table_config,
    run_matchup,
)
from p2pwillow.bots.decision import BotError, Decision, Knowledge, apply_decision, is_legal
from p2pwillow.bots.live import choose_draw, is_live
from p2pwillow.cards import DECK, Card
from p2pwillow.games import CATALOGUE
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
from p2pwillow.rules.events import CardPassed
from p2pwillow.rules.live import BOARD, BURN, DOWN, UP, Deal, Draw, Opened, deals_live
from p2pwillow.rules.wash import Wash

__all__ = [
    "LiveDealer",
    "LiveTable",
    "live_config",
    "play_live_matchup",
]


def live_config(players: int, **settings: object) -> TableConfig:
    """The arena's table for `players`: every live-deck game at the table's defaults, the
    house's game (a 25 ante, spread limit 25 to 100: "25 cent ante/minimum, one dollar
    maximum"); `settings` override any of it."""
    values: dict[str, object] = {
        "seats": players,
        "games": tuple(name for name, g in CATALOGUE.items() if deals_live(g)),
    }
    values.update(settings)
    return TableConfig(**values)  # type: ignore[arg-type]


@dataclass
class LiveDealer:
    """The deck as a trusted dealer holds it: its shuffled order, the next position, and where
    every card dealt went."""

    deck: list[Card]
    pointer: int = 0
    held: dict[int, list[Card]] = field(default_factory=dict)
    """Each seat's cards in the order dealt, face down and face up."""
    down: dict[int, list[Card]] = field(default_factory=dict)
    board: list[Card] = field(default_factory=list)
    burned: list[Card] = field(default_factory=list)
    muck: list[Card] = field(default_factory=list)

    def street(self, hand: Hand) -> Opened:
        """Deal the hand's current deal step; what it opens (the up cards and the board)."""
        step = hand.step
        if not isinstance(step, Deal):
            raise BotError(f"no deal step now ({hand.phase.value})")
        ups: dict[int, list[Card]] = {}
        board: list[Card] = []
        for to, seat in step.destinations(hand.state):
            card = self.deck[self.pointer]
            self.pointer += 1
            if to in (DOWN, UP):
                assert seat is not None
                self.held.setdefault(seat, []).append(card)
                if to == DOWN:
                    self.down.setdefault(seat, []).append(card)
                else:
                    ups.setdefault(seat, []).append(card)
            elif to == BOARD:
                self.board.append(card)
                board.append(card)
            else:
                assert to == BURN
                self.burned.append(card)
        return Opened(tuple((x, tuple(ups[x])) for x in hand.seats if x in ups), tuple(board))

    def give(self, seat: int, to: int, card: Card) -> None:
        """`seat` passed its face-up `card` to `to` (SPEC 3.19)."""
        self.held[seat].remove(card)
        self.held.setdefault(to, []).append(card)

    def knowledge(self, seat: int) -> Knowledge:
        """What `seat` knows privately: its own cards, face down and up, and nothing more."""
        return Knowledge(seat, tuple(self.held.get(seat, ())))

    def face_down(self, hand: Hand, seat: int) -> tuple[Card, ...]:
        """The cards `seat` holds that are not showing: what its show opens."""
        showing = set(hand.showing(seat))
        return tuple(c for c in self.down.get(seat, ()) if c not in showing)


class LiveTable:
    """One hand of a live-deck game played by `players`, with a trusted dealer."""

    def __init__(
        self,
        hand: Hand,
        players: Mapping[int, Player],
        rng: random.Random,
        game: GameSpec,
    ) -> None:
        if not is_live(game):
            raise BotError(f"{game.name} is not dealt from the live deck")
        self.hand = hand
        self.players = players
        self.game = game
        deck = list(DECK)
        rng.shuffle(deck)
        self.dealer = LiveDealer(deck)
        self.actions: Counter[ActionKind] = Counter()
        self.steps = 0

    def _bet(self, seat: int) -> None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise BotError(f"hand {self.hand.hand_number} did not finish in {MAX_STEPS} steps")
        decision: Decision = self.players[seat].decide(self.hand, self.dealer.knowledge(seat))
        if not is_legal(self.hand, seat, decision):
            raise IllegalAction(f"seat {seat}'s player chose an illegal {decision}")
        apply_decision(self.hand, seat, decision)
        self.actions[decision.kind] += 1

    def _draw(self, seat: int) -> None:
        """Every player draws alike (`choose_draw`): the arena measures the betting."""
        step = self.hand.step
        assert isinstance(step, Draw)
        held = self.dealer.down[seat]
        positions = choose_draw(held, step.most)
        self.hand.act(ActionKind.DRAW, seat, positions)
        self.actions[ActionKind.DRAW] += 1
        gone = {held[p] for p in positions}
        self.dealer.down[seat] = [c for c in held if c not in gone]
        self.dealer.held[seat] = [c for c in self.dealer.held[seat] if c not in gone]
        self.dealer.muck += gone

    def _wash(self, seat: int) -> None:
        """The seat's own player decides its wash (SPEC 3.17); the dealer mucks the card."""
        h = self.hand
        down = list(self.dealer.down.get(seat, []))
        up = list(h.showing(seat))
        decision = self.players[seat].decide(h, self.dealer.knowledge(seat))
        if decision.kind in (ActionKind.WASH_CALL, ActionKind.KEEP_CALL):
            h.act(decision.kind, seat)  # it says whether it washes (Five by Two)
            self.actions[decision.kind] += 1
            return
        if decision.kind is not ActionKind.DRAW or decision.positions is None:
            raise BotError(f"seat {seat}'s player did not wash: {decision}")
        h.act(ActionKind.DRAW, seat, decision.positions)
        self.actions[ActionKind.DRAW] += 1
        for p in decision.positions:
            card = down[p] if p < len(down) else up[p - len(down)]
            if p < len(down):
                self.dealer.down[seat].remove(card)
            self.dealer.held[seat].remove(card)
            self.dealer.muck.append(card)

    def _keep_or_pass(self, seat: int) -> None:
        """The seat's own player keeps or passes its card of a pass street (SPEC 3.19); the
        dealer moves a passed card to the seat it goes to."""
        h = self.hand
        decision = self.players[seat].decide(h, self.dealer.knowledge(seat))
        if decision.kind not in (ActionKind.PASS_CARD, ActionKind.KEEP_CARD):
            raise BotError(f"seat {seat}'s player did not keep or pass its card: {decision}")
        event = h.act(decision.kind, seat)
        self.actions[decision.kind] += 1
        if isinstance(event, CardPassed):
            self.dealer.give(event.seat, event.to, event.card)

    def _declare(self) -> None:
        """Every player still in seals its declaration, none seeing another's; then all open
        (SPEC 3.16)."""
        h = self.hand
        chosen: dict[int, str] = {}
        for seat in h.to_act():
            decision = self.players[seat].decide(h, self.dealer.knowledge(seat))
            if decision.kind is not ActionKind.DECLARE or decision.choice is None:
                raise BotError(f"seat {seat}'s player did not declare: {decision}")
            h.act(ActionKind.DECLARE, seat, decision.choice)
            chosen[seat] = decision.choice
            self.actions[ActionKind.DECLARE] += 1
        for due in h.ops():
            if not h.is_over:
                h.act(ActionKind.OPEN_DECLARATION, due.seat, chosen[due.seat])

    def play(self) -> HandRecord:
        h = self.hand
        announcement = Announcement.of(self.game)
        h.announce(h.dealer, announcement)
        while not h.is_over:
            phase = h.phase
            if phase is Phase.STREET and h.to_act():
                self._keep_or_pass(h.to_act()[0])
            elif phase in (Phase.DEAL, Phase.STREET):
                h.act(ActionKind.STREET, h.dealer, self.dealer.street(h))
            elif phase is Phase.SHOW:
                seat = h.to_act()[0]
                h.act(ActionKind.SHOW, seat, self.dealer.face_down(h, seat))
            elif phase is Phase.BETTING:
                self._bet(h.to_act()[0])
            elif phase is Phase.DRAW and isinstance(h.step, Wash):
                self._wash(h.to_act()[0])
            elif phase is Phase.DRAW:
                self._draw(h.to_act()[0])
            elif phase is Phase.DECLARE:
                self._declare()
            else:
                raise BotError(f"the live arena cannot drive the {phase.value} phase")
        last = h.events[-1]
        assert isinstance(last, HandEnded)
        awards = last.result.awards
        live = [s for s in h.seats if not h.is_folded(s)]
        return HandRecord(
            number=h.hand_number,
            dealer=h.dealer,
            announcement=announcement,
            trades=0,
            showdown=len(live) > 1,
            pot=sum(award.pot.amount for award in awards),
            winners=tuple(sorted({s for award in awards for s in award.winners})),
            decisions=sum(self.actions.values()),
            players_at_end=len(live),
        )


def play_live_matchup(
    players: Sequence[tuple[str, PlayerMaker]],
    game: GameSpec,
    hands: int,
    seed: int,
    *,
    config: TableConfig | None = None,
) -> MatchupResult:
    """Seat `players` (seats 0..n-1, each a name and a maker) and play `hands` hands of `game`.

    Deterministic in `seed`. As `arena.play_matchup`: every hand starts with every stack at
    the table's starting stack and the button moves one seat each hand; the players last the
    whole match. `config` defaults to `live_config`. A seat's `winning_folds` is not measured
    here (a fold before the last card leaves no hand to compare) and is 0.
    """
    n = len(players)
    cfg = _table_config(n, hands, config if config is not None else live_config(max(2, n)))
    if game.name not in cfg.games:
        raise BotError(f"the table does not deal {game.name}")

    def table(hand: Hand, seated: Mapping[int, Player], rng: random.Random) -> LiveTable:
        return LiveTable(hand, seated, rng, game)

    return run_matchup(players, hands, seed, cfg, table)
