"""The public and private state of one hand inside a session, and its summary (SPEC 7).

Pure; no I/O. A `HandRecord` is changed only by the commit step of an entry that has been
checked in full (see `checks`), so a rejected entry leaves it as it was. What is due from whom
is not kept here: the schedule (`schedule`) reads it off this record.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from p2pwillow.cards import Card
from p2pwillow.crypto.elgamal import Ciphertext
from p2pwillow.crypto.group import Point
from p2pwillow.games import weeping_willow as ww
from p2pwillow.limits import DECK_SIZE
from p2pwillow.mental import DealPlan, DealShares, HandContext, Layout, LiveDeck, PlayerHand
from p2pwillow.mental import deck as live_deck_steps
from p2pwillow.mental.deck import Destination, live_deck, plan_deal
from p2pwillow.mental.encoding import MadeValues
from p2pwillow.rules import Hand, Phase
from p2pwillow.rules.events import Declared, PotSplit
from p2pwillow.rules.live import BOARD, BURN, DOWN, Deal, deals_live
from p2pwillow.session.events import ClaimSummary, HandSummary, PotSummary, TradeSummary


def _destination(to: str, seat: int | None) -> Destination:
    """The live deck's destination for the rules' (SPEC 3.15, 5.12)."""
    if to == BOARD:
        return live_deck_steps.BOARD
    if to == BURN:
        return live_deck_steps.BURN
    assert seat is not None
    return live_deck_steps.down(seat) if to == DOWN else live_deck_steps.up(seat)


@dataclass(slots=True)
class OpenTrade:
    """An agreed trade whose gives are not all in: its id is the seq of the entry that agreed
    it (the first accept, or the offerer's choice of a partner, SPEC 7.3)."""

    trade: int
    offerer: int
    acceptor: int
    k: int
    gives: dict[int, tuple[tuple[int, ...], tuple[Ciphertext, ...]]] = field(default_factory=dict)
    """giver -> (its given positions, ascending; the ciphertexts re-encrypted to the other)."""

    def other(self, seat: int) -> int:
        return self.acceptor if seat == self.offerer else self.offerer


@dataclass(slots=True)
class HandRecord:
    """Everything a session tracks about the hand being played (one per hand)."""

    number: int
    dealer: int
    rules: Hand
    ctx: HandContext
    order: tuple[int, ...]
    """Table order: the dealer's left first, the dealer last (SPEC 3.2, 5.3)."""
    keys: dict[int, Point] = field(default_factory=dict)
    joint: Point | None = None
    deck: tuple[Ciphertext, ...] = ()
    shuffled: int = 0
    """Deck shuffles applied so far; the deck is final when this is len(order)."""
    plan: DealPlan | None = None
    shares: dict[int, DealShares] = field(default_factory=dict)
    public: dict[int, tuple[Ciphertext, ...]] = field(default_factory=dict)
    """Each seat's public hand (ciphertexts under its key alone), once dealt."""
    live: LiveDeck | None = None
    """A live-deck game's deck (SPEC 5.12), once announced and shuffled."""
    deals: int = 0
    """The live deck's deal steps opened so far; the open one is number `deals - 1`."""
    street: dict[int, DealShares] = field(default_factory=dict)
    """The checked shares of the open deal step, by holder."""
    offer_seq: int | None = None
    """The seq of the offer entry now open, if any."""
    trade: OpenTrade | None = None
    owed_shuffles: dict[int, int] = field(default_factory=dict)
    """seat -> the trade after which it owes a hand shuffle (SPEC 5.6)."""
    layouts: dict[int, Layout] = field(default_factory=dict)
    seals: dict[int, bytes] = field(default_factory=dict)
    """Each sealed declaration's commitment, by seat (SPEC 3.16, 6.13)."""
    sequencer: int = -1
    """Who sequences the hand now: its dealer, until a sequencer change or an equivocation
    moves sequencing on (SPEC 6.6, 7.5)."""
    replaced: list[int] = field(default_factory=list)
    """The hand's sequencers replaced so far, in the order it happened."""
    excused: set[int] = field(default_factory=set)
    """Players timed out for their head signature: it counts as given (SPEC 7.5)."""
    ended: bool = False
    blamed: tuple[int, ...] = ()
    abort_reason: str = ""
    signed: set[int] = field(default_factory=set)
    proofs: Counter[str] = field(default_factory=Counter)
    false_claims: dict[bytes, ClaimSummary] = field(default_factory=dict)
    """Remedies recorded as refused in this hand, by the claim's hash (SPEC 7.9)."""
    stopped: tuple[int, ...] = ()
    """The table stopped in this hand: the signers of its claim (SPEC 7.9)."""
    # --- the local player's secrets (None for an observer) ----------------------------------
    # Kept out of repr: a traceback with locals, a log line or a crash report must never show
    # the hand secret or a card the player has not turned.
    secret: int | None = field(default=None, repr=False)
    held: PlayerHand | None = field(default=None, repr=False)
    given: dict[int, tuple[Card, ...]] = field(default_factory=dict, repr=False)
    received: dict[int, tuple[Card, ...]] = field(default_factory=dict, repr=False)
    layout: tuple[Card, ...] | None = field(default=None, repr=False)
    after_shuffle: dict[int, PlayerHand] = field(default_factory=dict, repr=False)
    """The player's hand as each of its own hand shuffles leaves it, by the shuffle's `trade`
    (0 for the layout), until that shuffle is applied."""
    made: MadeValues = field(default_factory=MadeValues)
    """The crypto values this player put into its own entries of the hand (SPEC 7.1)."""

    def __post_init__(self) -> None:
        if self.sequencer < 0:
            self.sequencer = self.dealer

    def sync_live(self) -> None:
        """Keep a live-deck game's deck in step with the rules (SPEC 5.12): made once the game
        is announced and the deck shuffled by everyone; a deal step opened, with the
        destinations the rules fix, whenever the hand arrives at one."""
        hand = self.rules
        if not deals_live(hand.game) or self.shuffled < len(self.order):
            return
        if self.live is None:
            self.live = live_deck(self.deck, self.order, self.keys)
        step = hand.step
        if hand.phase in (Phase.DEAL, Phase.STREET) and self.live.dealing is None:
            assert isinstance(step, Deal)
            destinations = [_destination(to, seat) for to, seat in step.destinations(hand.state)]
            if not destinations:
                return  # a pass street waits for a player's choice before its next card (3.19)
            self.live = plan_deal(self.live, self.deals, destinations)
            self.deals += 1
            self.street = {}

    @property
    def dealt(self) -> bool:
        if self.live is not None:
            return self.live.pointer > 0 or self.deals > 1
        return len(self.shares) == len(self.order)

    @property
    def closed(self) -> bool:
        """The hand has ended and every player signed its head or was excused (SPEC 6.6)."""
        return self.ended and self.signed | self.excused >= set(self.order)

    def summary(self) -> HandSummary:
        """What the public record shows of this hand (SPEC 7)."""
        hand = self.rules
        a = hand.announcement
        trades = tuple(TradeSummary((t.offerer, t.acceptor), t.k) for t in ww.trades(hand))
        shown = tuple((s, hand.showing(s)) for s in self.order if hand.showing(s))
        folded = tuple(s for s in self.order if hand.is_folded(s))
        result = hand.result
        pots: tuple[PotSummary, ...] = ()
        chips: tuple[tuple[int, int], ...] = tuple((s, 0) for s in self.order)
        if result is not None:
            pots = tuple(PotSummary(w.pot.amount, w.pot.eligible, w.winners) for w in result.awards)
            chips = tuple((s, result.net(s)) for s in self.order)
        splits = [e for e in hand.events if isinstance(e, PotSplit)]
        if splits:  # a split-pot game: every pot, its sides and what carried over (SPEC 3.16)
            pots = tuple(
                PotSummary(
                    e.amount,
                    e.eligible,
                    tuple(dict.fromkeys(e.high + e.low)),
                    e.high,
                    e.low,
                    e.carried,
                )
                for e in splits
            )
        deal_size = None if a is None else a.cards_each
        dealt = 0 if not self.dealt or deal_size is None else deal_size * len(self.order)
        turned = sum(len(cards) for _, cards in shown) + len(hand.board)
        return HandSummary(
            number=self.number,
            dealer=self.dealer,
            seats=self.order,
            deal_size=deal_size,
            game=None if a is None else a.game.name,
            trades=trades,
            shown=shown,
            folded=folded,
            pots=pots,
            chips=chips,
            proofs=tuple(sorted(self.proofs.items())),
            hidden=DECK_SIZE - turned if dealt else DECK_SIZE,
            aborted=hand.phase is Phase.ABORTED,
            blamed=self.blamed,
            reason=self.abort_reason,
            signed=self.signed | self.excused >= set(self.order),
            false_claims=tuple(self.false_claims.values()),
            stopped=self.stopped,
            declared=tuple((e.seat, e.choice) for e in hand.events if isinstance(e, Declared)),
            carried_in=hand.carried_in,
            carried=0 if result is None else result.carried,
        )
