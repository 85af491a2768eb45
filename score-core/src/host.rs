//! What every binding needs from its host language, written once: how a host's number reads
//! as a profile value, and the errors and messages a binding raises itself.
//!
//! Python, Node and the browser hand score-core doubles (and Python also big integers and
//! `Decimal`s). The same double must give the same profile, and so the same report or error,
//! on every surface, whichever path reads it (the fast [`Cell`] path or the JSON value that
//! reports exact errors):
//!
//! - NaN is "missing" (pandas' and numpy's convention): an absent value, JSON `null`.
//! - A whole double below 2^53 in magnitude (where every integer is exact) is an integer, as
//!   the JSON text `30000` is, not `30000.0`.
//! - ±Infinity has no JSON form: it reads as a magnitude no amount admits (±1e300), so the
//!   range check reports it with the field, like any other too large amount.
//! - Any other finite double is read as the decimal a person wrote ([`crate::money::from_f64`]).

use crate::error::{ErrorCode, ScoreError};
use crate::input::Cell;
use serde_json::{Number, Value};

/// Whole doubles below this magnitude (2^53) read as integers: every integer up to it is exact.
pub const EXACT_INTEGER_LIMIT: f64 = 9_007_199_254_740_992.0;

/// A finite stand-in for an infinity: past every amount's ceiling, so the range check reports it.
const INFINITY_AS: f64 = 1e300;

/// A host's double as the JSON value score-core's reader takes (the rule of this module).
pub fn number_value(f: f64) -> Value {
    if f.is_nan() {
        return Value::Null;
    }
    let f = if f.is_infinite() { f.signum() * INFINITY_AS } else { f };
    match whole(f) {
        Some(int) => Value::from(int),
        None => Number::from_f64(f).map_or(Value::Null, Value::Number),
    }
}

/// A host's double as a profile [`Cell`] by the same rule; `None` for ±Infinity, which the
/// caller leaves to the JSON value path ([`number_value`]) so that it reports the error.
pub fn number_cell(f: f64) -> Option<Cell<'static>> {
    if f.is_nan() {
        return Some(Cell::Absent);
    }
    if f.is_infinite() {
        return None;
    }
    Some(whole(f).map_or(Cell::Float(f), Cell::Int))
}

/// The integer a whole double below [`EXACT_INTEGER_LIMIT`] equals.
fn whole(f: f64) -> Option<i64> {
    #[allow(clippy::cast_possible_truncation)] // whole and below 2^53: exact
    (f.fract() == 0.0 && f.abs() < EXACT_INTEGER_LIMIT).then_some(f as i64)
}

/// A host value that has no JSON form, for [`not_json`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotJson<'a> {
    /// A JavaScript function.
    Function,
    /// A JavaScript symbol.
    Symbol,
    /// A JavaScript BigInt.
    BigInt,
    /// A value nested deeper than a binding reads.
    TooDeep,
    /// A value of a host type with no JSON form (Python: `set`, `bytes`, an object), by the
    /// host's name of the type.
    HostType(&'a str),
}

impl NotJson<'_> {
    /// The Spanish noun phrase for the value ("una función", "un valor de tipo set").
    fn describe(self) -> String {
        match self {
            NotJson::Function => "una función".to_owned(),
            NotJson::Symbol => "un símbolo".to_owned(),
            NotJson::BigInt => "un BigInt".to_owned(),
            NotJson::TooDeep => "un valor anidado demasiado profundo".to_owned(),
            NotJson::HostType(name) => format!("un valor de tipo {name}"),
        }
    }
}

/// INVALID_TYPE for a host value with no JSON form: at `field`, or as the whole profile.
pub fn not_json(field: Option<&str>, value: NotJson<'_>) -> ScoreError {
    let what = value.describe();
    let message = match field {
        Some(f) => format!("El campo \"{f}\" tiene {what}, que no es un valor JSON."),
        None => format!("El perfil debe ser un objeto con los campos del comprador, no {what}."),
    };
    ScoreError::new(ErrorCode::InvalidType, field, message)
}

/// INVALID_TYPE for a batch call (`function`: the host's name of it, such as `scoreMany`) given
/// something that is not a list of profiles.
pub fn not_a_list(function: &str) -> ScoreError {
    ScoreError::new(ErrorCode::InvalidType, None, format!("{function} espera una lista de perfiles."))
}

/// The message of the exception a binding raises for `error`: `"<CODE>: <text>"`, prefixed
/// with `profiles[i]: ` for item `i` of a batch. The same text in Python and JavaScript.
pub fn error_message(error: &ScoreError, index: Option<usize>) -> String {
    match index {
        Some(i) => format!("profiles[{i}]: {}: {}", error.code, error.message),
        None => format!("{}: {}", error.code, error.message),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value path and the cell path read every double alike.
    #[test]
    fn numbers_read_alike_on_both_paths() {
        let fields = r#""estado":"CMX","tipo_ingreso":"asalariado","antiguedad_meses":36"#;
        for f in [
            30000.0,
            30000.5,
            0.1,
            -1.0,
            1e15,
            EXACT_INTEGER_LIMIT - 1.0,
            EXACT_INTEGER_LIMIT,
            1e20,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            5e-324,
        ] {
            let by_value = crate::Profile::from_json_str(&format!(
                r#"{{{fields},"ingreso_mensual":{}}}"#,
                number_value(f)
            ));
            match number_cell(f) {
                None => assert!(f.is_infinite() && by_value.is_err()),
                Some(cell) => {
                    let mut cells = crate::input::Cells::default();
                    cells.set(crate::input::slot::ESTADO, Cell::Str("CMX".into()));
                    cells.set(crate::input::slot::TIPO_INGRESO, Cell::Str("asalariado".into()));
                    cells.set(crate::input::slot::ANTIGUEDAD_MESES, Cell::Int(36));
                    cells.set(crate::input::slot::INGRESO_MENSUAL, cell);
                    if let Some(profile) = cells.profile() {
                        assert_eq!(profile.validate().map(|()| profile.clone()), by_value, "{f}");
                    } else {
                        assert!(by_value.is_err(), "{f}");
                    }
                }
            }
        }
        assert_eq!(number_value(30000.0).to_string(), "30000");
        assert_eq!(number_value(f64::NAN), Value::Null);
        assert_eq!(number_value(f64::INFINITY).to_string(), "1e+300");
    }

    #[test]
    fn binding_errors_are_spanish_invalid_type() {
        let e = not_json(Some("edad"), NotJson::HostType("set"));
        assert_eq!(e.code, ErrorCode::InvalidType);
        assert_eq!(e.field.as_deref(), Some("edad"));
        assert_eq!(e.message, "El campo \"edad\" tiene un valor de tipo set, que no es un valor JSON.");
        let e = not_json(None, NotJson::Function);
        assert_eq!(e.field, None);
        assert_eq!(e.message, "El perfil debe ser un objeto con los campos del comprador, no una función.");
        assert_eq!(error_message(&e, Some(3)), format!("profiles[3]: INVALID_TYPE: {}", e.message));
        assert_eq!(not_a_list("scoreMany").message, "scoreMany espera una lista de perfiles.");
    }
}
