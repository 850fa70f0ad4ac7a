"""`willow verify` on a game with a wash (SPEC 3.17): the report tells each hand's wash on one
line in the order the players washed (who kept its cards, who paid to wash a card face down,
which face-up card was washed and what replaced it, and for how much), and the wash's redeal
is no street of its own: no street or betting round is told twice. Transcripts of Go for
Broke played by bots, every choice and card seeded (tests/verify/seeded_game.py), checked
against the transcript's own wash entries."""

from __future__ import annotations

import re
from collections import defaultdict

from seeded_game import played

from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.entry import decode_entry
from p2pwillow.verify import Verdict, report_text, verify_transcript


def _washes(data: bytes) -> dict[int, list[str]]:
    """Each hand's washes in order, as the transcript's wash entries say them: "keeps",
    "down" or "up"."""
    out: dict[int, list[str]] = defaultdict(list)
    for line in data.splitlines():
        e = decode_entry(line)
        if isinstance(e.body, k.Wash):
            b = e.body
            out[e.hand].append("down" if b.cards else "up" if b.up else "keeps")
    return out


def _hands(text: str) -> dict[int, list[str]]:
    hands: dict[int, list[str]] = {}
    for block in re.split(r"\n(?=Hand \d+:)", text)[1:]:
        number = int(block.split(":")[0].split()[1])
        hands[number] = block.splitlines()
    return hands


def test_the_report_tells_each_wash_once_in_order() -> None:
    data, washes = b"", {}
    for seed in range(1, 6):
        data = played("go-for-broke", seed)
        washes = _washes(data)
        if any(w != "keeps" for ws in washes.values() for w in ws):
            break
    assert any(w != "keeps" for ws in washes.values() for w in ws), "no wash was paid for"
    report = verify_transcript(data)
    assert report.verdict is Verdict.VALID, report.error
    text = report_text(report)
    hands = _hands(text)
    for number, lines in hands.items():
        told = [ln for ln in lines if ln.startswith("  The wash: ")]
        ws = washes.get(number, [])
        if not ws:
            assert not told, lines
            continue
        assert len(told) == 1, lines
        clauses = told[0].removeprefix("  The wash: ").split(". ")[0].split("; ")
        kinds = []
        for clause in clauses:
            if clause.endswith(" keeps its cards"):
                kinds.append("keeps")
            elif re.search(r" pays \d+ and washes a card face down$", clause):
                kinds.append("down")
            else:
                assert re.search(r" pays \d+ and washes \S+ face up, dealt \S+ face up$", clause)
                kinds.append("up")
        assert kinds == ws, (kinds, ws, told)
        # the redeal is no street of its own, and no round is told twice
        streets = [ln.split(":")[0] for ln in lines if re.match(r"  \w+ street: ", ln)]
        assert len(streets) == len(set(streets)) and "  Sixth street" not in streets, lines
        rounds = re.findall(r"^  Round (\d+):", "\n".join(lines), re.M)
        assert len(rounds) == len(set(rounds)), lines
    prices = re.findall(r"pays (\d+) and washes (a card face down|\S+ face up)", text)
    for paid, what in prices:
        # Go for Broke's prices: two antes face up, four face down (SPEC 3.13.13)
        assert int(paid) == (100 if what == "a card face down" else 50), (paid, what)
