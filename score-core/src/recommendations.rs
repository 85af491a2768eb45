//! Recommendations with stable codes, derived from the weakest components and the capacity
//! block, in the manner of the reason codes of established scorecards: the components that
//! cost the most points come first.

use crate::model::ComponentValues;
use crate::params::{MAX_RECOMENDACIONES_COMPONENTE, PLAZO_MAX_ANIOS, UMBRAL_RECOMENDACION};
use crate::profile::{IncomeType, Profile};
use crate::report::{CapacidadCompra, CodigoRecomendacion as C, EstatusEnganche, EvaluacionM2, Recomendacion};
use rust_decimal::Decimal;

/// The Spanish text of each code.
pub fn texto(codigo: C) -> &'static str {
    match codigo {
        C::IngresoBajo => "Tu ingreso mensual es el factor que más limita tu puntaje: sumar el ingreso de un cónyuge o coacreditado (por ejemplo con Unamos Créditos) amplía tu capacidad.",
        C::IngresoPocoComprobable => "Reúne tus declaraciones anuales de los dos últimos años y seis meses de estados de cuenta: los bancos piden comprobar ingresos que no son de nómina.",
        C::AntiguedadCorta => "Tu antigüedad laboral es corta: los bancos suelen pedir de 6 meses a 2 años en el empleo o la actividad actual; esperar unos meses mejora tu evaluación.",
        C::DeudaAlta => "Tus pagos de deudas ocupan una parte alta de tu ingreso: liquidar o consolidar créditos antes de solicitar la hipoteca sube tu puntaje y tu monto.",
        C::AhorroBajo => "Tu ahorro es bajo frente a tu ingreso anual: ahorrar para el enganche y los gastos de escrituración (alrededor de 6% del valor) fortalece tu solicitud.",
        C::SaludFinancieraAjustada => "Después del costo de vida de tu estado y tus deudas te queda poco ingreso disponible: reducir gastos fijos mejora tu salud financiera.",
        C::DeudasNoDeclaradas => "No declaraste tus deudas mensuales, así que se evaluaron como neutras: decláralas para obtener un resultado más preciso.",
        C::SinCapacidadDePago => "Con tu ingreso, tu costo de vida y tus deudas actuales no queda margen para un pago de hipoteca: considera renta con opción a compra o un coacreditado.",
        C::PlazoLimitadoPorEdad => "Por tu edad el plazo del crédito es menor a 20 años, lo que reduce el monto: un coacreditado más joven o un enganche mayor compensan el plazo.",
        C::EngancheInsuficiente => "Tu ahorro y tu subcuenta de vivienda no cubren el enganche requerido: aumenta tu ahorro o busca una vivienda de menor valor.",
        C::GastosDeCierrePendientes => "Cubres el enganche, pero aún no los gastos de escrituración (alrededor de 6% del valor): prevé ese monto adicional.",
        C::ViviendaBajoNucleo => "Con tu presupuesto los metros cuadrados alcanzables en tu estado quedan por debajo de una vivienda núcleo para tu hogar: considera otra zona o una vivienda progresiva.",
        C::PerfilSolido => "Tu perfil es sólido: compara ofertas de varias instituciones para obtener la mejor tasa.",
    }
}

fn item(codigo: C) -> Recomendacion {
    Recomendacion { codigo, texto: texto(codigo).into() }
}

/// Recommendations in order: up to three weak components (most points lost first, ties in
/// the spec's component order), then undeclared debts, then the capacity findings. A profile
/// with none of these gets PERFIL_SOLIDO.
pub(crate) fn recommend(profile: &Profile, values: &ComponentValues, capacidad: &CapacidadCompra) -> Vec<Recomendacion> {
    let tipo_codigo = if profile.tipo_ingreso == IncomeType::Asalariado { None } else { Some(C::IngresoPocoComprobable) };
    let candidates = [
        (values.ingreso, crate::params::PESO_INGRESO, Some(C::IngresoBajo)),
        (values.tipo_ingreso, crate::params::PESO_TIPO_INGRESO, tipo_codigo),
        (values.antiguedad, crate::params::PESO_ANTIGUEDAD, Some(C::AntiguedadCorta)),
        (values.deudas, crate::params::PESO_DEUDAS, profile.deudas_mensuales.map(|_| C::DeudaAlta)),
        (values.ahorro, crate::params::PESO_AHORRO, Some(C::AhorroBajo)),
        (values.salud_financiera, crate::params::PESO_SALUD_FINANCIERA, Some(C::SaludFinancieraAjustada)),
    ];
    let mut weak: [(Decimal, usize, Option<C>); 6] = [(Decimal::ZERO, 0, None); 6];
    let mut n = 0;
    for (index, (value, weight, codigo)) in candidates.into_iter().enumerate() {
        if value < UMBRAL_RECOMENDACION && codigo.is_some() {
            weak[n] = ((Decimal::ONE_HUNDRED - value) * weight, index, codigo);
            n += 1;
        }
    }
    weak[..n].sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let max = usize::try_from(MAX_RECOMENDACIONES_COMPONENTE.mantissa()).unwrap_or(3);
    let mut out: Vec<Recomendacion> = weak[..n].iter().take(max).filter_map(|w| w.2).map(item).collect();

    if profile.deudas_mensuales.is_none() {
        out.push(item(C::DeudasNoDeclaradas));
    }
    if capacidad.pago_mensual_estimado.is_zero() {
        out.push(item(C::SinCapacidadDePago));
    }
    if Decimal::from(capacidad.plazo_anios) < PLAZO_MAX_ANIOS {
        out.push(item(C::PlazoLimitadoPorEdad));
    }
    match capacidad.estatus_enganche {
        EstatusEnganche::SinEnganche | EstatusEnganche::Insuficiente | EstatusEnganche::Parcial => {
            out.push(item(C::EngancheInsuficiente))
        }
        EstatusEnganche::CubiertoSinGastos => out.push(item(C::GastosDeCierrePendientes)),
        EstatusEnganche::NoAplica | EstatusEnganche::Cubierto => {}
    }
    if capacidad.evaluacion_m2 == EvaluacionM2::Insuficiente && !capacidad.pago_mensual_estimado.is_zero() {
        out.push(item(C::ViviendaBajoNucleo));
    }
    if out.is_empty() {
        out.push(item(C::PerfilSolido));
    }
    out
}
