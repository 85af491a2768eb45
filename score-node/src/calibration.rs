//! `Calibration`: a score-core calibration (the market's figures with their sources) loaded
//! once and passed to the scoring functions as the `calibration` option. The class only holds
//! score-core's value; loading, checking and scoring under it are score-core's.

use napi::bindgen_prelude::*;
use napi::{Env, Unknown, ValueType};
use napi_derive::napi;
use score_core::ScoreError;
use score_js::input::{not_a_calibration, options_not_an_object, toml_not_a_text};
use std::sync::Arc;

/// A checked calibration: `Calibration.default()` (the one embedded in the package) or
/// `Calibration.fromToml(text)`; a bad document throws `ScoreError` with code
/// `CALIBRATION_INVALID` and the key at fault as `field`.
#[napi]
#[derive(Debug)]
pub struct Calibration {
    /// Shared with the tasks that score on libuv's thread pool.
    core: Arc<score_core::Calibration>,
}

#[napi]
impl Calibration {
    /// Reads and checks a calibration written as TOML.
    #[napi(factory, ts_args_type = "text: string")]
    pub fn from_toml(env: &Env, text: Unknown<'_>) -> Result<Calibration> {
        if text.get_type()? != ValueType::String {
            return Err(crate::js_error(env, &toml_not_a_text(), None));
        }
        let text = text.coerce_to_string()?.into_utf8()?;
        score_core::Calibration::from_toml(text.as_str()?)
            .map(|core| Calibration { core: Arc::new(core) })
            .map_err(|e| crate::js_error(env, &e, None))
    }

    /// The calibration embedded in the package: the one every call uses when given none.
    #[napi(factory)]
    pub fn default() -> Calibration {
        Calibration { core: Arc::new(score_core::Calibration::default()) }
    }

    /// The calibration's name: the `calibracion` of the reports made with it.
    #[napi(getter)]
    pub fn id(&self) -> String {
        self.core.id().to_owned()
    }

    /// The date from which its figures apply, `AAAA-MM-DD`.
    #[napi(getter)]
    pub fn vigente_desde(&self) -> String {
        self.core.vigente_desde().to_owned()
    }

    /// The calibration as TOML: `Calibration.fromToml(c.toToml())` is the same calibration.
    #[napi]
    pub fn to_toml(&self) -> String {
        self.core.to_toml()
    }
}

/// A calibration option read: absent, or score-core's calibration.
pub(crate) type Chosen = Option<Arc<score_core::Calibration>>;

/// The `calibration` property of an options object (already known to be an object) of the call
/// named `function`: absent (`undefined`/`null`), a `Calibration`, or INVALID_TYPE.
pub(crate) fn calibration_of(options: &Object<'_>, function: &str) -> Result<std::result::Result<Chosen, ScoreError>> {
    let value: Unknown = options.get_named_property("calibration")?;
    Ok(match value.get_type()? {
        ValueType::Undefined | ValueType::Null => Ok(None),
        // napi-rs unwraps the object and checks that it is this class's.
        ValueType::Object => ClassInstance::<Calibration>::from_unknown(value)
            .map(|c| Some(Arc::clone(&c.core)))
            .map_err(|_| not_a_calibration(function)),
        _ => Err(not_a_calibration(function)),
    })
}

/// The options of a single-profile call named `function` (`undefined`/`null` or
/// `{ calibration }`), or the `ScoreError` they are.
pub(crate) fn single_options(options: Unknown<'_>, function: &str) -> Result<std::result::Result<Chosen, ScoreError>> {
    Ok(match options.get_type()? {
        ValueType::Undefined | ValueType::Null => Ok(None),
        ValueType::Object => calibration_of(&options.coerce_to_object()?, function)?,
        _ => Err(options_not_an_object(function)),
    })
}

/// Scores a read profile, under `calibration` when one was given.
pub(crate) fn score_under(
    profile: &score_core::Profile,
    calibration: Option<&score_core::Calibration>,
    opciones: score_core::Opciones,
) -> std::result::Result<score_core::ScoreReport, ScoreError> {
    match calibration {
        Some(c) => score_core::score_calibrated(profile, c, opciones),
        None => score_core::score_with(profile, opciones),
    }
}
