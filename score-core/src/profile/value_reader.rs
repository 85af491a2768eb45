//! The JSON value reader of a profile: reads every field, lists every mistake (in the order
//! documented at [`Profile::from_json_value`]) and then checks the ranges of what it read
//! ([`crate::profile::checks`]). Every message comes from the one table ([`Falla`]).

use crate::profile::checks::{Fallidos, count_range_error};
use crate::error::{ErrorCode, ErrorDetail, Falla, ScoreError};
use crate::money;
use crate::profile::{COACREDITADO_FIELDS, Coacreditado, FIELDS, IncomeType, Institucion, Profile};
use crate::states::State;
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use serde_json::{Map, Value};
use std::borrow::Cow;

/// What stands for a field that could not be read, so that the others are checked: never
/// read by a check (the field is in [`Fallidos`]) nor returned (the profile has a mistake).
const CUALQUIERA: State = match State::from_inegi(9) {
    Some(state) => state,
    None => panic!("INEGI key 9 is a state"),
};

impl Profile {
    /// [`Profile::from_json_value`] of a JSON text's value, reading each number from the
    /// digits the text wrote rather than the value's double, so that an error reads the same
    /// digits a valid profile does: `digits(prefix, key)` is the number of `key` as written
    /// (`prefix` is `coacreditado.` inside the co-borrower), `None` when it is not a number.
    pub(crate) fn from_json_value_with_digits(value: &Value, digits: Option<Digitos<'_>>) -> Result<Profile, ScoreError> {
        let Value::Object(map) = value else {
            return Err(Falla::PerfilNoObjeto.en(None, &[]).into());
        };
        let mut l = Lectura { errores: Vec::new(), fallidos: Fallidos::NINGUNO };
        let campos = Campos { map, prefix: "", fields: &FIELDS, first_bit: 0, digits };
        campos.known(&mut l);
        let estado = campos.required("estado", as_state, &mut l);
        let ingreso_mensual = campos.required("ingreso_mensual", as_decimal, &mut l);
        let tipo_ingreso = campos.required("tipo_ingreso", as_income_type, &mut l);
        let antiguedad_meses = campos.required("antiguedad_meses", as_count, &mut l);
        let profile = Profile {
            estado: estado.unwrap_or(CUALQUIERA),
            ingreso_mensual: ingreso_mensual.unwrap_or(Decimal::ZERO),
            tipo_ingreso: tipo_ingreso.unwrap_or(IncomeType::Asalariado),
            antiguedad_meses: antiguedad_meses.unwrap_or(0),
            deudas_mensuales: campos.optional("deudas_mensuales", as_decimal, &mut l),
            ahorro: campos.optional("ahorro", as_decimal, &mut l).unwrap_or(Decimal::ZERO),
            edad: campos.optional("edad", as_count, &mut l),
            personas_hogar: campos.optional("personas_hogar", as_count, &mut l),
            subcuenta_fondo: campos.optional("subcuenta_fondo", as_decimal, &mut l),
            institucion: campos.optional("institucion", as_institucion, &mut l),
            coacreditado: campos.optional("coacreditado", as_coacreditado, &mut l),
        };
        let Lectura { mut errores, fallidos } = l;
        profile.check(fallidos, &mut errores);
        match ScoreError::from_errors(errores) {
            None => Ok(profile),
            Some(e) => Err(e),
        }
    }
}

/// The numbers of a JSON text as the digits written, by the prefix of their object (`""` or
/// `coacreditado.`) and key: what the value reader reads in place of the `Value`'s doubles.
pub(crate) type Digitos<'d> = &'d dyn Fn(&str, &str) -> Option<Decimal>;

/// The mistakes found so far, and the fields they are in.
struct Lectura {
    errores: Vec<ErrorDetail>,
    fallidos: Fallidos,
}

/// The fields of one JSON object of the profile (the profile itself, or `coacreditado`), each
/// named in errors by its path (`coacreditado.edad`).
struct Campos<'v> {
    map: &'v Map<String, Value>,
    prefix: &'static str,
    /// The object's field names, and the bit in [`Fallidos`] of the first one.
    fields: &'static [&'static str],
    first_bit: usize,
    digits: Option<Digitos<'v>>,
}

/// One present value as a reader gets it: the value, its path, and for a JSON text the
/// digits written ([`Digitos`]).
struct Campo<'v, 'p> {
    value: &'v Value,
    path: &'p str,
    /// The number as written, when the value is a number of a JSON text that a `Decimal` holds.
    exact: Option<Decimal>,
    /// The digits of the text, for the co-borrower's numbers.
    digits: Option<Digitos<'v>>,
}

/// A field's reader: its value, or its mistake (the co-borrower's object lists its own
/// fields' mistakes and marks them).
type Lector<'v, T> = for<'p> fn(Campo<'v, 'p>, &mut Lectura) -> Result<T, ErrorDetail>;

impl<'v> Campos<'v> {
    fn path(&self, key: &'static str) -> Cow<'static, str> {
        if self.prefix.is_empty() { Cow::Borrowed(key) } else { Cow::Owned(format!("{}{key}", self.prefix)) }
    }

    fn bit(&self, key: &str) -> usize {
        self.first_bit + self.fields.iter().position(|f| *f == key).unwrap_or(0)
    }

    /// Lists every unknown key, in sorted order (so the same input always names the same): the
    /// least after the one before, rather than a sort, whose code the WebAssembly build would
    /// carry for the few keys of a mistyped profile.
    fn known(&self, l: &mut Lectura) {
        let unknown = || self.map.keys().filter(|k| !self.fields.contains(&k.as_str()));
        let donde = if self.prefix.is_empty() { "el perfil" } else { "el coacreditado" };
        let validos = self.fields.join(", ");
        let mut last: Option<&String> = None;
        while let Some(key) = unknown().filter(|k| last.is_none_or(|last| *k > last)).min() {
            last = Some(key);
            let path = format!("{}{key}", self.prefix);
            l.errores.push(Falla::CampoDesconocido.en(Some(&path), &[("donde", &donde), ("validos", &validos)]));
        }
    }

    fn required<T>(&self, key: &'static str, read: Lector<'v, T>, l: &mut Lectura) -> Option<T> {
        if matches!(self.map.get(key), None | Some(Value::Null)) {
            l.errores.push(Falla::Obligatorio.en(Some(&self.path(key)), &[]));
            l.fallidos.set(self.bit(key));
            return None;
        }
        self.optional(key, read, l)
    }

    fn optional<T>(&self, key: &'static str, read: Lector<'v, T>, l: &mut Lectura) -> Option<T> {
        let value = match self.map.get(key) {
            None | Some(Value::Null) => return None,
            Some(value) => value,
        };
        let path = self.path(key);
        let exact = self.digits.and_then(|digits| digits(self.prefix, key));
        match read(Campo { value, path: &path, exact, digits: self.digits }, l) {
            Ok(v) => Some(v),
            Err(e) => {
                l.errores.push(e);
                l.fallidos.set(self.bit(key));
                None
            }
        }
    }
}

/// `coacreditado`: an object of [`COACREDITADO_FIELDS`], read as the profile's own fields are.
/// Its fields' mistakes are listed here; a co-borrower with one is still returned (with
/// stand-ins, marked in [`Fallidos`]) so that its other fields are checked.
fn as_coacreditado(c: Campo<'_, '_>, l: &mut Lectura) -> Result<Coacreditado, ErrorDetail> {
    let Value::Object(map) = c.value else {
        return Err(wrong_type(c.path, "un objeto con los campos del coacreditado", c.value));
    };
    let campos = Campos { map, prefix: "coacreditado.", fields: &COACREDITADO_FIELDS, first_bit: Fallidos::COACREDITADO, digits: c.digits };
    campos.known(l);
    Ok(Coacreditado {
        ingreso_mensual: campos.required("ingreso_mensual", as_decimal, l).unwrap_or(Decimal::ZERO),
        tipo_ingreso: campos.required("tipo_ingreso", as_income_type, l).unwrap_or(IncomeType::Asalariado),
        antiguedad_meses: campos.required("antiguedad_meses", as_count, l).unwrap_or(0),
        edad: campos.optional("edad", as_count, l),
        deudas_mensuales: campos.optional("deudas_mensuales", as_decimal, l),
        subcuenta_fondo: campos.optional("subcuenta_fondo", as_decimal, l),
        institucion: campos.optional("institucion", as_institucion, l),
    })
}

/// `estado`: a federal entity by ISO code, INEGI key or name.
fn as_state(c: Campo<'_, '_>, _: &mut Lectura) -> Result<State, ErrorDetail> {
    let text = as_str(c.value, c.path)?;
    State::parse(text).ok_or_else(|| Falla::EstadoDesconocido.en(Some(c.path), &[("valor", &text)]))
}

/// `tipo_ingreso`: one of the income types (any case, surrounding spaces ignored).
fn as_income_type(c: Campo<'_, '_>, _: &mut Lectura) -> Result<IncomeType, ErrorDetail> {
    let text = as_str(c.value, c.path)?;
    IncomeType::parse(text).ok_or_else(|| Falla::TipoIngresoDesconocido.en(Some(c.path), &[("valor", &text)]))
}

/// `institucion`: a text naming a housing fund (any case, surrounding spaces ignored).
fn as_institucion(c: Campo<'_, '_>, _: &mut Lectura) -> Result<Institucion, ErrorDetail> {
    let text = as_str(c.value, c.path)?;
    Institucion::parse(text).ok_or_else(|| Falla::InstitucionDesconocida.en(Some(c.path), &[("valor", &text)]))
}

/// The Spanish noun phrase of a JSON value's type.
fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "un booleano",
        Value::Number(_) => "un número",
        Value::String(_) => "un texto",
        Value::Array(_) => "una lista",
        Value::Object(_) => "un objeto",
    }
}

fn wrong_type(field: &str, expected: &str, value: &Value) -> ErrorDetail {
    Falla::TipoIncorrecto.en(Some(field), &[("esperado", &expected), ("recibido", &type_name(value))])
}

fn as_str<'v>(value: &'v Value, field: &str) -> Result<&'v str, ErrorDetail> {
    value.as_str().ok_or_else(|| wrong_type(field, "un texto", value))
}

fn as_decimal(c: Campo<'_, '_>, _: &mut Lectura) -> Result<Decimal, ErrorDetail> {
    let (value, field) = (c.value, c.path);
    let Value::Number(n) = value else {
        return Err(wrong_type(field, "un número", value));
    };
    if let Some(exact) = c.exact {
        return Ok(exact);
    }
    if let Some(i) = n.as_i64() {
        return Ok(Decimal::from(i));
    }
    if let Some(u) = n.as_u64() {
        return Ok(Decimal::from(u));
    }
    let f = n.as_f64().unwrap_or(f64::INFINITY);
    money::from_f64(f).ok_or_else(|| {
        if f < 0.0 { Falla::Negativo.en(Some(field), &[]) } else { Falla::FueraDeRango.en(Some(field), &[]) }
    })
}

/// A whole count (months, years, persons). Out-of-range values are reported by the checks
/// with the field's documented range; values too large for `u32` saturate so they are.
fn as_count(c: Campo<'_, '_>, l: &mut Lectura) -> Result<u32, ErrorDetail> {
    let (value, field) = (c.value, c.path);
    let number = as_decimal(c, l).map_err(|e| {
        if e.codigo == ErrorCode::InvalidType { wrong_type(field, "un número entero", value) } else { count_range_error(field) }
    })?;
    if !number.fract().is_zero() {
        return Err(Falla::NoEntero.en(Some(field), &[("valor", &number)]));
    }
    if number.is_sign_negative() {
        return Err(count_range_error(field));
    }
    Ok(number.to_u32().unwrap_or(u32::MAX))
}
