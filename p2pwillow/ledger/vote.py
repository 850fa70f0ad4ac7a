"""The witness vote: a player's signed statement that at a head some seats owe a step and it
holds nothing from them (SPEC 7.5).

Pure; no I/O. A vote is not a ledger entry: every player sends it to every peer, and the
entries that act on votes (`timeout`, `abort`, `sequencer_change`) carry them as records
(`kinds.VoteRecord`) whose game and hand are the entry's and whose head is the entry's `prev`.
Its members are declared with the ledger's field types and read by the same envelope decoder
as entries and refusals, so a malformed vote fails with the same reasons (SPEC 6.11).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from p2pwillow.ledger.canonical import JsonObject, JsonValue, dump_checked, parse_canonical
from p2pwillow.ledger.envelope import (
    GAME,
    HASH,
    NUMBER,
    PROTOCOL_VERSION,
    SEAT,
    SIGNATURE,
    line_bytes,
    read_members,
)
from p2pwillow.ledger.errors import Reason, RemoteProtocolError
from p2pwillow.ledger.fields import FieldError, ListOf, Value, record, spec
from p2pwillow.ledger.identity import SIGNATURE_BYTES, Identity, verify_signature
from p2pwillow.limits import MAX_SEATS

VOTE_TAG = b"p2pwillow/v1/vote\x00"
"""Domain tag of a voter's signature (SPEC 7.5)."""
VOTE_TYPE: Final = "vote"
"""The `type` member that tells a vote from an entry or a refusal."""

SEATS = ListOf(SEAT, 1, MAX_SEATS, increasing_by="")
"""The seats a vote accuses: 1..10, ascending."""


@record
@dataclass(frozen=True, slots=True)
class Vote(Value):
    """Seat `voter` says: at head `head` (a hash) of hand `hand` of game `game`, the seats
    `seats` owe a step and I hold nothing from them (SPEC 7.5). `sig` is the voter's.

    On the wire it also carries `v` (the protocol version) and `type` ("vote")."""

    game: bytes = spec(GAME)
    hand: int = spec(NUMBER)
    head: bytes = spec(HASH)
    voter: int = spec(SEAT)
    seats: tuple[int, ...] = spec(SEATS)
    sig: bytes = spec(SIGNATURE)

    def check(self) -> None:
        if self.voter in self.seats:
            raise FieldError("seats", "a voter does not accuse itself")

    @classmethod
    def create(
        cls,
        identity: Identity,
        *,
        game: bytes,
        hand: int,
        head: bytes,
        voter: int,
        seats: tuple[int, ...],
    ) -> Vote:
        """Sign, as seat `voter`, that `seats` owe a step at `head`."""
        unsigned = cls(game, hand, head, voter, tuple(seats), bytes(SIGNATURE_BYTES))
        return replace(unsigned, sig=identity.sign(unsigned.message()))

    def _signed_part(self) -> JsonObject:
        obj: JsonObject = {"v": PROTOCOL_VERSION, "type": VOTE_TYPE}
        obj.update(super(Vote, self).to_json())
        del obj["sig"]
        return obj

    def message(self) -> bytes:
        """The bytes the voter signs: VOTE_TAG, then the canonical encoding of every member
        but `sig` (SPEC 7.5)."""
        return VOTE_TAG + dump_checked(self._signed_part())

    def verify(self, public_key: bytes) -> bool:
        """True if `sig` is the voter's signature under this identity key."""
        return verify_signature(public_key, self.message(), self.sig)

    def accuses(self, seat: int) -> bool:
        return seat in self.seats

    def to_json(self) -> JsonObject:
        obj = self._signed_part()
        obj["sig"] = self.sig.hex()
        return obj

    def encode(self) -> bytes:
        """The canonical encoding (no line terminator)."""
        return dump_checked(self.to_json())


VOTE_KEYS = frozenset({"v", "type", *Vote.FIELDS})


def vote_from_json(value: JsonValue) -> Vote:
    """Read a decoded JSON value as a vote; RemoteProtocolError if it is not one."""
    obj = read_members(value, VOTE_KEYS, "a vote")
    if obj["type"] != VOTE_TYPE:
        raise RemoteProtocolError(Reason.BAD_FIELD, f"type: must be {VOTE_TYPE!r}")
    try:
        return Vote._decode({name: obj[name] for name in Vote.FIELDS}, "vote")
    except FieldError as exc:
        raise RemoteProtocolError(Reason.BAD_FIELD, str(exc)) from None


def decode_vote(line: bytes | str) -> Vote:
    """Decode a vote's canonical encoding (an optional trailing LF allowed); any malformed
    input raises RemoteProtocolError. The signature is checked by the receiving session."""
    return vote_from_json(parse_canonical(line_bytes(line)))


def vote_schema() -> JsonObject:
    """The vote as a JSON Schema object: the version and type, then its declared members."""
    members = Vote.object_schema()
    properties = members["properties"]
    assert isinstance(properties, dict)
    members["properties"] = {
        "v": {"const": PROTOCOL_VERSION},
        "type": {"const": VOTE_TYPE},
        **properties,
    }
    members["required"] = [*sorted(VOTE_KEYS)]
    return members


__all__ = [
    "VOTE_TAG",
    "VOTE_TYPE",
    "Vote",
    "decode_vote",
    "vote_from_json",
    "vote_schema",
]
