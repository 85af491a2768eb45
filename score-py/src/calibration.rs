//! `platform_score.Calibration`: a score-core calibration (the market's figures with their
//! sources) loaded once and passed to the scoring functions as `calibration=`.

use crate::py_error;
use pyo3::prelude::*;
use std::path::PathBuf;

/// A checked calibration: `Calibration.default()`, `Calibration.from_toml(text)` or
/// `Calibration.from_file(path)`; a bad document raises `ScoreError` with code
/// `CALIBRATION_INVALID` and the key at fault as `.field`.
#[pyclass(module = "platform_score", frozen)]
#[derive(Debug)]
pub(crate) struct Calibration(score_core::Calibration);

impl Calibration {
    pub(crate) fn core(&self) -> &score_core::Calibration {
        &self.0
    }
}

#[pymethods]
impl Calibration {
    /// The calibration embedded in the package (the one used when none is given).
    #[staticmethod]
    fn default() -> Calibration {
        Calibration(score_core::Calibration::default())
    }

    /// Reads and checks a calibration written as TOML.
    #[staticmethod]
    fn from_toml(py: Python<'_>, text: &str) -> PyResult<Calibration> {
        score_core::Calibration::from_toml(text).map(Calibration).map_err(|e| py_error(py, &e, None))
    }

    /// Reads and checks a calibration file (UTF-8 TOML); OSError when it cannot be read.
    #[staticmethod]
    fn from_file(py: Python<'_>, path: PathBuf) -> PyResult<Calibration> {
        let text = std::fs::read_to_string(&path)?;
        Self::from_toml(py, &text)
    }

    /// The calibration's name: the `calibracion` of the reports made with it.
    #[getter]
    fn id(&self) -> &str {
        self.0.id()
    }

    /// The date from which its figures apply, `AAAA-MM-DD`.
    #[getter]
    fn vigente_desde(&self) -> &str {
        self.0.vigente_desde()
    }

    /// The calibration as TOML: `Calibration.from_toml(c.to_toml())` is the same calibration.
    fn to_toml(&self) -> String {
        self.0.to_toml()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Calibration>().is_ok_and(|o| o.get().0 == self.0)
    }

    /// Pickles (and copies) as `Calibration.from_toml(self.to_toml())`, so that Spark and Dask
    /// can send it to their workers.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((py.get_type::<Calibration>().getattr("from_toml")?, (self.0.to_toml(),)))
    }

    fn __repr__(&self) -> String {
        format!("Calibration(id={:?}, vigente_desde={:?})", self.0.id(), self.0.vigente_desde())
    }
}
