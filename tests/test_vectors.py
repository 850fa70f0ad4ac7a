"""Every case of every protocol/vectors/*.json file, replayed by its tools/vectors module."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tools.gen_vectors import ROOT, VECTOR_DIR, discover
from tools.vectors import common

MODULES: dict[str, ModuleType] = {m.FILE_NAME: m for m in discover().values()}
FILES = sorted(VECTOR_DIR.glob("*.json"))


def _cases() -> list[Any]:
    params = []
    for path in FILES:
        doc = json.loads(path.read_text(encoding="utf-8"))
        for group in doc["testGroups"]:
            for test in group["tests"]:
                params.append(
                    pytest.param(path.name, group, test, id=f"{path.name}-{test['tcId']}")
                )
    return params


def test_every_file_has_a_module_and_every_module_a_file() -> None:
    assert sorted(p.name for p in FILES) == sorted(MODULES)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_document_layout(path: Path) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert set(doc) >= {"schema", "algorithm", "notes", "numberOfTests", "testGroups"}
    tests = [t for g in doc["testGroups"] for t in g["tests"]]
    assert doc["numberOfTests"] == len(tests)
    ids = [t["tcId"] for t in tests]
    assert len(set(ids)) == len(ids)
    for t in tests:
        assert t["result"] in ("valid", "invalid")
        assert set(t["flags"]) <= set(doc["notes"]), t["tcId"]
    assert {t["result"] for t in tests} == {"valid", "invalid"}


@pytest.mark.parametrize(("file_name", "group", "test"), _cases())
def test_vector(file_name: str, group: dict[str, Any], test: dict[str, Any]) -> None:
    check = MODULES[file_name].check
    if test["result"] == "valid":
        check(group, test)
        return
    errors: dict[str, type[Exception]] = getattr(MODULES[file_name], "ERRORS", common.ERRORS)
    with pytest.raises(tuple(errors.values())) as info:
        check(group, test)
    if "error" in test:
        assert isinstance(info.value, errors[test["error"]]), repr(info.value)


def test_committed_vectors_are_what_the_generators_write() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "tools.gen_vectors", "--check"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
