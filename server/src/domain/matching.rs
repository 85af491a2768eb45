//! Matching (spec 4.3, `GET /api/v1/matching/{id}`): the listed properties a buyer profile can
//! reach, ranked by fit, each with the reasons it fits.
//!
//! Everything here derives from the profile's stored `platform_score` (so a result of an older
//! model version is matched with the figures the buyer was shown) and from the listing's price
//! and area. The rules, also in the OpenAPI description and `server/README.md`:
//!
//! - **Where**: properties in the profile's state (`estado`, the same ISO code), listed by an
//!   active agent (a listing without agent has nobody to receive the buyer's interest).
//! - **Sale**: price ≤ `precio_max_venta` = the smallest of `valor_realista` (what the model says
//!   the buyer can realistically afford), `credito_max + enganche_disponible` (credit plus the
//!   money on hand) and `enganche_disponible ÷ (1 − ltv)` (the price whose required down payment
//!   the buyer can cover at the model's loan-to-value). `limite_venta` names the binding one.
//! - **Rent**: monthly rent ≤ `renta_max_mensual` = `pago_mensual_estimado`, the housing payment
//!   the model found affordable (the same payment capacity that backs the credit).
//! - **Fit** (`ajuste`, 0..100) = 70% price fit + 30% space fit. Price fit peaks at 80% use of
//!   the ceiling (100), falls linearly to 75 at the ceiling and to 0 at a price of 0: using about
//!   four fifths of one's reach leaves room for closing costs and rate changes without wasting
//!   capacity. Space fit is the area as a share of the CONAVI core dwelling for the household
//!   (`m2_minimo_nucleo`), capped at 100. Ties: higher price first, then id.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::{
    db::{
        Db,
        sql::{Arg, Sql},
    },
    domain::{
        agents::round2,
        buyers::BuyerRow,
        properties::{PROPERTY_COLUMNS, PropertyRow, PropertyView},
    },
    http::{
        paging::{Pagination, Paging},
    },
};
use crate::domain::error::{DomainError, DomainResult};

/// Share of the ceiling at which the price fit is highest.
const IDEAL_USE: f64 = 0.8;
/// Weight of the price fit in `ajuste` (the space fit has the rest).
const PRICE_WEIGHT: f64 = 0.7;

/// The figures of a stored `capacidad_compra_estimada` that matching needs.
#[derive(Debug, Clone, Deserialize)]
struct Capacity {
    valor_realista: f64,
    credito_max: f64,
    enganche_disponible: f64,
    ltv: f64,
    pago_mensual_estimado: f64,
    m2_minimo_nucleo: f64,
}

#[derive(Debug, Deserialize)]
struct StoredReport {
    capacidad_compra_estimada: Capacity,
}

/// Which limit sets `precio_max_venta`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum SaleLimit {
    /// `valor_realista` of the report.
    ValorRealista,
    /// Credit plus the money on hand.
    CreditoMasEnganche,
    /// The down payment the buyer can cover at the model's loan-to-value.
    Enganche,
}

/// The ceilings a profile is matched against (returned as `criterios`).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Criteria {
    /// ISO 3166-2:MX code (without `MX-`) of the profile's state.
    pub estado: String,
    /// Highest sale price the buyer can reach, MXN (0: no sale matches).
    pub precio_max_venta: f64,
    pub limite_venta: SaleLimit,
    /// Highest monthly rent, MXN (`pago_mensual_estimado`).
    pub renta_max_mensual: f64,
    pub valor_realista: f64,
    pub credito_max: f64,
    pub enganche_disponible: f64,
    pub ltv: f64,
    pub pago_mensual_estimado: f64,
    /// Core dwelling area for the household, m².
    pub m2_minimo_nucleo: f64,
    /// Model version of the report the ceilings come from.
    pub modelo_version: String,
}

impl Criteria {
    /// The ceilings of a stored report. `None` when the report lacks a figure matching needs
    /// (a hypothetical older format); the caller then rescores the stored profile.
    pub fn from_report(report: &Value, estado: &str, modelo_version: &str) -> Option<Criteria> {
        let c = StoredReport::deserialize(report).ok()?.capacidad_compra_estimada;
        let by_down_payment = if c.ltv < 1.0 {
            c.enganche_disponible / (1.0 - c.ltv)
        } else {
            f64::INFINITY
        };
        let candidates = [
            (c.valor_realista, SaleLimit::ValorRealista),
            (c.credito_max + c.enganche_disponible, SaleLimit::CreditoMasEnganche),
            (by_down_payment, SaleLimit::Enganche),
        ];
        let (ceiling, limit) = candidates
            .into_iter()
            .fold((f64::INFINITY, SaleLimit::ValorRealista), |best, c| if c.0 < best.0 { c } else { best });
        Some(Criteria {
            estado: estado.to_string(),
            precio_max_venta: round2(ceiling.max(0.0)),
            limite_venta: limit,
            renta_max_mensual: round2(c.pago_mensual_estimado.max(0.0)),
            valor_realista: c.valor_realista,
            credito_max: c.credito_max,
            enganche_disponible: c.enganche_disponible,
            ltv: c.ltv,
            pago_mensual_estimado: c.pago_mensual_estimado,
            m2_minimo_nucleo: c.m2_minimo_nucleo,
            modelo_version: modelo_version.to_string(),
        })
    }

    fn ceiling(&self, operation: &str) -> f64 {
        if operation == "sale" { self.precio_max_venta } else { self.renta_max_mensual }
    }

    /// `ajuste` of a listing, 0..100 (the same formula orders the SQL query).
    pub fn fit(&self, operation: &str, price: f64, m2: f64) -> u8 {
        let ceiling = self.ceiling(operation);
        if ceiling <= 0.0 {
            return 0;
        }
        let price_fit = (100.0 - 100.0 / IDEAL_USE * (price / ceiling - IDEAL_USE).abs()).max(0.0);
        let space_fit = if self.m2_minimo_nucleo > 0.0 {
            (100.0 * m2 / self.m2_minimo_nucleo).min(100.0)
        } else {
            100.0
        };
        (PRICE_WEIGHT * price_fit + (1.0 - PRICE_WEIGHT) * space_fit).round().clamp(0.0, 100.0) as u8
    }

    /// The financial figures of buying or renting this listing.
    pub fn finances(&self, operation: &str, price: f64) -> Finances {
        let ceiling = self.ceiling(operation);
        let uso_capacidad = if ceiling > 0.0 { round4(price / ceiling) } else { 0.0 };
        if operation != "sale" {
            return Finances { uso_capacidad, enganche_requerido: None, credito_necesario: None, pago_mensual_estimado: round2(price) };
        }
        // The least the buyer must put down: the model's down payment share, or more when the
        // credit does not reach the rest.
        let down = (price * (1.0 - self.ltv)).max(price - self.credito_max).max(0.0);
        let credit = price - down;
        // The annuity is linear in the principal, so the payment scales with the report's.
        let payment = if self.credito_max > 0.0 { credit * self.pago_mensual_estimado / self.credito_max } else { 0.0 };
        Finances {
            uso_capacidad,
            enganche_requerido: Some(round2(down)),
            credito_necesario: Some(round2(credit)),
            pago_mensual_estimado: round2(payment),
        }
    }

    /// Why a listing fits, and what to keep in mind.
    pub fn reasons(&self, p: &PropertyView, f: &Finances) -> (Vec<Reason>, Vec<Reason>) {
        let mut why = vec![Reason::new(
            "MISMO_ESTADO",
            format!("Está en {}, el estado de tu perfil.", p.estado_nombre),
        )];
        if p.operation == "sale" {
            why.push(Reason::new(
                "PRECIO_EN_CAPACIDAD",
                format!(
                    "Su precio de {} está dentro de tu capacidad de compra de {} ({}% de ella).",
                    mxn(p.price),
                    mxn(self.precio_max_venta),
                    percent(f.uso_capacidad)
                ),
            ));
            if let Some(down) = f.enganche_requerido {
                why.push(Reason::new(
                    "ENGANCHE_CUBIERTO",
                    format!(
                        "Tu enganche disponible de {} cubre el enganche de {} que requiere.",
                        mxn(self.enganche_disponible),
                        mxn(down)
                    ),
                ));
            }
            if let Some(credit) = f.credito_necesario.filter(|c| *c > 0.0) {
                why.push(Reason::new(
                    "PAGO_EN_CAPACIDAD",
                    format!(
                        "Un crédito de {} implica un pago estimado de {} al mes, dentro de tu capacidad de pago de {}.",
                        mxn(credit),
                        mxn(f.pago_mensual_estimado),
                        mxn(self.pago_mensual_estimado)
                    ),
                ));
            }
        } else {
            why.push(Reason::new(
                "RENTA_EN_PRESUPUESTO",
                format!(
                    "Su renta de {} al mes está dentro de tu presupuesto de vivienda de {} ({}% de él).",
                    mxn(p.price),
                    mxn(self.renta_max_mensual),
                    percent(f.uso_capacidad)
                ),
            ));
        }
        let mut caveats = Vec::new();
        if self.m2_minimo_nucleo > 0.0 && p.m2 >= self.m2_minimo_nucleo {
            why.push(Reason::new(
                "ESPACIO_SUFICIENTE",
                format!("Sus {} m² alcanzan los {} m² mínimos para tu hogar.", area(p.m2), area(self.m2_minimo_nucleo)),
            ));
        } else if self.m2_minimo_nucleo > 0.0 {
            caveats.push(Reason::new(
                "ESPACIO_REDUCIDO",
                format!("Sus {} m² quedan por debajo de los {} m² mínimos para tu hogar.", area(p.m2), area(self.m2_minimo_nucleo)),
            ));
        }
        if f.uso_capacidad > 0.95 {
            caveats.push(Reason::new(
                "CERCA_DEL_LIMITE",
                "Su precio está muy cerca de tu límite: considera gastos de cierre e imprevistos.".to_string(),
            ));
        }
        (why, caveats)
    }
}

/// A reason with a stable code and a Spanish text.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Reason {
    /// `MISMO_ESTADO`, `PRECIO_EN_CAPACIDAD`, `ENGANCHE_CUBIERTO`, `PAGO_EN_CAPACIDAD`,
    /// `RENTA_EN_PRESUPUESTO`, `ESPACIO_SUFICIENTE`; caveats `ESPACIO_REDUCIDO`, `CERCA_DEL_LIMITE`.
    pub codigo: &'static str,
    pub texto: String,
}

impl Reason {
    fn new(codigo: &'static str, texto: String) -> Reason {
        Reason { codigo, texto }
    }
}

/// What buying or renting a listing means for this buyer.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Finances {
    /// Price as a share of the ceiling of its operation (0..1).
    pub uso_capacidad: f64,
    /// Sale: the least down payment (the model's share, or more when credit falls short).
    pub enganche_requerido: Option<f64>,
    /// Sale: the credit for the rest of the price.
    pub credito_necesario: Option<f64>,
    /// Sale: the estimated monthly payment of that credit; rent: the rent.
    pub pago_mensual_estimado: f64,
}

/// One matching listing.
#[derive(Debug, Serialize, ToSchema)]
pub struct Match {
    /// Fit, 0..100 (see `criterios` and the endpoint description).
    pub ajuste: u8,
    pub propiedad: PropertyView,
    pub finanzas: Finances,
    pub motivos: Vec<Reason>,
    pub advertencias: Vec<Reason>,
}

/// `data` of `GET /api/v1/matching/{id}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct MatchPage {
    pub perfil_id: String,
    pub criterios: Criteria,
    pub propiedades: Vec<Match>,
    pub pagination: Pagination,
}

/// The page of listings that fit `criteria`, best first; `operation` is `sale`, `rent` or
/// `None` for both.
pub async fn find(db: &Db, criteria: &Criteria, operation: Option<&str>, paging: Paging) -> DomainResult<(Vec<Match>, i64)> {
    let where_clause = |sql: &mut Sql| {
        sql.push(" FROM properties p JOIN agent_profiles a ON a.id = p.agent_id AND a.is_active = 1 WHERE p.estado = ");
        sql.bind_text(&criteria.estado);
        let mut branches = Vec::new();
        for op in ["sale", "rent"] {
            if operation.is_none_or(|o| o == op) && criteria.ceiling(op) > 0.0 {
                branches.push(op);
            }
        }
        if branches.is_empty() {
            sql.push(" AND 1 = 0");
            return;
        }
        sql.push(" AND (");
        for (i, op) in branches.iter().enumerate() {
            sql.push(if i == 0 { "(p.operation = " } else { " OR (p.operation = " });
            sql.bind_text(*op);
            sql.push(" AND p.price <= ");
            sql.bind(Arg::Real(criteria.ceiling(op)));
            sql.push(")");
        }
        sql.push(")");
    };

    let mut count = Sql::new("SELECT COUNT(*)");
    where_clause(&mut count);
    let total: i64 = count.query_as::<(i64,)>().fetch_one(db).await?.0;

    let columns: String = PROPERTY_COLUMNS.split(',').map(|c| format!("p.{}", c.trim())).collect::<Vec<_>>().join(", ");
    let mut page = Sql::new(&format!("SELECT {columns}"));
    where_clause(&mut page);
    // The fit of `Criteria::fit`, in SQL, so the database orders and pages. Matching prices
    // are in (0, ceiling], so the price fit needs no clamp at 0 here.
    let safe = |v: f64| if v > 0.0 { v } else { 1.0 };
    page.push(" ORDER BY ");
    page.bind(Arg::Real(PRICE_WEIGHT));
    page.push(" * (100 - ");
    page.bind(Arg::Real(100.0 / IDEAL_USE));
    page.push(" * ABS(p.price / (CASE WHEN p.operation = 'sale' THEN ");
    page.bind(Arg::Real(safe(criteria.precio_max_venta)));
    page.push(" ELSE ");
    page.bind(Arg::Real(safe(criteria.renta_max_mensual)));
    page.push(" END) - ");
    page.bind(Arg::Real(IDEAL_USE));
    page.push(")) + ");
    page.bind(Arg::Real(1.0 - PRICE_WEIGHT));
    page.push(" * (CASE WHEN p.m2 >= ");
    page.bind(Arg::Real(safe(criteria.m2_minimo_nucleo)));
    page.push(" THEN 100 ELSE 100 * p.m2 / ");
    page.bind(Arg::Real(safe(criteria.m2_minimo_nucleo)));
    page.push(" END) DESC, p.price DESC, p.id LIMIT ");
    page.bind(Arg::Int(paging.limit));
    page.push(" OFFSET ");
    page.bind(Arg::Int(paging.offset()));
    let rows: Vec<PropertyRow> = page.query_as::<PropertyRow>().fetch_all(db).await?;

    let matches = rows
        .iter()
        .map(|row| {
            let propiedad = row.view();
            let finanzas = criteria.finances(&row.operation, row.price);
            let (motivos, advertencias) = criteria.reasons(&propiedad, &finanzas);
            Match { ajuste: criteria.fit(&row.operation, row.price, row.m2), propiedad, finanzas, motivos, advertencias }
        })
        .collect();
    Ok((matches, total))
}

/// The ceilings of a stored profile: from its stored report (the figures the buyer was shown,
/// whatever model version produced them), or, if that report lacks a figure matching needs,
/// from the stored profile rescored by the current model (`criterios.modelo_version` says which).
pub fn criteria_of(row: &BuyerRow) -> DomainResult<Criteria> {
    let stored: Value = serde_json::from_str(&row.report_json).map_err(DomainError::internal)?;
    if let Some(c) = Criteria::from_report(&stored, &row.estado, &row.model_version) {
        return Ok(c);
    }
    let report = serde_json::to_value(crate::domain::buyers::score_profile(&row.profile_json)?.report).map_err(DomainError::internal)?;
    Criteria::from_report(&report, &row.estado, score_core::MODEL_VERSION)
        .ok_or_else(|| DomainError::internal("the current report lacks the matching figures"))
}

/// The `operation` filter: `sale`, `rent` or absent.
pub fn parse_operation(v: Option<&str>) -> DomainResult<Option<&str>> {
    match v {
        None => Ok(None),
        Some(op @ ("sale" | "rent")) => Ok(Some(op)),
        Some(_) => Err(DomainError::bad_request("INVALID_QUERY", "El parámetro operation debe ser sale o rent")
            .with("field", "operation")),
    }
}

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

fn percent(share: f64) -> String {
    format!("{:.0}", share * 100.0)
}

fn area(m2: f64) -> String {
    if m2.fract() == 0.0 { format!("{m2:.0}") } else { format!("{m2:.1}") }
}

/// Whole pesos with thousands separators, as Mexican listings show them: `$1,250,000`.
pub fn mxn(amount: f64) -> String {
    let pesos = amount.round().abs() as u64;
    let digits = pesos.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 2);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    format!("{}${out}", if amount < -0.5 { "-" } else { "" })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    fn criteria(valor_realista: f64, credito: f64, enganche: f64, ltv: f64) -> Criteria {
        let report = json!({"capacidad_compra_estimada": {
            "valor_realista": valor_realista, "credito_max": credito, "enganche_disponible": enganche,
            "ltv": ltv, "pago_mensual_estimado": 9000.0, "m2_minimo_nucleo": 45.0
        }});
        Criteria::from_report(&report, "CMX", "2.1").unwrap()
    }

    #[test]
    fn the_smallest_ceiling_binds_and_is_named() {
        let c = criteria(1_000_000.0, 900_000.0, 200_000.0, 0.9);
        assert_eq!((c.precio_max_venta, c.limite_venta), (1_000_000.0, SaleLimit::ValorRealista));
        let c = criteria(1_000_000.0, 700_000.0, 200_000.0, 0.9);
        assert_eq!((c.precio_max_venta, c.limite_venta), (900_000.0, SaleLimit::CreditoMasEnganche));
        let c = criteria(1_000_000.0, 900_000.0, 50_000.0, 0.9);
        assert_eq!((c.precio_max_venta, c.limite_venta), (500_000.0, SaleLimit::Enganche));
        let c = criteria(1_000_000.0, 900_000.0, 0.0, 0.9);
        assert_eq!(c.precio_max_venta, 0.0);
        assert_eq!(c.renta_max_mensual, 9000.0);
        assert!(Criteria::from_report(&json!({"score": 1}), "CMX", "1.0").is_none());
    }

    #[test]
    fn fit_peaks_at_four_fifths_of_the_ceiling_and_rewards_space() {
        let c = criteria(1_000_000.0, 900_000.0, 200_000.0, 0.9);
        assert_eq!(c.fit("sale", 800_000.0, 45.0), 100);
        assert_eq!(c.fit("sale", 1_000_000.0, 45.0), 83); // 0.7 × 75 + 30
        assert_eq!(c.fit("sale", 400_000.0, 45.0), 65); // 0.7 × 50 + 30
        assert_eq!(c.fit("sale", 800_000.0, 22.5), 85); // 70 + 0.3 × 50
        assert!(c.fit("sale", 790_000.0, 45.0) > c.fit("sale", 500_000.0, 45.0));
        assert_eq!(c.fit("rent", 7_200.0, 60.0), 100);
    }

    #[test]
    fn sale_finances_cover_the_down_payment_and_scale_the_payment() {
        let c = criteria(1_000_000.0, 900_000.0, 200_000.0, 0.9);
        let f = c.finances("sale", 800_000.0);
        assert_eq!(f.enganche_requerido, Some(80_000.0));
        assert_eq!(f.credito_necesario, Some(720_000.0));
        assert_eq!(f.pago_mensual_estimado, 7_200.0); // 720k / 900k of 9,000
        assert_eq!(f.uso_capacidad, 0.8);
        // Credit falls short: the buyer puts down more than the model's share.
        let c = criteria(1_000_000.0, 700_000.0, 200_000.0, 0.9);
        assert_eq!(c.finances("sale", 900_000.0).enganche_requerido, Some(200_000.0));
    }

    #[test]
    fn pesos_read_like_a_listing() {
        assert_eq!(mxn(1_250_000.4), "$1,250,000");
        assert_eq!(mxn(999.5), "$1,000");
        assert_eq!(mxn(0.0), "$0");
        assert_eq!(mxn(-1234.0), "-$1,234");
    }
}
