"""The lobby's messages and the table they form: who sits where, with which keys, at which
address (SPEC 8.9).

Pure; no I/O. Each message is one `Value` dataclass declared once (its checks, JSON and schema
follow from the declaration); `decode_lobby` reads one from a peer's `lobby` frame and turns
anything malformed into one WireError. A `Roster` is what the host sends everyone so that the
full mesh forms; a `Seating` is a formed table: the roster, this node's seat and the genesis.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar, TypeVar

from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.canonical import JsonObject, JsonValue, dump_checked, parse_canonical
from p2pwillow.ledger.chain import Ledger
from p2pwillow.ledger.entry import GAME_ID_BYTES, Entry, entry_from_json
from p2pwillow.ledger.errors import RemoteProtocolError
from p2pwillow.ledger.fields import (
    AnyObject,
    FieldError,
    Hex,
    Int,
    ListOf,
    OneOf,
    RecordOf,
    Text,
    Value,
    record,
    spec,
)
from p2pwillow.ledger.schema import DIALECT, ID_PREFIX
from p2pwillow.net.errors import WireError, WireReason
from p2pwillow.net.keys import CurveKeyPair, KeyStatement
from p2pwillow.net.wire import LobbyFrame
from p2pwillow.rules import ConfigError, TableConfig

MAX_HANDS = 10_000
"""The most hands a host may set for a game (`hands`; 0: no limit)."""
PORT = Int(1, 65535)
ADDRESS = Text(2, 45)
CURVE_KEY = Hex("a CURVE key", 64)
KEY_SIG = Hex("a signature", 128)
GAME_ID = Hex("a game id", 2 * GAME_ID_BYTES)

L = TypeVar("L", bound="LobbyMessage")


class LobbyMessage(Value):
    """A lobby message; each kind is a subclass registered under its `KIND` (SPEC 8.9)."""

    __slots__ = ()
    KIND: ClassVar[str] = ""

    def frame(self) -> LobbyFrame:
        return LobbyFrame(self.KIND, dump_checked(self.to_json()))


LOBBY_KINDS: dict[str, type[LobbyMessage]] = {}


def lobby_kind(cls: type[L]) -> type[L]:
    """Class decorator: a lobby message kind named by the class's KIND."""
    record(cls)
    if cls.KIND in LOBBY_KINDS:
        raise TypeError(f"lobby kind {cls.KIND!r} declared twice")
    LOBBY_KINDS[cls.KIND] = cls
    return cls


@lobby_kind
@dataclass(frozen=True, slots=True)
class Sit(LobbyMessage):
    """Guest to host, after its hello: "seat me; my ROUTER listens on `port`"."""

    KIND: ClassVar[str] = "sit"
    port: int = spec(PORT)


@lobby_kind
@dataclass(frozen=True, slots=True)
class Welcome(LobbyMessage):
    """Host to guest: the guest has seat `seat` (the roster follows)."""

    KIND: ClassVar[str] = "welcome"
    seat: int = spec(k.SEAT)


@lobby_kind
@dataclass(frozen=True, slots=True)
class Joining(LobbyMessage):
    """Host to a newcomer, after the genesis: it holds seat `seat` of the game under way once
    its `join` is in the chain (the roster that follows is the table as it is now)."""

    KIND: ClassVar[str] = "joining"
    seat: int = spec(k.SEAT)


REFUSALS = ("table-full", "game-started", "name-taken", "bad-hello", "game-over")


@lobby_kind
@dataclass(frozen=True, slots=True)
class Refused(LobbyMessage):
    """Host to guest: it is not seated under the name `name` it said hello with, and why."""

    KIND: ClassVar[str] = "refused"
    reason: str = spec(OneOf(*REFUSALS))
    name: str = spec(k.PLAYER_NAME)
    detail: str = spec(k.REASON)


@lobby_kind
@dataclass(frozen=True, slots=True)
class Stand(LobbyMessage):
    """Guest to host, before the genesis: it leaves the table it was seated at."""

    KIND: ClassVar[str] = "stand"


@lobby_kind
@dataclass(frozen=True, slots=True)
class Closed(LobbyMessage):
    """Host to guests, before the genesis: the host closed the table."""

    KIND: ClassVar[str] = "closed"
    detail: str = spec(k.REASON)


@record
@dataclass(frozen=True, slots=True)
class RosterPlayer(Value):
    """One seat of the roster: the player's name, identity key, CURVE key statement (SPEC
    8.5) and the address of its node's ROUTER."""

    seat: int = spec(k.SEAT)
    name: str = spec(k.PLAYER_NAME)
    identity_key: str = spec(k.IDENTITY_KEY)
    curve_key: str = spec(CURVE_KEY)
    key_sig: str = spec(KEY_SIG)
    host: str = spec(ADDRESS)
    port: int = spec(PORT)

    def check(self) -> None:
        try:
            ipaddress.ip_address(self.host)
        except ValueError:
            raise FieldError("host", "must be an IPv4 or IPv6 address") from None

    @property
    def statement(self) -> KeyStatement:
        """The player's CURVE key statement; WireError(bad-key-statement) if it does not
        verify."""
        return KeyStatement(
            bytes.fromhex(self.identity_key),
            bytes.fromhex(self.curve_key),
            bytes.fromhex(self.key_sig),
        )

    @property
    def curve(self) -> bytes:
        return bytes.fromhex(self.curve_key)

    @classmethod
    def of(
        cls, seat: int, name: str, statement: KeyStatement, host: str, port: int
    ) -> RosterPlayer:
        return cls(
            seat=seat,
            name=name,
            identity_key=statement.identity_key.hex(),
            curve_key=statement.curve_key.hex(),
            key_sig=statement.sig.hex(),
            host=host,
            port=port,
        )


@lobby_kind
@dataclass(frozen=True, slots=True)
class Roster(LobbyMessage):
    """Host to every guest: the table as it is now. `serial` grows with every change; `hands`
    is the number of hands the game lasts (0: until fewer than two players have chips)."""

    KIND: ClassVar[str] = "roster"
    serial: int = spec(Int(0, 2**31))
    game: str = spec(GAME_ID)
    table: str = spec(k.TABLE_NAME)
    config: Mapping[str, JsonValue] = spec(AnyObject(), hash=False)
    hands: int = spec(Int(0, MAX_HANDS))
    players: Sequence[RosterPlayer] = spec(
        ListOf(RecordOf(RosterPlayer), 1, k.MAX_SEATS, increasing_by="seat")
    )

    def check(self) -> None:
        for what in ("identity_key", "curve_key"):
            keys = [getattr(p, what) for p in self.players]
            if len(set(keys)) != len(keys):
                raise FieldError("players", f"two seats hold the same {what.replace('_', ' ')}")
        try:
            config = TableConfig.from_dict(self.config)
        except ConfigError as exc:
            raise FieldError("config", str(exc)) from None
        if len(self.players) > config.seats:
            raise FieldError("players", f"more players than the table's {config.seats} seats")

    @property
    def table_config(self) -> TableConfig:
        return TableConfig.from_dict(self.config)

    @property
    def game_id(self) -> bytes:
        return bytes.fromhex(self.game)

    def player(self, seat: int) -> RosterPlayer | None:
        for p in self.players:
            if p.seat == seat:
                return p
        return None

    def seat_of(self, curve_key: bytes) -> int | None:
        for p in self.players:
            if p.curve == curve_key:
                return p.seat
        return None

    def genesis_players(self) -> list[tuple[int, str, bytes]]:
        """(seat, name, identity key) of every player, as `make_genesis` takes them."""
        return [(p.seat, p.name, bytes.fromhex(p.identity_key)) for p in self.players]

    def matches(self, genesis: Entry, *, players: bool = True) -> str | None:
        """Why `genesis` is not the genesis of this table, or None if it is: this game, the
        host's own entry, and exactly these players (unless `players` is False: the roster of
        a table joined after its genesis, SPEC 8.9) and settings."""
        body = genesis.body
        if not isinstance(body, k.Genesis) or genesis.seq != 0:
            return "entry 0 is not a genesis"
        if genesis.game != self.game_id:
            return "the genesis is of another game"
        if genesis.author != self.players[0].seat:
            return f"the genesis is not the host's (seat {self.players[0].seat})"
        named = [(p.seat, p.name, p.identity_key) for p in body.players]
        if players and named != [(p.seat, p.name, p.identity_key) for p in self.players]:
            return "the genesis names other players than the roster"
        if dict(body.config) != dict(self.config) or body.name != self.table:
            return "the genesis has other table settings than the roster"
        return None


@lobby_kind
@dataclass(frozen=True, slots=True)
class Newcomer(LobbyMessage):
    """Host to every seated player, after the genesis: a newcomer holds `player`'s seat from
    the next hand once its `join` is in the chain; pin its key and dial its ROUTER."""

    KIND: ClassVar[str] = "newcomer"
    game: str = spec(GAME_ID)
    player: RosterPlayer = spec(RecordOf(RosterPlayer))  # noqa: RUF009 - a field, not a default

    @property
    def game_id(self) -> bytes:
        return bytes.fromhex(self.game)


def lobby_schemas() -> dict[str, JsonObject]:
    """The JSON Schema (draft 2020-12) of every lobby message's payload, by kind: what
    protocol/schemas/wire/lobby/*.json hold (SPEC 8.9)."""
    out: dict[str, JsonObject] = {}
    for kind, cls in sorted(LOBBY_KINDS.items()):
        doc = (cls.__doc__ or "").split("\n\n")[0].replace("\n", " ").strip()
        out[kind] = {
            "$schema": DIALECT,
            "$id": f"{ID_PREFIX}wire:lobby:{kind}",
            "title": f"lobby message {kind}",
            "description": f"The payload line of a lobby frame of kind {kind} (SPEC 8.9): {doc}",
            **cls.object_schema(),
        }
    return out


def decode_lobby(frame: LobbyFrame) -> LobbyMessage:
    """Read a lobby message from a peer: WireError(bad-item) naming what is wrong, or, for a
    roster whose key statements do not verify, WireError(bad-key-statement). A kind this
    version does not know is WireError(unknown-type); the caller ignores it (SPEC 8.2)."""
    cls = LOBBY_KINDS.get(frame.kind)
    if cls is None:
        raise WireError(WireReason.UNKNOWN_TYPE, f"unknown lobby message {frame.kind!r}")
    try:
        value = parse_canonical(frame.payload)
        message = cls._decode(value, frame.kind)
    except RemoteProtocolError as exc:
        raise WireError(WireReason.BAD_ITEM, f"{frame.kind}: {exc}") from None
    except FieldError as exc:
        raise WireError(WireReason.BAD_ITEM, str(exc)) from None
    if isinstance(message, Roster):
        for p in message.players:
            p.statement  # noqa: B018 - each statement must verify (WireError if not)
    elif isinstance(message, Newcomer):
        message.player.statement  # noqa: B018 - the statement must verify (WireError if not)
    return message


_OPTIONAL = frozenset({"late", "newcomers"})
"""Members of a kept seating present only when they say something."""


@dataclass(frozen=True, slots=True)
class Seating:
    """A formed table as one node sees it: the roster, its own seat, and the genesis (entry 0)
    whose players are the roster's. What a node needs to play, and to find its peers again."""

    roster: Roster
    seat: int
    genesis: Entry
    late: bool = False
    """The node joined after the genesis (SPEC 8.9): the roster is the table as it was then,
    and the genesis need not name its players; the seat is the node's once its `join` is in
    the chain."""
    newcomers: tuple[RosterPlayer, ...] = ()
    """Players seated after the roster, as the host announced them (SPEC 8.9), one per seat,
    the latest: a node taking its seat again (8.10) pins and dials the ones its chain seats."""

    def with_newcomer(self, player: RosterPlayer) -> Seating:
        """This seating knowing `player` too (any newcomer of its seat before it forgotten)."""
        kept = tuple(p for p in self.newcomers if p.seat != player.seat)
        return replace(self, newcomers=tuple(sorted((*kept, player), key=lambda p: p.seat)))

    def __post_init__(self) -> None:
        if self.roster.player(self.seat) is None:
            raise ValueError(f"seat {self.seat} is not in the roster")
        why = self.roster.matches(self.genesis, players=not self.late)
        if why is not None:
            raise ValueError(why)

    @property
    def me(self) -> RosterPlayer:
        player = self.roster.player(self.seat)
        assert player is not None
        return player

    @property
    def others(self) -> tuple[RosterPlayer, ...]:
        return tuple(p for p in self.roster.players if p.seat != self.seat)

    def encode(self) -> bytes:
        """The seating as one canonical JSON object (kept in the store, SPEC 8.9)."""
        kept: JsonObject = {
            "v": 1,
            "seat": self.seat,
            "roster": self.roster.to_json(),
            "genesis": self.genesis.to_json(),
        }
        if self.late:
            kept["late"] = True
        if self.newcomers:
            kept["newcomers"] = [p.to_json() for p in self.newcomers]
        return dump_checked(kept)

    @classmethod
    def decode(cls, data: bytes) -> Seating:
        """Read a seating kept by `encode` (a node's table.json, SPEC 8.9); ValueError naming
        what is wrong. The roster's key statements and the genesis's signature are checked."""
        try:
            value = parse_canonical(data)
        except RemoteProtocolError as exc:
            raise ValueError(f"not canonical JSON ({exc})") from None
        members = {"v", "seat", "roster", "genesis"}
        if not isinstance(value, dict) or not members <= set(value) <= {*members, *_OPTIONAL}:
            raise ValueError(
                "not a seating (v, seat, roster, genesis; late and newcomers if there are)"
            )
        seat, late = value["seat"], value.get("late", False)
        if value["v"] != 1 or type(seat) is not int or (late is not True and "late" in value):
            raise ValueError("a seating of another version, or without a seat number")
        try:
            roster = Roster._decode(value["roster"], "roster")
            genesis = entry_from_json(value["genesis"])
            listed = value.get("newcomers", [])
            if not isinstance(listed, list) or (not listed and "newcomers" in value):
                raise ValueError("newcomers is a list of one or more players")
            newcomers = tuple(
                RosterPlayer._decode(p, f"newcomers[{n}]") for n, p in enumerate(listed)
            )
            seats = [p.seat for p in newcomers]
            if seats != sorted(set(seats)):
                raise ValueError("newcomers are listed by seat, one per seat")
            for p in (*roster.players, *newcomers):
                p.statement  # noqa: B018 - each statement must verify (WireError if not)
            Ledger().append(genesis)  # the host's signature on it
        except FieldError as exc:
            raise ValueError(str(exc)) from None
        except (RemoteProtocolError, WireError) as exc:
            raise ValueError(str(exc)) from None
        return cls(roster, seat, genesis, late=late is True, newcomers=newcomers)

    def holds(self, keys: CurveKeyPair) -> bool:
        """This node's CURVE key is the one its roster seat names."""
        return self.me.curve == keys.public


__all__ = [
    "LOBBY_KINDS",
    "MAX_HANDS",
    "REFUSALS",
    "Closed",
    "Joining",
    "LobbyMessage",
    "Newcomer",
    "Refused",
    "Roster",
    "RosterPlayer",
    "Seating",
    "Sit",
    "Stand",
    "Welcome",
    "decode_lobby",
    "lobby_schemas",
]
