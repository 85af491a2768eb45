//! How the figures read a document's values: a curve, a whole number, and a figure that may
//! differ by income type ([`PorTipo`]). Shared by the general figures (`crate::cifras`) and the
//! products' rules (`reglas`).

use super::documento::{Cifra, Curva};
use crate::curve::Curve;
use crate::profile::IncomeType;
use rust_decimal::Decimal;

/// A figure that may differ by income type (`ltv_max`, `antiguedad_min_meses`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PorTipo<T> {
    pub asalariado: T,
    pub mixto: T,
    pub pensionado: T,
    pub independiente: T,
}

impl<T: Copy> PorTipo<T> {
    pub fn de(&self, tipo: IncomeType) -> T {
        match tipo {
            IncomeType::Asalariado => self.asalariado,
            IncomeType::Mixto => self.mixto,
            IncomeType::Pensionado => self.pensionado,
            IncomeType::Independiente => self.independiente,
        }
    }

    pub fn map<U: Copy>(&self, f: impl Fn(T) -> U) -> PorTipo<U> {
        PorTipo {
            asalariado: f(self.asalariado),
            mixto: f(self.mixto),
            pensionado: f(self.pensionado),
            independiente: f(self.independiente),
        }
    }
}

/// A curve of the document.
pub(crate) fn curva(c: &Curva) -> Curve {
    Curve::de_puntos(c.puntos.iter().map(|(x, y)| (x.0, y.0)).collect())
}

/// A whole figure (years, months, a count) as `u32`; the document checked it is one.
pub(crate) fn entero(d: Decimal) -> u32 {
    u32::try_from(d.trunc().mantissa()).unwrap_or(u32::MAX)
}

/// A figure that may differ by income type: `valor` for the types it does not name.
pub(crate) fn por_tipo(c: &Cifra) -> PorTipo<Decimal> {
    let base = c.valor.0;
    PorTipo {
        asalariado: base,
        mixto: c.mixto.map_or(base, |v| v.0),
        pensionado: c.pensionado.map_or(base, |v| v.0),
        independiente: c.independiente.map_or(base, |v| v.0),
    }
}
