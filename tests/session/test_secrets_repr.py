"""No secret in a repr (a traceback with locals, a log line or a crash report must not leak
one): a player's hand record mid-hand shows neither its hand secret nor a card it holds."""

from __future__ import annotations

import pytest
from session_helpers import new_table

from p2pwillow.mental.hand import PlayerHand
from p2pwillow.rules import Phase


def test_a_players_hand_record_hides_its_secret_and_its_cards() -> None:
    table = new_table(3, seed=31)
    table.start_hand()
    session = table.sessions[1]
    while (hand := session.hand) is None or hand.phase in (Phase.ANNOUNCE, Phase.DEAL):
        if not table.decide_round():
            table.tick(table.config.action_clock + 1)
    record = session._state.hand
    assert record is not None and record.secret is not None and record.held is not None
    cards = [repr(c) for c in record.held.cards]  # "Card(7d)"
    assert len(cards) >= 5
    for text in (repr(record), str(record), repr(record.held), repr(session._state)):
        assert str(record.secret) not in text
        assert f"{record.secret:x}" not in text
        for card in cards:
            assert card not in text


@pytest.mark.parametrize("field", ["cards"])
def test_player_hand_keeps_its_cards_out_of_repr(field: str) -> None:
    assert field in PlayerHand.__dataclass_fields__
    assert not PlayerHand.__dataclass_fields__[field].repr


def test_a_nodes_keys_keep_their_secrets_out_of_repr() -> None:
    import random

    from p2pwillow.ledger.identity import Identity
    from p2pwillow.net.keys import CurveKeyPair
    from p2pwillow.store import NodeKeys

    r = random.Random(5)
    curve = CurveKeyPair.generate(r.randbytes)
    identity = Identity.generate(r.randbytes)
    keys = NodeKeys(identity, curve.public, curve.secret)
    secrets = (curve.secret, identity.private_bytes())
    for value in (curve, identity, keys):
        for text in (repr(value), str(value)):
            for secret in secrets:
                assert secret.hex() not in text and repr(secret) not in text
            assert repr(curve.public) in text or value is identity  # the public half shows
