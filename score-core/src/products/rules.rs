//! Every product's published rules as data, with source and date.
//!
//! `PRODUCTS.md` (next to this crate) lists each constant with its source and marks what is an
//! estimate (**E**), a figure computed from sourced ones (**C**) or sourced (**S**). Amounts are
//! MXN of the date given. Change a value here and in that document together.

use crate::curve::{Curve, curve};
use crate::params::dec;
use rust_decimal::Decimal;

// ---- Shared ------------------------------------------------------------------------------

/// General minimum wage 2026, MXN a day (CONASAMI, El Economista 2025-12-03) [S].
pub const SALARIO_MINIMO_DIARIO: Decimal = dec(31504, 2);
/// One monthly minimum wage: `SALARIO_MINIMO_DIARIO x 365 / 12` to the centavo, 9,582.47
/// (CONASAMI's convention) [C].
pub const SALARIO_MINIMO_MENSUAL: Decimal = crate::params::INGRESO_MINIMO;
/// One monthly UMA from February 2026: `UMA_DIARIA x DIAS_POR_MES` = 117.31 x 30.4 [C].
pub const UMA_MENSUAL: Decimal = dec(3_566_224, 3);

// ---- INFONAVIT: crédito tradicional en pesos --------------------------------------------

/// Fixed annual rate by salary in monthly UMAs, fitted [E]: 3.69% up to 2.7 UMAs (the 2026
/// simulator's rate at the minimum wage and below it, UnoTV 2026-02-10, N+ 2026-02-21), 10.45%
/// from 6.6 UMAs (the 2025 table's top band, Infobae 2025-10-14), linear between; INFONAVIT does
/// not publish its table. The range 3.69%–10.45% is the published one for 2026 [S].
pub const INFONAVIT_TASA_POR_UMAS: Curve = curve![(dec(27, 1), dec(369, 4)), (dec(66, 1), dec(1045, 4))];
/// The table's first rate, which every salary up to its first point (2.7 UMAs) pays.
pub const INFONAVIT_TASA_PISO: Decimal = dec(369, 4);
/// The first point's salary in pesos, 2.7 x `UMA_MENSUAL` (a test checks both against the table).
pub const INFONAVIT_SALARIO_TASA_PISO: Decimal = dec(96_288_048, 4);
/// The table's last rate, which every salary from its last point (6.6 UMAs) pays.
pub const INFONAVIT_TASA_TOPE: Decimal = dec(1045, 4);
/// The last point's salary in pesos, 6.6 x `UMA_MENSUAL` (a test checks both against the table).
pub const INFONAVIT_SALARIO_TASA_TOPE: Decimal = dec(235_370_784, 4);
/// Payment over salary by salary in monthly UMAs, fitted to the 2026 simulator's outputs [E]:
/// 8,000 a month (2.2433 UMAs) lends 345,923.73 (N+ 2026-02-21) and 9,582.47 (2.687 UMAs)
/// 602,691.86 (UnoTV 2026-02-10), at 3.69% over 30 years with the monthly load: 20.22% and
/// 29.42%; from 3 UMAs the 30% of the institutions' payroll discount; linear between.
pub const INFONAVIT_PAGO_POR_UMAS: Curve =
    curve![(dec(22433, 4), dec(2022, 4)), (dec(2687, 3), dec(2942, 4)), (dec(30, 1), dec(30, 2))];
/// Maximum INFONAVIT credit 2026: 823 monthly UMAs, 2,935,002.35 (La Verdad Noticias, 2026) [S].
pub const INFONAVIT_CREDITO_MAX_UMAS: Decimal = dec(823, 0);
/// Longest INFONAVIT term, years (Club Hipotecario 2025; El Universal 2025-08-07) [S].
pub const INFONAVIT_PLAZO_MAX: u32 = 30;
/// Age plus term may not exceed 70 (men) or 75 (women) (El Universal 2025-08-07) [S]; the
/// profile has no sex, so the lower limit is applied [E, conservative].
pub const INFONAVIT_EDAD_MAX_FIN_PLAZO: u32 = 70;
/// Months of continuous contribution needed to pre-qualify (El Siglo de Torreón 2025-08-13;
/// T100 scheme, informador.mx 2026-03-10) [S].
pub const INFONAVIT_ANTIGUEDAD_MIN: u32 = 6;
/// Monthly insurance and administration load over the credit, calibrated so that the
/// simulator's example (3.5%, 30 years) gives its published CAT of 3.7% (Informador
/// 2025-08-30): the CAT is 3.7% to one decimal for loads of 0.0051%..0.0105% [C].
pub const INFONAVIT_CARGO_MENSUAL: Decimal = dec(8, 5);

// ---- FOVISSSTE: crédito tradicional en pesos -------------------------------------------

/// Fixed annual rate of FOVISSSTE's Crédito Tradicional en Pesos (El Universal via Pulso SLP,
/// 2022-11-01) [S; low confidence: a 2022 pilot rate, the latest published figure found].
pub const FOVISSSTE_TASA: Decimal = dec(1054, 4);
/// Payroll discount: 30% of the basic salary (BIM 2024/25; Pulso SLP 2022-11-01) [S].
pub const FOVISSSTE_PTI: Decimal = dec(30, 2);
/// Longest term, years: 720 fortnights (Pulso SLP 2022-11-01) [S].
pub const FOVISSSTE_PLAZO_MAX: u32 = 30;
/// Months of contributions needed (BIM; Trato Directo 2023-02-03) [S].
pub const FOVISSSTE_ANTIGUEDAD_MIN: u32 = 18;
/// Maximum credit: the traditional credit's cap raised to 2,069,000 for 2024 [E, low
/// confidence: no 2026 figure found].
pub const FOVISSSTE_CREDITO_MAX: Decimal = dec(2_069_000, 0);
/// Age plus term limit [E: no published FOVISSSTE figure found; the model's 75].
pub const FOVISSSTE_EDAD_MAX_FIN_PLAZO: u32 = 75;
/// Monthly insurance load over the credit [E: INFONAVIT's calibrated load; FOVISSSTE deducts a
/// damage insurance beside the amortization (hogaresnoticia.com 2014-05-28)].
pub const FOVISSSTE_CARGO_MENSUAL: Decimal = INFONAVIT_CARGO_MENSUAL;

// ---- Bank mortgage ------------------------------------------------------------------------

/// Opening fee over the credit, paid at signing [E: banks charge 0–1%; the upper end].
pub const BANCO_COMISION_APERTURA: Decimal = dec(1, 2);
/// Monthly life and damage insurance over the credit, calibrated so that the market average
/// rate (11.54%) over 20 years with the 1% opening fee gives the market average CAT of 14.0%
/// (Banco de México, December 2025, El Universal 2026-02-22) [C].
pub const BANCO_SEGUROS_MENSUAL: Decimal = dec(103, 5);
/// Smallest bank mortgage [E: banks advertise minimum amounts of roughly 250k–500k].
pub const BANCO_CREDITO_MIN: Decimal = dec(250_000, 0);
/// Months in the current job for salaried, mixed-income and pensioner applicants: banks ask
/// 3–6 months of continuity (HoyDinero 2023-02-19) [S, upper end].
pub const BANCO_ANTIGUEDAD_MIN_ASALARIADO: u32 = 6;
/// Months of activity for the self-employed: two years of returns (ahbienesraices.mx ~2024;
/// requisitosnecesarios.com) [S].
pub const BANCO_ANTIGUEDAD_MIN_INDEPENDIENTE: u32 = 24;

// ---- INFONAVIT plus bank: "Cuenta Infonavit + Crédito Bancario" ----------------------------

/// INFONAVIT's share of the joint credit (vanguardia.com.mx 2025-10-13; unotv.com) [S].
pub const COFI_PARTE_INFONAVIT: Decimal = dec(30, 2);
/// INFONAVIT's fixed rate in co-financing, every salary level (unotv.com 2026-01-28) [S].
pub const COFI_TASA_INFONAVIT: Decimal = dec(1045, 4);
/// Cap on INFONAVIT's share (vanguardia.com.mx 2025-10-13) [S].
pub const COFI_INFONAVIT_MAX: Decimal = dec(950_654, 0);

// ---- Cofinavit (INFONAVIT plus bank, for active workers) ---------------------------------

/// INFONAVIT's fixed rate in co-financing, every salary level (UnoTV 2026-01-28) [S].
pub const COFINAVIT_TASA_INFONAVIT: Decimal = dec(1045, 4);
/// Cap on INFONAVIT's part in monthly UMAs: the published 1,117,823.20 is 325 UMAs of 2025
/// (UnoTV 2026-01-28) [C]; 1,159,022.80 with the 2026 UMA.
pub const COFINAVIT_INFONAVIT_MAX_UMAS: Decimal = dec(325, 0);

// ---- Unamos Créditos (two INFONAVIT workers pool their credits) --------------------------

/// Maximum joint credit 2025 (Proceso, 2025-09-10) [S].
pub const UNAMOS_CREDITO_MAX: Decimal = dec(5_095_000, 0);

// ---- Closing costs (gastos de cierre) ------------------------------------------------------

/// Notary fees over the home value [E: the 4–7% total (6–7% in CDMX) of NeoJaus 2025-11-12,
/// less the transfer tax].
pub const NOTARIO: Decimal = dec(150, 4);
/// Public registry, certificates and deed rights over the value [E].
pub const REGISTRO: Decimal = dec(60, 4);
/// Appraisal (avalúo) over the value [E].
pub const AVALUO: Decimal = dec(25, 4);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{DIAS_POR_MES, UMA_DIARIA};

    #[test]
    fn derived_constants() {
        let mensual = crate::money::money(SALARIO_MINIMO_DIARIO * Decimal::from(365) / Decimal::from(12));
        assert_eq!(SALARIO_MINIMO_MENSUAL, mensual);
        assert_eq!(UMA_MENSUAL, UMA_DIARIA * DIAS_POR_MES);
    }

    #[test]
    fn infonavit_rates_rise_with_salary_within_the_published_range() {
        let curva = INFONAVIT_TASA_POR_UMAS;
        let points = curva.points();
        assert!(points.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1));
        // 3.69% to 10.45%, the published range.
        let (piso, tasa) = points[0];
        assert_eq!(INFONAVIT_TASA_PISO, tasa);
        assert_eq!(INFONAVIT_SALARIO_TASA_PISO, piso * UMA_MENSUAL);
        let (tope, tasa) = points[points.len() - 1];
        assert_eq!(INFONAVIT_TASA_TOPE, tasa);
        assert_eq!(INFONAVIT_SALARIO_TASA_TOPE, tope * UMA_MENSUAL);
    }
}
