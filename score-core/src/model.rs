//! Score model v2.1: the report of a validated profile. Its figures come from filtered
//! arithmetic where that certifies every one ([`crate::filtered`]), else from the decimal model
//! ([`crate::figures`]); the same digits either way. Then the report is assembled.

use crate::figures::{Exact, Figures, PESOS, exact, figures_exact};
use crate::money::money;
use crate::params::*;
use crate::profile::Profile;
use crate::recommendations::recommend;
use crate::report::*;
use crate::states::StateInfo;
use rust_decimal::Decimal;

/// The whole report of a validated profile: filtered arithmetic where it certifies every
/// figure, exact decimal arithmetic otherwise; the same digits either way. What `opciones`
/// turn off is left empty (a batch that does not need it).
pub(crate) fn report(profile: &Profile, opciones: crate::Opciones) -> ScoreReport {
    let state = profile.estado.info();
    let exact = exact(profile, state);
    let figures = figures(profile, &exact, state);
    let mut report = assemble(profile, state, &exact, figures);
    if opciones.productos {
        let ofertas = crate::products::evaluar(&crate::products::Solicitud::del_perfil(profile, exact.subcuenta_titular));
        report.productos = ofertas.productos;
        report.producto_recomendado = ofertas.producto_recomendado;
    }
    if opciones.simulaciones {
        report.simulaciones = crate::simulations::simulaciones(profile, &report);
    }
    report
}

fn assemble(profile: &Profile, state: &StateInfo, exact: &Exact, figures: Figures) -> ScoreReport {
    let ajuste = (Decimal::TWO - state.factor).clamp(FACTOR_MIN, FACTOR_MAX);
    let capacidad = CapacidadCompra {
        valor_bancario: figures.valor_bancario,
        // valor_realista is derived from the *shown* valor_bancario, so the spec's formula holds
        // exactly on the published figures: round2(valor_bancario x ajuste) == valor_realista.
        valor_realista: money(figures.valor_bancario * ajuste),
        factor_platform_v2: state.factor,
        ltv: exact.ltv,
        pago_mensual_estimado: money(exact.pago),
        credito_max: figures.credito,
        m2_alcanzables: figures.m2,
        m2_minimo_nucleo: money(exact.nucleo),
        evaluacion_m2: figures.evaluacion_m2,
        enganche_requerido: figures.enganche_requerido,
        enganche_disponible: money(exact.disponible),
        subcuenta_fondo_estimada: money(exact.subcuenta),
        estatus_enganche: figures.estatus_enganche,
        renta_equivalente: figures.renta,
        gastos_cierre_estimados: figures.gastos,
        tasa_anual: TASA_ANUAL,
        plazo_anios: exact.plazo,
        precio_m2_estado: state.precio_m2,
    };
    let dictamen = crate::verdict::dictamen(profile, &capacidad);
    let recomendaciones_detalle =
        recommend(profile, figures.debiles.iter().flatten().copied(), &capacidad, &dictamen);
    let [ingreso, tipo_ingreso, antiguedad, deudas, ahorro, salud_financiera] =
        std::array::from_fn(|i| Componente { valor: figures.componentes[i].0, peso: PESOS[i], puntos: figures.componentes[i].1 });
    ScoreReport {
        score: figures.score,
        nivel: Nivel::from_score(figures.score),
        recomendaciones: recomendaciones_detalle.iter().map(|r| r.texto.clone()).collect(),
        disclaimer: DISCLAIMER.into(),
        valor_vivienda_max: capacidad.valor_bancario,
        credito_max: capacidad.credito_max,
        enganche_min: capacidad.enganche_requerido,
        pago_mensual_estimado: capacidad.pago_mensual_estimado,
        renta_estimada: capacidad.renta_equivalente,
        salud_financiera: SaludFinanciera {
            score: salud_financiera.valor,
            costo_vida_digno: money(exact.costo_vida_digno),
            ingreso_disponible: money(exact.ingreso_disponible),
            ratio: figures.ratio,
        },
        capacidad_compra_estimada: capacidad,
        modelo_version: crate::MODEL_VERSION.into(),
        calibracion: crate::CALIBRATION.into(),
        estado: EstadoReporte { clave: state.clave.into(), codigo: state.iso.into(), nombre: state.nombre.into() },
        componentes: Componentes { ingreso, tipo_ingreso, antiguedad, deudas, ahorro, salud_financiera },
        recomendaciones_detalle,
        dictamen,
        simulaciones: Vec::new(),
        productos: Vec::new(),
        producto_recomendado: None,
    }
}

/// The figures of a report: filtered where that certifies every one, else decimal. One copy,
/// not inlined, shared by the report and its simulations (each simulation scores a changed
/// profile): the WebAssembly build then carries the model's arithmetic once.
#[inline(never)]
pub(crate) fn figures(profile: &Profile, exact: &Exact, state: &StateInfo) -> Figures {
    crate::filtered::figures(profile, exact, state).unwrap_or_else(|| figures_exact(profile, exact, state))
}

/// The disclaimer every report carries.
pub const DISCLAIMER: &str = "Este puntaje es indicativo y se calcula con la información declarada; no constituye una aprobación ni una oferta de crédito. La aprobación final depende del análisis de cada institución financiera.";

