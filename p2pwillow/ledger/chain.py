"""The hash chain: an append-only `Ledger`, seating, sequencers, equivocation (SPEC 6.5-6.9).

Pure; no I/O (transcript bytes in and out; the driver reads and writes files). The ledger
checks signatures, the chain and the seating; it knows no poker rules and checks no proofs.
"""

from __future__ import annotations

import dataclasses
import itertools
from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from p2pwillow.ledger.entry import GENESIS_PREV, Entry, decode_entry
from p2pwillow.ledger.errors import LocalProtocolError, Reason, RemoteProtocolError
from p2pwillow.ledger.identity import safety_code
from p2pwillow.ledger.kinds import (
    Abort,
    Admit,
    Equivocation,
    FalseClaim,
    GameEnd,
    Genesis,
    HandEnd,
    HandStart,
    HeadSignature,
    Join,
    Leave,
    Refuse,
    SeatAcceptance,
    SequencerChange,
    TableStop,
    Timeout,
)

SETUP_KINDS = frozenset(
    {Genesis.KIND, SeatAcceptance.KIND, Join.KIND, Admit.KIND, Refuse.KIND, Leave.KIND}
)
"""Seating: a player may join or leave before the first hand too (SPEC 6.6)."""
"""The only kinds allowed in hand 0, before the first hand starts (SPEC 6.6)."""
HAND_ENDINGS = (HandEnd, Abort)
CLAIMS = (Timeout, Abort, SequencerChange)
"""The remedies a player may refuse as a false claim (SPEC 7.9)."""


def _fail(reason: Reason, detail: str, entry: Entry) -> RemoteProtocolError:
    return RemoteProtocolError(reason, detail, seq=entry.seq, kind=entry.kind, author=entry.author)


def find_equivocation(
    first: Entry, second: Entry, sequencer: int, key: bytes
) -> Equivocation | None:
    """The proof that seat `sequencer` (identity `key`) countersigned two different entries with
    the same seq in the same game, or None if these two entries prove nothing (SPEC 6.8)."""
    if first.game != second.game or first.seq != second.seq:
        return None
    if first.sequencer_message() == second.sequencer_message():
        return None
    if not (first.verify_countersig(key) and second.verify_countersig(key)):
        return None
    return Equivocation(sequencer=sequencer, first=first, second=second)


@dataclass(frozen=True, slots=True)
class Admission:
    """A newcomer's admission (SPEC 6.6): open from its `join` until every seated player has
    admitted it, or one refused it."""

    seat: int
    """The newcomer's seat."""
    join: bytes
    """The hash of its `join` entry."""
    name: str
    identity_key: bytes
    admitted: frozenset[int] = frozenset()
    """The seats whose `admit` is in the chain."""

    def waiting(self, seated: Iterable[int]) -> tuple[int, ...]:
        """The seated players who have not answered yet, in table order."""
        return tuple(s for s in sorted(seated) if s not in self.admitted)


def next_seat_clockwise(seats: Iterable[int], after: int) -> int:
    """The first seat after `after` going clockwise (upwards, wrapping) among `seats`."""
    ordered = sorted(set(seats) - {after})
    if not ordered:
        return after
    later = [s for s in ordered if s > after]
    return later[0] if later else ordered[0]


def _voters(claim: Entry) -> set[int]:
    """The seats whose votes a remedy carries."""
    votes = getattr(claim.body, "votes", ())
    return {v.voter for v in votes}


class _Digests:
    """Every entry's 32-byte hash, packed in one bytearray: 32 bytes an entry where a list of
    bytes objects takes about 73. It is what a live peer keeps of every entry of its game
    (with its sequencer, one byte), so it sets how its memory grows (SPEC 8.4, "Flat
    memory")."""

    __slots__ = ("_data",)

    SIZE = 32

    def __init__(self) -> None:
        self._data = bytearray()

    def __len__(self) -> int:
        return len(self._data) // self.SIZE

    def __getitem__(self, seq: int) -> bytes:
        n = len(self)
        if seq < 0:
            seq += n
        if not 0 <= seq < n:
            raise IndexError(seq)
        at = seq * self.SIZE
        return bytes(self._data[at : at + self.SIZE])

    def append(self, digest: bytes) -> None:
        if len(digest) != self.SIZE:
            raise ValueError(f"an entry hash is {self.SIZE} bytes, not {len(digest)}")
        self._data += digest


class Ledger:
    """One game's append-only chain of entries and what it implies for the next one.

    Tracks the head (seq and hash), the seated identities (genesis, seat, join, leave), the
    current hand and its sequencer. `check_next` raises RemoteProtocolError naming why an entry
    cannot come next; `append` checks and then appends.
    """

    __slots__ = (
        "_admission",
        "_base",
        "_counters",
        "_departed",
        "_ended_at",
        "_ended_by",
        "_entries",
        "_game",
        "_game_ended",
        "_genesis",
        "_hand",
        "_hand_first",
        "_hand_hashes",
        "_hand_seats",
        "_hand_sequencers",
        "_hashes",
        "_head_signers",
        "_keeps_entries",
        "_read",
        "_refusals",
        "_refused",
        "_roster",
        "_seat_changes",
        "_seated",
        "_sequencer",
        "_sequencers",
        "_signers",
        "_stopped",
        "_stored",
    )

    def __init__(self, game: bytes | None = None) -> None:
        """An empty ledger; if `game` is given, only that game's genesis is accepted."""
        self._game = game
        self._entries: list[Entry] = []
        """The entries held: seq `_base` on."""
        self._base = 0
        self._genesis: Entry | None = None
        self._read: Callable[[int, int], Sequence[Entry]] | None = None
        """Reads entries start..stop back from the caller's store (`keep_from_store`)."""
        self._stored = 0
        """Entries below this seq are in the caller's store."""
        self._seat_changes: list[tuple[int, int, bytes | None]] = []
        """(seq, seat, identity key or None) of every join and leave: the roster at any seq."""
        self._hashes = _Digests()
        self._sequencers = array("b")
        """seq -> the seat that countersigned it (a seat fits a signed byte)"""
        self._roster: dict[int, bytes] = {}
        self._seated: set[int] = set()
        self._hand = 0
        self._hand_seats: tuple[int, ...] = ()
        self._sequencer = -1
        self._ended_by: bytes | None = None
        self._ended_at = -1
        self._head_signers: set[int] = set()
        self._keeps_entries = True
        self._counters: dict[bytes, int] = {}
        """identity key -> the last counter of its entries in the chain (SPEC 6.5)"""
        self._departed: dict[int, bytes] = {}
        """seat -> the identity key of the player that last left it (or was refused)"""
        self._admission: Admission | None = None
        """The newcomer whose admission is open (SPEC 6.6), if one is."""
        self._refused: dict[bytes, tuple[int, str]] = {}
        """identity key -> the seat that last refused it as a newcomer, and why"""
        self._refusals: dict[bytes, tuple[int, str]] = {}
        """join hash -> the seat that refused that newcomer, and why"""
        self._hand_hashes: dict[bytes, int] = {}
        """hash -> seq of every entry of the current hand (hand 0: from the genesis on)"""
        self._hand_first = 0
        self._game_ended = False
        self._stopped = False
        self._hand_sequencers: dict[int, int] = {}
        """seq -> the seat that sequences the entry after it, for every entry of the current
        hand (a refused claim names the place it was made for, SPEC 7.9)"""
        self._signers: tuple[int, ...] = ()
        """Who signs the head now: the players of the hand that ended, or the seated players
        once the game has ended."""

    def keep_no_entries(self) -> None:
        """From now on hold only the genesis entry and every entry's hash and sequencer, not
        the entries: for an observer that replays a transcript once (SPEC 7.6), whose memory
        then stays flat in the game's length. Everything the checks of the next entry read is
        kept; `entries`, indexing past the genesis, `conflict` and `prefix` raise
        LocalProtocolError afterwards."""
        self._keeps_entries = False
        self._base = len(self._hashes)
        self._entries.clear()

    def keep_from_store(self, stored: int, read: Callable[[int, int], Sequence[Entry]]) -> None:
        """The entries below seq `stored` are in the caller's store, and `read(start, stop)`
        reads them back: from now on the ledger holds the genesis and the entries from the
        current hand's start on (or from `stored`, if lower), and reads older ones back when
        asked for them (a cut, a newcomer's seat taken, a conflict). A live peer's memory thus
        stays flat in the game's length (SPEC 8.4, "Flat memory")."""
        self._read = read
        self._stored = max(self._stored, min(stored, len(self._hashes)))
        self._drop()

    def _drop(self) -> None:
        if self._read is None or not self._keeps_entries:
            return
        keep_from = min(self._stored, self._hand_first)
        if keep_from > self._base:
            del self._entries[: keep_from - self._base]
            self._base = keep_from

    def _held(self) -> list[Entry]:
        """Every entry: those held, after those read back from the store."""
        if not self._keeps_entries:
            raise LocalProtocolError("this ledger keeps no entries (keep_no_entries)")
        if self._base == 0:
            return self._entries
        return [*self._older(0, self._base), *self._entries]

    def _older(self, start: int, stop: int) -> Sequence[Entry]:
        assert self._read is not None
        older = self._read(start, stop)
        if len(older) != stop - start or any(
            e.hash != self._hashes[e.seq] for e in (older[0], older[-1]) if older
        ):
            raise LocalProtocolError(f"the store does not hold entries {start} to {stop - 1}")
        return older

    @property
    def held(self) -> int:
        """How many entries the ledger holds in memory (the genesis aside)."""
        return len(self._entries) - (1 if self._base == 0 and self._entries else 0)

    @property
    def hand_entries(self) -> Sequence[Entry]:
        """The entries of the current hand (from its hand_start; in hand 0, from the genesis)."""
        if not self._keeps_entries:
            raise LocalProtocolError("this ledger keeps no entries (keep_no_entries)")
        first = self._hand_first
        if first < self._base:
            return (*self._older(first, self._base), *self._entries)
        return tuple(self._entries[first - self._base :])

    # --- what the ledger holds -------------------------------------------------------------

    @property
    def game(self) -> bytes | None:
        return self._game

    @property
    def entries(self) -> Sequence[Entry]:
        return tuple(self._held())

    def __len__(self) -> int:
        return len(self._hashes)

    def __getitem__(self, seq: int) -> Entry:
        if seq == 0 and self._genesis is not None:
            return self._genesis
        if not self._keeps_entries:
            raise LocalProtocolError("this ledger keeps no entries (keep_no_entries)")
        if seq < 0:
            seq += len(self._hashes)
        if not 0 <= seq < len(self._hashes):
            raise IndexError(seq)
        if seq >= self._base:
            return self._entries[seq - self._base]
        return self._older(seq, seq + 1)[0]

    @property
    def head_seq(self) -> int:
        """The seq of the last entry; -1 when empty."""
        return len(self._hashes) - 1

    @property
    def head_hash(self) -> bytes:
        """The hash of the last entry; 32 zero bytes when empty (the genesis `prev`)."""
        return self._hashes[-1] if len(self._hashes) else GENESIS_PREV

    def hash_of(self, seq: int) -> bytes:
        return self._hashes[seq]

    def sequencer_of(self, seq: int) -> int:
        """The seat that countersigned entry `seq`, as the ledger expected it."""
        return self._sequencers[seq]

    @property
    def genesis(self) -> Genesis | None:
        if self._genesis is None:
            return None
        body = self._genesis.body
        assert isinstance(body, Genesis)
        return body

    @property
    def identities(self) -> Mapping[int, bytes]:
        """The seats at the table now and their identity keys."""
        return MappingProxyType(dict(self._roster))

    @property
    def seated(self) -> frozenset[int]:
        """Genesis seats whose seat acceptance is in the ledger, and seats that joined."""
        return frozenset(self._seated)

    @property
    def hand(self) -> int:
        """The current hand number (0 while seating)."""
        return self._hand

    @property
    def hand_seats(self) -> tuple[int, ...]:
        """The seats in the current hand (the genesis players while seating)."""
        return self._hand_seats

    @property
    def sequencer(self) -> int:
        """The seat sequencing now: the genesis author in hand 0, else the hand's dealer (or
        the seat that took over after a sequencer change, an equivocation or the sequencer's
        leave); -1 when empty. It countersigns the next entry, a `hand_start` included."""
        return self._sequencer

    def last_counter(self, key: bytes) -> int:
        """The counter of the last entry made by identity `key`, -1 if it made none."""
        return self._counters.get(key, -1)

    def departed(self, seat: int) -> bytes | None:
        """The identity key of the player that last left `seat` (its `leave`), None if no
        player has left it."""
        return self._departed.get(seat)

    @property
    def admission(self) -> Admission | None:
        """The newcomer whose admission is open now (SPEC 6.6): no hand starts and nobody else
        joins until every seated player has admitted it or one has refused it."""
        return self._admission

    def refused(self, identity_key: bytes) -> tuple[int, str] | None:
        """The seat that last refused identity `identity_key` as a newcomer and its reason,
        or None if none did (SPEC 6.6)."""
        return self._refused.get(identity_key)

    def refusal_of(self, join: bytes) -> tuple[int, str] | None:
        """The seat that refused the newcomer of the `join` with hash `join`, and why; None if
        nobody did (SPEC 6.6)."""
        return self._refusals.get(join)

    def seq_of_seen(self, digest: bytes) -> int | None:
        """The seq of the entry of the current hand with hash `digest`, or None."""
        return self._hand_hashes.get(digest)

    @property
    def hand_ended_by(self) -> bytes | None:
        """The hash of the hand_end or abort that ended the current hand, or of the game_end
        that ended the game, if any: the head the players sign."""
        return self._ended_by

    @property
    def signers(self) -> tuple[int, ...]:
        """Who signs `hand_ended_by`: the hand's players, or the seated players after a
        game_end (SPEC 6.6)."""
        return self._signers

    @property
    def game_ended(self) -> bool:
        """A game_end (or a table_stop) is in the chain: no hand starts again (SPEC 6.6)."""
        return self._game_ended

    @property
    def stopped(self) -> bool:
        """A table_stop ends the chain: nothing follows it (SPEC 7.9)."""
        return self._stopped

    def safety_code(self) -> str:
        """The safety code of the table as now seated (SPEC 6.7)."""
        if self._game is None:
            raise ValueError("no genesis yet")
        return safety_code(self._game, self._roster)

    def prefix(self, length: int) -> Ledger:
        """A new ledger holding the first `length` entries (to cut a forked tail, SPEC 6.8)."""
        ledger = Ledger(self._game)
        for entry, sequencer in zip(self._held()[:length], self._sequencers, strict=False):
            ledger.append(entry, sequencer_seat=sequencer)
        return ledger

    # --- checks ----------------------------------------------------------------------------

    def expected_sequencer(self, entry: Entry) -> int:
        """Who must countersign `entry` if it comes next (SPEC 6.6, 6.8)."""
        body = entry.body
        if isinstance(body, Genesis):
            return entry.author
        if isinstance(body, Equivocation):
            return self.successor(self._sequencer)
        if isinstance(body, SequencerChange | TableStop):
            return entry.author
        return self._sequencer

    @property
    def hand_start_seq(self) -> int:
        """The seq of the current hand's first entry (0 in hand 0)."""
        return self._hand_first

    @property
    def ring(self) -> tuple[int, ...]:
        """The seats sequencing may move to, clockwise: the current (or last) hand's players
        that still hold a seat (the genesis players in hand 0)."""
        return tuple(s for s in self._hand_seats if s in self._roster)

    def successor(self, after: int) -> int:
        """The seat that takes over sequencing from `after` (SPEC 6.6): the next clockwise in
        the ring."""
        return next_seat_clockwise(self.ring, after)

    def check_next(
        self,
        entry: Entry,
        identities: Mapping[int, bytes] | None = None,
        sequencer_seat: int | None = None,
        *,
        author_signed_here: bool = False,
        countersigned_here: bool = False,
    ) -> None:
        """Raise RemoteProtocolError unless `entry` may come next in this chain.

        Checks the game id, seq = head + 1, prev = head hash, the hand number and seating
        rules, the author's signature and the sequencer's countersignature. `identities`
        (seat -> raw Ed25519 key) and `sequencer_seat` default to what the ledger has seen.
        `author_signed_here` / `countersigned_here` say that the caller has just made that
        signature itself with the seat's key: it is not verified again (SPEC 6.5); an entry
        received from anyone, even one naming the caller's seat, is verified in full.
        """
        if self._game is not None and entry.game != self._game:
            raise _fail(Reason.WRONG_GAME, "entry belongs to another game", entry)
        if entry.seq != self.head_seq + 1:
            raise _fail(Reason.WRONG_SEQ, f"expected seq {self.head_seq + 1}", entry)
        if entry.prev != self.head_hash:
            raise _fail(Reason.WRONG_PREV, "prev is not the hash of the head entry", entry)
        roster = self._roster if identities is None else identities
        body = entry.body
        if isinstance(body, Genesis):
            roster = self._check_genesis(entry, body)
        else:
            self._check_structure(entry, roster)
        author_key = _author_key(entry, roster)
        if author_key is None:
            raise _fail(Reason.UNKNOWN_AUTHOR, "the author holds no seat", entry)
        if not author_signed_here and not entry.verify_author(author_key):
            raise _fail(Reason.BAD_SIGNATURE, "the author's signature does not verify", entry)
        sequencer = self.expected_sequencer(entry) if sequencer_seat is None else sequencer_seat
        sequencer_key = roster.get(sequencer)
        if sequencer_key is None:
            raise _fail(Reason.BAD_COUNTERSIGNATURE, f"sequencer {sequencer} holds no seat", entry)
        if not countersigned_here and not entry.verify_countersig(sequencer_key):
            raise _fail(
                Reason.BAD_COUNTERSIGNATURE,
                f"the countersignature of sequencer {sequencer} does not verify",
                entry,
            )
        last = self._counters.get(author_key, -1)
        if entry.counter <= last:
            raise _fail(
                Reason.REPLAYED,
                f"counter {entry.counter} is not above {last}, this identity's last",
                entry,
            )
        self._check_seen(entry)
        if isinstance(body, Equivocation):
            self._check_equivocation(entry, body, roster)
        elif isinstance(body, TableStop):
            if body.claim.seq != entry.seq or body.claim.prev != entry.prev:
                raise _fail(Reason.BAD_CLAIM, "a table_stop takes the place of its claim", entry)
            if entry.author == body.claim.author or entry.author in _voters(body.claim):
                raise _fail(Reason.BAD_CLAIM, "a claim's own signer cannot refuse it", entry)
            self._check_claim(entry, body.claim, roster)
        elif isinstance(body, FalseClaim):
            claim = body.claim
            if not 0 < claim.seq <= self.head_seq or self._hashes[claim.seq] == claim.hash:
                raise _fail(Reason.BAD_CLAIM, "the claim is not one the chain left out", entry)
            self._check_claim(entry, claim, roster)

    def _check_seen(self, entry: Entry) -> None:
        """SPEC 6.5: an entry follows from a head of the current hand (a `hand_start` from a
        head of the hand it follows); a genesis from the empty chain; a head signature from the
        head it signs or a later one."""
        body = entry.body
        if isinstance(body, Genesis):
            if entry.seen != entry.prev:
                raise _fail(Reason.WRONG_SEEN, f"a {entry.kind} is made at its prev", entry)
            return
        at = self._hand_hashes.get(entry.seen)
        if at is None:
            raise _fail(Reason.WRONG_SEEN, "seen is no entry of the current hand", entry)
        if isinstance(body, HeadSignature) and at < self._ended_at:
            raise _fail(Reason.WRONG_SEEN, "seen is before the head it signs", entry)

    def _check_claim(self, entry: Entry, claim: Entry, roster: Mapping[int, bytes]) -> None:
        """SPEC 7.9: a refused claim is a remedy of this game and hand, made for a place right
        after an entry of the current hand, signed by its author and countersigned by the seat
        that sequenced at that place (by its author, for a sequencer change)."""
        if not isinstance(claim.body, CLAIMS) or claim.game != entry.game:
            raise _fail(Reason.BAD_CLAIM, "the claim is no remedy of this game", entry)
        at = self._hand_hashes.get(claim.prev)
        if claim.hand != self._hand or at is None or at != claim.seq - 1:
            raise _fail(Reason.BAD_CLAIM, "the claim is not made for a place in this hand", entry)
        key = roster.get(claim.author)
        if key is None or not claim.verify_author(key):
            raise _fail(Reason.BAD_CLAIM, "the claim's author signature does not verify", entry)
        if isinstance(claim.body, SequencerChange):
            sequencer = claim.author
        else:
            sequencer = self._hand_sequencers.get(at, self._sequencer)
        key = roster.get(sequencer)
        if key is None or not claim.verify_countersig(key):
            raise _fail(
                Reason.BAD_CLAIM,
                f"the claim is not countersigned by seat {sequencer}, its sequencer",
                entry,
            )

    def _check_genesis(self, entry: Entry, body: Genesis) -> dict[int, bytes]:
        if entry.seq != 0 or entry.hand != 0:
            raise _fail(Reason.BAD_SEATING, "genesis is entry 0 of hand 0", entry)
        if entry.author not in {p.seat for p in body.players}:
            raise _fail(Reason.BAD_SEATING, "the genesis author is not seated in it", entry)
        return body.identity_keys()

    def _check_structure(self, entry: Entry, roster: Mapping[int, bytes]) -> None:
        body = entry.body
        if entry.seq == 0:
            raise _fail(Reason.BAD_SEATING, "entry 0 must be the genesis", entry)
        if self._stopped:
            raise _fail(Reason.WRONG_HAND, "the table stopped: nothing follows", entry)
        if isinstance(body, HandStart):
            if self._game_ended:
                raise _fail(Reason.WRONG_HAND, "the game has ended", entry)
            if entry.hand != self._hand + 1:
                raise _fail(Reason.WRONG_HAND, f"hand_start must open hand {self._hand + 1}", entry)
            if body.dealer != entry.author:
                raise _fail(Reason.BAD_SEATING, "the dealer must author hand_start", entry)
            if self._hand == 0 and self._seated != set(self._roster):
                missing = sorted(set(self._roster) - self._seated)
                raise _fail(Reason.BAD_SEATING, f"seats {missing} have not accepted", entry)
            outside = sorted({p.seat for p in body.players} - set(roster))
            if outside:
                raise _fail(Reason.BAD_SEATING, f"seats {outside} are not at the table", entry)
            admission = self._admission
            if admission is not None:
                waiting = list(admission.waiting(roster))
                raise _fail(
                    Reason.BAD_SEATING,
                    f"seats {waiting} have not answered seat {admission.seat}'s admission",
                    entry,
                )
            return
        if entry.hand != self._hand:
            raise _fail(Reason.WRONG_HAND, f"expected hand {self._hand}", entry)
        if self._hand == 0 and entry.kind not in SETUP_KINDS:
            raise _fail(Reason.WRONG_HAND, "no hand has started", entry)
        genesis_hash = self._hashes[0].hex()
        if isinstance(body, SeatAcceptance):
            genesis = self.genesis
            assert genesis is not None
            if self._hand != 0 or entry.author not in {p.seat for p in genesis.players}:
                raise _fail(Reason.BAD_SEATING, "only genesis players accept, in hand 0", entry)
            if entry.author in self._seated:
                raise _fail(Reason.BAD_SEATING, "this seat has already accepted", entry)
            if body.genesis != genesis_hash:
                raise _fail(Reason.BAD_SEATING, "accepts another genesis", entry)
        elif isinstance(body, Join):
            if entry.author in roster:
                raise _fail(Reason.BAD_SEATING, "the seat is taken", entry)
            if bytes.fromhex(body.identity_key) in set(roster.values()):
                raise _fail(Reason.BAD_SEATING, "this identity already holds a seat", entry)
            if body.genesis != genesis_hash:
                raise _fail(Reason.BAD_SEATING, "joins another game", entry)
            if self._admission is not None:
                raise _fail(
                    Reason.BAD_SEATING,
                    f"seat {self._admission.seat}'s admission is open: one newcomer at a time",
                    entry,
                )
        elif isinstance(body, Admit | Refuse):
            admission = self._admission
            if admission is None:
                raise _fail(Reason.BAD_SEATING, "no newcomer's admission is open", entry)
            if body.seat != admission.seat or body.join != admission.join.hex():
                raise _fail(
                    Reason.BAD_SEATING,
                    f"answers another join than seat {admission.seat}'s, which is open",
                    entry,
                )
            if isinstance(body, Admit) and entry.author in admission.admitted:
                raise _fail(Reason.BAD_SEATING, "this seat has admitted the newcomer", entry)
        elif isinstance(body, SequencerChange):
            self._check_change(entry, body)
        elif isinstance(body, HeadSignature):
            if entry.author not in self._signers:
                raise _fail(Reason.WRONG_HAND, "the author does not sign this head", entry)
            if self._ended_by is None or body.head != self._ended_by.hex():
                raise _fail(
                    Reason.WRONG_HAND, "signs a head other than the hand's ending entry", entry
                )
            if entry.author in self._head_signers:
                raise _fail(Reason.WRONG_HAND, "this seat has already signed the head", entry)

    def _check_change(self, entry: Entry, body: SequencerChange) -> None:
        """SPEC 6.6: the chain of replaced seats starts at the current sequencer and goes
        clockwise through the ring; the author is the next seat after it."""
        ring = self.ring
        replaced = tuple(body.replaced)
        if replaced[0] != self._sequencer:
            raise _fail(Reason.BAD_SEATING, "the first seat replaced is not sequencing", entry)
        for before, after in itertools.pairwise(replaced):
            if after not in ring or self.successor(before) != after:
                raise _fail(
                    Reason.BAD_SEATING, f"seat {after} does not follow seat {before}", entry
                )
        if entry.author in replaced or entry.author != self.successor(replaced[-1]):
            raise _fail(
                Reason.BAD_SEATING,
                f"seat {self.successor(replaced[-1])} takes over after seat {replaced[-1]}",
                entry,
            )

    def _check_equivocation(
        self, entry: Entry, body: Equivocation, roster: Mapping[int, bytes]
    ) -> None:
        if body.first.seq != entry.seq or body.second.seq != entry.seq:
            raise _fail(Reason.NOT_EQUIVOCATION, "the proof must take the fork's seq", entry)
        if body.first.game != entry.game or body.second.game != entry.game:
            raise _fail(Reason.NOT_EQUIVOCATION, "entries of another game", entry)
        if body.sequencer != self._sequencer:
            raise _fail(Reason.NOT_EQUIVOCATION, "blames a seat that is not sequencing", entry)
        key = roster.get(body.sequencer)
        if key is None or find_equivocation(body.first, body.second, body.sequencer, key) is None:
            raise _fail(
                Reason.NOT_EQUIVOCATION,
                "the two entries are not different and both countersigned by the sequencer",
                entry,
            )

    # --- growing -----------------------------------------------------------------------------

    def append(
        self,
        entry: Entry,
        identities: Mapping[int, bytes] | None = None,
        sequencer_seat: int | None = None,
        *,
        checked: bool = False,
    ) -> None:
        """check_next, then make `entry` the new head. `checked=True` skips check_next for an
        entry the caller has just passed through it with the same arguments."""
        if not checked:
            self.check_next(entry, identities, sequencer_seat)
        sequencer = self.expected_sequencer(entry) if sequencer_seat is None else sequencer_seat
        countersigner = sequencer
        body = entry.body
        digest = entry.hash
        roster = body.identity_keys() if isinstance(body, Genesis) else self._roster
        key = _author_key(entry, roster)
        assert key is not None
        self._counters[key] = entry.counter
        if isinstance(body, Genesis | HandStart):
            self._hand_hashes = {}
            self._hand_sequencers = {}
            self._hand_first = len(self._hashes)
        self._hand_hashes[digest] = len(self._hashes)
        if isinstance(body, Genesis):
            self._game = entry.game
            self._roster = body.identity_keys()
            self._hand_seats = tuple(sorted(self._roster))
        elif isinstance(body, SeatAcceptance):
            self._seated.add(entry.author)
        elif isinstance(body, Join):
            self._roster[entry.author] = bytes.fromhex(body.identity_key)
            self._seated.add(entry.author)
            self._seat_changes.append((len(self._hashes), entry.author, self._roster[entry.author]))
            # SPEC 6.6: the newcomer plays no hand before everyone seated has admitted it
            self._admission = Admission(entry.author, digest, body.name, key)
        elif isinstance(body, Admit):
            self._admitted(entry.author)
        elif isinstance(body, Refuse):
            # SPEC 6.6: the newcomer's seat is free again, as if it had left
            newcomer = self._roster.pop(body.seat)
            self._departed[body.seat] = newcomer
            self._seated.discard(body.seat)
            self._seat_changes.append((len(self._hashes), body.seat, None))
            self._refused[newcomer] = (entry.author, body.reason)
            self._refusals[bytes.fromhex(body.join)] = (entry.author, body.reason)
            self._admission = None
        elif isinstance(body, Leave):
            self._roster.pop(entry.author, None)
            self._seat_changes.append((len(self._hashes), entry.author, None))
            self._departed[entry.author] = key
            self._seated.discard(entry.author)
            if self._admission is not None:
                if self._admission.seat == entry.author:
                    self._admission = None  # the newcomer went: nothing to admit
                else:
                    self._admitted(None)  # the leaver owes no answer any more
            if entry.author == sequencer:
                # SPEC 6.6: a sequencer that leaves hands sequencing to the seat that takes
                # over from it (the seated players' next clockwise if none of the ring is left)
                sequencer = next_seat_clockwise(self.ring or self._roster, entry.author)
        elif isinstance(body, HandStart):
            self._hand = entry.hand
            self._hand_seats = tuple(p.seat for p in body.players)
            self._ended_by = None
            self._head_signers = set()
        elif isinstance(body, HAND_ENDINGS):
            self._ended_by = digest
            self._ended_at = len(self._hashes)
            self._head_signers = set()
            self._signers = self._hand_seats
        elif isinstance(body, GameEnd):
            self._ended_by = digest
            self._ended_at = len(self._hashes)
            self._head_signers = set()
            self._signers = tuple(sorted(self._roster))
            self._game_ended = True
        elif isinstance(body, TableStop):
            self._ended_by = digest
            self._ended_at = len(self._hashes)
            self._head_signers = set()
            self._signers = ()
            self._game_ended = self._stopped = True
        elif isinstance(body, HeadSignature):
            self._head_signers.add(entry.author)
        if isinstance(body, Genesis):
            self._genesis = entry
        if self._keeps_entries:
            self._entries.append(entry)
        else:
            self._base += 1
        self._hashes.append(digest)
        self._sequencers.append(countersigner)
        self._drop()
        # SPEC 6.6: the new hand's dealer sequences the hand it opens
        self._sequencer = body.dealer if isinstance(body, HandStart) else sequencer
        self._hand_sequencers[len(self._hashes) - 1] = self._sequencer

    def _admitted(self, seat: int | None) -> None:
        """`seat` admitted the newcomer (None: a seat that owed an answer left); the admission
        closes once every seated player has admitted it (SPEC 6.6)."""
        admission = self._admission
        assert admission is not None
        admitted = admission.admitted | ({seat} if seat is not None else set())
        if admitted >= set(self._roster):
            self._admission = None
        else:
            self._admission = dataclasses.replace(admission, admitted=frozenset(admitted))

    def conflict(self, entry: Entry) -> Equivocation | None:
        """If `entry` (already held or older seq) and the held entry with its seq were both
        countersigned by that seq's sequencer yet differ, the proof of equivocation."""
        if not 0 <= entry.seq <= self.head_seq or entry.game != self._game:
            return None
        held = self[entry.seq]
        sequencer = self._sequencers[entry.seq]
        key = self._roster_key_at(sequencer, entry.seq)
        if key is None:
            return None
        return find_equivocation(held, entry, sequencer, key)

    def _roster_key_at(self, seat: int, seq: int) -> bytes | None:
        # The key the seat held when entry seq was made: replay joins and leaves up to it.
        genesis = self.genesis
        assert genesis is not None
        keys = genesis.identity_keys()
        for at, changed, key in self._seat_changes:
            if at > seq:
                break
            if key is None:
                keys.pop(changed, None)
            else:
                keys[changed] = key
        return keys.get(seat)


def _author_key(entry: Entry, roster: Mapping[int, bytes]) -> bytes | None:
    """The identity key the author signs with: the one its `join` names, else its seat's."""
    body = entry.body
    return bytes.fromhex(body.identity_key) if isinstance(body, Join) else roster.get(entry.author)


# --- the transcript file (SPEC 6.9) -----------------------------------------------------------


def encode_transcript(entries: Iterable[Entry]) -> bytes:
    """JSON Lines: every entry's canonical encoding followed by one LF."""
    return b"".join(entry.encode() + b"\n" for entry in entries)


def decode_transcript(data: bytes) -> list[Entry]:
    """Split a transcript into entries; RemoteProtocolError names the first bad line."""
    if not data:
        raise RemoteProtocolError(Reason.MALFORMED, "empty transcript")
    if not data.endswith(b"\n"):
        raise RemoteProtocolError(Reason.MALFORMED, "the last line lacks its LF terminator")
    entries = []
    for number, line in enumerate(data[:-1].split(b"\n"), start=1):
        try:
            entries.append(decode_entry(line))
        except RemoteProtocolError as exc:
            raise RemoteProtocolError(
                exc.reason,
                f"line {number}: {exc.detail}",
                seq=exc.seq,
                kind=exc.kind,
                author=exc.author,
            ) from None
    return entries


def replay(entries: Iterable[Entry], game: bytes | None = None) -> Ledger:
    """A ledger built from entries with the ledger's own identities and sequencers."""
    ledger = Ledger(game)
    for entry in entries:
        ledger.append(entry)
    return ledger


__all__ = [
    "Admission",
    "Ledger",
    "decode_transcript",
    "encode_transcript",
    "find_equivocation",
    "next_seat_clockwise",
    "replay",
]
