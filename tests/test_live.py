"""Finding a table by browsing (`willow join` without a code, SPEC 8.7): every table found is
listed with its host's name and fingerprint, its address and its seats; tables sharing a name
are warned of; a person always chooses, even among one; and a table found by its name that
answers with another key says so in words (exit 11). The LAN is replaced by a list of
records here; tests/lan browses a real one."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import Sequence

import pytest
from net_helpers import statement

from p2pwillow import live
from p2pwillow.live import LiveError, describe, find_table, pick_on_terminal, wrong_key_found
from p2pwillow.net.discovery import Browsed, TableAd
from p2pwillow.net.lobby import LobbyFailure

FRIDAY = TableAd("Friday", 2, statement(1), addresses=("10.77.0.11",), port=4242, host_name="Alice")
COPY = TableAd("friday ", 0, statement(2), addresses=("10.77.0.13",), port=4242, host_name="Alice")
OTHER = TableAd("Poker", 3, statement(3), addresses=("10.77.0.12",), port=5000, host_name="Bob")
FUTURE = TableAd("Later", 1, None, version=2, addresses=("10.77.0.14",), port=1)


def _found(monkeypatch: pytest.MonkeyPatch, *tables: TableAd) -> None:
    async def browse(timeout: float, interfaces: Sequence[str] | None = None) -> Browsed:
        return Browsed(tuple(tables), ())

    monkeypatch.setattr(live, "browse", browse)


def _run(
    wanted: str | None, pick: object, capsys: pytest.CaptureFixture[str]
) -> tuple[TableAd | None, list[str]]:
    code, found = asyncio.run(find_table(wanted, pick=pick))  # type: ignore[arg-type]
    assert found is not None and code == found.join_code()
    return found, capsys.readouterr().out.splitlines()


def test_every_table_is_listed_with_its_host_and_the_person_chooses(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _found(monkeypatch, COPY, FRIDAY, OTHER, FUTURE)
    offered: list[TableAd] = []

    def pick(tables: Sequence[TableAd]) -> TableAd:
        offered.extend(tables)
        return tables[1]

    found, out = _run(None, pick, capsys)
    assert offered == [COPY, FRIDAY, OTHER] and found == FRIDAY
    assert "found 3 tables:" in out
    listed = [line for line in out if re.match(r"  \d\. ", line)]
    assert listed == [f"  {n}. {describe(t)}" for n, t in enumerate(offered, start=1)]
    assert re.fullmatch(
        r"  2\. 'Friday' hosted by Alice #[A-Z2-7]{4} at 10\.77\.0\.11:4242: 2 seat\(s\) free",
        listed[1],
    )
    assert listed[0].endswith(": full")
    assert FRIDAY.host != COPY.host, "two Alices told apart by their fingerprints"
    assert any("another version of willow" in line for line in out)
    [warning] = [line for line in out if line.startswith("warning: ")]
    assert "2 tables are called 'friday '" in warning
    assert FRIDAY.host in warning and COPY.host in warning
    assert "ask your host which fingerprint is theirs, or for the join code" in warning
    assert live.SAFE_WAY in out


def test_a_person_is_asked_even_when_one_table_is_found(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _found(monkeypatch, OTHER, FRIDAY)
    asked: list[Sequence[TableAd]] = []

    def pick(tables: Sequence[TableAd]) -> TableAd:
        asked.append(tables)
        return tables[0]

    found, out = _run("FRIDAY", pick, capsys)
    assert asked == [[FRIDAY]] and found == FRIDAY
    assert "found 1 table called 'FRIDAY':" in out
    assert not any(line.startswith("warning: ") for line in out)


def test_a_bot_takes_the_one_table_found_and_names_none_of_several(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _found(monkeypatch, FRIDAY)
    found, _ = _run(None, None, capsys)
    assert found == FRIDAY
    _found(monkeypatch, FRIDAY, COPY)
    with pytest.raises(LiveError) as info:
        asyncio.run(find_table(None, pick=None))
    assert info.value.failure is LobbyFailure.NO_TABLE
    assert "give the join code" in str(info.value)
    assert any(line.startswith("warning: 2 tables") for line in capsys.readouterr().out.split("\n"))


def test_no_answer_joins_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("builtins.input", lambda prompt: "")
    with pytest.raises(LiveError) as info:
        pick_on_terminal([FRIDAY])
    assert info.value.failure is LobbyFailure.NO_TABLE
    answers = iter(["7", "x", "1"])
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    assert pick_on_terminal([FRIDAY]) == FRIDAY

    def eof(prompt: str) -> str:
        raise EOFError

    monkeypatch.setattr("builtins.input", eof)
    with pytest.raises(LiveError, match="no table chosen"):
        pick_on_terminal([FRIDAY])


def test_exit_11_for_a_table_found_by_name_says_what_it_means() -> None:
    text = wrong_key_found(dataclasses.replace(COPY, seats_free=2))
    assert "'friday ' found on this network" in text and COPY.host in text
    assert "does not answer at 10.77.0.13:4242 with the key it advertises" in text
    assert "ask its host for the join code (willow join CODE)" in text
    assert "\n" not in text
