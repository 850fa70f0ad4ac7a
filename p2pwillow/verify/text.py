"""The report a player reads: each hand as a hand history, the final stacks, then the verdict.

Pure; no I/O: every function returns text (SPEC 7.6). Players are named by name; a seat number
is added only where two players share a name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from p2pwillow.cards import Card
from p2pwillow.games import CATALOGUE
from p2pwillow.rules import Announcement, BettingStructure, Phase, TableConfig
from p2pwillow.session import ClockNoted, Wait
from p2pwillow.session.claims import claim_text
from p2pwillow.verify.history import (
    BetAction,
    BettingRound,
    Forfeit,
    HandHistory,
    PotResult,
    ShowdownHand,
    StreetDeal,
    formation_of,
)
from p2pwillow.verify.outcome import Verdict, VerifyReport
from p2pwillow.verify.seat_log import (
    DECLINED,
    REPLACED,
    SIT_IN,
    SIT_OUT,
    TIMEOUT,
    WITHDRAWN,
    SeatEvent,
)
from p2pwillow.view import board_size

# Proof kinds (SPEC 7.6) in the order a hand makes them, with their names in plain words.
PROOF_NAMES: dict[str, tuple[str, str]] = {
    "schnorr": ("hand key", "hand keys"),
    "shuffle": ("shuffle", "shuffles"),
    "dleq-batch": ("deal share", "deal shares"),
    "reencryption": ("traded card", "traded cards"),
    "dleq": ("reveal", "reveals"),
}

# The DLEQ batches of a live-deck game (SPEC 5.12-5.16), named by what they prove.
LIVE_PROOF_NAMES: dict[str, tuple[str, str]] = {
    "street-shares": ("street share", "street shares"),
    "fold-release": ("fold release", "fold releases"),
    "show": ("show", "shows"),
    "discard": ("discarded card", "discarded cards"),
}

LIVE_LEGEND = """\
Games dealt from the live deck (stud, hold'em, Omaha)
  street shares (dleq-batch): at each street every player still holding its key opens its
    part of the cards dealt: each part is proved to come from that player's hand key, so
    every card dealt, down, up or to the board, is the next card of the shuffled deck.
  fold releases (dleq-batch): a player who folds releases its key from the cards still in
    the deck, proved to be its key, so the deck deals on without it.
  shows (dleq-batch): at the showdown each player still in opens the cards it held face
    down, proved to be the very cards it was dealt.
  discarded cards (reencryption): in a draw, and face down in a wash, each card a player
    throws away is proved to be one of its own, moved to the muck under the table's key
    without being opened.
  A player who leaves the hand without releasing its key (its clock ran out) stops the deck:
    the hand ends with the forfeit settlement, in which that player's chips in the pot go to
    the players still in and everyone else takes back what it put in.
  What stays secret: the cards folded face down, the burned cards and the undealt rest of
    the deck."""

SPLIT_LEGEND = """\
Split-pot games (high-low: every player still in declares high, low or pig)
  declarations: each player seals its declaration first, as a commitment (a hash of its
    choice and a secret it alone holds), and opens it only once every player still in has
    sealed; each opening is checked against its seal, so nobody could see another's choice
    before making its own, nor change its own after.
  Each pot is split between the best high hand and the best low among those who declared
    each side; a pig must win or tie both with one hand, or wins nothing of the pot. A pot
    nobody wins carries over to the next hand's main pot; at the game's end it is shared
    out among the players of the last hand."""

LEGEND = """\
How to read the checks
  Every entry is signed by the player who made it and countersigned by the dealer who put it
  in order, and holds the hash of the entry before it: no entry can be changed, dropped,
  added or moved without the check failing at that line. Only a player's own signature
  moves its chips.
  hand keys (schnorr): each player proves it knows the secret of the key it adds to the
    hand's lock on the deck.
  shuffles: every shuffle of the deck, and every reshuffle of a hand after a trade or to lay
    it out, is proved to hold the same cards, re-locked and reordered: none added, dropped or
    changed.
  deal shares (dleq-batch): each player's part in opening a dealt card for its owner alone is
    proved to come from that player's hand key, so every card dealt is a card of the deck.
  traded cards (reencryption): each card handed over in a blind trade is proved to be a card
    the giver held, unchanged.
  reveals (dleq): each card turned face up is proved to be the next card of the layout its
    owner fixed face down.
  A pot is contested by the players still in who put in its full amount; a side pot is only
    for those who matched it.
What stays secret
  The cards never turned: discards, the face-down layout cards of players who folded, the
  undealt rest of the deck, and which card went where in each blind trade. The proofs show
  the game was fair without showing these cards to anyone, this check included."""

_STEPS = {
    "hand_key": "hand key",
    "deck_shuffle": "deck shuffle",
    "deal_shares": "deal shares",
    "hand_shuffle": "hand shuffle",
    "trade_give": "cards for its trade",
    "layout": "layout",
    "reveal": "reveal",
    "announce": "announcement of the deal",
    "decision": "decision",
    "entry": "next entry",
}

_VERBS = {"check": "checks", "fold": "folds", "bet": "bets", "call": "calls", "raise": "raises"}


def _and(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


# --- the header --------------------------------------------------------------------------------


def _structure(c: TableConfig) -> str:
    if c.structure is BettingStructure.SPREAD_LIMIT:
        text = f"spread limit, bets {c.min_bet} to {c.max_bet}"
    elif c.structure is BettingStructure.FIXED_LIMIT:
        text = f"fixed limit {c.small_bet}/{c.big_bet}"
    elif c.structure is BettingStructure.POT_LIMIT:
        return f"pot limit, smallest bet {c.min_bet}"
    else:
        return f"no limit, smallest bet {c.min_bet}"
    return f"{text}, at most {_plural(c.max_raises, 'raise')} a round"


def _header(report: VerifyReport) -> list[str]:
    out = [f'Table "{report.table}" ({report.source}): {_plural(len(report.players), "player")}']
    c = report.config
    if c is not None and _all_live(c.games):
        out.append(f"  {_structure(c)}; games dealt from the live deck: {_titles(c.games)}")
    elif c is not None:
        tokens = f"{_plural(c.trade_tokens, 'trade token')} of {c.token_value} chips each"
        out.append(f"  {_structure(c)}; {tokens}")
    seated = [f"{report.name(s.seat)} {s.bought_in}" for s in report.stacks]
    if seated:
        out.append(f"  Sat down with: {', '.join(seated)}")
    return out


def _all_live(games: Sequence[str]) -> bool:
    """Every game of the table is dealt from the live deck: none has trade tokens."""
    specs = [CATALOGUE.get(g) for g in games]
    return bool(specs) and all(g is not None and formation_of(g) is not None for g in specs)


def _titles(games: Sequence[str]) -> str:
    return _and([g.title if (g := CATALOGUE.get(name)) else name for name in games])


# --- one hand ----------------------------------------------------------------------------------


def _terms(a: Announcement) -> str:
    """What the announcement says beyond the deal ("; trading in turn until …"), or ""."""
    said = list(
        dict.fromkeys(
            w
            for step in a.game.script
            if step.PHASE is not Phase.DEAL and (w := step.words(a.options))
        )
    )
    return "; " + ", ".join(said) if said else ""


def _action(a: BetAction, name: Callable[[int], str]) -> str:
    who = name(a.seat)
    clock = " (the clock ran out)" if a.timed_out else ""
    if a.action == "all-in":
        text = f"{who} goes all in with {a.chips}" + (f", to {a.to}" if a.to else "")
    elif a.action == "raise":
        text = f"{who} raises to {a.to}"
    elif a.action in ("pot-match", "pot-fold"):
        # SPEC 3.18: its show put it to match the pot or fold
        answer = f"matched the pot ({a.chips})" if a.action == "pot-match" else "folded"
        text = f"{who} showed after the declaration: {answer}"
    elif a.action in ("bet", "call"):
        text = f"{who} {_VERBS[a.action]} {a.chips}"
    else:
        text = f"{who} {_VERBS[a.action]}"
    return text + clock


def _round(r: BettingRound, name: Callable[[int], str], card: Callable[[Card], str]) -> str:
    turned = ", ".join(f"{name(s)} {card(c)}" for s, c in r.turned)
    if r.opener is None:
        betting = "no betting (fewer than two players can bet)"
    elif not r.actions:
        betting = "no action"
    else:
        betting = "; ".join(_action(a, name) for a in r.actions)
    return f"  Round {r.number}: {turned or 'no card turned'}. {betting}."


def _pot(
    p: PotResult, index: int, count: int, name: Callable[[int], str], hands: dict[int, str]
) -> str:
    if count == 1:
        label = f"the pot of {p.amount}"
    elif index == 0:
        label = f"the main pot of {p.amount}"
    else:
        label = f"side pot {index} of {p.amount}"
    contested = _and([name(s) for s in p.contested])
    if len(p.winners) == 1:
        w = p.winners[0]
        how = f" with {hands[w]}" if w in hands else ""
        if len(p.contested) == 1:
            return f"  {name(w)} wins {label} (everyone else folded)"
        return f"  {name(w)} wins {label}{how} (contested by {contested})"
    shares = ", ".join(f"{name(s)} {c}" for s, c in zip(p.winners, p.shares, strict=True))
    how = f" with {hands[p.winners[0]]}" if p.winners[0] in hands else ""
    return f"  {_and([name(w) for w in p.winners])} split {label}{how}: {shares}"


def split_pot_text(
    p: PotResult,
    index: int,
    count: int,
    name: Callable[[int], str],
    sides: dict[int, tuple[str, str]],
) -> str:
    """A pot of a split-pot game as the declarations split it (SPEC 3.16): each side's winners
    with their chips and hand, the pigs that failed, a pot nobody won carried over."""
    if count == 1:
        label = f"the pot of {p.amount}"
    elif index == 0:
        label = f"the main pot of {p.amount}"
    else:
        label = f"side pot {index} of {p.amount}"
    contested = _and([name(s) for s in p.contested])
    pigs = ""
    if p.pigs_failed:
        who = _and([name(s) for s in p.pigs_failed])
        pigs = f"{who} went pig and did not win both ways"
    if p.carried:
        said = f"  Nobody wins {label} (contested by {contested}): it carries over to the next hand"
        return f"{said}; {pigs}" if pigs else said
    parts = [pigs] if pigs else []
    won = dict(zip(p.winners, p.shares, strict=True))
    for side, winners, half, which in (
        ("high", p.high, p.halves[0], 0),
        ("low", p.low, p.halves[1], 1),
    ):
        if not winners:
            parts.append(f"nobody wins {side}")
            continue
        worth = sides.get(winners[0])
        how = f" with {worth[which]}" if worth is not None else ""
        if len(winners) == 1:
            parts.append(f"{side}: {name(winners[0])} wins {half}{how}")
        else:
            parts.append(f"{side}: {_and([name(w) for w in winners])} split {half}{how}")
    shares = ", ".join(f"{name(w)} {won[w]}" for w in p.winners)
    head = label[:1].upper() + label[1:]
    return f"  {head} (contested by {contested}): {'; '.join(parts)} ({shares})"


CHOICE_WORDS = {"high": "high", "low": "low", "pig": "pig (both ways)"}
"""A declaration as the report says it."""


def declaration_text(h: HandHistory, name: Callable[[int], str]) -> str:
    """A split-pot hand's declarations (SPEC 3.16), as they opened, and any seal never
    opened."""
    opened = dict(h.declared)
    said = ", ".join(f"{name(s)} {CHOICE_WORDS.get(c, c)}" for s, c in h.declared)
    text = f"Declarations, sealed then opened together: {said or 'none opened'}"
    never = [name(s) for s in h.sealed if s not in opened]
    if never:
        text += f"; {_and(never)} sealed but never opened"
    return text


def _betting(r: BettingRound, name: Callable[[int], str]) -> str:
    if r.opener is None:
        return "no betting (fewer than two players can bet)"
    if not r.actions:
        return "no action"
    return "; ".join(_action(a, name) for a in r.actions)


def _cards(cards: Sequence[Card], card: Callable[[Card], str]) -> str:
    return " ".join(card(c) for c in cards)


def street_text(
    st: StreetDeal, name: Callable[[int], str], card: Callable[[Card], str], board_game: bool
) -> str:
    """What a deal step of a live-deck game dealt: "Flop: 7c 8d 9s", "Fourth street: Ann 9h,
    Bob Kc", "Third street: 2 down and 1 up to each player: Ann 9h, Bob Kc"."""
    if st.washed:
        return f"{st.name}: {wash_text(st, name, card)}"
    if st.drawn:
        draws = ", ".join(
            f"{name(seat)} " + (f"draws {n}" if n else "stands pat") for seat, n in st.drawn
        )
        return f"{st.name}: {draws}"
    up = max((len(cards) for _, cards in st.up), default=0)
    said = []
    if st.down and up:
        said.append(f"{st.down} down and {up} up to each player")
    elif st.down:
        said.append(f"{_plural(st.down, 'card')} down to each player")
    ups = ", ".join(f"{name(seat)} {_cards(cards, card)}" for seat, cards in st.up)
    text = (": ".join(said) + (": " if said else "") + ups) if ups else "; ".join(said)
    if st.board:
        cards = _cards(st.board, card)
        if board_game:
            board = f"{cards} (the board: {_cards(st.board_before + st.board, card)})"
            cards = board if st.board_before else cards
        else:
            cards = f"{cards} to the board, for everyone (too few cards for one each)"
        text = f"{text}; {cards}" if text else cards
    if st.passed:
        text = f"{text}; {pass_text(st, name, card)}"
    return f"{st.name}: {text or 'each player is dealt face down as many cards as it discarded'}"


def pass_text(st: StreetDeal, name: Callable[[int], str], card: Callable[[Card], str]) -> str:
    """A pass street's passes (SPEC 3.19): "Ann passes 9h to Bob for 25 and is dealt Qs"."""
    said = []
    for p in st.passed:
        dealt = f" and is dealt {card(p.dealt)}" if p.dealt is not None else ""
        said.append(f"{name(p.seat)} passes {card(p.card)} to {name(p.to)} for {p.paid}{dealt}")
    return "; ".join(said)


def wash_text(st: StreetDeal, name: Callable[[int], str], card: Callable[[Card], str]) -> str:
    """Each player's wash (SPEC 3.17): "Ann pays 50 and washes 8c face up, dealt 3c face up;
    Bob pays 100 and washes a card face down; Cy keeps its cards; Di pays 200 and cloaks 9h:
    dealt another face down; Ed pays 50 and flips 7d face up, washes Kc: dealt another face
    down"."""
    said = []
    for w in st.washed:
        pays = f" pays {w.paid} and" if w.paid else ""  # a free wash (Car Wash)
        if w.kept:
            said.append(f"{name(w.seat)} keeps its cards")
            continue
        cloaked = [c.card for c in w.cards if c.cloaked and c.card is not None]
        if cloaked:
            # a cloak is the player's one card at that wash (SPEC 3.17): no other card with it
            said.append(f"{name(w.seat)}{pays} cloaks {card(cloaked[0])}: dealt another face down")
            continue
        flips = [c for c in w.cards if c.flipped is not None and c.card is not None]
        if flips:
            # a flip is the player's one card at that wash too (SPEC 3.17)
            up, down = flips[0].card, flips[0].flipped
            assert up is not None and down is not None
            said.append(
                f"{name(w.seat)}{pays} flips {card(down)} face up, washes {card(up)}: "
                "dealt another face down"
            )
            continue
        cards = []
        for c in w.cards:
            if c.card is None:
                cards.append("a card face down")
                continue
            then = f", dealt {card(c.dealt)} face up" if c.dealt is not None else ""
            cards.append(f"{card(c.card)} face up{then}")
        said.append(f"{name(w.seat)}{pays} washes {' and '.join(cards)}")
    return "; ".join(said)


def _has_board(h: HandHistory) -> bool:
    """The hand's game deals a board (hold'em, Omaha, Spit's community cards), not only a
    stud's last card to everyone when the deck runs short (SPEC 3.15)."""
    return h.announcement is not None and board_size(h.announcement.game) > 0


def _live_rounds(
    h: HandHistory, name: Callable[[int], str], card: Callable[[Card], str]
) -> list[str]:
    """A live-deck hand street by street: what each deal step dealt, then its betting."""
    board_game = any(st.board for st in h.streets) and _has_board(h)
    rounds = {r.number: r for r in h.rounds}
    # a split-pot game's declaration comes before the round of betting that follows it
    declared: int | None = None
    if h.declared_after is not None and (h.declared or h.sealed):
        declared = h.declared_after
    out = []

    def declaration_before(number: int | None) -> None:
        nonlocal declared
        if declared is not None and (number is None or number >= declared):
            out.append(f"  {declaration_text(h, name)}.")
            declared = None

    for st in h.streets:
        line = f"  {street_text(st, name, card, board_game)}."
        r = rounds.pop(st.round, None) if st.round is not None else None
        declaration_before(None if r is None else r.number)
        out.append(line if r is None else f"{line} {_betting(r, name)}.")
    for r in rounds.values():
        declaration_before(r.number)
        out.append(f"  Round {r.number}: {_betting(r, name)}.")
    declaration_before(None)
    return out


def _live_showdown(
    h: HandHistory, name: Callable[[int], str], card: Callable[[Card], str]
) -> list[str]:
    """Each player still in shows its cards; the hand they make by the game's formation."""
    out = ["  Showdown:"]
    board_game = bool(h.board) and _has_board(h)
    if board_game:
        out[0] = f"  Showdown, the board {_cards(h.board, card)}:"
    width = max(len(name(sh.seat)) for sh in h.showdown)

    def cards(sh: ShowdownHand) -> str:
        shows = _cards(sh.shows, card) or "nothing"
        return f"shows {shows}" + (f", up {_cards(sh.up, card)}" if sh.up else "")

    texts = {sh.seat: cards(sh) for sh in h.showdown}
    wide = max(len(t) for t in texts.values())
    for sh in h.showdown:
        out.append(f"    {name(sh.seat):<{width}}  {texts[sh.seat]:<{wide}}  {sh.value}")
    return out


def forfeit_text(f: Forfeit, name: Callable[[int], str]) -> str:
    """The forfeit settlement (SPEC 3.15) in plain words."""
    who = _and([name(x) for x in f.silent])
    one = len(f.silent) == 1
    out = (
        f"Forfeit: the deck cannot deal on without {who}, who left the hand without releasing "
        f"{'its key' if one else 'their keys'}, so the hand ends here. "
    )
    if f.amount:
        shares = ", ".join(f"{name(x)} {n}" for x, n in zip(f.shared_by, f.shares, strict=True))
        out += (
            f"{who} {'forfeits' if one else 'forfeit'} the {f.amount} {'it' if one else 'they'} "
            f"put in, shared by the players still in: {shares}"
        )
    else:
        out += f"{who} had put nothing in"
    if f.refunds:
        back = ", ".join(f"{name(x)} {n}" for x, n in f.refunds)
        out += f"; everyone else takes back what they put in: {back}"
    return out


def _proofs(proofs: Sequence[tuple[str, int]]) -> str:
    counts = dict(proofs)
    names = {**PROOF_NAMES, **LIVE_PROOF_NAMES}
    parts = [_plural(counts.pop(kind), *names[kind]) for kind in names if kind in counts]
    parts += [f"{n} {kind}" for kind, n in sorted(counts.items())]
    return ", ".join(parts) or "none"


def hand_text(h: HandHistory, name: Callable[[int], str], card: Callable[[Card], str]) -> list[str]:
    """One hand as a hand history."""
    s = h.summary
    dealer = name(s.dealer)
    if s.deal_size is None or h.announcement is None:
        out = [f"Hand {s.number}: {dealer} deals; players {_and([name(x) for x in s.seats])}"]
    elif h.live:
        out = [
            f"Hand {s.number}: {dealer} deals {h.announcement.game.title} to "
            f"{_and([name(x) for x in s.seats])}{_terms(h.announcement)}"
        ]
    else:
        out = [
            f"Hand {s.number}: {dealer} deals {h.announcement.game.title}, {s.deal_size} cards "
            f"each to {_and([name(x) for x in s.seats])}{_terms(h.announcement)}"
        ]
    if s.carried_in:
        out.append(
            f"  Carried in: {s.carried_in} chips of the last hand's pot, which nobody won, are "
            "in this hand's main pot"
        )
    if s.aborted:
        blamed = _and([name(x) for x in s.blamed]) or "nobody"
        out.append(f"  ABORTED: {s.reason}")
        paid = [name(x) for x, n in s.chips if n < 0]
        if paid:  # a live-deck game's blamed seats pay their antes (SPEC 3.15)
            chips = ", ".join(f"{name(x)} {n:+d}" for x, n in sorted(s.chips) if n)
            out.append(
                f"  Blamed: {blamed}. {_and(paid)} {'pays its' if len(paid) == 1 else 'pay their'}"
                f" ante to the others, no free look at the deal: {chips}."
            )
            stacks = ", ".join(f"{name(x)} {n}" for x, n in sorted(h.stacks))
            out.append(f"  Stacks now: {stacks}")
        else:
            out.append(f"  Blamed: {blamed}. Every stack is back where it was at the start.")
    elif s.deal_size is not None:
        trades = [
            f"{name(t.seats[0])} swaps {_plural(t.cards, 'card')} with {name(t.seats[1])}"
            for t in s.trades
        ]
        closed = f" ({h.trading_closed})" if h.trading_closed else ""
        trading = h.announcement is not None and any(
            step.PHASE is Phase.TRADING for step in h.announcement.game.script
        )
        if trades:
            out.append(f"  Trades: {'; '.join(trades)}{closed}")
        elif trading:
            out.append(f"  No trades{closed}")
    out += _live_rounds(h, name, card) if h.live else [_round(r, name, card) for r in h.rounds]
    for c in s.false_claims:
        what = claim_text(c.kind, _and([name(x) for x in c.seats]))
        signers = _and([name(x) for x in c.signers])
        out.append(
            f"  False claim refused: {what}, signed by {signers}; the table went on without them"
        )
    if s.stopped:
        out.append(
            f"  STOPPED: a player refused a false claim signed by "
            f"{_and([name(x) for x in s.stopped])}, and no quorum was left without them; "
            "the hand is void and nothing follows"
        )
    hands = {sh.seat: sh.value for sh in h.showdown}
    if h.showdown and h.live:
        out += _live_showdown(h, name, card)
    elif h.showdown:
        out.append("  Showdown:")
        width = max(len(name(sh.seat)) for sh in h.showdown)
        for sh in h.showdown:
            cards = " ".join(card(c) for c in sh.cards)
            out.append(f"    {name(sh.seat):<{width}}  {cards}  {sh.value}")
    if h.forfeit is not None:
        out.append(f"  {forfeit_text(h.forfeit, name)}")
    else:
        for seat, back in h.returned:
            out.append(f"  Uncalled bet of {back} returned to {name(seat)}")
        sides = {sh.seat: sh.sides for sh in h.showdown if sh.sides is not None}
        count = len(h.pots)
        out += [
            split_pot_text(p, i, count, name, sides) if p.split else _pot(p, i, count, name, hands)
            for i, p in enumerate(h.pots)
        ]
    if s.carried and not any(p.carried for p in h.pots):
        # a void hand leaves the carry it was given where it was (SPEC 3.16)
        out.append(f"  {s.carried} chips carried over stay for the next hand")
    if not s.aborted:
        if not h.pots:
            out.append("  Nothing else was in the pot")
        chips = ", ".join(f"{name(x)} {n:+d}" for x, n in sorted(s.chips) if n)
        out.append(f"  Chips: {chips or 'nobody won or lost any'}")
        stacks = ", ".join(f"{name(x)} {n}" for x, n in sorted(h.stacks))
        out.append(f"  Stacks now: {stacks}")
        broke = [name(x) for x, n in sorted(h.stacks) if n == 0]
        if broke:
            out.append(f"  {_and(broke)} {'is' if len(broke) == 1 else 'are'} out of chips")
    out += [f"  {seat_event_text(e, name)}" for e in h.events]
    out.append(f"  Proofs checked: {_proofs(h.proofs)}")
    out.append(f"  Stay secret: {s.hidden} of the 52 cards, never turned")
    return out


# What a step owed is called in a sentence: "in betting", "signing the hand".
_OWED = {
    "announce": "announcing the game",
    "trading": "in trading",
    "betting": "in betting",
    "layout": "laying out its cards",
    "hand_key": "adding its hand key",
    "deck_shuffle": "shuffling the deck",
    "deal_shares": "dealing the cards",
    "hand_shuffle": "reshuffling its hand",
    "trade_give": "giving the cards of a trade",
    "reveal": "turning a card",
    "head_signature": "signing the hand",
    "game_signature": "signing the end of the game",
    "hand_start": "dealing the next hand",
    "hand_end": "closing the hand",
    "seat": "taking the seat",
}

SIT_OUT_WHY = {
    "folded-for-stalling": "folded by the clock",
    "blamed-for-abort": "blamed for the hand called off",
    "replaced-sequencer": "replaced as the hand's sequencer",
    "missed-head-signature": "did not sign the hand",
    "missed-hand-start": "did not deal the next hand",
}


def seat_event_text(e: SeatEvent, name: Callable[[int], str]) -> str:
    """One seat event as the report says it."""
    who = name(e.seat)
    if e.kind == TIMEOUT:
        where = _OWED.get(e.step) or f"in {_STEPS.get(e.step, e.step).replace('_', ' ')}"
        return f"{who}'s clock ran out {where}: {e.outcome}"
    if e.kind == REPLACED:
        return f"{who} was replaced as the hand's sequencer by the others' votes"
    if e.kind == SIT_OUT:
        return f"{who} sits out from the next hand ({SIT_OUT_WHY.get(e.reason, e.reason)})"
    if e.kind == SIT_IN:
        return f"{who} sits in again, to play from the next hand"
    offer = _plural(e.cards, "card")
    if e.kind == DECLINED:
        by = "an offer" if e.other is None else f"{name(e.other)}'s offer"
        return f"{who} declined {by} of {offer}"
    if e.kind == WITHDRAWN:
        return f"{who} withdrew an offer of {offer}"
    return f"{who}: {e.kind}"


# --- the clock and the arbiter (SPEC 3.14) -------------------------------------------------------


def _clock_line(n: ClockNoted, name: Callable[[int], str]) -> str:
    who = name(n.author)
    if n.kind == "time_bank":
        return f"{who} took {n.seconds} s more from their time bank"
    if n.kind == "pause":
        return f"{who} paused the table (for at most {n.seconds} s)"
    if n.kind == "resume":
        return f"{who} resumed the table"
    seat = "" if n.seat is None else name(n.seat)
    if n.kind == "ruling_extend":
        return f"the arbiter, {who}, gave {seat} {n.seconds} s more"
    if n.kind == "ruling_sit_in":
        return f"the arbiter, {who}, sat {seat} back in"
    return f"the arbiter, {who}, ended the game: no hand started after it"


def clock_texts(report: VerifyReport) -> list[str]:
    """Who the arbiter is, and every draw on a time bank, pause, resume and ruling, each with
    its hand and line: the signed entries about the clock (time itself is not in the
    transcript)."""
    c = report.config
    if not report.clock and report.arbiter is None:
        return []
    out = ["The clock and the arbiter:"]
    if report.arbiter is not None:
        out.append(f"  The arbiter is {report.name(report.arbiter)}.")
    if c is not None and (c.time_bank or c.pause_limit):
        out.append(
            f"  Each player had {c.time_bank} s in their time bank and "
            f"{_plural(c.pauses if c.pause_limit else 0, 'pause')} of at most "
            f"{c.pause_limit} s."
        )
    for n in report.clock:
        out.append(f"  hand {n.hand}, line {n.seq + 1}: {_clock_line(n, report.name)}")
    return out


# --- the end -----------------------------------------------------------------------------------


def _stacks(report: VerifyReport) -> list[str]:
    if not report.stacks:
        return []
    rows = sorted(report.stacks, key=lambda st: (-st.net, st.seat))
    width = max(len(report.name(st.seat)) for st in rows)
    digits = max(len(str(st.final)) for st in rows)
    played = len(report.hands)
    out = [f"Final stacks after {_plural(played, 'hand')} (bought in, now, result):"]
    for st in rows:
        note = ", left the table" if st.left else ("" if st.final else ", out of chips")
        out.append(
            f"  {report.name(st.seat):<{width}}  {st.bought_in:>{digits}} -> "
            f"{st.final:>{digits}}  {st.net:+d}{note}"
        )
    chips = report.chips
    if chips is not None:
        where = f"{chips.at_table} at the table" + (
            f" and {chips.left} with players who left" if chips.left else ""
        )
        if chips.carried:
            where += f" and {chips.carried} in a pot nobody has won yet, carried over"
        sums = "every chip accounted for" if chips.balanced else "CHIPS DO NOT ADD UP"
        out.append(f"Chips: {chips.bought_in} bought in; {where}: {sums}.")
    out += carry_shared_text(report)
    if report.ended_by is not None:
        signed = "signed by every player at the table" if report.valid else "not yet signed by all"
        out.append(
            f"The game's end was written after hand {report.hand} by "
            f"{report.name(report.ended_by)}: {signed}."
        )
    end = report.ending
    if end is not None:
        why = end.text.removeprefix("the game is over: ")
        out.append(f"The game is over: {why}.")
    return out


def carry_shared_text(report: VerifyReport) -> list[str]:
    """The pot nobody won in the last hand, shared out at the game's end (SPEC 3.16)."""
    if not report.carry_shared:
        return []
    amount = sum(chips for _, chips in report.carry_shared)
    hand = report.hands[-1].number if report.hands else report.hand
    shares = ", ".join(f"{report.name(seat)} {chips}" for seat, chips in report.carry_shared)
    return [
        f"The {amount} chips of hand {hand}'s pot, which nobody won, were shared out at the "
        f"game's end among the players of that hand: {shares} (in the final stacks above)."
    ]


def _step(w: Wait, name: Callable[[int], str]) -> str:
    return f"{name(w.seat)}'s {_STEPS.get(w.step, w.step)}"


def missing_texts(report: VerifyReport) -> list[str]:
    """What the game lacks to be complete, in words: one item per kind of gap."""
    name = report.name
    waits = report.missing
    by_step: dict[str, list[int]] = {}
    for w in waits:
        by_step.setdefault(w.step, []).append(w.seat)
    out = []
    if "seat" in by_step:
        who = [name(s) for s in by_step.pop("seat")]
        out.append(
            f"seating is not finished: {_and(who)} {'has' if len(who) == 1 else 'have'} "
            "not accepted the table"
        )
    if "head_signature" in by_step:
        who = [name(s) for s in by_step.pop("head_signature")]
        out.append(
            f"{_and(who)} {'has' if len(who) == 1 else 'have'} not signed the end of "
            f"hand {report.hand}"
        )
    if "game_end" in by_step:
        by_step.pop("game_end")
        out.append("the game has not ended: no player has written its game_end")
    if "game_signature" in by_step:
        who = [name(s) for s in by_step.pop("game_signature")]
        out.append(
            f"{_and(who)} {'has' if len(who) == 1 else 'have'} not signed the end of the game"
        )
    if "hand_end" in by_step:
        dealer = by_step.pop("hand_end")[0]
        out.append(
            f"hand {report.hand} has not ended: its dealer, {name(dealer)}, has not closed it"
        )
    rest = [w for w in waits if w.step in by_step]
    if rest:
        out.append(
            f"hand {report.hand} has not ended: it waits for {_and([_step(w, name) for w in rest])}"
        )
    if report.cut_off is not None:
        out.append(
            f"line {report.cut_off} was cut off while being written (it has no line "
            "feed at its end)"
        )
    return out


def not_closed_reason(report: VerifyReport) -> str:
    """The verdict's reason for a transcript that is valid so far but not complete."""
    through = report.through_hand
    so_far = f"valid through hand {through}" if through else "valid so far, no hand complete"
    stops = [h.summary for h in report.hands if h.summary.stopped]
    if stops:
        s = stops[-1]
        signers = _and([report.name(x) for x in s.stopped])
        return (
            f"not closed: {so_far}; the table stopped in hand {s.number}: its author refused "
            f"a false claim signed by {signers} (the hand is void, every stack as at its start)"
        )
    return f"not closed: {so_far}; " + "; ".join(missing_texts(report))


def verdict_text(report: VerifyReport) -> list[str]:
    """The closing lines: the verdict, and what it rests on."""
    e = report.error
    if report.verdict is Verdict.VALID:
        return [
            "VALID AND COMPLETE: every signature, hash link, rule and proof checks;",
            "  every hand ended and was signed by all its players, and so was the game's end.",
        ]
    assert e is not None
    if report.verdict is Verdict.NOT_CLOSED:
        checked = _plural(report.entries, "entry", "entries")
        lines = [f"NOT CLOSED: every entry read checks ({checked}), but the game is not complete:"]
        stops = [h.summary for h in report.hands if h.summary.stopped]
        if stops:
            signers = _and([report.name(x) for x in stops[-1].stopped])
            lines.append(
                f"  the table stopped in hand {stops[-1].number}: a player refused a false claim "
                f"signed by {signers}; that hand is void and every stack is as at its start"
            )
        else:
            lines += [f"  {m}" for m in missing_texts(report)]
        through = report.through_hand
        done = _complete(through)
        lines.append(f"  {done}")
        return lines
    if report.verdict is Verdict.UNREADABLE:
        where = f" at line {e.line}" if e.line and report.entries else ""
        return [f"UNREADABLE{where}: {e.reason}"]
    what = f"The {e.kind} entry" if e.kind else "The entry"
    if e.author is None:
        by = f"{what} names no author that can be read."
    elif e.author_signed:
        by = f"{what} is by {report.name(e.author)}, who signed it."
    else:
        by = (
            f"{what} claims to be by {report.name(e.author)}; not proven, since it failed "
            "before its signature was found good."
        )
    lines = [f"INVALID at line {e.line}: {e.reason}", f"  {by}"]
    lines.append(f"  Every line before it checks ({_plural(report.entries, 'entry', 'entries')}).")
    lines.append(f"  {_complete(report.through_hand)}")
    return lines


def _complete(through: int) -> str:
    if not through:
        return "No hand is complete."
    return "Hand 1 is complete." if through == 1 else f"Hands 1 to {through} are complete."


def report_text(report: VerifyReport, *, unicode: bool = False, legend: bool = True) -> str:
    """The whole report. `unicode`: suits as symbols (A♠), else as letters (As)."""
    if report.verdict is Verdict.UNREADABLE and not report.entries:
        return "\n".join(verdict_text(report))

    def card(c: Card) -> str:
        return c.unicode if unicode else c.ascii

    out = _header(report)
    for h in report.hands:
        out.append("")
        out += hand_text(h, report.name, card)
    clock = clock_texts(report)
    if clock:
        out.append("")
        out += clock
    out.append("")
    out += _stacks(report)
    out += [f"Note: {n}" for n in report.notes]
    if legend:
        out += ["", LEGEND]
        if any(h.live for h in report.hands):
            out.append(LIVE_LEGEND)
        if any(h.split for h in report.hands):
            out.append(SPLIT_LEGEND)
    out.append("")
    out += verdict_text(report)
    return "\n".join(out)


def report_brief(report: VerifyReport) -> str:
    """One line: the file and its verdict."""
    e = report.error
    if report.verdict is Verdict.VALID:
        what = (
            f"valid and complete, {_plural(len(report.hands), 'hand')}, "
            f"{_plural(report.entries, 'entry', 'entries')}"
        )
    elif report.verdict is Verdict.NOT_CLOSED:
        assert e is not None
        what = e.reason
    elif report.verdict is Verdict.UNREADABLE:
        assert e is not None
        what = f"unreadable: {e.reason}"
    else:
        assert e is not None
        who = "" if e.author is None else f" ({report.name(e.author)})"
        what = f"INVALID at line {e.line}{who}: {e.reason}"
    return f"{report.source}: {what}"


__all__ = [
    "CHOICE_WORDS",
    "LEGEND",
    "LIVE_LEGEND",
    "LIVE_PROOF_NAMES",
    "PROOF_NAMES",
    "SPLIT_LEGEND",
    "carry_shared_text",
    "clock_texts",
    "declaration_text",
    "forfeit_text",
    "hand_text",
    "missing_texts",
    "not_closed_reason",
    "report_brief",
    "report_text",
    "split_pot_text",
    "verdict_text",
]
