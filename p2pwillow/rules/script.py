"""A game as data: its options, the money it takes, and its script of steps; and the one
interpreter that walks a script (SPEC 3.13). Pure; no I/O.

Theory of operation. A `GameSpec` is a frozen description: the options the dealer announces
(each with the values it may take), the money set aside before the deal, and a script of
`Step`s. The engine (`Hand`) knows no game by name. A hand starts in the announcement, where
the dealer names the game and its options (`Announcement`); from then on the hand is always at
one step of the game's script. The step says which phase the hand is in, whom it waits for
(`to_act`), which card operation the cryptography owes (`ops`), what a clock that runs out
does (`default`, `stall`) and what entering it does (`enter`). When a step is done, its rules
call `advance`, which enters the next step of the script: that is the only way a hand moves
from one step to another, so the order of a hand is the script and nothing else.

The steps every game can use are in `streets` (deal down, lay out, turn a laid-out card, a
betting round, the showdown); a game with a step of its own (Weeping Willow's trading) brings
it in its own module of the catalogue, `p2pwillow.games`.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from functools import cached_property
from typing import TYPE_CHECKING, ClassVar, TypeVar

from p2pwillow.limits import DECK_SIZE, MAX_SEATS, is_int
from p2pwillow.rules.errors import ConfigError, IllegalAction
from p2pwillow.rules.phases import Phase

if TYPE_CHECKING:
    from p2pwillow.rules.actions import Action
    from p2pwillow.rules.config import TableConfig
    from p2pwillow.rules.events import Event
    from p2pwillow.rules.state import HandState

OptionValue = int | str
Described = dict[str, object]
"""A plain, JSON-shaped description (SPEC 3.13): what a game's hash is taken over."""


class CardOp(enum.StrEnum):
    """The card operations between the rules and the cryptography (SPEC 3.13, 5): what a step
    asks of the mental-poker layer. The session's schedule has one row per operation."""

    DEAL_DOWN = "deal-down"
    """Every card of the deal step goes face down to its owner by key switch (SPEC 5.5)."""
    GIVE = "give"
    """A player gives cards of its hand to another, re-encrypted to the other's key (5.7)."""
    LAYOUT = "layout"
    """A player fixes the order of its hand face down; the rest is discarded (5.8)."""
    REVEAL = "reveal"
    """A player opens one position of its laid-out hand to everyone (5.9)."""
    STREET = "street"
    """Every key holder's shares for a deal step of the live deck (5.12)."""
    SHOW = "show"
    """A player shows the cards it holds face down (5.16)."""
    OPEN = "open"
    """A player opens its sealed choice (6.13): no card moves, but the session owes it."""


@dataclass(frozen=True, slots=True)
class OpDue:
    """Card operation `op` is owed by `seat` now; `index` is the laid-out card a reveal
    turns (0 otherwise)."""

    op: CardOp
    seat: int
    index: int = 0


class Opening(enum.StrEnum):
    """Who opens a betting round (SPEC 3.6)."""

    HIGH_CARD = "high-card"
    """The highest card showing."""
    HIGH_HAND = "high-hand"
    """The highest hand showing: partial hands rank without straights and flushes, five cards
    in full."""
    POSITION = "position"
    """The first player still in who can bet, from the dealer's left."""
    LOW_HAND = "low-hand"
    """The best low showing: the lowest face-up cards, ace low (a lowball game)."""


class BetSize(enum.StrEnum):
    """Which fixed-limit size a betting round uses (SPEC 3.7.4): the table's small or big bet."""

    SMALL = "small"
    BIG = "big"


class Forced(enum.StrEnum):
    """The money a game takes before the deal (SPEC 3.4)."""

    NONE = "none"
    """Nothing: the pot starts empty."""
    TRADE_TOKENS = "trade-tokens"
    """Each player sets trade tokens aside from its stack; a trade pays one into the pot."""
    ANTE = "ante"
    """Each player posts the table's ante into the pot (all it has, if that is less)."""


@dataclass(frozen=True, slots=True)
class Option:
    """A choice the dealer makes in the announcement: one of `choices`, or with no choices a
    whole number `low..high`."""

    name: str
    default: OptionValue
    choices: tuple[OptionValue, ...] = ()
    low: int = 0
    high: int = 0
    title: str = ""
    """How the client names it."""

    def __post_init__(self) -> None:
        self.check(self.default)

    def check(self, value: object) -> OptionValue:
        """The value, if the option may take it; ConfigError otherwise."""
        if self.choices:
            if isinstance(value, bool) or value not in self.choices:
                shown = ", ".join(map(str, self.choices))
                raise ConfigError(f"{self.name} must be one of {shown}, not {value!r}")
        elif not is_int(value) or not self.low <= value <= self.high:
            raise ConfigError(
                f"{self.name} must be a whole number {self.low}..{self.high}, not {value!r}"
            )
        assert isinstance(value, int | str)
        return value

    def describe(self) -> Described:
        out: Described = {"name": self.name, "default": self.default}
        if self.choices:
            out["choices"] = list(self.choices)
        else:
            out["low"], out["high"] = self.low, self.high
        return out


Default = Callable[["HandState"], list["Event"]]
"""A clock's default action for a seat, ready to apply to a copy of the state."""


class Step:
    """One step of a game's script (SPEC 3.13). A step type is a frozen dataclass: its fields
    are the description, its methods the rules of the step; the defaults say "nothing here"."""

    __slots__ = ()
    KIND: ClassVar[str] = ""
    """The step's name in a description."""
    PHASE: ClassVar[Phase]
    """The phase the hand is in while at this step."""
    ACTIONS: ClassVar[tuple[Action, ...]] = ()
    """The rows of the action table the step brings (the engine's own rows are in `actions`)."""

    def describe(self) -> Described:
        out: Described = {"step": self.KIND}
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            out[f.name] = value.value if isinstance(value, enum.Enum) else value
        return out

    def reads(self) -> tuple[str, ...]:
        """The names of the options this step reads (its game declares them)."""
        return ()

    def check_options(self, chosen: Mapping[str, OptionValue]) -> None:
        """ConfigError if the announced options do not go together for this step."""

    def cards_each(self, chosen: Mapping[str, OptionValue]) -> int:
        """Cards this step deals to each player (for the deck's fit)."""
        return 0

    def words(self, chosen: Mapping[str, OptionValue]) -> str:
        """What the announcement says of this step's options ("" for nothing)."""
        return ""

    def enter(self, config: TableConfig, s: HandState) -> list[Event]:
        """The hand arrives at this step; a step with nothing to wait for calls `advance`."""
        return []

    def to_act(self, s: HandState) -> tuple[int, ...]:
        """The seats the step waits for, in table order (SPEC 3.3)."""
        return ()

    def ops(self, s: HandState) -> tuple[OpDue, ...]:
        """The card operations owed now (SPEC 3.13)."""
        return ()

    def default(self, config: TableConfig, s: HandState, seat: int) -> Default:
        """A clock's default action for `seat` (SPEC 3.9), or IllegalAction."""
        raise IllegalAction(f"no clock runs for a seat in the {self.PHASE.value} phase")

    def stall(self, config: TableConfig, s: HandState, seat: int) -> list[Event]:
        """Fold `seat`, which stalled at this step after the deal (SPEC 3.9)."""
        raise IllegalAction(f"nobody is folded for stalling in the {self.PHASE.value} phase")


S = TypeVar("S", bound=Step)


@dataclass(frozen=True)
class GameSpec:
    """A game: its name on the wire, its title, the options the dealer announces, the money
    it takes before the deal, and its script (SPEC 3.13)."""

    name: str
    title: str
    options: tuple[Option, ...]
    forced: Forced
    script: tuple[Step, ...]
    players: tuple[int, int] = (2, MAX_SEATS)
    """The fewest and most players the game is for, whatever its options."""

    # Not slotted: the derived figures below are cached on the instance (a description never
    # changes).

    def __post_init__(self) -> None:
        names = [o.name for o in self.options]
        if len(set(names)) != len(names):
            raise ConfigError(f"{self.name}: an option is declared twice")
        for step in self.script:
            for name in step.reads():
                if name not in names:
                    raise ConfigError(f"{self.name}: its {step.KIND} reads an undeclared {name}")
        if not self.script or self.script[-1].PHASE is not Phase.SHOWDOWN:
            raise ConfigError(f"{self.name}: a script ends with the showdown")
        from p2pwillow.rules.actions import learn  # the action table imports this module

        for step in self.script:
            learn(step.ACTIONS)

    def describe(self) -> Described:
        """The description as plain data: what its hash pins (SPEC 3.13)."""
        return {
            "name": self.name,
            "title": self.title,
            "players": list(self.players),
            "options": [o.describe() for o in self.options],
            "forced": self.forced.value,
            "script": [step.describe() for step in self.script],
        }

    def option(self, name: str) -> Option:
        for o in self.options:
            if o.name == name:
                return o
        raise ConfigError(f"{self.title} has no option {name!r}")

    def check_options(self, chosen: Mapping[str, object]) -> dict[str, OptionValue]:
        """Every option given once, each within its range, together as each step requires;
        ConfigError naming the first one that is not."""
        names = {o.name for o in self.options}
        extra = sorted(str(n) for n in chosen if n not in names)
        if extra:
            raise ConfigError(f"{self.title} has no option {', '.join(extra)}")
        missing = sorted(names - set(chosen))
        if missing:
            raise ConfigError(f"the announcement of {self.title} lacks {', '.join(missing)}")
        checked = {o.name: o.check(chosen[o.name]) for o in self.options}
        for step in self.script:
            step.check_options(checked)
        return checked

    def cards_each(self, chosen: Mapping[str, OptionValue]) -> int:
        return sum(step.cards_each(chosen) for step in self.script)

    def seats_for(self, chosen: Mapping[str, OptionValue]) -> int:
        """The most players these options can deal to from one deck."""
        return min(self.players[1], DECK_SIZE // max(1, self.cards_each(chosen)))

    def check_fits(self, chosen: Mapping[str, OptionValue], players: int) -> None:
        """ConfigError unless `players` can play the game with these options (SPEC 3.3)."""
        low = self.players[0]
        if players < low:
            raise ConfigError(f"{self.title} needs at least {low} players, not {players}")
        most = self.seats_for(chosen)
        if players > most:
            each = self.cards_each(chosen)
            raise ConfigError(
                f"{self.title} with {each} cards each seats at most {most} players, not {players}"
            )

    @cached_property
    def _rounds(self) -> tuple[int, ...]:
        # The round each step belongs to: 0 before the first card turns or the first bet; then
        # the number of the betting round the step leads to (a turn and the bet after it share
        # their round).
        out: list[int] = []
        bets = 0
        started = False
        for step in self.script:
            started = started or step.PHASE in (Phase.REVEAL, Phase.BETTING)
            out.append(bets + 1 if started else 0)
            if step.PHASE is Phase.BETTING:
                bets += 1
        return tuple(out)

    def round_of(self, index: int) -> int:
        """The betting round step `index` of the script belongs to (0 before the first)."""
        return min(self._rounds[index], self.rounds)

    @cached_property
    def rounds(self) -> int:
        """The betting rounds of a hand played to the showdown."""
        return sum(step.PHASE is Phase.BETTING for step in self.script)

    def steps_of(self, kind: type[S]) -> tuple[S, ...]:
        return tuple(step for step in self.script if isinstance(step, kind))


@dataclass(frozen=True, slots=True)
class Announcement:
    """The dealer's announcement: the game of the hand and the value of each of its options
    (SPEC 3.3, 3.13). Built with `of`; checked on construction."""

    game: GameSpec
    chosen: tuple[tuple[str, OptionValue], ...]
    """Every option of the game with its value, by name."""

    def __post_init__(self) -> None:
        if not isinstance(self.game, GameSpec):
            raise ConfigError(f"an announcement names a game, not {self.game!r}")
        if not isinstance(self.chosen, tuple) or not all(
            isinstance(pair, tuple) and len(pair) == 2 for pair in self.chosen
        ):
            raise ConfigError("an announcement's options are (name, value) pairs")
        checked = self.game.check_options(dict(self.chosen))
        object.__setattr__(self, "chosen", tuple(sorted(checked.items())))

    @classmethod
    def of(cls, game: GameSpec, **chosen: OptionValue) -> Announcement:
        """`game` with these options, the others at their defaults."""
        values = {o.name: o.default for o in game.options}
        values.update(chosen)
        return cls(game, tuple(values.items()))

    @property
    def options(self) -> dict[str, OptionValue]:
        return dict(self.chosen)

    def option(self, name: str) -> OptionValue:
        for key, value in self.chosen:
            if key == name:
                return value
        raise ConfigError(f"{self.game.title} has no option {name!r}")

    def number(self, name: str) -> int:
        value = self.option(name)
        assert is_int(value), (name, value)
        return value

    def text(self, name: str) -> str:
        value = self.option(name)
        assert isinstance(value, str), (name, value)
        return value

    @property
    def cards_each(self) -> int:
        """Cards dealt to each player."""
        return self.game.cards_each(self.options)

    def check_fits(self, players: int) -> None:
        self.game.check_fits(self.options, players)

    def words(self) -> str:
        """ "Weeping Willow: 5 cards, trading in turn, …"."""
        # a setting several steps read (Car Wash's price at every wash) is said once
        said = list(
            dict.fromkeys(w for step in self.game.script if (w := step.words(self.options)))
        )
        return self.game.title + (": " + ", ".join(said) if said else "")


def current(s: HandState) -> Step:
    """The step the hand is at."""
    game = s.game
    if game is None or not 0 <= s.step < len(game.script):
        raise IllegalAction(f"no step of a game runs in the {s.phase.value} phase")
    return game.script[s.step]


def advance(config: TableConfig, s: HandState) -> list[Event]:
    """The current step is done: enter the next step of the game's script (SPEC 3.13)."""
    game = s.game
    assert game is not None and s.step + 1 < len(game.script), "the showdown ends a script"
    s.step += 1
    step = game.script[s.step]
    s.phase = step.PHASE
    s.betting_round = game.round_of(s.step)
    return step.enter(config, s)


__all__ = [
    "Announcement",
    "BetSize",
    "CardOp",
    "Default",
    "Described",
    "Forced",
    "GameSpec",
    "OpDue",
    "Opening",
    "Option",
    "OptionValue",
    "Step",
    "advance",
    "current",
]
