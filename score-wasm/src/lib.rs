//! `score-wasm`: score-core for browsers and Node through WebAssembly (wasm-bindgen).
//!
//! Thin by design and the same API as score-node: read the JS profile's plain values into
//! score-core's `input::Cells` (or, for anything else, the `serde_json::Value` its JSON text
//! would parse to; the rules of score-node's `input.rs`), call score-core, return the report
//! as a plain JS object (score-node's `layout.rs`: a generated object-literal function that
//! reads the report's values in WebAssembly memory, or JSON text under a CSP that forbids
//! compiling it) or as JSON text (`text.rs`: score-core's JSON with the texts, which JS already
//! holds, spliced in), and throw a score-core error as a JS `Error` with the stable `code` and
//! the `field` at fault.

use js_sys::{Array, Error, Function, JSON, JsString, Object, Promise, Reflect};
use score_core::{Profile, ScoreError, ScoreReport};
use serde_json::{Map, Value};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

// Shared with score-node: the JS -> JSON value rules and the report layout.
#[path = "../../score-node/src/input.rs"]
mod input;
#[path = "../../score-node/src/layout.rs"]
mod layout;
mod text;
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

#[wasm_bindgen]
extern "C" {
    /// A function compiled from text: `new Function(args, body)`, which throws (caught here)
    /// under a CSP without `'unsafe-eval'`. js-sys's `Function::new_with_args` does not catch,
    /// and an exception thrown through Rust frames would leave the realm's `RefCell` borrowed.
    #[wasm_bindgen(js_name = Function, extends = Function)]
    type Compiled;
    #[wasm_bindgen(constructor, catch, js_class = "Function")]
    fn compile(args: &str, body: &str) -> Result<Compiled, JsValue>;

    /// The gather function of input.rs, called without a `catch` wrapper: it never throws.
    #[wasm_bindgen(extends = Function)]
    type Gather;
    #[wasm_bindgen(method, js_name = call)]
    fn call(this: &Gather, this_arg: &JsValue, profile: &JsValue) -> f64;

    /// The report builder of layout.rs, which never throws either.
    #[wasm_bindgen(extends = Function)]
    type Build;
    #[wasm_bindgen(method, js_name = call)]
    fn call(this: &Build, this_arg: &JsValue) -> JsValue;

    /// The text assembler of text.rs (it never throws).
    #[wasm_bindgen(extends = Function)]
    type Assemble;
    #[wasm_bindgen(method, js_name = call)]
    fn call(this: &Assemble, this_arg: &JsValue, at: u32, len: u32, marks_at: u32, n: u32) -> JsString;
}

/// A function made by calling the factory that `source` evaluates to with `args` (`None` where
/// the page's Content-Security-Policy forbids compiling code from text).
fn compile_factory<T: JsCast>(source: &str, args: &Array) -> Option<T> {
    let factory: Function = Compiled::compile("", &format!("return {source}"))
        .ok()?
        .call0(&JsValue::UNDEFINED)
        .ok()?
        .dyn_into()
        .ok()?;
    factory.apply(&JsValue::UNDEFINED, args).ok()?.dyn_into::<Function>().ok().map(JsCast::unchecked_into)
}

/// The address of a buffer in WebAssembly memory (32-bit).
fn address<T>(buffer: &[T]) -> u32 {
    #[allow(clippy::cast_possible_truncation)] // usize is 32 bits in wasm32
    let at = buffer.as_ptr() as usize as u32;
    at
}

/// What the gather function writes: per field a tag, a number and a length, then UTF-8.
/// `Cell`s, because JS writes them while Rust holds the reference; boxed, so that their
/// address never changes.
struct GatherBuffers {
    doubles: Box<[std::cell::Cell<f64>; input::GATHER_DOUBLES]>,
    bytes: Box<[std::cell::Cell<u8>; input::GATHER_BYTES]>,
}

thread_local! {
    /// The gather function of input.rs and the buffers it writes (`None` where it cannot be
    /// compiled). Not in a `RefCell`: a getter of the profile may score another one.
    static GATHER: Option<(Gather, GatherBuffers)> = {
        let buffers = GatherBuffers {
            doubles: Box::new(std::array::from_fn(|_| std::cell::Cell::new(0.0))),
            bytes: Box::new(std::array::from_fn(|_| std::cell::Cell::new(0))),
        };
        let (doubles, bytes) = (address(&buffers.doubles[..]), address(&buffers.bytes[..]));
        let args = Array::of3(&wasm_bindgen::memory(), &doubles.into(), &bytes.into());
        compile_factory(&input::gather_source(), &args).map(|gather| (gather, buffers))
    };
}

/// The profile read by the gather function, or `None` when it is not a flat object (or a
/// getter threw: the walk then reads it as before).
fn gather(profile: &JsValue) -> Option<Profile> {
    GATHER.with(|g| {
        let (function, buffers) = g.as_ref()?;
        let used = function.call(&JsValue::UNDEFINED, profile);
        if !(0.0..=input::GATHER_BYTES as f64).contains(&used) {
            return None;
        }
        let doubles: [f64; input::GATHER_DOUBLES] = std::array::from_fn(|i| buffers.doubles[i].get());
        let mut bytes = [0u8; input::GATHER_BYTES];
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // checked just above
        let used = used as usize;
        for (to, from) in bytes[..used].iter_mut().zip(buffers.bytes.iter()) {
            *to = from.get();
        }
        input::gathered(&doubles, &bytes[..used])
    })
}

/// The report builders of this JS realm: the object (`layout.rs`) and the JSON text
/// (`text.rs`), which share the cached texts.
struct Realm {
    flat: Flat,
    /// The cached texts (`S`).
    strings: Array,
    /// The object builder, which reads the values of `flat` where they are, in WebAssembly
    /// memory.
    build: Build,
    /// The JSON text assembler.
    assemble: Assemble,
}

impl Realm {
    /// `None` where the page's Content-Security-Policy forbids compiling code from text
    /// (no `'unsafe-eval'`); reports then go through JSON text, made the ordinary way.
    fn new() -> Option<Realm> {
        let flat = Flat::default();
        let strings = Array::new();
        let args = Array::of3(&wasm_bindgen::memory(), &address(flat.buffer()).into(), &strings);
        let build = compile_factory(&layout::builder_source(), &args)?;
        let assemble = compile_factory(text::ASSEMBLE_SOURCE, &Array::of2(&wasm_bindgen::memory(), &strings))?;
        Some(Realm { flat, strings, build, assemble })
    }

    /// Appends the texts handed an index since the last call to the JS array.
    fn send_texts(&mut self) {
        for s in self.flat.texts.pending.drain(..) {
            self.strings.push(&JsValue::from_str(s));
        }
    }

    /// The report as a JS object, or `None` when `layout.rs` cannot write it.
    fn report(&mut self, report: &ScoreReport) -> Option<JsValue> {
        if !self.flat.write(report) {
            return None;
        }
        self.send_texts();
        Some(self.build.call(&JsValue::UNDEFINED))
    }

    /// The report's JSON text (text.rs), or `None` when what score-core leaves is not ASCII
    /// (a text it must escape, which the model never writes).
    fn json(&mut self, report: &ScoreReport) -> Option<JsString> {
        let mut ascii = Vec::with_capacity(2048);
        // Pairs of (position, index of the text); a report has about fifteen texts.
        let mut marks: Vec<u32> = Vec::with_capacity(64);
        let texts = &mut self.flat.texts;
        report.write_json_with_texts(&mut ascii, &mut |text, out| {
            #[allow(clippy::cast_possible_truncation)] // usize is 32 bits in wasm32
            marks.extend([out.len() as u32, texts.index(text)]);
        });
        self.send_texts();
        if !ascii.is_ascii() {
            return None;
        }
        let (len, n) = (u32::try_from(ascii.len()).ok()?, u32::try_from(marks.len() / 2).ok()?);
        Some(self.assemble.call(&JsValue::UNDEFINED, address(&ascii), len, address(&marks), n))
    }
}

thread_local! {
    static REALM: RefCell<Option<Option<Realm>>> = const { RefCell::new(None) };
}

/// The realm's builders, made on first use (`None` where they cannot be compiled).
fn with_realm<T>(f: impl FnOnce(&mut Realm) -> Option<T>) -> Option<T> {
    REALM.with(|realm| realm.borrow_mut().get_or_insert_with(Realm::new).as_mut().and_then(f))
}

/// The report as a plain JS object with the keys and numbers of score-core's JSON, built by
/// the generated object-literal function of `layout.rs` (or else through the JSON text, e.g.
/// where the page's CSP forbids compiling the builder; both give the same object).
fn report_js(report: &ScoreReport) -> JsValue {
    with_realm(|realm| realm.report(report))
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
pub fn score_json(profile_json: &str) -> Result<JsString, JsValue> {
    let report = Profile::from_json_str(profile_json)
        .and_then(|profile| score_core::score(&profile))
        .map_err(|e| js_error(&e, None))?;
    Ok(with_realm(|realm| realm.json(&report))
        .unwrap_or_else(|| JsString::from(report.to_json_string())))
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
