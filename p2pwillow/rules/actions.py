"""The action table: every action and input of a hand, declared once (SPEC 3.3, 6.10, 7.2).

Pure; no I/O. One row per `ActionKind` says who brings the action about, the phases that admit
it, which entry kind carries it (SPEC 6.10, by its name on the wire), the one argument it
takes, the rules' check and step behind it, the event its step emits first, whether its entry
binds the head it was decided at (SPEC 7.1), and how a client offers it (its key and label).
`Hand`'s generic `verify` / `can` / `act` and `Hand.legal_actions`, the session's entry checks
and the bodies it builds, the ledger's plain entry kinds, the bots' legality, the view's hand
log and the client's keys all read this table. The rows here are the engine's; a game's own
step brings its rows with it (`Step.ACTIONS`, e.g. Weeping Willow's trading) and
`rows_of(game)` joins them.
"""

# ruff: noqa: E501 - the table below is one row per line, wider than the code around it

# Adding a player action
# ----------------------
# Three places:
# 1. The row, in this file: its member of `ActionKind` and its line in `ACTIONS` (or, for a
#    game's own action, in the `ACTIONS` of that game's step): who brings it about, the phases
#    that admit it, its entry kind, the argument it needs, its check and its step, the event
#    the step emits first, the fields of its entry if the entry carries nothing but the
#    action (`body`: the ledger's kind is made from them, `p2pwillow.games.PLAIN`), whether it
#    binds the head, and its key and label. The check and the step are the rules themselves,
#    written in the rule module of the row's phase (`betting_round` for a betting action); a
#    new event, if the action needs one, goes beside the others (`events`) with its words. The session's checks and the bodies it builds, the schema, the bots'
#    legality, the view's hand log and the client's key bar all follow from the row.
# 2. SPEC: its line in 3.3 or 3.7 and its entry in 6.10 (then `python -m tools.gen_schemas`).
# 3. A test that plays it.

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from p2pwillow.rules import betting_round, rounds, showdown, timeouts
from p2pwillow.rules.config import TableConfig
from p2pwillow.rules.events import (
    Announced,
    BetPlaced,
    Called,
    CardRevealed,
    Checked,
    Dealt,
    Event,
    Folded,
    FoldedForStalling,
    HandAborted,
    HandVoided,
    LaidOut,
    Raised,
    TimedOut,
    WentAllIn,
)
from p2pwillow.rules.phases import Phase
from p2pwillow.rules.state import HandState

if TYPE_CHECKING:
    from p2pwillow.rules.script import GameSpec


class ActionKind(enum.Enum):
    """Every action and input the engine knows, by its SPEC name (its row says the rest)."""

    ANNOUNCE = "announce"
    DEAL = "deal"
    OFFER = "offer"
    ACCEPT = "accept"
    DECLINE = "decline"
    WITHDRAW = "withdraw"
    CHOOSE_PARTNER = "choose-partner"
    PASS = "pass"
    CHOOSE_TRADE_CARDS = "choose-trade-cards"
    CLOSE_TRADING = "close-trading"
    LAY_OUT = "lay-out"
    REVEAL = "reveal"
    CHECK = "check"
    BET = "bet"
    CALL = "call"
    RAISE = "raise"
    FOLD = "fold"
    ALL_IN = "all-in"
    TIMEOUT = "timeout"
    STALL = "stall"
    ABORT = "abort"
    VOID = "void"
    STREET = "street"
    SHOW = "show"
    DRAW = "draw"
    DECLARE = "declare"
    OPEN_DECLARATION = "open-declaration"
    EARLY_SHOW = "early-show"
    POT_MATCH = "pot-match"
    CLOAK = "cloak"
    WASH_CALL = "wash-call"
    KEEP_CALL = "keep-call"
    FLIP = "flip"
    PASS_CARD = "pass-card"
    KEEP_CARD = "keep-card"


Check = Callable[[TableConfig, HandState, int, Any], None]
"""(config, state, seat, argument): raise IllegalAction with the reason, change nothing. An
argument of None asks whether the seat may take the action with some argument. The phase is
checked before (`Action.phases`)."""
Step = Callable[[TableConfig, HandState, int, Any], list[Event]]
"""(config, state, seat, argument): apply a checked action to a copy of the state; the events
it caused, the action's own first."""


class By(enum.Enum):
    """Who brings an action about (SPEC 3.3, 7.3)."""

    PLAYER = "player"
    """The player decides it: a key in the client, a bot's decision, an entry it signs."""
    SESSION = "session"
    """The player's session makes it by itself when it is due (the reveal)."""
    PROTOCOL = "protocol"
    """The protocol completes it (the deal, once every deal share is in)."""
    DEALER = "dealer"
    """The dealer's clock, for a seat that stalls (a timeout, a fold for stalling, an abort)."""


class Needs(enum.Enum):
    """The one argument an action takes."""

    NOTHING = "nothing"
    ANNOUNCEMENT = "announcement"
    """An `Announcement`: the game and its options."""
    K = "k"
    """The number of cards offered."""
    AMOUNT = "amount"
    """Chips: a bet, or a raise's new round total."""
    POSITIONS = "positions"
    """Hand positions: the cards given in a trade, or the layout in the order it turns."""
    PARTNER = "partner"
    """A seat: the partner an offerer chooses among those who accepted its offer."""
    OPEN_OFFER = "open offer"
    """The offer answered: always the open one (a `TradeOffer`, or None for it)."""
    CARD = "card"
    """The card a reveal turns, known once its proof verifies."""
    BLAME = "blame"
    """The seats an abort blames and its reason (`showdown.Blame`)."""
    SIGNERS = "signers"
    """The seats that signed a false claim the table stopped on (SPEC 7.9)."""
    OPENED = "opened"
    """What a deal step of the live deck opened: the up cards by seat and the board cards."""
    CARDS = "cards"
    """The cards a show opens, once its proof verifies."""
    CHOICE = "choice"
    """A sealed choice (`rules.declare.Declaration`): the player's decision names it, its
    entry carries only the commitment to it (SPEC 6.13), so the rules see None until it opens."""
    DECLARATION = "declaration"
    """A declaration opened: the choice, once its opening matches the commitment."""
    MATCH = "match"
    """The answer of a player put to match the pot or fold: True to match (SPEC 3.18)."""

    @property
    def decision_field(self) -> str | None:
        """The field of a player's decision (`Decision`) that carries this argument, or None
        when a decision carries none."""
        return self.value if self in _DECIDED else None


_DECIDED = frozenset(
    {
        Needs.ANNOUNCEMENT,
        Needs.K,
        Needs.AMOUNT,
        Needs.POSITIONS,
        Needs.PARTNER,
        Needs.CHOICE,
        Needs.MATCH,
    }
)


@dataclass(frozen=True, slots=True)
class Action:
    """One row of the action table."""

    kind: ActionKind
    by: By
    phases: frozenset[Phase]
    """The phases that admit the action (SPEC 3.2)."""
    entry: str
    """The entry kind that carries the action (SPEC 6.10, 7.2)."""
    needs: Needs
    check: Check
    step: Step
    event: type[Event] | tuple[type[Event], ...]
    """The event the step emits first (the hand log tells an entry's events from it)."""
    body: tuple[str, ...] | None
    """The body fields of a plain entry, one that carries nothing but the action (the session
    checks it and builds it from this row, and the ledger's entry kind is made from it); None
    where the entry also carries a mental-poker step or has checks of its own."""
    binds: bool
    """The decision means what it means only at the head it was made at (a call, a pass, an
    offer): its entry must come right after that head, `seen == prev` (SPEC 6.4, 7.1). False
    where the entry names what it answers (the offer, the trade) or is bound by its proofs."""
    key: str = ""
    """The client's key for it ("" where it has a panel of its own, or none)."""
    label: str = ""
    """How the client names it next to its key."""

    def argument(self, decision: object) -> object:
        """The argument a player's decision gives this action (None if it needs none)."""
        name = self.needs.decision_field
        return None if name is None else getattr(decision, name)

    @property
    def decided(self) -> bool:
        """A player decides it (a key, a bot's choice, an entry the player signs)."""
        return self.by is By.PLAYER


A, N = ActionKind, Needs
P, S, Q, D = By.PLAYER, By.SESSION, By.PROTOCOL, By.DEALER
rd, br, to, sd = rounds, betting_round, timeouts, showdown
ANNOUNCE, DEAL, LAYOUT, REVEAL, BETTING, TRADING = (
    frozenset({Phase.ANNOUNCE}),
    frozenset({Phase.DEAL}),
    frozenset({Phase.LAYOUT}),
    frozenset({Phase.REVEAL}),
    frozenset({Phase.BETTING}),
    frozenset({Phase.TRADING}),
)
CLOCKED = TRADING | BETTING
"""The phases where a decision has a default when its clock runs out (SPEC 3.9)."""
AFTER_DEAL = TRADING | LAYOUT | REVEAL | BETTING
"""The phases after the deal, where a stall folds the staller (SPEC 3.9)."""
BEFORE_DEAL = ANNOUNCE | DEAL
# a hand voids in any phase a player can act in (SHOWDOWN settles on entry: no input there)
RUNNING = frozenset(Phase) - {Phase.COMPLETE, Phase.ABORTED, Phase.SHOWDOWN}
"""Every phase of a hand not over yet."""

# fmt: off
ACTIONS: tuple[Action, ...] = (
    #      kind          by  phases       entry           needs           check               step            event                            body         binds  key  label
    Action(A.ANNOUNCE,   P, ANNOUNCE,    "announce_game", N.ANNOUNCEMENT, rd.verify_announce, rd.do_announce, Announced,                       None,        True),
    Action(A.DEAL,       Q, DEAL,        "deal_shares",   N.NOTHING,      rd.verify_deal,     rd.do_deal,     Dealt,                           None,        False),
    Action(A.LAY_OUT,    P, LAYOUT,      "hand_shuffle",  N.POSITIONS,    rd.verify_lay_out,  rd.do_lay_out,  LaidOut,                         None,        False),
    Action(A.REVEAL,     S, REVEAL,      "reveal",        N.CARD,         rd.verify_reveal,   rd.do_reveal,   CardRevealed,                    None,        False),
    Action(A.FOLD,       P, BETTING,     "fold",          N.NOTHING,      br.verify_fold,     br.do_fold,     Folded,                          (),          True,  "f", "fold"),
    Action(A.CHECK,      P, BETTING,     "check",         N.NOTHING,      br.verify_check,    br.do_check,    Checked,                         (),          True,  "k", "check"),
    Action(A.CALL,       P, BETTING,     "call",          N.NOTHING,      br.verify_call,     br.do_call,     Called,                          (),          True,  "c", "call"),
    Action(A.BET,        P, BETTING,     "bet",           N.AMOUNT,       br.verify_bet,      br.do_wager,    BetPlaced,                       ("amount",), True,  "b", "bet"),
    Action(A.RAISE,      P, BETTING,     "raise",         N.AMOUNT,       br.verify_raise,    br.do_wager,    Raised,                          ("to",),     True,  "r", "raise"),
    Action(A.ALL_IN,     P, BETTING,     "all_in",        N.NOTHING,      br.verify_all_in,   br.do_all_in,   WentAllIn,                       (),          True,  "a", "all in"),
    Action(A.TIMEOUT,    D, CLOCKED,     "timeout",       N.NOTHING,      to.verify_timeout,  to.do_timeout,  TimedOut,                        None,        False),
    Action(A.STALL,      D, AFTER_DEAL,  "timeout",       N.NOTHING,      to.verify_stall,    to.do_stall,    FoldedForStalling,               None,        False),
    Action(A.ABORT,      D, BEFORE_DEAL, "abort",         N.BLAME,        sd.verify_abort,    sd.do_abort,    HandAborted,                     None,        False),
    Action(A.VOID,       Q, RUNNING,     "table_stop",    N.SIGNERS,      sd.verify_void,     sd.do_void,     HandVoided,                      None,        False),
)
# fmt: on

ACTION: Mapping[ActionKind, Action] = MappingProxyType({a.kind: a for a in ACTIONS})
"""The engine's row of each action kind (a game's own actions: `rows_of`)."""


def rows_of(game: GameSpec | None) -> Mapping[ActionKind, Action]:
    """Every row a hand of `game` plays by: the engine's and its steps' own (the engine's
    alone before the announcement)."""
    if game is None:
        return ACTION
    return _rows(game)


_CACHE: dict[int, tuple[GameSpec, Mapping[ActionKind, Action]]] = {}
"""The rows of each game seen, by the game's id; the game is held with them, so that its id
cannot come back for another game."""


def _rows(game: GameSpec) -> Mapping[ActionKind, Action]:
    found = _CACHE.get(id(game))
    if found is None:
        rows = dict(ACTION)
        for step in game.script:
            for row in step.ACTIONS:
                rows[row.kind] = _joined(rows.get(row.kind), row)
        found = _CACHE[id(game)] = (game, MappingProxyType(rows))
    return found[1]


def _joined(before: Action | None, row: Action) -> Action:
    """`row`, admitting also the phases of the row of its kind an earlier step brought when
    both are the same action (its entry, check and step): a clock that runs in a pass street
    and at the declaration runs in both (SPEC 3.9). Another action of the kind replaces it."""
    if before is None or (before.entry, before.check, before.step) != (
        row.entry,
        row.check,
        row.step,
    ):
        return row
    return replace(row, phases=before.phases | row.phases)


_KNOWN: dict[ActionKind, Action] = dict(ACTION)


def learn(rows: Iterable[Action]) -> None:
    """Know the rows a game's own steps bring (`GameSpec` calls it when it is made)."""
    for row in rows:
        _KNOWN.setdefault(row.kind, row)


def known(kind: ActionKind) -> Action | None:
    """The row of `kind`: the engine's, or that of a step of a game described so far."""
    return _KNOWN.get(kind)


def decisions(rows: Iterable[Action]) -> tuple[Action, ...]:
    """The rows a player decides, in table order: the keys of a client, a bot's choices."""
    return tuple(a for a in rows if a.decided)


__all__ = [
    "ACTION",
    "ACTIONS",
    "AFTER_DEAL",
    "BEFORE_DEAL",
    "CLOCKED",
    "Action",
    "ActionKind",
    "By",
    "Check",
    "Needs",
    "Step",
    "decisions",
    "known",
    "learn",
    "rows_of",
]
