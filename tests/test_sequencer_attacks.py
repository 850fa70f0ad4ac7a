"""A hostile dealer, played through real sessions (SPEC 6.4, 6.5, 7.1, 7.5): what it tries, and
that every honest peer and `willow verify` refuse it."""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_session_helpers import SAMPLES, new_table

from p2pwillow.bots import Decision
from p2pwillow.ledger import AuthoredEntry, Entry, Reason, RemoteProtocolError
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.identity import Identity
from p2pwillow.rules import ActionKind, Phase
from p2pwillow.session import EVERY_PEER, DecisionLike, Output, Refusal, Session, destination
from p2pwillow.table import Decider, Table, bot_decider
from p2pwillow.verify import Verdict, verify_transcript

VICTIM = 1


def calls_then_folds(seat: int) -> Decider:
    """Calls whenever it may in betting round 1, folds whenever it may later; a bot otherwise."""
    bot = bot_decider(seat, random.Random(seat), samples=SAMPLES)

    def decide(session: Session) -> DecisionLike | None:
        hand = session.hand
        if hand is not None and hand.phase is Phase.BETTING and seat in hand.to_act():
            legal = hand.legal_actions(seat)
            if hand.betting_round == 1 and ActionKind.CALL in legal:
                return Decision(ActionKind.CALL)
            if hand.betting_round > 1 and ActionKind.CALL in legal:
                return Decision(ActionKind.FOLD)
        return bot(session)

    return decide


class ReplayingDealer(Table):
    """The dealer keeps the victim's first `call` and, when the victim later folds, sequences
    that call again in the fold's place (the attack of a replayed decision)."""

    def __init__(self, players: int, **kwargs: Any) -> None:
        self.kept: AuthoredEntry | None = None
        self.forged: Entry | None = None
        super().__init__(players, **kwargs)

    def _deliver(self, seat: int, item: Any) -> None:
        session = self.sessions[seat]
        if isinstance(item, AuthoredEntry) and item.author == VICTIM and seat == session.sequencer:
            if item.kind == "call" and self.kept is None:
                self.kept = item
            elif item.kind == "fold" and self.kept is not None and self.forged is None:
                ledger = session.ledger
                dealer: Identity = self.identities[seat]
                self.forged = self.kept.sequence(ledger.head_seq + 1, ledger.head_hash, dealer)
                self._queue.extend((s, self.forged) for s in range(3) if s != seat)
                return
        super()._deliver(seat, item)


def _replayed() -> ReplayingDealer:
    for seed in range(1, 30):
        table = new_table(
            3, seed=seed, deciders={VICTIM: calls_then_folds(VICTIM)}, table=ReplayingDealer
        )
        assert isinstance(table, ReplayingDealer)
        table.start_hand()
        for _ in range(200):
            if table.forged is not None or table.sessions[0].hand.is_over:  # type: ignore[union-attr]
                break
            if not table.decide_round():
                table.tick(table.config.action_clock + 1)
        if table.forged is not None:
            return table
    raise AssertionError("no seed had the victim call in round 1 and fold later")


def test_a_replayed_decision_is_refused_by_every_peer_and_by_verify() -> None:
    """Attack 1: the victim's round-1 call sequenced again in place of its later fold."""
    table = _replayed()
    forged = table.forged
    assert forged is not None and forged.kind == "call" and forged.author == VICTIM
    assert forged.verify_author(table.identities[VICTIM].public_key)  # it is the victim's own
    refusals = {r.seat: r.error for r in table.rejections if r.error.seq == forged.seq}
    assert set(refusals) == {s for s in range(3) if s != table.sessions[0].sequencer}
    assert all(e.reason is Reason.REPLAYED for e in refusals.values()), refusals
    victim = table.sessions[VICTIM]
    assert victim.ledger.head_seq < forged.seq  # the victim never took it for its own
    dealer = table.sessions[table.sessions[0].sequencer]
    lines = [e.encode() + b"\n" for e in dealer.ledger.entries]
    report = verify_transcript(b"".join(lines) + forged.encode() + b"\n")
    assert report.verdict is Verdict.INVALID
    assert report.error is not None and report.error.line == len(lines) + 1
    assert "replayed" in report.error.reason


def test_the_victim_refuses_an_entry_in_its_name_it_did_not_sign_here() -> None:
    """SPEC 7.1: a decision signed with the victim's key elsewhere (a second device, a copy of
    the key) passes every other peer, but the victim's own session does not take it as its
    own: it refuses it and signs no head that holds it."""
    table = new_table(3, seed=2)
    table.start_hand()
    first = table.sessions[0]
    while not (
        first.hand is not None
        and first.hand.phase is Phase.BETTING
        and first.hand.to_act() == (VICTIM,)
    ):
        assert table.decide_round() or first.hand is None or not first.hand.is_over
    dealer = first.sequencer
    ledger = table.sessions[dealer].ledger
    elsewhere = AuthoredEntry.create(
        table.identities[VICTIM],
        game=ledger.game or b"",
        hand=ledger.hand,
        author=VICTIM,
        body=k.Fold(),
        counter=10**6,
        seen=ledger.head_hash,
    )
    placed = elsewhere.sequence(ledger.head_seq + 1, ledger.head_hash, table.identities[dealer])
    for seat in range(3):
        if seat not in (dealer, VICTIM):
            table.sessions[seat].receive(placed)  # a valid entry for everyone else
    with pytest.raises(RemoteProtocolError) as caught:
        table.sessions[VICTIM].receive(placed)
    assert caught.value.reason is Reason.BAD_SIGNATURE
    assert "did not sign here" in caught.value.detail


def test_a_false_refusal_does_not_make_the_victim_decide_again() -> None:
    """A dealer that refuses a valid decision hoping to see the player decide otherwise at the
    same head: the player's session checks the refusal against its own state, finds that its
    decision passes at the refusing head, keeps it pending and sends it to every peer again
    (who now hold it, SPEC 7.1, 7.5)."""
    table = new_table(3, seed=2)
    table.start_hand()
    first = table.sessions[0]
    while not (first.hand is not None and first.hand.to_act() == (VICTIM,)):
        assert table.decide_round()
    victim = table.sessions[VICTIM]
    hand = victim.hand
    assert hand is not None and victim.decision_due()
    decision = table.deciders[VICTIM](victim)
    assert decision is not None
    (authored,) = victim.act(decision).send
    assert isinstance(authored, AuthoredEntry) and victim.decision_pending
    dealer = first.sequencer
    ledger = table.sessions[dealer].ledger
    lie = Refusal.create(
        table.identities[dealer],
        dealer,
        ledger.head_seq,
        authored,
        Reason.ILLEGAL_ACTION,
        "not your turn",
    )
    out = victim.receive(lie)
    assert victim.decision_pending and out.events == ()
    assert out.send == (authored,) and destination(authored) is EVERY_PEER
    other = next(s for s in range(3) if s not in (dealer, VICTIM))
    assert table.sessions[other].receive(authored) == Output()  # the others hold it
    assert authored in table.sessions[other].state.pool.entries(VICTIM)
