"""The table view: built from the sessions of real in-process tables at every entry of real
hands, and checked against the rules and the session it reads."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from split_plan import Plan

from p2pwillow import view as view_module
from p2pwillow.bots import Decision, Level
from p2pwillow.cards import Card, parse_cards
from p2pwillow.games import ACTIONS as ALL_ACTIONS
from p2pwillow.games import CATALOGUE
from p2pwillow.games import weeping_willow as ww
from p2pwillow.games.weeping_willow import TradingClose, TradingMode
from p2pwillow.ledger.identity import Identity, fingerprint
from p2pwillow.rules import (
    ActionKind,
    Announcement,
    BettingStructure,
    Phase,
    TableConfig,
)
from p2pwillow.rules.actions import decisions
from p2pwillow.rules.decision import DecisionError
from p2pwillow.rules.events import PotSplit
from p2pwillow.rules.live import Deal
from p2pwillow.session import Session, make_genesis
from p2pwillow.table import Table, bot_decider
from p2pwillow.view import (
    Link,
    TableView,
    high_side,
    low_side,
    made_by,
    street_name,
    table_view,
)

K = ActionKind


def _rng(seed: int) -> Callable[[int], bytes]:
    return random.Random(seed).randbytes


@dataclass
class Recorder:
    """Views of every seat after every sequenced entry, and at every decision point."""

    table: Table | None = None
    watch: tuple[int, ...] | None = None
    """The seats whose views are made after every entry (None: all)."""
    after_entry: list[list[TableView]] = field(default_factory=list)
    at_decision: list[tuple[Session, TableView]] = field(default_factory=list)

    def on_entry(self, _entry: object) -> None:
        if self.table is not None:
            sessions = self.table.sessions
            seats = range(len(sessions)) if self.watch is None else self.watch
            views = [table_view(sessions[s]) for s in seats]
            for seat, view in zip(seats, views, strict=True):
                check_view(sessions[seat], view)
            self.after_entry.append(views)


def recorded_table(
    players: int,
    seed: int,
    *,
    config: TableConfig | None = None,
    deciders: dict[int, Callable[[Session], Decision | None]] | None = None,
    probe: Callable[[Session, TableView], None] | None = None,
    watch: tuple[int, ...] | None = None,
) -> tuple[Table, Recorder]:
    """A table whose every view is checked as it is made; `probe` also sees each view at a
    decision point, while the session is still in that state."""
    rec = Recorder(watch=watch)
    wrapped: dict[int, Callable[[Session], Decision | None]] = {}
    for seat in range(players):
        # The level the scenarios of this file were written against (SPEC 9, Levels).
        inner = (deciders or {}).get(seat) or bot_decider(
            seat, random.Random(seed + seat), samples=40, level=Level.EASY
        )

        def decide(
            session: Session, inner: Callable[[Session], Decision | None] = inner
        ) -> Decision | None:
            view = table_view(session)
            check_view(session, view)
            if probe is not None:
                probe(session, view)
            rec.at_decision.append((session, view))
            d = inner(session)
            if d is not None:
                assert session.decision_error(d) is None, (d, view.actions)
            return d

        wrapped[seat] = decide
    table = Table(
        players,
        config=config,
        seed=seed,
        rng=_rng(seed),
        deciders=wrapped,
        samples=40,
        on_entry=rec.on_entry,
    )
    rec.table = table
    return table, rec


def check_view(session: Session, view: TableView) -> None:
    """What every view must agree with in its session and the rules."""
    hand = session.hand
    me = session.seat
    names = {p.seat: p.name for p in session.game.players}
    assert view.safety_code == session.ledger.safety_code()
    assert [s.seat for s in view.seats] == sorted(names)
    keys = session.ledger.identities
    for s in view.seats:
        # every name with its player's fingerprint, the same on every screen (SPEC 6.2)
        assert s.fingerprint == fingerprint(keys[s.seat]), s
        assert s.label == f"{s.name} #{s.fingerprint}"
    rows = ALL_ACTIONS if hand is None or not view.hand_running else hand.rows
    assert [a.kind for a in view.actions] == [row.kind for row in decisions(rows)]
    for a in view.actions:
        assert a.legal == (a.reason == ""), a
        if not a.legal:
            # The rules' reasons, spoken with names rather than seat numbers.
            assert not re.search(r"\bseat \d\b", a.reason), a.reason
            # ... and in words, not the code's names ("close-trading", "orbit-without-trade")
            assert not set(re.findall(r"\b[a-z]+(?:[-_][a-z]+)+\b", a.reason)) - {"in-turn"}, a
    if hand is None or me is None or hand.is_over or not session.seated:
        assert not view.legal
        return
    legal = set(view.legal)
    if session.may_decide():
        assert legal == set(hand.legal_actions(me))
    else:
        assert not legal
    options = hand.bet_options(me)
    if K.BET in legal:
        assert options is not None
        assert (view.action(K.BET).low, view.action(K.BET).high) == (
            options.bet_min,
            options.bet_max,
        )
    if K.RAISE in legal:
        assert options is not None
        assert view.action(K.RAISE).low == options.raise_min
        assert view.action(K.RAISE).high == options.raise_max
    if K.CALL in legal:
        assert options is not None and view.action(K.CALL).amount == options.call_amount
    if K.OFFER in legal:
        assert view.action(K.OFFER).low == 1
        assert view.action(K.OFFER).high == hand.hand_size(me)
    # Chips: stacks, tokens set aside and the pot are every chip the hand started with, and
    # the pot carried over from the last hand (SPEC 3.16).
    tv = session.config.token_value
    in_hand = [s for s in view.seats if s.in_hand]
    started = sum(session.game.player(s.seat).stack for s in in_hand)
    assert view.carried_in == hand.carried_in
    assert sum(s.stack + s.tokens * tv for s in in_hand) + view.pot == started + view.carried_in
    assert view.pot == hand.pot
    assert sum(p.amount for p in view.pots) + sum(s.bet for s in view.seats) == view.pot
    for s in view.seats:
        if s.in_hand:
            assert s.stack == hand.stack(s.seat)
            assert s.tokens == hand.tokens(s.seat)
            assert s.showing == hand.showing(s.seat)
            assert s.folded == hand.is_folded(s.seat)
            assert s.dealer == (s.seat == hand.dealer)
    assert [c.card for c in view.cards] == list(session.cards)
    for own in view.cards:
        if own.came_from is not None:
            assert own.card in session.received[own.came_from]
    waits = {w.seat for w in session.waiting_for()}
    shown = {seat for w in view.waiting for seat in w.seats}
    assert shown <= waits
    if not session.decision_pending:
        assert shown == waits
    if view.layout is not None:
        assert view.layout == session.layout
        assert set(view.discards) | set(view.layout) == set(session.cards)


def test_views_at_every_entry_of_real_hands() -> None:
    table, rec = recorded_table(4, seed=3)
    assert table.play(2) == 2
    assert len(rec.after_entry) > 100
    for views in rec.after_entry:
        codes = {v.safety_code for v in views}
        assert len(codes) == 1  # every player sees the same safety code
    assert len(rec.at_decision) > 20
    for s in table.sessions:
        check_view(s, table_view(s))
    phases = {v.phase for views in rec.after_entry for v in views}
    assert {Phase.ANNOUNCE, Phase.TRADING, Phase.LAYOUT, Phase.REVEAL, Phase.BETTING} <= phases


def test_log_tells_the_hand_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    # the whole hand's log: with offers answered by everyone it runs past the lines a view keeps
    monkeypatch.setattr(view_module, "LOG_LINES", 1000)
    table, _ = recorded_table(4, seed=3)
    table.play(1)
    view = table_view(table.sessions[1])
    summary = table.sessions[1].summaries[-1]
    text = [line.text() for line in view.log]
    names = {s.seat: s.name for s in view.seats}
    # Every trade of the hand is told, after both gives and before the hand shuffles.
    for trade in summary.trades:
        a, b = trade.seats
        told = f"{names[a]} traded {trade.cards} card{'s' * (trade.cards > 1)} with {names[b]}"
        assert told in text, (told, text)
    whole = view.log
    monkeypatch.undo()
    view = table_view(table.sessions[1])
    turns = [line for line in view.log if " turns " in line.text()]
    # Each card turned is told with the card itself, as many as the hand showed.
    shown = [c for _, cards in summary.shown for c in cards]
    assert turns and len(turns) <= len(shown)
    assert all(line.parts[-1] in shown for line in turns)
    assert any("wins" in t or "split" in t for t in text)
    assert text[-1] == "Hand 1 signed by everyone"
    # A view keeps the last lines of the hand; earlier lines are dropped beyond them.
    assert view.log == whole[-view_module.LOG_LINES :]


def test_log_from_the_start_of_a_hand() -> None:
    table, rec = recorded_table(4, seed=5)
    table.play(1)
    # A view taken during trading tells the hand from its start.
    views = [vs[2] for vs in rec.after_entry if vs[2].phase is Phase.TRADING]
    early = [line.text() for line in views[0].log]
    assert early[0] == "Hand 1: bot 0 deals"
    assert "bot 1's hand key proof checked" in early
    assert "bot 2 made a hand key" in early
    assert "bot 3's shuffle proof checked" in early
    assert "bot 2 shuffled the deck" in early
    assert any(t.startswith("bot 0 announces ") for t in early)
    assert any(t.endswith("cards dealt to each player") for t in early)
    # The order: keys, then shuffles in table order, then the announcement and the deal.
    assert early.index("bot 1's hand key proof checked") < early.index(
        "bot 1's shuffle proof checked"
    )


def _scripted(
    seat: int,
    *,
    announce: Announcement | None = None,
    trading: Callable[[Session], Decision | None] | None = None,
    betting: Callable[[Session], Decision | None] | None = None,
) -> Callable[[Session], Decision | None]:
    """A decider that plays a fixed plan: announce, then `trading`, lay out the first five,
    then `betting` (each None means: the simplest legal move)."""

    def decide(session: Session) -> Decision | None:
        hand = session.hand
        assert hand is not None
        legal = hand.legal_actions(seat)
        if K.ANNOUNCE in legal:
            return Decision(K.ANNOUNCE, announcement=announce or ww.announcement())
        if K.CHOOSE_TRADE_CARDS in legal:
            sides = ww.trade_sides(hand)
            assert sides is not None
            return Decision(K.CHOOSE_TRADE_CARDS, positions=tuple(range(sides[2])))
        if K.LAY_OUT in legal:
            return Decision(K.LAY_OUT, positions=(0, 1, 2, 3, 4))
        if hand.phase is Phase.TRADING:
            if trading is not None:
                d = trading(session)
                if d is not None:
                    return d
            if K.CHOOSE_PARTNER in legal:
                return Decision(K.CHOOSE_PARTNER, partner=ww.accepted(hand)[0])
            for kind in (K.DECLINE, K.PASS, K.CLOSE_TRADING):
                if kind in legal:
                    return Decision(kind)
            return None
        if betting is not None:
            return betting(session)
        for kind in (K.CHECK, K.CALL):
            if kind in legal:
                return Decision(kind)
        return Decision(K.FOLD) if K.FOLD in legal else None

    return decide


def test_an_open_offer_and_an_agreed_trade() -> None:
    seen: list[TableView] = []

    def offer_once(session: Session) -> Decision | None:
        hand = session.hand
        assert hand is not None
        if K.OFFER in hand.legal_actions(1) and not ww.trades(hand):
            return Decision(K.OFFER, k=2)
        return None

    def accept(session: Session) -> Decision | None:
        hand = session.hand
        assert hand is not None
        seen.append(table_view(session))
        return Decision(K.ACCEPT) if K.ACCEPT in hand.legal_actions(2) else None

    deciders = {s: _scripted(s) for s in range(4)}
    deciders[1] = _scripted(1, trading=offer_once)
    deciders[2] = _scripted(2, trading=accept)
    table, rec = recorded_table(4, seed=1, deciders=deciders)
    table.start_hand()
    table.finish_hand()
    # Seat 2 saw seat 1's open offer of 2 and could accept or decline it.
    at_offer = next(v for v in seen if v.offer is not None)
    assert at_offer.offer is not None
    assert (at_offer.offer.offerer, at_offer.offer.k, at_offer.offer.accepted_by) == (1, 2, None)
    assert {K.ACCEPT, K.DECLINE} <= set(at_offer.legal)
    assert "answer bot 1's offer of 2" in [w.what for w in at_offer.waiting]
    # the offerer alone may withdraw (it chooses among those who accept, or withdraws)
    assert at_offer.action(K.WITHDRAW).reason == "only bot 1 can withdraw its offer"
    assert at_offer.action(K.PASS).reason == "cannot pass: an offer is open"
    # Once accepted, both sides choose; seat 0 sees the trade and why it cannot offer.
    views = [vs[0] for vs in rec.after_entry]
    agreed = next(v for v in views if v.offer is not None and v.offer.accepted_by == 2)
    assert agreed.offer is not None and set(agreed.offer.waiting) <= {1, 2}
    assert agreed.action(K.OFFER).reason == "cannot offer: a trade is being completed"
    assert agreed.action(K.CHOOSE_TRADE_CARDS).reason == "bot 0 is not a side of this trade"
    # The sides' own cards show where the received ones came from.
    mine = next(vs[2] for vs in rec.after_entry if vs[2].phase is Phase.LAYOUT)
    assert "bot 1 traded 2 cards with bot 2" in [line.text() for line in mine.log]
    assert len([c for c in mine.cards if c.came_from == 1]) == 2
    assert mine.given and mine.given[0][0] == 1 and len(mine.given[0][1]) == 2


def test_all_in_side_pots_and_a_showdown() -> None:
    config = TableConfig(seats=4, structure=BettingStructure.NO_LIMIT)

    def offer_once(session: Session) -> Decision | None:
        hand = session.hand
        assert hand is not None
        if K.OFFER in hand.legal_actions(1) and not ww.trades(hand):
            return Decision(K.OFFER, k=1)
        return None

    def accept(session: Session) -> Decision | None:
        hand = session.hand
        assert hand is not None
        return Decision(K.ACCEPT) if K.ACCEPT in hand.legal_actions(2) else None

    def shove(seat: int) -> Callable[[Session], Decision | None]:
        def decide(session: Session) -> Decision | None:
            hand = session.hand
            assert hand is not None
            legal = hand.legal_actions(seat)
            for kind in (K.ALL_IN, K.CALL, K.CHECK):
                if kind in legal:
                    return Decision(kind)
            return None

        return decide

    deciders = {s: _scripted(s, betting=shove(s)) for s in range(4)}
    deciders[1] = _scripted(1, trading=offer_once, betting=shove(1))
    deciders[2] = _scripted(2, trading=accept, betting=shove(2))
    table, rec = recorded_table(4, seed=2, config=config, deciders=deciders)
    table.start_hand()
    table.finish_hand()
    views = [vs[3] for vs in rec.after_entry]
    # Seats 1 and 2 paid a token each: their stacks are 5 short, so they are all in for
    # less and a side pot of 5 + 5 is left to seats 0 and 3.
    shoved = [v for v in views if len(v.pots) == 2 and v.hand_running][-1]
    main, side = shoved.pots
    assert side.amount == 10 and set(side.eligible) == {0, 3}
    assert set(main.eligible) == {0, 1, 2, 3}
    assert all(s.all_in for s in shoved.seats if s.seat in (1, 2))
    final = table_view(table.sessions[3])
    text = [line.text() for line in final.log]
    assert any("no betting, fewer than two can bet" in t for t in text)
    assert any(re.match(r"bot \d( and bot \d)* (wins|split) \d+", t) for t in text)
    assert final.result
    assert sum(p.amount for p in final.pots) == 4000
    assert all(len(s.showing) == 5 for s in final.seats)
    assert sum(s.stack for s in final.seats) == 4000


def test_a_fold_and_timeouts_are_told() -> None:
    def fold(session: Session) -> Decision | None:
        hand = session.hand
        assert hand is not None
        if K.BET in hand.legal_actions(session.seat or 0):
            return Decision(K.BET, amount=25)
        if K.FOLD in hand.legal_actions(session.seat or 0):
            return Decision(K.FOLD)
        return None

    deciders = {s: _scripted(s, betting=fold) for s in range(3)}
    table, _ = recorded_table(3, seed=4, deciders=deciders)
    table.start_hand()
    table.finish_hand()
    view = table_view(table.sessions[0])
    text = [line.text() for line in view.log]
    assert any(re.fullmatch(r"bot \d bets 25", t) for t in text)
    assert sum(1 for t in text if t.endswith(" folds")) == 2
    assert any(t.endswith(", everyone else folded") for t in text)
    folded = [s for s in view.seats if s.folded]
    assert len(folded) == 2


def test_decision_errors_are_the_rules_reasons() -> None:
    checked: list[ActionKind] = []

    def probe(session: Session, view: TableView) -> None:
        hand = session.hand
        assert hand is not None and session.seat is not None
        me = session.seat
        if K.BET in view.legal:
            high = view.action(K.BET).high
            assert high is not None
            error = session.decision_error(Decision(K.BET, amount=high + 1))
            assert error is not None and error.startswith("a bet now is ")
            no_call = session.decision_error(Decision(K.CALL))
            assert no_call == "there is no bet to call: check or bet"
            checked.append(K.BET)
        if K.LAY_OUT in view.legal:
            five = Decision(K.LAY_OUT, positions=(0, 1, 2, 3, 4))
            assert session.decision_error(five) is None
            with pytest.raises(DecisionError, match="named twice"):
                Decision(K.LAY_OUT, positions=(0, 0, 1, 2, 3))
            size = hand.hand_size(me)
            beyond = session.decision_error(Decision(K.LAY_OUT, positions=(0, 1, 2, 3, size)))
            assert beyond == f"a layout is 5 distinct positions of 0..{size - 1}"
            short = session.decision_error(Decision(K.LAY_OUT, positions=(0, 1, 2, 3)))
            assert short == f"a layout is 5 distinct positions of 0..{size - 1}"
            checked.append(K.LAY_OUT)
        if K.OFFER in view.legal:
            assert session.decision_error(Decision(K.OFFER, k=0)) is not None
            checked.append(K.OFFER)
        if K.CHOOSE_TRADE_CARDS in view.legal:
            k = view.action(K.CHOOSE_TRADE_CARDS).low
            wrong = session.decision_error(Decision(K.CHOOSE_TRADE_CARDS, positions=()))
            assert wrong == f"choose exactly {k} positions, not 0"
            checked.append(K.CHOOSE_TRADE_CARDS)
        if K.ANNOUNCE in view.legal:
            late = session.decision_error(Decision(K.CHECK))
            assert late == "check is not allowed in the announce phase"
            checked.append(K.ANNOUNCE)

    table, _ = recorded_table(4, seed=3, probe=probe)
    table.play(1)
    assert {K.BET, K.LAY_OUT, K.OFFER, K.CHOOSE_TRADE_CARDS, K.ANNOUNCE} <= set(checked)


def test_seating_and_an_observer() -> None:
    ids = [Identity.generate(_rng(i)) for i in range(2)]
    roster = [(s, f"p{s}", ids[s].public_key) for s in range(2)]
    genesis = make_genesis(ids[0], 0, b"g" * 16, "test table", TableConfig(seats=2), roster)
    second = Session(ids[1], 1, genesis, _rng(9))
    view = table_view(second, {0: Link.CONNECTING})
    assert view.stage == "seating"
    assert view.table == "test table"
    assert not view.seated
    assert [(w.seats, w.what) for w in view.waiting] == [((0, 1), "take their seat")]
    assert all(a.reason == "the table is still being seated" for a in view.actions)
    seat0 = view.seat(0)
    assert seat0 is not None and seat0.link is Link.CONNECTING and not seat0.you
    observer = Session(None, None, genesis)
    watched = table_view(observer)
    assert watched.you is None
    assert watched.safety_code == view.safety_code


def test_free_trading_and_the_dealers_close() -> None:
    free = ww.announcement(5, TradingMode.FREE, TradingClose.DEALER_CALLS)
    seen: list[TableView] = []

    def dealer(session: Session) -> Decision | None:
        hand = session.hand
        assert hand is not None
        legal = hand.legal_actions(0)
        if K.ANNOUNCE in legal:
            return Decision(K.ANNOUNCE, announcement=free)
        if hand.phase is Phase.TRADING:
            seen.append(table_view(session))
            if K.CLOSE_TRADING in legal:
                return Decision(K.CLOSE_TRADING)
        return _scripted(0)(session)

    deciders = {s: _scripted(s) for s in range(3)}
    deciders[0] = dealer
    table, _ = recorded_table(3, seed=6, deciders=deciders)
    table.start_hand()
    table.finish_hand()
    assert seen
    first = seen[0]
    assert first.stage == "trading (free)"
    # Every seat has its chance to offer before the dealer may close, and the dealer is told
    # who may still offer or pass.
    assert K.OFFER in first.legal and K.PASS in first.legal
    assert K.CLOSE_TRADING not in first.legal
    assert first.action(K.CLOSE_TRADING).reason == (
        "cannot close trading yet: bot 1, bot 2 may still offer or pass"
    )
    assert "offer a trade or pass" in [w.what for w in first.waiting]
    assert any(K.CLOSE_TRADING in v.legal for v in seen)
    told = [line.text() for line in first.log]
    said = (
        "bot 0 announces Weeping Willow: 5 cards, free trading until the dealer calls it once"
        " everyone has offered or passed, the offerer picks among those who accept"
    )
    assert said in told
    text = [line.text() for line in table_view(table.sessions[1]).log]
    assert "Trading closed by bot 0" in text


@pytest.mark.parametrize("players", [2, 5])
def test_views_at_other_table_sizes(players: int) -> None:
    table, rec = recorded_table(players, seed=players, watch=(0, players - 1))
    table.play(1)
    assert rec.at_decision
    view = table_view(table.sessions[0])
    assert len(view.seats) == players
    assert view.deal_sizes == (5, 6, 7)


@pytest.mark.parametrize(("players", "sizes"), [(7, (5, 6, 7)), (8, (5, 6)), (10, (5,))])
def test_the_deal_sizes_that_fit(players: int, sizes: tuple[int, ...]) -> None:
    table = Table(players, rng=_rng(players))
    view = table_view(table.sessions[0])
    assert view.stage == "waiting for the first hand"
    assert view.deal_sizes == sizes


def _check_live_view(session: Session, view: TableView) -> None:
    """What a view of a live-deck game (SPEC 3.15) must agree with: the game and its street,
    the board, each seat's up cards and face-down count, and no card the player cannot see."""
    hand = session.hand
    if hand is None or hand.game is None or view.hand != hand.hand_number:
        return
    game = hand.game
    assert view.live and view.game_title == game.title
    assert view.stage.startswith(f"{game.title} — "), view.stage
    assert view.board == hand.board
    assert view.board_size == sum(d.board for d in game.steps_of(Deal) if not d.overflow)
    if view.phase is Phase.BETTING:
        assert view.street == street_name(game, hand.betting_round)
        assert view.stage == f"{game.title} — {view.street}: betting"
    seen = set(session.cards) | set(hand.board)
    for s in view.seats:
        if not s.in_hand:
            continue
        seen |= set(hand.showing(s.seat))
        assert s.showing == hand.showing(s.seat) and s.discards == 0
        hidden = hand.hand_size(s.seat) - len(s.showing)
        assert s.face_down == (hidden if view.hand_running else 0), s
    shown = {c for s in view.seats for c in s.showing} | set(view.board)
    shown |= {c.card for c in view.cards}
    shown |= {p for line in (*view.log, *view.result) for p in line.parts if isinstance(p, Card)}
    assert shown <= seen, shown - seen  # nobody's down cards but the player's own


def _calling(seat: int) -> Callable[[Session], Decision | None]:
    """A bot that checks or calls every bet (so that hands reach the showdown)."""
    bot = bot_decider(seat, random.Random(seat), samples=20, level=Level.EASY)

    def decide(session: Session) -> Decision | None:
        hand = session.hand
        if hand is not None and hand.phase is Phase.BETTING and session.seat is not None:
            legal = hand.legal_actions(session.seat)
            for kind in (K.CHECK, K.CALL):
                if kind in legal:
                    return Decision(kind)
        return bot(session)

    return decide


@pytest.mark.parametrize(
    "game", ["holdem", "omaha", "seven-card-stud", "five-card-stud", "five-card-draw"]
)
def test_views_of_live_deck_games(game: str) -> None:
    spec = CATALOGUE[game]
    stages: list[str] = []
    tables: list[Table] = []

    def on_entry(_entry: object) -> None:
        for session in tables[0].sessions if tables else ():
            view = table_view(session)
            check_view(session, view)
            _check_live_view(session, view)
            if session.seat == 0 and view.stage not in stages:
                stages.append(view.stage)

    table = Table(
        4,
        config=TableConfig(seats=4, games=(game,)),
        seed=11,
        rng=_rng(11),
        deciders={seat: _calling(seat) for seat in range(4)},
        samples=20,
        on_entry=on_entry,
    )
    tables.append(table)
    assert table.play(1) == 1
    assert f"{spec.title} — {street_name(spec, 1)}: betting" in stages, stages
    assert stages[-1] == f"{spec.title} — hand over", stages
    view = table_view(table.sessions[0])
    hand = table.sessions[0].hand
    assert hand is not None and hand.result is not None
    shown = [s for s in view.seats if s.in_hand and not s.folded]
    assert len(shown) == 4  # everyone called to the showdown
    # each shown hand valued by the game's formation, the winner's named
    for s in shown:
        made = made_by(spec, s.showing, view.board)
        assert made and s.showing_text == re.sub(r", \w+ kicker$", "", made), s
    winner = hand.result.awards[0].winners[0]
    made = made_by(spec, hand.showing(winner), hand.board)
    assert any(f"with {made}" in line.text() for line in view.result), view.result
    told = [line.text() for line in view.log]
    for s in shown:
        assert any(
            t.startswith(f"{s.name} shows ")
            and t.endswith(": " + made_by(spec, s.showing, view.board))
            for t in told
        ), told


def test_the_streets_of_each_live_deck_game() -> None:
    names = {
        "holdem": ["before the flop", "the flop", "the turn", "the river"],
        "omaha": ["before the flop", "the flop", "the turn", "the river"],
        "seven-card-stud": [
            f"{n} street" for n in ("third", "fourth", "fifth", "sixth", "seventh")
        ],
        "five-card-stud": [f"{n} street" for n in ("second", "third", "fourth", "fifth")],
    }
    for game, streets in names.items():
        spec = CATALOGUE[game]
        assert [street_name(spec, r) for r in range(1, spec.rounds + 1)] == streets
        assert street_name(spec, 0) == streets[0]  # the first deal leads to the first round


def test_a_live_fold_is_told_in_its_place() -> None:
    """A live-deck game's fold is its `fold_release` entry: told where it happened, the rest of
    the hand after it (the log walks the entries and the rules' events in step)."""

    def bets(session: Session) -> Decision | None:
        hand = session.hand
        assert hand is not None
        legal = hand.legal_actions(1)
        options = hand.bet_options(1)
        if K.BET in legal and hand.betting_round == 1 and options is not None:
            return Decision(K.BET, amount=options.bet_min)
        return Decision(K.CHECK) if K.CHECK in legal else Decision(K.CALL)

    def folds(session: Session) -> Decision | None:
        hand = session.hand
        assert hand is not None
        legal = hand.legal_actions(2)
        return Decision(K.CHECK) if K.CHECK in legal else Decision(K.FOLD)

    spec = CATALOGUE["holdem"]
    deciders = {s: _scripted(s, announce=Announcement.of(spec)) for s in range(3)}
    deciders[1] = _scripted(1, announce=Announcement.of(spec), betting=bets)
    deciders[2] = _scripted(2, announce=Announcement.of(spec), betting=folds)
    table, _ = recorded_table(
        3, seed=4, config=TableConfig(seats=3, games=("holdem",)), deciders=deciders
    )
    table.play(1)
    text = [line.text() for line in table_view(table.sessions[0]).log]
    bet = next(i for i, t in enumerate(text) if t.startswith("bot 1 bets "))
    assert text[bet + 1] == "bot 2 folds", text
    assert text[-1] == "Hand 1 signed by everyone", text


SPLIT_GAMES = {
    "holdem-high-low": ("eight-or-better low", r"; (no low|\S+ low)"),
    "omaha-high-low": ("eight-or-better low", r"; (no low|\S+ low)"),
    "chicago": ("the highest spade in the hole", r"; (no spade|the \w+ of spades) in the hole"),
}
"""Each split-pot game's second side, and what the player's cards make on both sides."""


def _split_table(
    game: str,
    seed: int,
    players: int = 3,
    *,
    fixed: dict[int, str] | None = None,
    carry: bool = False,
) -> tuple[Table, Recorder, Plan]:
    """A table of `game` whose seats declare by a `Plan` and check or call every bet, so that
    every hand reaches its showdown; the views of every seat are made after every entry."""
    spec = CATALOGUE[game]
    tables: list[Table] = []
    declares = Plan(lambda: tables[0].sessions, fixed=fixed, carry=carry)
    deciders = {
        s: declares.decider(s, _scripted(s, announce=Announcement.of(spec))) for s in range(players)
    }
    config = TableConfig(seats=players, games=(game,))
    table, rec = recorded_table(players, seed, config=config, deciders=deciders)
    tables.append(table)
    return table, rec, declares


def _sealed(view: TableView) -> set[int]:
    return {s.seat for s in view.seats if s.sealed}


@pytest.mark.parametrize("game", SPLIT_GAMES)
def test_declarations_are_sealed_then_shown_together(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the declarations are sealed every screen shows who has sealed and nobody's
    choice but, to each player, its own; once all are open every declaration shows at once.
    The log tells the seals, then the openings, then the bet after them; the result names
    each side's winners and the hand that won it."""
    monkeypatch.setattr(view_module, "LOG_LINES", 1000)
    spec = CATALOGUE[game]
    low, both = SPLIT_GAMES[game]
    choices = {0: "low", 1: "high", 2: "pig"}
    table, rec, _ = _split_table(game, seed=7, fixed=choices)
    assert table.play(1) == 1
    sealing = [v for vs in rec.after_entry for v in vs if v.phase is Phase.DECLARE]
    assert sealing
    for v in sealing:
        sealed = _sealed(v)
        assert v.declaring and v.stage == f"{spec.title} — the declaration", v.stage
        assert all(s.declared == "" for s in v.seats), v.seats  # no choice shown yet
        assert v.your_declaration == (choices[v.you] if v.you in sealed else ""), v
        assert (v.high_side, v.low_side) == ("the best hand", low)
        if v.you not in sealed and not v.decision_pending:
            mine = [w for w in v.waiting if w.you]
            assert [w.what for w in mine] == ["declare high, low or pig"], v.waiting
            assert v.action(K.DECLARE).legal
        others = {x for w in v.waiting if not w.you and w.what == "declare" for x in w.seats}
        assert others == {0, 1, 2} - sealed - {v.you}, v.waiting
        # the log tells each seal; the player's own with its choice, to it alone
        told = [line.text() for line in v.log]
        for x in sealed:
            own = f"you declared {choices[x]} (sealed)"
            assert (own in told) == (x == v.you), (x, told)
            assert (f"bot {x} has declared (sealed)" in told) == (x != v.you), (x, told)
        if len(sealed) < 3:  # no opening before every seal is in
            assert not any(re.search(r"bot \d (declares|declared) ", t) for t in told), told
        assert re.search(both, v.made), v.made  # what the cards make on both sides, to decide
    # a moment where some have sealed and some not
    assert any(0 < len(_sealed(v)) < 3 for v in sealing)
    for seat in range(3):
        v = next(
            vs[seat]
            for vs in rec.after_entry
            if vs[seat].phase is Phase.BETTING and _sealed(vs[seat])
        )
        assert {s.seat: s.declared for s in v.seats} == choices
        assert not v.declaring and v.stage == f"{spec.title} — after the declaration: betting"
    view = table_view(table.sessions[1])
    text = [line.text() for line in view.log]
    seals = [i for i, t in enumerate(text) if t.endswith(" (sealed)")]
    assert "you declared high (sealed)" in text  # seat 1's own
    opens = [i for i, t in enumerate(text) if " declares " in t]
    assert len(seals) == len(opens) == 3, text
    # the declaration comes between the last two rounds of betting
    fourth = text.index(next(t for t in text if t.startswith(f"Round {spec.rounds - 1}: ")))
    fifth = text.index(next(t for t in text if t.startswith(f"Round {spec.rounds}: ")))
    assert fourth < min(seals) and max(seals) < min(opens) and max(opens) < fifth, text
    assert {"bot 0 declares low", "bot 1 declares high", "bot 2 declares both ways (pig)"} <= set(
        text
    )
    # the result: each pot, each side's winners with their hand, a failed pig, a carry
    hand = table.sessions[1].hand
    assert hand is not None and hand.result is not None
    splits = [ev for ev in hand.events if isinstance(ev, PotSplit)]
    result = [line.text() for line in view.result]
    assert splits and len(result) == len(splits), result
    for line, ev in zip(result, splits, strict=True):
        assert line.startswith(f"Pot of {ev.amount}: " if len(splits) == 1 else "Main pot of")
        if ev.pigs_failed:
            assert "bot 2 went pig and did not win both ways" in line, line
        if ev.carried:
            assert f"nobody wins: {ev.carried} carries over to the next hand" in line, line
            continue
        for side, winners in (("high", ev.high), ("low", ev.low)):
            if winners:
                who = " and ".join(f"bot {x}" for x in winners)
                assert re.search(rf"{side}: {who} (wins|split) \d+ with ", line), line
            else:
                assert f"nobody wins {side}" in line, line
    # told once, at the hand's end, then the signatures
    assert text[-1 - len(result) : -1] == result, text
    assert not any(t.startswith("Pot of") for t in text[: -1 - len(result)])
    assert view.carried == hand.result.carried
    won = {s.seat: s.won for s in view.seats}
    for award in hand.result.awards:
        for seat in award.winners:
            assert won[seat] > 0


def test_a_pot_nobody_wins_carries_over_to_the_next_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    """Declarations with which nobody wins: the result says the pot carries over, the next
    hand's main pot holds it (the view's `carried_in`), and the log of the next hand sums up
    the carried hand with its carry."""
    monkeypatch.setattr(view_module, "LOG_LINES", 1000)
    table, rec, plan = _split_table("holdem-high-low", seed=2, carry=True)
    while not plan.carried:
        assert table.play(1) == 1
        assert table.sessions[0].hand_number < 8, "no hand could be left to nobody"
    number = plan.carried[0]
    hand = table.sessions[0].hand
    assert hand is not None and hand.result is not None and hand.hand_number == number
    carry = hand.result.carried
    assert carry > 0
    over = table_view(table.sessions[0])
    assert over.carried == carry and not over.hand_running
    assert any(
        line.text().endswith(f"nobody wins: {carry} carries over to the next hand")
        for line in over.result
    ), over.result
    # a pot nobody won takes no chips from anyone's stack but what they put in
    assert all(s.won == 0 for s in over.seats)
    assert table.play(1) == 1
    following = [vs[0] for vs in rec.after_entry if vs[0].hand == number + 1]
    assert following and all(v.carried_in == carry for v in following)
    betting = [v for v in following if v.phase is Phase.BETTING]
    assert betting and all(v.pots[0].amount >= carry for v in betting)
    text = [line.text() for line in table_view(table.sessions[0]).log]
    assert f"Hand {number}: no winner; {carry} carries over" in text, text


def test_the_words_of_a_split_pot_game() -> None:
    spec = CATALOGUE["holdem-high-low"]
    assert street_name(spec, 4) == "the river"
    assert street_name(spec, 5) == "after the declaration"
    assert low_side(spec) == "eight-or-better low"
    assert high_side(spec) == "the best hand" and high_side(CATALOGUE["holdem"]) == ""
    assert low_side(CATALOGUE["chicago"]) == "the highest spade in the hole"
    stud = parse_cards("As 2s 9h Kd Kc Qs 3d")
    down = parse_cards("2s 9h 3d")
    chicago = made_by(CATALOGUE["chicago"], stud, (), down)
    assert chicago == "pair of kings, ace kicker; the two of spades in the hole", chicago
    assert low_side(CATALOGUE["holdem"]) == ""
    hole = parse_cards("Ah 2d")
    made = made_by(spec, hole, parse_cards("3c 8s 5d Kh 9c"))
    assert made == "ace-king high; 8-5-3-2-A low", made
    assert made_by(spec, hole, parse_cards("3c 8s Kd Kh 9c")).endswith("; no low")
    assert made_by(spec, hole, parse_cards("3c 8s")) == ""  # no five cards yet
