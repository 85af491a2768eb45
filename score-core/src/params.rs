//! Every constant and curve of score model v2.1, in one place.
//!
//! `MODEL.md` documents each of them with its source and date (or marks it as an estimate
//! with its reasoning); the test `model_doc` parses that document and fails when a value here
//! and a value there disagree. Change both together.

use crate::curve::{Curve, curve};
use rust_decimal::Decimal;

/// `Decimal` from a mantissa and a scale at compile time: `dec(1165, 4)` is 0.1165.
pub(crate) const fn dec(mantissa: u64, scale: u32) -> Decimal {
    dec128(mantissa as u128, scale)
}

/// `Decimal` from a 96-bit mantissa and a scale at compile time.
pub(crate) const fn dec128(mantissa: u128, scale: u32) -> Decimal {
    assert!(scale <= 28 && mantissa < (1u128 << 96), "invalid decimal constant");
    Decimal::from_parts(mantissa as u32, (mantissa >> 32) as u32, (mantissa >> 64) as u32, false, scale)
}

// ---- Score weights (spec 2.6) -------------------------------------------------------------

/// Weight of the income component.
pub const PESO_INGRESO: Decimal = dec(35, 2);
/// Weight of the income-type component.
pub const PESO_TIPO_INGRESO: Decimal = dec(12, 2);
/// Weight of the seniority component.
pub const PESO_ANTIGUEDAD: Decimal = dec(18, 2);
/// Weight of the debts component.
pub const PESO_DEUDAS: Decimal = dec(15, 2);
/// Weight of the savings component.
pub const PESO_AHORRO: Decimal = dec(10, 2);
/// Weight of the financial-health (ISFH) component.
pub const PESO_SALUD_FINANCIERA: Decimal = dec(10, 2);
/// The weighted sum of 0..100 components is multiplied by this to reach 0..1000.
pub const ESCALA_SCORE: Decimal = dec(10, 0);

// ---- Component curves (MODEL.md section "Curves") -------------------------------------------

/// Monthly household net income over the household's decent cost of living in its state
/// (`costo_vida_digno`, section 5 of MODEL.md) to income points: income measured against the
/// household's needs where it lives, not in pesos alone. An income that does not cover that cost
/// (ratio below 1) earns at most 12 points, so such a profile cannot score above 600.
pub const CURVA_INGRESO: Curve = curve![
    (dec(5, 1), dec(0, 0)),
    (dec(1, 0), dec(12, 0)),
    (dec(15, 1), dec(52, 0)),
    (dec(25, 1), dec(70, 0)),
    (dec(4, 0), dec(85, 0)),
    (dec(55, 1), dec(93, 0)),
    (dec(75, 1), dec(100, 0)),
];

/// Months in the current job (salaried, mixed, pensioner) to seniority points.
pub const CURVA_ANTIGUEDAD_ASALARIADO: Curve = curve![
    (dec(0, 0), dec(0, 0)),
    (dec(3, 0), dec(20, 0)),
    (dec(6, 0), dec(40, 0)),
    (dec(12, 0), dec(60, 0)),
    (dec(18, 0), dec(70, 0)),
    (dec(24, 0), dec(80, 0)),
    (dec(36, 0), dec(90, 0)),
    (dec(60, 0), dec(100, 0)),
];

/// Months in the current activity (self-employed) to seniority points.
pub const CURVA_ANTIGUEDAD_INDEPENDIENTE: Curve = curve![
    (dec(0, 0), dec(0, 0)),
    (dec(3, 0), dec(5, 0)),
    (dec(6, 0), dec(10, 0)),
    (dec(12, 0), dec(25, 0)),
    (dec(18, 0), dec(40, 0)),
    (dec(24, 0), dec(60, 0)),
    (dec(36, 0), dec(80, 0)),
    (dec(60, 0), dec(100, 0)),
];

/// Declared non-mortgage monthly debt payments over monthly income (DTI) to debt points.
pub const CURVA_DEUDAS: Curve = curve![
    (dec(0, 0), dec(100, 0)),
    (dec(5, 2), dec(95, 0)),
    (dec(10, 2), dec(85, 0)),
    (dec(15, 2), dec(75, 0)),
    (dec(20, 2), dec(60, 0)),
    (dec(30, 2), dec(40, 0)),
    (dec(40, 2), dec(20, 0)),
    (dec(50, 2), dec(5, 0)),
    (dec(60, 2), dec(0, 0)),
];

/// Debt points when no debts are declared (`deudas_mensuales` absent or null): neutral.
pub const PUNTOS_DEUDAS_NO_DECLARADAS: Decimal = dec(75, 0);
/// Debt payments over income assumed for capacity and financial health when debts are not
/// declared: the average of indebted Mexican households, 17% of monthly cash income (INEGI and
/// Banco de México, ENFIH 2019, as reported 2021-11-05). The Debts component stays neutral.
pub const PROPORCION_DEUDAS_NO_DECLARADAS: Decimal = dec(17, 2);

/// Savings over annual income to savings points.
pub const CURVA_AHORRO: Curve = curve![
    (dec(0, 0), dec(0, 0)),
    (dec(10, 2), dec(25, 0)),
    (dec(25, 2), dec(50, 0)),
    (dec(50, 2), dec(75, 0)),
    (dec(100, 2), dec(95, 0)),
    (dec(150, 2), dec(100, 0)),
];

/// Income over the household's decent cost of living to the most savings points it can earn:
/// savings count in full only when the income covers the household's decent cost of living, and
/// not at all below half of it, so savings cannot lift a profile with almost no income.
pub const CURVA_AHORRO_COBERTURA: Curve = curve![(dec(5, 1), dec(0, 0)), (dec(1, 0), dec(100, 0))];

/// Financial-health ratio (income left after cost of living and debts, over income) to points.
pub const CURVA_SALUD_FINANCIERA: Curve = curve![
    (dec(0, 0), dec(0, 0)),
    (dec(10, 2), dec(25, 0)),
    (dec(20, 2), dec(45, 0)),
    (dec(30, 2), dec(65, 0)),
    (dec(45, 2), dec(85, 0)),
    (dec(60, 2), dec(100, 0)),
];

// ---- Income types ------------------------------------------------------------------------

/// Income-type points of a salaried (payroll) buyer.
pub const PUNTOS_TIPO_ASALARIADO: Decimal = dec(100, 0);
/// Income-type points of a buyer with salary plus independent income.
pub const PUNTOS_TIPO_MIXTO: Decimal = dec(80, 0);
/// Income-type points of a pensioner.
pub const PUNTOS_TIPO_PENSIONADO: Decimal = dec(80, 0);
/// Income-type points of a self-employed buyer.
pub const PUNTOS_TIPO_INDEPENDIENTE: Decimal = dec(60, 0);

// ---- Cost of living and financial health ---------------------------------------------------

/// Urban income poverty line (LPI), MXN per person per month, December 2025.
pub const LINEA_POBREZA_URBANA: Decimal = dec(481814, 2);
/// Persons per household when `personas_hogar` is not given (ENIGH 2024 mean).
pub const PERSONAS_HOGAR_DEFAULT: Decimal = dec(335, 2);
/// Lower clamp of `factor_platform_v2`.
pub const FACTOR_MIN: Decimal = dec(70, 2);
/// Upper clamp of `factor_platform_v2`.
pub const FACTOR_MAX: Decimal = dec(130, 2);

// ---- Credit capacity -----------------------------------------------------------------------

/// Maximum mortgage payment over monthly income (front-end PTI).
pub const PTI_MAX: Decimal = dec(30, 2);
/// Maximum mortgage plus other debt payments over monthly income (back-end DTI).
pub const DTI_TOTAL_MAX: Decimal = dec(40, 2);
/// One monthly general minimum wage of 2026, 315.04 x 365 / 12 to the centavo (CONASAMI via El
/// Economista 2025-12-03): below it (and with no product available) the verdict knocks out.
pub const INGRESO_MINIMO: Decimal = dec(958_247, 2);
/// The bank mortgage's nominal annual rate (PRODUCTS.md section 2.3).
pub const TASA_ANUAL: Decimal = dec(1154, 4);
/// The bank mortgage's longest term, in years.
pub const PLAZO_MAX_ANIOS: Decimal = dec(20, 0);
/// Age plus term may not exceed this (years).
pub const EDAD_MAX_FIN_PLAZO: Decimal = dec(75, 0);
/// Loan-to-value for salaried, mixed-income and pensioner buyers.
pub const LTV_ASALARIADO: Decimal = dec(90, 2);
/// Loan-to-value for self-employed buyers.
pub const LTV_INDEPENDIENTE: Decimal = dec(80, 2);
/// Gross annual rental yield, for the equivalent rent.
pub const RENDIMIENTO_RENTA_ANUAL: Decimal = dec(55, 3);

// ---- Housing-fund sub-account estimate -----------------------------------------------------

/// Employer contribution to the housing fund over the contribution salary.
pub const APORTACION_FONDO: Decimal = dec(5, 2);
/// UMA daily value from February 2026, MXN.
pub const UMA_DIARIA: Decimal = dec(11731, 2);
/// Contribution-salary ceiling in UMAs.
pub const TOPE_SBC_UMAS: Decimal = dec(25, 0);
/// Days per month used to turn daily figures into monthly ones.
pub const DIAS_POR_MES: Decimal = dec(304, 1);
/// Monthly contribution-salary ceiling: `TOPE_SBC_UMAS x UMA_DIARIA x DIAS_POR_MES`, written
/// out because `Decimal` cannot multiply in a constant (the test `derived_constants` checks it).
pub const TOPE_SALARIO_MENSUAL: Decimal = dec(891556, 1);
/// At most this many months of contributions are counted.
pub const MESES_FONDO_MAX: Decimal = dec(360, 0);
/// Share of a mixed income taken as the payroll part.
pub const PROPORCION_SALARIO_MIXTO: Decimal = dec(50, 2);

// ---- Core dwelling and labels --------------------------------------------------------------

/// Useful area of a one-bedroom core dwelling (CONAVI component minimums), m².
pub const M2_NUCLEO_BASE: Decimal = dec(31, 0);
/// Area added per extra bedroom, m².
pub const M2_POR_DORMITORIO_EXTRA: Decimal = dec(9, 0);
/// Walls and circulation over useful area.
pub const FACTOR_MUROS_CIRCULACION: Decimal = dec(120, 2);
/// Persons per bedroom.
pub const PERSONAS_POR_DORMITORIO: Decimal = dec(2, 0);
/// `evaluacion_m2` is ADECUADO from this multiple of the core area.
pub const UMBRAL_M2_ADECUADO: Decimal = dec(125, 2);
/// `evaluacion_m2` is HOLGADO from this multiple of the core area.
pub const UMBRAL_M2_HOLGADO: Decimal = dec(175, 2);
/// `estatus_enganche` is PARCIAL from this share of the required down payment.
pub const UMBRAL_ENGANCHE_PARCIAL: Decimal = dec(50, 2);
/// Components below this value produce a recommendation.
pub const UMBRAL_RECOMENDACION: Decimal = dec(70, 0);
/// At most this many component recommendations are given.
pub const MAX_RECOMENDACIONES_COMPONENTE: Decimal = dec(3, 0);

// ---- Input plausibility --------------------------------------------------------------------

/// The smallest amount other than 0: one centavo. An amount above 0 and below it (income,
/// debts, savings, sub-account) is refused on every path, since no peso figure is smaller.
pub const MONTO_MINIMO: Decimal = dec(1, 2);
/// Ceiling for monthly amounts (income, debts): 100 million MXN a month.
pub const MONTO_MENSUAL_MAX: Decimal = dec(100_000_000, 0);
/// Ceiling for balances (savings, fund sub-account): 10 billion MXN.
pub const SALDO_MAX: Decimal = dec(10_000_000_000, 0);
/// Longest seniority accepted, months (60 years).
pub const ANTIGUEDAD_MAX_MESES: Decimal = dec(720, 0);
/// Youngest accepted age, years.
pub const EDAD_MIN: Decimal = dec(18, 0);
/// Oldest accepted age, years.
pub const EDAD_MAX: Decimal = dec(100, 0);
/// Largest accepted household, persons.
pub const PERSONAS_HOGAR_MAX: Decimal = dec(20, 0);

/// Every named scalar above, for the MODEL.md agreement test and for documentation tools.
pub const PARAMETERS: &[(&str, Decimal)] = &[
    ("PESO_INGRESO", PESO_INGRESO),
    ("PESO_TIPO_INGRESO", PESO_TIPO_INGRESO),
    ("PESO_ANTIGUEDAD", PESO_ANTIGUEDAD),
    ("PESO_DEUDAS", PESO_DEUDAS),
    ("PESO_AHORRO", PESO_AHORRO),
    ("PESO_SALUD_FINANCIERA", PESO_SALUD_FINANCIERA),
    ("ESCALA_SCORE", ESCALA_SCORE),
    ("PUNTOS_DEUDAS_NO_DECLARADAS", PUNTOS_DEUDAS_NO_DECLARADAS),
    ("PROPORCION_DEUDAS_NO_DECLARADAS", PROPORCION_DEUDAS_NO_DECLARADAS),
    ("PUNTOS_TIPO_ASALARIADO", PUNTOS_TIPO_ASALARIADO),
    ("PUNTOS_TIPO_MIXTO", PUNTOS_TIPO_MIXTO),
    ("PUNTOS_TIPO_PENSIONADO", PUNTOS_TIPO_PENSIONADO),
    ("PUNTOS_TIPO_INDEPENDIENTE", PUNTOS_TIPO_INDEPENDIENTE),
    ("LINEA_POBREZA_URBANA", LINEA_POBREZA_URBANA),
    ("PERSONAS_HOGAR_DEFAULT", PERSONAS_HOGAR_DEFAULT),
    ("FACTOR_MIN", FACTOR_MIN),
    ("FACTOR_MAX", FACTOR_MAX),
    ("PTI_MAX", PTI_MAX),
    ("DTI_TOTAL_MAX", DTI_TOTAL_MAX),
    ("INGRESO_MINIMO", INGRESO_MINIMO),
    ("TASA_ANUAL", TASA_ANUAL),
    ("PLAZO_MAX_ANIOS", PLAZO_MAX_ANIOS),
    ("EDAD_MAX_FIN_PLAZO", EDAD_MAX_FIN_PLAZO),
    ("LTV_ASALARIADO", LTV_ASALARIADO),
    ("LTV_INDEPENDIENTE", LTV_INDEPENDIENTE),
    ("RENDIMIENTO_RENTA_ANUAL", RENDIMIENTO_RENTA_ANUAL),
    ("APORTACION_FONDO", APORTACION_FONDO),
    ("UMA_DIARIA", UMA_DIARIA),
    ("TOPE_SBC_UMAS", TOPE_SBC_UMAS),
    ("DIAS_POR_MES", DIAS_POR_MES),
    ("MESES_FONDO_MAX", MESES_FONDO_MAX),
    ("PROPORCION_SALARIO_MIXTO", PROPORCION_SALARIO_MIXTO),
    ("M2_NUCLEO_BASE", M2_NUCLEO_BASE),
    ("M2_POR_DORMITORIO_EXTRA", M2_POR_DORMITORIO_EXTRA),
    ("FACTOR_MUROS_CIRCULACION", FACTOR_MUROS_CIRCULACION),
    ("PERSONAS_POR_DORMITORIO", PERSONAS_POR_DORMITORIO),
    ("UMBRAL_M2_ADECUADO", UMBRAL_M2_ADECUADO),
    ("UMBRAL_M2_HOLGADO", UMBRAL_M2_HOLGADO),
    ("UMBRAL_ENGANCHE_PARCIAL", UMBRAL_ENGANCHE_PARCIAL),
    ("UMBRAL_RECOMENDACION", UMBRAL_RECOMENDACION),
    ("MAX_RECOMENDACIONES_COMPONENTE", MAX_RECOMENDACIONES_COMPONENTE),
    ("MONTO_MINIMO", MONTO_MINIMO),
    ("MONTO_MENSUAL_MAX", MONTO_MENSUAL_MAX),
    ("SALDO_MAX", SALDO_MAX),
    ("ANTIGUEDAD_MAX_MESES", ANTIGUEDAD_MAX_MESES),
    ("EDAD_MIN", EDAD_MIN),
    ("EDAD_MAX", EDAD_MAX),
    ("PERSONAS_HOGAR_MAX", PERSONAS_HOGAR_MAX),
];

/// Every curve above, by the name MODEL.md uses for it.
pub const CURVES: &[(&str, &Curve)] = &[
    ("CURVA_INGRESO", &CURVA_INGRESO),
    ("CURVA_ANTIGUEDAD_ASALARIADO", &CURVA_ANTIGUEDAD_ASALARIADO),
    ("CURVA_ANTIGUEDAD_INDEPENDIENTE", &CURVA_ANTIGUEDAD_INDEPENDIENTE),
    ("CURVA_DEUDAS", &CURVA_DEUDAS),
    ("CURVA_AHORRO", &CURVA_AHORRO),
    ("CURVA_AHORRO_COBERTURA", &CURVA_AHORRO_COBERTURA),
    ("CURVA_SALUD_FINANCIERA", &CURVA_SALUD_FINANCIERA),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_constants() {
        assert_eq!(TOPE_SALARIO_MENSUAL, TOPE_SBC_UMAS * UMA_DIARIA * DIAS_POR_MES);
    }
}
