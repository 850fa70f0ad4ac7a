"""Test driver for the rules engine: a card model beside the engine and a random player.

The engine never sees face-down cards, so the model deals real cards, applies trades by
position, keeps each layout, and feeds the reveals; the driver checks the invariants after
every step and tries illegal actions on the way.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from p2pwillow.cards import DECK, Card
from p2pwillow.games import weeping_willow as ww
from p2pwillow.games.weeping_willow import (
    Partner,
    TradeMade,
    TradingClose,
    TradingMode,
    hand_after_trade,
)
from p2pwillow.hands import best_hand
from p2pwillow.rules import (
    ActionKind,
    Announcement,
    FoldedForStalling,
    Hand,
    HandEnded,
    IllegalAction,
    LaidOut,
    Phase,
    TableConfig,
)


@dataclass
class CardModel:
    """What the protocol layer would know, all at once: every hand and layout."""

    held: dict[int, list[Card]] = field(default_factory=dict)
    layout: dict[int, list[Card]] = field(default_factory=dict)
    undealt: list[Card] = field(default_factory=list)

    def deal(self, seats: tuple[int, ...], size: int, rng: random.Random) -> None:
        deck = list(DECK)
        rng.shuffle(deck)
        for i, seat in enumerate(seats):
            self.held[seat] = deck[i * size : (i + 1) * size]
        self.undealt = deck[len(seats) * size :]

    def trade(self, event: TradeMade) -> None:
        t = event.trade
        a, b = self.held[t.offerer], self.held[t.acceptor]
        give_a = [a[p] for p in t.offerer_positions]
        give_b = [b[p] for p in t.acceptor_positions]
        self.held[t.offerer] = list(hand_after_trade(a, t.offerer_positions, give_b))
        self.held[t.acceptor] = list(hand_after_trade(b, t.acceptor_positions, give_a))

    def all_cards(self) -> list[Card]:
        return [c for h in self.held.values() for c in h] + self.undealt


def chips_in_play(hand: Hand) -> int:
    v = hand.config.token_value
    return sum(hand.stack(s) + hand.tokens(s) * v for s in hand.seats) + hand.pot


def phase_of(hand: Hand) -> Phase:
    """The phase read afresh: a type checker keeps `hand.phase` narrowed across actions."""
    return hand.phase


def random_announcement(n: int, rng: random.Random) -> Announcement:
    sizes = [d for d, most in ((5, 10), (6, 8), (7, 7)) if n <= most]
    mode = rng.choice(list(TradingMode))
    partner = rng.choice(list(Partner))
    if mode is TradingMode.FREE:
        return ww.announcement(rng.choice(sizes), mode, TradingClose.DEALER_CALLS, partner=partner)
    closing = rng.choice(list(TradingClose))
    orbits = rng.randint(1, 3) if closing is TradingClose.ORBITS else None
    return ww.announcement(rng.choice(sizes), mode, closing, orbits, partner)


Attempt = tuple[str, Callable[[], object]]


def junk_attempts(hand: Hand, rng: random.Random, undealt: list[Card]) -> list[Attempt]:
    """Actions with arbitrary arguments: most are illegal at any given moment."""
    seat = rng.choice([*hand.seats, -1, 99, hand.seats[0]])
    n = rng.randint(-2, 200)
    # A legal junk reveal must not take a card some layout holds: use an undealt one.
    card = rng.choice(undealt or list(DECK))
    # Mostly seats that cannot stall (folded, or not in the hand): legal stalls are drawn apart.
    out = rng.choice([-1, 99, *(s for s in hand.seats if hand.is_folded(s)), seat])
    return [
        ("announce", lambda: hand.announce(seat, ww.announcement(7))),
        ("deal", hand.deal),
        ("offer", lambda: ww.offer(hand, seat, n % 9)),
        ("accept", lambda: ww.accept(hand, seat)),
        ("decline", lambda: ww.decline(hand, seat)),
        ("withdraw", lambda: ww.withdraw(hand, seat)),
        ("choose_partner", lambda: ww.choose_partner(hand, seat, n % 11)),
        ("pass", lambda: ww.pass_turn(hand, seat)),
        ("choose", lambda: ww.choose_trade_cards(hand, seat, [n % 8, (n + 1) % 8])),
        ("close", lambda: ww.close_trading(hand, seat)),
        ("lay_out", lambda: hand.lay_out(seat)),
        ("reveal", lambda: hand.reveal(seat, card)),
        ("check", lambda: hand.check(seat)),
        ("bet", lambda: hand.bet(seat, n)),
        ("call", lambda: hand.call(seat)),
        ("raise", lambda: hand.raise_to(seat, n * 3)),
        ("fold", lambda: hand.fold(seat)),
        ("all_in", lambda: hand.all_in(seat)),
        ("timeout", lambda: hand.timeout(seat)),
        ("stall", lambda: hand.stall(out)),
        ("abort", lambda: hand.abort([seat], "junk")),
    ]


def try_illegal(hand: Hand, attempt: Attempt) -> bool:
    """Run an attempt; if it raises, check it was IllegalAction and changed nothing."""
    before, events = hand.snapshot(), hand.events
    try:
        attempt[1]()
    except IllegalAction:
        assert hand.snapshot() == before, f"{attempt[0]} raised but changed the state"
        assert hand.events == events
        return False
    return True


class RandomTable:
    """Drives one hand with random legal actions and checks invariants at every step.

    `junk` is the share of steps that try an arbitrary (mostly illegal) action; `stall` the
    chance per step that a random player still in is folded for stalling (after the deal) or
    the hand is aborted (before it).
    """

    def __init__(
        self, hand: Hand, rng: random.Random, junk: float = 0.3, stall: float = 0.0
    ) -> None:
        self.hand = hand
        self.rng = rng
        self.junk = junk
        self.stall = stall
        self.model = CardModel()
        self.start_total = chips_in_play(hand)
        self.steps = 0

    def legal_step(self) -> None:
        h, rng = self.hand, self.rng
        if h.phase is Phase.DEAL:
            h.deal()
            return
        if rng.random() < self.stall:
            self.stall_someone()
            return
        waiting = h.to_act()
        seat = rng.choice(waiting)
        kinds = h.legal_actions(seat)
        assert kinds, f"seat {seat} must act in {h.phase} but has no legal action"
        timed_out = h.phase in (Phase.TRADING, Phase.BETTING) and rng.random() < 0.05
        if timed_out and h.can_timeout(seat):
            h.timeout(seat)
            return
        kind = rng.choice(sorted(kinds, key=lambda k: k.value))
        if h.phase is Phase.TRADING and ActionKind.CLOSE_TRADING in kinds and rng.random() < 0.3:
            kind = ActionKind.CLOSE_TRADING
        self.act(seat, kind)

    def stall_someone(self) -> None:
        """Before the deal a stalled step aborts the hand; after it the staller folds."""
        h, rng = self.hand, self.rng
        if h.phase in (Phase.ANNOUNCE, Phase.DEAL):
            h.abort(rng.sample(h.seats, rng.randint(0, 2)), "the protocol stalled")
            return
        seat = rng.choice([s for s in h.seats if not h.is_folded(s)])
        pot, committed = h.pot, {s: h.committed(s) for s in h.seats}
        event = h.stall(seat)
        assert isinstance(event, FoldedForStalling) and event.seat == seat
        assert h.is_folded(seat) and seat in h.stalled
        if not h.is_over:
            # SPEC 3.9: nothing comes out of the pot; the staller's bets stay in it.
            assert h.pot == pot and {s: h.committed(s) for s in h.seats} == committed
            assert seat not in h.to_act() and h.tokens(seat) == 0
        else:
            assert h.result is not None
            assert all(seat not in a.winners for a in h.result.awards)

    def act(self, seat: int, kind: ActionKind) -> None:
        h, rng = self.hand, self.rng
        if kind is ActionKind.ANNOUNCE:
            h.announce(seat, random_announcement(len(h.seats), rng))
        elif kind is ActionKind.OFFER:
            ww.offer(h, seat, rng.randint(1, h.hand_size(seat)))
        elif kind is ActionKind.ACCEPT:
            ww.accept(h, seat)
        elif kind is ActionKind.DECLINE:
            ww.decline(h, seat)
        elif kind is ActionKind.WITHDRAW:
            ww.withdraw(h, seat)
        elif kind is ActionKind.CHOOSE_PARTNER:
            ww.choose_partner(h, seat, rng.choice(ww.accepted(h)))
        elif kind is ActionKind.PASS:
            ww.pass_turn(h, seat)
        elif kind is ActionKind.CHOOSE_TRADE_CARDS:
            sides = ww.trade_sides(h)
            assert sides is not None
            ww.choose_trade_cards(h, seat, rng.sample(range(h.hand_size(seat)), sides[2]))
        elif kind is ActionKind.CLOSE_TRADING:
            ww.close_trading(h, seat)
        elif kind is ActionKind.LAY_OUT:
            self.model.layout[seat] = rng.sample(self.model.held[seat], 5)
            h.lay_out(seat)
        elif kind is ActionKind.REVEAL:
            h.reveal(seat, self.model.layout[seat][h.betting_round - 1])
        elif kind is ActionKind.CHECK:
            h.check(seat)
        elif kind is ActionKind.CALL:
            h.call(seat)
        elif kind is ActionKind.FOLD:
            h.fold(seat)
        elif kind is ActionKind.ALL_IN:
            h.all_in(seat)
        else:
            o = h.bet_options(seat)
            assert o is not None
            if kind is ActionKind.BET:
                assert o.bet_min is not None and o.bet_max is not None
                h.bet(seat, rng.randint(o.bet_min, o.bet_max))
            else:
                assert o.raise_min is not None and o.raise_max is not None
                h.raise_to(seat, rng.randint(o.raise_min, o.raise_max))

    def check_invariants(self, seen: int) -> None:
        h = self.hand
        for event in h.events[seen:]:
            if isinstance(event, TradeMade):
                self.model.trade(event)
        if h.phase is Phase.ANNOUNCE:
            return
        if self.model.held:
            cards = self.model.all_cards()
            assert len(cards) == 52 and len(set(cards)) == 52, "cards not conserved"
            for seat in h.seats:
                if h.phase not in (Phase.COMPLETE, Phase.ABORTED):
                    assert h.hand_size(seat) == len(self.model.held[seat])
        if h.is_over:
            assert h.result is not None
            assert sum(h.result.final_stacks) == self.start_total, "chips not conserved"
            assert h.to_act() == ()
        else:
            assert chips_in_play(h) == self.start_total, "chips not conserved"
            assert h.pot >= 0 and all(h.stack(s) >= 0 for s in h.seats)
            if h.phase is not Phase.DEAL:
                assert h.to_act(), f"nobody can act in {h.phase}"
                must_act = h.snapshot().needs
                assert not any(h.is_folded(x) for x in must_act), "a folded seat must act"
                for seat in h.to_act():
                    assert not h.is_folded(seat), f"the hand waits for folded seat {seat}"
                    assert h.legal_actions(seat), f"seat {seat} has no legal action"

    def check_showdown(self) -> None:
        h = self.hand
        last = h.events[-1]
        if not isinstance(last, HandEnded):
            return
        out = {s for s in h.seats if h.is_folded(s)}
        assert set(h.stalled) <= out
        for award in last.result.awards:
            assert sum(award.shares) == award.pot.amount
            assert not out & set(award.pot.eligible), "a folded seat can win a pot"
            if len(award.pot.eligible) > 1 or all(len(h.showing(s)) == 5 for s in h.seats):
                values = {s: best_hand(h.showing(s)) for s in award.pot.eligible}
                top = max(values.values())
                assert set(award.winners) == {s for s, v in values.items() if v == top}
            shares = sorted(award.shares, reverse=True)
            assert shares[0] - shares[-1] <= 1

    def run(self, max_steps: int = 3000) -> Hand:
        h = self.hand
        while not h.is_over:
            assert self.steps < max_steps, "hand did not finish"
            self.step()
        self.check_showdown()
        return h

    def step(self) -> None:
        """One attempt (maybe junk) and one legal step, with the invariants checked."""
        h = self.hand
        self.steps += 1
        if self.rng.random() < self.junk:
            attempt = self.rng.choice(junk_attempts(h, self.rng, self.model.undealt))
            seen = len(h.events)
            if try_illegal(h, attempt):
                # A junk attempt may happen to be legal; the model must follow it.
                self._follow_junk(attempt[0], seen)
                self.check_invariants(seen)
                return
        seen = len(h.events)
        if h.phase is Phase.DEAL and self.rng.random() < self.stall:
            self.stall_someone()
        elif h.phase is Phase.DEAL:
            h.deal()
            self.model.deal(h.seats, h.hand_size(h.seats[0]), self.rng)
        else:
            self.legal_step()
        self.check_invariants(seen)

    def _follow_junk(self, name: str, seen: int) -> None:
        h = self.hand
        if name == "deal":
            self.model.deal(h.seats, h.hand_size(h.seats[0]), self.rng)
        elif name == "lay_out":
            event = h.events[seen]
            assert isinstance(event, LaidOut)
            seat = event.seat
            self.model.layout[seat] = self.model.held[seat][:5]


def dealt(announcement: Announcement, stacks: tuple[int, ...] = (500,) * 4) -> Hand:
    """Seats 0..n-1, seat 0 deals (the order is 1, 2, ..., 0), six tokens of 5 chips each."""
    hand = Hand(TableConfig(seats=len(stacks)), range(len(stacks)), stacks, dealer=0)
    hand.announce(0, announcement)
    hand.deal()
    return hand


def refused(hand: Hand, action: str, *args: object) -> None:
    """`hand.action(*args)` raises IllegalAction and changes nothing."""
    before, events = hand.snapshot(), hand.events
    act = getattr(hand, action, None)
    if act is None:  # a trading action: Weeping Willow's own (games.weeping_willow)
        act = functools.partial(getattr(ww, action), hand)
    try:
        act(*args)
    except IllegalAction:
        assert hand.snapshot() == before and hand.events == events
        return
    raise AssertionError(f"{action}{args} was accepted")


def random_hand(rng: random.Random, config: TableConfig | None = None) -> Hand:
    cfg = config or TableConfig(seats=10)
    n = rng.randint(2, cfg.seats)
    seats = sorted(rng.sample(range(cfg.seats), n))
    stacks = [rng.choice([1, 7, 30, 60, 150, 400, 1000, 5000]) for _ in seats]
    return Hand(cfg, seats, stacks, dealer=rng.choice(seats))


def to_layout(hand: Hand, announcement: Announcement | None = None) -> None:
    """Announce, deal, and close trading at once (needs trading to end immediately)."""
    hand.announce(hand.dealer, announcement or ww.announcement(5))
    hand.deal()
    if hand.phase is Phase.TRADING:
        ww.close_trading(hand, hand.dealer)


def reveal_round(hand: Hand, layouts: dict[int, list[Card]]) -> None:
    for seat in hand.to_act():
        hand.reveal(seat, layouts[seat][hand.betting_round - 1])


def to_betting(
    config: TableConfig,
    layouts: dict[int, list[Card]],
    stacks: dict[int, int],
    dealer: int,
) -> Hand:
    """A hand with no trading, laid out, with round 1's cards turned."""
    seats = sorted(layouts)
    hand = Hand(config, seats, [stacks[s] for s in seats], dealer)
    hand.announce(dealer, ww.announcement(5, TradingMode.FREE, TradingClose.DEALER_CALLS))
    hand.deal()
    if hand.phase is Phase.TRADING:
        ww.close_trading(hand, dealer)
    for seat in hand.seats:
        hand.lay_out(seat)
    reveal_round(hand, layouts)
    return hand
