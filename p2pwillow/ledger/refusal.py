"""The sequencer's refusal: the signed message that tells a player its entry was not sequenced.

Pure; no I/O. A refusal is not a ledger entry and never enters the transcript (SPEC 7.1). Its
members are declared with the same field types as entry bodies and read by the same envelope
decoder, so a malformed refusal fails with the same reasons (SPEC 6.11) as a malformed entry.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from p2pwillow.ledger.canonical import JsonObject, JsonValue, dump_checked, parse_canonical
from p2pwillow.ledger.envelope import (
    GAME,
    NUMBER,
    PROTOCOL_VERSION,
    SEAT,
    SIGNATURE,
    AuthoredEntry,
    line_bytes,
    read_kind,
    read_members,
)
from p2pwillow.ledger.errors import Reason, RemoteProtocolError
from p2pwillow.ledger.fields import Choice, FieldError, OneOf, Value, Words, record, spec
from p2pwillow.ledger.identity import SIGNATURE_BYTES, Identity, verify_signature
from p2pwillow.ledger.kinds import KINDS

REFUSAL_TAG = b"p2pwillow/v1/refusal\x00"
"""Domain tag of the sequencer's signature over a refusal (SPEC 7.1)."""
REFUSAL_TYPE: Final = "refusal"
"""The `type` member that tells a refusal from an entry."""
MAX_DETAIL = 200
"""A refusal's `detail` is cut to this many characters (SPEC 7.1)."""

REASON = Choice(Reason, "a rejection reason (SPEC 6.11)")


@record
@dataclass(frozen=True, slots=True)
class Refusal(Value):
    """The sequencer `sequencer` refused the authored entry `sig` (of `kind`, by `author`)
    when its head was `head`, for `reason` (SPEC 6.11) with a human-readable `detail`.

    On the wire it also carries `v` (the protocol version) and `type` ("refusal")."""

    game: bytes = spec(GAME)
    hand: int = spec(NUMBER)
    sequencer: int = spec(SEAT)
    head: int = spec(NUMBER)
    author: int = spec(SEAT)
    kind: str = spec(OneOf(*sorted(KINDS)))
    sig: bytes = spec(SIGNATURE)
    reason: Reason = spec(REASON)  # noqa: RUF009 - spec() returns a dataclasses.field
    detail: str = spec(Words(MAX_DETAIL))
    countersig: bytes = spec(SIGNATURE)

    @classmethod
    def create(
        cls,
        identity: Identity,
        sequencer: int,
        head: int,
        refused: AuthoredEntry,
        reason: Reason,
        detail: str,
    ) -> Refusal:
        """Sign, as seat `sequencer` whose head is `head`, the refusal of `refused`."""
        unsigned = cls(
            refused.game,
            refused.hand,
            sequencer,
            head,
            refused.author,
            refused.kind,
            refused.sig,
            reason,
            detail[:MAX_DETAIL],
            bytes(SIGNATURE_BYTES),
        )
        return replace(unsigned, countersig=identity.sign(unsigned.sequencer_message()))

    def _signed_part(self) -> JsonObject:
        obj: JsonObject = {"v": PROTOCOL_VERSION, "type": REFUSAL_TYPE}
        obj.update(super(Refusal, self).to_json())
        del obj["countersig"]
        return obj

    def sequencer_message(self) -> bytes:
        """The bytes the sequencer signs: REFUSAL_TAG, then the canonical encoding of every
        member but `countersig` (SPEC 7.1)."""
        return REFUSAL_TAG + dump_checked(self._signed_part())

    def verify(self, public_key: bytes) -> bool:
        """True if `countersig` is the sequencer's signature under this identity key."""
        return verify_signature(public_key, self.sequencer_message(), self.countersig)

    def to_json(self) -> JsonObject:
        obj = self._signed_part()
        obj["countersig"] = self.countersig.hex()
        return obj

    def encode(self) -> bytes:
        """The canonical encoding (no line terminator)."""
        return dump_checked(self.to_json())


REFUSAL_KEYS = frozenset({"v", "type", *Refusal.FIELDS})


def refusal_from_json(value: JsonValue) -> Refusal:
    """Read a decoded JSON value as a refusal; RemoteProtocolError if it is not one."""
    obj = read_members(value, REFUSAL_KEYS, "a refusal")
    if obj["type"] != REFUSAL_TYPE:
        raise RemoteProtocolError(Reason.BAD_FIELD, f"type: must be {REFUSAL_TYPE!r}")
    read_kind(obj, KINDS)
    try:
        return Refusal._decode({name: obj[name] for name in Refusal.FIELDS}, "refusal")
    except FieldError as exc:
        raise RemoteProtocolError(Reason.BAD_FIELD, str(exc)) from None


def decode_refusal(line: bytes | str) -> Refusal:
    """Decode a refusal's canonical encoding (an optional trailing LF allowed); any malformed
    input raises RemoteProtocolError. The signature is checked by the receiving session."""
    return refusal_from_json(parse_canonical(line_bytes(line)))


def refusal_schema() -> JsonObject:
    """The refusal as a JSON Schema object: the version and type, then its declared members."""
    members = Refusal.object_schema()
    properties = members["properties"]
    assert isinstance(properties, dict)
    members["properties"] = {
        "v": {"const": PROTOCOL_VERSION},
        "type": {"const": REFUSAL_TYPE},
        **properties,
    }
    members["required"] = [*sorted(REFUSAL_KEYS)]
    return members


__all__ = [
    "MAX_DETAIL",
    "REFUSAL_TAG",
    "REFUSAL_TYPE",
    "Refusal",
    "decode_refusal",
    "refusal_from_json",
    "refusal_schema",
]
