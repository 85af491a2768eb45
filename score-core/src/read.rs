//! The one way in: read, validate, score. JSON text goes through the fast cell reader
//! ([`crate::profile::input`]) and, for anything it does not take, through the JSON value reader, which
//! reports the exact error ([`Profile::from_json_value`]); either way the profile is validated
//! once, and a [`ValidProfile`] scores without checking again. Both read a text's numbers
//! from the digits written, never through a binary double (MODEL.md section 1).

use crate::error::{Falla, ScoreError};
use crate::profile::Profile;
use crate::report::score_report::ScoreReport;
use serde_json::Value;

/// A profile that passed [`Profile::validate`]: scoring it cannot fail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidProfile(Profile);

impl ValidProfile {
    /// Reads and validates a profile from JSON text.
    pub fn from_json_str(text: &str) -> Result<ValidProfile, ScoreError> {
        // Plain profiles (nearly all) are read without an intermediate `Value`; anything else
        // goes through the value reader, which reports the exact error.
        if let Some(profile) = crate::profile::input::cells_of_json(text).and_then(|cells| cells.profile()) {
            return profile.validated();
        }
        let value: Value =
            serde_json::from_str(text).map_err(|e| ScoreError::from(Falla::JsonInvalido.en(None, &[("detalle", &e)])))?;
        // The same digits the fast reader reads, so that an error depends on them alone.
        let digits = crate::profile::input::digits_of_json(text);
        let exact = |prefix: &str, key: &str| digits.as_ref()?.exact(prefix, key);
        Profile::from_json_value_with_digits(&value, Some(&exact)).map(ValidProfile)
    }

    /// Reads and validates a profile from a JSON value (see [`Profile::from_json_value`]).
    pub fn from_json_value(value: &Value) -> Result<ValidProfile, ScoreError> {
        // The value reader validates what it reads.
        Profile::from_json_value(value).map(ValidProfile)
    }

    /// The full report.
    pub fn score(&self) -> ScoreReport {
        crate::model::report(
            crate::cifras::Cifras::incluidas(),
            &self.0,
            crate::Opciones::default(),
        )
    }

    /// The full report under `calibration` (its `calibracion` is the calibration's id).
    pub fn score_calibrated(&self, calibration: &crate::Calibration) -> ScoreReport {
        crate::model::report(
            calibration.cifras_modelo(),
            &self.0,
            crate::Opciones::default(),
        )
    }

    /// The profile.
    pub fn profile(&self) -> &Profile {
        &self.0
    }

    /// The profile, by value.
    pub fn into_profile(self) -> Profile {
        self.0
    }
}

impl Profile {
    /// This profile, validated ([`Profile::validate`]), ready to score.
    pub fn validated(self) -> Result<ValidProfile, ScoreError> {
        self.validate()?;
        Ok(ValidProfile(self))
    }

    /// Reads and validates a profile from JSON text.
    pub fn from_json_str(text: &str) -> Result<Profile, ScoreError> {
        ValidProfile::from_json_str(text).map(ValidProfile::into_profile)
    }
}
