"""The wash (SPEC 3.17) in `willow verify --json` and `--html` (SPEC 7.6): each hand's wash as
data, washer by washer in the order they washed (who kept its cards, what it paid, each card
washed face up or face down and the face-up card dealt for it), checked against the wash
entries of transcripts of Go for Broke and Seattle Six played by seeded bots; the page
tells the same washes. A card washed face down stays secret: a table whose first seat washes a
face-down card at every wash, its cards read from its own session, and no report names it."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from seeded_game import played

from p2pwillow.cards import Card
from p2pwillow.games import CATALOGUE
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.entry import decode_entry
from p2pwillow.rules import ActionKind, Decision, TableConfig
from p2pwillow.rules.wash import Wash
from p2pwillow.session import Session
from p2pwillow.table import Table, bot_decider
from p2pwillow.verify import Verdict, report_json, report_text, verify_transcript
from p2pwillow.verify.html import WASH_ASIDE, report_html

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads(
    (ROOT / "protocol" / "schemas" / "reports" / "verify-report.json").read_text("utf-8")
)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
SEEDS = range(1, 7)
"""Seeds tried, in order, for a game in which some player pays to wash."""


def _entries(data: bytes) -> dict[int, list[tuple[int, k.Wash]]]:
    """Each hand's wash entries in chain order: (author, body)."""
    out: dict[int, list[tuple[int, k.Wash]]] = {}
    for line in data.splitlines():
        e = decode_entry(line)
        if isinstance(e.body, k.Wash):
            out.setdefault(e.hand, []).append((e.author, e.body))
    return out


def _washed_transcript(game: str, *, up: bool = False) -> bytes:
    """A transcript of `game` played by bots in which a player paid to wash a card (`up`: a
    face-up card)."""
    for seed in SEEDS:
        data = played(game, seed)
        if any(b.up or (b.cards and not up) for ws in _entries(data).values() for _, b in ws):
            return data
    raise AssertionError(f"no player paid to wash in {game} with seeds {SEEDS}")


def _price(game: str, ante: int, down: bool) -> int:
    step = next(s for s in CATALOGUE[game].script if isinstance(s, Wash))
    return step.chips(ante, down)


def _up_before(hand: dict[str, Any], index: int, seat: int) -> list[str]:
    """`seat`'s face-up cards in the order dealt, as the report's streets before street
    `index` dealt and washed them."""
    up: list[str] = []
    for st in hand["streets"][:index]:
        gone = {c["card"] for w in st["washed"] if w["seat"] == seat for c in w["cards"]}
        up = [c for c in up if c not in gone]
        up += [c for u in st["up"] if u["seat"] == seat for c in u["cards"]]
    return up


def _text(html: str) -> str:
    """The page's words, tags dropped (a card reads as its rank and suit: "10♦")."""
    return unescape(re.sub(r"<[^>]+>", "", html))


def _step(html: str, hand: int, key: str) -> str:
    """One step of one hand on the page, its HTML."""
    start = html.index(f'id="hand-{hand}-{key}"')
    end = html.find('<div class="step"', start)
    return html[start : end if end >= 0 else len(html)]


@pytest.mark.parametrize("game", ["go-for-broke", "seattle-six"])
def test_the_json_and_html_reports_hold_each_wash(game: str) -> None:
    data = _washed_transcript(game)
    report = verify_transcript(data)
    assert report.verdict is Verdict.VALID, report.error
    assert report.config is not None
    obj: dict[str, Any] = json.loads(report_json(report))  # as --json prints it
    VALIDATOR.validate(obj)
    entries = _entries(data)
    html = report_html(obj)
    page_text = _text(html)
    names = {p["seat"]: p["name"] for p in obj["players"]}
    told = 0
    for hand in obj["hands"]:
        rows = [(i, w) for i, st in enumerate(hand["streets"]) for w in st["washed"]]
        ws = entries.get(hand["number"], [])
        assert [w["seat"] for _, w in rows] == [author for author, _ in ws], (rows, ws)
        for (index, w), (author, body) in zip(rows, ws, strict=True):
            st = hand["streets"][index]
            assert st["name"].endswith("wash") and st["down"] == 0 and not st["board"], st
            dealt = [c for u in st["up"] if u["seat"] == author for c in u["cards"]]
            if not body.cards and not body.up:
                assert w == {"seat": author, "kept": True, "paid": 0, "cards": []}, w
                assert not dealt, st
                line = f"{names[author]} keeps its cards."
            elif body.cards:
                price = _price(game, report.config.ante, down=True)
                card = {
                    "face": "down",
                    "card": None,
                    "dealt": None,
                    "cloaked": False,
                    "flipped": None,
                }
                assert w == {"seat": author, "kept": False, "paid": price, "cards": [card]}, w
                assert not dealt, st  # replaced face down: nothing dealt face up
                line = f"{names[author]} pays {price} and washes a card face down, dealt another"
            else:
                price = _price(game, report.config.ante, down=False)
                washed = _up_before(hand, index, author)[body.up[0]]
                card = {
                    "face": "up",
                    "card": washed,
                    "dealt": dealt[0],
                    "cloaked": False,
                    "flipped": None,
                }
                assert len(dealt) == 1 and dealt[0] != washed, st
                assert w == {"seat": author, "kept": False, "paid": price, "cards": [card]}, w
                shown = [Card.parse(c).unicode for c in (washed, dealt[0])]
                line = (
                    f"{names[author]} pays {price} and washes {shown[0]} face up, dealt {shown[1]}"
                )
                # on the page the seat's cards lose the washed card and show the new one
                seat = _step(html, hand["number"], f"street-{index + 1}").split(
                    f'data-seat="{author}"', 1
                )[1]
                cards = re.findall(r'data-card="(\w\w)"', seat.split('<div class="act">', 1)[0])
                assert washed not in cards and dealt[0] in cards, (washed, dealt, cards)
            step = _text(_step(html, hand["number"], f"street-{index + 1}"))
            assert line in step, (line, step)
            told += 1
    assert told and WASH_ASIDE in page_text


# --- a card washed face down stays secret -------------------------------------------------------


def _seat_cards(node: object) -> Iterator[str]:
    """Every card a report object names, anywhere in it."""
    if isinstance(node, dict):
        for v in node.values():
            yield from _seat_cards(v)
    elif isinstance(node, list):
        for v in node:
            yield from _seat_cards(v)
    elif isinstance(node, str) and re.fullmatch(r"[2-9TJQKA][cdhs]", node):
        yield node


def test_a_card_washed_face_down_is_never_in_the_report() -> None:
    """Seat 0 never folds and, at every wash, washes the first of its face-down cards; the
    cards it washed are read from its own session (what its player saw), and no report names
    them: not the JSON, not the page, not the text."""
    game = "go-for-broke"
    washed: dict[tuple[int, int], Card] = {}
    """(hand, step of the script) to the card seat 0 washed there (asked again before its
    wash is applied, it names the same card)."""
    transcript: list[bytes] = []
    bot = bot_decider(0, random.Random(7), samples=40, level="easy")

    def seat_0(session: Session) -> Decision | None:
        hand = session.hand
        assert hand is not None
        if isinstance(hand.step, Wash) and 0 in hand.to_act():
            up = hand.showing(0)
            down = [c for c in session.cards if c not in up]
            washed[session.hand_number, hand.snapshot().step] = down[0]
            return Decision(ActionKind.DRAW, positions=(0,))
        d = bot(session)
        if d is not None and d.kind is ActionKind.FOLD:
            # stay in to the wash: call or check instead
            for kind in (ActionKind.CHECK, ActionKind.CALL):
                if session.decision_error(Decision(kind)) is None:
                    return Decision(kind)
        return d

    table = Table(
        4,
        config=TableConfig(seats=4, games=(game,)),
        seed=3,
        rng=random.Random(3).randbytes,
        deciders={0: seat_0},
        samples=40,
        level="easy",
        on_entry=lambda e: transcript.append(e.encode() + b"\n"),
    )
    for _ in range(2):
        assert table.play_hand()
    table.end_game()
    data = b"".join(transcript)
    assert washed, "seat 0 never washed"
    # the transcript holds those washes as seat 0's: one face-down card each
    mine = [b for ws in _entries(data).values() for a, b in ws if a == 0]
    assert len(mine) == len(washed), (mine, washed)
    assert all(len(b.cards) == 1 and not b.up for b in mine), mine

    report = verify_transcript(data)
    assert report.verdict is Verdict.VALID, report.error
    obj: dict[str, Any] = json.loads(report_json(report))  # as --json prints it
    VALIDATOR.validate(obj)
    rows = [
        w
        for h in obj["hands"]
        for st in h["streets"]
        for w in st["washed"]
        if w["seat"] == 0 and not w["kept"]
    ]
    assert rows and all(
        w["cards"]
        == [{"face": "down", "card": None, "dealt": None, "cloaked": False, "flipped": None}]
        for w in rows
    )
    secret = {c.ascii for c in washed.values()}
    named = set(_seat_cards(obj))
    assert named and not secret & named, secret & named
    page = report_html(obj)
    assert not secret & set(re.findall(r'data-card="(\w\w)"', page)), page
    text = report_text(report)
    words = set(re.findall(r"\b[2-9TJQKA][cdhs]\b", text))
    assert words and not secret & words, secret & words


def test_the_page_tells_a_free_wash_without_a_price() -> None:
    """A wash whose game makes it free (Car Wash's option) paid 0: the page says the card
    washed and no price. The report object is a real one with its paid washes made free."""
    report = verify_transcript(_washed_transcript("go-for-broke", up=True))
    obj: dict[str, Any] = json.loads(report_json(report))
    free = 0
    for hand in obj["hands"]:
        for st in hand["streets"]:
            for w in st["washed"]:
                if not w["kept"]:
                    w["paid"] = 0
                    free += 1
    VALIDATOR.validate(obj)
    assert free
    words = _text(report_html(obj))
    assert " and washes " not in words and re.search(r" washes \S+ face up, dealt ", words), words
    assert not re.search(r"washed \S+ for ", words), words


# --- the cloak (Go for Broke) -------------------------------------------------------------------


def test_the_reports_tell_a_cloak() -> None:
    """Seat 0 never folds and, at the wash, cloaks its first face-up card: the JSON report's
    row names that card, cloaked, with no card dealt face up for it; the text and the page say
    it paid the cloak's price and cloaked the card, another dealt face down; on the page the
    seat shows one card fewer face up and one more face down than before the wash."""
    game = "go-for-broke"
    cloaked: dict[int, Card] = {}
    """Hand number to the card seat 0 cloaked in it."""
    transcript: list[bytes] = []
    bot = bot_decider(0, random.Random(7), samples=40, level="easy")

    def seat_0(session: Session) -> Decision | None:
        hand = session.hand
        assert hand is not None
        if isinstance(hand.step, Wash) and 0 in hand.to_act():
            up = hand.showing(0)
            cloaked[session.hand_number] = up[0]
            return Decision(ActionKind.CLOAK, positions=(hand.hand_size(0) - len(up),))
        d = bot(session)
        if d is not None and d.kind is ActionKind.FOLD:
            for kind in (ActionKind.CHECK, ActionKind.CALL):
                if session.decision_error(Decision(kind)) is None:
                    return Decision(kind)
        return d

    config = TableConfig(seats=4, games=(game,))
    table = Table(
        4,
        config=config,
        seed=3,
        rng=random.Random(3).randbytes,
        deciders={0: seat_0},
        samples=40,
        level="easy",
        on_entry=lambda e: transcript.append(e.encode() + b"\n"),
    )
    for _ in range(3):
        assert table.play_hand()
        if cloaked:
            break
    table.end_game()
    data = b"".join(transcript)
    assert cloaked, "seat 0 never reached a wash"
    (number, card), *_ = cloaked.items()
    price = 8 * config.ante  # Go for Broke's cloak: eight antes (SPEC 3.13.13)

    report = verify_transcript(data)
    assert report.verdict is Verdict.VALID, report.error
    obj: dict[str, Any] = json.loads(report_json(report))
    VALIDATOR.validate(obj)
    name = next(p["name"] for p in obj["players"] if p["seat"] == 0)
    hand = next(h for h in obj["hands"] if h["number"] == number)
    index, st = next((i, st) for i, st in enumerate(hand["streets"]) if st["washed"])
    rows = [w for w in st["washed"] if w["seat"] == 0]
    row = {"face": "up", "card": card.ascii, "dealt": None, "cloaked": True, "flipped": None}
    assert rows == [{"seat": 0, "kept": False, "paid": price, "cards": [row]}], rows
    assert not [u for u in st["up"] if u["seat"] == 0], st  # its replacement came face down

    said = f"{name} pays {price} and cloaks {card.ascii}: dealt another face down"
    assert said in report_text(report), report_text(report)
    html = report_html(obj)
    step = _step(html, number, f"street-{index + 1}")
    words = f"{name} pays {price} and cloaks {card.unicode}: dealt another face down."
    assert words in _text(step), _text(step)

    def seat_cards(key: str) -> tuple[list[str], int]:
        seat = _step(html, number, key).split('data-seat="0"', 1)[1]
        cards = seat.split('<div class="act">', 1)[0]
        return re.findall(r'data-card="(\w\w)"', cards), cards.count('class="card back"')

    (up_before, down_before), (up_after, down_after) = (
        seat_cards(f"street-{index}"),
        seat_cards(f"street-{index + 1}"),
    )
    assert card.ascii in up_before and card.ascii not in up_after, (up_before, up_after)
    assert (len(up_after), down_after) == (len(up_before) - 1, down_before + 1)


# --- the flip (Five by Two) ---------------------------------------------------------------------


def test_the_reports_tell_a_flip() -> None:
    """Seat 0 never folds and, at the first wash it gets to, says it washes and flips its
    face-down card (its own session's card) and its first face-up card: the JSON report's row
    names the face-up card washed and the card flipped, with no card dealt face up for it; the
    text and the page say it paid the price, flipped the one face up and washed the other,
    another dealt face down; on the page the seat shows the flipped card face up instead of
    the washed one after the wash, and as many cards face down. A row that names a flip and a
    card dealt face up for it is no report the schema admits."""
    game = "five-by-two"
    flipped: dict[int, tuple[Card, Card]] = {}
    """Hand number to the card seat 0 flipped face up and the face-up card it washed."""
    transcript: list[bytes] = []
    bot = bot_decider(0, random.Random(7), samples=40, level="easy")

    def seat_0(session: Session) -> Decision | None:
        hand = session.hand
        assert hand is not None
        if isinstance(hand.step, Wash) and 0 in hand.to_act():
            if ActionKind.WASH_CALL in hand.legal_actions(0):
                return Decision(ActionKind.WASH_CALL)
            if session.hand_number not in flipped:
                flipped[session.hand_number] = (session.cards[0], hand.showing(0)[0])
                return Decision(ActionKind.FLIP, positions=(0, len(session.cards)))
            return Decision(ActionKind.DRAW, positions=(len(session.cards),))
        d = bot(session)
        if d is not None and d.kind is ActionKind.FOLD:
            for kind in (ActionKind.CHECK, ActionKind.CALL):
                if session.decision_error(Decision(kind)) is None:
                    return Decision(kind)
        return d

    config = TableConfig(seats=4, games=(game,))
    table = Table(
        4,
        config=config,
        seed=3,
        rng=random.Random(3).randbytes,
        deciders={0: seat_0},
        samples=40,
        level="easy",
        on_entry=lambda e: transcript.append(e.encode() + b"\n"),
    )
    for _ in range(3):
        assert table.play_hand()
        if flipped:
            break
    table.end_game()
    data = b"".join(transcript)
    assert flipped, "seat 0 never reached a wash"
    (number, (down, up)), *_ = flipped.items()
    price = 2 * config.ante  # the first wash's price of a face-up card (SPEC 3.13.15)

    report = verify_transcript(data)
    assert report.verdict is Verdict.VALID, report.error
    obj: dict[str, Any] = json.loads(report_json(report))
    VALIDATOR.validate(obj)
    name = next(p["name"] for p in obj["players"] if p["seat"] == 0)
    hand = next(h for h in obj["hands"] if h["number"] == number)
    index, st = next((i, st) for i, st in enumerate(hand["streets"]) if st["washed"])
    rows = [w for w in st["washed"] if w["seat"] == 0]
    row = {"face": "up", "card": up.ascii, "dealt": None, "cloaked": False, "flipped": down.ascii}
    assert rows == [{"seat": 0, "kept": False, "paid": price, "cards": [row]}], rows
    assert not [u for u in st["up"] if u["seat"] == 0], st  # its new card came face down
    # the flip's show is counted with the shows (SPEC 7.6)
    shows = sum(1 for line in data.splitlines() if decode_entry(line).kind in ("show", "flip"))
    counted = sum(dict(h["proofs"]).get("show", 0) for h in obj["hands"])
    assert counted == shows, (counted, shows)

    said = f"{name} pays {price} and flips {down.ascii} face up, washes {up.ascii}: dealt another"
    assert said + " face down" in report_text(report), report_text(report)
    html = report_html(obj)
    step = _step(html, number, f"street-{index + 1}")
    words = f"{name} pays {price} and flips {down.unicode} face up, washes {up.unicode}: dealt"
    assert words + " another face down." in _text(step), _text(step)

    def seat_cards(key: str) -> tuple[list[str], int]:
        seat = _step(html, number, key).split('data-seat="0"', 1)[1]
        cards = seat.split('<div class="act">', 1)[0]
        return re.findall(r'data-card="(\w\w)"', cards), cards.count('class="card back"')

    (up_before, down_before), (up_after, down_after) = (
        seat_cards(f"street-{index}"),
        seat_cards(f"street-{index + 1}"),
    )
    assert up.ascii in up_before and down.ascii not in up_before, up_before
    assert up.ascii not in up_after and down.ascii in up_after, up_after
    assert (len(up_after), down_after) == (len(up_before), down_before)

    # a flip's card is dealt face down: a row naming a card dealt face up for it is refused
    bad = json.loads(json.dumps(obj))
    target = next(h for h in bad["hands"] if h["number"] == number)["streets"][index]
    next(w for w in target["washed"] if w["seat"] == 0)["cards"][0]["dealt"] = "2c"
    assert not VALIDATOR.is_valid(bad)
