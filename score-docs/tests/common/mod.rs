//! What the tests of printed documents share: amounts and dates as Mexican documents print
//! them, and the print a payroll program makes of a receipt. (score-ocr's tests print the same
//! receipts to PDF and images with it.)

#![allow(dead_code)] // each test binary uses part of it

use rust_decimal::Decimal;
use score_docs::CfdiFacts;

/// `v` as printed on a receipt or statement: `$1,234.50`, `-$80.00`.
pub fn money(v: Decimal) -> String {
    let cents = format!("{:.2}", v.abs());
    let (whole, frac) = cents.split_once('.').unwrap_or((&cents, "00"));
    let mut grouped = String::new();
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    format!("{}{grouped}.{frac}", if v < Decimal::ZERO { "-" } else { "" })
}

/// `2025-01-31` as `31/01/2025`.
pub fn dmy(iso: &str) -> String {
    format!("{}/{}/{}", &iso[8..10], &iso[5..7], &iso[0..4])
}

/// The print a payroll program makes of a receipt (two labels on some lines, as two-column
/// prints read), written independently of the reader.
pub fn print(f: &CfdiFacts) -> String {
    let mut t = String::new();
    t.push_str("RECIBO DE NÓMINA\nComprobante Fiscal Digital por Internet\n");
    t.push_str(&format!("Versión del comprobante: {}      Fecha de emisión: {}\n", f.version, f.fecha));
    t.push_str(&format!("Folio fiscal (UUID): {}\n", f.uuid.clone().unwrap_or_default()));
    t.push_str(&format!("RFC emisor: {}     Régimen fiscal: 601\n", f.emisor_rfc));
    t.push_str(&format!("RFC receptor: {}   CURP: {}\n", f.receptor_rfc, f.receptor_curp));
    let tipo = if f.tipo_nomina == "O" { "O - Ordinaria" } else { "E - Extraordinaria" };
    t.push_str(&format!("Tipo de nómina: {tipo}   Periodicidad de pago: {}\n", f.periodicidad_pago));
    t.push_str(&format!("Fecha de pago: {}\n", dmy(&f.fecha_pago)));
    t.push_str(&format!("Fecha inicial de pago: {}   Fecha final de pago: {}\n", dmy(&f.fecha_inicial_pago), dmy(&f.fecha_final_pago)));
    t.push_str(&format!("Número de días pagados: {}\n", f.num_dias_pagados));
    t.push_str(&format!("Tipo de régimen: {}   Entidad federativa: {}\n", f.tipo_regimen, f.clave_ent_fed));
    if let Some(start) = &f.fecha_inicio_rel_laboral {
        t.push_str(&format!("Fecha inicio relación laboral: {}   Antigüedad: {}\n", dmy(start), f.antiguedad.clone().unwrap_or_default()));
    }
    t.push_str(&format!("PERCEPCIONES\nClave Concepto Importe\n001 Sueldos, salarios, rayas y jornales {}\n", money(f.total_percepciones)));
    t.push_str(&format!("Total de percepciones: {}\n", money(f.total_percepciones)));
    t.push_str("DEDUCCIONES\nClave Concepto Importe\n");
    for d in &f.deducciones {
        t.push_str(&format!("{} Deducción {}\n", d.tipo, money(d.importe)));
    }
    t.push_str(&format!("Total de deducciones: {}\n", money(f.total_deducciones)));
    t.push_str(&format!("Total otros pagos: {}\n", money(f.total_otros_pagos)));
    t.push_str(&format!("Neto a pagar: {}\n", money(f.neto)));
    t
}
