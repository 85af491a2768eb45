//! `score-docs-wasm`: score-docs in WebAssembly, the same API as score-node's: `readCfdi(data)`
//! and `profileFromCfdi(receipts, referenceDate)`. The facts and the profile are score-docs'
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

/// The facts of one payroll receipt.
#[wasm_bindgen(js_name = readCfdi, unchecked_return_type = "Record<string, any>")]
pub fn read_cfdi(#[wasm_bindgen(unchecked_param_type = "Uint8Array | string")] data: JsValue) -> Result<JsValue, JsValue> {
    let bytes = receipt_bytes(&data)?;
    let facts = score_docs::read_cfdi(&bytes).map_err(|e| doc_error(&e))?;
    parse_json(&facts.to_json())
}

/// The verified partial profile of one worker's receipts, seniority counted to
/// `referenceDate` (`YYYY-MM-DD`).
#[wasm_bindgen(js_name = profileFromCfdi, unchecked_return_type = "Record<string, any>")]
pub fn profile_from_cfdi(
    #[wasm_bindgen(unchecked_param_type = "Array<Uint8Array | string>")] receipts: JsValue,
    #[wasm_bindgen(js_name = referenceDate)] reference_date: String,
) -> Result<JsValue, JsValue> {
    let reference = Date::parse(&reference_date).ok_or_else(|| {
        JsValue::from(Error::new(&format!("referenceDate debe ser una fecha AAAA-MM-DD válida, no {reference_date:?}.")))
    })?;
    let list = receipts.dyn_into::<Array>().map_err(|_| type_error("receipts debe ser un arreglo de recibos."))?;
    let receipts = list.iter().map(|r| receipt_bytes(&r)).collect::<Result<Vec<_>, _>>()?;
    let profile = score_docs::profile_from_cfdi_bytes(&receipts, reference).map_err(|e| doc_error(&e))?;
    parse_json(&profile.to_json())
}
