"""What `willow verify` prints (SPEC 7.6): the hand history a player reads, and the JSON object
with its schema in protocol/schemas/reports/."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from session_helpers import SAMPLES, new_table

from p2pwillow.cards import Card
from p2pwillow.hands import best_hand
from p2pwillow.rules import (
    ActionKind,
    BetPlaced,
    BettingClosed,
    BettingOpened,
    Called,
    CardRevealed,
    Decision,
    Folded,
    HandEnded,
    Raised,
)
from p2pwillow.rules.pots import HandResult, Pot, PotAward
from p2pwillow.seat import Ending, Why
from p2pwillow.session import HandStarted, HandSummary, PotSummary, Session
from p2pwillow.table import Decider, bot_decider
from p2pwillow.verify import (
    LEGEND,
    Verdict,
    VerifyReport,
    bug_json,
    report_brief,
    report_json,
    report_object,
    report_text,
    verify_file,
    verify_transcript,
)
from p2pwillow.verify.history import HandLog
from p2pwillow.verify.text import PROOF_NAMES

ROOT = Path(__file__).resolve().parents[2]
DIR = ROOT / "protocol" / "transcripts"
HONEST = DIR / "honest-3p-2h.jsonl"
SCHEMA = json.loads(
    (ROOT / "protocol" / "schemas" / "reports" / "verify-report.json").read_text("utf-8")
)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


@pytest.fixture(scope="module")
def honest() -> VerifyReport:
    return verify_file(HONEST)


# --- the text a player reads -------------------------------------------------------------------


def test_players_are_named_not_numbered(honest: VerifyReport) -> None:
    text = report_text(honest)
    names = [name for _, name in honest.players]
    assert names and all(name in text for name in names)
    # names are unique here: no seat numbers (the file's path, which may hold any word, aside)
    assert "seat" not in text.split("How to read")[0].replace(str(HONEST), "")


def test_every_showdown_hand_is_named(honest: VerifyReport) -> None:
    text = report_text(honest, unicode=True)
    showdowns = [sh for h in honest.hands for sh in h.showdown]
    assert showdowns, "the committed game has a showdown"
    for sh in showdowns:
        assert sh.value == best_hand(sh.cards).text
        cards = " ".join(c.unicode for c in sh.cards)
        assert f"{cards}  {sh.value}" in text
    winners = [h for h in honest.hands if h.showdown]
    for h in winners:
        # a side pot that only one player still contests (the others in it folded) is won
        # without a showdown, and says so instead
        for pot in (p for p in h.pots if len(p.contested) > 1):
            hand = next(sh.value for sh in h.showdown if sh.seat == pot.winners[0])
            assert f"with {hand}" in text


def test_uncalled_bets_are_returned_not_won(honest: VerifyReport) -> None:
    text = report_text(honest)
    returned = [(h, seat, chips) for h in honest.hands for seat, chips in h.returned]
    assert returned, "the committed game has an uncalled bet"
    for h, seat, chips in returned:
        assert f"Uncalled bet of {chips} returned to {honest.name(seat)}" in text
        engine = sum(p.amount for p in h.summary.pots)
        assert sum(p.amount for p in h.pots) + chips == engine
        assert all(p.amount > 0 for p in h.pots)


def test_final_stacks_and_the_result(honest: VerifyReport) -> None:
    text = report_text(honest)
    assert "Final stacks after 2 hands" in text
    assert sum(st.net for st in honest.stacks) == 0
    last = dict(honest.hands[-1].stacks)
    for st in honest.stacks:
        assert st.final == last.get(st.seat, st.final)
        assert f"{st.final}  {st.net:+d}" in text
    broke = [honest.name(st.seat) for st in honest.stacks if st.final == 0]
    for name in broke:
        assert f"{name} is out of chips" in text


def test_the_legend_explains_every_proof_kind_and_what_stays_secret(honest: VerifyReport) -> None:
    text = report_text(honest)
    assert LEGEND in text and "What stays secret" in LEGEND
    for kind, (_, plural) in PROOF_NAMES.items():
        assert f"{plural} ({kind})" in LEGEND or f"{plural}:" in LEGEND
    assert "eligible" not in text and "contested by" in LEGEND.replace("\n    ", " ")


def test_the_verdict_ends_the_report(honest: VerifyReport) -> None:
    assert report_text(honest).splitlines()[-2].startswith("VALID AND COMPLETE")
    truncated = verify_file(DIR / "truncated.jsonl")
    text = report_text(truncated)
    assert "NOT CLOSED" in text and "hand 2 has not ended" in text and "INVALID" not in text
    forged = report_text(verify_file(DIR / "bad-signature.jsonl"))
    assert "INVALID at line 20" in forged and "not proven" in forged


def test_a_game_over_says_its_true_reason(honest: VerifyReport) -> None:
    # a table formed before `hands` was a table setting: the chain shows who wrote the end
    assert honest.game_over and honest.ending is not None
    assert honest.ending.why is Why.ENDED_BY_PLAYER and honest.ending.seat == honest.ended_by
    ender = honest.name(honest.ended_by or 0)
    assert f"The game is over: {ender} ended it." in report_text(honest)
    assert report_object(honest)["end_reason"] == {
        "why": "ended-by-player",
        "seat": honest.ended_by,
        "text": f"the game is over: {ender} ended it",
    }
    winner = max(honest.stacks, key=lambda st: st.final)
    alone = Ending(Why.ONE_HAS_CHIPS, winner.seat, f"the game is over: {winner.name} has all")
    over = replace(honest, ending=alone)
    assert f"The game is over: {winner.name} has all." in report_text(over)


def test_brief_is_one_line_per_verdict() -> None:
    for name in ("honest-3p-2h.jsonl", "truncated.jsonl", "bad-signature.jsonl"):
        line = report_brief(verify_file(DIR / name))
        assert "\n" not in line and line.startswith(str(DIR / name))
    assert "unreadable" in report_brief(verify_file(DIR / "no-such.jsonl"))


# --- the hand history, built from the session's events ----------------------------------------


def _summary(pots: tuple[PotSummary, ...], folded: tuple[int, ...]) -> HandSummary:
    return HandSummary(
        number=1,
        dealer=1,
        seats=(0, 1),
        deal_size=5,
        game="weeping-willow",
        trades=(),
        shown=((0, (Card.parse("As"),)), (1, (Card.parse("Kd"),))),
        folded=folded,
        pots=pots,
        chips=((0, -50), (1, 50)),
        proofs=(),
        hidden=50,
    )


def test_a_bet_nobody_called_goes_back_to_its_bettor() -> None:
    log = HandLog(HandStarted(1, 1, (0, 1)))
    for event in (
        CardRevealed(0, 1, Card.parse("As")),
        CardRevealed(1, 1, Card.parse("Kd")),
        BettingOpened(1, 0),
        BetPlaced(0, 50),
        Raised(1, 150, 150),
        Folded(0),
        BettingClosed(1),
        HandEnded(
            HandResult((0, 1), (1000, 1000), (950, 1050), (PotAward(Pot(210, (1,)), (1,), (210,)),))
        ),
    ):
        log.take(event)
    history = log.close(_summary((PotSummary(210, (1,), (1,)),), (0,)))
    # 10 chips of tokens, 50 from seat 0, 150 from seat 1: 100 of seat 1's raise was not called
    assert history.returned == ((1, 100),)
    assert [(p.amount, p.winners) for p in history.pots] == [(110, (1,))]
    assert history.bets == ((0, 50), (1, 150))
    assert [a.action for a in history.rounds[0].actions] == ["bet", "raise", "fold"]
    assert history.showdown == ()


def test_a_called_bet_is_not_returned() -> None:
    log = HandLog(HandStarted(1, 1, (0, 1)))
    for event in (
        BettingOpened(1, 0),
        BetPlaced(0, 50),
        Called(1, 50, False),
        HandEnded(
            HandResult(
                (0, 1), (1000, 1000), (950, 1050), (PotAward(Pot(100, (0, 1)), (1,), (100,)),)
            )
        ),
    ):
        log.take(event)
    history = log.close(_summary((PotSummary(100, (0, 1), (1,)),), ()))
    assert history.returned == () and [p.amount for p in history.pots] == [100]


# --- JSON: always one object, and the schema -------------------------------------------------


def _outputs(tmp_path: Path) -> list[str]:
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(HONEST.read_bytes()[:-100])
    sources = [*sorted(DIR.glob("*.jsonl")), empty, cut, tmp_path / "none.jsonl", tmp_path]
    return [report_json(verify_file(s)) for s in sources] + [bug_json("x.jsonl", "KeyError: 1")]


def test_every_output_is_one_object_the_schema_accepts(tmp_path: Path) -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    seen = set()
    for text in _outputs(tmp_path):
        assert "\n" not in text
        obj = json.loads(text)
        VALIDATOR.validate(obj)
        seen.add(obj["verdict"])
        assert (obj["error"] is None) == (obj["verdict"] == "valid")
    assert seen == {v.value for v in Verdict} | {"bug"}


def test_the_schema_refuses_what_is_not_a_report(honest: VerifyReport) -> None:
    good = report_object(honest)
    assert VALIDATOR.is_valid(good)
    for key in ("verdict", "error", "table", "players", "stacks"):
        assert not VALIDATOR.is_valid({k: v for k, v in good.items() if k != key}), key
    assert not VALIDATOR.is_valid({**good, "verdict": "fine"})
    assert not VALIDATOR.is_valid({**good, "error": {"reason": "x"}})
    assert not VALIDATOR.is_valid({**good, "verdict": "invalid", "error": None})


def test_json_holds_the_table_players_and_final_stacks(honest: VerifyReport) -> None:
    obj = json.loads(report_json(honest))
    assert obj["verdict"] == "valid" and obj["error"] is None
    assert obj["table"] == honest.table and obj["complete_hands"] == 2
    assert [p["name"] for p in obj["players"]] == [n for _, n in honest.players]
    assert {s["seat"]: s["final"] for s in obj["stacks"]} == {
        st.seat: st.final for st in honest.stacks
    }
    for hand in obj["hands"]:
        assert sum(hand["chips"].values()) == 0
        assert all(len(t["seats"]) == 2 and t["cards"] >= 1 for t in hand["trades"])
        assert all(all(len(c) == 2 for c in cards) for cards in hand["shown"].values())


def test_json_holds_each_round_the_trading_and_the_settings(honest: VerifyReport) -> None:
    obj = json.loads(report_json(honest))
    assert honest.config is not None
    assert obj["config"]["structure"] == honest.config.structure.value
    assert obj["config"]["trade_tokens"] == honest.config.trade_tokens
    for hand, history in zip(obj["hands"], honest.hands, strict=True):
        assert hand["trading"]["closed"] == history.trading_closed
        assert [r["number"] for r in hand["rounds"]] == [r.number for r in history.rounds]
        turned: dict[str, list[str]] = {}
        for r in hand["rounds"]:
            for t in r["turned"]:
                turned.setdefault(str(t["seat"]), []).append(t["card"])
        assert turned == hand["shown"]
        bets = {seat: 0 for seat in hand["seats"]}
        for r in hand["rounds"]:
            for a in r["actions"]:
                bets[a["seat"]] += a["chips"]
        assert bets == dict(history.bets)
        for pot in hand["pots"]:
            assert sum(pot["shares"]) == pot["amount"]
            assert len(pot["shares"]) == len(pot["winners"])
    assert json.loads(report_json(verify_transcript(b"")))["config"] is None


def test_an_invalid_transcript_names_line_author_and_reason_in_json() -> None:
    obj = json.loads(report_json(verify_file(DIR / "bad-signature.jsonl")))
    assert obj["verdict"] == "invalid"
    assert obj["error"]["line"] == 20 and isinstance(obj["error"]["author"], int)
    assert obj["error"]["author_signed"] is False and "bad-signature" in obj["error"]["reason"]


def test_no_reason_shows_internal_names() -> None:
    for path in sorted(DIR.glob("*.jsonl")):
        report = verify_file(path)
        text = report_text(report) + report_brief(report)
        for internal in ("Traceback", "Error", "<", "0x", "self.", "()", "_check"):
            assert internal not in text, (path.name, internal)
    assert "best_hand" not in str(verify_transcript(b"").error)


def test_the_game_end_and_who_wrote_it_are_reported(honest: VerifyReport) -> None:
    assert honest.ended_by is not None
    writer = honest.name(honest.ended_by)
    line = (
        f"The game's end was written after hand 2 by {writer}: signed by every player at the table."
    )
    assert line in report_text(honest)
    cut = verify_file(DIR / "no-game-end.jsonl")
    assert cut.ended_by is None and "The game was ended" not in report_text(cut)


Answer = tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]
"""An answer to an offer in a transcript (a decline, a withdrawal), the offer, and the
events `--json` lists for the answer's hand."""


def _answers(data: bytes, report: VerifyReport, kind: str) -> tuple[list[Answer], str]:
    """Every `kind` entry of the transcript `data` with its offer and its hand's events in
    `report`'s --json (which the schema accepts), and the report's text."""
    lines = [json.loads(line) for line in data.decode("utf-8").splitlines()]
    offers = {e["seq"]: e for e in lines if e["kind"] == "offer"}
    answers = [e for e in lines if e["kind"] == kind]
    assert answers, f"the game has a {kind}"
    obj = report_object(report)
    VALIDATOR.validate(obj)
    events = {h["number"]: h["events"] for h in obj["hands"]}  # type: ignore[attr-defined]
    found = [(a, offers[a["body"]["offer"]], events[a["hand"]]) for a in answers]
    return found, report_text(report)


def _of(cards: int) -> str:
    return "1 card" if cards == 1 else f"{cards} cards"


def test_each_declined_offer_is_in_the_report(honest: VerifyReport) -> None:
    """Every `decline` of the transcript is an event of its hand, naming who declined whose
    offer of how many cards, in the text and in --json (SPEC 7.6)."""
    found, text = _answers(HONEST.read_bytes(), honest, "decline")
    for d, offer, events in found:
        cards = offer["body"]["k"]
        event = {
            "kind": "declined",
            "seat": d["author"],
            "offerer": offer["author"],
            "cards": cards,
        }
        assert event in events, events
        by = f"{honest.name(d['author'])} declined {honest.name(offer['author'])}'s offer"
        assert f"{by} of {_of(cards)}" in text


def _withdrawing(seat: int) -> Decider:
    """A bot that withdraws its open offer whenever it may (free trading)."""
    bot = bot_decider(seat, random.Random(seat), samples=SAMPLES)

    def decide(session: Session) -> Decision | None:
        hand = session.hand
        if hand is not None and ActionKind.WITHDRAW in hand.legal_actions(seat):
            return Decision(ActionKind.WITHDRAW)
        return bot(session)

    return decide


def test_each_withdrawn_offer_is_in_the_report() -> None:
    """A game played through real sessions in which players withdraw their offers: every
    `withdraw` of its transcript is an event of its hand, naming who withdrew an offer of how
    many cards, in the text and in --json (SPEC 7.6)."""
    table = new_table(3, 1, deciders={s: _withdrawing(s) for s in range(3)})
    assert table.play(2) == 2
    table.end_game()
    data = b"".join(table.lines)
    report = verify_transcript(data)
    assert report.valid, report.error
    found, text = _answers(data, report, "withdraw")
    for w, offer, events in found:
        assert offer["author"] == w["author"]
        event = {"kind": "withdrawn", "seat": w["author"], "cards": offer["body"]["k"]}
        assert event in events, events
        assert f"{report.name(w['author'])} withdrew an offer of {_of(offer['body']['k'])}" in text
    # and no more: one event for each withdrawal
    by_hand = {w["hand"]: events for w, _, events in found}
    assert sum(e["kind"] == "withdrawn" for ev in by_hand.values() for e in ev) == len(found)
