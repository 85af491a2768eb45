//! The perceptions and deductions tables of a printed payroll receipt, in whatever arrangement
//! a payroll program prints them: one table under the other or side by side, the SAT code
//! before the concept ("002 ISR") or after it ("ISR (002)"), one amount a line or the taxed,
//! exempt (and total) columns. A line is split into entries (a code, its concept's words and
//! its amounts); side by side, an entry belongs to the table whose heading stands over it, and
//! in one table of both kinds, to the table its row's kind names ("P" or "D" before the code).
//! Nothing here is trusted by itself: the entries must add up to the printed totals
//! (`percepciones_cuadran`, `deducciones_cuadran`) for a receipt to be verified.

use crate::text::{self, Line};
use rust_decimal::Decimal;

/// The headings of each table (folded), and of their totals.
const PERCEPCIONES: &[&str] = &["percepciones", "percepcion", "ingresos"];
const DEDUCCIONES: &[&str] = &["deducciones", "deduccion", "descuentos"];

/// A table's lines: SAT code and amount.
pub(crate) type Lineas = Vec<(String, Decimal)>;

/// One entry of a table line: its SAT code, its amount, the column it starts at, and the kind
/// its row names when one table holds both ("P" perception, "D" deduction, alone before the
/// code: a "P/D" column).
#[derive(Debug, Clone, PartialEq)]
struct Entry {
    code: String,
    amount: Decimal,
    column: usize,
    kind: Option<Kind>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Percepcion,
    Deduccion,
}

/// The kind a row's first token names: "P" or "D" alone, as a "P/D" column writes it.
fn kind(token: &str) -> Option<Kind> {
    match token {
        "P" => Some(Kind::Percepcion),
        "D" => Some(Kind::Deduccion),
        _ => None,
    }
}

/// A three-digit SAT code as written before a concept (`002`) or after it (`(002)`), OCR's
/// `O` for `0` undone.
fn code(token: &str) -> Option<String> {
    let t: String = token.trim_matches(|c| c == '(' || c == ')').chars().map(|c| if c == 'O' || c == 'o' { '0' } else { c }).collect();
    (t.len() == 3 && t.bytes().all(|b| b.is_ascii_digit())).then_some(t)
}

/// An entry's amount from the amounts after its concept: one; taxed and exempt (their sum);
/// or taxed, exempt and total (the total, when the two add up to it).
fn amount(amounts: &[Decimal]) -> Option<Decimal> {
    match amounts {
        [one] => Some(*one),
        [taxed, exempt] => Some(*taxed + *exempt),
        [taxed, exempt, total] if *taxed + *exempt == *total => Some(*total),
        _ => None,
    }
}

/// The entries of one line, in order. An entry ends at its amounts; one without a code or with
/// amounts that do not fit is dropped (the table then fails its sum).
fn entries(line: &Line) -> Vec<Entry> {
    let text = text::close_amounts(&line.text());
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut current, mut amounts, mut column): (Option<String>, Vec<Decimal>, Option<usize>) = (None, Vec::new(), None);
    let mut row_kind = None;
    let mut at = 0;
    let mut close = |current: &mut Option<String>, amounts: &mut Vec<Decimal>, column: &mut Option<usize>, row_kind: &mut Option<Kind>| {
        if let (Some(c), Some(a), Some(col)) = (current.take(), amount(amounts), *column) {
            out.push(Entry { code: c, amount: a, column: col, kind: row_kind.take() });
        }
        *row_kind = None;
        amounts.clear();
        *column = None;
    };
    while at < chars.len() {
        if chars[at].is_whitespace() {
            at += 1;
            continue;
        }
        let end = at + chars[at..].iter().take_while(|c| !c.is_whitespace()).count();
        let raw: String = chars[at..end].iter().collect();
        let token = raw.trim_matches(|c: char| matches!(c, ',' | ';' | ':' | '|' | '[' | ']'));
        if let Some(value) = text::parse_money(token) {
            amounts.push(value);
        } else {
            if !amounts.is_empty() {
                close(&mut current, &mut amounts, &mut column, &mut row_kind);
            }
            if column.is_none() {
                row_kind = kind(token);
            }
            column.get_or_insert(at);
            if let Some(c) = code(token) {
                current = Some(c);
            }
        }
        at = end;
    }
    close(&mut current, &mut amounts, &mut column, &mut row_kind);
    out
}

/// Whether `line` holds a table's total (its rows end there).
fn is_total(line: &Line, totals: &[&[&str]]) -> bool {
    totals.iter().any(|labels| labels.iter().any(|t| line.contains(t)))
}

/// The perception and deduction lines (code, amount) of a print, given the labels of their
/// totals. Side by side (one heading line names both), each row's entries go to the table its
/// row names ("P"/"D"), else to the one whose heading is nearer their column (the first and
/// second entry of a row whose columns were lost go left and right); one under the other,
/// each table runs from its heading to its total.
pub(crate) fn tables(lines: &[Line], total_p: &[&str], total_d: &[&str]) -> (Lineas, Lineas) {
    let heading = |names: &[&str], total: &[&str]| lines.iter().position(|l| l.column_of(names).is_some() && !is_total(l, &[total]));
    let pair = |e: Entry| (e.code, e.amount);
    let Some(p_at) = heading(PERCEPCIONES, total_p) else {
        return (Vec::new(), heading(DEDUCCIONES, total_d).map(|d| rows(lines, d, &[total_d])).unwrap_or_default().into_iter().map(pair).collect());
    };
    if let (Some(p_col), Some(d_col)) = (lines[p_at].column_of(PERCEPCIONES), lines[p_at].column_of(DEDUCCIONES)) {
        let boundary = (p_col + d_col) / 2;
        let (mut left, mut right) = (Vec::new(), Vec::new());
        for row in lines[p_at + 1..].iter().take_while(|l| !is_total(l, &[total_p, total_d])) {
            let found = entries(row);
            let lost_columns = found.len() == 2 && found.iter().all(|e| e.column < boundary);
            for (i, e) in found.into_iter().enumerate() {
                let right_side = match e.kind {
                    Some(kind) => kind == Kind::Deduccion,
                    None => (lost_columns && i == 1) || (!lost_columns && e.column >= boundary),
                };
                if right_side {
                    right.push(pair(e));
                } else {
                    left.push(pair(e));
                }
            }
        }
        return (left, right);
    }
    let perceptions = rows(lines, p_at, &[total_p]).into_iter().map(pair).collect();
    let deductions = lines
        .iter()
        .enumerate()
        .skip(p_at + 1)
        .find(|(_, l)| l.column_of(DEDUCCIONES).is_some() && !is_total(l, &[total_d]))
        .map(|(d_at, _)| rows(lines, d_at, &[total_d]).into_iter().map(pair).collect())
        .unwrap_or_default();
    (perceptions, deductions)
}

/// The entries of the lines after `heading`, up to a line holding one of `totals`.
fn rows(lines: &[Line], heading: usize, totals: &[&[&str]]) -> Vec<Entry> {
    lines[heading + 1..].iter().take_while(|l| !is_total(l, totals)).flat_map(entries).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TP: &[&str] = &["total de percepciones", "total percepciones", "suma de ingresos"];
    const TD: &[&str] = &["total de deducciones", "total deducciones", "suma de descuentos"];

    fn d(cents: i64) -> Decimal {
        Decimal::new(cents, 2)
    }

    #[test]
    fn codes_before_or_after_the_concept_and_taxed_exempt_columns() {
        let line = |t: &str| entries(&Line::new(t)).into_iter().map(|e| (e.code, e.amount)).collect::<Vec<_>>();
        assert_eq!(line("001 Sueldos, salarios $1,500.00"), [("001".to_owned(), d(150_000))]);
        assert_eq!(line("ISR (002)   2,318.77"), [("002".to_owned(), d(231_877))]);
        assert_eq!(line("001 Sueldos 1,000.00 500.00"), [("001".to_owned(), d(150_000))]);
        assert_eq!(line("001 Sueldos 1,000.00 500.00 1,500.00"), [("001".to_owned(), d(150_000))]);
        assert!(line("001 Sueldos 1,000.00 500.00 1,400.00").is_empty(), "columns that do not add up");
        assert!(line("Sueldos 1,000.00").is_empty(), "no code");
        assert_eq!(
            line("001 Sueldos 15,592.95   001 Seguridad social 412.35"),
            [("001".to_owned(), d(1_559_295)), ("001".to_owned(), d(41_235))]
        );
    }

    #[test]
    fn tables_side_by_side_or_one_under_the_other() {
        let side = text::lines(&[
            "Ingresos                                Descuentos",
            "Sueldos (001)          1,000.00         ISR (002)            100.00",
            "                                        Infonavit (010)       50.00",
            "Suma de ingresos       1,000.00         Suma de descuentos   150.00",
        ]
        .join("\n"));
        let (p, ded) = tables(&side, TP, TD);
        assert_eq!(p, [("001".to_owned(), d(100_000))]);
        assert_eq!(ded, [("002".to_owned(), d(10_000)), ("010".to_owned(), d(5_000))]);
        let stacked = text::lines(
            "PERCEPCIONES\nClave Concepto Importe\n001 Sueldos $1,000.00\nTotal de percepciones: $1,000.00\n\
             DEDUCCIONES\n002 ISR $100.00\nTotal de deducciones: $100.00",
        );
        let (p, ded) = tables(&stacked, TP, TD);
        assert_eq!(p, [("001".to_owned(), d(100_000))]);
        assert_eq!(ded, [("002".to_owned(), d(10_000))]);
    }

    #[test]
    fn one_table_of_both_kinds_by_its_rows_p_or_d() {
        let both = text::lines(&[
            "P/D   Clave     Concepto                            Percepción           Deducción",
            "P     001       Sueldos, salarios, rayas y jornales   3,780.00",
            "P     010       Premios por puntualidad                 420.00",
            "D     001       Seguridad social                                             95.12",
            "D     002       ISR                                                         120.00",
            "                                  Percepciones:      $4,200.00",
        ]
        .join("\n"));
        let (p, ded) = tables(&both, TP, TD);
        assert_eq!(p, [("001".to_owned(), d(378_000)), ("010".to_owned(), d(42_000))]);
        assert_eq!(ded, [("001".to_owned(), d(9_512)), ("002".to_owned(), d(12_000))]);
        // A "P" or "D" inside a concept names no kind: the column decides.
        let (p, ded) = tables(&text::lines("Percepciones          Deducciones\n001 Vale P 100.00    002 ISR 10.00"), TP, TD);
        assert_eq!((p.len(), ded.len()), (1, 1));
    }
}
