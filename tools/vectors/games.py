"""Vectors for the games of the catalogue (SPEC 3.13): each game's description as canonical
JSON and its SHA-256, which every `announce_game` pins; and announcements a peer must refuse.

Generates and checks protocol/vectors/games.json; no I/O.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from p2pwillow.games import CATALOGUE, FORMER, spec_hash
from p2pwillow.games import weeping_willow as willow
from p2pwillow.ledger.canonical import canonical_bytes
from p2pwillow.rules import Announcement, ConfigError
from tools.vectors.common import Json, case, document

FILE_NAME = "games.json"

ERRORS: Mapping[str, type[Exception]] = {"ConfigError": ConfigError}

NOTES = {
    "Description": "A game of the catalogue: its description, the canonical JSON of it (SPEC "
    "6.1) and the SHA-256 of those bytes, which an announcement of the game pins.",
    "Former": "An earlier description of a game (SPEC 3.13.1): an announcement that pins its "
    "hash is read as the game's with the options it gained since (`gained`), each at the "
    "value that plays as before.",
    "Options": "Options an announcement may give the game: every option once, each in its range.",
    "MissingOption": "An option of the game is not given.",
    "UnknownOption": "An option the game does not have.",
    "OutOfRange": "An option's value is not one the game allows.",
    "Together": "Each value is allowed, but not together (SPEC 3.13: a step's own rule).",
    "TooMany": "The options deal more cards than one deck holds for this many players.",
}


def _descriptions() -> list[Json]:
    tests = []
    for game in CATALOGUE.values():
        described = game.describe()
        line = canonical_bytes(described)
        tests.append(
            case(
                f"the description of {game.title}",
                "valid",
                ["Description"],
                game=game.name,
                description=described,
                canonical=line.hex(),
                sha256=hashlib.sha256(line).hexdigest(),
            )
        )
    return tests


def _former() -> list[Json]:
    described = willow.former_description()
    line = canonical_bytes(described)
    digest = hashlib.sha256(line).hexdigest()
    game, gained = FORMER[digest]
    return [
        case(
            f"the description of {game.title} before it gained the option partner",
            "valid",
            ["Former"],
            game=game.name,
            description=described,
            canonical=line.hex(),
            sha256=digest,
            gained=dict(gained),
        )
    ]


def _announcements() -> list[Json]:
    ww, ryo = "weeping-willow", "roll-your-own"
    chooses = {"partner": "offerer-chooses"}
    in_turn = {"trading_mode": "in-turn", "closing": "orbit-without-trade", "orbits": 0, **chooses}
    valid: list[tuple[str, str, dict[str, Any], int]] = [
        ("Weeping Willow, five cards, in turn", ww, {"deal_size": 5, **in_turn}, 10),
        (
            "Weeping Willow, seven cards, free trading",
            ww,
            {
                "deal_size": 7,
                "trading_mode": "free",
                "closing": "dealer-calls",
                "orbits": 0,
                **chooses,
            },
            7,
        ),
        (
            "Weeping Willow, six cards, two orbits, the first to accept trades",
            ww,
            {
                "deal_size": 6,
                "trading_mode": "in-turn",
                "closing": "orbits",
                "orbits": 2,
                "partner": "first-accept",
            },
            8,
        ),
        ("Roll Your Own, six cards", ryo, {"deal_size": 6}, 8),
    ]
    invalid: list[tuple[str, str, str, dict[str, Any], int]] = [
        ("the deal size left out", "MissingOption", ww, in_turn, 4),
        ("an ante Weeping Willow does not have", "UnknownOption", ww,
         {"deal_size": 5, **in_turn, "ante": 25}, 4),
        ("an eight-card deal", "OutOfRange", ww, {"deal_size": 8, **in_turn}, 4),
        ("the deal size as text", "OutOfRange", ryo, {"deal_size": "5"}, 4),
        ("orbits above 100", "OutOfRange", ww,
         {"deal_size": 5, "trading_mode": "in-turn", "closing": "orbits", "orbits": 101,
          **chooses}, 4),
        ("a partner rule Weeping Willow does not have", "OutOfRange", ww,
         {"deal_size": 5, **in_turn, "partner": "dealer-chooses"}, 4),
        ("free trading that closes after an orbit without a trade", "Together", ww,
         {"deal_size": 5, "trading_mode": "free", "closing": "orbit-without-trade", "orbits": 0,
          **chooses}, 4),
        ("orbits given where trading does not close after them", "Together", ww,
         {"deal_size": 5, **{**in_turn, "orbits": 3}}, 4),
        ("seven cards each to eight players", "TooMany", ww, {"deal_size": 7, **in_turn}, 8),
        ("Roll Your Own, six cards each to nine", "TooMany", ryo, {"deal_size": 6}, 9),
    ]  # fmt: skip
    tests = [
        case(comment, "valid", ["Options"], game=g, options=options, players=players)
        for comment, g, options, players in valid
    ]
    tests += [
        case(comment, "invalid", [flag], game=g, options=options, players=players,
             error="ConfigError")
        for comment, flag, g, options, players in invalid
    ]  # fmt: skip
    return tests


def generate() -> Json:
    groups = [
        {"type": "GameDescription", "tests": _descriptions()},
        {"type": "FormerDescription", "tests": _former()},
        {"type": "Announcement", "tests": _announcements()},
    ]
    return document(
        "games",
        "game descriptions (SPEC 3.13)",
        NOTES,
        groups,
        header="Each game of the catalogue and what an announcement of it may say.",
        errors=ERRORS,
    )


def check(group: Json, test: Json) -> None:
    game = CATALOGUE[test["game"]]
    if group["type"] == "GameDescription":
        line = bytes.fromhex(test["canonical"])
        assert canonical_bytes(test["description"]) == line
        assert game.describe() == test["description"]
        assert hashlib.sha256(line).hexdigest() == test["sha256"] == spec_hash(game)
        return
    if group["type"] == "FormerDescription":
        line = bytes.fromhex(test["canonical"])
        assert canonical_bytes(test["description"]) == line
        assert hashlib.sha256(line).hexdigest() == test["sha256"]
        assert FORMER[test["sha256"]] == (game, test["gained"])
        return
    announced = Announcement(game, tuple(test["options"].items()))
    announced.check_fits(test["players"])
