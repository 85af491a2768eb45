//! The report's [`Figures`] in filtered arithmetic ([`crate::approx`]): the same formulas as
//! [`crate::model::figures::figures_exact`], on doubles with certified error bounds. Every rounding and
//! every comparison is certified, or the figure is computed in `Decimal`: a component's shown
//! value and points alone (they sit on exact ties for some incomes), anything else by answering
//! `None`, and the caller then computes all the figures in `Decimal`. So the result is always
//! the decimal model's, digit for digit; this path only makes it about four times cheaper for
//! almost every profile.
//!
//! The differential tests below (a deterministic tie-heavy sweep and a proptest) compare both
//! paths figure for figure on profiles built to sit on ties and breakpoints.

use crate::approx::{Approx, less, round_dp};
use crate::cifras::Cifras;
use crate::model::figures::{
    Exact, Figures, component, curva_antiguedad, puntos_tipo, puntuacion,
};
use crate::money::money;
use crate::profile::Profile;
use rust_decimal::Decimal;

const DOCE: Approx = Approx::exact(12.0);
/// [`Figures`] certified equal to [`crate::model::figures::figures_exact`], written over `figures`;
/// `None` (and `figures` partly written) where a certificate fails. Written in place: returned
/// through an `Option`, the figures were copied twice on their way to the report.
pub(crate) fn figures(
    c: &Cifras,
    profile: &Profile,
    exact: &Exact,
    figures: &mut Figures,
) -> Option<()> {
    let entradas = Entradas::de(profile, exact);
    // Each component where it is computed: the two that read their own field alone, the
    // others from the shared inputs.
    let shown = [
        entradas.shown(c, profile, exact, 0)?,
        shown_tipo(c, profile),
        shown_antiguedad(c, profile),
        entradas.shown(c, profile, exact, 3)?,
        entradas.shown(c, profile, exact, 4)?,
        entradas.shown(c, profile, exact, 5)?,
    ];
    let (score, puntos, debiles) = puntuacion(c, profile, &shown);
    figures.score = score;
    for ((componente, valor), puntos) in figures.componentes.iter_mut().zip(shown).zip(puntos) {
        *componente = (valor, puntos);
    }
    figures.ratio = round_dp(entradas.ratio, crate::money::RATIO_DP)?;
    figures.debiles = debiles;
    Some(())
}

/// The score alone of a profile (what a what-if shows) whose shown component values are
/// `antes` except the components `cambian`, which are computed; certified equal to the decimal
/// model's, or `None`. A what-if changes a few fields, and each component reads only its own
/// (`crate::model::figures::component`): the others are the report's own shown values.
pub(crate) fn score_cambiando(
    c: &Cifras,
    profile: &Profile,
    exact: &Exact,
    antes: &[Decimal; 6],
    cambian: &[usize],
) -> Option<u16> {
    let mut shown = *antes;
    // The shared inputs are converted only for a component that reads them.
    let mut entradas = None;
    for &i in cambian {
        shown[i] = match shown_propio(c, profile, i) {
            Some(propio) => propio,
            None => entradas
                .get_or_insert_with(|| Entradas::de(profile, exact))
                .shown(c, profile, exact, i)?,
        };
    }
    Some(crate::model::figures::score(&shown))
}

/// Component `i`'s shown value when it reads its own field alone (income type, seniority);
/// `None` for those that read the shared inputs ([`Entradas`]).
fn shown_propio(c: &Cifras, profile: &Profile, i: usize) -> Option<Decimal> {
    match i {
        1 => Some(shown_tipo(c, profile)),
        2 => Some(shown_antiguedad(c, profile)),
        _ => None,
    }
}

/// The income type's shown points.
fn shown_tipo(c: &Cifras, profile: &Profile) -> Decimal {
    money(puntos_tipo(c, profile.tipo_ingreso))
}

/// The seniority's shown points.
fn shown_antiguedad(c: &Cifras, profile: &Profile) -> Decimal {
    curva_antiguedad(c, profile.tipo_ingreso).eval_money_meses(profile.antiguedad_meses)
}

/// What more than one component reads, as filtered doubles: the income, its coverage of the
/// household's decent cost of living, and the disposable-income ratio.
struct Entradas {
    ingreso: Approx,
    costo: Approx,
    cobertura: Approx,
    ratio: Approx,
}

impl Entradas {
    fn de(profile: &Profile, exact: &Exact) -> Entradas {
        let ingreso = Approx::of(profile.ingreso_mensual);
        let costo = Approx::of(exact.costo_vida_digno);
        Entradas { ingreso, costo, cobertura: ingreso.div(costo), ratio: Approx::of(exact.ingreso_disponible).div(ingreso) }
    }

    /// Component `i`'s value (spec order) before rounding, for those that read the shared
    /// inputs; `None` when it cannot be certified (or `i` is one of [`shown_propio`]'s).
    fn valor(&self, c: &Cifras, profile: &Profile, i: usize) -> Option<Approx> {
        match i {
            0 => c.curva_ingreso.eval_approx(self.cobertura),
            3 => match profile.deudas_mensuales {
                None => Some(c.puntos_deudas_no_declaradas_approx),
                Some(d) => c.curva_deudas.eval_approx(Approx::of(d).div(self.ingreso)),
            },
            4 => {
                // The savings reference: the income clamped to the income curve's domain in
                // pesos (figures::referencia_ahorro), decided in filtered arithmetic.
                let (desde, hasta) = c.curva_ingreso.approx_domain();
                let (piso, techo) = (self.costo.mul(desde), self.costo.mul(hasta));
                let referencia = if less(self.ingreso, piso)? {
                    piso
                } else if less(techo, self.ingreso)? {
                    techo
                } else {
                    self.ingreso
                };
                c.curva_ahorro
                    .eval_approx(Approx::of(profile.ahorro).div(referencia.mul(DOCE)))
            }
            5 => c.curva_salud_financiera.eval_approx(self.ratio),
            _ => None,
        }
    }

    /// Component `i`'s shown value, for those that read the shared inputs: a certified
    /// rounding, or, for a value exactly on a tie (an income of 9,608 is worth exactly 0.025
    /// points), the exact decimal one; `None` when it cannot be certified (or `i` is one of
    /// [`shown_propio`]'s). Score, points and the weak components then follow from the shown
    /// values in exact integers.
    fn shown(&self, c: &Cifras, profile: &Profile, exact: &Exact, i: usize) -> Option<Decimal> {
        let valor = self.valor(c, profile, i)?;
        let certified = if i == 4 {
            // Savings are capped by the income's coverage of the cost of living; rounding is
            // monotone, so the shown minimum is the minimum of the two shown values.
            let tope = c.curva_ahorro_cobertura.eval_approx(self.cobertura)?;
            round_dp(valor, MONEY)
                .zip(round_dp(tope, MONEY))
                .map(|(a, b)| a.min(b))
        } else {
            round_dp(valor, MONEY)
        };
        Some(certified.unwrap_or_else(|| money(component(c, profile, exact, i))))
    }
}

const MONEY: u32 = crate::money::MONEY_DP;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::figures::{exact, figures_exact};
    use crate::profile::IncomeType;
    use crate::states::State;
    use proptest::prelude::*;
    use std::str::FromStr;

    /// Both paths on one profile: when the filtered one answers, it is the decimal one,
    /// representation included (`Debug` shows every digit and the scale).
    fn agree(profile: &Profile) -> bool {
        let c = Cifras::incluidas();
        let exact = exact(c, profile);
        let decimal = figures_exact(c, profile, &exact);
        let mut filtered = Figures::default();
        match figures(c, profile, &exact, &mut filtered) {
            Some(()) => {
                assert_eq!(format!("{filtered:?}"), format!("{decimal:?}"), "{profile:?}");
                true
            }
            None => false,
        }
    }

    fn profile(estado: u8, ingreso: Decimal, tipo: IncomeType, meses: u32) -> Profile {
        Profile::nuevo(State::from_inegi(estado).expect("state"), ingreso, tipo, meses)
    }

    /// A deterministic sweep built to sit on ties: whole-peso incomes (a quarter of them make
    /// a component end in .xx5), seniorities on the breakpoints, debts and savings at the
    /// curves' breakpoint ratios, odd mixed incomes, cents, ages that shorten the term.
    #[test]
    fn filtered_figures_are_the_decimal_ones_on_ties_and_breakpoints() {
        let mut answered = 0;
        let mut total = 0;
        let mut seed: u64 = 7;
        let mut next = |modulus: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % modulus
        };
        for i in 0..60_000u64 {
            let whole = 5_000 + next(160_000);
            let ingreso = match i % 4 {
                0 => Decimal::from(whole),
                1 => Decimal::new((whole * 100 + next(100)) as i64, 2),
                2 => Decimal::from(whole - whole % 1_000),
                _ => Decimal::from(9_600 + 8 * next(800)),
            };
            let tipo = IncomeType::ALL[(i % 4) as usize];
            let meses = [0, 3, 6, 12, 18, 24, 36, 60, 7, 100][(next(10)) as usize] as u32;
            let mut p = profile((next(32) + 1) as u8, ingreso, tipo, meses);
            let ratio_points = ["0", "0.05", "0.1", "0.15", "0.2", "0.3", "0.4", "0.5", "0.6", "0.07"];
            if next(3) > 0 {
                let r = Decimal::from_str(ratio_points[next(10) as usize]).expect("ratio");
                p.deudas_mensuales = Some(crate::money::money(ingreso * r));
            }
            p.ahorro = match next(4) {
                0 => Decimal::ZERO,
                1 => Decimal::from(next(2_000_000)),
                2 => ingreso * Decimal::from(12) * Decimal::from_str(ratio_points[next(10) as usize]).expect("ratio"),
                _ => Decimal::new(next(100_000_000) as i64, 2),
            };
            p.edad = (next(2) == 0).then(|| 18 + next(80) as u32);
            p.personas_hogar = (next(2) == 0).then(|| 1 + next(8) as u32);
            if next(5) == 0 {
                p.subcuenta_fondo = Some(Decimal::from(next(500_000)));
            }
            total += 1;
            if agree(&p) {
                answered += 1;
            }
        }
        // Not a timing: the share of profiles the fast path decides is what makes it worth it.
        assert!(answered * 10 >= total * 9, "filtered path answered {answered} of {total}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        /// Arbitrary amounts, including many decimal places and extreme magnitudes.
        #[test]
        fn filtered_figures_never_disagree(
            estado in 1u8..=32,
            ingreso in 1i64..=100_000_000,
            ingreso_scale in 0u32..=6,
            tipo in 0usize..4,
            meses in 0u32..=720,
            deudas in proptest::option::of((0i64..=100_000_000, 0u32..=4)),
            ahorro in (0i64..=10_000_000_000, 0u32..=4),
            edad in proptest::option::of(18u32..=100),
            personas in proptest::option::of(1u32..=20),
            subcuenta in proptest::option::of(0i64..=100_000_000),
        ) {
            let mut p = profile(estado, Decimal::new(ingreso, ingreso_scale), IncomeType::ALL[tipo], meses);
            p.deudas_mensuales = deudas.map(|(m, s)| Decimal::new(m, s));
            p.ahorro = Decimal::new(ahorro.0, ahorro.1);
            p.edad = edad;
            p.personas_hogar = personas;
            p.subcuenta_fondo = subcuenta.map(Decimal::from);
            prop_assume!(p.validate().is_ok());
            agree(&p);
        }
    }
}
