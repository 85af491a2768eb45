//! A printed receipt's QR code (the SAT's verification URL) read from a text PDF, a noisy PNG
//! and JPEG photo and a scanned PDF, printed rotated: UUID, RFCs and total come from the code
//! (`fuente` `qr`) and the total is checked against the totals read; without a legible code
//! the print is read from its text alone.

#[path = "../../score-docs/tests/common/mod.rs"]
mod common;
mod printing;

use printing::{render, scanned_pdf, text_pdf_drawing, text_pdf_image};

use std::io::Cursor;
use std::path::PathBuf;

use image::{GrayImage, ImageFormat, Luma};
use qrcode::{Color, QrCode};
use rust_decimal::Decimal;
use score_docs::{CfdiFacts, Documento, Fuente, ReciboImpreso, read_cfdi};
use score_ocr::{Limits, extract_text, read_document};

fn fixture(name: &str) -> CfdiFacts {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures/documents").join(name);
    read_cfdi(&std::fs::read(path).expect("fixture")).expect("fixture reads")
}

fn receipt(doc: Documento) -> ReciboImpreso {
    match doc {
        Documento::ReciboNomina(r) => *r,
        other => panic!("not a receipt: {other:?}"),
    }
}

/// The SAT's verification URL of a receipt (CFDI 3.3's `tt`: ten integer digits, six decimals).
fn sat_url(facts: &CfdiFacts, total: Decimal) -> String {
    let tt = format!("{:017.6}", total);
    format!(
        "https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?id={}&re={}&rr={}&tt={tt}&fe=rH8/bw==",
        facts.uuid.as_deref().expect("uuid"),
        facts.emisor_rfc,
        facts.receptor_rfc
    )
}

/// PDF operators painting `content`'s QR code, 130 points wide, at the page's lower right
/// corner, turned `degrees` about its centre (a receipt laid crooked on the scanner).
fn qr_drawing(content: &str, degrees: f64) -> Vec<u8> {
    let code = QrCode::new(content.as_bytes()).expect("fits a QR code");
    let n = code.width();
    let module = 130.0 / n as f64;
    let (c, s) = (degrees.to_radians().cos(), degrees.to_radians().sin());
    let (cx, cy) = (500.0, 110.0);
    // Rotate about the centre: translate to it, rotate, then draw from the code's corner.
    let mut out = format!("q 1 0 0 1 {cx} {cy} cm {c:.5} {s:.5} {:.5} {c:.5} 0 0 cm 0 g\n", -s).into_bytes();
    for (i, color) in code.to_colors().iter().enumerate() {
        if *color == Color::Dark {
            let (x, y) = (i % n, i / n);
            let left = x as f64 * module - 65.0;
            let bottom = 65.0 - (y + 1) as f64 * module;
            out.extend_from_slice(format!("{left:.3} {bottom:.3} {module:.3} {module:.3} re f\n").as_bytes());
        }
    }
    out.extend_from_slice(b"Q\n");
    out
}

/// A photo's grain: every pixel shifted by up to ±16 grey levels and one in a thousand
/// flipped to black or white, from a fixed seed (the same noise on every run).
fn noisy(png: &[u8]) -> GrayImage {
    let mut image = image::load_from_memory(png).expect("rendered page").into_luma8();
    let mut seed: u64 = 0x5EED_CFD1;
    let mut next = move || {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as u32
    };
    for Luma([value]) in image.pixels_mut() {
        let r = next();
        *value = match r % 1000 {
            0 => 0,
            1 => 255,
            _ => (i32::from(*value) + (r / 1000 % 33) as i32 - 16).clamp(0, 255) as u8,
        };
    }
    image
}

fn encoded(image: &GrayImage, format: ImageFormat) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    image.write_to(&mut out, format).expect("encodes");
    out.into_inner()
}

#[test]
fn the_qr_code_of_a_rotated_noisy_print_gives_uuid_rfcs_and_total() {
    let limits = Limits::default();
    let facts = CfdiFacts { sello: score_docs::Sello::impreso(), ..fixture("quincenal-40-infonavit-1.xml") };
    let url = sat_url(&facts, facts.neto);
    let pdf = text_pdf_drawing(&common::print(&facts), 1, &qr_drawing(&url, 7.0));
    let photo = noisy(&render(&pdf, 300, "png"));
    for (what, bytes) in [
        ("text PDF", pdf.clone()),
        ("noisy PNG", encoded(&photo, ImageFormat::Png)),
        ("noisy JPEG", encoded(&photo, ImageFormat::Jpeg)),
        ("scanned PDF", scanned_pdf(&render(&pdf, 300, "pgm"))),
    ] {
        let text = extract_text(&bytes, &limits).unwrap_or_else(|e| panic!("{what}: {e}"));
        let qr = text.qr.unwrap_or_else(|| panic!("{what}: no QR code found"));
        assert_eq!(qr.uuid, facts.uuid.clone().expect("uuid"), "{what}");
        assert_eq!((qr.emisor_rfc.as_str(), qr.receptor_rfc.as_str()), (facts.emisor_rfc.as_str(), facts.receptor_rfc.as_str()));
        assert_eq!(qr.total, facts.neto, "{what}");
        let read = receipt(read_document(&bytes, None, &[], &limits).unwrap_or_else(|e| panic!("{what}: {e}")));
        assert_eq!(read.fuente, Fuente::Qr, "{what}");
        assert_eq!((&read.hechos.uuid, &read.hechos.emisor_rfc, &read.hechos.receptor_rfc), (&facts.uuid, &facts.emisor_rfc, &facts.receptor_rfc), "{what}");
        assert_eq!(read.hechos.neto, facts.neto, "{what}: the totals read by OCR\n{}", text.text);
        assert_eq!(read.comprobaciones.total_qr_cuadra, Some(true), "{what}");
    }
}

#[test]
fn a_qr_total_that_disagrees_with_the_print_leaves_it_unverified() {
    let limits = Limits::default();
    let facts = CfdiFacts { sello: score_docs::Sello::impreso(), ..fixture("quincenal-40-infonavit-1.xml") };
    let url = sat_url(&facts, facts.neto + Decimal::new(1000, 0));
    let pdf = text_pdf_drawing(&common::print(&facts), 1, &qr_drawing(&url, 0.0));
    let read = receipt(read_document(&pdf, None, &[], &limits).expect("reads"));
    assert_eq!(read.fuente, Fuente::Qr);
    assert_eq!(read.comprobaciones.total_qr_cuadra, Some(false));
    assert!(!read.verificado, "the print's totals are not the QR code's");
    assert_eq!(read.hechos.neto, facts.neto, "the figures are the print's, as read");
}

#[test]
fn without_a_legible_qr_code_the_print_is_read_from_its_text() {
    let limits = Limits::default();
    let facts = CfdiFacts { sello: score_docs::Sello::impreso(), ..fixture("quincenal-40-infonavit-1.xml") };
    let print = common::print(&facts);
    for (what, drawing) in [
        ("no code", Vec::new()),
        ("a code that is not the SAT's URL", qr_drawing("https://example.com/recibo?id=1", 0.0)),
        // Half the code painted over: no decoder can read it.
        ("a torn code", [qr_drawing(&sat_url(&facts, facts.neto), 0.0), b"1 g 435 45 130 65 re f 0 g\n".to_vec()].concat()),
    ] {
        let pdf = text_pdf_drawing(&print, 1, &drawing);
        let text = extract_text(&pdf, &limits).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(text.qr, None, "{what}");
        let read = receipt(read_document(&pdf, None, &[], &limits).unwrap_or_else(|e| panic!("{what}: {e}")));
        assert_eq!(read.fuente, Fuente::Pdf, "{what}");
        assert_eq!(read.comprobaciones.total_qr_cuadra, None, "{what}");
        assert_eq!(read.hechos, facts, "{what}");
    }
}

/// A code embedded as an image (as payroll programs place it) is read from the image itself,
/// even printed too small for its page rendered at scan resolution to show it (an inch for a
/// code of the SAT's URL: under 3 pixels a module at 200 dpi), and from a code image without
/// its quiet zone at one pixel a module.
#[test]
fn a_qr_code_embedded_as_an_image_in_a_text_pdf() {
    let limits = Limits::default();
    let facts = CfdiFacts { sello: score_docs::Sello::impreso(), ..fixture("quincenal-40-infonavit-1.xml") };
    let code = QrCode::new(sat_url(&facts, facts.neto).as_bytes()).expect("fits");
    let n = code.width();
    let pixels: Vec<u8> = code.to_colors().iter().map(|c| if *c == Color::Dark { 0 } else { 255 }).collect();
    let pdf = text_pdf_image(&common::print(&facts), n, n, &pixels, "40 0 0 40 540 40 cm");
    let text = extract_text(&pdf, &limits).expect("reads");
    let qr = text.qr.expect("the embedded code is found");
    assert_eq!((qr.uuid.as_str(), qr.total), (facts.uuid.as_deref().expect("uuid"), facts.neto));
    let read = receipt(read_document(&pdf, None, &[], &limits).expect("reads"));
    assert_eq!((read.fuente, read.comprobaciones.total_qr_cuadra), (Fuente::Qr, Some(true)));
}
