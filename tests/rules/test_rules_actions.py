"""The action table (SPEC 3.3, 6.10, 7.2): every action declared once, and everything that reads
it sees the same rows."""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

import pytest
from rules_driver import RandomTable, random_hand

from p2pwillow.bots import Decision, apply_decision, is_legal
from p2pwillow.games import ACTION, ACTIONS, BY_ENTRY, CATALOGUE, LEGACY_ANNOUNCE, ROLL_YOUR_OWN
from p2pwillow.games.pass_the_card import PASS_THE_CARD
from p2pwillow.ledger.kinds import KINDS
from p2pwillow.rules import ActionKind, IllegalAction, Phase
from p2pwillow.rules.actions import ACTIONS as ENGINE
from p2pwillow.rules.actions import Action, By, Needs, decisions, rows_of
from p2pwillow.rules.decision import DecisionError

DECISIONS = decisions(ACTIONS)


def test_every_action_kind_has_exactly_one_row() -> None:
    assert Counter(a.kind for a in ACTIONS) == Counter(ActionKind)
    assert set(ACTION) == set(ActionKind)


def _joined(rows: tuple[Action, ...]) -> dict[ActionKind, Action]:
    """A later row of a kind replaces the earlier, or, being the same action (its entry, check
    and step), admits the phases of both."""
    out: dict[ActionKind, Action] = {}
    for row in rows:
        before = out.get(row.kind)
        same = before is not None and (before.entry, before.check, before.step) == (
            row.entry,
            row.check,
            row.step,
        )
        out[row.kind] = replace(row, phases=before.phases | row.phases) if before and same else row
    return out


def test_every_game_plays_by_the_engine_rows_and_its_steps_own() -> None:
    for game in CATALOGUE.values():
        own = tuple(row for step in game.script for row in step.ACTIONS)
        assert rows_of(game) == _joined((*ENGINE, *own))
    assert not any(step.ACTIONS for step in ROLL_YOUR_OWN.script)
    assert rows_of(None) == {row.kind: row for row in ENGINE}
    # the clock of Pass the Card runs while a player keeps or passes a card, and at the
    # declaration a later step brings its own row for
    clock = rows_of(PASS_THE_CARD)[ActionKind.TIMEOUT].phases
    assert {Phase.BETTING, Phase.STREET, Phase.DECLARE} <= clock


def test_every_action_is_admitted_by_some_phase() -> None:
    for action in ACTIONS:
        assert action.phases, action
        assert not action.phases & {Phase.SHOWDOWN, Phase.COMPLETE, Phase.ABORTED}, action


def test_every_row_names_a_registered_entry_kind() -> None:
    for action in ACTIONS:
        assert action.entry in KINDS, action
    assert LEGACY_ANNOUNCE in KINDS


def test_every_decision_entry_kind_carries_exactly_one_action() -> None:
    entries = Counter(a.entry for a in DECISIONS)
    assert all(n == 1 for n in entries.values()), entries
    assert {a.kind for a in BY_ENTRY.values()} == {a.kind for a in DECISIONS}
    for entry, action in BY_ENTRY.items():
        assert action.entry == entry or entry == LEGACY_ANNOUNCE
        assert action.by is By.PLAYER


def test_a_plain_entry_is_exactly_the_fields_the_row_declares() -> None:
    for action in ACTIONS:
        if action.body is None:
            continue
        assert action.by is By.PLAYER, action
        assert tuple(KINDS[action.entry].FIELDS) == action.body, action
        # one field carries the argument
        if action.needs in (Needs.K, Needs.AMOUNT, Needs.OPEN_OFFER, Needs.PARTNER):
            assert len(action.body) == 1
        elif action.needs is Needs.NOTHING:
            assert action.body == ()


def test_the_keys_are_one_a_phase() -> None:
    for phase in Phase:
        keys = [a.key for a in ACTIONS if a.key and phase in a.phases]
        assert len(keys) == len(set(keys)), (phase, keys)
    for action in ACTIONS:
        assert bool(action.key) <= action.decided, action
        assert bool(action.key) == bool(action.label), action


def test_the_fields_a_decision_needs() -> None:
    # SPEC 8: a `Decision` carries exactly the one argument its action needs, under these names
    needs = {a.kind: a.needs.decision_field for a in DECISIONS}
    assert needs == {
        ActionKind.ANNOUNCE: "announcement",
        ActionKind.OFFER: "k",
        ActionKind.ACCEPT: None,
        ActionKind.DECLINE: None,
        ActionKind.WITHDRAW: None,
        ActionKind.CHOOSE_PARTNER: "partner",
        ActionKind.PASS: None,
        ActionKind.CHOOSE_TRADE_CARDS: "positions",
        ActionKind.CLOSE_TRADING: None,
        ActionKind.LAY_OUT: "positions",
        ActionKind.CHECK: None,
        ActionKind.BET: "amount",
        ActionKind.CALL: None,
        ActionKind.RAISE: "amount",
        ActionKind.FOLD: None,
        ActionKind.ALL_IN: None,
        ActionKind.DECLARE: "choice",
        ActionKind.DRAW: "positions",
        ActionKind.EARLY_SHOW: None,
        ActionKind.POT_MATCH: "match",
        ActionKind.CLOAK: "positions",
        ActionKind.WASH_CALL: None,
        ActionKind.KEEP_CALL: None,
        ActionKind.FLIP: "positions",
        ActionKind.PASS_CARD: None,
        ActionKind.KEEP_CARD: None,
    }


def test_a_decision_carries_exactly_its_field() -> None:
    Decision(ActionKind.BET, amount=25)
    Decision(ActionKind.CHECK)
    Decision(ActionKind.OFFER, k=2)
    Decision(ActionKind.CHOOSE_PARTNER, partner=3)
    bads: tuple[Callable[[], object], ...] = (
        lambda: Decision(ActionKind.BET),
        lambda: Decision(ActionKind.CHECK, amount=25),
        lambda: Decision(ActionKind.OFFER, k=2, amount=3),
        lambda: Decision(ActionKind.DEAL),
        lambda: Decision(ActionKind.LAY_OUT, positions=(0, 1, 2, 3, 3)),
        lambda: Decision(ActionKind.CHOOSE_TRADE_CARDS, positions=[0, 1]),  # type: ignore[arg-type]
        lambda: Decision(ActionKind.RAISE, amount=True),
        lambda: Decision(ActionKind.CHOOSE_PARTNER),
        lambda: Decision(ActionKind.CHOOSE_PARTNER, partner="3"),  # type: ignore[arg-type]
        lambda: Decision(ActionKind.ANNOUNCE, announcement="5 cards"),  # type: ignore[arg-type]
    )
    for bad in bads:
        with pytest.raises(DecisionError):
            bad()


@pytest.mark.parametrize("seed", range(12))
def test_legal_actions_are_the_rows_a_seat_passes(seed: int) -> None:
    rng = random.Random(seed)
    hand = random_hand(rng)
    table = RandomTable(hand, rng, junk=0.0)
    for _ in range(400):
        if hand.is_over:
            break
        for seat in hand.seats:
            legal = hand.legal_actions(seat)
            for action in ACTIONS:
                plays = action.kind in {row.kind for row in hand.rows}
                allowed = plays and hand.phase in action.phases
                passes = allowed and hand.can(action.kind, seat)
                expected = passes and action.by in (By.PLAYER, By.SESSION)
                assert (action.kind in legal) == expected, (action.kind, seat, hand.phase)
        table.step()


def test_a_bots_decision_is_legal_exactly_when_the_engine_takes_it() -> None:
    rng = random.Random(7)
    hand = random_hand(rng)
    table = RandomTable(hand, rng, junk=0.0)
    decisions = [
        Decision(ActionKind.CHECK),
        Decision(ActionKind.FOLD),
        Decision(ActionKind.CALL),
        Decision(ActionKind.PASS),
        Decision(ActionKind.BET, amount=25),
        Decision(ActionKind.RAISE, amount=200),
        Decision(ActionKind.OFFER, k=2),
        Decision(ActionKind.ACCEPT),
        Decision(ActionKind.CHOOSE_PARTNER, partner=1),
        Decision(ActionKind.WITHDRAW),
        Decision(ActionKind.CLOSE_TRADING),
        Decision(ActionKind.LAY_OUT, positions=(0, 1, 2, 3, 4)),
        Decision(ActionKind.LAY_OUT, positions=(2, 3, 4, 5, 6)),
    ]
    for _ in range(300):
        if hand.is_over:
            break
        for seat in hand.seats:
            for decision in decisions:
                if is_legal(hand, seat, decision):
                    apply_decision(copy.deepcopy(hand), seat, decision)
                    continue
                before = hand.snapshot()
                with pytest.raises(IllegalAction):
                    apply_decision(hand, seat, decision)
                assert hand.snapshot() == before
        table.step()
