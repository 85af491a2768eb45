//! Bank statements in the three described layouts: figures, checks, the self-employed income
//! rule and recurring debt-like payments.

mod common;

use common::{d, month_movements, statement};
use rust_decimal::Decimal;
use score_docs::{
    BankLayout, DEFAULT_EXPENSE_FACTOR, DocErrorCode, Documento, EstadoCuenta, Fuente, ingreso_independiente, read_document_text,
    read_statement,
};

fn read(layout: &str, text: &str) -> EstadoCuenta {
    let layouts = BankLayout::builtin();
    match read_document_text(text, None, Fuente::Pdf, Decimal::ONE, &layouts) {
        Ok(Documento::EstadoCuenta(s)) => {
            assert_eq!(s.banco_clave, layout);
            *s
        }
        other => panic!("{layout}: {other:?}\n{text}"),
    }
}

#[test]
fn three_layouts_give_the_same_figures() {
    assert_eq!(BankLayout::builtin().len(), 3, "every shipped description parses");
    for layout in ["altiplano", "pacifico", "sierra"] {
        let text = statement(layout, 3, d(10_000, 0), &month_movements(3, "COMPRA SUPERMERCADO"));
        let s = read(layout, &text);
        assert!(s.verificado, "{layout}: {:?}\n{text}", s.comprobaciones);
        assert_eq!(s.desde.to_string(), "2025-03-01");
        assert_eq!(s.hasta.to_string(), "2025-03-31");
        assert_eq!(s.saldo_inicial, d(10_000, 0));
        assert_eq!(s.depositos, d(35_500, 50), "{layout}");
        assert_eq!(s.retiros, d(8_584, 56), "{layout}");
        assert_eq!(s.saldo_final, d(36_915, 94));
        assert_eq!(s.movimientos.len(), 6);
        assert_eq!(s.movimientos[1].importe, d(-4_250, 0));
        // Day-end balances: 10,000 on days 1-2, then after each movement (see month_movements).
        let balances = [
            (2, d(10_000, 0)),
            (2, d(28_000, 0)),
            (4, d(23_750, 0)),
            (3, d(28_750, 0)),
            (8, d(27_515, 44)),
            (8, d(40_015, 94)),
            (4, d(36_915, 94)),
        ];
        let total: Decimal = balances.iter().map(|(days, b)| Decimal::from(*days) * *b).sum();
        assert_eq!(balances.iter().map(|(n, _)| n).sum::<i32>(), 31);
        assert_eq!(s.saldo_promedio, (total / Decimal::from(31)).round_dp(2), "{layout}");
        assert!(s.titular.as_deref().is_some_and(|t| t.contains("MARIA LOPEZ")), "{layout}: {:?}", s.titular);
        assert!(s.cuenta.as_deref().is_some_and(|c| c.contains("4821")), "{layout}: {:?}", s.cuenta);
    }
}

#[test]
fn a_statement_that_does_not_add_up_is_not_verified() {
    let text = statement("altiplano", 3, d(10_000, 0), &month_movements(3, "COMPRA"));
    // A balance and the next amount misread as unrelated figures: the lines no longer follow,
    // nor do the totals, and no line on either side confirms a rebuilt value.
    assert_eq!(text.matches("23,750.00").count(), 1, "{text}");
    let misread = text.replacen("23,750.00", "21,111.00", 1).replacen("5,000.00", "7,777.00", 1);
    let s = read_statement(&misread, Fuente::Ocr, Decimal::new(8, 1), &BankLayout::builtin()).expect("reads");
    assert!(!s.verificado);
    assert!(!s.comprobaciones.movimientos_cuadran);
    assert!(s.movimientos.iter().all(|m| !m.corregido));
    let unknown = text.replace("BANCO ALTIPLANO", "BANCO DESCONOCIDO");
    let e = read_statement(&unknown, Fuente::Pdf, Decimal::ONE, &BankLayout::builtin()).expect_err("unknown bank");
    assert_eq!(e.code, DocErrorCode::DocumentUnsupportedType);
    let no_period = text.replace("Periodo del", "Del");
    let e = read_statement(&no_period, Fuente::Pdf, Decimal::ONE, &BankLayout::builtin()).expect_err("no period");
    assert_eq!((e.code, e.field.as_deref()), (DocErrorCode::DocumentUnreadable, Some("periodo")));
}

#[test]
fn figures_a_scan_lost_come_back_from_the_balances() {
    let text = statement("altiplano", 3, d(10_000, 0), &month_movements(3, "COMPRA"));
    let clean = read_statement(&text, Fuente::Ocr, Decimal::new(8, 1), &BankLayout::builtin()).expect("reads");
    assert!(clean.verificado && clean.movimientos.iter().all(|m| !m.corregido));
    // A slip of one digit in the first amount, and the second line's balance unreadable.
    let second_balance = clean.movimientos[1].saldo.to_string();
    let (whole, cents) = second_balance.split_once('.').expect("two decimals");
    let printed_balance = format!("{},{}.{cents}", &whole[..whole.len() - 3], &whole[whole.len() - 3..]);
    assert!(text.contains(&printed_balance), "{printed_balance}\n{text}");
    let scanned = text.replacen("18,000.00", "13,000.00", 1).replacen(&printed_balance, "ILEGIBLE", 1);
    let s = read_statement(&scanned, Fuente::Ocr, Decimal::new(8, 1), &BankLayout::builtin()).expect("reads");
    assert!(s.verificado, "{:?}", s.comprobaciones);
    let without_flags = |m: &[score_docs::Movimiento]| m.iter().map(|m| (m.fecha, m.importe, m.saldo)).collect::<Vec<_>>();
    assert_eq!(without_flags(&s.movimientos), without_flags(&clean.movimientos));
    let corrected: Vec<bool> = s.movimientos.iter().map(|m| m.corregido).collect();
    assert_eq!(corrected, [true, true, false, false, false, false]);
    assert_eq!((s.depositos, s.retiros), (clean.depositos, clean.retiros));
    // A line of the list that holds an amount but no readable date may be a lost movement:
    // nothing is rebuilt around it.
    let lost_date = scanned.replacen("05/03/2025", "XX/03/2025", 1);
    let s = read_statement(&lost_date, Fuente::Ocr, Decimal::new(8, 1), &BankLayout::builtin()).expect("reads");
    assert!(!s.verificado);
}

#[test]
fn nothing_is_rebuilt_through_a_movement_with_no_legible_figure() {
    // Two deposits in a row: were the first one's line dropped, the second's amount would
    // absorb it and every total would still agree.
    let movements = vec![
        ((2025, 3, 3), "DEPOSITO CLIENTE 0001", d(18_000, 0)),
        ((2025, 3, 5), "DEPOSITO CLIENTE 0002", d(4_250, 0)),
        ((2025, 3, 9), "DEPOSITO CLIENTE 0003", d(5_000, 0)),
        ((2025, 3, 12), "COMPRA SUPERMERCADO", d(-1_234, 56)),
    ];
    let text = statement("altiplano", 3, d(10_000, 0), &movements);
    assert!(text.contains("4,250.00 32,250.00"), "{text}");
    let illegible = text.replacen("4,250.00 32,250.00", "ILEGIBLE 1A5.O5:3225", 1);
    let s = read_statement(&illegible, Fuente::Ocr, Decimal::new(8, 1), &BankLayout::builtin()).expect("reads");
    assert!(!s.verificado, "{:?}", s.movimientos);
    assert_eq!(s.movimientos.len(), 3, "the line with no figure is kept out of the movements");
}

#[test]
fn an_illegible_balance_follows_from_the_other_and_the_totals() {
    let text = statement("altiplano", 3, d(10_000, 0), &month_movements(3, "COMPRA"));
    assert!(text.contains("$36,915.94"), "{text}");
    let s = read_statement(&text.replace("$36,915.94", "LL ASI TO"), Fuente::Ocr, Decimal::new(8, 1), &BankLayout::builtin()).expect("reads");
    assert_eq!(s.saldo_final, d(36_915, 94));
    assert!(s.verificado, "{:?}", s.comprobaciones);
    let s = read_statement(&text.replace("$10,000.00", "$1O,OOO:OO?"), Fuente::Ocr, Decimal::new(8, 1), &BankLayout::builtin()).expect("reads");
    assert_eq!(s.saldo_inicial, d(10_000, 0));
    let neither = text.replace("$36,915.94", "LL ASI TO").replace("$10,000.00", "ILEGIBLE");
    let e = read_statement(&neither, Fuente::Ocr, Decimal::new(8, 1), &BankLayout::builtin()).expect_err("no balance");
    assert_eq!((e.code, e.field.as_deref()), (DocErrorCode::DocumentUnreadable, Some("saldo_inicial")));
}

#[test]
fn a_new_bank_is_a_new_description() {
    let json = score_docs::LAYOUTS_JSON[0].replace("\"altiplano\"", "\"nuevo\"").replace("banco altiplano", "banco nuevo");
    let layouts = vec![BankLayout::from_json(&json).expect("layout")];
    let text = statement("altiplano", 3, d(10_000, 0), &month_movements(3, "COMPRA")).replace("BANCO ALTIPLANO", "BANCO NUEVO");
    let s = read_statement(&text, Fuente::Pdf, Decimal::ONE, &layouts).expect("reads");
    assert_eq!(s.banco_clave, "nuevo");
    assert!(s.verificado);
    assert_eq!(BankLayout::from_json("{\"clave\": 1}").map_err(|e| e.code), Err(DocErrorCode::DocumentUnsupportedType));
}

#[test]
fn self_employed_income_from_deposits() {
    // Three months in three banks' layouts: eligible deposits 30,500.50 each month (the
    // transfer between own accounts is not income).
    let statements: Vec<EstadoCuenta> = [("altiplano", 3), ("pacifico", 4), ("sierra", 5)]
        .iter()
        .map(|(layout, month)| read(layout, &statement(layout, *month, d(10_000, 0), &month_movements(*month, "COMPRA"))))
        .collect();
    let income = ingreso_independiente(&statements, DEFAULT_EXPENSE_FACTOR);
    assert_eq!(income.meses.len(), 3);
    assert_eq!(income.depositos_elegibles_mensuales, d(30_500, 50));
    assert_eq!(income.ingreso_mensual, Some(d(15_250, 25)));
    assert_eq!(income.depositos_excluidos.len(), 3);
    // The car loan and the card payment repeat every month; the groceries are not a debt.
    let debts: Vec<(&str, Decimal, usize)> = income.pagos_recurrentes.iter().map(|p| (p.concepto.as_str(), p.mensual, p.meses)).collect();
    assert_eq!(debts, vec![("pago credito automotriz ref", d(4_250, 0), 3), ("pago tarjeta de credito", d(3_100, 0), 3)]);
    assert_eq!(income.deudas_mensuales, Some(d(7_350, 0)));

    // Two months are not enough; an unverified statement is not used.
    let two = ingreso_independiente(&statements[..2], DEFAULT_EXPENSE_FACTOR);
    assert_eq!(two.ingreso_mensual, None);
    assert!(two.notas.iter().any(|n| n.contains("al menos 3")));
    let mut broken = statements.clone();
    broken[2].verificado = false;
    let without = ingreso_independiente(&broken, DEFAULT_EXPENSE_FACTOR);
    assert_eq!(without.ingreso_mensual, None);
    assert_eq!(without.estados_no_verificados.len(), 1);
}

#[test]
fn falling_income_uses_the_last_three_months() {
    let statements: Vec<EstadoCuenta> = (1..=6)
        .map(|month| {
            let amount = if month <= 3 { d(40_000, 0) } else { d(10_000, 0) };
            let text = statement("sierra", month, d(1_000, 0), &[((2025, month, 10), "DEPOSITO CLIENTE", amount)]);
            read("sierra", &text)
        })
        .collect();
    let income = ingreso_independiente(&statements, Decimal::new(3, 1));
    assert_eq!(income.depositos_elegibles_mensuales, d(10_000, 0));
    assert_eq!(income.ingreso_mensual, Some(d(7_000, 0)));
    assert_eq!(income.notas.len(), 1);
}

#[test]
fn a_statement_reads_back_from_its_json() {
    for layout in ["altiplano", "pacifico", "sierra"] {
        let read = read(layout, &statement(layout, 3, d(10_000, 0), &month_movements(3, "COMPRA SUPERMERCADO")));
        assert_eq!(EstadoCuenta::from_json(&read.to_json()).ok(), Some(read));
    }
}

#[test]
fn blanks_ocr_puts_inside_amounts_do_not_split_a_movement() {
    let text = statement("pacifico", 3, d(10_000, 0), &month_movements(3, "COMPRA SUPERMERCADO")).replace("28,000.00", "28, 000.00");
    let s = read("pacifico", &text);
    assert!(s.verificado, "{:?}", s.comprobaciones);
    assert_eq!(s.movimientos[0].saldo, d(28_000, 0));
}

#[test]
fn an_overdrawn_balance_keeps_its_sign() {
    let movements = [((2025, 3, 3), "PAGO TARJETA DE CREDITO 5521", d(-12_000, 0)), ((2025, 3, 9), "DEPOSITO CLIENTE ACME 0001", d(5_000, 0))];
    for layout in ["altiplano", "pacifico", "sierra"] {
        let s = read(layout, &statement(layout, 3, d(10_000, 0), &movements));
        assert!(s.verificado, "{layout}: {:?}", s.comprobaciones);
        assert_eq!(s.movimientos[0].saldo, d(-2_000, 0), "{layout}");
        assert_eq!(s.saldo_final, d(3_000, 0));
    }
}
