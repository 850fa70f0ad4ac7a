"""SIGUSR1 in a live command prints every thread's stack and the process goes on (README,
"exit codes"), however busy its other threads are. The handler is `cli._print_stacks`, played
here in a process of its own whose threads keep calling, returning and starting threads while
it is signalled 500 times: faulthandler's own handler (`faulthandler.register`), which
reads the threads' stacks from inside the signal, ended such a process by segmentation fault
every time."""

from __future__ import annotations

import subprocess
import sys

BUSY = """
import os, signal, sys, threading, time
from p2pwillow.cli import _print_stacks

signal.signal(signal.SIGUSR1, _print_stacks)

def calls():
    def down(n):
        return 0 if n == 0 else down(n - 1) + 1
    while True:
        down(50)

def threads():
    while True:
        t = threading.Thread(target=lambda: sum(range(100)))
        t.start()
        t.join()

for target in (calls, calls, threads):
    threading.Thread(target=target, daemon=True).start()

def signals():
    for _ in range(500):
        os.kill(os.getpid(), signal.SIGUSR1)
        time.sleep(0.001)
    print("alive", flush=True)
    os._exit(0)

threading.Thread(target=signals, daemon=True).start()
while True:
    time.sleep(0.1)
"""


def test_500_stack_reports_while_threads_are_busy_leave_the_process_running() -> None:
    done = subprocess.run(
        [sys.executable, "-c", BUSY], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0 and done.stdout == "alive\n", (done.returncode, done.stdout)
    reports = done.stderr.count("(most recent call first)")
    assert reports >= 500, reports  # every report names the main thread and the busy ones
    assert "in down" in done.stderr and "in threads" in done.stderr
