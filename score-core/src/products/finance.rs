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
//! This module solves it in `Decimal` to about 20 significant digits, far beyond the four
//! decimals shown, so an implementation with exact rationals or Python's `decimal` reproduces
//! the shown CAT (tests/products_check.py does). [`cat_filtrado`] brackets the same root in
//! filtered doubles, for the fast path of [`super::numero`].

use crate::approx::{Approx, less, potencia};
use rust_decimal::{Decimal, MathematicalOps};

/// `(1 + j)^n`, or `None` beyond what a `Decimal` holds (then `(1 + j)^-n` is below 1e-28
/// and invisible in any result).
pub(super) fn crecimiento(j: Decimal, n: u32) -> Option<Decimal> {
    (Decimal::ONE + j).checked_powu(u64::from(n))
}

/// Present value of 1 peso paid at the end of each of `n` months at the monthly rate `j`:
/// `(1 − (1 + j)^−n) / j`, and `n` when `j` is 0.
pub fn factor_anualidad_mensual(j: Decimal, n: u32) -> Decimal {
    if j.is_zero() {
        return Decimal::from(n);
    }
    match crecimiento(j, n) {
        // (1 − 1/p) / j = (p − 1) / (p j): one division, the costly operation of `Decimal`.
        Some(p) => (p - Decimal::ONE) / (p * j),
        None => Decimal::ONE / j,
    }
}

/// A level monthly payment `pago` during `meses` months from the first month on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Flujo<N = Decimal> {
    /// Payment each month, MXN (amortisation, interest, insurance and periodic fees).
    pub pago: N,
    /// Number of monthly payments.
    pub meses: u32,
}

/// `Σ P × a(j, n) − neto` and its derivative in `j`, for `j` > 0. With `p = (1 + j)^n`:
/// `a = (p − 1) / (p j)` and `da/dj = (n j − (p − 1)(1 + j)) / (p (1 + j) j²)`.
fn ecuacion(j: Decimal, neto: Decimal, flujos: &[Flujo]) -> Option<(Decimal, Decimal)> {
    let mut valor = -neto;
    let mut derivada = Decimal::ZERO;
    let u = Decimal::ONE + j;
    for f in flujos {
        let n = Decimal::from(f.meses);
        match crecimiento(j, f.meses) {
            Some(p) => {
                let denominador = p.checked_mul(j)?;
                valor += f.pago.checked_mul(p - Decimal::ONE)?.checked_div(denominador)?;
                let numerador = n * j - (p - Decimal::ONE) * u;
                derivada += f.pago.checked_mul(numerador)?.checked_div(denominador.checked_mul(u * j)?)?;
            }
            None => {
                valor += f.pago / j;
                derivada -= f.pago / (j * j);
            }
        }
    }
    Some((valor, derivada))
}

/// Banxico's CAT as a ratio (0.1413 is 14.13%), unrounded: the annual rate at which `neto` (the
/// credit less the fees paid at signing) equals the present value of `flujos`. `None` when the
/// payments do not exceed what is received (no positive rate equates them) or are empty.
///
/// A root found in doubles seeds Newton's method in `Decimal`, which then needs one or two
/// steps; a bracketed bisection takes over if it does not settle. The result is the root to
/// about 20 significant digits whichever way it was reached, so the 4 decimals shown do not
/// depend on the seed.
pub fn cat(neto: Decimal, flujos: &[Flujo]) -> Option<Decimal> {
    let total: Decimal = flujos.iter().map(|f| f.pago * Decimal::from(f.meses)).sum();
    if neto <= Decimal::ZERO || total <= neto {
        return None;
    }
    let j =
        semilla(neto, flujos).and_then(|semilla| newton(semilla, neto, flujos)).or_else(|| biseccion(neto, flujos))?;
    Some((Decimal::ONE + j).powu(12) - Decimal::ONE)
}

/// Steps below this are noise of `Decimal`'s 28 digits: the root is known.
const TOLERANCIA: Decimal = Decimal::from_parts(1, 0, 0, false, 20);

/// The monthly root in doubles, to seed the decimal solver.
fn semilla(neto: Decimal, flujos: &[Flujo]) -> Option<Decimal> {
    // The crate's own conversions (the reports' JSON uses them too): no second float
    // formatter in the WebAssembly build.
    use crate::money::{from_f64, to_f64};
    let dobles: Vec<Flujo<f64>> = flujos.iter().map(|f| Flujo { pago: to_f64(f.pago), meses: f.meses }).collect();
    raiz_doble(to_f64(neto), &dobles).and_then(from_f64)
}

/// Where the search in doubles starts: 1% a month.
const SEMILLA: f64 = 0.01;

/// A relative Newton step this small leaves an error of its square: about 1e-24, far inside
/// both [`HOLGURA`] and what the decimal solver's first step corrects.
const PASO_DOBLE: f64 = 1e-12;

/// The monthly root in doubles: Newton's method inside a bisection bracket.
fn raiz_doble(neto: f64, flujos: &[Flujo<f64>]) -> Option<f64> {
    let f = |j: f64| {
        let (mut valor, mut derivada) = (-neto, 0.0);
        for &Flujo { pago, meses } in flujos {
            let n = f64::from(meses);
            let v = 1.0 / potencia(1.0, 1.0 + j, meses);
            valor += pago * (1.0 - v) / j;
            derivada += pago * (n * v / (1.0 + j) * j - (1.0 - v)) / (j * j);
        }
        (valor, derivada)
    };
    let (mut lo, mut hi, mut j) = (1e-9, 1.0, SEMILLA);
    for _ in 0..100 {
        let (valor, derivada) = f(j);
        if !valor.is_finite() {
            return None;
        }
        if valor > 0.0 {
            lo = j
        } else {
            hi = j
        }
        let siguiente = j - valor / derivada;
        let siguiente = if siguiente > lo && siguiente < hi { siguiente } else { (lo + hi) / 2.0 };
        if (siguiente - j).abs() <= PASO_DOBLE * j {
            return Some(siguiente);
        }
        j = siguiente;
    }
    None
}

/// Half the width, relative to the root, of the bracket [`cat_filtrado`] certifies.
const HOLGURA: f64 = 1e-9;

/// [`cat`] in filtered arithmetic: `Some(None)` when there is no CAT, `Some(Some(c))` with the
/// exact CAT within `c`'s bound, `None` when the doubles cannot tell. The root found in
/// doubles is bracketed by two monthly rates a relative 1e-9 either side, where the equation
/// (falling in `j`) is certified positive below and negative above; the CAT lies between
/// theirs. At most two payment streams (the products have no more).
pub(super) fn cat_filtrado(neto: Approx, flujos: &[Flujo<Approx>]) -> Option<Option<Approx>> {
    // Two credits over one term (Cofinavit, a capped 70/30 credit, Unamos Créditos at one age)
    // pay as one: the same root, solved and certified once per step instead of twice.
    if let [a, b] = flujos {
        if a.meses == b.meses {
            return cat_filtrado(neto, &[Flujo { pago: a.pago + b.pago, meses: a.meses }]);
        }
    }
    let cero = Approx::exact(0.0);
    let total = flujos.iter().fold(cero, |t, f| t + f.pago * Approx::exact(f64::from(f.meses)));
    if !less(cero, neto)? || !less(neto, total)? {
        return Some(None);
    }
    let mut dobles = [Flujo { pago: 0.0, meses: 0 }; 2];
    if flujos.len() > dobles.len() {
        return None;
    }
    for (doble, f) in dobles.iter_mut().zip(flujos) {
        *doble = Flujo { pago: f.pago.value(), meses: f.meses };
    }
    let j = raiz_doble(neto.value(), &dobles[..flujos.len()])?;
    let (bajo, alto) = (j * (1.0 - HOLGURA), j * (1.0 + HOLGURA));
    let uno = Approx::exact(1.0);
    let ecuacion = |j: f64| {
        let j = Approx::exact(j);
        flujos.iter().fold(cero - neto, |valor, f| {
            let p = (uno + j).potencia(f.meses);
            valor + f.pago * (p - uno) / (p * j)
        })
    };
    if !less(cero, ecuacion(bajo))? || !less(ecuacion(alto), cero)? {
        return None;
    }
    let anual = |j: f64| (uno + Approx::exact(j)).potencia(12) - uno;
    Some(Some(Approx::between(anual(bajo).lower(), anual(alto).upper())))
}

/// Newton's method in `Decimal` from a close seed: `None` if it does not settle in a few steps.
/// Convergence is quadratic: after a step of at most `PASO_FINAL` (1e-14) the error is of the
/// order of the curvature (below n ≤ 360) times its square, under 1e-25, so that step is the last.
fn newton(mut j: Decimal, neto: Decimal, flujos: &[Flujo]) -> Option<Decimal> {
    for _ in 0..6 {
        let (valor, derivada) = ecuacion(j, neto, flujos)?;
        let paso = valor.checked_div(derivada)?;
        j -= paso;
        if j <= Decimal::ZERO {
            return None;
        }
        if paso.abs() <= PASO_FINAL {
            return Some(j);
        }
    }
    None
}

/// A Newton step this small leaves an error below 1e-25 (see [`newton`]).
const PASO_FINAL: Decimal = Decimal::from_parts(1, 0, 0, false, 14);

/// The monthly root by bisection alone: slow, and only a fallback.
fn biseccion(neto: Decimal, flujos: &[Flujo]) -> Option<Decimal> {
    // f(0+) > 0 and f falls with j. 100% a month is a CAT of 409,500%.
    let (mut lo, mut hi) = (Decimal::ZERO, Decimal::new(1, 2));
    while ecuacion(hi, neto, flujos)?.0 > Decimal::ZERO {
        lo = hi;
        hi *= Decimal::TWO;
        if hi > Decimal::ONE {
            return None;
        }
    }
    while hi - lo > TOLERANCIA {
        let medio = (lo + hi) / Decimal::TWO;
        if ecuacion(medio, neto, flujos)?.0 > Decimal::ZERO { lo = medio } else { hi = medio }
    }
    Some((lo + hi) / Decimal::TWO)
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
    /// payments of 962.33 with a fee of 100 at signing has a CAT of 57.4% (as quoted by a
    /// public CAT module that validates against it; see PRODUCTS.md section 3). Python's
    /// decimal at 50 digits gives 0.57360731898357389304...; this solver agrees to 1e-20.
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
            let pago = crate::products::cuota_por_peso(r, meses, Decimal::ZERO) * d("100000");
            let c = cat(d("100000"), &[Flujo { pago, meses }]).expect("a CAT");
            let efectiva = (Decimal::ONE + r / Decimal::from(12)).powu(12) - Decimal::ONE;
            assert!((c - efectiva).abs() < d("1e-18"), "{tasa}: {c} vs {efectiva}");
        }
    }

    /// The fallback finds the same root as the seeded Newton steps.
    #[test]
    fn bisection_agrees_with_newton() {
        for (neto, pago, meses) in [("14900", "962.33", 24), ("0.99", "0.0118078", 240), ("1", "0.00919", 360)] {
            let flujos = [Flujo { pago: d(pago), meses }];
            let rapido = newton(semilla(d(neto), &flujos).expect("seed"), d(neto), &flujos).expect("root");
            let lento = biseccion(d(neto), &flujos).expect("root");
            assert!((rapido - lento).abs() < d("1e-19"), "{neto}: {rapido} vs {lento}");
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
