"""A live seat's game files kept in step with its session: the transcript, the log of the
entries it signed and the hand's secret, each on disk before anything that depends on it is
sent (DESIGN 6, SPEC 7.7, 8.10). Does file I/O, through the store; it never changes a session.
"""

# What `GameFiles.keep(session, out)` does, in this order, after every Session call and
# before the driver sends anything that call made (`out`):
#
#   1. the hand's secret x, once drawn, is saved (file and directory fsynced); a secret no
#      restore can need any more (its hand ended and was signed by all its players, a later
#      hand started, the game ended or the seat left) is erased: overwritten, fsynced, removed;
#   2. every entry this seat signed is appended to its log of signed entries (a resend once;
#      another entry for a counter the log holds is refused: it must never reach a peer),
#      and every counter the session signed must be in the log;
#   3. the transcript is cut back where the session cut its chain (SPEC 6.8, 7.5), a
#      returning player's file is checked entry for entry against the chain (SPEC 8.9), and
#      every entry the session applied is appended (one line each, flushed); both files are
#      fsynced when a hand closes.
#
# The log comes before the transcript: a transcript holding an entry in this seat's name whose
# counter the log lacks would not restore (SPEC 7.7). A call that made nothing and moved
# neither the chain, the secret nor what the seat signed (most clock ticks, a look for a
# decision) leaves nothing to keep, and `keep` returns at once: a live seat makes hundreds of
# such calls a hand.

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass

from p2pwillow.crypto.group import scalar_from_bytes, scalar_to_bytes
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.entry import AuthoredEntry, Entry
from p2pwillow.ledger.signatures import Signatures
from p2pwillow.session import ChainCut, HandClosed, Output, Session
from p2pwillow.store import TRANSCRIPT_FILE, SignedLog, Store, Transcript

__all__ = ["HAND_SECRET", "GameFiles", "KeepError", "Kept"]

HAND_SECRET = "hand-key"
"""The name under which a hand's secret x is kept in the store (SPEC 5.2)."""


class KeepError(Exception):
    """The seat's files and its session disagree (two entries signed for one counter, a
    counter signed but not kept, a returning player's file that is not the chain), or there is
    no game to resume: nothing that depends on them may be sent. The message says which."""


@dataclass(frozen=True, slots=True)
class Kept:
    """What a `keep` found."""

    moved: bool
    """The chain's length or head changed since the last keep (or this was the first)."""
    leaves: tuple[tuple[int, int], ...] = ()
    """(seat, seq) of each `leave` the transcript took just now, and of each newcomer a
    `refuse` sent away."""


_UNCHANGED = Kept(moved=False)


class GameFiles:
    """One game's files for a live seat: its transcript, its log of signed entries and its
    hand secrets, in `store`. Open them with `new_seat` or `reopen`; `keep` after every
    Session call, before sending; `close` at the end.

    `transcript` holds the entries the file held when opened (and those kept since); `logged`
    maps every counter in the log of signed entries to its signature; `secrets` (reopened
    files only) maps hand number to that hand's secret x."""

    def __init__(
        self, store: Store, transcript: Transcript, signed: SignedLog, *, checked: int
    ) -> None:
        self.store = store
        self.transcript = transcript
        self.signed = signed
        self.secrets: dict[int, int] = {}
        self._logged = Signatures()
        for authored in signed.entries:
            held = self._logged.get(authored.counter)
            if held is not None and held != authored.sig:
                raise KeepError(
                    f"{signed.path} holds two different entries for counter {authored.counter}"
                )
            self._logged[authored.counter] = authored.sig
        self._checked_upto = checked
        """Entries of a returning player's transcript checked against the chain so far."""
        self._saved_secret: tuple[int, int] | None = None
        self._on_disk: set[int] = set()
        """The hands whose secret is in the store, to be erased once no restore can need it."""
        self._kept: tuple[int, bytes, int | None, int] | None = None
        """The chain's length and head, the hand's secret and how many entries this seat had
        signed when `keep` last ran."""

    @classmethod
    def new_seat(cls, store: Store, game: bytes, *, returning_to: Entry | None = None) -> GameFiles:
        """The files of a new seat at `game`: its transcript must be empty, or, for a newcomer
        (`returning_to` its table's genesis), may hold the game up to its leave, which the
        chain must then hold as it is (a player coming back, SPEC 8.9); the log of what it
        signed keeps the counters it used, never reused. KeepError if the transcript holds the
        game already; StoreError or OSError if the files cannot be opened."""
        transcript = store.transcript(game)
        if len(transcript) and not (
            returning_to is not None and transcript.entry(0) == returning_to
        ):
            transcript.close()
            raise KeepError(
                f"{transcript.path} holds this game already: a new seat never overwrites "
                "it (--resume takes the seat again)"
            )
        signed: SignedLog | None = None
        try:
            signed = store.signed(game)
            files = cls(store, transcript, signed, checked=1 if len(transcript) else 0)
            files._on_disk = {hand for hand, _ in store.secrets(game)}
            return files
        except BaseException:
            transcript.close()
            if signed is not None:
                signed.close()
            raise

    @classmethod
    def reopen(cls, store: Store, game: bytes) -> GameFiles:
        """The files of a seat taken again after a crash (SPEC 8.10), with the hand secrets
        kept. KeepError if there is no transcript or the log holds two entries for one counter;
        StoreError, OSError or ValueError if a file cannot be read. Nothing on disk changes (a
        torn last line aside, cut when the file is opened)."""
        path = store.game_dir(game) / TRANSCRIPT_FILE
        if not path.is_file():
            raise KeepError(f"{path} is missing: there is no game to resume there")
        transcript = store.transcript(game)
        signed: SignedLog | None = None
        try:
            signed = store.signed(game)
            secrets: dict[int, int] = {}
            for hand, name in store.secrets(game):
                data = store.load_secret(game, hand, name) if name == HAND_SECRET else None
                if data is not None:
                    secrets[hand] = scalar_from_bytes(data)
            files = cls(store, transcript, signed, checked=0)
            files._on_disk = {hand for hand, _ in store.secrets(game)}
        except BaseException:
            transcript.close()
            if signed is not None:
                signed.close()
            raise
        files.secrets = secrets
        return files

    @property
    def logged(self) -> Mapping[int, bytes]:
        """counter -> author signature of every entry in the log of signed entries."""
        return self._logged

    def log_signed(self, authored: AuthoredEntry) -> None:
        """Keep an entry this seat signed in its log, before it is sent (SPEC 7.7). The same
        entry again (a resend) is kept once; another entry for a counter kept already is a
        bug that must never reach a peer (KeepError)."""
        held = self._logged.get(authored.counter)
        if held == authored.sig:
            return
        if held is not None:
            raise KeepError(
                f"this seat signed two different entries for counter {authored.counter}"
            )
        self.signed.append(authored)
        self._logged[authored.counter] = authored.sig

    def keep(self, s: Session, out: Output) -> Kept:
        """Before anything `out` (what the last call on `s` made) holds is sent: the hand's
        secret on disk (fsynced), every entry this seat signed in its log, every entry the
        session has applied in the transcript (see the top of this module). KeepError if the
        files and the session disagree: nothing may be sent then."""
        ledger = s.ledger
        secret = s.hand_secret
        signed = s.state.signed
        mark = (len(ledger), ledger.head_hash, secret, signed.last)
        kept = self._kept
        if not out.send and not out.events and mark == kept:
            return _UNCHANGED
        game = s.game_id
        hand = s.hand_number
        store = self.store
        if secret is not None and self._saved_secret != (hand, secret):
            store.save_secret(game, hand, HAND_SECRET, scalar_to_bytes(secret))
            self._saved_secret = (hand, secret)
            self._on_disk.add(hand)
        me = s.seat
        for item in out.send:
            if isinstance(item, AuthoredEntry) and item.author == me:
                self.log_signed(item)
            elif isinstance(item, Entry) and item.author == me:
                self.log_signed(item.authored())
        if kept is None or mark[3] != kept[3]:
            # the counters signed since the last look (all of them, the first time)
            since = signed.keys() if kept is None else range(kept[3] + 1, mark[3] + 1)
            unlogged = [c for c in since if c in signed and c not in self._logged]
            if unlogged:
                raise KeepError(
                    f"counters {sorted(unlogged)} were signed but not kept; nothing sent"
                )
        transcript = self.transcript
        cuts = [e.seq for e in out.events if isinstance(e, ChainCut)]
        if cuts and min(cuts) < len(transcript):
            transcript.cut_back(min(cuts))
            self._checked_upto = min(self._checked_upto, len(transcript))
        held = len(transcript)
        if self._checked_upto < held:
            # a player coming back: what its file holds must be the chain's, entry for entry
            upto = min(held, ledger.head_seq + 1)
            for seq, entry in enumerate(
                transcript.read(self._checked_upto, upto), self._checked_upto
            ):
                if ledger[seq] != entry:
                    raise KeepError(
                        f"{transcript.path} holds another entry {seq} than this table's chain"
                    )
            self._checked_upto = upto
        leaves: list[tuple[int, int]] = []
        for seq in range(held, ledger.head_seq + 1):
            entry = ledger[seq]
            transcript.append(entry)
            if isinstance(entry.body, k.Leave):
                leaves.append((entry.author, seq))
            elif isinstance(entry.body, k.Refuse):
                leaves.append((entry.body.seat, seq))  # a newcomer refused goes as if it left
        if self._checked_upto == held:
            self._checked_upto = len(transcript)  # what it wrote just now is the chain's
        # what the transcript holds (and is the chain's) is read back from it when needed:
        # the session's ledger keeps only the current hand in memory (SPEC 8.4, "Flat memory")
        ledger.keep_from_store(min(self._checked_upto, len(transcript)), transcript.read)
        if any(isinstance(e, HandClosed) for e in out.events):
            transcript.sync()
            self.signed.sync()
        if self._on_disk:
            self._erase_done(s)
        self._kept = mark
        return Kept(moved=kept is None or mark[:2] != kept[:2], leaves=tuple(leaves))

    def _erase_done(self, s: Session) -> None:
        """Erase the secrets no restore can need (SPEC 8.9, a node's store): every one once the
        game has ended or this seat has left it; those of the current hand and before once no
        hand is running (the last one ended and all its players signed its head); those of
        earlier hands as soon as a later one has started."""
        upto: int | None
        if s.ended or (s.seat is not None and s.seat not in s.ledger.identities):
            upto = None  # every one
        elif s.between_hands:
            upto = s.hand_number
        else:
            upto = s.hand_number - 1
        if upto is None or min(self._on_disk) <= upto:
            # the transcript that shows the secret is not needed is durable before it goes
            self.transcript.sync()
            self.store.erase_secrets(s.game_id, upto)
            self._on_disk = {h for h in self._on_disk if upto is not None and h > upto}

    def reset(self) -> None:
        """Another session took over (a newcomer's seat, SPEC 8.9): the next `keep` is a full
        one, whatever it is given."""
        self._kept = None

    def close(self) -> None:
        """Make both files durable (fsync) and close them (safe twice)."""
        for f in (self.transcript, self.signed):
            with contextlib.suppress(OSError):
                f.sync()
            f.close()
