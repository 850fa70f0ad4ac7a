"""How long a seat stays promised to a newcomer, and how long a newcomer waits for it (SPEC
8.9). Apart from the node, so that the command line shows them without importing it."""

from __future__ import annotations

JOIN_WITHIN = 120.0
"""A newcomer whose `join` is not in the chain this long after it was seated is dropped."""
GIVE_UP_AFTER = 10.0
"""A newcomer not seated JOIN_WITHIN and this long after it started gives up: its peers have
dropped it."""
SEAT_WITHIN = JOIN_WITHIN + GIVE_UP_AFTER
"""A newcomer gives up once it has waited this long for its seat (its `join` in the chain)."""

SILENT_NEWCOMER_WITHIN = 8.0
"""The host drops a newcomer it seated that it has not heard from (a frame as a peer: a
newcomer holding the genesis heartbeats at once) this long after: its seat is free again, so
that an identity that says hello and sits but never comes holds no seat for long (SPEC 8.9)."""

__all__ = ["GIVE_UP_AFTER", "JOIN_WITHIN", "SEAT_WITHIN", "SILENT_NEWCOMER_WITHIN"]
