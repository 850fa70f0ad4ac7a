"""Entries (SPEC 6.3-6.5, 6.10): every kind round trips; signatures bind every byte."""

from __future__ import annotations

import hashlib
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ledger_helpers import GAME, IDS, VOTES, Table, sample_bodies, sample_entries

from p2pwillow.games import plain
from p2pwillow.ledger import (
    KINDS,
    AuthoredEntry,
    Entry,
    LocalProtocolError,
    Reason,
    RemoteProtocolError,
    canonical_bytes,
    decode_authored,
    decode_entry,
)
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.canonical import is_hex
from p2pwillow.ledger.entry import AUTHOR_TAG, SEQUENCER_TAG
from p2pwillow.ledger.fields import Bytes, FieldError

ENTRIES = sample_entries()


def test_every_kind_has_a_sample() -> None:
    assert set(sample_bodies()) == set(KINDS)


@pytest.mark.parametrize("kind", sorted(ENTRIES))
def test_round_trip(kind: str) -> None:
    entry = ENTRIES[kind]
    line = entry.encode()
    assert canonical_bytes(entry.to_json()) == line
    decoded = decode_entry(line)
    assert decoded == entry and decoded.kind == kind
    # the decoded value re-encodes to the same bytes without help from a cache
    assert canonical_bytes(decoded.to_json()) == line
    assert decode_entry(line + b"\n") == entry
    assert decode_entry(line.decode()) == entry
    assert type(decoded.body).from_json(json.loads(line)["body"]) == entry.body
    assert decoded.hash == hashlib.sha256(line).digest()


@pytest.mark.parametrize("kind", sorted(ENTRIES))
def test_signatures_verify(kind: str) -> None:
    entry = ENTRIES[kind]
    assert entry.verify_author(IDS[1].public_key)
    assert entry.verify_countersig(IDS[2].public_key)
    assert not entry.verify_author(IDS[2].public_key)
    assert not entry.verify_countersig(IDS[1].public_key)


def test_signed_bytes_are_as_specified() -> None:
    entry = ENTRIES["bet"]
    obj = json.loads(entry.encode())
    signed = ("author", "body", "counter", "game", "hand", "kind", "seen", "v")
    author_part = {key: obj[key] for key in signed}
    assert entry.author_message() == AUTHOR_TAG + canonical_bytes(author_part)
    del obj["countersig"]
    assert entry.sequencer_message() == SEQUENCER_TAG + canonical_bytes(obj)
    assert AUTHOR_TAG == b"p2pwillow/v1/author\x00"
    assert SEQUENCER_TAG == b"p2pwillow/v1/sequencer\x00"


def test_author_signature_survives_sequencing() -> None:
    authored = AuthoredEntry.create(
        IDS[0], game=GAME, hand=1, author=0, body=plain("check"), counter=3, seen=bytes(32)
    )
    assert authored.verify(IDS[0].public_key)
    entry = authored.sequence(7, bytes(range(32)), IDS[3])
    assert entry.sig == authored.sig and entry.authored() == authored
    assert decode_authored(authored.encode()) == authored
    assert decode_authored(authored.encode() + b"\n") == authored


def test_authored_entry_is_not_an_entry_and_vice_versa() -> None:
    entry = ENTRIES["check"]
    with pytest.raises(RemoteProtocolError) as info:
        decode_entry(entry.authored().encode())
    assert info.value.reason is Reason.BAD_FIELD and "missing" in info.value.detail
    with pytest.raises(RemoteProtocolError) as info:
        decode_authored(entry.encode())
    assert info.value.reason is Reason.BAD_FIELD and "unknown" in info.value.detail


def test_identity_round_trip() -> None:
    again = type(IDS[0]).from_private_bytes(IDS[0].private_bytes())
    assert again.public_key == IDS[0].public_key and len(again.public_key) == 32
    with pytest.raises(LocalProtocolError):
        type(IDS[0]).from_private_bytes(b"short")


def _tamper_json(entry: Entry, path: tuple[str | int, ...], value: object) -> bytes:
    obj = json.loads(entry.encode())
    target = obj
    for step in path[:-1]:
        target = target[step]
    if value is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return canonical_bytes(obj)


_DELETE = object()

TAMPERINGS = [
    ("version", ("v",), 2, Reason.BAD_VERSION),
    ("version-string", ("v",), "1", Reason.BAD_VERSION),
    ("version-bool", ("v",), True, Reason.BAD_VERSION),
    ("version-missing", ("v",), _DELETE, Reason.BAD_FIELD),
    ("kind", ("kind",), "shove", Reason.UNKNOWN_KIND),
    ("kind-type", ("kind",), 3, Reason.UNKNOWN_KIND),
    ("extra-envelope", ("extra",), 1, Reason.BAD_FIELD),
    ("no-countersig", ("countersig",), _DELETE, Reason.BAD_FIELD),
    ("short-sig", ("sig",), "00" * 63, Reason.BAD_FIELD),
    ("upper-hex", ("prev",), "AB" * 32, Reason.BAD_FIELD),
    ("game-length", ("game",), "00" * 17, Reason.BAD_FIELD),
    ("seq-negative", ("seq",), -1, Reason.BAD_FIELD),
    ("seq-bool", ("seq",), True, Reason.BAD_FIELD),
    ("author-range", ("author",), 10, Reason.BAD_FIELD),
    ("hand-string", ("hand",), "3", Reason.BAD_FIELD),
    ("body-array", ("body",), [], Reason.BAD_FIELD),
    ("body-extra", ("body", "note"), "x", Reason.BAD_FIELD),
    ("amount-missing", ("body", "amount"), _DELETE, Reason.BAD_FIELD),
    ("amount-zero", ("body", "amount"), 0, Reason.BAD_FIELD),
    ("amount-bool", ("body", "amount"), True, Reason.BAD_FIELD),
    ("amount-null", ("body", "amount"), None, Reason.BAD_FIELD),
    ("amount-string", ("body", "amount"), "25", Reason.BAD_FIELD),
]


@pytest.mark.parametrize(
    ("path", "value", "reason"), [t[1:] for t in TAMPERINGS], ids=[t[0] for t in TAMPERINGS]
)
def test_envelope_tampering_rejected(
    path: tuple[str | int, ...], value: object, reason: Reason
) -> None:
    entry = ENTRIES["bet"]
    with pytest.raises(RemoteProtocolError) as info:
        decode_entry(_tamper_json(entry, path, value))
    assert info.value.reason is reason


BODY_TAMPERINGS = [
    ("genesis", ("players", 1, "seat"), 0),  # not increasing
    ("genesis", ("players", 1, "identity_key"), IDS[0].public_key.hex()),  # key twice
    ("genesis", ("players", 0, "name"), ""),
    ("genesis", ("players", 0, "name"), "x" * 33),
    ("genesis", ("players", 0, "name"), "Eve\u202egnp.exe"),  # bidi override
    ("genesis", ("players", 0, "name"), "Eve\x1b[2J"),  # terminal escape
    ("genesis", ("players",), []),
    ("genesis", ("config",), [1]),
    ("hand_start", ("dealer",), 9),  # not in the hand
    ("hand_start", ("players", 0, "stack"), -5),
    ("hand_key", ("key",), "00" * 32),
    ("hand_key", ("proof",), ""),
    ("hand_key", ("proof",), "abc"),
    ("deck_shuffle", ("deck",), []),
    ("deck_shuffle", ("deck", 0), "00" * 33),  # a point, not a ciphertext
    ("deal_shares", ("shares", 0, "position"), 52),
    ("deal_shares", ("shares", 1, "position"), 0),  # duplicate position
    ("deck_shuffle", ("deck",), ["00" * 66] * 51),
    ("hand_shuffle", ("purpose",), "deal"),
    ("hand_shuffle", ("trade",), 4),  # a layout shuffle names no trade
    ("hand_shuffle", ("cards",), ["00" * 66] * 8),
    ("trade_give", ("to",), -1),
    ("trade_give", ("cards",), []),
    ("trade_give", ("cards", 1, "position"), 1),  # not ascending
    ("trade_give", ("cards", 1, "position"), 7),
    ("trade_give", ("cards", 0, "proof"), "0"),
    ("reveal", ("card",), 7),
    ("reveal", ("card",), -1),
    ("street_shares", ("step",), 64),
    ("street_shares", ("shares",), []),
    ("street_shares", ("shares", 1, "position"), 12),  # not ascending
    ("show", ("cards", 0, "position"), 7),
    ("show", ("cards",), []),
    ("fold_release", ("shares",), []),
    ("draw", ("cards", 0, "position"), 7),
    ("draw", ("cards", 1, "position"), 1),  # not ascending
    ("fold_release", ("shares", 0), "00" * 66),  # a ciphertext, not a point
    ("announce", ("deal_size",), 8),
    ("announce", ("trading_mode",), "in_turn"),
    ("announce", ("orbits",), 0),  # closing is orbits
    ("announce", ("closing",), "dealer-calls"),  # orbits is 2
    ("announce_game", ("game",), ""),
    ("announce_game", ("description",), "00"),
    ("announce_game", ("options", "deal_size"), -1),
    ("announce_game", ("options", "trading_mode"), ""),
    ("announce_game", ("options", "x" * 33), 1),
    ("announce_game", ("options", "closing"), ["dealer-calls"]),
    ("raise", ("to",), 0),
    ("call", ("amount",), 25),
    ("offer", ("k",), 8),
    ("abort", ("blamed",), [2, 2]),
    ("abort", ("reason",), ""),
    ("equivocation", ("first", "seq"), "x"),
    ("equivocation", ("second", "body"), {}),
    ("timeout", ("seat",), None),
    ("leave", ("why",), "bored"),
]


@pytest.mark.parametrize(("kind", "path", "value"), BODY_TAMPERINGS, ids=repr)
def test_body_tampering_rejected(kind: str, path: tuple[str | int, ...], value: object) -> None:
    entry = ENTRIES[kind]
    with pytest.raises(RemoteProtocolError) as info:
        decode_entry(_tamper_json(entry, ("body", *path), value))
    err = info.value
    assert err.reason is Reason.BAD_FIELD
    # the error names the entry it could read
    assert (err.seq, err.kind, err.author) == (entry.seq, kind, entry.author)
    assert str(entry.seq) in str(err) and kind in str(err)


@pytest.mark.parametrize(
    "build",
    [
        lambda: plain("bet", amount=0),
        lambda: plain("bet", amount=True),
        lambda: plain("bet", amount=2**60),
        lambda: k.HandKey(key="AB" * 33, proof="00"),
        lambda: k.Abort(blamed=[3, 1], reason="x", votes=[]),
        lambda: k.Timeout(seats=[1], votes=[]),
        lambda: k.SequencerChange(replaced=[1, 1], votes=[VOTES[0]]),
        lambda: k.VoteRecord(voter=1, seats=[1, 2], sig="00" * 64),
        lambda: k.Timeout(seats=[1], votes=[VOTES[2], VOTES[0]]),
        # a float is no JSON value of the ledger: the wrong type is the tampering under test
        lambda: k.Genesis(name="t", config={"x": 1.5}, players=[]),  # type: ignore[dict-item]
        lambda: k.SeatStack(seat=10, stack=0),
        lambda: k.HandStart(dealer=0, players=[k.SeatStack(seat=1, stack=5)]),
        lambda: k.Equivocation(sequencer=0, first="no", second="no"),  # type: ignore[arg-type]
    ],
)
def test_invalid_local_values_cannot_be_built(build: object) -> None:
    with pytest.raises(LocalProtocolError):
        build()  # type: ignore[operator]


def test_invalid_envelopes_cannot_be_built() -> None:
    with pytest.raises(LocalProtocolError):
        AuthoredEntry.create(
            IDS[0], game=b"short", hand=1, author=0, body=plain("check"), counter=3, seen=bytes(32)
        )
    with pytest.raises(LocalProtocolError):
        AuthoredEntry.create(
            IDS[0], game=GAME, hand=1, author=10, body=plain("check"), counter=3, seen=bytes(32)
        )
    with pytest.raises(LocalProtocolError):
        AuthoredEntry.create(
            IDS[0], game=GAME, hand=-1, author=0, body=plain("check"), counter=3, seen=bytes(32)
        )
    with pytest.raises(LocalProtocolError):
        AuthoredEntry.create(
            IDS[0], game=GAME, hand=1, author=0, body=plain("check"), counter=-1, seen=bytes(32)
        )
    with pytest.raises(LocalProtocolError):
        AuthoredEntry.create(
            IDS[0], game=GAME, hand=1, author=0, body=plain("check"), counter=1, seen=b"x"
        )
    authored = AuthoredEntry.create(
        IDS[0], game=GAME, hand=1, author=0, body=plain("check"), counter=3, seen=bytes(32)
    )
    with pytest.raises(LocalProtocolError):
        authored.sequence(1, b"short", IDS[0])
    with pytest.raises(LocalProtocolError):
        authored.sequence(-1, bytes(32), IDS[0])


def test_config_is_read_only_and_round_trips() -> None:
    genesis = sample_bodies()["genesis"]
    assert isinstance(genesis, k.Genesis)
    with pytest.raises(TypeError):
        genesis.config["starting_stack"] = 5  # type: ignore[index]
    assert k.Genesis.from_json(genesis.to_json()) == genesis


def test_every_byte_of_an_entry_is_bound() -> None:
    """Change any one byte of a valid entry: it no longer decodes or no longer verifies."""
    table = Table()
    table.seat_everyone()
    entry = table.make(0, k.HandStart(dealer=0, players=[k.SeatStack(seat=0, stack=9)]), hand=1)
    line = entry.encode()
    table.ledger.check_next(entry)
    for i in range(len(line)):
        for replacement in {line[i] ^ 0x01, ord("0") if line[i] != ord("0") else ord("1")}:
            mutated = line[:i] + bytes([replacement]) + line[i + 1 :]
            with pytest.raises(RemoteProtocolError):
                table.ledger.check_next(decode_entry(mutated))


@given(
    st.one_of(
        st.text(alphabet="0123456789abcdefABCDEF g\u0660", min_size=6, max_size=10),
        st.integers(),
        st.none(),
    )
)
def test_fixed_size_bytes_read_exactly_their_lowercase_hex(value: object) -> None:
    field = Bytes("a hash", 4)
    try:
        read = field.decode(value, "x")  # type: ignore[arg-type]
    except FieldError:
        assert not is_hex(value, 8)
    else:
        assert is_hex(value, 8) and isinstance(value, str) and read == bytes.fromhex(value)
