"""The TypedDicts of ``platform_score._types`` against the JSON Schemas score-core generates.

``fixtures/report.schema.json`` and ``fixtures/profile.schema.json`` are generated from
score-core's one definition of the report (its walk) and of the profile, and a Rust test fails
when they drift from it. This test closes the chain: a key added, removed, reordered or
retyped in score-core fails here until ``_types.py`` says the same.
"""

from __future__ import annotations

import decimal
import json
import typing
from pathlib import Path
from typing import Any, Dict, List, Optional, Union

import pytest

from platform_score import _types

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def schema(name: str) -> Dict[str, Any]:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def scalar(node: Dict[str, Any]) -> Any:
    """The Python annotation of a schema's scalar (without null)."""
    kind = node["type"]
    if isinstance(kind, list):
        kind = next(t for t in kind if t != "null")
    return {"integer": int, "number": float, "string": str, "boolean": bool}[kind]


def check_object(cls: Any, node: Dict[str, Any], path: str) -> None:
    """The TypedDict ``cls`` has exactly the schema object's keys, in its order, and types."""
    hints = typing.get_type_hints(cls)
    assert list(hints) == node["required"], f"{path}: keys or order of {cls.__name__}"
    for key in node["required"]:
        check_value(hints[key], node["properties"][key], f"{path}.{key}")


def check_value(annotation: Any, node: Dict[str, Any], path: str) -> None:
    if "anyOf" in node:
        # A value of several types (a simulated field's: a number, a name or null).
        kinds = [b["type"] for b in node["anyOf"]]
        expected = Union[tuple(scalar(b) for b in node["anyOf"] if b["type"] != "null")]
        expected = Optional[expected] if "null" in kinds else expected
        assert annotation == expected, f"{path}: {annotation} is not {expected}"
        return
    if node["type"] == "object":
        check_object(annotation, node, path)
    elif node["type"] == "array":
        assert typing.get_origin(annotation) in (list, List), f"{path}: {annotation} is not a list"
        (item,) = typing.get_args(annotation)
        check_value(item, node["items"], f"{path}[]")
    elif isinstance(node["type"], list) and "null" in node["type"]:
        assert annotation == Optional[scalar(node)], f"{path}: {annotation} is not Optional[{scalar(node)}]"
    else:
        assert annotation is scalar(node), f"{path}: {annotation} is not {scalar(node)}"


def test_report_typeddicts_follow_the_report_schema() -> None:
    check_object(_types.ScoreReport, schema("report.schema.json"), "ScoreReport")


def test_profile_typeddict_follows_the_profile_schema() -> None:
    node = schema("profile.schema.json")
    check_fields(_types.Profile, node, _field_order(node), "Profile")


def check_fields(cls: Any, node: Dict[str, Any], order: List[str], path: str) -> None:
    """A profile-like TypedDict: the required keys first, then the optional ones in ``order``,
    each typed as the schema says (a nested object as its own TypedDict)."""
    hints = typing.get_type_hints(cls)
    assert list(hints) == list(node["required"]) + [k for k in order if k not in node["required"]], f"keys or order of {path}"
    assert set(cls.__required_keys__) == set(node["required"])
    amount = Union[int, float, decimal.Decimal]
    for key, annotation in hints.items():
        field = node["properties"][key]
        nullable = isinstance(field["type"], list) and "null" in field["type"]
        if "object" in field["type"]:
            (inner,) = [a for a in typing.get_args(annotation) if a is not type(None)]
            assert annotation == Optional[inner], f"{path}.{key}: {annotation}"
            inner_order = [k for k in typing.get_type_hints(inner) if k in field["properties"]]
            check_fields(inner, field, inner_order, f"{path}.{key}")
            continue
        expected = {int: int, float: amount, str: str}[scalar(field)]
        assert annotation == (Optional[expected] if nullable else expected), f"{path}.{key}: {annotation}"


def _field_order(node: Dict[str, Any]) -> List[str]:
    """The profile's fields in score-core's order (PROFILE_FIELDS), as the schema lists them."""
    from platform_score import PROFILE_FIELDS

    assert set(PROFILE_FIELDS) == set(node["properties"])
    return list(PROFILE_FIELDS)


@pytest.mark.parametrize("name", ["report.schema.json", "profile.schema.json"])
def test_the_schemas_are_committed(name: str) -> None:
    assert schema(name)["$id"] == name
