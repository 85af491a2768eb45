//! Printed payroll receipts end to end with the real tools: each fixture receipt printed to a
//! PDF with a text layer, rendered to a PNG photo-like scan, and wrapped as a scanned PDF with
//! no text layer, reads back to the facts `read_cfdi` reads from its XML; and every limit and
//! bad file gives its code.

#[path = "../../score-docs/tests/common/mod.rs"]
mod common;

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use rust_decimal::Decimal;
use score_docs::{CfdiFacts, DocErrorCode, Documento, Fuente, read_cfdi};
use score_ocr::{Limits, extract_text, read_document};

fn fixture(name: &str) -> CfdiFacts {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures/documents").join(name);
    read_cfdi(&std::fs::read(path).expect("fixture")).expect("fixture reads")
}

const RECEIPTS: [&str; 3] = ["quincenal-40-infonavit-1.xml", "semanal-33-fonacot-2.xml", "mensual-40-pensionado-1.xml"];

/// A one-page PDF whose text layer is `text` in Courier (WinAnsi, so accents print), as simple
/// as a PDF gets; `pages` repeats the page.
fn text_pdf(text: &str, pages: usize) -> Vec<u8> {
    let mut content = b"BT /F1 8 Tf 10 TL 30 810 Td\n".to_vec();
    for line in text.lines() {
        content.push(b'(');
        for c in line.chars() {
            let byte = match c {
                '(' | ')' | '\\' => {
                    content.push(b'\\');
                    c as u8
                }
                'á' => 0xE1,
                'é' => 0xE9,
                'í' => 0xED,
                'ó' => 0xF3,
                'ú' => 0xFA,
                'ñ' => 0xF1,
                'Ñ' => 0xD1,
                'ü' => 0xFC,
                c if c.is_ascii() => c as u8,
                _ => b'?',
            };
            content.push(byte);
        }
        content.extend_from_slice(b") Tj T*\n");
    }
    content.extend_from_slice(b"ET\n");
    let kids: Vec<String> = (0..pages).map(|i| format!("{} 0 R", 5 + i)).collect();
    let mut objects = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        format!("<< /Type /Pages /Kids [{}] /Count {pages} >>", kids.join(" ")).into_bytes(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>".to_vec(),
        [format!("<< /Length {} >>\nstream\n", content.len()).into_bytes(), content, b"endstream".to_vec()].concat(),
    ];
    for _ in 0..pages {
        objects.push(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 842] /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>"
                .to_vec(),
        );
    }
    pdf(objects)
}

/// A PDF of numbered objects (1 is the catalog) with its cross-reference table.
fn pdf(objects: Vec<Vec<u8>>) -> Vec<u8> {
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, object) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        out.extend_from_slice(object);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    out.extend_from_slice(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes());
    for offset in offsets {
        out.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(format!("trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n", objects.len() + 1).as_bytes());
    out
}

/// Poppler renders the PDF's first page as a scanner would: grey, at `dpi`, PNG or PGM.
fn render(pdf: &[u8], dpi: u32, format: &str) -> Vec<u8> {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("in.pdf"), pdf).expect("write");
    let mut args = vec!["-r".to_owned(), dpi.to_string(), "-gray".to_owned(), "-singlefile".to_owned()];
    if format == "png" {
        args.push("-png".to_owned()); // else binary PGM, pdftoppm's own format for grey
    }
    args.extend(["in.pdf".to_owned(), "out".to_owned()]);
    let status = Command::new("pdftoppm")
        .args(&args)
        .current_dir(dir.path())
        .status()
        .expect("pdftoppm (poppler-utils) installed: see score-ocr/test.mk");
    assert!(status.success());
    let ext = if format == "png" { "png" } else { "pgm" };
    std::fs::read(dir.path().join(format!("out.{ext}"))).expect("rendered page")
}

/// A scanned PDF: the grey image of a page (binary PGM) as the page's only content.
fn scanned_pdf(pgm: &[u8]) -> Vec<u8> {
    // P5\n<width> <height>\n<max>\n<pixels>
    let mut fields = Vec::new();
    let mut i = 0;
    while fields.len() < 4 {
        while pgm[i].is_ascii_whitespace() {
            i += 1;
        }
        let start = i;
        while !pgm[i].is_ascii_whitespace() {
            i += 1;
        }
        fields.push(String::from_utf8_lossy(&pgm[start..i]).into_owned());
    }
    let pixels = &pgm[i + 1..];
    let (width, height) = (&fields[1], &fields[2]);
    let image = [
        format!("<< /Type /XObject /Subtype /Image /Width {width} /Height {height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Length {} >>\nstream\n", pixels.len()).into_bytes(),
        pixels.to_vec(),
        b"\nendstream".to_vec(),
    ]
    .concat();
    let draw = b"q 612 0 0 842 0 0 cm /Im1 Do Q\n";
    pdf(vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 842] /Resources << /XObject << /Im1 4 0 R >> >> /Contents 5 0 R >>".to_vec(),
        image,
        [format!("<< /Length {} >>\nstream\n", draw.len()).into_bytes(), draw.to_vec(), b"endstream".to_vec()].concat(),
    ])
}

fn receipt(doc: Documento) -> score_docs::ReciboImpreso {
    match doc {
        Documento::ReciboNomina(r) => r,
        other => panic!("not a receipt: {other:?}"),
    }
}

#[test]
fn a_printed_receipt_reads_back_to_its_xml_facts_from_a_pdf_a_photo_and_a_scan() {
    let limits = Limits::default();
    let mut exact_scans = 0;
    for name in RECEIPTS {
        let facts = fixture(name);
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
