//! Loading a calibration: its document read and checked and its figures read
//! (`calibration::leer`, a leaf that computes no credit), then the tables of the products whose
//! terms depend only on the term ([`super::fijos`]) solved from those figures by the products'
//! own code (`evaluate::fijo_calculado`). It lives here, in the products' layer, so that the
//! calibration never calls up into the products; and the embedded calibration with it, which the
//! products' entry points without a calibration ([`super::evaluar`],
//! [`super::Producto::plazo_max`]) read.

use super::evaluate;
use super::fijos::{self, Fijo};
use crate::approx::Approx;
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
    c.productos.tablas = tablas(c);
    for otro in &mut c.otros_bancos {
        otro.productos.tablas = tablas_de(otro, &[Fijo::Banco]);
    }
}

/// Every fixed product's payment per peso and CAT by term (0 to its longest), in filtered
/// arithmetic; a term whose terms filtered arithmetic cannot decide ends its table there (the
/// products then compute them). INFONAVIT's are empty where they are not kept
/// ([`fijos::INFONAVIT_EN_TABLA`]).
fn tablas(c: &Cifras) -> [Vec<(Approx, Option<Approx>)>; Fijo::ALL.len()] {
    tablas_de(c, &Fijo::ALL)
}

/// [`tablas`] of `fijos` alone (the others empty): another bank product's figures need only
/// [`Fijo::Banco`]'s.
fn tablas_de(c: &Cifras, fijos: &[Fijo]) -> [Vec<(Approx, Option<Approx>)>; Fijo::ALL.len()] {
    Fijo::ALL.map(|fijo| {
        let guardada = fijos.contains(&fijo) && (fijos::INFONAVIT_EN_TABLA || !matches!(fijo, Fijo::InfonavitPiso | Fijo::InfonavitTope));
        if !guardada {
            return Vec::new();
        }
        (0..=c.productos.plazo_max_fijo(fijo))
            .map_while(|plazo| evaluate::fijo_calculado::<Approx>(c, fijo, plazo))
            .collect()
    })
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
