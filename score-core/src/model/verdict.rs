//! The verdict (`dictamen`): whether the buyer pre-qualifies for a housing credit, apart from
//! the score. The score ranks a profile as the spec's formula says; the verdict applies the
//! knock-outs a lender applies before any ranking, so a high score with no credit capacity
//! reads "does not pre-qualify", and a result that rests on an assumption reads "conditioned".

use crate::cifras::Cifras;
use crate::fast_decimal::{Orden, por};
use crate::products::Motivo;
use crate::profile::Profile;
use crate::report::{
    CapacidadCompra, CodigoDictamen as D, Condicion, Dictamen, EstatusEnganche, MotivoDictamen, SaludFinanciera,
};
use rust_decimal::Decimal;
use std::borrow::Cow;
use std::sync::OnceLock;

/// Each reason's Spanish sentence, with `{…}` where it states a figure of the calibration in use
/// ([`texto_en`] fills them): a bank's calibration with other limits reads its own.
const fn plantilla(codigo: D) -> &'static str {
    match codigo {
        D::IngresoMenorAlMinimo => "Tu ingreso es menor a un salario mínimo mensual y ningún crédito te aplica: los bancos y el FOVISSSTE piden al menos ese ingreso.",
        D::DeudaMayorAlLimite => "Tus deudas pasan del {dti_total_max} de tu ingreso, el límite de endeudamiento para un crédito.",
        D::SinPlazoPorEdad => "Por tu edad no queda plazo: al terminar de pagar no puedes pasar de {edad_mas_plazo_max} años.",
        D::SinCapacidadDePago => "Con tu ingreso y tus deudas no queda pago mensual para un crédito.",
        D::SinProductoDisponible => {
            "Hoy ningún crédito de vivienda te aplica: en los productos verás el motivo de cada uno (antigüedad, monto mínimo, fondo de vivienda)."
        }
        D::DeudasNoDeclaradas => "No declaraste tus deudas: se supuso el {proporcion_deudas_no_declaradas} de tu ingreso, el promedio de los hogares con deudas.",
        D::EngancheYGastosNoCubiertos => "Tu ahorro y tu subcuenta no cubren el enganche más los gastos de escrituración.",
        D::PagoComprometeCostoDeVida => {
            "El pago mensual del crédito es mayor que lo que te queda tras el costo de vida digno de tu hogar y tus deudas: pagarlo comprometería tu gasto básico."
        }
    }
}

/// The figures the sentences state, as they read: the household's total-debt limit and the
/// share of income assumed for undeclared debts as percentages, and the bank mortgage's age
/// limit at the end of the term (the verdict's knock-out for age is the bank's, whose limit is
/// the highest) in years.
fn figuras(c: &Cifras) -> [(&'static str, String); 3] {
    [
        ("{dti_total_max}", porcentaje(c.dti_total_max)),
        ("{edad_mas_plazo_max}", c.productos.banco_edad_max.to_string()),
        ("{proporcion_deudas_no_declaradas}", porcentaje(c.proporcion_deudas_no_declaradas)),
    ]
}

/// A share as a percentage, as written: 0.40 is `40%`, 0.325 `32.5%`.
pub(crate) fn porcentaje(d: Decimal) -> String {
    format!("{}%", (d * Decimal::ONE_HUNDRED).normalize())
}

/// `plantilla` with each `{…}` mark of `figuras` replaced by its figure.
pub(crate) fn rellenar(plantilla: &str, figuras: &[(&str, String)]) -> String {
    figuras.iter().fold(plantilla.to_owned(), |texto, (marca, valor)| texto.replace(marca, valor))
}

/// The sentence of `codigo` under the figures `c`.
pub(crate) fn texto_en(c: &Cifras, codigo: D) -> String {
    rellenar(plantilla(codigo), &figuras(c))
}

/// The figures [`figuras`] writes, compared as numbers: two calibrations that agree on them
/// read the same sentences.
fn limites(c: &Cifras) -> (Decimal, u32, Decimal) {
    (c.dti_total_max, c.productos.banco_edad_max, c.proporcion_deudas_no_declaradas)
}

/// The sentence of each reason under the embedded calibration, in [`D::ALL`] order. Written
/// once, on first use, like the embedded calibration itself.
fn textos_incluidos() -> &'static [String; D::ALL.len()] {
    static TEXTOS: OnceLock<[String; D::ALL.len()]> = OnceLock::new();
    TEXTOS.get_or_init(|| D::ALL.map(|codigo| texto_en(Cifras::incluidas(), codigo)))
}

/// Every reason with its sentence under the embedded calibration, in [`D::ALL`] order: a
/// verdict's reasons under figures that state the same are a slice of it, and allocate nothing.
fn incluidos() -> &'static [MotivoDictamen; D::ALL.len()] {
    static MOTIVOS: OnceLock<[MotivoDictamen; D::ALL.len()]> = OnceLock::new();
    MOTIVOS.get_or_init(|| {
        let textos = textos_incluidos();
        std::array::from_fn(|i| MotivoDictamen { codigo: D::ALL[i], texto: Cow::Borrowed(textos[i].as_str()) })
    })
}

/// Every set of reasons with their sentences under the embedded calibration, one after
/// another: the set whose bits are `b` (bit `i` for [`D::ALL`]`[i]`) is `motivos[inicio[b]..
/// inicio[b + 1]]`. Written once, on first use, like [`incluidos`]: a verdict's reasons are a
/// slice of it and allocate nothing, whichever apply together (two reasons apart in
/// [`D::ALL`] were a list of their own at each report).
struct Conjuntos {
    motivos: Vec<MotivoDictamen>,
    inicio: [u16; (1 << D::ALL.len()) + 1],
}

fn conjuntos() -> &'static Conjuntos {
    static CONJUNTOS: OnceLock<Conjuntos> = OnceLock::new();
    CONJUNTOS.get_or_init(|| {
        let todos = incluidos();
        let mut motivos = Vec::with_capacity(D::ALL.len() << (D::ALL.len() - 1));
        let mut inicio = [0; (1 << D::ALL.len()) + 1];
        for (bits, inicio) in inicio.iter_mut().enumerate() {
            #[allow(clippy::cast_possible_truncation)] // 1,024 reasons
            {
                *inicio = motivos.len() as u16;
            }
            motivos.extend(todos.iter().enumerate().filter(|(i, _)| bits >> i & 1 != 0).map(|(_, m)| m.clone()));
        }
        Conjuntos { motivos, inicio }
    })
}

/// The reasons whose bits are set in `bits`, with their sentences under the embedded
/// calibration, borrowed from [`conjuntos`].
fn seleccion_incluida(bits: usize) -> &'static [MotivoDictamen] {
    let Conjuntos { motivos, inicio } = conjuntos();
    &motivos[usize::from(inicio[bits])..usize::from(inicio[bits + 1])]
}

/// The Spanish sentence of each reason under the embedded calibration (a report under another
/// calibration states that one's figures).
pub fn texto(codigo: D) -> &'static str {
    // `D::ALL` lists the codes in their declaration order (a test checks it).
    &textos_incluidos()[codigo as usize]
}

/// The verdict of a profile whose capacity block (the recommended product's terms) is
/// `capacidad` (shown figures: a credit that rounds to 0.00 is no credit) and whose bank
/// mortgage is refused for `motivos_banco` (empty when it is available); `salud` is the
/// report's financial-health block (its shown income left after the cost of living). Every reason that
/// applies is listed, knock-outs first, in [`D::ALL`] order; any knock-out gives
/// `NO_PRECALIFICA`, otherwise any condition `CONDICIONADO`, otherwise `PRECALIFICA`.
pub(crate) fn dictamen(
    c: &Cifras,
    profile: &Profile,
    salud: &SaludFinanciera,
    capacidad: &CapacidadCompra,
    motivos_banco: &[Motivo],
) -> Dictamen {
    let ingreso = profile.ingreso_mensual;
    let sin_credito = capacidad.plazo_anios > 0 && capacidad.credito_max.is_zero();
    let applies = |codigo: D| match codigo {
        // Below the minimum wage INFONAVIT still lends: a knock-out only where nothing does.
        D::IngresoMenorAlMinimo => sin_credito && Orden(ingreso) < Orden(c.salario_minimo_mensual),
        D::DeudaMayorAlLimite => profile
            .deudas_mensuales
            .is_some_and(|d| Orden(d) > Orden(por(c.dti_total_max, ingreso))),
        D::SinPlazoPorEdad => capacidad.plazo_anios == 0,
        // No product available (capacity then describes the bank mortgage): for want of a
        // payment when the bank's own rules leave none, otherwise for the products' reasons.
        D::SinCapacidadDePago => sin_credito && motivos_banco.contains(&Motivo::SinCapacidadDePago),
        D::SinProductoDisponible => sin_credito && !motivos_banco.contains(&Motivo::SinCapacidadDePago),
        D::DeudasNoDeclaradas => profile.deudas_mensuales.is_none(),
        D::EngancheYGastosNoCubiertos => !matches!(
            capacidad.estatus_enganche,
            EstatusEnganche::NoAplica | EstatusEnganche::Cubierto
        ),
        D::PagoComprometeCostoDeVida => {
            capacidad.credito_max > Decimal::ZERO && Orden(salud.ingreso_disponible) < Orden(capacidad.pago_mensual_estimado)
        }
    };
    let aplican = D::ALL.iter().enumerate().fold(0usize, |bits, (i, c)| if applies(*c) { bits | 1 << i } else { bits });
    let incluidas = Cifras::incluidas();
    let motivos = if std::ptr::eq(c, incluidas) || limites(c) == limites(incluidas) {
        Cow::Borrowed(seleccion_incluida(aplican))
    } else {
        // Another calibration's limits: its own sentences, for the reasons that apply.
        let propios = D::ALL.iter().enumerate().filter(|(i, _)| aplican >> i & 1 != 0);
        Cow::Owned(propios.map(|(_, &codigo)| MotivoDictamen { codigo, texto: Cow::Owned(texto_en(c, codigo)) }).collect())
    };
    let condicion = match motivos.first() {
        None => Condicion::Precalifica,
        Some(_) if motivos.iter().any(|m| m.codigo.excluye()) => Condicion::NoPrecalifica,
        Some(_) => Condicion::Condicionado,
    };
    Dictamen { precalifica: condicion != Condicion::NoPrecalifica, condicion, motivos }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`texto`] reads a reason's sentence at the code's own number.
    #[test]
    fn the_codes_are_listed_in_their_declaration_order() {
        for (i, codigo) in D::ALL.into_iter().enumerate() {
            assert_eq!(codigo as usize, i, "{codigo:?}");
        }
    }

    /// Every set of reasons reads its reasons in [`D::ALL`] order with the embedded sentences.
    #[test]
    fn every_set_of_reasons_is_its_reasons_in_order() {
        for bits in 0..1usize << D::ALL.len() {
            let esperados: Vec<MotivoDictamen> = D::ALL
                .iter()
                .enumerate()
                .filter(|(i, _)| bits >> i & 1 != 0)
                .map(|(_, &codigo)| MotivoDictamen { codigo, texto: texto(codigo).into() })
                .collect();
            assert_eq!(seleccion_incluida(bits), &esperados[..], "{bits:b}");
        }
    }
}
