"""Benchmarks: `python bench/run.py [NAME ...]` prints one JSON object per benchmark.

Each topic module `bench/<topic>.py` exposes `BENCHMARKS`; the runner collects them. Does I/O.
"""
