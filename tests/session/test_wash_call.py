"""Five by Two's washes through real sessions (SPEC 3.17, 3.13.15, 6.10): every player says in
turn whether it washes (`wash_call`, `keep_call`) before anyone washes, then those who said so
wash; the transcript verifies and replays for an observer, and the report tells who kept its
cards; a wash before every player has said, a call out of turn, or a washer that keeps its
cards after saying it washes is refused with nothing changed."""

from __future__ import annotations

import functools
import random

import pytest
from session_helpers import SAMPLES, fork, make_rng, observer, resign, snapshot, states_before
from test_live_deck_games import God

from p2pwillow.games.split_pot import FIVE_BY_TWO
from p2pwillow.ledger import Reason, RemoteProtocolError
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.entry import Entry
from p2pwillow.rules import ActionKind, Announcement, Decision, Hand, Phase, TableConfig
from p2pwillow.rules.wash import Wash
from p2pwillow.session import Session
from p2pwillow.table import Table, bot_decider
from p2pwillow.verify import Verdict, verify_transcript
from p2pwillow.verify.text import report_text

START, ANTE = 1000, 5


def _player(seat: int) -> object:
    """Checks or calls every round; at each wash seat 1 says it keeps its cards and the others
    say they wash, then wash their first face-up card."""
    bot = bot_decider(seat, random.Random(seat), samples=SAMPLES)

    def decide(session: Session) -> Decision | None:
        hand: Hand | None = session.hand
        if hand is None:
            return None
        if hand.phase is Phase.ANNOUNCE:
            return Decision(ActionKind.ANNOUNCE, announcement=Announcement.of(FIVE_BY_TWO))
        if hand.phase is Phase.DRAW and isinstance(hand.step, Wash) and seat in hand.to_act():
            if ActionKind.KEEP_CALL in hand.legal_actions(seat):
                return Decision(ActionKind.KEEP_CALL if seat == 1 else ActionKind.WASH_CALL)
            down = hand.hand_size(seat) - len(hand.showing(seat))
            return Decision(ActionKind.DRAW, positions=(down,))
        if hand.phase is Phase.BETTING and seat in hand.to_act():
            legal = hand.legal_actions(seat)
            return Decision(ActionKind.CHECK if ActionKind.CHECK in legal else ActionKind.CALL)
        return bot(session)

    return decide


@functools.cache
def called() -> tuple[Table, God]:
    god = God()
    config = TableConfig(seats=3, games=(FIVE_BY_TWO.name,), ante=ANTE, starting_stack=START)
    table = Table(
        3,
        config=config,
        seed=17,
        rng=make_rng("wash-call"),
        deciders={s: _player(s) for s in range(3)},  # type: ignore[misc]
        on_entry=god,
    )
    god.table = table
    assert table.play(1) == 1
    table.end_game()
    return table, god


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


def _refused(table: Table, i: int, bad: Entry, reason: Reason) -> str:
    session = fork(states_before(table.lines)[i])
    before = snapshot(session)
    with pytest.raises(RemoteProtocolError) as caught:
        session.replay(bad)
    assert caught.value.reason is reason, caught.value
    assert snapshot(session) == before
    session.replay(table.transcript[i])  # the honest entry still fits
    return str(caught.value)


def test_a_wash_before_all_have_said_a_call_out_of_turn_or_a_broken_word_is_refused() -> None:
    table, _ = called()
    t = table.transcript
    calls = [i for i, e in enumerate(t) if e.kind in ("wash_call", "keep_call")]
    washes = [i for i, e in enumerate(t) if e.kind == "wash"]
    # the second call, by another seat than the one whose turn it is
    i = calls[1]
    other = next(x for x in range(3) if x not in (t[i].author, t[calls[0]].author))
    why = _refused(table, i, resign(table, t[i], author=other), Reason.ILLEGAL_ACTION)
    assert "says now whether it washes" in why
    # a wash in place of the last call: nobody washes yet
    j = calls[2]
    first = washes[0]
    body = t[first].body
    assert isinstance(body, k.Wash)
    early = resign(table, t[j], body=k.Wash(cards=[], up=[0]))
    why = _refused(table, j, early, Reason.ILLEGAL_ACTION)
    assert "nobody washes yet" in why
    # a player that said it washes, keeping its cards
    kept = resign(table, t[first], body=k.Wash(cards=[], up=[]))
    why = _refused(table, first, kept, Reason.ILLEGAL_ACTION)
    assert "said it washes" in why
