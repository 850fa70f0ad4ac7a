"""Five by Two's washes through real sessions (SPEC 3.17, 3.13.15, 6.10): every player says in
turn whether it washes (`wash_call`, `keep_call`) before anyone washes, then those who said so
wash; the transcript verifies and replays for an observer, and the report tells who kept its
cards; a wash before every player has said, a call out of turn, or a washer that keeps its
cards after saying it washes is refused with nothing changed."""

from __future__ import annotations

import functools

from session_helpers import observer, resign
from test_live_deck_games import God
from wash_tables import one_hand, refused

from p2pwillow.games.split_pot import FIVE_BY_TWO
from p2pwillow.ledger import Reason
from p2pwillow.ledger import kinds as k
from p2pwillow.rules import ActionKind, Announcement, Decision, Hand
from p2pwillow.table import Table
from p2pwillow.verify import Verdict, verify_transcript
from p2pwillow.verify.text import report_text


def _call(hand: Hand, seat: int) -> Decision:
    """Seat 1 says it keeps its cards, the others that they wash, then wash their first
    face-up card."""
    if ActionKind.KEEP_CALL in hand.legal_actions(seat):
        return Decision(ActionKind.KEEP_CALL if seat == 1 else ActionKind.WASH_CALL)
    down = hand.hand_size(seat) - len(hand.showing(seat))
    return Decision(ActionKind.DRAW, positions=(down,))


@functools.cache
def called() -> tuple[Table, God]:
    return one_hand(Announcement.of(FIVE_BY_TWO), _call, seed=17)


def test_every_player_says_first_then_those_who_said_so_wash() -> None:
    table, god = called()
    assert not table.rejections and not table.refusals
    assert god.checked > 20
    kinds = [(e.kind, e.author) for e in table.transcript if e.kind in _WASH_KINDS]
    # at each of the two washes: three calls, then the two washes
    assert len(kinds) == 10
    for wash in (kinds[:5], kinds[5:]):
        assert sorted(author for kind, author in wash[:3]) == [0, 1, 2]
        assert {kind for kind, author in wash[:3] if author == 1} == {"keep_call"}
        assert [kind for kind, _ in wash[3:]] == ["wash", "wash"]
        assert {author for _, author in wash[3:]} == {0, 2}
    data = b"".join(table.lines)
    assert verify_transcript(data).verdict is Verdict.VALID
    (summary,) = table.sessions[0].summaries
    assert observer(table.lines).summaries[0].pots == summary.pots
    text = report_text(verify_transcript(data))
    assert "The wash: " in text and "keeps its cards" in text


_WASH_KINDS = {"wash_call", "keep_call", "wash"}


def test_a_wash_before_all_have_said_a_call_out_of_turn_or_a_broken_word_isrefused() -> None:
    table, _ = called()
    t = table.transcript
    calls = [i for i, e in enumerate(t) if e.kind in ("wash_call", "keep_call")]
    washes = [i for i, e in enumerate(t) if e.kind == "wash"]
    # the second call, by another seat than the one whose turn it is
    i = calls[1]
    other = next(x for x in range(3) if x not in (t[i].author, t[calls[0]].author))
    why = refused(table, i, resign(table, t[i], author=other), Reason.ILLEGAL_ACTION)
    assert "says now whether it washes" in why
    # a wash in place of the last call: nobody washes yet
    j = calls[2]
    first = washes[0]
    body = t[first].body
    assert isinstance(body, k.Wash)
    early = resign(table, t[j], body=k.Wash(cards=[], up=[0]))
    why = refused(table, j, early, Reason.ILLEGAL_ACTION)
    assert "nobody washes yet" in why
    # a player that said it washes, keeping its cards
    kept = resign(table, t[first], body=k.Wash(cards=[], up=[]))
    why = refused(table, first, kept, Reason.ILLEGAL_ACTION)
    assert "said it washes" in why
