//! The one error type of the document reader, with stable machine codes.
//!
//! Same conventions as score-core's `ScoreError`: the code is UPPER_SNAKE_CASE and never
//! changes meaning (Python's `ScoreError.code`, JS `error.code`, the HTTP envelope and the
//! fixtures carry the same string); `field` names what is at fault (an XML attribute such as
//! `NumDiasPagados`, or `receipts[2]` for the third receipt of a batch); the message is a
//! Spanish sentence for people and may be reworded.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Stable machine code of a [`DocError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[non_exhaustive]
pub enum DocErrorCode {
    /// Not well-formed XML, not UTF-8, or a payroll receipt missing a required attribute or
    /// carrying a malformed amount or date.
    DocumentInvalidXml,
    /// The XML declares a DTD or references an entity (billion laughs, XXE): refused unread.
    DocumentUnsafeXml,
    /// Well-formed XML, but not a CFDI with the Nómina complement (or an empty batch).
    DocumentNotPayroll,
    /// A CFDI or Nómina version this reader does not read (CFDI 3.2, Nómina 1.1, ...).
    DocumentUnsupportedVersion,
    /// Larger than [`crate::MAX_BYTES`], or nested deeper than [`crate::MAX_DEPTH`], or more
    /// receipts than [`crate::MAX_RECEIPTS`] in one batch; for scanned documents, more pages,
    /// pixels or reading time than the OCR limits allow.
    DocumentTooLarge,
    /// The receipts of one batch belong to different workers (RFC or CURP differ).
    DocumentMixedWorkers,
    /// A printed receipt, scan, photo or bank statement whose text cannot be read: no text
    /// layer and no legible text, a damaged PDF or image, or a required item (UUID, RFC,
    /// period, totals) not found in it.
    DocumentUnreadable,
    /// A file that is not a CFDI XML, PDF, PNG or JPEG, or a statement of a bank whose layout
    /// is not described.
    DocumentUnsupportedType,
    /// A scan or photo that needs OCR where OCR is not installed (Tesseract with its Spanish
    /// data, or Poppler for PDFs): the document may be fine; the machine reading it cannot.
    DocumentOcrUnavailable,
}

impl DocErrorCode {
    /// Every code, in declaration order (used by docs, bindings and tests).
    pub const ALL: [DocErrorCode; 9] = [
        DocErrorCode::DocumentInvalidXml,
        DocErrorCode::DocumentUnsafeXml,
        DocErrorCode::DocumentNotPayroll,
        DocErrorCode::DocumentUnsupportedVersion,
        DocErrorCode::DocumentTooLarge,
        DocErrorCode::DocumentMixedWorkers,
        DocErrorCode::DocumentUnreadable,
        DocErrorCode::DocumentUnsupportedType,
        DocErrorCode::DocumentOcrUnavailable,
    ];

    /// The stable UPPER_SNAKE_CASE string of this code.
    pub const fn as_str(self) -> &'static str {
        match self {
            DocErrorCode::DocumentInvalidXml => "DOCUMENT_INVALID_XML",
            DocErrorCode::DocumentUnsafeXml => "DOCUMENT_UNSAFE_XML",
            DocErrorCode::DocumentNotPayroll => "DOCUMENT_NOT_PAYROLL",
            DocErrorCode::DocumentUnsupportedVersion => "DOCUMENT_UNSUPPORTED_VERSION",
            DocErrorCode::DocumentTooLarge => "DOCUMENT_TOO_LARGE",
            DocErrorCode::DocumentMixedWorkers => "DOCUMENT_MIXED_WORKERS",
            DocErrorCode::DocumentUnreadable => "DOCUMENT_UNREADABLE",
            DocErrorCode::DocumentUnsupportedType => "DOCUMENT_UNSUPPORTED_TYPE",
            DocErrorCode::DocumentOcrUnavailable => "DOCUMENT_OCR_UNAVAILABLE",
        }
    }
}

impl fmt::Display for DocErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a document could not be read: a stable [`DocErrorCode`], the attribute or receipt at
/// fault (when there is one) and a Spanish message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{code}: {message}")]
pub struct DocError {
    /// Stable machine code.
    pub code: DocErrorCode,
    /// The attribute (`NumDiasPagados`) or receipt (`receipts[2]`) at fault, `None` when the
    /// whole input is at fault.
    pub field: Option<String>,
    /// Human-readable Spanish explanation.
    pub message: String,
}

impl DocError {
    /// An error with `code`, the `field` at fault and a Spanish `message` (also used by the
    /// OCR crate, whose errors are this type).
    pub fn new(code: DocErrorCode, field: Option<&str>, message: impl Into<String>) -> Self {
        DocError { code, field: field.map(str::to_owned), message: message.into() }
    }

    /// The stable code as a string (shorthand for `self.code.as_str()`).
    pub fn code_str(&self) -> &'static str {
        self.code.as_str()
    }

    /// The same error attributed to receipt `index` of a batch: the field becomes
    /// `receipts[i]` (or `receipts[i].Attribute`) and the message names the receipt.
    pub fn in_receipt(self, index: usize) -> Self {
        let field = match &self.field {
            Some(f) => format!("receipts[{index}].{f}"),
            None => format!("receipts[{index}]"),
        };
        DocError { code: self.code, field: Some(field), message: format!("Recibo {}: {}", index + 1, self.message) }
    }
}
