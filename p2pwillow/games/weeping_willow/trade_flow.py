"""Weeping Willow's trading step: turns, offers, answers, choosing cards, tokens, closing, its
clock's defaults and a player folded for stalling while trading (SPEC 3.4, 3.5, 3.9); and the
rows of the action table it brings. Pure; no I/O.

Every check and step has the action table's shape (`actions.Check`, `actions.Step`):
(config, state, seat, argument); a check given None for the argument asks whether some
argument would do. The phase was checked before.
"""

# ruff: noqa: E501 - the table of rows is one row per line, wider than the code around it

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from p2pwillow.games.weeping_willow.trading import (
    OfferLapsed,
    OfferWithdrawn,
    Partner,
    PartnerChosen,
    Passed,
    Setup,
    Trade,
    TradeAccepted,
    TradeCardsChosen,
    TradeDeclined,
    TradeMade,
    TradeOffer,
    TradeOffered,
    TradingClose,
    TradingClosed,
    TradingMode,
    TradingState,
)
from p2pwillow.limits import is_int
from p2pwillow.rules import (
    Action,
    ActionKind,
    By,
    CardOp,
    ConfigError,
    Default,
    Event,
    FoldedForStalling,
    HandState,
    IllegalAction,
    Needs,
    OpDue,
    OptionValue,
    Phase,
    Step,
    TableConfig,
    advance,
    player,
    plural,
    stalled_to_one,
)
from p2pwillow.rules.actions import TRADING


def trading(s: HandState) -> TradingState:
    """The trading state of a Weeping Willow hand."""
    t = s.own
    assert isinstance(t, TradingState), t
    return t


# --- checks: raise IllegalAction with the reason, change nothing -----------------------------


def eligible(s: HandState) -> list[int]:
    """Seats that can still trade: one token left (SPEC 3.4)."""
    return [x for x in s.order if s.players[x].tokens >= 1]


def _trade_idle(s: HandState, what: str) -> TradingState:
    t = trading(s)
    if t.acceptor is not None:
        raise IllegalAction(f"cannot {what}: a trade is being completed")
    if t.offer is not None:
        raise IllegalAction(f"cannot {what}: an offer is open")
    return t


def verify_offer(config: TableConfig, s: HandState, seat: int, k: int | None) -> None:
    p = player(s, seat)
    t = _trade_idle(s, "offer")
    if t.mode is TradingMode.IN_TURN and seat != t.turn:
        raise IllegalAction(f"it is seat {t.turn}'s turn to offer, not seat {seat}'s")
    if p.tokens < 1:
        raise IllegalAction(f"seat {seat} has no trade token left")
    if k is None:
        return
    if not is_int(k) or not 1 <= k <= p.hand_size:
        raise IllegalAction(f"an offer is 1 to {p.hand_size} cards, not {k!r}")


def _verify_answer(s: HandState, seat: int, offer: TradeOffer | None, kind: ActionKind) -> None:
    """Accepting or declining the open offer (`kind` says which)."""
    player(s, seat)
    t = trading(s)
    if t.offer is None or t.acceptor is not None:
        raise IllegalAction(f"there is no open offer to {kind.value.replace('-', ' ')}")
    if offer is not None and offer != t.offer:
        raise IllegalAction(f"{offer} is not the open offer {t.offer}")
    if seat == t.offer.offerer:
        raise IllegalAction("a player cannot answer their own offer")
    if seat in t.accepted:
        raise IllegalAction(f"seat {seat} has accepted: the offerer chooses")
    if seat not in t.responders:
        raise IllegalAction(f"seat {seat} cannot answer this offer (no token, or answered)")
    if t.mode is TradingMode.IN_TURN and not t.chooses and seat != t.responders[0]:
        # first-accept: in turn, answers go clockwise from the offerer (SPEC 3.5)
        raise IllegalAction(f"seat {t.responders[0]} answers first")


def verify_accept(config: TableConfig, s: HandState, seat: int, offer: TradeOffer | None) -> None:
    """Accept the open offer (`offer`, if given, must be the open one)."""
    _verify_answer(s, seat, offer, ActionKind.ACCEPT)


def verify_decline(config: TableConfig, s: HandState, seat: int, offer: TradeOffer | None) -> None:
    _verify_answer(s, seat, offer, ActionKind.DECLINE)


def verify_withdraw(config: TableConfig, s: HandState, seat: int, _: object = None) -> None:
    player(s, seat)
    t = trading(s)
    if t.mode is not TradingMode.FREE and not t.chooses:
        raise IllegalAction("offers are withdrawn only in free trading")
    if t.offer is None or t.acceptor is not None:
        raise IllegalAction("there is no open offer to withdraw")
    if seat != t.offer.offerer:
        raise IllegalAction(f"only seat {t.offer.offerer} can withdraw its offer")


def verify_choose_partner(
    config: TableConfig, s: HandState, seat: int, partner: int | None
) -> None:
    """`offerer-chooses`: the offerer chooses its partner among the seats that accepted its
    open offer so far (SPEC 3.5)."""
    player(s, seat)
    t = trading(s)
    if not t.chooses:
        raise IllegalAction("the first to accept trades: there is no partner to choose")
    if t.offer is None or t.acceptor is not None:
        raise IllegalAction("there is no open offer to choose a partner for")
    if seat != t.offer.offerer:
        raise IllegalAction(f"only seat {t.offer.offerer} chooses a partner for its offer")
    if not t.accepted:
        raise IllegalAction("nobody has accepted the offer yet")
    if partner is None:
        return
    if not is_int(partner) or partner not in t.accepted:
        who = ", ".join(f"seat {x}" for x in t.accepted)
        raise IllegalAction(f"seat {partner!r} has not accepted the offer (accepted: {who})")


def verify_pass(config: TableConfig, s: HandState, seat: int, _: object = None) -> None:
    player(s, seat)
    t = _trade_idle(s, "pass")
    if t.mode is TradingMode.IN_TURN:
        if seat != t.turn:
            raise IllegalAction(f"it is seat {t.turn}'s turn, not seat {seat}'s")
        return
    if not t.chooses:
        raise IllegalAction("passing is for in-turn trading")
    # offerer-chooses, free trading: a seat says it makes no offer, once (SPEC 3.5)
    if seat not in eligible(s):
        raise IllegalAction(f"seat {seat} has no trade token left")
    if seat in t.had_chance:
        raise IllegalAction(f"seat {seat} has already offered or passed")


def waiting_for_chance(s: HandState) -> list[int]:
    """`offerer-chooses`: the eligible seats that have not had their chance to trade yet
    (neither offered nor passed), in table order (SPEC 3.5)."""
    t = trading(s)
    if not t.chooses:
        return []
    return [x for x in eligible(s) if x not in t.had_chance]


def verify_choose(
    config: TableConfig, s: HandState, seat: int, positions: Sequence[int] | None
) -> None:
    p = player(s, seat)
    t = trading(s)
    if t.offer is None or t.acceptor is None:
        raise IllegalAction("no trade has been agreed")
    if seat not in (t.offer.offerer, t.acceptor):
        raise IllegalAction(f"seat {seat} is not a side of this trade")
    if seat in t.chosen:
        raise IllegalAction(f"seat {seat} has already chosen its cards")
    if positions is None:
        return
    if isinstance(positions, str | bytes) or not isinstance(positions, Sequence):
        raise IllegalAction(f"positions must be a sequence of integers, not {positions!r}")
    k = t.offer.k
    if len(positions) != k:
        raise IllegalAction(f"choose exactly {k} positions, not {len(positions)}")
    for pos in positions:
        if not is_int(pos) or not 0 <= pos < p.hand_size:
            raise IllegalAction(f"position {pos!r} is not in 0..{p.hand_size - 1}")
    if len(set(positions)) != len(positions):
        raise IllegalAction("a position is named twice")


def closer(s: HandState) -> int:
    """Who calls the close under `dealer-calls`: the dealer, or once the dealer is folded for
    stalling, the first player still in clockwise from it (SPEC 3.5, 3.9)."""
    if not s.players[s.dealer].folded:
        return s.dealer
    return next(x for x in s.order if not s.players[x].folded)


_CLOSING_WORDS = {
    TradingClose.ORBIT_WITHOUT_TRADE: "after an orbit without a trade",
    TradingClose.ORBITS: "after a set number of orbits",
    TradingClose.DEALER_CALLS: "when the dealer calls it",
}


def verify_close(config: TableConfig, s: HandState, seat: int, _: object = None) -> None:
    player(s, seat)
    t = trading(s)
    if seat != closer(s):
        who = "the dealer" if closer(s) == s.dealer else "the first player in after the dealer"
        raise IllegalAction(f"only seat {closer(s)} ({who}) closes trading")
    if t.closing is not TradingClose.DEALER_CALLS:
        rule = _CLOSING_WORDS[t.closing]
        raise IllegalAction(f"trading closes by the announced rule ({rule}), not by the dealer")
    _trade_idle(s, "close trading")
    left = [x for x in waiting_for_chance(s) if x != seat]
    if left:
        # offerer-chooses: not before every seat has had its chance to offer (SPEC 3.5)
        # (a count beyond two: the reason fits one line of the screen)
        who = ", ".join(f"seat {x}" for x in left) if len(left) <= 2 else f"{len(left)} players"
        raise IllegalAction(f"cannot close trading yet: {who} may still offer or pass")


# --- steps: applied to a clone, return the events they caused (SPEC 3.3) ---------------------


def enter(config: TableConfig, s: HandState) -> list[Event]:
    """Trading opens after the deal (SPEC 3.5), unless fewer than two players can trade."""
    a = s.announcement
    assert a is not None
    setup = Setup.of(a)
    t = TradingState(setup.mode, setup.closing, setup.orbits, setup.partner)
    s.own = t
    able = eligible(s)
    if len(able) < 2:
        return do_close(config, s, None, "fewer than two players can trade")
    t.turn = able[0]
    return []


def _had_chance(t: TradingState, seat: int) -> None:
    if t.chooses and seat not in t.had_chance:
        t.had_chance.append(seat)


def do_offer(config: TableConfig, s: HandState, seat: int, k: int) -> list[Event]:
    t = trading(s)
    t.serial += 1
    t.offer = TradeOffer(seat, k, t.serial)
    _had_chance(t, seat)
    able = eligible(s)
    i = able.index(seat)
    # SPEC 3.5: answers go clockwise from the offerer.
    t.responders = [x for x in able[i + 1 :] + able[:i] if s.players[x].hand_size >= k]
    t.accepted = []
    return [TradeOffered(t.offer)]


def do_accept(config: TableConfig, s: HandState, seat: int, _: object = None) -> list[Event]:
    t = trading(s)
    assert t.offer is not None
    if t.chooses:
        # SPEC 3.5: an accept puts the seat among those the offerer chooses from
        t.responders.remove(seat)
        t.accepted.append(seat)
        return [TradeAccepted(seat, t.offer)]
    t.acceptor = seat
    t.responders = []
    t.chosen = {}
    return [TradeAccepted(seat, t.offer)]


def do_choose_partner(config: TableConfig, s: HandState, seat: int, partner: int) -> list[Event]:
    """The offerer agrees the trade with `partner`; the others who accepted are released."""
    t = trading(s)
    offer = t.offer
    assert offer is not None
    released = tuple(x for x in t.accepted if x != partner)
    t.acceptor = partner
    t.responders, t.accepted, t.chosen = [], [], {}
    return [PartnerChosen(offer, partner, released)]


def _answered(config: TableConfig, s: HandState) -> list[Event]:
    """Every answer is in: with nobody accepting, the offer lapses (SPEC 3.5)."""
    t = trading(s)
    offer = t.offer
    assert offer is not None
    if t.responders or t.accepted:
        return []
    t.offer = None
    events: list[Event] = [OfferLapsed(offer)]
    if t.mode is TradingMode.IN_TURN:
        events += _end_turn(config, s, traded=False)
    return events


def do_decline(config: TableConfig, s: HandState, seat: int, _: object = None) -> list[Event]:
    t = trading(s)
    offer = t.offer
    assert offer is not None
    t.responders.remove(seat)
    return [TradeDeclined(seat, offer), *_answered(config, s)]


def do_withdraw(config: TableConfig, s: HandState, seat: int, _: object = None) -> list[Event]:
    t = trading(s)
    offer = t.offer
    assert offer is not None
    t.clear_offer()
    events: list[Event] = [OfferWithdrawn(offer)]
    if t.mode is TradingMode.IN_TURN:
        # offerer-chooses: a withdrawn offer ends the turn without a trade (SPEC 3.5)
        events += _end_turn(config, s, traded=False)
    return events


def do_pass(config: TableConfig, s: HandState, seat: int, _: object = None) -> list[Event]:
    t = trading(s)
    _had_chance(t, seat)
    if t.mode is TradingMode.FREE:
        return [Passed(seat)]
    return [Passed(seat), *_end_turn(config, s, traded=False)]


def do_choose(
    config: TableConfig, s: HandState, seat: int, positions: Sequence[int]
) -> list[Event]:
    t = trading(s)
    offer = t.offer
    assert offer is not None and t.acceptor is not None
    chosen = tuple(positions)
    t.chosen[seat] = chosen
    events: list[Event] = [TradeCardsChosen(seat, chosen)]
    if len(t.chosen) < 2:
        return events
    trade = Trade(offer.offerer, t.acceptor, offer.k, t.chosen[offer.offerer], t.chosen[t.acceptor])
    for side in (trade.offerer, trade.acceptor):
        # SPEC 3.4: each side pays one token into the pot; hand sizes do not change.
        s.players[side].tokens -= 1
        s.players[side].tokens_paid += 1
    t.trades.append(trade)
    t.clear_offer()
    events.append(TradeMade(trade, config.token_value))
    if t.mode is TradingMode.IN_TURN:
        events += _end_turn(config, s, traded=True)
    elif len(eligible(s)) < 2:
        events += do_close(config, s, None, "fewer than two players can trade")
    return events


def _end_turn(config: TableConfig, s: HandState, *, traded: bool) -> list[Event]:
    """In-turn mode: the turn holder's turn is over; close or move the turn (SPEC 3.5)."""
    t = trading(s)
    assert t.turn is not None
    t.quiet_turns = 0 if traded else t.quiet_turns + 1
    able = eligible(s)
    if len(able) < 2:
        return do_close(config, s, None, "fewer than two players can trade")
    if t.closing is TradingClose.ORBIT_WITHOUT_TRADE and t.quiet_turns >= len(able):
        return do_close(config, s, None, "a full orbit passed without a trade")
    here = s.order.index(t.turn)
    n = len(s.order)
    nxt = next(s.order[(here + j) % n] for j in range(1, n + 1) if s.order[(here + j) % n] in able)
    if s.order.index(nxt) <= here:
        t.orbit += 1
    if t.closing is TradingClose.ORBITS and t.orbits is not None and t.orbit > t.orbits:
        return do_close(config, s, None, f"{t.orbits} orbit(s) of trading are over")
    t.turn = nxt
    return []


def do_close_trading(config: TableConfig, s: HandState, seat: int, _: object = None) -> list[Event]:
    """The closer calls the close (SPEC 3.5: `dealer-calls`; 3.9: after the dealer is folded
    for stalling, the first player still in)."""
    reason = (
        "the dealer closed trading"
        if seat == s.dealer
        else "the first player still in closed trading (the dealer was folded)"
    )
    return do_close(config, s, seat, reason)


def do_close(config: TableConfig, s: HandState, by: int | None, reason: str) -> list[Event]:
    t = trading(s)
    t.clear_offer()
    t.turn = None
    returned = []
    for x in s.order:
        p = s.players[x]
        chips = p.tokens * config.token_value
        # SPEC 3.4: unused tokens go back to the stack.
        p.stack += chips
        p.tokens = 0
        returned.append((x, chips))
    t.open = False
    return [TradingClosed(by, reason, tuple(returned)), *advance(config, s)]


def do_stall(config: TableConfig, s: HandState, seat: int) -> list[Event]:
    """SPEC 3.9: fold `seat` out of turn while trading. Its unused tokens go back to its stack;
    its own open offer lapses; it stops being a responder; an accepted trade it is a side of is
    undone; if it held the in-turn turn, the turn ends; then the closing rules apply."""
    t = trading(s)
    p = s.players[seat]
    p.folded = True
    returned = p.tokens * config.token_value
    p.stack += returned
    p.tokens = 0
    void: TradeOffer | None = None
    partner: int | None = None
    follow: list[Event] = []
    turn_over = t.mode is TradingMode.IN_TURN and t.offer is None and t.turn == seat
    if t.offer is not None and t.acceptor is not None:
        if seat in (t.offer.offerer, t.acceptor):
            # Nothing was exchanged and no token paid: a trade is made only by both choices.
            void = t.offer
            partner = t.acceptor if seat == t.offer.offerer else t.offer.offerer
            t.clear_offer()
            turn_over = t.mode is TradingMode.IN_TURN
    elif t.offer is not None:
        offer = t.offer
        if seat in t.responders:
            t.responders.remove(seat)
        if seat in t.accepted:
            t.accepted.remove(seat)
        if seat == offer.offerer or not (t.responders or t.accepted):
            t.clear_offer()
            follow.append(OfferLapsed(offer))
            turn_over = t.mode is TradingMode.IN_TURN
    event = FoldedForStalling(seat, Phase.TRADING, returned, void, partner)
    if sum(not q.folded for q in s.players.values()) == 1:
        return [event, *follow, *stalled_to_one(config, s)]
    if turn_over:
        follow += _end_turn(config, s, traded=False)
    elif t.offer is None and len(eligible(s)) < 2:
        follow += do_close(config, s, None, "fewer than two players can trade")
    return [event, *follow]


# --- who trading waits for, its clock, its step ------------------------------------------------


def to_act(s: HandState) -> tuple[int, ...]:
    """The seats trading waits for (SPEC 3.3, 3.5): the sides of an agreed trade that have
    not chosen their cards; the answerers of an open offer (first-accept in turn: the first
    of them), and under offerer-chooses once every answer is in, the offerer; the seat whose
    turn it is; or (free trading, no offer open) the seats that have not had their chance
    under offerer-chooses, then the closer."""
    t = trading(s)
    if t.acceptor is not None and t.offer is not None:
        sides = (t.offer.offerer, t.acceptor)
        return tuple(x for x in s.order if x in sides and x not in t.chosen)
    if t.offer is not None:
        if t.chooses:
            # every answer, in any order; once all are in, the offerer's choice
            if t.responders:
                return tuple(x for x in s.order if x in t.responders)
            return (t.offer.offerer,)
        if t.mode is TradingMode.IN_TURN:
            return (t.responders[0],)
        return tuple(t.responders)
    if t.mode is TradingMode.IN_TURN:
        assert t.turn is not None
        return (t.turn,)
    chance = waiting_for_chance(s)
    return tuple(chance) if chance else (closer(s),)


def default(config: TableConfig, s: HandState, seat: int) -> Default:
    """A trading clock's default for `seat` (SPEC 3.9): decline the open offer; the offerer
    waited for (every answer in), withdraw it; pass the turn; in free mode with no offer open,
    pass (a seat that has not had its chance) or close trading (the closer). Choosing trade
    cards has none."""
    player(s, seat)
    t = trading(s)
    if t.acceptor is not None:
        raise IllegalAction("choosing trade cards has no default; the staller is folded")
    if seat not in to_act(s):
        raise IllegalAction("no clock runs for this seat now")
    if t.offer is not None:
        if seat == t.offer.offerer:
            verify_withdraw(config, s, seat)
            return lambda n: do_withdraw(config, n, seat)
        verify_decline(config, s, seat, None)
        return lambda n: do_decline(config, n, seat)
    if t.mode is TradingMode.IN_TURN or seat in waiting_for_chance(s):
        verify_pass(config, s, seat)
        return lambda n: do_pass(config, n, seat)
    return lambda n: do_close(config, n, None, "the trading clock ran out")


_DEAL_SIZES = (5, 6, 7)
OPTIONS = ("trading_mode", "closing", "orbits", "partner")


A, N = ActionKind, Needs
P = By.PLAYER

# fmt: off
ROWS: tuple[Action, ...] = (
    #      kind                  by  phases   entry            needs         check           step               event             body        binds  key  label
    Action(A.OFFER,              P, TRADING, "offer",         N.K,          verify_offer,   do_offer,          TradeOffered,     ("k",),     True,  "o", "offer"),
    Action(A.ACCEPT,             P, TRADING, "accept",        N.OPEN_OFFER, verify_accept,  do_accept,         TradeAccepted,    ("offer",), False, "y", "accept"),
    Action(A.DECLINE,            P, TRADING, "decline",       N.OPEN_OFFER, verify_decline, do_decline,        TradeDeclined,    ("offer",), False, "n", "decline"),
    Action(A.WITHDRAW,           P, TRADING, "withdraw",      N.OPEN_OFFER, verify_withdraw, do_withdraw,      OfferWithdrawn,   ("offer",), False, "w", "withdraw"),
    Action(A.CHOOSE_PARTNER,     P, TRADING, "choose_partner", N.PARTNER,   verify_choose_partner, do_choose_partner, PartnerChosen, ("partner",), False, "t", "trade with"),
    Action(A.PASS,               P, TRADING, "pass",          N.NOTHING,    verify_pass,    do_pass,           Passed,           (),         True,  "p", "pass"),
    Action(A.CHOOSE_TRADE_CARDS, P, TRADING, "trade_give",    N.POSITIONS,  verify_choose,  do_choose,         TradeCardsChosen, None,       False),
    Action(A.CLOSE_TRADING,      P, TRADING, "close_trading", N.NOTHING,    verify_close,   do_close_trading,  TradingClosed,    (),         True,  "x", "close trading"),
)
# fmt: on


@dataclass(frozen=True, slots=True)
class Trading(Step):
    """Blind trading, in turn or free, as the dealer announced (SPEC 3.4, 3.5): Weeping
    Willow's own step."""

    KIND: ClassVar[str] = "trading"
    PHASE: ClassVar[Phase] = Phase.TRADING
    ACTIONS: ClassVar[tuple[Action, ...]] = ROWS

    def reads(self) -> tuple[str, ...]:
        return OPTIONS

    def check_options(self, chosen: Mapping[str, OptionValue]) -> None:
        mode, closing, orbits = (chosen[name] for name in OPTIONS[:3])
        if mode == TradingMode.FREE.value and closing != TradingClose.DEALER_CALLS.value:
            raise ConfigError("free trading closes only when the dealer calls it")
        if (closing == TradingClose.ORBITS.value) != (orbits != 0):
            raise ConfigError(
                "a number of orbits (1 to 100) goes with trading that closes after that many"
            )

    def words(self, chosen: Mapping[str, OptionValue]) -> str:
        chooses = chosen["partner"] == Partner.OFFERER_CHOOSES.value
        who = (
            "the offerer picks among those who accept" if chooses else "the first to accept trades"
        )
        if chosen["trading_mode"] == TradingMode.FREE.value:
            when = "once everyone has offered or passed" if chooses else "at any time"
            return f"free trading until the dealer calls it {when}, {who}"
        closing = chosen["closing"]
        if closing == TradingClose.ORBITS.value:
            return f"trading in turn for {plural(int(chosen['orbits']), 'orbit')}, {who}"
        if closing == TradingClose.DEALER_CALLS.value:
            return f"trading in turn until the dealer calls it, {who}"
        return f"trading in turn until a full orbit passes without a trade, {who}"

    def enter(self, config: TableConfig, s: HandState) -> list[Event]:
        return enter(config, s)

    def to_act(self, s: HandState) -> tuple[int, ...]:
        return to_act(s)

    def ops(self, s: HandState) -> tuple[OpDue, ...]:
        t = trading(s)
        if t.offer is None or t.acceptor is None:
            return ()
        return tuple(OpDue(CardOp.GIVE, x) for x in to_act(s))

    def default(self, config: TableConfig, s: HandState, seat: int) -> Default:
        return default(config, s, seat)

    def stall(self, config: TableConfig, s: HandState, seat: int) -> list[Event]:
        return do_stall(config, s, seat)
