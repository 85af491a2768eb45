//! `Decimal`'s own product and order, taken in integers where the operands are small.
//!
//! The model's exact quantities (limits, balances, thresholds, salaries against minimum
//! wages) are products and comparisons of decimals whose mantissas fit 64 bits. `rust_decimal`
//! handles any 96-bit mantissa and any scale, some 70 instructions a product and 90 a comparison
//! of two scales; here one 128-bit multiplication gives the very same `Decimal`, and the
//! general operator is kept for anything larger. Each is tested against `rust_decimal` bit for
//! bit.

use crate::money::small_parts;
use crate::pow10::POW10_U64;
use rust_decimal::Decimal;
use std::cmp::Ordering;

/// `a × b`, the very `Decimal` that `a * b` gives (value, sign and scale), in one 128-bit
/// multiplication where both mantissas fit 64 bits and the product is exact in `Decimal`
/// (96 bits, at most 28 decimals): `Decimal`'s operator is some 70 instructions, and a
/// report's limits, balances and thresholds are a few dozen such products of small
/// operands. The test `por_is_decimals_product` checks it against the operator.
// Inlined natively, where a constant factor folds; one copy in WebAssembly (its size budget).
#[cfg_attr(target_arch = "wasm32", inline(never))]
pub(crate) fn por(a: Decimal, b: Decimal) -> Decimal {
    if let (Some((ma, sa)), Some((mb, sb))) = (small_parts(a), small_parts(b)) {
        let producto = u128::from(ma) * u128::from(mb);
        if producto == 0 {
            // `Decimal` answers a plain zero for any zero factor.
            return Decimal::ZERO;
        }
        let scale = sa + sb;
        if scale <= Decimal::MAX_SCALE && producto >> 96 == 0 {
            #[allow(clippy::cast_possible_truncation)] // the three 32-bit words
            return Decimal::from_parts(
                producto as u32,
                (producto >> 32) as u32,
                (producto >> 64) as u32,
                a.is_sign_negative() != b.is_sign_negative(),
                scale,
            );
        }
    }
    a * b
}

/// A `Decimal` in `Decimal`'s order, compared in integers where both mantissas fit 64 bits
/// (every amount, rate and limit of the model): a `Decimal` comparison of two scales rescales
/// in 96-bit arithmetic, some 90 instructions, and the products and the verdict compare
/// salaries with minimum wages and payments with limits some twenty times a report.
/// `Orden(a) < Orden(b)` reads as the comparison it is; the test `orden_is_decimals_order`
/// checks it against `Decimal`'s.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Orden(pub Decimal);

impl Ord for Orden {
    // Inlined natively (as `crate::money::round`, for the stall of reading back through
    // memory a decimal just computed); one copy in WebAssembly.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    #[cfg_attr(target_arch = "wasm32", inline(never))]
    fn cmp(&self, other: &Self) -> Ordering {
        let (a, b) = (self.0.unpack(), other.0.unpack());
        if a.hi | b.hi == 0 {
            let (ma, mb) = ((u64::from(a.mid) << 32) | u64::from(a.lo), (u64::from(b.mid) << 32) | u64::from(b.lo));
            // Two non-negative amounts at one scale, most of the model's: their mantissas.
            if !a.negative && !b.negative && a.scale == b.scale {
                return ma.cmp(&mb);
            }
            // Both magnitudes at the larger scale: at most (2^64 - 1) x 10^19 < 2^128.
            if let Some(&factor) = POW10_U64.get(a.scale.abs_diff(b.scale) as usize) {
                let (ma, mb) = if a.scale < b.scale {
                    (u128::from(ma) * u128::from(factor), u128::from(mb))
                } else {
                    (u128::from(ma), u128::from(mb) * u128::from(factor))
                };
                // A negative zero is zero.
                return match (a.negative && ma != 0, b.negative && mb != 0) {
                    (false, false) => ma.cmp(&mb),
                    (true, true) => mb.cmp(&ma),
                    (false, true) => Ordering::Greater,
                    (true, false) => Ordering::Less,
                };
            }
        }
        self.0.cmp(&other.0)
    }
}

impl PartialOrd for Orden {
    // As `cmp`, which it is.
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Orden {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for Orden {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::tests::d;

    /// `samples` and a deterministic sweep of `n` more decimals: mantissas of each of the
    /// `bits` widths in turn (both sides of 64 bits), every scale, both signs.
    fn muestras(samples: &[&str], n: i128, bits: [u32; 5]) -> Vec<Decimal> {
        let mut values: Vec<Decimal> = samples.iter().map(|t| d(t)).collect();
        let mut m: i128 = 7;
        for step in 0..n {
            m = m.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407) & ((1i128 << 70) - 1);
            let mantissa = m & ((1i128 << bits[(step % 5) as usize]) - 1);
            values.push(Decimal::from_i128_with_scale(if step % 3 == 0 { -mantissa } else { mantissa }, (step % 29) as u32));
        }
        values
    }

    #[test]
    fn por_is_decimals_product() {
        let samples = [
            "0", "-0", "0.00", "1", "-1", "0.05", "0.30", "0.4", "0.5", "89155.6", "30000", "30000.00", "-12.5",
            "18446744073709551615", "79228162514264337593543950335", "0.0000000000000001", "0.00000000000001",
            "4294967296", "4294967295.5", "123456789.123456789",
        ];
        let values = muestras(&samples, 600, [10, 32, 48, 64, 70]);
        for a in &values {
            // Products that overflow `Decimal` panic either way (never in the model's ranges).
            for (b, expected) in values.iter().filter_map(|b| Some((b, a.checked_mul(*b)?))) {
                // `serialize` holds every bit: sign, scale and mantissa.
                assert_eq!(por(*a, *b).serialize(), expected.serialize(), "{a:?} × {b:?}");
            }
        }
    }

    #[test]
    fn orden_is_decimals_order() {
        // Equal values at different scales, signed zeros, the limits of each path (mantissas
        // of 64 bits and beyond, scales 19 apart and more), and a sweep.
        let samples = [
            "0", "-0", "0.00", "-0.000", "1", "1.0", "1.00000000000000000000", "0.99", "-1", "-1.01", "9577.216",
            "19154.432", "19154.43", "19154.44", "0.01", "0.0000000000000000001", "18446744073709551615",
            "18446744073709551616", "-18446744073709551615", "1844674407370955161.5", "0.0000000000000000000000000001",
            "79228162514264337593543950335", "-79228162514264337593543950335", "30000", "30000.00", "8364.48",
        ];
        let values = muestras(&samples, 3_000, [20, 40, 64, 66, 70]);
        for a in &values {
            for b in values.iter().step_by(7) {
                assert_eq!(Orden(*a).cmp(&Orden(*b)), a.cmp(b), "{a:?} against {b:?}");
            }
        }
    }
}
