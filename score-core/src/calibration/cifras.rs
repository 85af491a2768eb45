//! Every figure of a document by the path of its key (`productos[2].tasa_anual`,
//! `curvas.deudas.puntos[3][1]`, `productos[2].ltv_max.independiente`), in document order: what
//! two calibrations are compared by, and what the agreement with the compiled model reads.

use super::documento::*;
use rust_decimal::Decimal;

/// `(path, value)` of every figure.
pub(crate) fn de(d: &Documento) -> Vec<(String, Decimal)> {
    let mut out = Vec::with_capacity(400);
    let g = &d.general;
    for (n, c) in [
        ("salario_minimo_diario", &g.salario_minimo_diario),
        ("dias_por_mes", &g.dias_por_mes),
        ("uma_diaria", &g.uma_diaria),
        ("linea_pobreza_urbana", &g.linea_pobreza_urbana),
        ("personas_hogar_default", &g.personas_hogar_default),
        ("factor_min", &g.factor_min),
        ("factor_max", &g.factor_max),
        ("puntos_deudas_no_declaradas", &g.puntos_deudas_no_declaradas),
        ("proporcion_deudas_no_declaradas", &g.proporcion_deudas_no_declaradas),
        ("puntos_tipo_asalariado", &g.puntos_tipo_asalariado),
        ("puntos_tipo_mixto", &g.puntos_tipo_mixto),
        ("puntos_tipo_pensionado", &g.puntos_tipo_pensionado),
        ("puntos_tipo_independiente", &g.puntos_tipo_independiente),
        ("pti_max", &g.pti_max),
        ("dti_total_max", &g.dti_total_max),
        ("rendimiento_renta_anual", &g.rendimiento_renta_anual),
        ("aportacion_fondo", &g.aportacion_fondo),
        ("tope_sbc_umas", &g.tope_sbc_umas),
        ("meses_fondo_max", &g.meses_fondo_max),
        ("proporcion_salario_mixto", &g.proporcion_salario_mixto),
        ("m2_nucleo_base", &g.m2_nucleo_base),
        ("m2_por_dormitorio_extra", &g.m2_por_dormitorio_extra),
        ("factor_muros_circulacion", &g.factor_muros_circulacion),
        ("personas_por_dormitorio", &g.personas_por_dormitorio),
        ("umbral_m2_adecuado", &g.umbral_m2_adecuado),
        ("umbral_m2_holgado", &g.umbral_m2_holgado),
        ("umbral_enganche_parcial", &g.umbral_enganche_parcial),
        ("umbral_recomendacion", &g.umbral_recomendacion),
        ("max_recomendaciones_componente", &g.max_recomendaciones_componente),
    ] {
        cifra(&mut out, &format!("general.{n}"), c);
    }
    let c = &d.curvas;
    for (n, cv) in [
        ("ingreso", &c.ingreso),
        ("antiguedad_asalariado", &c.antiguedad_asalariado),
        ("antiguedad_independiente", &c.antiguedad_independiente),
        ("deudas", &c.deudas),
        ("ahorro", &c.ahorro),
        ("ahorro_cobertura", &c.ahorro_cobertura),
        ("salud_financiera", &c.salud_financiera),
    ] {
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
        for (n, c) in [
            ("tasa_anual", &p.tasa_anual),
            ("cargo_mensual", &p.cargo_mensual),
            ("comision_apertura", &p.comision_apertura),
            ("seguro_vida_mensual", &p.seguro_vida_mensual),
            ("seguro_danos_mensual", &p.seguro_danos_mensual),
            ("ltv_max", &p.ltv_max),
            ("pago_max_salario_minimo", &p.pago_max_salario_minimo),
            ("pago_max_sobre_ingreso", &p.pago_max_sobre_ingreso),
            ("plazo_max_anios", &p.plazo_max_anios),
            ("edad_mas_plazo_max", &p.edad_mas_plazo_max),
            ("antiguedad_min_meses", &p.antiguedad_min_meses),
            ("credito_max", &p.credito_max),
            ("credito_max_umas", &p.credito_max_umas),
            ("credito_min", &p.credito_min),
            ("ingreso_min", &p.ingreso_min),
            ("parte_infonavit", &p.parte_infonavit),
        ] {
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
