"""Free trading and the dealer's closings through the sessions and the in-process table.

Racing decisions: the sequencer applies the first, refuses the others with a signed refusal
(SPEC 7.1), and a refused seat decides again from the new state; no hand stalls.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest
from session_helpers import SAMPLES, fork, new_table, observer

from p2pwillow.bots import Bot, Decision, Knowledge
from p2pwillow.cards import parse_cards
from p2pwillow.games import weeping_willow as ww
from p2pwillow.games.weeping_willow import TradingClose, TradingClosed, TradingMode
from p2pwillow.ledger import AuthoredEntry, Entry, Identity, Reason, RemoteProtocolError
from p2pwillow.rules import (
    ActionKind,
    Announcement,
    Hand,
    Phase,
    TableConfig,
)
from p2pwillow.session import (
    EntryRefused,
    Output,
    Refusal,
    Session,
    decode_refusal,
)
from p2pwillow.table import Decider, Table, bot_decider
from p2pwillow.verify import verify_transcript

SCHEMA_DIR = Path(__file__).resolve().parents[3] / "protocol" / "schemas"

FIRST = ww.Partner.FIRST_ACCEPT
"""These tests play the rules before `partner` (SPEC 3.5: the first to accept trades), which
every hand announced without the option still plays; test_partner.py plays the new ones."""
FREE = ww.announcement(5, TradingMode.FREE, TradingClose.DEALER_CALLS, partner=FIRST)
ILLEGAL = Reason.ILLEGAL_ACTION


def scripted(seat: int, announcement: Announcement | None, hold: set[int] | None = None) -> Decider:
    """A bot for `seat` that announces `announcement` as dealer, and decides nothing in
    trading (bar giving cards in an agreed trade) while `seat` is in `hold`."""
    bot = bot_decider(seat, random.Random(100 + seat), samples=SAMPLES)

    def decide(session: Session) -> Decision | None:
        hand = session.hand
        assert hand is not None
        if hand.phase is Phase.ANNOUNCE and announcement is not None:
            return Decision(ActionKind.ANNOUNCE, announcement=announcement)
        held = hold is not None and seat in hold
        if held and hand.phase is Phase.TRADING and ww.trade_sides(hand) is None:
            return None
        return bot(session)

    return decide


def table_for(
    announcement: Announcement, seed: int, players: int = 3, hold: set[int] | None = None
) -> Table:
    deciders = {s: scripted(s, announcement if s == 0 else None, hold) for s in range(players)}
    return new_table(players, seed=seed, deciders=deciders)


def until(table: Table, done: Callable[[Hand], bool]) -> Hand:
    """Play rounds of decisions until `done` holds for the (first session's) hand."""
    for _ in range(200):
        hand = table.sessions[0].hand
        assert hand is not None
        if done(hand):
            return hand
        assert table.decide_round(), "nobody decides"
    raise AssertionError("never reached")


def trading(hand: Hand) -> bool:
    return hand.phase is Phase.TRADING


def settled(table: Table, players: int) -> None:
    """The game is complete and sound: chips conserved, nothing refused that was sequenced,
    the transcript verifies."""
    first = table.sessions[0]
    assert first.between_hands
    table.end_game()
    assert sum(p.stack for p in first.game.players) == players * table.config.starting_stack
    for summary in first.summaries:
        assert summary.signed and not summary.aborted
        assert sum(net for _, net in summary.chips) == 0
    assert table.rejections == []
    report = verify_transcript(b"".join(table.lines))
    assert report.error is None
    assert observer(table.lines).complete


def offer(k: int) -> Decision:
    return Decision(ActionKind.OFFER, k=k)


ACCEPT = Decision(ActionKind.ACCEPT)
WITHDRAW = Decision(ActionKind.WITHDRAW)
CLOSE = Decision(ActionKind.CLOSE_TRADING)


# --- whole hands -------------------------------------------------------------------------------


def test_free_trading_hand_through_the_table() -> None:
    table = table_for(FREE, seed=0)
    assert table.play(1) == 1
    settled(table, 3)
    hand = table.sessions[0].hand
    assert hand is not None and hand.announcement == FREE
    assert len(ww.trades(hand)) >= 1
    closed = [e for e in hand.events if isinstance(e, TradingClosed)]
    # the dealer called it by its own decision, not its clock
    assert len(closed) == 1 and closed[0].by == hand.dealer
    assert not any(e.kind == "timeout" for e in table.transcript)
    assert [e.author for e in table.transcript if e.kind == "close_trading"] == [hand.dealer]
    summary = table.sessions[0].summaries[-1]
    assert len(summary.trades) == len(ww.trades(hand))
    for refusal in table.refusals:  # lost races only, each reported to its author
        assert refusal.reason is ILLEGAL and refusal.author != hand.dealer


@pytest.mark.parametrize(
    "announcement",
    [
        ww.announcement(5, TradingMode.IN_TURN, TradingClose.ORBITS, 1, partner=FIRST),
        ww.announcement(6, TradingMode.IN_TURN, TradingClose.DEALER_CALLS, partner=FIRST),
    ],
    ids=["orbits", "dealer-calls"],
)
def test_in_turn_closings_complete(announcement: Announcement) -> None:
    table = table_for(announcement, seed=3, players=2)
    assert table.play(1) == 1
    settled(table, 2)
    hand = table.sessions[0].hand
    assert hand is not None and hand.announcement == announcement
    (closed,) = [e for e in hand.events if isinstance(e, TradingClosed)]
    closers = [e.author for e in table.transcript if e.kind == "close_trading"]
    if ww.Setup.of(announcement).closing is TradingClose.DEALER_CALLS:
        assert closed.by == hand.dealer and closers == [hand.dealer]
    else:
        assert closed.by is None and closers == []
        assert "orbit" in closed.reason or "fewer than two" in closed.reason


def test_an_away_free_trading_dealer_is_closed_by_its_clock() -> None:
    bot = scripted(0, FREE)

    def away(session: Session) -> Decision | None:
        hand = session.hand
        if hand is not None and hand.phase is Phase.TRADING and ww.trade_sides(hand) is None:
            return None
        return bot(session)

    table = new_table(2, seed=7, deciders={0: away, 1: scripted(1, None)})
    assert table.play(1) == 1
    settled(table, 2)
    hand = table.sessions[0].hand
    assert hand is not None and hand.announcement == FREE
    (closed,) = [e for e in hand.events if isinstance(e, TradingClosed)]
    assert closed.by is None and "clock" in closed.reason
    assert [(e.kind, e.author) for e in table.transcript if e.kind == "timeout"][-1] == (
        "timeout",
        0,
    )


# --- races -------------------------------------------------------------------------------------


def test_racing_offers_one_applied_the_other_refused() -> None:
    hold = {0, 1, 2}
    table = table_for(FREE, seed=4, hold=hold)
    table.start_hand()
    until(table, trading)
    s1, s2 = table.sessions[1], table.sessions[2]
    offers_before = sum(e.kind == "offer" for e in table.transcript)
    table.act(1, offer(1))
    table.act(2, offer(2))  # at the same moment: both sessions think no offer is open
    assert s1.decision_pending and s2.decision_pending
    assert not s2.may_decide() and not s2.decision_due()
    before = fork(s2)
    table.run()
    offers = [e for e in table.transcript if e.kind == "offer"]
    assert len(offers) == offers_before + 1 and offers[-1].author == 1
    (refusal,) = table.refusals
    assert (refusal.author, refusal.kind, refusal.reason) == (2, "offer", ILLEGAL)
    assert "an offer is open" in refusal.detail
    dealer = table.sessions[0].hand
    assert dealer is not None
    assert refusal.sequencer == dealer.dealer == 0
    assert refusal.verify(table.identities[0].public_key)
    # seat 2 recovered: its offer is dropped, and it now answers seat 1's offer
    assert not s2.decision_pending
    assert s2.hand is not None and ww.open_offer(s2.hand) is not None
    assert ww.open_offer(s2.hand).offerer == 1 and s2.decision_due()
    # the author's session reports the refusal of its decision once
    out = before.receive(refusal)
    assert out.events == (EntryRefused(2, "offer", ILLEGAL, refusal.detail),)
    assert not before.decision_pending
    assert before.receive(refusal).events == ()
    hold.clear()
    table.finish_hand()
    settled(table, 3)
    assert any(e.kind in ("accept", "decline") and e.author == 2 for e in table.transcript)


def test_racing_accepts_withdraw_and_close() -> None:
    hold = {0, 1, 2}
    table = table_for(FREE, seed=5, hold=hold)
    table.start_hand()
    until(table, trading)
    s2 = table.sessions[2]
    # The dealer offers; seats 1 and 2 accept at the same moment: seat 1's arrives first.
    table.act(0, offer(1))
    table.run()
    table.act(1, ACCEPT)
    table.act(2, ACCEPT)
    table.run()
    (late,) = table.refusals
    assert (late.author, late.kind, late.reason) == (2, "accept", ILLEGAL)
    assert "is agreed" in late.detail
    assert not s2.decision_pending and not s2.may_decide()  # not a side of this trade
    hand = until(table, lambda h: len(ww.trades(h)) == 1 and ww.trade_sides(h) is None)
    assert (ww.trades(hand)[0].offerer, ww.trades(hand)[0].acceptor) == (0, 1)
    # Seat 1 offers, then withdraws while seat 2 accepts: the withdraw arrives first.
    table.act(1, offer(2))
    table.run()
    table.act(1, WITHDRAW)
    table.act(2, ACCEPT)
    table.run()
    late = table.refusals[-1]
    assert (late.author, late.kind, late.reason) == (2, "accept", ILLEGAL)
    assert "not the open offer" in late.detail
    assert [e.kind for e in table.transcript[-2:]][-1] == "withdraw"
    assert s2.hand is not None and ww.open_offer(s2.hand) is None and not s2.decision_pending
    # Seat 2 offers as the dealer closes: the dealer sequences its own close first.
    table.act(2, offer(1))
    table.act(0, CLOSE)
    table.run()
    late = table.refusals[-1]
    assert (late.author, late.kind) == (2, "offer")
    assert "layout" in late.detail
    assert s2.hand.phase is Phase.LAYOUT and s2.decision_due()  # it lays out next
    hold.clear()
    table.finish_hand()
    settled(table, 3)
    assert len(table.refusals) == 3


class _SeatFirst(random.Random):
    """An arrival order that puts one seat's decision first."""

    def __init__(self, seat: int) -> None:
        super().__init__(0)
        self.seat = seat

    def shuffle(self, x: list[tuple[int, Decision]]) -> None:  # type: ignore[override]
        x.sort(key=lambda item: item[0] != self.seat)


def test_a_stale_dealer_decision_is_dropped_and_made_again() -> None:
    hold = {0, 1, 2}
    table = table_for(FREE, seed=6, hold=hold)
    table.start_hand()
    until(table, trading)
    calls: list[int] = []
    bots = {s: table.deciders[s] for s in (0, 1)}

    def dealer(session: Session) -> Decision | None:
        hand = session.hand
        assert hand is not None
        if (
            hand.phase is Phase.TRADING
            and ww.open_offer(hand) is None
            and ww.trade_sides(hand) is None
        ):
            calls.append(len(hand.events))
            return CLOSE
        return bots[0](session)

    def seat1(session: Session) -> Decision | None:
        hand = session.hand
        assert hand is not None
        if hand.phase is Phase.TRADING and hand.can(ActionKind.OFFER, 1, 1) and not ww.trades(hand):
            return offer(1)
        return bots[1](session)

    table.deciders.update({0: dealer, 1: seat1})
    table._arrival = _SeatFirst(1)  # seat 1's offer reaches the dealer before its close
    assert table.decide_round()
    assert [s.seat for s in table.stale] == [0]
    assert "an offer is open" in str(table.stale[0].error)
    hand = table.sessions[0].hand
    assert hand is not None
    open_offer = ww.open_offer(hand)
    assert open_offer is not None and open_offer.offerer == 1
    hold.clear()
    table.finish_hand()
    settled(table, 3)
    assert len(calls) >= 2  # the dealer decided again once the offer was settled


# --- refusals: tampered or misdirected -----------------------------------------------------


@pytest.fixture(scope="module")
def pending() -> tuple[Table, Session, Refusal]:
    """Seat 2's offer, refused, and a copy of seat 2's session from before the refusal."""
    table = table_for(FREE, seed=4, hold={0, 1, 2})
    table.start_hand()
    until(table, trading)
    table.act(1, offer(1))
    table.act(2, offer(1))
    before = fork(table.sessions[2])
    table.run()
    (refusal,) = table.refusals
    return table, before, refusal


def _resign(refusal: Refusal, identity: Identity, **changes: object) -> Refusal:
    changed = dataclasses.replace(refusal, **changes)  # type: ignore[arg-type]
    return dataclasses.replace(changed, countersig=identity.sign(changed.sequencer_message()))


def test_refusal_encoding_round_trips(pending: tuple[Table, Session, Refusal]) -> None:
    _, _, refusal = pending
    line = refusal.encode()
    assert decode_refusal(line) == refusal
    assert decode_refusal(line + b"\n") == refusal
    assert decode_refusal(line.decode()) == refusal


@pytest.mark.parametrize(
    ("old", "new", "reason"),
    [
        (b'"type":"refusal"', b'"type":"entry"', Reason.BAD_FIELD),
        (b'"reason":"illegal-action"', b'"reason":"no-reason"', Reason.BAD_FIELD),
        (b'"kind":"offer"', b'"kind":"nonsense"', Reason.UNKNOWN_KIND),
        (b'"v":1', b'"v":2', Reason.BAD_VERSION),
        (b'"hand":1', b'"hand":-1', Reason.BAD_FIELD),
        (b'"author":2', b'"author":10', Reason.BAD_FIELD),
        (b'"sequencer":0,', b"", Reason.BAD_FIELD),
        (b'"v":1', b'"v":1,"x":1', Reason.BAD_FIELD),
        (b'{"author"', b'{"z":1,"author"', Reason.NON_CANONICAL),
        (b'{"author"', b'{ "author"', Reason.NON_CANONICAL),
        (b'"countersig":"', b'"countersig":"zz', Reason.BAD_FIELD),
        (b"{", b"[", Reason.MALFORMED),
    ],
)
def test_malformed_refusals_are_rejected(
    pending: tuple[Table, Session, Refusal], old: bytes, new: bytes, reason: Reason
) -> None:
    _, _, refusal = pending
    line = refusal.encode()
    assert old in line
    with pytest.raises(RemoteProtocolError) as caught:
        decode_refusal(line.replace(old, new, 1))
    assert caught.value.reason is reason


def test_forged_or_foreign_refusals_are_rejected(
    pending: tuple[Table, Session, Refusal],
) -> None:
    table, before, refusal = pending
    cases: list[tuple[Refusal, Reason]] = [
        # changed after signing: the countersignature no longer verifies
        (dataclasses.replace(refusal, detail="something else"), Reason.BAD_COUNTERSIGNATURE),
        # signed by a seat that does not sequence (seat 1)
        (_resign(refusal, table.identities[1]), Reason.BAD_COUNTERSIGNATURE),
        # from another game
        (_resign(refusal, table.identities[0], game=bytes(16)), Reason.WRONG_GAME),
    ]
    for bad, reason in cases:
        session = fork(before)
        with pytest.raises(RemoteProtocolError) as caught:
            session.receive(bad)
        assert caught.value.reason is reason
        assert session.decision_pending  # nothing changed
    # Well signed, but not about the pending decision: ignored, the decision stays pending.
    dealer = table.identities[0]
    changes: list[dict[str, object]] = [
        {"sig": bytes(64)},  # another entry
        {"author": 1},  # another seat's
        {"head": before.ledger.head_seq - 1},  # older than the decision
        {"hand": refusal.hand + 1},  # another hand
    ]
    for change in changes:
        session = fork(before)
        assert session.receive(_resign(refusal, dealer, **change)) == Output()
        assert session.decision_pending
    session = fork(before)
    assert session.receive(refusal).events and not session.decision_pending


def test_a_peer_that_does_not_sequence_keeps_an_authored_entry_until_it_is_sequenced(
    pending: tuple[Table, Session, Refusal],
) -> None:
    """SPEC 7.1: authored entries go to every peer; one that does not sequence keeps them in
    its pool (no refusal, no error), drops them once sequenced, and rejects one of another
    game or by a seat that holds no seat."""
    table, _, _ = pending
    author = fork(table.sessions[2])
    (authored,) = author.act(Decision(ActionKind.DECLINE)).send
    assert isinstance(authored, AuthoredEntry)
    other = fork(table.sessions[1])
    head = other.ledger.head_seq
    assert other.receive(authored) == Output()
    assert other.receive(authored) == Output()  # a resend changes nothing
    assert authored in other.state.pool.entries(2) and other.ledger.head_seq == head
    dealer = fork(table.sessions[0])
    (entry,) = [e for e in dealer.receive(authored).send if isinstance(e, Entry)]
    other.receive(entry)
    assert other.state.pool.entries() == ()
    foreign = dataclasses.replace(authored, game=bytes(16))
    with pytest.raises(RemoteProtocolError) as caught:
        other.receive(foreign)
    assert caught.value.reason is Reason.WRONG_GAME
    nobody = dataclasses.replace(authored, author=7)
    with pytest.raises(RemoteProtocolError) as caught:
        other.receive(nobody)
    assert caught.value.reason is Reason.UNKNOWN_AUTHOR


# --- the bots' side ------------------------------------------------------------------------


def test_bots_announce_every_mode_and_closing() -> None:
    seen = set()
    for seed in range(80):
        hand = Hand(TableConfig(), [0, 1, 2], [1000] * 3, dealer=0)
        d = Bot(0, random.Random(seed)).decide(hand, Knowledge(0, ()))
        assert d.announcement is not None and hand.can_announce(0, d.announcement)
        setup = ww.Setup.of(d.announcement)
        seen.add((setup.mode, setup.closing))
    assert seen == {
        (TradingMode.FREE, TradingClose.DEALER_CALLS),
        (TradingMode.IN_TURN, TradingClose.DEALER_CALLS),
        (TradingMode.IN_TURN, TradingClose.ORBITS),
        (TradingMode.IN_TURN, TradingClose.ORBIT_WITHOUT_TRADE),
    }


def _free_hand() -> Hand:
    hand = Hand(TableConfig(), [0, 1, 2], [1000] * 3, dealer=0)
    hand.announce(0, FREE)
    hand.deal()
    return hand


def test_free_trading_dealer_waits_a_look_then_closes() -> None:
    hand = _free_hand()
    strong = Knowledge(0, tuple(parse_cards("As Ks Qs Js Ts")))
    bot = Bot(0, random.Random(1))
    assert bot.initiative(hand, strong) is None  # first look: it waits
    assert bot.initiative(hand, strong) == CLOSE  # nothing happened since: it closes
    hand = _free_hand()
    assert bot.initiative(hand, strong) is None  # a new hand is a new look
    ww.offer(hand, 1, 1)
    ww.withdraw(hand, 1)
    assert bot.initiative(hand, strong) is None  # something happened: another look
    assert bot.initiative(hand, strong) == CLOSE


def test_free_trading_dealer_closes_after_enough_trades() -> None:
    hand = _free_hand()
    for offerer, acceptor in ((1, 2), (2, 1), (1, 2)):
        ww.offer(hand, offerer, 1)
        ww.accept(hand, acceptor)
        ww.choose_trade_cards(hand, offerer, [0])
        ww.choose_trade_cards(hand, acceptor, [0])
    junk = Knowledge(0, tuple(parse_cards("2c 5d 9h Js 7c")))
    assert Bot(0, random.Random(2)).initiative(hand, junk) == CLOSE


def test_refusals_match_their_schema(pending: tuple[Table, Session, Refusal]) -> None:
    _, _, refusal = pending
    schema = json.loads((SCHEMA_DIR / "refusal.json").read_text("utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    obj = json.loads(refusal.encode())
    validator.validate(obj)
    for bad in ({**obj, "extra": 1}, {**obj, "reason": "because"}, {**obj, "sig": "00"}):
        assert not validator.is_valid(bad)
