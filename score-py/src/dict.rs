//! The report as Python dicts and lists: a `score_core::tree::TreeBuilder`, so the keys, their
//! order and the numbers are score-core's (the same as its JSON); this file only makes the
//! Python values.
//!
//! Python strings are made once: the keys (by `Key::id`), the labels (by key and index) and
//! the model's static texts (by address). Each dict is a copy of a template with its keys,
//! already sized and ordered.

use crate::input::decimal_class;
use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyFloat, PyList, PyString, PyTuple};
use rust_decimal::Decimal;
use score_core::tree::{self, ROOT_TEMPLATE, StaticTextCache, TreeBuilder};
use score_core::walk::{KEYS, Key, Label};
use score_core::{ScoreReport, Text, money};
use std::sync::{Mutex, MutexGuard};

/// Python strings and templates of the report's shape, made once per interpreter.
pub(crate) struct Names {
    /// Each key's string, by `Key::id`.
    keys: Vec<Py<PyString>>,
    /// Label strings by `Key::id`, then by label index (filled on first use).
    labels: Vec<PyOnceLock<Vec<Py<PyString>>>>,
    /// The template dict of each object, by template index.
    templates: Vec<Option<Py<PyDict>>>,
    /// The static texts' strings (locked once per report built).
    texts: Mutex<StaticTextCache<Py<PyString>>>,
    /// The report's own keys, in order.
    pub(crate) top: Vec<Key>,
    /// The same as a tuple (what iterating a lazy `Report` yields).
    pub(crate) top_tuple: Py<PyTuple>,
}

pub(crate) fn names(py: Python<'_>) -> PyResult<&Names> {
    static NAMES: PyOnceLock<Names> = PyOnceLock::new();
    NAMES.get_or_try_init(py, || {
        let keys: Vec<Py<PyString>> = KEYS.iter().map(|k| PyString::intern(py, k.name).unbind()).collect();
        let mut templates: Vec<Option<Py<PyDict>>> = (0..=ROOT_TEMPLATE).map(|_| None).collect();
        let mut top = Vec::new();
        for (at, object_keys) in tree::templates() {
            let template = PyDict::new(py);
            for key in &object_keys {
                template.set_item(keys[key.id].bind(py), py.None())?;
            }
            templates[at] = Some(template.unbind());
            if at == ROOT_TEMPLATE {
                top = object_keys;
            }
        }
        Ok(Names {
            labels: KEYS.iter().map(|_| PyOnceLock::new()).collect(),
            texts: Mutex::new(StaticTextCache::default()),
            // The interned key strings: a key written in Python code is the same object, found
            // by identity (lazy.rs, `key_index`).
            top_tuple: PyTuple::new(py, top.iter().map(|k| keys[k.id].clone_ref(py)))?.unbind(),
            keys,
            templates,
            top,
        })
    })
}

/// Makes the Python values of a report.
pub(crate) struct PyBuilder<'py> {
    py: Python<'py>,
    names: &'py Names,
    decimal: Option<Bound<'py, PyAny>>,
}

/// A builder with the text cache locked for the build.
struct Locked<'b, 'py> {
    builder: &'b PyBuilder<'py>,
    /// `None` when another build holds it (another thread, or Python code run by this build
    /// that scores again): texts are then made afresh.
    texts: Option<MutexGuard<'py, StaticTextCache<Py<PyString>>>>,
}

impl<'py> PyBuilder<'py> {
    pub(crate) fn new(py: Python<'py>, decimals: bool) -> PyResult<Self> {
        Ok(PyBuilder { py, names: names(py)?, decimal: if decimals { Some(decimal_class(py)?.clone()) } else { None } })
    }

    /// The report's dict, or with `only` the value of that key.
    pub(crate) fn build(&self, report: &ScoreReport, only: Option<Key>) -> PyResult<Bound<'py, PyAny>> {
        let mut locked = Locked { builder: self, texts: self.names.texts.try_lock().ok() };
        tree::build(report, &mut locked, only)?.ok_or_else(|| pyo3::exceptions::PyKeyError::new_err("not a key of the report"))
    }
}

impl<'py> TreeBuilder for Locked<'_, 'py> {
    type Value = Bound<'py, PyAny>;
    type Error = PyErr;

    fn object(&mut self, template: usize) -> PyResult<Self::Value> {
        match self.builder.names.templates.get(template).and_then(Option::as_ref) {
            Some(t) => Ok(t.bind(self.builder.py).copy()?.into_any()),
            None => Ok(PyDict::new(self.builder.py).into_any()),
        }
    }
    fn array(&mut self, _: usize) -> PyResult<Self::Value> {
        Ok(PyList::empty(self.builder.py).into_any())
    }
    fn set(&mut self, object: &Self::Value, key: Key, value: Self::Value) -> PyResult<()> {
        object.cast::<PyDict>()?.set_item(self.builder.names.keys[key.id].bind(self.builder.py), value)
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
        let cached = key.and_then(|k| self.builder.names.labels.get(k.id)).map(|cell| {
            cell.get_or_init(py, || value.all.iter().map(|n| PyString::intern(py, n).unbind()).collect())
        });
        Ok(match cached.and_then(|names| names.get(value.index)) {
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
