//! A JS profile into score-core's input: one gather call for a flat profile of plain values
//! (`realm::gather`), else a walk of the value into the `serde_json::Value` its JSON text would
//! parse to, each number by score-core's host-number rule (the same in score-wasm and Python).

use crate::realm;
use napi::bindgen_prelude::*;
use napi::{Env, JsValue, Unknown, ValueType};
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

/// Reads a JS value; `Ok(None)` is `undefined` (an absent property). This is the path of
/// profiles the gather function does not take (nested or odd values, errors to report), so it
/// uses napi-rs's safe calls: the coercions below are identities after the type check.
fn to_value(v: Unknown<'_>, field: Option<&str>, depth: u32) -> Result<Read<Option<Value>>> {
    let value = match v.get_type()? {
        ValueType::Undefined => return Ok(Ok(None)),
        ValueType::Null => Value::Null,
        ValueType::Boolean => Value::Bool(v.coerce_to_bool()?),
        ValueType::Number => number_value(v.coerce_to_number()?.get_double()?),
        ValueType::String => Value::String(v.coerce_to_string()?.into_utf8()?.into_owned()?),
        ValueType::Object if depth < MAX_DEPTH => {
            let obj = v.coerce_to_object()?;
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

fn to_object(obj: &Object<'_>, depth: u32) -> Result<Read<Value>> {
    // Own enumerable string keys, as `Object.keys` and `JSON.stringify` see them.
    let keys = obj.get_all_property_names(KeyCollectionMode::OwnOnly, KeyFilter::Enumerable, KeyConversion::NumbersToStrings)?;
    let len = keys.get_array_length()?;
    let mut map = Map::new();
    for i in 0..len {
        let key: Unknown = keys.get_element(i)?;
        if key.get_type()? != ValueType::String {
            continue; // a symbol
        }
        // Read the property with the key value itself (no UTF-8 round trip of the name).
        let value: Unknown = obj.get_property(key)?;
        let key = key.coerce_to_string()?.into_utf8()?.into_owned()?;
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
