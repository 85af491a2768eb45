//! A JS profile into score-core's input: one gather call for a flat profile of plain values
//! (`realm::gather`), else a walk of the value into the `serde_json::Value` its JSON text would
//! parse to, each number by score-core's host-number rule (the same in score-wasm and Python).

use crate::realm::{self, napi_call};
use napi::bindgen_prelude::*;
use napi::{Env, JsValue, Unknown, ValueType, sys};
use score_core::host::{NotJson, not_json, number_value};
use score_core::{Profile, ScoreError};
use score_js::input::MAX_DEPTH;
use serde_json::{Map, Value};

/// A value read, or the score-core error that a value with no JSON form is.
type Read<T> = std::result::Result<T, ScoreError>;

/// The profile of a JS value, not yet range-checked (`score_core::score` does that).
pub(crate) fn read_profile(v: Unknown<'_>) -> Result<Read<Profile>> {
    let env = Env::from_raw(v.value().env);
    if let Some(profile) = realm::gather(&env, v.raw())? {
        return Ok(Ok(profile));
    }
    Ok(to_value(v, None, 0)?.and_then(|v| Profile::from_json_value(&v.unwrap_or(Value::Null))))
}

/// Reads a JS value; `Ok(None)` is `undefined` (an absent property).
fn to_value(v: Unknown<'_>, field: Option<&str>, depth: u32) -> Result<Read<Option<Value>>> {
    // SAFETY (the three `cast`s): each follows the check of the value's JS type that napi-rs
    // asks of the caller (`cast` itself cannot check it).
    let value = match v.get_type()? {
        ValueType::Undefined => return Ok(Ok(None)),
        ValueType::Null => Value::Null,
        ValueType::Boolean => Value::Bool(unsafe { v.cast::<bool>() }?),
        ValueType::Number => number_value(unsafe { v.cast::<f64>() }?),
        ValueType::String => Value::String(js_to_string(v.value().env, v.raw())?),
        ValueType::Object if depth < MAX_DEPTH => {
            let obj: Object = unsafe { v.cast() }?;
            if !obj.is_array()? {
                return to_object(&obj, depth).map(|r| r.map(Some));
            }
            let len = obj.get_array_length()?;
            let mut items = Vec::with_capacity(len as usize);
            for i in 0..len {
                match to_value(obj.get_element::<Unknown>(i)?, field, depth + 1)? {
                    Ok(item) => items.push(item.unwrap_or(Value::Null)),
                    Err(e) => return Ok(Err(e)),
                }
            }
            Value::Array(items)
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

/// A JS string as UTF-8: one N-API call for short strings (keys, states, income types), two
/// for longer ones.
fn js_to_string(env: sys::napi_env, v: sys::napi_value) -> Result<String> {
    let mut buf = [0u8; 256];
    let mut len = 0usize;
    napi_call!(sys::napi_get_value_string_utf8(env, v, buf.as_mut_ptr().cast(), buf.len(), &mut len))?;
    // Truncation stops at a character boundary, so it leaves at least 252 bytes written.
    if len + 4 < buf.len() {
        return Ok(String::from_utf8_lossy(&buf[..len]).into_owned());
    }
    // SAFETY: `v` is a string of the current callback's env (its type was checked).
    unsafe { String::from_napi_value(env, v) }
}

fn to_object(obj: &Object<'_>, depth: u32) -> Result<Read<Value>> {
    let env = obj.value().env;
    // Own enumerable string keys, as `Object.keys` and `JSON.stringify` see them.
    let mut raw = std::ptr::null_mut();
    napi_call!(sys::napi_get_all_property_names(
        env,
        obj.raw(),
        sys::KeyCollectionMode::own_only,
        sys::KeyFilter::enumerable | sys::KeyFilter::skip_symbols,
        sys::KeyConversion::numbers_to_strings,
        &mut raw,
    ))?;
    // SAFETY: N-API returned `raw` as an array of this env.
    let keys = unsafe { Object::from_napi_value(env, raw) }?;
    let len = keys.get_array_length()?;
    let mut map = Map::new();
    for i in 0..len {
        let key: Unknown = keys.get_element(i)?;
        // Read the property with the key value itself (no UTF-8 round trip of the name).
        let mut value = std::ptr::null_mut();
        napi_call!(sys::napi_get_property(env, obj.raw(), key.raw(), &mut value))?;
        let key = js_to_string(env, key.raw())?;
        // SAFETY: N-API returned `value`, a value of this env.
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
