//! The score reproduced with exact rational arithmetic, independently of the crate's decimal
//! and filtered arithmetic (MODEL.md section 2 and 12): every component's exact value as a
//! fraction of integers, rounded once to 2 decimals half away from zero, then
//! `score = round(Σ valor × peso × 10)`. On a sweep built to land on rounding ties (incomes,
//! debts and savings on the cent that puts a component exactly on x.xx5, and sums exactly on
//! x.5) every shown component value and every score must agree: 0 differences.

mod incluida;

use rust_decimal::Decimal;
use incluida::{cifra, del_estado, puntos};
use score_core::{IncomeType, Profile, State};

/// An exact fraction `n / d`, `d` > 0, kept reduced (the sweep's magnitudes stay far inside i128).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Q(i128, i128);

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 { a.abs().max(1) } else { gcd(b, a % b) }
}

impl Q {
    fn new(n: i128, d: i128) -> Q {
        let (n, d) = if d < 0 { (-n, -d) } else { (n, d) };
        let g = gcd(n, d);
        Q(n / g, d / g)
    }
    fn int(n: i128) -> Q {
        Q(n, 1)
    }
    fn dec(x: Decimal) -> Q {
        Q::new(x.mantissa(), 10i128.pow(x.scale()))
    }
    fn add(self, o: Q) -> Q {
        Q::new(self.0 * o.1 + o.0 * self.1, self.1 * o.1)
    }
    fn sub(self, o: Q) -> Q {
        self.add(Q(-o.0, o.1))
    }
    fn mul(self, o: Q) -> Q {
        let (g1, g2) = (gcd(self.0, o.1), gcd(o.0, self.1));
        Q::new((self.0 / g1) * (o.0 / g2), (self.1 / g2) * (o.1 / g1))
    }
    fn div(self, o: Q) -> Q {
        self.mul(Q::new(o.1, o.0))
    }
    fn le(self, o: Q) -> bool {
        self.0 * o.1 <= o.0 * self.1
    }
    /// Hundredths, rounded half away from zero (the values here are never negative).
    fn cents(self) -> i128 {
        assert!(self.0 >= 0);
        (200 * self.0 + self.1).div_euclid(2 * self.1)
    }
    /// True when the value is exactly half a hundredth past a hundredth.
    fn on_cent_tie(self) -> bool {
        (200 * self.0) % self.1 == 0 && ((200 * self.0) / self.1) % 2 == 1
    }
}

/// The curve at `x`, exactly (MODEL.md section 3).
fn curve(points: &[(Decimal, Decimal)], x: Q) -> Q {
    let (x0, y0) = points[0];
    if x.le(Q::dec(x0)) {
        return Q::dec(y0);
    }
    for pair in points.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        if x.le(Q::dec(x1)) {
            let (x0, y0, x1, y1) = (Q::dec(x0), Q::dec(y0), Q::dec(x1), Q::dec(y1));
            return y0.add(x.sub(x0).mul(y1.sub(y0)).div(x1.sub(x0)));
        }
    }
    Q::dec(points[points.len() - 1].1)
}

fn min(a: Q, b: Q) -> Q {
    if a.le(b) { a } else { b }
}

fn clamp(x: Q, low: Q, high: Q) -> Q {
    if x.le(low) {
        low
    } else if high.le(x) {
        high
    } else {
        x
    }
}

/// The six exact component values of MODEL.md sections 3 to 5.
fn components(p: &Profile) -> [Q; 6] {
    let ingreso = Q::dec(p.ingreso_mensual);
    let personas = p.personas_hogar.map_or(Q::dec(cifra("general.personas_hogar_default")), |n| Q::int(i128::from(n)));
    let costo = Q::dec(cifra("general.linea_pobreza_urbana")).mul(personas).mul(Q::dec(del_estado(p.estado.inegi(), "factor")));
    let deudas = p.deudas_mensuales.map(Q::dec);
    let supuestas = deudas.unwrap_or(Q::dec(cifra("general.proporcion_deudas_no_declaradas")).mul(ingreso));
    let ingreso_x = puntos("curvas.ingreso");
    let referencia = clamp(ingreso, Q::dec(ingreso_x[0].0).mul(costo), Q::dec(ingreso_x[ingreso_x.len() - 1].0).mul(costo));
    let tipo = match p.tipo_ingreso {
        IncomeType::Asalariado => cifra("general.puntos_tipo_asalariado"),
        IncomeType::Mixto => cifra("general.puntos_tipo_mixto"),
        IncomeType::Pensionado => cifra("general.puntos_tipo_pensionado"),
        IncomeType::Independiente => cifra("general.puntos_tipo_independiente"),
    };
    let antiguedad = match p.tipo_ingreso {
        IncomeType::Independiente => puntos("curvas.antiguedad_independiente"),
        _ => puntos("curvas.antiguedad_asalariado"),
    };
    [
        curve(&puntos("curvas.ingreso"), ingreso.div(costo)),
        Q::dec(tipo),
        curve(&antiguedad, Q::int(i128::from(p.antiguedad_meses))),
        match deudas {
            None => Q::dec(cifra("general.puntos_deudas_no_declaradas")),
            Some(d) => curve(&puntos("curvas.deudas"), d.div(ingreso)),
        },
        min(
            curve(&puntos("curvas.ahorro"), Q::dec(p.ahorro).div(referencia.mul(Q::int(12)))),
            curve(&puntos("curvas.ahorro_cobertura"), ingreso.div(costo)),
        ),
        curve(&puntos("curvas.salud_financiera"), ingreso.sub(costo).sub(supuestas).div(ingreso)),
    ]
}

const PESOS_CENTESIMAS: [i128; 6] = [35, 12, 18, 15, 10, 10];

/// A deterministic pseudo-random stream (no randomness in tests).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % below
    }
}

/// Cents that put `value(x) = y0 + (x - x0) × slope` exactly on ties, for ratio curves:
/// the numerators `num` with `num / den` on a tie of the curve's segments.
fn tie_numerators(points: &[(Decimal, Decimal)], den: Q, out: &mut Vec<Decimal>) {
    for pair in points.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        let (x0, y0, x1, y1) = (Q::dec(x0), Q::dec(y0), Q::dec(x1), Q::dec(y1));
        if y1 == y0 {
            continue;
        }
        // value = k/100 + 1/200 for k over the segment's range, x = x0 + (value - y0)(x1 - x0)/(y1 - y0).
        let (lo, hi) = (y0.cents().min(y1.cents()), y0.cents().max(y1.cents()));
        for k in (lo..hi).step_by(7) {
            let value = Q::new(2 * k + 1, 200);
            let x = x0.add(value.sub(y0).mul(x1.sub(x0)).div(y1.sub(y0)));
            let num = x.mul(den);
            // Only numerators that are whole cents (an amount a person can write).
            if (num.0 * 100) % num.1 == 0 && num.0 >= 0 {
                out.push(Decimal::new(i64::try_from(num.0 * 100 / num.1).unwrap_or(0), 2));
            }
        }
    }
}

fn sweep() -> Vec<Profile> {
    let mut rng = Lcg(0x5eed_2026_1124);
    let base = |estado: u8, ingreso: Decimal| {
        Profile::nuevo(State::from_inegi(estado).expect("1..=32"), ingreso, IncomeType::ALL[0], 0)
    };
    let mut profiles = Vec::new();
    // Incomes every 20 centavos over the income curve (its ties fall on such incomes), with
    // the other fields varied.
    let mut cents: i64 = 950_000;
    while cents <= 12_500_000 {
        let mut p = base(1 + rng.next(32) as u8, Decimal::new(cents, 2));
        p.tipo_ingreso = IncomeType::ALL[rng.next(4) as usize];
        p.antiguedad_meses = rng.next(80) as u32;
        p.personas_hogar = if rng.next(3) == 0 { None } else { Some(1 + rng.next(8) as u32) };
        p.deudas_mensuales = match rng.next(3) {
            0 => None,
            1 => Some(Decimal::new(cents * rng.next(50) as i64 / 100, 2)),
            _ => Some(Decimal::new(100 * rng.next(20_000) as i64, 2)),
        };
        p.ahorro = Decimal::new(1000 * rng.next(100_000) as i64, 2);
        profiles.push(p);
        cents += 20 + 20 * rng.next(3) as i64;
    }
    // Debts and savings on the cents that put DTI and savings ratio exactly on ties.
    for ingreso in [10_000i64, 12_000, 16_000, 20_000, 25_000, 26_000, 30_000, 40_000, 48_000, 60_000, 100_000] {
        let i = Decimal::from(ingreso);
        let mut debts = Vec::new();
        tie_numerators(&puntos("curvas.deudas"), Q::dec(i), &mut debts);
        for d in debts {
            let mut p = base(1 + rng.next(32) as u8, i);
            p.deudas_mensuales = Some(d);
            p.antiguedad_meses = rng.next(70) as u32;
            p.tipo_ingreso = IncomeType::ALL[rng.next(4) as usize];
            profiles.push(p);
        }
        // The state first: the savings reference depends on its cost of living.
        let estado = 1 + rng.next(32) as u8;
        let probe = base(estado, i);
        let costo = Q::dec(cifra("general.linea_pobreza_urbana")).mul(Q::dec(cifra("general.personas_hogar_default"))).mul(Q::dec(del_estado(probe.estado.inegi(), "factor")));
        let ingreso_x = puntos("curvas.ingreso");
        let referencia = clamp(Q::dec(i), Q::dec(ingreso_x[0].0).mul(costo), Q::dec(ingreso_x[ingreso_x.len() - 1].0).mul(costo));
        let mut savings = Vec::new();
        tie_numerators(&puntos("curvas.ahorro"), referencia.mul(Q::int(12)), &mut savings);
        for a in savings {
            let mut p = base(estado, i);
            p.ahorro = a;
            p.deudas_mensuales = Some(Decimal::new(100 * rng.next(ingreso as u64 / 2) as i64, 2));
            p.antiguedad_meses = rng.next(70) as u32;
            profiles.push(p);
        }
    }
    profiles
}

#[test]
fn every_shown_value_and_score_equals_exact_rational_arithmetic() {
    let profiles = sweep();
    let (mut differences, mut component_ties, mut score_ties) = (Vec::new(), 0, 0);
    for p in &profiles {
        let exact = components(p);
        component_ties += exact.iter().filter(|v| v.on_cent_tie()).count();
        let cents: Vec<i128> = exact.iter().map(|v| v.cents()).collect();
        // Σ valor × peso × 10 = Σ cents × peso_cents / 1000.
        let total: i128 = cents.iter().zip(PESOS_CENTESIMAS).map(|(c, w)| c * w).sum();
        score_ties += usize::from(total % 1000 == 500);
        let score = (total + 500) / 1000;

        let report = score_core::score(p).expect("valid");
        let c = &report.componentes;
        let shown = [&c.ingreso, &c.tipo_ingreso, &c.antiguedad, &c.deudas, &c.ahorro, &c.salud_financiera];
        for (i, comp) in shown.iter().enumerate() {
            if comp.valor != Decimal::new(i64::try_from(cents[i]).unwrap_or(-1), 2) {
                differences.push(format!("{p:?}: component {i} shows {} for exact {:?}", comp.valor, exact[i]));
            }
        }
        if i128::from(report.score) != score {
            differences.push(format!("{p:?}: score {} for exact {score}", report.score));
        }
        // And the score is verifiable from the report alone.
        let from_report: Decimal = shown.iter().map(|c| c.valor * c.peso * Decimal::TEN).sum();
        if score_core::money::round(from_report, 0) != Decimal::from(report.score) {
            differences.push(format!("{p:?}: Σ valor × peso × 10 = {from_report}, score {}", report.score));
        }
    }
    eprintln!("{} profiles, {component_ties} components exactly on a tie, {score_ties} sums exactly on x.5", profiles.len());
    assert!(differences.is_empty(), "{} of {} profiles differ: {:?}", differences.len(), profiles.len(), &differences[..3.min(differences.len())]);
    assert!(profiles.len() > 250_000, "{} profiles", profiles.len());
    assert!(component_ties > 1_000, "only {component_ties} components on a tie");
    assert!(score_ties > 100, "only {score_ties} sums on x.5");
}
