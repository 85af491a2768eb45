//! Payroll receipts (CFDI with the Nómina 1.2 complement): `readCfdi` and `profileFromCfdi`,
//! conversions around score-docs. The facts and the profile are score-docs' serde shapes, parsed
//! from their JSON text, so every key and number is the one in fixtures/documents/; a
//! `score_docs::DocError` throws a `ScoreError` with the stable `code` and the `field` at fault,
//! as score errors do; an argument of the wrong type throws INVALID_TYPE and a malformed
//! `referenceDate` VALUE_OUT_OF_RANGE (score-core's codes for the same misuse of a profile).
//! Both chain receipts' certificates to score-docs' carried SAT CAs; the same two are methods of a
//! `CertificadosSat`, which chains them to its CA certificates instead (as score-docs/wasm does).

use napi::bindgen_prelude::*;
use napi::{Env, JsValue, Unknown, ValueType};
use score_core::ErrorCode;
use napi_derive::napi;
use score_docs::{Date, DocError};

/// A thrown `ScoreError` with this code, field and message (`"<CODE>: <text>"`).
fn thrown(env: &Env, code: &str, field: Option<&str>, text: &str) -> Error {
    match crate::realm::new_error(env, &format!("{code}: {text}"), code, field, None, None) {
        // SAFETY: the error was made in this env during this call.
        Ok(value) => Error::from(unsafe { Unknown::from_raw_unchecked(env.raw(), value) }),
        Err(err) => err,
    }
}

fn doc_error(env: &Env, e: &DocError) -> Error {
    thrown(env, e.code.as_str(), e.field.as_deref(), &e.message)
}

/// A receipt's bytes: a `Uint8Array` (a `Buffer` is one) or a text; INVALID_TYPE otherwise.
fn receipt(env: &Env, value: Unknown<'_>, what: &str) -> Result<Either<Uint8Array, String>> {
    if value.get_type()? == ValueType::String {
        return Ok(Either::B(value.coerce_to_string()?.into_utf8()?.into_owned()?));
    }
    if value.is_typedarray()? {
        // SAFETY: `value` is a live value of this env, checked to be a typed array.
        if let Ok(array) = unsafe { Uint8Array::from_napi_value(env.raw(), value.raw()) } {
            return Ok(Either::A(array));
        }
    }
    Err(thrown(env, ErrorCode::InvalidType.as_str(), None, &format!("{what} debe ser un Uint8Array (o Buffer) o un texto con el XML.")))
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

/// The CA certificates (DER as the SAT publishes them, or PEM) that receipts' certificates are
/// chained to, in place of the SAT's carried ones: a bank's own trust set, or the tests' CA. A
/// receipt proves its facts only when its seal is valid and one of these issued its
/// certificate. A file that is not a CA certificate throws DOCUMENT_UNREADABLE naming it
/// (`certificados[i]`).
#[napi]
#[derive(Debug)]
pub struct CertificadosSat {
    core: score_docs::CertificadosSat,
}

#[napi]
impl CertificadosSat {
    #[napi(constructor, ts_args_type = "certificados: Array<Uint8Array | string>")]
    pub fn new(env: &Env, certificados: Unknown<'_>) -> Result<Self> {
        if certificados.get_type()? != ValueType::Object || !certificados.is_array()? {
            let text = "CertificadosSat espera una lista de certificados (Uint8Array o texto PEM).";
            return Err(thrown(env, ErrorCode::InvalidType.as_str(), None, text));
        }
        let list = certificados.coerce_to_object()?;
        let files = (0..list.get_array_length()?)
            .map(|i| Ok((format!("certificados[{i}]"), receipt(env, list.get_element::<Unknown>(i)?, &format!("certificados[{i}]"))?)))
            .collect::<Result<Vec<_>>>()?;
        let files = files.iter().map(|(name, data)| (name.as_str(), bytes(data)));
        score_docs::CertificadosSat::from_files(files).map(|core| CertificadosSat { core }).map_err(|e| doc_error(env, &e))
    }

    /// The SAT's CA certificates score-docs carries (what `readCfdi` and `profileFromCfdi` use).
    #[napi(factory)]
    pub fn incluidos() -> Self {
        CertificadosSat { core: score_docs::CertificadosSat::incluidos().clone() }
    }

    /// How many CA certificates are loaded.
    #[napi(getter)]
    pub fn length(&self) -> u32 {
        u32::try_from(self.core.len()).unwrap_or(u32::MAX)
    }
}

#[napi]
impl CertificadosSat {
    /// The facts of one payroll receipt, its certificate chained to these CAs.
    #[napi(js_name = "readCfdi", ts_args_type = "data: Uint8Array | string", ts_return_type = "Record<string, any>")]
    pub fn read_cfdi<'env>(&self, env: &'env Env, data: Unknown<'env>) -> Result<Unknown<'env>> {
        read(env, data, &self.core)
    }

    /// The verified partial profile of one worker's receipts, their certificates chained to
    /// these CAs.
    #[napi(
        js_name = "profileFromCfdi",
        ts_args_type = "receipts: Array<Uint8Array | string>, referenceDate: string",
        ts_return_type = "Record<string, any>"
    )]
    pub fn profile_from_cfdi<'env>(&self, env: &'env Env, receipts: Unknown<'env>, reference_date: Unknown<'env>) -> Result<Unknown<'env>> {
        profile(env, receipts, reference_date, &self.core)
    }
}

fn read<'env>(env: &'env Env, data: Unknown<'env>, ca: &score_docs::CertificadosSat) -> Result<Unknown<'env>> {
    let data = receipt(env, data, "readCfdi: el recibo")?;
    let facts = score_docs::read_cfdi_con(bytes(&data), ca).map_err(|e| doc_error(env, &e))?;
    json_parse(env, facts.to_json())
}

/// The facts of one payroll receipt (the XML as bytes, or as text), its certificate chained to
/// the carried SAT CAs.
#[napi(js_name = "readCfdi", ts_args_type = "data: Uint8Array | string", ts_return_type = "Record<string, any>")]
pub fn read_cfdi<'env>(env: &'env Env, data: Unknown<'env>) -> Result<Unknown<'env>> {
    read(env, data, score_docs::CertificadosSat::incluidos())
}

/// The verified partial profile of one worker's receipts, seniority counted to
/// `referenceDate` (`YYYY-MM-DD`), their certificates chained to the carried SAT CAs.
#[napi(
    js_name = "profileFromCfdi",
    ts_args_type = "receipts: Array<Uint8Array | string>, referenceDate: string",
    ts_return_type = "Record<string, any>"
)]
pub fn profile_from_cfdi<'env>(env: &'env Env, receipts: Unknown<'env>, reference_date: Unknown<'env>) -> Result<Unknown<'env>> {
    profile(env, receipts, reference_date, score_docs::CertificadosSat::incluidos())
}

fn profile<'env>(
    env: &'env Env,
    receipts: Unknown<'env>,
    reference_date: Unknown<'env>,
    ca: &score_docs::CertificadosSat,
) -> Result<Unknown<'env>> {
    let invalid = |text: &str| thrown(env, ErrorCode::InvalidType.as_str(), None, text);
    if receipts.get_type()? != ValueType::Object || !receipts.is_array()? {
        return Err(invalid("profileFromCfdi espera una lista de recibos (Uint8Array o texto)."));
    }
    let list = receipts.coerce_to_object()?;
    let receipts = (0..list.get_array_length()?)
        .map(|i| receipt(env, list.get_element::<Unknown>(i)?, &format!("profileFromCfdi: el recibo {i}")))
        .collect::<Result<Vec<_>>>()?;
    if reference_date.get_type()? != ValueType::String {
        return Err(invalid("referenceDate debe ser un texto con una fecha AAAA-MM-DD."));
    }
    let reference_date = reference_date.coerce_to_string()?.into_utf8()?.into_owned()?;
    let reference = Date::parse(&reference_date).ok_or_else(|| {
        thrown(
            env,
            ErrorCode::ValueOutOfRange.as_str(),
            None,
            &format!("referenceDate debe ser una fecha AAAA-MM-DD válida, no {reference_date:?}."),
        )
    })?;
    let receipts: Vec<&[u8]> = receipts.iter().map(bytes).collect();
    let profile = score_docs::profile_from_cfdi_bytes_con(&receipts, reference, ca).map_err(|e| doc_error(env, &e))?;
    json_parse(env, profile.to_json())
}
