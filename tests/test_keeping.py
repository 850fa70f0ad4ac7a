"""A live seat's files kept in step with its session (`p2pwillow.keeping`): real sessions at an
in-process table, real files. The secret and the signed entries are on disk before what
depends on them is sent; a resend is logged once, another entry for a counter never; the
transcript follows the chain, cut back where the session cut it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from session_helpers import SAMPLES, make_rng

from p2pwillow.crypto.group import G, Point, scalar_from_bytes
from p2pwillow.keeping import HAND_SECRET, GameFiles, KeepError, Kept
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.entry import AuthoredEntry, Entry
from p2pwillow.session import ChainCut, Output, Session
from p2pwillow.store import Store
from p2pwillow.table import Table


class KeptTable(Table):
    """A table of two at which seat 0 keeps its files as a live node does: `keep` after each
    of its session's calls, and only then is what it made sent (routed). Checks, at each send,
    that what it depends on is on disk already."""

    def __init__(self, store: Store, **kwargs: Any) -> None:
        self.store = store
        self.files: GameFiles | None = None
        self.kept: list[Kept] = []
        self.secrets_seen: set[int] = set()
        self.most_held = 0
        """The most entries seat 0's ledger held in memory after a `keep`."""
        super().__init__(2, samples=SAMPLES, **kwargs)

    def _route(self, source: int, out: Output) -> None:
        if source == 0:
            s = self.sessions[0]
            if self.files is None:
                self.files = GameFiles.new_seat(self.store, s.game_id)
                if s.ledger[0].author == 0:
                    self.files.log_signed(s.ledger[0].authored())  # the genesis
            self.kept.append(self.files.keep(s, out))
            self.most_held = max(self.most_held, s.ledger.held)
            self._check_on_disk(out)
        super()._route(source, out)

    def _check_on_disk(self, out: Output) -> None:
        assert self.files is not None
        logged = self.files.logged
        for item in out.send:
            if not isinstance(item, AuthoredEntry | Entry) or item.author != 0:
                continue
            assert logged.get(item.counter) == item.sig, "sent before it was logged"
            if isinstance(item.body, k.HandKey):
                data = self.store.load_secret(self.sessions[0].game_id, item.hand, HAND_SECRET)
                assert data is not None, "the hand key was sent before its secret was kept"
                assert G.mul_secret(scalar_from_bytes(data)) == Point.decode_hex(item.body.key)
                self.secrets_seen.add(item.hand)


def lines(entries: Sequence[Entry]) -> bytes:
    return b"".join(e.encode() + b"\n" for e in entries)


@pytest.fixture
def played(tmp_path: Path) -> Iterator[KeptTable]:
    """Two hands at a kept table of two, its files closed afterwards."""
    table = KeptTable(Store.open(tmp_path), seed=2, rng=make_rng("keeping/2"))
    assert table.play(2) == 2
    yield table
    assert table.files is not None
    table.files.close()


def test_every_entry_is_kept_before_it_is_sent_and_the_transcript_is_the_chain(
    played: KeptTable,
) -> None:
    table, store = played, played.store
    s = table.sessions[0]
    files = table.files
    assert files is not None
    game_dir = store.game_dir(s.game_id)
    assert (game_dir / "transcript.jsonl").read_bytes() == lines(s.ledger.entries)
    mine = {e.counter: e.sig for e in s.ledger.entries if e.author == 0}
    assert mine.items() <= files.logged.items()
    assert files.logged == s.signed
    # each hand's key went out after its secret was on disk; once the hand ended and every
    # player signed its end, the secret was erased: none is left between hands
    assert table.secrets_seen == {1, 2}
    assert s.between_hands
    assert list(store.secrets(s.game_id)) == []
    assert not list((store.game_dir(s.game_id) / "secrets").iterdir())
    # flat memory (SPEC 8.4): the ledger held the current hand's entries, never the game's,
    # and reads the rest back from the transcript when asked for the whole chain
    by_hand = Counter(e.hand for e in s.ledger.entries)
    assert table.most_held <= max(by_hand.values()) < len(s.ledger) - 1
    assert s.ledger.held <= by_hand[s.hand_number]
    # most calls change nothing on disk and say so at once
    assert any(not kept.moved for kept in table.kept)
    assert files.keep(s, Output()) == Kept(moved=False)


def test_a_resend_is_logged_once_and_another_entry_for_a_counter_never(
    played: KeptTable,
) -> None:
    files, s = played.files, played.sessions[0]
    assert files is not None
    log = played.store.game_dir(s.game_id) / "signed.jsonl"
    before = log.read_bytes()
    first, other = [e.authored() for e in s.ledger.entries if e.author == 0 and e.counter > 0][:2]
    twin = AuthoredEntry.create(
        played.identities[0],
        game=other.game,
        hand=other.hand,
        author=other.author,
        body=other.body,
        counter=first.counter,
        seen=other.seen,
    )
    files.log_signed(first)  # the same entry again: kept once
    with pytest.raises(KeepError, match=f"two different entries for counter {first.counter}"):
        files.log_signed(twin)
    files.close()
    assert log.read_bytes() == before
    # a log that holds two entries for one counter is refused when reopened
    log.write_bytes(before + twin.encode() + b"\n")
    with pytest.raises(KeepError, match=f"holds two different entries for counter {first.counter}"):
        GameFiles.reopen(played.store, s.game_id)


def test_reopened_files_give_the_chain_the_counters_and_the_hands_secret(
    played: KeptTable,
) -> None:
    assert played.files is not None
    played.files.close()
    s = played.sessions[0]
    files = GameFiles.reopen(played.store, s.game_id)
    try:
        assert files.transcript.entries == list(s.ledger.entries)
        assert dict(files.logged) == s.signed
        assert set(files.secrets) == set()  # between hands: erased
        # a new seat never writes over a game
        with pytest.raises(KeepError, match="holds this game already"):
            GameFiles.new_seat(played.store, s.game_id)
    finally:
        files.close()
    with pytest.raises(KeepError, match="is missing: there is no game to resume there"):
        GameFiles.reopen(played.store, bytes(16))


def _watching(table: Table) -> Session:
    """An observer's session (no seat, nothing signed) that took the table's whole chain."""
    entries = table.sessions[0].ledger.entries
    s = Session(None, None, entries[0])
    for entry in entries[1:]:
        s.receive(entry)
    assert s.ledger.entries == entries
    return s


def _two_chains() -> tuple[Session, Session, int]:
    """Two chains with one genesis (one rng) whose bots chose differently, each as an observer
    holds it, and the seq at which they part."""
    a = Table(2, seed=1, rng=make_rng("keeping/fork"), samples=SAMPLES)
    b = Table(2, seed=5, rng=make_rng("keeping/fork"), samples=SAMPLES)
    assert a.play(1) == 1 and b.play(1) == 1
    sa, sb = _watching(a), _watching(b)
    ea, eb = sa.ledger.entries, sb.ledger.entries
    assert ea[0] == eb[0]
    parts = next(seq for seq, (x, y) in enumerate(zip(ea, eb, strict=False)) if x != y)
    return sa, sb, parts


def test_the_transcript_is_cut_back_where_the_session_cut_its_chain(tmp_path: Path) -> None:
    """A chain cut back at `parts` (an equivocation proved, a replaced sequencer's entries
    given up, SPEC 6.8, 7.5) and going on another way: the file holds the new chain."""
    sa, sb, parts = _two_chains()
    store = Store.open(tmp_path)
    game = sa.game_id
    path = store.game_dir(game) / "transcript.jsonl"
    files = GameFiles.new_seat(store, game)
    try:
        assert files.keep(sa, Output()).moved
        assert path.read_bytes() == lines(sa.ledger.entries)
        kept = files.keep(sb, Output((), (ChainCut(parts),)))
        assert kept.moved
        assert path.read_bytes() == lines(sb.ledger.entries)
        assert files.transcript.entries == list(sb.ledger.entries)
    finally:
        files.close()


def test_a_returning_players_file_must_be_the_chain(tmp_path: Path) -> None:
    """A player coming back (SPEC 8.9) finds its file holding the game so far: it must be the
    chain's, entry for entry, or nothing is kept and nothing sent."""
    sa, sb, parts = _two_chains()
    store = Store.open(tmp_path)
    game = sa.game_id
    path = store.game_dir(game) / "transcript.jsonl"
    with store.transcript(game) as held:
        for entry in sa.ledger.entries[: parts + 2]:
            held.append(entry)
    before = path.read_bytes()
    files = GameFiles.new_seat(store, game, returning_to=sa.ledger[0])
    try:
        with pytest.raises(KeepError, match=f"holds another entry {parts} than this table's"):
            files.keep(sb, Output())
        assert path.read_bytes() == before
    finally:
        files.close()
    again = GameFiles.new_seat(store, game, returning_to=sa.ledger[0])
    try:
        again.keep(sa, Output())
        assert path.read_bytes() == lines(sa.ledger.entries)
    finally:
        again.close()
