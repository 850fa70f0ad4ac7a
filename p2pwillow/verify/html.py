"""`willow verify --html`: the verified game as one self-contained web page.

Pure; no I/O but reading the package's own template files. The page is made from the very
object `--json` prints (`report_object`, or `bug_object`), so every figure on it is the
verifier's: the verdict and what was checked, the table and its players, the final standings,
a chart of every stack hand by hand, the big pots and, per hand, a replay that steps through
the deal, the trades, each round's cards and bets, the showdown and the pots.

Everything the page needs is inside it: the styles, the cards (drawn with CSS), the chart (plain
SVG written here) and a small script for keyboard and mouse navigation; its Content Security
Policy lets it load nothing at all, and it reads well with scripts off. Every text from the
transcript (player and table names are free text) goes through the template engine's escaping.
"""

from __future__ import annotations

import base64
import functools
import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from typing import Any

import jinja2
from markupsafe import Markup

from p2pwillow.cards import RANK_LETTERS, RANK_NAMES, Card
from p2pwillow.games import CATALOGUE, WEEPING_WILLOW

LAYOUT_CARDS = 5
"""Cards each player lays out face down after trading and turns one a round (SPEC 3.6)."""

DECK = 52

COLORS = (
    "#2f6fb0",
    "#d9622b",
    "#3a9a4a",
    "#c23b4e",
    "#7d5bb5",
    "#8c6239",
    "#d65fa6",
    "#5f6b73",
    "#a8a21d",
    "#1fa3b3",
)
"""One color per seat, 0 to 9, told apart by most eyes."""

_SUIT_NAMES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}

_VERBS = {"check": "checks", "fold": "folds", "bet": "bets", "call": "calls", "raise": "raises"}

PROOF_WORDS: dict[str, tuple[str, str]] = {
    "schnorr": (
        "hand keys",
        "each player proved it knows the secret of the key it added to the lock on the deck",
    ),
    "shuffle": (
        "shuffles",
        "every shuffle holds the same 52 cards, re-locked and reordered: none added, dropped or "
        "changed",
    ),
    "dleq-batch": (
        "deal shares",
        "each player's part in opening a dealt card for its owner alone came from its hand key, "
        "so every card dealt is a card of the deck",
    ),
    "street-shares": (
        "street shares",
        "at each street every player still holding its key opened its part of the cards dealt, "
        "from its hand key: every card dealt, down, up or to the board, is the deck's next card",
    ),
    "fold-release": (
        "fold releases",
        "a player who folded released its key from the cards still in the deck, so the deck "
        "dealt on without it",
    ),
    "show": (
        "shows",
        "each card shown at the showdown is a card its player was dealt face down",
    ),
    "reencryption": (
        "traded cards",
        "each card handed over in a blind trade is a card the giver held, unchanged",
    ),
    "discard": (
        "discarded cards",
        "each card thrown away in a draw, or face down in a wash, is a card its player held, "
        "moved to the muck unopened",
    ),
    "dleq": (
        "reveals",
        "each card turned face up is the next card of the layout its owner fixed face down",
    ),
}
"""Each proof kind of SPEC 7.6 in the order a hand makes them: its name and what it shows."""

# Rejection reasons (SPEC 6.11) by the check that failed.
_FAILED_CHECK = {
    "bad-signature": "signatures",
    "bad-countersignature": "signatures",
    "unknown-author": "signatures",
    "bad-vote": "signatures",
    "bad-proof": "proofs",
    "illegal-action": "rules",
    "bad-seating": "rules",
}


# --- what the template draws ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardView:
    """A card face up (`rank`, `suit` set) or face down (both empty)."""

    rank: str = ""
    suit: str = ""
    red: bool = False
    label: str = "a card face down"
    code: str = ""
    """The card as the transcript and `--json` write it ("Qh"); "" face down."""
    fresh: bool = False
    """Turned face up in the step shown."""

    @property
    def face_up(self) -> bool:
        return bool(self.rank)


BACK = CardView()


@dataclass(frozen=True, slots=True)
class Part:
    """A piece of a sentence: text, or a card drawn inline."""

    text: str = ""
    card: CardView | None = None
    strong: bool = False


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    name: str
    color: str
    dealer: bool
    cards: tuple[CardView, ...]
    note: str = ""
    """What the seat did in this step, or how it ended."""
    out: bool = False
    """Folded: no longer in the hand."""
    winner: bool = False
    figure: str = ""
    """A number to show at the seat's right: its stack, or what it won or lost."""
    figure_label: str = ""


@dataclass(frozen=True, slots=True)
class StepView:
    key: str
    title: str
    lines: tuple[tuple[Part, ...], ...]
    seats: tuple[SeatView, ...]
    aside: str = ""
    actions: tuple[tuple[Part, ...], ...] = ()
    """The betting decisions of the step, in order."""


@dataclass(frozen=True, slots=True)
class PotView:
    label: str
    amount: int
    winners: tuple[tuple[int, str, int], ...]
    """(seat, name, chips won)."""
    how: str
    contested: str
    split: bool = False
    """Split by a split-pot game's declarations (SPEC 3.16): `how` names each side's winners."""
    carried: int = 0
    """Chips of the pot nobody won, carried over to the next hand (no winners)."""


@dataclass(frozen=True, slots=True)
class Shown:
    """A hand a player showed down."""

    hand: int
    seat: int
    name: str
    color: str
    cards: tuple[CardView, ...]
    value: str
    """The hand's name: "full house, kings full of fives"."""
    won: int
    """Chips it won in the hand's pots."""


@dataclass(frozen=True, slots=True)
class HandView:
    number: int
    dealer: str
    headline: str
    pot: int
    steps: tuple[StepView, ...]
    pots: tuple[PotView, ...]
    proofs: str
    hidden: int
    signed: bool
    aborted: bool
    best: tuple[str, int] | None
    """The name and net of the hand's biggest winner, for the list of hands."""
    showdown: tuple[Shown, ...] = ()
    carried_in: int = 0
    """Chips in the main pot carried over from the last hand, whose pot nobody won."""


@dataclass(frozen=True, slots=True)
class Standing:
    place: int
    seat: int
    name: str
    color: str
    bought_in: int
    final: int
    net: int
    note: str
    won: int
    """Hands in which the player won a pot."""
    biggest: int
    """The largest pot the player won (its share of it)."""


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    state: str
    """ok, failed, open (not complete) or unknown (not reached)."""
    summary: str
    detail: str


@dataclass(frozen=True, slots=True)
class Point:
    hand: int
    """The hand after which the seat had `stack`; for the first point of a run, the hand before
    the first one the seat played (0: the start of the game)."""
    stack: int
    x: float
    y: float
    first: bool


@dataclass(frozen=True, slots=True)
class Series:
    seat: int
    name: str
    color: str
    segments: tuple[tuple[Point, ...], ...]

    @property
    def points(self) -> tuple[Point, ...]:
        return tuple(p for segment in self.segments for p in segment)

    @staticmethod
    def path(segment: Sequence[Point]) -> str:
        return " ".join(f"{p.x:g},{p.y:g}" for p in segment)


@dataclass(frozen=True, slots=True)
class Tick:
    value: int
    pos: float
    label: str


@dataclass(frozen=True, slots=True)
class Chart:
    width: int
    height: int
    left: int
    top: int
    right: int
    bottom: int
    y_max: int
    x_max: int
    series: tuple[Series, ...]
    y_ticks: tuple[Tick, ...]
    x_ticks: tuple[Tick, ...]


@dataclass(frozen=True, slots=True)
class BigPot:
    hand: int
    amount: int
    winners: str
    how: str


@dataclass(slots=True)
class Page:
    title: str
    games: str
    """The games the night played, for the line above the verdict."""
    file: str
    verdict: str
    headline: str
    verdict_lines: list[str]
    checks: list[Check]
    table: str | None
    rules: list[str]
    players: list[tuple[int, str, str]]
    """(seat, name, color)."""
    standings: list[Standing]
    standings_title: str
    night: str
    chart: Chart | None
    big_pots: list[BigPot]
    showdowns: list[Shown]
    hands: list[HandView]
    notes: list[str]
    entries: int
    proof_totals: list[tuple[str, int, str]] = field(default_factory=list)
    """(name, count, what it shows) over the whole game."""
    complete_hands: int = 0
    chips: str = ""
    split: bool = False
    """A hand was of a split-pot game (SPEC 3.16): the page says how a declaration is kept."""


# --- words ---------------------------------------------------------------------------------


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _and(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def chips(n: int) -> str:
    """A number of chips as the page writes it: 1,924."""
    return f"{n:,}"


def signed_chips(n: int) -> str:
    return f"+{n:,}" if n > 0 else (f"−{-n:,}" if n < 0 else "±0")


def card_view(code: str) -> CardView:
    c = Card.parse(code)
    rank = "10" if c.rank == 10 else RANK_LETTERS[c.rank - 2]
    suit_letter = c.suit.letter
    label = f"{RANK_NAMES[c.rank]} of {_SUIT_NAMES[suit_letter]}"
    return CardView(rank, c.suit.symbol, suit_letter in "dh", label, c.ascii)


class _Names:
    """Players named as the text report names them: by name, with the seat when two share it."""

    def __init__(self, players: Sequence[Mapping[str, Any]]) -> None:
        self._players = [(int(p["seat"]), str(p["name"])) for p in players]

    def __call__(self, seat: int) -> str:
        """The player at `seat` (the last one, if the seat changed hands)."""
        names = [n for s, n in self._players if s == seat]
        return self.named(names[-1], seat) if names else f"seat {seat}"

    def named(self, name: str, seat: int) -> str:
        if sum(1 for _, n in self._players if n == name) > 1:
            return f"{name} (seat {seat})"
        return name

    def everyone(self) -> list[tuple[int, str]]:
        """(seat, name) of every player who sat at the table, by seat."""
        return [(s, self.named(n, s)) for s, n in sorted(set(self._players))]


def _color(seat: int) -> str:
    return COLORS[seat % len(COLORS)]


def _structure(c: Mapping[str, Any]) -> str:
    kind = c["structure"]
    raises = f"at most {_plural(c['max_raises'], 'raise')} a round"
    if kind == "spread-limit":
        return f"Spread limit: bets of {c['min_bet']} to {c['max_bet']}, {raises}"
    if kind == "fixed-limit":
        return (
            f"Fixed limit: bets of {c['small_bet']} in rounds 1 and 2, {c['big_bet']} in "
            f"rounds 3 to 5, {raises}"
        )
    if kind == "pot-limit":
        return f"Pot limit: the smallest bet is {c['min_bet']}"
    return f"No limit: the smallest bet is {c['min_bet']}"


def _trading(t: Mapping[str, Any] | None) -> str:
    if t is None:
        return ""
    chooses = t.get("partner") == "offerer-chooses"
    who = "the offerer picks among those who accept" if chooses else "the first to accept trades"
    if t["mode"] == "free":
        when = " once everyone has offered or passed" if chooses else ""
        return f"free trading until the dealer calls it{when}, {who}"
    if t["closing"] == "orbits":
        return f"trading in turn for {_plural(t['orbits'] or 0, 'orbit')}, {who}"
    if t["closing"] == "dealer-calls":
        return f"trading in turn until the dealer calls it, {who}"
    return f"trading in turn until a full orbit passes without a trade, {who}"


def _action(a: Mapping[str, Any]) -> str:
    """What a decision did, without who: "raises to 140"."""
    kind = a["action"]
    if kind == "all-in":
        text = f"goes all in with {chips(a['chips'])}" + (
            f", to {chips(a['to'])}" if a["to"] else ""
        )
    elif kind == "raise":
        text = f"raises to {chips(a['to'])}"
    elif kind in ("bet", "call"):
        text = f"{_VERBS[kind]} {chips(a['chips'])}"
    elif kind in ("pot-match", "pot-fold"):
        # SPEC 3.18: a show after the declaration put the player to match the pot or fold
        answer = f"matched the pot ({chips(a['chips'])})" if kind == "pot-match" else "folded"
        text = f"showed after the declaration: {answer}"
    else:
        text = _VERBS.get(kind, kind)
    return text + (" (the clock ran out)" if a["timed_out"] else "")


def _proofs(proofs: Mapping[str, int]) -> str:
    counts = dict(proofs)
    parts = [f"{counts.pop(k)} {PROOF_WORDS[k][0]}" for k in PROOF_WORDS if k in counts]
    parts += [f"{n} {k}" for k, n in sorted(counts.items())]
    return ", ".join(parts) or "none"


# --- one hand ------------------------------------------------------------------------------


def _pot_label(index: int, count: int) -> str:
    if count == 1:
        return "The pot"
    return "Main pot" if index == 0 else f"Side pot {index}"


def _times(n: int) -> str:
    if not n:
        return ""
    return "traded " + {1: "once", 2: "twice"}.get(n, f"{n} times")


def _won(pv: PotView) -> str:
    """A pot's result in a few words: "bot 1 wins 564, everyone else folded"."""
    if pv.split:
        # "The pot of 150: high: bot 1 wins 75 with …; low: bot 2 wins 75 with …"
        return f"{pv.label} of {chips(pv.amount)}: {pv.how}"
    who = _and([w for _, w, _ in pv.winners])
    verb = "wins" if len(pv.winners) == 1 else "split"
    what = (
        f"{who} {verb} {chips(pv.amount)}"
        if pv.label == "The pot"
        else (f"{who} {verb} the {pv.label.lower()} of {chips(pv.amount)}")
    )
    if not pv.how:
        return what
    return f"{what}, {pv.how}" if pv.how.startswith("everyone") else f"{what} {pv.how}"


WASH_ASIDE = (
    "A wash: each player still in, in the game's order, may pay to throw away one of its cards "
    "and be dealt another the same way. A card washed face down stays secret, and so does the "
    "one dealt for it: a proof shows it was a card the player held. Where the game offers the "
    "cloak (Go for Broke), a player may instead pay more to throw away a face-up card and be "
    "dealt the next one face down. Where it offers the flip (Five by Two), a player may instead "
    "turn a face-down card face up, shown with a proof that it held it, and throw away a "
    "face-up card, the next one dealt face down."
)


def _washes(st: Mapping[str, Any], seat: int) -> list[Mapping[str, Any]]:
    """`seat`'s washes in a step of the `--json` object's `streets` (none but at a wash)."""
    return [w for w in st.get("washed") or [] if int(w["seat"]) == seat]


def _wash_note(washed: Sequence[Mapping[str, Any]], then: Callable[[int], str], seat: int) -> str:
    """What a seat did at a wash, and what `then` says of it: "washed a card face down"."""
    said = []
    for w in washed:
        if int(w["seat"]) != seat:
            continue
        if w["kept"]:
            said.append("kept its cards")
            continue
        faces = [str(c["card"]) if c["face"] == "up" else "a card face down" for c in w["cards"]]
        paid = int(w["paid"])
        verb = "cloaked" if any(c.get("cloaked") for c in w["cards"]) else "washed"
        flipped = [str(c["flipped"]) for c in w["cards"] if c.get("flipped")]
        if flipped:
            verb = f"flipped {flipped[0]} face up and washed"
        said.append(f"{verb} {_and(faces)}" + (f" for {chips(paid)}" if paid else ""))
    return "; ".join(x for x in (*said, then(seat)) if x)


class _Hand:
    """One hand of the `--json` object, told step by step: what `HandView` holds."""

    def __init__(self, h: Mapping[str, Any], name: _Names, config: Mapping[str, Any] | None):
        self.h = h
        self.name = name
        self.config = config
        self.seats: list[int] = [int(s) for s in h["seats"]]
        self.dealer = int(h["dealer"])
        self.showdown = {int(s["seat"]): s for s in h["showdown"]}
        self.net = {int(k): int(v) for k, v in h["chips"].items()}
        self.after = {int(k): int(v) for k, v in h["stacks"].items()}
        self.shown = {int(k): [card_view(c) for c in v] for k, v in h["shown"].items()}
        self.turned_in: dict[tuple[int, str], int] = {}
        """(seat, card) to the round in which the seat turned it."""
        self.folded_in: dict[int, int] = {}
        """The round in which each seat folded (0: before the first, as a stalling dealer)."""
        self.all_in: dict[int, int] = {}
        for r in h["rounds"]:
            n = int(r["number"])
            for t in r["turned"]:
                self.turned_in[int(t["seat"]), str(t["card"])] = n
            for a in r["actions"]:
                if a["action"] in ("fold", "pot-fold"):
                    self.folded_in.setdefault(int(a["seat"]), n)
                elif a["action"] == "all-in":
                    self.all_in.setdefault(int(a["seat"]), n)
        for seat in h["folded"]:
            self.folded_in.setdefault(int(seat), 0)
        self.pots = [self._pot(i, p) for i, p in enumerate(h["pots"])]
        self.live = "formation" in h
        """Dealt from the live deck (SPEC 3.15): streets, up cards and a board, no layout."""
        self.streets: list[Mapping[str, Any]] = list(h.get("streets") or [])

    def _seat(self, seat: int, cards: Sequence[CardView], **kw: Any) -> SeatView:
        return SeatView(
            seat, self.name(seat), _color(seat), seat == self.dealer, tuple(cards), **kw
        )

    def _layout(self, seat: int, through: int, *, fresh: bool = True) -> list[CardView]:
        """The seat's five cards once round `through` has turned its card: face up those
        turned (marked `fresh` if turned in that round), face down the rest."""
        up = [
            replace(c, fresh=fresh and self.turned_in.get((seat, c.code)) == through)
            for c in self.shown.get(seat, [])
            if self.turned_in.get((seat, c.code), 0) <= through
        ]
        return up + [BACK] * max(0, LAYOUT_CARDS - len(up))

    def _split_pot(self, index: int, p: Mapping[str, Any]) -> PotView:
        """A pot split by the declarations (SPEC 3.16): each side's winners, their chips and
        hands, the pigs that failed, or nobody, and the pot carried over."""
        winners = [int(w) for w in p["winners"]]
        parts = []
        if p["pigs_failed"]:
            pigs = _and([self.name(int(x)) for x in p["pigs_failed"]])
            parts.append(f"{pigs} went pig and did not win both ways")
        carried = int(p["carried"])
        if carried:
            parts.append(f"nobody wins: {chips(carried)} carries over to the next hand")
        else:
            amount = int(p["amount"])
            low = amount // 2 if p["high"] and p["low"] else (amount if p["low"] else 0)
            for side, seats, half, which in (
                ("high", p["high"], amount - low, 0),
                ("low", p["low"], low, 1),
            ):
                if not seats:
                    parts.append(f"nobody wins {side}")
                    continue
                who = _and([self.name(int(x)) for x in seats])
                verb = "wins" if len(seats) == 1 else "split"
                sides = self.showdown.get(int(seats[0]), {}).get("sides")
                how = f" with {sides[which]}" if sides else ""
                parts.append(f"{side}: {who} {verb} {chips(half)}{how}")
        return PotView(
            _pot_label(index, len(self.h["pots"])),
            int(p["amount"]),
            tuple(
                (w, self.name(w), int(share)) for w, share in zip(winners, p["shares"], strict=True)
            ),
            "; ".join(parts),
            _and([self.name(int(s)) for s in p["eligible"]]),
            split=True,
            carried=carried,
        )

    def _pot(self, index: int, p: Mapping[str, Any]) -> PotView:
        if "high" in p:
            return self._split_pot(index, p)
        winners = [int(w) for w in p["winners"]]
        alone = len(p["eligible"]) == 1
        if alone and self.h.get("forfeit"):
            how = "the others forfeited"
        elif alone:
            how = "everyone else folded"
        elif winners[0] in self.showdown:
            how = f"with {self.showdown[winners[0]]['hand']}"
        else:
            how = ""
        return PotView(
            _pot_label(index, len(self.h["pots"])),
            int(p["amount"]),
            tuple(
                (w, self.name(w), int(share)) for w, share in zip(winners, p["shares"], strict=True)
            ),
            how,
            "nobody else was still in"
            if alone
            else _and([self.name(int(s)) for s in p["eligible"]]),
        )

    def view(self) -> HandView:
        h = self.h
        steps: list[StepView] = []
        put_in: dict[int, int] = {}
        # An aborted hand stopped before its deal was complete (SPEC 3.10): nothing to replay.
        if self.live and not h["aborted"]:
            steps += self._live_steps(put_in)
        elif h["deal_size"] is not None and not h["aborted"]:
            steps.append(self._deal(int(h["deal_size"])))
            if h["trading"] is not None:  # a game with trading (Weeping Willow)
                steps.append(self._trades(int(h["deal_size"])))
        if not self.live:
            steps += [self._round(r, put_in) for r in h["rounds"]]
        steps.append(self._result())
        if h["aborted"] and any(self.net.values()):
            paid = _and([self.name(x) for x, n in self.net.items() if n < 0])
            headline = f"Aborted: {paid} paid the ante to the others"
        elif h["aborted"]:
            headline = "Aborted: every stack went back to where it was"
        else:
            headline = "; ".join(_won(pv) for pv in self.pots) or self._no_pot()
        best = max(
            ((self.name(s), n) for s, n in self.net.items() if n > 0),
            key=lambda x: x[1],
            default=None,
        )
        return HandView(
            number=int(h["number"]),
            dealer=self.name(self.dealer),
            headline=headline,
            pot=sum(p.amount for p in self.pots if not p.carried),
            steps=tuple(steps),
            pots=tuple(self.pots),
            proofs=_proofs(h["proofs"]),
            hidden=int(h["hidden_cards"]),
            signed=bool(h["signed"]),
            aborted=bool(h["aborted"]),
            best=best,
            showdown=tuple(
                Shown(
                    int(h["number"]),
                    s,
                    self.name(s),
                    _color(s),
                    tuple(card_view(c) for c in self.showdown[s]["cards"]),
                    str(self.showdown[s]["hand"]),
                    self._won(s),
                )
                for s in self.seats
                if s in self.showdown
            ),
            carried_in=int(h.get("carried_in", 0)),
        )

    def _deal(self, deal_size: int) -> StepView:
        lines: list[tuple[Part, ...]] = [
            (
                Part(self.name(self.dealer), strong=True),
                Part(
                    f" deals {deal_size} cards face down to each of the {len(self.seats)} players."
                ),
            ),
            (
                Part(
                    "Each player alone saw its own cards: nobody else did, not even this page. "
                    "The deck was shuffled by every player in turn, so no one knew its order."
                ),
            ),
        ]
        if self.h["trading"] is not None:
            lines.append((Part(f"The dealer announced {_trading(self.h['trading'])}."),))
        start = {s: self.after[s] - self.net.get(s, 0) for s in self.seats if s in self.after}
        seats = tuple(
            self._seat(
                s,
                [BACK] * deal_size,
                figure=chips(start[s]) if s in start else "",
                figure_label="stack" if s in start else "",
            )
            for s in self.seats
        )
        return StepView("deal", "The deal", tuple(lines), seats)

    def _trades(self, deal_size: int) -> StepView:
        trades = self.h["trades"]
        traded: dict[int, int] = {}
        lines: list[tuple[Part, ...]] = []
        for t in trades:
            a, b = (int(s) for s in t["seats"])
            traded[a] = traded.get(a, 0) + 1
            traded[b] = traded.get(b, 0) + 1
            lines.append(
                (
                    Part(self.name(a), strong=True),
                    Part(f" swaps {_plural(t['cards'], 'card')} with "),
                    Part(self.name(b), strong=True),
                )
            )
        if not trades:
            lines.append((Part("Nobody traded."),))
        trading = self.h["trading"]
        if trading and trading["closed"]:
            lines.append((Part(f"Trading closed: {trading['closed']}."),))
        token = f" ({self.config['token_value']} chips)" if self.config else ""
        aside = (
            f"A trade costs each side one trade token{token}, paid into the pot. The cards "
            "change hands face down: which cards went where stays secret, but each one is "
            "proved to be a card its giver held."
        )
        seats = tuple(
            self._seat(
                s,
                [BACK] * deal_size,
                note=_times(traded.get(s, 0)),
                out=self.folded_in.get(s) == 0,
            )
            for s in self.seats
        )
        return StepView("trades", "Trades" if trades else "No trades", tuple(lines), seats, aside)

    def _round(self, r: Mapping[str, Any], put_in: dict[int, int]) -> StepView:
        """Round r: the cards turned and the betting; `put_in` adds up each seat's bets."""
        n = int(r["number"])
        lines: list[tuple[Part, ...]] = []
        deal_size = self.h["deal_size"]
        if n == 1 and deal_size is not None:
            extra = int(deal_size) - LAYOUT_CARDS
            discards = f", and discarded the other {extra} face down" if extra > 0 else ""
            lines.append(
                (
                    Part(
                        f"Each player laid out {LAYOUT_CARDS} cards face down, in the order it "
                        f"will turn them{discards}. Each round every player still in turns its "
                        "next card; the best cards showing open the betting."
                    ),
                )
            )
        turned = [(int(t["seat"]), card_view(t["card"])) for t in r["turned"]]
        parts: list[Part] = [Part("Turned face up: ")] if turned else [Part("No card turned.")]
        for i, (seat, cv) in enumerate(turned):
            parts += [Part(", " if i else ""), Part(self.name(seat), strong=True), Part(" ")]
            parts.append(Part(card=cv))
        lines.append(tuple(parts))
        actions, note = self._betting(r, lines, put_in, " has the best cards showing and opens")
        seats = tuple(
            self._seat(
                s,
                self._layout(s, n),
                note=note(s),
                out=self.folded_in.get(s, n + 1) <= n,
                figure=chips(put_in[s]) if put_in.get(s) else "",
                figure_label="bet so far" if put_in.get(s) else "",
            )
            for s in self.seats
        )
        return StepView(f"round-{n}", f"Round {n}", tuple(lines), seats, actions=tuple(actions))

    def _betting(
        self,
        r: Mapping[str, Any],
        lines: list[tuple[Part, ...]],
        put_in: dict[int, int],
        opens: str,
    ) -> tuple[list[tuple[Part, ...]], Callable[[int], str]]:
        """Round r's betting: its lines added to `lines`; its decisions, and each seat's note."""
        n = int(r["number"])
        if r["opener"] is None:
            lines.append((Part("No betting: fewer than two players can bet."),))
        elif not r["actions"]:
            lines.append((Part("No action."),))
        else:
            lines.append(
                (
                    Part(self.name(int(r["opener"])), strong=True),
                    Part(f"{opens} the betting:"),
                )
            )
        acted: dict[int, list[str]] = {}
        actions: list[tuple[Part, ...]] = []
        for a in r["actions"]:
            seat = int(a["seat"])
            what = _action(a)
            put_in[seat] = put_in.get(seat, 0) + int(a["chips"])
            acted.setdefault(seat, []).append(what)
            actions.append((Part(self.name(seat), strong=True), Part(f" {what}")))

        def note(s: int) -> str:
            if s in acted:
                return "; ".join(acted[s])
            if self.folded_in.get(s, n) < n:
                return "folded"
            return "all in" if self.all_in.get(s, n) < n else ""

        return actions, note

    # --- a hand dealt from the live deck (SPEC 3.15) -----------------------------------------

    def _street_round(self, index: int) -> int:
        """The betting round after street `index` (one past the last for a street without)."""
        r = self.streets[index]["round"]
        if r is not None:
            return int(r)
        return 1 + max((int(x["number"]) for x in self.h["rounds"]), default=0)

    def _live_cards(self, seat: int, through: int, *, fresh: bool = True) -> list[CardView]:
        """The seat's cards once street `through` is dealt: face down those it holds down,
        face up its up cards (`fresh` if dealt in that street)."""
        down = 0
        up: list[CardView] = []
        for i, st in enumerate(self.streets[: through + 1]):
            if self.folded_in.get(seat, 99) < self._street_round(i):
                break  # a player who folded is dealt nothing more
            down += int(st["down"])
            # a card washed face up goes to the muck; the one dealt for it is in this `up`, or
            # face down for a card cloaked
            washed = [c for w in _washes(st, seat) for c in w["cards"] if c["face"] == "up"]
            gone = {c["card"] for c in washed}
            down += sum(1 for c in washed if c.get("cloaked"))
            up = [c for c in up if c.code not in gone]
            # a flip's face-down card shows from then on; its new card came face down
            for c in washed:
                if c.get("flipped"):
                    up.append(replace(card_view(c["flipped"]), fresh=fresh and i == through))
            for u in st["up"]:
                if int(u["seat"]) == seat:
                    up += [replace(card_view(c), fresh=fresh and i == through) for c in u["cards"]]
        return [BACK] * down + up

    def _board(self, through: int) -> list[CardView]:
        return [
            replace(card_view(c), fresh=i == through)
            for i, st in enumerate(self.streets[: through + 1])
            for c in st["board"]
        ]

    def _folded_before(self, n: int, seat: int) -> str:
        return "folded" if self.folded_in.get(seat, n) < n else ""

    def _live_steps(self, put_in: dict[int, int]) -> list[StepView]:
        """Street by street: what each deal step dealt, face down, face up and to the board,
        and the betting after it."""
        rounds = {int(r["number"]): r for r in self.h["rounds"]}
        steps = []
        for i, st in enumerate(self.streets):
            lines: list[tuple[Part, ...]] = []
            if i == 0:
                lines.append(
                    (
                        Part(
                            "The deck was shuffled by every player in turn, so no one knew its "
                            "order; each card is dealt from it as the hand goes, and a card dealt "
                            "face down is seen by its owner alone, not even by this page."
                        ),
                    )
                )
            if st["down"]:
                lines.append(
                    (Part(f"{_plural(int(st['down']), 'card')} face down to each player."),)
                )
            washed = st.get("washed") or []
            lines += [self._wash_line(w) for w in washed]
            if st["up"] and not washed:  # a wash's line says the card dealt for each washed
                parts: list[Part] = [Part("Face up: ")]
                for j, u in enumerate(st["up"]):
                    parts += [Part(", " if j else ""), Part(self.name(int(u["seat"])), strong=True)]
                    parts += [Part(" "), *[Part(card=card_view(c)) for c in u["cards"]]]
                lines.append(tuple(parts))
            lines += [self._pass_line(p) for p in st.get("passed") or []]
            board = self._board(i)
            if st["board"]:
                lines.append((Part("The board: "), *[Part(card=c) for c in board]))
            r = rounds.get(int(st["round"])) if st["round"] is not None else None
            n = self._street_round(i)
            actions: list[tuple[Part, ...]] = []

            note: Callable[[int], str] = functools.partial(self._folded_before, n)
            if r is not None:
                actions, note = self._betting(r, lines, put_in, " opens")
            if washed:
                note = functools.partial(_wash_note, washed, note)
            seats = tuple(
                self._seat(
                    s,
                    self._live_cards(s, i),
                    note=note(s),
                    out=self.folded_in.get(s, n + 1) <= n,
                    figure=chips(put_in[s]) if put_in.get(s) else "",
                    figure_label="bet so far" if put_in.get(s) else "",
                )
                for s in self.seats
            )
            steps.append(
                StepView(
                    f"street-{i + 1}",
                    str(st["name"]),
                    tuple(lines),
                    seats,
                    WASH_ASIDE if washed else "",
                    actions=tuple(actions),
                )
            )
        if self.h.get("sealed"):
            steps.append(self._declaration(put_in))
        return steps

    def _pass_line(self, p: Mapping[str, Any]) -> tuple[Part, ...]:
        """A pass in a pass street (SPEC 3.19): "Ann passes 9h to Bob for 25 and is dealt
        Qs." The face-up line above it says what each seat holds of the street."""
        parts = [
            Part(self.name(int(p["seat"])), strong=True),
            Part(" passes "),
            Part(card=card_view(p["card"])),
            Part(" to "),
            Part(self.name(int(p["to"])), strong=True),
            Part(f" for {chips(int(p['paid']))}"),
        ]
        if p["dealt"] is not None:
            parts += [Part(" and is dealt "), Part(card=card_view(p["dealt"]))]
        return (*parts, Part("."))

    def _wash_line(self, w: Mapping[str, Any]) -> tuple[Part, ...]:
        """A player's wash (SPEC 3.17): "Ann pays 50 and washes 8c face up, dealt 3c face up."
        A card washed face down is never named, nor the one dealt for it."""
        parts = [Part(self.name(int(w["seat"])), strong=True)]
        if w["kept"]:
            return (*parts, Part(" keeps its cards."))
        paid = int(w["paid"])
        pays = f" pays {chips(paid)} and" if paid else ""
        cloaked = [c for c in w["cards"] if c.get("cloaked")]
        if cloaked:
            # the cloak (SPEC 3.17): a face-up card washed, its replacement dealt face down
            card = Part(card=card_view(cloaked[0]["card"]))
            return (*parts, Part(f"{pays} cloaks "), card, Part(": dealt another face down."))
        flips = [c for c in w["cards"] if c.get("flipped")]
        if flips:
            # the flip (SPEC 3.17): a face-down card turned up, a face-up one washed, the
            # replacement dealt face down
            down, up = card_view(flips[0]["flipped"]), card_view(flips[0]["card"])
            return (
                *parts,
                Part(f"{pays} flips "),
                Part(card=down),
                Part(" face up, washes "),
                Part(card=up),
                Part(": dealt another face down."),
            )
        parts.append(Part(f"{pays} washes "))
        for j, c in enumerate(w["cards"]):
            parts.append(Part(" and " if j else ""))
            if c["face"] == "down":
                parts.append(Part("a card face down, dealt another face down"))
                continue
            parts += [Part(card=card_view(c["card"])), Part(" face up")]
            if c["dealt"] is not None:
                parts += [Part(", dealt "), Part(card=card_view(c["dealt"])), Part(" face up")]
        return (*parts, Part("."))

    def _declaration(self, put_in: dict[int, int]) -> StepView:
        """A split-pot game's declaration (SPEC 3.16): every player still in sealed high, low
        or pig, then all opened together; and the betting after it (the round no street
        deals)."""
        h = self.h
        declared = {int(d["seat"]): str(d["choice"]) for d in h["declared"]}
        lines: list[tuple[Part, ...]] = [
            (
                Part(
                    "Every player still in sealed its declaration, high, low or pig (both ways), "
                    "then all opened together: nobody saw another's before sealing its own."
                ),
            )
        ]
        for seat, choice in declared.items():
            said = "pig (both ways)" if choice == "pig" else choice
            lines.append((Part(self.name(seat), strong=True), Part(f" declares {said}.")))
        never = [self.name(int(x)) for x in h["sealed"] if int(x) not in declared]
        if never:
            lines.append((Part(f"{_and(never)} sealed but never opened, and was folded."),))
        dealt = {int(st["round"]) for st in self.streets if st["round"] is not None}
        after = [r for r in h["rounds"] if int(r["number"]) not in dealt]
        n = 1 + max((int(x["number"]) for x in h["rounds"]), default=0)
        actions: list[tuple[Part, ...]] = []
        note: Callable[[int], str] = functools.partial(self._folded_before, n)
        if after:
            n = int(after[0]["number"])
            actions, note = self._betting(after[0], lines, put_in, " opens")
        last = len(self.streets) - 1

        def noted(s: int) -> str:
            said = declared.get(s)
            choice = f"declares {'pig' if said == 'pig' else said}" if said else ""
            return "; ".join(x for x in (choice, note(s)) if x)

        seats = tuple(
            self._seat(
                s,
                self._live_cards(s, last, fresh=False),
                note=noted(s),
                out=self.folded_in.get(s, n + 1) <= n,
                figure=chips(put_in[s]) if put_in.get(s) else "",
                figure_label="bet so far" if put_in.get(s) else "",
            )
            for s in self.seats
        )
        return StepView(
            "declaration", "The declaration", tuple(lines), seats, actions=tuple(actions)
        )

    def _live_showdown(self) -> list[tuple[Part, ...]]:
        h = self.h
        lines: list[tuple[Part, ...]] = []
        forfeit = h.get("forfeit")
        if forfeit:
            silent = [self.name(int(x)) for x in forfeit["silent"]]
            lines.append(
                (
                    Part(
                        f"Forfeit: the deck could not deal on without {_and(silent)}, who left "
                        "the hand without releasing "
                        f"{'its key' if len(silent) == 1 else 'their keys'}. "
                        f"{_and(silent)} forfeited the {chips(int(forfeit['amount']))} put in, "
                        "shared by the players still in; everyone else took back what it put in."
                    ),
                )
            )
            for back in forfeit["refunds"]:
                lines.append(
                    (
                        Part(self.name(int(back["seat"])), strong=True),
                        Part(f" takes back {chips(int(back['amount']))}."),
                    )
                )
            return lines
        if self.showdown:
            lines.append(
                (Part("Showdown: every player still in shows the cards it held face down."),)
            )
            if h.get("board"):
                lines.append((Part("The board: "), *[Part(card=card_view(c)) for c in h["board"]]))
        for s in self.seats:
            if s in self.showdown:
                sh = self.showdown[s]
                lines.append(
                    (
                        Part(self.name(s), strong=True),
                        Part(" shows "),
                        *[Part(card=card_view(c)) for c in sh.get("shows", [])],
                        *(
                            [Part(", up "), *[Part(card=card_view(c)) for c in sh["up"]]]
                            if sh.get("up")
                            else []
                        ),
                        Part(f": {sh['hand']}"),
                    )
                )
        return lines

    def _final_cards(self, seat: int) -> list[CardView]:
        if not self.live:
            return self._layout(seat, LAYOUT_CARDS, fresh=False)
        if seat in self.showdown:
            return [card_view(c) for c in self.showdown[seat]["cards"]]
        return self._live_cards(seat, len(self.streets) - 1, fresh=False)

    def _result(self) -> StepView:
        """The showdown, the pots and what each player won or lost (or why the hand aborted)."""
        h = self.h
        lines: list[tuple[Part, ...]] = []
        if h["aborted"]:
            blamed = _and([self.name(int(s)) for s in h.get("blamed", [])]) or "nobody"
            if h["trading"] is not None:
                lines.append(
                    (
                        Part(self.name(self.dealer), strong=True),
                        Part(
                            f" announced {h['deal_size']} cards each and {_trading(h['trading'])}."
                        ),
                    )
                )
            lines.append(
                (
                    Part(
                        f"The hand was aborted before its deal was complete: {h.get('reason', '')}."
                    ),
                )
            )
            paid = [self.name(x) for x, n in self.net.items() if n < 0]
            lines.append(
                (
                    Part(
                        f"Blamed: {blamed}. No card was shown, no pot was played for, and "
                        f"{_and(paid)} paid {'its ante' if len(paid) == 1 else 'their antes'} to "
                        "the others: no free look at the deal (SPEC 3.15)."
                        if paid
                        else f"Blamed: {blamed}. No card was dealt or shown, no pot was played "
                        "for, and every stack went back to what it was at the start of the hand."
                    ),
                )
            )
        elif self.live:
            lines += self._live_showdown()
            for back in [] if h.get("forfeit") else h["returned"]:
                lines.append(
                    (
                        Part(f"Nobody called the last bet: {chips(back['amount'])} went back to "),
                        Part(self.name(int(back["seat"])), strong=True),
                        Part("."),
                    )
                )
            if not self.pots:
                lines.append((Part("Nothing was in the pot."),))
        else:
            if self.showdown:
                lines.append(
                    (Part("Showdown: every player still in shows the five cards it laid out."),)
                )
            for s in self.seats:
                if s in self.showdown:
                    lines.append(
                        (
                            Part(self.name(s), strong=True),
                            Part(" "),
                            *[Part(card=card_view(c)) for c in self.showdown[s]["cards"]],
                            Part(f" {self.showdown[s]['hand']}"),
                        )
                    )
            for back in h["returned"]:
                lines.append(
                    (
                        Part(f"Nobody called the last bet: {chips(back['amount'])} went back to "),
                        Part(self.name(int(back["seat"])), strong=True),
                        Part("."),
                    )
                )
            if not self.pots:
                lines.append((Part("Nothing was in the pot."),))
        winners = {w for pv in self.pots for w, _, _ in pv.winners}
        seats = tuple(
            self._seat(
                s,
                [] if h["aborted"] else self._final_cards(s),
                note=self._outcome(s),
                out=s in self.folded_in,
                winner=s in winners,
                figure=""
                if h["aborted"] and not any(self.net.values())
                else signed_chips(self.net.get(s, 0)),
                figure_label=f"stack now {chips(self.after[s])}" if s in self.after else "",
            )
            for s in self.seats
        )
        title = "Showdown and pots" if self.showdown else "Who won"
        aside = (
            f"{h['hidden_cards']} of the {DECK} cards were never turned face up and stay secret: "
            "the cards players kept face down, the discards and the undealt rest of the deck."
        )
        if self.live:
            aside = (
                f"{h['hidden_cards']} of the {DECK} cards were never shown face up and stay "
                "secret: the cards folded face down, the burned cards and the undealt rest of the "
                "deck."
            )
        if h["aborted"]:
            aside = (
                f"No card was turned face up: {h['hidden_cards']} of the {DECK} cards stay secret."
            )
        return StepView("result", "Aborted" if h["aborted"] else title, tuple(lines), seats, aside)

    def _no_pot(self) -> str:
        """The headline of a hand in which nobody won a chip."""
        if not self.h["returned"]:
            return "Nothing was in the pot"
        back = self.h["returned"][0]
        who = self.name(int(back["seat"]))
        return f"Nobody called: {who}'s bet of {chips(back['amount'])} went back; no pot"

    def _won(self, seat: int) -> int:
        return sum(c for pv in self.pots for w, _, c in pv.winners if w == seat)

    def _outcome(self, seat: int) -> str:
        """How the hand ended for `seat`, in a few words."""
        if self.h["aborted"]:
            return ""
        won = self._won(seat)
        if seat in self.showdown:
            hand = str(self.showdown[seat]["hand"])
            return f"{hand}: wins {chips(won)}" if won else hand
        if won:
            return f"wins {chips(won)}"
        if seat in self.folded_in:
            r = self.folded_in[seat]
            return f"folded in round {r}" if r else "folded"
        return ""


# --- the chart -----------------------------------------------------------------------------


def _nice_ceiling(value: int) -> tuple[int, int]:
    """A round top for the y axis at or above `value`, and the step of its 2 to 5 grid lines."""
    magnitude = 1
    while True:
        for factor in (1, 2, 5):
            step = magnitude * factor
            lines = max(1, -(-value // step))
            if lines <= 5:
                return lines * step, step
        magnitude *= 10


def stack_points(report: Mapping[str, Any]) -> dict[int, list[list[tuple[int, int]]]]:
    """Every seat's stack hand by hand: per seat, runs of (hand, stack) with no gap.

    A run starts at the hand before the first one the seat played (its stack then is its stack
    after that hand less what it won or lost in it); a seat that sits a hand out starts a new run.
    """
    runs: dict[int, list[list[tuple[int, int]]]] = {}
    last: dict[int, int] = {}
    for h in report["hands"]:
        number = int(h["number"])
        net = {int(k): int(v) for k, v in h["chips"].items()}
        for key, stack in h["stacks"].items():
            seat = int(key)
            if last.get(seat) != number - 1 or seat not in runs:
                runs.setdefault(seat, []).append([(number - 1, int(stack) - net.get(seat, 0))])
            runs[seat][-1].append((number, int(stack)))
            last[seat] = number
    return runs


def _chart(report: Mapping[str, Any], name: _Names) -> Chart | None:
    runs = stack_points(report)
    if not runs:
        return None
    width, height, left, right, top, bottom = 880, 340, 64, 20, 16, 40
    x_max = max(h for r in runs.values() for run in r for h, _ in run) or 1
    x_min = min(h for r in runs.values() for run in r for h, _ in run)
    high = max(s for r in runs.values() for run in r for _, s in run)
    y_max, y_step = _nice_ceiling(high)
    plot_w = width - left - right
    plot_h = height - top - bottom
    span = max(1, x_max - x_min)

    def x(hand: int) -> float:
        return round(left + plot_w * (hand - x_min) / span, 2)

    def y(stack: int) -> float:
        return round(top + plot_h * (1 - stack / y_max), 2)

    series = tuple(
        Series(
            seat,
            name(seat),
            _color(seat),
            tuple(
                tuple(Point(h, s, x(h), y(s), i == 0) for i, (h, s) in enumerate(run))
                for run in runs[seat]
            ),
        )
        for seat in sorted(runs)
    )
    y_ticks = tuple(Tick(v, y(v), chips(v)) for v in range(0, y_max + 1, y_step))
    every = max(1, -(-span // 20))
    x_ticks = tuple(
        Tick(h, x(h), "start" if h == 0 else str(h))
        for h in range(x_min, x_max + 1)
        if (h - x_min) % every == 0 or h == x_max
    )
    return Chart(width, height, left, top, right, bottom, y_max, x_max, series, y_ticks, x_ticks)


# --- the page ------------------------------------------------------------------------------


TRADING_TITLE = WEEPING_WILLOW.title
"""The game whose hands trade (its trading step)."""


def game_titles(report: Mapping[str, Any]) -> list[str]:
    """The titles of the games the transcript's hands announced, in the order first played;
    before any announcement, those the table may play (SPEC 3.1, 3.13)."""
    played = [str(h["game"]) for h in report["hands"] if h.get("game")]
    config = report.get("config") or {}
    names = list(dict.fromkeys(played)) or [str(g) for g in config.get("games", ())]
    return [CATALOGUE[n].title if n in CATALOGUE else n for n in names]


def _checks(report: Mapping[str, Any], proofs: int) -> list[Check]:
    verdict = report["verdict"]
    error = report["error"] or {}
    entries = int(report["entries"])
    games = game_titles(report)
    line = error.get("line")
    code = str(error.get("reason", "")).split(":", 1)[0]
    failed = _FAILED_CHECK.get(code, "chain") if verdict == "invalid" else None
    before = f"lines 1 to {line - 1}" if isinstance(line, int) and line > 1 else "no line"
    descriptions = {
        "signatures": (
            "Signatures",
            "Each entry is signed by the player who made it and by the dealer who put it in "
            "order: nobody acted in another's name.",
        ),
        "chain": (
            "Hash chain",
            "Each entry holds the hash of the one before it: nothing was changed, dropped, added "
            "or moved.",
        ),
        "proofs": (
            "Proofs",
            "Every shuffle, deal, trade and card turned is proved fair, without showing any card "
            "that stays secret.",
        ),
        "rules": (
            "Rules",
            f"Every deal, {'trade, ' if TRADING_TITLE in games else ''}bet, pot and payout "
            f"follows the rules of {_and(games) or 'the game announced'}; every chip is "
            "accounted for.",
        ),
    }
    out = []
    for key, (title, detail) in descriptions.items():
        if verdict in ("unreadable", "bug"):
            state, summary = "unknown", "not checked"
        elif verdict == "invalid":
            if key == failed:
                state, summary = "failed", f"fails at line {line}"
            else:
                state, summary = "ok", f"holds for {before}"
        else:
            state = "ok"
            summary = f"{chips(entries)} entries checked" if key != "proofs" else ""
            if key == "proofs":
                summary = f"{chips(proofs)} proofs checked"
            elif key == "rules":
                summary = f"{_plural(len(report['hands']), 'hand')} replayed"
        out.append(Check(title, state, summary, detail))
    if verdict == "valid":
        out.append(
            Check(
                "Complete",
                "ok",
                "nothing missing",
                "Every hand ended and was signed by all its players, and so was the game's end.",
            )
        )
    elif verdict == "not-closed":
        out.append(
            Check(
                "Complete",
                "open",
                "not closed",
                "The game was interrupted, cut off, or its end is not signed by everyone: what "
                "is missing is said above.",
            )
        )
    else:
        out.append(Check("Complete", "unknown", "not known", "Nothing after the bad line counts."))
    return out


def _verdict(report: Mapping[str, Any], name: _Names) -> tuple[str, list[str]]:
    verdict = report["verdict"]
    error = report["error"] or {}
    entries = int(report["entries"])
    through = int(report["complete_hands"])
    complete = (
        "No hand is complete."
        if not through
        else ("Hand 1 is complete." if through == 1 else f"Hands 1 to {through} are complete.")
    )
    if verdict == "valid":
        return "Valid and complete", [
            "Every signature, hash link, rule and proof checks. Every hand ended and was signed "
            "by all its players, and so was the game's end.",
            "Every figure on this page is the verifier's own.",
        ]
    reason = str(error.get("reason", ""))
    if verdict == "not-closed":
        what = reason.removeprefix("not closed: ")
        return "Not closed", [
            f"Every entry read checks ({_plural(entries, 'entry', 'entries')}), but the game is "
            "not complete.",
            what[:1].upper() + what[1:] + ".",
        ]
    if verdict == "unreadable":
        line = error.get("line")
        where = f" at line {line}" if line and entries else ""
        return f"Unreadable{where}", [f"This is not a transcript that can be read: {reason}."]
    if verdict == "bug":
        return "No verdict", [
            "willow failed on this transcript: this is a bug in willow, not in the transcript.",
            reason,
        ]
    kind = error.get("kind")
    what = f"The {kind} entry" if kind else "The entry"
    author = error.get("author")
    if author is None:
        by = f"{what} names no author that can be read."
    elif error.get("author_signed"):
        by = f"{what} is by {name(int(author))}, who signed it."
    else:
        by = (
            f"{what} claims to be by {name(int(author))}; not proven, since it failed before its "
            "signature was found good."
        )
    return f"Invalid at line {error.get('line')}", [
        f"Line {error.get('line')}: {reason}",
        by,
        f"Every line before it checks ({_plural(entries, 'entry', 'entries')}). {complete} "
        "This page shows the game only as far as it checks; nothing after the bad line counts.",
    ]


def page(report: Mapping[str, Any]) -> Page:
    """What the page shows, from the `--json` object of one transcript."""
    name = _Names(report["players"])
    config = report.get("config")
    hands = [_Hand(h, name, config).view() for h in report["hands"]]
    headline, lines = _verdict(report, name)
    totals: dict[str, int] = {}
    for h in report["hands"]:
        for kind, n in h["proofs"].items():
            totals[kind] = totals.get(kind, 0) + int(n)
    proof_totals = [
        (PROOF_WORDS[k][0], totals[k], PROOF_WORDS[k][1]) for k in PROOF_WORDS if k in totals
    ]
    proof_totals += [(k, n, "") for k, n in sorted(totals.items()) if k not in PROOF_WORDS]
    won: dict[int, int] = {}
    biggest: dict[int, int] = {}
    for h in report["hands"]:
        for seat in {int(w) for p in h["pots"] for w in p["winners"]}:
            won[seat] = won.get(seat, 0) + 1
        for p in h["pots"]:
            for w, share in zip(p["winners"], p["shares"], strict=True):
                biggest[int(w)] = max(biggest.get(int(w), 0), int(share))
    rows = sorted(report["stacks"], key=lambda st: (-int(st["net"]), int(st["seat"])))
    standings = []
    for place, st in enumerate(rows, 1):
        seat = int(st["seat"])
        note = "left the table" if st["left"] else ("" if st["final"] else "out of chips")
        standings.append(
            Standing(
                place,
                seat,
                name.named(str(st["name"]), seat),
                _color(seat),
                int(st["bought_in"]),
                int(st["final"]),
                int(st["net"]),
                note,
                won.get(seat, 0),
                biggest.get(seat, 0),
            )
        )
    valid = report["verdict"] == "valid"
    night = ""
    if standings and report["hands"]:
        top = standings[0]
        leaders = [s for s in standings if s.net == top.net]
        played = _plural(len(report["hands"]), "hand")
        if top.net <= 0:
            night = f"Nobody came out ahead after {played}."
        elif len(leaders) > 1:
            who = _and([s.name for s in leaders])
            night = f"{who} came out ahead, {signed_chips(top.net)} each, after {played}."
        else:
            verb = "won the night" if valid else "is ahead so far"
            night = (
                f"{top.name} {verb}: {chips(top.bought_in)} → {chips(top.final)} "
                f"({signed_chips(top.net)}) over {played}."
            )
    pots = sorted((hv for hv in hands if hv.pot > 0), key=lambda hv: (-hv.pot, hv.number))[:3]
    big_pots = []
    for hv in pots:
        winners = list(dict.fromkeys(w for pv in hv.pots for _, w, _ in pv.winners))
        big_pots.append(BigPot(hv.number, hv.pot, _and(winners), hv.pots[0].how))
    rules: list[str] = []
    titles = game_titles(report)
    if titles:
        rules.append(f"{'Games' if len(titles) > 1 else 'Game'}: {_and(titles)}.")
    if config:
        rules.append(_structure(config) + ".")
        if TRADING_TITLE in titles:
            rules.append(
                f"Each hand of {TRADING_TITLE} every player sets aside up to "
                f"{_plural(config['trade_tokens'], 'trade token')} of "
                f"{config['token_value']} chips; each trade costs both sides one."
            )
    chips_line = ""
    c = report.get("chips")
    if c:
        carried = int(c.get("carried", 0))
        where = f"{chips(c['at_table'])} at the table" + (
            f" and {chips(c['left'])} with players who left" if c["left"] else ""
        )
        if carried:
            where += f" and {chips(carried)} in a pot nobody has won yet, carried over"
        balanced = c["at_table"] + c["left"] + carried == c["bought_in"]
        sums = "every chip accounted for" if balanced else "the chips do not add up"
        chips_line = f"{chips(c['bought_in'])} chips bought in; {where}: {sums}."
    shared = report.get("carry_shared")
    if shared:
        shares = ", ".join(
            f"{name(int(x['seat']))} {chips(int(x['amount']))}" for x in shared["shares"]
        )
        chips_line += (
            f" The {chips(int(shared['amount']))} chips of hand {shared['hand']}'s pot, which "
            f"nobody won, were shared out at the game's end: {shares}."
        )
    players = [(seat, who, _color(seat)) for seat, who in name.everyone()]
    table = report["table"]
    return Page(
        title=f"{table} — willow verify" if table else "willow verify",
        games=" · ".join(game_titles(report)) or "A game",
        file=str(report["file"]),
        verdict=str(report["verdict"]),
        headline=headline,
        verdict_lines=lines,
        checks=_checks(report, sum(totals.values())),
        table=table,
        rules=rules,
        players=players,
        standings=standings,
        standings_title="Final standings" if valid else "Standings as far as the transcript checks",
        night=night,
        chart=_chart(report, name),
        big_pots=big_pots,
        showdowns=[sh for hv in hands for sh in hv.showdown],
        hands=hands,
        notes=[str(n) for n in report["notes"]],
        entries=int(report["entries"]),
        proof_totals=proof_totals,
        complete_hands=int(report["complete_hands"]),
        chips=chips_line,
        split=any("sides" in h for h in report["hands"]),
    )


# --- rendering -----------------------------------------------------------------------------


@cache
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("p2pwillow.verify", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["chips"] = chips
    env.filters["signed"] = signed_chips
    return env


def _asset(name: str) -> str:
    return (resources.files("p2pwillow.verify") / "templates" / name).read_text("utf-8")


def _csp_hash(source: str) -> str:
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return "sha256-" + base64.b64encode(digest).decode("ascii")


def report_html(report: Mapping[str, Any]) -> str:
    """The page for one transcript's `--json` object (`report_object` or `bug_object`)."""
    script = _asset("report.js")
    style = _asset("report.css")
    return (
        _environment()
        .get_template("report.html.j2")
        .render(
            page=page(report),
            # The page's own files, not data from the transcript: included as written.
            script=Markup(script),
            style=Markup(style),
            script_hash=_csp_hash(script),
            series_path=Series.path,
        )
    )


__all__ = ["COLORS", "LAYOUT_CARDS", "PROOF_WORDS", "page", "report_html", "stack_points"]
