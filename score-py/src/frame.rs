//! `_score_columns`, the columnar path of `platform_score.score_frame`: column buffers in,
//! column buffers out, scored by `score_core::batch::score_frame` into `bytes` objects that
//! pandas or Arrow read without a copy.

use crate::PyHost;
use crate::input::to_value;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use score_core::batch::{self, Column, Extra, Frame, Kind, TableSpec};

/// Creates one `bytes` object per length of `lens` and calls `fill` once with all their
/// buffers, in order, before Python can see any of them (`PyBytes::new_with` nested), so that
/// every output column is written in one parallel pass without a copy. `out` receives the
/// objects innermost first.
fn bytes_with<'py>(
    py: Python<'py>,
    lens: &[usize],
    buffers: Vec<&mut [u8]>,
    fill: &mut dyn FnMut(Vec<&mut [u8]>),
    out: &mut Vec<Bound<'py, PyBytes>>,
) -> PyResult<()> {
    let Some((&len, rest)) = lens.split_first() else {
        fill(buffers);
        return Ok(());
    };
    let bytes = PyBytes::new_with(py, len, |buffer| {
        let mut buffers: Vec<&mut [u8]> = buffers;
        buffers.push(buffer);
        bytes_with(py, rest, buffers, fill, out)
    })?;
    out.push(bytes);
    Ok(())
}

/// An output column as Python receives it: (name, kind, data, categories).
type ColumnOut<'py> = (String, &'static str, Bound<'py, PyBytes>, Option<Vec<String>>);
/// A failed row: (row, index of the code in ERROR_CODES, field, message).
type RowError = (usize, usize, Option<String>, String);
/// A column of the published schema: (name, kind, categories).
type SchemaColumn = (String, &'static str, Option<Vec<&'static str>>);

/// _plan(names, keep, extra, return_errors) -> (read, schema)
///
/// score-core's [`TableSpec`] for a table whose columns are `names`: which columns the profiles
/// are read from (one bool per name) and the output schema, (name, kind, categories) with kind
/// "i64" | "f64" | "cat" | "str" | "kept". ValueError (Spanish message) for a bad `keep` or
/// `extra`.
#[pyfunction]
pub(crate) fn _plan(
    names: Vec<String>,
    keep: Vec<String>,
    extra: &str,
    return_errors: bool,
) -> PyResult<(Vec<bool>, Vec<SchemaColumn>)> {
    let extra = Extra::from_name(extra).map_err(PyValueError::new_err)?;
    let spec = TableSpec { keep, extra, return_errors };
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let read = spec.read_columns(&names).map_err(PyValueError::new_err)?;
    let schema = spec.schema().into_iter().map(|c| (c.name, c.kind.host_name(), c.categories)).collect();
    Ok((read, schema))
}

/// _score_columns(n_rows, columns) -> (ok_mask, output_columns, errors)
///
/// `columns`: list of (name, kind, data, categories) with kind "f64" | "i64" | "cat" | "bool"
/// (data: little-endian bytes) or "obj" (data: a sequence of Python values).
/// Returns a uint8 mask of scored rows, a list of (name, kind, data, categories) output columns
/// (the report's, in schema order) and a list of (row, code index, field, message) for the
/// rows that failed.
#[pyfunction]
#[allow(clippy::type_complexity)]
pub(crate) fn _score_columns<'py>(
    py: Python<'py>,
    n_rows: usize,
    columns: Vec<(String, String, Bound<'py, PyAny>, Option<Vec<String>>)>,
) -> PyResult<(Bound<'py, PyBytes>, Vec<ColumnOut<'py>>, Vec<RowError>)> {
    let mut frame = Frame::new(n_rows);
    for (name, kind, data, cats) in &columns {
        let bytes = || data.cast::<PyBytes>().map(|b| b.as_bytes());
        let column = match kind.as_str() {
            "f64" => Column::F64(bytes()?),
            "i64" => Column::I64(bytes()?),
            "cat" => Column::Cat(bytes()?, cats.clone().unwrap_or_default()),
            "bool" => Column::Bool(bytes()?),
            "obj" => Column::Values(
                data.try_iter()?.map(|item| to_value(&item?, Some(name), 0)).collect::<PyResult<Vec<_>>>()?,
            ),
            other => return Err(PyValueError::new_err(format!("unknown column kind {other:?}"))),
        };
        frame.push(name.clone(), column).map_err(PyValueError::new_err)?;
    }
    let layout = batch::layout();
    let (objects, extras) = batch::score_frame(&PyHost(py), &frame, &layout, |lengths, fill| {
        let mut objects = Vec::with_capacity(lengths.len());
        bytes_with(py, lengths, Vec::new(), fill, &mut objects)?;
        objects.reverse();
        Ok::<_, PyErr>(objects)
    })?;
    let mut objects = objects.into_iter();
    let ok = objects.next().ok_or_else(|| PyValueError::new_err("_score_columns: no row mask"))?;
    let mut out: Vec<ColumnOut<'py>> = Vec::with_capacity(layout.len());
    let mut long = Some(extras.long);
    for (column, data) in layout.into_iter().zip(objects) {
        let categories = column.categories.map(|c| c.into_iter().map(str::to_owned).collect());
        if column.kind != Kind::Codes {
            out.push((column.name, column.kind.host_name(), data, categories));
            continue;
        }
        // The recommendation keys become category codes, one category per distinct sequence.
        let mut names = Vec::new();
        let codes = PyBytes::new_with(py, n_rows * 4, |buf| {
            names = batch::recommendation_categories(data.as_bytes(), long.take().unwrap_or_default(), buf);
            Ok(())
        })?;
        out.push((column.name, column.kind.host_name(), codes, Some(names)));
    }
    let errors = batch::error_cells(&extras.errors)
        .map(|(row, code, field, message)| (row, code, field.map(str::to_owned), message.to_owned()))
        .collect();
    Ok((ok, out, errors))
}
