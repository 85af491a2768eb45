//! `platform_score._core`: the Python binding of score-core. It converts and calls the core:
//! a Python mapping becomes a `score_core::Profile` (`input.rs`), score-core scores it, the
//! report becomes dicts through score-core's report walk (`dict.rs`, or lazily, `lazy.rs`),
//! and `score_core::ScoreError` becomes `platform_score.ScoreError`. Batches and columns are
//! score-core's (`score_core::batch`), run with the GIL released (`frame.rs` for columns).

mod dict;
mod docs;
mod frame;
mod input;
mod lazy;

use dict::PyBuilder;
use input::read_profile;
use lazy::Report;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use score_core::batch::{self, Host, Input};
use score_core::{ErrorCode, ScoreError as CoreError, ScoreReport};

create_exception!(
    platform_score,
    ScoreError,
    PyValueError,
    "A profile could not be scored. `.code` is the stable score-core code (\"UNKNOWN_STATE\", ...), \
     `.field` the profile field at fault (or None) and `.index` the position of the profile in a batch \
     (or None)."
);

/// The `platform_score.ScoreError` instance for a score-core error (`index` for batches).
fn py_error(py: Python<'_>, e: &CoreError, index: Option<usize>) -> PyErr {
    let err = ScoreError::new_err(score_core::host::error_message(e, index));
    let value = err.value(py);
    let set = value
        .setattr(intern!(py, "code"), e.code.as_str())
        .and_then(|()| value.setattr(intern!(py, "field"), e.field.as_deref()))
        .and_then(|()| value.setattr(intern!(py, "index"), index));
    match set {
        Ok(()) => err,
        Err(other) => other,
    }
}

/// The interpreter as score-core's batch host: its lock is the GIL.
pub(crate) struct PyHost<'py>(pub(crate) Python<'py>);

impl Host for PyHost<'_> {
    fn detach<T: Send, F: FnOnce() -> T + Send>(&self, f: F) -> T {
        self.0.detach(f)
    }
}

/// Disables Python's cyclic garbage collector until dropped (if it was enabled).
struct GcPause<'py>(Option<Bound<'py, PyModule>>);

impl<'py> GcPause<'py> {
    fn new(py: Python<'py>) -> PyResult<Self> {
        let gc = py.import(intern!(py, "gc"))?;
        if gc.call_method0(intern!(py, "isenabled"))?.is_truthy()? {
            gc.call_method0(intern!(py, "disable"))?;
            Ok(GcPause(Some(gc)))
        } else {
            Ok(GcPause(None))
        }
    }
}

impl Drop for GcPause<'_> {
    fn drop(&mut self) {
        if let Some(gc) = &self.0 {
            // Re-enabling cannot fail in practice; there is no caller to report to from drop.
            let _ = gc.call_method0(intern!(gc.py(), "enable"));
        }
    }
}

/// A progress bar of the Python side (`platform_score._progress.bar`), closed when dropped.
struct ProgressBar<'py>(Bound<'py, PyAny>);

impl<'py> ProgressBar<'py> {
    fn new(items: &Bound<'py, PyAny>) -> PyResult<Self> {
        let py = items.py();
        Ok(ProgressBar(py.import(intern!(py, "platform_score._progress"))?.call_method1(intern!(py, "bar"), (items,))?))
    }

    fn advance(&self, n: usize) -> PyResult<()> {
        self.0.call_method1(intern!(self.0.py(), "update"), (n,)).map(drop)
    }
}

impl Drop for ProgressBar<'_> {
    fn drop(&mut self) {
        // Closing only redraws the bar; there is no caller to report a failure to from drop.
        let _ = self.0.call_method0(intern!(self.0.py(), "close"));
    }
}

/// score(profile, *, decimals=False) -> dict: the full report of one profile.
#[pyfunction]
#[pyo3(signature = (profile, *, decimals = false))]
fn score<'py>(py: Python<'py>, profile: &Bound<'py, PyAny>, decimals: bool) -> PyResult<Bound<'py, PyAny>> {
    match read_profile(profile)?.and_then(|p| score_core::score(&p)) {
        Ok(r) => PyBuilder::new(py, decimals)?.build(&r, None),
        Err(e) => Err(py_error(py, &e, None)),
    }
}

/// score_json(text) -> str: JSON text in, the report's compact JSON text out.
#[pyfunction]
fn score_json(py: Python<'_>, text: &str) -> PyResult<String> {
    let owned = text.to_owned();
    py.detach(move || score_core::score_json(&owned)).map_err(|e| py_error(py, &e, None))
}

/// Appends one result of a batch to `out` (`index`: its position in the batch): the built
/// value, or the ScoreError (raised when `raise`).
fn append_result<'py, T>(
    out: &Bound<'py, PyList>,
    result: Result<T, CoreError>,
    index: usize,
    raise: bool,
    build: impl FnOnce(T) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<()> {
    let py = out.py();
    match result {
        Ok(r) => out.append(build(r)?),
        Err(e) if raise => Err(py_error(py, &e, Some(index))),
        Err(e) => out.append(py_error(py, &e, Some(index)).into_value(py)),
    }
}

fn score_boxed(input: &Input) -> Result<Box<ScoreReport>, CoreError> {
    batch::score_input(input).map(Box::new)
}

fn score_boxed_without_simulations(input: &Input) -> Result<Box<ScoreReport>, CoreError> {
    batch::score_input_without_simulations(input).map(Box::new)
}

/// score_many(profiles, *, errors="raise", decimals=False, lazy=False, progress=False,
/// simulations=True) -> list.
///
/// The profiles are read on the calling thread and scored on the others (score-core's
/// pipeline); dicts are built as the scored chunks come back, in order. `lazy=True`: one
/// `Report` per profile, which holds the boxed Rust report (boxed on the scoring thread).
/// `progress=True`: a progress bar (`platform_score._progress.bar`, tqdm) advanced as each
/// chunk of results is in the list, closed at the end whatever ends the batch.
/// `simulations=False`: each report's `simulaciones` is empty (they are not computed).
#[pyfunction]
#[pyo3(signature = (profiles, *, errors = "raise", decimals = false, lazy = false, progress = false, simulations = true))]
fn score_many<'py>(
    py: Python<'py>,
    profiles: &Bound<'py, PyAny>,
    errors: &str,
    decimals: bool,
    lazy: bool,
    progress: bool,
    simulations: bool,
) -> PyResult<Bound<'py, PyList>> {
    let raise = match errors {
        "raise" => true,
        "return" => false,
        other => return Err(PyValueError::new_err(format!("errors must be \"raise\" or \"return\", not {other:?}"))),
    };
    let out = PyList::empty(py);
    // The reports hold no reference cycles; pausing the cyclic GC while a large batch of dicts
    // is built avoids repeated full collections over the growing list.
    let _gc = GcPause::new(py)?;
    let mut iter = profiles.try_iter()?;
    let mut read = |n: usize| -> PyResult<Vec<Input>> {
        let mut block = Vec::with_capacity(n);
        for item in iter.by_ref().take(n) {
            block.push(read_profile(&item?)?);
        }
        Ok(block)
    };
    let stopped = || PyValueError::new_err("score_many: the scoring threads stopped");
    let bar = if progress { Some(ProgressBar::new(profiles)?) } else { None };
    let progress = |n: usize| bar.as_ref().map_or(Ok(()), |b| b.advance(n));
    if lazy {
        let score = if simulations { score_boxed } else { score_boxed_without_simulations };
        batch::pipeline(&PyHost(py), &mut read, score, |reports, start| {
            let n = reports.len();
            for (i, result) in reports.into_iter().enumerate() {
                append_result(&out, result, start + i, raise, |r| Ok(Bound::new(py, Report::new(r, decimals))?.into_any()))?;
            }
            progress(n)
        }, stopped)?;
    } else {
        let builder = PyBuilder::new(py, decimals)?;
        let score = batch::scorer(simulations);
        batch::pipeline(&PyHost(py), &mut read, score, |reports, start| {
            let n = reports.len();
            for (i, result) in reports.into_iter().enumerate() {
                append_result(&out, result, start + i, raise, |r| builder.build(&r, None))?;
            }
            progress(n)
        }, stopped)?;
    }
    Ok(out)
}

#[pymodule(gil_used = false)]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    if dict::names(py)?.top.len() > lazy::MAX_KEYS {
        return Err(pyo3::exceptions::PyImportError::new_err("platform_score: the report has more keys than Report holds"));
    }
    m.add_function(wrap_pyfunction!(score, m)?)?;
    m.add_function(wrap_pyfunction!(score_json, m)?)?;
    m.add_function(wrap_pyfunction!(score_many, m)?)?;
    m.add_function(wrap_pyfunction!(frame::_score_columns, m)?)?;
    m.add_function(wrap_pyfunction!(frame::_plan, m)?)?;
    m.add_class::<Report>()?;
    docs::register(m)?;
    m.add("ScoreError", py.get_type::<ScoreError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("CORE_VERSION", score_core::VERSION)?;
    m.add("MODEL_VERSION", score_core::MODEL_VERSION)?;
    m.add("PROFILE_FIELDS", PyTuple::new(py, score_core::FIELDS)?)?;
    m.add("ERROR_CODES", PyTuple::new(py, ErrorCode::ALL.iter().map(|c| c.as_str()))?)?;
    m.add("ERROR_COLUMNS", PyTuple::new(py, batch::ERROR_COLUMNS)?)?;
    Ok(())
}
