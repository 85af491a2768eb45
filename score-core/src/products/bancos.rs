//! The bank mortgages' rules (PRODUCTS.md sections 2.3 and 2.4) applied to one applicant: the
//! household a bank lends to, the bank's own knock-outs, each bank product of the calibration
//! under its own figures, and Cuenta Infonavit + Crédito Bancario, whose bank part is the
//! calibration's bank mortgage's.

use super::cat::Cat;
use super::evaluate::{Credito, Evaluada, Motivos, Valor, evaluada, forma_cofi, sin_plazo_o_pago};
use super::tramo::{Pago, Tramo};
use super::fijos::Fijo;
use super::numero::Numero;
use super::persona::{Capacidad, Comprador, Persona, capacidad, plazo, tope};
use super::motivo::Motivo;
use super::tipos::Solicitud;
use crate::calibration::producto::Producto;
use crate::profile::Institucion;
use crate::cifras::Cifras;
use crate::fast_decimal::{Orden, por};
use crate::profile::IncomeType;
use rust_decimal::Decimal;

/// The household a bank lends to: the applicant plus the co-borrower, if any. The older
/// borrower's age limits the term; `pago` is the payment the bank allows the household (its
/// payment-to-income limit within the total-debt limit), the same for both bank products.
pub(super) struct Hogar {
    pub edad: Option<u32>,
    /// The household's monthly income, which a bank's minimum income is compared with.
    pub ingreso: Decimal,
    /// The payment the total-debt limit leaves the household (`persona::tope`).
    pub tope: Decimal,
    pub pago: Capacidad,
}

pub(super) fn hogar(cifras: &Cifras, p: &Persona, co: Option<&Persona>) -> Hogar {
    let (ingreso, tope, edad) = match co {
        None => (p.ingreso, p.tope, p.edad),
        Some(co) => {
            let ingreso = p.ingreso + co.ingreso;
            let edad = match (p.edad, co.edad) {
                (Some(a), Some(b)) => Some(a.max(b)),
                (a, b) => a.or(b),
            };
            (ingreso, tope(cifras, ingreso, p.deudas + co.deudas), edad)
        }
    };
    Hogar {
        edad,
        ingreso,
        tope,
        pago: capacidad(por(cifras.productos.banco_pti, ingreso), tope),
    }
}

/// The bank's own rules on the applicant: seniority by income type, and the household's
/// income against the product's minimum, if it has one.
pub(super) fn motivos_banco(c: &Cifras, p: &Persona, h: &Hogar) -> Motivos {
    let mut motivos = Motivos::default();
    if p.antiguedad < c.productos.banco_antiguedad_min.de(p.tipo) {
        motivos.push(Motivo::AntiguedadInsuficiente);
    }
    if c.productos.banco_ingreso_min.is_some_and(|minimo| Orden(h.ingreso) < Orden(minimo)) {
        motivos.push(Motivo::IngresoMenorAlMinimoDelBanco);
    }
    motivos
}

/// Who Cuenta Infonavit + Crédito Bancario is for: someone without an active employer
/// relation (not a payroll worker) whose INFONAVIT sub-account has a balance to pay the down
/// payment with; active workers join INFONAVIT's credit to a bank's with Cofinavit
/// ([`super::cofinavit`]). The reason
/// it is refused, if it is. It reads no figure a what-if re-ranks for: a balance that is not
/// declared is estimated from payroll contributions, none without a payroll.
pub(super) fn sin_patron_con_subcuenta(p: &Persona) -> Option<Motivo> {
    if matches!(p.tipo, IncomeType::Asalariado | IncomeType::Mixto) {
        Some(Motivo::ConRelacionLaboral)
    } else if p.institucion.unwrap_or(Institucion::Infonavit) != Institucion::Infonavit || p.subcuenta.is_zero() {
        Some(Motivo::SinSubcuentaInfonavit)
    } else {
        None
    }
}

pub(super) fn ltv<N: Numero>(c: &Cifras, p: &Persona) -> N {
    N::reglas(c).ltv.de(p.tipo)
}

pub(super) fn plazo_banco(c: &Cifras, edad: Option<u32>, limite: u32) -> u32 {
    plazo(c.productos.banco_plazo_max, limite, edad)
}

/// The bank's smallest mortgage, applied to the bank's part of the credit.
pub(super) fn menor_al_minimo<N: Numero>(
    c: &Cifras,
    motivos: &mut Motivos,
    plazo: u32,
    pago: Decimal,
    credito_banco: N,
) -> Option<()> {
    if plazo > 0 && !pago.is_zero() && credito_banco.menor(N::reglas(c).banco_min)? {
        motivos.push(Motivo::CreditoMenorAlMinimo);
    }
    Some(())
}

pub(super) fn hipoteca_bancaria<N: Numero>(cx: &Comprador<'_, N>, p: &Persona, h: &Hogar, e: &mut Evaluada<N>) -> Option<()> {
    let c = cx.cifras;
    let plazo = plazo_banco(c, h.edad, c.productos.banco_edad_max);
    let tramo = Fijo::Banco.tramo(c, plazo)?;
    let pago = h.pago.pago;
    let credito = tramo.para_pago(Pago::Exacto(pago), None)?;
    let mut motivos = motivos_banco(c, p, h);
    sin_plazo_o_pago(&mut motivos, plazo, pago.is_zero());
    menor_al_minimo(c, &mut motivos, plazo, pago, credito.credito)?;
    let credito = Credito {
        producto: Producto::HipotecaBancaria,
        motivos,
        tramos: &[credito],
        pago: credito.pago,
        forma: &[tramo],
        plazo,
        valor: Valor::Ltv(ltv(c, p)),
        subcuenta_en_enganche: N::entero(0),
        cat: Cat::Fijo(Fijo::Banco),
        por_deudas: h.pago.por_deudas,
    };
    evaluada(credito, cx, e)
}

/// Cuenta Infonavit + Crédito Bancario, for someone without an employer relation and with an
/// INFONAVIT balance ([`sin_patron_con_subcuenta`]): one payment capacity (the bank's) serves a
/// credit that is 70% bank and 30% INFONAVIT at 10.45%, INFONAVIT's part capped; the
/// sub-account pays the down payment. The term meets both the bank's and INFONAVIT's age
/// limits; the bank lends its share of the value by the buyer's income type.
pub(super) fn infonavit_mas_banco<N: Numero>(cx: &Comprador<'_, N>, p: &Persona, h: &Hogar, e: &mut Evaluada<N>) -> Option<()> {
    let c = cx.cifras;
    let plazo = plazo_banco(
        c,
        h.edad,
        c.productos
            .banco_edad_max
            .min(c.productos.infonavit_edad_max),
    );
    let (banco, fondo): (Tramo<N>, Tramo<N>) =
        (Fijo::Banco.tramo(c, plazo)?, Fijo::Cofi.tramo(c, plazo)?);
    let forma = forma_cofi(c, banco, fondo);
    let pago = h.pago.pago;
    // Refused to whom it is not for, and for nothing else then: no credit is worked out (most
    // buyers are payroll workers), and its terms are its shape's, whose CAT is kept by term.
    let (motivos, partes, cat, por_deudas) = match sin_patron_con_subcuenta(p) {
        Some(motivo) => (Motivos::de(motivo), None, Cat::Fijo(Fijo::Cofi), false),
        None => {
            let (parte_banco, parte_fondo) = (forma[0].credito, forma[1].credito);
            let por_peso = parte_banco * banco.cuota + parte_fondo * fondo.cuota;
            let total = if por_peso.es_cero()? {
                N::entero(0)
            } else {
                N::de(pago) / por_peso
            };
            let tope = N::reglas(c).cofi_max;
            // Uncapped, the credit keeps the scheme's proportions, and so the CAT of its shape.
            let (de_banco, de_fondo, cat) = if (parte_fondo * total).hasta(tope)? {
                (parte_banco * total, parte_fondo * total, Cat::Fijo(Fijo::Cofi))
            } else {
                (banco.credito_para(N::de(pago) - tope * fondo.cuota)?, tope, Cat::Calcular)
            };
            let mut motivos = motivos_banco(c, p, h);
            sin_plazo_o_pago(&mut motivos, plazo, pago.is_zero());
            menor_al_minimo(c, &mut motivos, plazo, pago, de_banco)?;
            (motivos, Some([banco.por(de_banco), fondo.por(de_fondo)]), cat, h.pago.por_deudas)
        }
    };
    // Both parts are sized so that their payments add up to the whole capacity.
    let credito = Credito {
        producto: Producto::InfonavitMasBanco,
        motivos,
        tramos: partes.as_ref().map_or(&[], |t| &t[..]),
        pago: Pago::Exacto(pago),
        forma: &forma,
        plazo,
        valor: Valor::Ltv(ltv(c, p)),
        subcuenta_en_enganche: N::de(p.subcuenta),
        cat,
        por_deudas,
    };
    evaluada(credito, cx, e)
}

/// The calibration's other bank products (beside its bank mortgage, [`hipoteca_bancaria`]),
/// each under its own rules, in the calibration's order, appended to `otros`; `None` when the
/// arithmetic cannot tell.
pub(super) fn otros_bancos<N: Numero>(c: &Cifras, s: &Solicitud, otros: &mut Vec<Evaluada<N>>) -> Option<()> {
    for banco in &c.otros_bancos {
        let (cx, p, _, h) = prestatarios(banco, s);
        let mut e = Evaluada::VACIA;
        hipoteca_bancaria(&cx, &p, &h, &mut e)?;
        otros.push(e);
    }
    Some(())
}

/// What every product reads of `s`: the buyer, the applicant, the co-borrower and the household.
pub(super) fn prestatarios<'a, N: Numero>(c: &'a Cifras, s: &Solicitud) -> (Comprador<'a, N>, Persona, Option<Persona>, Hogar) {
    let p = Persona::titular(c, s);
    let co = s.coacreditado.as_ref().map(|co| Persona::coacreditado(c, co));
    let h = hogar(c, &p, co.as_ref());
    (Comprador::de(c, s), p, co, h)
}
