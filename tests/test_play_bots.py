"""`willow play`'s bot processes, really started: each has a store of its own, one that ends
before it takes its seat is one error naming it and its log, and stopping waits for all."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from p2pwillow.live import LiveError
from p2pwillow.net.discovery import JoinCode
from p2pwillow.play import BotPlan, Bots
from p2pwillow.store import Store


def test_each_bot_has_its_own_keys_kept_from_one_game_to_the_next(tmp_path: Path) -> None:
    store = Store.open(tmp_path)
    first = Bots(store, BotPlan(3))
    assert len({b.identity for b in first.bots}) == 3
    assert [b.home for b in first.bots] == [
        tmp_path / "data" / "bots" / f"play-{n}" for n in (1, 2, 3)
    ]
    first.stop()  # (the game is over: its bots' stores are free again)
    again = Bots(store, BotPlan(2))
    assert [b.identity for b in again.bots] == [b.identity for b in first.bots[:2]]
    again.stop()


HOLD = """
import sys
from pathlib import Path
from p2pwillow.play import BotPlan, Bots
from p2pwillow.store import Store
crew = Bots(Store.open(Path(sys.argv[1])), BotPlan(3))
print(" ".join(b.home.name for b in crew.bots), flush=True)
sys.stdin.read()
"""


def test_two_plays_at_once_never_share_a_bots_store(tmp_path: Path) -> None:
    """Another `willow play` on the same store, running now (a real process), holds bots 1-3:
    this one's bots take the next stores; once that process is killed, they are free again."""
    other = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(tmp_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert other.stdout is not None
        assert other.stdout.readline().split() == ["play-1", "play-2", "play-3"]
        store = Store.open(tmp_path)
        here = Bots(store, BotPlan(2))
        assert [b.home.name for b in here.bots] == ["play-4", "play-5"]
        assert [b.number for b in here.bots] == [1, 2]
        here.stop()
    finally:
        other.kill()
        other.wait()
    after = Bots(store, BotPlan(2))
    assert [b.home.name for b in after.bots] == ["play-1", "play-2"]
    after.stop()


def test_a_bot_that_ends_before_it_is_seated_is_one_error(tmp_path: Path) -> None:
    crew = Bots(Store.open(tmp_path), BotPlan(2, "easy", 40))
    # the second bot's store is unreadable: that bot ends at once with the store's error
    (crew.bots[1].home / "data" / "store.json").write_text("not a marker")
    nobody = JoinCode("127.0.0.1", 9, bytes(10)).encode()

    async def main() -> None:
        crew.start(nobody)
        try:
            await crew.seated(asyncio.sleep(3600))  # type: ignore[arg-type]
        finally:
            assert crew.stop() == 1  # the first was still trying to reach the table

    with pytest.raises(LiveError) as caught:
        asyncio.run(main())
    message = str(caught.value)
    assert message.startswith("bot 2 could not take its seat (exit 19: willow bot: ")
    assert str(crew.bots[1].log) in message
    for bot in crew.bots:
        assert bot.proc is not None and bot.proc.returncode is not None
    assert crew.stop() == 0  # safe twice


def test_too_many_bots_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(LiveError) as caught:
        Bots(Store.open(tmp_path), BotPlan(10))
    assert caught.value.failure == "usage"
