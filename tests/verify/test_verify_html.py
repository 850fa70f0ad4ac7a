"""`willow verify --html`: the verified game as one web page.

The page is rendered in headless Chromium (Debian's package; `.ci/run` installs it) for a game
the bots play here, and its figures are read back from the rendered DOM and compared with the
`--json` report of the same run: the standings, each hand's winners and every point of the
stack chart. A transcript tampered at one line shows the invalid verdict first. Without a
browser: player names are escaped, the page refers to nothing outside itself, and the command
line writes the page whole or says in one line why it cannot.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from seeded_game import played

from p2pwillow.bots import DEFAULT_LEVEL
from p2pwillow.verify import (
    bug_object,
    json_line,
    report_object,
    verify_file,
    verify_transcript,
)
from p2pwillow.verify.html import report_html, stack_points

ROOT = Path(__file__).resolve().parents[2]
DIR = ROOT / "protocol" / "transcripts"
HONEST = DIR / "honest-3p-2h.jsonl"
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
)


def willow(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "p2pwillow", *args],
        cwd=ROOT,
        env=ENV,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
        check=False,
    )


# --- a small DOM, from the HTML Chromium serialises --------------------------------------------

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)

    def text(self) -> str:
        out = "".join(self.texts)
        return " ".join(out.split())

    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def iter(self) -> Iterator[Node]:
        yield self
        for child in self.children:
            yield from child.iter()

    def find_all(self, tag: str = "", cls: str = "", **attrs: str) -> list[Node]:
        return [
            n
            for n in self.iter()
            if (not tag or n.tag == tag)
            and (not cls or cls in n.classes())
            and all(n.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items())
        ]

    def find(self, tag: str = "", cls: str = "", **attrs: str) -> Node:
        found = self.find_all(tag, cls, **attrs)
        assert found, (tag, cls, attrs)
        return found[0]

    def elements(self) -> list[Node]:
        return list(self.children)


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Node(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        for node in self.stack[1:]:
            node.texts.append(data)


def parse(html: str) -> Node:
    builder = _Builder()
    builder.feed(html)
    builder.close()
    return builder.root


def number(text: str) -> int:
    """A figure as the page writes it (1,924; +924; −380; ±0) as an integer."""
    cleaned = text.replace(",", "").replace("−", "-").replace("±", "").replace("+", "")
    return int(cleaned)


# --- the browser -------------------------------------------------------------------------------


def chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        pytest.fail("chromium is not installed: the page is tested in it (.ci/run installs it)")
    return path


def rendered(page: Path, fragment: str = "") -> Node:
    """The page as headless Chromium has it once loaded and its script has run."""
    with tempfile.TemporaryDirectory(prefix="willow-chromium-") as profile:
        result = subprocess.run(
            [
                chromium(),
                *CHROMIUM_FLAGS,
                f"--user-data-dir={profile}",
                "--dump-dom",
                page.resolve().as_uri() + fragment,
            ],
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=120,
            check=False,
        )
    assert result.returncode == 0 and "<body" in result.stdout, result.stderr[-2000:]
    return parse(result.stdout)


@dataclass(frozen=True)
class Night:
    transcript: Path
    page: Path
    report: dict[str, Any]


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> Night:
    """Four hands of Weeping Willow the bots play here, every choice and card seeded
    (tests/verify/seeded_game.py), verified into its JSON report and its page in one run."""
    where = tmp_path_factory.mktemp("night")
    transcript = where / "night.jsonl"
    transcript.write_bytes(played("weeping-willow", 5, players=3, hands=4, level=DEFAULT_LEVEL))
    page = where / "night.html"
    result = willow("verify", "--json", "--html", str(page), str(transcript))
    assert result.returncode == 0, result.stderr
    return Night(transcript, page, json.loads(result.stdout))


def _name(report: dict[str, Any], seat: int) -> str:
    return str([p["name"] for p in report["players"] if p["seat"] == seat][-1])


def test_the_rendered_page_shows_the_verifiers_figures(night: Night) -> None:
    report = night.report
    dom = rendered(night.page)
    body = dom.find("body")
    first = body.elements()[0]
    assert first.attrs.get("id") == "verdict" and first.attrs["data-verdict"] == "valid"
    assert first.find(cls="headline").text() == "Valid and complete"
    assert "js" in dom.find("html").classes()  # the navigation script ran

    # The standings: every player, its final stack and result, best first.
    rows = [r for r in dom.find("table", id="standings").find_all("tr") if "data-seat" in r.attrs]
    shown = [
        (
            int(r.attrs["data-seat"]),
            number(r.find(cls="final").text()),
            number(r.find(cls="net").text()),
        )
        for r in rows
    ]
    expected = [(st["seat"], st["final"], st["net"]) for st in report["stacks"]]
    assert sorted(shown) == sorted(expected)
    assert [net for _, _, net in shown] == sorted((net for _, _, net in shown), reverse=True)
    for r in rows:
        assert _name(report, int(r.attrs["data-seat"])) in r.find(cls="name").text()

    # Each hand's pots and who won them.
    assert report["hands"]
    for hand in report["hands"]:
        section = dom.find("section", cls="hand", data_hand=str(hand["number"]))
        pots = section.find_all("tr", cls="pot")
        assert len(pots) == len(hand["pots"])
        for row, pot in zip(pots, hand["pots"], strict=True):
            assert number(row.find(cls="amount").text()) == pot["amount"]
            winners = row.find_all("span", cls="winner")
            assert [int(w.attrs["data-seat"]) for w in winners] == pot["winners"]
            assert [int(w.attrs["data-share"]) for w in winners] == pot["shares"]
            for w in winners:
                assert _name(report, int(w.attrs["data-seat"])) in w.text()

    # The chart: a point per player before the first hand and after every hand, each at the
    # height its stack gives on one linear scale.
    svg = dom.find("svg", id="stack-chart")
    points = svg.find_all("circle", cls="point")
    got = {(int(p.attrs["data-seat"]), int(p.attrs["data-hand"])): p for p in points}
    want = {(st["seat"], 0): st["bought_in"] for st in report["stacks"]}
    for hand in report["hands"]:
        for seat, stack in hand["stacks"].items():
            want[int(seat), hand["number"]] = stack
    assert {k: int(p.attrs["data-stack"]) for k, p in got.items()} == want
    top, height = float(svg.attrs["data-top"]), float(svg.attrs["data-plot-height"])
    y_max = int(svg.attrs["data-y-max"])
    assert y_max >= max(want.values())
    for (_, hand_number), p in got.items():
        y = top + height * (1 - want[_, hand_number] / y_max)
        assert abs(float(p.attrs["cy"]) - y) < 0.05
    xs = {h: float(p.attrs["cx"]) for (_, h), p in got.items()}
    assert [xs[h] for h in sorted(xs)] == sorted(xs.values())
    assert len(set(xs.values())) == len(xs)


def test_a_link_to_a_hand_opens_that_hand_at_that_step(night: Night) -> None:
    dom = rendered(night.page, "#hand-2-result")
    current = [s for s in dom.find_all("section", cls="hand") if "current" in s.classes()]
    assert [s.attrs["data-hand"] for s in current] == ["2"]
    steps = [s for s in current[0].find_all(cls="step") if "current" in s.classes()]
    assert [s.attrs["data-key"] for s in steps] == ["result"]


def test_a_tampered_transcript_shows_the_invalid_verdict_first(
    night: Night, tmp_path: Path
) -> None:
    lines = night.transcript.read_bytes().splitlines(keepends=True)
    bets = [i for i, line in enumerate(lines) if b'"kind":"bet"' in line]
    index = bets[-1]
    lines[index] = re.sub(
        rb'"amount":(\d+)', lambda m: b'"amount":%d' % (int(m.group(1)) + 1), lines[index]
    )
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_bytes(b"".join(lines))
    page = tmp_path / "tampered.html"
    result = willow("verify", "--json", "--html", str(page), str(tampered))
    assert result.returncode == 1, result.stderr
    report = json.loads(result.stdout)
    assert report["verdict"] == "invalid" and report["error"]["line"] == index + 1

    dom = rendered(page)
    first = dom.find("body").elements()[0]
    assert first.attrs.get("id") == "verdict" and first.attrs["data-verdict"] == "invalid"
    assert first.find(cls="headline").text() == f"Invalid at line {index + 1}"
    assert report["error"]["reason"] in first.text()
    failed = [c for c in first.find_all("li", cls="check") if "failed" in c.classes()]
    assert len(failed) == 1 and f"line {index + 1}" in failed[0].text()
    assert "as far as the transcript checks" in dom.find(cls="standings-box").text()


# --- without a browser -------------------------------------------------------------------------

HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)> & </style>'


def _object(path: Path) -> dict[str, Any]:
    """The `--json` object of a transcript, as a program reading that output has it."""
    loaded: dict[str, Any] = json.loads(json_line(report_object(verify_file(path))))
    return loaded


def _honest() -> dict[str, Any]:
    return _object(HONEST)


def test_names_from_the_transcript_are_escaped_everywhere() -> None:
    obj = _honest()
    obj["players"] = [{**p, "name": f"{HOSTILE} {p['seat']}"} for p in obj["players"]]
    obj["stacks"] = [{**s, "name": HOSTILE} for s in obj["stacks"]]
    obj["table"] = HOSTILE
    obj["file"] = HOSTILE
    html = report_html(obj)
    assert "<script>alert" not in html and "<img" not in html
    assert html.count("<script") == 1 and html.count("</style>") == 1
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in html
    dom = parse(html)
    names = {n.text() for n in dom.find_all("span", cls="pname")}
    assert {f"{HOSTILE} {p['seat']}" for p in obj["players"]} <= names


def test_the_page_refers_to_nothing_outside_itself() -> None:
    for obj in (_honest(), _object(DIR / "truncated.jsonl")):
        html = report_html(obj)
        assert not re.search(r"https?:|ftp:|//[a-z0-9]", html, re.IGNORECASE)
        assert not re.search(r"\b(src|srcset|action|poster|data)\s*=", html)
        assert not re.search(r"url\(|@import", html)
        links = re.findall(r'href="([^"]*)"', html)
        assert links and all(link.startswith("#") for link in links)
        policy = re.search(r'Content-Security-Policy" content="([^"]*)"', html)
        assert policy is not None and "default-src 'none'" in policy.group(1)
        script = re.search(r"<script>(.*?)</script>", html, re.DOTALL)
        assert script is not None
        digest = base64.b64encode(hashlib.sha256(script.group(1).encode()).digest()).decode()
        assert f"'sha256-{digest}'" in policy.group(1)


def test_every_verdict_makes_a_page_that_says_it_first(tmp_path: Path) -> None:
    headlines = {
        "honest-3p-2h.jsonl": "Valid and complete",
        "truncated.jsonl": "Not closed",
        "no-game-end.jsonl": "Not closed",
        "bad-signature.jsonl": "Invalid at line 20",
        "not-utf8.jsonl": "Invalid at line 8",
    }
    objects = {name: _object(DIR / name) for name in headlines}
    objects["empty"] = report_object(verify_transcript(b""))
    objects["bug"] = bug_object("x.jsonl", "KeyError: 1")
    headlines |= {"empty": "Unreadable", "bug": "No verdict"}
    for name, obj in objects.items():
        dom = parse(report_html(obj))
        first = dom.find("body").elements()[0]
        assert first.attrs["data-verdict"] == obj["verdict"], name
        assert first.find(cls="headline").text() == headlines[name], name
    reason = objects["truncated.jsonl"]["error"]["reason"]
    assert "hand 2 has not ended" in reason
    assert "hand 2 has not ended" in report_html(objects["truncated.jsonl"])


def test_every_showdown_is_shown_with_its_cards_and_hand_named() -> None:
    obj = _honest()
    dom = parse(report_html(obj))
    section = dom.find("section", id="showdowns")
    # (said of every game: a showdown is not "the end of round 5" outside Weeping Willow)
    assert "Every hand shown down at a showdown" in section.find(cls="hint").text()
    rows = section.find_all("tr")
    want = [
        (h["number"], sh["seat"], sh["cards"], sh["hand"])
        for h in obj["hands"]
        for sh in h["showdown"]
    ]
    assert want  # the sample game has a showdown
    got = [
        (
            int(r.attrs["data-hand"]),
            int(r.attrs["data-seat"]),
            [c.attrs["data-card"] for c in r.find_all(cls="card")],
            r.find(cls="value").text(),
        )
        for r in rows
    ]
    assert got == want
    # the same hands, named, in the hand's last step
    hand = dom.find("section", cls="hand", data_hand=str(want[0][0]))
    result = hand.find(cls="step", data_key="result")
    for _, _, _, value in want:
        assert value in result.text()


def test_an_aborted_hand_is_told_as_aborted_with_no_card_shown() -> None:
    obj = _honest()
    first = obj["hands"][0]
    seats = first["seats"]
    before = {k: v - first["chips"][k] for k, v in first["stacks"].items()}
    obj["hands"][0] = {
        **first,
        "aborted": True,
        "blamed": [seats[1]],
        "reason": f"seat(s) {seats[1]} stalled: hand_key",
        "chips": {str(s): 0 for s in seats},
        "stacks": before,
        "folded": [],
        "hidden_cards": 52,
        "pots": [],
        "proofs": {"schnorr": 2},
        "returned": [],
        "rounds": [],
        "showdown": [],
        "shown": {},
        "trades": [],
    }
    dom = parse(report_html(obj))
    hand = dom.find("section", cls="hand", data_hand="1")
    steps = hand.find_all(cls="step")
    assert [s.attrs["data-key"] for s in steps] == ["result"]
    assert hand.find(cls="headline").text().startswith("Aborted")
    assert not hand.find_all(cls="card") and not hand.find_all("tr", cls="pot")
    assert "stalled: hand_key" in steps[0].text() and _name(obj, seats[1]) in steps[0].text()


def test_the_chart_starts_each_player_at_its_stack_before_its_first_hand() -> None:
    obj = _honest()
    runs = stack_points(obj)
    for st in obj["stacks"]:
        assert runs[st["seat"]][0][0] == (0, st["bought_in"])
        assert runs[st["seat"]][-1][-1][1] == st["final"]
    # a seat that sits a hand out starts a new run at its stack before the hand it comes back to
    hands = obj["hands"]
    gap = {**obj, "hands": [hands[0], {**hands[1], "number": 3}]}
    second = hands[1]
    seat = int(next(iter(second["stacks"])))
    before = second["stacks"][str(seat)] - second["chips"][str(seat)]
    assert stack_points(gap)[seat][1][0] == (2, before)


# --- the command line --------------------------------------------------------------------------


def test_html_writes_the_page_and_leaves_the_report_as_it_was(tmp_path: Path) -> None:
    page = tmp_path / "night.html"
    page.write_text("an older page", encoding="utf-8")
    plain = willow("verify", "--json", str(HONEST))
    both = willow("verify", "--json", "--html", str(page), str(HONEST))
    assert both.returncode == plain.returncode == 0 and both.stderr == ""
    assert both.stdout == plain.stdout
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    assert html == report_html(json.loads(plain.stdout))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["night.html"]


def test_html_with_an_invalid_or_unreadable_file_keeps_its_exit_code(tmp_path: Path) -> None:
    page = tmp_path / "bad.html"
    result = willow("verify", "--brief", "--html", str(page), str(DIR / "bad-signature.jsonl"))
    assert result.returncode == 1 and "Invalid at line 20" in page.read_text(encoding="utf-8")
    result = willow("verify", "--html", str(page), str(tmp_path / "none.jsonl"))
    assert result.returncode == 4 and "Unreadable" in page.read_text(encoding="utf-8")


@pytest.mark.parametrize("where", ["directory", "no-directory", "dash", "device"])
def test_html_that_cannot_be_written_is_one_line_and_exit_2(where: str, tmp_path: Path) -> None:
    target = {
        "directory": str(tmp_path),
        "no-directory": str(tmp_path / "none" / "page.html"),
        "dash": "-",
        "device": os.devnull,
    }[where]
    result = willow("verify", "--html", target, str(HONEST))
    assert result.returncode == 2
    assert result.stdout == "" and len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith("willow verify: --html")


def test_html_takes_one_file(tmp_path: Path) -> None:
    result = willow("verify", "--html", str(tmp_path / "p.html"), str(HONEST), str(HONEST))
    assert result.returncode == 2 and "one FILE" in result.stderr
    assert not (tmp_path / "p.html").exists()


def test_help_names_the_html_option() -> None:
    result = willow("verify", "--help")
    assert "--html OUT" in result.stdout and "2  usage error, or the --html page" in result.stdout
