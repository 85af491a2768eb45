//! The number type the product rules are written over, so that one text of the rules serves
//! two arithmetics: exact `Decimal`, which defines every figure, and filtered doubles
//! ([`Approx`]), which compute the same figures over ten times faster and certify each
//! decision (a comparison, a rounding) against their error bound. Where a certificate fails
//! the filtered evaluation answers `None` and [`super::evaluar`] repeats it in `Decimal`, so
//! the offers shown are the `Decimal` ones, digit for digit, either way.

use super::closing::GASTOS_CIERRE;
use super::fijos::{self, Fijo};
use super::finance::{self, Flujo};
use super::rules::*;
use crate::approx::{self, Approx};
use crate::curve::Curve;
use crate::fast_decimal::Orden;
use crate::money::round;
use crate::params::{LTV_ASALARIADO, LTV_INDEPENDIENTE, TASA_ANUAL};
use rust_decimal::Decimal;
use std::cmp::Ordering;
use std::fmt::Debug;
use std::ops::{Add, Div, Mul, Sub};

/// The rules' constants in one arithmetic, converted once at compile time rather than at
/// every use (a conversion to filtered doubles costs about as much as ten operations).
#[derive(Debug)]
pub(super) struct Reglas<N> {
    pub uma: N,
    pub cargo_infonavit: N,
    pub infonavit_max: N,
    pub fovissste_max: N,
    pub banco_min: N,
    pub parte_cofi: N,
    pub cofi_max: N,
    pub unamos_max: N,
    pub ltv_asalariado: N,
    pub ltv_independiente: N,
    /// Rate, monthly charge and fee at signing of each [`Fijo`]'s credit, by `Fijo as usize`.
    pub fijos: [(N, N, N); 5],
    /// Closing costs over the home value, by state (INEGI code − 1).
    pub gastos_cierre: [N; 32],
}

/// [`Reglas`] with every constant converted by the `const fn` `$de`.
macro_rules! reglas {
    ($de:expr) => {{
        let mut gastos_cierre = [$de(Decimal::ZERO); 32];
        let mut i = 0;
        while i < gastos_cierre.len() {
            gastos_cierre[i] = $de(GASTOS_CIERRE[i]);
            i += 1;
        }
        Reglas {
            uma: $de(UMA_MENSUAL),
            cargo_infonavit: $de(INFONAVIT_CARGO_MENSUAL),
            infonavit_max: $de(INFONAVIT_CREDITO_MAX),
            fovissste_max: $de(FOVISSSTE_CREDITO_MAX),
            banco_min: $de(BANCO_CREDITO_MIN),
            parte_cofi: $de(COFI_PARTE_INFONAVIT),
            cofi_max: $de(COFI_INFONAVIT_MAX),
            unamos_max: $de(UNAMOS_CREDITO_MAX),
            ltv_asalariado: $de(LTV_ASALARIADO),
            ltv_independiente: $de(LTV_INDEPENDIENTE),
            fijos: [
                ($de(FOVISSSTE_TASA), $de(FOVISSSTE_CARGO_MENSUAL), $de(Decimal::ZERO)),
                ($de(TASA_ANUAL), $de(BANCO_SEGUROS_MENSUAL), $de(BANCO_COMISION_APERTURA)),
                ($de(COFI_TASA_INFONAVIT), $de(INFONAVIT_CARGO_MENSUAL), $de(Decimal::ZERO)),
                ($de(INFONAVIT_TASA_PISO), $de(INFONAVIT_CARGO_MENSUAL), $de(Decimal::ZERO)),
                ($de(INFONAVIT_TASA_TOPE), $de(INFONAVIT_CARGO_MENSUAL), $de(Decimal::ZERO)),
            ],
            gastos_cierre,
        }
    }};
}

const fn mismo(d: Decimal) -> Decimal {
    d
}

const REGLAS_DECIMAL: Reglas<Decimal> = reglas!(mismo);
const REGLAS_FILTRADAS: Reglas<Approx> = reglas!(Approx::of);

/// Arithmetic on amounts and rates. Operations follow the written order of the rules: in
/// `Decimal` each result is rounded to 28 digits, so the order is part of the definition.
pub(super) trait Numero:
    Copy + Debug + 'static + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Div<Output = Self>
{
    /// The rules' constants in this arithmetic.
    const REGLAS: &'static Reglas<Self>;

    /// The value of a decimal input.
    fn de(d: Decimal) -> Self;

    /// A whole number.
    fn entero(n: u32) -> Self;

    /// `num / den` (`den` not 0) as `Decimal` divides, rounding the quotient to 28 digits: in
    /// `Decimal` that quotient (some hundreds of instructions); in filtered doubles one
    /// division, its bound widened by the rounding.
    fn cociente(num: Decimal, den: Decimal) -> Self;

    /// `self < other`, or `None` when the arithmetic cannot tell.
    fn menor(self, other: Self) -> Option<bool>;

    /// `self == 0`, or `None` when the arithmetic cannot tell.
    fn es_cero(self) -> Option<bool>;

    /// Rounded half away from zero to `dp` decimals, or `None` when the arithmetic cannot tell.
    fn redondear(self, dp: u32) -> Option<Decimal>;

    /// `(1 + j)^n`: `Some(None)` beyond what a `Decimal` holds (then `(1 + j)^-n` is below
    /// 1e-28 and the rules use the limit), `None` when the arithmetic cannot tell.
    fn crecimiento(j: Self, n: u32) -> Option<Option<Self>>;

    /// A piecewise-linear curve at `x`.
    fn en_curva(curva: &Curve, x: Self) -> Option<Self>;

    /// Banxico's CAT of `neto` received against `flujos` paid (see [`finance::cat`]):
    /// `Some(None)` when there is none, `None` when the arithmetic cannot tell.
    fn cat(neto: Self, flujos: &[Flujo<Self>]) -> Option<Option<Self>>;

    /// A fixed product's payment per peso and CAT for a term, where this arithmetic keeps
    /// them (see [`super::fijos`]); `None`: compute them.
    fn fijo(_fijo: Fijo, _plazo: u32) -> Option<(Self, Option<Self>)> {
        None
    }

    /// `self <= other`.
    fn hasta(self, other: Self) -> Option<bool> {
        other.menor(self).map(|mayor| !mayor)
    }

    /// The order of the two, or `None` when the arithmetic cannot tell (equal values only
    /// compare equal where they are known exactly).
    fn orden(self, other: Self) -> Option<Ordering> {
        if self.menor(other)? {
            Some(Ordering::Less)
        } else if other.menor(self)? {
            Some(Ordering::Greater)
        } else {
            Some(Ordering::Equal)
        }
    }
}

impl Numero for Decimal {
    const REGLAS: &'static Reglas<Self> = &REGLAS_DECIMAL;

    fn de(d: Decimal) -> Self {
        d
    }

    fn entero(n: u32) -> Self {
        Decimal::from(n)
    }

    fn cociente(num: Decimal, den: Decimal) -> Self {
        num / den
    }

    fn menor(self, other: Self) -> Option<bool> {
        Some(Orden(self) < Orden(other))
    }

    fn es_cero(self) -> Option<bool> {
        Some(self.is_zero())
    }

    fn redondear(self, dp: u32) -> Option<Decimal> {
        Some(round(self, dp))
    }

    fn crecimiento(j: Self, n: u32) -> Option<Option<Self>> {
        Some(finance::crecimiento(j, n))
    }

    fn en_curva(curva: &Curve, x: Self) -> Option<Self> {
        Some(curva.eval(x))
    }

    fn cat(neto: Self, flujos: &[Flujo<Self>]) -> Option<Option<Self>> {
        Some(finance::cat(neto, flujos))
    }
}

/// Growth beyond this is refused by the filtered arithmetic: near `Decimal`'s limit (7.9e28)
/// the decimal rules switch to the limit formula, and doubles cannot tell on which side.
const CRECIMIENTO_MAX: f64 = 1e27;

impl Numero for Approx {
    const REGLAS: &'static Reglas<Self> = &REGLAS_FILTRADAS;

    fn de(d: Decimal) -> Self {
        Approx::of(d)
    }

    fn entero(n: u32) -> Self {
        Approx::exact(f64::from(n))
    }

    fn cociente(num: Decimal, den: Decimal) -> Self {
        let q = Approx::of(num) / Approx::of(den);
        // `Decimal` keeps 28 significant digits and at most 28 decimals: its quotient is within
        // a relative 1e-28 or an absolute 1e-28 of the exact one; ten times either is added.
        q.widen((q.value().abs() + 1.0) * 1e-27)
    }

    fn menor(self, other: Self) -> Option<bool> {
        approx::less(self, other)
    }

    fn es_cero(self) -> Option<bool> {
        approx::is_zero(self)
    }

    fn redondear(self, dp: u32) -> Option<Decimal> {
        approx::round_dp(self, dp)
    }

    fn crecimiento(j: Self, n: u32) -> Option<Option<Self>> {
        let p = (Approx::exact(1.0) + j).potencia(n);
        (p.value() + p.bound() < CRECIMIENTO_MAX).then_some(Some(p))
    }

    fn en_curva(curva: &Curve, x: Self) -> Option<Self> {
        curva.eval_approx(x)
    }

    fn fijo(fijo: Fijo, plazo: u32) -> Option<(Self, Option<Self>)> {
        fijos::fila(fijo, plazo)
    }

    fn cat(neto: Self, flujos: &[Flujo<Self>]) -> Option<Option<Self>> {
        finance::cat_filtrado(neto, flujos)
    }
}
