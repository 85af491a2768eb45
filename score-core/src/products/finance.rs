//! Annuities and Banxico's CAT (Costo Anual Total).
//!
//! Banco de México defines the CAT (Circular 21/2009, "Disposiciones de carácter general que
//! establecen la metodología de cálculo, fórmula, componentes y supuestos del costo anual
//! total", compiled text at banxico.org.mx/disposiciones/normativa/circular-21-2009) as the
//! annual rate `i` that equates what the borrower receives with what the borrower pays, each
//! discounted by the time elapsed in years and fractions of a year:
//!
//! ```text
//!   Σ_j A_j / (1 + i)^t_j  =  Σ_k B_k / (1 + i)^s_k
//! ```
//!
//! `A_j` are the disbursements and `B_k` every payment (amortisation, interest, the insurance
//! and fees the credit requires), `t_j`, `s_k` in years. With the credit disbursed at signing,
//! fees paid at signing and payments at whole months (`s_k = k / 12`), putting
//! `1 + i = (1 + j)^12` turns it into the monthly equation
//!
//! ```text
//!   credit − fees at signing = Σ_streams  P × (1 − (1 + j)^−n) / j
//! ```
//!
//! whose root `j` is unique (the right side falls as `j` rises) and `CAT = (1 + j)^12 − 1`.
//! This module solves it in `Decimal` to about 25 significant digits, far beyond the four
//! decimals shown, so an implementation with exact rationals or Python's `decimal` reproduces
//! the shown CAT (tests/products_check.py does).

use rust_decimal::{Decimal, MathematicalOps};

/// `(1 + j)^-n`, or 0 when `(1 + j)^n` is beyond what a `Decimal` holds (then it is below
/// 1e-28 and invisible in any result).
fn descuento(j: Decimal, n: u32) -> Decimal {
    (Decimal::ONE + j).checked_powu(u64::from(n)).and_then(|p| Decimal::ONE.checked_div(p)).unwrap_or(Decimal::ZERO)
}

/// Present value of 1 peso paid at the end of each of `n` months at the monthly rate `j`:
/// `(1 − (1 + j)^−n) / j`, and `n` when `j` is 0.
pub fn factor_anualidad_mensual(j: Decimal, n: u32) -> Decimal {
    if j.is_zero() {
        return Decimal::from(n);
    }
    (Decimal::ONE - descuento(j, n)) / j
}

/// The monthly payment per peso of credit at the nominal annual rate `tasa_anual` over `meses`
/// months, plus a monthly charge (insurance, administration) as a share of the credit.
/// Zero when there are no months (no credit can be granted).
pub fn cuota_por_peso(tasa_anual: Decimal, meses: u32, cargo_mensual: Decimal) -> Decimal {
    if meses == 0 {
        return Decimal::ZERO;
    }
    Decimal::ONE / factor_anualidad_mensual(tasa_anual / Decimal::from(12), meses) + cargo_mensual
}

/// A level monthly payment `pago` during `meses` months from the first month on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Flujo {
    /// Payment each month, MXN (amortisation, interest, insurance and periodic fees).
    pub pago: Decimal,
    /// Number of monthly payments.
    pub meses: u32,
}

/// `Σ P × a(j, n) − neto` and its derivative in `j`.
fn ecuacion(j: Decimal, neto: Decimal, flujos: &[Flujo]) -> Option<(Decimal, Decimal)> {
    let mut valor = -neto;
    let mut derivada = Decimal::ZERO;
    for f in flujos {
        let n = Decimal::from(f.meses);
        if j.is_zero() {
            valor += f.pago * n;
            derivada -= f.pago * n * (n + Decimal::ONE) / Decimal::TWO;
            continue;
        }
        let v = descuento(j, f.meses);
        let a = (Decimal::ONE - v) / j;
        // d/dj (1 − (1+j)^−n) / j = (n (1+j)^−n−1 j − (1 − (1+j)^−n)) / j²
        let da = (n * v / (Decimal::ONE + j) * j - (Decimal::ONE - v)).checked_div(j * j)?;
        valor += f.pago.checked_mul(a)?;
        derivada += f.pago.checked_mul(da)?;
    }
    Some((valor, derivada))
}

/// Banxico's CAT as a ratio (0.1413 is 14.13%), unrounded: the annual rate at which `neto` (the
/// credit less the fees paid at signing) equals the present value of `flujos`. `None` when the
/// payments do not exceed what is received (no positive rate equates them) or are empty.
pub fn cat(neto: Decimal, flujos: &[Flujo]) -> Option<Decimal> {
    let total: Decimal = flujos.iter().map(|f| f.pago * Decimal::from(f.meses)).sum();
    if neto <= Decimal::ZERO || total <= neto {
        return None;
    }
    // Bracket the monthly root: f(0) > 0 and f falls with j. 100% a month is a CAT of 409,500%.
    let (mut lo, mut hi) = (Decimal::ZERO, Decimal::new(1, 2));
    while ecuacion(hi, neto, flujos)?.0 > Decimal::ZERO {
        lo = hi;
        hi *= Decimal::TWO;
        if hi > Decimal::ONE {
            return None;
        }
    }
    // Newton's method inside the bracket, bisecting whenever a step would leave it.
    let tolerancia = Decimal::new(1, 26);
    let mut j = (lo + hi) / Decimal::TWO;
    for _ in 0..200 {
        let (valor, derivada) = ecuacion(j, neto, flujos)?;
        if valor.is_zero() {
            break;
        }
        if valor > Decimal::ZERO {
            lo = j;
        } else {
            hi = j;
        }
        let newton = if derivada.is_zero() { None } else { valor.checked_div(derivada).map(|paso| j - paso) };
        let siguiente = match newton {
            Some(n) if n > lo && n < hi => n,
            _ => (lo + hi) / Decimal::TWO,
        };
        if (siguiente - j).abs() <= tolerancia || hi - lo <= tolerancia {
            j = siguiente;
            break;
        }
        j = siguiente;
    }
    Some((Decimal::ONE + j).powu(12) - Decimal::ONE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::{ratio, round};
    use std::str::FromStr;

    fn d(text: &str) -> Decimal {
        Decimal::from_str(text).expect("decimal")
    }

    /// Banxico's worked example of the CAT rules: a credit of 15,000 repaid in 24 monthly
    /// payments of 962.33 with a fee of 100 at signing has a CAT of 57.4% (quoted in
    /// public CAT calculators that validate against it). Python's decimal at 50 digits gives
    /// 0.573607318983573893...; so does this solver to the 4 decimals shown.
    #[test]
    fn banxico_example() {
        let c = cat(d("14900"), &[Flujo { pago: d("962.33"), meses: 24 }]).expect("a CAT");
        assert_eq!(round(c * Decimal::ONE_HUNDRED, 1), d("57.4"));
        assert_eq!(ratio(c), d("0.5736"));
        assert!((c - d("0.5736073189835738930402613332")).abs() < d("1e-20"), "{c}");
    }

    /// Without fees or insurance the CAT is the effective annual rate (1 + r/12)^12 − 1.
    #[test]
    fn cat_without_costs_is_the_effective_rate() {
        for (tasa, meses) in [("0.035", 360), ("0.1165", 240), ("0.0191", 12), ("0.1045", 120)] {
            let r = d(tasa);
            let pago = cuota_por_peso(r, meses, Decimal::ZERO) * d("100000");
            let c = cat(d("100000"), &[Flujo { pago, meses }]).expect("a CAT");
            let efectiva = (Decimal::ONE + r / Decimal::from(12)).powu(12) - Decimal::ONE;
            assert!((c - efectiva).abs() < d("1e-18"), "{tasa}: {c} vs {efectiva}");
        }
    }

    #[test]
    fn no_cat_when_nothing_is_paid_back() {
        assert_eq!(cat(d("1000"), &[Flujo { pago: d("10"), meses: 100 }]), None);
        assert_eq!(cat(d("1000"), &[]), None);
        assert_eq!(cat(Decimal::ZERO, &[Flujo { pago: d("10"), meses: 10 }]), None);
    }

    /// The research's check of the plain annuity: 1,637.34 a month at 3.5% over 30 years is
    /// worth 364,627.41 (INFONAVIT's simulator shows 364,582.34; 0.01% apart).
    #[test]
    fn annuity_factor_matches_the_simulator_check() {
        let a = factor_anualidad_mensual(d("0.035") / Decimal::from(12), 360);
        assert_eq!(round(d("1637.34") * a, 2), d("364627.41"));
    }
}
