# mypy: disable-error-code="import-untyped"
"""Columnar scoring of any table: a pandas DataFrame (read column by column with numpy), or any
object with the Arrow PyCapsule interface (pyarrow, polars, DuckDB, ...), read through pyarrow.
The result is of the caller's library. Every library is imported only when such an object is
passed. Which columns are read, kept or ignored, and the output schema, are score-core's
(`score_core::batch::TableSpec`); this module only converts."""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from typing import Any, Callable, Iterable, List, Literal, Optional, Sequence, Tuple, Union

from . import _core

_Column = Tuple[str, str, Any, Optional[List[str]]]
_SchemaColumn = Tuple[str, str, Optional[List[str]]]


def score_frame(
    data: Any,
    *,
    keep: Union[str, Sequence[str]] = (),
    extra: Literal["error", "ignore"] = "error",
    errors: Literal["raise", "return", "all"] = "raise",
    calibration: Optional["_core.Calibration"] = None,
) -> Any:
    """Score every row of a table: a pandas DataFrame, or any object with the Arrow PyCapsule
    interface (a pyarrow Table or RecordBatch, a polars DataFrame, a DuckDB relation, ...).

    Returns an object of the caller's library (pandas in, pandas out with the input's index;
    polars in, polars out; a DuckDB relation in, a DuckDB relation out; pyarrow otherwise) with
    one row per input row, in this fixed order (``output_schema()`` publishes it):

    - the ``keep`` columns, carried through untouched (ids);
    - the report flattened into columns: ``score``, ``nivel``, the
      ``capacidad_compra_estimada`` values under their own names (``valor_realista``,
      ``evaluacion_m2``, ``plazo_anios``, ...), ``salud_financiera_*``,
      ``estado_{clave,codigo,nombre}``, ``componente_<name>_{valor,peso,puntos}`` and
      ``recomendaciones_codigos`` (the recommendation codes joined by ``|``), then
      ``dictamen_precalifica`` (1 or 0) and ``dictamen_condicion``. Text columns are
      categorical (the credit products are not computed for columns);
    - with ``errors="return"``: ``error_code``, ``error_field`` and ``error_message`` (the
      row's first mistake), always present, null for the rows that scored (the report columns
      are null for the rows that failed); ``errors="all"`` adds ``errors``, every mistake of
      the row as JSON text (a list of ``{"codigo", "campo", "mensaje"}``, as
      ``ScoreError.errors``).

    The other columns are profile fields (``PROFILE_FIELDS``); a missing value (None, NaN, NA)
    is an absent field. A column that is neither a field nor kept fails every row with
    UNKNOWN_FIELD, as an unknown key does in ``score()``, unless ``extra="ignore"``.
    ``errors="raise"`` raises ScoreError for the first bad row (``.index`` is its position).
    A bad ``keep`` (a column the table lacks, or one named like an output column) or
    ``extra`` raises ValueError. ``calibration``: a ``Calibration`` (the embedded one when
    None), whose figures every row is scored with; the columns do not include ``calibracion``.
    """
    _check_calibration(calibration)
    return_errors = _errors_flag(errors)
    keep = [keep] if isinstance(keep, str) else list(keep)
    table = _Table.of(data)
    read, schema = _core._plan(table.names, keep, extra, return_errors, errors == "all")
    columns = [table.column(name) for name, wanted in zip(table.names, read) if wanted]
    ok, report_columns, failed = _core._score_columns(table.n_rows, columns, calibration)
    if failed and not return_errors:
        row, code, field, message, listed = failed[0]
        raise _core.ScoreError(
            f"rows[{row}]: {_core.ERROR_CODES[code]}: {message}", _core.ERROR_CODES[code], field, row, json.loads(listed)
        )
    return table.result(schema, ok, iter(report_columns), failed, return_errors)


def output_schema(
    keep: Union[str, Sequence[str]] = (), *, errors: Literal["raise", "return", "all"] = "raise"
) -> List[Tuple[str, str, Optional[List[str]]]]:
    """The columns ``score_frame`` returns, in order, as (name, kind, categories): kind is
    ``"i64"`` (64-bit integers), ``"f64"`` (doubles), ``"cat"`` (text from ``categories``, or
    from the rows when None), ``"str"`` (text) or ``"kept"`` (a ``keep`` column, of the input's
    type). It depends only on the options, never on the rows."""
    keep = [keep] if isinstance(keep, str) else list(keep)
    return _core._plan(keep, keep, "error", _errors_flag(errors), errors == "all")[1]


def arrow_schema(
    keep_fields: Iterable[Any] = (), *, errors: Literal["raise", "return", "all"] = "raise", dictionary: bool = True
) -> Any:
    """``output_schema`` as a ``pyarrow.Schema``; ``keep_fields``: the kept columns'
    ``pyarrow.Field``s. ``dictionary=False`` gives plain strings for the categorical columns
    (engines without dictionary types, such as Spark)."""
    import pyarrow as pa

    kept = {f.name: f for f in keep_fields}
    fields = []
    for name, kind, _ in output_schema(list(kept), errors=errors):
        if kind == "kept":
            fields.append(kept[name])
        else:
            fields.append(pa.field(name, _arrow_type(kind, dictionary)))
    return pa.schema(fields)


def _arrow_type(kind: str, dictionary: bool) -> Any:
    import pyarrow as pa

    if kind == "i64":
        return pa.int64()
    if kind == "f64":
        return pa.float64()
    if kind == "cat" and dictionary:
        return pa.dictionary(pa.int32(), pa.string())
    return pa.string()


def _check_calibration(calibration: Any) -> None:
    """TypeError unless ``calibration`` is None or a ``Calibration``."""
    if calibration is not None and not isinstance(calibration, _core.Calibration):
        raise TypeError(f"calibration debe ser un platform_score.Calibration, no {type(calibration).__name__}")


def _errors_flag(errors: str) -> bool:
    if errors not in ("raise", "return", "all"):
        raise ValueError(f'errors must be "raise", "return" or "all", not {errors!r}')
    return errors != "raise"


class _Table(ABC):
    """A caller's table as score_frame reads it and rebuilds it."""

    names: List[str]
    n_rows: int

    @staticmethod
    def of(data: Any) -> "_Table":
        module = type(data).__module__.split(".")[0]
        if module == "pandas" and hasattr(data, "columns"):
            return _PandasTable(data)
        if hasattr(data, "__arrow_c_stream__") or hasattr(data, "__arrow_c_array__"):
            return _ArrowTable(data, module)
        raise TypeError(
            "score_frame expects a pandas DataFrame or a table with the Arrow PyCapsule interface "
            f"(pyarrow, polars, DuckDB, ...), not {type(data).__name__}"
        )

    @abstractmethod
    def column(self, name: str) -> _Column:
        """Input column `name` as `_core._score_columns` reads it."""

    @abstractmethod
    def result(self, schema: List[_SchemaColumn], ok: bytes, report: Any, failed: List[Any], nullable: bool) -> Any:
        """The output table of the caller's library: the columns of `schema`, the report's
        from `report` (in order), the error columns from `failed`; `nullable`: errors are
        returned, so the integer columns are nullable."""


#: The names of the error columns (the first mistake's three, and the list of all).
_ERROR_NAMES = (*_core.ERROR_COLUMNS, _core.ERROR_LIST_COLUMN)


def _error_values(failed: List[Tuple[int, int, Optional[str], str, str]], n_rows: int) -> Callable[[str], List[Any]]:
    """The error columns' values, row by row (None for the rows that scored)."""

    def values(name: str) -> List[Any]:
        cells: List[Any] = [None] * n_rows
        for row, code, field, message, listed in failed:
            cells[row] = {"error_code": code, "error_field": field, "error_message": message, "errors": listed}[name]
        return cells

    return values


# ---- pandas ------------------------------------------------------------------------------


def _strings(uniques: Any) -> Optional[List[str]]:
    values = list(uniques)
    return values if all(isinstance(v, str) for v in values) else None


class _PandasTable(_Table):
    def __init__(self, data: Any) -> None:
        self.data = data
        self.names = [str(c) for c in data.columns]
        self.n_rows = len(data)

    def column(self, name: str) -> _Column:
        import numpy as np
        import pandas as pd

        series = self.data[name]
        dtype = series.dtype
        api = pd.api.types
        if api.is_bool_dtype(dtype):
            codes = np.where(series.isna().to_numpy(), 2, series.fillna(False).to_numpy(dtype=bool)).astype("<u1")
            return (name, "bool", codes.tobytes(), None)
        if api.is_integer_dtype(dtype) and not series.hasnans:
            values = series.to_numpy()
            if values.dtype != np.uint64 or (len(values) and values.max() < 2**63):
                return (name, "i64", values.astype("<i8").tobytes(), None)
        if api.is_integer_dtype(dtype) or api.is_float_dtype(dtype):
            return (name, "f64", series.to_numpy(dtype="<f8", na_value=np.nan).tobytes(), None)
        if isinstance(dtype, pd.CategoricalDtype):
            categories = _strings(dtype.categories)
            if categories is not None:
                return (name, "cat", series.cat.codes.to_numpy().astype("<i4").tobytes(), categories)
        elif api.is_string_dtype(dtype) or dtype == object:
            try:
                codes, uniques = pd.factorize(series, use_na_sentinel=True)
                categories = _strings(uniques)
            except TypeError:
                # Unhashable values (a co-borrower's dicts): read one by one below.
                categories = None
            if categories is not None:
                return (name, "cat", codes.astype("<i4").tobytes(), categories)
        # Mixed or other values: read one by one, exactly as score() reads a dict's values.
        return (name, "obj", [None if v is pd.NA or v is pd.NaT else v for v in series.tolist()], None)

    def result(self, schema: List[_SchemaColumn], ok_bytes: bytes, report: Any, failed: List[Any], nullable: bool) -> Any:
        import numpy as np
        import pandas as pd

        bad = np.frombuffer(ok_bytes, dtype=np.uint8) == 0
        errors = _error_values(failed, self.n_rows)
        result = {}
        for name, kind, categories in schema:
            if kind == "kept":
                result[name] = self.data[name].array
                continue
            if name in _ERROR_NAMES:
                values = errors(name)
                if kind == "cat":
                    codes = np.array([-1 if v is None else v for v in values], dtype=np.int32)
                    result[name] = pd.Categorical.from_codes(codes, categories=categories)
                else:
                    # pandas' text dtype ("str": strings with NaN for missing from pandas 3 on,
                    # object before), whether or not a row failed.
                    result[name] = pd.Series(values, dtype="str").array
                continue
            _, _, data, row_categories = next(report)
            if kind == "f64":
                result[name] = np.frombuffer(data, dtype="<f8")
            elif kind == "i64":
                ints = np.frombuffer(data, dtype="<i8")
                # With errors="return" the column is nullable whether or not a row failed.
                result[name] = pd.arrays.IntegerArray(ints.copy(), bad) if nullable else ints
            else:
                result[name] = pd.Categorical.from_codes(np.frombuffer(data, dtype="<i4"), categories=row_categories)
        return pd.DataFrame(result, index=self.data.index, copy=False)


# ---- Arrow (pyarrow, polars, DuckDB, any PyCapsule table) ---------------------------------


class _ArrowTable(_Table):
    def __init__(self, data: Any, module: str) -> None:
        import pyarrow as pa

        self.module = module
        if isinstance(data, pa.RecordBatch):
            self.table = pa.Table.from_batches([data])
        elif isinstance(data, pa.Table):
            self.table = data
        else:
            self.table = pa.table(data)
        self.names = list(self.table.schema.names)
        self.n_rows = self.table.num_rows

    def column(self, name: str) -> _Column:
        import pyarrow as pa
        import pyarrow.compute as pc

        column = self.table.column(name)
        kind = column.type
        column = column.combine_chunks()
        if pa.types.is_boolean(kind):
            codes = pc.fill_null(pc.cast(column, pa.uint8()), 2)
            return (name, "bool", codes.to_numpy(zero_copy_only=False).astype("<u1").tobytes(), None)
        if pa.types.is_integer(kind) and column.null_count == 0 and not pa.types.is_uint64(kind):
            return (name, "i64", column.to_numpy(zero_copy_only=False).astype("<i8").tobytes(), None)
        if pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_decimal(kind):
            values = pc.fill_null(pc.cast(column, pa.float64()), float("nan"))
            return (name, "f64", values.to_numpy(zero_copy_only=False).astype("<f8").tobytes(), None)
        if pa.types.is_string_view(kind):
            # polars' strings: dictionary-encoded as plain strings.
            column, kind = pc.cast(column, pa.large_string()), pa.large_string()
        if pa.types.is_string(kind) or pa.types.is_large_string(kind) or pa.types.is_dictionary(kind):
            encoded = column if pa.types.is_dictionary(kind) else column.dictionary_encode()
            categories = _strings(encoded.dictionary.to_pylist())
            if categories is not None:
                codes = pc.fill_null(pc.cast(encoded.indices, pa.int32()), -1)
                return (name, "cat", codes.to_numpy(zero_copy_only=False).astype("<i4").tobytes(), categories)
        return (name, "obj", column.to_pylist(), None)

    def result(self, schema: List[_SchemaColumn], ok_bytes: bytes, report: Any, failed: List[Any], nullable: bool) -> Any:
        table = self.arrow_result(schema, ok_bytes, report, failed)
        if self.module == "polars":
            import polars as pl

            return pl.from_arrow(table)
        if self.module == "duckdb":
            import duckdb

            return duckdb.from_arrow(table)
        return table

    def arrow_result(self, schema: List[_SchemaColumn], ok_bytes: bytes, report: Any, failed: List[Any]) -> Any:
        import numpy as np
        import pyarrow as pa

        bad = np.frombuffer(ok_bytes, dtype=np.uint8) == 0
        mask = bad if bad.any() else None
        errors = _error_values(failed, self.n_rows)
        arrays, names = [], []
        for name, kind, categories in schema:
            if kind == "kept":
                array = self.table.column(name)
            elif name in _ERROR_NAMES and kind == "cat":
                codes = np.array([-1 if v is None else v for v in errors(name)], dtype=np.int32)
                array = pa.DictionaryArray.from_arrays(pa.array(codes, mask=codes < 0), pa.array(categories, type=pa.string()))
            elif name in _ERROR_NAMES:
                array = pa.array(errors(name), type=pa.string())
            else:
                _, _, data, row_categories = next(report)
                if kind == "f64":
                    array = pa.array(np.frombuffer(data, dtype="<f8"), mask=mask)
                elif kind == "i64":
                    array = pa.array(np.frombuffer(data, dtype="<i8"), mask=mask)
                else:
                    codes = np.frombuffer(data, dtype="<i4")
                    array = pa.DictionaryArray.from_arrays(
                        pa.array(codes, mask=codes < 0), pa.array(row_categories, type=pa.string())
                    )
            arrays.append(array)
            names.append(name)
        return pa.Table.from_arrays(arrays, names=names)
