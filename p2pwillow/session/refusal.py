"""The sequencer's refusal: the signed message that tells a player its entry was not sequenced.

Pure; no I/O. A refusal is not a ledger entry and never enters the transcript (SPEC 7.1).
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pwillow.ledger.canonical import (
    MAX_SAFE_INTEGER,
    JsonObject,
    JsonValue,
    dump_checked,
    is_hex,
    parse_canonical,
)
from p2pwillow.ledger.entry import GAME_ID_BYTES, MAX_SEAT, PROTOCOL_VERSION, AuthoredEntry
from p2pwillow.ledger.errors import LocalProtocolError, Reason, RemoteProtocolError
from p2pwillow.ledger.identity import SIGNATURE_BYTES, Identity, verify_signature
from p2pwillow.ledger.kinds import KINDS
from p2pwillow.ledger.schema import REFUSAL_MAX_DETAIL, REFUSAL_SCHEMA

REFUSAL_TAG = b"p2pwillow/v1/refusal\x00"
"""Domain tag of the sequencer's signature over a refusal (SPEC 7.1)."""

REFUSAL_TYPE = REFUSAL_SCHEMA
MAX_DETAIL = REFUSAL_MAX_DETAIL

REFUSAL_KEYS = frozenset(
    {"v", "type", "game", "hand", "sequencer", "head", "author", "kind", "sig", "reason"}
    | {"detail", "countersig"}
)


@dataclass(frozen=True, slots=True)
class Refusal:
    """The sequencer `sequencer` refused the authored entry `sig` (of `kind`, by `author`)
    when its head was `head`, for `reason` (SPEC 6.11) with a human-readable `detail`."""

    game: bytes
    hand: int
    sequencer: int
    head: int
    author: int
    kind: str
    sig: bytes
    reason: Reason
    detail: str
    countersig: bytes

    def __post_init__(self) -> None:
        if not isinstance(self.game, bytes) or len(self.game) != GAME_ID_BYTES:
            raise LocalProtocolError(f"a game id is {GAME_ID_BYTES} bytes")
        for name in ("hand", "head"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise LocalProtocolError(f"a refusal's {name} is an integer")
            if not 0 <= value <= MAX_SAFE_INTEGER:
                raise LocalProtocolError(f"a refusal's {name} is >= 0")
        for name in ("sequencer", "author"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SEAT:
                raise LocalProtocolError(f"a refusal's {name} is a seat 0..{MAX_SEAT}")
        if self.kind not in KINDS:
            raise LocalProtocolError(f"{self.kind!r} is not an entry kind")
        for sig in (self.sig, self.countersig):
            if not isinstance(sig, bytes) or len(sig) != SIGNATURE_BYTES:
                raise LocalProtocolError("a signature is 64 bytes")
        if not isinstance(self.reason, Reason):
            raise LocalProtocolError(f"{self.reason!r} is not a rejection reason")
        if not isinstance(self.detail, str) or len(self.detail) > MAX_DETAIL:
            raise LocalProtocolError(f"a refusal's detail is text of at most {MAX_DETAIL}")

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
        text = detail[:MAX_DETAIL]
        unsigned = cls(
            refused.game,
            refused.hand,
            sequencer,
            head,
            refused.author,
            refused.kind,
            refused.sig,
            reason,
            text,
            bytes(SIGNATURE_BYTES),
        )
        return cls(
            refused.game,
            refused.hand,
            sequencer,
            head,
            refused.author,
            refused.kind,
            refused.sig,
            reason,
            text,
            identity.sign(unsigned.sequencer_message()),
        )

    def _signed_part(self) -> JsonObject:
        return {
            "v": PROTOCOL_VERSION,
            "type": REFUSAL_TYPE,
            "game": self.game.hex(),
            "hand": self.hand,
            "sequencer": self.sequencer,
            "head": self.head,
            "author": self.author,
            "kind": self.kind,
            "sig": self.sig.hex(),
            "reason": self.reason.value,
            "detail": self.detail,
        }

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


def _int(obj: JsonObject, key: str, hi: int) -> int:
    value = obj[key]
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= hi:
        raise RemoteProtocolError(Reason.BAD_FIELD, f"refusal {key}: an integer 0..{hi}")
    return value


def _hex(obj: JsonObject, key: str, size: int) -> bytes:
    value = obj[key]
    if not is_hex(value, 2 * size):
        raise RemoteProtocolError(
            Reason.BAD_FIELD, f"refusal {key}: {2 * size} lowercase hex digits"
        )
    assert isinstance(value, str)
    return bytes.fromhex(value)


def refusal_from_json(value: JsonValue) -> Refusal:
    """Read a decoded JSON value as a refusal; RemoteProtocolError if it is not one."""
    if not isinstance(value, dict):
        raise RemoteProtocolError(Reason.BAD_FIELD, "a refusal is a JSON object")
    if "v" in value and (type(value["v"]) is not int or value["v"] != PROTOCOL_VERSION):
        raise RemoteProtocolError(Reason.BAD_VERSION, "refusal of another protocol version")
    missing = sorted(REFUSAL_KEYS - set(value))
    extra = sorted(set(value) - REFUSAL_KEYS)
    if missing or extra:
        raise RemoteProtocolError(
            Reason.BAD_FIELD, f"refusal fields: missing {missing}, unknown {extra}"
        )
    if value["type"] != REFUSAL_TYPE:
        raise RemoteProtocolError(Reason.BAD_FIELD, "refusal type must be 'refusal'")
    kind = value["kind"]
    if not isinstance(kind, str) or kind not in KINDS:
        raise RemoteProtocolError(Reason.UNKNOWN_KIND, f"refusal of kind {str(kind)[:40]!r}")
    text = value["reason"]
    if not isinstance(text, str) or text not in {r.value for r in Reason}:
        raise RemoteProtocolError(Reason.BAD_FIELD, "refusal reason is not a reason (6.11)")
    reason = Reason(text)
    detail = value["detail"]
    if not isinstance(detail, str) or len(detail) > MAX_DETAIL:
        raise RemoteProtocolError(Reason.BAD_FIELD, f"refusal detail: text of <= {MAX_DETAIL}")
    return Refusal(
        game=_hex(value, "game", GAME_ID_BYTES),
        hand=_int(value, "hand", MAX_SAFE_INTEGER),
        sequencer=_int(value, "sequencer", MAX_SEAT),
        head=_int(value, "head", MAX_SAFE_INTEGER),
        author=_int(value, "author", MAX_SEAT),
        kind=kind,
        sig=_hex(value, "sig", SIGNATURE_BYTES),
        reason=reason,
        detail=detail,
        countersig=_hex(value, "countersig", SIGNATURE_BYTES),
    )


def decode_refusal(line: bytes | str) -> Refusal:
    """Decode a refusal's canonical encoding (an optional trailing LF allowed); any malformed
    input raises RemoteProtocolError. The signature is checked by the receiving session."""
    if isinstance(line, str):
        line = line.encode("utf-8", "surrogatepass")
    if isinstance(line, bytes | bytearray | memoryview):
        raw = bytes(line)
        raw = raw[:-1] if raw.endswith(b"\n") else raw
        return refusal_from_json(parse_canonical(raw))
    raise RemoteProtocolError(Reason.MALFORMED, f"expected bytes, not {type(line).__name__}")


__all__ = [
    "MAX_DETAIL",
    "REFUSAL_TAG",
    "Refusal",
    "decode_refusal",
    "refusal_from_json",
]
