//! What-if (`simulaciones`): the actions a buyer can take, each scored by scoring the profile
//! with the change, so every figure is exactly what the changed profile's own report says
//! (MODEL.md section 14).
//!
//! The actions, each offered only when it applies and gains score or credit:
//! - `AHORRAR_ENGANCHE`: when a credit is available and the savings plus the housing-fund
//!   balance do not cover the down payment plus closing costs, save the shortfall.
//! - `PAGAR_DEUDAS`: declared debt payments above 0 cut by half (to the centavo).
//! - `DECLARAR_DEUDAS`: debts not declared, declared as 0 (a buyer with debts declares them:
//!   the description says so).
//! - `SUMAR_ANTIGUEDAD`: the fewest more months of seniority that reach the next level
//!   (`meses_para_siguiente_nivel`), else twelve more months; age is held.
//! - `SUMAR_COACREDITADO`: without a co-borrower, in a household of more than one person, an
//!   applicant who contributes to INFONAVIT applies together with a second earner of the
//!   household ([`coacreditado_simulado`]). The score reads the household, so only the credit
//!   can grow, and the what-if is kept only when it grows through Unamos Créditos (two INFONAVIT
//!   credits pooled).
//!
//! They are ranked by score gained, then credit gained, then the order above; at most four.

use crate::cifras::Cifras;
use crate::model::figures::{Exact, curva_antiguedad};
use crate::money::money;
use crate::params::{ANTIGUEDAD_MAX_MESES, SALDO_MAX};
use crate::products::Evaluadas;
use crate::profile::{Coacreditado, Institucion, Profile};
use crate::report::score_report::ScoreReport;
use crate::report::Nivel;
use crate::report::simulacion::{AccionSimulacion, CambioPerfil, CampoSimulado, Simulacion, ValorCampo};
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use std::borrow::Cow;

/// The most simulations a report carries.
pub const MAX_SIMULACIONES: usize = 4;
/// Months added by `SUMAR_ANTIGUEDAD` when no number of months reaches the next level.
pub const MESES_SIMULADOS: u32 = 12;

/// What scoring a changed profile gives: the figures a simulation shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Resultado {
    score: u16,
    credito_max: Decimal,
}

/// Scores `profile` (already valid), the report's profile changed by `accion`, as its report
/// would: the same figures, filtered where that certifies them, else decimal. What the action
/// leaves alone is the report's own: `base` its quantities, `antes` its shown component values
/// (only the components that read the fields the action changes are computed,
/// `crate::model::figures::component`; a co-borrower changes none, since the score reads the
/// household), and `evaluadas` its offers, re-ranked instead of evaluated again when the action
/// changes no credit (savings; seniority, see `Evaluadas::credito_con_antiguedad`), or kept
/// when fewer debts change no offer (`Evaluadas::credito_con_menos_deudas`).
///
/// `None`: the action cannot be offered, whatever it gains. A co-borrower never moves the score
/// (it reads the household), and its what-if is worth offering only for a larger credit through
/// Unamos Créditos ([`coacreditado_simulado`]): `None` when the changed profile is recommended
/// another product, or, decided before the other products are evaluated again for two
/// borrowers, when Unamos Créditos is refused or lends no more than `credito_base`, the report's
/// credit (`products::credito_unamos`).
fn resultado(
    c: &Cifras,
    profile: &Profile,
    accion: AccionSimulacion,
    base: &Exact,
    antes: &[Decimal; 6],
    evaluadas: &Evaluadas,
    credito_base: Decimal,
) -> Option<Resultado> {
    // The components that read the fields each action changes (spec order: savings; debts
    // and financial health; seniority), and the quantities it moves.
    let (cambian, exact): (&[usize], Exact) = match accion {
        AccionSimulacion::AhorrarEnganche => (&[4], *base),
        AccionSimulacion::PagarDeudas | AccionSimulacion::DeclararDeudas => {
            (&[3, 5], base.con_deudas(c, profile))
        }
        AccionSimulacion::SumarAntiguedad => (&[2], base.con_subcuentas(c, profile)),
        AccionSimulacion::SumarCoacreditado => (&[], base.con_subcuentas(c, profile)),
    };
    let score = crate::model::filtered::score_cambiando(c, profile, &exact, antes, cambian)
        .unwrap_or_else(|| crate::model::figures::figures_exact(c, profile, &exact).score);
    let solicitud = exact.solicitud(profile);
    let credito_max = match accion {
        AccionSimulacion::AhorrarEnganche => evaluadas.credito_con_ahorro(c, &solicitud),
        AccionSimulacion::SumarAntiguedad => evaluadas.credito_con_antiguedad(c, &solicitud),
        AccionSimulacion::PagarDeudas | AccionSimulacion::DeclararDeudas => {
            evaluadas.credito_con_menos_deudas(c, &solicitud)
        }
        AccionSimulacion::SumarCoacreditado => crate::products::credito_unamos(c, &solicitud, credito_base, evaluadas)?,
    };
    Some(Resultado { score, credito_max })
}

/// A change of a number (`None`: absent).
fn cambio(campo: CampoSimulado, antes: Option<Decimal>, despues: Option<Decimal>) -> CambioPerfil {
    CambioPerfil { campo, antes: antes.map(ValorCampo::Numero), despues: despues.map(ValorCampo::Numero) }
}

/// The co-borrower `SUMAR_COACREDITADO` simulates for `profile`, when it has none, its
/// household has more than one person (an absent `personas_hogar` is the mean household's) and
/// the applicant contributes to INFONAVIT: the least the buyer has not said, a second earner
/// holding half of the household's income (to the centavo, half away from zero; it must stay
/// less than the whole, so an income of one centavo has none), with the applicant's income type,
/// seniority and age, none of the declared debts, and the housing fund and sub-account its income
/// type gives (INFONAVIT, estimated).
///
/// Two borrowers add a credit only where a product lends on each one's own income: Unamos
/// Créditos, two INFONAVIT workers. The bank products already lend on the household's income
/// and FOVISSSTE lends to one worker, so for anyone else half of the income on a second person
/// could only shrink the offers: not simulated. Where it is, the what-if is kept only when
/// Unamos Créditos is what the changed profile is recommended: shrunken offers can also rank a
/// different product first (one the buyer's own funds now cover, or a larger credit for a home
/// of no more value), which is no reason to apply with someone.
pub(crate) fn coacreditado_simulado(profile: &Profile) -> Option<Coacreditado> {
    let de_infonavit = crate::products::cotiza_a(profile.tipo_ingreso, profile.institucion, Institucion::Infonavit);
    if profile.coacreditado.is_some() || profile.personas_hogar == Some(1) || !de_infonavit {
        return None;
    }
    let ingreso_mensual = money(profile.ingreso_mensual / Decimal::TWO);
    (ingreso_mensual < profile.ingreso_mensual).then_some(Coacreditado {
        ingreso_mensual,
        tipo_ingreso: profile.tipo_ingreso,
        antiguedad_meses: profile.antiguedad_meses,
        edad: profile.edad,
        deudas_mensuales: None,
        subcuenta_fondo: None,
        institucion: None,
    })
}

/// The changes that add `co`, in the co-borrower's field order (its age when it has one).
fn cambios_coacreditado(co: &Coacreditado) -> Vec<CambioPerfil> {
    let nuevo = |campo, valor| CambioPerfil { campo, antes: None, despues: Some(valor) };
    let edad = co.edad.map(|edad| nuevo(CampoSimulado::CoacreditadoEdad, ValorCampo::Numero(Decimal::from(edad))));
    // Collected at their number (one allocation, no growth).
    [
        nuevo(CampoSimulado::CoacreditadoIngresoMensual, ValorCampo::Numero(co.ingreso_mensual)),
        nuevo(CampoSimulado::CoacreditadoTipoIngreso, ValorCampo::TipoIngreso(co.tipo_ingreso)),
        nuevo(CampoSimulado::CoacreditadoAntiguedadMeses, ValorCampo::Numero(Decimal::from(co.antiguedad_meses))),
    ]
    .into_iter()
    .chain(edad)
    .collect()
}

/// The simulations of `profile`, whose report (without simulations) is `base` and whose
/// offers, unrounded, are `evaluadas`.
pub(crate) fn simulaciones(
    c: &Cifras,
    profile: &Profile,
    exact: &Exact,
    base: &ScoreReport,
    evaluadas: &Evaluadas,
) -> Vec<Simulacion> {
    let cifras = c;
    let mut found: Vec<Simulacion> = Vec::with_capacity(MAX_SIMULACIONES);
    let co = &base.componentes;
    let shown = [co.ingreso.valor, co.tipo_ingreso.valor, co.antiguedad.valor, co.deudas.valor, co.ahorro.valor, co.salud_financiera.valor];
    // `cambios` are written only for a what-if offered.
    let mut offer = |accion: AccionSimulacion,
                     cambios: &dyn Fn() -> Vec<CambioPerfil>,
                     changed: &Profile,
                     meses: Option<u32>| {
        let r = resultado(
            cifras,
            changed,
            accion,
            exact,
            &shown,
            evaluadas,
            base.credito_max,
        );
        if let Some(r) = r.filter(|r| r.score > base.score || r.credito_max > base.credito_max) {
            let simulacion = Simulacion {
                accion,
                descripcion: Cow::Borrowed(accion.descripcion()),
                cambios: cambios(),
                score: r.score,
                nivel: Nivel::from_score(r.score),
                credito_max: r.credito_max,
                meses_para_siguiente_nivel: meses,
            };
            found.push(simulacion);
        }
    };

    // Save the shortfall of the down payment plus closing costs.
    let c = &base.capacidad_compra_estimada;
    let faltante = c.enganche_requerido + c.gastos_cierre_estimados - c.enganche_disponible;
    if c.credito_max > Decimal::ZERO && faltante > Decimal::ZERO && profile.ahorro < SALDO_MAX {
        let ahorro = (profile.ahorro + faltante).min(SALDO_MAX);
        let changed = Profile { ahorro, ..profile.clone() };
        let cambios = || vec![cambio(CampoSimulado::Ahorro, Some(profile.ahorro), Some(ahorro))];
        offer(AccionSimulacion::AhorrarEnganche, &cambios, &changed, None);
    }

    // Pay down half of the declared debts, or declare them.
    match profile.deudas_mensuales {
        Some(deudas) if deudas > Decimal::ZERO => {
            // Declared debts are at least a centavo, and half of one rounds (half away from
            // zero) to a centavo: the halved amount is a valid one.
            let mitad = money(deudas / Decimal::TWO);
            let mut changed = Profile { deudas_mensuales: Some(mitad), ..profile.clone() };
            // The co-borrower's part of them is halved too (it stays a part of the whole:
            // rounding half away from zero keeps the order of the two amounts).
            let mut suyas = None;
            if let Some(co) = changed.coacreditado.as_mut() {
                if let Some(parte) = co.deudas_mensuales.filter(|d| *d > Decimal::ZERO) {
                    let su_mitad = money(parte / Decimal::TWO);
                    co.deudas_mensuales = Some(su_mitad);
                    suyas = Some((parte, su_mitad));
                }
            }
            let cambios = || {
                let mut cambios = vec![cambio(CampoSimulado::DeudasMensuales, Some(deudas), Some(mitad))];
                if let Some((parte, su_mitad)) = suyas {
                    cambios.push(cambio(CampoSimulado::CoacreditadoDeudasMensuales, Some(parte), Some(su_mitad)));
                }
                cambios
            };
            offer(AccionSimulacion::PagarDeudas, &cambios, &changed, None);
        }
        Some(_) => {}
        None => {
            let changed = Profile { deudas_mensuales: Some(Decimal::ZERO), ..profile.clone() };
            let cambios = || vec![cambio(CampoSimulado::DeudasMensuales, None, Some(Decimal::ZERO))];
            offer(AccionSimulacion::DeclararDeudas, &cambios, &changed, None);
        }
    }

    // More months in the job: the fewest that reach the next level, else a year. Seniority
    // enters the score only through its component (the fund estimate and the products' minimum
    // seniority move the credit, not the score), so the search rescores that one component over
    // the report's other shown values, exactly as the report sums them; the action offered is
    // then scored as every action is (`resultado`), its credit included.
    let most = ANTIGUEDAD_MAX_MESES.to_u32().unwrap_or(0).saturating_sub(profile.antiguedad_meses);
    if most > 0 {
        let curve = curva_antiguedad(cifras, profile.tipo_ingreso);
        let score_after = |meses: u32| {
            let mut s = shown;
            s[2] = curve.eval_money_meses(profile.antiguedad_meses + meses);
            crate::model::figures::score(&s)
        };
        let reaches = |meses: u32| Nivel::from_score(score_after(meses)) > base.nivel;
        let meses = if base.nivel != Nivel::Excelente && reaches(most) {
            // The score never falls as seniority grows (MODEL.md, "Monotonicity"): bisect for
            // the fewest months.
            let (mut low, mut high) = (0, most);
            while high - low > 1 {
                let mid = low + (high - low) / 2;
                if reaches(mid) { high = mid } else { low = mid }
            }
            Some(high)
        } else {
            None
        };
        let added = meses.unwrap_or(MESES_SIMULADOS.min(most));
        // Offered when it gains score or credit (more months can open a product or grow the
        // housing-fund estimate, even with the Seniority component at its top).
        let changed = Profile { antiguedad_meses: profile.antiguedad_meses + added, ..profile.clone() };
        let cambios = || {
            let (antes, despues) = (profile.antiguedad_meses, changed.antiguedad_meses);
            vec![cambio(CampoSimulado::AntiguedadMeses, Some(Decimal::from(antes)), Some(Decimal::from(despues)))]
        };
        offer(AccionSimulacion::SumarAntiguedad, &cambios, &changed, meses);
    }

    // A second earner of the household as co-borrower.
    if let Some(co) = coacreditado_simulado(profile) {
        let changed = Profile { coacreditado: Some(co.clone()), ..profile.clone() };
        offer(AccionSimulacion::SumarCoacreditado, &|| cambios_coacreditado(&co), &changed, None);
    }

    // Most score gained first, then most credit, then the actions' order: an insertion sort of
    // at most four (the debts' two actions exclude each other; stable; a library sort would add
    // kilobytes to the WebAssembly build).
    for i in 1..found.len() {
        let mut j = i;
        while j > 0 && {
            let (a, b) = (&found[j - 1], &found[j]);
            (b.score, b.credito_max) > (a.score, a.credito_max)
        } {
            found.swap(j - 1, j);
            j -= 1;
        }
    }
    found.truncate(MAX_SIMULACIONES);
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::products::Institucion;
    use crate::profile::{Coacreditado, IncomeType};
    use crate::states::State;
    use proptest::prelude::*;

    prop_compose! {
        /// Valid profiles with whole or cent amounts, seniorities around the products' minimums,
        /// declared and undeclared debts and sub-accounts, and co-borrowers with a share of the
        /// income and of the debts.
        fn profile()(
            estado in 1u8..=32,
            ingreso in 1i64..=20_000_000,
            tipo in 0usize..4,
            meses in prop::sample::select(vec![0u32, 1, 5, 6, 11, 12, 23, 24, 35, 36, 60, 119, 700, 719]),
            deudas in prop::option::of(0i64..=5_000_000),
            ahorro in 0i64..=200_000_000,
            edad in prop::option::of(18u32..=100),
            personas in prop::option::of(1u32..=8),
            subcuenta in prop::option::of(0i64..=50_000_000),
            institucion in prop::option::of(0usize..3),
            co in prop::option::weighted(0.4, (1u32..100, 0usize..4, 0u32..=60, prop::option::of(18u32..=90), prop::option::of(0i64..=20_000_000), prop::option::of(0usize..3), prop::option::of(0u32..=100))),
        ) -> Profile {
            let centavos = |c: i64| Decimal::new(c, 2);
            let ingreso_mensual = centavos(ingreso * 100 / 7);
            let mut p = Profile {
                estado: State::from_inegi(estado).expect("state"),
                ingreso_mensual,
                tipo_ingreso: IncomeType::ALL[tipo],
                antiguedad_meses: meses,
                deudas_mensuales: deudas.map(|d| centavos(d).min(ingreso_mensual)),
                ahorro: centavos(ahorro),
                edad,
                personas_hogar: personas,
                subcuenta_fondo: subcuenta.map(centavos),
                institucion: institucion.map(|i| Institucion::ALL[i]),
                coacreditado: None,
            };
            if let Some((parte, tipo, meses, edad, subcuenta, institucion, parte_deudas)) = co {
                let de = |total: Decimal, parte: u32| (total * Decimal::from(parte) / Decimal::ONE_HUNDRED).round_dp(2);
                let ingreso = de(ingreso_mensual, parte);
                if ingreso > Decimal::ZERO && ingreso < ingreso_mensual {
                    p.coacreditado = Some(Coacreditado {
                        ingreso_mensual: ingreso,
                        tipo_ingreso: IncomeType::ALL[tipo],
                        antiguedad_meses: meses,
                        edad,
                        deudas_mensuales: p.deudas_mensuales.zip(parte_deudas).map(|(d, parte)| de(d, parte)),
                        subcuenta_fondo: subcuenta.map(centavos),
                        institucion: institucion.map(|i| Institucion::ALL[i]),
                    });
                }
            }
            p
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3_000))]

        /// What a what-if reuses of the report (its quantities, the components the action
        /// leaves alone, its offers re-ranked) gives the changed profile's own score and credit,
        /// whether or not the what-if is offered: more savings, more months (with offers refused
        /// for seniority or not), debts halved or declared, a co-borrower added (a co-borrower's
        /// what-if that is not offerable is one its changed profile could not offer).
        #[test]
        fn every_action_scores_as_the_changed_profile(p in profile(), mas_ahorro in 1i64..=100_000_000, mas_meses in 1u32..=30) {
            prop_assume!(p.validate().is_ok());
            let base = crate::score_with(&p, crate::Opciones { simulaciones: false, ..crate::Opciones::default() }).expect("valid");
            let cifras = Cifras::incluidas();
            let exact = crate::model::figures::exact(cifras, &p);
            let mut evaluadas = crate::products::Evaluadas::default();
            crate::products::evaluar_guardando(cifras, &exact.solicitud(&p), &mut evaluadas);
            let c = &base.componentes;
            let shown = [c.ingreso.valor, c.tipo_ingreso.valor, c.antiguedad.valor, c.deudas.valor, c.ahorro.valor, c.salud_financiera.valor];
            let mut changes = vec![
                (AccionSimulacion::AhorrarEnganche, Profile { ahorro: (p.ahorro + Decimal::new(mas_ahorro, 2)).min(SALDO_MAX), ..p.clone() }),
                (AccionSimulacion::SumarAntiguedad, Profile { antiguedad_meses: (p.antiguedad_meses + mas_meses).min(720), ..p.clone() }),
            ];
            // The debts' actions as `simulaciones` makes them: declared when absent, else halved.
            match p.deudas_mensuales {
                None => changes.push((AccionSimulacion::DeclararDeudas, Profile { deudas_mensuales: Some(Decimal::ZERO), ..p.clone() })),
                Some(d) => {
                    let mut halved = Profile { deudas_mensuales: Some(money(d / Decimal::TWO)), ..p.clone() };
                    if let Some(co) = halved.coacreditado.as_mut() {
                        co.deudas_mensuales = co.deudas_mensuales.map(|d| money(d / Decimal::TWO));
                    }
                    changes.push((AccionSimulacion::PagarDeudas, halved));
                }
            }
            if let Some(co) = coacreditado_simulado(&p) {
                changes.push((AccionSimulacion::SumarCoacreditado, Profile { coacreditado: Some(co), ..p.clone() }));
            }
            for (accion, changed) in changes {
                let again = crate::score(&changed).expect("a changed profile stays valid");
                let unamos = again.producto_recomendado == Some(crate::products::Producto::UnamosCreditos.clave());
                let Some(r) = resultado(cifras, &changed, accion, &exact, &shown, &evaluadas, base.credito_max) else {
                    // Not offerable: only a co-borrower, and only where the changed profile
                    // gains no score and no credit through Unamos Créditos.
                    prop_assert_eq!(accion, AccionSimulacion::SumarCoacreditado);
                    prop_assert!(again.score <= base.score && !(unamos && again.credito_max > base.credito_max));
                    continue;
                };
                prop_assert_eq!(r.score, again.score, "{:?}", accion);
                prop_assert_eq!(r.credito_max, again.capacidad_compra_estimada.credito_max, "{:?}", accion);
                prop_assert!(accion != AccionSimulacion::SumarCoacreditado || unamos, "a co-borrower's figures are Unamos Créditos'");
            }
        }
    }
}
