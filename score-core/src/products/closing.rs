//! Closing costs by state: the transfer tax (ISAI, "impuesto sobre adquisición de inmuebles" or
//! "traslado de dominio") of each state plus notary, registry and appraisal.
//!
//! The ISAI is a local tax set by each state's (or its municipalities') tax law, on the highest
//! of the price, the cadastral value and the appraisal (wiki.bancompara.mx, undated). Few rates
//! were found in public sources, so most rows are estimates: see `PRODUCTS.md`.

use super::rules::{AVALUO, NOTARIO, REGISTRO};
use crate::params::dec;
use crate::states::State;
use rust_decimal::Decimal;

/// Where a transfer-tax rate comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origen {
    /// A single rate published for the state.
    Publicada,
    /// A value inside a published range (progressive tariffs or municipal rates differ).
    DentroDeRango,
    /// No rate found: the modal 2% of the published ones [E].
    Estimada,
}

use Origen::{DentroDeRango as R, Estimada as E, Publicada as S};

/// Transfer-tax rate over the home value and its origin, in INEGI order (index = clave - 1).
pub const ISAI: [(Decimal, Origen); 32] = [
    (dec(2, 2), S),  // 01 AGU 2% (losimpuestos.com.mx, undated)
    (dec(2, 2), S),  // 02 BCN 2% (losimpuestos.com.mx, undated)
    (dec(2, 2), E),  // 03 BCS
    (dec(2, 2), E),  // 04 CAM
    (dec(2, 2), E),  // 05 COA
    (dec(2, 2), E),  // 06 COL
    (dec(2, 2), E),  // 07 CHP
    (dec(2, 2), E),  // 08 CHH
    (dec(4, 2), R),  // 09 CMX progressive 3.1–4.5% (bancompara); 2–4.5% (NeoJaus 2025-11-12)
    (dec(2, 2), E),  // 10 DUR
    (dec(2, 2), E),  // 11 GUA
    (dec(2, 2), E),  // 12 GRO
    (dec(2, 2), E),  // 13 HID
    (dec(2, 2), R),  // 14 JAL 1.5–2% (NeoJaus 2025-11-12), upper end
    (dec(2, 2), E),  // 15 MEX
    (dec(2, 2), E),  // 16 MIC
    (dec(2, 2), E),  // 17 MOR
    (dec(2, 2), E),  // 18 NAY
    (dec(2, 2), R),  // 19 NLE 1–2.5% (NeoJaus 2025-11-12)
    (dec(2, 2), E),  // 20 OAX
    (dec(2, 2), E),  // 21 PUE
    (dec(2, 2), E),  // 22 QUE
    (dec(2, 2), E),  // 23 ROO
    (dec(2, 2), E),  // 24 SLP
    (dec(2, 2), E),  // 25 SIN
    (dec(2, 2), E),  // 26 SON
    (dec(2, 2), E),  // 27 TAB
    (dec(2, 2), E),  // 28 TAM
    (dec(2, 2), E),  // 29 TLA
    (dec(2, 2), E),  // 30 VER
    (dec(18, 3), R), // 31 YUC 0.02–1.8% (NeoJaus 2025-11-12), upper end
    (dec(2, 2), E),  // 32 ZAC
];

/// The state's transfer-tax rate and its origin.
pub fn isai(estado: State) -> (Decimal, Origen) {
    ISAI[usize::from(estado.inegi() - 1)]
}

/// All closing costs over the home value in `estado`: ISAI + notary + registry + appraisal.
pub fn tasa_gastos_cierre(estado: State) -> Decimal {
    GASTOS_CIERRE[usize::from(estado.inegi() - 1)]
}

/// [`tasa_gastos_cierre`] of every state, by INEGI code − 1: the transfer tax plus notary,
/// registry and appraisal, added at compile time (all have at most 4 decimals).
pub const GASTOS_CIERRE: [Decimal; 32] = {
    const fn diezmilesimos(d: Decimal) -> i128 {
        let mut mantissa = d.mantissa();
        let mut scale = d.scale();
        while scale < 4 {
            mantissa *= 10;
            scale += 1;
        }
        mantissa
    }
    let comunes = diezmilesimos(NOTARIO) + diezmilesimos(REGISTRO) + diezmilesimos(AVALUO);
    let mut tabla = [Decimal::ZERO; 32];
    let mut i = 0;
    while i < tabla.len() {
        let total = diezmilesimos(ISAI[i].0) + comunes;
        #[allow(clippy::cast_possible_truncation)] // a few hundred ten-thousandths
        {
            tabla[i] = Decimal::from_parts(total as u32, 0, 0, false, 4);
        }
        i += 1;
    }
    tabla
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_adds_each_states_costs() {
        for estado in State::all() {
            assert_eq!(tasa_gastos_cierre(estado), isai(estado).0 + NOTARIO + REGISTRO + AVALUO, "{estado:?}");
        }
    }

    /// The totals stay inside the published 4–7% band (6–7% in CDMX; NeoJaus 2025-11-12).
    #[test]
    fn totals_fall_in_the_published_band() {
        for estado in State::all() {
            let total = tasa_gastos_cierre(estado);
            assert!(total >= dec(4, 2) && total <= dec(7, 2), "{}: {total}", estado.info().iso);
        }
        let cdmx = tasa_gastos_cierre(State::parse("CMX").expect("CMX"));
        assert!(cdmx >= dec(6, 2), "CDMX {cdmx}");
    }
}
