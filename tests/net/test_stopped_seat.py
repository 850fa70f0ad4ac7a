"""A laptop that sleeps (issue 24, SPEC 7.5, 8.9): a `willow bot` process stopped (SIGSTOP) past
the action clock while the two other players hold chips. Its peers time it out by their votes
(it folds and sits out), play the game on to its last hand and end it; the stopped process,
let go after the game has ended, catches up the signed end from the peers still at the table,
says so, and exits 0 with the table's transcript, byte for byte: it wrote nothing of its own
(no timeout, sequencer change or abort) on its stale view of the game.

The two other seats are nodes in this process, held at the table after the game (as a
person's screen keeps its node), so that there is a peer to catch up from, however slow the
machine."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from pathlib import Path

import jsonschema
from live_helpers import DEADLINE, Table, close_all, entries, transcript
from test_door_cli import Output
from test_live_cli import LOOPBACK, start, willow

from p2pwillow.net.lobby import GuestLobby, HostLobby
from p2pwillow.net.node import Node
from p2pwillow.rules import TableConfig
from p2pwillow.seat import ENDED_AWAY
from p2pwillow.verify import report_object, verify_file
from p2pwillow.verify.text import seat_event_text

ROOT = Path(__file__).resolve().parents[2]
VALIDATOR = jsonschema.Draft202012Validator(
    json.loads((ROOT / "protocol/schemas/reports/verify-report.json").read_text("utf-8"))
)
HANDS = 4
CLOCK = 2
DEEP = 20000
"""Deep stacks: no hand takes all of a seat's chips, so two players hold chips to the end."""


def _events(path: Path) -> list[dict[str, object]]:
    if not path.exists():
        return []
    text = path.read_text(encoding="utf-8")
    return [json.loads(line) for line in text[: text.rfind("\n") + 1].splitlines()]


async def _until(test: object, what: str, timeout: float = DEADLINE) -> None:
    deadline = time.monotonic() + timeout
    while not test():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError(f"never {what} within {timeout:.0f} s")
        await asyncio.sleep(0.05)


def _sleeper(tmp_path: Path, code: str, events: Path) -> Output:
    """`willow bot --join CODE` as "Sleepy", its events at `events`."""
    return Output(
        start("bot", "--join", code, "--name", "Sleepy", "--samples", "40",
              "--address", LOOPBACK, "--home", str(tmp_path / "sleeper"), "--events", str(events)),
        "sleeper",
        events,
    )  # fmt: skip


def _dealt(events: Path) -> bool:
    """The sleeper has said the deal of hand 1."""
    return any(e["event"] == "dealt" and e.get("hand") == 1 for e in _events(events))


def test_a_seat_stopped_past_the_clock_catches_up_the_end_of_the_game(tmp_path: Path) -> None:
    config = TableConfig(seats=3, action_clock=CLOCK, starting_stack=DEEP, hands=HANDS)
    table = Table(tmp_path, players=3, hands=HANDS, config=config)
    events = tmp_path / "sleeper-events.jsonl"

    async def main() -> tuple[Output, list[Node]]:
        code = await table.open()
        assert table.host is not None
        sleeper = _sleeper(tmp_path, code.encode(), events)
        nodes: list[Node] = []
        try:

            async def sit(n: int, lobby: HostLobby | GuestLobby) -> Node:
                node = table.node(n, await lobby.seat(), lobby)
                await node.start()
                return node

            lobbies: list[HostLobby | GuestLobby] = [table.host, table.guest(1)]
            jobs = [sit(n, lobby) for n, lobby in enumerate(lobbies)]
            nodes = list(await asyncio.wait_for(asyncio.gather(*jobs), DEADLINE))

            await _until(lambda: _dealt(events), "dealt hand 1 to the sleeper")
            sleeper.proc.send_signal(signal.SIGSTOP)
            try:
                # the others time it out, play on and end the game while it sleeps
                await _until(lambda: all(n.over for n in nodes), "ended the game", 4 * DEADLINE)
                assert all(n.ended == f"the game is over: {HANDS} hands played" for n in nodes)
            finally:
                sleeper.proc.send_signal(signal.SIGCONT)
            code_, output = await asyncio.to_thread(sleeper.finish, DEADLINE)
            assert code_ == 0, output
        finally:
            if sleeper.proc.poll() is None:
                sleeper.proc.kill()
                sleeper.proc.wait()
            await close_all(nodes)
        return sleeper, nodes

    sleeper, nodes = asyncio.run(main())
    output = "".join(sleeper.lines)
    assert "Traceback" not in output
    table_bytes = transcript(nodes[0])
    assert transcript(nodes[1]) == table_bytes
    path = Path(next(line for line in sleeper.lines if line.startswith("transcript: "))[12:-1])
    assert path.read_bytes() == table_bytes, "the sleeper holds the table's transcript"
    chain = entries(table_bytes)
    [seat] = {0, 1, 2} - {n.seating.seat for n in nodes}
    timed_out = [e for e in chain if e.kind == "timeout" and seat in e.body.seats]  # type: ignore[attr-defined]
    assert timed_out and timed_out[0].hand == 1, "its peers timed it out in hand 1"
    starts = [e for e in chain if e.kind == "hand_start"]
    assert len(starts) == HANDS, "the game went on without it"
    assert all(seat not in [p.seat for p in e.body.players] for e in starts[1:])  # type: ignore[attr-defined]
    assert not [e for e in chain if e.author == seat and e.hand > 1 and e.kind != "head_signature"]
    _the_report_says_what_happened(path, seat)
    assert f"{ENDED_AWAY}\nthe game is over: {HANDS} hands played\n" in output, output


def _the_report_says_what_happened(path: Path, seat: int) -> None:
    """`willow verify` and `--json` name the clock that ran out in hand 1 and the step it was
    for, the sit-out that followed, the excused signature of the end, and the true end."""
    report = verify_file(path)
    assert report.valid and report.game_over
    obj = report_object(report)
    VALIDATOR.validate(obj)
    assert obj["end_reason"] == {
        "why": "hands-played",
        "seat": None,
        "text": f"the game is over: {HANDS} hands played",
    }
    hands = obj["hands"]
    assert isinstance(hands, list)
    first = [e for e in hands[0]["events"] if e["seat"] == seat]
    # its clock ran out at each step it owed (a trading decision's default first, maybe), the
    # last one folding it (or calling the hand off before the deal)
    ran_out = [e for e in first if e["kind"] == "timeout"]
    assert all(e["step"] and e["outcome"] for e in ran_out), first
    timeout = next(e for e in ran_out if e["outcome"] in ("folded", "the hand called off"))
    sat_out = next(e for e in first if e["kind"] == "sit_out")
    assert sat_out["reason"] in ("folded-for-stalling", "blamed-for-abort"), first
    last = hands[-1]["events"]
    excused = {"kind": "timeout", "seat": seat, "step": "game_signature", "outcome": "excused"}
    assert excused in last, last
    text = willow("verify", str(path))
    assert text.returncode == 0, text.stdout + text.stderr
    name = report.name(seat)
    said = text.stdout
    ran_out = [e for e in report.hands[0].events if e.seat == seat and e.kind == "timeout"]
    assert all(seat_event_text(e, report.name) in said for e in ran_out), said
    assert f"{name}'s clock ran out " in said and f": {timeout['outcome']}\n" in said, said
    assert f"{name} sits out from the next hand (" in said, said
    assert f"{name}'s clock ran out signing the end of the game: excused" in said, said
    assert f"The game is over: {HANDS} hands played." in said, said
    assert json.loads(willow("verify", "--json", str(path)).stdout) == {**obj, "file": str(path)}


def test_heads_up_a_seat_stopped_past_the_clock_is_waited_for_and_plays_on(
    tmp_path: Path,
) -> None:
    """Two players, both with chips: the sleeper is timed out and sits out, and the game does
    not end (a seat sitting out counts, SPEC 3.11): it waits. Let go, the sleeper wakes with
    its clock at a stale head, where its own vote alone would be the quorum against the other
    player: it writes nothing on it, catches up, sits in again and the two play the game out,
    one transcript byte for byte."""
    hands = 3
    config = TableConfig(seats=2, action_clock=CLOCK, starting_stack=DEEP, hands=hands)
    table = Table(tmp_path, players=2, hands=hands, config=config)
    events = tmp_path / "sleeper-events.jsonl"

    async def main() -> tuple[Output, Node]:
        code = await table.open()
        assert table.host is not None
        sleeper = _sleeper(tmp_path, code.encode(), events)
        node: Node | None = None
        try:
            node = table.node(0, await asyncio.wait_for(table.host.seat(), DEADLINE), table.host)
            await node.start()
            host = node

            await _until(lambda: _dealt(events), "dealt hand 1 to the sleeper")
            sleeper.proc.send_signal(signal.SIGSTOP)
            try:

                def sat_out() -> bool:
                    chain = entries(transcript(host)) if host.transcript else []
                    ended = any(e.kind == "hand_end" and e.hand == 1 for e in chain)
                    return ended and any(e.kind == "timeout" for e in chain)

                await _until(sat_out, "timed the sleeper out of hand 1")
                # and it waits well past the clock again: no hand, no end
                await asyncio.sleep(3 * CLOCK)
                assert not host.over and host.hands_played == 1
            finally:
                sleeper.proc.send_signal(signal.SIGCONT)
            await asyncio.wait_for(host.wait_over(), 4 * DEADLINE)
            code_, output = await asyncio.to_thread(sleeper.finish, DEADLINE)
            assert code_ == 0, output
        finally:
            if sleeper.proc.poll() is None:
                sleeper.proc.kill()
                sleeper.proc.wait()
            if node is not None:
                await node.close()
        assert node is not None
        return sleeper, node

    sleeper, host = asyncio.run(main())
    output = "".join(sleeper.lines)
    assert "Traceback" not in output
    table_bytes = transcript(host)
    path = Path(next(line for line in sleeper.lines if line.startswith("transcript: "))[12:-1])
    assert path.read_bytes() == table_bytes, "the sleeper holds the table's transcript"
    chain = entries(table_bytes)
    seat = 1 - host.seat
    remedies = [e for e in chain if e.kind in ("timeout", "sequencer_change", "abort")]
    assert all(e.author != seat for e in remedies), "the sleeper wrote no remedy of its own"
    assert any(e.kind == "sit_in" and e.author == seat for e in chain), "it sat in again"
    assert len([e for e in chain if e.kind == "hand_start"]) == hands, "the game went on"
    report = verify_file(path)
    assert report.valid and report.ending is not None
    assert report.ending.text == f"the game is over: {hands} hands played"
    assert f"the game is over: {hands} hands played" in output
