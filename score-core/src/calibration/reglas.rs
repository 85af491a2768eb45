//! Every credit product's rules of one calibration, as plain data read from its document when
//! it is loaded (PRODUCTS.md section 2): the whole numbers and thresholds the rules compare with,
//! the amounts and rates in both arithmetics the products run in (exact `Decimal` and filtered
//! doubles, [`Approx`]), converted once rather than at every use, and a place for the fixed
//! products' terms by term, which `products::fijos` solves when the calibration is loaded (the
//! loader, `products::carga`, fills [`ReglasProductos::tablas`]: the calibration computes no
//! credit).

use super::clave::Clave;
use super::documento::{Cifra, Documento, ProductoCalibrado, TipoProducto};
use super::producto::{Fijo, Producto, TIPOS};
use crate::approx::Approx;
use super::lectura::{PorTipo, curva, entero, por_tipo};
use crate::curve::Curve;
use rust_decimal::Decimal;

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
/// both arithmetics, and the fixed products' terms by term (`products::fijos`), solved at load.
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
    pub decimal: Reglas<Decimal>,
    pub filtradas: Reglas<Approx>,
    /// Payment per peso and CAT of each [`Fijo`] by term in years, in filtered arithmetic.
    pub tablas: [Vec<(Approx, Option<Approx>)>; Fijo::ALL.len()],
}

impl ReglasProductos {
    /// Placeholder while the figures they are read beside are built (`Cifras::de`).
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
            decimal: reglas(Decimal::ZERO),
            filtradas: reglas(Approx::exact(0.0)),
            tablas: Default::default(),
        }
    }

    /// The rules of a checked document read beside its general figures (`base`), with the bank
    /// product the 70/30 scheme names as the bank mortgage; and, for each of its other bank
    /// products in the document's order, the same rules with that one as the bank mortgage
    /// (its `claves` and `orden` name it; none in the embedded calibration).
    pub(crate) fn de(d: &Documento, c: &Base<'_>) -> (ReglasProductos, Vec<ReglasProductos>) {
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
        let mut otros = Vec::with_capacity(n);
        for (i, banco) in bancos.iter().enumerate().filter(|(i, _)| *i != principal) {
            let mut otro = ReglasProductos::con_banco(d, c, Some(banco));
            let posicion = if i < principal { i + 1 } else { i };
            otro.orden[Producto::HipotecaBancaria as usize] = 2 + u8::try_from(posicion).unwrap_or(u8::MAX);
            otros.push(otro);
        }
        (reglas, otros)
    }

    /// [`ReglasProductos::de`] with `banco` as the bank mortgage, without the other banks.
    fn con_banco(d: &Documento, c: &Base<'_>, banco: Option<&ProductoCalibrado>) -> ReglasProductos {
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
            gastos_cierre: c.gastos_cierre.to_vec(),
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

    /// The product's longest term in years: its term when age does not shorten it.
    pub(crate) fn plazo_max(&self, producto: Producto) -> u32 {
        match producto {
            Producto::Infonavit | Producto::UnamosCreditos => self.infonavit_plazo_max,
            Producto::Fovissste => self.fovissste_plazo_max,
            Producto::HipotecaBancaria | Producto::InfonavitMasBanco | Producto::Cofinavit => self.banco_plazo_max,
        }
    }

    /// The longest term in years of a fixed product's credit.
    pub(crate) fn plazo_max_fijo(&self, fijo: Fijo) -> u32 {
        match fijo {
            Fijo::Fovissste => self.fovissste_plazo_max,
            Fijo::Banco | Fijo::Cofi | Fijo::Cofinavit => self.banco_plazo_max,
            Fijo::InfonavitPiso | Fijo::InfonavitTope => self.infonavit_plazo_max,
        }
    }
}

/// The general figures a calibration's product rules are read beside (`Cifras::de` gives them).
pub(crate) struct Base<'a> {
    /// One monthly UMA, MXN: caps written in UMAs are converted with it.
    pub uma_mensual: Decimal,
    /// One monthly minimum wage, MXN.
    pub salario_minimo_mensual: Decimal,
    /// Every state's closing costs over the home value, by INEGI code − 1.
    pub gastos_cierre: &'a [Decimal],
}
