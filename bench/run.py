"""The benchmark runner: `python bench/run.py [--list] [NAME ...]` from the repository root.

Collects `BENCHMARKS` from the topic modules that exist and prints one JSON object per line:
name, value, unit, and, where a baseline is measured in the same run, baseline and ratio
(= value / baseline). Does I/O: stdout for results, stderr for one-line errors.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# Run as a script, Python puts bench/ first on the path, where bench/crypto.py and friends
# would shadow top-level modules; the repository root is what the topic modules need.
if sys.path and Path(sys.path[0] or ".").resolve() == HERE:
    sys.path[0] = str(ROOT)
elif str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TOPICS = ("hands", "crypto", "mental", "engine")
"""The topics run first and in this order; any other bench/<topic>.py found runs after them."""
_NOT_TOPICS = {"__init__", "run"}
EXIT_USAGE = 2
EXIT_FAILED = 1

Benchmark = Callable[[], dict[str, object]]


class BenchError(Exception):
    """A benchmark could not be collected or returned a malformed result."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line, then exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def topics() -> list[str]:
    """TOPICS, then the other topic modules present in bench/, alphabetically."""
    found = sorted(path.stem for path in HERE.glob("*.py") if path.stem not in _NOT_TOPICS)
    return [*TOPICS, *(topic for topic in found if topic not in TOPICS)]


def collect(topic_names: Sequence[str] | None = None) -> tuple[dict[str, Benchmark], list[str]]:
    """Every registered benchmark by name, topic by topic, and one error line per broken topic.

    A topic module that does not exist yet is skipped; one that fails to import, or has no
    BENCHMARKS dict, is reported and does not stop the other topics.
    """
    benchmarks: dict[str, Benchmark] = {}
    errors: list[str] = []
    for topic in topics() if topic_names is None else topic_names:
        module_name = f"bench.{topic}"
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:  # a module the topic needs is missing: that is an error
                errors.append(f"{module_name} cannot be imported: {exc}")
            continue
        except Exception as exc:
            errors.append(f"{module_name} cannot be imported: {type(exc).__name__}: {exc}")
            continue
        registered = getattr(module, "BENCHMARKS", None)
        if not isinstance(registered, dict):
            errors.append(f"{module_name} has no BENCHMARKS dict")
            continue
        for name, function in registered.items():
            if name in benchmarks:
                errors.append(f"benchmark {name!r} in {module_name} is registered twice")
            else:
                benchmarks[name] = function
    return benchmarks, errors


def _finite(value: object) -> float | None:
    """The value as a float if it is a finite int or float (not a bool), else None."""
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
        return float(value)
    return None


def run_one(name: str, benchmark: Benchmark) -> dict[str, object]:
    """Run one benchmark; the result starts with name, value, unit (and baseline, ratio)."""
    result = benchmark()
    if not isinstance(result, dict):
        raise BenchError(f"benchmark {name!r} returned {type(result).__name__}, not a dict")
    value, unit = result.get("value"), result.get("unit")
    number = _finite(value)
    if number is None or not isinstance(unit, str):
        raise BenchError(f"benchmark {name!r} needs a finite number 'value' and a str 'unit'")
    line: dict[str, object] = {"name": name, "value": value, "unit": unit}
    baseline = result.get("baseline")
    if baseline is not None:
        base = _finite(baseline)
        if not base:
            raise BenchError(f"benchmark {name!r} has a bad baseline {baseline!r}")
        line["baseline"] = baseline
        line["ratio"] = result.get("ratio", number / base)
    line |= {k: v for k, v in result.items() if k not in line}
    return line


def main(argv: Sequence[str] | None = None) -> int:
    parser = _Parser(prog="bench/run.py", description="Run the project's benchmarks.")
    parser.add_argument("names", nargs="*", metavar="NAME", help="benchmarks to run (default all)")
    parser.add_argument("--list", action="store_true", help="list benchmark names and exit")
    args = parser.parse_args(argv)
    benchmarks, errors = collect()
    for error in errors:
        print(f"bench: {error}", file=sys.stderr)
    failed = bool(errors)
    if args.list:
        for name in benchmarks:
            print(name)
        return EXIT_FAILED if failed else 0
    unknown = [name for name in args.names if name not in benchmarks]
    if unknown:
        print(f"bench: unknown benchmark {unknown[0]!r} (see --list)", file=sys.stderr)
        return EXIT_USAGE
    for name in args.names or list(benchmarks):
        try:
            line = run_one(name, benchmarks[name])
        except Exception as exc:  # one bad benchmark must not hide the others' figures
            print(f"bench: {name} failed: {type(exc).__name__}: {exc}", file=sys.stderr)
            failed = True
            continue
        print(json.dumps(line), flush=True)
    return EXIT_FAILED if failed else 0


if __name__ == "__main__":
    sys.exit(main())
