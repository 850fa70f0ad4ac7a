"""The hand-ranking tables shipped in `p2pwillow/hands.tables` (read at import instead of built):
they are the tables `build_tables` computes, pinned by their digest, and a file that is not the
pinned one is never used."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from p2pwillow import hands

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def built() -> hands.Tables:
    return hands.build_tables()


def shipped() -> bytes:
    return resources.files("p2pwillow").joinpath(hands.TABLES_FILE).read_bytes()


def test_the_shipped_file_is_the_pinned_one_and_holds_the_built_tables(
    built: hands.Tables,
) -> None:
    blob = shipped()
    assert hashlib.sha256(blob).hexdigest() == hands.TABLES_SHA256
    assert hands.decode_tables(blob) == built
    # and the module ranks with exactly these
    assert built == (hands._NO_FLUSH, hands._FLUSH_5, hands._FLUSH_BY_MASK)


def test_the_tables_have_every_rank_multiset_and_flush(built: hands.Tables) -> None:
    no_flush, flush_5, flush_by_mask = built
    # rank multisets of 5, 6 and 7 cards with at most four of a rank; flushes of 5..7 ranks
    assert (len(no_flush), len(flush_5), len(flush_by_mask)) == (
        6175 + 18395 + 49205,
        1287,
        1287 + 1716 + 1716,
    )
    assert len(hands._HAND_KEYS) == 7462  # every distinct five-card hand value


def test_tables_round_trip_through_their_encoding(built: hands.Tables) -> None:
    assert hands.decode_tables(hands.encode_tables(built)) == built


@pytest.mark.parametrize("where", [0, 1000, -1])
def test_a_damaged_file_is_not_used_the_tables_are_built(where: int, built: hands.Tables) -> None:
    blob = bytearray(shipped())
    blob[where] ^= 0x01
    assert hands.load_tables(bytes(blob)) == built
    assert hands.load_tables(None) == built  # no file at all
    assert hands.load_tables(b"") == built


def test_gen_hands_check_fails_on_a_stale_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tools import gen_hands

    no_flush, flush_5, flush_by_mask = hands.build_tables()
    no_flush[next(iter(no_flush))] += 1  # one hand ranked wrongly
    stale = tmp_path / "hands.tables"
    stale.write_bytes(hands.encode_tables((no_flush, flush_5, flush_by_mask)))
    monkeypatch.setattr(gen_hands, "TABLES", stale)
    monkeypatch.setattr(gen_hands, "ROOT", tmp_path)
    assert gen_hands.main(["--check"]) == 1
    assert "out of date: hands.tables" in capsys.readouterr().out


def test_gen_hands_check_passes_on_the_repository() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tools.gen_hands", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
