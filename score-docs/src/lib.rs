//! score-docs: verified facts from Mexican payroll receipts (CFDI 3.3/4.0 with the Nómina 1.2
//! complement), and the partial buyer profile they prove; and, from the text of printed
//! documents (a PDF's text layer or OCR, which the score-ocr crate extracts), the same facts
//! of a printed receipt ([`read_printed_receipt`]) and the checked figures of bank statements
//! ([`read_statement`], [`ingreso_independiente`]).
//!
//! Pure like score-core: bytes in, facts out; no I/O, no clock (the reference date for
//! seniority is an argument), no randomness. The XML reader refuses DTDs and entities
//! (`DOCUMENT_UNSAFE_XML`), is bounded in size ([`MAX_BYTES`]) and depth ([`MAX_DEPTH`]),
//! and returns an error, never a panic, for any input.
//!
//! ```
//! let xml = std::fs::read("../fixtures/documents/quincenal-40-infonavit-1.xml").unwrap();
//! // Its certificate was issued by the repository's test CA: loaded in place of the SAT's CAs
//! // (`read_cfdi` chains to the SAT's own, against which this receipt proves nothing).
//! let ac = std::fs::read("../fixtures/documents/ca-prueba/ac/AC_PRUEBAS.cer").unwrap();
//! let ca = score_docs::CertificadosSat::from_files([("AC_PRUEBAS.cer", ac)]).unwrap();
//! let facts = score_docs::read_cfdi_con(&xml, &ca).unwrap();
//! assert!(facts.sello.valido && facts.sello.ca_sat_verificada);
//! assert_eq!(facts.periodicidad_pago, "04");
//! let reference = score_docs::Date::parse("2025-03-01").unwrap();
//! let profile = score_docs::profile_from_cfdi(&[facts], reference).unwrap();
//! assert!(profile.verificacion.campos.contains(&"ingreso_mensual"));
//! ```

mod antiguedad;
mod balances;
mod cadena;
mod catalogo;
mod certificados_sat;
mod cfdi;
mod date;
mod document;
mod error;
mod facts;
mod independiente;
mod printed;
mod profile;
mod qr;
mod sello;
mod statement;
mod tabla;
mod text;
mod xml;

pub use cfdi::{read_cfdi, read_cfdi_con};
pub use date::Date;
pub use error::{DocError, DocErrorCode};
pub use document::{DocumentKind, Documento, read_document_text, read_document_text_with_qr};
pub use certificados_sat::CertificadosSat;
pub use facts::{
    CfdiFacts, ComprobacionesImpreso, Deduccion, Fuente, MotivoCaSat, MotivoNoVerificado, MotivoSello, ReciboImpreso, Sello,
};
pub use independiente::{
    DEBT_WORDS, DEFAULT_EXPENSE_FACTOR, DepositoExcluido, IngresoIndependiente, MIN_MONTHS, Mes, NOT_INCOME, PagoRecurrente,
    ingreso_independiente,
};
pub use printed::{read_printed_receipt, read_printed_receipt_with_qr, receipts_for_profile};
pub use qr::{CodigoQr, parse_verification_url};
pub use statement::{
    BankLayout, Column, ComprobacionesEstado, DateFormat, EstadoCuenta, LAYOUTS_JSON, Movimiento, layout_for, read_statement,
};
pub use text::rfc_check_digit_ok;
pub use profile::{
    CambioPatron, Comprobaciones, DEBT_DEDUCTIONS, DeudaNomina, Hueco, MAX_RECEIPTS, PerfilVerificado, Periodo, PorConfirmar,
    SAT_VERIFICATION_SERVICE, SelloInvalido, Verificacion, VerifiedProfile, profile_from_cfdi,
};
pub use xml::{MAX_BYTES, MAX_DEPTH};

/// The cadena original of a CFDI (what its `Sello` signs), built as the SAT's XSLT builds it:
/// for issuers sealing their own receipts, tests, and anyone checking this reader by hand
/// against the SAT's stylesheet. Errors as [`read_cfdi`]'s for the XML itself; a receipt
/// with a complement other than Nómina 1.2 and the stamp is `DOCUMENT_UNSUPPORTED_VERSION`.
pub fn cadena_original(data: &[u8]) -> Result<String, DocError> {
    let tree = cfdi::read_tree(xml::document_text(data)?)?;
    cadena::cadena_original(&tree).map_err(|cadena::Unsupported(part)| {
        DocError::new(
            DocErrorCode::DocumentUnsupportedVersion,
            Some(&part),
            format!("El CFDI trae {part}, cuya cadena original no se construye aquí: solo CFDI 3.3/4.0 con Nómina 1.2."),
        )
    })
}

/// Reads every receipt and builds their profile: what the bindings and the server call. A
/// receipt that cannot be read fails the whole batch with its error attributed to it
/// (`field` = `receipts[i]...`). Certificates are chained to the carried SAT CAs.
pub fn profile_from_cfdi_bytes<B: AsRef<[u8]>>(receipts: &[B], reference: Date) -> Result<VerifiedProfile, DocError> {
    profile_from_cfdi_bytes_con(receipts, reference, CertificadosSat::incluidos())
}

/// [`profile_from_cfdi_bytes`], with every receipt's certificate chained to the CA
/// certificates `ca` (a bank's own trust set, or the test CA) instead of the carried ones.
pub fn profile_from_cfdi_bytes_con<B: AsRef<[u8]>>(
    receipts: &[B],
    reference: Date,
    ca: &CertificadosSat,
) -> Result<VerifiedProfile, DocError> {
    if receipts.len() > MAX_RECEIPTS {
        return Err(DocError {
            code: DocErrorCode::DocumentTooLarge,
            field: None,
            message: format!("Se recibieron {} recibos; el máximo por perfil es {MAX_RECEIPTS}.", receipts.len()),
        });
    }
    let facts = receipts
        .iter()
        .enumerate()
        .map(|(i, r)| read_cfdi_con(r.as_ref(), ca).map_err(|e| e.in_receipt(i)))
        .collect::<Result<Vec<_>, _>>()?;
    profile_from_cfdi(&facts, reference)
}
