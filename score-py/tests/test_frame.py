"""score_frame: a pandas DataFrame or a pyarrow Table in, the report columns out, and the same
numbers as score() row by row (other libraries, keep and extra: test_tables.py)."""

from __future__ import annotations

import json
from typing import Any, Dict, List

import pytest

import platform_score
from conftest import load_cases

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")

VALID = [c for c in load_cases() if "expected" in c and isinstance(c.get("input"), dict)]


def flatten(report: Dict[str, Any]) -> Dict[str, Any]:
    """The documented flattening of a report into frame columns."""
    c = report["capacidad_compra_estimada"]
    row = {"score": report["score"], "nivel": report["nivel"]}
    row.update({k: v for k, v in c.items()})
    for k, v in report["salud_financiera"].items():
        row[f"salud_financiera_{k}"] = v
    for name, comp in report["componentes"].items():
        for k, v in comp.items():
            row[f"componente_{name}_{k}"] = v
    for k, v in report["estado"].items():
        row[f"estado_{k}"] = v
    row["recomendaciones_codigos"] = "|".join(d["codigo"] for d in report["recomendaciones_detalle"])
    row["dictamen_precalifica"] = int(report["dictamen"]["precalifica"])
    row["dictamen_condicion"] = report["dictamen"]["condicion"]
    return row


def check_rows(frame_rows: List[Dict[str, Any]], profiles: List[Dict[str, Any]]) -> None:
    for got, profile in zip(frame_rows, profiles):
        expected = flatten(platform_score.score(profile))
        assert set(got) == set(expected)
        for key, value in expected.items():
            assert got[key] == value, (key, got[key], value)
            assert isinstance(got[key], str) == isinstance(value, str)


def test_fixture_profiles_round_trip_through_a_dataframe() -> None:
    profiles = [c["input"] for c in VALID]
    df = pd.DataFrame(profiles, index=[f"p{i}" for i in range(len(profiles))])
    out = platform_score.score_frame(df)
    assert list(out.index) == list(df.index)
    assert out["score"].dtype == "int64" and out["valor_realista"].dtype == "float64"
    assert isinstance(out["nivel"].dtype, pd.CategoricalDtype)
    check_rows(out.to_dict("records"), profiles)


def test_fixture_profiles_round_trip_through_an_arrow_table() -> None:
    profiles = [c["input"] for c in VALID]
    keys = [k for k in platform_score.PROFILE_FIELDS if any(k in p for p in profiles)]
    table = pa.table({k: [p.get(k) for p in profiles] for k in keys})
    out = platform_score.score_frame(table)
    assert isinstance(out, pa.Table) and out.num_rows == len(profiles)
    check_rows(out.to_pylist(), profiles)


def test_a_large_frame_is_scored_in_parallel_and_matches_score() -> None:
    profiles = [c["input"] for c in VALID] * 60
    df = pd.DataFrame(profiles)
    out = platform_score.score_frame(df)
    rows = out.to_dict("records")
    check_rows(rows[::53], profiles[::53])


def test_column_dtypes_are_read_like_values() -> None:
    base = {"estado": "CMX", "ingreso_mensual": 30000.5, "tipo_ingreso": "asalariado", "antiguedad_meses": 36}
    df = pd.DataFrame([base, {**base, "estado": "Jalisco", "antiguedad_meses": 7}])
    df["estado"] = df["estado"].astype("category")
    df["antiguedad_meses"] = df["antiguedad_meses"].astype("Int32")
    df["edad"] = pd.array([35, None], dtype="Int64")
    out = platform_score.score_frame(df)
    profiles = [{**base, "edad": 35}, {**base, "estado": "Jalisco", "antiguedad_meses": 7}]
    check_rows(out.to_dict("records"), profiles)


def test_errors_raise_with_the_row_position() -> None:
    df = pd.DataFrame([c["input"] for c in VALID[:3]])
    df.loc[1, "estado"] = "Atlantis"
    with pytest.raises(platform_score.ScoreError) as info:
        platform_score.score_frame(df)
    assert (info.value.code, info.value.field, info.value.index) == ("UNKNOWN_STATE", "estado", 1)


def test_unknown_columns_fail_like_unknown_keys() -> None:
    df = pd.DataFrame([c["input"] for c in VALID[:2]]).assign(cliente_id=[7, 8])
    with pytest.raises(platform_score.ScoreError) as info:
        platform_score.score_frame(df)
    assert (info.value.code, info.value.field, info.value.index) == ("UNKNOWN_FIELD", "cliente_id", 0)


def test_errors_return_keeps_the_good_rows() -> None:
    profiles = [c["input"] for c in VALID[:4]]
    df = pd.DataFrame(profiles)
    df["ingreso_mensual"] = df["ingreso_mensual"].astype(object)
    df.loc[2, "ingreso_mensual"] = "mucho"
    out = platform_score.score_frame(df, errors="return")
    assert out["error_code"].tolist()[2] == "INVALID_TYPE" and out["error_field"].tolist()[2] == "ingreso_mensual"
    assert out["error_code"].isna().tolist() == [True, True, False, True]
    assert out["score"].isna().tolist() == [False, False, True, False]
    good = [i for i in range(4) if i != 2]
    check_rows(
        [{k: v for k, v in out.iloc[i].to_dict().items() if not k.startswith("error_")} for i in good],
        [profiles[i] for i in good],
    )
    keys = [k for k in platform_score.PROFILE_FIELDS if any(k in p for p in profiles)]
    columns = {k: [p.get(k) for p in profiles] for k in keys}
    columns["estado"][2] = None
    table = platform_score.score_frame(pa.table(columns), errors="return")
    assert table.column("error_code").to_pylist() == [None, None, "MISSING_FIELD", None]
    assert table.column("error_field").to_pylist() == [None, None, "estado", None]
    assert table.column("score").null_count == 1
    check_rows([{k: v for k, v in r.items() if not k.startswith("error_")} for r in table.to_pylist()][:2], profiles[:2])


def test_errors_all_adds_every_mistake_as_json() -> None:
    """errors="all": the first mistake in error_message, every mistake in the errors column."""
    four = next(c for c in load_cases() if c["id"] == "143-error-four-mistakes")
    rows = [VALID[0]["input"], four["input"]]
    keys = sorted({k for r in rows for k in r})
    df = pd.DataFrame({k: pd.Series([r.get(k) for r in rows], dtype=object) for k in keys})
    out = platform_score.score_frame(df, errors="all")
    assert list(out.columns[-4:]) == [*platform_score.ERROR_COLUMNS, "errors"]
    assert out["error_code"].tolist()[1] == four["error"]["code"]
    assert out["error_message"].tolist()[1] == four["error"]["errores"][0]["mensaje"]
    assert json.loads(out["errors"].tolist()[1]) == four["error"]["errores"]
    assert out["errors"].isna().tolist() == [True, False]
    table = platform_score.score_frame(pa.Table.from_pandas(df), errors="all")
    assert json.loads(table.column("errors").to_pylist()[1]) == four["error"]["errores"]
    assert platform_score.output_schema(errors="all")[-1] == ("errors", "str", None)
    with pytest.raises(platform_score.ScoreError) as info:
        platform_score.score_frame(df)
    assert info.value.errors == four["error"]["errores"]


def test_other_inputs_are_rejected() -> None:
    with pytest.raises(TypeError):
        platform_score.score_frame([{"estado": "CMX"}])
    with pytest.raises(ValueError):
        platform_score.score_frame(pd.DataFrame(), errors="ignore")  # type: ignore[arg-type]


def spread_errors(n_rows: int) -> List[Dict[str, Any]]:
    """`n_rows` fixture profiles, with bad rows spread over every chunk of the frame path."""
    base = [c["input"] for c in VALID]
    profiles = [base[i % len(base)] for i in range(n_rows)]
    for i in range(3, n_rows, 1013):
        profiles[i] = {**profiles[i], "estado": "Atlantis"}
    for i in range(700, n_rows, 2477):
        profiles[i] = {**profiles[i], "edad": 7}
    return profiles


def expected_errors(profiles: List[Dict[str, Any]]) -> Dict[int, Any]:
    out = {}
    for i, p in enumerate(profiles):
        try:
            platform_score.score(p)
        except platform_score.ScoreError as e:
            out[i] = (e.code, e.field)
    return out


def test_many_chunks_with_errors_in_each_keep_every_row_in_place() -> None:
    # Several chunks of the frame path (scored by the calling thread and by helper threads).
    profiles = spread_errors(5 * 8192 + 321)
    errors = expected_errors(profiles)
    assert len(errors) > 40
    out = platform_score.score_frame(pd.DataFrame(profiles), errors="return")
    assert len(out) == len(profiles)
    codes, fields = out["error_code"].tolist(), out["error_field"].tolist()
    for i in range(len(profiles)):
        if i in errors:
            assert (codes[i], fields[i]) == errors[i], i
        else:
            assert pd.isna(codes[i]) and pd.isna(fields[i]), i
    assert out["score"].isna().sum() == len(errors) and out["valor_realista"].isna().sum() == len(errors)
    assert out["nivel"].isna().sum() == len(errors) and out["recomendaciones_codigos"].isna().sum() == len(errors)
    good = [i for i in range(len(profiles)) if i not in errors]
    rows = out.drop(columns=list(platform_score.ERROR_COLUMNS)).iloc[good[::97] + good[-3:]]
    check_rows(rows.to_dict("records"), [profiles[i] for i in good[::97] + good[-3:]])
    with pytest.raises(platform_score.ScoreError) as info:
        platform_score.score_frame(pd.DataFrame(profiles))
    assert (info.value.code, info.value.field, info.value.index) == ("UNKNOWN_STATE", "estado", 3)


def test_many_chunks_match_score_in_every_column_and_category_order() -> None:
    base = [c["input"] for c in VALID]
    profiles = [base[(i * 7) % len(base)] for i in range(3 * 8192 + 5)]
    out = platform_score.score_frame(pd.DataFrame(profiles))
    reports = {i: platform_score.score(p) for i, p in enumerate(base)}
    expected = [flatten(reports[(i * 7) % len(base)]) for i in range(len(profiles))]
    for name in out.columns:
        got = out[name].tolist()
        assert got == [row[name] for row in expected], name
    # Categories of recomendaciones_codigos: each distinct sequence once, by first appearance.
    seen: List[str] = []
    for row in expected:
        if row["recomendaciones_codigos"] not in seen:
            seen.append(row["recomendaciones_codigos"])
    assert list(out["recomendaciones_codigos"].cat.categories) == seen


def test_output_dtypes_and_categories() -> None:
    out = platform_score.score_frame(pd.DataFrame([c["input"] for c in VALID] * 50))
    text = {"nivel", "evaluacion_m2", "estatus_enganche", "estado_clave", "estado_codigo", "estado_nombre",
            "recomendaciones_codigos", "dictamen_condicion"}
    for name, dtype in out.dtypes.items():
        if name in ("score", "plazo_anios", "dictamen_precalifica"):
            assert dtype == "int64", name
        elif name in text:
            assert isinstance(dtype, pd.CategoricalDtype), name
        else:
            assert dtype == "float64", name
    assert list(out["nivel"].cat.categories) == ["bajo", "medio", "alto", "excelente"]
    assert len(out["estado_codigo"].cat.categories) == 32 and out["estado_codigo"].cat.categories[8] == "CMX"
    assert len(out.columns) == 48


def test_many_chunks_through_arrow_with_errors() -> None:
    profiles = spread_errors(3 * 8192 + 77)
    errors = expected_errors(profiles)
    keys = [k for k in platform_score.PROFILE_FIELDS if any(k in p for p in profiles)]
    table = platform_score.score_frame(pa.table({k: [p.get(k) for p in profiles] for k in keys}), errors="return")
    codes = table.column("error_code").to_pylist()
    assert {i: c for i, c in enumerate(codes) if c is not None} == {i: e[0] for i, e in errors.items()}
    assert table.column("score").null_count == len(errors)
    rows = table.to_pylist()
    sample = [i for i in range(0, len(profiles), 89) if i not in errors]
    check_rows([{k: v for k, v in rows[i].items() if not k.startswith("error_")} for i in sample],
               [profiles[i] for i in sample])
