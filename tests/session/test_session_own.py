"""A player's session and its own entries (SPEC 7.1): what it made itself is taken as made,
and anything that comes back changed from the network is still refused."""

from __future__ import annotations

import copy
import dataclasses

import pytest
from session_helpers import make_rng

from p2pwillow.crypto.elgamal import Ciphertext
from p2pwillow.crypto.group import IDENTITY, OPS, G
from p2pwillow.ledger import Entry, Reason, RemoteProtocolError
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.identity import SIGNATURES
from p2pwillow.mental.encoding import BadText, MadeValues
from p2pwillow.session import Session
from p2pwillow.table import Table

# --- MadeValues -------------------------------------------------------------------------------


def test_made_values_are_taken_as_made() -> None:
    made = MadeValues()
    point = G.mul_public(5)
    text = made.hex(point)
    assert text == point.hex()
    before = OPS.validate
    assert made.point(text, "key") is point
    assert OPS.validate == before  # not validated again


def test_other_texts_are_decoded_and_validated() -> None:
    made = MadeValues()
    made.hex(G.mul_public(5))
    other = G.mul_public(6)
    before = OPS.validate
    assert made.point(other.hex(), "key") == other
    assert OPS.validate == before + 1
    cts = made.ciphertexts([Ciphertext(G.mul_public(2), G.mul_public(3)).hex()], "cards")
    assert cts == (Ciphertext(G.mul_public(2), G.mul_public(3)),)


@pytest.mark.parametrize(
    "text",
    ["00" * 33, "ff" * 33, "zz" * 33, G.mul_public(5).hex().upper(), "ab"],
    ids=["identity", "off-curve", "not-hex", "uppercase", "short"],
)
def test_bad_texts_are_refused(text: str) -> None:
    made = MadeValues()
    made.hex(G.mul_public(5))
    with pytest.raises(BadText) as caught:
        made.point(text, "share")
    assert caught.value.what == "share"


def test_a_made_identity_is_not_remembered() -> None:
    made = MadeValues()
    text = made.hex(IDENTITY)
    with pytest.raises(BadText):
        made.point(text, "share")
    cts = Ciphertext(G.mul_public(2), IDENTITY)
    with pytest.raises(BadText):
        made.ciphertexts([made.hex(cts)], "cards")


def test_a_value_of_another_type_is_decoded_as_asked() -> None:
    made = MadeValues()
    point = G.mul_public(9)
    text = made.hex(point)
    with pytest.raises(BadText):
        made.ciphertexts([text], "cards")  # 33 bytes are no ciphertext


def test_cleared_values_are_decoded_again() -> None:
    made = MadeValues()
    text = made.hex(G.mul_public(5))
    made.clear()
    before = OPS.validate
    made.point(text, "key")
    assert OPS.validate == before + 1


# --- a player's own entries coming back -------------------------------------------------------


def _fork(session: Session) -> Session:
    identity = session._identity  # the key object cannot be copied; it is shared
    memo: dict[int, object] = {id(e): e for e in session.ledger.entries}
    memo[id(identity)] = identity
    return copy.deepcopy(session, memo)


def _own_entry_in_flight(kind: str) -> tuple[Table, Session, Entry]:
    """A 3-player table's first `kind` entry authored by a seat that does not sequence, and a
    copy of its author's session from just before that entry came back to it."""
    caught: list[tuple[Session, Entry]] = []
    tables: list[Table] = []

    def on_entry(entry: Entry) -> None:
        if caught or not tables or entry.kind != kind:
            return
        sessions = tables[0].sessions
        if entry.author != sessions[0].sequencer:
            caught.append((_fork(sessions[entry.author]), entry))

    table = Table(3, seed=1, rng=make_rng("own-entries"), samples=20, on_entry=on_entry)
    tables.append(table)
    table.play(1)
    assert caught, f"no {kind} by a seat that does not sequence"
    session, entry = caught[0]
    return table, session, entry


@pytest.mark.parametrize("kind", ["hand_key", "deck_shuffle"])
def test_own_entry_changed_by_the_dealer_is_refused(kind: str) -> None:
    table, session, entry = _own_entry_in_flight(kind)
    body = entry.body
    if isinstance(body, k.HandKey):
        changed: k.HandKey | k.DeckShuffle = dataclasses.replace(body, key=G.mul_public(11).hex())
    else:
        assert isinstance(body, k.DeckShuffle)
        deck = list(body.deck)
        deck[0], deck[1] = deck[1], deck[0]
        changed = dataclasses.replace(body, deck=deck)
    # the dealer countersigns a changed body under the author's old signature
    dealer = table.identities[session.sequencer]
    unsigned = dataclasses.replace(entry, body=changed, countersig=bytes(64))
    forged = unsigned.countersigned(dealer.sign(unsigned.sequencer_message()))
    head = session.ledger.head_seq
    with pytest.raises(RemoteProtocolError) as caught:
        session.receive(forged)
    assert caught.value.reason is Reason.BAD_SIGNATURE
    assert session.ledger.head_seq == head
    session.receive(entry)  # the honest entry still applies
    assert session.ledger.head_seq == head + 1


def test_received_entries_have_both_signatures_verified() -> None:
    _, session, entry = _own_entry_in_flight("deck_shuffle")
    before = SIGNATURES.verified
    session.receive(entry)
    # its own entry, back from the network: author signature and countersignature
    assert SIGNATURES.verified - before >= 2
