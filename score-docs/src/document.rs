//! Any printed document's text to its facts: a payroll receipt or a bank statement, told apart
//! by what the text names unless the caller says which it is.

use crate::error::{DocError, DocErrorCode};
use crate::facts::{Fuente, ReciboImpreso};
use crate::printed::{looks_like_receipt, read_printed_receipt_with_qr};
use crate::qr::CodigoQr;
use crate::statement::{BankLayout, EstadoCuenta, read_statement};
use crate::text;
use rust_decimal::Decimal;
use serde::Serialize;
use std::str::FromStr;

/// Which kind of document a text is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DocumentKind {
    /// A payroll receipt (`recibo_nomina`).
    ReciboNomina,
    /// A bank statement (`estado_cuenta`).
    EstadoCuenta,
}

impl FromStr for DocumentKind {
    type Err = DocError;
    fn from_str(s: &str) -> Result<Self, DocError> {
        match s {
            "recibo_nomina" => Ok(DocumentKind::ReciboNomina),
            "estado_cuenta" => Ok(DocumentKind::EstadoCuenta),
            other => Err(DocError::new(
                DocErrorCode::DocumentUnsupportedType,
                Some("kind"),
                format!("Tipo de documento desconocido \"{other}\": usa \"recibo_nomina\" o \"estado_cuenta\"."),
            )),
        }
    }
}

/// The facts of one printed document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "tipo", rename_all = "snake_case")]
pub enum Documento {
    /// A payroll receipt (boxed like the statement: the two variants are far apart in size).
    ReciboNomina(Box<ReciboImpreso>),
    /// A bank statement.
    EstadoCuenta(Box<EstadoCuenta>),
}

impl Documento {
    /// As JSON text (with `tipo`: `recibo_nomina` or `estado_cuenta`).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// Reads a document's text as `kind`, or as what it looks like when `kind` is `None`: a
/// statement when a bank of `layouts` is recognised and it is not a receipt, else a receipt.
pub fn read_document_text(
    text: &str,
    kind: Option<DocumentKind>,
    fuente: Fuente,
    confianza: Decimal,
    layouts: &[BankLayout],
) -> Result<Documento, DocError> {
    read_document_text_with_qr(text, None, kind, fuente, confianza, layouts)
}

/// [`read_document_text`] with the print's QR code when one was decoded: a receipt takes its
/// UUID, RFCs and total from it ([`read_printed_receipt_with_qr`]); a statement ignores it.
pub fn read_document_text_with_qr(
    text: &str,
    qr: Option<&CodigoQr>,
    kind: Option<DocumentKind>,
    fuente: Fuente,
    confianza: Decimal,
    layouts: &[BankLayout],
) -> Result<Documento, DocError> {
    let kind = kind.unwrap_or_else(|| {
        let folded = text::fold(text);
        if qr.is_none() && !looks_like_receipt(&folded) && layouts.iter().any(|l| l.matches(&folded)) {
            DocumentKind::EstadoCuenta
        } else {
            DocumentKind::ReciboNomina
        }
    });
    match kind {
        DocumentKind::ReciboNomina => read_printed_receipt_with_qr(text, qr, fuente, confianza).map(|r| Documento::ReciboNomina(Box::new(r))),
        DocumentKind::EstadoCuenta => {
            // score-ocr keeps a scan's columns (blanks where the page has space) for a
            // receipt's grids; a statement is read line by line, its columns told apart by
            // the bank's description and running balances, from OCR's words one blank apart.
            let text = if fuente == Fuente::Ocr { single_spaced(text) } else { text.to_owned() };
            read_statement(&text, fuente, confianza, layouts).map(|s| Documento::EstadoCuenta(Box::new(s)))
        }
    }
}

/// Each line's words one blank apart, no indentation.
fn single_spaced(text: &str) -> String {
    text.lines().map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ")).collect::<Vec<_>>().join("\n")
}
