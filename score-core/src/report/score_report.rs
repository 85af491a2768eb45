//! The whole report, [`ScoreReport`]: the report's own parts ([`crate::report`]), the credit
//! products' offers ([`crate::products`]) and the what-ifs. It sits above the products, whose
//! offers it carries; every other report type is below them.

use super::*;
use super::simulacion::Simulacion;
use crate::money;
use crate::products::{Clave, OfertaProducto};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// The full report (`platform_score`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScoreReport {
    /// 0..=1000.
    pub score: u16,
    /// Level of the score.
    pub nivel: Nivel,
    /// Purchasing capacity.
    pub capacidad_compra_estimada: CapacidadCompra,
    /// Financial health.
    pub salud_financiera: SaludFinanciera,
    /// Recommendation texts, most important first (spec: array of strings).
    pub recomendaciones: Vec<Text>,
    /// The score is indicative, not a credit approval.
    pub disclaimer: Text,
    /// Legacy key: equals capacidad_compra_estimada.valor_bancario.
    #[serde(with = "money::number")]
    pub valor_vivienda_max: Decimal,
    /// Legacy key: equals capacidad_compra_estimada.credito_max.
    #[serde(with = "money::number")]
    pub credito_max: Decimal,
    /// Legacy key: equals capacidad_compra_estimada.enganche_requerido.
    #[serde(with = "money::number")]
    pub enganche_min: Decimal,
    /// Legacy key: equals capacidad_compra_estimada.pago_mensual_estimado.
    #[serde(with = "money::number")]
    pub pago_mensual_estimado: Decimal,
    /// Legacy key: equals capacidad_compra_estimada.renta_equivalente.
    #[serde(with = "money::number")]
    pub renta_estimada: Decimal,
    /// Additive: model version that produced this report ("2.1": the spec's formula and weights).
    pub modelo_version: Text,
    /// Additive: the calibration (curves, tables, products) that produced this report.
    pub calibracion: Text,
    /// Additive: the state scored.
    pub estado: EstadoReporte,
    /// Additive: the six components, so the score can be explained.
    pub componentes: Componentes,
    /// Additive: the recommendations with their stable codes (same order as recomendaciones).
    pub recomendaciones_detalle: Vec<Recomendacion>,
    /// Additive: the verdict, separate from the score.
    pub dictamen: Dictamen,
    /// Additive: up to four what-if actions, most score gained first (empty when a batch turns
    /// simulations off). Absent in reports stored before it existed.
    #[serde(default)]
    pub simulaciones: Vec<Simulacion>,
    /// Additive: what each housing-credit product of the calibration (INFONAVIT, FOVISSSTE, each
    /// bank mortgage, INFONAVIT plus a bank, Unamos Créditos) would lend this buyer under its own
    /// rules, in that order (`PRODUCTS.md`). Absent in reports stored before it existed.
    #[serde(default)]
    pub productos: Vec<OfertaProducto>,
    /// Additive: the `clave` of the product recommended among the available ones; null when
    /// none is.
    #[serde(default)]
    pub producto_recomendado: Option<Clave>,
}
