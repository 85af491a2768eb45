//! `score-wasm`: score-core for browsers and Node through WebAssembly (wasm-bindgen).
//!
//! Thin by design and the same API as score-node: read the JS profile's plain values into
//! score-core's `input::Cells` (or, for anything else, the `serde_json::Value` its JSON text
//! would parse to; the rules of score-node's `input.rs`), call score-core, return the report
//! as a plain JS object (score-node's `layout.rs`: a generated object-literal function fed with
//! the report's values, or JSON text under a CSP that forbids compiling it), and throw a
//! score-core error as a JS `Error` with the stable `code` and the `field` at fault.

use js_sys::{Array, Error, Float64Array, Function, JSON, Object, Promise, Reflect};
use score_core::{Profile, ScoreError, ScoreReport};
use serde_json::{Map, Value};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

// Shared with score-node: the JS -> JSON value rules and the report layout.
#[path = "../../score-node/src/input.rs"]
mod input;
#[path = "../../score-node/src/layout.rs"]
mod layout;
use input::{MAX_DEPTH, NotJson, error_message, input_error, not_json, number_value};
use layout::Flat;

/// The TypeScript types shared with score-node (one source: score-node/types/score.d.ts).
#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("../../score-node/types/score.d.ts");

#[wasm_bindgen]
extern "C" {
    /// A buyer profile (see `Profile` in the TypeScript types).
    #[wasm_bindgen(typescript_type = "Profile")]
    pub type JsProfile;
    /// An array of buyer profiles.
    #[wasm_bindgen(typescript_type = "Profile[]")]
    pub type JsProfiles;
    /// A report (see `ScoreReport`).
    #[wasm_bindgen(typescript_type = "ScoreReport")]
    pub type JsReport;
    /// An array of reports.
    #[wasm_bindgen(typescript_type = "ScoreReport[]")]
    pub type JsReports;
    /// A promise of a report.
    #[wasm_bindgen(typescript_type = "Promise<ScoreReport>")]
    pub type JsReportPromise;
}

// ---------------------------------------------------------------------------------------------
// Errors

/// A JS `Error` with `code`, `field` (null when the whole input is at fault) and, for batches,
/// `index`: the same shape score-node throws.
fn js_error(e: &ScoreError, index: Option<usize>) -> JsValue {
    let message = error_message(e, index);
    let err = Error::new(&message);
    let field = e.field.as_deref().map_or(JsValue::NULL, JsValue::from_str);
    // Setting a data property on a fresh Error object cannot fail.
    let _ = Reflect::set(
        &err,
        &JsValue::from_str("code"),
        &JsValue::from_str(e.code.as_str()),
    );
    let _ = Reflect::set(&err, &JsValue::from_str("field"), &field);
    if let Some(i) = index {
        let _ = Reflect::set(
            &err,
            &JsValue::from_str("index"),
            &JsValue::from_f64(i as f64),
        );
    }
    err.into()
}

// ---------------------------------------------------------------------------------------------
// JS value -> serde_json::Value (the rules are in score-node/src/input.rs)

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

fn score_js(profile: &JsValue) -> Result<ScoreReport, ScoreError> {
    // A flat profile of plain values in one call (input.rs, `gather_source`); anything else is
    // walked key by key into the JSON value score-core reads, which reports the exact error.
    let profile = match gather(profile) {
        Some(profile) => profile,
        None => Profile::from_json_value(&to_value(profile, None, 0)?.unwrap_or(Value::Null))?,
    };
    // One call site of the model: the build inlines it, once.
    score_core::score(&profile)
}

/// A function compiled from a JS expression (`None` under a CSP without `'unsafe-eval'`).
fn compile(expression: &str) -> Option<Function> {
    Compiled::compile("", &format!("return {expression}"))
        .ok()?
        .call0(&JsValue::UNDEFINED)
        .ok()?
        .dyn_into()
        .ok()
}

thread_local! {
    /// The gather function of input.rs and its `Float64Array` (`None` where it cannot be
    /// compiled). Not in a `RefCell`: a getter of the profile may score another one.
    static GATHER: Option<(Function, Float64Array)> = {
        let f = Float64Array::new_with_length(input::GATHER_CAPACITY as u32);
        compile(&input::gather_source())
            .and_then(|factory| factory.call1(&JsValue::UNDEFINED, &f).ok()?.dyn_into().ok())
            .map(|gather| (gather, f))
    };
}

/// The profile read by the gather function, or `None` when it is not a flat object (or a
/// getter threw: the walk then reads it as before).
fn gather(profile: &JsValue) -> Option<Profile> {
    GATHER.with(|g| {
        let (function, f) = g.as_ref()?;
        let text = function
            .call1(&JsValue::UNDEFINED, profile)
            .ok()?
            .as_string()?;
        let mut values = [0.0; input::GATHER_CAPACITY];
        f.copy_to(&mut values);
        input::gathered(&values, &text)
    })
}

#[wasm_bindgen]
extern "C" {
    /// The `Float64Array` the builder reads the report's values from.
    #[wasm_bindgen(extends = Float64Array)]
    type Values;
    /// `TypedArray.prototype.set(source)`: copies `src` to the start of the array (wasm
    /// memory to JS in one call; js-sys's `copy_from` wants equal lengths).
    #[wasm_bindgen(method, js_name = set)]
    fn set_from(this: &Values, src: &[f64]);

    /// A function compiled from text: `new Function(args, body)`, which throws (caught here)
    /// under a CSP without `'unsafe-eval'`. js-sys's `Function::new_with_args` does not catch,
    /// and an exception thrown through Rust frames would leave the realm's `RefCell` borrowed.
    #[wasm_bindgen(js_name = Function, extends = Function)]
    type Compiled;
    #[wasm_bindgen(constructor, catch, js_class = "Function")]
    fn compile(args: &str, body: &str) -> Result<Compiled, JsValue>;
}

/// The report builder of this JS realm (see `layout.rs`).
struct Realm {
    flat: Flat,
    /// The cached texts (`S`).
    strings: Array,
    /// The builder function and the `Float64Array` `f` of [`layout::CAPACITY`] doubles it reads.
    build: Function,
    f: Values,
}

impl Realm {
    /// `None` where the page's Content-Security-Policy forbids compiling code from text
    /// (no `'unsafe-eval'`); reports then go through JSON text.
    fn new() -> Option<Realm> {
        let factory = compile(&layout::builder_source())?;
        let strings = Array::new();
        let f = Float64Array::new_with_length(layout::CAPACITY as u32);
        let build = factory
            .call2(&JsValue::UNDEFINED, &f, &strings)
            .ok()?
            .dyn_into()
            .ok()?;
        Some(Realm {
            flat: Flat::default(),
            strings,
            build,
            f: f.unchecked_into(),
        })
    }

    /// The report as a JS object, or `None` when `layout.rs` cannot write it.
    fn report(&mut self, report: &ScoreReport) -> Option<JsValue> {
        if !self.flat.write(report) {
            return None;
        }
        for s in self.flat.pending.drain(..) {
            self.strings.push(&JsValue::from_str(s));
        }
        self.f.set_from(&self.flat.values);
        self.build.call0(&JsValue::UNDEFINED).ok()
    }
}

thread_local! {
    static REALM: RefCell<Option<Option<Realm>>> = const { RefCell::new(None) };
}

/// The report as a plain JS object with the keys and numbers of score-core's JSON, built by
/// the generated object-literal function of `layout.rs` (or else through the JSON text, e.g.
/// where the page's CSP forbids compiling the builder; both give the same object).
fn report_js(report: &ScoreReport) -> JsValue {
    REALM
        .with(|realm| {
            let mut realm = realm.borrow_mut();
            realm
                .get_or_insert_with(Realm::new)
                .as_mut()
                .and_then(|r| r.report(report))
        })
        .unwrap_or_else(|| JSON::parse(&report.to_json_string()).unwrap_or(JsValue::NULL))
}

// ---------------------------------------------------------------------------------------------
// Exports

/// Scores one buyer profile and returns the report. Throws an `Error` whose `code` is the
/// stable score-core code ("UNKNOWN_STATE", ...) and `field` the profile field at fault.
#[wasm_bindgen]
pub fn score(profile: &JsProfile) -> Result<JsReport, JsValue> {
    match score_js(profile) {
        Ok(report) => Ok(report_js(&report).unchecked_into()),
        Err(e) => Err(js_error(&e, None)),
    }
}

/// Scores a profile given as JSON text and returns the report as compact JSON text,
/// byte-identical to score-core's `score_json` on every platform.
#[wasm_bindgen(js_name = scoreJson)]
pub fn score_json(profile_json: &str) -> Result<String, JsValue> {
    score_core::score_json(profile_json).map_err(|e| js_error(&e, None))
}

/// Scores an array of profiles in order. The first invalid profile throws, with `index` set to
/// its position in the array.
#[wasm_bindgen(js_name = scoreMany)]
pub fn score_many(profiles: &JsProfiles) -> Result<JsReports, JsValue> {
    let profiles: &Array = profiles.unchecked_ref();
    if !Array::is_array(profiles) {
        let e = input_error(None, "scoreMany espera una lista de perfiles.".to_owned());
        return Err(js_error(&e, None));
    }
    let out = Array::new_with_length(profiles.length());
    for (i, profile) in profiles.iter().enumerate() {
        match score_js(&profile) {
            Ok(report) => out.set(i as u32, report_js(&report)),
            Err(e) => return Err(js_error(&e, Some(i))),
        }
    }
    Ok(out.unchecked_into())
}

/// Same contract as score-node's `scoreAsync`: a promise of the report, rejected with the
/// same `Error`. WebAssembly here has no threads, so the work runs on the calling thread when
/// the function is called; run it in a Worker to keep a page's main thread free.
#[wasm_bindgen(js_name = scoreAsync)]
pub fn score_async(profile: &JsProfile) -> JsReportPromise {
    let promise = match score_js(profile) {
        Ok(report) => Promise::resolve(&report_js(&report)),
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
