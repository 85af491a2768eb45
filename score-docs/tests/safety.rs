//! The reader's safety contract: any bytes give facts or a coded error, never a panic; DTDs
//! and entities are refused, not expanded; size and depth are bounded. Runs in plain
//! `cargo test -p score-docs` (and so in `make test`).

use proptest::prelude::*;
use score_docs::{DocErrorCode, MAX_BYTES, MAX_DEPTH, read_cfdi};

fn receipt() -> Vec<u8> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/documents/quincenal-40-infonavit-1.xml");
    std::fs::read(path).expect("fixture")
}

fn code(bytes: &[u8]) -> Option<DocErrorCode> {
    read_cfdi(bytes).err().map(|e| e.code)
}

/// The receipt with `<!DOCTYPE ...>` inserted after the XML declaration.
fn with_doctype(doctype: &str) -> Vec<u8> {
    let text = String::from_utf8(receipt()).expect("utf-8");
    let (decl, rest) = text.split_once('\n').expect("declaration line");
    format!("{decl}\n{doctype}\n{rest}").into_bytes()
}

#[test]
fn billion_laughs_is_refused_unexpanded() {
    let mut entities = String::from("<!ENTITY a0 \"lol\">");
    for i in 1..30 {
        entities.push_str(&format!("<!ENTITY a{i} \"{}\">", format!("&a{};", i - 1).repeat(10)));
    }
    let doc = with_doctype(&format!("<!DOCTYPE cfdi:Comprobante [{entities}]>"));
    assert_eq!(code(&doc), Some(DocErrorCode::DocumentUnsafeXml));
}

#[test]
fn external_entities_and_dtds_are_refused() {
    for doctype in [
        "<!DOCTYPE x [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>",
        "<!DOCTYPE x SYSTEM \"http://127.0.0.1/evil.dtd\">",
        "<!DOCTYPE x [<!ENTITY % p SYSTEM \"http://127.0.0.1/p\"> %p;]>",
        "<!DOCTYPE x>",
    ] {
        assert_eq!(code(&with_doctype(doctype)), Some(DocErrorCode::DocumentUnsafeXml), "{doctype}");
    }
    // An entity reference without any DTD, in an attribute and in text.
    let text = String::from_utf8(receipt()).expect("utf-8");
    let in_attr = text.replacen("Rfc=\"EKU9003173C9\"", "Rfc=\"&xxe;\"", 1);
    assert_eq!(code(in_attr.as_bytes()), Some(DocErrorCode::DocumentUnsafeXml));
    let in_text = text.replacen("<cfdi:Conceptos>", "<cfdi:Conceptos>&xxe;", 1);
    assert_eq!(code(in_text.as_bytes()), Some(DocErrorCode::DocumentUnsafeXml));
}

#[test]
fn a_cut_off_receipt_is_refused() {
    let full = receipt();
    for cut in [full.len() - 30, full.len() / 2, 200] {
        assert_eq!(code(&full[..cut]), Some(DocErrorCode::DocumentInvalidXml), "cut at {cut}");
    }
}

#[test]
fn size_and_depth_are_bounded() {
    let mut big = receipt();
    big.resize(MAX_BYTES + 1, b' ');
    assert_eq!(code(&big), Some(DocErrorCode::DocumentTooLarge));
    let text = String::from_utf8(receipt()).expect("utf-8");
    let deep = text.replacen("<cfdi:Conceptos>", &format!("<cfdi:Conceptos>{}{}", "<a>".repeat(MAX_DEPTH), "</a>".repeat(MAX_DEPTH)), 1);
    assert_eq!(code(deep.as_bytes()), Some(DocErrorCode::DocumentTooLarge));
    // A huge attribute within the size limit is read (and ignored) without trouble.
    let huge = text.replacen("Serie=\"NOM\"", &format!("Serie=\"{}\"", "N".repeat(MAX_BYTES - text.len() - 16)), 1);
    assert!(read_cfdi(huge.as_bytes()).is_ok());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Arbitrary bytes: a coded error (or, impossibly, facts), never a panic.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let _ = read_cfdi(&bytes);
    }

    /// The receipt cut short, or with bytes overwritten or inserted: never a panic, and a
    /// document that still reads keeps the worker it names.
    #[test]
    fn mutated_receipts_never_panic(
        cut in 0usize..7000,
        edits in proptest::collection::vec((0usize..7000, any::<u8>(), any::<bool>()), 0..8),
    ) {
        let mut doc = receipt();
        for (at, byte, insert) in edits {
            let at = at % (doc.len() + 1);
            if insert { doc.insert(at, byte) } else if at < doc.len() { doc[at] = byte }
        }
        doc.truncate(cut.max(1).min(doc.len()));
        if let Ok(facts) = read_cfdi(&doc) {
            prop_assert!(!facts.receptor_rfc.is_empty());
        }
    }

    /// XML-looking fragments (markup soup of the constructs that matter): never a panic.
    #[test]
    fn markup_soup_never_panics(parts in proptest::collection::vec(prop::sample::select(vec![
        "<cfdi:Comprobante xmlns:cfdi=\"http://www.sat.gob.mx/cfd/4\" Version=\"4.0\">", "</cfdi:Comprobante>",
        "<nomina12:Nomina xmlns:nomina12=\"http://www.sat.gob.mx/nomina12\" Version=\"1.2\">", "</nomina12:Nomina>",
        "<nomina12:Deduccion TipoDeduccion=\"010\" Importe=\"1.5\"/>", "<!DOCTYPE a>", "&amp;", "&x;", "&#0;",
        "<![CDATA[x]]>", "<!-- c -->", "<?pi x?>", "<a b=\"&#x110000;\"/>", "<a", ">", "\"", "'", "<", "\u{0}", "é",
    ]), 0..40)) {
        let _ = read_cfdi(parts.concat().as_bytes());
    }
}
