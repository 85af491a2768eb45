//! `@platform-score/node`: the Node.js binding of score-core, built with napi-rs.
//!
//! Thin by design: read the JS profile's plain values into score-core's `input::Cells` (or, for
//! anything else, the `serde_json::Value` its JSON text would parse to; rules in `input.rs`,
//! shared with score-wasm), call `score_core::score`, hand the typed report back as a plain JS
//! object (built by a generated object-literal function from the report's values, `layout.rs`:
//! the same keys and numbers as score-core's JSON), and throw a score-core error as a JS
//! `Error` carrying the stable `code` and the `field` at fault.

// napi values are read with `Unknown::cast` right after their JS type has been checked (that
// call is `unsafe` in napi-rs only because it cannot check the type itself), and the report
// builder uses raw N-API calls (references, an `ArrayBuffer`'s backing store).
#![allow(unsafe_code)]

use napi::bindgen_prelude::*;
use napi::{Env, JsValue, Status, Unknown, ValueType, check_status, sys};
use napi_derive::napi;
use score_core::{Profile, ScoreError, ScoreReport};
use serde_json::{Map, Value};

mod input;
mod layout;
use input::{MAX_DEPTH, NotJson, error_message, not_json, number_value};
use layout::Flat;

/// Version of the score model ("2.1").
#[napi]
pub const MODEL_VERSION: &str = score_core::MODEL_VERSION;

/// Version of score-core (and of this package).
#[napi]
pub const VERSION: &str = score_core::VERSION;

// ---------------------------------------------------------------------------------------------
// Errors

/// A JS `Error` with the score-core `code` and `field` (null when the whole input is at fault),
/// plus `index` for batches; returned as an `Err` that throws (or rejects with) that object.
fn js_error(env: &Env, e: &ScoreError, index: Option<usize>) -> Error {
    let message = error_message(e, index);
    let build = || -> Result<Error> {
        let mut obj = env.create_error(Error::new(Status::GenericFailure, message.clone()))?;
        obj.set_named_property("code", e.code.as_str())?;
        obj.set_named_property("field", e.field.as_deref())?;
        if let Some(i) = index {
            obj.set_named_property("index", i as u32)?;
        }
        Ok(Error::from(obj.to_unknown()))
    };
    build().unwrap_or_else(|err| err)
}

// ---------------------------------------------------------------------------------------------
// JS value -> serde_json::Value (the rules are in input.rs)

/// Reads a JS value; `Ok(None)` is `undefined` (an absent property).
fn to_value(
    v: Unknown<'_>,
    field: Option<&str>,
    depth: u32,
) -> Result<std::result::Result<Option<Value>, ScoreError>> {
    let value = match v.get_type()? {
        ValueType::Undefined => return Ok(Ok(None)),
        ValueType::Null => Value::Null,
        ValueType::Boolean => Value::Bool(unsafe { v.cast::<bool>() }?),
        ValueType::Number => number_value(unsafe { v.cast::<f64>() }?),
        ValueType::String => Value::String(js_to_string(v.value().env, v.raw())?),
        ValueType::Object if depth < MAX_DEPTH => {
            let obj: Object = unsafe { v.cast() }?;
            if obj.is_array()? {
                let len = obj.get_array_length()?;
                let mut items = Vec::with_capacity(len as usize);
                for i in 0..len {
                    match to_value(obj.get_element::<Unknown>(i)?, field, depth + 1)? {
                        Ok(item) => items.push(item.unwrap_or(Value::Null)),
                        Err(e) => return Ok(Err(e)),
                    }
                }
                Value::Array(items)
            } else {
                return to_object(&obj, depth).map(|r| r.map(Some));
            }
        }
        other => {
            let kind = match other {
                ValueType::Function => NotJson::Function,
                ValueType::Symbol => NotJson::Symbol,
                ValueType::BigInt => NotJson::BigInt,
                _ => NotJson::TooDeep,
            };
            return Ok(Err(not_json(field, kind)));
        }
    };
    Ok(Ok(Some(value)))
}

/// A JS string as UTF-8: one N-API call for short strings (keys, states, income types, a
/// gathered profile), two for longer ones.
fn js_to_string(env: sys::napi_env, v: sys::napi_value) -> Result<String> {
    let mut buf = [0u8; 256];
    let mut len = 0usize;
    check_status!(unsafe {
        sys::napi_get_value_string_utf8(env, v, buf.as_mut_ptr().cast(), buf.len(), &mut len)
    })?;
    // Truncation stops at a character boundary, so it leaves at least 252 bytes written.
    if len + 4 < buf.len() {
        return Ok(std::str::from_utf8(&buf[..len]).map_or_else(
            |_| String::from_utf8_lossy(&buf[..len]).into_owned(),
            str::to_owned,
        ));
    }
    unsafe { String::from_napi_value(env, v) }
}

fn to_object(obj: &Object<'_>, depth: u32) -> Result<std::result::Result<Value, ScoreError>> {
    // Own enumerable string keys, as `Object.keys` and `JSON.stringify` see them.
    let mut raw = std::ptr::null_mut();
    check_status!(unsafe {
        sys::napi_get_all_property_names(
            obj.value().env,
            obj.raw(),
            sys::KeyCollectionMode::own_only,
            sys::KeyFilter::enumerable | sys::KeyFilter::skip_symbols,
            sys::KeyConversion::numbers_to_strings,
            &mut raw,
        )
    })?;
    let env = obj.value().env;
    let keys = unsafe { Object::from_napi_value(env, raw) }?;
    let len = keys.get_array_length()?;
    let mut map = Map::new();
    for i in 0..len {
        let key: Unknown = keys.get_element(i)?;
        // Read the property with the key value itself (no UTF-8 round trip of the name).
        let mut value = std::ptr::null_mut();
        check_status!(unsafe { sys::napi_get_property(env, obj.raw(), key.raw(), &mut value) })?;
        let key = js_to_string(env, key.raw())?;
        let value = unsafe { Unknown::from_raw_unchecked(env, value) };
        match to_value(value, Some(&key), depth + 1)? {
            Ok(Some(v)) => {
                map.insert(key, v);
            }
            Ok(None) => {}
            Err(e) => return Ok(Err(e)),
        }
    }
    Ok(Ok(Value::Object(map)))
}

/// The profile of a JS value, not yet range-checked (`score_core::score` does that).
fn read_profile(v: Unknown<'_>) -> Result<std::result::Result<Profile, ScoreError>> {
    // A flat profile of plain values in one call (input.rs, `gather_source`); anything else is
    // walked key by key into the JSON value score-core reads, which reports the exact error.
    let env = Env::from_raw(v.value().env);
    if let Some(profile) = gather(&env, v.raw())? {
        return Ok(Ok(profile));
    }
    Ok(to_value(v, None, 0)?.and_then(|v| Profile::from_json_value(&v.unwrap_or(Value::Null))))
}

/// Per-realm state of the report builder (see `layout.rs`), kept as the env's instance data.
#[derive(Debug)]
struct Realm {
    flat: Flat,
    /// The JS array of cached texts (`S`) and its length.
    strings: sys::napi_ref,
    strings_len: u32,
    /// The builder function and the backing store of the `ArrayBuffer` it reads
    /// ([`layout::CAPACITY`] doubles; the builder's closure keeps it alive).
    build: sys::napi_ref,
    data: *mut f64,
    /// The gather function of `input.rs` and the backing store of the buffer it writes
    /// ([`input::GATHER_DOUBLES`] doubles, then [`input::GATHER_BYTES`] bytes).
    gather: sys::napi_ref,
    input: *mut u8,
}

fn reference(env: sys::napi_env, value: sys::napi_value) -> Result<sys::napi_ref> {
    let mut r = std::ptr::null_mut();
    check_status!(unsafe { sys::napi_create_reference(env, value, 1, &mut r) })?;
    Ok(r)
}

fn deref(env: sys::napi_env, r: sys::napi_ref) -> Result<sys::napi_value> {
    let mut v = std::ptr::null_mut();
    check_status!(unsafe { sys::napi_get_reference_value(env, r, &mut v) })?;
    Ok(v)
}

fn call(
    env: sys::napi_env,
    f: sys::napi_value,
    args: &[sys::napi_value],
) -> Result<sys::napi_value> {
    let mut this = std::ptr::null_mut();
    check_status!(unsafe { sys::napi_get_undefined(env, &mut this) })?;
    let mut out = std::ptr::null_mut();
    check_status!(unsafe {
        sys::napi_call_function(env, this, f, args.len(), args.as_ptr(), &mut out)
    })?;
    Ok(out)
}

/// A new `ArrayBuffer` of `len` bytes, as the object `{ buffer }` that the generated functions
/// of `layout.rs` and `input.rs` take (where score-wasm passes WebAssembly's memory), and its
/// backing store.
fn buffer_holder(env: sys::napi_env, len: usize) -> Result<(*mut u8, sys::napi_value)> {
    let (mut data, mut buffer, mut holder) = (
        std::ptr::null_mut(),
        std::ptr::null_mut(),
        std::ptr::null_mut(),
    );
    check_status!(unsafe { sys::napi_create_arraybuffer(env, len, &mut data, &mut buffer) })?;
    if data.align_offset(8) != 0 {
        // V8 allocates backing stores 16-aligned; the doubles are read in place.
        return Err(Error::new(Status::GenericFailure, "unaligned ArrayBuffer"));
    }
    check_status!(unsafe { sys::napi_create_object(env, &mut holder) })?;
    check_status!(unsafe {
        sys::napi_set_named_property(env, holder, c"buffer".as_ptr(), buffer)
    })?;
    Ok((data.cast(), holder))
}

fn number(env: sys::napi_env, value: f64) -> Result<sys::napi_value> {
    let mut v = std::ptr::null_mut();
    check_status!(unsafe { sys::napi_create_double(env, value, &mut v) })?;
    Ok(v)
}

impl Realm {
    fn new(env: &Env) -> Result<Realm> {
        let raw = env.raw();
        let factory: Unknown = env.run_script(layout::builder_source())?;
        let mut strings = std::ptr::null_mut();
        check_status!(unsafe { sys::napi_create_array(raw, &mut strings) })?;
        let (data, holder) = buffer_holder(raw, layout::CAPACITY * 8)?;
        let build = call(raw, factory.raw(), &[holder, number(raw, 0.0)?, strings])?;
        let doubles = input::GATHER_DOUBLES * 8;
        let (input, holder) = buffer_holder(raw, doubles + input::GATHER_BYTES)?;
        let gather_factory: Unknown = env.run_script(input::gather_source())?;
        #[allow(clippy::cast_precision_loss)] // a few hundred
        let args = [holder, number(raw, 0.0)?, number(raw, doubles as f64)?];
        let gather = call(raw, gather_factory.raw(), &args)?;
        Ok(Realm {
            flat: Flat::default(),
            strings: reference(raw, strings)?,
            strings_len: 0,
            build: reference(raw, build)?,
            data: data.cast(),
            gather: reference(raw, gather)?,
            input,
        })
    }

    /// The report as a JS object, or `None` when `layout.rs` cannot write it.
    fn report(
        &mut self,
        env: sys::napi_env,
        report: &ScoreReport,
    ) -> Result<Option<sys::napi_value>> {
        if !self.flat.write(report) {
            return Ok(None);
        }
        if !self.flat.texts.pending.is_empty() {
            let strings = deref(env, self.strings)?;
            for s in std::mem::take(&mut self.flat.texts.pending) {
                let mut v = std::ptr::null_mut();
                check_status!(unsafe {
                    sys::napi_create_string_utf8(env, s.as_ptr().cast(), s.len() as isize, &mut v)
                })?;
                check_status!(unsafe { sys::napi_set_element(env, strings, self.strings_len, v) })?;
                self.strings_len += 1;
            }
        }
        let values = self.flat.values();
        // SAFETY: `data` is the backing store of `f`, CAPACITY doubles that live as long as
        // the builder that holds `f`; `write` keeps `values` within CAPACITY.
        unsafe {
            std::ptr::copy_nonoverlapping(
                values.as_ptr(),
                self.data,
                values.len().min(layout::CAPACITY),
            )
        };
        call(env, deref(env, self.build)?, &[]).map(Some)
    }
}

/// The report as a plain JS object with the keys and numbers of score-core's JSON: built by
/// the realm's generated object-literal function (`layout.rs`), or else through the JSON text.
/// The env's `Realm`, made on first use.
fn realm(env: &Env) -> Result<&'static mut Realm> {
    if let Some(realm) = env.get_instance_data::<Realm>()? {
        return Ok(realm);
    }
    env.set_instance_data(Realm::new(env)?, (), |_| {})?;
    env.get_instance_data::<Realm>()?
        .ok_or_else(|| Error::new(Status::GenericFailure, "no instance data"))
}

/// The profile `v` read by the realm's gather function (`input.rs`), or `None` when it is
/// not a flat object. No borrow of the realm is held while JS runs (a getter may score).
fn gather(env: &Env, v: sys::napi_value) -> Result<Option<Profile>> {
    let (function, input) = {
        let realm = realm(env)?;
        (realm.gather, realm.input)
    };
    let raw = env.raw();
    let out = call(raw, deref(raw, function)?, &[v])?;
    let mut used = -1.0;
    check_status!(unsafe { sys::napi_get_value_double(raw, out, &mut used) })?;
    if !(0.0..=input::GATHER_BYTES as f64).contains(&used) {
        return Ok(None);
    }
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)] // checked just above
    let used = used as usize;
    // SAFETY: `input` is the backing store of the gather function's buffer, GATHER_DOUBLES
    // doubles (8-aligned, at its start) then GATHER_BYTES bytes, alive as long as that function
    // (held by the realm); no JS ran since the function wrote it.
    let (doubles, bytes) = unsafe {
        (
            std::slice::from_raw_parts(input.cast::<f64>(), input::GATHER_DOUBLES),
            std::slice::from_raw_parts(input.add(input::GATHER_DOUBLES * 8), used),
        )
    };
    Ok(input::gathered(doubles, bytes))
}

fn report_js<'env>(env: &'env Env, report: &ScoreReport) -> Result<Unknown<'env>> {
    if let Some(value) = realm(env)?.report(env.raw(), report)? {
        return Ok(unsafe { Unknown::from_raw_unchecked(env.raw(), value) });
    }
    let json: Object = env.get_global()?.get_named_property_unchecked("JSON")?;
    let parse: Function<String, Unknown> = json.get_named_property_unchecked("parse")?;
    parse.apply(json, report.to_json_string())
}

fn score_unknown(v: Unknown<'_>) -> Result<std::result::Result<ScoreReport, ScoreError>> {
    Ok(read_profile(v)?.and_then(|p| score_core::score(&p)))
}

// ---------------------------------------------------------------------------------------------
// Exports

/// Scores one buyer profile and returns the report. Throws an `Error` whose `code` is the
/// stable score-core code ("UNKNOWN_STATE", ...) and `field` the profile field at fault.
#[napi(ts_args_type = "profile: Profile", ts_return_type = "ScoreReport")]
pub fn score<'env>(env: &'env Env, profile: Unknown<'env>) -> Result<Unknown<'env>> {
    match score_unknown(profile)? {
        Ok(report) => report_js(env, &report),
        Err(e) => Err(js_error(env, &e, None)),
    }
}

/// Scores a profile given as JSON text and returns the report as compact JSON text,
/// byte-identical to score-core's `score_json` on every platform.
#[napi(ts_args_type = "profileJson: string", ts_return_type = "string")]
pub fn score_json(env: &Env, profile_json: String) -> Result<String> {
    score_core::score_json(&profile_json).map_err(|e| js_error(env, &e, None))
}

/// Scores an array of profiles in order. The first invalid profile throws, with `index` set to
/// its position in the array.
#[napi(ts_args_type = "profiles: Profile[]", ts_return_type = "ScoreReport[]")]
pub fn score_many<'env>(env: &'env Env, profiles: Array<'env>) -> Result<Array<'env>> {
    let len = profiles.len();
    let mut out = env.create_array(len)?;
    for i in 0..len {
        let report = match profiles.get::<Unknown>(i)? {
            Some(p) => score_unknown(p)?,
            None => score_core::score_value(&Value::Null),
        };
        match report {
            Ok(report) => out.set(i, report_js(env, &report)?)?,
            Err(e) => return Err(js_error(env, &e, Some(i as usize))),
        }
    }
    Ok(out)
}

/// A report on its way to JS (converted exactly as `score` converts it).
#[derive(Debug)]
pub struct Report(ScoreReport);

impl TypeName for Report {
    fn type_name() -> &'static str {
        "ScoreReport"
    }
    fn value_type() -> ValueType {
        ValueType::Object
    }
}

impl ToNapiValue for Report {
    unsafe fn to_napi_value(env: sys::napi_env, val: Self) -> Result<sys::napi_value> {
        Ok(report_js(&Env::from_raw(env), &val.0)?.raw())
    }
}

/// The work of `scoreAsync`: the profile is read on the JS thread, scored on the libuv pool.
#[derive(Debug)]
pub struct ScoreTask {
    profile: Option<std::result::Result<Profile, ScoreError>>,
}

impl Task for ScoreTask {
    type Output = std::result::Result<ScoreReport, ScoreError>;
    type JsValue = Report;

    fn compute(&mut self) -> Result<Self::Output> {
        let profile = self
            .profile
            .take()
            .ok_or_else(|| Error::new(Status::GenericFailure, "task ran twice"))?;
        Ok(profile.and_then(|p| score_core::score(&p)))
    }

    fn resolve(&mut self, env: Env, output: Self::Output) -> Result<Self::JsValue> {
        match output {
            Ok(report) => Ok(Report(report)),
            Err(e) => Err(js_error(&env, &e, None)),
        }
    }
}

/// Scores one profile off the event loop (on libuv's thread pool); resolves to the report or
/// rejects with the same `Error` (`code`, `field`) that `score` throws.
#[napi(
    ts_args_type = "profile: Profile",
    ts_return_type = "Promise<ScoreReport>"
)]
pub fn score_async(profile: Unknown<'_>) -> Result<AsyncTask<ScoreTask>> {
    Ok(AsyncTask::new(ScoreTask {
        profile: Some(read_profile(profile)?),
    }))
}
