//! The buyer profile: the model's only input, parsed strictly from JSON.
//!
//! Field names are fixed (snake_case, Spanish) because every surface shares them: the Python
//! and JS packages, the HTTP server and the fixtures. Unknown fields are rejected so typos
//! surface instead of silently scoring a different profile.

use crate::error::{ErrorCode, ScoreError};
use crate::fast_decimal::Orden;
use crate::money;
use crate::params::{
    ANTIGUEDAD_MAX_MESES, EDAD_MAX, EDAD_MIN, MONTO_MENSUAL_MAX, MONTO_MINIMO, PERSONAS_HOGAR_MAX, SALDO_MAX,
};
use crate::states::State;
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// How the household earns its income. The type sets the income-type points, the seniority
/// curve, the loan-to-value and whether a housing-fund sub-account is estimated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IncomeType {
    /// Payroll employee (IMSS/ISSSTE affiliated).
    Asalariado,
    /// Self-employed or business owner.
    Independiente,
    /// Salary plus independent income.
    Mixto,
    /// Pensioner.
    Pensionado,
}

impl IncomeType {
    /// Every income type, in documentation order.
    pub const ALL: [IncomeType; 4] =
        [IncomeType::Asalariado, IncomeType::Independiente, IncomeType::Mixto, IncomeType::Pensionado];

    /// The wire name (`"asalariado"`, ...).
    pub const fn as_str(self) -> &'static str {
        match self {
            IncomeType::Asalariado => "asalariado",
            IncomeType::Independiente => "independiente",
            IncomeType::Mixto => "mixto",
            IncomeType::Pensionado => "pensionado",
        }
    }

    /// Parses the wire name, ignoring case and surrounding white space.
    pub fn parse(text: &str) -> Option<IncomeType> {
        let text = text.trim();
        IncomeType::ALL.into_iter().find(|t| t.as_str().eq_ignore_ascii_case(text))
    }
}

/// The housing fund the applicant contributes to through payroll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Institucion {
    /// INFONAVIT (private-sector workers, IMSS affiliated).
    Infonavit,
    /// FOVISSSTE (federal government workers, ISSSTE affiliated).
    Fovissste,
    /// Neither (self-employed, informal, or no housing fund).
    Ninguna,
}

impl Institucion {
    /// Every institution, in documentation order.
    pub const ALL: [Institucion; 3] = [Institucion::Infonavit, Institucion::Fovissste, Institucion::Ninguna];

    /// The wire name (`"INFONAVIT"`, ...).
    pub const fn as_str(self) -> &'static str {
        match self {
            Institucion::Infonavit => "INFONAVIT",
            Institucion::Fovissste => "FOVISSSTE",
            Institucion::Ninguna => "NINGUNA",
        }
    }

    /// Parses the wire name, ignoring case and surrounding white space.
    pub fn parse(text: &str) -> Option<Institucion> {
        let text = text.trim();
        Institucion::ALL.into_iter().find(|i| i.as_str().eq_ignore_ascii_case(text))
    }
}

/// A validated buyer profile. Build it with [`Profile::from_json_value`] /
/// [`Profile::from_json_str`], or fill the fields and let [`crate::score`] validate them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Profile {
    /// Federal entity where the buyer wants to buy.
    pub estado: State,
    /// Monthly household net income, MXN (> 0).
    #[serde(with = "money::number")]
    pub ingreso_mensual: Decimal,
    /// Income type.
    pub tipo_ingreso: IncomeType,
    /// Months in the current job or activity.
    pub antiguedad_meses: u32,
    /// Declared non-mortgage monthly debt payments, MXN; `None` when not declared (neutral).
    #[serde(with = "money::option_number", skip_serializing_if = "Option::is_none")]
    pub deudas_mensuales: Option<Decimal>,
    /// Liquid savings available for the down payment, MXN.
    #[serde(with = "money::number")]
    pub ahorro: Decimal,
    /// Age in years; limits the loan term.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edad: Option<u32>,
    /// Persons in the household; sets the cost of living and the core-dwelling size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub personas_hogar: Option<u32>,
    /// Declared housing-fund sub-account balance, MXN; estimated when `None`.
    #[serde(with = "money::option_number", skip_serializing_if = "Option::is_none")]
    pub subcuenta_fondo: Option<Decimal>,
    /// The housing fund the buyer contributes to through payroll (INFONAVIT, FOVISSSTE or
    /// none); `None`: INFONAVIT for salaried and mixed incomes, none otherwise. Read by the
    /// credit products only (MODEL.md section 15).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub institucion: Option<Institucion>,
    /// A second borrower whose income is part of the household's (spouse, partner or anyone
    /// applying together): lets the credit products pool two incomes (MODEL.md section 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coacreditado: Option<Coacreditado>,
}

/// A co-borrower: the part of the household that is a second borrower. Its income and debts
/// are the part of the household's `ingreso_mensual` and `deudas_mensuales` that are its own,
/// so the score (which reads the household) does not change when one is declared; the credit
/// products lend to each borrower on their own income, seniority, age and housing fund.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Coacreditado {
    /// The co-borrower's own monthly net income, MXN: part of the household's, and less than
    /// it (the applicant keeps at least a centavo).
    #[serde(with = "money::number")]
    pub ingreso_mensual: Decimal,
    /// The co-borrower's income type.
    pub tipo_ingreso: IncomeType,
    /// Months in the co-borrower's current job or activity.
    pub antiguedad_meses: u32,
    /// Age in years; limits the co-borrower's term. `None`: the longest term.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edad: Option<u32>,
    /// The part of the household's declared `deudas_mensuales` that is the co-borrower's;
    /// `None`: none of them (all the household's debts count against the applicant).
    #[serde(with = "money::option_number", skip_serializing_if = "Option::is_none")]
    pub deudas_mensuales: Option<Decimal>,
    /// The co-borrower's own housing-fund sub-account balance, MXN; estimated when `None`.
    #[serde(with = "money::option_number", skip_serializing_if = "Option::is_none")]
    pub subcuenta_fondo: Option<Decimal>,
    /// The co-borrower's housing fund; `None`: as for the applicant (by income type).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub institucion: Option<Institucion>,
}

/// The fields of `coacreditado`, in the order they are checked and documented.
pub const COACREDITADO_FIELDS: [&str; 7] = [
    "ingreso_mensual",
    "tipo_ingreso",
    "antiguedad_meses",
    "edad",
    "deudas_mensuales",
    "subcuenta_fondo",
    "institucion",
];

/// The accepted field names, in the order they are checked and documented.
pub const FIELDS: [&str; 11] = [
    "estado",
    "ingreso_mensual",
    "tipo_ingreso",
    "antiguedad_meses",
    "deudas_mensuales",
    "ahorro",
    "edad",
    "personas_hogar",
    "subcuenta_fondo",
    "institucion",
    "coacreditado",
];

impl Profile {
    /// Parses and validates a profile from a JSON value. Checks run in a fixed order (unknown
    /// fields, then each field in [`FIELDS`] order), so the same bad input always reports the
    /// same error.
    pub fn from_json_value(value: &Value) -> Result<Profile, ScoreError> {
        Profile::from_json_value_with_digits(value, None)
    }

    /// [`Profile::from_json_value`] of a JSON text's value, reading each number from the
    /// digits the text wrote rather than the value's double, so that an error reads the same
    /// digits a valid profile does: `digits(prefix, key)` is the number of `key` as written
    /// (`prefix` is `coacreditado.` inside the co-borrower), `None` when it is not a number.
    pub(crate) fn from_json_value_with_digits(value: &Value, digits: Option<Digitos<'_>>) -> Result<Profile, ScoreError> {
        let Value::Object(map) = value else {
            return Err(ScoreError::new(
                ErrorCode::InvalidType,
                None,
                "El perfil debe ser un objeto JSON con los campos del comprador.".to_owned(),
            ));
        };
        let campos = Campos { map, prefix: "", digits };
        campos.known(&FIELDS)?;
        let profile = Profile {
            estado: campos.required("estado", as_state)?,
            ingreso_mensual: campos.required("ingreso_mensual", as_decimal)?,
            tipo_ingreso: campos.required("tipo_ingreso", as_income_type)?,
            antiguedad_meses: campos.required("antiguedad_meses", as_count)?,
            deudas_mensuales: campos.optional("deudas_mensuales", as_decimal)?,
            ahorro: campos.optional("ahorro", as_decimal)?.unwrap_or(Decimal::ZERO),
            edad: campos.optional("edad", as_count)?,
            personas_hogar: campos.optional("personas_hogar", as_count)?,
            subcuenta_fondo: campos.optional("subcuenta_fondo", as_decimal)?,
            institucion: campos.optional("institucion", as_institucion)?,
            coacreditado: campos.optional("coacreditado", as_coacreditado)?,
        };
        profile.validate()?;
        Ok(profile)
    }

    /// Checks every range of the model (see MODEL.md, "Input"). [`crate::score`] calls it, so
    /// a profile built field by field in Rust gets the same errors as one parsed from JSON.
    pub fn validate(&self) -> Result<(), ScoreError> {
        amount("ingreso_mensual", self.ingreso_mensual, MONTO_MENSUAL_MAX)?;
        if self.ingreso_mensual.is_zero() {
            return Err(ScoreError::new(
                ErrorCode::ValueOutOfRange,
                Some("ingreso_mensual"),
                "El campo \"ingreso_mensual\" debe ser mayor que 0.".to_owned(),
            ));
        }
        count_in("antiguedad_meses", self.antiguedad_meses, Decimal::ZERO, ANTIGUEDAD_MAX_MESES)?;
        if let Some(d) = self.deudas_mensuales {
            amount("deudas_mensuales", d, MONTO_MENSUAL_MAX)?;
        }
        amount("ahorro", self.ahorro, SALDO_MAX)?;
        if let Some(edad) = self.edad {
            count_in("edad", edad, EDAD_MIN, EDAD_MAX)?;
        }
        if let Some(p) = self.personas_hogar {
            count_in("personas_hogar", p, Decimal::ONE, PERSONAS_HOGAR_MAX)?;
        }
        if let Some(s) = self.subcuenta_fondo {
            amount("subcuenta_fondo", s, SALDO_MAX)?;
        }
        if let Some(co) = &self.coacreditado {
            co.validate(self)?;
        }
        Ok(())
    }

    /// The profile as canonical JSON (state as its ISO code, absent optionals omitted);
    /// [`Profile::from_json_value`] reads it back to an equal profile.
    pub fn to_json_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

impl Coacreditado {
    /// The co-borrower's ranges, and how its income and debts fit in the household's.
    fn validate(&self, hogar: &Profile) -> Result<(), ScoreError> {
        const INGRESO: &str = "coacreditado.ingreso_mensual";
        const DEUDAS: &str = "coacreditado.deudas_mensuales";
        amount(INGRESO, self.ingreso_mensual, MONTO_MENSUAL_MAX)?;
        if self.ingreso_mensual.is_zero() {
            return Err(ScoreError::new(
                ErrorCode::ValueOutOfRange,
                Some(INGRESO),
                format!("El campo \"{INGRESO}\" debe ser mayor que 0."),
            ));
        }
        if self.ingreso_mensual >= hogar.ingreso_mensual {
            return Err(ScoreError::new(
                ErrorCode::ValueOutOfRange,
                Some(INGRESO),
                format!(
                    "El campo \"{INGRESO}\" es la parte del ingreso del hogar que gana el coacreditado: debe ser menor que \"ingreso_mensual\" ({}), que incluye el ingreso de ambos.",
                    hogar.ingreso_mensual
                ),
            ));
        }
        count_in("coacreditado.antiguedad_meses", self.antiguedad_meses, Decimal::ZERO, ANTIGUEDAD_MAX_MESES)?;
        if let Some(edad) = self.edad {
            count_in("coacreditado.edad", edad, EDAD_MIN, EDAD_MAX)?;
        }
        if let Some(d) = self.deudas_mensuales {
            amount(DEUDAS, d, MONTO_MENSUAL_MAX)?;
            match hogar.deudas_mensuales {
                None => {
                    return Err(ScoreError::new(
                        ErrorCode::MissingField,
                        Some("deudas_mensuales"),
                        format!(
                            "El campo \"{DEUDAS}\" es la parte de las deudas del hogar que paga el coacreditado: declara también \"deudas_mensuales\", las del hogar completo."
                        ),
                    ));
                }
                Some(del_hogar) if d > del_hogar => {
                    return Err(ScoreError::new(
                        ErrorCode::ValueOutOfRange,
                        Some(DEUDAS),
                        format!(
                            "El campo \"{DEUDAS}\" es la parte de las deudas del hogar que paga el coacreditado: no puede superar \"deudas_mensuales\" ({del_hogar})."
                        ),
                    ));
                }
                Some(_) => {}
            }
        }
        if let Some(s) = self.subcuenta_fondo {
            amount("coacreditado.subcuenta_fondo", s, SALDO_MAX)?;
        }
        Ok(())
    }
}

/// The numbers of a JSON text as the digits written, by the prefix of their object (`""` or
/// `coacreditado.`) and key: what the value reader reads in place of the `Value`'s doubles.
pub(crate) type Digitos<'d> = &'d dyn Fn(&str, &str) -> Option<Decimal>;

/// The fields of one JSON object of the profile (the profile itself, or `coacreditado`), each
/// named in errors by its path (`coacreditado.edad`).
struct Campos<'v> {
    map: &'v Map<String, Value>,
    prefix: &'static str,
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

type Lector<'v, T> = for<'p> fn(Campo<'v, 'p>) -> Result<T, ScoreError>;

impl<'v> Campos<'v> {
    fn path(&self, key: &'static str) -> Cow<'static, str> {
        if self.prefix.is_empty() { Cow::Borrowed(key) } else { Cow::Owned(format!("{}{key}", self.prefix)) }
    }

    /// Rejects the first unknown key (in sorted order, so the same input always names the same).
    fn known(&self, fields: &[&str]) -> Result<(), ScoreError> {
        let Some(unknown) = self.map.keys().filter(|k| !fields.contains(&k.as_str())).min() else {
            return Ok(());
        };
        let path = format!("{}{unknown}", self.prefix);
        let donde = if self.prefix.is_empty() { "el perfil" } else { "el coacreditado" };
        Err(ScoreError::new(
            ErrorCode::UnknownField,
            Some(&path),
            format!("El campo \"{path}\" no existe en {donde}. Campos válidos: {}.", fields.join(", ")),
        ))
    }

    fn required<T>(&self, key: &'static str, read: Lector<'v, T>) -> Result<T, ScoreError> {
        match self.optional(key, read)? {
            Some(value) => Ok(value),
            None => {
                let path = self.path(key);
                Err(ScoreError::new(ErrorCode::MissingField, Some(&path), format!("El campo \"{path}\" es obligatorio.")))
            }
        }
    }

    fn optional<T>(&self, key: &'static str, read: Lector<'v, T>) -> Result<Option<T>, ScoreError> {
        match self.map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(value) => {
                let path = self.path(key);
                let exact = self.digits.and_then(|digits| digits(self.prefix, key));
                read(Campo { value, path: &path, exact, digits: self.digits }).map(Some)
            }
        }
    }
}

/// `coacreditado`: an object of [`COACREDITADO_FIELDS`], read as the profile's own fields are.
fn as_coacreditado(c: Campo<'_, '_>) -> Result<Coacreditado, ScoreError> {
    let Value::Object(map) = c.value else {
        return Err(wrong_type(c.path, "un objeto con los campos del coacreditado", c.value));
    };
    let campos = Campos { map, prefix: "coacreditado.", digits: c.digits };
    campos.known(&COACREDITADO_FIELDS)?;
    Ok(Coacreditado {
        ingreso_mensual: campos.required("ingreso_mensual", as_decimal)?,
        tipo_ingreso: campos.required("tipo_ingreso", as_income_type)?,
        antiguedad_meses: campos.required("antiguedad_meses", as_count)?,
        edad: campos.optional("edad", as_count)?,
        deudas_mensuales: campos.optional("deudas_mensuales", as_decimal)?,
        subcuenta_fondo: campos.optional("subcuenta_fondo", as_decimal)?,
        institucion: campos.optional("institucion", as_institucion)?,
    })
}

/// `estado`: a federal entity by ISO code, INEGI key or name.
fn as_state(c: Campo<'_, '_>) -> Result<State, ScoreError> {
    let (text, field) = (as_str(c.value, c.path)?, c.path);
    State::parse(text).ok_or_else(|| {
        ScoreError::new(
            ErrorCode::UnknownState,
            Some(field),
            format!(
                "El campo \"{field}\" no reconoce \"{text}\": usa la clave ISO (\"CMX\"), la clave INEGI (\"09\") o el nombre oficial."
            ),
        )
    })
}

/// `tipo_ingreso`: one of the income types (any case, surrounding spaces ignored).
fn as_income_type(c: Campo<'_, '_>) -> Result<IncomeType, ScoreError> {
    let (text, field) = (as_str(c.value, c.path)?, c.path);
    IncomeType::parse(text).ok_or_else(|| {
        ScoreError::new(
            ErrorCode::UnknownIncomeType,
            Some(field),
            format!("El campo \"{field}\" no admite \"{text}\": usa asalariado, independiente, mixto o pensionado."),
        )
    })
}

/// `institucion`: a text naming a housing fund (any case, surrounding spaces ignored).
fn as_institucion(c: Campo<'_, '_>) -> Result<Institucion, ScoreError> {
    let (text, field) = (as_str(c.value, c.path)?, c.path);
    Institucion::parse(text).ok_or_else(|| {
        ScoreError::new(
            ErrorCode::UnknownInstitution,
            Some(field),
            format!("El campo \"{field}\" no admite \"{text}\": usa INFONAVIT, FOVISSSTE o NINGUNA."),
        )
    })
}

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

fn wrong_type(field: &str, expected: &str, value: &Value) -> ScoreError {
    ScoreError::new(
        ErrorCode::InvalidType,
        Some(field),
        format!("El campo \"{field}\" debe ser {expected}, no {}.", type_name(value)),
    )
}

fn as_str<'v>(value: &'v Value, field: &str) -> Result<&'v str, ScoreError> {
    value.as_str().ok_or_else(|| wrong_type(field, "un texto", value))
}

fn as_decimal(c: Campo<'_, '_>) -> Result<Decimal, ScoreError> {
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
        ScoreError::new(
            if f < 0.0 { ErrorCode::NegativeAmount } else { ErrorCode::AmountTooLarge },
            Some(field),
            format!("El campo \"{field}\" tiene un valor fuera del rango admitido."),
        )
    })
}

/// A whole count (months, years, persons). Out-of-range values are reported by `validate`
/// with the field's documented range; values too large for `u32` saturate so they do.
fn as_count(c: Campo<'_, '_>) -> Result<u32, ScoreError> {
    let (value, field) = (c.value, c.path);
    let number = as_decimal(c).map_err(|e| {
        if e.code == ErrorCode::InvalidType {
            wrong_type(field, "un número entero", value)
        } else {
            count_range_error(field)
        }
    })?;
    if !number.fract().is_zero() {
        return Err(ScoreError::new(
            ErrorCode::NotAnInteger,
            Some(field),
            format!("El campo \"{field}\" debe ser un número entero, no {number}."),
        ));
    }
    if number.is_sign_negative() {
        return Err(count_range_error(field));
    }
    Ok(number.to_u32().unwrap_or(u32::MAX))
}

fn count_range_error(field: &str) -> ScoreError {
    let (min, max) = match field.strip_prefix("coacreditado.").unwrap_or(field) {
        "edad" => (EDAD_MIN, EDAD_MAX),
        "personas_hogar" => (Decimal::ONE, PERSONAS_HOGAR_MAX),
        _ => (Decimal::ZERO, ANTIGUEDAD_MAX_MESES),
    };
    ScoreError::new(
        ErrorCode::ValueOutOfRange,
        Some(field),
        format!("El campo \"{field}\" debe estar entre {min} y {max}."),
    )
}

fn count_in(field: &str, value: u32, min: Decimal, max: Decimal) -> Result<(), ScoreError> {
    // The bounds are whole numbers written without decimals: their mantissas are their values,
    // compared as integers, not as decimals.
    debug_assert!(min.scale() == 0 && max.scale() == 0);
    let v = i128::from(value);
    if v < min.mantissa() || v > max.mantissa() { Err(count_range_error(field)) } else { Ok(()) }
}

fn amount(field: &str, value: Decimal, max: Decimal) -> Result<(), ScoreError> {
    // Compared in integers (`Orden`): every report validates its amounts.
    if value.is_sign_negative() && !value.is_zero() {
        return Err(ScoreError::new(
            ErrorCode::NegativeAmount,
            Some(field),
            format!("El campo \"{field}\" no puede ser negativo."),
        ));
    }
    if Orden(value) > Orden(max) {
        return Err(ScoreError::new(
            ErrorCode::AmountTooLarge,
            Some(field),
            format!("El campo \"{field}\" supera el máximo admitido de {max} MXN."),
        ));
    }
    if !value.is_zero() && Orden(value) < Orden(MONTO_MINIMO) {
        return Err(ScoreError::new(
            ErrorCode::ValueOutOfRange,
            Some(field),
            format!("El campo \"{field}\" es menor que un centavo ({MONTO_MINIMO} MXN), la cantidad más pequeña admitida."),
        ));
    }
    Ok(())
}
