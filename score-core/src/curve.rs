//! Monotone piecewise-linear curves: the "coarse classes" of an expert scorecard.

use rust_decimal::Decimal;

/// Breakpoints `(x, y)` with strictly increasing `x`; values between two breakpoints are
/// interpolated linearly and values outside the range take the nearest end's `y`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Curve {
    points: &'static [(Decimal, Decimal)],
}

impl Curve {
    /// A curve over `points` (at least one; `x` strictly increasing, checked by tests).
    pub const fn new(points: &'static [(Decimal, Decimal)]) -> Self {
        Curve { points }
    }

    /// The breakpoints, for documentation and tests.
    pub fn points(&self) -> &'static [(Decimal, Decimal)] {
        self.points
    }

    /// `y` at `x`, exact to `Decimal`'s 28 significant digits.
    pub fn eval(&self, x: Decimal) -> Decimal {
        let points = self.points;
        let (first_x, first_y) = points[0];
        if x <= first_x {
            return first_y;
        }
        for pair in points.windows(2) {
            let (x0, y0) = pair[0];
            let (x1, y1) = pair[1];
            if x <= x1 {
                return y0 + (x - x0) * (y1 - y0) / (x1 - x0);
            }
        }
        points[points.len() - 1].1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::CURVES;

    #[test]
    fn every_curve_has_increasing_x_and_monotone_y_within_0_100() {
        for (name, curve) in CURVES {
            let pts = curve.points();
            assert!(!pts.is_empty(), "{name}");
            for w in pts.windows(2) {
                assert!(w[0].0 < w[1].0, "{name}: x not increasing");
            }
            let rising = pts[pts.len() - 1].1 >= pts[0].1;
            for w in pts.windows(2) {
                assert!(if rising { w[0].1 <= w[1].1 } else { w[0].1 >= w[1].1 }, "{name}: not monotone");
            }
            for (_, y) in pts {
                assert!(*y >= Decimal::ZERO && *y <= Decimal::ONE_HUNDRED, "{name}");
            }
        }
    }

    #[test]
    fn interpolates_and_clamps() {
        let c = crate::params::CURVA_INGRESO;
        assert_eq!(c.eval(Decimal::from(0)), Decimal::ZERO);
        assert_eq!(c.eval(Decimal::from(9600)), Decimal::ZERO);
        assert_eq!(c.eval(Decimal::from(12800)), Decimal::from(10));
        assert_eq!(c.eval(Decimal::from(26000)), Decimal::from(45));
        assert_eq!(c.eval(Decimal::from(1_000_000)), Decimal::ONE_HUNDRED);
    }
}
