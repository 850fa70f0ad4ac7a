"""Which game `--resume` takes when a store holds several (SPEC 8.10 "Which game"): the newest
whose transcript holds no `game_end`, by the time its transcript last changed; a newer finished
game is passed over; a newer corrupt transcript stops the choice with its file named rather
than resuming an older game behind the player's back."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from p2pwillow.live import LiveError, unfinished_game
from p2pwillow.store import TRANSCRIPT_FILE, Store

SAMPLES = Path(__file__).resolve().parents[2] / "protocol" / "transcripts"
FINISHED = SAMPLES / "honest-3p-2h.jsonl"
UNFINISHED = SAMPLES / "no-game-end.jsonl"


def _put(store: Store, n: int, sample: Path, age: float) -> bytes:
    """A game directory holding `sample` as its transcript, last changed `age` s ago."""
    game = bytes([n]) * 16
    directory = store.game_dir(game)
    directory.mkdir(parents=True)
    shutil.copyfile(sample, directory / TRANSCRIPT_FILE)
    when = 1_700_000_000 - age
    os.utime(directory / TRANSCRIPT_FILE, (when, when))
    return game


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store.open(tmp_path / "home")


def test_the_newest_unfinished_game_is_taken(store: Store) -> None:
    _put(store, 1, UNFINISHED, age=300)
    newest = _put(store, 2, UNFINISHED, age=10)
    _put(store, 3, UNFINISHED, age=100)
    assert unfinished_game([store]) == (store, newest)


def test_a_newer_finished_game_is_passed_over(store: Store) -> None:
    older = _put(store, 1, UNFINISHED, age=300)
    _put(store, 2, FINISHED, age=10)
    assert unfinished_game([store]) == (store, older)


def test_the_newest_of_several_stores(tmp_path: Path) -> None:
    a, b = Store.open(tmp_path / "a"), Store.open(tmp_path / "b")
    _put(a, 1, UNFINISHED, age=50)
    newest = _put(b, 2, UNFINISHED, age=5)
    _put(a, 3, FINISHED, age=1)
    assert unfinished_game([a, b]) == (b, newest)


def test_every_game_finished(store: Store) -> None:
    _put(store, 1, FINISHED, age=30)
    _put(store, 2, FINISHED, age=20)
    with pytest.raises(LiveError, match=r"the 2 games in this store ended \(its end is signed\)"):
        unfinished_game([store])


def test_a_newer_corrupt_transcript_is_named(store: Store) -> None:
    _put(store, 1, UNFINISHED, age=300)
    broken = _put(store, 2, UNFINISHED, age=10)
    path = store.game_dir(broken) / TRANSCRIPT_FILE
    lines = path.read_bytes().splitlines(keepends=True)
    corrupt = b"".join([lines[0], b"{not json}\n", *lines[2:]])
    path.write_bytes(corrupt)
    os.utime(path, (1_700_000_000 - 10,) * 2)
    with pytest.raises(LiveError) as caught:
        unfinished_game([store])
    assert str(path) in str(caught.value)
    assert path.read_bytes() == corrupt, "the file is left as it was"
