//! Credits and their payments, written once over [`Numero`]: a product's credit (one, or two
//! for joint credits) with level monthly payments, what the products' rules size
//! ([`super::ofertas`]) and what its offer and CAT are computed from ([`super::evaluate`],
//! [`super::cat`](mod@super::cat)). Below both, so that neither imports the other for them.

use super::numero::Numero;
use crate::money::round;
use rust_decimal::Decimal;

/// The monthly payment per peso of credit at the nominal annual rate `tasa_anual` over `meses`
/// months, plus a monthly charge (insurance, administration) as a share of the credit; 0
/// without months. `1 / a(j, n) = p j / (p − 1)` with `p = (1 + j)^n`.
pub(super) fn cuota<N: Numero>(tasa_anual: N, meses: u32, cargo_mensual: N) -> Option<N> {
    if meses == 0 {
        return Some(N::entero(0));
    }
    let j = tasa_anual / N::entero(12);
    let amortizacion = if j.es_cero()? {
        N::entero(1) / N::entero(meses)
    } else {
        match N::crecimiento(j, meses)? {
            Some(p) => p * j / (p - N::entero(1)),
            None => j,
        }
    };
    Some(amortizacion + cargo_mensual)
}

/// `Σ f(x)` over `items`.
// Inlined natively, as `evaluada`, which sums its credits (one or two) with it.
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub(super) fn suma<T, N: Numero>(items: &[T], f: impl Fn(&T) -> N) -> N {
    items.iter().fold(N::entero(0), |total, x| total + f(x))
}

/// A monthly payment: a capacity known exactly, or one computed from a capped credit.
#[derive(Debug, Clone, Copy)]
pub(super) enum Pago<N> {
    Exacto(Decimal),
    Calculado(N),
}

impl<N: Numero> Pago<N> {
    pub fn valor(self) -> N {
        match self {
            Pago::Exacto(d) => N::de(d),
            Pago::Calculado(n) => n,
        }
    }

    pub fn mas(self, other: Pago<N>) -> Pago<N> {
        match (self, other) {
            (Pago::Exacto(a), Pago::Exacto(b)) => Pago::Exacto(a + b),
            (a, b) => Pago::Calculado(a.valor() + b.valor()),
        }
    }

    /// Whether the payment is 0, or `None` when the arithmetic cannot tell.
    pub fn es_cero(self) -> Option<bool> {
        match self {
            Pago::Exacto(d) => Some(d.is_zero()),
            Pago::Calculado(n) => n.es_cero(),
        }
    }

    pub fn redondear(self, dp: u32) -> Option<Decimal> {
        match self {
            Pago::Exacto(d) => Some(round(d, dp)),
            Pago::Calculado(n) => n.redondear(dp),
        }
    }
}

/// One credit inside a product (two for joint credits) with level monthly payments.
#[derive(Debug, Clone, Copy)]
pub(super) struct Tramo<N> {
    pub credito: N,
    /// Its monthly payment: the capacity it was sized for, exactly, or credit × `cuota`.
    pub pago: Pago<N>,
    /// `pago` in the arithmetic, converted once (`Pago::valor`): the CAT's flows and the total
    /// paid read it again.
    pub pago_valor: N,
    pub tasa: N,
    /// Monthly payment per peso of credit (annuity plus insurance).
    pub cuota: N,
    pub meses: u32,
    /// Fee paid at signing over the credit.
    pub comision: N,
}

impl<N: Numero> Tramo<N> {
    pub fn nuevo(tasa: N, plazo: u32, cargo: N, comision: N) -> Option<Tramo<N>> {
        let meses = plazo * 12;
        let cuota = cuota(tasa, meses, cargo)?;
        Some(Tramo { credito: N::entero(1), pago: Pago::Calculado(cuota), pago_valor: cuota, tasa, cuota, meses, comision })
    }

    /// These terms for one peso of credit, exactly as [`Tramo::nuevo`] made them.
    pub fn por_peso(self) -> Tramo<N> {
        Tramo { credito: N::entero(1), pago: Pago::Calculado(self.cuota), pago_valor: self.cuota, ..self }
    }

    /// This credit's terms for an amount `credito`.
    pub fn por(self, credito: N) -> Tramo<N> {
        let pago = credito * self.cuota;
        Tramo { credito, pago: Pago::Calculado(pago), pago_valor: pago, ..self }
    }

    /// The credit a monthly payment `pago` supports (0 without a term), capped at `tope`. The
    /// payment is kept as given, not recomputed as `pago / cuota × cuota`, whose last digits
    /// would break its ties either way. Inlined natively: its terms are passed just written
    /// (see [`evaluada`](super::evaluate::evaluada)).
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub fn para_pago(self, pago: Pago<N>, tope: Option<N>) -> Option<Tramo<N>> {
        let pago_valor = pago.valor();
        let credito = self.credito_para(pago_valor)?;
        match tope {
            Some(tope) if tope.menor(credito)? => Some(self.por(tope)),
            _ if self.cuota.es_cero()? => Some(self.por(credito)),
            _ => Some(Tramo { credito, pago, pago_valor, ..self }),
        }
    }

    /// The credit a monthly payment `pago` supports (0 without a term).
    pub fn credito_para(self, pago: N) -> Option<N> {
        Some(if self.cuota.es_cero()? { N::entero(0) } else { pago / self.cuota })
    }
}
