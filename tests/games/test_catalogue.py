"""The catalogue (SPEC 3.13): every game is a description the engine walks, SPEC holds each
description as the code declares it, every game plays through the in-process table and
`willow verify`, and a peer refuses a hand of a game it does not play by the same description."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from session_helpers import make_rng, resign

from p2pwillow.games import CATALOGUE, ROLL_YOUR_OWN, WEEPING_WILLOW, spec_hash
from p2pwillow.games import weeping_willow as ww
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.canonical import JsonValue
from p2pwillow.rules import (
    ActionKind,
    Announced,
    Announcement,
    AntesPosted,
    CardOp,
    GameSpec,
    Hand,
    IllegalAction,
    Opening,
    Phase,
    TableConfig,
)
from p2pwillow.rules.streets import Bet
from p2pwillow.table import Table
from p2pwillow.verify import Verdict, verify_transcript
from p2pwillow.verify.json_report import report_object

SPEC = (Path(__file__).resolve().parents[2] / "SPEC.md").read_text(encoding="utf-8")


def _spec_block(title: str) -> tuple[dict[str, object], str]:
    """The JSON description and the hash SPEC 3.13 gives under the heading `title`."""
    section = SPEC.split(f"### {title}\n", 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0]
    block = re.search(r"```json\n(.*?)\n```", section, re.S)
    digest = re.search(r"Hash\s+`([0-9a-f]{64})`", section)
    assert block is not None and digest is not None, title
    return json.loads(block.group(1)), digest.group(1)


@pytest.mark.parametrize("game", CATALOGUE.values(), ids=lambda g: g.name)
def test_spec_holds_each_description_as_the_code_declares_it(game: GameSpec) -> None:
    described, digest = _spec_block(f"3.13.{list(CATALOGUE).index(game.name) + 1} {game.title}")
    assert described == game.describe()
    assert digest == spec_hash(game)


def test_a_description_is_data_and_its_hash_follows_every_field() -> None:
    first_bet = ROLL_YOUR_OWN.script[3]
    assert isinstance(first_bet, Bet) and first_bet.opening is Opening.HIGH_CARD
    script = list(ROLL_YOUR_OWN.script)
    script[3] = dataclasses.replace(first_bet, opening=Opening.HIGH_HAND)
    changed = dataclasses.replace(ROLL_YOUR_OWN, script=tuple(script))
    assert changed.describe() != ROLL_YOUR_OWN.describe()
    assert spec_hash(changed) != spec_hash(ROLL_YOUR_OWN)
    assert json.loads(json.dumps(WEEPING_WILLOW.describe())) == WEEPING_WILLOW.describe()


def test_roll_your_own_is_weeping_willow_without_trading() -> None:
    without = tuple(s for s in WEEPING_WILLOW.script if s.PHASE is not Phase.TRADING)
    assert ROLL_YOUR_OWN.script == without
    assert not any(step.ACTIONS for step in ROLL_YOUR_OWN.script)
    hand = Hand(TableConfig(seats=3, games=(ROLL_YOUR_OWN.name,)), [0, 1, 2], [500] * 3, 0)
    hand.announce(0, Announcement.of(ROLL_YOUR_OWN, deal_size=6))
    assert hand.tokens(1) == 0 and hand.stack(1) == 475  # no token set aside: the ante
    assert hand.pot == 75
    assert [due.op for due in hand.ops()] == [CardOp.DEAL_DOWN] * 3
    hand.deal()
    assert hand.phase is Phase.LAYOUT and hand.hand_size(1) == 6
    with pytest.raises(IllegalAction, match="there is no offer in Roll Your Own"):
        hand.verify(ActionKind.OFFER, 1, 1)
    assert ActionKind.OFFER not in {row.kind for row in hand.rows}


def test_antes_are_dead_money_won_with_the_main_pot() -> None:
    cfg = TableConfig(seats=3, games=(ROLL_YOUR_OWN.name,), ante=25)
    hand = Hand(cfg, [0, 1, 2], [500, 10, 500], 0)
    event = hand.act(ActionKind.ANNOUNCE, 0, Announcement.of(ROLL_YOUR_OWN))
    posted = next(e for e in hand.events if isinstance(e, AntesPosted))
    assert isinstance(event, Announced)
    assert posted.posted == ((1, 10), (2, 25), (0, 25))  # a short stack posts all it has
    assert posted.words(str) == ("Antes: 1 10, 2 25, 0 25",)
    assert (hand.pot, hand.stack(1), hand.is_all_in(1)) == (60, 0, False)  # all in once it bets
    abort = hand.abort([2], "seat 2 sent no deal share")
    assert abort.result.final_stacks == (10, 500, 500)  # every ante goes back
    nothing = Hand(dataclasses.replace(cfg, ante=0), [0, 1], [500, 500], 0)
    nothing.announce(0, Announcement.of(ROLL_YOUR_OWN))
    assert nothing.pot == 0 and not any(isinstance(e, AntesPosted) for e in nothing.events)


def test_a_table_refuses_a_game_it_does_not_play() -> None:
    hand = Hand(TableConfig(seats=3), [0, 1, 2], [500] * 3, 0)
    with pytest.raises(IllegalAction, match="does not play Roll Your Own"):
        hand.announce(0, Announcement.of(ROLL_YOUR_OWN))
    assert hand.phase is Phase.ANNOUNCE
    hand.announce(0, ww.announcement(7))
    assert hand.to_act() == () and hand.game is WEEPING_WILLOW  # at the deal


def _game(name: str, hands: int = 2, players: int = 3) -> Table:
    config = TableConfig(seats=players, games=(name,))
    table = Table(players, config=config, seed=5, rng=make_rng(f"catalogue/{name}"), samples=40)
    assert table.play(hands) == hands
    table.end_game()
    return table


@pytest.mark.parametrize("name", list(CATALOGUE))
def test_every_game_plays_through_the_table_and_verifies(name: str) -> None:
    table = _game(name)
    report = verify_transcript(b"".join(table.lines), name)
    assert report.verdict is Verdict.VALID, report.error
    hands = report_object(report)["hands"]
    assert isinstance(hands, list) and len(hands) == 2
    assert all(hand["game"] == name for hand in hands)
    announced = [e for e in table.transcript if e.kind == k.AnnounceGame.KIND]
    assert len(announced) == 2
    for entry in announced:
        body = entry.body
        assert isinstance(body, k.AnnounceGame)
        assert (body.game, body.description) == (name, spec_hash(CATALOGUE[name]))
    trading = [e for e in table.transcript if e.kind in ("offer", "pass", "close_trading")]
    assert bool(trading) == (name == WEEPING_WILLOW.name)


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"game": "baseball"}, "does not know the game 'baseball'"),
        ({"description": "ab" * 32}, "another description of Roll Your Own"),
        ({"options": {"deal_size": 6, "trading_mode": "free"}}, "has no option trading_mode"),
    ],
)
def test_a_hand_announced_by_other_rules_does_not_verify(
    change: dict[str, JsonValue], why: str
) -> None:
    table = _game(ROLL_YOUR_OWN.name, hands=1)
    lines = list(table.lines)
    i = next(i for i, e in enumerate(table.transcript) if e.kind == k.AnnounceGame.KIND)
    entry = table.transcript[i]
    body = k.AnnounceGame.from_json({**entry.body.to_json(), **change})
    lines[i] = resign(table, entry, body=body).encode() + b"\n"
    report = verify_transcript(b"".join(lines[: i + 1]), "changed")
    assert report.verdict is Verdict.INVALID
    assert report.error is not None and why in report.error.reason
    assert report.error.line == i + 1
