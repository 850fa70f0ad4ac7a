"""Keeping every peer's chain in step over a lossy network: acks, resends, catch-up, heartbeats,
liveness (SPEC 8.4).

Pure and sans-I/O, like aioquic's connection: `receive(frame, peer, now)` takes bytes from a
peer, `frames_to_send(now)` says what to send to whom, `get_timer()` says when to call
`handle_timer(now)`. No sockets, no clock, no randomness; the caller feeds a Session.
"""

# Theory of operation
# -------------------
# A `Replication` holds the local chain as the caller's Session applied it (`applied`, and
# `publish` for what the Session made), and for every peer: its acknowledged head, when it was
# last heard, what was pushed to it and when. It never checks an entry: a received entry waits
# in a reorder buffer until it is the next one, is handed to the caller (`EntryReceived`), and
# becomes part of the local chain only when the caller says the Session applied it. If the
# Session refused it, the caller says `rejected` and the next candidate for that seq (a second
# copy with another hash) is handed over instead.
#
# What repairs a loss (SPEC 8.4):
#   push       an entry the local Session made goes to every peer: at once to those the
#              caller names `urgent` (they owe a step now), to the others within PUSH_LATER
#              with what follows, or with the next entry urgent for them;
#   ack        entries applied from a peer's frames are answered with a `head` to that peer,
#              ACK_DELAY later, so that one acknowledges a burst, unless another frame
#              told it our head meanwhile (entries up to it, an authored entry made at it);
#   heartbeat  every peer gets our head about once a second (any frame that tells it counts);
#   resend     a peer that has not acknowledged what we pushed within RESEND_AFTER gets a
#              batch from its acknowledged head on;
#   catch-up   behind a head some peer reported, with no progress for CATCH_UP_AFTER, we ask
#              that peer for "entries after our head" (another peer on the next try); where
#              our chain parts from theirs below our head (`forked`), the entries at or below
#              it in the answers narrow the place down, asked for at once (at most every
#              PARTED_ASK_INTERVAL) until the peers' entry there comes as a conflict;
#   authored   our authored entries go to every peer until sequenced, withdrawn (refused) or
#              their hand is over; one the caller names a `first` peer for (the sequencer)
#              goes to that peer at once and to every peer from WITNESS_AFTER on, so that an
#              entry sequenced at once costs one frame, not one per peer; one from a peer
#              already in the next hand waits until our chain is in it too;
#   broadcast  opaque items (witness votes) go to every peer, resent with backoff until the
#              hand moves on.
# Liveness follows Zyre: present, evasive after EVASIVE_AFTER of silence, away after
# AWAY_AFTER. Frames that do not decode are counted per peer and change nothing else.

from __future__ import annotations

import enum
import hashlib
import math
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TypeAlias

from p2pwillow.ledger.entry import GENESIS_PREV, AuthoredEntry, Entry
from p2pwillow.ledger.errors import LocalProtocolError, RemoteProtocolError
from p2pwillow.ledger.kinds import HandStart
from p2pwillow.net.errors import WireError
from p2pwillow.net.wire import (
    MAX_BATCH,
    NO_HEAD_SEQ,
    AuthoredFrame,
    BroadcastFrame,
    CatchUpFrame,
    EntriesFrame,
    Frame,
    HeadFrame,
    HeartbeatFrame,
    HelloFrame,
    LobbyFrame,
    RefusalFrame,
    batch_entries,
    decode_frame,
    encode_frame,
)
from p2pwillow.session.refusal import Refusal

PeerId: TypeAlias = bytes
"""How the caller names a peer (the live node uses its CURVE key)."""
ReadEntries: TypeAlias = Callable[[int, int], Sequence[Entry]]
"""The caller's store: entries `start` up to (not including) `stop`, as many of them as it
holds from `start` on (fewer, or none, if it cannot read them now)."""

HEARTBEAT_INTERVAL = 1.0
RESEND_AFTER = 1.0
CATCH_UP_AFTER = 1.0
CATCH_UP_REPLY_INTERVAL = 0.1
"""At most one catch-up answer per peer this often: a peer asking in a loop costs little."""
PARTED_ASK_INTERVAL = 0.1
"""While looking for the place where the chains part, a catch-up goes out at once when what
came in says where to look next (a first refusal, an answer of the peer asked that narrows
the place down), but at most once this often (a peer answers no more often,
CATCH_UP_REPLY_INTERVAL)."""
PARTED_RETRY = 0.25
PARTED_RETRIES = 4
"""While the chains part, an ask that nothing has answered (the place did not narrow, the
chain did not move) is sent again, to the next peer ahead, PARTED_RETRY later instead of
CATCH_UP_AFTER, while fewer than this many asks went out since the chains were found to
part: a frame lost as a stopped peer's links come back costs a quarter of a second, not a
second."""
AUTHORED_RESEND = 1.0
WITNESS_AFTER = 0.25
"""An authored entry sent to its sequencer first goes to every peer (the witnesses, SPEC 7.1)
if it is not sequenced this long after: far below any action clock (at least 1 s, SPEC 3.1),
so the witnesses hold it long before their clock could ask."""
PUSH_LATER = 0.1
"""An entry that a peer does not need at once (it owes no step now) goes to it at most this
much later, with the others made meanwhile: one wake-up for several entries."""
ACK_DELAY = 0.5
"""An acknowledgement waits this long, so that the entries applied meanwhile share it: a
hand's entries come in bursts, and the acknowledgement only spares a resend (RESEND_AFTER,
twice this). Each one costs its sender and its receiver a wake-up."""
SEEN_BACK = 16
"""How far back from our head an authored entry's `seen` is looked for, to learn its author's
head from it."""
BROADCAST_BACKOFF = (1.0, 2.0, 4.0, 8.0)
EVASIVE_AFTER = 3.0
AWAY_AFTER = 10.0
REORDER_WINDOW = 512
"""Entries further than this ahead of the local head are dropped (catch-up brings them)."""
MAX_CANDIDATES = 2
"""Distinct entries kept per seq: enough to see an equivocation, too few to be flooded."""
MAX_HELD_AUTHORED = 64
"""Authored entries of the next hand held until the chain reaches it; more go up at once."""


class Liveness(enum.Enum):
    """How recently a peer was heard (SPEC 8.4; Zyre's evasive and expired)."""

    PRESENT = "present"
    EVASIVE = "evasive"
    AWAY = "away"


# --- events for the caller ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EntryReceived:
    """The next entry of the chain, from `peer`: apply it, then call `applied` (or `rejected`)."""

    peer: PeerId
    entry: Entry


@dataclass(frozen=True, slots=True)
class AuthoredReceived:
    """An authored entry from `peer` (each copy: a resend too)."""

    peer: PeerId
    entry: AuthoredEntry


@dataclass(frozen=True, slots=True)
class RefusalReceived:
    peer: PeerId
    refusal: Refusal


@dataclass(frozen=True, slots=True)
class BroadcastReceived:
    """A broadcast item (kind and payload) seen for the first time in its hand."""

    peer: PeerId
    item: BroadcastFrame


@dataclass(frozen=True, slots=True)
class LobbyReceived:
    """A hello or a lobby message: the replication passes these on untouched."""

    peer: PeerId
    frame: HelloFrame | LobbyFrame


@dataclass(frozen=True, slots=True)
class ConflictReceived:
    """`peer` sent an entry for a seq the local chain already holds, with another hash: either
    an equivocation (SPEC 6.8; check with ledger.find_equivocation) or a forgery."""

    peer: PeerId
    entry: Entry
    ours: Entry


@dataclass(frozen=True, slots=True)
class LivenessChanged:
    peer: PeerId
    liveness: Liveness


@dataclass(frozen=True, slots=True)
class BadFrame:
    """A frame from `peer` did not decode; `count` is that peer's total so far."""

    peer: PeerId
    error: WireError
    count: int


ReplicationEvent: TypeAlias = (
    EntryReceived
    | AuthoredReceived
    | RefusalReceived
    | BroadcastReceived
    | LobbyReceived
    | ConflictReceived
    | LivenessChanged
    | BadFrame
)
Outgoing: TypeAlias = Entry | AuthoredEntry | Refusal | BroadcastFrame


@dataclass(frozen=True, slots=True)
class PeerStatus:
    """What the replication knows of a peer, for screens and logs."""

    peer: PeerId
    liveness: Liveness
    head_seq: int
    head_hash: bytes
    last_heard: float | None
    bad_frames: int
    diverged: bool


# --- per-peer and per-item state ---------------------------------------------------------------


@dataclass(slots=True)
class _Peer:
    since: float
    """When the peer was added: silence is counted from here until it is first heard."""
    heard: float | None = None
    liveness: Liveness = Liveness.PRESENT
    head_seq: int = NO_HEAD_SEQ
    head_hash: bytes = GENESIS_PREV
    diverged: bool = False
    pushed_upto: int = NO_HEAD_SEQ
    pushed_at: float = 0.0
    deferred_from: int | None = None
    """The first entry held back from this peer (it owes nothing now), pushed at `deferred_at`
    or as soon as an entry is urgent for it."""
    deferred_at: float = 0.0
    heartbeat_at: float = 0.0
    ack_due: bool = False
    ack_at: float = 0.0
    """When the acknowledgement due goes out (applied entries wait ACK_DELAY to share one)."""
    catch_up_after: int | None = None
    replied_at: float = float("-inf")
    bad_frames: int = 0
    outbox: list[bytes] = field(default_factory=list)


@dataclass(slots=True)
class _Resent:
    """An authored entry or a broadcast item sent again until it is settled."""

    frame: bytes
    hand: int
    next_at: float
    attempt: int = 0
    to: frozenset[PeerId] | None = None
    """The peers it goes to; None: every peer."""


def _broadcast_id(item: BroadcastFrame) -> tuple[str, int, bytes]:
    return item.kind, item.hand, hashlib.sha256(item.payload).digest()


class Replication:
    """One peer's replication state. `chain` is what the local Session holds already (a
    resumed game's transcript); `peers` the peers to keep in step with."""

    def __init__(
        self, chain: Sequence[Entry] = (), peers: Iterable[PeerId] = (), now: float = 0.0
    ) -> None:
        self._chain: list[Entry] = []
        """The entries held in memory: seq `_base` on, up to the head."""
        self._base = 0
        self._read: ReadEntries | None = None
        self._stored = 0
        """Entries below this seq are in the caller's store (`keep_from_store`)."""
        self._hand_first = 0
        """The seq of the current hand's hand_start (0 before the first)."""
        self._peers: dict[PeerId, _Peer] = {}
        self._buffer: dict[int, dict[bytes, tuple[Entry, PeerId]]] = {}
        self._delivered_from: dict[int, PeerId] = {}
        self._events: deque[ReplicationEvent] = deque()
        self._fresh: list[Entry] = []
        """Entries made here and not pushed yet."""
        self._urgent: set[PeerId] | None = set()
        """The peers the fresh entries must reach at once (None: every peer)."""
        self._authored: dict[bytes, _Resent] = {}
        self._broadcasts: dict[tuple[str, int, bytes], _Resent] = {}
        self._seen_broadcasts: set[tuple[str, int, bytes]] = set()
        self._held_refusals: list[tuple[PeerId, Refusal]] = []
        self._held_authored: list[tuple[PeerId, AuthoredEntry]] = []
        self._once: list[bytes] = []
        """Frames for every peer, sent once (refusals)."""
        self._direct: list[tuple[PeerId, bytes, bytes]] = []
        """Frames for one peer, sent once (an authored entry to its sequencer, first), each
        with the head the entry was made at (its `seen`)."""
        self._progress_at = now
        self._asked: tuple[float, int, PeerId] | None = None
        """When the last catch-up went out, at which `_moves`, to whom."""
        self._ask_turn = 0
        self._moves = 0
        """How often the local chain changed (grew or was cut): an ask is answered when it moved."""
        self._parted: tuple[int, int] | None = None
        """While the chains part below our head (`forked`): (the highest seq where a peer's
        entry is ours, the lowest where it is not). The next catch-up asks so that its answer
        ends at the second; it goes out at once (at most every PARTED_ASK_INTERVAL) when
        `_parted_ask` is set."""
        self._parted_ask = False
        self._parted_tries = 0
        """Asks that went out while the chains part (PARTED_RETRIES)."""
        for entry in chain:
            self._append(entry)
        for peer in peers:
            self.add_peer(peer, now)

    # --- peers -----------------------------------------------------------------------------------

    def add_peer(self, peer: PeerId, now: float) -> None:
        """Keep `peer` in step from now on (nothing happens if it is known)."""
        if peer not in self._peers:
            self._peers[peer] = _Peer(since=now, heartbeat_at=now)

    def remove_peer(self, peer: PeerId) -> None:
        self._peers.pop(peer, None)

    @property
    def peers(self) -> tuple[PeerId, ...]:
        return tuple(self._peers)

    @property
    def peers_head(self) -> int:
        """The highest head seq any peer reported; -1 if none did."""
        return max((p.head_seq for p in self._peers.values()), default=-1)

    def status(self, peer: PeerId) -> PeerStatus:
        p = self._peers[peer]
        return PeerStatus(
            peer, p.liveness, p.head_seq, p.head_hash, p.heard, p.bad_frames, p.diverged
        )

    # --- the local chain -------------------------------------------------------------------------

    @property
    def head_seq(self) -> int:
        return self._base + len(self._chain) - 1

    @property
    def head_hash(self) -> bytes:
        return self._chain[-1].hash if self._chain else GENESIS_PREV

    @property
    def chain(self) -> tuple[Entry, ...]:
        """The whole local chain (what is not held in memory read back from the store)."""
        return tuple(self._entries_from(0))

    @property
    def held(self) -> int:
        """How many entries are held in memory."""
        return len(self._chain)

    def keep_from_store(self, stored: int, read: ReadEntries) -> None:
        """The entries below seq `stored` are in the caller's store, and `read` reads them
        back: from now on only the current hand's entries (from its hand_start, or from
        `stored` if lower) are held in memory; older ones are read back when a peer needs them
        (a resend, a catch-up) or one of them is compared (SPEC 8.4, "Flat memory")."""
        self._read = read
        self._stored = max(self._stored, min(stored, self.head_seq + 1))
        self._drop()

    def _drop(self) -> None:
        if self._read is None:
            return
        keep_from = min(self._stored, self._hand_first, self.head_seq)
        if keep_from > self._base:
            del self._chain[: keep_from - self._base]
            self._base = keep_from

    def _entry_at(self, seq: int) -> Entry | None:
        """Our entry `seq` (at or below the head), or None if the store cannot read it now."""
        if seq >= self._base:
            return self._chain[seq - self._base]
        older = self._read(seq, seq + 1) if self._read is not None else ()
        return older[0] if older and older[0].seq == seq else None

    def _entries_from(self, start: int, limit: int | None = None) -> list[Entry]:
        """Our entries from `start` to the head (at most `limit`), consecutive: those the store
        cannot read now, and all after them, are left out."""
        stop = self.head_seq + 1 if limit is None else min(self.head_seq + 1, start + limit)
        if start >= stop:
            return []
        base = self._base
        out: list[Entry] = []
        if start < base:
            upto = min(stop, base)
            older = self._read(start, upto) if self._read is not None else ()
            for seq, entry in enumerate(older, start):
                if entry.seq != seq:
                    break
                out.append(entry)
            if len(out) != upto - start:
                return out
        out.extend(self._chain[max(start, base) - base : stop - base])
        return out

    @property
    def hand(self) -> int:
        """The hand of the local head (0 while seating or with no chain)."""
        return self._chain[-1].hand if self._chain else 0

    def _append(self, entry: Entry) -> bool:
        """Add `entry` to the local chain; False if it is the one already held at its seq."""
        head = self.head_seq
        if entry.seq <= head:
            ours = self._entry_at(entry.seq)
            if ours is None or ours.hash == entry.hash:
                return False
            raise LocalProtocolError(f"entry {entry.seq} differs from the one applied")
        if entry.seq != head + 1:
            raise LocalProtocolError(f"entry {entry.seq} applied before {head + 1}")
        self._chain.append(entry)
        if entry.kind == HandStart.KIND:
            self._hand_first = entry.seq
            self._drop()
        self._moves += 1
        self._parted = None
        self._authored.pop(entry.sig, None)
        hand = entry.hand
        for sig in [s for s, r in self._authored.items() if r.hand < hand]:
            del self._authored[sig]
        for key in [k for k, r in self._broadcasts.items() if r.hand < hand]:
            del self._broadcasts[key]
        self._seen_broadcasts = {k for k in self._seen_broadcasts if k[1] >= hand}
        for seq in [s for s in self._buffer if s <= entry.seq]:
            del self._buffer[seq]
        return True

    def applied(self, entry: Entry, now: float) -> None:
        """The local Session applied `entry` (the next one): it joins the chain, is acknowledged
        to the peer it came from, and settles the authored entry with its `sig`."""
        if self._append(entry):
            self._progress_at = now
            sender = self._delivered_from.pop(entry.seq, None)
            if sender is not None and sender in self._peers:
                p = self._peers[sender]
                if not p.ack_due:
                    p.ack_due, p.ack_at = True, now + ACK_DELAY

    def publish(
        self,
        item: Outgoing,
        now: float,
        to: Iterable[PeerId] | None = None,
        *,
        first: PeerId | None = None,
        urgent: Iterable[PeerId] | None = None,
    ) -> None:
        """Send what the local Session produced (`Output.send`): an entry it sequenced (and so
        applied) to every peer; an authored entry to every peer (or to the peers `to`) until
        settled; a refusal to every peer once; a broadcast item to every peer until the hand
        moves on.

        `first`, for an authored entry: the peer that sequences it. It gets the entry at once,
        every other peer only if it is not settled WITNESS_AFTER later (SPEC 7.1). The same
        entry published again (the Session sends it again: a false refusal, a vote) goes to
        every peer at once.

        `urgent`, for an entry this node sequenced: the peers that need it at once (those that
        owe a step now). Every other peer gets it within PUSH_LATER, with the entries made
        meanwhile, or at once with the next entry urgent for it. None: every peer at once."""
        if isinstance(item, Entry):
            if self._append(item):
                self._progress_at = now
                self._fresh.append(item)
                if urgent is None:
                    self._urgent = None
                elif self._urgent is not None:
                    self._urgent.update(urgent)
        elif isinstance(item, AuthoredEntry):
            frame = encode_frame(AuthoredFrame(item))
            peers = None if to is None else frozenset(to)
            at = now
            if (
                first is not None
                and first in self._peers
                and (peers is None or first in peers)
                and item.sig not in self._authored
            ):
                self._direct.append((first, frame, item.seen))
                at = now + WITNESS_AFTER
            self._authored[item.sig] = _Resent(frame, item.hand, at, to=peers)
        elif isinstance(item, Refusal):
            self._once.append(encode_frame(RefusalFrame(item)))
        elif isinstance(item, BroadcastFrame):
            if item.hand >= self.hand:
                self._broadcasts[_broadcast_id(item)] = _Resent(encode_frame(item), item.hand, now)
        else:
            raise LocalProtocolError(f"cannot publish {type(item).__name__}")

    def cut_back(self, seq: int, now: float) -> None:
        """The local Session cut its chain back to before `seq` (an equivocation, SPEC 6.8):
        forget entry `seq` and every later one, and what peers were told about them."""
        if not 0 < seq <= self.head_seq + 1:
            raise LocalProtocolError(f"cannot cut the chain back to before entry {seq}")
        if seq > self._base:
            del self._chain[seq - self._base :]
        else:
            # the new head is older than what is held: it is read back from the store
            last = self._entry_at(seq - 1)
            if last is None:
                raise LocalProtocolError(f"the store cannot read entry {seq - 1} back")
            self._chain, self._base = [last], seq - 1
        self._hand_first = min(self._hand_first, seq - 1)
        self._stored = min(self._stored, seq)
        self._fresh = [e for e in self._fresh if e.seq < seq]
        self._buffer = {s: c for s, c in self._buffer.items() if s < seq}
        self._delivered_from = {s: p for s, p in self._delivered_from.items() if s < seq}
        for p in self._peers.values():
            p.pushed_upto = min(p.pushed_upto, seq - 1)
            p.diverged = False
            if p.deferred_from is not None and p.deferred_from >= seq:
                p.deferred_from = None  # what was held back is cut
        self._progress_at = now
        self._moves += 1
        self._parted = None
        # a conflict reported before the cut and not handed over yet is seen again as it is
        # handed over (`next_event`): one for a place the cut removed is a candidate entry now

    def forked(self) -> None:
        """The local Session refused the entry after our head because it does not follow it
        (`wrong-prev`): our chain may end in entries the peers replaced, those a sequencer
        made before it stopped and was replaced (SPEC 7.5, 8.10). The peer's entry at our head
        is not ours, so the place where the chains part is at or below it: the next catch-up,
        at once, asks for the batch that ends at our head, and what comes back narrows the
        place down until the peers' entry there reaches the Session as a conflict (SPEC 8.4
        "Catch-up")."""
        head = self.head_seq
        if head < 1:
            return  # the genesis is never replaced
        parted = self._parted if self._parted is not None else (0, head + 1)
        same, other = parted
        if other > head:
            # news: the next catch-up goes out at once. The same refusal again (the entry
            # comes with every answer; a hostile peer may send it in a loop) waits for the
            # next ask, so that what it costs is bounded by what comes from the peers asked
            if self._parted is None:
                self._parted_tries = 0
            self._parted = (same, head)
            self._parted_ask = True

    def withdraw(self, sig: bytes) -> None:
        """Stop sending the authored entry with this signature (its refusal was accepted)."""
        self._authored.pop(sig, None)

    def pending_authored(self) -> tuple[bytes, ...]:
        """Signatures of the authored entries still being sent."""
        return tuple(self._authored)

    def rejected(self, peer: PeerId, error: RemoteProtocolError | WireError) -> None:
        """The local Session refused an item `peer` sent: count it against that peer."""
        p = self._peers.get(peer)
        if p is not None:
            p.bad_frames += 1

    # --- receiving -------------------------------------------------------------------------------

    def receive(self, data: bytes, peer: PeerId, now: float) -> None:
        """Take one frame from `peer` (added if unknown). Events follow from `next_event`."""
        self.add_peer(peer, now)
        p = self._peers[peer]
        try:
            frame = decode_frame(data)
        except WireError as exc:
            p.bad_frames += 1
            self._events.append(BadFrame(peer, exc, p.bad_frames))
            return
        p.heard = now
        if p.liveness is not Liveness.PRESENT:
            p.liveness = Liveness.PRESENT
            self._events.append(LivenessChanged(peer, Liveness.PRESENT))
        self._take(frame, peer, p, now)

    def _take(self, frame: Frame, peer: PeerId, p: _Peer, now: float) -> None:
        if isinstance(frame, EntriesFrame):
            self._take_entries(frame.entries, peer, p)
            if frame.entries:
                # the sender holds these: its head is at least the last (SPEC 8.4)
                last = frame.entries[-1]
                self._raise_head(last.seq, last.hash, p)
        elif isinstance(frame, HeadFrame | HeartbeatFrame):
            self._take_head(frame.seq, frame.hash, p)
        elif isinstance(frame, CatchUpFrame):
            p.catch_up_after = frame.after
        elif isinstance(frame, AuthoredFrame):
            # Every copy goes up, even one whose sig is already in the chain: until authored
            # entries carry a per-author counter (DESIGN 5.1) an equal signature may be a new
            # decision (a second `check` in a later round), and the Session tells them apart.
            entry = frame.entry
            seen = self._seq_of(entry.seen)
            if seen is not None:
                self._raise_head(seen, entry.seen, p)  # it was made at that head (SPEC 8.4)
            if (
                entry.hand == self.hand + 1
                and entry.kind != HandStart.KIND
                and len(self._held_authored) < MAX_HELD_AUTHORED
            ):
                # Made by a peer that holds the next hand's hand_start already (every kind
                # but a hand_start carries its chain's hand, SPEC 6.6): a Session still in the
                # hand before has no place for it yet, and its author would send it again
                # only AUTHORED_RESEND later. Held until the chain reaches that hand.
                self._held_authored.append((peer, entry))
            else:
                self._events.append(AuthoredReceived(peer, entry))
        elif isinstance(frame, RefusalFrame):
            # Held until the local chain reaches the sequencer's head at refusal time: if the
            # refused copy was a resend of an entry already sequenced, that entry is applied
            # first, and the Session sees the refusal of a decision no longer pending.
            self._held_refusals.append((peer, frame.refusal))
        elif isinstance(frame, BroadcastFrame):
            key = _broadcast_id(frame)
            if frame.hand >= self.hand and key not in self._seen_broadcasts:
                self._seen_broadcasts.add(key)
                self._events.append(BroadcastReceived(peer, frame))
        else:
            self._events.append(LobbyReceived(peer, frame))

    def _take_entries(self, entries: Sequence[Entry], peer: PeerId, p: _Peer) -> None:
        head = self.head_seq
        for entry in entries:
            if entry.seq <= head:
                asked = self._asked is not None and self._asked[2] == peer
                # an entry older than those held is compared (read back) only in an answer
                # to our ask: a peer cannot make us read the store by sending old entries
                ours = self._entry_at(entry.seq) if entry.seq >= self._base or asked else None
                if ours is None:
                    continue
                if ours.hash == entry.hash:
                    p.ack_due = True  # a resend of what we hold: say so, so it stops
                    if asked:
                        self._narrow(entry.seq, same=True)
                else:
                    self._events.append(ConflictReceived(peer, entry, ours))
                    if asked:
                        self._narrow(entry.seq, same=False)
                continue
            if entry.seq > head + REORDER_WINDOW:
                continue
            candidates = self._buffer.setdefault(entry.seq, {})
            if entry.hash not in candidates and len(candidates) < MAX_CANDIDATES:
                candidates[entry.hash] = (entry, peer)

    def _narrow(self, seq: int, *, same: bool) -> None:
        """The entry at `seq` (at or below our head) of the peer asked last is ours (`same`)
        or not: while the chains part, the place is above the highest seq that is ours and
        at or below the lowest that is not (a chain is hash-linked: below an entry that is
        ours every entry is ours). Once they are next to each other the conflict at the place
        is with the Session; until then, the next catch-up goes out at once."""
        parted = self._parted
        if parted is None:
            return
        low, high = parted
        if same and low < seq < high:
            low = seq
        elif not same and low < seq < high:
            high = seq
        else:
            return
        self._parted = (low, high)
        self._parted_ask = high > low + 1  # next to each other: the conflict is with the Session

    def _raise_head(self, seq: int, digest: bytes, p: _Peer) -> None:
        """The peer holds entry `seq` (`digest`): its head is at least there. Only a head or
        a heartbeat, which say the head itself, move it back (a chain cut back, SPEC 6.8)."""
        if seq > p.head_seq:
            self._take_head(seq, digest, p)

    def _seq_of(self, digest: bytes) -> int | None:
        """The seq of our entry with hash `digest`, looked for among the last SEEN_BACK (an
        authored entry is made at a recent head), or None."""
        chain = self._chain
        for i in range(len(chain) - 1, max(-1, len(chain) - 1 - SEEN_BACK), -1):
            if chain[i].hash == digest:
                return self._base + i
        return None

    def _take_head(self, seq: int, digest: bytes, p: _Peer) -> None:
        if (seq, digest) != (p.head_seq, p.head_hash) or seq >= self._base:
            # (a head below those held is read back once, not at every heartbeat)
            ours = self._entry_at(seq) if 0 <= seq <= self.head_seq else None
            p.diverged = ours is not None and ours.hash != digest
        p.head_seq, p.head_hash = seq, digest
        if seq > p.pushed_upto:
            p.pushed_upto = seq

    def next_event(self) -> ReplicationEvent | None:
        """The next thing for the caller, or None. Entries come one at a time, in chain order:
        the next is handed over once the caller has applied (or rejected) the one before."""
        while self._events:
            event = self._events.popleft()
            if isinstance(event, ConflictReceived) and not self._still_conflict(event):
                continue
            return event
        for i, (peer, authored) in enumerate(self._held_authored):  # in the order they came
            if authored.hand <= self.hand:
                del self._held_authored[i]
                return AuthoredReceived(peer, authored)
        for i, (peer, refusal) in enumerate(self._held_refusals):
            if refusal.head <= self.head_seq or refusal.hand < self.hand:
                del self._held_refusals[i]
                return RefusalReceived(peer, refusal)
        seq = self.head_seq + 1
        candidates = self._buffer.get(seq)
        if not candidates:
            return None
        entry, peer = candidates.pop(next(iter(candidates)))  # first come, first offered
        if not candidates:
            del self._buffer[seq]
        self._delivered_from[seq] = peer
        return EntryReceived(peer, entry)

    def _still_conflict(self, event: ConflictReceived) -> bool:
        """Whether a conflict reported earlier still is one: a chain cut since (SPEC 6.8, 7.5)
        may have put that very entry in our chain, or removed the place, which makes the entry
        a candidate for the next entries instead (handed over in order, as any other)."""
        entry = event.entry
        if entry.seq > self.head_seq:
            if entry.seq <= self.head_seq + REORDER_WINDOW:
                candidates = self._buffer.setdefault(entry.seq, {})
                if entry.hash not in candidates and len(candidates) < MAX_CANDIDATES:
                    candidates[entry.hash] = (entry, event.peer)
            return False
        ours = self._entry_at(entry.seq)
        return ours is not None and ours.hash != entry.hash

    def ready(self, after: int | None = None) -> bool:
        """Whether `next_event` has something now (nothing is taken): an event, a refusal
        whose head the chain has reached, or the entry after seq `after` (default: the head)
        in the buffer. A caller that applies the entry it was handed asks with that entry's
        seq, to know whether another follows at once."""
        if self._events:
            return True
        if any(a.hand <= self.hand for _, a in self._held_authored):
            return True
        if any(r.head <= self.head_seq or r.hand < self.hand for _, r in self._held_refusals):
            return True
        nxt = (self.head_seq if after is None else after) + 1
        return bool(self._buffer.get(nxt))

    def events(self) -> Iterator[ReplicationEvent]:
        """`next_event` until there is none: apply each EntryReceived before taking the next."""
        while (event := self.next_event()) is not None:
            yield event

    # --- sending ---------------------------------------------------------------------------------

    def _live(self, p: _Peer) -> bool:
        return p.heard is not None and p.liveness is not Liveness.AWAY

    def _batch_from(self, start: int) -> bytes | None:
        entries = self._entries_from(start, MAX_BATCH)
        if not entries:
            return None
        return encode_frame(batch_entries(entries))

    def _batches(self, entries: Sequence[Entry]) -> list[bytes]:
        """`entries` (consecutive) as frames of at most one batch each."""
        frames: list[bytes] = []
        start = 0
        while start < len(entries):
            batch = batch_entries(entries[start:])
            frames.append(encode_frame(batch))
            start += len(batch.entries)
        return frames

    def frames_to_send(self, now: float) -> list[tuple[PeerId, bytes]]:
        """Every frame due by `now`, as (peer, bytes), in the order to send them."""
        head: bytes | None = None
        fresh, self._fresh = self._fresh, []
        urgent, self._urgent = self._urgent, set()
        pushes = self._batches(fresh)
        once, self._once = self._once, []
        direct, self._direct = self._direct, []
        resent = self._due_resends(now)
        ask = self._catch_up_target(now)
        beat: bytes | None = None
        out: list[tuple[PeerId, bytes]] = []
        at_head = bool(fresh) and fresh[-1].seq == self.head_seq
        made_at_head = {to for to, _, seen in direct if seen == self.head_hash}
        for peer, p in self._peers.items():
            frames: list[bytes] = []
            # a frame that tells the peer our head stands for an acknowledgement and a
            # heartbeat (SPEC 8.4): a head, entries up to our head, an authored entry made at it
            tells = peer in made_at_head
            held = p.deferred_from
            soon = urgent is None or peer in urgent
            if held is not None and ((pushes and soon) or now >= p.deferred_at):
                # what was held back, and what is fresh, in order
                frames.extend(self._batches(self._entries_from(held)))
                p.deferred_from = None
                p.pushed_upto = max(p.pushed_upto, self.head_seq)
                p.pushed_at = now
                tells = True
            elif pushes and soon:
                frames.extend(pushes)
                p.pushed_upto = max(p.pushed_upto, fresh[-1].seq)
                p.pushed_at = now
                tells = tells or at_head
            elif pushes:
                if held is None:
                    p.deferred_from, p.deferred_at = fresh[0].seq, now + PUSH_LATER
            elif self._live(p) and self._owes_resend(p) and now - p.pushed_at >= RESEND_AFTER:
                resend = self._batch_from(p.head_seq + 1)
                if resend is not None:
                    frames.append(resend)
                    p.pushed_at = now
            if p.catch_up_after is not None and now - p.replied_at >= CATCH_UP_REPLY_INTERVAL:
                reply = self._batch_from(p.catch_up_after + 1)
                if reply is not None:
                    frames.append(reply)
                    # and our head: the asker's idea of it may be a heartbeat old, and an
                    # asker that thinks it has caught up asks nothing more until the next one
                    head = head or encode_frame(HeadFrame(self.head_seq, self.head_hash))
                    frames.append(head)
                    tells = True
                p.catch_up_after = None
                p.replied_at = now
            if p.ack_due and now >= p.ack_at and not tells:
                head = head or encode_frame(HeadFrame(self.head_seq, self.head_hash))
                frames.append(head)
                tells = True
            if tells:
                p.ack_due = False
                p.heartbeat_at = max(p.heartbeat_at, now + HEARTBEAT_INTERVAL)
            if now >= p.heartbeat_at:
                beat = beat or encode_frame(HeartbeatFrame(self.head_seq, self.head_hash))
                frames.append(beat)
                p.heartbeat_at = now + HEARTBEAT_INTERVAL
            frames.extend(once)
            frames.extend(f for to, f, _ in direct if to == peer)
            frames.extend(f for f, to in resent if to is None or peer in to)
            if ask == peer:
                frames.append(encode_frame(CatchUpFrame(self._ask_after())))
            out.extend((peer, frame) for frame in frames)
        return out

    def _owes_resend(self, p: _Peer) -> bool:
        """The peer, on our chain, has not said it holds all we pushed it: what it lacks is
        sent again, RESEND_AFTER after the last push (a peer on another chain is never fed)."""
        return not p.diverged and p.head_seq < min(p.pushed_upto, self.head_seq)

    def _due_resends(self, now: float) -> list[tuple[bytes, frozenset[PeerId] | None]]:
        frames = []
        for r in self._authored.values():
            if now >= r.next_at:
                frames.append((r.frame, r.to))
                r.next_at = now + AUTHORED_RESEND
        for r in self._broadcasts.values():
            if now >= r.next_at:
                frames.append((r.frame, r.to))
                r.next_at = now + BROADCAST_BACKOFF[min(r.attempt, len(BROADCAST_BACKOFF) - 1)]
                r.attempt += 1
        return frames

    def _ahead(self) -> list[tuple[PeerId, _Peer]]:
        """Live peers whose reported head is ahead of ours, the furthest first."""
        ahead = [
            (peer, p)
            for peer, p in self._peers.items()
            if self._live(p) and p.head_seq > self.head_seq
        ]
        ahead.sort(key=lambda item: -item[1].head_seq)
        return ahead

    def _any_ahead(self) -> bool:
        """Whether some live peer reported a head ahead of ours (`_ahead` without the list)."""
        head = self.head_seq
        return any(
            p.head_seq > head and p.heard is not None and p.liveness is not Liveness.AWAY
            for p in self._peers.values()
        )

    def _ask_after(self) -> int:
        """The `after` of the next catch-up: our head's seq; while the chains part below it,
        so that the answer (one batch) ends at the lowest seq known not to be ours, and
        begins above the highest known to be ours."""
        if self._parted is None:
            return self.head_seq
        low, high = self._parted
        return max(low, high - MAX_BATCH)

    def _parted_due(self, now: float) -> bool:
        return (
            self._parted_ask
            and self._asked is not None
            and now - self._asked[0] >= PARTED_ASK_INTERVAL
        )

    def _unanswered_after(self) -> float:
        """How long an ask nothing answered waits before the next goes out."""
        if self._parted is not None and self._parted_tries < PARTED_RETRIES:
            return PARTED_RETRY
        return CATCH_UP_AFTER

    def _catch_up_target(self, now: float) -> PeerId | None:
        """The peer to ask for "entries after our head" now, if any (SPEC 8.4)."""
        if not self._any_ahead():
            self._asked = None
            return None
        asked = self._asked
        if asked is None:
            due = self._parted_ask or now - self._progress_at >= CATCH_UP_AFTER
        else:
            # answered (the chain moved since): ask on at once; where the chains part, what
            # came in says where to look next: ask at once too, but not more often than
            # PARTED_ASK_INTERVAL; otherwise unanswered: try another peer. Both go to the
            # next peer ahead, so that one that sends what never follows cannot keep every
            # ask to itself.
            moved = self._moves != asked[1]
            due = moved or self._parted_due(now) or now - asked[0] >= self._unanswered_after()
            if due and not moved:
                self._ask_turn += 1
        if not due:
            return None
        ahead = self._ahead()
        peer = ahead[self._ask_turn % len(ahead)][0]
        self._asked = (now, self._moves, peer)
        self._parted_ask = False
        if self._parted is not None:
            self._parted_tries += 1
        return peer

    # --- timers ----------------------------------------------------------------------------------

    def handle_timer(self, now: float) -> None:
        """Let time pass: peers silent for too long become evasive, then away."""
        for peer, p in self._peers.items():
            silent = now - (p.heard if p.heard is not None else p.since)
            if silent >= AWAY_AFTER:
                liveness = Liveness.AWAY
            elif silent >= EVASIVE_AFTER:
                liveness = Liveness.EVASIVE
            else:
                liveness = Liveness.PRESENT
            if liveness is not p.liveness:
                p.liveness = liveness
                self._events.append(LivenessChanged(peer, liveness))

    def get_timer(self) -> float | None:
        """When to call `handle_timer` and `frames_to_send` next (None: nothing to wait for)."""
        # the earliest of the times below, found without building a list: a live node asks
        # after every piece of work
        best = math.inf
        head = self.head_seq
        ahead = False
        for p in self._peers.values():
            t = p.heartbeat_at
            last = p.heard if p.heard is not None else p.since
            if p.liveness is Liveness.PRESENT:
                t = min(t, last + EVASIVE_AFTER)
            elif p.liveness is Liveness.EVASIVE:
                t = min(t, last + AWAY_AFTER)
            if p.heard is not None and p.liveness is not Liveness.AWAY:  # `_live`
                # the resend `frames_to_send` makes, on the same test: a time it would not
                # move (a peer on another chain) would keep the caller passing again at once
                if self._owes_resend(p):
                    t = min(t, p.pushed_at + RESEND_AFTER)
                ahead = ahead or p.head_seq > head
            if p.catch_up_after is not None:
                t = min(t, p.replied_at + CATCH_UP_REPLY_INTERVAL)
            if p.ack_due:
                t = min(t, p.ack_at)
            if p.deferred_from is not None:
                t = min(t, p.deferred_at)
            best = min(best, t)
        for r in self._authored.values():
            best = min(best, r.next_at)
        for r in self._broadcasts.values():
            best = min(best, r.next_at)
        if ahead:
            asked = self._asked
            since = self._progress_at if asked is None else asked[0]
            best = min(
                best, since + (CATCH_UP_AFTER if asked is None else self._unanswered_after())
            )
            if self._parted_ask:
                best = min(best, since if asked is None else since + PARTED_ASK_INTERVAL)
        return None if best == math.inf else best


__all__ = [
    "ACK_DELAY",
    "AUTHORED_RESEND",
    "AWAY_AFTER",
    "EVASIVE_AFTER",
    "HEARTBEAT_INTERVAL",
    "PARTED_ASK_INTERVAL",
    "PARTED_RETRIES",
    "PARTED_RETRY",
    "PUSH_LATER",
    "SEEN_BACK",
    "WITNESS_AFTER",
    "AuthoredReceived",
    "BadFrame",
    "BroadcastReceived",
    "ConflictReceived",
    "EntryReceived",
    "Liveness",
    "LivenessChanged",
    "LobbyReceived",
    "Outgoing",
    "PeerId",
    "PeerStatus",
    "RefusalReceived",
    "Replication",
    "ReplicationEvent",
]
