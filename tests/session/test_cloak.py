"""Go for Broke's cloak through real sessions (SPEC 3.17, 6.10): a player cloaks a face-up card
with a `cloak` entry, every peer takes its price, the card is replaced face down (every card in
one place after every entry), the transcript verifies and replays for an observer; a cloak out
of turn or of a card the player does not show is refused with nothing changed."""

from __future__ import annotations

import functools

from session_helpers import observer, resign
from test_live_deck_games import God
from wash_tables import ANTE, one_hand, refused

from p2pwillow.games.split_pot import GO_FOR_BROKE
from p2pwillow.ledger import Reason
from p2pwillow.ledger import kinds as k
from p2pwillow.rules import ActionKind, Announcement, Decision, Hand
from p2pwillow.table import Table
from p2pwillow.verify import Verdict, verify_transcript


def _cloak(hand: Hand, seat: int) -> Decision:
    """Seat 0 cloaks its first face-up card; the others keep their cards."""
    if seat != 0:
        return Decision(ActionKind.DRAW, positions=())
    down = hand.hand_size(seat) - len(hand.showing(seat))
    return Decision(ActionKind.CLOAK, positions=(down,))


@functools.cache
def cloaked() -> tuple[Table, God]:
    return one_hand(Announcement.of(GO_FOR_BROKE), _cloak, seed=13)


def test_a_cloak_is_paid_for_replaced_face_down_and_verifies() -> None:
    table, god = cloaked()
    assert not table.rejections and not table.refusals
    assert god.checked > 20
    cloaks = [(e.author, list(e.body.up)) for e in table.transcript if isinstance(e.body, k.Cloak)]
    assert cloaks == [(0, [0])]
    (summary,) = table.sessions[0].summaries
    # the antes and the cloak's eight: checks and calls add as much for everyone
    bets = sum(p.amount for p in summary.pots) - 3 * ANTE - 8 * ANTE
    assert bets % 3 == 0
    shown = dict(summary.shown)
    assert all(len(cards) == 5 for cards in shown.values())
    assert verify_transcript(b"".join(table.lines)).verdict is Verdict.VALID
    assert observer(table.lines).summaries[0].pots == summary.pots


def test_a_cloak_out_of_turn_or_of_a_card_not_showing_isrefused() -> None:
    table, _ = cloaked()
    i = next(n for n, e in enumerate(table.transcript) if isinstance(e.body, k.Cloak))
    entry = table.transcript[i]
    why = refused(table, i, resign(table, entry, body=k.Cloak(up=[3])), Reason.ILLEGAL_ACTION)
    assert "one card showing" in why
    other = next(x for x in range(3) if x != entry.author)
    bad = resign(table, entry, author=other)
    why = refused(table, i, bad, Reason.ILLEGAL_ACTION)
    assert "washes now" in why
