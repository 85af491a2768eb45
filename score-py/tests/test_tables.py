"""score_frame over every table library (pandas, pyarrow, polars, DuckDB): the caller's type
back, ids carried through with keep, other columns ignored with extra="ignore", and the
published schema, the same whether or not a row fails."""

from __future__ import annotations

from typing import Any, Dict, List

import pytest

import platform_score
from conftest import load_cases
from test_frame import check_rows

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")
pl = pytest.importorskip("polars")
duckdb = pytest.importorskip("duckdb")

PROFILES = [c["input"] for c in load_cases() if "expected" in c and isinstance(c.get("input"), dict)]
KEYS = [k for k in platform_score.PROFILE_FIELDS if any(k in p for p in PROFILES)]


def columns(profiles: List[Dict[str, Any]]) -> Dict[str, List[Any]]:
    return {k: [p.get(k) for p in profiles] for k in KEYS}


def with_ids(profiles: List[Dict[str, Any]]) -> Dict[str, List[Any]]:
    return {"cliente_id": [f"C-{i:04}" for i in range(len(profiles))], **columns(profiles),
            "sucursal": [i % 3 for i in range(len(profiles))]}


def bad_row(profiles: List[Dict[str, Any]], row: int) -> List[Dict[str, Any]]:
    out = list(profiles)
    out[row] = {**out[row], "estado": "Atlantis"}
    return out


def report_rows(rows: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    drop = {"cliente_id", "sucursal", *platform_score.ERROR_COLUMNS}
    return [{k: v for k, v in r.items() if k not in drop} for r in rows]


def test_polars_in_polars_out_with_the_same_numbers() -> None:
    df = pl.DataFrame(with_ids(PROFILES), strict=False)
    out = platform_score.score_frame(df, keep=["cliente_id"], extra="ignore")
    assert isinstance(out, pl.DataFrame) and out.height == len(PROFILES)
    assert out.columns[0] == "cliente_id" and out["cliente_id"].to_list() == df["cliente_id"].to_list()
    assert "sucursal" not in out.columns
    assert out["score"].dtype == pl.Int64 and out["nivel"].dtype == pl.Categorical
    check_rows(report_rows(out.to_dicts()), PROFILES)


def test_polars_and_pyarrow_give_the_same_table() -> None:
    data = with_ids(PROFILES * 3)
    from_arrow = platform_score.score_frame(pa.table(data), keep="cliente_id", extra="ignore", errors="return")
    from_polars = platform_score.score_frame(pl.DataFrame(data, strict=False), keep="cliente_id", extra="ignore",
                                             errors="return")
    assert from_polars.columns == from_arrow.column_names
    assert from_polars.to_dicts() == from_arrow.to_pylist()


def test_duckdb_relation_in_duckdb_relation_out() -> None:
    source = pa.table(with_ids(PROFILES))
    rel = duckdb.sql("select * from source")
    out = platform_score.score_frame(rel, keep=["cliente_id", "sucursal"], errors="return")
    assert isinstance(out, duckdb.DuckDBPyRelation)
    assert out.columns[:3] == ["cliente_id", "sucursal", "score"]
    assert out.columns[-3:] == list(platform_score.ERROR_COLUMNS)
    rows = out.order("cliente_id").arrow().read_all().to_pylist()
    assert [r["sucursal"] for r in rows] == source.column("sucursal").to_pylist()
    assert all(r["error_code"] is None for r in rows)
    check_rows(report_rows(rows), PROFILES)


def test_a_record_batch_and_a_capsule_only_object_are_tables_too() -> None:
    batch = pa.RecordBatch.from_pydict(columns(PROFILES))

    class Capsule:
        """An object with nothing but the Arrow PyCapsule stream interface (as nanoarrow's)."""

        def __arrow_c_stream__(self, requested_schema: Any = None) -> Any:
            return pa.table(columns(PROFILES)).__arrow_c_stream__(requested_schema)

    for data in (batch, Capsule()):
        out = platform_score.score_frame(data)
        assert isinstance(out, pa.Table)
        check_rows(out.to_pylist(), PROFILES)


def test_keep_carries_ids_through_pandas_with_the_index() -> None:
    df = pd.DataFrame(with_ids(PROFILES), index=[f"r{i}" for i in range(len(PROFILES))])
    out = platform_score.score_frame(df, keep=["sucursal", "cliente_id"], extra="ignore")
    assert list(out.columns[:3]) == ["sucursal", "cliente_id", "score"]
    assert list(out.index) == list(df.index) and out["cliente_id"].tolist() == df["cliente_id"].tolist()
    assert out["sucursal"].dtype == df["sucursal"].dtype
    check_rows(report_rows(out.to_dict("records")), PROFILES)


def test_a_kept_profile_field_is_read_and_carried() -> None:
    out = platform_score.score_frame(pa.table(columns(PROFILES)), keep=["estado"])
    assert out.column_names[0] == "estado" and out.column("estado").to_pylist() == columns(PROFILES)["estado"]
    check_rows([{k: v for k, v in r.items() if k != "estado"} for r in out.to_pylist()], PROFILES)


def test_unknown_columns_still_fail_without_extra_ignore() -> None:
    data = with_ids(PROFILES[:3])
    with pytest.raises(platform_score.ScoreError) as info:
        platform_score.score_frame(pa.table(data), keep=["cliente_id"])
    assert (info.value.code, info.value.field, info.value.index) == ("UNKNOWN_FIELD", "sucursal", 0)
    out = platform_score.score_frame(pl.DataFrame(data, strict=False), keep=["cliente_id"], errors="return")
    assert out["error_code"].to_list() == ["UNKNOWN_FIELD"] * 3
    assert out["error_field"].to_list() == ["sucursal"] * 3
    assert all("sucursal" in m for m in out["error_message"].to_list())


@pytest.mark.parametrize("keep", [["id"], ["cliente_id", "cliente_id"], ["score"]])
def test_bad_keeps_raise_value_error_in_spanish(keep: List[str]) -> None:
    data = {**with_ids(PROFILES[:2]), "score": [1, 2]}
    with pytest.raises(ValueError, match="keep nombra la columna"):
        platform_score.score_frame(pa.table(data), keep=keep, extra="ignore")


def test_extra_must_be_error_or_ignore() -> None:
    with pytest.raises(ValueError, match="extra debe ser"):
        platform_score.score_frame(pa.table(columns(PROFILES)), extra="drop")  # type: ignore[arg-type]


@pytest.mark.parametrize("make", [pa.table, lambda d: pl.DataFrame(d, strict=False), pd.DataFrame])
def test_the_schema_is_fixed_whether_or_not_a_row_fails(make: Any) -> None:
    good = platform_score.score_frame(make(with_ids(PROFILES)), keep="cliente_id", extra="ignore", errors="return")
    bad = platform_score.score_frame(make(with_ids(bad_row(PROFILES, 1))), keep="cliente_id", extra="ignore",
                                     errors="return")
    schema = [name for name, _, _ in platform_score.output_schema(["cliente_id"], errors="return")]
    for out in (good, bad):
        assert list(out.column_names if isinstance(out, pa.Table) else out.columns) == schema
    if make is pa.table:
        assert good.schema == bad.schema
        expected = platform_score.arrow_schema([good.schema.field("cliente_id")], errors="return")
        assert good.schema == expected
    elif make is pd.DataFrame:
        assert good.dtypes.to_dict() == bad.dtypes.to_dict()
        assert str(good["score"].dtype) == "Int64"
    else:
        assert good.schema == bad.schema


def test_failed_rows_carry_code_field_and_message() -> None:
    profiles = bad_row(PROFILES, 2)
    out = platform_score.score_frame(pd.DataFrame(profiles), errors="return")
    assert out["error_code"].tolist()[2] == "UNKNOWN_STATE" and out["error_field"].tolist()[2] == "estado"
    with pytest.raises(platform_score.ScoreError) as info:
        platform_score.score(profiles[2])
    assert out["error_message"].tolist()[2] == str(info.value).split(": ", 1)[1]
    assert out["error_message"].isna().sum() == len(profiles) - 1
    assert list(out["error_code"].cat.categories) == list(platform_score.ERROR_CODES)


def test_output_schema_lists_kept_report_and_error_columns() -> None:
    schema = platform_score.output_schema(["cliente_id"], errors="return")
    assert schema[0] == ("cliente_id", "kept", None)
    assert [c[0] for c in schema[-3:]] == list(platform_score.ERROR_COLUMNS)
    assert schema[-3][1:] == ("cat", list(platform_score.ERROR_CODES))
    assert len(platform_score.output_schema()) == len(schema) - 4
    assert platform_score.arrow_schema(dictionary=False).field("nivel").type == pa.string()
