//! Each product's own rules (PRODUCTS.md, section 2) applied to one applicant: who qualifies,
//! the payment it allows, its term, caps and minimums, and how its credits make its offer.

use super::bancos::{hipoteca_bancaria, infonavit_mas_banco, prestatarios, sin_patron_con_subcuenta};
use super::cofinavit::Cofinavit;
use super::cat::{Cat, CatPendiente};
use super::evaluate::{Credito, Evaluada, Motivos, Valor, evaluada, sin_plazo_o_pago};
use super::tramo::{Pago, Tramo};
use super::fijos::{self, Fijo};
use super::numero::Numero;
use super::persona::{Capacidad, Comprador, Persona, capacidad, no_negativo, plazo};
use super::motivo::Motivo;
use super::tipos::Solicitud;
use crate::calibration::producto::{Producto, TIPOS};
use crate::profile::Institucion;
use crate::cifras::Cifras;
use crate::fast_decimal::{Orden, por};
use rust_decimal::Decimal;

/// INFONAVIT's payment-to-salary limit applied to a salary: the share of the calibration's
/// curve by salary in monthly UMAs (fitted to the published simulator outputs, see PRODUCTS.md).
/// Up to the curve's first point and from its last the share is constant and the payment exact
/// with no quotient; inside, filtered arithmetic carries it as a bounded double instead of
/// dividing in `Decimal`. `None` when the arithmetic cannot tell.
fn pago_por_salario<N: Numero>(c: &Cifras, salario: Decimal) -> Option<Pago<N>> {
    let r = &c.productos;
    if Orden(salario) >= Orden(r.infonavit_salario_pago_tope) {
        return Some(Pago::Exacto(por(r.infonavit_pago_tope, salario)));
    }
    if Orden(salario) <= Orden(r.infonavit_salario_pago_piso) {
        return Some(Pago::Exacto(por(r.infonavit_pago_piso, salario)));
    }
    let parte = N::en_curva(&r.infonavit_pago_por_umas, N::de(salario) / N::reglas(c).uma)?;
    Some(Pago::Calculado(parte * N::de(salario)))
}

/// INFONAVIT's rate for a monthly salary: the band table in UMAs, interpolated. Not rounded
/// before use: rounding would make the rate rise in steps, and a step up could lend less to a
/// higher salary; the offer shows it to 4 decimals.
fn tasa_infonavit<N: Numero>(c: &Cifras, salario: Decimal) -> Option<N> {
    N::en_curva(
        &c.productos.infonavit_tasa_por_umas,
        N::de(salario) / N::reglas(c).uma,
    )
}

/// A salary above the rate table's last band or up to its first (a self-employed buyer's or a
/// pensioner's payroll salary is 0): its rate is the table's top or lowest whatever the salary,
/// so its credit's terms and CAT depend on the term alone ([`Fijo::InfonavitTope`],
/// [`Fijo::InfonavitPiso`]). The same rate as the table's: a `Decimal` quotient rounds
/// monotonically, so `salario / uma` is on the same side of the band's edge, or on it. `None`
/// inside the table, and where the terms are not kept ([`fijos::INFONAVIT_EN_TABLA`]).
fn tasa_fija(c: &Cifras, salario: Decimal) -> Option<Fijo> {
    if !fijos::INFONAVIT_EN_TABLA {
        None
    } else if Orden(salario) > Orden(c.productos.infonavit_salario_tasa_tope) {
        Some(Fijo::InfonavitTope)
    } else if Orden(salario) <= Orden(c.productos.infonavit_salario_tasa_piso) {
        Some(Fijo::InfonavitPiso)
    } else {
        None
    }
}

/// One worker's INFONAVIT credit: why it may be refused, the credit (capped at the individual
/// maximum; a refused worker's terms for one peso), and whether the total-debt limit set its
/// payment.
#[derive(Debug, Clone, Copy)]
struct DelFondo<N> {
    motivos: Motivos,
    tramo: Tramo<N>,
    por_deudas: bool,
    /// The fixed rate whose terms and CAT are kept by term, if the salary's is one.
    fija: Option<Fijo>,
}

fn infonavit_de<N: Numero>(c: &Cifras, p: &Persona) -> Option<DelFondo<N>> {
    infonavit_en(c, p, None)
}

/// A co-borrower's INFONAVIT credit, on the terms of the applicant's (`del_titular`, its rate,
/// term and charges) where they are the co-borrower's too: the very same salary (the same
/// `Decimal`, scale included, so every figure computed from it is the same) and age. The
/// co-borrower a what-if simulates holds an equal half of the income
/// (`simulations::coacreditado_simulado`): Unamos Créditos then works the terms out once.
/// WebAssembly works out each borrower's (the same figures: sharing there costs a kilobyte of
/// its size budget for a what-if's fraction of a report).
fn infonavit_del_socio<N: Numero>(
    c: &Cifras,
    co: &Persona,
    titular: &Persona,
    del_titular: &DelFondo<N>,
) -> Option<DelFondo<N>> {
    let mismos = !cfg!(target_arch = "wasm32")
        && co.edad == titular.edad
        && co.salario().serialize() == titular.salario().serialize();
    infonavit_en(c, co, mismos.then_some(del_titular))
}

/// [`infonavit_de`], on the terms of `terminos` when given (another credit's, which must be
/// `p`'s: see [`infonavit_del_socio`]).
fn infonavit_en<N: Numero>(
    c: &Cifras,
    p: &Persona,
    terminos: Option<&DelFondo<N>>,
) -> Option<DelFondo<N>> {
    let salario = p.salario();
    let r = &c.productos;
    let (tramo, fija) = match terminos {
        Some(terminos) => (terminos.tramo.por_peso(), terminos.fija),
        None => {
            let plazo = plazo(r.infonavit_plazo_max, r.infonavit_edad_max, p.edad);
            let fija = tasa_fija(c, salario);
            let tramo = match fija {
                Some(fijo) => fijo.tramo(c, plazo)?,
                None => Tramo::nuevo(
                    tasa_infonavit(c, salario)?,
                    plazo,
                    N::reglas(c).cargo_infonavit,
                    N::entero(0),
                )?,
            };
            (tramo, fija)
        }
    };
    let (pago, por_deudas) = match pago_por_salario::<N>(c, salario)? {
        Pago::Exacto(base) => {
            let Capacidad { pago, por_deudas } = capacidad(base, p.tope);
            (Pago::Exacto(pago), por_deudas)
        }
        // `capacidad` of a positive limit (over a fifth of a minimum wage) known in `N`.
        Pago::Calculado(base) if N::de(p.tope).menor(base)? => (Pago::Exacto(no_negativo(p.tope)), true),
        calculado => (calculado, false),
    };
    let motivos = motivos_fondo(
        c,
        p,
        Institucion::Infonavit,
        r.infonavit_antiguedad_min,
        tramo.meses / 12,
        pago.es_cero()?,
    );
    // A refused worker keeps the terms for one peso: no credit is shown or added.
    let tramo = if motivos.is_empty() {
        tramo.para_pago(pago, Some(N::reglas(c).infonavit_max))?
    } else {
        tramo
    };
    Some(DelFondo {
        motivos,
        tramo,
        por_deudas,
        fija,
    })
}

/// A housing fund's knock-outs: not a contributor (and nothing else then), too few months of
/// contribution, a salary below the minimum wage, no term left by age or no payment left.
fn motivos_fondo(
    c: &Cifras,
    p: &Persona,
    fondo: Institucion,
    antiguedad_min: u32,
    plazo: u32,
    sin_pago: bool,
) -> Motivos {
    if !p.cotiza_a(fondo) {
        return Motivos::de(match fondo {
            Institucion::Fovissste => Motivo::NoDerechohabienteFovissste,
            _ => Motivo::NoDerechohabienteInfonavit,
        });
    }
    let mut motivos = Motivos::default();
    if p.antiguedad < antiguedad_min {
        motivos.push(Motivo::AntiguedadInsuficiente);
    }
    // INFONAVIT lends below the minimum wage too (its 2026 simulator, PRODUCTS.md); FOVISSSTE's
    // rule is not published and stays the minimum wage.
    if fondo == Institucion::Fovissste && Orden(p.salario()) < Orden(c.productos.salario_minimo_mensual) {
        motivos.push(Motivo::IngresoMenorAlSalarioMinimo);
    }
    sin_plazo_o_pago(&mut motivos, plazo, sin_pago);
    motivos
}

fn infonavit<N: Numero>(
    cx: &Comprador<'_, N>,
    p: &Persona,
    titular: DelFondo<N>,
    e: &mut Evaluada<N>,
) -> Option<()> {
    let DelFondo {
        motivos,
        tramo,
        por_deudas,
        fija,
    } = titular;
    let credito = Credito {
        producto: Producto::Infonavit,
        motivos,
        tramos: &[tramo],
        pago: tramo.pago,
        forma: &[tramo.por(N::entero(1))],
        plazo: tramo.meses / 12,
        valor: Valor::MasSubcuenta(N::de(p.subcuenta)),
        subcuenta_en_enganche: N::entero(0),
        cat: fija.map_or(Cat::Calcular, Cat::Fijo),
        por_deudas,
    };
    evaluada(credito, cx, e)
}

fn fovissste<N: Numero>(cx: &Comprador<'_, N>, p: &Persona, e: &mut Evaluada<N>) -> Option<()> {
    let (c, salario) = (cx.cifras, p.salario());
    let r = &c.productos;
    let plazo = plazo(r.fovissste_plazo_max, r.fovissste_edad_max, p.edad);
    let tramo = Fijo::Fovissste.tramo(c, plazo)?;
    let Capacidad { pago, por_deudas } = capacidad(por(r.fovissste_pti, salario), p.tope);
    let motivos = motivos_fondo(
        c,
        p,
        Institucion::Fovissste,
        r.fovissste_antiguedad_min,
        plazo,
        pago.is_zero(),
    );
    // Most buyers are not state workers: FOVISSSTE refuses them, and works out no credit.
    let credito = if motivos.is_empty() {
        Some(tramo.para_pago(Pago::Exacto(pago), Some(N::reglas(c).fovissste_max))?)
    } else {
        None
    };
    let credito = Credito {
        producto: Producto::Fovissste,
        motivos,
        tramos: credito.as_slice(),
        pago: credito.map_or(Pago::Exacto(pago), |c| c.pago),
        forma: &[tramo],
        plazo,
        valor: Valor::MasSubcuenta(N::de(p.subcuenta)),
        subcuenta_en_enganche: N::entero(0),
        cat: Cat::Fijo(Fijo::Fovissste),
        por_deudas,
    };
    evaluada(credito, cx, e)
}

/// Unamos Créditos: each worker's own INFONAVIT credit, added and capped at the joint maximum
/// (both scaled alike when the cap binds); both sub-accounts are added to the value.
/// Without a co-borrower its terms are the applicant's INFONAVIT credit's, whose CAT is
/// `cat_infonavit`.
fn unamos_creditos<N: Numero>(
    cx: &Comprador<'_, N>,
    p: &Persona,
    co: Option<&Persona>,
    del_titular: DelFondo<N>,
    cat_infonavit: CatPendiente<N>,
    e: &mut Evaluada<N>,
) -> Option<()> {
    let DelFondo { mut motivos, tramo: titular, por_deudas, .. } = del_titular;
    let forma = [titular.por(N::entero(1))];
    let Some(c) = co else {
        motivos.push(Motivo::SinCoacreditado);
        let credito = Credito {
            producto: Producto::UnamosCreditos,
            motivos,
            tramos: &[],
            pago: Pago::Exacto(Decimal::ZERO),
            forma: &forma,
            plazo: titular.meses / 12,
            valor: Valor::MasSubcuenta(N::entero(0)),
            subcuenta_en_enganche: N::entero(0),
            cat: Cat::ComoInfonavit(cat_infonavit),
            // Refused for the missing co-borrower, whatever the debts.
            por_deudas: false,
        };
        return evaluada(credito, cx, e);
    };
    let DelFondo {
        motivos: motivos_co,
        tramo: socio,
        por_deudas: socio_por_deudas,
        ..
    } = infonavit_del_socio(cx.cifras, c, p, &del_titular)?;
    if !motivos_co.is_empty() {
        motivos.push(Motivo::CoacreditadoNoElegible);
    }
    let suma = titular.credito + socio.credito;
    let tope = N::reglas(cx.cifras).unamos_max;
    let tramos = if tope.menor(suma)? {
        let escala = tope / suma;
        [titular.por(titular.credito * escala), socio.por(socio.credito * escala)]
    } else {
        [titular, socio]
    };
    let credito = Credito {
        producto: Producto::UnamosCreditos,
        motivos,
        tramos: &tramos,
        pago: tramos[0].pago.mas(tramos[1].pago),
        forma: &forma,
        plazo: titular.meses.max(socio.meses) / 12,
        valor: Valor::MasSubcuenta(N::de(p.subcuenta + c.subcuenta)),
        subcuenta_en_enganche: N::entero(0),
        cat: Cat::Calcular,
        por_deudas: por_deudas || socio_por_deudas,
    };
    evaluada(credito, cx, e)
}

/// Every product, in the order of [`Producto::ALL`], written over `evaluadas` (storage the
/// caller owns, [`Evaluada::vacias`]; a kind the calibration leaves out, [`Evaluada::ausente`]);
/// `None` when the arithmetic cannot tell.
pub(super) fn todas<N: Numero>(c: &Cifras, s: &Solicitud, evaluadas: &mut [Evaluada<N>; TIPOS]) -> Option<()> {
    let (cx, p, co, h) = prestatarios(c, s);
    let [e_infonavit, e_fovissste, e_banco, e_cofi, e_unamos, e_cofinavit] = evaluadas;
    if c.productos.con_cofinavit {
        Cofinavit::de(c, &p, &h)?.evaluar(&cx, &p, &h, e_cofinavit)?;
    } else {
        *e_cofinavit = Evaluada::ausente(Producto::Cofinavit);
    }
    // The applicant's INFONAVIT credit serves INFONAVIT and Unamos Créditos: computed once.
    let titular = infonavit_de(c, &p)?;
    infonavit(&cx, &p, titular, e_infonavit)?;
    fovissste(&cx, &p, e_fovissste)?;
    hipoteca_bancaria(&cx, &p, &h, e_banco)?;
    infonavit_mas_banco(&cx, &p, &h, e_cofi)?;
    unamos_creditos(&cx, &p, co.as_ref(), titular, e_infonavit.cat, e_unamos)
}

/// The products a what-if can recommend, each written in its slot of `evaluadas` (empty when
/// called) as [`todas`] writes it: [`todas`] without those a rule refuses before any figure
/// (the housing funds' and Cofinavit's to a non-contributor, Unamos Créditos' without a
/// co-borrower; each product's own rules below refuse them with the same test), which no
/// recommendation takes and a what-if does not show, nor those another offer certainly
/// outranks (INFONAVIT alone and Cofinavit, below); their slots stay empty. Slots rather than
/// six offers written over: an offer is a quarter of a kilobyte, and a what-if evaluates two or
/// three. `None` when the arithmetic cannot tell.
///
/// With `unamos_sobre`, Unamos Créditos is evaluated first, and `Some(false)` answers, with no
/// other product evaluated, where it is certainly not available with a `credito_max` above
/// that credit (a what-if that adds a co-borrower is offered for nothing else:
/// `super::credito_unamos`). `previas`, by slot, are offers already evaluated that `s` would
/// give too (the caller says why: `super::credito_unamos`, `super::Evaluadas::credito_con_menos_deudas`),
/// taken whole instead of evaluated again. `Some(true)` once the slots are written. In
/// filtered arithmetic the offers are only ranked ([`Comprador::ligera`]): a CAT that breaks a
/// tie (not worked out then) makes it answer `None`, and `Decimal` works every figure out.
pub(super) fn disponibles<N: Numero>(
    c: &Cifras,
    s: &Solicitud,
    evaluadas: &mut [Option<Evaluada<N>>; TIPOS],
    unamos_sobre: Option<Decimal>,
    previas: &Previas<'_, N>,
) -> Option<bool> {
    let (mut cx, p, co, h) = prestatarios(c, s);
    cx.ligera = N::FILTRADA;
    let de_infonavit = p.cotiza_a(Institucion::Infonavit);
    let de_fovissste = p.cotiza_a(Institucion::Fovissste);
    let con_socio = de_infonavit && co.is_some();
    let setenta_treinta = sin_patron_con_subcuenta(&p).is_none();
    // Writes the offer known for `producto` in its slot, if there is one.
    let tomada = |e: &mut Option<Evaluada<N>>, producto: Producto| {
        previas[producto as usize].map(|previa| *e = Some(*previa)).is_some()
    };
    // Whether the offer in a slot certainly outranks any worth less than `valor`.
    let supera = |e: &Option<Evaluada<N>>, valor: N| e.as_ref().is_some_and(|e| e.supera(valor));
    let [e_infonavit, e_fovissste, e_banco, e_cofi, e_unamos, e_cofinavit] = evaluadas;
    // The applicant's INFONAVIT credit serves INFONAVIT and Unamos Créditos: worked out once,
    // if either is evaluated.
    let mut titular = None;
    let mut del_titular = || -> Option<DelFondo<N>> {
        if titular.is_none() {
            titular = Some(infonavit_de(c, &p)?);
        }
        titular
    };
    if con_socio && !tomada(e_unamos, Producto::UnamosCreditos) {
        let e = e_unamos.insert(Evaluada::VACIA);
        unamos_creditos(&cx, &p, co.as_ref(), del_titular()?, CatPendiente::Listo(None), e)?;
    }
    // A refused offer shows a credit of 0, never above a credit.
    let sin_unamos_mayor = |credito: Decimal| {
        e_unamos.as_ref().is_none_or(|e| e.credito_mostrado().is_some_and(|x| x <= credito))
    };
    if unamos_sobre.is_some_and(sin_unamos_mayor) {
        return Some(false);
    }
    // INFONAVIT alone is not evaluated where it cannot be recommended: refused, or beside an
    // available Unamos Créditos of a higher value whose down payment and closing costs the
    // buyer's funds cover (its value is the applicant's credit, Unamos' first part, plus the
    // applicant's sub-account, `infonavit`; `Evaluada::supera`).
    if de_infonavit && !tomada(e_infonavit, Producto::Infonavit) {
        let titular = del_titular()?;
        let superada = supera(e_unamos, titular.tramo.credito + N::de(p.subcuenta));
        if titular.motivos.is_empty() && !superada {
            infonavit(&cx, &p, titular, e_infonavit.insert(Evaluada::VACIA))?;
        }
    }
    if setenta_treinta && !tomada(e_cofi, Producto::InfonavitMasBanco) {
        infonavit_mas_banco(&cx, &p, &h, e_cofi.insert(Evaluada::VACIA))?;
    }
    if de_fovissste && !tomada(e_fovissste, Producto::Fovissste) {
        fovissste(&cx, &p, e_fovissste.insert(Evaluada::VACIA))?;
    }
    if !tomada(e_banco, Producto::HipotecaBancaria) {
        hipoteca_bancaria(&cx, &p, &h, e_banco.insert(Evaluada::VACIA))?;
    }
    // Cofinavit, last: not evaluated where an offer above certainly outranks it: a housing-fund
    // offer worth more than Cofinavit's home can be (`Cofinavit::valor_max`, from the bank
    // mortgage's offer), or any offer whose costs the buyer's funds cover where they cannot
    // cover Cofinavit's (`Cofinavit::sin_cubrir`). The 70/30 scheme and FOVISSSTE are never
    // available beside it (they are for people without an employer relation and for state
    // workers).
    if de_infonavit && c.productos.con_cofinavit && !tomada(e_cofinavit, Producto::Cofinavit) {
        let cofinavit = Cofinavit::de(c, &p, &h)?;
        let cubierta = |e: &Option<Evaluada<N>>| e.as_ref().is_some_and(Evaluada::cubierta);
        let superada = e_banco
            .as_ref()
            .and_then(|banco| cofinavit.valor_max(c, &p, banco))
            .is_some_and(|valor| supera(e_unamos, valor) || supera(e_infonavit, valor))
            || [&*e_unamos, &*e_infonavit, &*e_banco].into_iter().any(cubierta) && cofinavit.sin_cubrir(&cx, &p);
        if !superada {
            cofinavit.evaluar(&cx, &p, &h, e_cofinavit.insert(Evaluada::VACIA))?;
        }
    }
    Some(true)
}

/// Offers already evaluated, by slot, that [`disponibles`] takes as they are.
pub(super) type Previas<'a, N> = [Option<&'a Evaluada<N>>; TIPOS];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::approx::Approx;
    use crate::profile::IncomeType;

    fn cifras() -> &'static Cifras {
        Cifras::incluidas()
    }

    fn asalariado(ingreso: Decimal, edad: u32) -> Persona {
        Persona::nueva(cifras(), ingreso, IncomeType::Asalariado, 60, Some(edad), Decimal::ZERO, Decimal::ZERO, None)
    }

    /// The payment limit as PRODUCTS.md writes it (the curve's share at the salary in UMAs,
    /// times the salary) on and a centavo around each of the curve's points and across it: the
    /// same figure in `Decimal`, and in filtered arithmetic a bound that holds it.
    #[test]
    fn the_payment_limit_is_the_formula_in_both_arithmetics() {
        let r = &cifras().productos;
        let uma = cifras().productos.decimal.uma;
        let formula = |salario: Decimal| r.infonavit_pago_por_umas.eval(salario / uma) * salario;
        let centavo = Decimal::new(1, 2);
        let mut salarios = vec![Decimal::ZERO, Decimal::from(1_000_000)];
        for &(umas, _) in r.infonavit_pago_por_umas.points() {
            salarios.extend([umas * uma - centavo, umas * uma, umas * uma + centavo]);
        }
        salarios.extend((0..700).map(|i| Decimal::from(7_000) + Decimal::new(136_861 * i, 2) / Decimal::from(100)));
        for salario in salarios {
            let exacto = formula(salario);
            let decimal = pago_por_salario::<Decimal>(cifras(), salario).expect("decimal decides").valor();
            assert_eq!(decimal.round_dp(20), exacto.round_dp(20), "{salario}");
            let Some(filtrado) = pago_por_salario::<Approx>(cifras(), salario) else { continue };
            let filtrado = filtrado.valor();
            let doble = f64::try_from(decimal).expect("a double");
            assert!(filtrado.lower() <= doble && doble <= filtrado.upper(), "{salario}: {filtrado:?} against {decimal}");
        }
    }

    /// A co-borrower's credit on the applicant's terms is the one it gets on its own, in both
    /// arithmetics: the terms are shared for the very same salary (scale included) and age,
    /// whatever else differs (income type, seniority, debts), and not otherwise. The pairs cover
    /// salaries below, inside and above the payment band, equal salaries at two scales, equal
    /// salaries at other ages, and a mixed income whose payroll salary is a salaried one's.
    #[test]
    fn a_co_borrower_on_the_applicants_terms_gets_its_own_credit() {
        fn en<N: Numero>(personas: &[Persona]) -> usize {
            let mut compartidos = 0;
            for titular in personas {
                let Some(del_titular) = infonavit_de::<N>(cifras(), titular) else { continue };
                for co in personas {
                    let propio = format!("{:?}", infonavit_de::<N>(cifras(), co));
                    let junto = format!("{:?}", infonavit_del_socio(cifras(), co, titular, &del_titular));
                    assert_eq!(junto, propio, "{co:?} with {titular:?}");
                    compartidos += usize::from(co.edad == titular.edad && co.salario().serialize() == titular.salario().serialize());
                }
            }
            compartidos
        }
        let d = |text: &str| text.parse::<Decimal>().expect("decimal");
        let mut personas = Vec::new();
        for ingreso in ["5000.00", "12000.00", "12000", "12000.0000", "15000.00", "60000.00"] {
            for edad in [Some(35), Some(60), None] {
                for (meses, deudas) in [(60, "0"), (6, "3000.00"), (60, "9000.00")] {
                    personas.push(Persona::nueva(cifras(), d(ingreso), IncomeType::Asalariado, meses, edad, d(deudas), Decimal::ZERO, None));
                }
            }
        }
        // A mixed income of 24,000.00 has a payroll salary of 12,000 (half of it, at the scale of
        // its product by the calibration's `proporcion_salario_mixto`): a salaried 12,000's.
        let mixto = Persona::nueva(cifras(), d("24000.00"), IncomeType::Mixto, 24, Some(35), d("1000.00"), Decimal::ZERO, None);
        assert_eq!(mixto.salario(), Decimal::from(12_000));
        personas.push(mixto);
        assert!(en::<Decimal>(&personas) > personas.len());
        assert!(en::<Approx>(&personas) > personas.len());
    }

    /// INFONAVIT's rate rises with salary, so its credit could fall where the rate rises faster
    /// than the payment; a sweep every 7 pesos up to 130,000 finds no such drop (with the rate
    /// rounded to 4 decimals before use it found hundreds).
    #[test]
    fn infonavit_credit_never_falls_as_salary_rises() {
        for edad in [30, 55] {
            let mut anterior = Decimal::ZERO;
            for pesos in (0..130_000).step_by(7) {
                let DelFondo { motivos, tramo, .. } = infonavit_de::<Decimal>(cifras(), &asalariado(Decimal::from(pesos), edad)).expect("decimal");
                let credito = if motivos.is_empty() { tramo.credito } else { Decimal::ZERO };
                assert!(credito >= anterior, "age {edad}, salary {pesos}: {credito} < {anterior}");
                anterior = credito;
            }
        }
    }
}
