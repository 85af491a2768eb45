//! Score model v2.1: the report of a validated profile. Its figures come from filtered
//! arithmetic where that certifies every one ([`filtered`]), else from the decimal model
//! ([`figures`]); the same digits either way. Then the report is assembled.

pub(crate) mod capacity;
pub(crate) mod figures;
pub(crate) mod filtered;
pub(crate) mod recommendations;
pub(crate) mod simulations;
pub(crate) mod verdict;

use crate::cifras::Cifras;
use crate::money::money;
use crate::profile::Profile;
use crate::report::score_report::ScoreReport;
use crate::report::*;
use crate::states::StateInfo;
use figures::{Exact, Figures, PESOS, exact, figures_exact};
use recommendations::recommend;

/// The whole report of a validated profile: filtered arithmetic where it certifies every
/// figure, exact decimal arithmetic otherwise; the same digits either way. What `opciones`
/// turn off is left empty (a batch that does not need it).
pub(crate) fn report(c: &Cifras, profile: &Profile, opciones: Opciones) -> ScoreReport {
    let state = profile.estado.info();
    let exact = exact(c, profile);
    let mut figures = Figures::default();
    figures_en(c, profile, &exact, &mut figures);
    // The products are always evaluated: capacity describes the recommended one.
    let solicitud = exact.solicitud(profile);
    let mut evaluadas = crate::products::Evaluadas::default();
    let ofertas = if opciones.productos || opciones.simulaciones {
        crate::products::evaluar_guardando(c, &solicitud, &mut evaluadas)
    } else {
        // Neither the list nor the what-ifs (a frame's columns): the described offer alone.
        crate::products::evaluar_descrita(c, &solicitud)
    };
    if !opciones.simulaciones {
        // Built where the caller keeps it: a report held here and returned was copied whole.
        return assemble(c, profile, state, &exact, &figures, ofertas, opciones.productos);
    }
    let mut report = assemble(c, profile, state, &exact, &figures, ofertas, opciones.productos);
    report.simulaciones = simulations::simulaciones(c, profile, &exact, &report, &evaluadas);
    report
}

/// The report from its figures and its products' offers, which it lists when `listar` (moved
/// into the report as it is built: a report is most of a kilobyte, and one built first and
/// filled in after was copied whole).
fn assemble(
    c: &Cifras,
    profile: &Profile,
    state: &StateInfo,
    exact: &Exact,
    figures: &Figures,
    ofertas: crate::products::Productos,
    listar: bool,
) -> ScoreReport {
    let capacidad = capacity::capacidad(c, profile, exact, &ofertas);
    let plazo_max =
        capacity::oferta_descrita(c, &ofertas).map_or(0, |o| c.plazo_max_de(o.producto, ofertas.tipo_descrito()));
    let motivos_banco = ofertas
        .productos
        .iter()
        .find(|o| o.producto == c.productos.clave(crate::products::Producto::HipotecaBancaria))
        .map_or(&[][..], |o| &o.motivos[..]);
    // Built one by one in the report (an array of the six, taken apart, was one more copy).
    let componente = |i: usize| Componente { valor: figures.componentes[i].0, peso: PESOS[i], puntos: figures.componentes[i].1 };
    let salud_financiera = componente(5);
    let salud = SaludFinanciera {
        score: salud_financiera.valor,
        costo_vida_digno: money(exact.costo_vida_digno),
        ingreso_disponible: money(exact.ingreso_disponible),
        ratio: figures.ratio,
    };
    let dictamen = verdict::dictamen(c, profile, &salud, &capacidad, motivos_banco);
    let recomendaciones_detalle = recommend(
        c,
        profile,
        figures.debiles.iter().flatten().copied(),
        &capacidad,
        plazo_max,
        &dictamen,
    );
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
        modelo_version: MODEL_VERSION.into(),
        calibracion: c.id.clone(),
        estado: EstadoReporte {
            clave: state.clave.into(),
            codigo: state.iso.into(),
            nombre: state.nombre.into(),
        },
        componentes: Componentes {
            ingreso: componente(0),
            tipo_ingreso: componente(1),
            antiguedad: componente(2),
            deudas: componente(3),
            ahorro: componente(4),
            salud_financiera,
        },
        recomendaciones_detalle,
        dictamen,
        simulaciones: Vec::new(),
        productos: if listar { ofertas.productos } else { Vec::new() },
        producto_recomendado: if listar { ofertas.producto_recomendado } else { None },
    }
}

/// The figures of a report, written over `figures`: filtered where that certifies every one,
/// else decimal. Written where the report keeps them: returned, they were copied on their way.
/// Not inlined: the WebAssembly build then carries the model's arithmetic once.
#[inline(never)]
fn figures_en(c: &Cifras, profile: &Profile, exact: &Exact, figures: &mut Figures) {
    if filtered::figures(c, profile, exact, figures).is_none() {
        *figures = figures_exact(c, profile, exact);
    }
}

/// How a report is made. The default makes all of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Opciones {
    /// Compute `simulaciones` (each one scores a changed profile; a batch that does not show
    /// them turns them off, and each report then has an empty `simulaciones`).
    pub simulaciones: bool,
    /// Give `productos` and `producto_recomendado` (the columns of a frame, which do not show
    /// them, turn them off: `productos` is then empty and `producto_recomendado` null). The
    /// products are evaluated either way, since capacity describes the recommended one; with
    /// simulations off too, only that offer (and the bank's) is rounded and the other CATs are
    /// solved only where they break a tie, which makes a frame's row cheaper.
    pub productos: bool,
}

impl Default for Opciones {
    fn default() -> Self {
        Opciones { simulaciones: true, productos: true }
    }
}
