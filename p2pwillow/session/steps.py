"""The local player's own steps: the automatic protocol steps due from its seat and the
entries that carry its decisions (SPEC 7.3). Pure, no I/O; randomness is the session's rng.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from p2pwillow import mental
from p2pwillow.crypto.group import Rng
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.chain import Ledger
from p2pwillow.ledger.fields import Body
from p2pwillow.mental import PlayerHand
from p2pwillow.mental import encoding as wire
from p2pwillow.mental.encoding import MadeValues
from p2pwillow.rules import ActionKind, Announcement, IllegalAction, Phase
from p2pwillow.session.record import HandRecord


class DecisionLike(Protocol):
    """A player's decision (the bots' `Decision` has this shape): exactly one rules action."""

    @property
    def kind(self) -> ActionKind: ...
    @property
    def amount(self) -> int | None: ...
    @property
    def k(self) -> int | None: ...
    @property
    def positions(self) -> tuple[int, ...] | None: ...
    @property
    def announcement(self) -> Announcement | None: ...


class LocalSteps:
    """What the local seat makes: the steps due from it and its decisions as entry bodies."""

    _seat: int | None
    _rng: Rng | None
    _ledger: Ledger
    _hand: HandRecord | None
    _pending: set[str]
    _after: dict[str, PlayerHand]
    _made: MadeValues

    def _due(self) -> tuple[str, Callable[[], Body]] | None:
        me = self._seat
        assert me is not None
        ledger = self._ledger
        if ledger.hand == 0:
            genesis = ledger.genesis
            assert genesis is not None
            key = "0/seat"
            named = me in {p.seat for p in genesis.players}
            if named and me not in ledger.seated and key not in self._pending:
                return key, lambda: k.SeatAcceptance(genesis=ledger.hash_of(0).hex())
            return None
        r = self._hand
        if r is None or me not in r.order:
            return None
        candidates = self._due_in_hand(r, me)
        for key, make in candidates:
            if key not in self._pending:
                return key, make
        return None

    def _due_in_hand(self, r: HandRecord, me: int) -> list[tuple[str, Callable[[], Body]]]:
        n = r.number
        hand = r.rules
        out: list[tuple[str, Callable[[], Body]]] = []
        if r.ended:
            head = self._ledger.hand_ended_by
            if me not in r.signed and head is not None:
                out.append((f"{n}/head", lambda: k.HeadSignature(head=head.hex())))
            return out
        if me not in r.keys:
            out.append((f"{n}/hand_key", lambda: self._make_hand_key(r, me)))
        if r.joint is not None and r.shuffled < len(r.order) and r.order[r.shuffled] == me:
            out.append((f"{n}/deck_shuffle", lambda: self._make_deck_shuffle(r, me)))
        if r.plan is not None and r.shuffled == len(r.order) and me not in r.shares:
            out.append((f"{n}/deal_shares", lambda: self._make_deal_shares(r, me)))
        if me in r.owed_shuffles:
            t = r.owed_shuffles[me]
            out.append((f"{n}/hand_shuffle/{t}", lambda: self._make_hand_shuffle(r, me, t)))
        if hand.phase is Phase.REVEAL and me in hand.to_act():
            rnd = hand.betting_round
            out.append((f"{n}/reveal/{rnd}", lambda: self._make_reveal(r, me, rnd - 1)))
        if hand.phase is Phase.COMPLETE and r.dealer == me:
            out.append((f"{n}/hand_end", lambda: self._make_hand_end(r)))
        return out

    def _random(self) -> Rng:
        assert self._rng is not None
        return self._rng

    def _make_hand_key(self, r: HandRecord, me: int) -> Body:
        secret, key = mental.make_hand_key(r.ctx, me, self._random())
        r.secret = secret
        texts = wire.hand_key_texts(key, self._made)
        return k.HandKey(key=texts.key, proof=texts.proof)

    def _make_deck_shuffle(self, r: HandRecord, me: int) -> Body:
        assert r.joint is not None
        step = mental.make_deck_shuffle(r.ctx, me, r.joint, r.deck, self._random())
        texts = wire.shuffle_texts(step, self._made)
        return k.DeckShuffle(deck=texts.cards, proof=texts.proof)

    def _make_deal_shares(self, r: HandRecord, me: int) -> Body:
        assert r.plan is not None and r.secret is not None
        made = mental.make_deal_shares(r.ctx, me, r.secret, r.plan, r.deck, self._random())
        texts = wire.shares_texts(r.plan.shared_positions(me), made, self._made)
        return k.DealShares(
            shares=[k.DealShare(position=p, share=share) for p, share in texts.shares],
            proof=texts.proof,
        )

    def _make_hand_shuffle(self, r: HandRecord, me: int, trade: int) -> Body:
        assert r.secret is not None and r.held is not None
        step, after = mental.make_hand_shuffle(r.ctx, me, trade, r.secret, r.held, self._random())
        self._after[f"{r.number}/hand_shuffle/{trade}"] = after
        texts = wire.shuffle_texts(step, self._made)
        return k.HandShuffle(purpose="trade", trade=trade, cards=texts.cards, proof=texts.proof)

    def _make_reveal(self, r: HandRecord, me: int, index: int) -> Body:
        assert r.secret is not None
        made = mental.make_reveal(r.ctx, me, r.secret, r.layouts[me], index, self._random())
        texts = wire.reveal_texts(made, self._made)
        return k.Reveal(card=index, share=texts.share, proof=texts.proof)

    def _make_hand_end(self, r: HandRecord) -> Body:
        result = r.rules.result
        assert result is not None
        return k.HandEnd(
            players=[k.SeatStack(seat=s, stack=result.stack(s)) for s in sorted(result.seats)]
        )

    def _decision_body(self, r: HandRecord, me: int, d: DecisionLike) -> Body:
        hand = r.rules
        kind = d.kind
        if kind is ActionKind.ANNOUNCE:
            a = d.announcement
            if a is None:
                raise IllegalAction("an announcement is needed")
            hand.verify_announce(me, a)
            return k.Announce(
                deal_size=a.deal_size,
                trading_mode=a.trading_mode.value,
                closing=a.closing.value,
                orbits=a.orbits or 0,
            )
        if kind is ActionKind.OFFER:
            if d.k is None:
                raise IllegalAction("an offer needs k")
            hand.verify_offer(me, d.k)
            return k.Offer(k=d.k)
        if kind in (ActionKind.ACCEPT, ActionKind.DECLINE, ActionKind.WITHDRAW):
            {
                ActionKind.ACCEPT: hand.verify_accept,
                ActionKind.DECLINE: hand.verify_decline,
                ActionKind.WITHDRAW: hand.verify_withdraw,
            }[kind](me)
            assert r.offer_seq is not None
            cls = {ActionKind.ACCEPT: k.Accept, ActionKind.DECLINE: k.Decline}.get(kind, k.Withdraw)
            return cls(offer=r.offer_seq)
        if kind is ActionKind.PASS:
            hand.verify_pass_turn(me)
            return k.Pass()
        if kind is ActionKind.CLOSE_TRADING:
            hand.verify_close_trading(me)
            return k.CloseTrading()
        if kind is ActionKind.CHOOSE_TRADE_CARDS:
            return self._make_trade_give(r, me, d.positions)
        if kind is ActionKind.LAY_OUT:
            return self._make_layout(r, me, d.positions)
        if kind is ActionKind.CHECK:
            hand.verify_check(me)
            return k.Check()
        if kind is ActionKind.CALL:
            hand.verify_call(me)
            return k.Call()
        if kind is ActionKind.FOLD:
            hand.verify_fold(me)
            return k.Fold()
        if kind is ActionKind.ALL_IN:
            hand.verify_all_in(me)
            return k.AllIn()
        if kind in (ActionKind.BET, ActionKind.RAISE):
            if d.amount is None:
                raise IllegalAction(f"a {kind.value} needs an amount")
            if kind is ActionKind.BET:
                hand.verify_bet(me, d.amount)
                return k.Bet(amount=d.amount)
            hand.verify_raise_to(me, d.amount)
            return k.Raise(to=d.amount)
        raise IllegalAction(f"{kind!r} is not a player's decision")

    def _make_trade_give(self, r: HandRecord, me: int, positions: tuple[int, ...] | None) -> Body:
        t = r.trade
        if positions is None or t is None:
            raise IllegalAction("no trade to give cards in, or no positions")
        ascending = tuple(sorted(positions))
        r.rules.verify_choose_trade_cards(me, ascending)
        assert r.secret is not None and r.held is not None
        other = t.other(me)
        give = mental.make_trade_give(
            r.ctx, me, t.trade, r.secret, r.held, ascending, r.keys[other], self._random()
        )
        return k.TradeGive(
            trade=t.trade,
            to=other,
            cards=[
                k.TradedCard(position=p, card=card, proof=proof)
                for p, card, proof in wire.trade_give_texts(give, self._made)
            ],
        )

    def _make_layout(self, r: HandRecord, me: int, positions: tuple[int, ...] | None) -> Body:
        r.rules.verify_lay_out(me)
        held = r.held
        if me in r.owed_shuffles or held is None:
            raise IllegalAction("the hand shuffle after the last trade comes first")
        size = len(held.cards)
        if (
            positions is None
            or len(positions) != mental.LAYOUT_SIZE
            or len(set(positions)) != mental.LAYOUT_SIZE
            or not all(isinstance(p, int) and 0 <= p < size for p in positions)
        ):
            raise IllegalAction(f"a layout is 5 distinct positions of 0..{size - 1}")
        assert r.secret is not None
        cards = [held.cards[p] for p in positions]
        step, after = mental.make_layout(r.ctx, me, r.secret, held, cards, self._random())
        self._after[f"{r.number}/layout"] = after
        texts = wire.shuffle_texts(step, self._made)
        return k.HandShuffle(purpose="layout", trade=0, cards=texts.cards, proof=texts.proof)
