//! A what-if of the report (`simulaciones`): the action, the profile changes it means and what
//! the changed profile scores. The report's types: [`crate::model::simulations`] makes them.

use super::{Nivel, Text};
use crate::money;
use crate::profile::IncomeType;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// A what-if action (`simulaciones[].accion`): something the buyer can do, simulated by
/// scoring the profile with the change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[non_exhaustive]
pub enum AccionSimulacion {
    /// Save what the down payment plus closing costs still lack.
    AhorrarEnganche,
    /// Pay down half of the declared monthly debt payments.
    PagarDeudas,
    /// Declare the debts (0 for a buyer who has none) instead of leaving them undeclared.
    DeclararDeudas,
    /// Stay in the job (or activity) until the next level, or a year more.
    SumarAntiguedad,
    /// Apply together with a second earner of the household, as co-borrower.
    SumarCoacreditado,
}

impl AccionSimulacion {
    /// Every action, in the order ties are ranked.
    pub const ALL: [AccionSimulacion; 5] =
        [Self::AhorrarEnganche, Self::PagarDeudas, Self::DeclararDeudas, Self::SumarAntiguedad, Self::SumarCoacreditado];

    /// Stable wire name, the same as its JSON form.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::AhorrarEnganche => "AHORRAR_ENGANCHE",
            Self::PagarDeudas => "PAGAR_DEUDAS",
            Self::DeclararDeudas => "DECLARAR_DEUDAS",
            Self::SumarAntiguedad => "SUMAR_ANTIGUEDAD",
            Self::SumarCoacreditado => "SUMAR_COACREDITADO",
        }
    }

    /// The Spanish sentence that describes the action (its figures are in `cambios`).
    pub const fn descripcion(self) -> &'static str {
        match self {
            Self::AhorrarEnganche => "Ahorra lo que falta para cubrir el enganche y los gastos de cierre.",
            Self::PagarDeudas => "Liquida la mitad de tus pagos mensuales de deudas.",
            Self::DeclararDeudas => {
                "Declara tus deudas mensuales; si no tienes, declara 0 (así se simula) en lugar de dejar el dato vacío."
            }
            Self::SumarAntiguedad => "Permanece en tu empleo o actividad actual más meses.",
            Self::SumarCoacreditado => {
                "Solicita el crédito junto con otra persona de tu hogar que tenga ingresos propios (cónyuge, pareja o familiar) como coacreditado; se simula que gana la mitad del ingreso del hogar, con tu tipo de ingreso, tu antigüedad y tu edad (si la declaraste)."
            }
        }
    }
}

/// A profile field a simulation changes (`cambios[].campo`), by its profile key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum CampoSimulado {
    /// `ahorro`.
    Ahorro,
    /// `deudas_mensuales`.
    DeudasMensuales,
    /// `antiguedad_meses`.
    AntiguedadMeses,
    /// `coacreditado.deudas_mensuales` (the co-borrower's part of the household's debts).
    #[serde(rename = "coacreditado.deudas_mensuales")]
    CoacreditadoDeudasMensuales,
    /// `coacreditado.ingreso_mensual` (the co-borrower's part of the household's income).
    #[serde(rename = "coacreditado.ingreso_mensual")]
    CoacreditadoIngresoMensual,
    /// `coacreditado.tipo_ingreso`.
    #[serde(rename = "coacreditado.tipo_ingreso")]
    CoacreditadoTipoIngreso,
    /// `coacreditado.antiguedad_meses`.
    #[serde(rename = "coacreditado.antiguedad_meses")]
    CoacreditadoAntiguedadMeses,
    /// `coacreditado.edad`.
    #[serde(rename = "coacreditado.edad")]
    CoacreditadoEdad,
}

impl CampoSimulado {
    /// Every field a simulation may change.
    pub const ALL: [CampoSimulado; 8] = [
        Self::Ahorro,
        Self::DeudasMensuales,
        Self::AntiguedadMeses,
        Self::CoacreditadoDeudasMensuales,
        Self::CoacreditadoIngresoMensual,
        Self::CoacreditadoTipoIngreso,
        Self::CoacreditadoAntiguedadMeses,
        Self::CoacreditadoEdad,
    ];

    /// The profile key (a co-borrower's by its path).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Ahorro => "ahorro",
            Self::DeudasMensuales => "deudas_mensuales",
            Self::AntiguedadMeses => "antiguedad_meses",
            Self::CoacreditadoDeudasMensuales => "coacreditado.deudas_mensuales",
            Self::CoacreditadoIngresoMensual => "coacreditado.ingreso_mensual",
            Self::CoacreditadoTipoIngreso => "coacreditado.tipo_ingreso",
            Self::CoacreditadoAntiguedadMeses => "coacreditado.antiguedad_meses",
            Self::CoacreditadoEdad => "coacreditado.edad",
        }
    }
}

/// One change of a simulation: a profile field before and after (`None`: the field is absent).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CambioPerfil {
    /// The profile key changed.
    pub campo: CampoSimulado,
    /// Its value in the profile scored (`None`: absent).
    pub antes: Option<ValorCampo>,
    /// Its value in the simulated profile (`None` removes the field).
    pub despues: Option<ValorCampo>,
}

/// The value of a profile field a simulation changes, as the profile writes it: a number (an
/// amount or a count of months or years), or an income type by its wire name (a simulated
/// co-borrower's `tipo_ingreso`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValorCampo {
    /// An amount, MXN, or a count.
    Numero(Decimal),
    /// An income type.
    TipoIngreso(IncomeType),
}

impl Serialize for ValorCampo {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            ValorCampo::Numero(n) => money::number::serialize(n, serializer),
            ValorCampo::TipoIngreso(t) => serializer.serialize_str(t.as_str()),
        }
    }
}

impl<'de> Deserialize<'de> for ValorCampo {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::{Error, Visitor};
        struct ValorVisitor;
        impl Visitor<'_> for ValorVisitor {
            type Value = ValorCampo;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a number or an income type")
            }
            fn visit_i64<E: Error>(self, v: i64) -> Result<ValorCampo, E> {
                money::number::NumberVisitor.visit_i64(v).map(ValorCampo::Numero)
            }
            fn visit_u64<E: Error>(self, v: u64) -> Result<ValorCampo, E> {
                money::number::NumberVisitor.visit_u64(v).map(ValorCampo::Numero)
            }
            fn visit_f64<E: Error>(self, v: f64) -> Result<ValorCampo, E> {
                money::number::NumberVisitor.visit_f64(v).map(ValorCampo::Numero)
            }
            fn visit_str<E: Error>(self, v: &str) -> Result<ValorCampo, E> {
                IncomeType::parse(v).map(ValorCampo::TipoIngreso).ok_or_else(|| E::custom(format!("not an income type: {v}")))
            }
        }
        deserializer.deserialize_any(ValorVisitor)
    }
}

/// A what-if: an action, the profile changes it means, and what scoring the changed profile
/// gives. Every figure is exactly the report of the changed profile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Simulacion {
    /// The action.
    pub accion: AccionSimulacion,
    /// Spanish sentence for the buyer.
    pub descripcion: Text,
    /// The profile changes, in profile field order.
    pub cambios: Vec<CambioPerfil>,
    /// The changed profile's score.
    pub score: u16,
    /// The changed profile's level.
    pub nivel: Nivel,
    /// The changed profile's `capacidad_compra_estimada.credito_max`.
    #[serde(with = "money::number")]
    pub credito_max: Decimal,
    /// For `SUMAR_ANTIGUEDAD` when the months alone reach the next level: how many (the months
    /// it adds); otherwise `None`.
    pub meses_para_siguiente_nivel: Option<u32>,
}
