"""Join codes and TXT records (SPEC 8.6, 8.7): round trips, one clear error per bad input.

Advertising and browsing on a real (namespaced) LAN are in tests/lan/test_lan_discovery.py.
"""

from __future__ import annotations

import dataclasses
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from net_helpers import curve, statement

from p2pwillow.ledger.identity import named
from p2pwillow.net.discovery import JoinCode, TableAd, parse_txt
from p2pwillow.net.errors import WireError, WireReason

CODE = JoinCode.of("10.1.0.2", 45123, statement(1))
AD = TableAd("Friday night", 3, statement(1), addresses=("10.1.0.2",), port=45123)
GROUPED = re.compile(r"[a-z2-7]{4}(-[a-z2-7]{4})*")


def _props(ad: TableAd) -> dict[bytes, bytes | None]:
    return {k.encode(): v.encode() for k, v in ad.txt().items()}


def test_join_code_round_trip_and_shape() -> None:
    """SPEC 8.6: 8 groups of 4 letters for an IPv4 address (39 characters with the dashes),
    read back however it is typed; it names the host's keys by their print."""
    text = CODE.encode()
    assert JoinCode.decode(text) == CODE
    assert GROUPED.fullmatch(text) and len(text) == 39
    assert JoinCode.decode(f"  {text.upper().replace('-', ' ')} \n") == CODE
    assert JoinCode.decode(text.replace("-", "")) == CODE
    assert CODE.names(statement(1)) and not CODE.names(statement(2))
    v6 = JoinCode.of("fd00::7", 1, statement(2))
    assert JoinCode.decode(v6.encode()) == v6
    assert GROUPED.fullmatch(v6.encode()) and len(v6.encode().replace("-", "")) == 52


@pytest.mark.parametrize("code", [CODE, JoinCode.of("fd00::7", 1, statement(2))])
def test_every_single_typo_is_caught_with_one_message(code: JoinCode) -> None:
    text = code.encode()
    for i in range(len(text)):
        for c in "aqz27":
            if c == text[i] or text[i] == "-":
                continue
            typo = text[:i] + c + text[i + 1 :]
            with pytest.raises(WireError) as info:
                JoinCode.decode(typo)
            assert info.value.reason is WireReason.BAD_JOIN_CODE
            assert info.value.detail == (
                "the join code's check does not match: a letter is mistyped"
            )


def test_two_letters_swapped_are_caught() -> None:
    plain = CODE.encode().replace("-", "")
    for i in range(len(plain) - 1):
        if plain[i] == plain[i + 1]:
            continue
        swapped = plain[:i] + plain[i + 1] + plain[i] + plain[i + 2 :]
        with pytest.raises(WireError, match="mistyped"):
            JoinCode.decode(swapped)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "empty"),
        ("hello world!", "letters a-z and digits 2-7"),
        ("abc", "too short"),
        ("a" * 200, "wrong length"),
    ],
)
def test_bad_join_codes(text: str, says: str) -> None:
    with pytest.raises(WireError, match=says):
        JoinCode.decode(text)


def test_a_letter_or_a_group_missing_or_extra_says_so() -> None:
    text = CODE.encode()
    with pytest.raises(WireError, match="too short: a group or a letter is missing"):
        JoinCode.decode(text[:-5])
    with pytest.raises(WireError, match="too short: a group or a letter is missing"):
        JoinCode.decode(text[:-1])
    with pytest.raises(WireError, match="wrong length: a letter is missing or one too many"):
        JoinCode.decode(text + "a")
    v6 = JoinCode.of("fd00::7", 1, statement(2)).encode()
    with pytest.raises(WireError, match="wrong length"):
        JoinCode.decode(v6[:-1])


@given(st.text(max_size=90))
def test_random_text_is_a_code_or_one_error(text: str) -> None:
    try:
        JoinCode.decode(text)
    except WireError as exc:
        assert exc.reason is WireReason.BAD_JOIN_CODE


def test_join_code_holds_an_address_not_a_name() -> None:
    with pytest.raises(ValueError):
        JoinCode.of("laptop.local", 1, statement(1))


def test_txt_round_trip() -> None:
    props = _props(AD)
    parsed = parse_txt(props, addresses=["10.1.0.2"], port=45123)
    assert parsed == AD and parsed.joinable
    assert parsed.join_code() == CODE
    assert set(AD.txt()) == {"v", "name", "free", "key", "id", "sig"}


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({b"v": None}, "no 'v'"),
        ({b"v": b"one"}, "not a version"),
        ({b"name": b""}, "table name"),
        ({b"name": b"\xff\xfe"}, "not UTF-8"),
        ({b"name": "bad\u202ename".encode()}, "control"),
        ({b"free": b"-1"}, "'free'"),
        ({b"free": b"11"}, "'free'"),
        ({b"key": b"zz" * 32}, "'key'"),
        ({b"key": b"AB" * 32}, "'key'"),
        ({b"id": b"00" * 31}, "'id'"),
        ({b"sig": None}, "no 'sig'"),
    ],
)
def test_bad_txt_records(change: dict[bytes, bytes | None], says: str) -> None:
    props = _props(AD)
    for key, value in change.items():
        if value is None and key in (b"v", b"sig"):
            del props[key]
        else:
            props[key] = value
    with pytest.raises(WireError, match=says) as info:
        parse_txt(props)
    assert info.value.reason is WireReason.BAD_TXT


def test_the_host_is_named_with_its_fingerprint() -> None:
    """SPEC 8.7: `host` holds the host player's name; a browser shows it with the fingerprint
    of the identity key the record is signed by (6.2), and a record without it is listed with
    the fingerprint alone; a bad name is one bad-txt error."""
    ad = dataclasses.replace(AD, host_name="Ann")
    props = _props(ad)
    assert props[b"host"] == b"Ann"
    parsed = parse_txt(props, addresses=["10.1.0.2"], port=45123)
    assert parsed == ad
    assert parsed.host == named("Ann", statement(1).identity_key)
    assert re.fullmatch(r"Ann #[A-Z2-7]{4}", parsed.host)
    assert parse_txt(_props(AD)).host.startswith("a host #")
    for bad in (b"", b"x" * 33, "A\u202eB".encode().decode("unicode_escape").encode()):
        with pytest.raises(WireError, match="host") as info:
            parse_txt(props | {b"host": bad})
        assert info.value.reason is WireReason.BAD_TXT


def test_a_record_whose_key_is_not_signed_by_its_host_is_refused() -> None:
    props = _props(AD)
    props[b"key"] = curve(7).public.hex().encode()  # a man in the middle's CURVE key
    with pytest.raises(WireError, match="does not verify") as info:
        parse_txt(props)
    assert info.value.reason is WireReason.BAD_TXT


def test_another_version_is_listed_not_joinable() -> None:
    props = {b"v": b"2", b"name": b"future table", b"free": b"2", b"new": b"field"}
    ad = parse_txt(props)
    assert ad.version == 2 and not ad.joinable
    with pytest.raises(WireError):
        ad.join_code()


def test_unknown_keys_are_ignored() -> None:
    props = _props(AD) | {b"extra": b"1", b"flag": None}
    assert parse_txt(props, addresses=["10.1.0.2"], port=45123) == AD


@given(
    st.dictionaries(
        st.sampled_from([b"v", b"name", b"free", b"key", b"id", b"sig", b"x"]),
        st.none() | st.binary(max_size=70),
    )
)
def test_random_records_parse_or_one_error(props: dict[bytes, bytes | None]) -> None:
    merged = _props(AD) | props
    try:
        parse_txt(merged)
    except WireError as exc:
        assert exc.reason is WireReason.BAD_TXT
