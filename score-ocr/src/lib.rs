//! score-ocr: the text of printed documents (payroll receipts, bank statements) for score-docs.
//!
//! score-docs is pure: text in, facts out. This crate is its I/O side. It takes the bytes a
//! buyer uploads (a PDF, a PNG or a JPEG), finds their text, and hands it to
//! [`score_docs::read_document_text`] with where the text came from (`fuente`) and how sure the
//! reading is (`confianza`):
//!
//! - a PDF with a text layer (what payroll and banking software print): Poppler's `pdftotext
//!   -layout`, `fuente` `pdf`, `confianza` 1;
//! - a scanned PDF (no text layer): each page rendered by Poppler's `pdftoppm`, then read by
//!   Tesseract (`spa`), `fuente` `ocr`;
//! - a PNG or JPEG photo or scan: Tesseract, `fuente` `ocr`.
//!
//! Every page image (a photo or a scanned page, searched while Tesseract reads it) is also
//! searched for the QR code every printed CFDI carries (the SAT's verification URL, Anexo 20)
//! with `rqrr`, a pure-Rust decoder; a text PDF's code is looked for in the images it embeds
//! (`pdfimages`), then on its pages rendered by `pdftoppm` at [`QR_DPI`], then at the scan
//! resolution. A receipt with a legible code takes its UUID, RFCs and total from it (`fuente`
//! `qr`).
//!
//! `confianza` for OCR is Tesseract's mean word confidence (0–1). The tools run as child
//! processes, never in this process: a malformed or hostile file can only make a child fail,
//! and every child is killed at the document's time limit. Limits ([`Limits`]): bytes, pages,
//! pixels per image, time. Every failure is a [`DocError`] with a stable code
//! (`DOCUMENT_UNSUPPORTED_TYPE`, `DOCUMENT_TOO_LARGE`, `DOCUMENT_UNREADABLE`) and a Spanish
//! message; nothing panics.
//!
//! Needs the Debian packages `poppler-utils`, `tesseract-ocr` and `tesseract-ocr-spa` (the
//! crate's test.mk installs them when missing).

mod image;
mod pdf;
mod qr;
mod run;
mod tesseract;

use std::time::{Duration, Instant};

use rust_decimal::Decimal;
use score_docs::{BankLayout, CodigoQr, DocError, DocErrorCode, DocumentKind, Documento, Fuente};

pub use image::{Format, dimensions, format_of};

/// Resolution a text PDF's pages are rendered at to find their QR code (a CFDI's code is at
/// least 2.75 cm wide: 200 dpi gives each of its modules 4 pixels or more).
pub const QR_DPI: u32 = 200;

/// What one document may cost.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Largest file.
    pub max_bytes: usize,
    /// Most pages of a PDF (a payslip is one or two; a statement a few).
    pub max_pages: u32,
    /// Most pixels of an image, or of a scanned page at [`Limits::dpi`].
    pub max_pixels: u64,
    /// Resolution scanned PDF pages are rendered at for OCR.
    pub dpi: u32,
    /// The whole document's time, every child process included.
    pub timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: 10 * 1024 * 1024,
            max_pages: 10,
            // 40 megapixels: a 12 MP phone photo fits three times; A4 at 300 dpi is 8.7 MP.
            max_pixels: 40_000_000,
            dpi: 300,
            timeout: Duration::from_secs(60),
        }
    }
}

/// The text of a document and where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Extracted {
    pub text: String,
    pub fuente: Fuente,
    /// 1 for a text layer; Tesseract's mean word confidence (0–1) for OCR.
    pub confianza: Decimal,
    /// Pages read (1 for an image).
    pub paginas: u32,
    /// The print's QR code with the SAT's verification URL, when a page carries a legible one.
    pub qr: Option<CodigoQr>,
}

/// The time left of a document; every child process gets at most that.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Deadline(Instant);

impl Deadline {
    pub(crate) fn left(self) -> Result<Duration, DocError> {
        self.0.checked_duration_since(Instant::now()).filter(|d| !d.is_zero()).ok_or_else(too_slow)
    }
}

pub(crate) fn too_slow() -> DocError {
    DocError::new(
        DocErrorCode::DocumentTooLarge,
        None,
        "El documento tardó demasiado en leerse; sube un archivo más pequeño o una foto más nítida de cada página.",
    )
}

/// A tool this reading needs is not installed: the document was not judged.
pub(crate) fn unavailable(program: &str) -> DocError {
    DocError::new(
        DocErrorCode::DocumentOcrUnavailable,
        None,
        format!(
            "Este equipo no puede leer documentos impresos o escaneados: falta {program} (Debian: poppler-utils, tesseract-ocr y tesseract-ocr-spa). Sube el XML del recibo o inténtalo más tarde."
        ),
    )
}

pub(crate) fn unreadable(message: impl Into<String>) -> DocError {
    DocError::new(DocErrorCode::DocumentUnreadable, None, message)
}

/// The text of `bytes` (a PDF, PNG or JPEG) within `limits`.
pub fn extract_text(bytes: &[u8], limits: &Limits) -> Result<Extracted, DocError> {
    if bytes.len() > limits.max_bytes {
        return Err(DocError::new(
            DocErrorCode::DocumentTooLarge,
            None,
            format!("El archivo pesa más de {} MiB.", limits.max_bytes / (1024 * 1024)),
        ));
    }
    let deadline = Deadline(Instant::now() + limits.timeout);
    match format_of(bytes) {
        Some(Format::Pdf) => pdf::extract(bytes, limits, deadline),
        Some(format) => {
            let (width, height) = dimensions(bytes, format)
                .ok_or_else(|| unreadable("La imagen está dañada: no se pueden leer sus dimensiones."))?;
            image::check_pixels(width, height, limits)?;
            let dir = run::workdir()?;
            let path = dir.path().join(format!("imagen.{}", format.extension()));
            std::fs::write(&path, bytes).map_err(|_| unreadable("No se pudo preparar la imagen para leerla."))?;
            // A PNG is decoded once: its pixels serve the QR search and Tesseract (its inked
            // part cut out). A JPEG goes to Tesseract as it came (see `tesseract::read`), and
            // is decoded for the search only. The code is searched on a thread of this
            // process while Tesseract, a child process on one core, reads the text.
            let decoded = (format == Format::Png)
                .then(|| ::image::load_from_memory_with_format(bytes, ::image::ImageFormat::Png).ok())
                .flatten()
                .map(|i| i.into_luma8());
            let (page, qr) = std::thread::scope(|scope| {
                let qr = scope.spawn(|| match &decoded {
                    Some(gray) => qr::in_decoded(gray),
                    None => qr::in_bytes(bytes),
                });
                let page = match &decoded {
                    Some(gray) => tesseract::read_gray(gray, dir.path(), deadline),
                    None => tesseract::read(&path, deadline),
                };
                (page, qr.join().ok().flatten())
            });
            let page = page?;
            Ok(Extracted { text: page.text, fuente: Fuente::Ocr, confianza: page.confianza, paginas: 1, qr })
        }
        None => Err(DocError::new(
            DocErrorCode::DocumentUnsupportedType,
            None,
            "El archivo no es un PDF, PNG ni JPEG; sube el recibo o el estado de cuenta en uno de esos formatos.",
        )),
    }
}

/// The facts of a printed document: its text and QR code ([`extract_text`]) read by
/// score-docs as `kind` (or as what it looks like), with the bank `layouts` for statements.
pub fn read_document(
    bytes: &[u8],
    kind: Option<DocumentKind>,
    layouts: &[BankLayout],
    limits: &Limits,
) -> Result<Documento, DocError> {
    let extracted = extract_text(bytes, limits)?;
    score_docs::read_document_text_with_qr(
        &extracted.text,
        extracted.qr.as_ref(),
        kind,
        extracted.fuente,
        extracted.confianza,
        layouts,
    )
}
