"""The show after the declaration in the report (SPEC 3.18): `willow verify` tells, in the round
of betting after the declaration, "X showed after the declaration: matched the pot (N)" or
"X showed after the declaration: folded"; the JSON holds the two answers as actions its schema
admits, and the page says them too. Two hands of hold'em high-low through real sessions."""

from __future__ import annotations

import functools
import html
import json
import random
import re
from pathlib import Path
from typing import Any

import jsonschema
from session_helpers import SAMPLES, make_rng

from p2pwillow.games.split_pot import HOLDEM_HIGH_LOW
from p2pwillow.ledger import kinds as k
from p2pwillow.rules import ActionKind, Announcement, Decision, Phase, TableConfig
from p2pwillow.session import Session
from p2pwillow.table import Decider, Table, bot_decider
from p2pwillow.verify import Verdict, VerifyReport, report_object, report_text, verify_transcript
from p2pwillow.verify.html import report_html

ROOT = Path(__file__).resolve().parents[2]
VALIDATOR = jsonschema.Draft202012Validator(
    json.loads((ROOT / "protocol" / "schemas" / "reports" / "verify-report.json").read_text())
)
SHOWER = 2


def _decider(seat: int) -> Decider:
    """Calls every bet so that hands reach the declaration; the SHOWER shows when it is to act
    in the bet after the declaration, then matches in the first hand and folds in the second."""
    bot = bot_decider(seat, random.Random(seat), samples=SAMPLES)

    def decide(session: Session) -> Decision | None:
        hand = session.hand
        if hand is None:
            return None
        if hand.phase is Phase.ANNOUNCE:
            return Decision(ActionKind.ANNOUNCE, announcement=Announcement.of(HOLDEM_HIGH_LOW))
        if hand.phase is Phase.BETTING and seat in hand.to_act():
            if hand.owes_match == seat:
                return Decision(ActionKind.POT_MATCH, match=not session.summaries)
            legal = hand.legal_actions(seat)
            if seat == SHOWER and ActionKind.EARLY_SHOW in legal:
                return Decision(ActionKind.EARLY_SHOW)
            return Decision(ActionKind.CALL if ActionKind.CALL in legal else ActionKind.CHECK)
        return bot(session)

    return decide


@functools.cache
def _played() -> tuple[Table, VerifyReport]:
    config = TableConfig(seats=3, games=(HOLDEM_HIGH_LOW.name,), ante=5, starting_stack=500)
    table = Table(
        3,
        config=config,
        seed=4,
        rng=make_rng("verify/pot-match"),
        deciders={s: _decider(s) for s in range(3)},
    )
    assert table.play(2) == 2
    table.end_game()
    report = verify_transcript(b"".join(table.lines), "pot-match")
    assert report.verdict is Verdict.VALID, report.error
    return table, report


def _answers(table: Table) -> list[k.PotMatch]:
    return [e.body for e in table.transcript if isinstance(e.body, k.PotMatch)]


def _object() -> Any:
    obj = report_object(_played()[1])
    VALIDATOR.validate(obj)
    return obj


def test_the_text_tells_the_show_and_the_match_or_the_fold() -> None:
    table, report = _played()
    matched, folded = _answers(table)
    assert matched.answer == "match" and folded.answer == "fold"
    name = next(p["name"] for p in _object()["players"] if p["seat"] == SHOWER)
    lines = report_text(report, legend=False).splitlines()
    said = [ln for ln in lines if "showed after the declaration" in ln]
    assert len(said) == 2, "\n".join(lines)
    first, second = said
    assert f"{name} showed after the declaration: matched the pot ({matched.amount})" in first
    assert f"{name} showed after the declaration: folded" in second
    # told in the round of betting that follows the declaration, after it
    for ln in said:
        at = lines.index(ln)
        assert any(x.strip().startswith("Declarations") for x in lines[at - 3 : at]), lines


def test_the_json_and_the_page_hold_the_answers() -> None:
    table, _ = _played()
    matched, _ = _answers(table)
    obj = _object()
    actions = [a for h in obj["hands"] for r in h["rounds"] for a in r["actions"]]
    answers = [(a["seat"], a["action"], a["chips"]) for a in actions if "pot" in a["action"]]
    assert answers == [(SHOWER, "pot-match", matched.amount), (SHOWER, "pot-fold", 0)]
    page = report_html(obj)
    words = html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))
    assert f"showed after the declaration: matched the pot ({matched.amount})" in words
    assert "showed after the declaration: folded" in words
