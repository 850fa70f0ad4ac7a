"""Forming a table (SPEC 8.9): the host binds and waits for guests; each guest says hello
(name, identity key, CURVE key statement) and where it listens; the host seats it and sends
the roster to everyone, so that every node dials every other; when the table is full (or the
host starts it) the host writes the genesis.

Does network I/O on asyncio through `transport`. The messages and the roster are `roster`'s
(pure); what happens after the genesis is `node`'s. Every failure a person can cause is one
`LobbyError` naming it, with a `reason` the command line turns into an exit code.
"""

# How a table forms
# -----------------
# The host's ROUTER opens its door (`accept_unpinned`): an unknown key may connect, and the
# host reads nothing from it but a hello and a `sit`. It seats the guest (the lowest free
# seat), pins its key, dials the guest's ROUTER back and sends its own hello, a `welcome` and
# the roster; every change of the roster goes to every guest. ZeroMQ drops what a DEALER
# cannot send yet (a connection still being made), so every lobby message is sent again each
# RESEND seconds until it has done its work: a guest repeats its hello until it is welcomed
# or refused, the host repeats the roster until the genesis. Guests keep their door open in
# the lobby too but read only the host's frames there; each pins every key of the roster and
# dials every other guest. The genesis travels as an ordinary `entries` frame; a guest checks
# it against the roster it holds (the players, their keys, the settings) and the table is
# formed. From then on only seated keys are let in anywhere, and the host's door stays open:
# a newcomer says hello and sits as in the lobby, the host gives it a seat free in its chain
# and hands it to its node (`tick`), which tells every seated node of it (a `newcomer`
# message) and greets it with the table as it is now (`greeting`): a roster of the players
# seated now and the newcomer, and the genesis. The newcomer watches until its `join` is in
# the chain (SPEC 8.9, "Joining after the genesis").

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import enum
import ipaddress
import os
import time
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from p2pwillow.crypto.group import Rng
from p2pwillow.ledger.chain import Ledger
from p2pwillow.ledger.entry import GAME_ID_BYTES, Entry
from p2pwillow.ledger.errors import RemoteProtocolError
from p2pwillow.net.discovery import Advertiser, JoinCode, TableAd, lan_addresses
from p2pwillow.net.doorbell import answer, ring
from p2pwillow.net.errors import WireError
from p2pwillow.net.keys import CurveKeyPair, KeyStatement
from p2pwillow.net.roster import (
    Closed,
    Joining,
    LobbyMessage,
    Newcomer,
    Refused,
    Roster,
    RosterPlayer,
    Seating,
    Sit,
    Stand,
    Welcome,
    decode_lobby,
)
from p2pwillow.net.transport import (
    DOOR_BUSY,
    DOOR_OK,
    ConnectionState,
    Received,
    Transport,
    TransportError,
)
from p2pwillow.net.wire import EntriesFrame, HelloFrame, LobbyFrame, decode_frame, encode_frame
from p2pwillow.rules import TableConfig
from p2pwillow.session import make_genesis
from p2pwillow.store import NodeKeys

RESEND = 0.5
"""Seconds between repeats of a lobby message that has not done its work yet."""
CONNECT_WITHIN = 8.0
"""A guest gives up on a host it cannot reach (or that holds another key) after this long."""
ANSWER_WITHIN = 10.0
"""A host that let the guest in must welcome or refuse it within this long."""
HOST_SILENT = 20.0
"""A guest that has heard nothing from its host for this long stops waiting."""
MAX_PENDING = 16
"""The door keeps at most this many newcomers pending at once (let in by its ZAP handler,
heard from or dialled back, not yet seated or turned away); more are told it is busy."""
MAX_PENDING_PER_ADDRESS = 4
"""... and at most this many from one source address."""
PENDING_WITHIN = 10.0
"""A pending newcomer not seated or turned away this long after it was let in is dropped:
its dial-back is closed (a guest repeats its hello every RESEND)."""
DIAL_BACK_WITHIN = 5.0
"""A dial-back to a guest that has not connected this long after it was made is closed."""
BUSY_WITHIN = 30.0
"""A guest whose host's door stays busy (or that cannot finish its handshake with a host
that answers at the TCP level) this long gives up: the table is busy, try again."""

Say = Callable[[str], None]


def _quiet(text: str) -> None:
    pass


class LobbyFailure(enum.Enum):
    """Why a table could not be formed or joined; the command line gives each an exit code."""

    UNREACHABLE = "unreachable"
    WRONG_KEY = "wrong-key"
    TABLE_FULL = "table-full"
    NAME_TAKEN = "name-taken"
    GAME_STARTED = "game-started"
    PORT_IN_USE = "port-in-use"
    BAD_CODE = "bad-code"
    NO_TABLE = "no-table"
    HOST_LEFT = "host-left"
    REFUSED = "refused"
    GAME_OVER = "game-over"
    NO_ADDRESS = "no-address"
    BUSY = "busy"


class LobbyError(Exception):
    """The table cannot be formed or joined: `str()` is one line saying what and why."""

    def __init__(self, reason: LobbyFailure, message: str) -> None:
        self.reason = reason
        super().__init__(message)


def keys_pair(keys: NodeKeys) -> CurveKeyPair:
    return CurveKeyPair(keys.curve_public, keys.curve_secret)


def statement_of(keys: NodeKeys) -> KeyStatement:
    return KeyStatement.create(keys.identity, keys.curve_public)


def same_name(a: str, b: str) -> bool:
    return a.strip().casefold() == b.strip().casefold()


async def start_transport(
    keys: NodeKeys, address: str, port: int, *, doorbell: bool = False
) -> Transport:
    """This node's transport, bound on address:port with its door open (the lobby), and with
    `doorbell` answering guests who ring with a join code (SPEC 8.6): a host's.
    LobbyError(port-in-use) if it cannot listen there."""
    transport = Transport(
        keys_pair(keys),
        host=address,
        port=port,
        accept_unpinned=True,
        doorbell=answer(statement_of(keys)) if doorbell else None,
    )
    try:
        await transport.start()
    except TransportError as exc:
        if exc.no_address:
            raise LobbyError(LobbyFailure.NO_ADDRESS, not_here(address)) from None
        raise LobbyError(LobbyFailure.PORT_IN_USE, str(exc)) from None
    return transport


def not_here(address: str) -> str:
    """The line for an address to listen on that this machine does not have."""
    mine = lan_addresses()
    have = f"its addresses are {', '.join(mine)}" if mine else "it has no LAN address"
    return (
        f"{address} is not an address of this machine ({have}); "
        "leave out --address to use the one it goes out of"
    )


def _decode(r: Received) -> HelloFrame | LobbyFrame | EntriesFrame | None:
    """The frames the lobby reads; anything else, or anything malformed, is None."""
    try:
        frame = decode_frame(r.data)
    except WireError:
        return None
    return frame if isinstance(frame, HelloFrame | LobbyFrame | EntriesFrame) else None


def _message(frame: LobbyFrame) -> LobbyMessage | None:
    try:
        return decode_lobby(frame)
    except WireError:
        return None


async def _recv(transport: Transport, timeout: float) -> Received | None:
    try:
        return await asyncio.wait_for(transport.recv(), timeout)
    except TimeoutError:
        return None


@dataclass(frozen=True, slots=True)
class TablePlan:
    """What a host decides: the table's name and settings, and how many hands the game lasts
    (0: until fewer than two players have chips)."""

    name: str
    config: TableConfig
    hands: int = 0
    start_with: int = 0
    """Start the game once this many players are seated (the host included; the other seats
    are taken between hands, SPEC 8.9); 0: once every seat is taken."""
    arbiter: str | None = None
    """The name of the player to be the table's arbiter (SPEC 3.14); None: the host. Its seat
    goes into the table config when the table is formed."""

    def __post_init__(self) -> None:
        if self.start_with and not 2 <= self.start_with <= self.config.seats:
            raise ValueError(
                f"a table of {self.config.seats} seats starts with 2 to {self.config.seats} "
                f"players, not {self.start_with}"
            )

    @property
    def starts_with(self) -> int:
        """The players seated when the game starts (unless the host starts it earlier)."""
        return self.start_with or self.config.seats


# --- the host --------------------------------------------------------------------------------


@dataclass(slots=True)
class _Guest:
    name: str
    statement: KeyStatement
    address: str
    seat: int | None = None
    port: int = 0
    refused: Refused | None = None
    refusals_sent: int = 0
    sent_at: float = float("-inf")
    since: float = field(default_factory=time.monotonic)
    """When it said hello first."""
    dialled: float = float("inf")
    """When the host dialled it back."""


def _in_background(work: Coroutine[Any, Any, object]) -> None:
    """Run `work` on the loop without waiting for it. What it raises is taken and dropped:
    advertising is a convenience (the join code always works), never a reason to stop."""
    asyncio.ensure_future(work).add_done_callback(_taken)


def _taken(task: asyncio.Future[object]) -> None:
    if not task.cancelled():
        task.exception()


class HostLobby:
    """The host's side of forming a table: `open()` binds and says the join code, `seat()`
    seats guests until the table is full, or as many as the plan starts with are seated (or
    `start_now()` with two or more players), and returns the seating with the genesis made.
    The host takes seat 0."""

    def __init__(
        self,
        keys: NodeKeys,
        name: str,
        plan: TablePlan,
        *,
        address: str,
        port: int = 0,
        advertise: bool = False,
        rng: Rng = os.urandom,
        say: Say = _quiet,
    ) -> None:
        ipaddress.ip_address(address)  # ValueError for a name: the join code holds an address
        self.keys = keys
        self.name = name
        self.plan = plan
        self.address = address
        self._port = port
        self._advertise = advertise
        self._rng = rng
        self._say = say
        self._statement = statement_of(keys)
        self._guests: dict[bytes, _Guest] = {}
        self._heard: set[bytes] = set()
        """Newcomers seated after the genesis that the node has heard from as peers (`heard`):
        a seat promised to one not heard from yet may be free again soon."""
        self._let_in: dict[bytes, tuple[str, float]] = {}
        """Unpinned keys the door let in (its ZAP handler), not yet guests: key -> (source
        address, when); with the guests not yet seated, the door's pending newcomers."""
        self._serial = 0
        self._game = bytes(GAME_ID_BYTES)
        self._formed = False
        self._seated_at_genesis: list[_Guest] = []
        self._genesis: Entry | None = None
        self._players: dict[int, RosterPlayer] = {}
        """After the genesis: every seat's player as this door last seated it (its address)."""
        self._table: dict[int, tuple[str, str]] = {}
        """After the genesis: the seats held in the host's chain: seat -> (name, identity)."""
        self._game_open = True
        self._late: dict[bytes, RosterPlayer] = {}
        """Newcomers seated after the genesis whose `join` is not in the chain yet."""
        self._handed: list[RosterPlayer] = []
        """Newcomers seated since the node last took them (`tick`)."""
        self._chain_known = True
        """After the genesis: the node has said which seats its chain holds (`table_now`); a
        door opened again after a crash reads no hello before that."""
        self._advertise_later = False
        """Opened again after a crash: advertise once the chain shows seats free (SPEC 8.7)."""
        self._start = asyncio.Event()
        self._advertiser: Advertiser | None = None
        self.transport: Transport | None = None
        self.join_code: JoinCode | None = None

    @classmethod
    def reopen(
        cls,
        keys: NodeKeys,
        seating: Seating,
        transport: Transport,
        *,
        advertise: bool = False,
        say: Say = _quiet,
    ) -> HostLobby:
        """The door of a host taking its seat again after a crash (SPEC 8.10): the table as
        its `table.json` keeps it (the plan in its roster and genesis, the players with their
        addresses, the newcomers it announced), on `transport` (started on the roster's port,
        the door open), so that the join code said at the start seats newcomers as before.
        The seats it gives are those free in the chain the node restores (`table_now`)."""
        roster = seating.roster
        me = seating.me
        plan = TablePlan(roster.table, roster.table_config, roster.hands)
        door = cls(keys, me.name, plan, address=me.host, port=me.port, say=say)
        door.transport = transport
        transport.door = door.door
        door.join_code = JoinCode.of(me.host, transport.port, door._statement)
        door._game = seating.genesis.game
        door._serial = roster.serial + len(seating.newcomers)
        door._genesis = seating.genesis
        door._players = {p.seat: p for p in (*roster.players, *seating.newcomers)}
        door._formed = True
        door._chain_known = False
        door._advertise_later = advertise
        return door

    @property
    def seated(self) -> list[_Guest]:
        guests = [*self._guests.values(), *self._seated_at_genesis]
        return sorted((g for g in guests if g.seat is not None), key=_seat_key)

    @property
    def players(self) -> int:
        return 1 + len(self.seated)

    async def open(self) -> JoinCode:
        """Bind the ROUTER (door open) and advertise; the code a guest pastes to join."""
        self.transport = await start_transport(self.keys, self.address, self._port, doorbell=True)
        self.transport.door = self.door
        self.join_code = JoinCode.of(self.address, self.transport.port, self._statement)
        if self._advertise:
            await self._start_advertising()
        return self.join_code

    async def _start_advertising(self) -> None:
        """Advertise the table with the seats free now; one line if the LAN will not have it."""
        assert self.transport is not None
        ad = TableAd(self.plan.name, self._free(), self._statement, host_name=self.name)
        advertiser = Advertiser(ad, self.transport.port, [self.address])
        try:
            await advertiser.start()
        except (OSError, RuntimeError) as exc:
            self._say(f"the table is not advertised on the LAN ({exc}); share the join code")
            return
        if not self._game_open:  # the game ended while it started
            await advertiser.close()
            return
        self._advertiser = advertiser

    def _free(self) -> int:
        return len(self._free_seats())

    @property
    def seats_free(self) -> int:
        """Seats no player holds (after the genesis: in the host's chain) or is promised."""
        return self._free()

    def start_now(self) -> None:
        """Form the table with the players seated now (at least two)."""
        self._start.set()

    async def seat(self) -> Seating:
        """Seat guests until the table is formed; the seating, with the genesis made."""
        transport = self.transport
        assert transport is not None, "open() first"
        while True:
            if self.players >= self.plan.starts_with or (
                self._start.is_set() and self.players >= 2
            ):
                return self._form(transport)
            if self._start.is_set():
                self._start.clear()
                self._say("a table needs at least two players: waiting for one more")
            r = await _recv(transport, RESEND / 2)
            if r is not None:
                self._take(transport, r)
            self._resend(transport)

    async def close(self) -> None:
        """Tell the guests the table is closed (before the genesis) and stop advertising."""
        if self.transport is not None:
            closed = Closed(detail="the host closed the table")
            for key, guest in self._guests.items():
                if guest.seat is not None:
                    self.transport.send(key, encode_frame(closed.frame()))
        await self.stop_advertising()

    async def stop_advertising(self) -> None:
        if self._advertiser is not None:
            advertiser, self._advertiser = self._advertiser, None
            with contextlib.suppress(Exception):
                await advertiser.close()

    # --- the door's limits (SPEC 8.9, "The door's limits") -------------------------------------

    def door(self, key: bytes, address: str) -> int:
        """The ZAP handler's word on an unpinned key connecting from `address`: let in while
        fewer than MAX_PENDING newcomers are pending (MAX_PENDING_PER_ADDRESS from one
        address), else busy (a 300: the guest tries again, and is told the table is busy if
        it stays so)."""
        now = time.monotonic()
        self._expire(now)
        if key in self._guests or key in self._late or key in self._let_in:
            return DOOR_OK  # a reconnect of a newcomer the door knows
        pending = self._pending()
        if len(pending) >= MAX_PENDING or pending.count(address) >= MAX_PENDING_PER_ADDRESS:
            return DOOR_BUSY
        self._let_in[key] = (address, now)
        return DOOR_OK

    def _pending(self) -> list[str]:
        """The source address of every pending newcomer."""
        guests = [g.address for g in self._guests.values() if g.seat is None]
        return [*guests, *(a for a, _ in self._let_in.values())]

    def _expire(self, now: float) -> None:
        """Drop the keys let in that never said hello in time, and the guests neither seated
        nor turned away in time, or whose dial-back never connected: their dial-backs closed."""
        for key, (_, at) in list(self._let_in.items()):
            if now - at > PENDING_WITHIN:
                del self._let_in[key]
        transport = self.transport
        for key, guest in list(self._guests.items()):
            if guest.seat is not None:
                continue
            late = now - guest.since > PENDING_WITHIN
            unreached = now - guest.dialled > DIAL_BACK_WITHIN and (
                transport is None or transport.state(key) is not ConnectionState.CONNECTED
            )
            if late or unreached:
                del self._guests[key]
                if transport is not None:
                    transport.disconnect(key)

    # --- taking guests -----------------------------------------------------------------------

    def at_door(self, transport: Transport, r: Received) -> None:
        """After the genesis: a frame from a key that is not seated. A newcomer says hello
        and sits as in the lobby, and is seated in a seat free in the chain, or told why not
        (SPEC 8.9)."""
        if self._chain_known:  # (a newcomer repeats its hello until it is answered)
            self._take(transport, r)

    def tick(self, transport: Transport) -> list[RosterPlayer]:
        """After the genesis: repeat the refusals on their way; the newcomers seated since
        the last tick, for the node to tell every seated player of them and to greet."""
        self._resend(transport)
        handed, self._handed = self._handed, []
        return handed

    def table_now(self, seated: Mapping[int, tuple[str, str]], *, open_: bool) -> None:
        """After the genesis: the seats the host's chain holds now (seat -> name, identity
        key hex), and whether the game goes on (`open_`). A newcomer whose `join` is in it is
        a player like any other from here on."""
        free = self._free()
        self._table = dict(seated)
        self._game_open = open_
        self._chain_known = True
        for key, player in list(self._late.items()):
            if self._table.get(player.seat, ("", ""))[1] == player.identity_key:
                del self._late[key]
        if not open_:
            self._advertise_later = False
            self._stop_soon()
        elif self._advertise_later and self._free() > 0:
            self._advertise_later = False
            self._advertise_soon()
        elif self._free() != free:
            self._update_ad()

    def expect(self, player: RosterPlayer) -> None:
        """A door opened again after a crash: `player` is a newcomer it had seated whose
        `join` is not in the chain yet (its table.json keeps it, SPEC 8.10); its seat stays
        promised to it, and the node greets it and tells the table of it as before."""
        self._late[player.curve] = self._players[player.seat] = player

    def release(self, key: bytes) -> None:
        """A newcomer whose `join` never came is dropped: its seat is free again."""
        self._heard.discard(key)
        if self._late.pop(key, None) is not None:
            self._update_ad()

    def heard(self, key: bytes) -> None:
        """The node heard from the newcomer `key` as a peer: its seat is its own until its
        join comes (or JOIN_WITHIN)."""
        if key in self._late:
            self._heard.add(key)

    def _waiting_seat(self) -> bool:
        """After the genesis, a seat is promised to a newcomer not heard from yet: it may be
        free again soon (one never heard from is dropped), so another newcomer waits for it
        (it repeats its hello) rather than being told the table is full."""
        return self._formed and any(key not in self._heard for key in self._late)

    def late_roster(self, key: bytes) -> Roster | None:
        """What a newcomer is told: the players seated in the chain now and itself, in its
        seat (SPEC 8.9); None for a key that is not a newcomer."""
        newcomer = self._late.get(key)
        if newcomer is None:
            return None
        players = [
            p
            for seat, p in sorted(self._players.items())
            if self._table.get(seat, ("", ""))[1] == p.identity_key and seat != newcomer.seat
        ]
        return self._roster_of(sorted([*players, newcomer], key=lambda p: p.seat))

    def greeting(self, key: bytes) -> list[bytes]:
        """What the host repeats to a newcomer until it holds the genesis: the host's hello,
        its welcome, the table as it is now and the genesis (SPEC 8.9)."""
        roster = self.late_roster(key)
        if roster is None or self._genesis is None:
            return []
        newcomer = self._late[key]
        return [
            encode_frame(HelloFrame(self.name, self._statement)),
            encode_frame(Joining(seat=newcomer.seat).frame()),
            encode_frame(roster.frame()),
            encode_frame(EntriesFrame((self._genesis,))),
        ]

    def announcement(self, key: bytes) -> bytes | None:
        """The `newcomer` message that tells every seated player of the newcomer `key`."""
        newcomer = self._late.get(key)
        if newcomer is None:
            return None
        return encode_frame(Newcomer(game=self._game.hex(), player=newcomer).frame())

    def _take(self, transport: Transport, r: Received) -> None:
        frame = _decode(r)
        if isinstance(frame, HelloFrame):
            self._hello(transport, r, frame)
        elif isinstance(frame, LobbyFrame):
            message = _message(frame)
            guest = self._guests.get(r.peer)
            if guest is None:
                return
            if isinstance(message, Sit):
                self._sit(transport, r.peer, guest, message)
            elif isinstance(message, Stand) and guest.seat is not None:
                self._stand(transport, r.peer, guest)

    def _hello(self, transport: Transport, r: Received, hello: HelloFrame) -> None:
        if hello.statement.curve_key != r.peer:
            return  # someone else's statement: a hello speaks only for its own connection
        if r.peer in self._late:
            return  # a newcomer's repeat: its node greets it
        guest = self._guests.get(r.peer)
        if guest is not None and (guest.seat is not None or guest.name == hello.name):
            return  # a repeat: the answer is on its way again
        if guest is None:
            self._expire(time.monotonic())
            self._let_in.pop(r.peer, None)
            pending = self._pending()
            if len(pending) >= MAX_PENDING or (pending.count(r.address) >= MAX_PENDING_PER_ADDRESS):
                return  # the door is full: no dial-back (its ZAP handler says busy meanwhile)
            guest = self._guests[r.peer] = _Guest(hello.name, hello.statement, r.address)
        else:
            guest.name, guest.refused, guest.refusals_sent = hello.name, None, 0
        name = hello.name
        if self._formed and not self._game_open:
            over = "the game is over"
            guest.refused = Refused(reason="game-over", name=name, detail=over)
        elif any(same_name(name, n) for n in self._names()):
            taken = f"someone at the table is called {name}"
            guest.refused = Refused(reason="name-taken", name=name, detail=taken)
        elif hello.statement.identity_key in self._identities():
            seated = "this player is seated already"
            guest.refused = Refused(reason="bad-hello", name=name, detail=seated)
        elif self._free() <= 0:
            if self._waiting_seat():
                return  # pending: answered once that seat is taken for good or free again
            guest.refused = self._closed_refusal(name)
        if guest.refused is not None:
            self._say(f"turned away {hello.name}: {guest.refused.detail}")
        self._consider(r.peer, guest)

    def _closed_refusal(self, name: str) -> Refused:
        full = f"all {self.plan.config.seats} seats are taken"
        return Refused(reason="table-full", name=name, detail=full)

    def _names(self) -> list[str]:
        if self._formed:
            return [*(n for n, _ in self._table.values()), *(p.name for p in self._late.values())]
        return [self.name, *(g.name for g in self.seated)]

    def _identities(self) -> set[bytes]:
        if self._formed:
            held = [i for _, i in self._table.values()]
            held += [p.identity_key for p in self._late.values()]
            return {bytes.fromhex(i) for i in held}
        return {self.keys.identity.public_key, *(g.statement.identity_key for g in self.seated)}

    def _free_seats(self) -> list[int]:
        """The seats a guest may take: after the genesis, those free in the chain and not
        given to a newcomer yet."""
        if not self._formed:
            taken = {0, *(g.seat for g in self.seated)}
        else:
            taken = {*self._table, *(p.seat for p in self._late.values())}
        return [s for s in range(self.plan.config.seats) if s not in taken]

    def _sit(self, transport: Transport, key: bytes, guest: _Guest, sit: Sit) -> None:
        if guest.port:
            return  # a repeat
        guest.port = sit.port
        try:
            transport.connect(key, guest.address, sit.port)
        except TransportError:
            self._guests.pop(key, None)
            return
        guest.dialled = time.monotonic()
        self._consider(key, guest)

    def _consider(self, key: bytes, guest: _Guest) -> None:
        """Seat a guest once its hello was accepted and its address is known."""
        transport = self.transport
        if transport is None or guest.refused is not None or not guest.port:
            return
        if guest.seat is not None:
            return
        free = self._free_seats()
        if not free:  # another newcomer took the last seat meanwhile
            if not self._waiting_seat():
                guest.refused = self._closed_refusal(guest.name)
            return
        guest.seat = free[0]
        transport.pin(guest.statement)
        if self._formed:
            self._newcomer(key, guest)
            return
        self._serial += 1
        self._say(
            f"{guest.name} sat down in seat {guest.seat}: {self.players} of "
            f"{self.plan.config.seats} seats taken"
        )
        self._update_ad()

    def _newcomer(self, key: bytes, guest: _Guest) -> None:
        """After the genesis: the guest is seated in a free seat; its node takes it from here
        (it tells every seated player and greets the newcomer, SPEC 8.9)."""
        assert guest.seat is not None
        del self._guests[key]
        player = RosterPlayer.of(guest.seat, guest.name, guest.statement, guest.address, guest.port)
        self._late[key] = self._players[guest.seat] = player
        self._handed.append(player)
        self._serial += 1
        self._say(
            f"{guest.name} joins in seat {guest.seat} from the next hand "
            f"(at {guest.address}:{guest.port})"
        )
        self._update_ad()

    def _stand(self, transport: Transport, key: bytes, guest: _Guest) -> None:
        self._guests.pop(key, None)
        transport.unpin(key)
        transport.disconnect(key)
        self._serial += 1
        self._say(f"{guest.name} left: {self.players} of {self.plan.config.seats} seats taken")
        self._update_ad()

    def _advertise_soon(self) -> None:
        """Advertise the table from now on, with the seats free (a door opened again)."""

        async def start() -> None:
            await self._start_advertising()
            self._update_ad()  # (seats may have been taken while it started)

        _in_background(start())

    def _update_ad(self) -> None:
        if self._advertiser is not None:
            _in_background(self._advertiser.update(max(0, self._free())))

    def _stop_soon(self) -> None:
        """The game is over: the table is advertised no more."""
        if self._advertiser is not None:
            _in_background(self.stop_advertising())

    def roster(self) -> Roster:
        """The table as it is now (its game id zeros until the table is formed)."""
        assert self.transport is not None
        me = RosterPlayer.of(0, self.name, self._statement, self.address, self.transport.port)
        guests = [
            RosterPlayer.of(g.seat, g.name, g.statement, g.address, g.port)
            for g in self.seated
            if g.seat is not None
        ]
        return self._roster_of([me, *guests])

    def _roster_of(self, players: list[RosterPlayer]) -> Roster:
        return Roster(
            serial=self._serial,
            game=self._game.hex(),
            table=self.plan.name,
            config=self.plan.config.to_dict(),
            hands=self.plan.hands,
            players=players,
        )

    def _name_arbiter(self) -> None:
        """The arbiter the host named (`TablePlan.arbiter`) into the config, by its seat now;
        the host stays the arbiter, and says so, if nobody seated has that name."""
        name = self.plan.arbiter
        if name is None:
            return
        seats = {self.name: 0, **{g.name: g.seat for g in self.seated if g.seat is not None}}
        seat = seats.get(name)
        if seat is None:
            self._say(f"nobody called {name!r} sits at the table: you are its arbiter")
            return
        config = dataclasses.replace(self.plan.config, arbiter=seat)
        self.plan = dataclasses.replace(self.plan, config=config)

    def _waiting(self) -> None:
        """After the genesis: answer the newcomers kept waiting for a seat promised to another
        newcomer not heard from yet, once that is settled: seated if a seat is free now, told
        the table is full once the promised newcomer is heard from, told the game is over once
        it is. (Their repeated hellos are repeats: nothing else looks at them again.)"""
        if not self._formed:
            return
        for key, guest in list(self._guests.items()):
            if guest.seat is not None or guest.refused is not None:
                continue
            if not self._game_open:
                over = "the game is over"
                guest.refused = Refused(reason="game-over", name=guest.name, detail=over)
            elif self._free() <= 0 and not self._waiting_seat():
                guest.refused = self._closed_refusal(guest.name)
            if guest.refused is not None:
                self._say(f"turned away {guest.name}: {guest.refused.detail}")
            self._consider(key, guest)

    def _resend(self, transport: Transport, *, force: bool = False) -> None:
        now = time.monotonic()
        self._expire(now)
        self._waiting()
        roster: Roster | None = None
        hello: bytes | None = None
        for key, guest in list(self._guests.items()):
            if not guest.port or (not force and now - guest.sent_at < RESEND):
                continue
            if transport.state(key) is not ConnectionState.CONNECTED:
                continue
            guest.sent_at = now
            hello = hello or encode_frame(HelloFrame(self.name, self._statement))
            transport.send(key, hello)
            if guest.refused is not None:
                transport.send(key, encode_frame(guest.refused.frame()))
                guest.refusals_sent += 1
                if guest.refusals_sent >= 4:
                    self._guests.pop(key, None)
                    transport.disconnect(key)
                continue
            if guest.seat is None:
                continue
            roster = roster or self.roster()
            for data in _greeting(roster, guest.seat):
                transport.send(key, data)

    def _form(self, transport: Transport) -> Seating:
        """The table as it is now: the game id drawn, the final roster to everyone, the
        genesis made; only seated keys are let in from here on."""
        game = self._game = self._rng(GAME_ID_BYTES)
        self._serial += 1
        self._name_arbiter()
        roster = self.roster()
        genesis = make_genesis(
            self.keys.identity,
            0,
            game,
            self.plan.name,
            self.plan.config,
            roster.genesis_players(),
        )
        for key, guest in list(self._guests.items()):
            if guest.seat is None:
                transport.disconnect(key)
        self._resend(transport, force=True)
        self._genesis = genesis
        self._players = {p.seat: p for p in roster.players}
        self._table = {p.seat: (p.name, p.identity_key) for p in roster.players}
        # from here on the node greets the seated guests until they hold the genesis, and the
        # door answers only newcomers
        self._seated_at_genesis = [g for g in self._guests.values() if g.seat is not None]
        self._guests.clear()
        self._formed = True
        # The door stays open for hellos only (answered with a refusal); every frame from a
        # key that is not seated comes up unpinned (SPEC 8.5, 8.9).
        transport.set_pins(p.statement for p in roster.players[1:])
        return Seating(roster, 0, genesis)


def _greeting(roster: Roster, seat: int, hello: HelloFrame | None = None) -> list[bytes]:
    first = [] if hello is None else [encode_frame(hello)]
    return [*first, encode_frame(Welcome(seat=seat).frame()), encode_frame(roster.frame())]


def host_greeting(seating: Seating, statement: KeyStatement, seat: int) -> list[bytes]:
    """What the host repeats to the guest in `seat` until that guest holds the genesis: the
    host's hello, the guest's welcome, the final roster, and the genesis (which the guest
    checks against the roster)."""
    host = seating.roster.players[0]
    frames = _greeting(seating.roster, seat, HelloFrame(host.name, statement))
    return [*frames, encode_frame(EntriesFrame((seating.genesis,)))]


def _seat_key(guest: _Guest) -> int:
    return guest.seat if guest.seat is not None else 99


# --- a guest ---------------------------------------------------------------------------------


@dataclass(slots=True)
class _Joining:
    """What a guest has learnt from its host so far."""

    host: KeyStatement | None = None
    seat: int | None = None
    late: bool = False
    """The host seated this guest in a game under way (`joining`, SPEC 8.9)."""
    roster: Roster | None = None
    genesis: Entry | None = None
    heard: float = field(default_factory=time.monotonic)


class GuestLobby:
    """A guest's side: `seat()` dials the host named by `code`, says hello as the first of
    `names` (the next one if the host says the name is taken and `names` has more), and
    returns the seating once the host's genesis has come. `leave()` stands up again before
    the genesis. LobbyError for every way this can fail."""

    def __init__(
        self,
        keys: NodeKeys,
        names: Sequence[str],
        code: JoinCode,
        *,
        address: str = "0.0.0.0",
        port: int = 0,
        say: Say = _quiet,
        connect_within: float = CONNECT_WITHIN,
        host_key: KeyStatement | None = None,
    ) -> None:
        """`host_key`: the host's key statement if known already (from the table's record,
        SPEC 8.7); else the guest rings for it (8.6)."""
        if not names:
            raise ValueError("a guest needs a name")
        self.keys = keys
        self.names = list(names)
        self.name = self.names[0]
        self.code = code
        self._address = address
        self._port = port
        self._say = say
        self._statement = statement_of(keys)
        self._connect_within = connect_within
        self.transport: Transport | None = None
        self._host_key = host_key
        if host_key is not None and not code.names(host_key):
            raise ValueError("the host's key statement is not the one the join code names")

    async def seat(self) -> Seating:
        self.transport = await start_transport(self.keys, self._address, self._port)
        transport = self.transport
        rung = self._host_key is None
        if self._host_key is None:
            self._host_key = await self._ring()
        host = self._host_key.curve_key
        if host == self.keys.curve_public:
            raise LobbyError(LobbyFailure.REFUSED, "that is this player's own table")
        transport.connect(host, self.code.host, self.code.port)
        await self._reach(transport, host, confirmed=rung)
        state = _Joining()
        sent_at = float("-inf")
        asked_at = time.monotonic()
        while True:
            now = time.monotonic()
            if state.seat is None and now - sent_at >= RESEND:
                sent_at = now
                self._hello(transport, host)
            if state.seat is None and now - asked_at > max(ANSWER_WITHIN, BUSY_WITHIN):
                # it holds the code's key and let us in: it runs, but its door is full
                raise LobbyError(
                    LobbyFailure.BUSY,
                    f"the table at {self.code.host}:{self.code.port} is busy (its host let us "
                    "in but does not answer): try again in a moment",
                )
            if now - state.heard > HOST_SILENT:
                raise LobbyError(LobbyFailure.HOST_LEFT, "the host went silent before the game")
            r = await _recv(transport, RESEND / 2)
            if r is None or r.peer != host:
                continue
            seating = self._take(transport, state, r)
            if isinstance(seating, str):
                asked_at, sent_at = time.monotonic(), float("-inf")
                continue
            if seating is not None:
                transport.accept_unpinned = False
                transport.set_pins(p.statement for p in seating.others)
                return seating

    async def _ring(self) -> KeyStatement:
        """The host's key statement, asked for at the code's address (SPEC 8.6)."""
        rang = await ring(self.code, self._connect_within)
        if rang.statement is not None:
            return rang.statement
        where = f"{self.code.host}:{self.code.port}"
        if rang.others:
            raise LobbyError(
                LobbyFailure.WRONG_KEY,
                f"the host at {where} does not hold the keys this join code names "
                "(an old code, or another program on that port)",
            )
        raise LobbyError(
            LobbyFailure.UNREACHABLE,
            f"nothing answers at {where} (is the host running, and on this network?)",
        )

    async def _reach(self, transport: Transport, host: bytes, *, confirmed: bool) -> None:
        """Wait until the CURVE handshake with the host succeeds; else say why it does not.
        `confirmed`: the doorbell at the code's address answered with the host's key. Then a
        handshake that fails is a poor link or a full door, not a wrong key, and the guest
        dials on until BUSY_WITHIN; a key from the table's record is confirmed by ringing once
        two handshakes have failed. A handshake refused twice is an answer already."""
        start = time.monotonic()
        deadline = start + self._connect_within
        answers = {ConnectionState.OPENED, ConnectionState.BUSY}
        while not await transport.wait_state(host, ConnectionState.CONNECTED, 0.25):
            seen = transport.states_seen(host)
            if transport.failures(host) > 1:
                if ConnectionState.REFUSED in seen:
                    break
                if not confirmed:
                    rang = await ring(self.code, self._connect_within)
                    if rang.statement is None or rang.statement.curve_key != host:
                        break  # another key (or no doorbell) at that address
                    confirmed = True
            # something answers there (a connection opened, a door that says busy): its
            # host runs, and is given longer before the table is said to be busy
            until = max(deadline, start + BUSY_WITHIN) if answers & seen else deadline
            if time.monotonic() >= until:
                break
        else:
            return
        seen = transport.states_seen(host)
        where = f"{self.code.host}:{self.code.port}"
        if ConnectionState.BUSY in seen:
            raise LobbyError(
                LobbyFailure.BUSY,
                f"the table at {where} is busy (too many at its door): try again in a moment",
            )
        if ConnectionState.REFUSED in seen:
            raise LobbyError(
                LobbyFailure.GAME_STARTED,
                f"the table at {where} takes no more players (its game has started)",
            )
        if ConnectionState.HANDSHAKE_FAILED in seen and not confirmed:
            raise LobbyError(
                LobbyFailure.WRONG_KEY,
                f"the host at {where} does not hold the key in this join code "
                "(an old code, or another program on that port)",
            )
        if ConnectionState.OPENED in seen:
            raise LobbyError(
                LobbyFailure.BUSY,
                f"the table at {where} answers, but no connection to it was made in "
                f"{BUSY_WITHIN:.0f} s (a poor link, or too many at its door): try again in a "
                "moment",
            )
        raise LobbyError(
            LobbyFailure.UNREACHABLE,
            f"nothing answers at {where} (is the host running, and on this network?)",
        )

    def _hello(self, transport: Transport, host: bytes) -> None:
        transport.send(host, encode_frame(HelloFrame(self.name, self._statement)))
        transport.send(host, encode_frame(Sit(port=transport.port).frame()))

    def _take(self, transport: Transport, state: _Joining, r: Received) -> Seating | str | None:
        """One frame from the host: the seating once formed; "again" after a new name."""
        frame = _decode(r)
        if frame is None:
            return None
        state.heard = time.monotonic()
        if isinstance(frame, HelloFrame):
            if frame.statement.curve_key == r.peer and state.host is None:
                state.host = frame.statement
                transport.pin(frame.statement)
            return None
        if isinstance(frame, EntriesFrame):
            if frame.entries[0].seq == 0:
                state.genesis = frame.entries[0]
            return self._formed(state)
        message = _message(frame)
        if isinstance(message, Refused) and message.name == self.name:
            return self._refused(message)  # (a refusal of a name given up already is old news)
        if isinstance(message, Closed):
            raise LobbyError(LobbyFailure.HOST_LEFT, f"the table was closed: {message.detail}")
        if isinstance(message, Welcome | Joining) and state.seat is None:
            state.seat, state.late = message.seat, isinstance(message, Joining)
            if not state.late:
                self._say(
                    f"seated in seat {message.seat}; waiting for the table to fill "
                    "(Ctrl-C leaves the table)"
                )
        if isinstance(message, Roster) and state.host is not None:
            if state.roster is None or message.serial > state.roster.serial:
                self._roster(transport, state, message)
            return self._formed(state)
        return None

    def _refused(self, refused: Refused) -> str:
        if refused.reason == "name-taken" and len(self.names) > 1:
            self._say(f"{self.name} is taken at this table; trying {self.names[1]}")
            self.names.pop(0)
            self.name = self.names[0]
            return "again"
        failure = {
            "table-full": LobbyFailure.TABLE_FULL,
            "game-started": LobbyFailure.GAME_STARTED,
            "game-over": LobbyFailure.GAME_OVER,
            "name-taken": LobbyFailure.NAME_TAKEN,
        }.get(refused.reason, LobbyFailure.REFUSED)
        raise LobbyError(failure, f"the host did not seat {self.name}: {refused.detail}")

    def _roster(self, transport: Transport, state: _Joining, roster: Roster) -> None:
        """Take a newer roster: check that it names us and the host as we know them, pin
        every key, dial every other guest (again if its address changed)."""
        host = state.host
        assert host is not None
        me = roster.player(state.seat) if state.seat is not None else None
        first = roster.players[0]
        if (
            me is None
            or me.curve != self.keys.curve_public
            or me.identity_key != self.keys.identity.public_key.hex()
            or first.curve != host.curve_key
            or first.identity_key != host.identity_key.hex()
        ):
            return
        if state.roster is None:
            self._say(f"at {roster.table!r}: {', '.join(p.name for p in roster.players)}")
        state.roster = roster
        for p in roster.players:
            if p.seat in (me.seat, first.seat):
                continue
            transport.pin(p.statement)
            endpoint = f"tcp://{p.host}:{p.port}" if ":" not in p.host else None
            if endpoint is None or transport.endpoint(p.curve) != endpoint:
                transport.connect(p.curve, p.host, p.port)

    def _formed(self, state: _Joining) -> Seating | None:
        roster, genesis = state.roster, state.genesis
        if roster is None or genesis is None or state.seat is None:
            return None
        late = state.late  # the table as it is now, of a game under way (SPEC 8.9)
        if roster.matches(genesis, players=not late) is not None:
            return None  # a newer roster is on its way (the host repeats it)
        try:
            Ledger().append(genesis)  # the host's signatures on it
        except RemoteProtocolError:
            state.genesis = None
            return None
        return Seating(roster, state.seat, genesis, late=late)

    async def leave(self) -> None:
        """Stand up before the genesis (the host frees the seat) and close the transport."""
        if self.transport is not None:
            if self._host_key is not None:
                self.transport.send(self._host_key.curve_key, encode_frame(Stand().frame()))
            await asyncio.sleep(0.05)
            await self.transport.close()
            self.transport = None


__all__ = [
    "GuestLobby",
    "HostLobby",
    "LobbyError",
    "LobbyFailure",
    "TablePlan",
    "host_greeting",
    "keys_pair",
    "start_transport",
    "statement_of",
]
