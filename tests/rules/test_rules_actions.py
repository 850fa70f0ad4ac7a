"""The action table (SPEC 3.3, 6.10, 7.2): every action declared once, and everything that reads
it sees the same rows."""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest
from rules_driver import RandomTable, random_hand

from p2pwillow.bots import Decision, apply_decision, is_legal
from p2pwillow.ledger.kinds import KINDS
from p2pwillow.rules import ACTIONS_BY_PHASE, ActionKind, IllegalAction
from p2pwillow.rules.actions import ACTION, ACTIONS, BY_ENTRY, DECISIONS, By, Needs


def test_every_action_kind_has_exactly_one_row() -> None:
    assert Counter(a.kind for a in ACTIONS) == Counter(ActionKind)
    assert set(ACTION) == set(ActionKind)


def test_every_action_is_admitted_by_some_phase() -> None:
    admitted = set().union(*ACTIONS_BY_PHASE.values())
    assert {a.kind for a in ACTIONS} == admitted


def test_every_row_names_a_registered_entry_kind() -> None:
    for action in ACTIONS:
        assert action.entry in KINDS, action


def test_every_decision_entry_kind_carries_exactly_one_action() -> None:
    entries = Counter(a.entry for a in DECISIONS)
    assert all(n == 1 for n in entries.values()), entries
    assert {a.kind for a in BY_ENTRY.values()} == {a.kind for a in DECISIONS}
    for entry, action in BY_ENTRY.items():
        assert action.entry == entry and action.by is By.PLAYER


def test_a_plain_entry_is_exactly_the_fields_the_row_declares() -> None:
    for action in ACTIONS:
        if action.body is None:
            continue
        assert action.by is By.PLAYER, action
        assert tuple(KINDS[action.entry].FIELDS) == action.body, action
        # one field carries the argument, or the whole body does (the announcement)
        if action.needs in (Needs.K, Needs.AMOUNT, Needs.OPEN_OFFER):
            assert len(action.body) == 1
        elif action.needs is Needs.NOTHING:
            assert action.body == ()


def test_the_fields_a_decision_needs() -> None:
    # SPEC 8: a `Decision` carries exactly the one argument its action needs, under these names
    needs = {a.kind: a.needs.decision_field for a in DECISIONS}
    assert needs == {
        ActionKind.ANNOUNCE: "announcement",
        ActionKind.OFFER: "k",
        ActionKind.ACCEPT: None,
        ActionKind.DECLINE: None,
        ActionKind.WITHDRAW: None,
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
    }


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
                allowed = action.kind in ACTIONS_BY_PHASE[hand.phase]
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
