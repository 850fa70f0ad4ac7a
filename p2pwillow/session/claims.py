"""Remedies a player applies only where it would have signed them itself (SPEC 7.9). Pure; no
I/O; time comes in through the session's clock.

A `timeout`, an `abort` or a `sequencer_change` carries the votes of a quorum; votes only say
that their signers claim a seat owed a step for a whole action clock. A coalition that holds a
quorum (the sequencer and one friend at three or four seats) could claim it of anyone. So a
seated player holds every remedy against what it saw itself: it applies one against a seat only
if its own vote at that head accused that seat, and one against itself only if it made nothing
in time there. Until its own clock has run at that head it waits; when it cannot agree it
refuses, keeps the claim and who signed it, and the table goes on without the claim's signers
or, where no quorum is left without them, stops.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.entry import Entry
from p2pwillow.ledger.vote import Vote

REMEDIES = frozenset({k.Timeout.KIND, k.Abort.KIND, k.SequencerChange.KIND})
"""The entries that act on a seat for what it did not do, on the votes of a quorum (SPEC 7.5)."""


def claimed(entry: Entry, replaced: Sequence[int] = ()) -> tuple[int, ...]:
    """The seats a remedy acts on: those timed out, those an abort blames (less the seats
    `replaced` as the hand's sequencer before, which every player has agreed to), those a
    sequencer change replaces."""
    body = entry.body
    if isinstance(body, k.Timeout):
        return tuple(body.seats)
    if isinstance(body, k.Abort):
        return tuple(s for s in body.blamed if s not in replaced)
    if isinstance(body, k.SequencerChange):
        return tuple(body.replaced)
    return ()


def votes_in(entry: Entry) -> Sequence[k.VoteRecord]:
    """The vote records a remedy carries."""
    body = entry.body
    if isinstance(body, k.Timeout | k.Abort | k.SequencerChange):
        return body.votes
    return ()


def signers(entry: Entry, votes: Iterable[Vote], seats: Iterable[int]) -> tuple[int, ...]:
    """Who signed the claim that `seats` stalled: the remedy's author (the sequencer, or the
    seat taking over) and every voter whose vote accuses one of them."""
    accused = set(seats)
    out = {entry.author} | {v.voter for v in votes if accused & set(v.seats)}
    return tuple(sorted(out))


class Agreement(enum.Enum):
    AGREE = "agree"
    WAIT = "wait"
    """This player's clock has not run at that head long enough to say."""
    REFUSE = "refuse"


@dataclass(frozen=True, slots=True)
class Verdict:
    agreement: Agreement
    why: str = ""


@dataclass(frozen=True, slots=True)
class RefusedClaim:
    """A remedy this player refused: the entry, the seats it claimed stalled, who signed it,
    and why this player would not (SPEC 7.9)."""

    claim: Entry
    seats: tuple[int, ...]
    signers: tuple[int, ...]
    why: str


def agreement(
    *,
    me: int,
    seats: Sequence[int],
    in_time: frozenset[int],
    accused: frozenset[int] | None,
    periods: int,
    needed: int,
) -> Verdict:
    """Whether this player (`me`) agrees that `seats` stalled at a head where: it holds an
    entry made in time from each seat of `in_time` (its own included, SPEC 7.9), its own
    votes there accused `accused` (None: its clock has not run out there), its clock has run
    `periods` whole clocks, and `needed` are needed before it could accuse every seat claimed
    (one, or one more for each seat after the sequencer that a sequencer change replaces)."""
    if not seats:
        return Verdict(Agreement.AGREE)  # an abort blaming only sequencers replaced already
    acted = sorted(s for s in seats if s in in_time)
    if acted:
        who = "this player" if acted == [me] else ", ".join(f"seat {s}" for s in acted)
        return Verdict(Agreement.REFUSE, f"{who} acted in time: the entry is held here")
    others = [s for s in seats if s != me]
    if accused is not None and set(others) <= accused:
        return Verdict(Agreement.AGREE)  # its own clock ran here, and it did not act in time
    if periods < needed:
        return Verdict(Agreement.WAIT)
    if accused is None:
        return Verdict(Agreement.REFUSE, "this player's clock never ran out at that head")
    unheld = ", ".join(f"seat {s}" for s in others if s not in accused)
    return Verdict(Agreement.REFUSE, f"{unheld} did not stall there as far as this player saw")


def claim_text(kind: str, who: str) -> str:
    """What a remedy claimed of `who` (its seats, named), in words (SPEC 7.9): one text for the
    node's notice and the verifier's report."""
    return {
        "timeout": f"that {who} ran out of time",
        "abort": f"that {who} stalled the deal",
        "sequencer_change": f"that {who} stopped dealing",
    }.get(kind, f"a {kind} against {who}")


__all__ = [
    "REMEDIES",
    "Agreement",
    "RefusedClaim",
    "Verdict",
    "agreement",
    "claim_text",
    "claimed",
    "signers",
    "votes_in",
]
