"""Car Wash through real sessions (SPEC 3.13.17, 3.17, 6.10): a wash of a face-down and a
face-up card in one entry, each face-down card proved the washer's own, replaced the same way;
a player's two washes over the hand and no more; the house's price paid into the pot; every card
in one place after every entry; the best ace-to-five low wins; the transcript verifies and
replays for an observer; a wash beyond the two, of a card the washer does not show, or with a
forged discard is refused with nothing changed."""

from __future__ import annotations

import dataclasses
import functools
from collections import Counter

from session_helpers import observer, resign
from test_live_deck_games import God
from wash_tables import ANTE, one_hand, refused

from p2pwillow import evaluators
from p2pwillow.crypto.group import G
from p2pwillow.games.car_wash import CAR_WASH
from p2pwillow.ledger import Reason
from p2pwillow.ledger import kinds as k
from p2pwillow.rules import ActionKind, Announcement, Decision, Hand
from p2pwillow.table import Table
from p2pwillow.verify import Verdict, verify_transcript

PRICE = 1

PLAN: dict[int, dict[int, tuple[int, ...]]] = {
    0: {2: (0, 1)},  # right after its first two cards: both, the face-down one and the up one
    1: {3: (1,), 5: (0,)},  # its first face-up card after the third card; a hole card at the end
    2: {5: (4,)},  # its last face-up card at the end
}
"""Each seat's washes by the cards it holds then: the places it names (face down first)."""


def _plan(hand: Hand, seat: int) -> Decision:
    return Decision(ActionKind.DRAW, positions=PLAN[seat].get(hand.hand_size(seat), ()))


@functools.cache
def washed() -> tuple[Table, God]:
    return one_hand(Announcement.of(CAR_WASH, wash_price=PRICE), _plan, seed=11)


def _washes(table: Table) -> list[tuple[int, k.Wash]]:
    return [(e.author, e.body) for e in table.transcript if isinstance(e.body, k.Wash)]


def test_washes_of_one_or_two_cards_play_through_every_peer_and_verify() -> None:
    table, god = washed()
    assert not table.rejections and not table.refusals
    assert god.checked > 20  # every card in one place after every entry
    washes = _washes(table)
    made = [(a, len(b.cards), len(b.up)) for a, b in washes if b.cards or b.up]
    assert made == [(0, 1, 1), (1, 0, 1), (1, 1, 0), (2, 0, 1)]
    # four washes a hand, each asking every seat with a wash left: seat 0 is asked once
    asked = Counter(a for a, _ in washes)
    assert asked == {0: 1, 1: 4, 2: 4}
    (summary,) = table.sessions[0].summaries
    # antes and five washed cards at one ante each: every check and call adds the same
    assert sum(p.amount for p in summary.pots) == 3 * ANTE + 5 * PRICE * ANTE
    shown = dict(summary.shown)
    assert all(len(cards) == 5 for cards in shown.values())
    best = max(evaluators.low_a5(cards) for cards in shown.values())
    (pot,) = summary.pots
    assert {x for x, cards in shown.items() if evaluators.low_a5(cards) == best} == set(pot.winners)
    assert verify_transcript(b"".join(table.lines)).verdict is Verdict.VALID
    seen = observer(table.lines)
    assert seen.summaries[0].pots == summary.pots


# --- cheats: one RemoteProtocolError, nothing changed --------------------------------------


def _wash_entry(table: Table, seat: int, *, up: bool, down: bool) -> int:
    return next(
        n
        for n, e in enumerate(table.transcript)
        if e.kind == "wash"
        and e.author == seat
        and isinstance(e.body, k.Wash)
        and bool(e.body.up) == up
        and bool(e.body.cards) == down
    )


def test_a_wash_beyond_the_two_a_card_not_showing_or_a_forged_discard_isrefused() -> None:
    table, _ = washed()
    # seat 1's last wash is its second card: a third beside it is refused
    i = _wash_entry(table, 1, up=False, down=True)
    body = table.transcript[i].body
    assert isinstance(body, k.Wash)
    more = dataclasses.replace(body, up=[0])
    why = refused(table, i, resign(table, table.transcript[i], body=more), Reason.ILLEGAL_ACTION)
    assert "may wash 1 card here, not 2" in why
    card = body.cards[0]
    forged = dataclasses.replace(card, card=G.mul_public(5).hex() + card.card[66:])
    bad = resign(table, table.transcript[i], body=dataclasses.replace(body, cards=[forged]))
    refused(table, i, bad, Reason.BAD_PROOF)
    # seat 2 names a face-up card it does not have
    j = _wash_entry(table, 2, up=True, down=False)
    other = table.transcript[j].body
    assert isinstance(other, k.Wash)
    beyond = dataclasses.replace(other, up=[5])
    why = refused(table, j, resign(table, table.transcript[j], body=beyond), Reason.ILLEGAL_ACTION)
    assert "holds cards" in why
