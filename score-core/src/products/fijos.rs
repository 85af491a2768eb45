//! The terms of the products whose rate and charges are fixed (FOVISSSTE, the bank mortgage,
//! Cuenta Infonavit + Crédito Bancario, INFONAVIT below its first salary band and above its
//! last), kept per whole-year term for the filtered arithmetic.
//!
//! Their payment per peso and their CAT depend on nothing but the term: the CAT is a root
//! solved in doubles and certified (see `finance::cat_filtrado`), which is most of what an
//! applicant costs, so the filtered path reads them from tables solved once, when a
//! calibration is loaded (`products::carga`), by the same code the products run
//! (`evaluate::fijo_calculado`), instead of solving them again for every applicant. Decimal
//! arithmetic, the definition, never reads them.

use crate::approx::Approx;
pub(super) use crate::calibration::producto::Fijo;
use crate::cifras::Cifras;

/// Whether INFONAVIT's terms at a fixed rate ([`Fijo::InfonavitPiso`], [`Fijo::InfonavitTope`])
/// are kept: natively only. WebAssembly computes them (the same figures), and does not test a
/// salary for them either (`ofertas::tasa_fija`): that test would cost part of its size budget.
pub(super) const INFONAVIT_EN_TABLA: bool = !cfg!(target_arch = "wasm32");

/// The payment per peso and the CAT of `fijo` for a term of `plazo` years, as computed by
/// `evaluate::fijo_calculado` in filtered arithmetic; `None` for a term beyond the table.
pub(super) fn fila(c: &Cifras, fijo: Fijo, plazo: u32) -> Option<(Approx, Option<Approx>)> {
    c.productos.tablas[fijo as usize]
        .get(plazo as usize)
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::products::evaluate::fijo_calculado;

    /// Every term of every product is kept (filtered arithmetic decides them all for the
    /// embedded calibration), and each row is what the products compute.
    #[test]
    fn tables_cover_every_product_term() {
        let c = Cifras::incluidas();
        for fijo in Fijo::ALL {
            assert!(fila(c, fijo, c.productos.plazo_max_fijo(fijo)).is_some(), "{fijo:?}");
            assert_eq!(fila(c, fijo, c.productos.plazo_max_fijo(fijo) + 1), None);
            for plazo in 0..=c.productos.plazo_max_fijo(fijo) {
                assert_eq!(
                    fila(c, fijo, plazo),
                    fijo_calculado::<Approx>(c, fijo, plazo),
                    "{fijo:?} {plazo}"
                );
            }
        }
    }
}
