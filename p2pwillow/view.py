"""The table as one player sees it: a frozen `TableView` built from a `Session` (DESIGN 7).

Pure; no I/O, no clock, no randomness. The terminal client draws this view and nothing else;
tests and any other front end read the same values. Everything here is read from the
session's public state (`hand`, `game`, `ledger`, `cards`, `given`, `received`, `layout`,
`waiting_for()`, `summaries`); the reasons an action is not allowed are the rules' own.
"""

# How the view is built
# ---------------------
# `table_view(session, links)` reads the session once and returns values only: seats, pots,
# the player's own cards, the open offer, every player action with its bounds or the
# reason it is refused, what the hand waits for and the last events, all in plain words.
#
# The actions are the rows of the action table the hand plays by (the engine's and its
# game's own): the view asks `Hand.legal_actions` which are open and, for every other one,
# the rules' reason (`Hand.verify` with no argument); `Session.decision_error` checks a real
# decision the same way before a client sends it.
#
# The event log is told from the ledger: each entry of the hand is one line (a proof
# checked, a card given), and the rules events it caused (`Hand.events`, in the same
# order) are told after it, each in its own words (`Event.words`). An entry causes its
# "lead" event, the one its row of the action table names (a call entry causes `Called`),
# followed by the events the rules made by themselves (`Event.FOLLOWS`: a trade made, a
# round opened, the hand's end), so walking both in step pairs them up.

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from p2pwillow import evaluators
from p2pwillow.cards import RANK_NAMES, Card
from p2pwillow.games import ACTIONS as ALL_ACTIONS
from p2pwillow.games import CATALOGUE, DESCRIBED, LEGACY_ANNOUNCE
from p2pwillow.games import weeping_willow as ww
from p2pwillow.hands import best_hand, showing_value
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.commitment import DECLARE, commitment, nonce_from
from p2pwillow.ledger.entry import Entry
from p2pwillow.ledger.errors import LocalProtocolError
from p2pwillow.ledger.identity import fingerprint, named
from p2pwillow.rules import (
    ActionKind,
    Announcement,
    Dealt,
    Event,
    GameSpec,
    Hand,
    HandEnded,
    IllegalAction,
    LaidOut,
    Phase,
    SitOutReason,
    TimedOut,
    build_pots,
    decisions,
)
from p2pwillow.rules.declare import Declare, SettleSplit, side_sets
from p2pwillow.rules.events import CardsShown, Declared, Drew, PotSplit, Sealed, StreetDealt
from p2pwillow.rules.live import Deal, Draw, Formation, Settle, deals_live, hand_value
from p2pwillow.rules.passing import pass_price
from p2pwillow.rules.wash import Wash, cloak_cost, flip_cost, wash_cost, wash_most
from p2pwillow.seat import end_reason
from p2pwillow.session import HandSummary, Session, Step, timekeeping

LOG_LINES = 40
"""How many of the last events a view keeps."""

HAND_CARDS = 5
"""The cards of a poker hand: five showing are valued in full (SPEC 2.4, 2.5)."""

DEAL_SIZE = "deal_size"
"""The option that holds a deal's size, in the games that let the dealer choose it."""

_NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}


class Link(enum.Enum):
    """A peer's connection as the client knows it (DESIGN 6: away before gone)."""

    LOCAL = "in process"
    CONNECTING = "connecting"
    CONNECTED = "connected"
    AWAY = "away"
    GONE = "gone"


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the event log: text with cards in it (the client chooses how to show a
    card: Unicode or ASCII suits, colours)."""

    parts: tuple[str | Card, ...]

    def text(self, unicode: bool = True) -> str:
        return "".join(
            p if isinstance(p, str) else (p.unicode if unicode else p.ascii) for p in self.parts
        )


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    name: str
    stack: int
    """Chips behind (tokens set aside and chips bet this hand excluded)."""
    tokens: int
    """Trade tokens still set aside."""
    bet: int
    """Chips bet in the current betting round."""
    showing: tuple[Card, ...]
    """Face-up cards in the order turned."""
    face_down: int
    """Cards still to come face down: the hand before the layout, the unturned layout cards
    after it (discards are not among them: `discards`)."""
    showing_text: str
    """What the face-up cards make ("pair of kings"), empty when none show."""
    in_hand: bool
    folded: bool
    all_in: bool
    sitting_out: bool
    away: bool
    to_act: bool
    """The hand waits for this seat's decision (announce, trade, lay out, bet)."""
    working: bool
    """The hand waits for one of this seat's protocol steps (a shuffle, shares, a reveal)."""
    dealer: bool
    you: bool
    link: Link | None
    """None for the player's own seat."""
    won: int
    """Chips won at the end of the hand (0 before it ends)."""
    fingerprint: str = ""
    """The player's fingerprint (SPEC 6.2), shown beside its name: `Bob #K7QD`."""
    discards: int = 0
    """Cards discarded face down at the layout: never turned, never shown."""
    trades: tuple[tuple[int, int], ...] = ()
    """(the other seat, cards each way) of every trade this seat made this hand, in order."""
    drew: int | None = None
    """In a draw game, while the hand runs: how many cards this seat discarded in the draw
    (0: it stood pat); None before its draw, or in a game without one."""
    sealed: bool = False
    """In a split-pot game, from its declaration on: the seat has sealed its declaration
    (SPEC 3.16). What it chose is nobody else's to know until every declaration is open."""
    declared: str = ""
    """The seat's declaration (`high`, `low` or `pig`) once every declaration of the hand is
    open, shown together; empty before, for a seat that never declared, and in other games."""

    @property
    def label(self) -> str:
        """The name as the screens show it, with the fingerprint."""
        return f"{self.name} #{self.fingerprint}" if self.fingerprint else self.name


@dataclass(frozen=True, slots=True)
class TradeView:
    """A trade made this hand: who offered, who took it, how many cards went each way."""

    offerer: int
    acceptor: int
    k: int


@dataclass(frozen=True, slots=True)
class PotView:
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...] = ()
    """Set once the hand has ended."""


@dataclass(frozen=True, slots=True)
class OwnCard:
    """One of the player's cards by hand position; `came_from` is the seat it was received
    from in a trade (None for a card dealt to the player)."""

    position: int
    card: Card
    came_from: int | None


@dataclass(frozen=True, slots=True)
class WashView:
    """The player's wash (SPEC 3.17): up to `most` cards, each face down or face up, each at
    its price (a price of 0: the wash is free)."""

    price: int
    """Chips to wash a face-up card."""
    price_down: int
    """Chips to wash a face-down card."""
    down: tuple[Card, ...]
    """Its face-down cards, in the order of its public hand (positions 0..)."""
    up: tuple[Card, ...]
    """Its face-up cards in the order dealt (positions after the face-down ones)."""
    most: int = 1
    """The cards it may wash now: the wash's own bound, less what it washed earlier in the
    hand where the game bounds the whole hand's washes (Car Wash's two)."""
    cloak: int | None = None
    """Chips to cloak a face-up card instead: wash it and be dealt another face down (Go for
    Broke); None where the wash offers no cloak."""
    flip: int | None = None
    """Chips to flip instead: turn a face-down card up and wash a face-up one, another dealt
    face down (Five by Two); None where the wash offers no flip."""

    @property
    def cards(self) -> tuple[Card, ...]:
        """All its cards by the wash's position: face down first, then face up."""
        return self.down + self.up

    def is_down(self, position: int) -> bool:
        return position < len(self.down)

    def chips(self, position: int) -> int:
        return self.price_down if self.is_down(position) else self.price

    @property
    def free(self) -> bool:
        """Washing costs nothing here, face up or face down (Car Wash by default)."""
        return not self.price and not self.price_down


@dataclass(frozen=True, slots=True)
class OfferView:
    offerer: int
    k: int
    accepted_by: int | None
    """Set once the trade is agreed (the offerer chose its partner, or the first accept): both
    sides now choose the cards they give."""
    waiting: tuple[int, ...]
    """Who may answer it now, or the offerer once it must choose, or (once agreed) which side
    still has to give."""
    accepted: tuple[int, ...] = ()
    """Before the trade is agreed: who accepted so far, in the order they did; the offerer
    chooses among them (SPEC 3.5)."""
    answering: tuple[int, ...] = ()
    """Before the trade is agreed: who has not answered yet."""


@dataclass(frozen=True, slots=True)
class ActionView:
    """One player action: whether the player may take it now and, if not, the rules' reason.

    `low`/`high` bound its number where it takes one: the bet, the raise-to total, the
    offer size, the cards to give, the layout (5 of the hand), the cloak's one card, the flip's
    two. `amount` is what a call puts in, the round total an all-in reaches, what a match of
    the pot puts in (SPEC 3.18) and what a cloak or a flip costs (SPEC 3.17).
    """

    kind: ActionKind
    legal: bool
    reason: str = ""
    low: int | None = None
    high: int | None = None
    amount: int | None = None


@dataclass(frozen=True, slots=True)
class Waiting:
    """What the hand waits for from some seats, in plain words."""

    seats: tuple[int, ...]
    what: str
    you: bool


@dataclass(frozen=True, slots=True)
class AdmissionView:
    """A newcomer's admission, open now (SPEC 6.6): everyone at the table compares the new
    safety code aloud and answers it before the newcomer is dealt a card."""

    seat: int
    newcomer: str
    """Its name with its fingerprint (SPEC 6.2)."""
    join: str
    """The hash of its `join`, hex: which admission an answer is for."""
    you_join: bool
    """The player is the newcomer."""
    admitted: tuple[str, ...]
    """Who has admitted it, each name with its fingerprint."""
    waiting: tuple[str, ...]
    """Who has not answered yet."""
    yours_due: bool
    """The player's answer is due (not given, none on its way)."""


@dataclass(frozen=True, slots=True)
class SittingOut:
    """The player's seat sits out (SPEC 3.11), for a lasting banner."""

    since: int
    """The first hand it sits out."""
    why: str
    """Why, in the player's words ("folded when your clock ran out")."""
    back_from: int
    """The hand it plays again from if it asks now: its `sit_in` is written as soon as the
    rules allow (once a hand has started without it) and counts from the next hand."""


SIT_OUT_WHY = {
    SitOutReason.FOLDED_FOR_STALLING: "folded when your clock ran out",
    SitOutReason.BLAMED_FOR_ABORT: "your clock ran out before the deal",
    SitOutReason.REPLACED_SEQUENCER: "your clock ran out as dealer",
    SitOutReason.MISSED_HEAD_SIGNATURE: "you did not sign a hand in time",
    SitOutReason.MISSED_HAND_START: "you did not deal in time",
}
"""Why a seat sits out, in the words its player reads (short: the banner holds the key too)."""


@dataclass(frozen=True, slots=True)
class ClockView:
    """The clocks as this player's session measures them (SPEC 3.14, 7.5), at `at`: the `now`
    the client passed when it built the view (None: the client keeps no real time, and no
    countdown is shown). A front end counts down from `at` with its own clock until the next
    view; while the table is paused nothing counts down."""

    at: float | None
    left: tuple[tuple[int, float], ...]
    """Each seat the game waits for, with the seconds left on its clock at `at` (below zero:
    it has run out and the witnesses vote)."""
    action_clock: int
    warn_at: int
    """From this many seconds left, a screen warns the seat's player."""
    bank: int
    """Seconds left in this player's time bank."""
    bank_step: int
    """Seconds one press of the time bank key adds (at most what the bank holds)."""
    pauses: int
    """Pauses this player may still make."""
    pause_limit: int
    paused_by: int | None = None
    """The seat that paused the table, while it is paused on this player's clock."""
    paused_for: float | None = None
    """How long the pause had lasted at `at` (0 when the client keeps no real time)."""
    pause_seconds: int = 0
    """The most the pause in force lasts."""
    arbiter: int | None = None
    """The arbiter's seat (None: no arbiter, or it left)."""
    you_arbiter: bool = False
    end_ruled: bool = False
    """The arbiter has ended the game: no hand starts any more."""

    def seconds(self, seat: int) -> float | None:
        """Seconds left on `seat`'s clock at `at`, if the game waits for it."""
        return next((left for s, left in self.left if s == seat), None)

    @property
    def paused(self) -> bool:
        return self.paused_by is not None


@dataclass(frozen=True, slots=True)
class TableView:
    table: str
    hand: int
    """The current (or last) hand's number; 0 before the first."""
    dealer: int | None
    safety_code: str
    seats: tuple[SeatView, ...]
    you: int | None
    seated: bool
    """Every player has accepted the table."""
    phase: Phase | None
    """The phase of the current or last hand; None before the first hand."""
    stage: str
    """Where the game is, in plain words ("round 2: betting")."""
    betting_round: int
    announcement: Announcement | None
    deal_sizes: tuple[int, ...]
    """The deal sizes the next announcement may choose (players x cards fit the deck)."""
    games: tuple[GameSpec, ...]
    """The games a dealer may announce at this table, that deal to its players now."""
    pot: int
    """Every chip in the middle: the pots and the bets of the round being played."""
    pots: tuple[PotView, ...]
    """Main pot first, then side pots, as the last finished betting round left them."""
    current_bet: int
    cards: tuple[OwnCard, ...]
    given: tuple[tuple[int, tuple[Card, ...]], ...]
    """(seat, cards the player gave it in trades and no longer holds)."""
    layout: tuple[Card, ...] | None
    """The player's five layout cards in reveal order, once laid out."""
    discards: tuple[Card, ...]
    offer: OfferView | None
    actions: tuple[ActionView, ...]
    waiting: tuple[Waiting, ...]
    log: tuple[Line, ...]
    decision_due: bool
    decision_pending: bool
    hand_running: bool
    game_over: bool
    result: tuple[Line, ...] = field(default=())
    """How the current or last hand ended (winners and pots), once it has."""
    may_sit_in: bool = False
    """The player's seat sits out (timed out, say) with chips: it may ask to play again, and
    its `sit_in` is written between hands once the rules allow (SPEC 3.11)."""
    admission: AdmissionView | None = None
    """A newcomer's admission open now (SPEC 6.6), if one is."""
    token_value: int = 0
    """Chips a trade token is worth (the table's `token_value`)."""
    trades: tuple[TradeView, ...] = ()
    """Every trade of the current or last hand, in order."""
    over_reason: str = ""
    """Why the game is over, in plain words, once it is (`seat.end_reason`); else empty."""
    reading: bool = False
    """The hand has ended and the table waits for this player to have seen its result (a key,
    or the grace): its head signature is held, so no next hand starts (SPEC 8.9)."""
    sitting_out: SittingOut | None = None
    """The player's seat sits out with chips (it may sit in again): since when, why, and
    from which hand it plays again if it asks now (SPEC 3.11); None when it plays."""
    clock: ClockView | None = None
    """Whose clock runs and for how long, the pause, the time bank, the arbiter; None for an
    observer."""
    live: bool = False
    """The current or last hand is a game dealt from the live deck (SPEC 3.15): each seat's
    `showing` are its up cards, and at the showdown the down cards it showed after them; the
    player's `cards` are its down cards; there may be a `board`."""
    game_title: str = ""
    """The title of the game of the current or last hand once announced ("Texas Hold'em")."""
    street: str = ""
    """In a live-deck game, the street being dealt or bet on ("the flop", "fifth street")."""
    board: tuple[Card, ...] = ()
    """A live-deck game's board cards, in the order dealt."""
    board_size: int = 0
    """The cards the game's board gets in all (0: the game has no board)."""
    made: str = ""
    """In a live-deck game, what the player's cards (down, up and the board) make now by the
    game's formation ("two pair, jacks and nines, king kicker"); empty when they make nothing
    yet that the formation can say, or the player folded."""
    draw_most: int = 0
    """In a draw game, the most cards a player discards in the draw (0: the game has none)."""
    drawn: tuple[Card, ...] = ()
    """In a draw game, the cards the player was dealt for its discards, once dealt (the last
    of its `cards`)."""
    wash: WashView | None = None
    """At a wash (SPEC 3.17) while it is the player's to decide: the prices and its cards
    numbered as the wash names them; None otherwise."""
    high_side: str = ""
    """In a split-pot game (SPEC 3.16), what its first side (the declaration's `high`) is won
    with: "the best hand" in the high-low games; empty in other games."""
    low_side: str = ""
    """In a split-pot game, what its second side (the declaration's `low`) is won with:
    "eight-or-better low", "the highest spade in the hole"; empty in other games."""
    declaring: bool = False
    """The hand is at its declaration: every player still in seals low, high or pig, then all
    open together (SPEC 3.16)."""
    your_declaration: str = ""
    """The player's own declaration once sealed (its own commitment, which only its hand
    secret opens), and after; empty before it has sealed and for an observer."""
    carried_in: int = 0
    """Chips in this hand's main pot carried over from the last hand, whose pot nobody won
    (SPEC 3.16)."""
    carried: int = 0
    """Once the hand has ended: the chips of its pots nobody won, carried over to the next."""

    def action(self, kind: ActionKind) -> ActionView:
        for a in self.actions:
            if a.kind is kind:
                return a
        return ActionView(kind, False, f"{kind.value.replace('-', ' ')} is not a player's action")

    def seat(self, seat: int) -> SeatView | None:
        for s in self.seats:
            if s.seat == seat:
                return s
        return None

    @property
    def mine(self) -> SeatView | None:
        """The seat of the player the view is for (None for a watcher)."""
        return None if self.you is None else self.seat(self.you)

    def name(self, seat: int) -> str:
        s = self.seat(seat)
        return f"seat {seat}" if s is None else s.name

    @property
    def legal(self) -> tuple[ActionKind, ...]:
        return tuple(a.kind for a in self.actions if a.legal)


# --- the player actions: the hand's rows of the action table ---------------------------------


def _not_running(session: Session) -> str | None:
    if session.seat is None:
        return "an observer takes no part"
    hand = session.hand
    if not session.seated:
        return "the table is still being seated"
    if hand is None or hand.is_over or session.between_hands:
        return "no hand is running"
    if session.seat not in hand.seats:
        return "you sit out this hand"
    return None


def _actions(session: Session) -> tuple[ActionView, ...]:
    hand = session.hand
    current = _current_hand(session)
    # the rows of the hand being played; between hands, every game's
    running = hand is not None and current is not None and not current.is_over
    rows = decisions(hand.rows if running and hand is not None else ALL_ACTIONS)
    closed = _not_running(session)
    if closed is not None:
        return tuple(ActionView(a.kind, False, closed) for a in rows)
    me = session.seat
    assert hand is not None and me is not None
    legal = hand.legal_actions(me)
    held_back = session.held_back()
    options = hand.bet_options(me)
    out: list[ActionView] = []
    for row in rows:
        kind = row.kind
        if kind not in legal:
            try:
                hand.verify(kind, me)
                reason = f"{row.label or kind.value.replace('-', ' ')} is not allowed now"
            except IllegalAction as exc:
                reason = session.named(str(exc))
            out.append(ActionView(kind, False, reason))
            continue
        if held_back is not None:
            out.append(ActionView(kind, False, held_back))
            continue
        low = high = amount = None
        if kind is ActionKind.OFFER:
            low, high = 1, hand.hand_size(me)
        elif kind is ActionKind.CHOOSE_TRADE_CARDS:
            sides = ww.trade_sides(hand)
            low = high = None if sides is None else sides[2]
        elif kind is ActionKind.LAY_OUT:
            low, high = hand.showdown_cards, hand.hand_size(me)
        elif kind is ActionKind.DRAW:
            step = hand.step
            low, high = 0, step.most if isinstance(step, Draw) else None
            if isinstance(step, Wash):
                high = wash_most(hand, me)  # its bound less its washes so far (SPEC 3.17)
        elif kind is ActionKind.CLOAK:
            low, high, amount = 1, 1, cloak_cost(hand)  # one face-up card, at its price
        elif kind is ActionKind.FLIP:
            low, high, amount = 2, 2, flip_cost(hand)  # a face-down and a face-up card
        elif options is not None and kind is ActionKind.BET:
            low, high = options.bet_min, options.bet_max
        elif options is not None and kind is ActionKind.RAISE:
            low, high = options.raise_min, options.raise_max
        elif options is not None and kind is ActionKind.CALL:
            amount = options.call_amount
        elif options is not None and kind is ActionKind.ALL_IN:
            amount = options.all_in_to
        elif kind in (ActionKind.EARLY_SHOW, ActionKind.POT_MATCH):
            amount = hand.match_amount(me)  # what a match puts in now (SPEC 3.18)
        out.append(ActionView(kind, True, "", low, high, amount))
    return tuple(out)


# --- seats, pots, cards -----------------------------------------------------------------------


def _names(session: Session) -> dict[int, str]:
    return session.names()


def _showing_text(cards: Sequence[Card]) -> str:
    if not cards:
        return ""
    if len(cards) >= HAND_CARDS:
        return best_hand(cards[:HAND_CARDS]).text
    return showing_value(cards).text


def _current_hand(session: Session) -> Hand | None:
    """The rules state of the hand being played or just played (None before the first)."""
    hand = session.hand
    if hand is None or hand.hand_number != session.hand_number:
        return None
    return hand


_DECIDING = (Step.DECISION, Step.ANNOUNCE, Step.LAYOUT, Step.TRADE_GIVE)
"""The waits that are the player's own decision (the others are protocol steps)."""


def _seats(
    session: Session,
    hand: Hand | None,
    names: Mapping[int, str],
    links: Mapping[int, Link],
) -> tuple[SeatView, ...]:
    me = session.seat
    waits = session.waiting_for()
    deciding = {w.seat for w in waits if w.step in _DECIDING}
    working = {w.seat for w in waits} - deciding
    running = hand is not None and not hand.is_over
    live = hand is not None and deals_live(hand.game)
    drew = _drew(hand) if running and hand is not None else {}
    sealed, declared = _declarations(hand)
    won: dict[int, int] = {}
    if hand is not None and hand.result is not None:
        for award in hand.result.awards:
            for s, share in zip(award.winners, award.shares, strict=True):
                won[s] = won.get(s, 0) + share
    out: list[SeatView] = []
    for p in session.game.players:
        s = p.seat
        in_hand = hand is not None and s in hand.seats
        link = None if s == me else links.get(s)
        if hand is not None and in_hand:
            showing = hand.showing(s)
            laid = hand.phase not in (Phase.ANNOUNCE, Phase.DEAL, Phase.TRADING, Phase.LAYOUT)
            laid = laid or (hand.phase is Phase.LAYOUT and s not in hand.to_act())
            held = hand.hand_size(s)
            discards = 0
            showing_text = _showing_text(showing)
            if live:
                # up cards and, after the show, the down cards: never discarded (SPEC 3.15)
                face_down = max(0, held - len(showing)) if running else 0
                showing_text = _live_showing_text(hand, s)
            elif not running:
                face_down = 0
            elif laid:
                # the layout's unturned cards are still to come; the rest were discarded
                layout = min(held, hand.showdown_cards)
                face_down = max(0, layout - len(showing))
                discards = held - layout
            else:
                face_down = held
            seat = SeatView(
                seat=s,
                name=p.name,
                stack=hand.stack(s),
                tokens=hand.tokens(s),
                bet=hand.round_bet(s) if hand.phase is Phase.BETTING else 0,
                showing=showing,
                face_down=face_down,
                showing_text=showing_text,
                in_hand=True,
                folded=hand.is_folded(s),
                all_in=running and hand.is_all_in(s),
                sitting_out=p.sitting_out,
                away=link is Link.AWAY,
                to_act=running and s in deciding,
                working=running and s in working,
                dealer=hand.dealer == s,
                you=s == me,
                link=link,
                won=won.get(s, 0),
                fingerprint=_fingerprint(p.player_id),
                discards=discards,
                trades=tuple(
                    (t.acceptor if t.offerer == s else t.offerer, t.k)
                    for t in ww.trades(hand)
                    if s in (t.offerer, t.acceptor)
                ),
                drew=drew.get(s),
                sealed=s in sealed,
                declared=declared.get(s, ""),
            )
        else:
            seat = SeatView(
                seat=s,
                name=p.name,
                stack=p.stack,
                tokens=0,
                bet=0,
                showing=(),
                face_down=0,
                showing_text="",
                in_hand=False,
                folded=False,
                all_in=False,
                sitting_out=p.sitting_out or p.stack == 0,
                away=link is Link.AWAY,
                to_act=False,
                working=False,
                dealer=False,
                you=s == me,
                link=link,
                won=0,
                fingerprint=_fingerprint(p.player_id),
            )
        out.append(seat)
    return tuple(out)


def _fingerprint(player_id: str) -> str:
    """The fingerprint of a player id that is an identity key in hex (SPEC 3.11, 6.2)."""
    try:
        return fingerprint(bytes.fromhex(player_id))
    except (ValueError, LocalProtocolError):
        return ""


def _pots(hand: Hand | None) -> tuple[PotView, ...]:
    """The main pot and side pots as the last finished betting round left them (SPEC 3.8);
    the bets of the round being played are each seat's `bet` until the round is over."""
    if hand is None:
        return ()
    if hand.result is not None:
        return tuple(PotView(a.pot.amount, a.pot.eligible, a.winners) for a in hand.result.awards)
    seats = hand.seats
    betting = hand.phase is Phase.BETTING
    bets = [hand.committed(s) - (hand.round_bet(s) if betting else 0) for s in seats]
    folded = [hand.is_folded(s) for s in seats]
    if all(folded):
        return ()
    dead = hand.pot - sum(hand.committed(s) for s in seats)
    pots = build_pots(seats, bets, folded, dead)
    return tuple(PotView(p.amount, p.eligible) for p in pots)


def _own_cards(session: Session) -> tuple[OwnCard, ...]:
    out: list[OwnCard] = []
    for i, card in enumerate(session.cards):
        came = None
        for giver, cards in session.received.items():
            if card in cards:
                came = giver
        out.append(OwnCard(i, card, came))
    return tuple(out)


def _offer(hand: Hand | None) -> OfferView | None:
    if hand is None or hand.phase is not Phase.TRADING:
        return None
    offer = ww.open_offer(hand)
    if offer is not None:
        return OfferView(
            offer.offerer, offer.k, None, hand.to_act(), ww.accepted(hand), ww.answering(hand)
        )
    sides = ww.trade_sides(hand)
    if sides is not None:
        return OfferView(sides[0], sides[2], sides[1], hand.to_act())
    return None


# --- live-deck games (SPEC 3.15) ------------------------------------------------------------

_ORDINALS = {2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth", 7: "seventh"}
_BOARD_STREETS = {0: "before the flop", 3: "the flop", 4: "the turn", 5: "the river"}


def _formation(game: GameSpec) -> Formation:
    settles = game.steps_of(Settle)
    if settles:
        return settles[0].formation
    split = _settle_split(game)
    return Formation.BEST_FIVE if split is None else split.formation


def board_size(game: GameSpec | None) -> int:
    """The cards `game`'s board gets in all (a stud overflow card is not counted: it is the
    house's rule for a short deck, not a board)."""
    if game is None:
        return 0
    return sum(d.board for d in game.steps_of(Deal) if not d.overflow)


def street_name(game: GameSpec, betting_round: int) -> str:
    """The street betting round `betting_round` (1 for the first) of a live-deck game is bet
    on, or a deal leads to (0: the first deal): "the flop" where the game has a board, else by
    the cards each player holds ("fifth street")."""
    board = each = bets = 0
    declared = False
    for step in game.script:
        if step.PHASE is Phase.BETTING:
            bets += 1
            if bets >= max(1, betting_round):
                break
        elif isinstance(step, Declare):
            declared = True  # the bet after the declaration is on no new street
        elif isinstance(step, Deal) and not step.overflow:
            board += step.board
            each += step.down + step.up
        elif isinstance(step, Deal):
            each += step.down + step.up
    if declared and betting_round > 0:
        return "after the declaration"
    if board_size(game):
        return _BOARD_STREETS.get(board, f"{board} cards on the board")
    if not any(d.up or d.board for d in game.steps_of(Deal)):
        # nothing is dealt face up: a draw game, whose streets are its draws
        return "before the draw" if betting_round <= 1 else "after the draw"
    return f"{_ORDINALS.get(each, f'{each}th')} street"


def made_by(
    game: GameSpec,
    own: Sequence[Card],
    board: Sequence[Card],
    hole: Sequence[Card] | None = None,
) -> str:
    """What `own` cards make with `board` by `game`'s formation (`rules.live.hand_value`), in
    words; empty where the formation makes no five-card hand of them yet. In a split-pot game
    (SPEC 3.16) both sides: the best high hand, then the second side ("…; 8-6-4-2-A low"), by
    `hole`, the cards held face down, where the second side is a spade in the hole."""
    split = _settle_split(game)
    if split is not None:
        return _split_words(split, own, board, own if hole is None else hole)
    settles = game.steps_of(Settle)
    try:
        if settles and settles[0].low:  # a lowball game (SPEC 2.7)
            return evaluators.describe_low(settles[0].value(own, board))
        return evaluators.describe_high(hand_value(_formation(game), own, board))
    except ValueError:
        return ""


def _made_so_far(
    game: GameSpec, own: Sequence[Card], board: Sequence[Card], hole: Sequence[Card]
) -> str:
    """What a player's cards make now: by the formation once they make five, else what they
    show as a partial hand (SPEC 2.5; Omaha's four hole cards say nothing alone)."""
    text = made_by(game, own, board, hole)
    if text or _formation(game) is Formation.OMAHA:
        return text
    cards = [*own, *board]
    return showing_value(cards).text if 1 <= len(cards) < HAND_CARDS else ""


def _short(text: str) -> str:
    """A hand's words without its kicker, for a seat's box: "pair of kings"."""
    head, _, last = text.rpartition(", ")
    return head if head and last.endswith(" kicker") else text


def _live_showing_text(hand: Hand, seat: int) -> str:
    """A seat's up cards as a partial hand (stud's showing, SPEC 2.5); once it has shown its
    down cards, what its hand makes by the game's formation."""
    game = hand.game
    showing = hand.showing(seat)
    if game is None or not showing:
        return ""
    if not hand.is_folded(seat) and len(showing) == hand.hand_size(seat):
        split = _settle_split(game)
        if split is not None:
            made = _split_words(split, showing, hand.board, _hole(hand, seat), short=True)
            if made:
                return made
        made = made_by(game, showing, hand.board)
        if made:
            return _short(made)
    return showing_value(showing).text if len(showing) < HAND_CARDS else ""


# --- split-pot games (SPEC 3.16) -------------------------------------------------------------

_SIDE_WORDS = {
    "high": "the best hand",
    "eight-or-better": "eight-or-better low",
    "ace-to-five": "ace-to-five low",
    "spade-in-the-hole": "the highest spade in the hole",
    "lowest-sum": "the lowest sum (tens and faces 0, aces 1)",
    "two-hole-cards": "the best two cards in the hole",
}
"""What each side of a split pot is won with (`rules.declare.Side`, by its value), as the
declaration panel says it."""
_NO_VALUE = {
    "eight-or-better": "no low",
    "ace-to-five": "no low",
    "spade-in-the-hole": "no spade in the hole",
    "two-hole-cards": "no two cards in the hole",
}
"""What a player's cards lack on a side they have no value on."""
_LOWS = frozenset({"eight-or-better", "ace-to-five"})


def _settle_split(game: GameSpec | None) -> SettleSplit | None:
    """The settlement of a split-pot game (None: the game splits no pot high and low)."""
    steps = () if game is None else game.steps_of(SettleSplit)
    return steps[0] if steps else None


def _first(split: SettleSplit) -> str:
    """The side the declaration's `high` is for ("high": the best high hand)."""
    return str(getattr(split, "first", "high"))


def _side_words(side: str) -> str:
    return _SIDE_WORDS.get(side, side.replace("-", " "))


def low_side(game: GameSpec | None) -> str:
    """What `game`'s second side (the declaration's `low`) is won with, in words; empty for a
    game that splits no pot."""
    split = _settle_split(game)
    return "" if split is None else _side_words(str(split.second))


def high_side(game: GameSpec | None) -> str:
    """What `game`'s first side (the declaration's `high`) is won with, in words; empty for a
    game that splits no pot."""
    split = _settle_split(game)
    return "" if split is None else _side_words(_first(split))


def _hole(hand: Hand, seat: int) -> tuple[Card, ...]:
    """The cards `seat` held face down and showed at the show (SPEC 5.16)."""
    shown: tuple[Card, ...] = ()
    for ev in hand.events:
        if isinstance(ev, CardsShown) and ev.seat == seat:
            shown += ev.cards
    return shown


def _value_words(side: str, value: int | None, *, short: bool = False) -> str:
    """A player's value on one side in words ("8-6-4-2-A low", "the king of spades in the
    hole", "sum 9"); what a hand without one lacks."""
    if value is None:
        return _NO_VALUE.get(side, "nothing")
    try:
        if side == "high":
            text = evaluators.describe_high(value)
            return _short(text) if short else text
        if side in _LOWS:
            text = evaluators.describe_low(value)
            return text.split(" (")[0] if short else text
        if side == "spade-in-the-hole":
            return f"the {RANK_NAMES[value]} of spades in the hole"
        if side == "lowest-sum":
            return evaluators.describe_sum(value)
        if side == "two-hole-cards":
            return evaluators.describe_two_card(value)
    except (ValueError, KeyError):
        pass
    return ""


def _sides(
    split: SettleSplit, own: Sequence[Card], board: Sequence[Card], hole: Sequence[Card]
) -> tuple[int, int | None] | None:
    """A player's best value on each side (the rules' `side_sets`: bigger is better on each),
    the second None where it has none, or None while its cards make no five-card hand."""
    first = getattr(split, "first", None)
    kwargs: dict[str, Any] = {} if first is None else {"first": first}
    try:
        sets = side_sets(split.formation, split.second, own, board, hole, **kwargs)
    except ValueError:
        return None
    if not sets:
        return None
    seconds = [x for _, x in sets if x is not None]
    return max(h for h, _ in sets), max(seconds) if seconds else None


def _split_words(
    split: SettleSplit,
    own: Sequence[Card],
    board: Sequence[Card],
    hole: Sequence[Card],
    *,
    short: bool = False,
) -> str:
    """Both sides of a player's cards: "two pair, eights and sevens, ace kicker; 8-7-4-2-A
    low" (`short`: without the kicker and the low's pairs, for a seat's box)."""
    sides = _sides(split, own, board, hole)
    if sides is None:
        return ""
    first = _value_words(_first(split), sides[0], short=short)
    return f"{first}; {_value_words(str(split.second), sides[1], short=short)}"


def side_words(
    game: GameSpec, own: Sequence[Card], board: Sequence[Card], hole: Sequence[Card]
) -> tuple[str, str] | None:
    """What a player's cards are worth on each side of a split-pot game, in words: (its high
    hand, its low or other second side); None for a game that splits no pot, or while the
    cards make no five-card hand."""
    split = _settle_split(game)
    sides = None if split is None else _sides(split, own, board, hole)
    if split is None or sides is None:
        return None
    return _value_words(_first(split), sides[0]), _value_words(str(split.second), sides[1])


def _declarations(hand: Hand | None) -> tuple[frozenset[int], dict[int, str]]:
    """(the seats that have sealed their declaration, and each declaration by seat once every
    one is open) in the hand: while any is still sealed, none is shown (SPEC 3.16)."""
    if hand is None:
        return frozenset(), {}
    sealed = frozenset(ev.seat for ev in hand.events if isinstance(ev, Sealed))
    if hand.phase is Phase.DECLARE:
        return sealed, {}
    return sealed, {ev.seat: ev.choice for ev in hand.events if isinstance(ev, Declared)}


def _your_declaration(session: Session, hand: Hand | None) -> str:
    """The player's own declaration once sealed: its opening once open, else the choice its
    own commitment holds, found with its hand secret as its session opens it (SPEC 6.13).
    Nobody else's: no other seat's commitment can be opened without that seat's secret."""
    me = session.seat
    if hand is None or me is None or _settle_split(hand.game) is None:
        return ""
    sealed = False
    for ev in hand.events:
        if isinstance(ev, Declared) and ev.seat == me:
            return ev.choice
        sealed = sealed or (isinstance(ev, Sealed) and ev.seat == me)
    secret = session.hand_secret
    if not sealed or secret is None:
        return ""
    number = hand.hand_number
    mine = next(
        (
            e.body.commitment
            for e in session.ledger.hand_entries
            if e.hand == number and e.author == me and isinstance(e.body, k.Declare)
        ),
        None,
    )
    if mine is None:
        return ""
    game_id = session.game_id
    nonce = nonce_from(secret.to_bytes(32, "big"), game_id, number, me, DECLARE)
    for choice in k.DECLARATIONS:
        if commitment(game_id, number, me, DECLARE, choice, nonce).hex() == mine:
            return choice
    return ""


def _split_lines(hand: Hand, names: Mapping[int, str]) -> list[Line]:
    """How each pot of a split-pot hand was split (SPEC 3.16): each side's winners, the chips
    of that side and the hand that won it, the pigs that failed, a pot nobody won carried
    over ("Pot of 120: high: Ann wins 60 with a flush, …; low: Bob wins 60 with …")."""
    split = _settle_split(hand.game)
    splits = [ev for ev in hand.events if isinstance(ev, PotSplit)]
    if split is None:
        return []

    def who(seats: Sequence[int]) -> str:
        return " and ".join(names.get(x, f"seat {x}") for x in seats)

    def worth(seat: int, high: bool) -> str:
        sides = _sides(split, hand.showing(seat), hand.board, _hole(hand, seat))
        if sides is None or (not high and sides[1] is None):
            return ""
        if high:
            return _value_words(_first(split), sides[0])
        return _value_words(str(split.second), sides[1])

    lines: list[Line] = []
    for i, ev in enumerate(splits):
        if len(splits) == 1:
            pot = f"Pot of {ev.amount}"
        else:
            pot = f"Main pot of {ev.amount}" if i == 0 else f"Side pot {i} of {ev.amount}"
        parts: list[str] = []
        if ev.pigs_failed:
            parts.append(f"{who(ev.pigs_failed)} went pig and did not win both ways")
        if ev.carried:
            parts.append(f"nobody wins: {ev.carried} carries over to the next hand")
        else:
            low_half = ev.amount // 2 if ev.high and ev.low else (ev.amount if ev.low else 0)
            sides = (
                ("high", ev.high, ev.amount - low_half, True),
                ("low", ev.low, low_half, False),
            )
            for side, winners, half, high in sides:
                if not winners:
                    parts.append(f"nobody wins {side}")
                    continue
                verb = f"wins {half}" if len(winners) == 1 else f"split {half}"
                made = worth(winners[0], high)
                parts.append(f"{side}: {who(winners)} {verb}" + (f" with {made}" if made else ""))
        lines.append(Line((f"{pot}: " + "; ".join(parts),)))
    return lines


def _drew(hand: Hand) -> dict[int, int]:
    """How many cards each seat discarded in this hand's draw so far (0: it stood pat)."""
    return {ev.seat: ev.count for ev in hand.events if isinstance(ev, Drew)}


def draw_most(game: GameSpec | None) -> int:
    """The most cards a player discards in `game`'s draw (0: the game has no draw)."""
    draws = () if game is None else game.steps_of(Draw)
    return max((d.most for d in draws), default=0)


def _wash(session: Session, hand: Hand | None) -> WashView | None:
    """The wash the player is to decide now, with its cards in the wash's order."""
    me = session.seat
    if hand is None or me is None or not isinstance(hand.step, Wash):
        return None
    if me not in hand.to_act() or ActionKind.KEEP_CALL in hand.legal_actions(me):
        return None  # first it says whether it washes (Five by Two): the keys w and n
    up = hand.showing(me)
    down = tuple(c for c in session.cards if c not in up)
    most = wash_most(hand, me)
    return WashView(
        wash_cost(hand),
        wash_cost(hand, down=True),
        down,
        up,
        most,
        cloak_cost(hand),
        flip_cost(hand),
    )


def _drawn(session: Session, hand: Hand | None) -> tuple[Card, ...]:
    """The cards the player was dealt for its discards, once the redeal has dealt them: the
    last of its cards (a redeal adds them after the cards it kept)."""
    me = session.seat
    if hand is None or me is None:
        return ()
    drew: Drew | None = None
    dealt = False
    for ev in hand.events:
        if isinstance(ev, Drew) and ev.seat == me:
            drew, dealt = ev, False
        elif isinstance(ev, StreetDealt) and drew is not None:
            dealt = True
    if drew is None or not drew.count or not dealt or len(session.cards) < drew.count:
        return ()
    return tuple(session.cards[-drew.count :])


def _live_words(session: Session, hand: Hand | None) -> tuple[str, str]:
    """(the street being dealt or bet on, what the player's cards make now) in a live-deck
    game; each empty where there is none."""
    game = None if hand is None else hand.game
    if hand is None or game is None:
        return "", ""
    deals = hand.phase in (Phase.DEAL, Phase.BETTING, Phase.STREET)
    street = street_name(game, hand.betting_round) if deals else ""
    if hand.phase is Phase.DRAW:
        street = "the draw"
    elif hand.phase is Phase.DECLARE:
        street = "the declaration"
    me = session.seat
    if me is None or me not in hand.seats or hand.is_folded(me) or not session.cards:
        return street, ""
    own = tuple(dict.fromkeys([*session.cards, *hand.showing(me)]))
    return street, _made_so_far(game, own, hand.board, session.cards)


def _live_stage(session: Session, hand: Hand, game: GameSpec) -> str:
    """ "Texas Hold'em — the flop: betting": the game and where its hand is."""
    phase = hand.phase
    street = street_name(game, hand.betting_round)
    if phase is Phase.DEAL:
        words = "dealing the hole cards" if board_size(game) else f"dealing {street}"
    elif phase is Phase.BETTING:
        words = f"{street}: betting"
    elif phase is Phase.STREET:
        words = "dealing the draws" if street.endswith("the draw") else f"dealing {street}"
    elif phase is Phase.DRAW:
        words = "the draw"
    elif phase is Phase.DECLARE:
        words = "the declaration"
    elif phase is Phase.SHOW:
        words = "showing down"
    elif phase is Phase.SHOWDOWN:
        words = "the showdown"
    elif phase is Phase.ABORTED:
        words = "hand aborted"
    elif phase is Phase.COMPLETE:
        words = "hand over" if session.between_hands else "hand over: signing"
    else:
        words = phase.value.replace("-", " ")  # a step of the game's own ("draw")
    return f"{game.title} — {words}"


# --- plain words ------------------------------------------------------------------------------


def announcement_words(a: Announcement) -> str:
    """ "Weeping Willow: 5 cards, trading in turn until …" (the game's own words)."""
    return a.words()


def _stage(session: Session, hand: Hand | None, game_over: bool) -> str:
    if not session.seated:
        return "seating"
    if game_over:
        return "game over"
    if session.between_hands and _short_of_players(session):
        return "waiting for a player to sit in"
    if hand is None:
        return "waiting for the first hand"
    phase = hand.phase
    r = hand.betting_round
    if hand.game is not None and deals_live(hand.game):
        return _live_stage(session, hand, hand.game)
    if phase is Phase.ANNOUNCE:
        return "the dealer announces"
    if phase is Phase.DEAL:
        return "shuffling and dealing"
    if phase is Phase.TRADING:
        setup = ww.setup(hand)
        free = setup is not None and setup.mode is ww.TradingMode.FREE
        return "trading (free)" if free else "trading (in turn)"
    if phase is Phase.LAYOUT:
        return "laying out"
    if phase is Phase.REVEAL:
        return f"round {r}: turning cards"
    if phase is Phase.BETTING:
        return f"round {r}: betting"
    if phase is Phase.ABORTED:
        return "hand aborted"
    return "hand over" if session.between_hands else "hand over: signing"


_STEP_WORDS: dict[str, str] = {
    Step.HAND_KEY: "publish a hand key",
    Step.DECK_SHUFFLE: "shuffle the deck",
    Step.DEAL_SHARES: "send deal shares",
    Step.HAND_SHUFFLE: "reshuffle the hand after the trade",
    Step.TRADE_GIVE: "give the traded cards",
    Step.LAYOUT: "lay out the cards",
    Step.REVEAL: "turn the next card",
    Step.DEAL_STREET: "send deal shares",
    Step.STREET: "send shares of the next cards",
    Step.SHOW: "show the cards",
    Step.OPEN: "open their declaration",
    Step.ANNOUNCE: "announce the game",
}


def _decision_words(session: Session, hand: Hand, seat: int, names: Mapping[int, str]) -> str:
    if hand.owes_match == seat:
        return f"match the pot ({hand.match_amount(seat)}) or fold"  # SPEC 3.18
    if hand.phase is Phase.DRAW and isinstance(hand.step, Wash):
        if ActionKind.KEEP_CALL in hand.legal_actions(seat):
            return "say whether you wash" if seat == session.seat else "say whether it washes"
        if seat != session.seat:
            return "wash"
        most = wash_most(hand, seat)
        cards = "a card" if most < 2 else f"up to {most} cards"
        return f"wash {cards} or keep your cards"
    if hand.phase is Phase.DRAW:
        return "choose the cards to discard" if seat == session.seat else "draw"
    if hand.phase is Phase.STREET:
        # a pass street (SPEC 3.19): the seat whose card is open keeps it or passes it on
        if seat != session.seat:
            return "keep or pass its card"
        price = pass_price(hand.config)
        if ActionKind.PASS_CARD in hand.legal_actions(seat):
            return f"keep your card or pass it on for {price}"
        return f"keep your card (a pass costs {price})"
    if hand.phase is Phase.DECLARE:
        return "declare high, low or pig" if seat == session.seat else "declare"
    if hand.phase is Phase.BETTING:
        options = hand.bet_options(seat)
        if options is not None and options.to_call:
            return f"call {options.to_call}, raise or fold"
        return "check or bet"
    offer = ww.open_offer(hand)
    if offer is not None and seat == offer.offerer:
        took = " and ".join(names.get(x, f"seat {x}") for x in ww.accepted(hand))
        return f"choose whom to trade with ({took} accepted) or withdraw"
    if offer is not None:
        return f"answer {names.get(offer.offerer, '?')}'s offer of {offer.k}"
    if ww.trade_sides(hand) is not None:
        return "choose the cards to give"
    setup = ww.setup(hand)
    if setup is not None and setup.mode is ww.TradingMode.FREE:
        if hand.can(ActionKind.PASS, seat):
            return "offer a trade or pass"
        return "close trading (anyone may offer)"
    return "offer a trade or pass"


def _waiting(session: Session, hand: Hand | None, names: Mapping[int, str]) -> tuple[Waiting, ...]:
    me = session.seat
    if not session.seated:
        genesis = session.ledger.genesis
        missing = (
            ()
            if genesis is None
            else tuple(p.seat for p in genesis.players if p.seat not in session.ledger.seated)
        )
        return (Waiting(missing, "take their seat", me in missing),) if missing else ()
    if session.between_hands and _short_of_players(session):
        out = tuple(p.seat for p in session.game.players if p.sitting_out and p.stack > 0)
        return (Waiting(out, "sit in again (fewer than two players play)", me in out),)
    if hand is None:
        return ()
    if hand.is_over and not session.between_hands:
        signing = tuple(
            d.seat for d in session.due() if d.step in (Step.HEAD_SIGNATURE, Step.HAND_END)
        )
        return (Waiting(signing, "see the result and sign the hand", me in signing),)
    grouped: dict[str, list[int]] = {}
    for w in session.waiting_for():
        if w.seat == me and session.decision_pending and w.step in _DECIDING:
            continue  # the hand no longer waits for it: the decision is on its way
        if w.step == "decision":
            what = _decision_words(session, hand, w.seat, names)
        else:
            what = _STEP_WORDS.get(w.step, w.step.replace("_", " "))
        seats = grouped.setdefault(what, [])
        if w.seat not in seats:
            seats.append(w.seat)
    return tuple(Waiting(tuple(seats), what, me in seats) for what, seats in grouped.items())


# --- the event log ----------------------------------------------------------------------------


def _leads() -> dict[str, tuple[type[Event], ...]]:
    # every row, a game's own too: a live-deck game's fold is its `fold_release` entry, a
    # split-pot game's declaration its `declare` and `declare_open` entries
    rows = [*ALL_ACTIONS, *(r for g in DESCRIBED.values() for st in g.script for r in st.ACTIONS)]
    leads: dict[str, tuple[type[Event], ...]] = {}
    for row in rows:
        events = row.event if isinstance(row.event, tuple) else (row.event,)
        have = leads.get(row.entry, ())
        leads[row.entry] = have + tuple(e for e in events if e not in have)
    leads[LEGACY_ANNOUNCE] = leads[k.AnnounceGame.KIND]
    return leads


_LEADS = _leads()
"""The events each entry kind makes the rules emit first (SPEC 7: one rules action each),
from the rows of the action table."""


class _Teller:
    """Tells one hand's entries and rules events in plain words, in the order they happened."""

    def __init__(self, session: Session, names: Mapping[int, str]) -> None:
        self.me = session.seat
        self.names = names
        self.hand = _current_hand(session)
        self.lines: list[Line] = []
        self.mine = _your_declaration(session, self.hand)
        """The player's own declaration once sealed: its seal is told with it, to it alone."""

    def n(self, seat: int) -> str:
        return self.names.get(seat, f"seat {seat}")

    def say(self, *parts: str | Card) -> None:
        self.lines.append(Line(tuple(parts)))

    def tell(self, entries: Sequence[Entry]) -> None:
        hand = self.hand
        events: list[Event] = list(hand.events) if hand is not None else []
        players = len(hand.seats) if hand is not None else 0
        at = 0
        shares = signatures = 0
        rules_entries = [e for e in entries if e.kind in _LEADS]
        # how many of `rules_entries` the loop has passed: counted, not looked up (a view is
        # made at every change, and a lookup per entry made each one quadratic in the hand)
        told = 0

        def take(kind: type[Event] | tuple[type[Event], ...]) -> Event | None:
            nonlocal at
            if at < len(events) and isinstance(events[at], kind):
                at += 1
                return events[at - 1]
            return None

        for e in entries:
            lead: type[Event] | tuple[type[Event], ...] | None = _LEADS.get(e.kind)
            # the next entry that leads rules events, after this one if this one does
            after = (
                rules_entries[told + 1]
                if lead is not None and told + 1 < len(rules_entries)
                else None
            )
            told += lead is not None
            body = e.body
            if isinstance(body, k.DealShares):
                shares += 1
                lead = Dealt if shares == players else None
            elif isinstance(body, k.HandShuffle) and body.purpose == "layout":
                lead = LaidOut
            elif isinstance(body, k.HeadSignature):
                signatures += 1
                if signatures == players:
                    self.say(f"Hand {e.hand} signed by everyone")
                continue
            self.entry(e)
            if lead is None:
                continue
            first = take(lead)
            if first is None:
                continue
            batch = [first]
            if isinstance(first, TimedOut) and at < len(events):
                batch.append(events[at])
                at += 1
            # an entry that comes next and leads with a follower (the dealer's close of trading
            # leads with the close) takes that follower as its own
            next_leads = _LEADS.get(after.kind, ()) if after is not None else ()
            while at < len(events) and type(events[at]).FOLLOWS:
                if isinstance(events[at], next_leads):
                    break
                batch.append(events[at])
                at += 1
            for event in batch:
                self.event(event)
        for event in events[at:]:
            self.event(event)

    def entry(self, e: Entry) -> None:
        """The line an entry makes by itself (a proof checked, cards given)."""
        body, who, own = e.body, self.n(e.author), e.author == self.me
        if isinstance(body, k.Genesis):
            self.say(f"Table {body.name!r} opened with {len(body.players)} players")
        elif isinstance(body, k.SeatAcceptance):
            self.say(f"{who} took their seat")
        elif isinstance(body, k.Join):
            self.say(f"{body.name} joined the table")
        elif isinstance(body, k.Admit):
            self.say(f"{who} compared the new code and admits {self.n(body.seat)}")
        elif isinstance(body, k.Refuse) and e.author == body.seat:
            self.say(f"{who} did not take the seat: {body.reason}")  # the newcomer's own no
        elif isinstance(body, k.Refuse):
            self.say(f"{who} refused {self.n(body.seat)}: {body.reason}")
        elif isinstance(body, k.Leave):
            self.say(f"{who} left the table")
        elif isinstance(body, k.SequencerChange):
            gone = " and ".join(self.n(s) for s in body.replaced)
            # the others' clocks ran out on it: a node gone silent, or a player who did not
            # act in time (SPEC 7.5): the votes say no more than that
            self.say(f"{who} takes over the hand from {gone}, whose clock ran out")
        elif isinstance(body, k.Equivocation):
            self.say(f"{who} takes over sequencing: {self.n(body.sequencer)} showed two tables")
        elif isinstance(body, k.HandStart):
            self.say(f"Hand {e.hand}: {self.n(body.dealer)} deals")
        elif isinstance(body, k.HandKey):
            self.say(f"{who} made a hand key" if own else f"{who}'s hand key proof checked")
        elif isinstance(body, k.DeckShuffle):
            self.say(f"{who} shuffled the deck" if own else f"{who}'s shuffle proof checked")
        elif isinstance(body, k.DealShares):
            self.say(f"{who} sent deal shares" if own else f"{who}'s deal shares checked")
        elif isinstance(body, k.TradeGive):
            n = len(body.cards)
            gave = f"{who} gave {n} card{'s' * (n > 1)} to {self.n(body.to)}"
            self.say(gave if own else f"{gave}: proofs checked")
        elif isinstance(body, k.HandShuffle):
            if body.purpose == "layout":
                size = 5 if self.hand is None else self.hand.showdown_cards
                laid = f"{who} laid out {_NUMBERS.get(size, str(size))} cards face down"
                self.say(laid if own else f"{laid}: proof checked")
            else:
                self.say(f"{who} reshuffled their hand" if own else f"{who}'s hand shuffle checked")

    def event(self, ev: Event) -> None:
        if isinstance(ev, HandEnded):
            self.lines.extend(_result_lines(self.hand, self.names))
        elif isinstance(ev, CardsShown) and self.hand is not None and self.hand.game is not None:
            # what the shown hand makes, by the game's formation (SPEC 3.15)
            hand, game = self.hand, self.hand.game
            made = made_by(game, hand.showing(ev.seat), hand.board, _hole(hand, ev.seat))
            self.say(*ev.words(self.n), *((f": {made}",) if made else ()))
        elif isinstance(ev, PotSplit):
            pass  # the hand's result says how each pot was split, with the hands (HandEnded)
        elif isinstance(ev, Sealed) and ev.seat == self.me and self.mine:
            self.say(f"you declared {self.mine} (sealed)")  # the others read only that it sealed
        elif ev.TOLD:
            self.say(*ev.words(self.n))
        # A layout, the cards chosen for a trade and a round's end are told by their entries.


def _result_lines(hand: Hand | None, names: Mapping[int, str]) -> list[Line]:
    if hand is None or hand.result is None:
        return []
    if any(isinstance(ev, PotSplit) for ev in hand.events):
        return _split_lines(hand, names)
    lines: list[Line] = []
    for award in hand.result.awards:
        who = [names.get(s, f"seat {s}") for s in award.winners]
        cards = hand.showing(award.winners[0])
        contested = len(award.pot.eligible) > 1
        if hand.game is not None and deals_live(hand.game):
            shown = len(cards) == hand.hand_size(award.winners[0])
            made = made_by(hand.game, cards, hand.board) if contested and shown else ""
            why = f" with {made}" if made else ""
        else:
            why = (
                f" with {best_hand(cards).text}"
                if contested and len(cards) == hand.showdown_cards
                else ""
            )
        if not contested and len(hand.result.awards) == 1:
            why = ", everyone else folded"
        if len(who) == 1:
            lines.append(Line((f"{who[0]} wins {award.pot.amount}{why}",)))
        else:
            each = "/".join(str(x) for x in award.shares)
            lines.append(Line((f"{' and '.join(who)} split {award.pot.amount} ({each}){why}",)))
    return lines


def _summary_line(s: HandSummary, names: Mapping[int, str]) -> Line:
    if s.aborted:
        return Line((f"Hand {s.number} was aborted: {s.reason}",))
    won = [(seat, net) for seat, net in s.chips if net > 0]
    text = ", ".join(f"{names.get(seat, f'seat {seat}')} +{net}" for seat, net in won)
    carried = f"; {s.carried} carries over" if s.carried else ""
    return Line((f"Hand {s.number}: {text or 'no winner'}{carried}",))


def _log(session: Session, names: Mapping[int, str]) -> tuple[Line, ...]:
    number = session.hand_number
    entries = [e for e in session.ledger.hand_entries if e.hand == number]
    # a newcomer refused since is named as it joined
    joined = {e.author: e.body.name for e in entries if isinstance(e.body, k.Join)}
    teller = _Teller(session, {**joined, **names})
    earlier = [s for s in session.summaries if s.number < number]
    lines = [_summary_line(s, names) for s in earlier[-3:]]
    teller.tell(entries)
    lines += teller.lines
    return tuple(lines[-LOG_LINES:])


# --- the view ---------------------------------------------------------------------------------


def table_view(
    session: Session, links: Mapping[int, Link] | None = None, now: float | None = None
) -> TableView:
    """What `session`'s player sees now; `links` holds each peer's connection state, `now` the
    time on the session's clock (the `now` of its `handle_timer`; None: the client keeps no
    real time and the view shows no countdown)."""
    links = links or {}
    names = _names(session)
    hand = _current_hand(session)
    me = session.seat
    game = session.game
    genesis = session.ledger.genesis
    playing = [p for p in game.players if p.plays]
    over_reason = (end_reason(session) or "") if session.seated else ""
    game_over = bool(over_reason)
    running = hand is not None and not hand.is_over
    layout = session.layout if running or (hand is not None and hand.is_over) else None
    cards = _own_cards(session) if hand is not None else ()
    held = {c.card for c in cards}
    given = tuple(
        (s, gone)
        for s, sent in sorted(session.given.items())
        if (gone := tuple(dict.fromkeys(c for c in sent if c not in held)))
    )
    seats_in = len(hand.seats) if running and hand is not None else len(playing)
    games = tuple(
        g for name in game.config.games if (g := CATALOGUE.get(name)) and _deals_to(g, seats_in)
    )
    deal_sizes = _deal_sizes(games[0] if games else ww.WEEPING_WILLOW, seats_in)
    played = hand.game if hand is not None else None
    live = played is not None and deals_live(played)
    board = hand.board if live and hand is not None else ()
    street, made = _live_words(session, hand) if live else ("", "")
    return TableView(
        table=genesis.name if genesis is not None else "",
        hand=hand.hand_number if hand is not None else 0,
        dealer=hand.dealer if hand is not None else None,
        safety_code=session.ledger.safety_code(),
        seats=_seats(session, hand, names, links),
        you=me,
        seated=session.seated,
        phase=hand.phase if hand is not None else None,
        stage=_stage(session, hand, game_over),
        betting_round=hand.betting_round if hand is not None else 0,
        announcement=hand.announcement if hand is not None else None,
        deal_sizes=deal_sizes,
        games=games,
        pot=hand.pot if running and hand is not None else 0,
        pots=_pots(hand),
        current_bet=hand.current_bet if hand is not None else 0,
        cards=cards,
        given=given,
        layout=layout,
        discards=tuple(c.card for c in cards if layout is not None and c.card not in layout),
        offer=_offer(hand) if running else None,
        token_value=game.config.token_value,
        trades=tuple(TradeView(t.offerer, t.acceptor, t.k) for t in ww.trades(hand))
        if hand is not None
        else (),
        actions=_actions(session),
        waiting=_waiting(session, hand, names),
        log=_log(session, names),
        decision_due=session.decision_due(),
        decision_pending=session.decision_pending,
        hand_running=running,
        game_over=game_over,
        result=tuple(_result_lines(hand, names)),
        may_sit_in=_may_sit_in(session),
        admission=_admission(session, names),
        over_reason=over_reason,
        reading=session.reading,
        sitting_out=_sitting_out(session),
        clock=_clock(session, now),
        live=live,
        game_title=played.title if played is not None else "",
        street=street,
        board=board,
        board_size=board_size(played) if live else 0,
        made=made,
        draw_most=draw_most(played) if live else 0,
        drawn=_drawn(session, hand) if live else (),
        wash=_wash(session, hand) if live else None,
        high_side=high_side(played),
        low_side=low_side(played),
        declaring=running and hand is not None and hand.phase is Phase.DECLARE,
        your_declaration=_your_declaration(session, hand),
        carried_in=hand.carried_in if hand is not None else 0,
        carried=hand.result.carried if hand is not None and hand.result is not None else 0,
    )


def _clock(session: Session, now: float | None) -> ClockView | None:
    me = session.seat
    if me is None:
        return None
    config = session.config
    paused = session.paused if session.clock_stopped else None
    arbiter = session.arbiter
    left = () if now is None else tuple(sorted(session.seconds_left(now).items()))
    bank = session.bank_left(me)
    return ClockView(
        at=now,
        left=left,
        action_clock=config.action_clock,
        warn_at=timekeeping.WARN_AT,
        bank=bank,
        bank_step=min(bank, timekeeping.BANK_STEP),
        pauses=session.pauses_left(me),
        pause_limit=config.pause_limit,
        paused_by=None if paused is None else paused.seat,
        paused_for=None if paused is None else session.paused_for(now),
        pause_seconds=0 if paused is None else paused.seconds,
        arbiter=arbiter,
        you_arbiter=arbiter is not None and arbiter == me,
        end_ruled=session.end_ruled,
    )


def _deal_sizes(game: GameSpec, players: int) -> tuple[int, ...]:
    """The deal sizes `game` may announce for `players` (players x cards fit the deck)."""
    option = next((o for o in game.options if o.name == DEAL_SIZE), None)
    if option is None:
        return ()
    sizes = (int(c) for c in option.choices)
    return tuple(d for d in sizes if players <= game.seats_for({DEAL_SIZE: d}))


def _deals_to(game: GameSpec, players: int) -> bool:
    sizes = _deal_sizes(game, players)
    return bool(sizes) or players <= game.seats_for({o.name: o.default for o in game.options})


def _admission(session: Session, names: Mapping[int, str]) -> AdmissionView | None:
    admission = session.admission
    if admission is None:
        return None
    keys = session.ledger.identities

    def label(seat: int) -> str:
        return named(names.get(seat, f"seat {seat}"), keys.get(seat, b""))

    seated = sorted(keys)
    return AdmissionView(
        seat=admission.seat,
        newcomer=named(admission.name, admission.identity_key),
        join=admission.join.hex(),
        you_join=admission.seat == session.seat,
        admitted=tuple(label(s) for s in seated if s in admission.admitted),
        waiting=tuple(label(s) for s in admission.waiting(seated)),
        yours_due=session.answer_due,
    )


def _short_of_players(session: Session) -> bool:
    """Between hands, the game goes on (two players or more have chips) but fewer than two
    play: it waits for a seat sitting out to sit in again (SPEC 3.11)."""
    if session.ended or not session.seated or end_reason(session) is not None:
        return False
    return sum(p.plays for p in session.game.players) < 2


def _sitting_out(session: Session) -> SittingOut | None:
    """Since when and why the player's seat sits out, if it may sit in again (SPEC 3.11)."""
    if not _may_sit_in(session):
        return None
    me = session.seat
    assert me is not None
    p = session.game.player(me)
    after = p.sat_out_after or 0
    why = SIT_OUT_WHY.get(p.sit_out_reason, "") if p.sit_out_reason is not None else ""
    now = session.hand_number
    back = now + 1 if session.game.can_sit_in(me) else after + 2
    return SittingOut(after + 1, why or "you were made to sit out", back)


def _may_sit_in(session: Session) -> bool:
    me = session.seat
    if me is None or session.ended or me not in session.ledger.identities:
        return False
    p = session.game.player(me)
    return p.sitting_out and p.stack > 0


__all__ = [
    "LOG_LINES",
    "ActionView",
    "AdmissionView",
    "ClockView",
    "Line",
    "Link",
    "OfferView",
    "OwnCard",
    "PotView",
    "SeatView",
    "TableView",
    "TradeView",
    "Waiting",
    "WashView",
    "announcement_words",
    "board_size",
    "draw_most",
    "high_side",
    "low_side",
    "made_by",
    "side_words",
    "street_name",
    "table_view",
]
