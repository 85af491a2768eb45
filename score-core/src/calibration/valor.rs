//! An exact decimal figure as a calibration writes it: a TOML number (read from its shortest
//! decimal form, `0.1165` is exactly 0.1165) or, for more digits than a double keeps, a string
//! (`"0.116500000000000000001"`). Written back the same way, so a document read and written again
//! holds the same figures.

use rust_decimal::Decimal;
use serde::{Serialize, Serializer};
use std::str::FromStr;

/// An exact figure of the calibration.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Valor(pub Decimal);

impl Valor {
    /// The figure as a double whose shortest form is its exact digits, when there is one.
    fn como_doble(self) -> Option<f64> {
        let doble: f64 = self.0.to_string().parse().ok()?;
        let vuelta = Decimal::from_str(&doble.to_string()).ok()?;
        (vuelta == self.0 && doble.is_finite()).then_some(doble)
    }
}

impl Serialize for Valor {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let d = self.0.normalize();
        if d.scale() == 0 {
            if let Ok(entero) = i64::try_from(d.mantissa()) {
                return serializer.serialize_i64(entero);
            }
        }
        match self.como_doble() {
            Some(doble) => serializer.serialize_f64(doble),
            None => serializer.serialize_str(&d.to_string()),
        }
    }
}

impl Valor {
    /// A TOML integer, as its digits in `radix`.
    pub(super) fn de_entero(digitos: &str, radix: u32) -> Result<Valor, String> {
        i64::from_str_radix(digitos, radix)
            .map(Decimal::from)
            .or_else(|_| u64::from_str_radix(digitos, radix).map(Decimal::from))
            .map(Valor)
            .map_err(|_| format!("el número {digitos} no cabe en un decimal de 28 dígitos"))
    }

    /// A TOML float: the shortest text that reads back as its double, the digits the document
    /// wrote (a double keeps some 15 of them; more are written as text, `de_texto`).
    pub(super) fn de_doble(texto: &str) -> Result<Valor, String> {
        let v: f64 = texto.parse().map_err(|_| format!("«{texto}» no es un número"))?;
        if !v.is_finite() {
            return Err("el número no es finito".to_owned());
        }
        Decimal::from_str(&v.to_string())
            .or_else(|_| Decimal::from_scientific(&format!("{v:e}")))
            .map(Valor)
            .map_err(|_| format!("el número {v} no cabe en un decimal de 28 dígitos"))
    }

    /// A figure written as text, for more digits than a double keeps.
    pub(super) fn de_texto(v: &str) -> Result<Valor, String> {
        Decimal::from_str(v.trim()).map(Valor).map_err(|_| format!("«{v}» no es un número decimal"))
    }
}
