//! The buyer profile: the model's only input, parsed strictly from JSON.
//!
//! Field names are fixed (snake_case, Spanish) because every surface shares them: the Python
//! and JS packages, the HTTP server and the fixtures. Unknown fields are rejected so typos
//! surface instead of silently scoring a different profile.

use crate::error::{ErrorCode, ScoreError};
use crate::money;
use crate::params::{
    ANTIGUEDAD_MAX_MESES, EDAD_MAX, EDAD_MIN, MONTO_MENSUAL_MAX, MONTO_MINIMO, PERSONAS_HOGAR_MAX, SALDO_MAX,
};
use crate::states::State;
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

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
}

/// The accepted field names, in the order they are checked and documented.
pub const FIELDS: [&str; 10] = [
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
];

impl Profile {
    /// Parses and validates a profile from a JSON value. Checks run in a fixed order (unknown
    /// fields, then each field in [`FIELDS`] order), so the same bad input always reports the
    /// same error.
    pub fn from_json_value(value: &Value) -> Result<Profile, ScoreError> {
        let Value::Object(map) = value else {
            return Err(ScoreError::new(
                ErrorCode::InvalidType,
                None,
                "El perfil debe ser un objeto JSON con los campos del comprador.".to_owned(),
            ));
        };
        if let Some(unknown) = map.keys().filter(|k| !FIELDS.contains(&k.as_str())).min() {
            return Err(ScoreError::new(
                ErrorCode::UnknownField,
                Some(unknown),
                format!("El campo \"{unknown}\" no existe en el perfil. Campos válidos: {}.", FIELDS.join(", ")),
            ));
        }
        let estado_text = required(map, "estado", as_str)?;
        let estado = State::parse(estado_text).ok_or_else(|| {
            ScoreError::new(
                ErrorCode::UnknownState,
                Some("estado"),
                format!(
                    "El campo \"estado\" no reconoce \"{estado_text}\": usa la clave ISO (\"CMX\"), la clave INEGI (\"09\") o el nombre oficial."
                ),
            )
        })?;
        let ingreso_mensual = required(map, "ingreso_mensual", as_decimal)?;
        let tipo_text = required(map, "tipo_ingreso", as_str)?;
        let tipo_ingreso = IncomeType::parse(tipo_text).ok_or_else(|| {
            ScoreError::new(
                ErrorCode::UnknownIncomeType,
                Some("tipo_ingreso"),
                format!(
                    "El campo \"tipo_ingreso\" no admite \"{tipo_text}\": usa asalariado, independiente, mixto o pensionado."
                ),
            )
        })?;
        let antiguedad_meses = required(map, "antiguedad_meses", as_count)?;
        let profile = Profile {
            estado,
            ingreso_mensual,
            tipo_ingreso,
            antiguedad_meses,
            deudas_mensuales: optional(map, "deudas_mensuales", as_decimal)?,
            ahorro: optional(map, "ahorro", as_decimal)?.unwrap_or(Decimal::ZERO),
            edad: optional(map, "edad", as_count)?,
            personas_hogar: optional(map, "personas_hogar", as_count)?,
            subcuenta_fondo: optional(map, "subcuenta_fondo", as_decimal)?,
            institucion: optional(map, "institucion", as_institucion)?,
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
        Ok(())
    }

    /// The profile as canonical JSON (state as its ISO code, absent optionals omitted);
    /// [`Profile::from_json_value`] reads it back to an equal profile.
    pub fn to_json_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// `institucion`: a text naming a housing fund (any case, surrounding spaces ignored).
fn as_institucion(v: &Value, field: &'static str) -> Result<Institucion, ScoreError> {
    let text = as_str(v, field)?;
    Institucion::parse(text).ok_or_else(|| {
        ScoreError::new(
            ErrorCode::UnknownInstitution,
            Some(field),
            format!("El campo \"{field}\" no admite \"{text}\": usa INFONAVIT, FOVISSSTE o NINGUNA."),
        )
    })
}

fn required<'v, T>(
    map: &'v Map<String, Value>,
    field: &'static str,
    read: fn(&'v Value, &'static str) -> Result<T, ScoreError>,
) -> Result<T, ScoreError> {
    match map.get(field) {
        None | Some(Value::Null) => Err(ScoreError::new(
            ErrorCode::MissingField,
            Some(field),
            format!("El campo \"{field}\" es obligatorio."),
        )),
        Some(v) => read(v, field),
    }
}

fn optional<'v, T>(
    map: &'v Map<String, Value>,
    field: &'static str,
    read: fn(&'v Value, &'static str) -> Result<T, ScoreError>,
) -> Result<Option<T>, ScoreError> {
    match map.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => read(v, field).map(Some),
    }
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

fn as_str<'v>(value: &'v Value, field: &'static str) -> Result<&'v str, ScoreError> {
    value.as_str().ok_or_else(|| wrong_type(field, "un texto", value))
}

fn as_number(value: &Value, field: &'static str) -> Result<Decimal, ScoreError> {
    let Value::Number(n) = value else {
        return Err(wrong_type(field, "un número", value));
    };
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

fn as_decimal(value: &Value, field: &'static str) -> Result<Decimal, ScoreError> {
    as_number(value, field)
}

/// A whole count (months, years, persons). Out-of-range values are reported by `validate`
/// with the field's documented range; values too large for `u32` saturate so they do.
fn as_count(value: &Value, field: &'static str) -> Result<u32, ScoreError> {
    let number = as_number(value, field).map_err(|e| {
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
    let (min, max) = match field {
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
    let v = Decimal::from(value);
    if v < min || v > max { Err(count_range_error(field)) } else { Ok(()) }
}

fn amount(field: &str, value: Decimal, max: Decimal) -> Result<(), ScoreError> {
    if value.is_sign_negative() && !value.is_zero() {
        return Err(ScoreError::new(
            ErrorCode::NegativeAmount,
            Some(field),
            format!("El campo \"{field}\" no puede ser negativo."),
        ));
    }
    if value > max {
        return Err(ScoreError::new(
            ErrorCode::AmountTooLarge,
            Some(field),
            format!("El campo \"{field}\" supera el máximo admitido de {max} MXN."),
        ));
    }
    if !value.is_zero() && value < MONTO_MINIMO {
        return Err(ScoreError::new(
            ErrorCode::ValueOutOfRange,
            Some(field),
            format!("El campo \"{field}\" es menor que un centavo ({MONTO_MINIMO} MXN), la cantidad más pequeña admitida."),
        ));
    }
    Ok(())
}
