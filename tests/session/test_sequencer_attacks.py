"""A hostile dealer, played through real sessions (SPEC 6.4, 6.5, 7.1, 7.5): what it tries, and
that every honest peer and `willow verify` refuse it."""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest
from session_helpers import SAMPLES, away_in, fork, new_table

from p2pwillow.bots import Decision
from p2pwillow.games import plain
from p2pwillow.ledger import AuthoredEntry, Entry, Reason, RemoteProtocolError, Vote
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.identity import Identity
from p2pwillow.rules import ActionKind, Phase
from p2pwillow.session import EVERY_PEER, Output, Refusal, Session, destination
from p2pwillow.table import Decider, Table, bot_decider
from p2pwillow.verify import Verdict, verify_transcript

VICTIM = 1


def calls_then_folds(seat: int) -> Decider:
    """Calls whenever it may in betting round 1, folds whenever it may later; a bot otherwise."""
    bot = bot_decider(seat, random.Random(seat), samples=SAMPLES)

    def decide(session: Session) -> Decision | None:
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
        body=plain("fold"),
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


# --- the witnessed clock (SPEC 7.5) -----------------------------------------------------------


class DroppingDealer(Table):
    """The hand's dealer never sequences the victim's entries of `kinds` (it sits on them) and
    votes against the victim when its clock runs out; the network is honest."""

    def __init__(self, players: int, *, kinds: frozenset[str], **kwargs: Any) -> None:
        self.kinds = kinds
        self.dropped: list[AuthoredEntry] = []
        super().__init__(players, **kwargs)

    def _deliver(self, seat: int, item: Any) -> None:
        hand = self.sessions[seat].hand if hasattr(self, "sessions") else None
        dealer = None if hand is None else hand.dealer
        if (
            isinstance(item, AuthoredEntry)
            and seat == dealer
            and seat == self.sessions[seat].sequencer
            and item.author == VICTIM
            and item.kind in self.kinds
        ):
            self.dropped.append(item)
            return
        super()._deliver(seat, item)


def _dropping(kinds: set[str], players: int = 3, seed: int = 2) -> DroppingDealer:
    hostile = functools.partial(DroppingDealer, kinds=frozenset(kinds))
    table = new_table(players, seed=seed, table=hostile)
    assert isinstance(table, DroppingDealer)
    return table


def _kinds(session: Session) -> list[str]:
    return [e.kind for e in session.ledger.entries]


def test_a_dropped_decision_gets_the_dealer_replaced_not_the_victim_folded() -> None:
    """Attack 3 (forced fold): the dealer drops the victim's decision and its clock runs out.
    The victim and the honest witness hold the decision, so they accuse the dealer, not the
    victim: the seat after the dealer takes over sequencing, the dealer is folded for
    stalling, and the victim decides again at the new head (its dropped decision was made at
    another head, SPEC 7.1)."""
    for seed in range(2, 12):
        table = _dropping({"call", "check", "fold", "bet", "raise", "all_in"}, seed=seed)
        table.play(1)
        if table.dropped:
            break
    else:
        raise AssertionError("the victim never decided in a betting round")
    first = table.sessions[0]
    kinds = _kinds(first)
    assert "sequencer_change" in kinds
    change = next(e for e in first.ledger.entries if e.kind == "sequencer_change")
    assert isinstance(change.body, k.SequencerChange)
    dealer = change.body.replaced[0]
    assert change.author == first.ledger.successor(dealer)
    accusing = [v.voter for v in change.body.votes if dealer in v.seats]
    assert len(accusing) == 2 and dealer not in accusing  # the victim and the witness
    summary = first.summaries[0]
    assert dealer in summary.folded and not summary.aborted
    later = first.ledger.entries[change.seq + 1 :]
    assert any(e.author == VICTIM and e.kind in table.kinds for e in later)
    assert not any(e.kind == "timeout" and VICTIM in e.body.seats for e in later)  # type: ignore[attr-defined]
    assert table.rejections == []
    report = verify_transcript(b"".join(table.lines))
    assert report.verdict is not Verdict.INVALID, report.error
    assert first.game.player(dealer).sitting_out


def test_a_timeout_on_the_dealers_own_vote_is_refused_by_every_peer() -> None:
    """Attack 3 again: the dealer writes the timeout anyway, on its vote alone (three players:
    the quorum is two)."""
    table = _dropping({"call", "check", "fold", "bet", "raise", "all_in"}, seed=2)
    table.start_hand()
    for _ in range(300):
        if table.dropped or table.sessions[0].hand.is_over:  # type: ignore[union-attr]
            break
        if not table.decide_round():
            table.tick(table.config.action_clock + 1)
    assert table.dropped
    dealer = table.sessions[0].hand.dealer  # type: ignore[union-attr]
    session = table.sessions[dealer]
    ledger = session.ledger
    own = Vote.create(
        table.identities[dealer],
        game=ledger.game or b"",
        hand=ledger.hand,
        head=ledger.head_hash,
        voter=dealer,
        seats=(VICTIM,),
    )
    record = k.VoteRecord(voter=dealer, seats=own.seats, sig=own.sig.hex())
    forced = AuthoredEntry.create(
        table.identities[dealer],
        game=ledger.game or b"",
        hand=ledger.hand,
        author=dealer,
        body=k.Timeout(seats=[VICTIM], votes=[record]),
        counter=10**6,
        seen=ledger.head_hash,
    ).sequence(ledger.head_seq + 1, ledger.head_hash, table.identities[dealer])
    for seat in range(3):
        if seat == dealer:
            continue
        with pytest.raises(RemoteProtocolError) as caught:
            fork(table.sessions[seat]).receive(forced)
        assert caught.value.reason is Reason.ILLEGAL_ACTION
        assert "is not accused by 2 votes" in caught.value.detail


def test_a_dealer_that_sits_on_deal_shares_cannot_void_the_hand_blaming_their_author() -> None:
    """Attack 2 (peek, then void) before the deal: the dealer keeps the victim's deal shares
    to itself and waits for the clock, to abort blaming the victim. The witnesses hold the
    shares: they accuse the dealer, who is replaced; the hand is void blaming the dealer, the
    victim is not blamed and plays the next hand."""
    table = _dropping({"deal_shares"}, players=4, seed=3)
    table.play(1)
    assert table.dropped
    first = table.sessions[0]
    summary = first.summaries[0]
    assert summary.aborted
    dealer = summary.dealer
    assert summary.blamed == (dealer,) and VICTIM not in summary.blamed
    assert "sequencer_change" in _kinds(first)
    players = {p.seat: p for p in first.game.players}
    assert players[dealer].sitting_out and not players[VICTIM].sitting_out
    assert sum(p.stack for p in players.values()) == 4 * table.config.starting_stack
    assert table.rejections == []


def test_a_silent_dealer_after_the_deal_is_folded_and_the_hand_goes_on() -> None:
    """The dealer stops sequencing in the middle of the betting (its laptop closed): the next
    seat clockwise takes over, the dealer is folded for stalling with its bets in the pot, and
    the hand is played to its end (SPEC 7.5)."""

    class GoesQuiet(Table):
        def _deliver(self, seat: int, item: Any) -> None:
            super()._deliver(seat, item)
            hand = self.sessions[0].hand
            if hand is not None and hand.phase is Phase.BETTING and hand.betting_round == 2:
                self.muted.add(hand.dealer)

    for seed in range(3, 15):
        table = new_table(3, seed=seed, table=GoesQuiet)
        table.play(1)
        first = table.sessions[1]
        if first.summaries and "sequencer_change" in _kinds(first):
            break
    else:
        raise AssertionError("no hand reached betting round 2")
    summary = first.summaries[0]
    dealer = summary.dealer
    assert dealer in summary.folded and not summary.aborted
    assert dict(summary.chips)[dealer] <= 0  # whatever it bet stays in the pot
    assert sum(net for _, net in summary.chips) == 0
    end = next(e for e in first.ledger.entries if e.kind == "hand_end")
    assert end.author == first.ledger.successor(dealer)  # the hand's sequencer now
    assert table.rejections == []


def test_with_two_players_the_other_alone_is_the_quorum() -> None:
    """SPEC 7.5: at a table of two there is no third witness: the dealer's vote alone times
    the other player out (the limit of two players), and the other's alone replaces the
    dealer."""
    table = new_table(2, seed=4, deciders={1: away_in(Phase.BETTING, 1)})
    assert table.play(1) == 1
    timeouts = [e for e in table.transcript if e.kind == "timeout"]
    assert timeouts
    for entry in timeouts:
        assert isinstance(entry.body, k.Timeout)
        assert [v.voter for v in entry.body.votes] == [entry.author]


def test_two_silent_seats_in_a_row_are_both_replaced() -> None:
    """Four players; the dealer and the seat after it both go silent: a clock later the
    witnesses accuse the seat after the dealer too, and the third seat takes over from both."""

    class TwoQuiet(Table):
        def _deliver(self, seat: int, item: Any) -> None:
            super()._deliver(seat, item)
            hand = self.sessions[2].hand
            if hand is not None and hand.phase is Phase.BETTING:
                self.muted |= {hand.dealer, self.sessions[2].ledger.successor(hand.dealer)}

    table = new_table(4, seed=5, table=TwoQuiet)
    table.play(1)
    watcher = table.sessions[3]
    changes = [e for e in watcher.ledger.entries if e.kind == "sequencer_change"]
    assert changes, _kinds(watcher)
    body = changes[0].body
    assert isinstance(body, k.SequencerChange) and len(body.replaced) == 2
    dealer = watcher.summaries[0].dealer if watcher.summaries else body.replaced[0]
    assert body.replaced[0] == dealer
    assert changes[0].author == watcher.ledger.successor(body.replaced[1])


class EquivocatingDealer(Table):
    """In round 1 the dealer sequences one reveal for some players and another reveal, at the
    same place in the chain, for the others (SPEC 6.8)."""

    def __init__(self, players: int, **kwargs: Any) -> None:
        self.forks: list[Entry] = []
        super().__init__(players, **kwargs)

    def _deliver(self, seat: int, item: Any) -> None:
        session = self.sessions[seat] if hasattr(self, "sessions") else None
        if (
            session is not None
            and not self.forks
            and isinstance(item, AuthoredEntry)
            and item.kind == "reveal"
            and seat == session.sequencer
            and item.author != seat
        ):
            ledger = session.ledger
            first = next((e for e in reversed(ledger.entries) if e.kind == "reveal"), None)
            if first is not None and first.author not in (seat, item.author):
                # place this reveal where the last one is, and show it to its author only
                at = first.seq
                other = item.sequence(at, ledger.hash_of(at - 1), self.identities[seat])
                self.forks = [first, other]
                self._queue.append((item.author, other))
                return
        super()._deliver(seat, item)


def test_an_equivocating_dealer_is_proved_replaced_and_folded() -> None:
    """Two entries countersigned by the dealer for one place: the player shown the second
    passes it on, the seat after the dealer proves the equivocation, every player cuts its
    chain back and applies the proof, and the hand goes on with the dealer folded."""
    for seed in range(1, 12):
        table = new_table(4, seed=seed, table=EquivocatingDealer)
        assert isinstance(table, EquivocatingDealer)
        table.play(1)
        if table.forks:
            break
    else:
        raise AssertionError("the dealer never had two reveals to fork")
    proofs = {
        s.seat: [e for e in s.ledger.entries if e.kind == "equivocation"] for s in table.sessions
    }
    assert all(len(p) == 1 for p in proofs.values()), proofs
    heads = {s.ledger.head_hash for s in table.sessions}
    assert len(heads) == 1  # every player is on the same chain again
    session = table.sessions[1]
    (proof,) = proofs[1]
    assert isinstance(proof.body, k.Equivocation)
    dealer = proof.body.sequencer
    assert proof.author == session.ledger.successor(dealer)
    summary = session.summaries[0]
    assert dealer in summary.folded and not summary.aborted
    assert sum(net for _, net in summary.chips) == 0
    report = verify_transcript(b"".join(e.encode() + b"\n" for e in session.ledger.entries))
    assert report.verdict is not Verdict.INVALID, report.error
