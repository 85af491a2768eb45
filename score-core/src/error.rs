//! The one error type of the model, with stable machine codes.
//!
//! Codes are UPPER_SNAKE_CASE and never change meaning: Python's `ScoreError.code`, the JS
//! `error.code`, the HTTP envelope's `code` and the fixtures' `error.code` all carry the same
//! string. Messages are Spanish sentences for people and may be reworded; tests of other
//! surfaces assert on codes.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Stable machine code of a [`ScoreError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[non_exhaustive]
pub enum ErrorCode {
    /// The input text is not valid JSON.
    InvalidJson,
    /// A value has the wrong JSON type (for example a string where a number is expected),
    /// or the profile itself is not a JSON object.
    InvalidType,
    /// A required field is absent or `null`.
    MissingField,
    /// The profile carries a field the model does not know (typos surface here).
    UnknownField,
    /// `estado` is not one of the 32 federal entities.
    UnknownState,
    /// `tipo_ingreso` is not one of the documented income types.
    UnknownIncomeType,
    /// `institucion` is not one of the documented housing funds.
    UnknownInstitution,
    /// A money amount is below zero.
    NegativeAmount,
    /// A money amount is above the model's plausibility ceiling.
    AmountTooLarge,
    /// A count (months, years, persons) has a fractional part.
    NotAnInteger,
    /// A value is outside its documented range (for example `edad` 15 or an income of 0).
    ValueOutOfRange,
    /// A calibration document is not valid; `field` is the path of the key at fault
    /// (`productos[2].tasa_anual`).
    CalibrationInvalid,
}

impl ErrorCode {
    /// Every code, in declaration order (used by docs and tests).
    pub const ALL: [ErrorCode; 12] = [
        ErrorCode::InvalidJson,
        ErrorCode::InvalidType,
        ErrorCode::MissingField,
        ErrorCode::UnknownField,
        ErrorCode::UnknownState,
        ErrorCode::UnknownIncomeType,
        ErrorCode::UnknownInstitution,
        ErrorCode::NegativeAmount,
        ErrorCode::AmountTooLarge,
        ErrorCode::NotAnInteger,
        ErrorCode::ValueOutOfRange,
        ErrorCode::CalibrationInvalid,
    ];

    /// The stable UPPER_SNAKE_CASE string of this code.
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidJson => "INVALID_JSON",
            ErrorCode::InvalidType => "INVALID_TYPE",
            ErrorCode::MissingField => "MISSING_FIELD",
            ErrorCode::UnknownField => "UNKNOWN_FIELD",
            ErrorCode::UnknownState => "UNKNOWN_STATE",
            ErrorCode::UnknownIncomeType => "UNKNOWN_INCOME_TYPE",
            ErrorCode::UnknownInstitution => "UNKNOWN_INSTITUTION",
            ErrorCode::NegativeAmount => "NEGATIVE_AMOUNT",
            ErrorCode::AmountTooLarge => "AMOUNT_TOO_LARGE",
            ErrorCode::NotAnInteger => "NOT_AN_INTEGER",
            ErrorCode::ValueOutOfRange => "VALUE_OUT_OF_RANGE",
            ErrorCode::CalibrationInvalid => "CALIBRATION_INVALID",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a profile could not be scored: a stable [`ErrorCode`], the offending field (when there is
/// one) and a Spanish message that names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{code}: {message}")]
pub struct ScoreError {
    /// Stable machine code.
    pub code: ErrorCode,
    /// The profile field at fault, `None` when the whole input is at fault.
    pub field: Option<String>,
    /// Human-readable Spanish explanation.
    pub message: String,
}

impl ScoreError {
    pub(crate) fn new(code: ErrorCode, field: Option<&str>, message: String) -> Self {
        ScoreError { code, field: field.map(str::to_owned), message }
    }
}
