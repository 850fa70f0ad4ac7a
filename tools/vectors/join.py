"""Vectors for joining by code: the join code and the doorbell's question and answer.

Generates and checks protocol/vectors/join.json (SPEC 8.6); no I/O.
"""

from __future__ import annotations

import base64
import hashlib
from typing import Any

from p2pwillow.ledger import Identity
from p2pwillow.net.discovery import JOIN_CODE_TAG, JOIN_KEY_TAG, JoinCode, key_print
from p2pwillow.net.doorbell import ASK, answer, read_answer
from p2pwillow.net.errors import WireError, WireReason
from p2pwillow.net.keys import CurveKeyPair, KeyStatement
from tools.vectors.common import Json, case, document, seeded_rng

FILE_NAME = "join.json"
ERRORS: dict[str, type[Exception]] = {"WireError": WireError}

NOTES = {
    "JoinCode": "A host's keys, address and port, the key print with its hash input, the "
    "payload with its check, and the code as printed (groups of 4, SPEC 8.6).",
    "Typed": "The code as a person may type it (case, spaces, no dashes): the same code.",
    "Typo": "One letter changed: the check does not match (bad-join-code).",
    "Missing": "A letter or a group left out: the wrong length (bad-join-code).",
    "Trailing": "A last letter whose unused bits are not zero: a mistyped letter.",
    "Version": "A well-checked payload of another code version (bad-join-code).",
    "Family": "A well-checked payload of an unknown address family (bad-join-code).",
    "PortZero": "A well-checked payload naming port 0 (bad-join-code).",
    "Doorbell": "The guest's question and the host's answer (SPEC 8.6): the answer is read "
    "back to the host's statement.",
    "BadAnswer": "An answer that is not the host's statement (a signature that fails, a wrong "
    "length, another tag): no answer.",
}


def _statement(seed: str) -> KeyStatement:
    identity = Identity.generate(seeded_rng(f"join/identity/{seed}"))
    curve = CurveKeyPair.generate(seeded_rng(f"join/curve/{seed}"))
    return KeyStatement.create(identity, curve.public)


def _code_text(payload: bytes) -> str:
    check = hashlib.sha256(JOIN_CODE_TAG + payload).digest()[:3]
    text = base64.b32encode(payload + check).decode("ascii").rstrip("=").lower()
    return "-".join(text[i : i + 4] for i in range(0, len(text), 4))


def _valid(address: str, port: int, seed: str) -> Json:
    said = _statement(seed)
    code = JoinCode.of(address, port, said)
    text = code.encode()
    letters = text.replace("-", "").upper()
    plain = base64.b32decode(letters + "=" * (-len(letters) % 8))
    return case(
        f"a host at {address}:{port}",
        "valid",
        ["JoinCode"],
        identity_key=said.identity_key.hex(),
        curve_key=said.curve_key.hex(),
        sig=said.sig.hex(),
        key_print_input=(JOIN_KEY_TAG + said.identity_key + said.curve_key).hex(),
        key_print=key_print(said).hex(),
        address=address,
        port=port,
        payload=plain[:-3].hex(),
        code=text,
    )


def _invalid(comment: str, flag: str, text: str) -> Json:
    return case(comment, "invalid", [flag], code=text, error="WireError")


def generate() -> Json:
    v4 = _valid("192.168.1.23", 47123, "ann")
    v6 = _valid("fd00::17", 5000, "bea")
    text = str(v4["code"])
    typo = text[:5] + ("b" if text[5] != "b" else "c") + text[6:]
    typed = text.upper().replace("-", " ")
    v6_text = str(v6["code"])
    letters = "abcdefghijklmnopqrstuvwxyz234567"
    trailing = v6_text[:-1] + letters[letters.index(v6_text[-1]) ^ 1]  # (an unused bit set)
    prints = bytes.fromhex(str(v4["key_print"]))
    rest = bytes([192, 168, 1, 23]) + (47123).to_bytes(2, "big") + prints
    codes = [
        v4,
        case("the same code, typed", "valid", ["Typed"], code=typed, same_as=text),
        v6,
        _invalid("one letter mistyped", "Typo", typo),
        _invalid("the last group left out", "Missing", text[:-5]),
        _invalid("one letter left out", "Missing", text[:-1]),
        _invalid("a last letter with unused bits set", "Trailing", trailing),
        _invalid("code version 1", "Version", _code_text(bytes([0x14]) + rest)),
        _invalid("address family 5", "Family", _code_text(bytes([0x25]) + rest)),
        _invalid(
            "port 0",
            "PortZero",
            _code_text(bytes([0x24, 192, 168, 1, 23, 0, 0]) + prints),
        ),
    ]
    said = _statement("ann")
    good = answer(said)
    bell = [
        case(
            "a host's answer",
            "valid",
            ["Doorbell"],
            ask=ASK.hex(),
            answer=good.hex(),
            identity_key=said.identity_key.hex(),
            curve_key=said.curve_key.hex(),
            sig=said.sig.hex(),
        ),
        case(
            "a signature that fails",
            "invalid",
            ["BadAnswer"],
            answer=(good[:-1] + bytes([good[-1] ^ 1])).hex(),
            error="WireError",
        ),
        case("one byte short", "invalid", ["BadAnswer"], answer=good[:-1].hex(), error="WireError"),
        case(
            "the question for an answer",
            "invalid",
            ["BadAnswer"],
            answer=ASK.hex(),
            error="WireError",
        ),
    ]
    return document(
        "join",
        "join code and doorbell (SPEC 8.6)",
        NOTES,
        [
            {"type": "JoinCode", "tests": codes},
            {"type": "Doorbell", "tests": bell},
        ],
        errors=ERRORS,
    )


def check(group: dict[str, Any], test: dict[str, Any]) -> None:
    if group["type"] == "Doorbell":
        said = read_answer(bytes.fromhex(test["answer"]))
        if said is None:
            raise WireError(WireReason.MALFORMED, "not the host's answer")
        assert said.identity_key.hex() == test["identity_key"]
        assert said.curve_key.hex() == test["curve_key"] and said.sig.hex() == test["sig"]
        assert answer(said).hex() == test["answer"] and ASK.hex() == test["ask"]
        return
    code = JoinCode.decode(test["code"])
    if "same_as" in test:
        assert code == JoinCode.decode(test["same_as"])
        return
    said = KeyStatement(
        bytes.fromhex(test["identity_key"]),
        bytes.fromhex(test["curve_key"]),
        bytes.fromhex(test["sig"]),
    )
    key_input = bytes.fromhex(test["key_print_input"])
    assert key_input == JOIN_KEY_TAG + said.identity_key + said.curve_key
    assert hashlib.sha256(key_input).digest()[:10].hex() == test["key_print"]
    assert code == JoinCode(test["address"], test["port"], bytes.fromhex(test["key_print"]))
    assert code.names(said) and code.encode() == test["code"]
    assert _code_text(bytes.fromhex(test["payload"])) == test["code"]
