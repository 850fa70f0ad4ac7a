"""Write (or with --check, compare) protocol/vectors/*.json from the modules in tools/vectors/.

A developer tool: reads and writes files under protocol/vectors/. Usage:
`python3 -m tools.gen_vectors [--check] [NAME ...]` (NAME: a module such as `dleq`).
"""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
VECTOR_DIR = ROOT / "protocol" / "vectors"


def discover() -> dict[str, ModuleType]:
    """Every vector module in tools/vectors/ (not `common`), by module name."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    package = importlib.import_module("tools.vectors")
    modules: dict[str, ModuleType] = {}
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if info.name == "common" or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"tools.vectors.{info.name}")
        if not isinstance(getattr(module, "FILE_NAME", None), str):
            raise SystemExit(f"tools/vectors/{info.name}.py has no FILE_NAME")
        modules[info.name] = module
    return modules


def render(document: dict[str, Any]) -> str:
    """The file's exact text: 2-space indented JSON, keys in generation order, final newline."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    parser.add_argument("names", nargs="*", help="vector modules to run (default: all)")
    args = parser.parse_args(argv)
    modules = discover()
    unknown = [n for n in args.names if n not in modules]
    if unknown:
        parser.error(f"no vector module named {', '.join(unknown)} (have {', '.join(modules)})")
    status = 0
    for name in args.names or list(modules):
        module = modules[name]
        path = VECTOR_DIR / module.FILE_NAME
        text = render(module.generate())
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                print(f"{path.relative_to(ROOT)} differs from what tools/vectors/{name}.py writes")
                status = 1
        else:
            VECTOR_DIR.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    return status


if __name__ == "__main__":
    sys.exit(main())
