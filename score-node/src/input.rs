//! How a JS value maps to the JSON value score-core reads, shared by both JavaScript bindings
//! (score-node includes this file as a module; score-wasm includes it with `#[path]`), so the
//! same input gives the same report or error in Node and in the browser (and as in score-py):
//! integral numbers are integers, `NaN` is `null`, ±Infinity is a magnitude no amount admits,
//! `undefined` properties are absent, and functions, symbols and bigints are INVALID_TYPE.

use score_core::{ErrorCode, ScoreError};
use serde_json::{Number, Value};

/// Deepest nesting read from a profile (a profile is flat; deeper values only reach score-core
/// to be rejected with their field).
pub(crate) const MAX_DEPTH: u32 = 16;

/// A JS number as a JSON number.
pub(crate) fn number_value(f: f64) -> Value {
    if f.is_nan() {
        return Value::Null;
    }
    // JSON has no infinities; a magnitude no Decimal holds gets the same error from score-core.
    let f = if f.is_infinite() {
        f.signum() * 1e300
    } else {
        f
    };
    // Integral doubles in the exact range read as JSON integers (`30000`, not `30000.0`).
    if f.fract() == 0.0 && f.abs() < 9_007_199_254_740_992.0 {
        #[allow(clippy::cast_possible_truncation)]
        return Value::from(f as i64);
    }
    Number::from_f64(f).map_or(Value::Null, Value::Number)
}

/// What a JS value that has no JSON form is.
#[derive(Debug, Clone, Copy)]
pub(crate) enum NotJson {
    Function,
    Symbol,
    BigInt,
    TooDeep,
}

/// INVALID_TYPE for a value with no JSON form, at `field` or as the whole profile.
pub(crate) fn not_json(field: Option<&str>, kind: NotJson) -> ScoreError {
    let what = match kind {
        NotJson::Function => "una función",
        NotJson::Symbol => "un símbolo",
        NotJson::BigInt => "un BigInt",
        NotJson::TooDeep => "un valor anidado demasiado profundo",
    };
    match field {
        Some(f) => input_error(
            Some(f),
            format!("El campo \"{f}\" tiene {what}, que no es un valor JSON."),
        ),
        None => input_error(
            None,
            format!("El perfil debe ser un objeto con los campos del comprador, no {what}."),
        ),
    }
}

/// INVALID_TYPE with `message`.
pub(crate) fn input_error(field: Option<&str>, message: String) -> ScoreError {
    ScoreError {
        code: ErrorCode::InvalidType,
        field: field.map(str::to_owned),
        message,
    }
}

/// The `message` of a thrown error: `"<CODE>: <text>"`, prefixed with `profiles[i]: ` in batches.
pub(crate) fn error_message(e: &ScoreError, index: Option<usize>) -> String {
    match index {
        Some(i) => format!("profiles[{i}]: {}: {}", e.code, e.message),
        None => format!("{}: {}", e.code, e.message),
    }
}

// ---------------------------------------------------------------------------------------------
// Bulk read of a flat profile

/// Doubles of the gather function's `Float64Array`: the count, a tag and a number per key.
pub(crate) const GATHER_CAPACITY: usize = 128;

/// Source of the gather function (compiled once per JS realm, like the report builder): given
/// the `Float64Array` `f`, it returns a function that reads a flat profile in one call into the
/// binding instead of four or five per key. For a plain object whose values are all numbers,
/// strings, `undefined` or `null`, it writes `f[0]` = key count, `f[1 + i]` = the type of value
/// `i` (0 number, 1 string, 2 undefined, 3 null), `f[1 + n + i]` = the number, and returns the
/// keys then the string values joined with NUL; for anything else it returns `null` and the
/// binding walks the value itself. Only the gathering is in JS: what each value means (NaN,
/// integers, errors) stays in [`number_value`] and score-core. All values are read (getters
/// run) before `f` is written, so a getter that scores another profile cannot clobber it.
pub(crate) const GATHER_SOURCE: &str = "(function (f) { 'use strict'; \
    return function (o) { \
      if (o === null || typeof o !== 'object' || Array.isArray(o)) return null; \
      var k = Object.keys(o), n = k.length, a = new Array(n), s = '', i, v, t; \
      if (2 * n + 1 > f.length) return null; \
      for (i = 0; i < n; i++) a[i] = o[k[i]]; \
      for (i = 0; i < n; i++) { \
        v = a[i]; t = typeof v; \
        if (t === 'number') { f[1 + i] = 0; f[1 + n + i] = v; } \
        else if (t === 'string') { f[1 + i] = 1; s += '\\0' + v; } \
        else if (v === undefined) f[1 + i] = 2; \
        else if (v === null) f[1 + i] = 3; \
        else return null; \
      } \
      f[0] = n; \
      return k.join('\\0') + s; \
    }; })";

/// The profile the gather function wrote (`f` and its returned text) as a JSON value; `None`
/// when the text does not split into the expected pieces (a key or string holding a NUL), and
/// the binding walks the value instead.
pub(crate) fn gathered(f: &[f64], text: &str) -> Option<Value> {
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let n = f
        .first()
        .copied()
        .filter(|n| *n >= 0.0 && (2.0 * n + 1.0) <= f.len() as f64)? as usize;
    let mut map = serde_json::Map::new();
    if n == 0 {
        return text.is_empty().then_some(Value::Object(map));
    }
    let tags = &f[1..=n];
    let strings = tags.iter().filter(|t| **t == 1.0).count();
    let mut pieces = text.split('\0');
    let keys: Vec<&str> = pieces.by_ref().take(n).collect();
    let mut values: Vec<&str> = pieces.collect();
    if keys.len() != n || values.len() != strings {
        return None;
    }
    values.reverse();
    for (i, key) in keys.into_iter().enumerate() {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let value = match tags[i] as u8 {
            0 => number_value(f[1 + n + i]),
            1 => Value::String(values.pop()?.to_owned()),
            2 => continue,
            3 => Value::Null,
            _ => return None,
        };
        map.insert(key.to_owned(), value);
    }
    Some(Value::Object(map))
}
