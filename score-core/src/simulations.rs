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
//!
//! They are ranked by score gained, then credit gained, then the order above; at most four.

use crate::figures::{Figures, exact, figures_exact};
use crate::money::money;
use crate::params::{ANTIGUEDAD_MAX_MESES, SALDO_MAX};
use crate::profile::Profile;
use crate::report::{AccionSimulacion, CambioPerfil, CampoSimulado, Nivel, ScoreReport, Simulacion};
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

/// Scores `profile` (already valid) as its report would: the same figures, filtered where that
/// certifies them, else decimal.
fn resultado(profile: &Profile) -> Resultado {
    let state = profile.estado.info();
    let exact = exact(profile, state);
    let Figures { score, credito, .. } =
        crate::filtered::figures(profile, &exact, state).unwrap_or_else(|| figures_exact(profile, &exact, state));
    Resultado { score, credito_max: credito }
}

fn cambio(campo: CampoSimulado, antes: Option<Decimal>, despues: Option<Decimal>) -> CambioPerfil {
    CambioPerfil { campo, antes, despues }
}

/// The simulations of `profile`, whose report (without simulations) is `base`.
pub(crate) fn simulaciones(profile: &Profile, base: &ScoreReport) -> Vec<Simulacion> {
    let mut found: Vec<(Simulacion, Resultado)> = Vec::with_capacity(MAX_SIMULACIONES);
    let mut offer = |accion: AccionSimulacion, cambios: Vec<CambioPerfil>, changed: &Profile, meses: Option<u32>| {
        let r = resultado(changed);
        if r.score > base.score || r.credito_max > base.credito_max {
            let simulacion = Simulacion {
                accion,
                descripcion: Cow::Borrowed(accion.descripcion()),
                cambios,
                score: r.score,
                nivel: Nivel::from_score(r.score),
                credito_max: r.credito_max,
                meses_para_siguiente_nivel: meses,
            };
            found.push((simulacion, r));
        }
    };

    // Save the shortfall of the down payment plus closing costs.
    let c = &base.capacidad_compra_estimada;
    let faltante = c.enganche_requerido + c.gastos_cierre_estimados - c.enganche_disponible;
    if c.credito_max > Decimal::ZERO && faltante > Decimal::ZERO && profile.ahorro < SALDO_MAX {
        let ahorro = (profile.ahorro + faltante).min(SALDO_MAX);
        let changed = Profile { ahorro, ..profile.clone() };
        offer(AccionSimulacion::AhorrarEnganche, vec![cambio(CampoSimulado::Ahorro, Some(profile.ahorro), Some(ahorro))], &changed, None);
    }

    // Pay down half of the declared debts, or declare them.
    match profile.deudas_mensuales {
        Some(deudas) if deudas > Decimal::ZERO => {
            let mitad = money(deudas / Decimal::TWO);
            // Half of a centavo and a half rounds to a centavo: never below the smallest amount.
            let mitad = if mitad < crate::params::MONTO_MINIMO { Decimal::ZERO } else { mitad };
            let changed = Profile { deudas_mensuales: Some(mitad), ..profile.clone() };
            offer(AccionSimulacion::PagarDeudas, vec![cambio(CampoSimulado::DeudasMensuales, Some(deudas), Some(mitad))], &changed, None);
        }
        Some(_) => {}
        None => {
            let changed = Profile { deudas_mensuales: Some(Decimal::ZERO), ..profile.clone() };
            offer(AccionSimulacion::DeclararDeudas, vec![cambio(CampoSimulado::DeudasMensuales, None, Some(Decimal::ZERO))], &changed, None);
        }
    }

    // More months in the job: the fewest that reach the next level, else a year.
    let most = ANTIGUEDAD_MAX_MESES.to_u32().unwrap_or(0).saturating_sub(profile.antiguedad_meses);
    if most > 0 {
        let with = |meses: u32| Profile { antiguedad_meses: profile.antiguedad_meses + meses, ..profile.clone() };
        let reaches = |meses: u32| Nivel::from_score(resultado(&with(meses)).score) > base.nivel;
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
        let changed = with(added);
        let cambios = vec![cambio(
            CampoSimulado::AntiguedadMeses,
            Some(Decimal::from(profile.antiguedad_meses)),
            Some(Decimal::from(changed.antiguedad_meses)),
        )];
        offer(AccionSimulacion::SumarAntiguedad, cambios, &changed, meses);
    }

    // Most score gained first, then most credit, then the actions' order (a stable sort keeps it).
    found.sort_by(|(_, a), (_, b)| b.score.cmp(&a.score).then(b.credito_max.cmp(&a.credito_max)));
    found.into_iter().take(MAX_SIMULACIONES).map(|(s, _)| s).collect()
}
