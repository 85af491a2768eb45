"""score_many(..., lazy=True): platform_score.Report, a read-only Mapping that must hold exactly
the keys and values of the dict score() returns."""

from __future__ import annotations

import copy
import gc
import pickle
import sys
import threading
from collections.abc import ItemsView, KeysView, Mapping, ValuesView
from typing import Any, Dict, List

import pytest
from hypothesis import given
from hypothesis import strategies as st

import platform_score
from conftest import assert_exact, load_cases
from test_api import BASE
from test_properties import field_maps, json_values, profiles

CASES = load_cases()
VALID = [c for c in CASES if "expected" in c]
OBJECT_CASES = [c for c in CASES if "input" in c]
NESTED = ["capacidad_compra_estimada", "salud_financiera", "recomendaciones", "estado", "componentes", "recomendaciones_detalle"]


def lazy_one(profile: Any, **kwargs: Any) -> Any:
    [report] = platform_score.score_many([profile], lazy=True, **kwargs)
    return report


def check_report(report: Any, expected: Dict[str, Any]) -> None:
    """The Report against the expected dict: to_dict() exactly, == both ways, key by key."""
    assert type(report) is platform_score.Report
    assert_exact(report.to_dict(), expected)
    assert report == expected and expected == report and not report != expected
    assert list(report) == list(expected)
    for key in expected:
        assert_exact(report[key], expected[key], f"$.{key}")


@pytest.mark.parametrize("case", VALID, ids=[c["id"] for c in VALID])
def test_every_fixture_through_the_lazy_form(case: Dict[str, Any]) -> None:
    if "input_text" in case:
        pytest.skip("a JSON text case: score_json() only")
    check_report(lazy_one(case["input"]), case["expected"])


def test_every_fixture_in_one_lazy_batch_in_order() -> None:
    inputs = [c for c in VALID if "input" in c]
    reports = platform_score.score_many((c["input"] for c in inputs), lazy=True)  # any iterable
    assert len(reports) == len(inputs)
    for report, case in zip(reports, inputs):
        check_report(report, case["expected"])


def test_a_batch_over_many_chunks_keeps_the_order() -> None:
    # Several times the first block and many chunks of the pipeline, with every fixture profile.
    inputs = [c for c in VALID if "input" in c]
    batch: List[Any] = [c["input"] for c in inputs] * (60_000 // len(inputs) + 1)
    reports = platform_score.score_many(iter(batch), lazy=True)
    assert len(reports) == len(batch)
    for i in range(0, len(batch), 89):
        check_report(reports[i], inputs[i % len(inputs)]["expected"])
    assert reports[-1] == inputs[(len(batch) - 1) % len(inputs)]["expected"]
    assert reports == platform_score.score_many(batch[:20_000]) + reports[20_000:]


def test_decimals_flag_is_kept() -> None:
    report = lazy_one(BASE, decimals=True)
    expected = platform_score.score(BASE, decimals=True)
    assert report.to_dict() == expected and report == expected
    assert repr(report["capacidad_compra_estimada"]["valor_realista"]) == "Decimal('563369.42')"
    assert report["score"] == 641 and type(report["score"]) is int
    # Floats and Decimals differ in general (0.1 != Decimal("0.1")): the forms are not mixed up.
    assert lazy_one(BASE)["capacidad_compra_estimada"]["valor_realista"] == 563369.42


def test_the_mapping_protocol() -> None:
    report, expected = lazy_one(BASE), platform_score.score(BASE)
    assert isinstance(report, Mapping)
    assert len(report) == len(expected) == 20
    assert list(iter(report)) == list(expected)
    assert "score" in report and "recomendaciones_detalle" in report
    assert "scor" not in report and 1 not in report and None not in report
    assert isinstance(report.keys(), KeysView) and list(report.keys()) == list(expected.keys())
    assert isinstance(report.values(), ValuesView) and list(report.values()) == list(expected.values())
    assert isinstance(report.items(), ItemsView) and list(report.items()) == list(expected.items())
    assert report.keys() == expected.keys() and "nivel" in report.keys()
    assert ("nivel", "alto") in report.items()
    assert report.get("nivel") == "alto" and report.get("scor") is None and report.get("scor", 7) == 7
    assert report.get(["not", "hashable"], 0) == 0
    with pytest.raises(KeyError) as info:
        report["scor"]
    assert info.value.args == ("scor",)
    with pytest.raises(KeyError):
        report[0]
    assert dict(report) == expected and {**report} == expected
    assert list(dict(report)) == list(expected)
    # A str subclass is looked up by value, as in a dict.
    assert report[type("Key", (str,), {})("score")] == 641


def test_match_statement_sees_a_mapping() -> None:
    if sys.version_info < (3, 10):
        pytest.skip("match needs Python 3.10")
    namespace: Dict[str, Any] = {}
    exec("match r:\n case {'score': s, 'nivel': n}: got = (s, n)\n case _: got = None", {"r": lazy_one(BASE)}, namespace)
    assert namespace["got"] == (641, "alto")


def test_read_only_unhashable_and_not_constructible() -> None:
    report = lazy_one(BASE)
    with pytest.raises(TypeError):
        report["score"] = 1  # type: ignore[index]
    with pytest.raises(TypeError):
        del report["score"]  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        report.extra = 1  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        hash(report)
    with pytest.raises(TypeError):
        platform_score.Report()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        type("Sub", (platform_score.Report,), {})


def test_equality() -> None:
    report, expected = lazy_one(BASE), platform_score.score(BASE)
    other = lazy_one({**BASE, "edad": 60})
    assert report == lazy_one(BASE) and not report != lazy_one(BASE)
    assert report != other and other != expected
    changed = platform_score.score(BASE)
    changed["capacidad_compra_estimada"]["ltv"] = -1
    assert report != changed and changed != report
    assert report != {k: v for k, v in expected.items() if k != "disclaimer"}
    assert report == collections_mapping(expected)
    assert report != 5 and report != [expected] and not (report == "score")
    assert [report, other] == platform_score.score_many([BASE, {**BASE, "edad": 60}])


def collections_mapping(d: Dict[str, Any]) -> Mapping[str, Any]:
    from types import MappingProxyType

    return MappingProxyType(d)


def test_nested_values_are_built_once_and_kept() -> None:
    report = lazy_one(BASE)
    for key in NESTED:
        first = report[key]
        assert type(first) in (dict, list)
        assert report[key] is first and report.get(key) is first
        assert dict(report.items())[key] is first
    assert [v for v in report.values()][2] is report["capacidad_compra_estimada"]
    # to_dict() is a new dict every time, independent of the kept values.
    fresh = report.to_dict()
    assert fresh is not report.to_dict()
    assert all(fresh[key] is not report[key] for key in NESTED)
    fresh["estado"]["nombre"] = "changed"
    assert report["estado"]["nombre"] == "Ciudad de México"
    # What repr and == show is what indexing gives.
    report["estado"]["nombre"] = "changed"
    assert report["estado"]["nombre"] == "changed"
    assert report != platform_score.score(BASE) and "changed" in repr(report)
    assert report.to_dict() == platform_score.score(BASE)


def test_first_access_from_many_threads_gives_one_object() -> None:
    reports = platform_score.score_many([BASE] * 200, lazy=True)
    seen: List[List[int]] = [[] for _ in reports]
    barrier = threading.Barrier(4)

    def work() -> None:
        barrier.wait()
        for i, r in enumerate(reports):
            seen[i].append(id(r["componentes"]))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(len(set(ids)) == 1 and len(ids) == 4 for ids in seen)


def test_repr_shows_the_dict() -> None:
    report = lazy_one(BASE)
    assert repr(report) == f"Report({platform_score.score(BASE)!r})"


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_pickles_as_the_dict(protocol: int) -> None:
    report = lazy_one(BASE)
    loaded = pickle.loads(pickle.dumps(report, protocol=protocol))
    assert type(loaded) is dict
    assert_exact(loaded, platform_score.score(BASE))
    loaded = pickle.loads(pickle.dumps(lazy_one(BASE, decimals=True), protocol=protocol))
    assert loaded == platform_score.score(BASE, decimals=True)


def test_copies_are_dicts() -> None:
    report = lazy_one(BASE)
    assert type(copy.copy(report)) is dict and copy.copy(report) == report
    deep = copy.deepcopy(report)
    assert type(deep) is dict and deep == report and deep["estado"] is not report["estado"]


def test_errors_across_chunks_and_raise() -> None:
    repeat = 40_000 // len(OBJECT_CASES) + 1
    batch: List[Any] = [c["input"] for c in OBJECT_CASES] * repeat
    lazy = platform_score.score_many(batch, errors="return", lazy=True)
    dicts = platform_score.score_many(batch, errors="return")
    assert len(lazy) == len(dicts) == len(batch)
    for i in range(0, len(batch), 7):
        if isinstance(dicts[i], platform_score.ScoreError):
            assert isinstance(lazy[i], platform_score.ScoreError)
            assert (lazy[i].code, lazy[i].field, lazy[i].index, str(lazy[i])) == (
                dicts[i].code, dicts[i].field, dicts[i].index, str(dicts[i]))
        else:
            assert lazy[i] == dicts[i]
    bad = next(c["input"] for c in OBJECT_CASES if "error" in c)
    valid = [c["input"] for c in VALID if "input" in c]
    late = valid * (30_000 // len(valid) + 1) + [bad] + valid
    with pytest.raises(platform_score.ScoreError) as info:
        platform_score.score_many(iter(late), lazy=True)
    assert info.value.index == late.index(bad)
    with pytest.raises(platform_score.ScoreError) as info:
        platform_score.score_many([BASE, {}], lazy=True)
    assert info.value.index == 1


def test_empty_input_unknown_mode_and_gc() -> None:
    assert platform_score.score_many([], lazy=True) == []
    with pytest.raises(ValueError, match="errors must be"):
        platform_score.score_many([], errors="ignore", lazy=True)  # type: ignore[call-overload]
    assert gc.isenabled()
    platform_score.score_many([BASE] * 20_000, lazy=True)
    assert gc.isenabled()


@given(st.lists(profiles, max_size=6))
def test_lazy_and_dict_forms_are_equal(batch: List[Dict[str, Any]]) -> None:
    dicts = platform_score.score_many(batch)
    lazy = platform_score.score_many(batch, lazy=True)
    assert lazy == dicts
    for report, expected in zip(lazy, dicts):
        check_report(report, expected)
        assert repr(report) == f"Report({expected!r})"
    exact = platform_score.score_many(batch, decimals=True, lazy=True)
    assert [r.to_dict() for r in exact] == platform_score.score_many(batch, decimals=True)


@given(st.lists(st.one_of(json_values, field_maps), max_size=5))
def test_lazy_and_dict_forms_agree_on_any_values(batch: List[Any]) -> None:
    dicts = platform_score.score_many(batch, errors="return")
    lazy = platform_score.score_many(batch, errors="return", lazy=True)
    for d, r in zip(dicts, lazy):
        if isinstance(d, platform_score.ScoreError):
            assert isinstance(r, platform_score.ScoreError) and (r.code, r.field, r.index) == (d.code, d.field, d.index)
        else:
            check_report(r, d)
