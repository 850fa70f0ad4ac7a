"""Every entry kind's body: one frozen dataclass per kind the protocol defines, and `KINDS`, the
one registry of them and of the plain decisions (SPEC 6.10).

Pure; no I/O. The ledger knows no poker rules and no proofs: points, ciphertexts and proofs
travel as lowercase hex and the mental-poker layer reads them. To add a kind, write one more
`@kind("name")` dataclass here, list it in `_KINDS` at the end, and give it its line in SPEC
6.10; its schema follows by itself (`python -m tools.gen_schemas`). A plain decision (an entry
that carries nothing but a player's action: a bet, a pass) is not written here: its body is made
from its row of the action table (`rules/actions.py`) and added to `KINDS` by `add_plain`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from p2pwillow.ledger.canonical import MAX_LINE_BYTES, MAX_SAFE_INTEGER, JsonObject, JsonValue
from p2pwillow.ledger.envelope import Entry, read_entry
from p2pwillow.ledger.errors import RemoteProtocolError
from p2pwillow.ledger.fields import (
    AnyObject,
    Body,
    FieldError,
    FieldType,
    Hex,
    Int,
    ListOf,
    OneOf,
    RecordOf,
    Text,
    Value,
    kind,
    record,
    registry,
    spec,
)
from p2pwillow.limits import DECK_SIZE, MAX_SEATS, is_int

MAX_TRADE = 7
"""A trade exchanges 1..7 cards (a deal is at most seven)."""

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


class EntryOf(FieldType):
    """A whole sequenced entry of any kind, nested (equivocation proofs carry two)."""

    __slots__ = ()

    def normalize(self, value: object, path: str) -> object:
        if not isinstance(value, Entry):
            raise FieldError(path, f"must be an Entry, not {type(value).__name__}")
        return value

    def decode(self, value: JsonValue, path: str) -> object:
        try:
            return read_entry(value, KINDS)
        except RemoteProtocolError as exc:
            raise FieldError(path, exc.detail) from None

    def encode(self, value: Any) -> JsonValue:
        entry: Entry = value
        return entry.to_json()

    def schema(self) -> JsonObject:
        return {"$ref": "#/$defs/entry"}


SEAT_STACKS = ListOf(RecordOf(SeatStack), 1, MAX_SEATS, increasing_by="seat")
SEATS = ListOf(SEAT, 1, MAX_SEATS, increasing_by="")
"""1..10 seats, ascending."""
SIGNATURE = Hex("a signature", 128)


@record
@dataclass(frozen=True, slots=True)
class VoteRecord(Value):
    """A witness vote inside an entry (SPEC 7.5): its game and hand are the entry's and its head
    is the entry's `prev`, so it counts only in an entry placed right after the head it names."""

    voter: int = spec(SEAT)
    seats: Sequence[int] = spec(SEATS)
    sig: str = spec(SIGNATURE)

    def check(self) -> None:
        if self.voter in self.seats:
            raise FieldError("seats", "a voter does not accuse itself")


def votes_of(count: int) -> ListOf:
    """Up to 10 vote records, at least `count`, one per voter, ascending by voter."""
    return ListOf(RecordOf(VoteRecord), count, MAX_SEATS, increasing_by="voter")


# --- table and seating (hand 0) --------------------------------------------------------------


@kind("genesis")
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


@kind("seat")
@dataclass(frozen=True, slots=True)
class SeatAcceptance(Body):
    """A seated player accepts the table: signs the genesis entry's hash."""

    genesis: str = spec(HASH)


@kind("join")
@dataclass(frozen=True, slots=True)
class Join(Body):
    """Between hands, a player takes the author seat with this key (self-signed): a returning
    key with the stack it left with (`buy_in` 0), anyone else buying in with the starting
    stack (SPEC 3.11)."""

    name: str = spec(PLAYER_NAME)
    identity_key: str = spec(IDENTITY_KEY)
    genesis: str = spec(HASH)
    buy_in: int = spec(CHIPS)


@kind("admit")
@dataclass(frozen=True, slots=True)
class Admit(Body):
    """Between hands, the author (any seated player, the newcomer included) compared the new
    safety code with everyone at the table and admits the newcomer that `join` seated in
    `seat` (SPEC 6.6, 6.7)."""

    seat: int = spec(SEAT)
    join: str = spec(HASH)


@kind("refuse")
@dataclass(frozen=True, slots=True)
class Refuse(Body):
    """Between hands, the author (any seated player, the newcomer included) refuses the
    newcomer that `join` seated in `seat`: the codes did not match, or not everyone confirmed
    in time (`reason`). The newcomer's seat is free again (SPEC 6.6)."""

    seat: int = spec(SEAT)
    join: str = spec(HASH)
    reason: str = spec(REASON)


@kind("leave")
@dataclass(frozen=True, slots=True)
class Leave(Body):
    """Between hands, the author leaves the table; the game keeps its stack for its key."""


@kind("sit_in")
@dataclass(frozen=True, slots=True)
class SitIn(Body):
    """The author, sitting out, plays again from the next hand (SPEC 3.11; at any time)."""


# --- hand frame --------------------------------------------------------------------------------


@kind("hand_start")
@dataclass(frozen=True, slots=True)
class HandStart(Body):
    """The dealer opens the hand (its number is the envelope's): seats in it and their stacks."""

    dealer: int = spec(SEAT)
    players: Sequence[SeatStack] = spec(SEAT_STACKS)

    def check(self) -> None:
        if self.dealer not in {p.seat for p in self.players}:
            raise FieldError("dealer", "the dealer is not in the hand")


@kind("hand_end")
@dataclass(frozen=True, slots=True)
class HandEnd(Body):
    """The dealer closes the hand: every seat's stack after it."""

    players: Sequence[SeatStack] = spec(SEAT_STACKS)


@kind("game_end")
@dataclass(frozen=True, slots=True)
class GameEnd(Body):
    """Between hands, a seated player ends the game: every seated player's stack (SPEC 7.3).
    No hand starts after it; every seated player signs its hash (`head_signature`)."""

    players: Sequence[SeatStack] = spec(SEAT_STACKS)


@kind("head_signature")
@dataclass(frozen=True, slots=True)
class HeadSignature(Body):
    """A player signs the hash of the entry that ended the hand (hand_end or abort), or the
    game (game_end)."""

    head: str = spec(HASH)


@kind("abort")
@dataclass(frozen=True, slots=True)
class Abort(Body):
    """Before the deal is complete, the hand is void: stacks return to its start; `blamed`
    stalled (each with the votes of a quorum, or replaced as the hand's sequencer)."""

    blamed: Sequence[int] = spec(SEATS)
    reason: str = spec(REASON)
    votes: Sequence[VoteRecord] = spec(votes_of(0))


@kind("sequencer_change")
@dataclass(frozen=True, slots=True)
class SequencerChange(Body):
    """The author sequences the rest of the hand in place of `replaced` (the silent sequencer
    first, then each seat clockwise after it that did not take over), on the votes of a quorum
    against each (SPEC 6.6, 7.5)."""

    replaced: Sequence[int] = spec(ListOf(SEAT, 1, MAX_SEATS))
    votes: Sequence[VoteRecord] = spec(votes_of(1))

    def check(self) -> None:
        if len(set(self.replaced)) != len(self.replaced):
            raise FieldError("replaced", "a seat is named twice")


@kind("equivocation")
@dataclass(frozen=True, slots=True)
class Equivocation(Body):
    """Proof that `sequencer` countersigned two different entries with the same seq."""

    sequencer: int = spec(SEAT)
    first: Entry = spec(EntryOf())  # noqa: RUF009 - spec() returns a dataclasses.field
    second: Entry = spec(EntryOf())  # noqa: RUF009


@kind("false_claim")
@dataclass(frozen=True, slots=True)
class FalseClaim(Body):
    """A remedy (`timeout`, `abort` or `sequencer_change`) the author refused to apply,
    recorded with its signatures so that anyone can see who signed it (SPEC 7.9). It is not in
    the chain: another entry took its place."""

    claim: Entry = spec(EntryOf())  # noqa: RUF009


@kind("table_stop")
@dataclass(frozen=True, slots=True)
class TableStop(Body):
    """The author refused `claim` and no quorum without its signers can go on: it takes the
    claim's place, countersigned by the author itself, and ends the author's transcript. The
    running hand is void; nothing follows (SPEC 7.9)."""

    claim: Entry = spec(EntryOf())  # noqa: RUF009


@kind("timeout")
@dataclass(frozen=True, slots=True)
class Timeout(Body):
    """The sequencer times `seats` out, each on the votes of a quorum (SPEC 3.9, 7.5)."""

    seats: Sequence[int] = spec(SEATS)
    votes: Sequence[VoteRecord] = spec(votes_of(1))


# --- the clock, the pause and the arbiter (SPEC 3.14) ---------------------------------------

MAX_CLOCK_SECONDS = 3600
"""The most seconds one clock entry asks for (a draw on the time bank, a pause, a ruling)."""
CLOCK_SECONDS = Int(1, MAX_CLOCK_SECONDS)


@kind("time_bank")
@dataclass(frozen=True, slots=True)
class TimeBank(Body):
    """The author draws `seconds` from its own time bank: its clock at this head runs that
    much longer (SPEC 3.14, 7.5)."""

    seconds: int = spec(CLOCK_SECONDS)


@kind("pause")
@dataclass(frozen=True, slots=True)
class Pause(Body):
    """The author pauses the table for at most `seconds` (no more than the table's
    `pause_limit`): every clock stops until a `resume` or until the pause has lasted that long
    (SPEC 3.14, 7.5)."""

    seconds: int = spec(CLOCK_SECONDS)


@kind("resume")
@dataclass(frozen=True, slots=True)
class Resume(Body):
    """The player who paused the table, or the arbiter, resumes it (SPEC 3.14)."""


@kind("ruling_extend")
@dataclass(frozen=True, slots=True)
class RulingExtend(Body):
    """The arbiter's ruling: `seat`'s clock at this head runs `seconds` longer (SPEC 3.14)."""

    seat: int = spec(SEAT)
    seconds: int = spec(CLOCK_SECONDS)


@kind("ruling_sit_in")
@dataclass(frozen=True, slots=True)
class RulingSitIn(Body):
    """The arbiter's ruling, between hands: `seat`, sitting out with chips, plays again from
    the next hand, its wait over or not (SPEC 3.11, 3.14)."""

    seat: int = spec(SEAT)


@kind("ruling_end")
@dataclass(frozen=True, slots=True)
class RulingEnd(Body):
    """The arbiter's ruling: the game ends once no hand is running; no hand starts after it
    (SPEC 3.14)."""


CLOCK_KINDS = frozenset(
    {
        TimeBank.KIND,
        Pause.KIND,
        Resume.KIND,
        RulingExtend.KIND,
        RulingSitIn.KIND,
        RulingEnd.KIND,
    }
)
"""The kinds about the clock and the table rather than the game's steps: the stretch of an
action clock runs on across them (SPEC 7.5)."""
RULINGS = frozenset({RulingExtend.KIND, RulingSitIn.KIND, RulingEnd.KIND})
"""The kinds only the arbiter writes (SPEC 3.14)."""


# --- mental poker ------------------------------------------------------------------------------


@kind("hand_key")
@dataclass(frozen=True, slots=True)
class HandKey(Body):
    """The author's per-hand public key Y_j with its Schnorr proof."""

    key: str = spec(POINT)
    proof: str = spec(PROOF)


@kind("deck_shuffle")
@dataclass(frozen=True, slots=True)
class DeckShuffle(Body):
    """One step of the deck shuffle: the re-encrypted, permuted deck and the shuffle proof."""

    deck: Sequence[str] = spec(ListOf(CIPHERTEXT, DECK_SIZE, DECK_SIZE))
    proof: str = spec(PROOF)


@kind("deal_shares")
@dataclass(frozen=True, slots=True)
class DealShares(Body):
    """The author's decryption shares for the cards dealt to others, one batched DLEQ proof."""

    shares: Sequence[DealShare] = spec(
        ListOf(RecordOf(DealShare), 1, DECK_SIZE, increasing_by="position")
    )
    proof: str = spec(PROOF)


@kind("hand_shuffle")
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


@kind("trade_give")
@dataclass(frozen=True, slots=True)
class TradeGive(Body):
    """The author's side of trade `trade` (the accept entry's seq): k cards re-encrypted to
    seat `to`, by strictly ascending position."""

    trade: int = spec(SEQ)
    to: int = spec(SEAT)
    cards: Sequence[TradedCard] = spec(
        ListOf(RecordOf(TradedCard), 1, MAX_TRADE, increasing_by="position")
    )


@kind("reveal")
@dataclass(frozen=True, slots=True)
class Reveal(Body):
    """The author turns laid-out card `card` (0 for the first; the game's turn step says which
    is due): its decryption share and DLEQ proof (SPEC 5.9)."""

    card: int = spec(HAND_POSITION)
    share: str = spec(POINT)
    proof: str = spec(PROOF)


# --- the live deck (SPEC 5.12-5.16) --------------------------------------------------------------

DEAL_STEP = Int(0, 63)
"""A live-deck game's deal step, 0 for the hand's first (SPEC 5.12)."""


@kind("street_shares")
@dataclass(frozen=True, slots=True)
class StreetShares(Body):
    """The author's decryption shares for deal step `step` of the live deck: every position of
    the step but its own down cards and the burned ones, with one batched DLEQ proof (SPEC
    5.12)."""

    step: int = spec(DEAL_STEP)
    shares: Sequence[DealShare] = spec(
        ListOf(RecordOf(DealShare), 1, DECK_SIZE, increasing_by="position")
    )
    proof: str = spec(PROOF)


@record
@dataclass(frozen=True, slots=True)
class ShownCard(Value):
    """A decryption share for the card at a position of the author's public hand."""

    position: int = spec(HAND_POSITION)
    share: str = spec(POINT)


@kind("show")
@dataclass(frozen=True, slots=True)
class Show(Body):
    """The author shows the cards at these positions of its public hand, with one batched DLEQ
    proof (SPEC 5.16)."""

    cards: Sequence[ShownCard] = spec(
        ListOf(RecordOf(ShownCard), 1, MAX_TRADE, increasing_by="position")
    )
    proof: str = spec(PROOF)


@kind("draw")
@dataclass(frozen=True, slots=True)
class Draw(Body):
    """The author's draw: the cards it discards, each a position of its public hand with the
    card re-encrypted to the table key and a re-encryption proof (SPEC 5.14); none when it
    stands pat."""

    cards: Sequence[TradedCard] = spec(ListOf(RecordOf(TradedCard), 0, 5, increasing_by="position"))


@kind("wash")
@dataclass(frozen=True, slots=True)
class Wash(Body):
    """The author's wash (SPEC 3.17): the cards it pays to replace, face-down ones (`cards`:
    positions of its public hand, each re-encrypted to the table key with its proof, as a
    draw's discards, 5.14) and face-up ones (`up`: their places among the author's face-up
    cards, in the order dealt); neither when it keeps its cards. At most two cards in all
    (Car Wash's "one or both"); the game's wash says how many it allows."""

    cards: Sequence[TradedCard] = spec(ListOf(RecordOf(TradedCard), 0, 2, increasing_by="position"))
    up: Sequence[int] = spec(ListOf(HAND_POSITION, 0, 2, increasing_by=""))


@kind("cloak")
@dataclass(frozen=True, slots=True)
class Cloak(Body):
    """The author's cloak at a wash that offers it (SPEC 3.17, Go for Broke): one face-up card
    (`up`: its place among the author's face-up cards, in the order dealt), public already,
    washed and replaced face down."""

    up: Sequence[int] = spec(ListOf(HAND_POSITION, 1, 1, increasing_by=""))


@kind("flip")
@dataclass(frozen=True, slots=True)
class Flip(Body):
    """The author's flip at a wash that offers it (SPEC 3.17, Five by Two): the face-down card
    at `down.position` of its public hand turned face up, shown as at the showdown (`down.share`
    with the batched DLEQ `proof`, context step `show/N`, N the wash's step in the script, SPEC
    5.16), and the face-up card `up` (its place among the author's face-up cards, in the order
    dealt) washed and replaced face down."""

    # spec() returns a field descriptor, not a shared default (ruff cannot tell for a record)
    down: ShownCard = spec(RecordOf(ShownCard))  # noqa: RUF009
    up: int = spec(HAND_POSITION)
    proof: str = spec(PROOF)


@kind("fold_release")
@dataclass(frozen=True, slots=True)
class FoldRelease(Body):
    """The author folds in a live-deck game and releases its key: its shares of every undealt
    position and then of every muck card, with one batched DLEQ proof (SPEC 5.13)."""

    shares: Sequence[str] = spec(ListOf(POINT, 1, 2 * DECK_SIZE))
    proof: str = spec(PROOF)


# --- the declaration of a split-pot game (SPEC 3.16, 6.13) ------------------------------------

COMMITMENT = Hex("a commitment", 64)
NONCE = Hex("a nonce", 64)
DECLARATIONS = ("high", "low", "pig")


@kind("declare")
@dataclass(frozen=True, slots=True)
class Declare(Body):
    """The author seals its declaration: the commitment (SPEC 6.13, purpose `declare`) to
    `high`, `low` or `pig`, and nothing else."""

    commitment: str = spec(COMMITMENT)


@kind("declare_open")
@dataclass(frozen=True, slots=True)
class DeclareOpen(Body):
    """The author opens its sealed declaration, once every player still in has sealed: its
    choice and the commitment's nonce (SPEC 6.13)."""

    choice: str = spec(OneOf(*DECLARATIONS))
    nonce: str = spec(NONCE)


# --- match the pot or fold (SPEC 3.18) -----------------------------------------------------------

POT_MATCH_ANSWERS = ("match", "fold")


@kind("pot_match")
@dataclass(frozen=True, slots=True)
class PotMatch(Body):
    """The author, put to match the pot or fold (SPEC 3.18), answers: `match` puts in `amount`,
    the pot's size capped by its stack; `fold` puts in nothing (`amount` 0)."""

    answer: str = spec(OneOf(*POT_MATCH_ANSWERS))
    amount: int = spec(CHIPS)


# --- trading -----------------------------------------------------------------------------------


GAME_NAME = Text(1, 32)
MAX_OPTIONS = 16


@kind("announce_game")
@dataclass(frozen=True, slots=True)
class AnnounceGame(Body):
    """The dealer names the hand's game, pins the SHA-256 of its description (`description`)
    and gives the value of each of its options (SPEC 3.3, 3.13): at most 16, each a name of 1
    to 32 characters with a whole number or a text of 1 to 32 characters. Which options a game
    has, and what each may be, is the game's description's: the session checks them there."""

    game: str = spec(GAME_NAME)
    description: str = spec(HASH)
    options: Mapping[str, JsonValue] = spec(AnyObject(), hash=False)

    def check(self) -> None:
        if len(self.options) > MAX_OPTIONS:
            raise FieldError("options", f"has at most {MAX_OPTIONS} members")
        for name, value in self.options.items():
            if not 1 <= len(name) <= 32:
                raise FieldError("options", f"names an option in 1 to 32 characters, not {name!r}")
            text = isinstance(value, str) and 1 <= len(value) <= 32
            if not text and not (is_int(value) and 0 <= value <= MAX_SAFE_INTEGER):
                raise FieldError(f"options.{name}", "is a whole number or a short text")


@kind("announce")
@dataclass(frozen=True, slots=True)
class Announce(Body):
    """Weeping Willow's announcement as transcripts made before games were descriptions carry
    it: the deal size, the trading mode and how trading closes (SPEC 3.3, 3.13). It stands for
    an `announce_game` of Weeping Willow with these options; no peer writes it any more.

    `orbits` is the number of orbits when `closing` is `orbits`, and 0 otherwise.
    """

    deal_size: int = spec(Int(5, 7))
    trading_mode: str = spec(OneOf("in-turn", "free"))
    closing: str = spec(OneOf("orbit-without-trade", "orbits", "dealer-calls"))
    orbits: int = spec(Int(0, 100))

    def check(self) -> None:
        if (self.closing == "orbits") != (self.orbits > 0):
            raise FieldError("orbits", "is 1..100 when closing is orbits, else 0")


_KINDS: dict[str, type[Body]] = dict(
    registry(
        Genesis,
        SeatAcceptance,
        Join,
        Admit,
        Refuse,
        Leave,
        SitIn,
        HandStart,
        HandEnd,
        GameEnd,
        HeadSignature,
        Abort,
        Equivocation,
        FalseClaim,
        TableStop,
        SequencerChange,
        Timeout,
        HandKey,
        DeckShuffle,
        DealShares,
        HandShuffle,
        TradeGive,
        Reveal,
        StreetShares,
        Show,
        Draw,
        Wash,
        Cloak,
        Flip,
        FoldRelease,
        Declare,
        DeclareOpen,
        PotMatch,
        Announce,
        AnnounceGame,
        TimeBank,
        Pause,
        Resume,
        RulingExtend,
        RulingSitIn,
        RulingEnd,
    )
)

KINDS: Mapping[str, type[Body]] = MappingProxyType(_KINDS)
"""Every entry kind, by its name on the wire (SPEC 6.10): the kinds the protocol defines here,
and the plain decisions (a bet, a pass, an offer: entries that carry nothing but a player's
action), whose bodies are made from the rows of the action table and added by `add_plain`
when the package `p2pwillow` is imported, before any entry can be read."""


def add_plain(bodies: Sequence[type[Body]]) -> None:
    """Register the plain decisions' bodies (the action table's, made by `plain_kind`); a
    kind already registered is a TypeError (a name is given twice)."""
    for body in bodies:
        if body.KIND in _KINDS:
            raise TypeError(f"{body.__name__}: entry kind {body.KIND!r} is taken")
    for body in bodies:
        _KINDS[body.KIND] = body


__all__ = [
    "CHIPS",
    "CLOCK_KINDS",
    "DECK_SIZE",
    "KINDS",
    "MAX_CLOCK_SECONDS",
    "MAX_SEATS",
    "MAX_TRADE",
    "RULINGS",
    "Abort",
    "Admit",
    "Announce",
    "AnnounceGame",
    "DealShare",
    "DealShares",
    "DeckShuffle",
    "EntryOf",
    "Equivocation",
    "FalseClaim",
    "GameEnd",
    "Genesis",
    "HandEnd",
    "HandKey",
    "HandShuffle",
    "HandStart",
    "HeadSignature",
    "Join",
    "Leave",
    "Pause",
    "Refuse",
    "Resume",
    "Reveal",
    "RulingEnd",
    "RulingExtend",
    "RulingSitIn",
    "SeatAcceptance",
    "SeatStack",
    "SeatedPlayer",
    "SequencerChange",
    "SitIn",
    "TableStop",
    "TimeBank",
    "Timeout",
    "TradeGive",
    "TradedCard",
    "VoteRecord",
    "add_plain",
    "votes_of",
]
