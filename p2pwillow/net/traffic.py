"""What a live node sent and received: counted on its loop, read by its event lines (`--events`),
tests and benchmarks."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class Traffic:
    """What this node sent and received, for logs and benchmarks."""

    frames_sent: int = 0
    bytes_sent: int = 0
    frames_received: int = 0
    bytes_received: int = 0
    bad_frames: int = 0
    rejected: int = 0
    """Items from peers the session refused."""

    def counters(self) -> dict[str, object]:
        """The fields of an event line: what went out, and what came in beside it (a seat
        that falls behind while frames pour in, resends of what it never applies, shows it in
        its own lines)."""
        return {
            "frames": self.frames_sent,
            "bytes": self.bytes_sent,
            "frames_in": self.frames_received,
            "bytes_in": self.bytes_received,
        }


__all__ = ["Traffic"]
