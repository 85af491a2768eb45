//! An exact decimal figure as a calibration writes it: a TOML number (read from its shortest
//! decimal form, `0.1165` is exactly 0.1165) or, for more digits than a double keeps, a string
//! (`"0.116500000000000000001"`). Written back the same way, so a document read and written again
//! holds the same figures.

use rust_decimal::Decimal;
use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// An exact figure of the calibration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

impl<'de> Deserialize<'de> for Valor {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Valor, D::Error> {
        deserializer.deserialize_any(ValorVisitor)
    }
}

struct ValorVisitor;

impl Visitor<'_> for ValorVisitor {
    type Value = Valor;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("un número o un número decimal escrito como texto")
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Valor, E> {
        Ok(Valor(Decimal::from(v)))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Valor, E> {
        Ok(Valor(Decimal::from(v)))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Valor, E> {
        if !v.is_finite() {
            return Err(E::custom("el número no es finito"));
        }
        // The shortest text that reads back as this double: the digits the document wrote.
        Decimal::from_str(&v.to_string())
            .or_else(|_| Decimal::from_scientific(&format!("{v:e}")))
            .map(Valor)
            .map_err(|_| E::custom(format!("el número {v} no cabe en un decimal de 28 dígitos")))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Valor, E> {
        Decimal::from_str(v.trim())
            .map(Valor)
            .map_err(|_| E::custom(format!("«{v}» no es un número decimal")))
    }
}
