//! The calibration: every figure of the Mexican market the model reads (minimum wage, UMA,
//! poverty line, curves, state table, closing costs, each credit product's rules), as one
//! human-edited TOML document with each figure's source or the reason of its estimate.
//!
//! The document's shape, its reader and its checks (`documento`, `leer`, `validar`) are a leaf of the crate that
//! knows nothing of the model; a [`Calibration`] holds the checked document and the figures the
//! model computes with (`crate::cifras::Cifras`), read from it once when it is loaded. The
//! default, [`Calibration::default`], is the embedded `calibration/mx-2026.toml`, so every
//! surface works with no file. A bad document is refused with `CALIBRATION_INVALID`, the path
//! of the key at fault (`productos[2].tasa_anual`) as the error's `field` and a Spanish message.

mod cifras;
pub(crate) mod documento;
mod leer;
mod validar;
mod valor;

use crate::cifras::Cifras;
use crate::error::ScoreError;
use documento::Documento;
use std::sync::{Arc, OnceLock};

/// The embedded calibration's text, `score-core/calibration/mx-2026.toml`.
pub const EMBEDDED_TOML: &str = include_str!("../../calibration/mx-2026.toml");

/// A checked calibration document and the figures read from it. Build it with
/// [`Calibration::from_toml`] or take the embedded one with [`Calibration::default`]. Two
/// calibrations are equal when their documents are. Cloning shares the figures.
#[derive(Debug, Clone)]
pub struct Calibration {
    pub(crate) documento: Arc<Documento>,
    cifras: Arc<Cifras>,
}

impl PartialEq for Calibration {
    fn eq(&self, other: &Self) -> bool {
        self.documento == other.documento
    }
}

impl Eq for Calibration {}

impl Calibration {
    /// Reads and checks a calibration written as TOML.
    ///
    /// # Errors
    /// `CALIBRATION_INVALID`, with the key at fault as `field`: text that is not TOML, a key
    /// the document does not know or one it misses, a value of the wrong type, a figure out of
    /// its range (a negative or impossible rate), a curve that is not monotone, a product
    /// without the keys its `tipo` needs or with a repeated `clave`, a figure without its source.
    /// Any valid document scores with its own figures.
    pub fn from_toml(text: &str) -> Result<Calibration, ScoreError> {
        let documento = leer::documento(text)?;
        validar::documento(&documento)?;
        let cifras = Arc::new(Cifras::de(&documento));
        Ok(Calibration { documento: Arc::new(documento), cifras })
    }

    /// The calibration embedded in the crate: the figures in force that the model ships with.
    /// Cloning it shares the one read on first use.
    pub fn embedded() -> Calibration {
        incluida().clone()
    }

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

    /// The document as JSON (for `GET /api/v1/calibracion`): every figure with its source.
    pub fn to_json_value(&self) -> serde_json::Value {
        serde_json::to_value(&*self.documento).unwrap_or(serde_json::Value::Null)
    }
}

impl Default for Calibration {
    fn default() -> Self {
        Calibration::embedded()
    }
}

/// The embedded calibration, `calibration/mx-2026.toml` read and checked on first use and kept
/// for the life of the process: the only definition of the default figures. An immutable
/// constant computed once (a `OnceLock` is written exactly once, before anyone reads it), so
/// `score(profile)` with no calibration reads figures no call can change and the model stays a
/// pure function of its inputs and the figures.
pub(crate) fn incluida() -> &'static Calibration {
    static INCLUIDA: OnceLock<Calibration> = OnceLock::new();
    INCLUIDA.get_or_init(|| {
        // `calibration::tests` reads the embedded text: it cannot fail here.
        #[allow(clippy::expect_used)]
        Calibration::from_toml(EMBEDDED_TOML).expect("the embedded calibration is valid (tests/calibration.rs)")
    })
}
