"""Architecture boundaries (DESIGN 3): who may import what, and the purity of the core."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "p2pwillow"

# module prefix -> the only package directories allowed to import it
RESTRICTED = {
    "coincurve": ("crypto",),
    "zmq": ("net",),
    "zeroconf": ("net",),
    "prompt_toolkit": ("tui",),
}
# The pure core: no sockets, no clock, no hidden randomness, no terminal.
CORE = ("rules", "games", "mental", "ledger", "session", "crypto", "cards", "hands", "view", "seat")
FORBIDDEN_IN_CORE = {
    "socket",
    "time",
    "datetime",
    "random",
    "secrets",
    "asyncio",
    "threading",
    "subprocess",
    "select",
    "selectors",
}


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def _area(path: Path) -> str:
    rel = path.relative_to(PACKAGE)
    return rel.parts[0].removesuffix(".py")


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_restricted_imports(path: Path) -> None:
    area = _area(path)
    for name in _imports(path):
        top = name.split(".")[0]
        allowed = RESTRICTED.get(top)
        if allowed is not None:
            assert area in allowed, f"{path.name} imports {name}; only {allowed} may"


@pytest.mark.parametrize(
    "path",
    [p for p in _modules() if _area(p) in CORE],
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_core_is_pure(path: Path) -> None:
    bad = {n for n in _imports(path) if n.split(".")[0] in FORBIDDEN_IN_CORE}
    assert not bad, f"{path.name} is core code and imports {sorted(bad)}"
    if _area(path) != "crypto":
        # os.urandom is the crypto layer's default rng; nothing else in the core reads the OS
        assert "os" not in {n.split(".")[0] for n in _imports(path)}, f"{path.name} imports os"


CURVE_NAMES = ("secp256k1", "coincurve", "edwards25519", "libsodium", "nacl")
"""Words that name the group or its library: only crypto/ may say them (DESIGN 4.1)."""


@pytest.mark.parametrize(
    "path",
    [p for p in _modules() if _area(p) != "crypto"],
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_no_module_above_crypto_names_the_curve(path: Path) -> None:
    text = path.read_text(encoding="utf-8").lower()
    named = [word for word in CURVE_NAMES if word in text]
    assert not named, f"{path.name} names {named}; only crypto/ knows the group"
