//! Powers of ten, the one table of them (as doubles and, where they fit, as integers), and
//! division of a 64-bit integer by one of them.

/// Powers of ten as doubles, 10^0 ..= 10^28 (every scale of a `Decimal`): exact up to 10^22,
/// correctly rounded above. The one table of powers of ten; [`POW10_U64`] is its view.
pub(crate) const POW10: [f64; 29] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
    1e20, 1e21, 1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28,
];

/// How many of [`POW10`]'s powers are exact doubles: 10^0 ..= 10^22.
pub(crate) const EXACT_POW10: usize = 23;

/// The powers of ten that fit 64 bits, as integers: [`POW10`]'s exact entries.
pub(crate) const POW10_U64: [u64; 20] = {
    let mut table = [1u64; 20];
    let mut i = 1;
    while i < table.len() {
        // Exact: 10^19 < 2^64, and 10^i is an exact double for i <= 22.
        table[i] = POW10[i] as u64;
        i += 1;
    }
    table
};

/// For each power of ten `d = 10^k` that fits 64 bits, a multiplier `M` and a shift `s` with
/// `m / d = (m × M) >> s` for every `m < 2^60` (Granlund and Montgomery 1994): `s = 63 +
/// ⌊log2 d⌋` and `M = ⌈2^s / d⌉ < 2^64`. Then `m × M / 2^s` exceeds `m / d` by less than
/// `2^60 / 2^s = 2^-(3 + ⌊log2 d⌋) < 1 / d`, which never reaches the next whole number.
#[cfg(not(target_arch = "wasm32"))]
const RECIPROCALS_POW10: [(u64, u32); 20] = {
    let mut table = [(0u64, 0u32); 20];
    let mut k = 0;
    while k < table.len() {
        let divisor = POW10_U64[k];
        let shift = 63 + (63 - divisor.leading_zeros());
        #[allow(clippy::cast_possible_truncation)] // below 2^64, as above
        let multiplier = (1u128 << shift).div_ceil(divisor as u128) as u64;
        table[k] = (multiplier, shift);
        k += 1;
    }
    table
};

/// `(m / 10^k, m % 10^k, 10^k)`; `None` beyond 10^19. Natively, for every `m` below 2^60 (the
/// model's amounts), a multiplication by the reciprocal ([`RECIPROCALS_POW10`]), a few cycles
/// where a 64-bit division is a dozen or more; WebAssembly, whose 128-bit products are
/// library calls, divides.
#[inline]
pub(crate) fn div_pow10(m: u64, k: usize) -> Option<(u64, u64, u64)> {
    let divisor = *POW10_U64.get(k)?;
    #[cfg(not(target_arch = "wasm32"))]
    if m < 1 << 60 {
        let (multiplier, shift) = RECIPROCALS_POW10[k];
        #[allow(clippy::cast_possible_truncation)] // below m
        let quotient = ((u128::from(m) * u128::from(multiplier)) >> shift) as u64;
        return Some((quotient, m - quotient * divisor, divisor));
    }
    Some((m / divisor, m % divisor, divisor))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reciprocals_divide_as_division_does() {
        let mut x: u64 = 3;
        for (k, &divisor) in POW10_U64.iter().enumerate() {
            // Around multiples of the divisor, the ends of the range, and a sweep.
            let mut samples: Vec<u64> = [1, 2, 3, 999, ((1 << 60) / divisor).saturating_sub(1), (1 << 60) / divisor]
                .into_iter()
                .map(|q| q.wrapping_mul(divisor))
                .flat_map(|x| [x.wrapping_sub(1), x, x.wrapping_add(1), x.wrapping_add(divisor / 2)])
                .chain([0, 1, (1 << 60) - 1, 1 << 60, u64::MAX])
                .collect();
            for _ in 0..5_000 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                samples.push(x >> (x % 64));
            }
            for m in samples {
                assert_eq!(div_pow10(m, k), Some((m / divisor, m % divisor, divisor)), "{m} / 10^{k}");
            }
        }
        assert_eq!(div_pow10(1, 20), None);
    }
}
