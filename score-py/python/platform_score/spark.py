# mypy: disable-error-code="import-untyped"
"""Scoring a Spark DataFrame on the cluster that holds it: ``platform_score.spark.score(df)``.

Each executor's Python worker scores its Arrow record batches with ``score_frame`` through
``DataFrame.mapInArrow`` (no pandas copy), into the published schema (``arrow_schema`` with
plain strings for the categorical columns, which Spark has not), so Spark knows the output
columns before it sees a row. The executors need the wheel installed (see the README's
"Spark on a cluster")."""

from __future__ import annotations

from typing import Any, Iterator, Literal, Optional, Sequence, Union

from . import _core
from ._frame import _check_calibration, _errors_flag, arrow_schema, score_frame


def score(
    df: Any,
    *,
    keep: Union[str, Sequence[str]] = (),
    extra: Literal["error", "ignore"] = "error",
    errors: Literal["raise", "return", "all"] = "raise",
    calibration: Optional["_core.Calibration"] = None,
) -> Any:
    """The Spark DataFrame of ``score_frame(df, keep=..., extra=..., errors=...,
    calibration=...)``, computed lazily on the executors, one output row per input row,
    partition by partition (row order within a partition is kept). ``errors="raise"`` fails the
    Spark job on the first bad row (the task's error names the code and the row in its batch);
    ``errors="return"`` keeps every row, with ``error_code``, ``error_field`` and
    ``error_message``; ``errors="all"`` adds ``errors``, every mistake of the row as JSON text.
    ``calibration`` (a ``Calibration``) travels to the executors pickled (as its TOML)."""
    from pyspark.sql.pandas.types import from_arrow_schema, to_arrow_schema

    _check_calibration(calibration)
    return_errors = _errors_flag(errors)
    keep = [keep] if isinstance(keep, str) else list(keep)
    # score-core's checks of keep and extra (ValueError), on the driver before Spark runs.
    _core._plan(df.columns, keep, extra, return_errors, errors == "all")
    source = to_arrow_schema(df.select(*keep).schema) if keep else None
    schema = arrow_schema([source.field(name) for name in keep] if source is not None else [], errors=errors,
                          dictionary=False)

    def score_batches(batches: Iterator[Any]) -> Iterator[Any]:
        for batch in batches:
            table = score_frame(batch, keep=keep, extra=extra, errors=errors, calibration=calibration)
            yield from table.cast(schema).to_batches()

    return df.mapInArrow(score_batches, from_arrow_schema(schema))
