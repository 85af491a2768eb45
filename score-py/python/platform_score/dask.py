# mypy: disable-error-code="import-untyped"
"""Scoring a Dask DataFrame: ``platform_score.dask.score(ddf)``, ``score_frame`` on every
partition with the output's ``meta`` taken from the published schema, so Dask knows the
columns and dtypes without scoring a row."""

from __future__ import annotations

from typing import Any, Literal, Optional, Sequence, Union

from . import _core
from ._frame import _check_calibration, output_schema, score_frame


def score(
    ddf: Any,
    *,
    keep: Union[str, Sequence[str]] = (),
    extra: Literal["error", "ignore"] = "error",
    errors: Literal["raise", "return", "all"] = "raise",
    calibration: Optional["_core.Calibration"] = None,
) -> Any:
    """The Dask DataFrame of ``score_frame`` on each partition (pandas partitions keep their
    index), with the same ``keep``, ``extra``, ``errors`` (``"all"`` adds the ``errors`` column
    of every mistake) and ``calibration``. The categorical columns whose categories come from
    the rows (``recomendaciones_codigos``) have unknown categories in the meta, as Dask expects
    of categories that differ between partitions."""
    import dask.dataframe as dd

    _check_calibration(calibration)
    keep = [keep] if isinstance(keep, str) else list(keep)
    # score_frame of the empty frame of the input's dtypes: the schema's columns and dtypes.
    meta = score_frame(ddf._meta, keep=keep, extra=extra, errors=errors, calibration=calibration)
    from_rows = [name for name, kind, categories in output_schema(keep, errors=errors)
                 if kind == "cat" and categories is None]
    meta = dd.utils.clear_known_categories(meta, cols=from_rows)
    return ddf.map_partitions(score_frame, keep=keep, extra=extra, errors=errors, calibration=calibration, meta=meta)
