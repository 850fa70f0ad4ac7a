"""The checks an entry passes before a session applies it: order, rules and proofs (SPEC 7.1-7.3).

Pure, no I/O. `check(state, entry)` raises `Rejected` or returns the commit that applies the
entry; nothing changes until that commit runs, so a refused entry leaves the session as it was.
When a step is due is the schedule's to say (`schedule.refusal`), what an action may do is the
rules' (through the action table), and what a proof proves is mental poker's: each check below
puts the three together for one entry kind, in the order of SPEC 7.1.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar, cast

from p2pwillow import mental
from p2pwillow.cards import Card
from p2pwillow.crypto.elgamal import Ciphertext
from p2pwillow.crypto.proofs import DleqBatchProof, ReencryptionProof
from p2pwillow.games import BY_ENTRY, CATALOGUE, FORMER, spec_hash
from p2pwillow.games import weeping_willow as ww
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.commitment import DECLARE, CommitmentError, check_opening
from p2pwillow.ledger.entry import Entry
from p2pwillow.ledger.errors import Reason
from p2pwillow.ledger.fields import Body
from p2pwillow.ledger.vote import Vote
from p2pwillow.mental import HandContext, LiveDeck, MentalPokerError, PlayerHand, TradeGive
from p2pwillow.mental import deck as live_deck
from p2pwillow.mental import encoding as wire
from p2pwillow.mental.encoding import BadText
from p2pwillow.rules import (
    Action,
    ActionKind,
    Announcement,
    ConfigError,
    Needs,
    Phase,
    RulesError,
    SitOutReason,
)
from p2pwillow.rules.live import Opened, deals_live
from p2pwillow.rules.wash import Flip
from p2pwillow.session import claims, witness
from p2pwillow.session.events import (
    CardsDealt,
    CardsReceived,
    ClaimSummary,
    HandClosed,
    HandStarted,
    SessionEvent,
)
from p2pwillow.session.record import HandRecord, OpenTrade
from p2pwillow.session.schedule import GameEnded, Stall, Step, refusal
from p2pwillow.session.state import SessionState

T = TypeVar("T")

ILLEGAL = Reason.ILLEGAL_ACTION
BAD_PROOF = Reason.BAD_PROOF

Commit = Callable[[], list[SessionEvent]]
Check = Callable[[SessionState, Entry], Commit]


class Rejected(Exception):
    """Internal to the session: why an entry cannot be applied, before it is located."""

    def __init__(self, reason: Reason, detail: str) -> None:
        self.reason = reason
        self.detail = detail
        super().__init__(f"{reason.value}: {detail}")


def check(st: SessionState, e: Entry) -> Commit:
    """The commit that applies `e` to the session, or Rejected naming why it may not (SPEC 7.1
    checks 2-4; the ledger has made check 1)."""
    checker = CHECKS.get(e.kind) or ADDED_CHECKS.get(e.kind)
    if checker is None:
        raise Rejected(ILLEGAL, f"a session does not accept {e.kind} entries")
    return checker(st, e)


# --- what every check shares -------------------------------------------------------------------


def _require(why: str | None) -> None:
    """A step the schedule does not allow now is an illegal action (SPEC 7.3)."""
    if why is not None:
        raise Rejected(ILLEGAL, why)


def _rules(call: Callable[[], object]) -> None:
    """Run a rules check; IllegalAction becomes Rejected(illegal-action)."""
    try:
        call()
    except RulesError as exc:
        raise Rejected(ILLEGAL, str(exc)) from None


def _mental(call: Callable[[], T]) -> T:
    """Run a mental-poker check; a step that fails it is bad-proof (SPEC 5)."""
    try:
        return call()
    except MentalPokerError as exc:
        raise Rejected(BAD_PROOF, str(exc)) from None


def _read(read: Callable[[], T]) -> T:
    """Read a step out of its body; a text that is no value is bad-field (SPEC 6.11)."""
    try:
        return read()
    except BadText as exc:
        raise Rejected(Reason.BAD_FIELD, str(exc)) from None


B = TypeVar("B", bound=Body)
S = TypeVar("S")
HandCheck = Callable[[SessionState, HandRecord, Entry], Commit]


def _body(e: Entry, cls: type[B]) -> B:
    body = e.body
    assert isinstance(body, cls), (e.kind, cls)
    return body


def _in_hand(check: HandCheck) -> Check:
    """An entry of the running hand, by one of its players (SPEC 7.2)."""
    return lambda st, e: check(st, _live(st, e), e)


def _proved(
    st: SessionState,
    r: HandRecord,
    e: Entry,
    read: Callable[[wire.MadeValues], S],
    verify: Callable[[S], object],
) -> S:
    """The mental-poker step `e` carries: read out of its body (bad-field) and, unless this
    session made it itself, its proof checked (bad-proof; SPEC 7.1 check 4)."""
    step = _read(lambda: read(r.made))
    if st.verifies(e.author):
        _mental(lambda: verify(step))
    return step


def _live(st: SessionState, e: Entry) -> HandRecord:
    r = st.hand
    if r is None or r.ended or r.number != e.hand:
        raise Rejected(ILLEGAL, "no hand is running")
    if e.author not in r.order:
        raise Rejected(ILLEGAL, f"seat {e.author} is not in hand {r.number}")
    return r


def _done(st: SessionState, e: Entry) -> None:
    """The local seat's decision (SPEC 7.1) has come back sequenced."""
    if e.author == st.seat and e.kind in BY_ENTRY:
        st.decision_pending = False


def _count(st: SessionState, r: HandRecord, e: Entry, step: wire.Step) -> None:
    """Count the proofs of `step` for the hand's summary: as many as it holds if this session
    checked them, else none (the kind is listed all the same)."""
    kind, n = wire.proofs_in(step)
    r.proofs[kind] += n if st.verifies(e.author) else 0


def _rules_events(r: HandRecord, action: Callable[[], object]) -> list[SessionEvent]:
    """Run a rules action and return every event it produced (with those it triggered)."""
    before = len(r.rules.events)
    action()
    r.sync_live()  # the action may have brought the hand to a deal of the live deck
    return list(r.rules.events[before:])


# --- hand 0 and between hands ------------------------------------------------------------------


def _seat(st: SessionState, e: Entry) -> Commit:
    return lambda: []


def _between(st: SessionState, what: str) -> None:
    if st.ended is not None:
        raise Rejected(ILLEGAL, "the game has ended")
    if not st.between_hands:
        raise Rejected(ILLEGAL, f"{what} only between hands")


def _join(st: SessionState, e: Entry) -> Commit:
    """SPEC 3.11, 7.3: a player sits down with the stack its key left with, or buys in with the
    starting stack; `buy_in` says which, and must be exactly what is due."""
    body = _body(e, k.Join)
    _between(st, "a player joins")
    game = st.game
    _rules(lambda: game.verify_join(e.author, body.name, body.identity_key))
    due = game.buy_in_due(body.identity_key)
    if body.buy_in != due:
        raise Rejected(ILLEGAL, f"this player's buy-in is {due}, not {body.buy_in}")

    def commit() -> list[SessionEvent]:
        game.join(e.author, body.name, body.identity_key)
        return []

    return commit


def _admit(st: SessionState, e: Entry) -> Commit:
    """SPEC 6.6: a seated player admits the newcomer (the ledger checked that its admission is
    open and that the answer is its own); the rules see nothing of it."""
    _between(st, "a player admits a newcomer")
    return lambda: []


def _refuse(st: SessionState, e: Entry) -> Commit:
    """SPEC 6.6, 3.11: a seated player refuses the newcomer, which leaves the table as if it
    had left itself: the game keeps its stack (what it brought) for its key."""
    body = _body(e, k.Refuse)
    _between(st, "a player refuses a newcomer")
    game = st.game
    _rules(lambda: game.verify_leave(body.seat))

    def commit() -> list[SessionEvent]:
        game.leave(body.seat)
        return []

    return commit


def _seat_move(
    st: SessionState,
    e: Entry,
    what: str,
    verify: Callable[[int], object],
    move: Callable[[int], object],
) -> Commit:
    """A seat's own move between hands (leave, sit in): the rules' `verify` now, `move` when
    the entry is applied."""
    _between(st, what)
    _bound(e)
    _rules(lambda: verify(e.author))

    def commit() -> list[SessionEvent]:
        move(e.author)
        return []

    return commit


def _leave(st: SessionState, e: Entry) -> Commit:
    """SPEC 3.11: any player may leave between hands; the game keeps its stack for its key."""
    return _seat_move(st, e, "a player leaves", st.game.verify_leave, st.game.leave)


def _sit_in(st: SessionState, e: Entry) -> Commit:
    """SPEC 3.11, 7.3: a seat sitting out plays again from the next hand, once a hand has
    started since it was made to sit out (or at once if the game cannot go on without it).
    At any time, a hand running or not (the seat is not in it), and it binds no head: it says
    only "deal me in from the next hand"."""
    if st.ended is not None:
        raise Rejected(ILLEGAL, "the game has ended")
    _rules(lambda: st.game.verify_sit_in(e.author))

    def commit() -> list[SessionEvent]:
        st.game.sit_in(e.author)
        return []

    return commit


def _hand_start(st: SessionState, e: Entry) -> Commit:
    body = _body(e, k.HandStart)
    _between(st, "a hand starts")
    if st.timekeeping.end_ruled is not None:
        raise Rejected(ILLEGAL, "the arbiter ended the game: no hand starts")
    game = st.game
    try:
        dealer = game.next_button()
    except RulesError as exc:
        raise Rejected(ILLEGAL, str(exc)) from None
    if body.dealer != dealer:
        raise Rejected(ILLEGAL, f"seat {dealer} deals hand {e.hand}, not seat {body.dealer}")
    expected = [(p.seat, p.stack) for p in game.players if p.plays]
    got = [(p.seat, p.stack) for p in body.players]
    if got != expected:
        raise Rejected(ILLEGAL, f"the hand's seats and stacks must be {expected}")

    def commit() -> list[SessionEvent]:
        hand = game.start_hand()
        assert hand.hand_number == e.hand
        ctx = HandContext(st.game_id, e.hand)
        st.hand = HandRecord(e.hand, dealer, hand, ctx, hand.seats)
        st.pending.clear()
        st.decision_pending = False
        st.start_sent = None
        return [HandStarted(e.hand, dealer, hand.seats)]

    return commit


# --- the mental-poker steps (SPEC 5) -----------------------------------------------------------


@_in_hand
def _hand_key(st: SessionState, r: HandRecord, e: Entry) -> Commit:
    body, a = _body(e, k.HandKey), e.author
    _require(refusal(r, Step.HAND_KEY, a))
    step = _proved(
        st,
        r,
        e,
        lambda made: wire.read_hand_key(body, made),
        lambda key: mental.check_hand_key(r.ctx, a, key),
    )
    keys = {**r.keys, a: step.public}
    joint = None
    if len(keys) == len(r.order):
        joint = _mental(lambda: mental.joint_key(keys[s] for s in r.order))

    def commit() -> list[SessionEvent]:
        r.keys[a] = step.public
        _count(st, r, e, step)
        if joint is not None:
            r.joint = joint
            r.deck = mental.starting_deck(joint)
        return []

    return commit


@_in_hand
def _deck_shuffle(st: SessionState, r: HandRecord, e: Entry) -> Commit:
    body, a = _body(e, k.DeckShuffle), e.author
    _require(refusal(r, Step.DECK_SHUFFLE, a))
    joint = r.joint
    assert joint is not None
    step = _proved(
        st,
        r,
        e,
        lambda made: wire.read_deck_shuffle(body, made),
        lambda deck: mental.check_deck_shuffle(r.ctx, a, joint, r.deck, deck),
    )

    def commit() -> list[SessionEvent]:
        r.deck = step.ciphertexts
        r.shuffled += 1
        _count(st, r, e, step)
        r.sync_live()
        return []

    return commit


@_in_hand
def _deal_shares(st: SessionState, r: HandRecord, e: Entry) -> Commit:
    body, a = _body(e, k.DealShares), e.author
    _require(refusal(r, Step.DEAL_SHARES, a))
    plan = r.plan
    assert plan is not None
    positions = tuple(s.position for s in body.shares)
    if positions != plan.shared_positions(a):
        raise Rejected(ILLEGAL, f"shares must be for positions {list(plan.shared_positions(a))}")
    key = r.keys[a]
    made = _proved(
        st,
        r,
        e,
        lambda values: wire.read_deal_shares(body, values),
        lambda shares: mental.check_deal_shares(r.ctx, a, key, plan, r.deck, shares),
    )
    shares = {**r.shares, a: made}
    public: dict[int, tuple[Ciphertext, ...]] = {}
    held = None
    if len(shares) == len(r.order):
        # the last shares are the rules' deal (SPEC 7.3)
        _rules(lambda: r.rules.verify(ActionKind.DEAL, r.dealer))
        for seat in r.order:
            public[seat] = mental.owner_ciphertexts(plan, r.deck, shares, seat)
        if st.seat is not None and r.secret is not None:
            secret = r.secret
            try:
                held = PlayerHand.open(public[st.seat], secret)
            except MentalPokerError as exc:
                raise Rejected(BAD_PROOF, f"our dealt cards do not open: {exc}") from None

    def commit() -> list[SessionEvent]:
        r.shares[a] = made
        _count(st, r, e, made)
        if not public:
            return []
        r.public = public
        events = _rules_events(r, lambda: r.rules.act(ActionKind.DEAL, r.dealer))
        if held is not None and st.seat is not None:
            r.held = held
            events.append(CardsDealt(st.seat, held.cards))
        return events

    return commit


@_in_hand
def _trade_give(st: SessionState, r: HandRecord, e: Entry) -> Commit:
    body, a = _body(e, k.TradeGive), e.author
    _require(refusal(r, Step.TRADE_GIVE, a))
    t = r.trade
    assert t is not None
    if body.trade != t.trade or body.to != t.other(a):
        raise Rejected(ILLEGAL, f"this is trade {t.trade}, giving to seat {t.other(a)}")
    positions = tuple(c.position for c in body.cards)
    choose = ActionKind.CHOOSE_TRADE_CARDS
    _rules(lambda: r.rules.verify(choose, a, positions))
    keys, held = r.keys, r.public[a]
    give = _proved(
        st,
        r,
        e,
        lambda made: wire.read_trade_give(body, made),
        lambda cards: mental.check_trade_give(
            r.ctx, a, t.trade, keys[a], keys[t.other(a)], held, t.k, cards
        ),
    )
    gives = {**t.gives, a: (positions, give.ciphertexts)}
    me = st.seat
    mine: PlayerHand | None = None
    got: tuple[Card, ...] = ()
    lost: tuple[Card, ...] = ()
    if len(gives) == 2 and me in gives and r.held is not None and r.secret is not None:
        mine_pos = gives[me][0]
        received = gives[t.other(me)][1]
        try:
            mine = mental.trade_hand(r.held, r.secret, mine_pos, received)
        except MentalPokerError as exc:
            raise Rejected(BAD_PROOF, f"the cards received do not open: {exc}") from None
        got = mine.cards[-len(received) :]
        lost = tuple(r.held.cards[p] for p in mine_pos)

    def commit() -> list[SessionEvent]:
        _done(st, e)
        t.gives[a] = (positions, give.ciphertexts)
        _count(st, r, e, give)
        events = _rules_events(r, lambda: r.rules.act(choose, a, positions))
        if len(t.gives) < 2:
            return events
        for seat in (t.offerer, t.acceptor):
            other = t.other(seat)
            r.public[seat] = mental.apply_trade(r.public[seat], t.gives[seat][0], t.gives[other][1])
            r.owed_shuffles[seat] = t.trade
        r.trade = None
        r.offer_seq = None
        if mine is not None and me is not None:
            other = t.other(me)
            r.held = mine
            r.given[other] = r.given.get(other, ()) + lost
            r.received[other] = r.received.get(other, ()) + got
            events.append(CardsReceived(other, got))
        return events

    return commit


@_in_hand
def _hand_shuffle(st: SessionState, r: HandRecord, e: Entry) -> Commit:
    """A hand shuffle after a trade (SPEC 5.6), or the layout, the rules' lay out (5.8)."""
    body, a = _body(e, k.HandShuffle), e.author
    cts = _read(lambda: wire.read_hand_cards(body.cards, r.made))
    size = len(r.public.get(a, ()))
    if not r.dealt:
        raise Rejected(ILLEGAL, "no cards have been dealt")
    if len(cts) != size:
        raise Rejected(ILLEGAL, f"seat {a}'s hand holds {size} cards, not {len(cts)}")
    step = _read(lambda: wire.read_hand_shuffle(cts, body.proof, r.made))
    key, before = r.keys[a], r.public[a]
    layout: mental.Layout | None = None
    if body.purpose == "trade":
        _require(refusal(r, Step.HAND_SHUFFLE, a, body.trade))
        if st.verifies(a):
            trade = body.trade
            _mental(lambda: mental.check_hand_shuffle(r.ctx, a, trade, key, before, step))
    else:
        _require(refusal(r, Step.LAYOUT, a))
        _rules(lambda: r.rules.verify(ActionKind.LAY_OUT, a))
        size_out = r.rules.showdown_cards
        if st.verifies(a):
            _mental(lambda: mental.check_layout(r.ctx, a, key, before, step, size_out))
        layout = mental.Layout.split(cts, r.rules.showdown_cards)

    def commit() -> list[SessionEvent]:
        _done(st, e)
        r.public[a] = cts
        _count(st, r, e, step)
        events: list[SessionEvent] = []
        if layout is None:
            del r.owed_shuffles[a]
        else:
            r.layouts[a] = layout
            events += _rules_events(r, lambda: r.rules.act(ActionKind.LAY_OUT, a))
        if a == st.seat and r.secret is not None:
            # the hand as this shuffle leaves it: as made here, or else opened with x (a
            # restored session, or another of its shuffles sequenced than the last made)
            after = r.after_shuffle.pop(body.trade, None)
            if after is None or after.ciphertexts != cts:
                after = PlayerHand.open(cts, r.secret)
            r.held = after
            if layout is not None:
                r.layout = after.cards[: r.rules.showdown_cards]
        return events

    return commit


@_in_hand
def _reveal(st: SessionState, r: HandRecord, e: Entry) -> Commit:
    body, a = _body(e, k.Reveal), e.author
    _require(refusal(r, Step.REVEAL, a, body.card))
    layout = r.layouts[a]
    step = _read(lambda: wire.read_reveal(body, r.made))
    # the card is known only once the proof verifies; the rules check it after (SPEC 7.1)
    card = _mental(lambda: mental.check_reveal(r.ctx, a, r.keys[a], layout, body.card, step))
    _rules(lambda: r.rules.verify(ActionKind.REVEAL, a, card))

    def commit() -> list[SessionEvent]:
        kind, n = wire.proofs_in(step)
        r.proofs[kind] += n  # every peer checks a reveal: it needs the card
        return _rules_events(r, lambda: r.rules.act(ActionKind.REVEAL, a, card))

    return commit


# --- the live deck (SPEC 5.12-5.16, 3.15) -----------------------------------------------------


def _deck(r: HandRecord) -> LiveDeck:
    if r.live is None:
        raise Rejected(ILLEGAL, "this hand has no live deck")
    return r.live


@_in_hand
def _street_shares(st: SessionState, r: HandRecord, e: Entry) -> Commit:
    body, a = _body(e, k.StreetShares), e.author
    step = Step.DEAL_STREET if r.rules.phase is Phase.DEAL else Step.STREET
    _require(refusal(r, step, a, body.step))
    deck = _deck(r)
    dealing = deck.dealing
    assert dealing is not None
    positions = dealing.shared_positions(a)
    if tuple(s.position for s in body.shares) != positions:
        raise Rejected(ILLEGAL, f"shares must be for positions {list(positions)}")
    made = _proved(
        st,
        r,
        e,
        lambda values: wire.read_deal_shares(body, values),
        lambda shares: live_deck.check_street_shares(r.ctx, a, deck, shares),
    )
    shares = {**r.street, a: made}
    owed = [x for x in deck.holders if dealing.shared_positions(x)]
    dealt = None
    held = None
    if all(x in shares for x in owed):
        # the last shares open the step: the rules' street (SPEC 5.12, 7.3)
        dealt = _mental(lambda: live_deck.open_deal(deck, shares))
        opened = Opened(tuple((x, dealt.up[x]) for x in r.order if x in dealt.up), dealt.board)
        _rules(lambda: r.rules.verify(ActionKind.STREET, r.dealer, opened))
        me = st.seat
        if me is not None and r.secret is not None and me in dealt.down:
            secret = r.secret
            mine = r.public.get(me, ()) + dealt.down[me]
            try:
                held = PlayerHand.open(mine, secret)
            except MentalPokerError as exc:
                raise Rejected(BAD_PROOF, f"our dealt cards do not open: {exc}") from None

    def commit() -> list[SessionEvent]:
        r.street[a] = made
        _count(st, r, e, made)
        if dealt is None:
            return []
        r.live = dealt.deck
        for x, cts in dealt.down.items():
            r.public[x] = r.public.get(x, ()) + cts
        events = _rules_events(r, lambda: r.rules.act(ActionKind.STREET, r.dealer, opened))
        if held is not None and st.seat is not None:
            r.held = held
            events.append(CardsDealt(st.seat, held.cards))
        return events

    return commit


@_in_hand
def _show(st: SessionState, r: HandRecord, e: Entry) -> Commit:
    """A show: owed at the show step, or the author's own decision in the bet after the
    declaration (SPEC 3.18), which puts it to match the pot or fold."""
    body, a = _body(e, k.Show), e.author
    kind = ActionKind.SHOW
    if refusal(r, Step.SHOW, a) is not None:
        kind = ActionKind.EARLY_SHOW
        _rules(lambda: r.rules.verify(kind, a))
    held = r.public.get(a, ())
    positions = tuple(c.position for c in body.cards)
    if positions != tuple(range(len(held))):
        raise Rejected(ILLEGAL, f"a show at the showdown opens positions {list(range(len(held)))}")
    show = _read(
        lambda: live_deck.Show(
            positions,
            tuple(r.made.point(c.share, f"cards[{i}].share") for i, c in enumerate(body.cards)),
            r.made.decode(DleqBatchProof, DleqBatchProof.from_hex, body.proof, "proof"),
        )
    )
    key = r.keys[a]
    # every peer opens the cards, its own show included: the rules need them
    cards = _mental(lambda: live_deck.check_show(r.ctx, a, 0, key, held, show))
    _rules(lambda: r.rules.verify(kind, a, cards))

    def commit() -> list[SessionEvent]:
        if kind is ActionKind.EARLY_SHOW:
            _done(st, e)
        r.proofs["dleq-batch"] += 1
        return _rules_events(r, lambda: r.rules.act(kind, a, cards))

    return commit


@_in_hand
def _pot_match(st: SessionState, r: HandRecord, e: Entry) -> Commit:
    """The answer of a player put to match the pot or fold (SPEC 3.18): by that player only,
    naming the chips the match puts in (0 with a fold)."""
    body, a = _body(e, k.PotMatch), e.author
    hand = r.rules
    match = body.answer == "match"
    _rules(lambda: hand.verify(ActionKind.POT_MATCH, a, match))
    owed = hand.match_amount(a) if match else 0
    if body.amount != owed:
        raise Rejected(ILLEGAL, f"the {body.answer} puts in {owed} chips, not {body.amount}")

    def commit() -> list[SessionEvent]:
        _done(st, e)
        return _rules_events(r, lambda: hand.act(ActionKind.POT_MATCH, a, match))

    return commit


@_in_hand
def _fold_release(st: SessionState, r: HandRecord, e: Entry) -> Commit:
    """A live-deck game's fold: the rules' fold, with the folder's release (SPEC 5.13)."""
    body, a = _body(e, k.FoldRelease), e.author
    action = BY_ENTRY[e.kind]
    hand = r.rules
    _rules(lambda: hand.verify(action.kind, a))
    _bound(e)
    deck = _deck(r)
    release = _read(
        lambda: live_deck.Release(
            tuple(r.made.point(p, f"shares[{i}]") for i, p in enumerate(body.shares)),
            r.made.decode(DleqBatchProof, DleqBatchProof.from_hex, body.proof, "proof"),
        )
    )
    # every peer strips the folder's shares, its own release included: the deck needs them
    after = _mental(lambda: live_deck.check_release(r.ctx, a, deck, release))

    def commit() -> list[SessionEvent]:
        _done(st, e)
        r.live = after
        r.proofs["dleq-batch"] += 1
        return _rules_events(r, lambda: hand.act(action.kind, a))

    return commit


@_in_hand
def _draw(st: SessionState, r: HandRecord, e: Entry) -> Commit:
    """A draw game's draw: the rules' draw of these positions, each discard proved to be the
    drawer's own card re-encrypted to the table key (SPEC 5.14)."""
    body = _body(e, k.Draw)
    return _discard(st, r, e, tuple(body.cards))


@_in_hand
def _wash(st: SessionState, r: HandRecord, e: Entry) -> Commit:
    """A wash (SPEC 3.17): face-down cards discarded as a draw's, each with its proof, and
    face-up cards (public already) named by their places among the author's face-up cards;
    the rules say how many the wash allows."""
    body = _body(e, k.Wash)
    return _discard(st, r, e, tuple(body.cards), tuple(body.up))


@_in_hand
def _cloak(st: SessionState, r: HandRecord, e: Entry) -> Commit:
    """A cloak (SPEC 3.17): a face-up card (public already) named by its place among the
    author's face-up cards, washed to be replaced face down; the rules say whether the wash
    offers it."""
    body = _body(e, k.Cloak)
    return _discard(st, r, e, (), tuple(body.up))


@_in_hand
def _flip(st: SessionState, r: HandRecord, e: Entry) -> Commit:
    """A flip (SPEC 3.17): the face-down card at a position of the author's public hand opened
    as a show opens it (5.16, context step `show/N`, N the wash's step in the script), so that
    every peer learns the card and that it is the author's own; and a face-up card (public
    already) named by its place among the author's face-up cards, washed to be replaced face
    down. The rules say whether the wash offers the flip."""
    body, a = _body(e, k.Flip), e.author
    hand = r.rules
    down = hand.hand_size(a) - len(hand.showing(a))
    position = body.down.position
    named = (position, down + body.up)
    _rules(lambda: hand.verify(ActionKind.FLIP, a, named))
    held = r.public.get(a, ())
    show = _read(
        lambda: live_deck.Show(
            (position,),
            (r.made.point(body.down.share, "down.share"),),
            r.made.decode(DleqBatchProof, DleqBatchProof.from_hex, body.proof, "proof"),
        )
    )
    number = hand.state.step  # the wash's step in the script: a show of its own
    key = r.keys[a]
    # every peer opens the card, its own flip included: the rules need it
    (card,) = _mental(lambda: live_deck.check_show(r.ctx, a, number, key, held, show))
    flip = Flip(named[0], named[1], card)
    _rules(lambda: hand.verify(ActionKind.FLIP, a, flip))
    mine = r.held if a == st.seat else None

    def commit() -> list[SessionEvent]:
        _done(st, e)
        # the card is face up now: it leaves the public hand, whose cards are the face-down ones
        r.public[a] = held[:position] + held[position + 1 :]
        r.proofs["dleq-batch"] += 1
        if mine is not None:
            r.held = live_deck.discard_hand(mine, (position,))
        return _rules_events(r, lambda: hand.act(ActionKind.FLIP, a, flip))

    return commit


def _discard(
    st: SessionState,
    r: HandRecord,
    e: Entry,
    cards: tuple[k.TradedCard, ...],
    up: tuple[int, ...] = (),
) -> Commit:
    """The rules' draw (or wash) of these face-down positions and face-up cards `up`, each
    face-down discard proved to be the author's own card re-encrypted to the table key."""
    a = e.author
    action = BY_ENTRY[e.kind]
    hand = r.rules
    positions = tuple(c.position for c in cards)
    down = hand.hand_size(a) - len(hand.showing(a))
    named = positions + tuple(down + x for x in up)
    _rules(lambda: hand.verify(action.kind, a, named))
    deck = _deck(r)
    held = r.public.get(a, ())
    kept, after = held, deck
    if positions:
        give = _read(
            lambda: TradeGive(
                positions,
                r.made.ciphertexts([c.card for c in cards], "cards"),
                tuple(
                    r.made.decode(
                        ReencryptionProof, ReencryptionProof.from_hex, c.proof, f"cards[{i}].proof"
                    )
                    for i, c in enumerate(cards)
                ),
            )
        )
        number = hand.state.step  # the draw's step in the script names its discards
        kept, after = _mental(
            lambda: live_deck.check_discard(r.ctx, a, number, deck, held, len(positions), give)
        )
    mine = r.held if a == st.seat else None

    def commit() -> list[SessionEvent]:
        _done(st, e)
        r.public[a] = kept
        r.live = after
        if positions:
            r.proofs["discard"] += len(positions)
        if mine is not None and positions:
            r.held = live_deck.discard_hand(mine, positions)
        return _rules_events(r, lambda: hand.act(action.kind, a, named))

    return commit


@_in_hand
def _declare(st: SessionState, r: HandRecord, e: Entry) -> Commit:
    """A split-pot game's sealed declaration: a commitment, nothing the others can read (SPEC
    3.16, 6.13)."""
    body, a = _body(e, k.Declare), e.author
    hand = r.rules
    _rules(lambda: hand.verify(ActionKind.DECLARE, a))
    digest = bytes.fromhex(body.commitment)

    def commit() -> list[SessionEvent]:
        _done(st, e)
        r.seals[a] = digest
        return _rules_events(r, lambda: hand.act(ActionKind.DECLARE, a))

    return commit


@_in_hand
def _declare_open(st: SessionState, r: HandRecord, e: Entry) -> Commit:
    """A sealed declaration opened: it opens the author's own commitment (SPEC 6.13), once
    every player still in has sealed (3.16)."""
    body, a = _body(e, k.DeclareOpen), e.author
    _require(refusal(r, Step.OPEN, a))
    hand = r.rules
    _rules(lambda: hand.verify(ActionKind.OPEN_DECLARATION, a, body.choice))
    nonce = bytes.fromhex(body.nonce)
    try:
        check_opening(r.seals[a], r.ctx.game_id, r.ctx.hand, a, DECLARE, body.choice, nonce)
    except CommitmentError as exc:
        raise Rejected(ILLEGAL, f"seat {a}'s declaration: {exc.reason}") from None

    def commit() -> list[SessionEvent]:
        return _rules_events(r, lambda: hand.act(ActionKind.OPEN_DECLARATION, a, body.choice))

    return commit


# --- entries that are nothing but a player's action (the action table's plain rows) ------------


def argument_of(action: Action, body: Body, r: HandRecord) -> object:
    """The rules argument a plain entry's body gives its action."""
    match action.needs:
        case Needs.NOTHING:
            return None
        case Needs.OPEN_OFFER:
            offer = getattr(body, _one(action))
            if r.offer_seq is None or offer != r.offer_seq:
                raise Rejected(ILLEGAL, f"offer {offer} is not the open offer")
            return None
        case Needs.ANNOUNCEMENT:
            return announcement_of(body)
        case _:
            return getattr(body, _one(action))


def announcement_of(body: Body) -> Announcement:
    """The announcement an `announce_game` entry carries, or a legacy `announce` (Weeping
    Willow's, SPEC 3.13); Rejected if this peer does not play that game by that description,
    or the options are not the game's."""
    options: Mapping[str, object]
    if isinstance(body, k.Announce):
        options = {
            "deal_size": body.deal_size,
            "trading_mode": body.trading_mode,
            "closing": body.closing,
            "orbits": body.orbits,
            **ww.BEFORE_PARTNER,
        }
        game = ww.WEEPING_WILLOW
    else:
        assert isinstance(body, k.AnnounceGame)
        found = CATALOGUE.get(body.game)
        if found is None:
            raise Rejected(Reason.BAD_FIELD, f"this peer does not know the game {body.game!r}")
        former = FORMER.get(body.description)
        if former is not None and former[0] is found:
            # an earlier description of the game: the options it gained, as they played before
            gained = former[1]
            if any(name in body.options for name in gained):
                raise Rejected(
                    ILLEGAL,
                    f"{found.title}'s earlier description has no option "
                    f"{', '.join(sorted(n for n in gained if n in body.options))}",
                )
            options = {**body.options, **gained}
        elif spec_hash(found) != body.description:
            raise Rejected(
                Reason.BAD_FIELD,
                f"this peer plays another description of {found.title} "
                f"({spec_hash(found)[:16]}…, the announcement pins {body.description[:16]}…)",
            )
        else:
            options = body.options
        game = found
    try:
        return Announcement(game, tuple(options.items()))  # type: ignore[arg-type]
    except ConfigError as exc:
        raise Rejected(ILLEGAL, str(exc)) from None


def _one(action: Action) -> str:
    assert action.body is not None and len(action.body) == 1, action
    return action.body[0]


def body_of(action: Action, argument: object, open_offer: int | None) -> Body:
    """The body of the plain entry that carries `action` with `argument` (the inverse of
    `_argument`); `open_offer` is the seq of the offer entry now open."""
    fields: Mapping[str, object]
    match action.needs:
        case Needs.NOTHING:
            fields = {}
        case Needs.OPEN_OFFER:
            fields = {_one(action): open_offer}
        case Needs.ANNOUNCEMENT:
            assert isinstance(argument, Announcement)
            return k.AnnounceGame(
                game=argument.game.name,
                description=spec_hash(argument.game),
                options=argument.options,
            )
        case _:
            fields = {_one(action): argument}
    make = cast(Callable[..., Body], k.KINDS[action.entry])
    return make(**fields)


def _bound(e: Entry) -> None:
    """SPEC 7.1: a decision that binds the head was made at the head it comes right after."""
    if e.seen != e.prev:
        raise Rejected(ILLEGAL, "decided at another head: decide again at the head")


@_in_hand
def _decision(st: SessionState, r: HandRecord, e: Entry) -> Commit:
    action, body, a = BY_ENTRY[e.kind], e.body, e.author
    if Phase.TRADING in action.phases:
        # SPEC 7.3: trading waits while a trade is being completed or a shuffle is owed
        _require(refusal(r, Step.DECISION, a))
    argument = argument_of(action, body, r)
    hand = r.rules
    _rules(lambda: hand.verify(action.kind, a, argument))
    if action.binds:
        _bound(e)  # after the rules, whose reason says more when both refuse it

    def commit() -> list[SessionEvent]:
        _done(st, e)
        events = _rules_events(r, lambda: hand.act(action.kind, a, argument))
        _after_rules(r, e)
        return events

    return commit


def _after_rules(r: HandRecord, e: Entry) -> None:
    """The session's own record of a rules action: the deal plan once announced, the open
    offer by its entry's seq, the trade an accept opens (SPEC 6.6)."""
    hand = r.rules
    if isinstance(e.body, k.Announce | k.AnnounceGame):
        a = hand.announcement
        assert a is not None
        if not deals_live(a.game):  # a live-deck game deals step by step (SPEC 5.12)
            r.plan = mental.deal_plan(r.order, r.dealer, a.cards_each)
    elif e.kind == "offer":
        r.offer_seq = e.seq
    sides = ww.trade_sides(hand)
    if sides is not None and r.trade is None:
        # SPEC 7.3: the entry that agrees the trade (the first accept, or the offerer's choice
        # of a partner) gives the trade its id
        r.trade = OpenTrade(e.seq, sides[0], sides[1], sides[2])
        r.offer_seq = None
    elif ww.open_offer(hand) is None:
        r.offer_seq = None


# --- the witnessed clock, the sequencer and the end of the hand (SPEC 7.5) --------------------


def _votes(st: SessionState, e: Entry, records: Sequence[k.VoteRecord]) -> list[Vote]:
    try:
        return witness.checked_votes(st, e, records)
    except witness.BadVote as exc:
        raise Rejected(exc.reason, exc.detail) from None


def _witnessed(st: SessionState, votes: list[Vote], seat: int) -> None:
    if not witness.has_quorum(st, votes, seat):
        need = witness.quorum(witness.voters(st), seat)
        raise Rejected(ILLEGAL, f"seat {seat} is not accused by {need} votes of other players")


_TIMED_OUT = (Stall.FOLD, Stall.TIMEOUT, Stall.SIT_OUT)


def _timeout(st: SessionState, e: Entry) -> Commit:
    """The hand's sequencer times `seats` out on the votes of a quorum (SPEC 7.5): each by what
    it owes at the head: a decision with a default takes it (3.9); a protocol step after the
    deal folds it for stalling (3.9); a head signature counts as given and the next hand's
    start passes on, the seat sitting out (3.11)."""
    body = _body(e, k.Timeout)
    r = st.hand
    if r is None or st.ledger.hand == 0:
        raise Rejected(ILLEGAL, "no hand has started")
    if e.author != st.ledger.sequencer:
        raise Rejected(ILLEGAL, "only the hand's sequencer times a player out")
    votes = _votes(st, e, body.votes)
    owed = witness.owed(st)
    plan: list[tuple[int, Stall]] = []
    for seat in body.seats:
        _witnessed(st, votes, seat)
        acts = [a for a in _TIMED_OUT if a in owed.get(seat, set())]
        if not acts:
            raise Rejected(ILLEGAL, f"seat {seat} owes no step the clock acts on")
        if seat == e.author and acts[0] is not Stall.TIMEOUT:
            # it may take its own default; for anything else it is replaced
            raise Rejected(ILLEGAL, "the sequencer is not timed out for that: it is replaced")
        plan.append((seat, acts[0]))
    if not r.ended:
        for seat, act in plan:
            kind = ActionKind.STALL if act is Stall.FOLD else ActionKind.TIMEOUT
            _rules(lambda: r.rules.verify(kind, seat))  # noqa: B023 - called at once

    def commit() -> list[SessionEvent]:
        events: list[SessionEvent] = []
        for seat, act in plan:
            if seat == st.seat:
                st.decision_pending = False
            if act is Stall.SIT_OUT:
                _sit_out_between(st, r, seat)
                continue
            kind = ActionKind.STALL if act is Stall.FOLD else ActionKind.TIMEOUT
            if r.ended or not r.rules.can(kind, seat):
                continue  # an earlier seat of this timeout ended the hand, or moved its turn
            events += _rules_events(r, lambda: r.rules.act(kind, seat))  # noqa: B023
            if kind is ActionKind.STALL:
                _after_stall(r, seat)
            _after_rules(r, e)
        return events

    return commit


def _sit_out_between(st: SessionState, r: HandRecord, seat: int) -> None:
    """A seat timed out outside a running hand (SPEC 7.5): its signature of the game's end is
    excused; or its head signature counts as given and it sits out; or, between hands, the next
    hand's start passes to the next playing seat and it sits out (SPEC 3.11)."""
    if st.ended is not None:
        st.ended.excused.add(seat)
    elif not r.closed:
        r.excused.add(seat)
        st.game.sit_out(seat, SitOutReason.MISSED_HEAD_SIGNATURE)
        if r.closed:
            st.summaries[-1] = r.summary()
    else:
        st.game.sit_out(seat, SitOutReason.MISSED_HAND_START)


def _after_stall(r: HandRecord, seat: int) -> None:
    """The protocol's record once `seat` is folded for stalling (SPEC 3.9, 5.7): it owes no hand
    shuffle any more, and a trade it was a side of is undone (no give is applied)."""
    r.owed_shuffles.pop(seat, None)
    t = r.trade
    if t is not None and seat in (t.offerer, t.acceptor):
        r.trade = None
        r.offer_seq = None


@_in_hand
def _abort(st: SessionState, r: HandRecord, e: Entry) -> Commit:
    """Before the deal is complete (SPEC 3.10, 7.5): every blamed seat was replaced as the
    hand's sequencer, or owes a protocol step and is accused by a quorum."""
    body = _body(e, k.Abort)
    if e.author != r.sequencer:
        raise Rejected(ILLEGAL, "only the hand's sequencer aborts it")
    blamed = tuple(body.blamed)
    missing = [s for s in r.replaced if s not in blamed]
    if missing:
        raise Rejected(ILLEGAL, f"the abort blames the replaced sequencer(s) {missing}")
    votes = _votes(st, e, body.votes)
    owed = witness.owed(st)
    for seat in blamed:
        if seat in r.replaced:
            continue
        if Stall.ABORT not in owed.get(seat, set()):
            raise Rejected(ILLEGAL, f"seat {seat} owes no protocol step before the deal")
        _witnessed(st, votes, seat)
    blame = (blamed, body.reason)
    _rules(lambda: r.rules.verify(ActionKind.ABORT, r.sequencer, blame))
    return lambda: _close(
        st, r, e, lambda: r.rules.act(ActionKind.ABORT, r.sequencer, blame), blamed
    )


def _sequencer_change(st: SessionState, e: Entry) -> Commit:
    """SPEC 6.6, 7.5: sequencing moves to the author on the votes of a quorum against each seat
    it replaces (the ledger has checked who they are). Each replaced seat, after the deal, is
    folded for stalling; before it, the hand is aborted blaming them (the new sequencer owes
    the abort); outside a running hand, they sit out."""
    body = _body(e, k.SequencerChange)
    r = st.hand
    if r is None:
        raise Rejected(ILLEGAL, "no hand has started")
    votes = _votes(st, e, body.votes)
    replaced = tuple(body.replaced)
    for seat in replaced:
        _witnessed(st, votes, seat)
    return lambda: _replace(st, r, replaced, e.author)


def _equivocation(st: SessionState, e: Entry) -> Commit:
    """SPEC 6.8: the seat that takes over from an equivocating sequencer proves it (the ledger
    has checked the proof); the equivocator is replaced as a silent sequencer is (7.5)."""
    body = _body(e, k.Equivocation)
    r = st.hand
    if r is None:
        raise Rejected(ILLEGAL, "no hand has started")
    if e.author != st.ledger.successor(body.sequencer):
        raise Rejected(ILLEGAL, f"seat {st.ledger.successor(body.sequencer)} proves it")
    return lambda: _replace(st, r, (body.sequencer,), e.author)


def _replace(
    st: SessionState, r: HandRecord, replaced: Sequence[int], by: int
) -> list[SessionEvent]:
    """The effect of replacing `replaced` by `by` as the hand's sequencer (SPEC 7.5)."""
    if by == st.seat and (r.ended or r.dealt):
        # what this seat sent the replaced seat is stale now (the change has a higher counter):
        # its automatic steps are made again, with new counters, and it places them itself
        # (before the deal there is none to make: it owes the abort that voids the hand)
        st.pending.clear()
    r.sequencer = by
    r.replaced += [s for s in replaced if s not in r.replaced]
    events: list[SessionEvent] = []
    if r.ended:
        for seat in replaced:
            if r.closed and seat in {p.seat for p in st.game.players}:
                st.game.sit_out(seat, SitOutReason.REPLACED_SEQUENCER)
        return events
    hand = r.rules
    for seat in replaced:
        if seat == st.seat:
            st.decision_pending = False
        if r.dealt and hand.can_stall(seat):
            events += _rules_events(r, lambda: hand.stall(seat))  # noqa: B023
            _after_stall(r, seat)
    return events


@_in_hand
def _hand_end(st: SessionState, r: HandRecord, e: Entry) -> Commit:
    body = _body(e, k.HandEnd)
    _require(refusal(r, Step.HAND_END, e.author))
    result = r.rules.result
    assert result is not None
    expected = [(s, result.stack(s)) for s in sorted(result.seats)]
    got = [(p.seat, p.stack) for p in body.players]
    if got != expected:
        raise Rejected(ILLEGAL, f"the stacks after the hand are {expected}")
    return lambda: _close(st, r, e, lambda: None, ())


def _close(
    st: SessionState,
    r: HandRecord,
    e: Entry,
    action: Callable[[], object],
    blamed: tuple[int, ...],
) -> list[SessionEvent]:
    events = _rules_events(r, action)
    r.ended = True
    r.blamed = blamed
    if isinstance(e.body, k.Abort):
        r.abort_reason = e.body.reason
    st.game.end_hand()
    for seat in r.replaced:
        st.game.sit_out(seat, SitOutReason.REPLACED_SEQUENCER)
    st.game.check_chips()  # SPEC 3.11: the chips at the table and with those who left
    summary = r.summary()
    st.summaries.append(summary)
    return [*events, HandClosed(summary)]


def _game_end(st: SessionState, e: Entry) -> Commit:
    """SPEC 7.3: between hands, a seated player ends the game, naming every seated player's
    stack, a carried pot shared out (3.16); the chips must add up against the buy-ins (3.11).
    Every seated player then signs it."""
    body = _body(e, k.GameEnd)
    _between(st, "a game ends")
    _bound(e)
    expected = list(st.game.final_stacks())
    got = [(p.seat, p.stack) for p in body.players]
    if got != expected:
        raise Rejected(ILLEGAL, f"the seated players' stacks are {expected}")
    try:
        st.game.check_chips()
    except RulesError as exc:
        raise Rejected(ILLEGAL, str(exc)) from None
    signers = tuple(sorted(st.ledger.identities))

    def commit() -> list[SessionEvent]:
        st.ended = GameEnded(signers, e.author)
        return []

    return commit


def _head_signature(st: SessionState, e: Entry) -> Commit:
    ended = st.ended
    if ended is not None:
        if e.author in ended.signed | ended.excused:
            raise Rejected(ILLEGAL, f"seat {e.author} has signed the game's end or was excused")

        def sign() -> list[SessionEvent]:
            ended.signed.add(e.author)
            return []

        return sign
    r = st.hand
    if r is None:
        raise Rejected(ILLEGAL, "no ended hand to sign")
    _require(refusal(r, Step.HEAD_SIGNATURE, e.author))

    def commit() -> list[SessionEvent]:
        r.signed.add(e.author)
        if r.closed:
            st.summaries[-1] = r.summary()
        return []

    return commit


# --- claims refused as false (SPEC 7.9) ----------------------------------------------------------


def _claim_summary(st: SessionState, e: Entry, claim: Entry) -> ClaimSummary:
    """The refused `claim` an entry carries, its votes checked (they are what makes it a claim
    of their signers); the entry's author must not be one of them."""
    votes = _votes(st, claim, claims.votes_in(claim))
    seats = claims.claimed(claim)
    signers = claims.signers(claim, votes, seats)
    if e.author in signers:
        raise Rejected(ILLEGAL, "the claim's signer cannot refuse it")
    if e.author not in witness.voters(st):
        raise Rejected(ILLEGAL, f"seat {e.author} has no say on the claim")
    return ClaimSummary(claim.kind, seats, signers)


def _false_claim(st: SessionState, e: Entry) -> Commit:
    """A player records a remedy it refused (the ledger has checked that it is one the chain
    left out, signed for a place in this hand); each claim once."""
    body = _body(e, k.FalseClaim)
    r = st.hand
    if r is None:
        raise Rejected(ILLEGAL, "no hand has started")
    if body.claim.hash in r.false_claims:
        raise Rejected(ILLEGAL, "this claim is recorded already")
    summary = _claim_summary(st, e, body.claim)

    def commit() -> list[SessionEvent]:
        r.false_claims[body.claim.hash] = summary
        if r.closed:
            st.summaries[-1] = r.summary()
        return []

    return commit


def _table_stop(st: SessionState, e: Entry) -> Commit:
    """The author refused the claim whose place it takes and no quorum is left without the
    claim's signers: the running hand is void (its stacks as at its start) and the table
    stops; nothing follows (the ledger sees to that)."""
    body = _body(e, k.TableStop)
    r = st.hand
    if r is None:
        raise Rejected(ILLEGAL, "no hand has started")
    summary = _claim_summary(st, e, body.claim)
    signers = summary.signers
    if not r.ended:
        _rules(lambda: r.rules.verify(ActionKind.VOID, e.author, signers))

    def commit() -> list[SessionEvent]:
        r.false_claims[body.claim.hash] = summary
        r.stopped = signers
        st.ended = GameEnded(())
        if not r.ended:
            return _close(st, r, e, lambda: r.rules.act(ActionKind.VOID, e.author, signers), ())
        if st.summaries and st.summaries[-1].number == r.number:
            st.summaries[-1] = r.summary()
        return []

    return commit


CHECKS: Mapping[str, Check] = {
    k.SeatAcceptance.KIND: _seat,
    k.Join.KIND: _join,
    k.Admit.KIND: _admit,
    k.Refuse.KIND: _refuse,
    k.Leave.KIND: _leave,
    k.SitIn.KIND: _sit_in,
    k.HandStart.KIND: _hand_start,
    k.HandKey.KIND: _hand_key,
    k.DeckShuffle.KIND: _deck_shuffle,
    k.DealShares.KIND: _deal_shares,
    k.TradeGive.KIND: _trade_give,
    k.HandShuffle.KIND: _hand_shuffle,
    k.Reveal.KIND: _reveal,
    k.StreetShares.KIND: _street_shares,
    k.Show.KIND: _show,
    k.FoldRelease.KIND: _fold_release,
    k.Draw.KIND: _draw,
    k.Wash.KIND: _wash,
    k.Cloak.KIND: _cloak,
    k.Flip.KIND: _flip,
    k.Declare.KIND: _declare,
    k.DeclareOpen.KIND: _declare_open,
    k.PotMatch.KIND: _pot_match,
    k.Timeout.KIND: _timeout,
    k.Abort.KIND: _abort,
    k.SequencerChange.KIND: _sequencer_change,
    k.Equivocation.KIND: _equivocation,
    k.FalseClaim.KIND: _false_claim,
    k.TableStop.KIND: _table_stop,
    k.HandEnd.KIND: _hand_end,
    k.GameEnd.KIND: _game_end,
    k.HeadSignature.KIND: _head_signature,
    **{
        entry: _decision
        for entry, a in BY_ENTRY.items()
        if a.body is not None or a.needs is Needs.ANNOUNCEMENT
    },
}
"""The check of every entry kind a session accepts (SPEC 7.2): the plain entries of the action
table through one check, every other kind through its own; `genesis` starts a session."""

ADDED_CHECKS: dict[str, Check] = {}
"""The checks of the kinds a module beside this one declares, registered as it is imported:
the clock's (`timekeeping`, SPEC 3.14)."""
