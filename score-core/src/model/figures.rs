//! The decimal model v2.1: the six components, the score, purchasing capacity and financial
//! health in exact `Decimal` arithmetic, the definition that the filtered path
//! ([`crate::model::filtered`]) is checked against.
//!
//! Everything is `Decimal` arithmetic on the exact inputs; values are rounded only where they
//! are shown (see [`crate::money`]). The score is computed from the exact component values, so
//! it is a monotone function of each input (MODEL.md, "Monotonicity").

use crate::cifras::Cifras;
use crate::curve::Curve;
use crate::fast_decimal::{Orden, por};
use crate::fondo::subcuenta_de;
use crate::money::{div_round_half_away, money};
use crate::params::*;
use crate::profile::{IncomeType, Profile};
use crate::report::*;
use rust_decimal::Decimal;
use std::cmp::Reverse;

/// The quantities of a report that need no division: exact in `Decimal` at small scales, and
/// shared by the decimal and the filtered computation of the rest.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Exact {
    /// Cost of a dignified life for the household in its state, MXN a month.
    pub costo_vida_digno: Decimal,
    /// The declared debts, or the typical ratio of income when none are declared
    /// ([`deudas_supuestas`]).
    pub deudas: Decimal,
    /// Income left after the cost of living and those debts.
    pub ingreso_disponible: Decimal,
    /// The household's housing-fund balances (the applicant's and the co-borrower's), each
    /// declared or estimated.
    pub subcuenta: Decimal,
    /// The applicant's part of `subcuenta` (the credit products lend on each borrower's own).
    pub subcuenta_titular: Decimal,
    /// The co-borrower's part of `subcuenta` (0 without one).
    pub subcuenta_coacreditado: Decimal,
    /// Core dwelling area for the household, m².
    pub nucleo: Decimal,
}

impl Exact {
    /// The quantities of a what-if's profile that differs from this one in its debts alone
    /// (the co-borrower's part included): the debts and the income left after them again.
    pub(crate) fn con_deudas(&self, c: &Cifras, profile: &Profile) -> Exact {
        let deudas = deudas_supuestas(c, profile);
        Exact {
            deudas,
            ingreso_disponible: disponible(profile, self.costo_vida_digno, deudas),
            ..*self
        }
    }

    /// The quantities of a what-if's profile that differs from this one only in what the
    /// housing-fund balances read (more months of seniority, a co-borrower of the same
    /// household): those balances again.
    pub(crate) fn con_subcuentas(&self, c: &Cifras, profile: &Profile) -> Exact {
        let [subcuenta_titular, subcuenta_coacreditado] = subcuentas(c, profile);
        Exact {
            subcuenta: subcuenta_titular + subcuenta_coacreditado,
            subcuenta_titular,
            subcuenta_coacreditado,
            ..*self
        }
    }

    /// The quantities of `profile` for its household's cost of living and core dwelling.
    fn del_hogar(
        c: &Cifras,
        profile: &Profile,
        costo_vida_digno: Decimal,
        nucleo: Decimal,
    ) -> Exact {
        let deudas = deudas_supuestas(c, profile);
        let [subcuenta_titular, subcuenta_coacreditado] = subcuentas(c, profile);
        Exact {
            costo_vida_digno,
            deudas,
            ingreso_disponible: disponible(profile, costo_vida_digno, deudas),
            subcuenta: subcuenta_titular + subcuenta_coacreditado,
            subcuenta_titular,
            subcuenta_coacreditado,
            nucleo,
        }
    }

    /// The borrowers of `profile`, whose quantities these are, as the credit products read them
    /// (`Solicitud::del_perfil`): the report's and each what-if's.
    pub(crate) fn solicitud(&self, profile: &Profile) -> crate::products::Solicitud {
        crate::products::Solicitud::del_perfil(profile, self.deudas, [self.subcuenta_titular, self.subcuenta_coacreditado])
    }

    /// A year of the income savings are compared with ([`referencia_ahorro`]): computed only
    /// where it is needed exactly (the filtered path clamps in filtered arithmetic).
    pub(crate) fn ingreso_referencia_anual(&self, c: &Cifras, ingreso: Decimal) -> Decimal {
        referencia_ahorro(c, ingreso, self.costo_vida_digno) * Decimal::from(12)
    }
}

/// The quantities of a validated profile that need no division ([`Exact`]).
pub(crate) fn exact(c: &Cifras, profile: &Profile) -> Exact {
    let personas = profile.personas_hogar;
    Exact::del_hogar(c, profile, c.costo_vida_digno(profile.estado, personas), c.nucleo(personas))
}

/// The income left after the cost of living and the debts. Undeclared debts are neutral in the
/// Debts component but not free: capacity and financial health assume the typical ratio
/// ([`deudas_supuestas`]), so hiding debts does not raise them.
fn disponible(profile: &Profile, costo_vida_digno: Decimal, deudas: Decimal) -> Decimal {
    profile.ingreso_mensual - costo_vida_digno - deudas
}

/// The income savings are compared with: the income clamped to the income curve's domain in
/// pesos (its first and last ratio times the household's decent cost of living), so that where
/// more income earns no more income points it costs no savings points either (MODEL.md,
/// "Monotonicity").
pub(crate) fn referencia_ahorro(
    c: &Cifras,
    ingreso: Decimal,
    costo_vida_digno: Decimal,
) -> Decimal {
    let points = c.curva_ingreso.points();
    let (low, high) = (
        points[0].0 * costo_vida_digno,
        points[points.len() - 1].0 * costo_vida_digno,
    );
    Orden(ingreso).clamp(Orden(low), Orden(high)).0
}

/// The debts capacity and financial health count: the declared ones, or the typical ratio of
/// income (the calibration's `proporcion_deudas_no_declaradas`) when none are declared.
pub(crate) fn deudas_supuestas(c: &Cifras, profile: &Profile) -> Decimal {
    profile
        .deudas_mensuales
        .unwrap_or_else(|| por(c.proporcion_deudas_no_declaradas, profile.ingreso_mensual))
}

/// Income-type points.
pub(crate) fn puntos_tipo(c: &Cifras, tipo: IncomeType) -> Decimal {
    c.puntos_tipo.de(tipo)
}

/// The seniority curve of an income type.
pub(crate) fn curva_antiguedad(c: &Cifras, tipo: IncomeType) -> &Curve {
    c.curva_antiguedad(tipo)
}

/// The six weights in the spec's order (the order of [`Componentes`]).
pub(crate) const PESOS: [Decimal; 6] =
    [PESO_INGRESO, PESO_TIPO_INGRESO, PESO_ANTIGUEDAD, PESO_DEUDAS, PESO_AHORRO, PESO_SALUD_FINANCIERA];

/// Recommendation code of each component when it is weak, in the spec's order; `None` where
/// a weak value has no advice (a salaried income type, undeclared debts).
pub(crate) fn codigos_componentes(profile: &Profile) -> [Option<CodigoRecomendacion>; 6] {
    use CodigoRecomendacion as C;
    [
        Some(C::IngresoBajo),
        (profile.tipo_ingreso != IncomeType::Asalariado).then_some(C::IngresoPocoComprobable),
        Some(C::AntiguedadCorta),
        profile.deudas_mensuales.map(|_| C::DeudaAlta),
        Some(C::AhorroBajo),
        Some(C::SaludFinancieraAjustada),
    ]
}

/// Exact (unrounded) component values on the 0..100 scale, in the spec's order.
fn components(c: &Cifras, profile: &Profile, exact: &Exact) -> [Decimal; 6] {
    std::array::from_fn(|index| component(c, profile, exact, index))
}

/// One exact component value (index in the spec's order): the filtered path asks for it when
/// the value sits exactly on a rounding tie (an income of 9,608 gives 0.025 income points).
#[cold]
#[inline(never)]
pub(crate) fn component(c: &Cifras, profile: &Profile, exact: &Exact, index: usize) -> Decimal {
    let ingreso = profile.ingreso_mensual;
    match index {
        0 => c.curva_ingreso.eval_ratio(ingreso, exact.costo_vida_digno),
        1 => puntos_tipo(c, profile.tipo_ingreso),
        2 => {
            curva_antiguedad(c, profile.tipo_ingreso).eval(Decimal::from(profile.antiguedad_meses))
        }
        3 => match profile.deudas_mensuales {
            None => c.puntos_deudas_no_declaradas,
            Some(d) => c.curva_deudas.eval_ratio(d, ingreso),
        },
        // Savings against a year of income, at most what the income's coverage of the
        // household's decent cost of living allows (both exact: the minimum of two).
        4 => c
            .curva_ahorro
            .eval_ratio(profile.ahorro, exact.ingreso_referencia_anual(c, ingreso))
            .min(
                c.curva_ahorro_cobertura
                    .eval_ratio(ingreso, exact.costo_vida_digno),
            ),
        _ => c
            .curva_salud_financiera
            .eval_ratio(exact.ingreso_disponible, ingreso),
    }
}

/// Hundredths of a shown (2-decimal) figure on 0..=100, a weight or the threshold: an exact
/// small integer (more decimals round half away from zero, as `Decimal::rescale`). `const`,
/// so that the weights' are computed at compile time.
const fn centesimas(shown: Decimal) -> i64 {
    let (mut m, mut scale) = (shown.mantissa(), shown.scale());
    while scale < 2 {
        m *= 10;
        scale += 1;
    }
    if scale > 2 {
        m = div_round_half_away(m, 10i128.pow(scale - 2));
    }
    m as i64
}

/// The weights in hundredths (35, 12, 18, 15, 10, 10).
const PESOS_CENTESIMAS: [i64; 6] = {
    let mut pesos = [0; 6];
    let mut i = 0;
    while i < 6 {
        pesos[i] = centesimas(PESOS[i]);
        i += 1;
    }
    pesos
};

/// The score, each component's points and the weak components' codes ([`debiles`]) from the
/// **shown** component values, each read in hundredths once (MODEL.md section 2): `score =
/// round(Σ valor × peso × 10)` and `puntos = round2(valor × peso × 10)`, half away from zero.
/// With values and weights in hundredths, `valor × peso × 10` is `v × w / 1000`: integer
/// arithmetic, exact, the same on every platform, and anyone can check the score from the
/// report alone.
pub(crate) fn puntuacion(c: &Cifras, profile: &Profile, shown: &[Decimal; 6]) -> (u16, [Decimal; 6], Debiles) {
    let centesimas = centesimas_de(shown);
    let (score, puntos) = points_of(&weighted(&centesimas));
    (score, puntos, debiles(c, profile, &centesimas))
}

/// The score alone from the shown component values (what a what-if shows), as
/// [`puntuacion`] computes it.
pub(crate) fn score(shown: &[Decimal; 6]) -> u16 {
    score_of(&weighted(&centesimas_de(shown)))
}

/// Each shown value in hundredths.
fn centesimas_de(shown: &[Decimal; 6]) -> [i64; 6] {
    std::array::from_fn(|i| centesimas(shown[i]))
}

/// Each shown value times its weight, in hundredths times hundredths.
fn weighted(centesimas: &[i64; 6]) -> [i64; 6] {
    debug_assert_eq!(ESCALA_SCORE, Decimal::TEN);
    std::array::from_fn(|i| centesimas[i] * PESOS_CENTESIMAS[i])
}

/// The score and each component's points from the weighted values.
fn points_of(weighted: &[i64; 6]) -> (u16, [Decimal; 6]) {
    (score_of(weighted), weighted.map(|w| Decimal::new((w + 5) / 10, 2)))
}

fn score_of(weighted: &[i64; 6]) -> u16 {
    let total: i64 = weighted.iter().sum();
    // Every term is >= 0: half away from zero is half up.
    u16::try_from((total + 500) / 1000).unwrap_or(0).min(1000)
}

/// Weak components' codes from the shown values in hundredths: value below the threshold,
/// most points lost first (`(100 - valor) × peso`, exact in hundredths), ties in the spec's
/// order; at most `max_recomendaciones_componente`.
fn debiles(c: &Cifras, profile: &Profile, centesimas: &[i64; 6]) -> Debiles {
    let codigos = codigos_componentes(profile);
    // The points each weak component loses and its index.
    let mut weak = [(0i64, 0usize); 6];
    let mut n = 0;
    // The calibration's threshold in hundredths.
    let umbral_centesimas = self::centesimas(c.umbral_recomendacion);
    for (index, &valor) in centesimas.iter().enumerate() {
        if valor < umbral_centesimas && codigos[index].is_some() {
            weak[n] = ((10_000 - valor) * PESOS_CENTESIMAS[index], index);
            n += 1;
        }
    }
    // Most points lost first, ties in the spec's order. At most six items, and the index makes
    // every key unique: an insertion sort gives that order without the general sort's code.
    for i in 1..n {
        let mut j = i;
        while j > 0 && (Reverse(weak[j].0), weak[j].1) < (Reverse(weak[j - 1].0), weak[j - 1].1) {
            weak.swap(j - 1, j);
            j -= 1;
        }
    }
    let mut debiles = [None; 6];
    for (slot, &(_, index)) in debiles.iter_mut().zip(&weak[..n.min(c.max_recomendaciones_componente)]) {
        *slot = codigos[index];
    }
    debiles
}

/// Housing-fund balances, the applicant's and the co-borrower's (0 without one), each the
/// declared one or estimated on that borrower's own income (the household's less the
/// co-borrower's part, for the applicant).
pub(crate) fn subcuentas(cifras: &Cifras, profile: &Profile) -> [Decimal; 2] {
    let co = profile.coacreditado.as_ref();
    let propio = profile.ingreso_mensual - co.map_or(Decimal::ZERO, |c| c.ingreso_mensual);
    [
        subcuenta_de(
            cifras,
            profile.tipo_ingreso,
            propio,
            profile.antiguedad_meses,
            profile.subcuenta_fondo,
        ),
        co.map_or(Decimal::ZERO, |c| {
            subcuenta_de(
                cifras,
                c.tipo_ingreso,
                c.ingreso_mensual,
                c.antiguedad_meses,
                c.subcuenta_fondo,
            )
        }),
    ]
}

/// The figures of a report that involve a division or a 28-digit constant, as shown (rounded),
/// with the decisions taken on them. Computed in `Decimal` here and in filtered arithmetic by
/// [`crate::model::filtered::figures`], which must give the same value whenever it gives one.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Figures {
    pub score: u16,
    /// Shown value and shown points of each component, in the spec's order.
    pub componentes: [(Decimal, Decimal); 6],
    pub ratio: Decimal,
    /// Weak components' codes, most points lost first, at most three (then `None`s).
    pub debiles: Debiles,
}

/// Codes of the weak components in order, without allocating.
pub(crate) type Debiles = [Option<CodigoRecomendacion>; 6];

/// [`Figures`] in exact decimal arithmetic: the definition the filtered path is checked against.
#[cold]
#[inline(never)]
pub(crate) fn figures_exact(c: &Cifras, profile: &Profile, exact: &Exact) -> Figures {
    let ratio = exact.ingreso_disponible / profile.ingreso_mensual;
    let values = components(c, profile, exact);
    let shown: [Decimal; 6] = values.map(money);
    let (score, puntos, debiles) = puntuacion(c, profile, &shown);
    Figures {
        score,
        componentes: std::array::from_fn(|i| (shown[i], puntos[i])),
        ratio: crate::money::ratio(ratio),
        debiles,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::tests::d;

    /// [`puntuacion`]'s score and points, which read no calibration.
    fn score_and_points(shown: &[Decimal; 6]) -> (u16, [Decimal; 6]) {
        points_of(&weighted(&centesimas_de(shown)))
    }

    /// The score of these shown component values (the other four fixed).
    fn score(ahorro: &str, salud: &str) -> u16 {
        // Income type and seniority: 100 x (0.12 + 0.18) x 10 = 300 points, plus the savings
        // and health components below (weight 0.10 each: one point per point).
        score_and_points(&[Decimal::ZERO, Decimal::ONE_HUNDRED, Decimal::ONE_HUNDRED, Decimal::ZERO, d(ahorro), d(salud)]).0
    }

    /// Points are valor x peso x 10 rounded to cents, from the shown value: 50.71 x 0.35 x 10 =
    /// 177.485 shows 177.49, and the score adds the unrounded 177.485.
    #[test]
    fn points_and_score_come_from_the_shown_values() {
        let shown = [d("50.71"), d("100.00"), d("90.00"), d("75.00"), d("52.78"), d("65.08")];
        let (score, puntos) = score_and_points(&shown);
        assert_eq!(puntos.map(|p| p.to_string()), ["177.49", "120.00", "162.00", "112.50", "52.78", "65.08"]);
        // 177.485 + 120 + 162 + 112.5 + 52.78 + 65.08 = 689.845
        assert_eq!(score, 690);
    }

    /// The score rounds half away from zero, exactly at .5, and the level follows the rounded
    /// score: 400.5 becomes 401 (medio), 400.4999 stays 400 (bajo).
    #[test]
    fn score_rounds_half_away_from_zero_at_the_boundaries() {
        assert_eq!(score("100", "0.5"), 401);
        assert_eq!(Nivel::from_score(score("100", "0.5")), Nivel::Medio);
        assert_eq!(score("100", "0.49"), 400);
        assert_eq!(Nivel::from_score(score("100", "0.49")), Nivel::Bajo);
        assert_eq!(score("100", "100.0"), 500);
        assert_eq!(score("30.5", "0"), 331);
        assert_eq!(score("30.49", "0"), 330);
    }
}
