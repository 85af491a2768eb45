//! Each product's rules applied to one applicant, written once over [`Numero`]: in `Decimal`
//! they define the figures, in filtered doubles they compute the same figures fast or answer
//! `None` (see [`super::numero`]).

use super::fijos::Fijo;
use super::finance::Flujo;
use super::numero::Numero;
use super::rules::*;
use super::{Coacreditado, Institucion, Motivo, OfertaProducto, Producto, Solicitud};
use crate::money::{MONEY_DP, round};
use crate::params::{DTI_TOTAL_MAX, EDAD_MAX_FIN_PLAZO, PLAZO_MAX_ANIOS, PROPORCION_SALARIO_MIXTO, PTI_MAX};
use crate::profile::IncomeType;
use rust_decimal::Decimal;
use std::cmp::Ordering;

/// Decimal places of rates and the CAT (a ratio: 0.1413 is 14.13%).
const TASA_DP: u32 = 4;

/// The monthly payment per peso of credit at the nominal annual rate `tasa_anual` over `meses`
/// months, plus a monthly charge (insurance, administration) as a share of the credit; 0
/// without months. `1 / a(j, n) = p j / (p − 1)` with `p = (1 + j)^n`.
pub(super) fn cuota<N: Numero>(tasa_anual: N, meses: u32, cargo_mensual: N) -> Option<N> {
    if meses == 0 {
        return Some(N::entero(0));
    }
    let j = tasa_anual / N::entero(12);
    let amortizacion = if j.es_cero()? {
        N::entero(1) / N::entero(meses)
    } else {
        match N::crecimiento(j, meses)? {
            Some(p) => p * j / (p - N::entero(1)),
            None => j,
        }
    };
    Some(amortizacion + cargo_mensual)
}

/// `Σ f(x)` over `items`.
fn suma<T, N: Numero>(items: &[T], f: impl Fn(&T) -> N) -> N {
    items.iter().fold(N::entero(0), |total, x| total + f(x))
}

/// One borrower as the housing funds see them. Amounts stay `Decimal`: the capacities below
/// are short exact expressions of them.
#[derive(Debug, Clone, Copy)]
struct Persona {
    ingreso: Decimal,
    tipo: IncomeType,
    antiguedad: u32,
    edad: Option<u32>,
    deudas: Decimal,
    subcuenta: Decimal,
    institucion: Option<Institucion>,
}

impl Persona {
    fn titular(s: &Solicitud) -> Persona {
        Persona {
            ingreso: s.ingreso_mensual.max(Decimal::ZERO),
            tipo: s.tipo_ingreso,
            antiguedad: s.antiguedad_meses,
            edad: s.edad,
            deudas: s.deudas_mensuales.max(Decimal::ZERO),
            subcuenta: s.subcuenta_fondo.max(Decimal::ZERO),
            institucion: s.institucion,
        }
    }

    fn coacreditado(c: &Coacreditado) -> Persona {
        Persona {
            ingreso: c.ingreso_mensual.max(Decimal::ZERO),
            tipo: c.tipo_ingreso,
            antiguedad: c.antiguedad_meses,
            edad: c.edad,
            deudas: c.deudas_mensuales.max(Decimal::ZERO),
            subcuenta: c.subcuenta_fondo.max(Decimal::ZERO),
            institucion: c.institucion,
        }
    }

    /// The payroll salary the funds lend on: all of a salaried income, the payroll share of a
    /// mixed one, nothing for the self-employed and pensioners (no contributions).
    fn salario(&self) -> Decimal {
        match self.tipo {
            IncomeType::Asalariado => self.ingreso,
            IncomeType::Mixto => self.ingreso * PROPORCION_SALARIO_MIXTO,
            IncomeType::Independiente | IncomeType::Pensionado => Decimal::ZERO,
        }
    }

    /// A payroll worker who contributes to `fondo` (an undeclared fund is INFONAVIT).
    fn cotiza_a(&self, fondo: Institucion) -> bool {
        let nomina = matches!(self.tipo, IncomeType::Asalariado | IncomeType::Mixto);
        nomina && self.institucion.unwrap_or(Institucion::Infonavit) == fondo
    }
}

/// The payment a product allows: `base` (its payment-to-income limit applied), within the
/// total-debt limit on the whole income, never negative. In `Decimal` in both arithmetics:
/// it often ends in exactly half a centavo (0.30 × 76,772.85 = 23,031.855), a tie only exact
/// arithmetic rounds right, and it is shown as the monthly payment of an uncapped credit.
fn capacidad(base: Decimal, ingreso: Decimal, deudas: Decimal) -> Decimal {
    base.min(DTI_TOTAL_MAX * ingreso - deudas).max(Decimal::ZERO)
}

/// Whole years of term: the product's longest, shortened so that age plus term stays within
/// `limite`.
fn plazo(maximo: u32, limite: u32, edad: Option<u32>) -> u32 {
    edad.map_or(maximo, |e| limite.saturating_sub(e).min(maximo))
}

/// A monthly payment: a capacity known exactly, or one computed from a capped credit.
#[derive(Debug, Clone, Copy)]
enum Pago<N> {
    Exacto(Decimal),
    Calculado(N),
}

impl<N: Numero> Pago<N> {
    fn valor(self) -> N {
        match self {
            Pago::Exacto(d) => N::de(d),
            Pago::Calculado(n) => n,
        }
    }

    fn mas(self, other: Pago<N>) -> Pago<N> {
        match (self, other) {
            (Pago::Exacto(a), Pago::Exacto(b)) => Pago::Exacto(a + b),
            (a, b) => Pago::Calculado(a.valor() + b.valor()),
        }
    }

    fn redondear(self, dp: u32) -> Option<Decimal> {
        match self {
            Pago::Exacto(d) => Some(round(d, dp)),
            Pago::Calculado(n) => n.redondear(dp),
        }
    }
}

/// One credit inside a product (two for joint credits) with level monthly payments.
#[derive(Debug, Clone, Copy)]
struct Tramo<N> {
    credito: N,
    /// Its monthly payment: the capacity it was sized for, exactly, or credit × `cuota`.
    pago: Pago<N>,
    tasa: N,
    /// Monthly payment per peso of credit (annuity plus insurance).
    cuota: N,
    meses: u32,
    /// Fee paid at signing over the credit.
    comision: N,
}

impl<N: Numero> Tramo<N> {
    fn nuevo(tasa: N, plazo: u32, cargo: N, comision: N) -> Option<Tramo<N>> {
        let meses = plazo * 12;
        let cuota = cuota(tasa, meses, cargo)?;
        Some(Tramo { credito: N::entero(1), pago: Pago::Calculado(cuota), tasa, cuota, meses, comision })
    }

    /// This credit's terms for an amount `credito`.
    fn por(self, credito: N) -> Tramo<N> {
        Tramo { credito, pago: Pago::Calculado(credito * self.cuota), ..self }
    }

    /// The credit a monthly payment `pago` supports (0 without a term), capped at `tope`. The
    /// payment is kept as given, not recomputed as `pago / cuota × cuota`, whose last digits
    /// would break its ties either way.
    fn para_pago(self, pago: Decimal, tope: Option<N>) -> Option<Tramo<N>> {
        let credito = self.credito_para(N::de(pago))?;
        match tope {
            Some(tope) if tope.menor(credito)? => Some(self.por(tope)),
            _ if self.cuota.es_cero()? => Some(self.por(credito)),
            _ => Some(Tramo { credito, pago: Pago::Exacto(pago), ..self }),
        }
    }

    /// The credit a monthly payment `pago` supports (0 without a term).
    fn credito_para(self, pago: N) -> Option<N> {
        Some(if self.cuota.es_cero()? { N::entero(0) } else { pago / self.cuota })
    }
}

/// INFONAVIT's payment-to-salary limit: 20% at one minimum wage, rising linearly to 30% at
/// two (see `rules`).
fn pti_infonavit(salario: Decimal) -> Decimal {
    let tramo = ((salario - SALARIO_MINIMO_MENSUAL) / SALARIO_MINIMO_MENSUAL).clamp(Decimal::ZERO, Decimal::ONE);
    INFONAVIT_PTI_SALARIO_MINIMO + (INFONAVIT_PTI_MAX - INFONAVIT_PTI_SALARIO_MINIMO) * tramo
}

/// INFONAVIT's rate for a monthly salary: the band table in UMAs, interpolated. Not rounded
/// before use: rounding would make the rate rise in steps, and a step up could lend less to a
/// higher salary; the offer shows it to 4 decimals.
fn tasa_infonavit<N: Numero>(salario: Decimal) -> Option<N> {
    N::en_curva(&INFONAVIT_TASA_POR_UMAS, N::de(salario) / N::REGLAS.uma)
}

/// One worker's INFONAVIT credit (capped at the individual maximum) and why it may be refused.
fn infonavit_de<N: Numero>(p: &Persona) -> Option<(Vec<Motivo>, Tramo<N>)> {
    let salario = p.salario();
    let plazo = plazo(INFONAVIT_PLAZO_MAX, INFONAVIT_EDAD_MAX_FIN_PLAZO, p.edad);
    let tramo = Tramo::nuevo(tasa_infonavit(salario)?, plazo, N::REGLAS.cargo_infonavit, N::entero(0))?;
    let pago = capacidad(pti_infonavit(salario) * salario, p.ingreso, p.deudas);
    let motivos = motivos_fondo(p, Institucion::Infonavit, INFONAVIT_ANTIGUEDAD_MIN, plazo, pago);
    Some((motivos, tramo.para_pago(pago, Some(N::REGLAS.infonavit_max))?))
}

/// A housing fund's knock-outs: not a contributor (and nothing else then), too few months of
/// contribution, a salary below the minimum wage, no term left by age or no payment left.
fn motivos_fondo(p: &Persona, fondo: Institucion, antiguedad_min: u32, plazo: u32, pago: Decimal) -> Vec<Motivo> {
    if !p.cotiza_a(fondo) {
        return vec![match fondo {
            Institucion::Fovissste => Motivo::NoDerechohabienteFovissste,
            _ => Motivo::NoDerechohabienteInfonavit,
        }];
    }
    let mut motivos = Vec::new();
    if p.antiguedad < antiguedad_min {
        motivos.push(Motivo::AntiguedadInsuficiente);
    }
    if p.salario() < SALARIO_MINIMO_MENSUAL {
        motivos.push(Motivo::IngresoMenorAlSalarioMinimo);
    }
    sin_plazo_o_pago(&mut motivos, plazo, pago);
    motivos
}

fn sin_plazo_o_pago(motivos: &mut Vec<Motivo>, plazo: u32, pago: Decimal) {
    if plazo == 0 {
        motivos.push(Motivo::SinPlazoPorEdad);
    } else if pago.is_zero() {
        motivos.push(Motivo::SinCapacidadDePago);
    }
}

/// A product before rounding: what the recommendation compares.
#[derive(Debug, Clone)]
pub(super) struct Evaluada<N> {
    producto: Producto,
    motivos: Vec<Motivo>,
    tasa: N,
    cat: Option<N>,
    plazo: u32,
    pago: Pago<N>,
    credito: N,
    valor: N,
    enganche: N,
    gastos: N,
    total: N,
    /// The buyer's own money this product lets pay the down payment and closing costs.
    fondos: N,
}

impl<N: Numero> Evaluada<N> {
    /// The buyer's own funds cover the down payment and the closing costs.
    fn cubierto(&self) -> Option<bool> {
        (self.enganche + self.gastos).hasta(self.fondos)
    }

    /// The offer as shown: money to 2 decimals, rates to 4.
    pub fn mostrar(self) -> Option<OfertaProducto> {
        let elegible = self.motivos.is_empty();
        // A refused product's money figures are exactly 0: nothing to round.
        let dinero = |x: N| if elegible { x.redondear(MONEY_DP) } else { Some(Decimal::new(0, MONEY_DP)) };
        Some(OfertaProducto {
            producto: self.producto,
            elegible,
            tasa_anual: self.tasa.redondear(TASA_DP)?,
            cat: match self.cat {
                Some(c) => Some(c.redondear(TASA_DP)?),
                None => None,
            },
            plazo_anios: self.plazo,
            pago_mensual: if elegible { self.pago.redondear(MONEY_DP)? } else { Decimal::new(0, MONEY_DP) },
            credito_max: dinero(self.credito)?,
            valor_vivienda_max: dinero(self.valor)?,
            enganche_requerido: dinero(self.enganche)?,
            gastos_cierre: dinero(self.gastos)?,
            total_pagado: dinero(self.total)?,
            motivos: self.motivos,
        })
    }

    /// Whether `self` is recommended over `other` (both available): first the one whose down
    /// payment and closing costs the buyer's funds cover, then the higher home value, then the
    /// lower CAT, then the order of [`Producto::ALL`].
    fn antes_que(&self, other: &Evaluada<N>) -> Option<bool> {
        // Each criterion is decided only when the ones before it tie.
        let mut orden = other.cubierto()?.cmp(&self.cubierto()?);
        if orden == Ordering::Equal {
            orden = other.valor.orden(self.valor)?;
        }
        if orden == Ordering::Equal {
            orden = match (self.cat, other.cat) {
                (Some(a), Some(b)) => a.orden(b)?,
                (a, b) => a.is_some().cmp(&b.is_some()),
            };
        }
        Some(orden.then(self.producto.cmp(&other.producto)) == Ordering::Less)
    }
}

/// The recommended product among the available ones (see [`Evaluada::antes_que`]).
pub(super) fn recomendado<N: Numero>(evaluadas: &[Evaluada<N>]) -> Option<Option<Producto>> {
    let mut mejor: Option<&Evaluada<N>> = None;
    for e in evaluadas.iter().filter(|e| e.motivos.is_empty()) {
        mejor = match mejor {
            Some(m) if !e.antes_que(m)? => Some(m),
            _ => Some(e),
        };
    }
    Some(mejor.map(|e| e.producto))
}

/// How the home value follows from the credit.
#[derive(Debug, Clone, Copy)]
enum Valor<N> {
    /// The housing funds lend without a down payment and add the sub-account to the credit.
    MasSubcuenta(N),
    /// Banks lend up to this share of the value.
    Ltv(N),
}

/// Where a product's CAT comes from.
#[derive(Debug, Clone, Copy)]
enum Cat<N> {
    /// Solved from its payments.
    Calcular,
    /// Its shape is a fixed product's for the term (the CAT does not depend on the amount:
    /// fees and insurance are proportional to the credit), which the arithmetic may keep.
    Fijo(Fijo),
    /// Already known: the same shape as another product's.
    Conocido(Option<N>),
}

/// A product's credits before its figures: what each product's rules decide.
struct Credito<'a, N> {
    producto: Producto,
    motivos: Vec<Motivo>,
    /// The credits granted (empty or zero when refused).
    tramos: &'a [Tramo<N>],
    /// Their monthly payment.
    pago: Pago<N>,
    /// One peso of credit in the product's proportions: its terms when refused.
    forma: &'a [Tramo<N>],
    plazo: u32,
    valor: Valor<N>,
    /// The buyer's own money the product lets pay the down payment and closing costs.
    fondos: N,
    cat: Cat<N>,
}

/// The CAT of the credits received less the fees, against their payments.
fn cat_de<N: Numero>(base: &[Tramo<N>]) -> Option<Option<N>> {
    let neto = suma(base, |t| t.credito) - suma(base, |t| t.credito * t.comision);
    let mut flujos = [Flujo { pago: N::entero(0), meses: 0 }; 2];
    let flujos = flujos.get_mut(..base.len())?;
    for (f, t) in flujos.iter_mut().zip(base) {
        *f = Flujo { pago: t.pago.valor(), meses: t.meses };
    }
    N::cat(neto, flujos)
}

/// Rate, CAT and figures of a product from its credits. A refused product keeps the rate and
/// CAT of its terms (from one peso of credit in the same proportions) and shows 0 elsewhere.
fn evaluada<N: Numero>(c: Credito<'_, N>, s: &Solicitud) -> Option<Evaluada<N>> {
    let Credito { producto, mut motivos, tramos, pago, forma, plazo, valor, fondos, cat } = c;
    motivos.sort_unstable();
    motivos.dedup();
    let credito = suma(tramos, |t| t.credito);
    let base = if motivos.is_empty() && N::entero(0).menor(credito)? { tramos } else { forma };
    let peso = suma(base, |t| t.credito);
    let tasa = if peso.es_cero()? {
        base.first().map_or(N::entero(0), |t| t.tasa)
    } else {
        suma(base, |t| t.credito * t.tasa) / peso
    };
    let cat = match cat {
        Cat::Conocido(cat) => cat,
        Cat::Fijo(fijo) => match N::fijo(fijo, plazo) {
            Some((_, cat)) => cat,
            None => cat_de(base)?,
        },
        Cat::Calcular => cat_de(base)?,
    };
    let cero = N::entero(0);
    let mut e = Evaluada {
        producto,
        tasa,
        cat,
        plazo,
        pago: Pago::Calculado(cero),
        credito: cero,
        valor: cero,
        enganche: cero,
        gastos: cero,
        total: cero,
        fondos,
        motivos,
    };
    if !e.motivos.is_empty() || credito.es_cero()? {
        if e.motivos.is_empty() {
            e.motivos.push(Motivo::SinCapacidadDePago);
        }
        return Some(e);
    }
    e.credito = credito;
    e.pago = pago;
    e.total = suma(base, |t| t.pago.valor() * N::entero(t.meses)) + suma(base, |t| t.credito * t.comision);
    e.valor = match valor {
        Valor::MasSubcuenta(subcuenta) => credito + subcuenta,
        Valor::Ltv(ltv) => credito / ltv,
    };
    e.enganche = match valor {
        Valor::MasSubcuenta(_) => cero,
        Valor::Ltv(_) => e.valor - credito,
    };
    e.gastos = e.valor * N::REGLAS.gastos_cierre[usize::from(s.estado.inegi() - 1)];
    Some(e)
}

impl Fijo {
    /// Its credit for a term, the payment per peso as the arithmetic keeps it or computed.
    /// The rate, charge and fee are INFONAVIT's part's for [`Fijo::Cofi`] (the bank's part is
    /// [`Fijo::Banco`]).
    fn tramo<N: Numero>(self, plazo: u32) -> Option<Tramo<N>> {
        let (tasa, cargo, comision) = N::REGLAS.fijos[self as usize];
        match N::fijo(self, plazo) {
            Some((cuota, _)) => {
                Some(Tramo { credito: N::entero(1), pago: Pago::Calculado(cuota), tasa, cuota, meses: plazo * 12, comision })
            }
            None => Tramo::nuevo(tasa, plazo, cargo, comision),
        }
    }
}

/// What [`Numero::fijo`] keeps, computed: the payment per peso of `fijo`'s credit for a term
/// and the CAT of its shape (for [`Fijo::Cofi`], 70% bank and 30% INFONAVIT).
#[cfg(test)]
pub(super) fn fijo_calculado<N: Numero>(fijo: Fijo, plazo: u32) -> Option<(N, Option<N>)> {
    let calculado = |fijo: Fijo| {
        let (tasa, cargo, comision) = N::REGLAS.fijos[fijo as usize];
        Tramo::<N>::nuevo(tasa, plazo, cargo, comision)
    };
    let tramo = calculado(fijo)?;
    let cat = match fijo {
        Fijo::Cofi => cat_de(&forma_cofi(calculado(Fijo::Banco)?, tramo))?,
        _ => cat_de(&[tramo])?,
    };
    Some((tramo.cuota, cat))
}

/// One peso of Cuenta Infonavit + Crédito Bancario: 70% bank, 30% INFONAVIT.
fn forma_cofi<N: Numero>(banco: Tramo<N>, fondo: Tramo<N>) -> [Tramo<N>; 2] {
    let parte_fondo = N::REGLAS.parte_cofi;
    [banco.por(N::entero(1) - parte_fondo), fondo.por(parte_fondo)]
}

/// The buyer's savings (a negative amount counts as none).
fn ahorro<N: Numero>(s: &Solicitud) -> N {
    N::de(s.ahorro.max(Decimal::ZERO))
}

fn infonavit<N: Numero>(s: &Solicitud, p: &Persona, (motivos, tramo): (Vec<Motivo>, Tramo<N>)) -> Option<Evaluada<N>> {
    let credito = Credito {
        producto: Producto::Infonavit,
        motivos,
        tramos: &[tramo],
        pago: tramo.pago,
        forma: &[tramo.por(N::entero(1))],
        plazo: tramo.meses / 12,
        valor: Valor::MasSubcuenta(N::de(p.subcuenta)),
        fondos: ahorro(s),
        cat: Cat::Calcular,
    };
    evaluada(credito, s)
}

fn fovissste<N: Numero>(s: &Solicitud, p: &Persona) -> Option<Evaluada<N>> {
    let salario = p.salario();
    let plazo = plazo(FOVISSSTE_PLAZO_MAX, FOVISSSTE_EDAD_MAX_FIN_PLAZO, p.edad);
    let tramo = Fijo::Fovissste.tramo(plazo)?;
    let pago = capacidad(FOVISSSTE_PTI * salario, p.ingreso, p.deudas);
    let credito = tramo.para_pago(pago, Some(N::REGLAS.fovissste_max))?;
    let credito = Credito {
        producto: Producto::Fovissste,
        motivos: motivos_fondo(p, Institucion::Fovissste, FOVISSSTE_ANTIGUEDAD_MIN, plazo, pago),
        tramos: &[credito],
        pago: credito.pago,
        forma: &[tramo],
        plazo,
        valor: Valor::MasSubcuenta(N::de(p.subcuenta)),
        fondos: ahorro(s),
        cat: Cat::Fijo(Fijo::Fovissste),
    };
    evaluada(credito, s)
}

/// The household a bank lends to: the applicant plus the co-borrower, if any. The older
/// borrower's age limits the term.
struct Hogar {
    ingreso: Decimal,
    deudas: Decimal,
    edad: Option<u32>,
}

fn hogar(p: &Persona, co: Option<&Persona>) -> Hogar {
    match co {
        None => Hogar { ingreso: p.ingreso, deudas: p.deudas, edad: p.edad },
        Some(c) => Hogar {
            ingreso: p.ingreso + c.ingreso,
            deudas: p.deudas + c.deudas,
            edad: match (p.edad, c.edad) {
                (Some(a), Some(b)) => Some(a.max(b)),
                (a, b) => a.or(b),
            },
        },
    }
}

/// The bank's own rules on the applicant: seniority by income type.
fn motivos_banco(p: &Persona) -> Vec<Motivo> {
    let minimo = match p.tipo {
        IncomeType::Independiente => BANCO_ANTIGUEDAD_MIN_INDEPENDIENTE,
        _ => BANCO_ANTIGUEDAD_MIN_ASALARIADO,
    };
    if p.antiguedad < minimo { vec![Motivo::AntiguedadInsuficiente] } else { Vec::new() }
}

fn ltv<N: Numero>(p: &Persona) -> N {
    match p.tipo {
        IncomeType::Independiente => N::REGLAS.ltv_independiente,
        _ => N::REGLAS.ltv_asalariado,
    }
}

fn plazo_banco(edad: Option<u32>, limite: u32) -> u32 {
    let maximo = u32::try_from(PLAZO_MAX_ANIOS.mantissa()).unwrap_or(20);
    plazo(maximo, limite, edad)
}

fn limite_banco() -> u32 {
    u32::try_from(EDAD_MAX_FIN_PLAZO.mantissa()).unwrap_or(75)
}

/// The bank's smallest mortgage, applied to the bank's part of the credit.
fn menor_al_minimo<N: Numero>(motivos: &mut Vec<Motivo>, plazo: u32, pago: Decimal, credito_banco: N) -> Option<()> {
    if plazo > 0 && !pago.is_zero() && credito_banco.menor(N::REGLAS.banco_min)? {
        motivos.push(Motivo::CreditoMenorAlMinimo);
    }
    Some(())
}

fn hipoteca_bancaria<N: Numero>(s: &Solicitud, p: &Persona, co: Option<&Persona>) -> Option<Evaluada<N>> {
    let h = hogar(p, co);
    let plazo = plazo_banco(h.edad, limite_banco());
    let tramo = Fijo::Banco.tramo(plazo)?;
    let pago = capacidad(PTI_MAX * h.ingreso, h.ingreso, h.deudas);
    let credito = tramo.para_pago(pago, None)?;
    let mut motivos = motivos_banco(p);
    sin_plazo_o_pago(&mut motivos, plazo, pago);
    menor_al_minimo(&mut motivos, plazo, pago, credito.credito)?;
    let credito = Credito {
        producto: Producto::HipotecaBancaria,
        motivos,
        tramos: &[credito],
        pago: credito.pago,
        forma: &[tramo],
        plazo,
        valor: Valor::Ltv(ltv(p)),
        fondos: ahorro(s),
        cat: Cat::Fijo(Fijo::Banco),
    };
    evaluada(credito, s)
}

/// Cuenta Infonavit + Crédito Bancario: one payment capacity (the bank's) serves a credit that
/// is 70% bank and 30% INFONAVIT at 10.45%, INFONAVIT's part capped; the sub-account pays the
/// down payment. The term meets both the bank's and INFONAVIT's age limits.
fn infonavit_mas_banco<N: Numero>(s: &Solicitud, p: &Persona, co: Option<&Persona>) -> Option<Evaluada<N>> {
    let h = hogar(p, co);
    let plazo = plazo_banco(h.edad, limite_banco().min(INFONAVIT_EDAD_MAX_FIN_PLAZO));
    let (banco, fondo): (Tramo<N>, Tramo<N>) = (Fijo::Banco.tramo(plazo)?, Fijo::Cofi.tramo(plazo)?);
    let forma = forma_cofi(banco, fondo);
    let (parte_banco, parte_fondo) = (forma[0].credito, forma[1].credito);
    let pago = capacidad(PTI_MAX * h.ingreso, h.ingreso, h.deudas);
    let por_peso = parte_banco * banco.cuota + parte_fondo * fondo.cuota;
    let total = if por_peso.es_cero()? { N::entero(0) } else { N::de(pago) / por_peso };
    let tope = N::REGLAS.cofi_max;
    // Uncapped, the credit keeps the scheme's proportions, and so the CAT of its shape.
    let (de_banco, de_fondo, cat) = if (parte_fondo * total).hasta(tope)? {
        (parte_banco * total, parte_fondo * total, Cat::Fijo(Fijo::Cofi))
    } else {
        (banco.credito_para(N::de(pago) - tope * fondo.cuota)?, tope, Cat::Calcular)
    };
    let mut motivos = motivos_banco(p);
    if !p.cotiza_a(Institucion::Infonavit) {
        motivos.push(Motivo::NoDerechohabienteInfonavit);
    } else if p.antiguedad < INFONAVIT_ANTIGUEDAD_MIN {
        motivos.push(Motivo::AntiguedadInsuficiente);
    }
    sin_plazo_o_pago(&mut motivos, plazo, pago);
    menor_al_minimo(&mut motivos, plazo, pago, de_banco)?;
    // Both parts are sized so that their payments add up to the whole capacity.
    let credito = Credito {
        producto: Producto::InfonavitMasBanco,
        motivos,
        tramos: &[banco.por(de_banco), fondo.por(de_fondo)],
        pago: Pago::Exacto(pago),
        forma: &forma,
        plazo,
        valor: Valor::Ltv(N::REGLAS.ltv_asalariado),
        fondos: ahorro::<N>(s) + N::de(p.subcuenta),
        cat,
    };
    evaluada(credito, s)
}

/// Unamos Créditos: each worker's own INFONAVIT credit, added and capped at the joint maximum
/// (both scaled alike when the cap binds); both sub-accounts are added to the value.
/// Without a co-borrower its terms are the applicant's INFONAVIT credit's, whose CAT is
/// `cat_infonavit`.
fn unamos_creditos<N: Numero>(
    s: &Solicitud,
    p: &Persona,
    co: Option<&Persona>,
    del_titular: (Vec<Motivo>, Tramo<N>),
    cat_infonavit: Option<N>,
) -> Option<Evaluada<N>> {
    let (mut motivos, titular) = del_titular;
    let forma = [titular.por(N::entero(1))];
    let Some(c) = co else {
        motivos.push(Motivo::SinCoacreditado);
        let credito = Credito {
            producto: Producto::UnamosCreditos,
            motivos,
            tramos: &[],
            pago: Pago::Exacto(Decimal::ZERO),
            forma: &forma,
            plazo: titular.meses / 12,
            valor: Valor::MasSubcuenta(N::entero(0)),
            fondos: ahorro(s),
            cat: Cat::Conocido(cat_infonavit),
        };
        return evaluada(credito, s);
    };
    let (motivos_co, socio) = infonavit_de(c)?;
    if !motivos_co.is_empty() {
        motivos.push(Motivo::CoacreditadoNoElegible);
    }
    let suma = titular.credito + socio.credito;
    let tope = N::REGLAS.unamos_max;
    let tramos = if tope.menor(suma)? {
        let escala = tope / suma;
        [titular.por(titular.credito * escala), socio.por(socio.credito * escala)]
    } else {
        [titular, socio]
    };
    let credito = Credito {
        producto: Producto::UnamosCreditos,
        motivos,
        tramos: &tramos,
        pago: tramos[0].pago.mas(tramos[1].pago),
        forma: &forma,
        plazo: titular.meses.max(socio.meses) / 12,
        valor: Valor::MasSubcuenta(N::de(p.subcuenta + c.subcuenta)),
        fondos: ahorro(s),
        cat: Cat::Calcular,
    };
    evaluada(credito, s)
}

/// Every product, in the order of [`Producto::ALL`]; `None` when the arithmetic cannot tell.
pub(super) fn todas<N: Numero>(s: &Solicitud) -> Option<[Evaluada<N>; 5]> {
    let p = Persona::titular(s);
    let co = s.coacreditado.as_ref().map(Persona::coacreditado);
    // The applicant's INFONAVIT credit serves INFONAVIT and Unamos Créditos: computed once.
    let titular = infonavit_de(&p)?;
    let infonavit = infonavit(s, &p, titular.clone())?;
    let cat_infonavit = infonavit.cat;
    Some([
        infonavit,
        fovissste(s, &p)?,
        hipoteca_bancaria(s, &p, co.as_ref())?,
        infonavit_mas_banco(s, &p, co.as_ref())?,
        unamos_creditos(s, &p, co.as_ref(), titular, cat_infonavit)?,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asalariado(ingreso: Decimal, edad: u32) -> Persona {
        Persona {
            ingreso,
            tipo: IncomeType::Asalariado,
            antiguedad: 60,
            edad: Some(edad),
            deudas: Decimal::ZERO,
            subcuenta: Decimal::ZERO,
            institucion: None,
        }
    }

    /// INFONAVIT's rate rises with salary, so its credit could fall where the rate rises faster
    /// than the payment; a sweep every 7 pesos up to 130,000 finds no such drop (with the rate
    /// rounded to 4 decimals before use it found hundreds).
    #[test]
    fn infonavit_credit_never_falls_as_salary_rises() {
        for edad in [30, 55] {
            let mut anterior = Decimal::ZERO;
            for pesos in (0..130_000).step_by(7) {
                let (motivos, tramo) = infonavit_de::<Decimal>(&asalariado(Decimal::from(pesos), edad)).expect("decimal");
                let credito = if motivos.is_empty() { tramo.credito } else { Decimal::ZERO };
                assert!(credito >= anterior, "age {edad}, salary {pesos}: {credito} < {anterior}");
                anterior = credito;
            }
        }
    }
}
