"""`willow verify` on games dealt from the live deck (SPEC 3.15, 7.6): the report names each
hand's game, says what every street dealt (the up cards by seat, the board), the betting, the
showdown with each player's shown cards and the hand its formation makes, folds with release as
folds, the forfeit settlement in plain words, what stays secret and the proofs by what they
prove, in text, JSON (with its schema) and HTML; a tampered street share, show or release makes
the transcript invalid at that entry."""

from __future__ import annotations

import dataclasses
import functools
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from markupsafe import escape
from session_helpers import make_rng, resign

from p2pwillow.crypto.group import G
from p2pwillow.evaluators import describe_high
from p2pwillow.games import CATALOGUE
from p2pwillow.ledger import Body
from p2pwillow.ledger import kinds as k
from p2pwillow.rules import ActionKind, Announcement, Decision, GameSpec, Phase, TableConfig
from p2pwillow.rules.live import Formation, hand_value
from p2pwillow.session import Session
from p2pwillow.table import Decider, Table
from p2pwillow.verify import (
    EXIT_INVALID,
    Verdict,
    VerifyReport,
    report_object,
    report_text,
    verify_file,
    verify_transcript,
)
from p2pwillow.verify.html import report_html
from p2pwillow.verify.text import hand_text

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads(
    (ROOT / "protocol" / "schemas" / "reports" / "verify-report.json").read_text("utf-8")
)
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
HONEST = ROOT / "protocol" / "transcripts" / "honest-3p-2h.jsonl"

GAMES = ("holdem", "omaha", "seven-card-stud", "five-card-stud")
STREETS = {
    "holdem": ("Preflop", "Flop", "Turn", "River"),
    "omaha": ("Preflop", "Flop", "Turn", "River"),
    "seven-card-stud": (
        "Third street",
        "Fourth street",
        "Fifth street",
        "Sixth street",
        "Seventh street",
    ),
    "five-card-stud": ("Second street", "Third street", "Fourth street", "Fifth street"),
}
FOLDER = 2
"""The seat that folds at its first decision of every hand (a fold with its release)."""
AWAY = 1
"""In the forfeit game, the seat whose clock runs out in the first betting round."""


def _decider(game: GameSpec, seat: int, *, away: bool = False) -> Decider:
    """Announces `game`; seat FOLDER folds at once, the others bet the least when they open
    and call or check after, so every hand goes to a showdown. `away`: decides nothing in
    betting (its clock runs out: a fold without its release)."""

    def decide(session: Session) -> Decision | None:
        hand = session.hand
        assert hand is not None and session.seat is not None
        if hand.phase is Phase.ANNOUNCE:
            return Decision(ActionKind.ANNOUNCE, announcement=Announcement.of(game))
        if away and hand.phase is Phase.BETTING:
            return None
        legal = hand.legal_actions(seat)
        if seat == FOLDER and ActionKind.FOLD in legal:
            return Decision(ActionKind.FOLD)
        o = hand.bet_options(seat)
        if ActionKind.BET in legal and o is not None and o.bet_min is not None:
            return Decision(ActionKind.BET, amount=o.bet_min)
        if ActionKind.CALL in legal:
            return Decision(ActionKind.CALL)
        return Decision(ActionKind.CHECK)

    return decide


@functools.cache
def played(name: str, hands: int = 2, *, forfeit: bool = False) -> Table:
    game = CATALOGUE[name]
    players = 4 if forfeit else 3
    table = Table(
        players,
        config=TableConfig(seats=players, games=(name,), ante=5),
        seed=1,
        rng=make_rng(f"verify-live/{name}/{forfeit}"),
        deciders={s: _decider(game, s, away=forfeit and s == AWAY) for s in range(players)},
    )
    assert table.play(hands) == hands
    table.end_game()
    return table


@functools.cache
def verified(name: str) -> VerifyReport:
    report = verify_transcript(b"".join(played(name).lines), name)
    assert report.verdict is Verdict.VALID, report.error
    return report


def _kinds(table: Table) -> Counter[str]:
    return Counter(e.kind for e in table.transcript)


# --- text --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_the_text_names_the_game_every_street_and_what_it_dealt(name: str) -> None:
    report = verified(name)
    text = report_text(report, legend=False)
    title = CATALOGUE[name].title
    obj: Any = report_object(report)
    for hand in obj["hands"]:
        assert hand["game"] == name
        assert re.search(rf"Hand {hand['number']}: \S.* deals {re.escape(title)} to ", text)
        assert [st["name"] for st in hand["streets"]] == list(STREETS[name])
        for st in hand["streets"]:
            ups = ", ".join(f"{report.name(u['seat'])} {' '.join(u['cards'])}" for u in st["up"])
            assert f"  {st['name']}: " in text
            if ups:
                assert ups in text, (st, ups)
    # no word of Weeping Willow's layouts and tokens, nor of private deal shares
    assert "no card turned" not in text and "Round 1:" not in text
    assert "trade token" not in text and "deal share" not in text
    assert "showing " not in text


@pytest.mark.parametrize("name", ["holdem", "omaha"])
def test_the_board_is_named_street_by_street(name: str) -> None:
    report = verified(name)
    text = report_text(report, legend=False)
    for h in report.hands:
        board = [c.ascii for c in h.board]
        assert len(board) == 5
        assert f"  Flop: {' '.join(board[:3])}." in text
        assert f"  Turn: {board[3]} (the board: {' '.join(board[:4])})" in text
        assert f"  River: {board[4]} (the board: {' '.join(board)})" in text
        assert f"  Showdown, the board {' '.join(board)}:" in text


@pytest.mark.parametrize("name", GAMES)
def test_the_showdown_names_the_hand_each_formation_makes(name: str) -> None:
    report = verified(name)
    text = report_text(report, legend=False)
    formation = {"holdem": Formation.HOLDEM, "omaha": Formation.OMAHA}.get(
        name, Formation.BEST_FIVE
    )
    showdowns = 0
    for h in report.hands:
        assert h.formation == formation.value
        assert len(h.showdown) == 2  # the folder is out, the others showed down
        lines = hand_text(h, report.name, lambda c: c.ascii)
        for sh in h.showdown:
            value = describe_high(hand_value(formation, sh.cards, h.board))
            assert sh.value == value
            assert sh.shows and set(sh.shows) <= set(sh.cards)
            line = next(x for x in lines if x.startswith(f"    {report.name(sh.seat)} "))
            assert f"shows {' '.join(c.ascii for c in sh.shows)}" in line
            assert line.endswith(value)
            if name.endswith("stud"):
                assert f"up {' '.join(c.ascii for c in sh.up)}" in line
            showdowns += 1
        won = h.pots[0]
        assert f"with {dict((s.seat, s.value) for s in h.showdown)[won.winners[0]]}" in text
    assert showdowns == 2 * len(report.hands)


@pytest.mark.parametrize("name", ["holdem", "seven-card-stud"])
def test_folds_with_release_are_folds_and_proofs_are_named(name: str) -> None:
    report = verified(name)
    text = report_text(report)
    kinds = _kinds(played(name))
    assert kinds["fold_release"] == len(report.hands)
    assert text.count(f"{report.name(FOLDER)} folds") == len(report.hands)
    totals: Counter[str] = Counter()
    for h in report.hands:
        totals.update(dict(h.proofs))
        counts = dict(h.proofs)
        assert "dleq-batch" not in counts
        line = (
            f"  Proofs checked: 3 hand keys, 3 shuffles, {counts['street-shares']} street "
            f"shares, 1 fold release, 2 shows"
        )
        assert line in text
    assert totals["street-shares"] == kinds["street_shares"]
    assert totals["show"] == kinds["show"]
    assert totals["fold-release"] == kinds["fold_release"]
    assert "street shares (dleq-batch)" in text and "fold releases (dleq-batch)" in text


@pytest.mark.parametrize("name", GAMES)
def test_what_stays_secret_counts_the_board_and_up_cards_as_turned(name: str) -> None:
    report = verified(name)
    text = report_text(report, legend=False)
    for h in report.hands:
        seen = {c for st in h.streets for _, cards in st.up for c in cards}
        seen |= set(h.board) | {c for sh in h.showdown for c in sh.cards}
        assert h.summary.hidden == 52 - len(seen)
        assert f"  Stay secret: {52 - len(seen)} of the 52 cards" in text


def test_a_table_of_live_deck_games_has_no_trade_tokens() -> None:
    text = report_text(verified("holdem"), legend=False)
    header = text.splitlines()[1]
    assert "trade token" not in header and "Texas Hold'em" in header


# --- the forfeit settlement --------------------------------------------------------------------


@functools.cache
def forfeited() -> VerifyReport:
    table = played("holdem", 1, forfeit=True)
    report = verify_transcript(b"".join(table.lines), "forfeit")
    assert report.verdict is Verdict.VALID, report.error
    return report


def test_a_forfeit_is_said_in_plain_words() -> None:
    report = forfeited()
    (h,) = report.hands
    f = h.forfeit
    assert f is not None and f.silent == (AWAY,)
    text = report_text(report, legend=False)
    who = report.name(AWAY)
    assert (
        f"  Forfeit: the deck cannot deal on without {who}, who left the hand without "
        "releasing its key, so the hand ends here." in text
    )
    assert f"{who} forfeits the {f.amount} it put in, shared by the players still in" in text
    assert "everyone else takes back what they put in" in text
    assert not h.showdown and "Uncalled bet" not in text and "wins the pot" not in text
    # each default the clock took is one action, marked, not listed again
    assert f"{who} checks (the clock ran out); " in text and f"{who} checks;" not in text
    assert text.count(f"{who} folds") == 1
    # the chips: the silent player loses what it put in, nothing more
    chips = dict(h.summary.chips)
    assert chips[AWAY] == -f.amount and sum(chips.values()) == 0
    assert sorted(f.shared_by) == sorted(s for s in h.summary.seats if s not in (AWAY, FOLDER))
    obj: Any = report_object(report)
    VALIDATOR.validate(obj)
    assert obj["hands"][0]["forfeit"]["silent"] == [AWAY]
    assert obj["hands"][0]["forfeit"]["amount"] == f.amount
    page = report_html(obj)
    assert "Forfeit: the deck could not deal on without" in page


def test_a_seat_blamed_for_the_first_deal_pays_its_ante_and_the_report_says_so() -> None:
    game = CATALOGUE["holdem"]
    table = Table(
        4,
        config=TableConfig(seats=4, games=("holdem",), ante=5),
        seed=3,
        rng=make_rng("verify-live/abort"),
        deciders={s: _decider(game, s) for s in range(4)},
    )
    table.muted.add(3)  # silent at the first deal: its shares never come
    table.play(1)
    report = verify_transcript(b"".join(table.lines), "abort")
    assert report.verdict is Verdict.NOT_CLOSED  # the silent seat never signs the game's end
    h = report.hands[0]
    assert h.summary.aborted and h.summary.blamed == (3,)
    text = report_text(report, legend=False)
    assert "bot 3 pays its ante to the others, no free look at the deal: " in text
    assert "Every stack is back where it was" not in text
    page = report_html(report_object(report))
    assert "Aborted: bot 3 paid the ante to the others" in page


# --- JSON and its schema -----------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_the_json_report_holds_streets_board_and_showdown_and_the_schema_accepts_it(
    name: str,
) -> None:
    report = verified(name)
    obj: Any = report_object(report)
    VALIDATOR.validate(obj)
    for hand, h in zip(obj["hands"], report.hands, strict=True):
        assert hand["formation"] == h.formation
        assert hand["board"] == [c for st in hand["streets"] for c in st["board"]]
        assert [st["round"] for st in hand["streets"]] == [r["number"] for r in hand["rounds"]]
        if name.endswith("stud"):  # every up card after the first deal to the two still in
            for st in hand["streets"][1:4]:
                assert {u["seat"] for u in st["up"]} == {s for s in hand["seats"] if s != FOLDER}
        for sh in hand["showdown"]:
            assert sh["cards"] == sh["up"] + sh["shows"]
        assert hand["forfeit"] is None
        assert "dleq-batch" not in hand["proofs"] and hand["proofs"]["show"] == 2


def test_the_schema_refuses_a_live_hand_with_a_bad_street() -> None:
    obj: Any = report_object(verified("holdem"))
    bad = json.loads(json.dumps(obj))
    bad["hands"][0]["streets"][1]["board"] = ["Xx"]
    assert not VALIDATOR.is_valid(bad)
    bad = json.loads(json.dumps(obj))
    del bad["hands"][0]["streets"][0]["name"]
    assert not VALIDATOR.is_valid(bad)


def test_a_weeping_willow_report_has_no_live_deck_fields() -> None:
    obj: Any = report_object(verify_file(HONEST))
    for hand in obj["hands"]:
        assert not {"formation", "board", "streets", "forfeit"} & set(hand)
        for sh in hand["showdown"]:
            assert set(sh) == {"seat", "cards", "hand"}


# --- HTML --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["holdem", "seven-card-stud"])
def test_the_page_replays_each_street_and_the_showdown(name: str) -> None:
    report = verified(name)
    obj: Any = report_object(report)
    page = report_html(obj)
    assert str(escape(CATALOGUE[name].title)) in page
    for street in STREETS[name]:
        assert f">{street}</button>" in page
    assert "Round 1" not in page and "laid out" not in page and "deal shares" not in page
    assert "street shares" in page and "fold releases" in page
    for hand in obj["hands"]:
        for sh in hand["showdown"]:
            assert f": {sh['hand']}" in page
        for c in hand["board"]:
            assert f'data-card="{c}"' in page


# --- tampered entries --------------------------------------------------------------------------


def _first(table: Table, kind: str, ok: Any = lambda e: True) -> int:
    return next(n for n, e in enumerate(table.transcript) if e.kind == kind and ok(e))


def _street_share(table: Table) -> tuple[int, Body]:
    i = _first(
        table,
        "street_shares",
        lambda e: isinstance(e.body, k.StreetShares) and e.body.step > 0,
    )
    body = table.transcript[i].body
    assert isinstance(body, k.StreetShares)
    shares = list(body.shares)
    shares[0] = dataclasses.replace(shares[0], share=G.mul_public(7).hex())
    return i, dataclasses.replace(body, shares=shares)


def _show(table: Table) -> tuple[int, Body]:
    i = _first(table, "show")
    body = table.transcript[i].body
    assert isinstance(body, k.Show)
    cards = list(body.cards)
    cards[0] = dataclasses.replace(cards[0], share=G.mul_public(11).hex())
    return i, dataclasses.replace(body, cards=cards)


def _release(table: Table) -> tuple[int, Body]:
    i = _first(table, "fold_release")
    body = table.transcript[i].body
    assert isinstance(body, k.FoldRelease)
    return i, dataclasses.replace(body, shares=[G.mul_public(3).hex(), *body.shares[1:]])


TAMPER = {"street_shares": _street_share, "show": _show, "fold_release": _release}


@pytest.mark.parametrize("kind", sorted(TAMPER))
def test_a_tampered_live_deck_entry_makes_the_transcript_invalid_there(
    kind: str, tmp_path: Path
) -> None:
    table = played("holdem")
    i, body = TAMPER[kind](table)
    bad = resign(table, table.transcript[i], body=body)
    lines = list(table.lines)
    lines[i] = bad.encode() + b"\n"
    data = b"".join(lines)
    report = verify_transcript(data, "tampered")
    assert report.verdict is Verdict.INVALID
    assert report.error is not None
    assert report.error.line == i + 1 and report.error.kind == kind
    assert report.error.reason.startswith("bad-proof: "), report.error.reason
    assert report.error.author == bad.author and report.error.author_signed
    path = tmp_path / "tampered.jsonl"
    path.write_bytes(data)
    result = subprocess.run(
        [sys.executable, "-m", "p2pwillow", "verify", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        check=False,
    )
    assert result.returncode == EXIT_INVALID, result.stderr
    out = result.stdout
    assert out.count("INVALID at line") == 1
    assert f"INVALID at line {i + 1}: bad-proof: " in out
    assert f"The {kind} entry is by {report.name(bad.author)}, who signed it." in out


# --- five-card draw ------------------------------------------------------------------------


def _drawer(seat: int) -> Decider:
    """Five-card draw: everyone checks or calls; seat 0 discards its first two cards in the
    draw, the others stand pat."""
    game = CATALOGUE["five-card-draw"]
    bettor = _decider(game, seat)

    def decide(session: Session) -> Decision | None:
        hand = session.hand
        if hand is not None and hand.phase is Phase.DRAW:
            return Decision(ActionKind.DRAW, positions=(0, 1) if seat == 0 else ())
        return bettor(session)

    return decide


@functools.cache
def drawn() -> Table:
    table = Table(
        3,
        config=TableConfig(seats=3, games=("five-card-draw",), ante=5),
        seed=1,
        rng=make_rng("verify-live/draw"),
        deciders={s: _drawer(s) for s in range(3)},
    )
    assert table.play(2) == 2
    table.end_game()
    return table


def test_a_draw_says_who_drew_how_many_and_counts_the_discards() -> None:
    report = verify_transcript(b"".join(drawn().lines), "draw")
    assert report.verdict is Verdict.VALID, report.error
    text = report_text(report, legend=False)
    obj: Any = report_object(report)
    VALIDATOR.validate(obj)
    assert "discarded cards (reencryption)" in report_text(report, legend=True)
    for hand in obj["hands"]:
        names = [st["name"] for st in hand["streets"]]
        assert names == ["The deal", "The draw"]
        draw = hand["streets"][1]
        counts = {d["seat"]: d["count"] for d in draw["drawn"]}
        assert counts[0] == 2 and all(n == 0 for s, n in counts.items() if s != 0)
        assert hand["proofs"]["discard"] == 2
    assert f"{report.name(0)} draws 2" in text and "stands pat" in text
    assert "2 discarded cards" in text and "traded card" not in text
