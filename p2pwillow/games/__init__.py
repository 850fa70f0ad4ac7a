"""The catalogue: every game this release plays, each a description the engine walks
(SPEC 3.13), and the whole action table with the entry kinds of its plain decisions. Pure; no
I/O.

A game is found by its name on the wire (`game`); the hash of its description (`spec_hash`)
is pinned by the announcement of every hand that plays it, so a peer or the verifier whose
catalogue holds another description of the game refuses the hand rather than play other rules.
`ACTIONS` is the whole action table: the engine's rows and those every catalogued game's own
steps bring.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from types import MappingProxyType

from p2pwillow.games.car_wash import CAR_WASH
from p2pwillow.games.live_deck import LIVE_DECK_GAMES
from p2pwillow.games.pass_the_card import PASS_THE_CARD
from p2pwillow.games.roll_your_own import ROLL_YOUR_OWN
from p2pwillow.games.split_pot import SPLIT_POT_GAMES
from p2pwillow.games.weeping_willow import BEFORE_PARTNER, WEEPING_WILLOW, former_description
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.canonical import canonical_bytes
from p2pwillow.ledger.fields import Body, FieldType, plain_kind
from p2pwillow.rules import ACTIONS as ENGINE_ACTIONS
from p2pwillow.rules import Action, ActionKind, ConfigError, GameSpec, Needs, OptionValue

CATALOGUE: Mapping[str, GameSpec] = MappingProxyType(
    {
        g.name: g
        for g in (
            WEEPING_WILLOW,
            ROLL_YOUR_OWN,
            *LIVE_DECK_GAMES,
            *SPLIT_POT_GAMES,
            CAR_WASH,
            PASS_THE_CARD,
        )
    }
)
"""Every game by its name on the wire, in the order a menu lists them."""

DEFAULT = WEEPING_WILLOW.name


def game(name: str) -> GameSpec:
    """The game called `name`; ConfigError naming the games there are if there is none."""
    found = CATALOGUE.get(name)
    if found is None:
        known = ", ".join(CATALOGUE)
        raise ConfigError(f"no game called {name!r} here (the games: {known})")
    return found


_HASHES: dict[str, str] = {}


def spec_hash(spec: GameSpec) -> str:
    """SHA-256 of the canonical JSON of the description, lowercase hex (SPEC 3.13)."""
    found = _HASHES.get(spec.name)
    if found is None or CATALOGUE.get(spec.name) is not spec:
        found = hashlib.sha256(canonical_bytes(spec.describe())).hexdigest()
        if CATALOGUE.get(spec.name) is spec:
            _HASHES[spec.name] = found
    return found


def _hash_of(described: Mapping[str, object]) -> str:
    return hashlib.sha256(canonical_bytes(described)).hexdigest()


FORMER: Mapping[str, tuple[GameSpec, Mapping[str, OptionValue]]] = MappingProxyType(
    {_hash_of(former_description()): (WEEPING_WILLOW, MappingProxyType(BEFORE_PARTNER))}
)
"""Earlier descriptions of a catalogued game, by their hash: an announcement that pins one is
read as the game's announcement with the options it gained since, each at the value that plays
as before (SPEC 3.13.1: Weeping Willow before `partner`)."""


DESCRIBED: Mapping[str, GameSpec] = MappingProxyType(
    {**CATALOGUE, **{g.name: g for g in LIVE_DECK_GAMES}}
)
"""Every game described, by name: the catalogue and the games of the live deck (SPEC 3.14),
whose rules are written but which the session does not deal yet (so no table calls them)."""


def _all_rows() -> tuple[Action, ...]:
    rows: dict[ActionKind, Action] = {a.kind: a for a in ENGINE_ACTIONS}
    for spec in DESCRIBED.values():
        for step in spec.script:
            for row in step.ACTIONS:
                rows.setdefault(row.kind, row)
    return tuple(rows.values())


ACTIONS: tuple[Action, ...] = _all_rows()
"""Every row of the action table, the engine's first, then each described game's own."""

ACTION: Mapping[ActionKind, Action] = MappingProxyType({a.kind: a for a in ACTIONS})
"""The row of every action kind."""

LEGACY_ANNOUNCE = "announce"
"""The entry kind of Weeping Willow's announcement in transcripts made before games were
descriptions (SPEC 3.13): it carries the announce action too."""

BY_ENTRY: Mapping[str, Action] = MappingProxyType(
    {
        **{a.entry: a for a in ACTIONS if a.decided},
        # a game's own row for an engine action carries it in an entry of its own (a live-deck
        # game's fold carries the folder's release)
        **{
            a.entry: a
            for spec in DESCRIBED.values()
            for step in spec.script
            for a in step.ACTIONS
            if a.decided and a.entry not in {b.entry for b in ACTIONS}
        },
        LEGACY_ANNOUNCE: ACTION[ActionKind.ANNOUNCE],
    }
)
"""The player action each decision entry kind carries (SPEC 7.2)."""

PLAIN_FIELD: Mapping[Needs, FieldType] = MappingProxyType(
    {
        Needs.K: k.TRADE_SIZE,
        Needs.AMOUNT: k.POSITIVE_CHIPS,
        Needs.OPEN_OFFER: k.SEQ,
        Needs.PARTNER: k.SEAT,
    }
)
"""The wire type of a plain decision's one field, by the argument its action needs (SPEC
6.10): the cards offered, chips, the seq of the offer answered, a seat."""


def _plain_body(row: Action) -> type[Body]:
    assert row.body is not None
    fields = [(name, PLAIN_FIELD[row.needs]) for name in row.body]
    doc = f"The author's {row.label or row.kind.value} (the action table's plain decision)."
    return plain_kind(row.entry, fields, doc)


PLAIN: Mapping[str, type[Body]] = MappingProxyType(
    {row.entry: _plain_body(row) for row in ACTIONS if row.body is not None}
)
"""The body of every plain decision (an entry that carries nothing but a player's action),
made from its row of the action table; the ledger's registry of kinds holds them too."""

k.add_plain(tuple(PLAIN.values()))


def plain(kind: str, **fields: object) -> Body:
    """The body of plain decision `kind` with these fields (`plain("bet", amount=25)`)."""
    make: Callable[..., Body] = PLAIN[kind]
    return make(**fields)


__all__ = [
    "ACTION",
    "ACTIONS",
    "BY_ENTRY",
    "CATALOGUE",
    "DEFAULT",
    "DESCRIBED",
    "FORMER",
    "LEGACY_ANNOUNCE",
    "PLAIN",
    "ROLL_YOUR_OWN",
    "WEEPING_WILLOW",
    "game",
    "plain",
    "spec_hash",
]
