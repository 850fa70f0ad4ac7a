"""A LAN of "laptops" for the tests: Linux network namespaces joined by veth pairs to a bridge,
processes started inside them, and the faults of a real wifi (loss, a slow link, a link down,
a stopped or killed process).

Test support, Linux only, needs root. Every namespace and process is removed in `close()`, even
after a failure; namespace names are unique per run. Every wait has a deadline.
"""

# The bridge lives in a namespace of its own (the "switch"), so nothing of the LAN is visible
# from the machine's own network: laptop i has eth0 = 10.77.0.(10 + i)/24, and its veth peer
# `port{i}` is a port of the switch's bridge. Traffic, multicast DNS included, never leaves
# the namespaces made here.

from __future__ import annotations

import contextlib
import os
import queue
import re
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

SUBNET = "10.77.0"
FAULT_TABLE = "willowfault"


class LanError(Exception):
    """A harness command failed (its output is in the message)."""


def _run(*argv: str, stdin: str | None = None, check: bool = True) -> str:
    result = subprocess.run(
        argv, input=stdin, capture_output=True, text=True, timeout=20, check=False
    )
    if check and result.returncode != 0:
        raise LanError(f"{' '.join(argv)}: {result.stderr.strip() or result.stdout.strip()}")
    return result.stdout


def unavailable() -> str | None:
    """Why namespaces cannot be made here, or None if they can."""
    if sys.platform != "linux":
        return "network namespaces are Linux only"
    if os.geteuid() != 0:
        return "making network namespaces needs root (CI runs as root)"
    for tool in ("ip", "nft", "tc"):
        if shutil.which(tool) is None:
            return f"`{tool}` is not installed (.ci/run installs iproute2 and nftables)"
    probe = f"wlprobe{os.getpid()}{secrets.token_hex(2)}"
    try:
        _run("ip", "netns", "add", probe)
    except (LanError, OSError, subprocess.TimeoutExpired) as exc:
        return f"cannot make a network namespace: {exc}"
    _run("ip", "netns", "del", probe, check=False)
    return None


@dataclass
class Proc:
    """A process running in a laptop's namespace; its output lines are read as they come."""

    name: str
    popen: subprocess.Popen[str]
    lines: queue.Queue[str] = field(default_factory=queue.Queue)
    seen: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        threading.Thread(target=self._read, daemon=True, name=f"read-{self.name}").start()

    def _read(self) -> None:
        assert self.popen.stdout is not None
        for line in self.popen.stdout:
            self.lines.put(line.rstrip("\n"))

    @property
    def pid(self) -> int:
        return self.popen.pid

    def expect(self, match: Callable[[str], bool] | str, timeout: float) -> str:
        """The first output line (from now on, or already read) that matches; LanError with
        the output so far if none comes before the deadline or the process ends."""
        test = match if callable(match) else (lambda line: re.search(match, line) is not None)
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise LanError(f"{self.name}: nothing matched in {timeout:.0f} s:\n{self.output()}")
            try:
                line = self.lines.get(timeout=min(left, 0.5))
            except queue.Empty:
                if self.popen.poll() is not None and self.lines.empty():
                    raise LanError(
                        f"{self.name} exited ({self.popen.returncode}):\n{self.output()}"
                    ) from None
                continue
            self.seen.append(line)
            if test(line):
                return line

    def output(self) -> str:
        while not self.lines.empty():
            self.seen.append(self.lines.get_nowait())
        return "\n".join(self.seen[-40:])

    def stop(self) -> None:
        """SIGSTOP: the process freezes (a laptop lid closed)."""
        os.kill(self.pid, signal.SIGSTOP)

    def cont(self) -> None:
        os.kill(self.pid, signal.SIGCONT)

    def kill9(self) -> None:
        """SIGKILL: the process dies at once, with no chance to clean up (a crash)."""
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        self.popen.wait(timeout=10)

    def end(self) -> None:
        if self.popen.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGCONT)
                os.kill(self.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(timeout=10)


@dataclass
class Laptop:
    """One machine of the LAN: a namespace with eth0 on the bridge."""

    lan: Lan
    index: int
    ns: str
    address: str

    @property
    def port_name(self) -> str:
        return f"port{self.index}"

    def run(
        self,
        argv: Sequence[str],
        name: str = "",
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
    ) -> Proc:
        """Start `argv` inside this laptop; stdout and stderr are read as lines."""
        popen = subprocess.Popen(
            ["ip", "netns", "exec", self.ns, *argv],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, **(env or {})},
            cwd=cwd,
        )
        proc = Proc(name or f"{self.ns}:{Path(argv[0]).name}", popen)
        self.lan.procs.append(proc)
        return proc

    def sh(self, *argv: str, stdin: str | None = None) -> str:
        return _run("ip", "netns", "exec", self.ns, *argv, stdin=stdin)

    def loss(self, percent: int) -> None:
        """Drop `percent`% of the packets in and out of eth0, at random (nftables numgen)."""
        self.clear_loss()
        rules = f"""
table inet {FAULT_TABLE} {{
  chain input {{ type filter hook input priority 0; policy accept;
    iifname "eth0" numgen random mod 100 < {percent} drop; }}
  chain output {{ type filter hook output priority 0; policy accept;
    oifname "eth0" numgen random mod 100 < {percent} drop; }}
}}
"""
        self.sh("nft", "-f", "-", stdin=rules)

    def clear_loss(self) -> None:
        with contextlib.suppress(LanError):
            self.sh("nft", "delete", "table", "inet", FAULT_TABLE)

    def rate(self, kbit: int, burst_kbit: int = 32, latency_ms: int = 400) -> None:
        """Limit eth0's sending rate with a token bucket (tc tbf)."""
        self.sh(
            "tc", "qdisc", "replace", "dev", "eth0", "root", "tbf",
            "rate", f"{kbit}kbit", "burst", f"{burst_kbit}kbit", "latency", f"{latency_ms}ms",
        )  # fmt: skip

    def clear_rate(self) -> None:
        with contextlib.suppress(LanError):
            self.sh("tc", "qdisc", "del", "dev", "eth0", "root")

    def link_down(self) -> None:
        """Pull the cable: the switch's port for this laptop goes down."""
        _run("ip", "-n", self.lan.switch, "link", "set", self.port_name, "down")

    def link_up(self) -> None:
        _run("ip", "-n", self.lan.switch, "link", "set", self.port_name, "up")


class Lan:
    """A switch and its laptops. Use as a context manager, or call `close()`."""

    def __init__(self) -> None:
        self.prefix = f"wl{os.getpid()}{secrets.token_hex(2)}"
        self.switch = f"{self.prefix}-sw"
        self.laptops: list[Laptop] = []
        self.procs: list[Proc] = []
        self._namespaces: list[str] = []
        try:
            self._add_namespace(self.switch)
            _run("ip", "-n", self.switch, "link", "add", "br0", "type", "bridge")
            _run("ip", "-n", self.switch, "link", "set", "br0", "up")
        except BaseException:
            self.close()
            raise

    def _add_namespace(self, name: str) -> None:
        _run("ip", "netns", "add", name)
        self._namespaces.append(name)
        _run("ip", "-n", name, "link", "set", "lo", "up")

    def add_laptop(self) -> Laptop:
        index = len(self.laptops) + 1
        ns = f"{self.prefix}-l{index}"
        address = f"{SUBNET}.{10 + index}"
        self._add_namespace(ns)
        port = f"port{index}"
        _run("ip", "-n", self.switch, "link", "add", port, "type", "veth", "peer", "name",
             "eth0", "netns", ns)  # fmt: skip
        _run("ip", "-n", self.switch, "link", "set", port, "master", "br0", "up")
        _run("ip", "-n", ns, "addr", "add", f"{address}/24", "dev", "eth0")
        _run("ip", "-n", ns, "link", "set", "eth0", "up")
        # multicast (mDNS) goes out of eth0; there is no other route to anywhere
        _run("ip", "-n", ns, "route", "add", "224.0.0.0/4", "dev", "eth0")
        laptop = Laptop(self, index, ns, address)
        self.laptops.append(laptop)
        return laptop

    def close(self) -> None:
        """End every process started here and remove every namespace, whatever happened."""
        for proc in self.procs:
            proc.end()
        for ns in reversed(self._namespaces):
            # anything still running inside our namespaces was started by this run
            pids = _run("ip", "netns", "pids", ns, check=False).split()
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, ValueError):
                    os.kill(int(pid), signal.SIGKILL)
            _run("ip", "netns", "del", ns, check=False)
        self._namespaces.clear()

    def __enter__(self) -> Lan:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def namespaces() -> set[str]:
    """The names of all network namespaces now (to check that a run left none behind)."""
    return {line.split()[0] for line in _run("ip", "netns", "list").splitlines() if line}
