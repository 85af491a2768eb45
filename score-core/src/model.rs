//! Score model v2.1: the six components, the score, purchasing capacity and financial health.
//!
//! Everything is `Decimal` arithmetic on the exact inputs; values are rounded only where they
//! are shown (see [`crate::money`]). The score is computed from the exact component values, so
//! it is a monotone function of each input (MODEL.md, "Monotonicity").

use crate::money::{money, ratio, round};
use crate::params::*;
use crate::profile::{IncomeType, Profile};
use crate::recommendations::recommend;
use crate::report::*;
use rust_decimal::Decimal;

/// Exact (unrounded) component values on the 0..100 scale.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ComponentValues {
    pub ingreso: Decimal,
    pub tipo_ingreso: Decimal,
    pub antiguedad: Decimal,
    pub deudas: Decimal,
    pub ahorro: Decimal,
    pub salud_financiera: Decimal,
}

impl ComponentValues {
    /// Pairs of (value, weight) in the spec's order.
    pub fn weighted(&self) -> [(Decimal, Decimal); 6] {
        [
            (self.ingreso, PESO_INGRESO),
            (self.tipo_ingreso, PESO_TIPO_INGRESO),
            (self.antiguedad, PESO_ANTIGUEDAD),
            (self.deudas, PESO_DEUDAS),
            (self.ahorro, PESO_AHORRO),
            (self.salud_financiera, PESO_SALUD_FINANCIERA),
        ]
    }

    /// round((sum of value x weight) x 10), half away from zero.
    pub fn score(&self) -> u16 {
        let sum: Decimal = self.weighted().iter().map(|(v, w)| v * w).sum();
        let score = round(sum * ESCALA_SCORE, 0);
        u16::try_from(score.mantissa()).unwrap_or(0).min(1000)
    }
}

/// Financial-health figures shared by the ISFH component and the capacity block.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Health {
    pub costo_vida_digno: Decimal,
    pub ingreso_disponible: Decimal,
    pub ratio: Decimal,
}

pub(crate) fn health(profile: &Profile, factor: Decimal) -> Health {
    let personas = profile.personas_hogar.map(Decimal::from).unwrap_or(PERSONAS_HOGAR_DEFAULT);
    let costo_vida_digno = LINEA_POBREZA_URBANA * personas * factor;
    let deudas = profile.deudas_mensuales.unwrap_or(Decimal::ZERO);
    let ingreso_disponible = profile.ingreso_mensual - costo_vida_digno - deudas;
    Health { costo_vida_digno, ingreso_disponible, ratio: ingreso_disponible / profile.ingreso_mensual }
}

pub(crate) fn components(profile: &Profile, health: &Health) -> ComponentValues {
    let ingreso = profile.ingreso_mensual;
    let tipo_ingreso = match profile.tipo_ingreso {
        IncomeType::Asalariado => PUNTOS_TIPO_ASALARIADO,
        IncomeType::Mixto => PUNTOS_TIPO_MIXTO,
        IncomeType::Pensionado => PUNTOS_TIPO_PENSIONADO,
        IncomeType::Independiente => PUNTOS_TIPO_INDEPENDIENTE,
    };
    let antiguedad_curve = match profile.tipo_ingreso {
        IncomeType::Independiente => CURVA_ANTIGUEDAD_INDEPENDIENTE,
        _ => CURVA_ANTIGUEDAD_ASALARIADO,
    };
    let deudas = match profile.deudas_mensuales {
        None => PUNTOS_DEUDAS_NO_DECLARADAS,
        Some(d) => CURVA_DEUDAS.eval(d / ingreso),
    };
    let referencia = ingreso.clamp(AHORRO_INGRESO_REFERENCIA_MIN, AHORRO_INGRESO_REFERENCIA_MAX);
    ComponentValues {
        ingreso: CURVA_INGRESO.eval(ingreso),
        tipo_ingreso,
        antiguedad: antiguedad_curve.eval(Decimal::from(profile.antiguedad_meses)),
        deudas,
        ahorro: CURVA_AHORRO.eval(profile.ahorro / (referencia * Decimal::from(12))),
        salud_financiera: CURVA_SALUD_FINANCIERA.eval(health.ratio),
    }
}

/// Loan term in whole years: 20, shortened so that age plus term stays within 75.
pub(crate) fn plazo_anios(profile: &Profile) -> u32 {
    let max = u32::try_from(PLAZO_MAX_ANIOS.mantissa()).unwrap_or(20);
    match profile.edad {
        None => max,
        Some(edad) => {
            let limite = u32::try_from(EDAD_MAX_FIN_PLAZO.mantissa()).unwrap_or(75);
            limite.saturating_sub(edad).min(max)
        }
    }
}

/// Present value of 1 peso paid monthly for `years` at TASA_ANUAL: (1 - (1+i)^-n) / i, from
/// the precomputed [`FACTOR_ANUALIDAD`] table (terms are whole years, at most 20).
fn annuity_factor(years: u32) -> Decimal {
    FACTOR_ANUALIDAD.get(years as usize).copied().unwrap_or(Decimal::ZERO)
}

/// Housing-fund balance: the declared one, or 5% of the (capped) payroll income for each
/// month of seniority (at most 360); zero for self-employed buyers and pensioners.
fn subcuenta_estimada(profile: &Profile) -> Decimal {
    if let Some(declarada) = profile.subcuenta_fondo {
        return declarada;
    }
    let salario = match profile.tipo_ingreso {
        IncomeType::Asalariado => profile.ingreso_mensual,
        IncomeType::Mixto => profile.ingreso_mensual * PROPORCION_SALARIO_MIXTO,
        IncomeType::Independiente | IncomeType::Pensionado => return Decimal::ZERO,
    };
    let tope = TOPE_SBC_UMAS * UMA_DIARIA * DIAS_POR_MES;
    let meses = Decimal::from(profile.antiguedad_meses).min(MESES_FONDO_MAX);
    APORTACION_FONDO * salario.min(tope) * meses
}

fn m2_minimo_nucleo(profile: &Profile) -> Decimal {
    let personas = profile.personas_hogar.map(Decimal::from).unwrap_or(PERSONAS_HOGAR_DEFAULT);
    let dormitorios = (personas / PERSONAS_POR_DORMITORIO).ceil().max(Decimal::ONE);
    (M2_NUCLEO_BASE + M2_POR_DORMITORIO_EXTRA * (dormitorios - Decimal::ONE)) * FACTOR_MUROS_CIRCULACION
}

fn evaluacion_m2(m2: Decimal, nucleo: Decimal) -> EvaluacionM2 {
    if m2 < nucleo {
        EvaluacionM2::Insuficiente
    } else if m2 < nucleo * UMBRAL_M2_ADECUADO {
        EvaluacionM2::NucleoBasico
    } else if m2 < nucleo * UMBRAL_M2_HOLGADO {
        EvaluacionM2::Adecuado
    } else {
        EvaluacionM2::Holgado
    }
}

fn estatus_enganche(valor: Decimal, requerido: Decimal, disponible: Decimal, gastos: Decimal) -> EstatusEnganche {
    if valor.is_zero() {
        EstatusEnganche::NoAplica
    } else if disponible.is_zero() {
        EstatusEnganche::SinEnganche
    } else if disponible < requerido * UMBRAL_ENGANCHE_PARCIAL {
        EstatusEnganche::Insuficiente
    } else if disponible < requerido {
        EstatusEnganche::Parcial
    } else if disponible < requerido + gastos {
        EstatusEnganche::CubiertoSinGastos
    } else {
        EstatusEnganche::Cubierto
    }
}

pub(crate) fn capacity(profile: &Profile, health: &Health, factor: Decimal, precio_m2: Decimal) -> CapacidadCompra {
    let ingreso = profile.ingreso_mensual;
    let deudas = profile.deudas_mensuales.unwrap_or(Decimal::ZERO);
    let pago = (PTI_MAX * ingreso)
        .min(DTI_TOTAL_MAX * ingreso - deudas)
        .min(health.ingreso_disponible)
        .max(Decimal::ZERO);
    let plazo = plazo_anios(profile);
    let credito = pago * annuity_factor(plazo);
    let ltv = match profile.tipo_ingreso {
        IncomeType::Independiente => LTV_INDEPENDIENTE,
        _ => LTV_ASALARIADO,
    };
    let valor_bancario = credito / ltv;
    let ajuste = (Decimal::TWO - factor).clamp(FACTOR_MIN, FACTOR_MAX);
    let enganche_requerido = valor_bancario * (Decimal::ONE - ltv);
    let gastos = valor_bancario * GASTOS_CIERRE;
    let subcuenta = subcuenta_estimada(profile);
    let disponible = profile.ahorro + subcuenta;
    let m2 = valor_bancario / precio_m2;
    let nucleo = m2_minimo_nucleo(profile);
    // valor_realista is derived from the *shown* valor_bancario, so the spec's formula holds
    // exactly on the published figures: round2(valor_bancario x ajuste) == valor_realista.
    let valor_bancario_mostrado = money(valor_bancario);
    CapacidadCompra {
        valor_bancario: valor_bancario_mostrado,
        valor_realista: money(valor_bancario_mostrado * ajuste),
        factor_platform_v2: factor,
        ltv,
        pago_mensual_estimado: money(pago),
        credito_max: money(credito),
        m2_alcanzables: money(m2),
        m2_minimo_nucleo: money(nucleo),
        evaluacion_m2: evaluacion_m2(m2, nucleo),
        enganche_requerido: money(enganche_requerido),
        enganche_disponible: money(disponible),
        subcuenta_fondo_estimada: money(subcuenta),
        estatus_enganche: estatus_enganche(valor_bancario, enganche_requerido, disponible, gastos),
        renta_equivalente: money(valor_bancario * RENDIMIENTO_RENTA_ANUAL / Decimal::from(12)),
        gastos_cierre_estimados: money(gastos),
        tasa_anual: TASA_ANUAL,
        plazo_anios: plazo,
        precio_m2_estado: precio_m2,
    }
}

fn componente(valor: Decimal, peso: Decimal) -> Componente {
    Componente { valor: money(valor), peso, puntos: money(valor * peso * ESCALA_SCORE) }
}

/// The whole report of a validated profile.
pub(crate) fn report(profile: &Profile) -> ScoreReport {
    let state = profile.estado.info();
    let health = health(profile, state.factor);
    let values = components(profile, &health);
    let score = values.score();
    let capacidad = capacity(profile, &health, state.factor, state.precio_m2);
    let recomendaciones_detalle = recommend(profile, &values, &capacidad);
    ScoreReport {
        score,
        nivel: Nivel::from_score(score),
        recomendaciones: recomendaciones_detalle.iter().map(|r| r.texto.clone()).collect(),
        disclaimer: DISCLAIMER.into(),
        valor_vivienda_max: capacidad.valor_bancario,
        credito_max: capacidad.credito_max,
        enganche_min: capacidad.enganche_requerido,
        pago_mensual_estimado: capacidad.pago_mensual_estimado,
        renta_estimada: capacidad.renta_equivalente,
        salud_financiera: SaludFinanciera {
            score: money(values.salud_financiera),
            costo_vida_digno: money(health.costo_vida_digno),
            ingreso_disponible: money(health.ingreso_disponible),
            ratio: ratio(health.ratio),
        },
        capacidad_compra_estimada: capacidad,
        modelo_version: crate::MODEL_VERSION.into(),
        estado: EstadoReporte { clave: state.clave.into(), codigo: state.iso.into(), nombre: state.nombre.into() },
        componentes: Componentes {
            ingreso: componente(values.ingreso, PESO_INGRESO),
            tipo_ingreso: componente(values.tipo_ingreso, PESO_TIPO_INGRESO),
            antiguedad: componente(values.antiguedad, PESO_ANTIGUEDAD),
            deudas: componente(values.deudas, PESO_DEUDAS),
            ahorro: componente(values.ahorro, PESO_AHORRO),
            salud_financiera: componente(values.salud_financiera, PESO_SALUD_FINANCIERA),
        },
        recomendaciones_detalle,
    }
}

/// The disclaimer every report carries.
pub const DISCLAIMER: &str = "Este puntaje es indicativo y se calcula con la información declarada; no constituye una aprobación ni una oferta de crédito. La aprobación final depende del análisis de cada institución financiera.";

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn values(ahorro: &str, salud: &str) -> ComponentValues {
        let d = |s: &str| Decimal::from_str(s).expect("decimal");
        // Income type, seniority and savings weights: 100 x (0.12 + 0.18) x 10 = 300 points,
        // plus the savings and health components below.
        ComponentValues {
            ingreso: Decimal::ZERO,
            tipo_ingreso: Decimal::ONE_HUNDRED,
            antiguedad: Decimal::ONE_HUNDRED,
            deudas: Decimal::ZERO,
            ahorro: d(ahorro),
            salud_financiera: d(salud),
        }
    }

    /// The score rounds half away from zero, exactly at .5, and the level follows the rounded
    /// score: 400.5 becomes 401 (medio), 400.4999 stays 400 (bajo).
    #[test]
    fn score_rounds_half_away_from_zero_at_the_boundaries() {
        assert_eq!(values("100", "0.5").score(), 401);
        assert_eq!(Nivel::from_score(values("100", "0.5").score()), Nivel::Medio);
        assert_eq!(values("100", "0.4999").score(), 400);
        assert_eq!(Nivel::from_score(values("100", "0.4999").score()), Nivel::Bajo);
        assert_eq!(values("100", "100.0").score(), 500);
        assert_eq!(values("30.5", "0").score(), 331);
        assert_eq!(values("30.49", "0").score(), 330);
    }

    #[test]
    fn term_is_shortened_by_age_and_never_negative() {
        let mut p = Profile::from_json_str(r#"{"estado":"CMX","ingreso_mensual":1,"tipo_ingreso":"mixto","antiguedad_meses":0}"#)
            .expect("valid");
        assert_eq!(plazo_anios(&p), 20);
        for (edad, plazo) in [(18, 20), (55, 20), (56, 19), (74, 1), (75, 0), (100, 0)] {
            p.edad = Some(edad);
            assert_eq!(plazo_anios(&p), plazo, "edad {edad}");
        }
    }

    /// Every entry of the precomputed table equals the closed form; 20 years at 11.65% gives
    /// about 92.87 (the research's check: 93.77 at 11.5%).
    #[test]
    fn annuity_table_matches_the_closed_form() {
        use rust_decimal::MathematicalOps;
        let i = TASA_ANUAL / Decimal::from(12);
        let max = u32::try_from(PLAZO_MAX_ANIOS.mantissa()).expect("small");
        assert_eq!(FACTOR_ANUALIDAD.len() as u32, max + 1, "one entry per whole year of term");
        assert_eq!(annuity_factor(0), Decimal::ZERO);
        for years in 1..=max {
            let growth = (Decimal::ONE + i).powu(u64::from(years) * 12);
            let closed_form = (Decimal::ONE - Decimal::ONE / growth) / i;
            assert_eq!(annuity_factor(years), closed_form, "{years} years");
        }
        assert_eq!(money(annuity_factor(20)).to_string(), "92.87");
    }
}
