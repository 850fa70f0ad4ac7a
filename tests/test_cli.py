"""The command lines: `willow` (as `python -m p2pwillow`) and `bench/run.py`, in subprocesses."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from p2pwillow import __version__
from p2pwillow.cli import BOT_CLOCK, PERSON_CLOCK, _games, _table_plan, _unfit, build_parser

ROOT = Path(__file__).resolve().parent.parent


def willow(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "p2pwillow", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )


def one_error_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, result
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_version() -> None:
    result = willow("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"willow {__version__}"


def test_help() -> None:
    result = willow("--help")
    assert result.returncode == 0
    assert result.stdout.startswith("usage: willow")
    assert "rank" in result.stdout
    assert result.stderr == ""


def test_the_levels_offered_are_the_bots_and_verify_does_not_load_the_table() -> None:
    """The command line names the bots' levels itself so that a command that plays no table
    (`willow verify`) starts without importing the bots or the node."""
    from p2pwillow import bots, cli

    assert cli.LEVELS == bots.LEVELS
    from p2pwillow.games import CATALOGUE

    assert tuple(CATALOGUE) == cli.GAMES
    probe = (
        "import sys; from p2pwillow.cli import main; "
        "code = main(['verify', '--brief', sys.argv[1]]); "
        "print(sorted(m for m in sys.modules if m.startswith(('p2pwillow.net.node', "
        "'p2pwillow.bots', 'zmq', 'zeroconf', 'prompt_toolkit'))))"
    )
    transcript = Path(__file__).resolve().parents[1] / "protocol/transcripts/honest-3p-2h.jsonl"
    result = subprocess.run(
        [sys.executable, "-c", probe, str(transcript)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "[]"


def test_unknown_subcommand() -> None:
    line = one_error_line(willow("shuffleboard"))
    assert "shuffleboard" in line


def test_unknown_option() -> None:
    line = one_error_line(willow("--frobnicate"))
    assert "--frobnicate" in line


def test_unknown_option_of_a_subcommand() -> None:
    line = one_error_line(willow("rank", "--frobnicate", "As"))
    assert "--frobnicate" in line


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["As", "Kd", "10h", "Tc", "2c"], "pair of tens, ace kicker: 10♥ 10♣ A♠ K♦ 2♣"),
        (["a♠", "K♦", "q♥", "jc", "10S", "9c", "2d"], "straight, ace high: A♠ K♦ Q♥ J♣ 10♠"),
        (["Ah", "Kh", "Qh", "Jh", "Th"], "royal flush: A♥ K♥ Q♥ J♥ 10♥"),
    ],
)
def test_rank_prints_the_hand(args: list[str], expected: str) -> None:
    result = willow("rank", *args)
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected + "\n"


def test_rank_showing() -> None:
    result = willow("rank", "Kh", "Kd", "2c")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "showing pair of kings, two kicker\n"


def test_rank_bad_card_is_named() -> None:
    line = one_error_line(willow("rank", "As", "Kd", "1Xh", "Th", "2c"))
    assert "'1Xh'" in line


def test_rank_same_card_twice() -> None:
    # 10h and Th are two spellings of one card.
    line = one_error_line(willow("rank", "As", "Kd", "10h", "Th", "2c"))
    assert "twice" in line


@pytest.mark.parametrize("count", [8, 9])
def test_rank_too_many_cards(count: int) -> None:
    cards = ["As", "Ks", "Qs", "Js", "Ts", "9s", "8s", "7s", "6s"][:count]
    line = one_error_line(willow("rank", *cards))
    assert line == f"willow rank: give 1 to 7 cards, not {count}"


def test_rank_errors_name_the_cards_not_the_code() -> None:
    line = one_error_line(willow("rank", "As", "As", "Kd", "Qh", "Jc"))
    assert line == "willow rank: a card appears twice: As"


# --- a closed pipe ends every command quietly ------------------------------------------------

HONEST = str(ROOT / "protocol" / "transcripts" / "honest-3p-2h.jsonl")


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["--version"],
        ["rank", "As", "Kd", "10h", "Tc", "2c"],
        ["rank", "Kh"],
        ["verify", HONEST],
        ["verify", "--json", HONEST],
        ["verify", "--brief", "-j", "2", HONEST, HONEST],
        ["simulate", "--players", "2", "--hands", "1", "--out", "-"],
    ],
    ids=" ".join,
)
def test_a_closed_pipe_ends_quietly(args: list[str], tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    read, write = os.pipe()
    os.close(read)  # as `willow ... | head -1` once head has gone
    try:
        result = subprocess.run(
            [sys.executable, "-m", "p2pwillow", *args],
            cwd=tmp_path,
            env=env,
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write)
    assert result.stderr == ""
    # argparse itself drops a failed write of --help and --version, and exits 0
    assert result.returncode == (0 if args[0].startswith("--") else 141)


# --- bench/run.py ------------------------------------------------------------------------------


def bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / "run.py"), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


# Other topics' modules may report their own import errors first, one line each.


def test_bench_lists_the_hand_benchmarks() -> None:
    result = bench("--list")
    assert "Traceback" not in result.stderr
    names = result.stdout.split()
    assert {"hands.best5", "hands.best7"} <= set(names)
    assert len(names) == len(set(names))


def test_bench_unknown_name() -> None:
    result = bench("hands.no_such_benchmark")
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    last = result.stderr.splitlines()[-1]
    assert last.startswith("bench: unknown benchmark 'hands.no_such_benchmark'")


def test_bench_unknown_option() -> None:
    one_error_line(bench("--frobnicate"))


def test_bench_result_lines() -> None:
    from bench.run import BenchError, run_one

    line = run_one("x.y", lambda: {"value": 3, "unit": "ops/s", "baseline": 2})
    assert list(line) == ["name", "value", "unit", "baseline", "ratio"]
    assert line["ratio"] == 1.5
    assert run_one("x.y", lambda: {"value": 3.0, "unit": "s", "extra": 1}) == {
        "name": "x.y",
        "value": 3.0,
        "unit": "s",
        "extra": 1,
    }
    for bad in (
        {"value": "3", "unit": "s"},
        {"value": float("nan"), "unit": "s"},
        {"value": 3, "unit": 5},
        {"value": 3, "unit": "s", "baseline": 0},
        {"value": True, "unit": "s"},
    ):
        with pytest.raises(BenchError):
            run_one("x.y", lambda bad=bad: bad)  # type: ignore[misc]


def test_bench_tells_where_a_live_hands_wall_time_goes() -> None:
    from bench.live import Arrival, _where

    kinds = ["hand_start", "hand_key", "deck_shuffle", "announce_game", "street_shares"]
    kinds += ["street_shares", "bet", "fold_release", "street_shares", "street_shares", "call"]
    kinds += ["hand_end", "head_signature"]
    hand = [Arrival(0.1 * n, 1, kind) for n, kind in enumerate(kinds)]
    where, rounds = _where([Arrival(-5.0, 0, "genesis"), *hand, Arrival(9.0, 1, "game_end")])
    assert rounds == 2  # two runs of street shares: two round trips
    assert where == {
        "announce": 0.1,
        "betting": 0.3,
        "deal_streets": 0.4,
        "end": 0.2,
        "keys_shuffles": 0.2,
    }


def test_simulate_never_overwrites_a_transcript(tmp_path: Path) -> None:
    game = tmp_path / "game.jsonl"
    game.write_bytes(b"an earlier game\n")
    line = one_error_line(willow("simulate", "--players", "2", "--hands", "1", "--out", str(game)))
    assert "exists" in line and str(game) in line
    assert game.read_bytes() == b"an earlier game\n"


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--players", "1", "--hands", "1", "--out", "x.jsonl"],
        ["simulate", "--players", "11", "--hands", "1", "--out", "x.jsonl"],
        ["simulate", "--players", "3", "--hands", "0", "--out", "x.jsonl"],
        ["simulate", "--players", "three", "--hands", "1", "--out", "x.jsonl"],
        ["simulate", "--players", "3", "--hands", "1"],
        ["verify"],
    ],
)
def test_simulate_and_verify_usage_errors(args: list[str], tmp_path: Path) -> None:
    out = tmp_path / "x.jsonl"
    one_error_line(willow(*[str(out) if a == "x.jsonl" else a for a in args]))
    assert not out.exists()


# --- the clock at a table of people (SPEC 3.1, 3.14) ----------------------------------------


@pytest.mark.parametrize(
    ("args", "clock"),
    [
        (["play", "--bots", "1"], PERSON_CLOCK),
        (["host"], PERSON_CLOCK),
        (["host", "--auto"], BOT_CLOCK),
        (["play", "--clock", "20"], 20),
        (["host", "--auto", "--clock", "45"], 45),
    ],
)
def test_a_table_with_a_person_on_it_gives_a_persons_clock(args: list[str], clock: int) -> None:
    plan = _table_plan(build_parser().parse_args(args), 3, "host")
    assert not isinstance(plan, str), plan
    config = plan.config
    assert config.action_clock == clock
    assert (config.time_bank, config.pause_limit, config.pauses) == (120, 300, 3)
    assert config.arbiter == 0 and plan.arbiter is None  # the host, unless --arbiter names one


def test_the_clock_settings_and_the_arbiter_from_the_command_line() -> None:
    args = ["host", "--time-bank", "45", "--pause-limit", "0", "--pauses", "1", "--arbiter", "Bob"]
    plan = _table_plan(build_parser().parse_args(args), 3, "host")
    assert not isinstance(plan, str), plan
    assert (plan.config.time_bank, plan.config.pause_limit, plan.config.pauses) == (45, 0, 1)
    assert plan.arbiter == "Bob"
    too_long = build_parser().parse_args(["play", "--arbiter", "x" * 33])
    assert "--arbiter names a player (1 to 32 characters)" in str(_table_plan(too_long, 2, "p"))
    overdrawn = build_parser().parse_args(["host", "--time-bank", "-1"])
    assert _table_plan(overdrawn, 3, "host") == "time bank must be between 0 and 3600, not -1"


# --- the games a table deals: --game, --games, dealer's choice (issue 27) --------------------


def _games_of(command: list[str], seats: int) -> tuple[str, ...] | str:
    plan = _table_plan(build_parser().parse_args(command), seats, "host")
    return plan if isinstance(plan, str) else plan.config.games


def test_one_game_or_the_dealers_choice_from_the_command_line() -> None:
    assert _games_of(["host", "--game", "weeping-willow"], 4) == ("weeping-willow",)
    assert _games_of(["host", "--game", "holdem"], 4) == ("holdem",)
    listed = ["host", "--games", "holdem, Omaha,seven-card-stud"]
    assert _games_of(listed, 8) == ("holdem", "omaha", "seven-card-stud")
    assert _games_of(["play", "--games", "five-card-stud"], 10) == ("five-card-stud",)


def _default_games(command: str, seats: int) -> tuple[str, ...] | str:
    """The games of `willow COMMAND` with neither --game nor --games, at a table of `seats`."""
    if command != "simulate":
        return _games_of(command.split(), seats)
    simulate = ["simulate", "--players", str(seats), "--hands", "1", "--out", "-"]
    return _games(build_parser().parse_args(simulate), seats)


@pytest.mark.parametrize("command", ["host", "host --auto", "play", "simulate"])
@pytest.mark.parametrize("seats", [2, 4, 6, 7, 8, 9, 10])
def test_with_neither_option_the_dealer_calls_every_game_the_table_size_deals(
    command: str, seats: int
) -> None:
    """Issue 27: with neither --game nor --games each hand's dealer calls a game from all
    that the table's size can deal, the same as --games all: five-card draw deals to 2 to 6
    players, seven-card stud to 2 to 8."""
    from p2pwillow.games import CATALOGUE

    games = _default_games(command, seats)
    assert isinstance(games, tuple), games
    assert games == tuple(n for n in CATALOGUE if _unfit(n, seats) is None)
    assert games == _games_of(["host", "--games", "all"], seats)
    assert {"weeping-willow", "roll-your-own", "five-card-stud", "holdem", "omaha"} <= set(games)
    assert ("five-card-draw" in games) == (seats <= 6)
    assert ("seven-card-stud" in games) == (seats <= 8)


def test_games_all_is_every_game_the_table_size_deals() -> None:
    from p2pwillow.games import CATALOGUE

    for seats in range(2, 11):
        games = _games_of(["host", "--games", "all"], seats)
        assert isinstance(games, tuple)
        fits = [n for n in CATALOGUE if CATALOGUE[n].players[0] <= seats]
        fits = [n for n in fits if _unfit(n, seats) is None]
        assert games == tuple(fits) and {"weeping-willow", "holdem", "omaha"} <= set(games)
        assert ("seven-card-stud" in games) == (seats <= 8)


@pytest.mark.parametrize(
    ("command", "seats", "message"),
    [
        (
            ["host", "--games", "holdem,seven-card-stud"],
            9,
            "--games: seven-card-stud cannot be dealt at a table of 9 (Seven-Card Stud deals "
            "to 2 to 8 players)",
        ),
        (
            ["play", "--game", "seven-card-stud"],
            10,
            "--game: seven-card-stud cannot be dealt at a table of 10 (Seven-Card Stud deals "
            "to 2 to 8 players)",
        ),
        (["host", "--games", "holdem,stud"], 4, "--games: no game called 'stud' here"),
        (["host", "--game", "stud"], 4, "--game: no game called 'stud' here"),
        (["host", "--games", "holdem,holdem"], 4, "--games: holdem is named twice"),
        (["host", "--games", "holdem,,omaha"], 4, "--games: a name is missing in"),
        (["host", "--games", ""], 4, "--games: a name is missing in"),
        (["host", "--games", "all,holdem"], 4, "--games: 'all' stands alone"),
    ],
)
def test_a_game_the_table_cannot_deal_is_refused_with_the_reason(
    command: list[str], seats: int, message: str
) -> None:
    refused = _games_of(command, seats)
    assert isinstance(refused, str) and refused.startswith(message), refused


def test_too_many_seats_is_the_seats_reason_not_a_games() -> None:
    assert _games_of(["host", "--games", "holdem"], 11) == "seats must be between 2 and 10, not 11"
    assert _games_of(["host"], 11) == "seats must be between 2 and 10, not 11"
    assert _games_of(["play"], 1) == "seats must be between 2 and 10, not 1"


@pytest.mark.parametrize("command", ["host", "play", "simulate"])
def test_the_help_of_game_and_games_states_the_default(command: str) -> None:
    result = willow(command, "--help")
    assert result.returncode == 0, result.stderr
    text = " ".join(result.stdout.split())
    assert "(default: dealer's choice of every game the table's size can deal, as --games all)" in (
        text
    )
    assert "'all' for every game the table's size can deal (the default)" in text


def test_host_refuses_a_game_it_cannot_deal_before_anything_starts(tmp_path: Path) -> None:
    home = tmp_path / "home"
    result = willow(
        "host", "--auto", "--seats", "9", "--games", "seven-card-stud,holdem",
        "--home", str(home), "--no-advertise",
    )  # fmt: skip
    line = one_error_line(result)
    assert line == (
        "willow host: --games: seven-card-stud cannot be dealt at a table of 9 (Seven-Card Stud "
        "deals to 2 to 8 players)"
    )
    assert not home.exists()  # no store, no keys, no socket: refused before anything started
    both = one_error_line(willow("host", "--auto", "--game", "holdem", "--games", "omaha"))
    assert "--games: not allowed with argument --game" in both
