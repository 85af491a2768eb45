//! Every figure of a document by the path of its key (`productos[2].tasa_anual`,
//! `curvas.deudas.puntos[3][1]`, `productos[2].ltv_max.independiente`), in document order: what
//! two calibrations are compared by, and what the agreement with the compiled model reads.

use super::documento::*;
use rust_decimal::Decimal;

/// `(path, value)` of every figure.
pub(crate) fn de(d: &Documento) -> Vec<(String, Decimal)> {
    let mut out = Vec::with_capacity(400);
    for (n, c) in d.general.campos() {
        cifra(&mut out, &format!("general.{n}"), c);
    }
    for (n, cv) in d.curvas.campos() {
        curva(&mut out, &format!("curvas.{n}"), cv);
    }
    let gc = &d.gastos_cierre;
    for (n, c) in [("notario", &gc.notario), ("registro", &gc.registro), ("avaluo", &gc.avaluo)] {
        cifra(&mut out, &format!("gastos_cierre.{n}"), c);
    }
    for (i, p) in d.productos.iter().enumerate() {
        let path = format!("productos[{i}]");
        if let Some(c) = &p.tasa_por_umas {
            curva(&mut out, &format!("{path}.tasa_por_umas"), c);
        }
        if let Some(c) = &p.pago_por_umas {
            curva(&mut out, &format!("{path}.pago_por_umas"), c);
        }
        for (n, c) in p.campos() {
            if let Some(c) = c {
                cifra(&mut out, &format!("{path}.{n}"), c);
            }
        }
    }
    for (i, e) in d.estados.iter().enumerate() {
        for (n, c) in [("factor", &e.factor), ("precio_m2", &e.precio_m2), ("isai", &e.isai)] {
            cifra(&mut out, &format!("estados[{i}].{n}"), c);
        }
    }
    out
}

fn cifra(out: &mut Vec<(String, Decimal)>, path: &str, c: &Cifra) {
    out.push((path.to_owned(), c.valor.0));
    for (n, v) in [("independiente", c.independiente), ("mixto", c.mixto), ("pensionado", c.pensionado)] {
        if let Some(v) = v {
            out.push((format!("{path}.{n}"), v.0));
        }
    }
}

fn curva(out: &mut Vec<(String, Decimal)>, path: &str, c: &Curva) {
    for (i, (x, y)) in c.puntos.iter().enumerate() {
        out.push((format!("{path}.puntos[{i}][0]"), x.0));
        out.push((format!("{path}.puntos[{i}][1]"), y.0));
    }
}
