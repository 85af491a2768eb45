//! Reads printed documents and prints one JSON line per file: `{"archivo", "segundos",
//! "texto": {fuente, confianza, paginas, qr}, "documento"}` (`qr`: a QR code was decoded) or
//! `{"archivo", "segundos", "qr", "error": {code, message}}`; a `.xml` file is read as a CFDI
//! (`read_cfdi`, the true facts). Used by benches/ocr/accuracy.py and layouts.py; also a
//! quick way to see what a document reads to.
//!
//!     cargo run --release -p score-ocr --example read_document -- FILE...

use std::time::Instant;

use score_docs::BankLayout;
use score_ocr::{Limits, extract_text};

fn main() {
    let layouts = BankLayout::builtin();
    let limits = Limits::default();
    for path in std::env::args().skip(1) {
        let name = serde_json_string(&path);
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) => {
                println!(r#"{{"archivo":{name},"error":{{"code":"IO","message":{}}}}}"#, serde_json_string(&e.to_string()));
                continue;
            }
        };
        if path.ends_with(".xml") {
            match score_docs::read_cfdi(&bytes) {
                Ok(facts) => println!(r#"{{"archivo":{name},"documento":{}}}"#, facts.to_json()),
                Err(e) => println!(r#"{{"archivo":{name},"error":{{"code":"{}","message":{}}}}}"#, e.code.as_str(), serde_json_string(&e.message)),
            }
            continue;
        }
        let start = Instant::now();
        let extracted = extract_text(&bytes, &limits);
        // Whether a QR code was decoded, also when the text then could not be read.
        let qr = matches!(&extracted, Ok(t) if t.qr.is_some());
        let result = extracted.and_then(|t| {
            score_docs::read_document_text_with_qr(&t.text, t.qr.as_ref(), None, t.fuente, t.confianza, &layouts).map(|d| (t, d))
        });
        let seconds = start.elapsed().as_secs_f64();
        match result {
            Ok((t, d)) => println!(
                r#"{{"archivo":{name},"segundos":{seconds:.3},"texto":{{"fuente":"{}","confianza":{},"paginas":{},"qr":{}}},"documento":{}}}"#,
                if t.fuente == score_docs::Fuente::Pdf { "pdf" } else { "ocr" },
                t.confianza,
                t.paginas,
                t.qr.is_some(),
                d.to_json()
            ),
            Err(e) => println!(
                r#"{{"archivo":{name},"segundos":{seconds:.3},"qr":{qr},"error":{{"code":"{}","message":{}}}}}"#,
                e.code.as_str(),
                serde_json_string(&e.message)
            ),
        }
    }
}

/// A JSON string literal (quotes and backslashes escaped, control characters dropped).
fn serde_json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
