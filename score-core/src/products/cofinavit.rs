//! Cofinavit (PRODUCTS.md section 2.6): an active payroll worker's INFONAVIT credit and a bank's
//! in one purchase. INFONAVIT lends on the worker's salary, at its co-financing rate, up to its
//! cap in UMAs; the bank lends the rest under its own rules (rate, loan-to-value, payment share,
//! term, seniority, smallest credit) within the total-debt limit that INFONAVIT's payroll
//! discount has already used in part; the sub-account pays part of the down payment.

use super::bancos::{Hogar, ltv, motivos_banco, plazo_banco};
use super::cat::Cat;
use super::evaluate::{Credito, Evaluada, Motivos, Valor, evaluada, sin_plazo_o_pago};
use super::tramo::{Pago, Tramo};
use super::fijos::Fijo;
use super::numero::Numero;
use super::persona::{Capacidad, Comprador, Persona, capacidad};
use super::motivo::Motivo;
use crate::calibration::producto::Producto;
use crate::cifras::Cifras;
use crate::profile::Institucion;
use crate::fast_decimal::por;
use crate::profile::IncomeType;
use rust_decimal::Decimal;

/// Who Cofinavit is not for, and the reason: someone without an employer relation (the 70/30
/// scheme is theirs), or a payroll worker of another fund. It reads no figure a what-if
/// re-ranks for.
fn quien_no(p: &Persona) -> Option<Motivo> {
    if !matches!(p.tipo, IncomeType::Asalariado | IncomeType::Mixto) {
        Some(Motivo::SinRelacionLaboral)
    } else if !p.cotiza_a(Institucion::Infonavit) {
        Some(Motivo::NoDerechohabienteInfonavit)
    } else {
        None
    }
}

/// What every use of Cofinavit for one household works out first: its term (the bank's
/// longest within both the bank's and INFONAVIT's age limits, for the older borrower) and, for a
/// worker it is for, INFONAVIT's part. A what-if that may not evaluate Cofinavit bounds it with
/// them ([`Cofinavit::valor_max`]), and evaluates it with them when the bound does not decide.
#[derive(Debug, Clone, Copy)]
pub(super) struct Cofinavit<N> {
    plazo: u32,
    /// INFONAVIT's part and whether the total-debt limit set its payment ([`parte_fondo`]), or
    /// why Cofinavit is not for this worker ([`quien_no`]).
    fondo: Result<(Tramo<N>, bool), Motivo>,
}

impl<N: Numero> Cofinavit<N> {
    /// `None` when the arithmetic cannot tell. Inlined natively: returned through memory, its
    /// parts were read back across the stores just made (see `evaluada`).
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub fn de(c: &Cifras, p: &Persona, h: &Hogar) -> Option<Cofinavit<N>> {
        let r = &c.productos;
        let plazo = plazo_banco(c, h.edad, r.banco_edad_max.min(r.infonavit_edad_max));
        let fondo = match quien_no(p) {
            Some(motivo) => Err(motivo),
            None => Ok(parte_fondo(c, p, plazo)?),
        };
        Some(Cofinavit { plazo, fondo })
    }

    /// A home value Cofinavit's cannot reach, from `banco`, the offer of the calibration's bank
    /// mortgage to the same household, when it is available and Cofinavit is for this worker
    /// (`None` otherwise): that credit plus INFONAVIT's part, over the bank's loan-to-value.
    ///
    /// Cofinavit's bank part is a bank mortgage at the same rate for a payment no larger (the
    /// bank's share of the household's income within what the total-debt limit leaves after
    /// INFONAVIT's payment, against within the whole limit) over a term no longer (INFONAVIT's
    /// age limit as well as the bank's), so it lends no more than `banco`; INFONAVIT's part is
    /// the one Cofinavit adds, and its value is its credit over the same loan-to-value. Each
    /// step is monotone in `Decimal` too (a quotient of a smaller dividend, or by a larger
    /// payment per peso, is no larger; a sum of no larger terms is no larger), so the bound
    /// holds for its figures exactly, and filtered arithmetic certifies a comparison with it.
    pub fn valor_max(&self, c: &Cifras, p: &Persona, banco: &Evaluada<N>) -> Option<N> {
        let (fondo, _) = self.fondo.as_ref().ok()?;
        Some((banco.credito_disponible()? + fondo.credito) / ltv(c, p))
    }

    /// Whether the buyer's funds (the savings and the sub-account, `cx` and `p`) certainly do
    /// not cover the down payment and closing costs of Cofinavit, when it is for this worker:
    /// not even those of a credit of INFONAVIT's part alone. Cofinavit lends that part plus a
    /// bank part that is never negative (and, when it is available, at least the bank's
    /// smallest credit), and both costs grow with the credit: the down payment is the value
    /// less the credit, the value the credit over a loan-to-value of at most 1, and the closing
    /// costs a share of the value. `false` also where the arithmetic cannot tell.
    pub fn sin_cubrir(&self, cx: &Comprador<'_, N>, p: &Persona) -> bool {
        let Ok((fondo, _)) = &self.fondo else { return false };
        let valor = fondo.credito / ltv(cx.cifras, p);
        let costos = (valor - fondo.credito) + valor * cx.gastos_cierre;
        costos.hasta(cx.ahorro + N::de(p.subcuenta)) == Some(false)
    }

    /// Cofinavit's offer, written over `e`; `None` when the arithmetic cannot tell.
    ///
    /// Both credits run over the bank's term within both age limits (as the 70/30 scheme's).
    /// The INFONAVIT part is the credit the worker's payroll discount supports at the
    /// co-financing rate, capped: the last share of INFONAVIT's payment curve (30%, its payroll
    /// discount from 3 UMAs) of the salary, within the worker's total-debt limit. One share at
    /// every salary, as the rate is one: a share rising faster than the total-debt limit would
    /// shrink the bank's part as the salary rises, and refuse a higher salary a credit a lower
    /// one gets. The bank's payment is its share of the household's income within what the
    /// household's total-debt limit leaves after INFONAVIT's. A refused worker is shown the bank
    /// part's terms.
    pub fn evaluar(&self, cx: &Comprador<'_, N>, p: &Persona, h: &Hogar, e: &mut Evaluada<N>) -> Option<()> {
        let c = cx.cifras;
        let Cofinavit { plazo, ref fondo } = *self;
        let banco = Fijo::Banco.tramo::<N>(c, plazo)?;
        // Refused to whom it is not for, and for nothing else then.
        let (motivos, partes, pago, por_deudas) = match fondo {
            Err(motivo) => (Motivos::de(*motivo), None, Pago::Exacto(Decimal::ZERO), false),
            Ok(fondo) => {
                let (motivos, partes, pago, por_deudas) = partes(cx, p, h, banco, plazo, fondo)?;
                (motivos, Some(partes), pago, por_deudas)
            }
        };
        let credito = Credito {
            producto: Producto::Cofinavit,
            tramos: partes.as_ref().map_or(&[], |t| &t[..]),
            pago,
            forma: &[banco],
            plazo,
            valor: Valor::Ltv(ltv(c, p)),
            subcuenta_en_enganche: N::de(p.subcuenta),
            // Each applicant's mix has its own CAT; a refused one shows the bank part's.
            cat: if motivos.is_empty() { Cat::Calcular } else { Cat::Fijo(Fijo::Banco) },
            motivos,
            por_deudas,
        };
        evaluada(credito, cx, e)
    }
}

/// INFONAVIT's part over `plazo` years: the credit that the last share of INFONAVIT's payment
/// curve of the salary, within the worker's total-debt limit, supports at the co-financing
/// rate, capped; and whether that limit set its payment. Inlined natively, as [`Cofinavit::de`].
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
fn parte_fondo<N: Numero>(c: &Cifras, p: &Persona, plazo: u32) -> Option<(Tramo<N>, bool)> {
    let fondo = Fijo::Cofinavit.tramo::<N>(c, plazo)?;
    let Capacidad { pago, por_deudas } = capacidad(por(c.productos.infonavit_pago_tope, p.salario()), p.tope);
    Some((fondo.para_pago(Pago::Exacto(pago), Some(N::reglas(c).cofinavit_max))?, por_deudas))
}

/// A worker Cofinavit is for, with INFONAVIT's part `fondo` ([`parte_fondo`]): the reasons it
/// is refused (the bank's, INFONAVIT's seniority, no term or payment, a bank part below the
/// bank's smallest credit), its two credits (the bank's over `banco`'s terms, then
/// INFONAVIT's), their payment, and whether the total-debt limit set one (fewer debts may then
/// lift a refusal or lend more).
#[allow(clippy::type_complexity)]
fn partes<N: Numero>(
    cx: &Comprador<'_, N>,
    p: &Persona,
    h: &Hogar,
    banco: Tramo<N>,
    plazo: u32,
    &(de_fondo, fondo_por_deudas): &(Tramo<N>, bool),
) -> Option<(Motivos, [Tramo<N>; 2], Pago<N>, bool)> {
    let c = cx.cifras;
    let r = &c.productos;
    // The bank's payment: its share of the household's income, within what the total-debt
    // limit leaves after INFONAVIT's payment.
    let base = por(r.banco_pti, h.ingreso);
    let (pago_banco, banco_por_deudas) = match de_fondo.pago {
        Pago::Exacto(del_fondo) => {
            let Capacidad { pago, por_deudas } = capacidad(base, h.tope - del_fondo);
            (Pago::Exacto(pago), por_deudas)
        }
        Pago::Calculado(del_fondo) => {
            let resto = N::de(h.tope) - del_fondo;
            if !resto.menor(N::de(base))? {
                (Pago::Exacto(base), false)
            } else if resto.menor(N::entero(0))? {
                (Pago::Exacto(Decimal::ZERO), true)
            } else {
                (Pago::Calculado(resto), true)
            }
        }
    };
    let de_banco = banco.para_pago(pago_banco, None)?;
    let pago = de_banco.pago.mas(de_fondo.pago);
    let sin_pago = pago.es_cero()?;
    let mut motivos = motivos_banco(c, p, h);
    if p.antiguedad < r.infonavit_antiguedad_min {
        motivos.push(Motivo::AntiguedadInsuficiente);
    }
    sin_plazo_o_pago(&mut motivos, plazo, sin_pago);
    // The bank's part is a bank mortgage: at least the bank's smallest one.
    if plazo > 0 && !sin_pago && de_banco.credito.menor(N::reglas(c).banco_min)? {
        motivos.push(Motivo::CreditoMenorAlMinimo);
    }
    Some((motivos, [de_banco, de_fondo], pago, fondo_por_deudas || banco_por_deudas))
}
