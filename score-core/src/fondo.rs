//! The housing funds' base (INFONAVIT, FOVISSSTE): the payroll salary they collect and lend on,
//! and a borrower's sub-account balance. The score's components and the credit products both
//! read them, so they sit below both, on the calibration's figures alone.

use crate::cifras::Cifras;
use crate::fast_decimal::{Orden, por};
use crate::profile::IncomeType;
use rust_decimal::Decimal;

/// One borrower's housing-fund balance: the declared one, or 5% of the (capped) payroll income
/// for each month of seniority (at most 360); zero for self-employed buyers and pensioners.
pub(crate) fn subcuenta_de(
    c: &Cifras,
    tipo: IncomeType,
    ingreso: Decimal,
    antiguedad_meses: u32,
    declarada: Option<Decimal>,
) -> Decimal {
    if let Some(declarada) = declarada {
        return declarada;
    }
    // Months are whole: capped as integers, not compared as decimals.
    let meses = Decimal::from(i128::from(antiguedad_meses).min(c.meses_fondo_max));
    por(
        por(
            c.aportacion_fondo,
            Orden(salario_de_nomina(c, tipo, ingreso))
                .min(Orden(c.tope_salario_mensual))
                .0,
        ),
        meses,
    )
}

/// The payroll salary of an income, on which the housing funds collect and lend: all of a
/// salaried income, the payroll share of a mixed one, nothing for the self-employed and
/// pensioners (no contributions).
pub(crate) fn salario_de_nomina(c: &Cifras, tipo: IncomeType, ingreso: Decimal) -> Decimal {
    match tipo {
        IncomeType::Asalariado => ingreso,
        IncomeType::Mixto => por(ingreso, c.proporcion_salario_mixto),
        IncomeType::Independiente | IncomeType::Pensionado => Decimal::ZERO,
    }
}
