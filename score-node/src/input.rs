//! How a JS value maps to the JSON value score-core reads, shared by both JavaScript bindings
//! (score-node includes this file as a module; score-wasm includes it with `#[path]`), so the
//! same input gives the same report or error in Node and in the browser (and as in score-py):
//! integral numbers are integers, `NaN` is `null`, ±Infinity is a magnitude no amount admits,
//! `undefined` properties are absent, and functions, symbols and bigints are INVALID_TYPE.

use score_core::input::{Cell, Cells};
use score_core::{ErrorCode, FIELDS, IncomeType, Profile, ScoreError};
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

/// Doubles the gather function writes: per profile field a tag, a number and a byte length.
pub(crate) const GATHER_DOUBLES: usize = 3 * FIELDS.len();
/// Bytes for the UTF-8 of the profile's texts that are not a [`known_text`]; a profile whose
/// texts do not fit is walked instead.
pub(crate) const GATHER_BYTES: usize = 512;

/// The texts the gather function passes as a number instead of as UTF-8: the canonical values
/// of the text fields (the states' ISO codes, then the income types), which nearly every
/// profile sends. `None` past the last.
pub(crate) fn known_text(index: usize) -> Option<&'static str> {
    let states = &score_core::states::STATES;
    match states.get(index) {
        Some(state) => Some(state.iso),
        None => IncomeType::ALL.get(index - states.len()).map(|t| t.as_str()),
    }
}

/// Source of the gather function (compiled once per JS realm, like the report builder), an
/// expression: `(function (memory, at, bytesAt) { ... })`. Called with an object whose
/// `buffer` is an `ArrayBuffer` (WebAssembly's memory, or one of the binding's own), it returns
/// a function that reads a flat profile in one call into the binding instead of four or five
/// per key, and writes it into that buffer: [`GATHER_DOUBLES`] doubles at byte offset `at` and
/// [`GATHER_BYTES`] bytes at `bytesAt` (the views are made again when WebAssembly's memory has
/// grown, which detaches them).
///
/// For a plain object whose keys are all profile fields and whose values are all numbers,
/// strings, `undefined` or `null`, it writes, for the field in `slot` (its position in
/// `score_core::FIELDS`), the tag `f[slot]` (0 number, 1 text as UTF-8, 2 absent, 3 null,
/// 4 known text), and `f[9 + slot]` the number, the byte offset of the text, or the index of
/// the known text ([`known_text`]), and `f[18 + slot]` the text's length in bytes; it returns
/// the bytes used.
/// For anything else (or when a getter throws) it returns -1, and the binding walks the
/// value itself, which reports unknown keys and wrong types exactly. Only the gathering is in
/// JS: what each value means (NaN, integers, errors) stays in [`cell_of_number`] and
/// score-core. All values are read (getters run) before anything is written, so a getter that
/// scores another profile cannot clobber them. It never throws: an exception thrown into
/// WebAssembly would unwind past the binding's state.
pub(crate) fn gather_source() -> String {
    let n = FIELDS.len();
    let cases: String = FIELDS.iter().enumerate().map(|(i, f)| format!("case '{f}': j = {i}; break; ")).collect();
    let known: Vec<String> =
        (0..).map_while(known_text).enumerate().map(|(i, t)| format!("['{t}', {i}]")).collect();
    format!(
        "(function (memory, at, bytesAt) {{ 'use strict'; \
           var f = new Float64Array(0), b = new Uint8Array(0), E = new TextEncoder(), \
               K = new Map([{known}]); \
           return function (o) {{ try {{ \
             if (o === null || typeof o !== 'object' || Array.isArray(o)) return -1; \
             var k = Object.keys(o), n = k.length, a, p = 0, i, j, v, t, c, r; \
             if (n > {n}) return -1; \
             a = new Array(n); \
             for (i = 0; i < n; i++) a[i] = o[k[i]]; \
             if (f.length === 0) {{ \
               f = new Float64Array(memory.buffer, at, {doubles}); \
               b = new Uint8Array(memory.buffer, bytesAt, {bytes}); \
             }} \
             for (i = 0; i < {n}; i++) f[i] = 2; \
             for (i = 0; i < n; i++) {{ \
               switch (k[i]) {{ {cases}default: return -1; }} \
               v = a[i]; t = typeof v; \
               if (t === 'number') {{ f[j] = 0; f[{n} + j] = v; }} \
               else if (t === 'string') {{ \
                 c = K.get(v); \
                 if (c !== undefined) {{ f[j] = 4; f[{n} + j] = c; }} \
                 else {{ \
                   r = E.encodeInto(v, b.subarray(p)); \
                   if (r.read < v.length) return -1; \
                   f[j] = 1; f[{n} + j] = p; f[{n2} + j] = r.written; p += r.written; \
                 }} \
               }} \
               else if (v === null) f[j] = 3; \
               else if (v !== undefined) return -1; \
             }} \
             return p; \
           }} catch (e) {{ return -1; }} }}; }})",
        known = known.join(", "),
        n2 = 2 * n,
        doubles = GATHER_DOUBLES,
        bytes = GATHER_BYTES,
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

/// The profile the gather function wrote (`f`, and `bytes` for the texts it wrote as UTF-8),
/// not yet range-checked (`score_core::score` does that); `None` when a value is not plainly
/// valid, and the binding walks the value.
pub(crate) fn gathered(f: &[f64], bytes: &[u8]) -> Option<Profile> {
    let n = FIELDS.len();
    let (tags, numbers, lengths) = (f.get(..n)?, f.get(n..2 * n)?, f.get(2 * n..3 * n)?);
    let mut cells = Cells::default();
    for slot in 0..n {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let cell = match tags[slot] as u8 {
            0 => cell_of_number(numbers[slot])?,
            1 => {
                let (start, len) = (numbers[slot] as usize, lengths[slot] as usize);
                Cell::Str(std::str::from_utf8(bytes.get(start..start.checked_add(len)?)?).ok()?.into())
            }
            2 | 3 => continue,
            4 => Cell::Str(known_text(numbers[slot] as usize)?.into()),
            _ => return None,
        };
        cells.set(slot, cell);
    }
    cells.profile()
}
