//! # score-core
//!
//! The buyer pre-qualification score of platform-score, model v2.1: a 0..1000 score with its
//! level, the purchasing capacity and the financial health of a Mexican household, computed
//! from a [`Profile`] by one pure function, [`score`].
//!
//! The crate does no I/O, reads no clock, draws no random numbers and keeps no mutable global
//! state (the embedded calibration's figures are read once, on first use, into an immutable
//! constant: see `cifras::Cifras::incluidas`); every figure a report reads comes from a
//! [`Calibration`], the embedded one by default;
//! money is [`rust_decimal::Decimal`] end to end, so every platform (native, Python, Node, the
//! browser) computes the same digits. The model's constants and their sources are documented
//! in `MODEL.md` next to this crate; its modules' layers, in `ARCHITECTURE.md`.
//!
//! ```
//! let report = score_core::score_json(r#"{
//!     "estado": "CMX", "ingreso_mensual": 30000, "tipo_ingreso": "asalariado",
//!     "antiguedad_meses": 36, "ahorro": 100000, "edad": 35
//! }"#).unwrap();
//! assert!(report.contains("\"nivel\":\"alto\""));
//! ```

#![forbid(unsafe_code)]

// Layers, bottom up (ARCHITECTURE.md; tests/module_graph.rs keeps them acyclic): the
// arithmetic and the fixed tables, the profile, the calibration, the report's types, the
// credit products, the model, and the writers and entry points.
mod approx;
pub mod curve;
mod error;
mod fast_decimal;
mod json_text;
pub mod money;
pub mod params;
mod pow10;
pub mod states;

mod profile;

pub mod calibration;
mod cifras;
mod fondo;

mod report;

pub mod products;

mod model;

#[cfg(feature = "batch")]
pub mod batch;
pub mod host;
mod read;
pub mod tree;
pub mod walk;

pub use profile::input;
pub use report::schema;

pub use calibration::Calibration;
pub use error::{ErrorCode, ErrorDetail, Falla, ScoreError};
pub use model::Opciones;
pub use profile::{COACREDITADO_FIELDS, Coacreditado, FIELDS, IncomeType, Institucion, Profile};
pub use read::ValidProfile;
pub use model::recommendations::texto as recommendation_text;
pub use model::verdict::texto as verdict_text;
pub use report::*;
pub use report::score_report::ScoreReport;
pub use report::simulacion::{AccionSimulacion, CambioPerfil, CampoSimulado, Simulacion, ValorCampo};
pub use report::{CALIBRATION, DISCLAIMER, MODEL_VERSION};
pub use states::State;
pub use walk::{Key, Label, ReportSink, Slot};

/// Version of this crate.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Scores a profile: validates it and returns the full report, or every validation error (the first one
/// in front: [`ScoreError`]).
/// (A [`ValidProfile`], from [`Profile::validated`] or its readers, scores without checking
/// again.)
pub fn score(profile: &Profile) -> Result<ScoreReport, ScoreError> {
    score_with(profile, Opciones::default())
}

/// [`score`], made as `opciones` say.
pub fn score_with(profile: &Profile, opciones: Opciones) -> Result<ScoreReport, ScoreError> {
    profile.validate()?;
    Ok(model::report(cifras::Cifras::incluidas(), profile, opciones))
}

/// [`score_with`] under `calibration`: computed with its figures, the report's `calibracion`
/// being its [`Calibration::id`].
pub fn score_calibrated(profile: &Profile, calibration: &Calibration, opciones: Opciones) -> Result<ScoreReport, ScoreError> {
    profile.validate()?;
    Ok(model::report(calibration.cifras_modelo(), profile, opciones))
}

/// [`score_json`] under `calibration`.
pub fn score_json_calibrated(profile: &str, calibration: &Calibration) -> Result<String, ScoreError> {
    Ok(ValidProfile::from_json_str(profile)?.score_calibrated(calibration).to_json_string())
}

/// Scores a profile given as a JSON value (the form every binding converts to): read and
/// validated once.
pub fn score_value(profile: &serde_json::Value) -> Result<ScoreReport, ScoreError> {
    Ok(ValidProfile::from_json_value(profile)?.score())
}

/// Scores a profile given as JSON text and returns the report as compact JSON text. The same
/// input gives byte-identical output on every platform.
pub fn score_json(profile: &str) -> Result<String, ScoreError> {
    Ok(ValidProfile::from_json_str(profile)?.score().to_json_string())
}
