"""The local player's own entries: the automatic steps the schedule names for its seat and the
bodies that carry its decisions (SPEC 7.3). Pure, no I/O; randomness is the session's rng.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from p2pwillow import mental
from p2pwillow.crypto.group import Rng
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.commitment import DECLARE, commitment, nonce_from
from p2pwillow.ledger.fields import Body
from p2pwillow.mental import DealShares
from p2pwillow.mental import deck as live_deck
from p2pwillow.mental import encoding as wire
from p2pwillow.rules import ActionKind, Decision, IllegalAction, Needs
from p2pwillow.session.checks import body_of
from p2pwillow.session.record import HandRecord
from p2pwillow.session.schedule import Due, Maker, Step
from p2pwillow.session.state import SessionState

# --- the automatic steps -----------------------------------------------------------------------


def due_step(st: SessionState) -> Due | None:
    """The first step the schedule names for the local seat that its session makes by itself
    and has not sent yet (SPEC 7.3), or None."""
    me = st.seat
    for due in st.dues(Maker.SESSION):
        if due.seat == me and due not in st.pending and not reading(st, due):
            return due
    return None


def reading(st: SessionState, due: Due | None = None) -> bool:
    """The local seat holds its head signature of the hand that ended (`due`, if given, is
    that signature) because its player has not seen the hand's result yet (SPEC 8.9)."""
    r = st.hand
    if not st.holds_results or r is None or not r.ended or st.ended is not None:
        return False
    if due is not None and due.step is not Step.HEAD_SIGNATURE:
        return False
    if st.seat not in r.order or st.seat in r.signed | r.excused:
        return False
    return st.results_seen < r.number


def make_step(st: SessionState, due: Due, rng: Rng) -> Body:
    """The body of the automatic step `due` of the local seat."""
    if due.step is Step.SEAT:
        return k.SeatAcceptance(genesis=st.ledger.hash_of(0).hex())
    r = st.hand
    assert r is not None and st.seat == due.seat
    return MAKERS[due.step](st, r, due, rng)


def _head_signature(st: SessionState, r: HandRecord, due: Due, rng: Rng) -> Body:
    head = st.ledger.hand_ended_by
    assert head is not None
    return k.HeadSignature(head=head.hex())


def _hand_key(st: SessionState, r: HandRecord, due: Due, rng: Rng) -> Body:
    # a restored session that already holds this hand's x makes its key again with it, so
    # that whichever of the two keys is sequenced, the secret opens the cards (SPEC 7.7)
    secret, key = mental.make_hand_key(r.ctx, due.seat, rng, r.secret)
    r.secret = secret
    texts = wire.hand_key_texts(key, r.made)
    return k.HandKey(key=texts.key, proof=texts.proof)


def _deck_shuffle(st: SessionState, r: HandRecord, due: Due, rng: Rng) -> Body:
    assert r.joint is not None
    step = mental.make_deck_shuffle(r.ctx, due.seat, r.joint, r.deck, rng)
    texts = wire.shuffle_texts(step, r.made)
    return k.DeckShuffle(deck=texts.cards, proof=texts.proof)


def _deal_shares(st: SessionState, r: HandRecord, due: Due, rng: Rng) -> Body:
    me = due.seat
    assert r.plan is not None and r.secret is not None
    made = mental.make_deal_shares(r.ctx, me, r.secret, r.plan, r.deck, rng)
    texts = wire.shares_texts(r.plan.shared_positions(me), made, r.made)
    return k.DealShares(
        shares=[k.DealShare(position=p, share=share) for p, share in texts.shares],
        proof=texts.proof,
    )


def _hand_shuffle(st: SessionState, r: HandRecord, due: Due, rng: Rng) -> Body:
    trade = due.index
    assert r.secret is not None and r.held is not None
    step, after = mental.make_hand_shuffle(r.ctx, due.seat, trade, r.secret, r.held, rng)
    r.after_shuffle[trade] = after
    texts = wire.shuffle_texts(step, r.made)
    return k.HandShuffle(purpose="trade", trade=trade, cards=texts.cards, proof=texts.proof)


def _reveal(st: SessionState, r: HandRecord, due: Due, rng: Rng) -> Body:
    assert r.secret is not None
    made = mental.make_reveal(r.ctx, due.seat, r.secret, r.layouts[due.seat], due.index, rng)
    texts = wire.reveal_texts(made, r.made)
    return k.Reveal(card=due.index, share=texts.share, proof=texts.proof)


def _street(st: SessionState, r: HandRecord, due: Due, rng: Rng) -> Body:
    deck = r.live
    assert deck is not None and deck.dealing is not None and r.secret is not None
    made = live_deck.make_street_shares(r.ctx, due.seat, r.secret, deck, rng)
    assert made is not None, "the schedule names only holders that owe shares"
    texts = wire.shares_texts(deck.dealing.shared_positions(due.seat), made, r.made)
    return k.StreetShares(
        step=deck.dealing.number,
        shares=[k.DealShare(position=p, share=share) for p, share in texts.shares],
        proof=texts.proof,
    )


def _show(st: SessionState, r: HandRecord, due: Due, rng: Rng) -> Body:
    assert r.secret is not None
    held = r.public[due.seat]
    show = live_deck.make_show(r.ctx, due.seat, 0, r.secret, held, range(len(held)), rng)
    texts = wire.shares_texts(show.positions, DealShares(show.shares, show.proof), r.made)
    return k.Show(
        cards=[k.ShownCard(position=p, share=share) for p, share in texts.shares],
        proof=texts.proof,
    )


def _seal_nonce(r: HandRecord, me: int) -> bytes:
    """The nonce of the local player's declaration, from its hand secret: found again after a
    restart, so that a sealed declaration always opens (SPEC 6.13)."""
    assert r.secret is not None
    return nonce_from(r.secret.to_bytes(32, "big"), r.ctx.game_id, r.ctx.hand, me, DECLARE)


def _open(st: SessionState, r: HandRecord, due: Due, rng: Rng) -> Body:
    """Open the local player's sealed declaration: the one choice its commitment holds."""
    nonce = _seal_nonce(r, due.seat)
    sealed = r.seals[due.seat]
    for choice in k.DECLARATIONS:
        if commitment(r.ctx.game_id, r.ctx.hand, due.seat, DECLARE, choice, nonce) == sealed:
            return k.DeclareOpen(choice=choice, nonce=nonce.hex())
    raise IllegalAction("this seat's sealed declaration was not made with its hand secret")


def _abort(st: SessionState, r: HandRecord, due: Due, rng: Rng) -> Body:
    seats = ", ".join(map(str, r.replaced))
    return k.Abort(
        blamed=sorted(r.replaced),
        reason=f"the clock of seat(s) {seats} ran out before the deal, as sequencer",
        votes=[],
    )


def _hand_end(st: SessionState, r: HandRecord, due: Due, rng: Rng) -> Body:
    result = r.rules.result
    assert result is not None
    return k.HandEnd(
        players=[k.SeatStack(seat=s, stack=result.stack(s)) for s in sorted(result.seats)]
    )


Make = Callable[[SessionState, HandRecord, Due, Rng], Body]

MAKERS: Mapping[Step, Make] = {
    Step.HAND_KEY: _hand_key,
    Step.DECK_SHUFFLE: _deck_shuffle,
    Step.DEAL_SHARES: _deal_shares,
    Step.HAND_SHUFFLE: _hand_shuffle,
    Step.REVEAL: _reveal,
    Step.DEAL_STREET: _street,
    Step.STREET: _street,
    Step.SHOW: _show,
    Step.OPEN: _open,
    Step.ABORT: _abort,
    Step.HAND_END: _hand_end,
    Step.HEAD_SIGNATURE: _head_signature,
    Step.GAME_SIGNATURE: _head_signature,
}
"""How the local seat makes each automatic step of a hand (`SEAT` is made before any hand)."""


# --- the player's decisions --------------------------------------------------------------------


def decision_body(st: SessionState, r: HandRecord, d: Decision, rng: Rng) -> Body:
    """The body of the entry that carries the local player's decision `d`, checked against the
    rules now; IllegalAction (nothing made) if they refuse it."""
    me = st.seat
    assert me is not None
    action = r.rules.row(d.kind)
    if not action.decided:
        raise IllegalAction(f"{d.kind.value.replace('-', ' ')} is not a player's decision")
    if d.kind is ActionKind.CHOOSE_TRADE_CARDS:
        return _trade_give(r, me, d.positions, rng)
    if d.kind is ActionKind.LAY_OUT:
        return _layout(r, me, d.positions, rng)
    if action.entry == k.FoldRelease.KIND:
        return _fold_release(r, me, rng)
    if action.entry == k.Wash.KIND:
        return _wash(r, me, d.positions, rng)
    if d.kind is ActionKind.CLOAK:
        return _cloak(r, me, d.positions)
    if d.kind is ActionKind.FLIP:
        return _flip(r, me, d.positions, rng)
    if d.kind is ActionKind.DRAW:
        return _draw(r, me, d.positions, rng)
    if d.kind is ActionKind.DECLARE:
        return _declare(r, me, d.choice)
    if d.kind is ActionKind.EARLY_SHOW:
        # SPEC 3.18: the showdown's show, decided by the player after the declaration
        r.rules.verify(d.kind, me)
        return _show(st, r, Due(me, Step.SHOW), rng)
    if d.kind is ActionKind.POT_MATCH:
        return _pot_match(r, me, d.match)
    # every other decision is a plain entry, or the announcement
    assert action.body is not None or action.needs is Needs.ANNOUNCEMENT, action
    argument = action.argument(d)
    field = action.needs.decision_field
    if field is not None and argument is None:
        raise IllegalAction(f"a {d.kind.value.replace('-', ' ')} decision needs its {field}")
    r.rules.verify(d.kind, me, argument)
    return body_of(action, argument, r.offer_seq)


def _trade_give(r: HandRecord, me: int, positions: tuple[int, ...] | None, rng: Rng) -> Body:
    t = r.trade
    if positions is None or t is None:
        raise IllegalAction("no trade to give cards in, or no positions")
    ascending = tuple(sorted(positions))
    r.rules.verify(ActionKind.CHOOSE_TRADE_CARDS, me, ascending)
    assert r.secret is not None and r.held is not None
    other = t.other(me)
    give = mental.make_trade_give(
        r.ctx, me, t.trade, r.secret, r.held, ascending, r.keys[other], rng
    )
    return k.TradeGive(
        trade=t.trade,
        to=other,
        cards=[
            k.TradedCard(position=p, card=card, proof=proof)
            for p, card, proof in wire.trade_give_texts(give, r.made)
        ],
    )


def _fold_release(r: HandRecord, me: int, rng: Rng) -> Body:
    """A live-deck game's fold, with this player's release of the deck (SPEC 5.13)."""
    r.rules.verify(ActionKind.FOLD, me)
    assert r.live is not None and r.secret is not None
    release = live_deck.make_release(r.ctx, me, r.secret, r.live, rng)
    assert release.proof is not None, "a live-deck game never deals its whole deck"
    return k.FoldRelease(
        shares=[r.made.hex(p) for p in release.shares], proof=r.made.hex(release.proof)
    )


def _draw(r: HandRecord, me: int, positions: tuple[int, ...] | None, rng: Rng) -> Body:
    """A draw game's draw: the discards re-encrypted to the table key, each with its proof
    (SPEC 5.14)."""
    named = tuple(sorted(positions or ()))
    r.rules.verify(ActionKind.DRAW, me, named)
    return k.Draw(cards=_discards(r, me, named, rng))


def _wash(r: HandRecord, me: int, positions: tuple[int, ...] | None, rng: Rng) -> Body:
    """A wash (SPEC 3.17): face-down cards discarded as a draw's, face-up cards named by their
    places among this player's face-up cards."""
    named = tuple(sorted(positions or ()))
    r.rules.verify(ActionKind.DRAW, me, named)
    down = r.rules.hand_size(me) - len(r.rules.showing(me))
    hidden = tuple(x for x in named if x < down)
    return k.Wash(cards=_discards(r, me, hidden, rng), up=[x - down for x in named if x >= down])


def _cloak(r: HandRecord, me: int, positions: tuple[int, ...] | None) -> Body:
    """A cloak (SPEC 3.17): the face-up card, public already, by its place among this player's
    face-up cards; nothing to prove."""
    named = tuple(positions or ())
    r.rules.verify(ActionKind.CLOAK, me, named)
    down = r.rules.hand_size(me) - len(r.rules.showing(me))
    return k.Cloak(up=[named[0] - down])


def _flip(r: HandRecord, me: int, positions: tuple[int, ...] | None, rng: Rng) -> Body:
    """A flip (SPEC 3.17): the face-down card shown as at the showdown (5.16), its context step
    `show/N` with N the wash's step in the script, and the face-up card by its place among this
    player's face-up cards."""
    named = tuple(positions or ())
    r.rules.verify(ActionKind.FLIP, me, named)
    assert r.secret is not None
    held = r.public[me]
    number = r.rules.state.step
    show = live_deck.make_show(r.ctx, me, number, r.secret, held, named[:1], rng)
    texts = wire.shares_texts(show.positions, DealShares(show.shares, show.proof), r.made)
    ((position, share),) = texts.shares
    down = r.rules.hand_size(me) - len(r.rules.showing(me))
    return k.Flip(
        down=k.ShownCard(position=position, share=share), up=named[1] - down, proof=texts.proof
    )


def _discards(r: HandRecord, me: int, named: tuple[int, ...], rng: Rng) -> list[k.TradedCard]:
    if not named:
        return []
    assert r.live is not None and r.secret is not None and r.held is not None
    number = r.rules.state.step
    give = live_deck.make_discard(r.ctx, me, number, r.secret, r.held, named, r.live, rng)
    return [
        k.TradedCard(position=p, card=card, proof=proof)
        for p, card, proof in wire.trade_give_texts(give, r.made)
    ]


def _declare(r: HandRecord, me: int, choice: str | None) -> Body:
    """A split-pot game's declaration, sealed: only the commitment goes out (SPEC 6.13)."""
    r.rules.verify(ActionKind.DECLARE, me, choice)
    if choice is None:
        raise IllegalAction("a declaration decision needs its choice")
    nonce = _seal_nonce(r, me)
    digest = commitment(r.ctx.game_id, r.ctx.hand, me, DECLARE, choice, nonce)
    return k.Declare(commitment=digest.hex())


def _pot_match(r: HandRecord, me: int, match: bool | None) -> Body:
    """The answer when put to match the pot or fold, with the chips a match puts in (3.18)."""
    r.rules.verify(ActionKind.POT_MATCH, me, match)
    if match is None:
        raise IllegalAction("a pot match decision needs its match")
    amount = r.rules.match_amount(me) if match else 0
    return k.PotMatch(answer="match" if match else "fold", amount=amount)


def _layout(r: HandRecord, me: int, positions: tuple[int, ...] | None, rng: Rng) -> Body:
    r.rules.verify_lay_out(me)
    held = r.held
    if me in r.owed_shuffles or held is None:
        raise IllegalAction("the hand shuffle after the last trade comes first")
    r.rules.verify_lay_out(me, () if positions is None else positions)
    assert r.secret is not None and positions is not None
    cards = [held.cards[p] for p in positions]
    step, after = mental.make_layout(r.ctx, me, r.secret, held, cards, rng)
    r.after_shuffle[0] = after
    texts = wire.shuffle_texts(step, r.made)
    return k.HandShuffle(purpose="layout", trade=0, cards=texts.cards, proof=texts.proof)


__all__ = ["MAKERS", "decision_body", "due_step", "make_step", "reading"]
