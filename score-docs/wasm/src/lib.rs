//! `score-docs-wasm`: score-docs in WebAssembly, the same API as score-node's: `readCfdi(data)`
//! and `profileFromCfdi(receipts, referenceDate)`, chained to score-docs' carried SAT CAs, and
//! the same two as methods of a `CertificadosSat` (the CA certificates receipts are chained to
//! instead, as DER or PEM bytes, since a browser has no folder). Methods, not an optional
//! argument: wasm-bindgen would take an optional class argument by value and free it. The facts and the profile are score-docs'
//! serde shapes, parsed from their JSON text, so every key and number is the one in
//! fixtures/documents/; a document error throws a JS `Error` with `code` and `field`. In a page
//! the receipts are read where they are: nothing is sent anywhere.

use js_sys::{Array, Error, JSON, Reflect, Uint8Array};
use score_docs::{Date, DocError};
use wasm_bindgen::prelude::*;

fn doc_error(e: &DocError) -> JsValue {
    let err = Error::new(&format!("{}: {}", e.code, e.message));
    let field = e.field.as_deref().map_or(JsValue::NULL, JsValue::from_str);
    // Setting a data property on a fresh Error object cannot fail.
    let _ = Reflect::set(&err, &JsValue::from_str("code"), &JsValue::from_str(e.code.as_str()));
    let _ = Reflect::set(&err, &JsValue::from_str("field"), &field);
    err.into()
}

fn type_error(message: &str) -> JsValue {
    js_sys::TypeError::new(message).into()
}

/// The bytes of a receipt given as a `Uint8Array` (a Node `Buffer` is one) or as text.
fn receipt_bytes(value: &JsValue) -> Result<Vec<u8>, JsValue> {
    if let Some(text) = value.as_string() {
        return Ok(text.into_bytes());
    }
    value
        .dyn_ref::<Uint8Array>()
        .map(Uint8Array::to_vec)
        .ok_or_else(|| type_error("Un recibo debe ser un Uint8Array (o Buffer) o el texto del XML."))
}

fn parse_json(text: &str) -> Result<JsValue, JsValue> {
    JSON::parse(text)
}

/// The CA certificates (DER as the SAT publishes them, or PEM) that receipts' certificates are
/// chained to, in place of the SAT's carried ones: a bank's own trust set, the one its server
/// uses, or the tests' CA. A receipt proves its facts only when its seal is valid and one of
/// these issued its certificate. A file that is not a CA certificate throws
/// DOCUMENT_UNREADABLE naming it (`certificados[i]`).
#[wasm_bindgen]
#[derive(Debug)]
pub struct CertificadosSat {
    core: score_docs::CertificadosSat,
}

#[wasm_bindgen]
impl CertificadosSat {
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "Array<Uint8Array | string>")] certificados: JsValue,
    ) -> Result<CertificadosSat, JsValue> {
        let list = certificados.dyn_into::<Array>().map_err(|_| type_error("certificados debe ser un arreglo de certificados."))?;
        let files = list.iter().map(|c| receipt_bytes(&c)).collect::<Result<Vec<_>, _>>()?;
        let named = files.iter().enumerate().map(|(i, der)| (format!("certificados[{i}]"), der));
        score_docs::CertificadosSat::from_files(named).map(|core| CertificadosSat { core }).map_err(|e| doc_error(&e))
    }

    /// The SAT's CA certificates score-docs carries (what `readCfdi` and `profileFromCfdi` use).
    pub fn incluidos() -> CertificadosSat {
        CertificadosSat { core: score_docs::CertificadosSat::incluidos().clone() }
    }

    /// How many CA certificates are loaded.
    #[wasm_bindgen(getter)]
    pub fn length(&self) -> usize {
        self.core.len()
    }
}

fn read(data: &JsValue, ca: &score_docs::CertificadosSat) -> Result<JsValue, JsValue> {
    let bytes = receipt_bytes(data)?;
    let facts = score_docs::read_cfdi_con(&bytes, ca).map_err(|e| doc_error(&e))?;
    parse_json(&facts.to_json())
}

fn profile(receipts: JsValue, reference_date: &str, ca: &score_docs::CertificadosSat) -> Result<JsValue, JsValue> {
    let reference = Date::parse(reference_date).ok_or_else(|| {
        JsValue::from(Error::new(&format!("referenceDate debe ser una fecha AAAA-MM-DD válida, no {reference_date:?}.")))
    })?;
    let list = receipts.dyn_into::<Array>().map_err(|_| type_error("receipts debe ser un arreglo de recibos."))?;
    let receipts = list.iter().map(|r| receipt_bytes(&r)).collect::<Result<Vec<_>, _>>()?;
    let profile = score_docs::profile_from_cfdi_bytes_con(&receipts, reference, ca).map_err(|e| doc_error(&e))?;
    parse_json(&profile.to_json())
}

#[wasm_bindgen]
impl CertificadosSat {
    /// The facts of one payroll receipt, its certificate chained to these CAs.
    #[wasm_bindgen(js_name = readCfdi, unchecked_return_type = "Record<string, any>")]
    pub fn read_cfdi(&self, #[wasm_bindgen(unchecked_param_type = "Uint8Array | string")] data: JsValue) -> Result<JsValue, JsValue> {
        read(&data, &self.core)
    }

    /// The verified partial profile of one worker's receipts, their certificates chained to
    /// these CAs.
    #[wasm_bindgen(js_name = profileFromCfdi, unchecked_return_type = "Record<string, any>")]
    pub fn profile_from_cfdi(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Array<Uint8Array | string>")] receipts: JsValue,
        #[wasm_bindgen(js_name = referenceDate)] reference_date: String,
    ) -> Result<JsValue, JsValue> {
        profile(receipts, &reference_date, &self.core)
    }
}

/// The facts of one payroll receipt, its certificate chained to the carried SAT CAs.
#[wasm_bindgen(js_name = readCfdi, unchecked_return_type = "Record<string, any>")]
pub fn read_cfdi(#[wasm_bindgen(unchecked_param_type = "Uint8Array | string")] data: JsValue) -> Result<JsValue, JsValue> {
    read(&data, score_docs::CertificadosSat::incluidos())
}

/// The verified partial profile of one worker's receipts, seniority counted to
/// `referenceDate` (`YYYY-MM-DD`), their certificates chained to the carried SAT CAs.
#[wasm_bindgen(js_name = profileFromCfdi, unchecked_return_type = "Record<string, any>")]
pub fn profile_from_cfdi(
    #[wasm_bindgen(unchecked_param_type = "Array<Uint8Array | string>")] receipts: JsValue,
    #[wasm_bindgen(js_name = referenceDate)] reference_date: String,
) -> Result<JsValue, JsValue> {
    profile(receipts, &reference_date, score_docs::CertificadosSat::incluidos())
}
