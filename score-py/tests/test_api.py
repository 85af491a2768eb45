"""The Python surface: conversion of Python values, ScoreError, versions, thread safety."""

from __future__ import annotations

import collections
import json
import threading
from decimal import Decimal
from types import MappingProxyType
from typing import Any, Dict

import pytest

import platform_score

BASE: Dict[str, Any] = {
    "estado": "CMX",
    "ingreso_mensual": 30000,
    "tipo_ingreso": "asalariado",
    "antiguedad_meses": 36,
    "ahorro": 100000,
    "edad": 35,
}


def code_of(profile: Any) -> Any:
    with pytest.raises(platform_score.ScoreError) as info:
        platform_score.score(profile)
    return info.value.code, info.value.field


def test_versions_and_constants() -> None:
    assert platform_score.MODEL_VERSION == "2.1"
    assert platform_score.score(BASE)["modelo_version"] == platform_score.MODEL_VERSION
    assert platform_score.__version__.count(".") == 2
    assert platform_score.CORE_VERSION.count(".") == 2
    assert "UNKNOWN_STATE" in platform_score.ERROR_CODES and len(platform_score.ERROR_CODES) == 12
    assert platform_score.PROFILE_FIELDS[:4] == ("estado", "ingreso_mensual", "tipo_ingreso", "antiguedad_meses")


def test_score_error_is_a_value_error_with_code_field_and_a_message_naming_the_field() -> None:
    with pytest.raises(ValueError) as info:
        platform_score.score({**BASE, "ingreso_mensual": -5})
    err = info.value
    assert isinstance(err, platform_score.ScoreError)
    assert (err.code, err.field, err.index) == ("NEGATIVE_AMOUNT", "ingreso_mensual", None)
    assert str(err).startswith("NEGATIVE_AMOUNT: ") and '"ingreso_mensual"' in str(err)


def test_any_mapping_is_accepted_and_gives_the_same_report() -> None:
    expected = platform_score.score(BASE)
    assert platform_score.score(MappingProxyType(BASE)) == expected
    assert platform_score.score(collections.OrderedDict(BASE)) == expected
    assert platform_score.score(collections.ChainMap({}, BASE)) == expected


def test_numbers_are_read_like_json_numbers() -> None:
    expected = platform_score.score({**BASE, "ingreso_mensual": 30000.5})
    assert platform_score.score({**BASE, "ingreso_mensual": Decimal("30000.50")}) == expected
    assert json.loads(platform_score.score_json(json.dumps({**BASE, "ingreso_mensual": 30000.5}))) == expected
    assert platform_score.score({**BASE, "antiguedad_meses": 36.0}) == platform_score.score(BASE)


def test_numpy_scalars_are_numbers() -> None:
    np = pytest.importorskip("numpy")
    profile = {**BASE, "ingreso_mensual": np.float64(30000), "antiguedad_meses": np.int64(36), "edad": np.int32(35)}
    assert platform_score.score(profile) == platform_score.score(BASE)


def test_nan_is_a_missing_value_and_infinity_is_out_of_range() -> None:
    nan = float("nan")
    assert platform_score.score({**BASE, "edad": nan}) == platform_score.score({k: v for k, v in BASE.items() if k != "edad"})
    assert code_of({**BASE, "ingreso_mensual": nan}) == ("MISSING_FIELD", "ingreso_mensual")
    assert code_of({**BASE, "ingreso_mensual": float("inf")}) == ("AMOUNT_TOO_LARGE", "ingreso_mensual")
    assert code_of({**BASE, "ahorro": float("-inf")}) == ("NEGATIVE_AMOUNT", "ahorro")
    assert code_of({**BASE, "edad": float("inf")}) == ("VALUE_OUT_OF_RANGE", "edad")


def test_type_errors_name_the_field() -> None:
    assert code_of({**BASE, "ingreso_mensual": "30000"}) == ("INVALID_TYPE", "ingreso_mensual")
    assert code_of({**BASE, "antiguedad_meses": True}) == ("INVALID_TYPE", "antiguedad_meses")
    assert code_of({**BASE, "edad": [35]}) == ("INVALID_TYPE", "edad")
    assert code_of({**BASE, "edad": object()}) == ("INVALID_TYPE", "edad")
    assert code_of({**BASE, "antiguedad_meses": 2**80}) == ("VALUE_OUT_OF_RANGE", "antiguedad_meses")
    assert code_of({**BASE, "ingreso_mensual": 10**400}) == ("AMOUNT_TOO_LARGE", "ingreso_mensual")


def test_profiles_that_are_not_mappings() -> None:
    assert code_of(None) == ("INVALID_TYPE", None)
    assert code_of([BASE]) == ("INVALID_TYPE", None)
    assert code_of("CMX") == ("INVALID_TYPE", None)
    assert code_of(object()) == ("INVALID_TYPE", None)
    assert code_of({1: "x", **BASE}) == ("UNKNOWN_FIELD", "1")


def test_score_json_rejects_bad_text() -> None:
    with pytest.raises(platform_score.ScoreError) as info:
        platform_score.score_json("{")
    assert (info.value.code, info.value.field) == ("INVALID_JSON", None)


def test_report_text_is_identical_to_score_core_json() -> None:
    text = platform_score.score_json(json.dumps(BASE))
    assert json.dumps(platform_score.score(BASE), ensure_ascii=False, separators=(",", ":")) == text


def test_score_many_accepts_generators_and_empty_input() -> None:
    assert platform_score.score_many([]) == []
    assert platform_score.score_many(iter([BASE, BASE])) == [platform_score.score(BASE)] * 2
    assert platform_score.score_many([BASE], decimals=True)[0] == platform_score.score(BASE, decimals=True)


def test_score_many_restores_the_garbage_collector() -> None:
    import gc

    assert gc.isenabled()
    platform_score.score_many([BASE] * 10)
    assert gc.isenabled()
    with pytest.raises(platform_score.ScoreError):
        platform_score.score_many([BASE, {}])
    assert gc.isenabled()
    gc.disable()
    try:
        platform_score.score_many([BASE])
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_concurrent_threads_get_the_same_reports() -> None:
    profiles = [{**BASE, "ingreso_mensual": 10000 + 37 * i} for i in range(3000)]
    expected = [platform_score.score(p) for p in profiles]
    results: Dict[int, Any] = {}

    def work(k: int) -> None:
        results[k] = platform_score.score_many(profiles)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(results[k] == expected for k in range(4))
