"""The registry of entry kinds (SPEC 6.10) is explicit, and the ledger's modules import each
other without cycles or imports deferred into functions."""

from __future__ import annotations

import ast
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from p2pwillow.games import ACTIONS, PLAIN, PLAIN_FIELD
from p2pwillow.ledger import kinds as k
from p2pwillow.ledger.fields import Body, kind, registry

LEDGER = Path(__file__).resolve().parents[2] / "p2pwillow" / "ledger"


def _ledger_imports(path: Path) -> tuple[set[str], list[str]]:
    """The ledger modules `path` imports at its top level, and any import inside a function."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module:
            top.add(node.module)
        elif isinstance(node, ast.Import):
            top.update(alias.name for alias in node.names)
    nested = [
        ast.unparse(node)
        for fn in ast.walk(tree)
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef)
        for node in ast.walk(fn)
        if isinstance(node, ast.Import | ast.ImportFrom)
    ]
    prefix = "p2pwillow.ledger."
    return {m.removeprefix(prefix) for m in top if m.startswith(prefix)}, nested


def test_the_ledger_modules_import_each_other_without_a_cycle() -> None:
    graph: dict[str, set[str]] = {}
    for path in sorted(LEDGER.glob("*.py")):
        imported, nested = _ledger_imports(path)
        assert not nested, f"{path.name} imports inside a function: {nested}"
        graph[path.stem] = imported - {"__init__"}
    done: set[str] = set()

    def visit(module: str, trail: tuple[str, ...]) -> None:
        assert module not in trail, f"import cycle: {' -> '.join((*trail, module))}"
        if module in done:
            return
        for other in graph.get(module, set()):
            visit(other, (*trail, module))
        done.add(module)

    for module in graph:
        visit(module, ())


def test_every_module_that_reads_the_registry_imports_it_from_kinds() -> None:
    # A module that reads KINDS names the module that holds it (whose plain decisions the
    # package adds as it is imported, before any of its modules runs): no import order can
    # leave it without them.
    for path in sorted(LEDGER.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        reads = any(isinstance(n, ast.Name) and n.id == "KINDS" for n in ast.walk(tree))
        if not reads or path.stem == "kinds":
            continue
        sources = {
            node.module
            for node in tree.body
            if isinstance(node, ast.ImportFrom) and any(a.name == "KINDS" for a in node.names)
        }
        assert sources == {"p2pwillow.ledger.kinds"}, path.name


def test_every_body_class_of_kinds_is_registered_under_its_name() -> None:
    bodies = [
        value
        for value in vars(k).values()
        if isinstance(value, type) and issubclass(value, Body) and value is not Body
    ]
    # the kinds the protocol defines here, and the plain decisions made from the action table
    assert sorted(cls.KIND for cls in bodies) == sorted(set(k.KINDS) - set(PLAIN))
    for cls in bodies:
        assert k.KINDS[cls.KIND] is cls


def test_the_registry_refuses_a_name_twice_or_no_name() -> None:
    @kind("bet")
    @dataclass(frozen=True, slots=True)
    class AnotherBet(Body):
        pass

    @dataclass(frozen=True, slots=True)
    class Unnamed(Body):
        pass

    bet, fold = PLAIN["bet"], PLAIN["fold"]
    with pytest.raises(TypeError, match="bet"):
        registry(bet, AnotherBet)
    with pytest.raises(TypeError, match="Unnamed"):
        registry(Unnamed)
    assert dict(registry(bet, fold)) == {"bet": bet, "fold": fold}
    with pytest.raises(TypeError, match="'bet' is taken"):
        k.add_plain((AnotherBet,))
    assert k.KINDS["bet"] is bet


def test_the_plain_decisions_are_made_from_the_action_table() -> None:
    # Each plain decision's body is its row's: the fields the row declares, each of the wire
    # type its argument needs (SPEC 6.10); nothing else declares them.
    plain_rows = [row for row in ACTIONS if row.body is not None]
    assert {row.entry for row in plain_rows} == set(PLAIN)
    for row in plain_rows:
        body = k.KINDS[row.entry]
        assert body is PLAIN[row.entry] and row.entry == body.KIND
        assert tuple(body.FIELDS) == row.body
        assert all(body.FIELDS[name] is PLAIN_FIELD[row.needs] for name in row.body)


def test_reading_the_registry_alone_finds_the_plain_decisions() -> None:
    # They are registered when the package is imported, before any module can read an entry.
    probe = "from p2pwillow.ledger.kinds import KINDS; print(sorted(KINDS))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert "'bet'" in out.stdout and "'close_trading'" in out.stdout
