"""`willow verify` on the split-pot games (SPEC 3.16, 7.6): for each hand the declarations
(sealed, then opened together, before the bet after them), each pot's high and low winners
with their chips and hands, the pigs that failed, a pot nobody won carried over to the next
hand and the carry in that hand's main pot, and at the game's end the carry shared out among
the players of the last hand, in text, JSON (with its schema) and HTML. Transcripts of real
in-process tables whose players declare as a test that sees every hand chooses: fixed
declarations, or ones with which nobody wins."""

from __future__ import annotations

import functools
import html
import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from session_helpers import make_rng
from split_plan import Plan

from p2pwillow.games import CATALOGUE
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.entry import decode_entry
from p2pwillow.rules import ActionKind, Announcement, Decision, Phase, TableConfig
from p2pwillow.rules.events import PotSplit
from p2pwillow.session import Session
from p2pwillow.table import Table
from p2pwillow.verify import Verdict, VerifyReport, report_object, report_text, verify_transcript
from p2pwillow.verify.html import report_html

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads(
    (ROOT / "protocol" / "schemas" / "reports" / "verify-report.json").read_text("utf-8")
)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
GAME = "holdem-high-low"
FIXED = {0: "low", 1: "high", 2: "pig"}


@functools.cache
def _played(kind: str, game: str = GAME) -> tuple[Table, tuple[PotSplit, ...], tuple[int, ...]]:
    """A game of `game` at three seats, and every pot as the rules split it, hand by hand:
    `fixed`: two hands declared low, high and pig; `carried-in`: hands until one is left to
    nobody, then one everyone declares high (its main pot holds the carry); `carried-out`:
    hands until one is left to nobody, and the game ends after it; `cut`: the same without
    the game's end. Returns the table, every PotSplit and the hands carried over."""
    spec = CATALOGUE[game]
    tables: list[Table] = []
    fixed = kind == "fixed"
    plan = Plan(
        lambda: tables[0].sessions, fixed=FIXED if fixed else None, carry=not fixed, carries=1
    )
    splits: list[PotSplit] = []

    def announce(session: Session) -> Decision | None:
        hand = session.hand
        assert hand is not None
        if hand.phase is Phase.ANNOUNCE:
            return Decision(ActionKind.ANNOUNCE, announcement=Announcement.of(spec))
        return None

    table = Table(
        3,
        config=TableConfig(seats=3, games=(game,)),
        seed=2,
        rng=make_rng(f"verify-split/{kind}/{game}"),
        deciders={s: plan.decider(s, announce) for s in range(3)},
        samples=20,
    )
    tables.append(table)

    def play() -> None:
        assert table.play(1) == 1
        hand = table.sessions[0].hand
        assert hand is not None
        splits.extend(ev for ev in hand.events if isinstance(ev, PotSplit))

    if fixed:
        play()
        play()
    else:
        while not plan.carried:
            play()
            assert table.sessions[0].hand_number < 10, "no hand could be left to nobody"
        if kind == "carried-in":
            play()
    if kind != "cut":
        table.end_game()
    return table, tuple(splits), tuple(plan.carried)


@functools.cache
def _verified(kind: str) -> VerifyReport:
    table, _, _ = _played(kind)
    report = verify_transcript(b"".join(table.lines), kind)
    expected = Verdict.NOT_CLOSED if kind == "cut" else Verdict.VALID
    assert report.verdict is expected, report.error
    return report


def _object(kind: str) -> Any:
    obj = report_object(_verified(kind))
    VALIDATOR.validate(obj)
    return obj


def _text(kind: str) -> list[str]:
    return report_text(_verified(kind), legend=False).splitlines()


def _hand_lines(lines: list[str], number: int) -> list[str]:
    start = next(i for i, ln in enumerate(lines) if ln.startswith(f"Hand {number}: "))
    end = next((i for i in range(start + 1, len(lines)) if not lines[i]), len(lines))
    return lines[start:end]


# --- the declarations and the pots ---------------------------------------------------------------


def test_the_json_holds_every_declaration_and_each_pots_sides() -> None:
    table, splits, _ = _played("fixed")
    obj = _object("fixed")
    names = {p["seat"]: p["name"] for p in obj["players"]}
    pots = [p for h in obj["hands"] for p in h["pots"]]
    assert len(pots) == len(splits) > 0
    for h in obj["hands"]:
        assert h["sides"] == {"high": "high", "low": "eight-or-better"}
        assert h["formation"] == "holdem"  # a game dealt from the live deck
        assert sorted(h["sealed"]) == [0, 1, 2]
        assert sorted((d["seat"], d["choice"]) for d in h["declared"]) == sorted(FIXED.items())
        for sh in h["showdown"]:
            high, low = sh["sides"]
            assert sh["hand"] == f"{high}; {low}"
            assert low == "no low" or low.endswith(" low") or " low (" in low, sh
    for p, ev in zip(pots, splits, strict=True):
        # each pot as the rules split it
        assert (p["amount"], p["eligible"]) == (ev.amount, list(ev.eligible))
        assert (p["high"], p["low"]) == (list(ev.high), list(ev.low))
        assert (p["pigs_failed"], p["carried"]) == (list(ev.pigs_failed), ev.carried)
        assert sum(p["shares"]) + p["carried"] == p["amount"]
        assert set(p["winners"]) == set(ev.high) | set(ev.low)
    text = _text("fixed")
    for h in obj["hands"]:
        lines = _hand_lines(text, h["number"])
        said = ", ".join(
            f"{names[d['seat']]} {'pig (both ways)' if d['choice'] == 'pig' else d['choice']}"
            for d in h["declared"]
        )
        declared = lines.index(f"  Declarations, sealed then opened together: {said}.")
        # after the river's betting, before the round after the declaration
        assert lines[declared - 1].startswith("  River: "), lines
        assert lines[declared + 1].startswith("  Round 5: "), lines
        for p in h["pots"]:
            pot = next(ln for ln in lines if f"of {p['amount']} (contested by " in ln)
            if p["pigs_failed"]:
                assert "went pig and did not win both ways" in pot, pot
            for side in ("high", "low"):
                if p[side]:
                    who = " and ".join(names[s] for s in p[side])
                    assert re.search(rf"{side}: {who} (wins|split) \d+ with ", pot), pot
                elif not p["carried"]:
                    assert f"nobody wins {side}" in pot, pot
    assert table.sessions[0].summaries[-1].declared  # (the session's record, for the report)


def test_a_pot_nobody_wins_carries_into_the_next_hand() -> None:
    _, splits, carried = _played("carried-in")
    obj = _object("carried-in")
    hands = {h["number"]: h for h in obj["hands"]}
    number = carried[0]
    left = hands[number]
    carry = left["carried"]
    assert carry > 0 and all(p["carried"] == p["amount"] for p in left["pots"])
    assert all(not p["winners"] and not p["shares"] for p in left["pots"])
    nxt = hands[number + 1]
    assert nxt["carried_in"] == carry and nxt["carried"] == 0
    # everyone declared high: the best high takes the whole main pot, the carry with it
    main = nxt["pots"][0]
    assert main["winners"] == main["high"] and not main["low"] and not main["carried"]
    assert main["amount"] >= carry + 3 * 25  # the carry and the antes, dead money
    assert all(h["carried_in"] == 0 for h in obj["hands"] if h["number"] <= number)
    assert obj["chips"]["carried"] == 0 and obj["carry_shared"] is None
    text = _text("carried-in")
    lines = _hand_lines(text, number)
    assert any(
        (
            ln.startswith(f"  Nobody wins the pot of {carry} (contested by ")
            and ln.endswith("it carries over to the next hand")
        )
        or "it carries over to the next hand; " in ln
        for ln in lines
    ), lines
    following = _hand_lines(text, number + 1)
    assert following[1] == (
        f"  Carried in: {carry} chips of the last hand's pot, which nobody won, are in this "
        "hand's main pot"
    ), following
    assert any("nobody wins low" in ln and "high: " in ln for ln in following), following
    assert "Chips: 3000 bought in; 3000 at the table: every chip accounted for." in text
    assert splits


def test_the_games_end_shares_out_the_pot_nobody_won() -> None:
    table, _, carried = _played("carried-out")
    report = _verified("carried-out")
    obj = _object("carried-out")
    last = obj["hands"][-1]
    assert last["number"] == carried[-1] and last["carried"] > 0
    carry = last["carried"]
    shared = obj["carry_shared"]
    assert shared["hand"] == last["number"] and shared["amount"] == carry
    assert sum(x["amount"] for x in shared["shares"]) == carry
    assert sorted(x["seat"] for x in shared["shares"]) == sorted(last["seats"])
    # the final stacks are the game_end's: the stacks after the last hand and each share
    end = decode_entry(table.lines[-4].rstrip(b"\n"))
    ends = [decode_entry(line.rstrip(b"\n")) for line in table.lines]
    game_end = next(e.body for e in ends if isinstance(e.body, k.GameEnd))
    named = {p.seat: p.stack for p in game_end.players}
    shares = {x["seat"]: x["amount"] for x in shared["shares"]}
    for st in obj["stacks"]:
        assert (
            st["final"]
            == named[st["seat"]]
            == last["stacks"][str(st["seat"])] + shares.get(st["seat"], 0)
        )
    assert obj["chips"] == {"bought_in": 3000, "at_table": 3000, "left": 0, "carried": 0}
    assert end is not None
    text = report_text(report, legend=False)
    who = ", ".join(f"{report.name(x['seat'])} {x['amount']}" for x in shared["shares"])
    assert (
        f"The {carry} chips of hand {last['number']}'s pot, which nobody won, were shared out at "
        f"the game's end among the players of that hand: {who} (in the final stacks above)."
    ) in text, text
    assert "Chips: 3000 bought in; 3000 at the table: every chip accounted for." in text


def test_a_game_cut_off_with_a_carry_counts_it() -> None:
    obj = _object("cut")
    carry = obj["hands"][-1]["carried"]
    assert carry > 0 and obj["carry_shared"] is None
    assert obj["chips"]["carried"] == carry
    assert obj["chips"]["at_table"] + carry == obj["chips"]["bought_in"]
    text = "\n".join(_text("cut"))
    assert (
        f"3000 bought in; {3000 - carry} at the table and {carry} in a pot nobody has won yet, "
        "carried over: every chip accounted for."
    ) in text, text


# --- the page ------------------------------------------------------------------------------------


def _page_text(kind: str) -> str:
    page = report_html(_object(kind))
    words = re.sub(r"<style.*?</style>|<script.*?</script>", "", page, flags=re.S)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", words)))


def test_the_page_steps_through_the_declaration_and_the_carry() -> None:
    obj = _object("carried-in")
    page = _page_text("carried-in")
    assert "The declaration" in page
    assert "then all opened together: nobody saw another's before sealing its own." in page
    names = {p["seat"]: p["name"] for p in obj["players"]}
    for h in obj["hands"]:
        for d in h["declared"]:
            said = "pig (both ways)" if d["choice"] == "pig" else d["choice"]
            assert f"{names[d['seat']]} declares {said}." in page, d
    carried = next(h for h in obj["hands"] if h["carried"])
    assert f"nobody wins: {carried['carried']} carries over to the next hand" in page
    assert f"{carried['carried']} carried over from the last hand, in the main pot" in page
    assert "a pot nobody wins carries over to the next hand" in page  # what was checked
    out = _page_text("carried-out")
    shared = _object("carried-out")["carry_shared"]
    assert "pot, which nobody won, were shared out at the game's end: " in out
    assert f"hand {shared['hand']}'s pot" in out


@pytest.mark.parametrize("kind", ["fixed", "carried-in", "carried-out", "cut"])
def test_every_report_matches_the_schema(kind: str) -> None:
    obj = _object(kind)
    assert all("sides" in h for h in obj["hands"])
    assert all({"carried_in", "carried"} <= set(h) for h in obj["hands"])
