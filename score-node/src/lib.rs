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
use score_core::batch::{self, Input, NoHost};
use score_core::{Profile, ScoreError, ScoreReport};
use score_js::input::{Errors, FlagValue, OptionValue, errors_option, simulations_option};

mod calibration;
pub mod docs;
mod read;
mod realm;
use calibration::{Chosen, calibration_of, score_under, single_options};
use read::read_profile;

/// Version of the score model ("2.1").
#[napi]
pub const MODEL_VERSION: &str = score_core::MODEL_VERSION;

/// Version of score-core (and of this package).
#[napi]
pub const VERSION: &str = score_core::VERSION;

/// The thrown (or rejected) form of a score-core error: a `ScoreError` of the helper module,
/// with `index` for an item of a batch.
pub(crate) fn js_error(env: &Env, e: &ScoreError, index: Option<usize>) -> Error {
    match realm::score_error(env, e, index) {
        // SAFETY: the error was made in this env during this call.
        Ok(value) => Error::from(unsafe { Unknown::from_raw_unchecked(env.raw(), value) }),
        Err(err) => err,
    }
}

/// The report as a plain JS object with the keys and numbers of score-core's JSON: built by the
/// realm's report builder (a loaded calibration's id set on the object after, see
/// [`score_js::flat::take_calibration_id`]), or else (a report with another owned text) through
/// the JSON text.
fn report_js<'env>(env: &'env Env, report: &mut ScoreReport) -> Result<Unknown<'env>> {
    let id = score_js::flat::take_calibration_id(report);
    let built = realm::build_report(env, report);
    if let Some(id) = id {
        report.calibracion = id.into();
    }
    if let Some(value) = built? {
        // SAFETY: the builder returned `value` in this env during this call.
        let object = unsafe { Unknown::from_raw_unchecked(env.raw(), value) };
        if let std::borrow::Cow::Owned(id) = &report.calibracion {
            object.coerce_to_object()?.set_named_property("calibracion", id.as_str())?;
        }
        return Ok(object);
    }
    let json: Object = env.get_global()?.get_named_property_unchecked("JSON")?;
    let parse: Function<String, Unknown> = json.get_named_property_unchecked("parse")?;
    parse.apply(json, report.to_json_string())
}

fn score_unknown(v: Unknown<'_>, calibration: &Chosen) -> Result<std::result::Result<ScoreReport, ScoreError>> {
    Ok(read_profile(v)?.and_then(|p| score_under(&p, calibration.as_deref(), score_core::Opciones::default())))
}

/// Hands the addon the helper functions of `score_helpers.mjs` (`makeReportBuilder`,
/// `makeProfileGather`) and its `ScoreError` class; index.js calls it once per realm as the
/// package loads.
#[napi(skip_typescript, js_name = "installHelpers")]
pub fn install_helpers(
    env: &Env,
    make_report_builder: Unknown<'_>,
    make_profile_gather: Unknown<'_>,
    score_error: Unknown<'_>,
) -> Result<()> {
    for f in [&make_report_builder, &make_profile_gather, &score_error] {
        if f.get_type()? != ValueType::Function {
            return Err(Error::new(Status::InvalidArg, "installHelpers takes the two helper factories and ScoreError"));
        }
    }
    realm::install(env, make_report_builder.raw(), make_profile_gather.raw(), score_error.raw())
}

/// Scores one buyer profile and returns the report (under `options.calibration` when given).
/// Throws an `Error` whose `code` is the stable score-core code ("UNKNOWN_STATE", ...) and
/// `field` the profile field at fault.
#[napi(ts_args_type = "profile: Profile, options?: ScoreOptions", ts_return_type = "ScoreReport")]
pub fn score<'env>(env: &'env Env, profile: Unknown<'env>, options: Unknown<'env>) -> Result<Unknown<'env>> {
    let calibration = single_options(options, "score")?.map_err(|e| js_error(env, &e, None))?;
    match score_unknown(profile, &calibration)? {
        Ok(mut report) => report_js(env, &mut report),
        Err(e) => Err(js_error(env, &e, None)),
    }
}

/// Scores a profile given as JSON text and returns the report as compact JSON text,
/// byte-identical to score-core's `score_json` (`score_json_calibrated` under
/// `options.calibration`) on every platform.
#[napi(ts_args_type = "profileJson: string, options?: ScoreOptions", ts_return_type = "string")]
pub fn score_json(env: &Env, profile_json: Unknown<'_>, options: Unknown<'_>) -> Result<String> {
    if profile_json.get_type()? != ValueType::String {
        return Err(js_error(env, &score_js::input::not_a_text(), None));
    }
    let calibration = single_options(options, "scoreJson")?.map_err(|e| js_error(env, &e, None))?;
    let text = profile_json.coerce_to_string()?.into_utf8()?;
    match &calibration {
        Some(c) => score_core::score_json_calibrated(text.as_str()?, c),
        None => score_core::score_json(text.as_str()?),
    }
    .map_err(|e| js_error(env, &e, None))
}

/// What a batch call's options say.
struct BatchOptions {
    errors: Errors,
    simulations: bool,
    calibration: Chosen,
}

/// The array and the options of a batch call named `function`, or the `ScoreError` its
/// arguments are (not an array, bad options): thrown before any profile is read.
fn batch_args<'env>(
    env: &Env,
    function: &str,
    profiles: Unknown<'env>,
    options: Unknown<'env>,
) -> Result<(Object<'env>, BatchOptions)> {
    let (errors, simulations, calibration) = match options.get_type()? {
        ValueType::Undefined | ValueType::Null => (Ok(Errors::Throw), Ok(true), Ok(None)),
        ValueType::Object => {
            let options = options.coerce_to_object()?;
            let errors: Unknown = options.get_named_property("errors")?;
            let errors = match errors.get_type()? {
                ValueType::Undefined => errors_option(function, OptionValue::Absent),
                ValueType::String => {
                    let text = errors.coerce_to_string()?.into_utf8()?;
                    errors_option(function, OptionValue::Text(text.as_str()?))
                }
                _ => errors_option(function, OptionValue::Other),
            };
            let simulations: Unknown = options.get_named_property("simulations")?;
            let simulations = match simulations.get_type()? {
                ValueType::Undefined => simulations_option(function, FlagValue::Absent),
                ValueType::Boolean => simulations_option(function, FlagValue::Bool(simulations.coerce_to_bool()?)),
                _ => simulations_option(function, FlagValue::Other),
            };
            (errors, simulations, calibration_of(&options, function)?)
        }
        _ => (Err(score_js::input::options_not_an_object(function)), Ok(true), Ok(None)),
    };
    let errors = errors.map_err(|e| js_error(env, &e, None))?;
    let simulations = simulations.map_err(|e| js_error(env, &e, None))?;
    let calibration = calibration.map_err(|e| js_error(env, &e, None))?;
    let not_a_list = || js_error(env, &score_core::host::not_a_list(function), None);
    if profiles.get_type()? != ValueType::Object {
        return Err(not_a_list());
    }
    let profiles = profiles.coerce_to_object()?;
    if !profiles.is_array()? {
        return Err(not_a_list());
    }
    Ok((profiles, BatchOptions { errors, simulations, calibration }))
}

/// The JS value of one result of a batch (item `index`): the report, or with
/// [`Errors::Return`] the `ScoreError` in its place; with [`Errors::Throw`] an error throws.
fn batch_item(env: &Env, result: &mut std::result::Result<ScoreReport, ScoreError>, index: usize, errors: Errors) -> Result<sys::napi_value> {
    match (result, errors) {
        (Ok(report), _) => Ok(report_js(env, report)?.raw()),
        (Err(e), Errors::Return) => realm::score_error(env, e, Some(index)),
        (Err(e), Errors::Throw) => Err(js_error(env, e, Some(index))),
    }
}

/// Scores an array of profiles, in order, on every core: the calling thread reads the
/// profiles and builds the reports while score-core's batch pipeline scores them on the
/// others. `errors: "throw"` (the default): the first bad profile throws, with its `index`;
/// `errors: "return"`: each bad profile's `ScoreError` in its place.
#[napi(skip_typescript)]
pub fn score_many<'env>(env: &'env Env, profiles: Unknown<'env>, options: Unknown<'env>) -> Result<Array<'env>> {
    let (profiles, BatchOptions { errors, simulations, calibration }) = batch_args(env, "scoreMany", profiles, options)?;
    let len = profiles.get_array_length()?;
    let mut out = env.create_array(0)?;
    let mut next = 0u32;
    let mut read = |n: usize| -> Result<Vec<Input>> {
        let end = len.min(next.saturating_add(u32::try_from(n).unwrap_or(u32::MAX)));
        let block = realm::in_scope(env, || (next..end).map(|i| read_profile(profiles.get_element::<Unknown>(i)?)).collect());
        next = end;
        block
    };
    let emit = |mut results: Vec<std::result::Result<ScoreReport, ScoreError>>, start: usize| -> Result<()> {
        realm::in_scope(env, || {
            for (k, result) in results.iter_mut().enumerate() {
                let value = batch_item(env, result, start + k, errors)?;
                // SAFETY: made in this env during this call.
                out.set(u32::try_from(start + k).unwrap_or(u32::MAX), unsafe { Unknown::from_raw_unchecked(env.raw(), value) })?;
            }
            Ok(())
        })
    };
    let stopped = || Error::new(Status::GenericFailure, "scoreMany: the scoring threads stopped");
    // Under a calibration, its figures score every profile on the pipeline's threads.
    match calibration.as_deref() {
        Some(c) => batch::pipeline(&NoHost, &mut read, batch::scorer_calibrated(simulations, c), emit, stopped)?,
        None => batch::pipeline(&NoHost, &mut read, batch::scorer(simulations), emit, stopped)?,
    }
    Ok(out)
}

/// One part of `scoreManyAsync` (index.js drives the parts, two in flight): profiles `from..to`
/// of the array, read now on the JS thread and scored on libuv's thread pool; resolves to the
/// part's results (reports, or `ScoreError`s in place), or rejects with the first error.
#[napi(skip_typescript, js_name = "scoreManyPart")]
pub fn score_many_part(
    env: &Env,
    profiles: Unknown<'_>,
    options: Unknown<'_>,
    from: u32,
    to: u32,
) -> Result<AsyncTask<ScoreManyTask>> {
    let (profiles, BatchOptions { errors, simulations, calibration }) = batch_args(env, "scoreManyAsync", profiles, options)?;
    let to = to.min(profiles.get_array_length()?);
    let mut inputs = Vec::with_capacity(to.saturating_sub(from) as usize);
    for i in from..to {
        inputs.push(read_profile(profiles.get_element::<Unknown>(i)?)?);
    }
    Ok(AsyncTask::new(ScoreManyTask { inputs, from: from as usize, errors, simulations, calibration }))
}

/// The work of one part of `scoreManyAsync`.
#[derive(Debug)]
pub struct ScoreManyTask {
    inputs: Vec<Input>,
    from: usize,
    errors: Errors,
    simulations: bool,
    calibration: Chosen,
}

/// A JS value made while resolving a task, handed to napi-rs as it is.
#[derive(Debug)]
pub struct Made(sys::napi_value);

impl TypeName for Made {
    fn type_name() -> &'static str {
        "Array"
    }
    fn value_type() -> ValueType {
        ValueType::Object
    }
}

impl ToNapiValue for Made {
    /// # Safety
    /// The value was made in `env` during the callback that converts it.
    unsafe fn to_napi_value(_env: sys::napi_env, val: Self) -> Result<sys::napi_value> {
        Ok(val.0)
    }
}

impl Task for ScoreManyTask {
    type Output = Vec<std::result::Result<ScoreReport, ScoreError>>;
    type JsValue = Made;

    fn compute(&mut self) -> Result<Self::Output> {
        let opciones = score_core::Opciones { simulaciones: self.simulations, ..score_core::Opciones::default() };
        let calibration = self.calibration.as_deref();
        Ok(self.inputs.iter().map(|input| match input {
            Ok(p) => score_under(p, calibration, opciones),
            Err(e) => Err(e.clone()),
        }).collect())
    }

    fn resolve(&mut self, env: Env, mut output: Self::Output) -> Result<Self::JsValue> {
        let mut out = env.create_array(0)?;
        for (k, result) in output.iter_mut().enumerate() {
            let value = batch_item(&env, result, self.from + k, self.errors)?;
            // SAFETY: made in this env during this callback.
            out.set(u32::try_from(k).unwrap_or(u32::MAX), unsafe { Unknown::from_raw_unchecked(env.raw(), value) })?;
        }
        Ok(Made(out.raw()))
    }
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
        let mut report = val.0;
        Ok(report_js(&Env::from_raw(env), &mut report)?.raw())
    }
}

/// The work of `scoreAsync`: the profile is read on the JS thread, scored on the libuv pool.
#[derive(Debug)]
pub struct ScoreTask {
    profile: Option<std::result::Result<Profile, ScoreError>>,
    calibration: Chosen,
}

impl Task for ScoreTask {
    type Output = std::result::Result<ScoreReport, ScoreError>;
    type JsValue = Report;

    fn compute(&mut self) -> Result<Self::Output> {
        let profile = self.profile.take().ok_or_else(|| Error::new(Status::GenericFailure, "task ran twice"))?;
        Ok(profile.and_then(|p| score_under(&p, self.calibration.as_deref(), score_core::Opciones::default())))
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
#[napi(ts_args_type = "profile: Profile, options?: ScoreOptions", ts_return_type = "Promise<ScoreReport>")]
pub fn score_async(profile: Unknown<'_>, options: Unknown<'_>) -> Result<AsyncTask<ScoreTask>> {
    // Bad options reject the promise, as a bad profile does.
    Ok(AsyncTask::new(match single_options(options, "scoreAsync")? {
        Ok(calibration) => ScoreTask { profile: Some(read_profile(profile)?), calibration },
        Err(e) => ScoreTask { profile: Some(Err(e)), calibration: None },
    }))
}
