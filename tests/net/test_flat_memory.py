"""Flat memory (SPEC 8.4): a peer holds the current hand's entries in memory, not the game's;
older entries are read back from its transcript file when a peer needs them.

A long game of several hundred hands through the replication core, each peer with its own
transcript file (the store's `Transcript`), on a virtual clock. The hands are shaped like a
game's (a hand_start, then the hand's entries) but made without the cryptography, so that
hundreds of them take seconds: the replication never checks an entry (the Session does), it
only moves them."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.entry import GENESIS_PREV, AuthoredEntry, Entry
from p2pwillow.ledger.fields import Body
from p2pwillow.net.replication import EntryReceived, Replication
from p2pwillow.store import Transcript

HANDS = 300
GAME = bytes(range(16))
SIG = bytes(64)
STEP = 0.05


def _entry(seq: int, prev: bytes, hand: int, author: int, body: Body) -> Entry:
    authored = AuthoredEntry(GAME, hand, author, body, SIG, counter=seq, seen=prev)
    return authored.placed(seq, prev)


def _hand(hand: int, seq: int, prev: bytes, actions: int) -> list[Entry]:
    """A hand: its hand_start, then `actions` entries of the hand (of one kind: the
    replication looks at no kind but the hand_start)."""
    players = (k.SeatStack(seat=0, stack=1000), k.SeatStack(seat=1, stack=1000))
    entries = [_entry(seq, prev, hand, 0, k.HandStart(dealer=0, players=players))]
    for n in range(actions):
        last = entries[-1]
        entries.append(_entry(seq + 1 + n, last.hash, hand, n % 2, k.HeadSignature(head="00" * 32)))
    return entries


@dataclass
class Peer:
    """A replication and its transcript file, kept in step as the live node keeps them."""

    name: bytes
    rep: Replication
    store: Transcript
    reads: list[int] = field(default_factory=list)
    most: int = 0
    """The most entries its replication held in memory."""

    def read(self, start: int, stop: int) -> Sequence[Entry]:
        self.reads.append(stop - start)
        return self.store.read(start, stop)

    def kept(self) -> None:
        self.rep.keep_from_store(len(self.store), self.read)
        self.most = max(self.most, self.rep.held)

    def apply(self, now: float) -> None:
        for event in self.rep.events():
            if isinstance(event, EntryReceived):
                self.store.append(event.entry)
                self.rep.applied(event.entry, now)
                self.kept()


def _peer(tmp: Path, name: bytes, genesis: Entry, others: list[bytes]) -> Peer:
    store = Transcript.open(tmp / f"{name.decode()}.jsonl")
    store.append(genesis)
    peer = Peer(name, Replication([genesis], others), store)
    peer.kept()
    return peer


def _exchange(peers: list[Peer], now: float, down: set[bytes]) -> None:
    """Every frame due from each peer to each other one that is up."""
    by_name = {p.name: p for p in peers}
    for src in peers:
        for dst_name, data in src.rep.frames_to_send(now):
            dst = by_name.get(dst_name)
            if dst is not None and not {src.name, dst_name} & down:
                dst.rep.receive(data, src.name, now)
        for p in peers:
            p.apply(now)


def test_a_long_game_holds_a_hands_worth_of_entries_and_a_peer_behind_catches_up_from_the_store(
    tmp_path: Path,
) -> None:
    genesis = _entry(0, GENESIS_PREV, 0, 0, k.HeadSignature(head="00" * 32))
    dealer = _peer(tmp_path, b"dealer", genesis, [b"follower", b"behind"])
    follower = _peer(tmp_path, b"follower", genesis, [b"dealer", b"behind"])
    behind = _peer(tmp_path, b"behind", genesis, [b"dealer", b"follower"])
    peers = [dealer, follower, behind]
    lengths = random.Random(25)
    longest = 0
    now = 0.0
    prev, seq = genesis.hash, 1
    # the dealer makes each hand's entries and keeps them; the follower keeps in step; the
    # third peer is cut off for the whole game
    for hand in range(1, HANDS + 1):
        entries = _hand(hand, seq, prev, lengths.randint(4, 30))
        longest = max(longest, len(entries))
        for entry in entries:
            dealer.rep.publish(entry, now)
            dealer.store.append(entry)
            dealer.kept()
        prev, seq = entries[-1].hash, entries[-1].seq + 1
        while follower.rep.head_seq < dealer.rep.head_seq:
            now += STEP
            _exchange(peers, now, down={b"behind"})
    head = dealer.rep.head_seq
    assert head == len(dealer.store) - 1 > HANDS * 4
    # in memory: the current hand's entries at most, never the game's
    for p in (dealer, follower):
        assert p.rep.held <= longest, (p.name, p.rep.held, longest)
        assert p.most <= longest, (p.name, p.most, longest)
    # the peer cut off comes back: it is caught up from the others' transcript files, in
    # batches, and holds no more than a hand's worth of entries meanwhile
    deadline = now + 600.0
    while behind.rep.head_seq < head:
        assert now < deadline, f"caught up to {behind.rep.head_seq} of {head}"
        now += STEP
        _exchange(peers, now, down=set())
    assert behind.store.read(0) == dealer.store.read(0)
    assert behind.most <= longest, (behind.most, longest)
    assert sum(dealer.reads) + sum(follower.reads) >= head - longest
    # the whole chain is still there for whoever asks for it
    assert [e.hash for e in dealer.rep.chain] == [e.hash for e in dealer.store.read(0)]
    for p in peers:
        p.store.close()
