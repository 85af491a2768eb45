//! `platform_score._core`: the Python binding of score-core. It converts and calls the core:
//! a Python mapping becomes a `score_core::Profile` (`input.rs`), score-core scores it, the
//! report becomes dicts through score-core's report walk (`dict.rs`, or lazily, `lazy.rs`),
//! and `score_core::ScoreError` becomes `platform_score.ScoreError`. Batches and columns are
//! score-core's (`score_core::batch`), run with the GIL released (`frame.rs` for columns); the
//! Python package wraps the batch call (`platform_score/_batch.py`: the garbage collector's
//! pause and the progress bar).

mod calibration;
mod dict;
mod docs;
mod frame;
mod input;
mod lazy;

use calibration::Calibration;
use dict::PyBuilder;
use input::read_profile;
use lazy::Report;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyList, PyTuple, PyType};
use score_core::batch::{self, Host, Input};
use score_core::{ErrorCode, ScoreError as CoreError, ScoreReport};

/// `platform_score.ScoreError` (a Python class: `platform_score/_errors.py`).
fn error_class(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    static CLASS: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    CLASS.import(py, "platform_score._errors", "ScoreError")
}

/// A `platform_score.ScoreError` with its `.code`, `.field`, `.index` and `.errors` (the one
/// constructor of the module's errors: score-core's and score-docs'). `errors` `None`: the
/// one mistake of `code` and `field`.
pub(crate) fn new_error(
    py: Python<'_>,
    message: String,
    code: &str,
    field: Option<&str>,
    index: Option<usize>,
    errors: Option<Bound<'_, PyList>>,
) -> PyErr {
    match error_class(py).and_then(|class| class.call1((message, code, field, index, errors))) {
        Ok(error) => PyErr::from_value(error),
        Err(failed) => failed,
    }
}

/// The `platform_score.ScoreError` for a score-core error (`index` for batches), with every
/// mistake in `.errors` as dicts `{"codigo", "campo", "mensaje"}`.
fn py_error(py: Python<'_>, e: &CoreError, index: Option<usize>) -> PyErr {
    let listed = e.errors.iter().map(|d| {
        let item = pyo3::types::PyDict::new(py);
        item.set_item("codigo", d.codigo.as_str())?;
        item.set_item("campo", d.campo.as_deref())?;
        item.set_item("mensaje", &d.mensaje)?;
        Ok(item)
    });
    let errors = match listed.collect::<PyResult<Vec<_>>>().and_then(|items| PyList::new(py, items)) {
        Ok(list) => list,
        Err(failed) => return failed,
    };
    new_error(py, score_core::host::error_message(e, index), e.code.as_str(), e.field.as_deref(), index, Some(errors))
}

/// The interpreter as score-core's batch host: its lock is the GIL.
pub(crate) struct PyHost<'py>(pub(crate) Python<'py>);

impl Host for PyHost<'_> {
    fn detach<T: Send, F: FnOnce() -> T + Send>(&self, f: F) -> T {
        self.0.detach(f)
    }
}

/// score(profile, *, decimals=False, calibration=None) -> dict: the full report of one
/// profile (under `calibration`, a `platform_score.Calibration`, when given).
#[pyfunction]
#[pyo3(signature = (profile, *, decimals = false, calibration = None))]
fn score<'py>(
    py: Python<'py>,
    profile: &Bound<'py, PyAny>,
    decimals: bool,
    calibration: Option<PyRef<'py, Calibration>>,
) -> PyResult<Bound<'py, PyAny>> {
    let opciones = score_core::Opciones::default();
    let scored = read_profile(profile)?.and_then(|p| match &calibration {
        Some(c) => score_core::score_calibrated(&p, c.core(), opciones),
        None => score_core::score(&p),
    });
    match scored {
        Ok(r) => PyBuilder::new(py, decimals)?.build(&r, None),
        Err(e) => Err(py_error(py, &e, None)),
    }
}

/// score_json(text, *, calibration=None) -> str: JSON text in, the report's compact JSON text
/// out.
#[pyfunction]
#[pyo3(signature = (text, *, calibration = None))]
fn score_json(py: Python<'_>, text: &str, calibration: Option<PyRef<'_, Calibration>>) -> PyResult<String> {
    let owned = text.to_owned();
    let calibration = calibration.map(|c| c.core().clone());
    py.detach(move || match &calibration {
        Some(c) => score_core::score_json_calibrated(&owned, c),
        None => score_core::score_json(&owned),
    })
    .map_err(|e| py_error(py, &e, None))
}

/// _score_many(profiles, raise_errors, decimals, lazy, simulations, progress, calibration) -> list: the
/// Rust half of `platform_score.score_many` (`_batch.py` checks `errors`, pauses the cyclic GC
/// and makes the progress bar).
///
/// The profiles are read on the calling thread and scored, each report boxed, on the others
/// (score-core's pipeline); as the scored chunks come back, in order, each report becomes a
/// dict, or with `lazy=True` a `Report` that holds the box, and each error a ScoreError
/// (raised when `raise_errors`, else put in its place). `progress` is called with the number of
/// results of each chunk once they are in the list. `simulations=False`: each report's
/// `simulaciones` is empty (they are not computed).
#[pyfunction]
fn _score_many<'py>(
    py: Python<'py>,
    profiles: &Bound<'py, PyAny>,
    raise_errors: bool,
    decimals: bool,
    lazy: bool,
    simulations: bool,
    progress: Option<Bound<'py, PyAny>>,
    calibration: Option<PyRef<'py, Calibration>>,
) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    let mut iter = profiles.try_iter()?;
    let mut read = |n: usize| -> PyResult<Vec<Input>> {
        let mut block = Vec::with_capacity(n);
        for item in iter.by_ref().take(n) {
            block.push(read_profile(&item?)?);
        }
        Ok(block)
    };
    let builder = PyBuilder::new(py, decimals)?;
    let emit = |results: Vec<Result<Box<ScoreReport>, CoreError>>, start: usize| {
        let n = results.len();
        for (i, result) in results.into_iter().enumerate() {
            match result {
                Ok(r) if lazy => out.append(Bound::new(py, Report::new(r, decimals))?)?,
                Ok(r) => out.append(builder.build(&r, None)?)?,
                Err(e) if raise_errors => return Err(py_error(py, &e, Some(start + i))),
                Err(e) => out.append(py_error(py, &e, Some(start + i)).into_value(py))?,
            }
        }
        progress.as_ref().map_or(Ok(()), |advance| advance.call1((n,)).map(drop))
    };
    let stopped = || PyValueError::new_err("score_many: the scoring threads stopped");
    match &calibration {
        Some(c) => batch::pipeline(&PyHost(py), &mut read, batch::boxed_scorer_calibrated(simulations, c.core()), emit, stopped)?,
        None => batch::pipeline(&PyHost(py), &mut read, batch::boxed_scorer(simulations), emit, stopped)?,
    }
    Ok(out)
}

#[pymodule(gil_used = false)]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    if dict::names(py)?.tables.top().len() > lazy::MAX_KEYS {
        return Err(pyo3::exceptions::PyImportError::new_err("platform_score: the report has more keys than Report holds"));
    }
    m.add_function(wrap_pyfunction!(score, m)?)?;
    m.add_function(wrap_pyfunction!(score_json, m)?)?;
    m.add_function(wrap_pyfunction!(_score_many, m)?)?;
    m.add_function(wrap_pyfunction!(frame::_score_columns, m)?)?;
    m.add_function(wrap_pyfunction!(frame::_plan, m)?)?;
    m.add_class::<Report>()?;
    m.add_class::<Calibration>()?;
    docs::register(m)?;
    m.add("ScoreError", error_class(py)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("CORE_VERSION", score_core::VERSION)?;
    m.add("MODEL_VERSION", score_core::MODEL_VERSION)?;
    m.add("PROFILE_FIELDS", PyTuple::new(py, score_core::FIELDS)?)?;
    m.add("ERROR_CODES", PyTuple::new(py, ErrorCode::ALL.iter().map(|c| c.as_str()))?)?;
    m.add("ERROR_COLUMNS", PyTuple::new(py, batch::ERROR_COLUMNS)?)?;
    m.add("ERROR_LIST_COLUMN", batch::ERROR_LIST_COLUMN)?;
    Ok(())
}
