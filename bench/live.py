"""Benchmarks of the live table: four bot peers, each its own `willow` process, on loopback,
against the same kind of hands played by four sessions in one process (`willow simulate`'s
table).

Does I/O: starts processes, opens sockets on 127.0.0.1, reads their event files, and reads the
clock. `python3 -m bench.live` prints the JSON. LIVE_GAMES live games and BASELINE_GAMES
in-process ones are played per run, in turns, and shared by the three figures; each figure is
the median (CPU: the mean) over their hands.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.entry import Entry, decode_entry
from p2pwillow.rules import TableConfig
from p2pwillow.session import Outgoing
from p2pwillow.table import Table

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = 4
HANDS = 10
LIVE_GAMES = 4
COLD_BYTES = 8 * 1024 * 1024
"""Copied before each item an in-process session is handed, in the cold-cache baseline: twice
this machine's cache per core."""
BASELINE_GAMES = 6
COLD_GAMES = 1
"""In-process games of HANDS hands each (they are cheap): the mean over more hands is steadier.
Each is a new game of PLAYERS seats with STACK chips each, as the live one is."""
SAMPLES = 100
"""Monte Carlo deals per bot decision, the same live and in process."""
STACK = 100_000
"""Chips each player sits down with, the same live and in process: deep enough that no one
is out of chips within HANDS hands, so every hand deals in every seat (a hand's CPU grows with
its players)."""
DEADLINE = 300.0
LOOPBACK = "127.0.0.1"
GAME = "weeping-willow"
"""The game of the live and in-process games (`--games` of the live host, `games` of the
in-process table), unless a figure names others: both sides must deal the same game, and a
host of no --game would deal every game its size allows."""


@dataclass(frozen=True, slots=True)
class HandFigures:
    wall: float
    """Seconds from hand_start to hand_end on the dealer's clock."""
    setup: float
    """Seconds from hand_start to the last card dealt, on the dealer's clock (NaN in a game
    dealt from the live deck: its cards are dealt street by street)."""
    cpu: float
    """CPU seconds of every peer from its hand_start to its hand_end, added up."""
    entries: int
    """Entries of the hand in the transcript (its head signatures included)."""
    players: int
    """Players dealt in (a hand's proofs grow with them)."""
    frames: int = 0
    """Frames every peer sent from this hand_start to the next (or to the game's end)."""
    bytes: int = 0
    worker_cpu: float = 0.0
    """Of `cpu`, what the peers' worker threads spent on their jobs (sessions, proofs, bots,
    store); the rest is each peer's loop thread (frames, replication, sends), the sockets'
    own threads and the collector. Live peers only."""
    kinds: tuple[tuple[str, int], ...] = ()
    """How many entries of each kind the hand has, by kind."""

    def features(self) -> tuple[float, ...]:
        """What a hand's CPU grows with, beyond what every hand of its players does: its
        shuffle and trade proofs, its reveals, and its other entries (decisions, mostly)."""
        n = dict(self.kinds)
        proofs = n.get("hand_shuffle", 0) + n.get("trade_give", 0)
        reveals = n.get("reveal", 0)
        return (1.0, float(proofs), float(reveals), float(self.entries - proofs - reveals))


_runs: dict[str, list[HandFigures]] = {}


def _willow(*args: str, events: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "p2pwillow", *args, "--events", str(events)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        text=True,
    )


def _live_events(
    tmp: Path, *, hands: int = HANDS, games: str = GAME
) -> list[list[dict[str, object]]]:
    """Play `hands` hands (of `games`, a --games list) with `willow host --auto` and three
    `willow bot`s; every peer's events, the host's first."""
    files = [tmp / f"events{n}.jsonl" for n in range(PLAYERS)]
    common = ["--samples", str(SAMPLES), "--address", LOOPBACK]
    table = ["--hands", str(hands), "--seats", str(PLAYERS), "--stack", str(STACK)]
    table += ["--no-advertise", "--games", games]
    host = _willow("host", "--auto", *table, "--home", str(tmp / "host"), *common, events=files[0])
    procs = [host]
    try:
        assert host.stdout is not None
        first = host.stdout.readline()
        found = re.fullmatch(r"willow join ([a-z2-7-]+)\n", first)
        if found is None:
            raise RuntimeError(f"willow host said {first!r}")
        for n in range(1, PLAYERS):
            bot = ["bot", "--join", found.group(1), "--home", str(tmp / f"bot{n}"), *common]
            procs.append(_willow(*bot, events=files[n]))
        deadline = time.monotonic() + DEADLINE
        for proc in procs:
            output, _ = proc.communicate(timeout=max(1.0, deadline - time.monotonic()))
            if proc.returncode != 0:
                raise RuntimeError(f"a peer failed ({proc.returncode}): {output[-400:]}")
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return [[json.loads(line) for line in f.read_text().splitlines()] for f in files]


def _at(events: list[dict[str, object]], name: str, hand: int) -> dict[str, object]:
    for e in events:
        if e["event"] == name and e.get("hand") == hand:
            return e
    raise RuntimeError(f"no {name} event for hand {hand}")


def _num(e: dict[str, object], key: str) -> float:
    value = e[key]
    assert isinstance(value, int | float)
    return float(value)


def _per_hand(
    lines: list[bytes],
) -> tuple[dict[int, int], dict[int, int], dict[int, tuple[tuple[str, int], ...]]]:
    """Entries of each hand, its players (from its hand_start), and its entries by kind."""
    counts: dict[int, int] = {}
    players: dict[int, int] = {}
    kinds: dict[int, Counter[str]] = {}
    for line in lines:
        entry = decode_entry(line)
        counts[entry.hand] = counts.get(entry.hand, 0) + 1
        kinds.setdefault(entry.hand, Counter())[entry.kind] += 1
        if isinstance(entry.body, k.HandStart):
            players[entry.hand] = len(entry.body.players)
    return counts, players, {h: tuple(sorted(c.items())) for h, c in kinds.items()}


def _live_game(
    *, hands: int = HANDS, games: str = GAME, arrivals: list[Arrival] | None = None
) -> list[HandFigures]:
    """One live game of `hands` hands (of `games`); with `arrivals`, when each entry reached
    the host's transcript, in order (`_Watcher`)."""
    with tempfile.TemporaryDirectory(prefix="willow-bench-") as tmp:
        watcher = None if arrivals is None else _Watcher(Path(tmp, "host"), arrivals)
        try:
            peers = _live_events(Path(tmp), hands=hands, games=games)
        finally:
            if watcher is not None:
                watcher.stop()
        [path] = Path(tmp, "host").glob("data/games/*/transcript.jsonl")
        entries, players, kinds = _per_hand(path.read_bytes().splitlines())
    played = max(entries)  # a game may end early: a player out of chips
    figures = []
    for hand in range(1, played + 1):
        start = _at(peers[0], "hand_start", hand)
        dealer = int(_num(start, "dealer"))
        own = next(p for p in peers if p and p[0]["seat"] == dealer)
        begun, ended = (_at(own, name, hand) for name in ("hand_start", "hand_end"))
        # a game dealt from the live deck deals street by street: no one moment is "dealt"
        dealt = next((e for e in own if e["event"] == "dealt" and e.get("hand") == hand), None)
        cpu, worker_cpu = (
            sum(
                _num(_at(p, "hand_end", hand), key) - _num(_at(p, "hand_start", hand), key)
                for p in peers
            )
            for key in ("cpu", "worker_cpu")
        )
        sent = [_sent(p, hand, "frames", played) for p in peers]
        size = [_sent(p, hand, "bytes", played) for p in peers]
        figures.append(
            HandFigures(
                wall=_num(ended, "t") - _num(begun, "t"),
                setup=math.nan if dealt is None else _num(dealt, "t") - _num(begun, "t"),
                cpu=cpu,
                entries=entries[hand],
                players=players[hand],
                frames=int(sum(sent)),
                bytes=int(sum(size)),
                worker_cpu=worker_cpu,
                kinds=kinds[hand],
            )
        )
    return figures


def _sent(events: list[dict[str, object]], hand: int, counter: str, played: int) -> float:
    """What one peer sent from this hand's start to the next hand's (or the game's end)."""
    after = [e for e in events if e["event"] == "over"] if hand == played else None
    end = after[-1] if after else _at(events, "hand_start", hand + 1)
    return _num(end, counter) - _num(_at(events, "hand_start", hand), counter)


def _in_process_game(seed: int, *, cold: bool = False) -> list[HandFigures]:
    """One in-process game. `cold`: before each item a session is handed, COLD_BYTES of
    memory are copied, which leaves the session with the cold caches a peer's process finds
    when it wakes for a frame after the other peers ran on its core; the copies' own CPU is
    left out of the figures."""
    marks: dict[int, dict[str, tuple[float, float]]] = {}
    shares: dict[int, int] = {}
    dealt_in: dict[int, int] = {}
    copying = [0.0]

    def on_entry(entry: Entry) -> None:
        now = (time.perf_counter(), time.process_time() - copying[0])
        hand = marks.setdefault(entry.hand, {})
        if isinstance(entry.body, k.HandStart):
            hand["start"] = now
            dealt_in[entry.hand] = len(entry.body.players)
        elif entry.kind == "deal_shares":
            shares[entry.hand] = shares.get(entry.hand, 0) + 1
            if shares[entry.hand] == dealt_in[entry.hand]:
                hand["dealt"] = now
        elif entry.kind == "hand_end":
            hand["end"] = now

    config = TableConfig(seats=PLAYERS, starting_stack=STACK, games=(GAME,))
    table = Table(
        PLAYERS, config=config, seed=seed, rng=os.urandom, samples=SAMPLES, on_entry=on_entry
    )
    if cold:
        memory = bytearray(COLD_BYTES)
        deliver = table._deliver

        def cold_deliver(seat: int, item: Outgoing) -> None:
            began = time.process_time()
            bytes(memory)
            copying[0] += time.process_time() - began
            deliver(seat, item)

        table._deliver = cold_deliver  # type: ignore[method-assign]
    played = table.play(HANDS)
    entries, players, kinds = _per_hand([line.rstrip(b"\n") for line in table.lines])
    figures = []
    for hand in range(1, played + 1):
        m = marks[hand]
        figures.append(
            HandFigures(
                wall=m["end"][0] - m["start"][0],
                setup=m["dealt"][0] - m["start"][0],
                cpu=m["end"][1] - m["start"][1],
                entries=entries[hand],
                players=players[hand],
                kinds=kinds[hand],
            )
        )
    return figures


def _figures() -> tuple[list[HandFigures], list[HandFigures]]:
    """LIVE_GAMES live games and BASELINE_GAMES in-process ones (`willow simulate`'s table,
    each with its own seed), of HANDS hands each, taken in turns: what a hand costs varies
    with its cards and choices more than with anything else, so more hands make a steadier
    mean, and a machine that is slower for a while slows both sides alike."""
    if not _runs:
        live: list[HandFigures] = []
        local: list[HandFigures] = []
        for turn in range(max(LIVE_GAMES, BASELINE_GAMES)):
            if turn < LIVE_GAMES:
                live.extend(_live_game())
            if turn < BASELINE_GAMES:
                local.extend(_in_process_game(turn + 1))
        _runs.update(live=live, in_process=local)
    return _runs["live"], _runs["in_process"]


def _cold() -> list[HandFigures]:
    """COLD_GAMES in-process games with cold caches (see `_in_process_game`)."""
    if "cold" not in _runs:
        _runs["cold"] = [
            f for seed in range(1, COLD_GAMES + 1) for f in _in_process_game(seed, cold=True)
        ]
    return _runs["cold"]


def _median(figures: list[HandFigures], pick: Callable[[HandFigures], float]) -> float:
    return statistics.median(pick(f) for f in figures)


def _per_entry(figures: list[HandFigures]) -> float:
    return sum(f.cpu for f in figures) / sum(f.entries for f in figures)


def fit(rows: Sequence[Sequence[float]], values: Sequence[float]) -> tuple[float, ...]:
    """Least squares: the coefficients c minimising sum((row . c - value)^2), from the normal
    equations by Gaussian elimination with partial pivoting. A column that is zero in every
    row gets coefficient 0."""
    n = len(rows[0])
    a = [[sum(r[i] * r[j] for r in rows) for j in range(n)] for i in range(n)]
    b = [sum(r[i] * v for r, v in zip(rows, values, strict=True)) for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        b[col], b[pivot] = b[pivot], b[col]
        if abs(a[col][col]) < 1e-12:
            continue
        for r in range(n):
            if r != col:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
                b[r] -= f * b[col]
    return tuple(b[i] / a[i][i] if abs(a[i][i]) >= 1e-12 else 0.0 for i in range(n))


def _matched(live: list[HandFigures], local: list[HandFigures]) -> float:
    """The in-process CPU of hands like the live ones, each by its proofs, reveals and other
    entries: CPU against those, fitted over the in-process hands (`fit`), for each live hand.
    The two games deal other cards and make other choices, so the mean of their hands also
    compares hands with more trades against hands with fewer."""
    model = fit([f.features() for f in local], [f.cpu for f in local])
    return statistics.mean(
        sum(c * x for c, x in zip(model, f.features(), strict=True)) for f in live
    )


def _full(figures: list[HandFigures]) -> list[HandFigures]:
    """The hands every seat was dealt in (the first hand always is): a hand's CPU grows with
    its players, so CPU is compared between hands of as many players."""
    return [f for f in figures if f.players == PLAYERS]


def hand4_wall() -> dict[str, object]:
    """Seconds from hand_start to hand_end on the dealer's clock (median over the hands), for
    four bot peers in four processes on loopback; baseline: the same kind of hands in one
    process, in games as long as the live one. cpu_s adds up every peer's CPU over a hand
    (mean over the hands all four players were dealt in, on both sides); the goal is at most
    1.3x the in-process CPU of the same hands. The two games deal other cards and make other
    choices, so cpu_ratio (mean against mean) also compares hands with more trades against
    hands with fewer; cpu_entry_ratio compares CPU per entry; cpu_ratio_matched compares the
    live hands with the in-process CPU of hands with as many proofs, reveals and other
    entries (`_matched`): the same hands as far as two games allow, and the goal's figure.
    cpu_worker_s is the part of cpu_s the peers' worker threads spent on jobs (the session,
    proofs, bots, the store: what the in-process game does too), cpu_rest_s the rest (loop
    threads: frames, replication, sends; the sockets' threads; the collector).
    baseline_cold_cpu_s is the in-process hand again, its caches made cold before each item
    a session takes (as four peers' processes taking turns on two cores leave them), and
    cpu_ratio_cold the live CPU against it: what of cpu_ratio the machine's caches account
    for (informative)."""
    live, local = _figures()
    value = _median(live, lambda f: f.wall)
    base = _median(local, lambda f: f.wall)
    full, base_full = _full(live), _full(local)
    cpu = statistics.mean(f.cpu for f in full)
    worker_cpu = statistics.mean(f.worker_cpu for f in full)
    base_cpu = statistics.mean(f.cpu for f in base_full)
    cold_cpu = statistics.mean(f.cpu for f in _full(_cold()))
    matched = _matched(full, base_full)
    return {
        "value": round(value, 3),
        "unit": "s",
        "baseline": round(base, 3),
        "ratio": round(value / base, 2),
        "cpu_s": round(cpu, 3),
        "cpu_worker_s": round(worker_cpu, 3),
        "cpu_rest_s": round(cpu - worker_cpu, 3),
        "baseline_cpu_s": round(base_cpu, 3),
        "cpu_ratio": round(cpu / base_cpu, 2),
        "cpu_entry_ratio": round(_per_entry(full) / _per_entry(base_full), 2),
        "baseline_matched_cpu_s": round(matched, 3),
        "cpu_ratio_matched": round(cpu / matched, 2),
        "baseline_cold_cpu_s": round(cold_cpu, 3),
        "cpu_ratio_cold": round(cpu / cold_cpu, 2),
        "cpu_hands": [len(full), len(base_full)],
        "entries": [f.entries for f in live],
        "baseline_entries": [f.entries for f in local],
        "players": [f.players for f in live],
        "baseline_players": [f.players for f in local],
        "goal": "cpu_ratio_matched <= 1.3",
        "hands": len(live),
        "samples": SAMPLES,
        "walls": [round(f.wall, 3) for f in live],
    }


def setup4_wall() -> dict[str, object]:
    """Seconds from hand_start to the last card dealt (keys, announcement, four deck shuffles,
    deal shares) on the dealer's clock, four peers on loopback; baseline: in one process."""
    live, local = _figures()
    value = _median(live, lambda f: f.setup)
    base = _median(local, lambda f: f.setup)
    return {
        "value": round(value, 3),
        "unit": "s",
        "baseline": round(base, 3),
        "ratio": round(value / base, 2),
        "goal": "value <= 1.0",
        "setups": [round(f.setup, 3) for f in live],
    }


def frames() -> dict[str, object]:
    """Frames all four peers send per hand (pushes, acks, heartbeats, authored entries,
    resends), and their bytes."""
    live, _ = _figures()
    return {
        "value": _median(live, lambda f: f.frames),
        "unit": "frames/hand",
        "bytes_per_hand": _median(live, lambda f: f.bytes),
        "per_hand": [f.frames for f in live],
    }


MEMORY_HANDS = int(os.environ.get("WILLOW_BENCH_MEMORY_HANDS", "150"))
"""Hands of the `live.memory` game (150; fewer through the environment, to try it)."""
MEMORY_FROM = 25
"""RSS is taken from this hand on: the first hands warm caches and the allocator up."""


def _rss(pid: int) -> float | None:
    """A process's resident set, MB (Linux's /proc), or None once it is gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    found = re.search(r"^VmRSS:\s+(\d+) kB", status, re.M)
    return None if found is None else int(found.group(1)) / 1024


def _hands_in(path: Path) -> int:
    try:
        text = path.read_text()
    except OSError:
        return 0
    return text.count('"event":"hand_start"') + text.count('"event": "hand_start"')


def memory() -> dict[str, object]:
    """`live.memory`: MEMORY_HANDS four-player hands with `willow host --auto` and three `willow
    bot`s on loopback; each process's RSS growth per 100 hands, from hand MEMORY_FROM to the
    last (the worst process is the value; the goal is at most 2 MB), against that process's
    RSS at hand MEMORY_FROM (the baseline: the ratio is the share it grows by per 100 hands).
    A figure, not a test."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        files = [tmp / f"events{n}.jsonl" for n in range(PLAYERS)]
        common = ["--samples", "30", "--address", LOOPBACK]
        table = ["--hands", str(MEMORY_HANDS), "--seats", str(PLAYERS), "--stack", "100000"]
        table += ["--no-advertise", "--game", GAME]
        host = _willow("host", "--auto", *table, "--home", str(tmp / "host"), *common,
                       events=files[0])  # fmt: skip
        procs = [host]
        start: list[tuple[int, float] | None] = [None] * PLAYERS
        last: list[tuple[int, float] | None] = [None] * PLAYERS
        try:
            assert host.stdout is not None
            first = host.stdout.readline()
            found = re.fullmatch(r"willow join ([a-z2-7-]+)\n", first)
            if found is None:
                raise RuntimeError(f"willow host said {first!r}")
            for n in range(1, PLAYERS):
                bot = ["bot", "--join", found.group(1), "--home", str(tmp / f"bot{n}"), *common]
                procs.append(_willow(*bot, events=files[n]))
            deadline = time.monotonic() + 60 * MEMORY_HANDS
            while any(p.poll() is None for p in procs) and time.monotonic() < deadline:
                for n, proc in enumerate(procs):
                    hands, rss = _hands_in(files[n]), _rss(proc.pid)
                    if rss is None or proc.poll() is not None:
                        continue
                    if hands >= MEMORY_FROM and start[n] is None:
                        start[n] = (hands, rss)
                    if hands > MEMORY_FROM:
                        last[n] = (hands, rss)
                time.sleep(0.5)
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.kill()
                proc.wait()
                if proc.stdout is not None:
                    proc.stdout.close()
    growth: list[tuple[float, float]] = []
    for a, b in zip(start, last, strict=True):
        if a is not None and b is not None and b[0] > a[0]:
            growth.append(((b[1] - a[1]) / (b[0] - a[0]) * 100, a[1]))
    if not growth:
        raise RuntimeError("no process played past the warm-up hands")
    worst, baseline = max(growth)
    return {
        "name": "live.memory",
        "value": round(worst, 2),
        "unit": "MB per 100 hands (RSS growth, worst process)",
        "baseline": round(baseline, 2),
        "baseline_unit": f"MB (that process's RSS at hand {MEMORY_FROM})",
        "per_process": [round(g, 2) for g, _ in growth],
        "hands": MEMORY_HANDS,
        "goal": 2.0,
    }


@dataclass(frozen=True, slots=True)
class Arrival:
    """An entry of the host's transcript and when the host had written it."""

    t: float
    """time.monotonic(): one clock with the nodes' events on this machine."""
    hand: int
    kind: str


class _Watcher:
    """Reads the host's transcript as the host appends it (every 2 ms, in a thread of the
    benchmark's own process): when each entry was there. The host writes an entry once it is
    sequenced, so the gap before an entry is what the table spent getting it: its author's
    work and the round trips it waited on."""

    def __init__(self, home: Path, into: list[Arrival]) -> None:
        self._home = home
        self._into = into
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="transcript-watcher", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        path: Path | None = None
        offset = 0
        partial = b""
        while True:
            done = self._done.is_set()  # one last read after the game's end
            if path is None:
                found = sorted(self._home.glob("data/games/*/transcript.jsonl"))
                path = found[0] if found else None
            if path is not None:
                with open(path, "rb") as f:
                    f.seek(offset)
                    data = f.read()
                now = time.monotonic()
                offset += len(data)
                *lines, partial = (partial + data).split(b"\n")
                for line in lines:
                    entry = json.loads(line)
                    self._into.append(Arrival(now, entry["hand"], entry["kind"]))
            if done:
                return
            time.sleep(0.002)

    def stop(self) -> None:
        self._done.set()
        self._thread.join()


STAGES: dict[str, tuple[str, ...]] = {
    "keys_shuffles": ("hand_key", "deck_shuffle"),
    "announce": ("announce", "announce_game"),
    "deal_streets": ("deal_shares", "street_shares"),
    "trades": ("trade_offer", "trade_accept", "trade_give", "trade_decline", "hand_shuffle"),
    "layout_reveals": ("layout", "reveal"),
    "show": ("show",),
    "end": ("hand_end", "head_signature"),
}
"""The stages of a hand the wall time is told by: the kinds of entry whose wait each takes;
every other kind is a decision (bets, calls, checks, folds and fold releases)."""


def _stage(kind: str) -> str:
    return next((name for name, kinds in STAGES.items() if kind in kinds), "betting")


def _where(arrivals: list[Arrival]) -> tuple[dict[str, float], float]:
    """Where a hand's wall time goes, by stage (`STAGES`), in seconds per hand (the mean
    over the hands): the gap before each entry of a hand, from its hand_start, goes to the
    entry's stage. And the mean number of street share rounds a hand waits for (a run of
    street_shares entries, one per player: one round trip)."""
    by_hand: dict[int, list[Arrival]] = {}
    for a in arrivals:
        if a.hand > 0 and a.kind != "game_end":
            by_hand.setdefault(a.hand, []).append(a)
    total: dict[str, float] = {}
    rounds = 0
    for entries in by_hand.values():
        for before, entry in itertools.pairwise(entries):
            stage = _stage(entry.kind)
            total[stage] = total.get(stage, 0.0) + entry.t - before.t
        kinds = [e.kind for e in entries]
        rounds += sum(
            1
            for i, kind in enumerate(kinds)
            if kind == "street_shares" and (i == 0 or kinds[i - 1] != "street_shares")
        )
    hands = max(1, len(by_hand))
    return {k: round(v / hands, 3) for k, v in sorted(total.items())}, rounds / hands


HOLDEM_HANDS = 8
"""Hands of each live game of `live.holdem4.wall` (one game of hold'em, one of Weeping Willow:
the median of eight hands is steady enough for a ratio against a goal of 2)."""


def holdem4_wall() -> dict[str, object]:
    """Seconds from hand_start to hand_end on the dealer's clock (median over HOLDEM_HANDS
    hands) of a live four-player Texas hold'em hand: `willow host --auto --games holdem` and
    three `willow bot`s, each its own process, on loopback; baseline: a live four-player
    Weeping Willow hand the same way (a game of as many hands, played just before). The goal
    is a ratio of at most 2.

    `where_s` and `baseline_where_s` say where each hand's wall time goes (mean seconds per
    hand, read off the host's transcript as it grows, `_where`): the hand's keys and four
    sequential deck shuffles; each street of hold'em is one round trip of shares (every
    player's `street_shares` for the hole cards, the flop, the turn and the river, with the
    proofs every peer checks) where Weeping Willow has one private deal; then the betting
    decisions (a bot's Monte Carlo, then a hop to the sequencer and out), Weeping Willow's
    trades, layouts and reveals, the show, and the hand's end with every head signature.
    `street_rounds` is the share round trips a hold'em hand waited for (fewer than four when
    the betting ended it before the river), `street_round_s` what one took (the mean)."""
    willow_arrivals: list[Arrival] = []
    holdem_arrivals: list[Arrival] = []
    willow = _live_game(hands=HOLDEM_HANDS, games="weeping-willow", arrivals=willow_arrivals)
    holdem = _live_game(hands=HOLDEM_HANDS, games="holdem", arrivals=holdem_arrivals)
    value = _median(holdem, lambda f: f.wall)
    base = _median(willow, lambda f: f.wall)
    where, rounds = _where(holdem_arrivals)
    base_where, _ = _where(willow_arrivals)
    return {
        "value": round(value, 3),
        "unit": "s",
        "baseline": round(base, 3),
        "ratio": round(value / base, 2),
        "goal": "ratio <= 2.0",
        "where_s": where,
        "baseline_where_s": base_where,
        "street_rounds": round(rounds, 2),
        "street_round_s": round(where.get("deal_streets", 0.0) / rounds, 3) if rounds else None,
        "cpu_s": round(statistics.mean(f.cpu for f in holdem), 3),
        "baseline_cpu_s": round(statistics.mean(f.cpu for f in willow), 3),
        "entries": [f.entries for f in holdem],
        "baseline_entries": [f.entries for f in willow],
        "walls": [round(f.wall, 3) for f in holdem],
        "baseline_walls": [round(f.wall, 3) for f in willow],
        "samples": SAMPLES,
    }


BENCHMARKS: dict[str, Callable[[], dict[str, object]]] = {
    "live.memory": memory,
    "live.holdem4.wall": holdem4_wall,
    "live.hand4.wall": hand4_wall,
    "live.setup4.wall": setup4_wall,
    "live.frames": frames,
}


if __name__ == "__main__":
    for bench in BENCHMARKS.values():
        print(json.dumps(bench()))
