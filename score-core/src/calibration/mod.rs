//! The calibration: every figure of the Mexican market the model reads (minimum wage, UMA,
//! poverty line, curves, state table, closing costs, each credit product's rules), as one
//! human-edited TOML document with each figure's source or the reason of its estimate.
//!
//! The calibration is a leaf of the crate that everything reads and that reads nothing of the
//! model: the document's shape, its reader and its checks (`documento`, `leer`, `validar`), the
//! figures read from it (`crate::cifras::Cifras`), and the credit products' rules as plain data
//! (`producto`, `clave`, `reglas`). A [`Calibration`] holds the checked document and its
//! figures. Loading one ([`Calibration::from_toml`]) also has the products solve the tables of
//! their fixed terms, so that code sits in the products' layer, above this one:
//! `products::carga` reads the document here ([`leer`]) and completes the figures. The
//! default, [`Calibration::default`], is the embedded `calibration/mx-2026.toml`, so every
//! surface works with no file. A bad document is refused with `CALIBRATION_INVALID`, the path
//! of the key at fault (`productos[2].tasa_anual`) as the error's `field` and a Spanish message.

mod cifras;
pub(crate) mod clave;
pub(crate) mod documento;
pub(crate) mod incluida;
pub(crate) mod lectura;
mod leer;
pub(crate) mod producto;
pub(crate) mod reglas;
mod ruta;
mod validar;
mod valor;

use crate::cifras::Cifras;
use crate::error::ScoreError;
use documento::Documento;
use std::sync::Arc;

pub use incluida::{EMBEDDED_ID, EMBEDDED_TOML};

/// A checked calibration document and the figures read from it. Build it with
/// [`Calibration::from_toml`] or take the embedded one with [`Calibration::default`] (both in
/// `products::carga`). Two calibrations are equal when their documents are. Cloning shares the
/// figures.
#[derive(Debug, Clone)]
pub struct Calibration {
    pub(crate) documento: Arc<Documento>,
    pub(crate) cifras: Arc<Cifras>,
}

impl PartialEq for Calibration {
    fn eq(&self, other: &Self) -> bool {
        self.documento == other.documento
    }
}

impl Eq for Calibration {}

impl Calibration {
    /// The figures the model computes with under this calibration.
    pub(crate) fn cifras_modelo(&self) -> &Cifras {
        &self.cifras
    }

    /// The name of this set of figures: the `calibracion` of every report made with it.
    pub fn id(&self) -> &str {
        &self.documento.id
    }

    /// The date from which its figures apply, `AAAA-MM-DD`.
    pub fn vigente_desde(&self) -> &str {
        &self.documento.vigente_desde
    }

    /// The document written back as TOML: read again, it is the same calibration.
    pub fn to_toml(&self) -> String {
        // Every value of the document is a string, a number, a table or an array of them.
        #[allow(clippy::expect_used)]
        toml::to_string(&*self.documento).expect("a calibration always writes as TOML")
    }

    /// Every figure by the path of its key (`productos[2].tasa_anual`,
    /// `curvas.deudas.puntos[3][1]`), in document order.
    pub fn cifras(&self) -> Vec<(String, rust_decimal::Decimal)> {
        cifras::de(&self.documento)
    }

    /// One figure by the path of its key, as [`Calibration::cifras`] names it
    /// (`estados[8].precio_m2`, `productos[2].tasa_anual`); `None` when the document has none.
    pub fn cifra(&self, path: &str) -> Option<rust_decimal::Decimal> {
        self.cifras().into_iter().find(|(p, _)| p == path).map(|(_, v)| v)
    }

    /// The document as JSON (for `GET /api/v1/calibracion`): every figure with its source.
    pub fn to_json_value(&self) -> serde_json::Value {
        serde_json::to_value(&*self.documento).unwrap_or(serde_json::Value::Null)
    }
}

/// A checked document of a TOML text and its figures, the fixed products' tables not yet solved
/// (`products::carga` solves them and builds the [`Calibration`]).
///
/// # Errors
/// `CALIBRATION_INVALID`, as [`Calibration::from_toml`] says.
pub(crate) fn leer(text: &str) -> Result<(Documento, Cifras), ScoreError> {
    let documento = leer::documento(text)?;
    validar::documento(&documento)?;
    let cifras = Cifras::de(&documento);
    Ok((documento, cifras))
}
