//! What every binding needs from its host language, written once: how a host's number reads
//! as a profile value, how a host's value walks into the JSON value score-core reads
//! ([`json_value`]), and the errors and messages a binding raises itself.
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

use crate::error::{Falla, ScoreError};
use crate::profile::input::Cell;
use serde_json::{Map, Number, Value};

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
    let falla = if field.is_some() { Falla::ValorNoJson } else { Falla::PerfilNoJson };
    falla.en(field, &[("recibido", &what)]).into()
}

/// INVALID_TYPE for a batch call (`function`: the host's name of it, such as `scoreMany`) given
/// something that is not a list of profiles.
pub fn not_a_list(function: &str) -> ScoreError {
    Falla::NoEsLista.en(None, &[("funcion", &function)]).into()
}

/// The message of the exception a binding raises for `error`: `"<CODE>: <text>"`, prefixed
/// with `profiles[i]: ` for item `i` of a batch. The same text in Python and JavaScript.
pub fn error_message(error: &ScoreError, index: Option<usize>) -> String {
    match index {
        Some(i) => format!("profiles[{i}]: {}: {}", error.code, error.message),
        None => format!("{}: {}", error.code, error.message),
    }
}

/// One host value, one level deep, as a binding describes it to [`json_value`].
#[derive(Debug)]
pub enum HostNode<V> {
    /// A scalar in its JSON form (a number by [`number_value`]).
    Scalar(Value),
    /// An object's entries in order, each key as text.
    Object(Vec<(String, V)>),
    /// An array's items in order.
    Array(Vec<V>),
    /// A value with no JSON form, by the host's name of its type (Python: `set`, `bytes`).
    Other(String),
}

/// A host value that [`json_value`] reads, one level at a time.
pub trait HostValue: Sized {
    /// The host's own error (an exception raised while reading).
    type Error;
    /// This value one level deep. With `containers` false (deeper than a binding reads) an
    /// object or array is not listed: it is [`HostNode::Other`] unless it is also a scalar.
    fn node(&self, containers: bool) -> Result<HostNode<Self>, Self::Error>;
}

/// The JSON value of a host value (what the JSON text of the profile parses to), at `field`,
/// or INVALID_TYPE for a value with no JSON form (or nested more than `max_depth` deep). The
/// walk every binding shares: depth, the field at fault, the error's Spanish message.
pub fn json_value<V: HostValue>(value: &V, field: Option<&str>, max_depth: u32) -> Result<Result<Value, ScoreError>, V::Error> {
    walk(value, field, 0, max_depth)
}

fn walk<V: HostValue>(value: &V, field: Option<&str>, depth: u32, max: u32) -> Result<Result<Value, ScoreError>, V::Error> {
    Ok(Ok(match value.node(depth < max)? {
        HostNode::Scalar(v) => v,
        HostNode::Object(entries) => {
            let mut map = Map::new();
            for (key, v) in entries {
                match walk(&v, Some(&key), depth + 1, max)? {
                    Ok(v) => map.insert(key, v),
                    Err(e) => return Ok(Err(e)),
                };
            }
            Value::Object(map)
        }
        HostNode::Array(items) => {
            let mut out = Vec::with_capacity(items.len());
            for item in &items {
                match walk(item, field, depth + 1, max)? {
                    Ok(v) => out.push(v),
                    Err(e) => return Ok(Err(e)),
                }
            }
            Value::Array(out)
        }
        HostNode::Other(type_name) => {
            let what = if depth >= max { NotJson::TooDeep } else { NotJson::HostType(&type_name) };
            return Ok(Err(not_json(field, what)));
        }
    }))
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
                    let mut cells = crate::profile::input::Cells::default();
                    cells.set(crate::profile::input::slot::ESTADO, Cell::Str("CMX".into()));
                    cells.set(crate::profile::input::slot::TIPO_INGRESO, Cell::Str("asalariado".into()));
                    cells.set(crate::profile::input::slot::ANTIGUEDAD_MESES, Cell::Int(36));
                    cells.set(crate::profile::input::slot::INGRESO_MENSUAL, cell);
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

    /// A toy host: JSON values, plus `Value::String("set")` standing for a set.
    struct Toy(Value);

    impl HostValue for Toy {
        type Error = ();
        fn node(&self, containers: bool) -> Result<HostNode<Self>, ()> {
            Ok(match &self.0 {
                Value::String(s) if s == "set" => HostNode::Other("set".to_owned()),
                Value::Object(m) if containers => HostNode::Object(m.iter().map(|(k, v)| (k.clone(), Toy(v.clone()))).collect()),
                Value::Array(a) if containers => HostNode::Array(a.iter().cloned().map(Toy).collect()),
                Value::Object(_) | Value::Array(_) => HostNode::Other("dict".to_owned()),
                v => HostNode::Scalar(v.clone()),
            })
        }
    }

    #[test]
    fn host_values_walk_to_json_or_fail_with_their_field() {
        let v = serde_json::json!({"estado": "CMX", "coacreditado": {"edad": [1, 2]}});
        assert_eq!(json_value(&Toy(v.clone()), None, 32), Ok(Ok(v)));
        let bad = serde_json::json!({"a": 1, "edad": ["set"]});
        let e = json_value(&Toy(bad), None, 32).expect("read").expect_err("a set");
        assert_eq!((e.field.as_deref(), e.message.as_str()), (Some("edad"), "El campo \"edad\" tiene un valor de tipo set, que no es un valor JSON."));
        let deep = serde_json::json!({"x": [[[1]]]});
        let e = json_value(&Toy(deep), None, 3).expect("read").expect_err("too deep");
        assert_eq!(e.message, not_json(Some("x"), NotJson::TooDeep).message);
        let e = json_value(&Toy(Value::from("set")), None, 32).expect("read").expect_err("a set");
        assert_eq!(e.field, None);
    }

    #[test]
    fn binding_errors_are_spanish_invalid_type() {
        let e = not_json(Some("edad"), NotJson::HostType("set"));
        assert_eq!(e.code, crate::ErrorCode::InvalidType);
        assert_eq!(e.field.as_deref(), Some("edad"));
        assert_eq!(e.message, "El campo \"edad\" tiene un valor de tipo set, que no es un valor JSON.");
        let e = not_json(None, NotJson::Function);
        assert_eq!(e.field, None);
        assert_eq!(e.message, "El perfil debe ser un objeto con los campos del comprador, no una función.");
        assert_eq!(error_message(&e, Some(3)), format!("profiles[3]: INVALID_TYPE: {}", e.message));
        assert_eq!(not_a_list("scoreMany").message, "scoreMany espera una lista de perfiles.");
    }
}
