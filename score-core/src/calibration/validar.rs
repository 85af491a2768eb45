//! What makes a calibration document acceptable beyond its shape: every figure in its range and
//! with its origin, curves that rise (or fall) as their meaning says, products with the keys their
//! `tipo` needs and a unique `clave`, the 32 states in order, dates that are dates. The first
//! fault is reported with the path of its key (`productos[2].tasa_anual`).

use super::documento::*;
use super::ruta::Ruta;
use crate::error::{Falla, ScoreError};
use rust_decimal::Decimal;
use std::collections::BTreeSet;

/// A fault at `path`.
pub(super) fn falla(path: &str, message: String) -> ScoreError {
    Falla::CalibracionInvalida.en(Some(path), &[("detalle", &message)]).into()
}

/// A fault at `ruta`.
pub(super) fn falla_en(ruta: &Ruta<'_>, message: String) -> ScoreError {
    falla(&ruta.to_string(), message)
}

type R = Result<(), ScoreError>;

/// What a figure measures, which sets its range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tipo {
    /// A rate or a share that may be 0: 0 ≤ v < 1.
    Tasa,
    /// A share of something that must exist: 0 < v ≤ 1.
    Proporcion,
    /// An amount of money or a count that must be positive: v > 0.
    Monto,
    /// A multiplier: 0 < v ≤ 10.
    Factor,
    /// Points of a component: 0 ≤ v ≤ 100.
    Puntos,
    /// A whole number of years or months: 1 ≤ v ≤ the bound.
    Entero(u32),
}

fn en_rango(path: &Ruta<'_>, v: Decimal, tipo: Tipo) -> R {
    let ok = match tipo {
        Tipo::Tasa => v >= Decimal::ZERO && v < Decimal::ONE,
        Tipo::Proporcion => v > Decimal::ZERO && v <= Decimal::ONE,
        Tipo::Monto => v > Decimal::ZERO,
        Tipo::Factor => v > Decimal::ZERO && v <= Decimal::TEN,
        Tipo::Puntos => v >= Decimal::ZERO && v <= Decimal::ONE_HUNDRED,
        Tipo::Entero(max) => v.fract().is_zero() && v >= Decimal::ONE && v <= Decimal::from(max),
    };
    if ok {
        return Ok(());
    }
    let rango = match tipo {
        Tipo::Tasa => "entre 0 y menos de 1 (0.1165 es 11.65%)".to_owned(),
        Tipo::Proporcion => "mayor que 0 y a lo más 1".to_owned(),
        Tipo::Monto => "mayor que 0".to_owned(),
        Tipo::Factor => "mayor que 0 y a lo más 10".to_owned(),
        Tipo::Puntos => "entre 0 y 100".to_owned(),
        Tipo::Entero(max) => format!("un número entero de 1 a {max}"),
    };
    Err(falla_en(path, format!("La cifra `{path}` vale {v}; debe ser {rango}.")))
}

/// Where a figure comes from: a source that `fuentes` defines, or an estimate's reason.
fn origen(path: &Ruta<'_>, fuente: &Option<String>, estimacion: &Option<String>, d: &Documento) -> R {
    match (fuente, estimacion) {
        (Some(f), None) if d.fuentes.contains_key(f) => Ok(()),
        (Some(f), None) => Err(falla_en(
            &path.clave("fuente"),
            format!("La fuente «{f}» de `{path}` no está definida en [fuentes]."),
        )),
        (None, Some(e)) if !e.trim().is_empty() => Ok(()),
        (Some(_), Some(_)) => Err(falla_en(path, format!("`{path}` tiene `fuente` y `estimacion`: una cifra lleva una u otra."))),
        _ => Err(falla_en(
            path,
            format!("`{path}` no dice de dónde viene: agregue `fuente` (una clave de [fuentes]) o `estimacion` con su razón."),
        )),
    }
}

/// A figure: in range, with its origin; per-type values only where `por_tipo`.
fn cifra(path: &Ruta<'_>, c: &Cifra, tipo: Tipo, por_tipo: bool, d: &Documento) -> R {
    en_rango(path, c.valor.0, tipo)?;
    for (nombre, v) in [("independiente", c.independiente), ("mixto", c.mixto), ("pensionado", c.pensionado)] {
        let Some(v) = v else { continue };
        let sub = path.clave(nombre);
        if !por_tipo {
            return Err(falla_en(&sub, format!("`{path}` no cambia por tipo de ingreso: quite `{nombre}`.")));
        }
        en_rango(&sub, v.0, tipo)?;
    }
    origen(path, &c.fuente, &c.estimacion, d)
}

/// Which way a curve's points go as `x` rises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sentido {
    Sube,
    Baja,
}

fn curva(path: &Ruta<'_>, c: &Curva, sentido: Sentido, y: Tipo, d: &Documento) -> R {
    let puntos = path.clave("puntos");
    if c.puntos.len() < 2 {
        return Err(falla_en(&puntos, format!("La curva `{path}` necesita al menos dos puntos.")));
    }
    for (i, (px, py)) in c.puntos.iter().enumerate() {
        let p = puntos.indice(i);
        if px.0 < Decimal::ZERO {
            return Err(falla_en(&p, format!("El punto `{p}` tiene x negativa ({}).", px.0)));
        }
        en_rango(&p, py.0, y)?;
    }
    for (i, w) in c.puntos.windows(2).enumerate() {
        let p = puntos.indice(i + 1);
        let ((x0, y0), (x1, y1)) = (w[0], w[1]);
        if x1.0 <= x0.0 {
            return Err(falla_en(&p, format!("La curva `{path}` no es creciente en x: {} sigue a {}.", x1.0, x0.0)));
        }
        let ok = match sentido {
            Sentido::Sube => y1.0 >= y0.0,
            Sentido::Baja => y1.0 <= y0.0,
        };
        if !ok {
            let debe = if sentido == Sentido::Sube { "sube" } else { "baja" };
            return Err(falla_en(&p, format!("La curva `{path}` no es monótona: {debe} con x, pero pasa de {} a {}.", y0.0, y1.0)));
        }
    }
    origen(path, &c.fuente, &c.estimacion, d)
}

/// `AAAA-MM-DD`, a real calendar day.
fn fecha(path: &Ruta<'_>, f: &str) -> R {
    let partes: Vec<&str> = f.split('-').collect();
    let ok = match partes[..] {
        [a, m, d] if a.len() == 4 && m.len() == 2 && d.len() == 2 => {
            match (a.parse::<u32>(), m.parse::<u32>(), d.parse::<u32>()) {
                (Ok(a), Ok(m), Ok(d)) => {
                    let bisiesto = a % 4 == 0 && (a % 100 != 0 || a % 400 == 0);
                    let dias = [31, if bisiesto { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
                    (1..=12).contains(&m) && d >= 1 && d <= dias[(m - 1) as usize] && (1900..=2200).contains(&a)
                }
                _ => false,
            }
        }
        _ => false,
    };
    if ok { Ok(()) } else { Err(falla_en(path, format!("`{path}` debe ser una fecha AAAA-MM-DD; dice «{f}»."))) }
}

fn texto(path: &Ruta<'_>, t: &str) -> R {
    if t.trim().is_empty() { Err(falla_en(path, format!("`{path}` no puede estar vacío."))) } else { Ok(()) }
}

/// `UPPER_SNAKE_CASE`: capital letters and digits in words joined by `_`.
pub(super) fn es_clave(c: &str) -> bool {
    !c.is_empty()
        && c.split('_').all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit()))
        && c.as_bytes()[0].is_ascii_uppercase()
}

/// The whole document.
pub(super) fn documento(d: &Documento) -> R {
    texto(&Ruta::de_raiz("id"), &d.id)?;
    if d.id.len() > 64 || !d.id.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b)) {
        return Err(falla("id", format!("`id` debe tener a lo más 64 letras, dígitos, `.`, `_` o `-`; dice «{}».", d.id)));
    }
    fecha(&Ruta::de_raiz("vigente_desde"), &d.vigente_desde)?;
    let fuentes = Ruta::de_raiz("fuentes");
    for (clave, f) in &d.fuentes {
        let p = fuentes.clave(clave);
        texto(&p.clave("editor"), &f.editor)?;
        texto(&p.clave("titulo"), &f.titulo)?;
        texto(&p.clave("direccion"), &f.direccion)?;
        fecha(&p.clave("fecha"), &f.fecha)?;
    }
    general(&d.general, d)?;
    curvas(&d.curvas, d)?;
    let g = &d.gastos_cierre;
    let gastos = Ruta::de_raiz("gastos_cierre");
    for (n, c) in [("notario", &g.notario), ("registro", &g.registro), ("avaluo", &g.avaluo)] {
        cifra(&gastos.clave(n), c, Tipo::Tasa, false, d)?;
    }
    productos(d)?;
    estados(d)
}

fn general(g: &General, d: &Documento) -> R {
    let general = Ruta::de_raiz("general");
    fecha(&general.clave("uma_vigente_desde"), &g.uma_vigente_desde)?;
    for (n, c) in g.campos() {
        cifra(&general.clave(n), c, tipo_general(n), false, d)?;
    }
    if g.factor_min.valor.0 > g.factor_max.valor.0 {
        return Err(falla("general.factor_min", "`general.factor_min` es mayor que `general.factor_max`.".into()));
    }
    if g.pti_max.valor.0 > g.dti_total_max.valor.0 {
        return Err(falla("general.pti_max", "`general.pti_max` es mayor que `general.dti_total_max`: el pago de la hipoteca es parte de la deuda total.".into()));
    }
    if g.umbral_m2_adecuado.valor.0 > g.umbral_m2_holgado.valor.0 {
        return Err(falla("general.umbral_m2_adecuado", "`general.umbral_m2_adecuado` es mayor que `general.umbral_m2_holgado`.".into()));
    }
    Ok(())
}

/// What a general figure measures.
fn tipo_general(nombre: &str) -> Tipo {
    use Tipo::*;
    match nombre {
        "salario_minimo_diario" => Monto,
        "dias_por_mes" => Monto,
        "uma_diaria" => Monto,
        "linea_pobreza_urbana" => Monto,
        "personas_hogar_default" => Factor,
        "factor_min" => Factor,
        "factor_max" => Factor,
        "puntos_deudas_no_declaradas" => Puntos,
        "proporcion_deudas_no_declaradas" => Tasa,
        "puntos_tipo_asalariado" => Puntos,
        "puntos_tipo_mixto" => Puntos,
        "puntos_tipo_pensionado" => Puntos,
        "puntos_tipo_independiente" => Puntos,
        "pti_max" => Proporcion,
        "dti_total_max" => Proporcion,
        "rendimiento_renta_anual" => Tasa,
        "aportacion_fondo" => Tasa,
        "tope_sbc_umas" => Monto,
        "meses_fondo_max" => Entero(1200),
        "proporcion_salario_mixto" => Proporcion,
        "m2_nucleo_base" => Monto,
        "m2_por_dormitorio_extra" => Monto,
        "factor_muros_circulacion" => Factor,
        "personas_por_dormitorio" => Factor,
        "umbral_m2_adecuado" => Factor,
        "umbral_m2_holgado" => Factor,
        "umbral_enganche_parcial" => Proporcion,
        "umbral_recomendacion" => Puntos,
        "max_recomendaciones_componente" => Entero(6),
        _ => Monto,
    }
}

fn curvas(c: &Curvas, d: &Documento) -> R {
    use Sentido::*;
    let curvas = Ruta::de_raiz("curvas");
    for (n, curva_) in c.campos() {
        let sentido = if n == "deudas" { Baja } else { Sube };
        curva(&curvas.clave(n), curva_, sentido, Tipo::Puntos, d)?;
    }
    Ok(())
}

/// What a product's figure measures.
fn tipo_producto(nombre: &str) -> Tipo {
    use Tipo::*;
    match nombre {
        "tasa_anual" => Tasa,
        "cargo_mensual" => Tasa,
        "comision_apertura" => Tasa,
        "seguro_vida_mensual" => Tasa,
        "seguro_danos_mensual" => Tasa,
        "ltv_max" => Proporcion,
        "pago_max_sobre_ingreso" => Proporcion,
        "plazo_max_anios" => Entero(40),
        "edad_mas_plazo_max" => Entero(120),
        "antiguedad_min_meses" => Entero(720),
        "credito_max" => Monto,
        "credito_max_umas" => Monto,
        "credito_min" => Monto,
        "ingreso_min" => Monto,
        "parte_infonavit" => Proporcion,
        _ => Monto,
    }
}

/// The keys a product of `tipo` must have, and the other keys it may have (`credito_max` stands
/// for itself or `credito_max_umas`).
pub(super) fn campos_de(tipo: TipoProducto) -> (&'static [&'static str], &'static [&'static str]) {
    match tipo {
        TipoProducto::Infonavit => (
            &["tasa_por_umas", "cargo_mensual", "pago_por_umas", "plazo_max_anios", "edad_mas_plazo_max", "antiguedad_min_meses", "credito_max"],
            &[],
        ),
        TipoProducto::Fovissste => (
            &["tasa_anual", "cargo_mensual", "pago_max_sobre_ingreso", "plazo_max_anios", "edad_mas_plazo_max", "antiguedad_min_meses", "credito_max"],
            &[],
        ),
        TipoProducto::Bancario => (
            &["tasa_anual", "comision_apertura", "seguro_vida_mensual", "seguro_danos_mensual", "ltv_max", "pago_max_sobre_ingreso", "plazo_max_anios", "edad_mas_plazo_max", "antiguedad_min_meses"],
            &["credito_min", "ingreso_min"],
        ),
        TipoProducto::InfonavitMasBanco => (&["banco", "parte_infonavit", "tasa_anual", "credito_max"], &[]),
        TipoProducto::UnamosCreditos => (&["credito_max"], &[]),
        TipoProducto::Cofinavit => (&["banco", "tasa_anual", "credito_max"], &[]),
    }
}

fn productos(d: &Documento) -> R {
    let mut claves = BTreeSet::new();
    let productos = Ruta::de_raiz("productos");
    for (i, p) in d.productos.iter().enumerate() {
        let ruta = productos.indice(i);
        if !es_clave(&p.clave) {
            return Err(falla_en(&ruta.clave("clave"), format!("La clave «{}» debe ir en MAYUSCULAS_CON_GUIONES_BAJOS.", p.clave)));
        }
        if p.clave.len() > super::clave::CLAVE_MAX {
            return Err(falla_en(&ruta.clave("clave"), format!("La clave «{}» es larga: a lo más {} caracteres.", p.clave, super::clave::CLAVE_MAX)));
        }
        if !claves.insert(p.clave.as_str()) {
            return Err(falla_en(&ruta.clave("clave"), format!("La clave «{}» se repite: cada producto tiene la suya.", p.clave)));
        }
        texto(&ruta.clave("nombre"), &p.nombre)?;
        let (requeridos, opcionales) = campos_de(p.tipo);
        let tipo = p.tipo.as_str();
        let presente = |n: &str| match n {
            "tasa_por_umas" => p.tasa_por_umas.is_some(),
            "pago_por_umas" => p.pago_por_umas.is_some(),
            "banco" => p.banco.is_some(),
            "credito_max" => p.credito_max.is_some() || p.credito_max_umas.is_some(),
            _ => p.campos().iter().any(|(k, c)| *k == n && c.is_some()),
        };
        for n in requeridos {
            if !presente(n) {
                return Err(falla_en(&ruta.clave(n), format!("Falta `{n}` en `{ruta}`, que un producto `{tipo}` necesita.")));
            }
        }
        let admitido = |n: &str| {
            let n = if n == "credito_max_umas" { "credito_max" } else { n };
            requeridos.contains(&n) || opcionales.contains(&n)
        };
        if p.credito_max.is_some() && p.credito_max_umas.is_some() {
            return Err(falla_en(&ruta.clave("credito_max_umas"), format!("`{ruta}` da `credito_max` y `credito_max_umas`: uno u otro.")));
        }
        for (n, c) in p.campos() {
            let Some(c) = c else { continue };
            let t = tipo_producto(n);
            let sub = ruta.clave(n);
            if !admitido(n) {
                return Err(falla_en(&sub, format!("Un producto `{tipo}` no usa `{n}`: quítelo de `{ruta}`.")));
            }
            cifra(&sub, c, t, matches!(n, "ltv_max" | "antiguedad_min_meses"), d)?;
        }
        if let Some(c) = &p.tasa_por_umas {
            if !admitido("tasa_por_umas") {
                return Err(falla_en(&ruta.clave("tasa_por_umas"), format!("Un producto `{tipo}` no usa `tasa_por_umas`.")));
            }
            curva(&ruta.clave("tasa_por_umas"), c, Sentido::Sube, Tipo::Tasa, d)?;
        }
        if let Some(c) = &p.pago_por_umas {
            if !admitido("pago_por_umas") {
                return Err(falla_en(&ruta.clave("pago_por_umas"), format!("Un producto `{tipo}` no usa `pago_por_umas`.")));
            }
            curva(&ruta.clave("pago_por_umas"), c, Sentido::Sube, Tipo::Proporcion, d)?;
        }
        if let Some(banco) = &p.banco {
            if !admitido("banco") {
                return Err(falla_en(&ruta.clave("banco"), format!("Un producto `{tipo}` no usa `banco`.")));
            }
            if !d.productos.iter().any(|b| b.tipo == TipoProducto::Bancario && &b.clave == banco) {
                return Err(falla_en(&ruta.clave("banco"), format!("`{ruta}.banco` dice «{banco}», que no es la clave de un producto `bancario`.")));
            }
        }
    }
    // One product of each housing-fund kind (PRODUCTS.md), Cofinavit optional; a bank may add
    // any number of its own mortgages beside the 70/30 scheme's.
    for tipo in [TipoProducto::Infonavit, TipoProducto::Fovissste, TipoProducto::Bancario, TipoProducto::InfonavitMasBanco, TipoProducto::UnamosCreditos] {
        let n = d.productos.iter().filter(|p| p.tipo == tipo).count();
        if tipo == TipoProducto::Bancario && n == 0 {
            return Err(falla("productos", "La calibración necesita al menos un producto `bancario`.".to_owned()));
        }
        if tipo != TipoProducto::Bancario && n != 1 {
            return Err(falla(
                "productos",
                format!("La calibración debe tener exactamente un producto `{}`; tiene {n}.", tipo.as_str()),
            ));
        }
    }
    cofinavit(d)
}

/// Cofinavit, if the calibration has it: once, and lending its bank part with the bank mortgage
/// (the bank product the 70/30 scheme names), whose figures the model reads for both.
fn cofinavit(d: &Documento) -> R {
    let mut cofinavit = d.productos.iter().enumerate().filter(|(_, p)| p.tipo == TipoProducto::Cofinavit);
    let Some((i, p)) = cofinavit.next() else { return Ok(()) };
    if let Some((j, _)) = cofinavit.next() {
        return Err(falla(&format!("productos[{j}].tipo"), "La calibración puede tener a lo más un producto `cofinavit`.".to_owned()));
    }
    let setenta_treinta = d.productos.iter().find(|p| p.tipo == TipoProducto::InfonavitMasBanco).and_then(|p| p.banco.as_ref());
    match (&p.banco, setenta_treinta) {
        (Some(banco), Some(principal)) if banco != principal => Err(falla(
            &format!("productos[{i}].banco"),
            format!("`productos[{i}].banco` dice «{banco}»: Cofinavit presta su parte bancaria con la hipoteca del esquema 70/30, «{principal}»."),
        )),
        _ => Ok(()),
    }
}

fn estados(d: &Documento) -> R {
    if d.estados.len() != 32 {
        return Err(falla("estados", format!("`estados` debe tener las 32 entidades, en el orden del INEGI; tiene {}.", d.estados.len())));
    }
    let estados = Ruta::de_raiz("estados");
    for (i, e) in d.estados.iter().enumerate() {
        let path = estados.indice(i);
        // The INEGI code, two digits: `01` … `32`.
        let codigo = i + 1;
        let clave = [b'0' + (codigo / 10) as u8, b'0' + (codigo % 10) as u8];
        if e.clave.as_bytes() != clave {
            let clave = format!("{codigo:02}");
            return Err(falla_en(&path.clave("clave"), format!("`{path}.clave` debe ser «{clave}» (orden del INEGI); dice «{}».", e.clave)));
        }
        cifra(&path.clave("factor"), &e.factor, Tipo::Factor, false, d)?;
        cifra(&path.clave("precio_m2"), &e.precio_m2, Tipo::Monto, false, d)?;
        cifra(&path.clave("isai"), &e.isai, Tipo::Tasa, false, d)?;
    }
    Ok(())
}
