//! What the tests of printed documents share: amounts and dates as Mexican documents print
//! them, the print a payroll program makes of a receipt, and a month's bank statement in each
//! described layout. (score-ocr's and the server's tests print the same documents to PDF and
//! images with it.)

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
    t.push_str(&format!("Versión del comprobante: {}      Fecha de emisión: {}\n", f.version.as_deref().unwrap_or_default(), f.fecha.as_deref().unwrap_or_default()));
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

/// An amount of `units` pesos and `cents` centavos, with the sign of `units`.
pub fn d(units: i64, cents: i64) -> Decimal {
    Decimal::new(units * 100 + units.signum() * cents, 2)
}


const MES: [&str; 12] = ["ENE", "FEB", "MAR", "ABR", "MAY", "JUN", "JUL", "AGO", "SEP", "OCT", "NOV", "DIC"];

/// A date `(year, month, day)` in a layout's format.
pub fn date(layout: &str, (y, m, day): (i32, u32, u32)) -> String {
    match layout {
        "altiplano" => format!("{day:02}/{m:02}/{y}"),
        "pacifico" => format!("{day:02}-{}-{y}", MES[m as usize - 1]),
        _ => format!("{y}-{m:02}-{day:02}"),
    }
}

pub type Movement = ((i32, u32, u32), &'static str, Decimal);

/// A month's statement of `layout`, from March 1 to March 31 of `year` shifted by `month`.
pub fn statement(layout: &str, month: u32, opening: Decimal, movements: &[Movement]) -> String {
    let last = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month as usize - 1];
    let (from, to) = (date(layout, (2025, month, 1)), date(layout, (2025, month, last)));
    let deposits: Decimal = movements.iter().map(|m| m.2).filter(|a| *a > Decimal::ZERO).sum();
    let withdrawals: Decimal = -movements.iter().map(|m| m.2).filter(|a| *a < Decimal::ZERO).sum::<Decimal>();
    let closing = opening + deposits - withdrawals;
    let mut balance = opening;
    let mut rows = String::new();
    for (when, what, amount) in movements {
        balance += *amount;
        let (a, b) = (*amount, balance);
        rows.push_str(&match layout {
            "altiplano" if a < Decimal::ZERO => format!("{} {what} {} {}\n", date(layout, *when), money(-a), money(b)),
            "altiplano" => format!("{} {what} {} {}\n", date(layout, *when), money(a), money(b)),
            "pacifico" => format!("{} {what}   {}   {}\n", date(layout, *when), money(a.abs()), money(b)),
            _ => format!("{} {what} {} {}\n", date(layout, *when), money(a), money(b)),
        });
    }
    match layout {
        "altiplano" => format!(
            "BANCO ALTIPLANO, S.A.\nEstado de cuenta\nTitular: MARIA LOPEZ GARCIA\nNúmero de cuenta: ****4821\n\
             Periodo del {from} al {to}\nSaldo anterior: ${}\nTotal de depósitos: ${}\nTotal de retiros: ${}\n\
             Saldo al corte: ${}\nDETALLE DE MOVIMIENTOS\nFecha Concepto Retiros Depósitos Saldo\n{rows}Saldo al corte: ${}\n",
            money(opening), money(deposits), money(withdrawals), money(closing), money(closing)
        ),
        "pacifico" => format!(
            "Banco del Pacífico Mexicano\nNombre del cliente: MARIA LOPEZ GARCIA\nCuenta CLABE: 0123 **** **** 4821\n\
             Periodo: {from} al {to}\nSaldo inicial del periodo {}\nAbonos del periodo {}\nCargos del periodo {}\n\
             Saldo final del periodo {}\nMOVIMIENTOS DEL PERIODO\nFecha Descripción Abono Cargo Saldo\n{rows}\
             Total de movimientos: {}\n",
            money(opening), money(deposits), money(withdrawals), money(closing), movements.len()
        ),
        _ => format!(
            "CAJA SIERRA MADRE S.C. de A.P.\nSocio: MARIA LOPEZ GARCIA\nCuenta: 77-4821\nEstado de cuenta del {from} al {to}\n\
             Saldo de apertura {}\nOPERACIONES\nFecha Referencia Importe Saldo\n{rows}Suma de entradas {}\n\
             Suma de salidas {}\nSaldo de cierre {}\n",
            money(opening), money(deposits), money(withdrawals), money(closing)
        ),
    }
}

pub fn month_movements(month: u32, fee: &'static str) -> Vec<Movement> {
    vec![
        ((2025, month, 3), "DEPOSITO CLIENTE ACME 0001", d(18_000, 0)),
        ((2025, month, 5), "PAGO CREDITO AUTOMOTRIZ REF 4411", d(-4_250, 0)),
        ((2025, month, 9), "TRASPASO ENTRE CUENTAS PROPIAS", d(5_000, 0)),
        ((2025, month, 12), fee, d(-1_234, 56)),
        ((2025, month, 20), "SPEI RECIBIDO HONORARIOS 7731", d(12_500, 50)),
        ((2025, month, 28), "PAGO TARJETA DE CREDITO 5521", d(-3_100, 0)),
    ]
}
