"""Messages to people name no internal identifiers: no action kind, closing rule, option
value, entry kind or setting spelt as the code spells it (`orbit-without-trade`,
`close-trading`, `max_bet`), in any message the rules, the table or the lobby can raise or say.
The scan reads the source: every text given to such a message, literal or formatted."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from p2pwillow.games import weeping_willow as ww
from p2pwillow.rules import ActionKind

SOURCE = Path(__file__).resolve().parents[1] / "p2pwillow"

MESSAGES = {"IllegalAction", "ConfigError", "DecisionError", "LiveError", "_say", "say_keys"}
"""What raises or says a message a person reads (a LiveError's first argument is its exit
reason, not a message)."""

IDENTIFIER = re.compile(r"\b[a-z]+(?:[-_][a-z]+)+\b")
"""How the code spells a name of more than one word."""

ENGLISH = {"in-turn", "face-down", "face-up"}
"""Hyphenated words of plain English."""

VALUES = (r"\.kind\.value$", r"closing\.value$", r"partner\.value$", r"mode\.value$")
"""Formatted enum values that are identifiers (a phase's or a link's value is a plain word)."""


def _said(call: ast.Call) -> list[ast.expr]:
    f = call.func
    name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
    if name not in MESSAGES:
        return []
    return list(call.args[1:] if name == "LiveError" else call.args)


def _found() -> list[str]:
    bad: list[str] = []
    for path in sorted(SOURCE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            for arg in _said(node):
                for sub in ast.walk(arg):
                    where = f"{path.relative_to(SOURCE.parent)}:{node.lineno}"
                    if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                        names = set(IDENTIFIER.findall(sub.value)) - ENGLISH
                        bad += [f"{where}: {n!r} in {sub.value!r}" for n in sorted(names)]
                    if isinstance(sub, ast.FormattedValue):
                        src = ast.unparse(sub.value)
                        if any(re.search(v, src) for v in VALUES):
                            bad.append(f"{where}: formats {src}")
    return bad


def test_no_message_names_an_internal_identifier() -> None:
    assert _found() == []


def test_the_scan_finds_the_names_it_looks_for() -> None:
    # the identifiers the issue met are of the shape the scan looks for
    for name in (ww.TradingClose.ORBIT_WITHOUT_TRADE.value, ActionKind.CLOSE_TRADING.value):
        assert IDENTIFIER.fullmatch(name), name
    tree = ast.parse('raise IllegalAction(f"trading closes by rule ({t.closing.value})")')
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call))
    assert _said(call) and any(
        isinstance(s, ast.FormattedValue) and re.search(VALUES[1], ast.unparse(s.value))
        for s in ast.walk(call)
    )
