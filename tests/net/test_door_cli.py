"""`willow bot --join CODE` on a table whose game has started, as real processes on loopback
(SPEC 8.9): a bot that leaves frees its seat and a newcomer takes it and plays; a full table
and a host gone are each one line and their exit code.

A newcomer's process takes a while to start, be seated and catch up, and a game of bots can
end meanwhile. So the seated players are started held (held_willow.py) and a test shuts their
gate (`Hold`) while what it waits for comes: their hand waits, its cards dealt, until the
newcomer has caught up with it or the door has answered; and they deal a next hand only a
while after the last (held_willow.DEAL_GRACE), so the newcomer's join, written once it sees
a hand end, comes before it. Every outcome is then the table's, not the machine's speed;
each hold is a few seconds, well within the action clock."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from test_live_cli import DEADLINE, DEEP, LOOPBACK, one_line, start, willow
from witness import Witness, file_tail, last_lines

from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.entry import decode_entry
from p2pwillow.net.node import ANNOUNCE_AFTER
from p2pwillow.verify import verify_file
from p2pwillow.verify.outcome import Chips


class Output:
    """A process's output read line by line as it comes (so a test can wait for one); `name`
    is what the test calls it, `events` the file its node writes its events to."""

    def __init__(self, proc: subprocess.Popen[str], name: str, events: Path | None = None) -> None:
        self.proc = proc
        self.name = name
        self.events = events
        self.lines: list[str] = []
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line)

    def text(self) -> str:
        return "".join(list(self.lines))

    def wait_for(self, pattern: str, timeout: float = DEADLINE) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(self.lines):
                m = re.search(pattern, line)
                if m:
                    return m
            if self.proc.poll() is not None and not self._thread.is_alive():
                break
            time.sleep(0.05)
        raise AssertionError(f"{self.name}: no line matching {pattern!r} in:\n{self.text()}")

    def finish(self, timeout: float = DEADLINE) -> tuple[int, str]:
        code = self.proc.wait(timeout)
        self._thread.join(5)
        return code, self.text()


SAMPLES = "40"
"""Monte Carlo deals per bot decision: the tests are about the door, not the play."""

DEALS = re.compile(r"^hand (\d+): .* deals$")


class Hold:
    """The gate of the processes a test starts held (`gate=`): while it is shut (the file
    exists) they decide nothing, so the hand they are in waits, its cards dealt."""

    def __init__(self, tmp: Path) -> None:
        self.gate = tmp / "hold"

    @contextmanager
    def shut(self) -> Iterator[None]:
        self.gate.touch()
        try:
            yield
        finally:
            self.gate.unlink(missing_ok=True)


def host(tmp: Path, *args: str, gate: Path | None = None) -> tuple[Output, str]:
    """`willow host --auto` of Weeping Willow (the game these tables' timings and stacks were
    made for), its files under tmp/host; its output and its join code."""
    home, events = tmp / "host", tmp / "host-events.jsonl"
    proc = start("host", "--auto", "--name", "Ann", "--samples", SAMPLES, "--address", LOOPBACK,
                 "--no-advertise", "--home", str(home), "--events", str(events),
                 "--game", "weeping-willow", *args, gate=gate)  # fmt: skip
    out = Output(proc, "host", events)
    code = out.wait_for(r"^willow join ([a-z2-7-]+)$").group(1)
    return out, code


def bot(tmp: Path, code: str, n: int, *args: str, gate: Path | None = None) -> Output:
    home, events = tmp / f"bot{n}", tmp / f"bot{n}-events.jsonl"
    join = ["bot", "--join", code, "--samples", SAMPLES, "--address", LOOPBACK,
            "--home", str(home), "--events", str(events)]  # fmt: skip
    return Output(start(*join, *args, gate=gate), f"bot{n}", events)


def dealing(out: Output) -> int:
    """The hand whose deal `out`'s process said last (0 before the first)."""
    return max((int(m.group(1)) for line in list(out.lines) if (m := DEALS.match(line))), default=0)


def caught_up(late: Output, table: Output, timeout: float = DEADLINE, *, least: int = 1) -> int:
    """Wait until the newcomer `late` has said the deal of the hand `table` (a seated player's
    process, held) is in, hand `least` or later: it has caught up, and writes its join once
    that hand ends. The hand. (`least`: a table whose host was killed as it dealt a hand may
    hear that deal only from the host resumed, after the newcomer replayed the hand before.)"""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and late.proc.poll() is None:
        hand = dealing(table)
        if hand >= least and dealing(late) == hand:
            return hand
        time.sleep(0.05)
    raise AssertionError(
        f"{late.name} never said the deal of hand {dealing(table)} ({table.name}'s):\n{late.text()}"
    )


def kill_all(outputs: list[Output]) -> None:
    for out in outputs:
        if out.proc.poll() is None:
            out.proc.kill()
            out.proc.wait()


@contextmanager
def table_of(witness: Witness, first: Output) -> Iterator[list[Output]]:
    """The processes a test starts, `first` and those it adds to the list: whatever the test
    does, none is left running, and what each printed, and its last events, are shown for a
    test that fails."""
    procs = [first]

    def seen() -> list[tuple[str, str]]:
        out = []
        for p in procs:
            out.append((f"{p.name}'s output", last_lines(p.text())))
            if p.events is not None:
                out.append((f"{p.name}'s events", file_tail(p.events)))
        return out

    witness.watch_each(seen)
    try:
        yield procs
    finally:
        kill_all(procs)


def finish(procs: Sequence[Output]) -> tuple[list[int], list[str]]:
    """Each process run to its end: the exit codes and the outputs."""
    results = [p.finish() for p in procs]
    return [c for c, _ in results], [o for _, o in results]


def test_a_newcomer_takes_the_seat_a_bot_left_and_plays_to_the_end(
    tmp_path: Path, witness: Witness
) -> None:
    """Three seats, five hands: the bot in seat 1 leaves after hand 1 (it deals hand 2); the
    two left go on while a `willow bot --join CODE` started then takes seat 1 and catches up,
    and it plays the hands after its join; every transcript is the same game
    and verifies, the newcomer's too. Deep stacks: with the default thousand, a hand can
    leave one of the two players all the chips, and the game is over before the newcomer
    comes."""
    hands = 5
    hold = Hold(tmp_path)
    args = ["--hands", str(hands), "--seats", "3", "--stack", str(DEEP)]
    first, code = host(tmp_path, *args, gate=hold.gate)
    with table_of(witness, first) as procs:
        leaver = bot(tmp_path, code, 1, "--name", "Leaver", "--leave-after", "1")
        procs.append(leaver)
        first.wait_for(r"Leaver \(normal\) sat down in seat 1")
        procs.append(bot(tmp_path, code, 2, "--name", "Stayer", gate=hold.gate))
        first.wait_for(r"Leaver \(normal\) left the table")
        with hold.shut():
            newcomer = bot(tmp_path, code, 3, "--name", "Late")
            procs.append(newcomer)
            caught_up(newcomer, first)
        codes, outputs = finish(procs)
    assert codes == [0, 0, 0, 0], outputs
    assert "Late (normal) joins in seat 1 from the next hand (at 127.0.0.1:" in outputs[0]
    assert "takes seat 1 of a game under way" in outputs[3], outputs[3]
    for out in (outputs[0], outputs[2], outputs[3]):
        assert f"the game is over: {hands} hands played" in out, out
        assert "the table changed: the safety code is now" in out, out
    assert "Late (normal) joined the table in seat 1" in outputs[0]
    paths = [Path(re.findall(r"transcript: (.+)", out)[-1]) for out in outputs]
    stayed = {paths[n].read_bytes() for n in (0, 2, 3)}
    assert len(stayed) == 1, "the host, the bot that stayed and the newcomer hold one game"
    game = stayed.pop()
    assert game.startswith(paths[1].read_bytes())
    chain = [decode_entry(line) for line in game.splitlines()]
    [join] = [e for e in chain if isinstance(e.body, k.Join)]
    assert isinstance(join.body, k.Join) and join.author == 1 and join.body.buy_in == DEEP
    starts = [e for e in chain if isinstance(e.body, k.HandStart)]
    played = [
        n
        for n, e in enumerate(starts, start=1)
        if e.seq > join.seq and isinstance(e.body, k.HandStart)
        if 1 in {p.seat for p in e.body.players}
    ]
    [leave] = [e for e in chain if isinstance(e.body, k.Leave)]
    after = [sum(e.seq < x.seq for e in starts) for x in (leave, join)]
    # the join comes in the pause after the hand the bot left in (the results stay on the
    # table for a moment, and a newcomer quick enough is seated in it), or after the hand the
    # table waited in, or a later one if that hand's start reached the sequencer first; the
    # newcomer plays every hand after it, the last one
    assert after[0] <= after[1] < hands, after
    assert played == list(range(after[1] + 1, hands + 1)), (played, after)
    for path in (paths[0], paths[3]):
        report = verify_file(path)
        assert report.valid and not report.missing, report.error
        assert len(report.hands) == hands
    verdict = willow("verify", str(paths[3]))
    assert verdict.returncode == 0, verdict


def game_of(paths: list[Path]) -> bytes:
    """The one game every path holds (asserted), byte for byte."""
    copies = {p.read_bytes() for p in paths}
    assert len(copies) == 1, "every seat holds the same transcript"
    return copies.pop()


def transcript_of(output: str) -> Path:
    return Path(re.findall(r"transcript: (.+)", output)[-1])


def verified(path: Path, *, bought_in: int) -> Chips:
    """The transcript at `path` verifies with nothing missing, and its chips are all there:
    `bought_in` bought in, every one of them at the table or taken away."""
    report = verify_file(path)
    assert report.valid and not report.missing, report.error
    chips = report.chips
    assert chips is not None and chips.bought_in == bought_in and chips.balanced
    return chips


def test_a_host_starts_with_3_of_4_seats_and_a_4th_bot_joins_between_hands(
    tmp_path: Path, witness: Witness
) -> None:
    """`willow host --seats 4 --start-with 3 --hands 4`: the game starts once two bots are
    seated; a third `willow bot --join CODE` started while hand 1 waits takes seat 3, catches
    up, writes its join between hands and plays the hands after it; every transcript is the
    same game, `willow verify` passes and the chips are all there."""
    hands = 4
    hold = Hold(tmp_path)
    args = ["--hands", str(hands), "--seats", "4", "--start-with", "3", "--stack", str(DEEP)]
    first, code = host(tmp_path, *args, gate=hold.gate)
    with table_of(witness, first) as procs:
        with hold.shut():  # hand 1 waits, its cards dealt, for the fourth player
            first.wait_for(r"starting once 3 of 4 seats are taken")
            procs += [
                bot(tmp_path, code, n, "--name", name, gate=hold.gate)
                for n, name in ((1, "Bea"), (2, "Cal"))
            ]
            first.wait_for(r"^hand 1: ")
            procs.append(bot(tmp_path, code, 3, "--name", "Dee"))
            assert caught_up(procs[3], first) == 1
        codes, outputs = finish(procs)
    assert codes == [0, 0, 0, 0], outputs
    assert "Dee (normal) joins in seat 3 from the next hand" in outputs[0]
    assert "Dee (normal) takes seat 3 of a game under way" in outputs[3]
    for out in outputs:
        assert f"the game is over: {hands} hands played" in out, out
    game = game_of([transcript_of(out) for out in outputs])
    chain = [decode_entry(line) for line in game.splitlines()]
    genesis = chain[0].body
    assert isinstance(genesis, k.Genesis) and sorted(genesis.identity_keys()) == [0, 1, 2]
    [join] = [e for e in chain if isinstance(e.body, k.Join)]
    assert isinstance(join.body, k.Join) and join.author == 3 and join.body.buy_in == DEEP
    starts = [e.body for e in chain if isinstance(e.body, k.HandStart)]
    assert len(starts) == hands
    seats = [{p.seat for p in body.players} for body in starts]
    assert seats[0] == {0, 1, 2}, "hand 1 is dealt to the three who started"
    assert 3 in seats[-1], "the newcomer plays the last hand"
    chips = verified(transcript_of(outputs[3]), bought_in=4 * DEEP)
    assert chips.at_table == 4 * DEEP
    verdict = willow("verify", str(transcript_of(outputs[0])))
    assert verdict.returncode == 0, verdict


def test_start_with_outside_2_to_seats_is_one_usage_line(tmp_path: Path) -> None:
    for n in ("1", "5"):
        result = willow("host", "--auto", "--seats", "4", "--start-with", n,
                        "--home", str(tmp_path / "h"), "--no-advertise")  # fmt: skip
        line = one_line(result, 2)
        assert line == f"willow host: --start-with must be 2 to 4 (the --seats), not {n}"


def test_a_full_table_is_one_line_and_exit_12(tmp_path: Path, witness: Witness) -> None:
    """A 2-seat table playing: a third bot is told the table is full (exit 12); the table
    waits in hand 1 until it has been told (else a fast game is over first: exit 17)."""
    hold = Hold(tmp_path)
    first, code = host(tmp_path, "--hands", "2", "--seats", "2", gate=hold.gate)
    with table_of(witness, first) as procs:
        with hold.shut():
            procs.append(bot(tmp_path, code, 1, "--name", "Bea", gate=hold.gate))
            first.wait_for(r"hand 1: ")
            third = willow("bot", "--join", code, "--address", LOOPBACK, "--name", "Cal",
                           "--home", str(tmp_path / "bot3"), timeout=60)  # fmt: skip
        line = one_line(third, 12)
        assert line == "willow bot: the host did not seat Cal (normal): all 2 seats are taken"
        codes, _ = finish(procs)
    assert codes == [0, 0]


def test_a_host_gone_is_one_line_and_exit_10(tmp_path: Path, witness: Witness) -> None:
    """Once the host's willow has stopped (its game over), nothing keeps the door: a newcomer
    is told nothing answers at the code's address (exit 10)."""
    first, code = host(tmp_path, "--hands", "1", "--seats", "2")
    with table_of(witness, first) as procs:
        procs.append(bot(tmp_path, code, 1, "--name", "Bea"))
        codes, _ = finish(procs)
    assert codes == [0, 0]
    gone = willow("bot", "--join", code, "--address", LOOPBACK, "--timeout", "1.5",
                  "--home", str(tmp_path / "bot4"), timeout=60)  # fmt: skip
    line = one_line(gone, 10)
    assert line.startswith("willow bot: nothing answers at 127.0.0.1:")


def _killed_and_resumed(first: Output, victim: Output, home: Path) -> tuple[Output, int]:
    """Once the next hand is dealt (the host says so), `victim` is killed (SIGKILL) and
    `willow bot --resume --home HOME` started: the resumed process, and the hands dealt
    before the one it was killed in."""
    hands_then = dealing(first)
    first.wait_for(rf"^hand {hands_then + 1}: .* deals")
    victim.proc.kill()
    victim.proc.wait()
    assert "the game is over" not in first.text(), "killed mid-game"
    events = home.parent / f"{victim.name}-again-events.jsonl"
    resume = ["bot", "--resume", "--home", str(home), "--address", LOOPBACK,
              "--samples", SAMPLES, "--events", str(events)]  # fmt: skip
    return Output(start(*resume), f"{victim.name} again", events), hands_then


def test_a_newcomer_killed_after_its_join_resumes_its_seat_and_plays_on(
    tmp_path: Path, witness: Witness
) -> None:
    """A bot that joined a game under way (hand 1 waits for it to catch up) is killed
    (SIGKILL) once it plays a hand after its join; `willow bot --resume --home DIR` takes its
    seat again from its store (its table.json the roster it was given, `late`), catches up
    and plays the game to its end: one game in every store, verified, every chip there."""
    hold = Hold(tmp_path)
    args = ["--hands", "5", "--seats", "3", "--start-with", "2", "--stack", str(DEEP)]
    first, code = host(tmp_path, *args, gate=hold.gate)
    with table_of(witness, first) as procs:
        with hold.shut():
            procs.append(bot(tmp_path, code, 1, "--name", "Bea", gate=hold.gate))
            first.wait_for(r"^hand 1: ")
            late = bot(tmp_path, code, 2, "--name", "Cal")
            procs.append(late)
            caught_up(late, first)
        first.wait_for(r"Cal \(normal\) joined the table in seat 2")
        again, _ = _killed_and_resumed(first, late, tmp_path / "bot2")
        procs.append(again)
        codes, outputs = finish([first, procs[1], again])
    assert codes == [0, 0, 0], outputs
    assert "resuming " in outputs[2] and " at seat 2 " in outputs[2], outputs[2]
    resumed = outputs[2][outputs[2].index("resuming ") :]
    assert re.search(r"^seat 2 at .*; safety code ", resumed, re.M), "seated, not watching"
    assert "from the next hand" not in resumed
    for out in outputs:
        assert "the game is over: 5 hands played" in out, out
    game = game_of([transcript_of(out) for out in outputs])
    chain = [decode_entry(line) for line in game.splitlines()]
    [join] = [e for e in chain if isinstance(e.body, k.Join)]
    assert join.author == 2
    starts = [e.body for e in chain if isinstance(e.body, k.HandStart)]
    assert len(starts) == 5 and 2 in {p.seat for p in starts[-1].players}
    [game_dir] = (tmp_path / "bot2" / "data" / "games").iterdir()
    table = json.loads((game_dir / "table.json").read_text())
    assert table["late"] is True and table["seat"] == 2
    verified(transcript_of(outputs[2]), bought_in=3 * DEEP)


def test_a_player_resumed_after_a_newcomer_joined_plays_with_it(
    tmp_path: Path, witness: Witness
) -> None:
    """A seated bot is killed (SIGKILL) after a newcomer joined; resumed from its store, it
    must know the newcomer's key although its table.json was written when the table formed
    (SPEC 8.10): it lets the newcomer in and dials it, so the hands the newcomer sequences get
    its entries and nobody is timed out (a missing link shows as the resumed seat timed out
    by the others' votes, a clock after it is back). The table waits while the host's last
    word of the newcomer goes by, so hands are left for the newcomer to deal; deep stacks
    keep the newcomer in them."""
    hands = 8
    hold = Hold(tmp_path)
    args = ["--hands", str(hands), "--seats", "3", "--start-with", "2", "--stack", str(DEEP)]
    first, code = host(tmp_path, *args, gate=hold.gate)
    with table_of(witness, first) as procs:
        with hold.shut():
            seated = bot(tmp_path, code, 1, "--name", "Bea", gate=hold.gate)
            procs.append(seated)
            first.wait_for(r"^hand 1: ")
            procs.append(bot(tmp_path, code, 2, "--name", "Cal"))
            caught_up(procs[2], first)
        first.wait_for(r"Cal \(normal\) joined the table in seat 2")
        with hold.shut():
            # past the host's last word of the newcomer (ANNOUNCE_AFTER): only the store can
            # say (time that must pass, not a wait for something)
            time.sleep(ANNOUNCE_AFTER + 1)
        again, hands_then = _killed_and_resumed(first, seated, tmp_path / "bot1")
        procs.append(again)
        codes, outputs = finish([first, procs[2], again])
    assert codes == [0, 0, 0], outputs
    assert "resuming " in outputs[2] and " at seat 1 " in outputs[2], outputs[2]
    for out in outputs:
        assert f"the game is over: {hands} hands played" in out, out
    game = game_of([transcript_of(out) for out in outputs])
    chain = [decode_entry(line) for line in game.splitlines()]
    starts = [e for e in chain if isinstance(e.body, k.HandStart)]
    after = [e.body for e in starts if e.hand > hands_then + 1 and isinstance(e.body, k.HandStart)]
    assert any(b.dealer == 2 for b in after), "the newcomer dealt after the resume"
    timed_out = [e.body for e in chain if isinstance(e.body, k.Timeout)]
    assert not timed_out, f"a seat was timed out: {timed_out}"
    # the resumed bot played on: it finished the hand it was killed in, and is dealt in after
    # it unless that hand took its last chip (a seat without chips sits out, SPEC 3.11)
    killed_in = hands_then + 1
    assert any(
        e.author == 1 and e.hand == killed_in and isinstance(e.body, k.HeadSignature) for e in chain
    ), "the resumed bot signed the end of the hand it was killed in"
    [ended] = [e.body for e in chain if e.hand == killed_in and isinstance(e.body, k.HandEnd)]
    left_with = {p.seat: p.stack for p in ended.players}
    assert 1 in {p.seat for p in after[0].players} or left_with[1] == 0, left_with
    report = verify_file(transcript_of(outputs[2]))
    assert report.valid and not report.missing, report.error


def test_a_newcomer_stopped_before_its_join_is_told_to_join_again(
    tmp_path: Path, witness: Witness
) -> None:
    """A newcomer killed while it watches (its join not in the chain: hand 1 waits meanwhile,
    so none can be placed) holds no seat to resume: `--resume` is one line, exit 19, naming
    what to do; the game goes on without it."""
    hold = Hold(tmp_path)
    args = ["--hands", "2", "--seats", "3", "--start-with", "2"]
    first, code = host(tmp_path, *args, gate=hold.gate)
    with table_of(witness, first) as procs:
        with hold.shut():
            procs.append(bot(tmp_path, code, 1, "--name", "Bea", gate=hold.gate))
            first.wait_for(r"^hand 1: ")
            late = bot(tmp_path, code, 2, "--name", "Cal")
            procs.append(late)
            late.wait_for(r"^seat 2 at .* from the next hand")  # its files are open
            late.proc.kill()
            late.proc.wait()
            [game_dir] = (tmp_path / "bot2" / "data" / "games").iterdir()
            held = (game_dir / "transcript.jsonl").read_bytes().splitlines()
            assert not [e for e in map(decode_entry, held) if isinstance(e.body, k.Join)]
            result = willow("bot", "--resume", "--home", str(tmp_path / "bot2"), timeout=60)
        line = one_line(result, 19)
        assert line == (
            f"willow bot: {game_dir / 'transcript.jsonl'}: this seat's join never came into "
            "the chain, so there is no seat to resume: join the table again with its join code"
        )
        codes, _ = finish(procs[:2])
    assert codes == [0, 0]


def test_a_newcomer_never_seated_gives_up_with_one_line_and_exit_20(
    tmp_path: Path, witness: Witness
) -> None:
    """A newcomer whose join never comes into the chain (the table waits in hand 1, then is
    stopped, SIGSTOP, while it watches) gives up after `--seat-within` seconds: one line
    saying so, exit 20. The table goes on once it runs again."""
    hold = Hold(tmp_path)
    args = ["--hands", "2", "--seats", "3", "--start-with", "2"]
    first, code = host(tmp_path, *args, gate=hold.gate)
    with table_of(witness, first) as procs:
        with hold.shut():
            procs.append(bot(tmp_path, code, 1, "--name", "Bea", gate=hold.gate))
            first.wait_for(r"^hand 1: ")
            late = bot(tmp_path, code, 2, "--name", "Cal", "--seat-within", "3")
            procs.append(late)
            late.wait_for(r"takes seat 2 of a game under way")
            for p in procs[:2]:
                p.proc.send_signal(signal.SIGSTOP)
            try:
                gave_up, output = late.finish(timeout=30)
            finally:
                for p in procs[:2]:
                    p.proc.send_signal(signal.SIGCONT)
        codes, _ = finish(procs[:2])
    assert gave_up == 20, output
    assert "Traceback" not in output
    assert output.splitlines()[-1] == (
        "willow bot: no seat after 3 s: the table never took this newcomer's join (its players "
        "drop a newcomer after 120 s without one); join again with the table's join code"
    )
    assert codes == [0, 0]


def test_seat_within_must_be_positive(tmp_path: Path) -> None:
    result = willow("bot", "--join", "x", "--seat-within", "0", "--home", str(tmp_path))
    assert one_line(result, 2) == (
        "willow bot: --seat-within must be more than 0 and at most 3600 seconds, not 0.0"
    )


def test_a_host_resumed_after_a_crash_keeps_its_door(tmp_path: Path, witness: Witness) -> None:
    """`willow host --seats 4 --start-with 3` and two bots: the host is killed (SIGKILL) once
    hand 2 is dealt and `willow host --resume` takes its seat again. Its door is open again on
    the same address, port and keys: `willow bot --join CODE` with the code said at the start
    (started with the resume) takes the seat free in the chain and plays to the end (hand 2
    waits until it has caught up), and once the table is full a fifth bot is told so (exit 12;
    the table waits for that too). One game in every store, verified, every chip there."""
    hands = 5
    hold = Hold(tmp_path)
    args = ["--hands", str(hands), "--seats", "4", "--start-with", "3", "--stack", str(DEEP)]
    first, code = host(tmp_path, *args, gate=hold.gate)
    with table_of(witness, first) as procs:
        procs += [
            bot(tmp_path, code, n, "--name", name, gate=hold.gate)
            for n, name in ((1, "Bea"), (2, "Cal"))
        ]
        first.wait_for(r"^hand 2: .* deals")
        with hold.shut():
            first.proc.kill()
            first.proc.wait()
            assert "the game is over" not in first.text(), "killed mid-game"
            events = tmp_path / "host-again-events.jsonl"
            again = Output(start("host", "--resume", "--auto", "--samples", SAMPLES,
                                 "--address", LOOPBACK, "--no-advertise",
                                 "--home", str(tmp_path / "host"), "--events", str(events),
                                 gate=hold.gate), "host again", events)  # fmt: skip
            procs.append(again)
            # (started with the resume: a newcomer's hello waits for the door, not the other
            # way; on a loaded machine the resumed host may take more than the default 8 s to
            # listen)
            procs.append(bot(tmp_path, code, 3, "--name", "Dee", "--timeout", "30"))
            assert again.wait_for(r"^willow join ([a-z2-7-]+)$").group(1) == code
            assert caught_up(procs[4], procs[1], least=2) == 2
        again.wait_for(r"Dee \(normal\) joined the table in seat 3")
        with hold.shut():  # else the game may be over before the fifth bot asks (exit 17)
            fifth = willow("bot", "--join", code, "--address", LOOPBACK, "--name", "Eve",
                           "--home", str(tmp_path / "bot4"), timeout=60)  # fmt: skip
        line = one_line(fifth, 12)
        assert line == "willow bot: the host did not seat Eve (normal): all 4 seats are taken"
        codes, outputs = finish(procs[1:])
    assert codes == [0, 0, 0, 0], outputs
    assert "resuming " in outputs[2] and " at seat 0 " in outputs[2], outputs[2]
    assert "Dee (normal) joins in seat 3 from the next hand" in outputs[2]
    assert "Dee (normal) takes seat 3 of a game under way" in outputs[3]
    for out in outputs:
        assert f"the game is over: {hands} hands played" in out, out
    game = game_of([transcript_of(out) for out in outputs])
    chain = [decode_entry(line) for line in game.splitlines()]
    [join] = [e for e in chain if isinstance(e.body, k.Join)]
    assert isinstance(join.body, k.Join) and join.author == 3 and join.body.buy_in == DEEP
    starts = [e.body for e in chain if isinstance(e.body, k.HandStart)]
    assert len(starts) == hands and 3 in {p.seat for p in starts[-1].players}
    chips = verified(transcript_of(outputs[3]), bought_in=4 * DEEP)
    assert chips.at_table == 4 * DEEP
    verdict = willow("verify", str(transcript_of(outputs[2])))
    assert verdict.returncode == 0, verdict
