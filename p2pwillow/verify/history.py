"""A hand as a player reads it: the deal, the trades, each betting round, the showdown, the pots.

Pure; no I/O. Built from the events an observer session emits while `willow verify` replays a
transcript (SPEC 7.6), so it holds only what the transcript makes public.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from p2pwillow.cards import Card
from p2pwillow.evaluators import describe_high, describe_low, low_a5
from p2pwillow.games.weeping_willow import TradingClosed
from p2pwillow.hands import best_hand, showing_value
from p2pwillow.rules import (
    Announced,
    Announcement,
    AntesPosted,
    BetPlaced,
    BettingOpened,
    BettingSkipped,
    Called,
    CardRevealed,
    Checked,
    Folded,
    GameSpec,
    HandAborted,
    HandEnded,
    Phase,
    Raised,
    TimedOut,
    WentAllIn,
)
from p2pwillow.rules import Event as RulesEvent
from p2pwillow.rules.declare import Declare, SettleSplit
from p2pwillow.rules.events import (
    CardPassed,
    CardsShown,
    Drew,
    HandForfeited,
    PotSplit,
    Sealed,
    StreetDealt,
    WashCalled,
    Washed,
)
from p2pwillow.rules.live import Deal, Formation, Settle, hand_value
from p2pwillow.rules.passing import PassStreet
from p2pwillow.rules.pot_match import PotMatched
from p2pwillow.rules.pots import HandResult
from p2pwillow.session import HandStarted, HandSummary
from p2pwillow.verify.seat_log import SeatEvent
from p2pwillow.view import side_words


@dataclass(frozen=True, slots=True)
class BetAction:
    """One betting decision: `action` is check, bet, call, raise, fold or all-in; or, after a
    show in the bet after the declaration (SPEC 3.18), pot-match (`chips`: what the match put
    in, dead money as the ante, no bet) or pot-fold."""

    seat: int
    action: str
    chips: int
    """Chips this action put in."""
    to: int
    """For a bet, a raise or an all-in: the seat's bet in this round afterwards; else 0."""
    timed_out: bool = False
    """The seat's clock ran out and this was its default (SPEC 3.9)."""


@dataclass(frozen=True, slots=True)
class BettingRound:
    """Round `number` (1..5): the card each player turned, then the betting (SPEC 3.6, 3.7)."""

    number: int
    turned: tuple[tuple[int, Card], ...]
    opener: int | None
    """Who opened the betting; None when fewer than two players could bet."""
    actions: tuple[BetAction, ...]


@dataclass(frozen=True, slots=True)
class ShowdownHand:
    seat: int
    cards: tuple[Card, ...]
    """The seat's face-up cards in the order turned (a live-deck game: its up cards, then the
    cards it showed)."""
    value: str
    """The hand's name, as SPEC 2.6 writes it: "three of a kind, eights"; in a live-deck game
    the hand its formation makes with the board."""
    shows: tuple[Card, ...] = ()
    """A live-deck game: the cards it held face down and showed at the showdown (SPEC 5.16)."""
    sides: tuple[str, str] | None = None
    """A split-pot game (SPEC 3.16): what the hand is worth on each side, in words (its high
    hand, then its low: "8-6-4-2-A low", "no low"); `value` says both."""

    @property
    def up(self) -> tuple[Card, ...]:
        """A live-deck game: the cards it was dealt face up."""
        return self.cards[: len(self.cards) - len(self.shows)]


_WASHES = {2: "second", 3: "third"}
"""A game's later washes by their place (Five by Two washes twice)."""


@dataclass(frozen=True, slots=True)
class WashedCard:
    """A card a player washed (SPEC 3.17) and the card dealt for it, each named only when it
    was face up: a card washed face down goes to the muck unseen and is replaced face down."""

    up: bool
    """Washed face up."""
    card: Card | None
    """The card washed, when face up; None face down."""
    dealt: Card | None = None
    """The card the wash's redeal dealt for it, when face up; None face down."""
    cloaked: bool = False
    """A face-up card cloaked (Go for Broke): its replacement was dealt face down, unnamed."""
    flipped: Card | None = None
    """A flip (Five by Two): the face-down card the player turned face up when it washed this
    face-up card, whose replacement was dealt face down, unnamed."""


@dataclass(frozen=True, slots=True)
class SeatWash:
    """A player's turn at a wash (SPEC 3.17): what it paid and the cards it washed, in the
    order its wash entry names them (none: it kept its cards)."""

    seat: int
    paid: int
    cards: tuple[WashedCard, ...] = ()

    @property
    def kept(self) -> bool:
        """It kept its cards (and paid nothing)."""
        return not self.cards


def seat_wash(event: Washed) -> SeatWash:
    """The rules' account of a player's wash as the report keeps it: the face-up card named,
    any other card washed face down (its identity never public)."""
    up: tuple[WashedCard, ...] = ()
    if event.card is not None:
        up = (WashedCard(True, event.card, cloaked=event.cloaked, flipped=event.flipped),)
    down = (WashedCard(False, None),) * max(0, event.count - len(up))
    return SeatWash(event.seat, event.paid, down + up)


def with_dealt(
    washes: tuple[SeatWash, ...], up: tuple[tuple[int, tuple[Card, ...]], ...]
) -> tuple[SeatWash, ...]:
    """The washes with the face-up cards the redeal dealt (`up`, by seat): each card washed
    face up is replaced face up (SPEC 3.17), in the order they were washed; a cloaked card's
    replacement is dealt face down, and so is a flip's, so none of `up` is theirs."""
    dealt = {seat: list(cards) for seat, cards in up}
    out = []
    for w in washes:
        new = dealt.get(w.seat, [])
        cards = tuple(
            replace(c, dealt=new.pop(0))
            if c.up and not c.cloaked and c.flipped is None and new
            else c
            for c in w.cards
        )
        out.append(replace(w, cards=cards))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class PassedCard:
    """In a pass street (SPEC 3.19), a player paid `paid` to pass its face-up `card` to seat
    `to`, and was dealt `dealt` face up in its place (None until it is)."""

    seat: int
    to: int
    card: Card
    paid: int
    dealt: Card | None = None


@dataclass(frozen=True, slots=True)
class StreetDeal:
    """A deal step of a live-deck game (SPEC 3.15): named as players name it ("Flop", "Fourth
    street"), the cards each player still in got face down, the up cards by seat and the board
    cards it opened."""

    name: str
    down: int
    up: tuple[tuple[int, tuple[Card, ...]], ...]
    board: tuple[Card, ...]
    board_before: tuple[Card, ...]
    """The board as it was before this step."""
    round: int | None
    """The betting round that followed it; None if none did."""
    drawn: tuple[tuple[int, int], ...] = ()
    """A draw game's draw: each drawer and how many cards it discarded (0: it stood pat), in
    the order they drew; the redeal that follows gives each as many."""
    washed: tuple[SeatWash, ...] = ()
    """A wash (SPEC 3.17): each player's wash in the order they washed; the redeal's face-up
    cards are this step's `up` too."""
    passing: bool = False
    """A pass street (SPEC 3.19): its cards came one at a time, and `up` is what each seat
    holds of them once the street is dealt (a card passed on is its receiver's)."""
    passed: tuple[PassedCard, ...] = ()
    """A pass street's passes, in the order made."""


@dataclass(frozen=True, slots=True)
class Forfeit:
    """The forfeit settlement (SPEC 3.15): the deck could not deal without `silent`, who left
    the hand without releasing its key; what they put in was shared among those still in, and
    everyone else took back what it put in."""

    silent: tuple[int, ...]
    amount: int
    """What the silent players had put in (bets and antes)."""
    shared_by: tuple[int, ...]
    shares: tuple[int, ...]
    refunds: tuple[tuple[int, int], ...]
    """(seat, chips) each other player took back."""


@dataclass(frozen=True, slots=True)
class PotResult:
    """A pot as won: `amount` excludes any uncalled bet, which went back to its bettor."""

    amount: int
    contested: tuple[int, ...]
    """The seats that could win it (still in and all in for its level), clockwise."""
    winners: tuple[int, ...]
    shares: tuple[int, ...]
    split: bool = False
    """A pot of a split-pot game, split by the declarations (SPEC 3.16): `high` and `low` say
    who won each side (none: that side went whole to the other, or nobody won the pot)."""
    high: tuple[int, ...] = ()
    low: tuple[int, ...] = ()
    pigs_failed: tuple[int, ...] = ()
    """Players who declared pig and could not win or tie both sides: out of this pot."""
    carried: int = 0
    """Chips of this pot nobody won: carried over to the next hand (`winners` is empty)."""

    @property
    def halves(self) -> tuple[int, int]:
        """A split pot's (high, low) chips: the high half the larger by the odd chip when both
        sides have winners, the whole pot to the one side that has (SPEC 3.16)."""
        if self.carried:
            return 0, 0
        low = self.amount // 2 if self.high and self.low else (self.amount if self.low else 0)
        return self.amount - low, low


@dataclass(frozen=True, slots=True)
class HandHistory:
    """One hand of the game: the session's public summary, and what the events add to it."""

    summary: HandSummary
    announcement: Announcement | None
    trading_closed: str
    """Why trading closed, in the rules' words ("" if it never opened)."""
    rounds: tuple[BettingRound, ...]
    showdown: tuple[ShowdownHand, ...]
    """The hands of every player still in after round 5, when two or more were."""
    pots: tuple[PotResult, ...]
    returned: tuple[tuple[int, int], ...]
    """(seat, chips) of an uncalled bet given back: never part of a pot anyone won."""
    stacks: tuple[tuple[int, int], ...]
    """(seat, stack) after the hand, in table order."""
    bets: tuple[tuple[int, int], ...]
    """(seat, chips bet over the whole hand, trade tokens not included), in table order."""
    events: tuple[SeatEvent, ...] = ()
    """What happened to the seats in the hand and after it, before the next (`seat_log`):
    clocks that ran out, a sequencer replaced, sit-outs, sit-ins, offers declined or
    withdrawn."""
    formation: str | None = None
    """A game dealt from the live deck (SPEC 3.15): how its showdown makes a hand
    (`Formation`); None for Weeping Willow and Roll Your Own."""
    streets: tuple[StreetDeal, ...] = ()
    board: tuple[Card, ...] = ()
    forfeit: Forfeit | None = None
    entries: tuple[tuple[str, int], ...] = ()
    """(entry kind, how many were applied) for the live deck's proved entries: street_shares,
    show, fold_release."""
    sides: tuple[str, str] | None = None
    """A split-pot game (SPEC 3.16): what its two sides are won with, the declaration's
    `high` then its `low` (`rules.declare.Side` values: "high", "eight-or-better", …); None in
    other games."""
    sealed: tuple[int, ...] = ()
    """The seats that sealed a declaration, in the order their seals were sequenced."""
    declared_after: int | None = None
    """The number of the betting round that follows the declaration (None: no declaration)."""

    @property
    def number(self) -> int:
        return self.summary.number

    @property
    def live(self) -> bool:
        """Dealt from the live deck (SPEC 3.15)."""
        return self.formation is not None

    @property
    def split(self) -> bool:
        """A split-pot game, declared (SPEC 3.16)."""
        return self.sides is not None

    @property
    def declared(self) -> tuple[tuple[int, str], ...]:
        """(seat, high, low or pig) of every declaration opened, in the order it opened."""
        return self.summary.declared

    @property
    def proofs(self) -> tuple[tuple[str, int], ...]:
        """The proofs verified, by kind (SPEC 7.6); in a live-deck game the DLEQ batches are
        named by what they prove: `street-shares`, `show`, `fold-release`."""
        counts = dict(self.summary.proofs)
        if not self.live:
            return tuple(counts.items())
        batches = counts.pop("dleq-batch", 0)
        for kind, name in LIVE_ENTRY_PROOFS.items():
            n = min(dict(self.entries).get(kind, 0), batches)
            batches -= n
            if n:
                counts[name] = counts.get(name, 0) + n  # a flip's show joins the shows
        if batches:
            counts["dleq-batch"] = batches
        return tuple(counts.items())


LIVE_ENTRY_PROOFS = {
    "street_shares": "street-shares",
    "show": "show",
    "flip": "show",
    "fold_release": "fold-release",
}
"""The entry kinds of a live-deck game that carry a DLEQ batch, and its proof kind's name (a
flip's is a show of the card it turns up, SPEC 5.16)."""


@dataclass(slots=True)
class _RoundLog:
    turned: list[tuple[int, Card]] = field(default_factory=list)
    opener: int | None = None
    actions: list[BetAction] = field(default_factory=list)


class HandLog:
    """Collects the events of the hand being replayed; `close` turns them into its history."""

    def __init__(self, started: HandStarted) -> None:
        self._seats = started.seats
        self._announcement: Announcement | None = None
        self._trading_closed = ""
        self._rounds: dict[int, _RoundLog] = {}
        self._round = 0
        self._bets: Counter[int] = Counter()
        self._antes: Counter[int] = Counter()
        self._result: HandResult | None = None
        self._streets: list[StreetDeal] = []
        self._board: list[Card] = []
        self._each = 0
        """Cards dealt to each player still in so far (a live-deck game)."""
        self._shows: dict[int, tuple[Card, ...]] = {}
        self._silent: tuple[int, ...] | None = None
        self._splits: list[PotSplit] = []
        self._sealed: list[int] = []
        self._entries: Counter[str] = Counter()
        self._default: object = None
        """The action a clock that ran out took, until the rules' own event of it is passed."""

    def entry(self, kind: str) -> None:
        """An entry of the hand was applied (counted for the live deck's proofs)."""
        if kind in LIVE_ENTRY_PROOFS:
            self._entries[kind] += 1

    def _current(self, number: int) -> _RoundLog:
        self._round = number
        if self._streets and self._streets[-1].round is None and number not in self._rounds:
            self._streets[-1] = replace(self._streets[-1], round=number)
        return self._rounds.setdefault(number, _RoundLog())

    def _drew(self, event: Drew) -> None:
        last = self._streets[-1] if self._streets else None
        if last is None or not last.drawn or last.round is not None:
            last = StreetDeal("The draw", 0, (), (), tuple(self._board), None)
            self._streets.append(last)
        self._streets[-1] = replace(last, drawn=(*last.drawn, (event.seat, event.count)))

    def _washed(self, event: Washed) -> None:
        last = self._streets[-1] if self._streets else None
        if last is None or not last.washed or last.round is not None:
            before = sum(1 for st in self._streets if st.washed)
            name = "The wash" if not before else f"The {_WASHES.get(before + 1, 'next')} wash"
            last = StreetDeal(name, 0, (), (), tuple(self._board), None)
            self._streets.append(last)
        washes = list(last.washed)
        if washes and washes[-1].seat == event.seat and event.count:
            # a wash of several cards may be told a card at a time: one player's one wash
            earlier, more = washes.pop(), seat_wash(event)
            washes.append(
                replace(more, paid=earlier.paid + more.paid, cards=earlier.cards + more.cards)
            )
        else:
            washes.append(seat_wash(event))
        self._streets[-1] = replace(last, washed=tuple(washes))

    def _passes(self) -> bool:
        """The hand's game deals pass streets (SPEC 3.19): a deal of one face-up card is one
        card of such a street."""
        game = None if self._announcement is None else self._announcement.game
        return game is not None and bool(game.steps_of(PassStreet))

    def _pass_card(self, event: StreetDealt) -> None:
        """One card of a pass street: the first starts the street, the others join it (a
        replacement is told with the pass it follows)."""
        ((seat, cards),) = event.up
        last = self._streets[-1] if self._streets else None
        if last is None or not last.passing or last.round is not None:
            game = None if self._announcement is None else self._announcement.game
            self._each += 1
            name = street_name(game, len(self._streets), self._each, event, len(self._board))
            before = tuple(self._board)
            self._streets.append(StreetDeal(name, 0, event.up, (), before, None, passing=True))
            return
        up = dict(last.up)
        up[seat] = up.get(seat, ()) + cards
        passed = last.passed
        if event.replaces is not None:
            passed = tuple(
                replace(p, dealt=cards[0]) if p.seat == seat and p.dealt is None else p
                for p in passed
            )
        self._streets[-1] = replace(last, up=tuple(up.items()), passed=passed)

    def _passed(self, event: CardPassed) -> None:
        last = self._streets[-1]
        up = {seat: tuple(c for c in cards if c != event.card) for seat, cards in last.up}
        up[event.to] = (*up.get(event.to, ()), event.card)
        passed = PassedCard(event.seat, event.to, event.card, event.paid)
        self._streets[-1] = replace(
            last,
            up=tuple((seat, cards) for seat, cards in up.items() if cards),
            passed=(*last.passed, passed),
        )

    def _street(self, event: StreetDealt) -> None:
        if (
            not (event.down or event.board)
            and len(event.up) == 1
            and len(event.up[0][1]) == 1
            and self._passes()
        ):
            self._pass_card(event)
            return
        last = self._streets[-1] if self._streets else None
        if last is not None and last.drawn and not (event.down or event.up or event.board):
            return  # the redeal of the draw just told: the draw's line says who got how many
        if last is not None and last.washed and last.round is None and not event.board:
            # the wash's redeal: told on the wash's line (a card for a card, no new street)
            self._streets[-1] = replace(last, up=event.up, washed=with_dealt(last.washed, event.up))
            return
        game = None if self._announcement is None else self._announcement.game
        up = max((len(cards) for _, cards in event.up), default=0)
        self._each += event.down + up + (1 if event.board and not (event.down or up) else 0)
        before = tuple(self._board)
        self._board += event.board
        name = street_name(game, len(self._streets), self._each, event, len(self._board))
        self._streets.append(StreetDeal(name, event.down, event.up, event.board, before, None))

    def take(self, event: object) -> None:
        """Record one event the session emitted (any kind; those that say nothing are skipped)."""
        if isinstance(event, Announced):
            self._announcement = event.announcement
        elif isinstance(event, AntesPosted):
            self._antes.update(dict(event.posted))
        elif isinstance(event, StreetDealt):
            self._street(event)
        elif isinstance(event, Drew):
            self._drew(event)
        elif isinstance(event, CardPassed):
            self._passed(event)
        elif isinstance(event, Washed):
            self._washed(event)
        elif isinstance(event, WashCalled) and not event.washes:
            # where the washers are named first, one that says it keeps its cards is told as
            # at any wash; one that says it washes is told by its wash
            self._washed(Washed(event.seat, 0, None, 0))
        elif isinstance(event, CardsShown):
            self._shows[event.seat] = self._shows.get(event.seat, ()) + event.cards
        elif isinstance(event, HandForfeited):
            self._silent = event.silent
        elif isinstance(event, PotSplit):
            self._splits.append(event)
        elif isinstance(event, Sealed):
            self._sealed.append(event.seat)
        elif isinstance(event, TradingClosed):
            self._trading_closed = event.reason
        elif isinstance(event, CardRevealed):
            self._current(event.betting_round).turned.append((event.seat, event.card))
        elif isinstance(event, BettingOpened):
            self._current(event.betting_round).opener = event.opener
        elif isinstance(event, BettingSkipped):
            self._current(event.betting_round)
        elif isinstance(event, TimedOut):
            self._bet(event.outcome, timed_out=True)
            self._default = event.outcome  # the rules emit it again next: one action, not two
        elif event is self._default:
            self._default = None
        elif isinstance(event, HandEnded | HandAborted):
            self._result = event.result
        else:
            self._bet(event, timed_out=False)

    def _bet(self, event: RulesEvent | object, *, timed_out: bool) -> None:
        action: BetAction | None = None
        if isinstance(event, Checked):
            action = BetAction(event.seat, "check", 0, 0, timed_out)
        elif isinstance(event, Folded):
            action = BetAction(event.seat, "fold", 0, 0, timed_out)
        elif isinstance(event, BetPlaced):
            action = BetAction(event.seat, "bet", event.amount, event.amount, timed_out)
        elif isinstance(event, Called):
            kind = "all-in" if event.all_in else "call"
            action = BetAction(event.seat, kind, event.amount, 0, timed_out)
        elif isinstance(event, Raised):
            action = BetAction(event.seat, "raise", event.amount, event.to, timed_out)
        elif isinstance(event, WentAllIn):
            action = BetAction(event.seat, "all-in", event.amount, event.to, timed_out)
        elif isinstance(event, PotMatched):
            answer = "pot-match" if event.matched else "pot-fold"
            action = BetAction(event.seat, answer, event.amount, 0, timed_out)
        if action is None or not self._round:
            return
        if action.action != "pot-match":  # a match is no bet: dead money, as the ante
            self._bets[action.seat] += action.chips
        self._rounds[self._round].actions.append(action)

    def close(self, summary: HandSummary) -> HandHistory:
        """The hand's history, once the session has closed it with `summary`."""
        rounds = tuple(
            BettingRound(n, tuple(r.turned), r.opener, tuple(r.actions))
            for n, r in sorted(self._rounds.items())
        )
        bets = tuple((s, self._bets[s]) for s in self._seats)
        pots: tuple[PotResult, ...] = ()
        returned: tuple[tuple[int, int], ...] = ()
        if not summary.aborted:
            pots, returned = _pots(self._result, dict(bets), self._splits)
        result = self._result
        forfeit = None
        if self._silent is not None and result is not None:
            forfeit, pots, returned = self._forfeit(self._silent, result)
        stacks: tuple[tuple[int, int], ...] = ()
        if result is not None:
            stacks = tuple(zip(result.seats, result.final_stacks, strict=True))
        game = None if self._announcement is None else self._announcement.game
        formation = None if game is None else formation_of(game)
        board = tuple(self._board)
        if formation is None or game is None:
            showdown = _showdown(summary)
        else:
            showdown = () if forfeit else _live_showdown(summary, game, board, self._shows)
        sides = None if game is None else sides_of(game)
        if sides is not None and game is not None:
            # both sides of each hand shown: its high, then its low (SPEC 3.16)
            showdown = tuple(_both_sides(sh, game, board) for sh in showdown)
        return HandHistory(
            summary=summary,
            announcement=self._announcement,
            trading_closed=self._trading_closed,
            rounds=rounds,
            showdown=showdown,
            pots=pots,
            returned=returned,
            stacks=stacks,
            bets=bets,
            formation=None if formation is None else formation.value,
            streets=tuple(self._streets),
            board=board,
            forfeit=forfeit,
            entries=tuple(sorted(self._entries.items())),
            sides=sides,
            sealed=tuple(self._sealed),
            declared_after=None if game is None else declared_after(game),
        )

    def _forfeit(
        self, silent: tuple[int, ...], result: HandResult
    ) -> tuple[Forfeit, tuple[PotResult, ...], tuple[tuple[int, int], ...]]:
        """The forfeit settlement read from the rules' awards (SPEC 3.15): first what each
        other player takes back (a pot of its own), then, if the silent players put anything
        in, the pot of what they forfeited, shared by the players still in."""
        amount = sum(self._bets[x] + self._antes[x] for x in silent)
        awards = list(result.awards)
        shared = awards.pop() if amount and awards else None
        refunds = tuple((a.pot.eligible[0], a.pot.amount) for a in awards)
        if shared is None:
            return Forfeit(silent, 0, (), (), refunds), (), refunds
        pot = PotResult(shared.pot.amount, shared.pot.eligible, shared.winners, shared.shares)
        forfeit = Forfeit(silent, shared.pot.amount, shared.winners, shared.shares, refunds)
        return forfeit, (pot,), refunds


def with_summary(history: HandHistory, summary: HandSummary) -> HandHistory:
    """The same history with the session's later summary of the hand (its signatures)."""
    return replace(history, summary=summary)


def _showdown(summary: HandSummary) -> tuple[ShowdownHand, ...]:
    if summary.aborted:
        return ()
    live = [s for s in summary.seats if s not in summary.folded]
    if len(live) < 2:
        return ()
    shown = dict(summary.shown)
    hands = []
    for seat in live:
        cards = shown.get(seat, ())
        if 5 <= len(cards) <= 7:
            value = best_hand(cards).text
        elif cards:
            value = f"showing {showing_value(cards).text}"
        else:
            value = "no card turned"
        hands.append(ShowdownHand(seat, cards, value))
    return tuple(hands)


_ORDINALS = {2: "Second", 3: "Third", 4: "Fourth", 5: "Fifth", 6: "Sixth", 7: "Seventh"}
_BOARD_STREETS = {3: "Flop", 4: "Turn", 5: "River"}


def formation_of(game: GameSpec) -> Formation | None:
    """How a live-deck game makes its hands at the showdown; None for a game of layouts."""
    deals = any(isinstance(step, Deal) for step in game.script)
    settle = next((step for step in game.script if isinstance(step, Settle | SettleSplit)), None)
    return settle.formation if deals and settle is not None else None


def sides_of(game: GameSpec) -> tuple[str, str] | None:
    """What a split-pot game's two sides are won with (`rules.declare.Side` values, the
    declaration's `high` side first); None for a game that splits no pot (SPEC 3.16)."""
    settle = next((step for step in game.script if isinstance(step, SettleSplit)), None)
    if settle is None:
        return None
    return str(getattr(settle, "first", "high")), str(settle.second)


def declared_after(game: GameSpec) -> int | None:
    """The number of the betting round that follows `game`'s declaration; None without one."""
    bets = 0
    for step in game.script:
        if isinstance(step, Declare):
            return bets + 1
        if step.PHASE is Phase.BETTING:
            bets += 1
    return None


def street_name(
    game: GameSpec | None, index: int, each: int, event: StreetDealt, board: int
) -> str:
    """The name players give a deal step: hold'em's and Omaha's "Preflop", "Flop", "Turn",
    "River"; stud's "Third street" by the cards each player holds after it; a draw game's
    "The deal" and "The draw"."""
    deals = [] if game is None else [s for s in game.script if isinstance(s, Deal)]
    if any(d.board and not d.overflow for d in deals):
        if not event.board:
            return "Preflop" if index == 0 else "Deal"
        return _BOARD_STREETS.get(board, "Board")
    if any(d.up for d in deals):
        if index == 0 and not (event.up or event.board):
            return "The deal"  # the hole cards alone (Pass the Card deals its up cards after)
        return f"{_ORDINALS[each]} street" if each in _ORDINALS else f"Street {index + 1}"
    return "The deal" if index == 0 else "The draw"


def _live_showdown(
    summary: HandSummary,
    game: GameSpec,
    board: tuple[Card, ...],
    shows: dict[int, tuple[Card, ...]],
) -> tuple[ShowdownHand, ...]:
    """Every player still in at a live-deck game's showdown: its cards and the hand its
    formation makes with the board (SPEC 3.15), its ace-to-five low in a lowball game."""
    formation = formation_of(game)
    assert formation is not None
    settle = next((step for step in game.script if isinstance(step, Settle)), None)
    low = settle is not None and settle.low
    if summary.aborted:
        return ()
    live = [s for s in summary.seats if s not in summary.folded]
    if len(live) < 2:
        return ()
    shown = dict(summary.shown)
    hands = []
    for seat in live:
        cards = shown.get(seat, ())
        try:
            if low:
                value = describe_low(low_a5([*cards, *board]))
            else:
                value = describe_high(hand_value(formation, cards, board))
        except ValueError:
            value = "no hand shown"
        hands.append(ShowdownHand(seat, cards, value, shows.get(seat, ())))
    return tuple(hands)


def _split_pots(result: HandResult, splits: list[PotSplit]) -> list[PotResult]:
    """Every pot of a split-pot hand as the declarations split it (SPEC 3.16), a pot nobody
    won among them: the rules award only the pots that someone won, in the same order."""
    awards = iter(result.awards)
    pots = []
    for ev in splits:
        winners: tuple[int, ...] = ()
        shares: tuple[int, ...] = ()
        if not ev.carried:
            award = next(awards)
            winners, shares = award.winners, award.shares
        pots.append(
            PotResult(
                ev.amount,
                ev.eligible,
                winners,
                shares,
                split=True,
                high=ev.high,
                low=ev.low,
                pigs_failed=ev.pigs_failed,
                carried=ev.carried,
            )
        )
    return pots


def _both_sides(sh: ShowdownHand, game: GameSpec, board: tuple[Card, ...]) -> ShowdownHand:
    worth = side_words(game, sh.cards, board, sh.shows)
    if worth is None:
        return sh
    return replace(sh, value="; ".join(worth), sides=worth)


def _pots(
    result: HandResult | None, bets: dict[int, int], splits: list[PotSplit] | None = None
) -> tuple[tuple[PotResult, ...], tuple[tuple[int, int], ...]]:
    """The pots as won (`splits`: as a split-pot game's declarations split them), and the
    uncalled bet returned, if any.

    The rules put every chip in a pot (SPEC 3.8); a bet nobody matched sits alone in the top
    pot, whose only contender is the bettor. That part (the bettor's bet above everyone
    else's) is shown as returned, not as a pot won.
    """
    if result is None:
        return (), ()
    if splits:
        pots = _split_pots(result, splits)
    else:
        pots = [PotResult(a.pot.amount, a.pot.eligible, a.winners, a.shares) for a in result.awards]
    returned: tuple[tuple[int, int], ...] = ()
    if pots and len(pots[-1].contested) == 1 and not pots[-1].carried:
        top = pots[-1]
        bettor = top.contested[0]
        others = max((chips for seat, chips in bets.items() if seat != bettor), default=0)
        back = min(top.amount, max(0, bets.get(bettor, 0) - others))
        if back:
            returned = ((bettor, back),)
            rest = top.amount - back
            pots[-1] = replace(top, amount=rest, shares=(rest,) * bool(top.winners))
            if not rest:
                pots.pop()
    return tuple(pots), returned


__all__ = [
    "LIVE_ENTRY_PROOFS",
    "BetAction",
    "BettingRound",
    "Forfeit",
    "HandHistory",
    "HandLog",
    "PassedCard",
    "PotResult",
    "SeatWash",
    "ShowdownHand",
    "StreetDeal",
    "WashedCard",
    "declared_after",
    "formation_of",
    "seat_wash",
    "sides_of",
    "street_name",
    "with_dealt",
    "with_summary",
]
