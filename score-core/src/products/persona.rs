//! The applicant and the co-borrower as the products' rules read them: each borrower's income,
//! seniority, age, debts and housing-fund balance (`Persona`), the payment a product allows
//! within the total-debt limit (`Capacidad`), what every offer reads of the buyer besides its
//! credits (`Comprador`), and the term age leaves. All of it in `Decimal` or converted once;
//! the credits and offers built on it are in [`super::evaluate`].

use super::numero::Numero;
use super::tipos::Solicitud;
use crate::profile::{Coacreditado, Institucion};
use crate::cifras::Cifras;
use crate::fast_decimal::{Orden, por};
use crate::profile::IncomeType;
use rust_decimal::Decimal;

/// One borrower as the housing funds see them. Amounts stay `Decimal`: the capacities below
/// are short exact expressions of them.
#[derive(Debug, Clone, Copy)]
pub(super) struct Persona {
    pub ingreso: Decimal,
    /// The payroll salary the funds lend on (`fondo::salario_de_nomina`).
    salario: Decimal,
    pub tipo: IncomeType,
    pub antiguedad: u32,
    pub edad: Option<u32>,
    pub deudas: Decimal,
    pub subcuenta: Decimal,
    pub institucion: Option<Institucion>,
    /// The payment the total-debt limit leaves: `DTI_TOTAL_MAX × ingreso − deudas`.
    pub tope: Decimal,
}

impl Persona {
    pub fn titular(c: &Cifras, s: &Solicitud) -> Persona {
        Persona::nueva(
            c,
            no_negativo(s.ingreso_mensual),
            s.tipo_ingreso,
            s.antiguedad_meses,
            s.edad,
            no_negativo(s.deudas_mensuales),
            no_negativo(s.subcuenta_fondo),
            s.institucion,
        )
    }

    pub fn coacreditado(cifras: &Cifras, c: &Coacreditado) -> Persona {
        Persona::nueva(
            cifras,
            no_negativo(c.ingreso_mensual),
            c.tipo_ingreso,
            c.antiguedad_meses,
            c.edad,
            no_negativo(c.deudas_mensuales.unwrap_or(Decimal::ZERO)),
            subcuenta_coacreditado(cifras, c),
            c.institucion,
        )
    }

    #[allow(clippy::too_many_arguments)]
    pub fn nueva(
        c: &Cifras,
        ingreso: Decimal,
        tipo: IncomeType,
        antiguedad: u32,
        edad: Option<u32>,
        deudas: Decimal,
        subcuenta: Decimal,
        institucion: Option<Institucion>,
    ) -> Persona {
        let salario = crate::fondo::salario_de_nomina(c, tipo, ingreso);
        Persona {
            ingreso,
            salario,
            tipo,
            antiguedad,
            edad,
            deudas,
            subcuenta,
            institucion,
            tope: tope(c, ingreso, deudas),
        }
    }

    /// The payroll salary the funds lend on (`fondo::salario_de_nomina`).
    pub fn salario(&self) -> Decimal {
        self.salario
    }

    /// A payroll worker who contributes to `fondo` (an undeclared fund is INFONAVIT).
    pub fn cotiza_a(&self, fondo: Institucion) -> bool {
        cotiza_a(self.tipo, self.institucion, fondo)
    }
}

/// Whether a borrower of income type `tipo` and declared fund `institucion` contributes to
/// `fondo`: a payroll worker (salaried or mixed) whose fund is `fondo`, an undeclared one being
/// INFONAVIT.
pub(crate) fn cotiza_a(tipo: IncomeType, institucion: Option<Institucion>, fondo: Institucion) -> bool {
    let nomina = matches!(tipo, IncomeType::Asalariado | IncomeType::Mixto);
    nomina && institucion.unwrap_or(Institucion::Infonavit) == fondo
}

/// The co-borrower's housing-fund balance, declared or estimated (a negative one counts as none).
pub(super) fn subcuenta_coacreditado(cifras: &Cifras, c: &Coacreditado) -> Decimal {
    no_negativo(crate::fondo::subcuenta_de(
        cifras,
        c.tipo_ingreso,
        c.ingreso_mensual,
        c.antiguedad_meses,
        c.subcuenta_fondo,
    ))
}

/// A negative amount counts as none (a test on the sign, not a decimal comparison).
pub(super) fn no_negativo(d: Decimal) -> Decimal {
    if d.is_sign_negative() { Decimal::ZERO } else { d }
}

/// The payment the total-debt limit leaves of an income with its debts.
pub(super) fn tope(c: &Cifras, ingreso: Decimal, deudas: Decimal) -> Decimal {
    por(c.dti_total_max, ingreso) - deudas
}

/// The payment a product allows, and whether the total-debt limit set it (then fewer debts
/// would raise it; otherwise they change nothing of the product).
#[derive(Debug, Clone, Copy)]
pub(super) struct Capacidad {
    pub pago: Decimal,
    pub por_deudas: bool,
}

/// The payment a product allows: `base` (its payment-to-income limit applied), within `tope`
/// (the total-debt limit on the whole income, [`tope`]), never negative. In `Decimal` in both
/// arithmetics: it often ends in exactly half a centavo (0.30 × 76,772.85 = 23,031.855), a
/// tie only exact arithmetic rounds right, and it is shown as the monthly payment of an
/// uncapped credit. Inlined natively: its operands are products just computed, which a call
/// passes through memory and reads back across their pieces (a stalled read, as `evaluada`'s).
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub(super) fn capacidad(base: Decimal, tope: Decimal) -> Capacidad {
    let por_deudas = Orden(tope) < Orden(base);
    Capacidad { pago: no_negativo(if por_deudas { tope } else { base }), por_deudas }
}

/// What every offer reads of the buyer besides its credits, converted once: the savings (a
/// negative amount counts as none) and the state's closing costs as a share of the value.
#[derive(Debug, Clone, Copy)]
pub(super) struct Comprador<'a, N> {
    pub ahorro: N,
    pub gastos_cierre: N,
    /// The calibration's figures every rule reads.
    pub cifras: &'a Cifras,
    /// The offers are only ranked, by a what-if that shows the recommended credit alone
    /// (`super::recomendacion_en` in filtered arithmetic): their rate, total paid and CAT
    /// flows, which no ranking reads but a CAT that breaks a tie, are not worked out (see
    /// `cat::CatPendiente::Omitido`).
    pub ligera: bool,
}

impl<'a, N: Numero> Comprador<'a, N> {
    pub fn de(c: &'a Cifras, s: &Solicitud) -> Comprador<'a, N> {
        Comprador {
            ahorro: N::de(no_negativo(s.ahorro)),
            gastos_cierre: N::reglas(c).gastos_cierre[usize::from(s.estado.inegi() - 1)],
            cifras: c,
            ligera: false,
        }
    }
}

/// Whole years of term: the product's longest, shortened so that age plus term stays within
/// `limite`.
pub(super) fn plazo(maximo: u32, limite: u32, edad: Option<u32>) -> u32 {
    edad.map_or(maximo, |e| limite.saturating_sub(e).min(maximo))
}
