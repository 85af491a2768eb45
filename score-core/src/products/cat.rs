//! A product's CAT (Banxico's total annual cost): where it comes from, the flows it is solved
//! from, and one solved or still to solve. Solving it is most of a product's cost, so it is
//! kept pending until shown or until it breaks a tie ([`super::evaluate::resolver_cats`]).

use super::fijos::Fijo;
use super::finance::Flujo;
use super::numero::Numero;
use super::tramo::{Tramo, suma};

/// Where a product's CAT comes from.
#[derive(Debug, Clone, Copy)]
pub(super) enum Cat<N> {
    /// Solved from its payments.
    Calcular,
    /// Its shape is a fixed product's for the term (the CAT does not depend on the amount:
    /// fees and insurance are proportional to the credit), which the arithmetic may keep.
    Fijo(Fijo),
    /// INFONAVIT's own: the same terms.
    ComoInfonavit(CatPendiente<N>),
}

/// What a CAT is solved from: the credits received less the fees at signing, and the monthly
/// payments (one level payment per credit).
#[derive(Debug, Clone, Copy)]
pub(super) struct FlujosCat<N> {
    neto: N,
    flujos: [Flujo<N>; 2],
    n: usize,
}

impl<N: Numero> FlujosCat<N> {
    /// The flows of the credits `base` (at most two).
    pub fn de(base: &[Tramo<N>]) -> Option<FlujosCat<N>> {
        let neto = suma(base, |t| t.credito) - suma(base, |t| t.credito * t.comision);
        let mut flujos = [Flujo { pago: N::entero(0), meses: 0 }; 2];
        for (f, t) in flujos.get_mut(..base.len())?.iter_mut().zip(base) {
            *f = Flujo { pago: t.pago_valor, meses: t.meses };
        }
        Some(FlujosCat { neto, flujos, n: base.len() })
    }

    fn cat(&self) -> Option<Option<N>> {
        N::cat(self.neto, &self.flujos[..self.n])
    }
}

/// A product's CAT, solved or still to solve: solving it is most of a product's cost, and a
/// what-if needs it only where it breaks a tie.
#[derive(Debug, Clone, Copy)]
pub(super) enum CatPendiente<N> {
    Listo(Option<N>),
    Flujos(FlujosCat<N>),
    /// INFONAVIT's own CAT (Unamos Créditos without a co-borrower has its terms):
    /// [`resolver_cats`](super::evaluate::resolver_cats) copies the one it solved rather than
    /// solving it twice.
    ComoInfonavit(FlujosCat<N>),
    /// Not kept: an offer evaluated only to be ranked
    /// ([`Comprador::ligera`](super::persona::Comprador::ligera)), whose CAT is needed only
    /// where it breaks a tie; [`CatPendiente::valor`] then cannot tell, and the caller
    /// evaluates the products again in `Decimal`, where every CAT is kept.
    Omitido,
}

impl<N: Numero> CatPendiente<N> {
    /// The CAT (`None` inside when no term is left), solving it if pending; `None` when the
    /// arithmetic cannot tell.
    pub fn valor(&self) -> Option<Option<N>> {
        match self {
            CatPendiente::Listo(cat) => Some(*cat),
            CatPendiente::Flujos(f) | CatPendiente::ComoInfonavit(f) => f.cat(),
            CatPendiente::Omitido => None,
        }
    }
}

/// The CAT of the credits received less the fees, against their payments.
pub(super) fn cat_de<N: Numero>(base: &[Tramo<N>]) -> Option<Option<N>> {
    FlujosCat::de(base)?.cat()
}
