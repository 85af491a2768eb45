//! How a JS value maps to the JSON value score-core reads, shared by both JavaScript bindings
//! (score-node includes this file as a module; score-wasm includes it with `#[path]`), so the
//! same input gives the same report or error in Node and in the browser (and as in score-py):
//! integral numbers are integers, `NaN` is `null`, ±Infinity is a magnitude no amount admits,
//! `undefined` properties are absent, and functions, symbols and bigints are INVALID_TYPE.

use score_core::input::{Cell, Cells};
use score_core::{ErrorCode, FIELDS, Profile, ScoreError};
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

/// Doubles of the gather function's `Float64Array`: a tag and a number per profile field.
pub(crate) const GATHER_CAPACITY: usize = 2 * FIELDS.len();

/// Source of the gather function (compiled once per JS realm, like the report builder): given
/// the `Float64Array` `f`, it returns a function that reads a flat profile in one call into the
/// binding instead of four or five per key. For a plain object whose keys are all profile
/// fields and whose values are all numbers, strings, `undefined` or `null`, it writes
/// `f[slot]` = the type of the field's value (0 number, 1 string, 2 absent, 3 null) and
/// `f[9 + slot]` = the number, where `slot` is the field's position in `score_core::FIELDS`,
/// and returns the strings, each as its slot digit, the text and a NUL; for anything else it
/// returns `null` and the binding walks the value itself (which reports unknown keys and wrong
/// types exactly). Only the gathering is in JS: what each value means (NaN, integers, errors)
/// stays in [`cell_of_number`] and score-core. All values are read (getters run) before `f` is
/// written, so a getter that scores another profile cannot clobber it.
pub(crate) fn gather_source() -> String {
    let n = FIELDS.len();
    let cases: String = FIELDS.iter().enumerate().map(|(i, f)| format!("case '{f}': j = {i}; break; ")).collect();
    format!(
        "(function (f) {{ 'use strict'; \
           return function (o) {{ \
             if (o === null || typeof o !== 'object' || Array.isArray(o)) return null; \
             var k = Object.keys(o), n = k.length, a, s = '', i, j, v, t; \
             if (n > {n}) return null; \
             a = new Array(n); \
             for (i = 0; i < n; i++) a[i] = o[k[i]]; \
             for (i = 0; i < {n}; i++) f[i] = 2; \
             for (i = 0; i < n; i++) {{ \
               switch (k[i]) {{ {cases}default: return null; }} \
               v = a[i]; t = typeof v; \
               if (t === 'number') {{ f[j] = 0; f[{n} + j] = v; }} \
               else if (t === 'string') {{ f[j] = 1; s += j + v + '\\0'; }} \
               else if (v === null) f[j] = 3; \
               else if (v !== undefined) return null; \
             }} \
             return s; \
           }}; }})"
    )
}

/// A JS number as a profile cell, by the rules of [`number_value`]; `None` for ±Infinity (the
/// walk reports it).
pub(crate) fn cell_of_number(f: f64) -> Option<Cell<'static>> {
    if f.is_nan() {
        return Some(Cell::Absent);
    }
    if f.is_infinite() {
        return None;
    }
    if f.fract() == 0.0 && f.abs() < 9_007_199_254_740_992.0 {
        #[allow(clippy::cast_possible_truncation)]
        return Some(Cell::Int(f as i64));
    }
    Some(Cell::Float(f))
}

/// The profile the gather function wrote (`f` and its returned `text`), not yet range-checked
/// (`score_core::score` does that); `None` when a value is not plainly valid or the text does
/// not split into the expected pieces (a string holding a NUL), and the binding walks the value.
pub(crate) fn gathered(f: &[f64], text: &str) -> Option<Profile> {
    let n = FIELDS.len();
    let (tags, numbers) = (f.get(..n)?, f.get(n..2 * n)?);
    let mut cells = Cells::default();
    let mut strings = 0;
    for (slot, (tag, number)) in tags.iter().zip(numbers).enumerate() {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        match *tag as u8 {
            0 => cells.set(slot, cell_of_number(*number)?),
            1 => strings += 1,
            2 | 3 => {}
            _ => return None,
        }
    }
    let mut pieces = text.split('\0');
    for _ in 0..strings {
        let piece = pieces.next()?;
        let slot = usize::from(piece.as_bytes().first()?.checked_sub(b'0')?);
        if tags.get(slot) != Some(&1.0) {
            return None;
        }
        cells.set(slot, Cell::Str(piece.get(1..)?.into()));
    }
    // Exactly one empty piece after the last NUL: no string held a NUL of its own.
    if pieces.next() != Some("") || pieces.next().is_some() {
        return None;
    }
    cells.profile()
}
