//! The embedded calibration's figures, for the tests that compute with them independently of
//! the crate: read from `Calibration::default()` by the path of their key, the one definition
//! of every figure a calibration can change (no test keeps its own copy).

#![allow(dead_code)]

use rust_decimal::Decimal;
use score_core::Calibration;
use std::collections::BTreeMap;
use std::sync::OnceLock;

fn cifras() -> &'static BTreeMap<String, Decimal> {
    static CIFRAS: OnceLock<BTreeMap<String, Decimal>> = OnceLock::new();
    CIFRAS.get_or_init(|| Calibration::default().cifras().into_iter().collect())
}

/// The figure at `path` (`general.uma_diaria`, `productos[2].tasa_anual`).
pub fn cifra(path: &str) -> Decimal {
    *cifras().get(path).unwrap_or_else(|| panic!("the embedded calibration has no {path}"))
}

/// The points of the curve at `path` (`curvas.ingreso`, `productos[0].tasa_por_umas`).
pub fn puntos(path: &str) -> Vec<(Decimal, Decimal)> {
    let punto = |i: usize, j: usize| cifras().get(&format!("{path}.puntos[{i}][{j}]")).copied();
    (0..).map_while(|i| Some((punto(i, 0)?, punto(i, 1)?))).collect()
}

/// A state's figure (`factor`, `precio_m2`, `isai`) by its INEGI code.
pub fn del_estado(inegi: u8, figura: &str) -> Decimal {
    cifra(&format!("estados[{}].{figura}", inegi - 1))
}

/// The embedded calibration's product of kind `tipo` (`"bancario"`): its index in `productos`.
pub fn producto(tipo: &str) -> usize {
    let json = Calibration::default().to_json_value();
    let productos = json["productos"].as_array().expect("productos");
    productos.iter().position(|p| p["tipo"] == tipo).unwrap_or_else(|| panic!("no {tipo} product"))
}

/// One monthly UMA: `uma_diaria × dias_por_mes`.
pub fn uma_mensual() -> Decimal {
    cifra("general.uma_diaria") * cifra("general.dias_por_mes")
}

/// One monthly minimum wage: `salario_minimo_diario × 365 / 12`, to the centavo.
pub fn salario_minimo_mensual() -> Decimal {
    score_core::money::money(cifra("general.salario_minimo_diario") * Decimal::from(365) / Decimal::from(12))
}
