//! Python values in: a profile mapping into a `score_core::Profile`, by score-core's rules.
//!
//! Plain values (str, int, float, None) of a dict go straight into the profile's fields
//! (`score_core::input::Cells`); anything else is converted to the `serde_json::Value`
//! score-core reads from JSON (`Profile::from_json_value`), so every bad input gets score-core's
//! own error, through score-core's walk of host values (`host::json_value`). Numbers follow
//! score-core's host-number rule (`score_core::host`).

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyMapping, PyString, PyTuple};
use score_core::host::{self, HostNode, HostValue};
use score_core::input::{Cell, Cells};
use score_core::{Profile, ScoreError as CoreError};
use serde_json::Value;
use std::borrow::Cow;

/// The profile's field names as interned Python strings (a dict's keys are usually these very
/// objects, so a pointer compare finds the slot).
fn field_names(py: Python<'_>) -> &[Py<PyString>] {
    static FIELDS: PyOnceLock<Vec<Py<PyString>>> = PyOnceLock::new();
    FIELDS.get_or_init(py, || score_core::FIELDS.iter().map(|f| PyString::intern(py, f).unbind()).collect())
}

/// A plain Python value as a cell; `None` for anything score-core must judge itself.
fn py_cell(obj: &Bound<'_, PyAny>) -> PyResult<Option<Cell<'static>>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Some(Cell::Str(Cow::Owned(s.to_cow()?.into_owned()))));
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        return Ok(host::number_cell(f.value()));
    }
    if obj.is_instance_of::<PyBool>() {
        return Ok(None);
    }
    if obj.is_instance_of::<PyInt>() {
        return Ok(obj.extract::<i64>().ok().map(Cell::Int));
    }
    Ok(obj.is_none().then_some(Cell::Absent))
}

/// The profile of a dict of plain values, `None` when it needs score-core's JSON reader.
fn dict_profile(py: Python<'_>, dict: &Bound<'_, PyDict>) -> PyResult<Option<Profile>> {
    if dict.len() > score_core::FIELDS.len() {
        return Ok(None);
    }
    let keys = field_names(py);
    let mut cells = Cells::default();
    for (key, value) in dict.iter() {
        let slot = match keys.iter().position(|k| k.is(&key)) {
            Some(slot) => slot,
            None => match key.cast::<PyString>() {
                Ok(s) => match Cells::slot(&s.to_cow()?) {
                    Some(slot) => slot,
                    None => return Ok(None),
                },
                Err(_) => return Ok(None),
            },
        };
        match py_cell(&value)? {
            Some(cell) => cells.set(slot, cell),
            None => return Ok(None),
        }
    }
    Ok(cells.profile())
}

/// A profile read from Python, not yet range-checked (`score_core::score` does that): the
/// fast path, else score-core's JSON reader on the JSON value of the object.
pub(crate) fn read_profile(obj: &Bound<'_, PyAny>) -> PyResult<Result<Profile, CoreError>> {
    if let Ok(dict) = obj.cast::<PyDict>() {
        if let Some(profile) = dict_profile(obj.py(), dict)? {
            return Ok(Ok(profile));
        }
    }
    Ok(to_value(obj, None)?.and_then(|v| Profile::from_json_value(&v)))
}

pub(crate) fn decimal_class(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    static DECIMAL: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    DECIMAL.import(py, "decimal", "Decimal")
}

fn int_value(i: &Bound<'_, PyAny>) -> PyResult<Value> {
    if let Ok(v) = i.extract::<i64>() {
        return Ok(Value::from(v));
    }
    if let Ok(v) = i.extract::<u64>() {
        return Ok(Value::from(v));
    }
    // Larger than any JSON integer: like a JSON parser, read it as a double.
    let infinity = if i.lt(0i64)? { f64::NEG_INFINITY } else { f64::INFINITY };
    Ok(host::number_value(i.extract::<f64>().unwrap_or(infinity)))
}

/// Deepest nesting read from a profile (a profile is flat; deeper values only reach score-core
/// to be rejected with their field).
const MAX_DEPTH: u32 = 32;

/// The JSON value of a Python object (the value the JSON text of the profile parses to), or
/// INVALID_TYPE for one with no JSON form: score-core's walk over [`PyValue`].
pub(crate) fn to_value(obj: &Bound<'_, PyAny>, field: Option<&str>) -> PyResult<Result<Value, CoreError>> {
    host::json_value(&PyValue(obj.clone()), field, MAX_DEPTH)
}

/// A Python object as score-core's host walk reads it.
struct PyValue<'py>(Bound<'py, PyAny>);

impl HostValue for PyValue<'_> {
    type Error = PyErr;

    fn node(&self, containers: bool) -> PyResult<HostNode<Self>> {
        let (obj, py) = (&self.0, self.0.py());
        let scalar = |v| Ok(HostNode::Scalar(v));
        if let Ok(s) = obj.cast::<PyString>() {
            return scalar(Value::String(s.to_cow()?.into_owned()));
        }
        if let Ok(f) = obj.cast::<PyFloat>() {
            return scalar(host::number_value(f.value()));
        }
        if obj.is_instance_of::<PyBool>() {
            return scalar(Value::Bool(obj.is_truthy()?));
        }
        if obj.is_instance_of::<PyInt>() {
            return scalar(int_value(obj)?);
        }
        if obj.is_none() {
            return scalar(Value::Null);
        }
        if obj.is_instance(decimal_class(py)?)? {
            // Decimal('NaN') is missing, like float NaN.
            let nan = obj.call_method0(intern!(py, "is_nan"))?.is_truthy()?;
            return scalar(if nan { Value::Null } else { host::number_value(obj.extract::<f64>()?) });
        }
        if containers {
            if obj.is_instance_of::<PyDict>() || obj.is_instance_of::<PyMapping>() {
                let items = match obj.cast::<PyDict>() {
                    Ok(dict) => dict.items().into_any(),
                    Err(_) => obj.call_method0(intern!(py, "items"))?,
                };
                let mut entries = Vec::new();
                for item in items.try_iter()? {
                    let (key, value) = item?.extract::<(Bound<'_, PyAny>, Bound<'_, PyAny>)>()?;
                    let key = match key.cast::<PyString>() {
                        Ok(s) => s.to_cow()?.into_owned(),
                        Err(_) => key.str()?.to_cow()?.into_owned(),
                    };
                    entries.push((key, PyValue(value)));
                }
                return Ok(HostNode::Object(entries));
            }
            if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
                return Ok(HostNode::Array(obj.try_iter()?.map(|item| item.map(PyValue)).collect::<PyResult<_>>()?));
            }
        }
        // numpy integers and floats, and other number types.
        if obj.hasattr(intern!(py, "__index__"))? {
            return scalar(int_value(&obj.call_method0(intern!(py, "__index__"))?)?);
        }
        if obj.hasattr(intern!(py, "__float__"))? {
            return scalar(host::number_value(obj.extract::<f64>()?));
        }
        Ok(HostNode::Other(obj.get_type().name()?.to_string()))
    }
}
