# mypy: disable-error-code="import-untyped"
"""Columnar scoring of a pandas DataFrame or a pyarrow Table (both optional dependencies,
imported only when such an object is passed)."""

from __future__ import annotations

from typing import Any, List, Literal, Optional, Tuple

from . import _core

_Column = Tuple[str, str, Any, Optional[List[str]]]


def score_frame(data: Any, *, errors: Literal["raise", "return"] = "raise") -> Any:
    """Score every row of a pandas DataFrame or a pyarrow Table (or RecordBatch).

    The columns are profile fields (``PROFILE_FIELDS``); a missing value (None, NaN, NA) is an
    absent field, and a column that is not a profile field fails every row with
    UNKNOWN_FIELD, as an unknown key does in ``score()``. Returns the same kind of object with
    one row per input row (a DataFrame keeps the input's index) and the report flattened into
    columns, in the report's order: ``score``, ``nivel``, the ``capacidad_compra_estimada``
    values under their own names (``valor_realista``, ``evaluacion_m2``, ``plazo_anios``, ...),
    ``salud_financiera_*``, ``estado_{clave,codigo,nombre}``,
    ``componente_<name>_{valor,peso,puntos}`` and ``recomendaciones_codigos`` (the
    recommendation codes joined by ``|``). Text columns are categorical.

    ``errors="raise"`` raises ScoreError for the first bad row (``.index`` is its position);
    ``errors="return"`` scores the others and adds ``error_code`` and ``error_field`` columns
    (null for scored rows; the report columns are null for failed rows).
    """
    if errors not in ("raise", "return"):
        raise ValueError(f'errors must be "raise" or "return", not {errors!r}')
    module = type(data).__module__.split(".")[0]
    if module == "pandas":
        n_rows, columns = len(data), [_pandas_column(str(name), data[name]) for name in data.columns]
    elif module == "pyarrow":
        n_rows = data.num_rows
        columns = [_arrow_column(name, data.column(i)) for i, name in enumerate(data.schema.names)]
    else:
        raise TypeError(f"score_frame expects a pandas DataFrame or a pyarrow Table, not {type(data).__name__}")
    ok, columns_out, failed = _core._score_columns(n_rows, columns)
    out: List[Any] = list(columns_out)
    if failed and errors == "raise":
        row, code, field, message = failed[0]
        err = _core.ScoreError(f"rows[{row}]: {code}: {message}")
        err.code, err.field, err.index = code, field, row
        raise err
    if failed:
        rows = [f[0] for f in failed]
        codes = list(_core.ERROR_CODES)
        out.append(("error_code", "err", [(r, codes.index(f[1])) for r, f in zip(rows, failed)], codes))
        out.append(("error_field", "err", [(r, f[2]) for r, f in zip(rows, failed)], None))
    if module == "pandas":
        return _to_pandas(data, ok, out, bool(failed))
    return _to_arrow(ok, out, n_rows)


# ---- input -------------------------------------------------------------------------------


def _strings(uniques: Any) -> Optional[List[str]]:
    values = list(uniques)
    return values if all(isinstance(v, str) for v in values) else None


def _pandas_column(name: str, series: Any) -> _Column:
    import numpy as np
    import pandas as pd

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
        codes, uniques = pd.factorize(series, use_na_sentinel=True)
        categories = _strings(uniques)
        if categories is not None:
            return (name, "cat", codes.astype("<i4").tobytes(), categories)
    # Mixed or other values: read one by one, exactly as score() reads a dict's values.
    return (name, "obj", [None if v is pd.NA or v is pd.NaT else v for v in series.tolist()], None)


def _arrow_column(name: str, column: Any) -> _Column:
    import pyarrow as pa
    import pyarrow.compute as pc

    kind = column.type
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    if pa.types.is_boolean(kind):
        codes = pc.fill_null(pc.cast(column, pa.uint8()), 2)
        return (name, "bool", codes.to_numpy(zero_copy_only=False).astype("<u1").tobytes(), None)
    if pa.types.is_integer(kind) and column.null_count == 0 and not pa.types.is_uint64(kind):
        return (name, "i64", column.to_numpy(zero_copy_only=False).astype("<i8").tobytes(), None)
    if pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_decimal(kind):
        values = pc.fill_null(pc.cast(column, pa.float64()), float("nan"))
        return (name, "f64", values.to_numpy(zero_copy_only=False).astype("<f8").tobytes(), None)
    if pa.types.is_string(kind) or pa.types.is_large_string(kind) or pa.types.is_dictionary(kind):
        encoded = column if pa.types.is_dictionary(kind) else column.dictionary_encode()
        categories = _strings(encoded.dictionary.to_pylist())
        if categories is not None:
            codes = pc.fill_null(pc.cast(encoded.indices, pa.int32()), -1)
            return (name, "cat", codes.to_numpy(zero_copy_only=False).astype("<i4").tobytes(), categories)
    return (name, "obj", column.to_pylist(), None)


# ---- output ------------------------------------------------------------------------------


def _to_pandas(data: Any, ok_bytes: bytes, out: List[Any], failed: bool) -> Any:
    import numpy as np
    import pandas as pd

    ok = np.frombuffer(ok_bytes, dtype=np.uint8).astype(bool)
    result = {}
    for name, kind, values, categories in out:
        if kind == "f64":
            result[name] = np.frombuffer(values, dtype="<f8")
        elif kind == "i64":
            ints = np.frombuffer(values, dtype="<i8")
            result[name] = pd.arrays.IntegerArray(ints.copy(), ~ok) if failed else ints
        elif kind == "cat":
            result[name] = pd.Categorical.from_codes(np.frombuffer(values, dtype="<i4"), categories=categories)
        else:  # "err": (row, value) pairs of the failed rows
            if categories is not None:
                codes = np.full(len(ok), -1, dtype=np.int32)
                for row, code in values:
                    codes[row] = code
                result[name] = pd.Categorical.from_codes(codes, categories=categories)
            else:
                fields: List[Optional[str]] = [None] * len(ok)
                for row, field in values:
                    fields[row] = field
                result[name] = pd.array(fields, dtype=object)
    return pd.DataFrame(result, index=data.index, copy=False)


def _to_arrow(ok_bytes: bytes, out: List[Any], n_rows: int) -> Any:
    import numpy as np
    import pyarrow as pa

    bad = np.frombuffer(ok_bytes, dtype=np.uint8) == 0
    mask = bad if bad.any() else None
    arrays, names = [], []
    for name, kind, values, categories in out:
        if kind == "f64":
            array = pa.array(np.frombuffer(values, dtype="<f8"), mask=mask)
        elif kind == "i64":
            array = pa.array(np.frombuffer(values, dtype="<i8"), mask=mask)
        elif kind == "cat":
            codes = np.frombuffer(values, dtype="<i4")
            indices = pa.array(codes, mask=codes < 0)
            array = pa.DictionaryArray.from_arrays(indices, pa.array(categories, type=pa.string()))
        else:
            cells: List[Any] = [None] * n_rows
            for row, value in values:
                cells[row] = categories[value] if categories is not None else value
            array = pa.array(cells, type=pa.string()).dictionary_encode() if categories else pa.array(cells, type=pa.string())
        arrays.append(array)
        names.append(name)
    return pa.Table.from_arrays(arrays, names=names)
