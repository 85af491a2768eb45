//! What the tests of printed documents share: amounts written as Mexican documents print them.

use rust_decimal::Decimal;

/// `v` as printed on a receipt or statement: `$1,234.50`, `-$80.00`.
pub fn money(v: Decimal) -> String {
    let cents = format!("{:.2}", v.abs());
    let (whole, frac) = cents.split_once('.').unwrap_or((&cents, "00"));
    let mut grouped = String::new();
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    format!("{}{grouped}.{frac}", if v < Decimal::ZERO { "-" } else { "" })
}
