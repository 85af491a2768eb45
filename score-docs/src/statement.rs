//! Bank statements (a PDF's text or Tesseract's reading of a scan) into checked monthly
//! figures: deposits, withdrawals, opening, closing and average balance, and every movement.
//!
//! The layout of each bank is data, not code: a [`BankLayout`] (score-docs/layouts/*.json)
//! names the words that identify the bank, the labels of the summary values, where the list
//! of movements starts and ends, the date format and the columns. Adding a bank is adding a
//! description. Whether an amount is a deposit or a withdrawal is decided by the running
//! balance each movement line prints (previous balance ± amount = balance), which also
//! checks every line that was read; a layout with a signed amount column says it with the
//! sign.

use crate::balances::{self, Ends};
use crate::date::Date;
use crate::error::{DocError, DocErrorCode};
use crate::facts::Fuente;
use crate::text::{self, Line};
use rust_decimal::Decimal;
use score_core::money;
use serde::{Deserialize, Serialize};

/// The layouts shipped with the crate, one JSON description per bank.
pub const LAYOUTS_JSON: [&str; 3] =
    [include_str!("../layouts/altiplano.json"), include_str!("../layouts/pacifico.json"), include_str!("../layouts/sierra.json")];

/// How a statement writes its dates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DateFormat {
    /// `05/03/2025`
    #[serde(rename = "dd/mm/aaaa")]
    DiaMesAnio,
    /// `05-MAR-2025`
    #[serde(rename = "dd-mmm-aaaa")]
    DiaNombreMesAnio,
    /// `2025-03-05`
    #[serde(rename = "aaaa-mm-dd")]
    Iso,
}

impl DateFormat {
    /// The date a movement line starts with, when written in this format; also as a scan
    /// reads it now and then, with a speck before it (`O05-ENE-2025`) or a letter for a digit
    /// (`2O25-04-1l`, which [`text::parse_date`] undoes).
    fn read(self, token: &str) -> Option<Date> {
        let speck_dropped = token.char_indices().nth(1).filter(|_| !token.starts_with(|c: char| c.is_ascii_digit())).map(|(at, _)| &token[at..]);
        self.read_exact(token).or_else(|| speck_dropped.and_then(|t| self.read_exact(t)))
    }

    fn read_exact(self, token: &str) -> Option<Date> {
        let shape_ok = match self {
            DateFormat::DiaMesAnio => token.len() == 10 && token.as_bytes().get(2) == Some(&b'/'),
            DateFormat::DiaNombreMesAnio => {
                token.split('-').nth(1).is_some_and(|m| m.chars().all(char::is_alphabetic) && text::month_of(m).is_some())
            }
            DateFormat::Iso => token.len() == 10 && token.as_bytes().get(4) == Some(&b'-'),
        };
        if shape_ok { text::parse_date(token) } else { None }
    }
}

/// A column of the movements table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Column {
    /// The movement's date.
    Fecha,
    /// Its description.
    #[serde(alias = "descripcion", alias = "referencia")]
    Concepto,
    /// Money out (a blank cell when the movement is a deposit).
    #[serde(alias = "cargo")]
    Retiro,
    /// Money in (a blank cell when the movement is a withdrawal).
    #[serde(alias = "abono")]
    Deposito,
    /// One signed amount: negative out, positive in.
    Importe,
    /// The balance after the movement.
    Saldo,
}

/// The description of one bank's statement: labels are matched case- and
/// accent-insensitively, most specific first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BankLayout {
    /// Short stable key (`altiplano`).
    pub clave: String,
    /// The bank's name as shown.
    pub banco: String,
    /// Words found on the bank's statements and no other's (folded: lower case, no accents).
    pub marcas: Vec<String>,
    /// How dates are written.
    pub formato_fecha: DateFormat,
    /// Labels of the account number.
    pub cuenta: Vec<String>,
    /// Labels of the holder's name.
    pub titular: Vec<String>,
    /// Labels followed by the period's two dates.
    pub periodo: Vec<String>,
    /// Labels of the opening balance.
    pub saldo_inicial: Vec<String>,
    /// Labels of the closing balance.
    pub saldo_final: Vec<String>,
    /// Labels of the stated total of deposits (in the summary, before the movements).
    pub total_depositos: Vec<String>,
    /// Labels of the stated total of withdrawals.
    pub total_retiros: Vec<String>,
    /// Heading after which the movements are listed.
    pub inicio_movimientos: Vec<String>,
    /// Lines that end the list of movements.
    pub fin_movimientos: Vec<String>,
    /// The movements table's columns, in order.
    pub columnas: Vec<Column>,
}

impl BankLayout {
    /// Reads a description (the JSON of score-docs/layouts/*.json).
    pub fn from_json(json: &str) -> Result<BankLayout, DocError> {
        serde_json::from_str(json).map_err(|e| {
            DocError::new(DocErrorCode::DocumentUnsupportedType, Some("layout"), format!("Descripción de banco no válida: {e}"))
        })
    }

    /// The layouts shipped with the crate.
    pub fn builtin() -> Vec<BankLayout> {
        LAYOUTS_JSON.iter().filter_map(|j| BankLayout::from_json(j).ok()).collect()
    }

    fn labels(list: &[String]) -> Vec<&str> {
        list.iter().map(String::as_str).collect()
    }

    /// Whether `folded` (the statement's folded text) is this bank's.
    pub fn matches(&self, folded: &str) -> bool {
        self.marcas.iter().any(|m| folded.contains(m.as_str()))
    }
}

/// One movement of the statement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Movimiento {
    /// Date.
    pub fecha: Date,
    /// Description as read.
    pub concepto: String,
    /// Amount: positive a deposit, negative a withdrawal.
    #[serde(with = "money::number")]
    pub importe: Decimal,
    /// Balance after it, as printed.
    #[serde(with = "money::number")]
    pub saldo: Decimal,
    /// The previous balance plus this amount is the printed balance.
    pub cuadra: bool,
    /// The amount or the balance could not be read as printed (a noisy scan) and was rebuilt
    /// from the balances around it and the statement's totals (see `balances.rs`).
    #[serde(default)]
    pub corregido: bool,
}

/// The checks a statement must pass for its figures to count as verified.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ComprobacionesEstado {
    /// Opening balance + deposits − withdrawals = closing balance.
    pub saldos_cuadran: bool,
    /// Every movement line's balance follows from the previous one.
    pub movimientos_cuadran: bool,
    /// The stated totals of deposits and withdrawals (when the statement states them) equal
    /// the sums of the movements.
    pub totales_cuadran: bool,
    /// The movements are in date order and within the period.
    pub fechas_en_periodo: bool,
}

impl ComprobacionesEstado {
    /// Whether every check passes.
    pub fn todas(&self) -> bool {
        self.saldos_cuadran && self.movimientos_cuadran && self.totales_cuadran && self.fechas_en_periodo
    }
}

/// One bank statement read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EstadoCuenta {
    /// The layout's key.
    pub banco_clave: String,
    /// The bank's name.
    pub banco: String,
    /// `pdf` or `ocr`.
    pub fuente: Fuente,
    /// Confidence of the text, 0–1.
    #[serde(with = "money::number")]
    pub confianza: Decimal,
    /// Account number as printed (banks print it masked).
    pub cuenta: Option<String>,
    /// Holder as printed.
    pub titular: Option<String>,
    /// First day of the period.
    pub desde: Date,
    /// Last day of the period.
    pub hasta: Date,
    /// Opening balance.
    #[serde(with = "money::number")]
    pub saldo_inicial: Decimal,
    /// Closing balance.
    #[serde(with = "money::number")]
    pub saldo_final: Decimal,
    /// Sum of the deposits.
    #[serde(with = "money::number")]
    pub depositos: Decimal,
    /// Sum of the withdrawals (positive).
    #[serde(with = "money::number")]
    pub retiros: Decimal,
    /// Average of the day-end balances over the period's days.
    #[serde(with = "money::number")]
    pub saldo_promedio: Decimal,
    /// Every movement read.
    pub movimientos: Vec<Movimiento>,
    /// Every check passed.
    pub verificado: bool,
    /// The checks.
    pub comprobaciones: ComprobacionesEstado,
}

impl EstadoCuenta {
    /// The statement as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A statement from its JSON text (as [`EstadoCuenta::to_json`] or a `Documento` of
    /// `tipo` `estado_cuenta` writes it), for callers that store what was read.
    pub fn from_json(text: &str) -> Result<EstadoCuenta, serde_json::Error> {
        serde_json::from_str(text)
    }
}

fn unreadable(field: &str, what: &str) -> DocError {
    DocError::new(
        DocErrorCode::DocumentUnreadable,
        Some(field),
        format!("No se pudo leer {what} en el estado de cuenta. Sube el PDF original del banco o una imagen más nítida."),
    )
}

fn money_after(lines: &[Line], labels: &[&str]) -> Option<Decimal> {
    lines.iter().filter_map(|l| l.after(labels)).find_map(|v| text::money_in(&v).first().copied())
}

/// The layout of `text`'s bank among `layouts`, `DOCUMENT_UNSUPPORTED_TYPE` when none.
pub fn layout_for<'a>(text: &str, layouts: &'a [BankLayout]) -> Result<&'a BankLayout, DocError> {
    let folded = text::fold(text);
    layouts.iter().find(|l| l.matches(&folded)).ok_or_else(|| {
        DocError::new(
            DocErrorCode::DocumentUnsupportedType,
            None,
            "El estado de cuenta es de un banco cuyo formato no se conoce todavía; sube recibos de nómina o estados de cuenta de otro banco.",
        )
    })
}

/// A movement line as read: its date, its description, and each amount with whether it was
/// written with a minus sign.
type MovementLine = (Date, String, Vec<(Decimal, bool)>);

/// Reads one movement line: the date, the description up to the first amount, the amounts.
/// A line that starts with a date but has no legible amount is a movement with none (the
/// balances around it then cannot be rebuilt through it).
fn movement_line(layout: &BankLayout, line: &Line) -> Option<MovementLine> {
    // OCR's blanks inside an amount ("65, 430.56") closed first, as for every amount.
    let text = text::close_amounts(&line.text());
    let parts: Vec<&str> = text.split_whitespace().collect();
    let (first, second) = (*parts.first()?, parts.get(1).copied().unwrap_or_default());
    // A blank OCR put inside the date, beside a separator (`04- JUL-2025`), is closed too.
    let split_date = first.ends_with(['-', '/']) || second.starts_with(['-', '/']);
    let fecha = match layout.formato_fecha.read(first) {
        Some(fecha) if !split_date => fecha,
        _ => layout.formato_fecha.read(&format!("{first}{second}"))?,
    };
    let rest = &parts[if split_date { 2 } else { 1 }..];
    let first_amount = rest.iter().position(|t| text::parse_money(t).is_some()).unwrap_or(rest.len());
    let concepto = rest[..first_amount].join(" ");
    let amounts = rest[first_amount..].iter().filter_map(|t| text::parse_money(t).map(|a| (a.abs(), a.is_sign_negative()))).collect();
    Some((fecha, concepto, amounts))
}

/// The signed amount of a movement from its amounts and the balance before it.
fn signed_amount(layout: &BankLayout, amounts: &[(Decimal, bool)], previous: Decimal) -> Option<(Decimal, Decimal)> {
    // The balance keeps its sign: an overdrawn account prints a negative balance.
    let saldo = amounts.last().map(|&(a, negative)| if negative { -a } else { a })?;
    let cols: Vec<Column> = layout.columnas.iter().copied().filter(|c| matches!(c, Column::Retiro | Column::Deposito | Column::Importe)).collect();
    let amount = match (&amounts[..amounts.len() - 1], cols.as_slice()) {
        ([(a, negative)], [Column::Importe]) => {
            if *negative {
                -*a
            } else {
                *a
            }
        }
        // One of the two amount columns is blank: the balance says which.
        ([(a, _)], _) => {
            if previous + *a == saldo {
                *a
            } else if previous - *a == saldo {
                -*a
            } else if saldo >= previous {
                *a
            } else {
                -*a
            }
        }
        ([(x, _), (y, _)], [first, _]) => match first {
            Column::Deposito => *x - *y,
            _ => *y - *x,
        },
        _ => return None,
    };
    Some((amount, saldo))
}

/// Average of the day-end balances from `desde` to `hasta`.
fn average_balance(desde: Date, hasta: Date, opening: Decimal, movimientos: &[Movimiento]) -> Decimal {
    let (first, last) = (desde.days(), hasta.days());
    if last < first {
        return opening;
    }
    let mut balance = opening;
    let mut next = 0;
    let mut total = Decimal::ZERO;
    for day in first..=last {
        while let Some(m) = movimientos.get(next).filter(|m| m.fecha.days() <= day) {
            balance = m.saldo;
            next += 1;
        }
        total += balance;
    }
    money::round(total / Decimal::from(last - first + 1), money::MONEY_DP)
}

/// The movements as printed: each line's amount signed by the balance before it; a line
/// whose amounts cannot be told apart is left out (and the balances after it stop adding up).
fn as_printed(layout: &BankLayout, read: &[MovementLine], opening: Decimal) -> Vec<Movimiento> {
    let mut movimientos = Vec::with_capacity(read.len());
    let mut previous = opening;
    for (fecha, concepto, amounts) in read {
        let Some((importe, saldo)) = signed_amount(layout, amounts, previous) else { continue };
        movimientos.push(Movimiento { fecha: *fecha, concepto: concepto.clone(), importe, saldo, cuadra: previous + importe == saldo, corregido: false });
        previous = saldo;
    }
    movimientos
}

/// Whether `movimientos` go from the opening to the closing balance line by line, with the
/// stated totals.
fn adds_up(movimientos: &[Movimiento], ends: &Ends) -> bool {
    let deposits: Decimal = movimientos.iter().map(|m| m.importe.max(Decimal::ZERO)).sum();
    let withdrawals: Decimal = movimientos.iter().map(|m| (-m.importe).max(Decimal::ZERO)).sum();
    movimientos.iter().all(|m| m.cuadra)
        && movimientos.last().map_or(ends.opening, |m| m.saldo) == ends.closing
        && ends.deposits.is_none_or(|d| d == deposits)
        && ends.withdrawals.is_none_or(|w| w == withdrawals)
}

/// Reads a bank statement's text with the first of `layouts` whose marks it bears.
///
/// Errors: `DOCUMENT_UNSUPPORTED_TYPE` when no layout matches, `DOCUMENT_UNREADABLE` (field:
/// the missing value) when the period or a balance cannot be read.
pub fn read_statement(text: &str, fuente: Fuente, confianza: Decimal, layouts: &[BankLayout]) -> Result<EstadoCuenta, DocError> {
    let layout = layout_for(text, layouts)?;
    let lines = text::lines(text);
    let start_labels = BankLayout::labels(&layout.inicio_movimientos);
    let end_labels = BankLayout::labels(&layout.fin_movimientos);
    let start = lines.iter().position(|l| start_labels.iter().any(|s| l.contains(s)));
    let end = start.map_or(lines.len(), |start| {
        lines[start + 1..].iter().position(|l| end_labels.iter().any(|e| l.contains(e))).map_or(lines.len(), |i| start + 1 + i)
    });
    // The summary: before the movements and after them (some banks total at the end).
    let (head, tail) = (&lines[..start.unwrap_or(lines.len())], &lines[end..]);
    let summary = |labels: &[String]| money_after(head, &BankLayout::labels(labels)).or_else(|| money_after(tail, &BankLayout::labels(labels)));
    let period = head
        .iter()
        .filter_map(|l| l.after(&BankLayout::labels(&layout.periodo)))
        .map(|v| text::dates_in(&v))
        .find(|d| d.len() >= 2)
        .ok_or_else(|| unreadable("periodo", "el periodo"))?;
    let (desde, hasta) = (period[0], period[1]);
    let stated_deposits = summary(&layout.total_depositos);
    let stated_withdrawals = summary(&layout.total_retiros);
    // A balance a scan made illegible follows from the other and the stated totals; the
    // movements' running balances then check it like any figure read.
    let net = stated_deposits.zip(stated_withdrawals).map(|(d, w)| d - w);
    let (opening, closing) = (summary(&layout.saldo_inicial), summary(&layout.saldo_final));
    let saldo_inicial = opening
        .or_else(|| closing.zip(net).map(|(c, n)| c - n))
        .ok_or_else(|| unreadable("saldo_inicial", "el saldo inicial"))?;
    let saldo_final = closing.or_else(|| net.map(|n| saldo_inicial + n)).ok_or_else(|| unreadable("saldo_final", "el saldo final"))?;
    let text_after = |labels: &[String]| head.iter().filter_map(|l| l.after(&BankLayout::labels(labels))).find(|v| !v.is_empty());

    let block = start.map_or(&[][..], |start| &lines[start + 1..end]);
    // Each line of the list once: a movement, or not one (and then, when it holds an amount,
    // maybe a movement whose date the scan lost).
    let mut read: Vec<MovementLine> = Vec::with_capacity(block.len());
    let mut lost_line = false;
    for line in block {
        match movement_line(layout, line) {
            Some(movement) => read.push(movement),
            None => lost_line |= !text::money_in(&line.text()).is_empty(),
        }
    }
    let mut movimientos = as_printed(layout, &read, saldo_inicial);
    let ends = Ends { opening: saldo_inicial, closing: saldo_final, deposits: stated_deposits, withdrawals: stated_withdrawals };
    // A line of the list with an amount that is not a movement may be a lost movement: then
    // nothing is rebuilt, since its amount would pass to a neighbour.
    if !adds_up(&movimientos, &ends) && !lost_line {
        let amounts: Vec<Vec<(Decimal, bool)>> = read.iter().map(|r| r.2.clone()).collect();
        if let Some(rebuilt) = balances::rebuild(&amounts, &ends) {
            movimientos = read
                .into_iter()
                .zip(rebuilt)
                .map(|((fecha, concepto, _), r)| Movimiento { fecha, concepto, importe: r.importe, saldo: r.saldo, cuadra: true, corregido: r.corregido })
                .collect();
        }
    }
    let depositos: Decimal = movimientos.iter().map(|m| m.importe).filter(|a| *a > Decimal::ZERO).sum();
    let retiros: Decimal = -movimientos.iter().map(|m| m.importe).filter(|a| *a < Decimal::ZERO).sum::<Decimal>();
    let comprobaciones = ComprobacionesEstado {
        saldos_cuadran: saldo_inicial + depositos - retiros == saldo_final,
        movimientos_cuadran: movimientos.iter().all(|m| m.cuadra),
        totales_cuadran: stated_deposits.is_none_or(|d| d == depositos) && stated_withdrawals.is_none_or(|r| r == retiros),
        fechas_en_periodo: desde <= hasta
            && movimientos.windows(2).all(|w| w[0].fecha <= w[1].fecha)
            && movimientos.iter().all(|m| desde <= m.fecha && m.fecha <= hasta),
    };
    Ok(EstadoCuenta {
        banco_clave: layout.clave.clone(),
        banco: layout.banco.clone(),
        fuente,
        confianza: confianza.clamp(Decimal::ZERO, Decimal::ONE).round_dp(2),
        cuenta: text_after(&layout.cuenta),
        titular: text_after(&layout.titular),
        desde,
        hasta,
        saldo_inicial,
        saldo_final,
        depositos,
        retiros,
        saldo_promedio: average_balance(desde, hasta, saldo_inicial, &movimientos),
        verificado: comprobaciones.todas(),
        comprobaciones,
        movimientos,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_as_a_scan_reads_them() {
        let read = |format: DateFormat, token: &str| format.read(token).map(|d| d.to_string());
        assert_eq!(read(DateFormat::DiaNombreMesAnio, "05-ENE-2025").as_deref(), Some("2025-01-05"));
        assert_eq!(read(DateFormat::DiaNombreMesAnio, "O05-ENE-2025").as_deref(), Some("2025-01-05"));
        assert_eq!(read(DateFormat::DiaNombreMesAnio, "O5-ENE-2O25").as_deref(), Some("2025-01-05"));
        assert_eq!(read(DateFormat::Iso, "2O25-04-1l").as_deref(), Some("2025-04-11"));
        assert_eq!(read(DateFormat::DiaMesAnio, "|05/03/2025").as_deref(), Some("2025-03-05"));
        // Words are not dates.
        assert_eq!(read(DateFormat::DiaMesAnio, "Fecha"), None);
        let layout = &BankLayout::builtin()[1];
        assert_eq!(layout.formato_fecha, DateFormat::DiaNombreMesAnio);
        let line = &text::lines("04- JUL-2025 COMPRA SUPERMERCADO 1,124.94 14, 415.92\n")[0];
        let (fecha, concepto, amounts) = movement_line(layout, line).expect("a movement");
        assert_eq!((fecha.to_string().as_str(), concepto.as_str(), amounts.len()), ("2025-07-04", "COMPRA SUPERMERCADO", 2));
        assert_eq!(read(DateFormat::DiaNombreMesAnio, "OSO-ENE"), None);
    }
}
