//! The number type the product rules are written over, so that one text of the rules serves
//! two arithmetics: exact `Decimal`, which defines every figure, and filtered doubles
//! ([`Approx`]), which compute the same figures over ten times faster and certify each
//! decision (a comparison, a rounding) against their error bound. Where a certificate fails
//! the filtered evaluation answers `None` and [`super::evaluar`] repeats it in `Decimal`, so
//! the offers shown are the `Decimal` ones, digit for digit, either way.

use super::fijos::{self, Fijo};
use super::finance::{self, Flujo};
use crate::approx::{self, Approx};
use crate::calibration::reglas::Reglas;
use crate::cifras::Cifras;
use crate::curve::Curve;
use crate::fast_decimal::Orden;
use crate::money::round;
use rust_decimal::Decimal;
use std::cmp::Ordering;
use std::fmt::Debug;
use std::ops::{Add, Div, Mul, Sub};

/// Arithmetic on amounts and rates. Operations follow the written order of the rules: in
/// `Decimal` each result is rounded to 28 digits, so the order is part of the definition.
pub(super) trait Numero:
    Copy + Debug + 'static + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Div<Output = Self>
{
    /// Whether this arithmetic may answer `None` (filtered doubles), the caller then repeating
    /// the evaluation in `Decimal`, which always decides.
    const FILTRADA: bool;

    /// Zero, as a constant (an empty offer is one: `Evaluada::VACIA`).
    const CERO: Self;

    /// The rules' amounts and rates of a calibration in this arithmetic.
    fn reglas(c: &Cifras) -> &Reglas<Self>;

    /// The value of a decimal input.
    fn de(d: Decimal) -> Self;

    /// A whole number.
    fn entero(n: u32) -> Self;


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
    fn fijo(_c: &Cifras, _fijo: Fijo, _plazo: u32) -> Option<(Self, Option<Self>)> {
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
    const FILTRADA: bool = false;
    const CERO: Self = Decimal::ZERO;

    fn reglas(c: &Cifras) -> &Reglas<Self> {
        &c.productos.decimal
    }

    fn de(d: Decimal) -> Self {
        d
    }

    fn entero(n: u32) -> Self {
        Decimal::from(n)
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
    const FILTRADA: bool = true;
    const CERO: Self = Approx::exact(0.0);

    fn reglas(c: &Cifras) -> &Reglas<Self> {
        &c.productos.filtradas
    }

    fn de(d: Decimal) -> Self {
        Approx::of(d)
    }

    fn entero(n: u32) -> Self {
        Approx::exact(f64::from(n))
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

    fn fijo(c: &Cifras, fijo: Fijo, plazo: u32) -> Option<(Self, Option<Self>)> {
        fijos::fila(c, fijo, plazo)
    }

    fn cat(neto: Self, flujos: &[Flujo<Self>]) -> Option<Option<Self>> {
        finance::cat_filtrado(neto, flujos)
    }
}
