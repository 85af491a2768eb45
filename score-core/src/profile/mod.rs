//! The buyer profile: the model's only input, parsed strictly from JSON.
//!
//! Field names are fixed (snake_case, Spanish) because every surface shares them: the Python
//! and JS packages, the HTTP server and the fixtures. Unknown fields are rejected so typos
//! surface instead of silently scoring a different profile.

mod checks;
pub mod input;
mod json;
mod value_reader;

use crate::error::ScoreError;
use crate::money;
use crate::states::State;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use serde_json::Value;

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
    /// The profile of the fields every profile has, with no savings and every optional field
    /// absent (no debts declared, the mean household, the estimated sub-account, the fund its
    /// income type gives, no co-borrower): what a caller varies from, field by field.
    pub fn nuevo(estado: State, ingreso_mensual: Decimal, tipo_ingreso: IncomeType, antiguedad_meses: u32) -> Profile {
        Profile {
            estado,
            ingreso_mensual,
            tipo_ingreso,
            antiguedad_meses,
            deudas_mensuales: None,
            ahorro: Decimal::ZERO,
            edad: None,
            personas_hogar: None,
            subcuenta_fondo: None,
            institucion: None,
            coacreditado: None,
        }
    }

    /// Parses and validates a profile from a JSON value, and reports every mistake at once
    /// ([`ScoreError::errors`]), in this stable order:
    ///
    /// 1. keys the profile does not have, in sorted order (UNKNOWN_FIELD);
    /// 2. each field in [`FIELDS`] order as it is read: absent, of the wrong type, naming no
    ///    state, income type or fund, a count with a fraction or below zero (the
    ///    co-borrower's object at its place, its own unknown keys first, then its fields in
    ///    [`COACREDITADO_FIELDS`] order);
    /// 3. the ranges of the fields read, in [`FIELDS`] order, then the co-borrower's, each
    ///    next to how it fits the household's ([`Profile::validate`]).
    ///
    /// A field has at most one mistake (the first check it fails), and a check that compares
    /// two fields is left out when either has one. The first mistake is the one the reader
    /// stopped at when it gave only one: `code`, `field` and `message` repeat it.
    pub fn from_json_value(value: &Value) -> Result<Profile, ScoreError> {
        Profile::from_json_value_with_digits(value, None)
    }

    /// The profile as canonical JSON (state as its ISO code, absent optionals omitted);
    /// [`Profile::from_json_value`] reads it back to an equal profile.
    pub fn to_json_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}
