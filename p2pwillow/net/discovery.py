"""Finding a table: DNS-SD over mDNS with python-zeroconf, and the join code that works with no
multicast at all (SPEC 8.6, 8.7).

`JoinCode` and `parse_txt` are pure and read untrusted input (one WireError each); `Advertiser`
and `browse` do network I/O on asyncio. Nothing here is Linux-only.
"""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import hashlib
import ipaddress
import socket
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import ifaddr
from zeroconf import InterfaceChoice, IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from p2pwillow.ledger.entry import PROTOCOL_VERSION
from p2pwillow.ledger.fields import FieldError, Text
from p2pwillow.ledger.identity import PUBLIC_KEY_BYTES, SIGNATURE_BYTES, named
from p2pwillow.net.errors import WireError, WireReason
from p2pwillow.net.keys import CURVE_KEY_BYTES, KeyStatement

SERVICE_TYPE = "_willow._tcp.local."
TABLE_NAME = Text(1, 64)
HOST_NAME = Text(1, 32)
MAX_SEATS = 10
JOIN_CODE_VERSION = 2
JOIN_CODE_TAG = b"p2pwillow/v1/join-code\x00"
JOIN_KEY_TAG = b"p2pwillow/v1/join-key\x00"
JOIN_CHECK_BYTES = 3
KEY_PRINT_BYTES = 10
"""80 bits of the host's keys: finding other keys with the same print is out of reach."""
_FAMILIES = {4: 4, 6: 16}
"""Address family -> address length."""
_BASE32 = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
GROUP = 4
"""Characters per group, as the code is printed and read aloud."""
CODE_CHARS = {4: 32, 6: 52}
"""Base32 characters (no dashes) of a code by address family: 20 and 32 bytes."""
MIN_CODE_CHARS = 32
MAX_CODE_CHARS = 52

BAD_TXT = WireReason.BAD_TXT
BAD_CODE = WireReason.BAD_JOIN_CODE


# --- the join code (SPEC 8.6) ----------------------------------------------------------------


def _join_check(payload: bytes) -> bytes:
    return hashlib.sha256(JOIN_CODE_TAG + payload).digest()[:JOIN_CHECK_BYTES]


def key_print(statement: KeyStatement) -> bytes:
    """What a join code holds of its host's keys (SPEC 8.6): the first 10 bytes of the hash of
    its identity key and CURVE key, so that only a host holding both answers to the code."""
    digest = hashlib.sha256(JOIN_KEY_TAG + statement.identity_key + statement.curve_key)
    return digest.digest()[:KEY_PRINT_BYTES]


@dataclass(frozen=True, slots=True)
class JoinCode:
    """Where a table's host listens and a print of the keys it holds, short enough to read
    aloud: 32 base32 characters for an IPv4 address, printed in groups of 4."""

    host: str
    port: int
    key_print: bytes

    def __post_init__(self) -> None:
        address = ipaddress.ip_address(self.host)  # ValueError for a name: codes hold addresses
        object.__setattr__(self, "host", str(address))
        if not 0 < self.port < 65536:
            raise ValueError("a port is 1..65535")
        if len(self.key_print) != KEY_PRINT_BYTES:
            raise ValueError(f"a key print is {KEY_PRINT_BYTES} bytes")

    @classmethod
    def of(cls, host: str, port: int, statement: KeyStatement) -> JoinCode:
        """The code of a host at host:port holding the keys of `statement`."""
        return cls(host, port, key_print(statement))

    def names(self, statement: KeyStatement) -> bool:
        """Whether a host answering with `statement` holds the keys this code names."""
        return key_print(statement) == self.key_print

    def encode(self) -> str:
        address = ipaddress.ip_address(self.host)
        payload = (
            bytes([JOIN_CODE_VERSION << 4 | address.version])
            + address.packed
            + self.port.to_bytes(2, "big")
            + self.key_print
        )
        text = base64.b32encode(payload + _join_check(payload)).decode("ascii")
        text = text.rstrip("=").lower()
        return "-".join(text[i : i + GROUP] for i in range(0, len(text), GROUP))

    @classmethod
    def decode(cls, text: str) -> JoinCode:
        """Read a join code as typed or pasted; WireError(bad-join-code) naming what is wrong."""
        if not isinstance(text, str):
            raise WireError(BAD_CODE, "a join code is text")
        cleaned = "".join(text.split()).replace("-", "").upper()
        if not cleaned:
            raise WireError(BAD_CODE, "the join code is empty")
        if set(cleaned) - _BASE32:
            raise WireError(
                BAD_CODE, "not a join code: use the letters a-z and digits 2-7 it was printed with"
            )
        if len(cleaned) < MIN_CODE_CHARS:
            raise WireError(BAD_CODE, "the join code is too short: a group or a letter is missing")
        if len(cleaned) not in CODE_CHARS.values():
            raise WireError(
                BAD_CODE,
                "the join code has the wrong length: a letter is missing or one too many",
            )
        raw = base64.b32decode(cleaned + "=" * (-len(cleaned) % 8))
        if base64.b32encode(raw).decode("ascii").rstrip("=") != cleaned:
            # the last letter's unused bits are not zero: a mistyped last letter
            raise WireError(BAD_CODE, "the join code's check does not match: a letter is mistyped")
        payload, check = raw[:-JOIN_CHECK_BYTES], raw[-JOIN_CHECK_BYTES:]
        if _join_check(payload) != check:
            raise WireError(BAD_CODE, "the join code's check does not match: a letter is mistyped")
        version, family = payload[0] >> 4, payload[0] & 0x0F
        if version != JOIN_CODE_VERSION:
            raise WireError(BAD_CODE, f"a join code of version {version}: upgrade p2pwillow")
        size = _FAMILIES.get(family)
        if size is None or len(cleaned) != CODE_CHARS[family]:
            raise WireError(BAD_CODE, f"unknown address family {family} in the join code")
        address = ipaddress.ip_address(payload[1 : 1 + size])
        rest = payload[1 + size :]
        port = int.from_bytes(rest[:2], "big")
        if port == 0:
            raise WireError(BAD_CODE, "the join code names port 0")
        return cls(str(address), port, rest[2:])


# --- the discovery record (SPEC 8.7) ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableAd:
    """A table as its host advertises it. `statement` is None for a table of another protocol
    version (listed, not joinable)."""

    name: str
    seats_free: int
    statement: KeyStatement | None
    version: int = PROTOCOL_VERSION
    addresses: tuple[str, ...] = ()
    port: int = 0
    instance: str = field(default="", compare=False)
    host_name: str = ""
    """The host player's name (TXT `host`); empty if the record does not say it."""

    @property
    def joinable(self) -> bool:
        return self.version == PROTOCOL_VERSION and self.statement is not None

    @property
    def host(self) -> str:
        """The host as a screen shows it: its name (if the record says it) and the fingerprint
        of its identity key (SPEC 6.2), e.g. `Ann #K7QD`."""
        if self.statement is None:
            return self.host_name or "an unknown host"
        return named(self.host_name or "a host", self.statement.identity_key)

    def txt(self) -> dict[str, str]:
        """The TXT record's keys and values (SPEC 8.7)."""
        assert self.statement is not None
        record = {
            "v": str(self.version),
            "name": self.name,
            "free": str(self.seats_free),
            "key": self.statement.curve_key.hex(),
            "id": self.statement.identity_key.hex(),
            "sig": self.statement.sig.hex(),
        }
        if self.host_name:
            record["host"] = self.host_name
        return record

    def join_code(self) -> JoinCode:
        if not self.joinable or not self.addresses or not self.port:
            raise WireError(BAD_TXT, f"table {self.name!r} cannot be joined from its record")
        assert self.statement is not None
        return JoinCode.of(self.addresses[0], self.port, self.statement)


def _text(properties: Mapping[bytes, bytes | None], key: str) -> str:
    value = properties.get(key.encode())
    if value is None:
        raise WireError(BAD_TXT, f"no {key!r} in the record")
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError:
        raise WireError(BAD_TXT, f"{key!r} is not UTF-8") from None


def _hex(properties: Mapping[bytes, bytes | None], key: str, size: int) -> bytes:
    value = _text(properties, key)
    if len(value) != 2 * size or value != value.lower():
        raise WireError(BAD_TXT, f"{key!r} is not {2 * size} lowercase hex digits")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise WireError(BAD_TXT, f"{key!r} is not {2 * size} lowercase hex digits") from None


def parse_txt(
    properties: Mapping[bytes, bytes | None],
    *,
    addresses: Sequence[str] = (),
    port: int = 0,
    instance: str = "",
) -> TableAd:
    """Read a TXT record from the network; WireError(bad-txt) naming the first bad field."""
    if not isinstance(properties, Mapping):
        raise WireError(BAD_TXT, "a TXT record is a set of key=value strings")
    version_text = _text(properties, "v")
    if not version_text.isdigit() or len(version_text) > 6:
        raise WireError(BAD_TXT, "'v' is not a version number")
    version = int(version_text)
    name = _text(properties, "name")
    try:
        TABLE_NAME.normalize(name, "name")
    except FieldError as exc:
        raise WireError(BAD_TXT, f"table {exc}") from None
    free_text = _text(properties, "free")
    if not free_text.isdigit() or int(free_text) > MAX_SEATS:
        raise WireError(BAD_TXT, f"'free' is not a number of seats 0..{MAX_SEATS}")
    host_name = ""
    if properties.get(b"host") is not None:
        host_name = _text(properties, "host")
        try:
            HOST_NAME.normalize(host_name, "host")
        except FieldError as exc:
            raise WireError(BAD_TXT, f"the host's {exc}") from None
    common = {
        "name": name,
        "seats_free": int(free_text),
        "version": version,
        "addresses": tuple(addresses),
        "port": port,
        "instance": instance,
        "host_name": host_name,
    }
    if version != PROTOCOL_VERSION:
        return TableAd(statement=None, **common)  # type: ignore[arg-type]
    try:
        statement = KeyStatement(
            _hex(properties, "id", PUBLIC_KEY_BYTES),
            _hex(properties, "key", CURVE_KEY_BYTES),
            _hex(properties, "sig", SIGNATURE_BYTES),
        )
    except WireError as exc:
        if exc.reason is BAD_TXT:
            raise
        raise WireError(BAD_TXT, f"the host's key statement does not verify ({exc})") from None
    return TableAd(statement=statement, **common)  # type: ignore[arg-type]


# --- advertising and browsing ------------------------------------------------------------------


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, for the join code and the record."""
    out = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str):
                address = ipaddress.ip_address(ip.ip)
                if not address.is_loopback and not address.is_link_local:
                    out.append(str(address))
    return sorted(set(out))


def _interfaces(addresses: Sequence[str]) -> InterfaceChoice | list[str | int]:
    """The interfaces to multicast on: those holding `addresses`, else every one."""
    return list(addresses) if addresses else InterfaceChoice.All


def _instance_name(ad: TableAd) -> str:
    assert ad.statement is not None
    base = "".join(c if c.isprintable() and c != "." else " " for c in ad.name)
    label = f"{base[:40]} {ad.statement.identity_key.hex()[:8]}"
    while len(label.encode("utf-8")) > 63:
        base = base[:-1]
        label = f"{base} {ad.statement.identity_key.hex()[:8]}"
    return label


class Advertiser:
    """Announces one table on the LAN until `close` (SPEC 8.7)."""

    def __init__(self, ad: TableAd, port: int, addresses: Sequence[str] | None = None) -> None:
        if not ad.joinable:
            raise ValueError("only a table of this protocol version is advertised")
        self.ad = ad
        self.port = port
        self.addresses = list(addresses) if addresses is not None else lan_addresses()
        self._zc: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None

    def _service(self, ad: TableAd) -> AsyncServiceInfo:
        instance = _instance_name(ad)
        return AsyncServiceInfo(
            SERVICE_TYPE,
            f"{instance}.{SERVICE_TYPE}",
            addresses=[socket.inet_aton(a) for a in self.addresses if ":" not in a],
            port=self.port,
            properties=ad.txt(),
            server=f"willow-{ad.statement.identity_key.hex()[:12]}.local.",  # type: ignore[union-attr]
        )

    async def start(self) -> None:
        self._zc = AsyncZeroconf(
            interfaces=_interfaces(self.addresses), ip_version=IPVersion.V4Only
        )
        self._info = self._service(self.ad)
        await self._zc.async_register_service(self._info, allow_name_change=True)

    async def update(self, seats_free: int) -> None:
        """Say how many seats are free now."""
        assert self._zc is not None and self._info is not None
        self.ad = dataclasses.replace(self.ad, seats_free=seats_free)
        info = self._service(self.ad)
        info.name = self._info.name
        self._info = info
        await self._zc.async_update_service(info)

    async def close(self) -> None:
        if self._zc is not None:
            if self._info is not None:
                await self._zc.async_unregister_service(self._info)
            await self._zc.async_close()
        self._zc = self._info = None


@dataclass(frozen=True, slots=True)
class Browsed:
    """What `browse` found: the tables, and the records it could not read (one line each)."""

    tables: tuple[TableAd, ...]
    errors: tuple[str, ...]


async def browse(timeout: float = 3.0, interfaces: Sequence[str] | None = None) -> Browsed:
    """Listen for `timeout` seconds and list the tables advertised on the LAN."""
    zc = AsyncZeroconf(interfaces=_interfaces(interfaces or ()), ip_version=IPVersion.V4Only)
    names: list[str] = []

    def on_change(
        zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:
        if state_change in (ServiceStateChange.Added, ServiceStateChange.Updated):
            names.append(name)

    browser = AsyncServiceBrowser(zc.zeroconf, SERVICE_TYPE, handlers=[on_change])
    try:
        await asyncio.sleep(timeout)
        tables: dict[str, TableAd] = {}
        errors: list[str] = []
        for name in dict.fromkeys(names):
            info = AsyncServiceInfo(SERVICE_TYPE, name)
            if not await info.async_request(zc.zeroconf, 1500):
                continue
            try:
                tables[name] = parse_txt(
                    info.properties,
                    addresses=info.parsed_addresses(IPVersion.V4Only),
                    port=info.port or 0,
                    instance=name,
                )
            except WireError as exc:
                errors.append(f"{name}: {exc}")
        return Browsed(tuple(tables.values()), tuple(errors))
    finally:
        await browser.async_cancel()
        await zc.async_close()


__all__ = [
    "SERVICE_TYPE",
    "Advertiser",
    "Browsed",
    "JoinCode",
    "TableAd",
    "browse",
    "lan_addresses",
    "parse_txt",
]
