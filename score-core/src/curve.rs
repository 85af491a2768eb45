//! Monotone piecewise-linear curves: the "coarse classes" of an expert scorecard.

use crate::approx::{Approx, less};
use rust_decimal::Decimal;

/// Breakpoints `(x, y)` with strictly increasing `x`; values between two breakpoints are
/// interpolated linearly and values outside the range take the nearest end's `y`.
///
/// Its breakpoints are a calibration's, read when it is loaded ([`Curve::de_puntos`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    points: Vec<(Decimal, Decimal)>,
    /// The same breakpoints as filtered doubles, for [`Curve::eval_approx`].
    approx: Vec<Punto>,
    /// The longest run of breakpoints from the first that are pairs of non-negative whole
    /// numbers under [`ENTERO_LIMITE`], as integers, for [`Curve::eval_money_meses`]: read once
    /// when the curve is built, not unpacked from each decimal at every use (a seniority curve
    /// was walked that way twice a report, some 300 instructions each time). Natively only:
    /// WebAssembly, whose module size has a budget, reads them where they are used.
    #[cfg(not(target_arch = "wasm32"))]
    enteros: Vec<(i64, i64)>,
}

/// Whole breakpoints are kept as integers below this (so that the interpolation's numerator
/// stays within 64 bits).
const ENTERO_LIMITE: u64 = 100_000_000;

/// A breakpoint's coordinate as an integer, when it is a non-negative whole number under
/// [`ENTERO_LIMITE`].
fn entero(d: Decimal) -> Option<i64> {
    match crate::money::small_parts(d) {
        Some((m, 0)) if m < ENTERO_LIMITE && !d.is_sign_negative() => i64::try_from(m).ok(),
        _ => None,
    }
}

/// A breakpoint as filtered doubles, with the slope of the segment that ends at it (0 for the
/// first), worked out when the curve is built: a report interpolates some five curves, and the
/// slope's two differences and quotient, each proving its operands' exactness, were a quarter
/// of an interpolation. Natively only: WebAssembly, whose module size has a budget, computes the
/// slope where it is used (the same doubles), not a kilobyte of slopes in its data.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Punto {
    x: Approx,
    y: Approx,
    #[cfg(not(target_arch = "wasm32"))]
    pendiente: Approx,
}

impl Punto {
    // `anterior` gives only the slope, which WebAssembly does not store.
    #[cfg_attr(target_arch = "wasm32", allow(unused_variables))]
    const fn nuevo(x: Approx, y: Approx, anterior: Option<(Approx, Approx)>) -> Punto {
        Punto {
            x,
            y,
            #[cfg(not(target_arch = "wasm32"))]
            pendiente: match anterior {
                Some(anterior) => pendiente(anterior, (x, y)),
                None => Approx::exact(0.0),
            },
        }
    }

    /// The slope of the segment from `anterior`, the breakpoint before this one.
    #[cfg(not(target_arch = "wasm32"))]
    fn pendiente_desde(&self, _anterior: &Punto) -> Approx {
        self.pendiente
    }

    #[cfg(target_arch = "wasm32")]
    fn pendiente_desde(&self, anterior: &Punto) -> Approx {
        pendiente((anterior.x, anterior.y), (self.x, self.y))
    }
}

/// The slope from `(x_0, y_0)` to `(x_1, y_1)` in filtered arithmetic (the same doubles and
/// bounds at compile time as at run time: IEEE 754 either way).
const fn pendiente((x_0, y_0): (Approx, Approx), (x_1, y_1): (Approx, Approx)) -> Approx {
    y_1.sub(y_0).div(x_1.sub(x_0))
}

impl Curve {
    /// A curve over breakpoints read at run time (a calibration's): at least one, `x` strictly
    /// increasing (the calibration checks both), with their doubles and slopes worked out once.
    pub(crate) fn de_puntos(points: Vec<(Decimal, Decimal)>) -> Self {
        let xy: Vec<(Approx, Approx)> = points
            .iter()
            .map(|&(x, y)| (Approx::of(x), Approx::of(y)))
            .collect();
        let approx = xy
            .iter()
            .enumerate()
            .map(|(k, &(x, y))| Punto::nuevo(x, y, k.checked_sub(1).map(|j| xy[j])))
            .collect::<Vec<_>>();
        #[cfg(not(target_arch = "wasm32"))]
        let enteros = {
            let mut enteros = Vec::new();
            for &(x, y) in &points {
                let (Some(x), Some(y)) = (entero(x), entero(y)) else { break };
                enteros.push((x, y));
            }
            enteros
        };
        Curve {
            points,
            approx,
            #[cfg(not(target_arch = "wasm32"))]
            enteros,
        }
    }

    /// The breakpoints, for documentation and tests.
    pub fn points(&self) -> &[(Decimal, Decimal)] {
        &self.points
    }

    /// `y` at `x`, exact to `Decimal`'s 28 significant digits.
    pub fn eval(&self, x: Decimal) -> Decimal {
        let points = &*self.points;
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

    /// `y` at `x` as shown, to the centavo (`money(self.eval(x))`): certified in filtered
    /// arithmetic, computed in `Decimal` only where that cannot tell.
    pub(crate) fn eval_money(&self, x: Decimal) -> Decimal {
        self.eval_approx(Approx::of(x))
            .and_then(|y| crate::approx::round_dp(y, crate::money::MONEY_DP))
            .unwrap_or_else(|| crate::money::money(self.eval(x)))
    }

    /// [`Curve::eval_money`] at a whole number of months: where the breakpoints are whole
    /// numbers too (the seniority curves), the interpolated value is a ratio of integers,
    /// rounded half away from zero to the centavo in integers (a tie is found exactly), not
    /// through filtered doubles whose exactness is proven operation by operation. The same
    /// digits as `money(self.eval(x))`: a ratio with a denominator under 10^8 that is not a
    /// tie lies at least 10^-11 away from one, far beyond `Decimal`'s 28 digits.
    pub(crate) fn eval_money_meses(&self, meses: u32) -> Decimal {
        match self.centesimas_en(i64::from(meses)) {
            Some(centesimas) => Decimal::new(centesimas, crate::money::MONEY_DP),
            None => self.eval_money(Decimal::from(meses)),
        }
    }

    /// Hundredths of `y` at a whole `x`, rounded half away from zero; `None` unless every
    /// breakpoint up to `x`'s segment is a pair of non-negative whole numbers under 10^8.
    fn centesimas_en(&self, x: i64) -> Option<i64> {
        let mut anterior: Option<(i64, i64)> = None;
        for par in self.enteros() {
            let (x_k, y_k) = par?;
            if x <= x_k {
                let Some((x_0, y_0)) = anterior else { return Some(100 * y_k) };
                // 100 (y_0 + (x - x_0)(y_k - y_0) / (x_k - x_0)) as one fraction; x_0 < x <= x_k
                // and every magnitude under 10^8: under 2 x 10^18, within 64 bits.
                let ancho = x_k - x_0;
                let numerador = 100 * (y_0 * ancho + (x - x_0) * (y_k - y_0));
                let centesimas = crate::money::div_round_half_away(numerador.into(), ancho.into());
                return i64::try_from(centesimas).ok();
            }
            anterior = Some((x_k, y_k));
        }
        anterior.map(|(_, y)| 100 * y)
    }

    /// The breakpoints in order as integers ([`entero`]), `None` at the first that is not a
    /// pair of them (and nothing after it): natively from [`Curve::enteros`], read at load.
    #[cfg(not(target_arch = "wasm32"))]
    fn enteros(&self) -> impl Iterator<Item = Option<(i64, i64)>> + '_ {
        let resto = (self.enteros.len() < self.points.len()).then_some(None);
        self.enteros.iter().map(|&par| Some(par)).chain(resto)
    }

    #[cfg(target_arch = "wasm32")]
    fn enteros(&self) -> impl Iterator<Item = Option<(i64, i64)>> + '_ {
        self.points.iter().map(|&(x, y)| Some((entero(x)?, entero(y)?)))
    }

    /// `y` at the ratio `num / den` (`den` > 0), with a single division: the numerator and the
    /// denominator of the interpolation are exact, so the result is the exact rational value
    /// correctly rounded to 28 significant digits, and a value exactly on a rounding tie is
    /// found on it. (Dividing first, `eval(num / den)`, rounds the ratio and then multiplies
    /// its error by the slope: an exact 30.005 could come out as 30.00499…9.)
    pub fn eval_ratio(&self, num: Decimal, den: Decimal) -> Decimal {
        let points = &*self.points;
        let (first_x, first_y) = points[0];
        if num <= first_x * den {
            return first_y;
        }
        for pair in points.windows(2) {
            let (x0, y0) = pair[0];
            let (x1, y1) = pair[1];
            if num <= x1 * den {
                return y0 + (num - x0 * den) * (y1 - y0) / ((x1 - x0) * den);
            }
        }
        points[points.len() - 1].1
    }

    /// [`Curve::eval`] in filtered arithmetic: `None` only when `x` is too uncertain to place.
    ///
    /// When `x` cannot be placed on one side of a breakpoint `x_k`, the curve is Lipschitz there
    /// with the larger slope `L` of the two adjacent segments, so `y_k` with an added error of
    /// `L x |x - x_k|` (bounded) is certified whichever side the exact `x` is on.
    /// The first and the last breakpoint's `x` as filtered doubles (the curve's domain).
    pub(crate) fn approx_domain(&self) -> (Approx, Approx) {
        (self.approx[0].x, self.approx[self.approx.len() - 1].x)
    }

    pub(crate) fn eval_approx(&self, x: Approx) -> Option<Approx> {
        let points = &*self.approx;
        // The breakpoints certainly below `x` need no certificate each: start at the last one
        // whose double is below `x`'s (the first to certify), and decide from there as before.
        let start = points.partition_point(|p| p.x.value() < x.value()).saturating_sub(1);
        for (k, p) in points.iter().enumerate().skip(start) {
            match less(p.x, x) {
                Some(true) => continue,
                Some(false) if k == 0 => return Some(p.y),
                Some(false) => {
                    let anterior = points[k - 1];
                    return Some(anterior.y.add(x.sub(anterior.x).mul(p.pendiente_desde(&anterior))));
                }
                None => return near_breakpoint(points, k, x),
            }
        }
        points.last().map(|p| p.y)
    }
}

/// `y_k` widened by the curve's variation between `x` and the breakpoint `x_k` (see above).
fn near_breakpoint(points: &[Punto], k: usize, x: Approx) -> Option<Approx> {
    let Punto { x: x_k, y: y_k, .. } = points[k];
    let distance = x.sub(x_k);
    let reach = distance.value().abs() + distance.bound();
    let mut slope: f64 = 0.0;
    for pair in [k.checked_sub(1).map(|j| (j, k)), (k + 1 < points.len()).then_some((k, k + 1))].into_iter().flatten() {
        let (Punto { x: x_0, y: y_0, .. }, Punto { x: x_1, y: y_1, .. }) = (points[pair.0], points[pair.1]);
        let width = x_1.value() - x_0.value();
        if reach.is_nan() || reach >= width / 2.0 {
            return None;
        }
        // Rounding of the slope itself is covered by a relative 1e-6.
        slope = slope.max(((y_1.value() - y_0.value()) / width).abs() * (1.0 + 1e-6));
    }
    Some(y_k.widen(slope * reach))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every curve of the embedded calibration, by its name there.
    fn curvas() -> Vec<(&'static str, &'static Curve)> {
        let c = crate::cifras::Cifras::incluidas();
        vec![
            ("ingreso", &c.curva_ingreso),
            ("antiguedad_asalariado", &c.curva_antiguedad_asalariado),
            ("antiguedad_independiente", &c.curva_antiguedad_independiente),
            ("deudas", &c.curva_deudas),
            ("ahorro", &c.curva_ahorro),
            ("ahorro_cobertura", &c.curva_ahorro_cobertura),
            ("salud_financiera", &c.curva_salud_financiera),
        ]
    }

    #[test]
    fn every_curve_has_increasing_x_and_monotone_y_within_0_100() {
        for (name, curve) in curvas() {
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

    /// The filtered evaluation agrees with the decimal one wherever it answers, including at
    /// and around every breakpoint.
    #[test]
    fn filtered_evaluation_brackets_the_decimal_one() {
        use crate::approx::round_dp;
        for (name, curve) in curvas() {
            for &(x_k, _) in curve.points() {
                for offset in ["0", "0.0000000001", "-0.0000000001", "0.5", "-0.5", "7"] {
                    let x = x_k + Decimal::from_str_exact(offset).expect("offset");
                    let Some(approx) = curve.eval_approx(Approx::of(x)) else { continue };
                    let exact = curve.eval(x);
                    for dp in [2, 6] {
                        if let Some(rounded) = round_dp(approx, dp) {
                            assert_eq!(rounded, crate::money::round(exact, dp), "{name} at {x} to {dp}");
                        }
                    }
                }
            }
        }
    }

    /// Whole months give `money(eval(x))`, representation included, on every curve (the
    /// seniority curves in integers, the others by the fallback) and on a curve built for ties
    /// and a falling segment.
    #[test]
    fn months_are_the_decimal_evaluation_to_the_centavo() {
        use crate::params::dec;
        // Built as a calibration's curves are (`Curve::de_puntos`, which keeps the whole
        // breakpoints as integers).
        let ties = Curve::de_puntos(vec![(dec(2, 0), dec(0, 0)), (dec(10, 0), dec(1, 0)), (dec(13, 0), dec(8, 0)), (dec(53, 0), dec(5, 0))]);
        // (2, 0) to (10, 1) is 1/8 a month: 0.125, 0.375, ... are ties, rounded away from zero.
        assert_eq!(ties.eval_money_meses(3), Decimal::new(13, 2));
        assert_eq!(ties.eval_money_meses(5), Decimal::new(38, 2));
        // Whole up to a breakpoint of 7.5 points: the integer path before it, the general one after.
        let partly = Curve::de_puntos(vec![(dec(0, 0), dec(0, 0)), (dec(10, 0), dec(5, 0)), (dec(20, 0), dec(75, 1)), (dec(30, 0), dec(10, 0))]);
        assert_eq!(partly.enteros.len(), 2);
        assert_eq!(partly.centesimas_en(7), Some(350));
        assert_eq!(partly.centesimas_en(15), None);
        for (name, curve) in curvas().into_iter().chain([("TIES", &ties), ("PARTLY", &partly)]) {
            for meses in (0..=800).chain([u32::MAX]) {
                let expected = crate::money::money(curve.eval(Decimal::from(meses)));
                assert_eq!(curve.eval_money_meses(meses).serialize(), expected.serialize(), "{name} at {meses}");
            }
        }
    }

    #[test]
    fn interpolates_and_clamps() {
        let c = &crate::cifras::Cifras::incluidas().curva_ingreso;
        assert_eq!(c.eval(Decimal::from(0)), Decimal::ZERO);
        assert_eq!(c.eval(Decimal::new(5, 1)), Decimal::ZERO);
        assert_eq!(c.eval(Decimal::new(75, 2)), Decimal::from(6));
        assert_eq!(c.eval(Decimal::from(4)), Decimal::from(85));
        assert_eq!(c.eval(Decimal::from(1_000)), Decimal::ONE_HUNDRED);
        // A ratio as a fraction: 20,000 pesos over a cost of 16,000 is 1.25, 32 points.
        assert_eq!(c.eval_ratio(Decimal::from(20_000), Decimal::from(16_000)), Decimal::from(32));
    }
}
