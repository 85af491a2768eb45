//! `score-wasm`: score-core for browsers and Node through WebAssembly (wasm-bindgen).
//!
//! Thin by design and the same API as score-node: read the JS profile (one call of the
//! generated gather function for a flat profile, else a walk by score-js's rules into the
//! `serde_json::Value` its JSON text would parse to), call score-core, return the report as a
//! plain JS object (score-js's flat values, read in WebAssembly memory by the generated report
//! builder) or as JSON text (score-core's JSON with the texts, which JS already holds, spliced
//! in), and throw a score-core error as a JS `Error` with the stable `code` and the `field` at
//! fault. The helper functions are `score_helpers.mjs`, generated at build time and imported by
//! the wasm-bindgen glue (`realm.rs`): nothing is compiled from text at run time, so pages run
//! under a Content-Security-Policy without `'unsafe-eval'`.

use js_sys::{Array, Error, JSON, JsString, Object, Promise, Reflect};
use score_core::host::{NotJson, error_message, not_json, number_value};
use score_core::{Profile, ScoreError, ScoreReport};
use score_core::host::not_a_list;
use score_js::input::{
    Errors, FlagValue, MAX_DEPTH, OptionValue, errors_option, not_a_text, options_not_an_object, simulations_option,
};
use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;

mod calibration;
mod realm;

pub use calibration::Calibration;
use calibration::{Chosen, calibration_of, single_options};

/// The TypeScript types shared with score-node (one source: score-node/types/score.d.ts, whose
/// report types score-js generates from score-core's walk).
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("../../score-node/types/score.d.ts");

#[wasm_bindgen]
extern "C" {
    /// A buyer profile (see `Profile` in the TypeScript types).
    #[wasm_bindgen(typescript_type = "Profile")]
    pub type JsProfile;
    /// A report (see `ScoreReport`).
    #[wasm_bindgen(typescript_type = "ScoreReport")]
    pub type JsReport;
    /// A promise of a report.
    #[wasm_bindgen(typescript_type = "Promise<ScoreReport>")]
    pub type JsReportPromise;
}

// ---------------------------------------------------------------------------------------------
// Errors

#[wasm_bindgen(raw_module = "./score_helpers.mjs")]
extern "C" {
    /// The class of every error the package throws (score-js's helper module, which the
    /// package re-exports): the same class and shape as score-node's.
    #[wasm_bindgen(extends = Error)]
    type ScoreErrorClass;
    #[wasm_bindgen(constructor, js_class = "ScoreError")]
    fn new(message: &str, code: &str, field: &JsValue, index: &JsValue, errors: &Array) -> ScoreErrorClass;
}

/// A `ScoreError` with `code`, `field` (null when the whole input is at fault), for batches
/// `index`, and `errors`, every mistake as `{codigo, campo, mensaje}` objects (made here rather
/// than through serde's writer, which the WebAssembly build would carry for them): the same
/// shape score-node throws.
pub(crate) fn js_error(e: &ScoreError, index: Option<usize>) -> JsValue {
    let field = e.field.as_deref().map_or(JsValue::NULL, JsValue::from_str);
    #[allow(clippy::cast_precision_loss)] // an array index (< 2^32)
    let at = index.map_or(JsValue::UNDEFINED, |i| JsValue::from_f64(i as f64));
    let errors: Array = e
        .errors
        .iter()
        .map(|d| {
            let item = Object::new();
            let campo = d.campo.as_deref().map_or(JsValue::NULL, JsValue::from_str);
            let _ = Reflect::set(&item, &"codigo".into(), &d.codigo.as_str().into());
            let _ = Reflect::set(&item, &"campo".into(), &campo);
            let _ = Reflect::set(&item, &"mensaje".into(), &d.mensaje.as_str().into());
            JsValue::from(item)
        })
        .collect();
    ScoreErrorClass::new(&error_message(e, index), e.code.as_str(), &field, &at, &errors).into()
}

// ---------------------------------------------------------------------------------------------
// JS value -> serde_json::Value (the rules are in score-js)

/// Reads a JS value; `Ok(None)` is `undefined` (an absent property).
fn to_value(v: &JsValue, field: Option<&str>, depth: u32) -> Result<Option<Value>, ScoreError> {
    // Numbers and strings first: each check is a call into JS, and they are most values.
    if let Some(f) = v.as_f64() {
        return Ok(Some(number_value(f)));
    }
    if let Some(s) = v.as_string() {
        return Ok(Some(Value::String(s)));
    }
    if v.is_undefined() {
        return Ok(None);
    }
    if v.is_null() {
        return Ok(Some(Value::Null));
    }
    if let Some(b) = v.as_bool() {
        return Ok(Some(Value::Bool(b)));
    }
    if v.is_object() && !v.is_function() && depth < MAX_DEPTH {
        if Array::is_array(v) {
            let arr: &Array = v.unchecked_ref();
            let mut items = Vec::with_capacity(arr.length() as usize);
            for item in arr.iter() {
                items.push(to_value(&item, field, depth + 1)?.unwrap_or(Value::Null));
            }
            return Ok(Some(Value::Array(items)));
        }
        let obj: &Object = v.unchecked_ref();
        let mut map = Map::new();
        // Own enumerable string keys, as `Object.keys` and `JSON.stringify` see them.
        for key in Object::keys(obj).iter() {
            let name = key.as_string().unwrap_or_default();
            let value = Reflect::get(obj, &key).unwrap_or(JsValue::UNDEFINED);
            if let Some(value) = to_value(&value, Some(&name), depth + 1)? {
                map.insert(name, value);
            }
        }
        return Ok(Some(Value::Object(map)));
    }
    let kind = if v.is_function() {
        NotJson::Function
    } else if v.is_symbol() {
        NotJson::Symbol
    } else if v.is_bigint() {
        NotJson::BigInt
    } else {
        NotJson::TooDeep
    };
    Err(not_json(field, kind))
}

fn score_js(profile: &JsValue, opciones: score_core::Opciones, calibration: &Chosen) -> Result<ScoreReport, ScoreError> {
    // A flat profile of plain values in one call; anything else is walked key by key into the
    // JSON value score-core reads, which reports the exact error.
    let profile = match realm::gather(profile) {
        Some(profile) => profile,
        None => Profile::from_json_value(&to_value(profile, None, 0)?.unwrap_or(Value::Null))?,
    };
    score_under(&profile, opciones, calibration)
}

/// Scores a read profile, under `calibration` when one was given: the one place that calls
/// the model (the build inlines it once).
fn score_under(profile: &Profile, opciones: score_core::Opciones, calibration: &Chosen) -> Result<ScoreReport, ScoreError> {
    match calibration {
        Some(c) => score_core::score_calibrated(profile, c, opciones),
        None => score_core::score_with(profile, opciones),
    }
}

/// The report as a plain JS object with the keys and numbers of score-core's JSON, built by
/// the generated report builder (a loaded calibration's id set on the object after, see
/// `score_js::flat::take_calibration_id`), or else, for a report with another owned text,
/// through the JSON text; both give the same object.
fn report_js(report: &mut ScoreReport) -> JsValue {
    let id = score_js::flat::take_calibration_id(report);
    let built = realm::build_report(report);
    if let Some(id) = id {
        report.calibracion = id.into();
    }
    match built {
        Some(object) => {
            if let std::borrow::Cow::Owned(id) = &report.calibracion {
                let _ = Reflect::set(&object, &JsValue::from_str("calibracion"), &JsValue::from_str(id));
            }
            object
        }
        None => JSON::parse(&report.to_json_string()).unwrap_or(JsValue::NULL),
    }
}

// ---------------------------------------------------------------------------------------------
// Exports

/// Scores one buyer profile and returns the report (under `options.calibration` when given).
/// Throws an `Error` whose `code` is the stable score-core code ("UNKNOWN_STATE", ...) and
/// `field` the profile field at fault.
#[wasm_bindgen]
pub fn score(profile: &JsProfile, #[wasm_bindgen(unchecked_optional_param_type = "ScoreOptions")] options: Option<JsValue>) -> Result<JsReport, JsValue> {
    let calibration = single_options("score", options.as_ref().unwrap_or(&JsValue::UNDEFINED)).map_err(|e| js_error(&e, None))?;
    match score_js(profile, score_core::Opciones::default(), &calibration) {
        Ok(mut report) => Ok(report_js(&mut report).unchecked_into()),
        Err(e) => Err(js_error(&e, None)),
    }
}

/// Scores a profile given as JSON text and returns the report as compact JSON text,
/// byte-identical to score-core's `score_json` on every platform.
#[wasm_bindgen(js_name = scoreJson)]
pub fn score_json(
    #[wasm_bindgen(unchecked_param_type = "string", js_name = "profileJson")] profile_json: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ScoreOptions")] options: Option<JsValue>,
) -> Result<JsString, JsValue> {
    let Some(profile_json) = profile_json.as_string() else {
        return Err(js_error(&not_a_text(), None));
    };
    let calibration = single_options("scoreJson", options.as_ref().unwrap_or(&JsValue::UNDEFINED)).map_err(|e| js_error(&e, None))?;
    let report = Profile::from_json_str(&profile_json)
        .and_then(|profile| score_under(&profile, score_core::Opciones::default(), &calibration))
        .map_err(|e| js_error(&e, None))?;
    Ok(realm::json_text(&report)
        .unwrap_or_else(|| JsString::from(report.to_json_string())))
}

/// The `simulations` option of a batch call (`undefined`/`null` options: true); the options
/// object itself was checked by [`errors_of`].
fn simulations_of(function: &str, options: &JsValue) -> Result<bool, ScoreError> {
    if !options.is_object() {
        return Ok(true);
    }
    let value = Reflect::get(options, &JsValue::from_str("simulations")).unwrap_or(JsValue::UNDEFINED);
    let flag = match value.as_bool() {
        Some(b) => FlagValue::Bool(b),
        None if value.is_undefined() => FlagValue::Absent,
        None => FlagValue::Other,
    };
    simulations_option(function, flag)
}

/// The [`Errors`] of a batch call's options (`undefined`/`null` or `{ errors }`).
fn errors_of(function: &str, options: &JsValue) -> Result<Errors, ScoreError> {
    if options.is_undefined() || options.is_null() {
        return Ok(Errors::Throw);
    }
    if !options.is_object() || options.is_function() {
        return Err(options_not_an_object(function));
    }
    let errors = Reflect::get(options, &JsValue::from_str("errors")).unwrap_or(JsValue::UNDEFINED);
    match errors.as_string() {
        Some(text) => errors_option(function, OptionValue::Text(&text)),
        None if errors.is_undefined() => errors_option(function, OptionValue::Absent),
        None => errors_option(function, OptionValue::Other),
    }
}

/// Scores an array of profiles in order (score-node's contract): `errors: "throw"` (the
/// default) throws the first bad profile's error, with its `index`; `errors: "return"` puts
/// each bad profile's `ScoreError` in its place. Typed in score.d.ts (overloads).
fn score_many_named(function: &str, profiles: &JsValue, options: &JsValue) -> Result<Array, JsValue> {
    let errors = errors_of(function, options).map_err(|e| js_error(&e, None))?;
    let simulaciones = simulations_of(function, options).map_err(|e| js_error(&e, None))?;
    let calibration = calibration_of(function, options).map_err(|e| js_error(&e, None))?;
    let opciones = score_core::Opciones { simulaciones, ..score_core::Opciones::default() };
    if !Array::is_array(profiles) {
        return Err(js_error(&not_a_list(function), None));
    }
    let profiles: &Array = profiles.unchecked_ref();
    let out = Array::new();
    for (i, profile) in profiles.iter().enumerate() {
        match (score_js(&profile, opciones, &calibration), errors) {
            (Ok(mut report), _) => out.push(&report_js(&mut report)),
            (Err(e), Errors::Return) => out.push(&js_error(&e, Some(i))),
            (Err(e), Errors::Throw) => return Err(js_error(&e, Some(i))),
        };
    }
    Ok(out)
}

/// Scores an array of profiles in order; see score.d.ts.
#[wasm_bindgen(js_name = scoreMany, skip_typescript)]
pub fn score_many(profiles: &JsValue, options: &JsValue) -> Result<Array, JsValue> {
    score_many_named("scoreMany", profiles, options)
}

/// Same contract as score-node's `scoreManyAsync`: a promise of `scoreMany`'s result, rejected
/// with the same errors. WebAssembly here has no threads, so the work runs on the calling
/// thread when the function is called; run it in a Worker to keep a page's main thread free.
#[wasm_bindgen(js_name = scoreManyAsync, skip_typescript)]
pub fn score_many_async(profiles: &JsValue, options: &JsValue) -> Promise {
    match score_many_named("scoreManyAsync", profiles, options) {
        Ok(out) => Promise::resolve(&JsValue::from(out)),
        Err(e) => Promise::reject(&e),
    }
}

/// Same contract as score-node's `scoreAsync`: a promise of the report, rejected with the
/// same `Error`. WebAssembly here has no threads, so the work runs on the calling thread when
/// the function is called; run it in a Worker to keep a page's main thread free.
#[wasm_bindgen(js_name = scoreAsync)]
pub fn score_async(profile: &JsProfile, #[wasm_bindgen(unchecked_optional_param_type = "ScoreOptions")] options: Option<JsValue>) -> JsReportPromise {
    let scored = single_options("scoreAsync", options.as_ref().unwrap_or(&JsValue::UNDEFINED))
        .and_then(|calibration| score_js(profile, score_core::Opciones::default(), &calibration));
    let promise = match scored {
        Ok(mut report) => Promise::resolve(&report_js(&mut report)),
        Err(e) => Promise::reject(&js_error(&e, None)),
    };
    promise.unchecked_into()
}

/// Version of the score model ("2.1"); the build exports it as the constant `MODEL_VERSION`.
#[wasm_bindgen(js_name = modelVersion)]
pub fn model_version() -> String {
    score_core::MODEL_VERSION.to_owned()
}

/// Version of score-core; the build exports it as the constant `VERSION`.
#[wasm_bindgen(js_name = version)]
pub fn version() -> String {
    score_core::VERSION.to_owned()
}
