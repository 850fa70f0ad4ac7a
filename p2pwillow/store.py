"""A peer's files: identity keys, game transcripts and per-hand secrets (DESIGN 6, SPEC 6.2, 6.9).

Does file I/O, nothing else. Files are 0600 and directories 0700 where the OS has POSIX modes;
small files are replaced atomically; a secret is on disk (file and directory fsynced) before
`save_secret` returns; a transcript is appended and flushed per entry.
"""

# Layout
# ------
#   <config>/store.json         {"format": "p2pwillow-store", "version": 1}
#   <config>/identity.json      the Ed25519 seed and this node's CURVE key pair
#   <data>/store.json           the same marker
#   <data>/games/<game hex>/transcript.jsonl
#   <data>/games/<game hex>/signed.jsonl      every entry this node signed, as authored entries
#   <data>/games/<game hex>/table.json        the table as formed: roster, addresses, own seat
#   <data>/games/<game hex>/secrets/<hand>-<name>.json
#
# <config> and <data> are platformdirs' user config and data directories for "p2pwillow", or
# <root>/config and <root>/data when a root is given (the `root` argument, else $WILLOW_HOME),
# so that tests and several peers on one machine each keep their own.
#
# A store is refused, never rewritten, when its marker names a newer version, when a file of it
# cannot be read as what it should hold, or when a directory that should be a store holds files
# but no marker. The one repair made silently is the tail of a transcript torn by a crash
# (bytes after the last line feed): it is cut back to the last whole entry, and said so.

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import re
import stat
import threading
import time
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

import platformdirs

from p2pwillow.descriptors import RUN_SHORT, opening
from p2pwillow.ledger.entry import (
    GAME_ID_BYTES,
    AuthoredEntry,
    Entry,
    decode_authored,
    decode_entry,
)
from p2pwillow.ledger.errors import LocalProtocolError, RemoteProtocolError
from p2pwillow.ledger.identity import SEED_BYTES, Identity
from p2pwillow.limits import is_int

APP_NAME = "p2pwillow"
ENV_VAR = "WILLOW_HOME"
STORE_FORMAT = "p2pwillow-store"
STORE_VERSION = 1
MARKER = "store.json"
IDENTITY_FILE = "identity.json"
TRANSCRIPT_FILE = "transcript.jsonl"
SIGNED_FILE = "signed.jsonl"
TABLE_FILE = "table.json"
CURVE_KEY_BYTES = 32
MAX_SMALL_FILE = 1 << 20
"""Markers, identities and secrets are small; a larger one is not ours."""

SECRET_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
POSIX_MODES = os.name == "posix"
"""File modes are set where the OS has them (not on Windows, where a user's profile is private)."""

Rng = Callable[[int], bytes]


class StoreError(Exception):
    """The store cannot be used as it is; the message says which file and what to do."""


class StoreWriteError(StoreError):
    """A file of the store could not be written (a full disk, a read-only or removed home): what
    was written before is kept, and nothing that depended on this write was sent. The message
    names the path, the cause and what to do; `path` and `errno` say them to a program."""

    def __init__(self, path: Path | str, exc: OSError) -> None:
        self.path = Path(path)
        self.errno = exc.errno
        cause = exc.strerror or str(exc)
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            todo = "free some space there"
        elif exc.errno == errno.EROFS:
            todo = "make that file system writable again"
        elif exc.errno == errno.ENOENT:
            todo = "the directory was removed: put it back"
        elif exc.errno in (errno.EACCES, errno.EPERM):
            todo = "give this user write access there again"
        else:
            todo = "fix that"
        super().__init__(f"cannot write {self.path}: {cause}; {todo}")


def write_error(exc: OSError, path: Path | str) -> StoreWriteError:
    """The StoreWriteError for `exc` raised while writing `path` (the OSError's own file name
    if it has one: a directory that went away is named as such)."""
    return StoreWriteError(exc.filename if exc.filename else path, exc)


# --- small files, written atomically ------------------------------------------------------------


def _private_dir(path: Path) -> None:
    """Make `path` (and missing parents) a directory only its user can enter. A directory this
    makes is 0700; an existing one keeps its mode, never changed silently: a store directory
    that others may read or enter is refused by `_check_private` (SPEC 8.9, a node's store)."""
    missing = []
    at = path
    while not at.exists():
        missing.append(at)
        if at.parent == at:
            break
        at = at.parent
    for directory in reversed(missing):
        directory.mkdir(mode=0o700, exist_ok=True)
        if POSIX_MODES:
            os.chmod(directory, 0o700)  # mkdir's mode is cut by the umask: this one is ours
    if not path.is_dir():
        raise StoreError(f"{path} should be a directory of the store but is not one")


def _check_private(path: Path) -> None:
    """StoreError (wrong mode) if `path`, a directory of the store holding keys or secrets, may
    be read or entered by other users: it is never made private silently."""
    if not POSIX_MODES:
        return
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        raise StoreError(
            f"{path} has mode {mode:04o}: other users may read this store's keys and secrets; "
            f"make it private (chmod 700 {path}) or use another --home"
        )


def _fsync_dir(path: Path) -> None:
    """Make a rename or a new file in `path` durable (POSIX; Windows cannot open directories)."""
    if not POSIX_MODES:
        return
    fd = _open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


RUN_SHORT_FOR = 5.0
"""Seconds an open is tried again while descriptors are short (the door sheds a flood's
connections within its handshake interval, a few seconds)."""


def _open(path: Path | str, flags: int, mode: int = 0o777) -> int:
    """os.open, in the descriptors set apart for the node's own use if the process runs short
    (a flood of connections at its door: `descriptors`, SPEC 8.3), and tried again every 20 ms
    for up to RUN_SHORT_FOR if even those are taken: that passes, a failed write of the store
    would stop the node."""
    deadline = time.monotonic() + RUN_SHORT_FOR
    while True:
        try:
            return opening(lambda: os.open(path, flags, mode))
        except OSError as exc:
            if exc.errno not in RUN_SHORT or time.monotonic() >= deadline:
                raise
        time.sleep(0.02)


def _open_private(path: Path, flags: int) -> int:
    fd = _open(path, flags | getattr(os, "O_BINARY", 0), 0o600)
    if POSIX_MODES:
        os.fchmod(fd, 0o600)
    return fd


def atomic_write(path: Path, data: bytes) -> None:
    """Replace `path` by `data`: write a temporary file, fsync it, rename it over `path`, fsync
    the directory. A reader sees the old content or the new, never a mix; mode 0600.
    StoreWriteError if it cannot be written (the old content is kept)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        fd = _open_private(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    except OSError as exc:
        raise write_error(exc, path) from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        if isinstance(exc, OSError):
            raise write_error(exc, path) from None
        raise
    try:
        _fsync_dir(path.parent)
    except OSError as exc:
        raise write_error(exc, path.parent) from None


def _read_json(path: Path, what: str) -> dict[str, object]:
    try:
        with path.open("rb") as f:
            raw = f.read(MAX_SMALL_FILE + 1)
    except OSError as exc:
        raise StoreError(f"cannot read {what} {path}: {exc.strerror}") from None
    if len(raw) > MAX_SMALL_FILE:
        raise StoreError(f"{what} {path} is corrupt (too large); move it aside")
    try:
        value = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise StoreError(f"{what} {path} is corrupt (not JSON); move it aside") from None
    if not isinstance(value, dict):
        raise StoreError(f"{what} {path} is corrupt (not a JSON object); move it aside")
    return value


def _check_version(obj: dict[str, object], what: str, path: Path) -> None:
    """StoreError unless `obj` is of this store's version: a newer one says so (upgrade), any
    other value is corruption."""
    version = obj.get("version")
    if type(version) is int and version > STORE_VERSION:
        raise StoreError(
            f"{what} {path} was written by a newer p2pwillow (version {version}, this one reads "
            f"{STORE_VERSION}); upgrade p2pwillow"
        )
    if version != STORE_VERSION:
        raise StoreError(f"{what} {path} is corrupt (its version is not a number); move it aside")


def _dump(value: dict[str, object]) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode("utf-8") + b"\n"


def _hex_field(obj: dict[str, object], key: str, size: int, what: str, path: Path) -> bytes:
    value = obj.get(key)
    if not isinstance(value, str) or len(value) != 2 * size:
        raise StoreError(f"{what} {path} is corrupt ({key}); move it aside")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise StoreError(f"{what} {path} is corrupt ({key}); move it aside") from None


# --- the store's marker -------------------------------------------------------------------------


def _claim(directory: Path) -> None:
    """Open `directory` as a store: check its marker, or write one into a new, empty directory."""
    marker = directory / MARKER
    if marker.exists():
        obj = _read_json(marker, "store marker")
        version = obj.get("version")
        if obj.get("format") != STORE_FORMAT or type(version) is not int or version < 1:
            raise StoreError(f"store marker {marker} is corrupt; move the directory aside")
        if version > STORE_VERSION:
            raise StoreError(
                f"the store in {directory} was written by a newer p2pwillow (store version "
                f"{version}, this one reads {STORE_VERSION}); upgrade p2pwillow"
            )
        _check_private(directory)
        return
    if directory.exists():
        if not directory.is_dir():
            raise StoreError(f"{directory} should be a store directory but is a file")
        if any(directory.iterdir()):
            raise StoreError(
                f"{directory} holds files but no {MARKER}: not a p2pwillow store, or a corrupt "
                "one; move it aside or point WILLOW_HOME elsewhere"
            )
    _private_dir(directory)
    _check_private(directory)
    atomic_write(marker, _dump({"format": STORE_FORMAT, "version": STORE_VERSION}))


# --- values kept in the store -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NodeKeys:
    """A player's long-term keys: the Ed25519 identity and this node's CURVE key pair (raw
    32-byte X25519 keys), kept together so that a restarted node is let in again (SPEC 8.5)."""

    identity: Identity
    curve_public: bytes
    curve_secret: bytes = field(repr=False)


@dataclass(frozen=True, slots=True)
class Recovery:
    """What reopening a transcript repaired: `cut` bytes of a torn last line were removed."""

    path: Path
    entries: int
    cut: int

    @property
    def message(self) -> str:
        return (
            f"{self.path}: the last line was torn (a crash while writing it); cut {self.cut} "
            f"bytes back to entry {self.entries - 1}, the last whole one"
        )


def _whole_lines(path: Path, what: str) -> tuple[list[bytes], int]:
    """The whole lines of `path` (none if it does not exist) and how many bytes follow the last
    line feed (a line torn by a crash)."""
    raw = b""
    if path.exists():
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise StoreError(f"cannot read {what} {path}: {exc.strerror}") from None
    whole = raw[: raw.rfind(b"\n") + 1]
    return whole.split(b"\n")[:-1], len(raw) - len(whole)


def _cut_tail(path: Path, torn: int) -> None:
    """Cut the torn last line off `path`, durably."""
    try:
        with path.open("r+b") as f:
            f.seek(0, os.SEEK_END)
            f.truncate(f.tell() - torn)
            f.flush()
            os.fsync(f.fileno())
    except OSError as exc:
        raise write_error(exc, path) from None


class _LineFile:
    """A file of canonical lines, open for appending (0600), each line handed to the OS as
    written (unbuffered: nothing waits in this process). A write that fails (a full disk, a
    read-only or removed home) is StoreWriteError, and the file takes no line after it: a line
    torn by the failure stays the last one, cut back when the file is opened again."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            fd = _open_private(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        except OSError as exc:
            raise write_error(exc, path) from None
        self._file: BinaryIO | None = os.fdopen(fd, "ab", buffering=0)
        self._failed: StoreWriteError | None = None

    def _write(self, line: bytes, what: str) -> None:
        if self._file is None:
            raise LocalProtocolError(f"the {what} is closed")
        if self._failed is not None:
            raise self._failed
        data = memoryview(line + b"\n")
        try:
            while data:
                written = self._file.write(data)
                data = data[written or 0 :]
        except OSError as exc:
            self._failed = write_error(exc, self.path)
            raise self._failed from None

    def sync(self) -> None:
        """Make what was appended durable (fsync), e.g. at the end of a hand."""
        if self._file is not None:
            try:
                os.fsync(self._file.fileno())
            except OSError as exc:
                raise write_error(exc, self.path) from None

    def close(self) -> None:
        if self._file is not None:
            with contextlib.suppress(OSError):
                self._file.close()
            self._file = None


def _pread_all(fd: int, size: int, offset: int) -> Iterator[bytes]:
    """`size` bytes of `fd` from `offset` (OSError if the file is shorter)."""
    while size > 0:
        chunk = os.pread(fd, size, offset)
        if not chunk:
            raise OSError(errno.EIO, "the file is shorter than what was written to it")
        yield chunk
        size -= len(chunk)
        offset += len(chunk)


class Transcript(_LineFile):
    """One game's transcript file (SPEC 6.9), open for appending.

    It keeps where each entry's line ends, not the entries: those are read back from the file
    when asked for (`read`, `entry`, `entries`), so that a long game's memory stays flat (a
    peer's catch-up, a resumed node's replay). `recovery` says what was cut from a torn tail,
    if anything. `append` writes one entry and its line feed and flushes.
    """

    def __init__(self, path: Path, ends: list[int], recovery: Recovery | None) -> None:
        super().__init__(path)
        self._ends = array("q", ends)
        """The offset just past each entry's line feed, packed (8 bytes an entry, where a list
        of ints takes about 36: it grows with the game, SPEC 8.4 "Flat memory")."""
        self.recovery = recovery
        self._reader: int | None = None
        """A descriptor to read entries back with (opened once, under `_opening`)."""
        self._opening = threading.Lock()

    @classmethod
    def open(cls, path: Path) -> Transcript:
        """Open (or create) the transcript at `path`, reading and checking every line."""
        existed = path.exists()
        lines, torn = _whole_lines(path, "transcript")
        ends: list[int] = []
        at = 0
        for number, line in enumerate(lines, start=1):
            try:
                entry = decode_entry(line)
            except RemoteProtocolError as exc:
                raise StoreError(
                    f"transcript {path} is corrupt at line {number} ({exc}); it is kept as it is: "
                    "move it aside to start over"
                ) from None
            if entry.seq != len(ends):
                raise StoreError(
                    f"transcript {path} is corrupt at line {number} (entry {entry.seq} where "
                    f"{len(ends)} belongs); move it aside to start over"
                )
            at += len(line) + 1
            ends.append(at)
        del lines
        recovery = None
        if torn:
            recovery = Recovery(path, len(ends), torn)
            _cut_tail(path, torn)
        transcript = cls(path, ends, recovery)
        if not existed:
            _fsync_dir(path.parent)
        return transcript

    def __len__(self) -> int:
        """How many entries it holds."""
        return len(self._ends)

    def read(self, start: int, stop: int | None = None) -> list[Entry]:
        """Entries `start` up to (not including) `stop` (default: the last), read back from the
        file, which holds every entry appended (each one flushed as written)."""
        stop = len(self._ends) if stop is None else min(stop, len(self._ends))
        if start >= stop:
            return []
        begin = self._ends[start - 1] if start > 0 else 0
        size = self._ends[stop - 1] - begin
        try:
            # the node's loop (a peer's catch-up) and its session's thread may both read: one
            # descriptor, opened once, read with pread
            with self._opening:
                if self._reader is None:
                    self._reader = _open(self.path, os.O_RDONLY)
                reader = self._reader
            data = b"".join(_pread_all(reader, size, begin))
        except OSError as exc:
            raise StoreError(f"cannot read transcript {self.path}: {exc.strerror}") from None
        try:
            entries = [decode_entry(line) for line in data.split(b"\n")[:-1]]
        except RemoteProtocolError as exc:
            raise StoreError(f"transcript {self.path} changed under the game ({exc})") from None
        if [e.seq for e in entries] != list(range(start, stop)):
            raise StoreError(f"transcript {self.path} changed under the game")
        return entries

    def entry(self, seq: int) -> Entry:
        """Entry `seq`, read back from the file."""
        if not 0 <= seq < len(self._ends):
            raise LocalProtocolError(f"the transcript holds no entry {seq}")
        return self.read(seq, seq + 1)[0]

    @property
    def entries(self) -> list[Entry]:
        """Every entry, read back from the file (a resumed node's replay, a check)."""
        return self.read(0)

    @property
    def last(self) -> Entry | None:
        return self.entry(len(self._ends) - 1) if len(self._ends) else None

    def append(self, entry: Entry) -> None:
        """Write `entry` as the next line and flush it to the OS (SPEC 6.9)."""
        if entry.seq != len(self._ends):
            raise LocalProtocolError(f"entry {entry.seq} is not the next one ({len(self._ends)})")
        line = entry.encode()
        self._write(line, "transcript")
        self._ends.append((self._ends[-1] if len(self._ends) else 0) + len(line) + 1)

    def cut_back(self, seq: int) -> None:
        """Drop entry `seq` and every later one, durably: the session cut its chain back there
        (an equivocation proved, or a sequencer change taking the place of what the replaced
        seat sequenced; SPEC 6.8, 7.5)."""
        if not 0 < seq <= len(self._ends):
            raise LocalProtocolError(f"cannot cut the transcript back to before entry {seq}")
        if self._file is None:
            raise LocalProtocolError("the transcript is closed")
        keep = self._ends[seq - 1]
        try:
            os.ftruncate(self._file.fileno(), keep)
            os.fsync(self._file.fileno())
        except OSError as exc:
            raise write_error(exc, self.path) from None
        del self._ends[seq:]

    def close(self) -> None:
        if self._reader is not None:
            with contextlib.suppress(OSError):
                os.close(self._reader)
            self._reader = None
        super().close()

    def __enter__(self) -> Transcript:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class SignedLog(_LineFile):
    """Every entry this node signed in one game, in the order signed, as authored entries (one
    canonical line each): appended and flushed before the entry is sent, so that a restarted
    node knows what it has signed (DESIGN 5.1: the per-author counters). A torn last line is cut
    back as in a transcript. The entries are read back from the file when asked for
    (`entries`), not kept: a long game's memory stays flat."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)

    @classmethod
    def open(cls, path: Path) -> SignedLog:
        lines, torn = _whole_lines(path, "log of signed entries")
        _signed_entries(path, lines)
        if torn:
            _cut_tail(path, torn)
        return cls(path)

    @property
    def entries(self) -> list[AuthoredEntry]:
        """Every entry in the log, read back from the file."""
        lines, _ = _whole_lines(self.path, "log of signed entries")
        return _signed_entries(self.path, lines)

    def append(self, entry: AuthoredEntry) -> None:
        """Write `entry` as the next line and flush it to the OS."""
        self._write(entry.encode(), "log of signed entries")


def _signed_entries(path: Path, lines: list[bytes]) -> list[AuthoredEntry]:
    entries = []
    for number, line in enumerate(lines, start=1):
        try:
            entries.append(decode_authored(line))
        except RemoteProtocolError as exc:
            raise StoreError(
                f"{path} is corrupt at line {number} ({exc}); it is kept as it is"
            ) from None
    return entries


class Store:
    """A peer's store: `config` holds its keys, `data` its games. Use `Store.open()`."""

    def __init__(self, config: Path, data: Path) -> None:
        self.config = config
        self.data = data

    @classmethod
    def open(cls, root: Path | str | None = None) -> Store:
        """The store under `root` (or $WILLOW_HOME), else under platformdirs' user config and
        data directories. StoreError if it is from a newer version or corrupt."""
        if root is None and os.environ.get(ENV_VAR):
            root = os.environ[ENV_VAR]
        if root is not None:
            base = Path(root).expanduser()
            config, data = base / "config", base / "data"
            try:
                _private_dir(base)  # a new home is made 0700; an existing one keeps its mode
            except OSError as exc:
                raise write_error(exc, base) from None
        else:
            config = Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))
            data = Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
        try:
            _claim(config)
            _claim(data)
        except OSError as exc:
            raise write_error(exc, data) from None
        return cls(config, data)

    # --- keys ------------------------------------------------------------------------------------

    @property
    def identity_path(self) -> Path:
        return self.config / IDENTITY_FILE

    def load_keys(self) -> NodeKeys | None:
        """The stored keys, or None if this store has none yet."""
        path = self.identity_path
        if not path.exists():
            return None
        obj = _read_json(path, "identity file")
        _check_version(obj, "identity file", path)
        seed = _hex_field(obj, "ed25519_seed", SEED_BYTES, "identity file", path)
        public = _hex_field(obj, "curve_public", CURVE_KEY_BYTES, "identity file", path)
        secret = _hex_field(obj, "curve_secret", CURVE_KEY_BYTES, "identity file", path)
        identity = Identity.from_private_bytes(seed)
        if obj.get("identity_key") != identity.public_key.hex():
            raise StoreError(f"identity file {path} is corrupt (identity_key); move it aside")
        return NodeKeys(identity, public, secret)

    def save_keys(self, keys: NodeKeys) -> None:
        """Write the keys (0600, atomically). StoreError if keys are already stored: a player's
        identity is never overwritten."""
        if self.identity_path.exists():
            raise StoreError(f"{self.identity_path} exists; an identity is never overwritten")
        atomic_write(
            self.identity_path,
            _dump(
                {
                    "version": STORE_VERSION,
                    "ed25519_seed": keys.identity.private_bytes().hex(),
                    "identity_key": keys.identity.public_key.hex(),
                    "curve_public": keys.curve_public.hex(),
                    "curve_secret": keys.curve_secret.hex(),
                }
            ),
        )

    def keys(self, make: Callable[[], NodeKeys]) -> NodeKeys:
        """The stored keys; on first use, `make()` new ones and store them."""
        found = self.load_keys()
        if found is not None:
            return found
        made = make()
        self.save_keys(made)
        return made

    # --- games -----------------------------------------------------------------------------------

    def game_dir(self, game: bytes) -> Path:
        if not isinstance(game, bytes) or len(game) != GAME_ID_BYTES:
            raise LocalProtocolError(f"a game id is {GAME_ID_BYTES} bytes")
        return self.data / "games" / game.hex()

    def games(self) -> list[bytes]:
        """The ids of the games this store has files for."""
        root = self.data / "games"
        if not root.is_dir():
            return []
        out = []
        for child in sorted(root.iterdir()):
            with contextlib.suppress(ValueError):
                game = bytes.fromhex(child.name)
                if len(game) == GAME_ID_BYTES and child.is_dir():
                    out.append(game)
        return out

    def _game_files(self, game: bytes) -> Path:
        """The game's directory, made (0700) if missing; StoreWriteError if it cannot be."""
        directory = self.game_dir(game)
        try:
            _private_dir(directory)
        except OSError as exc:
            raise write_error(exc, directory) from None
        return directory

    def transcript(self, game: bytes) -> Transcript:
        """The game's transcript, open for appending (created empty for a new game)."""
        return Transcript.open(self._game_files(game) / TRANSCRIPT_FILE)

    def signed(self, game: bytes) -> SignedLog:
        """The log of the entries this node signed in the game, open for appending."""
        return SignedLog.open(self._game_files(game) / SIGNED_FILE)

    def save_table(self, game: bytes, data: bytes) -> None:
        """Keep the table as it was formed (the lobby's roster and this node's seat: what a
        restarted node needs to find its peers again), atomically, 0600."""
        atomic_write(self._game_files(game) / TABLE_FILE, data)

    def load_table(self, game: bytes) -> bytes | None:
        path = self.game_dir(game) / TABLE_FILE
        if not path.exists():
            return None
        try:
            return path.read_bytes()
        except OSError as exc:
            raise StoreError(f"cannot read {path}: {exc.strerror}") from None

    def _secret_path(self, game: bytes, hand: int, name: str) -> Path:
        if not is_int(hand) or hand < 0:
            raise LocalProtocolError("a hand number is an integer >= 0")
        if not isinstance(name, str) or SECRET_NAME.fullmatch(name) is None:
            raise LocalProtocolError(f"a secret's name is 1..64 of a-z 0-9 _ -, not {name!r}")
        return self.game_dir(game) / "secrets" / f"{hand}-{name}.json"

    def save_secret(self, game: bytes, hand: int, name: str, data: bytes) -> None:
        """Keep a per-hand secret. When this returns the file and its directory are fsynced, so
        the caller may send what depends on it (DESIGN 6)."""
        path = self._secret_path(game, hand, name)
        try:
            _private_dir(path.parent)
        except OSError as exc:
            raise write_error(exc, path.parent) from None
        record = {
            "version": STORE_VERSION,
            "game": game.hex(),
            "hand": hand,
            "name": name,
            "data": data.hex(),
            "sha256": hashlib.sha256(data).hexdigest(),
        }
        atomic_write(path, _dump(record))

    def load_secret(self, game: bytes, hand: int, name: str) -> bytes | None:
        """A secret saved by `save_secret`, or None if there is none; StoreError if corrupt."""
        path = self._secret_path(game, hand, name)
        if not path.exists():
            return None
        obj = _read_json(path, "secret")
        _check_version(obj, "secret", path)
        data_hex = obj.get("data")
        if (
            obj.get("game") != game.hex()
            or obj.get("hand") != hand
            or obj.get("name") != name
            or not isinstance(data_hex, str)
        ):
            raise StoreError(f"secret {path} is corrupt (not this hand's); move it aside")
        try:
            data = bytes.fromhex(data_hex)
        except ValueError:
            raise StoreError(f"secret {path} is corrupt (data); move it aside") from None
        if hashlib.sha256(data).hexdigest() != obj.get("sha256"):
            raise StoreError(f"secret {path} is corrupt (checksum); move it aside")
        return data

    def secrets(self, game: bytes) -> Iterator[tuple[int, str]]:
        """(hand, name) of every secret kept for the game."""
        directory = self.game_dir(game) / "secrets"
        if not directory.is_dir():
            return
        for child in sorted(directory.glob("*.json")):
            hand, _, name = child.stem.partition("-")
            if hand.isdigit() and SECRET_NAME.fullmatch(name):
                yield int(hand), name

    def erase_secrets(self, game: bytes, upto_hand: int | None = None) -> int:
        """Erase the game's secrets of hands up to `upto_hand` (every one if None): each file
        overwritten, fsynced, removed, its directory fsynced (`erase_file`). How many it erased.
        StoreWriteError if one cannot be."""
        erased = 0
        for hand, name in list(self.secrets(game)):
            if upto_hand is None or hand <= upto_hand:
                erase_file(self._secret_path(game, hand, name))
                erased += 1
        return erased


def erase_file(path: Path) -> None:
    """Erase `path` as far as a file system allows: its bytes overwritten with as many zeros in
    place, fsynced, then the file removed and its directory fsynced, so that neither the file
    nor its name outlives the call (SPEC 8.9, a node's store). A missing file is erased already.
    StoreWriteError if it cannot be done."""
    try:
        fd = _open(path, os.O_WRONLY | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        return
    except OSError as exc:
        raise write_error(exc, path) from None
    try:
        try:
            size = os.fstat(fd).st_size
            zeros = memoryview(bytes(size))
            os.lseek(fd, 0, os.SEEK_SET)
            while zeros:
                zeros = zeros[os.write(fd, zeros) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.unlink(path)
        _fsync_dir(path.parent)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise write_error(exc, path) from None


__all__ = [
    "ENV_VAR",
    "STORE_VERSION",
    "NodeKeys",
    "Recovery",
    "SignedLog",
    "Store",
    "StoreError",
    "StoreWriteError",
    "Transcript",
    "atomic_write",
    "erase_file",
    "write_error",
]
