"""Witness votes (SPEC 7.5): who votes, the quorum, the votes an entry carries, and what a
player accuses once its clock has run out at a head. Pure; no I/O; time is a parameter.

Time is not in the transcript, so no single peer's clock decides anything: a seat is timed
out, a hand aborted or a sequencer replaced only on the signed votes of more than half of the
other players, each saying "at head H these seats owe a step and I hold nothing from them".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.entry import Entry
from p2pwillow.ledger.errors import Reason
from p2pwillow.ledger.vote import Vote
from p2pwillow.session.schedule import RULE, Stall, When, when
from p2pwillow.session.state import SessionState


class BadVote(Exception):
    """A vote that counts for nothing here: why, in the reasons of SPEC 6.11."""

    def __init__(self, reason: Reason, detail: str) -> None:
        self.reason = reason
        self.detail = detail
        super().__init__(detail)


def voters(st: SessionState) -> tuple[int, ...]:
    """Who may vote now: the players of the hand while it runs and until it is signed, the
    seated players between hands."""
    r = st.hand
    if when(st.ledger, r) in (When.HAND, When.ENDED) and r is not None:
        return r.order
    return tuple(sorted(st.ledger.identities))  # between hands, and to sign the game's end


def quorum(eligible: Sequence[int], seat: int) -> int:
    """The votes needed against `seat`: more than half of the other voters (with two players,
    the other one alone, SPEC 7.5)."""
    return sum(1 for s in eligible if s != seat) // 2 + 1


def owed(st: SessionState) -> dict[int, set[Stall]]:
    """What each seat owes now, by what the sequencer may do about it (SPEC 7.4, 7.5). An
    untimed step (a newcomer's admission) is not counted: nobody is accused for it."""
    out: dict[int, set[Stall]] = {}
    for d in st.dues():
        stall = RULE[d.step].stall
        if stall is not Stall.UNTIMED:
            out.setdefault(d.seat, set()).add(stall)
    return out


def vote_of(record: k.VoteRecord, entry: Entry) -> Vote:
    """The vote a record in `entry` stands for: the entry's game and hand, its prev as head."""
    return Vote(
        entry.game,
        entry.hand,
        entry.prev,
        record.voter,
        tuple(record.seats),
        bytes.fromhex(record.sig),
    )


def record_of(vote: Vote) -> k.VoteRecord:
    return k.VoteRecord(voter=vote.voter, seats=vote.seats, sig=vote.sig.hex())


def check_vote(st: SessionState, vote: Vote) -> None:
    """A vote counts only from a player who may vote now, signed by its key (BadVote)."""
    if vote.voter not in voters(st):
        raise BadVote(Reason.BAD_VOTE, f"seat {vote.voter} does not vote now")
    key = st.ledger.identities.get(vote.voter)
    if key is None or not vote.verify(key):
        raise BadVote(Reason.BAD_VOTE, f"the vote of seat {vote.voter} does not verify")


def checked_votes(st: SessionState, entry: Entry, records: Iterable[k.VoteRecord]) -> list[Vote]:
    """The votes `entry` carries, each checked (BadVote if one is not a vote of a player who
    may vote, about the head the entry follows)."""
    votes = [vote_of(record, entry) for record in records]
    for vote in votes:
        check_vote(st, vote)
    return votes


def has_quorum(st: SessionState, votes: Iterable[Vote], seat: int) -> bool:
    """Enough of `votes` accuse `seat` (SPEC 7.5)."""
    return sum(1 for v in votes if v.accuses(seat)) >= quorum(voters(st), seat)


def chain(st: SessionState, stop: int) -> list[int]:
    """The current sequencer, then each seat clockwise that takes over after the one before,
    up to (without) `stop`, the seat asking."""
    ledger = st.ledger
    seats = [ledger.sequencer]
    while len(seats) < len(ledger.ring):
        nxt = ledger.successor(seats[-1])
        if nxt in (stop, *seats):
            break
        seats.append(nxt)
    return seats


def accused(
    st: SessionState,
    holding: Mapping[int, bool],
    period: int,
) -> set[int]:
    """Whom a player accuses once `period` whole action clocks have passed at this head (SPEC
    7.5): every seat that owes a step and that it holds nothing from (`holding`: seat -> it holds
    an entry from that seat that passes here); the sequencer instead, when it holds such an
    entry from anyone; then, a clock after each, the seat that should have taken over from the
    one before and did not, while it sees a quorum against that one. Never itself."""
    me = st.seat
    out = {s for s in owed(st) if s != me and not holding.get(s, False)}
    sequencer = st.ledger.sequencer
    if any(holding.values()):
        out.add(sequencer)
    if sequencer in out and me is not None:
        seats = chain(st, me)
        votes = st.clock.votes.values()
        for j in range(1, min(period, len(seats))):
            if not has_quorum(st, votes, seats[j - 1]):
                break
            out.add(seats[j])
    out.discard(-1 if me is None else me)
    return out


def replacing(st: SessionState) -> list[int]:
    """The seats this player may replace as sequencer now: the chain from the sequencer while
    each has a quorum against it, when this player is the one to take over from the last. A
    sequencer that owes only decisions with a default gets one more action clock to take its
    own default (a `timeout` of itself) before it is replaced."""
    me = st.seat
    if me is None:
        return []
    theirs = owed(st).get(st.ledger.sequencer, set())
    if theirs and theirs <= {Stall.TIMEOUT} and st.clock.periods < 2:
        return []
    votes = list(st.clock.votes.values())
    out: list[int] = []
    for seat in chain(st, me):
        if not has_quorum(st, votes, seat):
            return []
        out.append(seat)
        if st.ledger.successor(seat) == me:
            return out
    return []


__all__ = [
    "BadVote",
    "accused",
    "check_vote",
    "checked_votes",
    "has_quorum",
    "owed",
    "quorum",
    "record_of",
    "replacing",
    "vote_of",
    "voters",
]
