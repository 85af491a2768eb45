//! Each product's rules applied to one applicant, in exact decimal arithmetic.

use super::closing::tasa_gastos_cierre;
use super::finance::{Flujo, cat, cuota_por_peso};
use super::rules::*;
use super::{Coacreditado, Institucion, Motivo, OfertaProducto, Producto, Solicitud};
use crate::money::{money, round};
use crate::params::{
    DTI_TOTAL_MAX, EDAD_MAX_FIN_PLAZO, LTV_ASALARIADO, LTV_INDEPENDIENTE, PLAZO_MAX_ANIOS, PROPORCION_SALARIO_MIXTO,
    PTI_MAX, TASA_ANUAL,
};
use crate::profile::IncomeType;
use rust_decimal::Decimal;

/// Decimal places of rates and the CAT (a ratio: 0.1413 is 14.13%).
const TASA_DP: u32 = 4;

/// One borrower as the housing funds see them.
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

/// The buyer's savings (a negative amount counts as none).
fn ahorro(s: &Solicitud) -> Decimal {
    s.ahorro.max(Decimal::ZERO)
}

/// The payment a product allows: `base` (its payment-to-income limit applied), within the
/// total-debt limit on the whole income, never negative.
fn capacidad(base: Decimal, ingreso: Decimal, deudas: Decimal) -> Decimal {
    base.min(DTI_TOTAL_MAX * ingreso - deudas).max(Decimal::ZERO)
}

/// Whole years of term: the product's longest, shortened so that age plus term stays within
/// `limite`.
fn plazo(maximo: u32, limite: u32, edad: Option<u32>) -> u32 {
    edad.map_or(maximo, |e| limite.saturating_sub(e).min(maximo))
}

/// One credit inside a product (two for joint credits) with level monthly payments.
#[derive(Debug, Clone, Copy)]
struct Tramo {
    credito: Decimal,
    tasa: Decimal,
    /// Monthly payment per peso of credit (annuity plus insurance).
    cuota: Decimal,
    meses: u32,
    /// Fee paid at signing over the credit.
    comision: Decimal,
}

impl Tramo {
    fn nuevo(tasa: Decimal, plazo: u32, cargo: Decimal, comision: Decimal) -> Tramo {
        let meses = plazo * 12;
        Tramo { credito: Decimal::ONE, tasa, cuota: cuota_por_peso(tasa, meses, cargo), meses, comision }
    }

    fn por(self, credito: Decimal) -> Tramo {
        Tramo { credito, ..self }
    }

    /// The credit a monthly payment `pago` supports (0 without a term).
    fn credito_para(self, pago: Decimal) -> Decimal {
        if self.cuota.is_zero() { Decimal::ZERO } else { pago / self.cuota }
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
fn tasa_infonavit(salario: Decimal) -> Decimal {
    INFONAVIT_TASA_POR_UMAS.eval(salario / UMA_MENSUAL)
}

/// One worker's INFONAVIT credit (capped at the individual maximum) and why it may be refused.
fn infonavit_de(p: &Persona) -> (Vec<Motivo>, Tramo) {
    let salario = p.salario();
    let plazo = plazo(INFONAVIT_PLAZO_MAX, INFONAVIT_EDAD_MAX_FIN_PLAZO, p.edad);
    let tramo = Tramo::nuevo(tasa_infonavit(salario), plazo, INFONAVIT_CARGO_MENSUAL, Decimal::ZERO);
    let pago = capacidad(pti_infonavit(salario) * salario, p.ingreso, p.deudas);
    let motivos = motivos_fondo(p, Institucion::Infonavit, INFONAVIT_ANTIGUEDAD_MIN, plazo, pago);
    (motivos, tramo.por(tramo.credito_para(pago).min(INFONAVIT_CREDITO_MAX)))
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
pub(super) struct Evaluada {
    pub producto: Producto,
    pub motivos: Vec<Motivo>,
    pub tasa: Decimal,
    pub cat: Option<Decimal>,
    pub plazo: u32,
    pub pago: Decimal,
    pub credito: Decimal,
    pub valor: Decimal,
    pub enganche: Decimal,
    pub gastos: Decimal,
    pub total: Decimal,
    /// The buyer's own money this product lets pay the down payment and closing costs.
    pub fondos: Decimal,
}

impl Evaluada {
    /// The buyer's own funds cover the down payment and the closing costs.
    pub fn cubierto(&self) -> bool {
        self.fondos >= self.enganche + self.gastos
    }

    /// The offer as shown: money to 2 decimals, rates to 4.
    pub fn mostrar(&self) -> OfertaProducto {
        OfertaProducto {
            producto: self.producto,
            elegible: self.motivos.is_empty(),
            tasa_anual: round(self.tasa, TASA_DP),
            cat: self.cat.map(|c| round(c, TASA_DP)),
            plazo_anios: self.plazo,
            pago_mensual: money(self.pago),
            credito_max: money(self.credito),
            valor_vivienda_max: money(self.valor),
            enganche_requerido: money(self.enganche),
            gastos_cierre: money(self.gastos),
            total_pagado: money(self.total),
            motivos: self.motivos.clone(),
        }
    }
}

/// How the home value follows from the credit.
#[derive(Debug, Clone, Copy)]
enum Valor {
    /// The housing funds lend without a down payment and add the sub-account to the credit.
    MasSubcuenta(Decimal),
    /// Banks lend up to this share of the value.
    Ltv(Decimal),
}

/// Rate, CAT and figures of a product from its credits. A refused product keeps the rate and
/// CAT of its terms (from one peso of credit in the same proportions) and shows 0 elsewhere.
#[allow(clippy::too_many_arguments)] // one call per product, named at each site
fn evaluada(
    producto: Producto,
    mut motivos: Vec<Motivo>,
    tramos: &[Tramo],
    forma: &[Tramo],
    plazo: u32,
    valor: Valor,
    s: &Solicitud,
    fondos: Decimal,
) -> Evaluada {
    motivos.sort_unstable();
    motivos.dedup();
    let credito: Decimal = tramos.iter().map(|t| t.credito).sum();
    let base = if motivos.is_empty() && credito > Decimal::ZERO { tramos } else { forma };
    let peso: Decimal = base.iter().map(|t| t.credito).sum();
    let tasa = if peso.is_zero() {
        base.first().map_or(Decimal::ZERO, |t| t.tasa)
    } else {
        base.iter().map(|t| t.credito * t.tasa).sum::<Decimal>() / peso
    };
    let comision: Decimal = base.iter().map(|t| t.credito * t.comision).sum();
    let flujos: Vec<Flujo> = base.iter().map(|t| Flujo { pago: t.credito * t.cuota, meses: t.meses }).collect();
    let cat = cat(peso - comision, &flujos);
    let mut e = Evaluada {
        producto,
        tasa,
        cat,
        plazo,
        pago: Decimal::ZERO,
        credito: Decimal::ZERO,
        valor: Decimal::ZERO,
        enganche: Decimal::ZERO,
        gastos: Decimal::ZERO,
        total: Decimal::ZERO,
        fondos,
        motivos,
    };
    if !e.motivos.is_empty() || credito.is_zero() {
        if e.motivos.is_empty() {
            e.motivos.push(Motivo::SinCapacidadDePago);
        }
        return e;
    }
    e.credito = credito;
    e.pago = flujos.iter().map(|f| f.pago).sum();
    e.total = flujos.iter().map(|f| f.pago * Decimal::from(f.meses)).sum::<Decimal>() + comision;
    e.valor = match valor {
        Valor::MasSubcuenta(subcuenta) => credito + subcuenta,
        Valor::Ltv(ltv) => credito / ltv,
    };
    e.enganche = match valor {
        Valor::MasSubcuenta(_) => Decimal::ZERO,
        Valor::Ltv(_) => e.valor - credito,
    };
    e.gastos = e.valor * tasa_gastos_cierre(s.estado);
    e
}

fn infonavit(s: &Solicitud, p: &Persona, (motivos, tramo): (Vec<Motivo>, Tramo)) -> Evaluada {
    let plazo = tramo.meses / 12;
    evaluada(
        Producto::Infonavit,
        motivos,
        &[tramo],
        &[tramo.por(Decimal::ONE)],
        plazo,
        Valor::MasSubcuenta(p.subcuenta),
        s,
        ahorro(s),
    )
}

fn fovissste(s: &Solicitud, p: &Persona) -> Evaluada {
    let salario = p.salario();
    let plazo = plazo(FOVISSSTE_PLAZO_MAX, FOVISSSTE_EDAD_MAX_FIN_PLAZO, p.edad);
    let tramo = Tramo::nuevo(FOVISSSTE_TASA, plazo, FOVISSSTE_CARGO_MENSUAL, Decimal::ZERO);
    let pago = capacidad(FOVISSSTE_PTI * salario, p.ingreso, p.deudas);
    let motivos = motivos_fondo(p, Institucion::Fovissste, FOVISSSTE_ANTIGUEDAD_MIN, plazo, pago);
    let credito = tramo.credito_para(pago).min(FOVISSSTE_CREDITO_MAX);
    evaluada(
        Producto::Fovissste,
        motivos,
        &[tramo.por(credito)],
        &[tramo],
        plazo,
        Valor::MasSubcuenta(p.subcuenta),
        s,
        ahorro(s),
    )
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

fn ltv(p: &Persona) -> Decimal {
    match p.tipo {
        IncomeType::Independiente => LTV_INDEPENDIENTE,
        _ => LTV_ASALARIADO,
    }
}

fn plazo_banco(edad: Option<u32>, limite: u32) -> u32 {
    let maximo = u32::try_from(PLAZO_MAX_ANIOS.mantissa()).unwrap_or(20);
    plazo(maximo, limite, edad)
}

fn limite_banco() -> u32 {
    u32::try_from(EDAD_MAX_FIN_PLAZO.mantissa()).unwrap_or(75)
}

fn hipoteca_bancaria(s: &Solicitud, p: &Persona, co: Option<&Persona>) -> Evaluada {
    let h = hogar(p, co);
    let plazo = plazo_banco(h.edad, limite_banco());
    let tramo = Tramo::nuevo(TASA_ANUAL, plazo, BANCO_SEGUROS_MENSUAL, BANCO_COMISION_APERTURA);
    let pago = capacidad(PTI_MAX * h.ingreso, h.ingreso, h.deudas);
    let credito = tramo.credito_para(pago);
    let mut motivos = motivos_banco(p);
    sin_plazo_o_pago(&mut motivos, plazo, pago);
    if plazo > 0 && !pago.is_zero() && credito < BANCO_CREDITO_MIN {
        motivos.push(Motivo::CreditoMenorAlMinimo);
    }
    evaluada(
        Producto::HipotecaBancaria,
        motivos,
        &[tramo.por(credito)],
        &[tramo],
        plazo,
        Valor::Ltv(ltv(p)),
        s,
        ahorro(s),
    )
}

/// Cuenta Infonavit + Crédito Bancario: one payment capacity (the bank's) serves a credit that
/// is 70% bank and 30% INFONAVIT at 10.45%, INFONAVIT's part capped; the sub-account pays the
/// down payment. The term meets both the bank's and INFONAVIT's age limits.
fn infonavit_mas_banco(s: &Solicitud, p: &Persona, co: Option<&Persona>) -> Evaluada {
    let h = hogar(p, co);
    let plazo = plazo_banco(h.edad, limite_banco().min(INFONAVIT_EDAD_MAX_FIN_PLAZO));
    let banco = Tramo::nuevo(TASA_ANUAL, plazo, BANCO_SEGUROS_MENSUAL, BANCO_COMISION_APERTURA);
    let fondo = Tramo::nuevo(COFI_TASA_INFONAVIT, plazo, INFONAVIT_CARGO_MENSUAL, Decimal::ZERO);
    let parte_banco = Decimal::ONE - COFI_PARTE_INFONAVIT;
    let forma = [banco.por(parte_banco), fondo.por(COFI_PARTE_INFONAVIT)];
    let pago = capacidad(PTI_MAX * h.ingreso, h.ingreso, h.deudas);
    let por_peso = parte_banco * banco.cuota + COFI_PARTE_INFONAVIT * fondo.cuota;
    let total = if por_peso.is_zero() { Decimal::ZERO } else { pago / por_peso };
    let (de_banco, de_fondo) = if COFI_PARTE_INFONAVIT * total <= COFI_INFONAVIT_MAX {
        (parte_banco * total, COFI_PARTE_INFONAVIT * total)
    } else {
        (banco.credito_para(pago - COFI_INFONAVIT_MAX * fondo.cuota), COFI_INFONAVIT_MAX)
    };
    let mut motivos = motivos_banco(p);
    if !p.cotiza_a(Institucion::Infonavit) {
        motivos.push(Motivo::NoDerechohabienteInfonavit);
    } else if p.antiguedad < INFONAVIT_ANTIGUEDAD_MIN {
        motivos.push(Motivo::AntiguedadInsuficiente);
    }
    sin_plazo_o_pago(&mut motivos, plazo, pago);
    if plazo > 0 && !pago.is_zero() && de_banco < BANCO_CREDITO_MIN {
        motivos.push(Motivo::CreditoMenorAlMinimo);
    }
    let tramos = [banco.por(de_banco), fondo.por(de_fondo)];
    let fondos = ahorro(s) + p.subcuenta;
    evaluada(Producto::InfonavitMasBanco, motivos, &tramos, &forma, plazo, Valor::Ltv(LTV_ASALARIADO), s, fondos)
}

/// Unamos Créditos: each worker's own INFONAVIT credit, added and capped at the joint maximum
/// (both scaled alike when the cap binds); both sub-accounts are added to the value.
fn unamos_creditos(s: &Solicitud, p: &Persona, co: Option<&Persona>, del_titular: (Vec<Motivo>, Tramo)) -> Evaluada {
    let (mut motivos, titular) = del_titular;
    let Some(c) = co else {
        motivos.push(Motivo::SinCoacreditado);
        let plazo = titular.meses / 12;
        let forma = [titular.por(Decimal::ONE)];
        return evaluada(
            Producto::UnamosCreditos,
            motivos,
            &[],
            &forma,
            plazo,
            Valor::MasSubcuenta(Decimal::ZERO),
            s,
            ahorro(s),
        );
    };
    let (motivos_co, socio) = infonavit_de(c);
    if !motivos_co.is_empty() {
        motivos.push(Motivo::CoacreditadoNoElegible);
    }
    let suma = titular.credito + socio.credito;
    let escala = if suma > UNAMOS_CREDITO_MAX { UNAMOS_CREDITO_MAX / suma } else { Decimal::ONE };
    let tramos = [titular.por(titular.credito * escala), socio.por(socio.credito * escala)];
    let forma = [titular.por(Decimal::ONE)];
    let plazo = titular.meses.max(socio.meses) / 12;
    let subcuentas = Valor::MasSubcuenta(p.subcuenta + c.subcuenta);
    evaluada(Producto::UnamosCreditos, motivos, &tramos, &forma, plazo, subcuentas, s, ahorro(s))
}

/// Every product, in the order of [`Producto::ALL`].
pub(super) fn todas(s: &Solicitud) -> [Evaluada; 5] {
    let p = Persona::titular(s);
    let co = s.coacreditado.as_ref().map(Persona::coacreditado);
    // The applicant's INFONAVIT credit serves INFONAVIT and Unamos Créditos: computed once.
    let titular = infonavit_de(&p);
    [
        infonavit(s, &p, titular.clone()),
        fovissste(s, &p),
        hipoteca_bancaria(s, &p, co.as_ref()),
        infonavit_mas_banco(s, &p, co.as_ref()),
        unamos_creditos(s, &p, co.as_ref(), titular),
    ]
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
                let (motivos, tramo) = infonavit_de(&asalariado(Decimal::from(pesos), edad));
                let credito = if motivos.is_empty() { tramo.credito } else { Decimal::ZERO };
                assert!(credito >= anterior, "age {edad}, salary {pesos}: {credito} < {anterior}");
                anterior = credito;
            }
        }
    }
}
