"""Shared helpers: where the repository's fixtures are, and an exact comparison."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures"


def load_cases() -> List[Dict[str, Any]]:
    """Every fixture case listed in fixtures/manifest.json, with its file name as "id"."""
    manifest = json.loads((FIXTURES / "manifest.json").read_text(encoding="utf-8"))
    cases = []
    for rel in manifest["cases"]:
        case = json.loads((FIXTURES / rel).read_text(encoding="utf-8"))
        case["id"] = Path(rel).stem
        cases.append(case)
    assert len(cases) >= 100, "fixtures/manifest.json lists too few cases"
    return cases


def assert_exact(actual: Any, expected: Any, path: str = "$") -> None:
    """Equal key for key (in the same order) and number for number, with the same JSON types
    (an integer is not a float): what json.loads of score-core's text gives."""
    assert type(actual) is type(expected), f"{path}: {type(actual).__name__} {actual!r} != {type(expected).__name__} {expected!r}"
    if isinstance(expected, dict):
        assert list(actual) == list(expected), f"{path}: keys {list(actual)} != {list(expected)}"
        for key in expected:
            assert_exact(actual[key], expected[key], f"{path}.{key}")
    elif isinstance(expected, list):
        assert len(actual) == len(expected), f"{path}: length {len(actual)} != {len(expected)}"
        for i, (a, e) in enumerate(zip(actual, expected)):
            assert_exact(a, e, f"{path}[{i}]")
    else:
        assert actual == expected, f"{path}: {actual!r} != {expected!r}"
