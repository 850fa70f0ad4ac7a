"""Session.restore (SPEC 7.7): a player's session rebuilt from its transcript, its per-hand
secret and the counters it signed, at any point of a game, knows what the original knew and
plays on with the others."""

from __future__ import annotations

import dataclasses

import pytest
from session_helpers import make_rng, new_table

from p2pwillow.crypto.group import G
from p2pwillow.ledger import AuthoredEntry, LocalProtocolError, Reason, RemoteProtocolError
from p2pwillow.ledger import kinds as k
from p2pwillow.rules import Phase
from p2pwillow.session import Session
from p2pwillow.table import Table


def _restored(table: Table, seat: int) -> Session:
    old = table.sessions[seat]
    return Session.restore(
        table.identities[seat],
        seat,
        old.ledger.entries,
        make_rng(f"restored/{seat}"),
        secrets=old.secrets,
        signed=old.signed,
    )


def _private(session: Session) -> tuple[object, ...]:
    return (
        session.ledger.head_hash,
        session.cards,
        session.given,
        session.received,
        session.layout,
        # a restored session checked its own proofs too: the counts may differ
        [dataclasses.replace(h, proofs=()) for h in session.summaries],
        None if session.hand is None else session.hand.snapshot(),
        session.due(),
    )


def _played_to(phase: Phase, seed: int = 3) -> Table:
    table = new_table(3, seed=seed)
    table.play(1)
    table.start_hand()
    first = table.sessions[0]
    while first.hand is not None and first.hand.phase is not phase and not first.hand.is_over:
        if not table.decide_round():
            table.tick(table.config.action_clock + 1)
    return table


@pytest.mark.parametrize("phase", [Phase.TRADING, Phase.LAYOUT, Phase.BETTING])
def test_a_restored_session_knows_what_the_original_knew(phase: Phase) -> None:
    table = _played_to(phase)
    for seat in range(3):
        assert _private(_restored(table, seat)) == _private(table.sessions[seat])


def test_a_restored_session_plays_the_hand_to_its_end() -> None:
    table = _played_to(Phase.LAYOUT)
    for seat in range(3):
        table.sessions[seat] = _restored(table, seat)
    table.finish_hand()
    assert table.rejections == []
    heads = {s.ledger.head_hash for s in table.sessions}
    assert len(heads) == 1 and table.sessions[0].between_hands


def test_a_restored_dealer_that_lost_its_unsent_hand_key_makes_it_again_with_the_same_secret() -> (
    None
):
    table = new_table(3, seed=4)
    table.muted.add(1)  # seat 1's hand key never reaches anyone
    table.start_hand()
    old = table.sessions[1]
    assert old.secrets  # its key was made and its x kept
    restored = _restored(table, 1)
    assert restored.secrets == old.secrets  # nothing in the chain, but the secret was kept
    out = restored.poll()
    (again,) = [e for e in out.send if isinstance(e, AuthoredEntry) and e.kind == "hand_key"]
    assert again.counter > max(old.signed)
    assert isinstance(again.body, k.HandKey)
    (secret,) = old.secrets.values()
    assert again.body.key == G.mul_public(secret).hex()


def test_restore_refuses_a_foreign_seat_a_wrong_secret_and_a_forged_own_entry() -> None:
    table = _played_to(Phase.TRADING)
    old = table.sessions[1]
    entries = old.ledger.entries
    with pytest.raises(LocalProtocolError):
        Session.restore(table.identities[2], 1, entries, make_rng("x"), signed=old.signed)
    (hand,) = old.secrets
    with pytest.raises(LocalProtocolError):
        Session.restore(
            table.identities[1],
            1,
            entries,
            make_rng("x"),
            secrets={hand: old.secrets[hand] + 1},
            signed=old.signed,
        )
    with pytest.raises(RemoteProtocolError) as caught:
        # the counters it signed are lost: its own entries are not taken as its own
        Session.restore(table.identities[1], 1, entries, make_rng("x"), secrets=old.secrets)
    assert caught.value.reason is Reason.BAD_SIGNATURE
