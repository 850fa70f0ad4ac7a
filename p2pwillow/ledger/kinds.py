"""Every entry kind's body: one frozen dataclass per kind, registered in `KINDS` (SPEC 6.10).

Pure; no I/O. The ledger knows no poker rules and no proofs: points, ciphertexts and proofs
travel as lowercase hex and the session converts them. To add a kind, write one more
`@register("name")` dataclass here and one line in SPEC 6.10; its schema follows by itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from p2pwillow.ledger.canonical import MAX_LINE_BYTES, MAX_SAFE_INTEGER, JsonValue
from p2pwillow.ledger.entry import Entry
from p2pwillow.ledger.fields import (
    AnyObject,
    Body,
    EntryOf,
    FieldError,
    Hex,
    Int,
    ListOf,
    OneOf,
    RecordOf,
    Text,
    Value,
    record,
    register,
    spec,
)

MAX_SEATS = 10
"""Seats are numbered 0..9 (a 52-card deck deals five cards to at most ten players)."""
DECK_SIZE = 52
MAX_TRADE = 7
"""A trade exchanges 1..7 cards (a deal is at most seven)."""
ROUNDS = 5

SEAT = Int(0, MAX_SEATS - 1)
SEQ = Int(0, MAX_SAFE_INTEGER)
CHIPS = Int(0, MAX_SAFE_INTEGER)
POSITIVE_CHIPS = Int(1, MAX_SAFE_INTEGER)
DECK_POSITION = Int(0, DECK_SIZE - 1)
TRADE_SIZE = Int(1, MAX_TRADE)
HAND_POSITION = Int(0, MAX_TRADE - 1)
HASH = Hex("an entry hash", 64)
IDENTITY_KEY = Hex("an identity key", 64)
POINT = Hex("a point", 66)
CIPHERTEXT = Hex("a ciphertext", 132)
HAND = ListOf(CIPHERTEXT, 1, MAX_TRADE)
PROOF = Hex("a proof", 2, MAX_LINE_BYTES // 2)
PLAYER_NAME = Text(1, 32)
TABLE_NAME = Text(1, 64)
REASON = Text(1, 200)


# --- nested records --------------------------------------------------------------------------


@record
@dataclass(frozen=True, slots=True)
class SeatedPlayer(Value):
    """A player at the table: seat, display name, long-term Ed25519 key (raw, hex)."""

    seat: int = spec(SEAT)
    name: str = spec(PLAYER_NAME)
    identity_key: str = spec(IDENTITY_KEY)


@record
@dataclass(frozen=True, slots=True)
class SeatStack(Value):
    """A seat and its chips."""

    seat: int = spec(SEAT)
    stack: int = spec(CHIPS)


@record
@dataclass(frozen=True, slots=True)
class DealShare(Value):
    """A decryption share for the card at a position of the shuffled deck."""

    position: int = spec(DECK_POSITION)
    share: str = spec(POINT)


@record
@dataclass(frozen=True, slots=True)
class TradedCard(Value):
    """One card given in a trade: its position in the giver's public hand, the ciphertext
    re-encrypted to the receiver, and the re-encryption proof (SPEC 5.7)."""

    position: int = spec(HAND_POSITION)
    card: str = spec(CIPHERTEXT)
    proof: str = spec(PROOF)


SEAT_STACKS = ListOf(RecordOf(SeatStack), 1, MAX_SEATS, increasing_by="seat")


# --- table and seating (hand 0) --------------------------------------------------------------


@register("genesis")
@dataclass(frozen=True, slots=True)
class Genesis(Body):
    """Entry 0: the table. `config` is the table settings object the rules define."""

    name: str = spec(TABLE_NAME)
    config: Mapping[str, JsonValue] = spec(AnyObject(), hash=False)
    players: Sequence[SeatedPlayer] = spec(
        ListOf(RecordOf(SeatedPlayer), 1, MAX_SEATS, increasing_by="seat")
    )

    def check(self) -> None:
        keys = [p.identity_key for p in self.players]
        if len(set(keys)) != len(keys):
            raise FieldError("players", "two seats hold the same identity key")

    def identity_keys(self) -> dict[int, bytes]:
        return {p.seat: bytes.fromhex(p.identity_key) for p in self.players}


@register("seat")
@dataclass(frozen=True, slots=True)
class SeatAcceptance(Body):
    """A seated player accepts the table: signs the genesis entry's hash."""

    genesis: str = spec(HASH)


@register("join")
@dataclass(frozen=True, slots=True)
class Join(Body):
    """Between hands, a new player takes the author seat with this key (self-signed)."""

    name: str = spec(PLAYER_NAME)
    identity_key: str = spec(IDENTITY_KEY)
    genesis: str = spec(HASH)


@register("leave")
@dataclass(frozen=True, slots=True)
class Leave(Body):
    """Between hands, the author leaves the table."""


# --- hand frame --------------------------------------------------------------------------------


@register("hand_start")
@dataclass(frozen=True, slots=True)
class HandStart(Body):
    """The dealer opens the hand (its number is the envelope's): seats in it and their stacks."""

    dealer: int = spec(SEAT)
    players: Sequence[SeatStack] = spec(SEAT_STACKS)

    def check(self) -> None:
        if self.dealer not in {p.seat for p in self.players}:
            raise FieldError("dealer", "the dealer is not in the hand")


@register("hand_end")
@dataclass(frozen=True, slots=True)
class HandEnd(Body):
    """The dealer closes the hand: every seat's stack after it."""

    players: Sequence[SeatStack] = spec(SEAT_STACKS)


@register("head_signature")
@dataclass(frozen=True, slots=True)
class HeadSignature(Body):
    """A player signs the hash of the entry that ended the hand (hand_end or abort)."""

    head: str = spec(HASH)


@register("abort")
@dataclass(frozen=True, slots=True)
class Abort(Body):
    """The hand is void: stacks return to its start; `blamed` stalled or cheated."""

    blamed: Sequence[int] = spec(ListOf(SEAT, 0, MAX_SEATS, increasing_by=""))
    reason: str = spec(REASON)


@register("equivocation")
@dataclass(frozen=True, slots=True)
class Equivocation(Body):
    """Proof that `sequencer` countersigned two different entries with the same seq."""

    sequencer: int = spec(SEAT)
    first: Entry = spec(EntryOf())  # noqa: RUF009 - spec() returns a dataclasses.field
    second: Entry = spec(EntryOf())  # noqa: RUF009


@register("timeout")
@dataclass(frozen=True, slots=True)
class Timeout(Body):
    """The author claims that `seat` let its clock run out."""

    seat: int = spec(SEAT)


# --- mental poker ------------------------------------------------------------------------------


@register("hand_key")
@dataclass(frozen=True, slots=True)
class HandKey(Body):
    """The author's per-hand public key Y_j with its Schnorr proof."""

    key: str = spec(POINT)
    proof: str = spec(PROOF)


@register("deck_shuffle")
@dataclass(frozen=True, slots=True)
class DeckShuffle(Body):
    """One step of the deck shuffle: the re-encrypted, permuted deck and the shuffle proof."""

    deck: Sequence[str] = spec(ListOf(CIPHERTEXT, DECK_SIZE, DECK_SIZE))
    proof: str = spec(PROOF)


@register("deal_shares")
@dataclass(frozen=True, slots=True)
class DealShares(Body):
    """The author's decryption shares for the cards dealt to others, one batched DLEQ proof."""

    shares: Sequence[DealShare] = spec(
        ListOf(RecordOf(DealShare), 1, DECK_SIZE, increasing_by="position")
    )
    proof: str = spec(PROOF)


@register("hand_shuffle")
@dataclass(frozen=True, slots=True)
class HandShuffle(Body):
    """The owner re-encrypts and permutes its public hand (SPEC 5.6, 5.8): after trade `trade`
    (purpose `trade`), or to fix its layout (purpose `layout`, `trade` 0)."""

    purpose: str = spec(OneOf("trade", "layout"))
    trade: int = spec(SEQ)
    cards: Sequence[str] = spec(HAND)
    proof: str = spec(PROOF)

    def check(self) -> None:
        if (self.purpose == "layout") != (self.trade == 0):
            raise FieldError("trade", "is the trade's id for purpose trade, 0 for layout")


@register("trade_give")
@dataclass(frozen=True, slots=True)
class TradeGive(Body):
    """The author's side of trade `trade` (the accept entry's seq): k cards re-encrypted to
    seat `to`, by strictly ascending position."""

    trade: int = spec(SEQ)
    to: int = spec(SEAT)
    cards: Sequence[TradedCard] = spec(
        ListOf(RecordOf(TradedCard), 1, MAX_TRADE, increasing_by="position")
    )


@register("reveal")
@dataclass(frozen=True, slots=True)
class Reveal(Body):
    """The author turns layout card `card` (0..4, in betting round card + 1): its decryption
    share and DLEQ proof (SPEC 5.9)."""

    card: int = spec(Int(0, ROUNDS - 1))
    share: str = spec(POINT)
    proof: str = spec(PROOF)


# --- trading -----------------------------------------------------------------------------------


@register("announce")
@dataclass(frozen=True, slots=True)
class Announce(Body):
    """The dealer announces the deal size, the trading mode and how trading closes (SPEC 3.3).

    `orbits` is the number of orbits when `closing` is `orbits`, and 0 otherwise.
    """

    deal_size: int = spec(Int(5, 7))
    trading_mode: str = spec(OneOf("in-turn", "free"))
    closing: str = spec(OneOf("orbit-without-trade", "orbits", "dealer-calls"))
    orbits: int = spec(Int(0, 100))

    def check(self) -> None:
        if (self.closing == "orbits") != (self.orbits > 0):
            raise FieldError("orbits", "is 1..100 when closing is orbits, else 0")


@register("offer")
@dataclass(frozen=True, slots=True)
class Offer(Body):
    """The author offers to trade k cards (nothing else is said about them)."""

    k: int = spec(TRADE_SIZE)


@register("accept")
@dataclass(frozen=True, slots=True)
class Accept(Body):
    """The author accepts offer `offer` (the offer entry's seq)."""

    offer: int = spec(SEQ)


@register("decline")
@dataclass(frozen=True, slots=True)
class Decline(Body):
    offer: int = spec(SEQ)


@register("withdraw")
@dataclass(frozen=True, slots=True)
class Withdraw(Body):
    """The author withdraws its own offer `offer`."""

    offer: int = spec(SEQ)


@register("pass")
@dataclass(frozen=True, slots=True)
class Pass(Body):
    """In turn, the author makes no offer."""


@register("close_trading")
@dataclass(frozen=True, slots=True)
class CloseTrading(Body):
    """The dealer closes trading (free mode)."""


# --- betting -----------------------------------------------------------------------------------


@register("check")
@dataclass(frozen=True, slots=True)
class Check(Body):
    pass


@register("bet")
@dataclass(frozen=True, slots=True)
class Bet(Body):
    """The author bets `amount` chips (SPEC 3.7.2)."""

    amount: int = spec(POSITIVE_CHIPS)


@register("call")
@dataclass(frozen=True, slots=True)
class Call(Body):
    """The author calls: puts in min(to call, stack), which the rules compute."""


@register("raise")
@dataclass(frozen=True, slots=True)
class Raise(Body):
    """The author raises to a round bet of `to` chips."""

    to: int = spec(POSITIVE_CHIPS)


@register("all_in")
@dataclass(frozen=True, slots=True)
class AllIn(Body):
    """The author puts in its whole stack."""


@register("fold")
@dataclass(frozen=True, slots=True)
class Fold(Body):
    pass


__all__ = [
    "CHIPS",
    "DECK_SIZE",
    "MAX_SEATS",
    "MAX_TRADE",
    "Abort",
    "Accept",
    "AllIn",
    "Announce",
    "Bet",
    "Call",
    "Check",
    "CloseTrading",
    "DealShare",
    "DealShares",
    "DeckShuffle",
    "Decline",
    "Equivocation",
    "Fold",
    "Genesis",
    "HandEnd",
    "HandKey",
    "HandShuffle",
    "HandStart",
    "HeadSignature",
    "Join",
    "Leave",
    "Offer",
    "Pass",
    "Raise",
    "Reveal",
    "SeatAcceptance",
    "SeatStack",
    "SeatedPlayer",
    "Timeout",
    "TradeGive",
    "TradedCard",
    "Withdraw",
]
