"""Tables at scale, side by side in one run: score_frame on pyarrow, polars and pandas, the
platform-score command on a Parquet file, and Spark local[2] (mapInArrow) on the same rows.

Run from the repository root, after make test-py (which installs the release wheel, pyspark and
a Java runtime into .venv):

    .venv/bin/python benches/python/bench_tables.py               # 1,000,000 rows
    .venv/bin/python benches/python/bench_tables.py --n 200000 --parts arrow,polars
    .venv/bin/python benches/python/bench_tables.py --spark-batch 100000   # Arrow batches for Spark

Spark's share is shown by two floors: "spark-identity" sends the input batches through a Python
worker and back unscored; "spark-width" answers each batch with a ready scored batch of the same
rows, so it is Spark's cost of taking in the report's columns, without the scoring.

Each path is timed best of --repeat, the rounds interleaved (arrow, polars, pandas, command,
spark, a pass-through mapInArrow, then again) so that the machine's load hits every path alike; the ratios compare
throughputs of one run. Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, List

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

import platform_score  # noqa: E402
from platform_score import spark as score_spark  # noqa: E402  (imports pyspark only when called)
from bench_py import random_profile  # noqa: E402

PARTS = ["arrow", "polars", "pandas", "command", "spark", "spark-identity", "spark-width"]


def pass_through(batches: Any) -> Any:
    """Spark's own cost of mapInArrow: the batches sent to a Python worker and back, unscored."""
    yield from batches


def portfolio(n: int) -> Any:
    rng = random.Random(20)
    rows = [random_profile(rng) for _ in range(n)]
    columns: Dict[str, List[Any]] = {"cliente_id": list(range(n))}
    for key in platform_score.PROFILE_FIELDS:
        if any(key in r for r in rows[:1000]):
            columns[key] = [r.get(key) for r in rows]
    return pa.table(columns)


def timed(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    result = fn()
    elapsed = time.perf_counter() - start
    del result
    return elapsed


def spark_session() -> Any:
    from pyspark.sql import SparkSession

    os.environ["PYSPARK_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2]")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.memory", "4g")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    return session


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="rows")
    parser.add_argument("--repeat", type=int, default=3, help="rounds (the best of them is kept)")
    parser.add_argument("--parts", default=",".join(PARTS), help=f"comma-separated, of {','.join(PARTS)}")
    parser.add_argument("--spark-batch", type=int, default=0,
                        help="spark.sql.execution.arrow.maxRecordsPerBatch (0: Spark's default)")
    args = parser.parse_args()
    parts = args.parts.split(",")
    load_before = os.getloadavg()
    print(f"platform_score {platform_score.__version__}, Python {platform.python_version()}, "
          f"{os.cpu_count()} CPUs, {args.n:,} rows, load {load_before[0]:.2f}")
    table = portfolio(args.n)
    inputs: Dict[str, Any] = {"arrow": table}
    if "polars" in parts:
        import polars as pl

        inputs["polars"] = pl.from_arrow(table)
    if "pandas" in parts:
        inputs["pandas"] = table.to_pandas()
    workdir = Path(tempfile.mkdtemp(prefix="bench-tables-"))
    source, target = workdir / "cartera.parquet", workdir / "puntajes.parquet"
    pq.write_table(table, source)
    command = [str(Path(sys.executable).parent / "platform-score"), "score", str(source), "-o", str(target),
               "--keep", "cliente_id", "--no-progress"]
    spark_df = None
    spark_parts = {"spark", "spark-identity", "spark-width"} & set(parts)
    ready = None
    if spark_parts:
        from pyspark.sql.pandas.types import from_arrow_schema

        spark = spark_session()
        if args.spark_batch:
            spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", str(args.spark_batch))
        spark_df = spark.read.parquet(str(source)).cache()
        spark_df.count()  # read and cached before the clock: the figure is the scoring
        print(f"spark: {spark_df.rdd.getNumPartitions()} partitions, "
              f"maxRecordsPerBatch {spark.conf.get('spark.sql.execution.arrow.maxRecordsPerBatch')}")
        # One scored batch, as large as any Spark sends, in the schema spark.score produces.
        out_schema = platform_score.arrow_schema([table.schema.field("cliente_id")], dictionary=False)
        rows = int(spark.conf.get("spark.sql.execution.arrow.maxRecordsPerBatch"))
        ready = platform_score.score_frame(table.slice(0, rows), keep="cliente_id").cast(out_schema).combine_chunks()

    def same_width(batches: Any) -> Any:
        """The report's columns for each batch, taken from `ready` instead of scored."""
        for batch in batches:
            yield from ready.slice(0, batch.num_rows).to_batches()

    runs: Dict[str, Callable[[], Any]] = {
        "arrow": lambda: platform_score.score_frame(inputs["arrow"], keep="cliente_id"),
        "polars": lambda: platform_score.score_frame(inputs["polars"], keep="cliente_id"),
        "pandas": lambda: platform_score.score_frame(inputs["pandas"], keep="cliente_id"),
        "command": lambda: subprocess.run(command, check=True),
        "spark": lambda: score_spark.score(spark_df, keep="cliente_id")
        .write.format("noop").mode("overwrite").save(),
        "spark-identity": lambda: spark_df.mapInArrow(pass_through, spark_df.schema)
        .write.format("noop").mode("overwrite").save(),
        "spark-width": lambda: spark_df.mapInArrow(same_width, from_arrow_schema(ready.schema))
        .write.format("noop").mode("overwrite").save(),
    }
    times: Dict[str, List[float]] = {part: [] for part in parts}
    for _ in range(args.repeat):
        for part in parts:
            times[part].append(timed(runs[part]))
    load_after = os.getloadavg()
    best = {part: min(t) for part, t in times.items()}
    labels = {
        "arrow": "score_frame(pyarrow Table)",
        "polars": "score_frame(polars DataFrame)",
        "pandas": "score_frame(pandas DataFrame)",
        "command": "platform-score score in.parquet -o out.parquet (whole process)",
        "spark": "spark.score on local[2] (cached DataFrame, noop sink)",
        "spark-identity": "mapInArrow pass-through on local[2] (Spark's floor)",
        "spark-width": "mapInArrow answering ready report columns (Spark's floor for them)",
    }
    for part in parts:
        runs_text = ", ".join(f"{t:.3f}" for t in times[part])
        print(f"{labels[part]:<66} best {best[part]:7.3f} s  {args.n / best[part]:>12,.0f} rows/s  (runs {runs_text})")
    if "arrow" in best:
        for part in parts:
            if part != "arrow":
                print(f"throughput {part} / arrow: {best['arrow'] / best[part]:.2f}")
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f}")


if __name__ == "__main__":
    main()
