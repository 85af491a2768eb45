//! `_score_columns`, the columnar path of `platform_score.score_frame`: column buffers in,
//! column buffers out, scored by `score_core::batch::score_host_frame` into `bytes` objects
//! (`PyBytes::new_with`, which score-core nests so that every column is written in one
//! parallel pass) that pandas or Arrow read without a copy. `_plan` is score-core's
//! `TableSpec` for the Python side (`platform_score/_frame.py`).

use crate::PyHost;
use crate::input::to_value;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use score_core::batch::{self, Column, Extra, Frame, HostColumn, HostRowError, TableSpec};

/// A column of the published schema: (name, kind, categories).
type SchemaColumn = (String, &'static str, Option<Vec<&'static str>>);

/// _plan(names, keep, extra, return_errors, error_list=False) -> (read, schema)
///
/// score-core's [`TableSpec`] for a table whose columns are `names`: which columns the profiles
/// are read from (one bool per name) and the output schema, (name, kind, categories) with kind
/// "i64" | "f64" | "cat" | "str" | "kept". ValueError (Spanish message) for a bad `keep` or
/// `extra`.
#[pyfunction]
#[pyo3(signature = (names, keep, extra, return_errors, error_list = false))]
pub(crate) fn _plan(
    names: Vec<String>,
    keep: Vec<String>,
    extra: &str,
    return_errors: bool,
    error_list: bool,
) -> PyResult<(Vec<bool>, Vec<SchemaColumn>)> {
    let extra = Extra::from_name(extra).map_err(PyValueError::new_err)?;
    let spec = TableSpec { keep, extra, return_errors, error_list };
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let read = spec.read_columns(&names).map_err(PyValueError::new_err)?;
    let schema = spec.schema().into_iter().map(|c| (c.name, c.kind.host_name(), c.categories)).collect();
    Ok((read, schema))
}

/// _score_columns(n_rows, columns, calibration=None) -> (ok_mask, output_columns, errors)
///
/// `columns`: list of (name, kind, data, categories) with kind "f64" | "i64" | "cat" | "bool"
/// (data: little-endian bytes) or "obj" (data: a sequence of Python values).
/// Returns a uint8 mask of scored rows, a list of (name, kind, data, categories) output columns
/// (the report's, in schema order) and a list of (row, code index, field, message, every
/// mistake as JSON text) for the rows that failed.
#[pyfunction]
#[pyo3(signature = (n_rows, columns, calibration=None))]
#[allow(clippy::type_complexity)]
pub(crate) fn _score_columns<'py>(
    py: Python<'py>,
    n_rows: usize,
    columns: Vec<(String, String, Bound<'py, PyAny>, Option<Vec<String>>)>,
    calibration: Option<PyRef<'py, crate::Calibration>>,
) -> PyResult<(Bound<'py, PyBytes>, Vec<HostColumn<Bound<'py, PyBytes>>>, Vec<HostRowError>)> {
    let mut frame = Frame::new(n_rows);
    for (name, kind, data, cats) in &columns {
        let column = match kind.as_str() {
            "obj" => Column::Values(
                data.try_iter()?.map(|item| to_value(&item?, Some(name))).collect::<PyResult<Vec<_>>>()?,
            ),
            kind => batch::byte_column(kind, data.cast::<PyBytes>()?.as_bytes(), cats.clone()).map_err(PyValueError::new_err)?,
        };
        frame.push(name.clone(), column).map_err(PyValueError::new_err)?;
    }
    let make = |len, fill: &mut dyn FnMut(&mut [u8]) -> PyResult<()>| PyBytes::new_with(py, len, fill);
    let calibration = calibration.as_ref().map(|c| c.core());
    let out = batch::score_host_frame_calibrated(&PyHost(py), &frame, make, |b| b.as_bytes(), calibration)?
        .ok_or_else(|| PyValueError::new_err("_score_columns: no row mask"))?;
    Ok((out.ok, out.columns, out.errors))
}
