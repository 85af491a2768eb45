"""Invariants of the model (those of score-core/tests/properties.rs), through the Python API."""

from __future__ import annotations

import json
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Dict

from hypothesis import given, settings
from hypothesis import strategies as st

import platform_score

STATES = (
    "AGU BCN BCS CAM COA COL CHP CHH CMX DUR GUA GRO HID JAL MEX MIC "
    "MOR NAY NLE OAX PUE QUE ROO SLP SIN SON TAB TAM TLA VER YUC ZAC"
).split()
TYPES = ["asalariado", "independiente", "mixto", "pensionado"]


def money(max_cents: int, min_cents: int = 0) -> st.SearchStrategy[float]:
    return st.integers(min_cents, max_cents).map(lambda c: c / 100)


profiles = st.fixed_dictionaries(
    {
        "estado": st.sampled_from(STATES),
        "ingreso_mensual": money(50_000_000, 1),
        "tipo_ingreso": st.sampled_from(TYPES),
        "antiguedad_meses": st.integers(0, 720),
    },
    optional={
        "deudas_mensuales": money(5_000_000),
        "ahorro": money(500_000_000),
        "edad": st.integers(18, 100),
        "personas_hogar": st.integers(1, 20),
        "subcuenta_fondo": money(100_000_000),
    },
)

COMPONENTS = ["ingreso", "tipo_ingreso", "antiguedad", "deudas", "ahorro", "salud_financiera"]
settings.register_profile("default", max_examples=300, deadline=None, database=None)
settings.load_profile("default")


def score(p: Dict[str, Any]) -> int:
    return platform_score.score(p)["score"]


@given(profiles)
def test_score_and_components_stay_in_range(p: Dict[str, Any]) -> None:
    r = platform_score.score(p)
    assert 0 <= r["score"] <= 1000
    for name in COMPONENTS:
        assert 0 <= r["componentes"][name]["valor"] <= 100
    assert 0 <= r["salud_financiera"]["score"] <= 100


@given(profiles)
def test_level_matches_the_score_range(p: Dict[str, Any]) -> None:
    r = platform_score.score(p)
    s = r["score"]
    expected = "bajo" if s <= 400 else "medio" if s <= 600 else "alto" if s <= 800 else "excelente"
    assert r["nivel"] == expected


@given(profiles)
def test_valor_realista_follows_the_formula(p: Dict[str, Any]) -> None:
    c = platform_score.score(p, decimals=True)["capacidad_compra_estimada"]
    factor = c["factor_platform_v2"]
    assert Decimal("0.7") <= factor <= Decimal("1.3")
    ajuste = min(max(2 - factor, Decimal("0.7")), Decimal("1.3"))
    # On the shown figures, rounded half away from zero to cents (all amounts are >= 0).
    assert c["valor_realista"] == (c["valor_bancario"] * ajuste).quantize(Decimal("0.01"), ROUND_HALF_UP)


@given(profiles, money(5_000_000, 1))
def test_more_income_never_lowers_the_score(p: Dict[str, Any], extra: float) -> None:
    richer = {**p, "ingreso_mensual": min(float(Decimal(repr(p["ingreso_mensual"])) + Decimal(repr(extra))), 1e8)}
    assert score(richer) >= score(p)


@given(profiles, st.integers(0, 200))
def test_more_seniority_never_lowers_the_score(p: Dict[str, Any], extra: int) -> None:
    assert score({**p, "antiguedad_meses": min(p["antiguedad_meses"] + extra, 720)}) >= score(p)


@given(profiles, money(100_000_000, 1))
def test_more_savings_never_lowers_the_score(p: Dict[str, Any], extra: float) -> None:
    saver = {**p, "ahorro": float(Decimal(repr(p.get("ahorro", 0.0))) + Decimal(repr(extra)))}
    assert score(saver) >= score(p)


@given(profiles, money(2_000_000, 1))
def test_more_declared_debt_never_raises_the_score(p: Dict[str, Any], extra: float) -> None:
    base = {**p, "deudas_mensuales": p.get("deudas_mensuales", 0.0)}
    indebted = {**base, "deudas_mensuales": float(Decimal(repr(base["deudas_mensuales"])) + Decimal(repr(extra)))}
    assert score(indebted) <= score(base)


@given(profiles)
def test_scoring_is_deterministic_and_every_entry_point_agrees(p: Dict[str, Any]) -> None:
    r = platform_score.score(p)
    assert platform_score.score(dict(p)) == r
    assert json.loads(platform_score.score_json(json.dumps(p))) == r
    assert platform_score.score_many([p, p]) == [r, r]


@given(profiles)
def test_legacy_keys_mirror_the_capacity_block(p: Dict[str, Any]) -> None:
    r = platform_score.score(p)
    c = r["capacidad_compra_estimada"]
    assert r["valor_vivienda_max"] == c["valor_bancario"]
    assert r["credito_max"] == c["credito_max"]
    assert r["enganche_min"] == c["enganche_requerido"]
    assert r["pago_mensual_estimado"] == c["pago_mensual_estimado"]
    assert r["renta_estimada"] == c["renta_equivalente"]
    assert r["recomendaciones"] == [d["texto"] for d in r["recomendaciones_detalle"]]


json_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12), st.sampled_from(["CMX", "09", "Nuevo León", "asalariado", "MX-JAL", "33", ""]),
)
json_values = st.recursive(json_leaf, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=8)
field_maps = st.dictionaries(st.sampled_from(list(platform_score.PROFILE_FIELDS) + ["otro"]), json_values, max_size=9)


@given(st.one_of(json_values, field_maps))
def test_any_value_gives_a_report_or_the_same_coded_error_as_json_text(value: Any) -> None:
    try:
        expected: Any = ("ok", json.loads(platform_score.score_json(json.dumps(value))))
    except platform_score.ScoreError as e:
        expected = (e.code, e.field)
        assert e.code in platform_score.ERROR_CODES
    try:
        got: Any = ("ok", platform_score.score(value))
    except platform_score.ScoreError as e:
        got = (e.code, e.field)
    assert got == expected
