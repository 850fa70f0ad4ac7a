"""The end of a hand: settling the pots at showdown, paying a hand folded to one player, and
aborting with every stack back at its start (SPEC 3.8, 3.9, 3.10). Pure; no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2pwillow.hands import best_hand
from p2pwillow.rules.config import TableConfig
from p2pwillow.rules.errors import IllegalAction
from p2pwillow.rules.events import Event, HandAborted, HandEnded, HandVoided
from p2pwillow.rules.phases import Phase
from p2pwillow.rules.pots import HandResult, Pot, PotAward, award_pots, build_pots
from p2pwillow.rules.state import HandState, end, player, pot_chips

# Steps: each changes the clone it is given and returns the events it caused (SPEC 3.3); the
# abort's check and step have the action table's shape, (config, state, seat, argument).


def hand_pots(config: TableConfig, s: HandState) -> tuple[Pot, ...]:
    """The hand's main pot and side pots at its showdown (SPEC 3.8): by what each player put
    in, the dead money (tokens, antes, washes, a carry) in the main pot."""
    order = s.order
    return build_pots(
        order,
        [s.players[x].committed for x in order],
        [s.players[x].folded for x in order],
        s.dead_money(config),
    )


def settle(config: TableConfig, s: HandState) -> list[Event]:
    """SPEC 3.8: pots by contribution levels, best hand per pot, odd chips clockwise."""
    awards = award_pots(hand_pots(config, s), lambda seat: best_hand(s.players[seat].shown))
    return finish(s, awards)


def finish(s: HandState, awards: tuple[PotAward, ...], carried: int = 0) -> list[Event]:
    """Pay the awards and complete the hand; `carried` chips nobody won go on to the next
    hand (SPEC 3.16)."""
    for award in awards:
        for seat, share in zip(award.winners, award.shares, strict=True):
            s.players[seat].stack += share
    for p in s.players.values():
        p.committed = 0
        p.tokens_paid = 0
        p.ante = p.paid = 0
        p.round_bet = 0
    order = s.order
    s.result = HandResult(
        order,
        tuple(s.players[x].start_stack for x in order),
        tuple(s.players[x].stack for x in order),
        awards,
        s.carried_in,
        carried,
    )
    # every way a hand ends pays out exactly what is in the middle, or carries it over
    assert s.result.conserved, s.result
    s.round_state, s.actor, s.needs = None, None, []
    end(s, Phase.COMPLETE)
    return [HandEnded(s.result)]


def stalled_to_one(config: TableConfig, s: HandState) -> list[Event]:
    """SPEC 3.9: a stall that leaves one player in ends the hand as a fold to one does (3.8),
    in whatever phase it happened: unused trade tokens go back first, then the last player
    takes every chip in the pot."""
    (winner,) = (x for x in s.order if not s.players[x].folded)
    if s.own is not None:
        s.own.settle()
    for p in s.players.values():
        p.stack += p.tokens * config.token_value
        p.tokens = 0
    pot = Pot(pot_chips(config, s), (winner,))
    return finish(s, (PotAward(pot, (winner,), (pot.amount,)),))


Blame = tuple[Sequence[int], str]
"""What an abort carries: the seats blamed (possibly none) and the reason (SPEC 3.10)."""


def verify_abort(config: TableConfig, s: HandState, seat: int, blame: Blame | None) -> None:
    """An abort is allowed before the deal is complete (ANNOUNCE, DEAL: SPEC 3.10), blaming
    players of the hand, each once."""
    if blame is None:
        return
    blamed_seats, reason = blame
    for blamed in blamed_seats:
        player(s, blamed)
    if len(set(blamed_seats)) != len(blamed_seats):
        raise IllegalAction("a blamed seat is named twice")
    if not isinstance(reason, str) or not reason.strip():
        raise IllegalAction("an abort needs a reason")


def do_abort(config: TableConfig, s: HandState, seat: int, blame: Blame) -> list[Event]:
    """SPEC 3.10: every stack goes back to its start; nobody wins anything."""
    blamed_seats, reason = blame
    blamed = tuple(x for x in s.order if x in set(blamed_seats))
    _void(s, Phase.ABORTED)
    assert s.result is not None
    return [HandAborted(blamed, reason, s.result)]


def verify_void(
    config: TableConfig, s: HandState, seat: int, signers: Sequence[int] | None
) -> None:
    """The table stops in any phase of a running hand (SPEC 7.9), naming the claim's
    signers, each a player of the table once."""
    if signers is None:
        return
    if len(set(signers)) != len(signers):
        raise IllegalAction("a signer is named twice")


def do_void(config: TableConfig, s: HandState, seat: int, signers: Sequence[int]) -> list[Event]:
    """SPEC 7.9: the hand is void, every stack back at its start, whatever was dealt."""
    _void(s, Phase.ABORTED)
    assert s.result is not None
    return [HandVoided(tuple(signers), s.result)]


def _void(s: HandState, phase: Phase) -> None:
    for p in s.players.values():
        p.stack = p.start_stack
        p.tokens = p.tokens_paid = p.committed = p.round_bet = p.ante = p.paid = 0
    order = s.order
    s.result = HandResult(
        order,
        tuple(s.players[x].start_stack for x in order),
        tuple(s.players[x].start_stack for x in order),
        (),
        s.carried_in,
        s.carried_in,  # a void hand leaves a carried pot where it was
    )
    s.round_state, s.actor, s.needs = None, None, []
    if s.own is not None:
        s.own.settle()
    end(s, phase)
