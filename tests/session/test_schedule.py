"""The protocol schedule (SPEC 7.3-7.5) against everything that reads it: whole games played at
random through real sessions, and at every step the entry checks, the automatic steps, the
players' decisions, the dealer's clock and "waiting for" agree with what the schedule says."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable

import pytest
from session_helpers import SAMPLES, away_in, make_rng

from p2pwillow.games import BY_ENTRY
from p2pwillow.ledger import Entry
from p2pwillow.ledger import kinds as k
from p2pwillow.rules import (
    ActionKind,
    BettingStructure,
    Phase,
    TableConfig,
)
from p2pwillow.session import Session, Wait
from p2pwillow.session import schedule as sched
from p2pwillow.session.schedule import RULE, STEPS, Due, Maker, Stall, Step, When
from p2pwillow.session.steps import MAKERS, due_step
from p2pwillow.table import Decider, Table

# The steps that nothing but the schedule orders (no rules action stands behind them)...
ORDERED = (Step.HAND_KEY, Step.DECK_SHUFFLE, Step.DEAL_SHARES, Step.HAND_END)
# ...and the steps that are rules actions too: the schedule's say and the rules' together.
WITH_RULES = {
    Step.TRADE_GIVE: ActionKind.CHOOSE_TRADE_CARDS,
    Step.LAYOUT: ActionKind.LAY_OUT,
    Step.REVEAL: ActionKind.REVEAL,
    Step.ANNOUNCE: ActionKind.ANNOUNCE,
}


def _step_of(entry: Entry, ended: bool = False) -> Due | None:
    """The step an entry sends, as the schedule would name it (None: a decision or the clock);
    `ended`: the game's end is in the chain (a head signature signs it)."""
    body = entry.body
    if isinstance(body, k.HeadSignature) and ended:
        return Due(entry.author, Step.GAME_SIGNATURE)
    if isinstance(body, k.HandShuffle):
        if body.purpose == "trade":
            return Due(entry.author, Step.HAND_SHUFFLE, body.trade)
        return Due(entry.author, Step.LAYOUT)
    if isinstance(body, k.Reveal):
        return Due(entry.author, Step.REVEAL, body.card)
    if isinstance(body, k.StreetShares):
        # a live-deck hand's first deal step is the deal; its number is the due's index
        return Due(entry.author, Step.DEAL_STREET if body.step == 0 else Step.STREET, body.step)
    if isinstance(body, k.Abort) and body.votes:
        return None  # the witnessed clock's abort, not the one a sequencer change leaves owed
    for rule in STEPS:
        if rule.entry == entry.kind:
            return Due(entry.author, rule.step)
    return None


class Witness:
    """An observer that checks every entry against the schedule it held just before it."""

    def __init__(self) -> None:
        self.session: Session | None = None
        self.seen: dict[Step, int] = {}
        self.not_ready = 0
        """States in which a seat owed a step it could not send yet (a layout after a trade)."""

    def __call__(self, entry: Entry) -> None:
        if self.session is None:
            self.session = Session(None, None, entry)
            return
        st = self.session.state
        owed = st.dues()
        self.not_ready += any(not d.ready for d in owed)
        check_refusals_agree_with_dues(self.session, owed)
        due = _step_of(entry, st.ledger.game_ended)
        if due is not None:
            # every step the checks accept is one the schedule said was owed, and ready
            assert due in owed, (entry.seq, entry.kind, due, owed)
            self.seen[due.step] = self.seen.get(due.step, 0) + 1
        elif entry.kind in BY_ENTRY:
            self._decision(entry, owed)
        elif isinstance(entry.body, k.Timeout):
            # the clock times out only a seat that owes a decision, which has a default, or a
            # protocol step after the deal, for which it is folded, or a step outside the hand
            for seat in entry.body.seats:
                acts = {RULE[d.step].stall for d in owed if d.seat == seat}
                if self.session.state.hand is not None and self.session.state.hand.ended:
                    continue  # the head signatures: not in this hand's dues
                assert acts & {Stall.TIMEOUT, Stall.FOLD}, (entry.seq, owed)
            self.seen[Step.DECISION] = self.seen.get(Step.DECISION, 0) + 1
        elif isinstance(entry.body, k.Abort):
            stalled = {d.seat for d in owed if RULE[d.step].stall is Stall.ABORT}
            replaced = set() if st.hand is None else set(st.hand.replaced)
            assert set(entry.body.blamed) <= stalled | replaced, (entry.seq, owed)
        self.session.replay(entry)

    def _decision(self, entry: Entry, owed: tuple[Due, ...]) -> None:
        assert self.session is not None
        r = self.session.state.hand
        assert r is not None
        action = BY_ENTRY[entry.kind]
        self.seen[Step.DECISION] = self.seen.get(Step.DECISION, 0) + 1
        if Due(entry.author, Step.DECISION) in owed:
            return
        # not owed: the initiative of free trading (SPEC 3.5), only while nothing blocks it
        assert Phase.TRADING in action.phases, (entry.seq, entry.kind, owed)
        assert sched.blocked(r, give=False) is None, (entry.seq, entry.kind)


def check_refusals_agree_with_dues(session: Session, owed: tuple[Due, ...]) -> None:
    """For every seat and step: the schedule refuses nothing it says is owed and ready, and
    what it does not refuse (the rules agreeing, where a rules action stands behind the step)
    is owed."""
    st = session.state
    r = st.hand
    if r is None or r.ended:
        return
    ready = {d for d in owed if d.ready}
    hand = r.rules
    for seat in r.order:
        for step in ORDERED:
            allowed = sched.refusal(r, step, seat) is None
            assert allowed == (Due(seat, step) in ready), (seat, step, owed)
        for step, kind in WITH_RULES.items():
            index = hand.betting_round - 1 if step is Step.REVEAL else 0
            allowed = sched.refusal(r, step, seat, index) is None and hand.can(kind, seat)
            assert allowed == (Due(seat, step, index) in ready), (seat, step, owed)
        trades = {r.owed_shuffles.get(seat, -1), *r.owed_shuffles.values(), 0}
        for trade in trades:
            allowed = sched.refusal(r, Step.HAND_SHUFFLE, seat, trade) is None
            assert allowed == (Due(seat, Step.HAND_SHUFFLE, trade) in ready), (seat, trade)
        decided = Due(seat, Step.DECISION) in ready
        if decided:
            assert sched.refusal(r, Step.DECISION, seat) is None and hand.legal_actions(seat)


class CheckedTable(Table):
    """A table that, whenever every message has been delivered, holds each session to the
    schedule: no automatic step left unsent, a decision due exactly where one is owed, and
    every peer waiting for the same steps."""

    witness: Witness

    def run(self) -> None:
        super().run()
        first = self._first
        st = first.state
        owed = st.dues()
        waits = first.waiting_for()
        # "waiting for" is the schedule's list of what keeps the running hand from ending
        assert waits == tuple(Wait(d.seat, d.step.value) for d in sched.waits(st.ledger, st.hand))
        assert {d.step for d in sched.waits(st.ledger, st.hand)}.isdisjoint(
            {Step.SEAT, Step.HAND_END, Step.HEAD_SIGNATURE}
        )
        for session in self.sessions:
            seat = session.seat
            assert seat is not None
            if seat in self.muted:
                # a silent seat's own session believes it sent its steps: it refuses the
                # remedies that name it (SPEC 7.9), so it falls behind (or stops) but never
                # holds an entry the table does not
                held = session.ledger.head_seq - (1 if session.ledger.stopped else 0)
                assert held <= first.ledger.head_seq
                assert session.ledger.hash_of(held) == first.ledger.hash_of(held)
                continue
            assert session.waiting_for() == waits
            assert session.due() == owed
            # the session has sent every automatic step the schedule names for it
            unsent = [
                d
                for d in owed
                if d.seat == seat
                and RULE[d.step].maker is Maker.SESSION
                and d not in session.state.pending
            ]
            assert unsent == [] and due_step(session.state) is None, (seat, owed)
            assert not session.decision_pending
            player_due = any(
                d.seat == seat
                and d.ready
                and RULE[d.step].maker is Maker.PLAYER
                and RULE[d.step].when is When.HAND  # a decision in the hand, not its start
                for d in owed
            )
            assert session.decision_due() == player_due, (seat, owed)


class SilentDealerTable(CheckedTable):
    """The dealer of the first hand sends its hand start and hand key, then nothing more."""

    def start_hand(self) -> None:
        dealer = self.sessions[0].game.next_button()
        super().start_hand()
        self.muted.add(dealer)


def _play(
    players: int,
    seed: int,
    hands: int,
    *,
    config: TableConfig | None = None,
    deciders: dict[int, Decider] | None = None,
    mute: int | None = None,
    silent_dealer: bool = False,
    level: str = "normal",
    newcomer: bool = False,
) -> Witness:
    witness = Witness()
    table = (SilentDealerTable if silent_dealer else CheckedTable)(
        players,
        seed=seed,
        rng=make_rng(f"schedule/{players}/{seed}"),
        samples=SAMPLES,
        config=config,
        deciders=deciders,
        on_entry=witness,
        level=level,
    )
    table.witness = witness
    if mute is not None:
        table.muted.add(mute)
    table.play(hands)
    if newcomer:
        # a newcomer joins the free seat; everyone seated answers its admission (SPEC 6.6)
        table.join(players, "newcomer")
        table.play(1)
    table.end_game()
    # a silent seat refuses what names it, and then what follows (it holds none of it)
    assert [r for r in table.rejections if r.seat not in table.muted] == []
    return witness


GAMES: dict[str, Callable[[], Witness]] = {
    "three players, two hands": lambda: _play(3, 11, 2),
    "two players, fixed limit": lambda: _play(
        2, 12, 2, config=TableConfig(seats=2, structure=BettingStructure.FIXED_LIMIT)
    ),
    "four players, one away in betting": lambda: _play(
        4, 13, 1, deciders={2: away_in(Phase.BETTING, 2)}
    ),
    "three players, one away in trading": lambda: _play(
        3, 14, 1, deciders={1: away_in(Phase.TRADING, 1)}
    ),
    "three players, one silent from the start": lambda: _play(3, 15, 1, mute=2),
    "three players and a newcomer admitted after hand 1": lambda: _play(
        3, 18, 1, config=TableConfig(seats=4), newcomer=True
    ),
    # the first dealer sends nothing: it is replaced, and its successor aborts the hand
    "four players, the dealer silent once the hand starts": lambda: _play(
        4, 17, 1, silent_dealer=True
    ),
    # one token each: the first trade closes trading, so the layout waits for the shuffles
    # (easy bots: heads-up they trade for a smaller gain than normal and hard do)
    # the live deck: later streets, a fold's release, the shows at the showdown
    "four players of hold'em": lambda: _play(
        4, 21, 2, config=TableConfig(seats=4, games=("holdem",))
    ),
    # a split-pot game: the sealed declarations, then their openings (SPEC 3.16)
    "three players of Omaha high-low": lambda: _play(
        3, 22, 1, config=TableConfig(seats=3, games=("omaha-high-low",))
    ),
    "two players, one trade token": lambda: _play(
        2, 16, 3, config=TableConfig(seats=2, trade_tokens=1), level="easy"
    ),
}


@functools.cache
def played(name: str) -> Witness:
    """Each game played once per test process, when a test first needs it: the tests of this
    module are spread over the suite's workers, and a module fixture playing every game was
    played again on each of them."""
    return GAMES[name]()


@pytest.mark.parametrize("name", list(GAMES))
def test_every_view_agrees_with_the_schedule(name: str) -> None:
    assert played(name).seen  # the game ran and its entries were held to the schedule


def test_the_games_cover_every_step() -> None:
    witnesses = [played(name) for name in GAMES]
    seen: set[Step] = set()
    for witness in witnesses:
        seen |= set(witness.seen)
    assert seen == set(Step)
    assert sum(witness.not_ready for witness in witnesses)


def test_every_automatic_step_has_its_maker() -> None:
    automatic = {rule.step for rule in STEPS if rule.maker is Maker.SESSION}
    assert set(MAKERS) | {Step.SEAT} == automatic


def test_every_step_has_one_row() -> None:
    assert [rule.step for rule in STEPS] == list(Step)
    assert dataclasses.fields(Due)[0].name == "seat"
