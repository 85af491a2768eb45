//! The report as Python dicts and lists: a `score_core::tree::TreeBuilder`, so the keys, their
//! order and the numbers are score-core's (the same as its JSON); this file only makes the
//! Python values.
//!
//! Python strings are made once, in score-core's `HostTables`: the keys, the labels and the
//! model's static texts (interned). Each dict is a copy of a template with its keys, already
//! sized and ordered.

use crate::input::decimal_class;
use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyFloat, PyList, PyString, PyTuple};
use rust_decimal::Decimal;
use score_core::tree::{self, HostTables, StaticTextCache, TreeBuilder};
use score_core::walk::{Key, Label};
use score_core::{ScoreReport, Text, money};
use std::sync::MutexGuard;

/// Python strings and templates of the report's shape, made once per interpreter.
pub(crate) struct Names {
    /// The interned strings and template dicts (score-core's tables).
    pub(crate) tables: HostTables<Py<PyString>, Py<PyDict>>,
    /// The report's own keys as a tuple (what iterating a lazy `Report` yields). They are the
    /// interned key strings: a key written in Python code is the same object, found by
    /// identity (lazy.rs, `key_index`).
    pub(crate) top_tuple: Py<PyTuple>,
}

pub(crate) fn names(py: Python<'_>) -> PyResult<&Names> {
    static NAMES: PyOnceLock<Names> = PyOnceLock::new();
    NAMES.get_or_try_init(py, || {
        let tables = HostTables::new(
            |name| Ok::<_, PyErr>(PyString::intern(py, name).unbind()),
            |keys| {
                let template = PyDict::new(py);
                for key in keys {
                    template.set_item(key.bind(py), py.None())?;
                }
                Ok(template.unbind())
            },
        )?;
        let top_tuple = PyTuple::new(py, tables.top().iter().map(|k| tables.key(*k).clone_ref(py)))?.unbind();
        Ok(Names { tables, top_tuple })
    })
}

/// Makes the Python values of a report.
pub(crate) struct PyBuilder<'py> {
    py: Python<'py>,
    names: &'py Names,
    decimal: Option<Bound<'py, PyAny>>,
}

/// A builder with the text cache locked for the build (`None`: another build holds it, and
/// texts are made afresh).
struct Locked<'b, 'py> {
    builder: &'b PyBuilder<'py>,
    texts: Option<MutexGuard<'py, StaticTextCache<Py<PyString>>>>,
}

impl<'py> PyBuilder<'py> {
    pub(crate) fn new(py: Python<'py>, decimals: bool) -> PyResult<Self> {
        Ok(PyBuilder { py, names: names(py)?, decimal: if decimals { Some(decimal_class(py)?.clone()) } else { None } })
    }

    /// The report's dict, or with `only` the value of that key.
    pub(crate) fn build(&self, report: &ScoreReport, only: Option<Key>) -> PyResult<Bound<'py, PyAny>> {
        let mut locked = Locked { builder: self, texts: self.names.tables.texts() };
        tree::build(report, &mut locked, only)?.ok_or_else(|| pyo3::exceptions::PyKeyError::new_err("not a key of the report"))
    }
}

impl<'py> TreeBuilder for Locked<'_, 'py> {
    type Value = Bound<'py, PyAny>;
    type Error = PyErr;

    fn object(&mut self, template: usize) -> PyResult<Self::Value> {
        match self.builder.names.tables.template(template) {
            Some(t) => Ok(t.bind(self.builder.py).copy()?.into_any()),
            None => Ok(PyDict::new(self.builder.py).into_any()),
        }
    }
    fn array(&mut self, _: usize) -> PyResult<Self::Value> {
        Ok(PyList::empty(self.builder.py).into_any())
    }
    fn set(&mut self, object: &Self::Value, key: Key, value: Self::Value) -> PyResult<()> {
        object.cast::<PyDict>()?.set_item(self.builder.names.tables.key(key).bind(self.builder.py), value)
    }
    fn push(&mut self, array: &Self::Value, _: usize, value: Self::Value) -> PyResult<()> {
        array.cast::<PyList>()?.append(value)
    }
    fn integer(&mut self, value: u64) -> PyResult<Self::Value> {
        value.into_bound_py_any(self.builder.py)
    }
    fn boolean(&mut self, value: bool) -> PyResult<Self::Value> {
        value.into_bound_py_any(self.builder.py)
    }
    fn decimal(&mut self, d: Decimal) -> PyResult<Self::Value> {
        if let Some(class) = &self.builder.decimal {
            return class.call1((d.to_string(),));
        }
        match money::whole(d) {
            Some(i) => i.into_bound_py_any(self.builder.py),
            None => Ok(PyFloat::new(self.builder.py, money::to_f64(d)).into_any()),
        }
    }
    fn label(&mut self, key: Option<Key>, value: Label) -> PyResult<Self::Value> {
        let py = self.builder.py;
        Ok(match self.builder.names.tables.label(key, value) {
            Some(s) => s.bind(py).clone().into_any(),
            None => PyString::new(py, value.as_str()).into_any(),
        })
    }
    fn text(&mut self, value: &Text) -> PyResult<Self::Value> {
        let py = self.builder.py;
        Ok(match (value, &mut self.texts) {
            (Text::Borrowed(s), Some(cache)) => {
                cache.get_or_insert_with(s, |s| PyString::intern(py, s).unbind()).bind(py).clone()
            }
            _ => PyString::new(py, value),
        }
        .into_any())
    }
    fn null(&mut self) -> PyResult<Self::Value> {
        Ok(self.builder.py.None().into_bound(self.builder.py))
    }
}
