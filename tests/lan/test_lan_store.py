"""A store that cannot be written, mid-game, with real `willow` processes on the LAN of
namespaces: a bot's home is a small tmpfs that fills up (or is remounted read-only) while
the table plays. The bot stops with one line naming the path and what to do, exit 21, and
sends nothing it could not keep; once space is freed (or the file system is writable again)
`willow bot --resume` takes its seat, catches up and the game completes, the same and valid
on every laptop. The other players play on meanwhile."""

from __future__ import annotations

import contextlib
import errno
import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from lan import Lan
from willow import DEEP, bot, finished, host, resume, same_valid_game, signed_once, wait_event

PLAYERS = 4
HANDS = 4
STACK = DEEP  # what willow.host seats everyone with
CLOCK = 10
DEADLINE = 120.0
STORE_WRITE = 21


@pytest.fixture
def small_home(tmp_path: Path) -> Iterator[Path]:
    """tmp/bot1, a 4 MiB tmpfs: the home of bot 1. Unmounted whatever happens (with what was
    mounted over it)."""
    home = tmp_path / "bot1"
    home.mkdir()
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m,mode=0700", "tmpfs", str(home)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {made.stderr.strip()}")
    try:
        yield home
    finally:
        while subprocess.run(["umount", "-l", str(home)], capture_output=True).returncode == 0:
            pass  # a read-only bind over it too


def _fill(home: Path) -> Path:
    """Fill the file system of `home` to the last byte with one file; its path."""
    filler = home / "filler"
    chunk = bytes(64 * 1024)
    with filler.open("wb", buffering=0) as f:
        with contextlib.suppress(OSError):
            while True:
                f.write(chunk)
        while True:  # the last few bytes too
            try:
                if not f.write(b"\0"):
                    break
            except OSError as exc:
                assert exc.errno == errno.ENOSPC
                break
    return filler


def _cannot_write(proc_output: str, cause: str, todo: str, home: Path) -> None:
    lines = [line for line in proc_output.splitlines() if line.startswith("willow bot: ")]
    assert len(lines) == 1, proc_output
    assert re.fullmatch(
        rf"willow bot: cannot write {re.escape(str(home))}/\S+: {cause}; {todo}; nothing is "
        r"lost: once it is fixed, the same command with --resume takes the seat again",
        lines[0],
    ), lines[0]
    assert "Traceback" not in proc_output


@pytest.mark.parametrize("fault", ["disk full", "read-only"])
def test_a_home_that_cannot_be_written_mid_game_then_resume(
    lan: Lan, tmp_path: Path, small_home: Path, fault: str
) -> None:
    laptops = [lan.add_laptop() for _ in range(PLAYERS)]
    proc, code = host(laptops[0], tmp_path, hands=HANDS, seats=PLAYERS, clock=CLOCK)
    bots = [bot(laptops[n], tmp_path, n, code) for n in range(1, PLAYERS)]
    wait_event(
        tmp_path / "bot1-events.jsonl",
        lambda e: e["event"] == "dealt" and e.get("hand") == 1,
        DEADLINE,
    )
    if fault == "disk full":
        filler = _fill(small_home)

        def undo() -> None:
            filler.unlink()

        cause, todo = "No space left on device", "free some space there"
    else:
        # the home mounted read-only over itself, in the bot's own mount namespace (`ip netns
        # exec` gives it one): what it opens from now on (the next hand's secret, say) is
        # refused. (A read-only remount of the tmpfs would wait for the files it holds open.)
        inside = ["nsenter", "--target", str(bots[0].pid), "--mount"]
        subprocess.run([*inside, "mount", "--bind", str(small_home), str(small_home)], check=True)
        subprocess.run([*inside, "mount", "-o", "remount,bind,ro", str(small_home)], check=True)

        def undo() -> None:
            pass  # that mount namespace ended with the bot: the resumed bot writes as before

        cause, todo = "Read-only file system", "make that file system writable again"
    stopped = bots[0]
    assert stopped.popen.wait(timeout=DEADLINE) == STORE_WRITE, stopped.output()
    _cannot_write(stopped.output(), cause, todo, small_home)
    # the others play on without it; it comes back once the store can be written again
    undo()
    again = resume(laptops[1], tmp_path, "bot1")
    again.expect(r"^resuming .* at seat \d+", 30)
    paths = finished([proc, again, *bots[1:]], DEADLINE)
    same_valid_game(paths, HANDS, PLAYERS, STACK)
    seat = next(int(m) for m in re.findall(r"at seat (\d+)", again.output()))
    signed_once(paths[1], seat)
    assert not list(small_home.rglob("secrets/*.json")), "the finished game keeps no secret"
    assert os.stat(small_home).st_mode & 0o077 == 0
