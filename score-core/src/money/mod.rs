//! Rounding and the JSON number form of `Decimal`.
//!
//! Rounding is half away from zero ("redondeo comercial"), the rule people and banks expect:
//! 0.125 → 0.13, -0.125 → -0.13, 690.5 → 691. Amounts are shown with 2 decimals, ratios with
//! 4, component values and points with 2, and the score as a whole number.
//!
//! JSON carries amounts as numbers (the spec's types). A `Decimal` is written as an integer
//! when it has no fractional part and otherwise as the shortest decimal text that reads back
//! as the same binary double, which for values of at most 15 significant digits (every output
//! of the model) is exactly the decimal's own digits. So Rust, Python, JavaScript and the
//! browser all print and read the same digits. Numbers come in as the decimal a person wrote:
//! a JSON literal ([`from_json_literal`]) or a host double ([`from_f64`]).

use rust_decimal::prelude::ToPrimitive;
use rust_decimal::{Decimal, RoundingStrategy};
use serde::{Deserializer, Serializer};
use std::fmt::Write as _;

use crate::pow10::{EXACT_POW10, POW10, POW10_U64, div_pow10};

mod literal;
pub use literal::{from_f64, from_json_literal};

/// Decimal places of money amounts and of m².
pub const MONEY_DP: u32 = 2;
/// Decimal places of ratios (DTI, financial-health ratio).
pub const RATIO_DP: u32 = 4;

/// Rounds half away from zero to `dp` decimal places.
///
/// One division of the mantissa, instead of `rust_decimal`'s digit-by-digit loop (which was a
/// quarter of a report's cost): a 64-bit one for every shown figure (natively a multiplication
/// by the reciprocal, [`div_pow10`]), a 128-bit one otherwise. The test `fast_rounding_matches_rust_decimal` checks it against
/// `round_dp_with_strategy(MidpointAwayFromZero)`.
///
/// The result always has exactly `dp` decimal places (30000 becomes 30000.00), so the same
/// figure has one representation whichever way it was computed (see [`crate::approx`]).
// Inlined natively: a decimal just computed by the caller, passed through memory, is read
// back as one 64-bit word from its 32-bit halves, which stalls the read (a failed
// store-to-load forwarding, the most `perf annotate` showed here). The 128-bit path stays out
// of line. In WebAssembly, one copy (its size budget: about twenty call sites).
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
#[cfg_attr(target_arch = "wasm32", inline(never))]
pub fn round(value: Decimal, dp: u32) -> Decimal {
    // A magnitude from the fast path, the decimal built once (see `approx::round_dp`).
    match round_small(value, dp) {
        Some(rounded) => decimal(rounded, value.is_sign_negative(), dp),
        None => round_wide(value, dp),
    }
}

/// The decimal `±magnitude × 10^-dp` (`dp` <= 28); a zero is positive, as `Decimal::new`
/// makes it.
#[inline(always)]
pub(crate) fn decimal(magnitude: u64, negative: bool, dp: u32) -> Decimal {
    #[allow(clippy::cast_possible_truncation)] // the two 32-bit halves
    Decimal::from_parts(magnitude as u32, (magnitude >> 32) as u32, 0, negative, dp)
}

/// [`round`]'s magnitude in 64-bit arithmetic, when the mantissa, the power of ten and the
/// result fit 64 bits (WebAssembly has no 128-bit arithmetic: `round_wide` calls library
/// routines there).
#[inline]
fn round_small(value: Decimal, dp: u32) -> Option<u64> {
    let (magnitude, scale) = small_parts(value)?;
    if dp > Decimal::MAX_SCALE {
        return None;
    }
    let rounded = if scale <= dp {
        magnitude.checked_mul(*POW10_U64.get((dp - scale) as usize)?)?
    } else {
        let (quotient, remainder, divisor) = div_pow10(magnitude, (scale - dp) as usize)?;
        quotient + u64::from(remainder >= divisor - remainder)
    };
    Some(rounded)
}

/// [`round`] in 128-bit arithmetic: any mantissa.
#[inline(never)]
fn round_wide(value: Decimal, dp: u32) -> Decimal {
    let scale = value.scale();
    let mantissa = value.mantissa();
    if scale <= dp {
        return 10i128
            .checked_pow(dp - scale)
            .and_then(|factor| mantissa.checked_mul(factor))
            .and_then(|widened| Decimal::try_from_i128_with_scale(widened, dp).ok())
            .unwrap_or(value);
    }
    let rounded = div_round_half_away(mantissa, 10i128.pow(scale - dp));
    Decimal::try_from_i128_with_scale(rounded, dp)
        .unwrap_or_else(|_| value.round_dp_with_strategy(dp, RoundingStrategy::MidpointAwayFromZero))
}

/// `numerator / divisor` (`divisor` > 0) rounded half away from zero: the one rounding rule of
/// the model (MODEL.md §2) on an exact fraction of integers, for the roundings done in 128-bit
/// integers ([`round`]'s wide path, the score's hundredths, a curve at whole months; `round`'s
/// 64-bit path, `round_small`, keeps the same test on unsigned magnitudes, as WebAssembly has
/// no 128-bit division). `const`, so that the weights' hundredths are computed at compile time.
/// Comparing the remainder with what is left of the divisor, rather than doubling it, cannot
/// overflow.
pub(crate) const fn div_round_half_away(numerator: i128, divisor: i128) -> i128 {
    let (quotient, remainder) = (numerator / divisor, numerator % divisor);
    if remainder.abs() >= divisor - remainder.abs() {
        quotient + numerator.signum()
    } else {
        quotient
    }
}

/// Money amount as shown: 2 decimals.
// As `round`, which it is.
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub fn money(value: Decimal) -> Decimal {
    round(value, MONEY_DP)
}

/// Ratio as shown: 4 decimals.
// As `round`, which it is.
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub fn ratio(value: Decimal) -> Decimal {
    round(value, RATIO_DP)
}

/// A fixed stack buffer for formatting a decimal without allocating.
struct StackText {
    buf: [u8; 64],
    len: usize,
}

impl std::fmt::Write for StackText {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        if end > self.buf.len() {
            return Err(std::fmt::Error);
        }
        self.buf[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// The mantissa of `value` as a double when it is exact (under 2^53 in magnitude) and the
/// scale has an exact power of ten: the case of every shown figure.
#[inline]
pub(crate) fn small_mantissa(value: Decimal) -> Option<(f64, usize)> {
    let (magnitude, scale) = small_parts(value)?;
    let scale = scale as usize;
    if magnitude >= 1 << 53 || scale >= EXACT_POW10 {
        return None;
    }
    // Through `i64`: one instruction on x86-64, where `u64` to `f64` is a branch and six.
    #[allow(clippy::cast_precision_loss, clippy::cast_possible_wrap)] // under 2^53: exact
    let magnitude = magnitude as i64 as f64;
    // A negative zero (a tiny negative amount rounded) reads as 0, as its JSON text `0` does.
    Some((if value.is_sign_negative() && magnitude != 0.0 { -magnitude } else { magnitude }, scale))
}

/// The magnitude of `value`'s mantissa and its scale, when the mantissa fits 64 bits: read from
/// the decimal's 32-bit parts rather than through its 128-bit mantissa, which WebAssembly
/// emulates.
#[inline]
pub(crate) fn small_parts(value: Decimal) -> Option<(u64, u32)> {
    // Field by field (`unpack`): through `serialize`'s bytes, a decimal just copied was read
    // back across the pieces it was written in, which stalls the read.
    let parts = value.unpack();
    (parts.hi == 0).then(|| ((u64::from(parts.mid) << 32) | u64::from(parts.lo), parts.scale))
}

/// The binary double nearest to `value`.
///
/// Fast path (Clinger): when the mantissa fits in 53 bits and the scale is at most 22, both
/// `mantissa` and `10^scale` are exact doubles and one IEEE division is correctly rounded. Every
/// shown amount of a report (2 or 4 decimals) takes it; other values go through their text.
pub fn to_f64(value: Decimal) -> f64 {
    if let Some((mantissa, scale)) = small_mantissa(value) {
        return mantissa / POW10[scale];
    }
    let mut text = StackText { buf: [0; 64], len: 0 };
    if write!(text, "{value}").is_ok() {
        if let Some(parsed) = std::str::from_utf8(&text.buf[..text.len]).ok().and_then(|s| s.parse().ok()) {
            return parsed;
        }
    }
    value.to_f64().unwrap_or(0.0)
}

/// The whole number `value` equals, when it has no fractional part and fits 64 bits: how a
/// report's JSON writes it (`30000.00` is written `30000`, see [`number::serialize`]).
pub fn whole(value: Decimal) -> Option<i64> {
    let Ok(mantissa) = i64::try_from(value.mantissa()) else {
        return value.fract().is_zero().then(|| value.to_i64()).flatten();
    };
    // Constant divisors for the scales the model shows (amounts 2, ratios 4): no division.
    let exact = |unit: i64| (mantissa % unit == 0).then(|| mantissa / unit);
    match value.scale() {
        0 => Some(mantissa),
        2 => exact(100),
        4 => exact(10_000),
        // Beyond 10^18 a 64-bit mantissa is a fraction unless it is zero.
        scale => 10i64.checked_pow(scale).map_or((mantissa == 0).then_some(0), exact),
    }
}

/// The double a JSON reader gets from the number a report's JSON writes for `value`, which is
/// what the bindings hand to Python and JavaScript: the same digits on every surface.
///
/// Inlined: the bindings convert some sixty figures per report, and in WebAssembly a call
/// with its stack frame costs more than the conversion itself.
#[inline]
pub fn json_f64(value: Decimal) -> f64 {
    // Every shown figure: the mantissa and the power of ten are exact doubles, so one IEEE
    // division is the correctly rounded value, and for a whole value it is the integer itself.
    match small_mantissa(value) {
        Some((mantissa, scale)) => mantissa / POW10[scale],
        None => json_f64_of_large(value),
    }
}

/// [`json_f64`] of a value with a mantissa beyond 2^53 or a scale beyond 22.
#[cold]
#[inline(never)]
fn json_f64_of_large(value: Decimal) -> f64 {
    match whole(value) {
        #[allow(clippy::cast_precision_loss)] // as a JSON reader rounds the integer's digits
        Some(int) => int as f64,
        None => to_f64(value),
    }
}

/// `serde(with = "crate::money::number")`: a `Decimal` as a JSON number.
pub mod number {
    use super::*;

    /// Writes an integer when there is no fractional part, else the nearest double.
    pub fn serialize<S: Serializer>(value: &Decimal, serializer: S) -> Result<S::Ok, S::Error> {
        match whole(*value) {
            Some(int) => serializer.serialize_i64(int),
            None => serializer.serialize_f64(to_f64(*value)),
        }
    }

    /// Reads any JSON number.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Decimal, D::Error> {
        deserializer.deserialize_any(NumberVisitor)
    }

    pub(crate) struct NumberVisitor;

    impl serde::de::Visitor<'_> for NumberVisitor {
        type Value = Decimal;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a number")
        }
        fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Decimal, E> {
            Ok(Decimal::from(v))
        }
        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Decimal, E> {
            Ok(Decimal::from(v))
        }
        fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Decimal, E> {
            from_f64(v).ok_or_else(|| E::custom("number out of range"))
        }
    }
}

/// `serde(with = "crate::money::option_number")`: an optional `Decimal` as a number or null.
pub mod option_number {
    use super::*;

    /// Writes `null` or the number.
    pub fn serialize<S: Serializer>(value: &Option<Decimal>, serializer: S) -> Result<S::Ok, S::Error> {
        match value {
            Some(v) => number::serialize(v, serializer),
            None => serializer.serialize_none(),
        }
    }

    /// Reads `null` or a number.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Decimal>, D::Error> {
        struct OptVisitor;
        impl<'de> serde::de::Visitor<'de> for OptVisitor {
            type Value = Option<Decimal>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a number or null")
            }
            fn visit_none<E: serde::de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
                number::deserialize(d).map(Some)
            }
        }
        deserializer.deserialize_option(OptVisitor)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::str::FromStr;

    /// A decimal from its text (the unit tests of the crate share it).
    pub(crate) fn d(text: &str) -> Decimal {
        Decimal::from_str(text).expect("decimal")
    }

    #[test]
    fn rounds_half_away_from_zero() {
        assert_eq!(money(d("0.125")).to_string(), "0.13");
        assert_eq!(money(d("-0.125")).to_string(), "-0.13");
        assert_eq!(round(d("690.5"), 0).to_string(), "691");
        assert_eq!(round(d("690.4999"), 0).to_string(), "690");
        // One representation per figure: always `dp` places.
        assert_eq!(money(Decimal::from(30000)).to_string(), "30000.00");
        assert_eq!(money(d("-0")).to_string(), "0.00");
        assert_eq!(ratio(d("0.5")).to_string(), "0.5000");
    }

    #[test]
    fn fast_rounding_matches_rust_decimal() {
        let samples = [
            "0", "0.005", "-0.005", "0.004999", "1.2345", "-1.2355", "690.5", "-690.5", "92.8691559250196460700209112",
            "79228162514264337593543950335", "-7922816251426433759354395033.5", "0.0000000000000000000000000005",
            "123456789.123456789123456789", "-0.0049", "1.005", "2.675",
        ];
        for text in samples {
            let d = d(text);
            for dp in 0..=6 {
                let expected = d.round_dp_with_strategy(dp, RoundingStrategy::MidpointAwayFromZero);
                assert_eq!(round(d, dp), expected, "{text} to {dp} places");
            }
        }
        // A deterministic sweep over mantissas and scales.
        let mut m: i128 = 1;
        for step in 0..20_000i128 {
            m = m.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407) & ((1i128 << 95) - 1);
            let d = Decimal::from_i128_with_scale(if step % 2 == 0 { m } else { -m }, (step % 29) as u32);
            for dp in [0, 2, 4] {
                let rounded = round(d, dp);
                assert_eq!(rounded, d.round_dp_with_strategy(dp, RoundingStrategy::MidpointAwayFromZero), "{d} to {dp}");
            }
        }
    }

    /// Integer rounding is half away from zero at every remainder that matters (0, 1, just
    /// under, on and just over half, the largest) for divisors up to a 32nd of `i128`'s limit,
    /// checked against a second formulation: ⌊(2|n| + d) / 2d⌋ with the numerator's sign.
    #[test]
    fn integer_division_rounds_half_away_from_zero() {
        for divisor in [1, 2, 3, 7, 10, 100, 101, 10i128.pow(18), 10i128.pow(28), i128::MAX / 32] {
            let half = divisor / 2;
            for quotient in [0, 1, 2, 3, 7] {
                for remainder in [0, 1, half - 1, half, half + 1, divisor - 1] {
                    if !(0..divisor).contains(&remainder) {
                        continue;
                    }
                    let magnitude = quotient * divisor + remainder;
                    let expected = (2 * magnitude + divisor) / (2 * divisor);
                    assert_eq!(div_round_half_away(magnitude, divisor), expected, "{magnitude} / {divisor}");
                    assert_eq!(div_round_half_away(-magnitude, divisor), -expected, "-{magnitude} / {divisor}");
                }
            }
        }
    }

    /// The 64-bit path gives the 128-bit path's very decimal (sign, scale and mantissa) wherever
    /// it applies: every shown figure takes it.
    #[test]
    fn small_rounding_is_the_wide_rounding() {
        let mut m: u64 = 1;
        let mut small = 0;
        for step in 0..200_000u64 {
            m = m.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let mantissa = i128::from(m >> (step % 64));
            let value = Decimal::from_i128_with_scale(if step % 3 == 0 { -mantissa } else { mantissa }, (step % 29) as u32);
            for dp in [0, 2, 4, 28, 29] {
                // `round` takes the 64-bit path wherever it answers.
                if round_small(value, dp).is_some() {
                    assert_eq!(round(value, dp).serialize(), round_wide(value, dp).serialize(), "{value} to {dp}");
                    small += 1;
                }
            }
        }
        assert!(small > 400_000, "only {small} values took the 64-bit path");
        // A negative amount that rounds to zero is a positive zero, as in the 128-bit path.
        assert_eq!(round(d("-0.004"), 2).serialize(), Decimal::new(0, 2).serialize());
    }

    #[test]
    fn fast_f64_path_is_correctly_rounded() {
        for text in ["0.01", "656396.12", "92.87", "-0.1234", "1e-22", "9007199254740.991", "0.3", "123456789.01"] {
            let d = Decimal::from_str(text).or_else(|_| Decimal::from_scientific(text)).expect("a decimal");
            let slow: f64 = d.to_string().parse().expect("a double");
            assert_eq!(to_f64(d).to_bits(), slow.to_bits(), "{text}");
        }
    }

    #[test]
    fn numbers_keep_their_digits() {
        for text in ["656396.12", "0.1", "1234567890123.45", "0.0001", "93.77"] {
            let d = d(text);
            assert_eq!(serde_json::to_string(&to_f64(d)).ok().as_deref(), Some(text));
            assert_eq!(from_f64(to_f64(d)), Some(d));
        }
        assert_eq!(from_f64(f64::NAN), None);
        assert_eq!(from_f64(1e300), None);
        // Tiny amounts are not 0: validation refuses them with any amount below a centavo.
        assert_eq!(from_f64(1e-300), Some(Decimal::new(1, 28)));
        assert_eq!(from_f64(-1e-21), Some(Decimal::new(-1, 28)));
        assert_eq!(from_f64(-0.0), Some(Decimal::ZERO));
    }

    #[test]
    fn whole_figures_are_written_as_integers() {
        #[derive(serde::Serialize)]
        struct Shown(#[serde(with = "number")] Decimal);
        let written = |text: &str| serde_json::to_string(&Shown(d(text))).expect("serialise");
        assert_eq!(written("30000.00"), "30000");
        assert_eq!(written("-12.50"), "-12.5");
        assert_eq!(written("0.0001"), "0.0001");
        assert_eq!(written("-0.00"), "0");
        // Mantissa beyond 64 bits, whole value within them.
        assert_eq!(written("1000000000000000000.0000"), "1000000000000000000");
        assert_eq!(written("0.0000000000000000000000000001"), "1e-28");
        assert_eq!(whole(Decimal::new(0, 25)), Some(0));
        assert_eq!(json_f64(d("12.50")), 12.5);
        assert_eq!(json_f64(d("30000.00")), 30000.0);
        assert_eq!(json_f64(d("-0.00")).to_bits(), 0.0f64.to_bits());
        assert_eq!(to_f64(d("-0.0000")).to_bits(), 0.0f64.to_bits());
    }

    /// `json_f64` is the double a JSON reader gets from the written number, on both sides of
    /// its fast path (53-bit mantissas) and at every scale the model shows.
    #[test]
    fn json_f64_is_what_a_reader_gets_from_the_json() {
        #[derive(serde::Serialize)]
        struct Shown(#[serde(with = "number")] Decimal);
        let mut m: i64 = 1;
        for step in 0..4000i64 {
            m = m.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let mantissa = (m >> (step % 60)) as i128;
            for scale in [0, 2, 4, 9, 21] {
                let value = Decimal::from_i128_with_scale(mantissa, scale);
                let text = serde_json::to_string(&Shown(value)).expect("serialise");
                // Parsed as JSON.parse and Python's json do, correctly rounded (serde_json's
                // default reader is not, in rare cases).
                let read: f64 = text.parse().expect("a JSON number");
                assert_eq!(json_f64(value).to_bits(), read.to_bits(), "{value} written {text}");
            }
        }
    }
}
