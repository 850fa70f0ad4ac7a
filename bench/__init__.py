"""Benchmarks: `python bench/run.py [NAME ...]` prints one JSON object per benchmark.

Each topic module `bench/<topic>.py` exposes `BENCHMARKS`; the runner collects them. Does I/O.
"""

from p2pwillow.crypto.checked import CHECKED

# The benchmarks measure the checks themselves: a check this process passed before is not
# skipped here (crypto/checked.py), or a loop over one proof would time a table lookup.
CHECKED.enabled = False
