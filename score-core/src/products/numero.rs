//! The number type the product rules are written over, so that one text of the rules serves
//! two arithmetics: exact `Decimal`, which defines every figure, and filtered doubles
//! ([`Approx`]), which compute the same figures over ten times faster and certify each
//! decision (a comparison, a rounding) against their error bound. Where a certificate fails
//! the filtered evaluation answers `None` and [`super::evaluar`] repeats it in `Decimal`, so
//! the offers shown are the `Decimal` ones, digit for digit, either way.

use super::fijos::{self, Fijo};
use super::finance::{self, Flujo};
use crate::approx::{self, Approx};
use super::{Clave, Producto, TIPOS};
use crate::calibration::documento::{Cifra, Documento, ProductoCalibrado, TipoProducto};
use crate::cifras::{Cifras, PorTipo, curva, entero, por_tipo};
use crate::curve::Curve;
use crate::fast_decimal::Orden;
use crate::money::round;
use rust_decimal::Decimal;
use std::cmp::Ordering;
use std::fmt::Debug;
use std::ops::{Add, Div, Mul, Sub};

/// The rules' amounts and rates in one arithmetic, converted once when the calibration is
/// loaded rather than at every use (a conversion to filtered doubles costs about as much as
/// ten operations).
#[derive(Debug, Clone)]
pub(crate) struct Reglas<N> {
    pub uma: N,
    pub cargo_infonavit: N,
    pub infonavit_max: N,
    pub fovissste_max: N,
    pub banco_min: N,
    pub parte_cofi: N,
    /// The bank's share of a 70/30 credit, `1 − parte_cofi`, computed once.
    pub parte_banco_cofi: N,
    pub cofi_max: N,
    pub unamos_max: N,
    /// Cap on Cofinavit's INFONAVIT part (its UMAs converted).
    pub cofinavit_max: N,
    /// The bank's loan-to-value by income type.
    pub ltv: PorTipo<N>,
    /// Rate, monthly charge and fee at signing of each [`Fijo`]'s credit, by `Fijo as usize`.
    pub fijos: [(N, N, N); Fijo::ALL.len()],
    /// Closing costs over the home value, by state (INEGI code − 1).
    pub gastos_cierre: Vec<N>,
}

/// Every credit product's rules of one calibration (PRODUCTS.md section 2), read from its
/// document: the whole numbers and `Decimal` thresholds the rules compare with, [`Reglas`] in
/// both arithmetics, and the fixed products' terms by term ([`super::fijos`]), solved at load.
#[derive(Debug, Clone)]
pub(crate) struct ReglasProductos {
    pub infonavit_tasa_por_umas: Curve,
    /// Up to this salary (the rate table's first band, in pesos) INFONAVIT's rate is the first.
    pub infonavit_salario_tasa_piso: Decimal,
    /// Above this salary (the last band, in pesos) INFONAVIT's rate is the last.
    pub infonavit_salario_tasa_tope: Decimal,
    /// Payment over salary by salary in monthly UMAs.
    pub infonavit_pago_por_umas: Curve,
    /// Up to this salary (the payment curve's first point, in pesos) the share is its first.
    pub infonavit_salario_pago_piso: Decimal,
    /// From this salary (its last point, in pesos) the share is its last.
    pub infonavit_salario_pago_tope: Decimal,
    pub infonavit_pago_piso: Decimal,
    pub infonavit_pago_tope: Decimal,
    pub infonavit_plazo_max: u32,
    pub infonavit_edad_max: u32,
    pub infonavit_antiguedad_min: u32,
    pub salario_minimo_mensual: Decimal,
    pub fovissste_pti: Decimal,
    pub fovissste_plazo_max: u32,
    pub fovissste_edad_max: u32,
    pub fovissste_antiguedad_min: u32,
    pub banco_pti: Decimal,
    pub banco_plazo_max: u32,
    pub banco_edad_max: u32,
    pub banco_antiguedad_min: PorTipo<u32>,
    /// The bank product's smallest income (`ingreso_min`), if it has one.
    pub banco_ingreso_min: Option<Decimal>,
    /// Each built-in kind's `clave` in the calibration, by `Producto as usize` (the bank
    /// mortgage's: the one these rules lend with).
    pub claves: [Clave; TIPOS],
    /// Where each kind's offer is listed, by `Producto as usize`.
    pub orden: [u8; TIPOS],
    /// Whether the calibration has a Cofinavit product (the one kind it may leave out).
    pub con_cofinavit: bool,
    /// The calibration's other bank products, in its order: each as these figures with it as
    /// the bank mortgage (its `claves` and `orden` name it). Empty in the embedded calibration.
    pub otros_bancos: Vec<Cifras>,
    pub decimal: Reglas<Decimal>,
    pub filtradas: Reglas<Approx>,
    /// Payment per peso and CAT of each [`Fijo`] by term in years, in filtered arithmetic.
    pub tablas: [Vec<(Approx, Option<Approx>)>; Fijo::ALL.len()],
}

impl ReglasProductos {
    /// Placeholder while the figures they are read beside are built ([`Cifras::de`]).
    pub(crate) fn vacias() -> ReglasProductos {
        fn reglas<N: Copy>(cero: N) -> Reglas<N> {
            Reglas {
                uma: cero,
                cargo_infonavit: cero,
                infonavit_max: cero,
                fovissste_max: cero,
                banco_min: cero,
                parte_cofi: cero,
                parte_banco_cofi: cero,
                cofi_max: cero,
                unamos_max: cero,
                cofinavit_max: cero,
                ltv: PorTipo {
                    asalariado: cero,
                    mixto: cero,
                    pensionado: cero,
                    independiente: cero,
                },
                fijos: [(cero, cero, cero); Fijo::ALL.len()],
                gastos_cierre: Vec::new(),
            }
        }
        ReglasProductos {
            infonavit_tasa_por_umas: Curve::de_puntos(vec![(Decimal::ZERO, Decimal::ZERO)]),
            infonavit_salario_tasa_piso: Decimal::ZERO,
            infonavit_salario_tasa_tope: Decimal::ZERO,
            infonavit_pago_por_umas: Curve::de_puntos(vec![(Decimal::ZERO, Decimal::ZERO)]),
            infonavit_salario_pago_piso: Decimal::ZERO,
            infonavit_salario_pago_tope: Decimal::ZERO,
            infonavit_pago_piso: Decimal::ZERO,
            infonavit_pago_tope: Decimal::ZERO,
            infonavit_plazo_max: 0,
            infonavit_edad_max: 0,
            infonavit_antiguedad_min: 0,
            salario_minimo_mensual: Decimal::ZERO,
            fovissste_pti: Decimal::ZERO,
            fovissste_plazo_max: 0,
            fovissste_edad_max: 0,
            fovissste_antiguedad_min: 0,
            banco_pti: Decimal::ZERO,
            banco_plazo_max: 0,
            banco_edad_max: 0,
            banco_antiguedad_min: PorTipo {
                asalariado: 0,
                mixto: 0,
                pensionado: 0,
                independiente: 0,
            },
            banco_ingreso_min: None,
            claves: Producto::ALL.map(Producto::clave),
            orden: [0, 1, 2, 3, 4, 5],
            con_cofinavit: false,
            otros_bancos: Vec::new(),
            decimal: reglas(Decimal::ZERO),
            filtradas: reglas(Approx::exact(0.0)),
            tablas: Default::default(),
        }
    }

    /// The rules of a checked document whose general figures are `c`'s, each bank product
    /// beside the 70/30 scheme's in [`ReglasProductos::otros_bancos`].
    pub(crate) fn de(d: &Documento, c: &Cifras) -> ReglasProductos {
        let producto = |tipo: TipoProducto| d.productos.iter().find(|p| p.tipo == tipo);
        // The bank mortgage is the bank product the 70/30 scheme names (else the first).
        let cofi = producto(TipoProducto::InfonavitMasBanco);
        let bancos: Vec<&ProductoCalibrado> = d.productos.iter().filter(|p| p.tipo == TipoProducto::Bancario).collect();
        let principal = cofi
            .and_then(|p| p.banco.as_ref())
            .and_then(|b| bancos.iter().position(|p| &p.clave == b))
            .unwrap_or(0);
        let mut reglas = ReglasProductos::con_banco(d, c, bancos.get(principal).copied());
        let n = bancos.len().saturating_sub(1);
        let despues = u8::try_from(n).unwrap_or(u8::MAX);
        reglas.orden = [0, 1, 2, 3 + despues, 4 + despues, 5 + despues];
        for (i, banco) in bancos.iter().enumerate().filter(|(i, _)| *i != principal) {
            let mut otro = ReglasProductos::con_banco(d, c, Some(banco));
            let posicion = if i < principal { i + 1 } else { i };
            otro.orden[Producto::HipotecaBancaria as usize] = 2 + u8::try_from(posicion).unwrap_or(u8::MAX);
            let mut cifras = c.clone();
            cifras.productos = otro;
            // The bank's payment per peso and CAT by term, as for the bank mortgage: its only
            // table (no other product is evaluated under these figures).
            cifras.productos.tablas = super::fijos::tablas_de(&cifras, &[Fijo::Banco]);
            reglas.otros_bancos.push(cifras);
        }
        reglas
    }

    /// [`ReglasProductos::de`] with `banco` as the bank mortgage, without the other banks.
    fn con_banco(d: &Documento, c: &Cifras, banco: Option<&ProductoCalibrado>) -> ReglasProductos {
        let producto = |tipo: TipoProducto| d.productos.iter().find(|p| p.tipo == tipo);
        let v = |c: &Option<Cifra>| c.as_ref().map_or(Decimal::ZERO, |c| c.valor.0);
        let n = |c: &Option<Cifra>| c.as_ref().map_or(0, |c| entero(c.valor.0));
        let credito_max = |p: &ProductoCalibrado| match (&p.credito_max, &p.credito_max_umas) {
            (Some(c_), _) => c_.valor.0,
            (None, Some(u)) => u.valor.0 * c.uma_mensual,
            (None, None) => Decimal::MAX,
        };
        // The validation requires one product of each kind.
        let infonavit = producto(TipoProducto::Infonavit);
        let fovissste = producto(TipoProducto::Fovissste);
        let cofi = producto(TipoProducto::InfonavitMasBanco);
        let unamos = producto(TipoProducto::UnamosCreditos);
        // Optional: without it, Cofinavit is not offered.
        let cofinavit = producto(TipoProducto::Cofinavit);
        let con_cofinavit = cofinavit.is_some();
        let sin = ProductoCalibrado::SIN_CIFRAS;
        let (infonavit, fovissste, banco, cofi, unamos, cofinavit) = (
            infonavit.unwrap_or(&sin),
            fovissste.unwrap_or(&sin),
            banco.unwrap_or(&sin),
            cofi.unwrap_or(&sin),
            unamos.unwrap_or(&sin),
            cofinavit.unwrap_or(&sin),
        );
        let tasas = infonavit.tasa_por_umas.as_ref().map_or_else(
            || Curve::de_puntos(vec![(Decimal::ZERO, Decimal::ZERO)]),
            curva,
        );
        let (primera, ultima) = (tasas.points()[0], tasas.points()[tasas.points().len() - 1]);
        let pagos = infonavit.pago_por_umas.as_ref().map_or_else(|| Curve::de_puntos(vec![(Decimal::ZERO, Decimal::ZERO)]), curva);
        let (pago_primero, pago_ultimo) = (pagos.points()[0], pagos.points()[pagos.points().len() - 1]);
        let cargo_infonavit = v(&infonavit.cargo_mensual);
        let ltv = banco.ltv_max.as_ref().map_or(
            PorTipo {
                asalariado: Decimal::ONE,
                mixto: Decimal::ONE,
                pensionado: Decimal::ONE,
                independiente: Decimal::ONE,
            },
            por_tipo,
        );
        let antiguedad = banco.antiguedad_min_meses.as_ref().map_or(
            PorTipo {
                asalariado: 0,
                mixto: 0,
                pensionado: 0,
                independiente: 0,
            },
            |c| por_tipo(c).map(entero),
        );
        let seguros = v(&banco.seguro_vida_mensual) + v(&banco.seguro_danos_mensual);
        let decimal = Reglas {
            uma: c.uma_mensual,
            cargo_infonavit,
            infonavit_max: credito_max(infonavit),
            fovissste_max: credito_max(fovissste),
            banco_min: v(&banco.credito_min),
            parte_cofi: v(&cofi.parte_infonavit),
            parte_banco_cofi: Decimal::from(1) - v(&cofi.parte_infonavit),
            cofi_max: credito_max(cofi),
            unamos_max: credito_max(unamos),
            cofinavit_max: credito_max(cofinavit),
            ltv,
            fijos: [
                (
                    v(&fovissste.tasa_anual),
                    v(&fovissste.cargo_mensual),
                    Decimal::ZERO,
                ),
                (v(&banco.tasa_anual), seguros, v(&banco.comision_apertura)),
                (v(&cofi.tasa_anual), cargo_infonavit, Decimal::ZERO),
                (primera.1, cargo_infonavit, Decimal::ZERO),
                (ultima.1, cargo_infonavit, Decimal::ZERO),
                (v(&cofinavit.tasa_anual), cargo_infonavit, Decimal::ZERO),
            ],
            gastos_cierre: c.estados.iter().map(|e| e.gastos_cierre).collect(),
        };
        let a = Approx::of;
        let filtradas = Reglas {
            uma: a(decimal.uma),
            cargo_infonavit: a(decimal.cargo_infonavit),
            infonavit_max: a(decimal.infonavit_max),
            fovissste_max: a(decimal.fovissste_max),
            banco_min: a(decimal.banco_min),
            parte_cofi: a(decimal.parte_cofi),
            parte_banco_cofi: Approx::exact(1.0) - a(decimal.parte_cofi),
            cofi_max: a(decimal.cofi_max),
            unamos_max: a(decimal.unamos_max),
            cofinavit_max: a(decimal.cofinavit_max),
            ltv: decimal.ltv.map(a),
            fijos: decimal.fijos.map(|(t, c_, f)| (a(t), a(c_), a(f))),
            gastos_cierre: decimal.gastos_cierre.iter().copied().map(a).collect(),
        };
        ReglasProductos {
            infonavit_salario_tasa_piso: primera.0 * c.uma_mensual,
            infonavit_salario_tasa_tope: ultima.0 * c.uma_mensual,
            infonavit_tasa_por_umas: tasas,
            infonavit_salario_pago_piso: pago_primero.0 * c.uma_mensual,
            infonavit_salario_pago_tope: pago_ultimo.0 * c.uma_mensual,
            infonavit_pago_piso: pago_primero.1,
            infonavit_pago_tope: pago_ultimo.1,
            infonavit_pago_por_umas: pagos,
            infonavit_plazo_max: n(&infonavit.plazo_max_anios),
            infonavit_edad_max: n(&infonavit.edad_mas_plazo_max),
            infonavit_antiguedad_min: n(&infonavit.antiguedad_min_meses),
            salario_minimo_mensual: c.salario_minimo_mensual,
            fovissste_pti: v(&fovissste.pago_max_sobre_ingreso),
            fovissste_plazo_max: n(&fovissste.plazo_max_anios),
            fovissste_edad_max: n(&fovissste.edad_mas_plazo_max),
            fovissste_antiguedad_min: n(&fovissste.antiguedad_min_meses),
            banco_pti: v(&banco.pago_max_sobre_ingreso),
            banco_plazo_max: n(&banco.plazo_max_anios),
            banco_edad_max: n(&banco.edad_mas_plazo_max),
            banco_antiguedad_min: antiguedad,
            banco_ingreso_min: banco.ingreso_min.as_ref().map(|c| c.valor.0),
            claves: [infonavit, fovissste, banco, cofi, unamos, cofinavit].map(|p| Clave::new(&p.clave).unwrap_or(Clave::VACIA)),
            orden: [0, 1, 2, 3, 4, 5],
            con_cofinavit,
            otros_bancos: Vec::new(),
            decimal,
            filtradas,
            tablas: Default::default(),
        }
    }
}

impl ReglasProductos {
    /// The `clave` of a built-in kind's product.
    pub(crate) fn clave(&self, producto: Producto) -> Clave {
        self.claves[producto as usize]
    }

    /// The kind of the product whose `clave` is `clave` (the other bank products' is the bank
    /// mortgage's), if the calibration has it.
    pub(crate) fn tipo_de(&self, clave: Clave) -> Option<Producto> {
        let propio = Producto::ALL.into_iter().find(|&p| self.clave(p) == clave);
        propio.or_else(|| self.otro_banco(clave).map(|_| Producto::HipotecaBancaria))
    }

    /// The figures of another bank product, by its `clave`.
    fn otro_banco(&self, clave: Clave) -> Option<&Cifras> {
        self.otros_bancos.iter().find(|c| c.productos.clave(Producto::HipotecaBancaria) == clave)
    }

    /// The longest term in years of the product `clave` (0 when the calibration has none).
    pub(crate) fn plazo_max_de(&self, c: &Cifras, clave: Clave) -> u32 {
        match self.otro_banco(clave) {
            Some(otro) => otro.productos.banco_plazo_max,
            None => self.tipo_de(clave).map_or(0, |p| p.plazo_max_en(c)),
        }
    }
}

/// Arithmetic on amounts and rates. Operations follow the written order of the rules: in
/// `Decimal` each result is rounded to 28 digits, so the order is part of the definition.
pub(super) trait Numero:
    Copy + Debug + 'static + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Div<Output = Self>
{
    /// The rules' amounts and rates of a calibration in this arithmetic.
    fn reglas(c: &Cifras) -> &Reglas<Self>;

    /// The value of a decimal input.
    fn de(d: Decimal) -> Self;

    /// A whole number.
    fn entero(n: u32) -> Self;


    /// `self < other`, or `None` when the arithmetic cannot tell.
    fn menor(self, other: Self) -> Option<bool>;

    /// `self == 0`, or `None` when the arithmetic cannot tell.
    fn es_cero(self) -> Option<bool>;

    /// Rounded half away from zero to `dp` decimals, or `None` when the arithmetic cannot tell.
    fn redondear(self, dp: u32) -> Option<Decimal>;

    /// `(1 + j)^n`: `Some(None)` beyond what a `Decimal` holds (then `(1 + j)^-n` is below
    /// 1e-28 and the rules use the limit), `None` when the arithmetic cannot tell.
    fn crecimiento(j: Self, n: u32) -> Option<Option<Self>>;

    /// A piecewise-linear curve at `x`.
    fn en_curva(curva: &Curve, x: Self) -> Option<Self>;

    /// Banxico's CAT of `neto` received against `flujos` paid (see [`finance::cat`]):
    /// `Some(None)` when there is none, `None` when the arithmetic cannot tell.
    fn cat(neto: Self, flujos: &[Flujo<Self>]) -> Option<Option<Self>>;

    /// A fixed product's payment per peso and CAT for a term, where this arithmetic keeps
    /// them (see [`super::fijos`]); `None`: compute them.
    fn fijo(_c: &Cifras, _fijo: Fijo, _plazo: u32) -> Option<(Self, Option<Self>)> {
        None
    }

    /// `self <= other`.
    fn hasta(self, other: Self) -> Option<bool> {
        other.menor(self).map(|mayor| !mayor)
    }

    /// The order of the two, or `None` when the arithmetic cannot tell (equal values only
    /// compare equal where they are known exactly).
    fn orden(self, other: Self) -> Option<Ordering> {
        if self.menor(other)? {
            Some(Ordering::Less)
        } else if other.menor(self)? {
            Some(Ordering::Greater)
        } else {
            Some(Ordering::Equal)
        }
    }
}

impl Numero for Decimal {
    fn reglas(c: &Cifras) -> &Reglas<Self> {
        &c.productos.decimal
    }

    fn de(d: Decimal) -> Self {
        d
    }

    fn entero(n: u32) -> Self {
        Decimal::from(n)
    }


    fn menor(self, other: Self) -> Option<bool> {
        Some(Orden(self) < Orden(other))
    }

    fn es_cero(self) -> Option<bool> {
        Some(self.is_zero())
    }

    fn redondear(self, dp: u32) -> Option<Decimal> {
        Some(round(self, dp))
    }

    fn crecimiento(j: Self, n: u32) -> Option<Option<Self>> {
        Some(finance::crecimiento(j, n))
    }

    fn en_curva(curva: &Curve, x: Self) -> Option<Self> {
        Some(curva.eval(x))
    }

    fn cat(neto: Self, flujos: &[Flujo<Self>]) -> Option<Option<Self>> {
        Some(finance::cat(neto, flujos))
    }
}

/// Growth beyond this is refused by the filtered arithmetic: near `Decimal`'s limit (7.9e28)
/// the decimal rules switch to the limit formula, and doubles cannot tell on which side.
const CRECIMIENTO_MAX: f64 = 1e27;

impl Numero for Approx {
    fn reglas(c: &Cifras) -> &Reglas<Self> {
        &c.productos.filtradas
    }

    fn de(d: Decimal) -> Self {
        Approx::of(d)
    }

    fn entero(n: u32) -> Self {
        Approx::exact(f64::from(n))
    }


    fn menor(self, other: Self) -> Option<bool> {
        approx::less(self, other)
    }

    fn es_cero(self) -> Option<bool> {
        approx::is_zero(self)
    }

    fn redondear(self, dp: u32) -> Option<Decimal> {
        approx::round_dp(self, dp)
    }

    fn crecimiento(j: Self, n: u32) -> Option<Option<Self>> {
        let p = (Approx::exact(1.0) + j).potencia(n);
        (p.value() + p.bound() < CRECIMIENTO_MAX).then_some(Some(p))
    }

    fn en_curva(curva: &Curve, x: Self) -> Option<Self> {
        curva.eval_approx(x)
    }

    fn fijo(c: &Cifras, fijo: Fijo, plazo: u32) -> Option<(Self, Option<Self>)> {
        fijos::fila(c, fijo, plazo)
    }

    fn cat(neto: Self, flujos: &[Flujo<Self>]) -> Option<Option<Self>> {
        finance::cat_filtrado(neto, flujos)
    }
}
