//! What every product's rules are made of, written once over [`Numero`] (in `Decimal` they
//! define the figures, in filtered doubles they compute the same figures fast or answer `None`,
//! see [`super::numero`]): how a product's credits become its shown offer and the
//! recommendation. The credits and their payments are in [`super::tramo`], their CAT in
//! [`super::cat`](mod@super::cat); the borrowers they are sized for are in
//! [`super::persona`]; each product's own rules are in [`super::ofertas`].

use super::cat::{Cat, CatPendiente, FlujosCat, cat_de};
use super::fijos::Fijo;
use super::numero::Numero;
use super::persona::Comprador;
use super::motivo::Motivo;
use super::tipos::OfertaProducto;
use super::tramo::{Pago, Tramo, suma};
use crate::calibration::clave::Clave;
use crate::calibration::producto::Producto;
use crate::cifras::Cifras;
use crate::money::{MONEY_DP, RATIO_DP};
use rust_decimal::Decimal;
use std::cmp::Ordering;

/// The reasons a product is refused, as a set: the rules add them as they apply, in any order
/// and more than once, and the offer lists each once in the order of [`Motivo::ALL`] (the
/// order of the enum). A bit per reason, so deciding a product allocates nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Motivos(u16);

// Every reason has its bit below [`Motivos::AUSENTE`]'s.
const _: () = assert!(Motivo::ALL.len() < 15);

impl Motivos {
    /// No reason.
    pub const NINGUNO: Motivos = Motivos(0);

    /// The set of one reason.
    pub fn de(motivo: Motivo) -> Motivos {
        Motivos(Motivos::bit(motivo))
    }

    fn bit(motivo: Motivo) -> u16 {
        1 << motivo as u16
    }

    pub fn push(&mut self, motivo: Motivo) {
        self.0 |= Motivos::bit(motivo);
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn contiene(self, motivo: Motivo) -> bool {
        self.0 & Motivos::bit(motivo) != 0
    }

    /// The mark of a kind the calibration leaves out: a bit beyond every reason, so that the
    /// product is never available and lists no reason.
    pub const AUSENTE: Motivos = Motivos(1 << 15);

    /// The reasons in the order `motivos` lists them (a slice of [`Motivo::ALL`], whose order
    /// is the enum's, where they are consecutive in it: [`crate::report::seleccion`]).
    pub fn lista(self) -> crate::report::Lista<Motivo> {
        static TODOS: [Motivo; Motivo::ALL.len()] = Motivo::ALL;
        crate::report::seleccion(&TODOS, u32::from(self.0))
    }
}

/// A product before rounding: what the recommendation compares.
#[derive(Debug, Clone, Copy)]
pub(super) struct Evaluada<N> {
    /// Its kind: which rules made it.
    producto: Producto,
    /// Its `clave` in the calibration.
    clave: Clave,
    /// Where it is listed: the last criterion of the recommendation.
    orden: u8,
    motivos: Motivos,
    tasa: N,
    /// The CAT, solved only when it is shown or breaks a tie in the recommendation.
    pub cat: CatPendiente<N>,
    plazo: u32,
    pago: Pago<N>,
    credito: N,
    valor: N,
    enganche: N,
    gastos: N,
    total: N,
    /// The buyer's own money this product lets pay the down payment and closing costs: the
    /// savings plus `subcuenta_en_enganche`.
    fondos: N,
    subcuenta_en_enganche: N,
    /// The value is the credit plus the sub-account ([`Valor::MasSubcuenta`]); else the
    /// product lends a share of the value and takes its sub-account, if any, as down payment.
    valor_mas_subcuenta: bool,
    /// The total-debt limit set a payment of this product ([`super::persona::Capacidad::por_deudas`]).
    por_deudas: bool,
}

impl<N: Numero> Evaluada<N> {
    /// Storage for [`evaluada`] to write the five offers into (`ofertas::todas`): where a
    /// report's offers are evaluated, in place. Their figures mean nothing until written.
    // Inlined natively (a few stores); one copy in WebAssembly (its size budget).
    #[cfg_attr(target_arch = "wasm32", inline(never))]
    pub fn vacias() -> [Evaluada<N>; crate::calibration::producto::TIPOS] {
        // One constant, copied once. Built offer by offer, each empty offer was written on the
        // stack and then copied in, and the copy's wide loads waited for the narrow stores just
        // made: 8% of a report with what-ifs, which the instruction counts do not show.
        Self::VACIAS
    }

    /// [`Evaluada::vacias`]: one copy of a constant, rather than one per offer.
    const VACIAS: [Evaluada<N>; crate::calibration::producto::TIPOS] = [Self::VACIA; crate::calibration::producto::TIPOS];

    /// An offer of nothing, to be written over.
    pub const VACIA: Evaluada<N> = Evaluada {
        producto: Producto::Infonavit,
        clave: Clave::VACIA,
        orden: 0,
        motivos: Motivos::NINGUNO,
        tasa: N::CERO,
        cat: CatPendiente::Listo(None),
        plazo: 0,
        pago: Pago::Calculado(N::CERO),
        credito: N::CERO,
        valor: N::CERO,
        enganche: N::CERO,
        gastos: N::CERO,
        total: N::CERO,
        fondos: N::CERO,
        subcuenta_en_enganche: N::CERO,
        valor_mas_subcuenta: false,
        por_deudas: false,
    };

    /// The buyer's own funds cover the down payment and the closing costs.
    fn cubierto(&self) -> Option<bool> {
        (self.enganche + self.gastos).hasta(self.fondos)
    }

    pub fn producto(&self) -> Producto {
        self.producto
    }

    /// A kind the calibration leaves out, never available nor listed.
    pub fn ausente(producto: Producto) -> Evaluada<N> {
        Evaluada { producto, motivos: Motivos::AUSENTE, ..Evaluada::VACIA }
    }

    /// Whether the calibration has this offer's product (see [`Evaluada::ausente`]).
    pub fn presente(&self) -> bool {
        self.motivos != Motivos::AUSENTE
    }

    pub fn clave(&self) -> Clave {
        self.clave
    }

    /// Makes this offer that of a buyer who differs only in savings and housing-fund balances
    /// (`titular`'s and both borrowers' sum, converted once, as [`Producto::subcuenta_aplicada`]
    /// reads them; `comprador`, the buyer's savings):
    /// they change no credit and no reason to refuse one, only the value where the product adds
    /// the sub-account to the credit, its closing costs, and the buyer's own funds. The same
    /// operations as [`evaluada`], so the same figures. In place: an offer is a quarter of a
    /// kilobyte, and building new ones copied each twice. A refused offer is left as it is: no
    /// what-if ranks or shows it (the recommendation takes only available offers).
    pub fn poner_fondos(&mut self, comprador: &Comprador<N>, titular: N, ambos: N) {
        if !self.motivos.is_empty() {
            return;
        }
        let aplicada = self.producto.subcuenta_de(titular, ambos, N::entero(0));
        if self.valor_mas_subcuenta {
            self.valor = self.credito + aplicada;
            self.gastos = self.valor * comprador.gastos_cierre;
        } else {
            self.subcuenta_en_enganche = aplicada;
        }
        self.fondos = comprador.ahorro + self.subcuenta_en_enganche;
    }

    /// Whether this offer is certainly recommended over any offer whose home is worth less than
    /// `valor`, whatever that offer's down payment: this one is available, the buyer's funds
    /// cover its down payment and closing costs (the first criterion, [`Evaluada::antes_que`]),
    /// and it buys a home worth more (the second). `false` also where the arithmetic cannot tell.
    pub fn supera(&self, valor: N) -> bool {
        self.cubierta() && valor.menor(self.valor) == Some(true)
    }

    /// Whether this offer is available and the buyer's funds certainly cover its down payment
    /// and closing costs: it is then recommended over any offer whose costs they do not cover
    /// (the first criterion, [`Evaluada::antes_que`]).
    pub fn cubierta(&self) -> bool {
        self.disponible() && self.cubierto() == Some(true)
    }

    /// Whether no rule refuses this offer.
    pub fn disponible(&self) -> bool {
        self.motivos.is_empty()
    }

    /// The credit of an available offer (`None` when it is refused).
    pub fn credito_disponible(&self) -> Option<N> {
        self.disponible().then_some(self.credito)
    }

    /// Whether a rule on seniority refused this offer (more months could then open it).
    pub fn sin_antiguedad(&self) -> bool {
        self.motivos.contiene(Motivo::AntiguedadInsuficiente)
    }

    /// Whether the total-debt limit set a payment of this offer: only then can fewer debts
    /// change it (debts enter the products through that limit alone).
    pub fn por_deudas(&self) -> bool {
        self.por_deudas
    }

    /// A money figure as shown: 2 decimals; a refused product's are exactly 0.
    fn dinero(&self, x: N) -> Option<Decimal> {
        if self.motivos.is_empty() { x.redondear(MONEY_DP) } else { Some(Decimal::new(0, MONEY_DP)) }
    }

    /// The credit as shown (`credito_max`).
    pub fn credito_mostrado(&self) -> Option<Decimal> {
        self.dinero(self.credito)
    }

    /// The offer as shown (money to 2 decimals, rates to 4), appended to `ofertas`; `None`
    /// (nothing appended) when a rounding is not certified. Every figure is rounded before
    /// the offer is built, so it is written once, into the list, not copied through an
    /// `Option` on its way there.
    pub fn mostrar_en(&self, ofertas: &mut Vec<OfertaProducto>) -> Option<()> {
        let elegible = self.motivos.is_empty();
        let tasa_anual = self.tasa.redondear(RATIO_DP)?;
        let cat = match self.cat.valor()? {
            Some(c) => Some(c.redondear(RATIO_DP)?),
            None => None,
        };
        let pago_mensual = if elegible { self.pago.redondear(MONEY_DP)? } else { Decimal::new(0, MONEY_DP) };
        let [credito_max, valor_vivienda_max, enganche_requerido, gastos_cierre, total_pagado] =
            [self.dinero(self.credito)?, self.dinero(self.valor)?, self.dinero(self.enganche)?, self.dinero(self.gastos)?, self.dinero(self.total)?];
        ofertas.push(OfertaProducto {
            producto: self.clave,
            elegible,
            tasa_anual,
            cat,
            plazo_anios: self.plazo,
            pago_mensual,
            credito_max,
            valor_vivienda_max,
            enganche_requerido,
            gastos_cierre,
            total_pagado,
            motivos: self.motivos.lista(),
        });
        Some(())
    }

    /// Whether `self` is recommended over `other` (both available): first the one whose down
    /// payment and closing costs the buyer's funds cover, then the higher home value, then the
    /// lower CAT, then the order they are listed in.
    fn antes_que(&self, other: &Evaluada<N>) -> Option<bool> {
        // Each criterion is decided only when the ones before it tie.
        let mut orden = other.cubierto()?.cmp(&self.cubierto()?);
        if orden == Ordering::Equal {
            orden = other.valor.orden(self.valor)?;
        }
        if orden == Ordering::Equal {
            orden = match (self.cat.valor()?, other.cat.valor()?) {
                (Some(a), Some(b)) => a.orden(b)?,
                (a, b) => a.is_some().cmp(&b.is_some()),
            };
        }
        Some(orden.then(self.orden.cmp(&other.orden)) == Ordering::Less)
    }
}

/// The recommended product among the available ones (see [`Evaluada::antes_que`]), in any
/// order: the last criterion, where each offer is listed, is a field of the offer.
pub(super) fn recomendado<'a, N: Numero + 'a>(
    evaluadas: impl IntoIterator<Item = &'a Evaluada<N>>,
) -> Option<Option<&'a Evaluada<N>>> {
    let mut mejor: Option<&Evaluada<N>> = None;
    for e in evaluadas.into_iter().filter(|e| e.motivos.is_empty()) {
        mejor = match mejor {
            Some(m) if !e.antes_que(m)? => Some(m),
            _ => Some(e),
        };
    }
    Some(mejor)
}

/// Solves every CAT still pending, each once: Unamos Créditos without a co-borrower takes
/// INFONAVIT's (the same terms).
pub(super) fn resolver_cats<N: Numero>(evaluadas: &mut [Evaluada<N>]) -> Option<()> {
    let mut infonavit = None;
    for e in evaluadas.iter_mut() {
        let cat = match (&e.cat, infonavit) {
            (CatPendiente::ComoInfonavit(_), Some(cat)) => cat,
            (pendiente, _) => pendiente.valor()?,
        };
        if e.producto == Producto::Infonavit {
            infonavit = Some(cat);
        }
        e.cat = CatPendiente::Listo(cat);
    }
    Some(())
}

/// How the home value follows from the credit.
#[derive(Debug, Clone, Copy)]
pub(super) enum Valor<N> {
    /// The housing funds lend without a down payment and add the sub-account to the credit.
    MasSubcuenta(N),
    /// Banks lend up to this share of the value.
    Ltv(N),
}

/// A product's credits before its figures: what each product's rules decide.
pub(super) struct Credito<'a, N> {
    pub producto: Producto,
    pub motivos: Motivos,
    /// The credits granted (empty or zero when refused).
    pub tramos: &'a [Tramo<N>],
    /// Their monthly payment.
    pub pago: Pago<N>,
    /// One peso of credit in the product's proportions: its terms when refused.
    pub forma: &'a [Tramo<N>],
    pub plazo: u32,
    pub valor: Valor<N>,
    /// The housing-fund sub-account the product lets pay the down payment, beside the savings
    /// (0 where it does not).
    pub subcuenta_en_enganche: N,
    pub cat: Cat<N>,
    /// The total-debt limit set a payment the product's credits were sized for.
    pub por_deudas: bool,
}

/// Rate, CAT and figures of a product from its credits. A refused product keeps the rate and
/// CAT of its terms (from one peso of credit in the same proportions) and shows 0 elsewhere.
///
/// Written over `e`, storage the caller owns (see [`Evaluada::vacias`]): an offer is a quarter
/// of a kilobyte, and five returned through `Option`s and arrays were copied four times each.
/// Inlined into each product natively: `c`, passed through memory just after it was written,
/// was read back across its pieces (a stalled read). WebAssembly decides for itself (its size
/// budget).
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
pub(super) fn evaluada<N: Numero>(c: Credito<'_, N>, comprador: &Comprador<N>, e: &mut Evaluada<N>) -> Option<()> {
    let Credito { producto, motivos, tramos, pago, forma, plazo, valor, subcuenta_en_enganche, cat, por_deudas } = c;
    let credito = suma(tramos, |t| t.credito);
    let base = if motivos.is_empty() && N::entero(0).menor(credito)? { tramos } else { forma };
    // An offer only ranked has no rate, total or CAT flows worked out (`Comprador::ligera`).
    let ligera = comprador.ligera;
    // One credit's rate is its own; joint credits' is weighted by their amounts.
    let tasa = match base {
        [una] => una.tasa,
        _ if ligera => N::entero(0),
        _ => {
            let peso = suma(base, |t| t.credito);
            if peso.es_cero()? {
                base.first().map_or(N::entero(0), |t| t.tasa)
            } else {
                suma(base, |t| t.credito * t.tasa) / peso
            }
        }
    };
    let cat = match cat {
        Cat::ComoInfonavit(CatPendiente::Flujos(f)) => CatPendiente::ComoInfonavit(f),
        Cat::ComoInfonavit(cat) => cat,
        Cat::Fijo(fijo) => match N::fijo(comprador.cifras, fijo, plazo) {
            Some((_, cat)) => CatPendiente::Listo(cat),
            None if ligera => CatPendiente::Omitido,
            None => CatPendiente::Flujos(FlujosCat::de(base)?),
        },
        Cat::Calcular if ligera => CatPendiente::Omitido,
        Cat::Calcular => CatPendiente::Flujos(FlujosCat::de(base)?),
    };
    // The figures stay 0 for a refused product.
    let reglas = &comprador.cifras.productos;
    *e = Evaluada {
        producto,
        clave: reglas.claves[producto as usize],
        orden: reglas.orden[producto as usize],
        tasa,
        cat,
        plazo,
        fondos: comprador.ahorro + subcuenta_en_enganche,
        subcuenta_en_enganche,
        valor_mas_subcuenta: matches!(valor, Valor::MasSubcuenta(_)),
        por_deudas,
        motivos,
        ..Evaluada::VACIA
    };
    if !e.motivos.is_empty() || credito.es_cero()? {
        if e.motivos.is_empty() {
            e.motivos.push(Motivo::SinCapacidadDePago);
        }
        return Some(());
    }
    e.credito = credito;
    e.pago = pago;
    if !ligera {
        e.total = suma(base, |t| t.pago_valor * N::entero(t.meses)) + suma(base, |t| t.credito * t.comision);
    }
    e.valor = match valor {
        Valor::MasSubcuenta(subcuenta) => credito + subcuenta,
        Valor::Ltv(ltv) => credito / ltv,
    };
    e.enganche = match valor {
        Valor::MasSubcuenta(_) => N::entero(0),
        Valor::Ltv(_) => e.valor - credito,
    };
    e.gastos = e.valor * comprador.gastos_cierre;
    Some(())
}

impl Fijo {
    /// Its credit for a term, the payment per peso as the arithmetic keeps it or computed.
    /// The rate, charge and fee are INFONAVIT's part's for [`Fijo::Cofi`] (the bank's part is
    /// [`Fijo::Banco`]).
    pub(super) fn tramo<N: Numero>(self, c: &Cifras, plazo: u32) -> Option<Tramo<N>> {
        let (tasa, cargo, comision) = N::reglas(c).fijos[self as usize];
        match N::fijo(c, self, plazo) {
            Some((cuota, _)) => Some(Tramo {
                credito: N::entero(1),
                pago: Pago::Calculado(cuota),
                pago_valor: cuota,
                tasa,
                cuota,
                meses: plazo * 12,
                comision,
            }),
            None => Tramo::nuevo(tasa, plazo, cargo, comision),
        }
    }
}

/// What [`Numero::fijo`] keeps, computed: the payment per peso of `fijo`'s credit for a term
/// and the CAT of its shape (for [`Fijo::Cofi`], 70% bank and 30% INFONAVIT; none for
/// [`Fijo::Cofinavit`], whose mix is each applicant's).
pub(super) fn fijo_calculado<N: Numero>(
    c: &Cifras,
    fijo: Fijo,
    plazo: u32,
) -> Option<(N, Option<N>)> {
    let calculado = |fijo: Fijo| {
        let (tasa, cargo, comision) = N::reglas(c).fijos[fijo as usize];
        Tramo::<N>::nuevo(tasa, plazo, cargo, comision)
    };
    let tramo = calculado(fijo)?;
    let cat = match fijo {
        Fijo::Cofi => cat_de(&forma_cofi(c, calculado(Fijo::Banco)?, tramo))?,
        // Each applicant's mix of parts has its own CAT: none is kept.
        Fijo::Cofinavit => None,
        _ => cat_de(&[tramo])?,
    };
    Some((tramo.cuota, cat))
}

/// One peso of Cuenta Infonavit + Crédito Bancario: 70% bank, 30% INFONAVIT.
pub(super) fn forma_cofi<N: Numero>(c: &Cifras, banco: Tramo<N>, fondo: Tramo<N>) -> [Tramo<N>; 2] {
    let reglas = N::reglas(c);
    [banco.por(reglas.parte_banco_cofi), fondo.por(reglas.parte_cofi)]
}

/// The reason a product refuses for want of a term (age) or, with a term, of a payment.
pub(super) fn sin_plazo_o_pago(motivos: &mut Motivos, plazo: u32, sin_pago: bool) {
    if plazo == 0 {
        motivos.push(Motivo::SinPlazoPorEdad);
    } else if sin_pago {
        motivos.push(Motivo::SinCapacidadDePago);
    }
}
