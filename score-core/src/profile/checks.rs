//! The ranges of a profile (MODEL.md, "Input"), checked whole: every field's first mistake,
//! from the one table of messages ([`Falla`]). The JSON reader runs them on what it read,
//! skipping the fields it could not read ([`Fallidos`]); [`Profile::validate`] on a whole
//! profile. On a valid profile nothing is allocated: the list stays empty.

use crate::error::{ErrorDetail, Falla, ScoreError};
use crate::fast_decimal::Orden;
use crate::profile::input::slot;
use crate::params::{
    ANTIGUEDAD_MAX_MESES, EDAD_MAX, EDAD_MIN, MONTO_MENSUAL_MAX, MONTO_MINIMO, PERSONAS_HOGAR_MAX, SALDO_MAX,
};
use crate::profile::{COACREDITADO_FIELDS, Coacreditado, Profile};
use rust_decimal::Decimal;

/// The fields with a mistake already (read or checked), one bit each: the profile's by their
/// slot in [`crate::FIELDS`], the co-borrower's from [`Fallidos::COACREDITADO`] on, by their
/// place in [`COACREDITADO_FIELDS`]. A field's later checks, and the checks that compare it
/// with another field, are left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Fallidos(u32);

impl Fallidos {
    /// No field has a mistake.
    pub(crate) const NINGUNO: Fallidos = Fallidos(0);
    /// The first bit of the co-borrower's fields.
    pub(crate) const COACREDITADO: usize = 16;

    pub(crate) fn has(self, bit: usize) -> bool {
        self.0 & (1 << bit) != 0
    }

    pub(crate) fn set(&mut self, bit: usize) {
        self.0 |= 1 << bit;
    }

    /// Runs `check` on the field of `bit` unless it has a mistake; a mistake found is listed
    /// and marks the field.
    fn run(&mut self, bit: usize, out: &mut Vec<ErrorDetail>, check: impl FnOnce() -> Result<(), ErrorDetail>) {
        if self.has(bit) {
            return;
        }
        if let Err(e) = check() {
            out.push(e);
            self.set(bit);
        }
    }
}

/// The bit of a co-borrower's field.
const fn co(field: usize) -> usize {
    Fallidos::COACREDITADO + field
}

/// Places of the co-borrower's fields in [`COACREDITADO_FIELDS`].
mod co_slot {
    pub const INGRESO_MENSUAL: usize = 0;
    pub const ANTIGUEDAD_MESES: usize = 2;
    pub const EDAD: usize = 3;
    pub const DEUDAS_MENSUALES: usize = 4;
    pub const SUBCUENTA_FONDO: usize = 5;
}

impl Profile {
    /// Checks every range of the model (see MODEL.md, "Input") and reports every mistake, in
    /// the order of step 3 of [`Profile::from_json_value`]. [`crate::score`] calls it, so a
    /// profile built field by field in Rust gets the same errors as one parsed from JSON. It
    /// allocates nothing when the profile is valid.
    pub fn validate(&self) -> Result<(), ScoreError> {
        let mut errores = Vec::new();
        self.check(Fallidos::NINGUNO, &mut errores);
        match ScoreError::from_errors(errores) {
            None => Ok(()),
            Some(e) => Err(e),
        }
    }

    /// Lists the range mistakes of the fields without one yet (`fallidos`), in [`crate::FIELDS`]
    /// order, then the co-borrower's.
    pub(crate) fn check(&self, mut f: Fallidos, out: &mut Vec<ErrorDetail>) {
        f.run(slot::INGRESO_MENSUAL, out, || {
            amount("ingreso_mensual", self.ingreso_mensual, MONTO_MENSUAL_MAX)?;
            positive("ingreso_mensual", self.ingreso_mensual)
        });
        f.run(slot::ANTIGUEDAD_MESES, out, || {
            count_in("antiguedad_meses", self.antiguedad_meses, Decimal::ZERO, ANTIGUEDAD_MAX_MESES)
        });
        if let Some(d) = self.deudas_mensuales {
            f.run(slot::DEUDAS_MENSUALES, out, || amount("deudas_mensuales", d, MONTO_MENSUAL_MAX));
        }
        f.run(slot::AHORRO, out, || amount("ahorro", self.ahorro, SALDO_MAX));
        if let Some(edad) = self.edad {
            f.run(slot::EDAD, out, || count_in("edad", edad, EDAD_MIN, EDAD_MAX));
        }
        if let Some(p) = self.personas_hogar {
            f.run(slot::PERSONAS_HOGAR, out, || count_in("personas_hogar", p, Decimal::ONE, PERSONAS_HOGAR_MAX));
        }
        if let Some(s) = self.subcuenta_fondo {
            f.run(slot::SUBCUENTA_FONDO, out, || amount("subcuenta_fondo", s, SALDO_MAX));
        }
        if let Some(c) = &self.coacreditado {
            if !f.has(slot::COACREDITADO) {
                c.check(self, f, out);
            }
        }
    }
}

impl Coacreditado {
    /// The co-borrower's ranges, and how its income and debts fit in the household's.
    fn check(&self, hogar: &Profile, mut f: Fallidos, out: &mut Vec<ErrorDetail>) {
        use co_slot::*;
        const INGRESO: &str = "coacreditado.ingreso_mensual";
        const DEUDAS: &str = "coacreditado.deudas_mensuales";
        let household_income_read = !f.has(slot::INGRESO_MENSUAL);
        f.run(co(INGRESO_MENSUAL), out, || {
            amount(INGRESO, self.ingreso_mensual, MONTO_MENSUAL_MAX)?;
            positive(INGRESO, self.ingreso_mensual)?;
            if household_income_read && self.ingreso_mensual >= hogar.ingreso_mensual {
                return Err(Falla::IngresoCoacreditado.en(Some(INGRESO), &[("max", &hogar.ingreso_mensual)]));
            }
            Ok(())
        });
        f.run(co(ANTIGUEDAD_MESES), out, || {
            count_in("coacreditado.antiguedad_meses", self.antiguedad_meses, Decimal::ZERO, ANTIGUEDAD_MAX_MESES)
        });
        if let Some(edad) = self.edad {
            f.run(co(EDAD), out, || count_in("coacreditado.edad", edad, EDAD_MIN, EDAD_MAX));
        }
        if let Some(d) = self.deudas_mensuales {
            let household_debts = (!f.has(slot::DEUDAS_MENSUALES)).then_some(hogar.deudas_mensuales);
            f.run(co(DEUDAS_MENSUALES), out, || {
                amount(DEUDAS, d, MONTO_MENSUAL_MAX)?;
                match household_debts {
                    // The household's debts have a mistake of their own.
                    None => Ok(()),
                    Some(None) => Err(Falla::DeudasSinLasDelHogar.en(Some("deudas_mensuales"), &[])),
                    Some(Some(del_hogar)) if d > del_hogar => {
                        Err(Falla::DeudasCoacreditado.en(Some(DEUDAS), &[("max", &del_hogar)]))
                    }
                    Some(Some(_)) => Ok(()),
                }
            });
        }
        if let Some(s) = self.subcuenta_fondo {
            f.run(co(SUBCUENTA_FONDO), out, || amount("coacreditado.subcuenta_fondo", s, SALDO_MAX));
        }
        debug_assert_eq!(COACREDITADO_FIELDS[SUBCUENTA_FONDO], "subcuenta_fondo");
    }
}

/// VALUE_OUT_OF_RANGE for a count outside the documented range of `field` (its path).
pub(crate) fn count_range_error(field: &str) -> ErrorDetail {
    let (min, max) = match field.strip_prefix("coacreditado.").unwrap_or(field) {
        "edad" => (EDAD_MIN, EDAD_MAX),
        "personas_hogar" => (Decimal::ONE, PERSONAS_HOGAR_MAX),
        _ => (Decimal::ZERO, ANTIGUEDAD_MAX_MESES),
    };
    Falla::FueraDeIntervalo.en(Some(field), &[("min", &min), ("max", &max)])
}

fn count_in(field: &str, value: u32, min: Decimal, max: Decimal) -> Result<(), ErrorDetail> {
    // The bounds are whole numbers written without decimals: their mantissas are their values,
    // compared as integers, not as decimals.
    debug_assert!(min.scale() == 0 && max.scale() == 0);
    let v = i128::from(value);
    if v < min.mantissa() || v > max.mantissa() { Err(count_range_error(field)) } else { Ok(()) }
}

fn positive(field: &str, value: Decimal) -> Result<(), ErrorDetail> {
    if value.is_zero() { Err(Falla::NoMayorQueCero.en(Some(field), &[])) } else { Ok(()) }
}

fn amount(field: &str, value: Decimal, max: Decimal) -> Result<(), ErrorDetail> {
    // Compared in integers (`Orden`): every report validates its amounts.
    if value.is_sign_negative() && !value.is_zero() {
        return Err(Falla::Negativo.en(Some(field), &[]));
    }
    if Orden(value) > Orden(max) {
        return Err(Falla::Excede.en(Some(field), &[("max", &max)]));
    }
    if !value.is_zero() && Orden(value) < Orden(MONTO_MINIMO) {
        return Err(Falla::MenorQueCentavo.en(Some(field), &[("min", &MONTO_MINIMO)]));
    }
    Ok(())
}
