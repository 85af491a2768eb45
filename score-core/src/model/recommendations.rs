//! Recommendations with stable codes, derived from the weakest components and the capacity
//! block, in the manner of the reason codes of established scorecards: the components that
//! cost the most points come first.

use crate::cifras::Cifras;
use crate::profile::Profile;
use std::sync::OnceLock;
use crate::report::{
    CapacidadCompra, CodigoDictamen as D, CodigoRecomendacion as C, Condicion, Dictamen, EstatusEnganche,
    EvaluacionM2, Recomendacion,
};

/// The Spanish text of each code, with `{…}` where it states a figure of the calibration in use
/// ([`texto_en`] fills them).
const fn plantilla(codigo: C) -> &'static str {
    match codigo {
        C::IngresoBajo => "Tu ingreso mensual es el factor que más limita tu puntaje: sumar el ingreso de un cónyuge o coacreditado (por ejemplo con Unamos Créditos) amplía tu capacidad.",
        C::IngresoPocoComprobable => "Reúne tus declaraciones anuales de los dos últimos años y seis meses de estados de cuenta: los bancos piden comprobar ingresos que no son de nómina.",
        C::AntiguedadCorta => "Tu antigüedad laboral es corta: los bancos suelen pedir {antiguedad_min_banco} en el empleo o la actividad actual; esperar unos meses mejora tu evaluación.",
        C::DeudaAlta => "Tus pagos de deudas ocupan una parte alta de tu ingreso: liquidar o consolidar créditos antes de solicitar la hipoteca sube tu puntaje y tu monto.",
        C::AhorroBajo => "Tu ahorro es bajo frente a tu ingreso anual: ahorrar para el enganche y los gastos de escrituración ({gastos_cierre}) fortalece tu solicitud.",
        C::SaludFinancieraAjustada => "Después del costo de vida de tu estado y tus deudas te queda poco ingreso disponible: reducir gastos fijos mejora tu salud financiera.",
        C::DeudasNoDeclaradas => "No declaraste tus deudas mensuales, así que se evaluaron como neutras: decláralas para obtener un resultado más preciso.",
        C::SinCapacidadDePago => "Con tu ingreso y tus deudas actuales no queda margen para un pago de hipoteca: considera renta con opción a compra o un coacreditado.",
        C::PlazoLimitadoPorEdad => "Por tu edad el plazo del crédito es menor que el máximo que ofrece, lo que reduce el monto: un coacreditado más joven o un enganche mayor compensan el plazo.",
        C::EngancheInsuficiente => "Tu ahorro y tu subcuenta de vivienda no cubren el enganche requerido: aumenta tu ahorro o busca una vivienda de menor valor.",
        C::GastosDeCierrePendientes => "Cubres el enganche, pero aún no los gastos de escrituración ({gastos_cierre}): prevé ese monto adicional.",
        C::ViviendaBajoNucleo => "Con tu presupuesto los metros cuadrados alcanzables en tu estado quedan por debajo de una vivienda núcleo para tu hogar: considera otra zona o una vivienda progresiva.",
        C::PerfilSolido => "Tu perfil es sólido: compara ofertas de varias instituciones para obtener la mejor tasa.",
        C::SinPlazoPorEdad => "Por tu edad no queda plazo de crédito: una persona más joven puede solicitarlo contigo como coacreditado.",
        C::SinProductoDisponible => "Hoy ningún crédito de vivienda te aplica: revisa en la tabla de productos el motivo de cada uno; por ejemplo, unos meses más de antigüedad o un coacreditado abren opciones.",
        C::IngresoMenorAlMinimo => "Suma el ingreso de un cónyuge o coacreditado, o comprueba otros ingresos, para llegar al mínimo de los créditos.",
        C::DeudaMayorAlLimite => "Liquida o reestructura deudas hasta bajar del {dti_total_max} de tu ingreso antes de pedir una hipoteca.",
    }
}

/// A number of months as a person says it: `6 meses`, `1 año`, `2 años`.
fn meses(n: u32) -> String {
    match (n % 12, n / 12) {
        (0, 1) => "1 año".to_owned(),
        (0, anios) if anios > 0 => format!("{anios} años"),
        _ if n == 1 => "1 mes".to_owned(),
        _ => format!("{n} meses"),
    }
}

/// The closing costs over the value across the states (ISAI, notary, registry and appraisal):
/// the lowest and the highest.
fn gastos_cierre(c: &Cifras) -> (rust_decimal::Decimal, rust_decimal::Decimal) {
    let tasas = c.estados.iter().map(|e| e.gastos_cierre);
    let baja = tasas.clone().min().unwrap_or_default();
    (baja, tasas.max().unwrap_or(baja))
}

/// The figures the texts state: the household's total-debt limit, the bank mortgage's
/// seniority minimum, from the shortest (by income type) to the longest, and the closing costs
/// from the cheapest state to the dearest.
fn figuras(c: &Cifras) -> [(&'static str, String); 3] {
    let a = c.productos.banco_antiguedad_min;
    let (corta, larga) = [a.asalariado, a.mixto, a.pensionado, a.independiente]
        .into_iter()
        .fold((u32::MAX, 0), |(corta, larga), m| (corta.min(m), larga.max(m)));
    let antiguedad = if corta == larga { meses(corta) } else { format!("de {} a {}", meses(corta), meses(larga)) };
    let porcentaje = super::verdict::porcentaje;
    let gastos = match gastos_cierre(c) {
        (baja, alta) if baja == alta => format!("alrededor de {} del valor", porcentaje(baja)),
        (baja, alta) => format!("entre {} y {} del valor, según el estado", porcentaje(baja), porcentaje(alta)),
    };
    [
        ("{dti_total_max}", porcentaje(c.dti_total_max)),
        ("{antiguedad_min_banco}", antiguedad),
        ("{gastos_cierre}", gastos),
    ]
}

/// The text of `codigo` under the figures `c`.
pub(crate) fn texto_en(c: &Cifras, codigo: C) -> String {
    super::verdict::rellenar(plantilla(codigo), &figuras(c))
}

/// The text of each code under the embedded calibration, in [`C::ALL`] order, written once.
fn textos_incluidos() -> &'static [String; C::ALL.len()] {
    static TEXTOS: OnceLock<[String; C::ALL.len()]> = OnceLock::new();
    TEXTOS.get_or_init(|| C::ALL.map(|codigo| texto_en(Cifras::incluidas(), codigo)))
}

/// The Spanish text of each code under the embedded calibration (a report under another
/// calibration states that one's figures).
pub fn texto(codigo: C) -> &'static str {
    // `C::ALL` lists the codes in their declaration order (a test checks it).
    &textos_incluidos()[codigo as usize]
}

/// Recommendations in order: the weak components' codes (up to three, most points lost first,
/// ties in the spec's component order, chosen by the model), then undeclared debts, then the
/// capacity findings. A profile with none of these gets PERFIL_SOLIDO. When the verdict is not
/// PRECALIFICA, the recommendation of its first reason comes first (moved, not repeated).
pub(crate) fn recommend(
    c: &Cifras,
    profile: &Profile,
    debiles: impl Iterator<Item = C>,
    capacidad: &CapacidadCompra,
    plazo_max: u32,
    dictamen: &Dictamen,
) -> Vec<Recomendacion> {
    // The embedded calibration's texts, unless this one states other figures.
    let limites = |c: &Cifras| (c.dti_total_max, c.productos.banco_antiguedad_min, gastos_cierre(c));
    let incluidas = Cifras::incluidas();
    let propios = !std::ptr::eq(c, incluidas) && limites(c) != limites(incluidas);
    let item = |codigo: C| Recomendacion {
        codigo,
        texto: if propios { texto_en(c, codigo).into() } else { texto(codigo).into() },
    };
    // Written once, at their most: three weak components and eight findings.
    let mut out: Vec<Recomendacion> = Vec::with_capacity(11);
    out.extend(debiles.map(item));

    if profile.deudas_mensuales.is_none() {
        out.push(item(C::DeudasNoDeclaradas));
    }
    let motivo = |codigo: D| dictamen.motivos.iter().any(|m| m.codigo == codigo);
    if motivo(D::IngresoMenorAlMinimo) {
        out.push(item(C::IngresoMenorAlMinimo));
    }
    if motivo(D::DeudaMayorAlLimite) {
        out.push(item(C::DeudaMayorAlLimite));
    }
    if motivo(D::PagoComprometeCostoDeVida) && !out.iter().any(|r| r.codigo == C::SaludFinancieraAjustada) {
        out.push(item(C::SaludFinancieraAjustada));
    }
    let sin_credito = capacidad.credito_max.is_zero();
    if capacidad.plazo_anios == 0 {
        out.push(item(C::SinPlazoPorEdad));
    } else if motivo(D::SinProductoDisponible) {
        out.push(item(C::SinProductoDisponible));
    } else if sin_credito {
        out.push(item(C::SinCapacidadDePago));
    }
    if capacidad.plazo_anios > 0 && capacidad.plazo_anios < plazo_max {
        out.push(item(C::PlazoLimitadoPorEdad));
    }
    match capacidad.estatus_enganche {
        EstatusEnganche::SinEnganche | EstatusEnganche::Insuficiente | EstatusEnganche::Parcial => {
            out.push(item(C::EngancheInsuficiente))
        }
        EstatusEnganche::CubiertoSinGastos => out.push(item(C::GastosDeCierrePendientes)),
        EstatusEnganche::NoAplica | EstatusEnganche::Cubierto => {}
    }
    if capacidad.evaluacion_m2 == EvaluacionM2::Insuficiente && !sin_credito {
        out.push(item(C::ViviendaBajoNucleo));
    }
    if out.is_empty() {
        out.push(item(C::PerfilSolido));
    }
    if dictamen.condicion != Condicion::Precalifica {
        let first = dictamen.motivos.first().map(|m| match m.codigo {
            D::IngresoMenorAlMinimo => C::IngresoMenorAlMinimo,
            D::DeudaMayorAlLimite => C::DeudaMayorAlLimite,
            D::SinPlazoPorEdad => C::SinPlazoPorEdad,
            D::SinCapacidadDePago => C::SinCapacidadDePago,
            D::SinProductoDisponible => C::SinProductoDisponible,
            D::DeudasNoDeclaradas => C::DeudasNoDeclaradas,
            D::EngancheYGastosNoCubiertos if capacidad.estatus_enganche == EstatusEnganche::CubiertoSinGastos => {
                C::GastosDeCierrePendientes
            }
            D::EngancheYGastosNoCubiertos => C::EngancheInsuficiente,
            D::PagoComprometeCostoDeVida => C::SaludFinancieraAjustada,
        });
        // Every reason has its recommendation in the list above: move it to the front.
        if let Some(at) = first.and_then(|c| out.iter().position(|o| o.codigo == c)) {
            out[..=at].rotate_right(1);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`texto`] reads a code's text at the code's own number.
    #[test]
    fn the_codes_are_listed_in_their_declaration_order() {
        for (i, codigo) in C::ALL.into_iter().enumerate() {
            assert_eq!(codigo as usize, i, "{codigo:?}");
        }
    }
}
