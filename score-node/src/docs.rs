//! Payroll receipts (CFDI with the Nómina 1.2 complement): `readCfdi` and `profileFromCfdi`,
//! conversions around score-docs. The facts and the profile are score-docs' serde shapes, parsed
//! from their JSON text, so every key and number is the one in fixtures/documents/; a
//! `score_docs::DocError` throws a JS `Error` with the stable `code` and the `field` at fault,
//! the shape score errors have.

use napi::bindgen_prelude::*;
use napi::{Env, JsValue, Status, Unknown};
use napi_derive::napi;
use score_docs::{Date, DocError};

fn doc_error(env: &Env, e: &DocError) -> Error {
    let message = format!("{}: {}", e.code, e.message);
    let build = || -> Result<Error> {
        let mut obj = env.create_error(Error::new(Status::GenericFailure, message.clone()))?;
        obj.set_named_property("code", e.code.as_str())?;
        obj.set_named_property("field", e.field.as_deref())?;
        Ok(Error::from(obj.to_unknown()))
    };
    build().unwrap_or_else(|err| err)
}

fn json_parse<'env>(env: &'env Env, text: String) -> Result<Unknown<'env>> {
    let json: Object = env.get_global()?.get_named_property_unchecked("JSON")?;
    let parse: Function<String, Unknown> = json.get_named_property_unchecked("parse")?;
    parse.apply(json, text)
}

fn bytes(data: &Either<Uint8Array, String>) -> &[u8] {
    match data {
        Either::A(array) => array,
        Either::B(text) => text.as_bytes(),
    }
}

/// The facts of one payroll receipt (the XML as bytes, or as text).
#[napi(js_name = "readCfdi", ts_args_type = "data: Uint8Array | string", ts_return_type = "Record<string, any>")]
pub fn read_cfdi<'env>(env: &'env Env, data: Either<Uint8Array, String>) -> Result<Unknown<'env>> {
    let facts = score_docs::read_cfdi(bytes(&data)).map_err(|e| doc_error(env, &e))?;
    json_parse(env, facts.to_json())
}

/// The verified partial profile of one worker's receipts, seniority counted to
/// `referenceDate` (`YYYY-MM-DD`).
#[napi(
    js_name = "profileFromCfdi",
    ts_args_type = "receipts: Array<Uint8Array | string>, referenceDate: string",
    ts_return_type = "Record<string, any>"
)]
pub fn profile_from_cfdi<'env>(
    env: &'env Env,
    receipts: Vec<Either<Uint8Array, String>>,
    reference_date: String,
) -> Result<Unknown<'env>> {
    let reference = Date::parse(&reference_date).ok_or_else(|| {
        Error::new(Status::InvalidArg, format!("referenceDate debe ser una fecha AAAA-MM-DD válida, no {reference_date:?}."))
    })?;
    let receipts: Vec<&[u8]> = receipts.iter().map(bytes).collect();
    let profile = score_docs::profile_from_cfdi_bytes(&receipts, reference).map_err(|e| doc_error(env, &e))?;
    json_parse(env, profile.to_json())
}
