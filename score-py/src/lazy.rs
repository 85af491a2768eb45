//! `Report`: a report of `score_many(..., lazy=True)`, the Rust report behind a read-only
//! mapping with exactly the keys and values of the dict `score()` returns, converted on access.
//!
//! Creating it is the only Python allocation per profile (the Rust `ScoreReport`, boxed by the
//! scoring thread, is moved in). Scalars are converted on each access; nested values (dicts and
//! lists) are built on the first access of their key and kept, so repeated access returns the
//! same object. Why per key rather than the whole dict on first access: the common use of a
//! large batch is to read one or two fields of every report (filter by `score`, sort by
//! `valor_realista`). Equality, `repr` and the values see the kept nested objects when they
//! exist (fresh ones otherwise, without keeping them); `to_dict()` always builds a new dict,
//! the one `score()` returns, and pickling gives that dict. Not hashable (like a dict). The
//! class does not take part in the cyclic GC, so that a million reports cost the collector
//! nothing.

use crate::dict::{PyBuilder, names};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyIterator, PyMapping, PyString};
use pyo3::{IntoPyObjectExt, intern};
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

/// The position among the report's keys of a key given from Python.
fn key_index(py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
    let names = names(py)?;
    let tuple = names.top_tuple.bind(py);
    if let Some(k) = tuple.iter().position(|k| k.is(key)) {
        return Ok(Some(k));
    }
    match key.cast::<PyString>() {
        Ok(s) => {
            let s = s.to_cow()?;
            Ok(names.top.iter().position(|k| k.name == s))
        }
        Err(_) => Ok(None),
    }
}

/// `collections.abc.KeysView`, `ValuesView` and `ItemsView`.
fn view<'py>(py: Python<'py>, which: usize) -> PyResult<&'py Bound<'py, PyAny>> {
    static VIEWS: [PyOnceLock<Py<PyAny>>; 3] = [PyOnceLock::new(), PyOnceLock::new(), PyOnceLock::new()];
    let name = ["KeysView", "ValuesView", "ItemsView"][which];
    VIEWS[which].import(py, "collections.abc", name)
}

impl Report {
    pub(crate) fn new(report: Box<ScoreReport>, decimals: bool) -> Self {
        Report { report, decimals, nested: std::array::from_fn(|_| PyOnceLock::new()) }
    }

    /// The value of key `k`; a nested value is built once and kept when `keep`, else the kept
    /// one is used when there is one.
    fn value<'py>(&self, py: Python<'py>, k: usize, keep: bool) -> PyResult<Bound<'py, PyAny>> {
        let key = names(py)?.top.get(k).copied();
        let build = || PyBuilder::new(py, self.decimals)?.build(&self.report, key);
        let slot = &self.nested[k.min(MAX_KEYS - 1)];
        if let Some(v) = slot.get(py) {
            return Ok(v.bind(py).clone());
        }
        let value = build()?;
        let nested = value.is_instance_of::<PyDict>() || value.is_instance_of::<pyo3::types::PyList>();
        if nested && keep {
            return Ok(slot.get_or_init(py, || value.unbind()).bind(py).clone());
        }
        Ok(value)
    }

    /// A dict of the current values (kept nested values where they exist), for `==` and repr.
    fn current<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, key) in names(py)?.top.iter().enumerate() {
            d.set_item(key.name, self.value(py, k, false)?)?;
        }
        Ok(d)
    }
}

#[pymethods]
impl Report {
    /// Unhashable, like a dict (it compares equal to one).
    #[classattr]
    const __hash__: Option<Py<PyAny>> = None;

    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(names(py)?.top.len())
    }

    fn __getitem__<'py>(&self, py: Python<'py>, key: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        match key_index(py, key)? {
            Some(k) => self.value(py, k, true),
            None => Err(pyo3::exceptions::PyKeyError::new_err(key.clone().unbind())),
        }
    }

    fn __contains__(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(key_index(py, key)?.is_some())
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        names(py)?.top_tuple.bind(py).try_iter()
    }

    /// get(key, default=None): the value of `key`, or `default` when it is not a key.
    #[pyo3(signature = (key, default = None, /))]
    fn get<'py>(
        &self,
        py: Python<'py>,
        key: &Bound<'py, PyAny>,
        default: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        match key_index(py, key)? {
            Some(k) => self.value(py, k, true),
            None => Ok(default.unwrap_or_else(|| py.None().into_bound(py))),
        }
    }

    /// keys() -> KeysView: the report's keys, in score-core's JSON order.
    fn keys<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        view(slf.py(), 0)?.call1((slf,))
    }

    /// values() -> ValuesView.
    fn values<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        view(slf.py(), 1)?.call1((slf,))
    }

    /// items() -> ItemsView.
    fn items<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        view(slf.py(), 2)?.call1((slf,))
    }

    /// to_dict() -> dict: a new dict, the very one `score()` returns for the same profile.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        PyBuilder::new(py, self.decimals)?.build(&self.report, None)
    }

    /// Equal to a mapping with the same keys and equal values (a dict of `score()`, another
    /// Report); `NotImplemented` for anything that is not a mapping.
    fn __eq__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> PyResult<Py<PyAny>> {
        let mine = self.current(py)?;
        let theirs = if let Ok(report) = other.cast::<Report>() {
            report.get().current(py)?.into_any()
        } else if other.is_instance_of::<PyDict>() {
            other.clone()
        } else if other.is_instance_of::<PyMapping>() {
            PyDict::from_sequence(&other.call_method0(intern!(py, "items"))?)?.into_any()
        } else {
            return Ok(py.NotImplemented());
        };
        mine.eq(theirs)?.into_py_any(py)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("Report({})", self.current(py)?.repr()?.to_cow()?))
    }

    /// Pickles (and copies) as the dict of `to_dict()`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyAny>,))> {
        Ok((py.get_type::<PyDict>().into_any(), (self.to_dict(py)?,)))
    }
}
