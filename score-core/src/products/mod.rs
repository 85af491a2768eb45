//! Credit products: what each housing-credit product would lend this buyer, under its own
//! published rules, with Banxico's CAT, and which one to recommend.
//!
//! Every product of the calibration is evaluated for every applicant (issue 17, item 4; issue 42,
//! part 3): the six kinds below (Cofinavit where the calibration has it), and any other bank
//! mortgage the calibration defines (a bank's own, evaluated as `HIPOTECA_BANCARIA` under its
//! own figures). An offer's `producto` is the
//! product's `clave` in the calibration ([`Clave`]); the embedded one's are these:
//!
//! | `producto` | What it is |
//! |---|---|
//! | `INFONAVIT` | INFONAVIT's crédito tradicional en pesos: salary-band rate, sub-account added to the credit |
//! | `FOVISSSTE` | FOVISSSTE's crédito tradicional en pesos: 30% payroll discount, fixed rate |
//! | `HIPOTECA_BANCARIA` | A bank mortgage at the market rate, with LTV, payment-to-income and age limits |
//! | `INFONAVIT_MAS_BANCO` | "Cuenta Infonavit + Crédito Bancario": bank 70%, INFONAVIT 30%, sub-account as down payment; for buyers without an employer relation |
//! | `UNAMOS_CREDITOS` | Two INFONAVIT workers (spouses or not) pooling their credits |
//! | `COFINAVIT` | INFONAVIT's credit (capped in UMAs) and a bank's in one purchase, for active payroll workers; optional in a calibration |
//!
//! [`evaluar`] is pure and deterministic (no I/O, clock or globals) and total: any input gives
//! a result, never a panic; validating the inputs is the caller's job, as for the profile.
//! Money is exact `Decimal`; shown figures are rounded half away from zero (money 2 decimals,
//! rates and CAT 4). Every rule, figure and source is in `PRODUCTS.md`.

mod bancos;
mod carga;
mod cat;
mod cofinavit;
mod evaluate;
mod fijos;
mod finance;
mod motivo;
mod numero;
mod ofertas;
mod persona;
mod tipos;
mod tramo;

pub(crate) use persona::cotiza_a;

pub use crate::calibration::clave::{CLAVE_MAX, Clave};
pub use crate::calibration::producto::Producto;
pub(crate) use crate::calibration::producto::TIPOS;
pub use finance::{Flujo, cat, factor_anualidad_mensual};
pub use motivo::Motivo;
pub use tipos::{OfertaProducto, Solicitud};

use crate::approx::Approx;
use crate::cifras::Cifras;
use crate::money;
pub use crate::profile::{Coacreditado, Institucion};
use rust_decimal::Decimal;
use serde::Serialize;

impl Producto {
    /// The product's longest term in years under the embedded calibration: its term when age
    /// does not shorten it.
    pub fn plazo_max(self) -> u32 {
        Cifras::incluidas().productos.plazo_max(self)
    }
}

/// Every product's offer and the recommended one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Productos {
    /// One offer per product of the calibration: the built-in kinds in the order of
    /// [`Producto::ALL`], the calibration's other bank products right after its bank mortgage
    /// (`HIPOTECA_BANCARIA` in the embedded one), in the calibration's order.
    pub productos: Vec<OfertaProducto>,
    /// The recommended product's `clave` (see [`evaluar`]); `None` when none is available.
    pub producto_recomendado: Option<Clave>,
    /// The recommended product's kind (a bank's own product is of the bank mortgage's), so
    /// that the report reads the rules of the offer it describes without looking its `clave`
    /// up among the calibration's.
    #[serde(skip)]
    pub(crate) tipo_recomendado: Option<Producto>,
}

impl Productos {
    /// The kind of the offer a report's capacity describes: the recommended product's, else
    /// the bank mortgage's (see `model::capacity::oferta_descrita`).
    pub(crate) fn tipo_descrito(&self) -> Producto {
        self.tipo_recomendado.unwrap_or(Producto::HipotecaBancaria)
    }
}

/// Evaluates every product for `solicitud` and recommends one.
///
/// The recommendation, among the available products: first those whose down payment plus
/// closing costs the buyer's own funds cover (savings, plus the sub-account where the product
/// lets it pay the down payment), then the highest `valor_vivienda_max`, then the lower CAT,
/// then the order the offers are listed in. Comparisons use exact values.
///
/// The figures are those of exact `Decimal` arithmetic. They are computed in filtered doubles,
/// which certify every comparison and rounding, and in `Decimal` for the rare applicant where
/// a certificate fails (a figure within about 1e-9 of a rounding boundary or a cap).
pub fn evaluar(solicitud: &Solicitud) -> Productos {
    evaluar_guardando(Cifras::incluidas(), solicitud, &mut Evaluadas::default())
}

/// [`evaluar`] under `calibration`'s figures.
pub fn evaluar_calibrado(solicitud: &Solicitud, calibration: &crate::Calibration) -> Productos {
    evaluar_guardando(
        calibration.cifras_modelo(),
        solicitud,
        &mut Evaluadas::default(),
    )
}

/// [`evaluar`], keeping in `guardadas` the unrounded offers for the what-ifs that re-rank them
/// (those of filtered arithmetic: where it fails, or where the calibration has bank products
/// beyond its bank mortgage, a what-if evaluates its products again). The caller owns where
/// they rest: six offers are over a kilobyte, and returning them through the layers of
/// `Option` and tuples copied them three times more per report.
pub(crate) fn evaluar_guardando(
    c: &Cifras,
    solicitud: &Solicitud,
    guardadas: &mut Evaluadas,
) -> Productos {
    let evaluadas = guardadas.0.insert(evaluate::Evaluada::vacias());
    let filtrada = evaluar_en(c, solicitud, evaluadas);
    if filtrada.is_none() || !c.otros_bancos.is_empty() {
        guardadas.0 = None;
    }
    filtrada.unwrap_or_else(|| {
        en_decimal(evaluar_en(
            c,
            solicitud,
            &mut evaluate::Evaluada::<Decimal>::vacias(),
        ))
    })
}

/// [`evaluar`] in `Decimal` alone: the definition the fast path is tested against.
#[doc(hidden)]
pub fn evaluar_exacto(solicitud: &Solicitud) -> Productos {
    en_decimal(evaluar_en(
        Cifras::incluidas(),
        solicitud,
        &mut evaluate::Evaluada::<Decimal>::vacias(),
    ))
}

/// [`evaluar_exacto`] under `calibration`'s figures.
#[doc(hidden)]
pub fn evaluar_exacto_calibrado(solicitud: &Solicitud, calibration: &crate::Calibration) -> Productos {
    en_decimal(evaluar_en(
        calibration.cifras_modelo(),
        solicitud,
        &mut evaluate::Evaluada::<Decimal>::vacias(),
    ))
}

/// [`evaluar`]'s filtered path alone: `None` where a certificate fails. For the tests that
/// compare it with [`evaluar_exacto`] and count how often it answers.
#[doc(hidden)]
pub fn evaluar_filtrado(solicitud: &Solicitud) -> Option<Productos> {
    evaluar_en(
        Cifras::incluidas(),
        solicitud,
        &mut evaluate::Evaluada::<Approx>::vacias(),
    )
}

/// The answer of `Decimal` arithmetic, which decides every comparison and rounding.
fn en_decimal<T>(answer: Option<T>) -> T {
    answer.unwrap_or_else(|| unreachable!("decimal arithmetic always decides"))
}

/// The offers in the order they are listed: the built-in kinds up to the bank mortgage, the
/// calibration's other bank products (`otros`), then the rest of the kinds.
fn en_orden<'a, N: numero::Numero>(
    evaluadas: &'a [evaluate::Evaluada<N>; TIPOS],
    otros: &'a [evaluate::Evaluada<N>],
) -> impl Iterator<Item = &'a evaluate::Evaluada<N>> {
    let (hasta_banco, resto) = evaluadas.split_at(Producto::HipotecaBancaria as usize + 1);
    // A kind the calibration leaves out (Cofinavit) is not listed.
    hasta_banco.iter().chain(otros).chain(resto).filter(|e| e.presente())
}

/// Every product of `solicitud` written over `evaluadas` (storage the caller owns), and the
/// offers as shown; `None` when the arithmetic cannot tell.
fn evaluar_en<N: numero::Numero>(
    c: &Cifras,
    solicitud: &Solicitud,
    evaluadas: &mut [evaluate::Evaluada<N>; TIPOS],
) -> Option<Productos> {
    ofertas::todas(c, solicitud, evaluadas)?;
    // Nothing is allocated for a calibration with one bank product.
    let mut otros = Vec::new();
    bancos::otros_bancos(c, solicitud, &mut otros)?;
    // Every CAT is shown: solved once each, before the recommendation compares them.
    evaluate::resolver_cats(evaluadas)?;
    evaluate::resolver_cats(&mut otros)?;
    let recomendada = evaluate::recomendado(evaluadas.iter().chain(&otros))?;
    let (producto_recomendado, tipo_recomendado) = (recomendada.map(evaluate::Evaluada::clave), recomendada.map(evaluate::Evaluada::producto));
    let mut productos = Vec::with_capacity(evaluadas.len() + otros.len());
    for e in en_orden(evaluadas, &otros) {
        e.mostrar_en(&mut productos)?;
    }
    Some(Productos { productos, producto_recomendado, tipo_recomendado })
}

/// [`evaluar`] for a report that does not list the offers (a frame's columns): only the offer
/// its capacity describes and the bank mortgage's (the verdict reads the bank's reasons), each
/// as [`evaluar`] shows it, with the same recommendation. The other offers are not rounded and
/// their CATs are solved only where they break a tie.
pub(crate) fn evaluar_descrita(c: &Cifras, solicitud: &Solicitud) -> Productos {
    fn en<N: numero::Numero>(c: &Cifras, solicitud: &Solicitud) -> Option<Productos> {
        let mut evaluadas = evaluate::Evaluada::<N>::vacias();
        ofertas::todas(c, solicitud, &mut evaluadas)?;
        let mut otros = Vec::new();
        bancos::otros_bancos(c, solicitud, &mut otros)?;
        let recomendada = evaluate::recomendado(evaluadas.iter().chain(&otros))?;
        // The described offer and the bank mortgage's, told apart by where they lie (a
        // `clave` compared with each offer's was most of a row's lookups).
        let banco = &evaluadas[Producto::HipotecaBancaria as usize];
        let descrita = recomendada.unwrap_or(banco);
        let mut productos = Vec::with_capacity(2);
        for e in en_orden(&evaluadas, &otros).filter(|&e| std::ptr::eq(e, descrita) || std::ptr::eq(e, banco)) {
            e.mostrar_en(&mut productos)?;
        }
        Some(Productos {
            productos,
            producto_recomendado: recomendada.map(evaluate::Evaluada::clave),
            tipo_recomendado: recomendada.map(evaluate::Evaluada::producto),
        })
    }
    en::<Approx>(c, solicitud).unwrap_or_else(|| en_decimal(en::<Decimal>(c, solicitud)))
}

/// The `credito_max` of the offer a report's capacity describes: the recommended product's
/// (0 when none is available), as [`evaluar`] shows it.
fn credito_descrito<'a, N: numero::Numero + 'a>(evaluadas: impl IntoIterator<Item = &'a evaluate::Evaluada<N>>) -> Option<Decimal> {
    Some(descrita(evaluadas)?.1)
}

/// The recommended product's kind (`None` when none is available) and [`credito_descrito`].
fn descrita<'a, N: numero::Numero + 'a>(
    evaluadas: impl IntoIterator<Item = &'a evaluate::Evaluada<N>>,
) -> Option<(Option<Producto>, Decimal)> {
    match evaluate::recomendado(evaluadas)? {
        Some(e) => Some((Some(e.producto()), e.credito_mostrado()?)),
        None => Some((None, Decimal::new(0, money::MONEY_DP))),
    }
}

/// The described offer's `credito_max` ([`credito_descrito`]) without the rest of the offers:
/// what a what-if shows. Products refused outright are not evaluated, and only the CATs that
/// break a tie are solved.
pub(crate) fn credito_recomendado(c: &Cifras, solicitud: &Solicitud) -> Decimal {
    recomendacion(c, solicitud).1
}

/// [`credito_recomendado`] and the kind of product recommended (`None` when none is available).
pub(crate) fn recomendacion(c: &Cifras, solicitud: &Solicitud) -> (Option<Producto>, Decimal) {
    // Never cut short without `unamos_sobre`.
    recomendacion_en::<Approx>(c, solicitud, None, &[None; TIPOS])
        .flatten()
        .unwrap_or_else(|| en_decimal(recomendacion_en::<Decimal>(c, solicitud, None, &[None; TIPOS]).flatten()))
}

/// The `credito_max` of a what-if that adds a co-borrower: Unamos Créditos' (two INFONAVIT
/// credits pooled) where it is what `solicitud` is recommended and shows more than `credito`
/// (the report's), else `None`, the what-if then being one that cannot be offered. Unamos
/// Créditos is evaluated first, with INFONAVIT's offer, whose credit it shares, and the other
/// products only where it is available and lends more (`ofertas::disponibles`).
///
/// `base` are the report's offers, those of the same profile without the co-borrower. With a
/// co-borrower of no debts and the applicant's age (the one a what-if simulates), the
/// household a bank lends to is the report's: the same income
/// (the applicant's part plus the co-borrower's), debts, age, and the applicant's income type
/// and seniority, so the report's bank mortgage is taken as it is rather than evaluated again.
pub(crate) fn credito_unamos(c: &Cifras, solicitud: &Solicitud, credito: Decimal, base: &Evaluadas) -> Option<Decimal> {
    let mismo_hogar = solicitud
        .coacreditado
        .as_ref()
        .is_some_and(|co| co.deudas_mensuales.is_none() && co.edad == solicitud.edad);
    let mut previas = [None; TIPOS];
    previas[Producto::HipotecaBancaria as usize] =
        base.0.as_ref().filter(|_| mismo_hogar).map(|e| &e[Producto::HipotecaBancaria as usize]);
    let recomendada = recomendacion_en::<Approx>(c, solicitud, Some(credito), &previas)
        .unwrap_or_else(|| en_decimal(recomendacion_en::<Decimal>(c, solicitud, Some(credito), &[None; TIPOS])));
    match recomendada {
        Some((Some(Producto::UnamosCreditos), credito_max)) => Some(credito_max),
        _ => None,
    }
}

/// [`recomendacion`] in one arithmetic (`None` when it cannot tell); `Some(None)` when
/// `unamos_sobre` is given and Unamos Créditos is certainly not available with a credit above
/// it; `previas`, the offers already known, taken as they are (see `ofertas::disponibles`).
fn recomendacion_en<N: numero::Numero>(
    c: &Cifras,
    solicitud: &Solicitud,
    unamos_sobre: Option<Decimal>,
    previas: &ofertas::Previas<'_, N>,
) -> Option<Option<(Option<Producto>, Decimal)>> {
    let mut evaluadas = [None; TIPOS];
    if !ofertas::disponibles(c, solicitud, &mut evaluadas, unamos_sobre, previas)? {
        return Some(None);
    }
    let mut otros = Vec::new();
    bancos::otros_bancos(c, solicitud, &mut otros)?;
    // Only the products a what-if can recommend (the recommendation's last criterion is the
    // listing order each offer carries, so the order they are compared in does not matter).
    descrita(evaluadas.iter().flatten().chain(&otros)).map(Some)
}

/// The unrounded offers of one evaluation in filtered arithmetic ([`evaluar_guardando`]);
/// `None` when it was decided in `Decimal`.
#[derive(Debug, Clone, Default)]
pub(crate) struct Evaluadas(Option<[evaluate::Evaluada<Approx>; TIPOS]>);

impl Evaluadas {
    /// [`credito_recomendado`] of `solicitud`, which differs from the one evaluated only in
    /// its savings: the offers re-ranked for them, not evaluated again (savings change no
    /// credit, only whether the buyer's funds cover the down payment and closing costs).
    pub(crate) fn credito_con_ahorro(&self, c: &Cifras, solicitud: &Solicitud) -> Decimal {
        self.reordenadas(c, solicitud)
            .unwrap_or_else(|| credito_recomendado(c, solicitud))
    }

    /// [`credito_recomendado`] of `solicitud`, which differs from the one evaluated only in
    /// more months of seniority (and the housing-fund balance they estimate): when no offer was
    /// refused for seniority, more months refuse none and change no credit, so the offers are
    /// re-ranked for the new balances; otherwise they are evaluated again.
    pub(crate) fn credito_con_antiguedad(&self, c: &Cifras, solicitud: &Solicitud) -> Decimal {
        let por_antiguedad = self
            .0
            .iter()
            .flatten()
            .any(evaluate::Evaluada::sin_antiguedad);
        let reordenadas = if por_antiguedad {
            None
        } else {
            self.reordenadas(c, solicitud)
        };
        reordenadas.unwrap_or_else(|| credito_recomendado(c, solicitud))
    }

    /// [`credito_recomendado`] of `solicitud`, which differs from the one evaluated only in
    /// fewer debts (paid down or declared, the co-borrower's part too). Debts enter the
    /// products only through the total-debt limit, which only lowers a payment: a payment it
    /// did not set (`Capacidad::por_deudas`) is below the limit, and stays below a higher one,
    /// so an offer none of whose payments it set is the same offer with fewer debts (the same
    /// credits, reasons and figures; no reason to refuse reads the debts but through a payment
    /// of 0, which only the limit can set). Such offers are kept, and only the others evaluated
    /// again; when none is left, the described credit is the evaluated one.
    pub(crate) fn credito_con_menos_deudas(&self, c: &Cifras, solicitud: &Solicitud) -> Decimal {
        let Some(evaluadas) = &self.0 else {
            return credito_recomendado(c, solicitud);
        };
        if !evaluadas.iter().any(evaluate::Evaluada::por_deudas) {
            if let Some(credito) = credito_descrito(evaluadas) {
                return credito;
            }
        }
        let previas = evaluadas.each_ref().map(|e| (!e.por_deudas()).then_some(e));
        recomendacion_en::<Approx>(c, solicitud, None, &previas)
            .flatten()
            .map_or_else(|| credito_recomendado(c, solicitud), |(_, credito)| credito)
    }

    /// The described credit of the offers re-ranked for `solicitud`'s savings and housing-fund
    /// balances (`Evaluada::poner_fondos`); `None` without filtered offers or when filtered
    /// arithmetic cannot rank them.
    fn reordenadas(&self, c: &Cifras, s: &Solicitud) -> Option<Decimal> {
        let evaluadas = self.0.as_ref()?;
        // Each borrower's balance as the products read it (`Persona`).
        let titular = persona::no_negativo(s.subcuenta_fondo);
        let ambos = titular
            + s.coacreditado
                .as_ref()
                .map_or(Decimal::ZERO, |co| persona::subcuenta_coacreditado(c, co));
        let (comprador, titular, ambos) = (
            persona::Comprador::de(c, s),
            Approx::of(titular),
            Approx::of(ambos),
        );
        // The available offers alone, each re-ranked in a copy (a refused one ranks nowhere):
        // a copy of all six was a kilobyte and a half.
        let mut disponibles = [None; TIPOS];
        for (slot, e) in disponibles.iter_mut().zip(evaluadas).filter(|(_, e)| e.disponible()) {
            slot.insert(*e).poner_fondos(&comprador, titular, ambos);
        }
        credito_descrito(disponibles.iter().flatten())
    }
}

/// The monthly payment per peso of credit at the nominal annual rate `tasa_anual` over `meses`
/// months, plus a monthly charge (insurance, administration) as a share of the credit.
/// Zero when there are no months (no credit can be granted).
pub fn cuota_por_peso(tasa_anual: Decimal, meses: u32, cargo_mensual: Decimal) -> Decimal {
    en_decimal(tramo::cuota(tasa_anual, meses, cargo_mensual))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::IncomeType;
    use crate::states::State;

    /// What a what-if reads, the recommended kind and credit (`recomendacion`) and the credit a
    /// co-borrower adds (`credito_unamos`), is the whole evaluation's, though it leaves out the
    /// offers another certainly outranks: INFONAVIT alone beside a larger Unamos Créditos, and
    /// Cofinavit beside a housing-fund offer worth more than `Cofinavit::valor_max` or beside a
    /// covered offer where its own costs are not (`Cofinavit::sin_cubrir`). That bound holds
    /// every Cofinavit offer available (its shown value, rounded as that is), and the sweep
    /// meets Cofinavit left out where it is available, outranked by Unamos Créditos (the
    /// co-borrower a what-if simulates), by INFONAVIT alone, and for its uncovered costs.
    #[test]
    fn what_ifs_recommend_as_the_whole_evaluation() {
        let c = Cifras::incluidas();
        let (mut acotadas, mut omitidas, mut por_unamos, mut por_infonavit, mut sin_cubrir) = (0, 0, 0, 0, 0);
        for ingreso in [7_000, 12_000, 15_000, 22_000, 30_000, 45_000, 70_000, 150_000] {
            for edad in [Some(25), Some(45), Some(58), None] {
                for (deudas, ahorro) in [(0, 0), (0, 100_000), (ingreso / 10, 40_000), (ingreso / 4, 400_000), (0, 2_000_000)] {
                    for (coacreditado, subcuenta) in (0..3).flat_map(|co| [(co, ingreso), (co, 600_000)]) {
                        // None; the one `SUMAR_COACREDITADO` simulates (half of the income, the
                        // applicant's age, no debts); an older one with debts of its own.
                        let (propio, co) = match coacreditado {
                            0 => (ingreso, None),
                            1 => (ingreso / 2, Some((ingreso / 2, edad, None))),
                            _ => (ingreso * 2 / 3, Some((ingreso / 3, Some(50), Some(Decimal::from(ingreso / 20))))),
                        };
                        let solicitud = Solicitud {
                            estado: State::from_inegi(9).expect("state"),
                            ingreso_mensual: Decimal::from(propio),
                            tipo_ingreso: IncomeType::Asalariado,
                            antiguedad_meses: 36,
                            edad,
                            deudas_mensuales: Decimal::from(deudas),
                            ahorro: Decimal::from(ahorro),
                            subcuenta_fondo: Decimal::from(subcuenta),
                            institucion: None,
                            coacreditado: co.map(|(ingreso, edad, deudas_mensuales)| Coacreditado {
                                ingreso_mensual: Decimal::from(ingreso),
                                tipo_ingreso: IncomeType::Asalariado,
                                antiguedad_meses: 36,
                                edad,
                                deudas_mensuales,
                                subcuenta_fondo: None,
                                institucion: None,
                            }),
                        };
                        let caso = format!("{ingreso} {edad:?} {deudas} {ahorro} {coacreditado} {subcuenta}");
                        let todas = evaluar_exacto(&solicitud);
                        let oferta = |producto: Producto| &todas.productos[producto as usize];
                        let recomendada = todas.producto_recomendado.map(|clave| {
                            let o = todas.productos.iter().find(|o| o.producto == clave).expect("listed");
                            (Producto::ALL.into_iter().find(|p| c.productos.clave(*p) == clave), o.credito_max)
                        });
                        let (tipo, credito) = recomendacion(c, &solicitud);
                        assert_eq!(recomendada.map_or((None, Decimal::ZERO), |r| r), (tipo, credito), "{caso}");
                        if coacreditado > 0 {
                            // The report's offers and credit: the household's, applying alone.
                            let de_co = |f: fn(&Coacreditado) -> Decimal| solicitud.coacreditado.as_ref().map_or(Decimal::ZERO, f);
                            let solo = Solicitud {
                                ingreso_mensual: Decimal::from(ingreso),
                                deudas_mensuales: solicitud.deudas_mensuales + de_co(|co| co.deudas_mensuales.unwrap_or_default()),
                                coacreditado: None,
                                ..solicitud.clone()
                            };
                            let mut base = Evaluadas::default();
                            evaluar_guardando(c, &solo, &mut base);
                            let base_credito = credito_recomendado(c, &solo);
                            let esperado = (tipo == Some(Producto::UnamosCreditos) && credito > base_credito).then_some(credito);
                            assert_eq!(credito_unamos(c, &solicitud, base_credito, &base), esperado, "{caso}");
                        }
                        // The bound, in `Decimal`, against every Cofinavit offer available.
                        let (_, p, _, h) = bancos::prestatarios::<Decimal>(c, &solicitud);
                        let mut evaluadas = evaluate::Evaluada::<Decimal>::vacias();
                        ofertas::todas(c, &solicitud, &mut evaluadas).expect("decimal decides");
                        let banco = &evaluadas[Producto::HipotecaBancaria as usize];
                        let tope = cofinavit::Cofinavit::<Decimal>::de(c, &p, &h)
                            .expect("decimal decides")
                            .valor_max(c, &p, banco);
                        if let (true, Some(tope)) = (oferta(Producto::Cofinavit).elegible, tope) {
                            assert!(money::money(tope) >= oferta(Producto::Cofinavit).valor_vivienda_max, "{caso}: {tope}");
                            acotadas += 1;
                        }
                        // Cofinavit left out of a what-if's offers where it is available.
                        let mut slots = [None; TIPOS];
                        assert_eq!(ofertas::disponibles::<Approx>(c, &solicitud, &mut slots, None, &[None; TIPOS]), Some(true), "{caso}");
                        let cofinavit = oferta(Producto::Cofinavit);
                        if cofinavit.elegible && slots[Producto::Cofinavit as usize].is_none() {
                            omitidas += 1;
                            assert_ne!(tipo, Some(Producto::Cofinavit), "{caso}");
                            let fondos = solicitud.ahorro + Decimal::from(subcuenta);
                            sin_cubrir += usize::from(cofinavit.enganche_requerido + cofinavit.gastos_cierre > fondos);
                            match tipo {
                                Some(Producto::UnamosCreditos) => por_unamos += 1,
                                Some(Producto::Infonavit) => por_infonavit += 1,
                                _ => {}
                            }
                        }
                    }
                }
            }
        }
        let cuentas = [acotadas, omitidas, por_unamos, por_infonavit, sin_cubrir];
        assert!(acotadas > 100 && omitidas > 20 && cuentas[2..].iter().all(|&n| n > 0), "{cuentas:?}");
    }

    /// Fewer debts keep the offers the total-debt limit did not set and evaluate only the
    /// others (`Evaluadas::credito_con_menos_deudas`): the described credit is the one of every
    /// product evaluated again, over debts that set every offer's payment, none, and some but
    /// not others (which the sweep must meet), alone and with a co-borrower whose debts are
    /// halved too.
    #[test]
    fn fewer_debts_keep_only_the_offers_the_limit_did_not_set() {
        let c = Cifras::incluidas();
        let mut partes = 0;
        for ingreso in [9_000, 18_000, 30_000, 60_000, 150_000] {
            for coacreditado in [false, true] {
                for ciento in 0..=45 {
                    let deudas = Decimal::from(ingreso * ciento / 100);
                    let co = coacreditado.then(|| Coacreditado {
                        ingreso_mensual: Decimal::from(ingreso / 3),
                        tipo_ingreso: IncomeType::Asalariado,
                        antiguedad_meses: 40,
                        edad: Some(40),
                        deudas_mensuales: Some(deudas / Decimal::from(4)),
                        subcuenta_fondo: None,
                        institucion: None,
                    });
                    let solicitud = Solicitud {
                        estado: State::from_inegi(9).expect("state"),
                        ingreso_mensual: Decimal::from(ingreso),
                        tipo_ingreso: IncomeType::Asalariado,
                        antiguedad_meses: 36,
                        edad: Some(35),
                        deudas_mensuales: deudas,
                        ahorro: Decimal::from(100_000),
                        subcuenta_fondo: Decimal::from(80_000),
                        institucion: None,
                        coacreditado: co,
                    };
                    let mut evaluadas = Evaluadas::default();
                    evaluar_guardando(c, &solicitud, &mut evaluadas);
                    let por_deudas = evaluadas.0.iter().flatten().filter(|e| e.por_deudas()).count();
                    partes += usize::from(por_deudas > 0 && por_deudas < TIPOS);
                    let mut menos = solicitud.clone();
                    menos.deudas_mensuales = money::money(deudas / Decimal::TWO);
                    if let Some(co) = menos.coacreditado.as_mut() {
                        co.deudas_mensuales = co.deudas_mensuales.map(|d| money::money(d / Decimal::TWO));
                    }
                    assert_eq!(
                        evaluadas.credito_con_menos_deudas(c, &menos),
                        credito_recomendado(c, &menos),
                        "{ingreso} {deudas} {coacreditado}"
                    );
                }
            }
        }
        assert!(partes > 10, "{partes}");
    }
}
