//! Filtered arithmetic: a double together with a rigorous bound on its distance from the exact
//! value, so a decision (a rounding, a comparison) is taken in floating point only when the
//! bound proves that exact decimal arithmetic takes the same one.
//!
//! This is the technique of robust geometric predicates (Shewchuk 1997; the filtered kernels of
//! CGAL): compute fast, certify, and fall back to the exact computation when the certificate
//! fails. Here the exact computation is the `Decimal` model of [`crate::model`]; the fast path
//! of [`crate::model::filtered`] answers `None` whenever a decision is not certified, and the report
//! is then computed in `Decimal`. Either way the report has the same digits, on every platform,
//! whatever the floating-point unit does within IEEE 754.
//!
//! Each operation adds at most one rounding of relative size `u = 2^-53` to the bound; the
//! bounds use `2u` (`f64::EPSILON`), and every decision widens them once more by a relative
//! `1e-9`, which covers the roundings of the bound computations themselves. Exactness is kept
//! where it holds (error-free transformations: TwoSum, and a fused multiply-add residual for
//! products and quotients), so exact ties such as 112.5 or a seniority of exactly 70 points are
//! decided exactly instead of falling back.

use rust_decimal::Decimal;

/// Twice the unit roundoff: bounds one rounding of a result relative to its magnitude.
const ULP: f64 = f64::EPSILON;
/// Relative widening of every bound at a decision.
const SLACK: f64 = 1.0 + 1e-9;
/// Largest magnitude whose doubles still resolve halves (2^52).
const HALVES_LIMIT: f64 = 4_503_599_627_370_496.0;

use crate::money::small_mantissa;
use crate::pow10::{EXACT_POW10, POW10};

/// What decides, without a division, whether 5^k divides a 64-bit `m` (k = 0 ..= 27, the
/// powers that fit 64 bits): `m × 5^-k mod 2^64 <= (2^64 - 1) / 5^k`, with `5^-k` the inverse
/// of 5^k modulo 2^64 (Granlund and Montgomery 1994, §9; a 64-bit division is a dozen cycles
/// or more, at each conversion of an inexact decimal).
const DIVISIBLE_BY_POW5: [(u64, u64); 28] = {
    // 5 × 0xCCCC…CD = 1 (mod 2^64).
    const INVERSE_OF_5: u64 = 0xCCCC_CCCC_CCCC_CCCD;
    let mut table = [(1u64, u64::MAX); 28];
    let (mut power, mut inverse) = (1u64, 1u64);
    let mut i = 1;
    while i < table.len() {
        power *= 5;
        inverse = inverse.wrapping_mul(INVERSE_OF_5);
        table[i] = (inverse, u64::MAX / power);
        i += 1;
    }
    table
};

/// Whether 5^k divides `m` (`k` <= 27).
const fn divisible_by_pow5(m: u64, k: usize) -> bool {
    let (inverse, most) = DIVISIBLE_BY_POW5[k];
    m.wrapping_mul(inverse) <= most
}

/// A double `v` with `|exact - v| <= e`; `e == 0` means `v` is the exact value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Approx {
    v: f64,
    e: f64,
}

impl Approx {
    /// An exactly known double (small integers, powers of ten up to 10^22).
    pub const fn exact(v: f64) -> Approx {
        Approx { v, e: 0.0 }
    }

    /// The value of `d`; exact when `d` is a dyadic fraction that fits in 53 bits.
    pub const fn of(d: Decimal) -> Approx {
        Approx::of_scaled(d, 0)
    }

    /// The value of `d x 10^shift` (so 0.35 with shift 2 is exactly 35).
    pub const fn of_scaled(d: Decimal, shift: u32) -> Approx {
        let parts = d.unpack();
        let low = ((parts.mid as u64) << 32) | parts.lo as u64;
        // A 64-bit conversion is a few instructions; i128 -> f64 is a library call.
        // Through `i64`: one instruction on x86-64, where `u64` to `f64` is a branch and six.
        let unsigned = if parts.hi == 0 && low >> 63 == 0 { low as i64 as f64 } else { d.mantissa().unsigned_abs() as f64 };
        let signed = if parts.negative { -unsigned } else { unsigned };
        let small = parts.hi == 0 && low < (1 << 53);
        let scale = d.scale();
        let (v, exact) = if scale <= shift {
            let v = signed * POW10[(shift - scale) as usize];
            (v, small && ((shift - scale) as usize) < EXACT_POW10 && v.abs() < 9_007_199_254_740_992.0)
        } else {
            let places = scale - shift;
            // m / 10^k is a double exactly when 5^k divides m (it is then (m / 5^k) / 2^k).
            (signed / POW10[places as usize], small && (places as usize) < EXACT_POW10 && divisible_by_pow5(low, places as usize))
        };
        Approx { v, e: if exact { 0.0 } else { v.abs() * 2.0 * ULP } }
    }

    /// The double (the exact value when [`Approx::is_exact`]).
    pub const fn value(self) -> f64 {
        self.v
    }

    /// The bound on the distance from the exact value.
    pub const fn bound(self) -> f64 {
        self.e
    }

    /// The same double with `extra` added to its bound.
    pub fn widen(self, extra: f64) -> Approx {
        if extra == 0.0 { self } else { Approx { v: self.v, e: self.e + extra } }
    }

    /// Whether the double is the exact value.
    pub const fn is_exact(self) -> bool {
        self.e == 0.0
    }

    /// `self + other`.
    pub const fn add(self, other: Approx) -> Approx {
        let v = self.v + other.v;
        if self.is_exact() && other.is_exact() && two_sum_error(self.v, other.v, v) == 0.0 {
            return Approx::exact(v);
        }
        Approx { v, e: self.e + other.e + v.abs() * ULP }
    }

    /// `self - other`.
    pub const fn sub(self, other: Approx) -> Approx {
        self.add(Approx { v: -other.v, e: other.e })
    }

    /// `self x other`.
    pub fn mul(self, other: Approx) -> Approx {
        let v = self.v * other.v;
        if self.is_exact() && other.is_exact() && product_is_exact(self.v, other.v, v) {
            return Approx::exact(v);
        }
        let propagated = self.v.abs() * other.e + other.v.abs() * self.e + self.e * other.e;
        Approx { v, e: propagated + v.abs() * ULP }
    }

    /// `self / other`; unbounded (every decision on it fails) when `other` may be zero.
    pub const fn div(self, other: Approx) -> Approx {
        let v = self.v / other.v;
        let least_divisor = other.v.abs() - other.e;
        if least_divisor.is_nan() || least_divisor <= 0.0 || !v.is_finite() {
            return Approx { v: 0.0, e: f64::INFINITY };
        }
        if self.is_exact() && other.is_exact() && product_is_exact(v, other.v, self.v) {
            return Approx::exact(v);
        }
        // |a/b - (a+da)/(b+db)| = |a db - b da| / |b (b+db)| <= (e_a + |a/b| e_b) / (|b| - e_b)
        Approx { v, e: (self.e + v.abs() * other.e) / least_divisor + v.abs() * ULP }
    }

    /// `self^n`: the doubles of [`potencia`], bounded once instead of at every multiplication.
    /// For a positive base known within a relative `r`, the exact power lies within
    /// `(1 + r)^n - 1 <= n r (1 + n r)` (for `n r <= 1`) of `v^n`; and the squarings and
    /// products round `v^n` by a relative `γ(2n) = 2n u / (1 - 2n u)` at most (Higham, lemma
    /// 3.1: each rounding enters the result raised to the times its product does, the squaring
    /// of `v^(2^j)` at most `n / 2^j` times and each product once, `2n` in all). Exact bases
    /// (whose powers may be exact), others, large exponents and powers near the ends of the
    /// doubles' range multiply as [`Approx::mul`].
    pub fn potencia(self, n: u32) -> Approx {
        self.potencia_acotada(n).unwrap_or_else(|| potencia(Approx::exact(1.0), self, n))
    }

    /// [`Approx::potencia`] bounded once; `None` where the lemma does not apply.
    fn potencia_acotada(self, n: u32) -> Option<Approx> {
        if self.is_exact() {
            return None;
        }
        let (relativo, veces) = (self.e / self.v, f64::from(n));
        let v = potencia(1.0, self.v, n);
        // The lemma needs no product to underflow or overflow: each lies between 1 and `v`.
        // Both terms far below 1: their first orders dominate, the rest is slack.
        if !(self.v > 0.0 && v.is_finite() && v > 1e-300 && relativo * veces <= 1e-6 && veces * ULP <= 1e-6) {
            return None;
        }
        // γ(2n) with the unit roundoff itself, u = ULP / 2 (the lemma's own bound).
        let redondeo = veces * ULP / (1.0 - veces * ULP);
        let entrada = relativo * veces * (1.0 + relativo * veces);
        Some(Approx { v, e: v * (redondeo + entrada) / (1.0 - redondeo) })
    }

    /// A value known only to lie between the doubles `low` and `high` (`low <= high`).
    pub fn between(low: f64, high: f64) -> Approx {
        let v = low + (high - low) / 2.0;
        // Each distance is one rounded subtraction away from the exact one.
        Approx { v, e: (high - v).max(v - low) * (1.0 + ULP) }
    }

    /// A double at or below the exact value.
    pub fn lower(self) -> f64 {
        self.v - self.decision_bound()
    }

    /// A double at or above the exact value.
    pub fn upper(self) -> f64 {
        self.v + self.decision_bound()
    }

    /// Bound used at a decision: widened, and never below a rounding of the value.
    fn decision_bound(self) -> f64 {
        if self.is_exact() { 0.0 } else { self.e * SLACK + self.v.abs() * ULP }
    }
}

/// Operators, so code generic over [`crate::products`]' number type reads as arithmetic.
macro_rules! approx_operator {
    ($($trait:ident $method:ident),*) => {$(
        impl std::ops::$trait for Approx {
            type Output = Approx;
            fn $method(self, other: Approx) -> Approx {
                Approx::$method(self, other)
            }
        }
    )*};
}
approx_operator!(Add add, Sub sub, Mul mul, Div div);

/// `base^n` by repeated squaring (`uno` for `n` = 0). In doubles every platform rounds these
/// multiplications alike (IEEE 754), unlike a library `powf`.
#[inline]
pub(crate) fn potencia<T: Copy + std::ops::Mul<Output = T>>(uno: T, base: T, mut n: u32) -> T {
    let (mut b, mut r) = (base, uno);
    while n > 0 {
        if n & 1 == 1 {
            r = r * b;
        }
        n >>= 1;
        if n > 0 {
            b = b * b;
        }
    }
    r
}

/// Error of the rounded sum `s = a + b` (Knuth's TwoSum): zero exactly when `s` is exact.
const fn two_sum_error(a: f64, b: f64, s: f64) -> f64 {
    let b_virtual = s - a;
    let a_virtual = s - b_virtual;
    (a - a_virtual) + (b - b_virtual)
}

/// Veltkamp's split of a double into two halves of 26 bits whose products are exact.
const fn split(a: f64) -> (f64, f64) {
    let c = 134_217_729.0 * a; // 2^27 + 1
    let high = c - (c - a);
    (high, a - high)
}

/// Whether `a x b` is exactly `p` (Dekker's TwoProduct; no fused multiply-add, which
/// baseline x86-64 and WebAssembly only have in software). Magnitudes are far from overflow.
const fn product_is_exact(a: f64, b: f64, p: f64) -> bool {
    if a * b != p {
        return false;
    }
    let (a_high, a_low) = split(a);
    let (b_high, b_low) = split(b);
    ((a_high * b_high - p) + a_high * b_low + a_low * b_high) + a_low * b_low == 0.0
}

/// Certified `a < b`: `None` when the bounds cannot tell.
pub(crate) fn less(a: Approx, b: Approx) -> Option<bool> {
    if a.is_exact() && b.is_exact() {
        return Some(a.v < b.v);
    }
    let difference = a.v - b.v;
    let bound = (a.e + b.e) * SLACK + (a.v.abs() + b.v.abs()) * ULP;
    if difference < -bound {
        Some(true)
    } else if difference > bound {
        Some(false)
    } else {
        None
    }
}

/// Certified `a == 0`.
pub(crate) fn is_zero(a: Approx) -> Option<bool> {
    if a.is_exact() {
        return Some(a.v == 0.0);
    }
    if a.v.abs() > a.decision_bound() { Some(false) } else { None }
}

/// `|v|` rounded half away from zero to a whole number (`v`'s sign is the caller's), certified
/// for every value within `bound` of `v` (0: `v` is exact): `None` when the bound reaches the
/// nearest half, is a quarter or more, or `v` is too large (NaN and infinities fail the first
/// test). A magnitude, not a `Decimal`: see [`round_dp`].
///
/// Adding 2^52 to a magnitude below it rounds the magnitude to the nearest whole number (ties
/// to even) and leaves that number in the sum's low 52 bits: one addition, where a conversion
/// to an integer and back is a dozen instructions with Rust's saturating casts. The distance
/// to that whole number is exact (at most a half, a multiple of the magnitude's unit), and the
/// rounding boundary nearest `v` lies half a unit from it.
#[inline(always)]
fn whole_within(v: f64, bound: f64) -> Option<u64> {
    let magnitude = v.abs();
    if !(magnitude < HALVES_LIMIT && bound < 0.25) {
        return None;
    }
    let shifted = magnitude + HALVES_LIMIT;
    let distance = magnitude - (shifted - HALVES_LIMIT);
    if 0.5 - distance.abs() <= bound && bound != 0.0 {
        return None;
    }
    // An exact half rounds away from zero, where ties to even went down.
    Some(shifted.to_bits() - HALVES_LIMIT.to_bits() + u64::from(distance == 0.5))
}

/// Certified `crate::money::round(x, dp)`, in the canonical form (scale exactly `dp`).
///
/// Inlined natively: returned from a call, an `Option<Decimal>` goes through memory, written
/// in pieces and read back whole, which stalls the read (a failed store-to-load forwarding, a
/// dozen cycles at each of a report's thirty-odd roundings: the largest cost `perf annotate`
/// showed in the offers). So is one merged with another path's answer through memory: the rare
/// path near a tie stays out of line and answers a magnitude, in registers, and the decimal
/// is built once, at the end. In WebAssembly, one copy (its size budget).
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
#[cfg_attr(target_arch = "wasm32", inline(never))]
pub(crate) fn round_dp(x: Approx, dp: u32) -> Option<Decimal> {
    let power = POW10[dp as usize];
    // The product's bound as if it were inexact (`decision_bound` of the scaled value) decides
    // almost every rounding, one far from a tie; only near a tie is it worth proving an exact
    // product exact.
    let v = x.v * power;
    let magnitude = v.abs();
    let bound = (x.e * power + magnitude * ULP) * SLACK + magnitude * ULP;
    let whole = match whole_within(v, bound) {
        Some(whole) => whole,
        None => round_dp_near_tie(x, dp)?,
    };
    Some(crate::money::decimal(whole, v.is_sign_negative(), dp))
}

/// [`round_dp`] where the inexact bound does not decide: an exact `x` scaled exactly
/// (`Approx::mul` proves the product exact, or bounds it), `None` otherwise.
#[cfg_attr(not(target_arch = "wasm32"), inline(never))]
fn round_dp_near_tie(x: Approx, dp: u32) -> Option<u64> {
    if !x.is_exact() {
        return None;
    }
    let scaled = x.mul(Approx::exact(POW10[dp as usize]));
    whole_within(scaled.v, scaled.decision_bound())
}

/// `crate::money::round(num / den, dp)` (`den` not 0): certified from one division of the
/// mantissas in doubles, divided in `Decimal` only near a rounding tie (a `Decimal` quotient
/// is some hundreds of instructions). `num / den × 10^dp` is `(m_num / m_den) × 10^(s_den −
/// s_num + dp)`: with both mantissas exact doubles and that power of ten exact, the double
/// is two roundings from the exact value, within `4u` of it relatively (the bound used), and
/// wherever that bound certifies the rounding, `Decimal`'s quotient (within 1e-28 relatively
/// of the exact one) rounds alike. Three divisions in a row (each decimal to a double, then
/// the quotient) were most of a report's capacity block.
pub(crate) fn round_quotient(num: Decimal, den: Decimal, dp: u32) -> Decimal {
    match quotient_scaled(num, den, dp).and_then(|v| Some((whole_within(v, v.abs() * 2.0 * ULP)?, v.is_sign_negative()))) {
        Some((whole, negative)) => crate::money::decimal(whole, negative, dp),
        None => crate::money::round(num / den, dp),
    }
}

/// `num / den × 10^dp` in doubles, two roundings from the exact value; `None` where a mantissa
/// is not an exact double, the divisor is 0, or a power of ten is not exact.
fn quotient_scaled(num: Decimal, den: Decimal, dp: u32) -> Option<f64> {
    let ((n, num_scale), (d, den_scale)) = (small_mantissa(num)?, small_mantissa(den)?);
    if d == 0.0 {
        return None;
    }
    let q = n / d;
    let (up, down) = (den_scale + dp as usize, num_scale);
    let exact_power = |k: usize| (k < EXACT_POW10).then(|| POW10[k]);
    if up >= down { Some(q * exact_power(up - down)?) } else { Some(q / exact_power(down - up)?) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::tests::d;

    #[test]
    fn exact_values_stay_exact() {
        assert!(Approx::of(d("30000")).is_exact());
        assert!(Approx::of(d("12345.50")).is_exact());
        assert!(!Approx::of(d("0.1")).is_exact());
        assert_eq!(Approx::of_scaled(d("0.35"), 2), Approx::exact(35.0));
        let sum = Approx::exact(75.0).mul(Approx::exact(15.0)).div(Approx::exact(10.0));
        assert_eq!(sum, Approx::exact(112.5));
        assert!(!Approx::exact(1.0).div(Approx::exact(3.0)).is_exact());
    }

    #[test]
    fn divisibility_by_powers_of_five_is_the_remainders() {
        let mut m: u64 = 1;
        for k in 0..28 {
            let power = 5u64.pow(k as u32);
            let multiples = [0, 1, 2, 3, 7, (u64::MAX / power).saturating_sub(1), u64::MAX / power].map(|q| q.wrapping_mul(power));
            let mut samples = Vec::from(multiples);
            samples.extend(multiples.iter().flat_map(|&x| [x.wrapping_add(1), x.wrapping_sub(1), x.wrapping_add(power / 2)]));
            for _ in 0..2_000 {
                m = m.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                samples.push(m >> (m % 64));
            }
            for x in samples {
                assert_eq!(divisible_by_pow5(x, k), x % power == 0, "{x} by 5^{k}");
            }
        }
    }

    #[test]
    fn halves_round_away_from_zero_through_the_whole_range() {
        // Every half and its neighbours, exact, at each binade up to 2^52 (whose halves are
        // the last a double holds), both signs, against Decimal's rounding.
        for exponent in 0..52 {
            let base = f64::from(1u32 << (exponent % 31)) * f64::from(1u32 << (exponent - exponent % 31));
            for v in [base - 0.5, base + 0.5, base + 1.5, base + 0.25, base - 0.25, base, base + 0.75] {
                for v in [v, -v] {
                    let expected = crate::money::round(Decimal::from_f64_retain(v).expect("finite"), 0);
                    assert_eq!(round_dp(Approx::exact(v), 0), Some(expected), "{v}");
                }
            }
        }
        assert_eq!(round_dp(Approx::exact(4_503_599_627_370_495.5), 0), Some(d("4503599627370496")));
        assert_eq!(round_dp(Approx::exact(4_503_599_627_370_496.0), 0), None);
        assert_eq!(round_dp(Approx::exact(-0.4), 0).map(|r| r.is_sign_negative()), Some(false));
    }

    #[test]
    fn exact_halves_round_away_from_zero() {
        assert_eq!(round_dp(Approx::exact(177.5), 0), Some(Decimal::from(178)));
        assert_eq!(round_dp(Approx::exact(-0.125), 2), Some(d("-0.13")));
        assert_eq!(round_dp(Approx::exact(0.49999999999999994), 0), Some(d("0")));
    }

    #[test]
    fn quotients_round_as_decimal_division_does() {
        let cases = [
            ("1", "3", 2),
            ("2", "3", 4),
            ("1", "8", 2),
            ("5", "4", 1),
            ("3000000", "4210.55", 2),
            ("1", "0.0003", 0),
            // Exact halves (decided in `Decimal`), scales on either side, signs, large mantissas.
            ("0.125", "1", 2),
            ("-0.125", "1", 2),
            ("1", "-8", 2),
            ("2625000.00", "2916666.67", 4),
            ("145833.3335", "12", 2),
            ("123456789.123456789", "7", 4),
            ("9007199254740993", "3", 2),
            ("0.0000000000000000000001", "3", 2),
            ("1", "0.0000000000000000000000001", 2),
        ];
        let mut x: u64 = 11;
        let mut next = |bits: u32| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            x >> (64 - bits)
        };
        let mut sweep = Vec::new();
        for _ in 0..20_000 {
            let (num, num_scale, den, den_scale) = (next(40), next(3) as u32, next(24) + 1, next(2) as u32);
            // Many quotients land on halves: a numerator of the denominator's multiples.
            let num = if next(1) == 1 { num } else { (num % 100_000) * den / 8 };
            let dp = if next(1) == 1 { 2 } else { 4 };
            sweep.push((Decimal::new(num as i64, num_scale), Decimal::new(den as i64, den_scale), dp));
        }
        // Quotients a hair from a half, closer than their doubles resolve: near 2^51 a
        // double's unit is a half, and n × 10^4 / d is 1/(2d) from one (found by search).
        for (n, den) in [(224_954_801_387_581u64, 999u64), (225_405_161_350_319, 1_001), (922_562_383_668_472, 4_097)] {
            sweep.push((Decimal::from(n), Decimal::from(den), 4));
        }
        for (num, den, dp) in sweep {
            assert_eq!(round_quotient(num, den, dp), crate::money::round(num / den, dp), "{num} / {den}");
        }
        for (num, den, dp) in cases {
            let (num, den) = (d(num), d(den));
            assert_eq!(round_quotient(num, den, dp), crate::money::round(num / den, dp), "{num} / {den}");
        }
    }

    /// A power's bound holds the exact power of every base its base's bound allows: the power
    /// rises with the base, so both ends of that interval are checked, powered in double-double
    /// arithmetic (some 100 bits, far finer than the bounds), for the products' monthly rates
    /// known to a rounding or far less well (where the base's bound, not the roundings,
    /// dominates), and every term up to 400 months. An exact base keeps exact powers.
    #[test]
    fn a_power_holds_the_exact_power_of_its_base() {
        /// A double-double: `hi + lo`, with `|lo|` at most half an ulp of `hi`.
        #[derive(Clone, Copy)]
        struct Dd(f64, f64);
        fn suma(a: Dd, b: Dd) -> Dd {
            let s = a.0 + b.0;
            let e = two_sum_error(a.0, b.0, s) + a.1 + b.1;
            let t = s + e;
            Dd(t, e - (t - s))
        }
        impl std::ops::Mul for Dd {
            type Output = Dd;
            fn mul(self, b: Dd) -> Dd {
                let p = self.0 * b.0;
                let ((ah, al), (bh, bl)) = (split(self.0), split(b.0));
                let error = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
                suma(Dd(p, 0.0), Dd(error + self.0 * b.1 + self.1 * b.0, 0.0))
            }
        }
        let tasas = ["0.0195", "0.0345", "0.0845", "0.1045", "0.115", "0.5736"];
        for (tasa, ancho) in tasas.into_iter().flat_map(|t| [(t, 0.0), (t, 1e-12), (t, 1e-9)]) {
            let base = Approx::exact(1.0) + Approx::of(d(tasa)) / Approx::exact(12.0);
            let base = base.widen(ancho * base.value());
            assert!(!base.is_exact());
            for n in 1..=400 {
                let p = base.potencia(n);
                for extremo in [-base.bound(), base.bound()] {
                    let exacta = potencia(Dd(1.0, 0.0), suma(Dd(base.value(), 0.0), Dd(extremo, 0.0)), n);
                    let distancia = (exacta.0 - p.value()) + exacta.1;
                    assert!(distancia.abs() <= p.bound() * SLACK, "{tasa}^{n}: {distancia:e} outside {:e}", p.bound());
                }
            }
        }
        assert_eq!(Approx::exact(1.5).potencia(3), Approx::exact(3.375));
        // Beyond the lemma (a power that underflows), it is the multiplications' own.
        let mitad = Approx::exact(0.5).widen(1e-17);
        assert_eq!(mitad.potencia(2_000), potencia(Approx::exact(1.0), mitad, 2_000));
    }

    #[test]
    fn uncertain_decisions_are_refused() {
        // 0.005 as a double is not exact; it might be either side of the boundary.
        assert_eq!(round_dp(Approx::of(d("0.005")), 2), None);
        assert_eq!(round_dp(Approx::of(d("0.0049")), 2), Some(d("0.00")));
        let third = Approx::exact(1.0).div(Approx::exact(3.0));
        assert_eq!(less(third, Approx::of(d("0.3333333333333333333"))), None);
        assert_eq!(less(third, Approx::of(d("0.3334"))), Some(true));
        assert_eq!(is_zero(Approx::exact(1.0).div(Approx::exact(0.0))), None);
    }
}
