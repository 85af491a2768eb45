//! Printed payroll receipts end to end with the real tools: each fixture receipt printed to a
//! PDF with a text layer, rendered to a PNG photo-like scan, and wrapped as a scanned PDF with
//! no text layer, reads back to the facts `read_cfdi` reads from its XML; and every limit and
//! bad file gives its code.

#[path = "../../score-docs/tests/common/mod.rs"]
mod common;
mod printing;

use printing::{render, scanned_pdf, text_pdf};

use std::path::PathBuf;
use std::time::Duration;

use rust_decimal::Decimal;
use score_docs::{CfdiFacts, DocErrorCode, Documento, Fuente, read_cfdi};
use score_ocr::{Limits, extract_text, read_document};

fn fixture(name: &str) -> CfdiFacts {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures/documents").join(name);
    read_cfdi(&std::fs::read(path).expect("fixture")).expect("fixture reads")
}

const RECEIPTS: [&str; 3] = ["quincenal-40-infonavit-1.xml", "semanal-33-fonacot-2.xml", "mensual-40-pensionado-1.xml"];

fn receipt(doc: Documento) -> score_docs::ReciboImpreso {
    match doc {
        Documento::ReciboNomina(r) => *r,
        other => panic!("not a receipt: {other:?}"),
    }
}

#[test]
fn a_printed_receipt_reads_back_to_its_xml_facts_from_a_pdf_a_photo_and_a_scan() {
    let limits = Limits::default();
    let mut exact_scans = 0;
    for name in RECEIPTS {
        // The XML's facts, but paper carries no seal (its seniority, the one its dates give,
        // reads back: score-docs' antiguedad.rs).
        let facts = CfdiFacts { sello: score_docs::Sello::impreso(), ..fixture(name) };
        let pdf = text_pdf(&common::print(&facts), 1);

        let text = extract_text(&pdf, &limits).expect("text layer");
        assert_eq!((text.fuente, text.confianza, text.paginas), (Fuente::Pdf, Decimal::ONE, 1), "{name}");
        let from_pdf = receipt(read_document(&pdf, None, &[], &limits).expect("reads"));
        assert_eq!(from_pdf.hechos, facts, "{name}: PDF\n{}", text.text);

        for (what, bytes) in [("PNG", render(&pdf, 300, "png")), ("scanned PDF", scanned_pdf(&render(&pdf, 300, "pgm")))] {
            let text = extract_text(&bytes, &limits).unwrap_or_else(|e| panic!("{name} {what}: {e}"));
            assert_eq!(text.fuente, Fuente::Ocr, "{name} {what}");
            assert!(text.confianza > Decimal::new(80, 2), "{name} {what}: confianza {}", text.confianza);
            let read = receipt(read_document(&bytes, None, &[], &limits).unwrap_or_else(|e| panic!("{name} {what}: {e}\n{}", text.text)));
            assert_eq!(read.fuente, Fuente::Ocr);
            // The figures a lender uses are read right from the image ...
            let key = |f: &CfdiFacts| (f.uuid.clone(), f.fecha_pago.clone(), f.total_percepciones, f.total_deducciones, f.neto);
            assert_eq!(key(&read.hechos), key(&facts), "{name}: {what}\n{}", text.text);
            // ... and a receipt counts as verified only when every fact is the XML's: a misread
            // identifier (Tesseract reads Courier's "IIA" as "IIIA") fails its check digit.
            if read.verificado {
                assert_eq!(read.hechos, facts, "{name}: {what} verified with a misread fact\n{}", text.text);
            }
            if read.hechos == facts {
                assert_eq!(read.comprobaciones, from_pdf.comprobaciones, "{name}: {what}");
                exact_scans += 1;
            }
        }
    }
    assert!(exact_scans >= 3, "clean 300 dpi scans read every fact right ({exact_scans} of 6)");
}

#[test]
fn bad_files_and_limits_have_their_codes() {
    let limits = Limits::default();
    let code = |bytes: &[u8], limits: &Limits| extract_text(bytes, limits).map(|_| ()).map_err(|e| e.code);
    let pdf = text_pdf(&common::print(&fixture(RECEIPTS[0])), 3);

    assert_eq!(code(b"<?xml version=\"1.0\"?><a/>", &limits), Err(DocErrorCode::DocumentUnsupportedType));
    assert_eq!(code(b"", &limits), Err(DocErrorCode::DocumentUnsupportedType));
    assert_eq!(code(&pdf[..200], &limits), Err(DocErrorCode::DocumentUnreadable), "a cut-off PDF");
    assert_eq!(code(b"%PDF-1.4\n%garbage", &limits), Err(DocErrorCode::DocumentUnreadable));
    assert_eq!(code(&pdf, &Limits { max_pages: 2, ..Limits::default() }), Err(DocErrorCode::DocumentTooLarge), "pages");
    assert_eq!(code(&pdf, &Limits { max_bytes: 100, ..Limits::default() }), Err(DocErrorCode::DocumentTooLarge), "bytes");
    assert_eq!(code(&pdf, &Limits { timeout: Duration::from_millis(1), ..Limits::default() }), Err(DocErrorCode::DocumentTooLarge), "time");

    // A PNG whose header claims 100,000 x 100,000 pixels is refused before any tool opens it.
    let mut bomb = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    bomb.extend_from_slice(&100_000u32.to_be_bytes());
    bomb.extend_from_slice(&100_000u32.to_be_bytes());
    bomb.extend_from_slice(&[8, 0, 0, 0, 0]);
    assert_eq!(code(&bomb, &limits), Err(DocErrorCode::DocumentTooLarge));
    assert_eq!(code(&bomb[..20], &limits), Err(DocErrorCode::DocumentUnreadable), "a cut-off header");
    // A PNG that is a header and nothing else: Tesseract fails on it, cleanly.
    let no_limit = Limits { max_pixels: u64::MAX, ..Limits::default() };
    assert_eq!(code(&bomb, &no_limit), Err(DocErrorCode::DocumentUnreadable));

    // A scanned page larger than the pixel limit at the rendering resolution.
    let scan = scanned_pdf(&render(&pdf, 50, "pgm"));
    assert_eq!(code(&scan, &Limits { max_pixels: 1_000_000, ..Limits::default() }), Err(DocErrorCode::DocumentTooLarge));

    // Every message is Spanish and names no internal code.
    let err = extract_text(b"GIF89a", &limits).expect_err("GIF");
    assert!(err.message.contains("PDF, PNG ni JPEG"), "{}", err.message);
}
