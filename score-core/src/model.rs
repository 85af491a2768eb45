//! Score model v2.1: the report of a validated profile. Its figures come from filtered
//! arithmetic where that certifies every one ([`crate::filtered`]), else from the decimal model
//! ([`crate::figures`]); the same digits either way. Then the report is assembled.

use crate::figures::{Exact, Figures, PESOS, exact, figures_exact};
use crate::money::money;
use crate::profile::Profile;
use crate::recommendations::recommend;
use crate::report::*;
use crate::states::StateInfo;

/// The whole report of a validated profile: filtered arithmetic where it certifies every
/// figure, exact decimal arithmetic otherwise; the same digits either way. What `opciones`
/// turn off is left empty (a batch that does not need it).
pub(crate) fn report(profile: &Profile, opciones: crate::Opciones) -> ScoreReport {
    let state = profile.estado.info();
    let exact = exact(profile, state);
    let figures = figures(profile, &exact);
    // The products are always evaluated: capacity describes the recommended one.
    let solicitud = solicitud(profile, &exact);
    if !opciones.productos && !opciones.simulaciones {
        // Neither the list nor the what-ifs (a frame's columns): the described offer alone.
        return assemble(profile, state, &exact, figures, &crate::products::evaluar_descrita(&solicitud));
    }
    let mut evaluadas = crate::products::Evaluadas::default();
    let ofertas = crate::products::evaluar_guardando(&solicitud, &mut evaluadas);
    let mut report = assemble(profile, state, &exact, figures, &ofertas);
    if opciones.productos {
        report.productos = ofertas.productos;
        report.producto_recomendado = ofertas.producto_recomendado;
    }
    if opciones.simulaciones {
        report.simulaciones = crate::simulations::simulaciones(profile, &exact, &report, &evaluadas);
    }
    report
}

/// The borrowers of a profile as the credit products read them (`Solicitud::del_perfil`).
pub(crate) fn solicitud(profile: &Profile, exact: &Exact) -> crate::products::Solicitud {
    crate::products::Solicitud::del_perfil(profile, exact.deudas, exact.subcuenta_titular)
}

fn assemble(profile: &Profile, state: &StateInfo, exact: &Exact, figures: Figures, ofertas: &crate::products::Productos) -> ScoreReport {
    let capacidad = crate::capacity::capacidad(profile, state, exact, ofertas);
    let plazo_max = crate::capacity::oferta_descrita(ofertas).map_or(0, |o| o.producto.plazo_max());
    let motivos_banco = ofertas
        .productos
        .iter()
        .find(|o| o.producto == crate::products::Producto::HipotecaBancaria)
        .map_or(&[][..], |o| &o.motivos[..]);
    let [ingreso, tipo_ingreso, antiguedad, deudas, ahorro, salud_financiera] =
        std::array::from_fn(|i| Componente { valor: figures.componentes[i].0, peso: PESOS[i], puntos: figures.componentes[i].1 });
    let salud = SaludFinanciera {
        score: salud_financiera.valor,
        costo_vida_digno: money(exact.costo_vida_digno),
        ingreso_disponible: money(exact.ingreso_disponible),
        ratio: figures.ratio,
    };
    let dictamen = crate::verdict::dictamen(profile, &salud, &capacidad, motivos_banco);
    let recomendaciones_detalle =
        recommend(profile, figures.debiles.iter().flatten().copied(), &capacidad, plazo_max, &dictamen);
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
        salud_financiera: salud,
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
pub(crate) fn figures(profile: &Profile, exact: &Exact) -> Figures {
    crate::filtered::figures(profile, exact).unwrap_or_else(|| figures_exact(profile, exact))
}

/// The disclaimer every report carries.
pub const DISCLAIMER: &str = "Este puntaje es indicativo y se calcula con la información declarada; no constituye una aprobación ni una oferta de crédito. La aprobación final depende del análisis de cada institución financiera.";

