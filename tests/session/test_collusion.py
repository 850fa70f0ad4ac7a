"""A colluding pair, played through real sessions (SPEC 7.9): the dealer and one friend sign
witness votes against a seat whose step every honest peer holds, and the dealer writes the
remedy at once (time is not in the transcript). Every honest peer refuses it; where no quorum
is left without the pair, the victim stops the table with every stack as at the hand's
start; where one is, the table goes on without the pair and the claim is recorded."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from session_helpers import make_rng, new_table

from p2pwillow.ledger import AuthoredEntry, Entry, Vote
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.canonical import canonical_bytes
from p2pwillow.ledger.chain import Ledger
from p2pwillow.ledger.entry import decode_entry
from p2pwillow.ledger.errors import Reason, RemoteProtocolError
from p2pwillow.ledger.identity import Identity
from p2pwillow.session import ClaimRefused, Session
from p2pwillow.table import Table
from p2pwillow.verify import Verdict, verify_transcript
from p2pwillow.verify.json_report import report_object
from p2pwillow.verify.text import report_text

SCHEMA = jsonschema.Draft202012Validator(
    json.loads(
        (
            Path(__file__).resolve().parents[2] / "protocol/schemas/reports/verify-report.json"
        ).read_text("utf-8")
    )
)

DECISIONS = frozenset({"call", "check", "fold", "bet", "raise", "all_in"})


class Pair(Table):
    """The hand's dealer sits on the victim's entries of `kinds` (never sequences them);
    everything else is honest until the test plays the pair's claim."""

    victim: int
    kinds: frozenset[str]

    def __init__(self, players: int, **kwargs: Any) -> None:
        self.dropped: list[AuthoredEntry] = []
        super().__init__(players, **kwargs)

    def _deliver(self, seat: int, item: Any) -> None:
        sessions = getattr(self, "sessions", None)
        hand = None if sessions is None else sessions[seat].hand
        if (
            sessions is not None
            and hand is not None
            and isinstance(item, AuthoredEntry)
            and seat == hand.dealer == sessions[seat].sequencer
            and item.author == self.victim
            and item.kind in self.kinds
        ):
            self.dropped.append(item)
            return
        super()._deliver(seat, item)


def _pair_table(players: int, victim: int, kinds: frozenset[str], seed: int) -> Pair:
    class Hostile(Pair):
        pass

    Hostile.victim, Hostile.kinds = victim, kinds
    table = new_table(players, seed=seed, table=Hostile)
    assert isinstance(table, Pair)
    return table


def _until_dropped(players: int, victim: int, kinds: frozenset[str]) -> Pair:
    """A table at which the dealer (not the victim) has just sat on one of the victim's
    entries, which every other player holds."""
    for seed in range(1, 40):
        table = _pair_table(players, victim, kinds, seed)
        table.start_hand()
        hand = table.sessions[0].hand
        assert hand is not None
        if hand.dealer == victim:
            continue
        for _ in range(400):
            if table.dropped or hand.is_over:
                break
            if not table.decide_round():
                table.tick(table.config.action_clock + 1)
        if table.dropped:
            return table
    raise AssertionError("the victim never made such a step")


def _pair(players: int, victim: int, kinds: frozenset[str]) -> tuple[Pair, int, int]:
    """A table where the dealer has just sat on one of the victim's entries of `kinds`, the
    dealer, and its friend (the first other seat)."""
    table = _until_dropped(players, victim, kinds)
    hand = table.sessions[0].hand
    assert hand is not None
    friend = next(s for s in range(players) if s not in (hand.dealer, victim))
    return table, hand.dealer, friend


def claim(table: Table, body_of: Any, signers: list[int], accused: int) -> Entry:
    """The pair's remedy: votes by `signers` against `accused` at the dealer's head, written
    and sequenced by the dealer (the first signer) at once."""
    dealer = signers[0]
    ledger = table.sessions[dealer].ledger
    records = []
    for voter in signers:
        vote = Vote.create(
            table.identities[voter],
            game=ledger.game or b"",
            hand=ledger.hand,
            head=ledger.head_hash,
            voter=voter,
            seats=(accused,),
        )
        records.append(k.VoteRecord(voter=voter, seats=vote.seats, sig=vote.sig.hex()))
    identity = table.identities[dealer]
    return AuthoredEntry.create(
        identity,
        game=ledger.game or b"",
        hand=ledger.hand,
        author=dealer,
        body=body_of(records),
        counter=10**6,
        seen=ledger.head_hash,
    ).sequence(ledger.head_seq + 1, ledger.head_hash, identity)


def _stacks(session: Session) -> dict[int, int]:
    return {p.seat: p.stack for p in session.game.players}


def _refused(out: Any) -> ClaimRefused:
    (told,) = [e for e in out.events if isinstance(e, ClaimRefused)]
    return told


# --- three seats: the victim alone is honest --------------------------------------------------


def test_three_seats_the_victim_refuses_a_false_timeout_and_stops_the_table() -> None:
    """The dealer sits on the victim's call and, with its friend, times the victim out at once.
    The victim holds its own call: it refuses, no quorum is left without the pair, so it stops
    the table: its transcript ends with a table_stop in the claim's place, the hand is void
    (every stack as at its start), and `willow verify` says who signed the claim."""
    victim = 1
    table, dealer, friend = _pair(3, victim, DECISIONS)
    session = table.sessions[victim]
    start = next(e for e in reversed(session.ledger.entries) if isinstance(e.body, k.HandStart))
    before = {p.seat: p.stack for p in start.body.players}  # type: ignore[attr-defined]
    forced = claim(table, lambda v: k.Timeout(seats=[victim], votes=v), [dealer, friend], victim)

    out = session.receive(forced)

    told = _refused(out)
    assert told.kind == "timeout" and told.seats == (victim,) and told.stops
    assert set(told.signers) == {dealer, friend}
    ledger = session.ledger
    assert ledger.stopped and ledger.head_seq == forced.seq
    stop = ledger.entries[-1]
    assert isinstance(stop.body, k.TableStop) and stop.body.claim == forced
    assert stop.author == victim and [e for e in out.send if e == stop]
    assert _stacks(session) == {s: before[s] for s in _stacks(session)}
    assert session.summaries[-1].stopped
    # nothing more is taken, not even the game's end
    assert session.receive(forced).send == ()
    report = verify_transcript(b"".join(e.encode() + b"\n" for e in ledger.entries))
    assert report.verdict is not Verdict.INVALID, report.error
    assert report.verdict is Verdict.NOT_CLOSED
    obj = report_object(report)
    SCHEMA.validate(obj)
    assert obj["hands"][-1]["stopped"] == sorted({dealer, friend})  # type: ignore[index]
    text = report_text(report).lower()
    assert "the table stopped in hand" in text and "false claim" in text


def test_three_seats_the_victim_refuses_a_void_before_the_deal() -> None:
    """The dealer sits on the victim's deal shares and, with its friend, voids the hand
    blaming the victim, who sent them: the victim refuses and stops the table."""
    victim = 1
    table, dealer, friend = _pair(3, victim, frozenset({"deal_shares"}))
    session = table.sessions[victim]
    forced = claim(
        table,
        lambda v: k.Abort(blamed=[victim], reason="the deal stalled", votes=v),
        [dealer, friend],
        victim,
    )
    out = session.receive(forced)
    told = _refused(out)
    assert told.kind == "abort" and told.stops and set(told.signers) == {dealer, friend}
    assert session.ledger.stopped


def test_a_remedy_after_the_clock_ran_out_is_applied() -> None:
    """The other side of the rule: a seat that really sent nothing in time is timed out
    (the victim's step reached nobody but the dealer, who sat on it). Every other peer's
    clock ran out and it holds nothing: it applies the timeout."""
    victim = 1
    table, dealer, friend = _pair(3, victim, DECISIONS)
    witness = table.sessions[friend]
    for held in list(witness.state.pool.entries()):
        witness.state.pool.discard(held.sig)  # the victim's call never reached it
    forced = claim(table, lambda v: k.Timeout(seats=[victim], votes=v), [dealer, friend], victim)
    out = witness.receive(forced)
    # its own clock has not run out yet: it holds the claim back until it has
    assert witness.ledger.head_seq == forced.seq - 1
    for n in (1, 2):
        out += witness.handle_timer(table.now + n * (table.config.action_clock + 1))
    assert not [e for e in out.events if isinstance(e, ClaimRefused)]
    assert witness.ledger.hash_of(forced.seq) == forced.hash
    assert forced in out.send  # passed on to the others


def test_a_seat_back_from_a_crash_is_no_witness_of_its_own_steps() -> None:
    """A seat restored from its store after a crash (SPEC 7.7) cannot know whether what it
    made before the crash reached anyone in time: its own step, handed back by a peer, is no
    evidence against a timeout, which it applies once its own clock has run out."""
    victim = 1
    table, dealer, friend = _pair(3, victim, DECISIONS)
    old = table.sessions[victim]
    back = Session.restore(
        table.identities[victim],
        victim,
        old.ledger.entries,
        make_rng("restored"),
        secrets=old.secrets,
        signed=old.signed,
    )
    back.receive(table.dropped[0])  # its own call, sent again by a witness
    forced = claim(table, lambda v: k.Timeout(seats=[victim], votes=v), [dealer, friend], victim)
    out = back.receive(forced)
    for n in (1, 2):
        out += back.handle_timer(n * (table.config.action_clock + 1))
    assert not [e for e in out.events if isinstance(e, ClaimRefused)]
    assert back.ledger.hash_of(forced.seq) == forced.hash


def test_a_seat_that_slept_past_its_clock_is_no_witness_of_its_own_steps() -> None:
    """A laptop asleep (its lid closed) while its clock ran out cannot say that what it sent
    before reached anyone: woken, it reads the time, then the timeout the others wrote, and
    applies it once its clock has run, though it holds its own call and votes on waking.
    Awake, the same seat refuses the same claim (the three-seat test above)."""
    victim = 1
    table, dealer, friend = _pair(3, victim, DECISIONS)
    session = table.sessions[victim]
    forced = claim(table, lambda v: k.Timeout(seats=[victim], votes=v), [dealer, friend], victim)
    session.handle_timer(table.now)  # its clock runs at this head, as a live node's does
    woken = table.now + 3 * table.config.action_clock
    session.note_time(woken)
    out = session.receive(forced)
    out += session.handle_timer(woken)
    out += session.handle_timer(woken + table.config.action_clock + 1)
    assert not [e for e in out.events if isinstance(e, ClaimRefused)]
    assert session.ledger.hash_of(forced.seq) == forced.hash


def test_a_pair_that_waits_out_the_victims_clock_is_still_refused() -> None:
    """The pair waits a whole clock before it writes its claim: the victim, awake, voted
    against the dealer who sits on its call when its clock ran out, and still refuses."""
    victim = 1
    table, dealer, friend = _pair(3, victim, DECISIONS)
    session = table.sessions[victim]
    session.handle_timer(table.now)
    session.handle_timer(table.now + table.config.action_clock + 0.5)
    forced = claim(table, lambda v: k.Timeout(seats=[victim], votes=v), [dealer, friend], victim)
    session.note_time(table.now + table.config.action_clock + 3)
    assert _refused(session.receive(forced)).stops


# --- four seats: a quorum is left without the pair --------------------------------------------


def test_four_seats_the_honest_pair_refuses_and_the_table_goes_on_without_the_dealer() -> None:
    """At four seats the victim and the other honest player refuse the pair's timeout and
    are a quorum without it: they wait out the dealer, who sits on the victim's call, replace
    it, and the hand goes on with the victim's call; the new sequencer records the false
    claim with its signers, and the dealer is folded for stalling."""
    victim = 1
    table, dealer, friend = _pair(4, victim, DECISIONS)
    forced = claim(table, lambda v: k.Timeout(seats=[victim], votes=v), [dealer, friend], victim)
    for seat in range(4):
        if seat == dealer:
            continue
        out = table.sessions[seat].receive(forced)
        told = _refused(out)
        assert not told.stops and set(told.signers) == {dealer, friend}
    table.muted.add(dealer)  # the dealer went its own way with its claim
    table.finish_hand()
    first = table._first
    entries = first.ledger.entries
    assert forced not in entries
    change = next(e for e in entries if e.kind == "sequencer_change")
    assert dealer in change.body.replaced  # type: ignore[attr-defined]
    recorded = [e for e in entries if isinstance(e.body, k.FalseClaim)]
    assert [e.body.claim for e in recorded] == [forced]  # type: ignore[attr-defined]
    summary = first.summaries[-1]
    assert dealer in summary.folded
    timeouts = [e.body for e in entries[change.seq :] if isinstance(e.body, k.Timeout)]
    assert not [t for t in timeouts if victim in t.seats]
    # the victim plays on: its call, or one made again at the new head (SPEC 7.1)
    assert any(e.author == victim and e.kind in DECISIONS for e in entries[change.seq :])
    (false,) = summary.false_claims
    assert set(false.signers) == {dealer, friend} and false.seats == (victim,)
    report = verify_transcript(b"".join(e.encode() + b"\n" for e in entries))
    assert report.verdict is not Verdict.INVALID, report.error
    assert "false claim refused" in report_text(report).lower()
    obj = report_object(report)
    SCHEMA.validate(obj)
    hands = obj["hands"]
    assert isinstance(hands, list)
    assert hands[0]["false_claims"] == [
        {"kind": "timeout", "seats": [victim], "signers": sorted({dealer, friend})}
    ]


def test_six_seats_a_pair_is_no_quorum_and_every_peer_rejects_its_claim() -> None:
    """At six seats the quorum against one seat is three (SPEC 7.5, 7.9): a pair's timeout
    carries two votes and every other peer, the friend's own session included, rejects it
    as the bad entry it is; the pair cannot even make a claim to refuse."""
    victim = 1
    table, dealer, friend = _pair(6, victim, DECISIONS)
    forced = claim(table, lambda v: k.Timeout(seats=[victim], votes=v), [dealer, friend], victim)
    for seat in range(6):
        if seat == dealer:
            continue
        session = table.sessions[seat]
        head = session.ledger.head_hash
        with pytest.raises(RemoteProtocolError) as caught:
            session.receive(forced)
        assert "is not accused by 3 votes" in caught.value.detail
        assert session.ledger.head_hash == head


def test_a_substitute_cannot_replace_a_working_dealer() -> None:
    """The seat that would take over sequencing and one friend replace a dealer that is
    working: every honest player, whose clock has not run out at that head, holds the change
    back; once the dealer has sequenced on, the change is for a place the chain went past,
    and nobody who did not vote against the dealer there applies it."""
    table = new_table(4, seed=5)
    table.start_hand()
    for _ in range(6):
        table.decide_round()
    first = table.sessions[0]
    dealer = first.ledger.sequencer
    successor = first.ledger.successor(dealer)
    friend = next(s for s in range(4) if s not in (dealer, successor))
    honest = next(s for s in range(4) if s not in (dealer, successor, friend))
    change = claim(
        table,
        lambda v: k.SequencerChange(replaced=[dealer], votes=v),
        [successor, friend],
        dealer,
    )
    session = table.sessions[honest]
    out = session.receive(change)
    assert session.ledger.head_seq == change.seq - 1  # held back: its clock has not run out
    assert not [e for e in out.events if isinstance(e, ClaimRefused)]
    table.finish_hand()  # the dealer sequences on
    assert table.sessions[dealer].ledger.hash_of(change.seq) != change.hash
    for seat in (dealer, honest):
        s = table.sessions[seat]
        head = s.ledger.head_hash
        s.receive(change)
        # the change is for a hand the chain has closed: no cut, no stop, nothing changes
        assert change not in s.ledger.entries
        assert s.ledger.head_hash == head and not s.ledger.stopped


# --- the verifier ------------------------------------------------------------------------------


def _stopped_transcript() -> tuple[list[Entry], Entry, Identity, Identity]:
    victim = 1
    table, dealer, friend = _pair(3, victim, DECISIONS)
    session = table.sessions[victim]
    forced = claim(table, lambda v: k.Timeout(seats=[victim], votes=v), [dealer, friend], victim)
    session.receive(forced)
    return list(session.ledger.entries), forced, table.identities[victim], table.identities[dealer]


def _replay(entries: list[Entry]) -> None:
    ledger = Ledger()
    for e in entries:
        ledger.append(e)


def test_the_ledger_takes_an_honest_stop() -> None:
    entries, _, _, _ = _stopped_transcript()
    _replay(entries)


@pytest.mark.parametrize("tamper", ["claim-sig", "chain-entry", "after-stop", "signer-author"])
def test_the_ledger_refuses_a_tampered_stop(tamper: str) -> None:
    """A table_stop is checked as any entry: its claim must be a remedy signed by its author
    and left out of the chain, in the stop's own place; nothing follows it; and it is
    countersigned by its own author, who cannot be one of the claim's signers."""
    entries, forced, victim, dealer = _stopped_transcript()
    stop = entries[-1]
    head = entries[-2]
    assert isinstance(stop.body, k.TableStop)
    if tamper == "after-stop":
        after = AuthoredEntry.create(
            victim,
            game=stop.game,
            hand=stop.hand,
            author=stop.author,
            body=k.Leave(),
            counter=stop.counter + 1,
            seen=stop.hash,
        ).sequence(stop.seq + 1, stop.hash, victim)
        chain = [*entries, after]
    else:
        key, author, claimed = victim, stop.author, forced
        if tamper == "claim-sig":
            data = dict(forced.to_json())
            data["body"] = {**data["body"], "seats": [head.author]}  # type: ignore[dict-item]
            claimed = decode_entry(canonical_bytes(data))
        elif tamper == "chain-entry":
            claimed = head
        else:
            key, author = dealer, forced.author
        remade = AuthoredEntry.create(
            key,
            game=stop.game,
            hand=stop.hand,
            author=author,
            body=k.TableStop(claim=claimed),
            counter=10**7,
            seen=head.hash,
        ).sequence(stop.seq, head.hash, key)
        chain = [*entries[:-1], remade]
    with pytest.raises(RemoteProtocolError) as caught:
        _replay(chain)
    expected = Reason.WRONG_HAND if tamper == "after-stop" else Reason.BAD_CLAIM
    assert caught.value.reason is expected, caught.value
    report = verify_transcript(b"".join(e.encode() + b"\n" for e in chain))
    assert report.verdict is Verdict.INVALID
