//! `Calibration`: a score-core calibration (the market's figures with their sources) loaded
//! once and passed to the scoring functions as the `calibration` option; the same class as
//! score-node's. Loading, checking and scoring under it are score-core's.

use crate::js_error;
use js_sys::{Function, Reflect};
use score_core::ScoreError;
use score_js::input::{not_a_calibration, toml_not_a_text};
use std::rc::Rc;
use wasm_bindgen::convert::TryFromJsValue;
use wasm_bindgen::prelude::*;

/// A checked calibration: `Calibration.default()` (the one embedded in the package) or
/// `Calibration.fromToml(text)`; a bad document throws `ScoreError` with code
/// `CALIBRATION_INVALID` and the key at fault as `field`.
#[wasm_bindgen]
#[derive(Debug)]
pub struct Calibration {
    core: Rc<score_core::Calibration>,
}

#[wasm_bindgen]
impl Calibration {
    /// Reads and checks a calibration written as TOML.
    #[wasm_bindgen(js_name = fromToml)]
    pub fn from_toml(#[wasm_bindgen(unchecked_param_type = "string")] text: &JsValue) -> Result<Calibration, JsValue> {
        let Some(text) = text.as_string() else {
            return Err(js_error(&toml_not_a_text(), None));
        };
        score_core::Calibration::from_toml(&text).map(|core| Calibration { core: Rc::new(core) }).map_err(|e| js_error(&e, None))
    }

    /// The calibration embedded in the package: the one every call uses when given none.
    #[wasm_bindgen(js_name = default)]
    pub fn embedded() -> Calibration {
        Calibration { core: Rc::new(score_core::Calibration::default()) }
    }

    /// The calibration's name: the `calibracion` of the reports made with it.
    #[wasm_bindgen(getter)]
    pub fn id(&self) -> String {
        self.core.id().to_owned()
    }

    /// The date from which its figures apply, `AAAA-MM-DD`.
    #[wasm_bindgen(getter, js_name = vigenteDesde)]
    pub fn vigente_desde(&self) -> String {
        self.core.vigente_desde().to_owned()
    }

    /// The calibration as TOML: `Calibration.fromToml(c.toToml())` is the same calibration.
    #[wasm_bindgen(js_name = toToml)]
    pub fn to_toml(&self) -> String {
        self.core.to_toml()
    }

    /// A second handle on the same calibration: how a scoring call takes the calibration out
    /// of its options without consuming the caller's object (wasm-bindgen's conversion from a
    /// JS value gives up the object it converts).
    #[wasm_bindgen(js_name = __share, skip_typescript)]
    pub fn share(&self) -> Calibration {
        Calibration { core: Rc::clone(&self.core) }
    }
}

/// A calibration option read: absent, or score-core's calibration.
pub(crate) type Chosen = Option<Rc<score_core::Calibration>>;

/// The `calibration` property of the options (`undefined`/`null` options: none) of the call
/// named `function`: absent, a `Calibration`, or INVALID_TYPE.
pub(crate) fn calibration_of(function: &str, options: &JsValue) -> Result<Chosen, ScoreError> {
    if !options.is_object() {
        return Ok(None);
    }
    let value = Reflect::get(options, &JsValue::from_str("calibration")).unwrap_or(JsValue::UNDEFINED);
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    // `__share` of a Calibration returns a new handle, which the conversion checks (instanceof)
    // and consumes; anything else fails one of the steps.
    Reflect::get(&value, &JsValue::from_str("__share"))
        .ok()
        .and_then(|share| share.dyn_into::<Function>().ok())
        .and_then(|share| share.call0(&value).ok())
        .and_then(|handle| Calibration::try_from_js_value(handle).ok())
        .map(|c| Some(c.core))
        .ok_or_else(|| not_a_calibration(function))
}

/// The options of a single-profile call named `function`: `undefined`/`null` or
/// `{ calibration }`.
pub(crate) fn single_options(function: &str, options: &JsValue) -> Result<Chosen, ScoreError> {
    if !options.is_undefined() && !options.is_null() && (!options.is_object() || options.is_function()) {
        return Err(score_js::input::options_not_an_object(function));
    }
    calibration_of(function, options)
}
