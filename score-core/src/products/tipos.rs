//! What the products read and what they answer: the applicant ([`Solicitud`]) and one product's
//! offer ([`OfertaProducto`]), below the files that evaluate them (`products/mod.rs` re-exports
//! both as `score_core::products::*`).

use super::motivo::Motivo;
use crate::calibration::clave::Clave;
use crate::money;
use crate::profile::{Coacreditado, IncomeType, Institucion};
use crate::states::State;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// What the products need to know about the applicant and the co-borrower, if any. The report
/// builds it from the profile ([`Solicitud::del_perfil`], `PRODUCTS.md` section 9).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solicitud {
    /// Where the home is bought: sets the closing costs.
    pub estado: State,
    /// The applicant's monthly net income, MXN (the household's when there is no co-borrower).
    pub ingreso_mensual: Decimal,
    /// The applicant's income type.
    pub tipo_ingreso: IncomeType,
    /// Months in the current job (contribution continuity for the housing funds) or activity.
    pub antiguedad_meses: u32,
    /// Age in years; `None`: the longest term of each product.
    pub edad: Option<u32>,
    /// Non-mortgage monthly debt payments, MXN.
    pub deudas_mensuales: Decimal,
    /// Liquid savings for the down payment and closing costs, MXN.
    pub ahorro: Decimal,
    /// Housing-fund sub-account balance, MXN.
    pub subcuenta_fondo: Decimal,
    /// The housing fund the applicant contributes to. `None`: INFONAVIT for salaried and
    /// mixed incomes (most payroll workers are IMSS affiliated), none otherwise.
    pub institucion: Option<Institucion>,
    /// A co-borrower, if any: pools income for the bank products and enables Unamos Créditos.
    /// Its own debts not declared are none; its sub-account not declared is estimated as the
    /// profile's is (MODEL.md section 8), and [`Solicitud::del_perfil`] writes that estimate in.
    pub coacreditado: Option<Coacreditado>,
}

impl Solicitud {
    /// The borrowers of a validated profile. The applicant's income and debts are the
    /// household's less the co-borrower's part (debts not declared count at the typical ratio of
    /// the household's income, as capacity does, MODEL.md section 6, all of them the
    /// applicant's; `deudas` are the household's so counted, `figures::deudas_supuestas`);
    /// `subcuentas` are the applicant's and the co-borrower's declared or estimated balances
    /// (`figures::subcuentas`), each written as that borrower's `subcuenta_fondo` (the
    /// products then estimate none again); the housing fund is the declared one (else it
    /// follows the income type).
    pub(crate) fn del_perfil(profile: &crate::Profile, deudas: Decimal, subcuentas: [Decimal; 2]) -> Solicitud {
        let co = profile.coacreditado.as_ref();
        let parte = |f: fn(&Coacreditado) -> Option<Decimal>| co.and_then(f).unwrap_or(Decimal::ZERO);
        Solicitud {
            estado: profile.estado,
            ingreso_mensual: profile.ingreso_mensual - parte(|c| Some(c.ingreso_mensual)),
            tipo_ingreso: profile.tipo_ingreso,
            antiguedad_meses: profile.antiguedad_meses,
            edad: profile.edad,
            deudas_mensuales: deudas - parte(|c| c.deudas_mensuales),
            ahorro: profile.ahorro,
            subcuenta_fondo: subcuentas[0],
            institucion: profile.institucion,
            coacreditado: co.map(|co| Coacreditado { subcuenta_fondo: Some(subcuentas[1]), ..co.clone() }),
        }
    }
}

/// One product's offer: exactly the keys of issue 17, item 4. Figures are 0 when the product
/// is not available (`elegible` false, `motivos` say why); the rate, the CAT and the term still
/// describe the product's terms for this applicant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OfertaProducto {
    /// The product: its `clave` in the calibration (the built-in products' codes in the
    /// embedded one).
    pub producto: Clave,
    /// Whether the applicant qualifies (no knock-out rule applies).
    pub elegible: bool,
    /// Nominal annual rate (credit-weighted for joint credits), 4 decimals.
    #[serde(with = "money::number")]
    pub tasa_anual: Decimal,
    /// Banxico's CAT (ratio, 4 decimals): insurance and fees included. `None` when no term is
    /// left by age.
    #[serde(with = "money::option_number")]
    pub cat: Option<Decimal>,
    /// Term in whole years.
    pub plazo_anios: u32,
    /// Monthly payment including the insurance the credit requires.
    #[serde(with = "money::number")]
    pub pago_mensual: Decimal,
    /// The largest credit: from payment capacity, capped by the product's maximum.
    #[serde(with = "money::number")]
    pub credito_max: Decimal,
    /// The most expensive home the credit (and the sub-account where the product adds it) buys.
    #[serde(with = "money::number")]
    pub valor_vivienda_max: Decimal,
    /// The part of that value the buyer pays up front (0 where the fund lends without one).
    #[serde(with = "money::number")]
    pub enganche_requerido: Decimal,
    /// Transfer tax of the state, notary, registry and appraisal on that value.
    #[serde(with = "money::number")]
    pub gastos_cierre: Decimal,
    /// Every payment over the term plus the fees at signing.
    #[serde(with = "money::number")]
    pub total_pagado: Decimal,
    /// Why the product is not available, in a fixed order; empty when `elegible`.
    pub motivos: crate::report::Lista<Motivo>,
}
