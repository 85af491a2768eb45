//! `@platform-score/node`: the Node.js binding of score-core, built with napi-rs.
//!
//! Thin by design: read the JS profile (`read.rs`: one call of the generated gather function for
//! a flat profile, else a walk by score-js's rules), call `score_core::score`, hand the report
//! back as a plain JS object (`realm.rs`: score-js's flat values read by the generated report
//! builder, the same keys and numbers as score-core's JSON), and throw a score-core error as a
//! JS `Error` carrying the stable `code` and the `field` at fault. The helper functions are a
//! file of the package generated at build time (`score_helpers.mjs`); index.js hands them to
//! the addon as it loads ([`install_helpers`]), so nothing is compiled from text at run time.

// The binding API requires `unsafe` for raw N-API calls and napi-rs's unchecked casts; each use
// says why it is sound (`SAFETY:`).
#![allow(unsafe_code)]

use napi::bindgen_prelude::*;
use napi::{Env, JsValue, Status, Unknown, ValueType, sys};
use napi_derive::napi;
use score_core::{Profile, ScoreError, ScoreReport};

mod docs;
mod read;
mod realm;
use read::read_profile;

/// Version of the score model ("2.1").
#[napi]
pub const MODEL_VERSION: &str = score_core::MODEL_VERSION;

/// Version of score-core (and of this package).
#[napi]
pub const VERSION: &str = score_core::VERSION;

/// A JS `Error` with the score-core `code` and `field` (null when the whole input is at fault),
/// plus `index` for batches; returned as an `Err` that throws (or rejects with) that object.
fn js_error(env: &Env, e: &ScoreError, index: Option<usize>) -> Error {
    let message = score_core::host::error_message(e, index);
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

/// The report as a plain JS object with the keys and numbers of score-core's JSON: built by the
/// realm's report builder, or else (a report with an owned text) through the JSON text.
fn report_js<'env>(env: &'env Env, report: &ScoreReport) -> Result<Unknown<'env>> {
    if let Some(value) = realm::build_report(env, report)? {
        // SAFETY: the builder returned `value` in this env during this call.
        return Ok(unsafe { Unknown::from_raw_unchecked(env.raw(), value) });
    }
    let json: Object = env.get_global()?.get_named_property_unchecked("JSON")?;
    let parse: Function<String, Unknown> = json.get_named_property_unchecked("parse")?;
    parse.apply(json, report.to_json_string())
}

fn score_unknown(v: Unknown<'_>) -> Result<std::result::Result<ScoreReport, ScoreError>> {
    Ok(read_profile(v)?.and_then(|p| score_core::score(&p)))
}

/// Hands the addon the helper functions of `score_helpers.mjs` (`makeReportBuilder`,
/// `makeProfileGather`); index.js calls it once per realm as the package loads.
#[napi(skip_typescript, js_name = "installHelpers")]
pub fn install_helpers(env: &Env, make_report_builder: Unknown<'_>, make_profile_gather: Unknown<'_>) -> Result<()> {
    for f in [&make_report_builder, &make_profile_gather] {
        if f.get_type()? != ValueType::Function {
            return Err(Error::new(Status::InvalidArg, "installHelpers takes the two helper factories"));
        }
    }
    realm::install(env, make_report_builder.raw(), make_profile_gather.raw())
}

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
/// its position in the array; something other than an array throws INVALID_TYPE.
#[napi(ts_args_type = "profiles: Profile[]", ts_return_type = "ScoreReport[]")]
pub fn score_many<'env>(env: &'env Env, profiles: Unknown<'env>) -> Result<Array<'env>> {
    let profiles = match profiles.get_type()? {
        ValueType::Object => profiles.coerce_to_object()?,
        _ => return Err(js_error(env, &score_js::input::not_a_list(), None)),
    };
    if !profiles.is_array()? {
        return Err(js_error(env, &score_js::input::not_a_list(), None));
    }
    let len = profiles.get_array_length()?;
    let mut out = env.create_array(len)?;
    for i in 0..len {
        match score_unknown(profiles.get_element::<Unknown>(i)?)? {
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
    /// # Safety
    /// napi-rs calls this with the env of the callback that resolves the task.
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
        let profile = self.profile.take().ok_or_else(|| Error::new(Status::GenericFailure, "task ran twice"))?;
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
#[napi(ts_args_type = "profile: Profile", ts_return_type = "Promise<ScoreReport>")]
pub fn score_async(profile: Unknown<'_>) -> Result<AsyncTask<ScoreTask>> {
    Ok(AsyncTask::new(ScoreTask { profile: Some(read_profile(profile)?) }))
}
