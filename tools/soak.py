"""Run the tests that play real games over real sockets many times in a row, under load, and
say how each pass went: the evidence that they pass the same way every time.

A developer tool. Each pass runs pytest with the project's options (pyproject.toml: four
workers; or --workers) on PATHS (default: the network, door, LAN and tmux tests) and prints
one line; a failed pass's whole output is kept in the log directory. With `--load`, the bots'
CPU-heavy benchmark runs beside the passes the whole time, at a lower priority. Usage:

    python3 -m tools.soak [--passes 20] [--load] [--log DIR] [--workers N] [PATH ...]

WILLOW_TEST_POLL (seconds between two looks of a screen test, 0.02 by default; 0.1 for tmux)
is passed on: a larger one plays the screens as a loaded machine would.

The exit status is 0 if every pass was green, 1 otherwise.
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import os
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PATHS = ("tests/net", "tests/lan", *sorted(glob.glob("tests/tui/*_tmux.py", root_dir=ROOT)))
LOAD = ("bots.vs_maniac", "bots.live.hawaii-five-low.vs_maniac")
"""The benchmark lines run beside the passes: seconds of pure CPU each, again and again."""


@contextlib.contextmanager
def load(on: bool) -> Iterator[None]:
    """The bots' benchmark looping beside what runs inside, at nice 5, if `on`."""
    if not on:
        yield
        return
    loop = f"while true; do {sys.executable} bench/run.py {' '.join(LOAD)} >/dev/null 2>&1; done"
    proc = subprocess.Popen(["nice", "-n", "5", "sh", "-c", loop], cwd=ROOT, start_new_session=True)
    try:
        yield
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, 15)
        proc.wait()


def one_pass(paths: Sequence[str], log: Path, number: int, workers: int | None) -> tuple[bool, str]:
    """One pytest run of `paths`: whether it was green, and its summary line."""
    began = time.monotonic()
    options = [] if workers is None else ["-n", str(workers)]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *options, *paths],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    lines = done.stdout.strip().splitlines()
    summary = lines[-1] if lines else f"no output (exit {done.returncode})"
    green = done.returncode == 0
    if not green:
        (log / f"pass-{number}.txt").write_text(done.stdout + done.stderr)
    return green, f"pass {number}: {'green' if green else 'FAILED'} in " + (
        f"{time.monotonic() - began:.0f} s: {summary}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", default=list(DEFAULT_PATHS), metavar="PATH")
    parser.add_argument("--passes", type=int, default=20)
    parser.add_argument("--load", action="store_true", help="the bots' benchmark beside")
    parser.add_argument("--log", type=Path, default=Path("soak-log"), help="failed passes' output")
    parser.add_argument("--workers", type=int, help="pytest's -n (default: the project's)")
    args = parser.parse_args(argv)
    if args.passes < 1:
        parser.error("--passes must be at least 1")
    args.log.mkdir(parents=True, exist_ok=True)
    green = 0
    with load(args.load):
        for number in range(1, args.passes + 1):
            ok, line = one_pass(args.paths, args.log, number, args.workers)
            green += ok
            print(line, flush=True)
    print(f"{green} of {args.passes} passes green" + ("" if args.load else " (no load beside)"))
    return 0 if green == args.passes else 1


if __name__ == "__main__":
    sys.exit(main())
