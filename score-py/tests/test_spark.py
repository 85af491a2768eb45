"""platform_score.spark.score on a real local Spark (local[2]): 100,000 rows through
mapInArrow give score_frame's table row for row, in the published schema."""

from __future__ import annotations

import os
import sys
from typing import Any, Dict, Iterator, List

import pytest

import platform_score
from conftest import load_cases

pa = pytest.importorskip("pyarrow")
pyspark = pytest.importorskip("pyspark")
import platform_score.spark  # noqa: E402

# pyspark checks its pandas version on every Arrow call and warns about pandas 3; this suite
# passes no pandas object to Spark.
pytestmark = pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning")

PROFILES = [c["input"] for c in load_cases() if "expected" in c and isinstance(c.get("input"), dict)]
KEYS = [k for k in platform_score.PROFILE_FIELDS if any(k in p for p in PROFILES)]
ROWS = 100_000


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    from pyspark.sql import SparkSession

    # The Python workers run this interpreter (the one with platform_score installed).
    os.environ["PYSPARK_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2]")
        .appName("platform-score tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", "20000")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def portfolio(n: int, bad_every: int = 0) -> Any:
    rows: List[Dict[str, Any]] = [dict(PROFILES[i % len(PROFILES)]) for i in range(n)]
    if bad_every:
        for i in range(5, n, bad_every):
            rows[i]["estado"] = "Atlantis"
    data: Dict[str, List[Any]] = {"cliente_id": list(range(n))}
    data.update({k: [r.get(k) for r in rows] for k in KEYS})
    data["sucursal"] = [f"S{i % 7}" for i in range(n)]
    return pa.table(data)


def test_100k_rows_on_local_spark_equal_score_frame_row_for_row(spark: Any) -> None:
    table = portfolio(ROWS, bad_every=997)
    df = spark.createDataFrame(table).repartition(4)
    out = platform_score.spark.score(df, keep=["cliente_id"], extra="ignore", errors="return")
    schema = platform_score.output_schema(["cliente_id"], errors="return")
    assert out.columns == [c[0] for c in schema]  # known before any row is scored
    got = out.toArrow().sort_by("cliente_id")
    expected = platform_score.score_frame(table, keep=["cliente_id"], extra="ignore", errors="return")
    assert got.num_rows == ROWS
    assert got.schema == platform_score.arrow_schema([pa.field("cliente_id", pa.int64())], errors="return",
                                                     dictionary=False)
    assert got.equals(expected.cast(got.schema))
    assert got.column("error_code").null_count == ROWS - len(range(5, ROWS, 997))


def test_a_bad_row_fails_the_spark_job_with_its_code(spark: Any) -> None:
    df = spark.createDataFrame(portfolio(50, bad_every=20))
    out = platform_score.spark.score(df, keep="cliente_id", extra="ignore")
    with pytest.raises(Exception, match="UNKNOWN_STATE"):
        out.collect()


def test_a_keep_the_frame_lacks_fails_before_spark_runs(spark: Any) -> None:
    df = spark.createDataFrame(portfolio(3))
    with pytest.raises(ValueError, match="keep nombra la columna \"id\""):
        platform_score.spark.score(df, keep=["id"])


def test_errors_all_and_a_calibration_reach_the_executors(spark: Any) -> None:
    """errors="all" gives score_frame's errors column; a Calibration travels to the executors
    (pickled as its TOML) and scores as score_frame does under it; anything else is TypeError."""
    import json

    four = next(c for c in load_cases() if c.get("id") == "143-error-four-mistakes")
    table = pa.Table.from_pylist([{**PROFILES[0], "cliente_id": 0}, {**four["input"], "cliente_id": 1}])
    table = table.select(["cliente_id", *[k for k in table.column_names if k != "cliente_id"]])
    embedded = platform_score.Calibration.default().to_toml()
    calibration = platform_score.Calibration.from_toml(embedded.replace(f'id = "{platform_score.Calibration.default().id}"',
                                                                        'id = "banco-spark-2026"', 1))
    out = platform_score.spark.score(spark.createDataFrame(table), keep="cliente_id", errors="all", calibration=calibration)
    assert out.columns == [c[0] for c in platform_score.output_schema(["cliente_id"], errors="all")]
    got = out.toArrow().sort_by("cliente_id")
    expected = platform_score.score_frame(table, keep="cliente_id", errors="all", calibration=calibration)
    assert got.equals(expected.cast(got.schema))
    assert json.loads(got.column("errors").to_pylist()[1]) == four["error"]["errores"]
    assert got.column("errors").to_pylist()[0] is None
    with pytest.raises(TypeError):
        platform_score.spark.score(spark.createDataFrame(table), calibration="banco-spark-2026")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        platform_score.spark.score(spark.createDataFrame(table), errors="everything")  # type: ignore[arg-type]
