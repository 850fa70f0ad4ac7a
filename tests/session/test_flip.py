"""Five by Two's flip through real sessions (SPEC 3.17, 5.16, 6.10): every player says it
washes; seat 0 flips at both washes (its face-down card turned up, its first face-up card
washed), the others wash a face-up card. Every card is in one place after every entry, the card
the transcript opens is the card the flipper holds, the replacement comes face down, the transcript
verifies and replays for an observer; a flip out of turn, of a card the player does not hold,
or whose show does not open the named card (another card's share, another step's proof) is
refused with nothing changed."""

from __future__ import annotations

import functools
import json
import random

from session_helpers import SAMPLES, make_rng, observer, resign
from test_live_deck_games import God
from wash_tables import ANTE, START, refused

from p2pwillow.cards import Card
from p2pwillow.games.split_pot import FIVE_BY_TWO
from p2pwillow.ledger import Reason
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.entry import Entry
from p2pwillow.rules import ActionKind, Announcement, Decision, Hand, Phase, TableConfig
from p2pwillow.rules.wash import Wash
from p2pwillow.session import Session
from p2pwillow.table import Table, bot_decider
from p2pwillow.verify import Verdict, report_json, verify_transcript

HELD: list[Card] = []
"""The card seat 0 held face down when it decided each flip, from its own private hand."""


class _Watch(God):
    """The god's check after every entry, and after each flip the cards the flipper holds face
    down, as the session that sequenced the flip (and so has taken it) keeps them."""

    def __init__(self) -> None:
        super().__init__()
        self.down_after: list[int] = []

    def __call__(self, entry: Entry) -> None:
        super().__call__(entry)
        if entry.kind != "flip" or self.table is None:
            return
        sequencer = self.table.sessions[0].ledger.sequencer_of(entry.seq)
        r = self.table.sessions[sequencer].state.hand
        assert r is not None
        self.down_after.append(len(r.public[entry.author]))


def _player(seat: int) -> object:
    bot = bot_decider(seat, random.Random(seat), samples=SAMPLES)

    def decide(session: Session) -> Decision | None:
        hand: Hand | None = session.hand
        if hand is None:
            return None
        if hand.phase is Phase.ANNOUNCE:
            return Decision(ActionKind.ANNOUNCE, announcement=Announcement.of(FIVE_BY_TWO))
        if hand.phase is Phase.DRAW and isinstance(hand.step, Wash) and seat in hand.to_act():
            if ActionKind.WASH_CALL in hand.legal_actions(seat):
                return Decision(ActionKind.WASH_CALL)
            down = hand.hand_size(seat) - len(hand.showing(seat))
            if seat == 0:
                # its one face-down card, the first dealt or the first flip's replacement
                assert down == 1 and len(session.cards) == 1
                HELD.append(session.cards[0])
                return Decision(ActionKind.FLIP, positions=(0, down))
            return Decision(ActionKind.DRAW, positions=(down,))
        if hand.phase is Phase.BETTING and seat in hand.to_act():
            legal = hand.legal_actions(seat)
            return Decision(ActionKind.CHECK if ActionKind.CHECK in legal else ActionKind.CALL)
        return bot(session)

    return decide


@functools.cache
def flipped() -> tuple[Table, _Watch]:
    god = _Watch()
    config = TableConfig(seats=3, games=(FIVE_BY_TWO.name,), ante=ANTE, starting_stack=START)
    table = Table(
        3,
        config=config,
        seed=23,
        rng=make_rng("flip"),
        deciders={s: _player(s) for s in range(3)},  # type: ignore[misc]
        on_entry=god,
    )
    god.table = table
    assert table.play(1) == 1
    table.end_game()
    return table, god


def test_a_flip_opens_the_card_the_player_holds_and_its_replacement_comes_face_down() -> None:
    table, god = flipped()
    assert not table.rejections and not table.refusals
    assert god.checked > 20
    flips = [(e.author, e.body) for e in table.transcript if isinstance(e.body, k.Flip)]
    # seat 0 at both washes: its face-down card (position 0), its first face-up card
    assert [(a, b.down.position, b.up) for a, b in flips] == [(0, 0, 0)] * 2
    assert len(HELD) == 2 and HELD[0] != HELD[1]
    # what the transcript opened, as willow verify reads it, is the card seat 0 held face down
    data = b"".join(table.lines)
    report = verify_transcript(data)
    assert report.verdict is Verdict.VALID, report.error
    rows = [
        c
        for h in json.loads(report_json(report))["hands"]
        for st in h["streets"]
        for w in st["washed"]
        for c in w["cards"]
        if w["seat"] == 0
    ]
    assert [c["flipped"] for c in rows] == [c.ascii for c in HELD], rows
    assert god.down_after == [0, 0]  # face up now: out of its public hand until the redeal
    (summary,) = table.sessions[0].summaries
    shown = dict(summary.shown)
    assert all(len(cards) == 5 for cards in shown.values())
    assert set(HELD) <= set(shown[0])  # both flipped cards still in its hand at the showdown
    # the first wash two antes a card, the second four: seat 0 paid them by its flips, the
    # others by their washes, and all bet alike
    bets = sum(p.amount for p in summary.pots) - 3 * ANTE - 3 * (2 + 4) * ANTE
    assert bets % 3 == 0
    # an observer, who holds no secret, opens both flipped cards and settles the same pots
    (seen,) = observer(table.lines).summaries
    assert seen.pots == summary.pots and set(HELD) <= set(dict(seen.shown)[0])


def test_a_flip_out_of_turn_of_a_card_not_held_or_with_a_false_show_is_refused() -> None:
    table, _ = flipped()
    t = table.transcript
    i, j = (n for n, e in enumerate(t) if isinstance(e.body, k.Flip))
    entry, body = t[i], t[i].body
    assert isinstance(body, k.Flip)
    # out of turn: the flip of the first washer, made by another
    other = next(x for x in range(3) if x != entry.author)
    why = refused(table, i, resign(table, entry, author=other), Reason.ILLEGAL_ACTION)
    assert "washes now" in why
    # a face-up card it does not have, and a face-down card it does not hold
    bad = k.Flip(down=body.down, up=4, proof=body.proof)
    why = refused(table, i, resign(table, entry, body=bad), Reason.ILLEGAL_ACTION)
    assert "holds cards 0..4" in why
    bad = k.Flip(down=k.ShownCard(position=1, share=body.down.share), up=0, proof=body.proof)
    why = refused(table, i, resign(table, entry, body=bad), Reason.ILLEGAL_ACTION)
    assert "a face-down card" in why
    # the second flip's share (another card, another step) with the first's proof, and the
    # first's share with the second's proof: neither opens the card at position 0 here
    second = t[j].body
    assert isinstance(second, k.Flip)
    bad = k.Flip(down=second.down, up=0, proof=body.proof)
    refused(table, i, resign(table, entry, body=bad), Reason.BAD_PROOF)
    bad = k.Flip(down=body.down, up=0, proof=second.proof)
    refused(table, i, resign(table, entry, body=bad), Reason.BAD_PROOF)
    # the showdown's show of seat 0 (a valid show, but of show/0 and of another card)
    show = next(e.body for e in t if isinstance(e.body, k.Show) and e.author == 0)
    assert isinstance(show, k.Show)
    bad = k.Flip(down=show.cards[0], up=0, proof=show.proof)
    refused(table, i, resign(table, entry, body=bad), Reason.BAD_PROOF)
    # the second flip replayed at the first wash: the proof is of the second wash's step
    refused(table, i, resign(table, entry, body=second), Reason.BAD_PROOF)
