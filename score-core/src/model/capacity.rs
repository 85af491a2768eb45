//! Purchasing capacity (`capacidad_compra_estimada`): the terms of the recommended credit
//! product (MODEL.md section 6), with the spec's keys. The products decide what can be lent
//! ([`crate::products`]); this module only describes that offer with the figures the spec's
//! block carries (value in the state, m², rent, down payment status), each derived from the
//! offer's shown figures so that anyone can check it from the report alone.

use crate::approx::round_quotient;
use crate::cifras::Cifras;
use crate::fast_decimal::{Orden, por};
use crate::model::figures::Exact;
use crate::money::{self, money};
use crate::products::{OfertaProducto, Producto, Productos};
use crate::profile::Profile;
use crate::report::{CapacidadCompra, EstatusEnganche, EvaluacionM2};
use rust_decimal::Decimal;

/// The offer the capacity describes: the recommended one, or the bank mortgage's (its terms,
/// with zero amounts) when no product is available.
pub(crate) fn oferta_descrita<'a>(c: &Cifras, ofertas: &'a Productos) -> Option<&'a OfertaProducto> {
    let producto = ofertas.producto_recomendado.unwrap_or(c.productos.clave(Producto::HipotecaBancaria));
    ofertas.productos.iter().find(|o| o.producto == producto)
}

/// The capacity block of a profile whose products are `ofertas`.
pub(crate) fn capacidad(
    c: &Cifras,
    profile: &Profile,
    exact: &Exact,
    ofertas: &Productos,
) -> CapacidadCompra {
    let state = c.estado(profile.estado);
    let zero = Decimal::ZERO;
    let oferta = oferta_descrita(c, ofertas);
    let campo = |f: fn(&OfertaProducto) -> Decimal| oferta.map_or(zero, f);
    let (valor, credito, gastos) = (campo(|o| o.valor_vivienda_max), campo(|o| o.credito_max), campo(|o| o.gastos_cierre));
    // The down payment is the part of the value the credit does not cover; the own funds are
    // the savings plus the sub-accounts the product applies to the price. For INFONAVIT's own
    // credits the sub-account is that whole part, so the funds cover the down payment exactly
    // when the savings cover the closing costs, as the products' recommendation reads it.
    let enganche_requerido = valor - credito;
    let subcuentas = oferta
        .map_or(zero, |_| ofertas.tipo_descrito().subcuenta_aplicada(exact.subcuenta_titular, exact.subcuenta));
    let disponible = money(profile.ahorro + subcuentas);
    CapacidadCompra {
        valor_bancario: valor,
        // From the shown value, so the spec's formula holds on the published figures.
        valor_realista: money(por(valor, state.ajuste_valor)),
        factor_platform_v2: state.factor,
        ltv: if valor.is_zero() { zero } else { round_quotient(credito, valor, money::RATIO_DP) },
        pago_mensual_estimado: campo(|o| o.pago_mensual),
        credito_max: credito,
        m2_alcanzables: round_quotient(valor, state.precio_m2, money::MONEY_DP),
        m2_minimo_nucleo: money(exact.nucleo),
        evaluacion_m2: evaluacion_m2(c, valor, state.precio_m2, exact.nucleo),
        enganche_requerido,
        enganche_disponible: disponible,
        subcuenta_fondo_estimada: money(exact.subcuenta),
        estatus_enganche: estatus_enganche(c, valor, enganche_requerido, disponible, gastos),
        renta_equivalente: round_quotient(
            por(valor, c.rendimiento_renta_anual),
            Decimal::from(12),
            money::MONEY_DP,
        ),
        gastos_cierre_estimados: gastos,
        tasa_anual: oferta.map_or(zero, |o| o.tasa_anual),
        plazo_anios: oferta.map_or(0, |o| o.plazo_anios),
        precio_m2_estado: state.precio_m2,
    }
}

/// The dwelling the value buys against the household's core dwelling: the area `valor /
/// precio_m2` compared with the thresholds, multiplied out so the comparison is exact.
fn evaluacion_m2(c: &Cifras, valor: Decimal, precio_m2: Decimal, nucleo: Decimal) -> EvaluacionM2 {
    let umbral = |factor: Decimal| Orden(por(por(nucleo, factor), precio_m2));
    let valor = Orden(valor);
    if valor < umbral(Decimal::ONE) {
        EvaluacionM2::Insuficiente
    } else if valor < umbral(c.umbral_m2_adecuado) {
        EvaluacionM2::NucleoBasico
    } else if valor < umbral(c.umbral_m2_holgado) {
        EvaluacionM2::Adecuado
    } else {
        EvaluacionM2::Holgado
    }
}

/// How far the own funds go (shown figures): nothing to buy; no down payment needed or
/// funds for it; less than the partial share of it; part of it; all of it but not the closing
/// costs; both.
fn estatus_enganche(
    c: &Cifras,
    valor: Decimal,
    requerido: Decimal,
    disponible: Decimal,
    gastos: Decimal,
) -> EstatusEnganche {
    if valor.is_zero() {
        EstatusEnganche::NoAplica
    } else if requerido > Decimal::ZERO && disponible.is_zero() {
        EstatusEnganche::SinEnganche
    } else if Orden(disponible) < Orden(por(requerido, c.umbral_enganche_parcial)) {
        EstatusEnganche::Insuficiente
    } else if Orden(disponible) < Orden(requerido) {
        EstatusEnganche::Parcial
    } else if Orden(disponible) < Orden(requerido + gastos) {
        EstatusEnganche::CubiertoSinGastos
    } else {
        EstatusEnganche::Cubierto
    }
}
