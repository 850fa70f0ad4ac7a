"""Shared builders for the session, table, verify and simulate tests (no tests here).

Games are played with a seeded rng, so every run of the suite sees the same transcripts.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import itertools
import random
from collections.abc import Callable

from p2pwillow.crypto.group import Rng
from p2pwillow.ledger import AuthoredEntry, Body, Entry, Identity, Vote, decode_entry
from p2pwillow.ledger import kinds as k
from p2pwillow.rules import Decision, Phase
from p2pwillow.session import Session
from p2pwillow.table import Decider, Table, bot_decider

SAMPLES = 30
"""Monte Carlo deals per bot decision: enough for sane play, cheap for the suite."""


def make_rng(seed: str) -> Rng:
    counter = itertools.count()

    def rng(n: int) -> bytes:
        return hashlib.shake_256(f"{seed}/{next(counter)}".encode()).digest(n)

    return rng


def new_table(
    players: int,
    seed: int = 1,
    deciders: dict[int, Decider] | None = None,
    *,
    table: Callable[..., Table] = Table,
    **kwargs: object,
) -> Table:
    """A table of bots with a seeded rng; `table` may be a hostile subclass of `Table`."""
    options: dict[str, object] = {"samples": SAMPLES, **kwargs}
    return table(
        players,
        seed=seed,
        rng=make_rng(f"table/{players}/{seed}"),
        deciders=deciders,
        **options,
    )


@functools.cache
def honest_game(players: int = 3, hands: int = 2, seed: int = 1) -> Table:
    """A finished game, ended and signed (cached: several test modules read the same one)."""
    table = new_table(players, seed)
    assert table.play(hands) == hands
    table.end_game()
    return table


def observer(lines: list[bytes]) -> Session:
    """An observer session after replaying these transcript lines."""
    session = Session(None, None, decode_entry(lines[0]))
    for line in lines[1:]:
        session.replay(decode_entry(line))
    return session


def fork(session: Session) -> Session:
    """An independent copy of a session (entries are frozen and shared)."""
    return copy.deepcopy(session, {id(e): e for e in session.ledger.entries})


def states_before(lines: list[bytes]) -> list[Session]:
    """states[i] is an observer that has applied lines[0..i-1] (states[0] is None-like: 1)."""
    first = Session(None, None, decode_entry(lines[0]))
    states = [first, fork(first)]
    session = first
    for line in lines[1:-1]:
        session.replay(decode_entry(line))
        states.append(fork(session))
    return states


def snapshot(session: Session) -> tuple[object, ...]:
    """Everything a rejected entry must leave unchanged."""
    hand = session.hand
    return (
        session.ledger.head_seq,
        session.ledger.head_hash,
        None if hand is None else hand.snapshot(),
        None if hand is None else hand.events,
        session.summaries,
        session.game.players,
        session.waiting_for(),
    )


def resign(
    table: Table,
    entry: Entry,
    *,
    body: Body | None = None,
    author: int | None = None,
    signer: int | None = None,
    counter: int | None = None,
    seen: bytes | None = None,
) -> Entry:
    """`entry` with another body or author, signed (by `signer`, default the author) and
    countersigned by the right sequencer, as a cheating peer and its dealer would."""
    who = entry.author if author is None else author
    key: Identity = table.identities[who if signer is None else signer]
    authored = AuthoredEntry.create(
        key,
        game=entry.game,
        hand=entry.hand,
        author=who,
        body=entry.body if body is None else body,
        # the author's counter for that place; a cheat in another's name picks a fresh one
        counter=counter if counter is not None else entry.counter if who == entry.author else 2**40,
        seen=entry.seen if seen is None else seen,
    )
    sequencer = table.sessions[0].ledger.sequencer_of(entry.seq)
    return authored.sequence(entry.seq, entry.prev, table.identities[sequencer])


def vote(table: Table, voter: int, seats: list[int], at: Entry) -> k.VoteRecord:
    """Seat `voter`'s signed vote against `seats` at the head `at` follows (its prev)."""
    signed = Vote.create(
        table.identities[voter],
        game=at.game,
        hand=at.hand,
        head=at.prev,
        voter=voter,
        seats=tuple(sorted(seats)),
    )
    return k.VoteRecord(voter=voter, seats=signed.seats, sig=signed.sig.hex())


def index_of(table: Table, predicate: Callable[[Entry], bool]) -> int:
    return next(i for i, e in enumerate(table.transcript) if predicate(e))


def away_in(phase: Phase, seat: int) -> Decider:
    """A decider for `seat` that is away (decides nothing) in `phase`, a bot otherwise."""
    bot = bot_decider(seat, random.Random(seat), samples=SAMPLES)

    def decide(session: Session) -> Decision | None:
        hand = session.hand
        if hand is not None and hand.phase is phase:
            return None
        return bot(session)

    return decide
