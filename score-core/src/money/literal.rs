//! Numbers read from outside as the decimals a person wrote: a JSON number literal from its
//! digits, a host double (Python's float, JavaScript's number) from its shortest text. Both go
//! through the one literal reader, so a text and a host number give the same decimal.

use rust_decimal::Decimal;

/// Reads a host double (Python's float, JavaScript's number, a `serde_json::Value`'s) as the
/// decimal a person wrote: the shortest text that round-trips to the same double (`0.1` is
/// 0.1, not 0.1000000000000000055…). `None` for NaN, infinities and magnitudes a `Decimal`
/// cannot hold.
pub fn from_f64(value: f64) -> Option<Decimal> {
    if !value.is_finite() || value.abs() >= 1e27 {
        return None;
    }
    if value == 0.0 {
        return Some(Decimal::ZERO); // -0.0 too
    }
    // serde_json's shortest round-trip writer (the one every report is written with) rather
    // than `Display` for f64: the same digits, and no second float formatter in the WebAssembly
    // build. Its text is a JSON literal, read by the one literal reader, so that a host double
    // and the JSON text of the same number give the same decimal to the last digit and scale
    // (zero, values below 1e-20, rounding past 28 places and trailing zeros alike).
    from_json_literal(&serde_json::Number::from_f64(value)?.to_string())
}

/// Reads a JSON number literal as the decimal its digits write (`10379.1999999999999999` is
/// that amount, not the nearest binary double): what every JSON text entry point reads.
///
/// The same limits as [`from_f64`], so a text and a host number fail or pass alike: `None`
/// for magnitudes of 1e27 and more (the JSON value reader then reports the error), and a
/// nonzero literal below 1e-20 is the smallest `Decimal` of its sign, which validation refuses
/// as it refuses any amount below a centavo. Digits beyond what a `Decimal` holds (28
/// significant digits, 28 decimal places) are rounded half away from zero; trailing zeros
/// are dropped (`36.50` is 36.5). `None` for text that is not a JSON number.
pub fn from_json_literal(text: &str) -> Option<Decimal> {
    let bytes = text.as_bytes();
    let (negative, rest) = match bytes.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, bytes),
    };
    let int_len = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    // JSON: at least one integer digit, and no leading zero before another digit.
    if int_len == 0 || (int_len > 1 && rest[0] == b'0') {
        return None;
    }
    let (int_digits, rest) = rest.split_at(int_len);
    let (frac_digits, rest) = match rest.split_first() {
        Some((b'.', after)) => {
            let n = after.iter().take_while(|b| b.is_ascii_digit()).count();
            if n == 0 {
                return None;
            }
            after.split_at(n)
        }
        _ => (&rest[..0], rest),
    };
    let exponent: i64 = match rest.split_first() {
        None => 0,
        Some((b'e' | b'E', after)) => {
            let (sign, digits) = match after.split_first() {
                Some((b'-', d)) => (-1, d),
                Some((b'+', d)) => (1, d),
                _ => (1, after),
            };
            if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
                return None;
            }
            // Beyond any `Decimal` either way; saturating keeps 1e99999999999999999999 finite.
            let magnitude = digits.iter().fold(0i64, |acc, d| acc.saturating_mul(10).saturating_add(i64::from(d - b'0')));
            sign * magnitude.min(1_000_000)
        }
        Some(_) => return None,
    };
    // The significant digits (no leading or trailing zeros) and the power of ten `e` with
    // value = 0.d1d2d3… × 10^e, so that 10^(e-1) <= value < 10^e.
    let all = || int_digits.iter().chain(frac_digits);
    let leading = all().take_while(|&&d| d == b'0').count();
    if leading == int_len + frac_digits.len() {
        return Some(Decimal::ZERO);
    }
    // The first 29 (the most a `Decimal` keeps, and the one that rounds them).
    let mut first = [0u8; 29];
    let mut len = 0;
    for (slot, digit) in first.iter_mut().zip(all().skip(leading)) {
        *slot = digit - b'0';
        len += 1;
    }
    let significant = &first[..len];
    let e = i64::try_from(int_len).ok()? - i64::try_from(leading).ok()? + exponent;
    if e >= 28 {
        return None; // 1e27 or more, as `from_f64`.
    }
    if e <= -20 {
        return Some(Decimal::new(if negative { -1 } else { 1 }, 28));
    }
    // Keep the digits of weight 10^-28 and above, at most 28 of them; the next one rounds
    // (trailing zeros go with `normalize`).
    let keep = usize::try_from(e + 28).ok()?.min(28).min(significant.len());
    let mut mantissa = significant[..keep].iter().fold(0i128, |acc, &d| acc * 10 + i128::from(d));
    if significant.get(keep).is_some_and(|&d| d >= 5) {
        mantissa += 1;
    }
    let mut scale = i64::try_from(keep).ok()? - e;
    while scale < 0 {
        mantissa *= 10;
        scale += 1;
    }
    let value = Decimal::from_i128_with_scale(mantissa, u32::try_from(scale).ok()?).normalize();
    Some(if negative { -value } else { value })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_literals_read_as_their_digits() {
        for (literal, expected) in [
            ("10379.1999999999999999", "10379.1999999999999999"),
            ("0.10000000000000001", "0.10000000000000001"),
            ("30000.50", "30000.5"),
            ("-0", "0"),
            ("0.000", "0"),
            ("1e4", "10000"),
            ("1E+4", "10000"),
            ("12.5e-3", "0.0125"),
            ("-36.0", "-36"),
            ("0.0099999999999999999999", "0.0099999999999999999999"),
            // 28 significant digits are kept; the 29th rounds half away from zero.
            ("1.23456789012345678901234567891", "1.234567890123456789012345679"),
            ("-9.99999999999999999999999999999", "-10"),
            // 28 decimal places at most.
            ("0.00000000000000000012345678901234567", "0.000000000000000000123456789"),
            // Below 1e-20: the smallest `Decimal` of its sign, refused as below a centavo.
            ("1e-21", "0.0000000000000000000000000001"),
            ("-5e-324", "-0.0000000000000000000000000001"),
            ("999999999999999999999999999", "999999999999999999999999999"),
        ] {
            assert_eq!(from_json_literal(literal).map(|d| d.to_string()).as_deref(), Some(expected), "{literal}");
        }
        // Not a `Decimal` (1e27 and beyond, as `from_f64`), or not a JSON number.
        for literal in ["1e27", "1e400", "-1e99999999999999999999", "01", "1.", ".5", "+1", "1e", "1e+", "--1", "1x", "", "-"] {
            assert_eq!(from_json_literal(literal), None, "{literal}");
        }
        // Every literal of at most 15 significant digits reads as its double does.
        for literal in ["0.1", "30000.005", "1e-20", "123456789012345", "0.000123", "7.5e2"] {
            let double: f64 = literal.parse().expect("a double");
            assert_eq!(from_json_literal(literal), from_f64(double), "{literal}");
        }
        // Doubles written with more places than a `Decimal` holds: the text and the double
        // give the same digits and the same scale (the JSON text and value readers once wrote
        // these two in their messages with and without a trailing zero).
        for double in [-5.677505504018566e-20, 5.577728807910475e-16, 1.2345678901234567e-19] {
            let literal = serde_json::Number::from_f64(double).expect("finite").to_string();
            let (text, host) = (from_json_literal(&literal), from_f64(double));
            assert_eq!(text.map(|d| d.to_string()), host.map(|d| d.to_string()), "{literal}");
        }
    }
}
