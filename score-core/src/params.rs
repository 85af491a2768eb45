//! What stays compiled of score model v2.1 (issue 42): the spec's weights and the score's scale
//! (model 2.1), and the input's plausibility limits. Every figure a calibration can change (the
//! curves, the minimum wage and the UMA, the state table, the products' rules) is in the
//! calibration document, `calibration/mx-2026.toml`, and read from it (`crate::cifras::Cifras`).
//!
//! `MODEL.md` documents each constant here, and each figure of the calibration, with its source
//! and date (or marks it as an estimate with its reasoning); the test `model_doc` parses that
//! document and fails when a value there disagrees with this file or the embedded calibration.

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
    ("MONTO_MINIMO", MONTO_MINIMO),
    ("MONTO_MENSUAL_MAX", MONTO_MENSUAL_MAX),
    ("SALDO_MAX", SALDO_MAX),
    ("ANTIGUEDAD_MAX_MESES", ANTIGUEDAD_MAX_MESES),
    ("EDAD_MIN", EDAD_MIN),
    ("EDAD_MAX", EDAD_MAX),
    ("PERSONAS_HOGAR_MAX", PERSONAS_HOGAR_MAX),
];
