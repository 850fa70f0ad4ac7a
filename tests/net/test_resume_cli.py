"""`willow join|bot|host --resume` refusing a store it cannot resume from, as real processes:
a finished game, a corrupt or tampered transcript, a missing table.json, a store whose identity
does not hold the seat, no game at all. Each is one line, exit 19, and nothing on disk changes.
(Resuming for real, after kill -9 mid-hand, is played on the LAN: tests/lan/test_lan_faults.py.)"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_live_cli import LOOPBACK, _env, host_and_guests, one_line, willow

from p2pwillow.crypto.group import G, L, Point

STORE_FAILURE = 19


def _files(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


def _snapshot_mid_hand(home: Path, into: Path, done: threading.Event) -> None:
    """Copy `home` (a live host's store) into `into` once it holds the secret of hand 1 and
    the transcript holds the host's own hand key of hand 1: a store as a crash mid-hand would
    leave it. Copied again if the copy does not show both (the node wrote meanwhile)."""
    while not done.is_set():
        secrets = list(home.glob("data/games/*/secrets/1-hand-key.json"))
        if secrets and _holds_own_hand_key(secrets[0].parent.parent / "transcript.jsonl"):
            shutil.rmtree(into, ignore_errors=True)
            with contextlib.suppress(OSError, shutil.Error):
                shutil.copytree(home, into)
                copied = list(into.glob("data/games/*/secrets/1-hand-key.json"))
                if copied and _holds_own_hand_key(copied[0].parent.parent / "transcript.jsonl"):
                    return
        time.sleep(0.002)


def _holds_own_hand_key(transcript: Path) -> bool:
    with contextlib.suppress(OSError):
        for line in transcript.read_bytes().splitlines():
            with contextlib.suppress(ValueError):
                e = json.loads(line)
                if e["kind"] == "hand_key" and e["author"] == 0 and e["hand"] == 1:
                    return True
    return False


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The stores of a finished game of two, of Weeping Willow: host/ and bot/; and mid/, a
    copy of the host's store taken while hand 1 ran (its secret of hand 1 on disk)."""
    tmp = tmp_path_factory.mktemp("played")
    host = ["--auto", "--hands", "1", "--seats", "2", "--samples", "30", "--game",
            "weeping-willow", "--address", LOOPBACK, "--no-advertise",
            "--home", str(tmp / "host")]  # fmt: skip

    def guest(code: str) -> list[list[str]]:
        join = ["bot", "--join", code, "--samples", "30", "--address", LOOPBACK]
        return [[*join, "--home", str(tmp / "bot")]]

    done = threading.Event()
    watcher = threading.Thread(
        target=_snapshot_mid_hand, args=(tmp / "host", tmp / "mid", done), daemon=True
    )
    watcher.start()
    try:
        codes, outputs = host_and_guests(host, guest)
    finally:
        done.set()
        watcher.join()
    assert codes == [0, 0], outputs
    yield tmp


def _game(home: Path) -> Path:
    (game,) = (home / "data" / "games").iterdir()
    return game


def _unfinished(played: Path, tmp: Path) -> Path:
    """A copy of the host's store with the game cut back before its end (as after a crash)."""
    home = tmp / "host"
    shutil.copytree(played / "host", home)
    transcript = _game(home) / "transcript.jsonl"
    lines = transcript.read_bytes().splitlines(keepends=True)
    end = next(n for n, line in enumerate(lines) if json.loads(line)["kind"] == "game_end")
    transcript.write_bytes(b"".join(lines[:end]))
    return home


def _refused(home: Path, *args: str) -> str:
    """The one line `willow ... --resume` says, with exit 19 and the store left as it was."""
    before = _files(home)
    line = one_line(willow(*args, "--resume", "--home", str(home), timeout=60), STORE_FAILURE)
    assert _files(home) == before, "nothing on disk changed"
    return line


def test_a_finished_game_is_not_resumed(played: Path) -> None:
    line = _refused(played / "host", "host", "--auto")
    assert line == (
        "willow host: nothing to resume: the game in this store ended (its end is signed)"
    )
    line = _refused(played / "bot", "bot")
    assert line.startswith("willow bot: nothing to resume: ")


def test_a_store_without_a_game(tmp_path: Path) -> None:
    line = one_line(willow("join", "--auto", "--resume", "--home", str(tmp_path)), 19)
    assert line.startswith("willow join: no game to resume in ")


def test_a_corrupt_transcript(played: Path, tmp_path: Path) -> None:
    home = _unfinished(played, tmp_path)
    transcript = _game(home) / "transcript.jsonl"
    lines = transcript.read_bytes().splitlines(keepends=True)
    lines[3] = b'{"not": "an entry"}\n'
    transcript.write_bytes(b"".join(lines))
    line = _refused(home, "join", "--auto")
    assert line.startswith(f"willow join: transcript {transcript} is corrupt at line 4 ")


def test_a_tampered_entry_does_not_verify(played: Path, tmp_path: Path) -> None:
    home = _unfinished(played, tmp_path)
    transcript = _game(home) / "transcript.jsonl"
    lines = transcript.read_bytes().splitlines(keepends=True)
    n = next(n for n, line in enumerate(lines) if json.loads(line)["kind"] == "hand_start")
    entry = json.loads(lines[n])
    entry["body"]["dealer"] = 1 - entry["body"]["dealer"]  # no longer what its author signed
    lines[n] = json.dumps(entry, sort_keys=True, separators=(",", ":")).encode() + b"\n"
    transcript.write_bytes(b"".join(lines))
    line = _refused(home, "host", "--auto")
    assert line.startswith(f"willow host: {transcript} does not verify: ")


def test_a_missing_table_file(played: Path, tmp_path: Path) -> None:
    home = _unfinished(played, tmp_path)
    table = _game(home) / "table.json"
    table.unlink()
    line = _refused(home, "join", "--auto")
    assert line.startswith(f"willow join: {table} is missing")


def test_a_corrupt_table_file(played: Path, tmp_path: Path) -> None:
    home = _unfinished(played, tmp_path)
    table = _game(home) / "table.json"
    table.write_bytes(table.read_bytes().replace(b'"seat":0', b'"seat":7', 1))
    line = _refused(home, "join", "--auto")
    assert line.startswith(f"willow join: {table} is corrupt (")


def test_an_identity_that_does_not_hold_the_seat(played: Path, tmp_path: Path) -> None:
    home = _unfinished(played, tmp_path)
    identity = home / "config" / "identity.json"
    identity.write_bytes((played / "bot" / "config" / "identity.json").read_bytes())
    line = _refused(home, "host", "--auto")
    assert "this store's identity does not hold seat 0 of that game" in line


def test_resume_with_a_table_named_is_a_usage_error(tmp_path: Path) -> None:
    line = one_line(willow("join", "Ann", "--auto", "--resume", "--home", str(tmp_path)), 2)
    assert line == "willow join: --resume takes the table from the store: name no table"
    line = one_line(willow("bot", "--join", "x", "--resume", "--home", str(tmp_path)), 2)
    assert line == "willow bot: --resume takes the table from the store: give no --join"


def _flip(text: str) -> str:
    return ("1" if text[0] != "1" else "2") + text[1:]


@pytest.mark.parametrize("where", ["genesis signature", "roster key statement"])
def test_a_tampered_table_file(played: Path, tmp_path: Path, where: str) -> None:
    home = _unfinished(played, tmp_path)
    table = _game(home) / "table.json"
    value = json.loads(table.read_bytes())
    if where == "genesis signature":
        value["genesis"]["sig"] = _flip(value["genesis"]["sig"])
    else:
        player = value["roster"]["players"][1]
        player["key_sig"] = _flip(player["key_sig"])
    data = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    table.write_bytes(data.encode())
    line = _refused(home, "join", "--auto")
    assert line.startswith(f"willow join: {table} is corrupt (")


def _mid_hand(played: Path, tmp: Path) -> tuple[Path, Path]:
    """The host's store as taken while hand 1 ran, cut back to just after its own hand key in
    hand 1 (as after a crash there); its secret file."""
    home = tmp / "host"
    assert (played / "mid").is_dir(), "the host's store was never seen mid-hand"
    shutil.copytree(played / "mid", home)
    transcript = _game(home) / "transcript.jsonl"
    lines = transcript.read_bytes().splitlines(keepends=True)
    n = next(
        n
        for n, line in enumerate(lines)
        if (e := json.loads(line))["kind"] == "hand_key" and e["author"] == 0 and e["hand"] == 1
    )
    transcript.write_bytes(b"".join(lines[: n + 1]))
    (secret,) = (_game(home) / "secrets").glob("1-*.json")
    return home, secret


def test_a_missing_hand_secret(played: Path, tmp_path: Path) -> None:
    home, secret = _mid_hand(played, tmp_path)
    secret.unlink()
    line = _refused(home, "host", "--auto")
    assert line == (
        f"willow host: the secret of hand 1 is not in the store (removed from {secret.parent})"
    )


def test_a_hand_secret_that_does_not_open_the_hand_key(played: Path, tmp_path: Path) -> None:
    home, secret = _mid_hand(played, tmp_path)
    value = json.loads(secret.read_bytes())
    data = bytes(31) + b"\x07"  # a scalar, not this hand's
    value["data"], value["sha256"] = data.hex(), hashlib.sha256(data).hexdigest()
    secret.write_bytes(json.dumps(value, sort_keys=True, separators=(",", ":")).encode() + b"\n")
    line = _refused(home, "host", "--auto")
    assert line == (
        "willow host: cannot take seat 0 again: the secret kept for hand 1 is not its hand key's"
    )


def test_a_bot_without_a_home_looks_in_every_bot_store(played: Path, tmp_path: Path) -> None:
    root = tmp_path / "willow"
    shutil.copytree(played / "bot", root / "bots" / "0123456789ab")
    home = _unfinished(played, tmp_path)
    shutil.copytree(home, root / "bots" / "ba9876543210")  # the host's seat: not the bot's key
    shutil.rmtree(root / "bots" / "ba9876543210" / "config")
    shutil.copytree(played / "bot" / "config", root / "bots" / "ba9876543210" / "config")
    before = _files(root)
    result = subprocess.run(
        [sys.executable, "-m", "p2pwillow", "bot", "--resume"],
        env={**_env(), "WILLOW_HOME": str(root)}, capture_output=True, text=True, timeout=60,
        check=False, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    # the newest unfinished game of all the bot stores is found, and its seat is not this key's
    line = one_line(result, STORE_FAILURE)
    assert "this store's identity does not hold seat 0 of that game" in line
    assert _files(root) == before


HEX_32 = rb"(?<![0-9a-fA-F])[0-9a-fA-F]{64}(?![0-9a-fA-F])"


def _hand_keys(transcript: Path, seat: int) -> list[Point]:
    keys = []
    for line in transcript.read_bytes().splitlines():
        e = json.loads(line)
        if e["kind"] == "hand_key" and e["author"] == seat:
            keys.append(Point.decode_hex(e["body"]["key"]))
    return keys


def _scalars_in(root: Path) -> set[int]:
    """Every 32-byte value written in hex anywhere in the store's files (every file of the
    store is text): what could be a hand's secret x (SPEC 5.2)."""
    found: set[int] = set()
    for path in root.rglob("*"):
        if path.is_file():
            for token in re.findall(HEX_32, path.read_bytes()):
                found.add(int(token, 16))
    return {x for x in found if 0 < x < L}


@pytest.mark.parametrize("who, seat", [("host", 0), ("bot", 1)])
def test_a_finished_game_keeps_no_secret_that_opens_a_card(
    played: Path, who: str, seat: int
) -> None:
    """After the game, nothing in a player's store opens a hand key of its own: the cards it
    never showed stay closed to whoever reads its disk (SPEC 5.10, 8.9)."""
    home = played / who
    game = _game(home)
    assert not list(game.glob("secrets/*")), "no secret file is left"
    keys = _hand_keys(game / "transcript.jsonl", seat)
    assert keys, "it played a hand"
    for x in _scalars_in(home):
        assert G.mul_secret(x) not in keys, "a value in the store opens a hand key"


def test_the_mid_hand_copy_held_a_secret_that_opens_the_hand_key(played: Path) -> None:
    """The check above can fail: while the hand ran, the store held the x of its hand key."""
    game = _game(played / "mid")
    keys = _hand_keys(game / "transcript.jsonl", 0)
    assert any(G.mul_secret(x) in keys for x in _scalars_in(played / "mid"))


def test_resuming_a_finished_game_erases_a_secret_left_behind(played: Path, tmp_path: Path) -> None:
    home = tmp_path / "host"
    shutil.copytree(played / "host", home)
    left = _game(home) / "secrets"
    left.mkdir(exist_ok=True)
    shutil.copy(next((_game(played / "mid") / "secrets").glob("1-*.json")), left)
    result = willow("host", "--auto", "--resume", "--home", str(home), timeout=60)
    assert one_line(result, STORE_FAILURE).startswith("willow host: nothing to resume")
    assert not list(left.iterdir())


def test_a_transcript_cut_at_a_line_names_the_cut(played: Path, tmp_path: Path) -> None:
    """Cut back to the host's hand key of hand 1 (whose secret was erased once the hand was
    over): the transcript lost its end, and the message says so, not that a secret is lost."""
    home = _unfinished(played, tmp_path)
    transcript = _game(home) / "transcript.jsonl"
    lines = transcript.read_bytes().splitlines(keepends=True)
    n = next(
        n
        for n, line in enumerate(lines)
        if (e := json.loads(line))["kind"] == "hand_key" and e["author"] == 0 and e["hand"] == 1
    )
    transcript.write_bytes(b"".join(lines[: n + 1]))
    line = _refused(home, "host", "--auto")
    assert line.startswith(
        f"willow host: {transcript} was cut: it ends at entry {n} in hand 1, but "
        f"{_game(home) / 'signed.jsonl'} holds entries this seat signed after it"
    ), line


def test_a_damaged_log_of_signed_entries_is_named(played: Path, tmp_path: Path) -> None:
    home = _unfinished(played, tmp_path)
    log = _game(home) / "signed.jsonl"
    lines = log.read_bytes().splitlines(keepends=True)
    n = next(n for n, line in enumerate(lines) if json.loads(line)["kind"] == "hand_key")
    entry = json.loads(lines[n])
    entry["sig"] = _flip(entry["sig"])  # still a signature's shape, no longer the one sent
    lines[n] = json.dumps(entry, sort_keys=True, separators=(",", ":")).encode() + b"\n"
    log.write_bytes(b"".join(lines))
    line = _refused(home, "host", "--auto")
    assert line.startswith(f"willow host: {log} is damaged: it holds another entry for counter ")
    assert line.endswith("; it is kept as it is")
