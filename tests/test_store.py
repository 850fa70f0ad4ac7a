"""The store: modes, durability points, torn transcripts, refusals of newer or corrupt stores."""

from __future__ import annotations

import json
import os
import random
import stat
from pathlib import Path

import platformdirs
import pytest

from p2pwillow.ledger.entry import Entry
from p2pwillow.ledger.identity import Identity
from p2pwillow.store import ENV_VAR, NodeKeys, Store, StoreError, Transcript, atomic_write
from p2pwillow.table import Table

POSIX = os.name == "posix"
GAME = bytes(range(16))


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _keys(seed: int = 1) -> NodeKeys:
    r = random.Random(seed)
    return NodeKeys(Identity.generate(r.randbytes), r.randbytes(32), r.randbytes(32))


@pytest.fixture(scope="module")
def entries() -> list[Entry]:
    r = random.Random(7)
    table = Table(2, seed=7, rng=r.randbytes, samples=20)
    table.start_hand()
    assert len(table.transcript) >= 6
    return table.transcript[:6]


def test_root_argument_and_env_var(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    s = Store.open(tmp_path / "a")
    assert s.config == tmp_path / "a" / "config" and s.data == tmp_path / "a" / "data"
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "b"))
    assert Store.open().data == tmp_path / "b" / "data"
    assert Store.open(tmp_path / "c").data == tmp_path / "c" / "data"  # the argument wins


def test_platformdirs_is_the_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    monkeypatch.setattr(platformdirs, "user_config_dir", lambda *a, **k: str(tmp_path / "cfg"))
    monkeypatch.setattr(platformdirs, "user_data_dir", lambda *a, **k: str(tmp_path / "dat"))
    s = Store.open()
    assert (s.config, s.data) == (tmp_path / "cfg", tmp_path / "dat")


@pytest.mark.skipif(not POSIX, reason="file modes are POSIX")
def test_files_0600_directories_0700(tmp_path: Path, entries: list[Entry]) -> None:
    os.umask(0o022)
    s = Store.open(tmp_path / "home")
    s.save_keys(_keys())
    with s.transcript(GAME) as t:
        t.append(entries[0])
    s.save_secret(GAME, 1, "hand-key", b"x" * 32)
    for path in (tmp_path / "home").rglob("*"):
        expected = 0o700 if path.is_dir() else 0o600
        assert _mode(path) == expected, path
    assert _mode(tmp_path / "home") == 0o700


@pytest.mark.skipif(not POSIX, reason="file modes are POSIX")
def test_no_directory_mode_is_changed_silently(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir(mode=0o755)
    os.chmod(home, 0o755)
    Store.open(home)
    assert _mode(home) == 0o755, "an existing --home keeps its mode"
    assert _mode(home / "data") == 0o700 and _mode(home / "config") == 0o700
    os.chmod(home / "data", 0o755)
    with pytest.raises(StoreError) as refused:
        Store.open(home)
    assert str(refused.value) == (
        f"{home / 'data'} has mode 0755: other users may read this store's keys and secrets; "
        f"make it private (chmod 700 {home / 'data'}) or use another --home"
    )
    assert _mode(home / "data") == 0o755, "refused, not changed"


def test_keys_round_trip_and_never_overwritten(tmp_path: Path) -> None:
    s = Store.open(tmp_path)
    assert s.load_keys() is None
    made = s.keys(_keys)
    again = Store.open(tmp_path).keys(lambda: _keys(2))
    assert again.identity.public_key == made.identity.public_key
    assert (again.curve_public, again.curve_secret) == (made.curve_public, made.curve_secret)
    with pytest.raises(StoreError, match="never overwritten"):
        s.save_keys(_keys(3))


def test_an_identity_of_a_newer_version_says_so(tmp_path: Path) -> None:
    s = Store.open(tmp_path)
    s.save_keys(_keys())
    obj = json.loads(s.identity_path.read_text())
    obj["version"] = 2
    s.identity_path.write_text(json.dumps(obj))
    with pytest.raises(StoreError) as refused:
        s.load_keys()
    assert str(refused.value) == (
        f"identity file {s.identity_path} was written by a newer p2pwillow (version 2, this "
        "one reads 1); upgrade p2pwillow"
    )
    obj["version"] = "one"
    s.identity_path.write_text(json.dumps(obj))
    with pytest.raises(StoreError, match="is corrupt"):
        s.load_keys()


def test_corrupt_identity_refused_and_kept(tmp_path: Path) -> None:
    s = Store.open(tmp_path)
    s.save_keys(_keys())
    obj = json.loads(s.identity_path.read_text())
    obj["identity_key"] = "00" * 32  # does not match the seed
    s.identity_path.write_text(json.dumps(obj))
    before = s.identity_path.read_bytes()
    with pytest.raises(StoreError, match="corrupt"):
        s.load_keys()
    with pytest.raises(StoreError):
        s.keys(_keys)  # not replaced by new keys either
    assert s.identity_path.read_bytes() == before
    s.identity_path.write_bytes(b"\x00\x01garbage")
    with pytest.raises(StoreError, match="not JSON"):
        s.load_keys()


def test_newer_store_refused_never_overwritten(tmp_path: Path) -> None:
    Store.open(tmp_path)
    marker = tmp_path / "data" / "store.json"
    marker.write_text('{"format": "p2pwillow-store", "version": 2}')
    with pytest.raises(StoreError, match="newer p2pwillow"):
        Store.open(tmp_path)
    assert json.loads(marker.read_text())["version"] == 2


@pytest.mark.parametrize(
    "content",
    [b"", b"{not json", b'{"format": "other", "version": 1}', b'{"format": "p2pwillow-store"}'],
)
def test_corrupt_marker_refused(tmp_path: Path, content: bytes) -> None:
    Store.open(tmp_path)
    marker = tmp_path / "config" / "store.json"
    marker.write_bytes(content)
    with pytest.raises(StoreError, match="corrupt"):
        Store.open(tmp_path)
    assert marker.read_bytes() == content


def test_directory_without_marker_refused(tmp_path: Path) -> None:
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "something").write_text("not ours")
    with pytest.raises(StoreError, match=r"no store\.json"):
        Store.open(tmp_path)
    assert not (tmp_path / "config" / "store.json").exists()


def test_transcript_appends_and_reopens(tmp_path: Path, entries: list[Entry]) -> None:
    s = Store.open(tmp_path)
    with s.transcript(GAME) as t:
        for e in entries[:3]:
            t.append(e)
        # flushed per entry: another reader sees every line at once
        assert t.path.read_bytes() == b"".join(e.encode() + b"\n" for e in entries[:3])
    with s.transcript(GAME) as t:
        assert t.entries == entries[:3] and t.recovery is None
        t.append(entries[3])
    assert [e.seq for e in Transcript.open(t.path).entries] == [0, 1, 2, 3]
    assert s.games() == [GAME]


def test_transcript_cut_back_drops_the_tail_durably(tmp_path: Path, entries: list[Entry]) -> None:
    """A chain cut back by the session (SPEC 6.8) is cut back on disk: the next entry appended
    takes the place of the dropped ones, and reopening reads exactly that."""
    from p2pwillow.ledger.errors import LocalProtocolError

    s = Store.open(tmp_path)
    with s.transcript(GAME) as t:
        for e in entries[:5]:
            t.append(e)
        t.cut_back(3)
        assert t.entries == entries[:3]
        assert t.path.read_bytes() == b"".join(e.encode() + b"\n" for e in entries[:3])
        t.append(entries[3])
        for bad in (0, 5):
            with pytest.raises(LocalProtocolError):
                t.cut_back(bad)
    assert Transcript.open(t.path).entries == entries[:4]


def test_transcript_refuses_an_entry_out_of_order(tmp_path: Path, entries: list[Entry]) -> None:
    from p2pwillow.ledger.errors import LocalProtocolError

    with Store.open(tmp_path).transcript(GAME) as t, pytest.raises(LocalProtocolError):
        t.append(entries[1])


def test_torn_last_line_is_cut_back(tmp_path: Path, entries: list[Entry]) -> None:
    s = Store.open(tmp_path)
    with s.transcript(GAME) as t:
        for e in entries[:4]:
            t.append(e)
    torn = entries[4].encode()[:57]  # the crash hit while the fifth line was being written
    with t.path.open("ab") as f:
        f.write(torn)
    with s.transcript(GAME) as t2:
        assert t2.recovery is not None and t2.recovery.cut == len(torn)
        assert "torn" in t2.recovery.message and "entry 3" in t2.recovery.message
        assert t2.entries == entries[:4]
        t2.append(entries[4])  # and it goes on from there
    assert Transcript.open(t.path).entries == entries[:5]


@pytest.mark.parametrize("damage", ["garbage line", "flipped byte", "missing entry"])
def test_corrupt_transcript_refused_and_kept(
    tmp_path: Path, entries: list[Entry], damage: str
) -> None:
    s = Store.open(tmp_path)
    with s.transcript(GAME) as t:
        for e in entries[:4]:
            t.append(e)
    lines = t.path.read_bytes().split(b"\n")
    if damage == "garbage line":
        lines[1] = b"hello"
    elif damage == "flipped byte":
        lines[2] = lines[2].replace(b'"hand":', b'"hand" :', 1)  # not canonical any more
    else:
        del lines[1]
    broken = b"\n".join(lines)
    t.path.write_bytes(broken)
    with pytest.raises(StoreError, match="corrupt at line"):
        s.transcript(GAME)
    assert t.path.read_bytes() == broken


def test_newer_version_entry_refused(tmp_path: Path, entries: list[Entry]) -> None:
    s = Store.open(tmp_path)
    path = s.game_dir(GAME)
    path.mkdir(parents=True)
    line = entries[0].encode().replace(b'"v":1', b'"v":2')
    (path / "transcript.jsonl").write_bytes(line + b"\n")
    with pytest.raises(StoreError, match="bad-version"):
        s.transcript(GAME)


def test_secret_round_trip_and_durability_calls(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = Store.open(tmp_path)
    synced: list[str] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append("dir" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    s.save_secret(GAME, 2, "hand-key", b"\x01\x02")
    # the file's content, then the rename in its directory, both reached the disk
    assert synced[-2:] == ["file", "dir"] if POSIX else synced[-1:] == ["file"]
    monkeypatch.undo()
    assert s.load_secret(GAME, 2, "hand-key") == b"\x01\x02"
    assert s.load_secret(GAME, 3, "hand-key") is None
    assert list(s.secrets(GAME)) == [(2, "hand-key")]
    s.save_secret(GAME, 2, "hand-key", b"\x03")  # replaced atomically
    assert s.load_secret(GAME, 2, "hand-key") == b"\x03"
    assert not [p for p in s.game_dir(GAME).rglob("*.tmp")]
    s.save_secret(GAME, 5, "deck", b"\x04")
    assert s.erase_secrets(GAME, 4) == 1
    assert list(s.secrets(GAME)) == [(5, "deck")]
    assert s.erase_secrets(GAME) == 1
    assert list(s.secrets(GAME)) == []


@pytest.mark.skipif(not POSIX, reason="directories are fsynced on POSIX")
def test_a_secret_is_overwritten_synced_removed_and_its_directory_synced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    s = Store.open(tmp_path)
    s.save_secret(GAME, 3, "hand-key", b"\x5a" * 32)
    path = s.game_dir(GAME) / "secrets" / "3-hand-key.json"
    size = path.stat().st_size
    steps: list[object] = []
    real_fsync, real_unlink = os.fsync, os.unlink

    def fsync(fd: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            steps.append("fsync dir")
        else:
            steps.append(("fsync file", path.read_bytes()))
        real_fsync(fd)

    def unlink(target: object, *args: object, **kwargs: object) -> None:
        steps.append(("unlink", Path(str(target)), path.read_bytes()))
        real_unlink(target)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "unlink", unlink)
    s.erase_secrets(GAME)
    monkeypatch.undo()
    zeros = bytes(size)
    # the bytes overwritten in place (same length) and synced, then the name removed, then
    # the removal synced: at no step is the secret's value left in the file
    assert steps == [("fsync file", zeros), ("unlink", path, zeros), "fsync dir"]
    assert not path.exists()
    assert list(s.secrets(GAME)) == []


def test_a_file_that_cannot_be_written_names_its_path_and_what_to_do(
    tmp_path: Path, entries: list[Entry]
) -> None:
    import errno

    from p2pwillow.store import StoreWriteError

    s = Store.open(tmp_path)
    with s.transcript(GAME) as t:
        os.close(t._file.fileno())  # type: ignore[union-attr]  # any write now fails: EBADF
        with pytest.raises(StoreWriteError, match=r"cannot write .*transcript\.jsonl"):
            t.append(entries[0])
        with pytest.raises(StoreWriteError):
            t.append(entries[0])  # no line goes after a failed one
    full = StoreWriteError(tmp_path / "x", OSError(errno.ENOSPC, os.strerror(errno.ENOSPC)))
    assert (
        str(full)
        == f"cannot write {tmp_path / 'x'}: No space left on device; free some space there"
    )
    gone = StoreWriteError(tmp_path, OSError(errno.ENOENT, os.strerror(errno.ENOENT)))
    assert "was removed: put it back" in str(gone)
    ro = StoreWriteError(tmp_path, OSError(errno.EROFS, os.strerror(errno.EROFS)))
    assert "make that file system writable again" in str(ro)


def test_corrupt_secret_refused(tmp_path: Path) -> None:
    s = Store.open(tmp_path)
    s.save_secret(GAME, 1, "k", b"\xaa" * 8)
    path = s.game_dir(GAME) / "secrets" / "1-k.json"
    obj = json.loads(path.read_text())
    obj["data"] = "bb" * 8
    path.write_text(json.dumps(obj))
    with pytest.raises(StoreError, match="checksum"):
        s.load_secret(GAME, 1, "k")
    obj["hand"] = 9
    path.write_text(json.dumps(obj))
    with pytest.raises(StoreError, match="corrupt"):
        s.load_secret(GAME, 1, "k")


def test_secret_names_checked(tmp_path: Path) -> None:
    from p2pwillow.ledger.errors import LocalProtocolError

    s = Store.open(tmp_path)
    for bad in ("../x", "", "A", "x/y"):
        with pytest.raises(LocalProtocolError):
            s.save_secret(GAME, 1, bad, b"")


def test_atomic_write_leaves_old_content_on_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "f"
    atomic_write(path, b"old")

    def broken_replace(src: object, dst: object) -> None:
        raise OSError("disk gone")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(StoreError, match="cannot write"):
        atomic_write(path, b"new")
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["f"]
