"""What a session hands back: entries to send, events for its user, and hand summaries.

Pure; no I/O. Session events are frozen values named in the past tense, like the rules' events,
which a session passes on unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from p2pwillow.cards import Card
from p2pwillow.ledger.entry import AuthoredEntry, Entry
from p2pwillow.ledger.errors import Reason
from p2pwillow.ledger.vote import Vote
from p2pwillow.rules import Event as RulesEvent
from p2pwillow.session.refusal import Refusal


@dataclass(frozen=True, slots=True)
class HandStarted:
    hand: int
    dealer: int
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CardsDealt:
    """Private: the local player's hand after the deal, by hand position."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CardsReceived:
    """Private: the cards the local player got in a trade, from `giver`."""

    giver: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class TradeSummary:
    seats: tuple[int, int]
    """(offerer, acceptor)."""
    cards: int


@dataclass(frozen=True, slots=True)
class PotSummary:
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    high: tuple[int, ...] = ()
    """In a split-pot game (SPEC 3.16): who won the high side, and the low side."""
    low: tuple[int, ...] = ()
    carried: int = 0
    """Chips of this pot nobody won: they carry over to the next hand."""


@dataclass(frozen=True, slots=True)
class ClaimSummary:
    """A remedy a player refused as false, as the transcript records it (SPEC 7.9): its kind,
    the seats it claimed stalled, and who signed it."""

    kind: str
    seats: tuple[int, ...]
    signers: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandSummary:
    """The public record of one hand, as `willow verify` reports it."""

    number: int
    dealer: int
    seats: tuple[int, ...]
    deal_size: int | None
    """Cards dealt to each player (None before the announcement)."""
    game: str | None
    """The game announced, by its name in the catalogue (None before the announcement)."""
    trades: tuple[TradeSummary, ...]
    shown: tuple[tuple[int, tuple[Card, ...]], ...]
    """(seat, face-up cards in the order turned) for every seat that turned a card."""
    folded: tuple[int, ...]
    pots: tuple[PotSummary, ...]
    chips: tuple[tuple[int, int], ...]
    """(seat, net chip change) for every seat in the hand."""
    proofs: tuple[tuple[str, int], ...]
    """(proof kind, how many were verified), sorted by kind."""
    hidden: int
    """Cards of the deck never opened: unturned layout cards, discards and the undealt stub."""
    aborted: bool = False
    blamed: tuple[int, ...] = ()
    reason: str = ""
    signed: bool = False
    """Every player of the hand signed the head that ended it."""
    false_claims: tuple[ClaimSummary, ...] = ()
    """Remedies refused as false in this hand, recorded in the chain (SPEC 7.9)."""
    stopped: tuple[int, ...] = ()
    """The table stopped in this hand: the signers of the claim it stopped on (SPEC 7.9)."""
    declared: tuple[tuple[int, str], ...] = ()
    """A split-pot game's declarations as they opened: (seat, low, high or pig) (SPEC 3.16)."""
    carried_in: int = 0
    """Chips carried into this hand's main pot from the last hand nobody won (SPEC 3.16)."""
    carried: int = 0
    """Chips this hand carries over to the next."""


@dataclass(frozen=True, slots=True)
class HandClosed:
    """A hand ended (hand_end or abort applied); `summary.signed` is still False."""

    summary: HandSummary


@dataclass(frozen=True, slots=True)
class EntryRefused:
    """The sequencer refused `author`'s entry of `kind` (SPEC 7.1): at the sequencer when it
    refuses, and at the author when the refusal of its pending decision arrives (the decision
    is dropped; the player decides again from the state it now sees)."""

    author: int
    kind: str
    reason: Reason
    detail: str


@dataclass(frozen=True, slots=True)
class ClaimRefused:
    """This player refused a remedy (SPEC 7.9): `signers` claimed that `seats` stalled, and
    this player saw otherwise (`why`). `stops`: no quorum is left without the signers, so this
    player stops the table (its `table_stop` follows)."""

    kind: str
    seats: tuple[int, ...]
    signers: tuple[int, ...]
    why: str
    stops: bool = False


@dataclass(frozen=True, slots=True)
class ChainCut:
    """The chain was cut back to before entry `seq` (SPEC 6.8, 7.5): an equivocation was proved,
    or a sequencer change took the place of what the replaced seat sequenced. A live node cuts
    its replication back too (`Replication.cut_back(seq)`)."""

    seq: int


@dataclass(frozen=True, slots=True)
class ClockNoted:
    """An entry about the clock was applied (SPEC 3.14): a draw on a time bank, a pause, a
    resume or one of the arbiter's rulings; who wrote it, the seat a ruling is about and the
    seconds it asks for, where it has them. The verifier lists them (SPEC 7.6)."""

    seq: int
    hand: int
    kind: str
    author: int
    seat: int | None
    seconds: int | None


SessionEvent = (
    RulesEvent
    | HandStarted
    | CardsDealt
    | CardsReceived
    | HandClosed
    | EntryRefused
    | ClaimRefused
    | ChainCut
    | ClockNoted
)


Outgoing = Entry | AuthoredEntry | Refusal | Vote
"""What a session sends."""

EVERY_PEER: Final = None
"""The destination of an item for every other peer of the table."""


def destination(item: Outgoing) -> int | None:
    """Where `item` goes (SPEC 7.1, 7.5): a `Refusal` to the seat of the author it refuses; an
    `Entry` (sequenced by this session), an `AuthoredEntry` (this seat's, or one it holds and
    sends again) and a `Vote` to every other peer, `EVERY_PEER`."""
    return item.author if isinstance(item, Refusal) else EVERY_PEER


@dataclass(frozen=True, slots=True)
class Output:
    """What one call into a session produced.

    `send` holds what to send, in the order made; `destination(item)` (and `addressed`) says
    where each item goes: a `Refusal` (made by this session as sequencer) to the seat
    `refusal.author`, everything else to every other peer, an `AuthoredEntry` included (every
    peer keeps what is not sequenced yet, SPEC 7.1). `events` are for the local user.
    """

    send: tuple[Outgoing, ...] = ()
    events: tuple[SessionEvent, ...] = ()

    def __add__(self, other: Output) -> Output:
        return Output(self.send + other.send, self.events + other.events)

    @property
    def addressed(self) -> tuple[tuple[Outgoing, int | None], ...]:
        """Each item of `send` with its destination: a seat, or None for every other peer."""
        return tuple((item, destination(item)) for item in self.send)


__all__ = [
    "EVERY_PEER",
    "CardsDealt",
    "CardsReceived",
    "ChainCut",
    "ClaimRefused",
    "ClaimSummary",
    "ClockNoted",
    "EntryRefused",
    "HandClosed",
    "HandStarted",
    "HandSummary",
    "Outgoing",
    "Output",
    "PotSummary",
    "SessionEvent",
    "TradeSummary",
    "destination",
]
