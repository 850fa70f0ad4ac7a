"""Pass the Card's passes (SPEC 3.19) in `willow verify`'s text, `--json` and `--html` (SPEC
7.6): each pass street is one street of the report, its up cards what each seat holds of it
(a card passed on is its receiver's), and each pass a row naming the passer, the card, the
seat it went to, the price and the card dealt in its place; the page says the same."""

from __future__ import annotations

import json
import random
import re
from html import unescape
from pathlib import Path
from typing import Any

import jsonschema

from p2pwillow.games.pass_the_card import PASS_THE_CARD
from p2pwillow.rules import ActionKind, Announcement, Decision, Hand, Phase, TableConfig
from p2pwillow.rules.events import CardPassed, StreetDealt
from p2pwillow.session import Session
from p2pwillow.table import Table, bot_decider
from p2pwillow.verify import Verdict, report_json, report_text, verify_transcript
from p2pwillow.verify.html import report_html

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads(
    (ROOT / "protocol" / "schemas" / "reports" / "verify-report.json").read_text("utf-8")
)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def _player(seat: int) -> object:
    """Seat 0 passes every card it may; the others keep theirs and check or call."""
    bot = bot_decider(seat, random.Random(seat), samples=20)

    def decide(session: Session) -> Decision | None:
        hand: Hand | None = session.hand
        if hand is None:
            return None
        if hand.phase is Phase.ANNOUNCE:
            return Decision(ActionKind.ANNOUNCE, announcement=Announcement.of(PASS_THE_CARD))
        if hand.phase is Phase.STREET and seat in hand.to_act():
            passes = seat == 0 and ActionKind.PASS_CARD in hand.legal_actions(seat)
            return Decision(ActionKind.PASS_CARD if passes else ActionKind.KEEP_CARD)
        if hand.phase is Phase.BETTING and seat in hand.to_act():
            legal = hand.legal_actions(seat)
            return Decision(ActionKind.CHECK if ActionKind.CHECK in legal else ActionKind.CALL)
        return bot(session)

    return decide


def _text(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", html))


def test_the_reports_tell_every_pass_and_who_holds_each_card() -> None:
    config = TableConfig(seats=3, games=(PASS_THE_CARD.name,), ante=5, min_bet=25)
    table = Table(
        3,
        config=config,
        seed=3,
        rng=random.Random(3).randbytes,
        deciders={s: _player(s) for s in range(3)},  # type: ignore[misc]
    )
    assert table.play(1) == 1
    table.end_game()
    hand = table.sessions[0].hand
    assert hand is not None
    passes = [e for e in hand.events if isinstance(e, CardPassed)]
    assert passes and all(p.seat == 0 for p in passes)
    dealt = {
        e.replaces: e.up[0][1][0]
        for e in hand.events
        if isinstance(e, StreetDealt) and e.replaces is not None
    }
    report = verify_transcript(b"".join(table.lines))
    assert report.verdict is Verdict.VALID, report.error
    obj: dict[str, Any] = json.loads(report_json(report))
    VALIDATOR.validate(obj)
    names = {int(p["seat"]): str(p["name"]) for p in obj["players"]}
    (h,) = obj["hands"]
    streets = [st for st in h["streets"] if st["passed"]]
    rows = [p for st in streets for p in st["passed"]]
    assert rows == [
        {
            "seat": p.seat,
            "to": p.to,
            "card": p.card.ascii,
            "paid": 25,
            "dealt": dealt[p.card].ascii,
        }
        for p in passes
    ]
    # a pass street is one street of the report, named as stud names it, and its up cards
    # are what each seat holds of it: the passed card the receiver's, the passer's replacement
    names_of_streets = [st["name"] for st in h["streets"]]
    assert names_of_streets[0] == "The deal"  # two cards down each, before any face up
    for name in ("Third street", "Fourth street", "Fifth street", "Sixth street"):
        assert names_of_streets.count(name) == 1, names_of_streets
    for st in streets:
        up = {u["seat"]: u["cards"] for u in st["up"]}
        assert all(len(cards) == 1 for cards in up.values()), st
        for p in st["passed"]:
            assert up[p["to"]] == [p["card"]] and up[p["seat"]] == [p["dealt"]]
    first = passes[0]
    text = report_text(report)
    said = (
        f"{names[0]} passes {first.card.ascii} to {names[first.to]} for 25 "
        f"and is dealt {dealt[first.card].ascii}"
    )
    assert said in text, text
    page = _text(report_html(obj))
    words = (
        f"{names[0]} passes {first.card.unicode} to {names[first.to]} for 25 "
        f"and is dealt {dealt[first.card].unicode}."
    )
    assert words in page
