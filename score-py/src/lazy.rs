//! `Report`: a report of `score_many(..., lazy=True)`, the Rust report behind a read-only
//! mapping with exactly the keys and values of the dict `score()` returns, converted on access.
//!
//! Creating it is the only Python allocation per profile (the Rust `ScoreReport`, boxed by the
//! scoring thread, is moved in). Scalars are converted on each access; nested values (dicts and
//! lists) are built on the first access of their key and kept, so repeated access returns the
//! same object. Why per key rather than the whole dict on first access: the common use of a
//! large batch is to read one or two fields of every report (filter by `score`, sort by
//! `valor_realista`). `to_dict()` always builds a new dict, the one `score()` returns, and
//! pickling gives that dict. Not hashable (like a dict). The class does not take part in the
//! cyclic GC, so that a million reports cost the collector nothing.
//!
//! This file is the mapping protocol (`len`, iteration, `[]`, `in`) and what needs the Rust
//! report; `get`, `keys`, `values`, `items`, `==` and `repr` are `collections.abc.Mapping`'s
//! own, which read through that protocol (set in `platform_score/__init__.py`).

use crate::dict::{PyBuilder, names};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyIterator, PyList, PyString};
use score_core::ScoreReport;

/// The report's keys: at most this many (checked against the walk when the module loads).
pub(crate) const MAX_KEYS: usize = 20;

#[pyclass(frozen, mapping, module = "platform_score", name = "Report")]
pub(crate) struct Report {
    report: Box<ScoreReport>,
    decimals: bool,
    /// The value of each key that is a dict or a list, once built.
    nested: [PyOnceLock<Py<PyAny>>; MAX_KEYS],
}

/// The position among the report's keys of a key given from Python: by identity with the
/// interned key strings, else by name.
fn key_index(py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    let names = names(py)?;
    if let Some(k) = names.top_tuple.bind(py).iter().position(|k| k.is(key)) {
        return Ok(Some(k));
    }
    match key.cast::<PyString>() {
        Ok(s) => Ok(names.tables.top_index(&s.to_cow()?)),
        Err(_) => Ok(None),
    }
}

impl Report {
    pub(crate) fn new(report: Box<ScoreReport>, decimals: bool) -> Self {
        Report { report, decimals, nested: std::array::from_fn(|_| PyOnceLock::new()) }
    }

    /// The value of key `k`; a nested value (dict or list) is built once and kept.
    fn value<'py>(&self, py: Python<'py>, k: usize) -> PyResult<Bound<'py, PyAny>> {
        let slot = &self.nested[k.min(MAX_KEYS - 1)];
        if let Some(v) = slot.get(py) {
            return Ok(v.bind(py).clone());
        }
        let key = names(py)?.tables.top().get(k).copied();
        let value = PyBuilder::new(py, self.decimals)?.build(&self.report, key)?;
        if value.is_instance_of::<PyDict>() || value.is_instance_of::<PyList>() {
            return Ok(slot.get_or_init(py, || value.unbind()).bind(py).clone());
        }
        Ok(value)
    }
}

#[pymethods]
impl Report {
    /// Unhashable, like a dict (it compares equal to one).
    #[classattr]
    const __hash__: Option<Py<PyAny>> = None;

    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(names(py)?.tables.top().len())
    }

    fn __getitem__<'py>(&self, py: Python<'py>, key: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        match key_index(py, key)? {
            Some(k) => self.value(py, k),
            None => Err(pyo3::exceptions::PyKeyError::new_err(key.clone().unbind())),
        }
    }

    fn __contains__(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(key_index(py, key)?.is_some())
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        names(py)?.top_tuple.bind(py).try_iter()
    }

    /// to_dict() -> dict: a new dict, the very one `score()` returns for the same profile.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        PyBuilder::new(py, self.decimals)?.build(&self.report, None)
    }

    /// Pickles (and copies) as the dict of `to_dict()`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyAny>,))> {
        Ok((py.get_type::<PyDict>().into_any(), (self.to_dict(py)?,)))
    }
}
