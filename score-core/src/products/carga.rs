//! Loading a calibration: its document read and checked and its figures read
//! (`calibration::leer`, a leaf that computes no credit), then the tables of the products whose
//! terms depend only on the term solved from those figures by the products' own code
//! ([`super::fijos`]). It lives here, in the products' layer, so that the calibration never
//! calls up into the products; and the embedded calibration with it, which the products' entry
//! points without a calibration ([`super::evaluar`], [`super::Producto::plazo_max`]) read.

use super::fijos::{self, Fijo};
use crate::calibration::{Calibration, EMBEDDED_TOML, leer};
use crate::cifras::Cifras;
use crate::error::ScoreError;
use std::sync::{Arc, OnceLock};

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
        let (documento, mut cifras) = leer(text)?;
        resolver_tablas(&mut cifras);
        Ok(Calibration { documento: Arc::new(documento), cifras: Arc::new(cifras) })
    }

    /// The calibration embedded in the crate: the figures in force that the model ships with.
    /// Cloning it shares the one read on first use.
    pub fn embedded() -> Calibration {
        incluida().clone()
    }
}

impl Default for Calibration {
    fn default() -> Self {
        Calibration::embedded()
    }
}

impl Cifras {
    /// The embedded calibration's figures (`calibration/mx-2026.toml`, read on first use and
    /// kept for the life of the process, see [`incluida`]).
    pub(crate) fn incluidas() -> &'static Cifras {
        incluida().cifras_modelo()
    }
}

/// The fixed products' terms for every term they grant, in `c` and in each of its other bank
/// products' figures (only the bank's table there: no other product is evaluated under them).
fn resolver_tablas(c: &mut Cifras) {
    c.productos.tablas = fijos::tablas(c);
    for otro in &mut c.otros_bancos {
        otro.productos.tablas = fijos::tablas_de(otro, &[Fijo::Banco]);
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
        // `tests/calibration.rs` reads the embedded text: it cannot fail here.
        #[allow(clippy::expect_used)]
        Calibration::from_toml(EMBEDDED_TOML).expect("the embedded calibration is valid (tests/calibration.rs)")
    })
}
